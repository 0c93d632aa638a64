"""Visual acuity as eye clinics write it ("6/12", "6/9-2", "20/40", "CF", "HM", "PL"),
read as logMAR in the columns named for it.

Walk-through 77's medical retina clinic wrote each eye's acuity as Snellen fractions,
metric and imperial, logMAR decimals and the low-vision words: as text, more than 30
answers, and both eyes' acuity was left out as free text — the measure that clinic reads
first. Read as logMAR, the acuity is one number per eye, lower is better (0 is 6/6 or
20/20, 1.0 is 6/60):

- a Snellen fraction ``d/x`` (6/12, 20/40, 3/60) is ``log10(x / d)``; letters read beyond
  or missed on the line ("6/9+2", "6/9-2") are 0.02 each (five letters a line of 0.1);
- "CF" (counts fingers) 2.0 and "HM" (hand movements) 2.3, as Schulze-Bonsel et al. (2006)
  measured them; "PL" (perceives light) 2.7 and "NPL" (no perception of light) 3.0, the
  values most studies give them (no chart measures them; their order is what counts);
- a plain number is logMAR as written.

Only a column named for acuity (:data:`ACUITY_NAME`) is read so, not one named for decimal
acuity ("VA decimal", 1.0 is 6/6: its numbers are no logMAR, and fractions beside them
would be read on another scale); the report says so.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from sparge.data.combined_cells import named_columns, rewrite_named
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q

#: A column of visual acuity, by its name ("VA_right", "BCVA LE", "Visual acuity (OD)",
#: "logMAR R", "Snellen"), not "Valproate", "Vascular" nor a "CVA" (a stroke).
ACUITY_NAME = re.compile(r"(?<![a-z])(?:bc|uc|cc|sc|p)?va(?![a-z])|visual\s?acuity|\bacuity\b|"
                         r"logmar|snellen|\bvision\b", re.IGNORECASE)
#: A column of decimal acuity (1.0 is 6/6), left as written.
_DECIMAL_NAME = re.compile(r"decimal", re.IGNORECASE)
#: The low-vision words and their logMAR.
LOW_VISION = {"cf": 2.0, "hm": 2.3, "pl": 2.7, "npl": 3.0}
_LOW_WORDS = {
    "cf": ("cf", "cfs", "count fingers", "counts fingers", "counting fingers", "fc",
           "finger count", "finger counting"),
    "hm": ("hm", "hmm", "hand movements", "hand movement", "hand motion", "hm only"),
    "pl": ("pl", "lp", "plp", "pl+", "lp+", "light perception", "perception of light",
           "perceives light", "pl only", "lp only", "pl with projection",
           "pl without projection"),
    "npl": ("npl", "nlp", "no pl", "no lp", "no light perception",
            "no perception of light", "pl-", "lp-"),
}
_LOW_OF = {w: k for k, ws in _LOW_WORDS.items() for w in ws}
#: A low-vision word with where it was measured ("CF @ 1m", "HM 50cm", "CF at 2 ft").
_AT_DISTANCE = re.compile(r"\s*(?:@|at)?\s*\d{1,3}(?:\.\d)?\s*(?:m|cm|ft|feet|metres?|meters?)"
                          r"\s*$")
#: "6/12", "6/9-2", "6/7.5 +1", "20/40", "3/60", "6/18 ph", "6/18 ph 6/9".
_FRACTION = re.compile(r"(\d{1,2}(?:\.\d)?)\s?/\s?(\d{1,3}(?:\.\d{1,2})?)\s?(?:([+-])\s?(\d))?")
_PINHOLE = re.compile(r"\s*\(?\s*(?:ph|pinhole|p/h)\b\s*:?\s*", re.IGNORECASE)
_NUMBER = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*")
#: A Snellen fraction's test distance: 6 m, 20 ft, 3 or 1 m (a 6-m chart brought
#: nearer), 4 m (ETDRS), 10 ft.
_DISTANCES = frozenset({1.0, 2.0, 3.0, 4.0, 6.0, 10.0, 20.0})


def _fraction(match: re.Match) -> float | None:
    distance, size = float(match.group(1)), float(match.group(2))
    if distance not in _DISTANCES or size <= 0 or size < distance / 4 or size > 400:
        return None
    letters = int(match.group(4)) if match.group(4) else 0
    return math.log10(size / distance) + (0.02 * letters if match.group(3) == "-"
                                           else -0.02 * letters)


def logmar_of(cell: object) -> float | None:
    """The logMAR of an acuity written one of the ways clinics write it, or ``None``.

    Examples
    --------
    >>> [round(logmar_of(c), 2) for c in ("6/6", "6/12", "6/9-2", "20/40", "CF", "0.3")]
    [0.0, 0.3, 0.22, 0.3, 2.0, 0.3]
    >>> logmar_of("R2") is None
    True
    """
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    if not text or len(text) > 40:
        return None
    if _NUMBER.fullmatch(text):
        v = float(text)
        return v if -0.5 <= v <= 3.0 else None
    if text in _LOW_OF:
        return LOW_VISION[_LOW_OF[text]]
    if (bare := _AT_DISTANCE.sub("", text)) != text and bare in _LOW_OF:
        return LOW_VISION[_LOW_OF[bare]]
    first = _FRACTION.match(text)
    if first is None:
        return None
    value = _fraction(first)
    rest = text[first.end():]
    if value is None:
        return None
    if not rest.strip():
        return value
    if (ph := _PINHOLE.match(rest)) is not None:
        after = rest[ph.end():].strip(" )")
        if not after:  # "6/18 ph": the acuity with a pinhole
            return value
        second = _FRACTION.fullmatch(after)
        if second is not None and (better := _fraction(second)) is not None:
            return min(value, better)  # "6/18 ph 6/9": the best the eye reached
    return None


def read_visual_acuity(df: pd.DataFrame) -> pd.DataFrame:
    """The table with the acuities of each column named for visual acuity rewritten as
    logMAR (a note per column in ``df.attrs["sparge_read_notes"]``); a plain number stays
    as written (already logMAR), and cells that are no acuity stay for the column's own
    reading (gap words, typos)."""
    # the names looked at once per set of columns (a new patient's 469-column row is
    # read on every form change)
    named = [c for c in named_columns(df, ACUITY_NAME) if not _DECIMAL_NAME.search(str(c))]
    if not named:
        return df
    return rewrite_named(df, named, _logmar_text, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} visual acuities written as charts and clinics write "
        f"them (e.g. '{_q(example, 20)}' as {format_number(float(new))}) read as logMAR, "
        "lower is better (6/6 or 20/20 is 0, 6/60 is 1.0; CF 2.0, HM 2.3, PL 2.7, NPL "
        "3.0)."), share=0.05)


def _logmar_text(cell: object) -> str | None:
    v = logmar_of(cell)
    return None if v is None else f"{round(v, 3):g}"


__all__ = ["ACUITY_NAME", "LOW_VISION", "logmar_of", "read_visual_acuity"]
