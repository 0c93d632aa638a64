"""Reading patient tables: CSV bytes in, a table of text cells out (DESIGN.md §3).

:func:`read_table` reads a CSV (path, bytes or binary file-like) with delimiter and text
encoding detection (UTF-8, UTF-16 with BOM as Excel's "Unicode text", latin-1), refuses
input too large for memory before parsing it (:func:`estimate_read_memory`), and reads
ragged rows safely: trailing empty fields are dropped, short rows are padded with empty
cells, rows with extra values are refused. Cells stay text; :mod:`sparge.data.parsing`
reads them.
"""

from __future__ import annotations

import codecs
import csv
import html
import io
import os
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sparge.data.age_dates import read_dates_in_age_columns
from sparge.data.apgar import split_apgars
from sparge.data.blood_pressure import split_pressures
from sparge.data.centiles import read_centiles
from sparge.data.combined_cells import columns_holding, shared_looks
from sparge.data.compound_units import read_compound_units
from sparge.data.eye_sides import read_eye_sides
from sparge.data.hla import split_hla_mismatches
from sparge.data.icd_codes import read_icd_codes
from sparge.data.named_values import read_named_values
from sparge.data.not_applicable import read_not_applicable
from sparge.data.obstetric import read_obstetric
from sparge.data.postural_pressures import split_postural
from sparge.data.pounds_ounces import read_pounds_ounces
from sparge.data.safe_text import quote as _q
from sparge.data.tables import norm_key
from sparge.data.tnm import split_tnm
from sparge.data.visual_acuity import read_visual_acuity
from sparge.errors import DataError

#: Memory per byte of CSV for reading it and encoding it (measured with pandas' Arrow-backed
#: strings: a 98 MB 200,000 x 52 numeric CSV peaks at 3.4x its size to read and 5.1x to
#: read and encode, a 34 MB text CSV at 4.1x and 6.4x; object-backed strings take about
#: twice that, hence 10x) and a fixed part for the parser's buffers.
READ_MEMORY_FACTOR = 10
READ_MEMORY_FIXED = 64 * 1024**2
#: Default ``max_memory`` of :func:`read_table`: 4 GiB of estimated memory (a CSV of
#: about 400 MB).
DEFAULT_MAX_READ_MEMORY = 4 * 1024**3
#: Bytes decoded at a time when checking that a file is UTF-8.
_CHUNK = 1 << 20


def _gb(n: float) -> str:
    """A byte count in MB, or in GB from 1 GB up."""
    return f"{n / 1024**3:.1f} GB" if n >= 1024**3 else f"{n / 1024**2:.0f} MB"


def estimate_read_memory(n_bytes: int) -> int:
    """Estimated peak memory that :func:`read_table` needs for a CSV.

    Parameters
    ----------
    n_bytes : int
        Size of the CSV in bytes (negative sizes count as 0).

    Returns
    -------
    int
        Bytes of memory: about ten per byte of file (:data:`READ_MEMORY_FACTOR`) plus a
        fixed :data:`READ_MEMORY_FIXED`.
    """
    return int(READ_MEMORY_FIXED + READ_MEMORY_FACTOR * max(int(n_bytes), 0))


def _check_memory(n_bytes: int, name: str, max_memory: int | None) -> None:
    """Refuse ``n_bytes`` of CSV whose reading would need more than ``max_memory``."""
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
    """Bytes left to read in a file-like object, or None when it cannot tell."""
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
    """The bytes of a path, bytes or file-like source and a name for messages."""
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
    """The delimiter among ``,`` ``;`` and tab of the first lines of a CSV."""
    lines = head.splitlines()[:50]
    text = "\n".join(lines)
    try:
        return csv.Sniffer().sniff(text, delimiters=",;\t").delimiter
    except csv.Error:
        first = lines[0] if lines else ""
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        return max(counts, key=counts.get) if max(counts.values()) else ","


def _check_title_lines(head: str, sep: str, name: str) -> None:
    """A DataError when a report's title lines come before the header: the first line
    names one column and a later one of the first ten names several, as do the lines
    after it (walk-through 71's export, its header on line 3 under a title and a run
    date, was said to have "a single column")."""
    try:
        rows = list(csv.reader(io.StringIO("\n".join(head.splitlines()[:12])),
                               delimiter=sep))
    except csv.Error:
        return
    named = [sum(1 for f in r if f.strip()) for r in rows]
    if not rows or named[0] >= 2:
        return
    for i in range(1, min(10, len(rows) - 1)):
        width = len(rows[i])
        if named[i] >= 3 and named[i] == width and len(rows[i + 1]) == width:
            shown = ", ".join(f"'{_q(f, 30)}'" for f in rows[i][:3])
            raise DataError(
                f"{_q(name)}: line 1 ('{_q(rows[0][0], 60)}') looks like a title, not the "
                f"column names, which seem to start on line {i + 1} ({shown}, …). Delete "
                f"the line{'s' if i > 1 else ''} above them and upload the file again.")


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
    """``line 3 has 4, line 5 has 4 …`` for (CSV line, field count) pairs (up to 5)."""
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
    """Plain-words notes on what the reading repaired (for the validation report)."""
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


