"""Streamlit rendering of the lecture "How it works" (issue 13).

Everything computed comes from :mod:`sparge.services.teaching` and :mod:`sparge.app.plots_lecture`;
this module only lays it out: the controls (toy cohort only), one step per screen in the
presentation mode, the followed patient, downloads of every figure.

Session state (all keys start with ``teach_``): ``teach_source`` (toy / current model),
``teach_params`` (the toy's controls, kept while their widgets are off screen),
``teach_step`` (presentation step), ``teach_patient_toy`` / ``teach_patient_model``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import threading

import numpy as np
import streamlit as st

from sparge.app import plots_lecture as pt
from sparge.app.lookalikes import wrapped_table
from sparge.data.safe_text import md_escape
from sparge.services import teaching as tc
from sparge.services.display import outcome_order, safe_filename
from sparge.services.glossary import GLOSSARY, glossary_frame

#: Where :func:`say` writes in the presentation (per script thread): beside the pictures,
#: under the slide's formulas and controls.
_captions = threading.local()


def say(text: str) -> None:
    """A caption computed by the library (escaped: it may hold IDs and outcomes); in the
    presentation, in the slide's left column (under a figure fitted to the screen it
    fell below it: a lecturer's 1280 x 720 projector never showed "75% before, 76%
    after", while the left column stood half empty), named by its tab when the slide
    has tabs (walk-through 88 read the other tabs' captions as the shown picture's)."""
    box = getattr(_captions, "box", None)
    tab = getattr(_captions, "tab", None) if box is not None else None
    (box if box is not None else st).caption(
        (f"**{md_escape(tab, max_len=60)}:** " if tab else "") + md_escape(text, max_len=2000))


class _Tab:
    """A tab of a slide whose :func:`say` captions are named by the tab's label."""

    def __init__(self, tab, label: str):
        self.tab, self.label = tab, label

    def __enter__(self):
        self.tab.__enter__()
        _captions.tab = self.label
        return self

    def __exit__(self, *exc):
        _captions.tab = None
        return self.tab.__exit__(*exc)


def slide_tabs(labels: list[str]) -> list[_Tab]:
    """``st.tabs`` whose captions name their tab."""
    return [_Tab(t, lab) for t, lab in zip(st.tabs(labels), labels, strict=True)]


@contextlib.contextmanager
def _captions_in(box):
    """:func:`say` writes into ``box`` while the block runs."""
    _captions.box = box
    try:
        yield
    finally:
        _captions.box = None


