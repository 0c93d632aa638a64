"""Save and load models without pickle.

A ``.sparge`` file is a zip archive written by :func:`numpy.savez_compressed`: numeric
arrays only, plus one ``uint8`` array holding UTF-8 JSON metadata (format name and version,
parameters, feature names, classes, history, the encoder's tables). Loading uses
``allow_pickle=False`` and checks format, version, names, shapes and dtypes; anything else
is refused with :class:`~sparge.errors.ModelFileError`. A pickle renamed to ``.sparge`` is
never executed.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from typing import Any, BinaryIO

import numpy as np

from .errors import ModelFileError

FORMAT = "sparge-model"
VERSION = 1
_FLOAT_ARRAYS = ("mean_", "scale_", "completion_components_", "completion_singular_values_",
                 "filled_singular_values_", "_dictionary_r", "projection_", "codes_",
                 "completed_", "embedding_", "training_data_", "component_weights_")
_INT_ARRAYS = ("atom_class_",)
_MAX_BYTES = 2 * 1024**3


def _label_array(values) -> tuple[np.ndarray, str]:
    arr = np.asarray(values)
    if arr.dtype.kind in "iub":
        return arr.astype(np.int64), "int"
    if arr.dtype.kind == "f":
        return arr.astype(np.float64), "float"
    return arr.astype(str), "str"


def _restore_labels(arr: np.ndarray, kind: str) -> np.ndarray:
    expected = {"int": "i", "float": "f", "str": "U"}.get(kind)
    if expected is None or arr.dtype.kind != expected:
        raise ModelFileError("The model file's outcome labels have an unexpected type.")
    return arr


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def save_model(path_or_file: str | os.PathLike | BinaryIO, model, encoder=None) -> None:
    """Write a fitted :class:`~sparge.SparGE` (and optionally its Encoder) to a file."""
    from .model import SparGE

    if not isinstance(model, SparGE) or not hasattr(model, "projection_"):
        raise ValueError("save_model needs a fitted SparGE model")
    arrays: dict[str, np.ndarray] = {}
    for name in _FLOAT_ARRAYS:
        arrays[name] = np.asarray(getattr(model, name))
    for name in _INT_ARRAYS:
        arrays[name] = np.asarray(getattr(model, name), dtype=np.int64)
    arrays["completion_ridge_"] = np.asarray(model.completion_ridge_, dtype=float)
    meta: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "params": {k: v for k, v in model.get_params().items() if k != "callback"},
        "n_features_in": int(model.n_features_in_),
        "feature_names": model.feature_names() if hasattr(model, "feature_names_in_")
        else None,
        "completion_lambda": model.completion_lambda_,
        "best_iteration": model.best_iteration_,
        "objective": model.objective_,
        "fit_time": getattr(model, "fit_time_", None),
        "history": model.history_,
        "labels": None,
        "classes": None,
        "encoder": encoder.to_dict() if encoder is not None else None,
        "train_ids": [str(i) for i in model.train_ids_] if hasattr(model, "train_ids_")
        else None,
    }
    if model.y_ is not None:
        arrays["y_"], meta["labels"] = _label_array(model.y_)
    if hasattr(model, "classes_"):
        arrays["classes_"], meta["classes"] = _label_array(model.classes_)
    blob = json.dumps(_json_safe(meta)).encode("utf-8")
    arrays["__meta__"] = np.frombuffer(blob, dtype=np.uint8)
    if isinstance(path_or_file, (str, os.PathLike)):
        with open(path_or_file, "wb") as fh:
            np.savez_compressed(fh, **arrays)
    else:
        np.savez_compressed(path_or_file, **arrays)


def model_to_bytes(model, encoder=None) -> bytes:
    """The model file as bytes (for a download button)."""
    buf = io.BytesIO()
    save_model(buf, model, encoder)
    return buf.getvalue()


def _read_bytes(source) -> bytes:
    if isinstance(source, (bytes, bytearray)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            size = os.path.getsize(source)
        except OSError as exc:
            raise ModelFileError(f"Cannot open the model file {source!s}: {exc.strerror}.") \
                from exc
        if size > _MAX_BYTES:
            raise ModelFileError("The model file is larger than 2 GB; refused.")
        with open(source, "rb") as fh:
            return fh.read()
    if hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            raise ModelFileError("A model file is binary; got text.")
        return data
    raise ModelFileError(f"Cannot read a model from a {type(source).__name__}.")


def load_model(source) -> tuple[Any, Any]:
    """Load ``(model, encoder)`` from a path, bytes or binary file-like.

    ``encoder`` is ``None`` when the file holds none. Raises ``ModelFileError`` for any file
    that is not a valid SparGE model of a supported version.
    """
    from .encoding import Encoder
    from .model import SparGE

    data = _read_bytes(source)
    if not data.startswith(b"PK\x03\x04"):
        raise ModelFileError("This is not a SparGE model file (it is not a .sparge archive). "
                             "Model files are never unpickled; re-train and save the model.")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except (ValueError, OSError, zipfile.BadZipFile, EOFError, KeyError) as exc:
        raise ModelFileError(f"The model file is damaged or not a SparGE model ({exc}).") \
            from exc
    if "__meta__" not in arrays or arrays["__meta__"].dtype != np.uint8:
        raise ModelFileError("The model file has no SparGE metadata.")
    try:
        meta = json.loads(arrays.pop("__meta__").tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFileError("The model file's metadata is not valid JSON.") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError("The file is not a SparGE model (unknown format).")
    if meta.get("version") != VERSION:
        raise ModelFileError(f"Model format version {meta.get('version')} is not supported "
                             f"by this SparGE (expects {VERSION}); re-train the model.")
    for name in _FLOAT_ARRAYS:
        if name not in arrays:
            raise ModelFileError(f"The model file lacks the array {name!r}.")
        if arrays[name].dtype.kind != "f":
            raise ModelFileError(f"Array {name!r} has dtype {arrays[name].dtype}; expected "
                                 "floating point.")
    for name in _INT_ARRAYS:
        if name not in arrays or arrays[name].dtype.kind not in "iu":
            raise ModelFileError(f"Array {name!r} is missing or not integer.")
    params = meta.get("params")
    if not isinstance(params, dict):
        raise ModelFileError("The model file's parameters are missing.")
    try:
        model = SparGE(**params)
    except TypeError as exc:
        raise ModelFileError(f"The model file has unknown parameters ({exc}).") from exc
    m = meta.get("n_features_in")
    a = arrays
    r = a["completion_components_"].shape[0] if a["completion_components_"].ndim == 2 else -1
    k = a["_dictionary_r"].shape[1] if a["_dictionary_r"].ndim == 2 else -1
    n = a["embedding_"].shape[0] if a["embedding_"].ndim == 2 else -1
    d = k if params.get("representation") == "codes" else r + k
    checks = [
        (a["mean_"].shape == (m,), "mean_"), (a["scale_"].shape == (m,), "scale_"),
        (a["completion_components_"].shape == (r, m), "completion_components_"),
        (a["_dictionary_r"].shape == (r, k), "dictionary"),
        (a["projection_"].ndim == 2 and a["projection_"].shape[0] == d, "projection_"),
        (a["codes_"].shape == (n, k), "codes_"),
        (a["completed_"].shape == (n, r), "completed_"),
        (a["training_data_"].shape == (n, m), "training_data_"),
        (a["atom_class_"].shape == (k,), "atom_class_"),
        (n >= 2, "embedding_"),
    ]
    for ok, name in checks:
        if not ok:
            raise ModelFileError(f"The model file is inconsistent: array {name!r} has the "
                                 "wrong shape.")
    if a["embedding_"].shape[1] != a["projection_"].shape[1] or \
            a["component_weights_"].shape != (a["projection_"].shape[1],):
        raise ModelFileError("The model file is inconsistent: embedding and projection differ.")
    for name in _FLOAT_ARRAYS:
        if name != "training_data_" and not np.all(np.isfinite(a[name])):
            raise ModelFileError(f"Array {name!r} holds non-finite values.")
    for name in _FLOAT_ARRAYS + _INT_ARRAYS:
        setattr(model, name, a[name])
    # Files written before the per-component completion ridge hold the shared number.
    ridge = a.get("completion_ridge_")
    if ridge is None:
        shared = params.get("completion_ridge", 1.0)
        ridge = np.full(r, float(shared) if isinstance(shared, (int, float)) else 1.0)
    if ridge.dtype.kind != "f" or ridge.shape != (r,) or not np.all(np.isfinite(ridge)) \
            or np.any(ridge < 0):
        raise ModelFileError("The model file's completion ridge must hold one finite, "
                             f"non-negative number per component ({r}).")
    model.completion_ridge_ = ridge
    model.n_features_in_ = int(m)
    if meta.get("feature_names") is not None:
        names = meta["feature_names"]
        if not isinstance(names, list) or len(names) != m:
            raise ModelFileError("The model file's feature names do not match its arrays.")
        model.feature_names_in_ = np.asarray(names, dtype=object)
    model.y_ = None
    if meta.get("labels") is not None:
        model.y_ = _restore_labels(a.get("y_", np.zeros(0)), meta["labels"])
        if model.y_.shape != (n,):
            raise ModelFileError("The model file's outcomes do not match its patients.")
    if meta.get("classes") is not None:
        model.classes_ = _restore_labels(a.get("classes_", np.zeros(0)), meta["classes"])
    model.completion_lambda_ = float(meta.get("completion_lambda") or 0.0)
    model.best_iteration_ = int(meta.get("best_iteration") or 0)
    model.objective_ = float(meta["objective"]) if meta.get("objective") is not None else np.nan
    model.fit_time_ = meta.get("fit_time")
    model.history_ = [{k: (np.nan if v is None else v) for k, v in h.items()}
                      for h in meta.get("history") or []]
    if meta.get("train_ids") is not None:
        if not isinstance(meta["train_ids"], list) or len(meta["train_ids"]) != n:
            raise ModelFileError("The model file's patient IDs do not match its patients.")
        model.train_ids_ = np.asarray([str(i) for i in meta["train_ids"]], dtype=object)
    model._finish_fit()
    encoder = None
    if meta.get("encoder") is not None:
        try:
            encoder = Encoder.from_dict(meta["encoder"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError(f"The model file's encoder is invalid ({exc}).") from exc
    return model, encoder
