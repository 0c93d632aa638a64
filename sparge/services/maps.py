"""2-D maps of a cohort (pure functions; the Explore and New patient pages render them).

A map is fitted on the model's training patients; every other patient (left out of
training, or new) is placed on it from its embedding. Only the public API of
:class:`sparge.SparGE` is used.

Every patient is drawn, at any size: above :data:`DENSE_MAP` patients the points are drawn
smaller and fainter (:func:`point_style`) over a density layer, the count of patients per
cell of a grid (:func:`density_grid`). UMAP is fitted on at most :data:`UMAP_FIT_MAX`
training patients; the others are placed from their look-alikes among them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

from sparge.method.similarity import knn_search

#: Map methods: what the user picks -> what it draws.
METHODS = ("pca", "umap", "raw")
NOT_TRAINED = "not used for training"
#: Above this many patients a map is "dense": small faint points over a density layer.
DENSE_MAP = 20_000
#: Most patients a map draws as points (a random sample above it; :func:`drawn_points`).
MAX_MAP_POINTS = 50_000
#: UMAP is fitted on a random sample of at most this many training patients.
UMAP_FIT_MAX = 10_000


class MapProjector:
    """A fitted 2-D projection of the learned space (PCA or UMAP) or of the raw data.

    Parameters
    ----------
    method : {"pca", "umap", "raw"}
        PCA (fast, the default after training) or UMAP of the SparGE embedding, or PCA of
        the standardised raw features (gaps at the cohort mean) for comparison. A 2-D
        embedding is drawn as it is (PCA only rotates it); UMAP needs at least 20 patients
        and a 3-D or larger embedding, else PCA is drawn.
    random_state : int
    n_neighbors : int
        Training patients that place another patient on a UMAP map.
    max_fit : int
        UMAP is fitted on a random sample of at most this many training patients (UMAP of
        100,000 patients takes many minutes on two cores); the other training patients are
        placed like any other patient, from their look-alikes among the fitted ones.

    Attributes
    ----------
    coords_ : ndarray (n_train, 2)
        Map positions of the training patients.
    drawn_ : {"pca", "umap", "raw"}
        What the map really shows (UMAP falls back to PCA, see above).
    fit_rows_ : ndarray of int or None
        Training patients the UMAP was fitted on (None: all of them, or not a UMAP).
    """

    def __init__(self, method: str = "pca", random_state: int = 0, n_neighbors: int = 10,
                 max_fit: int = UMAP_FIT_MAX):
        if method not in METHODS:
            raise ValueError(f"unknown map method {method!r}; use one of {METHODS}")
        self.method = method
        self.random_state = random_state
        self.n_neighbors = n_neighbors
        self.max_fit = max_fit
        self.fit_rows_ = None

    @staticmethod
    def umap_possible(model) -> bool:
        """True when UMAP can draw this model (a 3-D+ embedding of at least 20 patients)."""
        n, dim = model.embedding_.shape
        return dim > 2 and n >= 20

    def fit(self, model) -> MapProjector:
        emb = np.asarray(model.embedding_, dtype=float)
        self.fit_rows_ = None
        if self.method == "raw":
            data = self._raw(model, model.training_values())
            self.reducer_ = PCA(min(2, data.shape[1]), random_state=self.random_state)
            self.coords_ = self._pad(self.reducer_.fit_transform(data))
            self.drawn_ = "raw"
        elif self.method == "pca" or not self.umap_possible(model):
            self.reducer_ = PCA(min(2, emb.shape[1]), random_state=self.random_state)
            self.coords_ = self._pad(self.reducer_.fit_transform(emb))
            self.drawn_ = "pca"
        else:
            import umap  # imported lazily: numba compilation takes a few seconds

            n = len(emb)
            rows = umap_sample(n, self.max_fit, self.random_state)
            self.reducer_ = umap.UMAP(n_neighbors=min(15, len(rows) - 1), min_dist=0.15,
                                      random_state=self.random_state, n_jobs=1)
            fitted = np.asarray(self.reducer_.fit_transform(emb[rows]), dtype=float)
            self.drawn_ = "umap"
            if len(rows) == n:
                self.coords_ = fitted
            else:
                self.fit_rows_ = rows
                self.coords_ = np.empty((n, 2))
                self.coords_[rows] = fitted
                others = np.setdiff1d(np.arange(n), rows)
                self.coords_[others] = self._from_lookalikes(model, emb[others])
        return self

    @property
    def n_fitted_(self) -> int:
        """Training patients the map was fitted on."""
        return len(self.coords_) if self.fit_rows_ is None else len(self.fit_rows_)

    def _from_lookalikes(self, model, Y: np.ndarray, chunk: int = 20_000) -> np.ndarray:
        """Similarity-weighted mean map position of each row's nearest fitted patients."""
        emb = np.asarray(model.embedding_, dtype=float)
        ref = self.fit_rows_ if self.fit_rows_ is not None else np.arange(len(emb))
        ref_emb, ref_xy = emb[ref], self.coords_[ref]
        k = min(self.n_neighbors, len(ref))
        out = np.empty((len(Y), 2))
        sq = np.einsum("ij,ij->i", ref_emb, ref_emb)
        for start in range(0, len(Y), chunk):  # bounded memory for a million rows
            dist, idx = knn_search(ref_emb, Y[start:start + chunk], k, ref_sqnorms=sq)
            w = np.asarray(model.similarity(dist), dtype=float) + 1e-12
            w /= w.sum(axis=1, keepdims=True)
            out[start:start + chunk] = np.einsum("qk,qkc->qc", w, ref_xy[idx])
        return out

    @classmethod
    def from_coords(cls, method: str, coords: np.ndarray) -> MapProjector:
        """A map whose training-patient coordinates were computed before (e.g. the bundled
        default model's UMAP); other patients are placed from their look-alikes."""
        proj = cls(method)
        proj.coords_ = np.asarray(coords, dtype=float)
        proj.reducer_ = None
        proj.drawn_ = method
        return proj

    @staticmethod
    def _pad(c: np.ndarray) -> np.ndarray:
        c = np.asarray(c, dtype=float)
        return c if c.shape[1] == 2 else np.hstack([c, np.zeros((len(c), 2 - c.shape[1]))])

    @staticmethod
    def _raw(model, X) -> np.ndarray:
        return np.nan_to_num(np.asarray(model.standardize(X), dtype=float))

    def place(self, model, X=None, Y=None) -> np.ndarray:
        """Map positions of other patients, shape (n, 2).

        Parameters
        ----------
        X : encoded features (DataFrame with the model's feature names, NaN allowed);
            needed for the raw-data map, and for the others when ``Y`` is not given.
        Y : ndarray (n, l), optional
            The patients' embedding (``model.transform(X)``) when already known.

        PCA maps project exactly; a UMAP map places each patient at the similarity-weighted
        mean position of its nearest training patients in the learned space (the fitted
        ones when UMAP was fitted on a sample; instant for a few patients, and the same for
        a precomputed map).
        """
        if self.method == "raw" or self.drawn_ == "raw":
            if self.reducer_ is None:
                self.fit(model)
            return self._pad(self.reducer_.transform(self._raw(model, X)))
        if Y is None:
            Y = model.transform(X)
        Y = np.atleast_2d(np.asarray(Y, dtype=float))
        if len(Y) == 0:
            return np.zeros((0, 2))
        if self.drawn_ == "pca":
            if self.reducer_ is None:
                saved = self.coords_
                self.fit(model)
                self.coords_ = saved
            return self._pad(self.reducer_.transform(Y))
        return self._from_lookalikes(model, Y)

    def transform(self, model, X_new) -> np.ndarray:
        """Place new patients (encoded features) on the map."""
        return self.place(model, X=X_new)


