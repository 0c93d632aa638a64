import numpy as np

from sparge.method.lowrank import (
    choose_lambda,
    column_bounds,
    completion_scores,
    cross_fitted_misfit,
    fill_gaps,
    gap_fill_ridge,
    gavish_donoho_rank,
    posterior_ridge,
    ppca_misfit,
    project_observed,
    soft_impute,
    svt,
)


def _low_rank(n=200, m=40, r=4, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, r)) @ rng.standard_normal((r, m))


def test_svt_shrinks_singular_values():
    rng = np.random.default_rng(0)
    Q = rng.standard_normal((30, 10))
    s = np.linalg.svd(Q, compute_uv=False)
    U, s2, Vt = svt(Q, s[3])
    assert len(s2) == 3
    np.testing.assert_allclose(s2, s[:3] - s[3])
    np.testing.assert_allclose(U.T @ U, np.eye(3), atol=1e-10)


def test_soft_impute_recovers_planted_low_rank_matrix():
    Z = _low_rank()
    rng = np.random.default_rng(1)
    X = Z + 0.01 * rng.standard_normal(Z.shape)
    mask = rng.random(Z.shape) < 0.3
    X[mask] = np.nan
    res = soft_impute(X, lam=1.0, max_iter=300, tol=1e-7)
    Zhat = res.scores @ res.components
    err = np.linalg.norm((Zhat - Z)[mask]) / np.linalg.norm(Z[mask])
    assert err < 0.05
    assert res.components.shape[0] <= 10  # the nuclear norm found the low rank


def test_components_are_orthonormal():
    X = _low_rank()
    X[::7, ::3] = np.nan
    res = soft_impute(X, lam=2.0)
    V = res.components
    np.testing.assert_allclose(V @ V.T, np.eye(V.shape[0]), atol=1e-8)


def test_project_observed_matches_per_row_ridge_solution():
    rng = np.random.default_rng(0)
    Vt = np.linalg.qr(rng.standard_normal((20, 5)))[0].T
    X = rng.standard_normal((7, 20))
    X[rng.random(X.shape) < 0.3] = np.nan
    X[0] = rng.standard_normal(20)  # one complete row
    A = project_observed(X, Vt, ridge=0.5, chunk=3)
    for i in range(X.shape[0]):
        o = ~np.isnan(X[i])
        Vo = Vt[:, o].T
        expected = np.linalg.solve(Vo.T @ Vo + 0.5 * np.eye(5), Vo.T @ X[i, o])
        np.testing.assert_allclose(A[i], expected, atol=1e-10)


def test_out_of_sample_completion_of_a_new_patient():
    Z = _low_rank(n=300)
    X = Z.copy()
    X[np.random.default_rng(0).random(X.shape) < 0.2] = np.nan
    res = soft_impute(X[:250], lam=0.5, max_iter=300, tol=1e-8)
    new = Z[250:].copy()
    new[:, :15] = np.nan  # a third of the biomarkers never measured
    A = project_observed(new, res.components, ridge=1e-6)
    err = np.linalg.norm(A @ res.components - Z[250:]) / np.linalg.norm(Z[250:])
    assert err < 0.02


def test_gavish_donoho_finds_planted_rank():
    rng = np.random.default_rng(0)
    Z = _low_rank(n=400, m=60, r=5) * 3 + rng.standard_normal((400, 60))
    s = np.linalg.svd(Z, compute_uv=False)
    assert gavish_donoho_rank(s, Z.shape) == 5


def test_choose_lambda_returns_grid_value_and_errors():
    X = _low_rank() + 0.3 * np.random.default_rng(0).standard_normal((200, 40))
    X[np.random.default_rng(1).random(X.shape) < 0.2] = np.nan
    lam, errors = choose_lambda(X, grid=(0.5, 0.1, 0.02))
    assert lam > 0 and set(errors) == {0.5, 0.1, 0.02}
    assert errors[0.1] < errors[0.5]


