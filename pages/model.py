"""Model: train SparGE with its parameters, watch the objective, save and load models."""

import time

import streamlit as st

from sparge import SparGE, load_model, model_to_bytes
from sparge.plots import objective_plot
from sparge.ui import guard, init_state, model_summary, set_model
from sparge.workflow import train

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
st.title("Model")
st.caption(f"Current model: {ss.model_name} — {model_summary(ss.model)}")

cohort = ss.cohort
default = SparGE()  # the form starts from the library's (benchmarked) defaults
has_labels = cohort.labels is not None
with st.form("train_form"):
    st.write(f"Train on **{ss.cohort_name}** ({len(cohort.train_rows)} patients).")
    c1, c2, c3 = st.columns(3)
    supervised = c1.checkbox("Use the outcome (supervised)", value=has_labels,
                             disabled=not has_labels,
                             help="Pull patients with the same outcome together (marginal "
                                  "Fisher analysis graphs). Off: neighbourhoods only.")
    n_components = c1.slider("Embedding dimensions", 2, 40, default.n_components,
                             help="Size of the learned space where distance = similarity. "
                                  "10-20 works best in our benchmarks.")
    representation = c1.selectbox("Embed", ["codes+completed", "codes"],
                                  help="'codes' is the paper: sparse codes only. "
                                       "'codes+completed' keeps the completed biomarkers too.")
    n_atoms = c2.slider("Dictionary atoms (0 = auto)", 0, 128, 0,
                        help="Number of prototypical patterns the sparse codes use.")
    r1 = c2.number_input("Sparsity weight r1", 0.0, 1.0, default.r1, 0.01,
                         help="Larger: fewer atoms per patient (sparser codes).")
    rank = c2.selectbox("Completion rank", ["all", "auto", 2, 5, 10, 20, 50],
                        help="'all': every component the nuclear norm keeps (best in our "
                             "benchmarks); 'auto': only those above the noise level "
                             "(Gavish-Donoho threshold).")
    k1 = c3.slider("Same-outcome neighbours k1", 2, 40, default.k1)
    k2 = c3.slider("Other-outcome neighbours k2", 2, 60, default.k2)
    max_iter = c3.slider("Refinement iterations", 0, 30, default.max_iter,
                         help="Joint dictionary refinement; the iterate with the best held-out "
                              "look-alike quality is kept.")
    go = st.form_submit_button("Train", type="primary")

if go:
    params = {"supervised": supervised, "n_components": n_components,
              "representation": representation, "n_atoms": n_atoms or None, "r1": r1,
              "rank": None if rank == "all" else rank, "k1": k1, "k2": k2, "max_iter": max_iter}
    stages = ["completion", "dictionary", "codes", "refinement", "embedding"]
    bars = {s: st.progress(0.0, text=s) for s in stages}

    def progress(stage, info):
        p = float(min(max(info.get("progress", 0.0), 0.0), 1.0))
        if stage in bars:
            bars[stage].progress(p, text=f"{stage}: {100 * p:.0f}%")

    with guard("Training"):
        t0 = time.perf_counter()
        model = train(cohort, params, callback=progress)
        for b in bars.values():
            b.progress(1.0)
        set_model(model, cohort.encoder, f"trained on {ss.cohort_name}")
        st.success(f"Trained in {time.perf_counter() - t0:.1f} s: {model_summary(model)}")

model = ss.model
st.subheader("Training history")
m1, m2, m3 = st.columns(3)
m1.metric("Fit time", f"{model.fit_time_:.1f} s" if model.fit_time_ else "n/a")
m2.metric("Best iteration", model.best_iteration_)
m3.metric("Objective J", f"{model.objective_:.4f}")
if model.history_:
    st.plotly_chart(objective_plot(model.history_), width="stretch")

st.subheader("Save or load a model")
s1, s2 = st.columns(2)
with s1:
    with guard("Preparing the download"):
        st.download_button("Download model (.sparge)", model_to_bytes(model, ss.model_encoder),
                           file_name="model.sparge", mime="application/octet-stream")
    st.caption("A .sparge file holds numbers and JSON only (no pickle).")
with s2:
    up = st.file_uploader("Load a model (.sparge)", type=["sparge"], key="model_upload")
    if up is not None and ss.get("model_upload_seen") != (up.name, up.size):
        ss.model_upload_seen = (up.name, up.size)
        with guard("Loading the model"):
            m, enc = load_model(up.getvalue())
            set_model(m, enc, f"loaded from {up.name}")
            st.success(f"Loaded {up.name}: {model_summary(m)}")
