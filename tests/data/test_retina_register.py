"""Walk-through 104: a medical retina clinic's anti-VEGF register (one row per treated
eye, the fellow eye of some patients on another row), with "lost 15 or more letters at
12 months" as its outcome, written as a clinic's export writes it.

Each test is one finding on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import with_cycled_columns

from sparge.data.drug_combinations import same_regimen
from sparge.data.encoder import Encoder

OUTCOME = "Lost >=15 letters at 12m"


def _register(n: int = 240, seed: int = 104, **columns: list[str]) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "Hospital number": [f"{300000 + 17 * i}" for i in range(n)],
        "Age": rng.integers(55, 95, n).astype(str),
        "CRT (um)": rng.integers(220, 600, n).astype(str),
        OUTCOME: rng.choice(["Yes", "No", "N", "yes - 18 letters"], n, p=[.15, .6, .2, .05])})
    return with_cycled_columns(df, **columns)


def _levels(enc: Encoder, column: str) -> dict[str, float]:
    return enc.table_.levels(column)


def test_the_treated_eye_is_one_answer_per_side_by_default():
    """ "RE", "R", "Right", "OD" and "right eye" are one eye; a patient's right eye had as
    look-alikes only the eyes written as its own was."""
    eyes = ["RE", "LE", "R", "L", "Right", "Left", "OD", "OS", "right eye", "left eye"]
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(
        _register(Eye=eyes))
    levels = _levels(enc, "Eye")
    assert len(set(levels.values())) == 2
    assert {levels[a] for a in ("RE", "R", "Right", "OD", "right eye")} == {levels["Right"]}
    assert {levels[a] for a in ("LE", "L", "Left", "OS", "left eye")} == {levels["Left"]}


@pytest.mark.parametrize("brand, drug", [
    ("Eylea", "aflibercept"), ("Lucentis", "ranibizumab"), ("Avastin", "bevacizumab"),
    ("Vabysmo", "faricimab"), ("Beovu", "brolucizumab"), ("Byooviz", "ranibizumab"),
    ("Ozurdex", "dexamethasone implant")])
def test_an_intravitreal_drug_by_its_brand_is_the_drug(brand, drug):
    assert same_regimen(brand, drug, "Anti-VEGF agent")
    assert same_regimen(brand, drug, "Drug")
    assert not same_regimen("Eylea", "ranibizumab", "Drug")


def test_the_lens_is_merged_and_retina_diagnoses_and_regimens_are_offered():
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(_register(
        Lens_status=["phakic", "pseudophakic", "PCIOL", "Phakic", "pseudophakia", "aphakic"],
        Diagnosis=["wet AMD", "nAMD", "neovascular AMD", "DMO", "DME",
                   "diabetic macular oedema", "BRVO", "branch RVO", "CRVO"],
        Regimen=["T&E", "treat and extend", "Treat & extend", "PRN", "q8w",
                 "fixed 8-weekly"]))
    lens = _levels(enc, "Lens status")
    assert lens["PCIOL"] == lens["pseudophakic"] == lens["pseudophakia"] != lens["phakic"]
    offered = {c: {tuple(sorted(p)) for p in pairs}
               for c, pairs in enc.report_.answers_two_ways.items()}
    assert {("nAMD", "wet AMD"), ("DME", "DMO"), ("BRVO", "branch RVO")} <= \
        offered["Diagnosis"]
    assert ("T&E", "treat and extend") in offered["Regimen"]
    assert ("fixed 8-weekly", "q8w") in offered["Regimen"]


def test_the_offered_pairs_count_every_spelling_of_an_answer_merged_by_default():
    """The table of offered pairs counted 'aflibercept' 41 times, its own spelling only,
    beside the 103 'Eylea' already one answer with it (walk-through 104)."""
    from sparge.data.answer_merging import pairs_table

    df = _register(n=120, Drug=["Eylea", "aflibercept", "Eylea", "aflibercept 2mg",
                                "Lucentis", "ranibizumab"])
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(df)
    pairs = {"Drug": [["aflibercept 2mg", "aflibercept"]]}
    row = pairs_table(df, pairs, enc.table_).iloc[0]
    assert (row["Patients"], row["Patients (into)"]) == (20, 60)
    assert pairs_table(df, pairs).iloc[0]["Patients (into)"] == 20  # no table: as written


def test_a_thickness_written_with_its_oct_name_is_read():
    """ "CST 298" in a "CRT (um)" column (the central subfield thickness is the OCT's
    name for it) was set to missing."""
    df = _register(n=60)
    df.loc[::3, "CRT (um)"] = [f"CST {v}" for v in df["CRT (um)"][::3]]
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(df)
    crt = enc.transform(df)[:, enc.feature_names_out_.index("CRT (um)")]
    assert np.isfinite(crt).all()
    assert crt[0] == float(df["CRT (um)"][0].split()[1])


def test_a_pressure_written_with_its_eye_is_read():
    """ "16 R" and "20 L" in an IOP column: the "L" was read as litres ("mixes units"),
    the "R" as text, and 33 of 420 pressures were set to missing."""
    df = _register(n=90, IOP=["16 R", "20 L", "14", "RE 18", "12 mmHg", "15 (OD)",
                              "17mmHg L", "13", "11"])
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(df)
    iop = enc.transform(df)[:, enc.feature_names_out_.index("IOP")]
    np.testing.assert_array_equal(iop[:9], [16, 20, 14, 18, 12, 15, 17, 13, 11])
    said = " ".join(enc.report_.notes)
    assert "written with the eye they were measured in (e.g. '16 R' as 16)" in said
    assert not any("mixes units" in w for w in enc.report_.warnings)


def test_a_thickness_in_microns_and_injections_with_a_loading_dose():
    """ "306 microns" beside "306um" was "another unit" and set to missing; "9 (+1
    loading)" injections (ten) were set to missing."""
    df = _register(n=60, Injections_yr1=["9 (+1 loading)", "8", "~7", "6 (+ 2 loading)"])
    df.loc[::2, "CRT (um)"] = [f"{v} microns" for v in df["CRT (um)"][::2]]
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(df)
    X = enc.transform(df)
    crt = X[:, enc.feature_names_out_.index("CRT (um)")]
    assert crt[0] == float(df["CRT (um)"][0].split()[0]) and np.isfinite(crt).all()
    shots = X[:, enc.feature_names_out_.index("Injections yr1")]
    np.testing.assert_array_equal(shots[:4], [10, 8, 7, 8])


