"""Streamlit helpers of the Explore and New patient pages: look-alikes, maps, caches.

Everything computed comes from :mod:`sparge.services.display`, :mod:`sparge.services.maps`
and the public API of :class:`sparge.SparGE`; this module only renders and caches per
session. User text reaches Markdown only through :func:`sparge.data.safe_text.md_escape`;
tables are plain text and downloads go through :func:`sparge.data.safe_text.to_csv`.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from sparge.app.plots import SMALL_CHART, outcome_share_bar
from sparge.app.plots import lookalike_comparison as comparison_plot
from sparge.app.shell import mismatch_message
from sparge.data.column_guess import row_sides
from sparge.data.safe_text import label_text, md_escape, plain_text, to_csv
from sparge.services.defining_answers import defining_columns, other_kinds, other_kinds_message
from sparge.services.display import (
    LOOKALIKE_HEADERS,
    biomarker_name,
    carried_choice,
    column_decimals,
    context_features,
    display_frame,
    flag_columns,
    has_forest_part,
    has_sd_scale,
    log_scale_note,
    lookalike_comparison,
    lookalike_display,
    outcome_is_scale,
    outcome_order,
    pair_comparison,
    pair_summary,
    safe_filename,
    severity_columns,
    snap_precision,
    sparse_weight_help,
    standardize,
    top_biomarkers,
    typical_deviation,
)
from sparge.services.left_out_colour import colourable_left_out
from sparge.services.lookalike_check import check_reliability
from sparge.services.maps import (
    RECOLUMNED,
    UMAP_FIT_MAX,
    MapProjector,
    map_frame,
    umap_note,
)
from sparge.services.matching import Match, default_within, match_patients, matched_on_answer
from sparge.services.workflow import (
    EPISODE,
    cohort_patients,
    far_lookalikes_message,
    identical_lookalikes_message,
    leak_caution,
    lookalikes_heldout,
    outcome_share_caption,
    outcome_shares,
    own_rows_message,
    repeat_kind,
)

#: Map choices shown to the user -> MapProjector method.
MAP_CHOICES = {"SparGE · PCA (instant)": "pca",
               "SparGE · UMAP": "umap",
               "Raw data · PCA (comparison)": "raw"}


# ---------------------------------------------------------------------------- caches
def current_check() -> pd.DataFrame | None:
    """The Model page's held-out check results of the current model and cohort, or
    ``None``: walk-through 69 retrained with 16 atoms and read the last model's 74.0 % as
    this one's, so another model's (or table's) check is never shown or quoted."""
    ss = st.session_state
    got, cohort = ss.get("check_results"), ss.get("cohort")
    if got is None or cohort is None:
        return None
    if (got[0], got[1], got[3]) != (ss.get("cohort_name"), len(cohort.train_rows),
                                    ss.get("model_token")):
        return None
    return got[2]


#: Key items compared by value; any other object (a table, a cohort, a file's bytes) by
#: identity, and a tuple item by its items.
_BY_VALUE = (str, int, float, bool, type(None), np.generic, frozenset)


def _same_key(a: tuple, b: tuple) -> bool:
    """Keys' items equal, objects such as a table or a cohort by identity (the cache holds
    them, so that a new object never takes a forgotten one's ``id``)."""
    def same(x, y) -> bool:
        if x is y:
            return True
        if isinstance(x, tuple) and isinstance(y, tuple):
            return _same_key(x, y)
        return isinstance(x, _BY_VALUE) and isinstance(y, _BY_VALUE) and bool(x == y)

    return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))


def session_cache(name: str, key: tuple, compute: Callable[[], object]):
    """``compute()`` once per session for ``key`` (e.g. the model token, or the cohort
    object itself); the latest only."""
    ss = st.session_state
    slot = ss.get(f"_cache_{name}")
    if slot is not None and _same_key(slot[0], key):
        return slot[1]
    value = compute()
    ss[f"_cache_{name}"] = (key, value)
    return value


def _model_key() -> tuple:
    return (st.session_state.get("model_token"),)


