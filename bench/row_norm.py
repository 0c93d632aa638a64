"""The paper's unit-norm rows and new patients with few values (DEFAULTS.md round 18).

Walk-through 19 entered eGFR alone on the New patient page: 30, 40 and 50 mL/min put the
patient on the same point of the map. A row's completion scores are linear in its values
(a gap-free row, or one value and a ridge), and the paper's normalisation divides them by
their length: a patient twice as far from the cohort's mean, in the same direction, lands
on the same point, and one value keeps only its sign. Round 18 item 3 found the
normalisation neutral on complete patients; here both are scored on the inner splits of
the sixteen tuning cohorts with the validation patients' values hidden (0, 50, 70 %) as
the New patient page sees them (the model's own ``kneighbors``, anchored as shipped):
the outcome score, the look-alikes' distance on the values given and their error on the
hidden ones (``bench.inner.hidden_value_scores``).

    python -m bench.row_norm OUT.csv [--max-rows N] [--cohorts ...]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.inner import hidden_value_scores, inner_outcomes, tuning_args, tuning_splits
from bench.report import to_markdown
from sparge import SparGE

HIDDEN = (0.0, 0.5, 0.7)
WAYS = {"unit-norm rows (default)": {}, "no row normalisation": {"normalize_rows": False}}


def main() -> None:
    args = tuning_args(__doc__)
    rows = []
    for cohort, s, X, y_text, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        y_tr, y_q = inner_outcomes(y_text, itr, iva)
        for way, params in WAYS.items():
            m = SparGE(random_state=0, **params).fit(X[itr], y_text[itr])
            rows += [{"cohort": cohort, "split": s, "way": way, **r}
                     for r in hidden_value_scores(m, X[iva], y_tr, y_q, s, HIDDEN)]
        print(f"{cohort} split {s} done", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    ways = list(WAYS)
    for v in ("score", "given_mad", "hidden_mae"):
        print(f"\n{v}\n" + to_markdown(df.pivot_table(index="hidden", columns="way",
                                                       values=v).round(4).reset_index()))
    for share in HIDDEN:
        sub = df[df.hidden == share].pivot_table(index=["cohort", "split"], columns="way",
                                                 values="score").dropna()
        d = sub[ways[1]] - sub[ways[0]]
        per = d.groupby(level=0).mean()
        print(f"hidden {share:.0%}: {ways[1]} - default {d.mean():+.4f} ± "
              f"{d.std(ddof=1) / np.sqrt(len(d)):.4f} over {len(d)} splits; better on "
              f"{int((per > 0).sum())} of {len(per)} cohorts")


if __name__ == "__main__":
    main()
