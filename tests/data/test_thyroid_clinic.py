"""Walk-through 89: a thyroid clinic's export (Graves' disease, toxic nodular goitre,
hypothyroidism, nodules), with relapse or treatment failure within 18 months as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.answer_merging import same_answer, spelling_pairs
from sparge.data.encoder import Encoder
from sparge.data.levels import abbreviated_levels
from sparge.data.plausible import impossible_values
from sparge.data.unit_columns import read_unit_columns, unit_column_pairs

N = 300
OUTCOME = "Relapse/treatment failure <18m"
GOITRE = ["0", "1", "2", "Grade 0", "Grade 1", "Grade 2", "WHO 0", "WHO 1", "WHO 2", "none",
          "palpable", "visible"]
TIRADS = ["no nodules", "TR1", "TR2", "TR3", "TR4", "TR5", "TIRADS 2", "TIRADS 4", "U2",
          "U3", "U4", "U5"]
BETHESDA = ["Thy2", "2", "Bethesda II", "II", "Bethesda V", "Thy3a", "III", "3", "1", "4",
            "Bethesda VI", "V", "Thy5", "Thy3f"]
DIAGNOSES = ["Graves' disease", "graves disease", "GD", "GRAVES", "Graves", "Grave's",
             "Graves dz", "Hashimoto's", "Hashimotos", "TMNG", "toxic MNG",
             "toxic multinodular goiter", "Toxic multinodular goitre", "STN",
             "solitary toxic nodule"]
SMOKING = ["No", "non-smoker", "never smoked", "Never", "current", "Former", "Ex-smoker",
           "stopped 2015", "ex", "Yes"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(89)
    ng = rng.random(N) < 0.12  # a second laboratory reports free T4 in ng/dL
    ft4_pmol = rng.lognormal(np.log(20), 0.5, N)
    ft4 = np.where(ng, (ft4_pmol / 12.87).round(2).astype(str),
                   ft4_pmol.round(1).astype(str)).astype(object)
    heart = rng.integers(58, 130, N).astype(object)
    heart[17] = 720
    cas = rng.integers(0, 5, N).astype(object)
    cas[40] = 9
    return pd.DataFrame({
        "Patient ID": [f"TC{100000 + i}" for i in range(N)],
        "Age": rng.integers(18, 85, N),
        "Smoking status": rng.choice(SMOKING, N),
        "Diagnosis": rng.choice(DIAGNOSES, N),
        "TSH (mU/L)": rng.choice(["<0.01", "0.02", "1.4", "4.5", "<0.005"], N),
        "Free T4": ft4,
        "FT4 units": np.where(ng, "ng/dL", "pmol/L"),
        "TED CAS (0-7)": cas,
        "Goitre (WHO grade)": rng.choice(GOITRE, N),
        "Nodule TI-RADS": rng.choice(TIRADS, N),
        "Cytology (Bethesda)": rng.choice(BETHESDA, N),
        "Heart rate (bpm)": heart,
        "AF": rng.choice(["No", "N", "no", "AF", "Yes", "Y"], N, p=[.4, .2, .2, .1, .05, .05]),
        OUTCOME: rng.choice(["Yes", "No", "N", "Y"], N),
    })


@pytest.fixture(scope="module")
def encoder(export) -> Encoder:
    return Encoder(label_column=OUTCOME, id_column="Patient ID").fit(export)


def _said(enc: Encoder) -> str:
    return " ".join(enc.report_.notes + enc.report_.warnings)


def test_free_t4_is_read_in_each_patients_unit_and_the_unit_column_left_out(encoder, export):
    """Free T4 beside "FT4 units" (pmol/L, ng/dL): the ng/dL values, 13 times smaller,
    were read as pmol/L, and the unit column became a feature."""
    assert encoder.roles_["FT4 units"] == "ignore"
    assert "FT4 units" not in encoder.feature_names_out_
    X = encoder.transform(export)
    got = X[:, list(encoder.feature_names_out_).index("Free T4")]
    ng = (export["FT4 units"] == "ng/dL").to_numpy()
    want = export["Free T4"].astype(float).to_numpy() * np.where(ng, 12.87, 1.0)
    np.testing.assert_allclose(got, want, rtol=0.01)
    said = _said(encoder)
    assert "'FT4 units'" in said and "gives another column's unit" in said
    assert "1 ng/dL = 12.9 pmol/L" in said
    # a new patient's plain number with its unit column is read in that unit
    new = export.iloc[[0]].copy()
    new["Free T4"], new["FT4 units"] = "1.1", "ng/dL"
    assert encoder.transform(new)[0, list(encoder.feature_names_out_).index("Free T4")] \
        == pytest.approx(14.16, abs=0.05)


def test_a_unit_written_in_the_cells_of_free_t4_is_converted_without_a_unit_column():
    """The same export without the unit column: "2.56 ng/dL" among plain pmol/L values."""
    rng = np.random.default_rng(0)
    pmol = rng.lognormal(np.log(20), 0.4, 120).round(1)
    cells = [f"{v / 12.87:.2f} ng/dL" if i % 8 == 0 else str(v) for i, v in enumerate(pmol)]
    df = pd.DataFrame({"Free T4": cells, "Age": rng.integers(20, 80, 120),
                       "Outcome": rng.choice(["Yes", "No"], 120)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    np.testing.assert_allclose(X[:, list(enc.feature_names_out_).index("Free T4")], pmol,
                               rtol=0.01)


def test_a_unit_column_is_paired_with_its_value_column_only():
    df = pd.DataFrame({"Calcium": ["2.4", "9.6"], "Units": ["mmol/L", "mg/dL"],
                       "Grade": ["mild", "severe"], "Grade units": ["mild", "severe"],
                       "Weight": ["70", "150"], "Weight unit": ["kg", "lb"]})
    assert unit_column_pairs(df) == {"Units": "Calcium", "Weight unit": "Weight"}
    out = read_unit_columns(df)
    assert out["Calcium"].tolist() == ["2.4 mmol/L", "9.6 mg/dL"]
    assert out["Weight"].tolist() == ["70 kg", "150 lb"]
    # a column named as a unit that holds other words is left alone
    assert out["Grade"].tolist() == ["mild", "severe"]
    plain = pd.DataFrame({"Units of alcohol": ["14", "0"], "Age": ["40", "50"]})
    assert unit_column_pairs(plain) == {} and read_unit_columns(plain) is plain


def test_the_thyroid_grades_are_ordered_scales(encoder):
    """The WHO goitre grade (12 spellings of 3), Bethesda with the UK's Thy categories and
    TI-RADS with the BTA's U grades were coded alphabetically."""
    goitre = encoder.table_.levels("Goitre (WHO grade)")
    assert encoder.table_.is_ordered("Goitre (WHO grade)")
    assert {goitre[a] for a in ("0", "Grade 0", "WHO 0", "none")} == {0}
    assert {goitre[a] for a in ("1", "Grade 1", "WHO 1", "palpable")} == {1}
    assert {goitre[a] for a in ("2", "Grade 2", "WHO 2", "visible")} == {2}
    cyto = encoder.table_.levels("Cytology (Bethesda)")
    assert encoder.table_.is_ordered("Cytology (Bethesda)")
    assert cyto["Thy2"] == cyto["II"] == cyto["2"] == cyto["Bethesda II"] == 2
    assert cyto["Thy3a"] == cyto["III"] == 3 and cyto["Thy3f"] == cyto["4"] == 4
    assert cyto["Thy5"] == cyto["Bethesda VI"] == 6 > cyto["V"] == 5
    us = encoder.table_.levels("Nodule TI-RADS")
    assert us["no nodules"] == 0 < us["TR1"] < us["TR2"] == us["U2"] == us["TIRADS 2"] \
        < us["U3"] < us["TIRADS 4"] == us["TR4"] < us["TR5"] == us["U5"]