def map_title(proj: MapProjector, model) -> str:
    """What a map draws, said plainly."""
    dim = model.embedding_.shape[1]
    if proj.drawn_ == "raw":
        return (f"PCA of the standardised raw data ({model.n_features_in_} biomarkers, gaps "
                "at the cohort mean), for comparison")
    if proj.drawn_ == "umap":
        n = len(proj.coords_)
        if proj.n_fitted_ < n:
            return (f"UMAP of the {dim}-D SparGE embedding, fitted on {proj.n_fitted_:,} of "
                    f"{n:,} training patients (the others placed from their look-alikes)")
        return f"UMAP of the {dim}-D SparGE embedding"
    if dim <= 2:
        return f"The {dim}-D SparGE embedding (axes rotated by PCA)"
    return f"PCA of the {dim}-D SparGE embedding"


def map_hint(proj: MapProjector, model) -> str:
    """Why a SparGE map is drawn in PCA, and how to get UMAP ("" when there is nothing to say).

    A newly trained model's map starts in PCA (instant at any size); the bundled model
    opens on its precomputed UMAP. Without a word, the two looked like different methods.
    """
    if proj.drawn_ != "pca" or not MapProjector.umap_possible(model):
        return ""
    return ("Drawn with PCA because it is instant. PCA keeps the embedding's largest "
            "directions, so groups may overlap; choose *SparGE · UMAP* under **Map** to "
            "spread them apart (computed once for this model). The look-alikes are the same "
            "on every map: they come from the full embedding, not from the picture.")


