"""Walk-through 77: a medical retina clinic's export, progression to proliferative
retinopathy or treatment within 2 years.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import guess_columns
from sparge.data.encoder import Encoder
from sparge.data.reading import read_table
from sparge.data.visual_acuity import logmar_of

N = 200
OUTCOME = "progressed_to_PDR_or_treatment_within_2y"
SNELLEN = ["6/6", "6/7.5", "6/9", "6/12", "6/18", "20/20", "20/40", "6/9-2", "6/6+2",
           "0.30", "-0.10", "CF", "HM", "PL", "NPL", "6/60", "3/60"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(77)
    risk = rng.normal(size=N)
    sbp = np.round(135 + 10 * risk + rng.normal(0, 10, N)).astype(int)
    dbp = np.round(80 + 5 * risk + rng.normal(0, 6, N)).astype(int)
    systolic = sbp.astype(str).astype(object)
    diastolic = dbp.astype(str).astype(object)
    whole = rng.random(N) < 0.1  # "154/87" in the systolic column, the diastolic empty
    systolic[whole] = [f"{s}/{d}" for s, d in zip(sbp[whole], dbp[whole], strict=True)]
    diastolic[whole] = ""
    grade = np.clip(np.round(1.2 + risk + rng.normal(0, 0.6, N)), 0, 4).astype(int)
    va = rng.choice(SNELLEN, N)
    return pd.DataFrame({
        "patient_id": [f"MR{100000 + i}" for i in range(N)],
        "HbA1c": np.round(60 + 12 * risk + rng.normal(0, 8, N)),
        "systolic_bp": systolic,
        "diastolic_bp": diastolic,
        "VA_right": va,
        "retinopathy_right": np.array(["R0", "R1", "R2", "R3s", "R3a"])[grade],
        "maculopathy_right": np.where(risk + rng.normal(0, 1, N) > 0.8, "M1", "M0"),
        OUTCOME: np.where(risk + rng.normal(0, 0.8, N) > 0.7, "yes", "no"),
    })


def _csv(df: pd.DataFrame) -> io.BytesIO:
    return io.BytesIO(df.to_csv(index=False).encode())


@pytest.mark.parametrize("cell, logmar", [
    ("6/6", 0.0), ("6/12", 0.301), ("20/40", 0.301), ("6/60", 1.0), ("20/200", 1.0),
    ("3/60", 1.301), ("6/9-2", 0.216), ("6/6+2", -0.04), ("6/7.5", 0.097),
    ("6/18 ph 6/9", 0.176), ("6/12 (ph)", 0.301), ("CF", 2.0), ("cf @ 1m", 2.0),
    ("Hand movements", 2.3), ("PL", 2.7), ("LP", 2.7), ("NPL", 3.0), ("NLP", 3.0),
    ("0.30", 0.3), ("-0.10", -0.1)])
def test_an_acuity_as_charts_and_clinics_write_it_is_its_logmar(cell, logmar):
    assert logmar_of(cell) == pytest.approx(logmar, abs=0.001)


@pytest.mark.parametrize("cell", ["R2", "not done", "5/2", "6/1000", "7", "1/2/2024", ""])
def test_what_is_no_acuity_is_left_to_the_columns_own_reading(cell):
    assert logmar_of(cell) is None


def test_visual_acuity_is_a_number_not_free_text(export):
    """VA_right and VA_left ("6/12", "6/9-2", "20/40", "0.30", "CF", "HM", "PL", "NPL")
    were left out with "more than 30 different text answers": the clinic's main
    functional measure was lost."""
    df = read_table(_csv(export))
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    assert enc.roles_["VA_right"] == "numeric"
    X = enc.transform(df)
    va = X[:, enc.feature_names_out_.index("VA_right")]
    expected = export["VA_right"].map(logmar_of).to_numpy(dtype=float)
    np.testing.assert_allclose(va, expected, atol=1e-3)
    said = " ".join(df.attrs["sparge_read_notes"])
    assert "Column 'VA_right'" in said and "read as logMAR" in said
    # a decimal acuity is no logMAR: left as written
    decimal = read_table(_csv(pd.DataFrame({"ID": list("abcdefghi"),
                                            "VA decimal": ["1.0", "0.5", "6/12"] * 3})))
    assert decimal["VA decimal"].tolist()[:3] == ["1.0", "0.5", "6/12"]


def test_a_new_patients_typed_acuity_is_read_as_in_the_file(export):
    df = read_table(_csv(export))
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    one = export.iloc[[0]].copy()
    one["VA_right"] = "6/12"
    x = enc.transform(one)
    assert x[0, enc.feature_names_out_.index("VA_right")] == pytest.approx(0.301, abs=1e-3)


def test_a_whole_pressure_in_the_systolic_column_is_read_in_both(export):
    """47 cells of 'systolic_bp' held "154/87" with 'diastolic_bp' empty: set to
    missing, both measurements lost, and a tenth of the patients left out of training
    for their missing share."""
    df = read_table(_csv(export))
    whole = export["systolic_bp"].str.contains("/")
    assert whole.sum() >= 5
    first = int(np.flatnonzero(whole)[0])
    s, d = export["systolic_bp"][first].split("/")
    assert df["systolic_bp"][first] == s and df["diastolic_bp"][first] == d
    said = " ".join(df.attrs["sparge_read_notes"])
    assert (f"Column 'systolic_bp': {whole.sum()} cell(s) hold a whole blood pressure"
            in said)
    assert "its diastolic part in 'diastolic_bp'" in said
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    X = enc.transform(df)
    assert np.isfinite(X[:, enc.feature_names_out_.index("diastolic_bp")]).all()
    assert not any("systolic_bp" in w and "hold text" in w for w in enc.report_.warnings)


def test_a_written_diastolic_is_kept_and_other_tables_are_unchanged():
    from sparge.data.blood_pressure import read_pairs_in_parts

    df = pd.DataFrame({"SBP": ["140/90", "120", "150/95"], "DBP": ["88", "70", ""]})
    out = read_pairs_in_parts(df)
    assert out["SBP"].tolist() == ["140", "120", "150"]
    assert out["DBP"].tolist() == ["88", "70", "95"]  # the written 88 stays
    plain = pd.DataFrame({"Systolic": ["140", "120"], "Diastolic": ["90", "80"]})
    assert read_pairs_in_parts(plain) is plain
    acuity = pd.DataFrame({"VA": ["6/12", "6/6"], "Systolic": ["6/12", "120"]})
    assert read_pairs_in_parts(acuity) is acuity  # no diastolic column to pair with
    # a library caller's numeric diastolic column
    typed = pd.DataFrame({"SBP": ["140/90", "120"], "DBP": [np.nan, 70.0]})
    assert read_pairs_in_parts(typed)["DBP"].tolist() == [90.0, 70.0]


def test_a_stroke_is_no_acuity():
    from sparge.data.visual_acuity import read_visual_acuity

    df = pd.DataFrame({"Prior CVA": ["6/12", "no"] * 5, "BCVA": ["6/12", "CF"] * 5})
    out = read_visual_acuity(df)
    assert out["Prior CVA"].tolist()[:2] == ["6/12", "no"]
    assert out["BCVA"].tolist()[:2] == ["0.301", "2"]


def test_grades_without_a_maculopathy_are_one_column(export):
    """'retinopathy_right' (R0–R3a; the maculopathy in a column of its own) was split in
    two, and the report said a column the user never had, 'retinopathy_right
    maculopathy', was dropped as one value for every patient."""
    df = read_table(_csv(export))
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    assert "retinopathy_right maculopathy" not in enc.roles_
    assert enc.table_.is_ordered("retinopathy_right")
    levels = enc.table_.levels("retinopathy_right")
    assert levels["R0"] < levels["R1"] < levels["R2"] < levels["R3s"] < levels["R3a"]
    assert not any("maculopathy'" in w for w in enc.report_.warnings + enc.report_.notes)


