"""Columns left out by default: follow-up times, dates and free text (a walk-through's
hospital export had all three, and the follow-up time leaked the outcome)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.column_kinds import looks_like_dates, looks_like_follow_up, looks_like_free_text


@pytest.mark.parametrize("name, expected", [
    ("Follow-up (days)", True), ("Follow up", True), ("followup_months", True),
    ("Duration of follow-up", True), ("futime", True), ("time", True),
    ("Survival time (months)", True), ("Survival (days)", True), ("Time to death", True),
    ("Days to last contact", True), ("censored", True),
    ("Follow-up visit BP (mmHg)", False), ("Time since diagnosis (years)", False),
    ("Survival status", False), ("Timepoint", False), ("Age (years)", False),
    # a stay's length is known at discharge (a walk-through's NICU export leaked it)
    ("Length of stay (days)", True), ("LOS", True), ("LOS (days)", True),
    ("length_of_hospital_stay", True), ("Days in ICU", True), ("NICU stay (days)", True),
    ("Hospital days", True), ("Time to discharge", True),
    ("Losartan dose (mg)", False), ("Loss of consciousness", False), ("Hospital", False),
    ("Days of fever before admission", False), ("ICU admission", False),
    ("Days followed", True), ("Months followed", True), ("Followed for (days)", True),
    ("Followed by cardiology", False),
])
def test_follow_up_names(name, expected):
    assert looks_like_follow_up(name) is expected


def test_dates_and_free_text():
    dates = pd.Series(["2019-03-14", "2020/1/2", "14 Mar 2019", "03.04.2018", "", "x"])
    assert looks_like_dates(dates)  # 4 of 5 filled cells
    assert not looks_like_dates(pd.Series(["1 - restricted", "0 - fully active", "12"]))
    assert looks_like_free_text("Clinician note", ["a", "b"])
    assert looks_like_free_text("Remarks", [])
    sentences = ["Anxious about treatment.", "Appetite poor, referred to dietitian.",
                 "Ex-smoker since 2010.", "Lives alone"]
    assert looks_like_free_text("Extra", sentences)
    levels = ["heart block or conduction def", "in bed < 50% daytime", "normal", "benign"]
    assert not looks_like_free_text("ECG", levels)


def _export(n: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    died = rng.random(n) < 0.5
    return pd.DataFrame({
        "Patient ID": [f"LC-{i:04d}" for i in range(n)],
        "Age (years)": rng.integers(40, 80, n),
        "Sex": rng.choice(["Male", "Female"], n),
        "Follow-up (days)": np.where(died, rng.integers(10, 300, n), rng.integers(300, 900, n)),
        "Date of diagnosis": [f"20{rng.integers(10, 20)}-0{rng.integers(1, 9)}-1{i % 10}"
                              for i in range(n)],
        "Clinician note": rng.choice(["Anxious about treatment.", "Lives alone, walks daily.",
                                      "Ex-smoker since 2010.", "COPD, uses inhaler."], n),
        "Vital status": np.where(died, "Dead", "Alive")})


def test_the_encoder_leaves_them_out_and_says_why():
    enc = Encoder(id_column="Patient ID", label_column="Vital status").fit(_export())
    roles = enc.roles_
    assert [c for c, r in roles.items() if r == "ignore"] == [
        "Follow-up (days)", "Date of diagnosis", "Clinician note"]
    assert enc.feature_names_out_ == ["Age (years)", "Sex"]
    warning = next(w for w in enc.report_.warnings if "Follow-up (days)" in w)
    assert "gives it away" in warning and "Column roles" in warning
    notes = " ".join(enc.report_.notes)
    assert "'Date of diagnosis', which holds dates" in notes
    assert "'Clinician note', which looks like free text" in notes


def test_the_users_role_is_never_second_guessed():
    enc = Encoder(id_column="Patient ID", label_column="Vital status",
                  roles={"Follow-up (days)": "numeric", "Clinician note": "categorical"}
                  ).fit(_export())
    assert "Follow-up (days)" in enc.feature_names_out_
    assert "Clinician note" in enc.feature_names_out_
    assert not any("Follow-up" in w for w in enc.report_.warnings)


def test_many_text_answers_are_left_out_with_a_reason():
    df = _export().drop(columns=["Date of diagnosis", "Clinician note"])
    df["Referral code"] = [f"R{i}X" for i in range(len(df))]
    enc = Encoder(id_column="Patient ID", label_column="Vital status").fit(df)
    assert enc.roles_["Referral code"] == "ignore"
    assert any("'Referral code', with more than 30 different text answers" in n
               for n in enc.report_.notes)


def test_roles_of_is_what_fit_sets_without_encoding():
    df = _export()
    enc = Encoder(id_column="Patient ID", label_column="Vital status")
    assert enc.roles_of(df) == enc.fit(df).roles_
    with pytest.raises(Exception, match="not in the table"):
        Encoder(label_column="Outcome").roles_of(df)
