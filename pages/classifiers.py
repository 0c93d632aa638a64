"""Classifiers: the paper's six classifiers on the raw data vs SparGE features."""

import streamlit as st

from sparge.app.lookalikes import repeat_words
from sparge.app.plots import SMALL_CHART
from sparge.app.plots_setup import classifier_bars_with_chance, confusion_heatmap
from sparge.app.shell import guard, init_state
from sparge.data.safe_text import md_escape, to_csv
from sparge.services.compare import (
    CLASSIFIER_NAMES,
    MEASURE_HEADERS,
    MEASURE_NAMES,
    RARE_OUTCOME_SHARE,
    UNWEIGHTED,
    chance_level,
    compare_classifiers,
    comparison_verdict,
    describe_settings,
    estimate_comparison,
    measure_table,
    normalize_confusion,
    readable_summary,
    readable_times,
    sparge_settings,
    summarize,
    weight_by_default,
)
from sparge.services.resources import busy_note, duration
from sparge.services.split_errors import noise_margin
from sparge.services.workflow import leak_caution, people, repeated_rows_words

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
cohort = ss.cohort
st.title("Classifiers: raw data vs SparGE")
st.caption("Repeated stratified 70/30 splits (the paper's protocol). On every split SparGE is "
           "fitted on the training part only; then six classifiers are trained on the raw "
           "data (median-imputed, standardised) and on the SparGE features: "
           + ", ".join(CLASSIFIER_NAMES.values()) + ".")

if cohort.labels is None:
    st.warning("The current table has no outcome column; choose one on the Data page.")
    st.stop()

settings_source = st.radio(
    "SparGE settings compared", ["The current model's settings", "The library's defaults"],
    key="cls_settings", horizontal=True,
    help="Which SparGE representation is refitted on every split.")
with guard("Reading the current model's settings"):
    params = (sparge_settings(ss.model) if settings_source.startswith("The current")
              else {})
    st.caption(f"SparGE features compared: {md_escape(describe_settings(params))}"
               + (f" (settings of the current model, {md_escape(ss.model_name)})"
                  if params else " (the library's defaults)") + ".")
n_splits = st.slider("Repeated splits", 3, 20, 5, key="cls_splits",
                     help="The paper uses 10; fewer is faster.")
rare = weight_by_default(cohort.labels[cohort.train_rows])
weighted = st.checkbox(
    "Weight the outcomes equally", key="cls_weighted", value=rare,
    help="Trains the classifiers as if every outcome had as many patients as the others "
         "(scikit-learn's class_weight='balanced'; gradient boosting by per-patient "
         "weights). Without it, a classifier seldom predicts a rare outcome and its balanced "
         "accuracy sits near chance even when it ranks the patients well. "
         + ", ".join(CLASSIFIER_NAMES[c] for c in UNWEIGHTED).capitalize()
         + " cannot be weighted. Ticked at first when the rarest outcome is under "
         f"{RARE_OUTCOME_SHARE:.0%} of the patients.")
if rare and weighted:
    st.caption(f"Ticked because the rarest outcome is under {RARE_OUTCOME_SHARE:.0%} of the "
               "patients: unweighted, a classifier seldom predicts it.")
n_rows = len(cohort.train_rows)
seconds = estimate_comparison(n_rows, cohort.X.shape[1], n_splits, n_classes=len(
    set(cohort.labels[cohort.train_rows].astype(str))))
st.caption(f"Estimated time: about {duration(max(seconds, 1.0))}"
           f"{busy_note(max(seconds, 1.0))}"
           f" for {n_splits} splits of {n_rows:,} patients (SparGE's fit and the six "
           "classifiers on both feature sets, every split); the progress bar gives the time "
           "left once the first split is done.")
if (repeats := people(cohort.ids[cohort.train_rows])) is not None:
    # walk-through 104: a patient's two eyes could be one trained on, one tested
    st.caption(f"The {len(repeats):,} training rows are {len(set(repeats.tolist())):,} "
               f"patients (IDs repeated on other lines: {repeated_rows_words(repeat_words())}"
               "): a patient's rows are held out together, so that no test row's "
               "classifier has learned from the same person's other row.")
