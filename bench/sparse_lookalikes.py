"""Look-alikes of new patients with few values: anchoring them on the values given
(DEFAULTS.md round 16; training splits only).

A new patient with few values is embedded from a completion that shrinks towards the
cohort's centre, so its look-alikes need not share even the values that were given (a
walk-through: CD4 7.5 given, look-alikes at 113 on median). Here the look-alike distance
of such a query is a blend of the model's distance and a partial distance on the values
given, weighted by how much more of the query is missing than of a typical training
patient:

    d = d_model / s_model + c * e / (1 - e) * d_given / s_given

``e = max(0, f_q - f_0) / (1 - f_0)``, ``f_q`` the share of the query's features missing,
``f_0`` the training patients' median share; ``s`` the median of each distance over pairs
of training patients (no outcome used), so the blend has no unit. ``d_given`` is the mean
squared difference over the features the query has, in standardised units: with the
training patients' gaps skipped (``given``), or with them filled by the model's completion
(``given-completed``). A complete query (``e = 0``) keeps the model's distance.

On every inner split of the sixteen tuning cohorts (``bench.inner.tuning_splits``), the
inner validation patients lose 0, 50, 70 or 85 % of their measured values at random;
scored: the outcome score of the tuning rounds (kNN(5) balanced accuracy and class-balanced
precision@10, their mean), how far the 10 look-alikes are from the query on the values
given (mean absolute difference, SD units) and how well their mean predicts the hidden
values (mean absolute error, SD units), for the model with and without the outcome.

    python -m bench.sparse_lookalikes OUT.csv [--max-rows N] [--cohorts ...]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.common import hide_values
from bench.inner import (
    inner_outcomes,
    inner_score,
    lookalike_sqdist,
    tuning_args,
    tuning_splits,
)
from bench.report import to_markdown
from sparge import SparGE

HIDDEN = (0.0, 0.5, 0.7, 0.85)
WEIGHTS = (0.5, 1.0, 2.0)


def given_sqdist(Q: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Mean squared difference over the features both rows have (``NaN`` = missing),
    ``inf`` where they share none; shape (q, r)."""
    oq, orf = np.isfinite(Q).astype(float), np.isfinite(R).astype(float)
    q, r = np.nan_to_num(Q), np.nan_to_num(R)
    num = (q ** 2) @ orf.T - 2 * q @ r.T + oq @ (r ** 2).T
    cnt = oq @ orf.T
    return np.where(cnt > 0, np.maximum(num, 0) / np.maximum(cnt, 1), np.inf)


def match(D: np.ndarray, Xq: np.ndarray, X_true: np.ndarray, X_ref: np.ndarray
          ) -> tuple[float, float]:
    """Mean absolute difference of the 10 nearest on the query's given values, and the
    error of their mean on its hidden values (standardised units)."""
    idx = np.argsort(D, axis=1, kind="stable")[:, :10]
    nb = X_ref[idx]
    given = np.isfinite(Xq)
    gap = np.abs(nb - Xq[:, None, :])
    g = float(np.nanmean(np.where(given[:, None, :], gap, np.nan)))
    hidden = np.isfinite(X_true) & ~given
    if not hidden.any():
        return g, float("nan")
    with np.errstate(all="ignore"):
        pred = np.nanmean(nb, axis=1)
    return g, float(np.nanmean(np.abs(pred - X_true)[hidden]))


def main() -> None:
    args = tuning_args(__doc__)
    rows = []
    for cohort, s, X, y_text, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        y_tr, y_q = inner_outcomes(y_text, itr, iva)
        for supervised in (True, False):
            m = SparGE(random_state=0, supervised=supervised).fit(X[itr], y_text[itr])
            R = m.training_data_.astype(float)
            Rc = np.where(np.isfinite(R), R, m.completed_ @ m.completion_components_)
            f0 = float(np.median(np.mean(~np.isfinite(R), axis=1)))
            s_model = float(np.median(lookalike_sqdist(m)[np.isfinite(
                lookalike_sqdist(m))]))
            scales = {"given": given_sqdist(R, R), "given-completed": given_sqdist(Rc, Rc)}
            scales = {k: float(np.median(v[np.isfinite(v)])) for k, v in scales.items()}
            for share in HIDDEN:
                Xq = hide_values(X[iva], share, seed=s)
                Q, T = m.standardize(Xq), m.standardize(X[iva])
                fq = np.mean(~np.isfinite(Q), axis=1)
                e = np.clip((fq - f0) / (1 - f0), 0, 1)
                lever = (e / np.maximum(1 - e, 0.1))[:, None]
                d_model = lookalike_sqdist(m, Xq)
                D = {"model": d_model}
                for part, ref in (("given", R), ("given-completed", Rc)):
                    d_given = given_sqdist(Q, ref)
                    D[part] = d_given
                    for c in WEIGHTS:
                        D[f"blend {part} c={c}"] = (d_model / s_model
                                                    + c * lever * d_given / scales[part])
                for name, d in D.items():
                    d = np.where(np.isfinite(d), d, np.inf)
                    g, h = match(d, Q, T, R)
                    rows.append({"cohort": cohort, "split": s, "supervised": supervised,
                                 "hidden": share, "method": name,
                                 "score": inner_score(d, y_tr, y_q),
                                 "given_mad": g, "hidden_mae": h,
                                 "excess_missing": float(e.mean())})
        print(f"{cohort} split {s} done", flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    for supervised in (True, False):
        sub = df[df.supervised == supervised]
        for v in ("score", "given_mad", "hidden_mae"):
            print(f"\n{'with' if supervised else 'without'} the outcome: {v}")
            print(to_markdown(sub.pivot_table(index="method", columns="hidden",
                                              values=v).round(4).reset_index()))


if __name__ == "__main__":
    main()
