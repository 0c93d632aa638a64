"""What "8 of 10 look-alikes had the outcome" meant for held-out patients.

The app shows the outcomes of a patient's 10 look-alikes as shares. Walk-through 72 read
"9 of 10 died" as a 90 % risk, where about half of such held-out patients died. This runs
the Model page's held-out check (:func:`sparge.services.lookalike_check.lookalike_check`:
stratified 70/30 splits, everything fitted on the training part) on benchmark cohorts and
prints, for each cohort's rarer outcome and each band of the count of look-alikes with it,
how many held-out patients fell there and how many had the outcome, for SparGE, forest
proximity and raw features. Chooses nothing.

    python -m bench.share_reliability [--splits 5] [--cohorts whas500 ...] [--quick]
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from bench.cohorts import COHORTS, encoded
from bench.common import split_arguments
from bench.report import publish, to_markdown
from sparge.services.lookalike_check import METHODS, check_reliability, lookalike_check


def band_table(cohort: str, res: pd.DataFrame, y: np.ndarray) -> pd.DataFrame:
    """One row per band of the rarer outcome: patients and observed share, by method."""
    values, counts = np.unique(y.astype(str), return_counts=True)
    rare = str(values[np.argmin(counts)])
    rows: dict[tuple, dict] = {}
    for method in METHODS:
        rel = check_reliability(res, method)
        if rel is None:
            continue
        for r in rel[rel["outcome"] == rare].itertuples():
            row = rows.setdefault((r.low, r.high), {
                "cohort": cohort, "outcome": rare, "base rate": counts.min() / counts.sum(),
                "look-alikes with it": f"{r.low}–{r.high} of {r.k}"})
            row[f"{method} patients"] = r.patients
            row[f"{method} had it"] = r.had / r.patients
    out = pd.DataFrame([rows[b] for b in sorted(rows)])
    for method in METHODS:  # a band one method left empty: no patients, not "nan"
        if f"{method} patients" in out:
            out[f"{method} patients"] = out[f"{method} patients"].astype("Int64")
    return out


def miscalibration(res: pd.DataFrame, method: str) -> float:
    """Patient-weighted mean |observed share − band's middle share| over every outcome's
    bands: 0 when a share of look-alikes reads as a risk."""
    rel = check_reliability(res, method)
    mid = (rel["low"] + rel["high"]) / 2 / rel["k"]
    gap = (rel["had"] / rel["patients"] - mid).abs()
    return float((gap * rel["patients"]).sum() / rel["patients"].sum())


def main() -> None:
    args = split_arguments(__doc__, splits=5, cohorts=COHORTS, quick_rows=200)
    t0 = time.perf_counter()
    bands, gaps = [], []
    for cohort in args.cohorts:
        X, y, _ = encoded(cohort, max_rows=args.max_rows)
        res = lookalike_check(X, y, n_splits=args.splits)
        bands.append(band_table(cohort, res, y))
        gaps.append({"cohort": cohort, **{m: miscalibration(res, m) for m in METHODS}})
        print(f"{cohort}: {time.perf_counter() - t0:.0f} s", flush=True)
    text = (f"# What a share of look-alikes meant for held-out patients "
            f"({time.strftime('%Y-%m-%d')}, {args.splits} stratified 70/30 splits)\n\n"
            "The rarer outcome of each cohort; for each band of the count of the 10 "
            "look-alikes with it: held-out patients in the band, and the share of them "
            "who had it.\n\n" + to_markdown(pd.concat(bands, ignore_index=True)) +
            "\n\nMean |observed share − the band's middle share| (patient-weighted, every "
            "outcome): 0 when a share of look-alikes reads as a risk.\n\n"
            + to_markdown(pd.DataFrame(gaps)) + "\n")
    publish(text, "share_reliability.md", args.quick)


if __name__ == "__main__":
    main()
