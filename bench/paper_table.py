"""The paper's tables: the six classifiers (KNN, LR, RF, DT, SVM, GBDT) on raw features vs
SparGE features — accuracy and average per-class recall — and the "mean time" table
(fit + predict seconds), on the benchmark cohorts, with SparGE fitted on each training
split only (``sparge.services.compare``, the code the app's Classifiers page runs).

    python -m bench.paper_table [--splits 10] [--quick]
"""

from __future__ import annotations

import argparse
import time

from bench.cohorts import COHORTS, encoded
from bench.common import RESULTS
from bench.report import to_markdown
from sparge.services.compare import compare_classifiers, time_table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--splits", type=int)
    ap.add_argument("--cohorts", nargs="*", default=COHORTS)
    ap.add_argument("--max-rows", type=int, default=3000)
    args = ap.parse_args()
    n_splits = args.splits or (1 if args.quick else 5)
    max_rows = 400 if args.quick else args.max_rows
    text = f"# The paper's classifier tables ({time.strftime('%Y-%m-%d')})\n\n"
    for cohort in args.cohorts:
        X, y, _ = encoded(cohort, max_rows=max_rows)
        res, _ = compare_classifiers(X, y, n_splits=n_splits)
        acc = res.pivot_table(index="classifier", columns="representation",
                              values=["accuracy", "balanced_accuracy"], sort=False)
        acc.columns = [f"{m} ({r})" for m, r in acc.columns]
        tt = time_table(res)
        text += (f"## {cohort} ({len(y)} patients, {n_splits} splits)\n\n"
                 f"{to_markdown(acc.reset_index())}\n\nMean time (s), fit + predict:\n\n"
                 f"{to_markdown(tt.reset_index(), '.4f')}\n\n")
        print(text.split("## ")[-1], flush=True)
    if not args.quick:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "paper_table.md").write_text(text)


if __name__ == "__main__":
    main()
