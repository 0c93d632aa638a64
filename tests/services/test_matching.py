"""Look-alikes matched exactly on chosen biomarkers (sparge.services.matching)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.services.matching import default_within, match_patients, matched_on_answer


class _Table:
    """The part of an encoder's table that names a categorical column's answers."""

    def has(self, column):
        return column == "Sex"

    def levels(self, column):
        return {"Female": 0, "Male": 1}

    def is_ordered(self, column):
        return False


class _Encoder:
    roles_ = {"Sex": "categorical", "Age": "numeric", "Smoker": "numeric"}
    table_ = _Table()

    def cell_unit(self, column):
        return "years" if column == "Age" else None


VALUES = pd.DataFrame({"Sex": [0, 1, 0, 0, np.nan, 0],
                       "Age": [50, 52, 55.5, 44, 50, np.nan],
                       "Smoker": [1, 0, 1, 1, 1, 0]}, dtype=float)


def test_categories_and_flags_match_on_the_answer_numbers_within_a_distance():
    enc = _Encoder()
    flags = frozenset({"Smoker"})
    assert matched_on_answer("Sex", enc) and matched_on_answer("Smoker", enc, flags)
    assert not matched_on_answer("Age", enc, flags)
    m = match_patients(VALUES, [0, 50, 1], ["Sex", "Age"], {"Age": 5.5}, enc, flags)
    # 55.5 is within 5.5 (the bound is inclusive), 44 is not; a patient with no recorded
    # sex (row 4) or age (row 5) cannot be shown to match
    assert m.candidates.tolist() == [True, False, True, False, False, False]
    assert m.n_candidates == 2 and m.n_train == 6 and m.active and not m.none_match
    assert m.conditions == ["Sex: Female", "Age (years): 44.5 to 55.5"]
    said = m.message(10)
    assert "Look-alikes only among the 2 of 6 training patients that match (Sex: Female " \
           "and Age (years): 44.5 to 55.5)" in said and "Only 2 match: all are listed." in said
    assert "Only" not in m.message(2)
    # a flag matches on its value
    m = match_patients(VALUES, [0, 50, 1], ["Age", "Smoker"], {"Age": 5}, enc, flags)
    assert m.candidates.tolist() == [True, False, False, False, True, False]


def test_the_patient_itself_is_not_counted_and_a_missing_value_is_not_matched_on():
    enc = _Encoder()
    m = match_patients(VALUES, VALUES.iloc[0], ["Sex"], encoder=enc, own=0)
    assert m.candidates[0] and m.n_candidates == 3 and m.n_train == 5
    m = match_patients(VALUES, [np.nan, 50, 0], ["Sex", "Age"], {"Age": 0}, enc, own=None)
    assert m.skipped == ["Sex"] and m.candidates.tolist() == [True, False, False, False,
                                                              True, False]
    assert "Not matched on Sex: this patient has no value for it." in m.message(10)
    assert "(Age (years): 50)" in m.message(10)  # within 0: the value itself
    # nothing to match on: no restriction, the skipped biomarkers still said
    m = match_patients(VALUES, [np.nan, np.nan, 0], ["Sex", "Age"], encoder=enc)
    assert m.candidates is None and not m.active and m.skipped == ["Sex", "Age (years)"]
    assert m.message(10) == ("Not matched on Sex, Age (years): this patient has no value "
                             "for them.")
    assert match_patients(VALUES, [0, 50, 1], []).message(10) == ""
    # nobody else matches: said, with what to do
    m = match_patients(VALUES, [1, 52, 0], ["Sex", "Age"], {"Age": 1}, enc, own=1)
    assert m.none_match and m.n_candidates == 0
    assert m.message(10).startswith("No other training patient matches (Sex: Male and "
                                    "Age (years): 51 to 53): the look-alikes below are "
                                    "from all 5 training patients.")


def test_default_distance_is_about_half_an_sd_rounded_down_and_bad_input_is_named():
    rng = np.random.default_rng(0)
    assert default_within(rng.normal(60, 15, 5000)) == 5.0  # an adult cohort's age
    assert default_within(rng.normal(5, 3, 5000)) == 1.0  # a children's clinic's
    # two values 2 s apart have SD s: half of it, rounded down to 1, 2, 2.5 or 5 x 10^k
    for s_d, want in ((50, 25.0), (9.0, 2.5), (4.9, 2.0), (0.9, 0.25), (1.1, 0.5), (4000, 2000.0)):
        assert default_within([-s_d, s_d, np.nan]) == pytest.approx(want), s_d
    assert default_within([3.0, 3.0, np.nan]) == 1.0 and default_within([]) == 1.0
    with pytest.raises(ValueError, match="not a biomarker of the model: 'BMI'"):
        match_patients(VALUES, [0, 50, 1], ["BMI"])
    with pytest.raises(ValueError, match="3 columns"):
        match_patients(VALUES, [0, 50], ["Sex"])
    with pytest.raises(ValueError, match="'Age' within must be a number >= 0"):
        match_patients(VALUES, [0, 50, 1], ["Age"], {"Age": -1})


def test_the_restriction_searched_and_the_conditions_applied():
    enc = _Encoder()
    m = match_patients(VALUES, [0, 50, 1], ["Sex"], encoder=enc)
    assert m.restriction is m.candidates and m.applied == ["Sex: Female"]
    none = match_patients(VALUES, [1, 52, 0], ["Sex", "Age"], {"Age": 1}, enc, own=1)
    assert none.none_match and none.restriction is None and none.applied == []
    # the downloaded list says either (walk-through 44: the nobody-matched file was silent)
    assert m.file_note == "Sex: Female"
    assert none.file_note.startswith("nobody matched (Sex: Male; Age (years): 51 to 53)")
    assert none.file_note.endswith("drawn from all training patients")
    assert match_patients(VALUES, [0, 50, 1], []).file_note == ""
    assert match_patients(VALUES, [0, 50, 1], []).restriction is None
