"""Generator of the hostile-input corpus (issue 10): CSV tables and model files.

Nothing here is committed as a binary: the tests call :func:`write_csv_corpus` and
:func:`write_model_corpus` on a temporary folder. Run it by hand to look at the files::

    python tests/security/corpus.py /tmp/hostile

Every case says what must happen:

``"error"``
    the library raises ``DataError`` (``ModelFileError`` for models) and the CLI exits 2;
``"ok"``
    the library returns a result (and ``check`` holds on it) and the CLI does not fail
    with a traceback;
``"either"``
    a clean result or a clear ``DataError`` (both are acceptable; never a crash).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import struct
import sys
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data_samples"
DEFAULT_MODEL = SAMPLES / "default_model.sparge"
NEW_PATIENT = SAMPLES / "new_patient.csv"
#: A file the "evil" pickles would create if anything ever unpickled them.
PWNED = Path("/tmp/sparge_corpus_pwned")
#: Size a zip-bomb member inflates to (200 MB of zeros, ~0.2 MB compressed).
BOMB_BYTES = 200 * 1024**2
ESC_NAME = "\x1b[31mred\x1b[0m\x1b]0;owned\x07"
ESC_ID = "\x1b[2J\x1b[HP\x9b1"
MD_IMAGE = "![x](http://127.0.0.1:9/leak.png)"
FORMULAS = ["=HYPERLINK(\"http://127.0.0.1:9/x\",\"click\")", "+1+cmd|' /C calc'!A0",
            "@SUM(A1:A9)", "-2+3", "\t=1", "\r=2"]


@dataclass
class Case:
    """One hostile input and what must happen to it."""

    name: str
    path: Path
    expect: str  # "error" | "ok" | "either"
    args: tuple[str, ...] = ()  # CLI options for a CSV (--id, --label)
    check: Callable | None = field(default=None, repr=False)  # on the library result
    query: bool = False  # a CSV of new patients for the default model (CLI `similar`)
    cli_rc: int | None = None  # the CLI's exit code when it differs from the expectation

    def __str__(self) -> str:
        return self.name


# ---------------------------------------------------------------------------- CSVs
def _table(n: int = 12, header=("id", "age", "sbp", "smoker", "outcome"), seed: int = 0
           ) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    rows = [list(header)]
    for i in range(n):
        rows.append([f"P{i + 1}", str(int(rng.integers(30, 80))), str(int(rng.integers(100, 160))),
                     ["yes", "no"][int(rng.integers(0, 2))], ["alive", "dead"][i % 2]])
    return rows


def _csv(rows, sep: str = ",") -> str:
    def cell(c):
        c = str(c)
        return '"' + c.replace('"', '""') + '"' if any(x in c for x in (sep, '"', "\n", "\r")) \
            else c
    return "\n".join(sep.join(cell(c) for c in r) for r in rows) + "\n"


def _query_rows(id_value: str | None = None, column_rename: dict | None = None) -> str:
    text = NEW_PATIENT.read_text(encoding="utf-8")
    head, *rest = text.splitlines()
    cols = head.split(",")
    if column_rename:
        cols = [column_rename.get(c, c) for c in cols]
    rows = [r.split(",") for r in rest if r]
    if id_value is not None:
        for i, r in enumerate(rows):
            r[0] = f"{id_value}{i}"
    return _csv([cols] + rows)


def _first_age_is_40(df) -> bool:
    return str(df["age"].iloc[0]).strip() == "40" and str(df["sbp"].iloc[0]).strip() == "120"


def _age_col(df) -> bool:
    return "age" in df.columns and str(df["age"].iloc[0]).strip() not in ("", "nan")


def write_csv_corpus(folder: Path) -> list[Case]:
    """Write ~30 hostile CSVs into ``folder``; return their cases."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cases: list[Case] = []
    idl = ("--id", "id", "--label", "outcome")

    def add(name, content, expect, args=idl, check=None, query=False):
        path = folder / f"{name}.csv"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        cases.append(Case(name, path, expect, tuple(args), check, query))

    base = _table()
    body = "".join(f"P{i},{40 + i},{120 + i},\n" for i in range(12))
    add("ragged_trailing_delimiter", "id,age,sbp\n" + body, "ok", ("--id", "id"),
        _first_age_is_40)
    add("ragged_trailing_delimiter_header_too", "id,age,sbp,\n" + body, "ok", ("--id", "id"),
        _first_age_is_40)
    add("ragged_extra_field", "id,age,sbp\nP1,40,120\nP2,50,130,999\nP3,60,140\n", "error",
        ("--id", "id"))
    add("ragged_short_row", "id,age,sbp\nP1,40,120\nP2,50\nP3,60,140\nP4,61,141\n", "either",
        ("--id", "id"))
    add("utf16_le_bom", _csv(base).encode("utf-16"), "ok", idl, _age_col)
    add("utf16_be_bom", b"\xfe\xff" + _csv(base).encode("utf-16-be"), "ok", idl, _age_col)
    add("utf8_bom", b"\xef\xbb\xbf" + _csv(base).encode(), "ok", idl,
        lambda df: "id" in df.columns)
    add("latin1", _csv([r[:4] + ["décédé" if r[4] == "dead" else r[4]] for r in base])
        .encode("latin-1"), "ok")
    add("crlf", _csv(base).replace("\n", "\r\n"), "ok", idl, _age_col)
    add("nul_bytes", _csv(base).replace("P3", "P\x003"), "either")
    add("formula_cells", _csv([base[0]] + [[FORMULAS[i % len(FORMULAS)] + str(i)] + r[1:3] +
                                           [FORMULAS[(i + 1) % len(FORMULAS)]] + r[4:]
                                           for i, r in enumerate(base[1:])]), "either")
    add("formula_headers", _csv([["=id", "+age", "@sbp", "-smoker", "outcome"]] + base[1:]),
        "either", ("--id", "=id", "--label", "outcome"))
    add("markdown_images", _csv([["id", MD_IMAGE, "sbp", "smoker", "outcome"]] +
                                [[f"{MD_IMAGE}{i}"] + r[1:4] + [MD_IMAGE if r[4] == "dead"
                                                                else "alive"]
                                 for i, r in enumerate(base[1:])]), "ok")
    add("escape_codes", _csv([["id", ESC_NAME, "sbp", "smoker", "outcome"]] +
                             [[f"{ESC_ID}{i}"] + r[1:3] + [f"\x1b[1m{r[3]}"] + r[4:]
                              for i, r in enumerate(base[1:])]), "ok")
    big = [r[:] for r in base]
    big[3][3] = "x" * (5 * 1024**2)
    add("cell_5mb", _csv(big), "either")
    add("decimal_comma", _csv([["id", "weight", "sbp", "outcome"]] +
                              [[f"P{i}", f"1.{i:03d},5", f"{120 + i},0", "alive"]
                               for i in range(12)], sep=";"), "either")
    add("duplicate_headers", _csv([["id", "age", "age", "smoker", "outcome"]] + base[1:]),
        "error")
    add("empty_header_name", _csv([["id", "", "sbp", "smoker", "outcome"]] + base[1:]),
        "either")
    add("only_header", _csv([base[0]]), "error")
    add("empty_file", b"", "error")
    add("whitespace_only", b"  \n\n \t\n", "error")
    add("binary_random", np.random.default_rng(1).bytes(4096), "error")
    add("png_disguised", b"\x89PNG\r\n\x1a\n" + bytes(200), "error")
    add("one_column", "id\nP1\nP2\nP3\n", "either", ("--id", "id"))
    add("duplicate_ids", _csv([base[0]] + [["P1"] + r[1:] for r in base[1:]]), "either")
    add("all_missing_column", _csv([base[0] + ["empty"]] + [r + [""] for r in base[1:]]),
        "ok")
    add("label_all_missing", _csv([base[0]] + [r[:4] + [""] for r in base[1:]]), "either")
    add("inf_nan_overflow", _csv([base[0]] + [r[:1] + [["inf", "-inf", "NaN", "1e400"][i % 4]]
                                              + r[2:] for i, r in enumerate(base[1:])]),
        "either")
    add("unbalanced_quote", _csv(base).replace("P5", '"P5'), "either")
    add("quoted_newlines", _csv([base[0]] + [[r[0] + "\nline2"] + r[1:] for r in base[1:]]),
        "either")
    add("bidi_override_names", _csv([["id", "age\u202egnp.exe", "sbp", "smoker", "outcome"]]
                                    + base[1:]), "ok")
    wide = [["id"] + [f"c{j}" for j in range(300)]] + \
        [[f"P{i}"] + [str(i * j % 97) for j in range(300)] for i in range(5)]
    add("very_wide", _csv(wide), "either", ("--id", "id"))
    # new patients for the default model (CLI `similar`): hostile IDs and column names
    add("query_formula_ids", _query_rows("=HYPERLINK(\"http://127.0.0.1:9\",\"x\")"), "ok",
        (), query=True)
    add("query_escape_ids", _query_rows(ESC_ID), "ok", (), query=True)
    add("query_markdown_ids", _query_rows(MD_IMAGE), "ok", (), query=True)
    add("query_escape_column", _query_rows(None, {"CAC LAD": "CAC LAD" + ESC_NAME}), "ok", (),
        query=True)
    return cases


