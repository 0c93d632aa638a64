import numpy as np

from sparge.method.dictionary import _rank_one, classwise_ksvd, ksvd, omp_codes


def test_ksvd_atoms_unit_norm_and_error_decreases():
    rng = np.random.default_rng(0)
    D_true = rng.standard_normal((20, 10))
    D_true /= np.linalg.norm(D_true, axis=0)
    codes = np.zeros((300, 10))
    for i in range(300):
        codes[i, rng.choice(10, 2, replace=False)] = rng.standard_normal(2)
    Z = codes @ D_true.T + 0.01 * rng.standard_normal((300, 20))
    D, errors = ksvd(Z, 10, n_nonzero=2, n_iter=15, random_state=0)
    np.testing.assert_allclose(np.linalg.norm(D, axis=0), 1.0, atol=1e-12)
    assert errors[-1] <= errors[0] + 1e-9
    assert errors[-1] < 0.15
    # most planted atoms are recovered (|cos| > 0.95)
    cos = np.abs(D_true.T @ D).max(axis=1)
    assert (cos > 0.95).mean() >= 0.7
    # started from the planted atoms (scaled), K-SVD keeps them: every one recovered
    D0, err0 = ksvd(Z, 10, n_nonzero=2, n_iter=3, random_state=0, init=3 * D_true)
    assert (np.abs(D_true.T @ D0).max(axis=1) > 0.99).all() and err0[-1] < 0.05


def test_omp_sparsity():
    rng = np.random.default_rng(0)
    D = rng.standard_normal((15, 8))
    D /= np.linalg.norm(D, axis=0)
    codes = omp_codes(rng.standard_normal((30, 15)), D, 3)
    assert codes.shape == (30, 8)
    assert np.all((codes != 0).sum(axis=1) <= 3)


def test_classwise_dictionary_shares_atoms_by_class():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((120, 10))
    y = np.r_[np.zeros(90, int), np.ones(30, int)]
    D, owner = classwise_ksvd(Z, y, 12, random_state=0)
    assert D.shape == (10, 12)
    assert set(owner) == {0, 1}
    assert (owner == 0).sum() > (owner == 1).sum() >= 1


def test_batched_omp_matches_scikit_learn():
    from sklearn.linear_model import orthogonal_mp_gram

    rng = np.random.default_rng(3)
    D = rng.standard_normal((25, 12))
    D /= np.linalg.norm(D, axis=0)
    Z = rng.standard_normal((40, 25))
    ours = omp_codes(Z, D, 4)
    ref = orthogonal_mp_gram(D.T @ D, D.T @ Z.T, n_nonzero_coefs=4).T
    np.testing.assert_allclose(ours, ref, atol=1e-8)


def test_rank_one_update_never_worse_than_start_and_near_svd():
    rng = np.random.default_rng(3)
    for _ in range(5):
        E = rng.standard_normal((40, 12)) + 3 * np.outer(rng.standard_normal(40),
                                                         rng.standard_normal(12))
        start = rng.standard_normal(12)
        start /= np.linalg.norm(start)
        a, g = _rank_one(E, start)
        np.testing.assert_allclose(np.linalg.norm(a), 1.0)
        err = np.linalg.norm(E - np.outer(g, a))
        assert err <= np.linalg.norm(E - np.outer(E @ start, start)) + 1e-12
        s = np.linalg.svd(E, compute_uv=False)
        optimum = np.sqrt(np.sum(s[1:] ** 2))
        assert err <= 1.02 * optimum
