"""Cells saying a value does not apply, with the reason: "N/A - CS", "n/a (caesarean)",
"not applicable: no labour".

Walk-through 43's perineal trauma column held "N/A - CS" for 71 caesareans beside "n/a" for
46 others: the plain one was a gap, the one with its reason an answer of its own, which
split the caesareans in two and kept the column from being seen as one that does not
apply to them (:mod:`sparge.data.structural_gaps`). A cell that is a gap word for "not
applicable" followed by a short reason is that gap word; the reason is said in the note.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q

#: "N/A - CS", "NA (CS)", "n/a: elective", "not applicable - no labour" (bounded runs).
_WITH_REASON = re.compile(
    r" {0,3}(n/a|n\.a\.|na|not applicable) {0,3}(?:[-–:,;]|\() {0,3}[^()]{1,30}\)? {0,3}",
    re.IGNORECASE)


def read_not_applicable(df: pd.DataFrame) -> pd.DataFrame:
    """The table with each cell "not applicable" with a reason rewritten as "N/A" (a gap
    in every column), and a note per column in ``df.attrs["sparge_read_notes"]``."""
    out = df
    for col in list(df.columns):
        values = df[col]
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        text = cell_text(values)
        # a quick look: only cells that start like the gap word
        maybe = text.str.match(r"\s*(?:n|N)").to_numpy()
        if not maybe.any():
            continue
        found = text.where(maybe, "").map(
            lambda c: bool(c) and len(c) <= 40 and _WITH_REASON.fullmatch(c) is not None)
        if not found.any():
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        out[col] = values.where(~found.to_numpy(), "N/A")
        example = str(text[found].iloc[0]).strip()
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            f"Column '{_q(col)}': {int(found.sum()):,} cell(s) saying it does not apply, with "
            f"the reason (e.g. '{_q(example, 20)}'), read as not applicable (a gap)."]
    return out
