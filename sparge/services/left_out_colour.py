"""Colouring the cohort map by a column the model does not use (a ward, a site, an
admission date, a discharge code): is the map, or a group on it, one ward or one year?

The Data page leaves such columns out of the features (role "ignore": dates, notes, codes
that give the outcome away, columns of too many answers, identifiers). Their cells are
still in the uploaded table, one per patient, in the order of the cohort's rows; this
module reads them for a colour: numbers as numbers, dates as their year, text as its most
common answers. Free text and identifiers (nearly every cell different) colour nothing
and are not offered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import pandas as pd

from sparge.data.column_kinds import looks_like_dates
from sparge.data.levels import abbreviated_levels, spellings
from sparge.data.parsing import cell_keys, cell_text, parse_numeric
from sparge.data.tables import natural_key

#: A colour of this many answers at most; the rarer answers share "other answers".
MAX_ANSWERS = 12
#: The share of a column's filled cells its ``MAX_ANSWERS`` most common answers must hold
#: for the column to colour a map (notes and IDs hold a few cells each).
MIN_SHOWN_SHARE = 0.5
#: The share of filled cells that must read as numbers (or dates) for a numeric colour.
NUMERIC_SHARE = 0.9
OTHER_ANSWERS = "other answers"
MISSING = "missing"
#: Answers written two ways are looked for in a column of at most this many answers (a
#: note column, never shown, has thousands).
MAX_MERGED = 100
#: A four-digit year in a date cell, whatever the order of day and month.
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


def left_out_colour(values: pd.Series, missing_keys: Iterable[str] = (),
                    max_answers: int = MAX_ANSWERS, column: str | None = None
                    ) -> tuple[pd.Series, list[str] | None, str] | None:
    """A map colour from one column's cells, or ``None`` when the column colours nothing.

    Parameters
    ----------
    values : pandas.Series
        The column's cells, one per patient (text or numbers).
    missing_keys : iterable of str
        Normalised cell texts that read as gaps (the encoding table's missing tokens).
    max_answers : int
        Text columns: the most common answers shown; the others share
        :data:`OTHER_ANSWERS`.
    column : str, optional
        The column's name (``values.name`` when not given), which tells what answers
        written two ways may mean (:func:`one_spelling`).

    Returns
    -------
    colour : pandas.Series
        Floats (``NaN``: a gap) for numbers and dates, strings for answers
        (:data:`MISSING` for a gap).
    order : list of str or None
        The answers in their natural order, then :data:`OTHER_ANSWERS` and
        :data:`MISSING`; ``None`` for numbers.
    kind : str
        ``"numbers"``, ``"year"`` (dates, coloured by their year or span of years,
        :func:`year_spans`) or ``"answers"``.

    Examples
    --------
    >>> colour, order, kind = left_out_colour(pd.Series(["ICU", "Ward 3", "ICU", "NA"]),
    ...                                       {"na"})
    >>> list(colour), order, kind
    (['ICU', 'Ward 3', 'ICU', 'missing'], ['ICU', 'Ward 3', 'missing'], 'answers')
    """
    text = cell_text(pd.Series(values).reset_index(drop=True))
    keys = cell_keys(text)
    gap = (text == "") | keys.isin(set(missing_keys))
    filled = int((~gap).sum())
    if filled == 0:
        return None
    numbers, _ = parse_numeric(text.where(~gap, ""), missing_tokens=set(missing_keys))
    numbers = np.asarray(numbers, dtype=float)
    if np.isfinite(numbers).sum() >= NUMERIC_SHARE * filled:
        return pd.Series(numbers), None, "numbers"
    if looks_like_dates(text.where(~gap, "")):
        year = text.where(~gap, "").str.extract(_YEAR, expand=False).astype(float)
        if year.notna().sum() >= NUMERIC_SHARE * filled:
            return (*year_spans(year.to_numpy(), max_answers), "year")
    text = text.where(gap, one_spelling(text.where(~gap, ""),
                                        column if column is not None else values.name))
    counts = text[~gap].value_counts()
    top = counts.iloc[:max_answers]
    if top.sum() < MIN_SHOWN_SHARE * filled or len(counts) < 2:
        return None
    shown = set(top.index)
    colour = pd.Series(np.where(gap, MISSING, np.where(text.isin(shown), text, OTHER_ANSWERS)),
                       dtype=object)
    order = sorted(shown, key=natural_key)
    order += ([OTHER_ANSWERS] if len(counts) > len(top) else []) + [MISSING]
    return colour, order, "answers"


def one_spelling(text: pd.Series, column: object = None) -> pd.Series:
    """The cells with each answer in one spelling: those equal but for case and spaces
    ("yes", "Yes ") and those the Data page pairs as one answer written two ways ("Y" and
    "Yes", "Ex" and "former": :func:`~sparge.data.levels.abbreviated_levels`). An answer
    is written as its group's most common spelling of more than one letter (walk-through
    30: a smoking column left out of the model coloured "Y" apart from "Yes"). Empty
    cells stay empty.

    Examples
    --------
    >>> list(one_spelling(pd.Series(["Yes", "Y", "yes", "No", "n", ""]), "Smoker"))
    ['Yes', 'Yes', 'Yes', 'No', 'No', '']
    """
    keys = cell_keys(text)
    spelled, counts = spellings(text)
    if len(spelled) < 2:
        return text
    group = {k: k for k in spelled}

    def root(k: str) -> str:
        while group[k] != k:
            k = group[k]
        return k

    if len(spelled) <= MAX_MERGED:
        key_of = {s: k for k, s in spelled.items()}
        for short, full in abbreviated_levels(list(spelled.values()),
                                              None if column is None else str(column)):
            a, b = root(key_of[short]), root(key_of[full])
            if a != b:
                group[a] = b
    members: dict[str, list[str]] = {}
    for k in spelled:
        members.setdefault(root(k), []).append(k)
    shown = {}
    for ks in members.values():
        best = max(ks, key=lambda k: (len(spelled[k]) > 1, counts[k]))
        shown.update({k: spelled[best] for k in ks})
    return pd.Series(np.where(keys == "", text, keys.map(shown).fillna(text)),
                     index=text.index, dtype=object)


def year_spans(years: np.ndarray, max_spans: int = MAX_ANSWERS
               ) -> tuple[pd.Series, list[str]]:
    """Years as answers, written as years ("2019", not "2 019"): each year when there
    are at most ``max_spans`` of them, else spans of equal width ("2000–2004"); ``NaN``
    is :data:`MISSING`.

    Examples
    --------
    >>> colour, order = year_spans(np.array([2019.0, 2021.0, np.nan]))
    >>> list(colour), order
    (['2019', '2021', 'missing'], ['2019', '2021', 'missing'])
    >>> year_spans(np.arange(2000.0, 2030.0), 12)[1][:2]
    ['2000–2002', '2003–2005']
    """
    y = np.asarray(years, dtype=float)
    have = np.isfinite(y)
    if not have.any():
        return pd.Series([MISSING] * len(y), dtype=object), [MISSING]
    first, last = int(y[have].min()), int(y[have].max())
    width = max(1, -(-(last - first + 1) // max_spans))
    start = np.where(have, first + (np.nan_to_num(y) - first) // width * width, 0).astype(int)

    def label(s: int) -> str:
        return str(s) if width == 1 else f"{s}–{s + width - 1}"

    colour = pd.Series([label(s) if h else MISSING for s, h in zip(start, have)],
                       dtype=object)
    order = [label(s) for s in sorted(set(start[have].tolist()))] + [MISSING]
    return colour, order


def colourable_left_out(df: pd.DataFrame, roles: dict[str, str],
                        missing_keys_of) -> list[str]:
    """The columns left out of the model (role ``"ignore"``) that can colour a map, in the
    table's order.

    Parameters
    ----------
    df : pandas.DataFrame
        The uploaded table.
    roles : dict
        ``{column: role}`` (:attr:`sparge.data.encoder.Encoder.roles_`).
    missing_keys_of : callable
        ``column -> normalised missing tokens`` (the encoding table's ``missing_keys``).
    """
    return [c for c in df.columns if roles.get(c) == "ignore"
            and left_out_colour(df[c], missing_keys_of(c)) is not None]


def left_out_title(column: str, kind: str) -> str:
    """The colour's title on the map: the column's name, and "(year)" for dates."""
    name = str(column)
    return f"{name} (year)" if kind == "year" else name

