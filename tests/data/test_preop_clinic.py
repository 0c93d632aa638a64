"""Walk-through 92: a pre-operative assessment clinic's export (ASA grade, frailty,
functional capacity, anticoagulants), with a post-operative complication within 30 days as
its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder
from sparge.services.display import answers_by_code

OUTCOME = "Post-op complication (30 days)"


def _frame(n: int = 240, seed: int = 92, **columns) -> pd.DataFrame:
    """Age, haemoglobin and the outcome, with ``columns`` (lists of answers, repeated to
    ``n`` rows)."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"MRN": [f"MRN{100000 + i}" for i in range(n)],
                       "Age": rng.integers(20, 95, n).astype(str),
                       "Hb (g/L)": rng.normal(130, 15, n).round().astype(str),
                       OUTCOME: rng.choice(["Yes", "No"], n, p=[0.2, 0.8])})
    for name, answers in columns.items():
        df[name] = np.resize(np.asarray(answers, dtype=object), n)
    return df


def test_a_smoking_status_with_its_detail_is_the_status():
    """Walk-through 92: "ex-smoker, quit 2018" and "former (stopped 2019)", a year per
    patient, gave the column more than 30 answers, and Smoking was left out of the model.
    Each is read as the status it gives, merged by default with its plain answer."""
    from sparge.data.levels import smoking_status

    years = [f"ex-smoker, quit {y}" for y in range(1985, 2022, 2)] + \
        [f"former (stopped {y})" for y in range(1986, 2023, 2)]
    answers = ["Non-smoker", "non smoker", "Never", "never smoked", "ex", "Ex-smoker",
               "Current", "Smoker - 10/day", "yes 20/day", "current smoker", *years]
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(_frame(Smoking=answers))
    assert enc.roles_["Smoking"] == "categorical"
    assert sorted(answers_by_code(enc, "Smoking").values()) == ["Current", "Ex-smoker",
                                                                 "Never"]
    levels = enc.table_.levels("Smoking")
    assert levels["former (stopped 2018)"] == levels["ex-smoker, quit 2001"] == \
        levels["Ex-smoker"] != levels["Never"]
    assert levels["yes 20/day"] == levels["Current"]
    # not a smoking column: no status is read
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(
        _frame(**{"Exercise": ["ex", "former athlete", "current", "never"]}))
    assert len(set(enc.table_.levels("Exercise").values())) == 4
    assert smoking_status("vape") is None and smoking_status("non smoker since 1990") == \
        "never"


def test_a_limit_written_on_both_sides_keeps_them_apart():
    """Walk-through 92: "<4 METs" and ">4 METs" were both read as 4, the cut-off an
    anaesthetist asks about: poor and adequate capacity were one value. A limit the column
    writes on both sides is read half its resolution below and above (3.5 and 4.5), for a
    new patient too, and after the model is saved; a limit on one side stays the limit."""
    col = "Functional capacity (METs)"
    df = _frame(**{col: ["<4 METs", ">4 METs", "4", "6", "7 METs", "<4", ">4", "10",
                         "3"], "eGFR": [">90", "75", "60", ">90", "45"]})
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(df)
    X = enc.transform(df)
    mets = X[:, enc.feature_names_out_.index(col)]
    raw = df[col].str.replace(" METs", "", regex=False).to_numpy()
    assert set(mets[raw == "<4"]) == {3.5} and set(mets[raw == ">4"]) == {4.5}
    assert set(mets[raw == "4"]) == {4.0}
    assert set(X[:, enc.feature_names_out_.index("eGFR")][df["eGFR"] == ">90"]) == {90.0}
    said = " ".join(enc.report_.notes)
    assert f"Column '{col}': a limit written on both sides ('<4' and '>4' read as 3.5 " \
           "and 4.5)" in said
    # a new patient, by a saved model too
    new = pd.DataFrame({col: ["<4 METs", ">4", "4"]})
    for model in (enc, Encoder.from_dict(enc.to_dict())):
        got = model.transform(new)[:, model.feature_names_out_.index(col)]
        assert got.tolist() == [3.5, 4.5, 4.0]


def test_an_asa_grade_is_shown_by_its_grade_and_its_emergency_e_is_said():
    """Walk-through 92: every ASA 1 patient showed as "1E" (the "E" of an emergency, and
    "ASA 1" ranked as aspirin's "ASA"), and the E was dropped without a word."""
    from sparge.data.levels import shown_answer

    asa = ["ASA 1", "1", "I", "1E", "ASA 2", "2", "II", "2E", "ASA 3", "III", "3E", "3"]
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(_frame(**{"ASA grade": asa}))
    assert list(answers_by_code(enc, "ASA grade").values()) == ["ASA 1", "ASA 2", "ASA 3"]
    said = " ".join(enc.report_.notes)
    assert "Column 'ASA grade': 60 grade(s) written with the E of an emergency operation " \
           "('1E', '2E', '3E') read as the grade; the E is not kept" in said
    assert shown_answer(["3", "3E", "III"], "ASA grade") == "III"
    assert shown_answer(["asa grade ii", "2"], "ASA") == "ASA grade II"


