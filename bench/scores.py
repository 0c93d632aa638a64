"""Look-alike measures shared by the benchmarks."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.metrics import balanced_accuracy_score
from sklearn.neighbors import KNeighborsClassifier, NearestNeighbors

from sparge.method.similarity import knn_search, precision_at_k


def lookalike_scores(Ztr, ytr: np.ndarray, Zte, yte: np.ndarray) -> dict[str, float]:
    """kNN balanced accuracy (k=5) and precision@10, plain and class-balanced.

    Parameters
    ----------
    Ztr, Zte : ndarray or sparse matrix
        Training and test patients in the representation compared (sparse: leaf codes of
        the tree peers, whose Euclidean distance is a Hamming distance).
    ytr, yte : ndarray
        Their outcomes.

    Returns
    -------
    dict
        ``knn_bal_acc``, ``p@10`` (share of the 10 nearest training patients with the
        query's outcome) and ``p@10_balanced`` (its mean over outcome classes).
    """
    knn = KNeighborsClassifier(n_neighbors=5, algorithm="brute").fit(Ztr, ytr)
    if sp.issparse(Ztr):
        idx = NearestNeighbors(n_neighbors=10, algorithm="brute").fit(Ztr).kneighbors(
            Zte, return_distance=False)
    else:
        _, idx = knn_search(Ztr, Zte, 10)
    return {"knn_bal_acc": balanced_accuracy_score(yte, knn.predict(Zte)),
            "p@10": precision_at_k(ytr[idx], yte, balanced=False),
            "p@10_balanced": precision_at_k(ytr[idx], yte, balanced=True)}


def scores(D: np.ndarray, y_ref: np.ndarray, y_q: np.ndarray) -> tuple[float, float]:
    """kNN(5) balanced accuracy and class-balanced precision@10 from query × reference
    distances (``y`` as class indices)."""
    return neighbor_scores(np.argsort(D, axis=1, kind="stable")[:, :10], y_ref, y_q)


def neighbor_scores(idx: np.ndarray, y_ref: np.ndarray, y_q: np.ndarray
                    ) -> tuple[float, float]:
    """The same from every query's 10 nearest reference patients, nearest first."""
    vote = np.array([np.bincount(y_ref[row[:5]], minlength=y_ref.max() + 1).argmax()
                     for row in idx])
    hits = (y_ref[idx[:, :10]] == y_q[:, None]).mean(axis=1)
    p10 = float(np.mean([hits[y_q == c].mean() for c in np.unique(y_q)]))
    return float(balanced_accuracy_score(y_q, vote)), p10