#: What :func:`model_cache` holds: ``{model: {name: value}}``, each model's entries gone
#: with the model.
_BY_MODEL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_BY_MODEL_LOCK = threading.Lock()


def model_cache(name: str, model, compute: Callable[[], object]):
    """``compute()`` once per model object and ``name``, for every session of the server
    (a function of the model alone: the default model is one object shared by every
    session, and a new session's first look-alikes of a new patient paid 3-10 s for its
    reference of typical misfits). The value is shared: never change it in place."""
    with _BY_MODEL_LOCK:
        held = _BY_MODEL.get(model)
        if held is not None and name in held:
            return held[name]
    value = compute()  # outside the lock: another model's pages are not held up
    with _BY_MODEL_LOCK:
        return _BY_MODEL.setdefault(model, {}).setdefault(name, value)


def importance() -> np.ndarray:
    """The current model's feature importance (weight in the learned metric), cached."""
    model = st.session_state.model
    return model_cache("importance", model, model.feature_importance)


def training_values() -> pd.DataFrame:
    """The current model's training patients in original units, cached."""
    model = st.session_state.model
    return model_cache("training_values", model, lambda: snap_precision(
        model.training_values(), model.value_mean_, model.value_scale_))


def patient_index():
    """Every patient of the current data in the current model's space (cached)."""
    ss = st.session_state
    return session_cache("patient_index", _model_key() + (id(ss.cohort),),
                         lambda: cohort_patients(ss.model, ss.cohort))


def repeat_words() -> str:
    """What another row with a patient's ID is in the current data ("another admission
    or episode"; "the other eye" in a register of eyes: walk-through 104), cached."""
    ss = st.session_state
    cohort = ss.get("cohort")
    if cohort is None:
        return EPISODE
    return session_cache("repeat_kind", (id(cohort),), lambda: repeat_kind(
        cohort.df, cohort.encoder.naming_column(cohort.df)))


def row_side(row: int) -> str:
    """The eye or side the current data's row ``row`` is ("right eye") where a repeated
    ID's rows are one patient's two eyes or sides, else "" (cached per data)."""
    ss = st.session_state
    cohort = ss.get("cohort")
    if cohort is None:
        return ""
    def read() -> pd.Series | None:
        column = cohort.encoder.naming_column(cohort.df)
        return row_sides(cohort.df, column) if column else None

    sides = session_cache("row_sides", (id(cohort),), read)
    return "" if sides is None or not 0 <= row < len(sides) else str(sides.iloc[row])


def training_cells(training_index) -> pd.DataFrame | None:
    """The cells of the model's training patients ``training_index`` as read from the
    current data (for values written as a limit), or ``None`` when the data is not the
    model's own (:func:`patient_index`)."""
    index = patient_index()
    if index is None or not index.compatible:
        return None
    tix = np.asarray(index.train_index, dtype=int)
    want = np.asarray(training_index, dtype=int).ravel()
    row_of = np.full(max(int(tix.max(initial=-1)), int(want.max(initial=-1))) + 1, -1)
    row_of[tix[tix >= 0]] = np.flatnonzero(tix >= 0)  # one pass, not a loop per rerun
    rows = row_of[want]
    if (rows < 0).any():
        return None
    return st.session_state.cohort.df.iloc[rows].reset_index(drop=True)


def left_out_colours() -> list[str]:
    """The current data's columns that the model does not use and that can colour the map
    (:func:`sparge.services.left_out_colour.colourable_left_out`; cached per data)."""
    cohort = st.session_state.cohort
    enc = cohort.encoder
    return session_cache("left_out_colours", (id(cohort),), lambda: colourable_left_out(
        cohort.df, dict(enc.roles_), enc.table_.missing_keys))


