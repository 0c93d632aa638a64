"""Alcohol written as drinks ("2 bottles wine/wk", "4 pints a week"), read as UK units
(walk-through 62's "Alcohol (units/wk)" lost 51 cells as another unit)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.alcohol import drink_units, read_alcohol


@pytest.mark.parametrize(("cell", "week"), [
    ("2 bottles wine/wk", 18.0), ("4 pints a week", 9.2), ("1 bottle of wine daily", 63.0),
    ("2-3 glasses of wine per night", 36.8), ("8 units a day", 56.0), ("6u/d", 42.0),
    ("3 cans/day", 42.0), ("1 bottle vodka/wk", 28.0), ("approx 4 pints per week", 9.2),
    ("2 doubles a week", 4.0), ("14 units", 14.0), ("2 pints", 4.6)])
def test_drinks_are_units_a_week(cell, week):
    assert drink_units(cell) == pytest.approx(week)


def test_a_daily_column_reads_a_week_as_a_seventh_and_text_is_not_a_drink():
    assert drink_units("14 units/wk", days=1.0) == 2.0
    assert drink_units("4 pints", days=1.0) == pytest.approx(9.2)
    for cell in ("teetotal", "social", "2-30 pints/wk", "ex-drinker", "10",
                 "2 pints of milk a day and more words than a drink has"):
        assert drink_units(cell) is None
    assert drink_units("2 glasses") == pytest.approx(4.2)  # wine's glass


def test_only_a_column_named_for_alcohol_is_read_so_with_a_note():
    df = pd.DataFrame({"Alcohol": ["2 pints/wk", "10", "0"] * 10,
                       "Milk": ["2 pints/wk", "10", "0"] * 10,
                       "EtOH (units/day)": ["14 units/wk", "2", "1 bottle wine/day"] * 10})
    out = read_alcohol(df)
    assert out["Alcohol"].tolist()[:3] == ["4.6", "10", "0"]
    assert out["Milk"].equals(df["Milk"])
    assert out["EtOH (units/day)"].tolist()[:3] == ["2.0", "2", "9.0"]
    notes = out.attrs["sparge_read_notes"]
    assert any("a week" in n and "'Alcohol'" in n for n in notes)
    assert any("a day" in n and "EtOH" in n for n in notes)


def test_an_alcohol_column_of_drinks_and_units_is_a_number_column():
    rng = np.random.default_rng(0)
    n = 200
    cells = ["2 bottles wine/wk", "14 units", "0", "teetotal", "6 units/wk",
             "1 bottle wine per week", "4 pints/wk", "10"]
    df = pd.DataFrame({"Alcohol": rng.choice(cells, n), "Age": rng.integers(60, 90, n),
                       "Outcome": rng.choice(["Yes", "No"], n)})
    enc = Encoder(label_column="Outcome").fit(df)
    assert enc.roles_["Alcohol"] == "numeric"
    X = enc.transform(df)
    got = dict(zip(df["Alcohol"], X[:, enc.feature_names_out_.index("Alcohol")],
                   strict=True))
    assert got == {"2 bottles wine/wk": 18, "14 units": 14, "0": 0, "teetotal": 0,
                   "6 units/wk": 6, "1 bottle wine per week": 9, "4 pints/wk": 9.2,
                   "10": 10}
    # a new patient is read so too
    one = enc.transform(pd.DataFrame({"Alcohol": ["3 pints a week"], "Age": [70]}))
    assert one[0, enc.feature_names_out_.index("Alcohol")] == pytest.approx(6.9)
