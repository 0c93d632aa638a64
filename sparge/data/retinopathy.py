"""Diabetic eye screening grades written in one cell ("R1M0"), read as two columns.

England's diabetic eye screening grades each eye's retinopathy R0 (none), R1
(background), R2 (pre-proliferative), R3s (proliferative, stable after treatment) or R3a
(proliferative, active), and its maculopathy M0 or M1. A clinic's export writes both in
one cell, and in words too: "R1M0", "R0 M0 + maculopathy", "background DR", "no DR",
"pre-proliferative", "stable treated PDR". As text that is more than 30 answers, and
walk-through 64's "Retinopathy grade" was left out as free text, with it the
complication a diabetes clinic screens for. Read apart, the retinopathy is one ordered
column (R0 < R1 < R2 < R3s < R3a) and the maculopathy another (M0 < M1); a grade
written without its maculopathy is M0, as the screening programme writes only M1.
"Ungradable", "not screened" and "DNA" are gaps in both.

A column named for retinopathy (or eye screening) is read so when at least
:data:`GRADE_SHARE` of its written cells are grades; the report says how many. A column
whose cells write no maculopathy ("R1", "R3a": a clinic with a maculopathy column of its
own) is read as the ordered retinopathy column alone.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import replaced, text_columns
from sparge.data.safe_text import quote as _q

#: A column of eye screening grades, by its name.
_NAMED = re.compile(r"retinopath|\bDR\b|eye screen|\bDESP\b|\bDRS\b|retinal screen",
                    re.IGNORECASE)
#: The retinopathy grades in order, and the words a clinic writes them with (normalised:
#: lower case, single spaces).
GRADES = ("R0", "R1", "R2", "R3s", "R3a")
_WORDS = {
    "R0": ("none", "no dr", "nil", "no retinopathy", "normal", "nad", "no", "r0",
           "no diabetic retinopathy"),
    "R1": ("background", "background dr", "bdr", "mild npdr", "background retinopathy",
           "r1"),
    "R2": ("pre-proliferative", "preproliferative", "pre proliferative", "ppdr",
           "moderate npdr", "severe npdr", "pre-proliferative dr", "r2"),
    "R3s": ("stable treated pdr", "stable pdr", "treated pdr", "stable proliferative",
            "r3s", "stable treated", "r3 stable", "r3s (stable, treated)", "r3s (stable)"),
    "R3a": ("proliferative", "active proliferative", "pdr", "active pdr", "r3a", "r3",
            "proliferative dr", "r3 active"),
}
_GRADE_OF = {w: g for g, ws in _WORDS.items() for w in ws}
#: "R1M0", "R1 M0", "R3sM1", "R3A", "R0 M0 + maculopathy".
_CODED = re.compile(r"r\s?([0-2]|3\s?[as]?)\s*(?:[,/]?\s*m\s?([01]))?")
_MACULOPATHY = re.compile(r"\s*(?:\+|with|and|&)\s*(?:maculopathy|m1|dmo|cmo|macular oedema)"
                          r"\s*$")
#: Words that say no retinopathy in any scale: a column of only these and a severity's
#: words ("None", "Mild", "Moderate") is no screening grade.
_PLAIN = frozenset({"none", "no dr", "nil", "no retinopathy", "normal", "nad", "no",
                    "no diabetic retinopathy"})
#: Cells that are no grade but a gap in both columns.
GAPS = frozenset({"ungradable", "ungraded", "not screened", "dna", "did not attend",
                  "not done", "awaiting", "u", "ug", "unassessable", "declined"})
#: Share of a column's written cells (gaps aside) that must be grades.
GRADE_SHARE = 0.8
#: Fewest grade cells for a column to be read so.
GRADE_MIN = 5


def grade_parts(cell: object) -> tuple[str, str] | None:
    """The retinopathy grade and maculopathy of one cell ("R1M0": ``("R1", "M0")``;
    "background DR + maculopathy": ``("R1", "M1")``); ``("", "")`` for a gap word;
    ``None`` for a cell that is no grade."""
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    if not text or len(text) > 48:
        return None
    if text in GAPS:
        return "", ""
    macula = "M0"
    if m := _MACULOPATHY.search(text):
        macula, text = "M1", text[:m.start()].strip()
    if text in _GRADE_OF:
        return _GRADE_OF[text], macula
    if m := _CODED.fullmatch(text):
        r = m.group(1).replace(" ", "")
        grade = {"0": "R0", "1": "R1", "2": "R2", "3": "R3a", "3a": "R3a",
                 "3s": "R3s"}[r]
        if m.group(2) == "1":
            macula = "M1"
        return grade, macula
    return None


def _writes_maculopathy(cell: object) -> bool:
    """Whether a grade's cell writes a maculopathy ("R1M0", "R2 + maculopathy")."""
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    m = _CODED.fullmatch(text)
    return bool(_MACULOPATHY.search(text)) or (m is not None and m.group(2) is not None)