# ---------------------------------------------------------------------------- models
class _Evil:
    def __reduce__(self):
        return (os.system, (f"touch {PWNED}",))


_BASE: dict = {}


def write_base_model(folder: Path) -> tuple[Path, Path]:
    """A small valid model with its encoder (80 patients, 6 features; ~1 s to train) and a
    matching CSV of two new patients. The hostile files are variations of this model."""
    from sparge.data.reading import read_table
    from sparge.services.persistence import save_model
    from sparge.services.workflow import encode_cohort, train

    rng = np.random.default_rng(7)
    rows = [["id", "age", "sbp", "bmi", "chol", "smoker", "sex", "outcome"]]
    for i in range(82):
        y = i % 2
        rows.append([f"P{i + 1}", f"{rng.normal(55 + 8 * y, 6):.0f}",
                     f"{rng.normal(125 + 10 * y, 9):.0f}", f"{rng.normal(26, 3):.1f}",
                     f"{rng.normal(5 + y, 0.7):.2f}", ["yes", "no"][int(rng.integers(0, 2))],
                     ["F", "M"][int(rng.integers(0, 2))], ["alive", "dead"][y]])
    table, query = folder / "base_cohort.csv", folder / "base_query.csv"
    table.write_text(_csv(rows[:81]), encoding="utf-8")
    query.write_text(_csv([[c for c in rows[0] if c != "outcome"]] +
                          [r[:-1] for r in rows[81:]]), encoding="utf-8")
    cohort = encode_cohort(read_table(table), id_column="id", label_column="outcome")
    model = train(cohort, {"max_iter": 1, "n_components": 4, "random_state": 0})
    path = folder / "base.sparge"
    save_model(path, model, encoder=cohort.encoder)
    return path, query


