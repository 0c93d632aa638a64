"""Do the defaults carry over? Look-alike quality on a broader set of clinical cohorts.

The defaults are chosen on training splits only (``bench.tune``'s inner validation): of
the four development cohorts and, since rounds 8–9 of ``bench/results/DEFAULTS.md`` (the
forest's leaf size and weight), also of these twelve. This script chooses nothing: it
scores the defaults on the test patients of twelve public clinical cohorts shipped by
SurvSet (``bench.cohorts.BROAD_COHORTS``): raw features,
random-forest proximity, SparGE with its defaults and, with ``--compare``, SparGE with
other parameters (e.g. the previous defaults). Same protocol as ``bench.quality``
(stratified 70/30 splits, everything fitted on the training split).

    python -m bench.broad_check [--splits 5] [--max-rows 3000]
        [--compare '{"forest_min_leaf": 5}' ...] [--quick] [--fresh | --third | --fourth]
        [--from-csv bench/results/broad_check_third.csv]
        [--methods "forest proximity (balanced)" --merge bench/results/broad_check_third.csv]

``--fresh`` scores ``bench.cohorts.FRESH_COHORTS`` instead: ten more SurvSet cohorts that
no decision has used, neither their training nor their test splits; ``--third`` scores
``bench.cohorts.THIRD_COHORTS``, ten more chosen when the fresh set had been looked at
three times; ``--fourth`` scores ``bench.cohorts.FOURTH_COHORTS``, thirteen small and
narrow ones chosen by a rule when the third had served a diagnosis. ``--from-csv``
rewrites the report from a run's recorded rows (its CSV) without fitting anything;
``--methods`` with ``--merge`` scores only the named methods and reports them beside
another run's recorded rows (the splits are seeded, so split ``s`` is the same patients in
both). The report ends with the paired differences of SparGE against
every other method, with Nadeau–Bengio corrected standard errors (``bench.paired``).
"""

from __future__ import annotations

import argparse
import json
import time

import pandas as pd

from bench.cohorts import BROAD_COHORTS, FOURTH_COHORTS, FRESH_COHORTS, THIRD_COHORTS
from bench.paired import paired_differences, paired_markdown
from bench.protocol import evaluate
from bench.report import RESULTS, publish, to_markdown

MEASURES = ["knn_bal_acc", "p@10_balanced"]
METHODS = ["raw", "forest proximity", "SparGE"]


