"""Columns that should not be features, recognised from their name or cells.

A clinic's export carries more than biomarkers: the follow-up time of a survival study
(which tells the outcome: patients who died were followed for less time), dates, and free
text notes. Read as features they leak the outcome or add noise in an arbitrary order. The
encoder leaves them out by default and says why (``Encoder``); the user can give any of
them a role back on the Data page.
"""

from __future__ import annotations

import re

import pandas as pd

#: Column names of a survival study's follow-up time or a hospital stay's length (both
#: measured after the outcome is known).
_FU = r"follow[\s_.\-]*up"
_SPAN = r"(?:time|duration|length|period|days?|weeks?|months?|years?)"
FOLLOW_UP_NAME = re.compile(
    # "Follow-up", "Follow-up (days)", "Duration of follow-up" -- not "Follow-up visit BP"
    rf"^{_FU}$|{_FU}[\s_.\-]*\(?\s*{_SPAN}\b|\b{_SPAN}[\s_.\-]*(?:of[\s_.\-]*)?{_FU}|"
    # ... and walk-through 45's "Days to readmission"
    r"\b(?:time|days?|weeks?|months?)[\s_.\-]*(?:to|until)[\s_.\-]*(?:event|death|censor|"
    r"last|relapse|recurrence|progression|failure|re[\s_.\-]?admission|"
    r"re[\s_.\-]?hospitali[sz]ation)|surviv\w*[\s_.(\-]*(?:time|days?|months?|years?)\b|"
    r"censor|"
    r"^(?:time|futime|stime|os[\s_.]?time|pfs[\s_.]?time|dfs[\s_.]?time|efs[\s_.]?time)$|"
    # the length of a hospital stay is known at discharge, after the outcome: "Length of
    # stay (days)", "LOS", "Hospital stay", "Days in ICU", "Time to discharge"
    r"\blength[\s_.\-]*of[\s_.\-]*(?:\w+[\s_.\-]*)?stay|^l\.?o\.?s\.?\b|\blos[\s_.\-]*\(|"
    r"\b(?:hospital|icu|nicu|picu|ward|inpatient)[\s_.\-]*(?:stay|days?|los)\b|"
    r"\bdays?[\s_.\-]*(?:in|of)[\s_.\-]*(?:hospital|icu|nicu|picu|ward|stay)\b|"
    r"\b(?:time|days?)[\s_.\-]*(?:to|until|till)[\s_.\-]*discharge|"
    # ... and of a stay in the emergency department, known when it ends (walk-through
    # 50's "Time in department": 300 min for the admitted against 170)
    r"\b(?:time|hours?|minutes?|mins?)[\s_.\-]*(?:in|spent[\s_.\-]*in)[\s_.\-]*(?:the[\s_.\-]*)?"
    r"(?:department|dept|ed|a&e|ae|emergency(?:[\s_.\-]*department)?|hospital)\b|"
    r"\bed[\s_.\-]*(?:los|length[\s_.\-]*of[\s_.\-]*stay)\b|"
    # "Days followed", "Months followed", "Followed for (days)"
    rf"\b{_SPAN}[\s_.\-]*followed\b|\bfollowed[\s_.\-]*(?:for|up)?[\s_.\-]*\(?\s*{_SPAN}\b",
    re.IGNORECASE)
#: Column names of free text.
FREE_TEXT_NAME = re.compile(
    r"\b(?:notes?|comments?|remarks?|free[\s_.\-]*text|narrative|description)\b",
    re.IGNORECASE)
#: Cells written as dates (ISO, day/month/year, "14 Mar 2019"), optionally with a time.
DATE_CELL = re.compile(
    r"^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    r"\d{1,2}[\s\-][A-Za-z]{3,9}[\s\-]\d{2,4})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$")
#: Share of a column's filled cells that must look like dates, and how many are looked at.
DATE_SHARE = 0.8
DATE_SAMPLE = 2000


def looks_like_follow_up(name: str) -> bool:
    """Whether a column is named like a follow-up, time-to-event or length-of-stay column.

    Examples
    --------
    >>> looks_like_follow_up("Follow-up (days)"), looks_like_follow_up("Time since diagnosis")
    (True, False)
    """
    return bool(FOLLOW_UP_NAME.search(str(name).strip()))


def looks_like_dates(text: pd.Series) -> bool:
    """Whether most filled cells of a column (as text) are dates (judged on the first
    2,000 filled cells: a million-row export is not scanned whole for this)."""
    filled = text[text != ""].iloc[:DATE_SAMPLE]
    if filled.empty:
        return False
    return float(filled.str.strip().str.match(DATE_CELL).mean()) >= DATE_SHARE


def looks_like_free_text(name: str, levels: list[str]) -> bool:
    """Whether a text column holds free text: named like notes, or written in sentences.

    ``levels`` are its distinct filled cells. Sentences: at least three different answers,
    half of them three words or longer and ending with a full stop, "!" or "?" (a
    category such as "heart block or conduction def" does not end like a sentence).
    """
    if FREE_TEXT_NAME.search(str(name)):
        return True
    if len(levels) < 3:
        return False
    sentences = sum(len(lv.split()) >= 3 and lv.rstrip().endswith((".", "!", "?"))
                    for lv in levels)
    return sentences >= 0.5 * len(levels)
