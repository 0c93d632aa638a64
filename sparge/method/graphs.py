"""kNN graphs and Laplacians as sparse matrices (DESIGN.md §4 step 5).

Supervised (marginal Fisher analysis): the intrinsic graph ``W+`` joins ``i`` and ``j`` when
one is among the ``k1`` nearest same-class neighbours of the other; the penalty graph
``W-`` joins them when one is among the ``k2`` nearest other-class neighbours.
Unsupervised: the local graph joins kNN pairs; the non-local graph is the heat-kernel graph
on all other pairs, estimated from a random sample of non-neighbours per patient (so no n×n
matrix is ever built).

Neighbours are exact below ``neighbors_threshold`` patients and found by NN-descent from it on
(:func:`sparge.method.neighbors.knn_graph_neighbors`); one choice for the whole graph.

Edge weights are binary or heat kernel ``exp(-||f_i - f_j||^2 / t)`` with ``t`` the mean
squared edge length. All graphs are symmetric ``scipy.sparse.csr_matrix``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from sparge.method.neighbors import (
    GRAPH_THRESHOLD,
    INDEX_NEIGHBORS,
    GraphIndex,
    exact_knn,
    knn_graph_neighbors,
    resolve_method,
)


def _edges_to_graph(n: int, rows, cols, d2, weight: str, node_weight=None) -> sp.csr_matrix:
    rows = np.concatenate(rows) if rows else np.zeros(0, int)
    cols = np.concatenate(cols) if cols else np.zeros(0, int)
    d2 = np.concatenate(d2) if d2 else np.zeros(0)
    if weight == "heat" and d2.size:
        t = max(float(np.mean(d2)), 1e-12)
        w = np.exp(-d2 / t)
    else:
        w = np.ones_like(d2)
    if node_weight is not None and w.size:
        w = w * 0.5 * (node_weight[rows] + node_weight[cols])
    W = sp.coo_matrix((w, (rows, cols)), shape=(n, n)).tocsr()
    W.sum_duplicates()
    W = W.maximum(W.T)  # "i in N(j) or j in N(i)"
    W.setdiag(0)
    W.eliminate_zeros()
    return W.tocsr()


def class_weights(y_idx: np.ndarray) -> np.ndarray:
    """Per-patient weight ``n / (C n_c)``: every class carries the same total weight."""
    counts = np.bincount(y_idx)
    n_classes = np.count_nonzero(counts)
    return (y_idx.size / (n_classes * counts))[y_idx]


def mfa_graphs(
    F: np.ndarray,
    y: np.ndarray,
    k1: int = 5,
    k2: int = 20,
    *,
    weight: str = "heat",
    class_balance: bool = True,
    neighbors: str = "auto",
    neighbors_threshold: int = GRAPH_THRESHOLD,
    random_state: int | None = 0,
) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Intrinsic (same-class) and penalty (other-class) kNN graphs.

    Parameters
    ----------
    F : ndarray of shape (n, d)
        Representation in which neighbours are sought.
    y : array of shape (n,)
        Class labels.
    k1, k2 : int
        Same-class and other-class neighbours per patient.
    weight : {"heat", "binary"}
    class_balance : bool
        Weight edges by ``n / (C n_c)`` so that small outcome classes count as much as
        large ones.
    neighbors : {"auto", "exact", "approximate"}
        Neighbour search; ``"auto"`` is exact below ``neighbors_threshold`` patients.
    neighbors_threshold : int
    random_state : int or None
        Seed of the approximate search.

    Returns
    -------
    W_plus, W_minus : csr_matrix of shape (n, n)
    """
    F = np.asarray(F, dtype=float)
    n = F.shape[0]
    _, y_idx = np.unique(y, return_inverse=True)
    node_w = class_weights(y_idx) if class_balance else None
    rp, cp, dp, rm, cm, dm = [], [], [], [], [], []
    if resolve_method(neighbors, n, neighbors_threshold) == "approximate":
        _approximate_class_neighbors(F, y_idx, k1, k2, random_state, (rp, cp, dp),
                                     (rm, cm, dm))
    else:
        for c in np.unique(y_idx):
            members = np.flatnonzero(y_idx == c)
            others = np.flatnonzero(y_idx != c)
            if members.size > 1:
                dist, idx = exact_knn(F[members], F[members], k1, exclude_self=True)
                rp.append(np.repeat(members, idx.shape[1]))
                cp.append(members[idx.ravel()])
                dp.append(dist.ravel() ** 2)
            if others.size:
                dist, idx = exact_knn(F[others], F[members], k2, exclude_self=False)
                rm.append(np.repeat(members, idx.shape[1]))
                cm.append(others[idx.ravel()])
                dm.append(dist.ravel() ** 2)
    return (_edges_to_graph(n, rp, cp, dp, weight, node_w),
            _edges_to_graph(n, rm, cm, dm, weight, node_w))


