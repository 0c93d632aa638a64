"""Regenerating data_samples/ (sparge.services.make_samples) reproduces the bundled files."""

from __future__ import annotations

import numpy as np
from helpers import SAMPLES

from sparge import load_model
from sparge.services.make_samples import main


def test_regenerated_samples_equal_the_bundled_ones(tmp_path):
    # without the UMAP map: its coordinates are not compared (numba's arithmetic), and
    # fitting it took about half of this test (the app's UMAP is tested on its own)
    main(tmp_path, umap_map=False)
    assert not (tmp_path / "default_map_umap.csv").exists()
    for name in ("singheart_synthetic.csv", "singheart_small.csv", "new_patient.csv",
                 "biomarker_groups.json", "encoding_table.csv"):
        assert (tmp_path / name).read_bytes() == (SAMPLES / name).read_bytes(), name
    new, _ = load_model(tmp_path / "default_model.sparge")
    shipped, _ = load_model(SAMPLES / "default_model.sparge")
    # the default model reproduces its embedding (behaviour unchanged by refactoring)
    np.testing.assert_allclose(new.embedding_, shipped.embedding_, atol=1e-8)
    np.testing.assert_array_equal(new.forest_leaves_, shipped.forest_leaves_)
    assert list(new.train_ids_) == list(shipped.train_ids_)
    # the bundled map is the shipped model's: one finite point per training patient
    import pandas as pd

    shipped_map = pd.read_csv(SAMPLES / "default_map_umap.csv")
    assert shipped_map["ID"].astype(str).tolist() == [str(i) for i in shipped.train_ids_]
    assert np.isfinite(shipped_map[["x", "y"]].to_numpy()).all()
