"""Trace-ratio graph embedding on the Stiefel manifold (DESIGN.md §4 steps 5-6).

``J(U) = tr(U^T S+ U) / tr(U^T S- U)`` with ``U^T U = I``. For fixed scatter matrices ``U``
is found by the iterative trace-ratio algorithm (Wang et al. 2007):
``lambda <- J(U)``; ``U <- eigenvectors of the l smallest eigenvalues of S+ - lambda S-``.
Gradients are given for the finite-difference tests and the joint refinement.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def trace_ratio_value(U: np.ndarray, S_plus: np.ndarray, S_minus: np.ndarray) -> float:
    """``tr(U^T S+ U) / tr(U^T S- U)``."""
    num = float(np.sum(U * (S_plus @ U)))
    den = float(np.sum(U * (S_minus @ U)))
    return num / den if den > 0 else np.inf


def robust_eigh(M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigen-decomposition of a symmetric matrix that never stops with a LinAlgError.

    LAPACK's default driver can fail to converge ("Eigenvalues did not converge") on badly
    scaled matrices from noisy, wide tables. Then SciPy's ``evr`` driver is tried, then the
    matrix with a tiny diagonal jitter (relative to its scale), then a non-finite matrix is
    reported as a ValueError naming the cause.
    """
    M = 0.5 * (M + M.T)
    if not np.all(np.isfinite(M)):
        raise ValueError("the scatter matrix holds non-finite values (check the input for "
                         "infinities or constant columns)")
    try:
        return np.linalg.eigh(M)
    except np.linalg.LinAlgError:
        pass
    import scipy.linalg

    try:
        return scipy.linalg.eigh(M, driver="evr")
    except (np.linalg.LinAlgError, ValueError):
        pass
    scale = max(float(np.abs(M).max()), 1e-300)
    jitter = 1e-10 * scale
    w, V = scipy.linalg.eigh(M + jitter * np.eye(M.shape[0]), driver="ev")
    return w - jitter, V


def trace_ratio(
    S_plus: np.ndarray,
    S_minus: np.ndarray,
    n_components: int,
    *,
    reg: float = 1e-3,
    max_iter: int = 100,
    tol: float = 1e-10,
    init: np.ndarray | None = None,
) -> tuple[np.ndarray, float, int]:
    """Minimise the trace ratio over orthonormal ``U`` (d × l).

    Parameters
    ----------
    S_plus, S_minus : ndarray of shape (d, d)
        Symmetric positive semi-definite scatter matrices (numerator, denominator).
    n_components : int
        Number of columns of ``U``.
    reg : float
        Ridge added to ``S+`` as a fraction of its mean eigenvalue; it keeps the solution
        away from directions whose within-class scatter is zero only because few patients
        were seen.
    init : ndarray of shape (d, l), optional
        Starting point.

    Returns
    -------
    U : ndarray of shape (d, l)
        Orthonormal columns.
    value : float
        The (regularised) trace ratio at ``U``.
    n_iter : int
    """
    d = S_plus.shape[0]
    l = int(min(max(n_components, 1), d))
    A = S_plus + reg * (np.trace(S_plus) / d + 1e-12) * np.eye(d)
    B = S_minus + 1e-12 * (np.trace(S_minus) / d + 1e-12) * np.eye(d)
    if init is None:
        # Start from the directions with the largest S- relative to S+ (a generalised
        # eigenproblem solved through the whitening of A).
        w, V = robust_eigh(A)
        W = V / np.sqrt(np.maximum(w, 1e-12))
        _, E = robust_eigh(W.T @ B @ W)
        U, _ = np.linalg.qr(W @ E[:, ::-1][:, :l])
    else:
        U = np.linalg.qr(init)[0]
    lam = trace_ratio_value(U, A, B)
    it = 0
    # a representation collapsed to (nearly) nothing (a completion shrunk to zero: the
    # lecture's lambda of 0.5 with two atoms) leaves S- without a positive direction: the
    # ratio is infinite, and the start is kept rather than an eigenproblem of infinities
    if not np.isfinite(lam):
        return U, lam, it
    for it in range(1, max_iter + 1):  # noqa: B007 (returned)
        _, V = robust_eigh(A - lam * B)
        new = trace_ratio_value(V[:, :l], A, B)
        if not np.isfinite(new):
            break
        U = V[:, :l]
        if abs(lam - new) <= tol * max(abs(lam), 1e-12):
            lam = new
            break
        lam = new
    return U, lam, it


def trace_ratio_grad_U(U: np.ndarray, S_plus: np.ndarray, S_minus: np.ndarray) -> np.ndarray:
    """Euclidean gradient ``dJ/dU = 2 S+ U / den - 2 num S- U / den^2``."""
    num = float(np.sum(U * (S_plus @ U)))
    den = float(np.sum(U * (S_minus @ U)))
    return 2.0 * (S_plus @ U) / den - 2.0 * num * (S_minus @ U) / den**2


def stiefel_project(U: np.ndarray, G: np.ndarray) -> np.ndarray:
    """Riemannian gradient on the Stiefel manifold: ``G - U sym(U^T G)``."""
    UtG = U.T @ G
    return G - U @ (0.5 * (UtG + UtG.T))


def qr_retraction(U: np.ndarray, step: np.ndarray) -> np.ndarray:
    """QR retraction of ``U + step`` back onto the Stiefel manifold (signs fixed)."""
    Q, R = np.linalg.qr(U + step)
    return Q * np.sign(np.sign(np.diag(R)) + 0.5)


def graph_trace_ratio(F: np.ndarray, U: np.ndarray, L_plus: sp.spmatrix,
                      L_minus: sp.spmatrix) -> tuple[float, float, float]:
    """``(J, num, den)`` with ``num = tr(U^T F^T L+ F U)`` and ``den`` likewise."""
    Y = F @ U
    num = float(np.sum(Y * (L_plus @ Y)))
    den = float(np.sum(Y * (L_minus @ Y)))
    return (num / den if den > 0 else np.inf), num, den


def trace_ratio_grad_F(F: np.ndarray, U: np.ndarray, L_plus: sp.spmatrix,
                       L_minus: sp.spmatrix) -> np.ndarray:
    """``dJ/dF = 2 L+ F U U^T / den - 2 num L- F U U^T / den^2`` (graphs held fixed)."""
    Y = F @ U
    LpY = L_plus @ Y
    LmY = L_minus @ Y
    num = float(np.sum(Y * LpY))
    den = float(np.sum(Y * LmY))
    return (2.0 * LpY / den - 2.0 * num * LmY / den**2) @ U.T
