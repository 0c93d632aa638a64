"""Save and load models without pickle.

A ``.sparge`` file is a zip archive written by :func:`numpy.savez_compressed`: numeric
arrays only, plus one ``uint8`` array holding UTF-8 JSON metadata (format name and version,
parameters, feature names, classes, history, the encoder's tables, the shape of every
array). A pickle renamed to ``.sparge`` is never executed.

Loading trusts nothing in the file, in this order, before any array is read:

1. the size of the file (``_MAX_BYTES``, for paths, bytes and file-like uploads alike) and
   the number of members declared by the zip directory;
2. every member's name (only the expected arrays, no duplicates) and compression method;
3. the small ``__meta__`` member (declared size bounded, read bounded), validated against
   a schema: every field's type and range, every SparGE parameter, the encoder's tables;
4. every member's ``.npy`` header (dtype: no objects, the expected kind; shape: equal to
   the shapes the metadata declares and consistent across arrays) and the member's
   declared uncompressed size against the size that header implies (a zip bomb or a
   member that lies about its size is refused here, without inflating it);
5. then the arrays, each read only up to its declared size, and checked for finite values.

Anything else is refused with :class:`~sparge.errors.ModelFileError`, whose message names
the field or array at fault. Everything :func:`load_model` returns is safe to display
(``fit_time_`` a float or None, ``history_`` a list of dicts of floats, names as strings).

:func:`save_model` to a path writes a temporary file in the same folder, flushes and fsyncs
it, then renames it over the target (:func:`os.replace`): a crash or a kill during the save
leaves the previous file intact.
"""

from __future__ import annotations

import io
import json
import math
import os
import stat
import struct
import tempfile
import time
import zipfile
from typing import Any, BinaryIO

import numpy as np

from sparge.errors import DataError, ModelFileError
from sparge.estimator.forest_part import FOREST_INPUTS, FOREST_PROXIMITIES
from sparge.estimator.model import SparGE
from sparge.estimator.params import PARAMETER_CONSTRAINTS, param_problem
from sparge.estimator.state import (
    FLOAT_ARRAYS,
    FOREST_ARRAYS,
    FOREST_FLOAT,
    FOREST_INT,
    FOREST_OPTIONAL,
    INT_ARRAYS,
    OPTIONAL_ARRAYS,
    VALUE_FIELDS,
    ModelState,
)

FORMAT = "sparge-model"
VERSION = 1
#: What a saved model holds, said to whoever downloads one: the look-alike search needs
#: the training patients themselves, so the file is patient data.
def model_file_holds(has_outcomes: bool = True) -> str:
    """What a model file holds, for whoever downloads one (``has_outcomes``: the model
    keeps its training patients' outcomes; one trained without any does not)."""
    what = "ID, values and outcome" if has_outcomes else "ID and values"
    return (f"The model file holds what the look-alike search needs: every training "
            f"patient's {what}. It is patient data: store and share it as you would the "
            "table it was trained on. It holds numbers and text only and is never run as "
            "code.")

#: File members are the state's arrays; the dictionary keeps its historical member name.
_MEMBER = {"dictionary_r": "_dictionary_r"}
_STATE_NAME = {v: k for k, v in _MEMBER.items()}
_FLOAT_ARRAYS = tuple(_MEMBER.get(n, n) for n in FLOAT_ARRAYS)
_INT_ARRAYS = INT_ARRAYS
_OPTIONAL_ARRAYS = OPTIONAL_ARRAYS
#: The forest part of the look-alike metric (optional; all or none).
_FOREST_INT = FOREST_INT
_FOREST_FLOAT = FOREST_FLOAT
_FOREST_ARRAYS = FOREST_ARRAYS
_META = "__meta__"
_EXPECTED = frozenset(_FLOAT_ARRAYS + _INT_ARRAYS + _OPTIONAL_ARRAYS + _FOREST_ARRAYS
                      + FOREST_OPTIONAL + (_META,))
#: Largest model file (compressed) and largest total of inflated arrays.
_MAX_BYTES = 2 * 1024**3
#: Largest metadata member (JSON: encoder tables, feature names, patient IDs).
_MAX_META_BYTES = 64 * 1024**2
_MAX_MEMBERS = len(_EXPECTED)
_MAX_HEADER = 10_000
#: Bounds on the sizes the metadata may declare.
_MAX_FEATURES = 1_000_000
_MAX_PATIENTS = 50_000_000
_MAX_HISTORY = 10_000
_LABEL_KINDS = {"int": "i", "float": "f", "str": "U"}


