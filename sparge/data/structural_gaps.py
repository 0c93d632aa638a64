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

import re
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
#: An explaining column has at most this many answers; at most this many are tried
#: (walk-through 87's anticoagulant, 25 spellings of its drugs and doses, explained the
#: gaps of INR and TTR, warfarin's measures, only once they were merged below 20; an
#: answer explains only with 5 patients or more, so a long tail of answers adds none).
MAX_ANSWERS = 40
MAX_EXPLAINING_COLUMNS = 100
#: Rows the search looks at (the first ones): enough to tell a design from chance, and a
#: table 3,648 columns wide is searched in about a second.
MAX_ROWS = 5_000
#: Pairs of columns looked at closely, at most (a table thousands of columns wide).
MAX_CHECKS = 5_000


#: A rule saying where a column's values do not apply: ``(explaining column, kind,
#: values)``, kind "in" (the explaining column holds one of the ``values``, answer codes),
#: "above" or "below" (it is above or below the one value in ``values``: a child's age).
Rule = tuple[int, str, tuple[float, ...]]
#: Thresholds tried on a numeric explaining column (its quantiles).
N_THRESHOLDS = 19


#: Patient-set x patient x column products the search may spend (about half a second on
#: 2 cores): a table thousands of columns wide tries its first explaining columns only.
WORK_BUDGET = 2e9


def _candidates(X: np.ndarray, M: np.ndarray, categorical: Sequence[bool], n_targets: int):
    """The explaining columns' sets of patients, ``(column, kind, values, sets)``: a
    categorical column's answers (disjoint; these first, the fewest answers first), then
    a numeric one's patients above (and, separately, below) each of its quantiles
    (nested), within :data:`WORK_BUDGET`."""
    cat = np.asarray(categorical, dtype=bool)
    budget = WORK_BUDGET / max(X.shape[0] * n_targets, 1)  # sets that may be tried
    found = 0
    answers = {int(d): np.unique(X[~M[:, d], d]) for d in np.flatnonzero(cat)}
    for d in sorted(answers, key=lambda d: len(answers[d]))[:MAX_EXPLAINING_COLUMNS]:
        values = answers[d]
        if 2 <= len(values) <= MAX_ANSWERS and found + len(values) <= budget:
            found += len(values)
            yield d, "in", values, np.stack([X[:, d] == v for v in values])
    for d in np.flatnonzero(~cat)[:MAX_EXPLAINING_COLUMNS]:
        if found + 2 * N_THRESHOLDS > budget:
            return
        known = X[~M[:, d], d]
        distinct = np.unique(known)
        if len(distinct) < 10:
            continue
        # the quantiles, and the column's floor and ceiling alone: walk-through 81's
        # embryos transferred, empty after 0 oocytes retrieved (6 % of the cycles, below
        # the first quantile's 5 %; "below 2" held the cycles of one oocyte, transferred)
        cuts = np.unique(np.concatenate([
            np.quantile(known, np.linspace(0.05, 0.95, N_THRESHOLDS)), distinct[[1, -2]]]))
        found += 2 * len(cuts)
        with np.errstate(invalid="ignore"):
            yield d, "above", cuts, np.stack([X[:, d] > t for t in cuts])
            yield d, "below", cuts, np.stack([X[:, d] < t for t in cuts])


