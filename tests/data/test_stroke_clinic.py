"""Walk-through 96: a stroke and TIA clinic's export (NIHSS, mRS, AF, OCSP, thrombolysis),
with a recurrent stroke or death within a year as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.answer_merging import merge_answers, other_drugs, same_answer
from sparge.data.encoder import Encoder
from sparge.data.levels import shown_answer
from sparge.services.display import answers_by_code

OUTCOME = "Recurrent stroke or death within 1 year"


def _clinic(n: int = 300, seed: int = 96) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    mrs = rng.integers(0, 6, n)
    spelled = {0: "0 - no symptoms", 1: "1 - no significant disability",
               2: "2 - slight disability", 3: "3 - moderate disability",
               4: "4 - moderately severe", 5: "5 - severe disability"}
    pre = np.array([rng.choice([str(m), f"mRS {m}", spelled[m]]) for m in mrs], dtype=object)
    pre[::25] = "unknown"
    later = np.minimum(mrs + rng.integers(0, 2, n), 6)
    return pd.DataFrame({
        "Hospital No": [f"RX{4000000 + i}" for i in range(n)],
        "Age": rng.integers(40, 95, n).astype(str),
        "Pre-morbid mRS": pre,
        "OCSP": rng.choice(["TACS", "TACI", "PACS", "PACI", "Partial anterior", "LACS",
                            "LACI", "lacunar", "POCS", "POCI"], n),
        "AF": rng.choice(["N", "No", "Sinus rhythm", "NSR", "Y", "Yes", "known AF",
                          "paroxysmal AF"], n),
        "Thrombolysis": rng.choice(["No", "Alteplase", "tPA", "TNK", "Tenecteplase"], n),
        "mRS at 90 days": [rng.choice([str(m), spelled.get(m, "6 - dead")]) for m in later],
        "Discharge destination": rng.choice(["Home", "Rehab unit", "Nursing home", "Died"],
                                            n, p=[0.6, 0.2, 0.15, 0.05]),
        OUTCOME: rng.choice(["Yes", "No"], n, p=[0.25, 0.75])})


def test_the_modified_rankin_scale_is_ordered_whatever_its_spelling():
    """Walk-through 96: "0", "mRS 0" and "0 - no symptoms" were three unordered answers,
    "unknown" an answer of its own."""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    assert enc.table_.is_ordered("Pre-morbid mRS")
    lv = enc.table_.levels("Pre-morbid mRS")
    assert lv["0"] == lv["mRS 0"] == lv["0 - no symptoms"] < lv["1"] < lv["2 - slight disability"]
    assert lv["4 - moderately severe"] < lv["mRS 5"]
    assert "unknown" not in lv
    assert sorted(answers_by_code(enc, "Pre-morbid mRS")) == [0, 1, 2, 3, 4, 5]


def test_a_later_mrs_and_a_death_at_discharge_are_left_out():
    """Walk-through 96: "mRS at 90 days" (beside "Pre-morbid mRS") went to the model, and
    "Discharge destination" with "Died" for an outcome that includes death."""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    assert enc.roles_["mRS at 90 days"] == "ignore"
    assert enc.left_out_why_["mRS at 90 days"].startswith("a later measurement")
    assert enc.roles_["Discharge destination"] == "ignore"
    assert any("'Discharge destination' answers 'Died'" in w for w in enc.report_.warnings)
    # an outcome that is no death keeps it
    df = _clinic().rename(columns={OUTCOME: "Recurrent stroke within 1 year"})
    enc = Encoder(label_column="Recurrent stroke within 1 year", id_column="Hospital No") \
        .fit(df)
    assert enc.roles_["Discharge destination"] == "categorical"


def test_af_and_ocsp_answers_written_several_ways_are_one_answer():
    """Walk-through 96: in a column named "AF", "Sinus rhythm", "NSR" and "No" stayed
    three answers; OCSP's TACS and TACI (its syndrome and its infarct) were apart."""
    assert same_answer("Sinus rhythm", "No", "AF") and same_answer("NSR", "N", "AF")
    assert same_answer("TACI", "TACS", "OCSP") and same_answer("lacunar", "LACS", "OCSP")
    assert not same_answer("PACS", "TACS", "OCSP")
    assert not same_answer("Sinus rhythm", "No", "AF type")
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    assert sorted(answers_by_code(enc, "OCSP").values()) == ["LACS", "PACS", "POCS", "TACS"]
    af = enc.table_.levels("AF")
    assert af["Sinus rhythm"] == af["NSR"] == af["No"] == af["N"]


def test_two_thrombolytic_drugs_are_never_one_answer_and_never_named_as_one():
    """Walk-through 96: "TNK" and "Tenecteplase" were offered, merged by the button, as
    "Alteplase"."""
    assert other_drugs("TNK", "Alteplase") and not other_drugs("tPA", "Alteplase")
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    pairs = enc.report_.answers_two_ways.get("Thrombolysis", [])
    assert not [p for p in pairs if {p[0].lower(), p[1].lower()} & {"tnk", "tenecteplase"}
                and {p[0].lower(), p[1].lower()} & {"alteplase", "tpa"}]
    merged = merge_answers(enc.table_, enc.report_.answers_two_ways)
    lv = merged.levels("Thrombolysis")
    assert lv["tPA"] == lv["Alteplase"] != lv["TNK"]
    assert shown_answer(["Alteplase", "tPA", "TNK", "Tenecteplase"], "Thrombolysis") == \
        "Alteplase or tenecteplase"


def test_an_age_from_a_date_of_birth_is_in_completed_years():
    """Walk-through 96: born 10/07/1956, admitted 24/06/2022 (14 days before the 66th
    birthday) was read 66 in a column of whole ages."""
    df = _clinic(60)
    df["Admission date"] = "24/06/2022"
    df.loc[3, "Age"] = "10/07/1956"
    df.loc[4, "Age"] = "24/06/1956"
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    age = enc.transform(df)[:, enc.feature_names_out_.index("Age")]
    assert (age[3], age[4]) == (65.0, 66.0)


