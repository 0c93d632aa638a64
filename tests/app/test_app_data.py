"""The Data page, headless, with streamlit.testing.v1.AppTest: uploads, setup, the
report's one-click repairs, roles (the other pages: ``test_app.py``)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
from app_support import NARROW, SMALL, start, texts
from streamlit.testing.v1 import AppTest

from sparge import read_table
from sparge.services.workflow import train


def test_upload_a_csv_and_encode_it():
    at = start("pages/data.py")
    before = at.session_state["cohort"]
    at.file_uploader(key="data_upload").set_value(("small.csv", NARROW, "text/csv")).run()
    # guessed, shown for confirmation, with a preview of the first rows
    assert at.selectbox(key="setup_id").value == "Subject ID"
    assert at.selectbox(key="setup_label").value == "Outcome"
    # its name in full (a select box cuts a long one at 800 px) and its answers
    assert "Outcome 'Outcome': low 30 · medium 19 · high 11." in \
        [c.value.replace("\\", "") for c in at.caption]
    preview = at.dataframe[0].value
    assert len(preview) == 10 and "Subject ID" in preview.columns
    at.slider(key="setup_missing").set_value(50)
    at.button(key="setup_go").click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    assert cohort is not before and len(cohort.df) == 60
    assert cohort.encoder.max_patient_missing == 0.5
    assert "small.csv" in at.session_state["cohort_name"]
    assert any("Table encoded" in s.value for s in at.success)


def test_the_missing_values_tab_draws_only_when_opened():
    """The map of missing values (up to 400 x 300 cells) and its two charts were drawn,
    and sent, on every click on the Data page while another tab was shown."""
    at = start("pages/data.py")
    assert not at.get("plotly_chart")  # the report tab is open
    at.session_state["data_tabs"] = "Missing values"
    at.run()
    assert not at.exception
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert len(charts) == 3
    heat = [t for t in charts[0]["data"] if t["type"] == "heatmap"]
    assert {t["name"] for t in heat} <= {"given", "does not apply", "missing"}
    assert charts[0]["layout"]["title"]["text"].startswith("Missing values")


def test_an_upload_sets_a_one_patient_outcome_aside_untouched():
    """Walk-through 18: a single "ESKD" patient dropped the forest part and stopped the
    held-out check; untouched, a new table's setup sets such an outcome aside and the
    report says so; unticked, the report names it."""
    df = pd.read_csv(io.BytesIO(NARROW))
    df.loc[0, "Outcome"] = "ESKD"
    blob = df.to_csv(index=False).encode()
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(("rare.csv", blob, "text/csv")).run()
    assert at.checkbox(key="setup_rare").value is True
    at.button(key="setup_go").click().run()
    assert not at.exception
    assert at.session_state["cohort"].encoder.rare_outcomes_ == {"ESKD": 1}
    assert any("'ESKD' (1 patient) set aside" in t.value for t in at.text)
    at.checkbox(key="setup_rare").uncheck()
    at.button(key="setup_go").click().run()
    assert at.session_state["cohort"].encoder.rare_outcomes_ == {}
    assert at.checkbox(key="setup_rare").value is False  # the current table's own setting
    assert "'ESKD' (1 patient) has fewer than 3 patients" in texts(at)


def test_a_measurement_chosen_as_the_outcome_is_made_yes_or_no_in_one_click():
    """Walk-through 100 trained on "Donor Age" as 61 outcomes: the page now says it is a
    measurement and adds "<name> ≥ <threshold>" as the outcome, the measurement left out."""
    df = pd.read_csv(io.BytesIO(NARROW))
    rng = np.random.default_rng(0)
    df["Donor Age"] = rng.integers(18, 75, len(df)).astype(str)
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("donors.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.selectbox(key="setup_label").set_value("Donor Age").run()
    assert any("is a measurement with many values" in w.value for w in at.warning)
    cut = [n for n in at.number_input if n.key.startswith("outcome_cut_")][0]
    cut.set_value(50).run()
    at.button(key="outcome_cut_use").click().run()
    assert not at.exception
    assert at.selectbox(key="setup_label").value == "Donor Age ≥ 50"
    at.slider(key="setup_missing").set_value(50)
    at.button(key="setup_go").click().run()
    cohort = at.session_state["cohort"]
    assert cohort.encoder.label_column == "Donor Age ≥ 50"
    assert cohort.encoder.roles_["Donor Age"] == "ignore"
    ages = pd.to_numeric(df["Donor Age"])
    assert (np.asarray(cohort.labels) == np.where(ages >= 50, "Yes", "No")).all()


def _encoded_with(name: str, **columns) -> tuple[AppTest, pd.DataFrame]:
    """The Data page after encoding the narrow sample with ``columns`` added (each a list
    of answers, repeated to the sample's length), at a 50 % missing-values threshold, and
    the table uploaded."""
    df = pd.read_csv(io.BytesIO(NARROW))
    df = pd.concat([df, pd.DataFrame({c: (v * len(df))[:len(df)]
                                      for c, v in columns.items()})], axis=1)
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        (name, df.to_csv(index=False).encode(), "text/csv")).run()
    at.slider(key="setup_missing").set_value(50)
    at.button(key="setup_go").click().run()
    return at, df


def test_a_pair_kept_apart_is_not_merged():
    """Walk-through 48: the 55 pairs offered were merged all or none; a pair that is no
    one answer written two ways is kept apart in the list, and the rest merge."""
    at, _ = _encoded_with("referral.csv",
                          Referral=["Cardio", "Cardiology", "Neuro", "Neurology"])
    assert at.session_state["cohort"].encoder.report_.answers_two_ways["Referral"] == [
        ["Cardio", "Cardiology"], ["Neuro", "Neurology"]]
    apart = next(m for m in at.multiselect if m.key.startswith("merge_apart_"))
    assert "Referral: 'Neuro' into 'Neurology'" in apart.options
    apart.set_value(["Referral: 'Neuro' into 'Neurology'"]).run()
    assert not at.exception
    assert at.button(key="merge_two_ways").label == \
        "Merge 1 pair that may be one answer written two ways (1 kept apart)"
    listed = next(d.value for d in at.dataframe if "Merged into" in d.value.columns)
    assert listed["Answer"].tolist() == ["Cardio"]
    at.button(key="merge_two_ways").click().run()
    assert not at.exception
    levels = at.session_state["cohort"].encoder.table_.levels("Referral")
    assert levels["Cardio"] == levels["Cardiology"] and levels["Neuro"] != levels["Neurology"]
    # the pair kept apart stays so: not offered to merge again (walk-through 49)
    apart = next(m for m in at.multiselect if m.key.startswith("merge_apart_"))
    assert apart.value == ["Referral: 'Neuro' into 'Neurology'"]
    button = at.button(key="merge_two_ways")
    assert button.label.startswith("No pair left to merge (1 kept apart") and button.disabled


def test_a_conditions_types_are_offered_but_start_kept_apart():
    """Walk-throughs 90 and 91: "Type 1" and "Type 2" were merged into "Yes" in one click,
    and the model lost the type. They are offered (walk-through 56 asked for that), kept
    apart until the user takes them off the list; the other pairs merge; the buttons say
    which pairs they act on (walk-through 91 read two "6 pairs" buttons)."""
    at, _ = _encoded_with("diabetes.csv",
                          **{"Diabetes status": ["No", "Type 1", "Type 2", "Yes", "T2DM",
                                                 "Type 2"]},
                          Sex=["F", "Female", "M", "Male"],
                          Referral=["Cardio", "Cardiology", "Neuro", "Neurology"])
    enc = at.session_state["cohort"].encoder
    assert enc.report_.answers_two_ways["Diabetes status"] == [["Type 1", "Yes"], ["Type 2", "Yes"]]
    apart = next(m for m in at.multiselect if m.key.startswith("merge_apart_"))
    assert apart.value == ["Diabetes status: 'Type 1' into 'Yes'",
                           "Diabetes status: 'Type 2' into 'Yes'"]
    assert any("could no longer tell the types apart" in c.value for c in at.caption)
    merge = at.button(key="merge_two_ways")
    assert merge.label == "Merge 2 more pairs that may be one answer written two ways " \
                          "(2 kept apart)"
    assert at.button(key="keep_spellings_apart").label.startswith("Keep apart the 3 pairs")
    merge.click().run()
    assert not at.exception, [e.value for e in at.exception]
    levels = at.session_state["cohort"].encoder.table_.levels("Diabetes status")
    assert len({levels["Type 1"], levels["Type 2"], levels["Yes"]}) == 3
    assert levels["T2DM"] == levels["Type 2"]
    levels = at.session_state["cohort"].encoder.table_.levels("Referral")
    assert levels["Cardio"] == levels["Cardiology"]
    # taken off the list, they merge
    apart = next(m for m in at.multiselect if m.key.startswith("merge_apart_"))
    apart.set_value([]).run()
    at.button(key="merge_two_ways").click().run()
    assert not at.exception
    levels = at.session_state["cohort"].encoder.table_.levels("Diabetes status")
    assert levels["Type 1"] == levels["Type 2"] == levels["Yes"]


def test_one_answer_written_two_ways_is_merged_by_default_and_kept_apart_in_one_click():
    """Walk-through 78: "F" and "Female" were offered for merging, the busy user skipped
    the offer, and a woman's look-alikes were those written like her. In a Sex column they
    are one answer beyond doubt: merged by default, said, and kept apart in one click."""
    at, _ = _encoded_with("sex.csv", Sex=["F", "Female", "M", "Male"])
    enc = at.session_state["cohort"].encoder
    assert enc.merged_spellings_ == {"Sex": [["F", "Female"], ["M", "Male"]]}
    assert "Sex" not in enc.report_.answers_two_ways
    levels = enc.table_.levels("Sex")
    assert levels["F"] == levels["Female"] == 1 and levels["M"] == levels["Male"] == 2
    assert any("'Sex' 'F' as 'Female', 'M' as 'Male'" in n for n in enc.report_.notes)
    button = at.button(key="keep_spellings_apart")
    assert button.label.replace("\\", "") == \
        "Keep apart the 2 pairs read as one answer by default (in 'Sex')"
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    enc = at.session_state["cohort"].encoder
    assert enc.merge_spellings is False and enc.merged_spellings_ == {}
    assert enc.report_.answers_two_ways["Sex"] == [["F", "Female"], ["M", "Male"]]
    assert any("Answers kept apart in" in s.value for s in at.success)
    assert not any(b.key == "keep_spellings_apart" for b in at.button)


def test_empty_register_cells_are_read_as_no_in_one_click():
    """Walk-through 48: a GP register's yes/no columns left empty for "not on the
    register" were gaps; one click reads them as No, and says so."""
    at, _ = _encoded_with("gp.csv", **{"Asthma register": ["Yes", "No", "", "No", "No"]})
    button = at.button(key="blank_as_no")
    assert button.label.startswith("Read empty cells as No in ")
    button.click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    j = cohort.features.index("Asthma register")
    assert not np.isnan(cohort.X[:, j]).any()
    assert "Asthma register" in cohort.encoder.blank_as_no
    assert any("Empty cells read as No in " in s.value for s in at.success)
    assert not any(b.key == "blank_as_no" for b in at.button)


def test_answers_written_two_ways_are_merged_in_one_click():
    """Walk-through 21: answers written two ways (Sex F/Female/M/Male) had to be merged
    by editing codes one by one on the Encoding table tab. A Sex column's are merged by
    default now (the test above); a specialty's abbreviations are merged in one click."""
    at, df = _encoded_with("specialty.csv",
                           Specialty=["Cardio", "Cardiology", "Neuro", "Neurology", "Resp"],
                           Sex=["F", "Female", "M", "Male"])
    assert any("written two ways" in w.value for w in at.warning)
    pairs = at.session_state["cohort"].encoder.report_.answers_two_ways
    assert pairs == {"Specialty": [["Cardio", "Cardiology"], ["Neuro", "Neurology"]]}
    # every pair the button merges is listed beside it (walk-through 40: the warning was
    # cut before 10 of 39 pairs)
    listed = next(d.value for d in at.dataframe if "Merged into" in d.value.columns)
    assert len(listed) == sum(len(p) for p in pairs.values())
    row = listed[listed["Answer"] == "Cardio"].iloc[0]
    assert (row["Column"], row["Merged into"], row["Patients"]) == (
        "Specialty", "Cardiology", (df["Specialty"] == "Cardio").sum())
    at.button(key="merge_two_ways").click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    # each pair's "Shown as" is the word the pages show once merged (walk-through 43)
    from sparge.services.display import answers_by_code
    assert set(listed["Shown as"]) <= set(answers_by_code(cohort.encoder,
                                                          "Specialty").values())
    j = cohort.features.index("Specialty")
    assert len(np.unique(cohort.X[:, j][np.isfinite(cohort.X[:, j])])) == 3
    assert cohort.encoder.report_.answers_two_ways == {}
    assert not any("written two ways" in w.value for w in at.warning)
    said = next(s.value for s in at.success if "pairs of answers merged" in s.value)
    # what was merged stays visible once the warning that listed it is gone
    assert "'Specialty' 2 (e.g. 'Cardio' as 'Cardiology')" in said.replace("\\", "")
    # the same file uploaded again keeps the merge unless asked not to (walk-through 25:
    # it was silently undone, and a model trained on the merged codes misplaced patients)
    data = df.to_csv(index=False).encode()
    at.file_uploader(key="data_upload_1").set_value(("specialty.csv", data, "text/csv")).run()
    keep = next(c for c in at.checkbox if c.key.startswith("setup_keep_"))
    assert keep.value and "answers merged" in keep.label
    at.button(key="setup_go").click().run()
    assert len(np.unique(at.session_state["cohort"].X[:, j][
        np.isfinite(at.session_state["cohort"].X[:, j])])) == 3
    # and says so once encoded (walk-through 44 saw it only in the ticked box)
    assert any("choices made for the previous table were kept" in i.value
               and "answers merged" in i.value for i in at.info)
    at.file_uploader(key="data_upload_2").set_value(("specialty.csv", data, "text/csv")).run()
    next(c for c in at.checkbox if c.key.startswith("setup_keep_")).uncheck().run()
    at.button(key="setup_go").click().run()
    assert any("written two ways" in w.value for w in at.warning)


def test_values_far_from_their_column_are_listed_and_set_to_missing_on_request():
    """Walk-through 21: a sodium of 1380 went unremarked, and its patient became a new
    patient's top look-alike."""
    df = pd.read_csv(io.BytesIO(NARROW))
    # far but possible (an age of 450 is impossible, set to missing without a click)
    col = "APB Steps (day)"
    df[col] = df[col].astype(float)
    df.loc[4, col] = df[col].median() * 10  # a slipped decimal point
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("far.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.slider(key="setup_missing").set_value(50)
    at.button(key="setup_go").click().run()
    assert any("far from the rest of" in w.value and "CSV line 6" in w.value
               for w in at.warning)
    cohort = at.session_state["cohort"]
    j = cohort.features.index(col)
    assert cohort.X[4, j] > 200 and not cohort.clear_far
    at.button(key="far_values").click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    assert np.isnan(cohort.X[4, j]) and cohort.clear_far
    assert any("set to missing for training" in i.value and "CSV line 6" in i.value
               for i in at.info)
    assert not any("far from the rest of" in w.value for w in at.warning)
    # kept through another encoding of the same table, and undone on request
    at.button(key="setup_go").click().run()
    assert at.session_state["cohort"].clear_far
    at.button(key="far_values").click().run()
    assert at.session_state["cohort"].X[4, j] > 200


def test_values_in_another_unit_are_converted_and_the_click_uses_them_as_given():
    """Walk-through 68: haemoglobins in g/dL among g/L were used as g/L until a click.
    They are converted when encoded; the page's click uses them as given, and a second
    encoding of the table keeps that choice."""
    df = pd.read_csv(io.BytesIO(NARROW))
    rng = np.random.default_rng(3)
    hb = np.round(rng.normal(128, 14, len(df)))
    cells = [f"{v:.0f}" for v in hb]
    slips = np.arange(0, len(df), 7)[:8]
    for i in slips:
        cells[i] = f"{hb[i] / 10:.1f}"
    df["Hb (g/L)"] = cells
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("hb.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.slider(key="setup_missing").set_value(50)
    at.button(key="setup_go").click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    j = cohort.features.index("Hb (g/L)")
    np.testing.assert_allclose(cohort.X[slips, j], hb[slips], atol=0.51)
    button = at.button(key="far_values")
    assert button.label == ("Undo the 8 conversions from a probable other unit (use the "
                            "values as written)")
    button.click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    np.testing.assert_allclose(cohort.X[slips, j], hb[slips] / 10, atol=0.051)
    at.button(key="setup_go").click().run()
    assert not at.session_state["cohort"].encoder.convert_slips


def test_an_id_column_with_repeats_is_questioned_before_encoding():
    """Walk-through 26 chose the repeated 'Patient ID' and learned it from the refusal."""
    rows = ["Patient ID,Age,Outcome"] + [f"P{i % 18},{40 + i},{'yes' if i % 3 else 'no'}"
                                          for i in range(20)]
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("dup.csv", "\n".join(rows).encode(), "text/csv")).run()
    at.selectbox(key="setup_id").set_value("Patient ID").run()
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'Patient ID' cannot be the patient ID: 2 IDs repeat: 'P0' on CSV lines 2, 20" \
        in said and "Encoding will stop" in said


def test_a_wrong_upload_can_be_cancelled():
    """A walk-through uploaded another table by mistake: removing the file did not cancel
    the pending setup, which stayed for good. Cancel keeps the current table, empties the
    uploader, and the same file can be chosen again."""
    at = start("pages/data.py")
    before, name = at.session_state["cohort"], at.session_state["cohort_name"]
    at.file_uploader(key="data_upload").set_value(("wrong.csv", NARROW, "text/csv")).run()
    assert at.session_state["pending"] is not None
    at.button(key="setup_cancel").click().run()
    assert not at.exception
    assert at.session_state["pending"] is None and at.session_state["cohort"] is before
    assert at.session_state["cohort_name"] == name
    assert any("wrong.csv was not encoded" in i.value.replace("\\", "") for i in at.info)
    assert not any(b.key == "setup_cancel" for b in at.button)
    at.file_uploader(key="data_upload_1").set_value(("wrong.csv", NARROW, "text/csv")).run()
    assert at.session_state["pending"]["name"] == "wrong.csv"


def test_a_table_with_few_columns_starts_just_above_one_gap():
    """8 feature columns: one gap is 12.5 % of a patient's values, so the setup starts at
    13 % and a patient with one gap stays in training (the paper's 10 % left half of a
    GBSG2-like cohort out); a second gap still leaves a patient out."""
    from sparge.services.workflow import default_missing_threshold

    assert default_missing_threshold(8) == 13 and default_missing_threshold(467) == 10
    assert default_missing_threshold(3) == 34 and default_missing_threshold(0) == 10
    rows = ["pid,a,b,c,d,e,f,g,h,outcome"]
    for i in range(40):
        vals = [str((i * 7 + j) % 11) for j in range(8)]
        if i % 4 == 1:
            vals[i % 8] = ""  # one gap
        if i % 4 == 2:
            vals[0] = vals[1] = ""  # two gaps
        rows.append(f"P{i},{','.join(vals)},{'yes' if i % 2 else 'no'}")
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("few.csv", "\n".join(rows).encode(), "text/csv")).run()
    assert at.slider(key="setup_missing").value == 13
    at.button(key="setup_go").click().run()
    cohort = at.session_state["cohort"]
    assert len(cohort.train_rows) == 30  # only the ten patients with two gaps left out


def test_the_threshold_counts_only_the_columns_the_model_uses():
    """A walk-through's export had 11 input columns, 3 of them left out by the encoder
    (follow-up, a date, notes): counted, they set 10 % and one gap in the 8 features left
    half of the patients out."""
    from sparge.data.encoder import guess_feature_count

    rows = ["pid,a,b,c,d,e,f,g,h,Follow-up (days),Date of visit,Clinician note,outcome"]
    for i in range(40):
        vals = [str((i * 7 + j) % 11) for j in range(8)]
        if i % 2:
            vals[i % 8] = ""  # one gap in half of the patients
        rows.append(f"P{i},{','.join(vals)},{100 + i},2020-01-{1 + i % 28:02d},"
                    f"Seen in clinic {i % 5}.,{'yes' if i % 2 else 'no'}")
    data = "\n".join(rows).encode()
    assert guess_feature_count(read_table(data), "pid", "outcome") == 8
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(("export.csv", data, "text/csv")).run()
    assert at.slider(key="setup_missing").value == 13
    at.button(key="setup_go").click().run()
    assert not at.exception
    assert len(at.session_state["cohort"].train_rows) == 40


def test_an_outcome_with_a_single_answer_is_named():
    """A survivors-only export ("Died before discharge" all "No") was encoded without an
    outcome, and only a dropped-column line said anything about it."""
    rows = ["pid,a,b,c,Died before discharge"]
    rows += [f"P{i},{i % 7},{(i * 3) % 5},{i % 4},No" for i in range(30)]
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("survivors.csv", "\n".join(rows).encode(), "text/csv")).run()
    assert at.selectbox(key="setup_label").value == "(none)"
    at.button(key="setup_go").click().run()
    assert not at.exception
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'Died before discharge' looks like the outcome but holds one answer ('No')" \
        in said