#: Beyond this ratio of a map's two spans, the page says its axes are not on one scale.
MAP_STRETCH = 4.0


def stretch_note(coords: np.ndarray) -> str:
    """Words when a map's two axes span very different ranges (more than
    :data:`MAP_STRETCH` apart): the picture fills its frame, so distances along the
    shorter axis look larger than they are (walk-through 69's 2-D embedding spanned 0.80
    by 0.037 and was drawn about 2.4 by 1); "" otherwise.

    Examples
    --------
    >>> stretch_note(np.array([[0.0, 0.0], [0.8, 0.037]]))[:40]
    'The map fills its frame: its horizontal '
    >>> stretch_note(np.array([[0.0, 0.0], [1.0, 0.6]]))
    ''
    """
    c = np.asarray(coords, dtype=float)
    c = c[np.isfinite(c).all(axis=1)] if c.ndim == 2 else c
    if c.ndim != 2 or len(c) < 2:
        return ""
    span = np.ptp(c[:, :2], axis=0)
    if span.min() <= 0 or span.max() / span.min() <= MAP_STRETCH:
        return ""
    wide = "horizontal" if span[0] > span[1] else "vertical"
    narrow = "vertical" if wide == "horizontal" else "horizontal"
    return (f"The map fills its frame: its {wide} axis spans {span.max() / span.min():,.0f}× "
            f"the {narrow} one, so {narrow} distances look larger than they are. The "
            "look-alikes come from distances in the learned space, not in this picture.")


#: A map's frame holds its patients between these quantiles of each axis, widened by
#: :data:`FRAME_MARGIN` of that span; a patient beyond :data:`FAR_SPANS` spans of it is far.
FRAME_QUANTILES = (0.01, 0.99)
FRAME_MARGIN = 0.08
FAR_SPANS = 0.5
#: At most this share of a map's patients is drawn at the frame's edge (more: the frame
#: holds them all).
FAR_SHARE = 0.01


def map_frame_range(values: np.ndarray) -> tuple[float, float, np.ndarray] | None:
    """A map axis' range without the few patients far from the rest, and which those are:
    ``(low, high, far)``; ``None`` when every patient fits (or fewer than 50 patients).

    One patient far from the others drew walk-through 85's PCA map as a thin band over a
    quarter of its height, the rest empty. A patient beyond :data:`FAR_SPANS` of the
    span between the axis' :data:`FRAME_QUANTILES` is far when such patients are at most
    :data:`FAR_SHARE` of them; the frame then holds the others (with a margin), and the
    far ones are drawn at its edge.

    Examples
    --------
    >>> v = np.r_[np.linspace(0, 1, 200), 9.0]
    >>> lo, hi, far = map_frame_range(v)
    >>> bool(far[-1]), int(far.sum()), hi < 2
    (True, 1, True)
    >>> map_frame_range(np.linspace(0, 1, 200)) is None
    True
    """
    v = np.asarray(values, dtype=float)
    ok = np.isfinite(v)
    if ok.sum() < 50:
        return None
    q_lo, q_hi = np.quantile(v[ok], FRAME_QUANTILES)
    span = q_hi - q_lo
    if span <= 0:
        return None
    far = ok & ((v < q_lo - FAR_SPANS * span) | (v > q_hi + FAR_SPANS * span))
    if not far.any() or far.sum() > max(1, FAR_SHARE * ok.sum()):
        return None
    near = v[ok & ~far]
    lo, hi = float(near.min()), float(near.max())
    pad = FRAME_MARGIN * (hi - lo)
    return lo - pad, hi + pad, far


def umap_sample(n: int, max_fit: int = UMAP_FIT_MAX, random_state: int = 0) -> np.ndarray:
    """Sorted rows of the training patients a UMAP is fitted on: all ``n`` up to
    ``max_fit``, else a random sample of ``max_fit`` (reproducible under
    ``random_state``)."""
    if n <= max_fit:
        return np.arange(n)
    return np.sort(np.random.default_rng(random_state).choice(n, max_fit, replace=False))


