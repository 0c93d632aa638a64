"""A memory clinic's export (walk-through 62): an MMSE out of 27 for a few patients, a
MoCA with its education point ("20+1"), a CDR in words, dementia drugs by brand and dose,
B12 in two units, a "Clinic outcome" beside the study's outcome in a time window, "moved
away" beside Yes and No, and a care-home admission's date written only for those
admitted."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.age_dates import event_date_column
from sparge.data.column_guess import guess_columns
from sparge.data.column_kinds import names_staff
from sparge.data.drug_combinations import combination_pairs
from sparge.data.parsing import parse_numeric, score_maximum
from sparge.data.unit_conversion import conversion

OUTCOME = "Care home admission within 2 years"


def _clinic(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    admitted = rng.random(n) < 0.2
    mmse = rng.integers(12, 31, n)
    return pd.DataFrame({
        "NHS number": [f"{4000000000 + i}" for i in range(n)],
        "Referral date": [f"{rng.integers(1, 28)}/0{rng.integers(1, 9)}/2022"
                          for _ in range(n)],
        "Assessing clinician": rng.choice(["Dr Patel", "Sister Jones (CNS)", "Dr Ahmed"], n),
        "MMSE": [f"{m}/30" if i % 3 == 0 else ("24/27" if i % 40 == 1 else str(m))
                 for i, m in enumerate(mmse)],
        "MoCA": [f"{m - 6}+1" if i % 5 == 0 else str(m - 5) for i, m in enumerate(mmse)],
        "CDR": rng.choice(["0.5", "1", "mild", "moderate", "questionable", "2"], n),
        "Clinic outcome": np.where(admitted, "discharged to care home",
                                   rng.choice(["discharged to GP", "ongoing follow-up",
                                               "died", "transferred to CMHT"], n)),
        OUTCOME: np.where(admitted, rng.choice(["Yes", "Y", "Yes - nursing home"], n),
                          rng.choice(["No", "N", "no", "moved away"], n,
                                     p=[0.4, 0.3, 0.28, 0.02])),
        "Date of care home admission": [f"1{rng.integers(0, 9)}/03/2024" if a else ""
                                        for a in admitted]})


def test_an_mmse_out_of_27_for_a_few_patients_keeps_the_column():
    """Nine "24/27" among 230 scores out of 30 left the whole MMSE out."""
    assert score_maximum(["24/30"] * 95 + ["24/27"] * 5) == 30
    assert score_maximum(["6/6"] * 95 + ["6/9"] * 5) is None  # Snellen: not a score
    assert score_maximum(["24/30"] * 80 + ["24/27"] * 20) is None
    enc = Encoder(label_column=OUTCOME, id_column="NHS number").fit(_clinic())
    assert enc.roles_["MMSE"] == "numeric"


def test_a_moca_with_its_education_point_and_a_cdr_in_words():
    values, info = parse_numeric(pd.Series(["20+1", "25 (+1 edu)", "18 + 1", "22",
                                            "30 (+1 edu)", "30+1"], name="MoCA"))
    # the bracket notes a point included (walk-through 63); a MoCA is at most 30
    assert values.tolist() == [21, 25, 19, 22, 30, 30] and not info["gestation"]
    values, _ = parse_numeric(pd.Series(["0.5", "questionable", "mild", "moderate",
                                         "severe"], name="CDR"))
    assert values.tolist() == [0.5, 0.5, 1, 2, 3]
    gestation, _ = parse_numeric(pd.Series(["38+4", "40"], name="Gestation"))
    assert gestation[0] == pytest.approx(38 + 4 / 7)


def test_the_study_outcome_in_a_time_window_is_guessed_and_moved_away_is_a_gap():
    df = _clinic()
    assert guess_columns(df)[1] == OUTCOME
    enc = Encoder(label_column=OUTCOME, id_column="NHS number").fit(df)
    assert set(pd.Series(enc.labels(df)).dropna()) == {"Yes", "No"}
    assert enc.roles_["Assessing clinician"] == "ignore" and names_staff("Assessed by")
    # an event's date written only for the patients admitted is no date to age them at
    assert event_date_column(df) == "Referral date"


def test_dementia_drugs_by_brand_and_dose_and_b12_in_two_units():
    pairs = dict(combination_pairs(["Aricept", "Donepezil 10mg", "DONEPEZIL 10 MG",
                                    "donepezil", "Ebixa 20mg", "memantine",
                                    "Exelon patch 4.6", "rivastigmine", "Reminyl XL 24mg",
                                    "galantamine"], "Dementia medication"))
    assert pairs == {"Aricept": "donepezil", "Donepezil 10mg": "donepezil",
                     "DONEPEZIL 10 MG": "donepezil", "Ebixa 20mg": "memantine",
                     "Exelon patch 4.6": "rivastigmine", "Reminyl XL 24mg": "galantamine"}
    assert conversion("B12", "pmol/L", "ng/L").factor == pytest.approx(1.355, abs=1e-3)
    assert combination_pairs(["Exelon 9.5mg/24h", "rivastigmine"], "Dementia medication") \
        == [("Exelon 9.5mg/24h", "rivastigmine")]


def test_a_barthel_after_its_initials_is_not_read_on_a_scale_it_does_not_name():
    """Walk-through 63: "BI 16" (out of 20) read as 16 out of 100."""
    from sparge.data.named_values import read_named_values
    out = read_named_values(pd.DataFrame({"Barthel": ["BI 16", "95"], "MMSE": ["MMSE 24",
                                                                              "20"]}))
    assert out["Barthel"].tolist() == ["BI 16", "95"] and out["MMSE"].iloc[0] == "24"


def test_a_memory_clinics_diagnoses_and_living_situations_written_several_ways():
    """Walk-through 62's 60 spellings of 12 diagnoses left the column out."""
    from sparge.data.levels import abbreviated_levels
    pairs = dict(abbreviated_levels(
        ["Alzheimer's", "DAT", "LOAD", "Alz dementia", "?AD", "query AD", "vascular", "SIVD",
         "mixed", "AD + CVD", "Lewy body", "LBD", "PDD", "Parkinson's disease dementia",
         "FTD", "bvFTD", "amnestic MCI", "aMCI", "MCI - amnestic", "MCI", "SCD",
         "worried well", "no dementia", "NAD"], "Diagnosis"))
    assert pairs["DAT"] == pairs["LOAD"] == pairs["Alz dementia"] == "Alzheimer's"
    assert pairs["query AD"] == "?AD" and pairs["SIVD"] == "vascular"
    assert pairs["aMCI"] == pairs["MCI - amnestic"] == "amnestic MCI" and "MCI" not in pairs
    assert pairs["PDD"] == "Parkinson's disease dementia" and "Lewy body" not in pairs
    assert pairs["worried well"] == "SCD" and pairs["NAD"] == "no dementia"
    living = dict(abbreviated_levels(["with spouse", "wife", "husband", "LA", "lives alone",
                                      "Sheltered accom", "sheltered housing"],
                                     "Living situation"))
    assert living == {"wife": "with spouse", "husband": "with spouse", "LA": "lives alone",
                      "Sheltered accom": "sheltered housing"}


