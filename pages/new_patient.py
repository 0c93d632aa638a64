"""New patient: enter one patient (gaps allowed) or upload a CSV of patients; get the
look-alikes of the one chosen."""

import numpy as np
import pandas as pd
import streamlit as st

from sparge import read_table
from sparge.app.cohort_search import search_embedded_cohort
from sparge.app.lookalikes import (
    lookalike_match,
    map_select,
    match_controls,
    model_cache,
    projector,
    repeat_words,
    session_cache,
    show_lookalikes,
    training_values,
    warn_data_model_mismatch,
)
from sparge.app.plots import cohort_map
from sparge.app.shell import biomarker_groups, guard, init_state
from sparge.data.answer_durations import typed_durations
from sparge.data.answer_lists import typed_list_answers
from sparge.data.blood_pressure import typed_pressures
from sparge.data.safe_text import label_text, md_escape
from sparge.errors import DataError
from sparge.services.display import (
    answer_labels,
    biomarker_name,
    csv_patient_labels,
    file_id_column,
    file_patient_ids,
    form_words,
    limits_as_written,
    numeric_patients,
    outcome_name,
    outcome_order,
    typical_range,
)
from sparge.services.maps import map_frame, map_title, place_among_lookalikes
from sparge.services.typicality import (
    atypical_message,
    atypicality,
    few_values_message,
    given_message,
    residual_reference,
)
from sparge.services.workflow import (
    encode_new_patients,
    known_patient_message,
    known_patient_rows,
    lookalike_table,
    patients_to_check,
    person_keys,
    questioned_choice,
    questioned_message,
    questioned_values,
    training_ranges,
    unread_values,
)

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
#: The empty choice of a yes/no column whose empty cells the model reads as No.
EMPTY_AS_NO = "(empty: read as No)"
#: ... and the answer for a patient whose answer is not known there (walk-through 72:
#: a post-operative delirium cannot be known at admission, and the form offered only No)
NOT_KNOWN = "(not known)"
#: The help of a categorical field, which takes a typed answer too.
TYPED_ANSWER_HELP = ("Pick an answer, or type one as the record writes it and press Enter "
                     "(\"MI 2021\", \"atorva 40mg\"): it is read as a cell of an uploaded "
                     "file is, and what cannot be read is said above the look-alikes.")
model, encoder = ss.model, ss.get("model_encoder")


def clear_form(*keys: str) -> None:
    """Forget the form's fields, the last patient and ``keys``."""
    for key in [k for k in ss if str(k).startswith("np_f_")] + ["np_query", "np_form_kept",
                                                                  *keys]:
        ss.pop(key, None)


def empty_form(categorical: set[str]) -> None:
    """The Clear button: every field set to empty and the ID to "NEW", and the last patient
    forgotten. Set, not forgotten: the browser kept a forgotten field's value on screen
    and sent it back with the next patient (walk-through 18)."""
    for key in [k for k in ss if str(k).startswith("np_f_")]:
        ss[key] = "(missing)" if key in categorical else ""
    ss["np_id"] = "NEW"
    ss.pop("np_query", None)
    ss.pop("np_form_kept", None)


if ss.get("np_for") != ss.get("model_token"):
    # another model: the last patient and the form's fields belong to the previous one
    # (a walk-through's empty form re-ran the old patient on the new model, and the fields
    # are numbered by the old model's biomarkers)
    clear_form()
    ss.pop("np_file_kept", None)
    ss.np_for = ss.get("model_token")
st.title("Look-alikes for a new patient")
warn_data_model_mismatch()
if encoder is None:
    st.warning("This model has no encoder (it was trained outside the app): enter values as "
               "numbers; in a CSV, every biomarker must be a number or empty.")

# Streamlit forgets a widget's value when its page is left: the choice is kept aside
# (a walk-through's "One-row CSV" came back as "Form")
MODES = ["Form", "CSV file"]
if ss.get("np_mode") not in MODES:
    ss.pop("np_mode", None)
ss.setdefault("np_mode", ss.get("np_mode_kept", "Form") if ss.get("np_mode_kept") in MODES
              else "Form")
