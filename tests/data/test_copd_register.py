"""Walk-through 103: a COPD clinic's register (401 referrals), with "Readmission within 90
days" as its outcome, written by a helper as a clinic's export writes it.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder

OUTCOME = "Readmission within 90 days"


def _register(n: int = 300, seed: int = 103) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    back = rng.random(n) < 0.25
    df = pd.DataFrame({
        "NHS Number": [f"{4000000000 + 7919 * i}" for i in range(n)],
        "Age": rng.integers(45, 90, n).astype(str),
        "CAT score": np.clip(rng.normal(18 + 6 * back, 6, n), 0, 40).round().astype(int),
        "FEV1 (L)": rng.normal(1.5 - 0.3 * back, 0.4, n).round(2).clip(0.4, 3.5),
        OUTCOME: np.where(back, rng.choice(["Yes", "readmitted", "Y - 23d", "Y - 61d"], n),
                          rng.choice(["No", "N", "no readmission"], n))})
    return df, back


def _column(enc: Encoder, df: pd.DataFrame, column: str) -> np.ndarray:
    return enc.transform(df)[:, enc.feature_names_out_.index(column)]


def test_counts_and_grades_written_with_their_words_are_read():
    """Walk-through 103 set 39 exacerbation counts written "2 (1 admission)" and 27 mMRC
    grades written "grade 3" (beside "MRC 3" and "3") to missing, and left 30 patients
    out of training who had at most two gaps."""
    rng = np.random.default_rng(1)
    df, _ = _register()
    count = rng.integers(0, 5, len(df))
    admitted = np.minimum(count, rng.integers(0, 3, len(df)))
    df["Exacerbations (past 12m)"] = [
        f"{c} ({a} admission{'s' if a != 1 else ''})" if a and i % 3 == 0 else
        f"x{c}" if c and i % 3 == 1 else str(c)
        for i, (c, a) in enumerate(zip(count, admitted, strict=True))]
    grade = rng.integers(0, 5, len(df))
    df["mMRC"] = [(f"grade {g}", f"MRC {g}", str(g))[i % 3] for i, g in enumerate(grade)]
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    assert (_column(enc, df, "Exacerbations (past 12m)") == count).all()
    assert (_column(enc, df, "mMRC") == grade).all()
    from sparge.data.parsing import plain_number

    assert plain_number("2 (3 admissions)") is None  # more of a kind than in all


def test_did_not_attend_is_an_answer_of_a_programme_not_a_gap():
    """Walk-through 103: pulmonary rehabilitation "DNA" and "did not attend" (50 patients,
    12 %) were read as gaps; a test's visit not attended stays a gap (walk-through 70)."""
    rng = np.random.default_rng(2)
    df, _ = _register()
    df["Pulmonary rehab"] = rng.choice(["completed", "Yes", "No", "declined", "DNA",
                                        "did not attend", "not referred"], len(df))
    df["Spirometry repeat"] = rng.choice(["normal", "obstructed", "DNA"], len(df))
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    assert {"DNA", "did not attend"} <= set(enc.table_.levels("Pulmonary rehab"))
    assert ["DNA", "did not attend"] in enc.report_.answers_two_ways["Pulmonary rehab"]
    x = _column(enc, df, "Pulmonary rehab")
    assert not np.isnan(x[df["Pulmonary rehab"].isin(["DNA", "did not attend"])]).any()
    assert "DNA" not in enc.table_.levels("Spirometry repeat")


