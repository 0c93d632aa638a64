"""The Data page's "Add an age from a date of birth": which columns hold dates, which is
the date of birth, at which date the age is taken, and the setting it gives the
:class:`~sparge.data.encoder.Encoder` (``ages``)."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
import pandas as pd

from sparge.data.age_dates import (
    AFTER_NAME,
    AGE_NAME,
    BIRTH_NAME,
    EVENT_FILLED,
    EVENT_NAMES,
    LAST_NAME,
    event_date_column,
)
from sparge.data.column_kinds import looks_like_dates
from sparge.data.dates import add_ages, read_dates
from sparge.data.parsing import cell_text
from sparge.errors import DataError


class AgeChoices(NamedTuple):
    """What the Data page offers for an age.

    Attributes
    ----------
    dates : list of str
        The table's columns that hold dates, in the table's order.
    born : str or None
        The date of birth guessed among them (its name says birth, DOB, born).
    at : str or None
        The other date guessed for the age (an admission, a visit, a diagnosis, else the
        one written for the most patients), among those written for at least half of
        them and not named for what comes later (a readmission, a death); ``None``: one
        date for every patient.
    latest : pandas.Timestamp or None
        The latest date of the table's other date columns not named for what comes later
        (the default of "one date for every patient": the export's date is rarely in the
        file); ``None`` without one (walk-through 76's default was the latest readmission).
    """

    dates: list[str]
    born: str | None
    at: str | None
    latest: pd.Timestamp | None


def age_choices(df: pd.DataFrame, roles: dict[str, str]) -> AgeChoices:
    """The date columns of ``df`` left out of the model (``roles``: the encoder's), and
    the guesses for an age (:class:`AgeChoices`)."""
    dates = [str(c) for c in df.columns if roles.get(str(c)) == "ignore"
             and not pd.api.types.is_numeric_dtype(df[c])
             and looks_like_dates(cell_text(df[c]))]
    born = next((c for c in dates if BIRTH_NAME.search(c)), None)
    others = [c for c in dates if c != born]
    # a date written for most patients, not one after the visit: walk-through 64's
    # "Date of admission" (the outcome's, for the 133 admitted) was offered first, and
    # its ages were then left out as giving the outcome away
    filled = {c: float((cell_text(df[c]) != "").mean()) for c in others}
    usable = [c for c in others if filled[c] >= EVENT_FILLED and not AFTER_NAME.search(c)]
    # none usable: no column is guessed (the page offers one date for every patient);
    # walk-through 75's only other date, "Readmission date", was offered, its latest
    # date too
    at = next((c for pattern in EVENT_NAMES for c in usable if pattern.search(c)),
              max(usable, key=lambda c: filled[c]) if usable else None)
    latest = None
    for c in [c for c in others if not AFTER_NAME.search(c)]:
        d = read_dates(df[c]).dates.max()
        if pd.notna(d) and (latest is None or d > latest):
            latest = d
    return AgeChoices(dates, born, at, latest)


def sparse_date_caution(df: pd.DataFrame, at: str) -> str | None:
    """Words for an "Age at" date written for fewer than :data:`EVENT_FILLED` of the
    patients (an outcome's date, written only for those it happened to), or ``None``.
    Walk-through 65 chose "Date of admission" and learned only after adding the age that
    it was written for 133 of 645 patients."""
    if at not in df.columns:
        return None
    filled = int((cell_text(df[at]) != "").sum())
    if filled >= EVENT_FILLED * len(df):
        return None
    return (f"'{at}' is written for {filled:,} of {len(df):,} patients: the others get no "
            "age, and a date written only for the patients an outcome happened to gives "
            "the outcome away. A date every patient has (a visit's, a referral's) is "
            "better.")


def age_left_out_why(encoder, name: str) -> str | None:
    """Why an age the user added is not in the model (it gives the outcome away, it is
    nearly empty, …), or ``None`` when it is in it. Walk-through 64's age at the outcome's
    date was left out as a leak, and the Data page still said it was in the model."""
    why = next((d.reason for d in encoder.report_.dropped_columns if d.column == name),
               None)
    if why is None and encoder.roles_.get(name) == "ignore":
        why = (getattr(encoder, "left_out_why_", {}) or {}).get(name) or \
            "see the report"
    return why


def age_name(at: str, existing: list[str], unit: str = "years") -> str:
    """The new age column's name: "Age at <date column>" or "Age on <date>" (with its
    unit when not years: "(days)"), numbered when the table has the name already."""
    base = f"Age on {at}" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", at) else f"Age at {at}"
    base += "" if unit == "years" else f" ({unit})"
    name, k = base, 2
    while name in existing:
        name, k = f"{base} ({k})", k + 1
    return name


def table_ages(features: list[str], roles: dict[str, str], ages: dict | None = None
               ) -> list[str]:
    """The model's own columns of ages: numeric features named like an age that no date
    of birth gave (``ages``: the encoder's). Walk-through 39 added "Age at Admission
    date" beside the export's "Age", and the form then asked for both."""
    added = set(ages or {})
    return [f for f in features if f not in added and roles.get(f) == "numeric"
            and AGE_NAME.search(f) and not BIRTH_NAME.search(f)]


#: Patients with both ages needed to tell whether they agree.
AGREE_MIN = 5
#: Median difference (years) within which the two ages agree.
AGREE_YEARS = 2.0


def replaces_table_age(df: pd.DataFrame, born: str, X, features: list[str],
                       own: list[str], at: str | None = None,
                       day_first: bool | None = None) -> tuple[bool, int]:
    """Whether an age from the date of birth ``born`` at ``at`` should replace the
    table's own age columns ``own`` (:func:`table_ages`) by default, and how many
    patients have one of those.

    It should when the dates give at least as many ages, and, with ``at`` (a date column
    or a date written YYYY-MM-DD), when the two ages agree: a median difference of at
    most :data:`AGREE_YEARS` over the (at least :data:`AGREE_MIN`) patients with both.
    Walk-through 41's dates of birth were filled for 200 of 626 children, the replaced
    "Age" for 396; walk-through 43's only date column was the delivery date, whose
    "ages" of 0 to 1 year replaced every mother's. ``X``, ``features``: the encoded
    table; ``day_first`` as in :func:`~sparge.data.dates.add_ages`.
    """
    X = np.asarray(X, dtype=float)
    cols = [features.index(c) for c in own if c in features]
    has = int(np.isfinite(X[:, cols]).any(axis=1).sum()) if cols else 0
    if int(read_dates(df[born]).dates.notna().sum()) < has:
        return False, has
    if at is None or not cols:
        return True, has
    try:
        spec = {"born": born, "at": at, "day_first": day_first}
        aged, _, _ = add_ages(df[[c for c in (born, at) if c in df.columns]],
                              {"__age__": spec})
    except DataError:
        return False, has
    new = pd.to_numeric(aged["__age__"], errors="coerce").to_numpy(dtype=float)
    table = X[:, cols[0]]
    both = np.isfinite(new) & np.isfinite(table)
    if both.sum() < AGREE_MIN:
        return False, has
    return bool(np.median(np.abs(new[both] - table[both])) <= AGREE_YEARS), has


#: A date of birth's dates must be readable for at least this share of its written cells
#: for an age to be added by default.
DEFAULT_READ_SHARE = 0.9


def default_ages(df: pd.DataFrame, id_column: str | None = None,
                 label_column: str | None = None) -> dict | None:
    """The age a new table gets by default (the Encoder's ``ages``), or ``None``.

    A table with one column of dates of birth, a date of the patient's event written for
    most of them (an operation, an admission, a visit: :func:`~sparge.data.age_dates.
    event_date_column`) and no column of ages gets the age at that event. Walk-through
    78's joint registry had "DOB" and "Date of operation" and no age: a core predictor
    was one click away on the Data page, and a busy user trained without it. The Data
    page's "Add an age from a date of birth" says it was added and removes it.
    """
    own = {c for c in (id_column, label_column) if c is not None}
    cols = [str(c) for c in df.columns if str(c) not in own]
    if any(AGE_NAME.search(c) and not BIRTH_NAME.search(c) for c in cols):
        return None  # the table's own age: adding one is the user's choice
    born = [c for c in cols if BIRTH_NAME.search(c)
            and not pd.api.types.is_numeric_dtype(df[c])
            and looks_like_dates(text := cell_text(df[c]))
            and read_dates(df[c]).dates.notna().sum()
            >= DEFAULT_READ_SHARE * (text != "").sum() > 0]
    if len(born) != 1:
        return None
    # not a "Last review": the latest of several contacts follows the outcome
    at = event_date_column(df[cols], exclude=[*born, *(c for c in cols if LAST_NAME.search(c))])
    if at is None:
        return None
    spec = {"born": born[0], "at": at, "day_first": None, "unit": "years"}
    try:
        years = pd.to_numeric(add_ages(df[[born[0], at]], {"__age__": spec})[0]["__age__"],
                              errors="coerce")
    except DataError:
        return None
    # a neonatal unit's ages in years are all 0.0 (walk-through 32): in days or months
    median = float(np.nanmedian(years)) if years.notna().any() else np.nan
    if not np.isfinite(median) or median < 0:
        return None
    spec["unit"] = "days" if median < 1 / 12 else "months" if median < 2 else "years"
    return {age_name(at, cols, spec["unit"]): spec}


def with_age(ages: dict | None, name: str, born: str, at: str,
             day_first: bool | None, unit: str = "years") -> dict:
    """The encoder's ``ages`` with one more age (or one replaced)."""
    return {**(ages or {}), name: {"born": born, "at": at, "day_first": day_first,
                                   "unit": unit}}


def without_age(ages: dict | None, name: str) -> dict | None:
    """The encoder's ``ages`` without ``name`` (``None`` when none is left)."""
    rest = {k: v for k, v in (ages or {}).items() if k != name}
    return rest or None
