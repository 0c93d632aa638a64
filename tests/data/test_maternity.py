"""A maternity unit's export (walk-through 43): blood losses in mL and L, the outcome
written as its own abbreviation, ages from dates of birth."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder


def test_blood_losses_in_litres_in_a_column_of_ml_are_converted():
    """Walk-through 43: "2.02 L" in a column of mL was set to missing ("no exact
    conversion to 'ml' is known"), the largest bleeds lost. Litres convert exactly, and a
    unit of one dimension converts whatever the column's other values."""
    rng = np.random.default_rng(0)
    n = 300
    ebl = [str(int(rng.integers(150, 700))) for _ in range(n)]
    for i in range(0, 30, 3):
        ebl[i] = f"{rng.uniform(1.1, 2.6):.2f} L"
    df = pd.DataFrame({"ID": [f"P{i}" for i in range(n)], "Estimated blood loss (mL)": ebl,
                       "Age": rng.integers(20, 40, n), "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="ID", label_column="y")
    X = enc.fit_transform(df)
    want = [float(c.split()[0]) * 1000 if c.endswith("L") else float(c) for c in ebl]
    np.testing.assert_allclose(X[:, 0], want)
    text = str(enc.report_).replace("\u202f", " ").replace("\xa0", " ")
    assert "10 cell(s) in 'L' converted to 'mL' (1 L = 1000 mL)" in text
    # a new patient's "1.8 L" too
    new = df.iloc[:1].assign(**{"Estimated blood loss (mL)": "1.8 L"})
    assert enc.transform(new)[0, 0] == 1800.0


def _maternity(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ebl = rng.lognormal(np.log(500), 0.5, n).round()
    pph = np.where(ebl >= 1000, "Yes", "No")
    flip = rng.random(n) < 0.04
    pph[flip] = np.where(pph[flip] == "Yes", "No", "Yes")
    pph = pph.astype(object)
    pph[rng.random(n) < 0.05] = "PPH"  # the outcome written as its own abbreviation
    pph[:3] = ["Y", "confirmed", ""]
    return pd.DataFrame({
        "MRN": [f"RX{i:05d}" for i in range(n)],
        "Maternal age": rng.integers(18, 44, n),
        "NICU admission": rng.choice(["Yes", "No"], n),
        "Previous caesarean": rng.choice(["Y", "N"], n),
        "Hb (g/L)": rng.normal(120, 12, n).round(),
        "Estimated blood loss (mL)": ebl,
        "Postpartum haemorrhage (>=1000 mL)": pph})


def test_the_outcome_is_guessed_and_its_abbreviation_is_a_yes():
    """Walk-through 43: "Postpartum haemorrhage (>=1000 mL)" was not guessed as the
    outcome, and once chosen its "PPH" was a third outcome (chance 33 %)."""
    from sparge.data.column_guess import event_initials, guess_columns

    assert event_initials("Postpartum haemorrhage (>=1000 mL)") >= {"pph"}
    assert event_initials("Acute kidney injury at 7 days") == {"aki"}
    assert event_initials("Death") == set()
    df = _maternity()
    assert guess_columns(df) == ("MRN", "Postpartum haemorrhage (>=1000 mL)")
    enc = Encoder(id_column="MRN", label_column="Postpartum haemorrhage (>=1000 mL)")
    enc.fit_transform(df)
    labels = pd.Series(enc.labels(df))
    assert set(labels.dropna()) == {"Yes", "No"}
    assert (labels[df["Postpartum haemorrhage (>=1000 mL)"] == "PPH"] == "Yes").all()
    assert "'PPH'" in str(enc.report_)


def test_a_feature_the_outcomes_name_defines_it_by_is_left_out():
    """Walk-through 43: "Estimated blood loss" is the outcome's definition (≥ 1000 mL in
    its name; AUC 0.93, under the leak threshold) and stayed a feature, unsaid."""
    from sparge.data.leaks import defining_agreement, named_threshold

    assert named_threshold("Postpartum haemorrhage (>=1000 mL)") == (">=", 1000.0, "mL")
    assert named_threshold("Length of stay ≥ 7 days") == (">=", 7.0, "days")
    assert named_threshold("Died in hospital") is None
    x = np.array([100, 1200, 300, 1500] * 10, dtype=float)
    assert defining_agreement(x, ["No", "Yes"] * 20, ">=", 1000) == 1.0
    assert defining_agreement(x, ["Yes", "No"] * 20, ">=", 1000) == 1.0  # either way
    assert defining_agreement(x[:8], ["No", "Yes"] * 4, ">=", 1000) is None  # too few
    df = _maternity()
    enc = Encoder(id_column="MRN", label_column="Postpartum haemorrhage (>=1000 mL)")
    enc.fit_transform(df)
    assert "Estimated blood loss (mL)" not in enc.feature_names_out_
    assert enc.roles_["Estimated blood loss (mL)"] == "ignore"
    said = next(w for w in enc.report_.warnings if "defines the outcome" in w)
    assert said.startswith("Left out of the model: 'Estimated blood loss (mL)', which "
                           "defines the outcome: 'Postpartum haemorrhage (>=1000 mL)' "
                           "follows its value ≥ 1000 mL for 9")
    # the user's role keeps it (they chose it knowing the column); a column in another
    # unit is not judged by the name's threshold
    kept = Encoder(id_column="MRN", label_column="Postpartum haemorrhage (>=1000 mL)",
                   roles={"Estimated blood loss (mL)": "numeric"}).fit(df)
    assert "Estimated blood loss (mL)" in kept.feature_names_out_
    other = df.rename(columns={"Estimated blood loss (mL)": "Blood loss (L)"})
    other["Blood loss (L)"] /= 1000
    enc = Encoder(id_column="MRN", label_column="Postpartum haemorrhage (>=1000 mL)")
    enc.fit(other)
    assert "Blood loss (L)" in enc.feature_names_out_


def test_parity_and_an_early_gestation_written_as_a_maternity_export_writes_them():
    """Walk-through 43: "G2P1", "P1+0" and "para 2" left Parity out as free text, and a
    booking's "11+3" (before the 20 weeks a gestation is read from anywhere) left
    Gestation at booking out."""
    from sparge.data.obstetric import parity_of, read_obstetric, weeks_of

    for cell, want in (("G2P1", 1), ("G3 P1+1", 1), ("gravida 3 para 2", 2), ("P1+0", 1),
                       ("para 2", 2), ("Para 1+1", 1), ("1+0", 1), ("multip (3)", 3),
                       ("nulliparous", 0), ("P0", 0), ("2", 2)):
        assert parity_of(cell) == want, cell
    for cell in ("G2", "unknown", "P1+0" + " " * 40, "Pending"):
        assert parity_of(cell) is None, cell
    assert weeks_of("11+3") == 11 + 3 / 7 and weeks_of("8w 2d") == 8 + 2 / 7
    assert weeks_of("12 weeks 6 days") == 12 + 6 / 7 and weeks_of("3+1") is None
    rng = np.random.default_rng(1)
    n = 80
    para = rng.integers(0, 4, n)
    booking = rng.integers(6 * 7, 20 * 7, n)
    df = pd.DataFrame({
        "Hospital number": [f"H{i}" for i in range(n)],
        "Parity": [[f"G{p + 1}P{p}", f"P{p}+0", f"para {p}", str(p)][i % 4]
                   for i, p in enumerate(para)],
        "Gestation at booking": [f"{b // 7}+{b % 7}" if i % 2 else f"{b // 7}w {b % 7}d"
                                 for i, b in enumerate(booking)],
        "Comorbidity": ["2+1"] * n,  # no parity, no gestation: as written
        "y": rng.integers(0, 2, n)})
    out = read_obstetric(df)
    assert out["Comorbidity"].eq("2+1").all()
    enc = Encoder(id_column="Hospital number", label_column="y")
    X = pd.DataFrame(enc.fit_transform(df), columns=enc.feature_names_out_)
    np.testing.assert_array_equal(X["Parity"], para)
    np.testing.assert_allclose(X["Gestation at booking"], booking / 7)
    text = str(enc.report_)
    assert "Column 'Parity': 60 parities written in obstetric notation (e.g. 'G" in text
    assert "read as the parity, the number of births" in text
    # a new patient's row is read the same way
    new = df.iloc[:1].assign(Parity="G4P2", **{"Gestation at booking": "9+5"})
    got = pd.DataFrame(enc.transform(new), columns=enc.feature_names_out_)
    assert got["Parity"][0] == 2 and got["Gestation at booking"][0] == 9 + 5 / 7


def test_the_outcome_is_guessed_beside_its_gap_words():
    """Walk-through 43's outcome held "awaiting" and "not recorded" beside Yes / No /
    "PPH": counted as answers, they made it no yes/no column."""
    from sparge.data.column_guess import guess_columns

    df = _maternity()
    col = "Postpartum haemorrhage (>=1000 mL)"
    df.loc[5:9, col] = "awaiting"
    df.loc[10:14, col] = "not recorded"
    assert guess_columns(df)[1] == col


def test_the_merge_preview_names_the_word_the_pages_show():
    """Walk-through 43: the pairs table said "Yes" was merged into "Current", and the
    pages then showed every current smoker as "Yes"."""
    from sparge.data.answer_merging import merge_answers, pairs_table
    from sparge.data.levels import shown_answer
    from sparge.services.display import answers_by_code

    assert shown_answer(["Yes", "Y", "true"]) == "Yes"
    assert shown_answer(["Yes", "Current"]) == "Current"
    assert shown_answer(["F", "Female"]) == "Female"
    rng = np.random.default_rng(0)
    n = 200
    smoking = rng.choice(["Never", "never smoked", "Current", "current smoker", "Yes",
                          "Former", "ex smoker", "Ex-smoker"], n)
    df = pd.DataFrame({"ID": [f"M{i}" for i in range(n)], "Smoking status": smoking,
                       "Age": rng.integers(18, 44, n), "y": rng.integers(0, 2, n)})
    # merged by default now (a smoking column's synonyms): the words shown are the same
    merged = Encoder(id_column="ID", label_column="y").fit(df)
    assert merged.merged_spellings_.get("Smoking status")
    assert "Yes" not in set(answers_by_code(merged, "Smoking status").values())
    enc = Encoder(id_column="ID", label_column="y", merge_spellings=False).fit(df)
    pairs = enc.report_.answers_two_ways
    assert pairs.get("Smoking status")
    table = pairs_table(df, pairs, enc.table_)
    after = Encoder(id_column="ID", label_column="y",
                    encoding_table=merge_answers(enc.table_, pairs)).fit(df)
    shown = set(answers_by_code(after, "Smoking status").values())
    assert set(table["Shown as"]) <= shown, (set(table["Shown as"]), shown)
    assert "Yes" not in shown


def test_a_declined_treatment_is_a_no_and_a_declined_test_a_gap():
    """Walk-through 43: "declined" x 58 in "Epidural" was read as a gap, and 31 mothers
    were left out of training; a declined test still says nothing of its result."""
    rng = np.random.default_rng(0)
    n = 200
    epidural = rng.choice(["Yes", "No", "declined", "Y", "N"], n, p=[.4, .3, .1, .1, .1])
    hiv = rng.choice(["Yes", "No", "declined"], n, p=[.1, .8, .1])
    df = pd.DataFrame({"ID": [f"M{i}" for i in range(n)], "Epidural": epidural,
                       "HIV test positive": hiv, "Age": rng.integers(18, 44, n),
                       "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="ID", label_column="y")
    X = pd.DataFrame(enc.fit_transform(df), columns=enc.feature_names_out_)
    assert (X["Epidural"][epidural == "declined"] == 2).all()  # the No code
    assert X["HIV test positive"][hiv == "declined"].isna().all()
    assert "'Epidural' ('declined' read as No: not given)" in str(enc.report_)


def test_a_maternity_units_answers_written_several_ways_are_offered_as_one():
    """Walk-through 43: after the merge click, IOL / induction / Induced, SOL /
    Spontaneous, Cat 1-3 CS / EMCS, Kiwi / Ventouse, SCBU / NNU / Yes and "Yes - 2
    units" / Yes were still apart."""
    from sparge.data.levels import abbreviated_levels

    def merged(column, answers):
        return dict(abbreviated_levels(answers, column))

    onset = merged("Onset of labour", ["Spontaneous", "spont", "SOL", "Induced", "IOL",
                                       "induction", "Pre-labour CS", "No labour - ELCS"])
    assert onset == {"spont": "Spontaneous", "SOL": "Spontaneous", "IOL": "Induced",
                     "induction": "Induced", "No labour - ELCS": "Pre-labour CS"}
    mode = merged("Mode of delivery", ["SVD", "EMCS", "ELCS", "Cat 1 CS", "Cat 2 CS",
                                       "Cat 4 CS", "Ventouse", "Kiwi", "Forceps",
                                       "Neville-Barnes forceps"])
    assert mode == {"Cat 1 CS": "EMCS", "Cat 2 CS": "EMCS", "Cat 4 CS": "ELCS",
                    "Kiwi": "Ventouse", "Neville-Barnes forceps": "Forceps"}
    assert merged("NICU admission", ["Yes", "No", "SCBU", "NNU"]) == {"SCBU": "Yes",
                                                                        "NNU": "Yes"}
    assert merged("Transfusion given", ["Yes", "No", "Yes - 2 units", "Yes (1 unit)"]) == {
        "Yes - 2 units": "Yes", "Yes (1 unit)": "Yes"}


def test_dates_of_birth_in_a_column_of_ages_are_read_as_the_age_at_the_event():
    """Walk-through 43: 104 of 700 mothers' ages were written as a date of birth and set
    to missing; the page then offered the delivery date as a date of birth."""
    from sparge.data.age_dates import event_date_column, read_dates_in_age_columns

    rng = np.random.default_rng(4)
    n = 60
    born = pd.Timestamp("1980-01-01") + pd.to_timedelta(rng.integers(0, 7000, n), unit="D")
    delivered = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 300, n),
                                                             unit="D")
    age = ((delivered - born).days / 365.2425).to_numpy()
    cells = [f"{int(a)}" for a in age]
    as_date = np.arange(n) % 4 == 0
    for i in np.flatnonzero(as_date):
        cells[i] = born[i].strftime("%d/%m/%Y")
    df = pd.DataFrame({"MRN": [f"M{i}" for i in range(n)], "Maternal age": cells,
                       "Delivery date": delivered.strftime("%d/%m/%Y"),
                       "Hb": rng.normal(120, 10, n).round(), "y": rng.integers(0, 2, n)})
    assert event_date_column(df) == "Delivery date"
    out = read_dates_in_age_columns(df)
    got = pd.to_numeric(out["Maternal age"], errors="coerce").to_numpy()
    # in completed years, as the column writes its other ages (walk-through 91: 63.4
    # among whole ages)
    np.testing.assert_array_equal(got[as_date], np.floor(age[as_date]))
    assert (out["Maternal age"][~as_date] == df["Maternal age"][~as_date]).all()
    # a column that writes fractions of a year keeps them
    fractions = df.assign(**{"Maternal age": [c if "/" in c else f"{a:.1f}"
                                              for c, a in zip(cells, age)]})
    got = pd.to_numeric(read_dates_in_age_columns(fractions)["Maternal age"],
                        errors="coerce").to_numpy()
    np.testing.assert_allclose(got[as_date], age[as_date], atol=0.06)
    assert not np.all(got[as_date] == np.round(got[as_date]))
    note = out.attrs["sparge_read_notes"][-1]
    assert note.startswith("Column 'Maternal age': 15 date(s) of birth (e.g. '")
    assert "read as the age in years at 'Delivery date'" in note
    enc = Encoder(id_column="MRN", label_column="y")
    X = pd.DataFrame(enc.fit_transform(df), columns=enc.feature_names_out_)
    assert X["Maternal age"].notna().all()
    # no date of the event: not read, and said why
    alone = read_dates_in_age_columns(df.drop(columns=["Delivery date"]))
    assert (alone["Maternal age"] == df["Maternal age"]).all()
    assert "no date of the patient's event" in alone.attrs["sparge_read_notes"][-1]
    # a column of dates of birth is never the event
    assert event_date_column(df.rename(columns={"Delivery date": "Date of birth"})) is None


def test_not_applicable_with_its_reason_is_a_gap_and_the_design_is_found():
    """Walk-through 43: "N/A - CS" was an answer of its own beside "n/a", and perineal
    trauma was not seen as a column that does not apply to caesareans."""
    from sparge.data.not_applicable import read_not_applicable

    rng = np.random.default_rng(6)
    n = 200
    mode = rng.choice(["SVD", "Forceps", "EMCS", "ELCS"], n, p=[.6, .1, .15, .15])
    cs = np.isin(mode, ["EMCS", "ELCS"])
    trauma = np.where(cs, np.where(np.arange(n) % 2, "N/A - CS", "n/a"),
                      rng.choice(["Intact", "1st degree", "2nd degree", "Episiotomy"], n))
    df = pd.DataFrame({"MRN": [f"M{i}" for i in range(n)], "Mode of delivery": mode,
                       "Perineal trauma": trauma, "Sodium": rng.normal(140, 3, n).round(),
                       "Nausea": rng.choice(["Nausea, vomiting", "None"], n),
                       "y": rng.integers(0, 2, n)})
    out = read_not_applicable(df)
    assert (out["Perineal trauma"][cs].isin(["N/A", "n/a"])).all()
    assert (out["Nausea"] == df["Nausea"]).all()  # no gap word with a reason
    enc = Encoder(id_column="MRN", label_column="y").fit(df)
    assert "N/A - CS" not in enc.table_.levels("Perineal trauma")
    assert any(note.startswith("Column 'Perineal trauma' is empty for the")
               for note in enc.report_.notes)


@pytest.mark.parametrize("dtype", ["str", object])
def test_a_large_tables_columns_are_found_as_a_small_ones_are(dtype):
    """The readers of 'N/A - reason' and of named values find their columns by a
    vectorised search in a large table and cell by cell in a small one: the same columns,
    whatever leads the cell (a no-break space) and however numbers are written ("1e-06"
    has a letter and is no name before a value)."""
    from sparge.data.combined_cells import SMALL_ROWS, columns_holding
    from sparge.data.named_values import _may_write_name
    from sparge.data.not_applicable import _starts_like_na

    cells = {"gap": "\u00a0n/a - CS", "upper": " NA (elective)", "sci": "1e-06",
             "neg": "-0.5", "name": "Na 134", "late": "4 units, no", "none": None}
    for rows in (3, SMALL_ROWS + 50):
        df = pd.DataFrame({k: pd.Series(["1.5"] * (rows - 1) + [v], dtype=dtype)
                           for k, v in cells.items()})
        na = columns_holding(df, _starts_like_na, "^[^A-Za-z0-9]*[nN]")
        named = columns_holding(df, _may_write_name, "^[^A-Za-z0-9]*[A-Za-z]")
        assert dict(zip(cells, na.tolist())) == {
            "gap": True, "upper": True, "sci": False, "neg": False, "name": True,
            "late": False, "none": False}, rows
        # a name before a number: the vectorised search may find more (the columns found
        # are read cell by cell after it), never fewer
        assert named[4] and not named[[2, 3, 5, 6]].any(), rows
        assert rows > SMALL_ROWS or not named[[0, 1]].any()


def test_a_merged_answer_is_shown_by_its_groups_own_word():
    """Walk-through 44: merged, every emergency caesarean showed as "Cat 1 CS", every
    neonatal admission as "SCBU", every transfusion as "Yes - 2 units", and every mother
    without an epidural as "Declined"."""
    from sparge.data.levels import shown_answer

    assert shown_answer(["Cat 1 CS", "Cat 2 CS", "Em LSCS", "EMCS"],
                        "Mode of delivery") == "EMCS"
    assert shown_answer(["Forceps", "Kiellands forceps", "Neville-Barnes forceps"],
                        "Mode of delivery") == "Forceps"
    assert shown_answer(["SCBU", "NNU", "Yes"], "NICU admission") == "Yes"
    assert shown_answer(["Yes - 2 units", "Yes (1 unit)", "yes"],
                        "Transfusion given") == "Yes"
    assert shown_answer(["No", "N", "declined"], "Epidural") == "No"
    # without the column, or outside its groups, the longest as before
    assert shown_answer(["Cat 1 CS", "EMCS"]) == "Cat 1 CS"
    assert shown_answer(["Female", "F"], "Sex") == "Female"
    rng = np.random.default_rng(0)
    n = 200
    df = pd.DataFrame({"ID": [f"M{i}" for i in range(n)],
                       "Mode of delivery": rng.choice(["SVD", "EMCS", "Cat 1 CS", "Cat 2 CS",
                                                       "Em LSCS", "ELCS"], n),
                       "Epidural": rng.choice(["Yes", "No", "N", "declined"], n),
                       "Age": rng.integers(18, 44, n), "y": rng.integers(0, 2, n)})
    from sparge.data.answer_merging import merge_answers
    from sparge.services.display import answers_by_code

    enc = Encoder(id_column="ID", label_column="y").fit(df)
    after = Encoder(id_column="ID", label_column="y", encoding_table=merge_answers(
        enc.table_, enc.report_.answers_two_ways)).fit(df)
    assert set(answers_by_code(after, "Mode of delivery").values()) == {"SVD", "EMCS",
                                                                         "ELCS"}
    assert set(answers_by_code(after, "Epidural").values()) == {"Yes", "No"}


def test_a_new_patients_date_of_birth_in_the_age_column_is_read_too():
    """Walk-through 44: the training table read its dates of birth as ages, a three-
    patient file's one date of birth was set to missing."""
    rng = np.random.default_rng(2)
    n = 80
    df = pd.DataFrame({"MRN": [f"M{i}" for i in range(n)],
                       "Maternal age": rng.integers(18, 44, n).astype(str),
                       "Delivery date": "01/06/2023", "Hb": rng.normal(120, 9, n).round(),
                       "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="MRN", label_column="y").fit(df)
    new = pd.DataFrame({"MRN": ["N1", "N2", "N3"], "Maternal age": ["30", "19/11/1985", ""],
                        "Delivery date": ["01/06/2023"] * 3, "Hb": [120, 110, 100]})
    X = pd.DataFrame(enc.transform(new), columns=enc.feature_names_out_)
    assert X["Maternal age"].tolist()[:2] == [30.0, 37.5] and np.isnan(X["Maternal age"][2])


def test_a_new_patients_other_spelling_of_a_merged_answer_is_read_as_it():
    """Walk-through 44's new mother had "Yes - 4 units" of transfusion where the training
    mothers, once merged, had "Yes" and "Yes - 2 units": it was read as missing. A
    spelling of the column's group of synonyms is read as the answer its known spellings
    share, with a note; an answer kept apart by the user, or no synonym, stays unknown."""
    from sparge.data.answer_merging import merge_answers

    rng = np.random.default_rng(0)
    n = 60
    df = pd.DataFrame({"ID": range(n), "Age": rng.integers(20, 40, n),
                       "Transfusion given": rng.choice(["Yes", "No", "Yes - 2 units", "No"], n),
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.report_.answers_two_ways == {"Transfusion given": [["Yes - 2 units", "Yes"]]}
    new = pd.DataFrame({"ID": [1, 2, 3, 4], "Age": [30, 31, 32, 33],
                        "Transfusion given": ["Yes - 4 units", "yes (3 units)", "maybe", "NO"]})
    # kept apart (the user did not merge): neither "Yes" nor "Yes - 2 units" is guessed
    X, report = enc.transform_with_report(new)
    assert np.isnan(X[:3, 1]).all()
    assert report.unknown_values[0].count == 3
    merged = Encoder(id_column="ID", label_column="y",
                     encoding_table=merge_answers(enc.table_, enc.report_.answers_two_ways))
    merged.fit(df)
    X, report = merged.transform_with_report(new)
    yes, no = merged.table_.levels("Transfusion given")["Yes"], 2.0
    assert X[:, 1].tolist()[:2] == [yes, yes] and np.isnan(X[2, 1]) and X[3, 1] == no
    assert ("'Yes - 4 units' read as 'Yes', 'yes (3 units)' read as 'Yes' (another "
            "spelling of that answer" in " ".join(report.notes))
    assert [u.examples for u in report.unknown_values] == [["maybe"]]
