"""A respiratory clinic's COPD export (walk-through 45): FEV1/FVC written as a fraction
and as a percentage, FEV1 in mL among litres, pack-years written "py", the COPD Assessment
Test written "CAT 26", "none" exacerbations, a smoking status with the year of quitting,
and the COPD grades and groups by their names."""

from __future__ import annotations

import collections

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.levels import abbreviated_levels
from sparge.data.plausible import quantity_of
from sparge.services.workflow import encode_cohort


def _spirometry(n: int = 300, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ratio = rng.uniform(0.35, 0.85, n)
    cells = [f"{r:.2f}" if i % 3 == 0 else (f"{100 * r:.0f}%" if i % 3 == 1 else
                                            f"{100 * r:.0f}") for i, r in enumerate(ratio)]
    fev1 = rng.uniform(0.8, 3.2, n)
    volumes = [f"{v:.2f}" if i % 12 else f"{1000 * v:.0f}" for i, v in enumerate(fev1)]
    df = pd.DataFrame({"ID": range(n), "FEV1/FVC": cells, "FEV1 (L)": volumes,
                       "Age": rng.integers(40, 80, n), "y": rng.choice(["a", "b"], n)})
    return df, ratio, fev1


def test_a_share_written_as_a_fraction_and_a_percentage_is_listed_and_converted():
    """Walk-through 45: 306 FEV1/FVC written 0.62 beside 260 written 62 or "62%", read on
    two scales without a word (a ratio of 45 % showed as +0.9 SD); bare FEV1 in mL among
    litres could only be set to missing."""
    assert quantity_of("FEV1/FVC")[0] == "FEV1/FVC"
    assert quantity_of("FEV1 (L)")[0] == "lung volume"
    assert quantity_of("SpO2 at rest")[0] == "oxygen saturation"
    assert quantity_of("Hct")[1]["L/L"] == (0.1, 0.75)
    # a predicted share or a change is not the quantity
    assert quantity_of("FEV1 % predicted") is None and quantity_of("FEV1 change") is None
    df, ratio, fev1 = _spirometry()
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.units_["FEV1/FVC"] == "%"
    listed = collections.Counter((v[0], v[3]) for v in enc.report_.values_to_check)
    assert listed == {("FEV1/FVC", "fraction"): 100, ("FEV1 (L)", "mL"): 25}
    said = " ".join(enc.report_.warnings)
    assert "'FEV1 (L)' " in said and "most patients" in said
    # the fractions are a third here: the others are "most patients"; when the plain
    # fractions are the most (walk-through 46), the column is read as a fraction and its
    # cells written "62%" are converted exactly (walk-through 58's FiO2)
    assert said.count("most patients") == 2 and "the others" not in said
    most = df.assign(**{"FEV1/FVC": [f"{r:.2f}" if i % 3 else f"{100 * r:.0f}%"
                                     for i, r in enumerate(ratio)]})
    enc = Encoder(id_column="ID", label_column="y").fit(most)
    assert enc.units_["FEV1/FVC"] == "fraction"
    assert "'FEV1/FVC' " not in " ".join(enc.report_.warnings)
    assert any(n.startswith("Column 'FEV1/FVC' is read in 'fraction'") and "in '%' converted"
               in n for n in enc.report_.notes)
    X = enc.transform(most)
    np.testing.assert_allclose(X[:, enc.feature_names_out_.index("FEV1/FVC")], ratio,
                               atol=0.006)
    # the one-click fix converts them: one scale, one unit
    cohort = encode_cohort(df, id_column="ID", label_column="y", clear_far=True)
    got = cohort.X[:, cohort.features.index("FEV1/FVC")]
    np.testing.assert_allclose(got, 100 * ratio, atol=0.51)
    got = cohort.X[:, cohort.features.index("FEV1 (L)")]
    np.testing.assert_allclose(got, fev1, atol=0.006)


def test_pack_years_written_py_and_a_score_after_its_columns_initials_are_read():
    """Walk-through 45: "24 py" beside "40 pack yrs" was set to missing (no conversion to
    'pack yrs'); "CAT 26" in "CAT score" was text, where "18/40" was read."""
    rng = np.random.default_rng(0)
    n = 80
    packs = rng.integers(5, 60, n)
    cat = rng.integers(5, 35, n)
    df = pd.DataFrame({
        "ID": range(n),
        "Pack-years": [f"{p} pack yrs" if i % 4 == 0 else f"{p} py" if i % 4 == 1 else str(p)
                       for i, p in enumerate(packs)],
        "CAT score": [f"CAT {c}" if i % 3 == 0 else f"{c}/40" if i % 3 == 1 else str(c)
                      for i, c in enumerate(cat)],
        "NYHA class": rng.choice(["NYHA 1", "NYHA 2", "NYHA III", "2"], n),
        "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    X = enc.transform(df)
    names = list(enc.feature_names_out_)
    np.testing.assert_array_equal(X[:, names.index("Pack-years")], packs)
    np.testing.assert_array_equal(X[:, names.index("CAT score")], cat)
    # a class named by its initials stays answers
    assert enc.roles_["NYHA class"] == "categorical"
    new = pd.DataFrame({"ID": [1], "Pack-years": ["12 py"], "CAT score": ["cat: 22"],
                        "NYHA class": ["2"]})
    row = enc.transform(new)[0]
    assert row[names.index("Pack-years")] == 12 and row[names.index("CAT score")] == 22


def test_none_reads_as_zero_for_a_new_patient_as_for_the_training_patients():
    """Walk-through 45: a new patient's "none" exacerbations were missing ("Read as
    missing ('none')"), the training patients' 0; a model saved and loaded keeps it."""
    rng = np.random.default_rng(0)
    n = 60
    df = pd.DataFrame({"ID": range(n),
                       "Exacerbations last year": rng.choice(["0", "1", "2", "none", "3"], n),
                       "Hb": rng.choice(["12", "13", "none"], n),
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.zero_columns_ == ["Exacerbations last year"]
    new = pd.DataFrame({"ID": [1], "Exacerbations last year": ["none"], "Hb": ["none"]})
    assert enc.transform(new)[0, 0] == 0 and np.isnan(enc.transform(new)[0, 1])
    again = Encoder.from_dict(enc.to_dict())
    assert again.transform(new)[0, 0] == 0
    # a file saved before: a count in a past window reads "none" as 0 by its name
    # (walk-through 97: frequencies in such a column), a value column's "none" is a gap
    old = enc.to_dict()
    old.get("state", old).pop("zero_columns", None)
    assert Encoder.from_dict(old).transform(new)[0, 0] == 0
    assert np.isnan(Encoder.from_dict(old).transform(new)[0, 1])


def test_a_respiratory_clinics_answers_written_several_ways_are_offered_as_one():
    """Walk-through 45: smoking with the year quit (left out as free text: more than 30
    answers), GOLD grades by name, the 2023 GOLD groups, heart failure as HF or CCF,
    long-term oxygen with its hours."""
    rng = np.random.default_rng(1)
    n = 300
    smoking = [rng.choice(["current", "never", "ex-smoker", f"quit {rng.integers(1980, 2024)}"])
               for _ in range(n)]
    df = pd.DataFrame({"ID": range(n), "Smoking status": smoking,
                       "Age": rng.integers(40, 80, n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.roles_["Smoking status"] == "categorical"
    # one answer beyond doubt in a smoking column: merged by default
    pairs = enc.merged_spellings_["Smoking status"]
    assert "Smoking status" not in enc.report_.answers_two_ways
    assert {b for _, b in pairs} == {"ex-smoker"}
    assert all(a.startswith("quit ") for a, _ in pairs)
    assert sorted(abbreviated_levels(["GOLD 3", "III", "severe", "GOLD 1", "mild",
                                      "very severe", "GOLD 4"], "GOLD stage")) == [
        ("III", "GOLD 3"), ("mild", "GOLD 1"), ("severe", "GOLD 3"),
        ("very severe", "GOLD 4")]
    assert abbreviated_levels(["A", "B", "E", "D", "Group B"], "GOLD group") == [
        ("Group B", "B"), ("D", "E")]
    assert abbreviated_levels(["Yes", "No", "HF", "CCF", "nil", "HFrEF"], "Heart failure") == [
        ("HF", "Yes"), ("CCF", "Yes"), ("nil", "No")]
    assert abbreviated_levels(["Yes", "No", "LTOT 16h", "on LTOT", "nil"], "LTOT") == [
        ("LTOT 16h", "Yes"), ("on LTOT", "Yes"), ("nil", "No")]


def test_a_new_patients_gap_word_that_spells_a_merged_answer_is_that_answer():
    """Walk-through 46: a new patient's Diabetes "nil" was "read as missing" where the
    training patients' "none" and "No" were merged; merged, it is the no (a gap word of
    no group, "n/a", stays a gap; unmerged, "nil" could be either and stays a gap)."""
    from sparge.data.answer_merging import merge_answers
    from sparge.data.levels import shown_answer

    rng = np.random.default_rng(0)
    n = 100
    df = pd.DataFrame({"ID": range(n), "Diabetes": rng.choice(["Yes", "No", "none", "T2DM"], n),
                       "Age": rng.integers(40, 80, n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y", merge_spellings=False).fit(df)
    # (T2DM offered with Yes: walk-through 56)
    assert enc.report_.answers_two_ways == {"Diabetes": [["none", "No"], ["T2DM", "Yes"]]}
    new = pd.DataFrame({"ID": [1, 2], "Diabetes": ["nil", "n/a"], "Age": [50, 60]})
    assert np.isnan(enc.transform(new)[:, 0]).all()
    # by default "none" and "No" are one answer in a Diabetes column (T2DM still offered)
    default = Encoder(id_column="ID", label_column="y").fit(df)
    assert default.merged_spellings_ == {"Diabetes": [["none", "No"]]}
    assert default.report_.answers_two_ways == {"Diabetes": [["T2DM", "Yes"]]}
    X = default.transform(new)
    assert X[0, 0] == default.table_.levels("Diabetes")["No"] and np.isnan(X[1, 0])
    merged = Encoder(id_column="ID", label_column="y", encoding_table=merge_answers(
        enc.table_, enc.report_.answers_two_ways)).fit(df)
    X, report = merged.transform_with_report(new)
    assert X[0, 0] == merged.table_.levels("Diabetes")["No"] and np.isnan(X[1, 0])
    assert "'nil' read as 'No'" in " ".join(report.notes)
    assert report.missing_tokens == {"Diabetes": {"n/a": 1}}
    # initials written in mixed case keep it (walk-through 46 read "HFREF", "MMRC 2")
    assert [shown_answer([w]) for w in ("hfref", "mmrc 2", "hf", "egfr low")] == [
        "HFrEF", "mMRC 2", "HF", "eGFR low"]


def test_inhalers_by_brand_and_a_grade_in_roman_numerals_are_read():
    """Walk-through 46: "Triple" beside "triple therapy", Trelegy or Anoro were never
    offered as one regimen (inhaler regimen read 42 % right); a new patient's mMRC "Grade
    IV" was refused beside the training patients' "Grade 4"."""
    assert abbreviated_levels(["Triple", "triple therapy", "Trelegy", "Anoro", "LABA/LAMA",
                               "LAMA", "Spiriva", "ICS/LABA", "Symbicort", "None"],
                              "Inhaler regimen") == [
        ("triple therapy", "Triple"), ("Trelegy", "Triple"), ("Anoro", "LABA/LAMA"),
        ("Symbicort", "ICS/LABA"), ("Spiriva", "LAMA")]
    rng = np.random.default_rng(0)
    n = 100
    df = pd.DataFrame({"ID": range(n), "mMRC": rng.choice([f"Grade {g}" for g in range(5)], n),
                       "Age": rng.integers(40, 80, n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    # the grade as its number, as an mMRC written "3" or "MRC 3" is (walk-through 103)
    assert enc.roles_["mMRC"] == "numeric"
    new = pd.DataFrame({"ID": [1, 2, 3], "mMRC": ["Grade IV", "grade ii", "Grade V"],
                        "Age": [50, 60, 70]})
    X, report = enc.transform_with_report(new)
    assert X[:2, 0].tolist() == [4.0, 2.0] and np.isnan(X[2, 0])  # no grade V
