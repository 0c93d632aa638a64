"""Explore: every patient of the cohort on a map, a patient's look-alikes, lasso groups."""

import numpy as np
import pandas as pd
import streamlit as st

from sparge.app.lookalikes import (
    cohort_frame,
    default_biomarkers,
    left_out_colours,
    lookalike_match,
    map_select,
    match_controls,
    patient_index,
    projector,
    repeat_words,
    row_side,
    session_cache,
    show_lookalikes,
    training_values,
    warn_data_model_mismatch,
    wrapped_table,
)
from sparge.app.plots import cohort_map
from sparge.app.shell import SAMPLE_NAME, SAMPLE_NOTE, guard, init_state
from sparge.data.safe_text import md_escape, to_csv
from sparge.services.display import (
    biomarker_name,
    column_is_scale,
    decode_column,
    display_frame,
    group_summary,
    hover_as_written,
    level_order,
    limits_as_written,
    outcome_is_scale,
    outcome_name,
    outcome_order,
    snap_precision,
)
from sparge.services.left_out_colour import left_out_colour, left_out_title
from sparge.services.maps import (
    DENSE_MAP,
    MAX_MAP_POINTS,
    is_dense,
    map_csv_frame,
    map_hint,
    map_title,
    stretch_note,
)
from sparge.services.workflow import (
    cohort_outcomes,
    lookalike_table,
    own_other_rows,
    own_rows_left_out_message,
    repeated_id_message,
    same_person,
    training_patient_caveat,
)

NO_COLOUR = "(no colour)"  # not "None": that is also a clinical answer
init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
model, encoder = ss.model, ss.get("model_encoder")


def _picked_from_map() -> None:
    """A click selects one patient; a lasso or box selects a group (map callback)."""
    event = ss.get("explore_map") or {}
    points = (event.get("selection") or {}).get("points") or []
    keys = []
    for p in points:
        data = p.get("customdata")  # [key] on a small map, the key itself on a dense one
        if isinstance(data, (list, tuple)):
            data = data[0] if len(data) else None
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            keys.append(int(data))
    rows = list(dict.fromkeys(keys))
    ids = ss.get("_explore_ids")
    if ids is None or not rows:
        return
    ss.explore_search = ""  # the search box no longer names the shown patient
    if len(rows) == 1:
        ss.selected = str(ids[rows[0]])
        ss.lasso = []
    else:
        ss.lasso = [str(ids[r]) for r in rows]


def _searched() -> None:
    ss.explore_pending_search = ss.get("explore_search", "")


st.title("Explore the cohort")
if ss.get("cohort_name") == SAMPLE_NAME:
    st.info(SAMPLE_NOTE)
# walk-through 69: with a forest part the look-alikes are not the map's nearest points
_forest = float(getattr(ss.get("model"), "forest_weight_", 0.0) or 0.0) > 0
st.caption("Each point is a patient, placed by the learned SparGE space"
           + ("; a patient's look-alikes are found in that whole space together with the "
              "model's forest proximity (patients the outcome's trees group together), so "
              "they need not be the nearest points of this 2-D picture. " if _forest else
              ": close points are similar. ")
           + "Click a point (or search an ID) to see that patient's look-alikes. To summarise "
           "a group, choose Lasso or Box select in the map's toolbar (top right) and draw. "
           "× marks patients not used for training.")

index = None
with guard("Placing the patients"):
    index = patient_index()
if index is None:
    st.stop()
ss._explore_ids = index.ids
warn_data_model_mismatch()
# once per index and model: every click on the map rounded the whole cohort again
values = session_cache("explore_values", (index, model), lambda: snap_precision(
    pd.DataFrame(np.asarray(index.X, dtype=float), columns=index.features),
    model.value_mean_, model.value_scale_))

# A link with ?patient=ID opens that patient (once per new value in the URL).
url_pid = st.query_params.get("patient")
if url_pid and url_pid != ss.get("explore_url_seen"):
    ss.explore_url_seen = url_pid
    ss.selected = url_pid

