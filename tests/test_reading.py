"""Reading CSV files safely (issue 10.1, 10.7 reading side, and the "Also weak" list)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparge import DataError, Encoder, read_table
from sparge.data.encoding import DEFAULT_MAX_READ_MEMORY, estimate_read_memory


# ---------------------------------------------------------------- ragged rows (10.1)
def test_trailing_delimiter_does_not_shift_columns():
    df = read_table(b"id,age,sbp\nP1,40,120,\n")
    assert list(df.columns) == ["id", "age", "sbp"]
    assert df.iloc[0].tolist() == ["P1", "40", "120"]
    assert df.index.tolist() == [0]
    notes = df.attrs["sparge_read_notes"]
    assert any("trailing delimiter" in n and "line 2" in n for n in notes)
    enc = Encoder(id_column="id", max_patient_missing=None).fit(
        read_table(b"id,age,sbp\nP1,40,120,\nP2,50,130,\nP3,60,140,\n"))
    assert enc.ids(read_table(b"id,age,sbp\nP1,40,120,\n")).tolist() == ["P1"]
    assert any("trailing delimiter" in n for n in enc.report_.notes)


def test_some_rows_with_a_trailing_delimiter_others_without():
    df = read_table(b"id,age,sbp\nP1,40,120,\nP2,41,121\nP3,42,122,,\n")
    assert df.to_dict("list") == {"id": ["P1", "P2", "P3"], "age": ["40", "41", "42"],
                                  "sbp": ["120", "121", "122"]}


def test_every_line_with_a_trailing_delimiter_header_included():
    df = read_table(b"id;age;sbp;\nP1;40;120;\nP2;50;130;\n")
    assert df.to_dict("list") == {"id": ["P1", "P2"], "age": ["40", "50"],
                                  "sbp": ["120", "130"]}
    assert any("unnamed column" in n for n in df.attrs["sparge_read_notes"])


def test_extra_values_are_refused_with_line_numbers_and_field_counts():
    rows = ["P0,1,2"] + [f"P{i},1,2,{i}" for i in range(1, 8)]
    data = ("id,age,sbp\n" + "\n".join(rows) + "\n").encode()
    with pytest.raises(DataError) as err:
        read_table(data)
    msg = str(err.value)
    assert "7 row(s)" in msg and "3 columns" in msg
    for line in (3, 4, 5, 6, 7):
        assert f"line {line} has 4" in msg
    assert "line 8 " not in msg and "line 9 " not in msg  # at most 5 lines named


def test_one_extra_value_is_refused_not_shifted():
    with pytest.raises(DataError, match=r"line 2 has 4 fields"):
        read_table(b"id,age,sbp\nP1,40,120,99\n")


def test_short_rows_are_padded_with_missing_and_noted():
    df = read_table(b"id,age,sbp\nP1,40\nP2,50,130\n")
    assert df.to_dict("list") == {"id": ["P1", "P2"], "age": ["40", "50"], "sbp": ["", "130"]}
    assert any("fewer fields" in n and "line 2 has 2" in n
               for n in df.attrs["sparge_read_notes"])
    X = Encoder(id_column="id", max_patient_missing=None).fit_transform(
        read_table(b"id,age,sbp\nP1,40\nP2,50,130\nP3,60,140\n"))
    assert np.isnan(X[0, 1]) and X[0, 0] == 40


def test_blank_and_delimiter_only_rows_are_skipped():
    df = read_table(b"id,age\nP1,40\n\n,\nP2,50\n")
    assert df["id"].tolist() == ["P1", "P2"]


def test_quoted_fields_with_delimiters_and_newlines():
    df = read_table(b'id,note,age\nP1,"a, b",40\nP2,"two\nlines",50,\n')
    assert df.to_dict("list") == {"id": ["P1", "P2"], "note": ["a, b", "two\nlines"],
                                  "age": ["40", "50"]}


def test_first_column_is_never_the_index():
    df = read_table(b"id,age\nP1,40\nP2,50\n")
    assert df.index.tolist() == [0, 1] and df["id"].tolist() == ["P1", "P2"]


# ---------------------------------------------------------------- text encodings
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_excel_unicode_text(encoding):
    text = "Subject ID\tName\tAge\r\nP1\tJosé\t40\r\nP2\tZoë\t50\r\n"
    data = text.encode(encoding)  # Excel writes a BOM ("utf-16"); BOM-less is read too
    df = read_table(data)
    assert list(df.columns) == ["Subject ID", "Name", "Age"]
    assert df["Name"].tolist() == ["José", "Zoë"] and df["Age"].tolist() == ["40", "50"]


def test_utf8_and_latin1_still_read():
    assert read_table("id,Name\n1,José\n2,Ann\n".encode())["Name"][0] == "José"
    assert read_table("id,Name\n1,José\n2,Ann\n".encode("latin-1"))["Name"][0] == "José"


def test_binary_still_refused():
    with pytest.raises(DataError, match="binary"):
        read_table(b"PK\x03\x04\x00\x00\x01\x02\x00\x00binary junk \xff\x00\xfe")


# ---------------------------------------------------------------- long cells
def test_a_5mb_cell_is_truncated_in_every_message():
    big = "x" * (5 * 1024**2)
    rows = "\n".join(f"P{i},{40 + i},Single" for i in range(1, 20))
    data = f"id,age,Marital Status\n{rows}\nP20,{big},{big}\n".encode()
    df = read_table(data)
    assert len(df.loc[19, "age"]) == len(big)
    enc = Encoder(id_column="id", max_patient_missing=None)
    enc.fit(df)
    text = str(enc.report_)
    assert len(text) < 5000
    assert max(len(line) for line in text.splitlines()) < 1000
    for item in enc.report_.stray_text + enc.report_.unknown_values:
        assert all(len(e) <= 200 for e in item["examples"])
    _, rep = enc.transform_with_report(df.iloc[[19]])
    assert len(str(rep)) < 5000


def test_a_5mb_duplicate_id_is_truncated_in_the_error():
    big = "P" * (5 * 1024**2)
    df = pd.DataFrame({"id": [big, big, "x"], "age": ["1", "2", "3"]})
    with pytest.raises(DataError) as err:
        Encoder(id_column="id").fit(df)
    assert len(str(err.value)) < 1000


# ---------------------------------------------------------------- numbers
def test_mostly_text_column_with_numbers_codes_numbers_numerically():
    vals = ["10", "2", "1", "none seen", "few", "many", "20"] * 10
    df = pd.DataFrame({"Count": vals, "Age": np.arange(len(vals))})
    enc = Encoder(max_patient_missing=None)
    enc.fit(df)
    assert enc.roles_["Count"] == "categorical"
    levels = enc.table_.levels("Count")
    assert levels["1"] < levels["2"] < levels["10"] < levels["20"]


def test_thousands_dot_decimal_comma_column_reads_as_numbers():
    vals = ["1.234,5", "987,25", "12.345,0", "1.000", "3,5"]
    df = read_table(("id;Cost\n" + "\n".join(f"P{i};{v}" for i, v in enumerate(vals))
                     + "\n").encode())
    enc = Encoder(id_column="id", max_patient_missing=None)
    X = enc.fit_transform(df)
    assert enc.roles_["Cost"] == "numeric"
    np.testing.assert_allclose(X[:, 0], [1234.5, 987.25, 12345.0, 1000.0, 3.5])
    assert any("thousands" in n and "Cost" in n for n in enc.report_.notes)


def test_space_thousands_separator():
    vals = ["1 234,5", "2 000", "12", "1 000 000,25"]
    df = pd.DataFrame({"Cost": vals, "Age": [1, 2, 3, 4]})
    X = Encoder(max_patient_missing=None).fit_transform(df)
    np.testing.assert_allclose(X[:, 0], [1234.5, 2000, 12, 1000000.25])


def test_dot_decimals_are_not_taken_for_thousands():
    df = pd.DataFrame({"x": ["1.234", "2.5", "1.234,5", "3"], "y": [1, 2, 3, 4]})
    X = Encoder(max_patient_missing=None).fit_transform(df)
    assert X[0, 0] == 1.234 and X[1, 0] == 2.5 and np.isnan(X[2, 0])


# ---------------------------------------------------------------- memory guard (10.7)
def test_estimate_read_memory_is_about_ten_times_the_file():
    assert estimate_read_memory(0) > 0
    assert estimate_read_memory(100 * 1024**2) == pytest.approx(10 * 100 * 1024**2, rel=0.1)
    assert estimate_read_memory(2 * 10**6) > estimate_read_memory(10**6)


def test_too_large_input_is_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:  # a sparse 1 GB file: reading it would take seconds
        fh.write(b"id,age\n")
        fh.truncate(1024**3)
    start = time.perf_counter()
    with pytest.raises(DataError) as err:
        read_table(path, max_memory=2 * 1024**3)
    assert time.perf_counter() - start < 1.0
    msg = str(err.value)
    assert "limit of 2.0 GB" in msg and "sample" in msg and "fewer columns" in msg
    assert "command line" in msg


def test_max_memory_applies_to_uploads_and_can_be_lifted():
    data = b"id,age\n" + b"".join(f"P{i},{i}\n".encode() for i in range(1000))
    with pytest.raises(DataError, match="more than the limit"):
        read_table(data, max_memory=estimate_read_memory(len(data)) - 1)
    assert len(read_table(data, max_memory=None)) == 1000
    assert len(read_table(data)) == 1000
    assert DEFAULT_MAX_READ_MEMORY == 4 * 1024**3


# ---------------------------------------------------------------- property-based
@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=',;\t"\n\r ab1.\x00é', max_size=120),
       st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_csv_like_text_reads_or_raises_data_error(text, encoding):
    try:
        df = read_table(text.encode(encoding, errors="ignore"))
    except DataError as exc:
        assert str(exc)
        return
    assert len(df) >= 1 and df.index.tolist() == list(range(len(df)))
    assert all(isinstance(c, str) and c for c in df.columns)


def test_short_and_long_columns_parse_the_same():
    """A one-patient query takes the plain-Python path; it must read cells exactly as the
    pandas path does for a whole cohort."""
    import numpy as np
    import pandas as pd

    from sparge.data.encoding import _SMALL_COLUMN, parse_numeric

    cells = ["12", " 3.5 ", "", "NA", "1e3", "-2", "+.5", "12,5", "<0.1", "inf", "abc",
             "1.234,5", "1 234,5", "1e999", "None", "7.", "nan", "?"]
    short = pd.Series(cells, dtype=object)
    long = pd.Series(cells * (_SMALL_COLUMN // len(cells) + 2), dtype=object)
    assert len(short) <= _SMALL_COLUMN < len(long)
    a, ia = parse_numeric(short)
    b, ib = parse_numeric(long)
    np.testing.assert_array_equal(a, b[: len(cells)])
    for key in ("bad", "censored", "infinite"):
        assert [c for c in ia[key]] == [c for c in ib[key] if c[0] < len(cells)]
