"""Walk-through 70: a hepatology clinic's export (graded liver findings, viral loads,
elastography with its quality, tumour markers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.answer_merging import chosen_pairs, merge_answers
from sparge.data.elastography import read_elastography
from sparge.data.parsing import power_count
from sparge.data.tables import scale_codes, scale_of


@pytest.mark.parametrize("levels, scale, order", [
    (["None", "small", "F2 with red signs", "F1", "large", "Grade III - banded", "no"],
     "varices", {"None": 0, "no": 0, "small": 1, "F1": 1, "F2 with red signs": 2,
                 "large": 3, "Grade III - banded": 3}),
    (["A5", "Child A", "B 7", "B9", "C10", "Child C"], "child-pugh",
     # coded by the score; a class alone at its scores' middle
     {"A5": 5, "Child A": 5.5, "B 7": 7, "B9": 9, "C10": 10, "Child C": 12.5}),
    (["none", "no", "Mild - on diuretics", "diuretic-controlled", "Moderate",
      "large volume (LVP)"], "ascites",
     {"none": 0, "no": 0, "Mild - on diuretics": 1, "diuretic-controlled": 1,
      "Moderate": 2, "large volume (LVP)": 3}),
    (["nil", "covert - on rifaximin", "grade I", "overt grade 2", "Grade 3"],
     "encephalopathy", {"nil": 0, "covert - on rifaximin": 1, "grade I": 1,
                        "overt grade 2": 2, "Grade 3": 3}),
])
def test_graded_liver_findings_are_ordered(levels, scale, order):
    assert scale_of(levels) == scale
    assert scale_codes(levels, scale) == order


def test_a_bare_class_letter_is_child_pugh_only_in_a_column_named_so():
    assert scale_of(["A", "B", "C"]) is None  # an arm, a ward
    assert scale_of(["A", "B", "C"], "Child-Pugh") == "child-pugh class"
    assert scale_of(["A", "A5", "B", "C"], "CP score") == "child-pugh class"


def _clinic(n=240, seed=0):
    rng = np.random.default_rng(seed)
    cp = rng.choice(["A5", "Child A", "A", "B 7", "B8", "Child B", "C", "C11"], n)
    hbv = np.round(rng.lognormal(6, 1.2, n)).astype(int).astype(str).astype(object)
    hbv[:6] = ["<20 IU/mL", "5.8x10^3", "2.0 x 10^4 IU/ml", "undetectable", "1.8x10^5",
               "6.7 x 10^3 IU/ml"]
    lsm = rng.choice(["6.7 kPa (IQR 12%)", "12.3 kPa, IQR/med 18%", "5.4", "8.1",
                      "failed", "unreliable", "9.2 kPa", "21.5 kPa (IQR 9%)"], n)
    afp = np.round(rng.lognormal(1.2, 0.35, n), 1)
    afp[[3, 40]] = [1250.0, 2140.0]  # two carcinomas
    return pd.DataFrame({
        "Hospital No": [f"H{i:04d}" for i in range(n)],
        "Child-Pugh": cp, "HBV DNA (IU/mL)": hbv, "FibroScan LSM (kPa)": lsm,
        "AFP (kU/L)": afp,
        "Varices (OGD)": rng.choice(["none", "small", "F2", "large", "not scoped",
                                     "declined OGD"], n),
        "HCC surveillance US": rng.choice(["No focal lesion", "LI-RADS 3", "DNA",
                                           "not due"], n),
        "Outcome": rng.choice(["Yes", "No"], n)})


def test_the_clinic_reads_its_loads_stiffness_and_markers():
    df = _clinic()
    enc = Encoder(id_column="Hospital No", label_column="Outcome")
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    hbv = X[:, names.index("HBV DNA (IU/mL)")]
    assert np.isfinite(hbv).all()
    np.testing.assert_allclose(hbv[[1, 2, 4, 5]], [5800, 20_000, 180_000, 6700])
    lsm = X[:, names.index("FibroScan LSM (kPa)")]
    written = df["FibroScan LSM (kPa)"].str.extract(r"^([\d.]+)")[0].astype(float)
    failed = df["FibroScan LSM (kPa)"].isin(["failed", "unreliable"]).to_numpy()
    assert np.isnan(lsm[failed]).all()
    np.testing.assert_allclose(lsm[~failed], written[~failed])
    assert enc.table_.is_ordered("Child-Pugh")
    assert set(enc.table_.levels("Varices (OGD)")) == {"none", "small", "F2", "large"}
    assert set(enc.table_.levels("HCC surveillance US")) == {"No focal lesion", "LI-RADS 3"}
    # the carcinomas' AFP are no values to check
    assert not [v for v in enc.report_.values_to_check if v[0] == "AFP (kU/L)"]
    notes = " ".join(enc.report_.notes)
    assert "read as that number (5800" in notes
    assert "its IQR or success rate is not" in notes


def test_a_far_low_marker_is_still_checked():
    df = _clinic(seed=1)
    df.loc[7, "AFP (kU/L)"] = 0.0031  # ×1000 too small
    enc = Encoder(id_column="Hospital No", label_column="Outcome").fit(df)
    assert [v[1] for v in enc.report_.values_to_check if v[0] == "AFP (kU/L)"] == [7]


def test_power_of_ten_and_elastography_cells():
    assert power_count("5.8x10^3") == 5800
    assert power_count("1.2×10*5 copies/mL") == 120_000
    assert power_count("3.4E+04") == 34_000
    assert power_count("284") is None and power_count("x10^3") is None
    out = read_elastography(pd.DataFrame({"LSM (kPa)": ["6.7 kPa (IQR 12%)", "failed",
                                                        "288 dB/m (SR 90%)", "7.1"],
                                          "Other": ["6.7 kPa (IQR 12%)"] * 4}))
    assert out["LSM (kPa)"].tolist() == ["6.7 kPa", "", "288 dB/m", "7.1"]
    assert out["Other"].tolist() == ["6.7 kPa (IQR 12%)"] * 4


def test_alcohol_words_and_bands_are_units_and_aetiology_is_a_category():
    rng = np.random.default_rng(4)
    n = 300
    alcohol = rng.integers(0, 60, n).astype(str).astype(object)
    words = ["teetotal", "nil - abstinent since 2018", "Abstinent 6/12", "ex-drinker",
             "0-10", "10-20", "occasional"]
    alcohol[:70] = np.repeat(words, 10)
    spellings = ["NAFLD", "nafld", "NASH", "MASLD", "Fatty liver (NAFLD)", "ALD", "EtOH",
                 "Alcohol-related liver disease", "ArLD", "HCV", "Hep C (treated, SVR)",
                 "HCV genotype 3", "HBV", "Chronic hepatitis B", "Hep B", "AIH",
                 "Autoimmune hepatitis", "PBC", "PBC (AMA+)", "Primary biliary cholangitis",
                 "PSC", "Primary sclerosing cholangitis", "Haemochromatosis",
                 "Hemochromatosis", "HH (C282Y homozygous)", "Wilson's disease", "Wilsons",
                 "MetALD", "NAFLD + alcohol", "Mixed (ALD + NAFLD)", "MAFLD", "MASH",
                 "alcohol", "Hepatitis C", "Hepatitis B"]
    df = pd.DataFrame({"ID": range(n), "Alcohol (units/wk)": alcohol,
                       "Aetiology": rng.choice(spellings, n),
                       "HCV RNA": rng.choice(["detected", "not detected", "SVR", "SVR12",
                                              "TND"], n),
                       "Date of first decompensation": None,
                       "Outcome": rng.choice(["Yes", "No"], n, p=[0.3, 0.7])})
    yes = df["Outcome"].eq("Yes")
    df.loc[yes, "Date of first decompensation"] = "12/03/2022"
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    units = X[:, names.index("Alcohol (units/wk)")]
    np.testing.assert_array_equal(units[:40], 0.0)  # no drinking now
    np.testing.assert_array_equal(units[40:60], [5.0] * 10 + [15.0] * 10)
    np.testing.assert_array_equal(units[60:70], 1.0)  # "occasional": a unit a week
    assert enc.roles_["Aetiology"] == "categorical"
    merged = merge_answers(enc.table_, chosen_pairs(enc.report_.answers_two_ways, []))
    codes = merged.levels("Aetiology")
    assert len(set(codes.values())) == 10  # ten diseases, one click
    assert codes["NASH"] == codes["MASLD"] == codes["Fatty liver (NAFLD)"]
    assert codes["EtOH"] == codes["ArLD"] and codes["MetALD"] != codes["NAFLD"]
    assert {frozenset(p) for p in enc.report_.answers_two_ways["HCV RNA"]} >= {
        frozenset({"SVR", "not detected"}), frozenset({"TND", "not detected"})}
    why = enc.left_out_why_["Date of first decompensation"]
    assert why.startswith("dates; written for 100% of the patients whose outcome is 'Yes'")
    assert any(w.startswith("Left out of the model (already, as dates or free text)")
               for w in enc.report_.warnings)


def test_a_gap_found_at_a_cut_off_is_said_as_probable_not_as_a_rule():
    rng = np.random.default_rng(6)
    n = 400
    plt = rng.normal(220, 70, n).round()
    score = np.where(plt < 150, rng.integers(5, 12, n), np.nan)
    df = pd.DataFrame({"ID": range(n), "Platelets (x10^9/L)": plt,
                       "MELD": score, "Albumin (g/L)": rng.normal(40, 4, n).round(),
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    said = [x for x in enc.report_.notes if x.startswith("Column 'MELD' is empty for the")]
    assert said and "probably does not apply to them" in said[0]
    assert "not a clinical rule" in said[0]


def test_a_yes_or_empty_column_is_offered_as_a_register_and_read_so():
    rng = np.random.default_rng(7)
    n = 200
    vacc = np.where(rng.random(n) < 0.55, "Yes", None)
    df = pd.DataFrame({"ID": range(n), "Hep B vaccinated": vacc,
                       "ALT (IU/L)": rng.normal(40, 10, n).round(),
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert "Hep B vaccinated" not in enc.feature_names_out_  # one value: dropped
    assert enc.report_.blank_no_candidates == ["Hep B vaccinated"]
    again = Encoder(label_column="Outcome", blank_as_no=["Hep B vaccinated"])
    X = again.fit_transform(df)
    col = X[:, again.feature_names_out_.index("Hep B vaccinated")]
    np.testing.assert_array_equal(col, np.where(vacc == "Yes", 1.0, 2.0))
    new = again.transform(df.iloc[[0, 1, 2]].assign(**{"Hep B vaccinated": [None, "Yes",
                                                                             None]}))
    np.testing.assert_array_equal(new[:, again.feature_names_out_.index(
        "Hep B vaccinated")], [2.0, 1.0, 2.0])


def test_a_third_answer_beside_yes_and_no_in_the_outcome_is_named():
    rng = np.random.default_rng(8)
    n = 120
    out = rng.choice(["Yes", "No"], n).astype(object)
    out[:6] = "Died (non-liver)"
    df = pd.DataFrame({"ID": range(n), "ALT (IU/L)": rng.normal(40, 10, n).round(),
                       "Decompensation": out})
    enc = Encoder(label_column="Decompensation").fit(df)
    said = [w for w in enc.report_.warnings if "beside Yes and No" in w]
    assert said and "'Died (non-liver)' (6 patients)" in said[0]
    two = df.assign(Decompensation=np.where(out == "Died (non-liver)", "No", out))
    plain = Encoder(label_column="Decompensation").fit(two)
    assert not [w for w in plain.report_.warnings if "beside Yes and No" in w]
