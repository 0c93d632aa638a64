"""Low-rank completion of an incomplete matrix (DESIGN.md §4 step 1).

Rows are patients, columns are features; ``NaN`` marks a missing entry. The completion
solves ``min_Z 1/2 ||P_Omega(Z - X)||_F^2 + lam ||Z||_*`` by soft-impute
(Mazumder, Hastie & Tibshirani 2010): ``Z <- SVT_lam(P_Omega(X) + P_Omega^perp(Z))``.

The right singular basis of the solution is kept so that any patient (a training patient or
a new one) is completed the same way: ridge regression of its observed entries on the basis
(:func:`project_observed`). Using one rule for training and new patients avoids a shift
between the representation of the two.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.utils.extmath import randomized_svd


def svt(Q: np.ndarray, zeta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Singular value thresholding: shrink every singular value of ``Q`` by ``zeta``.

    Returns the thin factors ``(U, s, Vt)`` of ``SVT_zeta(Q) = U diag(s) Vt`` keeping only
    the singular values that stay positive.
    """
    U, s, Vt = np.linalg.svd(Q, full_matrices=False)
    # what rounding leaves of a singular value equal to zeta is zero, not a component
    tol = np.finfo(float).eps * max(Q.shape) * (float(s[0]) if s.size else 0.0)
    s = np.maximum(s - zeta, 0.0)
    keep = s > tol
    return U[:, keep], s[keep], Vt[keep]


def top_svd(Q: np.ndarray, rank: int, rng: np.random.Generator):
    """Thin SVD, truncated to ``rank`` when that is much smaller than the matrix.

    Small matrices: LAPACK. Large ones: randomized SVD (Halko et al.) with oversampling and
    power iterations, which costs a few passes over the matrix instead of a full SVD.
    """
    small = min(Q.shape)
    if rank >= small // 2 or small <= 60 or Q.size < 2_000_000:
        U, s, Vt = np.linalg.svd(Q, full_matrices=False)
        return U[:, :rank], s[:rank], Vt[:rank]
    U, s, Vt = randomized_svd(Q, rank, n_oversamples=10, n_iter=3,
                              random_state=int(rng.integers(2**31 - 1)))
    return U, s, Vt


@dataclass
class SoftImputeResult:
    """Outcome of :func:`soft_impute`."""

    components: np.ndarray  # (r, m) orthonormal rows: the right basis V^T
    singular_values: np.ndarray  # (r,)
    scores: np.ndarray  # (n, r) = U diag(s): the completed rows in the basis
    n_iter: int
    converged: bool
    lam: float


def soft_impute(
    X: np.ndarray,
    lam: float,
    *,
    max_rank: int | None = None,
    max_iter: int = 100,
    tol: float = 1e-4,
    init: np.ndarray | None = None,
    random_state: int | None = 0,
) -> SoftImputeResult:
    """Nuclear-norm regularised completion of ``X`` (NaN = missing) by soft-impute.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Data with ``NaN`` for missing entries (already centred / scaled by the caller).
    lam : float
        Nuclear-norm weight: every singular value is shrunk by ``lam`` per iteration.
    max_rank : int, optional
        Cap on the rank of the iterate (a truncated SVD is used when it is small).
    max_iter, tol : int, float
        Stop when the relative change of the iterate falls below ``tol``.
    init : ndarray of shape (n, m), optional
        Warm start (for a path of decreasing ``lam``).

    Returns
    -------
    SoftImputeResult
    """
    X = np.asarray(X, dtype=float)
    n, m = X.shape
    observed = ~np.isnan(X)
    Xo = np.where(observed, X, 0.0)
    rng = np.random.default_rng(random_state)
    rank_cap = min(n, m) if max_rank is None else max(1, min(max_rank, n, m))
    Z = np.zeros_like(Xo) if init is None else init.copy()
    U = s = Vt = None
    converged = False
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (returned)
        filled = np.where(observed, Xo, Z)
        U, s, Vt = top_svd(filled, rank_cap, rng)
        s = np.maximum(s - lam, 0.0)
        keep = s > 0
        if not keep.any():
            keep[0] = True  # keep a rank-1 zero so the shapes stay valid
        U, s, Vt = U[:, keep], s[keep], Vt[keep]
        Z_new = (U * s) @ Vt
        delta = np.linalg.norm(Z_new - Z) ** 2
        base = max(np.linalg.norm(Z) ** 2, 1e-12)
        Z = Z_new
        if delta / base < tol:
            converged = True
            break
    return SoftImputeResult(Vt, s, U * s, it, converged, float(lam))


