"""Which part of the look-alike metric carries a cohort? Inner validation, training splits only.

For each of the first ``--outer`` splits of the quality protocol, the training part is split
again 70/30; one SparGE fit (defaults) on the inner 70 %, and the inner 30 % are scored
(mean of kNN(5) balanced accuracy and class-balanced precision@10, as in ``bench.tune``)
with: the embedding alone (``emb``), the forest part alone (in-bag proximity, ``forest``),
the model's metric (``combined``), raw standardised features with mean-filled gaps
(``raw``), the model's metric with forest weight 3 (``weight3``) and the model's metric
plus raw distance at two weights (``comb+raw<h>``: ``h`` times the raw squared distance
brought to the median of the model's). Test patients are never used. DEFAULTS.md round 13.

    python -m bench.metric_parts --cohorts survset:pbc ... --out parts.csv [--outer 5]
    python -m bench.metric_parts --tuning --max-rows 200 --params '{"n_components": 8}' ...
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd

from bench.cohorts import BROAD_COHORTS, COHORTS, encoded
from bench.proximity_variants import _score
from bench.splits import inner_split, stratified_splits
from sparge import SparGE


def _sqdist(Q: np.ndarray, R: np.ndarray) -> np.ndarray:
    return np.sum(Q**2, 1)[:, None] - 2 * Q @ R.T + np.sum(R**2, 1)[None, :]


def parts(X: np.ndarray, y_text: np.ndarray, itr: np.ndarray, iva: np.ndarray,
          params: dict | None = None) -> dict:
    """Scores of every part of the metric for one inner split (SparGE with ``params``)."""
    m = SparGE(random_state=0, **(params or {})).fit(X[itr], y_text[itr])
    classes = np.unique(y_text[itr])
    y_tr, y_q = np.searchsorted(classes, y_text[itr]), np.searchsorted(classes, y_text[iva])
    Y_q, L_q = m.lookalike_parts(X[iva])
    d2 = _sqdist(Y_q, m.embedding_)
    mu, sd = np.nanmean(X[itr], 0), np.nanstd(X[itr], 0)
    sd[sd == 0] = 1
    raw = _sqdist(np.nan_to_num((X[iva] - mu) / sd), np.nan_to_num((X[itr] - mu) / sd))
    rec = {"emb": _score(d2, y_tr, y_q), "raw": _score(raw, y_tr, y_q)}
    if L_q is not None:
        leaves = np.asarray(m.forest_leaves_, np.int64)
        counted = np.asarray(m.forest_counted_, bool)
        shared = np.zeros((len(L_q), len(leaves)))
        for t in range(leaves.shape[1]):  # one tree at a time: q x n, not q x n x T
            shared += (L_q[:, [t]] == leaves[None, :, t]) & counted[None, :, t]
        p = shared / np.maximum(counted.sum(1), 1)[None, :]
        model = d2 + m.forest_scale_ * (1 - p)
        rec["forest"] = _score(-p, y_tr, y_q)
        rec["combined"] = _score(model, y_tr, y_q)
        rec["weight3"] = _score(d2 + (3 / m.forest_weight_) ** 2 * m.forest_scale_ * (1 - p),
                                y_tr, y_q)
        # the forest part scaled by the queries' spread around the training patients'
        # mean instead of the training patients' own (no outcome is used)
        Yt = m.embedding_
        mean = Yt.mean(axis=0)
        own = float(np.mean(np.sum((Yt - mean) ** 2, axis=1)))
        queries = float(np.mean(np.sum((Y_q - mean) ** 2, axis=1)))
        rec["spread_ratio"] = queries / max(own, 1e-12)
        rec["qspread"] = _score(d2 + m.forest_scale_ * rec["spread_ratio"] * (1 - p),
                                y_tr, y_q)
        ratio = np.median(raw) / max(np.median(model), 1e-12)
        for h in (0.5, 1.0):
            rec[f"comb+raw{h}"] = _score(model + h * raw / ratio, y_tr, y_q)
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--outer", type=int, default=5)
    ap.add_argument("--max-rows", type=int, default=2500)
    ap.add_argument("--cohorts", nargs="*", default=[])
    ap.add_argument("--tuning", action="store_true",
                    help="the sixteen tuning cohorts (development and broad)")
    ap.add_argument("--params", default="{}", help="SparGE parameters (JSON)")
    ap.add_argument("--out", required=True, help="CSV of every split's scores")
    args = ap.parse_args()
    cohorts = args.cohorts + (COHORTS + BROAD_COHORTS if args.tuning else [])
    params = json.loads(args.params)
    rows = []
    for cohort in cohorts:
        X, y_text, _ = encoded(cohort, max_rows=args.max_rows)
        for s, tr, _ in stratified_splits(y_text, args.outer, seed=0):
            itr, iva = inner_split(tr, y_text, seed=s)
            rec = {"cohort": cohort, "split": s, "n": len(itr), "m": X.shape[1],
                   **parts(X, y_text, itr, iva, params)}
            rows.append(rec)
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                              for k, v in rec.items()}), flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    print(df.groupby("cohort").mean(numeric_only=True).round(3).to_string())


if __name__ == "__main__":
    main()
