"""A GP practice's chronic disease register export (walk-through 48): a leak written only
for the patients with the outcome, scores after their names, "10+", QOF codes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

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


def test_a_score_after_its_mixed_case_name_a_limit_after_it_and_efi_words_are_read():
    """Walk-through 48: "BMI 31" was read, "eGFR 88", "eGFR >90" and "QRISK3 16.7%" were
    set to missing, and the electronic frailty index ("Moderate frailty", "mild" among
    0.19) and QRISK3 were left out as free text."""
    rng = np.random.default_rng(1)
    n = 300
    egfr = rng.integers(20, 90, n)
    qrisk = np.round(rng.uniform(1, 40, n), 1)
    efi = np.round(rng.uniform(0, 0.35, n), 2)
    bands = np.select([efi <= 0.12, efi <= 0.24], ["Fit", "Mild frailty"], "Moderate frailty")
    df = pd.DataFrame({
        "ID": range(n),
        "eGFR": [">90" if i % 7 == 0 else "eGFR >90" if i % 7 == 1 else
                 f"eGFR {e}" if i % 3 == 0 else str(e) for i, e in enumerate(egfr)],
        "QRISK3": [f"QRISK3 {q}%" if i % 3 == 0 else f"{q}%" if i % 3 == 1 else str(q)
                   for i, q in enumerate(qrisk)],
        "eFI": [bands[i] if i % 4 == 0 else f"{e:.2f}" for i, e in enumerate(efi)],
        "Age": rng.integers(40, 90, n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.roles_["QRISK3"] == enc.roles_["eFI"] == enc.roles_["eGFR"] == "numeric"
    X = enc.transform(df)
    names = enc.feature_names_out_
    i = np.arange(n)
    want = np.where(i % 7 < 2, 90, egfr)
    np.testing.assert_array_equal(X[:, names.index("eGFR")], want)
    np.testing.assert_allclose(X[:, names.index("QRISK3")], qrisk)
    middle = {"Fit": 0.06, "Mild frailty": 0.18, "Moderate frailty": 0.30}
    np.testing.assert_allclose(X[:, names.index("eFI")],
                               np.where(i % 4 == 0, [middle[b] for b in bands], efi))
    # an "Age 65" is no score after initials: a column named "Age" reads no such cells
    from sparge.data.parsing import named_total
    assert named_total("Age") is None and named_total("eGFR") is not None
    assert named_total("NYHA class") is None


def test_an_age_no_patient_can_have_is_listed_to_check():
    """Walk-through 48: two ages of 167 (a typo) were used as given; 167 is not five
    times the median, so the far-value rule let it pass. SurvSet's nwtco writes its
    children's ages in months under "age": nothing is listed there."""
    rng = np.random.default_rng(2)
    ages = rng.integers(20, 95, 300).astype(float)
    ages[[18, 402 % 300]] = 167
    df = pd.DataFrame({"ID": range(300), "Age": ages, "y": rng.choice(["a", "b"], 300)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    listed = [v for v in enc.report_.values_to_check if v[0] == "Age"]
    assert sorted(v[1] for v in listed) == [18, 102] and {v[2] for v in listed} == {167.0}
    months = rng.gamma(2.0, 25.0, 3000)  # children's ages in months: a tail runs past 122
    kids = pd.DataFrame({"ID": range(3000), "age": months, "y": rng.choice(["a", "b"], 3000)})
    assert (months > 122).sum() > 10
    enc = Encoder(id_column="ID", label_column="y").fit(kids)
    assert not any(v[0] == "age" and v[2] > 122 and v[2] < 200
                   for v in enc.report_.values_to_check)


def test_a_new_patients_pressure_with_its_unit_is_read_in_a_split_column():
    """Walk-through 48: "150 mmHg" typed in the systolic field was set to missing, while
    the training file's "142/88 mmHg" was read."""
    rng = np.random.default_rng(0)
    n = 100
    bp = [f"{a}/{b}" + (" mmHg" if i % 2 else "") for i, (a, b) in
          enumerate(zip(rng.integers(110, 170, n), rng.integers(60, 95, n)))]
    df = pd.DataFrame({"ID": range(n), "Blood pressure": bp, "Age": rng.integers(40, 90, n),
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    new = pd.DataFrame({"ID": [1], "Blood pressure systolic": ["150 mmHg"],
                        "Blood pressure diastolic": ["85 mm Hg"], "Age": ["70"]})
    np.testing.assert_array_equal(enc.transform(new), [[150, 85, 70]])


def test_a_gp_registers_answers_written_several_ways_are_offered_as_one():
    """Walk-through 48: after the merge, "Asthma" stayed apart from "Yes" in the Asthma
    register column, "HTN" in Hypertension, "Curent smoker" from "Current smoker", "Smoker
    - 10/day" and "ex smoker 2010" from current and former, "British (White)" from "White
    - British", and CKD stage's "N", "No" and "None" were three answers."""
    from sparge.data.levels import abbreviated_levels, shown_answer

    assert sorted(abbreviated_levels(["Yes", "No", "N", "Asthma", "Asthma - mild",
                                      "No asthma"], "Asthma register")) == [
        ("Asthma", "Yes"), ("Asthma - mild", "Yes"), ("N", "No")]
    assert abbreviated_levels(["yes", "Yes", "No", "HTN"], "Hypertension") == [("HTN", "Yes")]
    # a condition's types stay apart from its yes, as a diabetes' do
    assert abbreviated_levels(["Yes", "No", "HFrEF", "CCF"], "Heart failure") == [
        ("CCF", "Yes")]
    # ... but a diabetes' types and treatments in its yes/no column are offered with its
    # yes (walk-through 56: five codes for the diabetics, "No" between "Yes" and "T2DM";
    # the user keeps any pair apart), and kept apart in a column of types
    assert abbreviated_levels(["Yes", "No", "Type 2", "T2DM"], "Diabetes") == [
        ("T2DM", "Type 2"), ("Type 2", "Yes")]
    assert abbreviated_levels(["Type 1", "Type 2", "T2DM"], "Diabetes type") == [
        ("T2DM", "Type 2")]
    assert abbreviated_levels(["Current smoker", "Curent smoker", "Smoker - 10/day",
                               "ex smoker 2010", "Ex-smoker", "Never"], "Smoking status") == [
        ("ex smoker 2010", "Ex-smoker"), ("Smoker - 10/day", "Current smoker"),
        ("Curent smoker", "Current smoker")]
    assert abbreviated_levels(["White - British", "British (White)", "Black Caribbean"],
                              "Ethnicity") == [("British (White)", "White - British")]
    assert abbreviated_levels(["3a", "G3a", "N", "No", "None"], "CKD stage")[-2:] == [
        ("N", "No"), ("None", "No")]
    # typos only in words of six letters, without digits: grades and short words stay
    assert abbreviated_levels(["Stage 3a", "Stage 3b", "mild", "mid"], "Stage") == []
    # a decile written with a note in brackets is shown without it
    assert shown_answer(["6", "6 (most deprived=1)", "Decile 6"], "IMD decile") == "Decile 6"


def test_declined_is_said_to_read_as_no_only_where_it_does():
    """Walk-through 48: "'declined' read as No: not given" was said of a smoking column
    where "declined" was an answer of its own (coded 4)."""
    rng = np.random.default_rng(4)
    n = 200
    df = pd.DataFrame({"ID": range(n),
                       "Smoking status": rng.choice(["Current", "Former", "Never", "declined"],
                                                    n),
                       "Statin": rng.choice(["Yes", "No", "declined"], n),
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    said = str(enc.report_)
    assert "'Statin' (" in said and "'declined' read as No: not given" in said
    assert said.count("read as No: not given") == 1
    assert enc.table_.levels("Smoking status")["declined"] not in (
        enc.table_.levels("Smoking status")["Never"],)


def test_dates_of_birth_in_an_age_column_beside_a_last_review_are_ages_at_the_export():
    """Walk-through 48: a GP register's dates of birth among its ages were read at each
    patient's "Date of last review" (up to two years young), and those without a review
    date were not read. A "last review" is no event: its latest date (the export's, or
    near it) is the date for everyone."""
    from sparge.data.reading import read_table

    rows = ["Patient ID,Age,Date of last review,y"]
    for i in range(70):
        age = "24/02/1956" if i == 0 else "08/05/1963" if i == 1 else str(40 + i % 40)
        review = "" if i == 1 else ("2023-01-10" if i % 2 else "2025-01-04")
        rows.append(f"{i},{age},{review},{'a' if i % 2 else 'b'}")
    rows[6] = "5,01/01/1950,2024-06-01,a"
    rows += [f"{70 + k},0{k + 1}/03/1970,2024-01-0{k + 1},b" for k in range(3)]
    df = read_table("\n".join(rows).encode())
    ages = pd.to_numeric(df["Age"], errors="coerce")
    # at 2025-01-04, not at its review; in completed years, as the column writes its
    # ages (68.9 among whole ages: walk-through 91)
    assert ages.iloc[0] == 68
    assert ages.iloc[1] == 61  # no review date: still read
    said = " ".join(df.attrs["sparge_read_notes"])
    assert "read as the age in years at 2025-01-04, the latest date of 'Date of last " \
        "review' (the export's, or near it)" in said


def test_a_new_patients_unseen_spelling_paired_with_one_known_answer_is_read_as_it():
    """Walk-through 48: a new patient's "CKD G3b", "HT", "COPD - moderate", "Smoker -
    15/day" and IMD "2nd" were read as missing; the pairing rules the Data page offers to
    merge with read them as the known answer, said in a note. An answer paired with two
    known codes, or with none, stays unknown."""
    rng = np.random.default_rng(5)
    n = 240
    df = pd.DataFrame({
        "ID": range(n),
        "CKD stage": rng.choice(["G3a", "G3b", "G4", "None"], n),
        "Hypertension": rng.choice(["Yes", "No"], n),
        "COPD": rng.choice(["Yes", "No"], n),
        "Smoking status": rng.choice(["Current smoker", "Ex-smoker", "Never"], n),
        "IMD decile": rng.choice([str(d) for d in range(1, 11)], n),
        "Heart failure": rng.choice(["Yes", "No"], n),
        "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.roles_["IMD decile"] == "numeric"  # read as numbers: "2nd" is 2 there
    levels = {c: enc.table_.levels(c) for c in df.columns[1:-1] if c != "IMD decile"}
    new = pd.DataFrame({"ID": [1], "CKD stage": ["CKD G3b"], "Hypertension": ["HT"],
                        "COPD": ["COPD - moderate"], "Smoking status": ["Smoker - 15/day"],
                        "IMD decile": ["2nd"], "Heart failure": ["LVSD"]})
    x, rep = enc.transform_with_report(new)
    got = dict(zip(enc.feature_names_out_, x[0]))
    assert got["CKD stage"] == levels["CKD stage"]["G3b"]
    assert got["Hypertension"] == levels["Hypertension"]["Yes"]
    assert got["COPD"] == levels["COPD"]["Yes"]
    assert got["Smoking status"] == levels["Smoking status"]["Current smoker"]
    assert got["IMD decile"] == 2
    assert np.isnan(got["Heart failure"])  # a type of heart failure is no spelling of yes
    # joined with answers of two codes (the user kept "HTN" apart from "Yes"): unread
    apart = Encoder(id_column="ID", label_column="y").fit(
        df.assign(Hypertension=rng.choice(["Yes", "No", "HTN"], n)))
    assert np.isnan(apart.transform(new)[0, apart.feature_names_out_.index("Hypertension")])
    said = " ".join(rep.notes)
    assert "'CKD G3b' read as 'G3b' (another spelling of that answer)" in said
    # an ordinal among answers: an IMD written "Decile 2", "Decile 3" …
    dec = df.assign(**{"IMD decile": [f"Decile {v}" if i % 2 else v
                                      for i, v in enumerate(df["IMD decile"])]})
    enc = Encoder(id_column="ID", label_column="y").fit(dec)
    assert enc.roles_["IMD decile"] == "categorical"
    x, rep = enc.transform_with_report(new[["ID", "IMD decile"]])
    assert x[0, enc.feature_names_out_.index("IMD decile")] == \
        enc.table_.levels("IMD decile")["2"]
    assert "'2nd' read as '2'" in " ".join(rep.notes)


def test_pairs_kept_apart_are_not_merged():
    from sparge.data.answer_merging import chosen_pairs, pair_label

    pairs = {"Sex": [["F", "Female"], ["M", "Male"]], "Diabetes": [["T2DM", "Type 2"]]}
    assert pair_label("Sex", "M", "Male") == "Sex: 'M' into 'Male'"
    assert chosen_pairs(pairs, ["Sex: 'M' into 'Male'", "Diabetes: 'T2DM' into 'Type 2'"]) \
        == {"Sex": [["F", "Female"]]}
    assert chosen_pairs(pairs, []) == pairs


def test_a_merged_ckd_stage_with_no_ckd_and_a_bare_stage_3_is_ordered():
    """Walk-through 48: merged, CKD stage kept "No" and "Stage 3" beside "3a" … "5" and
    stayed unordered ("CKD stage 4: 5, 3b: 3, 3a: 2" with no order). No CKD comes first,
    a stage 3 of no sub-stage before 3a."""
    from sparge.data.answer_merging import merge_answers

    rng = np.random.default_rng(6)
    n = 300
    df = pd.DataFrame({"ID": range(n), "CKD stage": rng.choice(
        ["N", "No", "None", "Stage 3", "G3a", "3a", "CKD 3B", "3b", "G4", "Stage 4", "4", "5"],
        n),
        "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    merged = merge_answers(enc.table_, enc.report_.answers_two_ways)
    assert merged.is_ordered("CKD stage")
    codes = merged.levels("CKD stage")
    assert codes["No"] == codes["None"] == codes["N"] < codes["Stage 3"] < codes["3a"] \
        == codes["G3a"] < codes["3b"] == codes["CKD 3B"] < codes["G4"] == codes["Stage 4"]


def test_empty_cells_of_register_columns_are_read_as_no_when_asked():
    """Walk-through 48: a GP register writes nothing for a patient not on it; 13–21 % of
    each register column was a gap, and the missing-values threshold left out 587 of 702
    patients. The report offers reading them as No; a missing token stays a gap."""
    from sparge.services.workflow import (
        blank_as_no_button,
        encode_again,
        encode_cohort,
        table_choices,
    )

    rng = np.random.default_rng(7)
    n = 200
    asthma = np.where(rng.random(n) < 0.2, "", rng.choice(["Yes", "No"], n))
    copd = np.where(rng.random(n) < 0.1, "not recorded", rng.choice(["Y", "N"], n))
    df = pd.DataFrame({"ID": range(n), "Asthma": asthma, "COPD": copd,
                       "Ward": np.where(rng.random(n) < 0.3, "", rng.choice(["A", "B"], n)),
                       "Age": rng.integers(30, 90, n), "y": rng.choice(["a", "b"], n)})
    cohort = encode_cohort(df, id_column="ID", label_column="y")
    rep = cohort.encoder.report_
    assert rep.blank_no_candidates == ["Asthma"]  # COPD's gaps are words; Ward has no No
    assert "'Asthma': yes/no column with at least 5% of its cells empty" in " ".join(rep.notes)
    label, cols = blank_as_no_button(cohort.encoder, rep)
    assert label == "Read empty cells as No in 1 yes/no column ('Asthma')" and cols == ["Asthma"]
    again = encode_again(cohort, blank_as_no=cols)
    j = again.features.index("Asthma")
    no = again.encoder.table_.levels("Asthma")["No"]
    assert (again.X[asthma == "", j] == no).all() and not np.isnan(again.X[:, j]).any()
    assert np.isnan(again.X[copd == "not recorded", again.features.index("COPD")]).all()
    assert "Empty cells read as 'No' (not on the register), as asked: 'Asthma' " in " ".join(
        again.encoder.report_.notes)
    assert again.encoder.report_.blank_no_candidates == []
    assert "empty cells read as No in 'Asthma'" in table_choices(again.encoder, False)
    # kept by a further re-encoding, saved with the model, and a new patient's empty cell
    assert encode_again(again).encoder.blank_as_no == ["Asthma"]
    back = Encoder.from_dict(again.encoder.to_dict())
    new = pd.DataFrame({"ID": [1], "Asthma": [""], "COPD": ["Y"], "Ward": ["A"], "Age": [50]})
    assert back.transform(new)[0, j] == no
    with pytest.raises(ValueError, match="blank_as_no"):
        Encoder.from_dict({**back.to_dict(), "params": {
            **back.to_dict()["params"], "blank_as_no": "Asthma"}})


def test_limits_after_a_name_and_counts_at_least_are_shown_as_written():
    """Walk-through 49: a new patient's "eGFR >90" was compared as "90", "10+" as "10"."""
    from sparge.data.parsing import limit_text

    assert [limit_text(c) for c in ("eGFR >90", "10+", "<0.5", "eGFR 88", "Stage 3", 5.0)] \
        == [">90", "≥10", "<0.5", None, None, None]


def test_a_merged_register_yes_is_shown_as_yes_and_a_gap_word_stays_a_gap():
    """Walk-through 49: the merged yes of an Asthma register showed as "Asthma" (and
    Hypertension's as "HTN"); "Not stated" became the answer "Ethnicity not stated"."""
    from sparge.data.levels import shown_answer

    assert shown_answer(["Y", "yes", "HTN"], "Hypertension") == "Yes"
    assert shown_answer(["Yes", "Asthma", "Asthma - mild"], "Asthma register") == "Yes"
    assert shown_answer(["Current", "Yes", "Smoker"], "Smoking status") == "Current"
    rng = np.random.default_rng(8)
    n = 200
    df = pd.DataFrame({"ID": range(n), "Ethnicity": rng.choice(
        ["White British", "Pakistani", "Ethnicity not stated"], n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    x, rep = enc.transform_with_report(pd.DataFrame({"ID": [1], "Ethnicity": ["Not stated"]}))
    assert np.isnan(x[0, 0]) and "read as" not in " ".join(rep.notes)


def test_a_small_table_skips_its_plain_columns_and_still_reads_combined_cells():
    """A one-row query of 469 columns spent 0.3 s looking at every column once per reader
    (blood pressures, heights, times …); a small table's plain columns (numbers or empty)
    are skipped at one look, and its combined cells are still read."""
    from sparge.data.combined_cells import shared_looks, text_columns

    one = pd.DataFrame({"Age": ["61"], "BP": ["142/88"], "Height": ["5'7\""], "Na": [""],
                        "Notes": ["seen"]})
    looked = []

    def may_hold(values):
        looked.append(values.name)
        return True

    with shared_looks():
        found = [c for c, _ in text_columns(one, ["Na"], may_hold)]
    assert found == ["BP", "Height", "Na", "Notes"] and looked == ["BP", "Height", "Notes"]
    rng = np.random.default_rng(9)
    n = 80
    df = pd.DataFrame({"ID": range(n), "Blood pressure": [
        f"{a}/{b}" for a, b in zip(rng.integers(110, 170, n), rng.integers(60, 95, n))],
        "Height": [f"5'{i % 12}\"" for i in range(n)], "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    x = enc.transform(pd.DataFrame({"ID": [1], "Blood pressure": ["150/90"],
                                    "Height": ["6'1\""]}))
    got = dict(zip(enc.feature_names_out_, x[0]))
    assert got["Blood pressure systolic"] == 150 and got["Height"] == 73
