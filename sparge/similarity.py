"""Look-alike queries: neighbours, similarities, self-expressive sparse weights, explanations.

Pure functions over arrays; :class:`sparge.SparGE` composes them (DESIGN.md §4 step 7).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp


def similarity_from_distance(dist: np.ndarray, scale: float) -> np.ndarray:
    """Similarity in (0, 1]: ``exp(-d^2 / scale)``; 1 means the same point.

    The model sets ``scale = 2 q^2`` with ``q`` the 90th percentile of the training
    patients' 10-nearest-neighbour distances.
    """
    return np.exp(-np.square(dist) / max(scale, 1e-12))


def self_expressive_weights(
    Y_query: np.ndarray,
    Y_train: np.ndarray,
    candidates: np.ndarray,
    *,
    alpha: float = 0.05,
    positive: bool = True,
    max_iter: int = 500,
    tol: float = 1e-8,
) -> sp.csr_matrix:
    """Sparse code of every query over its candidate training patients (paper Eq. 3).

    Solves ``min_w 1/2 ||y - C w||^2 + a ||w||_1`` (``w >= 0`` when ``positive``) for every
    query at once by batched FISTA, where the columns of ``C`` are the embeddings of the
    query's candidate look-alikes and ``a = alpha * max_j |c_j^T y|``. Non-zero weights are
    the patients that express the query; their size is their importance.

    Parameters
    ----------
    Y_query : ndarray of shape (q, l)
    Y_train : ndarray of shape (n, l)
    candidates : ndarray of int, shape (q, c)
        Candidate training patients for every query (e.g. its c nearest neighbours).

    Returns
    -------
    W : csr_matrix of shape (q, n)
    """
    Yq = np.atleast_2d(np.asarray(Y_query, dtype=float))
    C = Y_train[candidates]  # (q, c, l)
    G = np.einsum("qcl,qdl->qcd", C, C)  # (q, c, c)
    b = np.einsum("qcl,ql->qc", C, Yq)  # (q, c)
    a = alpha * np.maximum(np.abs(b).max(axis=1, keepdims=True), 1e-12)
    L = np.linalg.eigvalsh(G)[:, -1:] + 1e-12  # per-query Lipschitz constant
    w = np.zeros_like(b)
    z = w.copy()
    t = 1.0
    for _ in range(max_iter):
        grad = np.einsum("qcd,qd->qc", G, z) - b
        u = z - grad / L
        if positive:
            w_new = np.maximum(u - a / L, 0.0)
        else:
            w_new = np.sign(u) * np.maximum(np.abs(u) - a / L, 0.0)
        t_new = 0.5 * (1 + np.sqrt(1 + 4 * t * t))
        z = w_new + ((t - 1) / t_new) * (w_new - w)
        change = np.max(np.abs(w_new - w)) if w.size else 0.0
        w, t = w_new, t_new
        if change < tol:
            break
    q = Yq.shape[0]
    rows = np.repeat(np.arange(q), candidates.shape[1])
    W = sp.coo_matrix((w.ravel(), (rows, candidates.ravel())), shape=(q, Y_train.shape[0]))
    W = W.tocsr()
    W.eliminate_zeros()
    return W


def explain_pair(
    query: np.ndarray,
    neighbor: np.ndarray,
    feature_names: list[str],
    n_features: int = 5,
) -> pd.DataFrame:
    """Features where a query and a look-alike agree and differ most (standardised units).

    Only features observed in both patients are compared.

    Returns
    -------
    DataFrame with columns ``feature``, ``query``, ``neighbor``, ``difference``,
    ``relation`` ("agree" or "differ"), the agreeing features first.
    """
    q = np.asarray(query, dtype=float).ravel()
    v = np.asarray(neighbor, dtype=float).ravel()
    both = ~np.isnan(q) & ~np.isnan(v)
    idx = np.flatnonzero(both)
    diff = np.abs(q[idx] - v[idx])
    order = np.argsort(diff, kind="stable")
    n = min(n_features, idx.size)
    agree = idx[order[:n]]
    differ = idx[order[::-1][:n]]
    differ = np.array([j for j in differ if j not in set(agree)], dtype=int)
    rows = []
    for rel, cols in (("agree", agree), ("differ", differ)):
        for j in cols:
            rows.append({"feature": feature_names[j], "query": q[j], "neighbor": v[j],
                         "difference": abs(q[j] - v[j]), "relation": rel})
    return pd.DataFrame(rows, columns=["feature", "query", "neighbor", "difference",
                                       "relation"])


def precision_at_k(neighbor_labels: np.ndarray, query_labels: np.ndarray,
                   balanced: bool = True) -> float:
    """Share of look-alikes with the query's outcome, class-balanced by default.

    Parameters
    ----------
    neighbor_labels : array of shape (q, k)
        Outcomes of every query's k look-alikes.
    query_labels : array of shape (q,)
    balanced : bool
        Mean over outcome classes of the per-class precision (the headline measure:
        plain precision rewards returning majority-outcome neighbours).
    """
    hits = (np.asarray(neighbor_labels) == np.asarray(query_labels)[:, None]).mean(axis=1)
    if not balanced:
        return float(hits.mean())
    ql = np.asarray(query_labels)
    return float(np.mean([hits[ql == c].mean() for c in np.unique(ql)]))


def knn_search(Y_ref: np.ndarray, Y_query: np.ndarray, k: int, *,
               ref_sqnorms: np.ndarray | None = None, chunk: int = 1024
               ) -> tuple[np.ndarray, np.ndarray]:
    """Exact Euclidean k nearest neighbours by one matrix product per chunk of queries.

    For a handful of queries this is a single BLAS call plus a partial sort (no thread
    pool start-up), which keeps a one-patient look-alike query in the sub-millisecond range.

    Returns
    -------
    dist, idx : ndarray of shape (q, k), sorted by distance.
    """
    Y_ref = np.asarray(Y_ref, dtype=float)
    Yq = np.atleast_2d(np.asarray(Y_query, dtype=float))
    n = Y_ref.shape[0]
    k = int(min(k, n))
    sq = np.einsum("ij,ij->i", Y_ref, Y_ref) if ref_sqnorms is None else ref_sqnorms
    dist = np.empty((Yq.shape[0], k))
    idx = np.empty((Yq.shape[0], k), dtype=np.intp)
    for start in range(0, Yq.shape[0], chunk):
        q = Yq[start:start + chunk]
        d2 = sq[None, :] - 2.0 * (q @ Y_ref.T) + np.einsum("ij,ij->i", q, q)[:, None]
        np.maximum(d2, 0.0, out=d2)
        part = np.argpartition(d2, k - 1, axis=1)[:, :k] if k < n else \
            np.tile(np.arange(n), (len(q), 1))
        dpart = np.take_along_axis(d2, part, axis=1)
        order = np.argsort(dpart, axis=1, kind="stable")
        idx[start:start + chunk] = np.take_along_axis(part, order, axis=1)
        dist[start:start + chunk] = np.sqrt(np.take_along_axis(dpart, order, axis=1))
    return dist, idx