def test_the_outcome_is_guessed_from_a_name_with_underscores(export):
    """"progressed_to_PDR_or_treatment_within_2y" was not guessed: the default was
    "(none)", and a busy user would have trained without the outcome."""
    assert guess_columns(export) == ("patient_id", OUTCOME)


def test_an_empty_outcome_blocks_training_with_its_reason(export):
    """An empty outcome column: "0 patients kept for training", "Nothing blocks
    training", and Train ended in scikit-learn's "Found array with 0 sample(s)"."""
    df = export.assign(**{OUTCOME: ""})
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    assert not enc.report_.ok
    said = " ".join(enc.report_.blocking)
    assert f"no patient kept for training has an outcome in '{OUTCOME}'" in said
    assert "column is empty" in said and "'(none)'" in said


def test_impossible_eye_and_kidney_values_are_listed_and_thicknesses_in_mm_converted():
    """An eGFR of -5 and an intraocular pressure of 150 mmHg went unremarked; 28 OCT
    thicknesses in mm ("0.28") among µm were only offered to be set to missing."""
    rng = np.random.default_rng(7)
    n = 150
    egfr = np.round(rng.normal(75, 20, n)).clip(8)
    egfr[3] = -5
    iop = np.round(rng.normal(16, 3, n)).clip(8)
    iop[4] = 150
    cst = np.round(rng.normal(300, 40, n))
    in_mm = np.arange(10, 25)
    cst[in_mm] = np.round(cst[in_mm] / 1000, 2)
    df = pd.DataFrame({"ID": [f"P{i}" for i in range(n)], "eGFR": egfr, "IOP_right": iop,
                       "OCT_CST_right_um": cst,
                       "Outcome": np.where(rng.random(n) < 0.4, "Yes", "No")})
    enc = Encoder(id_column="ID", label_column="Outcome")
    X = enc.fit_transform(df)  # the table trained on
    listed = {(c, r): (v, unit, new) for c, r, v, unit, new in enc.report_.values_to_check}
    assert ("eGFR", 3) in listed and ("IOP_right", 4) in listed
    assert all(listed[("OCT_CST_right_um", r)][1] == "mm" for r in in_mm)
    thickness = X[in_mm, enc.feature_names_out_.index("OCT_CST_right_um")]
    np.testing.assert_allclose(thickness, cst[in_mm] * 1000, rtol=1e-9)


