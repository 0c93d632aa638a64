"""Walk-through 98: an adult cardiac surgery unit's pre-operative export (urgency, NYHA,
CCS angina, EuroSCORE, recent MI), with in-hospital death or a major complication as its
outcome and post-operative columns beside it.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import later_outcome_named
from sparge.data.encoder import Encoder
from sparge.data.levels import abbreviated_levels
from sparge.data.scale_numbers import ccs_class

OUTCOME = "In-hospital death or major complication"


def _unit(n: int = 300, seed: int = 98) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    urgency = rng.choice(["Elec", "ELECTIVE", "El", "URG", "IHU", "in-house urgent",
                          "Urgent (inpatient)", "EMERG", "Emergency", "salvage"], n)
    return pd.DataFrame({
        "Hospital No": [f"RM{200000 + i}" for i in range(n)],
        "Age": rng.integers(40, 90, n).astype(str),
        "Urgency": urgency,
        "CCS angina": rng.choice(["0", "2", "CCS 3", "CCS4", "II", "nil", "no angina",
                                  "none", "1"], n),
        "EuroSCORE II": [rng.choice([f"{v:.1f}", f"{v:.1f}%", f"ES II {v:.1f}%"])
                         for v in rng.gamma(2, 1.5, n)],
        "Recent MI": rng.choice(["no", "N", "yes", "Y", "MI 2011", "old MI (2015)",
                                 "recent MI"], n),
        "Return to theatre": rng.choice(["No", "Yes - bleeding"], n, p=[0.93, 0.07]),
        "Post-op AKI": rng.choice(["none", "AKIN 1", "RRT"], n, p=[0.8, 0.15, 0.05]),
        "Diabetes": rng.choice(["No", "T2DM", "IDDM", "Type 1", "diet"], n),
        OUTCOME: rng.choice(["Yes", "No"], n, p=[0.2, 0.8])})


def test_post_operative_columns_are_left_out_of_a_pre_operative_model():
    """Walk-through 98: "Return to theatre" and "Post-op AKI" went to the model and the
    New patient form; every look-alike of a patient re-operated had the outcome."""
    assert later_outcome_named("Post-op AKI") and later_outcome_named("Return to theatre")
    assert later_outcome_named("Re-exploration for bleeding")
    assert not later_outcome_named("Previous cardiac surgery")
    assert not later_outcome_named("Post-menopausal")
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_unit())
    assert enc.roles_["Return to theatre"] == enc.roles_["Post-op AKI"] == "ignore"
    assert "what follows an operation" in " ".join(enc.report_.warnings)


def test_urgency_is_ordered_and_ccs_angina_is_its_class_number():
    """Walk-through 98: urgency coded alphabetically ("El 1, Elec 2 … URG 9"), CCS angina
    22 unordered answers with "none" a gap."""
    assert [ccs_class(c) for c in ["CCS 3", "IV", "no angina", "none", "3"]] == \
        ["3", "4", "0", "0", None]
    df = _unit()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    lv = enc.table_.levels("Urgency")
    assert enc.table_.is_ordered("Urgency")
    assert lv["Elec"] == lv["El"] < lv["URG"] == lv["IHU"] == lv["Urgent (inpatient)"] \
        < lv["EMERG"] < lv["salvage"]
    assert enc.roles_["CCS angina"] == "numeric"
    got = enc.transform(df)[:, enc.feature_names_out_.index("CCS angina")]
    want = [float(ccs_class(c) or c) for c in df["CCS angina"]]
    np.testing.assert_allclose(got, want)


def test_euroscore_after_its_initials_is_read():
    """Walk-through 98: "ES II 4.1%" and "ES 14.8" (77 values) were set to missing."""
    df = _unit()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    got = enc.transform(df)[:, enc.feature_names_out_.index("EuroSCORE II")]
    want = df["EuroSCORE II"].str.extract(r"(\d+\.\d)")[0].astype(float).to_numpy()
    np.testing.assert_allclose(got, want)


def test_an_old_event_is_not_offered_as_the_yes_of_a_recent_one():
    """Walk-through 98: "MI 2011" and "old MI (2015)" were offered as the yes of "Recent
    MI" (26 old MIs made recent by the merge), "treated IE 2019" as active endocarditis."""
    pairs = abbreviated_levels(["no", "N", "yes", "Y", "MI 2011", "old MI (2015)",
                                "recent MI"], "Recent MI")
    assert ("MI 2011", "yes") not in pairs and ("old MI (2015)", "yes") not in pairs
    assert ("recent MI", "yes") in pairs
    assert ("treated IE 2019", "yes") not in abbreviated_levels(
        ["no", "yes", "treated IE 2019"], "Active endocarditis")
    # elsewhere a dated yes is still offered ("PRP 2019" beside a previous laser's yes)
    assert ("MI 2011", "yes") in abbreviated_levels(["no", "yes", "MI 2011"], "Previous MI")