# ---------------------------------------------------------------------------- saving
def _label_array(values) -> tuple[np.ndarray, str]:
    arr = np.asarray(values)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64), "int"
    if arr.dtype.kind == "f":
        return arr.astype(np.float64), "float"
    return arr.astype(str), "str"


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def _model_arrays_and_meta(model, encoder) -> dict[str, np.ndarray]:
    state = model.get_state()
    arrays: dict[str, np.ndarray] = {}
    for name, arr in state.arrays.items():
        if name in ("y_", "classes_"):
            continue
        arrays[_MEMBER.get(name, name)] = arr
    meta: dict[str, Any] = {"format": FORMAT, "version": VERSION, "params": state.params,
                            **state.values, "labels": None, "classes": None,
                            "encoder": encoder.to_dict() if encoder is not None else None}
    if "y_" in state.arrays:
        arrays["y_"], meta["labels"] = _label_array(state.arrays["y_"])
    if "classes_" in state.arrays:
        arrays["classes_"], meta["classes"] = _label_array(state.arrays["classes_"])
    meta["shapes"] = {name: list(arr.shape) for name, arr in arrays.items()}
    blob = json.dumps(_json_safe(meta)).encode("utf-8")
    arrays[_META] = np.frombuffer(blob, dtype=np.uint8)
    return arrays


def _fsync_dir(folder: str) -> None:
    """Make a rename durable (best effort: not every platform can open a directory)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: A temporary file of an interrupted save older than this is removed by the next save.
_STALE_SECONDS = 3600


def _remove_stale_temporaries(folder: str, prefix: str) -> None:
    """Remove what saves killed long ago left behind (partial files with patient data)."""
    now = time.time()
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        full = os.path.join(folder, name)
        try:
            if now - os.stat(full).st_mtime > _STALE_SECONDS:
                os.unlink(full)
        except OSError:
            pass


def _atomic_write(path: str | os.PathLike, arrays: dict[str, np.ndarray]) -> None:
    """Write the archive to a temporary file next to ``path``, fsync, then rename it."""
    target = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(target)
    prefix = f".{os.path.basename(target)}."
    _remove_stale_temporaries(folder, prefix)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, f"Cannot save the model to {target}: "
                                 f"{exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        try:  # keep the permissions of the file being replaced (a new one stays 0600)
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        except FileNotFoundError:
            pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def save_model(path_or_file: str | os.PathLike | BinaryIO, model, encoder=None) -> None:
    """Write a fitted :class:`~sparge.SparGE` (and optionally its Encoder) to a file.

    A path is written atomically: a temporary file in the same folder, flushed and fsynced,
    then renamed over the target, so an interrupted save never leaves a damaged file.
    """
    from sparge.estimator.model import SparGE

    if not isinstance(model, SparGE) or not hasattr(model, "projection_"):
        raise ValueError("save_model needs a fitted SparGE model")
    if encoder is not None and len(getattr(encoder, "feature_names_out_", ())) \
            != model.n_features_in_:
        raise ValueError(f"The encoder gives {len(getattr(encoder, 'feature_names_out_', ()))} "
                         f"features and the model takes {model.n_features_in_}: save a "
                         "model with the encoder it was trained on.")
    arrays = _model_arrays_and_meta(model, encoder)
    if isinstance(path_or_file, (str, os.PathLike)):
        _atomic_write(path_or_file, arrays)
    else:
        np.savez_compressed(path_or_file, **arrays)


def model_to_bytes(model, encoder=None) -> bytes:
    """The model file as bytes (for a download button)."""
    buf = io.BytesIO()
    save_model(buf, model, encoder)
    return buf.getvalue()


# ---------------------------------------------------------------------------- reading
def _too_big() -> ModelFileError:
    return ModelFileError(f"The model file is larger than {_MAX_BYTES / 1024**3:.0f} GB; "
                          "refused.")


def _read_capped(fh) -> bytes:
    """All of a binary stream, refusing it as soon as it passes ``_MAX_BYTES``."""
    chunks, total = [], 0
    while True:
        chunk = fh.read(1 << 20)
        if not chunk:
            return b"".join(chunks)
        if isinstance(chunk, str):
            raise ModelFileError("A model file is binary; got text.")
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise ModelFileError(f"Cannot read a model from a {type(fh).__name__}.")
        total += len(chunk)
        if total > _MAX_BYTES:
            raise _too_big()
        chunks.append(bytes(chunk))


def _read_bytes(source) -> bytes:
    """The file's bytes, refusing anything above ``_MAX_BYTES`` without reading it all."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        if len(source) > _MAX_BYTES:
            raise _too_big()
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            if not os.path.isfile(source):
                raise ModelFileError(f"The model file {os.fspath(source)!s} does not exist "
                                     "or is not a regular file.")
            if os.path.getsize(source) > _MAX_BYTES:
                raise _too_big()
            with open(source, "rb") as fh:
                return _read_capped(fh)
        except OSError as exc:
            raise ModelFileError(f"Cannot open the model file {os.fspath(source)!s}: "
                                 f"{exc.strerror or exc}.") from exc
    if hasattr(source, "read"):
        size = getattr(source, "size", None)  # Streamlit's UploadedFile knows its size
        if isinstance(size, int) and size > _MAX_BYTES:
            raise _too_big()
        return _read_capped(source)
    raise ModelFileError(f"Cannot read a model from a {type(source).__name__}.")


