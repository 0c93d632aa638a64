"""Patient tables in: reading CSV files and encoding them as numbers (DESIGN.md §3).

:func:`read_table` reads a CSV (path, bytes or binary file-like) with delimiter and text
encoding detection; :class:`Encoder` turns the table into a float matrix with ``NaN`` for
missing values, through the encoding table, and writes a :class:`ValidationReport`.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .errors import DataError
from .preprocess import filter_columns, missing_fraction_per_row
from .report import ValidationReport
from .tables import EncodingTable, is_missing_token, norm_key

ROLES = ("id", "label", "numeric", "categorical", "ignore")
MAX_BYTES = 500 * 1024**2
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
_CENSORED = re.compile(r"^\s*([<>]=?)\s*([+-]?(\d+\.?\d*|\.\d+))\s*$")


# --------------------------------------------------------------------------- reading
def _raw_bytes(source) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray)):
        return bytes(source), "the upload"
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.exists(path):
            raise DataError(f"File not found: {path}")
        if os.path.getsize(path) > MAX_BYTES:
            raise DataError(f"{path} is larger than {MAX_BYTES // 1024**2} MB.")
        with open(path, "rb") as fh:
            return fh.read(), os.path.basename(path)
    if hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        name = getattr(source, "name", "the upload")
        return data, str(name)
    raise DataError(f"Cannot read a table from a {type(source).__name__}.")


def _decode(data: bytes, name: str) -> str:
    if b"\x00" in data[:4096]:
        raise DataError(f"{name} is not a CSV text file (it looks binary: a spreadsheet, "
                        "archive or model file?). Save it as CSV and upload again.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # every byte is valid latin-1


def _sniff_delimiter(text: str) -> str:
    head = "\n".join(text.splitlines()[:50])
    try:
        return csv.Sniffer().sniff(head, delimiters=",;\t").delimiter
    except csv.Error:
        first = text.splitlines()[0] if text else ""
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        return max(counts, key=counts.get) if max(counts.values()) else ","


def read_table(source, *, delimiter: str | None = None) -> pd.DataFrame:
    """Read a patient table as text cells.

    Parameters
    ----------
    source : path, bytes or binary file-like (e.g. Streamlit's upload)
    delimiter : str, optional
        Forced delimiter; detected among ``,`` ``;`` and tab by default.

    Returns
    -------
    DataFrame of strings (empty cells as ``""``); the encoder parses numbers.

    Raises
    ------
    DataError
        Empty file, binary file, no data rows, duplicate column names, ragged rows.
    """
    data, name = _raw_bytes(source)
    if not data.strip():
        raise DataError(f"{name} is empty: expected a CSV with a header row and one row "
                        "per patient.")
    text = _decode(data, name).replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise DataError(f"{name} is empty: expected a CSV with a header row and one row "
                        "per patient.")
    sep = delimiter or _sniff_delimiter(text)
    try:
        header = next(csv.reader(io.StringIO(text.split("\n", 1)[0]), delimiter=sep), [])
    except csv.Error as exc:
        raise DataError(f"{name}: the header row cannot be read as CSV ({exc}).") from exc
    header = [h.strip() for h in header]
    if len(header) < 2 and sep == ",":
        raise DataError(f"{name} has a single column: is it a CSV? Expected columns "
                        "separated by ',', ';' or tab.")
    seen: dict[str, int] = {}
    dups = []
    for i, h in enumerate(header):
        if h == "":
            raise DataError(f"Column {i + 1} of {name} has no name in the header row.")
        if norm_key(h) in seen:
            dups.append(h)
        seen[norm_key(h)] = i
    if dups:
        raise DataError(f"Duplicate column name(s) in {name}: {sorted(set(dups))}. Every "
                        "column needs a unique name.")
    try:
        df = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, keep_default_na=False,
                         skipinitialspace=True, engine="c")
    except pd.errors.ParserError as exc:
        msg = str(exc)
        m = re.search(r"line (\d+), saw (\d+)", msg)
        hint = (f"line {m.group(1)} has {m.group(2)} fields but the header has {len(header)}"
                if m else msg)
        raise DataError(f"{name} is not a well-formed table: {hint}.") from exc
    except pd.errors.EmptyDataError as exc:
        raise DataError(f"{name} has no rows.") from exc
    except (csv.Error, ValueError) as exc:
        raise DataError(f"{name} cannot be read as a CSV table ({exc}).") from exc
    df.columns = header
    if len(df) == 0:
        raise DataError(f"{name} has a header but no patient rows.")
    return df


# --------------------------------------------------------------------------- parsing
def parse_numeric(values: pd.Series) -> tuple[np.ndarray, dict[str, Any]]:
    """Parse a column of cells as numbers.

    Returns the floats (``NaN`` for missing or unparsable cells) and a dict with the
    unparsable cells (``bad``: list of (row, text)), decimal-comma cells converted, and
    censored values (``<0.1``) set to missing.
    """
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        out = np.array(values.to_numpy(dtype=float, na_value=np.nan), copy=True)
        inf = [(int(i), str(out[i])) for i in np.flatnonzero(np.isinf(out))]
        out[np.isinf(out)] = np.nan
        return out, {"bad": [], "decimal_comma": 0, "censored": [], "infinite": inf}
    out = np.full(len(values), np.nan)
    info: dict[str, Any] = {"bad": [], "decimal_comma": 0, "censored": [], "infinite": []}
    for i, v in enumerate(values.tolist()):
        if v is None or (isinstance(v, float) and np.isnan(v)):
            continue
        if isinstance(v, (int, float, np.number)) and not isinstance(v, bool):
            out[i] = float(v)
            continue
        s = str(v).strip()
        if is_missing_token(s):
            continue
        if _NUMBER.match(s):
            out[i] = float(s)
        elif _DECIMAL_COMMA.match(s):
            out[i] = float(s.replace(",", "."))
            info["decimal_comma"] += 1
        elif _CENSORED.match(s):
            info["censored"].append((i, s))
        elif norm_key(s) in _INF_TOKENS:
            info["infinite"].append((i, s))
        else:
            info["bad"].append((i, s))
    if np.isinf(out).any():
        info["infinite"] += [(int(i), str(values.iloc[i])) for i in np.flatnonzero(np.isinf(out))]
        out[np.isinf(out)] = np.nan
    return out, info


def _numeric_share(values: pd.Series) -> float:
    if pd.api.types.is_numeric_dtype(values):
        return 1.0
    cells = [str(v).strip() for v in values.tolist()
             if not (v is None or (isinstance(v, float) and np.isnan(v)))]
    cells = [c for c in cells if not is_missing_token(c)]
    if not cells:
        return 0.0
    num = sum(bool(_NUMBER.match(c) or _DECIMAL_COMMA.match(c) or _CENSORED.match(c)
                   or norm_key(c) in _INF_TOKENS) for c in cells)
    return num / len(cells)


class Encoder(TransformerMixin, BaseEstimator):
    """Patient table (DataFrame of text and numbers) -> float matrix, ``NaN`` = missing.

    Parameters
    ----------
    id_column, label_column : str, optional
        Columns that identify the patient and hold the outcome; never features.
    encoding_table : EncodingTable, dict, DataFrame or None
        Levels -> codes for categorical columns; ``None`` uses the paper's table. Columns
        not in it get an inferred table (sorted levels coded 1, 2, ...).
    roles : dict, optional
        ``{column: role}`` overriding the inferred roles (id, label, numeric, categorical,
        ignore).
    max_patient_missing : float or None
        Patients missing more than this share are left out of training (paper: 10 %).
        ``fit_transform`` keeps every row; ``keep_patients_`` says which to train on.
    drop_all_missing, drop_constant, merge_duplicates : bool
        Column filters of the paper's preprocessing.
    numeric_threshold : float
        A text column is numeric when at least this share of its cells are numbers.
    max_levels : int
        A text column with more distinct values is ignored (free text or identifiers).

    Attributes
    ----------
    roles_ : dict
    table_ : EncodingTable
        The table used (paper's + inferred + user's).
    feature_names_out_ : list of str
    keep_patients_ : ndarray of bool
    report_ : ValidationReport
    """

    def __init__(self, id_column: str | None = None, label_column: str | None = None,
                 encoding_table=None, roles: Mapping[str, str] | None = None,
                 max_patient_missing: float | None = 0.1, drop_all_missing: bool = True,
                 drop_constant: bool = True, merge_duplicates: bool = True,
                 numeric_threshold: float = 0.8, max_levels: int = 30):
        self.id_column = id_column
        self.label_column = label_column
        self.encoding_table = encoding_table
        self.roles = roles
        self.max_patient_missing = max_patient_missing
        self.drop_all_missing = drop_all_missing
        self.drop_constant = drop_constant
        self.merge_duplicates = merge_duplicates
        self.numeric_threshold = numeric_threshold
        self.max_levels = max_levels

    # ------------------------------------------------------------------ helpers
    def _base_table(self) -> EncodingTable:
        t = self.encoding_table
        if t is None:
            return EncodingTable.paper()
        if isinstance(t, EncodingTable):
            return EncodingTable.paper().merged(t)
        if isinstance(t, pd.DataFrame):
            return EncodingTable.paper().merged(EncodingTable.from_frame(t))
        if isinstance(t, Mapping):
            return EncodingTable.paper().merged(EncodingTable(t))
        raise DataError("encoding_table must be an EncodingTable, a dict or a DataFrame.")

    @staticmethod
    def _check_frame(df) -> pd.DataFrame:
        if not isinstance(df, pd.DataFrame):
            raise DataError("The Encoder takes a pandas DataFrame (use sparge.read_table "
                            "to read a CSV).")
        if df.shape[0] == 0:
            raise DataError("The table has no patient rows.")
        if df.columns.duplicated().any():
            dups = sorted({str(c) for c in df.columns[df.columns.duplicated()]})
            raise DataError(f"Duplicate column name(s): {dups}.")
        return df

    def _infer_role(self, col: str, values: pd.Series, table: EncodingTable) -> str:
        if table.has(col):
            return "categorical"
        if _numeric_share(values) >= self.numeric_threshold:
            return "numeric"
        cells = values.astype(str).str.strip()
        cells = cells[~cells.map(is_missing_token)]
        n_levels = cells.map(norm_key).nunique()
        if n_levels == 0:
            return "numeric"  # all missing: dropped later as an all-missing column
        if n_levels > self.max_levels:
            return "ignore"
        return "categorical"

    # ------------------------------------------------------------------ fit
    def fit(self, X: pd.DataFrame, y=None) -> Encoder:
        self._fit_transform(X)
        return self

    def fit_transform(self, X: pd.DataFrame, y=None, **fit_params) -> np.ndarray:
        return self._fit_transform(X)

    def _fit_transform(self, df: pd.DataFrame) -> np.ndarray:
        df = self._check_frame(df)
        report = ValidationReport(n_rows=int(df.shape[0]), n_columns=int(df.shape[1]))
        cols = [str(c) for c in df.columns]
        df = df.set_axis(cols, axis=1)
        overrides = {str(k): v for k, v in (self.roles or {}).items()}
        for col, role in overrides.items():
            if role not in ROLES:
                raise DataError(f"Role {role!r} for column {col!r} is not one of {ROLES}.")
            if col not in cols:
                raise DataError(f"A role is given for column {col!r}, which is not in the "
                                f"table (columns: {cols[:10]}…).")
        for name, attr in (("id", self.id_column), ("label", self.label_column)):
            if attr is not None and str(attr) not in cols:
                raise DataError(f"The {name} column {attr!r} is not in the table; columns "
                                f"are: {cols[:15]}{'…' if len(cols) > 15 else ''}.")
        base = self._base_table()
        roles: dict[str, str] = {}
        for col in cols:
            if col == self.id_column:
                roles[col] = "id"
            elif col == self.label_column:
                roles[col] = "label"
            elif col in overrides:
                roles[col] = overrides[col]
            else:
                roles[col] = self._infer_role(col, df[col], base)
        if self.id_column is not None:
            ids = df[self.id_column].astype(str).str.strip()
            dup = ids[ids.duplicated(keep=False)]
            if len(dup):
                first = dup.iloc[0]
                rows = [int(i) + 2 for i in np.flatnonzero(ids == first)[:5]]
                raise DataError(f"Duplicate patient ID {first!r} in column "
                                f"{self.id_column!r} (CSV lines {rows}); "
                                f"{dup.nunique()} ID(s) repeat. Every patient needs a unique ID.")
        table = EncodingTable()
        for col in cols:
            if roles[col] != "categorical":
                continue
            if base.has(col):
                table.set_column(col, base.levels(col))
            else:
                cells = df[col].astype(str).str.strip()
                levels = sorted({c for c in cells if not is_missing_token(c)}, key=norm_key)
                uniq: dict[str, str] = {}
                for lv in levels:
                    uniq.setdefault(norm_key(lv), lv)
                table.set_column(col, {lv: i + 1 for i, lv in enumerate(uniq.values())})
                if uniq:
                    report.notes.append(f"column '{col}' has no encoding table entry; "
                                        f"inferred {len(uniq)} levels (editable).")
        self.table_ = table
        self.roles_ = roles
        self.input_columns_ = cols
        features = [c for c in cols if roles[c] in ("numeric", "categorical")]
        X = self._encode(df, features, report)
        filt = filter_columns(X, drop_all_missing=self.drop_all_missing,
                              drop_constant=self.drop_constant,
                              merge_duplicates=self.merge_duplicates)
        for j in filt.all_missing:
            report.dropped_columns.append({"column": features[j], "reason": "no values"})
        for j in filt.constant:
            report.dropped_columns.append({"column": features[j],
                                           "reason": "the same value for every patient"})
        for j, k in filt.duplicate_of.items():
            report.dropped_columns.append({"column": features[j], "reason":
                                           f"an exact copy of '{features[k]}' (merged)"})
        self.encoded_columns_ = features
        self.feature_names_out_ = [f for f, keep in zip(features, filt.keep) if keep]
        X = X[:, filt.keep]
        report.roles = roles
        report.n_features = len(self.feature_names_out_)
        report.missing_pct = {f: float(100 * np.isnan(X[:, j]).mean())
                              for j, f in enumerate(self.feature_names_out_)}
        miss = missing_fraction_per_row(X)
        self.keep_patients_ = (np.ones(len(df), bool) if self.max_patient_missing is None
                               else miss <= self.max_patient_missing + 1e-12)
        id_vals = (df[self.id_column].astype(str).tolist() if self.id_column else
                   [str(i) for i in range(len(df))])
        report.patients_dropped = [{"row": int(i) + 2, "id": id_vals[i],
                                    "missing_pct": float(100 * miss[i])}
                                   for i in np.flatnonzero(~self.keep_patients_)]
        if self.max_patient_missing is not None and report.patients_dropped:
            report.notes.append(
                f"{len(report.patients_dropped)} of {len(df)} patients miss more than "
                f"{100 * self.max_patient_missing:.0f}% of their values (the paper's "
                "threshold) and are left out of training; raise the threshold to keep them.")
        self._label_checks(df, report)
        n_train = int(self.keep_patients_.sum())
        if report.n_features == 0:
            report.blocking.append("no usable feature columns (all were ignored, empty or "
                                   "constant).")
        if n_train < 3:
            report.blocking.append(f"only {n_train} patient(s) left to train on; at least 3 "
                                   "are needed (and more than the number of look-alikes).")
        elif n_train <= 10:
            report.warnings.append(f"only {n_train} patients to train on: look-alike lists "
                                   "of 10 will hold most of the cohort.")
        self.report_ = report
        self.n_features_in_ = len(cols)
        return X

    def _label_checks(self, df: pd.DataFrame, report: ValidationReport) -> None:
        if self.label_column is None:
            return
        report.label_column = self.label_column
        lab = df[self.label_column]
        missing = lab.map(is_missing_token)
        vals = lab[~missing].astype(str).str.strip()
        keep = self.keep_patients_ & ~missing.to_numpy()
        report.label_balance = {str(k): int(v) for k, v in
                                vals[keep[~missing.to_numpy()]].value_counts().items()}
        if missing.any():
            rows = [int(i) + 2 for i in np.flatnonzero(missing.to_numpy())[:5]]
            report.warnings.append(f"{int(missing.sum())} patient(s) have no outcome in "
                                   f"'{self.label_column}' (CSV lines {rows}…); they are left "
                                   "out of supervised training.")
        if len(report.label_balance) < 2:
            report.blocking.append(
                f"the outcome column '{self.label_column}' has "
                f"{len(report.label_balance)} class(es) among the patients kept; supervised "
                "training needs at least 2 (or train unsupervised).")
        elif min(report.label_balance.values()) < 3:
            report.warnings.append("an outcome class has fewer than 3 patients; its "
                                   "look-alikes will be unreliable.")

    # ------------------------------------------------------------------ encode
    def _encode(self, df: pd.DataFrame, features: list[str],
                report: ValidationReport | None) -> np.ndarray:
        X = np.full((len(df), len(features)), np.nan)
        for j, col in enumerate(features):
            values = df[col]
            if self.roles_[col] == "numeric":
                X[:, j], info = parse_numeric(values)
                if report is not None:
                    self._report_numeric(col, info, report)
            else:
                codes = np.full(len(df), np.nan)
                unknown: dict[str, int] = {}
                for i, v in enumerate(values.tolist()):
                    code = self.table_.lookup(col, v) if not (
                        v is None or (isinstance(v, float) and np.isnan(v))) else None
                    if code is not None:
                        codes[i] = code
                    elif not is_missing_token(v):
                        key = str(v).strip()
                        unknown[key] = unknown.get(key, 0) + 1
                X[:, j] = codes
                if unknown and report is not None:
                    report.unknown_values.append({
                        "column": col, "count": int(sum(unknown.values())),
                        "examples": sorted(unknown, key=lambda k: -unknown[k])[:3]})
        return X

    @staticmethod
    def _report_numeric(col: str, info: dict, report: ValidationReport) -> None:
        bad, cens, inf = info["bad"], info["censored"], info["infinite"]
        if info["decimal_comma"]:
            report.notes.append(f"column '{col}': {info['decimal_comma']} value(s) written "
                                "with a decimal comma (e.g. '12,5') were read as 12.5.")
        if bad:
            report.stray_text.append({
                "column": col, "count": len(bad), "rows": [r + 2 for r, _ in bad[:5]],
                "examples": [s for _, s in bad[:3]],
                "hint": f"expected numbers; these cells (CSV lines "
                        f"{[r + 2 for r, _ in bad[:3]]}) were set to missing."})
        if cens:
            report.stray_text.append({
                "column": col, "count": len(cens), "rows": [r + 2 for r, _ in cens[:5]],
                "examples": [s for _, s in cens[:3]],
                "hint": "values below/above a detection limit (like '<0.1') were set to "
                        "missing; enter a number to keep them."})
        if inf:
            report.stray_text.append({
                "column": col, "count": len(inf), "rows": [r + 2 for r, _ in inf[:5]],
                "examples": [s for _, s in inf[:3]],
                "hint": "infinite values were set to missing."})

    def transform(self, X: pd.DataFrame) -> np.ndarray:
        """Encode a table with the fitted roles and tables (columns aligned by name).

        Missing model columns become missing values and extra columns are ignored; both
        are listed in ``transform_report_``.
        """
        check_is_fitted(self, "feature_names_out_")
        df = self._check_frame(X)
        df = df.set_axis([str(c) for c in df.columns], axis=1)
        present = {norm_key(c): c for c in df.columns}
        rename = {}
        missing_cols = []
        for col in self.encoded_columns_:
            if col in df.columns:
                continue
            if norm_key(col) in present:
                rename[present[norm_key(col)]] = col
            else:
                missing_cols.append(col)
        df = df.rename(columns=rename)
        known = set(self.input_columns_)
        extra = [c for c in df.columns if c not in known]
        report = ValidationReport(n_rows=int(df.shape[0]), n_columns=int(df.shape[1]))
        for col in missing_cols:
            df[col] = ""
        if missing_cols:
            report.warnings.append(f"{len(missing_cols)} column(s) of the model are not in "
                                   f"this table and are treated as missing: "
                                   f"{missing_cols[:8]}{'…' if len(missing_cols) > 8 else ''}.")
        if extra:
            report.notes.append(f"{len(extra)} column(s) unknown to the model are ignored: "
                                f"{extra[:8]}{'…' if len(extra) > 8 else ''}.")
        X_all = self._encode(df, self.encoded_columns_, report)
        keep = [self.encoded_columns_.index(f) for f in self.feature_names_out_]
        out = X_all[:, keep]
        report.n_features = out.shape[1]
        report.missing_pct = {f: float(100 * np.isnan(out[:, j]).mean())
                              for j, f in enumerate(self.feature_names_out_)}
        self.transform_report_ = report
        return out

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        check_is_fitted(self, "feature_names_out_")
        return np.asarray(self.feature_names_out_, dtype=object)

    # ------------------------------------------------------------------ labels and ids
    def labels(self, df: pd.DataFrame) -> np.ndarray:
        """The outcome column as an array (``None`` entries for missing outcomes)."""
        if self.label_column is None:
            raise DataError("No outcome column was set (label_column).")
        if self.label_column not in df.columns:
            raise DataError(f"The outcome column {self.label_column!r} is not in the table.")
        lab = df[self.label_column]
        out = lab.astype(str).str.strip().to_numpy(dtype=object)
        out[lab.map(is_missing_token).to_numpy()] = None
        return out

    def ids(self, df: pd.DataFrame) -> np.ndarray:
        """Patient IDs (the id column, else the row number)."""
        if self.id_column is not None and self.id_column in df.columns:
            return df[self.id_column].astype(str).str.strip().to_numpy(dtype=object)
        return np.asarray([str(i) for i in range(len(df))], dtype=object)

    def training_rows(self, df: pd.DataFrame) -> np.ndarray:
        """Rows to train on: enough values, and an outcome when a label column is set."""
        check_is_fitted(self, "keep_patients_")
        keep = self.keep_patients_.copy()
        if self.label_column is not None:
            keep &= ~df[self.label_column].map(is_missing_token).to_numpy()
        return keep

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        """JSON-able state (parameters, roles, tables, feature names)."""
        check_is_fitted(self, "feature_names_out_")
        return {"params": {"id_column": self.id_column, "label_column": self.label_column,
                           "max_patient_missing": self.max_patient_missing,
                           "drop_all_missing": self.drop_all_missing,
                           "drop_constant": self.drop_constant,
                           "merge_duplicates": self.merge_duplicates,
                           "numeric_threshold": self.numeric_threshold,
                           "max_levels": self.max_levels},
                "roles": self.roles_, "table": self.table_.to_dict(),
                "input_columns": self.input_columns_,
                "encoded_columns": self.encoded_columns_,
                "feature_names_out": self.feature_names_out_}

    @classmethod
    def from_dict(cls, state: dict) -> Encoder:
        enc = cls(**state["params"])
        enc.roles_ = {str(k): str(v) for k, v in state["roles"].items()}
        enc.table_ = EncodingTable(state["table"])
        enc.input_columns_ = [str(c) for c in state["input_columns"]]
        enc.encoded_columns_ = [str(c) for c in state["encoded_columns"]]
        enc.feature_names_out_ = [str(c) for c in state["feature_names_out"]]
        if not set(enc.feature_names_out_) <= set(enc.encoded_columns_):
            raise ValueError("feature names are not among the encoded columns")
        enc.n_features_in_ = len(enc.input_columns_)
        enc.keep_patients_ = np.zeros(0, bool)
        return enc
