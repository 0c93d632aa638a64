"""Steps 3-6 of ``fit``: codes, embedding and the joint refinement of the dictionary.

The refinement descends the trace ratio ``J(D)`` with the graphs and ``U`` fixed per
iteration (DESIGN.md: the gradient flows from ``F`` to the codes to the dictionary), with a
backtracking step on the dictionary, and keeps the iterate with the best held-out score
(early stopping on a stratified share of the training patients).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from sklearn.model_selection import train_test_split

from sparge.estimator.steps import Pipeline
from sparge.method.dictionary import normalize_atoms
from sparge.method.embedding import graph_trace_ratio, trace_ratio_grad_F
from sparge.method.sparse_coding import code_gradient_to_dictionary

Notify = Callable[..., None]
#: Backtracking halvings of the dictionary step before the refinement stops.
MAX_BACKTRACKS = 8


@dataclass
class RefinementResult:
    """What the refinement found.

    Attributes
    ----------
    dictionary : ndarray of shape (r, k)
        The dictionary (in completion scores) of the best iterate.
    best_iteration : int
    best_score : float
        Its held-out score (``NaN`` without early stopping).
    projection : ndarray of shape (d, l)
        ``U`` of the last iteration (a warm start for the final fit).
    history : list of dict
        Per iteration: ``J``, reconstruction error, sparsity, held-out score, gradient
        norm, step and ``J`` after the step.
    train_rows, heldout_rows : ndarray of int
        The early stopping's split of the training patients.
    heldout_embedding : tuple of ndarray or None
        Embedding of the fitting and held-out patients at the best iterate (fitted
        without the held-out ones); ``None`` without early stopping.
    """

    dictionary: np.ndarray
    best_iteration: int
    best_score: float
    projection: np.ndarray | None
    history: list[dict] = field(default_factory=list)
    train_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    heldout_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    heldout_embedding: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def n_iter(self) -> int:
        """Refinement steps taken (iterations after the first)."""
        return len(self.history) - 1


def heldout_split(n: int, y_idx: np.ndarray | None, validation_fraction: float, seed: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Fitting and held-out patients of the early stopping (stratified when possible).

    Returns all patients and no held-out ones when the share is too small to hold out at
    least one patient per class or leaves too few to fit on.
    """
    n_classes = 1 if y_idx is None else int(y_idx.max()) + 1
    strat = y_idx if (y_idx is not None and np.bincount(y_idx).min() >= 2) else None
    n_va = int(round(validation_fraction * n))
    if n_va >= max(2, n_classes) and n - n_va >= max(3, 2 * n_classes):
        tr, va = train_test_split(np.arange(n), test_size=n_va, stratify=strat,
                                  random_state=seed)
        return tr, va
    return np.arange(n), np.zeros(0, dtype=int)


