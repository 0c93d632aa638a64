"""Which part of the look-alike metric carries a cohort? Inner validation, training splits only.

For each of the first ``--outer`` splits of the quality protocol, the training part is split
again 70/30; one SparGE fit (defaults) on the inner 70 %, and the inner 30 % are scored
(mean of kNN(5) balanced accuracy and class-balanced precision@10, as in ``bench.tune``)
with: the embedding alone (``emb``), the forest part alone (in-bag proximity, ``forest``),
the model's metric (``combined``), raw standardised features with mean-filled gaps
(``raw``), the model's metric with forest weight 3 (``weight3``) and the model's metric
plus raw distance at two weights (``comb+raw<h>``: ``h`` times the raw squared distance
brought to the median of the model's). Test patients are never used. DEFAULTS.md round 13.

    python -m bench.metric_parts --cohorts survset:pbc ... --out parts.csv [--outer 5]
    python -m bench.metric_parts --tuning --max-rows 200 --params '{"n_components": 8}' ...
"""

from __future__ import annotations

import argparse
import json

import pandas as pd

from bench.cohorts import BROAD_COHORTS, COHORTS, encoded
from bench.inner import metric_parts
from bench.splits import inner_split, stratified_splits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--outer", type=int, default=5)
    ap.add_argument("--max-rows", type=int, default=2500)
    ap.add_argument("--cohorts", nargs="*", default=[])
    ap.add_argument("--tuning", action="store_true",
                    help="the sixteen tuning cohorts (development and broad)")
    ap.add_argument("--params", default="{}", help="SparGE parameters (JSON)")
    ap.add_argument("--out", required=True, help="CSV of every split's scores")
    args = ap.parse_args()
    cohorts = args.cohorts + (COHORTS + BROAD_COHORTS if args.tuning else [])
    params = json.loads(args.params)
    rows = []
    for cohort in cohorts:
        X, y_text, _ = encoded(cohort, max_rows=args.max_rows)
        for s, tr, _ in stratified_splits(y_text, args.outer, seed=0):
            itr, iva = inner_split(tr, y_text, seed=s)
            rec = {"cohort": cohort, "split": s, "n": len(itr), "m": X.shape[1],
                   **metric_parts(X, y_text, itr, iva, params)}
            rows.append(rec)
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                              for k, v in rec.items()}), flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    print(df.groupby("cohort").mean(numeric_only=True).round(3).to_string())


if __name__ == "__main__":
    main()