def test_a_carotid_stenosis_is_read_as_its_percentage():
    """Walk-through 96: twenty unordered answers, "70-99%" apart from "NASCET 80%" and
    "90%", "Occluded" apart from "100% occluded"."""
    df = _clinic()
    df["Carotid stenosis (symptomatic side)"] = np.resize(np.array(
        ["<50%", "NASCET 80%", "severe 70-99%", "Occluded", "nil", "no significant stenosis",
         "30%", "50-69%", "90%", "not done"], dtype=object), len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    c = "Carotid stenosis (symptomatic side)"
    assert enc.roles_[c] == "numeric"
    got = enc.transform(df)[:10, enc.feature_names_out_.index(c)]
    np.testing.assert_allclose(got, [50, 80, 84.5, 100, 0, 0, 30, 59.5, 90, np.nan])


def test_a_carotid_severity_word_is_its_band_and_not_indicated_is_no_gap():
    """Walk-through 96 (session 50): "mild" (19 cells) and "not indicated" (39) in the
    carotid stenosis were reported as unreadable text; the imaging the clinician judged
    not needed counted against the patient's share of missing values."""
    df = _clinic()
    c = "Carotid stenosis (symptomatic side)"
    df[c] = np.resize(np.array(["mild", "Moderate", "severe stenosis", "<50%", "70%",
                                "not indicated", "30%", "90%", "0%", "40%"], dtype=object),
                      len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_[c] == "numeric"
    got = enc.transform(df)[:10, enc.feature_names_out_.index(c)]
    np.testing.assert_allclose(got, [50, 59.5, 84.5, 50, 70, np.nan, 30, 90, 0, 40])
    said = str(enc.report_)
    assert not [s for s in enc.report_.stray_text if s.column == c]
    assert "a carotid's severity word alone as its consensus band" in said
    assert f"'{c}' (30)" in said  # not indicated: not counted against the patients
    # a renal artery's "mild" has no agreed band: left as text
    df = df.rename(columns={c: "Renal artery stenosis"})
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["Renal artery stenosis"] != "numeric"


def test_not_indicated_is_a_gap_only_in_a_column_of_numbers():
    """ "Not indicated" in a column of numbers is a test not needed (a gap), whatever the
    column's name; among answers it stays an answer (a carotid endarterectomy)."""
    df = _clinic()
    df["Door to needle (mins)"] = np.resize(np.array(
        ["38", "not indicated", "52", "41", "not required", "60", "29", "45", "33", "70"],
        dtype=object), len(df))
    df["Carotid endarterectomy"] = np.resize(np.array(
        ["No", "Yes", "not indicated", "No"], dtype=object), len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["Door to needle (mins)"] == "numeric"
    assert not [s for s in enc.report_.stray_text if s.column == "Door to needle (mins)"]
    cea = enc.table_.levels("Carotid endarterectomy")
    assert cea["not indicated"] == cea["No"]  # not done: a no, as "not required" is


def test_an_operation_said_done_is_offered_as_its_yes():
    """Walk-through 96: "CEA done" was a third answer of "Carotid endarterectomy"."""
    from sparge.data.levels import CONDITION_NAMES, names_condition

    names = frozenset({"carotidendarterectomy", *CONDITION_NAMES["carotidendarterectomy"]})
    assert names_condition("cea done", names) and names_condition("cea performed", names)
    assert not names_condition("cea not done", names)
    df = _clinic()
    df["Carotid endarterectomy"] = np.resize(np.array(
        ["No", "Yes", "CEA done", "N", "Y", "No"], dtype=object), len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert ("CEA done", "Yes") in [tuple(p) for p in
                                    enc.report_.answers_two_ways.get("Carotid endarterectomy", [])]


def test_answers_are_shown_by_their_plainest_spelling():
    """Walk-through 96: every TIA shown as "T.I.A.", every hypertensive patient as "Known
    HTN", and "clopidogral 75mg" a drug unknown."""
    from sparge.data.drug_combinations import drug_set

    assert shown_answer(["TIA", "T.I.A.", "tia"], "Presentation") == "TIA"
    assert shown_answer(["Y", "Yes", "Known HTN"], "Hypertension") == "Yes"
    assert drug_set("clopidogral 75mg") == {"clopidogrel"}


def test_the_look_alikes_scale_is_summarised_in_its_order_with_its_median():
    """Walk-through 96: the look-alikes' mRS read "mRS 1: 4, mRS 0: 3, mRS 2: 1 …", by
    count, never as the scale it is."""
    from sparge.services.display import _summary_of

    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(_clinic())
    lv = {code: name for code, name in answers_by_code(enc, "Pre-morbid mRS").items()}
    values = np.array([1, 0, 1, 2, 0, 1, 1, 0, np.nan, 4], dtype=float)
    said = _summary_of(values, "Pre-morbid mRS", enc)
    assert said == (f"median {lv[1]} · {lv[0]}: 3, {lv[1]}: 4, {lv[2]}: 1, {lv[4]}: 1"
                    " · 9 of 10 measured")


def test_an_answer_after_its_export_letter_code_is_that_answer():
    """Walk-through 96: "A - White British" (an NHS ethnic category's code) beside "White
    British" was offered, not merged; "a-fib" is no code."""
    assert same_answer("A - White British", "White British", "Ethnicity")
    assert same_answer("1 - Male", "Male", "Sex")
    assert not same_answer("a-fib", "fib", "Rhythm")
    assert not same_answer("A - urgent", "B - urgent", "Priority")
