import io
import json
import os
import pickle
import struct
import zipfile

import numpy as np
import pytest
from helpers import planted_classes

from sparge import ModelFileError, SparGE, load_model, model_to_bytes, save_model


@pytest.fixture(scope="module")
def model_and_data():
    X, y = planted_classes(n=120, missing=0.1)
    yl = np.array(["low", "mid", "high"])[y]
    return SparGE(max_iter=2, random_state=0).fit(X, yl), X


def test_round_trip_identical_transforms(tmp_path, model_and_data):
    model, X = model_and_data
    path = tmp_path / "m.sparge"
    save_model(path, model)
    loaded = load_model(path)[0]
    np.testing.assert_array_equal(loaded.transform(X[:15]), model.transform(X[:15]))
    d1, i1 = model.kneighbors(X[:5])
    d2, i2 = loaded.kneighbors(X[:5])
    np.testing.assert_array_equal(i1, i2)
    assert list(loaded.classes_) == list(model.classes_)
    assert loaded.y_.tolist() == model.y_.tolist()
    assert loaded.get_params()["n_components"] == model.get_params()["n_components"]


@pytest.mark.parametrize("with_y", [False, True])
def test_a_model_learned_without_the_outcome_round_trips(tmp_path, with_y):
    """A library review: a model fitted with ``supervised=False`` (with or without y)
    saved, then failed to load (KeyError 'classes_'); the CLI's ``similar`` said
    "internal error"."""
    X, y = planted_classes(n=80, missing=0.1)
    model = SparGE(supervised=False, max_iter=1, random_state=0).fit(
        X, y if with_y else None)
    save_model(tmp_path / "u.sparge", model)
    loaded = load_model(tmp_path / "u.sparge")[0]
    np.testing.assert_array_equal(loaded.transform(X[:10]), model.transform(X[:10]))
    np.testing.assert_array_equal(loaded.kneighbors(X[:5])[1], model.kneighbors(X[:5])[1])


def test_posterior_completion_ridge_round_trips(tmp_path):
    X, y = planted_classes(n=120, missing=0.2)
    model = SparGE(max_iter=1, completion_ridge="posterior", random_state=0).fit(X, y)
    r = model.completion_components_.shape[0]
    assert model.completion_ridge_.shape == (r,) and np.all(model.completion_ridge_ > 0)
    assert np.ptp(model.completion_ridge_) > 0  # one weight per component
    save_model(tmp_path / "p.sparge", model)
    loaded = load_model(tmp_path / "p.sparge")[0]
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
        load_model(path)[0]
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


