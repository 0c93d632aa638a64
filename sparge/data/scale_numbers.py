"""A clinical class or stage written in words, Roman numerals or after its scale's name,
read as its number: the Hoehn and Yahr stage of Parkinson's disease and the Canadian
Cardiovascular Society (CCS) angina class.

Walk-through 97's movement-disorders clinic wrote its H&Y stage as numbers with the half
stages of the modified scale (1, 1.5, 2, 2.5, 3, 4, 5), after the scale's initials or
"stage", and in Roman numerals: 32 unordered answers, "H&Y 3" coded 16 and "5" coded 7.
Walk-through 98's cardiac surgery unit wrote its CCS angina class as numbers, "CCS 2",
"II" and "no angina": 22 unordered answers, "none" read as a gap. Each is a number on its
scale, so in a column named for one (:data:`HOEHN_YAHR_NAME`, :data:`CCS_NAME`) a cell is
read as that number: the scale's name, "stage" or "class" before it are dropped, a Roman
numeral is its number, a stage between two ("1.5-2") stays a range (read as its middle, as
any range is), and no angina is class 0. Numbers beyond the scale and cells of any other
form are left as written. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of the Hoehn and Yahr stage, by its name ("H&Y stage", "Hoehn & Yahr", "HY").
HOEHN_YAHR_NAME = re.compile(r"hoehn|\bh\s*(?:&|and|\+)\s*y\b|^\s*(?:m?hy|h-y)\b",
                             re.IGNORECASE)
#: A column of the CCS angina class, by its name ("CCS angina", "CCS class", "Angina
#: (CCS)", "Canadian Cardiovascular Society class").
CCS_NAME = re.compile(r"\bccs\b|canadian\s+cardiovascular", re.IGNORECASE)
_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5"}
_HY_PREFIX = (r"(?:(?:modified\s+)?(?:hoehn\s*(?:&|and)\s*yahr|h\s*(?:&|and|\+)\s*y|m?hy|h-y)"
              r"\s*(?:stage)?|stage)")
_HY_STAGE = r"(?:[0-5](?:\.5)?|i{1,3}|iv|v)"
_HY_CELL = re.compile(rf"\s*(?:{_HY_PREFIX}\s*[:=-]?\s*)?({_HY_STAGE})(?:\s*(?:-|to|–)\s*"
                      rf"({_HY_STAGE}))?\s*", re.IGNORECASE)
_CCS_CELL = re.compile(r"\s*(?:ccs|class|angina)?\s*(?:class)?\s*[:=-]?\s*([0-4]|i{1,3}|iv)\s*",
                       re.IGNORECASE)
_NO_ANGINA = re.compile(r"\s*(?:nil|none|no|no angina|angina free|asymptomatic|"
                        r"no chest pain)\s*", re.IGNORECASE)


def _number(written: str) -> str:
    return _ROMAN.get(written.lower(), written)


def _text(cell: object) -> str | None:
    """A cell's text with single spaces, ``None`` when empty or too long to be a class."""
    text = re.sub(r"\s+", " ", str(cell).strip())
    return text if text and len(text) <= 30 else None


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
    text = _text(cell)
    m = _HY_CELL.fullmatch(text) if text else None
    if m is None:
        return None
    low = _number(m.group(1))
    if m.group(2) is not None and float(_number(m.group(2))) <= float(low):
        return None
    read = low if m.group(2) is None else f"{low}-{_number(m.group(2))}"
    return None if read == text else read


def ccs_class(cell: object) -> str | None:
    """A CCS angina cell as the class's number ("CCS 2": "2", "III": "3", "no angina":
    "0"); ``None`` for a plain number (read as it is) and any other cell.

    Examples
    --------
    >>> [ccs_class(c) for c in ["CCS 2", "CCS4", "III", "class II", "no angina", "nil",
    ...                         "2", "5", "unstable"]]
    ['2', '4', '3', '2', '0', '0', None, None, None]
    """
    text = _text(cell)
    if text is None:
        return None
    if _NO_ANGINA.fullmatch(text):
        return "0"
    m = _CCS_CELL.fullmatch(text)
    read = _number(m.group(1)) if m is not None else None
    return None if read == text else read


#: The scales read: the column's name, the reader, what a cell is and the scale's range.
_SCALES = ((HOEHN_YAHR_NAME, hoehn_yahr_stage, "Hoehn and Yahr stage(s)", "'stage'",
            "the stage's number (1 to 5 with the half stages 1.5 and 2.5; a stage between "
            "two as its middle)"),
           (CCS_NAME, ccs_class, "CCS angina class(es)", "'class'",
            "the class's number (0, no angina, to 4, angina at rest)"))


def read_scale_numbers(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its Hoehn and Yahr and CCS angina columns' cells read as the scale's
    number (a note each); other columns and cells unchanged."""
    for name, read, what, word, scale in _SCALES:
        df = rewrite_named(df, name, read, lambda col, n, example, new, w=what, o=word,
                           s=scale: (
            f"Column '{_q(col)}': {n:,} {w} written with the scale's name, {o}, in Roman "
            f"numerals or in words (e.g. '{_q(example, 30)}' as {new}) read as {s}."),
            share=0.05)
    return df


__all__ = ["CCS_NAME", "HOEHN_YAHR_NAME", "ccs_class", "hoehn_yahr_stage",
           "read_scale_numbers"]
