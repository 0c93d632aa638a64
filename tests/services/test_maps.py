"""sparge.services.maps: every cohort patient on the map, honest titles, data/model mismatch."""

from __future__ import annotations

import ast

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT, SAMPLES

from sparge import read_table
from sparge.data.encoder import EncodingTable
from sparge.data.synthetic import make_singheart_like
from sparge.services.maps import (
    RECOLUMNED,
    MapProjector,
    data_model_mismatch,
    encoding_mismatch,
    map_csv_frame,
    map_frame,
    map_hint,
    map_title,
)
from sparge.services.workflow import cohort_patients, encode_again, encode_cohort, train


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


def test_a_precomputed_umap_map_places_other_patients_from_their_lookalikes(small,
                                                                            monkeypatch):
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
    def refit(*args, **kwargs):
        raise AssertionError("a precomputed map was fitted again")

    monkeypatch.setattr(MapProjector, "fit", refit)  # no UMAP refit for a precomputed map
    assert proj.place(model, Y=np.repeat(model.embedding_, 20, axis=0)).shape == (
        20 * len(model.embedding_), 2)
    assert proj.reducer_ is None


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


def test_a_pca_map_says_why_it_is_not_umap(small):
    """A trained model opens in PCA and the bundled one in UMAP: the PCA map says why."""
    cohort, model = small
    assert "UMAP" in map_hint(MapProjector("pca").fit(model), model)
    assert map_hint(MapProjector.from_coords("umap", np.zeros((43, 2))), model) == ""
    assert map_hint(MapProjector("raw").fit(model), model) == ""
    flat = train(cohort, {"n_components": 2, "max_iter": 1})
    assert map_hint(MapProjector("pca").fit(flat), flat) == ""  # no UMAP to offer


def test_raw_map_places_left_out_patients(small):
    cohort, model = small
    index = cohort_patients(model, cohort)
    frame = map_frame(model, MapProjector("raw").fit(model), index)
    assert np.isfinite(frame[["x", "y"]].to_numpy()).all()


def test_data_model_mismatch_is_named(small):
    cohort, model = small
    assert data_model_mismatch(model, cohort.features, cohort.ids) == ""
    # the same patients with a column left out since training: said so (walk-through 28
    # read "not trained on this data" for the file it had trained on)
    fewer = data_model_mismatch(model, cohort.features[:-1], cohort.ids)
    assert fewer.startswith(RECOLUMNED) and f"'{cohort.features[-1]}' is not in the data" \
        in fewer
    other_ids = [f"Z{i}" for i in range(len(cohort.ids))]
    assert "different tables" in data_model_mismatch(model, cohort.features[:-1], other_ids)
    other = encode_cohort(make_singheart_like(50, random_state=7)[0].assign(
        **{"Subject ID": [f"Q{i}" for i in range(50)]}), id_column="Subject ID",
        label_column="Outcome")
    msg = data_model_mismatch(model, cohort.features, other.ids)
    assert "none of the model's 43 training patients" in msg
    half = cohort.ids[:30]
    assert "only" in data_model_mismatch(model, cohort.features, half)


def test_the_same_patients_encoded_another_way_are_named(small):
    """Walk-through 25: the file uploaded again after training, its merges not made
    again, was taken for the model's own data."""
    cohort, model = small
    assert encoding_mismatch(model, cohort.X, cohort.ids) == ""
    table = cohort.encoder.table_.to_frame()
    smoking = table["column"] == "Smoking"
    table.loc[smoking, "code"] = table.loc[smoking, "code"].map({1: 2, 2: 1, 3: 3})
    swapped = encode_again(cohort, encoding_table=EncodingTable.from_frame(table))
    msg = data_model_mismatch(model, swapped.features, swapped.ids, swapped.X)
    j = cohort.features.index("Smoking")
    n = int(np.isin(cohort.X[cohort.train_rows, j], [1, 2]).sum())  # the codes swapped
    assert f"'Smoking' differs for {n:,} of its {len(model.train_ids_):,} training patients" \
        in msg and "Data page" in msg
    # the data's own other patients, or the same values in another row order: no message
    shuffled = np.random.default_rng(0).permutation(len(cohort.ids))
    assert data_model_mismatch(model, cohort.features, cohort.ids[shuffled],
                               cohort.X[shuffled]) == ""