def test_a_comment_named_between_underscores_is_free_text(export):
    """"clinician_comment" (12 answers: "new vessels disc R? -> urgent", "on aflibercept
    L") went to the model and to Explore's biomarkers to compare."""
    df = export.assign(clinician_comment=np.resize(
        ["stable, review 12m", "refer to MR clinic", "on aflibercept L", ""], len(export)))
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    assert enc.left_out_why_["clinician_comment"] == "free text"
    assert "clinician_comment" not in enc.feature_names_out_


def test_impossible_values_are_missing_for_training_by_default_and_one_click_gives_them():
    """An HbA1c of 640 mmol/mol, a systolic of 1450 mmHg and an eGFR of -5 went into
    training as given unless the user clicked; the HbA1c column's scale grew with them.
    No patient can have them: set to missing for training by default (the table is
    unchanged, the report lists them); a far value judged by no limit stays as given."""
    from sparge.data.encoding_notes import far_values_click
    from sparge.services.workflow import encode_again, encode_cohort

    rng = np.random.default_rng(3)
    n = 200
    df = pd.DataFrame({
        "ID": [f"P{i}" for i in range(n)],
        "HbA1c": np.round(rng.normal(60, 10, n)), "systolic_bp": np.round(rng.normal(135, 12, n)),
        "eGFR": np.round(rng.normal(75, 15, n)), "Chloride": np.round(rng.normal(103, 3, n)),
        "Outcome": rng.choice(["Yes", "No"], n)})
    df.loc[5, "HbA1c"], df.loc[6, "systolic_bp"], df.loc[7, "eGFR"] = 640, 1450, -5
    df.loc[8, "Chloride"] = 1030  # far, judged by no limit: the user's to say
    cohort = encode_cohort(df, id_column="ID", label_column="Outcome")
    rep = cohort.encoder.report_
    assert sorted(map(tuple, rep.impossible)) == [("HbA1c", 5), ("eGFR", 7),
                                                  ("systolic_bp", 6)]
    X, names = cohort.X, cohort.features
    assert np.isnan([X[5, names.index("HbA1c")], X[6, names.index("systolic_bp")],
                     X[7, names.index("eGFR")]]).all()
    assert X[8, names.index("Chloride")] == 1030
    said = next(w for w in rep.warnings if "far from the rest" in w)
    assert ("those no patient can have (impossible in their unit or scale) set to missing "
            "for training (the table itself is unchanged), any other used as given") in said
    label, changes, _ = far_values_click(rep.values_to_check, False, True,
                                         len(rep.impossible))
    assert label == "Set the other 1 far value to missing for training"
    # without the possible one, the click gives the impossible ones as written
    alone = encode_cohort(df.assign(Chloride=103), id_column="ID", label_column="Outcome")
    label, changes, done = far_values_click(
        alone.encoder.report_.values_to_check, False, True,
        len(alone.encoder.report_.impossible))
    assert label == "Use the 3 values impossible in their unit or scale as given"
    given = encode_again(alone, **changes)
    assert given.X[5, given.features.index("HbA1c")] == 640