mode = st.radio("Enter the patient", MODES, horizontal=True, key="np_mode")
ss.np_mode_kept = mode
query = None
pick = 0  # the patient of a CSV whose look-alikes are shown
if mode == "CSV file":
    # Streamlit forgets an uploaded file when its page is left: it is kept aside for this
    # model (walk-through 23 came back to an empty uploader), until the user removes it
    # from the uploader (whose state exists then, unlike on a return to the page)
    returning = "np_upload" not in ss
    up = st.file_uploader("Patient CSV (a header and one row per patient)",
                          type=["csv", "txt"], key="np_upload")
    if up is not None:
        data = up.getvalue()
        if ss.get("np_file_kept") is None or ss.np_file_kept[1] != data:
            # another file starts at its first patient (walk-through 26's opened on the
            # previous file's third)
            ss.pop("np_pick", None)
            ss.pop("np_pick_kept", None)
        ss.np_file_kept = (up.name, data)
    elif not returning:
        ss.pop("np_file_kept", None)
    elif ss.get("np_file_kept") is not None:
        st.caption(f"Using {md_escape(ss.np_file_kept[0])}, uploaded earlier; upload "
                   "another file to replace it.")
        if st.button("Forget this file", key="np_forget_file"):
            ss.pop("np_file_kept", None)
            st.rerun()
    kept = ss.get("np_file_kept")
    ss.np_read_as_no = []  # a file's empty cells are its own, not the form's
    if kept is not None:
        with guard("Reading the patients"):
            # once per file and model: every click on this page read the file again
            query = session_cache("np_read", (kept[1], encoder), lambda: read_table(
                kept[1], answers=encoder.answers() if encoder else None))
        if query is not None and len(query) > 1:
            # every row is checked below; the look-alikes are those of the one chosen (a
            # walk-through's 3-row file was cut to its first row, its bad rows unchecked)
            labels = csv_patient_labels(query, file_id_column(
                query, encoder.id_column if encoder else None, model.feature_names()))
            # the file's name (user text, escaped) in a caption: as the select box's label
            # its escapes were read out by screen readers
            st.caption(f"{md_escape(kept[0])} holds {len(query):,} patients.")
            ss.setdefault("np_pick", min(ss.get("np_pick_kept", 0), len(query) - 1))
            # a visible label (walk-through 47 found the picker unlabelled)
            pick = st.selectbox("Look-alikes of the file's patient", range(len(query)),
                                format_func=labels.__getitem__, key="np_pick")
            pick = min(int(pick or 0), len(query) - 1)
            ss.np_pick_kept = pick
