"""Model: train SparGE with its parameters, watch the objective, save and load models.

Every widget of the training form starts from ``SparGE().get_params()`` (the library's
benchmarked defaults, one source of truth). The loader sits above everything that reads
the current model, and everything that reads it is inside the error guard, so one damaged
model never locks the page.
"""

import time

import pandas as pd
import streamlit as st

from sparge import SparGE, load_model, model_to_bytes
from sparge.app.lookalikes import current_check, repeat_words, warn_data_model_mismatch
from sparge.app.plots import SMALL_CHART
from sparge.app.plots_setup import objective_figure
from sparge.app.shell import (
    flash,
    fmt_number,
    guard,
    init_state,
    mismatch_message,
    model_summary,
    previous_model_back,
    set_model,
    show_flashes,
)
from sparge.data.safe_text import md_escape
from sparge.services.display import model_filename, outcome_order
from sparge.services.persistence import model_file_holds
from sparge.services.resources import busy_note, estimate_fit
from sparge.services.teaching import training_story
from sparge.services.workflow import (
    few_kept_caution,
    leak_caution,
    model_params,
    people,
    repeated_rows_words,
    train,
)

init_state()  # also when a deep link runs this page before app.py
ss = st.session_state
st.title("Model")
show_flashes()
header = st.empty()  # filled at the end: names the model trained or loaded in this run
back_box = st.container()  # and offers the model it replaced

# ---------------------------------------------------------------- load (above all else)
st.subheader("Load a model")
up = st.file_uploader("Load a model (.sparge)", type=["sparge"], key="model_upload",
                      help="A .sparge file holds numbers and JSON only (it is never run "
                           "as code). A file that cannot be read leaves the current model "
                           "in place.")
if up is not None and ss.get("model_upload_seen") != (up.name, up.size):
    ss.model_upload_seen = (up.name, up.size)
    with guard(f"Loading {md_escape(up.name)}"):
        m, enc = load_model(up.getvalue())
        summary = model_summary(m)
        set_model(m, enc, f"loaded from {up.name}")
        st.success(f"Loaded {md_escape(up.name)}: {summary}")

# ---------------------------------------------------------------- train
cohort = ss.cohort
defaults = SparGE().get_params()  # the form starts from the library's defaults ...
# ... or from the settings last trained with on this table (by its name, which its
# one-click repairs keep): walk-through 44 unticked "Use the outcome", trained, came back
# from another page and found it ticked again
kept = ss.get("train_form_kept")
# ... drawn from them once per visit: a form whose defaults change between two runs is a
# new form, and walk-through 48's "Use the outcome", ticked again right after an
# unsupervised training, trained without the outcome once (its tick went to the old form)
form_gen = ss.get("train_form_gen", 0)
frozen = ss.get("train_form_start")
if f"train_supervised_{form_gen}" in ss and frozen is not None and \
        frozen[0] == (form_gen, ss.get("cohort_name")):
    start = frozen[1]  # the user is on this form: it keeps the defaults it was drawn with
else:
    start = ({**defaults, **kept[1]} if kept and kept[0] == ss.get("cohort_name")
             else defaults)
    ss.train_form_start = ((form_gen, ss.get("cohort_name")), start)
has_labels = cohort.labels is not None
n_train, n_feat = len(cohort.train_rows), len(cohort.features)
estimate = estimate_fit(n_train, n_feat)


FORM_LABELS = {"supervised": "Use the outcome", "n_components": "Embedding dimensions",
               "representation": "What is embedded", "n_atoms": "Dictionary patterns",
               "r1": "Code sparsity", "rank": "Gap filling", "k1": "Same-outcome neighbours",
               "k2": "Other-outcome neighbours", "max_iter": "Refinement iterations",
               "forest_weight": "Forest weight", "forest_proximity": "Forest proximity",
               "forest_min_leaf": "Forest leaf size", "max_fit_samples": "Training sample",
               "neighbor_search": "Neighbour search",
               "anchor_weight": "Few values: match the values given"}