TOY, REAL = "Toy cohort (live controls)", "Current model"
FONT = {"normal": 14, "present": 20}
#: Screen heights a presentation's slides can be fitted to (pixels the browser shows in
#: full screen), the first by default: a 1280 x 720 projector (and so a 1024 x 768 one),
#: 1024 x 768 or a 1366 x 768 laptop, 1440 x 900, full HD.
SCREENS = (720, 768, 900, 1080)
#: What a slide shows above its figure (Streamlit's top bar and the page's padding, the
#: navigation row, the slide's title) and below it (its download button), in pixels.
SLIDE_TOP, SLIDE_BELOW = 210, 45
#: The height of a row of tabs (the slide's pictures, one per tab).
TABS_ROW = 60
#: No figure of the presentation is made shorter than this (a plot needs some room).
MIN_FIGURE = 280
LAMBDAS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
R1S = (0.0, 0.02, 0.05, 0.1, 0.15, 0.25, 0.4, 0.6)
#: A static style block written here (no user text): larger type on a projector.
PRESENT_CSS = """
<style>
section.main .block-container, [data-testid="stMainBlockContainer"] {
  padding-top: 3.5rem; max-width: 100%;  /* below Streamlit's top bar (1.2rem cut labels) */
}
/* the slider's value keeps its size: the large type pushed it onto the thumb */
[data-testid="stSliderThumbValue"], [data-testid="stSliderThumbValue"] p {
  font-size: 1rem !important;
}
[data-testid="stMainBlockContainer"] p, [data-testid="stMainBlockContainer"] li {
  font-size: 1.3rem; line-height: 1.45;
}
[data-testid="stMainBlockContainer"] h2 { font-size: 1.8rem; padding-top: 0.2rem; }
/* a slide is the whole screen: no sidebar (the toggle on the slide turns the presentation
   off and brings the pages back); at 1024 px it took 300 px of the slide */
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"] { display: none !important; }
[data-testid="stCaptionContainer"] p { font-size: 1.15rem; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-size: 1.15rem; }
.katex { font-size: 1.12em; }
.katex-display { overflow-x: auto; overflow-y: hidden; }
[data-testid="stWidgetLabel"] p { font-size: 1.15rem; }
/* the step's words and pictures side by side when there is room, else one above the
   other (at 800 px the two columns clipped formulas, titles and legends) */
.st-key-teach_step_cols [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
/* the header row is the slide's navigation: the widest part, Back / Next never wrapped */
.st-key-teach_header [data-testid="stColumn"]:has(.st-key-teach_nav) {
  flex: 4 1 24rem !important; min-width: min(100%, 24rem) !important;
}
.st-key-teach_header .st-key-teach_nav [data-testid="stHorizontalBlock"] {
  flex-wrap: nowrap !important;
}
.st-key-teach_header .st-key-teach_nav [data-testid="stColumn"] {
  flex: 1 1 0 !important; min-width: 0 !important;
}
.st-key-teach_header .st-key-teach_nav [data-testid="stColumn"]:nth-child(2) {
  flex-grow: 2 !important;
}
.st-key-teach_step_cols [data-testid="stColumn"]:first-child {
  flex: 2 1 22rem !important; min-width: min(100%, 22rem) !important;
}
.st-key-teach_step_cols [data-testid="stColumn"]:last-child {
  flex: 3 1 30rem !important; min-width: min(100%, 30rem) !important;
}
/* on a narrow screen the two wrap: the pictures first, the formulas and controls below
   (at 800 px no picture of any slide was on the first screen). They wrap below 22 + 30 rem
   and a gap beside the page's 5 rem margins: 1008 px (at 1024 x 768 the pictures had
   swapped sides with the words, side by side) */
@media (max-width: 1007px) {
  .st-key-teach_step_cols [data-testid="stColumn"]:last-child { order: -1; }
}
/* Back / Next keep their words on a narrow screen */
.st-key-teach_nav p { font-size: 1rem !important; }
/* side by side, the words column ends at the screen's foot and scrolls on its own: a
   long caption ran the slide past a 1280 x 720 projector's screen, and scrolling the
   page took the title and the figure away with it. A shadow at its foot (and at its top
   once scrolled) says there is more (walk-through 88 found the words cut mid-line with
   nothing on the screen saying they went on) */
@media (min-width: 1008px) {
  .st-key-teach_step_cols [data-testid="stColumn"]:first-child {
    max-height: calc(100vh - SLIDE_TOPpx); overflow-y: auto; overflow-x: hidden;
    padding-right: 0.4rem; scrollbar-width: thin;
    background:
      linear-gradient(#fff 30%, rgba(255, 255, 255, 0)) center top,
      linear-gradient(rgba(255, 255, 255, 0), #fff 70%) center bottom,
      radial-gradient(farthest-side at 50% 0, rgba(0, 0, 0, 0.25), rgba(0, 0, 0, 0))
        center top,
      radial-gradient(farthest-side at 50% 100%, rgba(0, 0, 0, 0.25), rgba(0, 0, 0, 0))
        center bottom;
    background-repeat: no-repeat;
    background-size: 100% 40px, 100% 40px, 100% 16px, 100% 16px;
    background-attachment: local, local, scroll, scroll;
  }
}
</style>
""".replace("SLIDE_TOP", str(SLIDE_TOP))
#: Always on the lecture page: its control row wraps instead of squeezing four controls
#: into a narrow screen.
HEADER_CSS = """
<style>
/* reading mode on a narrow screen: side-by-side figures one above the other (at 800 px
   their titles, download buttons and the step 7 table were cut) */
@media (max-width: 1000px) {
  [data-testid="stMainBlockContainer"] [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
  [data-testid="stMainBlockContainer"] [data-testid="stColumn"] {
    flex: 1 1 100% !important; min-width: 100% !important;
  }
}
.st-key-teach_header [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
.st-key-teach_header [data-testid="stColumn"] {
  flex: 1 1 13rem !important; min-width: min(100%, 13rem) !important;
}
</style>
"""


@dataclasses.dataclass
class Context:
    """What every step needs: the model, the followed patient, the toy cohort if any."""

    model: object
    patient: int
    ids: np.ndarray
    labels: np.ndarray
    cohort: tc.ToyCohort | None
    font: int
    n_neighbors: int
    token: str
    order: list[str] | None = None  # the outcomes in the order of the app's colours
    screen: int | None = None  # the presentation's screen height (None: reading)
    notes: bool = True  # "What to say" under the slide's formulas

    def height(self, default: int, *, legend: bool = True, tabs: bool = False) -> int:
        """A figure's height (the figure builders' ``height``): ``default`` when reading;
        in the presentation no taller than what the screen leaves beside the slide's
        navigation, title, ``tabs`` above the figure, the toolbar strip and, with a
        ``legend``, its rows at the foot (:mod:`sparge.app.plots_lecture` adds both)."""
        if self.screen is None:
            return default
        room = (self.screen - SLIDE_TOP - SLIDE_BELOW - pt.TOOLBAR
                - (TABS_ROW if tabs else 0)
                - (pt.LARGE_LEGEND_ROWS * (self.font + 10) if legend else 0))
        return int(min(default, max(room, MIN_FIGURE)))

    @property
    def toy(self) -> bool:
        return self.cohort is not None

    @property
    def pid(self) -> str:
        return str(self.ids[self.patient])


