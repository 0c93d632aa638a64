"""The forest part of the look-alike metric (sparge.estimator.forest_part)."""

from __future__ import annotations

import numpy as np
import pytest

from sparge.estimator.forest_part import FOREST_WEIGHTS, choose_forest_weight, fit_forest_part
from sparge.method.proximity import fit_leaf_forest


def _data(n=200, informative=True, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 6))
    if informative:
        X[:, 0] += 3.0 * y
    Y = rng.normal(size=(n, 4))  # an embedding that knows nothing of y
    return X, y, Y


def test_no_forest_without_outcomes_weight_or_patients():
    X, y, Y = _data()
    kw = dict(n_trees=10, min_leaf=5, seed=0)
    assert fit_forest_part(X, None, Y, forest_weight=1.0, **kw).forest is None
    assert fit_forest_part(X, y, Y, forest_weight=0, **kw).forest is None
    assert fit_forest_part(X[:10], y[:10], Y[:10], forest_weight=1.0, **kw).forest is None
    # "auto" needs the early stopping's held-out patients
    assert fit_forest_part(X, y, Y, forest_weight="auto", **kw).forest is None


def test_fixed_weight_scales_with_the_embeddings_spread():
    X, y, Y = _data()
    part = fit_forest_part(X, y, Y, forest_weight=2.0, n_trees=10, min_leaf=5, seed=0)
    spread = np.mean(np.sum((Y - Y.mean(0)) ** 2, axis=1))
    assert part.weight == 2.0 and part.scale == pytest.approx(4.0 * spread)
    assert part.leaves.shape == (200, 10) and part.leaves.dtype == np.int32
    np.testing.assert_array_equal(part.forest.apply(X), part.leaves)


def test_auto_prefers_the_forest_when_only_it_knows_the_outcome():
    X, y, Y = _data(n=400)
    packed, leaves, oob = fit_leaf_forest(X, y, n_estimators=60, min_samples_leaf=5,
                                          random_state=0)
    tr, va = np.arange(300), np.arange(300, 400)
    g, results = choose_forest_weight(Y[tr], Y[va], leaves, oob, packed.n_nodes, y, tr, va, 0)
    assert [r["forest_weight"] for r in results] == list(FOREST_WEIGHTS)
    assert g > 0 and results[0]["heldout_score"] < max(r["heldout_score"] for r in results)


def test_auto_keeps_the_embedding_alone_when_the_forest_is_noise():
    rng = np.random.default_rng(1)
    n = 400
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 6))  # nothing about y
    Y = np.c_[3.0 * y + 0.3 * rng.normal(size=n), rng.normal(size=(n, 2))]  # all about y
    packed, leaves, oob = fit_leaf_forest(X, y, n_estimators=60, min_samples_leaf=5,
                                          random_state=0)
    tr, va = np.arange(300), np.arange(300, 400)
    g, _ = choose_forest_weight(Y[tr], Y[va], leaves, oob, packed.n_nodes, y, tr, va, 0)
    assert g <= 0.5
