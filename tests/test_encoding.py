"""Patient tables in: the paper's encoding table, reading CSVs, bad input, the report."""

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.pandas import column, data_frames

from sparge import DataError, Encoder, EncodingTable, read_table
from sparge.data.tables import PAPER_TABLE

PAPER_ROWS = [(col, level, code) for col, levels in PAPER_TABLE.items()
              for level, code in levels.items()]


@pytest.mark.parametrize("col, level, code", PAPER_ROWS)
def test_every_row_of_the_paper_table(col, level, code):
    variants = [level, level.upper(), f"  {level.lower()} ", level.replace(" ", "  ")]
    df = pd.DataFrame({col: variants + ["No" if col != "Marital Status" else "Single"],
                       "Age": [30, 40, 50, 60, 70]})
    X = Encoder(drop_constant=False, merge_duplicates=False).fit_transform(df)
    enc_col = X[:, 0]
    assert np.all(enc_col[:4] == code), (col, level, enc_col)


def test_paper_table_has_every_level_of_design():
    t = EncodingTable.paper()
    assert t.lookup("Home Smoke", "Always") == 4
    assert t.lookup("coffee weekly", ">= 1 cup a week but <= 1 cup a day") == 3
    assert t.lookup("DIABETES", "unknown") == 0
    assert len(PAPER_ROWS) == 2 + 3 + 7 + 5 * 3 + 2 * 3 + 2 * 4 + 4 * 2 + 2 * 4


def test_unknown_is_missing_except_where_the_table_codes_it():
    df = pd.DataFrame({"Diabetes": ["Unknown", "Yes", "No", "n/a"],
                       "Smoking": ["Unknown", "Yes", "No", "Previously"],
                       "Age": [1, 2, 3, 4]})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert X[0, 0] == 0 and np.isnan(X[3, 0])
    assert np.isnan(X[0, 1]) and X[3, 1] == 3


def test_values_not_in_the_table_become_missing_and_are_reported():
    df = pd.DataFrame({"Marital Status": ["Single", "Divorced", "Divorced", "Married"],
                       "Age": [30, 40, 50, 60]})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert np.isnan(X[1, 0]) and np.isnan(X[2, 0])
    (u,) = enc.report_.unknown_values
    assert u["column"] == "Marital Status" and u["count"] == 2 and u["examples"] == ["Divorced"]
    assert "Divorced" in str(enc.report_)


def test_inferred_tables_roles_and_overrides():
    df = pd.DataFrame({"pid": [f"P{i}" for i in range(40)],
                       "Blood group": ["A", "B", "AB", "O"] * 10,
                       "Note": [f"free text {i}" for i in range(40)],
                       "HbA1c": np.linspace(4, 9, 40), "y": ["a", "b"] * 20})
    enc = Encoder(id_column="pid", label_column="y")
    X = enc.fit_transform(df)
    assert enc.roles_ == {"pid": "id", "Blood group": "categorical", "Note": "ignore",
                          "HbA1c": "numeric", "y": "label"}
    assert enc.table_.levels("Blood group") == {"A": 1, "AB": 2, "B": 3, "O": 4}
    assert list(enc.get_feature_names_out()) == ["Blood group", "HbA1c"]
    assert X.shape == (40, 2)
    enc2 = Encoder(id_column="pid", roles={"HbA1c": "ignore"}).fit(df)
    assert "HbA1c" not in enc2.feature_names_out_
    with pytest.raises(DataError, match="not one of"):
        Encoder(roles={"HbA1c": "banana"}).fit(df)


def test_encoding_table_round_trips_csv_and_json_and_edits():
    t = EncodingTable.paper()
    assert EncodingTable.from_csv(t.to_csv()).to_dict() == t.to_dict()
    assert EncodingTable.from_json(t.to_json()).to_dict() == t.to_dict()
    edited = t.to_frame()
    edited.loc[edited.value == "Widowed", "code"] = 9
    df = pd.DataFrame({"Marital Status": ["Widowed", "Single", "Married"], "Age": [1, 2, 3]})
    X = Encoder(encoding_table=edited).fit_transform(df)
    assert X[0, 0] == 9
    with pytest.raises(DataError, match="not a number"):
        EncodingTable.from_frame(pd.DataFrame({"column": ["a"], "value": ["b"],
                                               "code": ["x"]}))


def test_preprocessing_filters_and_report():
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5.0], "a_copy": [1, 2, 3, 4, 5.0],
                       "const": [7] * 5, "empty": [""] * 5,
                       "b": [1, np.nan, np.nan, np.nan, 2.0], "c": [5, 4, 3, 2, 1.0]})
    enc = Encoder(max_patient_missing=0.1)
    X = enc.fit_transform(df)
    assert enc.feature_names_out_ == ["a", "b", "c"]
    reasons = {d["column"]: d["reason"] for d in enc.report_.dropped_columns}
    assert "copy of 'a'" in reasons["a_copy"]
    assert reasons["const"].startswith("the same value")
    assert reasons["empty"] == "no values"
    assert X.shape == (5, 3)
    assert enc.keep_patients_.tolist() == [True, False, False, False, True]
    assert [p["row"] for p in enc.report_.patients_dropped] == [3, 4, 5]


# ---------------------------------------------------------------- reading CSV files
def _csv(text: str, encoding="utf-8") -> bytes:
    return text.encode(encoding)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_delimiters_are_detected(sep):
    text = sep.join(["id", "Age", "Smoking"]) + "\n" + sep.join(["P1", "30", "Yes"]) + "\n" \
        + sep.join(["P2", "41", "No"]) + "\n"
    df = read_table(_csv(text))
    assert list(df.columns) == ["id", "Age", "Smoking"] and len(df) == 2


