"""How it works: the method step by step on the current model, for students."""

import numpy as np
import streamlit as st

from sparge.maps import MapProjector, map_frame
from sparge.plots import (
    cohort_map,
    graph_plot,
    histogram,
    matrix_heatmap,
    objective_plot,
    singular_values_plot,
)
from sparge.ui import completion_summary, guard, init_state

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
model = ss.model
st.title("How SparGE works")
st.caption("The pipeline step by step on the current model and its training patients.")

with guard("Drawing the walk-through"):
    st.header("1 · Fill the gaps with a low-rank matrix")
    st.write("Biomarkers move together (a few health factors drive many measurements), so "
             "the patient × biomarker table is close to a *low-rank* matrix. Soft-impute "
             "fills the gaps with the low-rank matrix that best matches the observed values, "
             "shrinking every singular value.")
    st.caption(completion_summary(model))
    st.plotly_chart(singular_values_plot(model.filled_singular_values_,
                                         model.completion_singular_values_, model.rank_),
                    width="stretch")
    Xs = np.asarray(model.training_data_, dtype=float)
    show_r = min(40, Xs.shape[0])
    show_c = np.argsort(-np.isnan(Xs).mean(axis=0))[:30]
    sub = Xs[:show_r]
    # the model's own completion (its fitted per-component ridge), in standardised units
    completed = model.complete(model.training_values().iloc[:show_r], units="standardized")
    c1, c2 = st.columns(2)
    c1.plotly_chart(matrix_heatmap(sub[:, show_c], "Observed (blank = gap)"), width="stretch")
    c2.plotly_chart(matrix_heatmap(np.where(np.isnan(sub), completed, sub)[:, show_c],
                                   "Completed (gaps filled)"), width="stretch")

    st.header("2 · A dictionary of patterns")
    st.write("K-SVD learns *atoms*: typical patterns of biomarkers (one set per outcome "
             "when supervised). Each atom has unit length.")
    D = model.dictionary_
    top = np.argsort(-np.abs(D).max(axis=1))[:25]
    names = model.feature_names()
    st.plotly_chart(matrix_heatmap(D[top], "Atoms (columns) on the biomarkers they weigh most",
                                   x=[f"atom {j}" for j in range(D.shape[1])],
                                   y=[names[i] for i in top]), width="stretch")

    st.header("3 · Sparse codes")
    st.write("Every patient is written as a few atoms (an elastic-net code): most weights "
             "are exactly zero.")
    nnz = (model.codes_ != 0).sum(axis=1)
    s1, s2 = st.columns(2)
    s1.plotly_chart(histogram(nnz, f"Atoms used per patient (of {D.shape[1]})",
                              "non-zero weights"), width="stretch")
    s2.metric("Share of zero weights", f"{100 * np.mean(model.codes_ == 0):.0f}%")
    s2.plotly_chart(matrix_heatmap(model.codes_[:60], "Codes of 60 patients"),
                    width="stretch")

    st.header("4 · Graphs: who should be close")
    st.write("Same-outcome neighbours are joined by green edges (pulled together), the "
             "nearest patients with another outcome by red edges (pushed apart).")
    F = model.training_representation()
    before = MapProjector("pca").fit(model)
    Fc = F - F.mean(axis=0)
    coords_in = Fc @ np.linalg.svd(Fc, full_matrices=False)[2][:2].T
    Wp, Wn = model.training_graphs()  # exactly the graphs of the model's final fit
    labels = np.zeros(len(F), int) if model.y_ is None else model.y_
    if getattr(model, "classes_", None) is None:
        st.caption(f"This model is unsupervised: green edges join each patient's "
                   f"{model.k1} nearest neighbours, red edges sampled distant patients.")
    st.plotly_chart(graph_plot(coords_in, Wp, Wn, labels), width="stretch")

    st.header("5 · The embedding and the objective")
    st.write("An orthonormal projection U minimises the trace ratio J = (spread within "
             "outcome neighbourhoods) / (spread towards other outcomes). The dictionary is "
             "then refined by gradient steps; we keep the iterate whose look-alikes are best "
             "on patients held out from training.")
    if model.history_:
        st.plotly_chart(objective_plot(model.history_), width="stretch")
    b1, b2 = st.columns(2)
    fr_in = map_frame(model, coords_in)
    fr_out = map_frame(model, before.coords_)
    col = fr_in["outcome"] if "outcome" in fr_in else None
    b1.plotly_chart(cohort_map(fr_in, col, title="Before: codes + completed data (PCA)"),
                    width="stretch", key="hiw_before")
    b2.plotly_chart(cohort_map(fr_out, col, title="After: SparGE embedding (PCA)"),
                    width="stretch", key="hiw_after")
