"""sparge.services.display: values in clinical units, categories as words, SD only as a cue."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder, EncodingTable
from sparge.data.safe_text import to_csv
from sparge.errors import DataError
from sparge.services.display import (
    SPARSE_WEIGHT_HELP,
    column_decimals,
    decode_column,
    display_frame,
    format_number,
    format_sd,
    format_value,
    group_summary,
    lookalike_comparison,
    lookalike_display,
    numeric_patients,
    pair_comparison,
    plot_text,
    safe_filename,
    snap_precision,
    top_biomarkers,
    typical_deviation,
)


@pytest.fixture(scope="module")
def encoder():
    """Diabetes is in the paper's table (Yes = 1, No = 2, Unknown = 0); Smoking has three
    levels; Age is numeric."""
    df = pd.DataFrame({"id": [f"P{i}" for i in range(8)],
                       "Age": ["40", "50", "60", "", "45", "55", "65", "70"],
                       "Diabetes": ["Yes", "No", "No", "Yes", "No", "No", "Yes", "No"],
                       "Smoking": ["Yes", "No", "Previously", "No", "No", "Yes", "No", "No"]})
    enc = Encoder(id_column="id", max_patient_missing=None).fit(df)
    assert enc.roles_["Diabetes"] == "categorical" and enc.roles_["Age"] == "numeric"
    return enc


@pytest.mark.parametrize("value, text", [
    (1.9999999924, "2"), (5.234, "5.23"), (123.456, "123"), (12345.6, "12\u00a0346"),
    (2014.0, "2014"), (1380.4, "1380"),
    (0.001234, "0.00123"), (61.0, "61"), (-0.5, "-0.5"), (0, "0"), (np.nan, "—"),
    (None, "—"), ("abc", "—")])
def test_format_number_reads_like_a_clinical_value(value, text):
    assert format_number(value) == text


def test_categories_are_decoded_to_their_words(encoder):
    codes = {w: c for w, c in encoder.table_.levels("Diabetes").items()}
    assert format_value(codes["Yes"], "Diabetes", encoder) == "Yes"
    # float round-off of a code (the "Sex: 1.9999999924" of the issue) still reads as a word
    assert format_value(codes["No"] - 7.6e-9, "Diabetes", encoder) == "No"
    assert format_value(np.nan, "Diabetes", encoder) == "—"
    assert format_value(61.0, "Age", encoder) == "61"
    # without an encoder, numbers are shown
    assert format_value(codes["Yes"], "Diabetes", None) == format_number(codes["Yes"])
    col = decode_column([codes["Yes"], np.nan, codes["No"]], "Diabetes", encoder)
    assert col.tolist() == ["Yes", "missing", "No"]
    assert decode_column([1.0, 2.0], "Age", encoder).dtype == float


def test_a_code_with_several_spellings_shows_the_longest():
    """Walk-through 18: "Y"/"Yes" and "No"/"N" shared codes, and a patient's "No" was
    quoted as "N"."""
    df = pd.DataFrame({"id": [f"P{i}" for i in range(40)], "age": np.arange(40.0),
                       "ACEi": (["Y", "N", "Yes", "No"] * 10)})
    enc = Encoder(id_column="id").fit(df)
    codes = enc.table_.levels("ACEi")
    assert codes["Y"] == codes["Yes"] and codes["N"] == codes["No"]
    assert format_value(codes["N"], "ACEi", enc) == "No"
    assert format_value(codes["Y"], "ACEi", enc) == "Yes"
    # the form's answers: one per code, any code (an edited table may hold 1.5)
    from sparge.services.display import answers_by_code

    assert list(answers_by_code(enc, "ACEi").values()) == ["Yes", "No"]
    table = enc.table_.to_frame().astype({"code": "Float64"})
    table.loc[(table["column"] == "ACEi") & (table["value"] == "N"), "code"] = 1.5
    edited = Encoder(id_column="id", encoding_table=EncodingTable.from_frame(table)).fit(df)
    assert list(answers_by_code(edited, "ACEi").values()) == ["Yes", "N", "No"]
    assert answers_by_code(edited, "age") is None
    # "Yes" and "No", not "True" and "False" (walk-through 23's yes/Y/1/true column)
    tf = df.assign(ACEi=["yes", "no", "true", "false"] * 10)
    assert list(answers_by_code(Encoder(id_column="id").fit(tf), "ACEi").values()) == [
        "Yes", "No"]
    # a Roman numeral in capitals (walk-through 21 read "Iii" and "Iv" for NYHA classes)
    nyha = pd.DataFrame({"id": [f"P{i}" for i in range(40)], "age": np.arange(40.0),
                         "NYHA": ["iii", "iv", "nyha ii", "mild"] * 10})
    words = answers_by_code(Encoder(id_column="id").fit(nyha), "NYHA").values()
    assert sorted(words) == ["III", "IV", "Mild", "NYHA II"]  # its initials in capitals
    # a site merged with its "ca" spelling is shown as the site (walk-through 25's form
    # offered "Breast ca")
    from sparge.data.answer_merging import merge_answers

    site = pd.DataFrame({"id": [f"P{i}" for i in range(40)], "age": np.arange(40.0),
                         "Primary site": ["Breast", "breast ca", "Lung", "lung cancer"] * 10})
    fitted = Encoder(id_column="id").fit(site)
    merged = Encoder(id_column="id", encoding_table=merge_answers(
        fitted.table_, fitted.report_.answers_two_ways)).fit(site)
    assert list(answers_by_code(merged, "Primary site").values()) == ["Breast", "Lung"]
    # a spelling in capitals is not the one shown ("ISCHAEMIC" beside "Ischemic")
    caps = pd.DataFrame({"id": [f"P{i}" for i in range(40)], "age": np.arange(40.0),
                         "Aetiology": ["ISCHAEMIC", "Dilated"] * 20})
    table = Encoder(id_column="id").fit(caps).table_.to_frame()
    extra = pd.DataFrame([{**table[table["value"] == "ISCHAEMIC"].iloc[0].to_dict(),
                           "value": "Ischemic"}])
    edited = Encoder(id_column="id", encoding_table=EncodingTable.from_frame(
        pd.concat([table, extra], ignore_index=True))).fit(caps)
    assert sorted(answers_by_code(edited, "Aetiology").values()) == ["Dilated", "Ischemic"]
    # but a letter merged into a spelling in capitals is not shown either: "WHITE", not
    # "W" (walk-through 27's legend named 405 patients "W")
    race = pd.DataFrame({"id": [f"P{i}" for i in range(40)], "age": np.arange(40.0),
                         "Race": ["W", "WHITE", "Asian", "WHITE"] * 10})
    fitted = Encoder(id_column="id").fit(race)
    assert fitted.report_.answers_two_ways == {"Race": [["W", "WHITE"]]}
    merged = Encoder(id_column="id", encoding_table=merge_answers(
        fitted.table_, fitted.report_.answers_two_ways)).fit(race)
    assert sorted(answers_by_code(merged, "Race").values()) == ["Asian", "WHITE"]


def test_display_frame_never_shows_codes_for_categories(encoder):
    X = pd.DataFrame(encoder.transform(pd.DataFrame({
        "id": ["A", "B"], "Age": ["41", ""], "Diabetes": ["No", "Yes"],
        "Smoking": ["Previously", "No"]})), columns=encoder.feature_names_out_)
    shown = display_frame(X, encoder)
    assert shown["Diabetes"].tolist() == ["No", "Yes"]
    assert shown["Smoking"].tolist() == ["Previously", "No"]
    assert shown["Age"].tolist() == ["41", "—"]


def test_lookalike_comparison_in_units_with_sd_as_a_cue(encoder):
    names = encoder.feature_names_out_
    yes = encoder.table_.levels("Diabetes")["Yes"]
    no = encoder.table_.levels("Diabetes")["No"]
    j_age, j_dia = names.index("Age"), names.index("Diabetes")
    mean = np.zeros(len(names))
    scale = np.ones(len(names))
    mean[j_age], scale[j_age] = 50.0, 10.0
    query = np.full(len(names), np.nan)
    query[j_age], query[j_dia] = 70.0, yes
    nb = pd.DataFrame(np.nan, index=range(4), columns=names)
    nb["Age"] = [60.0, 64.0, 68.0, np.nan]
    nb["Diabetes"] = [yes, yes, no, yes]
    comp = lookalike_comparison(query, nb, ["Age", "Diabetes"], names, mean, scale, encoder)
    age = comp.set_index("Biomarker").loc["Age"]
    assert age["This patient"] == "70"
    assert age["Look-alikes"] == "64 (62–66) · 3 of 4 measured"
    assert age["Patient (SD)"] == "+2.0 SD" and age["patient_sd"] == pytest.approx(2.0)
    # the SD cue is the look-alikes' median and quartiles, as the text's median (IQR)
    assert age["Look-alikes (SD)"] == "+1.4 SD"
    assert (age["lookalikes_sd_q1"], age["lookalikes_sd_q3"]) == pytest.approx((1.2, 1.6))
    dia = comp.set_index("Biomarker").loc["Diabetes"]
    assert dia["This patient"] == "Yes"
    assert dia["Look-alikes"] == "Yes: 3, No: 1"
    # a yes/no code is not a scale: no SD for it (a Yes = 1 / No = 2 code means nothing in SD)
    assert dia["Patient (SD)"] == "—" and dia["Look-alikes (SD)"] == "—"
    assert np.isnan(dia["patient_sd"])


def test_a_value_written_as_a_limit_is_compared_as_written(encoder):
    """A walk-through's ">70" read as 70 and showed as a plain "70" beside the
    look-alikes: the comparison now says how it was written."""
    from sparge.data.parsing import limit_text
    from sparge.services.display import limits_as_written

    assert [limit_text(c) for c in ("<15", " >= 90 ", "<=0.5", "15", 15.0, None, "<a")] == \
        ["<15", "≥90", "≤0.5", None, None, None, None]
    # a result below the detection limit is shown as written too (walk-through 38's
    # "TND" showed as a plain "50" beside "<50 (read as 50)")
    assert [limit_text(c) for c in ("TND", " target not detected ", "T" * 50)] == \
        ["TND", "target not detected", None]
    names = encoder.feature_names_out_
    row = pd.Series({"Age": ">70", "Diabetes": "Yes", "Not a feature": "<3"})
    written = limits_as_written(row, names)
    assert written == {"Age": ">70"}
    q = np.full(len(names), np.nan)
    q[names.index("Age")] = 70.0
    nb = pd.DataFrame(np.nan, index=range(3), columns=names)
    nb["Age"] = [60.0, 64.0, 68.0]
    mean, scale = np.zeros(len(names)), np.ones(len(names))
    comp = lookalike_comparison(q, nb, ["Age"], names, mean, scale, encoder,
                                written=written).set_index("Biomarker")
    assert comp.loc["Age", "This patient"] == ">70 (read as 70)"
    pair = pair_comparison(q, nb.iloc[0].to_numpy(), ["Age"], names, mean, scale, encoder,
                           written=written).set_index("Biomarker")
    assert pair.loc["Age", "This patient"] == ">70 (read as 70)"
    # without it, or for a gap, the value alone
    plain = lookalike_comparison(q, nb, ["Age"], names, mean, scale, encoder)
    assert plain["This patient"].iloc[0] == "70"
    gap = lookalike_comparison(np.full(len(names), np.nan), nb, ["Age"], names, mean, scale,
                               encoder, written=written)
    assert gap["This patient"].iloc[0] == "—"


def test_a_0_1_column_without_words_is_counted_not_quartiled():
    from sparge.services.display import _summary_of

    assert _summary_of(np.array([1.0, 1.0, 0.0, 1.0, np.nan]), "flag", None) == \
        "1: 3, 0: 1 · 4 of 5 measured"
    assert _summary_of(np.array([0.0, 0.0]), "flag", None) == "0: 2"
    assert _summary_of(np.array([0.0, 2.0, 1.0]), "count", None) == "1 (0–2)"
    # whole numbers keep whole quartiles (node counts read "9–36", not "8.75–36.75"); the
    # median of an even number of counts keeps its .5
    assert _summary_of(np.array([5, 8, 9, 11, 12, 36, 40, 37.0]), "n", None) == "11.5 (9–36)"


def test_pair_comparison_verdicts(encoder):
    names = encoder.feature_names_out_
    yes = encoder.table_.levels("Diabetes")["Yes"]
    no = encoder.table_.levels("Diabetes")["No"]
    mean, scale = np.zeros(len(names)), np.ones(len(names))
    scale[names.index("Age")] = 10.0
    q = np.full(len(names), np.nan)
    o = np.full(len(names), np.nan)
    q[names.index("Age")], o[names.index("Age")] = 52.0, 70.0
    q[names.index("Diabetes")], o[names.index("Diabetes")] = yes, no
    q[names.index("Smoking")] = 1.0
    pair = pair_comparison(q, o, ["Age", "Diabetes", "Smoking"], names, mean, scale,
                           encoder).set_index("Biomarker")
    # units first, then the same difference in SD, signed alike
    assert pair.loc["Age", "Difference"] == "-18 (-1.8 SD)"
    assert pair.loc["Age", "Verdict"] == "differ"
    assert (pair.loc["Diabetes", "This patient"], pair.loc["Diabetes", "Look-alike"]) == \
        ("Yes", "No")
    assert pair.loc["Diabetes", "Difference"] == "different"
    # yes/no: same/different decides the verdict, no SD
    assert pair.loc["Diabetes", "Verdict"] == "differ"
    assert pair.loc["Smoking", "Verdict"] == "missing"
    # counted in a sentence, with how many of the model's biomarkers they are (walk-
    # through 69 read 4 "differ" of 8 with no count and no word of the other 459)
    from sparge.services.display import pair_summary
    said = pair_summary(pair.reset_index(), 46)
    assert said.startswith("Of the 3 biomarkers shown: 2 differ, 1 missing.")
    assert "chosen on all 46 of the model's biomarkers" in said
    assert "chosen on all" not in pair_summary(pair.reset_index(), 3)
    assert format_sd(-0.01) == "0.0 SD" and format_sd(0.26) == "+0.3 SD"
    # the values as precise as their difference (walk-through 28: "101 | 100 | +1.3")
    q[names.index("Age")], o[names.index("Age")] = 101.3, 100.0
    pair = pair_comparison(q, o, ["Age"], names, mean, scale, encoder).iloc[0]
    assert (pair["This patient"], pair["Look-alike"]) == ("101.3", "100.0")
    assert pair["Difference"].startswith("+1.3 ")
    q[names.index("Age")], o[names.index("Age")] = 52.0, 70.0  # whole: left as they are
    pair = pair_comparison(q, o, ["Age"], names, mean, scale, encoder).iloc[0]
    assert (pair["This patient"], pair["Look-alike"]) == ("52", "70")


def test_group_summary_ranks_by_difference_and_shows_units_and_words(encoder):
    names = encoder.feature_names_out_
    yes = encoder.table_.levels("Diabetes")["Yes"]
    no = encoder.table_.levels("Diabetes")["No"]
    rng = np.random.default_rng(0)
    n = 200
    values = pd.DataFrame({"Age": rng.normal(50, 10, n), "Diabetes": no,
                           "Smoking": rng.choice([1.0, 2.0], n)})[names]
    group = np.arange(40)
    values.loc[group, "Age"] += 30  # the group is 3 SD older
    values.loc[group[:30], "Diabetes"] = yes  # and mostly diabetic
    scale = values.std().to_numpy()
    out = group_summary(values, group, values.mean().to_numpy(), scale, encoder,
                        outcomes=np.where(np.arange(n) < 40, "high", None), n_features=3)
    feats = out["features"].set_index("Biomarker")
    assert set(feats.index[:2]) == {"Age", "Diabetes"}  # Smoking is noise
    assert feats.loc["Diabetes", "Group"] == "Yes 75%" and feats.loc["Diabetes", "Rest"] \
        == "Yes 0%"
    assert feats.loc["Diabetes", "Difference"] == "+75 points"
    assert float(feats.loc["Age", "Group"]) > 70 and feats.loc["Age", "Difference"].endswith(
        " SD")
    assert out["size"] == 40 and out["outcome_mix"].to_dict() == {"high": 40}
    # Smoking coded 1/2 without words is a number; a 0/1 flag without words is a share
    values["Flag"] = np.where(np.arange(n) < 20, 1.0, 0.0)
    flag = group_summary(values, group, values.mean().to_numpy(),
                         values.std().to_numpy(), None, n_features=4)["features"]
    row = flag.set_index("Biomarker").loc["Flag"]
    assert (row["Group"], row["Rest"], row["Difference"]) == ("1 50%", "1 0%", "+50 points")
    assert row["Measured"] == "100% / 100%"


def test_a_difference_that_rounds_to_nothing_has_no_sign(encoder):
    """A walk-through's group summary read "-0 points"."""
    names = encoder.feature_names_out_
    n = 1000
    values = pd.DataFrame({"Age": np.linspace(30, 80, n), "Diabetes": 1.0,
                           "Smoking": 1.0})[names]
    values["Flag"] = np.where(np.arange(n) % 10 == 0, 1.0, 0.0)
    group = np.arange(0, 99)  # 10 of 99 flagged against 90 of 901: -0.1 points
    feats = group_summary(values, group, values.mean().to_numpy(), np.ones(4), None,
                          n_features=4)["features"].set_index("Biomarker")
    assert feats.loc["Flag", "Difference"] == "0 points"