def test_choroidal_neovascularisation_and_an_occlusions_oedema_are_offered():
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(_register(
        Diagnosis=["nAMD", "CNV", "wet AMD", "CRVO", "CRVO with MO", "myopic CNV", "mCNV"]))
    offered = {tuple(sorted(p)) for p in enc.report_.answers_two_ways["Diagnosis"]}
    assert {("CNV", "nAMD"), ("CRVO", "CRVO with MO"), ("mCNV", "myopic CNV")} <= offered
    assert not any("myopic CNV" in p and "nAMD" in p for p in offered)


def test_an_offered_merge_keeps_the_default_merges_said_and_undoable():
    """After the Data page's "Merge 1 more pair", the "Keep apart the 7 pairs read as one
    answer by default" button and the default merges' notes were gone, the merges still
    applied: the whole encoding table had become the user's (walk-through 104). Then
    only the merged pair's column became the user's, and with it the drug brands' default
    merges, neither said nor undoable (104b): the offered pairs are the encoder's now."""
    from sparge.data.encoder import Encoder
    from sparge.services.workflow import (
        encode_again,
        encode_cohort,
        keep_apart_changes,
        offered_merge_changes,
    )

    df = _register(Eye=["RE", "LE", "R", "L", "Right", "Left"],
                   Drug=["Eylea", "aflibercept", "aflibercept 2mg", "Lucentis",
                         "ranibizumab"],
                   Diagnosis=["DMO", "diabetic macular oedema", "nAMD", "BRVO"])
    cohort = encode_cohort(df, id_column="Hospital number", label_column=OUTCOME)
    enc = cohort.encoder
    assert {"Eye", "Drug"} <= set(enc.merged_spellings_)
    pairs = {c: enc.report_.answers_two_ways[c] for c in ("Diagnosis", "Drug")}
    changes, whole = offered_merge_changes(enc, pairs)
    assert set(changes) == {"merge_pairs"}
    assert whole.levels("Diagnosis")["DMO"] == whole.levels("Diagnosis")[
        "diabetic macular oedema"]
    merged = encode_again(cohort, **changes)
    again = merged.encoder
    assert again.user_table() is None
    levels, drug = again.table_.levels("Diagnosis"), again.table_.levels("Drug")
    assert levels["DMO"] == levels["diabetic macular oedema"]
    assert drug["aflibercept 2mg"] == drug["Eylea"] == drug["aflibercept"]
    assert {"Eye", "Drug"} <= set(again.merged_spellings_)  # still said, and undoable
    assert not again.report_.answers_two_ways.get("Diagnosis")
    assert Encoder.from_dict(again.to_dict()).merge_pairs == changes["merge_pairs"]
    apart = encode_again(merged, **keep_apart_changes(again)).encoder
    eye, drug = apart.table_.levels("Eye"), apart.table_.levels("Drug")
    assert eye["RE"] != eye["Right"] and drug["Eylea"] != drug["aflibercept"]
    assert drug["aflibercept 2mg"] == drug["aflibercept"]  # the user's pair stays merged
    assert apart.table_.levels("Diagnosis")["DMO"] == apart.table_.levels("Diagnosis")[
        "diabetic macular oedema"]
    with pytest.raises(ValueError, match="merge_pairs"):
        state = again.to_dict()
        state["params"]["merge_pairs"] = {"Drug": [["Eylea"]]}
        Encoder.from_dict(state)


