"""Apgar scores written "8/9" in one cell read as numeric columns (walk-through 31: 620 of
700 infants' scores were left out as free text)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from sparge import Encoder, read_table
from sparge.data.apgar import apgar_columns, apgar_parts, split_apgars


def _infants(n=60, seed=0):
    rng = np.random.default_rng(seed)
    one = rng.integers(2, 10, n)
    five = np.minimum(one + rng.integers(0, 3, n), 10)
    cells = [f"{a}/{b}" for a, b in zip(one, five)]
    cells[3], cells[7], cells[9] = "not done", "8 at 5 min", "see chart"
    return pd.DataFrame({"Birth weight": rng.normal(3000, 400, n).round(),
                         "APGAR": cells, "Outcome": rng.integers(0, 2, n)}), one, five


def test_a_column_of_scores_is_split_in_place_and_others_are_not():
    df, one, five = _infants()
    df["Ratio"] = ["3/5", "4/5"] * 30  # not named like an Apgar score
    out = split_apgars(df)
    assert list(out.columns) == ["Birth weight", "APGAR 1 min", "APGAR 5 min", "Outcome",
                                 "Ratio"]
    assert out["APGAR 1 min"][0] == one[0] and out["APGAR 5 min"][0] == five[0]
    # "8 at 5 min": the 5-minute score only (walk-through 43)
    assert np.isnan(out["APGAR 1 min"][7]) and out["APGAR 5 min"][7] == 8
    assert np.isnan(out["APGAR 1 min"][9]) and np.isnan(out["APGAR 5 min"][9])
    note = out.attrs["sparge_read_notes"][-1]
    assert "holds Apgar scores" in note
    assert "its 1 other written cell(s) (e.g. 'see chart')" in note
    assert apgar_columns(out.columns) == {"APGAR": 2}
    assert apgar_parts("6/8/9") == (6.0, 8.0, 9.0) and apgar_parts("11/12") is None


def test_the_encoder_reads_them_for_training_new_patients_and_saved_models():
    df, one, five = _infants()
    enc = Encoder(label_column="Outcome", max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.feature_names_out_ == ["Birth weight", "APGAR 1 min", "APGAR 5 min"]
    keep = ~df["APGAR"].isin(["not done", "8 at 5 min", "see chart"]).to_numpy()
    np.testing.assert_array_equal(X[keep, 1], one[keep])
    again = Encoder.from_dict(enc.to_dict())
    new = pd.DataFrame({"Birth weight": [2500], "APGAR": ["4/7"]})
    assert again.transform(new)[0].tolist() == [2500.0, 4.0, 7.0]
    # read_table splits the column as it reads the file
    read = read_table(io.StringIO(df.to_csv(index=False)))
    assert "APGAR 5 min" in read.columns


def test_scores_fill_the_tables_own_columns_of_them():
    """Walk-through 32: "APGAR" ("8/9") beside the export's own, nearly empty "Apgar 1
    min" and "Apgar 5 min" made two more columns of the same scores, and every infant
    two more gaps (0 of 708 were kept for training)."""
    df, one, five = _infants()
    df["Apgar 1 min"] = [np.nan] * 50 + [7.0] * 10
    df["Apgar 5 min"] = ["NA"] * 50 + [9.0] * 10
    df.loc[50:, "APGAR"] = ""
    out = split_apgars(df)
    assert "APGAR" not in out.columns and "APGAR 1 min" not in out.columns
    assert out["Apgar 1 min"][0] == one[0] and out["Apgar 5 min"][0] == five[0]
    assert out["Apgar 1 min"][55] == 7.0 and out["Apgar 5 min"][55] == 9.0
    assert "read into the table's 'Apgar 1 min', 'Apgar 5 min'" in \
        out.attrs["sparge_read_notes"][-1]
    enc = Encoder(label_column="Outcome", max_patient_missing=None).fit(df)
    assert "Apgar 1 min" in enc.feature_names_out_ and enc.report_.n_columns == 5


def test_a_new_patients_scores_in_one_cell_reach_the_models_own_columns():
    df, one, five = _infants()
    df["Apgar 1 min"], df["Apgar 5 min"] = np.nan, np.nan
    enc = Encoder(label_column="Outcome", max_patient_missing=None).fit(df)
    new = pd.DataFrame({"Birth weight": [2500], "APGAR": ["4/7"]})
    X = enc.transform(new)
    assert X[0, enc.feature_names_out_.index("Apgar 1 min")] == 4.0
    assert X[0, enc.feature_names_out_.index("Apgar 5 min")] == 7.0


def test_scores_written_with_a_comma_or_one_at_its_minute_are_read():
    """Walk-through 43: an export wrote 70 % of its Apgars "8/9", 12 % "9 at 5 min" and
    10 % "8, 9"; under the 80 % share the column was left out as free text."""
    from sparge.data.apgar import apgar_parts

    assert apgar_parts("8, 9") == (8.0, 9.0) and apgar_parts("8;9") == (8.0, 9.0)
    for cell, minute in (("9 at 5 min", 1), ("9 @ 5 mins", 1), ("9 (5 min)", 1),
                         ("5 min: 9", 1), ("7 at 1 min", 0), ("9 at 10 min", 2)):
        got = apgar_parts(cell)
        assert got[minute] == (7.0 if minute == 0 else 9.0), cell
        assert np.isnan([v for i, v in enumerate(got) if i != minute]).all(), cell
    for cell in ("9 at 3 min", "142/88", "9 at 5 min" + " " * 40, "11 at 5 min"):
        assert apgar_parts(cell) is None, cell
    rng = np.random.default_rng(0)
    n = 100
    a5 = rng.integers(6, 11, n)
    a1 = np.maximum(a5 - rng.integers(0, 3, n), 0)
    cells = [f"{x}/{y}" if i % 10 < 7 else f"{y} at 5 min" if i % 10 < 8 else f"{x}, {y}"
             if i % 10 < 9 else "" for i, (x, y) in enumerate(zip(a1, a5))]
    df = pd.DataFrame({"ID": [f"B{i}" for i in range(n)], "Apgar": cells,
                       "Weight": rng.normal(3300, 400, n).round(),
                       "y": rng.integers(0, 2, n)})
    enc = Encoder(id_column="ID", label_column="y")
    X = pd.DataFrame(enc.fit_transform(df), columns=enc.feature_names_out_)
    written = np.array([c != "" for c in cells])
    one_at_5 = np.array(["at 5 min" in c for c in cells])
    np.testing.assert_array_equal(X["Apgar 5 min"][written], a5[written])
    np.testing.assert_array_equal(X["Apgar 1 min"][written & ~one_at_5], a1[written & ~one_at_5])
    assert X["Apgar 1 min"][one_at_5].isna().all()