c1, c2 = st.columns(2)
with c1:
    method = map_select("explore_view")
with c2:
    # columns the model does not use (a ward, an admission date): is a group one ward?
    left_out = {f"{c} (not in the model)": c for c in left_out_colours()} \
        if index.compatible else {}
    color_options = (["Outcome"] if model.y_ is not None else []) + [NO_COLOUR] + \
        list(index.features) + [o for o in left_out if o not in set(index.features)]
    color_by = st.selectbox("Colour by", color_options, key="explore_color",
                            help="The outcome, a biomarker of the model, or a column of "
                                 "the data that the model does not use (marked *not in "
                                 "the model*: dates by their year).")
st.text_input("Find patient by ID", key="explore_search", on_change=_searched,
              placeholder="e.g. " + (str(index.ids[0]) if len(index.ids) else ""))
pending = ss.pop("explore_pending_search", None)
if pending is not None and pending.strip():
    row = index.find(pending)
    near = index.containing(pending) if row is None else []
    if row is None and len(near) == 1:  # "100044" for "ICU-100044": the only one
        row = index.find(near[0])
        st.info(f"Showing {md_escape(near[0])}, the only ID containing "
                f"'{md_escape(pending)}'.")
    if row is None:
        shown = ss.get("selected")
        st.warning(f"No patient has the ID '{md_escape(pending)}' in the current data "
                   f"({len(index.ids):,} patients)."
                   + (" IDs containing it: " + ", ".join(md_escape(i) for i in near)
                      + (" …" if len(near) == 8 else ".") if near else
                      " No ID contains it either (case is ignored).")
                   # named by their row, a hospital number finds no one (walk-through 26)
                   + (" This table has no ID column: patients are named by their CSV line "
                      "('line 2' is the first patient); choose the ID column on the Data page "
                      "to search by it." if ss.cohort.encoder.naming_column(ss.cohort.df) is None
                      else "")
                   + (f" Still showing {md_escape(shown)} below." if shown else ""))
    else:
        ss.selected = str(index.ids[row])
        same = index.namesakes_of(row)
        if len(same) > 1:  # an ID the file repeats: its patients are told apart by line
            # each row's eye in a register of eyes
            named = np.asarray(index.ids).astype(str)
            sides = {str(n): row_side(int(hit[0])) for n in same
                     if (hit := np.flatnonzero(named == str(n))).size} \
                if index.compatible else None
            st.info(md_escape(repeated_id_message(same, str(index.ids[row]),
                                                  kind=repeat_words(), sides=sides), 1000))


def _resolve(selected) -> int | None:
    """Row of the selected patient: an ID, or (older sessions) a training index."""
    if selected is None:
        return None
    if isinstance(selected, (int, np.integer)):
        hits = np.flatnonzero(np.asarray(index.train_index) == int(selected))
        return int(hits[0]) if hits.size else None
    return index.find(str(selected))


sel_row = _resolve(ss.get("selected"))
if ss.get("selected") is not None and sel_row is None:
    st.warning(f"No patient has the ID '{md_escape(ss.selected)}' in the current data "
               f"({len(index.ids):,} patients).")
    ss.selected = None

# The selected patient's look-alikes, found before the map so that the map rings them.
table = match = own_note = None
if sel_row is not None:
    tix = int(index.train_index[sel_row])
    with guard("Finding look-alikes"):
        k = int(ss.get("explore_k", 10))
        # among the patients matching it on the biomarkers chosen below (same sex, …)
        match = lookalike_match("explore", training_values().iloc[tix].to_numpy()
                                if tix >= 0 else values.iloc[sel_row].to_numpy(),
                                own=tix if tix >= 0 else None)
        if tix >= 0:
            # the patient's own other episodes are no look-alikes (walk-through 100b)
            own_rows = own_other_rows(model.train_ids_, tix) \
                if getattr(model, "train_ids_", None) is not None else []
            table = lookalike_table(model, None, n_neighbors=k, exclude_training_index=tix,
                                    candidates=match.restriction, leave_out=own_rows)
            own_note = own_rows_left_out_message(model.train_ids_, own_rows,
                                                  kind=repeat_words()) \
                if len(own_rows) else None
        else:
            own_rows = same_person(model.train_ids_, index.ids[sel_row]) \
                if getattr(model, "train_ids_", None) is not None else []
            table = lookalike_table(model, index.query_row(sel_row), n_neighbors=k,
                                    candidates=match.restriction, leave_out=own_rows)
            own_note = own_rows_left_out_message(model.train_ids_, own_rows,
                                                  kind=repeat_words()) \
                if len(own_rows) else None