@pytest.mark.parametrize("column, answers, offered", [
    ("previous_laser", ["no", "yes", "Y", "PRP 2019", "macular laser 2018",
                        "PRP R eye 2020"],
     ["PRP 2019", "macular laser 2018", "PRP R eye 2020"]),
    ("cataract_surgery", ["no", "yes", "LE", "both eyes", "RE 2018", "pseudophakic OU",
                          "listed RE", "? LE"],
     ["LE", "both eyes", "RE 2018", "pseudophakic OU"]),
    ("Smoker", ["Yes", "No", "Ex"], [])])
def test_a_yes_written_with_when_or_which_side_is_offered_as_yes(column, answers, offered):
    """"PRP 2019" and "RE 2018" stood as answers of their own beside yes and no: a
    patient lasered in 2019 was no look-alike of one who answered "yes"."""
    from sparge.data.levels import abbreviated_levels

    pairs = [a for a, b in abbreviated_levels(answers, column)
             if b.lower() == "yes" and a != "Y"]  # "Y" is paired as an abbreviation
    assert pairs == offered


def test_a_yes_no_outcome_is_shown_in_one_case(export):
    """"yes", "Yes" and "Y" were read as "Yes" beside "no": the map's legend read "Yes"
    and "no"."""
    df = export.copy()
    df.loc[:2, OUTCOME] = ["Yes", "Y", "yes"]
    enc = Encoder(id_column="patient_id", label_column=OUTCOME).fit(df)
    assert set(enc.labels(df)) == {"Yes", "No"}
    # a file that writes both in lower case is shown as written
    plain = export.assign(**{OUTCOME: np.resize(["yes", "no"], len(export))})
    assert set(Encoder(label_column=OUTCOME).fit(plain).labels(plain)) == {"yes", "no"}


def _acuity_cohort(va: list[str], n: int = 120) -> pd.DataFrame:
    rng = np.random.default_rng(104)
    return pd.DataFrame({"MRN": [f"H{5000 + i}" for i in range(n)],
                         "BCVA": [va[i % len(va)] for i in range(n)],
                         "CRT": rng.integers(220, 520, n).astype(str),
                         "lost_15_letters": rng.choice(["Yes", "No"], n)})


@pytest.mark.parametrize("cell, letters", [
    ("70 letters", 70), ("ETDRS 55", 55), ("62L", 62), ("70 ETDRS letters", 70),
    ("ETDRS: 40", 40), ("35 ltrs", 35)])
def test_a_letter_count_written_as_one_is_read(cell, letters):
    from sparge.data.visual_acuity import letters_written

    assert letters_written(cell) == letters


@pytest.mark.parametrize("cell", ["70", "6/12", "CF", "0.3", "170 letters", "L2"])
def test_what_is_no_written_letter_count_is_not_one(cell):
    from sparge.data.visual_acuity import letters_written

    assert letters_written(cell) is None


