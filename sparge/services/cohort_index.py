"""Look-alikes among every patient of an embedded cohort, from one process.

``python -m sparge embed`` writes a cohort's embedding (and forest leaves) to a folder of
Parquet files (:mod:`sparge.services.embedded_cohort`). :class:`CohortIndex` reads that
folder once into a :class:`~sparge.method.neighbors.LookalikeIndex` (exact below its size
threshold, NN-descent above) and then answers look-alike queries in milliseconds: what the
app keeps per session for a hospital-sized cohort, where scanning every partition per query
(:func:`sparge.services.distributed.cohort_lookalikes`) would take seconds.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from sparge.errors import DataError
from sparge.method.neighbors import LOOKALIKE_THRESHOLD, LookalikeIndex
from sparge.services.embedded_cohort import lookalike_table, model_fingerprint, read_manifest


class CohortIndex:
    """An embedded cohort held in memory with its look-alike index.

    Parameters
    ----------
    folder : path-like
        An embedded cohort (``sparge embed ... -o FOLDER``).
    model : fitted SparGE
        The model it was embedded with (checked by fingerprint).
    method : {"auto", "exact", "approximate"}
        Search of :class:`~sparge.method.neighbors.LookalikeIndex`.
    threshold : int
        Patients from which ``"auto"`` searches approximately.
    random_state : int or None

    Attributes
    ----------
    n_patients_ : int
    ids_ : ndarray of str
    outcome_ : ndarray of object or None
    build_seconds_ : float
        Time to read the folder and build the index.
    """

    def __init__(self, folder: str | os.PathLike, model, *, method: str = "auto",
                 threshold: int = LOOKALIKE_THRESHOLD, random_state: int | None = 0):
        t0 = time.perf_counter()
        self.folder = Path(folder)
        self.model = model
        man = read_manifest(self.folder)
        if man.model_fingerprint != model_fingerprint(model):
            raise DataError("This embedded cohort was embedded with another model; embed it "
                            "again with this model (`python -m sparge embed MODEL SOURCE -o "
                            "FOLDER`) or load the model it was embedded with.")
        self.manifest_ = man
        cols = ["ID"] + (["outcome"] if man.has_outcome else []) + man.embedding_columns \
            + (man.leaf_columns if man.n_trees else [])
        frames = [pd.read_parquet(self.folder / f, columns=cols) for f in man.files]
        frames = [f for f in frames if len(f)]
        if not frames:
            raise DataError("The embedded cohort holds no patients.")
        df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        self.ids_ = df["ID"].to_numpy(dtype=object).astype(str)
        self.outcome_ = df["outcome"].to_numpy(dtype=object) if man.has_outcome else None
        self.Y_ = df[man.embedding_columns].to_numpy(dtype=np.float64)
        self.leaves_ = df[man.leaf_columns].to_numpy(dtype=np.int32) if man.n_trees else None
        del df, frames
        self.n_patients_ = len(self.ids_)
        self.index_ = LookalikeIndex(method=method, threshold=threshold,
                                     random_state=random_state).fit(
            self.Y_, self.leaves_, man.forest_scale)
        self.build_seconds_ = time.perf_counter() - t0

    @property
    def method_(self) -> str:
        """``"exact"`` or ``"approximate"``."""
        return self.index_.method_

    def lookalikes(self, X=None, n_neighbors: int = 10, *, parts=None, query_ids=None
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The look-alikes of query patients among every patient of the cohort.

        Parameters
        ----------
        X : array-like of shape (q, m), optional
            Encoded query patients (``NaN`` allowed); or give ``parts``.
        n_neighbors : int
        parts : (Y, leaves), optional
            The queries' :meth:`SparGE.lookalike_parts`.
        query_ids : sequence of str, optional
            Their IDs: a query that is a patient of the cohort is not its own look-alike.

        Returns
        -------
        table, shares : DataFrame
            As :func:`sparge.services.embedded_cohort.lookalike_table`: ``query``,
            ``rank``, ``ID``, ``distance``, ``similarity``, ``sparse_weight`` (and
            ``outcome``), and the outcome shares among each query's look-alikes.
        """
        if parts is None:
            if X is None:
                raise ValueError("give X (encoded patients) or parts=(Y, leaves)")
            parts = self.model.lookalike_parts(X)
        Yq, Lq = parts
        Yq = np.atleast_2d(np.asarray(Yq, dtype=np.float64))
        k = int(min(n_neighbors, self.n_patients_))
        qids = None if query_ids is None else [str(i).strip() for i in query_ids]
        extra = 0 if qids is None else 1  # room to drop the query itself
        dist, idx = self.index_.query(Yq, min(k + extra, self.n_patients_), Lq)
        if qids is not None:
            own = self.ids_[idx] == np.asarray(qids, dtype=object)[:, None]
            keep = ~own
            keep[keep.sum(axis=1) > k, -1] = False  # not itself: drop the farthest instead
            k = int(keep.sum(axis=1).min())
            dist = np.vstack([d[m][:k] for d, m in zip(dist, keep)])
            idx = np.vstack([i[m][:k] for i, m in zip(idx, keep)])
        rows = idx.ravel()
        merged = pd.DataFrame({"query": np.repeat(np.arange(len(Yq)), idx.shape[1]),
                               "d2": dist.ravel() ** 2, "ID": self.ids_[rows]})
        if self.outcome_ is not None:
            merged["outcome"] = self.outcome_[rows]
        for j, c in enumerate(self.manifest_.embedding_columns):
            merged[c] = self.Y_[rows, j]
        return lookalike_table(self.model, Yq, merged, idx.shape[1], query_ids,
                               self.outcome_ is not None)