def _options(options: list, default) -> tuple[list, int]:
    """The options with the default among them, and its index."""
    opts = list(options) if default in options else [default, *options]
    return opts, opts.index(default)


st.subheader("Train a model")
changed = [FORM_LABELS.get(k, k) for k in defaults
           if k in FORM_LABELS and start[k] != defaults[k]]
if changed:  # said only when they are not the defaults
    st.caption("The form shows the settings of your last training on this table ("
               + ", ".join(changed) + " changed from the defaults).")
    if st.button("Back to the benchmarked defaults", key="train_form_reset"):
        ss.pop("train_form_kept", None)
        # a new form: its widgets start afresh (the browser would send the values set)
        ss.train_form_gen = ss.get("train_form_gen", 0) + 1
        st.rerun()
with st.form(f"train_form_{form_gen}"):
    st.write(f"Train on **{md_escape(ss.cohort_name)}**: {n_train:,} patients kept for "
             f"training × {n_feat:,} features. Estimated fit: "
             f"{estimate.summary().split(': ', 1)[-1]}"
             f"{busy_note(estimate.seconds)}.")
    few = few_kept_caution(n_train, len(cohort.ids))
    blocking = list(cohort.encoder.report_.blocking)
    if blocking:  # walk-through 53 clicked an active Train to read "Cannot train"
        # the threshold's way out only where the threshold blocks (walk-through 77's
        # empty outcome read it)
        st.error("Training cannot start: " + md_escape("; ".join(
            b.rstrip(".") for b in blocking), 600) + "." + (
                " The Data page's report says how to proceed (a one-click button leaves "
                "out the columns that cost the most patients, or raise the threshold on "
                "missing values there)." if any("threshold" in b for b in blocking) else ""))
    if few and not blocking:  # the block says why (walk-through 77 read both at once)
        st.warning(few)
    supervised = st.checkbox("Use the outcome (supervised)",
                             value=has_labels and start["supervised"],
                             key=f"train_supervised_{form_gen}",
                             disabled=not has_labels,
                             help="Pull patients with the same outcome together (marginal "
                                  "Fisher analysis graphs). Off: neighbourhoods only."
                                  + ("" if has_labels else " Not available: no outcome "
                                     "column is set on the Data page (or it holds a single "
                                     "answer)."))
    # the method's settings folded away: the defaults are the benchmarked ones, and a
    # clinician met fourteen technical controls (r1, k1, in-bag trees) before "Train"
    advanced = st.expander("Method settings (optional: the defaults gave the best "
                           "look-alikes on our benchmark cohorts)")
    c1, c2 = advanced.columns(2)  # two columns: labels and values stay readable at 800 px
    n_components = c1.slider("Embedding dimensions", 2, max(40, start["n_components"]),
                             start["n_components"],
                             help="Size of the learned space where distance = similarity. "
                                  "10-20 works best in our benchmarks; 2 can lose look-alike "
                                  "quality where outcomes or subgroups need more directions "
                                  "(with two outcomes it may not: the held-out check below "
                                  "says).")
    rep_opts, rep_i = _options(["codes+completed", "codes"], start["representation"])
    representation = c2.selectbox(
        "What is embedded", rep_opts, index=rep_i,
        # short: "sparse codes + completed values" was cut at 800 px
        format_func={"codes+completed": "codes + values", "codes": "codes only (paper)"}.get,
        # walk-through 69: not the values themselves, their scores on the r patterns
        help="Codes only: the paper's method, the sparse codes alone. Codes + values also "
             "keeps each patient's gap-filled values, summarised by their scores on the "
             "few patterns (components) of the low-rank completion, each patient's row "
             "scaled to length one (better look-alikes in our benchmarks).")
    n_atoms = c1.slider("Dictionary patterns, atoms (0 = auto)", 0,
                        max(128, start["n_atoms"] or 0), start["n_atoms"] or 0,
                        help="Number of prototypical patterns the sparse codes use. Auto: "
                             "a tenth of the patients, between 16 and 64.")
    r1 = c2.number_input("Code sparsity r1", 0.0, 1.0, float(start["r1"]), 0.01,
                         help="Larger: fewer atoms per patient (sparser codes).")
    rank_default = "all" if start["rank"] is None else start["rank"]
    rank_opts, rank_i = _options(["all", "auto", 2, 5, 10, 20, 50], rank_default)
    rank = c2.selectbox("Gap filling: components kept (rank)", rank_opts, index=rank_i,
                        help="How many patterns of the low-rank table fill the gaps. 'all': "
                             "every component the nuclear norm keeps (best in our "
                             "benchmarks); 'auto': only those above the noise level "
                             "(Gavish-Donoho threshold).")
    k1 = c1.slider("Same-outcome neighbours k1", 2, max(60, start["k1"]), start["k1"],
                   help="Each training patient is pulled towards this many nearest "
                        "patients with the same outcome.")
    k2 = c1.slider("Other-outcome neighbours k2", 2, max(60, start["k2"]), start["k2"],
                   help="Each training patient is pushed away from this many nearest "
                        "patients with another outcome.")
    max_iter = c2.slider("Refinement iterations", 0, max(30, start["max_iter"]),
                         start["max_iter"],
                         help="Joint dictionary refinement; the iterate with the best held-out "
                              "look-alike quality is kept.")
    fw_opts, fw_i = _options(["auto", 0.0, 0.5, 1.0, 1.5, 2.0, 4.0], start["forest_weight"])
    forest_weight = c2.selectbox(
        "Forest weight", fw_opts, index=fw_i,
        format_func=lambda v: v if isinstance(v, str) else (
            "off (embedding only)" if v == 0 else f"{v:g}"),
        help="Weight of random-forest proximity in the look-alike metric. Look-alike "
             "distance = distance in the SparGE embedding, plus (weight² × "
             "spread) × (1 − forest proximity: see 'Forest proximity'). 'auto' tries 0, "
             "0.5, 1, 2 and 4 against 1.5 on patients held out from training (out-of-bag "
             "proximities) and moves away from 1.5 only when one is clearly better; the map "
             "and the codes are the embedding's either way.")
    fp_opts, fp_i = _options(["in-bag", "shared-leaf"], start["forest_proximity"])
    forest_proximity = c2.selectbox(
        "Forest proximity", fp_opts, index=fp_i,
        format_func={"in-bag": "in-bag trees", "shared-leaf": "all trees"}.get,
        help="How close the forest puts a patient to a training patient. In-bag trees: "
             "the share of the trees grown with that training patient (drawn into the "
             "tree's sample) in which the two end in the same leaf, which is how a "
             "forest's own vote is made. All trees: the share of every tree (Breiman's "
             "proximity). In-bag gave better look-alikes on 12 of 16 benchmark cohorts. "
             "Above 20,000 training patients every tree counts.")
    ml_opts, ml_i = _options(["auto", 1, 5, 20], start["forest_min_leaf"])
    forest_min_leaf = c1.selectbox(
        "Forest leaf size", ml_opts, index=ml_i,
        format_func=lambda v: "auto" if v == "auto" else f"{v} patient{'s' if v != 1 else ''}",
        help="Smallest leaf of the forest's trees. 1: fully grown trees (as in "
             "Breiman's forests; best on our benchmark cohorts). Larger leaves smooth the "
             "proximity where an outcome is rare; 'auto' tries 1, 5 and 20 on 30 % of the "
             "training patients and keeps the best (the model's summary line shows the leaf "
             "used).")
    sample_default = start["max_fit_samples"] or 0
    max_fit_samples = c2.number_input(
        "Training sample (0 = all)", 0, 10_000_000, int(sample_default), 1000,
        help="A larger cohort is learned from a stratified sample of this size (the "
             "dictionary, graphs and projection); every patient is then embedded. The "
             "Explore page and the report show the sample size.")
    ns_opts, ns_i = _options(["auto", "exact", "approximate"], start["neighbor_search"])
    neighbor_search = c1.selectbox(
        "Neighbour search", ns_opts, index=ns_i,
        help="'auto': exact below 50,000 patients per graph and 200,000 look-alike "
             "candidates, approximate (NN-descent, recall ≥ 0.95 in our benchmarks) above. "
             "'exact' is slower on large cohorts; 'approximate' is for testing.")
    aw_opts, aw_i = _options(["auto", 0.0, 0.5, 1.0, 2.0, 4.0], start["anchor_weight"])
    anchor_weight = c1.selectbox(
        "Few values: match the values given", aw_opts, index=aw_i,
        format_func=lambda v: "auto" if isinstance(v, str) else (
            "off (learned distance only)" if v == 0 else f"weight {v:g}"),
        help="A new patient with more gaps than a typical training patient is placed from "
             "gap-filled values, which lean towards the cohort's typical patient. Their "
             "look-alikes are then also chosen to share the values given, the more the "
             "fewer values there are. 'auto': weight 0.5 with the outcome, 2 without (on "
             "our benchmark cohorts the look-alikes' gap on the given values halved, at a "
             "small cost in how often they share the patient's outcome). Off: the learned "
             "distance alone. Patients with no more gaps than usual are never affected.")
    confirmed = True
    if estimate.too_big:
        st.warning(estimate.message())
        confirmed = st.checkbox("I understand; train here anyway", key="train_confirm")
    go = st.form_submit_button("Train", type="primary", disabled=bool(blocking))

