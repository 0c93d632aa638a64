"""Target-encoded unordered categories inside the model (DEFAULTS.md round 13, item 6).

Inner validation on training splits only (the sixteen tuning cohorts that have unordered
categorical columns with 3 or more levels; 6 outer splits for the development cohorts,
capped at 2,500 patients, 3 for the broad ones, capped at 3,000). On the same inner split,
SparGE's metric parts (``bench.inner.metric_parts``) with the encoder's integer codes and
with those columns replaced by scikit-learn's ``TargetEncoder`` (cross-fitted outcome
means on the inner training patients, gaps kept as gaps).

    python -m bench.target_encoding OUT.csv
"""

import json
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.preprocessing import TargetEncoder

from bench.cohorts import BROAD_COHORTS, COHORTS, load_cohort
from bench.inner import metric_parts as parts
from bench.splits import inner_split, stratified_splits
from sparge import Encoder


def enc_cohort(name: str, max_rows: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``bench.cohorts.encoded``'s arrays and the unordered columns' indices."""
    df, label = load_cohort(name)
    if max_rows is not None and len(df) > max_rows:
        df = df.sample(max_rows, random_state=0).reset_index(drop=True)
    enc = Encoder(label_column=label, max_patient_missing=None)
    X = enc.fit_transform(df)
    X[np.isnan(X)] = np.nan
    names = list(enc.feature_names_out_)
    return (X, df[label].astype(str).to_numpy(),
            [names.index(c) for c in enc.report_.unordered_columns])


def target_encode(X: np.ndarray, y: np.ndarray, itr: np.ndarray, iva: np.ndarray,
                  cols: list[int], seed: int) -> np.ndarray:
    """Unordered columns replaced by cross-fitted outcome means (gaps stay gaps)."""
    if not cols:
        return X.copy()
    binary = len(np.unique(y[itr])) == 2
    te = TargetEncoder(target_type="binary" if binary else "multiclass", random_state=seed)
    A = X[:, cols]
    S = np.where(np.isnan(A), "gap", A.astype(str))
    tr, va = te.fit_transform(S[itr], y[itr]), te.transform(S[iva])
    per = tr.shape[1] // len(cols)  # one column per category column (binary), K (multiclass)
    tr[np.repeat(np.isnan(A[itr]), per, axis=1)] = np.nan
    va[np.repeat(np.isnan(A[iva]), per, axis=1)] = np.nan
    keep = [j for j in range(X.shape[1]) if j not in cols]
    new = np.full((len(X), len(keep) + tr.shape[1]), np.nan)
    new[:, :len(keep)] = X[:, keep]
    new[itr, len(keep):] = tr
    new[iva, len(keep):] = va
    return new


def main() -> None:
    warnings.filterwarnings("ignore")
    rows = []
    todo = [(c, 6, 2500) for c in COHORTS] + [(c, 3, 3000) for c in BROAD_COHORTS]
    for cohort, outer, cap in todo:
        X, y, cols = enc_cohort(cohort, cap)
        if not cols:
            continue
        for s, tr, _ in stratified_splits(y, outer, seed=0):
            itr, iva = inner_split(tr, y, seed=s)
            base = parts(X, y, itr, iva)
            te = parts(target_encode(X, y, itr, iva, cols, s), y, itr, iva)
            rec = {"cohort": cohort, "split": s, "n_unordered": len(cols)}
            for k in ("emb", "forest", "combined", "raw"):
                rec[f"base_{k}"], rec[f"te_{k}"] = base.get(k), te.get(k)
            rows.append(rec)
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                              for k, v in rec.items()}), flush=True)
    df = pd.DataFrame(rows)
    df.to_csv(sys.argv[1], index=False)
    per_cohort = df.groupby("cohort", sort=False).mean(numeric_only=True)
    print(per_cohort.round(3).to_string())
    print(per_cohort.mean().round(4).to_string())
    d = df["te_combined"] - df["base_combined"]
    print(f"paired: {d.mean():+.4f} ± {d.std() / np.sqrt(len(d)):.4f}")


if __name__ == "__main__":
    main()
