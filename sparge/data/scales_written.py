"""Joint counts and visual analogue scales written several ways, read as one number.

A rheumatology clinic writes a tender joint count "4", "TJC 4", "4/28" or "4 (28 jt)",
and a patient's global assessment on a 100 mm line "45", "45mm", "4.5/10" or "45/100"
(walk-through 66: the joint count and both analogue scales were left out as more than
30 text answers, and the swollen joint count became 47 unordered answers). A joint count
is the number of joints, whatever the number examined written after it; a scale's mark
is read on the column's own scale: 0-100 when its name says mm or 0-100 (or its numbers
go above 10), else 0-10, so "4.5/10" is 45 on a 100 mm line and "60mm" is 6 on a 0-10
scale.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import named_columns, own_copy, rewrite_named
from sparge.data.safe_text import quote as _q

#: A joint count's column: "TJC28", "SJC", "Tender joint count", "Swollen joints (28)".
_JOINT_NAME = re.compile(r"\b[ts]jc|\b(?:tender|swollen)\s+joints?\b|joint\s+count",
                         re.IGNORECASE)
#: "4", "TJC 4", "SJC: 4", "4/28", "4 (28 jt)", "4 of 28", "4 joints".
_JOINTS = re.compile(r"\s{0,3}(?:[ts]jc\s?(?:28|44|66|68)?\s{0,2}[:=]?\s{0,2})?(\d{1,2})"
                     r"\s{0,2}(?:/\s{0,2}(?:28|44|66|68)|\(\s{0,2}(?:28|44|66|68)\s{0,2}"
                     r"(?:jt|jts|joints?|jc)?\s{0,2}\)|of\s(?:28|44|66|68)|joints?)?\s{0,3}",
                     re.IGNORECASE)
#: A visual analogue or numeric rating scale's column.
_SCALE_NAME = re.compile(r"\bvas\b|visual\s+analog|\bnrs\b|global\s+(?:assessment|health|"
                         r"score|vas)|\bp[gh]a\b|\bpgh\b|pain\s+(?:score|scale)|fatigue|"
                         r"\bpain\b", re.IGNORECASE)
_HUNDRED_NAME = re.compile(r"\(\s*mm\s*\)|0\s?[-–]\s?100|/\s?100|\bmm\b", re.IGNORECASE)
_TEN_NAME = re.compile(r"0\s?[-–]\s?10\b|/\s?10\b|\(\s*cm\s*\)|\bnrs\b", re.IGNORECASE)
#: "4.5/10", "45/100", "45mm", "4.5 cm", "45 mm".
_MARK = re.compile(r"\s{0,3}(\d{1,3}(?:\.\d{1,2})?)\s{0,2}(?:/\s{0,2}(10|100)|(mm|cm))\s{0,3}",
                   re.IGNORECASE)


def joint_count(cell: object) -> str | None:
    """A joint count written with its name or the joints examined ("TJC 4", "4/28",
    "4 (28 jt)": "4"), or ``None``; a plain number is none (it reads as it is)."""
    text = str(cell)
    if len(text) > 24 or re.fullmatch(r"\s*\d+\s*", text):
        return None
    m = _JOINTS.fullmatch(text)
    return None if m is None or int(m.group(1)) > 68 else m.group(1)


def _scale_of(name: str, values: pd.Series) -> float:
    """The top of a scale column: 100 (a 100 mm line) or 10."""
    if _HUNDRED_NAME.search(name):
        return 100.0
    if _TEN_NAME.search(name):
        return 10.0
    plain = pd.to_numeric(values, errors="coerce")
    return 100.0 if plain.max() > 10 else 10.0


def scale_mark(cell: object, top: float) -> str | None:
    """A mark on a scale written out of 10 or 100 or in mm or cm of a 100 mm line
    ("4.5/10", "45mm"), on a scale of ``top`` (10 or 100), or ``None``."""
    text = str(cell)
    if len(text) > 20:
        return None
    m = _MARK.fullmatch(text)
    if m is None:
        return None
    value = float(m.group(1))
    of = float(m.group(2)) if m.group(2) else (100.0 if m.group(3).lower() == "mm" else 10.0)
    if value > of:
        return None
    return repr(round(value / of * top, 2))


#: A DAS28 column, and its EULAR activity bands in words: remission below 2.6, low
#: activity 2.6-3.2, moderate 3.2-5.1, high above 5.1 (a band read as its middle, a
#: limit as a limit, as written numbers are).
_DAS_NAME = re.compile(r"\bdas\s?-?28", re.IGNORECASE)
_DAS_WORDS = {"remission": "<2.6", "in remission": "<2.6", "clinical remission": "<2.6",
              "low": "2.9", "low disease activity": "2.9", "lda": "2.9",
              "moderate": "4.15", "mod": "4.15", "moderate disease activity": "4.15",
              "mda": "4.15", "high": ">5.1", "high disease activity": ">5.1",
              "hda": ">5.1"}


def das28_band(cell: object) -> str | None:
    """A DAS28 written as its activity band ("remission": "<2.6"), or ``None``."""
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    return _DAS_WORDS.get(text) if len(text) <= 30 else None


#: Where :func:`read_written_scales` records each scale column's top (10 or 100) in a
#: table's ``attrs``: a fitted encoder keeps them, and reads a new patient's "45mm" on
#: the training patients' scale (walk-through 67's new patient's Pain VAS "45mm" was read
#: on a 0-10 scale from its one cell, as 4.5, beside training values of 0-100).
SCALES_ATTR = "sparge_scales"


def read_written_scales(df: pd.DataFrame, scales: dict[str, float] | None = None
                        ) -> pd.DataFrame:
    """The table with its joint counts (:func:`joint_count`) and its scale marks
    (:func:`scale_mark`) written as numbers, and a note per column. ``scales``: a fitted
    encoder's ``{column: top}`` (a new patient's table is read on them); each scale
    column's top is recorded in ``attrs[SCALES_ATTR]``."""
    df = rewrite_named(df, _JOINT_NAME, joint_count, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} joint count(s) written with the count's name or the "
        f"joints examined (e.g. '{_q(example, 20)}') read as the number of joints "
        f"({new})."), share=0.02)
    df = rewrite_named(df, _DAS_NAME, das28_band, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} DAS28 written as its activity band (e.g. "
        f"'{_q(example, 20)}') read by EULAR's bands ({new}: remission below 2.6, low "
        "2.6-3.2, moderate 3.2-5.1, high above 5.1; a band as its middle)."), share=0.005)
    out = df
    tops: dict[str, float] = {}
    for col in named_columns(df, _SCALE_NAME):
        name = str(col)[:80]
        if _JOINT_NAME.search(name):
            continue
        values = df[col]
        top = (scales or {}).get(str(col)) or _scale_of(name, values)
        tops[str(col)] = float(top)
        if pd.api.types.is_numeric_dtype(values):
            continue
        out = rewrite_named(out, [col],
                            lambda c, t=top: scale_mark(c, t),
                            lambda c, n, example, new, t=top: (
                                f"Column '{_q(c)}': {n:,} mark(s) written out of 10 or 100 "
                                f"or in mm or cm of a 100 mm line (e.g. '{_q(example, 20)}')"
                                f" read on the column's 0-{t:g} scale ({new})."), share=0.02)
    if tops:
        out = own_copy(out, df)
        out.attrs[SCALES_ATTR] = tops
    return out


__all__ = ["SCALES_ATTR", "das28_band", "joint_count", "read_written_scales", "scale_mark"]
