"""A maternity export's own notations: parity ("G2P1", "P1+0", "para 2") and an early
gestation ("11+3", "8w 2d"), read as numbers in the columns named so.

Walk-through 43's export wrote parity five ways; as text it had more than 30 answers and
was left out as free text, and with it one of the first things an obstetrician reads. Its
gestation at booking ("11+3") was lost too: a gestation is read anywhere from 20 weeks on
(:mod:`sparge.data.parsing`; "2+1" elsewhere is a parity, not 2 weeks), and a booking lies
before. Both readers look only at a column named so, rewrite each cell they read as its
number, and say so in ``df.attrs["sparge_read_notes"]``; the other cells stay as written.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q

#: A column of parity (not "Primary", not "Paracetamol").
_PARITY_NAME = re.compile(r"\bparity\b|\bpara\b|\bg\s{0,2}/\s{0,2}p\b|gravida\s{0,3}/?\s{0,3}para",
                          re.IGNORECASE)
#: "G2P1", "G2 P1+1", "gravida 3 para 2": the parity is P's number (births from 24 weeks;
#: after "+", the losses before).
_GP = re.compile(r" {0,3}g(?:ravida)?\.? {0,2}(\d{1,2}) {0,3}[,/;]? {0,3}p(?:ara)?\.? {0,2}"
                 r"(\d{1,2})(?: {0,2}\+ {0,2}(\d{1,2}))? {0,3}", re.IGNORECASE)
#: "P1+0", "para 2", "P2", "para 1+1", "1+0", "multip (2)": the number before any "+".
_P = re.compile(r" {0,3}(?:p|para|parity|multip(?:ara|arous)?)?\.? {0,2}:? {0,2}\(? {0,2}"
                r"(\d{1,2}) {0,2}\)?(?: {0,2}\+ {0,2}(\d{1,2}))? {0,3}", re.IGNORECASE)
#: Words for no birth before: a first pregnancy too ("primip", "primigravida": walk-through
#: 99's five set to missing). Not "primipara", which may mean one birth.
_NULLIPAROUS = frozenset({"nulliparous", "nullip", "nullipara", "nulliparity", "para 0",
                          "p0", "none", "primip", "primigravida", "primigravid", "primigrav",
                          "first pregnancy", "first baby", "1st pregnancy"})


def parity_of(cell: object) -> float | None:
    """The parity written in one cell, or ``None``.

    Examples
    --------
    >>> parity_of("G2P1"), parity_of("P1+0"), parity_of("para 2"), parity_of("nulliparous")
    (1.0, 1.0, 2.0, 0.0)
    >>> parity_of("Primip"), parity_of("primipara")
    (0.0, None)
    """
    text = str(cell)
    if len(text) > 30:
        return None
    if text.strip().lower() in _NULLIPAROUS:
        return 0.0
    m = _GP.fullmatch(text) or _P.fullmatch(text)
    if m is None:
        return None
    return float(m.group(2) if m.re is _GP else m.group(1))


#: A column of gestational ages (weeks).
_GESTATION_NAME = re.compile(r"gestation|\bga\b|\bgest\b|weeks? (?:of|pregnant)|\bpoa\b",
                             re.IGNORECASE)
#: "11+3", "11+3/7", "11w3d", "11w 3d", "11 weeks 3 days", "11 wks + 3": weeks and days
#: from 4 weeks (a booking), bounded runs.
#: Before a gestation, how the baby was born: "prem 32/40", "ex-33/40", "ex 34+4".
_BORN = r"(?:(?:prem(?:ature)?|preterm|ex[\s-]{0,2}(?:prem)?|born\s{1,2}at)\s{0,2}[-:]?\s{0,2})?"
_WEEKS_DAYS = re.compile(r" {0,3}" + _BORN + r"([4-9]|[1-3]\d|4[0-5]) {0,3}"
                         r"(?:\+|w(?:ee)?k?s?\.? {0,3}\+?) {0,3}([0-6]) {0,3}"
                         r"(?:/ {0,2}7|d(?:ays?)?)?(?: {0,2}/ {0,2}40)? {0,3}", re.IGNORECASE)
#: Whole weeks with their mark: "38/40" (the UK's weeks of 40), "38w", "38 weeks".
_WEEKS = re.compile(r" {0,3}" + _BORN + r"([4-9]|[1-3]\d|4[0-5]) {0,2}"
                    r"(?:/ {0,2}40|w|wks?|weeks?)\.? {0,3}", re.IGNORECASE)
#: Born at term, its weeks not written: "term", "FT", "T", "term (SVD)": the middle of
#: term's 37 to 42 weeks, as a range is read.
_TERM = re.compile(r" {0,3}(?:full[\s-]{0,2}term|term|ft|t|at term)(?: {0,2}\([a-z ]{1,20}\))?"
                   r" {0,3}", re.IGNORECASE)
TERM_WEEKS = 39.5


def weeks_of(cell: object) -> float | None:
    """A gestation written in weeks and days, in weeks, or ``None``.

    Examples
    --------
    >>> round(weeks_of("11+3"), 4), round(weeks_of("8w 2d"), 4), weeks_of("2")
    (11.4286, 8.2857, None)
    >>> weeks_of("prem 32/40"), weeks_of("39+5/40") == 39 + 5 / 7, weeks_of("term (SVD)")
    (32.0, True, 39.5)
    """
    text = str(cell)
    if len(text) > 30:
        return None
    if m := _WEEKS_DAYS.fullmatch(text):
        return int(m.group(1)) + int(m.group(2)) / 7
    if m := _WEEKS.fullmatch(text):  # "38/40", "prem 32/40", "40w" (walk-through 60)
        return float(m.group(1))
    return TERM_WEEKS if _TERM.fullmatch(text) else None


def _rewrite(df: pd.DataFrame, named: re.Pattern, read, what: str, unit: str
             ) -> pd.DataFrame:
    """The columns named by ``named`` whose cells ``read`` gives a number for, those cells
    rewritten as the number; a note per column."""

    def as_text(cell: str) -> str | None:
        v = read(cell)
        return None if v is None else repr(float(v))

    return rewrite_named(df, named, as_text, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} {what} (e.g. '{_q(example, 20)}') read as {unit} "
        f"({format_number(round(float(new), 3))})."))


def read_obstetric(df: pd.DataFrame) -> pd.DataFrame:
    """Parity ("G2P1", "P1+0", "para 2") as the number of births, in a column named like
    parity; gestations in weeks and days ("11+3") in weeks, in a column named like a
    gestation (however few its cells: a new patient's row is read as the table's)."""
    df = _rewrite(df, _PARITY_NAME, parity_of, "parities written in obstetric notation",
                  "the parity, the number of births")
    return _rewrite(df, _GESTATION_NAME, weeks_of, "gestation(s) in weeks and days, as "
                    "weeks of 40 ('38/40') or as term (the middle of 37 to 42 weeks: 39.5)",
                    "weeks")