run = st.button("Run the comparison", type="primary", key="cls_run")
# everything below in one slot: a new run replaces the last run's results at once (walk-
# through 37 saw the previous outcome's chance line under the progress bar)
below = st.empty()
with below.container():
    if run:
        bar = st.progress(0.0, text="split 1: preparing")
        with guard("The comparison"):
            rows = cohort.train_rows
            try:
                res, conf = compare_classifiers(
                    cohort.X[rows], cohort.labels[rows].astype(str), n_splits=n_splits,
                    sparge_params=params, weighted=weighted,
                    groups=people(cohort.ids[rows]),
                    callback=lambda p, msg: bar.progress(p, text=msg))
            except BaseException:  # a failed run leaves no "preparing" bar above its message
                bar.empty()
                raise
            bar.progress(1.0, text="done: 100%")
            ss.cls_results = (res, conf, describe_settings(params), n_splits,
                              cohort.labels[rows].astype(str), weighted,
                              (ss.get("model_token"), ss.get("cohort_name"),
                               len(cohort.train_rows)))

    # the current model's and cohort's results only: walk-through 69 read a 569-patient
    # cohort's scores under "the current model, trained on breast_cancer_30.csv"
    current = (ss.get("model_token"), ss.get("cohort_name"), len(cohort.train_rows))
    if ss.get("cls_results") is not None and len(ss.cls_results) == 7 \
            and ss.cls_results[6] == current:
        res, conf, described, splits, y, was_weighted, _ = ss.cls_results
        st.subheader("Results")
        st.caption(f"SparGE features: {md_escape(described)}; {splits} splits; "
                   + ("outcomes weighted equally (except in "
                      + ", ".join(CLASSIFIER_NAMES[c] for c in UNWEIGHTED) + ")."
                      if was_weighted else "classifiers trained without outcome weights."))
        summary = summarize(res)
        measure = st.selectbox("Measure", list(MEASURE_NAMES), key="cls_measure",
                               format_func=MEASURE_NAMES.get)
        chance = chance_level(measure, y)
        st.plotly_chart(classifier_bars_with_chance(summary, measure, chance), width="stretch",
                        config=SMALL_CHART)
        st.caption(f"Bars: mean ± SD over the splits. Dashed line: chance ({chance:.2f}), "
                   "the score of a classifier that ignores the data.")
        one = measure_table(res, measure)
        st.dataframe(one, hide_index=True, height=35 * (len(one) + 1) + 3,
                     column_config={"Classifier": st.column_config.TextColumn(pinned=True)})
        st.caption(f"{MEASURE_HEADERS[measure]}: mean ± SD over the {splits} test splits; "
                   "SparGE − raw: the mean of the difference on the same split ± its standard "
                   "error, widened because the splits share patients (Nadeau–Bengio); a "
                   "difference within "
                   + (f"{noise_margin(splits):.1f} times it (the margin of {splits} splits, "
                      "Student's t)" if splits >= 2 else "about twice it")
                   + " may be noise. "
                   "The classifiers see SparGE's embedding alone, as in the paper"
                   + ("; the look-alikes also use the forest part (the Model page's "
                      "held-out check)." if float(getattr(ss.model, "forest_weight_", 0.0)
                                                  or 0.0) > 0 else "."))
        verdict = comparison_verdict(res, measure, chance, weighted=was_weighted)
        if verdict:
            st.info(verdict)
        caution = leak_caution(cohort.encoder, cohort.features)
        if caution:  # walk-through 36: raw scores of 0.90 on a questioned column, unsaid
            st.warning(md_escape(caution, max_len=800))
        with st.expander("Every measure"):
            table = readable_summary(summary)
            st.dataframe(table, hide_index=True, height=35 * (len(table) + 1) + 3,
                         column_config={"Classifier": st.column_config.TextColumn(pinned=True)})
        st.subheader("Mean time per split (seconds)")
        st.caption("First row: building each feature set once per split (raw data: imputation "
                   "and scaling; SparGE: its fit and the test patients' embedding). Then each "
                   "classifier's fit + predict on that feature set.")
        times = readable_times(res)
        st.dataframe(times, column_config={c: st.column_config.NumberColumn(format="%.3f")
                                           for c in times.columns})
        st.subheader("Confusion matrices")
        clf = st.selectbox("Classifier",
                           [c for c in CLASSIFIER_NAMES if c in set(res["classifier"])],
                           key="cls_cm",
                           format_func=lambda c: CLASSIFIER_NAMES.get(c, c))
        st.caption(f"Summed over the {splits} test splits, then each row (true outcome) divided by "
                   "its total: a row sums to 100 % and the diagonal is each outcome's recall.")
        # side by side for two outcomes; one above the other for more (walk-throughs 25 and
        # 26: at 800 px three outcomes' cells were 22 px wide, "91%" spilling out of them)
        c1, c2 = st.columns(2) if len(conf["classes"]) <= 2 else (st.container(), st.container())
        c1.plotly_chart(confusion_heatmap(normalize_confusion(conf[("raw", clf)]), conf["classes"],
                                          "Raw data"), width="stretch", config=SMALL_CHART)
        c2.plotly_chart(confusion_heatmap(normalize_confusion(conf[("SparGE", clf)]),
                                          conf["classes"], "SparGE features"), width="stretch",
                        config=SMALL_CHART)
        st.download_button("Download all results (CSV)", to_csv(res),
                           file_name="classifier_comparison.csv", mime="text/csv")
