"""Patient and column filters and scaling (the paper's preprocessing; DESIGN.md §3).

Pure functions over float arrays with ``NaN`` for missing entries. Column filters return
what they did, so that the validation report can say it in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.stats import skew

#: The paper's rule: patients missing more than 10 % of their values are left out of training.
PAPER_MAX_MISSING = 0.1


def missing_fraction_per_row(X: np.ndarray, weights: np.ndarray | None = None
                             ) -> np.ndarray:
    """Share of missing entries of every patient.

    ``weights`` (one per column, positive) count some columns for less than one: the ten
    yes/no columns read from one list of comorbidities are one column of the table, and
    its empty cell is one gap, not ten (walk-through 28 lost 84 of 1,100 patients so).
    Weights of shape ``X.shape`` are each patient's own: 0 where a value does not apply
    to the patient (:mod:`sparge.data.structural_gaps`), neither a gap nor a value.
    """
    X = np.asarray(X, dtype=float)
    if X.shape[1] == 0:
        return np.zeros(X.shape[0])
    if weights is None:
        return np.isnan(X).mean(axis=1)
    w = np.asarray(weights, dtype=float)
    if w.ndim == 2:
        total = w.sum(axis=1)
        return (np.isnan(X) * w).sum(axis=1) / np.where(total > 0, total, 1.0)
    return (np.isnan(X) @ w) / w.sum()


def patients_to_keep(X: np.ndarray, max_missing: float | None,
                     weights: np.ndarray | None = None) -> np.ndarray:
    """Boolean mask of patients missing at most ``max_missing`` of their values
    (``weights``: as :func:`missing_fraction_per_row`)."""
    if max_missing is None:
        return np.ones(np.asarray(X).shape[0], dtype=bool)
    return missing_fraction_per_row(X, weights) <= max_missing + 1e-12


@dataclass
class ColumnFilter:
    """Which columns survive, and why the others were removed."""

    keep: np.ndarray
    all_missing: list[int] = field(default_factory=list)
    constant: list[int] = field(default_factory=list)
    duplicate_of: dict[int, int] = field(default_factory=dict)


def filter_columns(
    X: np.ndarray,
    *,
    drop_all_missing: bool = True,
    drop_constant: bool = True,
    merge_duplicates: bool = True,
) -> ColumnFilter:
    """Find all-missing, constant and exact-duplicate columns (same values, same gaps).

    The first of a set of duplicates is kept.
    """
    X = np.asarray(X, dtype=float)
    m = X.shape[1]
    keep = np.ones(m, dtype=bool)
    result = ColumnFilter(keep=keep)
    obs = ~np.isnan(X)
    n_obs = obs.sum(axis=0)
    for j in range(m):
        if drop_all_missing and n_obs[j] == 0:
            keep[j] = False
            result.all_missing.append(j)
        # the observed values only: a NaN with a payload (R's NA) trips nanmax
        elif drop_constant and n_obs[j] > 0 and np.ptp(X[obs[:, j], j]) == 0:
            keep[j] = False
            result.constant.append(j)
    if merge_duplicates:
        seen: dict[bytes, int] = {}
        filled = np.where(obs, X, np.inf)  # gaps must coincide too
        for j in np.flatnonzero(keep):
            key = filled[:, j].tobytes()
            if key in seen:
                keep[j] = False
                result.duplicate_of[int(j)] = seen[key]
            else:
                seen[key] = int(j)
    return result


#: :func:`near_duplicate_columns`: at most this share of the patients measured in both
#: columns (and at least one) may differ beyond rounding ...
NEAR_COPY_DIFFER = 0.01
#: ... in columns of at least this many distinct values (two yes/no columns that agree
#: are two findings, not a copy).
NEAR_COPY_DISTINCT = 10


@dataclass(frozen=True)
class NearCopy:
    """A column that repeats an earlier one up to rounding (:func:`near_duplicate_columns`).

    Attributes
    ----------
    of : int
        The earlier column.
    agree, measured : int
        Patients whose two values agree up to rounding, of those measured in either.
    differ : tuple of int
        Rows where they differ (a gap in one only counts), at most 5.
    """

    of: int
    agree: int
    measured: int
    differ: tuple[int, ...]


def _decimals(col: np.ndarray) -> int:
    """The decimals most (half) of a column's measured values are written with, at most 6."""
    v = col[np.isfinite(col)]
    for d in range(7):
        if np.mean(np.abs(v * 10**d - np.round(v * 10**d)) < 1e-6 * 10**d) >= 0.5:
            return d
    return 6