def choose_lambda(
    X: np.ndarray,
    grid: tuple[float, ...] = (0.5, 0.3, 0.2, 0.12, 0.07, 0.04),
    *,
    holdout: float = 0.1,
    max_rank: int | None = None,
    max_iter: int = 60,
    max_rows: int = 3000,
    random_state: int | None = 0,
) -> tuple[float, dict[float, float]]:
    """Pick the nuclear-norm weight by the error on held-out observed entries.

    ``grid`` holds fractions of the largest singular value of the zero-filled matrix; the
    path is solved from the largest to the smallest weight with warm starts. Tables with
    more than ``max_rows`` patients are searched on a random sample of rows (the fraction
    of the largest singular value is what carries over).

    Returns
    -------
    lam : float
        The weight with the lowest held-out root-mean-square error.
    errors : dict
        Held-out RMSE for every fraction tried.
    """
    X = np.asarray(X, dtype=float)
    rng = np.random.default_rng(random_state)
    full_sigma = np.linalg.norm(np.nan_to_num(X), 2) if X.size < 2_000_000 else \
        top_svd(np.nan_to_num(X), 1, rng)[1][0]
    if X.shape[0] > max_rows:  # the search runs on a row sample; fractions carry over
        X = X[rng.choice(X.shape[0], max_rows, replace=False)]
    obs_idx = np.flatnonzero(~np.isnan(X))
    n_hold = max(1, int(holdout * obs_idx.size))
    hold = rng.choice(obs_idx, size=n_hold, replace=False)
    X_train = X.copy()
    X_train.flat[hold] = np.nan
    truth = X.flat[hold]
    sigma_max = np.linalg.norm(np.nan_to_num(X_train), 2)
    errors: dict[float, float] = {}
    Z = None
    best = (np.inf, grid[0])
    for frac in sorted(grid, reverse=True):
        res = soft_impute(X_train, frac * sigma_max, max_rank=max_rank, max_iter=max_iter,
                          init=Z, random_state=random_state)
        Z = res.scores @ res.components
        err = float(np.sqrt(np.mean((Z.flat[hold] - truth) ** 2)))
        errors[frac] = err
        if err < best[0]:
            best = (err, frac)
    return best[1] * full_sigma, errors


def project_observed(
    X: np.ndarray,
    components: np.ndarray,
    ridge: float = 1.0,
    *,
    chunk: int = 256,
) -> np.ndarray:
    """Complete every row of ``X`` from its observed entries on a fixed basis.

    For row ``x`` with observed set ``o`` the scores are
    ``a = (V_o^T V_o + ridge I)^{-1} V_o^T x_o`` and the completed row is ``a V^T``.
    Rows are processed in batches (one batched solve per chunk, no loop over patients).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Rows to complete, ``NaN`` for missing.
    components : ndarray of shape (r, m)
        Orthonormal rows ``V^T`` (from :func:`soft_impute`).
    ridge : float or ndarray of shape (r,)
        Ridge weight, one per component or shared; keeps rows with few observed entries
        near the centre. ``noise_variance / score_variance`` per component (see
        :func:`posterior_ridge`) makes the scores the posterior mean of a probabilistic
        PCA model.

    Returns
    -------
    scores : ndarray of shape (n, r)
        Coordinates of the completed rows in the basis (``Z = scores @ components``).
    """
    X = np.asarray(X, dtype=float)
    Vt = np.asarray(components, dtype=float)
    r = Vt.shape[0]
    observed = ~np.isnan(X)
    Xo = np.where(observed, X, 0.0)
    out = np.empty((X.shape[0], r))
    rhs_all = Xo @ Vt.T  # (n, r): V_o^T x_o since missing entries are zero
    full = observed.all(axis=1)
    eye = np.diag(np.broadcast_to(np.asarray(ridge, dtype=float), (r,)))
    if full.any():
        gram = Vt @ Vt.T + eye
        out[full] = np.linalg.solve(gram, rhs_all[full].T).T
    rows = np.flatnonzero(~full)
    for start in range(0, rows.size, chunk):
        idx = rows[start:start + chunk]
        W = observed[idx].astype(float)  # (b, m)
        # G_b = V^T diag(w_b) V for every row of the batch, as one batched matmul.
        G = np.einsum("bm,rm,sm->brs", W, Vt, Vt, optimize=True) + eye
        out[idx] = np.linalg.solve(G, rhs_all[idx][..., None])[..., 0]
    return out


