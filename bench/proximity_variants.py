"""Round 12 of DEFAULTS.md: which forest proximity the look-alike metric should use.

Inner validation on training splits only (as ``bench.tune``): for each of the first
``--outer`` splits of the quality protocol, the training part is split again 70/30; one
SparGE fit on the inner 70 % (its embedding and its forest part's trees), then every
proximity variant is scored on the same fit for the inner 30 %: the mean of kNN(5)
balanced accuracy and class-balanced precision@10. Variants of ``p_qi`` (query ``q``,
training patient ``i``):

- ``breiman``: the share of all trees in which ``q`` falls in ``i``'s leaf;
- ``inbag``: the share of the trees grown with ``i`` (its bootstrap sample drew it);
- ``oob``: the share of the trees grown without ``i``;
- ``gap`` / ``gap_cw``: RF-GAP (Rhodes, Cutler and Moon 2023), ``i``'s in-bag count
  (times its class weight in the bootstrap sample for ``gap_cw``) over the in-bag total of
  the leaf, averaged over trees and brought to Breiman's scale.

Each alone (``_alone``) and in the look-alike metric ``d^2 + g^2 s^2 (1 - p)`` with the
forest weights ``g`` in ``--weights``. Test patients are never used.

    python -m bench.proximity_variants --outer 6 --cohorts support2 ... --out dev.csv
    python -m bench.proximity_variants --outer 3 --broad --max-rows 3000 --out broad.csv
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd
import scipy.sparse as sp

import sparge.method.proximity as proximity
from bench.cohorts import BROAD_COHORTS, COHORTS, encoded
from bench.inner import inner_score
from bench.splits import inner_split, stratified_splits
from sparge import SparGE


class _KeepForest:
    """Keeps the last forest ``balanced_forest`` builds (the forest part's final one), for
    its bootstrap samples."""

    def __init__(self):
        self.forest = None
        self._build = proximity.balanced_forest

    def __call__(self, *args, **kwargs):
        self.forest = self._build(*args, **kwargs)
        return self.forest


def variants(rf, L_tr: np.ndarray, L_q: np.ndarray, y_tr: np.ndarray, n_classes: int,
             n_nodes: int) -> dict[str, np.ndarray]:
    """Every proximity variant of the queries to the training patients, (q, n)."""
    n, T = L_tr.shape
    counts, weighted = np.zeros((n, T)), np.zeros((n, T))
    for t, drawn in enumerate(rf.estimators_samples_):
        c = np.bincount(drawn, minlength=n).astype(float)
        per_class = np.bincount(y_tr[drawn], minlength=n_classes).astype(float)
        counts[:, t] = c
        weighted[:, t] = c * (len(drawn) / (n_classes * np.maximum(per_class, 1)))[y_tr]
    rows = np.repeat(np.arange(n), T)
    Q = sp.csr_matrix((np.ones(L_q.size), (np.repeat(np.arange(len(L_q)), T), L_q.ravel())),
                      shape=(len(L_q), n_nodes))

    def product(W: np.ndarray) -> np.ndarray:
        R = sp.csr_matrix((W.ravel(), (rows, L_tr.ravel())), shape=(n, n_nodes))
        return (Q @ R.T).toarray()

    def per_leaf(W: np.ndarray) -> np.ndarray:
        total = np.bincount(L_tr.ravel(), weights=W.ravel(), minlength=n_nodes)
        return W / np.maximum(total[L_tr], 1e-12)

    inbag = (counts > 0).astype(float)
    breiman = product(np.ones((n, T))) / T
    scale = breiman.sum(axis=1).mean()  # RF-GAP sums to one per query
    return {"breiman": breiman,
            "inbag": product(inbag) / np.maximum(inbag.sum(axis=1), 1)[None, :],
            "oob": product(1 - inbag) / np.maximum((1 - inbag).sum(axis=1), 1)[None, :],
            "gap": product(per_leaf(counts)) / T * scale,
            "gap_cw": product(per_leaf(weighted)) / T * scale}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--outer", type=int, default=3)
    ap.add_argument("--max-rows", type=int, default=2500)
    ap.add_argument("--cohorts", nargs="*", default=COHORTS)
    ap.add_argument("--broad", action="store_true", help="the twelve broad cohorts")
    ap.add_argument("--weights", nargs="*", type=float, default=[1.0, 1.5, 2.0, 3.0])
    ap.add_argument("--out", required=True, help="CSV of every split's scores")
    args = ap.parse_args()
    keep = _KeepForest()
    proximity.balanced_forest = keep
    rows = []
    for cohort in BROAD_COHORTS if args.broad else args.cohorts:
        X, y_text, _ = encoded(cohort, max_rows=args.max_rows)
        for s, tr, _ in stratified_splits(y_text, args.outer, seed=0):
            itr, iva = inner_split(tr, y_text, seed=s)
            m = SparGE(random_state=0, forest_proximity="shared-leaf").fit(X[itr], y_text[itr])
            classes = np.unique(y_text[itr])
            y_tr, y_q = np.searchsorted(classes, y_text[itr]), np.searchsorted(classes,
                                                                               y_text[iva])
            Y_q, L_q = m.lookalike_parts(X[iva])
            Y_tr = m.embedding_
            d2 = (np.sum(Y_q**2, 1)[:, None] - 2 * Y_q @ Y_tr.T + np.sum(Y_tr**2, 1)[None, :])
            rec = {"cohort": cohort, "split": s, "n": len(itr), "emb": inner_score(d2, y_tr, y_q)}
            if L_q is not None:
                spread = m.forest_scale_ / m.forest_weight_**2
                for name, p in variants(keep.forest, np.asarray(m.forest_leaves_, np.int64),
                                        L_q, y_tr, len(classes), m.forest_.n_nodes).items():
                    rec[f"{name}_alone"] = inner_score(-p, y_tr, y_q)
                    for g in args.weights:
                        rec[f"{name}_g{g}"] = inner_score(d2 + g**2 * spread * (1 - p), y_tr, y_q)
            rows.append(rec)
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                              for k, v in rec.items()}), flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(args.out, index=False)
    per = df.groupby("cohort")[[c for c in df.columns if c not in ("cohort", "split", "n")]]
    print(per.mean().mean().round(4).to_string())


if __name__ == "__main__":
    main()
