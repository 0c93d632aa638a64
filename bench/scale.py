"""How SparGE's cost grows: fit time and peak memory vs patients and features, query
latency vs stored patients, transform throughput, and the paper's MIMIC-III shape
(21,142 patients × 3,648 features = 48 time steps × 76 one-hot features).

``--neighbors``: approximate (NN-descent) against exact nearest neighbours
(:mod:`sparge.method.neighbors`) at 20,000, 100,000 and 1,000,000 patients — the graphs'
kNN in 50 dimensions (within a set, and from one class to the others) and look-alike
queries in a 16-dimensional embedding with and without the forest part of the metric —
recall@10 on a sample of queries, build and query times, peak memory.

Every configuration runs in a fresh process so its peak memory (max RSS) is its own.

    python -m bench.scale                      # everything (about 15 minutes on 2 cores)
    python -m bench.scale --quick              # small shapes only
    python -m bench.scale --neighbors          # neighbours (about 40 minutes on 2 cores)
    python -m bench.scale --neighbors --quick  # 3,000 patients, printed only
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
    # a query matched exactly on some biomarkers (Explore's "Match exactly on"): an exact
    # scan of the matching half of the stored patients
    among = np.random.default_rng(0).random(len(model.embedding_)) < 0.5
    lat_m = []
    for i in range(50):
        t = time.perf_counter()
        model.kneighbors(Xq[i:i + 1], n_neighbors=10, candidates=among)
        lat_m.append(time.perf_counter() - t)
    t = time.perf_counter()
    model.transform(Xq)
    thr = len(Xq) / (time.perf_counter() - t)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # GB (kB units)
    return {"patients": n, "features": m, "mode": mode, "fit_s": fit_s, "peak_gb": peak,
            "query_ms": 1e3 * float(np.median(lat)),
            "matched_query_ms": 1e3 * float(np.median(lat_m)), "transform_per_s": thr,
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


def _parts(n: int, n_query: int, trees: int, seed: int = 0):
    """Synthetic patients for the neighbour searches: features F (50-d, gaps filled with 0),
    an embedding Y (16-d), forest leaves and the forest scale (weight 2, as on support2)."""
    from sparge.method.proximity import fit_leaf_forest

    X, y = synthetic_cohort(n + n_query, 50, seed=seed)
    F = np.nan_to_num(X)
    del X
    Y = F @ np.random.default_rng(seed).standard_normal((50, 16)) / np.sqrt(50 * 16)
    t0 = time.perf_counter()
    _, leaves, _ = fit_leaf_forest(F, y, n_estimators=trees, min_samples_leaf=5,
                                   random_state=seed)
    forest_s = time.perf_counter() - t0
    leaves = leaves.astype(np.int32)
    spread = float(np.mean(np.sum((Y - Y.mean(axis=0)) ** 2, axis=1)))
    return F, y, Y, leaves, 4.0 * spread, forest_s


def _recall(found: np.ndarray, exact: np.ndarray, k: int = 10) -> float:
    """Mean share of the exact k nearest found among the first k returned."""
    return float(np.mean([np.intersect1d(a[:k], b[:k]).size / k
                          for a, b in zip(found, exact)]))


def _timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def _one_patient_ms(index, Yq: np.ndarray, Lq: np.ndarray | None, n: int) -> float:
    """Median time of a one-patient look-alike query (ms)."""
    lat = []
    for i in range(n):
        t0 = time.perf_counter()
        index.query(Yq[i], 10, None if Lq is None else Lq[i])
        lat.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(lat))


def neighbors_one(n: int, quick: bool) -> list[dict]:
    """Every neighbour search at one size (one process): exact vs approximate."""
    from sparge.method.graphs import mfa_graphs
    from sparge.method.neighbors import LookalikeIndex, knn_graph_neighbors
    from sparge.method.similarity import knn_search

    n_query = 300 if quick else 1000
    small = n <= 100_000  # exact searches over everyone only up to this size
    F, y, Y, L, scale, forest_s = _parts(n, n_query, trees=50 if quick else 200)
    t0 = time.perf_counter()  # the one-off compilation of every approximate search
    Fw, Lw = F[:2000].astype(float), L[:2000]
    knn_graph_neighbors(Fw, Fw, 10, exclude_self=True, method="approximate")
    knn_graph_neighbors(Fw[:1500], Fw[1500:], 10, method="approximate")
    LookalikeIndex(method="approximate").fit(Y[:2000]).query(Y[:5], 10)
    if not quick:  # the forest metric's own compilation: about a minute
        LookalikeIndex(method="approximate").fit(Y[:2000], Lw, scale).query(Y[:5], 10,
                                                                            Lw[:5])
    compile_s = time.perf_counter() - t0
    rng = np.random.default_rng(1)
    rows = np.sort(rng.choice(n, n_query, replace=False))
    base = {"patients": n}
    out = []

    # the graphs' kNN within a set (k = 20, the model's k1), the patient itself left out
    k = 20
    Fr = F[:n]
    ex_i = knn_search(Fr, Fr[rows], k + 1, chunk=64)[1]
    ex_i = np.array([r[r != i][:k] for r, i in zip(ex_i, rows)])
    row = {**base, "search": "graph kNN within a set", "dim": 50, "k": k,
           "queries": n}
    if small:
        row["exact_build_s"] = _timed(knn_graph_neighbors, Fr, Fr, k, True,
                                      method="exact")[1]
    (ap_d, ap_i), row["approx_build_s"] = _timed(knn_graph_neighbors, Fr, Fr, k, True,
                                                 method="approximate")
    row["recall@10"] = _recall(ap_i[rows], ex_i)
    row["recall@k"] = _recall(ap_i[rows], ex_i, k)
    out.append(row)
    del ap_d, ap_i

    # one class's index queried by another class (the penalty graph's search)
    members, target = np.flatnonzero(y[:n] == 0), np.flatnonzero(y[:n] == 1)
    q = members if small else members[rng.choice(members.size, n_query, replace=False)]
    sample = rng.choice(q.size, min(n_query, q.size), replace=False)
    ex_i = knn_search(F[target], F[q[sample]], k, chunk=64)[1]
    row = {**base, "search": "graph kNN, one class queried by another", "dim": 50, "k": k,
           "queries": q.size}
    if small:
        row["exact_build_s"] = _timed(knn_graph_neighbors, F[target], F[q], k,
                                      method="exact")[1]
    (_, ap_i), row["approx_build_s"] = _timed(knn_graph_neighbors, F[target], F[q], k,
                                              method="approximate")
    row["recall@10"] = _recall(ap_i[sample], ex_i)
    row["recall@k"] = _recall(ap_i[sample], ex_i, k)
    out.append(row)

    # the whole supervised graphs (3 classes): the share of the exact edges found
    if small:
        row = {**base, "search": "MFA graphs (3 classes, k1 = k2 = 20), edges",
               "dim": 50, "k": k, "queries": n}
        exact, row["exact_build_s"] = _timed(mfa_graphs, Fr, y[:n], k, k,
                                             neighbors="exact")
        approx, row["approx_build_s"] = _timed(mfa_graphs, Fr, y[:n], k, k,
                                               neighbors="approximate")
        row["recall@k"] = (sum(a.multiply(e).nnz for a, e in zip(approx, exact))
                           / sum(e.nnz for e in exact))
        out.append(row)
        del exact, approx
    del F, Fr

    # look-alike queries of new patients, embedding only and with the forest part
    Yr, Yq, Lr, Lq = Y[:n], Y[n:], L[:n], L[n:]
    for forest in (False, True):
        ref = (Yr, Lr, scale) if forest else (Yr,)
        lq = Lq if forest else None
        row = {**base, "search": "look-alikes" + (", forest part" if forest else ""),
               "dim": 16, "k": 10, "queries": n_query}
        methods = (("exact", 20),) if forest and quick else (("exact", 20), ("approx", 50))
        for method, n_lat in methods:
            index, row[f"{method}_build_s"] = _timed(LookalikeIndex(
                method="exact" if method == "exact" else "approximate").fit, *ref)
            (_, found), row[f"{method}_query_s"] = _timed(index.query, Yq, 10, lq, chunk=64)
            row[f"{method}_1q_ms"] = _one_patient_ms(index, Yq, lq, n_lat)
            if method == "exact":
                ex_i = found
            del index
        if len(methods) == 2:
            row["recall@10"] = row["recall@k"] = _recall(found, ex_i)
        else:
            row["note"] = "approximate not run in quick mode (a minute of compilation)"
        out.append(row)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # GB
    for row in out:
        row.update(peak_gb=peak, compile_s=compile_s, forest_s=forest_s)
    return out


def run_neighbors(n: int, quick: bool, timeout: float) -> list[dict]:
    cmd = [sys.executable, "-m", "bench.scale", "--neighbors-one", str(n)]
    cmd += ["--quick"] if quick else []
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return [{"patients": n, "note": f"did not finish in {timeout:.0f} s"}]
    if out.returncode != 0:
        return [{"patients": n, "note": out.stderr.strip().splitlines()[-1][:120]}]
    return json.loads(out.stdout.strip().splitlines()[-1])


def neighbors_main(quick: bool, timeout: float) -> None:
    sizes = [3000] if quick else [20_000, 100_000, 1_000_000]
    rows = [r for n in sizes for r in run_neighbors(n, quick, timeout)]
    cols = ["patients", "search", "dim", "k", "queries", "exact_build_s", "exact_query_s",
            "exact_1q_ms", "approx_build_s", "approx_query_s", "approx_1q_ms",
            "recall@10", "recall@k", "peak_gb", "note"]
    df = pd.DataFrame(rows).reindex(columns=cols).astype(object)
    df = df.where(df.notna(), "")
    per_size = pd.DataFrame(rows).reindex(columns=["patients", "compile_s", "forest_s",
                                                   "peak_gb"]).drop_duplicates("patients")
    text = (f"# scale: approximate vs exact neighbours ({time.strftime('%Y-%m-%d')}, "
            "2 cores, shared)\n\n"
            "NN-descent (pynndescent) against exact search, as `sparge.method.neighbors` "
            "runs them. Graph rows: the model's kNN in the representation (50-d synthetic "
            "features, k = 20); `approx_build_s` is the whole search (index, and queries "
            "for the class-to-class row); the MFA row builds both supervised graphs "
            "(one index per class) and gives the share of the exact edges found. "
            "Look-alike rows: queries of new patients in a "
            "16-d embedding, with the forest part of the metric (200 trees, forest weight "
            "2) or without; build = fitting `LookalikeIndex`, `*_query_s` = the batch of "
            "queries, `*_1q_ms` = one patient (median). Recall against exact search on a "
            "sample of queries (all look-alike queries). Empty exact cells: exact search "
            "over everyone not run at that size.\n\n"
            + to_markdown(df, ".3f") + "\n\n"
            "Per process: one-off compilation of the approximate searches (numba), "
            "forest fit, peak memory.\n\n" + to_markdown(per_size, ".1f") + "\n")
    publish(text, "scale_neighbors.md", quick)


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
    ap.add_argument("--neighbors", action="store_true",
                    help="approximate vs exact neighbours only")
    ap.add_argument("--neighbors-one", type=int)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(int(args.one[0]), int(args.one[1]), args.one[2])))
        return
    if args.neighbors_one:
        print(json.dumps(neighbors_one(args.neighbors_one, args.quick)))
        return
    if args.neighbors:
        neighbors_main(args.quick, max(args.timeout, 5400.0))
        return
    ns = [1000, 3000] if args.quick else [1000, 3000, 10000, 21142]
    ms = [50, 383] if args.quick else [50, 383, 3648]
    qs = [1000, 3000] if args.quick else [1000, 10000, 30000, 100000]
    rows_n = [run(n, 50, "fit", args.timeout) for n in ns]
    rows_m = [run(3000, m, "fit", args.timeout) for m in ms]
    rows_q = [run(n, 50, "query", args.timeout) for n in qs]
    mimic = [] if args.quick else [run(21142, 3648, "fit", args.timeout)]
    cols = ["patients", "features", "fit_s", "peak_gb", "query_ms", "matched_query_ms",
            "transform_per_s", "rank", "atoms", "note"]
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
