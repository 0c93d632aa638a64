"""Encoding tables with missing tokens and order flags; old files and models still load;
a fitted Encoder is never written by transform (issue 10.2)."""

from __future__ import annotations

import json
import sys
import threading

import numpy as np
import pandas as pd
import pytest
from conftest import SAMPLES

from sparge import DataError, Encoder, EncodingTable, load_model, read_table
from sparge.data.tables import DEFAULT_MISSING_TOKENS, PAPER_TABLE, natural_key, scale_of
from sparge.services.workflow import encode_new_patients


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
    assert enc.report_.unknown_values[0]["examples"] == ["n/a"]  # not a token any more
    assert enc.report_.stray_text[0]["examples"] == ["NA"]


def test_custom_tokens_decide_what_is_missing():
    table = EncodingTable(missing_tokens=["", "not done", "none"])
    df = pd.DataFrame({"CRP": ["1.0", "not done", "n/a", "2", "3", "4", "5", "6"],
                       "Age": ["1", "2", "3", "4", "5", "6", "7", "8"]})
    enc = Encoder(encoding_table=table, max_patient_missing=None)
    X = enc.fit_transform(df)
    assert np.isnan(X[1, 0]) and np.isnan(X[2, 0])
    assert enc.report_.missing_tokens["CRP"] == {"not done": 1}
    assert enc.report_.stray_text[0]["examples"] == ["n/a"]


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
    assert sorted(["10", "9", "Stage 10", "Stage 9", "b", "a"], key=natural_key) == \
        ["9", "10", "a", "b", "Stage 9", "Stage 10"]


# ---------------------------------------------------------------- encoder state
def _old_format(state: dict) -> dict:
    """An encoder state as versions before the missing tokens saved it."""
    return {k: v for k, v in state.items()
            if k not in ("ordered", "missing_tokens", "column_missing_tokens")}


def test_encoder_state_round_trip_and_old_format():
    df = pd.DataFrame({"Albuminuria": ["None", "Micro", "Macro", "N/A"] * 5,
                       "LDL": ["1", "2", "not done", "4"] * 5,
                       "Stage": ["A", "B", "C", "B"] * 5})
    table = EncodingTable({"Stage": {"A": 1, "B": 2, "C": 3}},
                          missing_tokens=["", "N/A", "not done"], ordered={"Stage": True})
    enc = Encoder(encoding_table=table, max_patient_missing=None).fit(df)
    state = json.loads(json.dumps(enc.to_dict()))
    back = Encoder.from_dict(state)
    np.testing.assert_array_equal(back.transform(df), enc.transform(df))
    assert back.table_.is_ordered("Stage") and back.table_.missing_keys() == \
        {"", "n/a", "not done"}
    old = Encoder.from_dict(_old_format(state))  # saved by an older version
    assert old.table_.missing_keys() == DEFAULT_MISSING_TOKENS
    assert old.table_.levels("Albuminuria") == enc.table_.levels("Albuminuria")
    assert set(state["table"]["Albuminuria"]) == {"None", "Micro", "Macro"}
    with pytest.raises(ValueError):
        Encoder.from_dict({**state, "missing_tokens": "NA"})


def test_bundled_default_model_saved_by_an_older_version_still_loads():
    model, enc = load_model(SAMPLES / "default_model.sparge")
    assert enc.table_.is_ordered("Home Smoke") and not enc.table_.is_ordered("Religion")
    X, msgs = encode_new_patients(model, enc, read_table(SAMPLES / "new_patient.csv"))
    assert X.shape == (1, len(enc.feature_names_out_))
    assert np.isfinite(X.to_numpy()).sum() > 0.5 * X.shape[1]


def test_transform_writes_nothing_on_a_fitted_encoder():
    df = pd.DataFrame({"Age": ["30", "40", "50"], "Marital Status": ["Single", "Married",
                                                                     "Widowed"]})
    enc = Encoder(max_patient_missing=None).fit(df)
    before = {k: repr(v) for k, v in vars(enc).items()}
    enc.transform(pd.DataFrame({"Age": ["x"], "Marital Status": ["Divorced"]}))
    enc.transform_with_report(pd.DataFrame({"Age": ["y"], "Other": ["1"]}))
    assert {k: repr(v) for k, v in vars(enc).items()} == before


def test_two_threads_sharing_one_encoder_never_see_each_others_values():
    df = pd.DataFrame({"Age": [str(a) for a in range(30, 60)],
                       "BMI": [str(20 + a % 7) for a in range(30)],
                       "Marital Status": ["Single", "Married", "Widowed"] * 10})
    enc = Encoder(max_patient_missing=None).fit(df)
    leaks: list[str] = []
    errors: list[BaseException] = []

    def query(tag: str, other: str) -> None:
        try:
            for i in range(300):
                new = pd.DataFrame({"Age": [f"{tag}-age-{i}"], "BMI": ["25"],
                                    "Marital Status": [f"{tag}-status-{i}"]})
                _, msgs = encode_new_patients(None, enc, new)
                text = " ".join(msgs)
                if other in text or f"{tag}-age-{i}" not in text:
                    leaks.append(f"{tag} {i}: {text[:200]}")
        except BaseException as exc:  # noqa: BLE001 - surfaced below
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=query, args=("alpha", "beta")),
                   threading.Thread(target=query, args=("beta", "alpha"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors
    assert not leaks, leaks[:3]
