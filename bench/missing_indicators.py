"""Missingness indicators as features (DEFAULTS.md round 18; a question round 17 left).

Round 17 found that every smoother gap fill lost look-alike quality on patients with
few values, and asked whether a wild fill had been carrying information: whether a value
is missing can say something about the patient (a test not ordered). Here every column
with a gap among the inner training patients gets a 0/1 "missing" column next to it,
for the training patients and the queries alike, and SparGE is fitted on the widened
table (completion, codes, embedding and forest part all see the indicators). Paired with
the default on the same inner splits of the sixteen tuning cohorts; the validation
patients keep their own gaps (0 %) or lose 50 or 70 % of their measured values at random
(their indicators then say "missing" for those too, as they would for a new patient
entered with fewer values). Cohorts without gaps are left out (nothing would change).

    python -m bench.missing_indicators OUT.csv [--max-rows N] [--cohorts ...]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.common import hide_values
from bench.inner import inner_outcomes, tuning_args, tuning_splits
from bench.report import to_markdown
from bench.scores import neighbor_scores
from sparge import SparGE

HIDDEN = (0.0, 0.5, 0.7)


def with_indicators(X: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``X`` with a 0/1 column "missing" for every column in ``cols``."""
    return np.hstack([X, np.isnan(X[:, cols]).astype(float)])


def main() -> None:
    args = tuning_args(__doc__)
    rows = []
    for cohort, s, X, y_text, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        cols = np.flatnonzero(np.isnan(X[itr]).any(axis=0))
        if not len(cols):
            continue
        y_tr, y_q = inner_outcomes(y_text, itr, iva)
        for way in ("default", "indicators"):
            def prep(A: np.ndarray, way=way, cols=cols) -> np.ndarray:
                return with_indicators(A, cols) if way == "indicators" else A

            m = SparGE(random_state=0).fit(prep(X[itr]), y_text[itr])
            for share in HIDDEN:
                Xq = prep(hide_values(X[iva], share, seed=s))
                ba, p10 = neighbor_scores(m.kneighbors(Xq, 10)[1], y_tr, y_q)
                rows.append({"cohort": cohort, "split": s, "way": way, "hidden": share,
                             "indicators": len(cols), "score": (ba + p10) / 2})
        print(f"{cohort} split {s} done ({len(cols)} columns with gaps)", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    print(to_markdown(df.pivot_table(index=["cohort", "hidden"], columns="way",
                                     values="score").round(4).reset_index()))
    for share in HIDDEN:
        sub = df[df.hidden == share].pivot_table(index=["cohort", "split"], columns="way",
                                                 values="score").dropna()
        d = sub["indicators"] - sub["default"]
        print(f"hidden {share:.0%}: indicators - default {d.mean():+.4f} ± "
              f"{d.std(ddof=1) / np.sqrt(len(d)):.4f} over {len(d)} splits; better on "
              f"{(d.groupby(level=0).mean() > 0).sum()} of {d.index.get_level_values(0).nunique()}"
              " cohorts")


if __name__ == "__main__":
    main()
