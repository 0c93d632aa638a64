"""A loop diuretic's dose, read as furosemide a day.

A heart-failure clinic writes the loop diuretic a patient takes as a dose and how often,
and sometimes the drug: "40mg bd", "80mg", "bumetanide 1mg", "torasemide 10mg od".
Walk-through 71's "Loop Diuretic Dose", among the strongest signs of congestion, was left
out as free text (a forced numeric role read "40mg bd" as 40 and set "80mg" to missing as
another unit). Here a column named for a loop diuretic's dose reads each cell as the
furosemide a day it comes to: the dose times how often it is taken (od 1, bd 2, tds 3,
qds 4), bumetanide at 40 times its dose and torasemide at twice its (the usual oral
equivalences: 1 mg bumetanide, 20 mg torasemide and 40 mg furosemide), a plain number as
milligrams of furosemide a day; a note says so.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of loop-diuretic doses, by its name.
DIURETIC_DOSE_NAME = re.compile(
    r"(?:loop\s+)?diuretic\s+dose|(?:furo|fru)semide\s+dose|loop\s+diuretic|"
    r"\bdiuretic\s*\(mg", re.IGNORECASE)
#: Milligrams of furosemide one milligram of each loop diuretic is worth (oral).
FUROSEMIDE_PER_MG = {"furosemide": 1.0, "frusemide": 1.0, "lasix": 1.0,
                     "bumetanide": 40.0, "burinex": 40.0, "torasemide": 2.0,
                     "torsemide": 2.0}
_TIMES = {"od": 1, "om": 1, "on": 1, "mane": 1, "nocte": 1, "daily": 1, "once daily": 1,
          "bd": 2, "bid": 2, "twice daily": 2, "tds": 3, "tid": 3, "qds": 4, "qid": 4}
_DRUG = "|".join(sorted(FUROSEMIDE_PER_MG, key=len, reverse=True))
_TIME = "|".join(sorted((re.escape(t) for t in _TIMES), key=len, reverse=True))
#: "bumetanide 1mg od", "40mg bd", "furosemide 80 mg", "50": the drug, the dose, how often.
_DOSE = re.compile(rf"\s{{0,3}}(?:({_DRUG})\s{{0,3}})?(\d{{1,3}}(?:\.\d{{1,2}})?)\s{{0,2}}"
                   rf"(?:mg)?\s{{0,3}}({_TIME})?\s{{0,3}}", re.IGNORECASE)


def furosemide_a_day(cell: object) -> float | None:
    """The furosemide a day a loop diuretic's dose comes to ("40mg bd": 80; "bumetanide
    1mg": 40), or ``None`` for a cell that writes no such dose."""
    text = str(cell)
    if len(text) > 40:
        return None
    m = _DOSE.fullmatch(text)
    if m is None:
        return None
    drug = (m.group(1) or "furosemide").lower()
    times = _TIMES[m.group(3).lower()] if m.group(3) else 1
    return round(float(m.group(2)) * times * FUROSEMIDE_PER_MG[drug], 2)


def _read(cell: str) -> str | None:
    v = furosemide_a_day(cell)
    # a plain number stays as written: it is already milligrams a day
    return None if v is None else repr(v)


def read_diuretic_doses(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its loop-diuretic dose columns' cells read as milligrams of furosemide
    a day (:func:`furosemide_a_day`); other columns and cells unchanged."""
    return rewrite_named(df, DIURETIC_DOSE_NAME, _read, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} dose(s) read as milligrams of furosemide a day (e.g. "
        f"'{_q(example, 30)}' as {new}): the dose times how often (od 1, bd 2, tds 3, "
        "qds 4), bumetanide 1 mg and torasemide 20 mg as 40 mg of furosemide; a plain "
        "number as milligrams a day."), share=0.02)
