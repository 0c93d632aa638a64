"""Two or more scores written by name in one column, read as one column per score.

An IBD clinic's "Endoscopy (latest)" writes a Crohn's disease's SES-CD and an ulcerative
colitis's Mayo endoscopic subscore in one column: "SES-CD 8", "SESCD: 11", "Mayo 1",
"MES 2", "Mayo endoscopic 1", "moderate (Mayo 2)", "UCEIS 3 / Mayo 1". As text that is
dozens of answers, and walk-through 68's column was left out as free text, with it the
mucosal healing a gastroenterologist treats to. The scores are on different scales (SES-CD
0-56, Mayo 0-3), so one number per patient would mix them; read apart, each is a numeric
column of its own, a gap for the patients whose cell does not write it.

A column is read so when at least :data:`NAMED_SHARE` of its written cells name a known
score (:data:`SCORES`) with its number, and at least two scores are written; the report
says how many. Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import replaced, text_columns
from sparge.data.safe_text import quote as _q

#: Scores a column may write by name: the column each is read into, and its names
#: (lower case, longest first where one starts another).
SCORES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SES-CD", ("ses-cd", "sescd", "ses cd")),
    ("CDEIS", ("cdeis",)),
    ("UCEIS", ("uceis",)),
    ("Mayo endoscopic", ("mayo endoscopic subscore", "mayo endoscopic score",
                         "mayo endoscopic", "endoscopic mayo", "mes", "mayo")),
    ("Rutgeerts", ("rutgeerts",)),
)
_NAME_OF = {n: score for score, names in SCORES for n in names}
_FOUND = re.compile(r"(?<![a-z])(" + "|".join(
    re.escape(n) for n in sorted(_NAME_OF, key=len, reverse=True))
    + r")\s{0,2}(?:score\s{0,2})?[:=]?\s{0,2}(i?\d{1,2}(?:\.\d)?)(?![\d.])", re.IGNORECASE)
#: A column that may hold such scores, by its name.
_NAMED = re.compile(r"endoscop|colonoscop|sigmoidoscop|\bscope\b|\bscore", re.IGNORECASE)
#: Share of a column's written cells that must write a named score.
NAMED_SHARE = 0.5
#: Fewest cells writing a named score for a column to be read so, and for a score to be
#: a column of its own ...
NAMED_MIN = 10
#: ... with at least this share of the cells that write a score.
SCORE_SHARE = 0.1


def named_scores(cell: object) -> dict[str, float]:
    """The scores one cell writes by name ("UCEIS 3 / Mayo 1": UCEIS 3, Mayo endoscopic
    1; "Rutgeerts i2": 2), empty for none.

    Examples
    --------
    >>> named_scores("UCEIS 3 / Mayo 1")
    {'UCEIS': 3.0, 'Mayo endoscopic': 1.0}
    >>> named_scores("SES-CD: 8"), named_scores("normal")
    ({'SES-CD': 8.0}, {})
    """
    text = str(cell)
    if len(text) > 60:
        return {}
    out: dict[str, float] = {}
    for m in _FOUND.finditer(text):
        out.setdefault(_NAME_OF[m.group(1).lower()], float(m.group(2).lstrip("iI")))
    return out


def _may_hold(values: pd.Series) -> bool:
    return bool(_NAMED.search(str(values.name)[:80]))


def named_score_columns(fitted) -> dict[str, list[str]]:
    """The columns of named scores a model was fitted with: ``{column: [its scores]}``
    (``"<column> <score>"`` among ``fitted``, two or more)."""
    have = {str(c) for c in fitted}
    out: dict[str, list[str]] = {}
    for c in have:
        for score, _ in SCORES:
            if c.endswith(f" {score}"):
                out.setdefault(c[:-len(score) - 1], []).append(score)
    return {c: [s for s, _ in SCORES if s in v] for c, v in out.items() if len(v) >= 2}


def split_named_scores(df: pd.DataFrame, known: dict[str, list[str]] | None = None
                       ) -> pd.DataFrame:
    """The table with each column of named scores replaced by one numeric column per
    score, ``"<name> <score>"``, in its place, and a note in
    ``df.attrs["sparge_read_notes"]``. ``known``: a model's such columns
    (:func:`named_score_columns`), read however few the rows. Other tables are returned
    as they are."""
    known = known or {}
    out = df
    for col, forced in text_columns(df, list(known), _may_hold):
        text = df[col].map(lambda v: "" if pd.isna(v) else str(v)).astype(object)
        counts = text[text.str.strip() != ""].value_counts()
        read = {cell: named_scores(cell) for cell in counts.index}
        written = int(counts.sum())
        scored = sum(int(n) for cell, n in counts.items() if read[cell])
        found = {s for r in read.values() for s in r}
        if not forced and (scored < NAMED_MIN or scored < NAMED_SHARE * written
                           or len(found) < 2):
            continue
        # a score written for a handful only is no column of its own (walk-through 68's
        # five "UCEIS 3 / Mayo 1": 98 % gaps); its cells' other scores are read
        often = {s: sum(int(n) for cell, n in counts.items() if s in read[cell])
                 for s in found}
        names = known.get(str(col)) or [
            s for s, _ in SCORES
            if often.get(s, 0) >= max(NAMED_MIN, SCORE_SHARE * scored)]
        if not forced and len(names) < 2:
            continue
        if any(f"{col} {s}" in out.columns for s in names):
            continue
        new = pd.DataFrame({f"{col} {s}": [repr(r[s]) if s in (r := read.get(t, {}))
                                           else "" for t in text] for s in names},
                           index=df.index)
        note = ""
        if scored:
            example = next(c for c in counts.index if read[c])
            note = (f"Column '{_q(col)}' writes {len(names)} scores by name (e.g. "
                    f"'{_q(example, 24)}'): read as one numeric column each, "
                    + ", ".join(f"'{_q(col)} {s}'" for s in names)
                    + f"; its {written - scored:,} other written cell(s) are gaps there.")
        out = replaced(out, col, new, note)
    return out


__all__ = ["SCORES", "named_score_columns", "named_scores", "split_named_scores"]