def umap_note(n_train: int, max_fit: int = UMAP_FIT_MAX) -> str:
    """What a UMAP of ``n_train`` training patients does, said plainly (the app's help)."""
    if n_train <= max_fit:
        return f"UMAP is fitted on all {n_train:,} training patients."
    return (f"UMAP is fitted on a random {max_fit:,} of the {n_train:,} training patients; "
            "each of the others is placed at the similarity-weighted mean position of its 10 "
            "nearest fitted patients in the learned space.")


def drawn_points(n: int, keep=(), max_points: int = MAX_MAP_POINTS, seed: int = 0
                 ) -> np.ndarray | None:
    """Rows of an ``n``-patient map drawn as points (``None``: all of them).

    Above ``max_points`` patients a map draws a random ``max_points`` of them (the same
    ones for the same ``seed``) plus the rows in ``keep`` (the selected patient and its
    look-alikes); its density layer still counts every patient. A million points make a
    29 MB figure that a browser needs about 25 s to draw (bench/results/map_render.md).

    Returns
    -------
    ndarray of int (sorted) or None
    """
    if n <= max_points:
        return None
    rng = np.random.default_rng(seed)
    rows = rng.choice(n, max_points, replace=False)
    keep = np.asarray(list(keep), dtype=np.int64).ravel()
    keep = keep[(keep >= 0) & (keep < n)]
    return np.unique(np.concatenate([rows, keep]))


def is_dense(n: int, threshold: int = DENSE_MAP) -> bool:
    """True when a map of ``n`` patients is drawn as a dense map (small faint points over
    a density layer)."""
    return n > threshold


def point_style(n: int, threshold: int = DENSE_MAP) -> dict:
    """Marker size (px) and opacity for a map of ``n`` patients.

    Up to ``threshold`` patients: size 6, opacity 0.8 (as the map always was). Above it
    both shrink with the number of patients, so that overlapping points do not hide the
    density layer beneath them: size 6 * r ** 0.5 (at least 2) and opacity 0.8 * r ** 0.75
    (at least 0.1), where r = threshold / n: about 2.7 px and 0.24 at 100,000 patients,
    2 px and 0.1 at a million.
    """
    if not is_dense(n, threshold):
        return {"size": 6.0, "opacity": 0.8}
    ratio = threshold / n
    return {"size": round(max(2.0, 6.0 * ratio ** 0.5), 2),
            "opacity": round(max(0.1, 0.8 * ratio ** 0.75), 3)}


def density_grid(x, y, bins: int = 120) -> dict:
    """Patients per cell of a ``bins`` x ``bins`` grid over the map (the density layer).

    Parameters
    ----------
    x, y : array-like (n,)
        Map positions (non-finite ones are ignored).
    bins : int
        Cells per axis.

    Returns
    -------
    dict with ``x`` (bins,) and ``y`` (bins,) cell centres, ``counts`` (bins, bins) int
    with rows along y (as a heatmap's ``z``), ``x_edges``/``y_edges`` (bins + 1,) and
    ``n`` (patients counted).
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) == 0:
        x = y = np.zeros(1)
    edges = []
    for v in (x, y):
        lo, hi = float(v.min()), float(v.max())
        pad = 1e-9 + 1e-3 * (hi - lo)
        edges.append(np.linspace(lo - pad, hi + pad, bins + 1))
    counts, xe, ye = np.histogram2d(x, y, bins=edges)
    return {"x": (xe[:-1] + xe[1:]) / 2, "y": (ye[:-1] + ye[1:]) / 2,
            "counts": counts.T.astype(np.int64), "x_edges": xe, "y_edges": ye,
            "n": int(ok.sum())}


def training_values(model) -> pd.DataFrame:
    """Training patients' features in original units (NaN where missing)."""
    return model.training_values()


def place_among_lookalikes(frame: pd.DataFrame, table: pd.DataFrame) -> np.ndarray:
    """A patient's map position as the similarity-weighted mean position of its
    look-alikes, shape (2,).

    For a patient with few values: its embedding keeps only the direction of the values
    given (the completion is linear in them and the representation's rows are unit length),
    so walk-through 19's eGFR 30, 40 and 50 landed on one point while their look-alikes,
    anchored on the value given, differed. Placed among the look-alikes shown, the star
    agrees with them.

    Parameters
    ----------
    frame : DataFrame
        :func:`map_frame` of the training patients (``training_index``, ``x``, ``y``).
    table : DataFrame
        The patient's look-alikes (``workflow.lookalike_table``: ``training_index``,
        ``similarity``).
    """
    pos = frame.set_index("training_index")[["x", "y"]]
    xy = pos.loc[np.asarray(table["training_index"], dtype=int)].to_numpy(dtype=float)
    w = np.asarray(table["similarity"], dtype=float) + 1e-12
    return (w[:, None] * xy).sum(axis=0) / w.sum()


