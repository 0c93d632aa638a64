"""Random-forest proximity (Breiman): the strongest peer of SparGE's look-alikes.

Two patients are as similar as the share of trees in which they fall in the same leaf.
Each tree's leaf index becomes a one-hot block scaled by ``1/sqrt(2T)``, so that the
squared Euclidean distance between two patients' leaf codes is ``1 - proximity`` exactly
(a Hamming distance on leaf codes): look-alikes are a kNN search on sparse rows, never an
n x n proximity matrix. Used by the held-out look-alike check
(:mod:`sparge.services.lookalike_check`) and by the benchmarks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.validation import check_is_fitted

from sparge.method.similarity import precision_at_k


def leaf_codes(leaves: np.ndarray, widths: np.ndarray) -> sp.csr_matrix:
    """Per-tree leaf indices (n, T) -> sparse one-hot rows scaled by ``1/sqrt(2T)``.

    ``widths[t]`` is the number of node ids of tree ``t`` (leaf ids lie below it).
    """
    L = np.asarray(leaves, dtype=np.int64).reshape(len(leaves), -1)
    T = L.shape[1]
    offset = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    cols = (L + offset[None, :]).ravel()
    rows = np.repeat(np.arange(len(L)), T)
    val = np.full(cols.size, 1.0 / np.sqrt(2.0 * T))
    return sp.csr_matrix((val, (rows, cols)), shape=(len(L), int(np.sum(widths))))


@functools.cache
def _walk_trees():
    """The compiled tree walk of :meth:`PackedForest.apply` (numba, cached on disk)."""
    import numba

    @numba.njit(parallel=True, cache=True)
    def walk(X, left, right, feature, threshold, missing_left, offsets, out):  # pragma: no cover
        n, T = out.shape
        for i in numba.prange(n):
            for t in range(T):
                node = offsets[t]
                while left[node] >= 0:
                    x = X[i, feature[node]]
                    if np.isnan(x):
                        go_left = missing_left[node]
                    else:
                        go_left = x <= threshold[node]
                    node = left[node] if go_left else right[node]
                out[i, t] = node

    return walk


def warm_up() -> None:
    """Load the compiled tree walk now (numba's import and its on-disk cache, about half a
    second) rather than in a patient's first look-alike query: a one-node tree applied to
    one row, with the argument types of :meth:`PackedForest.apply`."""
    stump = PackedForest(left=np.array([-1], np.int64), right=np.array([-1], np.int64),
                         feature=np.array([-2], np.int64), threshold=np.zeros(1),
                         missing_left=np.zeros(1, bool), offsets=np.zeros(1, np.int64))
    stump.apply(np.zeros((1, 1)))


@dataclass
class PackedForest:
    """The trees of a fitted forest as flat arrays, for fast leaf look-ups of a few patients.

    ``RandomForestClassifier.apply`` loops over trees in Python (tens of milliseconds for
    one patient and a few hundred trees); :meth:`apply` walks every tree at once with
    vectorised numpy, which keeps a one-patient look-alike query in the millisecond range.
    Node ids are global (tree ``t``'s nodes are offset by ``offsets[t]``).
    """

    left: np.ndarray  # int64, global child ids, -1 at leaves
    right: np.ndarray
    feature: np.ndarray  # int64, -2 at leaves
    threshold: np.ndarray  # float64
    missing_left: np.ndarray  # bool: where a missing value goes
    offsets: np.ndarray  # int64 (T,): global id of every tree's root

    @classmethod
    def from_estimators(cls, estimators) -> PackedForest:
        """Pack fitted scikit-learn decision trees (e.g. ``forest.estimators_``)."""
        trees = [e.tree_ for e in estimators]
        sizes = np.asarray([t.node_count for t in trees], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)

        def glob(child, off):
            child = np.asarray(child, dtype=np.int64)
            return np.where(child >= 0, child + off, -1)

        return cls(
            left=np.concatenate([glob(t.children_left, o) for t, o in zip(trees, offsets)]),
            right=np.concatenate([glob(t.children_right, o) for t, o in zip(trees, offsets)]),
            feature=np.concatenate([np.asarray(t.feature, np.int64) for t in trees]),
            threshold=np.concatenate([np.asarray(t.threshold, float) for t in trees]),
            missing_left=np.concatenate([np.asarray(t.missing_go_to_left, bool)
                                         for t in trees]),
            offsets=offsets)

    @property
    def n_nodes(self) -> int:
        return int(self.left.size)

    def apply(self, X: np.ndarray) -> np.ndarray:
        """Global leaf id of every patient in every tree, shape (n, T).

        Same result as the forest's ``apply`` (plus the offsets): values are compared in
        float32 as scikit-learn's trees do, and a missing value follows the node's
        ``missing_go_to_left`` rule. One compiled loop (numba, parallel over patients):
        about a microsecond per patient and tree.
        """
        X = np.ascontiguousarray(np.asarray(X, dtype=np.float32).astype(np.float64))
        out = np.empty((X.shape[0], self.offsets.size), dtype=np.int64)
        _walk_trees()(X, self.left, self.right, self.feature, self.threshold,
                      self.missing_left.astype(np.bool_), self.offsets, out)
        return out

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Plain numeric arrays (for saving without pickle)."""
        return {"forest_left": self.left, "forest_right": self.right,
                "forest_feature": self.feature, "forest_threshold": self.threshold,
                "forest_missing_left": self.missing_left.astype(np.int8),
                "forest_offsets": self.offsets}

    @classmethod
    def from_arrays(cls, a: dict[str, np.ndarray]) -> PackedForest:
        """Inverse of :meth:`to_arrays`, with consistency checks (ValueError)."""
        f = cls(left=np.asarray(a["forest_left"], np.int64),
                right=np.asarray(a["forest_right"], np.int64),
                feature=np.asarray(a["forest_feature"], np.int64),
                threshold=np.asarray(a["forest_threshold"], float),
                missing_left=np.asarray(a["forest_missing_left"]).astype(bool),
                offsets=np.asarray(a["forest_offsets"], np.int64))
        n = f.left.size
        if not (f.right.size == f.feature.size == f.threshold.size == f.missing_left.size
                == n) or f.offsets.size == 0:
            raise ValueError("forest arrays of different lengths")
        for child in (f.left, f.right):
            if child.min(initial=-1) < -1 or child.max(initial=-1) >= n:
                raise ValueError("forest child ids out of range")
        if f.offsets.min() < 0 or f.offsets.max() >= n:
            raise ValueError("forest root ids out of range")
        internal = f.left >= 0
        if np.any(f.right[internal] < 0) or np.any(f.left[internal] <= np.flatnonzero(
                internal)) or np.any(f.right[internal] <= np.flatnonzero(internal)):
            raise ValueError("forest children must come after their parents")
        return f


class ForestProximity(TransformerMixin, BaseEstimator):
    """Patients -> sparse leaf codes whose Euclidean distance is ``sqrt(1 - proximity)``.

    Parameters
    ----------
    n_estimators : int
        Trees of the final forest.
    min_samples_leaf : int or "auto"
        "auto" chooses among ``leaf_sizes`` by class-balanced precision@10 of the
        look-alikes on a stratified 30 % part of the training patients.
    leaf_sizes : tuple of int
    select_estimators : int
        Trees of the forests that choose the leaf size.
    random_state : int or None
    n_jobs : int
    class_weight : str
        How the trees weigh the outcomes, one of :data:`CLASS_WEIGHTS`. The default
        reweights them inside every bootstrap sample, as issue 12 set up the peer;
        "balanced" weighs them once from all the training patients, as SparGE's forest
        part does (round 14 of ``bench/results/DEFAULTS.md``).

    Attributes
    ----------
    forest_ : RandomForestClassifier
    min_samples_leaf_ : int
    codes_ : csr_matrix (n_train, n_leaves)
        Leaf codes of the training patients.
    """

    def __init__(self, n_estimators: int = 300, min_samples_leaf: int | str = "auto",
                 leaf_sizes: tuple[int, ...] = (1, 5, 20), select_estimators: int = 100,
                 random_state: int | None = 0, n_jobs: int = 1,
                 class_weight: str = "balanced_subsample"):
        self.n_estimators = n_estimators
        self.min_samples_leaf = min_samples_leaf
        self.leaf_sizes = leaf_sizes
        self.select_estimators = select_estimators
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.class_weight = class_weight

    def _forest(self, msl: int, n: int) -> RandomForestClassifier:
        return balanced_forest(n, msl, random_state=self.random_state, n_jobs=self.n_jobs,
                               class_weight=self.class_weight)

    def _choose_leaf_size(self, X: np.ndarray, y: np.ndarray) -> int:
        return choose_leaf_size(X, y, self.leaf_sizes, n_estimators=self.select_estimators,
                                random_state=self.random_state, n_jobs=self.n_jobs,
                                class_weight=self.class_weight)[0]

    def fit(self, X, y) -> ForestProximity:
        """Grow the forest on the training patients (``NaN`` gaps allowed)."""
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        msl = (self._choose_leaf_size(X, y) if self.min_samples_leaf == "auto"
               else int(self.min_samples_leaf))
        self.min_samples_leaf_ = msl
        self.forest_ = self._forest(msl, self.n_estimators).fit(X, y)
        self.packed_ = PackedForest.from_estimators(self.forest_.estimators_)
        self.widths_ = np.asarray([t.tree_.node_count for t in self.forest_.estimators_])
        self.codes_ = self.transform(X)
        return self

    def transform(self, X) -> sp.csr_matrix:
        """Leaf codes of patients (sparse; ``NaN`` gaps follow the trees' missing rule).

        Leaves come from :class:`PackedForest` (every tree at once), so a single patient
        is coded in about a millisecond.
        """
        check_is_fitted(self, "packed_")
        leaves = self.packed_.apply(np.asarray(X, dtype=float)) - self.packed_.offsets
        return leaf_codes(leaves, self.widths_)

    def kneighbors(self, X, n_neighbors: int = 10) -> tuple[np.ndarray, np.ndarray]:
        """Look-alikes among the training patients: ``(1 - proximity, index)``."""
        check_is_fitted(self, "codes_")
        nn = NearestNeighbors(n_neighbors=min(n_neighbors, self.codes_.shape[0]),
                              algorithm="brute").fit(self.codes_)
        d, idx = nn.kneighbors(self.transform(X))
        return np.square(d), idx



def onehot_leaves(leaves: np.ndarray, n_nodes: int, trees: np.ndarray | None = None
                  ) -> sp.csr_matrix:
    """Rows of global leaf ids (n, T) -> 0/1 sparse rows over the forest's nodes.

    ``trees`` (bool, (n, T)) keeps only some trees per row (e.g. out-of-bag trees).
    """
    L = np.asarray(leaves, dtype=np.int64)
    n, T = L.shape
    keep = np.ones((n, T), bool) if trees is None else np.asarray(trees, bool)
    rows = np.repeat(np.arange(n), T).reshape(n, T)[keep]
    return sp.csr_matrix((np.ones(rows.size), (rows, L[keep])), shape=(n, n_nodes))


#: Most patients a tree of :func:`fit_leaf_forest` grows on (its bootstrap sample).
BOOTSTRAP_MAX = 20_000
#: Leaf id of a tree that does not count for a reference patient (in-bag proximity).
NOT_COUNTED = -1


def reference_leaves(leaves: np.ndarray, counted: np.ndarray | None) -> np.ndarray:
    """Reference patients' leaves with :data:`NOT_COUNTED` where a tree does not count.

    ``counted`` (bool, same shape; ``None``: every tree counts) is, for in-bag proximity,
    whether tree ``t`` grew on patient ``i`` (its bootstrap sample drew it).
    """
    L = np.asarray(leaves)
    return L if counted is None else np.where(np.asarray(counted, bool), L, NOT_COUNTED)


def shared_leaf_share(leaves_q: np.ndarray, leaves_ref: np.ndarray, n_nodes: int,
                      trees_q: np.ndarray | None = None,
                      trees_ref: np.ndarray | None = None) -> np.ndarray:
    """Forest proximity of queries to reference patients, shape (q, n_ref).

    The share of trees in which a query and a reference patient fall in the same leaf,
    among the trees that count for both: with ``trees_q`` only the query's chosen trees
    (out-of-bag proximity: trees that never saw the query), with ``trees_ref`` only the
    reference patient's (in-bag proximity: trees grown with it). Sparse and dense
    products, no loop over patients or trees.
    """
    Q = onehot_leaves(leaves_q, n_nodes, trees_q)
    R = onehot_leaves(leaves_ref, n_nodes, trees_ref)
    counts = (Q @ R.T).toarray()
    if trees_ref is None:
        per_row = np.asarray(Q.sum(axis=1)).ravel()
        return counts / np.maximum(per_row, 1.0)[:, None]
    mq = (np.ones(np.shape(leaves_q)) if trees_q is None
          else np.asarray(trees_q, float))
    return counts / np.maximum(mq @ np.asarray(trees_ref, float).T, 1.0)


#: How the forests here balance the outcomes: "balanced_subsample" reweights the classes
#: in every bootstrap sample (the benchmark's forest-proximity peer, as issue 12 set it);
#: "balanced" weighs them once on all the training patients (SparGE's forest part,
#: DEFAULTS.md round 14).
CLASS_WEIGHTS = ("balanced_subsample", "balanced")


def balanced_forest(n_estimators: int, min_samples_leaf: int, *,
                    random_state: int | None = 0, n_jobs: int | None = 1,
                    max_samples: int | None = None,
                    class_weight: str = "balanced_subsample") -> RandomForestClassifier:
    """The unfitted class-balanced forest behind every proximity here (``sqrt`` features
    per split; ``class_weight`` one of :data:`CLASS_WEIGHTS`)."""
    if class_weight not in CLASS_WEIGHTS:
        raise ValueError(f"class_weight must be one of {CLASS_WEIGHTS}, got {class_weight!r}")
    return RandomForestClassifier(n_estimators=n_estimators, min_samples_leaf=min_samples_leaf,
                                  class_weight=class_weight, max_features="sqrt",
                                  max_samples=max_samples, n_jobs=n_jobs,
                                  random_state=random_state)


def choose_leaf_size(X: np.ndarray, y: np.ndarray, sizes: tuple[int, ...] = (1, 5, 20), *,
                     n_estimators: int = 100, max_rows: int | None = None,
                     random_state: int | None = 0, n_jobs: int = 1,
                     class_weight: str = "balanced_subsample"
                     ) -> tuple[int, dict[int, float]]:
    """The smallest leaf whose forest gives the best look-alikes on held-out patients.

    A class-balanced forest of ``n_estimators`` trees per candidate grows on a stratified
    70 % of the patients (of at most ``max_rows`` of them); each is scored by the
    class-balanced precision@10 of the other 30 %'s look-alikes (forest proximity).
    Deep trees (leaf 1) suit large, balanced cohorts; larger leaves smooth the proximity
    where an outcome is rare.

    Returns
    -------
    size : int
        The best candidate (the first on ties); 5 when the patients are too few to hold
        out any (fewer than 20, or a class with a single patient).
    scores : dict
        ``{size: held-out precision}`` (empty without a choice).
    """
    sizes = tuple(int(v) for v in sizes)
    y = np.asarray(y)
    _, counts = np.unique(y, return_counts=True)
    if len(sizes) == 1:
        return sizes[0], {}
    if counts.min() < 2 or len(y) < 20:
        return 5, {}
    rows = np.arange(len(y))
    if max_rows is not None and len(y) > max_rows:
        rows = train_test_split(rows, train_size=max_rows, stratify=y,
                                random_state=random_state)[0]
    strat = y[rows] if np.unique(y[rows], return_counts=True)[1].min() >= 2 else None
    a, b = train_test_split(rows, test_size=0.3, stratify=strat, random_state=random_state)
    scores: dict[int, float] = {}
    for msl in sizes:
        rf = balanced_forest(n_estimators, msl, random_state=random_state,
                             n_jobs=n_jobs, class_weight=class_weight).fit(X[a], y[a])
        w = np.asarray([t.tree_.node_count for t in rf.estimators_])
        Za, Zb = leaf_codes(rf.apply(X[a]), w), leaf_codes(rf.apply(X[b]), w)
        idx = NearestNeighbors(n_neighbors=min(10, len(a)), algorithm="brute").fit(
            Za).kneighbors(Zb, return_distance=False)
        scores[msl] = precision_at_k(y[a][idx], y[b], balanced=True)
    best = max(sizes, key=lambda v: (scores[v], -sizes.index(v)))
    return int(best), scores


def fit_leaf_forest(X: np.ndarray, y: np.ndarray, *, n_estimators: int = 200,
                    min_samples_leaf: int = 5, max_samples: int = BOOTSTRAP_MAX,
                    random_state: int | None = 0, n_jobs: int = -1,
                    class_weight: str = "balanced_subsample"
                    ) -> tuple[PackedForest, np.ndarray, np.ndarray]:
    """A class-balanced random forest for look-alike proximity, packed.

    Each tree grows on a bootstrap sample of at most ``max_samples`` patients, which
    bounds the time and the size of the forest (its leaves) on hospital-sized cohorts;
    every training patient still gets its leaves.

    Returns
    -------
    forest : PackedForest
    leaves : ndarray of int64, shape (n, T)
        Global leaf id of every training patient in every tree.
    oob : ndarray of bool, shape (n, T)
        True where tree ``t`` did not see patient ``i`` (out of its bootstrap sample).
    """
    n = len(y)
    rf = balanced_forest(n_estimators, min_samples_leaf, random_state=random_state,
                         n_jobs=n_jobs, max_samples=max_samples if n > max_samples else None,
                         class_weight=class_weight)
    rf.fit(np.asarray(X, dtype=float), y)
    packed = PackedForest.from_estimators(rf.estimators_)
    # every training patient at once: scikit-learn's compiled walk is the faster one here
    # (PackedForest.apply gives the same leaves and wins for a few patients)
    leaves = rf.apply(np.asarray(X, dtype=float)).astype(np.int64) + packed.offsets
    oob = np.ones(leaves.shape, bool)
    for t, inbag in enumerate(rf.estimators_samples_):
        oob[inbag, t] = False
    return packed, leaves, oob
