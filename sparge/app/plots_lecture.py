"""Plotly figures of the lecture (issue 13): pure functions, data in, figure out.

Every figure names its axes and units, labels every row and column it shows, and can mark
the followed patient. ``font_size`` scales the text for a projector. User text (IDs,
biomarker names, outcomes) goes through :func:`sparge.services.display.plot_text`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import scipy.sparse as sp

from sparge.app.plots import PALETTE, category_colours, wrap_title
from sparge.services.display import plot_text

#: Edges pulled together and pushed apart: black and a deep red, which no outcome takes
#: among the first colours and a deuteranope tells apart by their lightness (Okabe & Ito's
#: bluish green was also the third outcome's, walk-through 88: "high" patients and the
#: pulled edges were one colour; its vermillion sat beside the second's orange)
PULL, PUSH = "#111111", "#C8102E"
TOOLBAR = 28  # height of plotly's toolbar row at the top of a chart
SELECTED = "black"


LEGENDS = {
    # inside the plot's top-right corner, on a translucent box: never over titles or axes
    "inside": {"x": 0.99, "xanchor": "right", "y": 0.99, "yanchor": "top",
               "bgcolor": "rgba(255,255,255,0.75)"},
    # one row above the plot (the title's margin grows by a line)
    "top": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom"},
    # right of the plot (plotly makes room): for maps with many entries
    "right": {"x": 1.01, "xanchor": "left", "y": 1.0, "yanchor": "top"},
    # rows at the foot of the figure: the presentation's large type, where a row of
    # entries above the plot wraps over the title, an inside legend covers the bars and
    # one entry per row above it pushed the plot below the fold; plotly grows the bottom
    # margin for as many rows as the entries wrap into
    "below": {"orientation": "h", "x": 0, "xanchor": "left", "yref": "container", "y": 0,
              "yanchor": "bottom"},
}
#: From this font size on (the presentation) legends sit at the foot of the figure.
LARGE_TYPE = 18
#: Legend rows a large-type figure is made taller by (plotly shrinks the plot for more).
LARGE_LEGEND_ROWS = 2
#: The colour of a gap in the lecture's matrices (the heat maps' background).
GAP_GREY = "#9a9a9a"


def _legend_entries(fig: go.Figure) -> int:
    """How many entries the legend shows (one per legend group)."""
    groups, n = set(), 0
    for t in fig.data:
        if t.showlegend is False or not t.name:
            continue
        if t.legendgroup:
            if t.legendgroup in groups:
                continue
            groups.add(t.legendgroup)
        n += 1
    return n if n > 1 or any(t.showlegend for t in fig.data) else 0


def _layout(fig: go.Figure, title: str, font_size: int, height: int, legend: str = "inside",
            beside: bool = False, **kw) -> go.Figure:
    """Title, type size, height and legend of a lecture figure. ``beside``: the legend
    stays right of the plot in large type too (a map drawn to one scale on both axes is
    as wide as it is tall: rows under it took the height it needed, and a slide's map
    shrank to a 110-pixel disc in a 620-pixel-wide figure)."""
    large = font_size >= LARGE_TYPE
    # the presentation's figures may be as narrow as a phone: shorter title lines
    # 56 characters: a 70-character line was cut at 800 px ("sparse weights (colou")
    wrapped = wrap_title(title, 36 if large else 56)
    lines = wrapped.count("<br>") + 1
    rows = 1 if legend == "top" else 0  # legend rows above the plot
    below = 0  # legend rows the figure is made taller by, at its foot
    if large and not beside and kw.get("showlegend", True) and _legend_entries(fig):
        legend, rows, below = "below", 0, LARGE_LEGEND_ROWS
    # the title starts below the toolbar's strip (TOOLBAR px) so the two never overlap
    fig.update_layout(title={"text": wrapped, "x": 0.01, "xanchor": "left", "yref": "container",
                             "y": 1, "yanchor": "top", "pad": {"t": TOOLBAR},
                             "font": {"size": font_size + 2}},
                      font={"size": font_size},
                      height=height + TOOLBAR + (font_size + 10) * below,
                      margin={"l": 10, "r": 10, "b": 10,
                              "t": TOOLBAR + 14 + (font_size + 10) * (lines + rows)},
                      legend=LEGENDS[legend], **kw)
    return fig


def scale_fonts(fig: go.Figure, font_size: int) -> go.Figure:
    """Set every text of a figure to ``font_size`` (tick labels a little smaller).

    Explicit axis, legend and colour-bar fonts: a theme's template (Streamlit's) would
    otherwise keep its own small sizes for them.
    """
    tick = max(font_size - 3, 10)
    fig.update_xaxes(tickfont={"size": tick}, title_font={"size": font_size - 1})
    fig.update_yaxes(tickfont={"size": tick}, title_font={"size": font_size - 1})
    fig.update_layout(legend_font={"size": font_size - 2},
                      hoverlabel_font={"size": font_size - 2})
    fig.update_annotations(font_size=font_size - 2)
    fig.update_traces(colorbar={"tickfont": {"size": tick},
                                "title": {"font": {"size": font_size - 2}}},
                      selector={"type": "heatmap"})
    fig.update_traces(textfont={"size": font_size - 2}, selector={"type": "bar"})
    return fig


def _title_lines(title: str, font_size: int) -> int:
    """Lines of a figure's title as :func:`_layout` wraps it."""
    return wrap_title(title, 36 if font_size >= LARGE_TYPE else 56).count("<br>") + 1


