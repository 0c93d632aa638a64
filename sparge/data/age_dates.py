"""Dates of birth written in a column of ages, read as the age at the patient's event.

Walk-through 43's maternity export wrote 104 of its 700 mothers' ages as a date of birth
("02/02/1989") in "Maternal age": read as stray text, they were set to missing, and the
page offered to add an age from a date of birth, whose only date column was the delivery
date. A date in a column named like an age is a date of birth; the age is taken at the
table's date of the patient's event (an admission, a delivery, a visit: the first column
of dates named so, :data:`EVENT_NAMES` in order) and written in the column's unit, the
way :func:`~sparge.data.dates.add_ages` computes it. Without such a date column, the age is
taken at the table's latest date (its export's, or near it: :func:`latest_date`); without
any date, the cells stay as written and a note says why they are not read.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from sparge.data.column_kinds import DATE_CELL, looks_like_dates
from sparge.data.combined_cells import named_columns
from sparge.data.dates import AGE_UNITS, DAYS_PER_YEAR, add_ages, read_dates
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
    r"surg|operat|procedure", r"visit|encounter|consult|appoint|attend|arrival|clinic|"
    # walk-through 79's sleep clinic: "Date first seen" (not a "Date last seen")
    r"presentation|episode|booking|(?<!last )(?<!latest )\bseen\b",
    r"enrol|baseline|recruit|randomi|consent|"
    r"registration|index", r"referr", r"treatment|start", r"exam|review",
    # a register's quarterly snapshot (walk-through 106's dialysis unit: ages from dates of
    # birth were taken at the table's latest date, 1-3 years on for older snapshots)
    r"snapshot|census|\bas at\b|quarter")]
#: A column named for both, a date of birth or an age ("DOB / Age", "Age or DOB"):
#: walk-through 105's day unit wrote 267 dates of birth and 166 ages in one, left out.
_AGE_OR_BIRTH = re.compile(r"(?:\bdob\b|\bd\.o\.b\b|date of birth|birth ?date)\s*(?:/|\bor\b|"
                           r"\||,|&)\s*age\b|\bage\s*(?:/|\bor\b|\||,|&)\s*(?:\bdob\b|"
                           r"\bd\.o\.b\b|date of birth|birth ?date)", re.IGNORECASE)
#: Words naming a date of birth before it in a cell: "DOB 06/03/1977", "born: 1/2/1950".
_BORN_WORDS = re.compile(r"^\s{0,3}(?:d\.?o\.?b\.?|born|date of birth|birth date)\s{0,3}[:\-]?"
                         r"\s{0,3}", re.IGNORECASE)
#: A date column named as the latest of several ("Date of last review"): no event.
LAST_NAME = re.compile(r"\b(?:last|latest|most recent|previous)\b", re.IGNORECASE)
#: Fewest dates in an age column to read them, in a table of more than
#: :data:`SMALL_TABLE` rows (a new patients' file reads any: walk-through 44's one date of
#: birth in a three-patient file was set to missing).
MIN_DATES = 5
SMALL_TABLE = 64


#: Share of the patients an event's date must be written for: a date written for a few
#: is an outcome's (walk-through 62 took ages at "Date of care home admission", written
#: only for the patients admitted: having an age gave the outcome away).
EVENT_FILLED = 0.5


def event_date_column(df: pd.DataFrame, exclude=()) -> str | None:
    """The table's column of the date a patient's age is taken at (:data:`EVENT_NAMES`),
    or ``None``: a column of dates, not named as a date of birth, written for at least
    :data:`EVENT_FILLED` of the patients, nor for what comes later (:data:`AFTER_NAME`:
    a "Readmission date" matched "admi")."""
    skip = {str(c) for c in exclude}
    candidates = [str(c) for c in df.columns if str(c) not in skip
                  and not BIRTH_NAME.search(str(c).split(" of ", 1)[0])
                  and not AFTER_NAME.search(str(c))
                  and not pd.api.types.is_numeric_dtype(df[c])]
    for pattern in EVENT_NAMES:
        for c in candidates:
            if pattern.search(c) and looks_like_dates(text := cell_text(df[c])) and \
                    (text != "").mean() >= EVENT_FILLED:
                return c
    return None


#: A date column named for what happens after the export's patients were seen: a death,
#: a follow-up, a discharge (walk-through 56's dates of death ran a year past the export).
AFTER_NAME = re.compile(r"death|died|deceased|\bdod\b|follow|\bf/?u\b|censor|re-?admi|"
                        r"last (?:contact|seen|known)|outcome|discharg|\bend\b|exit|"
                        r"withdr|transplant(?:ed)? date|date of transplant", re.IGNORECASE)


def latest_date(df: pd.DataFrame, exclude=()) -> tuple[str, pd.Timestamp] | None:
    """The table's latest date not after today, and its column, among the columns of
    dates not named as a date of birth nor for what comes later (:data:`AFTER_NAME`);
    ``None`` without one."""
    skip = {str(c) for c in exclude}
    today = pd.Timestamp.today().normalize()
    best: tuple[str, pd.Timestamp] | None = None
    for c in df.columns:
        if str(c) in skip or BIRTH_NAME.search(str(c).split(" of ", 1)[0]) or \
                AFTER_NAME.search(str(c)) or pd.api.types.is_numeric_dtype(df[c]) or \
                not looks_like_dates(cell_text(df[c])):
            continue
        dates = read_dates(df[c]).dates
        dates = dates[dates <= today]
        if len(dates) and pd.notna(top := dates.max()) and (best is None or top > best[1]):
            best = (str(c), top)
    return best


#: How much nearer (in years, as medians) to the ages a column writes the ages at the
#: table's latest date must lie to be taken instead of those at the event's date.
MEDIAN_GAP = 2.0
#: The number a cell of an age starts with ("67", "67 yrs", "23y").
_LEADING_NUMBER = re.compile(r"^\s*(\d{1,3}(?:\.\d+)?)")


def _ages_at(pair: pd.DataFrame, when: str, unit: str, completed: bool = False
             ) -> np.ndarray:
    """The ages of ``pair``'s ``__born__`` at ``when`` (a date, or ``"__at__"``: its
    column), in ``unit`` (``completed``: whole years by the calendar)."""
    aged, _, _ = add_ages(pair, {"__age__": {"born": "__born__", "at": when,
                                             "day_first": None, "unit": unit,
                                             "completed": completed}})
    return pd.to_numeric(aged["__age__"], errors="coerce").to_numpy(dtype=float)


def _nearer(other: np.ndarray, ages: np.ndarray, written: np.ndarray,
            days_per_unit: float) -> bool:
    """Whether ``other``'s median lies nearer ``written``'s than ``ages``' does, by more
    than :data:`MEDIAN_GAP` years (too few values of either: no)."""
    def median(x):
        x = x[np.isfinite(x)]
        return float(np.median(x)) if x.size >= MIN_DATES else math.nan

    w, a, o = median(written), median(ages), median(other)
    if not all(math.isfinite(v) for v in (w, a, o)):
        return False
    return (abs(a - w) - abs(o - w)) * days_per_unit / AGE_UNITS["years"] > MEDIAN_GAP


def _whole_ages(written: pd.Series) -> bool:
    """Whether the ages a column writes (its cells other than dates) are whole numbers:
    at least :data:`MIN_DATES` of them, none with a fraction."""
    numbers = pd.to_numeric(written.str.extract(_LEADING_NUMBER)[0], errors="coerce")
    numbers = numbers[numbers.notna()].to_numpy(dtype=float)
    return bool(numbers.size >= MIN_DATES and np.all(numbers == np.round(numbers)))


def read_dates_in_age_columns(df: pd.DataFrame) -> pd.DataFrame:
    """The table with the dates written in a column of ages rewritten as the age at the
    event's date (:func:`event_date_column`), in the column's unit (years unless its name
    says months or days), and a note per column in ``df.attrs["sparge_read_notes"]``."""
    out = df
    for col in list(df.columns):
        if not AGE_NAME.search(str(col)) or (BIRTH_NAME.search(str(col)) and not
                                             _AGE_OR_BIRTH.search(str(col))) or \
                pd.api.types.is_numeric_dtype(df[col]):
            continue
        # ... after the words naming it, "DOB 06/03/1977" (walk-through 57's 15 cells)
        raw = cell_text(df[col])
        text = raw.str.replace(_BORN_WORDS, "", regex=True)
        dated = text.str.strip().str.match(DATE_CELL).to_numpy()
        if not dated.any() or (dated.sum() < MIN_DATES and len(df) > SMALL_TABLE):
            continue
        at = event_date_column(df, exclude=[col])
        notes = list(out.attrs.get("sparge_read_notes", []))
        latest_at = latest_date(df, exclude=[col]) if at is None else None
        if at is None and latest_at is not None:
            # no event's date: the table's latest date, its export's or near it
            # (walk-through 56's dialysis unit: 37 dates of birth in "Age" beside a start
            # of dialysis and a date of death)
            at = latest_at[0]
        if at is None:
            if out is df:
                out = df.copy()
                out.attrs = dict(df.attrs)
            out.attrs["sparge_read_notes"] = [*notes, (
                f"Column '{_q(col)}': {int(dated.sum()):,} cell(s) hold a date (of birth?), "
                f"e.g. '{_q(raw[dated].iloc[0], 20)}': no date of the patient's event "
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
        if latest_at is not None:
            when = latest_at[1].strftime("%Y-%m-%d")
        elif LAST_NAME.search(at):
            latest = read_dates(df[at]).dates.max()
            if pd.notna(latest):
                when = latest.strftime("%Y-%m-%d")
        ages = _ages_at(pair, when, unit)
        switched = None
        # the ages the column writes are perhaps not those at the event: walk-through 56's
        # dialysis unit wrote its patients' ages today beside a start of dialysis up to 12
        # years back. The table's latest date is taken instead when the ages it gives lie
        # far nearer those written (by more than MEDIAN_GAP years, as medians)
        if latest_at is None and when == "__at__" and \
                (later := latest_date(df, exclude=[col])) is not None:
            written = pd.to_numeric(text[~dated].str.extract(_LEADING_NUMBER)[0],
                                    errors="coerce").to_numpy(dtype=float)
            other = _ages_at(pair, later[1].strftime("%Y-%m-%d"), unit)
            if _nearer(other, ages, written, AGE_UNITS[unit]):
                switched = at
                latest_at, at, when, ages = later, later[0], later[1].strftime("%Y-%m-%d"), \
                    other
        read = dated & np.isfinite(ages)
        if not read.any():
            continue
        # in completed years (months, days) where the column writes whole ages: a 63.4
        # among 63s and 64s (walk-through 91) is no age a clinic writes, and a patient
        # is 63 until the birthday
        # ... by the calendar: 14 days before a 66th birthday is 65 (walk-through 96 read 66)
        if _whole_ages(text[~dated]):
            whole = _ages_at(pair, when, unit, completed=True) if unit == "years" else \
                np.floor(ages + 1e-9)
            ages = np.where(read, whole, ages)
        out = _rewritten(out, df, col, read, ages)
        first = int(np.flatnonzero(read)[0])
        at_said = (f"'{_q(at)}'" if when == "__at__" else
                   f"{when}, the latest date of '{_q(at)}' (the export's, or near it)"
                   if latest_at is None else
                   f"{when}, the table's latest date (in '{_q(at)}'; no admission or "
                   "other event's date is named: the export's date, or near it)"
                   if switched is None else
                   f"{when}, the table's latest date (in '{_q(at)}': the export's date, or "
                   f"near it; the ages at each patient's own '{_q(switched)}' lay far from "
                   "those the column writes)")
        # the date column read for it: a new patient's file did not say it was read
        # (walk-through 59: "not used by the model, so not read: 'ICU admission date'")
        out.attrs["sparge_age_dates_from"] = [*out.attrs.get("sparge_age_dates_from", []),
                                              str(at)]
        out.attrs["sparge_read_notes"] = [*notes, (
            f"Column '{_q(col)}': {int(read.sum()):,} date(s) of birth (e.g. "
            f"'{_q(raw.iloc[first], 20)}') read as the age in {unit} at {at_said} "
            f"({format_number(ages[first])})"
            + (f"; {int((dated & ~read).sum()):,} other date(s) gave no possible age"
               if (dated & ~read).any() else "") + ".")]
    return out


def _rewritten(out: pd.DataFrame, df: pd.DataFrame, col, read: np.ndarray,
               values: np.ndarray, note: str | None = None) -> pd.DataFrame:
    """``out`` (``df`` or its copy) with the cells ``read`` of ``col`` written as
    ``values`` (a copy of ``df`` made once, its notes kept), and ``note`` added to them."""
    if out is df:
        out = df.copy()
        out.attrs = dict(df.attrs)
    column = out[col].astype(object).copy()
    column[read] = [repr(float(v)) for v in values[read]]
    out[col] = column
    if note:
        out.attrs["sparge_read_notes"] = [*out.attrs.get("sparge_read_notes", []), note]
    return out


#: A column of how long a patient has had a condition ("Duration (yrs)", "Years since
#: diagnosis", "Diabetes duration").
# ... or on a treatment: "Time on dialysis", "Years on RRT", "Dialysis vintage" (walk-
# through 106's dialysis unit wrote its start as "since 2017", "Nov 2000", "15/07/2018")
DURATION_NAME = re.compile(r"duration|years?\s+since|yrs?\s+since|time\s+since|"
                           r"since\s+(?:dx|diagnosis)|years?\s+(?:with|of)\s+(?:dm|diabetes|"
                           r"hiv|disease)|disease\s+length|(?:time|years?|yrs?)\s+on\s+"
                           r"(?:dialysis|hd|pd|rrt|krt|treatment|therapy)\b|vintage",
                           re.IGNORECASE)
#: A duration counted in years by its name, without a unit ("Time on dialysis", "Years
#: since diagnosis", "Dialysis vintage"): its "85/12" is 85 months of years. Not every
#: duration: a "Duration of surgery" is not in years.
YEARS_DURATION_NAME = re.compile(r"years?\s+since|yrs?\s+since|years?\s+(?:with|of)\s+"
                                 r"(?:dm|diabetes|hiv|disease)|(?:time|years?|yrs?)\s+on\s+"
                                 r"(?:dialysis|hd|pd|rrt|krt)\b|vintage", re.IGNORECASE)
#: The year a condition began, written in such a column: "dx 2010", "diagnosed 2010",
#: "since 2010", "2010".
_SINCE_YEAR = re.compile(r"\s{0,3}(?:(?:dx|diag(?:nosed|nosis)?|since|from|onset|in|"
                         r"started|yr\s+of\s+dx)\.?\s{0,3}[:\-]?\s{0,3})?"
                         r"(19\d\d|20\d\d)\s{0,3}", re.IGNORECASE)


#: A column of calendar years ("Year of diagnosis", "Diagnosis year", "Yr of dx").
YEAR_NAME = re.compile(r"\byears?\s+of\b|\byr\s+of\b|\byear\s*$|\byear\s*\(",
                       re.IGNORECASE)
#: A year as a clinic writes it beside four digits: "'21", "2016?", "2016 (age 10)".
_WRITTEN_YEAR = re.compile(r"\s{0,3}(?:'(\d\d)|((?:19|20)\d\d)\s{0,3}(?:\?|\(.{1,30}\))|"
                           # "?2018", "dx 2018", "c. 2015" (walk-through 97 lost 60 such
                           # cells of a year of diagnosis), and a whole date's year
                           r"(?:\?|dx|diagnosed|diag\.?|c\.|circa|~)\s{0,3}((?:19|20)\d\d)|"
                           r"\d{1,2}\s?[/.-]\s?\d{1,2}\s?[/.-]\s?((?:19|20)\d\d))"
                           r"\s{0,3}", re.IGNORECASE)


def read_year_columns(df: pd.DataFrame) -> pd.DataFrame:
    """The table with the years of a column of calendar years (:data:`YEAR_NAME`, at
    least half of its cells four-digit years) written as clinics write them beside those
    rewritten as four digits: "'21" is 2021 (1921 when after this year), "2016?" and
    "2016 (age 10)" are 2016; and a note per column. Walk-through 68 lost 114 such cells
    (19 %) of a year of diagnosis."""
    out = df
    this = pd.Timestamp.today().year % 100
    for col in named_columns(df, YEAR_NAME):
        if pd.api.types.is_numeric_dtype(df[col]) or DURATION_NAME.search(str(col)):
            continue
        text = cell_text(df[col])
        codes, uniques = pd.factorize(text)
        counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
        plain = sum(int(n) for u, n in zip(uniques, counts, strict=True)
                    if re.fullmatch(r"\s*(?:19|20)\d\d\s*", u))
        if plain < 0.5 * counts.sum():
            continue
        found = []
        for u in uniques:
            m = _WRITTEN_YEAR.fullmatch(u) if len(u) <= 40 else None
            if m is None:
                found.append(np.nan)
            elif m.group(1) is not None:
                two = int(m.group(1))
                found.append(float(2000 + two if two <= this else 1900 + two))
            else:
                found.append(float(next(g for g in m.groups()[1:] if g is not None)))
        year = np.asarray(found + [np.nan])[codes]
        read = np.isfinite(year)
        if not read.any():
            continue
        first = int(np.flatnonzero(read)[0])
        out = _rewritten(out, df, col, read, year, note=(
            f"Column '{_q(col)}': {int(read.sum()):,} year(s) written short or with a note "
            f"(e.g. '{_q(text.iat[first], 20)}') read as four digits ({int(year[first])})."))
    return out


def read_years_since(df: pd.DataFrame) -> pd.DataFrame:
    """The table with the years written in a column of durations in years
    (:data:`DURATION_NAME`: "dx 2010" in "Duration (yrs)") rewritten as the years from
    that year to the patient's visit: the year of the event's date
    (:func:`event_date_column`), else of the table's latest date, else this year; and a
    note per column. Walk-through 64 lost 98 such cells (15 %) of a diabetes' duration."""
    out = df
    for col in named_columns(df, DURATION_NAME):
        name = str(col)
        if pd.api.types.is_numeric_dtype(df[col]):
            continue
        unit = unit_key(header_unit(name) or "")
        if unit not in ("", "years") or re.search(r"month|week|day|hour|min", name,
                                                  re.IGNORECASE):
            continue
        text = cell_text(df[col])
        codes, uniques = pd.factorize(text)  # each distinct cell read once
        found = np.array([float(m.group(1)) if len(u) <= 40 and
                          (m := _SINCE_YEAR.fullmatch(u)) else np.nan for u in uniques]
                         + [np.nan])
        year = found[codes]
        # ... or the date it began, whole or as a month ("15/07/2018", "Nov 2000"), when
        # the column writes such dates as a start, not a number's slip ("3.5" is no date)
        began = _start_dates(pd.Series(uniques, dtype=object))
        began = pd.Series(np.append(began.to_numpy(), np.datetime64("NaT"))[codes])
        dated = began.notna().to_numpy() & ~np.isfinite(year)
        if not np.isfinite(year).any() and not dated.any():
            continue
        at = event_date_column(df, exclude=[col])
        if at is not None:
            ref_date = read_dates(df[at]).dates
            said = f"the year of '{_q(at)}'"
        else:
            latest = latest_date(df, exclude=[col])
            when = latest[1] if latest is not None else pd.Timestamp.today().normalize()
            ref_date = pd.Series(when, index=range(len(df)))
            said = (f"the table's latest year ({when.year})" if latest is not None
                    else f"this year ({when.year})")
        ref = ref_date.dt.year.to_numpy(dtype=float)
        years = ref - year
        # a start date: the years to the row's date, to the day
        since = ((ref_date.reset_index(drop=True) - began).dt.days / DAYS_PER_YEAR).to_numpy()
        years = np.where(dated, np.round(since, 2), years)
        read = np.isfinite(years) & (years >= 0) & (years <= 100)
        if not read.any():
            continue
        first = int(np.flatnonzero(read)[0])
        n_dated = int((read & dated).sum())
        out = _rewritten(out, df, col, read, years, note=(
            f"Column '{_q(name)}': {int(read.sum()):,} cell(s) write the year it began "
            f"(e.g. '{_q(text.iat[first], 20)}' as {format_number(years[first])}): read as "
            f"the years from it to {said}"
            + (f"; {n_dated:,} of them write the date it began, read to the day" if n_dated
               else "") + "."))
    return out


#: A start written with a word before it: "since Nov 2000", "started 15/07/2018".
_SINCE_WORDS = re.compile(r"^\s{0,3}(?:since|from|started|start|began|commenced)\.?\s{0,3}"
                          r"[:\-]?\s{0,3}", re.IGNORECASE)


def _start_dates(cells: pd.Series) -> pd.Series:
    """The dates of a duration column's cells that write a date ("15/07/2018", "Nov 2000",
    "since Aug 2021"), NaT elsewhere; a cell of two numbers ("85/12": 85 months) is no
    date."""
    text = cells.astype(str).str.replace(_SINCE_WORDS, "", regex=True)
    whole = text.str.fullmatch(r"\s*\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\s*|"
                               r"\s*\d{4}-\d{1,2}-\d{1,2}\s*|\s*[A-Za-z]{3,9}\.?[\s\-,]+\d{4}\s*"
                               r"|\s*\d{1,2}[\s\-][A-Za-z]{3,9}\.?[\s\-,]+\d{4}\s*")
    dates = pd.Series(pd.NaT, index=cells.index, dtype="datetime64[ns]")
    if whole.any():
        dates[whole] = read_dates(text[whole]).dates.to_numpy()
    return dates
