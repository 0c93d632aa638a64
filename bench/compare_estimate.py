"""The Classifiers page's time estimate against the comparison it announces, on real cohorts.

The Classifiers page says "Estimated time: about 8 s" before a user presses Run
(:func:`sparge.services.compare.estimate_comparison`). Walk-through 79 read "about 8 s"
for a sleep clinic of 400 patients and waited 25 s. This bench encodes each benchmark
cohort as the Data page does with its untouched form, asks the estimate, and times the
page's own call (:func:`sparge.services.compare.compare_classifiers`, the default
parameters, the outcomes weighted as the page ticks it) after a warm-up run (a server has
imported everything by then). Beside the total it gives the two parts the estimate adds:
SparGE's fit per split and the six classifiers per split on each feature set.

    python -m bench.compare_estimate            # eleven cohorts, 3 splits (about 10 minutes)
    python -m bench.compare_estimate --quick    # two cohorts, 1 split, printed only
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from bench.cohorts import load_cohort
from bench.report import estimate_summary, publish, to_markdown
from sparge.errors import DataError

COHORTS = ["breast_cancer", "whas500", "support2", "singheart_synthetic", "survset:stagec",
           "survset:nki70", "survset:GBSG2", "survset:colon", "survset:actg",
           "survset:dataOvarian1", "survset:rhc"]
QUICK = ["breast_cancer", "survset:stagec"]


def one(name: str, n_splits: int, max_rows: int | None) -> dict | None:
    """Estimate and measured comparison of one cohort (``None`` when the page would
    refuse to run it)."""
    from sparge.services.compare import compare_classifiers, estimate_comparison, weight_by_default
    from sparge.services.workflow import default_missing_threshold, encode_cohort

    df, label = load_cohort(name)
    if max_rows is not None and len(df) > max_rows:
        df = df.sample(max_rows, random_state=0).reset_index(drop=True)
    cohort = encode_cohort(df, label_column=label,
                           max_patient_missing=default_missing_threshold(df.shape[1] - 1) / 100)
    rows = cohort.train_rows
    X, y = cohort.X[rows], cohort.labels[rows].astype(str)
    est = estimate_comparison(len(rows), X.shape[1], n_splits, n_classes=len(np.unique(y)))
    t0 = time.perf_counter()
    try:
        res, _ = compare_classifiers(X, y, n_splits=n_splits, weighted=weight_by_default(y))
    except DataError as e:
        print(f"{name}: not run: {e}", flush=True)
        return None
    took = time.perf_counter() - t0
    per_rep = (res.assign(s=res["fit_time"] + res["predict_time"])
               .groupby("representation")["s"].sum() / n_splits)
    sparge_fit = res.groupby("split")["representation_time"].max().mean()
    return {"cohort": name.replace("survset:", ""), "patients": len(rows),
            "features": X.shape[1], "outcomes": len(np.unique(y)),
            "SparGE fit / split (s)": sparge_fit,
            "classifiers raw / split (s)": per_rep.get("raw", np.nan),
            "classifiers SparGE / split (s)": per_rep.get("SparGE", np.nan),
            "estimate (s)": est, "measured (s)": took, "measured / estimate": took / est}


def warm_up() -> None:
    """One small comparison: the imports and compiled code a running server has."""
    from sparge.services.compare import compare_classifiers

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 6))
    compare_classifiers(X, np.where(X[:, 0] > 0, "a", "b"), n_splits=1)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="two cohorts, 1 split, printed only")
    ap.add_argument("--splits", type=int, default=None)
    ap.add_argument("--max-rows", type=int, default=None,
                    help="a random sample of each cohort's rows (the page takes them all)")
    args = ap.parse_args(argv)
    names = QUICK if args.quick else COHORTS
    splits = args.splits or (1 if args.quick else 3)
    max_rows = args.max_rows or (200 if args.quick else None)
    warm_up()
    rows = []
    for name in names:
        row = one(name, splits, max_rows)
        if row is None:
            continue
        rows.append(row)
        print(f"{name}: {row['measured (s)']:.1f} s measured, {row['estimate (s)']:.1f} s "
              "estimated", flush=True)
    table = pd.DataFrame(rows).sort_values("patients", ignore_index=True)
    text = ("# The Classifiers page's time estimate against the measured comparison\n\n"
            f"Default parameters, {splits} splits, the Data page's untouched form, the "
            "outcomes weighted as the page ticks it; 2 cores, after a warm-up run "
            "(`python -m bench.compare_estimate`).\n\n"
            + to_markdown(table, ".2f") + "\n\n" + estimate_summary(table) + "\n")
    publish(text, "compare_estimate.md", args.quick)


if __name__ == "__main__":
    main()
