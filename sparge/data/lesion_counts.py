"""Counts of lesions on a scan written in words: "Gd-", "no Gd+", "1 enhancing", "Gd+ x2",
"stable" (no new lesion since the last scan).

Walk-through 85's multiple sclerosis clinic wrote its gadolinium-enhancing lesions as "0",
"Gd-", "none", "no Gd+", "1", "1 enhancing", "Gd+ x1" …: 17 unordered answers, zero
enhancement split four ways, the counts no numbers. A column named for lesions (new,
enhancing, gadolinium, T1 or T2) that writes counts as plain numbers too is read as
numbers: a count with its lesions' words as that count, a word for none (or "Gd-",
"stable" where the column counts new lesions) as 0. An answer that gives no count
("yes", "multiple") is left as written, and so read as no number. A column that is no
count (a spinal cord lesion "yes"/"no") writes no plain numbers and is left alone.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import head_cells, named_columns, rewrite_named
from sparge.data.safe_text import quote as _q

#: A column counting lesions on a scan, by its name.
_NAMED = re.compile(r"\blesions?\b|\benhanc\w*|\bgd\b|\bgd\+|gadolin|\bcel\b|\bt[12]\b",
                    re.IGNORECASE)
#: A column counting new lesions (since the last scan), where "stable" says none.
_NEW = re.compile(r"\bnew\b|\bactive\b", re.IGNORECASE)
#: The words a lesion count is written with, before or after its number.
_WORDS = r"(?:new|enhancing|enhanced|gd\+?|gad\w*|t[12]|cel|lesions?|on mri|seen|\(.{0,20}\))"
#: A count with its lesions' words: "1 enhancing", "2 new lesions", "Gd+ x1", "3 (Gd+)".
_COUNT = re.compile(rf"(?:{_WORDS} ?)*(?:x ?)?(\d{{1,3}})(?: ?x)?(?: ?{_WORDS})*")
#: No lesion: "none", "nil", "no Gd+", "no new lesions", "Gd-", "Gd neg", "non-enhancing".
_NONE = re.compile(rf"(?:none|nil|no|zero|not? (?:any|seen)|non[- ]?enhancing)"
                   rf"(?: ?{_WORDS})*|(?:gd|gad\w*|enhancement) ?(?:-|neg\w*|-ve)"
                   rf"(?: ?{_WORDS})*")
#: No new lesion since the last scan, in a column of new lesions.
_STABLE = re.compile(r"stable|unchanged|no change|no new|static|no progression")
#: Fewest plain numbers, as a share of a column's first filled cells, for it to be a count.
NUMBER_SHARE = 0.2


def _reader(new: bool):
    def read(cell: str) -> str | None:
        text = re.sub(r"\s+", " ", str(cell).strip().lower())
        if not text or len(text) > 40:
            return None
        if _NONE.fullmatch(text) or (new and _STABLE.fullmatch(text)):
            return "0"
        m = _COUNT.fullmatch(text)
        return m.group(1) if m is not None else None
    return read


def _writes_numbers(values: pd.Series) -> bool:
    head = head_cells(values, 200)
    plain = sum(1 for h in head if re.fullmatch(r"\d{1,3}", h.strip()))
    return bool(head) and plain >= NUMBER_SHARE * len(head)


def read_lesion_counts(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each lesion-count column (:data:`_NAMED`) that writes plain counts
    too (at least :data:`NUMBER_SHARE` of its cells; or one of ``known``, a fitted
    model's numeric lesion columns, however few its rows) read as numbers, and a note per
    column. Other tables are returned as they are.

    Examples
    --------
    >>> df = pd.DataFrame({"Gd+ lesions": ["0", "Gd-", "no Gd+", "1 enhancing", "Gd+ x2",
    ...                                    "2", "yes"]})
    >>> read_lesion_counts(df)["Gd+ lesions"].tolist()
    ['0', '0', '0', '1', '2', '2', 'yes']
    """
    known = {str(c) for c in known}
    cols = [c for c in named_columns(df, _NAMED)
            if not pd.api.types.is_numeric_dtype(df[c])
            and (str(c) in known or _writes_numbers(df[c]))]
    out = df
    for col in cols:
        new = bool(_NEW.search(str(col)))
        out = rewrite_named(out, [col], _reader(new), lambda c, n, example, value: (
            f"Column '{_q(c)}': {n:,} cell(s) written in words read as a count of lesions "
            f"(e.g. '{_q(example, 20)}' as {value}"
            + ("; a 'stable' scan as no new lesion" if _NEW.search(c) else "") + ")."),
            share=0.0 if str(col) in known else 0.02)
    return out


def lesion_columns(columns, roles) -> list[str]:
    """The numeric columns of a fitted model named for lesions: a new patient's "Gd+ x1"
    there is read as a count however few its rows."""
    return [str(c) for c in columns if roles.get(c) == "numeric" and _NAMED.search(str(c))]


__all__ = ["NUMBER_SHARE", "lesion_columns", "read_lesion_counts"]
