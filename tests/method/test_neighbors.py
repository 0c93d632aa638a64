"""Nearest neighbours: exact path unchanged, approximate path accurate and reproducible.

The approximate tests lower the threshold so small sets go through NN-descent; the first
of them pays pynndescent's one-off compilation.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.neighbors import NearestNeighbors

from sparge.method.graphs import mfa_graphs, unsupervised_graphs
from sparge.method.neighbors import (
    LookalikeIndex,
    _lookalike_metric,
    knn_graph_neighbors,
    resolve_method,
)
from sparge.method.proximity import NOT_COUNTED, fit_leaf_forest, onehot_leaves, reference_leaves
from sparge.method.similarity import ensemble_sqdist, knn_search


def clustered(n: int, d: int = 16, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Points around 20 centres on a low-dimensional structure, with a 3-class outcome."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, 6)) * 3
    z = centres[rng.integers(0, 20, n)] + rng.standard_normal((n, 6))
    F = z @ rng.standard_normal((6, d)) / np.sqrt(6) + 0.3 * rng.standard_normal((n, d))
    y = (z[:, 0] > 0).astype(int) + (z[:, 1] > 1).astype(int)
    return F, y


def forest_parts(n: int = 1500, nq: int = 200, trees: int = 50, seed: int = 0,
                 inbag: bool = False):
    """Embedding, leaves and forest scale of reference patients and of queries (with
    ``inbag``, the reference patients' leaves count only in the trees grown with them)."""
    F, y = clustered(n + nq, d=12, seed=seed)
    _, leaves, oob = fit_leaf_forest(F, y, n_estimators=trees, min_samples_leaf=5,
                                     random_state=seed, n_jobs=1)
    Y = F[:, :8] / 3.0  # the embedding: a part of the features, so the forest adds to it
    spread = float(np.mean(np.sum((Y - Y.mean(axis=0)) ** 2, axis=1)))
    L = leaves.astype(np.int32)
    Lr = reference_leaves(L[:n], ~oob[:n]) if inbag else L[:n]
    return Y[:n], Lr, Y[n:], L[n:], 4.0 * spread  # forest weight 2, as on support2


def recall(found: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([np.intersect1d(a, b).size / b.size for a, b in zip(found, exact)]))


def model_search(Y, L, scale, Yq, Lq, k):
    """The estimator's exact search (SparGE._search): knn_search + sparse forest part
    (the share of each reference patient's counted trees)."""
    n_nodes = int(max(L.max(), Lq.max())) + 1
    keep = L >= 0
    ref = onehot_leaves(np.where(keep, L, 0), n_nodes, keep).T.tocsr()
    counted = keep.sum(axis=1)

    def extra(start, stop):
        same = (onehot_leaves(Lq[start:stop], n_nodes) @ ref).toarray()
        return scale * (1.0 - same / counted[None, :])
    sq = np.einsum("ij,ij->i", Y, Y)
    return knn_search(Y, Yq, k, ref_sqnorms=sq, extra_d2=extra)


# ------------------------------------------------------------------ exact paths


def test_resolve_method():
    assert resolve_method("auto", 999, 1000) == "exact"
    assert resolve_method("auto", 1000, 1000) == "approximate"
    assert resolve_method("exact", 10**7, 1000) == "exact"
    with pytest.raises(ValueError):
        resolve_method("fast", 10, 1000)


def test_exact_graph_neighbors_are_sklearns():
    F, _ = clustered(400)
    nn = NearestNeighbors(n_neighbors=6).fit(F)
    d, i = nn.kneighbors(F)
    d1, i1 = knn_graph_neighbors(F, F, 5, exclude_self=True)
    assert np.array_equal(d1, d[:, 1:]) and np.array_equal(i1, i[:, 1:])
    d2, i2 = knn_graph_neighbors(F[:100], F[100:], 7)
    d, i = NearestNeighbors(n_neighbors=7).fit(F[:100]).kneighbors(F[100:])
    assert np.array_equal(d2, d) and np.array_equal(i2, i)


def test_graphs_below_the_threshold_are_the_exact_graphs():
    F, y = clustered(300)
    for a, b in zip(mfa_graphs(F, y, 5, 10), mfa_graphs(F, y, 5, 10, neighbors="exact")):
        assert (a != b).nnz == 0
    for a, b in zip(unsupervised_graphs(F, 6), unsupervised_graphs(F, 6, neighbors="exact")):
        assert (a != b).nnz == 0


@pytest.mark.parametrize("inbag", [False, True])
def test_exact_index_reproduces_the_models_search_bit_for_bit(inbag):
    Y, L, Yq, Lq, s = forest_parts(n=800, nq=120, trees=30, inbag=inbag)
    index = LookalikeIndex().fit(Y, L, s)
    assert index.method_ == "exact" and index.forest_
    d, i = index.query(Yq, 10, Lq)
    d0, i0 = model_search(Y, L, s, Yq, Lq, 10)
    assert np.array_equal(d, d0) and np.array_equal(i, i0)
    # ... for one patient too (a matrix-vector product: compared with the same), and in
    # chunks (other block shapes may change the last bits of the products, not the order)
    d, i = index.query(Yq[3], 10, Lq[3])
    d1, i1 = model_search(Y, L, s, Yq[3:4], Lq[3:4], 10)
    assert np.array_equal(d, d1) and np.array_equal(i, i1)
    d, i = index.query(Yq, 10, Lq, chunk=7)
    np.testing.assert_allclose(d, d0, rtol=1e-12)
    assert np.array_equal(i, i0)
    # the metric is ensemble_sqdist's
    D = ensemble_sqdist(Yq, Y, Lq, L, s)
    np.testing.assert_allclose(d**2, np.take_along_axis(D, i0, axis=1), atol=1e-12)
    assert np.allclose(np.sort(D, axis=1)[:, :10], d**2, atol=1e-12)
    # no forest part: plain knn_search
    plain = LookalikeIndex().fit(Y)
    d, i = plain.query(Yq, 10)
    d0, i0 = knn_search(Y, Yq, 10)
    assert np.array_equal(d, d0) and np.array_equal(i, i0)
    assert not LookalikeIndex().fit(Y, L, 0.0).forest_  # a zero scale: no forest part


def test_index_checks_its_queries():
    Y, L, Yq, Lq, s = forest_parts(n=300, nq=10, trees=10)
    index = LookalikeIndex().fit(Y, L, s)
    with pytest.raises(ValueError, match="leaves"):
        index.query(Yq, 5)
    with pytest.raises(ValueError, match="leaves"):
        index.query(Yq, 5, Lq[:, :5])
    with pytest.raises(ValueError, match="dimensions"):
        index.query(Yq[:, :3], 5, Lq)
    with pytest.raises(RuntimeError):
        LookalikeIndex().query(Yq, 5)
    with pytest.raises(ValueError, match="global"):  # per-tree leaf ids, not global ones
        LookalikeIndex().fit(Y, L - L.min(axis=0), s)
    bad = L.copy()
    bad[0, 0] = NOT_COUNTED - 1
    with pytest.raises(ValueError, match="not counted"):
        LookalikeIndex().fit(Y, bad, s)
    with pytest.raises(ValueError, match="query leaves"):  # NOT_COUNTED is for references
        index.query(Yq, 5, np.where(np.arange(Lq.shape[1]) == 0, NOT_COUNTED, Lq))
    d, i = index.query(Yq, 10**6, Lq)  # k capped at the reference patients
    assert d.shape == (10, 300) and np.array_equal(np.sort(i[0]), np.arange(300))


@pytest.mark.parametrize("inbag", [False, True])
def test_allowed_patients_are_the_nearest_of_the_full_ranking(inbag):
    """A search among allowed patients (a user's "same sex, age within 5 years") returns
    the first allowed ones of the full ranking under the same metric, whatever the
    index's method, with or without an extra query-dependent term."""
    Y, L, Yq, Lq, s = forest_parts(n=400, nq=12, trees=20, inbag=inbag)
    mask = np.random.default_rng(3).random(400) < 0.2
    D = ensemble_sqdist(Yq, Y, Lq, L, s)
    for index in (LookalikeIndex().fit(Y, L, s),
                  LookalikeIndex(method="approximate").fit(Y, L, s)):
        d, i = index.query(Yq, 7, Lq, allowed=mask)
        assert mask[i].all() and i.shape == (12, 7)
        want = np.argsort(np.where(mask, D, np.inf), axis=1, kind="stable")[:, :7]
        assert np.array_equal(i, want)
        np.testing.assert_allclose(d**2, np.take_along_axis(D, i, axis=1), atol=1e-10)
        # indices name the same patients as the mask
        d2, i2 = index.query(Yq, 7, Lq, allowed=np.flatnonzero(mask)[::-1])
        assert np.array_equal(i2, i) and np.array_equal(d2, d)
    # with an extra term, as the anchoring adds: the allowed patients under the sum
    index = LookalikeIndex().fit(Y, L, s)
    bump = np.random.default_rng(4).random((12, 400))

    def extra(rows, refs):
        return bump[rows][:, refs]
    d, i = index.query(Yq, 5, Lq, allowed=mask, extra_d2=extra)
    want = np.argsort(np.where(mask, D + bump, np.inf), axis=1, kind="stable")[:, :5]
    assert np.array_equal(i, want)
    # k is capped at the allowed patients; none allowed: nothing found
    few = np.zeros(400, bool)
    few[[5, 17, 200]] = True
    assert index.query(Yq, 10, Lq, allowed=few)[1].shape == (12, 3)
    d, i = index.query(Yq, 10, Lq, allowed=np.zeros(400, bool))
    assert d.shape == i.shape == (12, 0)
    with pytest.raises(ValueError, match="400 entries"):
        index.query(Yq, 5, Lq, allowed=mask[:10])
    with pytest.raises(IndexError):
        index.query(Yq, 5, Lq, allowed=[0, 400])


# ------------------------------------------------------------------ approximate paths


@pytest.mark.parametrize("inbag", [False, True])
def test_lookalike_metric_is_the_ensemble_metric(inbag):
    Y, L, Yq, Lq, s = forest_parts(n=400, nq=30, trees=20, inbag=inbag)
    index = LookalikeIndex(method="approximate").fit(Y, L, s)
    A, Aq = index._encode(Y, L), index._encode(Yq, Lq)
    metric = _lookalike_metric()
    D = ensemble_sqdist(Yq, Y, Lq, L, s)
    got = np.array([[metric(a, b) ** 2 for b in A[:50]] for a in Aq])
    np.testing.assert_allclose(got * s / L.shape[1], D[:, :50], rtol=1e-4, atol=1e-6)
    # between reference patients (the index's own graph): symmetric, zero to itself, and
    # a tree that counts for neither is no shared leaf
    among = np.array([[metric(a, b) for b in A[:20]] for a in A[:20]])
    np.testing.assert_allclose(among, among.T, atol=1e-6)
    np.testing.assert_allclose(np.diag(among), 0.0, atol=1e-3)
    assert np.all(among[~np.eye(20, dtype=bool)] > 0)


def test_approximate_graph_neighbors_recall():
    F, _ = clustered(4000)
    exact = knn_graph_neighbors(F, F, 10, exclude_self=True, method="exact")
    d, i = knn_graph_neighbors(F, F, 10, exclude_self=True, threshold=1000)
    assert recall(i, exact[1]) >= 0.95
    assert not np.any(i == np.arange(len(F))[:, None])  # never the patient itself
    assert np.all(np.diff(d, axis=1) >= 0)
    np.testing.assert_allclose(d, np.linalg.norm(F[i] - F[:, None], axis=2), atol=1e-12)
    exact = knn_graph_neighbors(F[:3000], F[3000:], 20, method="exact")
    d, i = knn_graph_neighbors(F[:3000], F[3000:], 20, threshold=1000)
    assert recall(i, exact[1]) >= 0.95 and i.shape == (1000, 20)
    again = knn_graph_neighbors(F[:3000], F[3000:], 20, threshold=1000)
    assert np.array_equal(again[1], i) and np.array_equal(again[0], d)


def test_approximate_graphs_keep_their_structure_and_edges():
    F, y = clustered(4000, seed=1)
    Wp, Wn = mfa_graphs(F, y, 5, 10, neighbors_threshold=1000)
    Ep, En = mfa_graphs(F, y, 5, 10, neighbors="exact")
    for W, E in ((Wp, Ep), (Wn, En)):
        assert abs(W - W.T).max() < 1e-12 and W.diagonal().sum() == 0
        assert W.multiply(E).nnz >= 0.95 * E.nnz  # the same edges, nearly all
    r, c = Wp.nonzero()
    assert np.all(y[r] == y[c])
    r, c = Wn.nonzero()
    assert np.all(y[r] != y[c])
    again = mfa_graphs(F, y, 5, 10, neighbors_threshold=1000)
    assert (again[0] != Wp).nnz == 0 and (again[1] != Wn).nnz == 0
    Wl, _ = unsupervised_graphs(F, 6, neighbors_threshold=1000)
    El, _ = unsupervised_graphs(F, 6, neighbors="exact")
    assert Wl.multiply(El).nnz >= 0.95 * El.nnz
    # a tiny class (searched exactly inside its index) and a patient alone in its class
    y2 = y.copy()
    y2[:30], y2[30] = 3, 4
    Wp, Wn = mfa_graphs(F, y2, 5, 10, neighbors_threshold=1000)
    Ep, En = mfa_graphs(F, y2, 5, 10, neighbors="exact")
    tiny = np.arange(31)
    assert ((Wp[tiny] != 0) != (Ep[tiny] != 0)).nnz == 0  # their own edges: exact
    assert Wn.multiply(En).nnz >= 0.95 * En.nnz
    assert np.all(np.diff(Wn.indptr)[tiny] >= 10)  # everyone has k2 other-class neighbours


@pytest.mark.parametrize("inbag", [False, True])
def test_approximate_index_recall_and_determinism_with_a_forest_part(inbag):
    Y, L, Yq, Lq, s = forest_parts(inbag=inbag)
    d0, i0 = LookalikeIndex(method="exact").fit(Y, L, s).query(Yq, 10, Lq)
    index = LookalikeIndex(threshold=1000).fit(Y, L, s)
    assert index.method_ == "approximate"
    d, i = index.query(Yq, 10, Lq)
    assert recall(i, i0) >= 0.95
    # the forest part decides: the embedding alone finds far fewer of these look-alikes
    assert recall(knn_search(Y, Yq, 10)[1], i0) < 0.8
    # distances are the exact metric at the returned patients, sorted
    D = ensemble_sqdist(Yq, Y, Lq, L, s)
    np.testing.assert_allclose(d**2, np.take_along_axis(D, i, axis=1), atol=1e-12)
    assert np.all(np.diff(d, axis=1) >= 0)
    # same seed, same look-alikes; one patient as in the batch
    d2, i2 = LookalikeIndex(threshold=1000).fit(Y, L, s).query(Yq, 10, Lq)
    assert np.array_equal(i2, i) and np.array_equal(d2, d)
    d1, i1 = index.query(Yq[5], 10, Lq[5])
    assert np.array_equal(i1, i[5:6])
    assert np.array_equal(index.query(Yq, 10, Lq, chunk=13)[1], i)


def test_approximate_index_recall_without_a_forest_part():
    F, _ = clustered(3200, seed=2)
    Y, Yq = F[:3000], F[3000:]
    index = LookalikeIndex(threshold=1000).fit(Y)
    assert index.method_ == "approximate" and not index.forest_
    d, i = index.query(Yq, 10)
    d0, i0 = knn_search(Y, Yq, 10)
    assert recall(i, i0) >= 0.95
    np.testing.assert_allclose(d, np.linalg.norm(Y[i] - Yq[:, None], axis=2), atol=1e-12)
    d1, i1 = index.query(Yq[:1], 1)
    assert i1.shape == (1, 1)


def test_approximate_search_finds_the_exact_lookalikes():
    """neighbor_search="approximate" (NN-descent) against the exact search, same model
    (here beside the index's own tests: one process compiles NN-descent once)."""
    from helpers import planted_classes

    from sparge import SparGE

    X, y = planted_classes(n=600, m=20, noise_dims=14)

    approx = SparGE(max_iter=0, forest_trees=20, neighbor_search="approximate").fit(
        X[:500], y[:500])

    Y, L = approx.lookalike_parts(reference=True)
    ref = LookalikeIndex(method="exact").fit(Y, L, approx.forest_scale_)
    Yq, Lq = approx.lookalike_parts(X[500:])
    truth = ref.query(Yq, 10, Lq)[1]
    found = approx.kneighbors(X[500:], n_neighbors=10)[1]
    recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(found, truth)])
    assert recall >= 0.95, recall
    assert SparGE().neighbor_search == "auto"


