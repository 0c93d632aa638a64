"""Parsing cells: text to numbers, missing tokens, categorical levels (DESIGN.md §3).

:func:`parse_numeric` reads a column of cells as numbers (decimal commas, thousands
separators, censored values such as ``<0.1`` and infinities are recognised and reported);
:func:`numeric_share` tells how much of a column is numbers; :func:`column_units` which units
its cells are written with ("140 mmHg"); :func:`infer_levels` codes the
levels of a text column that is not in the encoding table (recognised ordered scales, yes/no,
natural order). The missing tokens and scales themselves live in :mod:`sparge.data.tables`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sparge.data.safe_text import quote as _q
from sparge.data.tables import (
    CATEGORY_WORDS,
    DEFAULT_MISSING_TOKENS,
    is_blank,
    natural_key,
    norm_key,
    scale_codes,
    scale_of,
    yes_no_codes,
)

#: A word that is also a missing token (``None``, ``Unknown``) is a category of a text
#: column when it fills at least this share of the column's cells (and at least 2 cells).
CATEGORY_MIN_SHARE = 0.01

#: A plain number as Python writes it (``12``, ``-3.5``, ``.5``, ``1e3``).
NUMBER_PATTERN = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(rf"^{NUMBER_PATTERN}$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_EU_FULL = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+,\d+$")  # 1.234,5
_EU_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+$")  # 1.234 (1234 in a 1.234,5 column)
#: 1.527, 12.345.678: dots as thousands separators (never after a leading 0: 0.527 is a
#: decimal), read so in a column that :func:`thousands_dot_column` finds.
_DOT_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:\.\d{3})+$")
_SPACED = re.compile(r"^[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$")  # 1 234,5
_INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
#: A limit: "<15", ">= 90", "≤5", and with a decimal comma "<0,5" (walk-through 25's
#: "<0,5" and "≤1" were set to missing while "<5" was read).
_CENSORED = re.compile(r"^\s*([<>]=?|[≤≥⩽⩾])\s*([+-]?(?:\d+,\d+|\d+\.?\d*|\.\d+))\s*$")
_NUMERIC_LIKE = re.compile(
    rf"{NUMBER_PATTERN}|[+-]?\d+,\d+|[+-]?\d{{1,3}}(?:\.\d{{3}})+,\d+"
    r"|[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?"
    r"|(?:[<>]=?|[≤≥⩽⩾])\s*[+-]?(?:\d+,\d+|\d+\.?\d*|\.\d+)|[+-]?inf(?:inity)?",
    re.IGNORECASE)
#: Columns with at most this many cells are parsed cell by cell in plain Python.
_SMALL_COLUMN = 64
#: The unit a column's name ends with: "Birth weight (g)", "Platelets [x10^9/L]".
_HEADER_UNIT = re.compile(r"[(\[]\s*([^()\[\]]{1,15}?)\s*[)\]]\s*$")
#: A number followed by text: "1420 g", "7,2 mmol/L".
_NUMBER_THEN_TEXT = re.compile(rf"^([+-]?\d+,\d+|{NUMBER_PATTERN})\s*([^\d\s,.].*)$")


#: Spellings of one unit, by its normalised key: "39 y" in an "Age (years)" column is an
#: age (a walk-through's 15 ages were read as gaps). Only units that cannot be confused.
_UNIT_SPELLINGS = {
    "years": "years", "year": "years", "yrs": "years", "yr": "years", "y": "years",
    "months": "months", "month": "months", "mo": "months", "mos": "months",
    "days": "days", "day": "days", "d": "days",
    "hours": "hours", "hour": "hours", "hrs": "hours", "hr": "hours", "h": "hours",
    "%": "%", "percent": "%",
    "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb", "kgs": "kg",
    # a temperature written "97.8 F" or "37 ºC" (walk-through 24 lost 30 such cells)
    "f": "°f", "ºf": "°f", "degf": "°f", "fahrenheit": "°f",
    "c": "°c", "ºc": "°c", "degc": "°c", "celsius": "°c",
}


#: Superscripts and powers written out: "kg/m²", "kg/m2" and "kg/m^2" are one unit (a
#: walk-through's 65 BMI values written "kg/m2" in a "BMI (kg/m²)" column were set to
#: missing as another unit).
_POWERS = str.maketrans({"\u00b2": "2", "\u00b3": "3"})


def unit_key(text: str) -> str:
    """Normalised key of a unit: case, spaces, the micro sign and how a power is written
    ignored ("mm Hg" and "mmHg", "µmol/l" and "umol/L", "kg/m²" and "kg/m2" are one
    unit), short spellings merged ("yrs", "y")."""
    key = re.sub(r"\s+", "", str(text)).lower().replace("\u00b5", "u").replace("\u03bc", "u")
    key = re.sub(r"\^([23])(?!\d)", r"\1", key.translate(_POWERS))
    return _UNIT_SPELLINGS.get(key, key)


#: A unit read from a column's cells (its key, :func:`unit_key`): "%" or a short word
#: that starts with a letter or "°" ("bpm", "mmhg", "umol/l", "kg/m²", "°c"); one letter only
#: when it is a unit ("g", "l", "m", "s"): "3a", "3b" are stages, not units.
_UNIT_LIKE = re.compile(r"^(?:%|°[a-z]{1,2}|[a-z][a-z0-9/^²³·.*°]{1,19}|[glms])$")
#: A text read as a unit follows at least this many different numbers: "0 none", "1 mild",
#: "2 severe" are a scale's levels, each word with one number, not three units.
UNIT_MIN_NUMBERS = 2


def header_unit(name: object, as_written: bool = False) -> str | None:
    """The unit written at the end of a column's name, normalised ("g", "mg/dl"), or
    ``None``.

    Parameters
    ----------
    name : object
        The column's name.
    as_written : bool
        Return the unit as the name spells it ("mg/dL"), not its key.

    Examples
    --------
    >>> header_unit("Birth weight (g)"), header_unit("Platelets [x10^9 / L]"), header_unit("Age")
    ('g', 'x10^9/l', None)
    """
    m = _HEADER_UNIT.search(str(name))
    if m is None:
        return None
    return m.group(1) if as_written else unit_key(m.group(1))


def with_unit(cell: str, unit: str | None, thousands_dot: bool = False) -> float | None:
    """The number of a cell written with its column's unit ("1420 g" in a "(g)" column),
    else ``None``: a cell in another unit ("1.4 kg") is not converted.

    ``unit`` may be a key or a spelling of the unit ("mmHg", "mm Hg" and "mmhg" are one);
    with ``thousands_dot``, "1.527 pg/ml" reads 1527 (:func:`thousands_dot_column`)."""
    if not unit:
        return None
    m = _NUMBER_THEN_TEXT.match(cell.strip())
    if m is None or unit_key(m.group(2)) != unit_key(unit):
        return None
    number = m.group(1)
    if thousands_dot and _DOT_THOUSANDS.match(number):
        return float(number.replace(".", ""))
    return float(number.replace(",", "."))


@dataclass(frozen=True)
class WrittenUnit:
    """The cells of a column written as a number followed by one unit.

    Attributes
    ----------
    key : str
        The unit's key (:func:`unit_key`: "mmhg", "umol/l", "%").
    shown : str
        Its most common spelling in the column ("mmHg", "µmol/l").
    count : int
        Number of cells.
    rows : tuple of int
        Rows (0-based) of the first 5 cells.
    examples : tuple of str
        Up to 3 of the cells as written.
    """

    key: str
    shown: str
    count: int
    rows: tuple[int, ...]
    examples: tuple[str, ...]


@dataclass(frozen=True)
class ColumnUnits:
    """The units a column's cells and name are written with (:func:`column_units`).

    Attributes
    ----------
    header : str or None
        The unit of the column's name (:func:`header_unit`), as written.
    written : dict
        ``{key: WrittenUnit}`` of the units written after numbers in the cells, the most
        common first.
    n_numbers : int
        Cells written as a number in a form :func:`parse_numeric` reads without a unit.
    n_cells : int
        Cells that are neither empty nor a missing token.
    """

    header: str | None = None
    written: dict[str, WrittenUnit] = field(default_factory=dict)
    n_numbers: int = 0
    n_cells: int = 0

    @property
    def keys(self) -> list[str]:
        """Every unit of the column: the name's (first), then those of the cells."""
        head = [unit_key(self.header)] if self.header else []
        return head + [k for k in self.written if k not in head]

    @property
    def mixed(self) -> bool:
        """Whether the column is written in two units or more (the name's counts)."""
        return len(self.keys) >= 2

    @property
    def unit(self) -> str | None:
        """The unit whose cells read as numbers: the name's, else the cells' only unit
        (as most often written); ``None`` when the cells mix units."""
        if self.header:
            return self.header
        if len(self.written) == 1:
            return next(iter(self.written.values())).shown
        return None

    @property
    def from_cells(self) -> str | None:
        """The unit learned from the cells (not the name), as most often written."""
        return None if self.header else self.unit

    def share_read(self) -> float:
        """Share of the non-missing cells read as numbers with the cells' only unit (as
        :func:`numeric_share` with that unit gives it; not for a unit of the name)."""
        n = self.n_numbers + (next(iter(self.written.values())).count
                              if len(self.written) == 1 else 0)
        return n / self.n_cells if self.n_cells else 0.0

    def share_with_units(self) -> float:
        """Share of the non-missing cells that are numbers, with or without any unit."""
        n = self.n_numbers + sum(u.count for u in self.written.values())
        return n / self.n_cells if self.n_cells else 0.0


