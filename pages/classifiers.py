"""Classifiers: the paper's six classifiers on raw vs SparGE features."""

import streamlit as st

from sparge.compare import compare_classifiers, summarize, time_table
from sparge.plots import classifier_bars, confusion_pair
from sparge.ui import guard, init_state

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
cohort = ss.cohort
st.title("Classifiers: raw data vs SparGE")
st.caption("Repeated stratified 70/30 splits (the paper's protocol). On every split SparGE is "
           "fitted on the training part only, then KNN, LR, RF, DT, SVM and GBDT are trained "
           "on raw features (median-imputed, standardised) and on SparGE features.")

if cohort.labels is None:
    st.warning("The current table has no outcome column; choose one on the Data page.")
    st.stop()

c1, c2 = st.columns(2)
n_splits = c1.slider("Repeated splits", 2, 20, 5, key="cls_splits",
                     help="The paper uses 10; fewer is faster.")
n_components = c2.slider("SparGE dimensions", 2, 40, 16, key="cls_dims")
if st.button("Run the comparison", type="primary", key="cls_run"):
    bar = st.progress(0.0, text="starting")
    with guard("The comparison"):
        rows = cohort.train_rows
        res, conf = compare_classifiers(
            cohort.X[rows], cohort.labels[rows].astype(str), n_splits=n_splits,
            sparge_params={"n_components": n_components},
            callback=lambda p, msg: bar.progress(p, text=msg))
        ss.cls_results = (res, conf)

if ss.get("cls_results") is not None:
    res, conf = ss.cls_results
    summary = summarize(res)
    measure = st.selectbox("Measure", ["balanced_accuracy", "accuracy", "f1_macro", "roc_auc"],
                           key="cls_measure",
                           format_func=lambda m: {"balanced_accuracy": "average per-class "
                                                  "recall (balanced accuracy)"}.get(m, m))
    st.plotly_chart(classifier_bars(summary, measure), width="stretch")
    st.dataframe(summary.round(4), hide_index=True)
    st.subheader("Mean time (s): fit + predict")
    st.dataframe(time_table(res).round(4))
    clf = st.selectbox("Confusion matrices for", sorted(res["classifier"].unique()),
                       key="cls_cm")
    st.plotly_chart(confusion_pair(conf[("raw", clf)], conf[("SparGE", clf)],
                                   conf["classes"]), width="stretch")
    st.download_button("Download all results (CSV)", res.to_csv(index=False),
                       file_name="classifier_comparison.csv", mime="text/csv")