def refine_dictionary(A: np.ndarray, y_idx: np.ndarray | None, Dr: np.ndarray,
                      pipeline: Pipeline, *, n_components: int, max_iter: int,
                      step_size: float, early_stopping: bool, validation_fraction: float,
                      n_iter_no_change: int, seed: int,
                      notify: Notify | None = None) -> RefinementResult:
    """Codes, embedding and the joint refinement of the dictionary ``Dr``.

    Parameters
    ----------
    A : ndarray of shape (n, r)
        Completed training patients (scores).
    y_idx : int ndarray of shape (n,) or None
        Outcome class indices (supervised).
    Dr : ndarray of shape (r, k)
        The initial dictionary (K-SVD).
    pipeline : Pipeline
    n_components, max_iter, step_size, early_stopping, validation_fraction, n_iter_no_change
        As in :class:`sparge.SparGE` (``n_components`` already capped at ``d``).
    seed : int
    notify : callable, optional
        ``notify(stage, **info)`` for progress.

    Returns
    -------
    RefinementResult
    """
    notify = notify or (lambda stage, **info: None)
    n, k = A.shape[0], Dr.shape[1]
    tr_idx, va_idx = np.arange(n), np.zeros(0, dtype=int)
    if early_stopping and max_iter > 0:
        tr_idx, va_idx = heldout_split(n, y_idx, validation_fraction, seed)
    y_tr = None if y_idx is None else y_idx[tr_idx]
    y_va = None if y_idx is None else y_idx[va_idx]
    A_tr, A_va = A[tr_idx], A[va_idx]

    notify("codes", progress=0.0)
    Phi = pipeline.codes(A_tr, Dr)
    notify("codes", progress=1.0, sparsity=float(np.mean(Phi == 0)))
    notify("embedding", progress=0.0)
    history: list[dict] = []
    best = {"score": -np.inf, "D": Dr.copy(), "iter": 0, "Y": None}
    U = None
    no_change = 0
    for it in range(max_iter + 1):
        F = pipeline.features(A_tr, Phi)
        Lp, Ln = pipeline.graphs(F, y_tr, seed + it)
        U = pipeline.projection(F, Lp, Ln, n_components, init=U)
        J, _, _ = graph_trace_ratio(F, U, Lp, Ln)
        score = np.nan
        if va_idx.size:
            F_va = pipeline.features(A_va, pipeline.codes(A_va, Dr))
            w = pipeline.direction_weights(F, Lp, Ln, U)
            score = pipeline.heldout_score((F @ U) * w, y_tr, (F_va @ U) * w, y_va, F_va, U,
                                           seed)
            if score > best["score"] + 1e-9:
                best = {"score": score, "D": Dr.copy(), "iter": it,
                        "Y": ((F @ U) * w, (F_va @ U) * w)}
                no_change = 0
            else:
                no_change += 1
        else:
            best = {"score": np.nan, "D": Dr.copy(), "iter": it, "Y": None}
        recon = float(np.linalg.norm(A_tr - Phi @ Dr.T) / max(np.linalg.norm(A_tr), 1e-12))
        entry = {"iteration": it, "J": J, "reconstruction_error": recon,
                 "sparsity": float(np.mean(Phi == 0)), "heldout_score": score,
                 "grad_norm": np.nan, "step": 0.0, "J_after_step": np.nan}
        history.append(entry)
        notify("refinement", progress=it / max(max_iter, 1), **entry)
        if it == max_iter or (va_idx.size and no_change >= n_iter_no_change):
            break
        step = _dictionary_step(A_tr, Dr, Phi, F, U, Lp, Ln, J, k, pipeline, step_size, entry)
        if step is None:
            break
        Dr, Phi = step
    return RefinementResult(dictionary=best["D"], best_iteration=int(best["iter"]),
                            best_score=float(best["score"]), projection=U, history=history,
                            train_rows=tr_idx, heldout_rows=va_idx,
                            heldout_embedding=best["Y"])


def _dictionary_step(A_tr, Dr, Phi, F, U, Lp, Ln, J, k, pipeline: Pipeline,
                     step_size: float, entry: dict):
    """One backtracking step of the dictionary down the gradient of ``J`` (graphs and
    ``U`` fixed): the new ``(Dr, Phi)``, or ``None`` when no step lowers ``J``. Records
    the gradient norm, the step and the new ``J`` in ``entry``."""
    gF = trace_ratio_grad_F(F, U, Lp, Ln)
    gPhi = gF[:, -k:]  # the completed block of F does not depend on D
    gD = code_gradient_to_dictionary(A_tr, Dr, Phi, gPhi, pipeline.r2)
    gnorm = float(np.linalg.norm(gD))
    entry["grad_norm"] = gnorm
    if not np.isfinite(gnorm) or gnorm < 1e-12:
        return None  # converged, or a degenerate gradient: keep the current dictionary
    step = step_size * np.linalg.norm(Dr) / gnorm
    for _ in range(MAX_BACKTRACKS):
        D_new = normalize_atoms(Dr - step * gD)
        Phi_new = pipeline.codes(A_tr, D_new, init=Phi)
        J_new, _, _ = graph_trace_ratio(pipeline.features(A_tr, Phi_new), U, Lp, Ln)
        if J_new < J:
            entry["step"] = float(step)
            entry["J_after_step"] = float(J_new)
            return D_new, Phi_new
        step *= 0.5
    return None
