"""TNM stages written in one cell ("pT2N1M0"), read as three ordered columns.

An oncology export often writes a tumour's TNM classification in one column. As text,
"T2N1M0", "pT2N0M0" and "T3 N0 M1" are a hundred different answers: the column was left
out as free text, and with it the M category that decides a patient's outlook most
(walk-through 25). Read apart, each part is an ordered stage the encoder knows: T0 < T1 <
T2 < T3 < T4 (with sub-stages T1a < T1b), N0 < N1 < N2 < N3, M0 < M1; "Tx", "Nx" and "Mx"
(not assessed) are gaps.

A column is read so when at least :data:`TNM_SHARE` of its written cells are TNM stages;
its other cells are gaps in the three parts, and the report says how many.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import mostly, replaced, text_columns
from sparge.data.safe_text import quote as _q

#: A TNM classification: an optional prefix (p, c, yp, r …), then T, N and M with their
#: categories, spaces or commas between them.
#: The M part may be missing ("pT3 N0": walk-through 54's resected tumours, 33 of them
#: read as gaps in T and N too): T and N are read, M is a gap.
_TNM = re.compile(
    r"\s*(?:[pcyra]{1,2})?T(is|x|[0-4][a-d]?)\s*[,;/]?\s*"
    # a sentinel node's, isolated tumour cells' or micrometastasis' mark after the N
    # ("pN0 (sn)", "pN0(i+)", "pN1mi"; walk-through 95's 19 "pT1 pN0 (sn)" were gaps):
    # the N category as written
    r"(?:[pc])?N(x|[0-3][a-c]?)(?:mi)?(?:\s*\((?:sn|i[+-]|mol[+-]|mi|f)\))?"
    r"(?:\s*[,;/]?\s*(?:[pc])?M(x|[01][a-c]?))?\s*",
    re.IGNORECASE)
#: Share of a column's written cells that must be TNM stages.
TNM_SHARE = 0.8
#: Fewest TNM cells for a column to be read so.
TNM_MIN = 5


def tnm_parts(cell: object) -> tuple[str, str, str] | None:
    """The T, N and M categories of one cell ("pT2N1aM0": ``("T2", "N1a", "M0")``), in
    one spelling (``""`` for an M part not written); ``None`` for a cell that is not a
    TNM stage.

    Examples
    --------
    >>> tnm_parts("pT3b N1a M0"), tnm_parts("T2N0Mx"), tnm_parts("stage II")
    (('T3b', 'N1a', 'M0'), ('T2', 'N0', 'Mx'), None)
    >>> tnm_parts("pT3 N0")  # no M part: a gap
    ('T3', 'N0', '')
    """
    m = _TNM.fullmatch(str(cell))
    if m is None:
        return None
    t, n, mm = ((g or "").lower() for g in m.groups())
    return f"T{t}", f"N{n}", f"M{mm}" if mm else ""


def _may_hold_stages(values: pd.Series) -> bool:
    """Whether a column's first cells are mostly TNM stages (:func:`mostly`)."""
    return mostly(values, _TNM.fullmatch, TNM_SHARE / 2, TNM_MIN)


def split_tnm(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each column of TNM stages replaced by three columns, ``"<name> T"``,
    ``"<name> N"`` and ``"<name> M"``, in its place (a note in
    ``df.attrs["sparge_read_notes"]`` says so). A table without one is returned as it
    is; so is a column whose three names are already taken.

    Parameters
    ----------
    df : DataFrame
    known : iterable of str
        Columns split whatever their number of TNM cells: those a model was fitted with,
        in a new patients' table of one or a few rows.
    """
    out = df
    for col, forced in text_columns(df, known, _may_hold_stages):
        text = df[col].astype(str).str.strip()
        written = text[text != ""]
        if len(written) < TNM_MIN and not forced:
            continue
        parts = written.map(tnm_parts)
        found = int(parts.notna().sum())
        if not forced and (found < TNM_MIN or found < TNM_SHARE * len(written)):
            continue
        names = [f"{col} {part}" for part in ("T", "N", "M")]
        if any(n in out.columns for n in names):
            continue
        split = text.map(tnm_parts)
        new = pd.DataFrame({
            name: [p[i] if p is not None else "" for p in split]
            for i, name in enumerate(names)}, index=df.index)
        other = len(written) - found
        three = f"'{_q(names[0])}', '{_q(names[1])}' and '{_q(names[2])}'"
        if found:
            example = written[parts.notna()].iloc[0]
            note = (f"Column '{_q(col)}' holds TNM stages (e.g. '{_q(example, 20)}'): read "
                    f"as three ordered columns, {three}" + (
                        f"; its {other:,} other written cell(s) are gaps there" if other
                        else "") + ".")
        else:
            note = (f"Column '{_q(col)}': {other:,} written cell(s) are not TNM stages "
                    f"(e.g. '{_q(written.iloc[0], 20)}'): gaps in {three}." if other
                    else "")
        out = replaced(out, col, new, note)
    return out


__all__ = ["TNM_SHARE", "split_tnm", "tnm_parts"]
