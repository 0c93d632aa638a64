"""Numbers as the pages and messages write them: about three significant digits, never
in scientific notation, at the precision a column is written with."""

from __future__ import annotations

import math

import numpy as np

#: How a missing value is shown.
MISSING = "—"


def as_float(value: object) -> float:
    """``float(value)``, NaN for what is not a number (None, text)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


#: The thousands separator of :func:`format_number`: a no-break space (SI), never a comma
#: or a dot, which read as decimal marks in one convention or the other.
THOUSANDS = "\u00a0"


def format_number(value: object) -> str:
    """A number with about three significant digits, never in scientific notation.

    ``1.9999999924 -> "2"``, ``5.234 -> "5.23"``, ``123.456 -> "123"``,
    ``12345.6 -> "12 346"``, ``0.001234 -> "0.00123"``; missing -> ``"—"``.

    Thousands are grouped with a no-break space, as SI writes them: "317,000" reads as
    317 where decimals are written with a comma (walk-through 25's European export), and
    "1,380, 2,450" lists two values or four. Four digits stay together, as SI allows: a
    year of diagnosis read "2 014 (2 013–2 016)" (walk-through 68).
    """
    v = as_float(value)
    if not math.isfinite(v):
        return MISSING
    if v == 0:
        return "0"
    mag = math.floor(math.log10(abs(v)))
    decimals = max(0, 2 - mag)
    r = round(v, decimals)
    if abs(r) >= 10_000:
        return f"{r:,.0f}".replace(",", THOUSANDS)
    if abs(r) >= 1000:
        return f"{r:.0f}"
    text = f"{r:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_given(value: object) -> str:
    """A value someone typed, as typed (up to 6 significant digits, never in scientific
    notation, thousands grouped as :func:`format_number` groups them): a New patient
    form's "Temp = 101.3" was questioned as "Temp = 101" (walk-through 33)."""
    v = as_float(value)
    if not math.isfinite(v):
        return MISSING
    text = np.format_float_positional(float(f"{v:.6g}"), trim="-")
    whole, _, frac = text.lstrip("-").partition(".")
    if len(whole) > 4:  # four digits together, as format_number writes them
        whole = f"{int(whole):,}".replace(",", THOUSANDS)
    return ("-" if text.startswith("-") else "") + whole + (f".{frac}" if frac else "")


def data_decimals(values: np.ndarray, most: int = 4) -> int:
    """The decimals a column's values are written with (0 for whole numbers, at most
    ``most``): the precision its summaries should keep."""
    v = np.asarray(values, dtype=float)
    if not np.isfinite(v).any():
        return 0
    found = typical_decimals(v, share=1.0, most=most)
    return most if found is None else found


def typical_decimals(values, share: float = 0.9, most: int = 4) -> int | None:
    """The decimals most of a column's values are written with: the fewest that ``share``
    of its measured values need (0 for a column of whole numbers), or ``None`` for a
    column of no value or whose values need more than ``most``. A few converted values
    ("158 lb": 71.6676 kg) do not change it, where :func:`data_decimals` counts them."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return None
    for d in range(most + 1):
        whole = np.abs(v * 10**d - np.round(v * 10**d)) < 1e-6 * max(1.0, 10**d)
        if whole.mean() >= share:
            return d
    return None


def round_computed(values, decimals: int | None) -> np.ndarray:
    """``values`` with those written with more than one decimal beyond ``decimals`` (a
    column's :func:`typical_decimals`) rounded to ``decimals``, or to three significant
    digits where that keeps more: a value converted from another unit (71.6676 kg from
    158 lb) is shown as its column writes its values (71.7), 5/12 of a year in a column of
    whole years as 0.417 (not 0), one written with a decimal more than the rest (72.45)
    as written."""
    x = np.array(values, dtype=float, copy=True)
    if decimals is None:  # no precision most values share: only float noise is cut
        decimals = 4
    d = decimals + 1
    with np.errstate(invalid="ignore", divide="ignore"):
        extra = np.isfinite(x) & (np.abs(x * 10**d - np.round(x * 10**d))
                                  >= 1e-6 * max(1.0, 10**d)) & (x != 0)
        keep = np.maximum(decimals, 2 - np.floor(np.log10(np.abs(np.where(extra, x, 1.0)))))
    for k in np.unique(keep[extra]).astype(int):
        at = extra & (keep == k)
        x[at] = np.round(x[at], k)
    return x