def near_duplicate_columns(X: np.ndarray, columns, differ: float = NEAR_COPY_DIFFER,
                           distinct: int = NEAR_COPY_DISTINCT) -> dict[int, NearCopy]:
    """The columns of ``columns`` (indices of ``X``) that repeat an earlier one of them up
    to rounding: the same value to the fewer decimals the two write, and the same gaps,
    for all but :data:`NEAR_COPY_DIFFER` of the patients measured in either.

    Walk-through 90's "Chol total" was the total cholesterol again, 30 % of its cells to
    two decimals and one cell different: no exact copy, so kept as a second feature
    (twice the weight of one measurement in every distance).

    Parameters
    ----------
    X : numpy.ndarray
        Features with ``NaN`` for missing entries.
    columns : iterable of int
        The columns to compare (numeric measurements, not exact copies).
    differ : float
        The largest share of disagreeing patients.
    distinct : int
        The fewest distinct values a column needs to be judged.

    Returns
    -------
    dict
        ``{later column: NearCopy}``.
    """
    X = np.asarray(X, dtype=float)
    cols = [int(j) for j in columns
            if len(np.unique(X[np.isfinite(X[:, j]), j])) >= distinct]
    if len(cols) < 2:
        return {}
    obs = np.isfinite(X[:, cols])
    dec = [_decimals(X[:, j]) for j in cols]
    med = np.array([np.nanmedian(X[:, j]) for j in cols])
    out: dict[int, NearCopy] = {}
    order = np.argsort(med, kind="stable")
    for a_i, a in enumerate(order):  # only columns of near medians can be copies
        for b in order[a_i + 1:]:
            tol = 0.5 * 10.0 ** -min(dec[a], dec[b]) + 1e-9
            if med[b] - med[a] > tol:
                break
            first, second = sorted((int(a), int(b)))
            if cols[second] in out or cols[first] in out:
                continue
            either = obs[:, first] | obs[:, second]
            both = obs[:, first] & obs[:, second]
            x, y = X[:, cols[first]], X[:, cols[second]]
            same = both & (np.abs(np.where(both, x - y, 0.0)) <= tol)
            bad = np.flatnonzero(either & ~same)
            n = int(either.sum())
            if n and len(bad) <= max(1.0, differ * n) and same.sum() > len(bad):
                out[cols[second]] = NearCopy(of=cols[first], agree=int(same.sum()),
                                             measured=n, differ=tuple(int(r) for r in
                                                                      bad[:5]))
    return out


def fit_standardizer(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-column mean and standard deviation over the observed entries."""
    X = np.asarray(X, dtype=float)
    with np.errstate(all="ignore"):
        mean = np.nanmean(np.where(np.isnan(X).all(axis=0), 0.0, X), axis=0)
        std = np.nanstd(np.where(np.isnan(X).all(axis=0), 0.0, X), axis=0)
    mean = np.nan_to_num(mean)
    std = np.where(np.isfinite(std) & (std > 1e-12), std, 1.0)
    return mean, std


def standardize(X: np.ndarray, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    """``(X - mean) / std``; ``NaN`` stays ``NaN``."""
    return (np.asarray(X, dtype=float) - mean) / std


def unit_norm_rows(Z: np.ndarray) -> np.ndarray:
    """Scale every row to unit Euclidean norm (zero rows stay zero)."""
    norms = np.linalg.norm(Z, axis=1, keepdims=True)
    return Z / np.where(norms > 1e-12, norms, 1.0)


#: A quantity whose values span at least this many orders of magnitude (from its 1st to
#: its 99th percentile) is compared by its logarithm: a viral load of 7,673 copies/mL is as
#: far from 50 as 1.2 million is from 7,673, not 0.08 of a standard deviation away
#: (walk-through 38: every look-alike of a failing patient sat at 50 copies/mL).
WIDE_RANGE_DECADES = 3.0


def _positive_spans(X: np.ndarray, min_distinct: int):
    """Each column of strictly positive values with at least ``min_distinct`` distinct
    ones: ``(index, finite values, decades between its 1st and 99th percentiles)``."""
    X = np.asarray(X, dtype=float)
    for j in range(X.shape[1]):
        v = X[:, j]
        v = v[np.isfinite(v)]
        if v.size < min_distinct or v.min() <= 0 or np.unique(v).size < min_distinct:
            continue
        low, high = np.quantile(v, [0.01, 0.99])
        yield j, v, float(np.log10(high / low))


def wide_range_columns(X: np.ndarray, decades: float = WIDE_RANGE_DECADES,
                       min_distinct: int = 20) -> np.ndarray:
    """Columns of strictly positive values spanning at least ``decades`` orders of
    magnitude between their 1st and 99th percentiles, with at least ``min_distinct``
    distinct values (indices, ascending)."""
    return np.asarray([j for j, _, span in _positive_spans(X, min_distinct)
                       if span >= decades], dtype=np.int64)


#: A right-skewed quantity (skewness at least this) spanning at least
#: :data:`SKEWED_DECADES` orders of magnitude is compared by its logarithm when its
#: logarithm is the more symmetric (:func:`skewed_columns`).
SKEWED_MIN_SKEW = 1.0
SKEWED_DECADES = 1.0


def skewed_columns(X: np.ndarray, decades: float = SKEWED_DECADES,
                   min_skew: float = SKEWED_MIN_SKEW, min_distinct: int = 20
                   ) -> np.ndarray:
    """Columns of :func:`wide_range_columns`, and the columns of strictly positive values
    spanning at least ``decades`` orders of magnitude (1st to 99th percentile) whose
    distribution is right-skewed (skewness at least ``min_skew``) and more symmetric in
    logarithms: a CRP, a bilirubin or a triglyceride, whose long upper tail makes a few
    patients far from all and the rest near-alike on its own scale (indices, ascending)."""
    out = []
    for j, v, span in _positive_spans(X, min_distinct):
        if span >= WIDE_RANGE_DECADES:
            out.append(j)
        elif span >= decades:
            raw = float(skew(v))
            if raw >= min_skew and abs(float(skew(np.log10(v)))) < raw:
                out.append(j)
    return np.asarray(out, dtype=np.int64)


def log_columns(X: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``X`` with ``columns`` in base-10 logarithms; a value <= 0 there becomes -inf
    (below every positive value; the caller floors it), ``NaN`` stays ``NaN``."""
    X = np.array(X, dtype=float, copy=True)
    if len(columns):
        v = X[:, columns]
        with np.errstate(all="ignore"):
            X[:, columns] = np.where(v > 0, np.log10(np.where(v > 0, v, 1.0)),
                                     np.where(np.isnan(v), np.nan, -np.inf))
    return X