def _lookalike_rows() -> np.ndarray | None:
    """Rows of the look-alikes in ``index`` (those in the current data)."""
    if table is None:
        return None
    tix_all = np.asarray(index.train_index, dtype=int)
    row_of = np.full(len(model.embedding_), -1)
    row_of[tix_all[tix_all >= 0]] = np.flatnonzero(tix_all >= 0)
    rows = row_of[table["training_index"].to_numpy(dtype=int)]
    return rows[rows >= 0]


frame = None
with guard("Drawing the map"):
    proj = projector(method)
    labels = cohort_outcomes(ss.cohort) if index.compatible else None
    frame = cohort_frame(method, proj, index, labels)
    dense = is_dense(len(frame))
    order, ordered = None, False
    if color_by == "Outcome":
        color = frame["outcome"]
        order = outcome_order(model)
        ordered = outcome_is_scale(model)
    elif color_by == NO_COLOUR:
        color = None
    elif color_by in left_out:
        color, order, kind = left_out_colour(
            ss.cohort.df[left_out[color_by]],
            ss.cohort.encoder.table_.missing_keys(left_out[color_by]))
    else:
        color = decode_column(values[color_by], color_by, encoder)
        order = level_order(color_by, encoder)
        ordered = column_is_scale(color_by, encoder)
    # a dense map's hover shows the ID and the colour only (what a browser takes at 10⁵+)
    cells = ss.cohort.df.reset_index(drop=True) if index.compatible else None
    hover = None if dense else hover_as_written(
        display_frame(values[default_biomarkers(3)], encoder), cells, encoder)
    # a numeric colour's value in the hover as written (walk-through 30: an eGFR of ">90"
    # read 90)
    written = (hover_as_written(display_frame(values[[color_by]], encoder), cells,
                                encoder)[color_by]
               .to_numpy() if not dense and color_by in values.columns and order is None
               else None)  # a category's legend already says its answer
    fig = cohort_map(frame, color, hover=hover, highlight=sel_row,
                     lookalikes=_lookalike_rows(), title=map_title(proj, model),
                     color_title=(outcome_name(encoder) if color_by == "Outcome"
                                  else left_out_title(left_out[color_by], kind)
                                  if color_by in left_out
                                  else biomarker_name(color_by, encoder))
                     if color is not None else "", order=order, ordered=ordered,
                     color_text=written)
    st.plotly_chart(fig, key="explore_map", on_select=_picked_from_map,
                    selection_mode=("points", "box", "lasso"), width="stretch")
    hint = map_hint(proj, model)
    if hint:
        st.caption(hint)
    stretched = stretch_note(frame[["x", "y"]].to_numpy())
    if stretched:  # walk-through 69: a 21:1 embedding drawn 2.4:1, unsaid
        st.caption(stretched)
    n_out = int((~frame["in_training"]).sum())
    if n_out:
        st.caption(f"{len(frame) - n_out:,} training patients and {n_out:,} "
                   f"{'patient' if n_out == 1 else 'patients'} not used for training (×), "
                   "placed on the map from their own values; hovering one says why it "
                   "was not used.")  # walk-through 87 looked for the reason on the page
    if dense:
        drawn = (f"All {len(frame):,} patients are drawn" if len(frame) <= MAX_MAP_POINTS
                 else f"A random {MAX_MAP_POINTS:,} of the {len(frame):,} patients are drawn "
                      "as points (the selected patient and its look-alikes always; search "
                      "by ID for any other), over a shading of all of them")
        st.caption(f"{drawn}. Above {DENSE_MAP:,} patients the points are small and faint "
                   "over a shading of how many patients fall in each cell of the map "
                   "(darker: more); zoom in to tell patients apart. Hovering a point shows "
                   "its ID.")
    csv_frame = map_csv_frame(frame)
    st.download_button("Download map coordinates (CSV)", lambda: to_csv(csv_frame),
                       file_name=f"sparge_map_{method}.csv", mime="text/csv")

