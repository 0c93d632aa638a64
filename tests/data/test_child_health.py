"""A child-health clinic's export (walk-through 41): centiles written as ordinals, ages in
years and months, outcomes awaiting review."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder


def _ordinal(n: int) -> str:
    return f"{n}" + ("th" if n % 100 in (11, 12, 13) else
                     {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def test_centiles_written_as_ordinals_are_numbers_not_stones():
    """Walk-through 41: "41st" and "91st" BMI centiles were read as 41 and 91 stone (574
    and 1274 lb) and then set to missing; "16th centile", "72nd" and "3rd" were lost."""
    from sparge.data.compound_units import pounds_of_stones
    from sparge.data.parsing import ordinal_number, plain_number

    assert [ordinal_number(c) for c in ("41st", "72nd", "3rd", "16th centile", "99.6th",
                                        "1st percentile", "12st", "11st", "2th")] == \
        [41, 72, 3, 16, 99.6, 1, None, None, None]
    assert plain_number("91st") == 91 and plain_number("12st") is None
    # a weight column's "21st" is 21 stone; elsewhere an ordinal is no weight
    assert pounds_of_stones("21st", weight=True) == 294 and pounds_of_stones("21st") is None
    assert pounds_of_stones("12st 4lb") == 172
    rng = np.random.default_rng(0)
    v = rng.integers(1, 99, 300)
    cells = [_ordinal(x) if i % 3 == 0 else f"{_ordinal(x)} centile" if i % 3 == 1
             else str(x) for i, x in enumerate(v)]
    stones = rng.integers(8, 20, 300)
    df = pd.DataFrame({"BMI centile": cells,
                       "Weight": [f"{s}st" for s in stones],
                       "Outcome": rng.choice(["Yes", "No"], 300)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    np.testing.assert_array_equal(X[:, 0], v)
    np.testing.assert_array_equal(X[:, 1], 14 * stones)
    assert not [n for n in enc.report_.notes if "BMI centile" in n and "stones" in n]


def test_a_diagnosis_outcome_confirmed_or_awaiting_review_and_an_nhs_number():
    """Walk-through 41: "confirmed" and "awaiting review" were a third and a fourth asthma
    outcome ("chance: 25 %"); neither "Asthma diagnosis by age 6" nor "NHS Number" was
    guessed, and the untouched form trained on 37 of 626 children with the outcome as a
    feature."""
    from sparge.data.column_guess import guess_columns

    rng = np.random.default_rng(0)
    y = list(rng.choice(["Y", "Yes", "confirmed", "No", "not asthma", "N"], 300))
    y[:8] = ["awaiting review"] * 4 + ["TBC", "to be confirmed", "under review", "awaiting"]
    df = pd.DataFrame({"NHS Number": [f"{i:010d}" for i in range(300)],
                       "Wheeze episodes": rng.integers(0, 5, 300),
                       "Asthma diagnosis by age 6": y})
    assert guess_columns(df) == ("NHS Number", "Asthma diagnosis by age 6")
    enc = Encoder(id_column="NHS Number", label_column="Asthma diagnosis by age 6").fit(df)
    labels = pd.Series(enc.labels(df))
    assert set(labels.dropna()) == {"Yes", "No"} and labels.isna().sum() == 8
    want = pd.Series(y).map(lambda a: "Yes" if a in ("Y", "Yes", "confirmed") else
                            "No" if a in ("No", "not asthma", "N") else None)
    assert labels.tolist() == [None if v is None else v for v in want.tolist()]


def test_ages_in_years_and_months_are_read_in_the_columns_unit():
    """Walk-through 41: 144 ages written "4y 1m" or "0y 10m" were set to missing ("no
    exact conversion to 'yrs' is known"), the report listing 12 made-up units."""
    from sparge.data.compound_units import _Y_M, years_of

    assert [years_of(c) for c in ("4y 1m", "0y 10m", "2 yrs 3 mths", "1 year 6 months",
                                  "4y", "10y 12m")] == [4 + 1 / 12, 10 / 12, 2.25, 1.5,
                                                        None, None]
    assert _Y_M.fullmatch("4" + " " * 40_000 + "y 1m") is None  # bounded runs
    rng = np.random.default_rng(0)
    months = rng.integers(3, 120, 300)
    cells = [f"{x // 12}y {x % 12}m" if i % 3 == 0 else f"{x} months" if i % 3 == 1
             else f"{x / 12:.4f}" for i, x in enumerate(months)]
    out = rng.choice(["Yes", "No"], 300)
    X = Encoder(label_column="Outcome").fit_transform(
        pd.DataFrame({"Age": cells, "Outcome": out}))
    np.testing.assert_allclose(X[:, 0], months / 12, atol=1e-4)
    X = Encoder(label_column="Outcome").fit_transform(
        pd.DataFrame({"Age (months)": cells[::3], "Outcome": out[::3]}))
    np.testing.assert_allclose(X[:, 0], months[::3], atol=1e-4)


def test_a_column_recorded_at_follow_up_is_questioned():
    """Walk-through 41: "Inhaler prescribed at follow-up" (AUC 0.95 on the outcome, below
    the 0.98 of the unnamed rule) stayed a feature that no page questioned, and the New
    patient form asked for it."""
    rng = np.random.default_rng(0)
    n = 400
    y = rng.choice(["Yes", "No"], n)
    inhaler = np.where((y == "Yes") & (rng.random(n) < 0.92), "Yes",
                       np.where(rng.random(n) < 0.05, "Yes", "No"))
    df = pd.DataFrame({"Wheeze": rng.integers(0, 5, n),
                       "Inhaler prescribed at follow-up": inhaler,
                       "Seen at clinic": rng.choice(["Yes", "No"], n),
                       "Asthma diagnosis by age 6": y})
    enc = Encoder(label_column="Asthma diagnosis by age 6").fit(df)
    assert set(enc.report_.questioned_leaks) == {"Inhaler prescribed at follow-up"}


def test_a_child_health_clinics_answers_written_several_ways_are_offered_as_one():
    """Walk-through 41: "boy" / "girl" beside Male / Female, and immunisations "UTD",
    "Up to date", "Complete" and "partial" / "incomplete" were never offered to merge."""
    from sparge.data.levels import abbreviated_levels

    assert dict(abbreviated_levels(["Male", "boy", "Female", "girl"], "Sex")) == {
        "boy": "Male", "girl": "Female"}
    assert dict(abbreviated_levels(["Up to date", "UTD", "Complete", "partial",
                                    "incomplete"], "Immunisations")) == {
        "UTD": "Up to date", "Complete": "Up to date", "partial": "incomplete"}


def test_a_value_measured_only_below_or_above_an_age_is_a_gap_by_design():
    """Walk-through 41: head circumference (measured under 2) and peak flow (over 5) were
    88 % and 52 % empty; counted as gaps they left children out of training, and the Data
    page offered to leave both columns out."""
    from sparge.data.structural_gaps import find_structural_gaps, structural_mask

    rng = np.random.default_rng(3)
    n = 500
    age = rng.uniform(0.2, 10, n)
    head = np.where(age < 2, 35 + 5 * age, np.nan)
    peak = np.where(age > 5, 150 + 20 * age, np.nan)
    df = pd.DataFrame({"Age": age.round(2), "Head circumference (cm)": head.round(1),
                       "Peak flow (L/min)": peak.round(), "Weight (kg)": 3 + 2 * age,
                       "Outcome": rng.choice(["Yes", "No"], n)})
    for col in ("Age", "Weight (kg)"):
        df.loc[rng.random(n) < 0.05, col] = np.nan
    enc = Encoder(label_column="Outcome", max_patient_missing=0.1)
    X = enc.fit_transform(df)
    names = enc.feature_names_out_
    found = find_structural_gaps(X, [False] * len(names))
    j = {f: i for i, f in enumerate(names)}
    d, kind, (cut,) = found[j["Head circumference (cm)"]]
    assert (d, kind) == (j["Age"], "above") and 1.5 <= cut <= 2.5
    d, kind, (cut,) = found[j["Peak flow (L/min)"]]
    assert (d, kind) == (j["Age"], "below") and 4.5 <= cut <= 5.5
    mask = structural_mask(X, found)
    assert mask[:, j["Head circumference (cm)"]].sum() >= 0.9 * np.isnan(head).sum() * 0.95
    note = next(m for m in enc.report_.notes if m.startswith("Column 'Head"))
    assert "whose 'Age' is above" in note
    # children measured as their age allows all train: only random gaps leave some out
    assert enc.keep_patients_.mean() > 0.85
    assert not enc.report_.columns_losing_patients
    # the missing shares count the children a value applies to (walk-through 42's
    # summary and chart still read head circumference 88 % missing)
    rep = enc.report_
    applies = ~mask[:, j["Head circumference (cm)"]]
    gaps = np.isnan(X[applies, j["Head circumference (cm)"]]).mean()
    assert rep.missing_pct["Head circumference (cm)"] == pytest.approx(100 * gaps)
    assert rep.missing_pct["Head circumference (cm)"] < 0.3 * 100 * np.isnan(head).mean()
    assert rep.not_applicable["Head circumference (cm)"] == int((~applies).sum())
    assert "values that do not apply to a patient are not counted as missing, here nor in " \
        "a patient's share: a column's share is of the patients it applies to" in str(rep)


def test_nil_known_in_a_list_of_allergies_is_no_allergy():
    """Walk-through 42: "nil known" became a column "Allergies: nil known" (85 children
    Yes there and No to every allergen), while "none" and "NKDA" read as No to each."""
    rng = np.random.default_rng(2)
    n = 200
    foods = ["egg", "peanut", "milk"]
    cells = ["nil known" if i % 4 == 0 else "no known allergies" if i % 4 == 1 else
             ", ".join(rng.choice(foods, rng.integers(1, 3), replace=False))
             for i in range(n)]
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(pd.DataFrame({"Allergies": cells,
                                        "Outcome": rng.choice(["Yes", "No"], n)}))
    assert sorted(enc.feature_names_out_) == ["Allergies: egg", "Allergies: milk",
                                              "Allergies: peanut"]
    no = enc.table_.levels(enc.feature_names_out_[0])["No"]
    assert (X[::4] == no).all() and (X[1::4] == no).all()


def test_durations_in_weeks_or_days_in_a_column_of_months_are_converted():
    """Walk-through 41: a breastfeeding column of months held short durations in weeks
    ("6 weeks"); their median lay a factor 4 from the months', and they were set to
    missing. A duration's unit follows its size: weeks and days are converted (a year of
    365.25 days, said), whatever the other cells' values."""
    n = 90
    rng = np.random.default_rng(2)
    cells = [f"{rng.integers(6, 24)} months" if i % 3 else f"{rng.integers(1, 8)} wks"
             for i in range(n)]
    cells[4] = "10 days"
    df = pd.DataFrame({"ID": [f"C{i}" for i in range(n)], "Breastfeeding (months)": cells,
                       "Age": rng.integers(1, 10, n), "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="ID", label_column="y")
    X = enc.fit_transform(df)
    j = list(enc.feature_names_out_).index("Breastfeeding (months)")
    want = [float(c.split()[0]) * {"months": 1.0, "wks": 12 * 7 / 365.25,
                                   "days": 12 / 365.25}[c.split()[1]] for c in cells]
    np.testing.assert_allclose(X[:, j], want, rtol=1e-9)
    text = str(enc.report_)
    assert "converted to 'months' (1 wks = 0.23 months, a year taken as 365.25 days)" in text
    assert "set to missing" not in text


def test_a_narrow_range_in_a_column_of_numbers_reads_as_its_middle():
    """Walk-through 41: wheeze episodes "2-3" were set to missing. A narrow range in a
    column of numbers reads as its middle, said; a wide or reversed one stays unread, and
    a column of bands ("40-49") stays answers."""
    from sparge.data.parsing import range_middle

    assert range_middle("2-3") == 2.5 and range_middle("5 to 10") == 7.5
    assert range_middle("2 – 3") == 2.5 and range_middle("0-1") == 0.5
    for cell in ("120-80", "1-100", "3-3", "10-20 cigs", "-2-3", "2-3-4", "1" * 50):
        assert range_middle(cell) is None, cell
    n = 60
    rng = np.random.default_rng(3)
    counts = [str(rng.integers(0, 6)) for _ in range(n)]
    counts[7], counts[9], counts[11] = "2-3", "1 to 2", "1-20"
    df = pd.DataFrame({"ID": [f"C{i}" for i in range(n)], "Wheeze episodes": counts,
                       "Age band": [("40-49", "50-59", "60-69")[i % 3] for i in range(n)],
                       "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="ID", label_column="y")
    X = enc.fit_transform(df)
    j = list(enc.feature_names_out_).index("Wheeze episodes")
    assert X[7, j] == 2.5 and X[9, j] == 1.5 and np.isnan(X[11, j])
    assert enc.roles_["Age band"] == "categorical"
    text = str(enc.report_)
    assert "Column 'Wheeze episodes': 2 cell(s) written as a range (e.g. '2-3', CSV line 9) " \
           "read as its middle (2.5)." in text
    assert "'1-20'" in text  # set to missing, named
