"""Streamlit helpers shared by the pages: session state, the bundled sample, error guard.

The only module of the library that imports Streamlit. Patient data lives only in the
per-session ``st.session_state``; the bundled synthetic sample is cached process-wide.
"""

from __future__ import annotations

import contextlib
import json
import math
import runpy
import sys
import threading
import uuid
import weakref
from pathlib import Path

import numpy as np
import streamlit as st

from sparge.data.reading import read_table
from sparge.data.safe_text import md_escape
from sparge.errors import DataError
from sparge.services.display import form_groups
from sparge.services.maps import RECODED, RECOLUMNED, MapProjector, data_model_mismatch
from sparge.services.persistence import load_model
from sparge.services.samples import SAMPLE_ID, SAMPLE_LABEL, SampleFiles, sample_files
from sparge.services.workflow import (
    Cohort,
    encode_cohort,
    fit_sample_note,
    forest_note,
    patients_count,
)

_samples: SampleFiles | None = None  # set once by app.py (configure_samples)
#: A static style block (no user text): on a narrow screen the sidebar takes less of it
#: (walk-through 48 at 800 px: the open sidebar kept about 300 px and the Data page's
#: outcome select was cut to "Unplanned admission within 1").
NARROW_SIDEBAR_CSS = """
<style>
@media (max-width: 1000px) {
  section[data-testid="stSidebar"] { width: 14rem !important; min-width: 14rem !important; }
}
</style>
"""


#: What a reload or a typed link does to the session (said in the sidebar and on Data).
RELOAD_NOTE = ("A browser reload or a typed link starts a new session: uploaded data, trained "
               "models and results are cleared (download what you want to keep).")

_app_run = threading.local()  # per script thread: is app.py's navigation running this page?


#: The bundled sample's name in the sidebar (and the Explore page's note on it).
SAMPLE_NAME = "bundled sample (synthetic SingHEART-style cohort, 683 patients)"
#: What a newcomer reads first on Explore with the bundled sample (walk-through 74: the
#: first screen said nothing of what a look-alike is, nor what the outcome was, and
#: "synthetic" stood only in the sidebar's small grey text).
SAMPLE_NOTE = ("**This is a synthetic cohort, not real patients**: 683 made-up adults "
               "modelled on the SingHEART study, 467 biomarkers (laboratory, cardiac MRI, "
               "wearable and questionnaire values), the outcome their cardiovascular risk "
               "(low, medium or high). A patient's **look-alikes** are the training "
               "patients nearest to them in the space SparGE learned, where patients of one "
               "outcome lie together. Upload your own table on the Data page.")


def page_icon(size: int = 64):
    """The browser tab's icon, drawn here (an RGBA PIL image, ``size`` x ``size``): three
    linked nodes.

    A Material icon as ``page_icon`` makes the browser fetch its SVG from Google's font
    servers; an image is served by the app itself, so nothing leaves the machine.
    """
    yy, xx = np.mgrid[0:size, 0:size].astype(float) / (size - 1)
    nodes = [(0.25, 0.3), (0.75, 0.3), (0.5, 0.75)]
    ink = np.zeros((size, size))
    for i, (ax, ay) in enumerate(nodes):  # the links: distance to each segment
        bx, by = nodes[(i + 1) % 3]
        t = np.clip(((xx - ax) * (bx - ax) + (yy - ay) * (by - ay))
                    / ((bx - ax) ** 2 + (by - ay) ** 2), 0, 1)
        d = np.hypot(xx - ax - t * (bx - ax), yy - ay - t * (by - ay))
        ink = np.maximum(ink, np.clip(1.5 - d * size / 2.5, 0, 1))
    for ax, ay in nodes:  # the nodes
        ink = np.maximum(ink, np.clip(1.5 - (np.hypot(xx - ax, yy - ay) - 0.14) * size, 0, 1))
    rgba = np.zeros((size, size, 4), dtype=np.uint8)
    rgba[..., :3] = (31, 119, 180)  # the maps' first colour
    rgba[..., 3] = np.round(255 * np.clip(ink, 0, 1)).astype(np.uint8)
    from PIL import Image  # Streamlit's own dependency; it takes no numpy page icon

    return Image.fromarray(rgba, mode="RGBA")


def configure_samples(root: str | Path | None = None) -> None:
    """Name the sample directory (``app.py`` passes its own ``data_samples/``)."""
    global _samples
    _samples = sample_files(root)


def samples() -> SampleFiles:
    """The sample files configured by ``app.py`` (else ``$SPARGE_SAMPLES`` or package data)."""
    return _samples if _samples is not None else sample_files()