def map_frame(model, proj, index=None, labels=None) -> pd.DataFrame:
    """Every patient of ``index`` on the map, ready to plot or download.

    Parameters
    ----------
    model : fitted SparGE
    proj : a fitted :class:`MapProjector` of ``model``, or an array (n_train, 2) of
        training-patient coordinates (then ``index`` must be None)
    index : sparge.services.workflow.PatientIndex, optional
        The cohort's patients (``workflow.cohort_patients``); ``None``: the training
        patients only.
    labels : array-like, optional
        Outcome per row of ``index`` for patients outside training (None when unknown).

    Returns
    -------
    DataFrame with ``row`` (position in ``index``), ``ID``, ``x``, ``y``, ``in_training``,
    ``training_index`` (-1 outside training), ``status`` ("training" or "not used for
    training"), ``reason`` and, when the model has outcomes, ``outcome``.
    """
    n_train = len(model.embedding_)
    train_ids = np.asarray(getattr(model, "train_ids_", [str(i) for i in range(n_train)]),
                           dtype=object)
    if index is None:
        ids = train_ids
        tix = np.arange(n_train)
        reason = np.full(n_train, "", dtype=object)
    else:
        ids = np.asarray(index.ids, dtype=object)
        tix = np.asarray(index.train_index, dtype=int)
        reason = np.asarray(index.reason, dtype=object)
    inside = tix >= 0
    coords = proj.coords_ if isinstance(proj, MapProjector) else np.asarray(proj, float)
    xy = np.zeros((len(ids), 2))
    xy[inside] = coords[tix[inside]]
    if (~inside).any():
        rows = np.flatnonzero(~inside)
        X_out = pd.DataFrame(np.asarray(_frame_values(index.X))[rows],
                             columns=model.feature_names())
        xy[rows] = proj.place(model, X=X_out, Y=np.asarray(index.embedding)[rows])
    out = pd.DataFrame({"row": np.arange(len(ids)), "ID": ids.astype(str), "x": xy[:, 0],
                        "y": xy[:, 1], "in_training": inside, "training_index": tix,
                        "status": np.where(inside, "training", NOT_TRAINED),
                        "reason": reason})
    if model.y_ is not None:
        outcome = np.full(len(ids), "unknown", dtype=object)
        outcome[inside] = np.asarray(model.y_).astype(str)[tix[inside]]
        if labels is not None:
            lab = np.asarray(labels, dtype=object)
            for r in np.flatnonzero(~inside):
                v = lab[r]
                if v is not None and not (isinstance(v, float) and v != v):
                    outcome[r] = str(v)
        out["outcome"] = outcome
    return out


def _frame_values(X) -> np.ndarray:
    return X.to_numpy(dtype=float) if isinstance(X, pd.DataFrame) else np.asarray(X, float)


def patient_values(model, index=None) -> pd.DataFrame:
    """Values of every patient of ``index`` (rows as in :func:`map_frame`) in original
    units, encoded categories, NaN gaps; the training patients when ``index`` is None."""
    if index is None:
        return model.training_values().reset_index(drop=True)
    return pd.DataFrame(_frame_values(index.X), columns=model.feature_names())


