"""The forest part of the look-alike metric (sparge.estimator.forest_part)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score

from sparge.estimator.forest_part import (
    FOREST_WEIGHTS,
    REFERENCE_WEIGHT,
    choose_forest_weight,
    class_weights,
    fit_forest_part,
    heldout_values,
)
from sparge.method.proximity import fit_leaf_forest
from sparge.method.similarity import precision_at_k


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
    # "auto" without the early stopping's held-out patients keeps the reference weight
    part = fit_forest_part(X, y, Y, forest_weight="auto", **kw)
    assert part.forest is not None and part.weight == REFERENCE_WEIGHT
    assert part.selection == []


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


def test_auto_never_raises_the_weight_of_a_noise_forest():
    rng = np.random.default_rng(1)
    n = 400
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 6))  # nothing about y
    Y = np.c_[3.0 * y + 0.3 * rng.normal(size=n), rng.normal(size=(n, 2))]  # all about y
    packed, leaves, oob = fit_leaf_forest(X, y, n_estimators=60, min_samples_leaf=5,
                                          random_state=0)
    tr, va = np.arange(300), np.arange(300, 400)
    g, results = choose_forest_weight(Y[tr], Y[va], leaves, oob, packed.n_nodes, y, tr, va, 0)
    assert g <= REFERENCE_WEIGHT
    score = {r["forest_weight"]: r["heldout_score"] for r in results}
    assert score[4.0] < score[REFERENCE_WEIGHT] - 0.05  # the noise costs when it dominates


def test_heldout_values_average_to_the_class_balanced_scores():
    rng = np.random.default_rng(3)
    y_ref = rng.integers(0, 3, 80)
    y_q = np.r_[rng.integers(0, 3, 37), 2]
    D = rng.random((38, 80))
    v = heldout_values(D, y_ref, y_q)
    idx = np.argsort(D, axis=1, kind="stable")
    nb = y_ref[idx[:, :10]]
    vote = np.array([np.bincount(r[:5], minlength=3).argmax() for r in nb])
    expected = 0.5 * (precision_at_k(nb, y_q) + balanced_accuracy_score(y_q, vote))
    assert class_weights(y_q) @ v == pytest.approx(expected)
    assert class_weights(y_q).sum() == pytest.approx(1.0)


def test_auto_keeps_the_reference_on_a_small_noisy_held_out_set():
    # neither part knows the outcome: whatever weight scores best on 30 held-out
    # patients wins by noise alone, which the standard error must absorb
    rng = np.random.default_rng(5)
    n = 130
    y = rng.integers(0, 2, n)
    X, Y = rng.normal(size=(n, 6)), rng.normal(size=(n, 3))
    packed, leaves, oob = fit_leaf_forest(X, y, n_estimators=40, min_samples_leaf=1,
                                          random_state=0)
    tr, va = np.arange(100), np.arange(100, n)
    g, results = choose_forest_weight(Y[tr], Y[va], leaves, oob, packed.n_nodes, y, tr, va, 0)
    assert g == REFERENCE_WEIGHT
    assert all(r["difference"] - r["std_error"] <= 0 for r in results)


def test_the_forest_part_weighs_outcomes_once_and_the_peer_per_bootstrap_sample():
    """Round 14: the forest part's trees use class_weight="balanced"; the benchmark's
    forest-proximity peer keeps the issue's "balanced_subsample"."""
    from sparge.estimator.forest_part import CLASS_WEIGHT
    from sparge.method.proximity import ForestProximity, balanced_forest

    X, y, Y = _data(n=120)
    y[:90] = 0  # unbalanced: the two weightings grow other trees
    assert CLASS_WEIGHT == "balanced"
    part = fit_forest_part(X, y, Y, forest_weight=1.5, n_trees=10, min_leaf=1, seed=0)
    same, *_ = fit_leaf_forest(X, y, n_estimators=10, min_samples_leaf=1, random_state=0,
                               n_jobs=1, class_weight="balanced")
    other, *_ = fit_leaf_forest(X, y, n_estimators=10, min_samples_leaf=1, random_state=0,
                                n_jobs=1)
    np.testing.assert_array_equal(part.forest.apply(X), same.apply(X))
    assert not np.array_equal(same.apply(X) - same.offsets, other.apply(X) - other.offsets)
    assert balanced_forest(5, 1).class_weight == "balanced_subsample"
    assert ForestProximity(n_estimators=5, min_samples_leaf=1).fit(X, y).forest_.class_weight \
        == "balanced_subsample"
    # the peer grown as the forest part grows its trees (bench: forest proximity (balanced))
    peer = ForestProximity(n_estimators=10, min_samples_leaf=1, random_state=0,
                           class_weight="balanced").fit(X, y)
    assert peer.forest_.class_weight == "balanced"
    np.testing.assert_array_equal(peer.forest_.apply(X), part.forest.apply(X) - same.offsets)
    with pytest.raises(ValueError, match="class_weight must be one of"):
        balanced_forest(5, 1, class_weight=None)
