"""Every page of the Streamlit app, headless, with streamlit.testing.v1.AppTest."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from app_support import APP, shown_table, start
from helpers import SAMPLES
from streamlit.testing.v1 import AppTest

from sparge import SparGE, model_to_bytes, read_table
from sparge.services.workflow import encode_cohort, train

SMALL = (SAMPLES / "singheart_small.csv").read_bytes()


@pytest.fixture(scope="module")
def small_cohort():
    return encode_cohort(read_table(SMALL), id_column="Subject ID", label_column="Outcome")


def texts(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "success", "error", "warning",
                                  "info", "subheader", "title") for e in getattr(at, kind)]
    parts += [e.value for e in at.sidebar.caption]
    return "\n".join(str(p) for p in parts).replace("\\", "")  # Markdown escapes removed


def plotly_array(value) -> np.ndarray:
    """An array of a Plotly JSON spec (plain list or base64 typed array)."""
    if isinstance(value, dict) and "bdata" in value:
        import base64

        arr = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return arr.reshape([int(n) for n in str(shape).split(",")]) if shape else arr
    return np.asarray(value, dtype=float)


def test_first_screen_is_the_cohort_map_with_the_default_model():
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    assert not at.exception
    assert at.title[0].value == "Explore the cohort"
    assert "default model" in texts(at)
    assert len(at.get("plotly_chart")) == 1
    assert at.session_state["maps"]["umap"].coords_.shape[1] == 2
    assert not at.error


def test_selecting_a_patient_shows_lookalikes():
    at = start(selected=5)
    tables = [d.value for d in at.dataframe]
    look = next(t for t in tables if "similarity" in t.columns)
    assert len(look) == 10
    assert {"rank", "ID", "distance", "sparse_weight", "outcome"} <= set(look.columns)
    model = at.session_state["model"]
    assert model.train_ids_[5] not in set(look["ID"])  # not its own look-alike
    at.slider(key="explore_k").set_value(5).run()
    look = next(d.value for d in at.dataframe if "similarity" in d.value.columns)
    assert len(look) == 5


def test_search_by_id_and_lasso_group_summary():
    at = start()
    model = at.session_state["model"]
    at.text_input(key="explore_search").input(str(model.train_ids_[7])).run()
    assert at.session_state["selected"] == str(model.train_ids_[7])  # patients by ID
    at.text_input(key="explore_search").input("NO-SUCH-ID").run()
    assert any("No patient has the ID" in w.value for w in at.warning)
    at.session_state["lasso"] = [str(i) for i in model.train_ids_[:20]]
    at.run()
    assert "Selected group: 20 patients" in texts(at)
    assert not at.exception


def test_map_views_and_colouring():
    at = start()
    for view in at.selectbox(key="explore_view").options:
        if "UMAP" not in view:  # UMAP of a new model is slow; the bundled one is precomputed
            at.selectbox(key="explore_view").set_value(view).run()
            assert not at.exception and not at.error, view
    at.selectbox(key="explore_color").set_value("Age (years)").run()
    assert not at.exception and not at.error


def test_upload_a_csv_and_encode_it():
    at = start("pages/data.py")
    before = at.session_state["cohort"]
    at.file_uploader(key="data_upload").set_value(("small.csv", SMALL, "text/csv")).run()
    # guessed, shown for confirmation, with a preview of the first rows
    assert at.selectbox(key="setup_id").value == "Subject ID"
    assert at.selectbox(key="setup_label").value == "Outcome"
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


def test_an_upload_sets_a_one_patient_outcome_aside_untouched():
    """Walk-through 18: a single "ESKD" patient dropped the forest part and stopped the
    held-out check; untouched, a new table's setup sets such an outcome aside and the
    report says so; unticked, the report names it."""
    df = pd.read_csv(io.BytesIO(SMALL))
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


def test_answers_written_two_ways_are_merged_in_one_click():
    """Walk-through 21: NYHA class held 13 answers for 4 classes and Sex F/Female/M/Male;
    merging them meant editing codes one by one on the Encoding table tab."""
    df = pd.read_csv(io.BytesIO(SMALL))
    df = pd.concat([df, pd.DataFrame({
        "NYHA class": (["I", "1", "NYHA II", "2", "iii", "3"] * 10)[:len(df)],
        "Sex": (["F", "Female", "M", "Male"] * 15)[:len(df)]})], axis=1)
    at = start("pages/data.py")
    at.file_uploader(key="data_upload").set_value(
        ("nyha.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.slider(key="setup_missing").set_value(50)
    at.button(key="setup_go").click().run()
    assert any("written two ways" in w.value for w in at.warning)
    assert at.session_state["cohort"].encoder.report_.answers_two_ways["Sex"] == [
        ["F", "Female"], ["M", "Male"]]
    at.button(key="merge_two_ways").click().run()
    assert not at.exception
    cohort = at.session_state["cohort"]
    j = cohort.features.index("NYHA class")
    assert len(np.unique(cohort.X[:, j][np.isfinite(cohort.X[:, j])])) == 3
    # merged, the classes follow their numbers: NYHA class is ordered again
    assert cohort.encoder.table_.is_ordered("NYHA class")
    assert "NYHA class" not in cohort.encoder.report_.unordered_columns
    assert cohort.encoder.report_.answers_two_ways == {}
    assert not any("written two ways" in w.value for w in at.warning)
    said = next(s.value for s in at.success if "pairs of answers merged" in s.value)
    # what was merged stays visible once the warning that listed it is gone
    assert "'Sex' 2 (e.g. 'F' as 'Female')" in said.replace("\\", "")
    # the same file uploaded again keeps the merge unless asked not to (walk-through 25:
    # it was silently undone, and a model trained on the merged codes misplaced patients)
    data = df.to_csv(index=False).encode()
    at.file_uploader(key="data_upload_1").set_value(("nyha.csv", data, "text/csv")).run()
    keep = next(c for c in at.checkbox if c.key.startswith("setup_keep_"))
    assert keep.value and "answers merged" in keep.label
    at.button(key="setup_go").click().run()
    assert len(np.unique(at.session_state["cohort"].X[:, j][
        np.isfinite(at.session_state["cohort"].X[:, j])])) == 3
    at.file_uploader(key="data_upload_2").set_value(("nyha.csv", data, "text/csv")).run()
    next(c for c in at.checkbox if c.key.startswith("setup_keep_")).uncheck().run()
    at.button(key="setup_go").click().run()
    assert any("written two ways" in w.value for w in at.warning)


def test_values_far_from_their_column_are_listed_and_set_to_missing_on_request():
    """Walk-through 21: a sodium of 1380 went unremarked, and its patient became a new
    patient's top look-alike."""
    df = pd.read_csv(io.BytesIO(SMALL))
    col = next(c for c in df.columns if c.startswith("Age"))
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
    at.file_uploader(key="data_upload").set_value(("wrong.csv", SMALL, "text/csv")).run()
    assert at.session_state["pending"] is not None
    at.button(key="setup_cancel").click().run()
    assert not at.exception
    assert at.session_state["pending"] is None and at.session_state["cohort"] is before
    assert at.session_state["cohort_name"] == name
    assert any("wrong.csv was not encoded" in i.value.replace("\\", "") for i in at.info)
    assert not any(b.key == "setup_cancel" for b in at.button)
    at.file_uploader(key="data_upload_1").set_value(("wrong.csv", SMALL, "text/csv")).run()
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


