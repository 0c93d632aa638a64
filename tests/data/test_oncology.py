"""A medical oncology day unit's export (walk-through 54): a febrile neutropenia outcome
written "none", TNM stages without their M part, neutrophils per µL among ×10⁹/L, weights
with a lost decimal point, comorbidity lists among single answers, and "yes - chest wall"
for previous radiotherapy."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.answer_lists import list_vocabulary
from sparge.data.levels import abbreviated_levels
from sparge.data.tnm import tnm_parts

OUTCOME = "Febrile neutropenia within 30 days"


def _unit(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    fn = rng.random(n) < 0.15
    neut = rng.lognormal(np.log(3.5), 0.3, n).round(1)
    cells = [f"{int(v * 1000)} /uL" if i % 9 == 0 else f"{v}" for i, v in enumerate(neut)]
    weight = rng.normal(72, 12, n).round(1)
    df = pd.DataFrame({
        "Age": rng.integers(30, 85, n).astype(str),
        "Neutrophils": cells,
        "Weight (kg)": weight.astype(str),
        "TNM": rng.choice(["cT2N1M0", "pT3 N0", "T2 N1", "pT1N0M1", "cT4b N1 M1b"], n),
        OUTCOME: np.where(fn, rng.choice(["Yes", "FN", "yes - admitted"], n),
                          rng.choice(["No", "N", "none", "no FN"], n))})
    df.loc[7, "Weight (kg)"] = "724"
    df.loc[8, "Weight (kg)"] = "655"
    return df


def test_none_is_no_febrile_neutropenia():
    """89 "none" were a third outcome: chance read 33 % and classes were faked."""
    df = _unit()
    enc = Encoder(label_column=OUTCOME)
    enc.fit_transform(df)
    labels = pd.Series(enc.labels(df))
    assert set(labels.dropna()) == {"Yes", "No"}
    assert (labels[df[OUTCOME] == "none"] == "No").all()


def test_a_tnm_stage_without_its_m_part_reads_t_and_n():
    """"pT3 N0" (33 resected tumours) was a gap in T, N and M."""
    assert tnm_parts("pT3 N0") == ("T3", "N0", "")
    assert tnm_parts("T2 N1") == ("T2", "N1", "")
    enc = Encoder(label_column=OUTCOME)
    X = enc.fit_transform(_unit())
    t = enc.feature_names_out_.index("TNM T")
    m = enc.feature_names_out_.index("TNM M")
    rows = (_unit()["TNM"] == "pT3 N0").to_numpy()
    assert np.isfinite(X[rows, t]).all() and np.isnan(X[rows, m]).all()


def test_neutrophils_per_microlitre_are_converted_in_training():
    """38 "4600 /uL" were set to missing in training, and read on the New patient page."""
    df = _unit()
    enc = Encoder(label_column=OUTCOME)
    X = enc.fit_transform(df)
    j = enc.feature_names_out_.index("Neutrophils")
    per_ul = df["Neutrophils"].str.endswith("/uL").to_numpy()
    expected = [float(c.split()[0]) / 1000 for c in df["Neutrophils"][per_ul]]
    np.testing.assert_allclose(X[per_ul, j], expected)
    assert any("in '/uL' converted to" in n for n in enc.report_.notes)


def test_a_lost_decimal_point_is_said_and_no_absurd_unit_offered():
    """724 and 655 kg were offered "in 'lb'? 328, 297 kg"; they are 72.4 and 65.5."""
    enc = Encoder(label_column=OUTCOME)
    enc.fit_transform(_unit())
    said = next(w for w in enc.report_.warnings if "'Weight (kg)'" in w)
    assert "a misplaced decimal point? 72.4, 65.5" in said and "'lb'" not in said
    assert [c[3:] for c in enc.report_.values_to_check if c[0] == "Weight (kg)"] == [
        [None, None], [None, None]]


def test_plain_counts_among_cells_per_microlitre_are_read_per_microlitre():
    """Plain "4100" and "2600" among "3500 /uL" cells, in a column of plain 10^9/L counts,
    were far values offered in '/µL' but not converted by the click (fewer than 3): they
    lie among the column's cells per µL, and are read so (4.1 and 2.6)."""
    df = _unit()
    df.loc[5, "Neutrophils"] = "4100"
    df.loc[6, "Neutrophils"] = "2600"
    enc = Encoder(label_column=OUTCOME)
    X = enc.fit_transform(df)
    j = enc.feature_names_out_.index("Neutrophils")
    np.testing.assert_allclose(X[[5, 6], j], [4.1, 2.6])
    assert not [c for c in enc.report_.values_to_check if c[0] == "Neutrophils"]
    assert any("2 cell(s) written as plain numbers the size of its cells in '/uL'" in n
               for n in enc.report_.notes)


