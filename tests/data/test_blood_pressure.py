"""Blood pressures written in one cell ("142/88") read as two numeric columns
(walk-through 29: the practice export's 900 pressures were left out as free text)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder, read_table
from sparge.data.blood_pressure import pressure_columns, pressure_parts, split_pressures
from sparge.data.combined_cells import source_columns


def test_a_cell_reads_as_its_two_pressures():
    assert pressure_parts("142/88") == (142.0, 88.0)
    assert pressure_parts("120 / 80 mmHg") == (120.0, 80.0)
    assert pressure_parts("118,5/76") == (118.5, 76.0)
    for cell in ("high", "142", "1/2", "142/88/70", ""):
        assert pressure_parts(cell) is None


def test_a_column_of_pressures_is_split_in_place_and_others_are_not():
    rng = np.random.default_rng(0)
    sys_ = rng.integers(100, 180, 40)
    dia = sys_ - rng.integers(30, 60, 40)
    bp = [f"{s}/{d}" for s, d in zip(sys_, dia)]
    bp[3], bp[5] = "-", "high"
    df = pd.DataFrame({"Age": rng.integers(40, 80, 40), "BP": bp,
                       "Visual acuity": ["6/12", "6/6", "6/9", "6/18"] * 10,
                       "Score": ["3/5", "4/5"] * 20})
    out = split_pressures(df)
    assert list(out.columns) == ["Age", "BP systolic", "BP diastolic", "Visual acuity",
                                 "Score"]
    assert out["BP systolic"].iloc[0] == sys_[0] and out["BP diastolic"].iloc[0] == dia[0]
    assert np.isnan(out["BP systolic"].iloc[3]) and np.isnan(out["BP diastolic"].iloc[5])
    note = out.attrs["sparge_read_notes"][-1]
    # the gap word is no stray cell; "high" is
    assert "holds blood pressures" in note and "its 1 other written cell(s)" in note
    assert pressure_columns(out.columns) == ["BP"]


def test_the_encoder_reads_them_for_training_and_for_a_new_patient():
    rng = np.random.default_rng(1)
    n = 120
    sys_ = rng.integers(100, 180, n)
    df = pd.DataFrame({"Age": rng.integers(40, 80, n),
                       "Blood pressure": [f"{s}/{s - 45}" for s in sys_],
                       "Outcome": rng.integers(0, 2, n)})
    enc = Encoder(label_column="Outcome")
    X = enc.fit_transform(df)
    assert enc.feature_names_out_ == ["Age", "Blood pressure systolic",
                                      "Blood pressure diastolic"]
    np.testing.assert_array_equal(X[:, 1], sys_)
    assert any("holds blood pressures" in n for n in enc.report_.notes)
    # the file's columns are counted, not the parts (walk-through 30: 28 read as 29)
    assert enc.report_.n_columns == 3 and "× 3 columns" in str(enc.report_)
    read = read_table(io.StringIO(df.to_csv(index=False)))
    assert read.shape[1] == 4 and source_columns(read) == 3
    assert Encoder(label_column="Outcome").fit(read).report_.n_columns == 3
    # one new patient: split however few its rows
    Xn = enc.transform(pd.DataFrame({"Age": [61], "Blood pressure": ["150/95"]}))
    assert Xn[0, 1:].tolist() == [150.0, 95.0]
    # saved and loaded: still split
    again = Encoder.from_dict(enc.to_dict())
    assert again.transform(pd.DataFrame({"Age": [61], "Blood pressure": ["150/95 mmHg"]}
                                        ))[0, 1:].tolist() == pytest.approx([150.0, 95.0])


def test_a_pressure_typed_in_one_form_field_fills_both():
    """Walk-through 30: "142/88" typed in the systolic field was set to missing."""
    from sparge.data.blood_pressure import typed_pressures

    row, notes = typed_pressures({"Age": "61", "BP systolic": "142/88", "BP diastolic": None})
    assert row == {"Age": "61", "BP systolic": 142.0, "BP diastolic": 88.0}
    assert notes == ["'142/88' typed in 'BP systolic' read as 142 there and 88 in "
                     "'BP diastolic'."]
    # a diastolic typed apart and different: left as typed (the form says it is unread)
    row, notes = typed_pressures({"BP systolic": "142/88", "BP diastolic": "90"})
    assert row["BP systolic"] == "142/88" and not notes
    assert typed_pressures({"BP systolic": "142", "BP diastolic": "88"}) == (
        {"BP systolic": "142", "BP diastolic": "88"}, [])
