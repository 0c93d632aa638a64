"""The steps every SparGE representation goes through, with the settings they share.

:class:`Pipeline` holds the estimator's parameters that the steps need (nothing learned)
and composes the method core's pure functions: completion of a patient from its observed
entries, sparse codes, the representation ``F``, the MFA (or unsupervised) graphs, the
trace-ratio projection, the per-direction metric weights and the held-out score of the
early stopping. ``fit``, the refinement and every query use the same object, so a patient
is represented the same way during training and afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from sparge.method.embedding import graph_trace_ratio, trace_ratio
from sparge.method.graphs import laplacian, mfa_graphs, scatter, unsupervised_graphs
from sparge.method.lowrank import completion_scores
from sparge.method.preprocess import unit_norm_rows
from sparge.method.similarity import knn_search, precision_at_k
from sparge.method.sparse_coding import sparse_encode


@dataclass(frozen=True)
class Pipeline:
    """Settings of the representation steps (see :class:`sparge.SparGE` for each).

    Parameters
    ----------
    representation : {"codes", "codes+completed"}
    normalize_rows : bool
    r1, r2 : float
    k1, k2 : int
    graph_weight : {"heat", "binary"}
    class_balance : bool
    trace_ratio_reg : float
    metric_weighting : {"ratio", "none"}
    neighbor_search : {"auto", "exact", "approximate"}
    """

    representation: str
    normalize_rows: bool
    r1: float
    r2: float
    k1: int
    k2: int
    graph_weight: str
    class_balance: bool
    trace_ratio_reg: float
    metric_weighting: str
    neighbor_search: str = "auto"

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Pipeline:
        """The pipeline of an estimator's ``get_params()``."""
        return cls(**{name: params[name] for name in cls.__dataclass_fields__})

    def complete(self, Xs: np.ndarray, components: np.ndarray, ridge: np.ndarray,
                 fill_ridge: np.ndarray | None = None,
                 bounds: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """Completion scores of standardised patients (unit rows if ``normalize_rows``);
        gaps filled within ``bounds`` (:func:`sparge.method.lowrank.fill_gaps`)."""
        return self.normalize(completion_scores(Xs, components, ridge, fill_ridge, bounds))

    def normalize(self, S: np.ndarray) -> np.ndarray:
        """The paper's row normalisation of completion scores (when switched on)."""
        return unit_norm_rows(S) if self.normalize_rows else S

    def codes(self, A: np.ndarray, Dr: np.ndarray, init: np.ndarray | None = None,
              lipschitz: float | None = None) -> np.ndarray:
        """Elastic-net sparse codes of completed patients on the dictionary ``Dr``."""
        return sparse_encode(A, Dr, self.r1, self.r2, init=init, lipschitz=lipschitz)

    def features(self, A: np.ndarray, Phi: np.ndarray) -> np.ndarray:
        """The representation that the embedding projects: ``[A, Phi]`` (or ``Phi``).

        The codes come last: the refinement's gradient reads them there.
        """
        if self.representation == "codes":
            return Phi
        return np.hstack([A, Phi])

    def graph_weights(self, F: np.ndarray, y_idx: np.ndarray | None, seed: int
                      ) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """Intrinsic and penalty graphs (MFA with outcomes, else local / non-local)."""
        if y_idx is not None:
            return mfa_graphs(F, y_idx, self.k1, self.k2, weight=self.graph_weight,
                              class_balance=self.class_balance,
                              neighbors=self.neighbor_search, random_state=seed)
        return unsupervised_graphs(F, self.k1, random_state=seed,
                                   neighbors=self.neighbor_search)

    def graphs(self, F: np.ndarray, y_idx: np.ndarray | None, seed: int
               ) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """Laplacians of the intrinsic and penalty graphs."""
        Wp, Wn = self.graph_weights(F, y_idx, seed)
        return laplacian(Wp), laplacian(Wn)

    def projection(self, F: np.ndarray, Lp: sp.spmatrix, Ln: sp.spmatrix, l: int,
                   init: np.ndarray | None = None) -> np.ndarray:
        """Trace-ratio projection ``U`` (orthonormal columns) of the representation."""
        U, _, _ = trace_ratio(scatter(F, Lp), scatter(F, Ln), l, reg=self.trace_ratio_reg,
                              init=init)
        return U

    def direction_weights(self, F: np.ndarray, Lp: sp.spmatrix, Ln: sp.spmatrix,
                          U: np.ndarray) -> np.ndarray:
        """Weight of every embedding direction: ``1/sqrt`` of its own trace ratio
        (normalised to mean square 1), or all ones with ``metric_weighting="none"``."""
        l = U.shape[1]
        if self.metric_weighting == "none":
            return np.ones(l)
        Y = F @ U
        # Laplacian quadratic forms are >= 0; rounding made a flat direction's slightly
        # negative, and its weight NaN, and with it the whole embedding (a lecture's toy
        # model at λ = 0.5 kept one completion component and drew an empty map)
        num = np.maximum(np.einsum("ij,ij->j", Y, Lp @ Y), 0.0)
        den = np.maximum(np.einsum("ij,ij->j", Y, Ln @ Y), 0.0)
        tiny = 1e-12 * (max(float(num.max()), float(den.max())) + 1e-300)
        w = 1.0 / np.sqrt((num + tiny) / (den + tiny))  # a direction flat in both: 1
        return w / np.sqrt(np.mean(w**2))

    def heldout_score(self, Y_tr: np.ndarray, y_tr: np.ndarray | None, Y_va: np.ndarray,
                      y_va: np.ndarray | None, F_va: np.ndarray, U: np.ndarray, seed: int
                      ) -> float:
        """Early-stopping score of held-out patients (higher is better): class-balanced
        precision@10 of their look-alikes, or (unsupervised) minus their trace ratio."""
        if y_tr is not None:
            k = min(10, Y_tr.shape[0])
            idx = knn_search(Y_tr, Y_va, k)[1]
            return precision_at_k(y_tr[idx], y_va, balanced=True)
        Lp, Ln = self.graphs(F_va, None, seed)
        return -graph_trace_ratio(F_va, U, Lp, Ln)[0]