def _approximate_class_neighbors(F, y_idx, k1, k2, random_state, plus, minus) -> None:
    """Edges of both graphs from one NN-descent index per class (appended to the lists).

    A class's index gives its own kNN (its graph, no search) and answers the other
    classes' queries; a patient's ``k2`` nearest other-class patients are the nearest of
    the ``k2`` found in each other class. Every patient is indexed once (one index of the
    other classes per class would index each patient C - 1 more times).
    """
    classes = np.unique(y_idx)
    members = {c: np.flatnonzero(y_idx == c) for c in classes}
    index = {c: GraphIndex(F[members[c]], degree=max(k1 + 1, INDEX_NEIGHBORS),
                           random_state=random_state) for c in classes}
    for c in classes:
        m = members[c]
        if m.size > 1:
            dist, idx = index[c].self_neighbors(k1)
            plus[0].append(np.repeat(m, idx.shape[1]))
            plus[1].append(m[idx.ravel()])
            plus[2].append(dist.ravel() ** 2)
        others = [o for o in classes if o != c]
        if not others:
            continue
        found = [index[o].query(F[m], k2) for o in others]
        dist = np.hstack([d for d, _ in found])
        idx = np.hstack([members[o][i] for o, (_, i) in zip(others, found)])
        order = np.argsort(dist, axis=1, kind="stable")[:, :min(k2, idx.shape[1])]
        dist = np.take_along_axis(dist, order, axis=1)
        idx = np.take_along_axis(idx, order, axis=1)
        minus[0].append(np.repeat(m, idx.shape[1]))
        minus[1].append(idx.ravel())
        minus[2].append(dist.ravel() ** 2)


def unsupervised_graphs(
    F: np.ndarray,
    k: int = 10,
    n_nonlocal: int = 30,
    *,
    random_state: int | None = 0,
    neighbors: str = "auto",
    neighbors_threshold: int = GRAPH_THRESHOLD,
) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Local kNN graph and a sampled estimate of the non-local heat-kernel graph.

    The non-local graph should hold the heat-kernel weight of every pair that is not a kNN
    pair; it is estimated by ``n_nonlocal`` random non-neighbours per patient, each weighted
    by ``(n - 1 - k) / n_nonlocal`` so the Laplacian is an unbiased estimate.
    ``neighbors`` / ``neighbors_threshold`` choose the kNN search as in :func:`mfa_graphs`;
    ``random_state`` seeds both the sample and the approximate search.
    """
    F = np.asarray(F, dtype=float)
    n = F.shape[0]
    rng = np.random.default_rng(random_state)
    # a third of the others at most are local: with k neighbours of 10 patients every
    # pair was local, the non-local graph empty and the embedding all zero (a library
    # review); from 31 patients on, k is as given
    k = min(k, max(1, (n - 1) // 3))
    dist, idx = knn_graph_neighbors(
        F, F, k, exclude_self=True,
        method=resolve_method(neighbors, n, neighbors_threshold),
        random_state=random_state)
    d2_local = dist.ravel() ** 2
    t = max(float(np.mean(d2_local)) if d2_local.size else 1.0, 1e-12)
    rows = np.repeat(np.arange(n), idx.shape[1])
    W_local = sp.coo_matrix((np.exp(-d2_local / t), (rows, idx.ravel())), shape=(n, n)).tocsr()
    W_local = W_local.maximum(W_local.T).tocsr()
    s = min(n_nonlocal, max(n - 1 - idx.shape[1], 0))
    if s == 0:
        return W_local, sp.csr_matrix((n, n))
    cand = rng.integers(0, n, size=(n, s))
    r2 = np.repeat(np.arange(n), s)
    c2 = cand.ravel()
    keep = (r2 != c2) & (np.asarray(W_local[r2, c2]).ravel() == 0)
    r2, c2 = r2[keep], c2[keep]
    d2 = np.einsum("ij,ij->i", F[r2] - F[c2], F[r2] - F[c2])
    # The non-local scale is set on the non-local pairs themselves (a far pair is far).
    t_far = max(float(np.mean(d2)) if d2.size else 1.0, 1e-12)
    scale = (n - 1 - idx.shape[1]) / s
    W_non = sp.coo_matrix((scale * np.exp(-d2 / t_far), (r2, c2)), shape=(n, n)).tocsr()
    W_non = 0.5 * (W_non + W_non.T)
    return W_local, W_non.tocsr()


def laplacian(W: sp.spmatrix) -> sp.csr_matrix:
    """Graph Laplacian ``L = Deg - W`` (sparse)."""
    deg = np.asarray(W.sum(axis=1)).ravel()
    return (sp.diags(deg) - W).tocsr()


def scatter(F: np.ndarray, L: sp.spmatrix) -> np.ndarray:
    """``F^T L F`` (d × d) from a sparse Laplacian, never forming an n × n dense matrix."""
    S = F.T @ (L @ F)
    return 0.5 * (S + S.T)
