import numpy as np
import pytest

from sparge.method.embedding import (
    graph_trace_ratio,
    qr_retraction,
    stiefel_project,
    trace_ratio,
    trace_ratio_grad_F,
    trace_ratio_grad_U,
    trace_ratio_value,
)
from sparge.method.graphs import laplacian, mfa_graphs


def _spd(d, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, 2 * d))
    return A @ A.T / d


def test_trace_ratio_is_orthonormal_and_beats_random_projections():
    A, B = _spd(8, 0), _spd(8, 1)
    U, val, _ = trace_ratio(A, B, 3, reg=0.0)
    np.testing.assert_allclose(U.T @ U, np.eye(3), atol=1e-10)
    rng = np.random.default_rng(0)
    for _ in range(200):
        Q = np.linalg.qr(rng.standard_normal((8, 3)))[0]
        assert trace_ratio_value(Q, A, B) >= val - 1e-9


def test_trace_ratio_fixed_point():
    A, B = _spd(6, 2), _spd(6, 3)
    U, lam, _ = trace_ratio(A, B, 2, reg=0.0)
    w = np.linalg.eigvalsh(A - lam * B)
    assert abs(w[:2].sum()) < 1e-8  # min_U tr(U^T (A - lam B) U) = 0 at the optimum


def test_grad_U_matches_finite_differences():
    A, B = _spd(7, 4), _spd(7, 5)
    rng = np.random.default_rng(0)
    U = rng.standard_normal((7, 3))
    E = rng.standard_normal(U.shape)
    eps = 1e-6
    fd = (trace_ratio_value(U + eps * E, A, B) - trace_ratio_value(U - eps * E, A, B)) / (2 * eps)
    an = np.sum(trace_ratio_grad_U(U, A, B) * E)
    assert abs(fd - an) / abs(fd) < 1e-4


def test_grad_Phi_matches_finite_differences():
    rng = np.random.default_rng(3)
    Phi = rng.standard_normal((30, 6))
    y = rng.integers(0, 2, 30)
    Wp, Wn = mfa_graphs(Phi, y, k1=3, k2=4)
    Lp, Ln = laplacian(Wp), laplacian(Wn)
    U = np.linalg.qr(rng.standard_normal((6, 2)))[0]
    E = rng.standard_normal(Phi.shape)
    eps = 1e-6
    J = lambda P: graph_trace_ratio(P, U, Lp, Ln)[0]  # noqa: E731
    fd = (J(Phi + eps * E) - J(Phi - eps * E)) / (2 * eps)
    an = np.sum(trace_ratio_grad_F(Phi, U, Lp, Ln) * E)
    assert abs(fd - an) / abs(fd) < 1e-4


def test_riemannian_step_stays_on_stiefel_and_descends():
    A, B = _spd(8, 6), _spd(8, 7)
    U = np.linalg.qr(np.random.default_rng(0).standard_normal((8, 3)))[0]
    G = stiefel_project(U, trace_ratio_grad_U(U, A, B))
    assert np.abs(U.T @ G + G.T @ U).max() < 1e-10  # tangent
    U2 = qr_retraction(U, -1e-3 * G)
    np.testing.assert_allclose(U2.T @ U2, np.eye(3), atol=1e-10)
    assert trace_ratio_value(U2, A, B) < trace_ratio_value(U, A, B)


def test_robust_eigh_falls_back_when_lapack_does_not_converge(monkeypatch):
    """Issue 10.11: 'Eigenvalues did not converge' must never reach the user."""
    from sparge.method import embedding

    rng = np.random.default_rng(0)
    B = rng.normal(size=(8, 8))
    M = B @ B.T
    calls = []

    def failing(*a, **k):
        calls.append(1)
        raise np.linalg.LinAlgError("Eigenvalues did not converge")

    monkeypatch.setattr(embedding.np.linalg, "eigh", failing)
    w, V = embedding.robust_eigh(M)
    assert calls
    np.testing.assert_allclose(V @ np.diag(w) @ V.T, M, atol=1e-8)
    np.testing.assert_allclose(V.T @ V, np.eye(8), atol=1e-10)
    M2 = M.copy()
    M2[0, 0] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        embedding.robust_eigh(M2)


def test_a_collapsed_representation_gives_an_orthonormal_projection_not_an_error():
    """Walk-through 69: the lecture's toy with a completion lambda of 0.5 and two atoms
    shrank the representation to nearly nothing; S- had no positive direction (a trace of
    -4e-16), the ratio was infinite and the eigenproblem of infinities failed the page."""
    from sparge.method.embedding import trace_ratio

    rng = np.random.default_rng(0)
    F = 1e-9 * rng.normal(size=(30, 5))
    S_plus = F.T @ F
    S_minus = -1e-16 * np.eye(5)  # round-off: no positive direction
    U, value, _ = trace_ratio(S_plus, S_minus, 2)
    assert U.shape == (5, 2) and np.all(np.isfinite(U))
    np.testing.assert_allclose(U.T @ U, np.eye(2), atol=1e-10)
