"""A blood group written in any of the ways a lab or a ward writes it, read as one answer
per ABO group and RhD type.

Walk-through 99's maternity export wrote its 8 blood groups 27 ways ("A RhD positive",
"A pos", "A+", "A Rh+", "A POS"; "O neg", "O-", "O RhD negative"): the model saw 27
answers, and the answers' pairing offered "AB RhD positive" as a spelling of "A RhD
positive". In a column named for a blood group (:data:`BLOOD_GROUP_NAME`) a cell that is
an ABO group with or without its RhD type is written as "A RhD positive", "O RhD
negative" or, without a type, "AB"; other cells ("awaiting", "see lab") are left as
written. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.levels import BLOOD_GROUP_NAME
from sparge.data.safe_text import quote as _q

_CELL = re.compile(
    r"\s*(?:group\s+)?(ab|a|b|o|0)\s*(?:group)?\s*[,/]?\s*"
    r"(?:(?:rh(?:esus)?\s*d?|d)\s*(?:[:-]\s*(?=[a-z]))?\s*)?"
    r"(pos(?:itive)?|neg(?:ative)?|\+\s*ve|-\s*ve|\+|-|−)?\s*", re.IGNORECASE)


def blood_group(cell: object) -> str | None:
    """A blood group cell in one spelling ("A pos": "A RhD positive", "O-": "O RhD
    negative", "ab": "AB"); ``None`` for a cell written so already and any other cell.

    Examples
    --------
    >>> [blood_group(c) for c in ["A pos", "O Rh+", "B-", "AB RhD negative", "O NEG",
    ...                           "A +ve", "ab", "A RhD positive", "awaiting", "0 pos",
    ...                           "A Rh-", "B Rh - neg"]]
    ['A RhD positive', 'O RhD positive', 'B RhD negative', None, 'O RhD negative', \
'A RhD positive', 'AB', None, None, 'O RhD positive', 'A RhD negative', 'B RhD negative']
    """
    text = re.sub(r"\s+", " ", str(cell).strip())
    if not text or len(text) > 24:
        return None
    m = _CELL.fullmatch(text)
    if m is None:
        return None
    group = m.group(1).upper().replace("0", "O")
    sign = (m.group(2) or "").lower()
    if not sign:
        read = group
    else:
        read = f"{group} RhD {'positive' if sign.startswith(('p', '+')) else 'negative'}"
    return None if read == text else read


def read_blood_groups(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its blood group columns' cells in one spelling each (a note each);
    other columns and cells unchanged."""
    return rewrite_named(df, BLOOD_GROUP_NAME, blood_group, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} blood groups written another way (e.g. "
        f"'{_q(example, 20)}' as '{new}') read as their ABO group and RhD type."),
        share=0.05)


__all__ = ["BLOOD_GROUP_NAME", "blood_group", "read_blood_groups"]
