"""Walk-through 90: a lipid clinic's export (familial hypercholesterolaemia, mixed
dyslipidaemia), with a major cardiovascular event within five years as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.encoder import Encoder
from sparge.data.parsing import header_unit
from sparge.data.plausible import impossible_in_unit, quantity_of
from sparge.method.preprocess import near_duplicate_columns

N = 300
OUTCOME = "Outcome MACE 5y"
ASCVD = ["No", "No", "No", "MI 2015", "NSTEMI 2019", "Stroke 2016", "PCI 2018", "CABG 2012",
         "TIA 2020", "PAD", "STEMI 2010", "MI 2009", "Stroke 2021", "NSTEMI 2014", "angina",
         "MI 2019", "PCI 2011", "CABG 2017", "TIA 2015", "STEMI 2022", "MI 2003",
         "NSTEMI 2008", "PCI 2021", "Stroke 2011", "CABG 2020", "MI 2012", "TIA 2009",
         "STEMI 2016", "PCI 2005", "MI 2001", "NSTEMI 2023", "Stroke 2004", "none", "Yes"]
THERAPY = ["Atorva 40mg", "atorvastatin 40 mg ON", "Rosuva 10", "rosuvastatin 20mg",
           "Simva 40", "simvastatin 20 mg", "ezetimibe 10mg", "Ezetrol",
           "Repatha 140mg 2-weekly", "evolocumab", "Praluent", "alirocumab 75mg",
           "inclisiran", "Leqvio 284mg 6-monthly", "bempedoic acid", "Nustendi",
           "fenofibrate 267mg", "bezafibrate", "Vazkepa", "icosapent ethyl",
           "fluvastatin 80mg", "pitavastatin 2mg", "Atorva 80 + ezetimibe", "none"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    return lipid_export()


def lipid_export() -> pd.DataFrame:
    """The export, 300 patients."""
    rng = np.random.default_rng(90)
    tc = rng.normal(6.5, 1.5, N).clip(3, 14)
    ldl = (tc * 0.65 + rng.normal(0, 0.4, N)).clip(1, 11)
    hdl = rng.normal(1.3, 0.35, N).clip(0.5, 3)
    tc_s, ldl_s = tc.round(1).astype(object), ldl.round(1).astype(object)
    # a second export of the total cholesterol: 30 % of its cells to two decimals, and
    # one cell different
    tc_copy = np.where(rng.random(N) < 0.3, tc.round(2), tc.round(1)).astype(object)
    tc_copy[100] = round(float(tc[100]) + 1.3, 1)
    tc_s[20], ldl_s[21] = 58, 45  # lost decimal points
    hdl_s = hdl.round(2).astype(object)
    hdl_s[22] = 0
    lpa_nmol = rng.lognormal(np.log(60), 1.0, N)
    in_mg = rng.random(N) < 0.3
    lpa = np.where(in_mg, [f"{v / 2.4:.0f} mg/dL" for v in lpa_nmol],
                   [f"{v:.0f} nmol/L" for v in lpa_nmol]).astype(object)
    lpa[rng.random(N) < 0.2] = ""
    p = 1 / (1 + np.exp(-(0.5 * (ldl - 5) - 1)))
    return pd.DataFrame({
        "Patient ID": [f"LC{50000 + i}" for i in range(N)],
        "Age": rng.integers(25, 85, N).astype(str),
        "Sex": rng.choice(["M", "F", "Male", "female"], N),
        "Total cholesterol (mmol/L)": tc_s.astype(str), "Chol total": tc_copy.astype(str),
        "LDL-C (mmol/L)": ldl_s.astype(str), "HDL-C (mmol/L)": hdl_s.astype(str),
        "Triglycerides (mmol/L)": rng.lognormal(np.log(1.8), 0.5, N).round(2).astype(str),
        "Lp(a)": lpa,
        "Diabetes": rng.choice(["No", "no", "Type 2", "Type 1", "T2DM", "Yes"], N),
        "Prior ASCVD": rng.choice(ASCVD, N),
        "Lipid therapy": rng.choice(THERAPY, N),
        "Arcus": rng.choice(["No", "Arcus <45", "Yes", "no"], N),
        OUTCOME: np.where(rng.random(N) < p, "Yes", "No"),
    })


@pytest.fixture(scope="module")
def encoder(export) -> Encoder:
    return Encoder(label_column=OUTCOME, id_column="Patient ID").fit(export)


def _said(enc: Encoder) -> str:
    return " ".join(enc.report_.notes + enc.report_.warnings)


def _column(enc: Encoder, X: np.ndarray, name: str) -> np.ndarray:
    return X[:, list(enc.feature_names_out_).index(name)]


def test_lp_a_is_no_unit_of_lipoprotein_a():
    """The "(a)" of "Lp(a)" was read as the column's unit."""
    assert header_unit("Lp(a)") is None and header_unit("Apo(a)") is None
    assert header_unit("Lp(a) (nmol/L)") == "nmol/l"
    assert header_unit("Weight(g)") == "g" and header_unit("Age(y)") == "years"


