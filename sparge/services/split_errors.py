"""Honest standard errors for scores over repeated train/test splits of one cohort.

The Classifiers page and the Model page's held-out check score two representations on
the same repeated 70/30 splits. The splits' training sets overlap, so the scores of two
splits are correlated and the plain standard error of a mean difference (``sd / sqrt(J)``)
is too small: a verdict built on it calls noise a win. Nadeau & Bengio (2003, "Inference
for the generalization error", Machine Learning 52) correct the variance of the mean of
``J`` resampled differences to ``(1/J + n_test/n_train) · s²``; at 5 splits of 70/30 that
makes the standard error 1.8 times the plain one, at 10 splits 2.3 times.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import binomtest

#: The test share of the splits when a caller does not say (the paper's 70/30).
TEST_FRACTION = 0.3


def corrected_se(diff, test_fraction: float = TEST_FRACTION) -> float:
    """Nadeau–Bengio corrected standard error of the mean of resampled differences.

    Parameters
    ----------
    diff : array-like of shape (J,)
        One paired difference per split (same split, two methods); NaN are dropped.
    test_fraction : float
        Share of the patients in each split's test set, in (0, 1).

    Returns
    -------
    float
        ``sqrt((1/J + n_test/n_train) · var(diff))`` (sample variance); NaN below 2 splits.
    """
    d = np.asarray(diff, dtype=float)
    d = d[np.isfinite(d)]
    if len(d) < 2:
        return float("nan")
    ratio = test_fraction / (1.0 - test_fraction)
    return float(np.sqrt((1.0 / len(d) + ratio) * d.var(ddof=1)))


def paired_difference(a: pd.Series, b: pd.Series, test_fraction: float = TEST_FRACTION
                      ) -> tuple[float, float, int]:
    """How far apart two methods scored on the same splits.

    Parameters
    ----------
    a, b : Series indexed by split
        The two methods' scores.
    test_fraction : float
        Share of the patients in each split's test set.

    Returns
    -------
    mean : float
        Mean of ``a - b`` over the splits both have (NaN with none).
    se : float
        Its corrected standard error (:func:`corrected_se`; NaN with one split).
    n : int
        The number of splits both have.
    """
    diff = (a - b).dropna()
    return ((float(diff.mean()) if len(diff) else np.nan),
            corrected_se(diff.to_numpy(), test_fraction), len(diff))


def split_test_fraction(results: pd.DataFrame) -> float:
    """The test share recorded with a comparison's results (``attrs["test_size"]``), or
    :data:`TEST_FRACTION`."""
    value = results.attrs.get("test_size", TEST_FRACTION)
    return float(value) if 0 < float(value) < 1 else TEST_FRACTION


def noise_margin(n_splits: int) -> float:
    """How many standard errors a paired difference over ``n_splits`` splits must reach
    to be called more than noise: Student's t quantile at 97.5 % with ``n_splits - 1``
    degrees of freedom (12.7 for 2 splits, 4.3 for 3, 2.3 for 10; NaN for fewer than 2).
    Twice the standard error, whatever the splits, called a 4-point gain over 3 splits
    clear that 10 splits of the same table could not tell apart (walk-through 68).

    Examples
    --------
    >>> round(noise_margin(3), 2), round(noise_margin(10), 2)
    (4.3, 2.26)
    """
    if n_splits < 2:
        return float("nan")
    from scipy.stats import t

    return float(t.ppf(0.975, n_splits - 1))


#: Below this many test patients per split, no difference between representations is
#: called more than noise: walk-through 37's 15-row table (3 test patients per split)
#: read "1 of them by more than twice the standard error" from six scores of 0.850.
FEW_TEST_PATIENTS = 20


def few_test_patients(results: pd.DataFrame) -> str:
    """The pages' words when a comparison's splits test fewer than
    :data:`FEW_TEST_PATIENTS` patients each (``attrs["n_test"]``), else ""."""
    n = results.attrs.get("n_test")
    if n is None or int(n) >= FEW_TEST_PATIENTS:
        return ""
    return (f" With {int(n)} test patient{'s' if int(n) != 1 else ''} per split, no "
            "difference here can be told from chance: read these scores as a demonstration, "
            "not a finding.")


__all__ = ["FEW_TEST_PATIENTS", "TEST_FRACTION", "corrected_se", "few_test_patients",
           "noise_margin", "paired_difference", "split_test_fraction"]


def wilson_interval(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a share of ``k`` in ``n`` (scipy's
    ``binomtest(...).proportion_ci``): where the true share may lie given so few (10 of
    10 is 0.72 to 1); (0, 1) without any."""
    if n <= 0:
        return 0.0, 1.0
    ci = binomtest(k, n).proportion_ci(level, method="wilson")
    return float(ci.low), float(ci.high)


def repeat_interval(had: int, patients: int, repeats: float = 1.0) -> tuple[float, float]:
    """The 95 % Wilson interval of ``had`` in ``patients`` held-out look-ups, where a
    patient held out by several splits counts ``repeats`` times on average: the interval
    of as many patients as there are distinct ones (the share kept, the count divided)."""
    r = max(float(repeats), 1.0)
    n = max(int(round(patients / r)), 1)
    return wilson_interval(int(round(had / patients * n)) if patients else 0, n)