def test_group_summary_says_how_many_have_a_value(encoder):
    """A share among the few patients measured is marked as such (a walk-through's group
    read 'Yes 22%' of the patients with a value, and the table did not say so)."""
    names = encoder.feature_names_out_
    n = 100
    values = pd.DataFrame({"Age": np.linspace(30, 80, n), "Diabetes": 1.0,
                           "Smoking": 1.0})[names]
    group = np.arange(20)
    values.loc[group[:15], "Age"] = np.nan  # 5 of the 20 measured
    values.loc[60:, "Age"] = np.nan  # 40 of the 80 others measured
    feats = group_summary(values, group, values.mean().to_numpy(),
                          np.ones(len(names)), encoder, n_features=3)["features"]
    assert feats.set_index("Biomarker").loc["Age", "Measured"] == "25% / 50%"


def test_top_biomarkers_follow_the_importance():
    assert top_biomarkers([0.1, 0.5, np.nan, 0.4], ["a", "b", "c", "d"], 2) == ["b", "d"]
    # a patient's measured biomarkers first (a new patient with a few values)
    assert top_biomarkers([0.1, 0.5, np.nan, 0.4], ["a", "b", "c", "d"], 3,
                          measured=[1.0, np.nan, 2.0, np.nan]) == ["a", "c", "b"]