def test_lp_a_in_two_units_is_read_in_the_unit_of_most_cells_and_never_converted(
        encoder, export):
    """nmol/L and mg/dL cells: the whole column was set to missing (its unit "a"); and
    lipoprotein(a) has no fixed factor between the two."""
    assert encoder.roles_["Lp(a)"] == "numeric"
    X = encoder.transform(export)
    got = _column(encoder, X, "Lp(a)")
    cells = export["Lp(a)"]
    nmol = cells.str.endswith("nmol/L").to_numpy()
    mg = cells.str.endswith("mg/dL").to_numpy()
    np.testing.assert_allclose(got[nmol], cells[nmol].str.split().str[0].astype(float))
    assert np.isnan(got[mg]).all()
    said = _said(encoder)
    assert "read in 'nmol/L', the unit of most of its cells" in said
    assert "no fixed factor" in said and "apo(a) isoform" in said
    new = export.iloc[[0, 1]].copy()
    new["Lp(a)"] = ["150 nmol/L", "40 mg/dL"]
    got = _column(encoder, encoder.transform(new), "Lp(a)")
    assert got[0] == 150 and np.isnan(got[1])


def test_lipids_beyond_what_a_patient_can_have_are_named_with_their_decimal_point(
        encoder):
    """An LDL of 45 and a total cholesterol of 58 mmol/L were used as given; an HDL of 0
    was not named."""
    assert quantity_of("LDL-C (mmol/L)")[0] == "LDL cholesterol"
    assert quantity_of("HDL-C (mmol/L)")[0] == "HDL cholesterol"
    assert quantity_of("Non-HDL-C")[0] == "non-HDL cholesterol"
    assert quantity_of("Chol total")[0] == "total cholesterol"
    assert quantity_of("TC:HDL") is None and quantity_of("Cholesterol/HDL ratio") is None
    hdl = np.r_[np.full(60, 1.3), 0.0]
    assert impossible_in_unit("HDL-C (mmol/L)", "mmol/L", hdl).nonzero()[0].tolist() == [60]
    checked = {(c, r): v for c, r, v, *_ in encoder.report_.values_to_check}
    assert checked[("Total cholesterol (mmol/L)", 20)] == 58
    assert checked[("LDL-C (mmol/L)", 21)] == 45
    assert checked[("HDL-C (mmol/L)", 22)] == 0
    said = _said(encoder)
    assert "'Total cholesterol (mmol/L)' 58 (CSV line 22)" in said
    assert "(a misplaced decimal point? 5.8)" in said and "(a misplaced decimal point? 4.5)" \
        in said
    assert "in 'mg/dL'?" not in said  # 58 mg/dL is 1.5 mmol/L, far below every patient