def test_gold_stages_and_long_term_oxygen_are_one_answer_each_by_default():
    """Walk-through 103: a GOLD stage written "2", "GOLD 2", "II", "Gold II" and
    "moderate" was 19 unordered answers until a merge was clicked; "2L/min 16h" and
    "LTOT 16h" were answers apart from "Yes"; ambulatory oxygen is no LTOT."""
    rng = np.random.default_rng(3)
    df, _ = _register()
    stage = rng.integers(1, 5, len(df))
    words = {1: "mild", 2: "moderate", 3: "severe", 4: "very severe"}
    roman = {1: "I", 2: "II", 3: "III", 4: "IV"}
    df["GOLD stage"] = [(str(s), f"GOLD {s}", roman[s], f"Gold {roman[s]}", words[s])[i % 5]
                        for i, s in enumerate(stage)]
    ltot = rng.choice(["yes", "no", "ambulatory"], len(df), p=[0.2, 0.7, 0.1])
    written = {"yes": ["Yes", "2L/min 16h", "1L/min 24h", "LTOT 16h"],
               "no": ["No", "N", "none"], "ambulatory": ["Ambulatory O2 only",
                                                        "ambulatory only"]}
    df["LTOT"] = [written[t][i % len(written[t])] for i, t in enumerate(ltot)]
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    assert enc.table_.is_ordered("GOLD stage")
    assert (_column(enc, df, "GOLD stage") == stage).all()
    x = _column(enc, df, "LTOT")
    assert all(len(set(x[ltot == t])) == 1 for t in written) and len(set(x)) == 3
    from sparge.services.display import category_words

    assert list(category_words(enc, "GOLD stage").values()) == [
        "GOLD 1", "GOLD 2", "GOLD 3", "GOLD 4"]


def test_a_readmission_in_a_time_window_is_guessed_as_the_outcome():
    """Walk-through 103: "Readmission within 90 days", its yes written with the days
    ("Y - 23d", 27 answers in all), was not guessed: the outcome read "(none)"."""
    from sparge.data.column_guess import guess_columns

    df, back = _register()
    days = np.random.default_rng(4).integers(1, 90, len(df))
    df.loc[back, OUTCOME] = [(f"Y - {d}d", "readmitted", "Yes")[i % 3]
                             for i, d in enumerate(days[back])]
    assert df[OUTCOME].nunique() > 20
    assert guess_columns(df)[1] == OUTCOME
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    labels = pd.Series(enc.labels(df))
    assert labels[back].nunique() == 1 and labels[~back].nunique() == 1


def test_an_nhs_number_written_in_groups_is_the_same_patients():
    """Walk-through 103: "020 040 9177" and "0200409177" were two patients, and a new
    patient's "1362626612" did not find the register's "136 262 6612" (its own row came
    back as look-alike #1, at similarity 1.00)."""
    from sparge.data.column_guess import id_text
    from sparge.services.workflow import known_patient_rows

    ids = pd.Series(["020 040 9177", "0200409177", "136 262 6612", "4857773456"])
    assert id_text(ids).tolist() == ["0200409177", "0200409177", "1362626612",
                                     "4857773456"]
    df, _ = _register(60)
    df.loc[[5, 9], "NHS Number"] = ["400 003 9595", "4000039595"]  # line 7's and 11's
    df.loc[12, "NHS Number"] = "400 009 5028"
    enc = Encoder(label_column=OUTCOME).fit(df)
    named = list(enc.ids(df))
    assert named[5] == "4000039595 (line 7)" and named[9] == "4000039595 (line 11)"
    assert known_patient_rows(named, "400-003-9595").tolist() == [5, 9]
    assert known_patient_rows(named, "4000095028").tolist() == [12]


def test_a_bmi_and_pack_years_written_as_their_parts_are_computed():
    """Walk-through 103 set 34 BMIs written "wt 64kg ht 1.57m" and 7 pack-years written
    "20/day for 30 yrs" to missing."""
    rng = np.random.default_rng(5)
    df, _ = _register()
    weight = rng.integers(45, 110, len(df))
    height = rng.integers(150, 190, len(df)) / 100
    bmi = (weight / height ** 2).round(1)
    df["BMI"] = [f"wt {w}kg ht {h:.2f}m" if i % 4 == 0 else f"{b:g}"
                 for i, (w, h, b) in enumerate(zip(weight, height, bmi, strict=True))]
    per_day = rng.choice([10, 20, 30, 40], len(df))
    years = rng.integers(10, 50, len(df))
    packs = per_day / 20 * years
    df["Pack years"] = [f"{d}/day for {y} yrs" if i % 5 == 0 else f"{p:g} py"
                        for i, (d, y, p) in enumerate(zip(per_day, years, packs,
                                                          strict=True))]
    enc = Encoder(label_column=OUTCOME, id_column="NHS Number").fit(df)
    np.testing.assert_allclose(_column(enc, df, "BMI"), bmi, atol=0.051)
    np.testing.assert_allclose(_column(enc, df, "Pack years"), packs)


