"""The validation report: its records, its plain text and its JSON form."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder, ValidationReport
from sparge.data.report import DroppedColumn, DroppedPatient, StrayText, UnknownValues


def _report(**changes) -> ValidationReport:
    """A report with something in every section."""
    fields = dict(
        n_rows=12, n_columns=5,
        roles={"id": "id", "y": "label", "Age": "numeric", "CRP": "numeric",
               "Stage": "categorical"},
        missing_pct={"Age": 0.0, "CRP": 25.0, "Stage": 10.0},
        unknown_values=[UnknownValues("Stage", 2, ["E", "F"])],
        stray_text=[StrayText("CRP", 1, [4], ["high"], "expected numbers; set to missing.")],
        dropped_columns=[DroppedColumn("Const", "the same value for every patient")],
        patients_dropped=[DroppedPatient(row=5, id="P4", missing_pct=66.66)],
        label_column="y", label_balance={"a": 6, "b": 5}, n_features=3,
        warnings=["check this"], notes=["a note"], missing_tokens={"CRP": {"NA": 2}},
        unordered_columns=["Stage"])
    fields.update(changes)
    return ValidationReport(**fields)


EXPECTED_TEXT = """\
Read 12 patients × 5 columns; 3 features go to the model.
  patient ID: id
  outcome: y
  numbers (2 columns): Age, CRP
  categories: Stage
