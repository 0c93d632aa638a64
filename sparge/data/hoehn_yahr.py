"""A Parkinson's disease stage on the Hoehn and Yahr scale, as a movement-disorders
clinic writes it ("2.5", "H&Y 2.5", "HY2", "stage III", "1.5-2").

Walk-through 97's clinic wrote its H&Y stage as numbers with the half stages of the
modified scale (1, 1.5, 2, 2.5, 3, 4, 5), after the scale's initials or "stage", and in
Roman numerals: 32 unordered answers, "H&Y 3" coded 16 and "5" coded 7, and the look-alikes'
stages summarised by count. The stage is a number on its scale (a half stage lies between
its neighbours), so in a column named for it (:data:`HOEHN_YAHR_NAME`) a cell is read as
that number: the initials or "stage" before it are dropped, a Roman numeral is its number,
and a stage between two ("1.5-2") stays a range, which reads as its middle as any range
does. Stages beyond 0–5 and cells of any other form are left as written. Pure functions
on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of the Hoehn and Yahr stage, by its name ("H&Y stage", "Hoehn & Yahr", "HY").
HOEHN_YAHR_NAME = re.compile(r"hoehn|\bh\s*(?:&|and|\+)\s*y\b|^\s*(?:m?hy|h-y)\b",
                             re.IGNORECASE)
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5}
_PREFIX = (r"(?:(?:modified\s+)?(?:hoehn\s*(?:&|and)\s*yahr|h\s*(?:&|and|\+)\s*y|m?hy|h-y)"
           r"\s*(?:stage)?|stage)")
_STAGE = r"(?:[0-5](?:\.5)?|i{1,3}|iv|v)"
_CELL = re.compile(rf"\s*(?:{_PREFIX}\s*[:=-]?\s*)?({_STAGE})(?:\s*(?:-|to|–)\s*({_STAGE}))?"
                   r"\s*", re.IGNORECASE)


def _number(stage: str) -> str:
    s = stage.lower()
    return str(_ROMAN[s]) if s in _ROMAN else s


def hoehn_yahr_stage(cell: object) -> str | None:
    """A Hoehn and Yahr cell as the number to read ("H&Y 2.5": "2.5", "stage III": "3",
    "stage II-III": "2-3"); ``None`` for a plain number or range (read as it is) and any
    other cell.

    Examples
    --------
    >>> [hoehn_yahr_stage(c) for c in ["H&Y 2.5", "HY2", "stage III", "IV", "H&Y 1.5-2",
    ...                                "stage 2.5", "2.5", "1.5-2", "6", "N/A - ET"]]
    ['2.5', '2', '3', '4', '1.5-2', '2.5', None, None, None, None]
    """
    text = re.sub(r"\s+", " ", str(cell).strip())
    if not text or len(text) > 30:
        return None
    m = _CELL.fullmatch(text)
    if m is None:
        return None
    low = _number(m.group(1))
    read = low if m.group(2) is None else f"{low}-{_number(m.group(2))}"
    if m.group(2) is not None and float(_number(m.group(2))) <= float(low):
        return None
    return None if read == text else read


def read_hoehn_yahr(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its Hoehn and Yahr columns' cells read as the stage's number (a note
    each); other columns and cells unchanged."""
    return rewrite_named(df, HOEHN_YAHR_NAME, hoehn_yahr_stage, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} Hoehn and Yahr stage(s) written with the scale's name, "
        f"'stage' or in Roman numerals (e.g. '{_q(example, 30)}' as {new}) read as the "
        "stage's number (1 to 5 with the half stages 1.5 and 2.5; a stage between two as "
        "its middle)."), share=0.05)
