"""An embedded cohort on disk, and the work done on one partition of it (no Dask here).

An *embedded cohort* is a folder of Parquet files, one per source partition
(``part-00000.parquet``, ...), plus a manifest (:data:`MANIFEST`, JSON) written last, so
its presence marks a complete embedding. Every file holds one row per patient:

- ``ID`` (text): the patient ID, from the source's ID column;
- ``outcome`` (text, null when not recorded): the outcome column of the source as the
  model's encoder reads it (:meth:`Encoder.labels`), when the source has one; look-alike
  outcome shares count the look-alikes whose outcome is recorded;
- ``y0 .. y{l-1}`` (float64): the embedding (``SparGE.lookalike_parts``);
- ``leaf0 .. leaf{T-1}`` (int32): the leaf of every tree of the model's forest part, when
  it has one, so that :func:`~sparge.method.similarity.ensemble_sqdist` scores any two
  patients exactly as :meth:`SparGE.lookalikes` does.

The functions here run on one pandas partition (on a Dask worker, or anywhere):
:func:`embed_partition` encodes, embeds and writes one partition; :func:`partition_topk`
finds the nearest patients of a few queries in one partition; :func:`merge_topk` merges
such lists; :func:`lookalike_table` turns the merged list into the look-alike table.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sparge.data.safe_text import plain_text
from sparge.errors import DataError
from sparge.method.similarity import ensemble_sqdist, self_expressive_weights

#: The manifest of an embedded cohort (written last).
MANIFEST = "sparge_cohort.json"
#: The manifest's ``format`` field.
FORMAT = "sparge-embedded-cohort"
FORMAT_VERSION = 1
#: Queries whose weights are solved together (the exact active-set solver's range).
_WEIGHT_BATCH = 64
#: Largest query x patient block of squared distances held at once in a top-k search.
_BLOCK_CELLS = 2_000_000


def embedding_columns(n_components: int) -> list[str]:
    """``y0 .. y{l-1}``."""
    return [f"y{j}" for j in range(int(n_components))]


def leaf_columns(n_trees: int) -> list[str]:
    """``leaf0 .. leaf{T-1}``."""
    return [f"leaf{t}" for t in range(int(n_trees))]


def model_fingerprint(model) -> str:
    """A short hash of a fitted model's look-alike space.

    The training patients' embedding and forest leaves and the forest scale: fitted
    state only (not the parameters, whose list grows with the library), so a cohort
    embedded with one model is refused by another, and a model file re-saved or read by a
    newer version of the library still matches.
    """
    Y, leaves = model.lookalike_parts()
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(Y, dtype=np.float64).tobytes())
    if leaves is not None:
        h.update(np.ascontiguousarray(leaves, dtype=np.int64).tobytes())
    h.update(repr(float(getattr(model, "forest_scale_", 0.0))).encode())
    return h.hexdigest()[:32]


# ---------------------------------------------------------------- the manifest
@dataclass
class CohortManifest:
    """What an embedded cohort holds (the manifest's fields)."""

    model_fingerprint: str
    n_components: int
    n_trees: int
    forest_scale: float
    id_column: str
    outcome_column: str | None
    n_patients: int
    files: list[str]
    source: str
    skipped_no_value: int = 0
    seconds: float = 0.0

    @property
    def embedding_columns(self) -> list[str]:
        return embedding_columns(self.n_components)

    @property
    def leaf_columns(self) -> list[str]:
        return leaf_columns(self.n_trees)

    @property
    def has_outcome(self) -> bool:
        return self.outcome_column is not None

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": FORMAT_VERSION, **self.__dict__}

    def write(self, folder: str | os.PathLike) -> Path:
        """Write the manifest into ``folder`` atomically (the completion mark)."""
        path = Path(folder) / MANIFEST
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")
        os.replace(tmp, path)
        return path


def read_manifest(folder: str | os.PathLike) -> CohortManifest:
    """The manifest of an embedded cohort folder.

    Raises
    ------
    DataError
        The folder does not exist, holds no (complete) embedded cohort, or its manifest
        is damaged.
    """
    folder = Path(folder)
    name = plain_text(str(folder), 200)
    if not folder.is_dir():
        raise DataError(f"The embedded cohort {name} does not exist or is not a folder; "
                        "create it with `python -m sparge embed MODEL SOURCE -o FOLDER`.")
    path = folder / MANIFEST
    if not path.is_file():
        raise DataError(f"{name} is not a complete embedded cohort (no {MANIFEST}); embed "
                        "the cohort with `python -m sparge embed MODEL SOURCE -o FOLDER` "
                        "and wait until it finishes.")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("format") != FORMAT or raw.get("version") != FORMAT_VERSION:
            raise ValueError(f"format {raw.get('format')!r} version {raw.get('version')!r}")
        fields = {k: raw[k] for k in CohortManifest.__dataclass_fields__ if k in raw}
        man = CohortManifest(**fields)
        man.n_components, man.n_trees = int(man.n_components), int(man.n_trees)
        man.n_patients = int(man.n_patients)
        if not isinstance(man.files, list) or not all(isinstance(f, str) and "/" not in f
                                                       and f.endswith(".parquet")
                                                       for f in man.files):
            raise ValueError("bad file list")
    except (ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError) as exc:
        raise DataError(f"The manifest {MANIFEST} of {name} is damaged ({exc}); embed the "
                        "cohort again.") from exc
    missing = [f for f in man.files if not (folder / f).is_file()]
    if missing:
        raise DataError(f"The embedded cohort {name} lacks {len(missing)} of its files "
                        f"(e.g. {plain_text(missing[0], 80)}); embed the cohort again.")
    return man


# ---------------------------------------------------------------- embedding a partition
@dataclass
class PartitionStats:
    """What embedding one partition did (one row of the embed step's result)."""

    partition: int
    file: str
    rows: int
    embedded: int
    no_value: int
    notes: str  # JSON: warnings, unknown values and stray text per column


STATS_META = pd.DataFrame({"partition": pd.Series(dtype="int64"),
                           "file": pd.Series(dtype=object),
                           "rows": pd.Series(dtype="int64"),
                           "embedded": pd.Series(dtype="int64"),
                           "no_value": pd.Series(dtype="int64"),
                           "notes": pd.Series(dtype=object)})


def _report_notes(rep) -> dict:
    """The parts of a transform report worth adding up over partitions."""
    return {"warnings": list(rep.warnings),
            "unknown": {str(u.column): int(u.count) for u in rep.unknown_values},
            "stray": {str(s.column): int(s.count) for s in rep.stray_text}}


def embed_frame(model, encoder, df: pd.DataFrame, *, label_column: str | None = None
                ) -> tuple[pd.DataFrame, dict]:
    """Encode and embed one partition: the rows of its Parquet file, and notes.

    Rows with no value the model knows are left out (``notes["no_value"]``): the model
    would place them all at one meaningless point.

    Parameters
    ----------
    model : SparGE
    encoder : Encoder
        The model's encoder; its ``id_column`` must be a column of ``df``.
    df : DataFrame
        Source rows (text or typed cells).
    label_column : str, optional
        The outcome column to carry (read by ``encoder.labels``); ``None``: no outcome.
    """
    X, rep = encoder.transform_with_report(df)
    notes = _report_notes(rep)
    ids = encoder.ids(df)
    blank = int(pd.Series(ids, dtype="str").fillna("").str.strip().eq("").sum())
    if blank:
        notes["warnings"].append("Some patients have no ID (an empty ID cell): their "
                                 "look-alikes cannot be told apart by ID.")
    known = ~np.isnan(X).all(axis=1) if X.shape[1] else np.zeros(len(X), bool)
    notes["no_value"] = int((~known).sum())
    feats = pd.DataFrame(X[known], columns=list(encoder.feature_names_out_))
    Y_train, L_train = model.lookalike_parts()
    n_comp = int(Y_train.shape[1])
    if known.any():
        Y, leaves = model.lookalike_parts(feats)
    else:
        Y = np.empty((0, n_comp))
        leaves = None if L_train is None else np.empty((0, L_train.shape[1]), np.int32)
    out: dict[str, object] = {"ID": pd.array(ids[known].astype(str), dtype="str")}
    if label_column is not None:
        lab = np.asarray(encoder.labels(df), dtype=object)[known]
        out["outcome"] = pd.array(lab, dtype="str")
    for j, col in enumerate(embedding_columns(n_comp)):
        out[col] = np.asarray(Y[:, j], dtype=np.float64)
    if leaves is not None:
        L = np.asarray(leaves).astype(np.int32)
        for t, col in enumerate(leaf_columns(L.shape[1])):
            out[col] = L[:, t]
    return pd.DataFrame(out), notes


def embed_partition(df: pd.DataFrame, model_payload, out_dir: str, label_column,
                    partition_info=None) -> pd.DataFrame:
    """Embed one source partition and write ``part-NNNNN.parquet`` (a Dask task).

    ``model_payload`` is what :func:`worker_model` loads (once per worker process).
    Returns one :data:`STATS_META` row.
    """
    number = int(partition_info["number"]) if partition_info else 0
    model, encoder = worker_model(model_payload)
    frame, notes = embed_frame(model, encoder, df, label_column=label_column)
    name = ""
    if len(frame):
        name = f"part-{number:05d}.parquet"
        frame.to_parquet(os.path.join(out_dir, name), index=False)
    return pd.DataFrame([PartitionStats(number, name, len(df), len(frame), notes["no_value"],
                                        json.dumps(notes)).__dict__])


_LOADED: dict[str, tuple] = {}


def worker_model(payload) -> tuple:
    """``(model, encoder)`` of a ``(key, model file bytes, encoder columns)`` payload.

    Loaded by :func:`sparge.load_model` once per process and key. ``encoder columns``
    (``{"id_column": ..., "label_column": ...}``) say where this cohort keeps the IDs and
    the outcome, when not where the encoder was fitted to find them.
    """
    from sparge import load_model

    key, data, columns = payload
    got = _LOADED.get(key)
    if got is None:
        model, encoder = load_model(data)
        if encoder is None:
            raise DataError("This model file has no encoder.")
        got = (model, with_columns(encoder, **columns))
        if len(_LOADED) > 2:
            _LOADED.clear()
        _LOADED[key] = got
    return got


def with_columns(encoder, **columns):
    """The encoder, or a copy reading IDs / the outcome from other columns.

    Only ``id_column`` and ``label_column`` change (``set_params`` on a shallow copy); the
    fitted roles and tables are shared, not refitted.
    """
    import copy

    changes = {k: v for k, v in columns.items() if getattr(encoder, k) != v}
    if not changes:
        return encoder
    enc = copy.copy(encoder)
    enc.set_params(**changes)
    return enc


# ---------------------------------------------------------------- look-alike search
def candidates_meta(n_components: int, with_outcome: bool) -> pd.DataFrame:
    """Empty frame with the columns of :func:`partition_topk`'s result."""
    cols = {"query": pd.Series(dtype="int64"), "d2": pd.Series(dtype="float64"),
            "ID": pd.Series(dtype="str")}
    if with_outcome:
        cols["outcome"] = pd.Series(dtype="str")
    for c in embedding_columns(n_components):
        cols[c] = pd.Series(dtype="float64")
    return pd.DataFrame(cols)


def partition_topk(df: pd.DataFrame, queries, k: int, forest_scale: float,
                   with_outcome: bool) -> pd.DataFrame:
    """The ``k`` nearest patients of every query among the rows of one partition.

    Exact: squared look-alike distances by
    :func:`~sparge.method.similarity.ensemble_sqdist` (embedding plus forest part), in
    blocks of at most :data:`_BLOCK_CELLS` query x patient cells, keeping the running
    ``k`` best. A patient whose ID is the query's own is skipped.

    Parameters
    ----------
    df : DataFrame
        Rows of an embedded cohort (``ID``, ``outcome``, ``y*``, ``leaf*``).
    queries : tuple
        ``(Y, leaves or None, ids or None)`` of the query patients.

    Returns
    -------
    DataFrame with ``query`` (index), ``d2`` (squared distance), ``ID``, ``outcome`` and the
    embedding columns, at most ``k`` rows per query, nearest first.
    """
    Yq, Lq, qids = queries
    Yq = np.atleast_2d(np.asarray(Yq, dtype=np.float64))
    q, n_comp = Yq.shape
    ycols = embedding_columns(n_comp)
    r = len(df)
    kk = int(min(k, r))
    if q == 0 or kk == 0:
        return candidates_meta(n_comp, with_outcome)
    Yr = df[ycols].to_numpy(dtype=np.float64)
    Lr = None
    if Lq is not None:
        Lr = df[leaf_columns(np.asarray(Lq).shape[1])].to_numpy()
    ids = df["ID"].to_numpy(dtype=object)
    own = _own_rows(ids, qids)
    block = max(1, _BLOCK_CELLS // q)
    best_d = np.empty((q, 0))
    best_i = np.empty((q, 0), dtype=np.int64)
    for s in range(0, r, block):
        e = min(r, s + block)
        d2 = ensemble_sqdist(Yq, Yr[s:e], Lq, None if Lr is None else Lr[s:e], forest_scale)
        if own is not None:
            sel = (own[1] >= s) & (own[1] < e)
            d2[own[0][sel], own[1][sel] - s] = np.inf
        D = np.hstack([best_d, d2])
        I = np.hstack([best_i, np.broadcast_to(np.arange(s, e), (q, e - s))])
        if D.shape[1] > kk:
            part = np.argpartition(D, kk - 1, axis=1)[:, :kk]
            D, I = np.take_along_axis(D, part, 1), np.take_along_axis(I, part, 1)
        best_d, best_i = D, I
    order = np.argsort(best_d, axis=1, kind="stable")
    best_d = np.take_along_axis(best_d, order, 1).ravel()
    rows = np.take_along_axis(best_i, order, 1).ravel()
    out = {"query": np.repeat(np.arange(q, dtype=np.int64), kk), "d2": best_d,
           "ID": pd.array(ids[rows].astype(str), dtype="str")}
    if with_outcome:
        out["outcome"] = pd.array(df["outcome"].to_numpy(dtype=object)[rows], dtype="str")
    for j, c in enumerate(ycols):
        out[c] = Yr[rows, j]
    res = pd.DataFrame(out)
    return res[np.isfinite(best_d)].reset_index(drop=True)


def _own_rows(ids: np.ndarray, qids) -> tuple[np.ndarray, np.ndarray] | None:
    """(query, row) pairs where a row holds the query patient itself."""
    if qids is None:
        return None
    pos: dict[str, list[int]] = {}
    for i, v in enumerate(qids):
        pos.setdefault(str(v).strip(), []).append(i)
    keys = pd.Series(ids, dtype="str").str.strip()
    hit = np.flatnonzero(keys.isin(list(pos)).to_numpy(bool))
    pairs = [(qi, row) for row in hit for qi in pos[keys.iloc[row]]]
    if not pairs:
        return None
    a = np.asarray(pairs, dtype=np.int64)
    return a[:, 0], a[:, 1]


def merge_topk(frames, k: int) -> pd.DataFrame:
    """The ``k`` nearest per query of several :func:`partition_topk` results."""
    if isinstance(frames, pd.DataFrame):
        frames = [frames]
    frames = [f for f in frames if len(f)] or list(frames)[:1]
    both = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    both = both.sort_values(["query", "d2"], kind="stable")
    return both.groupby("query", sort=True).head(int(k)).reset_index(drop=True)


def lookalike_table(model, Yq: np.ndarray, merged: pd.DataFrame, k: int, query_ids,
                    with_outcome: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The look-alike table and the outcome shares from the merged nearest patients.

    Distances and similarities as :meth:`SparGE.lookalikes` and :meth:`SparGE.similarity`
    give them; the sparse weights express every query over its ``k`` look-alikes in the
    embedding (:func:`~sparge.method.similarity.self_expressive_weights`, exact, at most
    :data:`_WEIGHT_BATCH` queries at a time, as the look-alike table of one patient).

    Returns
    -------
    table : DataFrame
        ``query``, ``rank``, ``ID``, ``distance``, ``similarity``, ``sparse_weight`` and
        ``outcome`` (when the cohort has one), nearest first per query.
    shares : DataFrame
        One row per query, one column per outcome: its share among the query's look-alikes
        with a recorded outcome (empty without an outcome column).
    """
    Yq = np.atleast_2d(np.asarray(Yq, dtype=np.float64))
    ycols = embedding_columns(Yq.shape[1])
    merged = merged.sort_values(["query", "d2"], kind="stable").reset_index(drop=True)
    counts = merged.groupby("query").size().reindex(range(len(Yq)), fill_value=0)
    if len(Yq) and (counts != counts.iloc[0]).any():
        raise DataError("The embedded cohort changed during the search; search again.")
    kk = int(counts.iloc[0]) if len(Yq) else 0
    weights = np.zeros(len(merged))
    if kk:
        C = merged[ycols].to_numpy(dtype=np.float64).reshape(len(Yq), kk, -1)
        for s in range(0, len(Yq), _WEIGHT_BATCH):
            e = min(len(Yq), s + _WEIGHT_BATCH)
            idx = np.arange((e - s) * kk).reshape(e - s, kk)
            W = self_expressive_weights(Yq[s:e], C[s:e].reshape(-1, Yq.shape[1]), idx)
            weights[s * kk:e * kk] = np.asarray(
                W[np.repeat(np.arange(e - s), kk), idx.ravel()]).ravel()
    dist = np.sqrt(merged["d2"].to_numpy(dtype=np.float64))
    qids = np.asarray(query_ids, dtype=object) if query_ids is not None else \
        np.arange(len(Yq))
    table = pd.DataFrame({"query": qids[merged["query"].to_numpy()],
                          "rank": np.tile(np.arange(1, kk + 1), len(Yq)),
                          "ID": merged["ID"].to_numpy(dtype=object), "distance": dist,
                          "similarity": model.similarity(dist), "sparse_weight": weights})
    shares = pd.DataFrame(index=pd.Index(qids, name="query"))
    if with_outcome:
        table["outcome"] = merged["outcome"].to_numpy(dtype=object)
        known = merged.dropna(subset=["outcome"])
        if len(known):
            shares = (pd.crosstab(known["query"], known["outcome"], normalize="index")
                      .reindex(range(len(Yq)), fill_value=0.0))
            shares.index = pd.Index(qids, name="query")
            shares.columns.name = "outcome"
    return table, shares
