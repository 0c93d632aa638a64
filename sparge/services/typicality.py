"""How unlike the training patients a new patient is.

Look-alikes always exist: the nearest training patients of a patient who resembles none
of them still come back with similarities that look as confident as anyone's (a
walk-through's age of 670 gave 0.71 against 0.79 for 67). The low-rank completion gives a
measure that does not depend on the look-alikes: how badly the patient's measured values
fit its low-rank patterns (a Mahalanobis distance under the completion's probabilistic
PCA model, :meth:`SparGE.misfit`). A patient whose values fit the patterns of the
training patients worse than almost all of them is flagged, whatever the cause (a typo,
other units, another population).
"""

from __future__ import annotations

import numpy as np

from sparge.method.lowrank import cross_fitted_misfit
from sparge.services.display import biomarker_name

#: Share of training patients a new patient's misfit must exceed to be flagged. On the test
#: patients of five benchmark cohorts 0.6-1.1 % were flagged at 0.99 against the
#: cross-fitted reference, and 57-97 % of them once one value was multiplied by 10
#: (``bench.typicality``, 3 splits each: whas500, GBSG2, support2, breast cancer, colon;
#: DEFAULTS.md round 18), so a flag is rare for an ordinary patient.
ATYPICAL_SHARE = 0.99
#: Training patients the reference distribution is computed on (a seeded sample above it).
REFERENCE_MAX = 5000
#: Folds of the cross-fitted reference (:func:`residual_reference`).
REFERENCE_FOLDS = 5
#: Share of the features a patient must have measured to be assessed. A few values say
#: little about whether they fit the cohort's patterns (and the range check already
#: questions a value far outside the training range); the training patients are held to
#: the same rule.
MIN_MEASURED = 0.5


def completion_residual(model, X) -> np.ndarray:
    """How badly each patient's measured values fit the low-rank patterns of the training
    patients (:meth:`SparGE.misfit`: a Mahalanobis distance per measured value, which
    charges both a value far from its reconstruction and the unusual pattern a
    reconstruction needs to fit it); ``NaN`` for a patient with fewer than
    :data:`MIN_MEASURED` of the features measured.

    Parameters
    ----------
    model : SparGE
        A fitted model.
    X : array-like of shape (n, m)
        Encoded features in original units, ``NaN`` for missing.
    """
    Xs = np.asarray(model.standardize(X), dtype=float)
    return np.where(assessed(Xs), model.misfit(X), np.nan)


def assessed(Xs: np.ndarray) -> np.ndarray:
    """Whether each patient has at least :data:`MIN_MEASURED` of the features measured."""
    n_seen = np.isfinite(Xs).sum(axis=1)
    return (n_seen > 0) & (n_seen >= MIN_MEASURED * Xs.shape[1])


def residual_reference(model, max_patients: int = REFERENCE_MAX,
                       random_state: int = 0, n_folds: int = REFERENCE_FOLDS
                       ) -> np.ndarray:
    """Sorted misfits of the training patients (a seeded sample of ``max_patients`` when
    there are more), each under a completion learned without it.

    Under the model's own completion a training patient fits better than a new patient of
    the same cohort would: the basis followed its values, and 1.1-2.9 % of ordinary test
    patients were flagged at 0.99 (round 17). Cross-fitted
    (:func:`sparge.method.lowrank.cross_fitted_misfit`: ``n_folds`` folds of the sample,
    each scored under the completion of the others, with the model's weight and rank),
    the reference is what a new patient is compared with (DEFAULTS.md round 18).
    """
    X = model.training_values().to_numpy(dtype=float)
    if len(X) > max_patients:
        rng = np.random.default_rng(random_state)
        X = X[np.sort(rng.choice(len(X), max_patients, replace=False))]
    Xs = np.asarray(model.standardize(X), dtype=float)
    r = cross_fitted_misfit(Xs, model.completion_lambda_, model.rank_,
                            max_rank=model.max_rank, n_folds=n_folds,
                            random_state=random_state)
    r = np.where(assessed(Xs), r, np.nan)
    return np.sort(r[np.isfinite(r)])