def train_button(at):
    return next(b for b in at.button if b.label == "Train")


def test_untouched_form_trains_with_the_library_defaults(small_cohort):
    """Issue 9.1: the form starts from SparGE()'s parameters; issue 9.9: the header and the
    sidebar name the new model in the run that trained it."""
    at = start("pages/model.py", cohort=small_cohort, cohort_name="small cohort")
    # the default model's history is shown with a word that it is another table's model,
    # folded away under that word
    assert any("different tables" in w.value for w in at.warning)
    assert [e.label for e in at.expander if e.label.startswith("Its training history")]
    old = at.session_state["model_token"]
    train_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("different tables" in w.value for w in at.warning)
    assert not [e for e in at.expander if e.label.startswith("Its training history")]
    # the chart is explained in plain words: the steps, the check and the step kept
    assert any("The model keeps" in c.value or "was not refined" in c.value
               for c in at.caption)
    assert at.session_state["model_token"] != old
    assert any("Fitted in" in s.value for s in at.success)
    model = at.session_state["model"]
    assert model.embedding_.shape[0] == len(small_cohort.train_rows)
    got, want = model.get_params(), SparGE().get_params()
    for name in ("callback", "supervised"):
        got.pop(name), want.pop(name)
    assert got == want
    assert model.embedding_.shape[1] == SparGE().n_components
    assert model.supervised is True  # the table has an outcome
    header = [c.value for c in at.caption if c.value.startswith("Current model:")]
    assert header and "trained on small cohort" in header[0]
    assert "Model: trained on small cohort" in [c.value for c in at.sidebar.caption]
    # the sidebar in plain words; the technical line (rank, atoms, forest) on the page
    side = " ".join(c.value for c in at.sidebar.caption)
    assert f"{len(model.embedding_):,} training patients" in side
    assert "learned with the outcome" in side and "atoms" not in side
    assert "atoms" in header[0]
    # the stage bars leave once the model is trained (they stayed at "100%" before)
    assert not at.get("progress")
    # the model it replaced is one click away, and back again (walk-through 25 trained
    # on a wrong outcome and lost its good model)
    at.button(key="model_back").click().run()
    assert not at.exception
    assert at.session_state["model_name"].startswith("default model")
    assert any("Back to the previous model" in s.value for s in at.success)
    at.button(key="model_back").click().run()
    assert at.session_state["model"] is model


