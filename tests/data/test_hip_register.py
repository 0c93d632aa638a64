"""Walk-through 102: a hip-fracture unit's audit export (450 admissions, National Hip
Fracture Database style), with "30-day mortality" as its outcome, written by a helper as a
unit's export writes it.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder

OUTCOME = "30-day mortality"


def _register(n: int = 300, seed: int = 102) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    died = rng.random(n) < 0.2
    nhfs = np.clip(rng.normal(4.5 + 1.5 * died, 1.2, n), 0, 10).round().astype(int)
    df = pd.DataFrame({
        "Hospital No": [f"{300000 + i}" for i in range(n)],
        "Age": rng.integers(66, 99, n).astype(str),
        "NHFS": nhfs.astype(str),
        "Hb (g/L)": rng.normal(118 - 8 * died, 14, n).round().astype(int).astype(str),
        OUTCOME: np.where(died, rng.choice(["Died", "deceased", "RIP"], n),
                          rng.choice(["Alive", "alive", "A"], n))})
    return df, died


def _written(rng, truth: np.ndarray, spellings: dict) -> list[str]:
    """Each cell of ``truth`` in one of its spellings."""
    return [rng.choice(spellings[t]) for t in truth]


def _codes(enc: Encoder, df: pd.DataFrame, column: str) -> np.ndarray:
    return enc.transform(df)[:, enc.feature_names_out_.index(column)]


def _read_as_written(column: str, spellings: dict, seed: int
                     ) -> tuple[Encoder, np.ndarray, np.ndarray]:
    """A register whose ``column`` writes each answer in its ``spellings``: the encoder,
    the answer (key of ``spellings``) of every patient, and the codes read; each answer
    one code of its own."""
    rng = np.random.default_rng(seed)
    df, _ = _register()
    truth = rng.choice(list(spellings), len(df))
    df[column] = _written(rng, truth, spellings)
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    codes = _codes(enc, df, column)
    assert all(len(set(codes[truth == k])) == 1 for k in spellings)
    assert len(set(codes)) == len(spellings)
    return enc, truth, codes


def test_pre_fracture_mobility_abbreviated_is_the_nhfd_scale():
    """Walk-through 102: "FMWA", "indep", "WS", "ZF", "WC" and "Independent, no aids"
    beside the NHFD's own wordings made the column 24 unordered answers, coded
    alphabetically ("1 stick" 1, "Bed bound" 3, "Zimmer frame" 24)."""
    rng = np.random.default_rng(1)
    df, _ = _register()
    spellings = {
        1: ["Freely mobile without aids", "FMWA", "indep", "Independent, no aids",
            "no aids", "Freely mobile"],
        2: ["Mobile outdoors with one aid", "WS", "1 stick", "walking stick", "one aid"],
        3: ["Mobile outdoors with two aids or frame", "ZF", "Zimmer frame", "2 sticks",
            "rollator", "frame"],
        5: ["No functional mobility", "WC", "wheelchair", "Bed bound", "hoist transfers"]}
    grade = rng.choice([1, 2, 3, 5], len(df))
    df["Pre-fracture mobility"] = _written(rng, grade, spellings)
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.table_.is_ordered("Pre-fracture mobility")
    codes = _codes(enc, df, "Pre-fracture mobility")
    # one code per grade, in the grades' order
    assert all(len(set(codes[grade == g])) == 1 for g in (1, 2, 3, 5))
    assert codes[grade == 1][0] < codes[grade == 2][0] < codes[grade == 3][0] \
        < codes[grade == 5][0]
    # each grade shown by its NHFD name, not one of its spellings (walk-through 102b
    # read bedbound patients as "Wheelchair", "2 sticks" as "Frame")
    from sparge.services.display import category_words

    assert list(category_words(enc, "Pre-fracture mobility").values()) == [
        "Freely mobile without aids", "Mobile outdoors with one aid",
        "Mobile outdoors with two aids or frame", "No functional mobility"]


def test_hip_fracture_types_written_several_ways_are_one_answer_each():
    """Walk-through 102: 22 spellings of the NHFD's four fracture types ("IT #", "#IT",
    "inter-troch"; "displ IC #", "Garden III"; "ICUD"; "sub troch") and no merge offered;
    a patient's look-alikes were summed as "Intracapsular displaced 3, Displaced #NOF 2".
    A Garden grade stays an answer of its own (walk-through 72)."""
    spellings = {
        "displaced": ["IC displaced", "displ IC #", "Intracapsular displaced",
                      "displaced #NOF"],
        "undisplaced": ["Intracapsular undisplaced", "ICUD", "undisplaced #NOF",
                        "IC undisplaced"],
        "IT": ["IT fracture", "Intertrochanteric", "#IT", "extracapsular IT", "IT #",
               "inter-troch"],
        "ST": ["subtroch #", "Subtrochanteric", "sub troch", "ST #"]}
    enc, _, _ = _read_as_written("Fracture type", spellings, seed=2)
    from sparge.services.display import category_words

    assert sorted(category_words(enc, "Fracture type").values()) == [
        "Intertrochanteric", "Intracapsular displaced", "Intracapsular undisplaced",
        "Subtrochanteric"]
    # Garden grades beside them: each its own answer, none offered into another
    from sparge.data.levels import abbreviated_levels

    pairs = abbreviated_levels(["Garden I", "Garden III", "Garden IV", "IC displaced",
                                "Intracapsular displaced", "ICUD"], "Fracture type")
    assert not any("Garden" in a or "Garden" in b for a, b in pairs)


def test_where_a_hip_fracture_patient_was_admitted_from_is_one_answer_each():
    """Walk-through 102: own home, residential care and a hospital's inpatient were each
    written 4 to 6 ways, and only the nursing home was offered as one. A residential home
    and a nursing home are two levels of care; "Care home" may be either, and stays."""
    _read_as_written("Admitted from", {
        "home": ["Sheltered housing", "Own Home", "own home/sheltered", "home alone",
                 "Home"],
        "residential": ["RH", "residential home", "Res home", "Residential care"],
        "nursing": ["Nursing home", "NH", "Nursing care"],
        "inpatient": ["Acute hospital", "inpt fall", "inpatient", "Hospital inpatient"],
        "either": ["Care home"]}, seed=3)


def test_a_hip_units_anaesthetics_operations_and_bone_protection_are_offered_as_one():
    """Walk-through 102: a spinal with a nerve block written five ways ("spinal/FNB",
    "SAB+FIB"), "GA + FICB" beside "GA + FIB", "CS x3" beside cannulated screws, "Exeter
    THR" beside THR, and bone protection by brand and generic name (Fosamax, Aclasta,
    Prolia) were answers apart, never offered."""
    from sparge.data.answer_merging import same_answer
    from sparge.data.levels import abbreviated_levels

    spinal = ["Spinal and block", "spinal/FNB", "spinal + nerve block", "Spinal + FICB",
              "SAB+FIB"]
    offered = abbreviated_levels(["Spinal", "GA", "GA + FIB", "General + FICB",
                                  "GA+block", *spinal], "Anaesthesia")
    into = dict(offered)
    assert len({into.get(w, w) for w in spinal}) == 1
    assert into["General + FICB"] == into["GA+block"] == "GA + FIB"
    assert "Spinal" not in into.values() or all(into.get(w) != "Spinal" for w in spinal)
    ops = dict(abbreviated_levels(["cannulated screws", "CS x3", "3 screws", "THR",
                                   "Exeter THR", "DHS"], "Operation"))
    assert ops["CS x3"] == ops["3 screws"] == "cannulated screws"
    assert ops["Exeter THR"] == "THR" and "DHS" not in ops
    # a hemiarthroplasty of unwritten fixation with "Hemiarthroplasty"; the Exeter stem's
    # cemented; cemented and uncemented never one (walk-throughs 72, 102b)
    hemi = dict(abbreviated_levels(["Hemiarthroplasty", "bipolar hemi", "cemented hemi",
                                    "Exeter hemi", "Thompson's"], "Operation"))
    assert hemi == {"bipolar hemi": "Hemiarthroplasty", "Exeter hemi": "cemented hemi"}
    column = "Bone protection on discharge"
    assert same_answer("Fosamax", "alendronic acid", column)
    assert same_answer("Aclasta", "IV zol", column)
    assert same_answer("Prolia", "Denosumab", column)
    assert not same_answer("Prolia", "Aclasta", column)
    # a dose is offered, never merged by default
    assert not same_answer("denosumab 60mg s/c", "Denosumab", column)
    # calcium and vitamin D by its brands, a treatment already taken, none started:
    # offered (walk-through 102b)
    bone = dict(abbreviated_levels(["calcium/vit D only", "Accrete D3 only", "Adcal-D3 only",
                                    "already on", "Already on treatment", "None",
                                    "not started", "deferred to GP"], column))
    assert bone == {"Accrete D3 only": "calcium/vit D only",
                    "Adcal-D3 only": "calcium/vit D only",
                    "Already on treatment": "already on", "not started": "None"}


def test_a_cognitive_test_the_patient_could_not_do_does_not_leave_them_out():
    """Walk-through 102: an AMTS "unable" (20 of the frailest patients) counted as a gap
    against the patient's share of missing values, and 12 of the 20 were left out of
    training; "refused" and "not done" are gaps as before."""
    from sparge.data.parsing import untestable

    assert untestable("unable", "AMTS") and untestable("Unable - dementia", "MMSE")
    assert untestable("too drowsy", "Delirium (4AT)")
    assert not untestable("refused", "AMTS") and not untestable("unable", "Creatinine")
    df, _ = _register(120)
    df["AMTS"] = [str(7 + i % 4) for i in range(120)]
    df.loc[:9, "AMTS"] = "unable"
    df.loc[:9, "NHFS"] = ""  # one more gap: 2 of 4 values without the AMTS rule
    df.loc[10:14, "AMTS"] = "refused"
    df.loc[10:14, "NHFS"] = ""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No",
                  max_patient_missing=0.4).fit(df)
    kept = enc.keep_patients_
    assert kept[:10].all() and not kept[10:15].any()
    said = " ".join(enc.report_.notes)
    assert "or a test the patient could not do ('AMTS': 'unable')" in said


def test_a_test_the_patient_could_not_do_is_read_as_a_yes_beside_it():
    """Walk-through 102b: the AMTS of a patient who could not do it ("unable", the
    frailest) was completed like any gap, from the rest of the record, and such patients
    got look-alikes of AMTS 8 to 10; a yes/no column beside it makes them alike."""
    df, _ = _register(120)
    df["AMTS"] = [str(7 + i % 4) for i in range(120)]
    df.loc[:9, "AMTS"] = "unable"
    df.loc[10:12, "AMTS"] = ["refused", "AMT 6", "3/10"]
    df.loc[13, "AMTS"] = ""
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    name = "AMTS: could not be assessed"
    names = enc.feature_names_out_
    assert names.index(name) == names.index("AMTS") + 1 and enc.untestable_ == ["AMTS"]
    X = enc.transform(df)
    yes, no = (enc.table_.levels(name)[w] for w in ("Yes", "No"))
    x = X[:, names.index(name)]
    assert (x[:10] == yes).all() and (x[[11, 12, 20]] == no).all()
    assert np.isnan(x[[10, 13]]).all()  # refused, empty: not known
    assert np.isnan(X[:10, names.index("AMTS")]).all()  # the score: a gap, completed
    # one cell: an empty AMTS is one gap, not two
    w = enc.feature_weights()
    assert w[names.index("AMTS")] == w[names.index(name)] == 0.5
    said = " ".join(enc.report_.notes)
    assert "Column 'AMTS': 10 cells say the test could not be done (e.g. 'unable')" in said
    # a new patient's file, the form (its box left empty, or answered), a saved model
    one = df.iloc[[0]].drop(columns=OUTCOME)
    assert enc.transform(one)[0, names.index(name)] == yes
    form = one.assign(**{name: ""})
    assert enc.transform(form)[0, names.index(name)] == yes
    assert enc.transform(form.assign(**{name: "No"}))[0, names.index(name)] == no
    from sparge import SparGE
    from sparge.services.persistence import load_model, model_to_bytes

    keep = enc.keep_patients_
    model = SparGE(n_atoms=4, n_components=2, random_state=0, max_iter=1).fit(
        X[keep], enc.labels(df)[keep])
    _, again = load_model(model_to_bytes(model, enc))
    assert again.untestable_ == ["AMTS"]
    np.testing.assert_array_equal(again.transform(one), enc.transform(one))


def test_hospital_numbers_after_a_trusts_code_are_one_patients():
    """Walk-through 102: "RX1577837" (a trust's code "RX1" before the six digits) was
    named "1577837", so its other admission, written "577837", was another patient:
    6 of 14 readmissions were missed, and a search for "577837" found no one."""
    from sparge.data.column_guess import id_text
    from sparge.services.workflow import known_patient_rows

    ids = pd.Series(["RX1577837", "577837", "RX1355389", "301122", "RX1402288",
                     "355389"])
    assert id_text(ids).tolist() == ["577837", "577837", "355389", "301122", "402288",
                                     "355389"]
    # bare IDs of another width, or prefixed ones starting with other digits: as written
    mixed = pd.Series(["RX1577837", "57783", "RX2355389", "355389"])
    assert id_text(mixed).tolist() == ["1577837", "57783", "2355389", "355389"]
    assert id_text(pd.Series(["RX1577837", "577837", "RX2355389", "355389"])).tolist() \
        == ["1577837", "577837", "2355389", "355389"]
    df, _ = _register(60)
    df.loc[40, "Hospital No"] = f"RX1{df.loc[3, 'Hospital No']}"
    df.loc[[7, 9], "Hospital No"] = [f"RX1{df.loc[7, 'Hospital No']}",
                                     f"RX1{df.loc[9, 'Hospital No']}"]
    enc = Encoder(label_column=OUTCOME).fit(df)
    named = enc.ids(df)
    assert named[3] == "300003 (line 5)" and named[40] == "300003 (line 42)"
    assert named[7] == "300007"
    # typed with the trust's code on the New patient page: the same person
    assert known_patient_rows(list(named), "RX1300003").tolist() == [3, 40]
    assert known_patient_rows(list(named), "RX1300007").tolist() == [7]


def test_a_sex_written_in_capitals_is_shown_in_title_case():
    """Walk-through 102 showed its men as "MALE", the first-written of "MALE", "Male",
    "male" and "M"."""
    from sparge.data.levels import shown_answer

    assert shown_answer(["M", "MALE"], "Sex") == "Male"
    assert shown_answer(["F", "FEMALE", "Woman"], "Gender") == "Female"
    assert shown_answer(["COPD", "copd"], "Comorbidity") == "COPD"
    # ... and the level itself, on the Data page's notes and encoding table (walk-through
    # 102b): of "MALE" 30, "Male" 27 and "male" 19, "Male"
    from sparge.data.levels import spellings

    spelled, _ = spellings(pd.Series(["MALE"] * 3 + ["Male"] * 2 + ["male", "COPD", "COPD",
                                                                     "Copd"]))
    assert spelled["male"] == "Male" and spelled["copd"] == "COPD"


def test_an_outcome_merged_from_several_words_is_shown_with_a_capital():
    """Walk-through 102's legend read "Alive" beside "deceased" (its commonest of
    "deceased", "Died", "Dead" and "RIP")."""
    df, died = _register()
    rng = np.random.default_rng(9)
    df[OUTCOME] = np.where(died, rng.choice(["deceased", "deceased", "Died", "Dead", "RIP"],
                                            len(df)),
                           rng.choice(["Alive", "alive", "A", "alive at 30d"], len(df)))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert set(enc.labels(df)) == {"Alive", "Deceased"}
