"""Dask at scale: embed every patient of a 1 M and a 5 M synthetic cohort on a local
cluster, then find look-alikes among all of them (``sparge.services.distributed``).

Per size, in a fresh process: write the SingHEART-style cohort (its 60 named biomarkers,
Parquet, 100,000 patients per file), embed it with a model trained on a sample of 10,000
patients (SparGE defaults, forest part included) on a ``LocalCluster`` of single-threaded
worker processes, and search the look-alikes of 10 new patients across all partitions.
Reported: wall times, throughput, peak memory (max RSS) of every worker and of the client,
and the embedded cohort's size on disk.

    python -m bench.distributed                   # 1 M, and 5 M if projected under 10 min
    python -m bench.distributed --sizes 1000000   # chosen sizes
    python -m bench.distributed --quick           # 20,000 patients, a small model
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from bench.common import ROOT, timed
from bench.report import publish, to_markdown

#: Patients the model is trained on (the first ones of another seed's cohort).
TRAIN_PATIENTS = {"full": 10_000, "quick": 1_000}
#: A small, fast model for the quick mode (the plumbing is under test, not quality).
QUICK_PARAMS = {"max_iter": 0, "forest_trees": 10, "n_atoms": 8, "max_rank": 6,
                "n_components": 4, "ksvd_iter": 1}
N_QUERIES, K = 10, 10
SEED = 0


def train_model(path: Path, quick: bool) -> dict:
    """Train the bench's model on a sample and save it with its encoder."""
    from sparge import save_model
    from sparge.data.synthetic import core_columns, make_cohort_rows
    from sparge.services.workflow import encode_cohort, train

    n = TRAIN_PATIENTS["quick" if quick else "full"]
    df = make_cohort_rows(0, n, random_state=SEED + 1, columns=core_columns())
    cohort = encode_cohort(df, id_column="Subject ID", label_column="Outcome")
    model, seconds = timed(train, cohort, QUICK_PARAMS if quick else {})
    save_model(path, model, encoder=cohort.encoder)
    _, leaves = model.lookalike_parts()
    return {"train_patients": len(cohort.train_rows), "train_s": seconds,
            "components": model.lookalike_parts()[0].shape[1],
            "trees": 0 if leaves is None else leaves.shape[1]}


def _peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # kB -> GB


def _folder_gb(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.iterdir()) / 1e9


def one(n: int, model_path: Path, work: Path, workers: int, partition: int) -> dict:
    """Generate, embed and search one cohort size (run in a fresh process)."""
    import numpy as np

    from sparge import load_model
    from sparge.data.synthetic import core_columns, make_cohort_rows, write_partitioned_cohort
    from sparge.services.distributed import cohort_lookalikes, dask_client, embed_cohort

    src, out = work / f"cohort_{n}", work / f"embedded_{n}"
    _, gen_s = timed(write_partitioned_cohort, src, n, partition, random_state=SEED,
                     columns=core_columns())
    model, enc = load_model(model_path)
    queries = make_cohort_rows(0, N_QUERIES, random_state=SEED + 2, columns=core_columns())
    Xq = pd.DataFrame(enc.transform(queries), columns=enc.feature_names_out_)
    with dask_client(n_workers=workers, threads_per_worker=1, processes=True) as client:
        summary, embed_s = timed(embed_cohort, model_path, src, out, client=client)
        embed_peaks = client.run(_peak_gb)
        res, search_s = timed(cohort_lookalikes, model, Xq, out, n_neighbors=K,
                              client=client)
        peaks = client.run(_peak_gb)
    assert len(res.table) == N_QUERIES * K and np.isfinite(res.table["distance"]).all()
    row = {"patients": n, "partitions": len(summary.manifest.files), "workers": workers,
           "generate_s": gen_s, "embed_s": embed_s, "embed_per_s": n / embed_s,
           "worker_peak_gb": max(embed_peaks.values()),
           "search_s": search_s, "search_worker_peak_gb": max(peaks.values()),
           "client_peak_gb": _peak_gb(), "source_gb": _folder_gb(src),
           "embedded_gb": _folder_gb(out)}
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return row


