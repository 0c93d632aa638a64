"""A new patient unlike every training patient is flagged (issue: a walk-through's typo)."""

from __future__ import annotations

import numpy as np
import pytest

from sparge import SparGE
from sparge.services.typicality import (
    ATYPICAL_SHARE,
    atypical_message,
    atypicality,
    completion_residual,
    few_values_message,
    residual_reference,
)


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(0)
    n, m, r = 300, 8, 2
    Z = rng.normal(size=(n, r)) @ rng.normal(size=(r, m)) + 0.1 * rng.normal(size=(n, m))
    X = 50 + 10 * Z
    X[rng.random(X.shape) < 0.1] = np.nan
    y = np.where(Z[:, 0] > 0, "a", "b")
    model = SparGE(n_components=2, max_iter=2, forest_weight=0, random_state=0)
    return model.fit(X[:240], y[:240]), X[240:]


def test_ordinary_patients_are_rarely_flagged_and_a_typo_is(fitted):
    model, X_new = fitted
    ref = residual_reference(model)
    assert len(ref) == 240 and np.all(np.diff(ref) >= 0)
    share = atypicality(model, X_new, ref)
    assert np.mean(share >= ATYPICAL_SHARE) <= 0.1  # patients of the same population
    typo = X_new.copy()
    typo[:, 0] = 500.0  # ten times a typical value, 30 SD and more from the mean
    assert np.all(atypicality(model, typo, ref) >= ATYPICAL_SHARE)
    # a patient with under half of the values measured is not assessed (the ridge pulls
    # a few values' reconstruction to the mean: their residual is their distance to it)
    few = np.full((2, X_new.shape[1]), np.nan)
    few[1, :3] = 500.0
    assert np.isnan(completion_residual(model, few)).all()
    assert np.isnan(atypicality(model, few, ref)).all()
    half = np.nan_to_num(X_new[:1], nan=50.0)
    half[0, 4:] = np.nan  # 4 of 8 measured: assessed
    half[0, 0] = 500.0
    assert atypicality(model, half, ref)[0] >= ATYPICAL_SHARE


def test_the_reference_is_a_seeded_sample_of_large_cohorts(fitted):
    model, _ = fitted
    small = residual_reference(model, max_patients=50)
    assert len(small) == 50
    np.testing.assert_array_equal(small, residual_reference(model, max_patients=50))


def test_the_reference_is_cross_fitted(fitted):
    """Training patients fit the model's own completion better than new patients of the
    same cohort; each is scored under a completion learned without it instead."""
    model, X_new = fitted
    ref = residual_reference(model)
    own = np.sort(completion_residual(model, model.training_values().to_numpy()))
    assert np.median(ref) > np.median(own)
    new = completion_residual(model, X_new)
    # the new patients sit in the cross-fitted reference, not at the top of the own one
    assert abs(np.median(new) - np.median(ref)) < abs(np.median(new) - np.median(own))
    assert 0.5 < np.median(ref) < 2.0  # a Mahalanobis distance per value: about 1


def test_message():
    assert atypical_message(0.5) is None and atypical_message(float("nan")) is None
    said = atypical_message(0.996)
    assert "worse than 99 % of them do." in said and "typo" in said
    assert "worse than every one of them does." in atypical_message(1.0)


def test_a_patient_with_few_values_is_told_its_similarities_are_rough():
    """The patients the residual check cannot assess (under half measured) get a caution."""
    said = few_values_message(6, 22)
    assert said.startswith("Only 6 of 22 biomarkers are given. The other 16 are filled in")
    assert "rough" in said
    assert few_values_message(11, 22) is None and few_values_message(22, 22) is None
    assert few_values_message(0, 0) is None
    assert few_values_message(1, 53).startswith("Only 1 of 53 biomarkers is given.")
    assert "also chosen to share the value given" in few_values_message(1, 53)
    assert "say little about the biomarkers not given" in said
    # without anchoring it never promises that they match
    unanchored = few_values_message(6, 22, anchored=False)
    assert "differ even on the values given" in unanchored and "rough" in unanchored


def test_the_biomarkers_not_given_are_named():
    """Walk-through 56 read "18 of 36 biomarkers given", not which were left out (an
    answer typed in a form's box without picking it); walk-through 57: with few given,
    the warning named none."""
    from sparge.services.typicality import given_message

    names = [f"B{i}" for i in range(20)]
    x = np.r_[np.ones(15), np.full(5, np.nan)]
    assert given_message(x, names) == ("15 of 20 biomarkers given; the rest are completed. "
                                       "Not given: B15, B16, B17, B18, B19.")
    # a few given: those given are named, the shorter list
    few = given_message(np.r_[np.full(15, np.nan), np.ones(5)], names)
    assert few == ("5 of 20 biomarkers given; the rest are completed. Given: B15, B16, "
                   "B17, B18, B19.")
    none_given = given_message(np.r_[np.full(19, np.nan), 1.0], names)
    assert none_given.endswith("Given: B19.")
    long = given_message(np.r_[np.ones(2), np.full(18, np.nan)], names * 1, shown=3)
    assert long.endswith("Given: B0, B1.")
    assert given_message(np.r_[np.ones(4), np.full(16, np.nan)][::-1], names,
                         shown=3).endswith("Given: B16, B17, B18 and 1 more.")
    assert given_message(np.ones(3), names[:3]) == "All 3 biomarkers given."


def test_a_form_answer_left_empty_and_read_as_no_is_not_counted_as_given():
    """Walk-through 65 typed 6 values and read "8 of 31 biomarkers given": Insulin and
    CGM, left empty, were read as No (the Data page's choice) and counted."""
    from sparge.services.typicality import given_message

    names = ["HbA1c", "Age", "Insulin", "CGM", "BMI"]
    x = np.array([70.0, 24.0, 2.0, 2.0, np.nan])
    said = given_message(x, names, read_as_no=["Insulin", "CGM"])
    assert said.startswith("2 of 5 biomarkers given")
    assert ("Left empty and read as No: Insulin, CGM (choose '(not known)' there in the "
            "form if it is not known).") in said
    assert given_message(x, names).startswith("4 of 5 biomarkers given")
    assert given_message(np.ones(3), ["a", "b", "c"]) == "All 3 biomarkers given."
