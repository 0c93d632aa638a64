"""A breast cancer's hormone receptors and HER2, as pathology reports write them.

Walk-through 95's breast clinic wrote its oestrogen receptor as "Positive", "pos", "+",
"Allred 7/8", "ER 90%", "0%" and "-" (30 answers, coded apart, "-" read as a gap), and
HER2 as "0", "1+", "Negative (1+)", "2+ FISH non-amplified", "2+ ISH not amplified",
"2+ FISH awaited", "3+ (amplified)" and "amplified" (16 answers). A clinician reads them
as a status, which decides the treatment. In a column named for a receptor:

- **ER and PR** (:func:`receptor_status`) read as Positive or Negative: an Allred score of
  3 to 8 is positive, 0 to 2 negative; a share of stained cells of 1 % or more positive,
  below 1 % negative (ASCO/CAP); "+", "pos", "-" and "neg" as written.
- **HER2** (:func:`her2_status`) reads on its scale: 0, 1+, 2+ with a negative in-situ
  hybridisation (ISH/FISH), 2+ with none yet (equivocal), and positive (3+, or 2+ with an
  amplified ISH). 1+ and 2+ ISH-negative are HER2-low; a plain "Negative" lies between 0
  and 1+ (its score not said). The ordered scale is ``tables``' "her2".

A cell of any other form is left as written. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q
from sparge.data.tables import HER2_NAME, UNKNOWN_WORDS

#: A column of oestrogen or progesterone receptor status, by its name (not a PR interval).
RECEPTOR_NAME = re.compile(
    r"^\s*(?:er|pr|pgr|hr|e\.r\.|p\.r\.)\s*(?:status|result|\(.*\))?\s*$|"
    r"\b(?:er|pr|pgr)\s+(?:status|result|allred|score|receptor|%)|oestrogen|estrogen|"
    r"progesterone|hormone\s+receptor", re.IGNORECASE)

#: A result not known, always a gap (a missing token that is never an answer): walk-
#: through 95's PR "unknown" (6 of 451) was an answer of its own where ER's 2 were gaps.
_NOT_KNOWN = "not known"
_POS = r"(?:pos\w{0,6}|\+{1,3}(?:ve)?|strongly\s+pos\w*|weakly\s+pos\w*)"
_NEG = r"(?:neg\w{0,6}|-(?:ve)?)"
_NAME = r"(?:(?:er|pr|pgr|oestrogen|estrogen|progesterone)(?:\s+receptor)?\s*:?\s*)?"
_ALLRED = re.compile(r"(?:allred|as|qs|quick\s*score)\s*:?\s*=?\s*([0-8])(?:\s*/\s*8)?",
                     re.IGNORECASE)
_PERCENT = re.compile(r"(<\s*)?(\d{1,3}(?:\.\d)?)\s*%")
_SIGN = re.compile(rf"\s*{_NAME}({_POS}|{_NEG})\s*", re.IGNORECASE)


def receptor_status(cell: object) -> str | None:
    """"Positive" or "Negative" for a receptor cell (an Allred score, a share of stained
    cells, a sign or a word, with the receptor's name or not); ``None`` for any other.

    Examples
    --------
    >>> [receptor_status(c) for c in ["Allred 7/8", "ER 90%", "<1%", "-", "Postive",
    ...                               "ER+ (Allred 8)", "Allred 2", "weakly positive"]]
    ['Positive', 'Positive', 'Negative', 'Negative', 'Positive', 'Positive', 'Negative', \
'Positive']
    >>> receptor_status("not done") is None, receptor_status("H-score 150") is None
    (True, True)
    >>> receptor_status("Unknown")  # a result not known is a gap, however common
    'not known'
    """
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    if not text or len(text) > 40:
        return None
    if text in UNKNOWN_WORDS:
        return _NOT_KNOWN
    allred = _ALLRED.search(text)
    percent = _PERCENT.search(text)
    rest = _ALLRED.sub(" ", _PERCENT.sub(" ", text))
    rest = re.sub(r"[()\[\],;:=]", " ", rest)
    rest = re.sub(rf"^\s*{_NAME}", "", rest).strip()
    if rest and not _SIGN.fullmatch(rest):
        return None
    sign = _SIGN.fullmatch(rest) if rest else None
    if allred:
        return "Positive" if int(allred.group(1)) >= 3 else "Negative"
    if percent:
        below = percent.group(1) is not None
        value = float(percent.group(2))
        if value > 100:
            return None
        return "Negative" if below and value <= 1 or value < 1 else "Positive"
    if sign:
        return "Positive" if re.match(_POS, sign.group(1)) else "Negative"
    return None


_ISH = r"(?:(?:fish|ish|cish|sish|ddish|dish|isH|ngs)\s*:?\s*)"
_AMP_NEG = re.compile(rf"{_ISH}?(?:neg\w*|non[\s-]?amp\w*|not\s+amp\w*|un\s?amp\w*|-ve|-)|"
                      rf"{_ISH}(?:normal|no\s+amp\w*)", re.IGNORECASE)
_AMP_POS = re.compile(rf"{_ISH}?(?:pos\w*|amp\w*|\+ve)|{_ISH}\+", re.IGNORECASE)
_PENDING = re.compile(rf"{_ISH}?(?:awaited|pending|requested|sent|to\s+follow|tbc|"
                      rf"equivocal|borderline)|{_ISH}(?:not\s+done|n/?a)", re.IGNORECASE)
_SCORE = re.compile(r"(?<![\d.])([0-3])\s*(\+{1,3})?(?![\d.%])")
_HER2_PREFIX = re.compile(r"^\s*(?:her[\s-]?2|c?-?erbb[\s-]?2|ihc)(?:\s*(?:ihc|status))?"
                          r"\s*[:=]?\s*", re.IGNORECASE)


def her2_status(cell: object) -> str | None:
    """A HER2 cell on its scale: "0", "1+", "2+ ISH negative", "2+ equivocal",
    "2+ ISH positive", "3+", "HER2-low", "Positive" or "Negative"; ``None`` for a cell of
    any other form.

    Examples
    --------
    >>> [her2_status(c) for c in ["Negative (1+)", "2+ FISH non-amplified", "2+ FISH awaited",
    ...                           "3+ (amplified)", "amplified", "0", "2+ ISH amp", "neg"]]
    ['1+', '2+ ISH negative', '2+ equivocal', '3+', 'Positive', '0', '2+ ISH positive', \
'Negative']
    """
    text = re.sub(r"\s+", " ", str(cell).strip())
    if not text or len(text) > 50:
        return None
    if text.lower() in UNKNOWN_WORDS:
        return _NOT_KNOWN
    text = _HER2_PREFIX.sub("", text).strip()
    if re.fullmatch(r"(?i)(?:her[\s-]?2[\s-]?)?low", text):
        return "HER2-low"
    scores = _SCORE.findall(text)
    rest = _SCORE.sub(" ", text)
    rest = re.sub(r"(?i)\b(?:ihc|score|her[\s-]?2)\b|[()\[\],;:/]", " ", rest).strip()
    ish = None
    for what, pattern in (("pending", _PENDING), ("negative", _AMP_NEG),
                          ("positive", _AMP_POS)):
        m = pattern.search(rest)
        if m and not rest.replace(m.group(0), "", 1).strip(" -+"):
            ish = what
            break
    if rest and ish is None:
        return None
    if len({s for s, _ in scores}) > 1:
        return None
    if scores:
        score = int(scores[0][0])
        if score == 3:
            return "3+" if ish != "negative" else None
        if score == 2:
            return {"negative": "2+ ISH negative", "positive": "2+ ISH positive"}.get(
                ish, "2+ equivocal")
        return f"{score}+" if score else "0"
    if ish == "positive":
        return "Positive"
    if ish == "negative":
        return "Negative"
    return None


def read_receptors(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its ER and PR columns read as Positive or Negative and its HER2 columns
    on HER2's scale (a note each); other columns and cells unchanged."""
    out = rewrite_named(df, RECEPTOR_NAME, receptor_status, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} receptor result(s) written as a score, a share of "
        f"cells or a sign (e.g. '{_q(example, 30)}' as '{new}') read as positive or "
        "negative: an Allred score of 3 or more, or 1 % of cells or more, is positive."),
        share=0.05, gap=_NOT_KNOWN)
    return rewrite_named(out, HER2_NAME, her2_status, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} HER2 result(s) (e.g. '{_q(example, 30)}' as '{new}') "
        "read on HER2's scale: 0 < 1+ < 2+ with a negative ISH < 2+ awaiting its ISH "
        "(equivocal) < positive (3+, or 2+ with an amplified ISH); a plain 'Negative' "
        "between 0 and 1+."), share=0.05, gap=_NOT_KNOWN)