def test_a_diagnosis_spelled_with_an_apostrophe_or_the_british_way_is_one_answer(encoder):
    """"Graves' disease" and "graves disease", "Hashimoto's" and "Hashimotos", "goitre"
    and "goiter" were coded apart; the other spellings of Graves' disease are offered as
    one (not merged by default: "GD" is gestational diabetes elsewhere)."""
    dx = encoder.table_.levels("Diagnosis")
    assert dx["Graves' disease"] == dx["graves disease"]
    assert dx["Hashimoto's"] == dx["Hashimotos"]
    assert dx["toxic multinodular goiter"] == dx["Toxic multinodular goitre"]
    assert dx["GD"] != dx["Graves' disease"]
    offered = {frozenset(p) for p in encoder.report_.answers_two_ways.get("Diagnosis", [])}
    together = {a for p in offered for a in p}
    assert {"GD", "Graves dz", "toxic MNG"} <= together
    assert frozenset({"STN", "solitary toxic nodule"}) in offered
    # an apostrophe or a British spelling only: a sign is no spelling
    assert spelling_pairs(["Oedema", "edema", "ER-", "ER", "HER2+"]) == [["edema", "Oedema"]]


def test_a_smoker_who_stopped_in_a_year_is_a_former_smoker_not_a_yes(encoder):
    """"stopped 2015" was offered into "Yes": a yes with its year."""
    pairs = abbreviated_levels(SMOKING, "Smoking status")
    assert ("stopped 2015", "Yes") not in pairs
    smoking = encoder.table_.levels("Smoking status")
    assert smoking["stopped 2015"] == smoking["Former"] != smoking["Yes"]
    # a yes with its year in another yes/no column is still offered as the yes
    assert ("stroke 2017", "Y") in abbreviated_levels(["Y", "N", "stroke 2017"], "Prior stroke")