# ---------------------------------------------------------------------- state and models
@st.cache_resource(show_spinner=False)
def toy_cohort() -> tc.ToyCohort:
    return tc.toy_cohort()


@st.cache_resource(show_spinner="Refitting the toy model…", max_entries=64)
def toy_model(params: tc.ToyParams):
    """The toy model for these controls (shared and read-only: never modified)."""
    return tc.fit_toy(toy_cohort(), params)


def _session_cache(name: str, key, compute):
    """Once per key, in this session only: a user's model (patient data) never goes into a
    process-wide cache; the cache is dropped when the model changes."""
    cache = st.session_state.setdefault("_teach_cache", {})
    slot = cache.setdefault(name, {})
    if key not in slot:
        if len(slot) >= 4:  # keep a few (model, k) results, not every one ever drawn
            slot.pop(next(iter(slot)))
        slot[key] = compute()
    return slot[key]


def _graphs(token: str, _model):
    """``training_graphs()`` of a model, once per model (``token`` names it)."""
    return _session_cache("graphs", token, _model.training_graphs)


def _embedding(token: str, n_neighbors: int, _model) -> dict:
    """The maps and look-alike precision of a model, once per model and k."""
    return _session_cache("embedding", (token, n_neighbors),
                          lambda: tc.embedding_step(_model, n_neighbors))


def params() -> tc.ToyParams:
    return tc.ToyParams(**st.session_state.setdefault("teach_params",
                                                      tc.params_dict(tc.ToyParams())))


def _store(name: str) -> None:
    """Copy a control's widget value into ``teach_params`` (survives off-screen steps)."""
    st.session_state.teach_params[name] = st.session_state[f"teach_{name}"]


def control(kind: str, label: str, name: str, help: str, **kw):
    """A slider or select-slider bound to the toy's parameter ``name``."""
    value = params().__getattribute__(name)
    widget = st.slider if kind == "slider" else st.select_slider
    return widget(label, value=value, key=f"teach_{name}", on_change=_store, args=(name,),
                  help=help, **kw)


def patient_key(toy: bool) -> str:
    return "teach_patient_toy" if toy else "teach_patient_model"


def clicked_index(customdata) -> int | None:
    """The training index a clicked point carries (``customdata[0]``), however the
    browser sent it back (a list, a number, or an object keyed by position); ``None``
    without one."""
    if isinstance(customdata, dict):
        customdata = [customdata[k] for k in sorted(customdata, key=str)]
    if isinstance(customdata, list | tuple):
        customdata = customdata[0] if customdata else None
    try:
        return int(customdata) if customdata is not None else None
    except (TypeError, ValueError):
        return None


def _pick_from_map(chart_key: str, state_key: str) -> None:
    """A click on the map follows that patient (``customdata[0]`` is its training index)."""
    sel = st.session_state.get(chart_key)
    points = (sel or {}).get("selection", {}).get("points", []) if sel else []
    for p in points:
        index = clicked_index(p.get("customdata"))
        if index is not None:
            st.session_state[state_key] = index
            return


def move(delta: int, n: int) -> None:
    st.session_state.teach_step = int(np.clip(st.session_state.get("teach_step", 0) + delta,
                                              0, n - 1))


# ---------------------------------------------------------------------- rendering helpers
def figure(fig, name: str, ctx: Context, *, key: str | None = None, on_select=None) -> None:
    """A chart with a PNG button in its toolbar and an offline HTML download below it."""
    config = {"displaylogo": False,
              "toImageButtonOptions": {"format": "png", "scale": 2,
                                       "filename": f"sparge_{name}"}}
    kw = {}
    if on_select is not None:
        kw = {"on_select": on_select, "selection_mode": "points"}
    pt.scale_fonts(fig, ctx.font)
    if ctx.font >= FONT["present"]:  # across the top, the toolbar covered the large title
        fig.update_layout(modebar={"orientation": "v"})
    st.plotly_chart(fig, width="stretch", config=config, key=key or f"teach_fig_{name}", **kw)
    st.download_button("Download figure (HTML, works offline)",
                       data=lambda: fig.to_html(include_plotlyjs=True, full_html=True),
                       file_name=f"sparge_{safe_filename(name)}.html", mime="text/html",
                       key=f"teach_dl_{name}", type="tertiary", icon=":material/download:",
                       on_click="ignore")


def step_text(step: tc.Step, present: bool = False, notes: bool = True) -> None:
    """Title, formulas and words; in the presentation the words and the correction fold
    into "What to say" (a slide is one screen: the words in large type ran a slide to
    1,200-2,400 pixels at 1400 x 900), shown only with the speaker notes on (on a
    projector the audience read them; walk-through 74)."""
    if not present:  # the presentation writes the title above the slide's columns
        st.header(step.title)
    for f in step.formulas:
        st.latex(f)
    if present and not notes:
        return
    # one open/closed state per slide (unkeyed, slide 3's state carried over to slide 4
    # and one click there closed what looked closed; walk-through 21)
    notes = st.expander("What to say", icon=":material/record_voice_over:",
                        key="teach_say_" + re.sub(r"\W+", "_", step.title)[:60]) if present \
        else st.container()
    with notes:
        st.markdown(step.words)
        if step.correction:
            st.info(step.correction, icon=":material/edit_note:")