def test_an_answer_with_a_note_after_a_dash_is_offered_with_the_answer():
    """Walk-through 62's DaTSCAN "Abnormal - reduced uptake" beside "abnormal"; a
    bracket's single word may name another state ("CTO (recalled)")."""
    from sparge.data.levels import abbreviated_levels
    assert dict(abbreviated_levels(["positive", "Abnormal - reduced uptake", "normal",
                                    "abnormal"], "DaTSCAN")) == {
        "Abnormal - reduced uptake": "abnormal"}
    assert "CTO (recalled)" not in dict(abbreviated_levels(["CTO", "CTO (recalled)"],
                                                           "MHA status"))


def test_teetotal_is_no_alcohol_where_the_column_writes_0():
    values, _ = parse_numeric(pd.Series(["teetotal", "0", "4", "non-drinker"],
                                        name="Alcohol (units/wk)"))
    assert values.tolist() == [0, 0, 4, 0]


def test_an_interpreter_not_required_driving_and_a_first_language_abbreviated():
    from sparge.data.levels import abbreviated_levels, infer_levels
    levels, _, _ = infer_levels(pd.Series(["no", "N", "not required", "Yes", "Y"] * 10,
                                          name="Interpreter"))
    assert levels["not required"] == levels["no"] != levels["Yes"]
    driving = dict(abbreviated_levels(["yes", "still driving", "stopped", "gave up",
                                       "No - stopped 2019", "Never", "never drove"],
                                      "Driving"))
    assert driving == {"still driving": "yes", "gave up": "stopped",
                       "No - stopped 2019": "stopped", "never drove": "Never"}
    assert dict(abbreviated_levels(["English", "Eng", "Welsh"], "First language")) == {
        "Eng": "English"}


def test_the_plainest_spelling_is_the_one_the_others_join():
    """Walk-through 62 showed 250 GP referrals as "G.P." (70)."""
    from sparge.data.levels import abbreviated_levels
    assert dict(abbreviated_levels(["G.P.", "GP", "General Practitioner"],
                                   "Referral source")) == {
        "G.P.": "GP", "General Practitioner": "GP"}


def test_falls_written_as_counts_or_words_beside_yes_and_no():
    from sparge.data.levels import abbreviated_levels
    pairs = dict(abbreviated_levels(["No", "nil", "2 falls", "Yes", "multiple"],
                                    "Falls (last 12m)"))
    assert pairs == {"nil": "No", "2 falls": "Yes", "multiple": "Yes"}


def test_a_count_written_alone_in_a_column_named_with_its_rate():
    """51 "6 units" in an "Alcohol (units/wk)" column were set to missing as another
    unit (walk-through 62); "10 cigs" in "(cigs/day)" likewise."""
    df = pd.DataFrame({
        "Alcohol (units/wk)": ["6 units", "10", "14 units/wk", "teetotal", "0", "21",
                               "4", "8 units", "12 u", "3"] * 3,
        "Smoking (cigs/day)": ["10 cigs", "20", "5 cigarettes", "0", "15", "10", "3",
                               "20 cigs", "0", "2"] * 3,
        "Insulin (units)": ["6 units", "10", "14", "20", "8", "12", "4", "8 units",
                            "12", "3"] * 3,
        OUTCOME: ["Yes", "No"] * 15})
    enc = Encoder(label_column=OUTCOME).fit(df)
    X = enc.transform(df)
    names = enc.feature_names_out_
    alcohol = X[:10, names.index("Alcohol (units/wk)")]
    assert alcohol.tolist() == [6, 10, 14, 0, 0, 21, 4, 8, 12, 3]
    smoking = X[:10, names.index("Smoking (cigs/day)")]
    assert smoking.tolist() == [10, 20, 5, 0, 15, 10, 3, 20, 0, 2]
    # a unit that is a count but no rate is the column's own only when spelled so
    assert X[:10, names.index("Insulin (units)")].tolist() == [6, 10, 14, 20, 8, 12, 4,
                                                               8, 12, 3]
