"""Walk-through 105: a chemotherapy day unit's register (450 courses, 40 patients with a
second course), with "Unplanned admission within 30 days of a cycle" as its outcome,
written by a helper as a day unit's export writes it.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import with_cycled_columns

from sparge.data.answer_merging import same_answer
from sparge.data.drug_combinations import same_regimen
from sparge.data.encoder import Encoder

OUTCOME = "Unplanned admission within 30 days of a cycle"


def _register(n: int = 200, seed: int = 105, **columns: list[str]) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "Hospital No": [f"RX{8000000 + 7919 * i}" for i in range(n)],
        "Start date": [f"{d:02d}/{m:02d}/2021" for d, m in
                       zip(rng.integers(1, 28, n), rng.integers(1, 12, n), strict=True)],
        "Albumin (g/L)": rng.integers(22, 46, n).astype(str),
        OUTCOME: rng.choice(["Yes", "No", "Y - febrile neutropenia", "no admission"], n,
                            p=[.15, .6, .05, .2])})
    return with_cycled_columns(df, **columns)


def test_an_age_column_holding_dates_of_birth_is_read_as_the_age():
    """ "DOB / Age" held 267 dates of birth and 166 ages: left out as free text, and the
    "add an age" offer found no date of birth."""
    from sparge.data.reading import read_table

    df = _register(DOB_or_Age=["1970-08-25", "67", "52y", "04/10/1932", "22/06/1971"])
    df = df.rename(columns={"DOB or Age": "DOB / Age"})
    df["Start date"] = "05/01/2021"
    import io
    read = read_table(io.BytesIO(df.to_csv(index=False).encode()))
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(read)
    assert enc.roles_["DOB / Age"] == "numeric"
    age = enc.transform(read)[:, enc.feature_names_out_.index("DOB / Age")]
    np.testing.assert_array_equal(age[:5], [50, 67, 52, 88, 49])


@pytest.mark.parametrize("a, b", [
    ("CAPOX", "XELOX"), ("FOLFOX", "mFOLFOX6"), ("carbo/pac", "carboplatin + paclitaxel"),
    ("pembro", "Keytruda"), ("gem/cape", "GemCap"), ("FOLFIRINOX", "mFOLFIRINOX"),
    ("cis/etop", "cisplatin + etoposide"), ("FEC-T", "FEC -> docetaxel"),
    ("Neulasta", "pegfilgrastim")])
def test_a_regimen_by_its_acronym_or_brand_is_its_drugs(a, b):
    assert same_regimen(a, b, "Regimen")


@pytest.mark.parametrize("a, b", [("FOLFIRI", "FOLFIRINOX"), ("FOLFOX", "FOLFIRI"),
                                  ("FEC-T", "FEC"), ("Docetaxel", "docetaxel 75mg/m2")])
def test_other_regimens_are_not_one(a, b):
    """FOLFIRI was offered (and merged in one click) as FOLFIRINOX; a dose is offered."""
    assert not same_regimen(a, b, "Regimen")
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(
        _register(Regimen=[a, b, "AC-T"]))
    assert [a, b] not in enc.report_.answers_two_ways.get("Regimen", []) or "mg" in b


def test_a_regimen_by_its_acronym_or_written_out_is_one_answer_shown_by_its_acronym():
    """ "FEC-T" and "FEC 100 x3 -> docetaxel x3" stayed two answers, not even offered
    (re-check 105b); merged, FOLFIRINOX showed as its four drugs and FEC-T as
    "Cyclophosphamide + epirubicin + fluorouracil → docetaxel", not as an oncologist
    names them."""
    from sparge.services.display import answers_by_code

    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(_register(Regimen=[
        "FEC-T", "FEC 100 x3 -> docetaxel x3", "FEC-T", "mFOLFIRINOX", "mFOLFIRINOX",
        "FOLFIRINOX", "XELOX", "CAPOX", "XELOX", "carbo/pac", "carboplatin + paclitaxel",
        "docetaxel -> FEC"]))
    levels = enc.table_.levels("Regimen")
    assert levels["FEC-T"] == levels["FEC 100 x3 -> docetaxel x3"] != levels["docetaxel -> FEC"]
    shown = set(answers_by_code(enc, "Regimen").values())
    assert {"FEC-T", "FOLFIRINOX", "Carboplatin + paclitaxel"} <= shown
    assert shown & {"CAPOX", "XELOX"}


def test_small_cell_is_never_offered_as_non_small_cell():
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(_register(
        Tumour_site=["SCLC", "NSCLC", "lung - NSCLC", "breast", "Ca breast"]))
    offered = {tuple(p) for p in enc.report_.answers_two_ways.get("Tumour site", [])}
    assert ("lung - NSCLC", "NSCLC") in offered and ("Ca breast", "breast") in offered
    assert not any("SCLC" in p and "NSCLC" in p for p in offered)


def test_a_growth_factor_by_its_name_is_a_yes_and_lines_and_intents_one_answer():
    """ "pegfilgrastim", "filgrastim" and "Neulasta" in a G-CSF column were three
    answers of their own, neither Yes nor No; the line of treatment ("1", "1L", "1st
    line", "first") eight answers for two."""
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(_register(**{
        "G-CSF": ["yes", "pegfilgrastim", "Neulasta", "filgrastim", "no", "nil"]},
        Line=["1", "1L", "1st line", "first", "2L", "2nd line", "second", "second line"],
        Intent=["adjuvant", "adj", "palliative", "pall", "neoadj", "neoadjuvant"],
        Stage=["II", "2", "III", "3", "IV", "4"]))
    for col, groups in (("G-CSF", 2), ("Line", 2), ("Intent", 3), ("Stage", 3)):
        assert len(set(enc.table_.levels(col).values())) == groups, col
    # shown in words, not "1" beside "Second line" (re-check 105b)
    from sparge.services.display import answers_by_code
    assert set(answers_by_code(enc, "Line").values()) == {"1st line", "Second line"}
    gcsf = enc.table_.levels("G-CSF")
    assert gcsf["Neulasta"] == gcsf["yes"] != gcsf["no"]
    assert same_answer("atorvastatin 20mg", "Yes", "Statin")
    assert not same_answer("Neulasta", "No", "G-CSF")
    assert not same_answer("IV", "4", "Route")


def test_dose_reductions_written_as_the_dose_given_or_the_cut_are_the_cut():
    """ "80%" (the dose given) was read as 80, "-20%" as -20, "reduced to 80%" set to
    missing: 109 of 450 courses misread."""
    cells = ["DR 20%", "-20%", "reduced to 80%", "80%", "none", "nil", "0", "75%", "-25%",
             "reduced to 85%", "DR 15%"]
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(
        _register(Dose_reduction=cells))
    cut = enc.transform(_register(Dose_reduction=cells))[
        :, enc.feature_names_out_.index("Dose reduction")]
    np.testing.assert_array_equal(cut[:11], [20, 20, 20, 20, 0, 0, 0, 25, 25, 15, 15])
    assert any("'reduced to 80%' and '80%' are 20" in n for n in enc.report_.notes)


def test_a_renal_function_and_a_cycle_written_with_their_names_are_numbers():
    """ "GFR 84", "eGFR 74", "CrCl 62 mL/min" in "Renal function", and "C4", "4 of 6",
    "cycle 3 D1", "6/6" in "Cycle reached", were left out as free text. Read, the cycles
    a course reached gave its outcome away (fewer for the patients admitted): known as
    the course goes on, they are left out by default as a follow-up is."""
    cycles = ["C4", "4 of 6", "cycle 3 D1", "6/6", "3/8", "C6"]
    df = _register(Renal_function=["GFR 84", "eGFR 74", "CrCl 62 mL/min", "88", ">90"],
                   Cycle=cycles, Cycle_reached=cycles[1:] + cycles[:1])
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    X = enc.transform(df)
    np.testing.assert_array_equal(X[:5, enc.feature_names_out_.index("Renal function")],
                                  [84, 74, 62, 88, 90])
    np.testing.assert_array_equal(X[:6, enc.feature_names_out_.index("Cycle")],
                                  [4, 4, 3, 6, 3, 6])
    assert enc.roles_["Cycle reached"] == "ignore"
    assert "follow-up" in enc.left_out_why_["Cycle reached"]
    kept = Encoder(id_column="Hospital No", label_column=OUTCOME,
                   roles={"Cycle reached": "numeric"}).fit(df)
    np.testing.assert_array_equal(kept.transform(df)[
        :6, kept.feature_names_out_.index("Cycle reached")], [4, 3, 6, 3, 6, 4])


def test_a_hospital_number_after_its_prefix_in_groups_is_one_patients():
    """ "RX 235 0146" beside "RX2350146": three patients with two courses were six."""
    from sparge.data.column_guess import id_text

    ids = pd.Series(["RX 235 0146", "RX2350146", "RX1234567", "9588663", "RX 958 8663",
                     "1234567"])
    assert id_text(ids).tolist() == ["2350146", "2350146", "1234567", "9588663", "9588663",
                                     "1234567"]


def test_a_stage_iv_written_as_its_metastases_is_offered_as_stage_iv():
    """Stage IV written "M1", "metastatic" and "T3N2M1" were three more answers of an
    unordered column, none offered with "IV"."""
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(_register(
        Stage=["IV", "4", "metastatic", "M1", "T3N2M1", "III", "T3N1M0", "II"]))
    levels = enc.table_.levels("Stage")
    offered = {a: levels[b] for a, b in enc.report_.answers_two_ways.get("Stage", [])}
    assert {a: offered.get(a) for a in ("metastatic", "M1", "T3N2M1")} == dict.fromkeys(
        ("metastatic", "M1", "T3N2M1"), levels["IV"])
    assert "T3N1M0" not in offered and "III" not in offered