def _zip_directory_entries(data: bytes) -> int:
    """Members the zip's end record declares (read before the directory is parsed)."""
    pos = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if pos < 0 or len(data) < pos + 22:
        raise ModelFileError("The model file is damaged or truncated (no zip directory); "
                             "re-save or re-train the model.")
    _disk_entries, total_entries, cd_size = struct.unpack("<HHI", data[pos + 8:pos + 16])
    if cd_size > len(data):
        raise ModelFileError("The model file is damaged (its zip directory is larger than "
                             "the file).")
    return total_entries


def _member_name(info: zipfile.ZipInfo) -> str:
    name = info.filename
    if not name.endswith(".npy") or name[:-4] not in _EXPECTED:
        raise ModelFileError(f"The model file holds an unexpected member {name[:80]!r}; "
                             "a SparGE model holds only its own arrays. Refused.")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise ModelFileError(f"Member {name!r} of the model file uses an unsupported "
                             "compression method.")
    if info.flag_bits & 0x1:
        raise ModelFileError(f"Member {name!r} of the model file is encrypted.")
    return name[:-4]


def _open_archive(data: bytes) -> tuple[zipfile.ZipFile, dict[str, zipfile.ZipInfo]]:
    """The archive and its members by array name, after the directory-level checks."""
    n_entries = _zip_directory_entries(data)
    if n_entries > _MAX_MEMBERS:
        raise ModelFileError(f"The model file declares {n_entries} members; a SparGE model "
                             f"has at most {_MAX_MEMBERS}. Refused.")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, struct.error) as exc:
        raise ModelFileError(f"The model file is damaged or not a SparGE model ({exc}).") \
            from exc
    if len(infos) > _MAX_MEMBERS:
        raise ModelFileError(f"The model file holds {len(infos)} members; a SparGE model "
                             f"has at most {_MAX_MEMBERS}. Refused.")
    members: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        name = _member_name(info)
        if name in members:
            raise ModelFileError(f"The model file holds the array {name!r} twice. Refused.")
        members[name] = info
    if sum(i.file_size for i in infos) > _MAX_BYTES:
        raise ModelFileError("The model file's arrays would inflate to more than "
                             f"{_MAX_BYTES / 1024**3:.0f} GB; refused (a zip bomb?).")
    return zf, members


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """A member's bytes, never more than ``limit`` (nor more than it declares)."""
    if info.file_size > limit:
        raise ModelFileError(f"Member {info.filename!r} declares {info.file_size:,} bytes; "
                             f"at most {limit:,} expected. Refused.")
    try:
        with zf.open(info) as fh:
            data = fh.read(info.file_size)
            if fh.read(1):
                data += b"?"  # longer than declared
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, RuntimeError,
            NotImplementedError) as exc:
        raise ModelFileError(f"Member {info.filename!r} of the model file is damaged "
                             f"({exc}).") from exc
    if len(data) != info.file_size:
        raise ModelFileError(f"Member {info.filename!r} of the model file is not the size "
                             "it declares. Refused.")
    return data


