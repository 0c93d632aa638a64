"""Training at hospital scale on one machine (issue 14.2): learn from a stratified sample,
embed every patient, index them all, query.

For every cohort size (synthetic, 50 features, 20 % gaps), in a fresh process so the peak
memory (max RSS) is its own:

1. ``SparGE().fit`` with the defaults: completion, dictionary, graphs and refinement on a
   stratified sample of ``max_fit_samples`` (10,000) patients, recorded by the model;
2. every patient embedded (``lookalike_parts``: embedding + forest leaves) in blocks;
3. a look-alike index over all of them (:class:`sparge.method.neighbors.LookalikeIndex`:
   exact below 200,000 patients, NN-descent above);
4. one-patient look-alike queries against everyone (median of 50) and the recall@10 of the
   index against an exact search for 200 queries.

Targets: 100,000 x 50 in < 60 s, 1,000,000 x 50 in < 10 min, peak < 8 GB.

    python -m bench.scale_train            # 100,000 and 1,000,000 patients
    python -m bench.scale_train --quick    # 30,000 patients (printed only)
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

_BLOCK = 100_000


def one(n: int, m: int = 50, fit_samples: int | None = None) -> dict:
    from sparge import SparGE
    from sparge.method.neighbors import LookalikeIndex
    from sparge.method.similarity import ensemble_sqdist

    t_data = time.perf_counter()
    X, y = synthetic_cohort(n + 250, m, missing=0.2, seed=n)
    Xq, X, y = X[n:], X[:n], y[:n]
    t_data = time.perf_counter() - t_data
    t0 = time.perf_counter()
    model = SparGE(**({} if fit_samples is None else {"max_fit_samples": fit_samples})
                   ).fit(X, y)
    fit_s = time.perf_counter() - t0
    t = time.perf_counter()
    parts = [model.lookalike_parts(X[s:s + _BLOCK]) for s in range(0, n, _BLOCK)]
    Y = np.vstack([p[0] for p in parts])
    L = None if parts[0][1] is None else np.vstack([p[1] for p in parts])
    del parts
    embed_s = time.perf_counter() - t
    t = time.perf_counter()
    index = LookalikeIndex().fit(Y, L, model.forest_scale_)
    index_s = time.perf_counter() - t
    Yq, Lq = model.lookalike_parts(Xq)
    index.query(Yq[:1], 10, None if Lq is None else Lq[:1])  # warm-up (numba, caches)
    lat = []
    for i in range(50):
        t = time.perf_counter()
        model.lookalike_parts(Xq[i:i + 1])
        index.query(Yq[i:i + 1], 10, None if Lq is None else Lq[i:i + 1])
        lat.append(time.perf_counter() - t)
    found = index.query(Yq[:200], 10, None if Lq is None else Lq[:200])[1]
    hits = []
    for i in range(200):  # exact truth by blocks (never a 200 x n matrix at once)
        best = []
        for s in range(0, n, _BLOCK):
            d2 = ensemble_sqdist(Yq[i:i + 1], Y[s:s + _BLOCK], None if Lq is None else
                                 Lq[i:i + 1], None if L is None else L[s:s + _BLOCK],
                                 model.forest_scale_)[0]
            top = np.argpartition(d2, 10)[:10]
            best.extend(zip(d2[top], s + top))
        truth = {j for _, j in sorted(best)[:10]}
        hits.append(len(truth & set(found[i].tolist())) / 10)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # GB (kB units)
    return {"patients": n, "features": m, "learned_from": len(model.embedding_),
            "fit_s": fit_s, "embed_all_s": embed_s, "index_s": index_s,
            "train_total_s": fit_s + embed_s + index_s, "search": index.method_,
            "query_ms": 1e3 * float(np.median(lat)), "recall@10": float(np.mean(hits)),
            "peak_gb": peak, "data_s": t_data}


def run(n: int, timeout: float) -> dict:
    cmd = [sys.executable, "-m", "bench.scale_train", "--one", str(n)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"patients": n, "note": f"did not finish in {timeout:.0f} s"}
    if out.returncode != 0:
        return {"patients": n, "note": out.stderr.strip().splitlines()[-1][:160]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--one", type=int)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes", type=int, nargs="*")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--fit-samples", type=int, help="max_fit_samples (default: SparGE's)")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, fit_samples=args.fit_samples)))
        return
    sizes = args.sizes or ([30_000] if args.quick else [100_000, 1_000_000])
    rows = []
    for n in sizes:
        rows.append(run(n, args.timeout))
        print(json.dumps(rows[-1]), flush=True)
    text = (f"# Training at scale ({time.strftime('%Y-%m-%d')}, 2 cores; fit on a stratified "
            "sample of 10,000, every patient embedded and indexed)\n\n"
            + to_markdown(pd.DataFrame(rows), floatfmt=".2f") + "\n")
    publish(text, "scale_train.md", args.quick)


if __name__ == "__main__":
    main()