def test_a_second_column_of_the_same_measurement_rounded_otherwise_is_a_copy(encoder):
    """"Chol total" repeated the total cholesterol, a third of it to two decimals and one
    cell different: kept as a second feature, the measurement counted twice."""
    assert "Chol total" not in encoder.feature_names_out_
    assert "Total cholesterol (mmol/L)" in encoder.feature_names_out_
    why = next(d.reason for d in encoder.report_.dropped_columns if d.column == "Chol total")
    assert "the same values as 'Total cholesterol (mmol/L)' up to rounding" in why
    assert "CSV lines 22, 102 differ" in why


def test_near_copies_need_agreement_beyond_rounding_and_many_values():
    rng = np.random.default_rng(1)
    a = rng.normal(5, 1, 200).round(2)
    X = np.column_stack([a, a.round(1), a + 0.2, rng.integers(0, 2, 200),
                         rng.integers(0, 2, 200)]).astype(float)
    X[3, 1] = np.nan  # a gap in one: one disagreement
    X[:, 4] = X[:, 3]
    X[0, 4] = 1 - X[0, 4]
    got = near_duplicate_columns(X, range(5))
    assert set(got) == {1}  # not the shifted one, not two yes/no columns
    assert got[1].of == 0 and got[1].differ == (3,) and got[1].agree == 199
    # two patients in a hundred differing is no copy
    Y = np.column_stack([a[:100], a[:100].round(1)])
    Y[:2, 1] += 1
    assert near_duplicate_columns(Y, range(2)) == {}


def test_a_prior_event_written_with_its_year_is_read_as_the_event(encoder, export):
    """"MI 2015", "NSTEMI 2019", "Stroke 2016" …: over thirty answers, the column left out
    as free text."""
    levels = encoder.table_.levels("Prior ASCVD")
    assert encoder.roles_["Prior ASCVD"] == "categorical"
    assert {"MI", "NSTEMI", "STEMI", "Stroke", "TIA", "PCI", "CABG", "No"} <= set(levels)
    assert not any(any(ch.isdigit() for ch in lv) for lv in levels)
    assert "'Prior ASCVD'" in _said(encoder) and "read as the event" in _said(encoder)
    X = encoder.transform(export)
    mi = export["Prior ASCVD"].str.startswith("MI ").to_numpy()
    assert (_column(encoder, X, "Prior ASCVD")[mi] == levels["MI"]).all()
    # a new patient's event of another year is the same event
    new = export.iloc[[0, 1]].copy()
    new["Prior ASCVD"] = ["MI 2024", "Stroke (2023)"]
    got = _column(encoder, encoder.transform(new), "Prior ASCVD")
    assert got.tolist() == [levels["MI"], levels["Stroke"]]


def test_event_of_leaves_dates_habits_and_plain_years_alone():
    from sparge.data.event_years import event_of, read_event_years
    assert event_of("CABG - 2012") == "CABG" and event_of("PCI in 2018") == "PCI"
    for cell in ("Jan 2015", "2015", "stopped 2015", "since 2010", "No", "dx 2010"):
        assert event_of(cell) is None, cell
    # two events with a year are no column of events; a year column is the years'
    few = pd.DataFrame({"Hx": ["MI 2015", "Stroke 2016"] + ["No"] * 10,
                        "Year of MI": ["MI 2015", "MI 2016", "MI 2017", "No"]  * 3})
    assert read_event_years(few).equals(few)


def test_a_yes_with_its_note_is_no_named_value(encoder):
    """"Arcus <45" among "Yes" and "No" was read as the answer "<45"."""
    assert "<45" not in encoder.table_.levels("Arcus")
    assert "Arcus <45" in encoder.table_.levels("Arcus")


