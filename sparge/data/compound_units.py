"""Measures written in two units at once, read in the smaller one: heights in feet and
inches ("5'7\"", "5 ft 7 in") in inches, weights in stones and pounds ("12st 4lb") in
pounds, and times in hours and minutes ("1h 20m",
"1 hr 20 min", and "01:20" in a column of such times) or in days and hours ("1 day 4
hrs", "1d 4h") in minutes.

An emergency department's export (walk-through 33) wrote 73 of its heights in feet and
inches among centimetres and half its times to the doctor as "1h 20m", "80 min" or
"01:20": each height read as a number with the unit "ft 7 in", which no one knows, and
was set to missing (the report listed "units" such as "'ft 10 in'"); the times left the
model as free text. A cell written so is rewritten in one unit ("67 in", "80 min") before
the column's units are read; the column's unit conversions
(:mod:`sparge.data.unit_conversion`) then take it to the column's unit like any other.
Weights in pounds and ounces are read the same way (:mod:`sparge.data.pounds_ounces`).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Collection

import numpy as np
import pandas as pd

from sparge.data.combined_cells import SAMPLE, head_cells, text_columns
from sparge.data.number_format import format_number
from sparge.data.parsing import header_unit, ordinal_number, unit_key
from sparge.data.safe_text import quote as _q

#: A table of at most this many rows is read cell by cell (a new patient's form or file).
FEW_ROWS = 64

#: "5'7\"", "5' 7", "5 ft 7 in", "5ft 7.5in", "5 feet 7 inches", "6'" (feet 1 to 8).
_FT_IN = re.compile(r"\s*([1-8])\s*(?:'|’|′|ft\.?|feet|foot)\s*,?\s*"
                    r"(?:(\d{1,2}(?:\.\d+)?)\s*(?:\"|”|″|''|in\.?|inch(?:es)?)?)?\s*",
                    re.IGNORECASE)
#: "1h 20m", "1 hr 20 min", "2 hours 5 minutes", "1h20", "3h" ...
_H_MIN = re.compile(r"\s*(\d{1,3})\s*(?:h|hrs?|hours?)\.?\s*,?\s*"
                    r"(?:(\d{1,2})\s*(?:m|mins?|minutes?)?\.?)?\s*", re.IGNORECASE)
#: "1 day 4 hrs", "1d 4h", "2 days 11 hrs", "3 days": a time in days and hours
#: (walk-through 72's time to theatre lost 105 such cells: "no exact conversion to 'h'")
_D_H = re.compile(r"\s*(\d{1,3})\s*(?:d|days?)\.?\s*,?\s*"
                  r"(?:(\d{1,2})\s*(?:h|hrs?|hours?)\.?)?\s*", re.IGNORECASE)
#: ... and "01:20" or "1:20" (hours and minutes), read so only in a column that also
#: writes times with their units (elsewhere it is a time of day).
_CLOCK = re.compile(r"\s*(\d{1,2}):([0-5]\d)\s*")
#: "80 min": a time in minutes.
_MIN_ONLY = re.compile(r"\s*\d+(?:\.\d+)?\s*(?:mins?|minutes?)\.?\s*", re.IGNORECASE)
#: A time written with a unit: what makes "01:20" a duration in its column.
_DURATION = re.compile(r"\s*\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|m|mins?|minutes?)\b.*",
                       re.IGNORECASE)


def two_parts(pattern: re.Pattern, cell: object, limit: float
              ) -> tuple[float, float] | None:
    """The larger and the smaller unit's numbers of a cell ``pattern`` reads (its groups 1
    and 2; an absent second is 0), or ``None``: no match, or a smaller number of ``limit``
    or more ("5'13\"")."""
    m = pattern.fullmatch(str(cell))
    if m is None:
        return None
    small = float(m.group(2) or 0)
    return None if small >= limit else (float(m.group(1)), small)


def inches(cell: object) -> float | None:
    """A height written in feet and inches, in inches, or ``None``.

    Examples
    --------
    >>> inches("5'7\\""), inches("5 ft 7 in"), inches("6'"), inches("170 cm")
    (67.0, 67.0, 72.0, None)
    """
    parts = two_parts(_FT_IN, cell, 12)
    return None if parts is None else 12 * parts[0] + parts[1]


def minutes(cell: object) -> float | None:
    """A time written in hours and minutes ("1h 20m", "1 hr 20 min") or in days and
    hours ("1 day 4 hrs", "1d 4h"), in minutes, or ``None`` ("01:20" is read by
    :func:`clock_minutes`, in a column of durations only).

    Examples
    --------
    >>> minutes("1h 20m"), minutes("2 hours 5 minutes"), minutes("3h"), minutes("80 min")
    (80.0, 125.0, 180.0, None)
    >>> minutes("1 day 4 hrs"), minutes("1d 4h"), minutes("2 days"), minutes("1d 30h")
    (1680.0, 1680.0, 2880.0, None)
    """
    parts = two_parts(_H_MIN, cell, 60)
    if parts is not None:
        return 60 * parts[0] + parts[1]
    parts = two_parts(_D_H, cell, 24)
    return None if parts is None else 60 * (24 * parts[0] + parts[1])


def _days_and_hours(cell: str) -> bool:
    """Whether a cell is a time in days and hours, both written ("1 day 4 hrs")."""
    m = _D_H.fullmatch(cell)
    return bool(m and m.group(2))


def clock_minutes(cell: object) -> float | None:
    """``"01:20"`` as 80 minutes (a duration written as a clock), or ``None``."""
    m = _CLOCK.fullmatch(str(cell))
    return None if m is None else 60 * float(m.group(1)) + float(m.group(2))


def rewrite_cells(df: pd.DataFrame, may_hold: Callable[[pd.Series], bool],
                  read: Callable[[pd.Series], pd.Series], unit: str, what: str,
                  unit_name: str) -> pd.DataFrame:
    """The table with the cells ``read`` gives a number for rewritten as that number in
    ``unit`` ("67 in"; ``unit_name`` in the note, "inches"), and a note per column in
    ``df.attrs["sparge_read_notes"]``; ``may_hold`` picks the text columns worth reading.
    A table without such a cell is returned as it is."""
    out = df
    for col, _ in text_columns(df, (), may_hold):
        values = df[col]
        found_values = read(values)
        found = found_values.notna()
        if not found.any():
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        example = str(values[found].iloc[0]).strip()
        out[col] = values.where(~found, found_values.map(
            lambda v: None if v is None or v != v else f"{v:.6g} {unit}"))
        # the rewritten cells: their unit is ours, not a unit the user wrote (walk-through
        # 39 read "528 cell(s) written with the unit 'min'" of 195)
        out.attrs["sparge_rewritten"] = {**out.attrs.get("sparge_rewritten", {}),
                                         str(col): pack_rows(found.to_numpy())}
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            f"Column '{_q(col)}': {int(found.sum()):,} {what} (e.g. '{_q(example, 20)}') "
            f"read in {unit_name} ({format_number(round(float(found_values[found].iloc[0]), 3))}"
            f" {unit})."]
    return out


def pack_rows(mask: np.ndarray) -> str:
    """Rows of a table as a short text (a bit per row, base64): what ``attrs`` keeps of
    the cells the reading rewrote. pandas copies a frame's ``attrs`` on every operation,
    and a list of 100,000 row numbers made each one 100 times slower (19 ms); a text is
    not copied, and Streamlit can serialise it."""
    bits = np.asarray(mask, dtype=bool)
    return f"{len(bits)}:" + base64.b64encode(np.packbits(bits).tobytes()).decode("ascii")


def unpack_rows(packed: str | None, n: int) -> np.ndarray:
    """The rows :func:`pack_rows` packed, as a mask of ``n`` rows (none when ``packed``
    is empty or was made for another number of rows)."""
    if not packed or not str(packed).startswith(f"{n}:"):
        return np.zeros(n, dtype=bool)
    raw = np.frombuffer(base64.b64decode(str(packed).split(":", 1)[1]), dtype=np.uint8)
    return np.unpackbits(raw)[:n].astype(bool)


def _cells(values: pd.Series, parse: Callable[[object], float | None]) -> pd.Series:
    return values.map(lambda v: parse(v) if isinstance(v, str) else None).astype(object)


def sample_has(values: pd.Series, *checks: tuple[re.Pattern, tuple[str, ...]]) -> bool:
    """Whether a column's first cells (all of a few rows') hold, for one of ``checks``
    ``(pattern, marks)``, one of ``marks`` in a cell ``pattern`` reads. The cells are
    taken once for all the checks, and a mark no cell holds rules its check out at once
    (a 469-column table's readers looked at each cell ten times, 4 s of its encoding)."""
    cells = head_cells(values, FEW_ROWS if len(values) <= FEW_ROWS else 4 * SAMPLE)
    blob = "\n".join(cells).lower()
    for pattern, marks in checks:
        if any(m in blob for m in marks) and any(
                any(m in h.lower() for m in marks) and pattern.fullmatch(h) for h in cells):
            return True
    return False


#: A column whose "5'7" is a height, not 5 minutes 7 seconds: named so, or writing "ft".
_HEIGHT_NAME = re.compile(r"height|stature|\bht\b|length|tall", re.IGNORECASE)


def _may_hold_heights(values: pd.Series) -> bool:
    if _HEIGHT_NAME.search(str(values.name)):
        return sample_has(values, (_FT_IN, ("'", "’", "′", "ft", "feet", "foot")))
    return sample_has(values, (_FT_IN, ("ft", "feet", "foot")))


def read_feet_inches(df: pd.DataFrame) -> pd.DataFrame:
    """Heights written in feet and inches rewritten in inches ("5'7\\"" as "67 in"), in
    a column named like a height or writing "ft" ("5'7" elsewhere may be a time)."""
    return rewrite_cells(df, _may_hold_heights, lambda v: _cells(v, inches), "in",
                         "height(s) written in feet and inches", "inches")


def _durations(values: pd.Series, known: bool = False) -> pd.Series:
    """Minutes of the cells in hours and minutes; "01:20" too when the column also writes
    times with their units, or is ``known`` to hold durations (a model's column of times,
    in a new patient's one-row file: walk-through 39's "02:15" was set to missing there
    while the training table read 333 such cells)."""
    found = _cells(values, minutes)
    if known:
        return found.where(found.notna(), _cells(values, clock_minutes))
    text = values[values.map(lambda v: isinstance(v, str))]
    both = text.map(lambda v: bool((m := _H_MIN.fullmatch(v)) and m.group(2))
                    or _days_and_hours(v))
    need = 1 if len(values) <= FEW_ROWS else 2  # a new patient's one "1h 20m" too
    if int(both.sum()) + int(text.map(lambda v: bool(_MIN_ONLY.fullmatch(v))).sum()) < need:
        # a ward "4H" is no time: only a column with times in hours and minutes
        return pd.Series(None, index=values.index, dtype=object)
    if text.map(lambda v: bool(_DURATION.fullmatch(v))).sum() >= 2:
        clock = _cells(values, clock_minutes)
        found = found.where(found.notna(), clock)
    return found


def _in_hours(values: pd.Series) -> bool:
    """Whether a column's name gives its unit as hours ("ED LOS (h)")."""
    return unit_key(header_unit(str(values.name)) or "") == "hours"


def _in_days(values: pd.Series) -> bool:
    """Whether a column's name gives its unit as days ("ICU LOS (days)")."""
    return unit_key(header_unit(str(values.name)) or "") == "days"


def _may_hold_times(values: pd.Series) -> bool:
    return sample_has(values, (_H_MIN, ("h",)), (_MIN_ONLY, ("min",)), (_D_H, ("d",)))


def read_hours_minutes(df: pd.DataFrame, durations: Collection[str] = ()) -> pd.DataFrame:
    """Times written in hours and minutes rewritten in minutes ("1h 20m" as "80 min"), or
    in hours in a column whose name says hours ("ED LOS (h)": "6h 18m" as "6.3 h").
    ``durations``: columns known to hold times (a fitted model's), read however few
    their cells ("02:15" alone in a new patient's file)."""
    known = {str(c) for c in durations}

    def may_hold(v: pd.Series) -> bool:
        return str(v.name) in known or _may_hold_times(v)

    def read(v: pd.Series) -> pd.Series:
        return _durations(v, str(v.name) in known)

    df = rewrite_cells(df, lambda v: _in_hours(v) and may_hold(v),
                       lambda v: read(v).map(lambda m: None if m is None else m / 60),
                       "h", "time(s) written in hours and minutes", "hours")
    # ... or in days in a column whose name says days (walk-through 101's "ICU LOS
    # (days)" read "4d 4h" as 6,000 minutes beside its plain days)
    df = rewrite_cells(df, lambda v: _in_days(v) and may_hold(v),
                       lambda v: read(v).map(lambda m: None if m is None else m / 1440),
                       "d", "time(s) written in days and hours", "days")
    before = dict(df.attrs.get("sparge_rewritten", {}))
    df = rewrite_cells(df, lambda v: not _in_hours(v) and not _in_days(v) and may_hold(v),
                       read, "min", "time(s) written in hours and minutes", "minutes")
    for col in [c for c in df.columns if str(c) in df.attrs.get("sparge_rewritten", {})
                and str(c) not in before]:
        df = _plain_hours(df, col)
    return df


#: Fewest plain numbers for a column's to be read as hours.
_FEWEST_PLAIN_HOURS = 3


def _plain_hours(df: pd.DataFrame, col) -> pd.DataFrame:
    """``df`` with the plain numbers of a column of times read in minutes rewritten in
    minutes as hours, when they are the size of its times in hours: walk-through 99's
    length of labour wrote "12.25" (hours) beside "15h 30m", and 113 labours were read as
    lasting minutes. Their middle value, in hours, must lie within a factor of three of
    the times', and below a tenth of it in minutes."""
    values = df[col]
    text = values.astype(str).where(values.notna(), "").str.strip()
    timed = pd.to_numeric(text.str.extract(r"^(\d+(?:\.\d+)?) ?(?:mins?|minutes)$",
                                           flags=re.IGNORECASE)[0], errors="coerce")
    # a decimal comma too: a comma before one or two digits is no thousands' separator
    # (walk-through 100's semicolon export wrote "14,25" hours beside "870 mins")
    plain = pd.to_numeric(text.where(text.str.fullmatch(r"\d{1,3}(?:[.,]\d{1,2})?"))
                          .str.replace(",", ".", regex=False), errors="coerce")
    given = plain[plain > 0]
    if len(given) < _FEWEST_PLAIN_HOURS or timed.notna().sum() < _FEWEST_PLAIN_HOURS:
        return df
    hours, minutes = float(given.median()), float(timed[timed > 0].median())
    if not (minutes / 3 <= 60 * hours <= 3 * minutes and hours < minutes / 10):
        return df
    found = plain.notna()
    out = df.copy()
    out.attrs = dict(df.attrs)
    out[col] = values.where(~found, plain.map(lambda h: f"{60 * h:.6g} min"))
    rewritten = out.attrs.get("sparge_rewritten", {})
    out.attrs["sparge_rewritten"] = {**rewritten, str(col): pack_rows(
        unpack_rows(rewritten[str(col)], len(values)) | found.to_numpy())}
    example = str(values[given.index[0]]).strip()
    out.attrs["sparge_read_notes"] = [
        *out.attrs.get("sparge_read_notes", []),
        f"Column '{_q(col)}': {int(found.sum()):,} plain number(s) the size of its times "
        f"in hours (e.g. '{_q(example, 12)}'; the times' middle is "
        f"{format_number(round(minutes / 60, 1))} h) read in hours "
        f"({format_number(round(60 * float(given.iloc[0]), 3))} min)."]
    return out


#: "4y 1m", "2 yrs 3 mths", "1 year 6 months", "0y 10m": a child's age (walk-through 41
#: lost 144 such ages: "no exact conversion to 'yrs' is known"). Bounded runs.
_Y_M = re.compile(r" {0,3}(\d{1,3}) {0,3}(?:y|yr|yrs|years?)\.? {0,3},? {0,3}"
                  r"(\d{1,2}) {0,3}(?:m|mo|mos|mths?|months?)\.? {0,3}", re.IGNORECASE)


def years_of(cell: object) -> float | None:
    """An age written in years and months, in years, or ``None``.

    Examples
    --------
    >>> years_of("4y 1m"), years_of("1 year 6 months"), years_of("4y")
    (4.083333333333333, 1.5, None)
    """
    text = str(cell)
    parts = two_parts(_Y_M, text, 12) if len(text) <= 40 else None
    return None if parts is None else parts[0] + parts[1] / 12


def _in_months(values: pd.Series) -> bool:
    """Whether a column's name gives its unit as months ("Age (months)")."""
    return unit_key(header_unit(str(values.name)) or "") in ("months", "month", "mo")


def read_years_months(df: pd.DataFrame) -> pd.DataFrame:
    """Ages written in years and months rewritten in years ("4y 1m" as "4.08333 years"),
    or in months in a column whose name says months."""
    df = rewrite_cells(df, lambda v: _in_months(v) and sample_has(v, (_Y_M, ("y",))),
                       lambda v: _cells(v, years_of).map(
                           lambda y: None if y is None else 12 * y),
                       "months", "value(s) written in years and months", "months")
    return rewrite_cells(df, lambda v: not _in_months(v) and sample_has(v, (_Y_M, ("y",))),
                         lambda v: _cells(v, years_of), "years",
                         "value(s) written in years and months", "years")


#: "12st 4lb", "12 st 4", "12 stone 4 pounds", "12st" (a British adult's weight).
_ST_LB = re.compile(r"\s*(\d{1,2})\s*(?:st|stone)\.?\s*,?\s*"
                    r"(?:(\d{1,2}(?:\.\d+)?)\s*(?:lbs?|pounds?)?\.?)?\s*", re.IGNORECASE)


def pounds_of_stones(cell: object, weight: bool = False) -> float | None:
    """A weight written in stones and pounds, in pounds, or ``None`` (an ordinal such as
    "21st" too, unless the column is known to hold ``weight``s).

    Examples
    --------
    >>> pounds_of_stones("12st 4lb"), pounds_of_stones("11 stone"), pounds_of_stones("80")
    (172.0, 154.0, None)
    """
    if not weight and ordinal_number(cell) is not None:  # "41st" (a centile), not 41 st
        return None
    parts = two_parts(_ST_LB, cell, 14)
    return None if parts is None else 14 * parts[0] + parts[1]


#: A column of weights, whose "21st" is 21 stone.
_WEIGHT_NAME = re.compile(r"weight|\bwt\b|\bmass\b", re.IGNORECASE)
#: A column of centiles or ranks, whose "41st" is never a weight.
_CENTILE_NAME = re.compile(r"centile|percentile|rank|\bpctl?\b|%ile", re.IGNORECASE)


def read_stones_pounds(df: pd.DataFrame) -> pd.DataFrame:
    """Weights written in stones and pounds rewritten in pounds ("12st 4lb" as "172 lb");
    not in a column named like centiles."""
    return rewrite_cells(df, lambda v: not _CENTILE_NAME.search(str(v.name))
                         and sample_has(v, (_ST_LB, ("st",))),
                         lambda v: _cells(v, lambda c: pounds_of_stones(
                             c, _WEIGHT_NAME.search(str(v.name)) is not None)), "lb",
                         "weight(s) written in stones and pounds", "pounds")


def read_compound_units(df: pd.DataFrame, durations: Collection[str] = ()) -> pd.DataFrame:
    """Heights in feet and inches, weights in stones and pounds, ages in years and months
    and times in hours and minutes, each in one unit (``durations``: as in
    :func:`read_hours_minutes`)."""
    return read_hours_minutes(read_years_months(read_stones_pounds(read_feet_inches(df))),
                              durations)