def column_units(values: pd.Series, name: object = None,
                 missing_tokens=DEFAULT_MISSING_TOKENS) -> ColumnUnits:
    """Find the units a column is written with: its name's, and those after numbers.

    A text after a number ("82 bpm", "5,2 %", "140 mm Hg") is a unit when it is "%" or a
    short word starting with a letter (one letter only for g, l, m, s) and follows at
    least :data:`UNIT_MIN_NUMBERS` different numbers in the column. Spellings that differ
    only in case, spaces or "µ"/"u" are one unit.

    Parameters
    ----------
    values : pandas.Series
        The column's cells.
    name : object, optional
        The column's name (its unit: :func:`header_unit`).
    missing_tokens : set of str
        Normalised missing tokens (left out of the cells counted).

    Returns
    -------
    ColumnUnits
        The name's unit, the cells' units with their counts and first rows, and the
        number of plain numbers and of non-missing cells.
    """
    header = header_unit(name, as_written=True) if name is not None else None
    if pd.api.types.is_bool_dtype(values) or pd.api.types.is_numeric_dtype(values):
        n = int(values.notna().sum()) if not pd.api.types.is_bool_dtype(values) else 0
        return ColumnUnits(header=header, n_numbers=n, n_cells=int(values.notna().sum()))
    cells = _unique_cells(values, missing_tokens)
    if cells is None:
        return ColumnUnits(header=header)
    rows_of, uniques, counts, token, number = cells
    found: dict[str, dict[str, Any]] = {}
    other = np.flatnonzero(~number & ~token)
    if len(other):
        texts = uniques.iloc[other]
        maybe = texts.str.match(r"\s*[+-]?(?:\d|\.\d)").to_numpy(dtype=bool)
        for i in other[maybe]:
            m = _NUMBER_THEN_TEXT.match(uniques.iat[i])
            if m is None:
                continue
            key = unit_key(m.group(2))
            if not _UNIT_LIKE.match(key):
                continue
            u = found.setdefault(key, {"count": 0, "numbers": set(), "spelled": {},
                                       "cells": []})
            u["count"] += int(counts[i])
            u["numbers"].add(m.group(1).replace(",", "."))
            spelled = m.group(2).strip()
            u["spelled"][spelled] = u["spelled"].get(spelled, 0) + int(counts[i])
            u["cells"].append(i)
    written = {}
    for key, u in sorted(found.items(), key=lambda kv: -kv[1]["count"]):
        if len(u["numbers"]) < UNIT_MIN_NUMBERS:
            continue
        first = rows_of(u["cells"])[:5]
        shown = max(u["spelled"], key=lambda s: u["spelled"][s])
        written[key] = WrittenUnit(key=key, shown=shown, count=u["count"],
                                   rows=tuple(int(r) for r in first),
                                   examples=tuple(uniques.iat[i] for i in u["cells"][:3]))
    return ColumnUnits(header=header, written=written,
                       n_numbers=int(counts[number & ~token].sum()),
                       n_cells=int(counts[~token].sum()))