def panels(ctx: Context, spec, labels: list[str]) -> list:
    """Side-by-side columns when reading; tabs in the presentation, one picture per screen
    (the step already sits in the right-hand column, and stacked pictures ran off it)."""
    if ctx.font >= FONT["present"]:
        return slide_tabs(labels)
    return st.columns(spec)


# ---------------------------------------------------------------------- the steps
def show_data(ctx: Context) -> None:
    m = ctx.model
    info = tc.data_step(m, ctx.patient)
    rows, cols = tc.matrix_view(m, ctx.patient, max_rows=40)
    names = [m.feature_names()[j] for j in cols]
    hidden = None
    if ctx.toy:
        hidden = ctx.cohort.hidden[np.ix_(rows, cols)]
    fig = pt.data_heatmap(info["Xs"][np.ix_(rows, cols)], names, ctx.ids[rows],
                          highlight=int(np.flatnonzero(rows == ctx.patient)[0]),
                          hidden=hidden, font_size=ctx.font, height=ctx.height(560, legend=False),
                          title=f"The table: {len(rows):,} of {info['Xs'].shape[0]:,} patients"
                                f" × {len(cols)} of {info['Xs'].shape[1]} biomarkers")
    figure(fig, "data", ctx)
    cap = info["caption"] + f" Boxed: patient {ctx.pid}."
    shown = tc.matrix_view_caption(m, ctx.patient, rows, cols)
    cap += f" {shown}" if shown else ""
    if ctx.toy:
        cap += (f" × marks the {int(ctx.cohort.hidden.sum())} measured values hidden from "
                "the model, to grade the completion.")
    say(cap)


def pair(ctx: Context) -> list:
    """Two controls side by side when reading; one above the other in the presentation's
    narrow left-hand column."""
    return st.columns(2) if ctx.font < FONT["present"] else [st.container(), st.container()]


def completion_controls(ctx: Context) -> None:
    c1, c2 = pair(ctx)
    with c1:
        control("slider", "Rank kept", "rank", "Components of the completion basis kept "
                "(the model keeps at most those that survive the shrinkage).",
                min_value=1, max_value=len(ctx.model.feature_names()))
    with c2:
        control("select", "λ (fraction of the largest singular value)",
                "completion_lambda", "How much every singular value is shrunk.",
                options=LAMBDAS)


def show_completion(ctx: Context) -> None:
    m = ctx.model
    if ctx.font >= FONT["present"]:  # one tab per picture (the real model has no error)
        tabs = slide_tabs(["Singular values", *(["Completion error"] if ctx.toy else []),
                           f"Patient {ctx.pid}"])
        c1, c2, c3 = tabs[0], tabs[1 if ctx.toy else 0], tabs[-1]
    else:
        c1, c2 = st.columns([3, 2] if ctx.toy else [1, 1])
        c3 = st.container()
    with c1:
        figure(pt.singular_values_figure(m.filled_singular_values_,
                                         m.completion_singular_values_, m.rank_,
                                         font_size=ctx.font,
                                         height=ctx.height(380, tabs=True)),
               "singular_values", ctx)
        say(tc.completion_caption(m))
    with c2:
        if ctx.toy:
            err = tc.completion_error(m, ctx.cohort)
            figure(pt.completion_error_figure(err["rmse_lowrank"], err["rmse_mean"],
                                              err["n_hidden"], font_size=ctx.font,
                                              height=ctx.height(300, tabs=True)),
                   "completion_error", ctx)
            say(err["caption"])
        else:
            say("The current model was trained on its own data: no values were hidden from "
                "it, so its completion error cannot be graded here (the toy cohort shows it).")
    with c3:
        _patient_completion(ctx)


def _patient_completion(ctx: Context) -> None:
    """The followed patient's row before and after the completion."""
    m = ctx.model
    row = tc.patient_completion(m, ctx.patient)
    _, cols = tc.matrix_view(m, ctx.patient)
    truth = None
    if ctx.toy:
        T = m.standardize(ctx.cohort.truth)[ctx.patient]
        truth = np.where(ctx.cohort.hidden[ctx.patient], T, np.nan)[cols]
    n_gap = int(row["was_gap"].sum())
    figure(pt.completion_row_figure(row.iloc[cols].reset_index(drop=True), ctx.pid,
                                    truth=truth, font_size=ctx.font,
                                    height=ctx.height(380, tabs=True)),
           "patient_completion", ctx)
    shown_gaps = int(row["was_gap"].iloc[cols].sum())
    say(f"Patient {ctx.pid}: {n_gap} {'gap' if n_gap == 1 else 'gaps'} filled"
        + ("" if len(cols) == len(row) else
           f"; {len(cols)} of {len(row)} biomarkers shown ("
           + ("measured values: it has no gaps" if n_gap == 0 else
              f"{'all' if shown_gaps == n_gap else shown_gaps} of its gaps and some "
              "measured values") + ")")
        + ". Units: SD from the cohort mean (hover for clinical units)."
        + (" × = the true value hidden from the model." if truth is not None
           and np.isfinite(truth).any() else ""))


