"""Gaps filled with the probabilistic-PCA posterior before the completion's projection
(``completion_fill="posterior"``) against the shared-ridge projection alone ("none"),
on the training splits of the sixteen tuning cohorts (DEFAULTS.md round 16).

Every inner split's validation patients keep their own gaps (0 %) or lose 50 or 70 % of
their measured values at random; both models are scored on their look-alike lists (the
model's own ``kneighbors``, anchored as shipped): the rounds' outcome score, how far the
10 look-alikes are from the patient on the values given, and how well their mean predicts
the hidden values (SD units).

    python -m bench.posterior_fill OUT.csv [--max-rows N] [--cohorts ...]
        [--fills none posterior calibrated] [--merge EARLIER.csv]

Round 17 compared a ``calibrated`` fill (the noise chosen on held-out values; its code is
in commit 4d9b0ce, removed after it lost) with round 16's rows (``--fills calibrated
--merge tune_round16_posterior_fill.csv``: the fits are seeded, so the earlier variants
need not be fitted again).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.inner import hidden_value_scores, inner_outcomes, tuning_args, tuning_splits
from bench.report import to_markdown
from sparge import SparGE

HIDDEN = (0.0, 0.5, 0.7)


def main() -> None:
    def extra(ap):
        ap.add_argument("--fills", nargs="+", default=["none", "posterior"])
        ap.add_argument("--merge", default=None)

    args = tuning_args(__doc__, extra)
    rows = []
    for cohort, s, X, y_text, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        y_tr, y_q = inner_outcomes(y_text, itr, iva)
        for fill in args.fills:
            m = SparGE(random_state=0, completion_fill=fill).fit(X[itr], y_text[itr])
            rows += [{"cohort": cohort, "split": s, "fill": fill, **r}
                     for r in hidden_value_scores(m, X[iva], y_tr, y_q, s, HIDDEN)]
        print(f"{cohort} split {s} done", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    if args.merge:
        df = pd.concat([pd.read_csv(args.merge), df], ignore_index=True)
    for v in ("score", "given_mad", "hidden_mae"):
        print(f"\n{v}\n" + to_markdown(df.pivot_table(index="hidden", columns="fill",
                                                       values=v).round(4).reset_index()))
    fills = list(dict.fromkeys(df["fill"]))
    for share in HIDDEN:
        sub = df[df.hidden == share].pivot_table(index=["cohort", "split"], columns="fill",
                                                 values="score").dropna()
        for a, b in zip(fills[1:], fills[:-1], strict=True):
            d = sub[a] - sub[b]
            up = int((d.groupby(level=0).mean() > 0).sum())
            print(f"{a} - {b} at {share:.0%} hidden: {d.mean():+.4f} +- "
                  f"{d.std() / np.sqrt(len(d)):.4f} over {len(d)} splits; "
                  f"{up} of {d.index.get_level_values(0).nunique()} cohorts up")


if __name__ == "__main__":
    main()
