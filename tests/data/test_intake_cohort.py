"""Issue 9.2 acceptance: words that are values are not missing, scales keep their order.

A SingHEART-style cohort is generated here (numeric biomarkers, Albuminuria None/Micro/Macro
with "None" for ~75 %, yes/no answers with "Unknown", the Home Smoke scale, religion, ~5 %
true gaps written as empty cells or "N/A"/"-"), encoded with the default settings, and the
patients kept for training are compared with the patients whose TRUE gaps are <= 10 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder, EncodingTable
from sparge.data.column_guess import guess_columns

GAP_RATE = 0.05
N_NUMERIC = 30


def singheart_like(n: int = 1500, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """A cohort as a clinician's CSV holds it, and the mask of its true gaps.

    Returns the table (text cells, as ``read_table`` gives them) and a boolean array
    (n, n_features) marking the cells that are truly missing.
    """
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 3))
    feats: dict[str, np.ndarray] = {}
    for j in range(N_NUMERIC):
        value = 50 + 10 * (latent @ rng.normal(size=3)) + 5 * rng.normal(size=n)
        feats[f"Biomarker {j + 1}"] = np.char.mod("%.2f", value).astype(object)

    def pick(levels, p):
        return rng.choice(np.asarray(levels, dtype=object), n, p=p)

    feats["Albuminuria"] = pick(["None", "Micro", "Macro"], [0.75, 0.18, 0.07])
    feats["Retinopathy"] = pick(["None", "Mild", "Moderate", "Severe"], [0.8, 0.12, 0.06, 0.02])
    for col in ("Diabetes", "Hypertension"):  # in the paper's table
        feats[col] = pick(["Yes", "No", "Unknown"], [0.25, 0.71, 0.04])
    for col in ("Stroke", "Family history of CVD"):  # not in the table
        feats[col] = pick(["Yes", "No", "Unknown"], [0.15, 0.81, 0.04])
    feats["Home Smoke"] = pick(["Never", "Sometimes", "Most of the times", "Always"],
                               [0.5, 0.3, 0.15, 0.05])
    feats["Religion"] = pick(["Christian/Catholic", "Free thinker", "Buddhist", "Islam",
                              "Hindu", "Taoist", "Others"], None)
    feats["Ethnicity"] = pick(["Chinese", "Malay", "Indian", "Others"], [0.6, 0.2, 0.15, 0.05])
    names = list(feats)
    gaps = rng.random((n, len(names))) < GAP_RATE
    for j, col in enumerate(names):
        cells = feats[col].copy()
        # true gaps: mostly empty cells, some written as a missing token
        tokens = rng.choice(np.asarray(["", "", "", "N/A", "-"], dtype=object), n)
        cells[gaps[:, j]] = tokens[gaps[:, j]]
        feats[col] = cells
    df = pd.DataFrame({"Subject ID": [f"SH{i:05d}" for i in range(n)], **feats,
                       "Outcome": pick(["low", "medium", "high"], [0.5, 0.32, 0.18])})
    return df.astype(str), gaps


@pytest.fixture(scope="module")
def cohort():
    df, gaps = singheart_like()
    enc = Encoder(id_column="Subject ID", label_column="Outcome")
    X = enc.fit_transform(df)
    return df, gaps, enc, X


def test_patients_with_few_true_gaps_are_kept(cohort):
    df, gaps, enc, _ = cohort
    few = gaps.mean(axis=1) <= 0.10
    assert few.sum() > 0.5 * len(df)
    kept_share = enc.keep_patients_[few].mean()
    assert kept_share >= 0.95, kept_share
    # nothing beyond the true gaps is read as missing
    X = enc.transform(df)
    cols = [c for c in df.columns if c not in ("Subject ID", "Outcome")]
    assert enc.feature_names_out_ == cols
    np.testing.assert_array_equal(np.isnan(X), gaps)


def test_albuminuria_codes_follow_none_micro_macro(cohort):
    df, gaps, enc, X = cohort
    alb = enc.feature_names_out_.index("Albuminuria")
    codes = {v: X[np.flatnonzero((df["Albuminuria"] == v).to_numpy())[0], alb]
             for v in ("None", "Micro", "Macro")}
    assert codes["None"] < codes["Micro"] < codes["Macro"]
    assert codes == {"None": 1, "Micro": 2, "Macro": 3}
    assert enc.table_.is_ordered("Albuminuria")
    assert enc.report_.missing_pct["Albuminuria"] == pytest.approx(
        100 * gaps[:, list(df.columns).index("Albuminuria") - 1].mean())


def test_severity_and_smoke_scales_keep_their_order(cohort):
    _, _, enc, _ = cohort
    assert enc.table_.levels("Retinopathy") == {"None": 1, "Mild": 2, "Moderate": 3,
                                                "Severe": 4}
    assert enc.table_.levels("Home Smoke") == {"Never": 1, "Sometimes": 2,
                                               "Most of the times": 3, "Always": 4}


def test_yes_no_direction_everywhere(cohort):
    _, _, enc, _ = cohort
    for col in ("Diabetes", "Hypertension", "Stroke", "Family history of CVD"):
        levels = {k.lower(): v for k, v in enc.table_.levels(col).items()}
        assert levels == {"yes": 1, "no": 2, "unknown": 0}, col


def test_report_lists_tokens_read_as_missing_and_unordered_columns(cohort):
    df, gaps, enc, _ = cohort
    rep = enc.report_
    j = list(df.columns).index("Biomarker 1")
    n_tokens = int(df["Biomarker 1"].isin(["N/A", "-"]).sum())
    assert n_tokens > 0 and sum(rep.missing_tokens["Biomarker 1"].values()) == n_tokens
    assert set(rep.missing_tokens["Biomarker 1"]) <= {"N/A", "-"}
    assert gaps[:, j - 1].sum() >= n_tokens
    # "None" and "Unknown" are values, never listed as missing
    for col in ("Albuminuria", "Stroke", "Diabetes"):
        assert not {"none", "unknown"} & {t.lower() for t in rep.missing_tokens.get(col, {})}
    assert "Ethnicity" in rep.unordered_columns and "Religion" in rep.unordered_columns
    for col in ("Albuminuria", "Retinopathy", "Home Smoke", "Stroke", "Diabetes"):
        assert col not in rep.unordered_columns
    text = str(rep)
    assert "Read as missing" in text and "'N/A'" in text
    assert "Unordered categories" in text and "Ethnicity" in text


def test_the_old_rule_would_have_dropped_them(cohort):
    """The share kept with every token read as missing (the old behaviour) is far lower:
    the acceptance threshold above is not met by accident."""
    df, gaps, enc, X = cohort
    old_missing = np.isnan(X) | df[enc.feature_names_out_].apply(
        lambda c: c.str.strip().str.lower().isin(["none", "unknown"])).to_numpy()
    few = gaps.mean(axis=1) <= 0.10
    assert (old_missing.mean(axis=1)[few] <= 0.10).mean() < 0.9


@pytest.mark.parametrize("normal", ["None", "none", " NONE ", "Normal"])
def test_a_column_whose_normal_value_is_none(normal):
    rng = np.random.default_rng(1)
    n = 200
    alb = rng.choice(np.asarray([normal, "Microalbuminuria", "Macroalbuminuria", ""],
                                dtype=object), n, p=[0.75, 0.15, 0.05, 0.05])
    df = pd.DataFrame({"Urine albumin": alb, "Age": rng.integers(30, 80, n).astype(str)})
    enc = Encoder()
    X = enc.fit_transform(df)
    col = X[:, 0]
    assert np.isnan(col).sum() == (alb == "").sum()
    assert set(np.unique(col[alb == normal])) == {1.0}
    assert set(np.unique(col[alb == "Microalbuminuria"])) == {2.0}
    assert set(np.unique(col[alb == "Macroalbuminuria"])) == {3.0}
    assert (enc.keep_patients_ == (alb != "")).all()  # only the empty cells are gaps


def test_none_in_a_numeric_column_is_missing_and_reported():
    df = pd.DataFrame({"LDL": ["3.1", "None", "2.4", "unknown", "4.0", "2.2", "3.3", "2.9"],
                       "Age": ["40", "50", "60", "70", "45", "55", "65", "75"]})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.roles_["LDL"] == "numeric"
    assert np.isnan(X[1, 0]) and np.isnan(X[3, 0]) and X[0, 0] == 3.1
    assert enc.report_.missing_tokens["LDL"] == {"None": 1, "unknown": 1}


def test_rare_unknown_in_an_unordered_column_is_missing_common_is_a_value():
    n = 300
    eth = np.asarray(["Chinese", "Malay", "Indian"] * 100, dtype=object)
    rare, common = eth.copy(), eth.copy()
    rare[0] = "Unknown"  # 1 cell of 300: a gap
    common[:30] = "Unknown"  # 10 %: a category
    df = pd.DataFrame({"Eth rare": rare, "Eth common": common, "Age": np.arange(n) % 50})
    enc = Encoder(max_patient_missing=None, merge_duplicates=False)
    enc.fit(df)
    assert "Unknown" not in enc.table_.levels("Eth rare")
    assert enc.report_.missing_tokens["Eth rare"] == {"Unknown": 1}
    assert "Unknown" in enc.table_.levels("Eth common")
    assert "Eth common" not in enc.report_.missing_tokens


def test_unk_counts_with_unknown_and_is_read_as_it():
    """Walk-through 27's race column read "Unknown" (common) as an answer and "UNK" as a
    gap: the same answer, two readings. Together they are both answers (paired for a
    merge) or both gaps; in a yes/no column "UNK" is the paper's Unknown 0."""
    race = np.asarray(["White", "Black", "Asian"] * 100, dtype=object)
    race[:4], race[4:6] = "Unknown", "UNK"
    rare = np.asarray(["White", "Black", "Asian"] * 100, dtype=object)
    rare[0], rare[1] = "Unknown", "UNK"  # 2 of 300 together: below 1 %, gaps
    yn = np.asarray(["Yes", "No"] * 150, dtype=object)
    yn[:3], yn[3:9] = "UNK", "unknown"
    df = pd.DataFrame({"Race": race, "Race 2": rare, "Diabetes": yn,
                       "Age": np.arange(300) % 50})
    enc = Encoder(max_patient_missing=None, merge_duplicates=False)
    X = enc.fit_transform(df)
    assert {"Unknown", "UNK"} <= set(enc.table_.levels("Race"))
    assert enc.report_.answers_two_ways["Race"] == [["UNK", "Unknown"]]
    assert enc.report_.missing_tokens["Race 2"] == {"Unknown": 1, "UNK": 1}
    assert enc.table_.levels("Diabetes")["unknown"] == 0  # the paper's table's column
    assert (X[:9, 2] == 0).all() and "Diabetes" not in enc.report_.missing_tokens
    # a yes/no column of the file's own: "UNK" is a spelling of the scale's Unknown
    df2 = df.rename(columns={"Diabetes": "Prior stroke"})
    enc2 = Encoder(max_patient_missing=None, merge_duplicates=False)
    X2 = enc2.fit_transform(df2)
    assert enc2.table_.levels("Prior stroke")["UNK"] == 0 and (X2[:9, 2] == 0).all()


