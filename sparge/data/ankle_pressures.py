"""Ankle-brachial pressure indices written for both legs in one cell.

A vascular clinic writes a patient's ABPI as one number, or both legs' in one cell: "R
0.65 L 0.49", "R0.8/L0.7", "Rt 0.55, Lt 0.9", and "incompressible" where the ankle's
arteries are too calcified to be compressed by the cuff (no index can be measured).
Walk-through 94's "ABPI" column set every two-leg cell to missing, the patients with
disease in both legs among them. In a column named for the index (:data:`ABPI_NAME`):

- a cell for both legs reads, in a column named for one side ("ABPI left"), that side's
  index; in a column named for neither, the lower of the two, the worse leg, which is the
  index a severity of peripheral arterial disease is graded on;
- an incompressible leg gives no index: the other leg's is read, and a cell with none
  measurable is a gap, said as such (not an unreadable cell).

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q

#: A column of ankle-(or toe-)brachial pressure indices, by its name.
ABPI_NAME = re.compile(r"\ba?bpi\b|\babi\b|\btbpi\b|\btbi\b|(?:ankle|toe)[\s_-]*brachial",
                       re.IGNORECASE)
#: A side in a column's name ("ABPI right", "R ABPI", "ABPI_L", "Lt ABPI").
_SIDE_NAME = {
    "right": re.compile(r"(?:^|[\s_(-])(?:r|rt|right|rle)(?:$|[\s_)-])", re.IGNORECASE),
    "left": re.compile(r"(?:^|[\s_(-])(?:l|lt|left|lle)(?:$|[\s_)-])", re.IGNORECASE)}
#: A leg that cannot be measured.
_INCOMPRESSIBLE = (r"(?:in|non[\s-]?)compress(?:i|a)ble|nc|calcified|"
                   r"not\s+compressible|uncompressible")
_VALUE = rf"(\d(?:\.\d{{1,3}})?|\.\d{{1,3}}|{_INCOMPRESSIBLE})"
_SIDE = r"(r|rt|right|l|lt|left)\.?"
#: Both legs in one cell: a side and its index, twice ("R 0.65 L 0.49", "R0.8/L0.7").
_BOTH = re.compile(rf"\s*{_SIDE}\s*[:=]?\s*{_VALUE}\s*[,;/&+]?\s*(?:and\s+)?{_SIDE}\s*[:=]?\s*"
                   rf"{_VALUE}\s*", re.IGNORECASE)
_ONE_INCOMPRESSIBLE = re.compile(rf"\s*(?:{_INCOMPRESSIBLE})(?:\s+vessels?|\s+arter(?:y|ies))?"
                                 r"\s*(?:\(?\s*bilateral(?:ly)?\s*\)?|\s+both)?\s*",
                                 re.IGNORECASE)


def column_side(column: str) -> str | None:
    """``"right"`` or ``"left"`` for a column named for one leg, else ``None``.

    Examples
    --------
    >>> column_side("ABPI left"), column_side("R ABPI"), column_side("ABPI")
    ('left', 'right', None)
    """
    found = [side for side, pattern in _SIDE_NAME.items() if pattern.search(str(column))]
    return found[0] if len(found) == 1 else None


def _index(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None  # incompressible


def read_abpi(cell: str, side: str | None = None) -> str | None:
    """The index a cell gives the column: one leg's, or the lower of both legs' when the
    column is named for neither; ``""`` (a gap) for a leg or cell that cannot be
    measured; ``None`` for a cell of any other form (a plain number is read as it is).

    Examples
    --------
    >>> read_abpi("R 0.65 L 0.49"), read_abpi("R0.8/L0.7", "right")
    ('0.49', '0.8')
    >>> read_abpi("Rt incompressible, Lt 0.9"), read_abpi("incompressible")
    ('0.9', '')
    """
    text = str(cell)
    if len(text) > 60:
        return None
    if _ONE_INCOMPRESSIBLE.fullmatch(text):
        return ""
    m = _BOTH.fullmatch(text)
    if m is None:
        return None
    sides = {m.group(1)[0].lower(): _index(m.group(2)), m.group(3)[0].lower(): _index(m.group(4))}
    if len(sides) != 2:  # "R 0.6 R 0.7": no leg told apart
        return None
    if side is not None:
        value = sides[side[0]]
    else:
        measured = [v for v in sides.values() if v is not None]
        value = min(measured) if measured else None
    return "" if value is None else format_number(value)


def read_ankle_pressures(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the cells of its ABPI columns that give both legs read as the column's
    index (:func:`read_abpi`) and an incompressible leg as not measurable; other columns
    and cells unchanged."""
    out = df
    for col in (c for c in df.columns if ABPI_NAME.search(str(c))):
        side = column_side(str(col))
        out = rewrite_named(out, [col], lambda cell, side=side: read_abpi(cell, side),
                            lambda col, n, example, new, side=side: (
            f"Column '{_q(col)}': {n:,} cell(s) giving both legs' index or an "
            f"incompressible artery (e.g. '{_q(example, 30)}' as "
            f"{repr(new) if new else 'not measurable'}): "
            + (f"the {side} leg's index is read" if side else
               "the lower index, the worse leg's, is read")
            + "; an incompressible (calcified) artery gives no index, and is a gap."),
            share=0.004)  # one such cell among the first 200
    return out