def test_setup_stays_editable_and_re_encodes():
    """Issue 9.6: after encoding, the controls stay and re-encode; the same file uploaded
    again is set up again."""
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(("small.csv", SMALL, "text/csv")).run()
    at.button(key="setup_go").click().run()
    first = at.session_state["cohort"]
    assert first.encoder.label_column == "Outcome"
    # the controls are still there, holding the current table's settings
    assert at.selectbox(key="setup_label").value == "Outcome"
    at.selectbox(key="setup_label").set_value("(none)").run()
    assert any("looks like an outcome" in w.value for w in at.warning)
    at.slider(key="setup_missing").set_value(40)
    at.button(key="setup_go").click().run()
    second = at.session_state["cohort"]
    assert second is not first and second.labels is None
    assert second.encoder.max_patient_missing == 0.4
    assert second.encoder.roles_["Outcome"] != "label"
    # the report says the outcome-like column is now a feature
    assert any("Outcome" in w.value and "input feature" in w.value for w in at.warning)
    # re-uploading the same file sets it up again (guesses back); the uploader was renewed
    assert [u.key for u in at.file_uploader] == ["data_upload_1"]
    at.file_uploader(key="data_upload_1").set_value(("small.csv", SMALL, "text/csv")).run()
    assert at.selectbox(key="setup_label").value == "Outcome"
    assert any("Set up the new table" in h.value for h in at.subheader)
    assert at.slider(key="setup_missing").value == 40  # the chosen threshold is kept


