"""Dates as exports write them, and an age from a date of birth (walk-through 29: an
export with a date of birth and no age; the model never saw the patients' ages)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.dates import add_ages, age_in_years, fixed_date, read_dates
from sparge.errors import DataError

TODAY = date(2026, 11, 28)


def _iso(reading) -> list:
    return [None if pd.isna(d) else str(d.date()) for d in reading.dates]


def test_every_form_reads_and_a_cell_above_12_decides_the_order():
    cells = pd.Series(["2019-03-12", "12/03/2019", "25/12/2019 14:30", "12 Mar 2019",
                       "12-Mar-19", "March 12, 2019", "12.03.2019", "", "soon", "31/02/2019"])
    r = read_dates(cells, today=TODAY)
    assert _iso(r) == ["2019-03-12"] * 2 + ["2019-12-25"] + ["2019-03-12"] * 4 + [
        None, None, None]
    assert r.day_first is True and r.decided
    assert r.unread == 2  # "soon" and the 31st of February; the empty cell is a gap
    us = read_dates(pd.Series(["03/12/2019", "12/25/2019"]), today=TODAY)
    assert _iso(us) == ["2019-03-12", "2019-12-25"] and us.day_first is False and us.decided


def test_when_no_cell_tells_the_choice_is_said_and_two_digit_years_are_past():
    cells = pd.Series(["03/04/60", "01/02/05", "11/12/2026"])
    r = read_dates(cells, today=TODAY)
    assert _iso(r) == ["1960-04-03", "2005-02-01", "2026-12-11"]
    assert r.day_first is True and not r.decided
    r = read_dates(cells, day_first=False, today=TODAY)
    assert _iso(r)[0] == "1960-03-04" and not r.decided
    # a column of ISO dates has no order to choose
    assert read_dates(pd.Series(["2020-01-02"])).day_first is None


def test_ages_are_exact_and_impossible_ones_are_missing():
    born = pd.Series(pd.to_datetime(["1960-04-03", "2000-02-29", "2030-01-01", None]))
    at = pd.Series(pd.to_datetime(["2020-04-03", "2001-02-28", "2020-01-01", "2020-01-01"]))
    years, impossible = age_in_years(born, at)
    assert years[0] == 60.0 and years[1] == pytest.approx(1.0, abs=0.05)
    assert np.isnan(years[2]) and np.isnan(years[3]) and impossible == 1
    assert fixed_date("2024-06-30") == pd.Timestamp(2024, 6, 30)
    with pytest.raises(DataError, match="YYYY-MM-DD"):
        fixed_date("last week")
    with pytest.raises(DataError, match="YYYY-MM-DD"):  # beyond a timestamp: it raised
        fixed_date("9999-01-01")


def _cohort(n=90, seed=0, fmt="%d/%m/%Y"):
    rng = np.random.default_rng(seed)
    born = pd.Timestamp("1940-01-01") + pd.to_timedelta(rng.integers(0, 20000, n), unit="D")
    seen = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 2000, n), unit="D")
    df = pd.DataFrame({"Patient": [f"P{i}" for i in range(n)],
                       "Date of birth": born.strftime(fmt),
                       "Admission date": seen.strftime(fmt),
                       "Sodium": rng.normal(140, 3, n).round(1),
                       "Outcome": rng.integers(0, 2, n)})
    return df, ((seen - born).days / 365.2425).to_numpy().round(1)


def test_the_encoder_adds_the_age_for_training_new_patients_and_saved_models():
    df, truth = _cohort()
    ages = {"Age at admission": {"born": "Date of birth", "at": "Admission date"}}
    enc = Encoder(id_column="Patient", label_column="Outcome", ages=ages)
    X = enc.fit_transform(df)
    assert enc.feature_names_out_[0] == "Age at admission"
    np.testing.assert_array_equal(X[:, 0], truth)
    assert enc.ages_["Age at admission"]["day_first"] is True
    assert enc.report_.n_columns == 5  # the file's columns, not the age added
    note = next(n for n in enc.report_.notes if n.startswith("'Age at admission'"))
    assert "computed for 90 of 90 patients" in note and "day/month/year" in note
    # a new patient: from their dates, read in the training's order; or an age as typed
    again = Encoder.from_dict(enc.to_dict())
    assert again.ages_ == enc.ages_
    new = pd.DataFrame({"Date of birth": ["03/04/1960"], "Admission date": ["03/04/2020"],
                        "Sodium": [140]})
    assert again.transform(new)[0, 0] == 60.0
    assert again.transform(pd.DataFrame({"Age at admission": [55], "Sodium": [140]}))[0, 0] \
        == 55.0
    # one date for every patient
    fixed = Encoder(label_column="Outcome", ages={"Age on 2020-01-01": {
        "born": "Date of birth", "at": "2020-01-01"}}).fit(df)
    assert fixed.feature_names_out_[0] == "Age on 2020-01-01"


def test_a_missing_birth_column_or_a_name_taken_is_said():
    df, _ = _cohort()
    with pytest.raises(DataError, match="date of birth column 'DOB'"):
        Encoder(ages={"Age": {"born": "DOB", "at": "Admission date"}}).fit(df)
    with pytest.raises(DataError, match="has a column 'Sodium' already"):
        Encoder(ages={"Sodium": {"born": "Date of birth", "at": "Admission date"}}).fit(df)
    with pytest.raises(ValueError, match="ages must be"):
        Encoder.from_dict({**Encoder(label_column="Outcome").fit(df).to_dict(),
                           "ages": {"Age": {"born": 3}}})


def test_us_dates_and_dates_read_the_same_way_in_both_columns():
    """Month first: a birth date beyond the 12th tells, and the admission dates (none of
    which tells alone) follow it."""
    df, truth = _cohort(fmt="%m/%d/%Y")
    df["Admission date"] = ["01/02/2020"] * len(df)
    out, resolved, notes = add_ages(df, {"Age": {"born": "Date of birth",
                                                 "at": "Admission date"}})
    assert resolved["Age"]["day_first"] is False
    born = pd.to_datetime(df["Date of birth"], format="%m/%d/%Y")
    want = ((pd.Timestamp(2020, 1, 2) - born).dt.days / 365.2425).round(1)
    np.testing.assert_array_equal(out["Age"].to_numpy(), want.to_numpy())
    assert list(out.columns).index("Age") == 2  # right after the date of birth


def test_a_year_beyond_a_timestamp_is_no_date():
    """A typo's year 2901 made pandas raise OutOfBoundsDatetime, and the Data page stop."""
    r = read_dates(pd.Series(["01/01/2901", "25/12/2019", "1/1/0001"]))
    assert _iso(r) == [None, "2019-12-25", None] and r.unread == 2


def test_hostile_cells_are_not_dates():
    """Long cells of digits and separators (the patterns are anchored and their
    repetitions bounded: no backtracking blow-up; pytest-timeout would stop one)."""
    cells = pd.Series(["1" * 5000 + "/" * 5000, "12/" * 3000, "a" * 20000,
                       "12/12/" + "9" * 4000] * 50)
    assert read_dates(cells).unread == len(cells)
