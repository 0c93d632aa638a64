"""Walk-through 78: a hip and knee replacement service's registry export, a poor outcome
at 6 months.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import later_outcome_named
from sparge.data.column_kinds import later_measurement_of
from sparge.data.encoder import Encoder

N = 160


@pytest.fixture(scope="module")
def registry() -> pd.DataFrame:
    rng = np.random.default_rng(78)
    risk = rng.normal(size=N)
    pre = np.clip(np.round(20 - 5 * risk + rng.normal(0, 4, N)), 0, 48).astype(object)
    pre[7] = 52  # its top is 48
    bmi = np.round(29 + 3 * risk + rng.normal(0, 3, N), 1).astype(object)
    bmi[9] = 324  # a lost decimal point
    poor = risk + rng.normal(0, 0.8, N) > 0.8
    return pd.DataFrame({
        "Hospital No": [f"RX{6600000 + i}" for i in range(N)],
        "BMI": bmi,
        "Pre-op Oxford score": pre,
        "Pre-op EQ-VAS": np.clip(np.round(60 - 10 * risk + rng.normal(0, 10, N)), 0, 100),
        "poor_outcome_6m": np.where(poor, "Yes", "No"),
        "post-op Oxford score 6m": np.clip(pre.astype(float) + np.where(poor, 2, 18), 0, 48),
        "revision_within_2y": np.where(poor & (rng.random(N) < 0.3), "Yes", "No"),
    })


def test_later_outcomes_beside_the_outcome_are_left_out(registry):
    """"post-op Oxford score 6m" (what the outcome is defined from) and
    "revision_within_2y" went to the model as inputs, led Explore's "Biomarkers to
    compare" and were asked for on the New patient form."""
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m").fit(registry)
    for col in ("post-op Oxford score 6m", "revision_within_2y"):
        assert col not in enc.feature_names_out_
    assert enc.left_out_why_["post-op Oxford score 6m"].startswith("a later measurement")
    assert enc.left_out_why_["revision_within_2y"].startswith("named like another outcome")


@pytest.mark.parametrize("name, later", [
    ("revision_within_2y", True), ("Revision within 5 years", True),
    ("Re-operation at 1 year", True),
    # the operation itself a revision (primary or revision): known at the visit
    ("Revision", False), ("Revision (primary/revision)", False)])
def test_an_implants_revision_in_a_window_is_a_later_outcome(name, later):
    assert later_outcome_named(name) is later


def test_a_post_operative_score_is_a_later_measurement_of_the_pre_operative_one():
    assert later_measurement_of("post-op Oxford score 6m",
                                ["Pre-op Oxford score", "BMI"]) == "Pre-op Oxford score"
    assert later_measurement_of("Postoperative EQ-VAS", ["Preoperative EQ-VAS"]) == \
        "Preoperative EQ-VAS"
    assert later_measurement_of("Postoperative PROM", ["BMI"]) is None


def test_an_oxford_score_above_48_and_a_bmi_of_324_are_impossible(registry):
    """An Oxford score of 52 was accepted without a word; a BMI of 324 was used as given
    (while the same export's "32/48" was read as a score out of 48)."""
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m")
    X = enc.fit_transform(registry)
    assert sorted(map(tuple, enc.report_.impossible)) == [("BMI", 9),
                                                          ("Pre-op Oxford score", 7)]
    assert np.isnan(X[[9, 7], [enc.feature_names_out_.index("BMI"),
                               enc.feature_names_out_.index("Pre-op Oxford score")]]).all()


def test_asa_grades_written_many_ways_are_one_ordered_scale():
    """The registry's ASA grade ("ASA2", "ASA II", "2", "II", "ASA 3E") was 21 answers in
    alphabetical order: "ASA2" (no space) fitted no spelling of the ASA scale, so the
    whole column lost its order. The note lists one entry per grade."""
    answers = ["ASA1", "ASA 2", "ASA II", "2", "II", "ASA3", "ASA 3E", "III", "IV",
               "ASA4", "ASA 4E", "I", "1", "not recorded"]
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"Hospital No": [f"RX{i}" for i in range(140)],
                       "ASA grade": answers * 10,
                       "Hb (g/L)": rng.normal(130, 15, 140).round()})
    enc = Encoder(id_column="Hospital No").fit(df)
    levels = enc.table_.levels("ASA grade")
    assert enc.table_.is_ordered("ASA grade")
    assert sorted(set(levels.values())) == [1, 2, 3, 4]
    assert levels["ASA1"] == levels["I"] == 1 and levels["ASA 3E"] == levels["III"] == 3
    note = next(n for n in enc.report_.notes if "asa scale" in n)
    assert "asa scale: 1/ASA1/… 1 < 2/ASA 2/… 2 < ASA 3E/ASA3/… 3 < ASA 4E/ASA4/… 4" in note


