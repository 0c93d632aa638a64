"""A weight gain written as a share of the patient's weight: "3.2%" in kilograms.

Walk-through 106's dialysis unit wrote the interdialytic weight gain of 52 patients as a
percentage of their dry weight ("3.2%") beside kilograms ("2.4 kg", "1.9"): no exact
conversion from a percentage to kilograms is known, so the cells were set to missing,
though the same row's dry weight gives it (3.2 % of 47 kg is 1.5 kg). A weight gain
column (:data:`GAIN_NAME`) beside a weight column (:data:`WEIGHT_NAME`, the dry weight
first) reads such a cell as the share of that row's weight, in kilograms; a row without
its weight keeps the cell as written (a gap, as before), and the note says how many.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import named_columns
from sparge.data.number_format import format_number
from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q

#: A weight gain by its name: "IDWG", "Interdialytic weight gain", "Weight gain (kg)".
GAIN_NAME = re.compile(r"\bidwg\b|inter-?dialytic (?:weight )?gain|weight gain|fluid gain",
                       re.IGNORECASE)
#: The weights a share is of, best first: a dry (target) weight, then any weight.
WEIGHT_NAME = (re.compile(r"\bdry (?:body )?weight\b|\btarget weight\b|\bedw\b",
                          re.IGNORECASE),
               re.compile(r"\bweight\b|\bwt\b", re.IGNORECASE))
#: A share: "3.2%", "3.2 %", "3.2% of DW".
_SHARE = re.compile(r"\s{0,3}(\d{1,2}(?:\.\d{1,2})?)\s{0,2}%(?:\s{0,2}(?:of\s{1,2})?"
                    r"(?:dw|edw|dry weight|body weight|bw))?\s{0,3}", re.IGNORECASE)
#: A weight as a cell writes it: "72.4", "72 kg", "158 lb", "11st 4lb".
_KG = re.compile(r"\s{0,3}(\d{1,3}(?:\.\d{1,2})?)\s{0,2}(kg|kgs|lb|lbs)?\s{0,3}", re.IGNORECASE)
_STONES = re.compile(r"\s{0,3}(\d{1,2})\s{0,2}st(?:one)?s?\s{0,2}(?:(\d{1,2})\s{0,2}(?:lb|lbs)?)?"
                     r"\s{0,3}", re.IGNORECASE)
_LB = 0.45359237


def weight_kg(cell: str) -> float | None:
    """A weight cell in kilograms ("158 lb": 71.7; "11st 4lb": 71.7), or ``None``.

    >>> weight_kg("72.4"), round(weight_kg("158 lb"), 1), round(weight_kg("11st 4lb"), 1)
    (72.4, 71.7, 71.7)
    """
    if len(cell) > 20:
        return None
    if m := _KG.fullmatch(cell):
        v = float(m.group(1))
        return v * _LB if (m.group(2) or "").lower().startswith("lb") else v
    if m := _STONES.fullmatch(cell):
        return (int(m.group(1)) * 14 + int(m.group(2) or 0)) * _LB
    return None


def read_weight_shares(df: pd.DataFrame) -> pd.DataFrame:
    """The table with each weight gain written as a share of the weight ("3.2%") read in
    kilograms from the row's weight, and a note per column (see the module)."""
    out = df
    for col in named_columns(df, GAIN_NAME):
        if pd.api.types.is_numeric_dtype(df[col]):
            continue
        text = cell_text(df[col])
        share = text.str.extract(f"^(?:{_SHARE.pattern})$", flags=re.IGNORECASE)[0]
        rows = np.flatnonzero(share.notna().to_numpy())
        if not len(rows):
            continue
        weight = next((c for pattern in WEIGHT_NAME for c in named_columns(df, pattern)
                       if c != col and not GAIN_NAME.search(str(c))), None)
        if weight is None:
            continue
        kg = cell_text(df[weight]).iloc[rows].map(weight_kg).to_numpy(dtype=float)
        read = np.isfinite(kg) & (kg > 0)
        if not read.any():
            continue
        values = share.iloc[rows].astype(float).to_numpy() / 100.0 * kg
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        cells = df[col].to_numpy(dtype=object).copy()
        at = rows[read]
        cells[at] = [f"{v:.2f} kg" for v in values[read]]
        # ... a share without a weight is a gap, said here (re-check 106b read a second,
        # contradictory warning: "no exact conversion to 'kg' is known")
        cells[rows[~read]] = ""
        out[col] = cells
        first = int(at[0])
        unread = int((~read).sum())
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            f"Column '{_q(col)}': {len(at):,} cell(s) written as a share of the weight "
            f"(e.g. '{_q(text.iat[first], 20)}', CSV line {first + 2}) read in kg from the "
            f"row's '{_q(weight)}' ({format_number(round(float(values[read][0]), 2))} kg)"
            + (f"; {unread:,} without a weight there are gaps" if unread else "") + "."]
    return out
