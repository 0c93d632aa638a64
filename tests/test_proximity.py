"""Forest proximity as leaf codes, and the held-out look-alike check."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import planted_classes

from sparge.errors import DataError
from sparge.lookalike_check import lookalike_check, summarize_check
from sparge.proximity import ForestProximity, leaf_codes


def test_leaf_code_distance_is_one_minus_proximity():
    rng = np.random.default_rng(0)
    widths = np.array([7, 5, 9, 4])
    leaves = np.stack([rng.integers(0, w, 30) for w in widths], axis=1)
    Z = leaf_codes(leaves, widths).toarray()
    prox = (leaves[:, None, :] == leaves[None, :, :]).mean(axis=2)
    d2 = ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_allclose(d2, 1 - prox, atol=1e-12)


def test_forest_proximity_on_planted_classes_with_gaps():
    X, y = planted_classes(n=240, m=20, noise_dims=10, missing=0.1)
    f = ForestProximity(n_estimators=60, select_estimators=20, random_state=0).fit(
        X[:180], y[:180])
    assert f.min_samples_leaf_ in (1, 5, 20)
    d, idx = f.kneighbors(X[180:], n_neighbors=10)
    assert d.shape == (60, 10) and np.all((d >= -1e-12) & (d <= 1 + 1e-12))
    assert np.all(np.diff(d, axis=1) >= -1e-12)
    hit = (y[:180][idx] == y[180:, None]).mean()
    assert hit > 0.6  # chance is 1/3
    # a training patient's nearest look-alike is itself, at distance 0
    d0, i0 = f.kneighbors(X[:5], n_neighbors=1)
    np.testing.assert_allclose(d0[:, 0], 0, atol=1e-12)


def test_lookalike_check_scores_each_method_on_each_split():
    X, y = planted_classes(n=200, seed=3)  # raw kNN is fooled by the nuisance dims
    seen = []
    res = lookalike_check(X, y, n_splits=2, sparge_params={"max_iter": 1},
                          callback=lambda p, msg: seen.append(p))
    assert len(res) == 6 and set(res.method) == {"SparGE", "forest proximity",
                                                  "raw features"}
    assert res["knn_balanced_accuracy"].between(0, 1).all()
    assert seen[-1] == 1.0 and seen == sorted(seen)
    summ = summarize_check(res)
    assert list(summ["splits"]) == [2, 2, 2]
    assert summ["precision_at_10_balanced"].is_monotonic_decreasing
    # the planted metric is learnable: SparGE beats raw features
    by = summ.set_index("method")
    assert by.loc["SparGE", "knn_balanced_accuracy"] > by.loc["raw features",
                                                              "knn_balanced_accuracy"]


def test_lookalike_check_refuses_tiny_classes_with_a_message():
    X, y = planted_classes(n=40, m=8, noise_dims=4)
    y = y.astype(str)
    y[:2] = "rare"
    y[2:] = np.where(y[2:] == "rare", "0", y[2:])
    with pytest.raises(DataError, match="rare"):
        lookalike_check(X, y, n_splits=2)


def test_packed_forest_routes_like_scikit_learn_gaps_included():
    from sklearn.ensemble import RandomForestClassifier

    from sparge.proximity import PackedForest

    X, y = planted_classes(n=300, m=12, noise_dims=6, missing=0.2, seed=4)
    rf = RandomForestClassifier(n_estimators=25, min_samples_leaf=2, random_state=0).fit(X, y)
    packed = PackedForest.from_estimators(rf.estimators_)
    np.testing.assert_array_equal(packed.apply(X), rf.apply(X) + packed.offsets)
    allnan = np.full((3, X.shape[1]), np.nan)
    np.testing.assert_array_equal(packed.apply(allnan), rf.apply(allnan) + packed.offsets)
    again = PackedForest.from_arrays(packed.to_arrays())
    np.testing.assert_array_equal(again.apply(X[:20]), packed.apply(X[:20]))
    bad = packed.to_arrays()
    bad["forest_left"] = bad["forest_left"].copy()
    bad["forest_left"][0] = 10**9
    with pytest.raises(ValueError):
        PackedForest.from_arrays(bad)