def default_biomarkers(n: int = 8, measured=None, unusual=None, encoder=None) -> list[str]:
    """The biomarkers that most separate typical patients in the learned similarity (with
    ``measured``, the patient's values: those it has first; with ``unusual``, its values
    in SD from the cohort's mean: those where it stands out rank higher; with ``encoder``,
    the patient's severity scores, stages and grades first, up to
    :data:`~sparge.services.display.SEVERITY_FIRST`)."""
    model = st.session_state.model
    typical = model_cache("typical_deviation", model,
                          lambda: typical_deviation(model.training_data_))
    names = model.feature_names()
    severity = None if encoder is None else model_cache(
        "severity_columns", model, lambda: severity_columns(names, encoder))
    return top_biomarkers(importance(), names, n, measured=measured,
                          typical=typical, unusual=unusual, severity=severity)


def warn_data_model_mismatch() -> None:
    """Say so when the data and the model come from different tables."""
    ss = st.session_state
    msg = mismatch_message()
    if msg.startswith(RECOLUMNED):  # the model's own patients: train again, nothing else
        st.warning(f"{md_escape(msg, 600)} Data: {md_escape(ss.get('cohort_name', ''))}. "
                   f"Model: {md_escape(ss.get('model_name', ''))}.")
    elif msg:
        st.warning(f"{md_escape(msg, 600)} Data: {md_escape(ss.get('cohort_name', ''))}. "
                   f"Model: {md_escape(ss.get('model_name', ''))}. To see this data's "
                   "own patients, train a model on it (**Model** page, *Train a model*) or "
                   "load the model trained on it.")


# ---------------------------------------------------------------------------- maps
def map_choices(model) -> list[str]:
    """The map views this model supports (no UMAP for a 2-D embedding)."""
    return [c for c, m in MAP_CHOICES.items()
            if m != "umap" or MapProjector.umap_possible(model)]


def default_map_choice(model) -> str:
    """UMAP when it is already there (the bundled model's precomputed map), else PCA."""
    maps = st.session_state.get("maps", {})
    for choice in map_choices(model):
        if MAP_CHOICES[choice] == "umap" and "umap" in maps:
            return choice
    return next(iter(MAP_CHOICES))


def map_select(key: str, label: str = "Map") -> str:
    """A map-view selectbox that starts from :func:`default_map_choice` for every new
    model; returns the method."""
    ss = st.session_state
    model = ss.model
    choices = map_choices(model)
    if ss.get(f"{key}_token") != ss.get("model_token") or ss.get(key) not in choices:
        ss[key] = default_map_choice(model)
        ss[f"{key}_token"] = ss.get("model_token")
    choice = st.selectbox(label, choices, key=key,
                          help="PCA of the learned embedding is instant at any size; UMAP "
                               "spreads clusters better and is computed when you ask for "
                               f"it. {umap_note(len(model.embedding_))} The raw-data view "
                               "shows the standardised biomarkers without SparGE.")
    return MAP_CHOICES[choice]


def projector(method: str) -> MapProjector:
    """The session's map of the current model (fitted once per model and method)."""
    ss = st.session_state
    maps = ss.setdefault("maps", {})
    if method not in maps:
        n = len(ss.model.embedding_)
        what = {"umap": "UMAP", "pca": "PCA", "raw": "raw-data PCA"}[method]
        note = ""
        if method == "umap":
            note = (f" (fitted on a random {UMAP_FIT_MAX:,} of them, the others placed from "
                    "their look-alikes: a few minutes)" if n > UMAP_FIT_MAX else
                    " (up to a minute)")
        with st.spinner(f"Computing the {what} map of {n:,} training patients{note}…"):
            maps[method] = MapProjector(method).fit(ss.model)
    return maps[method]


def cohort_frame(method: str, proj: MapProjector, index, labels=None) -> pd.DataFrame:
    """Every patient of ``index`` on the session's ``method`` map (cached per model, data
    and map: placing 100,000 left-out patients on a UMAP map takes a while, and a click
    must not redo it)."""
    ss = st.session_state
    key = _model_key() + (id(ss.get("cohort")), id(index), method, id(proj))
    return session_cache("map_frame", key,
                         lambda: map_frame(ss.model, proj, index, labels))


# ---------------------------------------------------------------------------- matching
def _within_key(key: str, j: int) -> str:
    return f"{key}_within_{j}"


