"""Fit time and one-patient look-alike latency of SparGE (issue targets: fit 6,000 × 50 in
under 10 s; one-patient query under 20 ms on 2 cores).

    python -m bench.core_speed [--repeats 3] [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_info

from bench.common import synthetic_cohort, timed
from bench.report import publish, to_markdown
from sparge import SparGE


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="only the smallest shape")
    args = ap.parse_args()
    shapes = [(1000, 50), (3000, 50), (6000, 50), (683, 383)]
    if args.quick:
        shapes = [(1000, 50)]
    rows = []
    for n, m in shapes:
        X, y = synthetic_cohort(n + 200, m, seed=n + m)
        Xtr, ytr, Xq = X[:n], y[:n], X[n:]
        fits = []
        for r in range(args.repeats):
            model, t = timed(SparGE(random_state=r).fit, Xtr, ytr)
            fits.append(t)
        model.kneighbors(Xq[:1])  # warm
        lat = []
        for i in range(100):
            t0 = time.perf_counter()
            model.kneighbors(Xq[i % len(Xq):i % len(Xq) + 1], n_neighbors=10)
            lat.append(time.perf_counter() - t0)
        # a query matched exactly on some biomarkers (Explore's "Match exactly on"): an
        # exact scan of the matching half of the training patients
        among = np.random.default_rng(0).random(len(model.embedding_)) < 0.5
        lat_m = []
        for i in range(100):
            t0 = time.perf_counter()
            model.kneighbors(Xq[i % len(Xq):i % len(Xq) + 1], n_neighbors=10,
                             candidates=among)
            lat_m.append(time.perf_counter() - t0)
        lat_w = []
        for i in range(30):
            t0 = time.perf_counter()
            model.sparse_weights(Xq[i:i + 1])
            lat_w.append(time.perf_counter() - t0)
        _, t_batch = timed(model.transform, Xq)
        rows.append({"patients": n, "features": m, "fit_s": float(np.median(fits)),
                     "rank": model.rank_,
                     "atoms": model.n_atoms_,
                     "iterations": model.n_iter_,
                     "query_ms_median": 1e3 * float(np.median(lat)),
                     "query_ms_p95": 1e3 * float(np.quantile(lat, 0.95)),
                     "matched_query_ms_median": 1e3 * float(np.median(lat_m)),
                     "weights_ms_median": 1e3 * float(np.median(lat_w)),
                     "transform_patients_per_s": len(Xq) / t_batch})
        print(f"done {n}x{m}", flush=True)
    df = pd.DataFrame(rows)
    blas = ", ".join(f"{i['internal_api']}:{i['num_threads']}t" for i in threadpool_info())
    text = (f"# core speed ({time.strftime('%Y-%m-%d')}, BLAS {blas})\n\n"
            + to_markdown(df, ".2f") + "\n\nTargets: fit 6,000 × 50 < 10 s; one-patient "
            "query < 20 ms.\n")
    publish(text, "core_speed.md", args.quick)


if __name__ == "__main__":
    main()
