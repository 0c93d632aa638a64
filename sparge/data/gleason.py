"""Gleason scores read as the ISUP grade group.

A prostate clinic's export writes a biopsy's Gleason score in the forms of the systems
it joins: the two patterns ("3+4"), with their sum ("3+4=7", "7 (3+4)"), the sum alone
("GS 7", "7") and words for no cancer ("benign", "B"). Walk-through 80's column held 22
such answers, coded as unordered categories, and the merge of answers written two ways
offered "7 (3+4)" and "7 (4+3)" both into "7": grade group 2 as grade group 3. Here a
column named for the Gleason score (or the ISUP grade group) is read as the grade group
(ISUP 2014, WHO 2016), the ordered scale clinicians use:

======================  ===========
patterns                grade group
======================  ===========
no cancer               0
3+3 (sum 6 or less)     1
3+4                     2
4+3                     3
sum 8 (4+4, 3+5, 5+3)   4
sum 9 or 10             5
======================  ===========

A sum of 7 written without its patterns is grade group 2 or 3, read as 2.5, and a note
says so; a sum that is not its patterns' ("3+4=8") is not read. In a column named for the
grade group ("ISUP grade", "Grade group"), a plain number is the grade group itself. A
column of sums alone ("6", "GS 7") is left as the sum, an ordered number already.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import SAMPLE, head_cells, mostly, named_columns, text_columns
from sparge.data.safe_text import quote as _q

#: ``df.attrs`` key: the columns read as grade groups (a fitted encoder reads a new
#: patient's on them, however few and however written: "7" alone too).
GLEASON_ATTR = "sparge_gleason"
#: A column of Gleason scores, by its name ("Gleason score", "Biopsy Gleason").
GLEASON_NAME = re.compile(r"gleason", re.IGNORECASE)
#: A column of ISUP grade groups, by its name.
GROUP_NAME = re.compile(r"\bisup\b|grade[\s_-]*group|\bgg\b", re.IGNORECASE)
#: Words saying the biopsy found no cancer: grade group 0.
NO_CANCER = frozenset({"benign", "b", "no cancer", "no malignancy", "negative",
                       "no carcinoma", "no tumour", "no tumor", "benign tissue",
                       "no evidence of malignancy"})
_PREFIX = r"(?:(?:gleason|gs)(?:\s*(?:score|sum|grade))?\s*[:=]?\s*)?"
#: The patterns, with or without their sum after or before them.
_PATTERNS = re.compile(
    _PREFIX + r"(?:(?P<p>[1-5])\s*\+\s*(?P<s>[1-5])(?:\s*=\s*(?P<t>\d{1,2}))?"
    r"|(?P<t2>\d{1,2})\s*\(\s*(?P<p2>[1-5])\s*\+\s*(?P<s2>[1-5])\s*\))", re.IGNORECASE)
#: The sum alone ("GS 7", "Gleason 8", "7").
_SUM = re.compile(_PREFIX + r"(?P<t>\d{1,2})", re.IGNORECASE)
#: A grade group written with its name ("GG2", "Grade group 3", "ISUP 4").
_GROUP = re.compile(r"(?:gg|grade\s*group|isup(?:\s*grade(?:\s*group)?)?)\s*[:=]?\s*"
                    r"(?P<g>[1-5])", re.IGNORECASE)


def grade_group(primary: int, secondary: int) -> int:
    """The ISUP grade group of a Gleason score's two patterns.

    Examples
    --------
    >>> grade_group(3, 3), grade_group(3, 4), grade_group(4, 3), grade_group(4, 4)
    (1, 2, 3, 4)
    >>> grade_group(4, 5), grade_group(5, 5)
    (5, 5)
    """
    total = primary + secondary
    if total <= 6:
        return 1
    if total == 7:
        return 2 if primary <= 3 else 3
    return 4 if total == 8 else 5


def _of_sum(total: int) -> float | None:
    """The grade group of a sum alone: 7 is 2 or 3 (2.5); 2-6 is 1; 8 is 4; 9-10 is 5."""
    if not 2 <= total <= 10:
        return None
    return 1.0 if total <= 6 else 2.5 if total == 7 else 4.0 if total == 8 else 5.0


def read_gleason(cell: object, groups: bool = False) -> float | None:
    """A Gleason score's grade group, or ``None`` when the cell is not one. ``groups``:
    the column is named for the grade group, so a plain number is one (1-5).

    Examples
    --------
    >>> [read_gleason(c) for c in ("3+4", "4+3=7", "7 (4+3)", "GS 6", "7", "benign")]
    [2.0, 3.0, 3.0, 1.0, 2.5, 0.0]
    >>> read_gleason("3+4=8") is None, read_gleason("2", groups=True)
    (True, 2.0)
    """
    text = re.sub(r"\s+", " ", str(cell)).strip()
    if not text or len(text) > 40:
        return None
    if text.lower().rstrip(".") in NO_CANCER:
        return 0.0
    m = _PATTERNS.fullmatch(text)
    if m is not None:
        p, s = int(m.group("p") or m.group("p2")), int(m.group("s") or m.group("s2"))
        t = m.group("t") or m.group("t2")
        return float(grade_group(p, s)) if t is None or int(t) == p + s else None
    m = _GROUP.fullmatch(text)
    if m is not None:
        return float(m.group("g"))
    m = _SUM.fullmatch(text)
    if m is not None:
        t = int(m.group("t"))
        if groups:
            return float(t) if 0 <= t <= 5 and text == m.group("t") else None
        return _of_sum(t)
    return None


def read_gleason_scores(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """``df`` with its columns of Gleason scores (or ISUP grade groups) read as the grade
    group, every cell of them (a plain sum too: "7" is no grade group 7), with a note per
    column and the columns read so in ``attrs[GLEASON_ATTR]``; other columns, and cells
    that are no Gleason score, unchanged. ``known``: a fitted encoder's such columns, read
    however their cells are written (a new patient's "7" alone)."""
    out = df
    known = {str(c) for c in known}
    read_so: list[str] = []
    for named, groups in ((GLEASON_NAME, False), (GROUP_NAME, True)):
        cols = [c for c in named_columns(out, named)
                if groups or not GROUP_NAME.search(str(c))]
        frame = out[cols] if cols else None
        for col, _ in text_columns(frame, known, lambda v, g=groups: _may_hold(v, g)
                                   ) if cols else ():
            read_so.append(str(col))
            values = out[col]
            codes, uniques = pd.factorize(values)  # each distinct cell read once
            read = np.asarray([read_gleason(u, groups) for u in uniques] + [None],
                              dtype=object)
            found = pd.Series(read[codes], index=values.index, dtype=object)
            rewritten = found.notna() & values.notna()
            if not rewritten.any():
                continue
            if out is df:
                out = df.copy()
                out.attrs = dict(df.attrs)
            shown = found.map(lambda v: None if v is None else f"{v:g}")
            out[col] = values.where(~rewritten, shown)
            sums = int(sum(1 for c in values[rewritten]
                           if _SUM.fullmatch(re.sub(r"\s+", " ", str(c)).strip())
                           and read_gleason(c, groups) == 2.5))
            example = str(values[rewritten].iloc[0]).strip()
            out.attrs["sparge_read_notes"] = [
                *out.attrs.get("sparge_read_notes", []),
                f"Column '{_q(col)}': {int(rewritten.sum()):,} Gleason score(s) read as "
                f"the ISUP grade group (e.g. '{_q(example, 20)}' as "
                f"{shown[rewritten].iloc[0]}): 3+3 is 1, 3+4 is 2, 4+3 is 3, a sum of 8 is "
                "4, of 9 or 10 is 5, and no cancer ('benign') is 0"
                + (f"; {sums:,} sum(s) of 7 written without the patterns read as 2.5 "
                   "(grade group 2 or 3)" if sums else "") + "."]
    if read_so:
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        out.attrs[GLEASON_ATTR] = read_so
    return out


def _may_hold(values: pd.Series, groups: bool) -> bool:
    """Whether a column's first cells are mostly Gleason scores, and some written with
    their patterns, as a grade group or as no cancer: a column of sums alone (SurvSet's
    stagec, 3 to 10) is an ordered number already, and is kept as it is."""
    def written_so(cell: str) -> bool:
        return read_gleason(cell, groups) is not None and _SUM.fullmatch(
            re.sub(r"\s+", " ", cell).strip()) is None

    return mostly(values, lambda h: read_gleason(h, groups) is not None, 0.2, 1) and any(
        written_so(h) for h in head_cells(values, SAMPLE))
