"""A count of earlier events written as a yes: "yes x1", "yes x2", "Yes", "LSCS 2019"
among "0", "1", "2" and "no".

Walk-through 99's maternity export counted previous caesareans as numbers and words:
"no" and "none" were read as 0 and "x2" as 2, but "yes x1" (18), "Yes" (24), "yes x2"
and "LSCS 2019" (13), 57 of the 73 women with a previous caesarean, were set to missing.
In a column named for an earlier event (:data:`PREVIOUS_NAME`) whose cells are mostly
counts, a yes with its count ("yes x2", "yes (2)") is that count, and a yes without one
("Yes", an event with its year) is 1: at least one, read as its lower bound, as limits
are read. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import named_columns, rewrite_named
from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q

#: A column counting earlier events, by its name: "Previous caesarean", "Prior MIs",
#: "Number of previous admissions".
PREVIOUS_NAME = re.compile(r"\b(?:previous|prior|past|earlier)\b", re.IGNORECASE)
#: A yes with a count: "yes x2", "Yes (2)", "y - 3", "yes, 2".
_YES_COUNT = re.compile(r"\s*(?:yes|y)\s*(?:[x×(,:-]\s*|-\s*x\s*)(\d{1,2})\s*\)?\s*",
                        re.IGNORECASE)
#: A yes without a count: "Yes", "Y", "yes - once".
_YES = re.compile(r"\s*(?:yes|y|yes\s*-?\s*once|once)\s*", re.IGNORECASE)
#: An event written with its year: "LSCS 2019", "CS (2017)", "PPH 2020".
_WITH_YEAR = re.compile(r"\s*[A-Za-z][A-Za-z .'/-]{1,30}?\s*\(?(?:19|20)\d\d\)?\s*")
#: A count or a word for none.
_COUNT_OR_NONE = re.compile(r"\s*(?:\d{1,2}|x\s*\d{1,2}|no|none|nil|n|never)\s*",
                            re.IGNORECASE)


def yes_count(cell: object) -> str | None:
    """A count of earlier events written as a yes, as the count to read ("yes x2": "2",
    "Yes": "1", "LSCS 2019": "1"); ``None`` for any other cell.

    Examples
    --------
    >>> [yes_count(c) for c in ["yes x2", "Yes (3)", "Yes", "y", "LSCS 2019", "2", "no",
    ...                         "unknown"]]
    ['2', '3', '1', '1', '1', None, None, None]
    """
    text = str(cell).strip()
    if not text or len(text) > 40:
        return None
    if (m := _YES_COUNT.fullmatch(text)) is not None:
        return m.group(1)
    if _YES.fullmatch(text) or _WITH_YEAR.fullmatch(text):
        return "1"
    return None


def _counts_column(values: pd.Series) -> bool:
    """Whether most of a column's written cells are counts or words for none, a fifth
    of them numbers (a yes/no column's "no" and "N" are no counts)."""
    text = cell_text(values)
    text = text[text != ""]
    return bool(len(text)) and text.str.fullmatch(_COUNT_OR_NONE).mean() >= 0.5 and \
        text.str.fullmatch(r"\s*x?\s*\d{1,2}\s*").mean() >= 0.2


def read_event_counts(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the yeses of its columns counting earlier events read as counts (a
    note each); other columns and cells unchanged."""
    for col in named_columns(df, PREVIOUS_NAME):
        if not _counts_column(df[col]):
            continue
        df = rewrite_named(df, [col], yes_count, lambda col, n, example, new: (
            f"Column '{_q(col)}': {n:,} earlier event(s) written as a yes (e.g. "
            f"'{_q(example, 20)}' as {new}) read as their count; a yes without one, as 1 "
            "(at least one, read as its lower bound as limits are read)."), share=0.01)
    return df


__all__ = ["PREVIOUS_NAME", "read_event_counts", "yes_count"]