def test_a_unit_guessed_for_too_few_values_says_the_click_does_not_convert_them():
    """Two creatinines in mg/dL among µmol/L (no cell names mg/dL): offered, named as too
    few for the click to convert (walk-through 54)."""
    df = _unit()
    rng = np.random.default_rng(2)
    df["Creatinine (umol/L)"] = rng.normal(90, 20, len(df)).round().astype(int).astype(str)
    df.loc[5, "Creatinine (umol/L)"] = "1.1"
    df.loc[6, "Creatinine (umol/L)"] = "0.9"
    enc = Encoder(label_column=OUTCOME)
    enc.fit_transform(df)
    said = next(w for w in enc.report_.warnings if "'Creatinine (umol/L)'" in w)
    assert "(in 'mg/dL'? 97.2, 79.6 umol/L; fewer than 3, so not converted by the click)" \
        in said


def test_comorbidity_lists_among_single_answers_are_read_as_lists():
    """56 lists among 325 answers (17 %) were left out as free text."""
    rng = np.random.default_rng(1)
    single = rng.choice(["HTN", "DM", "CKD", "COPD", "IHD"], 280).tolist()
    lists = rng.choice(["HTN, DM", "HTN; CKD", "COPD, IHD", "DM, CKD", "HTN, COPD",
                        "DM; IHD"], 50).tolist()
    cells = pd.Series(rng.permutation(single + lists + ["none"] * 100))
    assert list_vocabulary(cells, "Comorbidities") is not None
    # a column of answers holding a comma stays one answer per cell
    assert list_vocabulary(pd.Series(["Bacteremia, unknown source", "UTI"] * 20),
                           "Source") is None


def test_a_yes_with_a_note_is_offered_with_yes():
    pairs = dict(abbreviated_levels(["No", "N", "Yes", "Y", "yes (2019)",
                                     "yes - chest wall"], "Previous RT"))
    assert pairs["yes (2019)"] == pairs["yes - chest wall"] == "Yes"


def test_a_conditions_other_names_in_lists_are_one_answer():
    """"HTN" and "hypertension" were two yes/no columns of one comorbidity list, each
    No for the other's patients."""
    from sparge.data.answer_lists import split_lists
    rng = np.random.default_rng(2)
    cells = rng.permutation(
        rng.choice(["HTN", "hypertension", "DM", "diabetes", "COPD"], 300).tolist()
        + rng.choice(["HTN, DM", "hypertension; COPD", "diabetes, COPD", "HTN, diabetes",
                      "DM, hypertension"], 60).tolist() + ["none"] * 80)
    df = pd.DataFrame({"Comorbidities": cells})
    out, found, _ = split_lists(df)
    assert len(found["Comorbidities"]) == 3  # hypertension, diabetes, COPD
    htn = next(c for c in out.columns if c.endswith(("HTN", "hypertension")))
    both = df["Comorbidities"].str.contains("HTN|hypertension")
    assert (out.loc[both, htn] == "Yes").all() and (out.loc[~both & (df["Comorbidities"]
                                                                    != "none"), htn]
                                                      == "No").all()
    # a new patient's other name reads the same column
    new, _, _ = split_lists(pd.DataFrame({"Comorbidities": ["hypertension, diabetes"]}),
                            known=found)
    assert (new.iloc[0] == "Yes").sum() == 2


def test_a_marker_named_with_its_number_is_read_after_its_name():
    """CA-125 ("CA-125 197", "1,234", ">1000", "245 kU/L") was left out as free text."""
    from sparge.data.parsing import parse_numeric
    values, info = parse_numeric(pd.Series(["CA-125 197", "121", "CA125 35", "CA-125: 40"],
                                           name="CA-125"))
    assert values.tolist() == [197, 121, 35, 40] and not info["bad"]
    values, _ = parse_numeric(pd.Series(["CA 19-9 37", "12"], name="CA 19-9 (U/mL)"))
    assert values.tolist() == [37, 12]


def test_lines_of_therapy_and_primary_sites_written_every_way_are_offered():
    pairs = dict(abbreviated_levels(
        ["first line", "1L", "1st line", "second line", "2L", "Adjuvant", "adj",
         "neoadjuvant", "neo-adj", "palliative 1st line"], "Line of therapy"))
    assert pairs["1L"] == pairs["1st line"] == "first line"
    assert pairs["2L"] == "second line" and pairs["adj"] == "Adjuvant"
    assert pairs["neo-adj"] == "neoadjuvant" and "palliative 1st line" not in pairs
    sites = dict(abbreviated_levels(
        ["Lung", "NSCLC", "Ca lung", "Colorectal", "CRC", "Colon", "Sigmoid ca", "Rectum",
         "ovary", "HGSOC"], "Primary site"))
    assert sites["NSCLC"] == sites["Ca lung"] == "Lung"
    assert sites["CRC"] == "Colorectal" and sites["Sigmoid ca"] == "Colon"
    # a colon and a rectum are treated their own way: apart
    assert "Rectum" not in sites and "Colon" not in sites
    assert sites["HGSOC"] == "ovary"
    # elsewhere "baseline" is no line of therapy
    assert abbreviated_levels(["1", "2", "first"], "Baseline visit") == []


