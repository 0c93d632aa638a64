"""Answers that write an event with its year ("MI 2015", "Stroke (2016)", "CABG - 2012"):
read as the event, the year set aside.

Walk-through 90's lipid clinic wrote its "Prior ASCVD" as "No", "MI 2015", "NSTEMI 2019",
"Stroke 2016" and so on: more than thirty answers, each event once per year, and the
column was left out of the model as free text. Read as the event, it holds a dozen
answers (No, MI, NSTEMI, stroke, TIA, PCI, CABG …), the kinds of event the clinician
means; the years, one per patient, say when, which no answer code can.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from sparge.data.age_dates import DURATION_NAME, YEAR_NAME
from sparge.data.combined_cells import columns_holding
from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q
from sparge.data.tables import norm_key

#: An event and its year: "MI 2015", "Stroke (2016)", "CABG - 2012", "PCI in 2018",
#: "STEMI '09" is not read (two digits may be anything).
_EVENT_YEAR = re.compile(
    r"\s*(?P<event>[A-Za-z][A-Za-z0-9 '/&+.-]{0,38}?)[\s,;:-]*\(?\s*(?:(?<![A-Za-z])(?:in|on)\s+)?"
    r"(?P<year>(?:19|20)\d\d)\s*\)?"
    # ... and a note after the year: "Rejection 2016 - pulsed" (walk-through 100: one
    # answer per year of its rejections, no two alike)
    r"(?:\s{0,3}[-–:,]\s{0,3}(?P<note>[A-Za-z][A-Za-z ]{0,20}?))?\s*")
#: Events that are no event but a date's or a habit's words: "Jan 2015", "since 2010",
#: "stopped 2015" (a former smoker: read by the smoking scale), "dx 2010".
_NOT_EVENTS = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|"
    r"april|june|july|august|september|october|november|december|since|from|until|till|"
    r"before|after|in|on|stopped|quit|quitted|ceased|gave up|ex|former|diagnosed|dx|"
    r"diagnosis|started|start|began|year|yr|age|last|first|approx|circa|c|about|pre|"
    r"post|end|mid|early|late|summer|winter|spring|autumn|fall|week|wk|q[1-4])\.?$",
    re.IGNORECASE)
#: A cell that may write an event and its year.
_MAYBE = re.compile(r"[A-Za-z][^\n]{0,40}(?<!\d)(?:19|20)\d\d[ \t)]*"
                    r"(?:[-–:,][ \t]{0,3}[A-Za-z][A-Za-z \t]{0,20})?$", re.MULTILINE)
#: Answers saying no event happened.
_NO_EVENT = frozenset({"no", "n", "none", "nil", "0", "never", "negative", "neg", "nil known",
                       "no rejection", "not applicable", "n/a", "na"})
#: A column is read so when at least this many of its distinct answers write an event
#: and its year ...
MIN_ANSWERS = 3
#: ... and they are at least this share of its filled cells (those not saying none).
MIN_SHARE = 0.1


def _may_hold(cell: object) -> bool:
    return isinstance(cell, str) and _MAYBE.search(cell) is not None


def event_of(cell: object) -> str | None:
    """The event a cell writes with its year, or ``None``.

    Examples
    --------
    >>> event_of("MI 2015"), event_of("Stroke (2016)"), event_of("CABG - 2012")
    ('MI', 'Stroke', 'CABG')
    >>> event_of("Jan 2015"), event_of("2015"), event_of("stopped 2015"), event_of("No")
    (None, None, None, None)
    >>> event_of("Rejection 2016 - pulsed"), event_of("BPAR 2011"), event_of("Rejection 2010")
    ('Rejection - pulsed', 'BPAR', 'Rejection')
    >>> event_of("HD since Oct 2001"), event_of("PCI Jan 2015")
    (None, None)
    """
    if not isinstance(cell, str) or len(cell) > 50:
        return None
    m = _EVENT_YEAR.fullmatch(cell)
    if m is None:
        return None
    event = m.group("event").strip(" -,;:(")
    if not event or _NOT_EVENTS.match(event) or not re.search(r"[A-Za-z]{2}", event):
        return None
    # a date, not an event's year: "HD since Oct 2001" (walk-through 100 read the
    # dialysis "HD since Oct")
    if re.search(r"\b(?:since|from|until|till|before|after)\b", event, re.IGNORECASE) or \
            _NOT_EVENTS.match(event.rsplit(" ", 1)[-1]):
        return None
    note = (m.group("note") or "").strip()
    return f"{event} - {note}" if note else event


def read_event_years(df: pd.DataFrame,
                     answers: Mapping | Callable[[], Mapping] | None = None) -> pd.DataFrame:
    """The table with the answers that write an event and its year read as the event, in
    each text column where at least :data:`MIN_ANSWERS` distinct answers do (and
    :data:`MIN_SHARE` of its filled cells); and a note per column. ``answers``: a fitted
    model's answers by column: a new patient's "MI 2021" is read as "MI" where "MI" is
    one of them (and "MI 2021" is not), however few the rows. Columns named as a year or
    a duration are left to :mod:`sparge.data.age_dates`.
    """
    out = df
    dtypes = df.dtypes
    at = [j for j, c in enumerate(df.columns) if not YEAR_NAME.search(str(c))
          and not DURATION_NAME.search(str(c))
          and not pd.api.types.is_numeric_dtype(dtypes.iloc[j])
          and not pd.api.types.is_bool_dtype(dtypes.iloc[j])]
    # a quick look first, for a year after a word: a small table's cells in one pass, a
    # larger one's by a vectorised search per column
    maybe = columns_holding(df.iloc[:, at], _may_hold, r"[A-Za-z].*(?:19|20)\d\d") \
        if at else np.zeros(0, bool)
    for j in np.asarray(at, dtype=int)[maybe]:
        col = df.columns[j]
        name = str(col)
        values = df[col]
        text = cell_text(values)
        codes, uniques = pd.factorize(text)
        events = [event_of(u) for u in uniques]
        found = [i for i, e in enumerate(events) if e is not None]
        if not found:
            continue
        if callable(answers):  # asked once, and only of a table with such a cell
            answers = answers()
        fitted = answers is not None
        known = answers.get(name) if fitted else None
        if fitted:
            if not known:
                continue
            own = {norm_key(str(a)) for a in known}
            found = [i for i in found if norm_key(uniques[i]) not in own
                     and norm_key(events[i]) in own]
            if not found:
                continue
        else:
            counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
            # of the cells saying something happened: walk-through 100's 17 dated
            # rejections were 4 % of a column of mostly "nil", "No" and "None"
            filled = counts[[i for i, u in enumerate(uniques)
                             if u and norm_key(u) not in _NO_EVENT]].sum()
            if len(found) < MIN_ANSWERS or counts[found].sum() < MIN_SHARE * max(filled, 1):
                continue
        rewrite = np.full(len(uniques) + 1, None, dtype=object)
        for i in found:
            rewrite[i] = events[i]
        new = rewrite[codes]
        rows = np.flatnonzero(new != None)  # noqa: E711 (an object array)
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        cells = values.to_numpy(dtype=object).copy()
        cells[rows] = new[rows]
        out[col] = cells
        first = int(rows[0])
        kinds = len({events[i].lower() for i in found})
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            f"Column '{_q(name)}': {len(rows):,} answer(s) that write an event with its year "
            f"(e.g. '{_q(text.iat[first], 30)}', CSV line {first + 2}) read as the event "
            f"('{_q(new[first], 30)}'; {kinds} kind(s) of event): the years are set aside, "
            "as no answer's code can say when. A column of the years would."]
    return out
