"""Paired differences of recorded rows (``bench.paired``), from the CSVs of several runs.

    python -m bench.paired_rows ROWS.csv [ROWS.csv ...] [--method SparGE]
        [--against raw "forest proximity"]

Prints every method's mean per cohort and the paired differences of ``--method`` against
the others, with Nadeau–Bengio corrected standard errors. The rows are ``bench.quality`` /
``bench.broad_check`` CSVs of the same seeded splits (e.g. another run's peer beside
SparGE's rows); the first file's row wins where two give the same cohort, split and method.
"""

from __future__ import annotations

import argparse

import pandas as pd

from bench.paired import paired_differences, paired_markdown
from bench.report import to_markdown


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows", nargs="+", help="CSV files of per-split rows")
    ap.add_argument("--method", default="SparGE")
    ap.add_argument("--against", nargs="*", default=None,
                    help="reference methods (default: every other method in the rows)")
    ap.add_argument("--measures", nargs="*", default=["knn_bal_acc", "p@10_balanced"])
    args = ap.parse_args(argv)
    rows = pd.concat([pd.read_csv(f) for f in args.rows], ignore_index=True)
    rows = rows[rows["status"] == "ok"].drop_duplicates(["cohort", "split", "method"])
    against = args.against or [m for m in dict.fromkeys(rows["method"]) if m != args.method]
    means = rows.pivot_table(index="cohort", columns="method", values=args.measures)
    means.columns = [f"{meth} {meas}" for meas, meth in means.columns]
    print(to_markdown(means.reset_index()) + "\n")
    print(paired_markdown(paired_differences(rows, args.method, against, args.measures),
                          args.method))


if __name__ == "__main__":
    main()