def test_the_pages_and_helpers_use_only_the_public_api():
    """Issue 9.12: no private model attributes in the pages, maps or look-alike helpers."""
    private = {"_prepare", "_neighbors_of_training", "_features", "_dictionary_r", "_embed",
               "_search", "_complete", "_codes"}
    for rel in ("pages/explore.py", "pages/new_patient.py", "sparge/services/maps.py",
                "sparge/app/lookalikes.py", "sparge/services/display.py", "sparge/app/plots.py"):
        tree = ast.parse((ROOT / rel).read_text())
        used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not used & private, (rel, used & private)


# ---------------------------------------------------------------------------- issue 14.4
def test_dense_maps_shrink_and_fade_their_points_with_the_number_of_patients():
    from sparge.services.maps import DENSE_MAP, is_dense, point_style

    assert not is_dense(683) and not is_dense(DENSE_MAP) and is_dense(DENSE_MAP + 1)
    assert point_style(683) == point_style(DENSE_MAP) == {"size": 6.0, "opacity": 0.8}
    styles = [point_style(n) for n in (50_000, 100_000, 300_000, 1_000_000, 10_000_000)]
    sizes = [s["size"] for s in styles]
    alphas = [s["opacity"] for s in styles]
    assert sizes == sorted(sizes, reverse=True) and alphas == sorted(alphas, reverse=True)
    assert 2.0 <= sizes[1] < 6.0 and 0.1 <= alphas[1] < 0.8  # 100,000 patients
    assert styles[-1] == {"size": 2.0, "opacity": 0.1}  # floors: a point stays visible


def test_density_grid_counts_every_patient_in_its_cell():
    from sparge.services.maps import density_grid

    rng = np.random.default_rng(0)
    x, y = rng.normal(size=50_000), rng.normal(size=50_000) * 3 + 10
    x[:7] = np.nan  # not placed: not counted
    g = density_grid(x, y, bins=40)
    assert g["counts"].shape == (40, 40) and g["x"].shape == g["y"].shape == (40,)
    assert g["counts"].sum() == g["n"] == 50_000 - 7
    # rows run along y (a heatmap's z): the cell of one patient holds it
    i = np.searchsorted(g["x_edges"], x[100]) - 1
    j = np.searchsorted(g["y_edges"], y[100]) - 1
    inside = (np.searchsorted(g["x_edges"], x[7:]) - 1 == i) & \
        (np.searchsorted(g["y_edges"], y[7:]) - 1 == j)
    assert g["counts"][j, i] == inside.sum() > 0
    assert g["x_edges"][0] < np.nanmin(x) < g["x"][0] < g["x_edges"][1]
    assert g["y_edges"][-1] > np.max(y) > g["y"][-1]
    one = density_grid([1.0, 1.0], [2.0, 2.0], bins=5)  # all patients at one place
    assert one["counts"].sum() == 2 and np.isfinite(one["x"]).all()
    assert density_grid([], [], bins=3)["n"] == 0