group = []
for g in ss.get("lasso") or []:
    r = _resolve(g) if not isinstance(g, (int, np.integer)) else int(g)
    if r is not None and 0 <= r < len(index.ids):
        group.append(r)
if group and frame is not None:
    st.subheader(f"Selected group: {len(group)} patients")
    with guard("Summarising the group"):
        outcomes = frame["outcome"].where(frame["outcome"] != "unknown", None) \
            if "outcome" in frame else None
        summ = group_summary(values, np.asarray(group), model.mean_, model.scale_,
                             encoder, outcomes=outcomes, log=model.log_floors())
        if len(summ["outcome_mix"]):
            st.markdown("**Outcomes in the group**")
            st.dataframe(summ["outcome_mix"], width="content")
        st.markdown("**Biomarkers that set the group apart from the other patients** "
                    "(means in each biomarker's units, geometric means for one compared "
                    "by its logarithm, categories as the group's most common "
                    "answer, both among the patients with a value; the difference in "
                    "standard deviations or percentage points; *Measured*: the share of "
                    "the group / of the other patients with a value)")
        # wrapped: at 800 px a data grid cut "+58 points" and hid the Measured column
        wrapped_table(summ["features"], list(summ["features"].columns), {})
        if st.button("Clear group selection"):
            ss.lasso = []
            st.rerun()

if sel_row is not None:
    pid = str(index.ids[sel_row])
    ss.selected = pid
    st.query_params["patient"] = pid
    ss.explore_url_seen = pid
    tix = int(index.train_index[sel_row])
    outcome = frame["outcome"].iloc[sel_row] if frame is not None and "outcome" in frame \
        else None
    side = row_side(sel_row) if index.compatible else ""
    st.subheader(f"Patient {md_escape(pid)}" + (f", {side}" if side else ""))
    if outcome is not None:
        st.markdown(f"{md_escape(outcome_name(encoder))}: **{md_escape(outcome)}**")
    if tix < 0:
        st.info(f"Not used for training: {md_escape(index.reason[sel_row], 300)}. Its "
                f"look-alikes are found among the {len(model.embedding_):,} training patients "
                "from its own values (the model completes its gaps).")
    elif caveat := training_patient_caveat(model, outcome, table):
        st.caption(md_escape(caveat, 900))
    st.slider("Number of look-alikes", 3, 50, 10, key="explore_k",
              help="Also ringed on the map.")
    if match is not None:
        match_controls("explore", match, int(ss.get("explore_k", 10)))
    if table is not None:
        with guard("Showing the look-alikes"):
            query = training_values().iloc[tix].to_numpy() if tix >= 0 else \
                values.iloc[sel_row].to_numpy()
            # the patient's own cells, for values written as a limit ("<15")
            row = ss.cohort.df.iloc[sel_row] if index.compatible else {}
            if own_note:
                st.info(md_escape(own_note, 800))
            show_lookalikes(model, table, query, pid, encoder, key="explore",
                            written=limits_as_written(row, model.feature_names(),
                                                      encoder),
                            match=match, outcome=outcome)
else:
    if "patient" in st.query_params:
        del st.query_params["patient"]
    st.info("Click a patient on the map or search an ID to see its look-alikes.")
