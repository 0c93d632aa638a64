"""Walk-through 80: a prostate clinic's export, clinically significant cancer on biopsy.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import guess_columns
from sparge.data.encoder import Encoder

N = 240
#: The Gleason score as the clinic's three systems wrote it: sum, pattern, both.
GLEASON = ["GS 6", "6 (3+3)", "3+3=6", "3+3", "GS 7", "3+4", "4+3=7", "7 (3+4)", "4+3",
           "3+4=7", "7 (4+3)", "8 (4+4)", "GS 8", "4+4", "4+5", "9 (4+5)", "GS 9",
           "benign", "B", "no cancer"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(80)
    risk = rng.normal(size=N)
    psa = np.round(np.exp(1.6 + 0.5 * risk + rng.normal(0, 0.3, N)), 1).astype(object)
    psa[[4, 50, 111]] = "<0.1"  # undetectable
    psa[[7, 19]] = ["12,5", "not done"]
    gleason = np.array(GLEASON * (N // len(GLEASON)), dtype=object)
    gleason[rng.random(N) < 0.25] = None  # no biopsy
    return pd.DataFrame({
        "MRN": [f"UR{4500 + i:06d}" for i in range(N)],
        "Age": rng.integers(48, 82, N),
        "PSA (ng/mL)": psa,
        "Gleason score": gleason,
        "Cancer": np.where(rng.random(N) < 0.1, "Y", "N"),  # another cancer, before
        "IPSS": rng.integers(0, 36, N),
        "Clinically significant cancer": np.where(risk + rng.normal(0, 0.7, N) > 0.6,
                                                  "Yes", "No"),
    })


def test_the_finding_of_the_biopsy_is_guessed_as_the_outcome(export):
    """"Clinically significant cancer" (Yes / No) was not guessed: it and the Gleason
    score went to the model as inputs, and no leak check ran. A "Cancer" history column
    alone is no outcome."""
    assert guess_columns(export) == ("MRN", "Clinically significant cancer")
    assert guess_columns(export.drop(columns="Clinically significant cancer")) == \
        ("MRN", None)


def test_the_gleason_score_is_read_as_the_isup_grade_group(export):
    """The Gleason score, written three ways ("3+4", "4+3=7", "7 (4+3)", "GS 7"), was an
    unordered category of 22 answers coded alphabetically."""
    enc = Encoder(id_column="MRN", label_column=None)
    X = enc.fit_transform(export)
    assert enc.roles_["Gleason score"] == "numeric"
    col = X[:, enc.feature_names_out_.index("Gleason score")]
    written = export["Gleason score"].to_numpy()
    expected = {"GS 6": 1, "6 (3+3)": 1, "3+3=6": 1, "3+3": 1, "GS 7": 2.5, "3+4": 2,
                "4+3=7": 3, "7 (3+4)": 2, "4+3": 3, "3+4=7": 2, "7 (4+3)": 3, "8 (4+4)": 4,
                "GS 8": 4, "4+4": 4, "4+5": 5, "9 (4+5)": 5, "GS 9": 5, "benign": 0, "B": 0,
                "no cancer": 0}
    for cell, group in expected.items():
        assert set(col[written == cell]) == {group}, cell
    assert np.isnan(col[pd.isna(written)]).all()  # no biopsy: a gap
    note = next(n for n in enc.report_.notes if "ISUP grade group" in n)
    assert "sum(s) of 7 written without the patterns read as 2.5" in note
    # a new patient's score is read as the training patients' were
    new = export.iloc[:2].copy()
    new["Gleason score"] = ["Gleason 4+3=7", "3 + 4"]
    got = enc.transform(new)[:, enc.feature_names_out_.index("Gleason score")]
    assert got.tolist() == [3.0, 2.0]
    # ... however it is written, alone in its file: a sum of 7 is 2.5, not 7; and so for
    # an encoder saved and loaded
    assert enc.gleason_columns_ == ["Gleason score"]
    loaded = Encoder.from_dict(enc.to_dict())
    for one in ("7", "benign", "GS 8"):
        row = export.iloc[:1].copy()
        row["Gleason score"] = one
        for e in (enc, loaded):
            got = e.transform(row)[0, e.feature_names_out_.index("Gleason score")]
            assert got == {"7": 2.5, "benign": 0.0, "GS 8": 4.0}[one], (one, got)


def test_a_grade_group_column_keeps_its_numbers_and_other_columns_their_sums():
    from sparge.data.gleason import read_gleason, read_gleason_scores

    df = pd.DataFrame({"ISUP grade": ["1", "2", "GG3", "4+3", "5"] * 4,
                       "Parity": ["2+1", "0+0", "1+1", "3+4", "2+0"] * 4,
                       "Biopsy Gleason": ["3+4=8", "6", "7", "10", "benign"] * 4})
    out = read_gleason_scores(df)
    assert out["ISUP grade"].tolist()[:5] == ["1", "2", "3", "3", "5"]
    assert out["Parity"].equals(df["Parity"])  # no Gleason score by its name
    # a sum that is not its patterns' is not read; a plain sum is no grade group
    assert out["Biopsy Gleason"].tolist()[:5] == ["3+4=8", "1", "2.5", "5", "0"]
    assert read_gleason("4+3", groups=True) == 3.0 and read_gleason("6", groups=True) is None
    # sums alone (SurvSet's stagec: 3 to 10) stay the sum, an ordered number already
    sums = pd.DataFrame({"Gleason": ["4", "7", "10", "GS 6", "3"] * 4})
    assert read_gleason_scores(sums) is sums


def test_gleason_3_plus_4_and_4_plus_3_are_never_offered_as_one_answer(export):
    """The merge of answers written two ways offered "7 (3+4)" and "7 (4+3)" both into
    "7", and so 4+3 (grade group 3) shown as 3+4 (group 2) in one click: in a column not
    named for the Gleason score (kept as answers), they stay apart."""
    df = export.rename(columns={"Gleason score": "Biopsy result"})
    df["Biopsy result"] = df["Biopsy result"].replace({"GS 6": "6", "GS 7": "7",
                                                        "GS 8": "8", "GS 9": "9"})
    enc = Encoder(id_column="MRN", label_column=None).fit(df)
    pairs = enc.report_.answers_two_ways.get("Biopsy result", [])
    merged = enc.table_.with_merged_levels({"Biopsy result": pairs})
    code = {lv: c for lv, c in merged.levels("Biopsy result").items()}
    assert code["3+4"] != code["4+3"] and code["7 (3+4)"] != code["7 (4+3)"]
    assert code["7 (3+4)"] != code["7"] and code["6 (3+3)"] != code["7"]
    assert ["B", "benign"] in pairs  # a plain abbreviation is still offered


def test_undetectable_psas_are_not_values_to_check(export):
    """Three "<0.1" among 1.4-16 ng/mL were listed as misplaced decimal points."""
    enc = Encoder(id_column="MRN", label_column="Clinically significant cancer").fit(export)
    assert not [v for v in enc.report_.values_to_check if v[0] == "PSA (ng/mL)"]


def test_a_smoking_answer_with_its_pack_years_is_that_answer():
    """"ex-smoker 20py" stayed an answer of its own beside "ex" (the Explore page counted
    "Ex: 1, Ex-smoker 20py: 1" among ten look-alikes)."""
    from sparge.data.answer_merging import same_answer

    assert same_answer("ex-smoker 20py", "ex", "Smoking")
    assert same_answer("Ex-smoker (30 pack-years)", "ex", "Smoking status")
    assert same_answer("current 40 py", "Current smoker", "Smoking")
    assert not same_answer("ex-smoker 20py", "current", "Smoking")
    assert not same_answer("ex 20py", "ex", "Exercise")  # not a smoking column


def test_a_new_patients_value_in_the_same_unit_written_otherwise_is_said_so():
    """A new patient's "45cc" in a mL column was "1 value(s) in another unit converted to
    'mL'" on the New patient page, where the Data page said "written 'cc' read as 'mL',
    the same unit"; a value truly converted ("1.2 L") is still said to be converted."""
    rng = np.random.default_rng(8)
    df = pd.DataFrame({"MRN": [f"UR{i:04d}" for i in range(120)],
                       "Prostate volume (mL)": rng.integers(20, 90, 120).astype(str),
                       "Age": rng.integers(50, 80, 120).astype(str),
                       "Outcome": ["Yes", "No"] * 60})
    df.loc[:9, "Prostate volume (mL)"] = [f"{v}cc" for v in range(30, 40)]
    enc = Encoder(id_column="MRN", label_column="Outcome").fit(df)
    row = df.iloc[:1].copy()
    row["Prostate volume (mL)"] = "45cc"
    X, report = enc.transform_with_report(row)
    assert X[0, enc.feature_names_out_.index("Prostate volume (mL)")] == 45
    said = " ".join(report.notes)
    assert "1 value(s) written 'cc' read as 'mL', the same unit" in said
    assert "converted" not in said
    row["Prostate volume (mL)"] = "0.05 L"
    X, report = enc.transform_with_report(row)
    assert X[0, enc.feature_names_out_.index("Prostate volume (mL)")] == 50
    assert "in another unit converted to 'mL'" in " ".join(report.notes)