def _base(path: Path | None = None) -> tuple[dict[str, np.ndarray], dict]:
    """Fresh copies of the base model's arrays and metadata (read once)."""
    if path is not None:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        _BASE["current"] = (arrays, arrays.pop("__meta__").tobytes().decode("utf-8"))
    arrays, meta = _BASE["current"]
    return {k: v.copy() for k, v in arrays.items()}, json.loads(meta)


def _npy(arr: np.ndarray, allow_pickle: bool = False) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, allow_pickle=allow_pickle)
    return buf.getvalue()


def _meta_bytes(meta) -> bytes:
    blob = meta if isinstance(meta, bytes) else json.dumps(meta).encode("utf-8")
    return _npy(np.frombuffer(blob, dtype=np.uint8))


def _write_model(path: Path, arrays: dict[str, np.ndarray], meta, *,
                 extra: dict[str, bytes] | None = None,
                 compression=zipfile.ZIP_DEFLATED) -> None:
    """A model archive member by member (so the tests control every byte)."""
    with warnings.catch_warnings(), zipfile.ZipFile(path, "w", compression) as zf:
        warnings.simplefilter("ignore")  # a duplicate name is the point of one case
        for name, arr in arrays.items():
            zf.writestr(f"{name}.npy", _npy(arr, allow_pickle=arr.dtype.hasobject))
        if meta is not None:
            zf.writestr("__meta__.npy", _meta_bytes(meta))
        for name, raw in (extra or {}).items():
            zf.writestr(name, raw)


def _stream_member(zf: zipfile.ZipFile, name: str, header: bytes, n_bytes: int) -> None:
    """A member of ``header`` + ``n_bytes`` zeros, deflated while written (no big buffer;
    the archives open it with compression level 1: a bomb all the same, written in a third
    of the time by every test worker's collection)."""
    with zf.open(name, "w", force_zip64=True) as fh:
        fh.write(header)
        chunk = bytes(1 << 20)
        for _ in range(n_bytes // len(chunk)):
            fh.write(chunk)
        fh.write(bytes(n_bytes % len(chunk)))


def _npy_header(shape: tuple[int, ...], dtype=np.float64) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)),
              "fortran_order": False, "shape": shape})
    return buf.getvalue()