def _npy_header(raw: io.BufferedIOBase, name: str) -> tuple[tuple[int, ...], np.dtype, int]:
    """Shape, dtype and header length of a ``.npy`` stream, without reading its data."""
    try:
        version = np.lib.format.read_magic(raw)
        if version == (1, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_1_0(
                raw, max_header_size=_MAX_HEADER)
        elif version in ((2, 0), (3, 0)):
            shape, _fortran, dtype = np.lib.format.read_array_header_2_0(
                raw, max_header_size=_MAX_HEADER)
        else:
            raise ValueError(f"unsupported .npy version {version}")
        header_len = raw.tell()
    except (ValueError, OSError, EOFError, SyntaxError, TypeError, zipfile.BadZipFile,
            RuntimeError) as exc:
        raise ModelFileError(f"Array {name!r} of the model file is not a valid array "
                             f"({exc}).") from exc
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise ModelFileError(f"Array {name!r} holds objects or records ({dtype}); a SparGE "
                             "model holds numbers only. Refused.")
    return tuple(int(s) for s in shape), dtype, header_len


def _implied_bytes(shape: tuple[int, ...], dtype: np.dtype, header_len: int) -> int:
    return header_len + math.prod(shape) * dtype.itemsize


# ---------------------------------------------------------------------------- the schema
def _bad(field: str, expected: str, value: Any) -> ModelFileError:
    got = type(value).__name__
    if isinstance(value, (int, float, bool)) or value is None:
        got = f"{got} {value!r}"[:60]
    return ModelFileError(f"The model file is invalid: field {field!r} must be {expected} "
                          f"(got {got}).")


def _is_number(v: Any) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def _number(meta: dict, field: str, *, optional: bool = True, low: float | None = None
            ) -> float | None:
    v = meta.get(field)
    if v is None and optional:
        return None
    if not _is_number(v) or (low is not None and float(v) < low):
        rng = "" if low is None else f" >= {low:g}"
        raise _bad(field, f"a finite number{rng}" + (" or null" if optional else ""), v)
    return float(v)


def _integer(v: Any, field: str, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise _bad(field, f"an integer from {low:,} to {high:,}", v)
    return v


def _str_list(v: Any, field: str, length: int | None = None) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(s, (str, int)) and not
                                          isinstance(s, bool) for s in v):
        raise _bad(field, "a list of strings", v)
    if length is not None and len(v) != length:
        raise ModelFileError(f"The model file is invalid: field {field!r} has {len(v):,} "
                             f"entries; {length:,} expected.")
    return [str(s) for s in v]


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _known_params() -> set[str]:
    """Parameters a file or ``--params`` may carry (never the progress callback)."""
    return set(PARAMETER_CONSTRAINTS) - {"callback"}


def _param_problem(key: str, value: Any, known: set[str]) -> str | None:
    """What is wrong with one SparGE parameter (None when nothing)."""
    if key not in known:
        return f"unknown SparGE parameter {str(key)[:60]!r} (known: {', '.join(sorted(known))})"
    return param_problem(key, value)


def validate_params(params: Any) -> dict:
    """Check SparGE parameters given as plain values (a model file, ``--params`` JSON).

    Raises
    ------
    DataError
        Naming the parameter, what it must be and what it is.
    """
    if not isinstance(params, dict):
        raise DataError("SparGE parameters must be an object {name: value}.")
    known = _known_params()
    for key, value in params.items():
        problem = _param_problem(key, value, known)
        if problem:
            raise DataError(problem[0].upper() + problem[1:] + ".")
    return params


def _check_params(params: Any) -> dict:
    if not isinstance(params, dict):
        raise _bad("params", "an object of SparGE parameters", params)
    known = _known_params()
    for key, value in params.items():
        if key not in known:
            raise ModelFileError(f"The model file is invalid: unknown SparGE parameter "
                                 f"{str(key)[:60]!r} in field 'params'.")
        problem = _param_problem(key, value, known)
        if problem:
            expected = PARAMETER_CONSTRAINTS[key][1]
            raise _bad(f"params.{key}", expected, value)
    return params


def _check_history(history: Any) -> list[dict[str, float]]:
    if history is None:
        return []
    if not isinstance(history, list) or len(history) > _MAX_HISTORY:
        raise _bad("history", f"a list of at most {_MAX_HISTORY:,} objects", history)
    out = []
    for i, entry in enumerate(history):
        if not isinstance(entry, dict):
            raise _bad(f"history[{i}]", "an object of numbers", entry)
        row: dict[str, float] = {}
        for key, v in entry.items():
            if v is None:
                row[str(key)] = np.nan
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _bad(f"history[{i}].{str(key)[:40]}", "a number or null", v)
            else:
                try:
                    row[str(key)] = int(v) if key == "iteration" and _is_int(v) else float(v)
                except OverflowError:
                    raise _bad(f"history[{i}].{str(key)[:40]}", "a number or null", v) \
                        from None
        out.append(row)
    return out


def _check_encoder(state: Any, feature_names: list[str] | None, n_features: int
                   ) -> dict | None:
    from sparge.data.encoder import ROLES

    if state is None:
        return None
    if not isinstance(state, dict):
        raise _bad("encoder", "an object or null", state)
    params = state.get("params")
    if not isinstance(params, dict) or not all(
            v is None or isinstance(v, (str, bool, int, float)) for k, v in params.items()
            if k != "ages"):
        raise _bad("encoder.params", "an object of simple values", params)
    if not (params.get("ages") is None or isinstance(params["ages"], dict)):
        raise _bad("encoder.params.ages", "an object {column: {born, at, day_first}}",
                   params["ages"])
    roles = state.get("roles")
    if not isinstance(roles, dict):
        raise _bad("encoder.roles", "an object {column: role}", roles)
    for col, role in roles.items():
        if role not in ROLES:
            raise _bad(f"encoder.roles[{str(col)[:40]!r}]", f"one of {ROLES}", role)
    table = state.get("table")
    if not isinstance(table, dict):
        raise _bad("encoder.table", "an object {column: {level: code}}", table)
    for col, levels in table.items():
        if not isinstance(levels, dict) or not all(_is_number(c) for c in levels.values()):
            raise _bad(f"encoder.table[{str(col)[:40]!r}]", "an object {level: number}",
                       levels)
    for key in ("input_columns", "encoded_columns", "feature_names_out"):
        _str_list(state.get(key), f"encoder.{key}")
    if feature_names is not None and [str(c) for c in state["feature_names_out"]] \
            != feature_names:
        raise ModelFileError("The model file is invalid: field 'encoder.feature_names_out' "
                             "does not match the model's feature names.")
    if len(state["feature_names_out"]) != n_features:
        raise ModelFileError(f"The model file is invalid: field 'encoder.feature_names_out' "
                             f"names {len(state['feature_names_out'])} features; the model "
                             f"has {n_features}.")
    unroled = [c for c in state["encoded_columns"] if c not in roles]
    if unroled:  # a hand-edited file: a KeyError at the first transform
        raise ModelFileError(f"The model file is invalid: field 'encoder.roles' lacks the "
                             f"column {str(unroled[0])[:40]!r}.")
    return state


def _check_meta(meta: Any) -> dict:
    """The metadata, every field checked for type and range (see the module docstring)."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError("The file is not a SparGE model (unknown format).")
    if meta.get("version") != VERSION:
        raise ModelFileError(f"Model format version {str(meta.get('version'))[:20]} is not "
                             f"supported by this SparGE (expects {VERSION}); re-train the "
                             "model.")
    out: dict[str, Any] = {"params": _check_params(meta.get("params"))}
    m = _integer(meta.get("n_features_in"), "n_features_in", 1, _MAX_FEATURES)
    out["n_features_in"] = m
    names = meta.get("feature_names")
    out["feature_names"] = None if names is None else _str_list(names, "feature_names", m)
    lam = _number(meta, "completion_lambda", low=0.0)
    out["completion_lambda"] = 0.0 if lam is None else lam
    best = meta.get("best_iteration")
    out["best_iteration"] = 0 if best is None else _integer(best, "best_iteration", 0,
                                                           _MAX_HISTORY)
    obj = _number(meta, "objective")
    out["objective"] = np.nan if obj is None else obj
    out["fit_time"] = _number(meta, "fit_time", low=0.0)
    out["history"] = _check_history(meta.get("history"))
    for key in ("labels", "classes"):
        if meta.get(key) is not None and meta[key] not in _LABEL_KINDS:
            raise _bad(key, f"one of {sorted(_LABEL_KINDS)} or null", meta[key])
        out[key] = meta.get(key)
    seen = meta.get("n_samples_seen")
    out["n_samples_seen"] = None if seen is None else _integer(seen, "n_samples_seen", 1,
                                                               _MAX_PATIENTS)
    logs = meta.get("log_columns")
    if logs is not None and (not isinstance(logs, list) or len(logs) > m or not all(
            isinstance(j, int) and not isinstance(j, bool) and 0 <= j < m for j in logs)):
        raise _bad("log_columns", f"a list of feature indices below {m:,}", logs)
    out["log_columns"] = logs or []  # older files: every feature on its own scale
    ids = meta.get("train_ids")
    out["train_ids"] = None if ids is None else _str_list(ids, "train_ids")
    out["encoder"] = _check_encoder(meta.get("encoder"), out["feature_names"],
                                    out["n_features_in"])
    shapes = meta.get("shapes")
    if shapes is not None:
        if not isinstance(shapes, dict):
            raise _bad("shapes", "an object {array: shape}", shapes)
        for key, shape in shapes.items():
            if key not in _EXPECTED or not isinstance(shape, list) or len(shape) > 2 or \
                    not all(_is_int(s) and 0 <= s <= _MAX_PATIENTS for s in shape):
                raise _bad(f"shapes.{str(key)[:40]}", "a list of at most 2 sizes from 0 to "
                           f"{_MAX_PATIENTS:,}", shape)
    out["shapes"] = shapes
    forest = meta.get("forest")
    if forest is not None:
        if not isinstance(forest, dict):
            raise _bad("forest", "an object {weight, scale, selection, min_leaf, inputs, "
                       "proximity} or null", forest)
        out["forest"] = {"weight": _number(forest, "weight", optional=False, low=0.0),
                         "scale": _number(forest, "scale", optional=False, low=0.0)}
        sel = forest.get("selection") or []
        if not isinstance(sel, list) or len(sel) > 100 or not all(
                isinstance(r, dict) and all(_is_number(v) for v in r.values()) for r in sel):
            raise _bad("forest.selection", "a list of {name: number}", sel)
        out["forest"]["selection"] = [{str(k): float(v) for k, v in r.items()} for r in sel]
        leaf = forest.get("min_leaf")  # the leaf size used (older files: not recorded)
        out["forest"]["min_leaf"] = None if leaf is None else _integer(
            leaf, "forest.min_leaf", 1, 10**6)
        inputs = forest.get("inputs", "features")  # older files: the biomarkers alone
        if inputs not in FOREST_INPUTS:
            raise _bad("forest.inputs", " or ".join(map(repr, FOREST_INPUTS)), inputs)
        out["forest"]["inputs"] = inputs
        proximity = forest.get("proximity", "shared-leaf")  # older files: every tree
        if proximity not in FOREST_PROXIMITIES:
            raise _bad("forest.proximity", " or ".join(map(repr, FOREST_PROXIMITIES)),
                       proximity)
        out["forest"]["proximity"] = proximity
    else:
        out["forest"] = None
    return out


def _read_meta(zf: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]) -> dict:
    if _META not in members:
        raise ModelFileError("The model file has no SparGE metadata.")
    raw = _read_member(zf, members[_META], _MAX_META_BYTES)
    stream = io.BytesIO(raw)
    shape, dtype, header_len = _npy_header(stream, _META)
    if dtype != np.uint8 or len(shape) != 1 or \
            _implied_bytes(shape, dtype, header_len) != len(raw):
        raise ModelFileError("The model file's metadata member is not a byte array.")
    try:
        meta = json.loads(raw[header_len:].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise ModelFileError("The model file's metadata is not valid JSON.") from exc
    return _check_meta(meta)


# ---------------------------------------------------------------------------- shapes
def _check_dtype(name: str, dtype: np.dtype, meta: dict) -> None:
    if name in _FLOAT_ARRAYS or name in ("completion_ridge_", "completion_fill_ridge_"):
        ok, what = dtype.kind == "f" and dtype.itemsize in (4, 8), "floating point"
    elif name in _INT_ARRAYS or name in _FOREST_INT or name in FOREST_OPTIONAL:
        ok, what = dtype.kind in "iu" and dtype.itemsize <= 8, "integer"
    elif name in _FOREST_FLOAT:
        ok, what = dtype.kind == "f" and dtype.itemsize == 8, "float64"
    else:  # y_ / classes_
        kind = _LABEL_KINDS.get(meta["labels" if name == "y_" else "classes"] or "", "")
        ok, what = dtype.kind == kind, {"i": "integer", "f": "floating point",
                                        "U": "text"}.get(kind, "absent")
    if not ok:
        raise ModelFileError(f"Array {name!r} has dtype {dtype}; expected {what}.")


def _dim(shapes: dict, name: str, axis: int) -> int:
    """An array's length along ``axis``; -1 when the file lacks it (a model learned
    without an outcome has no ``classes_``) or it has fewer axes."""
    s = shapes.get(name, ())
    return s[axis] if len(s) > axis else -1


def _check_shapes(shapes: dict[str, tuple[int, ...]], meta: dict) -> None:
    """Shapes from the ``.npy`` headers, checked across arrays before any data is read."""
    m = meta["n_features_in"]
    r = _dim(shapes, "completion_components_", 0)
    k = _dim(shapes, "_dictionary_r", 1)
    n = _dim(shapes, "embedding_", 0)
    lo = _dim(shapes, "projection_", 1)
    d = k if meta["params"].get("representation") == "codes" else r + k
    expected = {
        "mean_": (m,), "scale_": (m,), "completion_components_": (r, m),
        "_dictionary_r": (r, k), "projection_": (d, lo), "codes_": (n, k),
        "completed_": (n, r), "training_data_": (n, m), "atom_class_": (k,),
        "embedding_": (n, lo), "component_weights_": (lo,),
        "completion_singular_values_": (_dim(shapes, "completion_singular_values_", 0),),
        "filled_singular_values_": (_dim(shapes, "filled_singular_values_", 0),),
        "completion_ridge_": (r,), "completion_fill_ridge_": (r,), "y_": (n,),
        "classes_": (_dim(shapes, "classes_", 0),),
    }
    for name, shape in shapes.items():
        if name in expected and shape != expected[name]:
            raise ModelFileError(f"The model file is inconsistent: array {name!r} has shape "
                                 f"{shape}; {expected[name]} expected.")
    if n < 2:
        raise ModelFileError("The model file is inconsistent: array 'embedding_' holds "
                             "fewer than 2 patients.")
    if meta["train_ids"] is not None and len(meta["train_ids"]) != n:
        raise ModelFileError("The model file is invalid: field 'train_ids' does not match "
                             f"its {n:,} patients.")
    if meta["labels"] is not None and "y_" not in shapes:
        raise ModelFileError("The model file lacks the array 'y_' its metadata announces.")
    forest = [name for name in _FOREST_ARRAYS if name in shapes]
    if (meta["forest"] is None) != (not forest) or (forest and len(forest) !=
                                                    len(_FOREST_ARRAYS)):
        raise ModelFileError("The model file's forest part is incomplete: field 'forest' and "
                             f"the arrays {list(_FOREST_ARRAYS)} go together.")
    if forest:
        nodes = _dim(shapes, "forest_left", 0)
        trees = _dim(shapes, "forest_offsets", 0)
        for name in ("forest_right", "forest_feature", "forest_missing_left",
                     "forest_threshold"):
            if shapes[name] != (nodes,):
                raise ModelFileError(f"The model file is inconsistent: array {name!r} has "
                                     f"shape {shapes[name]}; ({nodes},) expected.")
        for name in ("forest_leaves_",) + FOREST_OPTIONAL:
            if name in shapes and (shapes[name] != (n, trees) or trees < 1):
                raise ModelFileError(f"The model file is inconsistent: array {name!r} "
                                     f"has shape {shapes[name]}; ({n}, {trees}) "
                                     "expected.")
    elif any(name in shapes for name in FOREST_OPTIONAL):
        raise ModelFileError("The model file's forest part is incomplete: array "
                             "'forest_counted_' without a forest.")
    if meta["classes"] is not None and "classes_" not in shapes:
        raise ModelFileError("The model file lacks the array 'classes_' its metadata "
                             "announces.")
    declared = meta["shapes"]
    if declared is not None:
        for name, shape in shapes.items():
            if name in declared and tuple(declared[name]) != shape:
                raise ModelFileError(f"The model file is inconsistent: field 'shapes.{name}'"
                                     f" declares {tuple(declared[name])}, the array has "
                                     f"{shape}.")


def _array_headers(zf, members, meta) -> dict[str, tuple[tuple[int, ...], np.dtype, int]]:
    """Every array's header, checked against its member's declared size."""
    headers = {}
    for name in _FLOAT_ARRAYS + _INT_ARRAYS:
        if name not in members:
            raise ModelFileError(f"The model file lacks the array {name!r}.")
    for name, info in members.items():
        if name == _META:
            continue
        try:
            with zf.open(info) as fh:
                shape, dtype, header_len = _npy_header(fh, name)
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as exc:
            raise ModelFileError(f"Member {info.filename!r} of the model file is damaged "
                                 f"({exc}).") from exc
        _check_dtype(name, dtype, meta)
        if len(shape) > 2 or any(s > _MAX_PATIENTS for s in shape):
            raise ModelFileError(f"Array {name!r} declares the shape {shape}; refused.")
        implied = _implied_bytes(shape, dtype, header_len)
        if implied != info.file_size:
            raise ModelFileError(f"Member {info.filename!r} declares {info.file_size:,} "
                                 f"bytes but its shape {shape} implies {implied:,}; refused "
                                 "(damaged, or a zip bomb).")
        headers[name] = (shape, dtype, header_len)
    return headers


def _read_arrays(zf, members, headers) -> dict[str, np.ndarray]:
    arrays = {}
    for name, (shape, dtype, _header_len) in headers.items():
        raw = _read_member(zf, members[name], _MAX_BYTES)
        try:
            arr = np.lib.format.read_array(io.BytesIO(raw), allow_pickle=False,
                                           max_header_size=_MAX_HEADER)
        except (ValueError, OSError, EOFError) as exc:
            raise ModelFileError(f"Array {name!r} of the model file is damaged ({exc}).") \
                from exc
        if arr.shape != shape or arr.dtype != dtype:
            raise ModelFileError(f"Array {name!r} of the model file is damaged.")
        if arr.dtype.kind == "f" and name not in ("training_data_", "forest_threshold") \
                and not np.all(np.isfinite(arr)):
            raise ModelFileError(f"Array {name!r} holds non-finite values.")
        if name == "forest_threshold" and np.isnan(arr).any():  # +-inf splits are valid
            raise ModelFileError("Array 'forest_threshold' holds missing values.")
        arrays[name] = arr
    return arrays


# ---------------------------------------------------------------------------- building
def _build_model(meta: dict, a: dict[str, np.ndarray]):
    """The estimator of a validated file, through its state (every piece checked again)."""
    arrays = {_STATE_NAME.get(name, name): arr for name, arr in a.items()}
    if meta["labels"] is None:
        arrays.pop("y_", None)
    if meta["classes"] is None:
        arrays.pop("classes_", None)
    if meta["forest"] is None:
        for name in FOREST_ARRAYS + FOREST_OPTIONAL:
            arrays.pop(name, None)
    state = ModelState(params=meta["params"], arrays=arrays,
                       values={k: meta[k] for k in VALUE_FIELDS})
    try:
        return SparGE.from_state(state)
    except (ValueError, ArithmeticError, np.linalg.LinAlgError) as exc:
        # DataError is a ValueError too: a parameter or an array that does not fit
        raise ModelFileError(f"The model file is invalid: {exc}.") from exc


def load_model(source) -> tuple[Any, Any]:
    """Load ``(model, encoder)`` from a path, bytes or binary file-like.

    ``encoder`` is ``None`` when the file holds none. Raises ``ModelFileError`` (naming the
    field or array at fault) for any file that is not a valid SparGE model of a supported
    version; nothing in the file is executed and no member is inflated before its declared
    size has been checked against the metadata.
    """
    from sparge.data.encoder import Encoder

    data = _read_bytes(source)
    if not data.startswith(b"PK\x03\x04"):
        raise ModelFileError("This is not a SparGE model file (not a .sparge archive saved "
                             "by this app). Load a file made with 'Download model', or "
                             "train a model on the Model page.")
    zf, members = _open_archive(data)
    with zf:
        meta = _read_meta(zf, members)
        headers = _array_headers(zf, members, meta)
        _check_shapes({k: v[0] for k, v in headers.items()}, meta)
        arrays = _read_arrays(zf, members, headers)
    model = _build_model(meta, arrays)
    encoder = None
    if meta["encoder"] is not None:
        try:
            encoder = Encoder.from_dict(meta["encoder"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelFileError(f"The model file's field 'encoder' is invalid ({exc}).") \
                from exc
    return model, encoder