@pytest.mark.parametrize("method", ["exact", "approximate"])
@pytest.mark.parametrize("forest", [False, True])
def test_index_scan_with_an_extra_term_is_exact(method, forest):
    rng = np.random.default_rng(2)
    n, nq = 300, 5
    F = rng.standard_normal((n + nq, 6))
    y = (F[:, 0] > 0).astype(int)
    leaves_ref = leaves_q = None
    scale = 0.0
    if forest:
        packed, L, oob = fit_leaf_forest(F[:n], y[:n], n_estimators=20, min_samples_leaf=5,
                                         random_state=0, n_jobs=1)
        leaves_ref = reference_leaves(L, ~oob)  # in-bag: some trees do not count
        leaves_q = packed.apply(F[n:])
        scale = 2.0
    extra_rows = rng.random((nq, n)) * 5
    index = LookalikeIndex(method=method, n_neighbors=10, random_state=0, n_jobs=1).fit(
        F[:n], leaves_ref, scale)
    dist, idx = index.query(F[n:], 7, leaves_q,
                            extra_d2=lambda qs, rs: extra_rows[qs, rs])
    want = ensemble_sqdist(F[n:], F[:n], leaves_q, leaves_ref, scale) + extra_rows
    order = np.argsort(want, axis=1, kind="stable")[:, :7]
    np.testing.assert_array_equal(idx, order)
    np.testing.assert_allclose(dist ** 2, np.take_along_axis(want, order, axis=1),
                               rtol=1e-9, atol=1e-9)
    # queries in blocks of two: the same look-alikes
    d_b, i_b = index.query(F[n:], 7, leaves_q, chunk=2,
                           extra_d2=lambda qs, rs: extra_rows[qs, rs])
    np.testing.assert_array_equal(i_b, idx)
    np.testing.assert_allclose(d_b, dist)