def run(n: int, model_path: Path, work: Path, workers: int, partition: int,
        timeout: float) -> dict:
    cmd = [sys.executable, "-m", "bench.distributed", "--one", str(n), str(model_path),
           str(work), "--workers", str(workers), "--partition", str(partition)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"patients": n, "note": f"did not finish in {timeout:.0f} s"}
    if out.returncode != 0:
        return {"patients": n, "note": (out.stderr.strip().splitlines() or ["?"])[-1][:120]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _over_budget(rows: list[dict], n: int, budget: float) -> dict | None:
    """A 'not run' row when ``n`` patients would take longer than ``budget`` seconds,
    projected linearly from the last size that finished."""
    done = [r for r in rows if "embed_s" in r]
    if not done:
        return None
    last = done[-1]
    seconds = (last["generate_s"] + last["embed_s"] + last["search_s"]) * n / last["patients"]
    if seconds <= budget:
        return None
    return {"patients": n, "note": f"not run: about {seconds / 60:.0f} min projected from "
                                   f"{last['patients']:,} patients (budget "
                                   f"{budget / 60:.0f} min)"}


def render(rows: list[dict], info: dict, workers: int, partition: int, quick: bool,
           note: str | None = None) -> str:
    """The Markdown result: what was run, then one row per cohort size."""
    cols = ["patients", "partitions", "generate_s", "embed_s", "embed_per_s",
            "worker_peak_gb", "search_s", "search_worker_peak_gb", "client_peak_gb",
            "source_gb", "embedded_gb", "note"]
    table = pd.DataFrame(rows).reindex(columns=cols).astype(object)
    for col in ("patients", "partitions", "embed_per_s"):
        table[col] = [f"{v:,.0f}" if isinstance(v, int | float) and v == v else ""
                      for v in table[col]]
    table = table.where(table.notna(), "")
    return (f"# distributed ({time.strftime('%Y-%m-%d')}, 2 cores, LocalCluster of "
            f"{workers} single-threaded worker processes)\n\n"
            f"Model: SparGE {'small quick-mode parameters' if quick else 'defaults'}, "
            f"trained on {info['train_patients']:,} patients in {info['train_s']:.0f} s "
            f"({info['components']} components, forest part of {info['trees']} trees); "
            "cohort: the synthetic SingHEART-style stream, 60 named biomarkers, "
            f"{partition:,} patients per Parquet file. embed = read, encode, embed and write "
            f"every patient; search = the {K} look-alikes of {N_QUERIES} new patients among "
            "all of them (exact, top-k per partition then a merge). Peaks are max RSS; "
            "seconds are wall time.\n\n"
            + to_markdown(table, ".2f") + "\n" + (f"\n{note}\n" if note else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="20,000 patients, a small model")
    ap.add_argument("--sizes", type=int, nargs="*", help="cohort sizes (default 1 M and 5 M)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--partition", type=int, help="patients per file (default 100,000)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per size")
    ap.add_argument("--budget", type=float, default=600,
                    help="skip a size whose time, projected linearly from the previous "
                         "size's, is above this many seconds (default 600)")
    ap.add_argument("--note", help="a sentence printed under the table (e.g. other load "
                                   "on the machine during the run)")
    ap.add_argument("--one", nargs=3, metavar=("N", "MODEL", "WORK"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    partition = args.partition or (5_000 if args.quick else 100_000)
    if args.one:
        n, model_path, work = int(args.one[0]), Path(args.one[1]), Path(args.one[2])
        print(json.dumps(one(n, model_path, work, args.workers, partition)))
        return
    sizes = args.sizes or ([20_000] if args.quick else [1_000_000, 5_000_000])
    work = Path(tempfile.mkdtemp(prefix="sparge_bench_distributed_"))
    try:
        info = train_model(work / "model.sparge", args.quick)
        rows: list[dict] = []
        for n in sizes:
            skip = _over_budget(rows, n, args.budget)
            row = skip or run(n, work / "model.sparge", work, args.workers, partition,
                              args.timeout)
            print(json.dumps(row), flush=True)
            rows.append(row)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = render(rows, info, args.workers, partition, args.quick, args.note)
    publish(text, "distributed.md", args.quick)


if __name__ == "__main__":
    main()
