"""How numbers are shown and written (sparge.data.number_format)."""

from __future__ import annotations

import numpy as np

from sparge.data.number_format import data_decimals, round_computed, typical_decimals


def test_typical_decimals_ignore_a_few_converted_values_and_round_computed_rounds_them():
    x = np.r_[np.round(np.linspace(40, 120, 95), 1), 71.6676, 80.0123, np.nan]
    assert typical_decimals(x) == 1 and data_decimals(x[np.isfinite(x)]) == 4
    assert typical_decimals([1, 2, 3]) == 0 and typical_decimals([np.nan]) is None
    assert typical_decimals(np.linspace(0, 1, 97) ** 3) is None  # no precision written
    got = round_computed([71.6676, 72.45, 72.4, np.nan, 0.04999, 0], 1)
    assert got[:3].tolist() == [71.7, 72.45, 72.4] and np.isnan(got[3])
    # three significant digits where the column's decimals would lose the value: 5/12 of
    # a year in a column of whole years (walk-through 57), a small value
    assert got[4:].tolist() == [0.05, 0.0]
    assert round_computed([5 / 12, 6 + 10 / 12, 1234.5678, 7], 0).tolist() == [
        0.417, 6.83, 1235.0, 7.0]
    assert round_computed([71.6676, 10.1324912], None).tolist() == [71.6676, 10.1325]