def test_lipid_lowering_drugs_by_generic_short_and_brand_name(encoder):
    """"Atorva 40mg" and "atorvastatin 40 mg ON" were two answers; "Leqvio" and
    "inclisiran", "Ezetrol" and "ezetimibe" were not offered as one; no lipid drug but
    the four older statins was known."""
    from sparge.data.drug_combinations import drug_set
    assert drug_set("Atorva 80 + ezetimibe") == {"atorvastatin", "ezetimibe"}
    assert drug_set("Nustendi") == {"bempedoic acid", "ezetimibe"}
    assert drug_set("Repatha 140mg 2-weekly") == {"evolocumab"}
    assert drug_set("Leqvio 284mg 6-monthly") == {"inclisiran"}
    assert drug_set("Vazkepa") == drug_set("icosapent ethyl") == {"icosapent ethyl"}
    assert drug_set("Rosuva 10") == {"rosuvastatin"}
    levels = encoder.table_.levels("Lipid therapy")
    assert levels["Atorva 40mg"] == levels["atorvastatin 40 mg ON"]
    assert levels["Vazkepa"] == levels["icosapent ethyl"]
    assert levels["Atorva 40mg"] != levels["Atorva 80 + ezetimibe"]  # another regimen
    said = _said(encoder)
    for a, b in (("'Leqvio 284mg 6-monthly' (", "'inclisiran' ("),
                 ("'Ezetrol' (", "'ezetimibe 10mg' (")):
        assert a in said and b in said


def test_an_ldl_that_could_not_be_calculated_is_no_gap_of_the_patients_record():
    """"TG too high" in the LDL column: the Friedewald LDL cannot be calculated; as a gap
    it left most of those 18 patients (mixed dyslipidaemia) out of training."""
    df = lipid_export()
    rows = np.arange(6, 300, 15)
    df.loc[rows, "LDL-C (mmol/L)"] = "TG too high"
    # each of those patients misses one more value, over the threshold of 10 % alone
    other = ["Triglycerides (mmol/L)", "HDL-C (mmol/L)"]
    df.loc[rows, other[0]] = ""
    df.loc[rows, "Lp(a)"] = "100 nmol/L"
    df.loc[rows, "HDL-C (mmol/L)"] = "1.1"
    enc = Encoder(label_column=OUTCOME, id_column="Patient ID",
                  max_patient_missing=0.1).fit(df)
    assert enc.keep_patients_[rows].all()
    # written as a gap, two gaps of 12 values: left out
    gap = df.replace({"TG too high": ""})
    assert not Encoder(label_column=OUTCOME, id_column="Patient ID",
                       max_patient_missing=0.1).fit(gap).keep_patients_[rows].any()
    said = _said(enc)
    assert "saying the value could not be calculated ('TG too high')" in said
    assert "'LDL-C (mmol/L)' (20)" in said


def test_a_score_after_its_band_in_words_is_read():
    """DLCN "Definite (9)" was set to missing while "7 (probable)" was read as 7."""
    from sparge.data.parsing import plain_number
    assert plain_number("Definite (9)") == 9 and plain_number("7 (probable)") == 7
    assert plain_number("mg (5)") is None  # a unit is no band
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"DLCN score": rng.choice(["3", "5", "7 (probable)", "Definite (9)",
                                                 "2", "6"], 80),
                       "Age": rng.integers(30, 80, 80).astype(str),
                       OUTCOME: rng.choice(["Yes", "No"], 80)})
    enc = Encoder(label_column=OUTCOME)
    X = enc.fit_transform(df)
    definite = (df["DLCN score"] == "Definite (9)").to_numpy()
    assert (_column(enc, X, "DLCN score")[definite] == 9).all()


def test_a_value_set_to_missing_for_its_unit_is_no_gap_of_the_patients_record():
    """Walk-through 91: 23 of 73 patients with an Lp(a) in mg/dL were left out of
    training (32 %, against 15 % of all), the reading's own gap pushing them over."""
    df = lipid_export()
    mg = df["Lp(a)"].str.endswith("mg/dL").to_numpy()
    enc = Encoder(label_column=OUTCOME, id_column="Patient ID", max_patient_missing=0.0)
    X = enc.fit_transform(df)
    others = np.isnan(np.delete(X, enc.feature_names_out_.index("Lp(a)"), axis=1)).any(axis=1)
    # no gap but the Lp(a) in mg/dL: kept however strict the threshold
    assert enc.keep_patients_[mg & ~others].all() and (mg & ~others).sum() > 10
    assert "'Lp(a)' (" in _said(enc) and "the patient has the value" in _said(enc)