def test_a_patients_severity_scores_lead_the_comparison():
    """Walk-through 93: a psoriasis clinic's patients were compared on eight blood tests by
    default, never on their PASI or IGA. Up to three measured severity scores come first,
    by the metric's rank; an unmeasured one does not."""
    from sparge.services.display import SEVERITY_FIRST, severity_columns

    names = ["CRP", "ALT", "Baseline PASI", "IGA", "Weight", "NYHA class", "DLQI",
             "Tumour stage", "Comorbidities: CKD"]
    sev = severity_columns(names)
    assert sev.tolist() == [False, False, True, True, False, True, True, True, False]
    w = [0.9, 0.8, 0.1, 0.2, 0.7, 0.05, 0.3, 0.01, 0.6]
    measured = [1.0] * 5 + [np.nan] + [1.0] * 3
    got = top_biomarkers(w, names, 5, measured=measured, severity=sev)
    assert got[:SEVERITY_FIRST] == ["DLQI", "IGA", "Baseline PASI"]
    assert got[SEVERITY_FIRST:] == ["CRP", "ALT"] and "NYHA class" not in got
    assert top_biomarkers(w, names, 2, severity=sev) == ["DLQI", "IGA"]


def test_a_rare_flag_does_not_lead_the_comparison():
    """Ranked by weight x typical deviation: a 2 % flag with the largest per-SD weight
    comes after a bell-shaped biomarker weighed a little less."""
    rng = np.random.default_rng(0)
    age = rng.standard_normal(500)
    flag = (rng.random(500) < 0.02).astype(float)
    Z = np.column_stack([(flag - flag.mean()) / flag.std(), age, age * 0 + np.nan])
    typical = typical_deviation(Z)
    assert typical[1] == pytest.approx(np.sqrt(2 / np.pi), abs=0.05)
    p = flag.mean()
    assert typical[0] == pytest.approx(2 * np.sqrt(p * (1 - p)), rel=1e-6)
    assert typical[2] == 0.0  # never measured
    names = ["flag", "age", "gone"]
    assert top_biomarkers([0.5, 0.3, 0.2], names, 3) == ["flag", "age", "gone"]
    assert top_biomarkers([0.5, 0.3, 0.2], names, 3, typical=typical) == ["age", "flag",
                                                                          "gone"]


