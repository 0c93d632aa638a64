"""Patient tables in: reading CSV files and encoding them as numbers (DESIGN.md §3).

:func:`read_table` reads a CSV (path, bytes or binary file-like) with delimiter and text
encoding detection (UTF-8, UTF-16 with BOM as Excel's "Unicode text", latin-1), refuses
input too large for memory before parsing it, and reads ragged rows safely. :class:`Encoder`
turns the table into a float matrix with ``NaN`` for missing values, through the encoding
table (see :mod:`sparge.data.tables` for missing tokens and ordered scales), and writes a
:class:`~sparge.ValidationReport`. :func:`guess_columns` suggests the ID and outcome
columns.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from sparge.data.report import ValidationReport
from sparge.data.safe_text import plain_text
from sparge.data.tables import (
    CATEGORY_WORDS,
    DEFAULT_MISSING_TOKENS,
    EncodingTable,
    is_blank,
    natural_key,
    norm_key,
    scale_codes,
    scale_of,
    yes_no_codes,
)
from sparge.errors import DataError
from sparge.method.preprocess import filter_columns, missing_fraction_per_row

ROLES = ("id", "label", "numeric", "categorical", "ignore")
#: Memory per byte of CSV for reading it and encoding it (measured with pandas' Arrow-backed
#: strings: a 98 MB 200,000 x 52 numeric CSV peaks at 3.4x its size to read and 5.1x to
#: read and encode, a 34 MB text CSV at 4.1x and 6.4x; object-backed strings take about
#: twice that, hence 10x) and a fixed part for the parser's buffers.
READ_MEMORY_FACTOR = 10
READ_MEMORY_FIXED = 64 * 1024**2
#: Default ``max_memory`` of :func:`read_table`: 4 GiB of estimated memory (a CSV of
#: about 400 MB).
DEFAULT_MAX_READ_MEMORY = 4 * 1024**3
#: A word that is also a missing token (``None``, ``Unknown``) is a category of a text
#: column when it fills at least this share of the column's cells (and at least 2 cells).
CATEGORY_MIN_SHARE = 0.01

_NUM = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(rf"^{_NUM}$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_EU_FULL = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+,\d+$")  # 1.234,5
_EU_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+$")  # 1.234 (1234 in a 1.234,5 column)
_SPACED = re.compile(r"^[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$")  # 1 234,5
_INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
_CENSORED = re.compile(r"^\s*([<>]=?)\s*([+-]?(\d+\.?\d*|\.\d+))\s*$")
_NUMERIC_LIKE = re.compile(
    rf"{_NUM}|[+-]?\d+,\d+|[+-]?\d{{1,3}}(?:\.\d{{3}})+,\d+"
    r"|[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?"
    r"|[<>]=?\s*[+-]?(?:\d+\.?\d*|\.\d+)|[+-]?inf(?:inity)?", re.IGNORECASE)
_CHUNK = 1 << 20


def _q(text: object, n: int = 80) -> str:
    """A user string for a message: one line, control characters removed, truncated."""
    return plain_text(text, n)


def _gb(n: float) -> str:
    return f"{n / 1024**3:.1f} GB" if n >= 1024**3 else f"{n / 1024**2:.0f} MB"


# --------------------------------------------------------------------------- reading
def estimate_read_memory(n_bytes: int) -> int:
    """Estimated peak memory (bytes) that :func:`read_table` needs for ``n_bytes`` of CSV.

    About ten bytes of memory per byte of file (:data:`READ_MEMORY_FACTOR`) plus a fixed
    :data:`READ_MEMORY_FIXED`.
    """
    return int(READ_MEMORY_FIXED + READ_MEMORY_FACTOR * max(int(n_bytes), 0))


def _check_memory(n_bytes: int, name: str, max_memory: int | None) -> None:
    if max_memory is None:
        return
    need = estimate_read_memory(n_bytes)
    if need > max_memory:
        raise DataError(
            f"{_q(name)} is {_gb(n_bytes)}: reading it needs about {_gb(need)} of memory, "
            f"more than the limit of {_gb(max_memory)}. To proceed: read a sample of the "
            "rows (e.g. the first 50,000 patients: `head -n 50001 data.csv > sample.csv`), "
            "or keep fewer columns, or process the full file outside the app (the command "
            "line, or Dask / pandas in chunks) on a machine with more memory, raising the "
            "limit with read_table(..., max_memory=...).")


def _file_size(fh) -> int | None:
    size = getattr(fh, "size", None)
    if isinstance(size, int):
        return size
    try:
        pos = fh.tell()
        end = fh.seek(0, os.SEEK_END)
        fh.seek(pos)
        return int(end - pos)
    except (AttributeError, OSError, ValueError):
        return None


def _raw_bytes(source, max_memory: int | None) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        _check_memory(len(data), "the upload", max_memory)
        return data, "the upload"
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.exists(path):
            raise DataError(f"File not found: {_q(path, 200)}")
        name = os.path.basename(path)
        _check_memory(os.path.getsize(path), name, max_memory)
        with open(path, "rb") as fh:
            return fh.read(), name
    if hasattr(source, "read"):
        name = str(getattr(source, "name", "the upload"))
        size = _file_size(source)
        if size is not None:
            _check_memory(size, name, max_memory)
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        if size is None:
            _check_memory(len(data), name, max_memory)
        return bytes(data), name
    raise DataError(f"Cannot read a table from a {type(source).__name__}.")


def _looks_utf16(head: bytes) -> str | None:
    """``utf-16-le``/``-be`` for BOM-less UTF-16 of mostly ASCII text, else None."""
    even, odd = head[0::2], head[1::2]
    if len(head) < 4:
        return None
    if odd.count(0) >= 0.9 * len(odd) and even.count(0) <= 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) >= 0.9 * len(even) and odd.count(0) <= 0.1 * len(odd):
        return "utf-16-be"
    return None


def _detect_encoding(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 (BOM, or BOM-less ASCII) or latin-1."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    head = data[:4096]
    if b"\x00" in head:
        enc = _looks_utf16(head)
        if enc:
            return enc
        raise DataError(f"{_q(name)} is not a CSV text file (it looks binary: a spreadsheet, "
                        "archive or model file?). Save it as CSV and upload again.")
    dec = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for i in range(0, len(data), _CHUNK):
            dec.decode(view[i:i + _CHUNK])
        dec.decode(b"", final=True)
    except UnicodeDecodeError:
        return "latin-1"  # every byte is valid latin-1
    return "utf-8"


def _sniff_delimiter(head: str) -> str:
    lines = head.splitlines()[:50]
    text = "\n".join(lines)
    try:
        return csv.Sniffer().sniff(text, delimiters=",;\t").delimiter
    except csv.Error:
        first = lines[0] if lines else ""
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        return max(counts, key=counts.get) if max(counts.values()) else ","


def _check_header(header: list[str], name: str, sep: str) -> int:
    """Number of named columns (trailing unnamed ones excluded); DataError when bad."""
    k = len(header)
    while k > 1 and header[k - 1] == "":
        k -= 1
    if k < 2 and sep == ",":
        raise DataError(f"{_q(name)} has a single column: is it a CSV? Expected columns "
                        "separated by ',', ';' or tab.")
    seen: set[str] = set()
    dups = []
    for i, h in enumerate(header[:k]):
        if h == "":
            raise DataError(f"Column {i + 1} of {_q(name)} has no name in the header row.")
        if norm_key(h) in seen:
            dups.append(_q(h, 60))
        seen.add(norm_key(h))
    if dups:
        raise DataError(f"Duplicate column name(s) in {_q(name)}: {sorted(set(dups))[:10]}. "
                        "Every column needs a unique name.")
    return k


def _lines(pairs: list[tuple[int, int]]) -> str:
    return ", ".join(f"line {line} has {n}" for line, n in pairs[:5]) + \
        (" …" if len(pairs) > 5 else "")


def _scan_rows(stream, sep: str, name: str) -> dict[str, Any]:
    """One pass of the csv module over the text: header, field counts, ragged rows."""
    csv.field_size_limit(max(csv.field_size_limit(), 2**31 - 1))
    reader = csv.reader(stream, delimiter=sep, skipinitialspace=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise DataError(f"{_q(name)}: the header row cannot be read as CSV ({exc}).") from exc
    if header is None:
        raise DataError(f"{_q(name)} is empty: expected a CSV with a header row and one row "
                        "per patient.")
    header = [h.strip() for h in header]
    k = _check_header(header, name, sep)
    scan: dict[str, Any] = {"header": header[:k], "header_lines": reader.line_num,
                            "k": k, "n_header": len(header), "width": len(header),
                            "blank": [], "blank_lines": [], "too_many": [], "trailing": [],
                            "short": [], "n_records": 0}
    i = -1
    try:
        for i, row in enumerate(reader):
            n = len(row)
            if n > scan["width"]:
                scan["width"] = n
            if n == 0 or (not row[0].strip() and not any(f.strip() for f in row)):
                scan["blank"].append(i)
                if n > 1:
                    scan["blank_lines"].append(reader.line_num)
                continue
            if n > k:
                if any(f.strip() for f in row[k:]):
                    scan["too_many"].append((reader.line_num, n))
                else:
                    scan["trailing"].append((reader.line_num, n))
            elif n < k:
                scan["short"].append((reader.line_num, n))
    except csv.Error as exc:
        raise DataError(f"{_q(name)} cannot be read as a CSV table near line "
                        f"{reader.line_num} ({exc}).") from exc
    scan["n_records"] = i + 1
    return scan


def _read_notes(scan: dict[str, Any], k: int) -> list[str]:
    notes = []
    if scan["n_header"] > k:
        notes.append(f"the header ends with {scan['n_header'] - k} unnamed column(s) that hold "
                     "no values; they were ignored.")
    if scan["trailing"]:
        notes.append(f"{len(scan['trailing'])} row(s) end with empty fields beyond the {k} "
                     f"named columns (a trailing delimiter; CSV {_lines(scan['trailing'])} "
                     "fields); the empty fields were ignored.")
    if scan["short"]:
        notes.append(f"{len(scan['short'])} row(s) have fewer fields than the {k} columns of "
                     f"the header (CSV {_lines(scan['short'])} fields); their last columns "
                     "were read as empty (missing).")
    if scan["blank_lines"]:
        notes.append(f"{len(scan['blank_lines'])} empty row(s) were skipped (CSV lines "
                     f"{scan['blank_lines'][:5]}{' …' if len(scan['blank_lines']) > 5 else ''}).")
    return notes


def read_table(source, *, delimiter: str | None = None,
               max_memory: int | None = DEFAULT_MAX_READ_MEMORY) -> pd.DataFrame:
    """Read a patient table as text cells.

    Parameters
    ----------
    source : path, bytes or binary file-like (e.g. Streamlit's upload)
    delimiter : str, optional
        Forced delimiter; detected among ``,`` ``;`` and tab by default.
    max_memory : int or None
        Largest estimated memory (bytes, see :func:`estimate_read_memory`) the reading may
        take; larger input is refused before it is parsed. Default
        :data:`DEFAULT_MAX_READ_MEMORY` (4 GiB, a CSV of about 400 MB); ``None``: no limit.

    Returns
    -------
    DataFrame of strings (empty cells as ``""``); the encoder parses numbers. The first
    column is never taken as the index. ``df.attrs["sparge_read_notes"]`` lists what was
    repaired (rows with trailing empty fields, short rows read with empty trailing cells,
    skipped empty rows); the Encoder copies these notes into its report.

    Raises
    ------
    DataError
        Empty file, binary file, no data rows, duplicate or missing column names, input over
        ``max_memory``, rows with more (non-empty) fields than the header: the message names
        the CSV lines (up to 5) and their field counts.
    """
    data, name = _raw_bytes(source, max_memory)
    if not data.strip():
        raise DataError(f"{_q(name)} is empty: expected a CSV with a header row and one row "
                        "per patient.")
    enc = _detect_encoding(data, name)
    head = data[:65536].decode(enc, errors="ignore")
    if enc.startswith("utf-16") and "\x00" in head:
        raise DataError(f"{_q(name)} is not a CSV text file (it looks binary).")
    if not head.strip():
        raise DataError(f"{_q(name)} is empty: expected a CSV with a header row and one row "
                        "per patient.")
    sep = delimiter or _sniff_delimiter(head if len(data) <= 65536
                                        else head.rsplit("\n", 1)[0])
    stream = io.TextIOWrapper(io.BytesIO(data), encoding=enc, newline="")
    try:
        scan = _scan_rows(stream, sep, name)
    except UnicodeDecodeError as exc:
        raise DataError(f"{_q(name)} cannot be decoded as {enc} text ({exc.reason}).") from exc
    if scan["too_many"]:
        bad = scan["too_many"]
        raise DataError(
            f"{_q(name)}: {len(bad)} row(s) have more fields than the {scan['k']} columns of "
            f"the header and the extra fields hold values, so the values cannot be matched to "
            f"their columns (CSV {_lines(bad)} fields). Check for a delimiter inside an "
            "unquoted value (e.g. a decimal comma in a comma-separated file) or a column "
            "name missing from the header.")
    k = scan["k"]
    kw: dict[str, Any] = {"sep": sep, "dtype": str, "keep_default_na": False,
                          "na_filter": False, "skipinitialspace": True, "engine": "c",
                          "index_col": False, "header": None,
                          "names": list(range(scan["width"])), "usecols": list(range(k)),
                          "skip_blank_lines": False, "encoding": enc}
    if scan["header_lines"] == 1:
        kw["skiprows"] = 1
    try:
        df = pd.read_csv(io.BytesIO(data), **kw)
    except pd.errors.ParserError as exc:
        msg = str(exc)
        m = re.search(r"line (\d+), saw (\d+)", msg)
        hint = (f"line {m.group(1)} has {m.group(2)} fields but the header has {k}"
                if m else _q(msg, 200))
        raise DataError(f"{_q(name)} is not a well-formed table: {hint}.") from exc
    except pd.errors.EmptyDataError as exc:
        raise DataError(f"{_q(name)} has a header but no patient rows.") from exc
    except (csv.Error, ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"{_q(name)} cannot be read as a CSV table ({_q(exc, 200)}).") from exc
    del data
    if scan["header_lines"] != 1:
        df = df.iloc[1:].reset_index(drop=True)
    if len(df) == scan["n_records"]:
        keep = np.ones(len(df), bool)
        keep[scan["blank"]] = False
    else:  # the parsers disagree on a quoting corner case: drop rows with no value
        keep = ~(df.apply(lambda c: c.str.strip() == "")).all(axis=1).to_numpy()
    if not keep.all():
        df = df.loc[keep].reset_index(drop=True)
    df.columns = scan["header"]
    if len(df) == 0:
        raise DataError(f"{_q(name)} has a header but no patient rows.")
    df.attrs["sparge_read_notes"] = _read_notes(scan, k)
    return df


# --------------------------------------------------------------------------- parsing
#: Columns with at most this many cells are parsed cell by cell in plain Python.
_SMALL_COLUMN = 64

def _text(values: pd.Series) -> pd.Series:
    """Cells as stripped text, ``""`` for empty/None/NaN (index reset)."""
    if pd.api.types.is_string_dtype(values) and values.dtype != object:
        return values.fillna("").str.strip().reset_index(drop=True)
    return values.map(lambda v: "" if is_blank(v) else str(v).strip()).astype(str) \
        .reset_index(drop=True)


def _keys(text: pd.Series) -> pd.Series:
    """``norm_key`` of every cell (computed once per distinct cell)."""
    codes, uniques = pd.factorize(text)
    keys = np.asarray([norm_key(u) for u in uniques] + [""], dtype=object)
    return pd.Series(keys[codes], index=text.index, dtype=object)


def _token_counts(text: pd.Series) -> dict[str, int]:
    """``{token as first written: count}`` grouped case- and space-insensitively."""
    out: dict[str, int] = {}
    first: dict[str, str] = {}
    for s, n in text.value_counts().items():
        key = norm_key(s)
        label = first.setdefault(key, _q(s, 40))
        out[label] = out.get(label, 0) + int(n)
    return out


def parse_numeric(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS
                  ) -> tuple[np.ndarray, dict[str, Any]]:
    """Parse a column of cells as numbers.

    Returns the floats (``NaN`` for missing or unparsable cells) and a dict with the
    unparsable cells (``bad``: list of (row, text)), decimal-comma cells converted
    (``decimal_comma``), cells with thousands separators converted (``thousands``: a
    column written as ``1.234,5`` reads 1234.5; ``1 234,5`` too), censored values
    (``<0.1``, set to missing), infinite values and the missing tokens seen
    (``missing_tokens``: {token: count}).
    """
    info: dict[str, Any] = {"bad": [], "decimal_comma": 0, "thousands": 0, "censored": [],
                            "infinite": [], "missing_tokens": {}}
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        out = np.array(values.to_numpy(dtype=float, na_value=np.nan), copy=True)
        info["infinite"] = [(int(i), str(out[i])) for i in np.flatnonzero(np.isinf(out))]
        out[np.isinf(out)] = np.nan
        return out, info
    if len(values) <= _SMALL_COLUMN:
        # A few patients (a new-patient query): plain Python per cell beats pandas' string
        # machinery, whose fixed cost per column dominated a 467-column query.
        cells = ["" if is_blank(v) else str(v).strip() for v in values.tolist()]
        num = np.asarray([float(c) if _NUMBER.match(c) else np.nan for c in cells],
                         dtype=float)
        nonempty = np.asarray([c != "" for c in cells], dtype=bool)
    else:
        text = _text(values)
        cells = text.tolist()
        num = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        nonempty = (text != "").to_numpy()
    out = np.full(len(cells), np.nan)
    fast = np.isfinite(num)
    out[fast] = num[fast]
    rest = np.flatnonzero(nonempty & ~fast)
    rest_text = [cells[i] for i in rest]
    eu = any(_EU_FULL.match(s) for s in rest_text)
    if eu:
        dotted = [i for i in np.flatnonzero(fast) if "." in cells[i]]
        eu = all(_EU_THOUSANDS.match(cells[i]) for i in dotted)
        if eu:
            for i in dotted:
                out[i] = float(cells[i].replace(".", ""))
            info["thousands"] += len(dotted)
    tokens: list[str] = []
    for i, s in zip(rest, rest_text):
        if norm_key(s) in missing_tokens:
            tokens.append(s)
        elif eu and (_EU_FULL.match(s) or _DECIMAL_COMMA.match(s)):
            out[i] = float(s.replace(".", "").replace(",", "."))
            info["thousands"] += 1
        elif _SPACED.match(s):
            out[i] = float(re.sub(r"[ \u00a0\u202f]", "", s).replace(",", "."))
            info["thousands"] += 1
        elif _DECIMAL_COMMA.match(s):
            out[i] = float(s.replace(",", "."))
            info["decimal_comma"] += 1
        elif _CENSORED.match(s):
            info["censored"].append((int(i), s))
        elif norm_key(s) in _INF_TOKENS or _NUMBER.match(s):  # inf, or too large (1e999)
            info["infinite"].append((int(i), s))
        else:
            info["bad"].append((int(i), s))
    if tokens:
        info["missing_tokens"] = _token_counts(pd.Series(tokens, dtype=object))
    return out, info


def _numeric_share(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS) -> float:
    """Share of the non-missing cells that are numbers (in any of the accepted forms)."""
    if pd.api.types.is_bool_dtype(values):
        return 0.0
    if pd.api.types.is_numeric_dtype(values):
        return 1.0
    text = _text(values)
    codes, uniques = pd.factorize(text[text != ""])
    if len(uniques) == 0:
        return 0.0
    counts = np.bincount(codes, minlength=len(uniques))
    uniques = pd.Series(uniques, dtype=object)
    number = pd.to_numeric(uniques, errors="coerce").notna().to_numpy().copy()
    other = np.flatnonzero(~number)
    token = np.zeros(len(uniques), bool)
    token[other] = [norm_key(uniques.iat[i]) in missing_tokens for i in other]
    number[other] = [bool(_NUMERIC_LIKE.fullmatch(uniques.iat[i])) for i in other]
    n_all = int(counts[~token].sum())
    return float(counts[number].sum() / n_all) if n_all else 0.0


def _min_category_count(n_rows: int) -> int:
    return max(2, math.ceil(CATEGORY_MIN_SHARE * n_rows))


def infer_levels(text: pd.Series, missing_keys=DEFAULT_MISSING_TOKENS
                 ) -> tuple[dict[str, int], bool, str | None]:
    """Levels and codes of a text column that is not in the encoding table.

    Parameters
    ----------
    text : Series of str
        The column's cells.
    missing_keys : set of str
        Normalised missing tokens of the column.

    Returns
    -------
    levels : dict
        ``{level: code}``. Levels that fit one recognised scale are coded by rank on it
        (:data:`sparge.data.tables.SCALES`); columns with a yes and a no level read Yes 1, No 2,
        Unknown 0, other levels from 3; other columns are coded 1, 2, ... in natural order
        (numbers numerically). A word that is also a missing token (``None``, ``Unknown``)
        is a level when it fits the column's scale, or, in a column without a scale, when
        it fills at least 1 % of the cells (and 2 cells); otherwise it is missing.
    ordered : bool
        True when the codes follow a recognised scale (yes/no included).
    scale : str or None
        Name of the scale.
    """
    text = _text(text)
    keys = _keys(text)
    spelled: dict[str, str] = {}
    counts: dict[str, int] = {}
    for (key, s), n in pd.DataFrame({"k": keys, "s": text}).value_counts().items():
        if key == "":
            continue
        spelled.setdefault(key, s)
        counts[key] = counts.get(key, 0) + int(n)
    values = {k for k in spelled if k not in missing_keys}
    words = sorted(k for k in spelled if k in missing_keys and k in CATEGORY_WORDS)
    scale = scale_of(values) if values else None
    if scale is not None:
        values |= {w for w in words if scale_of(values | {w}) is not None}
        scale = scale_of(values)
    else:
        values |= {w for w in words if counts[w] >= _min_category_count(len(text))}
        scale = scale_of(values) if values else None
    levels = [spelled[k] for k in values]
    if scale is not None:
        return scale_codes(levels, scale), True, scale
    yn = yes_no_codes(levels)
    if yn is not None:
        return yn, False, None
    ordered_levels = sorted(levels, key=natural_key)
    return {lv: i + 1 for i, lv in enumerate(ordered_levels)}, False, None


# --------------------------------------------------------------------------- guessing
_ID_NAMES = re.compile(
    r"^(?:(?:subject|patient|participant|person|record|study|case|sample|member|client)"
    r"[\s_.\-]*(?:id|no|nr|number|code|#)|id|uid|mrn|medical[\s_.\-]*record[\s_.\-]*"
    r"(?:number|no)|.*[\s_.\-]mrn|patient|subject)$", re.IGNORECASE)
_OUTCOME_WORDS = ("outcome", "target", "label", "class", "event", "death", "died",
                  "mortality", "diagnosis", "status")
#: "status" and "class" name features too (Marital Status, NYHA class): they mark an outcome
#: only alone or with one of these words ("Vital status", "Target class").
_WEAK_WORDS = {"status", "class"}
_WEAK_COMPANIONS = {"vital", "survival", "disease", "final", "discharge", "outcome", "death",
                    "mortality", "life", "target", "label", "true", "patient", "y"}


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def guess_columns(df: pd.DataFrame) -> tuple[str | None, str | None]:
    """Guess the patient-ID and outcome columns of a table (for the setup form).

    ID: the first column named like an identifier ("Subject ID", "patient id", "id",
    "MRN", ...) whose values are unique, else the first text column whose values are all
    present and unique. Outcome: among the other columns, one named like outcome / target /
    label / class / event / death / mortality / diagnosis / status (in that order of
    preference, then left to right) with 2 to 10 distinct values; a yes/no column named
    like an event counts. "status" and "class" count only alone or with words such as
    vital / survival / disease / target ("Vital status"), not in "Marital Status" or
    "NYHA class".

    Returns
    -------
    (id_column, outcome_column), each ``None`` when nothing fits.
    """
    cols = [str(c) for c in df.columns]
    frame = df.set_axis(cols, axis=1)
    texts = {c: _text(frame[c]) for c in cols}

    def unique(c: str) -> bool:
        t = texts[c]
        return bool((t != "").all()) and t.nunique() == len(t)

    id_col = next((c for c in cols if _ID_NAMES.match(c.strip()) and unique(c)), None)
    if id_col is None:
        id_col = next((c for c in cols if unique(c) and len(frame) > 1
                       and not texts[c].str.fullmatch(_NUM).all()), None)
    best: tuple[int, int] | None = None
    outcome = None
    for pos, c in enumerate(cols):
        if c == id_col:
            continue
        words = _words(c)
        ranks = [_OUTCOME_WORDS.index(w) for w in words if w in _OUTCOME_WORDS
                 and (w not in _WEAK_WORDS or set(words) - _WEAK_WORDS <= _WEAK_COMPANIONS)]
        if not ranks:
            continue
        t = texts[c]
        n_levels = _keys(t[t != ""]).nunique()
        if 2 <= n_levels <= 10 and (best is None or (min(ranks), pos) < best):
            best, outcome = (min(ranks), pos), c
    return id_col, outcome


# --------------------------------------------------------------------------- encoder
class Encoder(TransformerMixin, BaseEstimator):
    """Patient table (DataFrame of text and numbers) -> float matrix, ``NaN`` = missing.

    Parameters
    ----------
    id_column, label_column : str, optional
        Columns that identify the patient and hold the outcome; never features.
    encoding_table : EncodingTable, dict, DataFrame or None
        Levels -> codes for categorical columns and the missing tokens; ``None`` uses the
        paper's table. Columns not in it get an inferred table (:func:`infer_levels`:
        recognised scales in their order, yes/no as Yes 1 No 2 Unknown 0, other levels in
        natural order).
    roles : dict, optional
        ``{column: role}`` overriding the inferred roles (id, label, numeric, categorical,
        ignore).
    max_patient_missing : float or None
        Patients missing more than this share are left out of training (paper: 10 %).
        ``fit_transform`` keeps every row; ``keep_patients_`` says which to train on.
    drop_all_missing, drop_constant, merge_duplicates : bool
        Column filters of the paper's preprocessing.
    numeric_threshold : float
        A text column is numeric when at least this share of its non-missing cells are
        numbers.
    max_levels : int
        A text column with more distinct values is ignored (free text or identifiers).

    Attributes
    ----------
    roles_ : dict
    table_ : EncodingTable
        The table used (paper's + inferred + user's), with the missing tokens.
    feature_names_out_ : list of str
    keep_patients_ : ndarray of bool
    report_ : ValidationReport
        The report of ``fit``. ``transform`` writes nothing (a fitted encoder can be shared
        between threads); :meth:`transform_with_report` returns the report of a transform.

    Notes
    -----
    Missing values: an empty cell, or a missing token of the table that is not a level of
    the column. In numeric columns every token is missing; in categorical columns a token
    that is a level ("Unknown" = 0 in the paper's yes/no group, "None" in an inferred
    Albuminuria column) is a value. ``report_.missing_tokens`` lists per column which
    tokens were read as missing and how often.
    """

    def __init__(self, id_column: str | None = None, label_column: str | None = None,
                 encoding_table=None, roles: Mapping[str, str] | None = None,
                 max_patient_missing: float | None = 0.1, drop_all_missing: bool = True,
                 drop_constant: bool = True, merge_duplicates: bool = True,
                 numeric_threshold: float = 0.8, max_levels: int = 30):
        self.id_column = id_column
        self.label_column = label_column
        self.encoding_table = encoding_table
        self.roles = roles
        self.max_patient_missing = max_patient_missing
        self.drop_all_missing = drop_all_missing
        self.drop_constant = drop_constant
        self.merge_duplicates = merge_duplicates
        self.numeric_threshold = numeric_threshold
        self.max_levels = max_levels

    # ------------------------------------------------------------------ helpers
    def _base_table(self) -> EncodingTable:
        t = self.encoding_table
        if t is None:
            return EncodingTable.paper()
        if isinstance(t, EncodingTable):
            return EncodingTable.paper().merged(t)
        if isinstance(t, pd.DataFrame):
            return EncodingTable.paper().merged(EncodingTable.from_frame(t))
        if isinstance(t, Mapping):
            return EncodingTable.paper().merged(EncodingTable.from_state(t))
        raise DataError("encoding_table must be an EncodingTable, a dict or a DataFrame.")

    @staticmethod
    def _check_frame(df) -> pd.DataFrame:
        if not isinstance(df, pd.DataFrame):
            raise DataError("The Encoder takes a pandas DataFrame (use sparge.read_table "
                            "to read a CSV).")
        if df.shape[0] == 0:
            raise DataError("The table has no patient rows.")
        if df.columns.duplicated().any():
            dups = sorted({_q(c, 60) for c in df.columns[df.columns.duplicated()]})
            raise DataError(f"Duplicate column name(s): {dups[:10]}.")
        return df

    def _infer_role(self, col: str, values: pd.Series, table: EncodingTable) -> str:
        if table.has(col) or pd.api.types.is_bool_dtype(values):
            return "categorical"
        missing = table.missing_keys(col)
        if _numeric_share(values, missing) >= self.numeric_threshold:
            return "numeric"
        text = _text(values)
        keys = _keys(text)
        keys = keys[(keys != "") & ~keys.isin(missing)]
        n_levels = keys.nunique()
        if n_levels == 0:
            return "numeric"  # all missing: dropped later as an all-missing column
        if n_levels > self.max_levels:
            return "ignore"
        return "categorical"

    def _label_missing(self, lab: pd.Series) -> np.ndarray:
        """Outcome cells that are missing: empty, or a missing token; "None"/"Nil" are an
        outcome class when common (an "unknown" outcome is never a class)."""
        table = self.table_ if hasattr(self, "table_") else self._base_table()
        text = _text(lab)
        keys = _keys(text)
        miss = (text == "") | keys.isin(table.missing_keys(self.label_column))
        for word in ("none", "nil"):
            hit = keys == word
            if hit.sum() >= _min_category_count(len(text)):
                miss &= ~hit
        return miss.to_numpy()

    # ------------------------------------------------------------------ fit
    def fit(self, X: pd.DataFrame, y=None) -> Encoder:
        self._fit_transform(X)
        return self

    def fit_transform(self, X: pd.DataFrame, y=None, **fit_params) -> np.ndarray:
        return self._fit_transform(X)

    def _roles(self, df: pd.DataFrame, cols: list[str], base: EncodingTable) -> dict[str, str]:
        overrides = {str(k): v for k, v in (self.roles or {}).items()}
        for col, role in overrides.items():
            if role not in ROLES:
                raise DataError(f"Role {_q(role, 40)!r} for column {_q(col)!r} is not one of "
                                f"{ROLES}.")
            if col not in cols:
                raise DataError(f"A role is given for column {_q(col)!r}, which is not in the "
                                f"table (columns: {[_q(c, 40) for c in cols[:10]]}…).")
        for name, attr in (("id", self.id_column), ("label", self.label_column)):
            if attr is not None and str(attr) not in cols:
                raise DataError(f"The {name} column {_q(attr)!r} is not in the table; columns "
                                f"are: {[_q(c, 40) for c in cols[:15]]}"
                                f"{'…' if len(cols) > 15 else ''}.")
        roles: dict[str, str] = {}
        for col in cols:
            if col == self.id_column:
                roles[col] = "id"
            elif col == self.label_column:
                roles[col] = "label"
            elif col in overrides:
                roles[col] = overrides[col]
            else:
                roles[col] = self._infer_role(col, df[col], base)
        return roles

    def _check_ids(self, df: pd.DataFrame) -> None:
        if self.id_column is None:
            return
        ids = _text(df[self.id_column])
        dup = ids[ids.duplicated(keep=False)]
        if len(dup):
            first = dup.iloc[0]
            rows = [int(i) + 2 for i in np.flatnonzero(ids == first)[:5]]
            raise DataError(f"Duplicate patient ID {_q(first, 60)!r} in column "
                            f"{_q(self.id_column)!r} (CSV lines {rows}); "
                            f"{dup.nunique()} ID(s) repeat. Every patient needs a unique ID.")

    def _build_table(self, df: pd.DataFrame, cols: list[str], roles: dict[str, str],
                     base: EncodingTable, report: ValidationReport) -> EncodingTable:
        table = EncodingTable(missing_tokens=base.missing_tokens)
        for col, toks in base.column_missing_tokens().items():
            table.set_missing_tokens(toks, column=col)
        for col in cols:
            if roles[col] != "categorical":
                continue
            if base.has(col):
                table.set_column(col, base.levels(col), ordered=base.is_ordered(col))
                continue
            levels, ordered, scale = infer_levels(df[col], base.missing_keys(col))
            levels = dict(sorted(levels.items(), key=lambda kv: kv[1]))
            table.set_column(col, levels, ordered=ordered)
            if levels:
                shown = [f"{_q(lv, 30)} {c}" for lv, c in levels.items()]
                how = ("" if scale is None else
                       f" in the paper's yes/no direction ({', '.join(shown)})"
                       if scale == "yes/no" else
                       f" in the order of the recognised {scale} scale ({' < '.join(shown)})")
                report.notes.append(f"column '{_q(col)}' has no encoding table entry; "
                                    f"inferred {len(levels)} levels{how} (editable).")
        return table

    def _fit_transform(self, df: pd.DataFrame) -> np.ndarray:
        df = self._check_frame(df)
        report = ValidationReport(n_rows=int(df.shape[0]), n_columns=int(df.shape[1]))
        report.notes += list(df.attrs.get("sparge_read_notes", []))
        cols = [str(c) for c in df.columns]
        df = df.set_axis(cols, axis=1)
        base = self._base_table()
        roles = self._roles(df, cols, base)
        self._check_ids(df)
        table = self._build_table(df, cols, roles, base, report)
        self.table_ = table
        self.roles_ = roles
        self.input_columns_ = cols
        features = [c for c in cols if roles[c] in ("numeric", "categorical")]
        X = self._encode(df, features, report)
        filt = filter_columns(X, drop_all_missing=self.drop_all_missing,
                              drop_constant=self.drop_constant,
                              merge_duplicates=self.merge_duplicates)
        for j in filt.all_missing:
            report.dropped_columns.append({"column": features[j], "reason": "no values"})
        for j in filt.constant:
            report.dropped_columns.append({"column": features[j],
                                           "reason": "the same value for every patient"})
        for j, k in filt.duplicate_of.items():
            report.dropped_columns.append({"column": features[j], "reason":
                                           f"an exact copy of '{_q(features[k])}' (merged)"})
        self.encoded_columns_ = features
        self.feature_names_out_ = [f for f, keep in zip(features, filt.keep) if keep]
        X = X[:, filt.keep]
        report.roles = roles
        report.n_features = len(self.feature_names_out_)
        report.missing_pct = {f: float(100 * np.isnan(X[:, j]).mean())
                              for j, f in enumerate(self.feature_names_out_)}
        report.unordered_columns = self._unordered(self.feature_names_out_)
        miss = missing_fraction_per_row(X)
        self.keep_patients_ = (np.ones(len(df), bool) if self.max_patient_missing is None
                               else miss <= self.max_patient_missing + 1e-12)
        id_vals = (_text(df[self.id_column]).tolist() if self.id_column else
                   [str(i) for i in range(len(df))])
        report.patients_dropped = [{"row": int(i) + 2, "id": _q(id_vals[i], 60),
                                    "missing_pct": float(100 * miss[i])}
                                   for i in np.flatnonzero(~self.keep_patients_)]
        if self.max_patient_missing is not None and report.patients_dropped:
            report.notes.append(
                f"{len(report.patients_dropped)} of {len(df)} patients miss more than "
                f"{100 * self.max_patient_missing:.0f}% of their values (the paper's "
                "threshold) and are left out of training; raise the threshold to keep them.")
        self._label_checks(df, report)
        n_train = int(self.keep_patients_.sum())
        if report.n_features == 0:
            report.blocking.append("no usable feature columns (all were ignored, empty or "
                                   "constant).")
        if n_train < 3:
            report.blocking.append(f"only {n_train} patient(s) left to train on; at least 3 "
                                   "are needed (and more than the number of look-alikes).")
        elif n_train <= 10:
            report.warnings.append(f"only {n_train} patients to train on: look-alike lists "
                                   "of 10 will hold most of the cohort.")
        self.report_ = report
        self.n_features_in_ = len(cols)
        return X

    def _unordered(self, features: list[str]) -> list[str]:
        """Categorical features with 3 or more codes that follow no order."""
        out = []
        for col in features:
            if self.roles_.get(col) != "categorical" or not self.table_.has(col):
                continue
            if len(set(self.table_.levels(col).values())) >= 3 and \
                    not self.table_.is_ordered(col):
                out.append(col)
        return out

    def _label_checks(self, df: pd.DataFrame, report: ValidationReport) -> None:
        if self.label_column is None:
            return
        report.label_column = self.label_column
        missing = self._label_missing(df[self.label_column])
        vals = _text(df[self.label_column])
        keep = self.keep_patients_ & ~missing
        report.label_balance = {_q(k, 60): int(v) for k, v in
                                vals[keep].value_counts().items()}
        if missing.any():
            rows = [int(i) + 2 for i in np.flatnonzero(missing)[:5]]
            report.warnings.append(f"{int(missing.sum())} patient(s) have no outcome in "
                                   f"'{_q(self.label_column)}' (CSV lines {rows}…); they are "
                                   "left out of supervised training.")
        if len(report.label_balance) < 2:
            report.blocking.append(
                f"the outcome column '{_q(self.label_column)}' has "
                f"{len(report.label_balance)} class(es) among the patients kept; supervised "
                "training needs at least 2 (or train unsupervised).")
        elif min(report.label_balance.values()) < 3:
            report.warnings.append("an outcome class has fewer than 3 patients; its "
                                   "look-alikes will be unreliable.")

    # ------------------------------------------------------------------ encode
    def _encode(self, df: pd.DataFrame, features: list[str],
                report: ValidationReport) -> np.ndarray:
        """Encode ``features`` of ``df`` with the fitted roles and table (read-only)."""
        X = np.full((len(df), len(features)), np.nan)
        for j, col in enumerate(features):
            if self.roles_[col] == "numeric":
                X[:, j], info = parse_numeric(df[col], self.table_.missing_keys(col))
                self._report_numeric(col, info, report)
            else:
                X[:, j] = self._encode_categorical(col, df[col], report)
        return X

    def _encode_categorical(self, col: str, values: pd.Series,
                            report: ValidationReport) -> np.ndarray:
        text = _text(values)
        keys = _keys(text)
        mapping = {norm_key(lv): float(code) for lv, code in self.table_.levels(col).items()}
        codes = keys.map(mapping).astype(float).to_numpy()
        unresolved = np.isnan(codes) & (text != "").to_numpy()
        if not unresolved.any():
            return codes
        is_token = keys.isin(self.table_.missing_keys(col)).to_numpy()
        tokens = unresolved & is_token
        unknown = unresolved & ~is_token
        if tokens.any():
            report.missing_tokens[col] = _token_counts(text[tokens])
        if unknown.any():
            counts = _token_counts(text[unknown])
            report.unknown_values.append({
                "column": col, "count": int(unknown.sum()),
                "examples": sorted(counts, key=lambda k: -counts[k])[:3]})
        return codes

    @staticmethod
    def _report_numeric(col: str, info: dict, report: ValidationReport) -> None:
        bad, cens, inf = info["bad"], info["censored"], info["infinite"]
        if info.get("missing_tokens"):
            report.missing_tokens[col] = dict(info["missing_tokens"])
        if info["decimal_comma"]:
            report.notes.append(f"column '{_q(col)}': {info['decimal_comma']} value(s) written "
                                "with a decimal comma (e.g. '12,5') were read as 12.5.")
        if info.get("thousands"):
            report.notes.append(f"column '{_q(col)}': {info['thousands']} value(s) written "
                                "with thousands separators (e.g. '1.234,5' or '1 234,5') "
                                "were read as numbers (1234.5).")
        for cells, hint in ((bad, "expected numbers; these cells (CSV lines {lines}) were set "
                                  "to missing."),
                            (cens, "values below/above a detection limit (like '<0.1') were "
                                   "set to missing; enter a number to keep them."),
                            (inf, "infinite values were set to missing.")):
            if cells:
                report.stray_text.append({
                    "column": col, "count": len(cells), "rows": [r + 2 for r, _ in cells[:5]],
                    "examples": [_q(s, 40) for _, s in cells[:3]],
                    "hint": hint.format(lines=[r + 2 for r, _ in cells[:3]])})

    def transform(self, X: pd.DataFrame) -> np.ndarray:
        """Encode a table with the fitted roles and tables (columns aligned by name).

        Writes nothing on the encoder; :meth:`transform_with_report` also returns what was
        read (missing and extra columns, unknown values, missing tokens).
        """
        return self.transform_with_report(X)[0]

    def transform_with_report(self, X: pd.DataFrame) -> tuple[np.ndarray, ValidationReport]:
        """Encode a table and return ``(X_encoded, report)``; the encoder is not changed.

        Model columns absent from the table become missing values and extra columns are
        ignored; both are listed in the report.
        """
        check_is_fitted(self, "feature_names_out_")
        df = self._check_frame(X)
        df = df.set_axis([str(c) for c in df.columns], axis=1)
        present = {norm_key(c): c for c in df.columns}
        rename = {}
        missing_cols = []
        for col in self.encoded_columns_:
            if col in df.columns:
                continue
            if norm_key(col) in present:
                rename[present[norm_key(col)]] = col
            else:
                missing_cols.append(col)
        df = df.rename(columns=rename)
        known = set(self.input_columns_)
        extra = [c for c in df.columns if c not in known]
        report = ValidationReport(n_rows=int(df.shape[0]), n_columns=int(df.shape[1]))
        report.notes += list(X.attrs.get("sparge_read_notes", []))
        if missing_cols:
            df = df.assign(**{col: "" for col in missing_cols})
            report.warnings.append(
                f"{len(missing_cols)} column(s) of the model are not in this table and are "
                f"treated as missing: {[_q(c, 40) for c in missing_cols[:8]]}"
                f"{'…' if len(missing_cols) > 8 else ''}.")
        if extra:
            report.notes.append(f"{len(extra)} column(s) unknown to the model are ignored: "
                                f"{[_q(c, 40) for c in extra[:8]]}"
                                f"{'…' if len(extra) > 8 else ''}.")
        X_all = self._encode(df, self.encoded_columns_, report)
        keep = [self.encoded_columns_.index(f) for f in self.feature_names_out_]
        out = X_all[:, keep]
        report.roles = {c: self.roles_[c] for c in self.input_columns_}
        report.n_features = out.shape[1]
        report.missing_pct = {f: float(100 * np.isnan(out[:, j]).mean())
                              for j, f in enumerate(self.feature_names_out_)}
        report.unordered_columns = self._unordered(self.feature_names_out_)
        return out, report

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        check_is_fitted(self, "feature_names_out_")
        return np.asarray(self.feature_names_out_, dtype=object)

    # ------------------------------------------------------------------ labels and ids
    def labels(self, df: pd.DataFrame) -> np.ndarray:
        """The outcome column as an array (``None`` entries for missing outcomes)."""
        if self.label_column is None:
            raise DataError("No outcome column was set (label_column).")
        if self.label_column not in df.columns:
            raise DataError(f"The outcome column {_q(self.label_column)!r} is not in the "
                            "table.")
        lab = df[self.label_column]
        out = _text(lab).to_numpy(dtype=object)
        out[self._label_missing(lab)] = None
        return out

    def ids(self, df: pd.DataFrame) -> np.ndarray:
        """Patient IDs (the id column, else the row number)."""
        if self.id_column is not None and self.id_column in df.columns:
            return _text(df[self.id_column]).to_numpy(dtype=object)
        return np.asarray([str(i) for i in range(len(df))], dtype=object)

    def training_rows(self, df: pd.DataFrame) -> np.ndarray:
        """Rows to train on: enough values, and an outcome when a label column is set."""
        check_is_fitted(self, "keep_patients_")
        keep = self.keep_patients_.copy()
        if self.label_column is not None:
            keep &= ~self._label_missing(df[self.label_column])
        return keep

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        """JSON-able state (parameters, roles, tables, missing tokens, feature names).

        ``table`` keeps the ``{column: {level: code}}`` form of earlier versions; the order
        flags and missing tokens are the added keys ``ordered``, ``missing_tokens`` and
        ``column_missing_tokens``.
        """
        check_is_fitted(self, "feature_names_out_")
        return {"params": {"id_column": self.id_column, "label_column": self.label_column,
                           "max_patient_missing": self.max_patient_missing,
                           "drop_all_missing": self.drop_all_missing,
                           "drop_constant": self.drop_constant,
                           "merge_duplicates": self.merge_duplicates,
                           "numeric_threshold": self.numeric_threshold,
                           "max_levels": self.max_levels},
                "roles": self.roles_, "table": self.table_.to_dict(),
                "ordered": {c: self.table_.is_ordered(c) for c in self.table_.columns()},
                "missing_tokens": self.table_.missing_tokens,
                "column_missing_tokens": self.table_.column_missing_tokens(),
                "input_columns": self.input_columns_,
                "encoded_columns": self.encoded_columns_,
                "feature_names_out": self.feature_names_out_}

    @classmethod
    def from_dict(cls, state: dict) -> Encoder:
        """Inverse of :meth:`to_dict`; also loads the state saved by earlier versions (no
        order flags or tokens: the default tokens, order from the recognised scales)."""
        enc = cls(**state["params"])
        enc.roles_ = {str(k): str(v) for k, v in state["roles"].items()}
        tokens = state.get("missing_tokens")
        if tokens is not None and not (isinstance(tokens, list)
                                       and all(isinstance(t, str) for t in tokens)):
            raise ValueError("missing_tokens must be a list of text")
        ordered = state.get("ordered") or {}
        if not isinstance(ordered, dict) or not all(isinstance(v, bool)
                                                    for v in ordered.values()):
            raise ValueError("ordered must be {column: true/false}")
        try:
            enc.table_ = EncodingTable(state["table"], missing_tokens=tokens, ordered=ordered)
            for col, toks in (state.get("column_missing_tokens") or {}).items():
                if not isinstance(toks, list):
                    raise ValueError("column_missing_tokens must be {column: [text]}")
                enc.table_.set_missing_tokens([str(t) for t in toks], column=str(col))
        except DataError as exc:
            raise ValueError(str(exc)) from exc
        enc.input_columns_ = [str(c) for c in state["input_columns"]]
        enc.encoded_columns_ = [str(c) for c in state["encoded_columns"]]
        enc.feature_names_out_ = [str(c) for c in state["feature_names_out"]]
        if not set(enc.feature_names_out_) <= set(enc.encoded_columns_):
            raise ValueError("feature names are not among the encoded columns")
        enc.n_features_in_ = len(enc.input_columns_)
        enc.keep_patients_ = np.zeros(0, bool)
        return enc
