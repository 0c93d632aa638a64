"""sparge.services.maps: every cohort patient on the map, honest titles, data/model mismatch."""

from __future__ import annotations

import ast
import time

import numpy as np
import pytest
from helpers import ROOT, SAMPLES

from sparge import read_table
from sparge.data.synthetic import make_singheart_like
from sparge.services.maps import (
    MapProjector,
    data_model_mismatch,
    map_csv_frame,
    map_frame,
    map_title,
)
from sparge.services.workflow import cohort_patients, encode_cohort, train


@pytest.fixture(scope="module")
def small():
    cohort = encode_cohort(read_table(SAMPLES / "singheart_small.csv"),
                           id_column="Subject ID", label_column="Outcome")
    return cohort, train(cohort, {"max_iter": 1})


def test_every_cohort_patient_is_on_the_map(small):
    cohort, model = small
    index = cohort_patients(model, cohort)
    assert (~index.in_training).sum() > 0  # the small sample leaves patients out
    proj = MapProjector("pca").fit(model)
    frame = map_frame(model, proj, index, cohort.labels)
    assert len(frame) == len(cohort.ids) and frame["ID"].tolist() == list(cohort.ids)
    out = frame[~frame["in_training"]]
    assert (out["status"] == "not used for training").all()
    assert out["reason"].str.len().gt(0).all()
    assert (frame.loc[frame["in_training"], "reason"] == "").all()
    assert np.isfinite(frame[["x", "y"]].to_numpy()).all()
    # training patients sit where the map put them; others are projected exactly (PCA)
    tix = frame.loc[frame["in_training"], "training_index"].to_numpy()
    assert np.allclose(frame.loc[frame["in_training"], ["x", "y"]], proj.coords_[tix])
    rows = np.flatnonzero(~index.in_training)
    expect = proj.reducer_.transform(model.transform(cohort.X[rows]))
    assert np.allclose(out[["x", "y"]].to_numpy(), expect)
    # outcomes of left-out patients come from the data when known
    known = [r for r in rows if cohort.labels[r] is not None]
    assert (frame.loc[known, "outcome"].to_numpy() == cohort.labels[known].astype(str)).all()
    assert list(map_csv_frame(frame).columns) == ["ID", "x", "y", "status", "reason",
                                                  "outcome"]


def test_a_precomputed_umap_map_places_other_patients_from_their_lookalikes(small):
    _, model = small
    coords = np.random.default_rng(0).normal(size=(len(model.embedding_), 2)) * 10
    proj = MapProjector.from_coords("umap", coords)
    # a training patient's own embedding lands at its similarity-weighted neighbourhood
    Y = model.embedding_[:5]
    placed = proj.place(model, Y=Y)
    assert placed.shape == (5, 2)
    lo, hi = coords.min(axis=0), coords.max(axis=0)
    assert ((placed >= lo) & (placed <= hi)).all()
    d = np.linalg.norm(model.embedding_[:, None] - Y[None], axis=2)
    nearest = np.argsort(d, axis=0)[:10].T
    for i in range(5):  # inside the bounding box of its 10 nearest training patients
        box = coords[nearest[i]]
        assert (placed[i] >= box.min(axis=0) - 1e-9).all()
        assert (placed[i] <= box.max(axis=0) + 1e-9).all()
    t = time.perf_counter()
    proj.place(model, Y=np.repeat(model.embedding_, 20, axis=0))
    assert time.perf_counter() - t < 2.0  # no UMAP refit for a precomputed map


def test_titles_say_what_is_drawn(small):
    cohort, model = small
    assert map_title(MapProjector("pca").fit(model), model) == \
        "PCA of the 16-D SparGE embedding"
    assert map_title(MapProjector.from_coords("umap", np.zeros((43, 2))), model) == \
        "UMAP of the 16-D SparGE embedding"
    assert map_title(MapProjector("raw").fit(model), model).startswith(
        "PCA of the standardised raw data")
    flat = train(cohort, {"n_components": 2, "max_iter": 1})
    assert not MapProjector.umap_possible(flat)
    proj = MapProjector("umap").fit(flat)  # falls back: a 2-D embedding is not UMAPped
    assert proj.drawn_ == "pca" and "UMAP" not in map_title(proj, flat)
    assert map_title(proj, flat).startswith("The 2-D SparGE embedding")


def test_raw_map_places_left_out_patients(small):
    cohort, model = small
    index = cohort_patients(model, cohort)
    frame = map_frame(model, MapProjector("raw").fit(model), index)
    assert np.isfinite(frame[["x", "y"]].to_numpy()).all()


def test_data_model_mismatch_is_named(small):
    cohort, model = small
    assert data_model_mismatch(model, cohort.features, cohort.ids) == ""
    assert "different tables" in data_model_mismatch(model, cohort.features[:-1], cohort.ids)
    other = encode_cohort(make_singheart_like(50, random_state=7)[0].assign(
        **{"Subject ID": [f"Q{i}" for i in range(50)]}), id_column="Subject ID",
        label_column="Outcome")
    msg = data_model_mismatch(model, cohort.features, other.ids)
    assert "none of the model's 43 training patients" in msg
    half = cohort.ids[:30]
    assert "only" in data_model_mismatch(model, cohort.features, half)


def test_the_pages_and_helpers_use_only_the_public_api():
    """Issue 9.12: no private model attributes in the pages, maps or look-alike helpers."""
    private = {"_prepare", "_neighbors_of_training", "_features", "_dictionary_r", "_embed",
               "_search", "_complete", "_codes"}
    for rel in ("pages/explore.py", "pages/new_patient.py", "sparge/services/maps.py",
                "sparge/app/lookalikes.py", "sparge/services/display.py", "sparge/app/plots.py"):
        tree = ast.parse((ROOT / rel).read_text())
        used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not used & private, (rel, used & private)
