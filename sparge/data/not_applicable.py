"""Cells saying a value does not apply, with the reason: "N/A - CS", "n/a (caesarean)",
"not applicable: no labour".

Walk-through 43's perineal trauma column held "N/A - CS" for 71 caesareans beside "n/a" for
46 others: the plain one was a gap, the one with its reason an answer of its own, which
split the caesareans in two and kept the column from being seen as one that does not
apply to them (:mod:`sparge.data.structural_gaps`). A cell that is a gap word for "not
applicable" followed by a short reason is that gap word; the reason is said in the note.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from sparge.data.combined_cells import columns_holding
from sparge.data.levels import synonym_groups
from sparge.data.parsing import cell_text, loose_key
from sparge.data.safe_text import quote as _q
from sparge.data.tables import norm_key

#: "N/A - CS", "NA (CS)", "n/a: elective", "not applicable - no labour", "not valid (FH)"
#: (bounded runs).
_WITH_REASON = re.compile(
    r" {0,3}(n/a|n\.a\.|na|not applicable|not valid) {0,3}(?:[-–:,;]|\() {0,3}"
    r"([^()]{1,30}?)\)? {0,3}",
    re.IGNORECASE)


#: "not done - tired", "not assessed (on holiday)", "not recorded: clinic overran".
_NOT_DONE_WITH_REASON = re.compile(
    r" {0,3}(not done|not assessed|not measured|not recorded|not tested|not performed)"
    r" {0,3}(?:[-–:,;]|\() {0,3}([^()]{1,30}?)\)? {0,3}", re.IGNORECASE)


#: A column asking about an earlier event: "Previous caesarean", "Prior PPH".
_PREVIOUS = re.compile(r"\b(?:previous|prior|past|earlier|history of|h/o)\b", re.IGNORECASE)
#: A reason saying there was no earlier pregnancy or birth: "primip", "nulliparous",
#: "first pregnancy", "P0".
_FIRST_PREGNANCY = re.compile(
    r"\s*(?:primip\w*|primigrav\w*|nullip\w*|first (?:pregnancy|baby|birth|delivery)|"
    r"1st (?:pregnancy|baby)|no previous (?:pregnanc\w*|births?|deliver\w*|babies)|"
    r"p\s*0|para\s*0|g\s*1\s*p\s*0)\s*", re.IGNORECASE)
#: The answers saying none, the first written that a column holds.
_NONE_WORDS = ("no", "none", "nil", "n", "0")


def _starts_like_na(value: object) -> bool:
    return isinstance(value, str) and value.lstrip()[:1] in ("n", "N")


def _answer(own: Mapping[str, str], reason: str) -> str | None:
    """The answer of ``own`` (``{normalised or loose key: answer}``) a reason names."""
    key = norm_key(reason.strip())
    found = own.get(key)
    return found if found is not None else own.get(loose_key(key))


def read_not_applicable(df: pd.DataFrame,
                        answers: Mapping | Callable[[], Mapping] | None = None
                        ) -> pd.DataFrame:
    """The table with each cell "not applicable" with a reason rewritten as "N/A" (a gap
    in every column), or as the reason where the reason is one of the column's answers
    ("N/A - informal" beside "Informal"), and a note per column in
    ``df.attrs["sparge_read_notes"]``. ``answers``: a fitted model's answers by column
    (``{normalised key: answer as written}``), for a new patient's row; or a function
    giving them, asked only when a cell gives a reason (a query's hot path).

    The columns with a cell starting like the gap word are found first, in one pass
    over a small table's cells (a pandas call per column cost 125 ms on a one-patient row
    of 468 columns) or a vectorised search per column of a large one; only those are
    read."""
    out = df
    text_cols = [j for j, dt in enumerate(df.dtypes)
                 if not (pd.api.types.is_numeric_dtype(dt) or pd.api.types.is_bool_dtype(dt))]
    if not text_cols or df.empty:
        return df
    # an "n" before any other letter or digit finds every cell starting like the gap
    # word (a large table's columns are searched vectorised)
    starts = columns_holding(df.iloc[:, text_cols], _starts_like_na, "^[^A-Za-z0-9]*[nN]")
    for j in np.asarray(text_cols)[starts]:
        col = df.columns[j]
        values = df.iloc[:, j]
        text = cell_text(values)
        # a test not done, with why: the gap word ("not done - tired": walk-through 97's
        # six UPDRS cells were reported as unreadable text)
        undone = [_NOT_DONE_WITH_REASON.fullmatch(c) if len(c) <= 40 else None
                  for c in text]
        if any(m is not None for m in undone):
            if out is df:
                out = df.copy()
                out.attrs = dict(df.attrs)
            said = pd.Series([m.group(1).lower() if m is not None else None
                              for m in undone], index=values.index)
            example = next(c for c, m in zip(text, undone, strict=True) if m is not None)
            values = values.where(said.isna(), said)
            out[col] = values
            text = cell_text(values)
            out.attrs["sparge_read_notes"] = [
                *out.attrs.get("sparge_read_notes", []),
                f"Column '{_q(col)}': {int(said.notna().sum()):,} cell(s) saying a test was "
                f"not done, with why (e.g. '{_q(example.strip(), 24)}'), read as a gap."]
        matches = [_WITH_REASON.fullmatch(c) if len(c) <= 40 else None for c in text]
        found = pd.Series([m is not None for m in matches], index=values.index)
        if not found.any():
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        # a reason that is one of the column's own answers is that answer: walk-through
        # 52's "N/A - informal" beside 224 "Informal" in a Mental Health Act status
        # each answer as the column writes it most often ("Informal", not the reason's
        # "informal")
        if callable(answers):
            answers = answers()
        own = dict((answers or {}).get(str(col), {}))
        counts = text[~found & (text != "")].value_counts()
        for spelled in counts.index[::-1]:  # the most common last: it wins
            own[norm_key(spelled)] = spelled
        # ... or another name of one (walk-through 56's "n/a - Tx" beside "transplanted"
        # in a transplant list status)
        groups = synonym_groups(str(col))
        for group in groups:
            members = set(group)
            spelled = [own[k] for k in own if loose_key(k) in members]
            if spelled:
                for word in group:
                    own.setdefault(word, spelled[-1])
        named = pd.Series([_answer(own, m.group(2)) if m is not None else None
                           for m in matches], index=values.index)
        # ... but not in a column of numbers, whose stray words are no answers
        # (walk-through 72's time to theatre: "n/a - not operated" was said read as
        # "not operated", then set to missing as text)
        filled = text[~found & (text != "")]
        numbers = bool(len(filled)) and filled.str.match(r"\s*[<>≤≥]?\s*\d").mean() > 0.5
        if numbers:
            named[:] = None
        # ... and an earlier event "not applicable" in a first pregnancy did not happen:
        # none (walk-through 99's previous caesarean "N/A - primip" in 30 women)
        none = None
        if _PREVIOUS.search(str(col)[:80]):
            none = "0" if numbers else next((own[k] for k in _NONE_WORDS if k in own), None)
        first = pd.Series([none is not None and m is not None
                           and _FIRST_PREGNANCY.fullmatch(m.group(2)) is not None
                           for m in matches], index=values.index)
        if first.any():
            named[first] = none
        gap = found & named.isna()
        out[col] = values.where(~gap.to_numpy(), "N/A").where(named.isna(), named)
        notes = []
        if gap.any():
            example = str(text[gap].iloc[0]).strip()
            notes.append(
                f"Column '{_q(col)}': {int(gap.sum()):,} cell(s) saying it does not apply, "
                f"with the reason (e.g. '{_q(example, 20)}'), read as not applicable (a gap).")
        if first.any():
            example = str(text[first].iloc[0]).strip()
            notes.append(
                f"Column '{_q(col)}': {int(first.sum()):,} cell(s) saying it does not apply "
                f"in a first pregnancy (e.g. '{_q(example, 20)}') read as '{_q(none, 20)}': "
                "there was no earlier pregnancy for it to happen in.")
        named[first] = None
        if named.notna().any():
            example = str(text[named.notna()].iloc[0]).strip()
            notes.append(
                f"Column '{_q(col)}': {int(named.notna().sum()):,} cell(s) saying it does not "
                f"apply with a reason that is one of its answers (e.g. '{_q(example, 20)}'), "
                f"read as that answer ('{_q(str(named.dropna().iloc[0]), 20)}').")
        out.attrs["sparge_read_notes"] = [*out.attrs.get("sparge_read_notes", []), *notes]
    return out