def test_n_beside_no_is_one_answer_in_any_column():
    """Walk-through 91's "Prior ASCVD" (event kinds with No, N and none): "N" stayed an
    answer of its own, and the New patient form offered N, No and None."""
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"Prior ASCVD": rng.choice(["No", "N", "MI 2015", "Stroke 2016",
                                                  "PCI 2018", "MI", "TIA 2019", "none"],
                                                 120),
                       "Age": rng.integers(30, 80, 120).astype(str),
                       OUTCOME: rng.choice(["Yes", "No"], 120)})
    enc = Encoder(label_column=OUTCOME).fit(df)
    levels = enc.table_.levels("Prior ASCVD")
    assert levels["N"] == levels["No"] == levels["none"] != levels["MI"]
    assert "Prior ASCVD" not in enc.report_.answers_two_ways  # nothing left to offer


def test_pairs_that_would_lose_a_conditions_type_are_named(encoder):
    """Walk-through 90 #7: "Type 1" and "Type 2" both offered into "Yes": the pairs that
    would make a condition's types one answer are named (the Data page keeps them apart
    until the user merges them); a spelling of one type into it ("T2DM" into "Type 2")
    and a column's other pairs are not."""
    from sparge.data.answer_merging import named_type, type_losing_pairs

    pairs = encoder.report_.answers_two_ways
    assert pairs["Diabetes"] == [["Type 1", "Yes"], ["Type 2", "Yes"]]
    assert type_losing_pairs(pairs) == ["Diabetes: 'Type 1' into 'Yes'",
                                        "Diabetes: 'Type 2' into 'Yes'"]
    # through a chain, and one type alone loses nothing
    assert type_losing_pairs({"DM": [["T2DM", "Type 2"], ["Type 2", "Yes"],
                                     ["T1DM", "Yes"]]}) == [
        "DM: 'Type 2' into 'Yes'", "DM: 'T1DM' into 'Yes'"]
    assert type_losing_pairs({"DM": [["T2DM", "Type 2"], ["Type 2", "Yes"]]}) == []
    # ... and the condition's other kinds into that answer, kept apart with its types
    # (walk-through 92: "diet controlled" merged beside a "Type 2" kept apart)
    assert type_losing_pairs({"DM": [["Type 1", "Yes"], ["T2 on insulin", "Yes"],
                                     ["diet controlled", "Yes"], ["T2DM", "Type 2"]]}) == [
        "DM: 'Type 1' into 'Yes'", "DM: 'T2 on insulin' into 'Yes'",
        "DM: 'diet controlled' into 'Yes'"]
    assert [named_type(a) for a in ["type II", "NIDDM", "GDM", "Type 2 / type 1"]] == [
        "2", "2", "gestational", None]


def test_a_score_not_valid_for_the_patient_is_not_applicable(export):
    """Walk-through 90 #17: the DLCN score's "not valid (FH)" (a relative's known FH) was
    stray text; it is "not applicable", a gap that does not count against the patient's
    share of missing values, with the reason in the note."""
    df = export.copy()
    df["DLCN score"] = np.resize(np.array(["3", "not valid (FH)", "6", "Not valid - known FH",
                                           "1", "not valid"], dtype=object), len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Patient ID",
                  max_patient_missing=0.0).fit(df)
    assert enc.roles_["DLCN score"] == "numeric"
    X = enc.transform(df)
    score = X[:, enc.feature_names_out_.index("DLCN score")]
    invalid = df["DLCN score"].str.lower().str.startswith("not valid").to_numpy()
    assert np.isnan(score[invalid]).all() and np.isfinite(score[~invalid]).all()
    assert "reason (e.g. 'not valid (FH)')" in _said(enc) or \
        "reason (e.g. 'Not valid - known FH')" in _said(enc)
    # no patient is left out for it: the gap does not apply to them
    kept = Encoder(label_column=OUTCOME, id_column="Patient ID", max_patient_missing=0.0)
    kept.fit(export)
    assert len(enc.report_.patients_dropped) == len(kept.report_.patients_dropped) < 100
