"""BMI, weight and height as one body size (walk-through 78's joint registry).

The registry wrote a BMI or a weight and a height, never both; the 10 % threshold on
missing values then kept 93 of 450 patients, chosen by how their size was written.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.body_size import derive_body_size, find_body_size, size_given_mask
from sparge.data.encoder import Encoder

N = 200


def _sizes(rng: np.random.Generator, n: int = N) -> tuple[np.ndarray, np.ndarray]:
    kg = rng.normal(80, 14, n).clip(45, 150)
    m = rng.normal(1.70, 0.09, n).clip(1.45, 2.0)
    return kg, m


def _units(units: dict[str, str]):
    return lambda column: units.get(column)


def test_found_on_patients_with_all_three():
    rng = np.random.default_rng(0)
    kg, m = _sizes(rng)
    bmi = kg / m**2
    X = np.column_stack([bmi, kg, m * 100, rng.normal(size=N)])
    rule = find_body_size(["BMI", "Weight", "Height", "Hb"], X,
                          _units({"Weight": "kg", "Height": "cm"}))
    assert rule == {"bmi": "BMI", "weight": "Weight", "height": "Height", "kg": 1.0,
                    "m": 0.01}


def test_units_not_written_are_chosen_by_agreement():
    # pounds and inches, without a unit anywhere: kg and cm would give BMIs of 2-3
    rng = np.random.default_rng(1)
    kg, m = _sizes(rng)
    X = np.column_stack([kg / m**2, kg / 0.45359237, m / 0.0254])
    rule = find_body_size(["bmi", "wt", "ht"], X, _units({}))
    assert rule is not None
    assert rule["kg"] == pytest.approx(0.45359237) and rule["m"] == pytest.approx(0.0254)


def test_written_either_way_is_judged_by_medians():
    # the registry's way: a BMI for some, a weight and a height for the others
    rng = np.random.default_rng(2)
    kg, m = _sizes(rng)
    bmi = kg / m**2
    only_bmi = rng.random(N) < 0.6
    X = np.column_stack([np.where(only_bmi, bmi, np.nan), np.where(only_bmi, np.nan, kg),
                         np.where(only_bmi, np.nan, m * 100)])
    rule = find_body_size(["BMI", "Weight", "Height"], X,
                          _units({"Weight": "kg", "Height": "cm"}))
    assert rule is not None
    out, computed = derive_body_size(X, ["BMI", "Weight", "Height"], rule)
    assert set(computed) == {"BMI"} and computed["BMI"].sum() == (~only_bmi).sum()
    np.testing.assert_allclose(out[~only_bmi, 0], bmi[~only_bmi])
    assert np.isnan(X[~only_bmi, 0]).all()  # the input is not written to
    mask = size_given_mask(out, ["BMI", "Weight", "Height"], rule)
    assert (mask[:, 1] == only_bmi).all() and (mask[:, 2] == only_bmi).all()
    assert not mask[:, 0].any()


def test_a_bmi_that_does_not_agree_is_not_joined():
    # a BMI at another time or of another person: no relation to this weight and height
    rng = np.random.default_rng(3)
    kg, m = _sizes(rng)
    X = np.column_stack([rng.normal(27, 4, N), kg, m * 100])
    assert find_body_size(["BMI", "Weight", "Height"], X,
                          _units({"Weight": "kg", "Height": "cm"})) is None
    # nor a BMI column in another unit, nor with two weights
    X2 = np.column_stack([kg / m**2, kg, m * 100])
    assert find_body_size(["BMI (%)", "Weight", "Height"], X2,
                          _units({"BMI (%)": "%", "Weight": "kg", "Height": "cm"})) is None
    X3 = np.column_stack([kg / m**2, kg, kg, m * 100])
    assert find_body_size(["BMI", "Weight", "Weight (dry)", "Height"], X3,
                          _units({})) is not None  # a dry weight is not the body weight
    assert find_body_size(["BMI", "Weight", "Body weight", "Height"], X3, _units({})) is None


@pytest.mark.parametrize("name", ["Birth weight", "Weight change", "Maternal height",
                                  "BMI centile", "BMI z-score", "Fundal height",
                                  "post-op weight", "Weight 6m"])
def test_names_of_other_quantities_are_not_the_size(name):
    rng = np.random.default_rng(4)
    kg, m = _sizes(rng)
    names = ["BMI", "Weight", "Height"]
    i = {"weight": 1, "height": 2, "bmi": 0}[next(k for k in ("weight", "height", "bmi")
                                                   if k in name.lower())]
    names[i] = name
    X = np.column_stack([kg / m**2, kg, m * 100])
    assert find_body_size(names, X, _units({names[1]: "kg", names[2]: "cm"})) is None


def test_any_one_of_three_is_computed_and_impossible_results_stay_gaps():
    rule = {"bmi": "BMI", "weight": "Weight", "height": "Height", "kg": 1.0, "m": 0.01}
    X = np.array([[np.nan, 81.0, 180.0],   # BMI from weight and height
                  [25.0, np.nan, 160.0],   # weight from BMI and height
                  [30.0, 120.0, np.nan],   # height from BMI and weight
                  [np.nan, 81.0, 18.0],    # a height of 18 cm: BMI 2500, not written
                  [np.nan, np.nan, 170.0]])  # one of three: nothing to compute
    out, computed = derive_body_size(X, ["BMI", "Weight", "Height"], rule)
    assert out[0, 0] == pytest.approx(81 / 1.8**2)
    assert out[1, 1] == pytest.approx(25 * 1.6**2)
    assert out[2, 2] == pytest.approx(100 * np.sqrt(120 / 30))
    assert np.isnan(out[3, 0]) and np.isnan(out[4, :2]).all()
    assert {k: list(np.flatnonzero(v)) for k, v in computed.items()} == {
        "BMI": [0], "Weight": [1], "Height": [2]}
    # without a rule, or with its columns gone, nothing changes
    assert derive_body_size(X, ["BMI", "Weight", "Height"], {})[0] is X
    assert derive_body_size(X, ["BMI", "Mass", "Height"], rule)[1] == {}


def _registry(seed: int = 78, n: int = 300) -> pd.DataFrame:
    """A BMI for 60 % of the patients, a weight and a height for the others, written as
    the registry wrote them, and a few other values with a scattered gap each."""
    rng = np.random.default_rng(seed)
    kg, m = _sizes(rng, n)
    only_bmi = rng.random(n) < 0.6
    risk = rng.normal(size=n)
    frame = {
        "Hospital No": [f"RX{4100000 + i}" for i in range(n)],
        "Sex": rng.choice(["Male", "Female"], n),
        "BMI": np.where(only_bmi, np.round(kg / m**2, 1).astype(str), ""),
        "Weight": np.where(only_bmi, "", np.char.add(np.round(kg).astype(int).astype(str),
                                                       "kg")),
        "Height": np.where(only_bmi, "", np.round(m * 100).astype(int).astype(str)),
    }
    # where each lies: a haemoglobin of 15 g/L or an albumin of 70 g/L no patient has
    centres = {"Pre-op Oxford score": 30, "Hb (g/L)": 130, "Albumin (g/L)": 38}
    for name in (["Pre-op Oxford score", "Hb (g/L)", "eGFR", "Pre-op EQ-VAS",
                              "Age", "Albumin (g/L)", "CRP (mg/L)"]):
        centre = centres.get(name, 50)
        values = np.round(centre + 10 * risk * centre / 50
                          + rng.normal(0, 8 * centre / 50, n)).astype(str)
        values[rng.random(n) < 0.02] = ""
        frame[name] = values
    frame["poor_outcome_6m"] = np.where(risk + rng.normal(0, 1, n) > 0.8, "Yes", "No")
    return pd.DataFrame(frame)


def test_the_threshold_does_not_pick_patients_by_how_their_size_was_written():
    df = _registry()
    only_bmi = df["BMI"] != ""
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m")
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    assert enc.body_size_["bmi"] == "BMI"
    assert not np.isnan(X[:, names.index("BMI")]).any()  # computed for the others
    # before: every patient with only a BMI missed 2 of 12 values, and all were left out
    kept = enc.keep_patients_
    assert kept[only_bmi].mean() > 0.8 and kept[~only_bmi].mean() > 0.8
    note = next(n for n in enc.report_.notes if "one body size" in n)
    assert f"{(~only_bmi).sum()} BMIs computed" in note
    assert f"{only_bmi.sum()} patients with a BMI and no weight or height" in note
    assert enc.report_.missing_pct["BMI"] == 0.0
    # the weights a page counts a patient's gaps with agree with the training choice
    w = enc.patient_weights(X, df)
    assert (w[only_bmi.to_numpy()][:, [names.index("Weight"), names.index("Height")]]
            == 0).all()


def test_a_new_patient_with_weight_and_height_gets_a_bmi_and_the_rule_is_saved():
    df = _registry()
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m").fit(df)
    new = df.iloc[:1].copy()
    new["BMI"], new["Weight"], new["Height"] = "", "17st 3lb", "6ft 1in"
    for fitted in (enc, Encoder.from_dict(enc.to_dict())):
        X, report = fitted.transform_with_report(new)
        kg, m = (17 * 14 + 3) * 0.45359237, 73 * 0.0254
        assert X[0, fitted.feature_names_out_.index("BMI")] == pytest.approx(kg / m**2,
                                                                             rel=1e-3)
        assert any("Computed from the other two" in n for n in report.notes)


def test_a_saved_rule_is_checked_on_loading():
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m").fit(_registry())
    state = enc.to_dict()
    for bad in ({"bmi": "BMI"}, {**state["body_size"], "kg": -1.0},
                {**state["body_size"], "m": "cm"}, [1, 2]):
        with pytest.raises(ValueError, match="body_size"):
            Encoder.from_dict({**state, "body_size": bad})
    # a file saved before the rule existed loads without it
    older = {k: v for k, v in state.items() if k != "body_size"}
    assert Encoder.from_dict(older).body_size_ == {}


def test_a_table_without_all_three_is_unchanged():
    df = _registry().drop(columns=["Height"])
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m")
    X = enc.fit_transform(df)
    assert enc.body_size_ == {}
    assert np.isnan(X[:, enc.feature_names_out_.index("BMI")]).mean() > 0.3
    assert not any("one body size" in n for n in enc.report_.notes)