#: An HTML character reference: "&gt;", "&#62;", "&#x3E;".
_HTML_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});")


def _has_ampersand(value: object) -> bool:
    return isinstance(value, str) and "&" in value


def _unescape_html(df: pd.DataFrame) -> list[str]:
    """Read the HTML character references an export left in its cells ("&gt;90" is
    ">90"; walk-through 37 lost 67 eGFRs so), in place; a note for the report."""
    found: dict[str, tuple[int, str]] = {}
    # the columns with an "&" (a small table's cells at once: a pandas call per column
    # took 0.3 s of a one-patient row of 469 columns)
    for j in np.flatnonzero(columns_holding(df, _has_ampersand, "&")):
        col, cells = df.columns[j], df.iloc[:, j]
        hit = cells.str.contains(_HTML_ENTITY)
        if hit.any():
            fixed = cells[hit].map(html.unescape)
            found[str(col)] = (int(hit.sum()), str(cells[hit].iloc[0]))
            df.iloc[np.flatnonzero(hit.to_numpy()), j] = fixed.to_numpy()
    if not found:
        return []
    n = sum(c for c, _ in found.values())
    col, (_, cell) = next(iter(found.items()))
    return [f"{n:,} cell(s) written with HTML character references were read as the "
            f"characters they stand for (e.g. '{_q(cell, 20)}' in '{_q(col, 30)}' as "
            f"'{_q(html.unescape(cell), 20)}'), in {len(found)} column(s)"]


def _undecodable(data: bytes, enc: str, name: str, exc: UnicodeDecodeError) -> str:
    """The message for a file that is not all in the encoding it was read in: the CSV line
    and the byte (walk-through 72's file began with a UTF-8 mark and held Windows-1252
    text: "cannot be decoded as utf-8-sig text (invalid start byte)" named neither)."""
    bom = data.startswith(b"\xef\xbb\xbf") and enc.lower().replace("_", "-") == "utf-8-sig"
    body = data[3:] if bom else data  # utf-8-sig counts positions after its mark
    try:
        body.decode("utf-8" if bom else enc)
        where, byte = None, None
    except UnicodeDecodeError as whole:
        where = body[:whole.start].count(b"\n") + 1
        byte = body[whole.start:whole.start + 1].hex().upper()
    said = "UTF-8" if enc.lower().replace("_", "-").startswith("utf-8") else enc
    at = f": line {where} holds the byte 0x{byte}, which is not {said}" if where else ""
    mark = (" It starts with a UTF-8 mark, but part of it is in another encoding (such as "
            "Windows-1252, where 0xE9 is 'é')." if data.startswith(b"\xef\xbb\xbf") else "")
    return (f"{_q(name)} cannot be read as {said} text{at} ({exc.reason}).{mark} Save it "
            "again as 'CSV UTF-8' (Excel: File > Save As) and upload it again.")


def read_table(source, *, delimiter: str | None = None,
               max_memory: int | None = DEFAULT_MAX_READ_MEMORY,
               answers: Mapping[str, Mapping[str, str]] | None = None) -> pd.DataFrame:
    """Read a patient table as text cells.

    Parameters
    ----------
    source : path, bytes or binary file-like
        The CSV: a path, its bytes, or an object with ``read`` (e.g. Streamlit's upload).
    delimiter : str, optional
        Forced delimiter; detected among ``,`` ``;`` and tab by default.
    max_memory : int or None
        Largest estimated memory (bytes, see :func:`estimate_read_memory`) the reading may
        take; larger input is refused before it is parsed. Default
        :data:`DEFAULT_MAX_READ_MEMORY` (4 GiB, a CSV of about 400 MB); ``None``: no limit.
    answers : mapping, optional
        A fitted model's answers by column (:meth:`~sparge.data.encoder.Encoder.answers`),
        for a file of new patients: "N/A - informal" reads "Informal" where the model
        knows that answer, as its training table did (walk-through 53).

    Returns
    -------
    pandas.DataFrame
        Strings (empty cells as ``""``); the encoder parses numbers. The first column is
        never taken as the index. ``df.attrs["sparge_read_notes"]`` lists what was repaired
        (rows with trailing empty fields, short rows read with empty trailing cells, skipped
        empty rows); the Encoder copies these notes into its report.

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
    _check_title_lines(head, sep, name)
    stream = io.TextIOWrapper(io.BytesIO(data), encoding=enc, newline="")
    try:
        scan = _scan_rows(stream, sep, name)
    except UnicodeDecodeError as exc:
        raise DataError(_undecodable(data, enc, name, exc)) from exc
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
    with shared_looks():  # a small table's cells looked at once for every reader
        df.attrs["sparge_read_notes"] = _read_notes(scan, k) + _unescape_html(df)
        # "pT2N1M0" as three ordered columns, "142/88" as two numbers
        df = read_compound_units(read_pounds_ounces(read_not_applicable(read_visual_acuity(
            read_eye_sides(read_named_values(split_postural(df)))), answers)))
        return split_apgars(split_pressures(split_tnm(split_hla_mismatches(read_icd_codes(
            read_dates_in_age_columns(read_centiles(read_obstetric(df))))))))