def _patch_size(path: Path, member: str, new_size: int) -> None:
    """Make a member declare ``new_size`` uncompressed bytes (local and central header)."""
    data = bytearray(path.read_bytes())
    target = member.encode()
    pos = 0
    while (pos := data.find(b"PK\x01\x02", pos)) >= 0:
        n_len = struct.unpack("<H", data[pos + 28:pos + 30])[0]
        if data[pos + 46:pos + 46 + n_len] == target:
            data[pos + 24:pos + 28] = struct.pack("<I", new_size)
            local = struct.unpack("<I", data[pos + 42:pos + 46])[0]
            data[local + 22:local + 26] = struct.pack("<I", new_size)
        pos += 4
    path.write_bytes(bytes(data))


def write_model_corpus(folder: Path, base: Path | None = None) -> list[Case]:
    """Write ~75 hostile model files into ``folder``, variations of ``base`` (default: a
    small model trained by :func:`write_base_model`; pass the bundled
    ``data_samples/default_model.sparge`` for a full-size one)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if base is None:
        base, _ = write_base_model(folder)
    a0, _ = _base(base)
    n_feat, n_atoms = a0["mean_"].shape[0], a0["codes_"].shape[1]
    cases: list[Case] = []

    def path_of(name):
        return folder / f"{name}.sparge"

    def add_raw(name, content: bytes, expect="error"):
        path_of(name).write_bytes(content)
        cases.append(Case(name, path_of(name), expect))

    def add(name, arrays=None, meta=None, expect="error", cli_rc=None, **kw):
        a, m = _base()
        if arrays is not None:
            a = arrays(a) or a
        if meta is not None:
            m = meta(m) if callable(meta) else meta
        _write_model(path_of(name), a, m, **kw)
        cases.append(Case(name, path_of(name), expect, cli_rc=cli_rc))

    def set_meta(key, value):
        def f(m):
            m[key] = value
            return m
        return f

    def set_param(key, value):
        def f(m):
            m["params"][key] = value
            return m
        return f

    good = Path(base).read_bytes()
    # -- not a model at all
    add_raw("pickle_renamed", pickle.dumps(_Evil()))
    add_raw("random_bytes", np.random.default_rng(0).bytes(50_000))
    add_raw("empty", b"")
    add_raw("text", b"this is not a model\n" * 10)
    add_raw("truncated_half", good[: len(good) // 2])
    add_raw("truncated_tail", good[:-100])
    add_raw("zip_of_text", _zip_bytes({"readme.txt": b"hello"}))
    add_raw("zip_empty", _zip_bytes({}))
    # -- members
    add("extra_member", extra={"evil.npy": _npy(np.zeros(3))})
    add("extra_member_within_count", arrays=lambda a: _drop(a, "completion_ridge_"),
        extra={"evil.npy": _npy(np.zeros(3))})
    add("extra_member_path_traversal", extra={"../../etc/evil.npy": _npy(np.zeros(3))})
    a, m = _base()
    _write_model(path_of("zip_bomb_extra_member"), a, m)
    with zipfile.ZipFile(path_of("zip_bomb_extra_member"), "a", zipfile.ZIP_DEFLATED,
                         compresslevel=1) as zf:
        _stream_member(zf, "bomb.npy", _npy_header((BOMB_BYTES // 8,)), BOMB_BYTES)
    cases.append(Case("zip_bomb_extra_member", path_of("zip_bomb_extra_member"), "error"))
    a, m = _base()
    _write_model(path_of("zip_bomb_replaces_optional"), _drop(a, "completion_ridge_"), m)
    with zipfile.ZipFile(path_of("zip_bomb_replaces_optional"), "a", zipfile.ZIP_DEFLATED,
                         compresslevel=1) as zf:
        _stream_member(zf, "bomb.npy", _npy_header((BOMB_BYTES // 8,)), BOMB_BYTES)
    cases.append(Case("zip_bomb_replaces_optional", path_of("zip_bomb_replaces_optional"),
                      "error"))
    a, m = _base()
    a.pop("codes_")
    _write_model(path_of("zip_bomb_in_codes"), a, m)
    with zipfile.ZipFile(path_of("zip_bomb_in_codes"), "a", zipfile.ZIP_DEFLATED,
                         compresslevel=1) as zf:
        rows = BOMB_BYTES // 8 // n_atoms  # header and size consistent: only the shape lies
        _stream_member(zf, "codes_.npy", _npy_header((rows, n_atoms)), rows * n_atoms * 8)
    cases.append(Case("zip_bomb_in_codes", path_of("zip_bomb_in_codes"), "error"))
    a, m = _base()
    _write_model(path_of("zip_bomb_in_meta"), a, None)
    with zipfile.ZipFile(path_of("zip_bomb_in_meta"), "a", zipfile.ZIP_DEFLATED,
                         compresslevel=1) as zf:
        _stream_member(zf, "__meta__.npy", _npy_header((BOMB_BYTES,), np.uint8), BOMB_BYTES)
    cases.append(Case("zip_bomb_in_meta", path_of("zip_bomb_in_meta"), "error"))
    add("lying_size_smaller")
    _patch_size(path_of("lying_size_smaller"), "codes_.npy", 1000)
    add("lying_size_larger")
    _patch_size(path_of("lying_size_larger"), "embedding_.npy", 900 * 1024**2)
    add("lying_size_meta")
    _patch_size(path_of("lying_size_meta"), "__meta__.npy", 3 * 1024**3)
    add("many_members", extra={f"x{i}.npy": b"" for i in range(300)})
    add("duplicate_member", arrays=lambda a: _drop(a, "completion_ridge_"),
        extra={"mean_.npy": _npy(np.zeros(n_feat))})
    add("bzip2_members", compression=zipfile.ZIP_BZIP2)
    add("missing_array", arrays=lambda a: _drop(a, "codes_"))
    add("missing_meta", meta=None, arrays=None)
    _write_model(path_of("missing_meta"), _base()[0], None)
    add("missing_y_with_labels", arrays=lambda a: _drop(a, "y_"))
    # -- arrays
    add("wrong_dtype_int", arrays=lambda a: a.update(mean_=a["mean_"].astype(np.int64)))
    add("wrong_dtype_complex", arrays=lambda a: a.update(
        projection_=a["projection_"].astype(np.complex128)))
    add("wrong_dtype_text", arrays=lambda a: a.update(scale_=a["scale_"].astype(str)))
    add("object_array_pickle", arrays=lambda a: a.update(
        embedding_=np.array([_Evil()] * 4, dtype=object)))
    add("structured_dtype", arrays=lambda a: a.update(
        mean_=np.zeros(n_feat, dtype=[("a", "f8"), ("b", "i4")])))
    add("array_transposed", arrays=lambda a: a.update(codes_=a["codes_"].T.copy()))
    add("array_3d", arrays=lambda a: a.update(projection_=a["projection_"][None]))
    add("nan_in_projection", arrays=lambda a: a["projection_"].__setitem__((0, 0), np.nan))
    add("inf_in_embedding", arrays=lambda a: a["embedding_"].__setitem__((1, 1), np.inf))
    add("negative_ridge", arrays=lambda a: a.update(
        completion_ridge_=-np.abs(a["completion_ridge_"]) - 1))
    add("labels_dtype_mismatch", arrays=lambda a: a.update(classes_=np.arange(3)))
    a, m = _base()
    _write_model(path_of("npy_shape_1e12"), {k: v for k, v in a.items() if k != "codes_"}, m,
                 extra={"codes_.npy": _npy_header((10**12, n_atoms)) + bytes(800)})
    cases.append(Case("npy_shape_1e12", path_of("npy_shape_1e12"), "error"))
    # -- metadata
    add("meta_not_json", meta=b"\xff\xfe{not json")
    add("meta_not_object", meta=[1, 2, 3])
    add("meta_wrong_format", meta=set_meta("format", "other"))
    add("meta_wrong_version", meta=set_meta("version", 99))
    add("meta_deep_nesting", meta=b"[" * 100_000 + b"]" * 100_000)
    add("objective_text", meta=set_meta("objective", "abc"))

    def set_forest(key, value):
        def f(m):
            m["forest"][key] = value
            return m
        return f

    # what the trees split on: only the two known inputs are read
    add("forest_inputs_unknown", meta=set_forest("inputs", "__import__('os')"))
    add("forest_inputs_list", meta=set_forest("inputs", ["features"]))
    add("completion_lambda_text", meta=set_meta("completion_lambda", "abc"))
    add("best_iteration_text", meta=set_meta("best_iteration", "1"))
    add("best_iteration_huge", meta=set_meta("best_iteration", 10**30))
    add("fit_time_text", meta=set_meta("fit_time", "abc"))
    add("fit_time_nan", meta=lambda m: json.dumps(m).replace(
        f'"fit_time": {json.dumps(m["fit_time"])}', '"fit_time": NaN').encode())
    add("fit_time_1e400", meta=lambda m: json.dumps(m).replace(
        f'"fit_time": {json.dumps(m["fit_time"])}', '"fit_time": 1e400').encode())
    add("r2_text", meta=set_param("r2", "abc"))
    add("n_components_negative", meta=set_param("n_components", -3))
    add("representation_unknown", meta=set_param("representation", "pickle"))
    add("param_unknown", meta=set_param("callback", "os.system"))
    add("params_list", meta=set_meta("params", [1, 2]))
    add("history_not_list", meta=set_meta("history", "abc"))
    add("history_of_numbers", meta=set_meta("history", [1, 2, 3]))
    add("history_text_values", meta=set_meta("history", [{"J": "abc"}]))
    add("roles_as_list", meta=lambda m: m["encoder"].update(roles=["id", "label"]) or m)
    add("role_unknown", meta=lambda m: m["encoder"]["roles"].update(x="exec") or m)
    add("encoder_table_text_codes", meta=lambda m: m["encoder"].update(
        table={"smoker": {"yes": "=1+1"}}) or m)
    add("encoder_not_object", meta=set_meta("encoder", "abc"))
    add("encoder_missing_keys", meta=set_meta("encoder", {"params": {}}))
    add("feature_names_wrong_length", meta=lambda m: m.update(
        feature_names=m["feature_names"][:-1]) or m)
    add("feature_names_objects", meta=lambda m: m.update(
        feature_names=[{"a": 1}] * len(m["feature_names"])) or m)
    add("n_features_1e12", meta=set_meta("n_features_in", 10**12))
    add("n_features_float", meta=set_meta("n_features_in", 1e12))
    add("shapes_1e12", meta=set_meta("shapes", {"codes_": [10**12, n_atoms]}))
    add("shapes_mismatch", meta=set_meta("shapes", {"codes_": [12, n_atoms]}))
    add("train_ids_wrong_length", meta=lambda m: m.update(train_ids=m["train_ids"][:5]) or m)
    add("labels_kind_unknown", meta=set_meta("labels", "pickle"))
    # -- valid files: must load, display and answer
    add_raw("valid_default", good, expect="ok")
    add("valid_rewritten", expect="ok")
    add("valid_escape_ids", expect="ok", meta=lambda m: m.update(
        train_ids=[f"{ESC_ID}{i}" for i in range(len(m["train_ids"]))]) or m)
    # without an encoder the CLI cannot read a CSV: a clear exit 2, as documented
    add("valid_escape_feature_names_no_encoder", expect="ok", cli_rc=2, meta=lambda m: m.update(
        feature_names=[f"{ESC_NAME}{i}" if i < 3 else f for i, f in
                       enumerate(m["feature_names"])], encoder=None) or m)
    add("valid_formula_ids", expect="ok", meta=lambda m: m.update(
        train_ids=[f"=HYPERLINK(\"http://x\",\"{i}\")" for i in range(len(m["train_ids"]))])
        or m)
    add("valid_without_history_and_fit_time", expect="ok", meta=lambda m: m.update(
        history=None, fit_time=None, objective=None, best_iteration=None) or m)
    return cases


def _drop(arrays: dict, name: str) -> dict:
    arrays.pop(name)
    return arrays


def _zip_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, raw in members.items():
            zf.writestr(name, raw)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python tests/security/corpus.py FOLDER")
        return 2
    csvs = write_csv_corpus(Path(argv[0]) / "csv")
    models = write_model_corpus(Path(argv[0]) / "models")
    write_model_corpus(Path(argv[0]) / "models_full_size", DEFAULT_MODEL)
    print(f"wrote {len(csvs)} CSVs and {len(models)} model files under {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