def cell_text(values: pd.Series) -> pd.Series:
    """Cells as stripped text.

    Parameters
    ----------
    values : pandas.Series
        A column of any dtype.

    Returns
    -------
    pandas.Series of str
        Every cell stripped of surrounding white space; ``""`` for empty, ``None`` and
        ``NaN`` cells. The index is reset to 0, 1, ...
    """
    if pd.api.types.is_string_dtype(values) and values.dtype != object:
        return values.fillna("").str.strip().reset_index(drop=True)
    return values.map(lambda v: "" if is_blank(v) else str(v).strip()).astype(str) \
        .reset_index(drop=True)


def loose_key(key: str) -> str:
    """A normalised key (:func:`sparge.data.tables.norm_key`) without spaces, hyphens,
    underscores and full stops: "Event-free", "event free" and "EVENT_FREE" give
    "eventfree" (one outcome written three ways)."""
    return re.sub(r"[\s\-_.]+", "", key)


def cell_keys(text: pd.Series) -> pd.Series:
    """Normalised key of every cell, for case- and space-insensitive comparisons.

    Parameters
    ----------
    text : pandas.Series of str
        Cells as :func:`cell_text` gives them.

    Returns
    -------
    pandas.Series of str
        :func:`sparge.data.tables.norm_key` of every cell (computed once per distinct
        cell), on the index of ``text``.
    """
    codes, uniques = pd.factorize(text)
    keys = np.asarray([norm_key(u) for u in uniques] + [""], dtype=object)
    return pd.Series(keys[codes], index=text.index, dtype=object)


def token_counts(text: pd.Series) -> dict[str, int]:
    """Count the cells of each token, grouped case- and space-insensitively.

    Parameters
    ----------
    text : pandas.Series of str
        The cells to count (e.g. those read as missing).

    Returns
    -------
    dict
        ``{token: count}``, the token as first written (shortened to 40 characters for
        messages); ``not done``, ``Not Done`` and ``not  done`` count as one token.
    """
    out: dict[str, int] = {}
    first: dict[str, str] = {}
    for s, n in text.value_counts().items():
        key = norm_key(s)
        label = first.setdefault(key, _q(s, 40))
        out[label] = out.get(label, 0) + int(n)
    return out


def limit_text(cell: object) -> str | None:
    """The cell as written when it is a limit ("<15", ">= 90"), tidied ("<15", "≥90");
    None otherwise. :func:`parse_numeric` reads such a cell as its limit."""
    if cell is None or isinstance(cell, float | int | np.number):
        return None
    m = _CENSORED.match(str(cell))
    if not m:
        return None
    sign = {"<": "<", ">": ">", "<=": "≤", ">=": "≥", "⩽": "≤", "⩾": "≥"}.get(
        m.group(1), m.group(1))
    return sign + m.group(2)


def parse_numeric(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS,
                  unit: str | None = None, thousands_dot: bool = False,
                  convert: dict[str, tuple[float, float]] | None = None
                  ) -> tuple[np.ndarray, dict[str, Any]]:
    """Parse a column of cells as numbers.

    Parameters
    ----------
    values : pandas.Series
        The column's cells (text or numbers).
    missing_tokens : set of str
        Normalised missing tokens (cells that read as missing, not as stray text).
    unit : str, optional
        The column's unit (:func:`header_unit` of its name, or the one its cells are
        written with, :func:`column_units`), as a key or as written: cells written with it
        ("1420 g", "140 mm Hg" for "mmHg") read as their number.
    thousands_dot : bool
        Read "1.527" as 1527 (a dot as thousands separator; never "0.527"): for a column
        whose dotted numbers are all so written in a table that writes decimals with a
        comma (:func:`thousands_dot_column`, :func:`writes_decimal_commas`).
    convert : dict, optional
        ``{unit key: (factor, offset)}``: a cell written in one of these units reads as
        ``factor × number + offset`` (:mod:`sparge.data.unit_conversion`: "2.1 mg/dL" in
        a creatinine column read in µmol/L).

    Returns
    -------
    numbers : ndarray of float
        One value per cell; ``NaN`` for missing, unparsable and infinite cells; a value
        written as a limit (``<15``, ``>90``) reads as the limit (walk-through 18: set to
        missing, an eGFR of "<15" took the value away from the sickest patients).
    info : dict
        What was read: the unparsable cells (``bad``: list of (row, text)), decimal-comma
        cells converted (``decimal_comma``: count), cells with thousands separators
        converted (``thousands``: count; a column written as ``1.234,5`` reads 1234.5,
        ``1 234,5`` too), censored values (``censored``: (row, text) of cells such as
        ``<0.1``), infinite values (``infinite``: (row, text)), the missing tokens seen
        (``missing_tokens``: {token: count}), the cells written with the unit
        (``unit``: (row, text)), those read with ``thousands_dot`` (``thousands_dot``:
        (row, text, number read)) and those converted from another unit (``converted``:
        (row, text)).
    """
    info: dict[str, Any] = {"bad": [], "decimal_comma": 0, "thousands": 0, "censored": [],
                            "infinite": [], "missing_tokens": {}, "unit": [],
                            "thousands_dot": [], "converted": []}
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        out = np.array(values.to_numpy(dtype=float, na_value=np.nan), copy=True)
        info["infinite"] = [(int(i), str(out[i])) for i in np.flatnonzero(np.isinf(out))]
        out[np.isinf(out)] = np.nan
        return out, info
    if len(values) <= _SMALL_COLUMN:
        # A few patients (a new-patient query): plain Python per cell beats pandas' string
        # machinery, whose fixed cost per column dominated a 467-column query.
        cells = ["" if is_blank(v) else str(v).strip() for v in values.tolist()]
        num = np.asarray([float(c) if _NUMBER.match(c) else np.nan for c in cells],
                         dtype=float)
        nonempty = np.asarray([c != "" for c in cells], dtype=bool)
    else:
        text = cell_text(values)
        cells = text.tolist()
        num = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        nonempty = (text != "").to_numpy()
    out = np.full(len(cells), np.nan)
    fast = np.isfinite(num)
    out[fast] = num[fast]
    rest = np.flatnonzero(nonempty & ~fast)
    rest_text = [cells[i] for i in rest]
    eu = any(_EU_FULL.match(s) for s in rest_text)
    if eu:
        dotted = [i for i in np.flatnonzero(fast) if "." in cells[i]]
        eu = all(_EU_THOUSANDS.match(cells[i]) for i in dotted)
        if eu:
            for i in dotted:
                out[i] = float(cells[i].replace(".", ""))
            info["thousands"] += len(dotted)
    elif thousands_dot:
        for i in np.flatnonzero(fast):
            if "." in cells[i] and _DOT_THOUSANDS.match(cells[i]):
                out[i] = float(cells[i].replace(".", ""))
                info["thousands_dot"].append((int(i), cells[i], float(out[i])))
    tokens: list[str] = []
    for i, s in zip(rest, rest_text):
        if norm_key(s) in missing_tokens:
            tokens.append(s)
        elif eu and (_EU_FULL.match(s) or _DECIMAL_COMMA.match(s)):
            out[i] = float(s.replace(".", "").replace(",", "."))
            info["thousands"] += 1
        elif thousands_dot and _DOT_THOUSANDS.match(s):  # 12.345.678
            if math.isfinite(v := float(s.replace(".", ""))):
                out[i] = v
                info["thousands_dot"].append((int(i), s, v))
            else:  # more than 308 digits
                info["infinite"].append((int(i), s))
        elif _SPACED.match(s):
            out[i] = float(re.sub(r"[ \u00a0\u202f]", "", s).replace(",", "."))
            info["thousands"] += 1
        elif _DECIMAL_COMMA.match(s):
            out[i] = float(s.replace(",", "."))
            info["decimal_comma"] += 1
        elif m := _CENSORED.match(s):  # "<15", ">90": the limit (the value lies beyond)
            out[i] = float(m.group(2).replace(",", "."))
            info["censored"].append((int(i), s))
        elif norm_key(s) in _INF_TOKENS or _NUMBER.match(s):  # inf, or too large (1e999)
            info["infinite"].append((int(i), s))
        elif (v := with_unit(s, unit, thousands_dot and not eu)) is not None \
                and math.isfinite(v):
            out[i] = v
            info["unit"].append((int(i), s))
            if thousands_dot and not eu and v != with_unit(s, unit):  # "1.527 pg/ml"
                info["thousands_dot"].append((int(i), s, v))
        elif convert and (v := _converted(s, convert)) is not None:
            out[i] = v
            info["converted"].append((int(i), s))
        else:
            info["bad"].append((int(i), s))
    if tokens:
        info["missing_tokens"] = token_counts(pd.Series(tokens, dtype=object))
    return out, info