def _forest_meta(**changes):
    def edit(arrays):
        meta = json.loads(arrays["__meta__"].tobytes())
        meta["forest"].update(changes)
        for k, v in changes.items():
            if v is None:
                meta["forest"].pop(k)
        arrays["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    return edit


def test_in_bag_forest_round_trips_and_older_files_count_every_tree(model_and_data):
    model, X = model_and_data
    assert model.forest_proximity_ == "in-bag"
    blob = model_to_bytes(model)
    loaded = load_model(blob)[0]
    np.testing.assert_array_equal(loaded.forest_counted_, model.forest_counted_)
    np.testing.assert_array_equal(loaded.kneighbors(X[:5])[1], model.kneighbors(X[:5])[1])

    def older(arrays):  # a file from before in-bag proximity: no counts, no field
        arrays.pop("forest_counted_")
        _forest_meta(proximity=None)(arrays)
    old = load_model(_rewrite(blob, older))[0]
    assert old.forest_proximity_ == "shared-leaf" and old.forest_counted_ is None
    with pytest.raises(ModelFileError, match="in-bag"):  # the counts are missing
        load_model(_rewrite(blob, lambda a: a.pop("forest_counted_")))
    with pytest.raises(ModelFileError, match="forest.proximity"):
        load_model(_rewrite(blob, _forest_meta(proximity="oob")))
    with pytest.raises(ModelFileError, match="forest_counted_"):
        load_model(_rewrite(blob, lambda a: a.__setitem__(
            "forest_counted_", a["forest_counted_"][:-1])))


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


# ---------------------------------------------------------------- issue 10: points 5, 6, 9, 10
@pytest.mark.parametrize("key, value, field", [
    ("objective", "abc", "objective"),
    ("completion_lambda", "abc", "completion_lambda"),
    ("best_iteration", "3", "best_iteration"),
    ("fit_time", "abc", "fit_time"),
    ("history", [{"J": "abc"}], "history[0].J"),
    ("history", ["x"], "history[0]"),
    ("history", "abc", "history"),
    ("params", {"r2": "abc"}, "params.r2"),
    ("params", {"k1": 0}, "params.k1"),
    ("params", {"n_components": 2.5}, "params.n_components"),
    ("n_features_in", 10**12, "n_features_in"),
    ("shapes", {"codes_": [10**12, 3]}, "shapes.codes_"),
    ("feature_names", ["a", "b"], "feature_names"),
    ("train_ids", ["a"], "train_ids"),
    ("encoder", {"params": {}, "roles": ["id"], "table": {}}, "encoder.roles"),
    ("labels", "pickle", "labels"),
])
def test_malformed_metadata_names_the_field(model_and_data, key, value, field):
    model, _ = model_and_data
    if key == "params":
        value = {**model.get_params(), **value}
        value.pop("callback")
    blob = _rewrite(model_to_bytes(model), _edit_meta(key, value))
    with pytest.raises(ModelFileError) as info:
        load_model(blob)
    assert f"'{field}'" in str(info.value)


def test_member_that_is_not_an_array_is_refused(model_and_data):
    model, _ = model_and_data
    blob = model_to_bytes(model)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(blob)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            raw = b"not an npy array" if info.filename == "scale_.npy" else src.read(info)
            dst.writestr(info.filename, raw)
    with pytest.raises(ModelFileError, match="scale_"):
        load_model(out.getvalue())


def test_loaded_model_is_safe_to_display(model_and_data):
    model, _ = model_and_data
    loaded, _ = load_model(model_to_bytes(model))
    assert isinstance(loaded.fit_time_, float) and isinstance(loaded.objective_, float)
    assert isinstance(loaded.best_iteration_, int)
    assert isinstance(loaded.completion_lambda_, float)
    assert all(isinstance(v, (int, float)) for h in loaded.history_ for v in h.values())
    blob = _rewrite(model_to_bytes(model), _edit_meta("fit_time", None))
    assert load_model(blob)[0].fit_time_ is None


def _zip_with_member(blob: bytes, name: str, header_shape, n_bytes: int) -> bytes:
    """``blob`` plus (or with a replaced) member deflated on the fly: no big buffer."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(blob)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != name:
                dst.writestr(info.filename, src.read(info))
        head = io.BytesIO()
        np.lib.format.write_array_header_1_0(head, {"descr": "<f8", "fortran_order": False,
                                                    "shape": header_shape})
        with dst.open(name, "w", force_zip64=True) as fh:
            fh.write(head.getvalue())
            chunk = bytes(1 << 20)
            for _ in range(n_bytes // len(chunk)):
                fh.write(chunk)
            fh.write(bytes(n_bytes % len(chunk)))
    return out.getvalue()


@pytest.mark.parametrize("name, extra", [("bomb.npy", True), ("codes_.npy", False)])
def test_zip_bomb_is_refused_before_inflating(model_and_data, name, extra):
    """A member inflating to 200 MB (an extra name, or a real name with a shape the metadata
    does not imply) is refused from the zip directory and the headers alone."""
    import tracemalloc

    model, _ = model_and_data
    blob = model_to_bytes(model)
    if extra:  # keep the member count plausible: drop an optional array
        blob = _rewrite(blob, lambda a: a.pop("completion_ridge_"))
    rows = 200 * 1024**2 // 8 // 10
    bomb = _zip_with_member(blob, name, (rows, 10), rows * 10 * 8)
    assert len(bomb) < 2 * 1024**2
    tracemalloc.start()
    try:
        with pytest.raises(ModelFileError, match="bomb|unexpected member|shape"):
            load_model(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(bomb) + 10 * 1024**2


def test_member_lying_about_its_size_is_refused(model_and_data):
    model, _ = model_and_data
    for claimed in (900 * 1024**2, 1000):  # larger and smaller than its true size
        data = bytearray(model_to_bytes(model))
        name = b"embedding_.npy"
        pos = data.rfind(b"PK\x01\x02", 0, data.rfind(name))  # its central directory entry
        assert data[pos + 46:pos + 46 + len(name)] == name
        data[pos + 24:pos + 28] = struct.pack("<I", claimed)  # uncompressed size
        with pytest.raises(ModelFileError, match="embedding_"):
            load_model(bytes(data))


def test_size_cap_applies_to_bytes_and_uploads(model_and_data, monkeypatch, tmp_path):
    import sparge.services.persistence as persistence

    model, _ = model_and_data
    blob = model_to_bytes(model)
    (tmp_path / "m.sparge").write_bytes(blob)
    monkeypatch.setattr(persistence, "_MAX_BYTES", len(blob) - 1)

    class Upload(io.BytesIO):  # like Streamlit's UploadedFile
        size = len(blob)

    class Stream(io.RawIOBase):  # no size: the cap applies while reading
        def __init__(self):
            self.left = len(blob)

        def readable(self):
            return True

        def read(self, n=-1):
            n = self.left if n < 0 else min(n, self.left)
            self.left -= n
            return bytes(n)

    for source in (blob, bytearray(blob), io.BytesIO(blob), Upload(blob), Stream(),
                   tmp_path / "m.sparge"):
        with pytest.raises(ModelFileError, match="larger than"):
            load_model(source)


def test_failed_save_keeps_the_previous_file(model_and_data, monkeypatch, tmp_path):
    model, X = model_and_data
    path = tmp_path / "m.sparge"
    save_model(path, model)
    before = path.read_bytes()

    def broken(fh, **arrays):
        fh.write(b"PK\x03\x04 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", broken)
    with pytest.raises(OSError):
        save_model(path, model)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.sparge"]  # the temporary file is removed


def _tiled(model, times: int):
    """A bigger model (the same patients repeated) whose save takes a noticeable time."""
    import copy

    big = copy.copy(model)
    for name in ("codes_", "completed_", "embedding_", "training_data_"):
        setattr(big, name, np.tile(getattr(model, name), (times, 1)))
    big.y_ = np.tile(model.y_, times)
    if getattr(model, "forest_leaves_", None) is not None:  # the forest part, per patient
        big.forest_leaves_ = np.tile(model.forest_leaves_, (times, 1))
    if getattr(model, "forest_counted_", None) is not None:
        big.forest_counted_ = np.tile(model.forest_counted_, (times, 1))
    big.training_data_ = big.training_data_ + np.random.default_rng(0).standard_normal(
        big.training_data_.shape).astype(np.float32)  # incompressible: a slow write
    return big


def _save_forever(path, model):  # runs in the forked child
    while True:
        save_model(path, model)


def test_kill_during_save_never_leaves_a_broken_file(model_and_data, tmp_path):
    """SIGKILL a process that saves over a good model again and again, at random moments:
    the file on disk always loads (the issue saw 10 of 10 truncated files)."""
    import multiprocessing
    import random
    import signal
    import time

    model, X = model_and_data
    big = _tiled(model, 15)
    path = tmp_path / "m.sparge"
    t0 = time.perf_counter()
    save_model(path, big)
    save_seconds = time.perf_counter() - t0
    # as loaded (``big``'s derived state, e.g. its fill bounds, is its model's, not that of
    # the noisy patients it was given)
    expected = load_model(path)[0].transform(X[:3])
    ctx = multiprocessing.get_context("fork")
    rng = random.Random(0)
    for _ in range(10):
        child = ctx.Process(target=_save_forever, args=(str(path), big), daemon=True)
        child.start()
        time.sleep(rng.uniform(0.2, 1.5) * save_seconds)
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        loaded, _ = load_model(path)  # never damaged
        np.testing.assert_allclose(loaded.transform(X[:3]), expected)
    leftovers = [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    assert len(leftovers) >= 1  # the kills did land in the middle of writes
    # the partial files of long-dead saves are removed by the next save
    for name in leftovers:
        os.utime(tmp_path / name, (time.time() - 7200, time.time() - 7200))
    save_model(path, model)
    assert [p for p in os.listdir(tmp_path) if p.endswith(".tmp")] == []


def test_an_encoder_with_an_age_round_trips_and_a_wrong_encoder_is_refused(tmp_path):
    """An encoder's ``ages`` (a dict among its parameters) loads again; a library review
    saved a 30-feature model with a 467-feature encoder, and loaded a hand-edited file
    whose encoder lacked a role (a KeyError at the first transform)."""
    import pandas as pd

    from sparge import Encoder

    rng = np.random.default_rng(0)
    n = 80
    born = pd.Timestamp("1950-01-01") + pd.to_timedelta(rng.integers(0, 15000, n), unit="D")
    df = pd.DataFrame({"DOB": born.strftime("%d/%m/%Y"), "Na": rng.normal(140, 3, n),
                       "Outcome": rng.integers(0, 2, n)})
    enc = Encoder(label_column="Outcome", ages={"Age": {"born": "DOB", "at": "2020-01-01"}})
    X = enc.fit_transform(df)
    model = SparGE(max_iter=1, random_state=0).fit(X, enc.labels(df))
    save_model(tmp_path / "a.sparge", model, encoder=enc)
    loaded, back = load_model(tmp_path / "a.sparge")
    np.testing.assert_array_equal(back.transform(df), X)
    other = Encoder(label_column="Outcome").fit(df.drop(columns=["DOB"]))
    with pytest.raises(ValueError, match="gives 1 features and the model takes 2"):
        save_model(tmp_path / "b.sparge", model, encoder=other)
    edited = enc.to_dict()
    edited["roles"] = {k: v for k, v in edited["roles"].items() if k != "Na"}
    with pytest.raises(ModelFileError, match="'encoder.roles' lacks the column 'Na'"):
        load_model(_rewrite(model_to_bytes(model, enc), _edit_meta("encoder", edited)))