def test_posterior_ridge_gives_the_gaussian_conditional_mean():
    rng = np.random.default_rng(5)
    m, r, n = 12, 4, 4000
    Vt = np.linalg.qr(rng.standard_normal((m, r)))[0].T  # orthonormal rows
    lam = np.array([9.0, 4.0, 1.0, 0.25])
    sigma2 = 0.1
    A = rng.standard_normal((n, r)) * np.sqrt(lam)
    X = A @ Vt + np.sqrt(sigma2) * rng.standard_normal((n, m))
    ridge = posterior_ridge(X, A, Vt)
    np.testing.assert_allclose(ridge, sigma2 / lam, rtol=0.1)
    # with the true model, the scores are E[a | x_o] by Gaussian conditioning
    x = X[:1].copy()
    x[0, [1, 4, 7, 8, 10]] = np.nan
    o = ~np.isnan(x[0])
    Vo = Vt[:, o]
    expected = np.diag(lam) @ Vo @ np.linalg.solve(Vo.T @ np.diag(lam) @ Vo
                                                    + sigma2 * np.eye(o.sum()), x[0, o])
    got = project_observed(x, Vt, sigma2 / lam)[0]
    np.testing.assert_allclose(got, expected, atol=1e-10)


def test_fill_gaps_predicts_them_where_a_full_basis_puts_the_mean():
    """A narrow table keeps all its components: the shared-ridge projection then puts a
    gap at the mean (0) and halves the given values; the posterior fill predicts the gap
    from the correlated feature and keeps the given values."""
    rng = np.random.default_rng(3)
    n = 2000
    z = rng.standard_normal(n)
    X = np.column_stack([z + 0.2 * rng.standard_normal(n), z + 0.2 * rng.standard_normal(n),
                         rng.standard_normal(n)])
    X = (X - X.mean(0)) / X.std(0)
    Vt = np.linalg.svd(X, full_matrices=False)[2]  # all 3 components
    ridge = posterior_ridge(X, X @ Vt.T, Vt)
    q = np.array([[1.5, np.nan, 0.3]])
    shared = project_observed(q, Vt, 1.0) @ Vt
    np.testing.assert_allclose(shared[0], [0.75, 0.0, 0.15], atol=1e-9)
    filled = fill_gaps(q, Vt, ridge)
    assert filled[0, 0] == 1.5 and filled[0, 2] == 0.3
    assert 1.2 < filled[0, 1] < 1.5  # about 1.5 * corr (0.96)
    # rows without gaps: the same scores with or without the fill; None: no fill
    full = X[:5]
    np.testing.assert_array_equal(completion_scores(full, Vt, 1.0, ridge),
                                  completion_scores(full, Vt, 1.0))
    assert np.isnan(fill_gaps(q, Vt, None)[0, 1])



def test_ppca_misfit_is_the_mahalanobis_distance_of_the_observed_values():
    """Woodbury: (|x_o - V_o^T a|^2 + a^T R a) / sigma^2 = x_o^T S_o^{-1} x_o with
    S = V^T diag(lambda) V + sigma^2 I, per observed value."""
    rng = np.random.default_rng(11)
    m, r = 9, 4
    Vt = np.linalg.qr(rng.standard_normal((m, r)))[0].T
    lam, sigma2 = np.array([5.0, 2.0, 0.7, 0.2]), 0.15
    X = rng.standard_normal((6, r)) * np.sqrt(lam) @ Vt + 0.4 * rng.standard_normal((6, m))
    X[0, [2, 5]] = np.nan
    X[1, :6] = np.nan  # fewer values than components
    X[2] = np.nan
    got = ppca_misfit(X, Vt, sigma2 / lam) / sigma2
    S = Vt.T @ np.diag(lam) @ Vt + sigma2 * np.eye(m)
    for i in range(len(X)):
        o = np.isfinite(X[i])
        if not o.any():
            assert np.isnan(got[i])
            continue
        x = X[i, o]
        expected = x @ np.linalg.solve(S[np.ix_(o, o)], x) / o.sum()
        np.testing.assert_allclose(got[i], expected, rtol=1e-9)