def _converted(cell: str, convert: dict[str, tuple[float, float]]) -> float | None:
    """The number of a cell written in one of the units of ``convert``, converted; else
    ``None``."""
    m = _NUMBER_THEN_TEXT.match(cell.strip())
    if m is None or (how := convert.get(unit_key(m.group(2)))) is None:
        return None
    v = float(m.group(1).replace(",", ".")) * how[0] + how[1]
    return v if math.isfinite(v) else None


#: A unit after a number, as :func:`writes_decimal_commas` and :func:`thousands_dot_column`
#: look for it (a short text starting with a letter, "%", "µ" or "°").
_TAIL = r"(?:\s*[%A-Za-z\u00b5\u03bc\u00b0][^,;]{0,24})?"
_COMMA_DECIMAL_CELL = re.compile(
    rf"\s*(?:[<>]=?\s*)?[+-]?(?:\d{{1,3}}(?:\.\d{{3}})+|\d+),\d+{_TAIL}\s*")
_DOT_DECIMAL_CELL = re.compile(
    rf"\s*(?:[<>]=?\s*)?[+-]?\d*\.\d+(?:[eE][+-]?\d+)?{_TAIL}\s*")
_DOT_THOUSANDS_CELL = re.compile(rf"\s*[+-]?[1-9]\d{{0,2}}(?:\.\d{{3}})+{_TAIL}\s*")


def _distinct_text(values: pd.Series, marks: str):
    """The distinct cells of a text column holding one of the characters ``marks``, one
    at a time (the callers stop early); none for a numeric or boolean column (numbers not
    written as text have no decimal mark)."""
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return
    text = values if pd.api.types.is_string_dtype(values) and values.dtype != object \
        else cell_text(values)
    mask = np.zeros(len(text), bool)
    for mark in marks:
        mask |= text.str.contains(mark, regex=False, na=False).to_numpy(dtype=bool)
    seen: set[str] = set()
    for cell in text[mask]:
        if cell not in seen:
            seen.add(cell)
            yield cell


def decimal_marks(values: pd.Series) -> tuple[bool, bool]:
    """Whether a column writes numbers with a decimal comma, and with a decimal point.

    Parameters
    ----------
    values : pandas.Series
        The column's cells.

    Returns
    -------
    comma, point : bool
        A cell is a number with a decimal comma ("5,2", "1.234,5", "5,2 %", "<0,1"); a
        cell is a number with a decimal point ("2.5", "0.527", "<0.1", "2.5 mg") other than
        dots as thousands separators ("1.527", "12.345.678"). Both False for a column of
        numbers that are not text. The search stops at the first decimal point.
    """
    comma = False
    for cell in _distinct_text(values, ".,"):
        if "." in cell and _DOT_DECIMAL_CELL.fullmatch(cell) \
                and not _DOT_THOUSANDS_CELL.fullmatch(cell):
            return comma, True
        if not comma and "," in cell and _COMMA_DECIMAL_CELL.fullmatch(cell):
            comma = True
    return comma, False