def test_iddm_is_not_type_1():
    """Walk-through 98 showed a 70-year-old on insulin ("IDDM") as "Type 1"."""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_unit())
    lv = enc.table_.levels("Diabetes")
    assert lv["IDDM"] != lv["Type 1"]


def test_operations_are_read_as_a_list_without_their_details():
    """Walk-through 98: "CABG x3", "CABG x 2 (LIMA-LAD)", "Coronary artery bypass x3",
    "AVR (Perimount 23mm)", "CABG x3 + MVr" (84 answers) left the operation out of the
    model: a CABG's look-alikes included valve repairs."""
    from sparge.data.answer_lists import list_vocabulary, operation_name

    assert operation_name("CABG x4 (LIMA-LAD, SVG-OM1)") == "CABG"
    assert operation_name("avr - mechanical") == "avr"
    assert operation_name("MVR (repair)") == "MVR (repair)"  # the brackets say which
    rng = np.random.default_rng(5)
    ops = ["CABG x3", "CABG x 2 (LIMA-LAD)", "Coronary artery bypass x3", "CABGx4",
           "AVR (Perimount 23mm)", "Aortic valve replacement", "avr (tissue)",
           "CABG x3 + AVR", "AVR + CABG x 2", "Bentall", "MV repair", "CABG + MV repair",
           "CABGx2 + MV repair", "AVR (tissue) + CABG x1", "Bentall + CABG x1"]
    vocab = list_vocabulary(pd.Series(rng.choice(ops, 300), name="Operation"), "Operation")
    assert vocab[:2] == ["CABG", "AVR"] and "MV repair" in vocab and "Bentall" in vocab
    assert not any("x" in v.split()[-1] for v in vocab)