def test_the_sidebar_says_when_the_model_was_not_trained_on_the_data(small_cohort):
    fresh = start()
    assert not any("not trained on this data" in c.value for c in fresh.sidebar.caption)
    at = start("pages/data.py", cohort=small_cohort, cohort_name="small")
    assert any("not trained on this data" in c.value for c in at.sidebar.caption)
    # the model's own table encoded another way (walk-through 26: a re-upload without the
    # merge read "not trained on this data"); Explore shows the model's values only
    from sparge.data.encoder import EncodingTable
    from sparge.services.workflow import cohort_patients, encode_again

    model = train(small_cohort, {"max_iter": 1})
    table = small_cohort.encoder.table_.to_frame()
    smoking = table["column"] == "Smoking"
    table.loc[smoking, "code"] = table.loc[smoking, "code"].map({1: 2, 2: 1, 3: 3})
    recoded = encode_again(small_cohort, encoding_table=EncodingTable.from_frame(table))
    at = start("pages/explore.py", cohort=recoded, cohort_name="small", model=model,
               model_encoder=small_cohort.encoder, model_name="trained on small",
               model_token="t")
    side = " ".join(c.value for c in at.sidebar.caption)
    assert "encoded differently from this model's training" in side
    assert "not trained on this data" not in side
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'Smoking' differs" in said, said
    index = cohort_patients(model, recoded)
    assert not index.compatible and index.in_training.all()
    assert "only the model's training patients are shown" in index.message


