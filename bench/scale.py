"""How SparGE's cost grows: fit time and peak memory vs patients and features, query
latency vs stored patients, transform throughput, and the paper's MIMIC-III shape
(21,142 patients × 3,648 features = 48 time steps × 76 one-hot features).

Every configuration runs in a fresh process so its peak memory (max RSS) is its own.

    python -m bench.scale            # everything (about 15 minutes on 2 cores)
    python -m bench.scale --quick    # small shapes only
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np
import pandas as pd

from bench.common import ROOT, synthetic_cohort
from bench.report import publish, to_markdown


def one(n: int, m: int, mode: str) -> dict:
    from sparge import SparGE

    X, y = synthetic_cohort(n + 200, m, missing=0.3 if m > 1000 else 0.2, seed=n + m)
    params = {"max_iter": 0} if mode == "query" else {}
    t0 = time.perf_counter()
    model = SparGE(random_state=0, **params).fit(X[:n], y[:n])
    fit_s = time.perf_counter() - t0
    Xq = X[n:]
    model.kneighbors(Xq[:1])
    lat = []
    for i in range(50):
        t = time.perf_counter()
        model.kneighbors(Xq[i:i + 1], n_neighbors=10)
        lat.append(time.perf_counter() - t)
    t = time.perf_counter()
    model.transform(Xq)
    thr = len(Xq) / (time.perf_counter() - t)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # GB (kB units)
    return {"patients": n, "features": m, "mode": mode, "fit_s": fit_s, "peak_gb": peak,
            "query_ms": 1e3 * float(np.median(lat)), "transform_per_s": thr,
            "rank": model.rank_,
            "atoms": model.n_atoms_}


def run(n: int, m: int, mode: str, timeout: float) -> dict:
    cmd = [sys.executable, "-m", "bench.scale", "--one", str(n), str(m), mode]
    t0 = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"patients": n, "features": m, "mode": mode, "fit_s": np.nan,
                "note": f"did not finish in {timeout:.0f} s"}
    if out.returncode != 0:
        return {"patients": n, "features": m, "mode": mode,
                "note": out.stderr.strip().splitlines()[-1][:120]}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["wall_s"] = time.perf_counter() - t0
    return res


def exponent(df: pd.DataFrame, x: str) -> float:
    d = df.dropna(subset=["fit_s"])
    if len(d) < 2:
        return float("nan")
    return float(np.polyfit(np.log(d[x]), np.log(d["fit_s"]), 1)[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--one", nargs=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--timeout", type=float, default=1200)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(int(args.one[0]), int(args.one[1]), args.one[2])))
        return
    ns = [1000, 3000] if args.quick else [1000, 3000, 10000, 21142]
    ms = [50, 383] if args.quick else [50, 383, 3648]
    qs = [1000, 3000] if args.quick else [1000, 10000, 30000, 100000]
    rows_n = [run(n, 50, "fit", args.timeout) for n in ns]
    rows_m = [run(3000, m, "fit", args.timeout) for m in ms]
    rows_q = [run(n, 50, "query", args.timeout) for n in qs]
    mimic = [] if args.quick else [run(21142, 3648, "fit", args.timeout)]
    cols = ["patients", "features", "fit_s", "peak_gb", "query_ms", "transform_per_s",
            "rank", "atoms", "note"]
    text = f"# scale ({time.strftime('%Y-%m-%d')}, 2 cores)\n\n"
    for title, rows, x in (("Fit vs patients (50 features)", rows_n, "patients"),
                           ("Fit vs features (3,000 patients)", rows_m, "features"),
                           ("Query latency vs stored patients (fit without refinement)",
                            rows_q, "patients"),
                           ("MIMIC-III shape", mimic, None)):
        if not rows:
            continue
        df = pd.DataFrame(rows).reindex(columns=cols)
        df["note"] = df["note"].fillna("")
        text += f"## {title}\n\n" + to_markdown(df, ".2f") + "\n"
        if x:
            text += f"\nGrowth exponent of fit time in {x}: {exponent(df, x):.2f}\n"
        text += "\n"
    publish(text, "scale.md", args.quick)


if __name__ == "__main__":
    main()
