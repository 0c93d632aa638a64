"""How often, written in words, in a column that counts events in a period.

A diabetes clinic's "Hypos per month" writes most cells as counts ("0", "2", "2-3") and
some as how often: "weekly", "daily", "twice a week" (walk-through 64 lost 35 "weekly"
cells as missing). Such a cell is a rate, and the column's name says the period it is
counted in: "weekly" in a column per month is 4.3 (a month of 365.25 / 12 days). Only a
column named as a count in a period ("per month", "/wk", "a year") is read so; a
column of amounts in a period (alcohol units a week, cigarettes a day, a dose) is not.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.column_kinds import PAST_WINDOW
from sparge.data.combined_cells import named_columns, rewrite_named
from sparge.data.safe_text import quote as _q

#: Days in a period, by the words a column's name or a cell writes it with.
PERIOD_DAYS = {
    **dict.fromkeys(("day", "d", "daily", "night", "nightly", "evening", "dy"), 1.0),
    **dict.fromkeys(("week", "wk", "w", "weekly", "wkly", "wks", "weeks"), 7.0),
    **dict.fromkeys(("fortnight", "fortnightly"), 14.0),
    **dict.fromkeys(("month", "mth", "mo", "monthly", "months", "mths"), 365.25 / 12),
    **dict.fromkeys(("year", "yr", "annum", "yearly", "annually", "annual", "years", "yrs"),
                    365.25),
}
_PERIOD = r"day|d|night|week|wk|w|fortnight|month|mth|mo|year|yr|annum"
#: A column that counts events in a period, by its name: "Hypos per month", "Falls
#: (/yr)", "Seizures a week".
_COUNT_NAME = re.compile(rf"(?:\bper\s{{1,2}}|/\s?|\ba\s{{1,2}}|\beach\s{{1,2}})({_PERIOD})\b",
                         re.IGNORECASE)
#: ... not an amount in a period: alcohol, cigarettes, a dose, a volume, a time.
_AMOUNT_NAME = re.compile(r"unit|alcohol|etoh|cig|tobacco|smok|\bmg\b|\bml\b|\bg\b|kcal|"
                          r"calor|steps|hours?|hrs?|mins?|minutes|dose|insulin|\bl\b|litre|"
                          r"\bkg\b|pack", re.IGNORECASE)
_ADVERB_DAYS = {"daily": 1.0, "nightly": 1.0, "weekly": 7.0, "fortnightly": 14.0,
                "monthly": 365.25 / 12, "yearly": 365.25, "annually": 365.25}
_TIMES = {"once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
          "five": 5, "six": 6, "seven": 7, "ten": 10}
#: "weekly", "every day", "twice a week", "2x/week", "3 times per month", "once a
#: fortnight", "2 per wk", "every 2 weeks", "most days".
_ADVERB = re.compile(r"\s{0,3}(?:about\s|approx\.?\s?|~\s?)?(daily|nightly|weekly|"
                     r"fortnightly|monthly|yearly|annually)\s{0,3}", re.IGNORECASE)
_EVERY = re.compile(rf"\s{{0,3}}every\s{{1,2}}(?:(\d{{1,2}}|other|two|three)\s{{1,2}})?"
                    rf"({_PERIOD}|days|nights|weeks|wks|months|mths|years|yrs)\s{{0,3}}",
                    re.IGNORECASE)
_RATE = re.compile(rf"\s{{0,3}}(\d{{1,3}}(?:\.\d)?|{'|'.join(_TIMES)})"
                   rf"(?:\s{{0,2}}[-–]\s{{0,2}}(\d{{1,3}}))?\s{{0,2}}"
                   rf"(?:x|times?|episodes?|per)?\s{{0,2}}(?:/|per|a|an|each|every)\s{{0,2}}"
                   rf"({_PERIOD})\s{{0,3}}", re.IGNORECASE)


#: A count before or after how often, with "x" or "times": "x6 daily", "5x daily",
#: "twice daily", "3 times weekly" (walk-through 68's stool frequency).
_TIMES_ADVERB = re.compile(rf"\s{{0,3}}(?:x\s?(\d{{1,3}})|(\d{{1,3}}|{'|'.join(_TIMES)})"
                           r"\s?(?:x|times)?)\s{1,2}(daily|nightly|weekly|fortnightly|"
                           r"monthly|yearly|annually)\s{0,3}", re.IGNORECASE)
#: What a bowel habit's cell may write first: "BO 5x/day" (bowels open).
_COUNTED_FIRST = re.compile(r"\s{0,3}(?:bo|bowels open|bowels opened|stools?|bms?|bowel "
                            r"actions?|clusters?|seizures?|attacks?|episodes?)\s{1,2}",
                            re.IGNORECASE)
#: None in the period, or none since a year: "seizure-free", "SF since 2015", "nil since
#: 2019", "none", "no seizures" (walk-through 85's epilepsy clinic: 59 seizure-free
#: patients, the strongest sign of its outcome, were read as gaps).
_NONE = re.compile(r"\s{0,3}(?:seizure[\s-]?free|sf|nil|none|no (?:seizures?|events?|"
                   r"attacks?|episodes?)|free)(?:\s{1,2}(?:since|from)\s{1,2}"
                   r"(?:[a-z]{3,9}\.?\s{1,2})?(?:19|20)\d\d)?\s{0,3}", re.IGNORECASE)
#: A count in a past window: "x2 last month", "1 in last 18m", "3 in the past year".
_IN_LAST = re.compile(r"\s{0,3}(?:x\s?)?(\d{1,3}|once|twice|one|two|three)\s{0,2}(?:x\s{0,2})?"
                      r"(?:in\s{1,2})?(?:the\s{1,2})?(?:last|past|previous)\s{1,2}"
                      r"(\d{1,3})?\s{0,2}(m|mo|mths?|months?|w|wks?|weeks?|y|yrs?|years?|"
                      r"d|days?)\s{0,3}", re.IGNORECASE)
_WINDOW_DAYS = {"m": 365.25 / 12, "w": 7.0, "y": 365.25, "d": 1.0}
#: How often as prescriptions abbreviate it in a week: "TIW" (ter in week), "BIW", "QW"
#: (walk-through 106's dialysis sessions a week: 37 "TIW" set to missing).
_DOSING = {"tiw": 3 / 7, "biw": 2 / 7, "qw": 1 / 7, "qiw": 4 / 7}


def per_day(cell: object) -> float | None:
    """How many times a day a cell says something happens ("weekly": 1/7; "twice a
    month"; "x6 daily", "BO 5x/day", "10+ per day": at least 10), or ``None`` for a cell
    that writes no rate (a plain count is the column's).

    Examples
    --------
    >>> [per_day(c) for c in ("x6 daily", "BO 5x/day", "10+ per day", "twice daily")]
    [6.0, 5.0, 10.0, 2.0]
    >>> [per_day(c) for c in ("SF since 2015", "none", "clusters weekly")]
    [0.0, 0.0, 0.14285714285714285]
    >>> round(per_day("x2 last month") * 365.25 / 12, 6), round(per_day("1 in last 18m"), 5)
    (2.0, 0.00183)
    """
    text = str(cell)
    if len(text) > 32:
        return None
    text = _COUNTED_FIRST.sub("", text, count=1) if _COUNTED_FIRST.match(text) else text
    text = re.sub(r"(?<=\d)\+", "", text, count=1)  # "10+": at least 10
    if _NONE.fullmatch(text):
        return 0.0
    if (k := _DOSING.get(text.strip().lower())) is not None:  # "TIW": three times a week
        return k
    if m := _IN_LAST.fullmatch(text):
        n = m.group(1).lower()
        k = float(_TIMES.get(n, n))
        days = _WINDOW_DAYS[m.group(3)[0].lower()] * (int(m.group(2)) if m.group(2) else 1)
        return k / days if days else None
    if m := _TIMES_ADVERB.fullmatch(text):
        n = m.group(1) or m.group(2)
        k = _TIMES.get(n.lower())
        k = float(n) if k is None else float(k)
        return k / _ADVERB_DAYS[m.group(3).lower()]
    if m := _ADVERB.fullmatch(text):
        return 1 / _ADVERB_DAYS[m.group(1).lower()]
    if m := _EVERY.fullmatch(text):
        n = m.group(1)
        k = {"other": 2, "two": 2, "three": 3}.get((n or "").lower(), None)
        k = k if k is not None else (int(n) if n else 1)
        period = m.group(2).lower()
        days = PERIOD_DAYS.get(period, PERIOD_DAYS.get(period.rstrip("s")))
        return None if not k or days is None else 1 / (k * days)
    if m := _RATE.fullmatch(text):
        lo = _TIMES.get(m.group(1).lower())
        lo = float(m.group(1)) if lo is None else float(lo)
        hi = float(m.group(2)) if m.group(2) else lo
        if hi < lo or hi > 3 * lo + 3:
            return None
        return (lo + hi) / 2 / PERIOD_DAYS[m.group(3).lower()]
    return None


#: A column named for how often something happens, without a period ("Stool
#: frequency", "Bowel frequency"): its cells say the period ("6/day", "x4 daily").
_FREQUENCY_NAME = re.compile(r"\bfrequency\b|\bfreq\b", re.IGNORECASE)
#: A column that counts events in a past window (:data:`~sparge.data.column_kinds.
#: PAST_WINDOW`) is one too: "Falls (last 6 months)", "Exacerbations in the past year"
#: (walk-through 97's "weekly" fallers were gaps).
_COUNTED = re.compile(f"{_COUNT_NAME.pattern}|{_FREQUENCY_NAME.pattern}|"
                      f"{PAST_WINDOW.pattern}", re.IGNORECASE)
#: The period a cell writes: "6/day", "5 per day", "x4 daily", "twice a week".
_CELL_PERIOD = re.compile(rf"(?:/|\bper\s|\ba\s|\ban\s)\s?({_PERIOD})\b|"
                          r"\b(daily|nightly|weekly|fortnightly|monthly|yearly|annually)\b",
                          re.IGNORECASE)


def _cells_period(values: pd.Series) -> float | None:
    """The days of the period a column's cells write most ("6/day": 1), when at least a
    fifth of its written cells write one; ``None`` otherwise."""
    text = values.dropna().astype(str)
    if text.empty:
        return None
    counts = text.str.slice(0, 32).value_counts()
    found: dict[float, int] = {}
    for cell, n in counts.items():
        m = _CELL_PERIOD.search(cell)
        if m is not None:
            word = (m.group(1) or m.group(2)).lower()
            days = PERIOD_DAYS.get(word, _ADVERB_DAYS.get(word))
            if days is not None:
                found[days] = found.get(days, 0) + int(n)
    if not found or sum(found.values()) < 0.2 * len(text):
        return None
    return max(found, key=found.get)


def _reader(days: float):
    def read(cell: str) -> str | None:
        v = per_day(cell)
        return None if v is None else repr(round(v * days, 2))
    return read


def read_frequencies(df: pd.DataFrame) -> pd.DataFrame:
    """The table with each cell that says how often ("weekly", "twice a month") in a
    column counting events in a period (:data:`_COUNT_NAME`) rewritten as the count in
    that period, and a note per column. Other tables are returned as they are."""
    out = df
    for col in named_columns(df, _COUNTED):
        name = str(col)[:80]
        m = _COUNT_NAME.search(name)
        if _AMOUNT_NAME.search(name):
            continue
        window = PAST_WINDOW.search(name) if m is None else None
        if window is not None and window.group(2):  # "(last 6 months)": 6 months' days
            days = float(window.group(1) or 1) * _WINDOW_DAYS[window.group(2)[0].lower()]
            period = f"in its {window.group(0).strip()}"
        else:
            days = PERIOD_DAYS[m.group(1).lower()] if m is not None else \
                _cells_period(df[col])
            if days is None:
                continue
            period = {1.0: "a day", 7.0: "a week", 14.0: "a fortnight",
                      365.25: "a year"}.get(days, "a month")
        out = rewrite_named(out, [col], _reader(days),
                            lambda c, n, example, new, p=period: (
                                f"Column '{_q(c)}': {n:,} cell(s) that say how often read "
                                f"as a count {p} (e.g. '{_q(example, 20)}' as {new}; a "
                                "month is 365.25 / 12 days)."), share=0.02)
    return out


__all__ = ["PERIOD_DAYS", "per_day", "read_frequencies"]
