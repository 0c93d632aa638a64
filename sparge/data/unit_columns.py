"""A column that gives another column's unit, patient by patient: "Free T4" beside "FT4
units" (pmol/L for most patients, ng/dL for those of another laboratory).

Walk-through 89's thyroid clinic exported its free T4s so: a value column and a column of
units. Read apart, the value column mixed two units a factor 13 apart as if they were one,
and the unit column became a feature (patients of one laboratory alike for it). Here each
plain number of the value column is read in its own row's unit (the cell "8.8" with the
unit "pmol/L" reads as "8.8 pmol/L"), so that the column's units are converted as when a
cell writes its unit (:mod:`sparge.data.unit_conversion`, where a unit that cannot be
converted leaves its cells out), and the unit column is left out of the model with its
reason.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.compound_units import pack_rows
from sparge.data.parsing import cell_keys, cell_text, unit_key
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS
from sparge.data.unit_conversion import analyte, known_unit

#: A column named as a unit: "FT4 units", "Units", "Free T4 unit", "UOM", "T4 (units)".
UNIT_NAME = re.compile(r"(?:^|[\s_(\-/.:])(?:units?|uom|unit of measure(?:ment)?)"
                       r"(?:$|[\s_)\-/.:])", re.IGNORECASE)
#: A unit column writes at most this many different units.
MAX_UNITS = 8
#: A plain number, maybe after a limit sign: the cells a row's unit is added to.
_PLAIN = re.compile(r"\s*[<>≤≥]?\s*[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)\s*")
#: At least this share of a value column's filled cells must be numbers.
NUMERIC_SHARE = 0.5


def _filled(values: pd.Series) -> pd.Series:
    """A column's filled cells as stripped text (gap words left out)."""
    text = cell_text(values)
    return text[(text != "") & ~cell_keys(text).isin(DEFAULT_MISSING_TOKENS)]


def _units_only(values: pd.Series) -> bool:
    """Whether a column's filled cells are all units, one of them at least known."""
    if pd.api.types.is_numeric_dtype(values.dtype):
        return False
    answers = pd.unique(_filled(values))
    if not 0 < len(answers) <= MAX_UNITS:
        return False
    keys = [unit_key(a) for a in answers]
    return all(re.fullmatch(r"[a-z%°/µ][a-z0-9/^%°.·*µ ]{0,19}", k) for k in keys) and any(
        known_unit(k) for k in keys)


def _numeric_share(values: pd.Series) -> float:
    filled = _filled(values)
    if not len(filled):
        return 0.0
    return float(filled.str.match(r"\s*[<>≤≥]?\s*[+-]?\.?\d").mean())


def _stem(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", UNIT_NAME.sub(" ", str(name)).lower()).strip()


def unit_column_pairs(df: pd.DataFrame) -> dict[str, str]:
    """``{unit column: value column}``: the columns that give another column's unit row
    by row. A unit column is named as one (:data:`UNIT_NAME`) and writes units only; its
    value column is the one its name names ("FT4 units": "FT4", or a column naming the
    same analyte, "Free T4"), else the column just before it. The value column is mostly
    numbers.

    Examples
    --------
    >>> df = pd.DataFrame({"Free T4": ["8.8", "2.56"], "FT4 units": ["pmol/L", "ng/dL"]})
    >>> unit_column_pairs(df)
    {'FT4 units': 'Free T4'}
    """
    cols = [str(c) for c in df.columns]
    out: dict[str, str] = {}
    for j, col in enumerate(cols):
        if not UNIT_NAME.search(col) or not _units_only(df.iloc[:, j]):
            continue
        stem = _stem(col)
        named = analyte(stem) if stem else None
        others = [c for c in cols if c != col and c not in out and not UNIT_NAME.search(c)]
        found = [c for c in others if stem and _stem(c) == stem] or \
            [c for c in others if named is not None and analyte(c) == named]
        if not found and not stem and j > 0 and cols[j - 1] in others:
            found = [cols[j - 1]]
        if len(found) == 1 and _numeric_share(df[found[0]]) >= NUMERIC_SHARE:
            out[col] = found[0]
    return out


def read_unit_columns(df: pd.DataFrame) -> pd.DataFrame:
    """The table with each plain number of a value column written with its row's unit
    from the column that gives it (:func:`unit_column_pairs`), and a note in
    ``df.attrs["sparge_read_notes"]``. A table without such a column is returned as it is.
    """
    pairs = unit_column_pairs(df) if len(df.columns) > 1 else {}
    if not pairs:
        return df
    out = df.copy()
    out.attrs = dict(df.attrs)
    said = []
    for unit_col, value_col in pairs.items():
        values = df[value_col]
        cells = cell_text(values)
        units = cell_text(df[unit_col])
        plain = cells.str.fullmatch(_PLAIN.pattern).to_numpy(bool)
        has_unit = np.array([bool(u) and known_unit(unit_key(u)) for u in units])
        rows = plain & has_unit
        if not rows.any():
            continue
        new = values.to_numpy(dtype=object).copy()
        new[rows] = [f"{c} {u}" for c, u in zip(cells[rows], units[rows])]
        out[value_col] = pd.Series(new, index=values.index, dtype=object)
        # their unit is the unit column's, not one the user wrote in the cell
        out.attrs["sparge_rewritten"] = {**out.attrs.get("sparge_rewritten", {}),
                                         value_col: pack_rows(rows)}
        counts = units[rows].value_counts()
        said.append(f"'{_q(value_col, 40)}' by '{_q(unit_col, 40)}' ("
                    + ", ".join(f"{_q(u, 12)} {n:,}" for u, n in counts.items()) + ")")
    if said:
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            "A column gives another column's unit patient by patient: each number is read "
            "in its own patient's unit (converted into one unit where the units differ), "
            "and the unit column is left out of the model: " + "; ".join(said) + "."]
    return out


__all__ = ["UNIT_NAME", "read_unit_columns", "unit_column_pairs"]
