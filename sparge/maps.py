"""2D maps of a cohort and group summaries (pure functions; the Explore page renders them)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA


class MapProjector:
    """A fitted 2D projection of the learned space (UMAP or PCA) or of the raw data.

    Parameters
    ----------
    method : {"umap", "pca", "raw"}
        UMAP or PCA of the SparGE embedding, or PCA of the standardised raw features
        (gaps at the cohort mean) for comparison.
    """

    def __init__(self, method: str = "umap", random_state: int = 0):
        if method not in ("umap", "pca", "raw"):
            raise ValueError(f"unknown map method {method!r}")
        self.method = method
        self.random_state = random_state

    def fit(self, model) -> MapProjector:
        if self.method == "raw":
            data = np.nan_to_num(np.asarray(model.training_data_, dtype=float))
            self.reducer_ = PCA(2, random_state=self.random_state).fit(data)
            self.coords_ = self.reducer_.transform(data)
        elif self.method == "pca" or model.embedding_.shape[1] <= 2 or \
                model.embedding_.shape[0] < 20:
            self.reducer_ = PCA(min(2, model.embedding_.shape[1]),
                                random_state=self.random_state).fit(model.embedding_)
            self.coords_ = self._pad(self.reducer_.transform(model.embedding_))
        else:
            import umap  # imported lazily: numba compilation takes a few seconds

            n = model.embedding_.shape[0]
            self.reducer_ = umap.UMAP(n_neighbors=min(15, n - 1), min_dist=0.15,
                                      random_state=self.random_state, n_jobs=1)
            self.coords_ = self.reducer_.fit_transform(model.embedding_)
        return self

    @classmethod
    def from_coords(cls, method: str, coords: np.ndarray) -> MapProjector:
        """A map whose coordinates were computed before (the reducer is fitted on demand)."""
        proj = cls(method)
        proj.coords_ = np.asarray(coords, dtype=float)
        proj.reducer_ = None
        return proj

    @staticmethod
    def _pad(c: np.ndarray) -> np.ndarray:
        return c if c.shape[1] == 2 else np.hstack([c, np.zeros((len(c), 2 - c.shape[1]))])

    def transform(self, model, X_new) -> np.ndarray:
        """Place new patients (encoded features) on the map."""
        if self.reducer_ is None:  # precomputed map: fit the reducer, keep the coordinates
            saved = self.coords_
            self.fit(model)
            self.coords_ = saved
        if self.method == "raw":
            Xs = model._prepare(X_new)
            return self.reducer_.transform(np.nan_to_num(Xs))
        Y = model.transform(X_new)
        return self._pad(self.reducer_.transform(Y))


def training_values(model) -> pd.DataFrame:
    """Training patients' features in original units (NaN where missing)."""
    data = np.asarray(model.training_data_, dtype=float) * model.scale_ + model.mean_
    return pd.DataFrame(data, columns=model.feature_names())


def map_frame(model, coords: np.ndarray) -> pd.DataFrame:
    """Coordinates with ID, outcome and training index, ready to plot or download."""
    n = len(coords)
    ids = getattr(model, "train_ids_", np.asarray([str(i) for i in range(n)]))
    out = pd.DataFrame({"training_index": np.arange(n), "ID": ids, "x": coords[:, 0],
                        "y": coords[:, 1]})
    if model.y_ is not None:
        out["outcome"] = np.asarray(model.y_).astype(str)
    return out


def group_summary(model, members: np.ndarray, n_features: int = 10) -> dict:
    """What sets a selected group of training patients apart from the rest.

    Returns size, outcome mix and the biomarkers with the largest standardised mean
    difference (group mean - rest mean, in cohort standard deviations).
    """
    members = np.asarray(members, dtype=int)
    n = model.training_data_.shape[0]
    mask = np.zeros(n, bool)
    mask[members] = True
    Z = np.asarray(model.training_data_, dtype=float)
    with np.errstate(all="ignore"):
        g = np.nanmean(Z[mask], axis=0) if mask.any() else np.full(Z.shape[1], np.nan)
        r = np.nanmean(Z[~mask], axis=0) if (~mask).any() else np.full(Z.shape[1], np.nan)
    diff = g - r
    order = np.argsort(-np.nan_to_num(np.abs(diff), nan=-1))[:n_features]
    names = model.feature_names()
    feats = pd.DataFrame({"biomarker": [names[j] for j in order],
                          "group_mean_sd": g[order], "rest_mean_sd": r[order],
                          "difference_sd": diff[order]})
    mix = (pd.Series(np.asarray(model.y_)[mask].astype(str)).value_counts()
           if model.y_ is not None and mask.any() else pd.Series(dtype=int))
    return {"size": int(mask.sum()), "outcome_mix": mix, "features": feats}


def feature_comparison(model, query_std: np.ndarray, neighbor_idx: np.ndarray,
                       n_features: int = 12) -> pd.DataFrame:
    """Standardised biomarkers of a patient next to its look-alikes' (mean and spread).

    Features are those where the patient stands furthest from the cohort mean.
    """
    q = np.asarray(query_std, dtype=float).ravel()
    nb = np.asarray(model.training_data_, dtype=float)[neighbor_idx]
    order = np.argsort(-np.nan_to_num(np.abs(q), nan=-1))[:n_features]
    names = model.feature_names()
    with np.errstate(all="ignore"):
        mean = np.nanmean(nb[:, order], axis=0)
        sd = np.nanstd(nb[:, order], axis=0)
    return pd.DataFrame({"biomarker": [names[j] for j in order], "patient": q[order],
                         "lookalikes_mean": mean, "lookalikes_sd": sd})
