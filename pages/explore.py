"""Explore: the cohort map, a patient's look-alikes, and lasso-selected groups."""

import numpy as np
import streamlit as st

from sparge.maps import group_summary, map_frame, training_values
from sparge.plots import cohort_map
from sparge.ui import guard, init_state, projector, show_lookalikes
from sparge.workflow import lookalike_table

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
model = ss.model
st.title("Explore the cohort")
st.caption("Each point is a patient. Close points are similar in the learned SparGE space. "
           "Click a point (or search an ID) to see its look-alikes; draw a lasso to "
           "summarise a group.")

views = {"SparGE map (UMAP)": "umap", "SparGE map (PCA)": "pca",
         "Raw data (PCA, for comparison)": "raw"}
c1, c2, c3 = st.columns([2, 2, 2])
view = c1.selectbox("Map", list(views), key="explore_view",
                    help="UMAP or PCA of the learned embedding; the raw-data view shows what "
                         "the standardised biomarkers look like without SparGE.")
values = training_values(model)
color_options = (["outcome"] if model.y_ is not None else []) + ["none"] + list(values.columns)
color_by = c2.selectbox("Colour by", color_options, key="explore_color")
ids = list(map_frame(model, np.zeros((len(model.embedding_), 2)))["ID"])
search = c3.text_input("Find patient by ID", key="explore_search",
                       placeholder="e.g. " + (ids[0] if ids else ""))
if search:
    hits = [i for i, v in enumerate(ids) if str(v).strip().lower() == search.strip().lower()]
    if hits:
        ss.selected = hits[0]
    else:
        st.warning(f"No training patient has the ID '{search}'.")

with guard("Drawing the map"):
    proj = projector(views[view])
    frame = map_frame(model, proj.coords_)
    if color_by == "outcome":
        color = frame["outcome"].rename("outcome")
    elif color_by == "none":
        color = None
    else:
        color = values[color_by]
    hover_cols = [c for c in values.columns[:3]]
    fig = cohort_map(frame, color, hover=values[hover_cols], highlight=ss.selected,
                     title=view)
    event = st.plotly_chart(fig, key="explore_map", on_select="rerun",
                            selection_mode=("points", "lasso", "box"), width="stretch")
    points = (event or {}).get("selection", {}).get("points", []) if event else []
    picked = [int(p["customdata"][0]) for p in points if p.get("customdata") is not None]
    if len(picked) == 1:
        ss.selected = picked[0]
        ss.lasso = []
    elif len(picked) > 1:
        ss.lasso = picked
    st.download_button("Download map coordinates (CSV)", frame.to_csv(index=False),
                       file_name=f"sparge_map_{views[view]}.csv", mime="text/csv")

if ss.lasso:
    st.subheader(f"Selected group: {len(ss.lasso)} patients")
    with guard("Summarising the group"):
        summ = group_summary(model, np.asarray(ss.lasso))
        g1, g2 = st.columns([1, 2])
        if len(summ["outcome_mix"]):
            g1.write("Outcome mix")
            g1.dataframe(summ["outcome_mix"].rename("patients"))
        g2.write("Biomarkers that set the group apart (in cohort standard deviations)")
        g2.dataframe(summ["features"].round(2), hide_index=True)
        if st.button("Clear group selection"):
            ss.lasso = []
            st.rerun()

if ss.selected is not None:
    i = int(ss.selected)
    st.subheader(f"Patient {ids[i]}" + (f" · outcome: {model.y_[i]}" if model.y_ is not None
                                        else ""))
    k = st.slider("Number of look-alikes", 3, 50, 10, key="explore_k")
    with guard("Finding look-alikes"):
        table = lookalike_table(model, None, n_neighbors=k, exclude_training_index=i)
        show_lookalikes(model, table, model.training_data_[i], ids[i])
        with st.expander("Why are they alike? Biomarkers that agree and differ"):
            j = st.selectbox("Look-alike", table["ID"].tolist(), key="explore_explain")
            nb = int(table.loc[table["ID"] == j, "training_index"].iloc[0])
            st.dataframe(model.explain(i, nb).round(2), hide_index=True)
            st.caption("Values in standard deviations from the cohort mean; only biomarkers "
                       "measured in both patients are compared.")
else:
    st.info("Click a patient on the map or search an ID to see its look-alikes.")
