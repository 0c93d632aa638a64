"""The look-alike evaluation protocol shared by ``bench.quality`` and ``bench.broad_check``.

Repeated stratified 70/30 splits (``bench.splits``), every representation fitted on the
training split only, scored on the test patients (``bench.scores``).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from bench.cohorts import encoded
from bench.peers import PEERS, run_with_timeout
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
