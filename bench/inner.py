"""Inner-validation pieces shared by the tuning scripts (training splits only).

``inner_score`` is the score every round of ``bench/results/DEFAULTS.md`` decides on: the
mean of kNN(5) balanced accuracy and class-balanced precision@10 of the inner validation
patients, from a matrix of distances to the inner training patients. ``metric_parts``
scores every part of SparGE's look-alike metric on one inner split.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections.abc import Iterator

import numpy as np
import pandas as pd

from bench.cohorts import BROAD_COHORTS, COHORTS, encoded
from bench.common import hide_values
from bench.scores import neighbor_scores
from bench.splits import inner_split, stratified_splits
from sparge import SparGE
from sparge.estimator.forest_part import class_weights, heldout_values
from sparge.method.proximity import shared_leaf_share
from sparge.method.similarity import ensemble_sqdist


def tuning_splits(max_rows: int | None = None, cohorts: list[str] | None = None
                  ) -> Iterator[tuple[str, int, np.ndarray, np.ndarray, np.ndarray,
                                      np.ndarray]]:
    """The inner splits every tuning round decides on (training splits only).

    Sixteen tuning cohorts: 6 outer splits for the development cohorts capped at 2,500
    patients, 3 for the broad ones at 3,000; with ``max_rows`` every cohort is cut to that
    many patients with 6 outer splits. ``cohorts`` keeps the named ones (another cohort
    named gets 3 outer splits). Each outer training split is split again 70/30.

    Yields
    ------
    cohort, split, X, y, itr, iva
        The encoded cohort, its outcome, and the inner training and validation rows.
    """
    if max_rows:
        plan = [(c, 6, max_rows) for c in COHORTS + BROAD_COHORTS]
    else:
        plan = [(c, 6, 2500) for c in COHORTS] + [(c, 3, 3000) for c in BROAD_COHORTS]
    if cohorts:
        known = {c for c, _, _ in plan}
        plan = [t for t in plan if t[0] in cohorts] + [
            (c, 3, max_rows or 3000) for c in cohorts if c not in known]
    for cohort, outer, cap in plan:
        X, y, _ = encoded(cohort, max_rows=cap)
        for s, tr, _ in stratified_splits(y, outer, seed=0):
            itr, iva = inner_split(tr, y, seed=s)
            yield cohort, s, X, y, itr, iva


def inner_outcomes(y_text: np.ndarray, itr: np.ndarray, iva: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The inner training and validation patients' outcomes as class indices (the classes
    of the inner training patients)."""
    classes = np.unique(y_text[itr])
    return np.searchsorted(classes, y_text[itr]), np.searchsorted(classes, y_text[iva])


