"""A maternity unit's export (walk-through 43): blood losses in mL and L, the outcome
written as its own abbreviation, ages from dates of birth."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder


def test_blood_losses_in_litres_in_a_column_of_ml_are_converted():
    """Walk-through 43: "2.02 L" in a column of mL was set to missing ("no exact
    conversion to 'ml' is known"), the largest bleeds lost. Litres convert exactly, and a
    unit of one dimension converts whatever the column's other values."""
    rng = np.random.default_rng(0)
    n = 300
    ebl = [str(int(rng.integers(150, 700))) for _ in range(n)]
    for i in range(0, 30, 3):
        ebl[i] = f"{rng.uniform(1.1, 2.6):.2f} L"
    df = pd.DataFrame({"ID": [f"P{i}" for i in range(n)], "Estimated blood loss (mL)": ebl,
                       "Age": rng.integers(20, 40, n), "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="ID", label_column="y")
    X = enc.fit_transform(df)
    want = [float(c.split()[0]) * 1000 if c.endswith("L") else float(c) for c in ebl]
    np.testing.assert_allclose(X[:, 0], want)
    text = str(enc.report_).replace("\u202f", " ").replace("\xa0", " ")
    assert "10 cell(s) in 'L' converted to 'mL' (1 L = 1 000 mL)" in text
    # a new patient's "1.8 L" too
    new = df.iloc[:1].assign(**{"Estimated blood loss (mL)": "1.8 L"})
    assert enc.transform(new)[0, 0] == 1800.0