@st.cache_resource(show_spinner="Loading the sample cohort…")
def _sample_cohort(path: str) -> Cohort:
    return encode_cohort(read_table(Path(path)), id_column=SAMPLE_ID, label_column=SAMPLE_LABEL)


@st.cache_resource(show_spinner=False)
def _warm_queries() -> threading.Thread:
    """Once per server: load the look-alike query's compiled code in the background while
    the first page draws (about half a second that the first click on a patient paid)."""
    from sparge.method.proximity import warm_up

    thread = threading.Thread(target=warm_up, name="sparge-warm-up", daemon=True)
    thread.start()
    return thread


@st.cache_resource(show_spinner="Loading the default model…")
def _default_model(path: str):
    return load_model(Path(path))


@st.cache_data
def _default_map(path: str) -> np.ndarray | None:
    """UMAP coordinates of the default model (``python -m sparge.services.make_samples``)."""
    if not Path(path).exists():
        return None
    import pandas as pd

    return pd.read_csv(path)[["x", "y"]].to_numpy()


@st.cache_data
def _sample_groups(path: str) -> dict:
    """The sample's biomarker groups; none (one group) when the file is not there."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}


def init_state() -> None:
    """First run of a session: the bundled sample and the pre-trained default model.

    A page run without ``app.py`` (a deep link as a freshly started server's first request,
    or any AppTest run: Streamlit then treats ``pages/`` as its old file-name navigation and
    runs the page file directly) runs ``app.py`` instead, which draws our navigation and
    runs this same page inside it; the direct run then stops. No rerun is involved, so the
    clicks of that run are kept.
    """
    ss = st.session_state
    if not getattr(_app_run, "active", False):
        page_file = sys._getframe(1).f_globals.get("__file__")
        if page_file and Path(page_file).resolve().parent.name == "pages":
            app_script = Path(page_file).resolve().parent.parent / "app.py"
            runpy.run_path(str(app_script), run_name="__main__")
            st.stop()
    _warm_queries()
    if "cohort" not in ss:
        ss.cohort = _sample_cohort(str(samples().cohort_csv))
        ss.cohort_name = SAMPLE_NAME
    if "model" not in ss:
        model, encoder = _default_model(str(samples().default_model))
        set_model(model, encoder, "default model (pre-trained on the bundled sample)")
        coords = _default_map(str(samples().default_map))
        if coords is not None and len(coords) == len(model.embedding_):
            ss.maps["umap"] = MapProjector.from_coords("umap", coords)
    ss.setdefault("selected", None)
    ss.setdefault("lasso", [])
    ss.setdefault("messages", [])


@contextlib.contextmanager
def app_navigation():
    """Mark the current script thread as running inside ``app.py``'s navigation."""
    _app_run.active = True
    try:
        yield
    finally:
        _app_run.active = False


def set_model(model, encoder, name: str) -> None:
    """Make ``model`` the session's; the one it replaces is kept, one step back
    (:func:`previous_model_back`): walk-through 25 trained on a wrong outcome and lost the
    good model with no way back."""
    ss = st.session_state
    if ss.get("model") is not None:
        ss.previous_model = (ss.model, ss.get("model_encoder"), ss.get("model_name", ""),
                             ss.get("maps", {}))
    ss.model = model
    ss.model_encoder = encoder
    ss.model_name = name
    ss.model_token = uuid.uuid4().hex
    ss.selected = None
    ss.lasso = []
    ss.maps = {}


def previous_model_back() -> None:
    """Swap the session's model with the one it replaced (a second click swaps back)."""
    ss = st.session_state
    previous = ss.get("previous_model")
    if previous is None:
        return
    model, encoder, name, maps = previous
    set_model(model, encoder, name)  # keeps the current one as the previous
    ss.maps = maps


def set_cohort(cohort: Cohort, name: str) -> None:
    st.session_state.cohort = cohort
    st.session_state.cohort_name = name


