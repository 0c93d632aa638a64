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

import numpy as np
import pandas as pd

from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q

#: "N/A - CS", "NA (CS)", "n/a: elective", "not applicable - no labour" (bounded runs).
_WITH_REASON = re.compile(
    r" {0,3}(n/a|n\.a\.|na|not applicable) {0,3}(?:[-–:,;]|\() {0,3}[^()]{1,30}\)? {0,3}",
    re.IGNORECASE)


def _starts_like_na(value: object) -> bool:
    return isinstance(value, str) and value.lstrip()[:1] in ("n", "N")


_STARTS_LIKE_NA = np.frompyfunc(_starts_like_na, 1, 1)


def read_not_applicable(df: pd.DataFrame) -> pd.DataFrame:
    """The table with each cell "not applicable" with a reason rewritten as "N/A" (a gap
    in every column), and a note per column in ``df.attrs["sparge_read_notes"]``.

    One pass over every text cell finds the columns with a cell starting like the gap
    word (a pandas call per column cost 125 ms on a one-patient row of 468 columns); only
    those are read."""
    out = df
    text_cols = [j for j, dt in enumerate(df.dtypes)
                 if not (pd.api.types.is_numeric_dtype(dt) or pd.api.types.is_bool_dtype(dt))]
    if not text_cols or df.empty:
        return df
    starts = np.asarray(_STARTS_LIKE_NA(df.iloc[:, text_cols].to_numpy(dtype=object)),
                        dtype=bool)
    for j in np.asarray(text_cols)[starts.any(axis=0)]:
        col = df.columns[j]
        values = df.iloc[:, j]
        text = cell_text(values)
        found = pd.Series([len(c) <= 40 and _WITH_REASON.fullmatch(c) is not None
                           for c in text], index=values.index)
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