Missing values: 11.7% on average; most missing: CRP (25%), Stage (10%)
Read as missing (besides empty cells): CRP: 'NA' ×2.
Unordered categories (their codes are labels, not an order; edit the codes in the encoding \
table to order them): Stage.
Outcome 'y' among the 11 patients kept for training: a: 6, b: 5
Column 'Stage': 2 value(s) not in the encoding table were set to missing, e.g. 'E', 'F'.
Column 'CRP' is numeric but 1 cell(s) hold text, e.g. 'high': expected numbers; set to \
missing.
Column 'Const' was dropped: the same value for every patient.
Left out of training for missing too many values, e.g. P4 (CSV line 5, 67% missing).
Note: a note
Warning: check this
Nothing blocks training."""


def test_text_names_every_section_in_order():
    assert str(_report()) == EXPECTED_TEXT


def test_an_outcome_of_many_answers_lists_eight():
    """Walk-through 100b: "Hosp No" chosen as the outcome listed its 470 IDs in one line."""
    text = str(_report(label_balance={f"RX{i}": 1 for i in range(470)}))
    line = next(t for t in text.splitlines() if t.startswith("Outcome"))
    assert line.endswith("RX7: 1 … (+462 more)") and "RX8:" not in line


def test_a_table_without_gaps_says_so():
    text = str(_report(missing_pct={"Age": 0.0, "CRP": 0.0}))
    assert "Missing values: 0.0% on average; no gaps in any feature." in text


def test_problems_block_training_and_end_the_text():
    rep = _report(blocking=["only 2 patient(s) left to train on"])
    assert not rep.ok and _report().ok
    lines = str(rep).splitlines()
    assert lines[-1] == "PROBLEM: only 2 patient(s) left to train on"
    assert "Nothing blocks training." not in lines


def test_json_form_keeps_the_record_keys():
    state = json.loads(json.dumps(_report().to_dict()))
    assert state["unknown_values"] == [{"column": "Stage", "count": 2,
                                        "examples": ["E", "F"], "rows": []}]
    assert state["stray_text"] == [{"column": "CRP", "count": 1, "rows": [4],
                                    "examples": ["high"],
                                    "hint": "expected numbers; set to missing."}]
    assert state["dropped_columns"] == [{"column": "Const",
                                         "reason": "the same value for every patient"}]
    assert state["patients_dropped"] == [{"row": 5, "id": "P4", "missing_pct": 66.66,
                                          "trains": True}]
    assert list(state) == [f.name for f in dataclasses.fields(ValidationReport)]


def test_records_are_frozen():
    record = DroppedColumn("a", "no values")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.reason = "other"  # type: ignore[misc]
    assert record == DroppedColumn(column="a", reason="no values")


def test_user_text_is_one_short_line_in_the_text():
    evil = "col\n\x1b[31mred" + "x" * 5000
    rep = _report(dropped_columns=[DroppedColumn(evil, "no values")],
                  unknown_values=[UnknownValues(evil, 1, [evil])], notes=[evil])
    text = str(rep)
    assert "\x1b" not in text
    assert max(len(line) for line in text.splitlines()) < 1100
    assert len(text.splitlines()) == len(EXPECTED_TEXT.splitlines())


def test_long_lists_are_cut_with_a_count():
    roles = {f"c{i}": "numeric" for i in range(16)}
    text = str(ValidationReport(roles=roles, unordered_columns=list(roles)))
    assert "numbers (16 columns): c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11 … (+4)" in text
    assert "c7 … (+8)." in text
    # twelve are all named (a thirteenth would be cut)
    text = str(ValidationReport(roles={f"c{i}": "numeric" for i in range(12)}))
    assert "c11" in text and "(+" not in text


def test_the_encoder_fills_the_records():
    df = pd.DataFrame({"id": [f"P{i}" for i in range(6)],
                       "Marital Status": ["Single", "Divorced", "Married", "Single", "", ""],
                       "crp": ["1", "high", "3", "4", "5", ""],
                       "const": ["7"] * 6, "copy": ["1", "high", "3", "4", "5", ""]})
    # the user's table for the column (a built-in one knowing 3 of 4 answers would give
    # way to levels read from the file)
    rep = Encoder(id_column="id", max_patient_missing=0.4,
                  encoding_table={"Marital Status": {"Single": 1, "Married": 2}}
                  ).fit(df).report_
    assert rep.unknown_values == [UnknownValues("Marital Status", 1, ["Divorced"], [3])]
    assert [s.column for s in rep.stray_text] == ["crp", "copy"]
    stray = rep.stray_text[0]
    assert (stray.column, stray.count, stray.rows, stray.examples) == ("crp", 1, [3], ["high"])
    assert rep.dropped_columns == [
        DroppedColumn("const", "the same value for every patient ('7')"),
        DroppedColumn("copy", "an exact copy of 'crp' (merged)")]
    assert rep.patients_dropped == [DroppedPatient(row=3, id="P1", missing_pct=100.0),
                                    DroppedPatient(row=6, id="P4", missing_pct=50.0),
                                    DroppedPatient(row=7, id="P5", missing_pct=100.0)]


def test_patients_left_out_of_a_table_without_ids_are_named_by_their_line():
    """Walk-through 17: without an ID column the report read "e.g. 0 (row 2, 25% missing),
    1 (row 3 …)", the row index looking like a value; walk-through 34 read "patient 1"
    where the map names the patient "line 3"."""
    X = np.random.default_rng(0).normal(size=(30, 6))
    X[:2, 0] = np.nan
    df = pd.DataFrame(X, columns=list("abcdef")).assign(y=["p", "q"] * 15)
    text = str(Encoder(label_column="y").fit(df).report_)
    assert "e.g. line 2 (16.7% missing), line 3 (16.7% missing)." in text


def test_a_dropped_column_is_not_also_listed_under_its_role():
    """Walk-through 18: a one-answer outcome (no outcome column set) was listed among the
    categories and, lines below, "was dropped"."""
    df = pd.DataFrame({"id": [f"P{i}" for i in range(30)], "age": np.arange(30.0),
                       "sex": ["F", "M"] * 15, "outcome": ["stable"] * 30})
    text = str(Encoder(id_column="id").fit(df).report_)
    roles = text.split("\n")[1:4]
    assert not any("outcome" in line for line in roles), roles
    assert "Column 'outcome' was dropped" in text


def test_notes_on_how_cells_were_read_are_folded_below_the_losses():
    """Walk-through 99: the Data page's report was 5,700 px tall, the cells set to
    missing among 15 notes on spellings and units."""
    from sparge.data.report import folded_notes, report_lines

    read = [f"Column 'c{i}': 10 cell(s) in 'L' converted to 'mL'." for i in range(7)]
    lost = "Column 'Hb': 3 cells (e.g. 'haemolysed') were set to missing."
    lines = report_lines(str(_report(notes=[*read[:3], lost, *read[3:]])))
    shown, folded = folded_notes(lines)
    assert folded == [f"Note: {r}" for r in read] and f"Note: {lost}" in shown
    assert [line for line in shown if line.startswith("Warning")] == ["Warning: check this"]
    assert shown + folded != lines and sorted(shown + folded) == sorted(lines)
    # a few notes stay where they are
    assert folded_notes(report_lines(str(_report())), shown=5) == \
        (report_lines(str(_report())), [])