def tuning_args(doc: str, extra=None) -> argparse.Namespace:
    """A tuning script's command line: ``OUT.csv [--max-rows N] [--cohorts ...]`` (what
    :func:`tuning_splits` takes), with ``extra(parser)`` adding the script's own; the
    scripts' warnings (convergence, R's NA payloads) are silenced for readable logs."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("out")
    ap.add_argument("--max-rows", type=int, default=None)
    ap.add_argument("--cohorts", nargs="*", default=None)
    if extra is not None:
        extra(ap)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    return args


def inner_score(D: np.ndarray, y_ref: np.ndarray, y_q: np.ndarray) -> float:
    """Mean of 5-neighbour balanced accuracy and class-balanced precision@10 (``D``:
    query × reference distances; ``y`` as class indices)."""
    return float(class_weights(y_q) @ heldout_values(D, y_ref, y_q))


def metric_parts(X: np.ndarray, y_text: np.ndarray, itr: np.ndarray, iva: np.ndarray,
                 params: dict | None = None, model=SparGE) -> dict:
    """Scores of every part of the metric for one inner split (``model``, SparGE or a
    variant's factory, with ``params``).

    The model's own pieces: the embedding distance from ``ensemble_sqdist`` and the
    forest proximity from ``shared_leaf_share`` (in-bag: each training patient's own
    trees), so ``combined`` is exactly the model's look-alike distance.
    """
    m = model(random_state=0, **(params or {})).fit(X[itr], y_text[itr])
    y_tr, y_q = inner_outcomes(y_text, itr, iva)
    Y_q, L_q = m.lookalike_parts(X[iva])
    d2 = ensemble_sqdist(Y_q, m.embedding_)
    mu, sd = np.nanmean(X[itr], 0), np.nanstd(X[itr], 0)
    sd[sd == 0] = 1
    raw = ensemble_sqdist(np.nan_to_num((X[iva] - mu) / sd),
                          np.nan_to_num((X[itr] - mu) / sd))
    rec = {"emb": inner_score(d2, y_tr, y_q), "raw": inner_score(raw, y_tr, y_q)}
    if L_q is not None:
        p = shared_leaf_share(L_q, m.forest_leaves_, m.forest_.n_nodes,
                              trees_ref=getattr(m, "forest_counted_", None))
        model = d2 + m.forest_scale_ * (1 - p)
        rec["forest"] = inner_score(-p, y_tr, y_q)
        rec["combined"] = inner_score(model, y_tr, y_q)
        rec["weight3"] = inner_score(
            d2 + (3 / m.forest_weight_) ** 2 * m.forest_scale_ * (1 - p), y_tr, y_q)
        # the forest part scaled by the queries' spread around the training patients'
        # mean instead of the training patients' own (no outcome is used)
        Yt = m.embedding_
        mean = Yt.mean(axis=0)
        own = float(np.mean(np.sum((Yt - mean) ** 2, axis=1)))
        queries = float(np.mean(np.sum((Y_q - mean) ** 2, axis=1)))
        rec["spread_ratio"] = queries / max(own, 1e-12)
        rec["qspread"] = inner_score(
            d2 + m.forest_scale_ * rec["spread_ratio"] * (1 - p), y_tr, y_q)
        ratio = np.median(raw) / max(np.median(model), 1e-12)
        for h in (0.5, 1.0):
            rec[f"comb+raw{h}"] = inner_score(model + h * raw / ratio, y_tr, y_q)
    return rec


def lookalike_sqdist(m: SparGE, X_q=None) -> np.ndarray:
    """The model's squared look-alike distances of queries (``None``: its training
    patients, each at infinity from itself) to its training patients."""
    Y_q, L_q = m.lookalike_parts(X_q)
    d2 = ensemble_sqdist(Y_q, m.embedding_)
    if L_q is not None:
        p = shared_leaf_share(L_q, m.forest_leaves_, m.forest_.n_nodes,
                              trees_ref=getattr(m, "forest_counted_", None))
        d2 = d2 + m.forest_scale_ * (1 - p)
    if X_q is None:
        np.fill_diagonal(d2, np.inf)
    return np.maximum(d2, 0.0)


PARTS = ("emb", "forest", "combined")


def paired_row(cohort: str, split: int, base: dict, variant: dict, tag: str,
               **extra) -> dict:
    """One split's ``metric_parts`` of the default (``base_*``) and a variant
    (``<tag>_*``), printed as a JSON line as the tuning scripts log them."""
    rec = {"cohort": cohort, "split": split, **extra}
    for k in PARTS:
        rec[f"base_{k}"], rec[f"{tag}_{k}"] = base.get(k), variant.get(k)
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                      for k, v in rec.items()}), flush=True)
    return rec


def other_seed(random_state: int = 0, **params) -> SparGE:
    """The null of a tuning round: the default fitted with the next seed (what any change
    of the fit moves the scores by)."""
    return SparGE(random_state=random_state + 1, **params)


def null_fields(null: dict, parts: tuple[str, ...] = ("emb", "combined")) -> dict:
    """A null fit's scores as a paired row's ``null_*`` fields."""
    return {f"null_{k}": null.get(k) for k in parts}


def print_null(rows: list[dict], parts: tuple[str, ...] = ("emb", "combined")) -> None:
    """How far the null moves each part from the default: mean ± standard error over the
    splits, and the mean absolute change per split."""
    df = pd.DataFrame(rows)
    for k in parts:
        d = df[f"null_{k}"] - df[f"base_{k}"]
        print(f"{k} null (another seed): {d.mean():+.4f} ± {d.std() / np.sqrt(len(d)):.4f}"
              f"; |null| mean {d.abs().mean():.4f}")


def write_paired(rows: list[dict], out: str, tag: str, compared: tuple[str, ...]) -> None:
    """Save every split's row to ``out`` and print the per-cohort means, their mean, and
    the paired difference of the variant for each part in ``compared``."""
    df = pd.DataFrame(rows)
    df.to_csv(out, index=False)
    per_cohort = df.groupby("cohort", sort=False).mean(numeric_only=True)
    print(per_cohort.round(3).to_string())
    print(per_cohort.mean().round(4).to_string())
    for k in compared:
        d = df[f"{tag}_{k}"] - df[f"base_{k}"]
        print(f"{k} paired: {d.mean():+.4f} ± {d.std() / np.sqrt(len(d)):.4f}")


def value_match(model: SparGE, Xq: np.ndarray, X_true: np.ndarray, idx: np.ndarray
                ) -> tuple[float, float]:
    """The look-alikes' mean absolute gap on the query's given values, and the error of
    their mean on its hidden ones (standardised units)."""
    Q, T = model.standardize(Xq), model.standardize(X_true)
    nb = np.asarray(model.training_data_, dtype=float)[idx]
    given = np.isfinite(Q)
    gap = float(np.nanmean(np.where(given[:, None, :], np.abs(nb - Q[:, None, :]), np.nan)))
    hidden = np.isfinite(T) & ~given
    if not hidden.any():
        return gap, float("nan")
    with np.errstate(all="ignore"):
        return gap, float(np.nanmean(np.abs(np.nanmean(nb, axis=1) - T)[hidden]))


def hidden_value_scores(model: SparGE, X_val: np.ndarray, y_tr: np.ndarray,
                        y_q: np.ndarray, seed: int, hidden=(0.0, 0.5, 0.7)) -> list[dict]:
    """The validation patients scored with a share of their measured values hidden (as a
    new patient entered with fewer values), once per share in ``hidden``: the outcome
    score of the tuning rounds (kNN(5) balanced accuracy and class-balanced precision@10,
    their mean) of the model's own ``kneighbors``, and :func:`value_match`'s two errors."""
    rows = []
    for share in hidden:
        Xq = hide_values(X_val, share, seed=seed)
        idx = model.kneighbors(Xq, 10)[1]
        ba, p10 = neighbor_scores(idx, y_tr, y_q)
        gap, err = value_match(model, Xq, X_val, idx)
        rows.append({"hidden": share, "score": (ba + p10) / 2, "given_mad": gap,
                     "hidden_mae": err})
    return rows