def test_what_sets_the_patient_apart_comes_first():
    """Walk-through 21: a patient with an eGFR of 13 was compared on eight yes/no answers
    and never on its kidneys; where the patient stands out, a biomarker counts by how far."""
    names = ["Diabetes", "Age", "eGFR"]
    w, typical = [0.04, 0.03, 0.03], [1.0, 0.8, 0.8]
    assert top_biomarkers(w, names, 2, typical=typical) == ["Diabetes", "Age"]
    unusual = [np.nan, 0.2, -3.1]  # yes/no: no SD; an ordinary age; a failing kidney
    assert top_biomarkers(w, names, 2, typical=typical, unusual=unusual) == ["eGFR",
                                                                            "Diabetes"]


def test_snap_precision_removes_float32_round_off():
    df = pd.DataFrame({"a": [-6.06e-7, 12.3400001], "b": [1.9999999924, 1.0]})
    out = snap_precision(df, mean=[100.0, 1.5], scale=[50.0, 0.5])
    assert out["a"].tolist() == [0.0, 12.34] and out["b"].tolist() == [2.0, 1.0]
    # every column at once, as np.round rounds each (to its own decimals, negative ones
    # too), gaps kept and no "-0.0"
    rng = np.random.default_rng(0)
    mags = np.array([1e-9, 3e-3, 5.0, 1234.5, 1e7, 1e12])
    wide = pd.DataFrame(rng.normal(size=(200, 6)) * mags, index=np.arange(200) + 7)
    wide.iloc[3, 2] = np.nan
    got = snap_precision(wide, mean=np.zeros(6), scale=mags)
    dec = 6 - np.ceil(np.log10(mags)).astype(int)
    want = np.column_stack([np.round(wide[j].to_numpy(), int(dec[j])) + 0.0 for j in range(6)])
    assert got.index.equals(wide.index) and list(got.columns) == list(wide.columns)
    np.testing.assert_array_equal(got.to_numpy(), want)
    assert not np.signbit(got.to_numpy()[got.to_numpy() == 0]).any()