def fill_gaps(X: np.ndarray, components: np.ndarray, ridge: np.ndarray | None,
              bounds: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Rows with their gaps replaced by the probabilistic-PCA posterior reconstruction.

    The observed entries stay as they are; a gap takes ``(a V^T)_j`` with ``a`` the
    posterior mean of the row's scores (:func:`project_observed` with the per-component
    ``ridge`` of :func:`posterior_ridge`): the cohort's strong correlations predict it,
    its weak (noise) directions barely. Round 16: SparGE's shared-ridge projection of a
    row with gaps put every gap at the mean once the completion kept all components (a
    narrow table), and filled this way first, new patients with half their values hidden
    found better look-alikes on 13 of 16 cohorts. With ``bounds``, a filled value stays
    within its column's range (round 17: a walk-through's cohort had WBC gaps filled at
    -34 SD, from weak directions whose variance the rows' own fits overstate).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Standardised rows, ``NaN`` for missing.
    components : ndarray of shape (r, m)
    ridge : ndarray of shape (r,) or None
        ``None``: ``X`` unchanged (no fill).
    bounds : (ndarray of shape (m,), ndarray of shape (m,)) or None
        The lowest and highest value of every column (the training patients' measured
        values); ``None``: no bound.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X = np.asarray(X, dtype=float)
    gaps = np.isnan(X)
    if ridge is None or not gaps.any():
        return X
    rows = np.flatnonzero(gaps.any(axis=1))
    out = X.copy()
    Z = project_observed(X[rows], components, ridge) @ np.asarray(components, dtype=float)
    if bounds is not None:
        Z = np.clip(Z, bounds[0], bounds[1])
    out[rows] = np.where(gaps[rows], Z, X[rows])
    return out


def column_bounds(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest measured value of every column (0 for a column without
    any), the ``bounds`` of :func:`fill_gaps`."""
    X = np.asarray(X, dtype=float)
    seen = np.isfinite(X)
    lo = np.where(seen, X, np.inf).min(axis=0)
    hi = np.where(seen, X, -np.inf).max(axis=0)
    none = ~seen.any(axis=0)
    return np.where(none, 0.0, lo), np.where(none, 0.0, hi)


def completion_scores(X: np.ndarray, components: np.ndarray, ridge,
                      fill_ridge: np.ndarray | None = None,
                      bounds: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Scores of rows in the completion basis: gaps filled (:func:`fill_gaps`, when
    ``fill_ridge`` is given, within ``bounds``), then the shared-ridge projection
    (:func:`project_observed`). A row without gaps gets the same scores either way."""
    return project_observed(fill_gaps(X, components, fill_ridge, bounds), components, ridge)


def ppca_misfit(X: np.ndarray, components: np.ndarray, ridge: np.ndarray) -> np.ndarray:
    """Each row's squared Mahalanobis distance under the probabilistic PCA model, times
    the model's noise variance (one constant per model), divided by the number of values
    measured; ``NaN`` for a row with none.

    Under ``x = V a + e``, ``a_k ~ N(0, lambda_k)``, ``e ~ N(0, sigma^2 I)``, the observed
    part of a row has covariance ``S_o = V_o^T diag(lambda) V_o + sigma^2 I`` and (Woodbury)
    ``x_o^T S_o^{-1} x_o = (|x_o - V_o^T a|^2 + sum_k ridge_k a_k^2) / sigma^2`` with ``a``
    the posterior scores (:func:`project_observed` with ``ridge = sigma^2 / lambda``). The
    residual alone misses a wrong value that a row with few values can fit by large scores
    on weak components; the second term charges for them.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Standardised rows, ``NaN`` for missing.
    components : ndarray of shape (r, m)
    ridge : ndarray of shape (r,)
        ``sigma^2 / lambda_k`` (:func:`posterior_ridge`).

    Returns
    -------
    ndarray of shape (n,)
    """
    X = np.asarray(X, dtype=float)
    V = np.asarray(components, dtype=float)
    ridge = np.asarray(ridge, dtype=float)
    seen = np.isfinite(X)
    a = project_observed(X, V, ridge)
    resid = np.where(seen, np.nan_to_num(X) - a @ V, 0.0)
    d2 = np.sum(resid ** 2, axis=1) + (a ** 2) @ ridge
    n_seen = seen.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_seen > 0, d2 / n_seen, np.nan)


def posterior_ridge(X: np.ndarray, scores: np.ndarray, components: np.ndarray,
                    floor: float = 1e-3) -> np.ndarray:
    """Per-component ridge ``sigma^2 / lambda_k`` of the probabilistic-PCA posterior.

    Under ``x = V a + e`` with ``a_k ~ N(0, lambda_k)`` and ``e ~ N(0, sigma^2 I)``, the
    posterior mean of ``a`` given the observed entries ``o`` is
    ``(V_o^T V_o + diag(sigma^2 / lambda_k))^{-1} V_o^T x_o``: weak components are shrunk
    hard, strong ones barely, so a patient with many gaps is completed from the structure
    the cohort supports rather than from noise directions. ``lambda_k`` is the mean square
    of the training scores, ``sigma^2`` the mean squared residual on observed entries
    (at least ``floor``, in standardised units).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Standardised training rows, ``NaN`` for missing.
    scores : ndarray of shape (n, r)
    components : ndarray of shape (r, m)
    floor : float
        Smallest ``sigma^2``.

    Returns
    -------
    ndarray of shape (r,)
    """
    return _ridge(noise_variance(X, scores, components, floor), scores)