def _plot_px(height: int, font_size: int, title: str, x_labels, angle: float) -> int:
    """The plot area's height in a figure of ``height`` (:func:`_layout`'s argument):
    less the title's lines and the x axis's tick labels (``x_labels`` at ``angle``
    degrees) and title. A slide's short heat map crowded 40 row labels into 100 px."""
    tick = max(font_size - 3, 10)
    longest = max((len(str(t)) for t in x_labels), default=0)
    below = abs(np.sin(np.radians(angle))) * longest * 0.55 * tick + tick + font_size + 24
    return int(height - 24 - (font_size + 10) * _title_lines(title, font_size) - below)


def _row_ticks(y: list[str], highlight: int | None, plot_px: int, font_size: int
               ) -> list[str]:
    """Row labels that stay readable: as many as the plot's height (``plot_px``, see
    :func:`_plot_px`) holds at this type size (the presentation's large labels overlapped
    at every other row), always with the followed patient's."""
    max_labels = max(int(plot_px / (max(font_size - 3, 10) + 6)), 3)
    if len(y) <= max_labels:
        return list(y)
    step = -(-len(y) // max(max_labels, 1))
    keep = set(range(0, len(y), step)) - ({highlight - 1, highlight + 1}
                                          if highlight is not None else set())
    if highlight is not None:
        keep.add(highlight)
    return [y[i] for i in sorted(keep)]


def _atom_axis(atom_names) -> tuple[list[str], list[str], dict]:
    """Tick labels of an atom axis: full names up to 12 atoms, else numbers (the outcome on
    hover); returns (x, full names, axis settings)."""
    full = [plot_text(a, 30) for a in atom_names]
    # a model learned without the outcome names its atoms "atom j" only
    by_outcome = any(str(a) != f"atom {j + 1}" for j, a in enumerate(atom_names))
    # "category": plotly would read the numbers "1" … "k" as positions 1 … k, and the boxes
    # drawn at 0-based places stood one atom to the left of the atoms they meant
    if len(full) <= 12:
        title = "atom (outcome it was learned for)" if by_outcome else "atom"
        return full, full, {"title": title, "tickangle": -45,
                            "tickmode": "array", "tickvals": full, "type": "category"}
    x = [str(j + 1) for j in range(len(full))]
    step = -(-len(x) // 8)  # at most 8 numbers: they fit a narrow column in large type
    return x, full, {"title": "atom (hover: its outcome)" if by_outcome else "atom",
                     "tickangle": 0,
                     "tickmode": "array", "tickvals": x[::step], "type": "category"}


def _colors(labels, order=None) -> tuple[np.ndarray, dict[str, str]]:
    """Every patient's outcome as text and one colour per outcome, as the app's maps give
    them (:func:`sparge.app.plots.category_colours` with the model's ``order``): the
    lecture's figures had "No" in blue where Explore had it in orange."""
    lab = np.asarray(labels).astype(str)
    return lab, category_colours(lab, order)


def data_heatmap(Xs: np.ndarray, features, row_labels, *, highlight: int | None = None,
                 hidden: np.ndarray | None = None, title: str = "", font_size: int = 14,
                 height: int = 560) -> go.Figure:
    """Patients × biomarkers in SD from the cohort mean; gaps grey, hidden entries marked.

    Colours stop at ±3 SD (an outlier would wash out every other cell); hover shows the
    value.

    ``highlight`` is the row (position in ``Xs``) of the followed patient (boxed).
    """
    Xs = np.asarray(Xs, dtype=float)
    x = [plot_text(f, 22) for f in features]
    y = [plot_text(r, 20) for r in row_labels]
    lim = min(float(np.nanmax(np.abs(Xs))), 3.0) if np.isfinite(Xs).any() else 1.0
    fig = go.Figure(go.Heatmap(
        z=Xs, x=x, y=y, colorscale="RdBu_r", zmid=0, zmin=-lim, zmax=lim, xgap=1, ygap=1,
        colorbar={"title": {"text": "SD from<br>mean" + ("<br>(±3 max)" if lim == 3.0
                                                         else "")}},
        hovertemplate="%{y} · %{x}<br>%{z:.2f} SD<extra></extra>"))
    if hidden is not None and np.asarray(hidden).any():
        r, c = np.nonzero(np.asarray(hidden))
        fig.add_trace(go.Scatter(x=[x[j] for j in c], y=[y[i] for i in r], mode="markers",
                                 name="hidden from the model (exam)",
                                 marker={"symbol": "x-thin", "size": 9, "color": "#333",
                                         "line": {"width": 2, "color": "#333"}},
                                 hoverinfo="skip"))
    if highlight is not None:
        # just outside the row: on a slide 40 rows are 5 pixels each, and a 3-pixel line
        # on the row's edges hid the followed patient's own values (walk-through 88)
        pad = 0.15 if len(y) <= 12 else 0.35
        fig.add_shape(type="rect", x0=-0.5, x1=len(x) - 0.5, y0=highlight - 0.5 - pad,
                      y1=highlight + 0.5 + pad,
                      line={"color": SELECTED, "width": 3 if len(y) <= 12 else 2})
    # a gap shows the background: mid grey, unlike the near-white of 0 SD (a walk-through
    # could not tell the light grey gaps from average values)
    _layout(fig, title, font_size, height, plot_bgcolor=GAP_GREY, showlegend=False)
    fig.update_xaxes(title="biomarker", tickangle=-40, tickmode="array", tickvals=x,
                     type="category",
                     showgrid=False)
    fig.update_yaxes(title="patient", autorange="reversed", tickmode="array", type="category",
                     tickvals=_row_ticks(y, highlight,
                                         _plot_px(height, font_size, title, x, 40), font_size),
                     showgrid=False)
    return fig


def singular_values_figure(before, after, kept: int, *, font_size: int = 14,
                           height: int = 380) -> go.Figure:
    """Singular values of the filled table before and after shrinkage; the kept rank."""
    before = np.asarray(before, dtype=float)
    after = np.asarray(after, dtype=float)
    # at least 40, and always past the kept line ("kept: 50" stood beyond 40 bars)
    k = min(len(before), max(40, kept + 3))
    fig = go.Figure()
    fig.add_trace(go.Bar(x=np.arange(1, k + 1), y=before[:k],
                         name="before shrinking (gaps filled)", marker_color="#c6dbef"))
    a = after[:k]
    fig.add_trace(go.Bar(x=np.arange(1, len(a) + 1), y=a, name="after shrinking by λ",
                         marker_color=PALETTE[0]))
    # the label on the side of the line with room: right of a line near the right edge it
    # was cut off ("kept: 8" of 8 components at 800 px)
    side = "top left" if kept > 0.6 * k else "top right"
    fig.add_vline(x=kept + 0.5, line_dash="dash",
                  annotation_text=f"kept: {kept}", annotation_position=side)
    shown = "" if k == len(before) else f" (first {k} of {len(before)})"
    # the legend above the plot: inside, it covered the "kept" label at the top right
    _layout(fig, f"Singular values: how much each component explains{shown}", font_size,
            height, legend="top", barmode="overlay")
    fig.update_xaxes(title="component", dtick=1 if k <= 20 else None)
    fig.update_yaxes(title="singular value (SD units)")
    return fig


def completion_error_figure(rmse_lowrank: float, rmse_mean: float, n_hidden: int, *,
                            font_size: int = 14, height: int = 300) -> go.Figure:
    """Error on the hidden entries: low-rank completion against the column mean."""
    fig = go.Figure(go.Bar(x=["low-rank completion", "column mean"],
                           y=[rmse_lowrank, rmse_mean], marker_color=[PALETTE[0], "#aaaaaa"],
                           text=[f"{rmse_lowrank:.2f}", f"{rmse_mean:.2f}"],
                           textposition="auto"))
    _layout(fig, f"Error on {n_hidden} hidden values (lower is better)", font_size, height)
    fig.update_yaxes(title="root mean square error (SD)", rangemode="tozero")
    return fig


def completion_row_figure(row: pd.DataFrame, patient: str, *, truth=None,
                          font_size: int = 14, height: int = 380) -> go.Figure:
    """One patient's biomarkers: measured (SD) and completed; gaps show only the latter.

    ``row`` comes from :func:`sparge.services.teaching.patient_completion`; ``truth`` (optional, SD
    units) are the values hidden from the model (toy cohort). In large type (the
    presentation) the biomarkers are rows, not columns: their names at -60° under the
    columns took all but 30-70 pixels of a slide's figure (walk-through 88).
    """
    names = [plot_text(b, 30) for b in row["biomarker"]]
    across = font_size >= LARGE_TYPE  # biomarkers as rows, values across

    def xy(values, where=None) -> dict:
        keep = [n for n, w in zip(names, where, strict=True) if w] if where is not None \
            else names
        return {"y": keep, "x": values} if across else {"x": keep, "y": values}

    fig = go.Figure()
    fig.add_trace(go.Bar(**xy(row["observed_sd"]), name="measured", marker_color="#9ecae1",
                         orientation="h" if across else "v",
                         customdata=np.asarray(row["observed"], dtype=float),
                         hovertemplate=("%{y}" if across else "%{x}")
                         + ": measured %{customdata:.4g}<extra></extra>"))
    gap = np.asarray(row["was_gap"], bool)
    done = np.asarray(row["completed_sd"], dtype=float)
    done_units = np.asarray(row["completed"], dtype=float)
    # one trace per symbol: a legend shows one symbol per trace (the diamonds had none)
    for which, name, symbol, size, word in ((~gap, "low-rank value", "diamond", 11,
                                             "low-rank value"),
                                            (gap, "filled gap", "star", 18, "filled in")):
        if which.any():
            fig.add_trace(go.Scatter(
                **xy(done[which], which), mode="markers", name=name,
                marker={"size": size, "color": "crimson", "symbol": symbol},
                customdata=done_units[which],
                hovertemplate=("%{y}" if across else "%{x}") + ": " + word
                + " %{customdata:.4g}<extra></extra>"))
    if truth is not None:
        t = np.asarray(truth, dtype=float)
        fig.add_trace(go.Scatter(**xy(t), mode="markers", name="hidden true value",
                                 marker={"size": 14, "symbol": "x-thin", "color": "black",
                                         "line": {"width": 3, "color": "black"}}))
    # a patient without gaps has nothing completed: the diamonds are the low-rank
    # (denoised) values, and the title says so (a walk-through read them as filled gaps)
    what = ("measured, low-rank and filled values" if gap.any() else
            "measured and low-rank values (no gaps to fill)")
    _layout(fig, f"Patient {plot_text(patient, 20)}: {what}", font_size, height,
            legend="top")
    if across:
        fig.update_xaxes(title="SD from the cohort mean", zeroline=True)
        plot_px = height - 24 - (font_size + 10) * (_title_lines(
            f"Patient {patient}: {what}", font_size) + LARGE_LEGEND_ROWS)
        fig.update_yaxes(autorange="reversed", type="category", tickmode="array",
                         tickvals=_row_ticks(names, None, plot_px, font_size))
        return fig
    fig.update_yaxes(title="SD from the cohort mean", zeroline=True)
    # steeper with many names: at -30° "Age (years)" lay over "Weight index"
    fig.update_xaxes(tickangle=-60 if len(names) > 8 else -30)
    return fig


def dictionary_figure(D: np.ndarray, features, atom_names, *, used=None,
                      font_size: int = 14, height: int = 460) -> go.Figure:
    """Atoms (columns) on the biomarkers; atoms the followed patient uses are marked."""
    D = np.asarray(D, dtype=float)
    x, full, xaxis = _atom_axis(atom_names)
    y = [plot_text(f, 30) for f in features]
    lim = float(np.abs(D).max()) or 1.0
    fig = go.Figure(go.Heatmap(z=D, x=x, y=y, colorscale="RdBu_r", zmid=0, zmin=-lim,
                               zmax=lim, xgap=1, ygap=1, customdata=[full] * len(y),
                               colorbar={"title": {"text": "weight"}},
                               hovertemplate="%{customdata} · %{y}<br>%{z:.2f}"
                                             "<extra></extra>"))
    # thinner boxes on more atoms: 3-pixel sides filled a narrow column (64 atoms in a
    # presentation's or an 800-pixel chart), hiding the very atoms the caption names
    width = 3 if len(x) <= 16 else 2 if len(x) <= 32 else 1
    for j in [] if used is None else list(used):
        fig.add_shape(type="rect", x0=j - 0.5, x1=j + 0.5, y0=-0.5, y1=len(y) - 0.5,
                      line={"color": SELECTED, "width": width})
    _layout(fig, "The dictionary: every atom is a pattern of biomarkers", font_size, height)
    fig.update_xaxes(**xaxis)
    fig.update_yaxes(title="biomarker", tickmode="array", type="category",
                     tickvals=y if len(y) <= 40 else y[::max(1, len(y) // 30)],
                     autorange="reversed")
    return fig


def codes_figure(Phi: np.ndarray, atom_names, row_labels, *, highlight: int | None = None,
                 font_size: int = 14, height: int = 460) -> go.Figure:
    """Codes of patients (rows) over atoms (columns); exact zeros are blank."""
    Phi = np.asarray(Phi, dtype=float)
    Z = np.where(Phi == 0, np.nan, Phi)
    x, full, xaxis = _atom_axis(atom_names)
    y = [plot_text(r, 20) for r in row_labels]
    lim = float(np.abs(Phi).max()) or 1.0
    fig = go.Figure(go.Heatmap(z=Z, x=x, y=y, colorscale="RdBu_r", zmid=0, zmin=-lim,
                               zmax=lim, xgap=1, ygap=1, customdata=[full] * len(y),
                               colorbar={"title": {"text": "code<br>weight"}},
                               hovertemplate="%{y} · %{customdata}<br>%{z:.3f}"
                                             "<extra></extra>"))
    if highlight is not None:
        fig.add_shape(type="rect", x0=-0.5, x1=len(x) - 0.5, y0=highlight - 0.5,
                      y1=highlight + 0.5, line={"color": SELECTED, "width": 3})
    title = "Sparse codes (blank = exactly zero)"
    _layout(fig, title, font_size, height, plot_bgcolor="white")
    fig.update_xaxes(showgrid=False, **xaxis)
    plot_px = _plot_px(height, font_size, title, xaxis["tickvals"], xaxis["tickangle"])
    fig.update_yaxes(title="patient", autorange="reversed", tickmode="array", type="category",
                     tickvals=_row_ticks(y, highlight, plot_px, font_size),
                     showgrid=False)
    return fig


def patient_code_figure(table: pd.DataFrame, patient: str, *, font_size: int = 14,
                        height: int = 320) -> go.Figure:
    """The followed patient's non-zero code weights (``table`` from ``code_step``)."""
    names = [plot_text(a, 30) for a in table["atom"]]
    w = np.asarray(table["weight"], dtype=float)
    fig = go.Figure(go.Bar(x=names, y=w, marker_color=[PALETTE[0] if v > 0 else PUSH
                                                       for v in w],
                           text=[f"{v:+.2f}" for v in w], textposition="outside",
                           cliponaxis=False, showlegend=False))
    # what the two colours mean (the bars had no legend)
    for colour, label, shown in ((PALETTE[0], "adds the atom's pattern", (w > 0).any()),
                                 (PUSH, "subtracts it", (w < 0).any())):
        if shown:
            fig.add_trace(go.Bar(x=[None], y=[None], marker_color=colour, name=label,
                                 showlegend=True, hoverinfo="skip"))
    _layout(fig, f"Patient {plot_text(patient, 20)}'s code: the atoms it uses", font_size, height,
            legend="top")  # inside, the legend lay over the first bar
    fig.update_yaxes(title="weight", zeroline=True)
    # steeper past four bars: "atom 13 (high risk)" names overlapped at -30° with 16 atoms
    fig.update_xaxes(title="atom", tickangle=-60 if len(names) > 4 else -30)
    return fig


def atoms_used_figure(nnz: np.ndarray, n_atoms: int, mine: int | None = None, *,
                      font_size: int = 14, height: int = 320) -> go.Figure:
    """How many atoms each patient uses (the followed patient's count marked)."""
    counts = np.bincount(np.asarray(nnz, dtype=int), minlength=n_atoms + 1)
    top = int(np.max(np.flatnonzero(counts))) if counts.any() else 0
    xs = np.arange(0, max(top, 1) + 1)
    fig = go.Figure(go.Bar(x=xs, y=counts[: len(xs)], marker_color=PALETTE[0],
                           name="patients"))
    if mine is not None:
        fig.add_vline(x=mine, line_color=SELECTED, line_width=3,
                      annotation_text="followed patient", annotation_position="top right",
                      annotation_bgcolor="rgba(255,255,255,0.85)")
    _layout(fig, f"Atoms used per patient (of {n_atoms})", font_size, height)
    fig.update_xaxes(title="non-zero weights in the code", dtick=1)
    # headroom for the marker's label (it lay over the top of the tallest bar)
    fig.update_yaxes(title="patients", range=[0, 1.2 * max(int(counts.max()), 1)])
    return fig


def _own_point(fig: go.Figure, xy, colour: str, size: float) -> None:
    """The followed patient's own point, drawn over its neighbours inside its ring (a
    walk-through's high-risk patient looked low-risk: a low-risk patient 0.007 away lay on
    top of it)."""
    fig.add_trace(go.Scatter(x=[xy[0]], y=[xy[1]], mode="markers", showlegend=False,
                             hoverinfo="skip",
                             marker={"size": size, "color": colour,
                                     "line": {"width": 1, "color": "white"}}))


def _edge_trace(coords, W, name, color, *, width: float = 1.5, opacity: float = 0.55,
                legend: bool = True) -> go.Scatter:
    """All edges of one graph as a single line trace."""
    Wu = sp.triu(sp.csr_matrix(W), 1).tocoo()
    xs: list = []
    ys: list = []
    for r, c in zip(Wu.row, Wu.col, strict=True):
        xs += [coords[r, 0], coords[c, 0], None]
        ys += [coords[r, 1], coords[c, 1], None]
    return go.Scatter(x=xs, y=ys, mode="lines", name=name, showlegend=legend,
                      line={"width": width, "color": color}, opacity=opacity,
                      hoverinfo="skip")


def _touching(W, i: int):
    """The edges of ``W`` that touch patient ``i``."""
    W = sp.csr_matrix(W)
    keep = sp.lil_matrix(W.shape)
    keep[i, :] = 1
    keep[:, i] = 1
    return W.multiply(keep.tocsr()).tocsr()


def graph_figure(coords: np.ndarray, W_plus, W_minus, labels, ids, *,
                 highlight: int | None = None, shown=None, totals=None, order=None,
                 font_size: int = 14, height: int = 520) -> go.Figure:
    """The intrinsic (black, pull) and penalty (red, push) graphs on a 2D picture.

    ``order``: the outcomes in the order of the app's colours (``outcome_order``).

    ``shown``: patients to draw (default all); the others are faint dots. ``totals``:
    (edges of W+, edges of W-) of the whole graphs when the given ones are a part of them.
    """
    coords = np.asarray(coords, dtype=float)
    n = len(coords)
    shown = np.arange(n) if shown is None else np.asarray(shown, dtype=int)
    fig = go.Figure()
    n_p, n_m = totals if totals is not None else (sp.triu(W_plus, 1).nnz,
                                                  sp.triu(W_minus, 1).nnz)
    if highlight is None:
        fig.add_trace(_edge_trace(coords, W_minus, f"other outcome: pushed apart ({n_m})",
                                  PUSH))
        fig.add_trace(_edge_trace(coords, W_plus, f"same outcome: pulled together ({n_p})",
                                  PULL))
    else:  # every edge faint, the followed patient's edges bold
        fig.add_trace(_edge_trace(coords, W_minus, "", PUSH, width=0.8, opacity=0.18,
                                  legend=False))
        fig.add_trace(_edge_trace(coords, W_plus, "", PULL, width=0.8, opacity=0.25,
                                  legend=False))
        mine_m, mine_p = _touching(W_minus, highlight), _touching(W_plus, highlight)
        # "its 3 of the 100 edges" (a lecturer read "pushed apart: 3 of 100" as cryptic)
        fig.add_trace(_edge_trace(coords, mine_m, f"pushed apart: its {mine_m[highlight].nnz} "
                                  f"of the {n_m} edges", PUSH, width=3, opacity=0.9))
        fig.add_trace(_edge_trace(coords, mine_p, f"pulled together: its "
                                  f"{mine_p[highlight].nnz} of the {n_p} edges", PULL,
                                  width=3, opacity=0.9))
    lab, colours = _colors(labels, order)
    on = np.zeros(n, bool)
    on[shown] = True
    if (~on).any():
        fig.add_trace(go.Scattergl(x=coords[~on, 0], y=coords[~on, 1], mode="markers",
                                   name="other patients", hoverinfo="skip",
                                   marker={"size": 4, "color": "#cccccc"}))
    for v, colour in colours.items():
        m = on & (lab == v)
        fig.add_trace(go.Scatter(x=coords[m, 0], y=coords[m, 1], mode="markers",
                                 name=plot_text(v, 30),
                                 text=[plot_text(s, 20) for s in np.asarray(ids)[m]],
                                 hovertemplate="%{text}<extra></extra>",
                                 marker={"size": 11, "color": colour,
                                         "line": {"width": 1, "color": "white"}}))
    if highlight is not None:
        _own_point(fig, coords[highlight], colours.get(lab[highlight], "#cccccc"), 11)
        fig.add_trace(go.Scatter(x=[coords[highlight, 0]], y=[coords[highlight, 1]],
                                 mode="markers", name="followed", hoverinfo="skip",
                                 marker={"size": 22, "symbol": "circle-open",
                                         "color": SELECTED, "line": {"width": 3}}))
    # the legend beside the plot in large type too: 5 to 7 rows under it left the graph
    # 80-110 pixels tall on a 1280 x 720 slide (walk-through 88)
    _layout(fig, "The two graphs on the patients before the embedding (first two "
            "principal axes)", font_size, height, legend="right", beside=True)
    fig.update_xaxes(title="principal axis 1", showticklabels=False, zeroline=False)
    fig.update_yaxes(title="principal axis 2", showticklabels=False, zeroline=False)
    return fig


#: Largest ratio of the two axes' spans that a lecture map draws to one scale.
MAX_STRETCH = 4.0


def map_figure(coords: np.ndarray, labels, ids, title: str, *, highlight: int | None = None,
               lookalikes=None, axis: str = "axis", order=None, font_size: int = 14,
               height: int = 440, marked=None) -> go.Figure:
    """Patients as points coloured by outcome (``order``: the outcomes in the order of the
    app's colours); ``customdata[0]`` is the training index.

    The followed patient is circled, its look-alikes get a black ring; ``marked``
    patients (among another outcome) are crossed, on top of every point.
    """
    coords = np.asarray(coords, dtype=float)
    lab, colours = _colors(labels, order)
    ids = np.asarray(ids)
    fig = go.Figure()
    big = len(coords) > 200
    # the larger outcome under the smaller, the legend in the outcomes' order (as on the
    # app's maps: a rare outcome lay under a common one)
    rank = {v: i for i, v in enumerate(colours)}
    for v, colour in sorted(colours.items(), key=lambda kv: -int(np.sum(lab == kv[0]))):
        m = np.flatnonzero(lab == v)
        fig.add_trace(go.Scatter(
            x=coords[m, 0], y=coords[m, 1], mode="markers", name=plot_text(v, 30),
            legendrank=1000 + rank[v],
            # a list, not an array: plotly sends a numpy array as a typed array, whose
            # clicked point came back as a dict (walk-through 74: a click on the map
            # blanked the page with KeyError 0)
            customdata=[[int(i)] for i in m], text=[plot_text(s, 20) for s in ids[m]],
            hovertemplate="%{text}<extra></extra>",
            marker={"size": 6 if big else 12, "color": colour, "opacity": 0.85}))
    if marked is not None and len(marked):
        mk = np.asarray(marked, dtype=int)
        fig.add_trace(go.Scatter(
            x=coords[mk, 0], y=coords[mk, 1], mode="markers",
            name=f"among another outcome ({len(mk)})", legendrank=2000,
            customdata=[[int(i)] for i in mk], text=[plot_text(s, 20) for s in ids[mk]],
            hovertemplate="%{text}: most of its nearest have another outcome<extra></extra>",
            marker={"size": 9 if big else 13, "symbol": "x-thin-open",
                    "color": "#111", "line": {"width": 2.5}}))
    if lookalikes is not None and len(lookalikes):
        la = np.asarray(lookalikes, dtype=int)
        fig.add_trace(go.Scatter(x=coords[la, 0], y=coords[la, 1], mode="markers",
                                 name="look-alikes", hoverinfo="skip",
                                 marker={"size": 16, "symbol": "circle-open",
                                         "color": "#555", "line": {"width": 2}}))
    if highlight is not None:
        _own_point(fig, coords[highlight], colours.get(lab[highlight], "#cccccc"),
                   6 if big else 12)
        fig.add_trace(go.Scatter(x=[coords[highlight, 0]], y=[coords[highlight, 1]],
                                 mode="markers", name="followed", hoverinfo="skip",
                                 marker={"size": 24, "symbol": "circle-open",
                                         "color": SELECTED, "line": {"width": 3}}))
    # distances are the lesson: one scale on both axes, unless one axis spans far less
    # than the other (the toy's second learned axis spanned 1/100 of the first and was
    # drawn as wide, with no word of it); then the stretch is written on the axis
    spans = np.ptp(coords[:, :2], axis=0) if len(coords) else np.ones(2)
    flat = spans <= 1e-9 * max(float(spans.max()), 1e-300)
    stretch = float(spans[0] / spans[1]) if not flat.any() else 0.0
    one_scale = 1 / MAX_STRETCH <= stretch <= MAX_STRETCH
    _layout(fig, title, font_size, height, legend="right", beside=one_scale,
            clickmode="event+select", dragmode="zoom")
    fig.update_xaxes(title=f"{axis} 1", showticklabels=False, zeroline=False)
    if flat.any():  # an axis along which every patient is the same: said, not stretched
        for j, update in enumerate((fig.update_xaxes, fig.update_yaxes)):
            if flat[j]:
                update(title=f"{axis} {j + 1} (flat: every patient at the same value)",
                       range=[float(coords[:, j].mean()) - 1, float(coords[:, j].mean()) + 1])
        fig.update_yaxes(showticklabels=False, zeroline=False)
        return fig
    if one_scale:
        fig.update_yaxes(title=f"{axis} 2", showticklabels=False, zeroline=False,
                         scaleanchor="x", scaleratio=1)
    else:
        what = (f"stretched {stretch:,.0f}×" if stretch > 1 else
                f"squeezed {1 / stretch:,.0f}×")
        # said along the x axis, which has room: a lecturer's 800 px screen cut the
        # vertical "learned axis 2 (stretche"
        fig.update_yaxes(title=f"{axis} 2", showticklabels=False, zeroline=False)
        fig.update_xaxes(title=f"{axis} 1 (axis 2 {what})")
    return fig



def objective_figure(history: pd.DataFrame, best: int | None = None, *,
                     supervised: bool = True, font_size: int = 14,
                     height: int = 380) -> go.Figure:
    """Trace ratio J and the held-out score per refinement iteration; the kept one marked.
    The held-out score is precision@10, or (``supervised=False``: no outcomes) the
    held-out patients' J."""
    from plotly.subplots import make_subplots

    h = pd.DataFrame(history)
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Scatter(x=h["iteration"], y=h["J"], name="J on training part",
                             mode="lines+markers"), secondary_y=False)
    scored = "heldout_score" in h and h["heldout_score"].notna().any()
    if scored and not supervised:  # minus the held-out J was shown as a precision
        fig.add_trace(go.Scatter(x=h["iteration"], y=-h["heldout_score"],
                                 mode="lines+markers", name="J of held-out patients"),
                      secondary_y=True)
        scored = False
        fig.update_yaxes(title_text="J of held-out patients", secondary_y=True,
                         tickformat=".3g")
    if scored:
        fig.add_trace(go.Scatter(x=h["iteration"], y=h["heldout_score"], mode="lines+markers",
                                 name="held-out precision@10"), secondary_y=True)
    if best is not None:
        last = int(h["iteration"].max()) if len(h) else best
        side = "bottom left" if best > 0.6 * last else "bottom right"
        fig.add_vline(x=best, line_dash="dash", annotation_text=f"kept: iteration {best}",
                      annotation_position=side, annotation_yshift=-4,
                      annotation_bgcolor="rgba(255,255,255,0.85)")
    _layout(fig, "Joint refinement: objective and held-out score", font_size, height,
            legend="top")
    fig.update_xaxes(title="iteration", dtick=1)
    fig.update_yaxes(title_text="trace ratio J (lower is better)", secondary_y=False,
                     tickformat=".3g")
    # percent with one decimal: two decimals repeated a tick ("0.78" twice) on a narrow range
    if scored:
        fig.update_yaxes(title_text="held-out precision@10", secondary_y=True,
                         tickformat=".1%", range=share_range(h["heldout_score"]))
    return fig


def share_range(values, pad: float = 0.02) -> list[float] | None:
    """An axis range for shares (0-1) around ``values``, never past 0 or 100 %: a flat 100 %
    line was autoscaled to ticks of 8 % to 193 %."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not v.size:
        return None
    margin = max(pad, 0.15 * float(v.max() - v.min()))
    return [max(0.0, float(v.min()) - margin), min(1.0, float(v.max()) + margin) + 0.005]


def lookalike_weights_figure(table: pd.DataFrame, patient: str, *, order=None,
                             by_outcome: bool = True, font_size: int = 14,
                             height: int = 340) -> go.Figure:
    """Sparse weights of the followed patient's look-alikes (table from ``lookalike_step``),
    coloured by outcome as the app's maps colour them (``order``; ``by_outcome=False``: a
    model without outcomes, one colour and no word of outcomes)."""
    lab, colours = _colors(table["outcome"], order)
    names = [f"{int(r)}. {plot_text(i, 20)}" for r, i in zip(table["rank"], table["ID"],
                                                              strict=True)]
    colors = [colours[v] for v in lab]
    w = np.asarray(table["sparse_weight"], dtype=float)
    # the weights as the table writes them, a zero's too, above its (empty) bar: "1.00"
    # beside a table's 0.999 and nothing at all for a weight of 0 read as missing data
    # (walk-through 88)
    fig = go.Figure(go.Bar(x=names, y=w, marker_color=colors, showlegend=False,
                           text=[f"{v:.3f}" for v in w],
                           textposition=["outside" if v < 0.2 else "inside" for v in w],
                           customdata=np.column_stack([[plot_text(v, 30) for v in lab],
                                                       np.asarray(table["distance"])]),
                           hovertemplate="%{x}<br>outcome %{customdata[0]}<br>distance "
                                         "%{customdata[1]:.3f}<extra></extra>"))
    if by_outcome:  # a key to the colours (the title said "colour = outcome", none showed)
        for v, colour in colours.items():
            if (lab == v).any():
                fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers",
                                         name=plot_text(v, 30), hoverinfo="skip",
                                         showlegend=True,  # one outcome too
                                         marker={"symbol": "square", "size": 12,
                                                 "color": colour}))
    _layout(fig, f"Look-alikes of patient {plot_text(patient, 20)}, nearest first: sparse weights"
            + (" (colour = outcome)" if by_outcome else ""), font_size, height)
    fig.update_yaxes(title="sparse weight", range=[0, 1.05])
    # a category axis: "1. 851" (a patient ID of numbers) read as 1.851 put the bars at
    # 1.85, 2.2 and 4.63 and lost ranks and IDs (walk-through 27)
    fig.update_xaxes(title="look-alike (rank. ID)", type="category")
    return fig