def atypicality(model, X, reference: np.ndarray) -> np.ndarray:
    """Share (0-1) of training patients whose residual is below each patient's; ``NaN``
    for a patient not assessed (too few measured values)."""
    r = completion_residual(model, X)
    if len(reference) == 0:
        return np.full(len(r), np.nan)
    share = np.searchsorted(reference, r, side="left") / len(reference)
    return np.where(np.isfinite(r), share, np.nan)


def few_values_message(n_given: int, n_features: int,
                       min_measured: float = MIN_MEASURED, anchored: bool = True
                       ) -> str | None:
    """A caution for a patient with fewer than ``min_measured`` of the biomarkers given,
    else ``None``. Such a patient is not assessed by :func:`atypicality`, and its gaps are
    filled towards the cohort's typical patient. With ``anchored`` (the model's
    ``anchor_weight`` is not 0) its look-alikes are chosen to share the values given as
    well (round 16), so they tell little about the others; without, they are found from
    the whole filled-in patient and can miss even the values given (a model learned
    without the outcome: CD4 25 given against the look-alikes' 113)."""
    if n_features <= 0 or n_given >= min_measured * n_features:
        return None
    given = (f"Only {n_given} of {n_features} biomarkers {'is' if n_given == 1 else 'are'}"
             " given")
    those = "the value given" if n_given == 1 else "the values given"
    rest = f"The other {n_features - n_given} are filled in from the training patients' patterns"
    if anchored:
        how = (f"{rest} to place the patient; the look-alikes below are also chosen to "
               f"share {those} (the fewer the values, the more they count), so they say "
               "little about the biomarkers not given.")
    else:
        how = (f"{rest}, and the look-alikes below are found from the whole filled-in "
               f"patient: they can differ even on {those} (compare them in the table "
               "below).")
    return (f"{given}. {how} Read their similarity as rough; each value you add sharpens "
            "them.")


def given_message(values, names, encoder=None, shown: int = 12, read_as_no=()) -> str:
    """How many of a patient's biomarkers are given, and which are not (the first
    ``shown``, by name): walk-through 56 typed an answer in a form's box without picking
    it and read only "18 of 36 biomarkers given", not which 18 were left out.
    ``read_as_no``: the columns left empty that the model reads as No (the Data page's
    "read empty cells as No"): said apart, not counted as given (walk-through 65 read
    "8 of 31 given" for 6 typed, and its patient was matched as not on insulin)."""
    x = np.asarray(values, dtype=float).ravel()
    as_no = {str(c) for c in read_as_no}
    named = [biomarker_name(str(n), encoder) for n in names]
    missing = [n for n, v in zip(named, x, strict=True) if not np.isfinite(v)]
    no = [m for m, n in zip(named, names, strict=True) if str(n) in as_no]
    said_no = (f" Left empty and read as No: {', '.join(no[:shown])}"
               + (f" and {len(no) - shown} more" if len(no) > shown else "")
               + " (choose '(not known)' there in the form if it is not known)." if no
               else "")
    if not missing and not no:
        return f"All {len(x)} biomarkers given."
    # the shorter list: those not given, or (a few values typed) those given
    given = [m for m, n, v in zip(named, names, x, strict=True)
             if np.isfinite(v) and str(n) not in as_no]
    which, words = (missing, "Not given") if len(missing) <= len(given) else (given, "Given")
    listed = ", ".join(which[:shown]) + (f" and {len(which) - shown} more"
                                         if len(which) > shown else "")
    return (f"{len(given)} of {len(x)} biomarkers given; the rest are completed. "
            f"{words}: {listed}." + said_no)


def atypical_message(share: float, threshold: float = ATYPICAL_SHARE) -> str | None:
    """Words for a patient beyond ``threshold``, else ``None``."""
    if not np.isfinite(share) or share < threshold:
        return None
    than = ("every one of them does" if share >= 1 else
            f"{np.floor(100 * share):.0f} % of them do")
    return (f"This patient is unlike the patients the model learned from: their measured "
            f"values fit the patterns of the training patients worse than {than}. Check "
            "the values (a typo, other units?); if they are right, the patient lies "
            "outside this cohort and the look-alikes below are the "
            "nearest ones, not close ones.")