if go and not confirmed:
    st.error("Training was not started: tick \"train here anyway\" above, or follow one of "
             "the ways to proceed.")
elif go:
    params = {"supervised": supervised, "n_components": n_components,
              "representation": representation, "n_atoms": n_atoms or None, "r1": r1,
              "rank": None if rank == "all" else rank, "k1": k1, "k2": k2, "max_iter": max_iter,
              "forest_weight": forest_weight, "forest_min_leaf": forest_min_leaf,
              "forest_proximity": forest_proximity,
              "max_fit_samples": int(max_fit_samples) or None,
              "neighbor_search": neighbor_search, "anchor_weight": anchor_weight}
    # kept through a re-encoding; "Use the outcome" only when it could be chosen
    # (walk-through 82 trained without an outcome, chose one, re-encoded, and the
    # untouched form trained without it again, "changed from the defaults")
    ss.train_form_kept = (ss.get("cohort_name"), params if has_labels else
                          {k: v for k, v in params.items() if k != "supervised"})
    stages = ["completion", "dictionary", "codes", "refinement", "forest", "embedding"]
    progress_box = st.empty()  # the bars go once training has ended
    with progress_box.container():
        bars = {s: st.progress(0.0, text=f"{s}: waiting") for s in stages}

    def progress(stage, info):
        if stage in bars:
            p = float(min(max(info.get("progress", 0.0), 0.0), 1.0))
            bars[stage].progress(p, text=f"{stage}: {100 * p:.0f}%")

    with guard("Training"):
        t0 = time.perf_counter()
        try:
            model = train(cohort, params, callback=progress)
        finally:  # a failed training leaves no "waiting" bars behind its message
            progress_box.empty()
        # an unsupervised model says so in its name: walk-through 46's "Go back to the
        # previous model (trained on copd_export.csv …)" named two models alike
        set_model(model, cohort.encoder, f"trained on {ss.cohort_name}"
                  + ("" if model.supervised else ", without the outcome"))
        # the model's own fit time, as its training history below says it (walk-through
        # 80 read "Fitted in 1.3 s" beside "Fit time 1.2 s")
        took = getattr(model, "fit_time_", None) or time.perf_counter() - t0
        st.success(f"Fitted in {took:.1f} s: {model_summary(model)}")

