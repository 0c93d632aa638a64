"""Weights written in pounds and ounces ("7 lb 2 oz"), read in pounds.

A neonatal export wrote 35 of its 700 birth weights as "6 lb 10 oz" among grams
(walk-through 31): each read as a number with the unit "lb 10 oz", no unit anyone knows,
and set to missing with "no exact conversion is known" (1 lb is 453.59237 g exactly). A
cell written so is read as its weight in pounds, "6.625 lb", before the column's units
are read; the column's unit conversions (:mod:`sparge.data.unit_conversion`) then take it
to the column's unit like any "6.6 lb".
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.compound_units import FEW_ROWS, rewrite_cells, sample_has, two_parts

#: "7 lb 2 oz", "7lbs 2oz", "7 lb, 2.5 oz", "7 pounds 2 ounces" (linear on a hostile cell).
_LB_OZ = re.compile(r"\s*(\d{1,3}(?:\.\d+)?)\s*(?:lbs?|pounds?)\.?\s*,?\s*"
                    r"(\d{1,2}(?:\.\d+)?)\s*(?:oz|ounces?)\.?\s*", re.IGNORECASE)


def pounds(cell: object) -> float | None:
    """The weight of a cell written in pounds and ounces, in pounds, or ``None``.

    Examples
    --------
    >>> pounds("6 lb 10 oz"), pounds("7lbs 2oz"), pounds("3.2 kg")
    (6.625, 7.125, None)
    """
    parts = two_parts(_LB_OZ, cell, 16)
    return None if parts is None else parts[0] + parts[1] / 16


def _may_hold(values: pd.Series) -> bool:
    """Whether a column's first cells hold a weight in pounds and ounces (a few are
    enough: an export mixes them among grams)."""
    return len(values) <= FEW_ROWS or sample_has(values, (_LB_OZ, ("oz", "ounce")))


def read_pounds_ounces(df: pd.DataFrame) -> pd.DataFrame:
    """The table with every cell written in pounds and ounces rewritten in pounds
    ("6 lb 10 oz" as "6.625 lb"), and a note per column in
    ``df.attrs["sparge_read_notes"]``; a table without one is returned as it is."""
    return rewrite_cells(
        df, _may_hold, lambda v: v.map(lambda c: pounds(c) if isinstance(c, str) else None
                                       ).astype(object),
        "lb", "weight(s) written in pounds and ounces", "pounds")