def role_edits(roles: dict[str, str], id_column: str | None, label_column: str | None,
               fitted: dict[str, str] | None = None, user_roles: dict[str, str] | None = None
               ) -> tuple[str | None, str | None, dict[str, str], list[str]]:
    """Turn an edited role table into Encoder arguments.

    Parameters
    ----------
    roles : dict
        ``{column: role}`` as edited (roles of ``sparge.data.encoder.ROLES``).
    id_column, label_column : str or None
        The current ID and outcome columns.
    fitted, user_roles : dict, optional
        The encoder's current roles (``roles_``) and those the user set before
        (``roles``). Given, only a role the user changed or set before is passed on: every
        other column is judged afresh, with its reason (a walk-through changed one role,
        and the follow-up, date and notes columns lost theirs, passed back as the user's).

    Returns
    -------
    id_column, label_column : str or None
        A column newly marked "id"/"label" replaces the current one; none marked: None.
    overrides : dict
        The other roles, for ``Encoder(roles=...)``.
    notes : list of str
        What changed that a user should know (an outcome that became a feature).

    Raises
    ------
    DataError
        When more than one column is newly marked as the ID or as the outcome.
    """
    chosen: dict[str, str | None] = {}
    notes: list[str] = []
    for role, current, what in (("id", id_column, "patient ID"),
                                ("label", label_column, "outcome")):
        marked = [c for c, r in roles.items() if r == role]
        new = [c for c in marked if c != current]
        if len(new) > 1:
            raise DataError(f"Only one column can be the {what}; marked: "
                            f"{', '.join(repr(c) for c in new)}.")
        chosen[role] = new[0] if new else (current if current in marked else None)
    overrides = {c: r for c, r in roles.items() if r not in ("id", "label")
                 and (fitted is None or r != fitted.get(c) or c in (user_roles or {}))}
    for c in {id_column, label_column} - {None, chosen["id"], chosen["label"]}:
        if roles.get(c) in ("id", "label"):  # replaced, still marked: left out, not a feature
            overrides[c] = "ignore"
            notes.append(f"'{c}' is no longer the {'patient ID' if c == id_column else 'outcome'}"
                         "; it is ignored (give it a role to use it as a feature).")
        elif c == label_column and c in overrides and overrides[c] != "ignore":
            notes.append(f"'{c}' is no longer the outcome and is now an input feature (set its "
                         "role to 'ignore' to leave it out).")
    return chosen["id"], chosen["label"], overrides, notes


#: The share of a model's features that must be the bundled sample's for the form to use
#: the sample's groups.
SAMPLE_GROUPS_SHARE = 0.9


def biomarker_groups(features: list[str], encoder=None) -> dict[str, list[str]]:
    """Groups of the bundled sample when the features are the sample's (at least 90 % of
    them), else the patient, the answers and the measurements
    (:func:`~sparge.services.display.form_groups`): a sample group's name means nothing on
    another cohort that shares some column names (walk-through 23: half of a renal
    clinic's 20 columns, and a "Proforma" group held its Hypertension, Height and
    Weight)."""
    groups = _sample_groups(str(samples().groups_json))
    known = {f for cols in groups.values() for f in cols}
    if sum(f in known for f in features) < SAMPLE_GROUPS_SHARE * max(len(features), 1):
        return form_groups(features, encoder)
    out = {g: [c for c in cols if c in features] for g, cols in groups.items()}
    out = {g: c for g, c in out.items() if c}
    rest = [f for f in features if f not in known]
    if rest:
        out["Other biomarkers" if out else "Biomarkers"] = rest
    return out


def projector(method: str) -> MapProjector:
    """The session's map of the current model (fitted once per model and method)."""
    ss = st.session_state
    maps = ss.setdefault("maps", {})
    if method not in maps:
        with st.spinner(f"Computing the {method.upper()} map…"):
            maps[method] = MapProjector(method).fit(ss.model)
    return maps[method]


@contextlib.contextmanager
def guard(action: str = "That"):
    """Show errors as readable messages (never a traceback); state is left untouched.

    ``action`` is Markdown written by the page (escape user text in it); the error's own
    text may quote cells or column names and is escaped here.
    """
    try:
        yield
    except DataError as exc:
        st.error(f"{action} did not work: {md_escape(exc, max_len=1000)}")
    except MemoryError:
        st.error(f"{action} needs more memory than this machine has; try a smaller table.")
    except Exception as exc:  # noqa: BLE001 - the app must not show tracebacks
        st.error(f"{action} failed unexpectedly ({type(exc).__name__}: "
                 f"{md_escape(exc, max_len=500)}). Your data and model are unchanged.")


#: The words for a model's training rows, once per model object (every page's sidebar
#: asks; a file repeating people is read ID by ID, 20 ms for 100,000 patients).
_ROWS_WORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _rows_words(model, what: str = "") -> str:
    """:func:`~sparge.services.workflow.patients_count` of the model's training rows,
    cached per model."""
    held = _ROWS_WORDS.setdefault(model, {})
    if what not in held:
        held[what] = patients_count(model.embedding_.shape[0],
                                    getattr(model, "train_ids_", None), what)
    return held[what]


