"""Encoding tables: the paper's table, missing tokens and order flags, CSV and JSON files old
and new, scales and natural order."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from helpers import SAMPLES

from sparge import DataError, Encoder, EncodingTable
from sparge.data.tables import (
    DEFAULT_MISSING_TOKENS,
    PAPER_TABLE,
    natural_key,
    scale_codes,
    scale_of,
)

PAPER_ROWS = [(col, level, code) for col, levels in PAPER_TABLE.items()
              for level, code in levels.items()]


# ---------------------------------------------------------------- the paper's table
def test_paper_table_has_every_level_of_design():
    t = EncodingTable.paper()
    assert t.lookup("Home Smoke", "Always") == 4
    assert t.lookup("coffee weekly", ">= 1 cup a week but <= 1 cup a day") == 3
    assert t.lookup("DIABETES", "unknown") == 0
    assert len(PAPER_ROWS) == 2 + 3 + 7 + 5 * 3 + 2 * 3 + 2 * 4 + 4 * 2 + 2 * 4


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


# ---------------------------------------------------------------- tokens and order flags
def test_default_tokens_and_paper_order_flags():
    t = EncodingTable.paper()
    assert {k.lower() for k in t.missing_tokens} == set(DEFAULT_MISSING_TOKENS)
    for col in ("Home Smoke", "Work Smoke", "Diabetes", "Alcohol"):
        assert t.is_ordered(col), col
    for col in ("Religion", "Marital Status", "Smoking", "Coffee Weekly"):
        assert not t.is_ordered(col), col


def test_csv_round_trip_keeps_tokens_order_and_levels():
    t = EncodingTable({"Albuminuria": {"None": 1, "Micro": 2, "Macro": 3},
                       "Stage": {"A": 1, "B": 2, "C": 3}},
                      missing_tokens=["NA", "not done"], ordered={"Stage": True})
    t.set_missing_tokens(["ND"], column="Albuminuria")
    for back in (EncodingTable.from_csv(t.to_csv()), EncodingTable.from_json(t.to_json())):
        assert back.to_state() == t.to_state()
        assert back.is_ordered("Stage") and back.is_ordered("Albuminuria")
        assert back.missing_keys("Albuminuria") == {"na", "not done", "nd"}
        assert back.missing_keys("Stage") == {"na", "not done"}
    frame = t.to_frame()
    assert list(frame.columns) == ["column", "value", "code", "ordered"]
    assert frame.loc[frame.column == "*", "value"].tolist() == ["NA", "not done"]


def test_editing_the_frame_reorders_and_sets_tokens():
    t = EncodingTable({"Stage": {"A": 1, "B": 2, "C": 3}})
    assert not t.is_ordered("Stage")
    f = t.to_frame()
    f.loc[f.column == "Stage", "ordered"] = True
    f.loc[(f.column == "Stage") & (f.value == "A"), "code"] = 4
    f = f[f.column != "*"]
    f = pd.concat([f, pd.DataFrame([{"column": "*", "value": "", "code": None,
                                     "ordered": False}])], ignore_index=True)
    back = EncodingTable.from_frame(f)
    assert back.levels("Stage") == {"A": 4, "B": 2, "C": 3} and back.is_ordered("Stage")
    assert back.missing_keys() == {""}  # only empty cells are missing now
    df = pd.DataFrame({"Stage": ["A", "B", "n/a", "C", "A", "B"],
                       "LDL": ["1", "NA", "2", "3", "4", "5"]})
    enc = Encoder(encoding_table=back, max_patient_missing=None)
    X = enc.fit_transform(df)
    assert X[0, 0] == 4 and np.isnan(X[2, 0])
    assert enc.report_.unknown_values[0].examples == ["n/a"]  # not a token any more
    assert enc.report_.stray_text[0].examples == ["NA"]


def test_custom_tokens_decide_what_is_missing():
    table = EncodingTable(missing_tokens=["", "not done", "none"])
    df = pd.DataFrame({"CRP": ["1.0", "not done", "n/a", "2", "3", "4", "5", "6"],
                       "Age": ["1", "2", "3", "4", "5", "6", "7", "8"]})
    enc = Encoder(encoding_table=table, max_patient_missing=None)
    X = enc.fit_transform(df)
    assert np.isnan(X[1, 0]) and np.isnan(X[2, 0])
    assert enc.report_.missing_tokens["CRP"] == {"not done": 1}
    assert enc.report_.stray_text[0].examples == ["n/a"]


def test_old_csv_and_json_tables_load_with_default_tokens():
    old_csv = "column,value,code\nMarital Status,Single,1\nMarital Status,Married,2\n" \
              "Home Smoke,Never,1\nHome Smoke,Always,4\n"
    t = EncodingTable.from_csv(old_csv)
    assert t.levels("Marital Status") == {"Single": 1, "Married": 2}
    assert t.missing_keys() == DEFAULT_MISSING_TOKENS and t.is_ordered("Home Smoke")
    old_json = json.dumps({"Marital Status": {"Single": 1, "Married": 2}})
    assert EncodingTable.from_json(old_json).to_dict() == {"Marital Status":
                                                           {"Single": 1, "Married": 2}}
    shipped = EncodingTable.from_csv(str(SAMPLES / "encoding_table.csv"))
    assert shipped.to_dict() == PAPER_TABLE


def test_bad_table_files_give_clear_messages():
    with pytest.raises(DataError, match="ordered"):
        EncodingTable.from_csv("column,value,code,ordered\nA,x,1,maybe\n")
    with pytest.raises(DataError, match="missing_tokens"):
        EncodingTable.from_json(json.dumps({"format": "sparge-encoding-table",
                                            "columns": {}, "missing_tokens": "NA"}))
    with pytest.raises(DataError, match="not a number"):
        EncodingTable.from_csv("column,value,code\nA,x,one\n")


def test_scales_and_natural_order_helpers():
    assert scale_of(["none", "MICRO", " Macro "]) == "albuminuria"
    assert scale_of(["Mild", "Moderate"]) == "severity"
    assert scale_of(["Low", "Moderate", "High"]) == "low/medium/high"
    assert scale_of(["A", "B"]) is None
    # graded findings: absent < possible < definite, not alphabetical
    assert scale_of(["Absent", "definite", "possible"]) == "certainty"
    codes = scale_codes(["definite", "possible", "absent"], "certainty")
    assert codes["absent"] < codes["possible"] < codes["definite"]
    assert sorted(["10", "9", "Stage 10", "Stage 9", "b", "a"], key=natural_key) == \
        ["9", "10", "a", "b", "Stage 9", "Stage 10"]


def test_merged_levels_follow_chains_and_keep_the_order_flag():
    table = EncodingTable({"NYHA": {"1": 1, "2": 2, "3": 3, "iii": 4, "NYHA III": 5},
                           "Sex": {"F": 1, "Female": 2}})
    table.set_ordered("NYHA", True)
    merged = table.with_merged_levels({"NYHA": [("NYHA III", "iii"), ("iii", "3")],
                                       "Sex": [("f", "FEMALE")], "Absent": [("a", "b")]})
    assert merged.levels("NYHA") == {"1": 1, "2": 2, "3": 3, "iii": 3, "NYHA III": 3}
    assert merged.levels("Sex") == {"F": 2, "Female": 2}  # matched like cells
    assert merged.is_ordered("NYHA")
    assert table.levels("Sex") == {"F": 1, "Female": 2}  # a copy: the table is unchanged
    # a loop of pairs ends
    loop = table.with_merged_levels({"Sex": [("F", "Female"), ("Female", "F")]})
    assert set(loop.levels("Sex").values()) <= {1, 2}


def test_one_and_zero_beside_yes_and_no_are_yes_and_no():
    """Walk-through 23: a column written yes/Y/1/true coded its 1 and 0 apart from yes and
    no until the user merged them."""
    from sparge.data.tables import yes_no_codes

    assert yes_no_codes(["yes", "Y", "1", "true", "no", "0", "N", "unknown"]) == {
        "yes": 1, "Y": 1, "1": 1, "true": 1, "no": 2, "0": 2, "N": 2, "unknown": 0}
    assert yes_no_codes(["1", "0"]) is None  # numbers alone are not yes and no
    assert yes_no_codes(["Yes", "No", "present", "Absent"]) == {  # walk-through 24
        "Yes": 1, "No": 2, "present": 1, "Absent": 2}
    assert yes_no_codes(["present", "absent"]) is None  # a column of its own words
    enc = Encoder().fit(pd.DataFrame({"ACEi": ["yes", "no", "1", "0"] * 10,
                                      "Age": np.arange(40.0)}))
    codes = enc.table_.levels("ACEi")
    assert codes["1"] == codes["yes"] and codes["0"] == codes["no"]
    assert enc.report_.answers_two_ways == {}


def test_a_long_cell_is_normalised_as_a_short_one_is():
    """A pasted note (longer than LONG_KEY) is normalised once and kept; its key is the one
    the short cells' rule gives."""
    import re

    from sparge.data.parsing import loose_key
    from sparge.data.tables import LONG_KEY, norm_key

    note = ("  Seen in  CLINIC.\tPlan: re-test_in 3 months.  " * 200)[:LONG_KEY * 5]
    assert len(note) > LONG_KEY
    want = re.sub(r"\s+", " ", note).strip().lower()
    assert norm_key(note) == want and norm_key(note) == want  # the second from the cache
    assert loose_key(want) == re.sub(r"[\s\-_.]+", "", want)
    assert norm_key(note[:50]) == re.sub(r"\s+", " ", note[:50]).strip().lower()
