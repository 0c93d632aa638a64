"""Gaps by design: a value that does not apply to a patient, told by another column.

A stroke unit's "Door to needle (min)" is empty for every patient whose "Thrombolysis" is
"No": not a value someone forgot, but one that does not exist. Counted as gaps, such cells
left most of walk-through 39's cohort out of training (the paper's rule leaves out a
patient missing more than 10 % of their values), and the Data page offered to leave the
column out, throwing away its real values. A column's gaps are *structural* where another
(categorical) column has an answer under which the column is nearly always empty, while
it is mostly filled under the other answers; those cells do not count against a
patient's share of missing values. The model still completes them like any gap.

Pure functions on encoded arrays (``NaN`` = missing, categories as codes).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: A column is a candidate when at least this share of its cells is empty (and not all).
MIN_GAP_SHARE = 0.1
MAX_GAP_SHARE = 0.95
#: Under an answer that explains gaps, at least this share of the column is empty ...
EXPLAINING_SHARE = 0.95
#: ... and under the column's other answers at most this share.
OTHER_SHARE = 0.5
#: The answers that explain gaps explain at least this share of the column's gaps.
EXPLAINED_SHARE = 0.5
#: Patients an explaining answer needs, and patients under the other answers.
MIN_PATIENTS = 10
#: An explaining column has at most this many answers; at most this many are tried.
MAX_ANSWERS = 20
MAX_EXPLAINING_COLUMNS = 100
#: Rows the search looks at (the first ones): enough to tell a design from chance, and a
#: table 3,648 columns wide is searched in about a second.
MAX_ROWS = 5_000
#: Pairs of columns looked at closely, at most (a table thousands of columns wide).
MAX_CHECKS = 5_000


def find_structural_gaps(X: np.ndarray, categorical: Sequence[bool]
                         ) -> dict[int, tuple[int, tuple[float, ...]]]:
    """Columns whose gaps another column's answers explain.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Encoded features, ``NaN`` = missing; categorical columns hold answer codes.
    categorical : sequence of bool, length m
        Which columns are categorical (the candidates to explain gaps).

    Returns
    -------
    dict
        ``{column: (explaining column, codes)}``: the column's cells are gaps by design
        where the explaining column holds one of ``codes`` (see :func:`structural_mask`).
        For each column the explaining column that explains the most of its gaps.
    """
    X = np.asarray(X, dtype=float)[:MAX_ROWS]
    n, m = X.shape
    M = np.isnan(X)
    share = M.mean(axis=0) if n else np.zeros(m)
    targets = np.flatnonzero((share >= MIN_GAP_SHARE) & (share <= MAX_GAP_SHARE))
    if not len(targets) or n < 2 * MIN_PATIENTS:
        return {}
    explaining = []
    for d in np.flatnonzero(np.asarray(categorical, dtype=bool)):
        codes = np.unique(X[~M[:, d], d])
        if 2 <= len(codes) <= MAX_ANSWERS:
            explaining.append((int(d), codes))
    explaining.sort(key=lambda t: len(t[1]))
    best: dict[int, tuple[int, tuple[float, ...], int]] = {}
    Mt = M[:, targets].astype(np.float32)
    checked = 0
    for d, codes in explaining[:MAX_EXPLAINING_COLUMNS]:
        col = X[:, d]
        known = ~M[:, d]
        # the share of each target column empty under each answer: one product for all
        under = np.stack([col == c for c in codes])  # (answers, n)
        counts = under.sum(axis=1)
        why_all = ((under.astype(np.float32) @ Mt) / np.maximum(counts, 1)[:, None]
                   >= EXPLAINING_SHARE) & (counts >= 5)[:, None]
        some = why_all.any(axis=0) & ~why_all.all(axis=0) & (targets != d)
        for t in np.flatnonzero(some):  # the few columns an answer may explain
            checked += 1
            if checked > MAX_CHECKS:  # a very wide table: enough has been looked at
                return {j: (dd, cc) for j, (dd, cc, _) in best.items()}
            j, why = targets[t], why_all[:, t]
            rows = under[why].any(axis=0)
            others = known & ~rows
            if rows.sum() < MIN_PATIENTS or others.sum() < MIN_PATIENTS:
                continue
            if M[others, j].mean() > OTHER_SHARE:
                continue
            explained = int((M[:, j] & rows).sum())
            if explained < EXPLAINED_SHARE * M[:, j].sum():
                continue
            if explained > best.get(int(j), (0, (), -1))[2]:
                best[int(j)] = (d, tuple(float(c) for c in codes[why]), explained)
    return {j: (d, codes) for j, (d, codes, _) in best.items()}


def structural_mask(X: np.ndarray, gaps: dict[int, tuple[int, tuple[float, ...]]]
                    ) -> np.ndarray:
    """Which cells of ``X`` are gaps by design (``gaps``: :func:`find_structural_gaps`)."""
    X = np.asarray(X, dtype=float)
    out = np.zeros(X.shape, dtype=bool)
    for j, (d, codes) in gaps.items():
        if j < X.shape[1] and d < X.shape[1]:
            out[:, j] = np.isnan(X[:, j]) & np.isin(X[:, d], codes)
    return out


__all__ = ["find_structural_gaps", "structural_mask"]