def test_a_gap_in_the_outcome_is_not_said_to_be_read_as_yes():
    """The outcome "lost ≥15 letters at 12m" named "lost to follow-up" among the answers
    read as 'Yes' (its 11 eyes were read as missing, rightly)."""
    df = _register()
    df.loc[::20, OUTCOME] = "lost to follow-up"
    df.loc[1::20, OUTCOME] = [f"yes - {n} letters" for n in range(16, 28)]
    enc = Encoder(id_column="Hospital number", label_column=OUTCOME).fit(df)
    said = " ".join(n for n in enc.report_.notes if n.startswith("Outcome"))
    assert "lost to follow-up" not in said
    assert "and 8 more as 'Yes'" in said  # 12 spellings, the first 4 named
    assert (enc.labels(df)[::20] == None).all()  # noqa: E711


def _two_eyes(n: int = 120) -> pd.DataFrame:
    """A register of eyes: the first 40 patients with both eyes treated, on two rows, 15 of
    whose second rows write the hospital number without its leading zeros."""
    rng = np.random.default_rng(7)
    ids = [f"{(i * 7919 + 10007) % 900000:07d}" for i in range(n)]
    eyes = list(rng.choice(["RE", "LE"], n))
    rows = pd.DataFrame({"Hosp No": ids, "Eye": eyes,
                         "CRT (um)": rng.integers(220, 600, n).astype(str),
                         OUTCOME: rng.choice(["Yes", "No"], n, p=[.3, .7])})
    fellow = rows.iloc[:40].copy()
    fellow["Eye"] = ["LE" if e == "RE" else "RE" for e in fellow["Eye"]]
    fellow.loc[fellow.index[:15], "Hosp No"] = [i.lstrip("0") for i in fellow["Hosp No"][:15]]
    return pd.concat([rows, fellow], ignore_index=True)


def test_a_patients_two_eyes_are_one_person_however_the_zeros_are_written():
    """15 of 60 two-eye patients wrote one eye's hospital number without its leading
    zeros ("56047" beside "0056047"): two people, the fellow eye a look-alike, the search
    for "56047" found no one, and the upload said to "delete a row written twice"."""
    from sparge.data.column_guess import guess_columns, id_guess_note, id_text
    from sparge.services.workflow import (
        OTHER_EYE,
        known_patient_rows,
        own_rows_left_out_message,
        people,
        repeat_kind,
    )

    df = _two_eyes()
    ids = id_text(df["Hosp No"])
    assert ids.duplicated(keep=False).sum() == 80
    assert guess_columns(df)[0] is None
    note = id_guess_note(df, None)
    assert "40 IDs repeat" in note and "delete a row" not in note
    assert "the rows of 40 of the 40 repeated IDs are one patient's two eyes" in note
    assert repeat_kind(df, "Hosp No") == OTHER_EYE
    assert repeat_kind(df.drop(columns="Eye"), "Hosp No") != OTHER_EYE
    enc = Encoder(label_column=OUTCOME).fit(df)
    named = enc.ids(df)
    assert len(set(people(named).tolist())) == 120
    # the sidebar counts rows of people, not 160 "patients"
    from sparge.services.workflow import patients_count

    assert patients_count(160, named, "training") == "160 training rows of 120 patients"
    assert patients_count(3, ["a", "b", "c"], "training") == "3 training patients"
    assert patients_count(1, None) == "1 patient"
    zeroless = df["Hosp No"][120]  # written without its zeros
    assert zeroless != df["Hosp No"][0] and named[120] == named[0].replace("line 2", "line 122")
    assert known_patient_rows(named, zeroless).tolist() == [0, 120]
    said = own_rows_left_out_message(named, [120], kind=repeat_kind(df, "Hosp No"))
    assert "with the same ID (the other eye)" in said


def test_each_row_of_a_register_of_eyes_names_its_eye():
    """Explore's heading said "Patient 0056047 (line 118)" for either of two rows of one
    hospital number (re-check 104b): it now names the eye, as the side column writes it."""
    from sparge.data.column_guess import row_sides

    df = _two_eyes()
    sides = row_sides(df, "Hosp No")
    assert sides is not None and set(sides) <= {"right eye", "left eye"}
    written = df["Eye"].str.strip().str.lower().str[0]
    assert (sides.str[0] == written).all()
    assert row_sides(df.drop(columns="Eye"), "Hosp No") is None
    df.loc[3, "Eye"] = "?"
    assert row_sides(df, "Hosp No")[3] == ""
    from sparge.services.workflow import OTHER_EYE, repeated_id_message

    said = repeated_id_message(["A (line 2)", "A (line 9)"], "A (line 9)", OTHER_EYE,
                               {"A (line 2)": "right eye", "A (line 9)": "left eye"})
    assert said.endswith("showing A (line 9), left eye; the other: A (line 2), right eye.")


def test_the_search_finds_a_number_typed_without_or_with_its_zeros():
    from sparge.services.workflow import PatientIndex

    ids = np.array(["0056047 (line 2)", "0056047 (line 9)", "0411410", "H77"], dtype=object)
    index = PatientIndex(ids=ids, in_training=np.ones(4, bool), train_index=np.arange(4),
                         reason=np.array([""] * 4), X=np.zeros((4, 1)),
                         embedding=np.zeros((4, 2)), compatible=True)
    assert index.find("56047") == 0
    assert index.find("411410") == 2
    assert index.find("00411410") == 2
    assert index.find("77") is None