def dictionary_controls(ctx: Context) -> None:
    # at least 2 atoms per outcome (the model's rule): "2 atoms" drew 4 (walk-through 74)
    control("slider", "Atoms k", "n_atoms", "Dictionary size (half per outcome, at least 2 "
            "per outcome).", min_value=4, max_value=16, step=2)


def show_dictionary(ctx: Context) -> None:
    m = ctx.model
    feats = tc.dictionary_view(m, ctx.patient)
    used = np.flatnonzero(m.codes_[ctx.patient])
    names = [m.feature_names()[j] for j in feats]
    figure(pt.dictionary_figure(m.dictionary_[feats], names, tc.atom_labels(m), used=used,
                                font_size=ctx.font, height=ctx.height(460, legend=False)),
           "dictionary", ctx)
    cap = tc.dictionary_caption(m)
    cap += f" Boxed: the {len(used)} atom(s) patient {ctx.pid} uses."
    if len(feats) < m.dictionary_.shape[0]:
        cap += (f" Showing {len(feats)} of {m.dictionary_.shape[0]} biomarkers: those its "
                "atoms weigh most.")
    say(cap)


def codes_controls(ctx: Context) -> None:
    control("select", "r₁ (sparsity weight)", "r1", "Larger r₁: fewer atoms per patient.",
            options=R1S)


def show_codes(ctx: Context) -> None:
    m = ctx.model
    info = tc.code_step(m, ctx.patient)
    rows, _ = tc.matrix_view(m, ctx.patient, max_rows=40)
    if ctx.screen is not None:  # one figure per tab: two stacked ran below the screen
        c1, c2, c3 = slide_tabs(["Codes", f"Patient {ctx.pid}", "Atoms used"])
    else:
        c1, c2 = st.columns([3, 2])
        c3 = c2
    with c1:
        figure(pt.codes_figure(m.codes_[rows], tc.atom_labels(m), ctx.ids[rows],
                               highlight=int(np.flatnonzero(rows == ctx.patient)[0]),
                               font_size=ctx.font,
                               height=ctx.height(460, legend=False, tabs=True)), "codes", ctx)
        say(info["caption"])
    with c2:
        figure(pt.patient_code_figure(info["table"], ctx.pid, font_size=ctx.font,
                                      height=ctx.height(320, tabs=True)), "patient_code", ctx)
    with c3:
        figure(pt.atoms_used_figure(info["nnz"], m.n_atoms_, int(info["nnz"][ctx.patient]),
                                    font_size=ctx.font, height=ctx.height(320, tabs=True)),
               "atoms_used", ctx)


def graph_controls(ctx: Context) -> None:
    c1, c2 = pair(ctx)
    with c1:
        control("slider", "k₁ (same-outcome neighbours)", "k1",
                "Each patient is pulled towards its k₁ nearest same-outcome patients.",
                min_value=1, max_value=10)
    with c2:
        control("slider", "k₂ (other-outcome neighbours)", "k2",
                "Each patient is pushed from its k₂ nearest other-outcome patients.",
                min_value=1, max_value=10)


def show_graphs(ctx: Context) -> None:
    m = ctx.model
    info = tc.graph_step(m, ctx.patient, graphs=_graphs(ctx.token, m))
    figure(pt.graph_figure(info["coords"], info["W_plus"], info["W_minus"], ctx.labels,
                           ctx.ids, highlight=ctx.patient, shown=info["shown"],
                           totals=(info["n_plus"], info["n_minus"]), order=ctx.order,
                           font_size=ctx.font, height=ctx.height(520)),
           "graphs", ctx)
    say(info["caption"])


def embedding_controls(ctx: Context) -> None:
    control("slider", "Dimensions l", "n_components", "Columns of U: the dimensions of "
            "the learned space.", min_value=1, max_value=8)


