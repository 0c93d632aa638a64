"""Nearest neighbours for the graphs and the look-alike queries: exact below a size
threshold, approximate (NN-descent, :mod:`pynndescent`) above it.

Two entry points:

* :func:`knn_graph_neighbors` — the k nearest neighbours of the graph construction
  (Euclidean, in the representation ``F``), used by :mod:`sparge.method.graphs`;
* :class:`LookalikeIndex` — fitted once on the reference patients, queried many times with
  the model's look-alike metric

  ``d^2 = ||y_q - y_r||^2 + forest_scale * (1 - share of trees with the same leaf)``.

Exact search is the code the model has always used (scikit-learn's ``NearestNeighbors`` for
the graphs, :func:`sparge.method.similarity.knn_search` for queries), so below the
threshold results are unchanged bit for bit. Above it, NN-descent (Dong et al. 2011) as
implemented by pynndescent (the library UMAP already uses). With a forest part the index
searches the exact look-alike metric, not a proxy: every patient is the row
``[l, y * sqrt(T / s), leaf ids]`` and a numba-compiled metric adds the squared Euclidean
part to the number of trees whose leaves differ (``T/s`` times ``d^2``, the same order).
The embedding alone is no good proxy: on support2 (forest weight 2) the 100 nearest
patients in the embedding hold only a quarter of the 10 nearest look-alikes. Returned
neighbours are always re-scored with the exact float64 metric and sorted by it.

pynndescent compiles its search code on first use in a process (a one-off 20–60 s on two
cores); the thresholds are set so that exact search is cheaper below them even without
counting that cost.
"""

from __future__ import annotations

import functools
from typing import Literal

import numpy as np
import scipy.sparse as sp
from sklearn.neighbors import NearestNeighbors

from sparge.method.proximity import NOT_COUNTED
from sparge.method.similarity import knn_search

Method = Literal["auto", "exact", "approximate"]

#: Graph construction switches to NN-descent from this many patients: the exact kNN of
#: all patients (scikit-learn, 114 dimensions) takes 5 s at 20,000 and 21 s at 50,000
#: patients, growing as n^2; NN-descent takes 3 s at 50,000 (recall@20 0.999) after its
#: one-off compilation.
GRAPH_THRESHOLD = 50_000

#: Look-alike queries switch to NN-descent from this many reference patients: an exact
#: one-patient query (embedding + forest part) takes about 8 ms at 100,000 and 48 ms at
#: 500,000 patients; the approximate one about 1 ms at any size.
LOOKALIKE_THRESHOLD = 200_000

#: Graph degree of the NN-descent indexes (more: better recall, slower build).
INDEX_NEIGHBORS = 15


def resolve_method(method: str, n_ref: int, threshold: int) -> str:
    """``"exact"`` or ``"approximate"`` for a search among ``n_ref`` reference points.

    ``"auto"`` is exact below ``threshold`` and approximate from it on.
    """
    if method == "auto":
        return "approximate" if n_ref >= int(threshold) else "exact"
    if method not in ("exact", "approximate"):
        raise ValueError(f"method must be 'auto', 'exact' or 'approximate', got {method!r}")
    return method


def exact_knn(F_ref: np.ndarray, F_query: np.ndarray, k: int, exclude_self: bool
              ) -> tuple[np.ndarray, np.ndarray]:
    """Exact Euclidean kNN (scikit-learn); with ``exclude_self`` the first column is dropped.

    The graphs' historical search, kept as it was so exact graphs never change.
    """
    k_eff = min(k + int(exclude_self), F_ref.shape[0])
    if k_eff <= 0:
        return np.zeros((F_query.shape[0], 0)), np.zeros((F_query.shape[0], 0), int)
    nn = NearestNeighbors(n_neighbors=k_eff).fit(F_ref)
    dist, idx = nn.kneighbors(F_query)
    if exclude_self:
        dist, idx = dist[:, 1:], idx[:, 1:]
    return dist, idx


