"""A frailty and falls clinic's export (walk-through 47): the Clinical Frailty Scale in
words and Roman numerals, gait speeds in cm/s among m/s, "12 meds", "ACB 2", and where a
patient lives, the dementia's type, continence and the walking aid written several ways."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.levels import abbreviated_levels
from sparge.services.workflow import encode_cohort

WORDS = {3: "managing well", 4: "vulnerable", 5: "mildly frail", 6: "moderately frail",
         7: "severely frail", 8: "very severely frail", 9: "terminally ill"}
ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]


def test_the_clinical_frailty_scale_in_words_and_numerals_is_read_as_its_level():
    """Walk-through 47: "moderately frail", "6 - moderately frail" and "vi" beside 6 made
    the frailty clinic's core measure more than 30 text answers, left out as free text."""
    rng = np.random.default_rng(0)
    n = 200
    cfs = rng.integers(1, 10, n)
    cells = [str(c) if i % 5 == 0 else f"CFS {c}" if i % 5 == 1 else
             f"{c} - {WORDS.get(c, 'fit')}" if i % 5 == 2 else ROMAN[c - 1] if i % 5 == 3
             else WORDS.get(c, str(c)) for i, c in enumerate(cfs)]
    meds = rng.integers(1, 15, n)
    acb = rng.integers(0, 6, n)
    df = pd.DataFrame({"ID": range(n), "Clinical Frailty Scale": cells,
                       "Number of medications": [f"{m} meds" if i % 2 else str(m)
                                                 for i, m in enumerate(meds)],
                       "Anticholinergic burden": [f"ACB {a}" if i % 2 else str(a)
                                                  for i, a in enumerate(acb)],
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.roles_["Clinical Frailty Scale"] == "numeric"
    X = enc.transform(df)
    np.testing.assert_array_equal(X[:, 0], cfs)
    np.testing.assert_array_equal(X[:, 1], meds)
    np.testing.assert_array_equal(X[:, 2], acb)
    # "meds" counts, it is no unit the column is named with
    assert "Number of medications" not in getattr(enc, "units_", {})
    # a number with words after a dash is read only in a scale's column
    other = pd.DataFrame({"ID": range(n), "Team": [f"{i % 3} - east" for i in range(n)],
                          "y": df["y"]})
    assert Encoder(id_column="ID", label_column="y").fit(other).roles_["Team"] == "categorical"


def test_a_barthel_index_out_of_20_or_of_100_is_read_out_of_100():
    """Walk-through 47: "13/20" and "70/100" in one column (two maxima) were both set to
    missing; the 10-item form's 13 of 20 is 65 of 100."""
    rng = np.random.default_rng(2)
    n = 200
    barthel = rng.integers(0, 21, n) * 5
    cells = [f"{v // 5}/20" if i % 3 == 0 else f"{v}/100" if i % 3 == 1 else
             f"Barthel {v}" if i % 2 else str(v) for i, v in enumerate(barthel)]
    df = pd.DataFrame({"ID": range(n), "Barthel index": cells, "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.roles_["Barthel index"] == "numeric"
    np.testing.assert_array_equal(enc.transform(df)[:, 0], barthel)
    new = pd.DataFrame({"ID": [1, 2], "Barthel index": ["13/20", "21/20"]})
    got = enc.transform(new)[:, 0]
    assert got[0] == 65 and np.isnan(got[1])  # above its maximum: no score


def test_gait_speeds_in_cm_per_second_are_listed_and_converted():
    """Walk-through 47: "75 cm/s" among m/s was set to missing ("no exact conversion"),
    and bare 109 or 68 were set to missing by the one-click fix. The bare ones lie among
    the column's cells in cm/s: they are read in cm/s (walk-through 94's aneurysm
    diameters), not left as far values for the click."""
    rng = np.random.default_rng(1)
    n = 200
    speed = rng.uniform(0.3, 1.4, n)
    cells = [f"{100 * v:.0f} cm/s" if i % 10 == 0 else f"{100 * v:.0f}" if i % 10 == 1
             else f"{v:.2f}" for i, v in enumerate(speed)]
    df = pd.DataFrame({"ID": range(n), "Gait speed (m/s)": cells,
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.report_.values_to_check == []
    assert "20 cell(s) written as plain numbers the size of its cells in 'cm/s'" in \
        " ".join(enc.report_.notes)
    for clear in (False, True):
        cohort = encode_cohort(df, id_column="ID", label_column="y", clear_far=clear)
        np.testing.assert_allclose(cohort.X[:, 0], speed, atol=0.006)


def test_a_frailty_clinics_answers_written_several_ways_are_offered_as_one():
    """Walk-through 47: only Sex was offered; NH / Nursing Home, AD / Alzheimer's, UI /
    Urinary incontinence and ZF / Zimmer frame stayed apart, and a patient's look-alikes
    read "Continent: 3, Incontinent of urine: 3, UI: 2"."""
    assert abbreviated_levels(["NH", "Nursing Home", "RH", "Residential home", "care home",
                               "alone", "Lives alone"], "Living situation") == [
        ("alone", "Lives alone"), ("NH", "Nursing Home"), ("RH", "Residential home"),
        ("care home", "Residential home")]
    assert abbreviated_levels(["AD", "Alzheimer's", "Alzheimers", "VaD", "Vascular dementia",
                               "Vascular", "None", "No"], "Dementia diagnosis") == [
        ("AD", "Alzheimer's"), ("Alzheimers", "Alzheimer's"), ("VaD", "Vascular"),
        ("Vascular dementia", "Vascular"), ("None", "No")]
    assert abbreviated_levels(["Continent", "UI", "Urinary incontinence",
                               "Incontinent of urine"], "Continence") == [
        ("UI", "Urinary incontinence"), ("Incontinent of urine", "Urinary incontinence")]
    assert abbreviated_levels(["ZF", "Zimmer frame", "Frame", "Walking stick", "Stick",
                               "4WW", "Rollator", "Nil", "None"], "Mobility aid") == [
        ("Nil", "None"), ("Walking stick", "Stick"), ("ZF", "Frame"),
        ("Zimmer frame", "Frame"), ("4WW", "Rollator")]


def test_the_report_says_when_the_patients_left_out_differ_in_a_measure():
    """Walk-through 47: those "unable" to walk have no gait speed or timed up-and-go, so
    the default threshold left out most of the frailest; the report said how many, not
    that they were the frailest."""
    rng = np.random.default_rng(0)
    n = 300
    cfs = rng.integers(1, 10, n)
    unable = cfs >= 8
    df = pd.DataFrame({"ID": range(n), "CFS": cfs,
                       "Gait speed (m/s)": np.where(unable, np.nan, rng.uniform(0.3, 1.2, n)),
                       "TUG (s)": np.where(unable, np.nan, rng.uniform(8, 30, n)),
                       "Age": rng.integers(70, 95, n), "Hb": rng.normal(120, 15, n),
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y", max_patient_missing=0.1).fit(df)
    said = " ".join(enc.report_.warnings)
    assert f"{unable.sum()} of 300 patients miss more than 10%" in said
    assert "They differ most in 'CFS': median 9 against 4 of the patients kept" in said
    # left out at random, nothing is said
    gaps = rng.random(n) < 0.25
    rand = df.assign(**{"Gait speed (m/s)": np.where(gaps, np.nan, rng.uniform(0.3, 1.2, n)),
                        "TUG (s)": np.where(gaps, np.nan, rng.uniform(8, 30, n))})
    said = " ".join(Encoder(id_column="ID", label_column="y",
                            max_patient_missing=0.1).fit(rand).report_.warnings)
    assert "patients miss more than 10%" in said and "They differ most" not in said


def test_unable_in_a_performance_test_is_its_worst_result_not_a_gap():
    """Walk-through 47: "unable" in the timed up-and-go and gait speed was a gap, so the
    missing-values threshold left out most of the frailest and the completion gave the
    rest a typical time. It is the worst result: the slowest time, the slowest speed."""
    rng = np.random.default_rng(0)
    n = 300
    cfs = rng.integers(1, 10, n)
    unable = cfs >= 8
    tug = np.round(rng.uniform(8, 30, n), 1)
    tug[5] = 300.0  # a typo (or minutes) is no worst result
    unable[5] = False
    speed = np.round(rng.uniform(0.3, 1.2, n), 2)
    df = pd.DataFrame({
        "ID": range(n), "CFS": cfs,
        "Gait speed (m/s)": np.where(unable, "unable", speed.astype(str)),
        "TUG (s)": [("Unable to complete" if i % 2 else "unable - pain") if u else str(t)
                    for i, (u, t) in enumerate(zip(unable, tug))],
        "Peak flow": np.where(unable & (np.arange(n) % 9 == 0), "unable",
                              rng.integers(200, 600, n).astype(str)),
        "Age": rng.integers(70, 95, n), "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y", max_patient_missing=0.1).fit(df)
    assert enc.roles_["TUG (s)"] == enc.roles_["Gait speed (m/s)"] == "numeric"
    slowest = tug[~unable & (np.arange(n) != 5)].max()
    assert enc.unable_values_ == {"Gait speed (m/s)": speed[~unable].min(),
                                  "TUG (s)": slowest}
    X = enc.transform(df)
    names = enc.feature_names_out_
    np.testing.assert_array_equal(X[unable, names.index("TUG (s)")], slowest)
    np.testing.assert_array_equal(X[unable, names.index("Gait speed (m/s)")],
                                  speed[~unable].min())
    # a peak flow the patient could not blow is no test of walking: a gap, as before
    blown = unable & (np.arange(n) % 9 == 0)
    assert blown.sum() > 3 and np.isnan(X[blown, names.index("Peak flow")]).all()
    notes = " ".join(enc.report_.notes)
    assert (f"Column 'TUG (s)': {unable.sum()} cell(s) written as unable to do the test "
            "(e.g. 'unable - pain', CSV line 2)") in notes
    assert f"read as the worst result the column writes, {slowest:g} s (not being" in notes
    # the frailest are kept
    assert "They differ most" not in " ".join(enc.report_.warnings)
    # a new patient's "could not stand" reads as the training column's worst, saved too
    new = df.head(2).assign(**{"TUG (s)": ["could not stand", "12"],
                               "Gait speed (m/s)": ["non-ambulant", "0.8"]})
    for model in (enc, Encoder.from_dict(enc.to_dict())):
        got = model.transform(new)
        assert got[0, names.index("TUG (s)")] == slowest
        assert got[0, names.index("Gait speed (m/s)")] == speed[~unable].min()
        assert got[1, names.index("TUG (s)")] == 12
    # a model saved before: "unable" stays a gap for a new patient
    old = enc.to_dict()
    del old["unable_values"]
    assert np.isnan(Encoder.from_dict(old).transform(new)[0, names.index("TUG (s)")])


def test_a_count_written_as_its_least_value_is_read_as_a_limit():
    """Walk-through 47: "10+" medications and "3+" falls were set to missing; they say at
    least 10 and at least 3, read as limits are ("<5": 5). A urine dipstick's "2+" among
    "neg" and "trace" stays a grade."""
    rng = np.random.default_rng(3)
    n = 200
    meds = rng.integers(0, 15, n)
    falls = rng.poisson(1.2, n)
    df = pd.DataFrame({
        "ID": range(n),
        "Number of medications": [f"{m}+" if m >= 10 and i % 3 == 0 else str(m)
                                  for i, m in enumerate(meds)],
        "Falls in last year": [("4+" if i % 2 else "4 +") if f >= 4 else str(f)
                               for i, f in enumerate(falls)],
        "Urine protein": rng.choice(["neg", "trace", "1+", "2+", "3+"], n),
        "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    assert enc.roles_["Urine protein"] == "categorical"
    X = enc.transform(df)
    names = enc.feature_names_out_
    np.testing.assert_array_equal(X[:, names.index("Number of medications")], meds)
    np.testing.assert_array_equal(X[:, names.index("Falls in last year")], falls.clip(max=4))
    notes = " ".join(enc.report_.notes)
    assert "Column 'Falls in last year': 1 value written as a limit ('4 +'; CSV line 10) read " \
        "as the limit itself: the true value lies above it." in notes
