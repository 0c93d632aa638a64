"""The joint refinement of the dictionary (sparge.estimator.refinement) and its pieces."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import planted_classes

from sparge import SparGE
from sparge.estimator.refinement import heldout_split, refine_dictionary
from sparge.estimator.steps import Pipeline
from sparge.method.dictionary import classwise_ksvd


@pytest.fixture(scope="module")
def problem():
    X, y = planted_classes(n=200, m=30, noise_dims=24)
    est = SparGE(n_components=6)
    pipe = Pipeline.from_params(est.get_params())
    _, y_idx = np.unique(y, return_inverse=True)
    A = pipe.normalize(np.nan_to_num((X - X.mean(0)) / X.std(0)))
    Dr, _ = classwise_ksvd(A, y_idx, 16, 3, 4, random_state=0)
    return A, y_idx, Dr, pipe


def _refine(problem, **kw):
    A, y_idx, Dr, pipe = problem
    args = dict(n_components=6, max_iter=4, step_size=0.05, early_stopping=True,
                validation_fraction=0.2, n_iter_no_change=3, seed=7)
    args.update(kw)
    return refine_dictionary(A, y_idx, Dr, pipe, **args)


def test_heldout_split_is_stratified_and_disjoint():
    y = np.repeat([0, 1, 2], [50, 30, 20])
    tr, va = heldout_split(100, y, 0.2, seed=0)
    assert len(va) == 20 and np.intersect1d(tr, va).size == 0
    assert np.array_equal(np.sort(np.concatenate([tr, va])), np.arange(100))
    assert np.array_equal(np.bincount(y[va]), [10, 6, 4])


def test_heldout_split_keeps_everyone_when_too_small():
    tr, va = heldout_split(4, np.array([0, 0, 1, 1]), 0.2, seed=0)
    assert va.size == 0 and np.array_equal(tr, np.arange(4))


def test_accepted_steps_lower_the_trace_ratio_and_keep_unit_atoms(problem):
    res = _refine(problem)
    assert res.n_iter == len(res.history) - 1 >= 1
    for entry in res.history[:-1]:
        if entry["step"] > 0:
            assert entry["J_after_step"] < entry["J"]
    np.testing.assert_allclose(np.linalg.norm(res.dictionary, axis=0), 1.0, atol=1e-9)
    assert res.projection.shape[1] == 6
    np.testing.assert_allclose(res.projection.T @ res.projection, np.eye(6), atol=1e-8)


def test_the_best_iterate_has_the_best_heldout_score(problem):
    res = _refine(problem)
    scores = [e["heldout_score"] for e in res.history]
    assert res.best_iteration == int(np.argmax(scores))
    assert res.best_score == pytest.approx(max(scores))
    Y_tr, Y_va = res.heldout_embedding
    assert Y_tr.shape == (res.train_rows.size, 6) and Y_va.shape == (res.heldout_rows.size, 6)


def test_without_early_stopping_the_last_iterate_is_kept(problem):
    res = _refine(problem, early_stopping=False, max_iter=2)
    assert res.heldout_rows.size == 0 and res.heldout_embedding is None
    assert res.best_iteration == res.n_iter
    assert np.isnan(res.best_score)


def test_deterministic_under_the_seed(problem):
    a, b = _refine(problem), _refine(problem)
    np.testing.assert_array_equal(a.dictionary, b.dictionary)
    assert [e["J"] for e in a.history] == [e["J"] for e in b.history]
