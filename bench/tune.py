"""The small, documented search behind SparGE's defaults (training splits only).

For every cohort and each of the first ``--outer`` training splits of the quality
protocol (``bench.splits``, the splits of ``bench.quality``), the training part is split
again 70/30; each candidate is fitted on the inner 70 % and scored on the inner 30 % (mean
of kNN balanced accuracy and class-balanced precision@10). Test patients are never seen.
Candidates are ranked by their mean score over all cohorts and splits.

    python -m bench.tune [--outer 2] [--max-rows 2500] [--grid NAME]
"""

from __future__ import annotations

import argparse
import json
import time

import pandas as pd

from bench.cohorts import COHORTS, encoded
from bench.common import RESULTS
from bench.report import to_markdown
from bench.scores import lookalike_scores
from bench.splits import inner_split, stratified_splits
from sparge import SparGE

GRIDS = {
    "structure": [
        {},
        {"normalize_rows": False},
        {"representation": "codes"},
        {"rank": None},
        {"n_components": 8},
        {"n_components": 32},
        {"trace_ratio_reg": 0.1},
        {"trace_ratio_reg": 1.0},
        {"k1": 10},
        {"k2": 40},
        {"graph_weight": "binary"},
        {"class_balance": False},
        {"max_iter": 0},
        {"n_atoms": 24},
        {"r1": 0.02},
        {"r1": 0.15},
        {"metric_weighting": "none"},
    ],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--outer", type=int, default=2)
    ap.add_argument("--max-rows", type=int, default=2500)
    ap.add_argument("--cohorts", nargs="*", default=COHORTS)
    ap.add_argument("--grid", default="structure")
    ap.add_argument("--configs", help="JSON list of parameter dicts (overrides --grid)")
    args = ap.parse_args()
    configs = json.loads(args.configs) if args.configs else GRIDS[args.grid]
    rows = []
    t0 = time.perf_counter()
    for cohort in args.cohorts:
        X, y, _ = encoded(cohort, max_rows=args.max_rows)
        for s, tr, _te in stratified_splits(y, args.outer, seed=0):
            itr, iva = inner_split(tr, y, seed=s)
            for ci, params in enumerate(configs):
                t = time.perf_counter()
                try:
                    m = SparGE(random_state=0, **params).fit(X[itr], y[itr])
                    sc = lookalike_scores(m.lookalike_space(), y[itr],
                                          m.lookalike_space(X[iva]), y[iva])
                except Exception as exc:  # noqa: BLE001 - a failing candidate is recorded
                    print(f"  {cohort} {params}: {type(exc).__name__}: {exc}")
                    continue
                score = 0.5 * (sc["knn_bal_acc"] + sc["p@10_balanced"])
                rows.append({"cohort": cohort, "split": s, "config": ci,
                             "params": json.dumps(params), "score": score,
                             "fit_s": time.perf_counter() - t, **sc})
                print(f"  {cohort} {s} {json.dumps(params):45s} {score:.3f}", flush=True)
    df = pd.DataFrame(rows)
    per = df.pivot_table(index="params", columns="cohort", values="score", aggfunc="mean")
    per["mean"] = per.mean(axis=1)
    per["fit_s"] = df.groupby("params")["fit_s"].mean()
    per = per.sort_values("mean", ascending=False).reset_index()
    text = (f"# Default search ({time.strftime('%Y-%m-%d')}; inner validation on training "
            f"splits; score = mean of kNN balanced accuracy and class-balanced precision@10;"
            f" cohorts capped at {args.max_rows} patients; {args.outer} outer splits)\n\n"
            + to_markdown(per) + "\n")
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"tune_{args.grid if not args.configs else 'custom'}.md").write_text(text)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