def test_bom_and_latin1():
    df = read_table(b"\xef\xbb\xbfid,Name\n1,Jos\xc3\xa9\n2,Ann\n")
    assert list(df.columns) == ["id", "Name"] and df.Name[0] == "José"
    df = read_table("id,Name\n1,José\n2,Ann\n".encode("latin-1"))
    assert df.Name[0] == "José"


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (b"PK\x03\x04\x00\x00binary", "not a CSV"),
    (b"a,b,a\n1,2,3\n", "Duplicate column"),
    (b"a,b\n", "no patient rows"),
    (b"a,b\n1,2\n3,4,5,6\n", "line 3"),
    (b"a,,c\n1,2,3\n", "no name"),
])
def test_bad_files_give_clear_messages(data, message):
    with pytest.raises(DataError, match=message):
        read_table(data)


def test_one_row_file_reads_and_blocks_training():
    df = read_table(b"id,Age,Outcome\nP1,30,low\n")
    enc = Encoder(id_column="id", label_column="Outcome").fit(df)
    assert not enc.report_.ok
    assert any("at least 3" in b for b in enc.report_.blocking)


def test_duplicate_ids_single_class_and_missing_labels():
    df = pd.DataFrame({"id": ["a", "b", "a"], "x": [1, 2, 3], "y": ["p", "q", "p"]})
    with pytest.raises(DataError, match="Duplicate patient ID 'a'"):
        Encoder(id_column="id").fit(df)
    df = pd.DataFrame({"id": list("abcd"), "x": [1, 2, 3, 4], "y": ["p", "p", "p", ""]})
    enc = Encoder(id_column="id", label_column="y").fit(df)
    text = str(enc.report_)
    assert "1 class" in text and "no outcome" in text
    assert enc.training_rows(df).tolist() == [True, True, True, False]


def test_numeric_column_with_stray_text():
    df = pd.DataFrame({"crp": ["1.5", "12,5", "<0.1", "n/a", "high", "3", "4", "5", "6", "7"]})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.roles_["crp"] == "numeric"
    assert X[1, 0] == 12.5
    assert np.isnan(X[2, 0]) and np.isnan(X[3, 0]) and np.isnan(X[4, 0])
    text = str(enc.report_)
    assert "'high'" in text and "<0.1" in text and "decimal comma" in text
    assert "line" in text  # the CSV line is named


def test_infinities_become_missing_and_are_reported():
    df = pd.DataFrame({"x": ["1", "inf", "-Infinity", "2"], "z": [1.0, np.inf, 2, 3]})
    enc = Encoder(max_patient_missing=None)
    X = enc.fit_transform(df)
    assert np.isnan(X[1, 0]) and np.isnan(X[2, 0]) and np.isnan(X[1, 1])
    assert "infinite" in str(enc.report_)


def test_transform_aligns_columns_and_reports_mismatch():
    df = pd.DataFrame({"Age": [30, 40, 50], "BMI": [20, 25, 30.0], "Smoking": ["Yes", "No", "No"]})
    enc = Encoder().fit(df)
    new = pd.DataFrame({"age ": [35], "Smoking": ["Previously"], "Extra": [1]})
    X, rep = enc.transform_with_report(new)
    assert X.shape == (1, 3)
    assert X[0, 0] == 35 and np.isnan(X[0, 1]) and X[0, 2] == 3
    np.testing.assert_array_equal(enc.transform(new), X)
    assert not hasattr(enc, "transform_report_")  # transform writes nothing on the encoder
    assert any("BMI" in w for w in rep.warnings)
    assert any("Extra" in n for n in rep.notes)


def test_large_file_streams_in_reasonable_memory(tmp_path):
    rng = np.random.default_rng(0)
    n, m = 200_000, 52  # ~100 MB of CSV text
    block = pd.DataFrame(rng.normal(size=(n // 10, m)).round(6),
                         columns=[f"c{j}" for j in range(m)])
    path = tmp_path / "big.csv"
    with open(path, "w") as fh:
        block.to_csv(fh, index=False)
        for _ in range(9):
            block.to_csv(fh, index=False, header=False)
    assert path.stat().st_size > 95_000_000
    df = read_table(path)
    assert df.shape == (n, m)


# ---------------------------------------------------------------- property-based
cells = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True),
                  st.integers(-10**6, 10**6), st.text(max_size=8),
                  st.sampled_from(["Yes", "No", "Unknown", "n/a", "12,5", "<0.1", "", " "]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data_frames([column("Smoking", elements=cells), column("Age", elements=cells),
                    column("Religion", elements=cells), column("free", elements=cells)]))
def test_random_tables_encode_or_raise_data_error(df):
    try:
        X = Encoder(max_patient_missing=None).fit_transform(df)
    except DataError as exc:
        assert str(exc)
        return
    assert X.dtype == float and X.shape[0] == len(df)
    assert not np.isinf(X).any()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_read_or_raise_data_error(blob):
    try:
        df = read_table(io.BytesIO(blob))
    except DataError as exc:
        assert str(exc)
        return
    assert isinstance(df, pd.DataFrame) and len(df) >= 1


def test_pipeline_on_the_raw_sample_csv(small_csv):
    from sklearn.pipeline import make_pipeline

    from sparge import SparGE

    df = read_table(small_csv)
    y = df["Outcome"]
    pipe = make_pipeline(Encoder(id_column="Subject ID", label_column="Outcome",
                                 max_patient_missing=None),
                         SparGE(max_iter=1, random_state=0)).fit(df, y)
    Y = pipe.transform(df.drop(columns=["Outcome"]).iloc[:5])
    assert Y.shape == (5, pipe[-1].projection_.shape[1])
    assert np.isfinite(Y).all()
    assert 0 <= pipe[-1].score(pipe[0].transform(df), y) <= 1
