"""Growth centiles and standard deviation scores written in one column.

A paediatric ward writes a weight's place on the growth chart as a centile ("9th",
"50th centile", "25th-50th") or as a standard deviation score ("-1.2 SD", "0.4SDS",
"z -0.8"). The two are one measurement: a centile is the standard normal distribution's
share below the score (the UK-WHO charts' centile lines are drawn at z = 0, ±0.67, ±1.33,
±2, ±2.67), so one converts into the other exactly. Walk-through 60's "Wt centile" wrote
a seventh of its cells as scores, and the column was left out as mixing the units "SD"
and "SDS". Here a column named for centiles reads its scores as centiles, and a column
named for scores reads its centiles as scores; a note says how many.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd
from scipy.stats import norm

from sparge.data.combined_cells import rewrite_named
from sparge.data.parsing import ordinal_number
from sparge.data.safe_text import quote as _q

#: A column of centiles, and one of standard deviation scores, by their names.
_CENTILE_NAME = re.compile(r"centile|percentile|\bpctl\b|%ile", re.IGNORECASE)
_SCORE_NAME = re.compile(r"\bsds\b|z[\s-]?score|\bz\b|standard deviation score",
                         re.IGNORECASE)
#: A standard deviation score: "-1.2 SD", "0.4SDS", "+1.5 sds", "z -0.8", "z=1.1".
_SDS = re.compile(r"\s{0,3}(?:z\s{0,2}[=:]?\s{0,2})?([+-−]?\s{0,2}\d(?:\.\d{1,3})?)\s{0,3}"
                  r"(?:sds?|z(?:[\s-]?score)?)?\s{0,3}", re.IGNORECASE)
#: Centiles this close to 0 or 100 stand for the charts' lowest and highest lines.
_EDGE = 0.01


def sds_of(cell: object) -> float | None:
    """The standard deviation score a cell writes ("-1.2 SD": -1.2), or ``None``; a
    plain number is none (its unit is the column's)."""
    text = str(cell)
    if len(text) > 20 or not re.search(r"sd|z", text, re.IGNORECASE):
        return None
    m = _SDS.fullmatch(text)
    return None if m is None else float(re.sub(r"\s", "", m.group(1)).replace("−", "-"))


def centile_of_sds(z: float) -> float:
    """The centile of a standard deviation score (0: the 50th; -2: the 2.3rd)."""
    return float(100 * norm.cdf(z))


def sds_of_centile(centile: float) -> float:
    """The standard deviation score of a centile (the 9th: -1.34)."""
    c = min(max(centile, _EDGE), 100 - _EDGE)
    return float(norm.ppf(c / 100))


#: Centiles written as a band of two chart lines ("25th-50th", "9th - 25th centile") or
#: a limit ("<0.4th", ">99.6th").
_BAND = re.compile(r"\s{0,3}(\d{1,2}(?:\.\d)?)(?:st|nd|rd|th)?\s{0,2}[-–]\s{0,2}"
                   r"(\d{1,2}(?:\.\d)?)(?:st|nd|rd|th)\s{0,2}(?:(?:per)?centiles?)?\s{0,3}",
                   re.IGNORECASE)
_LIMIT = re.compile(r"\s{0,3}([<>]=?)\s{0,2}(\d{1,2}(?:\.\d{1,2})?)(?:st|nd|rd|th)"
                    r"\s{0,2}(?:(?:per)?centiles?)?\s{0,3}", re.IGNORECASE)


def _as_centile(cell: object) -> str | None:
    """A centile column's cell that is no plain centile, as one: a score ("-1.2 SD":
    "11.507"), a band's middle ("25th-50th": "37.5", as a range is read) or a limit
    ("<0.4th": "<0.4")."""
    text = str(cell)
    if len(text) > 30:
        return None
    if (z := sds_of(text)) is not None:
        return repr(round(centile_of_sds(z), 3))
    if m := _BAND.fullmatch(text):
        lo, hi = float(m.group(1)), float(m.group(2))
        return repr(round((lo + hi) / 2, 3)) if lo < hi else None
    if m := _LIMIT.fullmatch(text):
        return m.group(1) + m.group(2)
    return None


def _as_score(cell: object) -> str | None:
    """A score column's centile ("9th") as its score ("-1.341")."""
    c = ordinal_number(str(cell)) if len(str(cell)) <= 30 else None
    return None if c is None else repr(round(sds_of_centile(c), 3))


def _rewrite(df: pd.DataFrame, named: re.Pattern, read, what: str) -> pd.DataFrame:
    return rewrite_named(df, named, read, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} {what} (e.g. '{_q(example, 20)}' as {new}): a centile "
        "is the share of the standard normal distribution below the score (the growth "
        "charts' own relation)."), share=0.02)


def read_centiles(df: pd.DataFrame) -> pd.DataFrame:
    """A column named for centiles with its standard deviation scores read as centiles
    (and its bands as their middle, its limits as limits), and one named for scores with
    its centiles ("9th") read as scores."""
    df = _rewrite(df, _CENTILE_NAME, _as_centile,
                  "standard deviation score(s), bands or limits read as centiles")
    return _rewrite(df, _SCORE_NAME, _as_score, "centile(s) read as standard deviation scores")


__all__ = ["centile_of_sds", "read_centiles", "sds_of", "sds_of_centile"]
