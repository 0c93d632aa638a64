"""Walk-through 97: a Parkinson's disease and movement-disorders clinic's export (Hoehn and
Yahr, MDS-UPDRS part III ON and OFF, LEDD, falls), with a care home admission or death
within two years as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.encoder import Encoder
from sparge.data.on_off_scores import on_off_scores
from sparge.data.scale_numbers import hoehn_yahr_stage
from sparge.services.workflow import unread_values

OUTCOME = "Care home admission or death within 2 years"


def _clinic(n: int = 300, seed: int = 97) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    stage = rng.choice([1, 1.5, 2, 2.5, 3, 4, 5], n)
    hy = np.array([rng.choice([f"{s:g}", f"H&Y {s:g}", f"HY{s:g}"]) for s in stage],
                  dtype=object)
    roman = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}
    whole = np.flatnonzero(stage == np.round(stage))
    hy[whole[::3]] = [f"stage {roman[int(stage[i])]}" for i in whole[::3]]
    on = rng.integers(10, 60, n)
    updrs = np.array([str(v) for v in on], dtype=object)
    updrs[::4] = [f"ON {v} / OFF {v + 15}" for v in on[::4]]
    updrs[1::8] = [f"{v} (on)" for v in on[1::8]]
    bad = stage >= 4
    outcome = np.where(bad | (rng.random(n) < 0.1), "Yes", "No").astype(object)
    outcome[np.flatnonzero(outcome == "No")[:9]] = "Nn"
    outcome[np.flatnonzero(outcome == "No")[:7]] = "N0"
    outcome[np.flatnonzero(outcome == "Yes")[0]] = "Yse"
    return pd.DataFrame({
        "Hospital No": [f"RM{700000 + i}" for i in range(n)],
        "Age": rng.integers(45, 90, n).astype(str),
        "H&Y stage": hy,
        "MDS-UPDRS III": updrs,
        "LEDD": [rng.choice([f"{v} mg", f"{v}mg/day", str(v)])
                 for v in rng.integers(0, 16, n) * 50],
        "Falls (last 6 months)": rng.choice(["0", "none", "1", "2", "x3", "weekly"], n),
        "Residence at last contact": np.where(outcome == "Yes", "Nursing home", "Home"),
        OUTCOME: outcome})


def test_outcome_typos_are_yes_and_no_and_a_leak_is_left_out():
    """Walk-through 97: "Nn" and "N0" were two more outcomes, "Yse" a third, and the
    leak check counted Yse's one patient as the rarer outcome: "Residence at last
    contact" (AUC 1.00) stayed in the model, questioned."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert set(enc.labels(df)) == {"Yes", "No"}
    assert enc.roles_["Residence at last contact"] == "ignore"
    # an outcome of one patient judges nothing: the rarer judged outcome decides
    df[OUTCOME] = df[OUTCOME].replace({"Yse": "Maybe"})
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert "Maybe" in set(enc.labels(df))
    assert enc.roles_["Residence at last contact"] == "ignore"


def test_hoehn_and_yahr_is_read_as_the_stage_number():
    """Walk-through 97: 32 unordered answers, "H&Y 3" coded 16 and "5" coded 7."""
    assert [hoehn_yahr_stage(c) for c in ["H&Y 2.5", "HY1.5", "stage III", "V", "2.5"]] \
        == ["2.5", "1.5", "3", "5", None]
    assert hoehn_yahr_stage("stage 3-2") is None and hoehn_yahr_stage("7") is None
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["H&Y stage"] == "numeric"
    got = enc.transform(df)[:, enc.feature_names_out_.index("H&Y stage")]
    want = [float(hoehn_yahr_stage(c) or c) for c in df["H&Y stage"]]
    np.testing.assert_allclose(got, want)


def test_updrs_on_and_off_in_one_cell_are_two_columns():
    """Walk-through 97: the MDS-UPDRS III was left out as free text, and read as numbers
    it lost every "ON 30 / OFF 49": the patients whose motor state fluctuates."""
    assert on_off_scores("OFF 66 ON 45") == {"off": 66.0, "on": 45.0}
    assert on_off_scores("55 (on) 76 (off)") == {"on": 55.0, "off": 76.0}
    assert on_off_scores("ON 30 / ON 40") is None and on_off_scores("30") is None
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    names = enc.feature_names_out_
    assert enc.roles_["MDS-UPDRS III"] == "numeric"
    assert "MDS-UPDRS III OFF" in names
    X = enc.transform(df)
    on, off = X[:, names.index("MDS-UPDRS III")], X[:, names.index("MDS-UPDRS III OFF")]
    assert not np.isnan(on).any()
    np.testing.assert_allclose(off[::4], on[::4] + 15)
    assert np.isnan(off[2::4]).all()
    # the OFF score's gaps do not apply to the patients not examined OFF: none is left
    # out of training for them
    assert enc.training_rows(df).all()
    # a new patient's cell is split the same way, however few the rows
    new = df.iloc[:1].copy()
    new["MDS-UPDRS III"] = ["on 31, off 52"]
    row = enc.transform(new)[0]
    assert (row[names.index("MDS-UPDRS III")], row[names.index("MDS-UPDRS III OFF")]) \
        == (31, 52)