def lookalike_match(key: str, query_values, own: int | None = None) -> Match:
    """The training patients that match the patient on the biomarkers chosen in this
    page's *Match exactly on* controls (:func:`match_controls`, which may be drawn later
    in the page: the choice is read from the session). A new model starts with no
    condition; the choice is kept aside across patients and pages (Streamlit forgets a
    widget's value when its page is left).

    Parameters
    ----------
    key : the page's widget prefix
    query_values : the patient's values in original units (category codes), NaN gaps
    own : the patient's training index, for a training patient
    """
    ss = st.session_state
    model = ss.model
    names = model.feature_names()
    if ss.get(f"{key}_match_for") != ss.get("model_token"):
        for k in [k for k in ss if str(k).startswith((f"{key}_match", f"{key}_within_"))]:
            ss.pop(k, None)
        ss[f"{key}_match_for"] = ss.get("model_token")
    kept = ss.get(f"{key}_match_kept", {})
    if f"{key}_match" not in ss:
        ss[f"{key}_match"] = [f for f in kept.get("features", []) if f in names]
    chosen = [f for f in ss[f"{key}_match"] if f in names]
    values = training_values()
    within = {}
    for f in chosen:
        wk = _within_key(key, names.index(f))
        if wk not in ss:
            ss[wk] = float(kept.get("within", {}).get(f, default_within(values[f])))
        within[f] = float(ss[wk])
    ss[f"{key}_match_kept"] = {"features": chosen, "within": within}
    flags = session_cache("flag_columns", _model_key(), lambda: flag_columns(values))
    return match_patients(values, query_values, chosen, within,
                          st.session_state.get("model_encoder"), flags, own)


def match_controls(key: str, match: Match, n_neighbors: int) -> None:
    """The *Match exactly on* controls (an expander, open while a condition applies) and,
    outside it, what the look-alike list is drawn from."""
    ss = st.session_state
    model, encoder = ss.model, ss.get("model_encoder")
    names = model.feature_names()
    flags = session_cache("flag_columns", _model_key(),
                          lambda: flag_columns(training_values()))
    chosen = ss.get(f"{key}_match", [])
    label = "Match exactly on some biomarkers (optional)"
    if chosen:
        label = f"Matched exactly on {len(chosen)} biomarker{'s' if len(chosen) > 1 else ''}"
    with st.expander(label, expanded=bool(chosen)):
        st.multiselect(
            "Look-alikes only among the patients with the same answer (categories) or a "
            "close value (numbers) of", names, key=f"{key}_match",
            format_func=lambda f: biomarker_name(f, encoder),
            help="The learned similarity weighs what tells the outcomes apart; choose the "
                 "biomarkers that must also match (the same sex, an age band). The "
                 "look-alikes are the nearest of the matching patients under the same "
                 "similarity.")
        numbers = [f for f in chosen if not matched_on_answer(f, encoder, flags)]
        if numbers:
            grid = st.columns(2)
            for i, f in enumerate(numbers):
                grid[i % 2].number_input(label_text(f"{biomarker_name(f, encoder)}: "
                                                    "within ±", 100), min_value=0.0, format="%g",
                                         key=_within_key(key, names.index(f)))
    said = match.message(n_neighbors)
    if said:
        (st.warning if match.none_match else st.info)(md_escape(said, 900))


# ---------------------------------------------------------------------------- look-alikes
def _match_on(key: str, feature: str) -> None:
    """Button callback: add ``feature`` to the page's *Match exactly on* choice (a
    callback runs before the multiselect is drawn again, so its value may change)."""
    ss = st.session_state
    chosen = list(ss.get(f"{key}_match", []))
    if feature not in chosen:
        ss[f"{key}_match"] = chosen + [feature]


