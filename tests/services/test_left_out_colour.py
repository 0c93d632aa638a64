"""Colouring the map by a column the model does not use (a ward, an admission date)."""

import numpy as np
import pandas as pd

from sparge.data.synthetic import make_singheart_like
from sparge.services.left_out_colour import (
    MISSING,
    OTHER_ANSWERS,
    colourable_left_out,
    left_out_colour,
    left_out_title,
)
from sparge.services.workflow import encode_cohort

GAPS = {"", "na", "unknown", "not recorded"}


def test_answers_keep_the_most_common_and_gaps_are_missing():
    wards = pd.Series(["ICU"] * 30 + ["Ward 10"] * 20 + ["Ward 2"] * 20 + ["NA"] * 5
                      + [f"bay {i}" for i in range(5)])
    colour, order, kind = left_out_colour(wards, GAPS, max_answers=3)
    assert kind == "answers"
    # natural order ("Ward 2" before "Ward 10"), the rest shared, the gaps last
    assert order == ["ICU", "Ward 2", "Ward 10", OTHER_ANSWERS, MISSING]
    assert colour.iloc[0] == "ICU" and colour.iloc[70] == MISSING
    assert (colour.iloc[75:] == OTHER_ANSWERS).all()
    assert len(colour) == len(wards)


def test_answers_written_two_ways_share_a_colour():
    """Walk-through 30: a smoking column left out of the model coloured "Y" apart from
    "Yes"; one answer now reads in its most common spelling of more than one letter."""
    smoking = pd.Series(["Y"] * 12 + ["Yes"] * 5 + ["yes "] * 3 + ["Current smoker"] * 4
                        + ["Ex"] * 6 + ["former"] * 9 + ["Never"] * 20 + ["N"] * 2
                        + ["NA"] * 3, name="Smoking status")
    colour, order, _ = left_out_colour(smoking, GAPS)
    got = dict(zip(smoking, colour))
    assert got["Y"] == got["Yes"] == got["yes "] == got["Current smoker"] == "Yes"
    assert got["Ex"] == got["former"] == "former" and got["N"] == "Never"
    assert order == ["former", "Never", "Yes", MISSING]
    # a ward's "ICU" and "ICU 2" are two answers, and a name is not needed
    assert set(left_out_colour(pd.Series(["ICU", "ICU 2"] * 5), GAPS)[0]) == {"ICU", "ICU 2"}


def test_numbers_are_numbers_and_dates_their_year():
    colour, order, kind = left_out_colour(pd.Series(["12", "14,5", "NA", "30"] * 10), GAPS)
    assert kind == "numbers" and order is None
    assert colour.iloc[1] == 14.5 and np.isnan(colour.iloc[2])
    dates = pd.Series(["03/04/2019", "2021-11-30", "", "17.01.2020"] * 10)
    colour, order, kind = left_out_colour(dates, GAPS)
    # whatever the order of day and month; written as years ("2019", not "2 019")
    assert kind == "year" and order == ["2019", "2020", "2021", MISSING]
    assert list(colour.iloc[:4]) == ["2019", "2021", MISSING, "2020"]
    many = pd.Series([f"01/01/{y}" for y in range(1990, 2026)])
    colour, order, _ = left_out_colour(many, GAPS)
    assert order[0] == "1990–1992" and len(order) == 13 and colour.iloc[4] == "1993–1995"
    assert left_out_title("Admission date", kind) == "Admission date (year)"


def test_notes_ids_and_empty_columns_colour_nothing():
    notes = pd.Series([f"seen on day {i}, stable" for i in range(200)])
    assert left_out_colour(notes, GAPS) is None
    ids = pd.Series([f"MRN-{i:07d}" for i in range(200)])
    assert left_out_colour(ids, GAPS) is None
    assert left_out_colour(pd.Series(["NA", "", "unknown"] * 5), GAPS) is None
    assert left_out_colour(pd.Series(["ICU"] * 10), GAPS) is None  # one answer: no colour


def test_the_left_out_columns_that_can_colour_a_map_are_offered():
    df, _ = make_singheart_like(n_patients=120, random_state=0)
    rng = np.random.default_rng(0)
    df["Ward"] = rng.choice(["ICU", "Ward 3", "Ward 7"], size=len(df))
    df["Admission date"] = [f"{d:02d}/03/20{y}" for d, y in
                            zip(rng.integers(1, 28, len(df)), rng.integers(18, 23, len(df)))]
    df["Notes"] = [f"patient {i} reviewed; plan unchanged." for i in range(len(df))]
    cohort = encode_cohort(df, id_column="Subject ID", label_column="Outcome",
                           roles={"Ward": "ignore"})
    roles = cohort.encoder.roles_
    assert roles["Ward"] == roles["Admission date"] == roles["Notes"] == "ignore"
    found = colourable_left_out(cohort.df, dict(roles), cohort.encoder.table_.missing_keys)
    assert found == ["Ward", "Admission date"]