def test_a_grade_written_against_its_scales_name_is_on_the_scale():
    from sparge.data.tables import scale_of
    assert scale_of(["ASA1", "ASA 2", "asa3e"], "ASA grade") == "asa"
    assert scale_of(["NYHA3", "NYHA II", "1"], "NYHA class") == "nyha"
    assert scale_of(["ASA1"], "Aspirin") is None  # the ASA scale only where named


@pytest.mark.parametrize("a, b, column, same", [
    ("F", "Female", "Sex", True), ("m", "Male", "Gender", True),
    ("ex", "Ex-smoker", "Smoking status", True), ("L", "left", "Side", True),
    ("T2", "Type 2", "Diabetes", True), ("Type II", "type 2", "Diagnosis", True),
    # offered, not merged: an abbreviation outside those columns may mean another word
    ("m", "Male", "Severity", False), ("Cardio", "Cardiology", "Referral", False),
    ("IV", "4", "Route", False), ("N", "Never", "Smoking status", False),
    ("F", "Male", "Sex", False)])
def test_one_answer_beyond_doubt(a, b, column, same):
    from sparge.data.answer_merging import same_answer
    assert same_answer(a, b, column) is same


def test_sex_side_and_smoking_written_two_ways_are_one_answer_by_default(registry):
    """The registry wrote Sex F/Female/m/Male, Side L/left/R/right and smoking ex/
    Ex-smoker: offered for merging, skipped by a busy user, and a woman's look-alikes were
    those written "F" like her."""
    rng = np.random.default_rng(1)
    df = registry.assign(Sex=rng.choice(["F", "Female", "m", "Male"], N),
                         Side=rng.choice(["L", "left", "R", "right", "bilateral"], N),
                         Referral=rng.choice(["Cardio", "Cardiology"], N))
    enc = Encoder(id_column="Hospital No", label_column="poor_outcome_6m")
    X = enc.fit_transform(df)
    assert enc.merged_spellings_ == {"Sex": [["F", "Female"], ["m", "Male"]],
                                     "Side": [["L", "left"], ["R", "right"]]}
    j = enc.feature_names_out_.index("Sex")
    assert set(X[:, j]) == {1.0, 2.0}  # coded as if written one way
    assert enc.report_.answers_two_ways == {"Referral": [["Cardio", "Cardiology"]]}
    note = next(n for n in enc.report_.notes if n.startswith("Answers written two ways"))
    assert "'Sex' 'F' as 'Female', 'm' as 'Male'; 'Side' 'L' as 'left'" in note
    # the inferred levels' note shows one entry per code
    assert "'Sex' (F/Female 1, Male/m 2)" in " ".join(enc.report_.notes)
    # kept apart on request: every pair offered again, saved with the model
    apart = Encoder(id_column="Hospital No", label_column="poor_outcome_6m",
                    merge_spellings=False).fit(df)
    assert apart.merged_spellings_ == {} and set(apart.report_.answers_two_ways) == {
        "Sex", "Side", "Referral"}
    assert Encoder.from_dict(apart.to_dict()).merge_spellings is False
    # a user's own codes for the column are kept as given
    from sparge.data.tables import EncodingTable
    from sparge.services.workflow import keep_apart_changes
    own = Encoder(id_column="Hospital No", label_column="poor_outcome_6m",
                  encoding_table=EncodingTable({"Sex": {"F": 1, "Female": 2, "m": 3,
                                                        "Male": 4}})).fit(df)
    assert own.merged_spellings_ == {"Side": [["L", "left"], ["R", "right"]]}
    assert own.table_.levels("Sex")["F"] != own.table_.levels("Sex")["Female"]
    changes = keep_apart_changes(own)
    assert changes["merge_spellings"] is False
    assert changes["encoding_table"].columns() == ["Sex"]
    assert keep_apart_changes(enc) == {"merge_spellings": False, "encoding_table": None}
