"""Columns that write several values in one cell (TNM stages "pT2N1M0", blood pressures
"142/88"): which text columns to look at, a quick look at their first cells, and the
column replaced by its parts with a note (:mod:`sparge.data.tnm`,
:mod:`sparge.data.blood_pressure`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import pandas as pd

from sparge.data.safe_text import first_cells

#: Cells of a column read to judge whether it may hold combined values at all.
SAMPLE = 200
#: ``df.attrs`` key: how many columns the parts added (a pressure's 2 parts: 1 more).
ADDED = "sparge_columns_added"


def mostly(values: pd.Series, matches: Callable[[str], object], share: float,
           fewest: int) -> bool:
    """Whether at least ``share`` of a column's first :data:`SAMPLE` filled cells match:
    a quick look before reading every cell (every column of a CSV is text when read, and a
    pandas call per column cost seconds on a 469-column table). Fewer than ``fewest``
    filled cells (unless the column has fewer rows) is no."""
    head = first_cells(values, SAMPLE)
    if len(head) < min(fewest, len(values)):
        return False
    return sum(1 for h in head if matches(h)) >= share * len(head)


def text_columns(df: pd.DataFrame, known: Iterable[str],
                 may_hold: Callable[[pd.Series], bool]) -> Iterator[tuple[str, bool]]:
    """The text columns of ``df`` to read for combined values, with whether each is
    ``known`` (split however few its cells: a model's column in a new patient's row)."""
    known = {str(c) for c in known}
    for col in list(df.columns):
        values = df[col]
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        forced = str(col) in known
        if forced or may_hold(values):
            yield col, forced


def replaced(df: pd.DataFrame, column: str, parts: pd.DataFrame, note: str
             ) -> pd.DataFrame:
    """``df`` with ``column`` replaced, in its place, by the columns of ``parts``, and
    ``note`` added to ``df.attrs["sparge_read_notes"]`` (and the columns added counted for
    :func:`source_columns`)."""
    at = list(df.columns).index(column)
    attrs = dict(df.attrs)
    out = pd.concat([df.iloc[:, :at], parts, df.iloc[:, at + 1:]], axis=1)
    out.attrs = attrs
    out.attrs["sparge_read_notes"] = [*attrs.get("sparge_read_notes", []),
                                      *([note] if note else [])]
    out.attrs[ADDED] = int(attrs.get(ADDED, 0)) + parts.shape[1] - 1
    return out


def source_columns(df: pd.DataFrame) -> int:
    """How many columns the file had: ``df``'s, less those its split cells added
    (walk-through 30: a 28-column file was said to have 29, its blood pressure read in
    two)."""
    return int(df.shape[1]) - int(df.attrs.get(ADDED, 0))
