"""Look-alike queries: neighbours, similarities, self-expressive sparse weights, explanations.

Pure functions over arrays; :class:`sparge.SparGE` composes them (DESIGN.md §4 step 7).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def similarity_from_distance(dist: np.ndarray, scale: float) -> np.ndarray:
    """Similarity in (0, 1]: ``exp(-d^2 / scale)``; 1 means the same point.

    The model sets ``scale = 2 q^2`` with ``q`` the 90th percentile of the training
    patients' 10-nearest-neighbour distances.
    """
    return np.exp(-np.square(dist) / max(scale, 1e-12))


#: Up to this many queries, the weights are solved exactly one query at a time.
_ACTIVE_SET_MAX_QUERIES = 64


def project_simplex(V: np.ndarray) -> np.ndarray:
    """Euclidean projection of every row of ``V`` onto the probability simplex.

    The sort-based algorithm (Held et al. 1974; Duchi et al. 2008), vectorised over rows:
    the result is non-negative and every row sums to one.
    """
    V = np.atleast_2d(np.asarray(V, dtype=float))
    k = V.shape[1]
    U = -np.sort(-V, axis=1)
    css = np.cumsum(U, axis=1) - 1.0
    ind = np.arange(1, k + 1)
    cond = U - css / ind > 0
    rho = k - 1 - np.argmax(cond[:, ::-1], axis=1)  # last index where cond holds
    theta = css[np.arange(V.shape[0]), rho] / (rho + 1)
    return np.maximum(V - theta[:, None], 0.0)


def _largest_eigenvalue(G: np.ndarray) -> np.ndarray:
    """Largest eigenvalue of every symmetric PSD matrix in a batch (robust fallback)."""
    try:
        return np.linalg.eigvalsh(G)[:, -1]
    except np.linalg.LinAlgError:  # the Frobenius norm bounds it from above
        return np.linalg.norm(G, ord="fro", axis=(1, 2))


def _simplex_qp_active_set(G: np.ndarray, c: np.ndarray, max_iter: int = 100,
                           tol: float = 1e-12) -> np.ndarray:
    """``min 1/2 w'Gw + c'w`` s.t. ``w >= 0, sum w = 1`` for one small problem, exactly.

    A primal active-set method (Nocedal & Wright, Algorithm 16.3) started at the nearest
    look-alike (``w = e_0``): each step solves the KKT system on the free set and either
    moves to its solution, or stops at the first weight that reaches zero, or frees the
    bound whose multiplier is most negative. ``k`` is ~10, so every step is a tiny solve.
    """
    k = len(c)
    Gr = G + 1e-12 * max(float(np.trace(G)) / k, 1e-300) * np.eye(k)
    w = np.zeros(k)
    w[0] = 1.0
    free = [0]
    for _ in range(max_iter):
        F = np.asarray(free)
        K = np.zeros((len(F) + 1, len(F) + 1))
        K[:-1, :-1] = Gr[np.ix_(F, F)]
        K[:-1, -1] = K[-1, :-1] = 1.0
        rhs = np.append(-c[F], 1.0)
        try:
            sol = np.linalg.solve(K, rhs)
        except np.linalg.LinAlgError:
            sol = np.linalg.lstsq(K, rhs, rcond=None)[0]
        z, nu = sol[:-1], sol[-1]
        if np.all(z >= -tol):
            w[:] = 0.0
            w[F] = np.maximum(z, 0.0)
            lam = Gr @ w + c + nu
            lam[F] = 0.0
            j = int(np.argmin(lam))
            if lam[j] >= -1e-10 * max(1.0, float(np.abs(lam).max())):
                break  # KKT conditions hold: optimal
            free.append(j)
        else:
            d = z - w[F]
            neg = d < 0
            steps = np.where(neg, w[F] / np.where(neg, -d, 1.0), np.inf)
            alpha = float(min(1.0, steps.min()))
            w[F] = w[F] + alpha * d
            w[F[w[F] <= tol]] = 0.0
            free = [int(i) for i in F if w[i] > 0]
            if not free:  # numerical corner: restart from the best single look-alike
                j = int(np.argmin(0.5 * np.diag(Gr) + c))
                w[:] = 0.0
                w[j] = 1.0
                free = [j]
    return w / w.sum()


def self_expressive_weights(
    Y_query: np.ndarray,
    Y_train: np.ndarray,
    neighbors: np.ndarray,
    *,
    locality: float = 0.05,
    max_iter: int = 2000,
    tol: float = 1e-10,
) -> sp.csr_matrix:
    """Sparse, non-negative, affine weights of every query over its listed look-alikes.

    The paper's self-expressive model (Section 2) restricted to the list: for a query ``y``
    with look-alikes ``c_1 .. c_k`` (rows of ``Y_train[neighbors[q]]``) solve

    ``min_w 1/2 ||y - sum_j w_j c_j||^2 + (locality/2) sum_j w_j ||y - c_j||^2``
    subject to ``w >= 0`` and ``sum_j w_j = 1``,

    exactly by an active-set method for a few queries (a look-alike table) and for many
    queries at once by accelerated projected gradient (FISTA with the simplex projection).
    On the simplex the l1 norm is constant, so sparsity comes from the constraint
    itself: the solution is the closest point of the look-alikes' convex hull (a face of
    it, so few non-zeros). The small locality term breaks ties towards closer look-alikes,
    so a zero weight reads "not needed: the others together already rebuild the
    query" (even the closest look-alike can get 0 when the query lies between others).

    Parameters
    ----------
    Y_query : ndarray of shape (q, l)
    Y_train : ndarray of shape (n, l)
    neighbors : ndarray of int, shape (q, k)
        Every query's listed look-alikes (training indices).
    locality : float
        Weight of the distance term, relative to the reconstruction error.

    Returns
    -------
    W : csr_matrix of shape (q, n)
        Non-zeros only at ``neighbors[q]``; every row sums to 1.
    """
    Yq = np.atleast_2d(np.asarray(Y_query, dtype=float))
    neighbors = np.atleast_2d(np.asarray(neighbors, dtype=np.intp))
    q, k = neighbors.shape
    n = Y_train.shape[0]
    if k == 0:
        return sp.csr_matrix((q, n))
    # Translate so the query is the origin: affine weights make this exact.
    C = np.asarray(Y_train, dtype=float)[neighbors] - Yq[:, None, :]  # (q, k, l)
    G = np.einsum("qcl,qdl->qcd", C, C)  # (q, k, k)
    d2 = np.einsum("qcc->qc", G).copy()  # squared distances to the look-alikes
    scale = np.maximum(d2.mean(axis=1, keepdims=True), 1e-300)
    G = G / scale[:, :, None]
    lin = 0.5 * locality * d2 / scale  # gradient of the locality term
    if q <= _ACTIVE_SET_MAX_QUERIES:  # a few queries: exact, and fast per query
        w = np.stack([_simplex_qp_active_set(G[i], lin[i]) for i in range(q)])
        return _weights_matrix(w, neighbors, n)
    L = _largest_eigenvalue(G)[:, None] + 1e-12
    w = np.zeros((q, k))
    w[:, 0] = 1.0  # start from the nearest look-alike
    z = w.copy()
    t = 1.0
    for _ in range(max_iter):
        grad = np.einsum("qcd,qd->qc", G, z) + lin
        w_new = project_simplex(z - grad / L)
        t_new = 0.5 * (1 + np.sqrt(1 + 4 * t * t))
        z = w_new + ((t - 1) / t_new) * (w_new - w)
        change = float(np.max(np.abs(w_new - w)))
        w, t = w_new, t_new
        if change < tol:
            break
    return _weights_matrix(w, neighbors, n)


def _weights_matrix(w: np.ndarray, neighbors: np.ndarray, n: int) -> sp.csr_matrix:
    """Weights (q, k) over each query's neighbours -> csr (q, n); tiny ones dropped."""
    w = np.where(w < 1e-9, 0.0, w)
    w = w / w.sum(axis=1, keepdims=True)
    q, k = w.shape
    rows = np.repeat(np.arange(q), k)
    W = sp.csr_matrix((w.ravel(), (rows, neighbors.ravel())), shape=(q, n))
    W.eliminate_zeros()
    return W



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
               ref_sqnorms: np.ndarray | None = None, chunk: int = 1024,
               extra_d2=None) -> tuple[np.ndarray, np.ndarray]:
    """Exact Euclidean k nearest neighbours by one matrix product per chunk of queries.

    For a handful of queries this is a single BLAS call plus a partial sort (no thread
    pool start-up), which keeps a one-patient look-alike query in the sub-millisecond range.

    ``extra_d2(start, stop)``, when given, returns squared distances (stop - start, n) to
    add to the Euclidean ones of queries ``start:stop`` (a second metric of an ensemble).

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
        if extra_d2 is not None:  # e.g. the forest part of an ensemble metric
            d2 += extra_d2(start, start + len(q))
        part = np.argpartition(d2, k - 1, axis=1)[:, :k] if k < n else \
            np.tile(np.arange(n), (len(q), 1))
        dpart = np.take_along_axis(d2, part, axis=1)
        order = np.argsort(dpart, axis=1, kind="stable")
        idx[start:start + chunk] = np.take_along_axis(part, order, axis=1)
        dist[start:start + chunk] = np.sqrt(np.take_along_axis(dpart, order, axis=1))
    return dist, idx


def ensemble_sqdist(Y_query: np.ndarray, Y_ref: np.ndarray,
                    leaves_query: np.ndarray | None = None,
                    leaves_ref: np.ndarray | None = None,
                    forest_scale: float = 0.0) -> np.ndarray:
    """Squared look-alike distances of queries to reference patients, shape (q, r).

    ``||y_q - y_r||^2 + forest_scale * (1 - p_qr)``, where ``p_qr`` is the forest
    proximity: the share of the trees that count for reference patient ``r`` in which the
    query falls in ``r``'s leaf. A tree does not count for ``r`` where ``leaves_ref`` holds
    :data:`~sparge.method.proximity.NOT_COUNTED` (in-bag proximity: only the trees grown
    with ``r``); with every tree counted this is Breiman's share of trees with the same
    leaf. Without leaves (a model with no forest part) the plain squared Euclidean
    distance. The forest part is one vectorised comparison per tree (no q x r x trees
    array), so a block of reference patients from any source (a partition of a large
    cohort, an approximate index's candidates) is scored exactly as
    :meth:`sparge.SparGE.lookalikes` scores training patients.

    Parameters
    ----------
    Y_query : ndarray of shape (q, d)
    Y_ref : ndarray of shape (r, d)
    leaves_query, leaves_ref : int ndarray of shape (q, T) and (r, T), optional
        Leaf ids per tree, as returned by ``SparGE.lookalike_parts`` (the reference
        patients' with ``reference=True``).
    forest_scale : float
        The model's ``forest_scale_``.
    """
    Yq = np.atleast_2d(np.asarray(Y_query, dtype=float))
    Yr = np.atleast_2d(np.asarray(Y_ref, dtype=float))
    d2 = (np.einsum("ij,ij->i", Yq, Yq)[:, None] - 2.0 * (Yq @ Yr.T)
          + np.einsum("ij,ij->i", Yr, Yr)[None, :])
    np.maximum(d2, 0.0, out=d2)
    if leaves_query is None or leaves_ref is None or forest_scale == 0.0:
        return d2
    Lq, Lr = np.atleast_2d(leaves_query), np.atleast_2d(leaves_ref)
    if Lq.shape[1] != Lr.shape[1]:
        raise ValueError(f"leaves of {Lq.shape[1]} and {Lr.shape[1]} trees")
    if Lq.size and Lq.min() < 0:  # so a reference's NOT_COUNTED never matches
        raise ValueError("query leaves must be leaf ids >= 0 (every tree counts for a "
                         "query)")
    same = np.zeros(d2.shape)
    for t in range(Lq.shape[1]):
        same += Lq[:, t, None] == Lr[None, :, t]
    counted = np.maximum(np.count_nonzero(Lr >= 0, axis=1), 1)
    return d2 + forest_scale * (1.0 - same / counted[None, :])