def writes_decimal_commas(frame: pd.DataFrame, columns=None) -> bool:
    """Whether a table writes decimals with a comma: some column has numbers with a
    decimal comma and none a number with a decimal point (:func:`decimal_marks`).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    columns : list, optional
        The columns to look at (the numeric ones); all by default.

    Returns
    -------
    bool
        False as soon as a column writes a decimal point ("2.5"): then "1.527" may be
        a decimal, and is read as one.
    """
    comma = False
    for col in frame.columns if columns is None else columns:
        has_comma, has_point = decimal_marks(frame[col])
        if has_point:
            return False
        comma |= has_comma
    return comma


def thousands_dot_column(values: pd.Series) -> bool:
    """Whether a column's dotted numbers (its cells ``values``) are all written with dots
    as thousands separators: some cell is a number such as "1.527" or "12.345.678" (one
    to three digits, not a lone 0, then groups of exactly three; a unit may follow) and no
    cell a number with another decimal point ("2.5", "0.527", "1.52").

    Read so only in a table that writes decimals with a comma
    (:func:`writes_decimal_commas`): an export wrote NT-proBNP 1527 as "1.527", read 1000
    times too small. The search stops at the first other decimal point (a column of
    decimals costs little).
    """
    found = False
    for cell in _distinct_text(values, "."):
        if _DOT_THOUSANDS_CELL.fullmatch(cell):
            found = True
        elif _DOT_DECIMAL_CELL.fullmatch(cell):
            return False
    return found


def numeric_share(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS,
                  unit: str | None = None) -> float:
    """Share of a column's non-missing cells that are numbers.

    Parameters
    ----------
    values : pandas.Series
        The column's cells.
    missing_tokens : set of str
        Normalised missing tokens; cells holding one are left out of the share.
    unit : str, optional
        The column's unit: cells written with it ("1420 g") count as numbers.

    Returns
    -------
    float
        Between 0 and 1: the non-empty, non-token cells written as a number in any form
        :func:`parse_numeric` accepts (decimal comma, thousands separators, ``<0.1``,
        ``inf``), over all non-empty, non-token cells. 1 for a numeric dtype, 0 for a
        boolean dtype or a column without such cells.
    """
    if pd.api.types.is_bool_dtype(values):
        return 0.0
    if pd.api.types.is_numeric_dtype(values):
        return 1.0
    cells = _unique_cells(values, missing_tokens)
    if cells is None:
        return 0.0
    _, uniques, counts, token, number = cells
    if unit:
        other = np.flatnonzero(~number & ~token)
        number[other] = [with_unit(uniques.iat[i], unit) is not None for i in other]
    n_all = int(counts[~token].sum())
    return float(counts[number & ~token].sum() / n_all) if n_all else 0.0


def _unique_cells(values: pd.Series, missing_tokens):
    """The distinct non-empty cells of a text column, once each: ``(rows_of, uniques,
    counts, token, number)``, or ``None`` without such cells.

    ``rows_of(indices)`` gives the rows (0-based, in order) holding those of ``uniques``;
    ``token`` marks the
    missing tokens, ``number`` the cells written as a number in any form
    :func:`parse_numeric` accepts without a unit."""
    text = cell_text(values)
    filled = (text != "").to_numpy()
    codes, uniques = pd.factorize(text[filled])
    if len(uniques) == 0:
        return None
    positions = np.flatnonzero(filled)

    def rows_of(indices) -> np.ndarray:
        return positions[np.isin(codes, indices)]

    counts = np.bincount(codes, minlength=len(uniques))
    uniques = pd.Series(uniques, dtype=object)
    number = pd.to_numeric(uniques, errors="coerce").notna().to_numpy().copy()
    other = np.flatnonzero(~number)
    token = np.zeros(len(uniques), bool)
    token[other] = [norm_key(uniques.iat[i]) in missing_tokens for i in other]
    number[other] = [bool(_NUMERIC_LIKE.fullmatch(uniques.iat[i])) for i in other]
    number &= ~token
    return rows_of, uniques, counts, token, number


def min_category_count(n_rows: int) -> int:
    """Fewest cells a missing-token word needs to be a category.

    Parameters
    ----------
    n_rows : int
        Number of cells of the column.

    Returns
    -------
    int
        :data:`CATEGORY_MIN_SHARE` of the cells, rounded up, and at least 2.
    """
    return max(2, math.ceil(CATEGORY_MIN_SHARE * n_rows))


def spellings(text: pd.Series) -> tuple[dict[str, str], dict[str, int]]:
    """How a text column spells each of its levels.

    Parameters
    ----------
    text : pandas.Series
        The column's cells.

    Returns
    -------
    spelled : dict
        ``{normalised level: its most common spelling in the column}`` (empty cells left out).
    counts : dict
        ``{normalised level: number of cells}``.
    """
    text = cell_text(text)
    keys = cell_keys(text)
    spelled: dict[str, str] = {}
    counts: dict[str, int] = {}
    for (key, s), n in pd.DataFrame({"k": keys, "s": text}).value_counts().items():
        if key == "":
            continue
        spelled.setdefault(key, s)
        counts[key] = counts.get(key, 0) + int(n)
    return spelled, counts


#: A shortened answer: one letter ("f"), or one word of at least 4 letters, optionally
#: with a full stop ("cardio", "cardiol.").
_SHORT = re.compile(r"^(?:[a-z]|[a-z]{4,})\.?$")


_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7",
          "viii": "8", "ix": "9", "x": "10"}


def _numeral_key(key: str, alone: bool = False) -> str:
    """A level's key with Roman numerals read as digits and spaces, hyphens and full
    stops dropped: "Type II", "type 2" and "Type-2" give "type2"; "Stage IIIa" and
    "stage 3a" give "stage3a" (a Roman numeral is a word of its own, or one ending in a
    single sub-stage letter). A level that is one such word ("x", "IIIa", "via") is read
    so only with ``alone`` (a column that also holds "3a")."""
    words = re.findall(r"[a-z]+|\d+|[^\sa-z\d.\-_]", key)
    out = []
    for w in words:
        m = re.fullmatch(r"(i{1,3}|iv|vi{0,3}|ix|x)([a-c]?)", w)
        single = len(words) == 1 and not alone  # "x" alone is not ten, "via" is not 6a
        out.append(_ROMAN[m.group(1)] + m.group(2)
                   if m and not (single and (m.group(2) or w == "x")) else w)
    return "".join(out)