def other_kind_note(key: str, query_values, neighbours: pd.DataFrame, encoder) -> None:
    """Say when most look-alikes differ from the patient on a column that sorts the
    cohort into kinds (a tumour site, :mod:`sparge.services.defining_answers`), with a
    button per column to match on it."""
    if encoder is None:
        return
    columns = session_cache("defining_columns", _model_key(),
                            lambda: defining_columns(training_values(), encoder))
    found = other_kinds(query_values, neighbours, columns, encoder,
                        matched=st.session_state.get(f"{key}_match", []))
    if not found:
        return
    st.warning(md_escape(other_kinds_message(found), 1500))
    # one under the other: side by side, "Match on Primary ren…" was cut at 800 px
    for o in found:
        st.button(label_text(f"Match on {o.name}", 80), key=f"{key}_kind_{o.feature}",
                  on_click=_match_on, args=(key, o.feature),
                  help=md_escape(f"Look-alikes only among the patients whose {o.name} is "
                                 f"{o.answer}.", 300))


def wrapped_table(frame: pd.DataFrame, columns: list[str], headers: dict[str, str]) -> None:
    """``frame[columns]`` as a static table whose cells wrap, the first column as its row
    names and ``headers`` renaming the others: for short tables of text that must be read
    whole at 800 px (a data grid cuts every cell at its column's width)."""
    shown = frame[columns].rename(columns=headers).set_index(columns[0])
    # st.table reads its cells as Markdown: a patient's ">90" became a quote, "90"
    # (walk-through 22); the cells and row names are shown as written
    shown = shown.map(lambda v: md_escape(v, 400) if isinstance(v, str) else v)
    shown.index = pd.Index([md_escape(v, 200) if isinstance(v, str) else v
                            for v in shown.index], name=shown.index.name)
    st.table(shown)


