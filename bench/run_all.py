"""Every benchmark in one go, one after the other, with the wall time of each.

    python -m bench.run_all            # the full suite (target: under 40 minutes on 2 cores)
    python -m bench.run_all --quick    # every script in its quick mode (about 3 minutes)
    python -m bench.run_all --scale    # and the hospital-sized ones (about 3 hours in full)

Each script runs in its own process (``python -m bench.<script>`` from the repository
root) and prints its tables as it goes; at the end this prints (and, for the full suite,
writes to ``bench/results/RUN_ALL.md``) the time each one took and the total. Run it alone
on the machine: the timings are part of the results.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from bench.common import RESULTS, ROOT
from bench.report import to_markdown

# (script module under bench/, arguments of the full run). The full-run arguments are the
# budget choices documented in bench/results/README.md.
SUITE = [
    ("core_speed", []),
    ("quality", ["--timeout", "60", "--budget", "120"]),
    ("weight_vote", []),
    ("robustness", []),
    ("paper_table", ["--splits", "3"]),
    ("scale", []),
    ("broad_check", []),
    ("reading_truth", []),
    ("lookalike_stability", []),
    ("log_scale", []),
    ("fit_estimate", []),
    ("encode_speed", []),
    ("compare_estimate", []),
    ("share_reliability", []),
]

# The hospital-sized benchmarks (issue 14), run with ``--scale``: tens of minutes each in
# full (1 M and 5 M patients), seconds to a few minutes in their quick modes.
SCALE_SUITE = [
    ("scale_train", []),
    ("scale", ["--neighbors"]),
    ("distributed", []),
    ("map_render", []),
]


def command(script: str, args: list[str]) -> list[str]:
    """The command line running ``bench.<script>`` with ``args`` (from the root)."""
    return [sys.executable, "-m", f"bench.{script}", *args]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", nargs="*", help="run only these scripts (e.g. quality)")
    ap.add_argument("--scale", action="store_true",
                    help="also the hospital-sized benchmarks (scale_train, scale --neighbors, "
                         "distributed, map_render)")
    args = ap.parse_args()
    import pandas as pd

    rows = []
    t_all = time.perf_counter()
    only = {name.removesuffix(".py") for name in args.only or []}
    for script, full_args in SUITE + (SCALE_SUITE if args.scale else []):
        if only and script not in only:
            continue
        script_args = ([a for a in full_args if a == "--neighbors"] + ["--quick"]
                       if args.quick else full_args)
        cmd = command(script, script_args)
        print(f"\n===== {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, cwd=ROOT).returncode
        rows.append({"script": script, "arguments": " ".join(script_args) or "(defaults)",
                     "exit": rc, "minutes": (time.perf_counter() - t0) / 60})
    total = (time.perf_counter() - t_all) / 60
    table = pd.DataFrame(rows)
    text = (f"# Whole benchmark suite ({time.strftime('%Y-%m-%d %H:%M')}, "
            f"{'quick' if args.quick else 'full'})\n\n{to_markdown(table)}\n\n"
            f"Total: {total:.1f} minutes\n")
    print("\n" + text)
    if not args.quick and not args.only:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "RUN_ALL.md").write_text(text)
    sys.exit(max((r["exit"] for r in rows), default=0))


if __name__ == "__main__":
    main()
