"""Dates of birth written in a column of ages, read as the age at the patient's event.

Walk-through 43's maternity export wrote 104 of its 700 mothers' ages as a date of birth
("02/02/1989") in "Maternal age": read as stray text, they were set to missing, and the
page offered to add an age from a date of birth, whose only date column was the delivery
date. A date in a column named like an age is a date of birth; the age is taken at the
table's date of the patient's event (an admission, a delivery, a visit: the first column
of dates named so, :data:`EVENT_NAMES` in order) and written in the column's unit, the
way :func:`~sparge.data.dates.add_ages` computes it. Without such a date column, the cells
stay as written and a note says why they are not read.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.column_kinds import DATE_CELL, looks_like_dates
from sparge.data.dates import AGE_UNITS, add_ages, read_dates
from sparge.data.number_format import format_number
from sparge.data.parsing import cell_text, header_unit, unit_key
from sparge.data.safe_text import quote as _q

#: A column of ages ("Age", "Maternal age", "Age (years)", "age_yrs"), not a date of birth.
AGE_NAME = re.compile(r"(?:^|[\s_])age(?:$|[\s_(])", re.IGNORECASE)
#: A date of birth's column name.
BIRTH_NAME = re.compile(r"birth|\bdob\b|\bd\.o\.b\b|\bborn\b|geburt|naissance|nacimiento",
                        re.IGNORECASE)
#: Names of the date a patient's age is taken at, the likeliest first: the admission, the
#: delivery, the diagnosis, the operation, the visit, the study's start, the referral, a
#: review.
EVENT_NAMES = [re.compile(p, re.IGNORECASE) for p in (
    r"admi", r"deliver|birth of (?:the )?baby|date of (?:the )?birth of", r"diagnos",
    r"surg|operat|procedure", r"visit|encounter|consult|appoint|attend|arrival|"
    r"presentation|episode|booking", r"enrol|baseline|recruit|randomi|consent|"
    r"registration|index", r"referr", r"treatment|start", r"exam|review")]
#: A date column named as the latest of several ("Date of last review"): no event.
LAST_NAME = re.compile(r"\b(?:last|latest|most recent|previous)\b", re.IGNORECASE)
#: Fewest dates in an age column to read them, in a table of more than
#: :data:`SMALL_TABLE` rows (a new patients' file reads any: walk-through 44's one date of
#: birth in a three-patient file was set to missing).
MIN_DATES = 5
SMALL_TABLE = 64


def event_date_column(df: pd.DataFrame, exclude=()) -> str | None:
    """The table's column of the date a patient's age is taken at (:data:`EVENT_NAMES`),
    or ``None``: a column of dates, not named as a date of birth."""
    skip = {str(c) for c in exclude}
    candidates = [str(c) for c in df.columns if str(c) not in skip
                  and not BIRTH_NAME.search(str(c).split(" of ", 1)[0])
                  and not pd.api.types.is_numeric_dtype(df[c])]
    for pattern in EVENT_NAMES:
        for c in candidates:
            if pattern.search(c) and looks_like_dates(cell_text(df[c])):
                return c
    return None


def read_dates_in_age_columns(df: pd.DataFrame) -> pd.DataFrame:
    """The table with the dates written in a column of ages rewritten as the age at the
    event's date (:func:`event_date_column`), in the column's unit (years unless its name
    says months or days), and a note per column in ``df.attrs["sparge_read_notes"]``."""
    out = df
    for col in list(df.columns):
        if not AGE_NAME.search(str(col)) or BIRTH_NAME.search(str(col)) or \
                pd.api.types.is_numeric_dtype(df[col]):
            continue
        text = cell_text(df[col])
        dated = text.str.strip().str.match(DATE_CELL).to_numpy()
        if not dated.any() or (dated.sum() < MIN_DATES and len(df) > SMALL_TABLE):
            continue
        at = event_date_column(df, exclude=[col])
        notes = list(out.attrs.get("sparge_read_notes", []))
        if at is None:
            if out is df:
                out = df.copy()
                out.attrs = dict(df.attrs)
            out.attrs["sparge_read_notes"] = [*notes, (
                f"Column '{_q(col)}': {int(dated.sum()):,} cell(s) hold a date (of birth?), "
                f"e.g. '{_q(text[dated].iloc[0], 20)}': no date of the patient's event "
                "(an admission, a delivery) to take the age at, so they are not read.")]
            continue
        unit = unit_key(header_unit(str(col)) or "")
        unit = unit if unit in AGE_UNITS else "years"
        born = text.where(dated, "")
        pair = pd.DataFrame({"__born__": born.to_numpy(), "__at__": df[at].to_numpy()})
        # a "last review" is no event the ages were taken at: the table's latest date of
        # it (its export, or near it) is, for every patient (walk-through 48's GP register
        # read ages up to two years young at old reviews, and none without a review)
        when = "__at__"
        if LAST_NAME.search(at):
            latest = read_dates(df[at]).dates.max()
            if pd.notna(latest):
                when = latest.strftime("%Y-%m-%d")
        aged, _, _ = add_ages(pair, {"__age__": {"born": "__born__", "at": when,
                                                 "day_first": None, "unit": unit}})
        ages = pd.to_numeric(aged["__age__"], errors="coerce").to_numpy(dtype=float)
        read = dated & np.isfinite(ages)
        if not read.any():
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        column = out[col].astype(object).copy()
        column[read] = [repr(float(a)) for a in ages[read]]
        out[col] = column
        first = int(np.flatnonzero(read)[0])
        at_said = (f"'{_q(at)}'" if when == "__at__" else
                   f"{when}, the latest date of '{_q(at)}' (the export's, or near it)")
        out.attrs["sparge_read_notes"] = [*notes, (
            f"Column '{_q(col)}': {int(read.sum()):,} date(s) of birth (e.g. "
            f"'{_q(text.iloc[first], 20)}') read as the age in {unit} at {at_said} "
            f"({format_number(ages[first])})"
            + (f"; {int((dated & ~read).sum()):,} other date(s) gave no possible age"
               if (dated & ~read).any() else "") + ".")]
    return out
