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
import pandas as pd

from bench.cohorts import COHORTS, encoded
from bench.common import RESULTS
from bench.peers import PEERS, run_with_timeout
from bench.report import to_markdown
from bench.scores import lookalike_scores
from bench.splits import stratified_splits


def evaluate(cohort: str, *, n_splits: int, methods: list[str], timeout: float,
             max_rows: int | None, sparge_params: dict | None = None, seed: int = 0,
             verbose: bool = True, budget: float | None = None) -> pd.DataFrame:
    """One row per (split, method).

    A peer that times out once is not retried on later splits (status "timeout"); with
    ``budget``, a method that has spent ``budget`` seconds on this cohort is not run on
    the remaining splits (status "budget"), so slow peers report fewer splits instead of
    stretching the run. Skipped rows have no ``fit_s``.
    """
    X, y, _ = encoded(cohort, max_rows=max_rows, seed=seed)
    rows = []
    gave_up: set[str] = set()
    spent = dict.fromkeys(methods, 0.0)
    for s, tr, te in stratified_splits(y, n_splits, seed):
        for name in methods:
            kwargs = {"params": sparge_params} if name == "SparGE" else {}
            if name in gave_up or (budget is not None and spent[name] > budget):
                rows.append({"cohort": cohort, "split": s, "method": name,
                             "status": "timeout" if name in gave_up else "budget",
                             "fit_s": np.nan})
                continue
            t0 = time.perf_counter()
            if name in ("NCA", "LMNN", "LFDA"):
                status, out = run_with_timeout(PEERS[name], (X[tr], y[tr], X[te]), kwargs,
                                               timeout)
            else:
                try:
                    status, out = "ok", PEERS[name](X[tr], y[tr], X[te], **kwargs)
                except Exception as exc:  # noqa: BLE001 - recorded in the table
                    status, out = "error", f"{type(exc).__name__}: {exc}"
            secs = time.perf_counter() - t0
            spent[name] += secs
            if status == "timeout":
                gave_up.add(name)
            row = {"cohort": cohort, "split": s, "method": name, "status": status,
                   "fit_s": secs}
            if status == "ok":
                row.update(lookalike_scores(out[0], y[tr], out[1], y[te]))
            elif status == "error":
                row["error"] = out
            rows.append(row)
            if verbose:
                msg = (f"{row.get('knn_bal_acc', float('nan')):.3f} "
                       f"{row.get('p@10_balanced', float('nan')):.3f}")
                print(f"  {cohort} split {s} {name:18s} {status:7s} {secs:7.1f}s {msg}",
                      flush=True)
    return pd.DataFrame(rows)


def summary_table(res: pd.DataFrame) -> pd.DataFrame:
    """One row per method: finished splits and mean ± sd of every measure."""
    out = []
    for name, g in res.groupby("method", sort=False):
        ok = g[g.status == "ok"]
        row = {"method": name, "finished": f"{len(ok)}/{len(g)}"}
        for m in ("knn_bal_acc", "p@10_balanced", "p@10"):
            row[m] = (f"{ok[m].mean():.3f} ± {ok[m].std(ddof=0):.3f}" if len(ok) else "—")
        row["fit_s"] = f"{ok.fit_s.mean():.1f}" if len(ok) else \
            f">{g.fit_s.max():.0f} ({g.status.iloc[0]})"
        why = sorted(set(g.status) - {"ok"})
        if why:
            row["finished"] += f" ({', '.join(why)})"
        out.append(row)
    return pd.DataFrame(out)


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
