"""The paper's preprocessing on arrays: missing shares, the patient and column filters,
standardising and unit-norm rows (sparge.method.preprocess)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sparge.method.preprocess import (
    filter_columns,
    fit_standardizer,
    missing_fraction_per_row,
    patients_to_keep,
    standardize,
    unit_norm_rows,
)

#: Small matrices with gaps, repeated values (constant and duplicate columns happen).
matrices = st.integers(1, 12).flatmap(lambda n: st.integers(0, 8).flatmap(
    lambda m: arrays(float, (n, m), elements=st.sampled_from([np.nan, 0.0, 1.0, 2.5, -3.0]))))


# ---------------------------------------------------------------- missing shares
def test_missing_fraction_per_row_counts_gaps():
    X = np.array([[1, np.nan, 3, np.nan], [np.nan] * 4, [1, 2, 3, 4.0]])
    np.testing.assert_array_equal(missing_fraction_per_row(X), [0.5, 1.0, 0.0])
    np.testing.assert_array_equal(missing_fraction_per_row(np.empty((3, 0))), [0, 0, 0])


@settings(max_examples=100, deadline=None)
@given(matrices, st.floats(0, 1))
def test_patients_to_keep_is_the_missing_share_threshold(X, threshold):
    miss = missing_fraction_per_row(X)
    assert miss.shape == (X.shape[0],) and ((miss >= 0) & (miss <= 1)).all()
    keep = patients_to_keep(X, threshold)
    assert keep.dtype == bool and keep.shape == (X.shape[0],)
    np.testing.assert_array_equal(keep, miss <= threshold + 1e-12)
    assert patients_to_keep(X, None).all()
    assert (patients_to_keep(X, 1.0)).all()
    # a higher threshold keeps at least the same patients
    assert (keep <= patients_to_keep(X, min(threshold + 0.25, 1.0))).all()


def test_patients_exactly_at_the_threshold_are_kept():
    X = np.array([[np.nan, 1, 2], [np.nan, np.nan, 2], [1, 2, 3.0]])
    assert patients_to_keep(X, 1 / 3).tolist() == [True, False, True]
    assert patients_to_keep(X, 0.0).tolist() == [False, False, True]


# ---------------------------------------------------------------- column filters
def test_filter_columns_names_each_dropped_column_once():
    X = np.array([[1, 1, 7, np.nan, 1, 5],
                  [2, 2, 7, np.nan, np.nan, 4],
                  [3, 3, 7, np.nan, 3, 3.0]])
    filt = filter_columns(X)
    assert filt.all_missing == [3] and filt.constant == [2]
    assert filt.duplicate_of == {1: 0}
    assert filt.keep.tolist() == [True, False, False, False, True, True]


def test_filter_columns_reads_r_missing_values_quietly():
    """R's NA (a NaN with a payload, as in pickled R data) is a gap, without warnings."""
    r_na = np.array([0x7FF00000000007A2], dtype=np.uint64).view(np.float64)[0]
    X = np.array([[r_na, 4.0], [1310.0, 4.0], [r_na, 4.0], [1200.0, r_na]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        filt = filter_columns(X)
    assert filt.constant == [1] and filt.keep.tolist() == [True, False]


def test_duplicates_need_the_same_gaps():
    X = np.array([[1, 1, 1], [np.nan, 2, np.nan], [3, 3, 3.0]])
    assert filter_columns(X).duplicate_of == {2: 0}


def test_each_filter_can_be_turned_off():
    X = np.array([[1, 1, 7, np.nan], [2, 2, 7, np.nan]])
    assert filter_columns(X, drop_all_missing=False, drop_constant=False,
                          merge_duplicates=False).keep.all()
    assert filter_columns(X, drop_all_missing=False).keep.tolist() == [True, False, False, True]
    assert filter_columns(X, drop_constant=False).keep.tolist() == [True, False, True, False]
    assert filter_columns(X, merge_duplicates=False).keep.tolist() == [True, True, False, False]


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_filters_partition_the_columns_and_are_idempotent(X):
    filt = filter_columns(X)
    dropped = filt.all_missing + filt.constant + list(filt.duplicate_of)
    assert len(dropped) == len(set(dropped))
    assert sorted(dropped) == np.flatnonzero(~filt.keep).tolist()
    for j, k in filt.duplicate_of.items():
        assert k < j and filt.keep[k]
        np.testing.assert_array_equal(X[:, j], X[:, k])  # NaN at the same places
    assert filter_columns(X[:, filt.keep]).keep.all()


# ---------------------------------------------------------------- scaling
@settings(max_examples=100, deadline=None)
@given(matrices)
def test_standardised_columns_have_mean_zero_and_unit_spread(X):
    mean, std = fit_standardizer(X)
    assert mean.shape == std.shape == (X.shape[1],)
    assert np.isfinite(mean).all() and (std > 0).all()
    Z = standardize(X, mean, std)
    np.testing.assert_array_equal(np.isnan(Z), np.isnan(X))
    for j in range(X.shape[1]):
        obs = Z[~np.isnan(Z[:, j]), j]
        if len(obs) == 0:
            assert mean[j] == 0 and std[j] == 1
            continue
        assert abs(obs.mean()) < 1e-9
        spread = obs.std()
        assert spread == pytest.approx(1.0) or (spread < 1e-9 and std[j] == 1.0)


def test_constant_and_empty_columns_are_not_scaled():
    X = np.array([[5, np.nan, 1], [5, np.nan, 3.0]])
    mean, std = fit_standardizer(X)
    np.testing.assert_array_equal(mean, [5, 0, 2])
    np.testing.assert_array_equal(std, [1, 1, 1])


@settings(max_examples=100, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 10), st.integers(1, 6)),
              elements=st.floats(-1e6, 1e6)))
def test_unit_norm_rows_keeps_directions(Z):
    U = unit_norm_rows(Z)
    norms = np.linalg.norm(Z, axis=1)
    big = norms > 1e-12
    np.testing.assert_allclose(np.linalg.norm(U[big], axis=1), 1.0)
    np.testing.assert_allclose(U[big] * norms[big, None], Z[big], atol=1e-6)
    np.testing.assert_array_equal(U[~big], Z[~big])
