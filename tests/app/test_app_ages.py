"""The Data page adds an age from a date of birth (walk-through 29: the export gave a
date of birth and no age, and the model never saw the patients' ages)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from app_support import start, texts

from sparge.services.ages import age_choices, age_name, with_age, without_age


def _export(n=80, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    born = pd.Timestamp("1940-01-01") + pd.to_timedelta(rng.integers(0, 20000, n), unit="D")
    seen = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 2000, n), unit="D")
    age = (seen - born).days / 365.2425
    return pd.DataFrame({
        "Patient": [f"P{i}" for i in range(n)],
        "DOB": born.strftime("%d/%m/%Y"),
        "Last review": seen.strftime("%d/%m/%Y"),
        "Admission date": seen.strftime("%d/%m/%Y"),
        "Sodium": rng.normal(140, 3, n).round(1),
        "Creatinine": rng.normal(90, 20, n).round(0),
        "Outcome": np.where(age + rng.normal(0, 8, n) > 60, "died", "alive")})


def _encoded(df: pd.DataFrame, name: str):
    """The Data page with ``df`` uploaded as ``name`` and encoded with the untouched
    setup form."""
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        (name, df.to_csv(index=False).encode(), "text/csv")).run()
    at.button(key="setup_go").click().run()
    return at


def test_the_choices_guess_the_birth_and_the_admission():
    df = _export()
    roles = {c: "ignore" for c in ("DOB", "Last review", "Admission date")}
    got = age_choices(df, {**roles, "Sodium": "numeric", "Patient": "id"})
    assert got.dates == ["DOB", "Last review", "Admission date"]
    assert got.born == "DOB" and got.at == "Admission date"
    assert got.latest == pd.to_datetime(df["Admission date"], dayfirst=True).max()
    assert age_name("Admission date", []) == "Age at Admission date"
    assert age_name("2020-01-01", ["Age on 2020-01-01"]) == "Age on 2020-01-01 (2)"
    assert age_name("Admission date", [], "days") == "Age at Admission date (days)"
    ages = with_age(None, "Age", "DOB", "Admission date", None)
    assert without_age(ages, "Age") is None and without_age(ages, "other") == ages


def test_the_data_page_adds_and_removes_an_age():
    df = _export()
    at = _encoded(df, "export.csv")
    assert not at.exception, [e.value for e in at.exception]
    # walk-through 78: a table with a date of birth and no age gets the age at its
    # event by default (the registry trained without its age, one click away)
    assert "Age at Admission date" in at.session_state["cohort"].features
    said = " ".join(s.value for s in at.success)
    assert "'Age at Admission date' was added from 'DOB'" in said
    at.button(key="age_remove_Age at Admission date").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Age at Admission date" not in at.session_state["cohort"].features
    # removed, it stays removed when the same table is encoded again
    at.button(key="setup_go").click().run()
    assert "Age at Admission date" not in at.session_state["cohort"].features
    assert "Add an age from a date of birth ('DOB')" in [e.label for e in at.expander]
    assert at.selectbox(key="age_born").value == "DOB"
    assert at.selectbox(key="age_at").value == "Admission date"
    at.button(key="age_add").click().run()
    assert not at.exception, [e.value for e in at.exception]
    cohort = at.session_state["cohort"]
    assert "Age at Admission date" in cohort.features
    j = cohort.features.index("Age at Admission date")
    born = pd.to_datetime(df["DOB"], format="%d/%m/%Y")
    seen = pd.to_datetime(df["Admission date"], format="%d/%m/%Y")
    np.testing.assert_array_equal(cohort.X[:, j], ((seen - born).dt.days / 365.2425).round(1))
    said = " ".join(s.value for s in at.success)
    assert "computed for 80 of 80 patients" in said and "day/month/year" in said
    # one date for every patient, as a second age
    at.selectbox(key="age_at").set_value("one date for every patient").run()
    at.date_input(key="age_day").set_value(pd.Timestamp(2020, 1, 1).date()).run()
    at.button(key="age_add").click().run()
    assert "Age on 2020-01-01" in at.session_state["cohort"].features
    # removed: out of the model again
    at.button(key="age_remove_Age at Admission date").click().run()
    assert not at.exception
    features = at.session_state["cohort"].features
    assert "Age at Admission date" not in features and "Age on 2020-01-01" in features


def test_newborns_age_in_days_and_a_dropped_age_is_said():
    """Walk-through 32: a neonatal unit's age at admission in years was 0.0 for every
    infant, dropped as constant, and the expander still said it was in the model."""
    rng = np.random.default_rng(1)
    n = 60
    born = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 300, n), unit="D")
    seen = born + pd.to_timedelta(rng.integers(0, 15, n), unit="D")
    df = pd.DataFrame({"MRN": [f"N{i}" for i in range(n)],
                       "DOB": born.strftime("%d/%m/%Y"),
                       "Admission date": seen.strftime("%d/%m/%Y"),
                       "Weight": rng.normal(3000, 400, n).round(),
                       "NICU admission": ["Yes", "No"] * 30})
    at = _encoded(df, "nicu.csv")
    # by default in days: ages in years would all be 0.0
    assert "Age at Admission date (days)" in at.session_state["cohort"].features
    at.button(key="age_remove_Age at Admission date (days)").click().run()
    at.button(key="age_add").click().run()
    assert not at.exception
    said = texts(at)
    assert "was added but left out of the model" in said and "add it in days" in said
    at.radio(key="age_unit").set_value("days").run()
    at.button(key="age_add").click().run()
    cohort = at.session_state["cohort"]
    assert "Age at Admission date (days)" in cohort.features
    j = cohort.features.index("Age at Admission date (days)")
    np.testing.assert_array_equal(cohort.X[:, j], (seen - born).days.to_numpy())


def test_a_date_beyond_the_pickers_range_does_not_break_the_form():
    df = _export()
    df.loc[0, "Last review"] = "01/01/2150"  # a typo's year, beyond the picker's
    df.loc[1, "Last review"] = "01/01/2901"  # beyond a timestamp: no date (it stopped)
    at = _encoded(df, "typo.csv")
    at.selectbox(key="age_at").set_value("one date for every patient").run()
    assert not at.exception, [e.value for e in at.exception]
    assert str(at.date_input(key="age_day").value) == "2100-12-31"


def test_an_age_from_the_date_of_birth_replaces_the_tables_own_age():
    """Walk-through 39: "Age at Admission date" was added beside the export's "Age", both
    stayed features (the look-alikes weighed age twice) and the form asked for both."""
    from sparge.services.ages import table_ages

    assert table_ages(["Age", "Age (years)", "Patient age", "Stage", "Age at X", "Page",
                       "DOB age"], {f: "numeric" for f in ["Age", "Age (years)",
                                                           "Patient age", "Stage",
                                                           "Age at X", "Page"]},
                      {"Age at X": {}}) == ["Age", "Age (years)", "Patient age"]
    df = _export()
    df.insert(1, "Age", ((pd.to_datetime(df["Admission date"], dayfirst=True)
                          - pd.to_datetime(df["DOB"], dayfirst=True)).dt.days
                         / 365.2425).round())
    at = _encoded(df, "export.csv")
    assert "Age" in at.session_state["cohort"].features
    # the offer says the table has an age (walk-through 82 read it as a missing one)
    assert "Add an age from a date of birth ('DOB'): the table has 'Age' already" in \
        [e.label.replace("\\", "") for e in at.expander]
    box = at.checkbox(key="age_replace_DOB")
    assert box.value and "table's own \\'Age\\'" in box.label  # escaped for Markdown
    at.button(key="age_add").click().run()
    assert not at.exception, [e.value for e in at.exception]
    cohort = at.session_state["cohort"]
    assert "Age at Admission date" in cohort.features and "Age" not in cohort.features
    assert cohort.encoder.roles_["Age"] == "ignore"


def test_a_sparse_date_of_birth_does_not_replace_the_tables_age_by_default():
    """Walk-through 41: dates of birth for 200 of 626 children replaced an "Age" filled
    for 396 (the ticked box), and the next one-click fix left age out altogether."""
    from sparge.services.ages import replaces_table_age

    df = _export()
    true_age = ((pd.to_datetime(df["Admission date"], dayfirst=True)
                 - pd.to_datetime(df["DOB"], dayfirst=True)).dt.days / 365.2425).round()
    df.insert(1, "Age", true_age)
    df.loc[df.index[:60], "DOB"] = ""  # 20 of 80 dates of birth
    X = np.column_stack([df["Age"].to_numpy(), np.full(len(df), np.nan)])
    assert replaces_table_age(df, "DOB", X, ["Age", "Other"], ["Age"]) == (False, 80)
    X[:70, 0] = np.nan  # 10 ages in the table, 20 from the dates: replace
    assert replaces_table_age(df, "DOB", X, ["Age", "Other"], ["Age"]) == (True, 10)
    # ... when the two ages agree where both are given (at the admission they do)
    assert replaces_table_age(df, "DOB", X, ["Age", "Other"], ["Age"],
                              "Admission date") == (True, 10)
    # walk-through 43: the "date of birth" was the delivery date, its ages 0 to 1 year
    # against mothers of 20 to 40: never replaced by default
    baby = df.assign(DOB=df["Admission date"])
    assert replaces_table_age(baby, "DOB", X, ["Age", "Other"], ["Age"],
                              "Admission date") == (False, 10)
    assert replaces_table_age(df, "DOB", X, ["Age", "Other"], ["Age"],
                              "2100-01-01") == (False, 10)
    X[74:, 0] = np.nan  # fewer than 5 patients with both: cannot tell, not replaced
    assert replaces_table_age(df, "DOB", X, ["Age", "Other"], ["Age"],
                              "Admission date") == (False, 4)
    at = _encoded(df, "export.csv")
    assert not at.exception, [e.value for e in at.exception]
    assert at.checkbox(key="age_replace_DOB").value is False


def test_no_column_named_as_a_date_of_birth_is_not_guessed():
    """Walk-through 43: the only date column, "Delivery date", was offered as the date of
    birth, and its "ages" of 0 to 1 year replaced every mother's age."""
    df = _export().drop(columns=["DOB", "Last review"]).rename(
        columns={"Admission date": "Delivery date"})
    df.insert(1, "Maternal age", np.arange(len(df)) % 20 + 20.0)
    at = _encoded(df, "maternity.csv")
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="age_born").value is None
    assert "No column is named as a date of birth" in texts(at)
    assert not [b for b in at.button if b.key == "age_add"]