def _may_hold(values: pd.Series) -> bool:
    return bool(_NAMED.search(str(values.name)))


def split_retinopathy(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each column of eye screening grades replaced by two, ``"<name>"``
    (R0 < R1 < R2 < R3s < R3a) and ``"<name> maculopathy"`` (M0, M1; not added when no
    cell writes a maculopathy), in its place, and a note in
    ``df.attrs["sparge_read_notes"]``. Other tables are returned as they are.

    Parameters
    ----------
    df : DataFrame
    known : iterable of str
        Columns read so whatever their number of grades (a model's, for a new
        patients' table of one or a few rows): the retinopathy columns it was fitted with.
    """
    out = df
    for col, forced in text_columns(df, known, _may_hold):
        text = df[col].map(lambda v: "" if pd.isna(v) else str(v)).astype(object)
        written = text[text.map(lambda t: t.strip() != "").astype(bool)]
        # plain sums: a new patient's one empty cell leaves an empty object column, whose
        # pandas sum is "" (walk-through 65's New patient page failed on it)
        parts = [grade_parts(c) for c in written]
        graded = sum(p is not None and p[0] != "" for p in parts)
        # the screening's own codes or words, not only "none" (a severity column)
        own = sum(re.sub(r"\s+", " ", str(c).strip().lower()) not in _PLAIN
                  and p not in (None, ("", "")) for c, p in zip(written, parts, strict=True))
        filled = sum(p is None or p[0] != "" for p in parts)
        if not forced and (graded < GRADE_MIN or graded < GRADE_SHARE * filled
                           or own < GRADE_MIN):
            continue
        names = [str(col), f"{col} maculopathy"]
        if names[1] in out.columns:
            continue
        if not forced and not any(map(_writes_maculopathy, written)):
            # grades alone ("R1", "R3a"; the maculopathy in a column of its own): one
            # ordered column, no "<name> maculopathy" of M0 only, which was then said
            # dropped as a column the user never had (walk-through 77)
            names = names[:1]
        split = text.map(grade_parts)
        new = pd.DataFrame({name: [p[i] if p is not None else "" for p in split]
                            for i, name in enumerate(names)}, index=df.index)
        other = filled - graded
        note = ""
        if graded:
            example = next(c for c, p in zip(written, parts, strict=True)
                           if p is not None and p[0] != "")
            read_as = (f"two ordered columns, '{_q(names[0])}' (R0 < R1 < R2 < R3s < R3a) "
                       f"and '{_q(names[1])}' (M0 < M1; a grade written without it is M0)"
                       if len(names) == 2 else "an ordered column (R0 < R1 < R2 < R3s < "
                       "R3a)")
            note = (f"Column '{_q(col)}' holds eye screening grades (e.g. '{_q(example, 24)}'"
                    f"): read as {read_as}" + (
                        f"; its {other:,} other written cell(s) are gaps there"
                        if other else "") + ".")
        out = replaced(out, col, new, note)
    return out


__all__ = ["GRADES", "grade_parts", "split_retinopathy"]