def test_the_columns_own_name_as_an_answer_is_its_yes(encoder):
    """"AF" in a column "AF" was a third answer beside Yes and No."""
    af = encoder.table_.levels("AF")
    assert af["AF"] == af["Yes"] == af["Y"] != af["No"]
    assert same_answer("Diabetes", "yes", "Diabetes")
    assert not same_answer("Diabetes", "no", "Diabetes")


def test_a_heart_rate_of_720_and_a_score_past_the_range_its_name_gives_are_impossible():
    """Heart rate 720 bpm and TED CAS 9 in "TED CAS (0-7)" were used as given."""
    rates = [72, 88, 96, 110, 64] * 20 + [720]
    assert impossible_values("Heart rate (bpm)", rates).nonzero()[0].tolist() == [100]
    assert not impossible_values("HR variability (ms)", [40, 720] + [50] * 50).any()
    cas = [0, 1, 2, 3, 4] * 20 + [9]
    assert impossible_values("TED CAS (0-7)", cas).nonzero()[0].tolist() == [100]
    assert not impossible_values("Age (18-65)", [30, 70] * 30).any()


def test_a_thyroid_clinics_drugs_are_read_by_drug_and_dose():
    """54 spellings of a current medication ("CMZ 40", "Carbimazole 40 mg once daily",
    "Eltroxin 75", "LT4 75 micrograms") made the column free text, left out."""
    meds = ["CMZ 40", "carbimazole 40mg od", "Carbimazole 40 mg once daily", "CMZ 20",
            "carbimazole 20mg", "Eltroxin 75", "LT4 75 micrograms", "thyroxine 75mcg od",
            "levothyroxine 100mcg", "Eltroxin 100", "PTU 150 bd", "propylthiouracil 50mg bd",
            "block and replace", "carbimazole 10mg + propranolol 40mg bd", "none", "nil"]
    rng = np.random.default_rng(3)
    # 34 answers: more than max_levels, were they not read as drugs and doses
    meds += [f"carbimazole {d}mg" for d in (2.5, 7.5, 12.5, 25, 35, 45, 50, 60)] + \
        [f"Eltroxin {d}" for d in (12.5, 37.5, 62.5, 87.5, 112, 137, 175, 200, 225, 250)]
    df = pd.DataFrame({"Current medication": meds + rng.choice(meds, 200).tolist(),
                       "Age": rng.integers(20, 80, 200 + len(meds)),
                       "Outcome": rng.choice(["Yes", "No"], 200 + len(meds))})
    enc = Encoder(label_column="Outcome").fit(df)
    codes = enc.table_.levels("Current medication")
    assert enc.roles_["Current medication"] == "categorical"
    assert codes["CMZ 40"] == codes["carbimazole 40mg od"] == \
        codes["Carbimazole 40 mg once daily"] != codes["CMZ 20"]
    assert codes["Eltroxin 75"] == codes["LT4 75 micrograms"] == codes["thyroxine 75mcg od"]
    assert codes["levothyroxine 100mcg"] == codes["Eltroxin 100"] != codes["Eltroxin 75"]
    assert codes["PTU 150 bd"] != codes["propylthiouracil 50mg bd"]
    assert len(set(codes.values())) == 9 + 18
    # a decimal dose is no other spelling of a dose ten times larger
    assert codes["carbimazole 2.5mg"] != codes["carbimazole 25mg"]
    assert not same_answer("apixaban 2.5mg", "apixaban 25mg", "Anticoagulant")