def test_training_past_the_resource_limit_asks_first(small_cohort, monkeypatch):
    """Issue 10.7: past the limit the form names it and trains only when confirmed."""
    import sparge.services.resources as resources

    monkeypatch.setattr(resources, "_M_FIXED", 1e15)  # every fit now exceeds the memory limit
    at = start("pages/model.py", cohort=small_cohort, cohort_name="small")
    token = at.session_state["model_token"]
    assert any("exceeds the limit" in w.value and "sample" in w.value for w in at.warning)
    train_button(at).click().run()
    assert at.session_state["model_token"] == token
    assert any("not started" in e.value for e in at.error)
    at.checkbox(key="train_confirm").check()
    train_button(at).click().run()
    assert not at.exception
    assert at.session_state["model_token"] != token


def test_failed_training_keeps_the_previous_model():
    one = encode_cohort(read_table(b"id,Age,Outcome\nP1,30,low\n"), id_column="id",
                        label_column="Outcome")
    at = start("pages/model.py", cohort=one, cohort_name="one row")
    token = at.session_state["model_token"]
    train_button(at).click().run()
    assert not at.exception
    assert any("Cannot train" in e.value for e in at.error)
    assert at.session_state["model_token"] == token
    assert not at.get("progress")  # no "completion: waiting" bars left behind
    # the download says the file is patient data (IDs, values, outcomes)
    assert any("patient data" in w.value for w in at.warning)


def test_model_upload_good_and_bad(small_cohort):
    model = train(small_cohort, {"max_iter": 1})
    blob = model_to_bytes(model, small_cohort.encoder)
    at = start("pages/model.py")
    token = at.session_state["model_token"]
    at.file_uploader(key="model_upload").set_value(("evil.sparge", b"\x80\x04pickle",
                                                    "application/octet-stream")).run()
    assert any("not a SparGE model" in e.value for e in at.error)
    assert at.session_state["model_token"] == token
    at.file_uploader(key="model_upload").set_value(("ok.sparge", blob,
                                                    "application/octet-stream")).run()
    assert not at.exception
    assert at.session_state["model_token"] != token
    assert at.session_state["model"].embedding_.shape == model.embedding_.shape


def test_encoding_table_editor_reorders_levels_and_shows_order(small_cohort):
    """Issue 9.6: the codes can be edited (reordering the levels); order is shown."""
    at = start("pages/data.py", cohort=small_cohort, cohort_name="small")
    frame = at.data_editor(key="table_editor").value
    assert "ordered" in frame.columns
    assert any("Unordered" in c.value for c in at.caption) or frame["ordered"].all()
    enc = small_cohort.encoder
    col = next(c for c in enc.table_.columns() if c in small_cohort.features
               and len(enc.table_.levels(c)) >= 2)
    levels = enc.table_.levels(col)
    first, second = list(levels)[:2]
    i = int(frame.index[(frame["column"] == col) & (frame["value"] == first)][0])
    j = int(frame.index[(frame["column"] == col) & (frame["value"] == second)][0])
    at.session_state["table_editor"] = {
        "edited_rows": {i: {"code": int(levels[second])}, j: {"code": int(levels[first])}},
        "added_rows": [], "deleted_rows": []}
    at.button(key="apply_table").click().run()
    assert not at.exception, [e.value for e in at.exception]
    new = at.session_state["cohort"].encoder.table_.levels(col)
    assert new[first] == levels[second] and new[second] == levels[first]


