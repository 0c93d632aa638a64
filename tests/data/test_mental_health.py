"""A community mental-health team's caseload export (walk-through 52): "NK" for not
known, an outcome "Y - S3", a Mental Health Act status "N/A - informal" and sections
written every way, previous admissions "2 (last 2021)", lithium levels "Li 0.8", a HoNOS
measured again at a 3-month review (a leak), and the care coordinator's name."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.column_kinds import later_measurement_of, names_staff
from sparge.data.levels import abbreviated_levels, shown_answer
from sparge.data.parsing import parse_numeric

OUTCOME = "Readmitted within 90 days"


def _caseload(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    readmitted = rng.random(n) < 0.3
    honos = rng.normal(12, 4, n).round() + 3 * readmitted
    return pd.DataFrame({
        "Age": rng.integers(18, 80, n).astype(str),
        "HoNOS total": honos.astype(int).astype(str),
        "HoNOS at 3/12 review": (honos + rng.normal(0, 2, n) + 6 * readmitted).round()
        .astype(int).astype(str),
        "MHA status": rng.choice(["Informal", "N/A - informal", "S3", "Section 3", "CTO"], n),
        "Care coordinator": rng.choice(["J. Smith (CPN)", "R Jones OT", "unallocated",
                                        "S. Begum CPN"], n),
        OUTCOME: np.where(readmitted, rng.choice(["Y", "Yes", "Y - S3"], n),
                          rng.choice(["N", "No", "NK"], n, p=[0.45, 0.45, 0.1]))})


def test_nk_is_not_known_and_a_noted_yes_is_a_yes_in_the_outcome():
    """"NK" was a third outcome (chance read 33 %) and 25 "Y - S3" were set aside."""
    df = _caseload()
    enc = Encoder(label_column=OUTCOME)
    enc.fit_transform(df)
    labels = pd.Series(enc.labels(df)).dropna()
    assert set(labels) == {"Yes", "No"}
    assert (labels == "Yes").sum() == df[OUTCOME].str.startswith("Y").sum()
    assert pd.Series(enc.labels(df)).isna().sum() == (df[OUTCOME] == "NK").sum()


@pytest.mark.parametrize("cell", ["NK", "N/K", "n.k."])
def test_nk_is_a_gap_in_a_numeric_column(cell):
    values, info = parse_numeric(pd.Series(["3", cell, "5"], name="Previous admissions"))
    assert np.isnan(values[1]) and not info["bad"]


def test_not_applicable_with_a_reason_that_is_an_answer_is_that_answer():
    """122 "N/A - informal" beside 224 "Informal" were read as gaps; "N/A - not on
    clozapine" still does not apply. A new patient's reads the same."""
    df = _caseload()
    df.loc[:40, "Clozapine level"] = "N/A - not on clozapine"
    df.loc[41:, "Clozapine level"] = np.random.default_rng(1).uniform(0.2, 0.9, len(df) - 41
                                                                      ).round(2).astype(str)
    enc = Encoder(label_column=OUTCOME, max_patient_missing=None)
    X = enc.fit_transform(df)
    j = enc.feature_names_out_.index("MHA status")
    informal = enc.table_.levels("MHA status")["Informal"]
    assert (X[(df["MHA status"] == "N/A - informal").to_numpy(), j] == informal).all()
    assert any("read as that answer ('Informal')" in n for n in enc.report_.notes)
    k = enc.feature_names_out_.index("Clozapine level")
    assert np.isnan(X[:41, k]).all()
    new = enc.transform(pd.DataFrame({"MHA status": ["N/A - informal"], "Age": ["40"]}))
    assert new[0, j] == informal


def test_a_count_with_a_noted_year_and_an_element_symbol_are_read():
    """"2 (last 2021)" made 'Previous admissions' a column of answers; "Li 0.59" was set
    to missing in 'Lithium level'."""
    values, info = parse_numeric(pd.Series(["2 (last 2021)", "1", "3+", "(2019)"],
                                           name="Previous admissions"))
    assert values[:3].tolist() == [2, 1, 3] and [b[1] for b in info["bad"]] == ["(2019)"]
    li, info = parse_numeric(pd.Series(["Li 0.59", "0.8", "Li: 1.1"], name="Lithium level"))
    assert li.tolist() == [0.59, 0.8, 1.1] and not info["bad"]
    na, _ = parse_numeric(pd.Series(["Na 138", "141"], name="Sodium (mmol/L)"))
    assert na.tolist() == [138, 141]