def data_model_mismatch(model, features, ids, X=None) -> str:
    """Why the loaded data and the model seem to come from different tables ("" if not).

    Parameters
    ----------
    model : fitted SparGE (``train_ids_`` when trained in the app)
    features : the data's encoded feature names
    ids : the data's patient IDs
    X : the data's encoded values, optional
        Given, the model's training patients must hold the values they were trained with
        (:func:`encoding_mismatch`): the same file uploaded again and encoded without the
        merges and value choices made before training is another table for the model.
    """
    names = model.feature_names()
    if list(features) != names:
        missing = [f for f in names if f not in set(features)]
        extra = [f for f in features if f not in set(names)]
        detail = (f"; e.g. the model's '{missing[0]}' is not in the data" if missing else
                  f"; e.g. the data's '{extra[0]}' is not in the model" if extra else
                  "; the columns are in another order")
        train_ids = getattr(model, "train_ids_", None)
        have = {str(v).strip() for v in ids}
        if train_ids is not None and len(train_ids) and all(
                str(v).strip() in have for v in train_ids):
            # the same patients, encoded with other columns (walk-through 28 left a column
            # out and read "not trained on this data" for the file it had trained on)
            return (f"{RECOLUMNED}: the data has {len(features)} biomarkers, the model "
                    f"{len(names)}{detail}. Train again on the Model page to use the data's "
                    "columns. Until then look-alikes come from the model's training "
                    "patients; only they are on the map.")
        return ("The data and the model come from different tables: the data has "
                f"{len(features)} biomarkers, the model {len(names)}{detail}. Look-alikes "
                "come from the model's training patients; only they are on the map.")
    train_ids = getattr(model, "train_ids_", None)
    if train_ids is None:
        return ""
    have = {str(v).strip() for v in ids}
    found = sum(str(v).strip() in have for v in train_ids)
    if found == len(train_ids):
        return "" if X is None else encoding_mismatch(model, X, ids)
    if found == 0:
        return ("The data and the model come from different tables: none of the model's "
                f"{len(train_ids)} training patients is in the data. Look-alikes come from "
                "the model's training patients; the data's patients are placed on its map.")
    return (f"The data and the model come from different tables: only {found} of the "
            f"model's {len(train_ids)} training patients are in the data. Look-alikes come "
            "from the model's training patients.")


#: How :func:`data_model_mismatch` starts for the model's own patients encoded with other
#: columns (a column left out or given another role since training).
RECOLUMNED = "The data is encoded with other columns than the model's, for the same patients"
#: How :func:`encoding_mismatch` starts: the same patients, encoded another way.
RECODED = "The data's values are not those the model was trained on"


def encoding_mismatch(model, X, ids) -> str:
    """Why the data's values of the model's training patients are not those the model was
    trained on ("" if they are).

    The same patients, encoded another way (answers no longer merged, far values no longer
    cleared or converted, another encoding table), are another table for the model: their
    codes mean other things, and the data's other patients are placed with them
    (walk-through 25 uploaded its file again after training: 29 patients moved by 15 units
    on the map, one shown at ECOG "+8.6 SD", and nothing said so).

    Parameters
    ----------
    model : fitted SparGE with ``train_ids_``
    X : array-like of shape (n, m)
        The data's encoded values, the model's features in its order.
    ids : the data's patient IDs
    """
    train_ids = getattr(model, "train_ids_", None)
    if train_ids is None:
        return ""
    X = _frame_values(X)
    row = {}
    for r, v in enumerate(ids):
        row.setdefault(str(v).strip(), r)
    found = [(i, row[str(v).strip()]) for i, v in enumerate(train_ids)
             if str(v).strip() in row]  # those in the data (another table: none)
    if not found:
        return ""
    mine, rows = (np.array(t) for t in zip(*found, strict=True))
    ours = np.asarray(model.training_data_, dtype=np.float32)[mine]
    theirs = model.standardize(X[rows]).astype(np.float32)
    both = np.isfinite(ours) & np.isfinite(theirs)
    differ = (np.isfinite(ours) != np.isfinite(theirs)) | (
        both & ~np.isclose(np.where(both, ours, 0), np.where(both, theirs, 0),
                           rtol=1e-4, atol=1e-4))
    per_column = differ.sum(axis=0)
    if not per_column.any():
        return ""
    names = model.feature_names()
    cols = [names[j] for j in np.argsort(-per_column, kind="stable") if per_column[j]]
    listed = ", ".join(f"'{c}'" for c in cols[:4]) + (
        f" and {len(cols) - 4} more" if len(cols) > 4 else "")
    n = int(differ.any(axis=1).sum())
    return (f"{RECODED}: {listed} "
            f"{'differs' if len(cols) == 1 else 'differ'} for {n:,} of its "
            f"{len(train_ids):,} training patients. The table is encoded otherwise than "
            "when the model was trained (answers merged or kept apart, far values cleared "
            "or converted, an edited encoding table: since training, or before it and not "
            "since): make the model's choices again on the Data page, or train a model on "
            "the data as it is now.")


def map_csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The map's coordinates for download (no internal columns)."""
    cols = [c for c in ("ID", "x", "y", "status", "reason", "outcome") if c in frame]
    return frame[cols]


__all__ = ["MapProjector", "METHODS", "NOT_TRAINED", "DENSE_MAP", "UMAP_FIT_MAX",
           "map_title", "map_hint", "map_frame", "training_values", "patient_values",
           "map_csv_frame", "data_model_mismatch", "encoding_mismatch", "RECODED", "umap_sample",
           "umap_note", "is_dense", "map_frame_range",
           "point_style", "density_grid"]