def test_report_threshold_and_label_role_are_applied(small_cohort):
    at = start("pages/data.py", cohort=small_cohort, cohort_name="small")
    dropped = len(small_cohort.encoder.report_.patients_dropped)
    assert dropped > 0
    assert not [sl for sl in at.slider if sl.key == "report_missing"]  # one control only
    at.slider(key="setup_missing").set_value(100)
    at.button(key="setup_go").click().run()
    cohort = at.session_state["cohort"]
    assert len(cohort.train_rows) == len(cohort.df)
    # a "label" role makes a column the outcome
    roles = at.data_editor(key="roles_editor").value
    i, target = next((i, c) for i, (c, r) in enumerate(zip(roles["column"], roles["role"]))
                     if r == "categorical" and c != "Outcome")
    at.session_state["roles_editor"] = {"edited_rows": {i: {"role": "label"}},
                                        "added_rows": [], "deleted_rows": []}
    at.button(key="apply_roles").click().run()
    assert not at.exception, [e.value for e in at.exception]
    enc = at.session_state["cohort"].encoder
    assert enc.label_column == target
    assert enc.roles_["Outcome"] == "ignore"  # the old outcome is not silently a feature
    assert any("no longer the outcome" in w.value for w in at.warning)


@pytest.mark.parametrize("blob, message", [
    (b"", "empty"),
    (b"\x00\x01\x02binary", "not a CSV"),
    (b"a,b,a\n1,2,3\n", "Duplicate column"),
    (b"a;b\n", "no patient rows"),
])
def test_bad_uploads_give_messages_and_keep_the_data(blob, message):
    at = start("pages/data.py")
    name_before = at.session_state["cohort_name"]
    at.file_uploader(key="data_upload").set_value(("bad.csv", blob, "text/csv")).run()
    assert not at.exception
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert at.session_state["cohort_name"] == name_before


