"""The forest part of the look-alike metric (issue 12).

Look-alike distance is ``d^2 = ||y_q - y_i||^2 + g^2 s^2 (1 - p_qi)``: the SparGE
embedding next to random-forest proximity ``p``, ``s^2`` the embedding's mean squared
spread, ``g`` the weight. ``p_qi`` is **in-bag proximity** by default: the share of the
trees grown with training patient ``i`` (its bootstrap sample drew it) in which ``q`` falls
in ``i``'s leaf. A new patient's forest vote comes from exactly those patients of its
leaves, so this is the proximity behind the forest's own prediction; Breiman's share of all
trees (``"shared-leaf"``) also counts trees that never saw ``i`` (DEFAULTS.md round 12).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sparge.method.proximity import (
    BOOTSTRAP_MAX,
    PackedForest,
    choose_leaf_size,
    fit_leaf_forest,
    shared_leaf_share,
)

#: How the forest part measures proximity (``forest_proximity``): the trees grown with
#: the reference patient, or every tree (Breiman).
FOREST_PROXIMITIES = ("in-bag", "shared-leaf")
#: Above this many patients the trees grow on capped bootstrap samples, a patient is in
#: few of them, and in-bag proximity falls back to every tree.
INBAG_MAX_PATIENTS = BOOTSTRAP_MAX

#: What the trees may split on (``forest_inputs``): the biomarkers alone, or next to the
#: completion's low-rank scores (round 9).
FOREST_INPUTS = ("features", "features+completion")
#: A supervised model gets a forest part from this many training patients on, and when
#: every outcome has at least ``MIN_PER_OUTCOME`` of them.
MIN_PATIENTS, MIN_PER_OUTCOME = 20, 2
#: Forest weights tried by ``forest_weight="auto"`` (0: the embedding alone).
FOREST_WEIGHTS = (0.0, 0.5, 1.0, 1.5, 2.0, 4.0)
#: The weight ``"auto"`` keeps unless held-out patients show another one is better.
REFERENCE_WEIGHT = 1.5  # the fixed default (DEFAULTS.md round 9)
#: How many standard errors of the paired held-out difference a weight must win by.
SWITCH_Z = 1.0
#: Leaf sizes tried by ``forest_min_leaf="auto"``, its trees and most patients.
LEAF_SIZES = (1, 5, 20)
#: Class weights of the forest part's trees: the outcomes weighed once on all the training
#: patients, not again in every bootstrap sample (+0.006 on the sixteen tuning cohorts,
#: better on 13; DEFAULTS.md round 14).
CLASS_WEIGHT = "balanced"
LEAF_SELECT_TREES = 50
LEAF_SELECT_MAX = 2000
#: Most held-out patients the choice of the forest weight uses.
FOREST_SELECT_MAX = 2000


@dataclass
class ForestPart:
    """A fitted forest part (``forest is None``: the metric is the embedding alone).

    Attributes
    ----------
    forest : PackedForest or None
    leaves : int32 ndarray of shape (n_train, n_trees) or None
        Leaf of every training patient in every tree.
    weight : float
        ``g``.
    scale : float
        ``g^2 s^2``, the factor of ``1 - p``.
    selection : list of dict
        Held-out score of every weight tried (``forest_weight="auto"``).
    min_leaf : int or None
    counted : bool ndarray of shape (n_train, n_trees) or None
        Whether tree ``t`` counts for training patient ``i`` as a look-alike (in-bag
        proximity: the tree grew on it); ``None``: every tree counts.
    proximity : str or None
        ``"in-bag"`` or ``"shared-leaf"`` (what ``counted`` means); ``None`` without trees.
    """

    forest: PackedForest | None = None
    leaves: np.ndarray | None = None
    weight: float = 0.0
    scale: float = 0.0
    selection: list[dict] = field(default_factory=list)
    min_leaf: int | None = None
    counted: np.ndarray | None = None
    proximity: str | None = None


def fit_forest_part(Xs: np.ndarray, y_idx: np.ndarray | None, embedding: np.ndarray, *,
                    forest_weight: float | str, n_trees: int, min_leaf: int | str, seed: int,
                    heldout: tuple[np.ndarray, np.ndarray] | None = None,
                    train_rows: np.ndarray | None = None,
                    heldout_rows: np.ndarray | None = None,
                    proximity: str = "in-bag", notify=None) -> ForestPart:
    """Fit the forest part of the metric (supervised, ``forest_weight`` > 0).

    ``"auto"`` chooses ``g`` among :data:`FOREST_WEIGHTS` on the held-out training patients
    of the early stopping: their embedding from the best iterate (fitted without them,
    ``heldout``) and their **out-of-bag** proximities (trees that never saw them), so
    nothing they are scored on was learned from them.

    Parameters
    ----------
    Xs : ndarray of shape (n, m)
        Standardised training patients (``NaN`` allowed: the trees route gaps).
    y_idx : int ndarray of shape (n,) or None
    embedding : ndarray of shape (n, l)
        The final embedding of the training patients (its spread scales the forest part).
    forest_weight, n_trees, min_leaf
        ``forest_weight``, ``forest_trees`` and ``forest_min_leaf`` of the estimator.
    seed : int
    heldout : (Y_train, Y_heldout), optional
        Embedding of the early stopping's fitting and held-out patients.
    train_rows, heldout_rows : ndarray of int, optional
        Those patients' rows.
    proximity : {"in-bag", "shared-leaf"}
        ``forest_proximity`` of the estimator; in-bag becomes shared-leaf above
        :data:`INBAG_MAX_PATIENTS` patients.
    notify : callable, optional

    Returns
    -------
    ForestPart
    """
    notify = notify or (lambda stage, **info: None)
    fw = forest_weight
    if y_idx is None or fw == 0 or len(y_idx) < MIN_PATIENTS or \
            np.bincount(y_idx).min() < MIN_PER_OUTCOME:
        return ForestPart()
    has_heldout = heldout is not None and heldout_rows is not None and heldout_rows.size
    if isinstance(fw, str) and not has_heldout:
        fw = REFERENCE_WEIGHT  # "auto" without held-out patients: nothing to choose on
    notify("forest", progress=0.0)
    if isinstance(min_leaf, str):  # "auto"; one thread: small forests lose to the overhead
        min_leaf = choose_leaf_size(Xs, y_idx, LEAF_SIZES, n_estimators=LEAF_SELECT_TREES,
                                    max_rows=LEAF_SELECT_MAX, random_state=seed, n_jobs=1,
                                    class_weight=CLASS_WEIGHT)[0]
    # the same trees either way; threads pay off from a few hundred patients
    packed, leaves, oob = fit_leaf_forest(Xs, y_idx, n_estimators=int(n_trees),
                                          min_samples_leaf=int(min_leaf), random_state=seed,
                                          n_jobs=1 if len(y_idx) < 500 else -1,
                                          class_weight=CLASS_WEIGHT)
    if proximity == "in-bag" and len(y_idx) > INBAG_MAX_PATIENTS:
        proximity = "shared-leaf"
    counted = ~oob if proximity == "in-bag" else None
    selection: list[dict] = []
    if isinstance(fw, str):
        gamma, selection = choose_forest_weight(heldout[0], heldout[1], leaves, oob,
                                                packed.n_nodes, y_idx, train_rows,
                                                heldout_rows, seed, counted=counted)
    else:
        gamma = float(fw)
    notify("forest", progress=1.0, forest_weight=gamma)
    if gamma <= 0:
        return ForestPart(selection=selection)
    spread = float(np.mean(np.sum((embedding - embedding.mean(axis=0)) ** 2, axis=1)))
    return ForestPart(forest=packed, leaves=leaves.astype(np.int32), weight=gamma,
                      scale=gamma**2 * spread, selection=selection, min_leaf=int(min_leaf),
                      counted=counted, proximity=proximity)


def choose_forest_weight(Y_tr: np.ndarray, Y_va: np.ndarray, leaves: np.ndarray,
                         oob: np.ndarray, n_nodes: int, y_idx: np.ndarray,
                         tr_idx: np.ndarray, va_idx: np.ndarray, seed: int,
                         counted: np.ndarray | None = None) -> tuple[float, list[dict]]:
    """Forest weight with clearly better held-out look-alikes than :data:`REFERENCE_WEIGHT`.

    The held-out score is the mean of class-balanced precision@10 and 5-neighbour balanced
    accuracy. Both are class-weighted means of per-patient values, so the difference
    between two weights is a weighted mean of paired per-patient differences with a
    standard error; ``counted`` (in-bag proximity) limits every fitting patient to its
    own trees, as the model's look-alikes do. A weight replaces the reference only when
    its difference minus
    :data:`SWITCH_Z` standard errors is the largest and positive. Small held-out sets
    (a few dozen patients) thus keep the reference instead of following noise.

    Returns
    -------
    weight : float
    results : list of dict
        ``{"forest_weight", "heldout_score", "difference", "std_error"}`` per weight tried
        (difference and standard error against the reference weight).
    """
    rng = np.random.default_rng(seed)
    va = np.arange(len(va_idx))
    if va.size > FOREST_SELECT_MAX:  # the choice needs a sample, not every patient
        va = np.sort(rng.choice(va.size, FOREST_SELECT_MAX, replace=False))
    tr = np.arange(len(tr_idx))
    if tr.size > 10 * FOREST_SELECT_MAX:
        tr = np.sort(rng.choice(tr.size, 10 * FOREST_SELECT_MAX, replace=False))
    Yt, Yv = Y_tr[tr], Y_va[va]
    yt, yv = y_idx[tr_idx[tr]], y_idx[va_idx[va]]
    prox = shared_leaf_share(leaves[va_idx[va]], leaves[tr_idx[tr]], n_nodes,
                             trees_q=oob[va_idx[va]],
                             trees_ref=None if counted is None else counted[tr_idx[tr]])
    d2 = (np.sum(Yv**2, 1)[:, None] - 2 * Yv @ Yt.T + np.sum(Yt**2, 1)[None, :])
    spread = float(np.mean(np.sum((Yt - Yt.mean(axis=0)) ** 2, axis=1)))
    values = {g: heldout_values(d2 + g**2 * spread * (1.0 - prox), yt, yv)
              for g in sorted(set(FOREST_WEIGHTS) | {REFERENCE_WEIGHT})}
    w = class_weights(yv)
    ref = values[REFERENCE_WEIGHT]
    results, best, best_bound = [], REFERENCE_WEIGHT, 0.0
    for g in FOREST_WEIGHTS:
        diff_i = values[g] - ref
        diff = float(w @ diff_i)
        se = float(np.sqrt(np.sum(w**2 * (diff_i - diff) ** 2) * len(w) / max(len(w) - 1, 1)))
        results.append({"forest_weight": g, "heldout_score": float(w @ values[g]),
                        "difference": diff, "std_error": se})
        if diff - SWITCH_Z * se > best_bound:
            best, best_bound = g, diff - SWITCH_Z * se
    return float(best), results


def class_weights(y: np.ndarray) -> np.ndarray:
    """Per-patient weights of a class-balanced mean (every class present weighs the same)."""
    _, inv, counts = np.unique(y, return_inverse=True, return_counts=True)
    return 1.0 / (len(counts) * counts[inv])


def heldout_values(D: np.ndarray, y_ref: np.ndarray, y_q: np.ndarray, k: int = 10,
                   k_vote: int = 5) -> np.ndarray:
    """Per-patient look-alike quality: mean of the share of the ``k`` nearest with the
    patient's outcome and whether the ``k_vote`` nearest vote it (ties: smallest class).

    With :func:`class_weights` the weighted mean is the mean of class-balanced
    precision@k and k_vote-neighbour balanced accuracy.
    """
    k = min(k, D.shape[1])
    idx = np.argsort(D, axis=1, kind="stable")[:, :k]
    nb = y_ref[idx]
    hits = (nb == y_q[:, None]).mean(axis=1)
    n_classes = int(max(y_ref.max(), y_q.max())) + 1
    votes = np.zeros((len(nb), n_classes))
    np.add.at(votes, (np.repeat(np.arange(len(nb)), min(k_vote, k)),
                      nb[:, :k_vote].ravel()), 1.0)
    correct = votes.argmax(axis=1) == y_q
    return 0.5 * (hits + correct)
