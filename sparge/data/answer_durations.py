"""An answer written with how long it has lasted, in one cell: "HD 3y 2m", "PD 50 months",
"Haemodialysis 2.9 yrs" beside "HD", "PD" and "pre-emptive".

Walk-through 100's kidney transplant register wrote its recipients' dialysis before the
transplant so: the modality and, for 329 of 487, the years on it (a graft's outcome
depends on both). With an answer per patient the column held more than 30 answers and was
left out whole. It is read as two columns, side by side:

* ``<name>``: the answer, its duration set aside ("HD 3y 2m" is "HD");
* ``<name> (years)``: the duration, in years; 0 for an answer saying there was none
  ("pre-emptive", "nil"), a gap where only the answer is written.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import columns_holding, replaced, written_cells
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q

#: An answer, then its duration: "HD 3y 2m", "PD 50 months", "Haemodialysis 2.9 yrs",
#: "HD for 4 years", "CAPD - 18 mths" (bounded runs).
_ANSWER_DURATION = re.compile(
    r"\s{0,3}(?P<answer>[A-Za-z][A-Za-z /&'()-]{0,28}?)[\s,:;(-]{1,4}(?:for\s{1,3})?"
    r"(?:(?P<y>\d{1,2})\s{0,2}(?:y|yr|yrs|years?)\.?\s{0,3},?\s{0,3}"
    r"(?P<m>\d{1,2})\s{0,2}(?:m|mo|mos|mths?|months?)\.?|"
    r"(?P<n>\d{1,3}(?:\.\d{1,2})?)\s{0,2}(?P<unit>y|yr|yrs|years?|m|mo|mos|mths?|months?|"
    r"w|wk|wks|weeks?))\)?\s{0,3}", re.IGNORECASE)
_UNIT_YEARS = {"y": 1.0, "m": 1 / 12, "w": 7 / 365.25}
#: Answers saying there was none: their duration is 0.
NONE_WORDS = frozenset({"nil", "none", "no", "never", "pre-emptive", "preemptive",
                        "pre emptive", "nil - pre-emptive", "nil pre-emptive",
                        "none - pre-emptive", "not on dialysis", "no dialysis",
                        "pre-emptive transplant", "preemptive transplant"})
#: Column names this reading leaves alone: a smoking history's "ex 10 years" is read by
#: the smoking scale, an age or a duration column by the readers of durations.
_OTHER_NAME = re.compile(r"smok|tobacco|cigar|\bage\b|duration|how long|years?\b|months?\b|"
                         r"\byrs\b|\bdate\b", re.IGNORECASE)
#: A cell that may write an answer with a duration or since a date (a quick look).
_MAYBE = re.compile(r"[A-Za-z].{0,40}?(?:\d\s{0,2}[ymw]|since)", re.IGNORECASE)


def _may_hold(cell: object) -> bool:
    return isinstance(cell, str) and _MAYBE.search(cell) is not None


#: Suffix of the durations' column.
SUFFIX = " (years)"
#: Fewest cells with a duration, and their least share of the written cells, to split ...
FEWEST = 10
SHARE = 0.1
#: ... with at most this many different answers among them.
MAX_ANSWERS = 8


def answer_duration(cell: object) -> tuple[str, float] | None:
    """The answer and its duration in years written in one cell, or ``None``.

    Examples
    --------
    >>> answer_duration("HD 3y 2m"), answer_duration("PD 50 months")
    (('HD', 3.1666666666666665), ('PD', 4.166666666666666))
    >>> answer_duration("Haemodialysis 2.9 yrs"), answer_duration("HD"), \
