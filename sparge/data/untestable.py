"""A test the patient could not do, read beside the test's column as a yes/no column.

An abbreviated mental test written "unable" (the patient too drowsy, too confused or
without a common language to answer), or a Glasgow coma scale written "T" (intubated), is
no gap of the record: the patient's share of missing values does not count it
(:func:`~sparge.data.parsing.untestable`). But the value itself is unknown, and the model
completes it like any gap, from what else the patient has: walk-through 102b's patients
whose AMTS was "unable", the frailest, were given look-alikes of AMTS 8 to 10. Read
beside the column, ``"<column>: could not be assessed"`` is Yes for those cells, No for a
cell with a score, and a gap for an empty cell or another word ("refused", "not done"),
so that patients who could not be tested are alike on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pandas as pd

from sparge.data.parsing import cell_text, cognitive_column, gcs_column, untestable
from sparge.data.safe_text import quote as _q

#: Fewest cells saying the test could not be done for a column of its own.
MIN_UNTESTABLE = 5
#: The name of the column read beside a test's: "<column>: could not be assessed".
SUFFIX = ": could not be assessed"
_SCORE = re.compile(r"\d")


def untestable_name(column: str) -> str:
    """The yes/no column read beside ``column``."""
    return f"{column}{SUFFIX}"


def _readings(values: pd.Series, column: str) -> pd.Series:
    """"Yes" where a cell says the test could not be done, "No" where it holds a score,
    "" elsewhere."""
    text = cell_text(values)
    said = pd.Series({u: untestable(u, column) for u in pd.unique(text)})
    out = pd.Series("", index=values.index, dtype=object)
    yes = text.map(said).astype(bool).to_numpy()
    out[yes] = "Yes"
    scored = ~yes & text.str.contains(_SCORE).to_numpy()
    out[scored] = "No"
    return out


def split_untestable(df: pd.DataFrame, known: Iterable[str] | None = None, skip=()
                     ) -> tuple[pd.DataFrame, list[str], list[str]]:
    """The table with a column :func:`untestable_name` after each test column (named for
    a coma scale or a cognitive test) with at least :data:`MIN_UNTESTABLE` cells saying
    the test could not be done; with ``known`` (a fitted encoder's), after those columns
    only, however few such cells (a new patient's one row). A column of that name already
    in the table (a form's box) keeps its answers; its empty cells are read from the
    test's.

    Returns
    -------
    table : DataFrame
    found : list of str
        The test columns read so.
    notes : list of str
        What was read, for the report.
    """
    skip = {str(c) for c in skip}
    out, found, notes = df, [], []
    for col in [str(c) for c in df.columns]:
        if col in skip or col.endswith(SUFFIX) or (known is not None and col not in known):
            continue
        if known is None and not (gcs_column(col) or cognitive_column(col)):
            continue
        reading = _readings(df[col], col)
        n = int((reading == "Yes").sum())
        if known is None and n < MIN_UNTESTABLE:
            continue
        name = untestable_name(col)
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        if name in out.columns:  # the form's box: its own answer first
            given = cell_text(out[name])
            out[name] = given.where(given != "", reading)
        else:
            at = list(out.columns).index(col) + 1
            out.insert(at, name, reading)
        found.append(col)
        if known is None:
            example = next(str(v) for v, r in zip(df[col], reading, strict=True)
                           if r == "Yes")
            notes.append(
                f"Column '{_q(col)}': {n:,} cells say the test could not be done (e.g. "
                f"'{_q(example, 30)}'): read as '{_q(name)}' Yes beside it (No where a "
                "score is written), so that patients who could not be tested are alike on "
                "it; the score itself is completed like a gap.")
    return out, found, notes


__all__ = ["MIN_UNTESTABLE", "SUFFIX", "split_untestable", "untestable_name"]