def show_embedding(ctx: Context) -> None:
    m = ctx.model
    info = _embedding(ctx.token, ctx.n_neighbors, m)
    la = tc.embedding_neighbors(m, ctx.patient, ctx.n_neighbors)
    c1, c2 = panels(ctx, [1, 1], ["Before", "After"])
    with c1:
        figure(pt.map_figure(info["before"], ctx.labels, ctx.ids, "Before: the representation "
                             "(codes + completed scores), first two principal axes",
                             highlight=ctx.patient, lookalikes=la, axis="principal axis",
                             order=ctx.order, font_size=ctx.font,
                             height=ctx.height(440, tabs=True),
                             marked=info["marked_before"]), "map_before", ctx)
    with c2:
        state_key = patient_key(ctx.toy)
        chart_key = "teach_map_after_" + ("toy" if ctx.toy else "model")
        figure(pt.map_figure(info["after"], ctx.labels, ctx.ids,
                             "After: the learned space (click a patient to follow it)",
                             highlight=ctx.patient, lookalikes=la, axis="learned axis",
                             order=ctx.order, font_size=ctx.font,
                             height=ctx.height(440, tabs=True),
                             marked=info["marked_after"]), "map_after", ctx,
               key=chart_key,
               on_select=lambda: _pick_from_map(chart_key, state_key))
    forest = float(getattr(m, "forest_scale_", 0.0) or 0.0) > 0
    say(info["caption"] + f" Circled: patient {ctx.pid}; ringed: its {len(la)} nearest "
        "patients in the learned space alone (the same patients on both maps)"
        + ("; the look-alikes of step 7 also count the forest proximity, so they can "
           "differ." if forest else "."))


def refinement_controls(ctx: Context) -> None:
    control("slider", "Refinement iterations (max_iter)", "max_iter",
            "0: no refinement (the K-SVD dictionary is kept).", min_value=0, max_value=12)


def show_refinement(ctx: Context) -> None:
    m = ctx.model
    info = tc.refinement_step(m)
    if len(info["history"]) > 1:
        figure(pt.objective_figure(info["history"], getattr(m, "best_iteration_", None),
                                   supervised=bool(m.supervised), font_size=ctx.font,
                                   height=ctx.height(380)),
               "objective", ctx)
    else:  # a slide's right half stood empty at max_iter = 0 (walk-through 88)
        st.info("No refinement ran (max_iter = 0, or none was needed): the dictionary and "
                "the embedding are those of steps 2 to 5, so there is no objective to "
                "follow. Raise the refinement iterations to see J fall.",
                icon=":material/info:")
    say(info["caption"])


def lookalike_controls(ctx: Context) -> None:
    control("select", "Forest proximity in the distance", "forest_weight",
            "The weight g of the forest part. auto: the g that gives the best look-alikes "
            "on held-out training patients (0 drops it); 0: the learned space alone.",
            options=("auto", 0.0, 0.5, 1.0, 1.5, 2.0))


def show_lookalikes(ctx: Context) -> None:
    info = tc.lookalike_step(ctx.model, ctx.patient, ctx.n_neighbors)
    c1, c2 = panels(ctx, [3, 2], ["Sparse weights", "Table"])
    with c1:
        figure(pt.lookalike_weights_figure(info["table"], ctx.pid, order=ctx.order,
                                           by_outcome=getattr(ctx.model, "y_", None)
                                           is not None, font_size=ctx.font,
                                           height=ctx.height(340, tabs=True)),
               "lookalike_weights", ctx)
        say(info["caption"])
    with c2:
        # five narrow columns: the sparse weight stays visible in the narrow right column
        # (the similarity is exp(-distance² / scale): the distance told another way)
        table = info["table"][["rank", "ID", "outcome", "similarity", "sparse_weight"]]
        if ctx.font >= FONT["present"]:
            # a static table takes the slide's large type (a data grid kept its 14 px on
            # a projector: walk-through 88)
            wrapped_table(table.assign(**{c: table[c].map("{:.3f}".format)
                                          for c in ("similarity", "sparse_weight")}),
                          list(table.columns), {"sparse_weight": "weight"})
            return
        st.dataframe(table.round(3), hide_index=True, width="stretch", column_config={
            "rank": st.column_config.NumberColumn("#", width="small"),
            "similarity": st.column_config.NumberColumn("similarity", format="%.3f"),
            "sparse_weight": st.column_config.NumberColumn(
                "weight", format="%.3f",
                help="The look-alike's sparse weight: its share in rebuilding the patient "
                     "from the look-alikes (0 = not needed).")})


RENDER = {"data": show_data, "completion": show_completion, "dictionary": show_dictionary,
          "codes": show_codes, "graphs": show_graphs, "embedding": show_embedding,
          "refinement": show_refinement, "lookalikes": show_lookalikes}
#: The toy's controls of every step, drawn above its pictures when reading and under the
#: formulas in the presentation (above the pictures they pushed them off the screen).
CONTROLS = {"completion": completion_controls, "dictionary": dictionary_controls,
            "codes": codes_controls, "graphs": graph_controls,
            "embedding": embedding_controls, "refinement": refinement_controls,
            "lookalikes": lookalike_controls}


def step_controls(step: tc.Step, ctx: Context) -> None:
    if ctx.toy and step.key in CONTROLS:
        CONTROLS[step.key](ctx)