answer_duration("since 2002")
    (('Haemodialysis', 2.9), None, None)
    """
    text = str(cell)
    if len(text) > 50:
        return None
    m = _ANSWER_DURATION.fullmatch(text)
    if m is None:
        return None
    answer = m.group("answer").strip(" ,:;(-")
    if not re.search(r"[A-Za-z]{2}", answer):
        return None
    if m.group("y") is not None:
        years = int(m.group("y")) + int(m.group("m")) / 12
    else:
        years = float(m.group("n")) * _UNIT_YEARS[m.group("unit")[0].lower()]
    return answer, years


#: An answer since a date: "HD since Oct 2001", "PD since 03/2005".
_ANSWER_SINCE = re.compile(r"\s{0,3}(?P<answer>[A-Za-z][A-Za-z /&'()-]{0,28}?)[\s,:;-]{1,4}"
                           r"since\s{1,3}(?P<date>[A-Za-z0-9/.\- ]{4,20}?)\s{0,3}",
                           re.IGNORECASE)
#: Share of the rows with a date since which the row's own date must follow, for that
#: date column to end the durations.
_AFTER_SHARE = 0.9


def _since(written: pd.Series, df: pd.DataFrame, col) -> tuple[pd.Series, pd.Series, str | None]:
    """The answers written since a date, their durations in years up to the row's own
    date (the first column of dates, not of birth, following those dates in
    :data:`_AFTER_SHARE` of the rows: walk-through 100's "Date of Tx"), and that column
    (``None``: no durations)."""
    from sparge.data.age_dates import BIRTH_NAME
    from sparge.data.column_kinds import looks_like_dates
    from sparge.data.dates import read_dates
    from sparge.data.parsing import cell_text

    m = written.str.extract(f"^(?:{_ANSWER_SINCE.pattern})$", flags=re.IGNORECASE).dropna()
    years = pd.Series(np.nan, index=m.index, dtype=float)
    if not len(m):
        return m.get("answer", pd.Series(dtype=object)), years, None
    start = read_dates(m["date"]).dates
    start.index = m.index
    for other in df.columns:
        if other == col or BIRTH_NAME.search(str(other).split(" of ", 1)[0]) or \
                pd.api.types.is_numeric_dtype(df[other]):
            continue
        cells = cell_text(df[other])
        if (cells != "").mean() < 0.5 or not looks_like_dates(cells):
            continue
        end = read_dates(df[other]).dates.reset_index(drop=True)
        end = pd.Series(end.to_numpy(), index=df.index)[m.index]
        both = start.notna() & end.notna()
        if both.sum() and (end[both] >= start[both]).mean() >= _AFTER_SHARE:
            years = ((end - start).dt.days / 365.25).where(both & (end >= start))
            return m["answer"].str.strip(), years, str(other)
    return m["answer"].str.strip(), years, None


def typed_durations(row: dict) -> tuple[dict, list[str]]:
    """A form's values with an answer typed with how long it lasted ("HD 2y 6m") in the
    answer's field read as its two parts, the years into the "(years)" field when that is
    empty or says the same (walk-through 100b: the form's modality box did not take what
    a file's cell gives); and a note for each.

    Examples
    --------
    >>> typed_durations({"Dialysis": "HD 2y 6m", "Dialysis (years)": None})[0]
    {'Dialysis': 'HD', 'Dialysis (years)': 2.5}
    >>> typed_durations({"Dialysis": "HD 2y 6m", "Dialysis (years)": "4"})[0]["Dialysis"]
    'HD 2y 6m'
    """
    out = dict(row)
    notes = []
    for name in [c for c in out if f"{c}{SUFFIX}" in out]:
        read = answer_duration(out[name]) if isinstance(out[name], str) else None
        years = out[f"{name}{SUFFIX}"]
        if read is None:
            continue
        typed = pd.to_numeric(str(years).strip(), errors="coerce") \
            if years not in (None, "") else None
        if typed is not None and not abs(typed - read[1]) < 0.01:
            continue  # other years typed in their field: which is meant is not said
        out[name], out[f"{name}{SUFFIX}"] = read
        notes.append(f"'{_q(str(row[name]), 30)}' typed in '{_q(name)}' read as "
                     f"'{_q(read[0], 30)}' there and {format_number(round(read[1], 2))} "
                     f"in '{_q(name + SUFFIX)}'.")
    return out, notes


def duration_columns(fitted) -> list[str]:
    """The columns of a fitted model's features split so (their source's name), for a
    new patients' table: split there however few their durations."""
    return [str(c)[:-len(SUFFIX)] for c in fitted if str(c).endswith(SUFFIX)]


def split_answer_durations(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each text column of answers written with their duration (at least
    :data:`FEWEST` cells and :data:`SHARE` of the written ones, at most
    :data:`MAX_ANSWERS` answers among them, a column not named for a duration, an age
    or smoking) read as two: the answers in place, the durations in years in ``<name>
    (years)`` beside it, with a note. ``known``: the source columns a model was fitted
    with so (:func:`duration_columns`), split whatever their cells."""
    known = {str(c) for c in known}
    out = df
    dtypes = df.dtypes
    at = [j for j, c in enumerate(df.columns) if str(c) + SUFFIX not in df.columns
          and not pd.api.types.is_numeric_dtype(dtypes.iloc[j])
          and (str(c) in known or not _OTHER_NAME.search(str(c)))]
    # a quick look first, for a duration or a "since" after a word: a small table's cells
    # in one pass, a larger one's by a vectorised search per column (a pandas call per
    # column cost half a second on a one-row, 469-column query)
    maybe = columns_holding(df.iloc[:, at], _may_hold, _MAYBE.pattern) if at else []
    maybe = np.asarray(maybe, dtype=bool) | np.isin([str(df.columns[j]) for j in at],
                                                    list(known))  # a model's: always
    for j in np.asarray(at, dtype=int)[maybe]:
        col = df.columns[j]
        name = str(col)
        forced = name in known
        text, written = written_cells(df[col])
        if not len(written):
            continue
        found = written.map(answer_duration).dropna()
        if not forced and (len(found) < max(FEWEST, SHARE * len(written))
                           or len({a.lower() for a, _ in found}) > MAX_ANSWERS):
            continue
        if not len(found) and not forced:
            continue
        answers = df[col].astype(object).copy()
        years = pd.Series(np.nan, index=df.index, dtype=float)
        for row, (answer, value) in found.items():
            answers[row] = answer
            years[row] = value
        # ... and an answer since a date, up to the row's own date
        since, since_years, until = _since(written.drop(found.index), df, col)
        answers[since.index] = since
        years[since_years.index] = since_years
        none = written[written.str.lower().str.strip().isin(NONE_WORDS)].index
        years[none] = 0.0
        shown = years.map(lambda v: "" if np.isnan(v) else f"{v:.6g}")
        parts = pd.DataFrame({col: answers, name + SUFFIX: shown}, index=df.index)
        if len(found):
            row = found.index[0]
            answer, value = found[row]
            note = (f"Column '{_q(name)}' writes {len(found):,} answer(s) with how long they "
                    f"lasted (e.g. '{_q(written[row], 24)}': '{_q(answer, 20)}' for "
                    f"{format_number(round(value, 1))} years): the answers are read in "
                    f"place, the durations into '{_q(name + SUFFIX)}', in years"
                    + (f" (0 for the {len(none):,} answer(s) saying there was none, such as "
                       f"'{_q(written[none[0]], 20)}')" if len(none) else "")
                    + (f"; {len(since):,} written since a date (e.g. "
                       f"'{_q(written[since.index[0]], 24)}') last until the row's "
                       f"'{_q(until, 30)}'" if len(since) and until else
                       f"; {len(since):,} written since a date have no duration (no date "
                       "of the row follows it)" if len(since) else "")
                    + "; an answer written without one has a gap there.")
        else:
            note = ""
        out = replaced(out, col, parts, note)
    return out