def find_structural_gaps(X: np.ndarray, categorical: Sequence[bool]) -> dict[int, Rule]:
    """Columns whose gaps another column explains.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Encoded features, ``NaN`` = missing; categorical columns hold answer codes.
    categorical : sequence of bool, length m
        Which columns are categorical. Those explain gaps by their answers
        ("Thrombolysis" No); the numeric ones by a threshold (a head circumference
        measured under the age of 2 only, a peak flow over 5: walk-through 41).

    Returns
    -------
    dict
        ``{column: rule}`` (:data:`Rule`): the column's cells are gaps by design where the
        rule holds (see :func:`structural_mask`). For each column the rule that explains
        the most of its gaps.
    """
    X = np.asarray(X, dtype=float)[:MAX_ROWS]
    n, m = X.shape
    M = np.isnan(X)
    share = M.mean(axis=0) if n else np.zeros(m)
    targets = np.flatnonzero((share >= MIN_GAP_SHARE) & (share <= MAX_GAP_SHARE))
    if not len(targets) or n < 2 * MIN_PATIENTS:
        return {}
    best: dict[int, tuple[Rule, int]] = {}
    Mt = M[:, targets].astype(np.float32)
    checked = 0
    for d, kind, values, under in _candidates(X, M, categorical, len(targets)):
        known = ~M[:, d]
        # the share of each target column empty in each set: one product for all
        counts = under.sum(axis=1)
        why_all = ((under.astype(np.float32) @ Mt) / np.maximum(counts, 1)[:, None]
                   >= EXPLAINING_SHARE) & (counts >= 5)[:, None]
        some = why_all.any(axis=0) & ~why_all.all(axis=0) & (targets != d)
        for t in np.flatnonzero(some):  # the few columns a set may explain
            checked += 1
            if checked > MAX_CHECKS:  # a very wide table: enough has been looked at
                return {j: rule for j, (rule, _) in best.items()}
            j, why = targets[t], why_all[:, t]
            if kind == "in":
                rows, rule_values = under[why].any(axis=0), values[why]
            else:  # nested sets: the largest that holds (the lowest or highest threshold)
                k = int(np.flatnonzero(why)[0 if kind == "above" else -1])
                rows, rule_values = under[k], values[k:k + 1]
            others = known & ~rows
            if rows.sum() < MIN_PATIENTS or others.sum() < MIN_PATIENTS:
                continue
            if M[others, j].mean() > OTHER_SHARE:
                continue
            explained = int((M[:, j] & rows).sum())
            if explained < EXPLAINED_SHARE * M[:, j].sum():
                continue
            if explained > best.get(int(j), (None, -1))[1]:
                best[int(j)] = ((d, kind, tuple(float(v) for v in rule_values)), explained)
    return {j: rule for j, (rule, _) in best.items()}


def rule_holds(column: np.ndarray, kind: str, values: Sequence[float]) -> np.ndarray:
    """Where a rule's explaining ``column`` says the value does not apply."""
    column = np.asarray(column, dtype=float)
    with np.errstate(invalid="ignore"):
        if kind == "above":
            return column > values[0]
        if kind == "below":
            return column < values[0]
    return np.isin(column, values)


def structural_mask(X: np.ndarray, gaps: dict[int, Rule]) -> np.ndarray:
    """Which cells of ``X`` are gaps by design (``gaps``: :func:`find_structural_gaps`)."""
    X = np.asarray(X, dtype=float)
    out = np.zeros(X.shape, dtype=bool)
    for j, (d, kind, values) in gaps.items():
        if j < X.shape[1] and d < X.shape[1]:
            out[:, j] = np.isnan(X[:, j]) & rule_holds(X[:, d], kind, values)
    return out


#: A treatment's dose or its amount, by its column's name: "RAI dose (MBq)", "RT dose
#: (Gy)", "Radioiodine activity", "Insulin dosage".
DOSE_NAME = re.compile(r"\bdos(?:e|es|age|ing)\b|\bmbq\b|\bgbq\b|\bmci\b|\bgy\b|"
                       r"\b(?:rai|radioiodine|i[\s-]?131)\b.{0,20}\bactivity\b",
                       re.IGNORECASE)
#: A dose column is read as "not given" where empty when at least this share is empty ...
NOT_GIVEN_SHARE = 0.5


def untreated_columns(names: Sequence[str], X: np.ndarray, numeric: Sequence[bool]
                      ) -> list[int]:
    """The numeric columns of a treatment's dose (:data:`DOSE_NAME`) whose empty cells
    say the treatment was not given: at least :data:`NOT_GIVEN_SHARE` of them empty (and
    not all), every written dose above 0 (a column that writes 0 for no treatment has
    real gaps where empty). Walk-through 89's "RAI dose (MBq)", empty for the 86 % of a
    thyroid clinic never given radioiodine, left most of the clinic out of training.

    Examples
    --------
    >>> X = np.array([[550.0, 1.0], [np.nan, 2.0], [np.nan, 3.0], [800.0, np.nan]])
    >>> untreated_columns(["RAI dose (MBq)", "TSH"], X, [True, True])
    [0]
    """
    X = np.asarray(X, dtype=float)
    out = []
    for j, name in enumerate(names):
        if not numeric[j] or not DOSE_NAME.search(str(name)[:120]):
            continue
        col = X[:, j]
        empty = np.isnan(col)
        if NOT_GIVEN_SHARE <= empty.mean() < 1 and np.all(col[~empty] > 0):
            out.append(j)
    return out


__all__ = ["DOSE_NAME", "Rule", "find_structural_gaps", "rule_holds", "structural_mask",
           "untreated_columns"]