header.caption(f"Current model: {md_escape(ss.model_name)} — {model_summary(ss.model)}")
if ss.get("previous_model") is not None:
    # a model trained on a wrong outcome or threshold is one click from the one it replaced
    back_name = ss.previous_model[2]
    if back_box.button(f"Go back to the previous model ({md_escape(back_name, 80)})",
                       key="model_back", help="The model this one replaced, kept for this "
                                       "session; a second click comes back to this one."):
        previous_model_back()
        flash("success", f"Back to the previous model ({md_escape(back_name, 80)}).")
        st.rerun()

# ---------------------------------------------------------------- the current model
model = ss.model
st.subheader("Training history of the current model")
history_box = st.container()
with guard("Showing the training history"):
    warn_data_model_mismatch()  # the history is the model's, not the loaded data's
    if mismatch_message():
        # another table's model (the bundled one before a first training): its history
        # is folded away under the warning, not read as this table's
        history_box = st.expander(f"Its training history ({md_escape(ss.model_name)})")
with history_box, guard("Showing the training history"):
    m1, m2, m3 = st.columns(3)
    m1.metric("Fit time", fmt_number(getattr(model, "fit_time_", None), "{:.1f} s"))
    # "Step kept: 0" beside a falling objective read as "nothing was learned"
    kept = fmt_number(getattr(model, "best_iteration_", None), "step {:.0f}")
    m2.metric("Dictionary kept", "the first" if kept == "step 0" else kept,
              help="The refinement step whose dictionary the model keeps (the first: the "
                   "one learned before any refinement step): the best on the check of "
                   "set-aside training patients, whatever the objective did.")
    m3.metric("Final objective", fmt_number(getattr(model, "objective_", None)),
              help="The trace ratio J of the final model on all training patients (lower "
                   "is better). The chart's objective is on the part of them the "
                   "refinement fitted on, so the two numbers differ.")
    history = getattr(model, "history_", None)
    if history:
        st.plotly_chart(objective_figure(history, supervised=bool(model.supervised)),
                        width="stretch", config=SMALL_CHART)
        if getattr(model, "objective_", None) is not None:
            # which iterate was kept, why it stopped, and what the J above is
            st.caption(training_story(model))
    else:
        st.caption("No refinement history (refinement iterations set to 0).")

