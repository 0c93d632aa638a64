"""Why two patients are look-alikes: the features where they agree and differ most."""

from __future__ import annotations

import numpy as np
import pandas as pd


def explain_pair(
    query: np.ndarray,
    neighbor: np.ndarray,
    feature_names: list[str],
    n_features: int = 5,
) -> pd.DataFrame:
    """Features where a query and a look-alike agree and differ most (standardised units).

    Only features observed in both patients are compared.

    Returns
    -------
    DataFrame with columns ``feature``, ``query``, ``neighbor``, ``difference``,
    ``relation`` ("agree" or "differ"), the agreeing features first.
    """
    q = np.asarray(query, dtype=float).ravel()
    v = np.asarray(neighbor, dtype=float).ravel()
    both = ~np.isnan(q) & ~np.isnan(v)
    idx = np.flatnonzero(both)
    diff = np.abs(q[idx] - v[idx])
    order = np.argsort(diff, kind="stable")
    n = min(n_features, idx.size)
    agree = idx[order[:n]]
    differ = idx[order[::-1][:n]]
    differ = np.array([j for j in differ if j not in set(agree)], dtype=int)
    rows = []
    for rel, cols in (("agree", agree), ("differ", differ)):
        for j in cols:
            rows.append({"feature": feature_names[j], "query": q[j], "neighbor": v[j],
                         "difference": abs(q[j] - v[j]), "relation": rel})
    return pd.DataFrame(rows, columns=["feature", "query", "neighbor", "difference",
                                       "relation"])
