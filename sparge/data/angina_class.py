"""The Canadian Cardiovascular Society (CCS) angina class, as a cardiac unit writes it
("CCS 2", "CCS2", "II", "class III", "no angina").

Walk-through 98's cardiac surgery export wrote its CCS angina class as numbers, after the
scale's initials, in Roman numerals and as "nil", "none" or "no angina": 22 unordered
answers, "none" read as a gap. The class is a number from 0 (no angina) to 4 (angina at
rest), so in a column named for it (:data:`CCS_NAME`) a cell is read as that number: the
initials or "class" before it are dropped, a Roman numeral is its number, and no angina
is 0. Classes beyond 0–4 and cells of any other form are left as written. Pure functions
on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of the CCS angina class, by its name ("CCS angina", "CCS class", "Angina
#: (CCS)", "Canadian Cardiovascular Society class").
CCS_NAME = re.compile(r"\bccs\b|canadian\s+cardiovascular", re.IGNORECASE)
_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "0": "0"}
_CELL = re.compile(r"\s*(?:ccs|class|angina)?\s*(?:class)?\s*[:=-]?\s*([0-4]|i{1,3}|iv)\s*",
                   re.IGNORECASE)
_NONE = re.compile(r"\s*(?:nil|none|no|no angina|angina free|asymptomatic|ccs\s*0|"
                   r"no chest pain)\s*", re.IGNORECASE)


def ccs_class(cell: object) -> str | None:
    """A CCS angina cell as the class's number ("CCS 2": "2", "III": "3", "no angina":
    "0"); ``None`` for a plain number (read as it is) and any other cell.

    Examples
    --------
    >>> [ccs_class(c) for c in ["CCS 2", "CCS4", "III", "class II", "no angina", "nil",
    ...                         "2", "5", "unstable"]]
    ['2', '4', '3', '2', '0', '0', None, None, None]
    """
    text = re.sub(r"\s+", " ", str(cell).strip())
    if not text or len(text) > 30:
        return None
    if _NONE.fullmatch(text):
        return "0"
    m = _CELL.fullmatch(text)
    if m is None:
        return None
    read = _ROMAN.get(m.group(1).lower(), m.group(1))
    return None if read == text else read


def read_ccs_classes(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its CCS angina columns' cells read as the class's number (a note
    each); other columns and cells unchanged."""
    return rewrite_named(df, CCS_NAME, ccs_class, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} CCS angina class(es) written with the scale's name, in "
        f"Roman numerals or in words (e.g. '{_q(example, 30)}' as {new}) read as the "
        "class's number (0, no angina, to 4, angina at rest)."), share=0.05)
