"""Look-alikes of new patients with few values given (a walk-through's finding, round 15).

A clinician often enters a new patient with a handful of values. The training patients
keep their own gaps; only the test patients lose a share of their measured values at
random (50 %, 70 %, 85 %), as when a form is filled in partly. Scored on the test
patients (kNN(5) balanced accuracy and class-balanced precision@10, and their mean, the
tuning rounds' score): SparGE with the outcome (its look-alikes, anchored on the values
given since round 16, and with ``anchor_weight=0``), SparGE without the outcome (both
ways), raw features (median-imputed) and raw features with a partial distance (each
pair compared on the values both have, scikit-learn's ``nan_euclidean_distances``), and
random-forest proximity (its trees take the gaps). Splits of ``bench.splits``.

    python -m bench.sparse_queries [--cohorts whas500 survset:actg] [--splits 3]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics.pairwise import euclidean_distances, nan_euclidean_distances

from bench.cohorts import encoded
from bench.common import hide_values
from bench.report import to_markdown
from bench.scores import neighbor_scores, scores
from bench.splits import stratified_splits
from sparge import SparGE
from sparge.method.proximity import ForestProximity

MASKS = (0.0, 0.5, 0.7, 0.85)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cohorts", nargs="*", default=["whas500", "support2", "survset:actg"])
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--max-rows", type=int, default=3000)
    ap.add_argument("--out", default=None, help="CSV of every split's row")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    rows = []
    for cohort in args.cohorts:
        X, y_text, _ = encoded(cohort, max_rows=args.max_rows)
        classes = np.unique(y_text)
        y = np.searchsorted(classes, y_text)
        for s, tr, te in stratified_splits(y, args.splits, seed=0):
            sup = SparGE(random_state=0).fit(X[tr], y_text[tr])
            unsup = SparGE(random_state=0, supervised=False).fit(X[tr], y_text[tr])
            forest = ForestProximity(random_state=0, n_jobs=2).fit(X[tr], y_text[tr])
            mu, sd = np.nanmean(X[tr], axis=0), np.nanstd(X[tr], axis=0)
            sd[sd == 0] = 1.0
            med = np.nanmedian(X[tr], axis=0)
            Ztr = (np.where(np.isfinite(X[tr]), X[tr], med) - mu) / sd
            for share in MASKS:
                Xq = hide_values(X[te], share, seed=s)
                Zq = (np.where(np.isfinite(Xq), Xq, med) - mu) / sd
                for name, model in (("SparGE", sup), ("SparGE (no outcome)", unsup)):
                    for c, tag in (("auto", ""), (0, ", not anchored")):
                        idx = model.set_params(anchor_weight=c).kneighbors(Xq, 10)[1]
                        ba, p10 = neighbor_scores(idx, y[tr], y[te])
                        rows.append({"cohort": cohort, "split": s, "hidden": share,
                                     "method": name + tag, "knn_bal_acc": ba,
                                     "p@10_balanced": p10, "mean": (ba + p10) / 2})
                D = {"raw (median)": euclidean_distances(Zq, Ztr),
                     "raw (partial distance)": nan_euclidean_distances(
                         (Xq - mu) / sd, (X[tr] - mu) / sd),
                     "forest proximity": euclidean_distances(forest.transform(Xq),
                                                             forest.codes_)}
                for name, d in D.items():
                    d = np.where(np.isfinite(d), d, np.inf)
                    ba, p10 = scores(d, y[tr], y[te])
                    rows.append({"cohort": cohort, "split": s, "hidden": share,
                                 "method": name, "knn_bal_acc": ba, "p@10_balanced": p10,
                                 "mean": (ba + p10) / 2})
            print(f"{cohort} split {s} done", flush=True)
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
    table = df.pivot_table(index=["cohort", "hidden"], columns="method", values="mean")
    print(to_markdown(table.reset_index()))
    print(to_markdown(df.pivot_table(index="hidden", columns="method",
                                     values="mean").reset_index()))


if __name__ == "__main__":
    main()
