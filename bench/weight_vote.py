"""Do the sparse weights carry information? Weight-voted vs plain-voted look-alike outcomes.

For every test patient, SparGE lists its 10 look-alikes among the training patients and
their sparse weights (the affine, non-negative reconstruction of the patient from the
list). The *plain vote* predicts the most frequent outcome among the 10; the *weight vote*
predicts the outcome with the largest total weight; the *distance vote* (1/distance
weights) is a reference. Balanced accuracy on the test split, SparGE fitted on the training
split only (10 stratified 70/30 splits, the protocol of ``bench.quality``).

    python -m bench.weight_vote            # 10 splits, every cohort, table in bench/results/
    python -m bench.weight_vote --quick    # 2 splits, cohorts subsampled
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from sklearn.metrics import balanced_accuracy_score

from bench.cohorts import COHORTS, encoded
from bench.report import publish, to_markdown
from bench.splits import stratified_splits
from sparge import SparGE


def votes(labels: np.ndarray, weights: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Outcome with the largest total weight per row (ties: the first class)."""
    score = np.stack([(weights * (labels == c)).sum(axis=1) for c in classes], axis=1)
    return classes[np.argmax(score, axis=1)]


def evaluate(cohort: str, n_splits: int, max_rows: int | None, seed: int = 0,
             k: int = 10) -> pd.DataFrame:
    """One row per split: balanced accuracy of the three votes, median non-zero weights."""
    X, y, _ = encoded(cohort, max_rows=max_rows, seed=seed)
    rows = []
    for s, tr, te in stratified_splits(y, n_splits, seed):
        model = SparGE(random_state=seed).fit(X[tr], y[tr])
        dist, idx, W = model.lookalikes(X[te], n_neighbors=k)
        lab = y[tr][idx]
        w = np.take_along_axis(W.toarray(), idx, axis=1)
        classes = np.unique(y[tr])
        nnz = (w > 0).sum(axis=1)
        rows.append({
            "cohort": cohort, "split": s,
            "plain_vote": balanced_accuracy_score(y[te], votes(lab, np.ones_like(w), classes)),
            "weight_vote": balanced_accuracy_score(y[te], votes(lab, w, classes)),
            "distance_vote": balanced_accuracy_score(
                y[te], votes(lab, 1.0 / np.maximum(dist, 1e-12), classes)),
            "median_nonzero": float(np.median(nnz)),
        })
    return pd.DataFrame(rows)


def summary(res: pd.DataFrame) -> pd.DataFrame:
    """One row per cohort: mean ± sd of the votes, weight − plain ± standard error."""
    out = []
    for cohort, g in res.groupby("cohort", sort=False):
        row = {"cohort": cohort, "splits": len(g)}
        for c in ("plain_vote", "weight_vote", "distance_vote"):
            row[c] = f"{g[c].mean():.3f} ± {g[c].std(ddof=1) if len(g) > 1 else 0:.3f}"
        diff = g["weight_vote"] - g["plain_vote"]
        row["weight − plain"] = (f"{diff.mean():+.3f} ± "
                                 f"{diff.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else 0:.3f}")
        row["median non-zero weights of 10"] = float(g["median_nonzero"].median())
        out.append(row)
    return pd.DataFrame(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 splits, at most 400 patients")
    ap.add_argument("--splits", type=int, default=10)
    ap.add_argument("--cohorts", nargs="*", default=COHORTS)
    args = ap.parse_args()
    n_splits, max_rows = (2, 400) if args.quick else (args.splits, None)
    res = pd.concat([evaluate(c, n_splits, max_rows) for c in args.cohorts],
                    ignore_index=True)
    text = ("# Weight-voted vs plain-voted outcome of the 10 look-alikes "
            f"(balanced accuracy, {n_splits} splits; mean ± sd, difference ± s.e.)\n\n"
            + to_markdown(summary(res)) + "\n")
    publish(text, "weight_vote.md", args.quick)


if __name__ == "__main__":
    main()