def test_rare_unknown_in_a_yes_no_column_is_a_gap_common_is_the_papers_0():
    """GBSG2's horTh had 4 "unknown" in 686: coded 0 (a level) while "unknown" was a gap in
    every other column. Rare, it is a gap now; common (4 %), the paper's Unknown 0 stays."""
    n = 686
    rare = np.asarray(["yes", "no"] * (n // 2), dtype=object)
    rare[[3, 10, 20, 30]] = "unknown"
    common = np.asarray(["yes", "no"] * (n // 2), dtype=object)
    common[: n // 25] = "unknown"
    df = pd.DataFrame({"horTh": rare, "trt": common, "age": np.arange(n)})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.table_.levels("horTh") == {"yes": 1, "no": 2}
    assert np.isnan(X[[3, 10, 20, 30], 0]).all()
    assert enc.report_.missing_tokens["horTh"] == {"unknown": 4}
    assert enc.table_.levels("trt")["unknown"] == 0


def test_unknown_outside_a_scale_is_missing_even_when_common():
    sev = np.asarray(["Mild", "Moderate", "Severe", "Unknown"] * 50, dtype=object)
    df = pd.DataFrame({"Severity": sev, "Age": np.arange(200) % 40})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.table_.levels("Severity") == {"Mild": 2, "Moderate": 3, "Severe": 4}
    assert np.isnan(X[3::4, 0]).all()


@pytest.mark.parametrize("levels, expected", [
    (["Low", "Medium", "High"], {"Low": 1, "Medium": 2, "High": 3}),
    (["low", "moderate", "HIGH"], {"low": 1, "moderate": 2, "HIGH": 3}),
    (["Never", "Rarely", "Sometimes", "Often", "Always"],
     {"Never": 1, "Rarely": 1, "Sometimes": 2, "Often": 3, "Always": 4}),
    (["Normal", "Borderline", "Abnormal"], {"Normal": 1, "Borderline": 2, "Abnormal": 3}),
    (["Mild", "Moderate", "Severe"], {"Mild": 2, "Moderate": 3, "Severe": 4}),
    (["Y", "N"], {"Y": 1, "N": 2}),
    (["True", "False"], {"True": 1, "False": 2}),
    (["Yes", "No", "Previously"], {"Yes": 1, "No": 2, "Previously": 3}),
    # tumour grades in Roman numerals: an order (GBSG2's tgrade read as unordered before)
    (["III", "I", "II"], {"I": 1, "II": 2, "III": 3}),
    (["Stage IV", "stage ii"], {"stage ii": 2, "Stage IV": 4}),
])
def test_recognised_scales_case_and_space_insensitive(levels, expected):
    cells = np.asarray(levels * 20, dtype=object)
    df = pd.DataFrame({"Answer": [f"  {c} " for c in cells], "Age": np.arange(len(cells))})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.table_.levels("Answer") == expected
    for lv, code in expected.items():
        assert (X[cells == lv, 0] == code).all()


def test_boolean_dtype_column_reads_as_yes_no():
    df = pd.DataFrame({"Smoker": [True, False, True, False], "Age": [40, 50, 60, 70]})
    X = Encoder(max_patient_missing=None).fit_transform(df)
    assert X[:, 0].tolist() == [1, 2, 1, 2]


def test_users_table_decides_over_inference():
    table = EncodingTable({"Albuminuria": {"Macro": 1, "Micro": 2, "None": 3}})
    df = pd.DataFrame({"Albuminuria": ["None", "Micro", "Macro", "n/a"] * 5,
                       "Age": np.arange(20)})
    enc = Encoder(encoding_table=table, max_patient_missing=None)
    X = enc.fit_transform(df)
    assert X[:4, 0].tolist()[:3] == [3, 2, 1] and np.isnan(X[3, 0])
    assert enc.table_.is_ordered("Albuminuria")  # reversed scale is still an order


# ---------------------------------------------------------------- guessing columns
def test_guess_columns_on_the_cohort(cohort):
    df, *_ = cohort
    assert guess_columns(df) == ("Subject ID", "Outcome")


@pytest.mark.parametrize("frame, expected", [
    ({"MRN": ["a1", "a2", "a3", "a4"], "age": [1, 2, 3, 4], "DEATH_EVENT": [0, 1, 0, 1]},
     ("MRN", "DEATH_EVENT")),
    ({"name": ["ann", "bob", "cy", "di"], "x": [1.5, 2, 3, 4],
      "Vital status": ["alive", "dead", "alive", "alive"]}, ("name", "Vital status")),
    ({"patient_id": ["p1", "p2", "p3", "p4"], "Heart attack event": ["Yes", "No", "No", "Yes"],
      "bmi": [20, 21, 22, 23]}, ("patient_id", "Heart attack event")),
    ({"PatientID": [1, 2, 3, 4], "status": ["a", "b", "a", "b"], "Outcome": ["x", "y", "y", "x"]},
     ("PatientID", "Outcome")),
    ({"id": [1, 2, 3, 4], "x": [1, 2, 3, 4]}, ("id", None)),
    ({"x": [1.0, 2, 3, 4], "y": [1.0, 2, 3, 4]}, (None, None)),
    ({"Hospital ID": ["h1", "h1", "h2", "h2"], "Subject": ["s1", "s2", "s3", "s4"],
      "diagnosis": [f"d{i}" for i in range(4)]}, ("Subject", "diagnosis")),
    # walk-through 19: "MACE at 1 year" became an input feature; other common names
    ({"MRN": ["m1", "m2", "m3", "m4"], "Killip class": ["I", "II", "I", "III"],
      "MACE at 1 year": ["Yes", "No", "No", "Yes"]}, ("MRN", "MACE at 1 year")),
    ({"id": [1, 2, 3, 4], "hospital_expire_flag": [0, 1, 0, 0]}, ("id", "hospital_expire_flag")),
    ({"id": [1, 2, 3, 4], "30-day readmission": ["y", "n", "n", "y"]},
     ("id", "30-day readmission")),
    ({"id": [1, 2, 3, 4], "Alive at discharge": ["yes", "no", "yes", "yes"]},
     ("id", "Alive at discharge")),
    ({"id": list(range(40)), "Response time (s)": [0.5 * i for i in range(40)]},
     ("id", None)),
    # walk-through 29: an event in a time window; not an event of the past
    ({"id": [1, 2, 3, 4], "Admissions in previous 12 months": [0, 1, 2, 0],
      "Admitted within 12 months": ["yes", "no", "no", "yes"]},
     ("id", "Admitted within 12 months")),
    ({"id": [1, 2, 3, 4], "Admissions in previous 12 months": [0, 1, 2, 0]}, ("id", None)),
    # walk-through 31: an event answered yes or no; not a past one, nor a number
    ({"id": [1, 2, 3, 4], "Mode of Delivery": ["SVD", "LSCS", "SVD", "SVD"],
      "NICU admission": ["Y", "No", "no", "Yes"]}, ("id", "NICU admission")),
    ({"id": [1, 2, 3, 4], "Previous ICU admission": ["yes", "no", "no", "yes"]},
     ("id", None)),
    ({"id": [1, 2, 3, 4], "ICU stay (days)": [3, 4, 0, 2]}, ("id", None)),
    ({"id": [1, 2, 3, 4], "Transfer ward": ["A", "B", "C", "A"]}, ("id", None)),
])
def test_guess_columns(frame, expected):
    assert guess_columns(pd.DataFrame(frame)) == expected


def test_guess_columns_does_not_take_features_named_status_or_class(cohort):
    df, *_ = cohort
    three = len(df) // 3
    df = df.drop(columns=["Outcome"]).assign(**{
        "Marital Status": ["Single", "Married", "Widowed"] * three,
        "NYHA class": ["I", "II", "III"] * three})
    assert guess_columns(df) == ("Subject ID", None)
    vital = df.assign(**{"Vital status": ["alive", "dead", "alive"] * three})
    assert guess_columns(vital)[1] == "Vital status"
    last = df.assign(**{"Status at last contact": ["alive", "died", "alive"] * three})
    assert guess_columns(last)[1] == "Status at last contact"
    smoking = df.assign(**{"Smoking status at last visit": ["yes", "no", "no"] * three})
    assert guess_columns(smoking)[1] is None


def test_guess_columns_skips_outcomes_with_too_many_levels():
    df = pd.DataFrame({"Subject ID": [f"s{i}" for i in range(40)],
                       "Diagnosis": [f"code {i}" for i in range(40)],
                       "Event": ["yes", "no"] * 20})
    assert guess_columns(df) == ("Subject ID", "Event")


def test_a_diagnosis_feature_is_not_taken_for_the_outcome_and_others_are_listed():
    """Walk-through 16 (an RHC export): "Cardiovascular diagnosis" was guessed as the
    outcome over "Vital status", which then went to the model as a feature, silently."""
    from sparge.data.column_guess import outcome_named_columns

    df = pd.DataFrame({"Patient ID": ["a", "b", "c", "d"],
                       "Cardiovascular diagnosis": ["CHF", "ARF", "CHF", "MOSF"],
                       "Vital status": ["Died", "Alive", "Alive", "Died"],
                       "Died in hospital": ["yes", "no", "no", "no"]})
    assert guess_columns(df) == ("Patient ID", "Died in hospital")
    assert outcome_named_columns(df, exclude=["Patient ID"]) == ["Died in hospital",
                                                                 "Vital status"]
    assert guess_columns(df.drop(columns="Died in hospital"))[1] == "Vital status"
    assert guess_columns(df[["Patient ID", "Cardiovascular diagnosis"]])[1] is None
    final = pd.DataFrame({"id": ["a", "b", "c", "d"], "Final diagnosis": ["M", "B", "B", "M"]})
    assert guess_columns(final)[1] == "Final diagnosis"
