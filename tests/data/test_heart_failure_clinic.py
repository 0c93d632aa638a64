"""Walk-through 71: a heart-failure clinic's export (ejection fraction in numbers, ranges
and words, a loop diuretic's dose, treatment lists, NYHA class, register columns)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.answer_merging import chosen_pairs, merge_answers
from sparge.data.diuretic_dose import furosemide_a_day
from sparge.data.parsing import reads_bands
from sparge.data.reading import read_table
from sparge.errors import DataError


def _clinic(n=300, seed=0):
    rng = np.random.default_rng(seed)
    ef = rng.integers(15, 65, n).astype(str).astype(object)
    ef[:40] = np.repeat(["severe LVSD", "good LV function", "moderately impaired",
                         "mildly impaired", "30-35", "45-50%", "<30%", "awaiting echo"], 5)
    ef[40:100] = [f"{v}%" for v in ef[40:100]]
    dose = rng.choice(["40mg bd", "80mg", "bumetanide 1mg", "20mg od", "50", "nil",
                       "torasemide 10mg", "40mg tds", "0"], n)
    meds = [", ".join(rng.choice(
        ["bisoprolol 5mg od", "Entresto 24/26mg BD", "sacubitril/valsartan 49/51 bd",
         "frusemide 80mg", "Forxiga 10mg", "eplerenone 25mg", "ramipril 2.5",
         "Spironolactone 12.5mg", "apixaban 5mg bd", "digoxin 62.5mcg"],
        size=3, replace=False)) for _ in range(n)]
    qrs = np.where(rng.random(n) < 0.2, np.nan, rng.normal(120, 25, n).round())
    lbbb = np.where(np.isnan(qrs), None, rng.choice(["Y", "N", "No", "Yes"], n))
    return pd.DataFrame({
        "Hospital No": [f"RX{i:05d}" for i in range(n)],
        "HF Type": rng.choice(["HFrEF", "HFREF", "reduced EF", "HFrEF (systolic)", "LVSD",
                               "HFpEF", "HFNEF", "preserved EF", "HFmrEF",
                               "mildly reduced EF"], n),
        "NYHA": rng.choice(["II", "2", "NYHA III", "class 3", "II-III", "NYHA II/III",
                            "IV", "I"], n),
        "LVEF": ef, "Loop Diuretic Dose": dose, "Current Medications": meds,
        "QRS (ms)": qrs, "LBBB": lbbb,
        "COPD": np.where(rng.random(n) < 0.15, "Yes", None),
        "AF": rng.choice(["No", "N", "Yes", "PAF", "paroxysmal", "permanent",
                          "persistent"], n),
        "Outcome": rng.choice(["Yes", "No"], n, p=[0.3, 0.7])})


def test_ejection_fraction_reads_numbers_ranges_and_graded_words():
    df = _clinic()
    enc = Encoder(id_column="Hospital No", label_column="Outcome")
    X = enc.fit_transform(df)
    ef = X[:, enc.feature_names_out_.index("LVEF")]
    np.testing.assert_array_equal(ef[:35:5], [35, 55, 40, 49.5, 32.5, 47.5, 30])
    assert np.isnan(ef[35:40]).all()  # awaiting echo: a gap
    np.testing.assert_array_equal(ef[40:100], df["LVEF"][40:100].str.rstrip("%")
                                  .astype(float))
    assert reads_bands("LVEF") and reads_bands("GAD-7") and not reads_bands("Cap refill")


def test_a_loop_diuretic_dose_is_furosemide_a_day():
    assert [furosemide_a_day(c) for c in ("40mg bd", "80mg", "bumetanide 1mg",
                                          "torasemide 10mg", "40mg tds", "nil")] == \
        [80, 80, 40, 20, 120, None]
    df = _clinic()
    enc = Encoder(id_column="Hospital No", label_column="Outcome")
    X = enc.fit_transform(df)
    got = X[:, enc.feature_names_out_.index("Loop Diuretic Dose")]
    want = df["Loop Diuretic Dose"].map({"40mg bd": 80, "80mg": 80, "bumetanide 1mg": 40,
                                         "20mg od": 20, "50": 50, "nil": 0,
                                         "torasemide 10mg": 20, "40mg tds": 120, "0": 0})
    np.testing.assert_array_equal(got, want.to_numpy(dtype=float))


def test_heart_failure_answers_are_read_and_offered_as_one():
    df = _clinic()
    enc = Encoder(id_column="Hospital No", label_column="Outcome").fit(df)
    names = enc.feature_names_out_
    drugs = {c.split(": ", 1)[1] for c in names if c.startswith("Current Medications: ")}
    assert {"bisoprolol", "sacubitril/valsartan", "furosemide", "dapagliflozin",
            "eplerenone", "ramipril", "spironolactone"} <= drugs
    nyha = enc.table_.levels("NYHA")
    assert enc.table_.is_ordered("NYHA") and nyha["II-III"] == 2.5 == nyha["NYHA II/III"]
    merged = merge_answers(enc.table_, chosen_pairs(enc.report_.answers_two_ways, []))
    hf = merged.levels("HF Type")
    assert len(set(hf.values())) == 3
    assert hf["LVSD"] == hf["reduced EF"] == hf["HFrEF"] and hf["HFNEF"] == hf["HFpEF"]
    af = merged.levels("AF")
    assert af["permanent"] == af["PAF"] == af["Yes"] != af["No"]


def test_a_finding_empty_where_its_test_is_is_no_register_and_copd_is_after_a_merge():
    df = _clinic()
    enc = Encoder(id_column="Hospital No", label_column="Outcome").fit(df)
    assert "LBBB" not in enc.report_.blank_no_candidates
    assert any("'LBBB' with 'QRS (ms)'" in n for n in enc.report_.notes)
    assert "COPD" in enc.report_.blank_no_candidates
    merged = merge_answers(enc.table_, chosen_pairs(enc.report_.answers_two_ways, []))
    again = Encoder(id_column="Hospital No", label_column="Outcome",
                    encoding_table=merged, blank_as_no=["COPD"])
    X = again.fit_transform(df)
    copd = X[:, again.feature_names_out_.index("COPD")]
    np.testing.assert_array_equal(copd, np.where(df["COPD"].eq("Yes"), 1.0, 2.0))


def test_an_admission_date_written_for_most_admitted_is_named_a_leak():
    df = _clinic()
    rng = np.random.default_rng(1)
    yes = df["Outcome"].eq("Yes").to_numpy() & (rng.random(len(df)) < 0.75)
    df["Date of HF Admission"] = np.where(yes, "03/04/2023", None)
    enc = Encoder(id_column="Hospital No", label_column="Outcome").fit(df)
    assert "gives the outcome away" in enc.left_out_why_["Date of HF Admission"]


@pytest.mark.parametrize("title", ["Heart Failure Service - Clinic Cohort Export,,,\n"
                                   "Run 01/03/2024 by EPR reporting,,,\n",
                                   "Heart Failure Service export\n\n"])
def test_title_lines_above_the_header_are_named(tmp_path, title):
    path = tmp_path / "export.csv"
    path.write_text(title + "Hospital No,NYHA,LVEF,Outcome\nRX1,II,35,Yes\nRX2,III,25,No\n")
    with pytest.raises(DataError, match="looks like a title.*start on line"):
        read_table(path)


def test_nt_pro_bnp_in_pmol_per_litre_is_converted():
    rng = np.random.default_rng(2)
    n = 120
    bnp = np.round(rng.lognormal(7, 1, n)).astype(int).astype(str).astype(object)
    bnp[:12] = [f"{v} pmol/L" for v in (189, 50, 230, 12, 75, 300, 41, 99, 160, 20, 33, 8)]
    df = pd.DataFrame({"ID": range(n), "NT-proBNP (ng/L)": bnp,
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    assert X[0, enc.feature_names_out_.index("NT-proBNP (ng/L)")] == pytest.approx(
        189 * 8.457)


def test_a_column_of_numbers_named_like_the_papers_is_read_without_a_note_on_its_answers():
    rng = np.random.default_rng(3)
    n = 80
    df = pd.DataFrame({"ID": range(n), "Alcohol": rng.integers(0, 30, n).astype(float),
                       "Smoking": rng.choice(["current smoker", "ex", "never smoked"], n),
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.roles_["Alcohol"] == "numeric"
    said = " ".join(enc.report_.notes)
    assert "Column 'Alcohol'" not in said or "built-in encoding table" not in said
    assert "Column 'Smoking'" in said  # text answers the table does not know: said


def test_a_class_between_two_and_a_roman_numeral_are_shown_as_written():
    from sparge.data.levels import shown_answer
    from sparge.services.display import format_value

    df = _clinic()
    enc = Encoder(id_column="Hospital No", label_column="Outcome").fit(df)
    assert format_value(2.5, "NYHA", enc) in ("II-III", "NYHA II/III")
    assert format_value(3.0, "NYHA", enc) == "NYHA III"
    assert shown_answer(["3", "III", "NYHA III", "class 3"], "NYHA") == "NYHA III"
    assert shown_answer(["LOW", "low"], "Risk") == "Low"