else:
    features = model.feature_names()
    groups = biomarker_groups(features, encoder)
    st.caption("Leave a field empty when it was not measured; SparGE completes the "
               "gaps. The form keeps the last patient's values until you clear it or "
               "another model is trained or loaded.")
    # on its own line: in a column beside the caption it was cut at 800 px
    categorical = {f"np_f_{j}" for j, col in enumerate(features)
                   if encoder is not None and encoder.roles_.get(col) == "categorical"}
    st.button("Clear the form", key="np_clear", on_click=empty_form, args=(categorical,),
              help="Empty every field and forget the last patient, so that none of its "
                   "values is carried over to the next one.")
    # Streamlit forgets a widget's value when its page is left: the fields the look-alikes
    # below were found from come back with them (walk-through 28 returned to an empty form
    # under "Look-alikes of TEST-1")
    kept_form = ss.get("np_form_kept")
    if kept_form is not None and kept_form[0] == ss.get("model_token"):
        for key, value in kept_form[1].items():
            if key not in ss:
                ss[key] = value
    with st.form("np_form"):
        ss.setdefault("np_id", "NEW")  # set here, not as the widget's default: the Clear
        pid = st.text_input("Patient ID", key="np_id")  # button sets it (Streamlit warns)
        values = {}
        # once per model: every rerun of the form drew them again
        ranges = model_cache("typical_ranges", model, lambda: {
            c: typical_range(training_values()[c]) for c in training_values().columns})
        for gi, (group, cols) in enumerate(groups.items()):
            # every group open on a form of a clinic's few dozen fields (the patient's
            # own group, first, holds two or three; the next opens with it)
            with st.expander(f"{md_escape(group)} ({len(cols)})",
                             expanded=gi <= 1 or len(features) <= 60):
                grid = st.columns(2)  # 3 clipped the values at 800 px
                for j, col in enumerate(cols):
                    target = grid[j % 2]
                    key = f"np_f_{features.index(col)}"
                    if encoder is not None and encoder.roles_.get(col) == "categorical":
                        # one answer per code, as the pages show it ("Yes", not also
                        # "Y"; walk-through 19's form offered Y, Yes, No, N)
                        labels = answer_labels(encoder, col)
                        # a column whose empty cells the model reads as No says so
                        empty = EMPTY_AS_NO if col in (encoder.blank_as_no or ()) else \
                            "(missing)"
                        # the merged spellings shown, so typing "Aricept" finds
                        # Donepezil (walk-through 63)
                        # ... or an answer typed as the record writes it, read as a
                        # file's cell is: "MI 2021" is "MI" (walk-through 91 typed it
                        # and found nothing)
                        options = [empty, *([NOT_KNOWN] if empty == EMPTY_AS_NO
                                             else []), *labels]
                        if ss.get(key) in {"(missing)", EMPTY_AS_NO, NOT_KNOWN} - \
                                set(options):  # another empty choice now: not "typed"
                            del ss[key]
                        values[col] = target.selectbox(
                            label_text(col), options, key=key,
                            format_func=lambda a, lab=labels: lab.get(a, a),
                            accept_new_options=True, help=TYPED_ANSWER_HELP)
                    else:
                        # the unit in the label: a hint's was cut at 800 px and went
                        # once a value was typed (walk-through 23). Text, read as a
                        # file's cell is: a number field turned a typed "12,5" into 125
                        # without a word (walk-through 26); "<5" and "1.6 mg/dL" read too
                        values[col] = target.text_input(
                            label_text(biomarker_name(col, encoder)), key=key,
                            placeholder=ranges[col])
        submitted = st.form_submit_button("Find look-alikes", type="primary")
    if submitted:
        # "not known" is a gap the model does not read as No
        row = {c: ("not known" if v == NOT_KNOWN else None
                   if v is None or str(v).strip() in ("(missing)", EMPTY_AS_NO, "")
                   else v) for c, v in values.items()}
        ss.np_read_as_no = [c for c, v in values.items() if v == EMPTY_AS_NO]
        row, ss.np_typed_notes = typed_pressures(row)  # "142/88" typed in one field
        row, durations = typed_durations(row)  # "HD 2y 6m" typed in the answer's box
        # "norad 0.2" typed in a list's yes/no box ("Vasopressors: noradrenaline")
        row, listed = typed_list_answers(row, getattr(encoder, "answer_lists_", None) or {})
        ss.np_typed_notes += durations + listed
        if all(v is None for v in row.values()):
            st.error("Fill in at least one biomarker.")
        else:
            query = pd.DataFrame([row])
            # the typed ID names the patient even when the model has no ID column
            # (walk-through 27's "00412233" was shown as "new patient")
            ss.np_query_name = str(pid or "").strip()
            ss.np_form_kept = (ss.get("model_token"), {
                k: ss[k] for k in list(ss) if str(k).startswith("np_f_") or k == "np_id"})
            if encoder is not None and encoder.id_column:
                query.insert(0, encoder.id_column, pid)
            elif encoder is None:
                query.insert(0, "ID", pid)
            ss.np_query = query
    elif ss.get("np_query") is not None:
        query = ss.np_query