def test_the_shown_answer_is_never_the_one_with_a_note():
    """The merge showed "1" (97 patients) as "1 (last 2021)": a date written on patients
    who had none."""
    assert shown_answer(["1 (last 2021)", "1"]) == "1"
    assert shown_answer(["Yes (see notes)", "Yes", "Y"]) == "Yes"
    assert shown_answer(["W", "White"]) == "White"


def test_mental_health_act_sections_with_their_names_are_one_answer():
    pairs = dict(abbreviated_levels(
        ["S37", "s.37", "Section 37 (hospital order)", "S37/41", "37/41 restricted",
         "CTO", "S17A CTO", "on CTO", "Informal", "Not detained", "S3", "Section 3"],
        "MHA status"))
    assert pairs["Section 37 (hospital order)"] == "S37"
    assert pairs["37/41 restricted"] == "S37/41"
    assert pairs["S17A CTO"] == pairs["on CTO"] == "CTO"
    assert pairs["Not detained"] == "Informal" and pairs["S3"] == "Section 3"
    # a hospital order is no section 3
    assert "S37" not in pairs or pairs["S37"] != "Section 3"


def test_a_later_measurement_and_the_staffs_names_are_left_out():
    """"HoNOS at 3/12 review" (AUC 0.91 on the helper's data) was a feature, first among
    the biomarkers to compare; the care coordinator made look-alikes."""
    enc = Encoder(label_column=OUTCOME, max_patient_missing=None)
    enc.fit_transform(_caseload())
    assert enc.roles_["HoNOS at 3/12 review"] == "ignore"
    assert enc.roles_["HoNOS total"] == "numeric"
    assert enc.roles_["Care coordinator"] == "ignore"
    said = " ".join(enc.report_.warnings + enc.report_.notes)
    assert "'HoNOS at 3/12 review' (a later measurement of 'HoNOS total')" in said
    assert "names the member of staff a patient is with" in said
    # a role the user gives is kept
    enc = Encoder(label_column=OUTCOME, max_patient_missing=None,
                  roles={"HoNOS at 3/12 review": "numeric", "Care coordinator": "categorical"})
    enc.fit_transform(_caseload())
    assert enc.roles_["HoNOS at 3/12 review"] == "numeric"
    assert enc.roles_["Care coordinator"] == "categorical"


@pytest.mark.parametrize("name, columns, of", [
    ("Weight at 6 months", ["Weight (kg)"], None),  # its unit differs: not the same name
    ("Weight at 6 months", ["Weight"], "Weight"),
    ("PHQ-9 12-month follow-up", ["PHQ-9 baseline"], "PHQ-9 baseline"),
    ("BP at discharge", ["BP"], "BP"),
    ("Week 12 HbA1c", ["HbA1c"], "HbA1c"),
    ("Age at 6 months", ["Sex"], None),
    ("Months since diagnosis", ["Diagnosis"], None),
])
def test_later_measurements_by_name(name, columns, of):
    assert later_measurement_of(name, columns) == of


def test_a_yes_no_staff_column_is_a_feature():
    """"Consultant" answered Yes/No says whether one was involved: kept."""
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"Consultant": rng.choice(["Yes", "No"], 120),
                       "Age": rng.integers(20, 80, 120).astype(str),
                       "Out": rng.choice(["Yes", "No"], 120)})
    enc = Encoder(label_column="Out")
    enc.fit_transform(df)
    assert names_staff("Consultant") and enc.roles_["Consultant"] == "categorical"


def test_nhs_ethnic_categories_with_their_letter_or_census_code_are_one_answer():
    """"A - White British", "WBRI" and "White British" were three answers; "Z - Not
    stated" was an answer beside "Not stated" (a gap)."""
    pairs = dict(abbreviated_levels(
        ["White - British", "A - White British", "WBRI", "H - Indian", "Indian",
         "Asian Indian", "J - Pakistani", "Pakistani", "M - Caribbean", "Black Caribbean",
         "N - African", "Black or Black British - African", "Black African",
         "C - Any other White background", "White Other", "S - Other", "Other"],
        "Ethnicity"))
    assert pairs["A - White British"] == pairs["WBRI"] == "White - British"
    assert pairs["H - Indian"] == pairs["Asian Indian"] == "Indian"
    assert pairs["J - Pakistani"] == "Pakistani"
    assert pairs["M - Caribbean"] == "Black Caribbean"
    assert pairs["N - African"] == pairs["Black or Black British - African"] == "Black African"
    assert pairs["C - Any other White background"] == "White Other"
    assert pairs["S - Other"] == "Other"
    # Indian and Pakistani, Caribbean and African stay apart
    assert "Indian" not in pairs and "Pakistani" not in pairs
    values, info = parse_numeric(pd.Series(["1", "Z - Not stated"], name="x"))
    assert np.isnan(values[1]) and not info["bad"]