#: Words a stage or class is written after, read without them: "Stage 2", "grade 3-4",
#: "class A".
_STAGE_WORDS = frozenset({"stage", "grade", "class", "type", "category", "level", "score"})


def _initials(column: str | None) -> set[str]:
    """The initials of a column's words, from the first two: "cp" and "cpc" for
    "Child-Pugh class" ("CP-A" is class A)."""
    words = re.findall(r"[a-z]+", norm_key(column)) if column else []
    letters = "".join(w[0] for w in words)
    return {letters[:n] for n in range(2, len(letters) + 1)}


def _without_words(key: str, words: set[str]) -> str:
    """A level's key without the leading words of ``words`` ("child pugh a" -> "a"); the
    key itself when nothing is left."""
    rest = key
    while (m := re.match(r"([a-z]+)[\s\-_.:]*", rest)) and m.group(1) in words \
            and rest[m.end():]:
        rest = rest[m.end():]
    return rest


#: A level that is a plain stage or class: "3", "3a", "b".
_PLAIN_STAGE = re.compile(r"\d+[a-c]?|[a-e]")
#: A level with what its brackets hold: "eskd (5)", "f4 (cirrhosis)".
_BRACKETED = re.compile(r"[^()]+\(\s*([^()]+?)\s*\)")


def _stage_forms(key: str, named: set[str]) -> list[str]:
    """What a stage-like level may be written as without its decoration: "ckd4" in
    column "CKD stage" without the column's word written on to it, "g3a" (KDIGO) and
    "t2" without the single letter before the number, "eskd (5)" as what its brackets
    hold, "f4 (cirrhosis)" without them. Keys; the level itself first."""
    forms = [key]
    inner = _BRACKETED.fullmatch(key)
    base = re.sub(r"\s*\([^()]*\)$", "", key)
    if base != key and base:
        forms.append(base)
        key = base
    for w in named:
        if key.startswith(w) and key[len(w):len(w) + 1].isdigit():
            forms.append(key[len(w):])
    m = re.fullmatch(r"[a-z](\d+[a-c]?)", key)
    if m:
        forms.append(m.group(1))
    if inner:
        forms.append(inner.group(1))
    return forms


def _spelling_key(key: str) -> str:
    """A level's key without spaces and punctuation, with British "ae" and "oe" read as
    "e": "Ischaemic", "ischemic" and "ISCHEMIC " give "ischemic"; "ACE-I" gives "acei"."""
    return re.sub(r"[ao]e(?=[a-z])", "e", loose_key(key))