def test_no_age_is_offered_beside_an_age_when_no_date_is_a_birth():
    """Walk-through 73's myeloma export had an Age and a "Date of diagnosis": "Add an age
    from a date of birth" was offered with no date of birth to add it from."""
    df = _export().drop(columns=["DOB"]).assign(Age=np.arange(80) % 40 + 40)
    at = _encoded(df, "with_age.csv")
    assert not at.exception, [e.value for e in at.exception]
    assert not any(e.label.startswith("Add an age") for e in at.expander)
    # (without an age in the model the dates are offered: the tests above)


def test_the_default_age_needs_one_date_of_birth_an_event_and_no_age():
    from sparge.services.ages import default_ages

    df = _export()
    assert default_ages(df, "Patient", "Outcome") == {"Age at Admission date": {
        "born": "DOB", "at": "Admission date", "day_first": None, "unit": "years"}}
    # the table's own age: none is added
    assert default_ages(df.assign(**{"Age (years)": 50}), "Patient", "Outcome") is None
    # no event written for most patients (a later review is no event): none
    assert default_ages(df.drop(columns=["Admission date"])) is None
    # two columns of dates of birth (a mother's and a baby's): none
    assert default_ages(df.assign(**{"Baby DOB": df["DOB"]})) is None
    # dates of birth that mostly do not read as dates: none
    bad = df.assign(DOB=["unknown"] * 70 + list(df["DOB"][70:]))
    assert default_ages(bad) is None
    # an infant's age in days, a toddler's in months
    born = pd.to_datetime(df["Admission date"], dayfirst=True) - pd.Timedelta(days=10)
    assert default_ages(df.assign(DOB=born.dt.strftime("%d/%m/%Y")))[
        "Age at Admission date (days)"]["unit"] == "days"
