"""A urine measurement written as a number or as a dipstick's grade, in one column.

Walk-through 100's kidney transplant register wrote its "uPCR 12/12" as a protein to
creatinine ratio ("16", "45 mg/mmol") for 329 recipients and as a urine dipstick's grade
("neg", "trace", "+", "++") for 101: with more than 30 different answers and under 80 %
numbers, the column was left out whole, proteinuria with it. A ratio and a grade measure
the same protein with no exact conversion between them (a dipstick reads a concentration,
the ratio corrects it for the urine's dilution), so neither is turned into the other: the
column is read as two, side by side, each with gaps where the other was written,

* ``<name>``: the numbers, in the column's unit;
* ``<name> (dipstick)``: the grades, an ordered scale (negative < trace < 1+ < 2+ < 3+ <
  4+; :data:`~sparge.data.tables.SCALES`' "urine dipstick").
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import replaced, written_cells
from sparge.data.parsing import parse_numeric
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS

#: A urine measurement's column, by its name: a protein's or an albumin's ratio, a
#: proteinuria, a urine test (not a viral PCR, nor a C-reactive protein).
URINE_NAME = re.compile(r"\bu\s?[pa]cr\b|\b[pa]cr\b|proteinuria|albuminuria|\burin\w*|"
                        r"\bdipstick|haematuria|hematuria|glycosuria|ketonuria",
                        re.IGNORECASE)
_VIRAL = re.compile(r"\b(?:cmv|ebv|bk|bkv|hiv|hbv|hcv|covid|sars|vir\w*|pcr\s+for)\b",
                    re.IGNORECASE)
#: A dipstick's grades, as written, by the name each is shown with.
GRADES = {
    "negative": ("neg", "negative", "nil", "-ve", "neg.", "none"),
    "trace": ("trace", "tr", "trace protein", "+/-", "±"),
    "1+": ("+", "1+", "+1", "1 +"),
    "2+": ("++", "2+", "+2", "2 +"),
    "3+": ("+++", "3+", "+3", "3 +"),
    "4+": ("++++", "4+", "+4", "4 +"),
}
_GRADE_OF = {w: shown for shown, words in GRADES.items() for w in words}
#: Suffix of the grades' column.
SUFFIX = " (dipstick)"
#: Fewest grades, and their least share of the written cells, to split a column ...
FEWEST = 5
SHARE = 0.05
#: ... whose numbers are at least this share of its written cells.
NUMBERS = 0.3


def grade_of(cell: object) -> str | None:
    """A dipstick grade's shown name, or ``None``.

    Examples
    --------
    >>> [grade_of(c) for c in ["neg", "Trace", "++", "2+", "16", "+++ "]]
    ['negative', 'trace', '2+', '2+', None, '3+']
    """
    return _GRADE_OF.get(re.sub(r"\s+", " ", str(cell).strip().lower()))


def dipstick_columns(fitted) -> list[str]:
    """The columns of a fitted model's features that were split so (their source's
    name), for a new patients' table: split there however few its grades."""
    return [str(c)[:-len(SUFFIX)] for c in fitted if str(c).endswith(SUFFIX)]


def split_dipsticks(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each urine column of numbers and dipstick grades (by its name,
    :data:`URINE_NAME`; at least :data:`FEWEST` grades, :data:`SHARE` of its written
    cells, and :data:`NUMBERS` of them numbers) read as two: its numbers in place, its
    grades in ``<name> (dipstick)`` beside it, with a note. ``known``: the source columns
    a model was fitted with so (:func:`dipstick_columns`), split whatever their cells."""
    known = {str(c) for c in known}
    out = df
    # a grades' column given as such (the New patient form's box): "++" is "2+" there too
    for col in [c for c in df.columns if str(c).endswith(SUFFIX)]:
        cells = df[col].astype(object)
        read = cells.map(lambda c: grade_of(c) if isinstance(c, str) else None)
        if read.notna().any() and (read.dropna() != cells[read.notna()]).any():
            if out is df:
                out = df.copy()
                out.attrs = dict(df.attrs)
            out[col] = cells.where(read.isna(), read)
    for col in list(df.columns):
        name = str(col)
        forced = name in known
        if not forced and (not URINE_NAME.search(name) or _VIRAL.search(name)):
            continue
        if name + SUFFIX in df.columns or pd.api.types.is_numeric_dtype(df[col]):
            continue
        text, written = written_cells(df[col])
        if not len(written):
            continue
        grades = written.map(grade_of)
        n_grades = int(grades.notna().sum())
        # the numbers of the other cells: a grade's "2+" reads as a number too
        numbers, _ = parse_numeric(written[grades.isna()], set(DEFAULT_MISSING_TOKENS), None)
        n_numbers = int(np.isfinite(numbers).sum())
        if not forced and (n_grades < FEWEST or n_grades < SHARE * len(written)
                           or n_numbers < NUMBERS * len(written)):
            continue
        if not n_grades and not forced:
            continue
        rows = grades.dropna().index
        kept = df[col].astype(object).copy()
        kept[rows] = ""
        shown = pd.Series("", index=df.index, dtype=object)
        shown[rows] = grades[rows]
        parts = pd.DataFrame({col: kept, name + SUFFIX: shown}, index=df.index)
        example = written[rows[0]] if n_grades else ""
        note = (f"Column '{_q(name)}' holds numbers and a urine dipstick's grades (e.g. "
                f"'{_q(example, 12)}'; {n_grades:,} cell(s)): the grades are read into "
                f"'{_q(name + SUFFIX)}', an ordered scale (negative < trace < 1+ < 2+ < "
                "3+ < 4+), beside the numbers; no exact conversion links a grade to a "
                "number.") if n_grades else ""
        out = replaced(out, col, parts, note)
    return out
