"""The Model page's fit estimate against the fit it announces, on real cohorts.

The Model page says "Estimated fit: about 4 s" before a user presses Train
(:func:`sparge.services.resources.estimate_fit`, calibrated on synthetic shapes in
``scale.md``). This bench encodes each benchmark cohort as the Data page does with its
untouched form (:func:`sparge.services.workflow.encode_cohort`, the default gap threshold),
asks the estimate for the patients kept and the features, and times the Model page's own
training call (:func:`sparge.services.workflow.train`, default parameters, supervised) in
this process after a warm-up fit (a server has imported everything by then). A walk-through
read "about 1 s" and waited 4.8 s.

    python -m bench.fit_estimate            # the 49 benchmark cohorts (about 4 minutes)
    python -m bench.fit_estimate --quick    # four cohorts, printed only
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from bench.cohorts import ALL_COHORTS, load_cohort
from bench.report import estimate_summary, publish, to_markdown
from sparge.errors import DataError

QUICK = ["whas500", "breast_cancer", "survset:stagec", "survset:colon"]


def one(name: str) -> dict | None:
    """Estimate and measured fit of one cohort, as the Data and Model pages do them
    (``None`` when the Model page would refuse to train: one outcome among the patients
    kept, say)."""
    from sparge.services.resources import estimate_fit
    from sparge.services.workflow import default_missing_threshold, encode_cohort, train

    df, label = load_cohort(name)
    n_columns = df.shape[1] - 1
    cohort = encode_cohort(df, label_column=label,
                           max_patient_missing=default_missing_threshold(n_columns) / 100)
    n, m = len(cohort.train_rows), len(cohort.features)
    est = estimate_fit(n, m)
    t0 = time.perf_counter()
    try:
        train(cohort, {"random_state": 0})
    except DataError as e:  # what the Model page would say instead of training
        print(f"{name}: not trained: {e}", flush=True)
        return None
    took = time.perf_counter() - t0
    return {"cohort": name.replace("survset:", ""), "patients": n, "features": m,
            "estimate (s)": est.seconds, "measured (s)": took,
            "measured / estimate": took / est.seconds, "page says": est.summary()}


def warm_up() -> None:
    """One small fit: the imports and compiled code a running server already has."""
    from sparge import SparGE

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 8))
    SparGE(random_state=0).fit(X, np.where(X[:, 0] > 0, "a", "b"))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="four cohorts, printed only")
    args = ap.parse_args(argv)
    names = QUICK if args.quick else ALL_COHORTS
    warm_up()
    rows = []
    for name in names:
        row = one(name)
        if row is None:
            continue
        rows.append(row)
        print(f"{name}: {rows[-1]['measured (s)']:.1f} s measured, "
              f"{rows[-1]['estimate (s)']:.1f} s estimated", flush=True)
    table = pd.DataFrame(rows).sort_values("patients", ignore_index=True)
    text = ("# The Model page's fit estimate against the measured fit\n\n"
            "Default parameters, supervised, the Data page's untouched form; 2 cores, "
            "after a warm-up fit (`python -m bench.fit_estimate`).\n\n"
            + to_markdown(table, ".2f") + "\n\n" + estimate_summary(table) + "\n")
    publish(text, "fit_estimate.md", args.quick)


if __name__ == "__main__":
    main()