def abbreviated_levels(levels: list[str], column: str | None = None
                       ) -> list[tuple[str, str]]:
    """Pairs ``(short, full)`` of a column's levels where ``short`` looks like an
    abbreviation of ``full``: "f" and "female", "M" and "Male", "Cardio" and "cardiology".

    An export that mixes them codes one answer as two (a walk-through's heart-failure
    table); they are only pointed out, never merged, since "m" may also mean "mild". A
    short level is paired only when exactly one longer level is it continued by letters
    (not "NYHA II" and "NYHA III", not "never" and "never again"), and a stem needs 4
    letters ("no" is not "normal"). In a yes/no column, "1" and "0" are paired with its
    yes and no (an export that joins two systems). Levels equal but for Roman numerals,
    spaces, hyphens, full stops or British spelling are paired too: "Type II" and "Type
    2", "NYHA-3" and "NYHA III" (grade "I" is not an abbreviation of grade "II"),
    "ischaemic" and "ischemic". A site and the site followed by a word for cancer: "lung
    ca" and "Lung". In a grade column, a differentiation in words and its grade: "well
    diff." and "G1" or "1". In a smoking, sex or diabetes column, the same answer in
    other words (:data:`SYNONYMS`): "Ex", "ex-smoker" and "former"; "never smoked" and
    "never"; "W" and "woman"; "T2DM", "T2" and "Type 2".

    Parameters
    ----------
    levels : list of str
        The column's levels as spelled (compared case- and space-insensitively).
    column : str, optional
        The column's name: a level that starts with one of its words reads without it
        ("NYHA III" in column "NYHA class" is "III", and so "3").

    Returns
    -------
    list of (str, str)
        The pairs, as spelled, in the order of ``levels``.
    """
    keys = {lv: norm_key(lv) for lv in levels}
    out = []
    yes_no = yes_no_codes(levels)
    if yes_no is not None:  # "1" / "0" beside yes and no: two systems in one column
        first = {code: lv for lv, code in sorted(yes_no.items(), key=lambda kv: len(kv[0]))}
        for digit, code in (("1", 1), ("0", 2)):
            lv = next((lv for lv, k in keys.items() if k == digit), None)
            if lv is not None and code in first:
                out.append((lv, first[code]))
    # one answer in two number systems or punctuations ("Type II" / "Type 2",
    # "NYHA-3" / "NYHA III"), when the column has both spellings
    named = set(re.findall(r"[a-z]{2,}", norm_key(column))) if column else set()
    strip = named | _STAGE_WORDS | _initials(column)
    canon: dict[str, str] = {}
    for lv, k in keys.items():
        # "nyha iii" in "NYHA class" reads "iii"; "Child-Pugh A", "class A" and "CP-A" in
        # "Child-Pugh class" read "a"; "grade 3-4" reads "3-4" (walk-through 24)
        bare = _without_words(k, strip)
        # the same word in British and American spelling: "ischaemic" / "ischemic";
        # punctuation alone: "ACE-I" / "ACEi" (whose "I" is not a numeral)
        forms = list(dict.fromkeys((_numeral_key(bare), _spelling_key(bare), _numeral_key(k),
                                    _spelling_key(k))))  # in this order: deterministic
        hit = next((canon[c] for c in forms if c in canon and keys[canon[c]] != k
                    and any(ch.isalnum() for ch in c)), None)
        if hit is not None:
            out.append((lv, hit))
        for c in forms:
            canon.setdefault(c, lv)
    # a stage without its decoration, beside the stage written plainly (walk-through 23's
    # CKD stage: "G3a", "CKD4", "ESKD (5)", "IIIa" beside "3a", "4", "5")
    # only in a column of stages: three or more levels a number, with or without a
    # sub-stage letter ("via" is not "6a" in a column of words)
    plain_stages = sum(bool(_PLAIN_STAGE.fullmatch(k)) for k in keys.values())
    paired = {a for a, _ in out}
    # "cirrhosis" beside "F4 (cirrhosis)": the answer its brackets hold
    held = {m.group(1): lv for lv, k in keys.items()
            if (m := _BRACKETED.fullmatch(k))}
    for lv, k in keys.items():
        if lv in paired or plain_stages < 3:
            continue
        forms = [_numeral_key(f, alone=True) for f in _stage_forms(k, named)[1:]]
        if re.fullmatch(r"(i{1,3}|iv|vi{0,3}|ix)[a-c]", k):
            forms.append(_numeral_key(k, alone=True))
        hit = next((canon[c] for c in forms if c in canon and keys[canon[c]] != k), None)
        if hit is None and held.get(k, lv) != lv and not _PLAIN_STAGE.fullmatch(k):
            hit = held[k]  # a word ("cirrhosis"), not a plain stage ("5" of "ESKD (5)")
        if hit is not None:
            out.append((lv, hit))
    # a site with a word for cancer after it, beside the site alone (walk-through 25's
    # primary site: "lung ca" beside "Lung", "breast cancer" beside "breast")
    paired = {a for a, _ in out}
    bare_of = {_spelling_key(k): lv for lv, k in keys.items()}
    for lv, k in keys.items():
        bare = site_of(k)
        hit = bare_of.get(_spelling_key(bare)) if bare else None
        if lv not in paired and hit is not None and hit != lv:
            out.append((lv, hit))
    # a tumour's differentiation in words beside its grade (walk-through 25's "well
    # diff.", "moderately diff.", "poorly diff." beside "G1", "grade I" and "1")
    if _GRADE_COLUMN.search(norm_key(column) if column else ""):
        paired = {a for a, _ in out}
        for lv, k in keys.items():
            grade = differentiation_grade(k)
            if lv in paired or grade is None:
                continue
            hit = next((canon[c] for c in (grade, "g" + grade)
                        if c in canon and keys[canon[c]] != k), None)
            if hit is not None:
                out.append((lv, hit))
    several = {}
    for short, k in keys.items():
        if not _SHORT.match(k):
            continue
        stem = k.rstrip(".")
        longer = [lv for lv, other in keys.items()
                  if len(other) > len(stem) and other.startswith(stem)
                  and other[len(stem):].isalpha()
                  and not (stem in _ROMAN and other in _ROMAN)]  # grade I is not II
        if len(longer) == 1:
            out.append((short, longer[0]))
        elif longer:
            several[short] = longer
    # several candidates that are one answer themselves ("F" beside "Femal" and "Female",
    # walk-through 22's typo): the short one goes with them
    target = dict(out)
    for short, longer in several.items():
        ends = {target.get(lv, lv) for lv in longer}
        if len(ends) == 1:
            out.append((short, ends.pop()))
    # the same answer in other words, for the answers clinic exports most often spell
    # several ways (walk-through 21's smoking column: former, Ex, ex-smoker; never,
    # non-smoker); the first word of a group that the column holds is the pair's target
    paired = {a for a, _ in out}
    name = norm_key(column) if column else ""
    groups = [g for words, gs in SYNONYMS for g in gs if any(w in name for w in words)]
    for group in groups:
        present = [lv for lv, k in keys.items() if loose_key(k) in group
                   # one letter is read so only when no other answer starts with it
                   # ("m" beside "mild" may mean either)
                   and (len(loose_key(k)) > 1 or not any(
                       o.startswith(loose_key(k)) and loose_key(o) not in group
                       for o in keys.values()))]
        target = min(present, default=None, key=lambda lv: (
            len(loose_key(keys[lv])) == 1, group.index(loose_key(keys[lv]))))
        out += [(lv, target) for lv in present if lv != target and lv not in paired]
    return out


#: A level that is a site followed by a word for cancer: "lung ca", "breast cancer".
_CANCER_AFTER = re.compile(r"[\s\-]+(?:ca\.?|cancer|carcinoma|tumou?r|malignancy|neoplasm)$")


def site_of(key: str) -> str | None:
    """The site a level names before a word for cancer ("lung ca": "lung", "breast
    cancer": "breast"), or ``None`` when it has no such word after a site. The end only
    is searched: a pattern from the start backtracked for minutes on a hostile
    100,000-letter cell."""
    m = _CANCER_AFTER.search(key)
    bare = key[:m.start()] if m else ""
    return bare if re.search("[a-z]", bare) else None
#: A column of tumour grades: its name says grade or differentiation.
_GRADE_COLUMN = re.compile(r"grade|grading|differentiat")
#: A tumour's differentiation in words, with its grade (G1 well, G2 moderately, G3 poorly
#: differentiated, G4 undifferentiated).
_DIFFERENTIATION = re.compile(
    r"(well|moderately|moderate|mod|poorly|poor|un|non)\.?[\s\-]*(diff(?:erentiated|\.)?)?\.?")
_DIFFERENTIATION_GRADE = {"well": "1", "moderately": "2", "moderate": "2", "mod": "2",
                          "poorly": "3", "poor": "3", "un": "4", "non": "4"}


def differentiation_grade(key: str) -> str | None:
    """The grade a differentiation written in words means ("well diff." 1, "moderately
    differentiated" 2, "poorly diff" 3, "undifferentiated" and "anaplastic" 4), as a
    digit; ``None`` for any other key. A short stem needs "diff" after it ("mod diff",
    not "mod")."""
    key = norm_key(key)
    if key == "anaplastic":
        return "4"
    m = _DIFFERENTIATION.fullmatch(key)
    if m is None or (m.group(2) is None and m.group(1) not in ("well", "moderately",
                                                                 "poorly")):
        return None
    return _DIFFERENTIATION_GRADE[m.group(1)]