def test_an_inhaler_is_offered_with_its_own_drugs_and_its_class_word_only():
    """Walk-throughs 103 and 103b: inhalers were offered by class, and a merge made
    every Incruse (umeclidinium) "Spiriva" and every Fostair "Symbicort";
    "umeclidinium/vilanterol" beside Anoro was never offered. A brand is offered with its
    own drugs, and with its class's word where the column writes it (walk-through 46),
    never with another drug of its class."""
    from sparge.data.levels import abbreviated_levels

    into = dict(abbreviated_levels(
        ["Anoro", "umeclidinium/vilanterol", "Spiolto", "tiotropium/olodaterol", "Trelegy",
         "fluticasone furoate/umeclidinium/vilanterol", "Trimbow", "Symbicort", "Fostair",
         "Fostair 100/6 2 puffs bd", "budesonide/formoterol", "Spiriva",
         "tiotropium 18mcg od", "Incruse"], "Inhalers"))
    assert into == {"umeclidinium/vilanterol": "Anoro", "tiotropium/olodaterol": "Spiolto",
                    "fluticasone furoate/umeclidinium/vilanterol": "Trelegy",
                    "Fostair 100/6 2 puffs bd": "Fostair",
                    "budesonide/formoterol": "Symbicort", "tiotropium 18mcg od": "Spiriva"}
    # the class's word written: its drugs go into it
    assert dict(abbreviated_levels(["LAMA", "Spiriva", "Incruse", "Triple", "Trimbow"],
                                   "Inhalers")) == {"Spiriva": "LAMA", "Incruse": "LAMA",
                                                    "Trimbow": "Triple"}


def test_a_never_smokers_empty_pack_years_are_none_smoked():
    """Never-smokers' pack-years "n/a", "-" or empty were gaps the model completed from
    the patient's other values (truth 0 in 11 of 11); a smoker's gap stays a gap, a number
    written stays as written, and a new never-smoker's empty pack-years are 0 too."""
    df, _ = _register()
    status = ["Never", "never smoked", "Lifelong non smoker", "ex-smoker", "Current",
              "non-smoker"]
    packs = ["n/a", "-", "", "n/a", "-", "3"]
    df["Smoking status"] = [status[i % 6] for i in range(len(df))]
    df["Pack years"] = [packs[i % 6] if i % 5 else "40" for i in range(len(df))]
    enc = Encoder(id_column="NHS Number", label_column=OUTCOME).fit(df)
    got = _column(enc, df, "Pack years")
    i = np.arange(len(df))
    never = (i % 6 < 3) & (i % 5 > 0)
    assert (got[never] == 0).all()
    assert np.isnan(got[(i % 6 == 3) & (i % 5 > 0)]).all()  # an ex-smoker's "n/a"
    assert (got[(i % 6 == 5) & (i % 5 > 0)] == 3).all()  # a never-smoker's "3", as written
    assert (got[i % 5 == 0] == 40).all()
    assert any("is 0 for the" in n and "never smoked" in n for n in enc.report_.notes)
    saved = Encoder.from_dict(enc.to_dict())
    new = pd.DataFrame({"NHS Number": ["N1", "N2"], "Age": ["70", "70"],
                        "Smoking status": ["never", "current smoker"],
                        "Pack years": ["", ""]})
    out = saved.transform(new)[:, saved.feature_names_out_.index("Pack years")]
    assert out[0] == 0 and np.isnan(out[1])
    # no smoking column: a gap
    plain = Encoder(id_column="NHS Number", label_column=OUTCOME).fit(
        df.drop(columns="Smoking status"))
    assert plain.never_smoked_ == {}
