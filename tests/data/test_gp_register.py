"""A GP practice's chronic disease register export (walk-through 48): a leak written only
for the patients with the outcome, scores after their names, "10+", QOF codes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.leaks import presence_leaks


def test_a_column_written_only_for_one_outcome_is_left_out_as_a_leak():
    """Walk-through 48: "Days to admission", blank for every patient not admitted, was a
    feature; its values ranked nothing, but whether it was written was the outcome. The
    missing-values threshold then kept the admitted and 37 % of training was admitted
    against 15.5 % of the file."""
    rng = np.random.default_rng(48)
    n = 400
    y = np.where(rng.random(n) < 0.2, "Yes", "No")
    df = pd.DataFrame({"ID": range(n), "Age": rng.integers(40, 90, n),
                       "HbA1c": np.where(rng.random(n) < 0.2, np.nan, rng.normal(45, 8, n)),
                       "Days to admission": np.where(y == "Yes", rng.integers(1, 365, n),
                                                     np.nan),
                       "Admitted": y})
    enc = Encoder(id_column="ID", label_column="Admitted").fit(df)
    assert "Days to admission" not in enc.feature_names_out_
    assert enc.roles_["Days to admission"] == "ignore"
    said = " ".join(enc.report_.warnings)
    assert ("Left out of the model: 'Days to admission' is written for 100% of the patients "
            "whose outcome is 'Yes' and 0% of the others. Whether it is written at all gives "
            "the outcome away") in said
    # a column with gaps at random stays, and so does one the user gave a role
    assert "HbA1c" in enc.feature_names_out_
    kept = Encoder(id_column="ID", label_column="Admitted",
                   roles={"Days to admission": "numeric"}).fit(df)
    assert "Days to admission" in kept.feature_names_out_


def test_presence_leaks_name_the_outcome_whose_patients_have_the_value():
    X = np.array([[1.0, 1.0], [2.0, np.nan], [np.nan, 3.0], [np.nan, np.nan]] * 15)
    y = ["a", "a", "b", "b"] * 15
    found = presence_leaks(X, ["first", "second"], y)
    assert list(found) == ["first"]
    auc, level, p1, p0 = found["first"]
    assert (auc, level, p1, p0) == (1.0, "a", 1.0, 0.0)
    # too few patients with (or without) a value: not judged
    assert presence_leaks(X[:12], ["first", "second"], y[:12], min_class=10) == {}
    # three outcomes: the one whose patients alone have the value
    y3 = ["a", "b", "c", "c"] * 15
    X3 = np.array([[1.0], [np.nan], [np.nan], [np.nan]] * 15)
    assert presence_leaks(X3, ["x"], y3)["x"][1] == "a"
