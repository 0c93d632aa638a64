"""A growth measurement judged against the cohort's patients of the same age
(:mod:`sparge.data.for_age`): walk-through 50's 5-year-old weighed 221 kg (22.1, a lost
decimal point), among children's weights of 3 to 80 kg that no whole-column rule could
question."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.far_values import far_mask
from sparge.data.for_age import age_column, age_trend, far_for_age, is_growth
from sparge.services.workflow import patients_to_check, questioned_values


def _children(n: int = 600, seed: int = 1, months: bool = False) -> pd.DataFrame:
    """Children of 0.1 to 16 years with weights that grow with age (a 15 % spread) and a
    heart rate."""
    rng = np.random.default_rng(seed)
    age = rng.uniform(0.1, 16, n)
    weight = (3.5 + 4.5 * age ** 0.9) * np.exp(rng.normal(0, 0.15, n))
    return pd.DataFrame({
        "Age (months)" if months else "Age (years)": (age * 12 if months else age).round(1),
        "Weight (kg)": weight.round(1),
        "HR": rng.normal(110, 15, n).round(),
        "Admitted": rng.choice(["Yes", "No"], n)})


def test_a_childs_weight_with_a_lost_decimal_point_is_far_for_its_age_only():
    """221 kg at 5 years, 2.9 kg at 9 years and 75 kg at 6 months are far from the
    children of their age; the whole-column rule questions none of them."""
    df = _children()
    planted = {10: (5.0, 221.0), 11: (9.0, 2.9), 12: (0.5, 75.0)}
    for row, (age, weight) in planted.items():
        df.loc[row, ["Age (years)", "Weight (kg)"]] = [age, weight]
    weights = df["Weight (kg)"].to_numpy(float)
    ages = df["Age (years)"].to_numpy(float)
    assert not far_mask(weights[:, None])[list(planted), 0].any()
    assert np.flatnonzero(far_for_age(weights, ages)).tolist() == sorted(planted)


def test_the_heaviest_children_of_their_age_and_adults_weights_are_not_questioned():
    """A child twice the weight of its age's median is rare, not a typo; in an adult
    cohort weight hardly changes with age and is not judged by it at all."""
    df = _children()
    df.loc[20, ["Age (years)", "Weight (kg)"]] = [5.0, 44.0]
    df.loc[21, ["Age (years)", "Weight (kg)"]] = [12.0, 95.0]
    assert not far_for_age(df["Weight (kg)"], df["Age (years)"]).any()
    rng = np.random.default_rng(2)
    ages = rng.uniform(20, 90, 500)
    weights = rng.normal(78, 15, 500).clip(40)
    weights[3] = 221.0  # possible for an adult: the far-values rule alone judges it
    assert age_trend(weights, ages) is None
    assert not far_for_age(weights, ages).any()


def test_ages_in_months_and_too_few_patients():
    """The bins are quantiles of the ages: any unit of age works. With fewer than 100
    patients with both values nothing is judged by age."""
    df = _children(months=True)
    df.loc[10, ["Age (months)", "Weight (kg)"]] = [60.0, 221.0]
    assert np.flatnonzero(far_for_age(df["Weight (kg)"], df["Age (months)"])).tolist() == [10]
    small = df.iloc[:90]
    assert not far_for_age(small["Weight (kg)"], small["Age (months)"]).any()


@pytest.mark.parametrize("name, growth", [
    ("Weight (kg)", True), ("wt_kg", True), ("Height cm", True), ("Head circumference", True),
    ("OFC", True), ("Birth weight", False), ("Weight loss %", False), ("BMI", False),
    ("Weight centile", False), ("Dose per kg", False), ("Length of stay", False),
    ("Tumour length", False)])
def test_growth_columns_by_name(name, growth):
    assert is_growth(name) is growth


def test_the_age_column_is_the_patients_own():
    assert age_column(["Gestational age", "Maternal age", "Age"]) == "Age"
    assert age_column(["GA (weeks)", "Age group"]) is None
    values = {"Age": np.array([1.0, np.nan, np.nan]), "Age at visit": np.array([1.0, 2, 3])}
    assert age_column(list(values), values) == "Age at visit"


def test_the_report_lists_them_with_their_ages_and_the_click_sets_them_to_missing():
    df = _children()
    df.loc[10, ["Age (years)", "Weight (kg)"]] = [5.0, 221.0]
    df.loc[11, ["Age (years)", "Weight (kg)"]] = [9.0, 2.9]
    enc = Encoder(label_column="Admitted")
    enc.fit_transform(df)
    said = next(w for w in enc.report_.warnings if "'Weight (kg)'" in w)
    assert "from those of the patients of the same age" in said
    assert "221 (CSV line 12, age 5: most patients of that age" in said
    assert "2.9 (CSV line 13, age 9" in said
    # never converted: a lost decimal point is no unit
    assert [c[:2] + c[3:] for c in enc.report_.values_to_check] == [
        ["Weight (kg)", 10, None, None], ["Weight (kg)", 11, None, None]]
    cleared = Encoder(label_column="Admitted", clear_far=True)
    X = cleared.fit_transform(df)
    j = cleared.feature_names_out_.index("Weight (kg)")
    assert np.isnan(np.asarray(X, float)[[10, 11], j]).all()
    assert np.isfinite(np.asarray(X, float)[12:, j]).all()


def test_a_new_childs_weight_is_questioned_with_its_ages_training_patients():
    """The New patient page names the training patients of the child's age, and guesses
    no unit that gives a weight no child of that age has (160 lb is 72.6 kg)."""
    ref = _children().drop(columns="Admitted")
    q = questioned_values([5.0, 160.0, 100.0], ref)
    assert list(q) == [1] and q[1].far and q[1].source_unit is None
    assert "those of age 5: mostly 16.9 to 29.1" in q[1].words
    assert questioned_values([5.0, 22.0, 100.0], ref) == {}
    # a heavy child is rare, not a typo: 2.3 times the median of its age
    assert questioned_values([5.0, 50.0, 100.0], ref) == {}
    X = pd.DataFrame([[5.0, 221.0, 100.0], [9.0, 2.9, 100.0], [12.0, 40.0, 90.0]],
                     columns=ref.columns)
    said = patients_to_check(X, ["a", "b", "c"], ref)
    assert [s.split(":")[0] for s in said] == ["a", "b"]
    assert "those of age 9: mostly" in said[1]
