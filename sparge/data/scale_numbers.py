"""A clinical class or stage written in words, Roman numerals or after its scale's name,
read as its number: the Hoehn and Yahr stage of Parkinson's disease and the Canadian
Cardiovascular Society (CCS) angina class.

Walk-through 97's movement-disorders clinic wrote its H&Y stage as numbers with the half
stages of the modified scale (1, 1.5, 2, 2.5, 3, 4, 5), after the scale's initials or
"stage", and in Roman numerals: 32 unordered answers, "H&Y 3" coded 16 and "5" coded 7.
Walk-through 98's cardiac surgery unit wrote its CCS angina class as numbers, "CCS 2",
"II" and "no angina": 22 unordered answers, "none" read as a gap. Each is a number on its
scale, so in a column named for one (:data:`HOEHN_YAHR_NAME`, :data:`CCS_NAME`) a cell is
read as that number: the scale's name, "stage" or "class" before it are dropped, a Roman
numeral is its number, a stage between two ("1.5-2") stays a range (read as its middle, as
any range is), and no angina is class 0. Numbers beyond the scale and cells of any other
form are left as written.

The same unit's left ventricular ejection fraction was written as a number ("57%", "EF
52", "LVEF 45%", "55-60%") in half of its cells and in words in the other half ("good
(>50%)", "Good LV", "moderate", "mildly impaired", "VP <20%"), and its PA systolic
pressure as "PASP 32", "mod 31-55" or "no PHT": more than 30 answers each, both columns
were left out. In a column named for one (:data:`LVEF_NAME`, :data:`PASP_NAME`) a number
after the measurement's initials is that number, and a word the band the column writes
beside it, else its band's value (:data:`LVEF_WORDS`, :data:`PASP_WORDS`).

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import named_columns, own_copy, rewrite_named
from sparge.data.parsing import scale_level
from sparge.data.safe_text import quote as _q

#: A column of the Hoehn and Yahr stage, by its name ("H&Y stage", "Hoehn & Yahr", "HY").
HOEHN_YAHR_NAME = re.compile(r"hoehn|\bh\s*(?:&|and|\+)\s*y\b|^\s*(?:m?hy|h-y)\b",
                             re.IGNORECASE)
#: A column of the CCS angina class, by its name ("CCS angina", "CCS class", "Angina
#: (CCS)", "Canadian Cardiovascular Society class").
CCS_NAME = re.compile(r"\bccs\b|canadian\s+cardiovascular", re.IGNORECASE)
_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5"}
_HY_PREFIX = (r"(?:(?:modified\s+)?(?:hoehn\s*(?:&|and)\s*yahr|h\s*(?:&|and|\+)\s*y|m?hy|h-y)"
              r"\s*(?:stage)?|stage)")
_HY_STAGE = r"(?:[0-5](?:\.5)?|i{1,3}|iv|v)"
_HY_CELL = re.compile(rf"\s*(?:{_HY_PREFIX}\s*[:=-]?\s*)?({_HY_STAGE})(?:\s*(?:-|to|–)\s*"
                      rf"({_HY_STAGE}))?\s*", re.IGNORECASE)
_CCS_CELL = re.compile(r"\s*(?:ccs|class|angina)?\s*(?:class)?\s*[:=-]?\s*([0-4]|i{1,3}|iv)\s*",
                       re.IGNORECASE)
_NO_ANGINA = re.compile(r"\s*(?:nil|none|no|no angina|angina free|asymptomatic|"
                        r"no chest pain)\s*", re.IGNORECASE)


def _number(written: str) -> str:
    return _ROMAN.get(written.lower(), written)


def _text(cell: object) -> str | None:
    """A cell's text with single spaces, ``None`` when empty or too long to be a class."""
    text = re.sub(r"\s+", " ", str(cell).strip())
    return text if text and len(text) <= 30 else None


def hoehn_yahr_stage(cell: object) -> str | None:
    """A Hoehn and Yahr cell as the number to read ("H&Y 2.5": "2.5", "stage III": "3",
    "stage II-III": "2-3"); ``None`` for a plain number or range (read as it is) and any
    other cell.

    Examples
    --------
    >>> [hoehn_yahr_stage(c) for c in ["H&Y 2.5", "HY2", "stage III", "IV", "H&Y 1.5-2",
    ...                                "stage 2.5", "2.5", "1.5-2", "6", "N/A - ET"]]
    ['2.5', '2', '3', '4', '1.5-2', '2.5', None, None, None, None]
    """
    text = _text(cell)
    m = _HY_CELL.fullmatch(text) if text else None
    if m is None:
        return None
    low = _number(m.group(1))
    if m.group(2) is not None and float(_number(m.group(2))) <= float(low):
        return None
    read = low if m.group(2) is None else f"{low}-{_number(m.group(2))}"
    return None if read == text else read