def test_an_odd_model_never_breaks_the_model_page(small_cohort):
    """Issue 10.10: odd values in a model are shown as n/a or a message; the loader above
    them still replaces the model, and the header names the loaded one at once."""
    import copy

    good = train(small_cohort, {"max_iter": 1})
    blob = model_to_bytes(good, small_cohort.encoder)
    odd = copy.copy(good)
    odd.fit_time_, odd.objective_, odd.best_iteration_ = "abc", None, float("nan")
    odd.history_ = [{"nonsense": 1}]
    at = start("pages/model.py", model=odd, model_name="odd one")
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Fit time"] == "n/a" and metrics["Final objective"] == "n/a"
    assert metrics["Dictionary kept"] == "n/a"
    assert any("training history" in e.value for e in at.error)  # the plot's failure, guarded
    at.run()  # and again on every rerun
    assert not at.exception
    at.file_uploader(key="model_upload").set_value(("good.sparge", blob,
                                                    "application/octet-stream")).run()
    assert not at.exception
    assert at.session_state["model"].fit_time_ == good.fit_time_
    header = [c.value for c in at.caption if c.value.startswith("Current model:")]
    assert "good" in header[0].replace("\\", "")
    assert any("good" in c.value for c in at.sidebar.caption)


def test_the_forms_notes_name_no_csv_line():
    """Walk-through 29 read "'>90'; CSV line 2" and "these cells (CSV line 2)" under
    values typed in the form."""
    at = start("pages/new_patient.py")
    names = at.session_state["model"].feature_names()
    at.text_input(key=f"np_f_{names.index('Age (years)')}").input("abc")
    at.text_input(key=f"np_f_{names.index('Systolic BP (mmHg)')}").input(">150")
    find(at).click().run()
    assert not at.exception
    said = texts(at) + " ".join(str(w.value) for w in at.warning)
    assert "abc" in said and ">150" in said.replace("\\", "")
    assert "CSV line" not in said