def test_data_page_tabs_render_report_roles_table_and_missingness(small_cohort):
    at = start("pages/data.py", cohort=small_cohort, cohort_name="small")
    assert any("Read 60 patients" in t.value for t in at.text)  # report lines: plain text
    assert len(at.data_editor) >= 2  # roles and encoding table editors
    assert not at.exception


def test_role_edits_turn_roles_into_encoder_arguments():
    from sparge.app.shell import role_edits
    from sparge.errors import DataError

    roles = {"id": "id", "Outcome": "label", "Event": "categorical", "Age": "numeric"}
    assert role_edits(roles, "id", "Outcome") == (
        "id", "Outcome", {"Event": "categorical", "Age": "numeric"}, [])
    # a new "label" replaces the outcome; the old one, still marked, is ignored (not a feature)
    new_id, new_label, over, notes = role_edits({**roles, "Event": "label"}, "id", "Outcome")
    assert (new_id, new_label) == ("id", "Event") and over["Outcome"] == "ignore"
    assert notes and "no longer the outcome" in notes[0]
    # the outcome given a feature role: unsupervised, and said so
    _, new_label, over, notes = role_edits({**roles, "Outcome": "categorical"}, "id", "Outcome")
    assert new_label is None and over["Outcome"] == "categorical"
    assert "input feature" in notes[0]
    with pytest.raises(DataError, match="Only one column can be the outcome"):
        role_edits({**roles, "Event": "label", "Age": "label"}, "id", "Outcome")
    # with the fitted roles, only what the user changed (or set before) is passed on: a
    # column left out by default keeps being judged, with its reason in the report
    fitted = {**roles, "Follow-up (days)": "ignore", "Notes": "ignore"}
    edited = {**fitted, "Age": "ignore"}
    _, _, over, _ = role_edits(edited, "id", "Outcome", fitted=fitted,
                               user_roles={"Event": "categorical"})
    assert over == {"Age": "ignore", "Event": "categorical"}