def test_filled_values_stay_within_the_columns_measured_range():
    """Round 17: a walk-through's cohort (53 columns, 50 components kept, rows with a few
    gaps each) had gaps filled at -34 SD, from weak components whose variance the rows' own
    least-squares fits overstate. ``bounds`` keeps a filled value within its column's range
    and leaves the measured values and rows without gaps alone."""
    rng = np.random.default_rng(2)
    n, m = 300, 6
    z = rng.standard_normal((n, 2))
    X = np.column_stack([z[:, 0], z[:, 0], z[:, 1], z[:, 1], z[:, 0], z[:, 1]])
    X += 0.1 * rng.standard_normal((n, m))
    Vt = np.linalg.svd(X, full_matrices=False)[2][:2]  # the two shared factors
    lo, hi = column_bounds(np.vstack([X, np.full((1, m), np.nan)]))
    np.testing.assert_allclose(lo, X.min(0))
    np.testing.assert_allclose(hi, X.max(0))
    q = np.array([[40.0, np.nan, -40.0, 1.0, np.nan, 0.5], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]])
    tiny = np.full(2, 1e-6)  # an almost unregularised fill extrapolates
    free = fill_gaps(q, Vt, tiny)
    bounded = fill_gaps(q, Vt, tiny, (lo, hi))
    assert (np.abs(free[0, [1, 4]]) > hi[[1, 4]]).any()
    assert np.all((bounded[0, [1, 4]] >= lo[[1, 4]]) & (bounded[0, [1, 4]] <= hi[[1, 4]]))
    np.testing.assert_array_equal(bounded[0, [0, 2, 3, 5]], q[0, [0, 2, 3, 5]])
    np.testing.assert_array_equal(bounded[1], q[1])
    # a column without any measured value: bounds 0
    empty = np.column_stack([X[:, :2], np.full(n, np.nan)])
    assert column_bounds(empty)[0][2] == 0 == column_bounds(empty)[1][2]


def test_cross_fitted_misfit_is_about_one_per_value_and_not_optimistic():
    """Rows drawn from a planted probabilistic PCA model have a squared Mahalanobis
    distance of about 1 per value. Under a basis learned on them they fit better than that
    (the basis followed them); scored under the other folds' completion they do not, and a
    row with a wrong value stands out."""
    rng = np.random.default_rng(5)
    n, m, r = 400, 12, 3
    Vt = np.linalg.qr(rng.standard_normal((m, r)))[0].T
    X = rng.standard_normal((n, r)) * np.sqrt([6.0, 3.0, 1.5]) @ Vt
    X += 0.5 * rng.standard_normal((n, m))
    X[rng.random(X.shape) < 0.15] = np.nan
    X[0, 1] = 15.0  # a slipped decimal point
    lam = 0.04 * np.linalg.norm(np.nan_to_num(X), 2)
    cross = cross_fitted_misfit(X, lam, r, max_rank=m, n_folds=5, random_state=0)
    assert np.isfinite(cross).all()
    res = soft_impute(X, lam, max_rank=m, random_state=0)
    V = res.components[:r]
    filled = np.where(np.isnan(X), res.scores @ res.components, X)
    ridge, sigma2 = gap_fill_ridge(X, V, filled)
    own = ppca_misfit(X, V, ridge) / sigma2
    assert 0.8 < np.median(cross[1:]) < 1.25
    assert np.mean(cross[1:]) > np.mean(own[1:])
    assert cross[0] > np.quantile(cross[1:], 0.99)
    np.testing.assert_array_equal(
        cross, cross_fitted_misfit(X, lam, r, max_rank=m, n_folds=5, random_state=0))
