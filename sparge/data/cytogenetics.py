"""A myeloma's FISH cytogenetics written as free text, read as a list of findings.

Walk-through 73's myeloma clinic wrote its cytogenetics 52 ways: "t(4;14)", "t(4:14)",
"del17p", "17p deletion", "TP53 del", "+1q", "amp 1q", "gain 1q", "t(4;14), del17p",
"SR", "standard risk", "failed". The column was left out of the model as more than 30
text answers, and with it the disease's main risk factor. Each cell is rewritten here as
its findings by their standard names, in a fixed order ("t(4;14), del(17p)"), so that
the answer lists (:mod:`sparge.data.answer_lists`) read one yes/no column per finding, or
the column is one answer per combination when few cells hold two.

A cell is rewritten only when every part of it is read: a finding, a word for no
abnormality ("normal", "NAD": ``none``), standard or high risk, a failed test (a gap),
and the joining words between them. Anything else is left as written.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import named_columns, rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of cytogenetics: "Cytogenetics", "FISH", "Karyotype", "Cyto risk".
CYTOGENETICS_NAME = re.compile(r"cytogen|\bfish\b|karyotyp|\bcyto\b|\bcg risk\b|"
                               r"genetic risk", re.IGNORECASE)

#: Findings by their standard names, in the order written, with their spellings.
FINDINGS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE)) for name, pattern in (
        ("t(4;14)", r"t\s*\(?\s*4\s*[;:,/.]\s*14\s*\)?|igh\s*[/-]\s*fgfr3|fgfr3\s*[/-]\s*igh|"
                    r"\bfgfr3\b|\bmmset\b|\bnsd2\b"),
        ("t(14;16)", r"t\s*\(?\s*14\s*[;:,/.]\s*16\s*\)?|igh\s*[/-]\s*c?-?maf\b|\bc-?maf\b"),
        ("t(14;20)", r"t\s*\(?\s*14\s*[;:,/.]\s*20\s*\)?|igh\s*[/-]\s*mafb|\bmafb\b"),
        ("t(11;14)", r"t\s*\(?\s*11\s*[;:,/.]\s*14\s*\)?|igh\s*[/-]\s*ccnd1|\bccnd1\b"),
        ("del(17p)", r"del(?:etion)?\s*\(?\s*17\s*p?\s*(?:13(?:\.1)?)?\s*\)?|"
                     r"17\s*p\s*(?:13(?:\.1)?\s*)?-?\s*(?:del(?:etion|eted)?|loss)|"
                     r"(?:loss|deletion)\s+of\s+17\s*p|-\s*17\s*p|17\s*p\s*-|"
                     r"monosomy\s*17|\b(?:tp|p)53\s*(?:del(?:etion|eted)?|loss)|"
                     r"del(?:etion)?\s*\(?\s*(?:tp|p)53\s*\)?"),
        ("gain(1q)", r"(?:gain|amp(?:lification)?|amplified|\+)\s*(?:of\s*)?\(?\s*1\s*q"
                     r"(?:21)?\s*\)?(?:\s*(?:gain|amp(?:lification)?|amplified))?|"
                     r"1\s*q\s*(?:21\s*)?(?:gain|amp(?:lification)?|\+)|"
                     r"\b1q21\b|\bcks1b\b"),
        ("del(1p)", r"del(?:etion)?\s*\(?\s*1\s*p(?:32)?\s*\)?|1\s*p\s*(?:32\s*)?"
                    r"(?:del(?:etion|eted)?|loss)|loss\s+of\s+1\s*p|\bcdkn2c\b"),
        ("del(13q)", r"del(?:etion)?\s*\(?\s*13\s*q?(?:14)?\s*\)?|monosomy\s*13|"
                     r"13\s*q\s*(?:14\s*)?(?:del(?:etion|eted)?|loss)|-\s*13\b|\brb1\b"),
        ("hyperdiploid", r"hyperdiploid(?:y)?|trisom(?:y|ies)(?:\s*(?:of\s*)?[\d\s,&+]+"
                         r"(?:and\s*\d+)?)?|\bhrd\b"),
        ("IgH rearrangement", r"igh\s*(?:gene\s*)?(?:rearrange(?:ment|d)|split|"
                              r"translocation|break\s*apart)|14\s*q\s*32\s*rearrange\w*|"
                              r"other\s+igh\s*\w*"),
    ))
#: The order findings are written in.
ORDER = [name for name, _ in FINDINGS]
#: Every answer a rewritten cell's list holds.
FINDING_WORDS = frozenset([*ORDER, "standard risk", "high risk"])
#: A test without a result: the cell is a gap.
_FAILED = re.compile(r"\s*(?:fish\s*)?(?:failed|fail|test failed|insufficient(?: sample)?|"
                     r"inadequate(?: sample)?|no result|no dividing cells|no metaphases|"
                     r"not done|not performed|not sent|pending|awaited|unknown|n/?k|n/?a|"
                     r"not available|sample clotted)\s*(?:fish\s*)?\.?\s*", re.IGNORECASE)
#: No abnormality found.
_NORMAL = re.compile(r"\s*(?:normal(?:\s+fish)?|no\s+abnormalit(?:y|ies)(?:\s+detected|"
                     r"\s+found|\s+seen)?|nad|negative|none(?:\s+detected)?|nil|"
                     r"no\s+(?:high[\s-]*risk\s+)?(?:abnormalit(?:y|ies)|lesions?|changes?)"
                     r"(?:\s+detected)?)\s*\.?\s*", re.IGNORECASE)
_STANDARD = re.compile(r"standard[\s-]*risk|std\.?\s*risk|\bsr\b|\bstandard\b", re.IGNORECASE)
_HIGH = re.compile(r"high[\s-]*risk|\bhr\b|\bhrcg\b", re.IGNORECASE)
#: What may join findings in one cell.
_JOIN = re.compile(r"(?:[\s,;+&/|()\-:.]|\band\b|\bwith\b|\bplus\b|\balso\b|\bonly\b|"
                   r"\bfish\b|\bby\b|\bdetected\b|\bpositive\b|\bpresent\b|\bseen\b|"
                   r"\bcytogenetics?\b|\babnormalit(?:y|ies)\b|\bof\b|\bnot\b)*",
                   re.IGNORECASE)


def cytogenetic_findings(cell: object, failed: bool = True) -> str | None:
    """A cytogenetics cell as its findings by their standard names ("t(4;14),
    del(17p)"), ``"none"`` (no abnormality), ``"standard risk"`` or ``"high risk"``
    (written without a finding), ``""`` (a failed test: a gap; ``None`` without
    ``failed``), or ``None`` when some part of the cell is not read.

    Examples
    --------
    >>> cytogenetic_findings("t(4:14), del17p")
    't(4;14), del(17p)'
    >>> cytogenetic_findings("+1q and TP53 del")
    'del(17p), gain(1q)'
    >>> cytogenetic_findings("SR"), cytogenetic_findings("failed")
    ('standard risk', '')
    >>> cytogenetic_findings("complex karyotype") is None
    True
    """
    if cell is None or isinstance(cell, float) or not str(cell).strip():
        return None
    text = str(cell).strip()
    if len(text) > 120:
        return None
    if _FAILED.fullmatch(text):
        return "" if failed else None
    if _NORMAL.fullmatch(text):
        return "none"
    found: set[str] = set()
    rest = text
    for name, pattern in FINDINGS:
        if pattern.search(rest):
            found.add(name)
            rest = pattern.sub(" ", rest)
    standard = bool(_STANDARD.search(rest))
    rest = _HIGH.sub(" ", _STANDARD.sub(" ", rest))
    if _JOIN.fullmatch(rest) is None:
        return None
    if found:
        names = [n for n in ORDER if n in found]
        return ", ".join(names + (["standard risk"] if standard else []))
    if standard:
        return "standard risk"
    return "high risk" if _HIGH.search(text) else None


def read_cytogenetics(df: pd.DataFrame) -> pd.DataFrame:
    """The table with each cell of a cytogenetics column (:data:`CYTOGENETICS_NAME`)
    rewritten as its findings (:func:`cytogenetic_findings`), and a note per column."""
    out = rewrite_named(df, CYTOGENETICS_NAME,
                        lambda c: cytogenetic_findings(c, failed=False),
                        lambda col, n, example, new: (
                            f"Column '{_q(col)}': {n:,} cytogenetic result(s) read as their "
                            f"findings by standard names (e.g. '{_q(example, 30)}' as "
                            f"'{_q(new, 40)}'), one yes/no column per finding."), share=0.3)
    # the columns read so, and only they
    read = [] if out is df else [c for c in named_columns(out, CYTOGENETICS_NAME)
                                 if not out[c].equals(df[c])]
    return rewrite_named(out, read,
                         lambda c: "" if cytogenetic_findings(c) == "" else None,
                         lambda col, n, example, new: (
                             f"Column '{_q(col)}': {n:,} test(s) without a result (e.g. "
                             f"'{_q(example, 30)}') read as gaps."), share=0.0)


__all__ = ["CYTOGENETICS_NAME", "FINDINGS", "FINDING_WORDS", "cytogenetic_findings",
           "read_cytogenetics"]