def test_numeric_patients_without_an_encoder_reads_gaps_and_names_text_columns():
    df = pd.DataFrame({"Patient ID": ["N1"], "Age": [""], "BMI": ["27,5"], "HDL": ["1.2"],
                       "Note": ["x"]})
    X, ids, msgs = numeric_patients(df, ["age", "BMI", "HDL", "LDL"])
    assert list(X.columns) == ["age", "BMI", "HDL", "LDL"]
    assert np.isnan(X.loc[0, "age"]) and X.loc[0, "BMI"] == 27.5 and np.isnan(X.loc[0, "LDL"])
    assert ids.tolist() == ["N1"]
    text = " ".join(msgs)
    assert "'LDL'" in text and "'Note'" in text and "decimal comma" in text
    bad = df.assign(HDL=["high"])
    with pytest.raises(DataError, match=r"Column 'HDL' holds text \('high', CSV line 2\)"):
        numeric_patients(bad, ["Age", "BMI", "HDL"])
    with pytest.raises(DataError, match="None of the model's biomarkers"):
        numeric_patients(df, ["x1", "x2"])


def test_lookalike_headers_help_and_safe_text():
    table = pd.DataFrame({"rank": [1], "training_index": [4], "ID": ["P"], "distance": [0.1],
                          "similarity": [0.9], "sparse_weight": [1.0], "outcome": ["low"]})
    assert list(lookalike_display(table).columns) == [
        "Rank", "Patient ID", "Distance", "Similarity", "Sparse weight", "Outcome"]
    # look-alikes matched exactly on some biomarkers: the file says on what
    shown = lookalike_display(table, ["Sex: Female", "Age (years): 45 to 55"])
    assert shown["Matched on"].tolist() == ["Sex: Female; Age (years): 45 to 55"]
    assert lookalike_display(table, "nobody matched")["Matched on"].tolist() == ["nobody matched"]
    assert "sum to 1" in SPARSE_WEIGHT_HELP and "not needed" in SPARSE_WEIGHT_HELP
    # the random forest is named only for a model whose metric has a forest part
    # (walk-through 43 read of one on an unsupervised model)
    from types import SimpleNamespace

    from sparge.services.display import sparse_weight_help
    assert sparse_weight_help(SimpleNamespace(forest_scale_=2.0)) == SPARSE_WEIGHT_HELP
    plain = sparse_weight_help(SimpleNamespace(forest_scale_=0.0))
    assert "forest" not in plain and plain.endswith("even when this one is the closest")
    assert sparse_weight_help(object()) == plain
    assert plot_text("<img src=x>") == "&lt;img src=x&gt;"
    assert safe_filename("![x](http://h/leak)") == "x_http_h_leak"
    assert safe_filename("../..") == "patient"


