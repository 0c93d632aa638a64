"""Parsing cells: text to numbers, missing tokens, categorical levels (DESIGN.md §3).

:func:`parse_numeric` reads a column of cells as numbers (decimal commas, thousands
separators, censored values such as ``<0.1`` and infinities are recognised and reported);
:func:`numeric_share` tells how much of a column is numbers; :func:`infer_levels` codes the
levels of a text column that is not in the encoding table (recognised ordered scales, yes/no,
natural order). The missing tokens and scales themselves live in :mod:`sparge.data.tables`.
"""

from __future__ import annotations

import math
import re
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
_SPACED = re.compile(r"^[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$")  # 1 234,5
_INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
_CENSORED = re.compile(r"^\s*([<>]=?)\s*([+-]?(\d+\.?\d*|\.\d+))\s*$")
_NUMERIC_LIKE = re.compile(
    rf"{NUMBER_PATTERN}|[+-]?\d+,\d+|[+-]?\d{{1,3}}(?:\.\d{{3}})+,\d+"
    r"|[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?"
    r"|[<>]=?\s*[+-]?(?:\d+\.?\d*|\.\d+)|[+-]?inf(?:inity)?", re.IGNORECASE)
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
}


def _unit_key(text: str) -> str:
    key = re.sub(r"\s+", "", str(text)).lower()
    return _UNIT_SPELLINGS.get(key, key)


def header_unit(name: object) -> str | None:
    """The unit written at the end of a column's name, normalised ("g", "mg/dl"), or
    ``None``.

    Examples
    --------
    >>> header_unit("Birth weight (g)"), header_unit("Platelets [x10^9 / L]"), header_unit("Age")
    ('g', 'x10^9/l', None)
    """
    m = _HEADER_UNIT.search(str(name))
    return _unit_key(m.group(1)) if m else None


def with_unit(cell: str, unit: str | None) -> float | None:
    """The number of a cell written with its column's unit ("1420 g" in a "(g)" column),
    else ``None``: a cell in another unit ("1.4 kg") is not converted."""
    if not unit:
        return None
    m = _NUMBER_THEN_TEXT.match(cell.strip())
    if m is None or _unit_key(m.group(2)) != unit:
        return None
    return float(m.group(1).replace(",", "."))


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


def parse_numeric(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS,
                  unit: str | None = None) -> tuple[np.ndarray, dict[str, Any]]:
    """Parse a column of cells as numbers.

    Parameters
    ----------
    values : pandas.Series
        The column's cells (text or numbers).
    missing_tokens : set of str
        Normalised missing tokens (cells that read as missing, not as stray text).
    unit : str, optional
        The column's unit (:func:`header_unit` of its name): cells written with it
        ("1420 g") read as their number.

    Returns
    -------
    numbers : ndarray of float
        One value per cell; ``NaN`` for missing, unparsable, censored and infinite cells.
    info : dict
        What was read: the unparsable cells (``bad``: list of (row, text)), decimal-comma
        cells converted (``decimal_comma``: count), cells with thousands separators
        converted (``thousands``: count; a column written as ``1.234,5`` reads 1234.5,
        ``1 234,5`` too), censored values (``censored``: (row, text) of cells such as
        ``<0.1``), infinite values (``infinite``: (row, text)), the missing tokens seen
        (``missing_tokens``: {token: count}) and the cells written with the unit
        (``unit``: (row, text)).
    """
    info: dict[str, Any] = {"bad": [], "decimal_comma": 0, "thousands": 0, "censored": [],
                            "infinite": [], "missing_tokens": {}, "unit": []}
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
    tokens: list[str] = []
    for i, s in zip(rest, rest_text):
        if norm_key(s) in missing_tokens:
            tokens.append(s)
        elif eu and (_EU_FULL.match(s) or _DECIMAL_COMMA.match(s)):
            out[i] = float(s.replace(".", "").replace(",", "."))
            info["thousands"] += 1
        elif _SPACED.match(s):
            out[i] = float(re.sub(r"[ \u00a0\u202f]", "", s).replace(",", "."))
            info["thousands"] += 1
        elif _DECIMAL_COMMA.match(s):
            out[i] = float(s.replace(",", "."))
            info["decimal_comma"] += 1
        elif _CENSORED.match(s):
            info["censored"].append((int(i), s))
        elif norm_key(s) in _INF_TOKENS or _NUMBER.match(s):  # inf, or too large (1e999)
            info["infinite"].append((int(i), s))
        elif (v := with_unit(s, unit)) is not None and math.isfinite(v):
            out[i] = v
            info["unit"].append((int(i), s))
        else:
            info["bad"].append((int(i), s))
    if tokens:
        info["missing_tokens"] = token_counts(pd.Series(tokens, dtype=object))
    return out, info


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
    text = cell_text(values)
    codes, uniques = pd.factorize(text[text != ""])
    if len(uniques) == 0:
        return 0.0
    counts = np.bincount(codes, minlength=len(uniques))
    uniques = pd.Series(uniques, dtype=object)
    number = pd.to_numeric(uniques, errors="coerce").notna().to_numpy().copy()
    other = np.flatnonzero(~number)
    token = np.zeros(len(uniques), bool)
    token[other] = [norm_key(uniques.iat[i]) in missing_tokens for i in other]
    number[other] = [bool(_NUMERIC_LIKE.fullmatch(uniques.iat[i]))
                     or with_unit(uniques.iat[i], unit) is not None for i in other]
    n_all = int(counts[~token].sum())
    return float(counts[number].sum() / n_all) if n_all else 0.0


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
_NUMBERED = re.compile(r"^\s*([A-Za-z]+\s*)?([-+]?\d+(?:\.\d+)?)(?![\d.])")


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
    """
    if len(levels) < 2:
        return False
    found = [_NUMBERED.match(str(lv)) for lv in levels]
    if not all(found):
        return False
    prefixes = {norm_key(m.group(1) or "") for m in found}
    numbers = [float(m.group(2)) for m in found]
    return len(prefixes) == 1 and len(set(numbers)) == len(numbers)