def ccs_class(cell: object) -> str | None:
    """A CCS angina cell as the class's number ("CCS 2": "2", "III": "3", "no angina":
    "0"); ``None`` for a plain number (read as it is) and any other cell.

    Examples
    --------
    >>> [ccs_class(c) for c in ["CCS 2", "CCS4", "III", "class II", "no angina", "nil",
    ...                         "2", "5", "unstable"]]
    ['2', '4', '3', '2', '0', '0', None, None, None]
    """
    text = _text(cell)
    if text is None:
        return None
    if _NO_ANGINA.fullmatch(text):
        return "0"
    m = _CCS_CELL.fullmatch(text)
    read = _number(m.group(1)) if m is not None else None
    return None if read == text else read


#: A column of the left ventricle's ejection fraction or systolic function, by its name
#: ("LVEF", "EF (%)", "Ejection fraction", "LV function"); not the right ventricle's.
LVEF_NAME = re.compile(r"^(?!.*\brv).*(?:\blv\s*ef\b|\blvef|\bef\b|ejection\s+fraction|"
                       r"\blv\s+(?:systolic\s+)?function|\blvsf\b)", re.IGNORECASE)
#: Ejection fraction words as the ejection fraction read (%): the British Society of
#: Echocardiography's bands as :data:`~sparge.data.parsing.scale_level` reads them (normal
#: 55 % or more, mildly impaired 45-54, moderately 36-44, severely 35 or less: a band's
#: middle, an open band as its limit), and EuroSCORE's "very poor", 20 or less.
_EF = scale_level("LVEF")
LVEF_WORDS = (("good, normal or preserved", _EF("good")), ("mildly impaired", _EF("mild")),
              ("moderately impaired", _EF("moderate")),
              ("poor or severely impaired", _EF("poor")), ("very poor", _EF("very poor")))
#: A column of the pulmonary artery's systolic pressure, by its name ("PA systolic",
#: "PASP", "RVSP", "Pulmonary artery pressure").
PASP_NAME = re.compile(r"\bpa\s*(?:systolic|sys|pressure)|\bpasp\b|\brvsp\b|"
                       r"pulmonary\s+(?:artery\s+)?(?:systolic\s+)?pressure", re.IGNORECASE)
#: Pulmonary pressure words as the pressure read (mmHg): EuroSCORE's bands (normal < 31,
#: moderate 31-55, severe > 55; walk-through 98) as a band's middle, an open band as its
#: limit, as ranges and limits are read ("<31" is 31); "mild", a band of echo reports
#: (36-45), as its middle.
PASP_WORDS = (("normal or no pulmonary hypertension", 31.0), ("mild", 40.5),
              ("moderate", 43.0), ("severe", 55.0))

_SEVERITY_OF = r"(?:\s+(?:impaired|reduced|depressed|dysfunction|lvsd|lvsf|lv|" \
    r"lv\s+function|function|systolic\s+function|lv\s+systolic\s+function|pht|ph|" \
    r"pulmonary\s+hypertension))?"
_PERCENT = r"(\d{1,3}(?:\.\d)?)\s*(?:%|mm\s*hg)?"
_BAND = re.compile(rf"\s*[(\[]?\s*(?:ef\s*)?(?:{_PERCENT}\s*(?:-|–|to)\s*{_PERCENT}|"
                   r"[<>≤≥]=?\s*(\d{1,3})\s*(?:%|mm\s*hg)?)\s*[)\]]?\s*", re.IGNORECASE)
_NUMBER = re.compile(rf"{_PERCENT}(?:\s*(?:-|–|to)\s*{_PERCENT})?\s*", re.IGNORECASE)


def _middle(low: str, high: str) -> str:
    """The middle of a range written as two numbers: "30", "50" is "40"."""
    return f"{(float(low) + float(high)) / 2:g}"