def _ridge(sigma2: float, scores: np.ndarray) -> np.ndarray:
    """``sigma^2 / lambda_k`` with ``lambda_k`` the mean square of ``scores[:, k]``."""
    lam = np.mean(np.asarray(scores, dtype=float) ** 2, axis=0)
    return sigma2 / np.maximum(lam, 1e-12)


def noise_variance(X: np.ndarray, scores: np.ndarray, components: np.ndarray,
                   floor: float = 1e-3) -> float:
    """Mean squared residual of ``scores @ components`` on the observed entries of ``X``
    (at least ``floor``): the probabilistic-PCA noise ``sigma^2`` of
    :func:`posterior_ridge`."""
    X = np.asarray(X, dtype=float)
    observed = ~np.isnan(X)
    resid = np.where(observed, X - scores @ components, 0.0)
    return max(float(np.sum(resid**2) / max(observed.sum(), 1)), floor)


def gap_fill_ridge(X: np.ndarray, components: np.ndarray, filled: np.ndarray,
                   fit: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """The ridge of the gap fill (:func:`fill_gaps`) and its noise variance.

    The noise comes from the rows' own least-squares fit on the basis (round 16), each
    component's variance from the scores of the completed table ``filled`` (round 17: a
    row's own least-squares scores are ill-determined in the weak directions when it has
    a few gaps and the basis nearly as many components as columns, which made weak
    components look strong and filled gaps at -34 SD).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Standardised training rows, ``NaN`` for missing.
    components : ndarray of shape (r, m)
    filled : ndarray of shape (n, m)
        ``X`` with its gaps completed.
    fit : ndarray of shape (n, r), optional
        The rows' least-squares scores (``project_observed(X, components, 1e-6)``) when
        already computed.

    Returns
    -------
    ridge : ndarray of shape (r,)
    sigma2 : float
    """
    if fit is None:
        fit = project_observed(X, components, 1e-6)
    sigma2 = noise_variance(X, fit, components)
    return _ridge(sigma2, filled @ np.asarray(components, dtype=float).T), sigma2


def cross_fitted_misfit(X: np.ndarray, lam: float, rank: int, *, max_rank: int,
                        n_folds: int = 5, random_state: int = 0) -> np.ndarray:
    """Every row's :func:`ppca_misfit` under a completion learned without it, divided by
    that completion's noise variance (a squared Mahalanobis distance per value).

    A row's misfit under a basis learned on it is optimistic: the basis followed its
    values. The rows are split into ``n_folds`` folds; each fold is scored under the
    soft-impute completion (:func:`soft_impute`, weight ``lam`` scaled by the square
    root of the share of rows it sees, as the singular values are) of the other folds,
    with ``rank`` components and the gap fill's ridge (:func:`gap_fill_ridge`).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Standardised rows, ``NaN`` for missing.
    lam : float
        Nuclear-norm weight learned on all ``n`` rows.
    rank : int
        Components kept.
    max_rank : int
        Rank cap of the soft-impute iterate (as in the fit).
    n_folds : int
    random_state : int

    Returns
    -------
    ndarray of shape (n,)
        ``NaN`` for a row with no value.
    """
    X = np.asarray(X, dtype=float)
    n, m = X.shape
    n_folds = int(min(n_folds, n))
    fold = np.random.default_rng(random_state).permutation(n) % n_folds
    out = np.full(n, np.nan)
    for f in range(n_folds):
        test, train = fold == f, fold != f
        Xt = X[train]
        res = soft_impute(Xt, lam * np.sqrt(train.sum() / n),
                          max_rank=int(min(max_rank, train.sum(), m)),
                          random_state=random_state)
        V = res.components[:rank]
        filled = np.where(np.isnan(Xt), res.scores @ res.components, Xt)
        ridge, sigma2 = gap_fill_ridge(Xt, V, filled)
        out[test] = ppca_misfit(X[test], V, ridge) / sigma2
    return out


def gavish_donoho_rank(singular_values: np.ndarray, shape: tuple[int, int],
                       min_rank: int = 2) -> int:
    """Rank by the optimal hard threshold for unknown noise (Gavish & Donoho 2014).

    Keeps the singular values above ``omega(beta) * median(s)`` with ``beta`` the aspect
    ratio, i.e. those that stand out of the noise bulk.
    """
    s = np.sort(np.asarray(singular_values, dtype=float))[::-1]
    if s.size == 0:
        return 0
    n, m = shape
    beta = min(n, m) / max(n, m)
    omega = 0.56 * beta**3 - 0.95 * beta**2 + 1.82 * beta + 1.43
    rank = int(np.sum(s > omega * np.median(s)))
    return int(min(max(rank, min_rank), s.size))
