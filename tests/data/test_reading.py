"""Reading CSV files safely: delimiters, text encodings, ragged rows, bad files, the memory
guard (issue 10.1, 10.7 reading side, and the "Also weak" list)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sparge import DataError, Encoder, read_table
from sparge.data.reading import DEFAULT_MAX_READ_MEMORY, estimate_read_memory


# ---------------------------------------------------------------- delimiters and bad files
def _csv(text: str, encoding="utf-8") -> bytes:
    return text.encode(encoding)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_delimiters_are_detected(sep):
    text = sep.join(["id", "Age", "Smoking"]) + "\n" + sep.join(["P1", "30", "Yes"]) + "\n" \
        + sep.join(["P2", "41", "No"]) + "\n"
    df = read_table(_csv(text))
    assert list(df.columns) == ["id", "Age", "Smoking"] and len(df) == 2


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
def test_bom_and_latin1():
    df = read_table(b"\xef\xbb\xbfid,Name\n1,Jos\xc3\xa9\n2,Ann\n")
    assert list(df.columns) == ["id", "Name"] and df.Name[0] == "José"
    df = read_table("id,Name\n1,José\n2,Ann\n".encode("latin-1"))
    assert df.Name[0] == "José"


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
        assert all(len(e) <= 200 for e in item.examples)
    _, rep = enc.transform_with_report(df.iloc[[19]])
    assert len(str(rep)) < 5000


# ---------------------------------------------------------------- memory guard (10.7)
def test_estimate_read_memory_is_about_ten_times_the_file():
    assert estimate_read_memory(0) > 0
    assert estimate_read_memory(100 * 1024**2) == pytest.approx(10 * 100 * 1024**2, rel=0.1)
    assert estimate_read_memory(2 * 10**6) > estimate_read_memory(10**6)


def test_too_large_input_is_refused_before_parsing(tmp_path, monkeypatch):
    from sparge.data import reading

    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:  # a sparse 1 GB file: reading it would take seconds
        fh.write(b"id,age\n")
        fh.truncate(1024**3)

    def parsed(*args, **kwargs):
        raise AssertionError("the file was read before it was refused")

    monkeypatch.setattr(reading, "_detect_encoding", parsed)
    monkeypatch.setattr(reading, "_scan_rows", parsed)
    with pytest.raises(DataError) as err:
        read_table(path, max_memory=2 * 1024**3)
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


def test_large_file_streams_in_reasonable_memory(tmp_path):
    rng = np.random.default_rng(0)
    n, m = 200_000, 52  # ~100 MB of CSV text
    block = pd.DataFrame(rng.normal(size=(n // 10, m)).round(6),
                         columns=[f"c{j}" for j in range(m)])
    path = tmp_path / "big.csv"
    head, _, rows = block.to_csv(index=False).partition("\n")
    path.write_text(head + "\n" + rows * 10)  # one block's text, ten times
    assert path.stat().st_size > 95_000_000
    df = read_table(path)
    assert df.shape == (n, m)


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


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_read_or_raise_data_error(blob):
    try:
        df = read_table(io.BytesIO(blob))
    except DataError as exc:
        assert str(exc)
        return
    assert isinstance(df, pd.DataFrame) and len(df) >= 1
