"""An autoantibody's result written as a word or as a titre, read as positive or negative.

A rheumatology export writes a rheumatoid factor "positive", "+ve", "neg", "Negative
(<14)", or as the laboratory reported it: "86 IU/mL", "<14", ">340 IU/mL". Walk-through
66's RF and anti-CCP columns were left out as more than 30 answers (every titre one),
and with them seropositivity, which decides a rheumatoid arthritis' course. A titre is
positive at or above the laboratory's cut-off, and the column says it: "Negative (<14)"
names 14, and a limit written for many patients ("<14", the cut-off the laboratory
reports below) names it too. With a cut-off known, each titre is read as the word it
stands for; without one the titres stay as written (and the column may be left out).

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd

from sparge.data.combined_cells import named_columns, own_copy
from sparge.data.safe_text import quote as _q

#: A column of JC virus antibodies, by its name.
_JCV = r"\bjcv\b|\bjc ?virus|\bjcpyv\b"
#: A column of an autoantibody's results, by its name.
_NAMED = re.compile(r"\brf\b|rheumatoid factor|\bccp\b|anti[\s-]?ccp|\bacpa\b|\bana\b|"
                    r"antinuclear|ds[\s-]?dna|\banca\b|\bena\b|autoantibod|"
                    # a biologic's anti-drug antibodies (walk-through 68: "<10", "not
                    # detected", "positive (113)" beside Negative and Positive)
                    r"anti[\s-]?drug antibod|drug antibod|antibodies to|"
                    # JC virus antibodies before natalizumab (walk-through 85: "JCV neg",
                    # "positive 0.9", "JCV+ index 1.9", "0.14" left out as free text)
                    + _JCV, re.IGNORECASE)
#: Cut-offs a column's name gives when its cells name none: ``(pattern, positive above,
#: equivocal from)``. The JC virus antibody index (STRATIFY JCV DxSelect) is negative up
#: to 0.20, indeterminate up to 0.40 and positive above.
_KNOWN_CUTS = ((re.compile(_JCV, re.IGNORECASE), 0.4, 0.2),)
#: The test's name before its result: "JCV neg", "JCV+ index 1.9", "JCV Ab: positive".
_NAME_FIRST = re.compile(r"\s*(?:jcv|jc virus|jcpyv)(?: ?ab| antibody| antibodies)?\s*:?\s*",
                         re.IGNORECASE)
#: A result in words with its index or titre after it: "positive 0.9", "pos 2.50",
#: "+ index 1.9", "equivocal 0.25" (the laboratory's word decides).
_WORD_THEN = re.compile(r"\s*(positive|pos\.?|\+ve|\+|negative|neg\.?|-ve|-|equivocal|"
                        r"indeterminate|borderline)\s*(?:index|titre|titer)?\s*[:=]?\s*"
                        r"[<>]?\d{1,5}(?:\.\d{1,3})?\s*", re.IGNORECASE)
#: ... or before it, in brackets: "0.27 (indeterminate)", "3.1 (pos)".
_THEN_WORD = re.compile(r"\s*[<>]?\d{1,5}(?:\.\d{1,3})?\s*\(\s*(positive|pos\.?|\+ve|negative|"
                        r"neg\.?|-ve|equivocal|indeterminate|borderline)\s*\)\s*",
                        re.IGNORECASE)
#: A result the laboratory could not call either way.
_EQUIVOCAL = re.compile(r"\s*(?:equivocal|indeterminate|borderline)\s*(?:\(.{0,30}\))?\s*",
                        re.IGNORECASE)
_POSITIVE = re.compile(r"\s*(?:positive|pos\.?|\+ve|\+|posve|weakly positive|weak positive|"
                       r"strongly positive|detected)\s*(?:\(.{0,30}\))?\s*", re.IGNORECASE)
_NEGATIVE = re.compile(r"\s*(?:negative|neg\.?|-ve|-|negve|not detected)\s*"
                       r"(?:\(.{0,30}\))?\s*", re.IGNORECASE)
#: The cut-off a word's bracket names: "Negative (<14)", "neg (< 7 U/mL)".
_BRACKET_CUT = re.compile(r"\(\s*<\s*=?\s*(\d{1,4}(?:\.\d{1,2})?)")
#: A titre: a number, or a limit, with an optional unit.
_TITRE = re.compile(r"\s*([<>]=?)?\s*(\d{1,5}(?:\.\d{1,2})?)\s*(?:[a-z]{1,4}/m?l|iu|u|"
                    r"ku/l|au/ml)?\s*", re.IGNORECASE)
#: Fewest results in words for a column to be read so, as a share of its written cells.
WORD_SHARE = 0.4


def _word(cell: str) -> str | None:
    if len(cell) > 48:
        return None
    cell = _NAME_FIRST.sub("", cell, count=1) if _NAME_FIRST.match(cell) else cell
    if (m := _WORD_THEN.fullmatch(cell) or _THEN_WORD.fullmatch(cell)) is not None:
        cell = m.group(1)
    if _NEGATIVE.fullmatch(cell):
        return "Negative"
    if _POSITIVE.fullmatch(cell):
        return "Positive"
    if _EQUIVOCAL.fullmatch(cell):
        return "Equivocal"
    return None


def known_cut(column: str) -> tuple[float, float] | None:
    """The cut-off a column's name gives, with where its equivocal band starts
    (:data:`_KNOWN_CUTS`), or ``None``."""
    return next(((cut, low) for named, cut, low in _KNOWN_CUTS if named.search(column)),
                None)


def cut_off(cells, counts=None) -> float | None:
    """The laboratory's cut-off a column of results names: in a negative word's bracket
    ("Negative (<14)"), else the upper limit written most often below it ("<14", by at
    least 5 cells); ``None`` without either. ``counts``: how many times each of the
    (distinct) ``cells`` is written, once each by default."""
    bracketed = Counter()
    limits = Counter()
    for cell, n in zip(cells, counts if counts is not None else iter(lambda: 1, None)):
        text = str(cell)
        if len(text) > 48:
            continue
        if _word(text) == "Negative" and (m := _BRACKET_CUT.search(text)):
            bracketed[float(m.group(1))] += int(n)
        elif (m := _TITRE.fullmatch(text)) and m.group(1) in ("<", "<="):
            limits[float(m.group(2))] += int(n)
    if bracketed:
        return bracketed.most_common(1)[0][0]
    if limits and (top := limits.most_common(1)[0])[1] >= 5:
        return top[0]
    return None


def _reading(cell: str, cut: float, low: float | None = None) -> str | None:
    """A cell as "Positive", "Negative" or "Equivocal" (an index from ``low`` up to the
    ``cut``, where the name gives such a band), or ``None``."""
    word = _word(cell)
    if word is not None:
        return word
    text = _NAME_FIRST.sub("", cell, count=1) if _NAME_FIRST.match(cell) else cell
    text = re.sub(r"^\s*(?:index|titre|titer)\s*[:=]?", "", text, flags=re.IGNORECASE)
    m = _TITRE.fullmatch(text) if len(text) <= 24 else None
    if m is None:
        return None
    sign, value = m.group(1), float(m.group(2))
    if sign in ("<", "<="):
        return "Negative" if value <= (cut if low is None else low) else None
    if sign in (">", ">="):
        return "Positive" if value >= cut else None
    if low is not None:  # a band the laboratory calls neither: above low, up to the cut
        return "Positive" if value > cut else "Equivocal" if value > low else "Negative"
    return "Positive" if value >= cut else "Negative"


#: Where :func:`read_serology` records each column's cut-off: ``attrs[CUT_OFFS_ATTR]``.
CUT_OFFS_ATTR = "sparge_cut_offs"


def read_serology(df: pd.DataFrame, cut_offs: dict[str, float] | None = None
                  ) -> pd.DataFrame:
    """The table with each autoantibody column (:data:`_NAMED`) written mostly as
    positive or negative, and whose cut-off it names (:func:`cut_off`), read as
    "Positive" and "Negative" (a titre at or above the cut-off is positive), and a note
    per column. Other tables are returned as they are. ``cut_offs``: a fitted encoder's
    ``{column: cut-off}``, on which a new patient's titre is read however few its cells
    (a one-row table names no cut-off: "86 IU/mL" was left unread). Each column read
    records its cut-off in ``attrs[CUT_OFFS_ATTR]``."""
    out = df
    found: dict[str, float] = {}
    for col in named_columns(df, _NAMED):
        if pd.api.types.is_numeric_dtype(df[col]):
            continue
        values = df[col]
        codes, uniques = pd.factorize(values)
        cells = [str(u).strip() for u in uniques]
        counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
        cut = (cut_offs or {}).get(str(col))
        named = known_cut(str(col))
        if cut is None:
            written = int(counts.sum())
            worded = sum(int(n) for c, n in zip(cells, counts, strict=True) if _word(c))
            if not written or worded < WORD_SHARE * written:
                continue
            cut = cut_off(cells, counts)  # each distinct cell once, with its count
            if cut is None and named is not None:  # the test's own, by its name
                cut = named[0]
            if cut is None:
                continue
        found[str(col)] = float(cut)
        low = named[1] if named is not None and float(cut) == named[0] else None
        read = [_reading(c, cut, low) for c in cells]
        titres = sum(int(n) for c, r, n in zip(cells, read, counts, strict=True)
                     if r is not None and _word(c) is None)
        out = own_copy(out, df)
        new = np.asarray([r if r is not None else c for c, r in zip(cells, read,
                                                                     strict=True)]
                         + [None], dtype=object)
        out[col] = pd.Series(new[codes], index=values.index, dtype=object).where(
            codes >= 0, values)
        if titres:
            out.attrs["sparge_read_notes"] = [
                *out.attrs.get("sparge_read_notes", []),
                f"Column '{_q(col)}': {titres:,} titre(s) read as positive or negative "
                + (f"(or equivocal) by the test's cut-off ({cut:g}: positive above it, "
                   f"equivocal above {low:g}), beside its results in words."
                   if low is not None else
                   f"by the laboratory's cut-off the column names ({cut:g}: positive at or "
                   "above it), beside its results in words.")]
    if found:
        out = own_copy(out, df)
        out.attrs[CUT_OFFS_ATTR] = found
    return out


__all__ = ["CUT_OFFS_ATTR", "cut_off", "read_serology"]