# ---------------------------------------------------------------- held-out check
@st.fragment
def heldout_check() -> None:
    """The held-out check, as a fragment: running it redraws this section only, so the
    rest of the page is not greyed out for the minute it takes."""
    st.subheader("How far to trust the look-alikes on this cohort")
    if cohort.labels is None:
        # the check scores look-alikes by their outcome: nothing to describe without one
        st.info("This check scores look-alikes by whether they share the patient's outcome, "
                "and the current table has no outcome column: choose one on the Data page "
                "to run it.")
        return
    st.caption("A held-out check on your own patients: on a few stratified 70/30 splits of "
               "the training patients, SparGE (with the current model's settings), "
               "random-forest proximity and the raw features are fitted on 70 % and the "
               "look-alikes of the other 30 % are scored: the balanced accuracy of a "
               "5-look-alike vote and the share of the 10 look-alikes with the patient's "
               "outcome (averaged over outcomes; chance is about 1 / number of outcomes; "
               "fewer look-alikes when a split trains on fewer patients).")
    if (repeats := people(cohort.ids[cohort.train_rows])) is not None:
        n_people = len(set(repeats.tolist()))
        st.caption(f"The {len(repeats):,} training rows are {n_people:,} patients (IDs "
                   f"repeated on other lines: {repeated_rows_words(repeat_words())}): "
                   "a patient's rows are held out together, so that no held-out row "
                   "finds the same person's other one among its look-alikes.")
    c_left, c_right = st.columns([1, 2])
    n_check = c_left.slider("Splits", 3, 10, 3, key="check_splits",
                            help="More splits: a steadier estimate, a longer wait.")
    run = c_right.button("Run the held-out check", key="check_run")
    out = st.empty()  # replaces the previous results at once when a new check starts
    if run:
        from sparge.services.lookalike_check import lookalike_check

        ss.check_results = None
        bar = out.progress(0.0, text=f"split 1 of {n_check}: starting")
        with guard("The held-out check"):
            rows = cohort.train_rows
            try:
                res = lookalike_check(cohort.X[rows], cohort.labels[rows].astype(str),
                                      n_splits=n_check, sparge_params=model_params(ss.model),
                                      callback=lambda p, msg: bar.progress(p, text=msg),
                                      groups=repeats)
            finally:  # a failed check leaves no "starting" bar above its message
                bar.empty()
            ss.check_results = (ss.cohort_name, len(rows), res, ss.get("model_token"))
    # the current model's and cohort's check only: walk-through 69 retrained with 16
    # atoms and read the last model's 74.0 % as this one's (it scored 72.3 %)
    if (res := current_check()) is not None:
        from sparge.services.lookalike_check import (
            check_reliability,
            check_verdict,
            lookalikes_scored,
            reliability_table,
            summarize_check,
        )

        with out.container(), guard("Showing the held-out check"):
            summ = summarize_check(res)
            k, k_vote = lookalikes_scored(res)
            n_classes = len(set(cohort.labels[cohort.train_rows].astype(str)))
            # the verdict is the app's own words, whole (walk-through 90 read it cut)
            st.write(md_escape(check_verdict(res, n_classes=n_classes)["sentence"],
                               max_len=3000))
            caution = leak_caution(cohort.encoder, cohort.features)
            if caution:
                st.warning(md_escape(caution, max_len=800))
            table = pd.DataFrame({
                "Representation": summ["method"],
                f"Same outcome (% of {k})": [f"{100 * m:.1f} ± {100 * d:.1f}" for m, d in zip(
                    summ["precision_at_10_balanced"], summ["precision_at_10_balanced_sd"],
                    strict=True)],
                "Vote bal. acc. (%)": [f"{100 * m:.1f} ± {100 * d:.1f}" for m, d in zip(
                    summ["knn_balanced_accuracy"], summ["knn_balanced_accuracy_sd"],
                    strict=True)],
                "s/split": [f"{v:.1f}" for v in summ["seconds"]]})  # 4 columns: fits 800 px
            st.dataframe(table, hide_index=True)
            n_done = int(summ["splits"].min())
            st.caption(f"Over {n_done} split{'s' if n_done != 1 else ''}. Same outcome: the % of "
                       f"the {k} look-alikes with the patient's outcome, averaged over "
                       f"outcomes. Vote bal. acc.: balanced accuracy of a {k_vote}-look-alike "
                       "vote, in %. "
                       + (f"Each split trains on {k} patients: the look-alikes are all of "
                          "them. " if k < 10 else "") +
                       "± : spread (SD) over the splits. s/split: seconds to fit the "
                       "representation and find the look-alikes, per split.")
            rel = check_reliability(res)
            if rel is not None:
                st.markdown("**What a share of SparGE's look-alikes meant for the held-out "
                            "patients**")
                shown = reliability_table(rel, outcome_order(model))
                # every band in view without scrolling the grid (up to 4 outcomes)
                st.dataframe(shown, hide_index=True,
                             height=35 * (min(len(shown), 20) + 1) + 3)
                st.caption(f"Every held-out patient of every split, by how many of its {k} "
                           "look-alikes had each outcome: how many patients, and the % of "
                           "them who had that outcome themselves (95 % Wilson interval). A "
                           "patient held out by several splits counts in each; the "
                           "intervals allow for it (as many patients as there are distinct "
                           "ones). "
                           f"'9 of {k} look-alikes had it' reads as a 90 % chance only "
                           "where this table says so. The Explore and New patient pages "
                           "quote it under the look-alikes' outcomes.")


heldout_check()

st.subheader("Save the current model")
with guard("Preparing the download"):
    cached = ss.get("model_bytes")
    if not cached or cached[0] != ss.get("model_token"):  # serialise once per model
        cached = (ss.get("model_token"), model_to_bytes(model, ss.model_encoder))
        ss.model_bytes = cached
    st.download_button("Download model (.sparge)", cached[1],
                       # named after the table it learned from, not a generic model.sparge
                       file_name=model_filename(ss.model_name),
                       mime="application/octet-stream")
    st.warning(model_file_holds(getattr(model, "y_", None) is not None))
