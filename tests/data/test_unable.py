"""The words for a performance test the patient could not do, and which tests they are."""

from __future__ import annotations

import numpy as np
import pytest

from sparge.data.unable import is_unable, performance_direction, worst_result


@pytest.mark.parametrize("name, direction", [
    ("TUG (s)", 1), ("Timed Up and Go", 1), ("timed_up_and_go_sec", 1),
    ("5x sit to stand (s)", 1), ("10m walk time", 1), ("Gait speed (m/s)", -1),
    ("6MWD (m)", -1), ("Six minute walk distance", -1), ("Grip strength (kg)", -1),
    ("30s chair stand", -1), ("Creatinine", 0), ("Time to admission", 0),
    ("Peak flow", 0), ("Stage", 0), ("Walk-in clinic", 0)])
def test_a_performance_test_is_known_by_its_name(name, direction):
    assert performance_direction(name) == direction


@pytest.mark.parametrize("cell", [
    "unable", "Unable.", "UNABLE TO COMPLETE", "unable - pain", "could not stand (dizzy)",
    "couldn't walk", "non-ambulant", "Bedbound", "wheelchair user", "did not complete",
    "Patient unable to perform test"])
def test_the_ways_of_writing_unable(cell):
    assert is_unable(cell)


@pytest.mark.parametrize("cell", [
    "unable to contact", "not done", "declined", "12", "able", "unavailable",
    "unable to contact - moved away", "x" * 500])
def test_what_is_not_unable(cell):
    assert not is_unable(cell)


def test_the_worst_result_leaves_out_far_values_and_needs_a_few_values():
    x = np.array([10.0, 12, 14, np.nan, 20, 25, 300])
    assert worst_result(x, 1) == 25
    assert worst_result(x, -1) == 10
    assert worst_result(x, 0) is None
    assert worst_result(np.array([10.0, 12, np.nan, 14]), 1) is None
