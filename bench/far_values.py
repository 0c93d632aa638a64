"""Which values the far-value check flags on the benchmarks' public cohorts.

``sparge.data.far_values`` flags values far from the rest of their column (a typo or
another unit). This prints, for every cohort of the benchmarks (development, broad, fresh,
third and fourth sets), how many values the rule flags, with and without its second
condition (cut off from the bulk by a jump), and examples with the column's median, so
that a reader can judge whether they look like errors::

    python -m bench.far_values [--quick]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

from bench.cohorts import ALL_COHORTS, load_cohort
from sparge import Encoder
from sparge.data.far_values import far_mask


def flagged(name: str) -> tuple[int, int, int, str]:
    """Values, values flagged without / with the jump condition, and examples."""
    df, label = load_cohort(name)
    enc = Encoder(label_column=label, max_patient_missing=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        X = enc.fit_transform(df)
    num = [j for j, f in enumerate(enc.feature_names_out_) if enc.roles_[f] == "numeric"]
    Xn = X[:, num]
    loose = far_mask(Xn, gap=1.0)  # any jump: the first condition alone
    strict = far_mask(Xn)
    examples = []
    for j in np.flatnonzero(strict.any(axis=0))[:4]:
        col = Xn[:, j]
        shown = ", ".join(f"{v:.3g}" for v in col[strict[:, j]][:3])
        examples.append(f"{enc.feature_names_out_[num[j]]} {shown} "
                        f"(median {np.nanmedian(col):.3g})")
    return int(np.isfinite(Xn).sum()), int(loose.sum()), int(strict.sum()), \
        "; ".join(examples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="three cohorts")
    args = ap.parse_args()
    cohorts = ALL_COHORTS
    if args.quick:
        cohorts = ["whas500", "breast_cancer", "survset:rhc"]
    print("| cohort | values | far, first condition alone | far (the rule) | examples |")
    print("|---|---|---|---|---|")
    total = np.zeros(3, int)
    for name in cohorts:
        n, loose, strict, ex = flagged(name)
        total += (n, loose, strict)
        print(f"| {name.replace('survset:', '')} | {n:,} | {loose} | {strict} | {ex} |",
              flush=True)
    print(f"| *all {len(cohorts)}* | {total[0]:,} | {total[1]} | {total[2]} | |")


if __name__ == "__main__":
    main()
