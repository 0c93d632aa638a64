"""Values far from the rest of their column: a typo or another unit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.far_values import far_mask, log_bounds
from sparge.services.workflow import encode_cohort, training_ranges


def _column(rng, n=400, centre=138.0, sd=3.0):
    return rng.normal(centre, sd, n).round(0)


def test_an_isolated_slip_is_far_a_tail_that_runs_on_is_not():
    rng = np.random.default_rng(0)
    chloride = _column(rng)
    chloride[[5, 9]] = [1380.0, 1390.0]  # a lost decimal point, twice: both cut off
    sbp = _column(rng, centre=125.0, sd=18.0)
    sbp[7] = 12.0  # a lost digit, below
    # renal failure: creatinines of 1 with a tail that runs on to 11 (no jump of x3)
    creat = np.exp(rng.normal(0.0, 0.3, 400))
    creat[:12] = np.linspace(3.0, 11.0, 12)
    # a count, mostly zeros, and a short column: never judged
    admissions = np.r_[np.zeros(300), rng.integers(1, 30, 100)].astype(float)
    short = np.r_[np.full(15, 5.0), [500.0]]
    X = np.column_stack([chloride, sbp, creat, admissions, np.r_[short, np.full(384, np.nan)]])
    X[3, 0] = np.nan  # gaps are never far
    far = far_mask(X)
    assert set(zip(*np.nonzero(far), strict=True)) == {(5, 0), (9, 0), (7, 1)}
    lo, hi = log_bounds(X)
    assert np.isinf(lo[3]) and np.isinf(hi[4])  # not judged
    # new patients against the training patients: the training slip runs on to nothing
    new = np.array([[1290.0, 125.0, 12.0, 40.0, 5.0], [140.0, 60.0, 40.0, 0.0, 5.0]])
    assert far_mask(new, reference=X).tolist() == [[True, False, False, False, False],
                                                  [False, False, True, False, False]]


def test_the_report_lists_them_and_the_cohort_can_set_them_to_missing():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"id": [f"P{i}" for i in range(200)],
                       "Chloride": _column(rng, 200).astype(object),
                       "Age": rng.integers(40, 90, 200).astype(float),
                       "Outcome": ["a", "b"] * 100})
    df.loc[17, "Chloride"] = "1380"
    enc = Encoder(id_column="id", label_column="Outcome")
    X = enc.fit_transform(df)
    assert enc.report_.values_to_check == [["Chloride", 17, 1380.0, None, None]]
    note = next(w for w in enc.report_.warnings if "far from the rest" in w)
    assert "'Chloride' 1380 (CSV line 19); most patients" in note
    # the same range as the New patient form's empty field (walk-through 22 read two)
    from sparge.services.display import typical_range

    assert typical_range(X[:, 0]).replace("most ", "most patients ") in note
    assert X[17, 0] == 1380.0  # used as given by the encoder
    kept = encode_cohort(df, id_column="id", label_column="Outcome")
    cleared = encode_cohort(df, id_column="id", label_column="Outcome", clear_far=True)
    assert kept.X[17, 0] == 1380.0 and not kept.clear_far
    assert np.isnan(cleared.X[17, 0]) and cleared.clear_far
    # the library's report says what was done (walk-through 35 read "used as given")
    said = " ".join(cleared.encoder.report_.warnings)
    assert "set to missing for training" in said and "used as given" not in said
    assert "used as given" in " ".join(kept.encoder.report_.warnings)
    np.testing.assert_array_equal(np.delete(cleared.X, 17, axis=0),
                                  np.delete(kept.X, 17, axis=0))
    # the report counts the gaps the model trains on, and so keeps the patients (walk-
    # through 29's missing shares counted 111 cleared HbA1c as values)
    assert kept.encoder.report_.missing_pct["Chloride"] == 0
    assert cleared.encoder.report_.missing_pct["Chloride"] == pytest.approx(100 / 200)
    strict = encode_cohort(df, id_column="id", label_column="Outcome", clear_far=True,
                           max_patient_missing=0.4)  # 1 gap of 2 features: 50 %
    assert 17 not in strict.train_rows and len(strict.train_rows) == 199
    assert Encoder.from_dict(cleared.encoder.to_dict()).clear_far
    # the New patient page's ranges leave the slip out
    lo, hi, _ = training_ranges(pd.DataFrame(kept.X, columns=kept.features))
    assert hi[0] < 200 and lo[0] > 100
    assert hi[1] == pytest.approx(np.nanmax(kept.X[:, 1]))


def _one_lab(name, values, seed=0):
    rng = np.random.default_rng(seed)
    n = len(values)
    return pd.DataFrame({"ID": range(n), name: values, "Age": rng.integers(20, 90, n),
                         "Outcome": rng.choice(["Yes", "No"], n)})


def test_a_whole_column_in_the_other_unit_is_read_in_it_not_a_crash():
    """An export whose albumin column says g/L and holds g/dL throughout once stopped
    the encoder (no value was left in the named unit to say where patients lie)."""
    rng = np.random.default_rng(1)
    alb = rng.normal(4.2, 0.4, 200).round(1)
    df = _one_lab("Albumin (g/L)", alb)
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    j = enc.feature_names_out_.index("Albumin (g/L)")
    np.testing.assert_allclose(X[:, j], alb * 10)  # converted for training
    said = " ".join(enc.report_.warnings)
    assert "200 of its 200 values read as 'g/dL', not the 'g/L' its name says" in said
    assert "CSV line" not in said  # no value-by-value list for a whole column
    # the table itself is as written: a new patient in g/dL is read the same way
    assert len(enc.report_.values_to_check) == 200
    enc_off = Encoder(label_column="Outcome", convert_slips=False)
    np.testing.assert_allclose(enc_off.fit_transform(df)[:, j], alb)


def test_the_few_values_in_the_named_unit_are_not_far_when_most_are_not():
    rng = np.random.default_rng(2)
    hb = rng.normal(13.5, 1.4, 200).round(1)
    hb[:10] = rng.normal(135, 14, 10).round(0)  # these ten are the g/L the name says
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(_one_lab("Haemoglobin (g/L)", hb))
    listed = {row for _, row, *_ in enc.report_.values_to_check}
    assert listed == set(range(10, 200))
    j = enc.feature_names_out_.index("Haemoglobin (g/L)")
    assert 80 < X[:, j].min() and X[:, j].max() < 200
    said = " ".join(enc.report_.warnings)
    assert "190 of its 200 values read as 'g/dL'" in said and "most 1" in said


def test_a_value_far_from_a_converted_column_is_listed():
    rng = np.random.default_rng(3)
    creat = rng.normal(1.0, 0.15, 200).round(2)  # mg/dL under a µmol/L name
    creat[50] = 0.05  # far below the rest once they are in µmol/L
    enc = Encoder(label_column="Outcome")
    enc.fit_transform(_one_lab("Creatinine (umol/L)", creat))
    listed = {row: conv for _, row, _, _, conv in enc.report_.values_to_check}
    assert 50 in listed
    said = " ".join(enc.report_.warnings)
    assert said.index("values read as 'mg/dL'") < said.index("(CSV line 52)")


def test_each_part_of_the_warning_says_what_training_does_with_its_values():
    """Walk-through 79: the warning said the rule (converted where 3 fit a unit, impossible
    ones missing, others as given) and then listed a weight of 925, heights in m and an
    AHI of 1500 without saying which was which. Each column's part now ends with what
    training does with its values when they are not all treated alike."""
    from sparge.data.encoding_notes import far_treatments, treatment_words

    rng = np.random.default_rng(3)
    n = 300
    df = pd.DataFrame({"Weight (kg)": rng.normal(85, 12, n).round(1),
                       "Height (cm)": rng.normal(172, 8, n).round(0),
                       "Chloride (mmol/L)": rng.normal(138, 3, n).round(0),
                       "Outcome": np.where(np.arange(n) % 2, "yes", "no")})
    df.loc[5, "Weight (kg)"] = 925.0  # no patient weighs it: missing for training
    df.loc[[10, 11, 12, 13], "Height (cm)"] = [1.72, 1.81, 1.65, 1.77]  # in m: converted
    df.loc[20, "Chloride (mmol/L)"] = 1380.0  # a lost decimal point, possible: as given
    enc = Encoder(label_column="Outcome")
    enc.fit(df)
    rep = enc.report_
    warning = next(w for w in rep.warnings if "far from the rest" in w)
    parts = {p.lstrip("'").split("'")[0]: p
             for p in warning.split(": ", 1)[1].split("; '")}
    assert parts["Weight (kg)"].rstrip(".").endswith("— set to missing")
    assert parts["Height (cm)"].rstrip(".").endswith("— converted")
    assert "— used as given" in parts["Chloride (mmol/L)"]
    assert "\x00" not in warning  # no marker left behind
    treated = far_treatments(rep.values_to_check, rep.impossible, False, True)
    assert sorted(set(treated)) == ["converted", "set to missing", "used as given"]
    # the library's other settings: everything set to missing or converted, or as given
    assert "used as given" not in far_treatments(rep.values_to_check, rep.impossible,
                                                 True, True)
    assert set(far_treatments(rep.values_to_check, rep.impossible, False, False)) == {
        "used as given"}
    assert treatment_words(["set to missing", "used as given", "used as given"]) == \
        "1 set to missing, 2 used as given"
    # treated alike, the rule said once is enough: no words per part
    alike = Encoder(label_column="Outcome", convert_slips=False).fit(df).report_
    said = next(w for w in alike.warnings if "far from the rest" in w)
    assert " — used as given" not in said and "\x00" not in said


def test_a_value_written_as_a_limit_is_never_a_value_to_check():
    """Walk-through 80: twelve undetectable PSAs written "<0.1" among 1.4-16.4 ng/mL were
    listed as misplaced decimal points, and one click would have set them to missing. The
    same 0.1 typed without its '<' is still questioned, and so is a chloride of 1380."""
    rng = np.random.default_rng(80)
    psa = np.exp(rng.normal(1.6, 0.5, 300)).round(1).astype(str).astype(object)
    chloride = _column(rng, 300).astype(object)
    df = pd.DataFrame({"MRN": [f"UR{i:04d}" for i in range(300)], "PSA (ng/mL)": psa,
                       "Chloride (mmol/L)": chloride, "Outcome": ["Yes", "No", "No"] * 100})
    df.loc[[3, 40, 77], "PSA (ng/mL)"] = "<0.1"
    df.loc[150, "Chloride (mmol/L)"] = "1380"
    enc = Encoder(id_column="MRN", label_column="Outcome")
    X = enc.fit_transform(df)
    assert [(f, r) for f, r, *_ in enc.report_.values_to_check] == [("Chloride (mmol/L)", 150)]
    assert X[[3, 40, 77], 0].tolist() == [0.1] * 3  # read as the limit, and kept
    assert any("written as a limit" in n for n in enc.report_.notes)
    typed = df.copy()
    typed.loc[[3, 40, 77], "PSA (ng/mL)"] = "0.1"
    enc = Encoder(id_column="MRN", label_column="Outcome").fit(typed)
    assert {(f, r) for f, r, *_ in enc.report_.values_to_check} == {
        ("PSA (ng/mL)", 3), ("PSA (ng/mL)", 40), ("PSA (ng/mL)", 77), ("Chloride (mmol/L)", 150)}
    # cleared for training: the limits stay
    kept = encode_cohort(df, id_column="MRN", label_column="Outcome", clear_far=True)
    assert np.isnan(kept.X[:, 1]).sum() == 1 and not np.isnan(kept.X[:, 0]).any()
