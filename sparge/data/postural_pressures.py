"""A lying and a standing blood pressure written in one cell, read as the lying systolic
pressure and its drop on standing.

A falls, syncope or movement-disorders clinic measures the blood pressure lying and again
after standing, and writes both in one cell: "L 145/99 S 135/94", "137/90 lying 127/86
standing", "lying 172/84, standing 157/77 (3 min)", "126/60 -> 109/53". Walk-through 97's
"Lying/standing BP" was left out as free text, and with it orthostatic hypotension, a
cause of falls the clinic treats. What a clinician reads from the two is the systolic
drop on standing (orthostatic hypotension: 20 mmHg or more), so a column named for both
(:data:`POSTURAL_NAME`) where at least :data:`POSTURAL_MIN` cells write them is read as two
numeric columns: ``"<column> lying systolic"`` and ``"<column> systolic drop"`` (lying
minus standing; negative for a rise). "No postural drop" is a drop of 0; a cell with one
pressure gives the lying one; any other cell is a gap in both. Pure functions on a table
of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import replaced, text_columns, written_cells
from sparge.data.safe_text import quote as _q

#: A column of lying and standing pressures, by its name.
POSTURAL_NAME = re.compile(r"(?:lying|supine).{0,12}(?:standing|erect)|postural\s+(?:bp|blood)|"
                           r"orthostatic\s+(?:bp|blood)|\bl/s\s+bp\b", re.IGNORECASE)
#: Fewest cells writing two pressures for a column to be read so.
POSTURAL_MIN = 5
#: The two columns, after the column's name.
PARTS = ("lying systolic", "systolic drop")
_PAIR = r"(\d{2,3})\s*/\s*(\d{2,3})"
_LYING = r"(?:lying|supine|lie|l)"
_STANDING = r"(?:standing|stand|erect|s)"
_AFTER = r"(?:\s*\(?\s*(?:after\s+)?\d{1,2}\s*(?:min(?:ute)?s?|m)\s*\)?)?"
_SEP = r"\s*(?:[,;]|->|→|=>|>|then|and)?\s*"
#: "L 145/99 S 135/94", "lying 172/84, standing 157/77 (3 min)".
_NAMES_FIRST = re.compile(rf"\s*{_LYING}\s*:?\s*{_PAIR}{_SEP}{_STANDING}\s*:?\s*{_PAIR}"
                          rf"{_AFTER}\s*", re.IGNORECASE)
#: "137/90 lying 127/86 standing".
_NAMES_AFTER = re.compile(rf"\s*{_PAIR}\s*\(?{_LYING}\)?{_SEP}{_PAIR}\s*\(?{_STANDING}\)?"
                          rf"{_AFTER}\s*", re.IGNORECASE)
#: "126/60 -> 109/53": lying, then standing.
_ARROW = re.compile(rf"\s*{_PAIR}\s*(?:->|→|=>|>)\s*{_PAIR}{_AFTER}\s*", re.IGNORECASE)
_ONE = re.compile(rf"\s*(?:{_LYING}\s*:?\s*)?{_PAIR}\s*(?:\(?{_LYING}\)?)?\s*", re.IGNORECASE)
_NO_DROP = re.compile(r"\s*(?:no|nil|without)\s+(?:significant\s+)?(?:postural|orthostatic)"
                      r"\s+(?:drop|fall|hypotension)\s*|\s*no\s+drop\s*", re.IGNORECASE)


def postural_parts(cell: object) -> tuple[float | None, float | None] | None:
    """The lying systolic pressure and its drop on standing a cell writes, or ``None``
    for a cell that writes neither.

    Examples
    --------
    >>> [postural_parts(c) for c in ["L 145/99 S 135/94", "137/90 lying 127/86 standing",
    ...                              "lying 172/84, standing 157/77 (3 min)",
    ...                              "126/60 -> 109/53", "110/71", "no postural drop",
    ...                              "unable to stand"]]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(145.0, 10.0), (137.0, 10.0), (172.0, 15.0), (126.0, 17.0), (110.0, None),
     (None, 0.0), None]
    """
    text = str(cell).strip()
    if not text or len(text) > 80:
        return None
    if _NO_DROP.fullmatch(text):
        return None, 0.0
    for pattern in (_NAMES_FIRST, _NAMES_AFTER, _ARROW):
        m = pattern.fullmatch(text)
        if m is not None:
            ls, ld, ss, sd = (float(g) for g in m.groups())
            if not (ls > ld and ss > sd):
                return None
            return ls, ls - ss
    m = _ONE.fullmatch(text)
    if m is not None and float(m.group(1)) > float(m.group(2)):
        return float(m.group(1)), None
    return None


def postural_columns(fitted) -> list[str]:
    """The columns a model read as lying and standing pressures (``"<column> lying
    systolic"`` beside ``"<column> systolic drop"``)."""
    have = {str(c) for c in fitted}
    return [c[:-len(" lying systolic")] for c in have if c.endswith(" lying systolic")
            and f"{c[:-len(' lying systolic')]} systolic drop" in have]


def split_postural(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each column of lying and standing pressures read as the lying
    systolic pressure and its drop on standing, and a note. ``known``: a model's such
    columns (:func:`postural_columns`), read however few the rows."""
    out = df
    for col, forced in text_columns(df, known, lambda v: bool(POSTURAL_NAME.search(
            str(v.name)[:80]))):
        names = [f"{col} {p}" for p in PARTS]
        if any(n in out.columns for n in names):
            continue
        text, written = written_cells(df[col])
        read = {cell: postural_parts(cell) for cell in pd.unique(written)}
        both = sum(1 for c in written if (r := read[c]) and None not in r)
        if not forced and both < POSTURAL_MIN:
            continue
        parts = [read.get(t) for t in text]
        new = pd.DataFrame({
            names[0]: ["" if p is None or p[0] is None else repr(p[0]) for p in parts],
            names[1]: ["" if p is None or p[1] is None else repr(p[1]) for p in parts]},
            index=df.index)
        unread = sum(1 for c in written if read[c] is None)
        example = next((c for c in written if (r := read[c]) and None not in r), "")
        note = (f"Column '{_q(col)}': {both:,} lying and standing pressure(s) (e.g. "
                f"'{_q(example, 30)}') read as two numeric columns, '{_q(names[0])}' and "
                f"'{_q(names[1])}' (lying minus standing: 20 mmHg or more is orthostatic "
                "hypotension); 'no postural drop' as a drop of 0, a single pressure as the "
                "lying one" + (f"; {unread:,} other written cell(s) are gaps in both"
                               if unread else "") + "."
                if both else "")
        out = replaced(out, col, new, note)
    return out


__all__ = ["POSTURAL_NAME", "postural_columns", "postural_parts", "split_postural"]