def _sorted_exact(F_ref: np.ndarray, F_query: np.ndarray, idx: np.ndarray,
                  chunk: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """Float64 Euclidean distances of every query to its listed neighbours, row-sorted.

    In blocks of ``chunk`` queries (a million patients' neighbours at once would be a
    gigabytes-large difference array).
    """
    dist = np.empty(idx.shape)
    out = np.empty_like(idx)
    for start in range(0, idx.shape[0], chunk):
        sl = slice(start, start + chunk)
        diff = F_ref[idx[sl]] - F_query[sl, None, :]
        d = np.sqrt(np.einsum("qkd,qkd->qk", diff, diff))
        order = np.argsort(d, axis=1, kind="stable")
        dist[sl] = np.take_along_axis(d, order, axis=1)
        out[sl] = np.take_along_axis(idx[sl], order, axis=1)
    return dist, out


def _first_valid(idx: np.ndarray, k: int, exclude_self: bool,
                 rows: np.ndarray | None = None) -> np.ndarray:
    """The first ``k`` filled entries of every row (-1: an unfilled slot), without the
    row's own index when ``exclude_self``; ``-1`` where a row has fewer than ``k``.

    ``rows`` are the rows' own indices (default ``0 .. len(idx) - 1``).
    """
    own = np.arange(idx.shape[0]) if rows is None else np.asarray(rows)
    keep = idx >= 0
    if exclude_self:
        keep &= idx != own[:, None]
    rank = np.cumsum(keep, axis=1)
    keep &= rank <= k
    out = np.full((idx.shape[0], k), -1, dtype=np.intp)
    r, c = np.nonzero(keep)
    out[r, rank[r, c] - 1] = idx[r, c]
    return out


class GraphIndex:
    """Euclidean neighbours among fixed reference points, built once: NN-descent whose
    neighbours are re-scored exactly in float64, or exact search for a tiny set.

    Serves both searches of the graphs: the reference points' own neighbours
    (:meth:`self_neighbors`, read off the NN-descent graph, no search) and those of other
    points (:meth:`query`). One index per outcome class serves a class's own graph and,
    queried by the other classes, their penalty graphs.

    Parameters
    ----------
    F_ref : ndarray of shape (n_ref, d)
    degree : int
        Neighbours per point in the NN-descent graph (at least the ``k + 1`` of
        :meth:`self_neighbors`). Sets of at most ``4 * degree`` points are searched exactly.
    random_state : int or None
        Seed of NN-descent; the same seed gives the same neighbours.
    n_jobs : int or None
        Threads of NN-descent (None: all cores).
    """

    def __init__(self, F_ref: np.ndarray, *, degree: int = INDEX_NEIGHBORS,
                 random_state: int | None = 0, n_jobs: int | None = None):
        self.F_ = np.asarray(F_ref, dtype=float)
        self.degree = int(degree)
        self.exact_ = self.F_.shape[0] <= 4 * self.degree
        self.index_ = None
        if not self.exact_:
            from pynndescent import NNDescent

            self.index_ = NNDescent(self.F_.astype(np.float32), metric="euclidean",
                                    n_neighbors=self.degree, random_state=random_state,
                                    n_jobs=n_jobs)

    def self_neighbors(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Every reference point's ``k`` nearest others, sorted (``k' = min(k, n - 1)``)."""
        n = self.F_.shape[0]
        k_out = min(k, n - 1)
        if self.exact_ or k_out <= 0 or k_out + 1 > self.degree:
            return exact_knn(self.F_, self.F_, k, exclude_self=True)
        return self._finish(self.index_.neighbor_graph[0], self.F_, k_out, True)

    def query(self, F_query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` nearest reference points of other points, sorted."""
        Fq = np.asarray(F_query, dtype=float)
        k_out = min(k, self.F_.shape[0])
        if self.exact_ or k_out <= 0:
            return exact_knn(self.F_, Fq, k, exclude_self=False)
        # queries of another set (the other classes) lie off the indexed points: a broader
        # search (twice the neighbours, epsilon 0.2) keeps recall@k near 0.97 or more
        graph = self.index_.query(Fq.astype(np.float32), k=min(max(2 * k_out, 20),
                                                               self.F_.shape[0]),
                                  epsilon=0.2)[0]
        return self._finish(graph, Fq, k_out, False)

    def _finish(self, graph: np.ndarray, Fq: np.ndarray, k_out: int, exclude_self: bool
                ) -> tuple[np.ndarray, np.ndarray]:
        idx = _first_valid(graph.astype(np.intp), k_out, exclude_self)
        bad = np.flatnonzero((idx < 0).any(axis=1))
        if bad.size:  # rows NN-descent could not fill (rare): searched exactly
            ex = exact_knn(self.F_, Fq[bad], k_out + int(exclude_self), False)[1]
            idx[bad] = _first_valid(ex, k_out, exclude_self, rows=bad)
        return _sorted_exact(self.F_, Fq, idx)


def knn_graph_neighbors(
    F_ref: np.ndarray,
    F_query: np.ndarray,
    k: int,
    exclude_self: bool = False,
    *,
    method: Method = "auto",
    threshold: int = GRAPH_THRESHOLD,
    random_state: int | None = 0,
    n_jobs: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` nearest reference points of every query (Euclidean), sorted by distance.

    Parameters
    ----------
    F_ref : ndarray of shape (n_ref, d)
    F_query : ndarray of shape (n_query, d)
        With ``exclude_self``, the reference points themselves (row ``i`` is ``F_ref[i]``).
    k : int
        Neighbours per query (fewer when there are not enough reference points).
    exclude_self : bool
        Drop every query's own row from its neighbours.
    method : {"auto", "exact", "approximate"}
        ``"auto"``: exact below ``threshold`` reference points, NN-descent from it on
        (:class:`GraphIndex`; tiny sets are searched exactly all the same).
    threshold : int
    random_state : int or None
        Seed of NN-descent; the same seed gives the same neighbours.
    n_jobs : int or None
        Threads of NN-descent (None: all cores).

    Returns
    -------
    dist : ndarray of float64, shape (n_query, k')
    idx : ndarray of int, shape (n_query, k')
        ``k' = min(k, n_ref - exclude_self)``.
    """
    F_ref = np.asarray(F_ref, dtype=float)
    F_query = np.asarray(F_query, dtype=float)
    if resolve_method(method, F_ref.shape[0], threshold) == "exact":
        return exact_knn(F_ref, F_query, k, exclude_self)
    index = GraphIndex(F_ref, degree=max(k + int(exclude_self), INDEX_NEIGHBORS),
                       random_state=random_state, n_jobs=n_jobs)
    if exclude_self:
        if F_query.shape != F_ref.shape:
            raise ValueError("exclude_self needs the reference points as the queries")
        return index.self_neighbors(k)
    return index.query(F_query, k)


@functools.cache
def _lookalike_metric():
    """The look-alike metric on encoded rows ``[l, c, y * sqrt(T/s), leaf ids]`` (numba).

    ``sqrt(||y_q - y_r||^2 * T/s + T * (1 - same / c))``: ``same`` counts the trees in
    which both rows have the same leaf, ``c`` is the smaller of the two rows' counted
    trees (a reference patient's in-bag trees; every tree for a query, whose distance is
    then the model's exactly). A tree that does not count for a row holds a negative
    leaf, which never matches. One compiled function per process, so pynndescent compiles
    its search for it once.
    """
    import numba

    @numba.njit(fastmath=True)
    def lookalike(x, y):  # pragma: no cover - compiled
        n_y = int(x[0])
        acc = 0.0
        for i in range(2, n_y + 2):
            d = x[i] - y[i]
            acc += d * d
        same = 0
        for i in range(n_y + 2, x.shape[0]):
            same += (x[i] == y[i]) and (x[i] >= 0.0)
        trees = x.shape[0] - n_y - 2
        counted = max(min(x[1], y[1]), 1.0)
        return np.sqrt(max(acc + trees - same * trees / counted, 0.0))

    return lookalike


class LookalikeIndex:
    """Look-alike search among reference patients: fit once, query many times.

    The metric is the model's (:func:`sparge.method.similarity.ensemble_sqdist`):
    ``d^2 = ||y_q - y_r||^2 + forest_scale * (1 - p_qr)``, ``p_qr`` the share of the trees
    counted for the reference patient in which the query shares its leaf, or the plain
    Euclidean distance without leaves. Below ``threshold`` reference patients
    the search is exact, by the same computation as the model's (one matrix product and
    one sparse product per chunk of queries), so results are identical bit for bit; from
    ``threshold`` on, an NN-descent index (pynndescent) on the exact metric, whose
    neighbours are re-scored exactly in float64.

    Parameters
    ----------
    method : {"auto", "exact", "approximate"}
    threshold : int
        Reference patients from which ``"auto"`` is approximate.
    n_neighbors : int
        Graph degree of the NN-descent index.
    epsilon : float or None
        Search breadth of pynndescent's queries. None: 0.1 with a forest part (recall@10
        0.99 or more measured up to a million patients; its distances are the costly
        ones) and 0.2 without (0.1 gave 0.91 at a million; 0.2 with a search list of 40
        costs well under 0.1 ms per query).
    random_state : int or None
        Seed of the index; the same seed gives the same look-alikes.
    n_jobs : int or None
        Threads used to build the index (None: all cores).

    Attributes
    ----------
    method_ : {"exact", "approximate"}
    n_ref_ : int
    forest_ : bool
        Whether the metric has a forest part.
    """

    def __init__(self, *, method: Method = "auto", threshold: int = LOOKALIKE_THRESHOLD,
                 n_neighbors: int = INDEX_NEIGHBORS, epsilon: float | None = None,
                 random_state: int | None = 0, n_jobs: int | None = None):
        self.method = method
        self.threshold = threshold
        self.n_neighbors = n_neighbors
        self.epsilon = epsilon
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, Y: np.ndarray, leaves: np.ndarray | None = None,
            forest_scale: float = 0.0) -> LookalikeIndex:
        """Index the reference patients.

        Parameters
        ----------
        Y : ndarray of shape (n, l)
            Their embedding (kept by reference, not copied, when already float64).
        leaves : int ndarray of shape (n, T), optional
            Their global leaf ids (``SparGE.lookalike_parts(reference=True)``), with
            :data:`~sparge.method.proximity.NOT_COUNTED` where a tree does not count for
            the patient; None: no forest part.
        forest_scale : float
            The model's ``forest_scale_``; 0 means no forest part.
        """
        self.Y_ = np.asarray(Y, dtype=float)
        if self.Y_.ndim != 2:
            raise ValueError(f"Y must be 2-D, got shape {self.Y_.shape}")
        n = self.Y_.shape[0]
        self.forest_ = leaves is not None and float(forest_scale) > 0.0
        self.forest_scale_ = float(forest_scale) if self.forest_ else 0.0
        self.leaves_ = None
        if self.forest_:
            self.leaves_ = np.asarray(leaves)
            if self.leaves_.ndim != 2 or self.leaves_.shape[0] != n:
                raise ValueError(f"leaves of shape {self.leaves_.shape} for {n} patients")
            counted = self.leaves_ >= 0
            if np.any(self.leaves_[~counted] != NOT_COUNTED):
                raise ValueError(f"leaf ids must be >= 0 (or {NOT_COUNTED}: not counted)")
            lo = np.where(counted, self.leaves_.astype(np.int64), np.iinfo(np.int64).max
                          ).min(axis=0)
            hi = self.leaves_.max(axis=0)
            if np.any(lo[1:] <= hi[:-1]):
                raise ValueError("leaves must be global leaf ids (tree t's above tree t-1's)")
            self.counted_ = np.maximum(np.count_nonzero(counted, axis=1), 1)
        self.n_ref_ = n
        self.method_ = resolve_method(self.method, n, self.threshold)
        if self.method_ == "approximate" and n <= 4 * self.n_neighbors:
            self.method_ = "exact"  # a tiny set: exact search is cheaper and exact
        self.index_ = None
        if self.method_ == "exact":
            self.sqnorms_ = np.einsum("ij,ij->i", self.Y_, self.Y_)
            if self.forest_:  # nodes x reference patients, 0/1 (as the model holds it)
                self.n_nodes_ = int(self.leaves_.max()) + 1
                self.forest_ref_ = self._patients_by_leaf(self.leaves_, self.n_nodes_)
            return self
        from pynndescent import NNDescent

        if self.forest_:
            self.leaf_offset_ = lo.astype(np.int64)
            span = int((self.leaves_.max(axis=0) - self.leaf_offset_).max())
            # leaf ids relative to each tree's smallest one, times a power of two (exact in
            # float32) small enough to leave the index's random projections to y
            self.leaf_unit_ = float(2.0 ** -(int(np.ceil(np.log2(span + 2))) + 10))
            data, metric = self._encode(self.Y_, self.leaves_), _lookalike_metric()
        else:
            data, metric = self.Y_.astype(np.float32), "euclidean"
        self.index_ = NNDescent(data, metric=metric, n_neighbors=self.n_neighbors,
                                random_state=self.random_state, n_jobs=self.n_jobs)
        self.index_.prepare()
        return self

    @staticmethod
    def _patients_by_leaf(leaves: np.ndarray, n_nodes: int) -> sp.csr_matrix:
        """0/1 matrix (nodes x patients) of who is in which leaf (trees that do not count
        for a patient left out), built by a counting sort (no coordinate triplets: a
        third of the memory on large cohorts)."""
        n, T = leaves.shape
        flat = leaves.ravel()
        keep = flat >= 0
        indptr = np.concatenate([[0], np.cumsum(np.bincount(flat[keep],
                                                            minlength=n_nodes))])
        order = np.argsort(np.where(keep, flat, n_nodes), kind="stable")[:indptr[-1]]
        order //= T  # within a leaf: patients in order
        index_type = np.int32 if max(n, flat.size) < 2**31 else np.int64
        return sp.csr_matrix((np.ones(order.size), order.astype(index_type),
                              indptr.astype(index_type)), shape=(n_nodes, n))

    def _onehot(self, leaves: np.ndarray) -> sp.csr_matrix:
        L = np.asarray(leaves, dtype=np.int64)
        n, T = L.shape
        ok = (L >= 0) & (L < self.n_nodes_)  # a leaf no reference patient is in matches none
        rows = np.repeat(np.arange(n), T).reshape(n, T)[ok]
        return sp.csr_matrix((np.ones(rows.size), (rows, L[ok])), shape=(n, self.n_nodes_))

    def _encode(self, Y: np.ndarray, leaves: np.ndarray, chunk: int = 65536) -> np.ndarray:
        """Rows ``[l, counted trees, y * sqrt(T/s), leaf ids relative to the reference's]``
        (float32; a tree that does not count: -1, below every relative leaf id)."""
        n, l = Y.shape
        T = leaves.shape[1]
        out = np.empty((n, 2 + l + T), dtype=np.float32)
        out[:, 0] = l
        for start in range(0, n, chunk):  # bounded temporaries on a million patients
            stop = min(start + chunk, n)
            out[start:stop, 2:2 + l] = Y[start:stop] * np.sqrt(T / self.forest_scale_)
            L = np.asarray(leaves[start:stop], dtype=np.int64)
            counted = L >= 0
            out[start:stop, 1] = np.count_nonzero(counted, axis=1)
            rel = np.where(counted, L - self.leaf_offset_, 0)
            if np.abs(rel).max(initial=0) >= 2**24:
                raise ValueError("leaf ids far from the reference patients' (another forest?)")
            out[start:stop, 2 + l:] = np.where(
                counted, rel.astype(np.float32) * np.float32(self.leaf_unit_), -1.0)
        return out

    def _check_query(self, Y_query, leaves_query):
        Yq = np.atleast_2d(np.asarray(Y_query, dtype=float))
        if Yq.shape[1] != self.Y_.shape[1]:
            raise ValueError(f"queries have {Yq.shape[1]} dimensions, the index "
                             f"{self.Y_.shape[1]}")
        if not self.forest_:
            return Yq, None
        if leaves_query is None:
            raise ValueError("a model with a forest part needs the queries' leaves")
        Lq = np.atleast_2d(np.asarray(leaves_query))
        if Lq.shape != (Yq.shape[0], self.leaves_.shape[1]):
            raise ValueError(f"query leaves of shape {Lq.shape}, expected "
                             f"{(Yq.shape[0], self.leaves_.shape[1])}")
        if Lq.size and Lq.min() < 0:  # a query is in a leaf of every tree
            raise ValueError("query leaves must be leaf ids >= 0 (every tree counts for "
                             "a query)")
        return Yq, Lq

    def query(self, Y_query: np.ndarray, k: int, leaves_query: np.ndarray | None = None,
              *, chunk: int = 1024, extra_d2=None, allowed=None
              ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` nearest reference patients of every query under the look-alike metric.

        Parameters
        ----------
        Y_query : ndarray of shape (q, l)
        k : int
            Capped at the number of reference patients.
        leaves_query : int ndarray of shape (q, T)
            Required when the index has a forest part.
        chunk : int
            Queries per block (bounds the memory of a batch).
        extra_d2 : callable, optional
            ``extra_d2(queries, refs)`` (two slices) returns squared distances of shape
            (queries, refs) to add to the metric (a query-dependent term such as the
            anchoring of :mod:`sparge.method.anchoring`); with ``allowed``, ``refs`` is
            an array of reference indices. The search is then an exact scan of every
            reference patient, whatever the index's method (at most 32 queries per
            block).
        allowed : array-like, optional
            The reference patients that may be returned: a boolean mask of length
            ``n_ref`` or their indices (a user's "same sex, age within 5 years"). The
            search is then an exact scan of those patients only, and ``k`` is capped at
            their number.

        Returns
        -------
        dist, idx : ndarray of shape (q, k), sorted by distance; ``dist`` is ``sqrt(d^2)``.
        """
        if not hasattr(self, "method_"):
            raise RuntimeError("LookalikeIndex is not fitted: call fit first")
        Yq, Lq = self._check_query(Y_query, leaves_query)
        subset = None if allowed is None else self.allowed_indices(allowed)
        k = int(min(k, self.n_ref_ if subset is None else subset.size))
        if extra_d2 is not None or subset is not None:
            return self._scan(Yq, Lq, k, extra_d2, chunk=min(chunk, 32), subset=subset)
        if self.method_ == "exact":
            extra = None
            if self.forest_:
                def extra(start: int, stop: int) -> np.ndarray:
                    same = (self._onehot(Lq[start:stop]) @ self.forest_ref_).toarray()
                    return self.forest_scale_ * (1.0 - same / self.counted_[None, :])
            return knn_search(self.Y_, Yq, k, ref_sqnorms=self.sqnorms_, extra_d2=extra,
                              chunk=chunk)
        dist = np.empty((Yq.shape[0], k))
        idx = np.empty((Yq.shape[0], k), dtype=np.intp)
        if k == 0:
            return dist, idx
        # the search list: a heap of a few entries explores too little
        if self.forest_:
            k_search, eps = max(2 * k, 20), 0.1 if self.epsilon is None else self.epsilon
        else:
            k_search, eps = max(4 * k, 40), 0.2 if self.epsilon is None else self.epsilon
        k_search = min(k_search, self.n_ref_)
        for start in range(0, Yq.shape[0], chunk):
            stop = min(start + chunk, Yq.shape[0])
            y = Yq[start:stop]
            if self.forest_:
                data = self._encode(y, Lq[start:stop])
            else:
                data = y.astype(np.float32)
            cand = self.index_.query(data, k=k_search, epsilon=eps)[0]
            d2 = self._exact_sqdist(y, None if Lq is None else Lq[start:stop],
                                    cand.astype(np.intp))
            order = np.argsort(d2, axis=1, kind="stable")[:, :k]
            idx[start:stop] = np.take_along_axis(cand, order, axis=1)
            dist[start:stop] = np.sqrt(np.take_along_axis(d2, order, axis=1))
        return dist, idx

    def allowed_indices(self, allowed) -> np.ndarray:
        """The sorted indices of the reference patients ``allowed`` names (a boolean mask
        of length ``n_ref`` or indices), checked."""
        a = np.asarray(allowed)
        if a.dtype == bool:
            if a.shape != (self.n_ref_,):
                raise ValueError(f"a mask of allowed patients needs {self.n_ref_} entries, "
                                 f"got shape {a.shape}")
            return np.flatnonzero(a)
        a = np.unique(a.astype(np.intp).ravel())
        if a.size and (a[0] < 0 or a[-1] >= self.n_ref_):
            raise IndexError(f"allowed patients must lie in [0, {self.n_ref_})")
        return a

    def _scan(self, Yq: np.ndarray, Lq: np.ndarray | None, k: int, extra_d2,
              chunk: int = 32, cells: int = 2**24, subset: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
        """Exact ``k`` nearest under the metric plus ``extra_d2`` (optional): every
        reference patient (or those of ``subset``) scored, for chunks of queries and blocks
        of reference patients (one matrix product and one leaf comparison per block, at
        most ``cells`` leaf pairs at a time)."""
        q = Yq.shape[0]
        n = self.n_ref_ if subset is None else subset.size
        dist = np.empty((q, k))
        idx = np.empty((q, k), dtype=np.intp)
        if k == 0:
            return dist, idx
        trees = 1 if Lq is None else max(Lq.shape[1], 1)
        for s in range(0, q, chunk):
            rows = slice(s, min(s + chunk, q))
            Y = Yq[rows]
            block = max(1, cells // (len(Y) * trees))
            d2 = np.empty((len(Y), n))
            for start in range(0, n, block):
                cols = slice(start, min(start + block, n))
                refs = cols if subset is None else subset[cols]
                R = self.Y_[refs]
                part = (np.einsum("ij,ij->i", Y, Y)[:, None] - 2.0 * (Y @ R.T)
                        + np.einsum("ij,ij->i", R, R)[None, :])
                np.maximum(part, 0.0, out=part)
                if self.forest_:
                    same = np.count_nonzero(self.leaves_[refs][None] == Lq[rows][:, None, :],
                                            axis=2)
                    part += self.forest_scale_ * (1.0 - same / self.counted_[refs])
                d2[:, cols] = part if extra_d2 is None else part + extra_d2(rows, refs)
            top = np.argpartition(d2, k - 1, axis=1)[:, :k] if k < n else \
                np.tile(np.arange(n), (len(Y), 1))
            order = np.take_along_axis(top, np.argsort(np.take_along_axis(d2, top, axis=1),
                                                       axis=1, kind="stable"), axis=1)
            idx[rows] = order if subset is None else subset[order]
            dist[rows] = np.sqrt(np.maximum(np.take_along_axis(d2, order, axis=1), 0.0))
        return dist, idx

    def _exact_sqdist(self, Yq: np.ndarray, Lq: np.ndarray | None, cand: np.ndarray
                      ) -> np.ndarray:
        """Exact look-alike d^2 of every query to its candidates, shape (q, c)."""
        diff = self.Y_[cand] - Yq[:, None, :]
        d2 = np.einsum("qcl,qcl->qc", diff, diff)
        if self.forest_:
            same = np.count_nonzero(self.leaves_[cand] == Lq[:, None, :], axis=2)
            d2 = d2 + self.forest_scale_ * (1.0 - same / self.counted_[cand])
        d2[cand < 0] = np.inf  # a slot the index could not fill
        return d2
