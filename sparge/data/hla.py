"""HLA mismatches written as three counts in one cell: "1-1-0", "1:1:0", "110", "2 1 1".

A kidney transplant's HLA mismatch is counted at three loci, A, B and DR, each 0, 1 or 2,
and clinics write the three counts in one cell in several ways. Walk-through 84's
transplant export wrote "1-1-0", "1:1:0", "110" and "2 1 1" in one column: more than 30
different text answers, so the column was left out as free text, and a key immunological
risk factor never reached the model. A column named as an HLA mismatch whose written cells
are such triples is read as three numeric columns, ``"<name> A"``, ``"<name> B"`` and
``"<name> DR"``, in the order the counts are written by convention.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import (
    named_columns,
    parts_frame,
    replaced,
    split_note,
    written_cells,
)

#: The loci, in the order a mismatch is written.
LOCI = ("A", "B", "DR")
#: A column named as an HLA mismatch ("HLA MM (A-B-DR)", "HLA mismatch", "Mismatch
#: (HLA)", "HLA-A/B/DR mismatches").
HLA_NAME = re.compile(r"\bhla\b.{0,30}\b(?:mm|mms|mismatch(?:es)?|mis-match(?:es)?)\b|"
                      r"\b(?:mm|mismatch(?:es)?)\b.{0,30}\bhla\b", re.IGNORECASE)
#: Three counts of 0 to 2, separated by a dash, colon, slash, comma, full stop or space,
#: or not at all ("110").
_TRIPLE = re.compile(r"([0-2])\s{0,2}[-:/,. ]?\s{0,2}([0-2])\s{0,2}[-:/,. ]?\s{0,2}([0-2])")
#: Share of a column's written cells that must be triples for it to be read so.
TRIPLE_SHARE = 0.8
#: ... and how many at least (a column of a few cells says too little).
TRIPLE_MIN = 5


def mismatch_parts(cell) -> tuple[int, int, int] | None:
    """The three counts of one cell, or ``None`` when it is no such triple.

    Examples
    --------
    >>> [mismatch_parts(c) for c in ("1-1-0", "1:1:0", "110", "2 1 1", "0.1.2", "3-1-0")]
    [(1, 1, 0), (1, 1, 0), (1, 1, 0), (2, 1, 1), (0, 1, 2), None]
    >>> mismatch_parts(11), mismatch_parts("11"), mismatch_parts(None)
    ((0, 1, 1), None, None)
    """
    if cell is None or (isinstance(cell, float) and not np.isfinite(cell)):
        return None
    if isinstance(cell, int | np.integer | float) and not isinstance(cell, bool):
        # a column read as numbers lost its leading zeros: 11 is "011"
        value = float(cell)
        if value != int(value) or not 0 <= value <= 222:
            return None
        text = f"{int(value):03d}"
    else:
        text = str(cell).strip()
    m = _TRIPLE.fullmatch(text)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def split_hla_mismatches(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each column of HLA mismatches ("1-1-0") replaced by three numeric
    columns, ``"<name> A"``, ``"<name> B"`` and ``"<name> DR"``, in its place (a note in
    ``df.attrs["sparge_read_notes"]`` says so). Only a column named as an HLA mismatch
    (:data:`HLA_NAME`) whose written cells are mostly triples; a column whose three names
    are already taken is kept as it is.

    Parameters
    ----------
    df : DataFrame
    known : iterable of str
        Columns split whatever their cells: those a model was fitted with, in a new
        patients' table of one or a few rows.
    """
    known = {str(c) for c in known}
    out = df
    parts_of = {f"{c} {locus}" for c in hla_columns(df.columns) for locus in LOCI}
    for col in named_columns(df, HLA_NAME):
        if str(col) in parts_of:  # one count of a mismatch split already
            continue
        forced = str(col) in known
        values = df[col]
        _, written = written_cells(values)
        cells = values[written.index]
        parts = cells.map(mismatch_parts)
        found = int(parts.notna().sum())
        # most written as three counts ("110", "1-1-0"): a column of single counts
        # (0, 1, 2) is no triple, though a number 1 reads as "001"
        whole = int((parts.notna() & (written.str.len() >= 3)).sum())
        if not forced and (found < TRIPLE_MIN or found < TRIPLE_SHARE * len(written)
                           or whole < TRIPLE_SHARE * found):
            continue
        names = [f"{col} {locus}" for locus in LOCI]
        if any(n in out.columns for n in names):
            continue
        new = parts_frame(values.map(mismatch_parts), names, df.index)
        note = split_note(col, "HLA mismatches at A, B and DR", "as three counts", names,
                          written, parts.notna())
        out = replaced(out, col, new, note)
    return out


def hla_columns(columns) -> list[str]:
    """The columns split by :func:`split_hla_mismatches` among a model's input columns:
    each ``"<name> A"`` beside ``"<name> B"`` and ``"<name> DR"``, as ``<name>``."""
    cols = {str(c) for c in columns}
    return [c[:-2] for c in sorted(cols) if c.endswith(" A") and HLA_NAME.search(c[:-2])
            and {c[:-2] + " B", c[:-2] + " DR"} <= cols]