def test_letter_counts_beside_charts_are_read_as_logmar():
    """A clinic counting ETDRS letters writes them in the Snellen column: "70" was read
    as a logMAR of 70 without a word (no eye is worse than 3.0, no perception of light),
    "70 letters" and "ETDRS 55" set to missing."""
    df = read_table(_csv(_acuity_cohort(
        ["6/12", "70", "0.30", "CF", "70 letters", "ETDRS 55", "6/12 (70 letters)", "45"])))
    enc = Encoder(id_column="MRN", label_column="lost_15_letters").fit(df)
    assert enc.roles_["BCVA"] == "numeric"
    assert enc.acuity_scales_ == {"BCVA": "logMAR"}
    va = enc.transform(df)[:, enc.feature_names_out_.index("BCVA")]
    np.testing.assert_allclose(va[:8], [0.301, 0.3, 0.3, 2.0, 0.3, 0.6, 0.3, 0.8], atol=1e-3)
    said = " ".join(df.attrs["sparge_read_notes"])
    assert "ETDRS letter counts (e.g. '70' as 0.3)" in said
    assert "85 letters is 0, each letter 0.02" in said
    # a new patient's count, typed alone, is read on the column's scale
    one = df.iloc[[0]].copy()
    one["BCVA"] = "60"
    assert enc.transform(one)[0, enc.feature_names_out_.index("BCVA")] == \
        pytest.approx(0.5)


def test_a_column_of_letter_counts_stays_in_letters_and_reads_charts_on_it():
    counts = [str(v) for v in range(30, 90, 3)]
    df = read_table(_csv(_acuity_cohort([*counts, "6/12"])))
    enc = Encoder(id_column="MRN", label_column="lost_15_letters").fit(df)
    assert enc.acuity_scales_ == {"BCVA": "letters"}
    col = enc.feature_names_out_.index("BCVA")
    va = enc.transform(df)[:, col]
    np.testing.assert_allclose(va[:3], [30, 33, 36])
    assert va[20] == pytest.approx(70)  # "6/12"
    assert "counts ETDRS letters" in " ".join(df.attrs["sparge_read_notes"])
    # a new patient's chart, through read_table as the New patient page reads a file:
    # "CF" (logMAR 2.0 on its own) is -15 letters, "6/6" 85, "0.3" 70
    for cell, letters in (("CF", -15), ("6/6", 85), ("0.3", 70), ("64", 64)):
        one = _acuity_cohort([cell]).iloc[[0]]
        x = enc.transform(read_table(_csv(one)))
        assert x[0, col] == pytest.approx(letters), cell
    saved = Encoder.from_dict(enc.to_dict())
    assert saved.acuity_scales_ == {"BCVA": "letters"}
    with pytest.raises(ValueError, match="acuity_scales"):
        Encoder.from_dict({**enc.to_dict(), "acuity_scales": {"BCVA": "decimal"}})


def test_bare_snellen_sizes_are_no_letter_counts():
    """"12" beside "6/12" may be Snellen's size alone: not read as 12 letters."""
    df = read_table(_csv(_acuity_cohort(["6/12", "6/9", "12", "9", "18", "6/18", "0.2"])))
    assert df["BCVA"].tolist()[:4] == ["0.301", "0.176", "12", "9"]


def test_an_acuitys_scale_is_shown_as_its_unit():
    """ "Baseline VA" was shown with no unit beside "IOP (mmHg)"."""
    from sparge.services.display import biomarker_name

    df = read_table(_csv(_acuity_cohort(["6/12", "70", "CF", "0.2"])))
    enc = Encoder(id_column="MRN", label_column="lost_15_letters").fit(df)
    assert biomarker_name("BCVA", enc) == "BCVA (logMAR)"
    letters = _acuity_cohort([str(v) for v in range(30, 90, 3)]).rename(
        columns={"BCVA": "BCVA letters"})
    enc = Encoder(id_column="MRN", label_column="lost_15_letters").fit(
        read_table(_csv(letters)))
    assert biomarker_name("BCVA letters", enc) == "BCVA letters"
