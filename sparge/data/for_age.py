"""Measurements far from what patients of the same age have: a child's weight with a lost
decimal point.

A paediatric emergency department's export wrote a 5-year-old's weight as 221 kg (22.1,
walk-through 50). The far-values rule (:mod:`sparge.data.far_values`) judges a value
against its whole column, and a children's weight column runs from 3 kg to 80 kg: its
interquartile range alone spans a factor of 4, so 221 was not far, and its patient's
weight pulled the look-alikes towards the adolescents.

In a cohort where a growth measurement (weight, height, length, head circumference)
changes with age, this module judges each value against the cohort's own patients of
about the same age:

1. :func:`age_trend`: the median of the measurement's logarithm in bins of age (quantiles
   of the ages, at least :data:`PER_BIN` patients each), joined by straight lines. The
   measurement is judged by age only when the trend is real: its medians span a factor of
   :data:`MIN_TREND` at least (children grow; an adult cohort's weights barely change with
   age, and are left to the far-values rule alone).
2. :func:`far_for_age`: each value divided by the trend at the patient's age, a ratio near
   1, goes through the far-values rule (a factor of 5 from the median ratio, beyond 3
   interquartile ranges, cut off from the others by a jump of 3): 221 kg at 5 years is 12
   times the 18 kg of the cohort's 5-year-olds.

No growth chart is built in: the cohort is its own reference, in whatever unit its
columns are written (ages in months, weights in pounds).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from sparge.data.far_values import far_mask
from sparge.data.plausible import name_words

#: A growth measurement's column name (its words in lower case).
GROWTH_NAME = re.compile(r"\b(?:weight|wt|weighed|kg|kgs|body mass|height|ht|length|"
                         r"stature|head circumference|hc|ofc)\b")
#: ... unless it names something derived from one, or another person's.
_NOT_GROWTH = re.compile(r"\b(?:birth|gain|loss|lost|change|delta|diff|difference|ratio|"
                         r"index|bmi|centile|percentile|pctl|z|sds|score|predicted|ideal|"
                         r"target|dose|per|mother|maternal|father|paternal|donor|"
                         r"tumou?r|lesion|wound|stay)\b")
#: An age column's name ...
_AGE = re.compile(r"\bage\b")
#: ... that is the patient's age now, not a gestation or another person's.
_NOT_AGE = re.compile(r"\b(?:gestation|gestational|ga|corrected|postmenstrual|pma|"
                      r"mother|maternal|father|paternal|donor|menarche|death|onset|"
                      r"group|band|range|category)\b")
#: The fewest patients with both an age and a value for a column to be judged by age.
MIN_PAIRS = 100
#: At least this many patients in each bin of age, and at most this many bins.
PER_BIN = 25
MAX_BINS = 20
#: A measurement is judged by age only when its median changes across the ages by at
#: least this factor.
MIN_TREND = 1.5


class AgeTrend(NamedTuple):
    """A measurement's median log by age: bins' median ages (increasing) and medians of
    the log values; and where most patients' ratios to the trend lie (5th and 95th
    percentiles, far ratios left out)."""

    ages: np.ndarray
    log_medians: np.ndarray
    typical: tuple[float, float]

    def expected(self, ages) -> np.ndarray:
        """The trend's value at ``ages`` (flat beyond the first and last bins)."""
        return np.exp(np.interp(np.asarray(ages, dtype=float), self.ages, self.log_medians))


def is_growth(column: object) -> bool:
    """Whether a column's name names a growth measurement.

    Examples
    --------
    >>> is_growth("Weight (kg)"), is_growth("wt_kg"), is_growth("Head circumference")
    (True, True, True)
    >>> is_growth("Birth weight"), is_growth("Weight loss (%)"), is_growth("BMI")
    (False, False, False)
    """
    words = name_words(column)
    return bool(GROWTH_NAME.search(words)) and not _NOT_GROWTH.search(words)


def age_column(columns, values: dict | None = None) -> object | None:
    """The column of the patients' ages among ``columns``: named "age", not a gestation
    or another person's; of several, the one with the most values (``values``: column ->
    array), else the first.

    Examples
    --------
    >>> age_column(["Weight", "Gestational age", "Age (months)"])
    'Age (months)'
    >>> age_column(["Weight", "Maternal age"]) is None
    True
    """
    found = [c for c in columns
             if _AGE.search(name_words(c)) and not _NOT_AGE.search(name_words(c))]
    if not found:
        return None
    if values is None:
        return found[0]
    return max(found, key=lambda c: int(np.isfinite(np.asarray(values[c], float)).sum()))