class _BandedReader:
    """A reader of a measurement written as a number after its name (``prefix``) or as
    a band's word (``words``: a pattern and the value of each, tried in order). A band
    written beside the word is read as its middle, an open one as its limit, as ranges
    and limits are read ("poor (21-30%)": 25.5; "good (>50%)": 50), and a word written
    alone as the band the column writes beside that word elsewhere, when it does
    (:meth:`column_reader`): "moderate" as "mod 31-55" does."""

    def __init__(self, prefix: str, words: tuple[tuple[str, float], ...]) -> None:
        self.named = re.compile(rf"\s*(?:{prefix})\s*(?:of\s+|[:=-]\s*)?", re.IGNORECASE)
        self.words = tuple((re.compile(rf"\s*(?:{w}){_SEVERITY_OF}(?![a-z])"), v)
                           for w, v in words)

    def parse(self, cell: object) -> tuple[str | None, float | None, bool]:
        """The reading of a cell, the value of its word (``None`` without one) and
        whether a band was written beside the word."""
        text = _text(cell)
        if text is None:
            return None, None, False
        m = self.named.match(text)
        rest = text[m.end():] if m is not None and m.end() else text
        num = _NUMBER.fullmatch(rest)
        if num is not None:
            if rest is text:  # a plain number or range: read as it is
                return None, None, False
            return (num.group(1) if num.group(2) is None else
                    _middle(num.group(1), num.group(2))), None, False
        low = rest.lower()
        for word, value in self.words:
            w = word.match(low)
            if w is None:
                continue
            band = low[w.end():]
            if not band.strip():
                return f"{value:g}", value, False
            b = _BAND.fullmatch(band)
            if b is None:
                return None, None, False
            if b.group(1) is not None:
                return _middle(b.group(1), b.group(2)), value, True
            return b.group(3), value, True
        return None, None, False

    def __call__(self, cell: object) -> str | None:
        return self.parse(cell)[0]

    def written_bands(self, cells: pd.Series) -> dict[str, str]:
        """The band a column writes beside each word, in most of its cells that write
        one: ``{word's value: the band's reading}`` ("40": "43" for "mod 31-55")."""
        written: dict[str, dict[str, int]] = {}
        for cell, n in cells.dropna().astype(str).value_counts().items():
            read, value, banded = self.parse(cell)
            if banded:
                counts = written.setdefault(f"{value:g}", {})
                counts[read] = counts.get(read, 0) + int(n)
        return {v: max(c, key=c.get) for v, c in written.items()}

    def column_reader(self, bands: dict[str, str]):
        """The reader for one column: a word alone read as the band the column writes
        beside it (``bands``, :meth:`written_bands`)."""

        def read(cell: object) -> str | None:
            reading, value, banded = self.parse(cell)
            return bands.get(f"{value:g}", reading) if value is not None and not banded \
                else reading

        return read


_lvef = _BandedReader(
    r"lv\s*ef|lvef|ef|lv\s+(?:systolic\s+)?function|lv|lvsf",
    ((r"very\s+(?:poor|severe(?:ly)?|bad)|v\.?\s?p\.?|extremely\s+poor", LVEF_WORDS[4][1]),
     (r"good|normal|nml|preserved|satisfactory|hyper\s*dynamic", LVEF_WORDS[0][1]),
     (r"borderline|low\s+normal|mild(?:ly)?|mildly\s+to\s+moderately", LVEF_WORDS[1][1]),
     (r"mod(?:erate(?:ly)?)?\.?", LVEF_WORDS[2][1]),
     (r"poor|severe(?:ly)?|bad", LVEF_WORDS[3][1])))
_pasp = _BandedReader(
    r"pasp|rvsp|pa\s*(?:systolic|sys|pressure)?",
    ((r"normal|nml|n|no\s+(?:pht|ph|pulmonary\s+hypertension)|nil|none", PASP_WORDS[0][1]),
     (r"mild(?:ly)?", PASP_WORDS[1][1]), (r"mod(?:erate(?:ly)?)?\.?", PASP_WORDS[2][1]),
     (r"severe(?:ly)?", PASP_WORDS[3][1])))


def lvef_percent(cell: object) -> str | None:
    """An ejection fraction cell as the number to read: after "EF" or "LVEF" its number
    or the middle of its range ("EF 45-50": "47.5"); in words, its band's value
    (:data:`LVEF_WORDS`: "Good LV" 55, "moderate" 40), or the band written beside the
    word, its middle or its open limit ("moderate (30-50%)": "40", "good (>50%)": "50");
    ``None`` for a plain number or range (read as it is) and any other cell ("impaired"
    alone says no band).

    Examples
    --------
    >>> [lvef_percent(c) for c in ["EF 52", "LVEF 56%", "EF 25-30", "good (>50%)",
    ...  "Good LV", "mildly impaired", "moderate (30-50%)", "VP <20%", "poor <30",
    ...  "very poor <21", "55-60%", "57%", "impaired", "see echo"]]
    ['52', '56', '27.5', '50', '55', '49.5', '40', '20', '30', '21', None, None, None, None]
    """
    return _lvef(cell)