#: A stage or grade that could not be assessed: "Gx", "TX", "grade x", "x".
_NOT_ASSESSED = re.compile(r"(?:[gtnm]|grade|stage)?[\s\-]*x")
#: A column of stages or grades, by its name.
_STAGED_COLUMN = re.compile(r"grade|grading|stage|staging|differentiat|tnm")


def not_assessed_levels(levels: list[str], column: str | None) -> list[str]:
    """The levels of a stage or grade column that say it could not be assessed ("Gx",
    "TX", "grade x"): a gap, not a stage (walk-through 25's 41 "Gx" tumours were coded
    grade 11 and drawn as an island of their own). Only in a column named a stage or
    grade whose other levels hold a number or a Roman numeral.

    Examples
    --------
    >>> not_assessed_levels(["G1", "G2", "Gx"], "Grade")
    ['Gx']
    >>> not_assessed_levels(["A", "X"], "Blood group"), not_assessed_levels(["x"], "Grade")
    ([], [])
    """
    if not column or not _STAGED_COLUMN.search(norm_key(column)):
        return []
    gaps = [lv for lv in levels if _NOT_ASSESSED.fullmatch(norm_key(lv))]
    staged = any(re.search(r"\d|\b(?:i{1,3}|iv|vi{0,3})\b", norm_key(lv))
                 for lv in levels if lv not in gaps)
    return gaps if staged else []


#: Answers that mean the same in a column whose name holds one of the words (loose keys,
#: :func:`loose_key`; the preferred answer first): smoking status, sex and the type of
#: diabetes, as clinic exports write them. Only there: "active" and "current" need not mean the same
#: elsewhere.
SYNONYMS: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = (
    (("smok", "tobacco", "cigar"), (
        ("former", "exsmoker", "ex", "formersmoker", "past", "previous", "quit", "stopped"),
        ("never", "neversmoked", "nonsmoker", "neversmoker", "lifelongnonsmoker"),
        ("current", "currentsmoker", "smoker", "active", "activesmoker"))),
    (("sex", "gender"), (
        ("female", "f", "woman", "w", "fem"),
        ("male", "m", "man", "masc"))),
    # walk-through 22's diabetes clinic: T2, T2DM, Type 2 and Type II for one answer
    (("diabet", "dm type", "type of dm"), (
        ("type2", "t2dm", "t2", "t2d", "dm2", "dmii", "dmtype2", "typeii", "type2dm",
         "type2diabetes", "niddm"),
        ("type1", "t1dm", "t1", "t1d", "dm1", "dmi", "dmtype1", "typei", "type1dm",
         "type1diabetes", "iddm"),
        # walk-throughs 23 and 24: "None" beside "No diabetes"
        ("none", "nodiabetes", "nondiabetic", "nodm", "notdiabetic"))),
)


def infer_levels(text: pd.Series, missing_keys=DEFAULT_MISSING_TOKENS
                 ) -> tuple[dict[str, int], bool, str | None]:
    """Levels and codes of a text column that is not in the encoding table.

    Parameters
    ----------
    text : pandas.Series
        The column's cells.
    missing_keys : set of str
        Normalised missing tokens of the column.

    Returns
    -------
    levels : dict
        ``{level: code}``. Levels that fit one recognised scale are coded by rank on it
        (:data:`sparge.data.tables.SCALES`); columns with a yes and a no level read Yes 1,
        No 2, Unknown 0, other levels from 3; other columns are coded 1, 2, ... in natural order
        (numbers numerically). A word that is also a missing token (``None``, ``Unknown``)
        is a level when it fits the column's scale, or, in a column without a scale, when
        it fills at least 1 % of the cells (and 2 cells); otherwise it is missing.
        ``Unknown`` in a yes/no column (the paper's code 0) needs that share too: a rare
        "unknown" is a gap there as in every other column (GBSG2's 4 of 686).
    ordered : bool
        True when the codes follow a recognised scale (yes/no included) or the levels'
        own numbers (:func:`numbered_levels`).
    scale : str or None
        Name of the scale.
    """
    spelled, counts = spellings(text)
    values = {k for k in spelled if k not in missing_keys}
    words = sorted(k for k in spelled if k in missing_keys and k in CATEGORY_WORDS)
    scale = scale_of(values) if values else None
    common = min_category_count(len(text))
    if scale is not None:
        values |= {w for w in words if scale_of(values | {w}) is not None
                   and (w != "unknown" or counts[w] >= common)}
        scale = scale_of(values)
    else:
        values |= {w for w in words if counts[w] >= common}
        scale = scale_of(values) if values else None
    levels = [spelled[k] for k in values]
    if scale is not None:
        return scale_codes(levels, scale), True, scale
    yn = yes_no_codes(levels)
    if yn is not None:
        return yn, False, None
    ordered_levels = sorted(levels, key=natural_key)
    return ({lv: i + 1 for i, lv in enumerate(ordered_levels)}, numbered_levels(levels),
            None)


#: A level that starts with its number ("0 - fully active", "Grade 2", "Stage 3b").
_NUMBERED = re.compile(r"^\s*([A-Za-z]+\s*)?([-+]?\d+(?:\.\d+)?)([a-cA-C](?![A-Za-z]))?"
                       r"(?![\d.])")


def numbered_levels(levels: list[str]) -> bool:
    """Whether every level starts with a different number, after one shared word or none.

    Such levels ("0 - fully active", "1 - restricted", ...; "Grade 1", "Grade 2") are
    ordered by that number, the order the natural sort already gives them: a form's scale,
    not names.

    Examples
    --------
    >>> numbered_levels(["0 - fully active", "1 - restricted", "2 - ambulatory"])
    True
    >>> numbered_levels(["Grade 1", "Grade 2"]), numbered_levels(["Male", "Female"])
    (True, False)
    >>> numbered_levels(["1", "2", "3a", "3b", "4"])
    True
    """
    if len(levels) < 2:
        return False
    found = [_NUMBERED.match(str(lv)) for lv in levels]
    if not all(found):
        return False
    prefixes = {norm_key(m.group(1) or "") for m in found}
    # a sub-stage letter makes another level: "3a" and "3b" (walk-through 23)
    numbers = [(float(m.group(2)), (m.group(3) or "").lower()) for m in found]
    return len(prefixes) == 1 and len(set(numbers)) == len(numbers)

