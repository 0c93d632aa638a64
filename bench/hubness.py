"""Hubness reduction of the look-alike distance (DEFAULTS.md round 15).

In a kNN space some training patients ("hubs") are among the nearest of very many
queries, and others of almost none; hubs hurt kNN votes and look-alike lists. Two standard
rescalings (Schnitzer et al. 2012, "Local and global scaling reduce hubs in space", JMLR
13) are scored on SparGE's own look-alike distance, on the same fit:

- local scaling: ``d(q, i) / sqrt(r_q r_i)`` with ``r`` the distance to the ``k``-th
  nearest training patient; for one query only ``d / sqrt(r_i)`` ranks;
- mutual proximity (Gaussian): ``1 - SF_q(d) SF_i(d)``, each point's distances to the
  training patients modelled as a normal distribution.

Sixteen tuning cohorts, training splits only (6 outer splits for the development cohorts
capped at 2,500 patients, 3 for the broad ones at 3,000; ``--max-rows 200`` cuts every
cohort to 200 patients with 6 outer splits); inner 70/30, paired on one fit.

    python -m bench.hubness OUT.csv [--max-rows 200] [--cohorts ...]
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from scipy.stats import norm

from bench.inner import inner_score, lookalike_sqdist, tuning_args, tuning_splits
from sparge import SparGE

SCALINGS = ("ls5", "ls10", "ls20", "mp")


def rescaled(D_q: np.ndarray, D_t: np.ndarray) -> dict[str, np.ndarray]:
    """Every scaling of the query distances ``D_q`` (q × n) given the training patients'
    own distances ``D_t`` (n × n, infinite diagonal); plain distances, not squared."""
    d_q, d_t = np.sqrt(D_q), np.sqrt(D_t)
    out = {}
    srt = np.sort(d_t, axis=1)
    for k in (5, 10, 20):
        r = srt[:, min(k, srt.shape[1] - 1) - 1]
        out[f"ls{k}"] = d_q / np.sqrt(np.maximum(r, 1e-12))[None, :]
    finite = np.where(np.isfinite(d_t), d_t, np.nan)
    mu_t, sd_t = np.nanmean(finite, axis=1), np.nanstd(finite, axis=1)
    mu_q, sd_q = d_q.mean(axis=1), d_q.std(axis=1)
    sf_q = norm.sf(d_q, loc=mu_q[:, None], scale=np.maximum(sd_q, 1e-12)[:, None])
    sf_t = norm.sf(d_q, loc=mu_t[None, :], scale=np.maximum(sd_t, 1e-12)[None, :])
    out["mp"] = 1.0 - sf_q * sf_t
    return out


def hub_skew(D: np.ndarray, k: int = 10) -> float:
    """Skewness of how often each training patient is among the queries' ``k`` nearest
    (the usual hubness measure; 0 for no hubs)."""
    idx = np.argsort(D, axis=1)[:, :k]
    counts = np.bincount(idx.ravel(), minlength=D.shape[1]).astype(float)
    sd = counts.std()
    return float(((counts - counts.mean()) ** 3).mean() / sd ** 3) if sd > 0 else 0.0


def main() -> None:
    args = tuning_args(__doc__)
    rows = []
    for cohort, s, X, y, itr, iva in tuning_splits(args.max_rows, args.cohorts):
        m = SparGE(random_state=0).fit(X[itr], y[itr])
        classes = np.unique(y[itr])
        y_tr, y_q = np.searchsorted(classes, y[itr]), np.searchsorted(classes, y[iva])
        D_q, D_t = lookalike_sqdist(m, X[iva]), lookalike_sqdist(m)
        rec = {"cohort": cohort, "split": s, "base": inner_score(D_q, y_tr, y_q),
               "skew_base": hub_skew(D_q)}
        for name, D in rescaled(D_q, D_t).items():
            rec[name] = inner_score(D, y_tr, y_q)
            rec[f"skew_{name}"] = hub_skew(D)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                          for k, v in rec.items()}), flush=True)
        rows.append(rec)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    per = df.groupby("cohort", sort=False).mean(numeric_only=True).drop(columns="split")
    print(per.round(3).to_string())
    print(per.mean().round(4).to_string())
    for name in SCALINGS:
        d = df[name] - df["base"]
        print(f"{name}: {d.mean():+.4f} ± {d.std() / np.sqrt(len(d)):.4f}, better on "
              f"{int((per[name] > per['base']).sum())} of {len(per)} cohorts")


if __name__ == "__main__":
    main()
