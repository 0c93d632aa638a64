"""Explore with a 100,000-patient cohort, headless (issue 14.4): a random 50,000 on the map
over the density of all (a dense map: typed arrays, ID-only hover), the selected patient's
look-alikes ringed, the page's own run time printed.

The model learns from 600 patients (the cohort's first rows) so that the test stays well
under a minute: the other 99,400 are embedded with ``model.transform`` (about half of the
test's time) and placed on its map, as the app does for any patient left out of training.
"""

from __future__ import annotations

import base64
import json
import time
import uuid

import numpy as np
import pytest
from app_support import start

from sparge.data.synthetic import core_columns, make_cohort_rows
from sparge.services.maps import MAX_MAP_POINTS
from sparge.services.workflow import encode_cohort, train

N = 100_000


@pytest.fixture(scope="module")
def big():
    df = make_cohort_rows(0, N, columns=core_columns()[:10])
    cohort = encode_cohort(df, id_column="Subject ID", label_column="Outcome")
    model = train(encode_cohort(df.iloc[:600], id_column="Subject ID",
                                label_column="Outcome"), {"max_iter": 0})
    assert list(model.feature_names()) == cohort.features
    return cohort, model


def _state(cohort, model) -> dict:
    return {"cohort": cohort, "model": model, "model_encoder": cohort.encoder,
            "model_name": "600-patient model", "model_token": uuid.uuid4().hex, "maps": {},
            "selected": None, "lasso": []}


def _array(value) -> np.ndarray:
    """A figure array as sent: a JSON list or a base64 typed array."""
    if isinstance(value, dict):
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    return np.asarray(value)


def _patients(spec: dict) -> np.ndarray:
    """Keys of the patients drawn (look-alike rings and highlights left out)."""
    keys = [_array(t["customdata"]).ravel().astype(int) for t in spec["data"]
            if t["type"] == "scattergl" and "customdata" in t
            and t.get("name") != "look-alikes"]
    return np.concatenate(keys)


def test_explore_draws_100000_patients_and_rings_the_lookalikes(big):
    cohort, model = big
    t = time.perf_counter()
    at = start(**_state(cohort, model))
    first = time.perf_counter() - t
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["data"][0]["type"] == "heatmap"  # the density layer
    keys = _patients(spec)
    # a random 50,000 as points, each once; the shading counts all 100,000
    assert len(keys) == MAX_MAP_POINTS and len(np.unique(keys)) == MAX_MAP_POINTS
    assert np.nansum(_array(spec["data"][0]["customdata"])) == N
    captions = " ".join(c.value for c in at.caption)
    assert f"A random {MAX_MAP_POINTS:,} of the {N:,} patients are drawn" in captions
    # a patient left out of training, found by ID: its look-alikes are ringed on the map
    pid = str(cohort.ids[N // 2])
    t = time.perf_counter()
    at.text_input(key="explore_search").set_value(pid).run()
    click = time.perf_counter() - t
    assert not at.exception, [e.value for e in at.exception]
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    rings = next(t for t in spec["data"] if t.get("name") == "look-alikes")
    assert len(_array(rings["x"])) == 10 == len(_array(rings["customdata"]))
    assert any(s.value == f"Patient {pid}" for s in at.subheader)
    print(f"Explore, {N:,} patients: first run {first:.1f} s (embedding included), "
          f"selecting a patient {click:.1f} s")