if query is not None:
    # the first patient of a model also prepares its checks (seconds on a large cohort)
    with guard("Finding look-alikes"), st.spinner("Finding look-alikes…"):
        def _encoded():
            """The file's (or form's) patients as the model reads them, with what was not
            read: once per query and model, not on every click on this page."""
            if encoder is None:
                X, ids, notes = numeric_patients(query, model.feature_names())
                return X, [], notes, ids, None
            X, bad, notes = encode_new_patients(model, encoder, query, split=True,
                                                by_row=len(query) > 1)
            ids = file_patient_ids(query, file_id_column(query, encoder.id_column,
                                                         model.feature_names()))
            return X, bad, notes, ids, unread_values(encoder, query, X) if len(query) > 1 \
                else None

        X_all, problems, msgs, qids, unread = session_cache(
            "np_encoded", (query, model, encoder), _encoded)
        Xq = X_all.iloc[[pick]].reset_index(drop=True)
        if mode == "Form":  # typed values: no CSV line to name
            problems, msgs = [form_words(m) for m in problems], [form_words(m) for m in msgs]
            msgs = [*ss.get("np_typed_notes", []), *msgs]
        if mode == "Form" and ss.get("np_query_name"):
            qids = [ss.np_query_name]
        qid = str(qids[pick])
        # a file's cells read as missing, patient by patient: the picked one's above its
        # look-alikes, the others' in the list of the file's other patients
        # (walk-through 25: one box of the melanoma patient's "IIIB" and "Melanoma"
        # stood above every patient's look-alikes)
        own = unread[pick] if unread is not None else []
        if problems or own:  # values read as missing: not routine (a walk-through's 'abc')
            st.warning(f"Please check these values{' of ' + md_escape(qid, 60) if own else ''}"
                       ":\n\n" + "\n".join(f"- {md_escape(m, 600)}"
                                            for m in (own + problems)[:10]))
        if msgs:  # one box: a patient with 16 gaps had 16 boxes above its look-alikes
            whom = "both patients" if len(query) == 2 else f"all {len(query):,} patients"
            with (st.expander(f"How the file was read ({len(msgs):,} notes on {whom})")
                  if len(query) > 1
                  else st.container()):
                st.info("\n".join(f"- {md_escape(m, 600)}" for m in msgs[:30])
                        + (f"\n- … and {len(msgs) - 30} more" if len(msgs) > 30 else ""))
        xq = Xq.to_numpy(dtype=float)  # the patient's encoded values, read once
        if not np.isfinite(xq).any():  # an empty row of a file, named above
            raise DataError(f"{qid} has no value the model knows: pick another patient of "
                            "the file, or fill in at least one biomarker.")
        # once per model, not on every rerun of the page
        bounds = model_cache("training_ranges", model,
                             lambda: training_ranges(training_values()))
        written = limits_as_written(query.iloc[pick], model.feature_names(), encoder)
        far = questioned_values(xq[0], training_values(), encoder, ranges=bounds,
                                written=written)
        if far:
            # the warning says which reading the look-alikes below use (walk-through 92
            # read "in g/dL? that would be 98 g/L" and not which value was used)
            warn_box = st.empty()
            # a walk-through could only edit the field or the file to see the look-alikes
            # without a mistyped value, or with a value typed in another unit converted
            these = "this value" if len(far) == 1 else f"these {len(far)} values"
            choices = {"given": f"Use {these} as given",
                       "left out": f"Leave {these} out (as if not measured)"}
            slips = {j: q.converted for j, q in far.items() if q.converted is not None}
            if slips:
                choices["converted"] = ("Use the converted value" if len(slips) == 1 else
                                        f"Use the {len(slips)} converted values") + \
                    (" (the others left out)" if len(slips) < len(far) else "")
            # a value far from every training patient's (a typo or another unit) is left
            # out until the user says otherwise: as given, walk-through 25's platelets of
            # 410,000 (+5,629 SD) and weight in lb chose the look-alikes; values that all
            # convert exactly start converted (services.workflow.questioned_choice)
            start = questioned_choice(far.values())
            how = st.radio("Find the look-alikes", list(choices), format_func=choices.get,
                           key=f"np_far_{qid}", horizontal=True,
                           index=list(choices).index(start))
            warn_box.warning(questioned_message(far.values()) + " " + {
                "given": f"The look-alikes below use {these} as given.",
                "left out": f"The look-alikes below leave {these} out (as if not "
                            "measured).",
                "converted": "The look-alikes below use the converted value"
                             + ("s" if len(slips) > 1 else "")
                             + (" (the others left out)." if len(slips) < len(far)
                                else ".")}[how] + " Change it below.")
            if how != "given":
                Xq.iloc[0, list(far)] = np.nan
                if how == "converted":
                    for j, v in slips.items():
                        Xq.iloc[0, j] = v
                xq = Xq.to_numpy(dtype=float)
                if not np.isfinite(xq).any():
                    raise DataError(f"{qid} has no other value the model knows: fill in "
                                    "at least one biomarker within the training range.")
        # unlike every training patient (a typo, other units, another population)?
        reference = model_cache("residual_reference", model,
                                lambda: residual_reference(model))
        shares = atypicality(model, X_all.to_numpy(dtype=float), reference)
        # the patient as its look-alikes are found: a value left out or converted above
        # no longer makes it "unlike every training patient"
        own = float(atypicality(model, xq, reference)[0])
        odd = atypical_message(own)
        if odd:
            st.warning(odd)
        if len(query) > 1:  # the file's other patients, before one is picked
            others = patients_to_check(X_all, [str(q) for q in qids], training_values(),
                                       encoder, shares, skip=pick, ranges=bounds,
                                       unread=unread)
            if others:
                st.warning("Other patients of the file with values to check (pick them "
                           "above to see their look-alikes):\n\n"
                           # a patient's whole line (walk-through 45's was cut at 600
                           # characters, mid-answer)
                           + "\n".join(f"- {md_escape(o, 2000)}" for o in others[:10])
                           + (f"\n- … and {len(others) - 10} more" if len(others) > 10
                              else ""))
        # the fields left empty and read as No are not given (walk-through 67 read "16
        # of 34 given" above "11 of 34 given")
        as_no = set(ss.get("np_read_as_no", ()))
        observed = int(sum(np.isfinite(v) and str(n) not in as_no
                           for n, v in zip(model.feature_names(), xq[0], strict=True)))
        few = few_values_message(observed, Xq.shape[1],
                                 anchored=model.anchor_weight != 0)
        if few:
            st.warning(few)
        # which were given, also when few were (walk-through 57: typed in a box, not
        # picked, an answer is not given, and the warning named none)
        st.caption(md_escape(given_message(xq[0], model.feature_names(), encoder,
                                           read_as_no=ss.get("np_read_as_no", ())), 2000))
        k = st.slider("Number of look-alikes", 3, 50, 10, key="np_k")
        # among the patients matching it on the biomarkers chosen there (same sex, …)
        match = lookalike_match("np", xq[0])
        match_controls("np", match, k)
        # a training patient with this ID is the same person: another admission, or the
        # patient entered again (session 54), left out as on the Explore page
        train_ids = getattr(model, "train_ids_", None)
        known = known_patient_rows(train_ids, qid, keys=model_cache(
            "person_keys", model, lambda: person_keys(train_ids))) \
            if train_ids is not None else np.zeros(0, dtype=np.intp)
        note = st.empty()  # the note above its checkbox
        keep = len(known) > 0 and st.checkbox(
            "Keep " + ("it" if len(known) == 1 else "them") + " among the look-alikes "
            "(another person with the same ID)", key=f"np_keep_known_{qid}")
        if len(known):
            note.info(md_escape(known_patient_message(train_ids, known, qid, kept=keep,
                                                      kind=repeat_words()),
                                1000))
        table = lookalike_table(model, Xq, n_neighbors=k, candidates=match.restriction,
                                leave_out=() if keep else known)
        st.subheader(f"Look-alikes of {md_escape(qid)}")
        show_lookalikes(model, table, xq[0], qid, encoder, key="np",
                        written=written, match=match)
        method = map_select("np_map", "Where the patient lands")
        proj = projector(method)
        frame = map_frame(model, proj)
        if few:  # its embedding keeps only the direction of the few values given
            where = place_among_lookalikes(frame, table)[None, :]
            st.caption("With so few values given, the star is placed among its look-alikes "
                       "(similarity-weighted), as they were found.")
        else:
            where = proj.place(model, X=Xq)
        color = frame["outcome"] if "outcome" in frame else None
        st.plotly_chart(cohort_map(frame, color, new_points=pd.DataFrame(
            {"x": where[:, 0], "y": where[:, 1], "ID": [qid]}),
            title=f"The new patient (star) on the {map_title(proj, model)}",
            color_title=outcome_name(encoder) if color is not None else "",
            order=outcome_order(model)),
            width="stretch", key="np_map_chart")
        search_embedded_cohort(model, Xq, qid, k, matched=match.active)
