"""Step 1 of ``fit``: standardise, choose the nuclear-norm weight, complete the matrix."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sparge.method.lowrank import (
    choose_lambda,
    gap_fill_ridge,
    gavish_donoho_rank,
    posterior_ridge,
    soft_impute,
    top_svd,
)
from sparge.method.preprocess import fit_standardizer, standardize


@dataclass
class CompletionFit:
    """What the completion step learned.

    Attributes
    ----------
    mean, scale : ndarray of shape (m,)
        Standardisation.
    standardized : ndarray of shape (n, m)
        The training patients standardised (``NaN`` kept).
    components : ndarray of shape (r, m)
        Orthonormal basis kept for the representation.
    ridge : ndarray of shape (r,)
        Ridge of every component when a patient is completed from its observed entries.
    fill_ridge : ndarray of shape (r,) or None
        The probabilistic-PCA ridge that fills a patient's gaps before that projection
        (:func:`sparge.method.lowrank.fill_gaps`); ``None``: no fill.
    lam : float
        Nuclear-norm weight used.
    path : dict
        Held-out errors of the candidate weights (``completion_lambda="auto"``).
    filled_singular_values, singular_values : ndarray
        Spectrum of the filled matrix before and after thresholding (teaching).
    found_rank : int
        Rank the nuclear norm left (before ``rank`` capped it).
    """

    mean: np.ndarray
    scale: np.ndarray
    standardized: np.ndarray
    components: np.ndarray
    ridge: np.ndarray
    lam: float
    filled_singular_values: np.ndarray
    singular_values: np.ndarray
    found_rank: int
    path: dict = field(default_factory=dict)
    fill_ridge: np.ndarray | None = None


def fit_completion(X: np.ndarray, *, completion_lambda: float | str, max_rank: int,
                   rank: int | str | None, completion_ridge: float | str, seed: int,
                   rng: np.random.Generator, completion_fill: str = "posterior"
                   ) -> CompletionFit:
    """Standardise ``X`` and learn its low-rank completion (soft-impute).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Training patients, ``NaN`` for missing.
    completion_lambda, max_rank, rank, completion_ridge, completion_fill
        As in :class:`sparge.SparGE`.
    seed : int
        Seed of the randomised steps.
    rng : Generator
        The estimator's generator (a truncated SVD of very wide tables draws from it).

    Returns
    -------
    CompletionFit
    """
    n, m = X.shape
    mean, scale = fit_standardizer(X)
    Xs = standardize(X, mean, scale)
    top = int(min(max_rank, n, m))
    if completion_lambda == "auto" and np.isnan(Xs).any():
        lam, path = choose_lambda(Xs, max_rank=top, random_state=seed)
    else:
        frac = 0.04 if completion_lambda == "auto" else float(completion_lambda)
        lam = frac * np.linalg.norm(np.nan_to_num(Xs), 2)
        path = {}
    res = soft_impute(Xs, lam, max_rank=top, random_state=seed)
    filled = np.where(np.isnan(Xs), res.scores @ res.components, Xs)
    if rank == "auto" or filled.size < 2_000_000:
        filled_sv = np.linalg.svd(filled, compute_uv=False)
    else:  # only the leading ones are plotted; a full SVD of a wide table is costly
        filled_sv = top_svd(filled, min(60, min(filled.shape)), rng)[1]
    r = res.components.shape[0]
    if rank == "auto":
        r = min(r, gavish_donoho_rank(filled_sv, Xs.shape))
    elif rank is not None:
        r = min(r, int(rank))
    if isinstance(completion_ridge, str):
        ridge = posterior_ridge(Xs, res.scores[:, :r], res.components[:r])
    else:
        ridge = np.full(r, float(completion_ridge))
    fill = None
    if completion_fill == "posterior":
        fill = gap_fill_ridge(Xs, res.components[:r], filled)[0]
    return CompletionFit(mean=mean, scale=scale, standardized=Xs, fill_ridge=fill,
                         components=res.components[:r], ridge=ridge, lam=float(lam),
                         filled_singular_values=filled_sv,
                         singular_values=res.singular_values,
                         found_rank=int(res.components.shape[0]), path=path)
