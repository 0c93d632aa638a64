"""Random-forest proximity (Breiman): the strongest peer of SparGE's look-alikes.

Two patients are as similar as the share of trees in which they fall in the same leaf.
Each tree's leaf index becomes a one-hot block scaled by ``1/sqrt(2T)``, so that the
squared Euclidean distance between two patients' leaf codes is ``1 - proximity`` exactly
(a Hamming distance on leaf codes): look-alikes are a kNN search on sparse rows, never an
n x n proximity matrix. Used by the held-out look-alike check (:mod:`sparge.lookalike_check`)
and by the benchmarks.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.validation import check_is_fitted

from .similarity import precision_at_k


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

    Attributes
    ----------
    forest_ : RandomForestClassifier
    min_samples_leaf_ : int
    codes_ : csr_matrix (n_train, n_leaves)
        Leaf codes of the training patients.
    """

    def __init__(self, n_estimators: int = 300, min_samples_leaf: int | str = "auto",
                 leaf_sizes: tuple[int, ...] = (1, 5, 20), select_estimators: int = 100,
                 random_state: int | None = 0, n_jobs: int = 1):
        self.n_estimators = n_estimators
        self.min_samples_leaf = min_samples_leaf
        self.leaf_sizes = leaf_sizes
        self.select_estimators = select_estimators
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _forest(self, msl: int, n: int) -> RandomForestClassifier:
        return RandomForestClassifier(n_estimators=n, min_samples_leaf=msl,
                                      class_weight="balanced_subsample",
                                      max_features="sqrt", n_jobs=self.n_jobs,
                                      random_state=self.random_state)

    def _choose_leaf_size(self, X: np.ndarray, y: np.ndarray) -> int:
        sizes = tuple(self.leaf_sizes)
        _, counts = np.unique(y, return_counts=True)
        if len(sizes) == 1 or counts.min() < 2 or len(y) < 20:
            return int(sizes[0] if len(sizes) == 1 else 5)
        a, b = train_test_split(np.arange(len(y)), test_size=0.3, stratify=y,
                                random_state=self.random_state)
        best, best_score = sizes[0], -np.inf
        for msl in sizes:
            rf = self._forest(msl, self.select_estimators).fit(X[a], y[a])
            w = np.asarray([t.tree_.node_count for t in rf.estimators_])
            Za, Zb = leaf_codes(rf.apply(X[a]), w), leaf_codes(rf.apply(X[b]), w)
            k = min(10, len(a))
            idx = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(Za).kneighbors(
                Zb, return_distance=False)
            score = precision_at_k(y[a][idx], y[b], balanced=True)
            if score > best_score:
                best, best_score = msl, score
        return int(best)

    def fit(self, X, y) -> ForestProximity:
        """Grow the forest on the training patients (``NaN`` gaps allowed)."""
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        msl = (self._choose_leaf_size(X, y) if self.min_samples_leaf == "auto"
               else int(self.min_samples_leaf))
        self.min_samples_leaf_ = msl
        self.forest_ = self._forest(msl, self.n_estimators).fit(X, y)
        self.widths_ = np.asarray([t.tree_.node_count for t in self.forest_.estimators_])
        self.codes_ = self.transform(X)
        return self

    def transform(self, X) -> sp.csr_matrix:
        """Leaf codes of patients (sparse; ``NaN`` gaps follow the trees' missing rule)."""
        check_is_fitted(self, "forest_")
        return leaf_codes(self.forest_.apply(np.asarray(X, dtype=float)), self.widths_)

    def kneighbors(self, X, n_neighbors: int = 10) -> tuple[np.ndarray, np.ndarray]:
        """Look-alikes among the training patients: ``(1 - proximity, index)``."""
        check_is_fitted(self, "codes_")
        nn = NearestNeighbors(n_neighbors=min(n_neighbors, self.codes_.shape[0]),
                              algorithm="brute").fit(self.codes_)
        d, idx = nn.kneighbors(self.transform(X))
        return np.square(d), idx
