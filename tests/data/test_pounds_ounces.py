"""Weights written in pounds and ounces, and birth weights in kg among grams (walk-through
31: 96 of 700 birth weights were set to missing, 35 for "no exact conversion")."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.pounds_ounces import pounds, read_pounds_ounces

LB = 453.59237
OZ = 28.349523125


def test_a_cell_in_pounds_and_ounces_reads_in_pounds():
    assert pounds("6 lb 10 oz") == 6.625 and pounds("7lbs 2oz") == 7.125
    assert pounds("7 pounds 2 ounces") == 7.125 and pounds("7 lb, 2.5 oz") == 7 + 2.5 / 16
    assert pounds("7 lb 17 oz") is None and pounds("3.2 kg") is None
    df = pd.DataFrame({"Birth weight": ["3100", "6 lb 10 oz"] * 40, "Other": ["a"] * 80})
    out = read_pounds_ounces(df)
    assert out["Birth weight"][1] == "6.625 lb" and out["Birth weight"][0] == "3100"
    assert "weight(s) written in pounds and ounces" in out.attrs["sparge_read_notes"][-1]
    assert read_pounds_ounces(df[["Other"]]) is not None


def test_the_encoder_converts_them_and_the_one_click_converts_kg():
    rng = np.random.default_rng(0)
    n = 300
    grams = rng.normal(3100, 500, n).round()
    cells = [f"{g:.0f}" for g in grams]
    lb_rows, kg_rows = range(0, 30, 3), range(1, 60, 3)
    for i in lb_rows:
        lb, oz = divmod(round(grams[i] / OZ), 16)
        grams[i] = lb * LB + oz * OZ
        cells[i] = f"{lb} lb {oz} oz"
    for i in kg_rows:
        cells[i] = f"{grams[i] / 1000:.2f}"
        grams[i] = round(grams[i] / 10) * 10
    df = pd.DataFrame({"Birth Weight": cells, "Outcome": rng.integers(0, 2, n)})
    enc = Encoder(label_column="Outcome", max_patient_missing=None, clear_far=True)
    X = enc.fit_transform(df)
    np.testing.assert_allclose(X[:, 0], grams, atol=1e-6)
    far = str(enc.report_)
    assert "(in 'kg'? " in far and "in 'lb'?" not in far
    # a new patient's weight in pounds and ounces
    assert enc.transform(pd.DataFrame({"Birth Weight": ["7 lb 2 oz"]}))[0, 0] == \
        np.float64(7 * LB + 2 * OZ)