def test_risk_levels_written_every_way_are_ordered():
    """Risk level was coded "H 1, high 2, HIGH - see plan 3, L 4 …", unordered."""
    from sparge.data.tables import scale_codes, scale_of
    levels = ["LOW", "L", "low", "Low/Med", "low to moderate", "L-M", "Med", "medium",
              "mod", "Moderate", "M", "High", "HIGH - see plan", "H"]
    assert scale_of(levels) == "low/medium/high (banded)"
    codes = scale_codes(levels, "low/medium/high (banded)")
    assert {codes[x] for x in ("LOW", "L", "low")} == {1}
    assert {codes[x] for x in ("Low/Med", "low to moderate", "L-M")} == {2}
    assert {codes[x] for x in ("Med", "medium", "mod", "Moderate", "M")} == {3}
    assert {codes[x] for x in ("High", "HIGH - see plan", "H")} == {5}
    # without bands the three levels keep their codes 1, 2, 3
    assert scale_of(["Low", "Medium", "High"]) == "low/medium/high"
    # a sex column is no risk scale
    assert scale_of(["M", "F"]) is None


def test_phq9_and_gad7_bands_read_as_their_middle():
    """"moderate" in a PHQ-9 column was set to missing ("expected numbers")."""
    phq, info = parse_numeric(pd.Series(["moderate", "14", "severe", "moderately severe",
                                         "mild", "minimal"], name="PHQ-9"))
    assert phq.tolist() == [12, 14, 23.5, 17, 7, 2] and not info["bad"]
    assert [c[1] for c in info["scale_word"]] == ["moderate", "severe", "moderately severe",
                                                  "mild", "minimal"]
    gad, _ = parse_numeric(pd.Series(["severe", "mild"], name="GAD-7 score"))
    assert gad.tolist() == [18, 7]
    # elsewhere "moderate" is no number
    other, info = parse_numeric(pd.Series(["moderate", "4"], name="Pain"))
    assert np.isnan(other[0]) and info["bad"]


def test_a_coded_column_of_many_spellings_is_kept_when_they_pair_into_few_answers():
    """The care cluster, 14 clusters in 61 spellings ("8", "cl 8", "Cluster 8", "C8",
    "8 - Non-psychotic"), was left out with "more than 30 different text answers"."""
    rng = np.random.default_rng(5)
    clusters = rng.choice([3, 4, 6, 7, 8, 10, 11, 12, 13, 14, 16, 17], 600)
    forms = ["{}", "cl {}", "Cluster {}", "C{}", "{} - Psychosis"]
    cells = [forms[i % 5].format(c) for i, c in enumerate(clusters)]
    df = pd.DataFrame({"Care cluster": cells, "Age": rng.integers(18, 80, 600).astype(str),
                       "Out": rng.choice(["Yes", "No"], 600)})
    enc = Encoder(label_column="Out")
    enc.fit_transform(df)
    assert enc.roles_["Care cluster"] == "categorical"
    pairs = enc.report_.answers_two_ways["Care cluster"]
    targets = dict(pairs)
    # every spelling reaches its cluster's plain number
    for form in forms[1:]:
        lv = form.format(8)
        while lv in targets:
            lv = targets[lv]
        assert lv in ("8", "Cluster 8")
    # free text of as many answers stays out
    df["Care cluster"] = [f"note {i % 61} about the visit" for i in range(600)]
    enc = Encoder(label_column="Out")
    enc.fit_transform(df)
    assert enc.roles_["Care cluster"] == "ignore"