def test_receptor_statuses_written_every_way_are_offered_and_her2_low_apart():
    er = dict(abbreviated_levels(["pos", "ER+", "ER positive", "Allred 8", "ER+ (6/8)",
                                  "negative", "ER neg", "ER- (2/8)", "0/8"], "ER status"))
    assert {er[x] for x in ("ER+", "ER positive", "Allred 8", "ER+ (6/8)")} == {"pos"}
    assert {er[x] for x in ("ER neg", "ER- (2/8)", "0/8")} == {"negative"}
    her2 = dict(abbreviated_levels(["positive", "3+", "FISH amplified", "2+ FISH amp",
                                    "1+", "2+ FISH neg", "negative", "0", "HER2 neg"],
                                   "HER2"))
    assert {her2[x] for x in ("3+", "FISH amplified", "2+ FISH amp")} == {"positive"}
    assert her2["2+ FISH neg"] == "1+"  # HER2-low, neither positive nor negative
    assert {her2[x] for x in ("0", "HER2 neg")} == {"negative"} and "1+" not in her2


def test_walk_through_55_a_marker_with_thousands_and_a_new_patients_comma_count():
    """"CA-125 4,827" was set to missing; a new patient's "2,400 /uL" read 0.0024 in a
    table that writes "2,920" and no decimal comma."""
    from sparge.data.levels import shown_answer
    from sparge.data.parsing import parse_numeric
    values, info = parse_numeric(pd.Series(["CA-125 4,827", "CA-125 197"], name="CA-125"))
    assert values.tolist() == [4827, 197] and not info["bad"]
    df = _unit()
    df["CA-125"] = [f"{1000 + 37 * i:,}" if i % 4 == 0 else str(10 + i) for i in range(len(df))]
    enc = Encoder(label_column=OUTCOME)
    enc.fit_transform(df)
    new = df.drop(columns=OUTCOME).iloc[[0]].copy()
    new["Neutrophils"] = "2,400 /uL"
    x = enc.transform(new)
    assert x[0, enc.feature_names_out_.index("Neutrophils")] == 2.4
    # a merged yes is shown "Yes", not one patient's note
    assert shown_answer(["Yes", "Y", "yes (2019)", "yes - chest wall"]) == "Yes"


def test_radiotherapy_named_with_its_site_is_offered_with_yes_a_declined_one_is_not():
    """Walk-through 54: "RT to breast" stayed an answer of its own beside "Yes" in a
    previous radiotherapy column."""
    pairs = dict(abbreviated_levels(["No", "Yes", "RT to breast", "RT - chest wall",
                                     "Previous RT to chest", "RT declined", "RT3",
                                     "none"], "Previous RT"))
    assert pairs["RT to breast"] == pairs["RT - chest wall"] == "Yes"
    assert pairs["Previous RT to chest"] == "Yes" and pairs["none"] == "No"
    assert "RT declined" not in pairs and "RT3" not in pairs
    # a prior event named without the word for the past, "MI" in "Prior MI"
    assert dict(abbreviated_levels(["No", "Yes", "MI - 2015"], "Prior MI"))["MI - 2015"] \
        == "Yes"


def test_cycles_as_a_day_unit_writes_them_read_as_the_cycle_and_who_ps():
    """"C1D1" and "C1" were two answers of an unordered column; "WHO 1" in a performance
    status was set to missing beside "ECOG 2"."""
    n = 120
    df = pd.DataFrame({
        "Cycle": (["C1", "C1D1", "C3D8", "cycle 4", "Cycle 2 Day 1", "2"] * 20)[:n],
        "PS": (["0", "1", "ECOG 2", "WHO 1", "WHO PS 3", "PS 1"] * 20)[:n],
        OUTCOME: (["Yes", "No", "No"] * 40)[:n]})
    enc = Encoder(label_column=OUTCOME)
    X = pd.DataFrame(np.asarray(enc.fit_transform(df), float),
                     columns=enc.feature_names_out_)
    assert enc.roles_["Cycle"] == enc.roles_["PS"] == "numeric"
    assert X["Cycle"][:6].tolist() == [1, 1, 3, 4, 2, 2]
    assert X["PS"][:6].tolist() == [0, 1, 2, 1, 3, 1]
    notes = " ".join(enc.report_.notes)
    assert "Column 'Cycle': 100 cell(s) written as a treatment cycle (and day) (e.g. 'C1'" \
        in notes and "read as the cycle (1; the day is not read)" in notes
    # not in another column: "C3" in a complement level stays an answer
    other = pd.DataFrame({"Complement": (["C3", "C4", "C3D8"] * 40)[:n],
                          OUTCOME: df[OUTCOME]})
    enc = Encoder(label_column=OUTCOME)
    enc.fit_transform(other)
    assert enc.roles_["Complement"] != "numeric"
