"""Walk-through 94: a vascular surgery clinic's export (peripheral arterial disease and
aneurysm surveillance), with a major amputation or death within a year as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder
from sparge.services.display import answers_by_code

OUTCOME = "Major amputation or death within 1 year"


def _clinic(n: int = 300, seed: int = 94) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    metres = rng.integers(30, 300, n)
    distance = np.array([f"{m}m" if i % 3 else f"{round(m / 0.9144)} yards" if i % 2
                         else f"{m} metres" for i, m in enumerate(metres)], dtype=object)
    distance[::17] = [str(m) for m in metres[::17]]
    egfr = rng.integers(20, 90, n).astype(object)
    egfr[27] = 650
    abpi = rng.uniform(0.3, 1.2, n).round(2).astype(object)
    abpi[42] = 6.5
    return pd.DataFrame({
        "Hospital No": [f"RVX{1040000 + i}" for i in range(n)],
        "Age": rng.integers(45, 92, n).astype(str),
        "Claudication distance": distance, "eGFR": egfr.astype(str),
        "ABPI left": abpi.astype(str),
        "Rutherford category": rng.choice(["R0", "Rutherford 3", "3", "R4", "5", "R 5", "6",
                                           "Rutherford 1", "2"], n),
        "Fontaine stage": rng.choice(["I", "IIa", "IIb", "2b", "III", "IV", "stage IV"], n),
        OUTCOME: rng.choice(["Yes", "No"], n, p=[0.2, 0.8])})


def test_distances_in_yards_and_metres_are_read_in_metres():
    """Walk-through 94: "110 yards" and "90 metres" beside "<50m" were set to missing,
    "no exact conversion to 'm' is known for them"."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["Claudication distance"] == "numeric"
    X = enc.transform(df)
    got = X[:, enc.feature_names_out_.index("Claudication distance")]
    yards = df["Claudication distance"].str.endswith("yards").to_numpy()
    want = pd.to_numeric(df["Claudication distance"].str.removesuffix(" yards"),
                         errors="coerce").to_numpy() * 0.9144
    np.testing.assert_allclose(got[yards], want[yards])
    metres = df["Claudication distance"].str.endswith(" metres").to_numpy()
    np.testing.assert_array_equal(got[metres], pd.to_numeric(
        df["Claudication distance"][metres].str.removesuffix(" metres")))
    assert "is read in 'm'" in " ".join(enc.report_.notes)


