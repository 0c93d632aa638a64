"""User-controlled text leaving the program: Markdown, terminals and CSV files.

Everything a user uploads (file names, column names, outcome labels, cell values, patient
IDs) may hold Markdown (``![x](http://host/...)`` makes a browser fetch an outside URL),
terminal escape codes, or spreadsheet formulas (``=HYPERLINK(...)``). These pure functions
neutralise each; the app, the CLI and every CSV download go through them.
"""

from __future__ import annotations

import re

import pandas as pd

#: Characters with a meaning in (GitHub-flavoured / Streamlit) Markdown.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~:$&=\"'])")
#: C0/C1 control characters (terminal escapes), except tab and newline.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: A CSV cell starting with one of these is run as a formula by spreadsheets (OWASP).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def plain_text(value: object, max_len: int = 200) -> str:
    """One line of text with control characters removed, cut to ``max_len`` characters."""
    s = _CONTROL.sub("", str(value)).replace("\n", " ").replace("\t", " ")
    return s if len(s) <= max_len else s[: max_len - 1] + "…"


def md_escape(value: object, max_len: int = 200) -> str:
    """Text that Markdown shows literally: no links, images, HTML or formatting."""
    return _MD_SPECIAL.sub(r"\\\1", plain_text(value, max_len))


def csv_cell(value: object) -> object:
    """A cell that a spreadsheet will not run: text starting with = + - @ tab or CR gets a
    leading single quote; numbers (including negative ones) are left alone."""
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(_FORMULA_START) and not _NUMBER.match(value.strip()):
        return "'" + value
    return value


def csv_safe(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` whose text cells and column names cannot run as formulas."""
    out = df.copy()
    out.columns = [csv_cell(str(c)) for c in out.columns]
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(csv_cell)
    return out


def to_csv(df: pd.DataFrame, **kwargs) -> str:
    """``df.to_csv`` after :func:`csv_safe` (``index=False`` unless given)."""
    kwargs.setdefault("index", False)
    return csv_safe(df).to_csv(**kwargs)


def plain_frame(df: pd.DataFrame, max_len: int = 200) -> pd.DataFrame:
    """A copy with control characters stripped from text cells and column names."""
    out = df.copy()
    out.columns = [plain_text(c, max_len) for c in out.columns]
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(lambda v: plain_text(v, max_len)
                                    if isinstance(v, str) else v)
    return out


__all__ = ["plain_text", "md_escape", "csv_cell", "csv_safe", "to_csv", "plain_frame"]
