"""Alcohol written as drinks, read as UK units.

A memory clinic, a GP register or a liver clinic records a patient's drinking in units a
week, as the UK guidance counts it; but a clerk writes what the patient said: "2 bottles
wine/wk", "4 pints a week", "2 glasses of wine a night", "8 units a day". As text such
cells are either set to missing as "another unit" or, when there are many, turn the
column into a list of answers (walk-through 62: 51 cells missing in "Alcohol (units/wk)").
Here a column named for alcohol reads a drink by the sizes the NHS counts units with
(:data:`UNITS_PER_DRINK`), and a period (a day, a week, a month) into the column's own:
a week, unless its name says a day.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import named_columns, rewrite_named
from sparge.data.frequencies import PERIOD_DAYS
from sparge.data.safe_text import quote as _q

#: UK units (10 mL of pure alcohol) in one drink, the NHS's reckoning: a pint of 4 % beer
#: 2.3, a can of 4.5 % lager 2, a 175 mL glass of 12 % wine 2.1, a 750 mL bottle of 12 %
#: wine 9, a 25 mL single of 40 % spirits 1 (a double 2), a 700 mL bottle of spirits 28.
UNITS_PER_DRINK = {"pint": 2.3, "can": 2.0, "glass": 2.1, "bottle of wine": 9.0,
                   "single": 1.0, "double": 2.0, "bottle of spirits": 28.0, "unit": 1.0}

_DRINKS = {
    **dict.fromkeys(("pint", "pints", "pt", "pts"), "pint"),
    **dict.fromkeys(("can", "cans", "tin", "tins"), "can"),
    **dict.fromkeys(("glass", "glasses", "gl", "glasses of wine", "glass of wine",
                     "glasses wine", "glass wine", "glasses red", "glass red",
                     "glasses white", "glass white"), "glass"),
    **dict.fromkeys(("bottle", "bottles", "btl", "btls", "bottle of wine",
                     "bottles of wine", "bottle wine", "bottles wine", "bottles red",
                     "bottle red", "bottles white", "bottle white"), "bottle of wine"),
    **dict.fromkeys(("single", "singles", "shot", "shots", "measure", "measures",
                     "tot", "tots"), "single"),
    **dict.fromkeys(("double", "doubles"), "double"),
    **dict.fromkeys(("bottle of spirits", "bottles of spirits", "bottle spirits",
                     "bottles spirits", "bottle of vodka", "bottles of vodka",
                     "bottle vodka", "bottles vodka", "bottle of whisky",
                     "bottles of whisky", "bottle whisky", "bottles whisky"),
                    "bottle of spirits"),
    **dict.fromkeys(("unit", "units", "u"), "unit"),
}
#: Drinks of a period, by the days in it (the words a count per period is read by).
_PERIODS = {w: d for w, d in PERIOD_DAYS.items() if d in (1.0, 7.0, 365.25 / 12)}
_DRINK = "|".join(sorted((re.escape(d) for d in _DRINKS), key=len, reverse=True))
_PERIOD = "|".join(sorted((re.escape(p) for p in _PERIODS), key=len, reverse=True))
#: "2 bottles wine/wk", "4 pints a week", "2-3 glasses of wine per night", "8 units a
#: day", "1 bottle of wine daily", "6u/d": a number or a narrow range, a drink, a period.
_AMOUNT = re.compile(
    rf"\s{{0,3}}(?:approx\.?\s{{0,2}}|~\s{{0,2}}|about\s{{1,2}})?(\d{{1,3}}(?:\.\d{{1,2}})?)"
    rf"(?:\s{{0,2}}[-–]\s{{0,2}}(\d{{1,3}}(?:\.\d{{1,2}})?))?\s{{0,2}}"
    rf"(?:x\s{{0,2}})?({_DRINK})\b\.?\s{{0,2}}"
    rf"(?:(?:/|per\s{{1,2}}|a\s{{1,2}}|an\s{{1,2}}|each\s{{1,2}}|every\s{{1,2}}|p\.?\s{{0,1}})"
    rf"\s{{0,2}}({_PERIOD})\b|({_PERIOD}))?\.?\s{{0,3}}", re.IGNORECASE)
#: A column of alcohol by its name, and one counted by the day.
_ALCOHOL_NAME = re.compile(r"alcohol|\betoh\b|\bdrink|\bunits?\b.{0,6}(?:wk|week|day)",
                           re.IGNORECASE)
_DAILY_NAME = re.compile(r"/\s?d(?:ay)?\b|per\s+day|a\s+day|daily", re.IGNORECASE)


def drink_units(cell: object, days: float = 7.0) -> float | None:
    """The UK units a cell's drinks come to in ``days`` days ("2 bottles wine/wk": 18.0
    a week), or ``None`` for a cell that writes no drink. A cell that names no period is
    taken in the column's: "14 units" in a weekly column is 14 (beside "6 units/wk" it
    would be another unit)."""
    text = str(cell)
    if len(text) > 48:
        return None
    m = _AMOUNT.fullmatch(text)
    if m is None:
        return None
    low = float(m.group(1))
    high = float(m.group(2)) if m.group(2) else low
    if high < low or high > 4 * low + 2:  # a range is narrow: "2-3"
        return None
    drink = _DRINKS[re.sub(r"\s+", " ", m.group(3).lower())]
    period = (m.group(4) or m.group(5) or "").lower()
    per = _PERIODS[period] if period else days
    return round((low + high) / 2 * UNITS_PER_DRINK[drink] * days / per, 1)


#: A patient who does not drink now: 0 units in any period ("teetotal", "ex-drinker",
#: "abstinent 6/12", "nil - abstinent since 2018": walk-through 70's liver clinic wrote
#: 124 such cells, and its alcohol column was left out as free text).
_NONE_NOW = re.compile(
    # walk-through 79's sleep clinic: "0 - teetotal"
    r"\s{0,3}(?:(?:nil|none|0)\s{0,2}[-–:,]\s{0,2})?(?:teetotal|teetotaller|t/?t|abstinent|abstains|"
    r"abstaining|non[\s-]?drinker|does\s+not\s+drink|doesn'?t\s+drink|never\s+drinks?|"
    r"ex[\s-]?drinker|former\s+drinker|stopped\s+drinking|no\s+alcohol|nil\s+alcohol)"
    # ... and for how long or since when: "since 2018", "6/12", "(5 yrs)", "for 3 months"
    r"(?:\s{0,3}[-–(,]?\s{0,3}(?:since|for|x)?\s{0,3}\d{1,4}(?:/\d{1,4})?\s{0,2}"
    r"(?:years?|yrs?|y|months?|mths?|m|weeks?|wks?|w)?(?:\s+ago)?\s{0,2}\)?)?\s{0,3}",
    re.IGNORECASE)
#: A patient who drinks now and then, less than a unit or two a week: read as 1 unit a
#: week (walk-through 92's 81 "occasional" among units a week turned the column into 8
#: unordered answers).
_NOW_AND_THEN = re.compile(r"\s{0,3}(?:occasional(?:ly)?|occ\.?|rarely|seldom|infrequent(?:ly)?|"
                           r"special\s+occasions?(?:\s+only)?|(?:only\s+)?on\s+special\s+"
                           r"occasions|very\s+little|minimal)(?:\s+(?:drinker|use|only|"
                           r"drinks?))?\s{0,3}", re.IGNORECASE)
#: A band of units as a form offers it, "0-10", "10-20", "120-130": its middle.
_BAND = re.compile(r"\s{0,3}(\d{1,3})\s{0,2}[-–]\s{0,2}(\d{1,3})\s{0,3}(?:units?)?\s{0,3}",
                   re.IGNORECASE)


def _reader(days: float):
    def read(cell: str) -> str | None:
        v = drink_units(cell, days)
        if v is not None:
            return repr(v)
        if len(cell) <= 48 and _NONE_NOW.fullmatch(cell):
            return "0"
        if len(cell) <= 40 and _NOW_AND_THEN.fullmatch(cell):
            return repr(round(days / 7, 3))  # 1 unit a week, in the column's period
        m = _BAND.fullmatch(cell) if len(cell) <= 20 else None
        if m and int(m.group(1)) < int(m.group(2)) <= int(m.group(1)) + 20:
            return repr((int(m.group(1)) + int(m.group(2))) / 2)
        return None
    return read


def _note(period: str):
    def note(col: str, n: int, example: str, new: str) -> str:
        return (f"Column '{_q(col)}': {n:,} cell(s) that write drinks read as UK units a "
                f"{period} (e.g. '{_q(example, 24)}' as {new}), by the NHS's sizes: a "
                "pint 2.3, a can 2, a glass of wine 2.1, a bottle of wine 9, a single "
                "measure 1, a bottle of spirits 28; a band of units ('10-20') as its "
                "middle, a patient who does not drink now (teetotal, abstinent, an "
                "ex-drinker) as 0, and one who drinks now and then ('occasional', "
                "'rarely') as 1 unit a week.")
    return note


def read_alcohol(df: pd.DataFrame) -> pd.DataFrame:
    """The table with the cells of a column named for alcohol that write drinks
    (:func:`drink_units`) rewritten as the UK units they come to, a week (a day when the
    column's name says so), and a note per column. Other tables are returned as they
    are."""
    names = [str(c) for c in named_columns(df, _ALCOHOL_NAME)]
    if not names:
        return df
    daily = [c for c in names if _DAILY_NAME.search(c)]
    weekly = [c for c in names if c not in daily]
    df = rewrite_named(df, weekly, _reader(7.0), _note("week"), share=0.02)
    return rewrite_named(df, daily, _reader(1.0), _note("day"), share=0.02)


__all__ = ["UNITS_PER_DRINK", "drink_units", "read_alcohol"]
