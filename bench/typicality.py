"""The New patient page's "unlike the training patients" check, and the completed values
that the teaching page draws (DEFAULTS.md rounds 17 and 18).

Until round 17, ``SparGE.complete`` returned the shared-ridge projection that the
representation uses (ridge 1 on an orthonormal basis): a complete patient's values came
back halved, and with every component kept the residual of the typicality check was a
quarter of the patient's squared distance from the cohort mean, a measure of how extreme
the patient is, not of how badly their values fit the cohort's patterns. Three scores:

- ``shared ridge (before)``: that residual;
- ``posterior residual``: the residual of the probabilistic-PCA posterior reconstruction
  (``SparGE.reconstruct``) alone; a row with few values fits a wrong one by large scores
  on weak components;
- ``misfit (round 17)``: the Mahalanobis distance under the same model
  (``SparGE.misfit``): the residual plus the weak components' cost;
- ``misfit, cross-fitted (now)``: the same score against a cross-fitted reference
  (round 18, ``residual_reference``: each training patient scored under a completion
  learned without it); the three above are compared with the training patients' own
  residuals under the model, which the basis followed.

On test splits (the model fitted on the training patients only), per cohort:

- ``flagged``: share of ordinary test patients flagged at the page's threshold (0.99);
- ``typo x10``: share flagged after one measured continuous value was multiplied by 10
  (a slipped decimal point or other units), every assessed test patient once;
- ``typo x0.1``: the same, divided by 10;
- ``hidden rmse``: root mean square error (SD units) on 30 % of the test patients'
  measured values hidden from them (the values filled in: before, the shared-ridge
  projection; now ``SparGE.complete``), and the column mean's (0 in SD units) for scale.

    python -m bench.typicality [--splits 3] [--cohorts ...] [--csv OUT.csv]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from bench.cohorts import encoded
from bench.common import hide_values
from bench.report import to_markdown
from bench.splits import stratified_splits
from sparge import SparGE
from sparge.method.lowrank import completion_scores
from sparge.services.typicality import ATYPICAL_SHARE, assessed, residual_reference

COHORTS = ["whas500", "survset:GBSG2", "support2", "breast_cancer", "survset:colon"]


def shared_ridge_values(model: SparGE, X: np.ndarray) -> np.ndarray:
    """Round 16's ``complete`` (standardised units): the representation's projection."""
    V = model.completion_components_
    return completion_scores(model.standardize(X), V, model.completion_ridge_,
                             model.completion_fill_ridge_) @ V


def residual(Xs: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """Round 16's residual: mean squared difference on the measured values, ``NaN``
    for a patient the page does not assess."""
    seen = np.isfinite(Xs)
    sq = np.where(seen, (np.nan_to_num(Xs) - Z) ** 2, 0.0).sum(axis=1)
    return enough(Xs, sq / np.maximum(seen.sum(axis=1), 1))


def enough(Xs: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``r`` where the page assesses a patient (:func:`assessed`), else NaN."""
    return np.where(assessed(Xs), r, np.nan)


def flag_share(ref: np.ndarray, r: np.ndarray) -> float:
    """Share of the assessed patients at or beyond the threshold."""
    ref = np.sort(ref[np.isfinite(ref)])
    r = r[np.isfinite(r)]
    if not len(r):
        return float("nan")
    return float(np.mean(np.searchsorted(ref, r, side="left") / len(ref) >= ATYPICAL_SHARE))


def typo(X: np.ndarray, continuous: np.ndarray, factor: float, seed: int) -> np.ndarray:
    """One measured continuous value of every patient multiplied by ``factor``."""
    rng = np.random.default_rng(seed)
    out = X.copy()
    for i in range(len(out)):
        cols = np.flatnonzero(np.isfinite(out[i]) & continuous & (out[i] != 0))
        if len(cols):
            j = rng.choice(cols)
            out[i, j] *= factor
    return out


def scores_and_values(model: SparGE, X_train: np.ndarray) -> dict:
    """Per way: the score the check ranks patients by, the values it fills in, and the
    reference scores a patient is compared with."""
    def std(A: np.ndarray) -> np.ndarray:
        return model.standardize(A)

    def misfit(A: np.ndarray) -> np.ndarray:
        return enough(std(A), model.misfit(A))

    ways = {
        "shared ridge (before)": (
            lambda A: residual(std(A), shared_ridge_values(model, A)),
            lambda A: shared_ridge_values(model, A)),
        "posterior residual": (
            lambda A: residual(std(A), model.reconstruct(A, units="standardized")),
            lambda A: model.reconstruct(A, units="standardized")),
        "misfit (round 17)": (misfit, lambda A: model.complete(A, units="standardized")),
    }
    out = {way: (score, values, score(X_train)) for way, (score, values) in ways.items()}
    out["misfit, cross-fitted (now)"] = (*ways["misfit (round 17)"],
                                        residual_reference(model))
    return out


def run(cohorts: list[str], n_splits: int) -> pd.DataFrame:
    rows = []
    for name in cohorts:
        X, y, _ = encoded(name)
        continuous = np.array([len(np.unique(c[np.isfinite(c)])) > 10 for c in X.T])
        for s, train, test in stratified_splits(y, n_splits):
            model = SparGE(random_state=s).fit(X[train], y[train])
            Xtr, Xte = X[train], X[test]
            ways = scores_and_values(model, Xtr)
            hidden = hide_values(Xte, 0.3, seed=s)
            h = np.isfinite(Xte) & np.isnan(hidden)
            truth = model.standardize(Xte)
            for way, (score, values, ref) in ways.items():
                def share(A: np.ndarray, score=score, ref=ref) -> float:
                    return flag_share(ref, score(A))

                filled = values(hidden)
                rows.append({
                    "cohort": name.removeprefix("survset:"), "split": s, "way": way,
                    "flagged": share(Xte),
                    "typo x10": share(typo(Xte, continuous, 10.0, s)),
                    "typo x0.1": share(typo(Xte, continuous, 0.1, s)),
                    "hidden rmse": float(np.sqrt(np.mean((filled[h] - truth[h]) ** 2))),
                    "mean rmse": float(np.sqrt(np.mean(truth[h] ** 2))),
                })
            print(pd.DataFrame(rows[-len(ways):]).to_string(index=False), flush=True)
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--cohorts", nargs="+", default=COHORTS)
    ap.add_argument("--csv", default=None)
    args = ap.parse_args()
    df = run(args.cohorts, args.splits)
    if args.csv:
        df.to_csv(args.csv, index=False)
    cols = ["flagged", "typo x10", "typo x0.1", "hidden rmse", "mean rmse"]
    table = df.groupby(["cohort", "way"], sort=False)[cols].mean().reset_index()
    print(to_markdown(table, floatfmt=".3f"))


if __name__ == "__main__":
    main()