def test_a_mallampati_class_is_read_in_any_of_its_spellings():
    """Walk-through 92: "MP 2" was read as 2 and 45 "Grade III" were set to missing."""
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(
        _frame(Mallampati=["2", "1", "3", "Grade III", "MP 2", "4", "Class IV", "mp1"]))
    X = enc.transform(_frame(Mallampati=["2", "1", "3", "Grade III", "MP 2", "4",
                                         "Class IV", "mp1"]))
    got = X[:, enc.feature_names_out_.index("Mallampati")][:8]
    assert got.tolist() == [2, 1, 3, 3, 2, 4, 4, 1]
    assert not [s for s in enc.report_.stray_text if s.column == "Mallampati"]


def test_an_event_within_a_window_is_guessed_as_the_outcome_beside_gap_words():
    """Walk-through 92: "Post-op complication (30 days)", Yes / No beside "unknown" and
    "lost to follow-up", was not guessed, and a hurried user would encode without it."""
    from sparge.data.column_guess import guess_columns

    df = _frame().drop(columns=[OUTCOME])
    df[OUTCOME] = np.resize(np.array(["No"] * 8 + ["Yes", "Yes", "unknown",
                                                   "lost to follow-up"]), len(df))
    df["Stroke"] = np.resize(np.array(["No", "Yes", "-", "No"]), len(df))
    assert guess_columns(df) == ("MRN", OUTCOME)


def test_regular_medicines_are_read_by_their_generic_names_and_nil_regular_is_none():
    """Walk-through 92: "nil regular" became a drug of its own, and "amlodipine 10mg od",
    "omeprazole 20mg" and "salbutamol inh prn" kept their doses as drugs' names beside
    metformin and ramipril."""
    meds = ["nil regular", "metformin 1g bd; amlodipine 10mg od", "omeprazole 20mg",
            "salbutamol inh prn; ramipril 5mg", "amlodipine 10mg od", "nil regular",
            "metformin 1g bd; omeprazole 20mg", "ramipril 5mg; salbutamol inh prn",
            "Seretide 250; metformin 1g bd", "ventolin 2 puffs prn",
            "Seretide 250; amlodipine 10mg od", "ventolin 2 puffs prn; omeprazole 20mg"]
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(
        _frame(**{"Regular medications": meds}))
    names = {f.split(": ", 1)[1] for f in enc.feature_names_out_
             if f.startswith("Regular medications: ")}
    assert {"amlodipine", "omeprazole", "salbutamol", "metformin", "ramipril"} <= names
    assert not {n for n in names if "nil" in n or "mg" in n or "prn" in n}


def test_an_occasional_drinker_is_read_as_a_unit_a_week():
    """Walk-through 92: 81 "occasional" among units a week (and "teetotal", "30+") made
    the alcohol column eight unordered answers, "30+" and "Occasional" among them."""
    col = "Alcohol (units/wk)"
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(
        _frame(**{col: ["occasional", "0", "14", "30+", "teetotal", "10", "20", "4",
                        "rarely"]}))
    assert enc.roles_[col] == "numeric"
    X = enc.transform(_frame(**{col: ["occasional", "0", "14", "30+", "teetotal", "10",
                                      "20", "4", "rarely"]}))
    assert X[:9, enc.feature_names_out_.index(col)].tolist() == [1, 0, 14, 30, 0, 10, 20,
                                                                   4, 1]
    assert "one who drinks now and then ('occasional', 'rarely') as 1 unit a week" in \
        " ".join(enc.report_.notes)


def test_the_threshold_warning_says_how_many_empty_yes_no_cells_leave_out():
    """Walk-through 92: 256 of 501 patients were left out at the default threshold, most
    for blank comorbidity cells, and the choice to read them as No sat in a closed box
    among the repairs. The warning says about how many it would keep, and so does the
    report's count, close to what the choice does."""
    rng = np.random.default_rng(7)
    n = 300
    df = _frame(n)
    for name in ("IHD", "COPD", "Heart failure", "CKD", "Stroke", "AF"):
        df[name] = np.where(rng.random(n) < 0.15, "Yes", "")
        df.loc[rng.random(n) < 0.3, name] = "No"
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(df)
    rep = enc.report_
    assert len(rep.blank_no_candidates) == 6 and rep.patients_dropped
    said = next(w for w in rep.warnings if "patients miss more than" in w)
    assert f"about {rep.blank_no_keeps:,} of them would be kept" in said
    read = Encoder(label_column=OUTCOME, id_column="MRN",
                   blank_as_no=rep.blank_no_candidates).fit(df)
    kept_more = len(rep.patients_dropped) - len(read.report_.patients_dropped)
    assert kept_more > 0.5 * len(rep.patients_dropped)
    assert abs(rep.blank_no_keeps - kept_more) <= 0.05 * n