def test_umap_of_many_patients_is_fitted_on_a_sample_and_places_the_others(small,
                                                                          monkeypatch):
    """UMAP itself is replaced by a stand-in (the sampling, not UMAP, is under test)."""
    import sys
    import types

    from sparge.services.maps import umap_note, umap_sample

    fitted_on = []

    class FakeUMAP:
        def __init__(self, **kw):
            self.kw = kw

        def fit_transform(self, Y):
            fitted_on.append(len(Y))
            return np.asarray(Y)[:, :2] * 10

    monkeypatch.setitem(sys.modules, "umap", types.SimpleNamespace(UMAP=FakeUMAP))
    _, model = small
    n = len(model.embedding_)
    rows = umap_sample(n, 25, random_state=3)
    assert len(rows) == 25 and (np.diff(rows) > 0).all()
    assert (umap_sample(n, 25, random_state=3) == rows).all()  # reproducible
    assert (umap_sample(n, 1000) == np.arange(n)).all()
    proj = MapProjector("umap", max_fit=25, random_state=3).fit(model)
    assert fitted_on == [25] and proj.drawn_ == "umap" and proj.n_fitted_ == 25
    assert (proj.fit_rows_ == rows).all() and proj.coords_.shape == (n, 2)
    emb = np.asarray(model.embedding_)
    assert np.allclose(proj.coords_[rows], emb[rows, :2] * 10)
    others = np.setdiff1d(np.arange(n), rows)
    lo, hi = proj.coords_[rows].min(axis=0), proj.coords_[rows].max(axis=0)
    assert ((proj.coords_[others] >= lo - 1e-9) & (proj.coords_[others] <= hi + 1e-9)).all()
    # the others and any new patient are placed from the fitted patients alone
    assert np.allclose(proj.place(model, Y=emb[others]), proj.coords_[others])
    title = map_title(proj, model)
    assert title.startswith("UMAP of the 16-D SparGE embedding, fitted on 25 of ")
    assert "placed from their look-alikes" in title
    whole = MapProjector("umap").fit(model)  # a small cohort: every patient is fitted
    assert whole.fit_rows_ is None and whole.n_fitted_ == n
    assert map_title(whole, model) == "UMAP of the 16-D SparGE embedding"
    assert "all 43 training" in umap_note(43) and "random 10,000 of the 100,000" in \
        umap_note(100_000)


def test_a_patient_with_one_value_is_placed_among_its_lookalikes(small):
    """Walk-through 19: eGFR 30, 40 and 50 entered alone landed on one point of the map
    (the embedding keeps only the direction of a single value), while their look-alikes,
    anchored on the value, differed. Placed among the look-alikes, the stars differ too."""
    from sparge.services.maps import place_among_lookalikes
    from sparge.services.workflow import lookalike_table

    cohort, model = small
    proj = MapProjector("pca").fit(model)
    frame = map_frame(model, proj)
    col = cohort.features.index("Age (years)")
    stars, embedded = [], []
    for age in (35.0, 55.0, 80.0):
        x = np.full((1, len(cohort.features)), np.nan)
        x[0, col] = age
        q = pd.DataFrame(x, columns=cohort.features)
        table = lookalike_table(model, q, n_neighbors=10)
        star = place_among_lookalikes(frame, table)
        xy = frame.set_index("training_index").loc[table["training_index"], ["x", "y"]]
        assert xy.min().le(star + 1e-9).all() and xy.max().ge(star - 1e-9).all()
        stars.append(star)
        embedded.append(proj.place(model, X=q)[0])
    # 55 and 80, both above the mean: (nearly) one point when embedded; apart as placed
    assert np.linalg.norm(stars[1] - stars[2]) > 5 * np.linalg.norm(embedded[1] - embedded[2])


def test_a_map_whose_axes_span_very_different_ranges_says_so():
    """Walk-through 69: a 2-D embedding spanning 0.80 by 0.037 was drawn about 2.4 by 1,
    its vertical distances exaggerated some 9 times, and Explore said nothing."""
    from sparge.services.maps import MAP_STRETCH, stretch_note

    rng = np.random.default_rng(0)
    flat = np.column_stack([rng.uniform(0, 0.8, 200), rng.uniform(0, 0.037, 200)])
    said = stretch_note(flat)
    assert "horizontal axis spans 22× the vertical one" in said
    assert "vertical distances look larger than they are" in said
    round_map = np.column_stack([rng.normal(size=200), rng.normal(size=200)])
    assert stretch_note(round_map) == "" and MAP_STRETCH == 4.0
    assert stretch_note(flat[:, ::-1]).startswith("The map fills its frame: its vertical")
    assert stretch_note(np.zeros((1, 2))) == ""