def test_0_1_flags_get_counts_and_same_or_different_not_sd():
    from sparge.services.display import flag_columns

    names = ["Age", "trauma", "count"]
    train = pd.DataFrame({"Age": [50.0, 60, 70, np.nan], "trauma": [0.0, 1, 0, np.nan],
                          "count": [0.0, 1, 2, 1]})
    flags = flag_columns(train)
    assert flags == {"trauma"}  # 0/1 only (gaps allowed); a count with a 2 is a number
    mean, scale = train.mean().to_numpy(), train.std().to_numpy()
    q = np.array([55.0, 1.0, 1.0])
    comp = lookalike_comparison(q, train, names, names, mean, scale, None, flags)
    row = comp.set_index("Biomarker").loc["trauma"]
    assert row["Look-alikes"] == "0: 2, 1: 1 · 3 of 4 measured" and row["Patient (SD)"] == "—"
    assert comp.set_index("Biomarker").loc["count", "Patient (SD)"].endswith(" SD")
    pair = pair_comparison(q, np.array([50.0, 0.0, 2.0]), names, names, mean, scale, None,
                           flags).set_index("Biomarker")
    assert pair.loc["trauma", "Difference"] == "different"
    assert pair.loc["trauma", "Verdict"] == "differ"
    assert pair.loc["count", "Difference"] == "-1 (-1.2 SD)"


def test_verdict_follows_the_difference_as_shown():
    from sparge.services.display import agreement

    assert agreement(0.44) == "agree" and agreement(-0.46) == "borderline"  # shown: 0.5
    assert agreement(0.96) == "differ" and agreement(np.nan) == "missing"


def test_outcomes_on_a_scale_are_shown_in_its_order():
    from types import SimpleNamespace

    from sparge.services.display import outcome_order

    assert outcome_order(SimpleNamespace(classes_=["high", "low", "medium"])) == [
        "low", "medium", "high"]
    assert outcome_order(SimpleNamespace(classes_=["Dead", "Alive"])) == ["Dead", "Alive"]
    assert outcome_order(SimpleNamespace(classes_=None, y_=["b", "a", "b"])) == ["a", "b"]
    assert outcome_order(SimpleNamespace(classes_=None, y_=None)) is None


def test_a_model_download_is_named_after_its_table():
    """"…export.csv_617_pati.sparge" was a model name cut at 40 characters."""
    from sparge.services.display import model_filename

    assert model_filename("trained on nicu_vlbw_export.csv (617 patients)") == \
        "sparge_nicu_vlbw_export.sparge"
    assert model_filename("loaded from model_800.sparge") == "sparge_model_800.sparge"
    assert model_filename("trained on ../../etc/passwd (3 patients)") == \
        "sparge_etc_passwd.sparge"
    assert model_filename("") == "sparge_model.sparge"


def test_the_outcome_is_named_as_the_table_names_it():
    from types import SimpleNamespace

    from sparge.services.display import outcome_name

    assert outcome_name(SimpleNamespace(label_column="Died before discharge")) == \
        "Died before discharge"
    assert outcome_name(SimpleNamespace(label_column=None)) == "Outcome"
    assert outcome_name(None) == "Outcome"


