"""An eye's measurement written with the eye it was taken in ("16 R", "15 L", "RE 18",
"14 (OD)"), read as the measurement.

Walk-through 104's medical retina register wrote its intraocular pressures "16 R" and
"20 L" beside plain numbers: the "L" was read as litres, "mixes units", and the "R" as
text, and 33 pressures were set to missing. In a column of an eye's measurement
(:data:`EYE_MEASURE_NAME`: a pressure, a thickness, an axial length) the eye's letter or
word before or after the number is dropped; what is left is read as every cell of the
column is ("16mmHg R" as 16 mmHg). The eye itself is the row's (an "Eye" column says it),
or both eyes' values were written in one cell, which this does not read.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of an eye's measurement, by its name.
EYE_MEASURE_NAME = re.compile(
    r"\b(?:iop|intra[\s-]?ocular pressure|tonometry|cct|central corneal thickness|"
    r"axial length|crt|cst|cmt|cft|central (?:retinal|subfield|macular|foveal) thickness|"
    r"oct thickness|macular thickness)\b", re.IGNORECASE)
_SIDE = r"\(?(?:r|l|re|le|rt|lt|od|os|right|left|right eye|left eye)\)?"
#: A value: a number, with its unit after a space or not ("16mmHg", "298 um").
_VALUE = r"[<>]?\d{1,4}(?:[.,]\d{1,3})?(?:\s?(?:mm\s?hg|um|µm|μm|microns?|mm))?"
#: "16 R", "16R", "16 (R)", "16 - RE", "16mmHg R", "R 16", "RE: 16", "OD 14".
_WITH_SIDE = re.compile(
    rf"\s*(?:{_SIDE}\s*[:=\-]?\s*({_VALUE})|({_VALUE})\s*[\-,]?\s*{_SIDE})\s*",
    re.IGNORECASE)


def _without_side(cell: str) -> str | None:
    m = _WITH_SIDE.fullmatch(cell)
    if m is None:
        return None
    value = (m.group(1) or m.group(2)).strip()
    return value if value and value != cell.strip() else None


def read_eye_sides(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the eye's letter or word dropped from the cells of each column named
    for an eye's measurement ("16 R" is 16), and a note per column in
    ``attrs["sparge_read_notes"]``."""
    return rewrite_named(df, EYE_MEASURE_NAME, _without_side, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} value(s) written with the eye they were measured in "
        f"(e.g. '{_q(example, 20)}' as {_q(new, 20)}) read as the value; the eye is the "
        "row's."), share=0.005)


__all__ = ["EYE_MEASURE_NAME", "read_eye_sides"]