def render_step(step: tc.Step, ctx: Context, *, present: bool) -> None:
    """Formulas and words next to the pictures (presentation) or above them (reading)."""
    if present:
        st.header(step.title)  # above both columns: the slide's title stays on top when
        with st.container(key="teach_step_cols"):  # a narrow screen puts the pictures first
            left, right = st.columns([2, 3], gap="medium")
        with left:
            step_text(step, present=True, notes=ctx.notes)
            step_controls(step, ctx)
            box = st.container(key="teach_slide_captions")
        with right, _captions_in(box):
            RENDER[step.key](ctx)
    else:
        step_text(step)
        step_controls(step, ctx)
        RENDER[step.key](ctx)


# ---------------------------------------------------------------------- the page
def context(source: str, n_neighbors: int, font: int, screen: int | None = None,
            notes: bool = True) -> Context:
    """The model and followed patient of the chosen source (the toy is fitted here);
    ``screen`` and ``notes``: the presentation's screen height and speaker notes."""
    ss = st.session_state
    toy = source == TOY
    if toy:
        cohort = toy_cohort()
        try:
            model = toy_model(params())
            token = f"toy:{params()}"
        except (ValueError, np.linalg.LinAlgError) as exc:
            # settings that give no model keep the page and its controls: the default
            # toy is drawn, and the sliders stay to move back (walk-through 69 lost every
            # control to one error until the browser reloaded)
            st.warning("These settings give no model on the toy cohort "
                       f"({md_escape(str(exc), max_len=160)}); the default toy model is "
                       "shown. Move the last control back.")
            model = toy_model(tc.ToyParams())
            token = f"toy:{tc.ToyParams()}"
    else:
        cohort, model = None, ss.model
        token = f"model:{ss.get('model_token', id(model))}"
    ids = tc.patient_ids(model)
    key = patient_key(toy)
    n = len(ids)
    if not isinstance(ss.get(key), (int, np.integer)) or not 0 <= ss[key] < n:
        ss[key] = 0
    return Context(model=model, patient=int(ss[key]), ids=ids, labels=tc.outcomes(model),
                   cohort=cohort, font=font, n_neighbors=n_neighbors, token=token,
                   order=outcome_order(model), screen=screen, notes=notes)


#: The header's choices kept across pages.
_KEPT = ("teach_source", "teach_k", "teach_present")
#: The presentation's own settings, kept apart from their widgets (drawn only in the
#: presentation's popover): given back through the widget's default, never through its
#: key (walk-through 76: after another page the popover showed 720 px and notes off while
#: the slides used 768 px and notes on, and one click reset the height).
_SLIDE_SETTINGS = {"teach_screen": SCREENS[0], "teach_notes": False}


def _keep_setting(name: str) -> None:
    st.session_state[f"{name}_value"] = st.session_state[name]


def _setting(name: str):
    return st.session_state.get(f"{name}_value", _SLIDE_SETTINGS[name])


def _keep(name: str) -> None:
    st.session_state[f"_kept_{name}"] = st.session_state[name]


def header_controls(build) -> tuple[bool, Context, object | None]:
    """One row: source, followed patient, look-alikes, presentation mode.

    In the presentation the row is the slide's navigation instead, with the settings in a
    popover beside the toggle (the four controls took 230 px of a 900 px screen, and a
    slide ran below the fold). ``build(source, n_neighbors, font)`` makes the context (the
    picker needs its IDs). Returns whether the presentation is on, the context and, in
    the presentation, the place for :func:`presentation_nav`. The presentation's settings
    also fit its slides to a screen height (:data:`SCREENS`) and show or hide the speaker
    notes.
    """
    st.markdown(HEADER_CSS, unsafe_allow_html=True)
    # Streamlit forgets a widget's value on another page: the choices are kept apart and
    # given back (walk-through 69's "Current model" went back to the toy on every visit)
    for name in _KEPT:
        if name not in st.session_state and f"_kept_{name}" in st.session_state:
            st.session_state[name] = st.session_state[f"_kept_{name}"]
    on = bool(st.session_state.get("teach_present", False))
    nav = None
    with st.container(key="teach_header"):
        if on:
            nav, c_set, c4 = st.columns([6, 2, 2], vertical_alignment="center")
            c1 = c2 = c3 = c_set.popover("Settings", icon=":material/tune:", width="stretch",
                                         help="Toy cohort or current model, the followed "
                                              "patient, look-alikes per patient.")
        else:
            c1, c2, c3, c4 = st.columns([3, 3, 2, 2], vertical_alignment="bottom")
    with c1:
        source = st.radio("Show the steps on", (TOY, REAL), key="teach_source",
                          horizontal=True, on_change=_keep, args=("teach_source",))
    with c3:
        k = st.slider("Look-alikes per patient", 2, 10, 5, key="teach_k",
                      on_change=_keep, args=("teach_k",),
                      help="Used on the maps, for the precision and in the last step.")
    with c4:
        present = st.toggle("Presentation mode", key="teach_present",
                            on_change=_keep, args=("teach_present",),
                            help="One step per slide with Back / Next, in large type, "
                                 "fitted to a screen's height, without the sidebar (turn "
                                 "this off to see the pages again): its pictures in tabs, "
                                 "its words in the speaker notes; the other settings under "
                                 "'Settings'.")
    screen, notes = None, True
    if present:
        with c1:
            screen = st.selectbox("Fit the slides to a screen height of", SCREENS,
                                  index=SCREENS.index(_setting("teach_screen")),
                                  key="teach_screen", format_func=lambda h: f"{h} px",
                                  on_change=_keep_setting, args=("teach_screen",),
                                  help="The height of the browser's page in full screen "
                                       "(F11) on the projector: 720 px for 1280 x 720, 768 "
                                       "px for 1024 x 768. The figures are drawn to fit it, "
                                       "and never taller than when reading.")
            notes = st.toggle("Speaker notes ('What to say')", key="teach_notes",
                              value=bool(_setting("teach_notes")),
                              on_change=_keep_setting, args=("teach_notes",),
                              help="The words to say under each slide's formulas: off "
                                   "on a projector the audience sees, on to rehearse.")
    ctx = build(source, k, FONT["present" if present else "normal"], screen, notes)
    with c2:
        st.selectbox("Followed patient", help="Followed through every step; a click on the "
                     "learned map (step 5) follows that patient instead.",
                     options=list(range(len(ctx.ids))), key=patient_key(ctx.toy),
                     format_func=lambda i: f"{ctx.ids[i]} · {ctx.labels[i]}")
    return present, ctx, nav


