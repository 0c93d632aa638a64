"""A chemotherapy's dose reduction written the ways day units write it ("DR 20%",
"-20%", "reduced to 80%", "80%"), read as the reduction in percent.

Walk-through 105's register wrote its dose reductions five ways in one column: "80%"
(the dose given, a 20 % reduction) was read as 80, "-20%" as -20, and "reduced to 80%"
was set to missing, so that 109 of 450 courses were misread. In a column named for a
dose reduction (:data:`REDUCTION_NAME`):

- "reduced to 80%", "to 80%", "80% dose" are the dose given: a reduction of 20;
- "-20%", "DR 20%", "20% reduction", "reduced by 20%" are the reduction: 20;
- a percentage alone above 50 is the dose given ("80%": 20), at most 50 the reduction
  ("20%"): no regimen is reduced by more than half and given;
- other cells stay for the column's own reading ("none", "nil" and "0" are 0).
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q

#: A column of dose reductions, by its name ("Dose reduction", "Dose reduced (%)", "DR").
REDUCTION_NAME = re.compile(r"dose\s*(?:reduction|reduced|red\b)|^dr\b", re.IGNORECASE)
_PCT = r"(\d{1,3}(?:\.\d)?)\s*%?"
#: The dose given: "reduced to 80%", "to 80%", "80% dose", "at 80%".
_GIVEN = re.compile(rf"(?:(?:dose\s+)?reduced\s+to|to|at|given\s+at)\s*{_PCT}(?:\s*dose)?|"
                    rf"{_PCT}\s*(?:of\s+)?(?:full\s+)?dose", re.IGNORECASE)
#: The reduction: "-20%", "DR 20%", "20% reduction", "reduced by 20%", "20% DR".
_REDUCED = re.compile(rf"-\s*{_PCT}|(?:dr|reduced\s+by|reduction(?:\s+of)?)\s*:?\s*{_PCT}|"
                      rf"{_PCT}\s*(?:dr|reduction|reduced)", re.IGNORECASE)
#: A percentage alone.
_ALONE = re.compile(r"(\d{1,3}(?:\.\d)?)\s*%")


def reduction_of(cell: object) -> float | None:
    """The dose reduction in percent a cell writes, or ``None`` (a plain number, a word).

    >>> [reduction_of(c) for c in ("reduced to 80%", "-25%", "DR 15%", "80%", "20%", "0")]
    [20.0, 25.0, 15.0, 20.0, 20.0, None]
    """
    text = str(cell).strip()
    if not text or len(text) > 40:
        return None
    if m := _GIVEN.fullmatch(text):
        given = float(next(g for g in m.groups() if g is not None))
        return 100.0 - given if 0 < given <= 100 else None
    if m := _REDUCED.fullmatch(text):
        cut = float(next(g for g in m.groups() if g is not None))
        return cut if 0 <= cut < 100 else None
    if m := _ALONE.fullmatch(text):
        v = float(m.group(1))
        return 100.0 - v if 50 < v <= 100 else v if v <= 50 else None
    return None


def read_dose_reductions(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the cells of each column named for a dose reduction read as the
    reduction in percent, and a note per column in ``attrs["sparge_read_notes"]``."""
    return rewrite_named(df, REDUCTION_NAME, lambda c: None if (v := reduction_of(c)) is None
                         else f"{v:g}", lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} dose reduction(s) written as the dose given or the "
        f"reduction (e.g. '{_q(example, 20)}' as {format_number(float(new))}) read as the "
        "reduction in percent ('reduced to 80%' and '80%' are 20; '-20%' and 'DR 20%' are "
        "20)."), share=0.005)


__all__ = ["REDUCTION_NAME", "read_dose_reductions", "reduction_of"]