def test_rutherford_and_fontaine_are_ordered_scales_and_impossible_values_are_named():
    """Walk-through 94: Rutherford and Fontaine were unordered answers until their
    spellings were merged by hand; an eGFR of 650 and an ABPI of 6.5 were used as
    given."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    shown = answers_by_code(enc, "Rutherford category")
    assert sorted(shown) == list(range(7)) and shown[3] == "Rutherford 3"
    rc = enc.table_.levels("Rutherford category")
    assert rc["R4"] < rc["5"] == rc["R 5"] < rc["6"]
    levels = enc.table_.levels("Fontaine stage")
    assert levels["I"] < levels["IIa"] < levels["IIb"] == levels["2b"] < levels["III"] < \
        levels["IV"] == levels["stage IV"]
    assert enc.table_.is_ordered("Rutherford category")
    assert enc.table_.is_ordered("Fontaine stage")
    impossible = [list(v) for v in enc.report_.impossible]
    assert ["eGFR", 27] in impossible and ["ABPI left", 42] in impossible


def test_an_answer_after_its_export_code_is_that_answer():
    """Walk-through 94: Sex "1 - Male" and "2 - Female" (a PAS export's codes) beside
    "M" and "Female" were four answers, neither merged nor offered."""
    from sparge.services.display import answers_by_code

    df = _clinic()
    df["Sex"] = np.resize(np.array(["1 - Male", "2 - Female", "M", "Female", "male"]),
                          len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    levels = enc.table_.levels("Sex")
    assert levels["1 - Male"] == levels["M"] == levels["male"] != levels["2 - Female"]
    assert levels["2 - Female"] == levels["Female"]
    assert sorted(answers_by_code(enc, "Sex").values()) == ["Female", "Male"]


def _diameters(n: int = 240, seed: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Aneurysm diameters (mm) and their cells: "58mm", "5.4cm", plain mm and plain cm."""
    rng = np.random.default_rng(seed)
    mm = rng.integers(30, 75, n).astype(float)
    kinds = np.resize(np.array(["mm", "cm", "plain mm", "plain cm"]), n)
    cells = np.array([f"{m:.0f}mm" if k == "mm" else f"{m / 10:.1f}cm" if k == "cm" else
                      f"{m:.0f}" if k == "plain mm" else f"{m / 10:.1f}"
                      for m, k in zip(mm, kinds)], dtype=object)
    return mm, cells


def test_plain_numbers_the_size_of_another_units_cells_are_read_in_it():
    """Walk-through 94: an aneurysm's diameter written "58mm", "5.4cm", "61" and "6.3"
    was read in mm, its plain "6.3" as 6.3 mm (no word said), beside the 63 mm it is."""
    df = _clinic(240)
    mm, df["AAA diameter"] = _diameters()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    got = enc.transform(df)[:, enc.feature_names_out_.index("AAA diameter")]
    np.testing.assert_allclose(got, mm)
    notes = " ".join(enc.report_.notes)
    assert "60 cell(s) written as plain numbers the size of its cells in 'cm'" in notes
    # a saved model reads a new patient's plain "6.3" in cm too, and "61" in mm
    again = Encoder.from_dict(enc.to_dict())
    new = df.iloc[:2].copy()
    new["AAA diameter"] = ["6.3", "61"]
    X = again.transform(new)
    np.testing.assert_allclose(X[:, again.feature_names_out_.index("AAA diameter")],
                               [63.0, 61.0])


def test_plain_numbers_stay_in_the_columns_unit_where_the_units_overlap():
    """Weights in lb and kg lie among each other (a factor 2.2): a plain number's size
    says nothing of its unit, and no plain number is read in lb; a column whose one unit
    is its plain numbers' is not split either."""
    rng = np.random.default_rng(3)
    n = 120
    kg = rng.normal(75, 12, n).round(1)
    cells = np.array([f"{v / 0.45359237:.0f} lb" if i % 3 == 0 else f"{v} kg" if i % 3 == 1
                      else f"{v}" for i, v in enumerate(kg)], dtype=object)
    df = pd.DataFrame({"Weight": cells, "Length (mm)": [f"{v:.0f}" for v in kg],
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(label_column="y").fit(df)
    assert enc.plain_splits_ == {}
    got = enc.transform(df)[:, enc.feature_names_out_.index("Weight")]
    plain = np.arange(n) % 3 == 2
    np.testing.assert_allclose(got[plain], kg[plain])


def test_rest_pain_is_the_worst_claudication_distance_and_unlimited_the_best():
    """Walk-through 94: "rest pain", "unlimited" and "no claudication" in the
    claudication distance were set to missing, so the sickest patients and the least
    limited had a typical, completed distance. A new patient's too, with a saved model."""
    df = _clinic()
    cells = df["Claudication distance"].to_numpy(dtype=object).copy()
    cells[[1, 2, 3]] = ["rest pain", "Ischaemic rest pain", "pain at rest"]
    cells[[4, 5]] = ["unlimited", "No claudication"]
    df["Claudication distance"] = cells
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    j = enc.feature_names_out_.index("Claudication distance")
    got = enc.transform(df)[:, j]
    others = np.delete(got, [1, 2, 3, 4, 5])
    assert (got[[1, 2, 3]] == others.min()).all() and (got[[4, 5]] == others.max()).all()
    notes = " ".join(enc.report_.notes)
    assert "3 cell(s) written as unable to do the test (e.g. 'rest pain'" in notes
    assert "2 cell(s) written as not limited (e.g. 'unlimited'" in notes
    again = Encoder.from_dict(enc.to_dict())
    new = df.iloc[:2].copy()
    new["Claudication distance"] = ["Rest pain", "not limited"]
    np.testing.assert_array_equal(again.transform(new)[:, j],
                                  [others.min(), others.max()])


def test_unlimited_is_no_distance_in_a_timed_test_or_another_column():
    """"unlimited" reads as a best result only in a column of distances walked."""
    from sparge.data.unable import best_result, is_unlimited, performance_direction

    assert performance_direction("Claudication distance") == -1
    assert performance_direction("Initial claudication distance (m)") == -1
    assert performance_direction("Claudication") == 0
    assert is_unlimited("Unlimited") and is_unlimited("no claudication")
    assert not is_unlimited("none") and not is_unlimited("half a mile")
    assert best_result(np.array([3.0, 5, 9, 4, 6]), 1) is None
    assert best_result(np.array([30.0, 50, 90, 40, 60]), -1) == 90.0


def test_both_legs_abpi_in_one_cell_reads_the_worse_leg_or_the_columns_side():
    """Walk-through 94: "R 0.65 L 0.49" and "incompressible" in the ABPI were set to
    missing (the patients with disease in both legs among them)."""
    from sparge.data.ankle_pressures import column_side, read_abpi

    assert read_abpi("R 0.65 L 0.49") == "0.49" and read_abpi("Rt 0.55, Lt 0.9") == "0.55"
    assert read_abpi("R0.8/L0.7", "right") == "0.8" and read_abpi("R0.8/L0.7", "left") == "0.7"
    assert read_abpi("L 0.45 R incompressible") == "0.45"
    assert read_abpi("R incompressible L NC") == "" and read_abpi("Incompressible") == ""
    assert read_abpi("0.65") is None and read_abpi("R 0.6 R 0.7") is None
    assert column_side("ABPI (R)") == "right" and column_side("ABPI_L") == "left"
    assert column_side("ABPI") is None and column_side("Left and right ABPI") is None
    df = _clinic()
    df = df.rename(columns={"ABPI left": "ABPI"})
    cells = df["ABPI"].to_numpy(dtype=object).copy()
    cells[[3, 4, 5]] = ["R 0.65 L 0.49", "Rt incompressible, Lt 0.9", "incompressible"]
    df["ABPI"] = cells
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    j = enc.feature_names_out_.index("ABPI")
    got = enc.transform(df)[:, j]
    np.testing.assert_array_equal(got[[3, 4]], [0.49, 0.9])
    assert np.isnan(got[5])
    notes = " ".join(enc.report_.notes)
    assert "3 cell(s) giving both legs' index or an incompressible artery" in notes
    assert "the lower index, the worse leg's, is read" in notes
    assert not any("'ABPI'" in w and "incompressible" in w for w in enc.report_.warnings)
    new = df.iloc[:1].copy()
    new["ABPI"] = ["R 0.7 L 0.55"]
    assert enc.transform(new)[0, j] == 0.55


def test_ckd_stages_are_an_ordered_scale():
    """Walk-through 94: "CKD3b", "CKD 3", "CKD 3a", "CKD 5 on HD" were coded
    alphabetically (3b before 3)."""
    rng = np.random.default_rng(0)
    df = _clinic()
    df["CKD stage"] = rng.choice(["CKD 3", "CKD3b", "Stage 4", "none", "CKD 5 on HD",
                                  "CKD 3a", "G2", "3b", "ESRD"], len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.table_.is_ordered("CKD stage")
    lv = enc.table_.levels("CKD stage")
    assert lv["none"] < lv["G2"] < lv["CKD 3"] < lv["CKD 3a"] < lv["CKD3b"] == lv["3b"] \
        < lv["Stage 4"] < lv["CKD 5 on HD"] == lv["ESRD"]
    # a yes/no column named CKD stays yes/no
    df["CKD"] = rng.choice(["Yes", "No"], len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert set(enc.table_.levels("CKD")) == {"Yes", "No"}