def test_a_new_patients_file_names_its_patients_by_an_id_column():
    """Walk-through 25: a model trained without an ID column listed its file's NEW-001 …
    as "line 2" …; a comments column is not an ID, a model's feature never."""
    from sparge.services.display import csv_patient_labels, file_id_column, file_patient_ids

    q = pd.DataFrame({"Comments": ["a", "b"], "Patient ID": ["NEW-1", "NEW-2"],
                      "Age": [3, 4]})
    named = file_id_column(q, None, ["Age"])
    assert named == "Patient ID" and file_patient_ids(q, named) == ["NEW-1", "NEW-2"]
    assert csv_patient_labels(q, named) == ["line 2 · NEW-1", "line 3 · NEW-2"]
    assert file_id_column(q, "patient id", ["Age"]) == "Patient ID"  # the model's own
    assert file_id_column(q.drop(columns="Patient ID"), None, ["Age"]) is None
    assert file_id_column(q, None, ["Patient ID"]) is None  # a feature is not a name
    assert file_patient_ids(q.iloc[:1], None) == ["new patient"]
    assert file_patient_ids(q, None) == ["CSV line 2", "CSV line 3"]


def test_the_map_hover_shows_a_limit_as_written():
    """Walk-through 27: an age written ">89" read 89 on the map's hover."""
    from sparge.services.display import hover_as_written

    shown = pd.DataFrame({"Age": ["89", "54", "—"], "Sex": ["F", "M", "F"]})
    cells = pd.DataFrame({"Age": [">89", "54", ""], "Sex": ["F", "M", "<F"],
                          "Other": ["<1", "", ""]})
    out = hover_as_written(shown, cells)
    assert list(out["Age"]) == [">89", "54", "—"] and list(out["Sex"]) == ["F", "M", "F"]
    assert hover_as_written(shown, None) is shown
    assert hover_as_written(shown, cells.iloc[:2]) is shown  # other rows: as they are


def test_the_lookalikes_values_written_as_a_limit_are_counted():
    """Walk-through 30: 8 of 10 look-alikes had an eGFR written ">90" and read a plain
    90 in the comparison."""
    from sparge.services.display import lookalike_comparison

    names = ["eGFR", "Age"]
    nb = pd.DataFrame({"eGFR": [90.0] * 8 + [60.0, 75.0], "Age": np.arange(50.0, 60.0)})
    cells = pd.DataFrame({"eGFR": [">90"] * 8 + ["60", "75"], "Age": nb["Age"].astype(str)})
    comp = lookalike_comparison([90.0, 55.0], nb, names, names, [70.0, 55.0], [15.0, 5.0],
                                lookalikes_written=cells)
    assert comp.loc[0, "Look-alikes"].endswith(" · 8 of 10 written '>90'")
    assert "written" not in comp.loc[1, "Look-alikes"]
    plain = lookalike_comparison([90.0, 55.0], nb, names, names, [70.0, 55.0], [15.0, 5.0])
    assert "written" not in plain.loc[0, "Look-alikes"]


def test_the_lookalike_file_carries_the_patient_and_the_lookalikes_values(encoder):
    """Walk-throughs 45 and 47: the downloaded look-alikes had IDs and similarities but
    no values to compare; the patient's come first, then each look-alike's, answers as
    words, numbers as numbers, a limit as written."""
    codes = encoder.table_.levels("Diabetes")
    table = pd.DataFrame({"rank": [1, 2], "training_index": [4, 1], "ID": ["P4", "P1"],
                          "distance": [0.1, 0.2], "similarity": [0.9, 0.8],
                          "sparse_weight": [0.7, 0.3], "outcome": ["a", "b"]})
    values = pd.DataFrame({"Age": [45.0, 52.0], "Diabetes": [codes["No"], codes["Yes"]],
                           "Distance": [3.0, 4.0]})
    cells = pd.DataFrame({"Age": [">44", "52"], "Diabetes": ["No", "Yes"],
                          "Distance": ["3", "4"]})
    out = lookalike_display(table, "Sex: Female", values=values,
                            patient=[61.0, codes["Yes"], np.nan], name="NEW1",
                            encoder=encoder, cells=cells, written={"Age": ">60"})
    assert list(out.columns) == ["Rank", "Patient ID", "Distance", "Similarity",
                                 "Sparse weight", "Outcome", "Age", "Diabetes",
                                 "Distance (value)", "Matched on"]
    assert out["Patient ID"].tolist() == ["NEW1 (the patient)", "P4", "P1"]
    assert out["Rank"].tolist()[1:] == [1, 2] and pd.isna(out["Rank"].iloc[0])
    # one look-alike's limit keeps the others' numbers (walk-through 49: they went blank)
    assert out["Age"].tolist() == [">60", ">44", 52.0]
    assert out["Diabetes"].tolist() == ["Yes", "No", "Yes"]
    assert out["Distance (value)"].tolist()[1:] == [3.0, 4.0]
    assert out["Matched on"].tolist() == ["Sex: Female"] * 3
    # a gap in an answer column is an empty cell in the file, not a dash
    text = to_csv(lookalike_display(table, values=values.assign(Diabetes=[np.nan, 1.0]),
                                    encoder=encoder), float_format="%.10g")
    assert text.splitlines()[1].endswith(",45,,3")
    # the patient's converted value without its float noise, ranks as whole numbers
    noisy = lookalike_display(table, values=values, patient=[65.01967643200699, 1.0, 2.0],
                              name="N", encoder=encoder)
    assert noisy["Age"].iloc[0] == 65.0197 and str(noisy["Rank"].dtype) == "Int64"
    assert pd.isna(noisy["Outcome"].iloc[0])  # a new patient's is not known
    # ... and a value converted from another unit as its column writes its values
    # (walk-through 54's 71.6676 kg, from 158 lb); one decimal more than the rest stays
    weights = values.assign(Age=[71.6676, 72.45])
    shown = lookalike_display(table, values=weights, patient=[65.01967643200699, 1.0, 2.0],
                              name="N", encoder=encoder,
                              decimals=column_decimals(pd.DataFrame(
                                  {"Age": [70.1, 64.0, 80.5, 55.2] * 5 + [71.6676]})))
    assert shown["Age"].tolist() == [65.0, 71.7, 72.45]
    known = lookalike_display(table, values=values, patient=[61.0, 1.0, 2.0], name="P9",
                              encoder=encoder, outcome="low")
    assert known["Outcome"].tolist() == ["low", "a", "b"]


