"""A Parkinson's disease motor score examined ON and OFF medication, in one cell.

A movement-disorders clinic examines a patient with motor fluctuations twice, in the ON
state (on medication) and in the OFF state, and writes both in one cell of its UPDRS
column: "ON 30 / OFF 49", "on 56, off 68", "OFF 66 ON 45", "55 (on) 76 (off)", "ON: 35".
Walk-through 97's MDS-UPDRS part III, the clinic's main motor measure, was left out as
free text ("more than 30 different answers"), and read as numbers it lost every such cell:
the patients whose disease fluctuates. In a column named for the UPDRS
(:data:`UPDRS_NAME`) where at least :data:`ON_OFF_MIN` cells say a state, the column
keeps the ON score (a plain number is taken as the clinic's usual examination, on
medication) and a new column ``"<column> OFF"`` holds the OFF score, a gap where none is
written. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import replaced, text_columns, written_cells
from sparge.data.safe_text import quote as _q

#: A column of the (MDS-)UPDRS, any part, by its name.
UPDRS_NAME = re.compile(r"updrs|unified parkinson", re.IGNORECASE)
#: The OFF column's cell where no OFF score is written: not applicable (a gap that does
#: not count against the patient's share of missing values).
NOT_EXAMINED = "not applicable"
#: Fewest cells saying ON or OFF for a column to be read so.
ON_OFF_MIN = 5
_NUMBER = r"(\d{1,3}(?:\.\d)?)"
_STATE_FIRST = re.compile(rf"\b(on|off)\b\s*[:=-]?\s*{_NUMBER}(?![\d.])", re.IGNORECASE)
_NUMBER_FIRST = re.compile(rf"(?<![\d.]){_NUMBER}\s*\(?\s*(on|off)\b\s*\)?", re.IGNORECASE)
#: What may stand between the scores ("/", ",", ";", "and", "&", spaces, "meds").
_BETWEEN = re.compile(r"[\s/,;&+|]*(?:and|meds?|medication|state|mds-?updrs|updrs|iii)?"
                      r"[\s/,;&+|:]*", re.IGNORECASE)


def on_off_scores(cell: object) -> dict[str, float] | None:
    """The ON and OFF scores a cell writes (``{"on": 30.0, "off": 49.0}``, either alone),
    or ``None`` for a cell that says no state or holds anything else.

    Examples
    --------
    >>> [on_off_scores(c) for c in ["ON 30 / OFF 49", "OFF 66 ON 45", "on 56, off 68",
    ...                             "55 (on) 76 (off)", "ON: 35", "21 (on)", "30", "tired"]]
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'on': 30.0, 'off': 49.0}, {'off': 66.0, 'on': 45.0}, {'on': 56.0, 'off': 68.0},
     {'on': 55.0, 'off': 76.0}, {'on': 35.0}, {'on': 21.0}, None, None]
    """
    text = str(cell).strip()
    if not text or len(text) > 60:
        return None
    for pattern, state, number in ((_STATE_FIRST, 1, 2), (_NUMBER_FIRST, 2, 1)):
        found = list(pattern.finditer(text))
        if not found:
            continue
        rest = pattern.sub(" ", text)
        if not _BETWEEN.fullmatch(rest):
            continue
        out: dict[str, float] = {}
        for m in found:
            key = m.group(state).lower()
            if key in out:
                return None
            out[key] = float(m.group(number))
        return out
    return None


def on_off_columns(fitted) -> list[str]:
    """The columns a model read as ON and OFF scores (``"<column> OFF"`` among ``fitted``
    beside ``"<column>"``)."""
    have = {str(c) for c in fitted}
    return [c[:-4] for c in have if c.endswith(" OFF") and c[:-4] in have
            and UPDRS_NAME.search(c[:-4])]


def split_on_off(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each UPDRS column whose cells say ON and OFF read as two numeric
    columns, the ON score (and plain numbers) in ``"<column>"`` and the OFF score in
    ``"<column> OFF"``, and a note. ``known``: a model's such columns
    (:func:`on_off_columns`), read however few the rows."""
    out = df
    for col, forced in text_columns(df, known, lambda v: bool(UPDRS_NAME.search(
            str(v.name)[:80]))):
        if f"{col} OFF" in out.columns:
            continue
        text, written = written_cells(df[col])
        read = {cell: on_off_scores(cell) for cell in pd.unique(written)}
        stated = sum(1 for cell in written if read[cell])
        if not forced and stated < ON_OFF_MIN:
            continue
        on = [t if (r := read.get(t)) is None else repr(r["on"]) if "on" in r else ""
              for t in text]
        # no OFF examination written: a value that does not apply (only patients whose
        # motor state fluctuates are examined OFF), no gap against the patient's share
        off = [repr(r["off"]) if (r := read.get(t)) and "off" in r else NOT_EXAMINED
               for t in text]
        both = sum(1 for r in (read.get(t) for t in written) if r and len(r) == 2)
        example = next((c for c in written if read[c]), "")
        note = (f"Column '{_q(col)}': {stated:,} score(s) written for the ON and OFF "
                f"states (e.g. '{_q(example, 24)}', {both:,} with both) read as two numeric "
                f"columns: the ON score in '{_q(col)}', where a plain number is taken as "
                f"examined on medication, and the OFF score in '{_q(col)} OFF', which "
                "does not apply to the patients not examined OFF (not counted as missing)."
                if stated else "")
        new = pd.DataFrame({col: on, f"{col} OFF": off}, index=df.index)
        out = replaced(out, col, new, note)
    return out


__all__ = ["UPDRS_NAME", "on_off_columns", "on_off_scores", "split_on_off"]
