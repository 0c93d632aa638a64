"""Extremely randomised trees for the forest part (DEFAULTS.md round 14).

The forest part's proximity comes from a class-balanced random forest (best split among
√m features at every node). Extremely randomised trees (Geurts, Ernst & Wehenkel 2006,
scikit-learn's ``ExtraTreesClassifier``) draw the threshold of every candidate feature at
random: their leaves cut the space less along the training patients' exact values, and
their proximity is known to be a smoother kernel. Here they replace the random forest
everywhere in the forest part (the leaf-size choice and the proximity), with bootstrap
samples so that in-bag proximity keeps its meaning, the same class balancing, √m features
and leaf sizes. The embedding is untouched (the check: its column equals the default's).
Inner validation on training splits only, paired with the default on the same inner
split (``bench.inner.metric_parts``), on the sixteen tuning cohorts (6 outer splits for
the development cohorts, capped at 2,500 patients; 3 for the broad ones, capped at 3,000).

    python -m bench.forest_kind OUT.csv [--cohorts ...]
"""

from __future__ import annotations

import argparse
import time
import warnings

from sklearn.ensemble import ExtraTreesClassifier

from bench.inner import metric_parts as parts
from bench.inner import paired_row, tuning_splits, write_paired
from sparge.method import proximity


def extra_trees(n_estimators: int, min_samples_leaf: int, *, random_state=0, n_jobs=1,
                max_samples=None) -> ExtraTreesClassifier:
    """``proximity.balanced_forest`` with extremely randomised trees (bootstrapped)."""
    return ExtraTreesClassifier(n_estimators=n_estimators, min_samples_leaf=min_samples_leaf,
                                class_weight="balanced_subsample", max_features="sqrt",
                                bootstrap=True, max_samples=max_samples, n_jobs=n_jobs,
                                random_state=random_state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--cohorts", nargs="*", default=None)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    original = proximity.balanced_forest
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(cohorts=args.cohorts):
        t0 = time.perf_counter()
        base = parts(X, y, itr, iva)
        t1 = time.perf_counter()
        proximity.balanced_forest = extra_trees
        try:
            et = parts(X, y, itr, iva)
        finally:
            proximity.balanced_forest = original
        rows.append(paired_row(cohort, s, base, et, "et", base_s=t1 - t0,
                               et_s=time.perf_counter() - t1))
    write_paired(rows, args.out, "et", ("forest", "combined"))

if __name__ == "__main__":
    main()
