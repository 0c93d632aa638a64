import io
import json
import os
import pickle
import zipfile

import numpy as np
import pytest
from conftest import planted_classes

from sparge import ModelFileError, SparGE, load_model, model_to_bytes


@pytest.fixture(scope="module")
def model_and_data():
    X, y = planted_classes(n=120, missing=0.1)
    yl = np.array(["low", "mid", "high"])[y]
    return SparGE(max_iter=2, random_state=0).fit(X, yl), X


def test_round_trip_identical_transforms(tmp_path, model_and_data):
    model, X = model_and_data
    path = tmp_path / "m.sparge"
    model.save(path)
    loaded = SparGE.load(path)
    np.testing.assert_array_equal(loaded.transform(X[:15]), model.transform(X[:15]))
    d1, i1 = model.kneighbors(X[:5])
    d2, i2 = loaded.kneighbors(X[:5])
    np.testing.assert_array_equal(i1, i2)
    assert list(loaded.classes_) == list(model.classes_)
    assert loaded.y_.tolist() == model.y_.tolist()
    assert loaded.get_params()["n_components"] == model.get_params()["n_components"]


def test_posterior_completion_ridge_round_trips(tmp_path):
    X, y = planted_classes(n=120, missing=0.2)
    model = SparGE(max_iter=1, completion_ridge="posterior", random_state=0).fit(X, y)
    r = model.completion_components_.shape[0]
    assert model.completion_ridge_.shape == (r,) and np.all(model.completion_ridge_ > 0)
    assert np.ptp(model.completion_ridge_) > 0  # one weight per component
    model.save(tmp_path / "p.sparge")
    loaded = SparGE.load(tmp_path / "p.sparge")
    np.testing.assert_array_equal(loaded.completion_ridge_, model.completion_ridge_)
    np.testing.assert_array_equal(loaded.transform(X[:10]), model.transform(X[:10]))
    with pytest.raises(ValueError, match="completion_ridge"):
        SparGE(completion_ridge="big").fit(X, y)


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch /tmp/sparge_pwned",))


def test_pickle_renamed_is_refused_not_executed(tmp_path):
    if os.path.exists("/tmp/sparge_pwned"):
        os.remove("/tmp/sparge_pwned")
    path = tmp_path / "evil.sparge"
    path.write_bytes(pickle.dumps(_Evil()))
    with pytest.raises(ModelFileError, match="not a SparGE model"):
        SparGE.load(path)
    assert not os.path.exists("/tmp/sparge_pwned")


def test_npz_with_object_array_is_refused(tmp_path):
    buf = io.BytesIO()
    np.savez(buf, __meta__=np.array([_Evil()], dtype=object))
    with pytest.raises(ModelFileError):
        load_model(buf.getvalue())
    assert not os.path.exists("/tmp/sparge_pwned")


def _rewrite(blob: bytes, edit) -> bytes:
    with np.load(io.BytesIO(blob), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    edit(arrays)
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


def _edit_meta(key, value):
    def edit(arrays):
        meta = json.loads(arrays["__meta__"].tobytes())
        meta[key] = value
        arrays["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    return edit


@pytest.mark.parametrize("edit, message", [
    (_edit_meta("version", 99), "version 99"),
    (_edit_meta("format", "other"), "unknown format"),
    (lambda a: a.__setitem__("projection_", a["projection_"][:-1]), "projection_"),
    (lambda a: a.__setitem__("mean_", a["mean_"].astype(np.int64)), "floating point"),
    (lambda a: a.pop("codes_"), "codes_"),
    (lambda a: a.__setitem__("__meta__", np.frombuffer(b"{not json", dtype=np.uint8)), "JSON"),
])
def test_corrupt_model_files_are_refused(model_and_data, edit, message):
    model, _ = model_and_data
    blob = _rewrite(model_to_bytes(model), edit)
    with pytest.raises(ModelFileError, match=message):
        load_model(blob)


def test_truncated_and_random_bytes_are_refused(model_and_data):
    model, _ = model_and_data
    blob = model_to_bytes(model)
    with pytest.raises(ModelFileError):
        load_model(blob[: len(blob) // 2])
    with pytest.raises(ModelFileError):
        load_model(b"PK\x03\x04" + os.urandom(200))
    with pytest.raises(ModelFileError):
        load_model(b"")


def test_file_is_a_plain_zip_of_npy_arrays(model_and_data):
    model, _ = model_and_data
    with zipfile.ZipFile(io.BytesIO(model_to_bytes(model))) as zf:
        assert all(name.endswith(".npy") for name in zf.namelist())