def pa_pressure(cell: object) -> str | None:
    """A pulmonary artery systolic pressure cell as the number to read: after "PASP" or
    "RVSP" its number; in words, its band's value (:data:`PASP_WORDS`), or the band
    written beside the word ("mod 31-55": "43"); ``None`` for a plain number (read as it
    is) and any other cell.

    Examples
    --------
    >>> [pa_pressure(c) for c in ["PASP 32", "normal", "no PHT", "N", "moderate",
    ...  "Moderate (31-55)", "mod 31-55", "severe PHT", "severe >55", "33", "<31"]]
    ['32', '31', '31', '31', '43', '43', '43', '55', '55', None, None]
    """
    return _pasp(cell)


#: The scales read: the column's name, the reader, what a cell is and the scale's range.
_SCALES = ((HOEHN_YAHR_NAME, hoehn_yahr_stage, "Hoehn and Yahr stage(s)", "'stage'",
            "the stage's number (1 to 5 with the half stages 1.5 and 2.5; a stage between "
            "two as its middle)"),
           (CCS_NAME, ccs_class, "CCS angina class(es)", "'class'",
            "the class's number (0, no angina, to 4, angina at rest)"))


#: Where :func:`read_scale_numbers` records the bands each column writes beside its
#: words, in the table's ``attrs``: a fitted encoder keeps them, and reads a new
#: patient's "good" as its training patients' "good (>50%)".
WORD_BANDS_ATTR = "sparge_word_bands"


def read_scale_numbers(df: pd.DataFrame, bands: dict[str, dict[str, str]] | None = None
                       ) -> pd.DataFrame:
    """``df`` with its Hoehn and Yahr and CCS angina columns' cells read as the scale's
    number, and its ejection fraction and pulmonary pressure columns' words as their
    band's value (a note each); other columns and cells unchanged. ``bands``: a fitted
    encoder's ``{column: {word's value: band read}}`` (a new patient's table is read on
    them; without, each column's own are learned and recorded in
    ``attrs[WORD_BANDS_ATTR]``)."""
    learned: dict[str, dict[str, str]] = {}
    start = df
    for name, read, what, word, scale in _SCALES:
        df = rewrite_named(df, name, read, lambda col, n, example, new, w=what, o=word,
                           s=scale: (
            f"Column '{_q(col)}': {n:,} {w} written with the scale's name, {o}, in Roman "
            f"numerals or in words (e.g. '{_q(example, 30)}' as {new}) read as {s}."),
            share=0.05)
    for name, reader, what, after, unit, words, example in (
            (LVEF_NAME, _lvef, "ejection fractions", "'EF'", "%", LVEF_WORDS,
             "moderate (30-50%)"),
            (PASP_NAME, _pasp, "pulmonary pressures", "'PASP'", "mmHg", PASP_WORDS,
             "moderate (31-55)")):
        shown = ", ".join(f"{w} {v:g}" for w, v in words)
        for col in named_columns(df, name):
            if bands is None:
                own = reader.written_bands(df[col])
                if own:
                    learned[str(col)] = own
            else:
                own = bands.get(str(col), {})
            df = rewrite_named(df, [col], reader.column_reader(own),
                               lambda col, n, first, new, w=what, a=after, u=unit, b=shown,
                               e=example: (
                f"Column '{_q(col)}': {n:,} {w} written in words or after {a} (e.g. "
                f"'{_q(first, 30)}' as {new}) read as the number written, or a word as the "
                f"band the column writes beside it ('{e}'), else as its band's value "
                f"({u}): {b}; a band's middle, an open band's limit, as ranges and limits "
                "are read. Conventions draw the bands a little differently."),
                share=0.05)
    if learned:
        df = own_copy(df, start)
        df.attrs[WORD_BANDS_ATTR] = learned
    return df


__all__ = ["CCS_NAME", "HOEHN_YAHR_NAME", "LVEF_NAME", "LVEF_WORDS", "PASP_NAME",
           "PASP_WORDS", "WORD_BANDS_ATTR", "ccs_class", "hoehn_yahr_stage",
           "lvef_percent", "pa_pressure", "read_scale_numbers"]
