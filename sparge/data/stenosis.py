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

A severity word alone is the band the carotid grading consensus gives it in a carotid
column (Grant et al., SRU consensus 2003: "mild" is "<50%", as the column's "<50%" is
read, "moderate" 50-69 %, "severe" 70-99 %), and is left as written elsewhere (a coronary
or renal artery's words have no agreed bands). A cell of any other form is left as
written. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re
from functools import partial

import pandas as pd

from sparge.data.combined_cells import named_columns, rewrite_named
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
#: A carotid artery's column, where a severity word alone has its consensus band.
CAROTID_NAME = re.compile(r"carotid|\bica\b", re.IGNORECASE)
_CAROTID_BANDS = {"mild": "<50%", "moderate": "50-69%", "mod": "50-69%",
                  "severe": "70-99%", "sev": "70-99%", "critical": "70-99%",
                  "tight": "70-99%", "high grade": "70-99%", "high-grade": "70-99%"}
_NONE = re.compile(r"\s*(?:nil|none|normal|no stenosis|no significant stenosis|"
                   r"no haemodynamically significant stenosis|no significant disease|"
                   r"nad|no disease|patent)\s*", re.IGNORECASE)


def stenosis_percent(cell: object, carotid: bool = False) -> str | None:
    """A stenosis cell as a percentage to read ("NASCET 80%": "80%", "severe 70-99%":
    "70-99%", "occluded": "100%", "nil": "0%"); ``None`` for a plain number (read as it
    is) and for a cell of any other form. In a ``carotid`` column a severity word alone
    is its consensus band ("mild": "<50%").

    Examples
    --------
    >>> [stenosis_percent(c) for c in ["NASCET 80%", "severe 70-99%", "Occluded", "nil",
    ...                                "no significant stenosis", "mild", "30%"]]
    ['80%', '70-99%', '100%', '0%', '0%', None, None]
    >>> [stenosis_percent(c, carotid=True) for c in ["mild", "Moderate stenosis", "severe"]]
    ['<50%', '50-69%', '70-99%']
    """
    text = re.sub(r"\s+", " ", str(cell).strip())
    if not text or len(text) > 50:
        return None
    if carotid:
        word = re.sub(r"\s*(?:stenosis|narrowing)$", "", text.lower())
        if word in _CAROTID_BANDS:
            return _CAROTID_BANDS[word]
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
    named = named_columns(df, STENOSIS_NAME)
    carotid = [c for c in named if CAROTID_NAME.search(str(c)[:120])]
    for columns, is_carotid in ((carotid, True), ([c for c in named if c not in carotid],
                                                  False)):
        if columns:
            df = rewrite_named(df, columns, partial(stenosis_percent, carotid=is_carotid),
                               partial(_note, carotid=is_carotid), share=0.05)
    return df


def _note(col: str, n: int, example: str, new: str, carotid: bool) -> str:
    return (f"Column '{_q(col)}': {n:,} stenosis cell(s) written with its grading method, "
            f"a severity word or in words (e.g. '{_q(example, 30)}' as '{new}') read as the "
            "percentage: an occluded artery as 100 %, no stenosis as 0 %, a band as its "
            "middle" + (" (a carotid's severity word alone as its consensus band: mild "
                        "<50 %, moderate 50-69 %, severe 70-99 %)." if carotid else "."))