def test_a_form_answer_is_labelled_with_the_spellings_merged_into_it():
    """Walk-through 63 typed "Aricept" in the New patient form's list and found nothing:
    it offered "Donepezil" only."""
    from sparge.data.answer_merging import merge_answers
    from sparge.services.display import answer_labels, answers_by_code

    rng = np.random.default_rng(0)
    drugs = ["Donepezil", "Aricept", "donepezil 10mg od", "DONEPEZIL", "Memantine",
             "Ebixa", "None", "Rivastigmine", "Exelon patch", "Exelon patch 9.5",
             "Exelon", "rivastigmine 9.5mg/24h"]  # one dose: two are two answers
    df = pd.DataFrame({"id": [f"P{i}" for i in range(120)], "age": rng.normal(75, 6, 120),
                       "Drug": rng.choice(drugs, 120)})
    enc = Encoder(id_column="id").fit(df)
    pairs = enc.report_.answers_two_ways["Drug"]
    merged = Encoder(id_column="id",
                     encoding_table=merge_answers(enc.table_, {"Drug": pairs})).fit(df)
    labels = answer_labels(merged, "Drug")
    assert list(labels) == list(answers_by_code(merged, "Drug").values())
    donepezil = next(v for k, v in labels.items() if k.lower() == "donepezil")
    assert "Aricept" in donepezil and "donepezil 10mg od" in donepezil
    assert "DONEPEZIL" not in donepezil  # the same word in capitals is not named again
    riva = next(v for k, v in labels.items() if k.lower().startswith("rivastigmine"))
    assert "rivastigmine 9.5mg/24h" in riva  # all named, so any is found by typing
    riva = next(v for k, v in answer_labels(merged, "Drug", most=3).items()
                if k.lower().startswith("rivastigmine"))
    assert riva.count(",") == 3 and riva.endswith("+ 1 more)")  # at most three named
    assert labels["None"] == "None"


def test_a_test_the_patient_could_not_do_is_shown_as_written():
    """Walk-through 71: a 6-minute walk written "unable" reads as the column's worst
    result (111 m) and showed as a plain "111" on Explore and New patient, as if the
    patient had walked 111 m. It is shown as written beside the value it reads as."""
    from sparge.data.encoder import Encoder
    from sparge.data.parsing import limit_text
    from sparge.services.display import limits_as_written, lookalike_comparison

    assert [limit_text(c) for c in ("unable", "Unable  - pain", "non-ambulant", "111")] == \
        ["unable", "Unable - pain", "non-ambulant", None]
    walks = [str(v) for v in range(111, 111 + 30 * 13, 13)]
    df = pd.DataFrame({"6MWT (m)": walks[:28] + ["unable", "unable - pain"],
                       "Age": [str(50 + i) for i in range(30)]})
    enc = Encoder(max_patient_missing=None).fit(df)
    X = enc.transform(df)
    names = enc.feature_names_out_
    j = names.index("6MWT (m)")
    assert X[28, j] == X[29, j] == 111.0  # the worst result written
    written = limits_as_written(df.iloc[28], names)
    assert written == {"6MWT (m)": "unable"}
    nb = pd.DataFrame(X[[0, 1, 29]], columns=names)
    comp = lookalike_comparison(X[28], nb, ["6MWT (m)"], names, X.mean(0), X.std(0), enc,
                                written=written, lookalikes_written=df.iloc[[0, 1, 29]]
                                ).set_index("Biomarker")
    assert comp.iloc[0]["This patient"] == "unable (read as 111)"
    assert comp.iloc[0]["Look-alikes"].endswith(" · 1 of 3 written 'unable - pain'")


def test_a_lookalikes_context_is_its_age_sex_and_diagnosis():
    from sparge.services.display import context_features

    assert context_features(["TSH", "Gender", "Age (years)", "Primary diagnosis"]) == \
        ["Age (years)", "Gender", "Primary diagnosis"]
    # an age at an event of the past, a diagnosis' date or a sex hormone is no context
    assert context_features(["Age at onset", "Diagnosis date", "Sex hormone binding"]) == []
