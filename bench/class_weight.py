"""How the forest part's trees weigh the outcomes (DEFAULTS.md round 14).

The forest part grew class-balanced trees with scikit-learn's
``class_weight="balanced_subsample"`` (the classes reweighted in every bootstrap sample).
Here every forest of the forest part (the leaf-size choice and the proximity) is grown
with another weighting, ``"balanced"`` (weights from all the training patients, once) or
none, and paired with the default on the same inner split (``bench.inner.metric_parts``;
the embedding is the same fit). Sixteen tuning cohorts: 6 outer splits for the development
cohorts (capped at 2,500 patients), 3 for the broad ones (3,000); ``--max-rows 200`` cuts
every cohort to 200 patients with 6 outer splits. Training splits only.

    python -m bench.class_weight {balanced,none} OUT.csv [--max-rows 200] [--cohorts ...]
"""

from __future__ import annotations

import argparse
import warnings

from sklearn.ensemble import RandomForestClassifier

from bench.inner import metric_parts as parts
from bench.inner import paired_row, tuning_splits, write_paired
from sparge.method import proximity


def weighted_forest(weight: str | None):
    """``proximity.balanced_forest`` growing its trees with ``class_weight=weight``."""
    def forest(n_estimators, min_samples_leaf, *, random_state=0, n_jobs=1,
               max_samples=None, class_weight=None):
        return RandomForestClassifier(n_estimators=n_estimators,
                                      min_samples_leaf=min_samples_leaf, class_weight=weight,
                                      max_features="sqrt", max_samples=max_samples,
                                      n_jobs=n_jobs, random_state=random_state)
    return forest


def scores(X, y, itr, iva, weight: str | None) -> dict:
    """``metric_parts`` with the forest part's trees weighted by ``weight``."""
    original = proximity.balanced_forest
    proximity.balanced_forest = weighted_forest(weight)
    try:
        return parts(X, y, itr, iva)
    finally:
        proximity.balanced_forest = original


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("weight", choices=["balanced", "none"])
    ap.add_argument("out")
    ap.add_argument("--max-rows", type=int, default=None)
    ap.add_argument("--cohorts", nargs="*", default=None, help="development cohorts only")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    weight = None if args.weight == "none" else args.weight
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        base = scores(X, y, itr, iva, "balanced_subsample")
        v = scores(X, y, itr, iva, weight)
        rows.append(paired_row(cohort, s, base, v, "v"))
    write_paired(rows, args.out, "v", ("forest", "combined"))

if __name__ == "__main__":
    main()
