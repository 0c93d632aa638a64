import numpy as np
import pytest

from sparge.method.dictionary import normalize_atoms
from sparge.method.sparse_coding import (
    code_gradient_to_dictionary,
    elastic_net_objective,
    sparse_encode,
)


def _problem(n=40, m=12, k=8, seed=0):
    rng = np.random.default_rng(seed)
    D = normalize_atoms(rng.standard_normal((m, k)))
    Z = rng.standard_normal((n, m))
    return Z, D


def test_codes_satisfy_optimality_conditions():
    Z, D = _problem()
    r1, r2 = 0.3, 0.05
    Phi = sparse_encode(Z, D, r1, r2)
    G = D.T @ Z.T - (D.T @ D + r2 * np.eye(D.shape[1])) @ Phi.T  # (k, n) = -grad smooth
    active = Phi.T != 0
    np.testing.assert_allclose(G[active], r1 * np.sign(Phi.T[active]), atol=1e-8)
    assert np.all(np.abs(G[~active]) <= r1 + 1e-8)
    assert (Phi == 0).mean() > 0.2  # sparse


def test_codes_minimise_the_objective():
    Z, D = _problem()
    Phi = sparse_encode(Z, D, 0.2, 0.01)
    f0 = elastic_net_objective(Z, D, Phi, 0.2, 0.01)
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert elastic_net_objective(Z, D, Phi + 1e-3 * rng.standard_normal(Phi.shape),
                                     0.2, 0.01) >= f0


def test_batch_equals_one_by_one():
    Z, D = _problem()
    batch = sparse_encode(Z, D, 0.2, 0.01)
    single = np.vstack([sparse_encode(Z[i:i + 1], D, 0.2, 0.01) for i in range(len(Z))])
    np.testing.assert_allclose(batch, single, atol=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_code_to_dictionary_gradient_matches_finite_differences(seed):
    Z, D = _problem(n=15, m=10, k=6, seed=seed)
    r1, r2 = 0.15, 0.1
    rng = np.random.default_rng(seed + 10)
    w = rng.standard_normal((15, 6))

    def loss(Dm):
        P = sparse_encode(Z, Dm, r1, r2, max_iter=5000, tol=1e-14)
        return float(np.sum(w * P) + 0.5 * np.sum(P * P))

    Phi = sparse_encode(Z, D, r1, r2, max_iter=5000, tol=1e-14)
    grad = code_gradient_to_dictionary(Z, D, Phi, w + Phi, r2)
    E = rng.standard_normal(D.shape)
    eps = 1e-6
    fd = (loss(D + eps * E) - loss(D - eps * E)) / (2 * eps)
    an = float(np.sum(grad * E))
    assert abs(fd - an) / max(abs(fd), 1e-12) < 1e-4


# ---------------------------------------------------------------- issue 10.11: eigensolver
def _lambda_max(D):
    return float(np.linalg.svd(D, compute_uv=False)[0] ** 2)


def test_lipschitz_falls_back_when_numpy_eigensolver_fails(monkeypatch):
    import scipy.linalg

    from sparge.method import sparse_coding

    Z, D = _problem()
    expected_L = _lambda_max(D)
    expected = sparse_encode(Z, D, 0.2, 0.01)
    calls = []

    def no_convergence(*args, **kwargs):
        calls.append("numpy")
        raise np.linalg.LinAlgError("Eigenvalues did not converge")

    monkeypatch.setattr(np.linalg, "eigvalsh", no_convergence)
    G = D.T @ D
    # 1st fallback: SciPy's MRRR driver
    assert sparse_coding.gram_lipschitz(G) == pytest.approx(expected_L, rel=1e-10)
    np.testing.assert_allclose(sparse_encode(Z, D, 0.2, 0.01), expected, atol=1e-9)
    assert calls  # the failing solver was tried first

    # last fallback: a norm bound (never below the true value, so FISTA stays convergent)
    def scipy_fails(*args, **kwargs):
        raise np.linalg.LinAlgError("no convergence either")

    monkeypatch.setattr(scipy.linalg, "eigh", scipy_fails)
    L = sparse_coding.gram_lipschitz(G)
    assert expected_L <= L <= np.linalg.norm(G) + 1e-12
    np.testing.assert_allclose(sparse_encode(Z, D, 0.2, 0.01), expected, atol=1e-8)


def test_lipschitz_of_non_finite_dictionary_is_a_clear_error():
    from sparge.method.sparse_coding import gram_lipschitz

    G = np.eye(3)
    G[0, 1] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        gram_lipschitz(G)
    assert gram_lipschitz(np.zeros((0, 0))) == 0.0
