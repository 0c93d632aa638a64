"""Values far from the rest of their column: a typo or another unit.

A sodium of 1380 mmol/L (a missing decimal point), an age of 712, a haemoglobin of 128 in a
g/dL column (g/L): exports carry such values, and nothing in a patient table says they are
wrong. Walk-through 21's sodium of 1380 made its patient the top look-alike of a new
patient whose sodium was also mistyped, and shrank the column's spread so that sodium
barely counted for anyone else.

The rule works on the log scale of a positive measurement, where a unit slip or a lost
decimal point is a shift by a power of ten. A value is *far* when

1. it lies more than ``fold`` times from the column's median, **and** more than
   ``spread`` interquartile ranges (of the logs) from it: ordinary tails stay (a
   creatinine of 5 among medians of 1), and so do wide, skewed columns (an NT-proBNP of
   30,000 among medians of 1,000: its interquartile range alone spans a factor of 8);
2. **and** it is cut off from the rest of the column: between it and the column's values
   within those bounds, the sorted values jump somewhere by a factor of ``gap`` or more.
   Renal failure's creatinines of 8, 9, 10 and 11 among medians of 1 run on from the
   bulk and stay; an isolated 1380 among sodiums up to 155 does not, and neither do two
   of them.

On the 49 public cohorts of the benchmarks (1.23 million values; ``bench/far_values.py``)
the first condition alone flags 2,609 values, among them dialysis creatinines, paediatric
ages and low survival estimates; the rule flags 35: heart rates of 1, a PaCO2 of 1 and 2
mmHg, glucoses of 1.4 and 1.6 (mg/dL), free light chains of 0.01, 15 activity counts
near zero in the synthetic sample, and ages of 1 and 4 in two cohorts that do hold
children. These are values to *check*, not to drop: the report
lists them and the user decides. Walk-through 21's seven planted slips (sodium 1380, age
712, LVEF 350 %, creatinine 110 mg/dL, potassium 44, haemoglobin 128 g/dL, systolic 12)
are all flagged, and nothing else of its table.

Only columns that are measurements are judged: at least 20 values, more than 10
different ones, and at least 95 % of them above zero (a count of admissions, mostly
zeros, is not).
"""

from __future__ import annotations

import re

import numpy as np

from sparge.data.number_format import data_decimals

#: Measurements that rise by orders of magnitude in disease: a tumour marker, a viral
#: load, an acute-phase or cardiac marker. A value far *above* their bulk is the disease,
#: not a slip (walk-through 70's AFP of 1250 kU/L, a hepatocellular carcinoma among
#: clinic values of 2 to 7, was offered to be set to missing); far below is still judged.
RISES_BY_ORDERS = re.compile(
    r"\bafp\b|alpha[\s-]?feto|\bca\s?-?(?:19-?9|125|15-?3)\b|\bcea\b|\bpsa\b|"
    r"\b(?:beta[\s-]?)?hcg\b|ferritin|troponin|\b(?:nt-?pro-?)?bnp\b|viral\s+load|"
    r"\b(?:hbv|hcv|hiv|cmv|ebv)\s?(?:dna|rna)\b|\bcrp\b|c-reactive|procalcitonin|\bpct\b|"
    r"d-?dimer|\bige\b|calprotectin|\bck\b|creatine\s+kinase|lactate\s+dehydrogenase|"
    r"\bldh\b|\bbhcg\b", re.IGNORECASE)

#: A value is far only beyond this factor from its column's median (a unit slip is x10).
FOLD = 5.0
#: ... and beyond this many interquartile ranges of the column's logs from the median.
SPREAD = 3.0
#: ... and cut off from the column's other values by a jump of at least this factor.
GAP = 3.0
#: A column is judged only with at least this many values ...
MIN_VALUES = 20
#: ... more than this many different ones ...
MIN_DISTINCT = 10
#: ... and at least this share of them above zero.
MIN_POSITIVE = 0.95