def age_trend(values, ages) -> AgeTrend | None:
    """The trend of a measurement with age (the module's step 1), or ``None`` when there
    are too few patients with both, too few distinct ages, or the measurement hardly
    changes with age."""
    v = np.asarray(values, dtype=float).ravel()
    a = np.asarray(ages, dtype=float).ravel()
    ok = np.isfinite(v) & np.isfinite(a) & (v > 0)
    n = int(ok.sum())
    if n < MIN_PAIRS:
        return None
    v, a = v[ok], a[ok]
    bins = min(MAX_BINS, n // PER_BIN)
    edges = np.unique(np.quantile(a, np.linspace(0.0, 1.0, bins + 1)))
    if len(edges) < 4:
        return None
    which = np.clip(np.searchsorted(edges, a, side="right") - 1, 0, len(edges) - 2)
    logs = np.log(v)
    centres, medians = [], []
    for b in range(len(edges) - 1):
        inside = which == b
        if inside.sum() >= PER_BIN // 2:
            centres.append(float(np.median(a[inside])))
            medians.append(float(np.median(logs[inside])))
    if len(centres) < 3:
        return None
    centres_a, medians_a = np.asarray(centres), np.asarray(medians)
    order = np.argsort(centres_a, kind="stable")
    centres_a, medians_a = centres_a[order], medians_a[order]
    if np.exp(medians_a.max() - medians_a.min()) < MIN_TREND:
        return None
    ratio = v / np.exp(np.interp(a, centres_a, medians_a))
    ratio = ratio[~far_mask(ratio[:, None])[:, 0]]
    lo, hi = np.percentile(ratio, [5, 95])
    return AgeTrend(centres_a, medians_a, (float(lo), float(hi)))


def far_for_age(values, ages, trend: AgeTrend | None = None,
                reference: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Which values are far from those of the patients of the same age (the module's step
    2); none where the age is missing, or where the column is not judged by age.

    Parameters
    ----------
    values, ages : array-like of shape (n,)
        The measurement and the ages (NaN = missing).
    trend : AgeTrend, optional
        The trend to judge against: :func:`age_trend` of ``reference``, else of
        ``values`` and ``ages`` themselves.
    reference : tuple of arrays, optional
        The training patients' ``(values, ages)`` when ``values`` are new patients': their
        ratios set the bounds.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ages = rng.uniform(0.2, 16, 400)
    >>> weights = (3.5 + 4.5 * ages ** 0.9) * np.exp(rng.normal(0, 0.12, 400))
    >>> weights[7] = 10 * weights[7]
    >>> np.flatnonzero(far_for_age(weights, ages)).tolist()
    [7]
    """
    v = np.asarray(values, dtype=float).ravel()
    a = np.asarray(ages, dtype=float).ravel()
    out = np.zeros(len(v), bool)
    ref_v, ref_a = (v, a) if reference is None else (np.asarray(reference[0], float).ravel(),
                                                       np.asarray(reference[1], float).ravel())
    if trend is None:
        trend = age_trend(ref_v, ref_a)
    if trend is None:
        return out
    ok = np.isfinite(v) & np.isfinite(a) & (v > 0)
    ratio = np.full(len(v), np.nan)
    ratio[ok] = v[ok] / trend.expected(a[ok])
    if reference is None:
        return far_mask(ratio[:, None])[:, 0]
    ref_ok = np.isfinite(ref_v) & np.isfinite(ref_a) & (ref_v > 0)
    ref_ratio = np.full(len(ref_v), np.nan)
    ref_ratio[ref_ok] = ref_v[ref_ok] / trend.expected(ref_a[ref_ok])
    return far_mask(ratio[:, None], ref_ratio[:, None])[:, 0]


def typical_at(trend: AgeTrend, age: float) -> tuple[float, float]:
    """Where most patients of about ``age`` lie: the trend there times the 5th and 95th
    percentiles of the ratios."""
    mid = float(trend.expected([age])[0])
    return mid * trend.typical[0], mid * trend.typical[1]


def far_for_age_table(X, reference, columns) -> tuple[np.ndarray, dict[int, AgeTrend],
                                                        int | None]:
    """:func:`far_for_age` of new patients ``X`` (n, m) against training patients
    ``reference`` (k, m), in ``columns``' order, for every growth column judged by age:
    the mask (n, m), the trends by column index, and the age column's index (``None``
    when there is none)."""
    X = np.asarray(X, dtype=float)
    ref = np.asarray(reference, dtype=float)
    out = np.zeros(X.shape, bool)
    trends: dict[int, AgeTrend] = {}
    names = list(columns)
    age = age_column(names)
    if age is None:
        return out, trends, None
    k = names.index(age)
    for j, name in enumerate(names):
        if j == k or not is_growth(name):
            continue
        trend = age_trend(ref[:, j], ref[:, k])
        if trend is not None:
            trends[j] = trend
            out[:, j] = far_for_age(X[:, j], X[:, k], trend, (ref[:, j], ref[:, k]))
    return out, trends, k