def test_new_patient_form():
    at = start("pages/new_patient.py")
    names = at.session_state["model"].feature_names()
    # an empty field says where most patients lie (a walk-through had no hint of a scale)
    age = at.text_input(key=f"np_f_{names.index('Age (years)')}")
    assert re.fullmatch(r"most \d+–\d+", age.proto.placeholder), age.proto.placeholder
    at.text_input(key=f"np_f_{names.index('Age (years)')}").input("61")
    at.selectbox(key=f"np_f_{names.index('Diabetes')}").set_value("Yes")
    find(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    look = next(d.value for d in at.dataframe if "similarity" in d.value.columns)
    assert len(look) == 10
    assert "2 of" in texts(at) or "biomarkers given" in texts(at)
    # the two values given are the first biomarkers compared (not "—" rows only)
    comp = shown_table(at, "This patient")
    assert set(comp.index[:2]) == {"Age (years)", "Diabetes"}
    assert (comp["This patient"][:2] != "—").all()
    assert not at.warning or "outside those of the patients" not in texts(at)
    # the page left and came back to (Streamlit forgets its widgets' values): the fields
    # the look-alikes were found from come back (walk-through 28 saw an empty form)
    age_key = f"np_f_{names.index('Age (years)')}"
    at.switch_page("pages/data.py").run()
    for key in [k for k in at.session_state.keys() if str(k).startswith("np_f_")]:
        del at.session_state[key]  # as the browser's session forgets them with the page
    at.switch_page("pages/new_patient.py").run()
    assert not at.exception
    assert at.text_input(key=age_key).value == "61"
    assert at.selectbox(key=f"np_f_{names.index('Diabetes')}").value == "Yes"
    # two values of 467: too few to judge how unlike the cohort the patient is
    assert "unlike the patients the model learned from" not in texts(at)
    # an age of 610 (a typo) is questioned with the training patients' range; far from
    # every training patient's, it is left out until the user says otherwise
    # (walk-through 25: as given, such values chose the look-alikes)
    at.text_input(key=f"np_f_{names.index('Age (years)')}").input("610")
    find(at).click().run()
    assert not at.exception
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "outside those of the patients" in said
    assert "Age (years) = 610 (training patients:" in said
    before = next(d.value for d in at.dataframe if "similarity" in d.value.columns)
    assert len(before) == 10
    far = at.radio(key="np_far_NEW")
    assert far.options == ["Use this value as given", "Leave this value out (as if not "
                           "measured)"] and far.value == "left out"
    comp = shown_table(at, "This patient")
    assert comp.loc["Age (years)", "This patient"] == "—"
    assert comp.loc["Diabetes", "This patient"] == "Yes"
    assert "Only 1 of 467 biomarkers is" in texts(at)
    at.radio(key="np_far_NEW").set_value("given").run()
    assert shown_table(at, "This patient").loc["Age (years)", "This patient"] == "610"
    # a glucose typed in mg/dL in a mmol/L field: its converted value in one click
    glucose = "Fasting glucose (mmol/L)"
    at.text_input(key=f"np_f_{names.index(glucose)}").input("100")
    find(at).click().run()
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "Fasting glucose (mmol/L) = 100 (training patients:" in said
    assert "in mg/dL? that would be 5.55 mmol/L" in said
    at.radio(key="np_far_NEW").set_value("converted").run()
    assert not at.exception, [e.value for e in at.exception]
    comp = shown_table(at, "This patient")
    assert comp.loc[glucose, "This patient"] == "5.55"
    assert comp.loc["Age (years)", "This patient"] == "—"  # no unit fits: left out
    at.text_input(key=f"np_f_{names.index(glucose)}").set_value("")
    # another patient (other values measured) is compared on its own biomarkers: the box
    # and the table agree (the box used to show the new defaults, the table the old list)
    at.text_input(key=f"np_f_{names.index('Age (years)')}").set_value("")
    at.selectbox(key=f"np_f_{names.index('Diabetes')}").set_value("(missing)")
    numeric = {w.key for w in at.text_input}
    hb = next(n for n in names if n not in ("Age (years)", "Diabetes")
              and f"np_f_{names.index(n)}" in numeric)
    at.text_input(key=f"np_f_{names.index(hb)}").input(
        str(float(np.nanmedian(at.session_state["model"].training_values()[hb]))))
    find(at).click().run()
    assert not at.exception
    comp = shown_table(at, "This patient")
    assert list(comp.index) == at.multiselect(key="np_features").value
    assert comp.index[0] == hb
    # a value typed with a decimal comma, or as a limit, is read as a file's cell is
    # (walk-through 26: a number field made "12,5" 125 without a word)
    at.text_input(key=f"np_f_{names.index(hb)}").input("12,5")
    at.text_input(key=f"np_f_{names.index('Age (years)')}").input(">85")
    find(at).click().run()
    assert not at.exception
    at.multiselect(key="np_features").set_value([hb, "Age (years)"]).run()
    comp = shown_table(at, "This patient")
    assert comp.loc[hb, "This patient"] == "12.5"
    assert comp.loc["Age (years)", "This patient"] == ">85 (read as 85)"
    # "Clear the form" empties every field and the last look-alikes
    at.button(key="np_clear").click().run()
    assert not at.exception
    assert at.text_input(key=f"np_f_{names.index('Age (years)')}").value == ""
    assert at.selectbox(key=f"np_f_{names.index('Diabetes')}").value == "(missing)"
    assert not [d for d in at.dataframe if "similarity" in d.value.columns]


def test_a_new_model_starts_the_new_patient_page_afresh():
    """A walk-through trained another model: the empty form re-ran the previous patient on
    it (the fields are numbered by the old model's biomarkers)."""
    at = start("pages/new_patient.py")
    names = at.session_state["model"].feature_names()
    at.text_input(key=f"np_f_{names.index('Age (years)')}").input("61")
    find(at).click().run()
    assert [d for d in at.dataframe if "similarity" in d.value.columns]
    at.session_state["model_token"] = "another model"
    at.run()
    assert not at.exception
    assert not [d for d in at.dataframe if "similarity" in d.value.columns]
    assert at.text_input(key=f"np_f_{names.index('Age (years)')}").value == ""


def find(at):
    """The New patient form's submit button."""
    return next(b for b in at.button if b.label == "Find look-alikes")


def test_new_patient_one_row_csv():
    at = start("pages/new_patient.py")
    at.radio(key="np_mode").set_value("CSV file").run()
    one = (SAMPLES / "new_patient.csv").read_bytes()
    at.file_uploader(key="np_upload").set_value(("p.csv", one, "text/csv")).run()
    assert not at.exception
    look = next(d.value for d in at.dataframe if "similarity" in d.value.columns)
    assert len(look) == 10
    assert "unlike the patients the model learned from" not in texts(at)
    # the same patient with a typo: the range check and the whole-patient check both ask
    head, row = one.decode().splitlines()[:2]
    cells = row.split(",")
    cells[head.split(",").index("Age (years)")] = "610"
    typo = (head + "\n" + ",".join(cells) + "\n").encode()
    at.file_uploader(key="np_upload").set_value(("t.csv", typo, "text/csv")).run()
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    # left out by default: the patient without it is not unlike the training patients;
    # used as given, the whole-patient check asks too
    assert "Age (years) = 610" in said and "unlike the patients the model learned" not in said
    next(r for r in at.radio if r.key.startswith("np_far_")).set_value("given").run()
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "Age (years) = 610" in said and "unlike the patients the model learned from" in said
    # a value written as a limit is compared as written (a walk-through's ">70" read "70")
    cells[head.split(",").index("Age (years)")] = ">85"
    limit = (head + "\n" + ",".join(cells) + "\n").encode()
    at.file_uploader(key="np_upload").set_value(("l.csv", limit, "text/csv")).run()
    at.multiselect(key="np_features").set_value(["Age (years)"]).run()
    assert not at.exception
    compared = shown_table(at, "This patient")
    assert compared.loc["Age (years)", "This patient"] == ">85 (read as 85)"
    at.file_uploader(key="np_upload").set_value(("p.csv", b"", "text/csv")).run()
    assert any("empty" in e.value for e in at.error)


def test_new_patient_csv_with_several_patients_checks_every_row():
    """Walk-through 16: a 3-row file was cut to its first row ("the first one is used"),
    and the 'abc' of row 2 never reached the user."""
    at = start("pages/new_patient.py")
    at.radio(key="np_mode").set_value("CSV file").run()
    head, row = (SAMPLES / "new_patient.csv").read_bytes().decode().splitlines()[:2]
    names = head.split(",")
    second = row.split(",")
    second[names.index("Subject ID")] = "NEW0002"
    second[names.index("Age (years)")] = "abc"
    third = row.split(",")  # walk-through 18: a typo said only once its patient was picked
    third[names.index("Subject ID")] = "NEW0003"
    third[names.index("Systolic BP (mmHg)")] = "1450"
    fourth = [""] * len(names)  # no value at all: named, and the others still matched
    fourth[names.index("Subject ID")] = "NEW0004"
    table = "\n".join([head, row, ",".join(second), ",".join(third), ",".join(fourth)]) + "\n"
    at.file_uploader(key="np_upload").set_value(("two.csv", table.encode(), "text/csv")).run()
    assert not at.exception
    pick = at.selectbox(key="np_pick")
    assert pick.options == ["line 2 · NEW0001", "line 3 · NEW0002", "line 4 · NEW0003",
                            "line 5 · NEW0004"]
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "Please check these values" in said
    assert "Other patients of the file with values to check" in said
    # another patient's unread cell is said with that patient, not as the picked one's
    # (walk-through 25)
    assert "NEW0002: 'Age (years)' = 'abc': not a number, read as missing" in said
    assert "Please check these values of" not in said
    assert "NEW0003: Systolic BP (mmHg) = 1\u00a0450" in said
    assert "Look-alikes of NEW0001" in texts(at)
    assert "CSV line 5 ('NEW0004'): no value the model knows" in said
    pick.set_value(1).run()
    assert not at.exception and "Look-alikes of NEW0002" in texts(at)
    said = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "Please check these values of NEW0002:\n\n- 'Age (years)' = 'abc'" in said
    pick.set_value(3).run()
    assert not at.exception
    assert any("NEW0004 has no value the model knows" in e.value for e in at.error)
    # away and back: Streamlit drops the page's widget states (AppTest keeps them, so
    # they are dropped here); the file and the patient picked are kept (walk-through 23
    # found them gone)
    pick.set_value(1).run()
    del at.session_state["np_upload"]
    at.run()
    assert not at.exception
    assert "Using two.csv, uploaded earlier" in texts(at).replace("\\", "")
    assert at.selectbox(key="np_pick").value == 1 and "Look-alikes of NEW0002" in texts(at)
    # another file starts at its first patient (walk-through 26 opened on the third)
    at.file_uploader(key="np_upload").set_value(("three.csv", table.encode(),
                                                  "text/csv")).run()
    assert at.selectbox(key="np_pick").value == 1  # the same file: the same patient
    other = table.replace("NEW0002", "NEW0009")
    at.file_uploader(key="np_upload").set_value(("other.csv", other.encode(),
                                                  "text/csv")).run()
    assert at.selectbox(key="np_pick").value == 0
    del at.session_state["np_upload"]  # away and back again
    at.run()
    at.button(key="np_forget_file").click().run()  # forgotten on request
    assert not at.exception and "Look-alikes of" not in texts(at)
    at.file_uploader(key="np_upload").set_value(("two.csv", table.encode(), "text/csv")).run()
    assert "Look-alikes of" in texts(at)
    # removed from the uploader, it is gone
    at.file_uploader(key="np_upload").set_value(None).run()
    assert not at.exception and "Look-alikes of" not in texts(at)


def test_classifier_page_on_a_small_cohort(small_cohort):
    """Issue 9.10: the compared representation is named (the current model's settings),
    full classifier names, a chance line, confusion matrices normalised per true class."""
    at = start("pages/classifiers.py", cohort=small_cohort, cohort_name="small")
    model = at.session_state["model"]
    assert f"{model.embedding_.shape[1]}-D embedding" in texts(at)
    assert "current model" in texts(at)
    at.slider(key="cls_splits").set_value(2)
    at.button(key="cls_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    res, conf, described, splits, y, weighted = at.session_state["cls_results"]
    assert not weighted and "without outcome weights" in texts(at)
    assert set(res["representation"]) == {"raw", "SparGE"} and len(res) == 2 * 2 * 6
    one, every = (d.value for d in at.dataframe if "Classifier" in d.value.columns)
    # the chosen measure, raw and SparGE side by side (fits 800 px); every measure below
    assert list(one.columns) == ["Classifier", "raw data", "SparGE", "SparGE − raw"]
    assert "k-nearest neighbours" in set(one["Classifier"])
    assert "Balanced accuracy (mean ± SD)" in every.columns
    times = next(d.value for d in at.dataframe if "SparGE (s)" in d.value.columns)
    assert times["SparGE (s)"].iloc[0] > 0  # SparGE's own fit is in the time per split
    assert "Estimated time: about" in texts(at)
    charts = at.get("plotly_chart")
    import json

    bars = json.loads(charts[0].proto.spec)
    lines = [s for s in bars["layout"].get("shapes", []) if s.get("type") == "line"]
    n_classes = len(set(y))
    assert any(abs(s["y0"] - 1 / n_classes) < 1e-9 for s in lines)
    for chart in charts[1:3]:
        rows = plotly_array(json.loads(chart.proto.spec)["data"][0]["z"]).sum(axis=1)
        assert np.allclose(rows, 100) and len(rows) == n_classes, rows
    assert "Summed over the 2 test splits" in texts(at)
    at.selectbox(key="cls_measure").set_value("roc_auc").run()
    bars = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert any(abs(s["y0"] - 0.5) < 1e-9 for s in bars["layout"]["shapes"])


def test_classifier_page_with_the_library_defaults(small_cohort):
    at = start("pages/classifiers.py", cohort=small_cohort, cohort_name="small")
    at.radio(key="cls_settings").set_value("The library's defaults").run()
    assert "the library's defaults" in texts(at)


def test_how_it_works_page():
    """The lecture on the current model: captions computed from the model (issue 9.12)."""
    at = start("pages/how_it_works.py", teach_source="Current model")
    assert not at.exception and not at.error
    model = at.session_state["model"]
    assert f"the model keeps all {model.rank_}" in texts(at)
    assert f"k₁ = {model.k1}, k₂ = {model.k2}" in texts(at)


def test_how_it_works_draws_a_posterior_ridge_model(small_cohort):
    """Issue 9.12: the page uses the fitted completion_ridge_ (a 'posterior' model failed)
    and the model's own graphs (its k1, not the default)."""
    model = train(small_cohort, {"completion_ridge": "posterior", "max_iter": 1, "k1": 3,
                                 "rank": 2})
    at = start("pages/how_it_works.py", model=model, model_name="posterior",
               teach_source="Current model")
    assert not at.exception and not at.error, [e.value for e in at.error]
    text = texts(at)
    assert "the rank cap keeps 2 of them" in text
    Wp, Wn = model.training_graphs()
    n_plus, n_minus = int(Wp.nnz // 2), int(Wn.nnz // 2)
    assert f"k₁ = 3, k₂ = {model.k2}: {n_plus} same-outcome edges" in text
    assert f"{n_minus} other-outcome edges" in text


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


def test_held_out_check_compares_sparge_forest_and_raw_on_the_users_cohort(small_cohort):
    """Issue 12.3: the Model page tells a clinician which representation wins on their data."""
    at = start("pages/model.py", cohort=small_cohort, cohort_name="small test cohort")
    at.slider(key="check_splits").set_value(2)
    at.button(key="check_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    table = next(d.value for d in at.dataframe if "Representation" in d.value.columns)
    assert set(table["Representation"]) == {"SparGE", "forest proximity", "raw features"}
    assert list(table.columns) == ["Representation", "Same outcome (% of 10)",
                                   "Vote bal. acc. (%)", "s/split"]  # four columns: 800 px
    means = table["Same outcome (% of 10)"].str.split(" ± ").str[0].astype(float)
    assert means.between(0, 100).all() and means.is_monotonic_decreasing
    # percentages like the other column (a fraction next to a % read as two scales)
    assert table["Vote bal. acc. (%)"].str.fullmatch(r"\d{1,3}\.\d ± \d{1,3}\.\d").all()
    # a winner is named only when it is ahead by more than the noise, else a tie is said
    said = texts(at)
    assert ("gives the best look-alikes" in said) != ("cannot be told apart" in said)
    assert "Over 2 splits." in " ".join(c.value for c in at.caption)
    assert "chance: " in said


def test_the_held_out_check_without_an_outcome_says_why_it_cannot_run():
    """A walk-through read the check's description of outcome shares above "The current
    table has no outcome column" on a table without one."""
    cohort = encode_cohort(read_table(SMALL), id_column="Subject ID", label_column=None)
    at = start("pages/model.py", cohort=cohort, cohort_name="no outcome")
    assert not at.exception, [e.value for e in at.exception]
    assert not [b for b in at.button if b.key == "check_run"]
    said = texts(at)
    assert "scores look-alikes by whether they share the patient's outcome" in said
    assert "averaged over outcomes; chance is about" not in said


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


def test_the_form_groups_a_foreign_cohorts_biomarkers_in_one_group(monkeypatch):
    """Walk-through 23: half of a renal clinic's 20 columns shared the sample's names,
    and the form showed the sample's "Proforma" group holding Height and Weight."""
    import json

    from sparge.app.shell import biomarker_groups

    monkeypatch.setenv("SPARGE_SAMPLES", str(SAMPLES))

    groups = json.loads((SAMPLES / "biomarker_groups.json").read_text())
    sample = [c for cols in groups.values() for c in cols]
    assert biomarker_groups(sample) == {g: c for g, c in groups.items() if c}
    extra = sample + [f"new marker {i}" for i in range(len(sample) // 20)]
    assert biomarker_groups(extra)["Other biomarkers"] == extra[len(sample):]
    foreign = sample[:10] + [f"lab {i}" for i in range(10)]
    assert biomarker_groups(foreign) == {"Biomarkers": foreign}