def run(args, t0: float) -> pd.DataFrame:
    """Every split's scores of ``args.methods`` (and ``--compare``)."""
    frames = []
    for cohort in args.cohorts:
        res = evaluate(cohort, n_splits=args.splits, methods=args.methods,
                       timeout=600, max_rows=args.max_rows, verbose=False)
        for params in args.compare:
            other = evaluate(cohort, n_splits=args.splits, methods=["SparGE"], timeout=600,
                             max_rows=args.max_rows, verbose=False,
                             sparge_params=json.loads(params))
            other["method"] = "SparGE " + params
            res = pd.concat([res, other])
        frames.append(res)
        print(f"{cohort}: {time.perf_counter() - t0:.0f} s", flush=True)
    return pd.concat(frames)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument("--max-rows", type=int, default=3000)
    ap.add_argument("--cohorts", nargs="*", default=BROAD_COHORTS)
    ap.add_argument("--compare", nargs="*", default=[],
                    help="SparGE parameters (JSON), one more SparGE column each")
    ap.add_argument("--quick", action="store_true", help="3 cohorts, 2 splits, 800 rows")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--fresh", action="store_true",
                       help="the fresh set (bench.cohorts.FRESH_COHORTS) instead, kept as "
                            "broad_check_fresh.md")
    which.add_argument("--third", action="store_true",
                       help="the third set (bench.cohorts.THIRD_COHORTS) instead, kept as "
                            "broad_check_third.md")
    which.add_argument("--fourth", action="store_true",
                       help="the fourth set (bench.cohorts.FOURTH_COHORTS) instead, kept as "
                            "broad_check_fourth.md")
    ap.add_argument("--from-csv", default=None,
                    help="rewrite the report from this run's recorded rows; fits nothing")
    ap.add_argument("--methods", nargs="*", default=METHODS,
                    help="methods to score (bench.peers.PEERS names)")
    ap.add_argument("--merge", default=None,
                    help="another run's rows (CSV) to report beside these, for the "
                         "methods not scored here")
    args = ap.parse_args()
    if args.fresh:
        args.cohorts = FRESH_COHORTS
    if args.third:
        args.cohorts = THIRD_COHORTS
    if args.fourth:
        args.cohorts = FOURTH_COHORTS
    if args.quick:
        args.cohorts, args.splits, args.max_rows = args.cohorts[4:7], 2, 800
    t0 = time.perf_counter()
    if args.from_csv:
        df = pd.read_csv(args.from_csv)
        args.splits = int(df["split"].nunique())
    else:
        df = run(args, t0)
    df["cohort"] = df["cohort"].str.replace("survset:", "", regex=False)
    if args.merge:
        kept = pd.read_csv(args.merge)
        kept = kept[~kept["method"].isin(df["method"].unique())
                    & kept["cohort"].isin(df["cohort"].unique())
                    & (kept["split"] < args.splits)]
        df = pd.concat([kept, df], ignore_index=True)
    missing = set(METHODS) - set(df["method"])  # the report is built on these three
    if missing:
        raise SystemExit(f"the report needs rows of {sorted(missing)}: score them or give "
                         "--merge")
    df = df[df["status"] == "ok"]
    table = df.pivot_table(index="cohort", columns="method", values=MEASURES,
                           aggfunc="mean")
    table.columns = [f"{meth} {meas}" for meas, meth in table.columns]
    methods = list(dict.fromkeys(df["method"]))
    cols = [f"{m} {meas}" for m in methods for meas in MEASURES]
    table = table[cols].reset_index()
    sparge = table[f"SparGE {MEASURES[0]}"]
    peers = [m for m in methods if m not in ("SparGE", "raw")]
    summary = (f"SparGE's kNN balanced accuracy: at least raw's on "
               f"{(sparge >= table[f'raw {MEASURES[0]}']).sum()} of {len(table)} cohorts"
               + "".join(f", at least {m}'s on {(sparge >= table[f'{m} {MEASURES[0]}']).sum()}"
                         f" (within 0.005 of it on "
                         f"{(sparge >= table[f'{m} {MEASURES[0]}'] - 0.005).sum()})"
                         for m in peers)
               + ". Mean over cohorts: "
               + ", ".join(f"{m} {table[f'{m} {MEASURES[0]}'].mean():.3f} / "
                           f"{table[f'{m} {MEASURES[1]}'].mean():.3f}" for m in methods))
    when = (f"rewritten {time.strftime('%Y-%m-%d')} from the rows of {args.from_csv}"
            if args.from_csv else time.strftime('%Y-%m-%d'))
    text = (f"# Broad check of the defaults ({when}; {args.splits} "
            f"stratified 70/30 splits, cohorts capped at {args.max_rows} patients; kNN "
            f"balanced accuracy and class-balanced precision@10)\n\n"
            + to_markdown(table) + "\n\n" + summary + "\n\n"
            + paired_markdown(paired_differences(
                df, "SparGE", [m for m in methods if m != "SparGE"], MEASURES)) + "\n")
    name = ("broad_check_fresh.md" if args.fresh else "broad_check_third.md" if args.third
            else "broad_check_fourth.md" if args.fourth else "broad_check.md")
    if args.merge and not args.from_csv:  # the recorded run's report stays as it was
        name = name.replace(".md", "_merged.md")
    publish(text, name, args.quick)
    if not args.quick and not args.from_csv:  # every split's row, for paired comparisons
        df.to_csv(RESULTS / name.replace(".md", ".csv"), index=False)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