def test_a_new_patients_file_reads_not_applicable_with_an_answer_as_training_did():
    """Walk-through 53: the New patient page's file read "N/A - informal" as a gap (its
    reader knew nothing of the model's answers), where the Data page read "Informal"."""
    from sparge.data.reading import read_table
    df = _caseload()
    enc = Encoder(label_column=OUTCOME, max_patient_missing=None)
    enc.fit_transform(df)
    # ... "not detained" another name of informal (its synonym group); "discharged" none
    csv = b"Age,MHA status\n40,N/A - informal\n50,N/A - discharged\n60,N/A - not detained\n"
    assert read_table(csv)["MHA status"].tolist() == ["N/A", "N/A", "N/A"]
    read = read_table(csv, answers=enc.answers())
    assert [v.lower() for v in read["MHA status"]] == ["informal", "n/a", "informal"]
    j = enc.feature_names_out_.index("MHA status")
    assert enc.transform(read)[0, j] == enc.table_.lookup("MHA status", "Informal")


def test_the_shown_answer_is_the_plain_word_in_title_case():
    """Risk level showed "HIGH - see plan" for every high patient and "LOW" for low."""
    assert shown_answer(["H", "high", "HIGH - see plan", "High"]) == "High"
    assert shown_answer(["LOW", "L", "low", "Low"]) == "Low"
    assert shown_answer(["tia", "TIA"]) == "TIA"
    assert shown_answer(["CTO", "on CTO", "S17A CTO"], "MHA status") == "CTO"


def test_smoking_yes_per_day_non_binary_and_nil_sections_are_offered():
    pairs = dict(abbreviated_levels(["Y", "N", "Current", "Never", "Yes - 20/day"],
                                    "Smoking status"))
    assert pairs["Y"] == pairs["Yes - 20/day"] == "Current" and pairs["N"] == "Never"
    assert dict(abbreviated_levels(["Male", "NB", "Non-binary"], "Gender"))["NB"] == \
        "Non-binary"
    assert dict(abbreviated_levels(["Informal", "nil", "S3"], "MHA status"))["nil"] == \
        "Informal"


def test_a_downloaded_count_beside_a_limit_is_written_as_a_whole_number():
    """The look-alike CSV wrote "2.0" beside "≥3" (a column of numbers and limits)."""
    from sparge.data.safe_text import to_csv
    from sparge.services.display import file_values
    values = pd.DataFrame({"Previous admissions": [2.0, 3.0, 0.0, np.nan]})
    cells = pd.DataFrame({"Previous admissions": ["2 (last 2021)", "3+", "none", ""]})
    out = file_values(values, None, cells)
    assert out["Previous admissions"].tolist()[:3] == [2.0, "≥3", 0.0]
    assert to_csv(out, float_format="%.10g").splitlines() == [
        "Previous admissions", "2", "≥3", "0", '""']


def test_a_systems_own_id_is_guessed_before_the_national_number():
    """Walk-through 52's "RiO ID" was not named like an ID; "NHS Number" (written two ways,
    "410 614 2598" and "6254570352") named the patients."""
    from sparge.data.column_guess import guess_columns, named_like_id
    df = pd.DataFrame({"RiO ID": [f"RIO{i}" for i in range(30)],
                       "NHS Number": [f"{4000000000 + i}" for i in range(30)],
                       "Age": [str(40 + i) for i in range(30)],
                       OUTCOME: ["Y", "N"] * 15})
    assert guess_columns(df)[0] == "RiO ID"
    assert named_like_id("EMIS_ID") and not named_like_id("Ward ID")


def test_employment_and_accommodation_written_every_way_are_offered():
    """Walk-through 52: "FT employed" and "Employed (PT)" beside "Employed", "On ESA" beside
    "Long-term sick", "NFA" beside "Homeless" stayed apart."""
    pairs = dict(abbreviated_levels(
        ["Employed", "FT employed", "Employed (PT)", "On ESA", "Long-term sick",
         "Unemployed", "JSA", "Student", "Retired", "01 - Employed",
         "04 - Long term sick or disabled"], "Employment status"))
    assert pairs["FT employed"] == pairs["Employed (PT)"] == pairs["01 - Employed"] == \
        "Employed"
    assert pairs["On ESA"] == pairs["04 - Long term sick or disabled"] == "Long-term sick"
    assert pairs["JSA"] == "Unemployed" and not {"Student", "Retired"} & set(pairs)
    pairs = dict(abbreviated_levels(
        ["Settled", "Own home", "NFA", "Homeless", "Supported accommodation", "Supported",
         "Care home", "Nursing home", "With family", "Lives alone"], "Accommodation"))
    assert pairs == {"NFA": "Homeless", "Supported": "Supported accommodation",
                     "Own home": "Settled"}
