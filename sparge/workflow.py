"""The steps the app and the CLI share: train from a table, look-alike tables, new patients.

Pure functions over pandas/numpy (no Streamlit), so every page and command is testable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .encoding import Encoder
from .errors import DataError
from .model import SparGE
from .similarity import self_expressive_weights


@dataclass
class Cohort:
    """An encoded patient table and which rows train the model."""

    df: pd.DataFrame
    encoder: Encoder
    X: np.ndarray  # encoded features of every row (NaN = missing)
    ids: np.ndarray
    labels: np.ndarray | None  # outcome per row (None entries when missing)
    train_rows: np.ndarray  # indices of the rows used for training

    @property
    def features(self) -> list[str]:
        return list(self.encoder.feature_names_out_)

    def frame(self, rows=None) -> pd.DataFrame:
        """Encoded features as a DataFrame (rows: all, or the given indices)."""
        X = self.X if rows is None else self.X[rows]
        return pd.DataFrame(X, columns=self.features)


def encode_cohort(df: pd.DataFrame, *, id_column: str | None = None,
                  label_column: str | None = None, **encoder_params) -> Cohort:
    """Fit an :class:`Encoder` on a table; the report is ``cohort.encoder.report_``."""
    enc = Encoder(id_column=id_column, label_column=label_column, **encoder_params)
    X = enc.fit_transform(df)
    labels = enc.labels(df) if label_column else None
    return Cohort(df, enc, X, enc.ids(df), labels, np.flatnonzero(enc.training_rows(df)))


def train(cohort: Cohort, params: dict | None = None,
          callback: Callable[[str, dict], None] | None = None) -> SparGE:
    """Fit SparGE on the cohort's training rows (supervised when it has outcomes)."""
    rep = cohort.encoder.report_
    if rep.blocking:
        raise DataError("Cannot train: " + "; ".join(rep.blocking))
    params = dict(params or {})
    supervised = params.pop("supervised", cohort.labels is not None)
    rows = cohort.train_rows
    y = None
    if supervised:
        if cohort.labels is None:
            raise DataError("Supervised training needs an outcome column.")
        y = cohort.labels[rows].astype(str)
    # Graph neighbours are capped at the class sizes; SparGE itself refuses < 3 patients.
    model = SparGE(supervised=supervised, callback=callback, **params)
    model.fit(cohort.frame(rows), y)
    model.train_ids_ = cohort.ids[rows]
    if y is None and cohort.labels is not None:
        model.y_ = np.asarray([str(v) for v in cohort.labels[rows]], dtype=object)
    model.callback = None  # the model outlives the progress bar that listened
    return model


def lookalike_table(model: SparGE, X_query, *, n_neighbors: int = 10,
                    exclude_training_index: int | None = None) -> pd.DataFrame:
    """Look-alikes of one patient as a table.

    Parameters
    ----------
    X_query : array-like of shape (1, m) or None
        One patient's encoded features; ``None`` with ``exclude_training_index`` for a
        training patient (who is then not its own look-alike).

    Returns
    -------
    DataFrame with rank, training index, ID, distance, similarity, sparse weight, outcome.
    """
    if X_query is None:
        if exclude_training_index is None:
            raise ValueError("give X_query or exclude_training_index")
        i = int(exclude_training_index)
        n_train = len(model.embedding_)
        dd, ii = model._neighbors_of_training(min(n_neighbors, n_train - 1), rows=[i])
        d, idx = dd[0], ii[0]
        cand = model._neighbors_of_training(min(30, n_train - 1), rows=[i])[1]
        W = self_expressive_weights(model.embedding_[i:i + 1], model.embedding_, cand)
    else:
        dd, ii, W = model.lookalikes(X_query, n_neighbors=n_neighbors)
        d, idx = dd[0], ii[0]
    w = np.asarray(W[0, idx].todense()).ravel()
    ids = getattr(model, "train_ids_", np.asarray([str(j) for j in range(len(model.embedding_))]))
    out = pd.DataFrame({
        "rank": np.arange(1, len(idx) + 1), "training_index": idx, "ID": ids[idx],
        "distance": d, "similarity": model.similarity(d), "sparse_weight": w})
    if model.y_ is not None:
        out["outcome"] = np.asarray(model.y_)[idx]
    return out


def outcome_shares(table: pd.DataFrame) -> pd.Series:
    """Share of look-alikes with each outcome."""
    if "outcome" not in table:
        return pd.Series(dtype=float)
    return table["outcome"].value_counts(normalize=True)


def encode_new_patients(model: SparGE, encoder: Encoder, df: pd.DataFrame
                        ) -> tuple[pd.DataFrame, list[str]]:
    """Encode new patients with a trained model's encoder; returns features and messages."""
    X = encoder.transform(df)
    rep = encoder.transform_report_
    msgs = list(rep.warnings) + list(rep.notes)
    msgs += [f"Column '{u['column']}': {u['count']} value(s) not in the encoding table "
             f"were set to missing, e.g. {u['examples']}." for u in rep.unknown_values]
    msgs += [f"Column '{s['column']}': {s['hint']} (e.g. {s['examples']})"
             for s in rep.stray_text]
    if np.isnan(X).all(axis=1).any():
        bad = int(np.flatnonzero(np.isnan(X).all(axis=1))[0])
        raise DataError(f"Patient row {bad + 1} has no value the model knows; fill in at "
                        "least one biomarker.")
    return pd.DataFrame(X, columns=encoder.feature_names_out_), msgs
