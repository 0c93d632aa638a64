import numpy as np
import scipy.sparse as sp

from sparge.method.graphs import laplacian, mfa_graphs, scatter, unsupervised_graphs


def test_mfa_graphs_structure():
    rng = np.random.default_rng(0)
    F = rng.standard_normal((60, 4))
    y = rng.integers(0, 3, 60)
    Wp, Wn = mfa_graphs(F, y, k1=3, k2=5)
    for W in (Wp, Wn):
        assert sp.issparse(W)
        assert abs(W - W.T).max() < 1e-12
        assert W.diagonal().sum() == 0
    r, c = Wp.nonzero()
    assert np.all(y[r] == y[c])
    r, c = Wn.nonzero()
    assert np.all(y[r] != y[c])
    # every patient has at least its k1 same-class neighbours
    assert np.all(np.diff(Wp.indptr) >= 3)


def test_laplacian_and_scatter_match_dense():
    rng = np.random.default_rng(1)
    F = rng.standard_normal((40, 5))
    W, _ = unsupervised_graphs(F, k=4)
    L = laplacian(W)
    Ld = L.toarray()
    np.testing.assert_allclose(Ld.sum(axis=1), 0, atol=1e-12)
    assert np.linalg.eigvalsh(Ld).min() > -1e-10
    np.testing.assert_allclose(scatter(F, L), F.T @ Ld @ F, atol=1e-10)


def test_nonlocal_graph_avoids_local_pairs():
    rng = np.random.default_rng(2)
    F = rng.standard_normal((80, 3))
    Wl, Wn = unsupervised_graphs(F, k=5, n_nonlocal=10)
    overlap = Wl.multiply(Wn)
    assert overlap.nnz == 0
    assert Wn.nnz > 0
