"""Look-alike quality of SparGE against raw features and peer metric learners.

The paper's protocol: repeated stratified 70/30 splits, every representation fitted on the
training split only. Measures on the test patients: balanced accuracy of kNN (k=5) and
precision@10 of the look-alike list (share of the 10 nearest training patients with the
query's outcome), plain and class-balanced (mean over outcome classes: the headline).

    python -m bench.quality            # 10 splits, all cohorts, tables in bench/results/
    python -m bench.quality --quick    # ~3 minutes: 2 splits, cohorts subsampled
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from bench.cohorts import COHORTS, encoded
from bench.common import RESULTS
from bench.peers import PEERS
from bench.protocol import evaluate, summary_table
from bench.report import to_markdown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cohorts", nargs="*", default=COHORTS)
    ap.add_argument("--methods", nargs="*", default=list(PEERS))
    ap.add_argument("--splits", type=int)
    ap.add_argument("--max-rows", type=int)
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds a peer may take for one fit before it is recorded as "
                         "not finished")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds a method may spend on one cohort; later splits are "
                         "skipped (status 'budget') once it is used up")
    ap.add_argument("--params", help="SparGE parameters as JSON")
    ap.add_argument("--out", help="write tables to this folder (default bench/results, "
                                  "not in --quick)")
    args = ap.parse_args()
    n_splits = args.splits or (2 if args.quick else 10)
    max_rows = args.max_rows or (600 if args.quick else None)
    params = json.loads(args.params) if args.params else None
    texts = []
    t_all = time.perf_counter()
    for cohort in args.cohorts:
        res = evaluate(cohort, n_splits=n_splits, methods=args.methods,
                       timeout=args.timeout if not args.quick else 60, max_rows=max_rows,
                       sparge_params=params, budget=args.budget)
        table = summary_table(res)
        X, y, _ = encoded(cohort, max_rows=max_rows)
        head = (f"## {cohort}: {X.shape[0]} patients × {X.shape[1]} features, "
                f"{100 * np.isnan(X).mean():.1f}% missing, outcome "
                + ", ".join(f"{k} {v}" for k, v in zip(*np.unique(y, return_counts=True)))
                + f"; {n_splits} stratified 70/30 splits")
        text = head + "\n\n" + to_markdown(table) + "\n"
        print("\n" + text, flush=True)
        texts.append(text)
        out = None if args.quick and not args.out else (args.out or RESULTS)
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            (Path(out) / f"quality_{cohort}.md").write_text(
                f"# Look-alike quality ({time.strftime('%Y-%m-%d')})\n\n" + text)
            res.to_csv(Path(out) / f"quality_{cohort}.csv", index=False)
    print(f"total {time.perf_counter() - t_all:.0f} s")


if __name__ == "__main__":
    main()
