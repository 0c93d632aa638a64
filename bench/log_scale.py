"""A feature spanning orders of magnitude, compared by its logarithm or on its own scale
(``SparGE(log_scale="auto")`` against ``"none"``; DEFAULTS.md round 26).

Walk-through 38's HIV clinic: on a viral load's own scale (20 to 1.2 million copies/mL,
SD about 100,000), 50 and 7,673 copies/mL are 0.08 SD apart, and a failing patient's
look-alikes sat at 50. With ``log_scale="auto"`` a feature of positive values spanning at
least three orders of magnitude is standardised as its base-10 logarithm. On paired
stratified 70/30 splits (fitted on the training patients, the same seed for both), for
each cohort whose encoded table has such a feature: kNN(5) balanced accuracy and class-
balanced precision@10 of the look-alikes, and the paired difference (± the corrected
standard error). The generated HIV clinic export (:func:`bench.reading_truth.hiv_export`)
and every benchmark cohort with such a feature (of the 49, only SurvSet's prostate,
whose acid phosphatase spans 3.1 decades)::

    python -m bench.log_scale [--quick] [--splits 10]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd

from bench.clinic_exports import hiv_export
from bench.cohorts import encoded
from bench.report import publish, to_markdown
from bench.scores import neighbor_scores
from bench.splits import stratified_splits
from sparge import Encoder, SparGE, read_table
from sparge.services.split_errors import paired_difference


def hiv_cohort(n: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """The generated HIV clinic export, encoded as the Data page reads it."""
    df, _ = hiv_export(n, seed)
    df = read_table(df.to_csv(index=False).encode())
    enc = Encoder(id_column="Patient ID", label_column="Virological failure at 12 months",
                  max_patient_missing=None)
    X = enc.fit_transform(df)
    return X, np.asarray(enc.labels(df)).astype(str)


def compare(name: str, X: np.ndarray, y: np.ndarray, n_splits: int) -> list[dict]:
    classes, yi = np.unique(y, return_inverse=True)
    scores: dict[str, list[tuple[float, float]]] = {"auto": [], "none": []}
    logged = []
    for s, tr, te in stratified_splits(yi, n_splits):
        for how in scores:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = SparGE(random_state=s, log_scale=how).fit(X[tr], yi[tr])
            scores[how].append(neighbor_scores(m.kneighbors(X[te], n_neighbors=10)[1],
                                               yi[tr], yi[te]))
            if how == "auto":
                logged = m.log_columns_.tolist()
    rows = []
    for how, sc in scores.items():
        a = np.asarray(sc)
        rows.append({"cohort": name, "log_scale": how, "features in logs":
                     str(len(logged) if how == "auto" else 0),
                     "kNN balanced accuracy": f"{a[:, 0].mean():.3f}",
                     "precision@10 (balanced)": f"{a[:, 1].mean():.3f}"})
    a, b = np.asarray(scores["auto"]), np.asarray(scores["none"])
    diff = {"cohort": name, "log_scale": "auto − none", "features in logs": ""}
    for j, measure in enumerate(("kNN balanced accuracy", "precision@10 (balanced)")):
        mean, se, _ = paired_difference(pd.Series(a[:, j]), pd.Series(b[:, j]), 0.3)
        diff[measure] = f"{mean:+.4f} ± {se:.4f}"
    return rows + [diff]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a small export, 2 splits")
    ap.add_argument("--splits", type=int, default=10)
    args = ap.parse_args()
    n, splits = (200, 2) if args.quick else (900, args.splits)
    rows = compare(f"generated HIV clinic export ({n})", *hiv_cohort(n), splits)
    if not args.quick:
        X, y, _ = encoded("survset:prostate")
        rows += compare("survset:prostate", X, y, splits)
    publish("Look-alike quality with a wide-range feature in logarithms (`log_scale=\"auto\"`) "
            f"or on its own scale (\"none\"); {splits} paired 70/30 splits\n\n"
            + to_markdown(pd.DataFrame(rows)), "log_scale.md", args.quick)


if __name__ == "__main__":
    main()