def test_words_that_are_values_survive_the_data_page():
    """Issue 9.2 through the app: 'None' (Albuminuria's normal value) and 'Unknown' (the
    paper's yes/no code 0) are values, scales keep their order, and the report lists what
    was read as missing."""
    import numpy as np

    rng = np.random.default_rng(3)
    n = 80
    alb = rng.choice(["None", "Micro", "Macro"], n, p=[0.75, 0.2, 0.05])
    diab = rng.choice(["Yes", "No", "Unknown"], n, p=[0.2, 0.7, 0.1])
    rows = ["PatientID,Age,SBP,Albuminuria,Diabetes,Event"]
    for i in range(n):
        sbp = "NA" if i % 9 == 0 else f"{120 + (i % 30)}"  # 'NA' in a numeric column: gap
        rows.append(f"P{i:03d},{40 + i % 40},{sbp},{alb[i]},{diab[i]},"
                    f"{'Yes' if i % 3 == 0 else 'No'}")
    blob = ("\n".join(rows) + "\n").encode()
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(("words.csv", blob, "text/csv")).run()
    assert at.selectbox(key="setup_id").value == "PatientID"
    assert at.selectbox(key="setup_label").value == "Event"
    at.button(key="setup_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    cohort = at.session_state["cohort"]
    j = cohort.features.index("Albuminuria")
    codes = dict(zip(alb, cohort.X[:, j]))
    assert codes["None"] < codes["Micro"] < codes["Macro"]  # an ordered scale, not alphabet
    assert not np.isnan(cohort.X[:, j]).any()  # 'None' is a value, not a gap
    d = cohort.features.index("Diabetes")
    assert dict(zip(diab, cohort.X[:, d])) == {"Yes": 1, "No": 2, "Unknown": 0}
    # the only gaps are the 9 true ones ('None' and 'Unknown' are values); with 4 features
    # the setup starts at 25 %, so one gap leaves nobody out of training
    assert at.slider(key="setup_missing").value == 25
    assert np.flatnonzero(np.isnan(cohort.X).any(axis=1)).tolist() == list(range(0, n, 9))
    assert len(cohort.train_rows) == n
    rep = cohort.encoder.report_
    assert rep.missing_tokens.get("SBP") == {"NA": 9}
    assert "Read as missing" in str(rep)


def test_setup_choices_survive_a_visit_to_another_page(small_cohort):
    """Streamlit drops a widget's state when its page is not drawn: coming back to Data
    showed '(none)' for the ID and outcome columns, and encoding again then made the
    outcome an input feature (browser walk-through, session 6)."""
    at = start("pages/data.py", cohort=small_cohort, cohort_name="small")
    enc = small_cohort.encoder
    assert at.selectbox(key="setup_id").value == enc.id_column
    assert at.selectbox(key="setup_label").value == enc.label_column
    at.slider(key="setup_missing").set_value(40).run()
    at.switch_page("pages/explore.py").run()
    at.switch_page("pages/data.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="setup_id").value == enc.id_column
    assert at.selectbox(key="setup_label").value == enc.label_column
    assert at.slider(key="setup_missing").value == 40  # the user's pending choice is kept
    at.button(key="setup_go").click().run()
    new = at.session_state["cohort"].encoder
    assert (new.id_column, new.label_column) == (enc.id_column, enc.label_column)
    assert new.max_patient_missing == 0.4


def test_copied_rows_are_left_out_in_one_click():
    """Walk-through 31: eight rows exported twice; the report's only advice was to fix
    the file and upload it again."""
    df = pd.read_csv(io.BytesIO(NARROW))
    df = pd.concat([df, df.iloc[[1, 2]]], ignore_index=True)
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("copies.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.slider(key="setup_missing").set_value(60)
    at.selectbox(key="setup_id").set_value("(none)")
    at.button(key="setup_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    kept = int(at.session_state["cohort"].encoder.keep_patients_.sum())
    at.button(key="leave_out_copies").click().run()
    assert not at.exception
    enc = at.session_state["cohort"].encoder
    assert enc.leave_out_copies and int(enc.keep_patients_.sum()) == kept - 2
    assert "Copies left out of training" in texts(at)
    assert at.button(key="leave_out_copies").label == "Train on the 2 copied rows again"


def test_a_re_upload_keeps_the_outcome_chosen_when_none_is_guessed():
    """Walk-through 37: the full table uploaded again after its outcome was chosen by
    hand came back with the outcome at "(none)", and encoding made it an input."""
    df = pd.read_csv(io.BytesIO(NARROW)).rename(columns={"Outcome": "Group"})
    data = df.to_csv(index=False).encode()
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(("g.csv", data, "text/csv")).run()
    assert at.selectbox(key="setup_label").value == "(none)"  # "Group" is not guessed
    at.selectbox(key="setup_label").set_value("Group").run()
    at.button(key="setup_go").click().run()
    assert at.session_state["cohort"].encoder.label_column == "Group"
    at.file_uploader(key="data_upload_1").set_value(("g.csv", data, "text/csv")).run()
    assert any("Set up the new table" in h.value for h in at.subheader)
    assert at.selectbox(key="setup_label").value == "Group"


def test_the_table_as_read_can_be_downloaded():
    at = start("pages/data.py")
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download the table as read (CSV)" in labels


def test_a_threshold_that_leaves_most_patients_out_is_raised_in_one_click():
    """Walk-through 60: 3 of 602 patients kept at the paper's 10 %; the report's "a
    threshold of 46 % keeps them all" asked for the slider and a second encoding."""
    df = pd.read_csv(io.BytesIO(NARROW))
    rng = np.random.default_rng(0)
    for k in range(3):  # three columns, each missing for two patients in three
        df[f"Extra {k}"] = np.where(rng.random(len(df)) < 0.66, np.nan,
                                    rng.normal(size=len(df)).round(2))
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("gaps.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.slider(key="setup_missing").set_value(10)
    at.button(key="setup_go").click().run()
    before = len(at.session_state["cohort"].train_rows)
    button = at.button(key="raise_threshold")
    assert button.label.startswith("Raise the threshold on missing values to ")
    button.click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    assert len(cohort.train_rows) > 2 * before
    assert 0.1 < cohort.encoder.max_patient_missing <= 0.5
    assert any("Threshold on missing values raised to " in s.value for s in at.success)
    assert at.slider(key="setup_missing").value == \
        round(100 * cohort.encoder.max_patient_missing)
    assert not any(b.key == "raise_threshold" for b in at.button)


def test_the_roles_tab_lists_every_left_out_column_with_its_whole_reason():
    """At 800 px the grid cut the 'why' of a left-out column (walk-through 63): the tab
    lists each with its reason in full under the table."""
    from sparge.services.workflow import left_out_lines, roles_frame

    at, _ = _encoded_with("left.csv", **{"Length of stay (days)": ["3", "12", "7", "30"],
                                         "Consultant": ["Dr A", "Dr B", "Dr C"]})
    assert not at.exception
    roles = roles_frame(at.session_state["cohort"].encoder)
    lines = left_out_lines(roles)
    ignored = roles[roles["role"] == "ignore"]
    assert len(lines) == len(ignored) >= 2
    assert all(line.startswith(f"{c}: ") for line, c in zip(lines, ignored["column"],
                                                              strict=True))
    assert any("known after the visit or the outcome" in line for line in lines)
    box = next(e for e in at.expander if "are left out" in e.label)
    assert box.label == f"Why {len(lines)} column(s) are left out"
    shown = box.markdown[0].value  # escaped for markdown: "Length of stay \\(days\\)"
    assert shown.startswith("- ") and shown.count("\n- ") == len(lines) - 1
    assert "Consultant\\: names the member of staff" in shown


def test_empty_cells_are_read_as_no_only_in_the_columns_chosen():
    """Walk-through 67: one button read a psoriasis column's empty cells as No with the
    drug columns whose empty cells meant No; the columns are chosen one by one."""
    at, _ = _encoded_with("gp2.csv", **{"Asthma register": ["Yes", "No", "", "No", "No"],
                                        "COPD register": ["Yes", "", "No", "No"]})
    pick = next(m for m in at.multiselect if m.key.startswith("blank_as_no_cols_"))
    assert {"Asthma register", "COPD register"} <= set(pick.value)  # all, untouched
    pick.set_value(["COPD register"]).run()
    button = at.button(key="blank_as_no")
    assert "COPD register" in button.label and "Asthma register" not in button.label
    button.click().run()
    assert not at.exception
    enc = at.session_state["cohort"].encoder
    assert list(enc.blank_as_no) == ["COPD register"]


def test_a_new_file_is_set_up_without_an_id_that_repeats_in_it_and_names_a_one_answer_outcome():
    """Walk-through 73: the next upload of a table with the same columns inherited the
    current table's "Patient ID", which repeated in it, and encoding stopped; a file
    whose outcome held one answer had another column guessed as the outcome without a
    word."""
    rows = ["Patient ID,Age,Status,Progression within 2 years"] + [
        f"P{i},{40 + i},{'Alive' if i % 3 else 'Dead'},{'Yes' if i % 2 else 'No'}"
        for i in range(20)]
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("first.csv", "\n".join(rows).encode(), "text/csv")).run()
    assert at.selectbox(key="setup_id").value == "Patient ID"
    at.selectbox(key="setup_label").set_value("Progression within 2 years").run()
    at.button(key="setup_go").click().run()
    assert not at.exception and at.session_state["cohort"].encoder.id_column == "Patient ID"
    again = ["Patient ID,Age,Status,Progression within 2 years"] + [
        f"P{i % 15},{40 + i},{'Alive' if i % 3 else 'Dead'},No" for i in range(20)]
    at.file_uploader(key="data_upload_1").set_value(
        ("second.csv", "\n".join(again).encode(), "text/csv")).run()
    assert at.selectbox(key="setup_id").value == "(none)"
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "'Progression within 2 years' looks like the outcome but holds one answer " \
           "('No') for every " \
           "patient: nothing can be learned from it, so the outcome guessed is 'Status'" \
        in said


def test_a_one_answer_outcome_counts_no_gap_word_and_no_tiny_file():
    import pandas as pd

    from sparge.data.column_guess import single_value_outcome

    df = pd.DataFrame({"Age": [50, 60, 70, 80], "Outcome": ["No", "not done", "No", ""]})
    assert single_value_outcome(df) == ("Outcome", "No")
    # one row: every column holds one answer
    assert single_value_outcome(df.head(1)) is None