def show_lookalikes(model, table: pd.DataFrame, query_values, name: str, encoder=None,
                    *, key: str = "la", written: dict[str, str] | None = None,
                    match: Match | None = None, outcome: object = None) -> None:
    """A look-alike table (plain headers, the sparse weight explained), its download, the
    outcomes among the look-alikes and a comparison of the biomarkers in clinical units.

    Parameters
    ----------
    table : from :func:`sparge.services.workflow.lookalike_table`
    query_values : array-like (m,)
        The patient's values in original units (encoded categories), NaN gaps.
    name : the patient's ID (user text: shown escaped, file name sanitised)
    encoder : the model's encoder (decodes categories) or None (numbers shown)
    key : prefix of the widget keys (one per page)
    written : the patient's values written as a limit in its table ("<15"), by feature
        (:func:`sparge.services.display.limits_as_written`): compared as written
    match : the conditions the look-alikes were drawn under (:func:`lookalike_match`),
        named in the download
    outcome : the patient's own outcome, when known (a training patient's), in the
        download's first row
    """
    weight_help = sparse_weight_help(model)
    forest = has_forest_part(model)
    config = {
        "rank": st.column_config.NumberColumn(LOOKALIKE_HEADERS["rank"], width=40),
        "ID": st.column_config.TextColumn(LOOKALIKE_HEADERS["ID"]),
        "distance": st.column_config.NumberColumn(
            LOOKALIKE_HEADERS["distance"], format="%.3f", width=64,
            help="Look-alike distance (smaller = more alike): in the learned SparGE "
                 "space" + (", plus the random-forest dissimilarity" if forest else "")),
        "similarity": st.column_config.ProgressColumn(
            LOOKALIKE_HEADERS["similarity"], min_value=0.0, max_value=1.0, format="%.2f",
            width=84,
            # walk-through 74: "similarity" was never defined, and read as a percentage
            help="exp(−d²/h) of the look-alike distance d: 1 = identical in the learned "
                 "space; h is twice the squared distance within which 90 % of the training "
                 "patients' look-alikes lie, so a typical look-alike scores 0.6 or more. "
                 "Not a percentage, and on this model's scale only: compare similarities "
                 "within one model."),
        "sparse_weight": st.column_config.NumberColumn(
            LOOKALIKE_HEADERS["sparse_weight"], format="%.3f", width=92,
            help=weight_help),
        "outcome": st.column_config.TextColumn(LOOKALIKE_HEADERS["outcome"]),
        "training_index": None,
    }
    # the look-alikes' age, sex and diagnosis beside them (walk-through 89 could not see
    # that a man's first look-alike was a woman ten years younger)
    context = context_features(model.feature_names())
    shown = table
    if context:
        values = display_frame(training_values().iloc[
            table["training_index"].to_numpy()][context], encoder)
        shown = table.copy()
        for c in context:
            shown[f"context {c}"] = values[c].to_numpy()
            config[f"context {c}"] = st.column_config.TextColumn(plain_text(c, 40))
    # The outcome right after the ID: on a narrow screen it is never the clipped column;
    # ... nor the similarity and sparse weight (walk-through 95 at 800 px: behind the
    # table's scroll, after the age and sex)
    order = [c for c in ("rank", "ID", "outcome", "similarity", "sparse_weight", "distance",
                         *(f"context {c}" for c in context)) if c in shown.columns]
    st.dataframe(shown, hide_index=True, column_config=config, column_order=order,
                 width="stretch", key=f"{key}_table")
    if "sparse_weight" in table.columns:
        st.caption(f"Sparse weight: the {weight_help}.")
    matched = match.file_note if match is not None else ""
    neighbours = training_values().iloc[table["training_index"].to_numpy()]
    lookalike_cells = training_cells(table["training_index"].to_numpy())
    # a value converted from another unit as its column writes them (71.7, not 71.6676)
    decimals = model_cache("decimals", model,
                           lambda: column_decimals(training_values()))
    # the patient's and the look-alikes' values follow (walk-throughs 45 and 47), written
    # when the button is clicked: a wide table is not formatted on every rerun
    st.download_button("Download look-alikes (CSV)", lambda: to_csv(lookalike_display(
                           table, matched, values=neighbours, patient=query_values,
                           name=name, encoder=encoder, cells=lookalike_cells,
                           written=written, outcome=outcome, decimals=decimals),
                                               float_format="%.10g"),
                       file_name=f"lookalikes_{safe_filename(name)}.csv", mime="text/csv",
                       key=f"{key}_download",
                       help="The look-alikes with their similarity, then this patient's "
                            "and their values of every biomarker (the patient first).")
    shares = outcome_shares(table)
    far = far_lookalikes_message(table)
    if far:
        st.warning(far)
    same = identical_lookalikes_message(table, query_values, neighbours, query_id=name)
    if same:
        st.warning(md_escape(same, 800))
    own = own_rows_message(table, name, identical=same, kind=repeat_words())
    if own:
        st.info(md_escape(own, 800))
    other_kind_note(key, query_values, neighbours, encoder)
    caution = leak_caution(encoder, model.feature_names(), lookalikes=True) \
        if encoder is not None else None
    if caution:
        st.warning(md_escape(caution, max_len=800))
    if len(shares):
        check = current_check()
        conditioned = match is not None and bool(match.applied)
        reliability = check_reliability(check) if check is not None and not conditioned \
            else None
        # what such a share meant for the held-out patients, drawn beside its bar
        st.plotly_chart(outcome_share_bar(shares, order=outcome_order(model),
                                          heldout=lookalikes_heldout(table, reliability),
                                          ordered=outcome_is_scale(model)),
                        width="stretch", key=f"{key}_outcomes",
                        config=SMALL_CHART)
        q = np.asarray(query_values, dtype=float).ravel()
        said = outcome_share_caption(
            table, reliability, conditioned=conditioned and check is not None,
            measured=(int(np.isfinite(q).sum()), int(q.size)))
        if said:
            st.caption(md_escape(said, 900))
    names = model.feature_names()
    st.markdown("**This patient and the look-alikes, biomarker by biomarker** (values in "
                "each biomarker's own units; look-alikes: median and interquartile range, "
                "or the most common answers)")
    # a new patient (or model) starts from its own defaults: a keyed multiselect keeps its
    # value when only ``default`` changes, and a walk-through saw the box list the new
    # patient's biomarkers while the table below still compared the previous patient's
    ss = st.session_state
    measured = np.isfinite(np.asarray(query_values, dtype=float).ravel())
    whose = (ss.get("model_token"), str(name), measured.tobytes())
    flags = session_cache("flag_columns", _model_key(),
                          lambda: flag_columns(training_values()))
    if ss.get(f"{key}_features_for") != whose or f"{key}_features" not in ss:
        q = np.asarray(query_values, dtype=float).ravel()
        z = standardize(q, np.arange(len(q)), model.mean_, model.scale_,
                        model.log_floors())
        scaled = np.asarray([has_sd_scale(f, encoder, flags) for f in names])
        default = default_biomarkers(measured=query_values,
                                     unusual=np.where(scaled, z, np.nan), encoder=encoder)
        last = ss.get(f"{key}_features_for")
        # another patient of the same model: the user's additions and removals stay
        ss[f"{key}_features"] = (
            carried_choice(ss.get(f"{key}_features_default", []),
                           ss.get(f"{key}_features", []), default, names) or default
            if last is not None and last[0] == whose[0] and f"{key}_features" in ss
            else default)
        ss[f"{key}_features_default"] = default
        ss[f"{key}_features_for"] = whose
    chosen = st.multiselect(
        "Biomarkers to compare", names, key=f"{key}_features",
        help="Starts with the patient's measured severity scores, stages and grades "
             "(up to three: PASI, NYHA class, a tumour's stage, a recognised clinical "
             "scale), then its measured biomarkers that the learned similarity weighs "
             "most (their weight in the learned metric), the more so where the patient is "
             "far from the cohort's mean; add or remove any.")
    if not chosen:
        st.info("Pick at least one biomarker to compare.")
        return
    logs = model.log_floors()
    comp = lookalike_comparison(query_values, neighbours, chosen, names, model.mean_,
                                model.scale_, encoder, flags, written,
                                lookalikes_written=lookalike_cells, log=logs)
    # a table that wraps its cells: a long category answer ("1 - restricted: 8, 2 -
    # ambulatory, no work: 1 · 9 of 10 measured") was cut, and at 800 px the SD column
    # scrolled out of sight, in a fixed-width data grid
    wrapped_table(comp, ["Biomarker", "This patient", "Look-alikes", "Patient (SD)"],
                  {"Patient (SD)": "vs mean (SD)"})
    st.caption("vs mean (SD): the patient's value in standard deviations from the cohort "
               "mean; the look-alikes' are in the chart below." + log_scale_note(
                   chosen, names, logs, encoder))
    with st.expander("The same biomarkers on one scale (standard deviations)"):
        if comp["patient_sd"].notna().any() or comp["lookalikes_sd_median"].notna().any():
            st.plotly_chart(comparison_plot(comp), width="stretch", key=f"{key}_comp_plot",
                            config=SMALL_CHART)
            if comp["patient_sd"].isna().any() and comp["lookalikes_sd_median"].isna().any():
                st.caption("Yes/no answers, categories and 0/1 flags have no SD scale: "
                           "they are compared in the table above.")
        else:
            st.info("None of the chosen biomarkers has an SD scale (yes/no answers, "
                    "categories and 0/1 flags are compared in the table above).")
    with st.expander("Why are they alike? One look-alike next to this patient"):
        ids = table["ID"].astype(str).tolist()
        pick = st.selectbox("Look-alike", ids, key=f"{key}_explain")
        nb = int(table["training_index"].to_numpy()[ids.index(pick)])
        pair = pair_comparison(query_values, training_values().iloc[nb].to_numpy(), chosen,
                               names, model.mean_, model.scale_, encoder, flags,
                               written, log=logs)
        st.markdown(pair_summary(pair, len(names)))  # counts and fixed words only
        # the verdict right after the name; wrapped cells, nothing scrolls out of sight
        wrapped_table(pair, ["Biomarker", "Verdict", "This patient", "Look-alike",
                             "Difference"], {"This patient": "Patient"})
        st.caption("Difference: this patient minus the look-alike, in the biomarker's units "
                   "and in standard deviations (SD). Agree: less than 0.5 SD apart; "
                   "borderline: 0.5 to 1 SD; differ: more than 1 SD; missing: not measured "
                   "in one of them or both. Categories are compared by their answer.")
