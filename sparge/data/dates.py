"""Dates written as exports write them, and an age from a date of birth.

An export often gives a date of birth and no age (walk-through 29's practice export:
"Date of birth" was left out as a date, and the model never saw the patients' ages). The
:class:`~sparge.data.encoder.Encoder`'s ``ages`` adds an age column computed from a date
of birth and a second date: a column (the admission, the visit, the diagnosis) or one
date for every patient (the export's).

Dates are read by pattern, not guessed cell by cell: ``2019-03-12`` (ISO), ``12/03/2019``
or ``03/12/2019`` (numbers, ``/``, ``-`` or ``.``), ``12 Mar 2019``, ``12-Mar-19`` and
``March 12, 2019``, a month ``Mar 2019`` (its 15th) and a quarter ``Q1 2019`` (its last
day), with an optional time. Whether ``03/04/2019`` is the 3rd of April or
the 4th of March is decided for the whole column: by a cell whose first number is above
12 (day first) or whose second is (month first); when no cell tells, the caller's
``day_first`` decides, and the reading says it was a choice. Two-digit years are in the
past hundred years of the reference year (``60``: 1960, ``05``: 2005).
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

import numpy as np
import pandas as pd

from sparge.data.combined_cells import ADDED
from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q
from sparge.errors import DataError

#: Days per year (the Gregorian calendar's mean year) for ages in years.
DAYS_PER_YEAR = 365.2425
#: The oldest age read as possible; older (and negative) ages are set to missing.
MAX_AGE = 120.0
#: The years read as dates; others (a typo's 2901, a 0001) are not dates.
MIN_YEAR, MAX_YEAR = 1800, 2200

_TIME = r"(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[AaPp][Mm])?)?\s*$"
_ISO = re.compile(r"^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})" + _TIME)
_NUMERIC = re.compile(r"^\s*(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})" + _TIME)
_DAY_MONTH = re.compile(r"^\s*(\d{1,2})[\s\-]([A-Za-z]{3,9})\.?[\s\-,]+(\d{4}|\d{2})" + _TIME)
_MONTH_DAY = re.compile(r"^\s*([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4}|\d{2})" + _TIME)
#: A month and a year, "Jan 2018", "September 2023": read as the month's 15th, its middle.
_MONTH_YEAR = re.compile(r"^\s*([A-Za-z]{3,9})\.?[\s\-,]+(\d{4})\s*$")
#: A quarter of a year, "Q1 2023", "Q3-2022", "2023 Q2": its last day, as a quarterly
#: snapshot is taken (walk-through 106's dialysis register wrote 71 of its snapshot dates
#: so beside "31/03/2023", unread).
_QUARTER = re.compile(r"^\s*(?:[Qq]([1-4])[\s\-/]{0,3}(\d{4})|(\d{4})[\s\-/]{0,3}[Qq]([1-4]))\s*$")
_QUARTER_END = {1: (3, 31), 2: (6, 30), 3: (9, 30), 4: (12, 31)}
_MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}


class DateReading(NamedTuple):
    """A column read as dates.

    Attributes
    ----------
    dates : pandas.Series
        ``datetime64`` values, ``NaT`` where a cell is empty or not a date.
    day_first : bool or None
        How cells of three numbers were read (``None``: the column has none).
    decided : bool
        Whether the cells themselves decided ``day_first`` (a number above 12); when not,
        it was the caller's choice, and a note should say so.
    unread : int
        Filled cells that are not a date in any of the forms read.
    """

    dates: pd.Series
    day_first: bool | None
    decided: bool
    unread: int


def _month(name: pd.Series) -> pd.Series:
    """Month numbers from English month names or their first three letters."""
    low = name.str.lower()
    month = low.str[:3].map(_MONTHS)
    # "Mar" and "March" read; "Marchx" does not
    full = {"january", "february", "march", "april", "may", "june", "july", "august",
            "september", "october", "november", "december", "sept"}
    return month.where((low.str.len() == 3) | low.isin(full))


def _full_year(year: pd.Series, two_digit: pd.Series, today: date) -> pd.Series:
    """Four-digit years; a two-digit year is the latest year ending so, up to ``today``'s."""
    y = year.astype(float)
    century = 100 * (today.year // 100)
    short = century + y
    short = short.where(short <= today.year, short - 100)
    return y.where(~two_digit, short)


def read_dates(values: pd.Series, day_first: bool | None = None,
               today: date | None = None) -> DateReading:
    """Read a column of dates (see the module's docstring for the forms).

    Parameters
    ----------
    values : pandas.Series
        The column's cells (text, or dates already).
    day_first : bool or None
        How to read cells of three numbers when none of them tells (every number at most
        12); ``None`` reads them day first (most of the world's exports) and says so in
        :attr:`DateReading.decided`. A column whose cells tell is read as they tell.
    today : datetime.date, optional
        The reference for two-digit years (default: today).

    Returns
    -------
    DateReading

    Examples
    --------
    >>> r = read_dates(pd.Series(["25/12/2019", "03/04/2020", "", "soon"]))
    >>> [str(d.date()) if pd.notna(d) else None for d in r.dates], r.day_first, r.unread
    (['2019-12-25', '2020-04-03', None, None], True, 1)
    """
    if pd.api.types.is_datetime64_any_dtype(values):
        dates = pd.to_datetime(pd.Series(values)).dt.tz_localize(None) \
            if getattr(values.dt, "tz", None) is not None else pd.Series(values)
        return DateReading(dates.reset_index(drop=True), None, True, 0)
    today = today or date.today()
    text = cell_text(pd.Series(values).reset_index(drop=True))
    year = pd.Series(np.nan, index=text.index)
    month = year.copy()
    day = year.copy()

    iso = text.str.extract(_ISO)
    have = iso[0].notna()
    year[have], month[have], day[have] = (iso.loc[have, i].astype(float) for i in range(3))

    num = text.str.extract(_NUMERIC)
    is_num = num[0].notna() & ~have
    a, b = num[0].astype(float), num[1].astype(float)
    first_big = bool((is_num & (a > 12)).any())
    second_big = bool((is_num & (b > 12)).any())
    decided = first_big != second_big
    if decided:
        read_day_first = first_big
    elif first_big and second_big:  # both orders in one column: the more common one
        read_day_first = int((is_num & (a > 12)).sum()) >= int((is_num & (b > 12)).sum())
        decided = True
    else:
        read_day_first = True if day_first is None else bool(day_first)
        decided = not bool(is_num.any())
    two = num[2].str.len() == 2
    year[is_num] = _full_year(num.loc[is_num, 2], two[is_num], today)
    d, m = (a, b) if read_day_first else (b, a)
    day[is_num], month[is_num] = d[is_num], m[is_num]
    have |= is_num

    for pattern, (di, mi) in ((_DAY_MONTH, (0, 1)), (_MONTH_DAY, (1, 0))):
        named = text.str.extract(pattern)
        rows = named[0].notna() & ~have
        if rows.any():
            mo = _month(named.loc[rows, mi])
            ok = mo.notna()
            rows_ok = ok[ok].index
            day[rows_ok] = named.loc[rows_ok, di].astype(float)
            month[rows_ok] = mo[ok]
            year[rows_ok] = _full_year(named.loc[rows_ok, 2], named.loc[rows_ok, 2].str.len()
                                       == 2, today)
            have[rows_ok] = True

    named = text.str.extract(_MONTH_YEAR)
    rows = named[0].notna() & ~have
    if rows.any():
        mo = _month(named.loc[rows, 0])
        rows_ok = mo[mo.notna()].index
        day[rows_ok], month[rows_ok] = 15.0, mo[mo.notna()]
        year[rows_ok] = named.loc[rows_ok, 1].astype(float)
        have[rows_ok] = True

    quarter = text.str.extract(_QUARTER)
    rows = (quarter[0].notna() | quarter[2].notna()) & ~have
    if rows.any():
        q = quarter[0].fillna(quarter[3])[rows].astype(int)
        year[rows] = quarter[1].fillna(quarter[2])[rows].astype(float)
        month[rows] = q.map(lambda k: _QUARTER_END[k][0]).astype(float)
        day[rows] = q.map(lambda k: _QUARTER_END[k][1]).astype(float)
        have |= rows

    parts = pd.DataFrame({"year": year, "month": month, "day": day})
    dates = pd.Series(pd.NaT, index=text.index, dtype="datetime64[ns]")
    # a typo's year 2901 is no date (and beyond what a timestamp holds: pandas raised
    # OutOfBoundsDatetime whatever errors= says, and the Data page stopped)
    have &= year.between(MIN_YEAR, MAX_YEAR)
    if have.any():
        dates[have] = pd.to_datetime(parts[have], errors="coerce")
    filled = text != ""
    unread = int((filled & dates.isna()).sum())
    return DateReading(dates, read_day_first if is_num.any() else None, decided, unread)


#: Days per unit of an age (``ages``' ``"unit"``): newborns' ages are days, not 0 years.
AGE_UNITS = {"years": DAYS_PER_YEAR, "months": DAYS_PER_YEAR / 12, "days": 1.0}


def age_in_years(born: pd.Series, at: pd.Series, unit: str = "years",
                 completed: bool = False) -> tuple[np.ndarray, int]:
    """Ages between two date columns in ``unit`` (:data:`AGE_UNITS`; years and months
    with one decimal, days whole), and how many were impossible (negative, or above
    :data:`MAX_AGE` years): those are ``NaN``, as are ages with a date missing.

    With ``completed``, ages in years are whole years completed by the calendar: 14 days
    before a 66th birthday is 65 (walk-through 96 read 65.95 as 66.0, and so 66)."""
    b, a = pd.to_datetime(born), pd.to_datetime(at)
    days = (a - b).dt.days.to_numpy(dtype=float)
    if completed and unit == "years":
        before = ((a.dt.month < b.dt.month) | ((a.dt.month == b.dt.month)
                                               & (a.dt.day < b.dt.day))).to_numpy()
        ages = (a.dt.year - b.dt.year).to_numpy(dtype=float) - before
    else:
        ages = np.round(days / AGE_UNITS[unit], 0 if unit == "days" else 1)
    impossible = np.isfinite(days) & ((days < 0) | (days > MAX_AGE * DAYS_PER_YEAR))
    ages[impossible | ~np.isfinite(days)] = np.nan
    return ages, int(impossible.sum())


def fixed_date(text: str) -> pd.Timestamp:
    """One date for every patient, written ``YYYY-MM-DD`` (years :data:`MIN_YEAR` to
    :data:`MAX_YEAR`)."""
    m = _ISO.match(str(text))
    try:
        if m is None or not MIN_YEAR <= int(m[1]) <= MAX_YEAR:  # 9999: no timestamp
            raise ValueError
        return pd.Timestamp(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise DataError(f"'{str(text)[:40]}' is neither a column of the table nor a date "
                        "written YYYY-MM-DD (the date at which to compute the ages).") from None


def _order(day_first: bool | None) -> str:
    return "day/month/year" if day_first else "month/day/year"


def add_ages(df: pd.DataFrame, ages: dict | None, fitted: bool = False,
             today: date | None = None) -> tuple[pd.DataFrame, dict, list[str]]:
    """The table with an age column for each entry of ``ages``.

    Parameters
    ----------
    df : pandas.DataFrame
        The patient table.
    ages : dict or None
        ``{new column: {"born": date-of-birth column, "at": a date column or a date
        written YYYY-MM-DD, "day_first": bool or None, "unit": "years", "months" or
        "days"}}``. ``day_first`` reads dates such as 03/04/2019 when no cell tells
        (:func:`read_dates`); ``None`` lets the cells decide, and reads them day first
        when they cannot. ``unit``: years by default (a newborn's age is days).
    fitted : bool
        ``ages`` come from a fitted encoder (a new patient's rows): a missing date column
        leaves the age as given, or missing, instead of stopping; an age column already
        in ``df`` (an age typed on a form) is kept where it is filled.
    today : datetime.date, optional
        The reference for two-digit years.

    Returns
    -------
    df : pandas.DataFrame
        With each age column (years, one decimal) right after its date of birth column.
    resolved : dict
        ``ages`` with each ``day_first`` as read (saved with the encoder, so a new
        patient's 03/04/1960 reads as the training patients' did).
    notes : list of str
        What was computed, with the dates read two ways or not read.
    """
    if not ages:
        return df, {}, []
    out = df.copy()
    out.attrs = dict(df.attrs)
    resolved: dict = {}
    notes: list[str] = []
    for name, spec in ages.items():
        born_col, at = str(spec.get("born", "")), str(spec.get("at", ""))
        day_first = spec.get("day_first")
        if born_col not in out.columns:
            if fitted:
                resolved[name] = dict(spec)
                continue
            raise DataError(f"The age '{name}' needs the date of birth column "
                            f"'{born_col}', which the table does not have.")
        born = read_dates(out[born_col], day_first, today)
        at_is_column = at in out.columns
        if at_is_column:
            # one export, one way of writing dates: a column that tells decides for both
            first = born.day_first if born.decided else day_first
            at_dates = read_dates(out[at], first, today)
            if at_dates.decided and at_dates.day_first is not None and not born.decided:
                born = read_dates(out[born_col], at_dates.day_first, today)
            at_values = at_dates.dates
        elif fitted and not _ISO.match(at):
            resolved[name] = dict(spec)
            continue
        else:
            at_values = pd.Series(fixed_date(at), index=born.dates.index)
            at_dates = None
        unit = spec.get("unit") or "years"
        if unit not in AGE_UNITS:
            raise DataError(f"The age '{name}' has the unit '{str(unit)[:20]}'; expected "
                            "years, months or days.")
        years, impossible = age_in_years(born.dates, at_values, unit,
                                         bool(spec.get("completed")))
        column = pd.Series(years, index=out.index, name=name)
        if name in out.columns and fitted:  # typed on a form: kept where given
            given = pd.to_numeric(out[name], errors="coerce")
            column = given.where(given.notna(), column)
        elif name in out.columns:
            raise DataError(f"The table has a column '{name}' already: name the age "
                            "another way.")
        else:
            out.insert(list(out.columns).index(born_col) + 1, name, column)
            out.attrs[ADDED] = int(out.attrs.get(ADDED, 0)) + 1
        out[name] = column.to_numpy()
        read_first = born.day_first if born.day_first is not None else (
            at_dates.day_first if at_dates is not None else None)
        resolved[name] = {"born": born_col, "at": at, "unit": unit,
                          "day_first": day_first if read_first is None else read_first}
        if fitted:
            continue
        when = f"'{at}'" if at_is_column else f"{at}"
        note = (f"'{name}': the age in {unit} at {when} from '{born_col}', computed for "
                f"{int(np.isfinite(years).sum()):,} of {len(years):,} patients")
        if read_first is not None:
            decided = born.decided and (at_dates is None or at_dates.decided)
            note += (f"; dates read {_order(read_first)}" + (
                "" if decided else " (no date tells which of its first two numbers is the "
                "day: set 'Dates written' to the other order if that is wrong)"))
        unread = born.unread + (at_dates.unread if at_dates is not None else 0)
        if unread:
            note += f"; {unread:,} filled date cell(s) not read as a date"
        if impossible:
            # which patients, with the dates as written (walk-through 75's born "1899"
            # was said to be "1 impossible age" with no patient to look up)
            bad = np.flatnonzero(~np.isfinite(years) & born.dates.notna().to_numpy()
                                 & at_values.notna().to_numpy())
            shown = ", ".join(f"CSV line {r + 2} (born {_q(str(out[born_col].iloc[r]), 20)})"
                              for r in bad[:3]) + (" …" if len(bad) > 3 else "")
            note += f"; {impossible:,} impossible age(s) (negative or above " \
                    f"{MAX_AGE:.0f}) set to missing: {shown}"
        notes.append(note + ".")
    out.attrs["sparge_read_notes"] = [*out.attrs.get("sparge_read_notes", []), *notes]
    return out, resolved, notes
