"""Step 1 of fit (sparge.estimator.completion): standardisation and low-rank completion."""

from __future__ import annotations

import numpy as np
import pytest

from sparge.estimator.completion import fit_completion


def _low_rank(n=300, m=30, rank=4, noise=0.05, missing=0.3, seed=0):
    rng = np.random.default_rng(seed)
    L = rng.normal(size=(n, rank)) @ rng.normal(size=(rank, m)) * 2.0 + rng.normal(size=m) * 5
    X = L + noise * rng.normal(size=(n, m))
    hidden = rng.random((n, m)) < missing
    Xo = X.copy()
    Xo[hidden] = np.nan
    return Xo, L, hidden


def _fit(X, **kw):
    args = dict(completion_lambda="auto", max_rank=50, rank=None, completion_ridge=1.0,
                seed=0, rng=np.random.default_rng(0))
    args.update(kw)
    return fit_completion(X, **args)


def test_standardisation_ignores_gaps_and_keeps_them():
    X, _, hidden = _low_rank()
    c = _fit(X)
    np.testing.assert_allclose(c.mean, np.nanmean(X, axis=0))
    assert np.array_equal(np.isnan(c.standardized), hidden)
    np.testing.assert_allclose(np.nanmean(c.standardized, axis=0), 0, atol=1e-9)


def test_recovers_hidden_entries_of_a_low_rank_matrix():
    X, L, hidden = _low_rank()
    c = _fit(X)
    V = c.components
    np.testing.assert_allclose(V @ V.T, np.eye(V.shape[0]), atol=1e-8)  # orthonormal rows
    Ls = (L - c.mean) / c.scale
    scores = np.linalg.lstsq(V.T, Ls.T, rcond=None)[0].T
    err = np.linalg.norm((scores @ V - Ls)[hidden]) / np.linalg.norm(Ls[hidden])
    assert err < 0.05, err  # the true matrix lies in the learned basis
    assert c.found_rank >= 4 and c.lam > 0 and c.path  # "auto" tried several weights


def test_rank_cap_auto_and_posterior_ridge():
    X, _, _ = _low_rank()
    assert _fit(X, rank=2).components.shape[0] == 2
    auto = _fit(X, rank="auto")
    assert 1 <= auto.components.shape[0] <= _fit(X).components.shape[0]
    post = _fit(X, completion_ridge="posterior")
    assert post.ridge.shape == (post.components.shape[0],) and np.all(post.ridge >= 0)
    assert np.all(_fit(X, completion_ridge=0.5).ridge == 0.5)


def test_a_fixed_lambda_and_full_data():
    X, _, _ = _low_rank(missing=0.0)
    c = _fit(X, completion_lambda=0.1)
    assert c.path == {} and c.lam == pytest.approx(
        0.1 * np.linalg.norm(np.nan_to_num(c.standardized), 2))


def test_deterministic_under_the_seed():
    X, _, _ = _low_rank(seed=3)
    a, b = _fit(X), _fit(X)
    np.testing.assert_array_equal(a.components, b.components)


def test_the_fill_takes_each_components_variance_from_the_completed_table():
    """Round 17 (SurvSet's RHC cohort, 53 columns, 50 components kept): a row's own
    least-squares scores are ill-determined in the weak directions when it has a few gaps,
    so weak components looked strong and the fill barely shrank them (gaps at 30 SD).
    Their variance from the completed table's scores fills far fewer gaps that far out."""
    pytest.importorskip("SurvSet")
    from bench.cohorts import encoded
    from sparge.method.lowrank import fill_gaps, posterior_ridge, project_observed

    X, _, _ = encoded("survset:rhc", max_rows=1500)
    c = _fit(X, rng=np.random.default_rng(0))
    Xs, V = c.standardized, c.components
    gaps = np.isnan(Xs)
    own = posterior_ridge(Xs, project_observed(Xs, V, 1e-6), V)  # round 16
    far_own = int((np.abs(fill_gaps(Xs, V, own)[gaps]) > 5).sum())
    far_now = int((np.abs(fill_gaps(Xs, V, c.fill_ridge)[gaps]) > 5).sum())
    assert V.shape[0] >= 0.9 * Xs.shape[1]  # the case: nearly every component kept
    assert far_now < 0.25 * far_own, (far_now, far_own)