def test_a_daily_dose_in_mg_a_day_is_in_mg_and_an_impossible_ledd_is_flagged():
    """Walk-through 97: 64 LEDDs written "870mg/day" were set to missing (no conversion to
    'mg'), and 10,700 mg (an extra zero) went to the model."""
    df = _clinic()
    df.loc[5, "LEDD"] = "10700"
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    got = enc.transform(df)[:, enc.feature_names_out_.index("LEDD")]
    written = df["LEDD"].str.extract(r"(\d+)")[0].astype(float).to_numpy()
    ok = np.arange(len(df)) != 5
    np.testing.assert_allclose(got[ok], written[ok])
    assert ["LEDD", 5] in [list(v[:2]) for v in enc.report_.impossible]


def test_falls_said_how_often_are_counted_in_the_window():
    """Walk-through 97: "weekly" in "Falls (last 6 months)" was a gap, the heaviest
    fallers read as unknown."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    got = enc.transform(df)[:, enc.feature_names_out_.index("Falls (last 6 months)")]
    weekly = (df["Falls (last 6 months)"] == "weekly").to_numpy()
    assert got[weekly] == pytest.approx(6 * 365.25 / 12 / 7, abs=0.01)
    assert (got[(df["Falls (last 6 months)"] == "none").to_numpy()] == 0).all()


def test_diagnoses_are_offered_as_one_and_a_new_patients_synonym_is_suggested():
    """Walk-through 97: Parkinson's disease in 13 spellings stayed apart after every
    merge, and a new patient's "PSP" was asked whether it meant "?PSP" (possible)."""
    df = _clinic()
    rng = np.random.default_rng(1)
    df["Diagnosis"] = rng.choice(["Parkinson's disease", "PD", "Idiopathic PD", "IPD",
                                  "?PSP", "Progressive supranuclear palsy",
                                  "PSP (Richardson)", "MSA",
                                  "Multiple system atrophy", "Essential tremor",
                                  "essential tremour"], len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    pairs = {tuple(p) for p in enc.report_.answers_two_ways["Diagnosis"]}
    assert {("PD", "Parkinson's disease"), ("IPD", "Parkinson's disease"),
            ("MSA", "Multiple system atrophy")} <= pairs
    assert not any("?PSP" in p for p in pairs)
    new = df.iloc[:1].copy()
    new["Diagnosis"] = ["PSP"]
    X = pd.DataFrame(enc.transform(new), columns=enc.feature_names_out_)
    said = " ".join(unread_values(enc, new, X)[0])
    assert "did you mean 'P" in said and "'?PSP'?" not in said, said
    # once its spellings are merged, a new patient's synonym is read as the answer
    table = enc.table_.with_merged_levels(
        {"Diagnosis": [("PSP (Richardson)", "Progressive supranuclear palsy")]})
    merged = Encoder(label_column=OUTCOME, id_column="Hospital No",
                     encoding_table=table).fit(df)
    x = merged.transform(new)[0, merged.feature_names_out_.index("Diagnosis")]
    assert x == merged.table_.levels("Diagnosis")["Progressive supranuclear palsy"]


def test_lying_and_standing_pressures_are_the_lying_systolic_and_its_drop(tmp_path):
    """Walk-through 97: "L 145/99 S 135/94", "137/90 lying 127/86 standing" and "126/60
    -> 109/53" were free text, orthostatic hypotension with them; a named-value reading
    had cut "lying 117/69, standing 105/64" to "117/69, standing 105/64"."""
    from sparge.data.postural_pressures import postural_parts
    from sparge.data.reading import read_table

    assert postural_parts("lying 117/69, standing 105/64 (3 min)") == (117.0, 12.0)
    assert postural_parts("119/68 lying 79/50 standing") == (119.0, 40.0)
    assert postural_parts("80/120 -> 70/60") is None  # a diastolic above the systolic
    df = _clinic()
    col = "Lying/standing BP"
    df[col] = np.resize(np.array(["L 145/99 S 135/94", "137/90 lying 127/86 standing",
                                  "lying 117/69, standing 105/64 (3 min)", "126/60 -> 109/53",
                                  "no postural drop", "unable to stand", "", "110/71"],
                                 dtype=object), len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    names = enc.feature_names_out_
    X = enc.transform(df)
    lying, drop = X[:, names.index(f"{col} lying systolic")], X[:, names.index(
        f"{col} systolic drop")]
    np.testing.assert_allclose(lying[:8], [145, 137, 117, 126, np.nan, np.nan, np.nan, 110])
    np.testing.assert_allclose(drop[:8], [10, 10, 12, 17, 0, np.nan, np.nan, np.nan])
    # one empty cell is one gap of the patient's, not two
    w = enc.feature_weights()
    assert w[names.index(f"{col} lying systolic")] == w[names.index(f"{col} systolic drop")] \
        == 0.5
    # the file read as a table (the Data page's preview) splits it the same way
    df.to_csv(tmp_path / "postural.csv", index=False)
    read = read_table(tmp_path / "postural.csv")
    assert f"{col} systolic drop" in read.columns
    # a new patient's cell too, however few the rows
    new = df.iloc[:1].copy()
    new[col] = ["L 150/80 S 120/70"]
    row = enc.transform(new)[0]
    assert (row[names.index(f"{col} lying systolic")], row[names.index(
        f"{col} systolic drop")]) == (150, 30)


def test_parkinsons_drugs_by_brand_are_read_in_a_medication_list():
    """Walk-through 97: "Sinemet Plus tds, Comtess 200, amantadine 100mg bd" and
    "Madopar CR 125 nocte + Madopar 125 tds, Requip XL 8mg" left the medication column
    out as free text: no Parkinson's drug was known."""
    from sparge.data.answer_lists import list_vocabulary
    from sparge.data.drug_combinations import drug_set

    assert drug_set("sinemet plus tds, comtess 200, amantadine 100mg bd") == {
        "levodopa", "carbidopa", "entacapone", "amantadine"}
    assert drug_set("madopar cr 125 nocte + madopar 125 tds, requip xl 8mg") == {
        "levodopa", "benserazide", "ropinirole"}
    assert drug_set("apomorphine pump 5mg/hr") == {"apomorphine"}
    assert drug_set("levodopa/carbidopa 100/25 tds") == {"levodopa", "carbidopa"}
    assert drug_set("entacapone 200mg with each dose") == {"entacapone"}
    assert drug_set("stalevo 100 5x/day") == {"levodopa", "carbidopa", "entacapone"}
    rng = np.random.default_rng(4)
    meds = ["Sinemet Plus tds, Comtess 200", "Madopar 125 qds, Ropinirole 2mg tds",
            "Stalevo 150 qds, amantadine 100mg bd", "co-careldopa 25/100 tds, rasagaline 1mg",
            "Madopar CR 125 nocte + Requip XL 8mg", "nil PD meds", "Duodopa + amantadine"]
    vocab = list_vocabulary(pd.Series(rng.choice(meds, 200), name="Medications"),
                            "Medications")
    assert {"levodopa", "ropinirole", "amantadine", "entacapone", "rasagiline"} <= set(vocab)


def test_a_year_of_diagnosis_written_with_a_note_is_the_year():
    """Walk-through 97: "dx 2018", "?2018" and "15/02/2020" among plain years left the
    year of diagnosis out as free text."""
    df = _clinic()
    df["Year of diagnosis"] = np.resize(np.array(
        ["2018", "dx 2013", "?2016", "15/02/2020", "2019", "2020 (symptoms 2017)", "2011",
         "2015", "2009", "2017"], dtype=object), len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    got = enc.transform(df)[:10, enc.feature_names_out_.index("Year of diagnosis")]
    np.testing.assert_allclose(got, [2018, 2013, 2016, 2020, 2019, 2020, 2011, 2015, 2009,
                                     2017])


def test_a_test_not_done_with_why_is_a_gap():
    """Walk-through 97: six "not done - tired" in the MDS-UPDRS III were reported as
    unreadable text."""
    df = _clinic()
    df.loc[:2, "MDS-UPDRS III"] = ["not done - tired", "not assessed (on holiday)", "32"]
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert not [s for s in enc.report_.stray_text if s.column == "MDS-UPDRS III"]
    got = enc.transform(df)[:3, enc.feature_names_out_.index("MDS-UPDRS III")]
    assert np.isnan(got[:2]).all() and got[2] == 32
    assert "saying a test was not done, with why" in " ".join(enc.report_.notes)


def test_a_second_visit_written_another_way_is_not_said_to_differ_in_a_left_out_column():
    """Walk-through 97: a patient's row copied with "35 (on)" for "35" was said to
    differ "only in 'MDS-UPDRS III', left out of the model", a column the model reads."""
    df = _clinic(120).drop(columns="Residence at last contact")
    df["Consultant"] = "Dr A"
    df.loc[120] = df.loc[0]
    df.loc[120, "Consultant"] = "Dr B"
    df.loc[0, "MDS-UPDRS III"] = "35"
    df.loc[120, "MDS-UPDRS III"] = "35 (on)"
    enc = Encoder(label_column=OUTCOME).fit(df)
    said = " ".join(w for w in enc.report_.warnings if "more row repeats" in w)
    assert "'Consultant', left out of the model" in said
    assert "'MDS-UPDRS III', written another way for the same value" in said