def presentation_nav(n: int) -> int:
    ss = st.session_state
    i = int(np.clip(ss.get("teach_step", 0), 0, n - 1))
    ss.teach_step = i
    with st.container(key="teach_nav"):
        c1, c2, c3 = st.columns([1, 2, 1], vertical_alignment="center")
    c1.button("Back", key="teach_prev", on_click=move, args=(-1, n), disabled=i == 0,
              icon=":material/arrow_back:", width="stretch")
    # the step as the titles and captions number it (the data first, unnumbered): "Slide 6
    # of 8" over "5 · The embedding" left "step 5" in a caption ambiguous (walk-through 88;
    # "Step 2" over section 1 had been read as section 2)
    c2.progress((i + 1) / n, text=(f"The data · slide 1 of {n}" if i == 0 else
                                   f"Step {i} of {n - 1} · slide {i + 1} of {n}"))
    c3.button("Next", key="teach_next", on_click=move, args=(1, n), disabled=i == n - 1,
              icon=":material/arrow_forward:", width="stretch")
    return i


def model_note(ctx: Context) -> None:
    if ctx.toy:
        p, c = params(), ctx.cohort
        say(
            f"Toy cohort: 40 made-up patients, 6 biomarkers, {100 * c.gaps.mean():.0f}% "
            f"gaps plus {int(c.hidden.sum())} measured values hidden from the model to grade "
            f"the completion ({100 * (c.gaps | c.hidden).mean():.0f}% of the entries missing "
            "as the model sees them), outcomes low "
            f"risk / high risk. Model refitted on every change: rank {p.rank}, "
            f"λ = {p.completion_lambda:g} × the largest singular value, {p.n_atoms} atoms, "
            f"r₁ = {p.r1:g}, k₁ = {p.k1}, "
            f"k₂ = {p.k2}, l = {p.n_components}, max_iter = {p.max_iter}, forest weight "
            f"{p.forest_weight}.")
    else:
        name = st.session_state.get("model_name", "current model")
        say(f"Current model ({name}): what it did on its own training patients. The "
            "controls work on the toy cohort only.")


def glossary() -> None:
    """The words of the app and the lecture, searchable (reading mode, under the title)."""
    with st.expander(f"Glossary: {len(GLOSSARY)} words of the app and the lecture"):
        search = st.text_input("Find a word", key="teach_glossary_search",
                               placeholder="e.g. similarity, forest, precision")
        frame = glossary_frame(search)
        if frame.empty:
            st.info(f"No entry holds every word of '{md_escape(search, 80)}'.")
        else:
            wrapped_table(frame, ["Term", "Meaning", "Where"], {})


def lecture() -> None:
    """The whole page: title (reading mode), controls, then the steps."""
    if not st.session_state.get("teach_present", False):
        st.title("How SparGE works")
        st.caption("Follow one patient from its raw row to its look-alikes. On the toy cohort "
                   "every control refits the model; on the current model the pictures show "
                   "what it did.")
        glossary()
    else:
        st.markdown(PRESENT_CSS, unsafe_allow_html=True)
    present, ctx, nav = header_controls(context)
    if not present:
        model_note(ctx)
    if present:
        with nav if nav is not None else st.container():  # (the toggle sets it first)
            i = presentation_nav(len(tc.STEPS))
        render_step(tc.STEPS[i], ctx, present=True)
    else:
        for step in tc.STEPS:
            render_step(step, ctx, present=False)
            st.divider()