def test_an_answer_written_in_three_cases_is_shown_in_title_case():
    """Walk-through 98: "ELECTIVE", "elective" and "Elective" (126 cells) beside "Elec"
    and "El" were shown as "Elec": the table kept the shouted spelling, which is shown
    last. Initials written in capitals stay as written."""
    from sparge.data.levels import spellings
    from sparge.services.display import answers_by_code

    spelled, _ = spellings(pd.Series(["ELECTIVE"] * 4 + ["elective"] * 4
                                     + ["Elective"] * 3 + ["NAFLD"] * 3 + ["nafld"]))
    assert spelled["elective"] == "Elective" and spelled["nafld"] == "NAFLD"
    df = _unit()
    rng = np.random.default_rng(0)
    df["Urgency"] = rng.choice(["ELECTIVE", "elective", "Elective", "Elec", "El", "URG",
                                "Urgent", "Emergency"], len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert "Elective" in answers_by_code(enc, "Urgency").values()


def test_lvef_and_pa_pressure_words_are_read_as_numbers_of_their_bands():
    """Walk-through 98: LVEF ("57%", "EF 45-50", "good (>50%)", "Good LV", "VP <20%") and
    PA systolic ("PASP 32", "mod 31-55", "moderate", "no PHT") had more than 30 answers
    and were left out of a cardiac surgery model. A word is read as the band the column
    writes beside it (its middle, an open band's limit), else as its band's value."""
    from sparge.data.scale_numbers import LVEF_NAME, PASP_NAME, lvef_percent, pa_pressure

    assert LVEF_NAME.search("LVEF") and LVEF_NAME.search("Ejection fraction (%)")
    assert not LVEF_NAME.search("RVEF") and not LVEF_NAME.search("Reflux")
    assert PASP_NAME.search("PA systolic") and PASP_NAME.search("RVSP")
    # the words' values are those of the heart failure clinic's LVEF (walk-through 71)
    assert [lvef_percent(c) for c in ["good", "moderate LV", "very poor", "EF 45-50"]] \
        == ["55", "40", "20", "47.5"]
    assert [pa_pressure(c) for c in ["no PHT", "severe PHT", "mod 31-55"]] == \
        ["31", "55", "43"]
    rng = np.random.default_rng(3)
    n = 300
    df = _unit(n)
    df["LVEF"] = rng.choice(["57%", "EF 45-50", "LVEF 35%", "62", "good (>50%)", "Good LV",
                             "moderate", "moderate (30-50%)", "poor <30", "VP <20%",
                             "mildly impaired", "not recorded"], n)
    df["PA systolic"] = rng.choice(["PASP 32", "28 mmHg", "41", "normal", "no PHT",
                                    "moderate", "mod 31-55", "severe PHT", "?"], n)
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["LVEF"] == enc.roles_["PA systolic"] == "numeric"
    X = enc.transform(df)
    ef = pd.Series(X[:, enc.feature_names_out_.index("LVEF")], index=df["LVEF"])
    pa = pd.Series(X[:, enc.feature_names_out_.index("PA systolic")],
                   index=df["PA systolic"])
    assert ef["moderate"].iloc[0] == ef["moderate (30-50%)"].iloc[0] == 40
    # "good" alone is the band the column writes beside it, ">50%", read as its limit
    assert ef["good (>50%)"].iloc[0] == ef["Good LV"].iloc[0] == 50
    assert ef["EF 45-50"].iloc[0] == 47.5 and ef["VP <20%"].iloc[0] == 20
    assert ef["mildly impaired"].iloc[0] == 49.5 and ef["poor <30"].iloc[0] == 30
    assert np.isnan(ef["not recorded"]).all()
    # "moderate" alone, "mod 31-55" and "Moderate (31-55)" are one value
    assert pa["moderate"].iloc[0] == pa["mod 31-55"].iloc[0] == 43
    assert pa["PASP 32"].iloc[0] == 32 and pa["no PHT"].iloc[0] == 31
    notes = " ".join(enc.report_.notes)
    assert "'LVEF': " in notes and "band's value (%)" in notes and "(mmHg)" in notes


def test_a_new_patients_lvef_word_is_read_on_the_training_patients_bands():
    """The band a column writes beside a word ("good (>50%)") is the encoder's: a new
    patient's "good" alone is read as the training patients' "good" (50), also after the
    model is saved and loaded, not as the word's default (55)."""
    rng = np.random.default_rng(4)
    n = 200
    df = _unit(n)
    df["LVEF"] = rng.choice(["55%", "EF 40", "good (>50%)", "good", "moderate",
                             "poor (21-30%)", "Poor", "45"], n)
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.word_bands_ == {"LVEF": {"55": "50", "35": "25.5"}}
    new = df.iloc[:2].drop(columns=OUTCOME).assign(LVEF=["good", "Poor"])
    j = enc.feature_names_out_.index("LVEF")
    for model in (enc, Encoder.from_dict(enc.to_dict())):
        np.testing.assert_allclose(model.transform(new)[:, j], [50, 25.5])
    state = enc.to_dict()
    state["word_bands"] = {"LVEF": {"55": "import os"}}
    with pytest.raises(ValueError, match="word_bands"):
        Encoder.from_dict(state)
