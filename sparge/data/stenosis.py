"""An artery's stenosis as a vascular or stroke clinic writes it ("70-99%", "NASCET 80%",
"severe 70-99%", "occluded", "no significant stenosis").

Walk-through 96's stroke clinic wrote the carotid stenosis of the symptomatic side as
percentages, bands, the grading method's name before them and words: twenty unordered
answers, "70-99%" apart from "NASCET 80%" and "90%", "Occluded" apart from "100%
occluded". Whether the stenosis is 70 % or more decides a carotid endarterectomy. In a
column named for a stenosis (:data:`STENOSIS_NAME`) a cell is read as its percentage:

- the grading method's name (NASCET, ECST) and a severity word before a number or a band
  are dropped ("severe 70-99%" is "70-99%", which reads as its middle as any range does);
- an occluded artery is 100 %; no stenosis ("nil", "none", "normal", "no significant
  stenosis") is 0 %.

A severity word alone ("mild") and a cell of any other form are left as written.
Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of an artery's stenosis (carotid, renal, coronary), in percent, by its name.
STENOSIS_NAME = re.compile(r"stenos[ie]s|\bica\b.{0,20}%", re.IGNORECASE)
_METHOD = r"(?:(?:nascet|ecst|doppler|duplex|us|cta|mra)\s*:?\s*)"
_SEVERITY = (r"(?:(?:mild|moderate|mod|severe|sev|significant|critical|tight|"
             r"high[\s-]grade)\s*[:,-]?\s*)")
_NUMBER = r"(?:[<>≤≥]\s*)?\d{1,3}(?:\.\d)?\s*%?(?:\s*-\s*\d{1,3}(?:\.\d)?\s*%?)?"
_WITH_WORDS = re.compile(rf"\s*{_SEVERITY}?{_METHOD}?{_SEVERITY}?({_NUMBER})\s*"
                         r"(?:stenosis|narrowing)?\s*", re.IGNORECASE)
_OCCLUDED = re.compile(r"\s*(?:100\s*%?\s*)?(?:occluded|occlusion|totally occluded|"
                       r"total occlusion|complete occlusion|occ|100\s*%\s*occluded)\s*",
                       re.IGNORECASE)
_NONE = re.compile(r"\s*(?:nil|none|normal|no stenosis|no significant stenosis|"
                   r"no haemodynamically significant stenosis|no significant disease|"
                   r"nad|no disease|patent)\s*", re.IGNORECASE)


def stenosis_percent(cell: object) -> str | None:
    """A stenosis cell as a percentage to read ("NASCET 80%": "80%", "severe 70-99%":
    "70-99%", "occluded": "100%", "nil": "0%"); ``None`` for a plain number (read as it
    is) and for a cell of any other form.

    Examples
    --------
    >>> [stenosis_percent(c) for c in ["NASCET 80%", "severe 70-99%", "Occluded", "nil",
    ...                                "no significant stenosis", "mild", "30%"]]
    ['80%', '70-99%', '100%', '0%', '0%', None, None]
    """
    text = re.sub(r"\s+", " ", str(cell).strip())
    if not text or len(text) > 50:
        return None
    if _OCCLUDED.fullmatch(text):
        return "100%"
    if _NONE.fullmatch(text):
        return "0%"
    m = _WITH_WORDS.fullmatch(text)
    if m is None or m.group(1).strip() == text:
        return None
    return re.sub(r"\s+", "", m.group(1))


def read_stenoses(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its stenosis columns' cells read as percentages (a note each); other
    columns and cells unchanged."""
    return rewrite_named(df, STENOSIS_NAME, stenosis_percent, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} stenosis cell(s) written with its grading method, a "
        f"severity word or in words (e.g. '{_q(example, 30)}' as '{new}') read as the "
        "percentage: an occluded artery as 100 %, no stenosis as 0 %, a band as its "
        "middle."), share=0.05)