def log_bounds(X: np.ndarray, *, fold: float = FOLD, spread: float = SPREAD
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per column, the plausible interval of the rule in the module's docstring.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Numbers, NaN where missing.
    fold, spread : float
        The rule's factor from the median and number of interquartile ranges.

    Returns
    -------
    lo, hi : ndarray of shape (m,)
        Values below ``lo`` or above ``hi`` are far; ``-inf`` / ``inf`` for a column that
        is not judged (too few values, a count, a column with zeros or negatives).
    """
    X = np.asarray(X, dtype=float)
    m = X.shape[1] if X.ndim == 2 else 0
    lo, hi = np.full(m, -np.inf), np.full(m, np.inf)
    for j in range(m):
        v = X[:, j]
        v = v[np.isfinite(v)]
        if len(v) < MIN_VALUES or np.mean(v > 0) < MIN_POSITIVE:
            continue
        pos = v[v > 0]
        # distinct values: a sample answers for a large column (a million rows)
        if len(np.unique(pos[:10_000])) <= MIN_DISTINCT and len(np.unique(pos)) <= MIN_DISTINCT:
            continue
        logs = np.log10(pos)
        q1, med, q3 = np.percentile(logs, [25, 50, 75])
        reach = max(np.log10(fold), spread * (q3 - q1))
        lo[j], hi[j] = 10.0 ** (med - reach), 10.0 ** (med + reach)
    return lo, hi


def _cut_off(values: np.ndarray, inside: np.ndarray, gap: float) -> np.ndarray:
    """Of ``values`` (one column, finite), those beyond ``inside``'s values (a mask of
    the ones within bounds) that a jump of ``gap`` or more separates from them."""
    out = np.zeros(len(values), bool)
    if not inside.any():
        return out
    top, bottom = values[inside].max(), values[inside].min()
    for side, edge in ((values > top, top), (values < bottom, bottom)):
        idx = np.flatnonzero(side & ~inside)
        if not len(idx):
            continue
        order = idx[np.argsort(np.abs(np.log10(values[idx] / edge)))]  # nearest first
        prev, cut = edge, False
        for i in order:
            ratio = values[i] / prev
            cut = cut or max(ratio, 1 / ratio) >= gap
            out[i] = cut
            prev = values[i]
    return out


def far_mask(X: np.ndarray, reference: np.ndarray | None = None, *, fold: float = FOLD,
             spread: float = SPREAD, gap: float = GAP) -> np.ndarray:
    """Which values of ``X`` are far from the rest of their column (the module's rule).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Numbers, NaN where missing.
    reference : ndarray of shape (k, m), optional
        The values that set each column's bounds and bulk (the training patients when
        ``X`` is new patients); ``X`` itself by default.
    fold, spread, gap : float
        The rule's factor from the median, number of interquartile ranges and jump.

    Returns
    -------
    ndarray of bool, shape (n, m)
        True for a far value (never for a missing value, a zero or a negative number:
        other checks question those).
    """
    X = np.asarray(X, dtype=float)
    ref = X if reference is None else np.asarray(reference, dtype=float)
    lo, hi = log_bounds(ref, fold=fold, spread=spread)
    out = np.zeros(X.shape, bool)
    for j in np.flatnonzero(np.isfinite(lo)):
        r = ref[:, j]
        r = r[np.isfinite(r) & (r > 0)]
        x = X[:, j]
        rows = np.flatnonzero(np.isfinite(x) & (x > 0) & ((x < lo[j]) | (x > hi[j])))
        if not len(rows):
            continue
        # the candidates among the reference's values within bounds: a jump between them
        # and the bulk, or between two of them, cuts off the rest
        bulk = r[(r >= lo[j]) & (r <= hi[j])]
        values = np.concatenate([bulk, x[rows]])
        inside = np.r_[np.ones(len(bulk), bool), np.zeros(len(rows), bool)]
        if reference is not None:  # the reference's own far values run on from the bulk
            extra = r[(r < lo[j]) | (r > hi[j])]
            values = np.concatenate([values, extra])
            inside = np.r_[inside, np.zeros(len(extra), bool)]
        out[rows, j] = _cut_off(values, inside, gap)[len(bulk):len(bulk) + len(rows)]
    return out


def typical_bounds(values) -> tuple[float, float] | None:
    """Where most patients lie: the 5th and 95th percentiles of a column's measured
    values, its far values left out (:func:`far_mask`), rounded to the decimals the
    column is written with; None with fewer than two values. The report's list of far
    values and the New patient form's empty fields say the same range (walk-through 22
    read "0.628–2.75" in one and "0.62–2.74" in the other)."""
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if len(v) < 2:
        return None
    v = v[~far_mask(v[:, None])[:, 0]]
    lo, hi = np.percentile(v, [5, 95])
    d = data_decimals(v, most=3)
    return float(round(lo, d)), float(round(hi, d))