def model_summary(model) -> str:
    """One line about a model; never fails (a damaged model gets "details unavailable")."""
    try:
        n, l = model.embedding_.shape
        sup = "supervised" if getattr(model, "classes_", None) is not None else "unsupervised"
        line = (f"{_rows_words(model)} · "
                f"{model.n_features_in_:,} biomarkers · completion rank "
                f"{model.rank_} · {model.n_atoms_} atoms · {l}-D embedding · {sup}")
        # the forest note may name an outcome: the user's text
        notes = [md_escape(n, 400) for n in (forest_note(model), fit_sample_note(model)) if n]
        return " · ".join([line, *notes])
    except Exception:  # noqa: BLE001 - a summary line must not break a page
        return "model details unavailable"


def model_brief(model) -> str:
    """The sidebar's line about a model, in a clinician's words (the Model page gives the
    technical one, :func:`model_summary`); never fails."""
    try:
        sup = ("learned with the outcome" if getattr(model, "classes_", None) is not None
               else "learned without an outcome")
        return (f"{_rows_words(model, 'training')} · "
                f"{model.n_features_in_:,} biomarkers · {sup}")
    except Exception:  # noqa: BLE001 - a status line must not break a page
        return "model details unavailable"


def fmt_number(value, fmt: str = "{:.4f}", missing: str = "n/a") -> str:
    """``fmt`` of a finite number, else ``missing`` (models loaded from files may hold odd
    values; a display must not fail on them)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return missing
    return fmt.format(x) if math.isfinite(x) else missing


def flash(kind: str, text: str) -> None:
    """Queue a message (``kind``: success, info, warning, error) for the next page run."""
    st.session_state.setdefault("flash", []).append((kind, text))


def show_flashes() -> None:
    """Show and clear the queued messages; a success is also a toast, seen wherever the
    page is scrolled (a walk-through applied roles far down the page and saw nothing)."""
    for kind, text in st.session_state.pop("flash", []):
        getattr(st, kind)(text)
        if kind == "success":
            st.toast(text, icon=":material/check_circle:")


def mismatch_message() -> str:
    """Why the session's data and model seem to come from different tables ("" if not),
    computed once per model and data: the sidebar asks on every rerun of every page, and
    comparing the IDs of a 100,000-patient cohort is not free."""
    ss = st.session_state
    model, cohort = ss.get("model"), ss.get("cohort")
    if model is None or cohort is None:
        return ""
    key = (ss.get("model_token"), id(model), id(cohort))
    slot = ss.get("_mismatch")
    if slot is None or slot[0] != key:
        slot = (key, data_model_mismatch(model, cohort.features, cohort.ids, cohort.X))
        ss["_mismatch"] = slot
    return slot[1]


def sidebar_status() -> None:
    """Which data and model the session holds (names escaped), and what a reload does."""
    ss = st.session_state
    st.caption(f"Data: {md_escape(ss.get('cohort_name', ''))}")
    st.caption(f"Model: {md_escape(ss.get('model_name', ''))}")
    if ss.get("model") is not None:
        # the plain line here; completion rank, atoms and the forest are the Model page's
        st.caption(model_brief(ss.model))
        with contextlib.suppress(Exception):  # a status line never breaks a page
            said = mismatch_message()
            if said.startswith(RECODED):
                # the same table encoded another way (walk-through 26 read "not trained on
                # this data" for the model trained on this very file)
                # "answers merged, values cleared" was read as what had happened, after
                # a merge alone (walk-through 43)
                st.caption(":orange[The data is encoded differently from this model's "
                           "training (a change on the Data page, such as answers merged or "
                           "values cleared): make the same choices there, or train "
                           "again.]")
            elif said.startswith(RECOLUMNED):
                st.caption(":orange[The data is encoded with other columns than this "
                           "model's (the same patients): train again on the Model page.]")
            elif said:
                st.caption(":orange[This model was not trained on this data: train one on "
                           "the Model page.]")
    st.caption(RELOAD_NOTE)
    st.caption("Your data stays on this machine; nothing is sent anywhere.")


def completion_summary(model) -> str:
    """What the low-rank completion of a fitted model kept, computed from the model."""
    n, m = np.shape(model.training_data_)
    total = min(n, m)
    after = np.asarray(model.completion_singular_values_, dtype=float)
    left = int(np.count_nonzero(after > 1e-12 * max(after.max(initial=0.0), 1e-300)))
    kept = model.rank_
    text = (f"The filled table ({n} patients × {m} biomarkers) has {total} components; the "
            f"shrinkage left {left} of them non-zero")
    text += (" (none vanished)" if left >= total else
             f" ({total - left} small ones vanished)")
    if kept < left:
        rule = ("only those above the noise level" if model.rank == "auto"
                else f"at most {model.rank}")
        text += f", and the model keeps {kept} ({rule})"
    else:
        text += f", and the model keeps all {kept}"
    return text + "."


def float_or_none(v):
    return None if v is None or (isinstance(v, float) and np.isnan(v)) else v