def test_a_dose_never_given_and_a_score_not_applicable_do_not_leave_patients_out():
    """171 of 454 patients trained: "RAI dose (MBq)" empty for the 86 % never given
    radioiodine, and "n/a" in a numeric score (eye disease activity, for the patients
    without Graves' disease) counted as gaps, while "n/a" in a text column did not."""
    rng = np.random.default_rng(5)
    n = 200
    rai = np.where(rng.random(n) < 0.15, rng.choice(["400", "550", "800"], n), "")
    graves = rng.random(n) < 0.5
    cas = np.where(graves, rng.choice(["0", "1", "2", "3", "", "-"], n), "n/a")
    df = pd.DataFrame({"Age": rng.integers(20, 80, n).astype(str),
                       "TSH": rng.choice(["0.01", "1.2", "3.4"], n),
                       "FT4": rng.normal(20, 5, n).round(1).astype(str),
                       "Weight": rng.normal(75, 10, n).round(1).astype(str),
                       "Heart rate": rng.integers(60, 110, n).astype(str),
                       "TED CAS (0-7)": cas, "RAI dose (MBq)": rai,
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.untreated_gaps_ == ["RAI dose (MBq)"]
    said = _said(enc)
    assert "'RAI dose (MBq)', a treatment's dose, is empty for" in said
    assert "'TED CAS (0-7)' (" in said
    # those left out miss a real value (a Graves' patient's CAS written empty or "-")
    missing_cas = np.isin(cas, ["", "-"])
    assert not enc.keep_patients_[~missing_cas].tolist().count(False)
    # a dose column that writes 0 for no treatment has real gaps where empty
    zero = df.assign(**{"RAI dose (MBq)": np.where(rai == "", "0", rai)})
    zero.loc[:120, "RAI dose (MBq)"] = ""
    assert Encoder(label_column="Outcome").fit(zero).untreated_gaps_ == []
    # "N/A", the only gap a lab column writes, is still a value not available
    lab = df.assign(FT4=np.where(rng.random(n) < 0.3, "N/A", df["FT4"]))
    enc = Encoder(label_column="Outcome").fit(lab)
    assert "'FT4' (" not in _said(enc)


def test_a_goitre_grade_is_shown_by_its_number():
    from sparge.services.display import answers_by_code

    enc = Encoder(label_column="Outcome").fit(pd.DataFrame({
        "Goitre (WHO grade)": GOITRE * 10, "Outcome": ["Yes", "No"] * 60}))
    assert answers_by_code(enc, "Goitre (WHO grade)") == {0.0: "Grade 0", 1.0: "Grade 1",
                                                          2.0: "Grade 2"}


def test_a_negative_antibody_among_titres_is_read_below_the_laboratorys_limit():
    """TRAb "negative" (17) and TPO "neg" (22) beside "<0.8" and "<9" were set to missing;
    "positive" says no value and stays a gap."""
    rng = np.random.default_rng(8)
    n = 150
    trab = np.where(rng.random(n) < 0.6, rng.uniform(1, 40, n).round(1).astype(str),
                    rng.choice(["<0.8", ">40", "negative", "positive"], n))
    df = pd.DataFrame({"TRAb (IU/L)": trab, "Age": rng.integers(20, 80, n),
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    got = X[:, list(enc.feature_names_out_).index("TRAb (IU/L)")]
    assert np.all(got[trab == "negative"] == 0.8)
    assert np.all(np.isnan(got[trab == "positive"]))
    assert "below the detection limit or negative" in _said(enc)
    # "negative" is no number in another column
    other = df.rename(columns={"TRAb (IU/L)": "Glucose"})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(other)
    assert np.all(np.isnan(X[trab == "negative", list(enc.feature_names_out_).index("Glucose")]))


def test_a_copied_columns_reading_is_said_once():
    """"FT3" was dropped as a copy of "Free T3 (pmol/L)", then a note read its limits."""
    rng = np.random.default_rng(9)
    ft3 = np.where(rng.random(120) < 0.1, ">30.8", rng.uniform(3, 25, 120).round(1).astype(str))
    df = pd.DataFrame({"Free T3 (pmol/L)": ft3, "FT3": ft3, "Age": rng.integers(20, 80, 120),
                       "Outcome": rng.choice(["Yes", "No"], 120)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert [d.column for d in enc.report_.dropped_columns] == ["FT3"]
    said = _said(enc)
    assert "Column 'Free T3 (pmol/L)'" in said and "Column 'FT3'" not in said


def test_the_answer_most_left_out_is_named():
    """The thyroid clinic left out most of its Hashimoto's and nodule patients; the report
    named only the outcome's shift."""
    from sparge.data.encoding_notes import answer_shift

    rng = np.random.default_rng(11)
    n = 300
    dx = rng.choice([1.0, 2.0, 3.0], n, p=[0.6, 0.25, 0.15])
    keep = np.where(dx == 2.0, rng.random(n) < 0.3, rng.random(n) < 0.9)
    X = np.column_stack([dx, rng.normal(size=n)])
    words = {1.0: "Graves' disease", 2.0: "Hashimoto's", 3.0: "Nodule"}
    said = answer_shift(X, keep, ["Diagnosis", "TSH"], np.array([True, False]),
                        lambda col, code: words[code])
    assert said.startswith(""" They differ in 'Diagnosis': "Hashimoto's" is """)
    assert "fewer patients like them" in said
    # patients left out at random: nothing to name
    even = rng.random(n) < 0.7
    assert answer_shift(X, even, ["Diagnosis", "TSH"], np.array([True, False]),
                        lambda col, code: words[code]) == ""
