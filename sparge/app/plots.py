"""Plotly figure builders (pure functions: data in, figure out; tested without Streamlit)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from sparge.method.preprocess import missing_fraction_per_row
from sparge.services.display import format_number, plot_text
from sparge.services.maps import (
    DENSE_MAP,
    MAX_MAP_POINTS,
    NOT_TRAINED,
    density_grid,
    drawn_points,
    is_dense,
    map_frame_range,
    point_style,
)

# Categories (outcomes first of all): Okabe & Ito's colour-blind-safe colours and their
# like, without a red or a grey. Red marks *this* patient (the crimson star and diamond,
# the threshold line) and grey the patients left out of training; plotly's default order
# drew a 4-outcome table's "stable" in red, and its green and red are one colour to a
# deuteranope.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#8C564B", "#999933",
           "#332288", "#44AA99",
           # then Tol's sand, purple, wine, green, cyan, brown, lime, steel blue and rose: a
           # 17-answer column (walk-through 27's race) drew two answers in each of seven
           # colours when the palette started again at 10; the purple came 10th, beside the
           # 4th's pink (walk-through 43's "Cat 4 CS" and "Normal vaginal delivery")
           "#DDCC77", "#882255", "#AA4499", "#117733", "#88CCEE", "#661100", "#BBCC33",
           "#6699CC", "#FFAABB"]


#: A category column's gaps on the map (:func:`sparge.services.display.level_order`) and
#: their colour.
MISSING_CATEGORY, MISSING_COLOUR = "missing", "#C8C8C8"


def wrap_title(text: str, width: int = 48) -> str:
    """A plot title broken into lines of about ``width`` characters (plotly never wraps)."""
    lines, line = [], ""
    for word in str(text).split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "<br>".join(lines)


#: Plotly config for the small charts: one PNG button instead of the whole toolbar (zoom,
#: pan, select… which a bar chart does not need and which covered titles and legends on
#: narrow screens); the cohort maps keep the full toolbar.
SMALL_CHART = {"displaylogo": False, "modeBarButtons": [["toImage"]],
               "toImageButtonOptions": {"format": "png", "scale": 2}}


def _title(text: str, width: int = 48) -> tuple[dict, int]:
    """Layout title (wrapped, left-aligned, below the toolbar's row so the two never
    overlap on a narrow screen) and the top margin it needs."""
    wrapped = wrap_title(text, width) if text else ""
    n_lines = wrapped.count("<br>") + 1 if wrapped else 0
    pad = 40 if wrapped else 0  # 30 left the toolbar over its first line at 800 px
    return ({"text": wrapped, "x": 0.01, "xanchor": "left", "yref": "container", "y": 1,
             "yanchor": "top", "pad": {"t": pad}, "font": {"size": 15}},
            pad + 14 + 20 * n_lines)


def _hover_texts(df: pd.DataFrame, hcols: list[str]) -> list[str]:
    """One hover text per patient: ID, the hover biomarkers (already formatted), outcome,
    and why a patient was not used for training. User text is HTML-escaped."""
    out = []
    has_outcome = "outcome" in df
    has_reason = "reason" in df
    for rec in df.to_dict("records"):
        parts = [f"<b>{plot_text(rec['ID'])}</b>"]
        parts += [f"{plot_text(c[3:], 40)}: {plot_text(rec[c], 40)}" for c in hcols]
        if has_outcome:
            parts.append(f"Outcome: {plot_text(rec['outcome'])}")
        if has_reason and rec["reason"]:
            parts.append(f"<i>{NOT_TRAINED}: {plot_text(rec['reason'], 80)}</i>")
        out.append("<br>".join(parts))
    return out


def _id_texts(ids) -> np.ndarray:
    """Patient IDs ready for a hover label (HTML-escaped), fast for a million: only IDs
    with characters outside letters, digits and plain punctuation go through
    :func:`plot_text`."""
    s = pd.Series(np.asarray(ids, dtype=object)).astype(str)
    need = ~s.str.fullmatch(r"[\w .,:;/+\-]{0,60}").to_numpy(dtype=bool)
    out = s.to_numpy(dtype=object)
    out[need] = [plot_text(v) for v in out[need]]
    return out


def _density_layer(df: pd.DataFrame, bins: int) -> go.Heatmap:
    """Patients per cell under the points (log shading; empty cells transparent)."""
    grid = density_grid(df["x"], df["y"], bins=bins)
    counts = grid["counts"].astype(float)
    z = np.where(counts > 0, np.log10(np.maximum(counts, 1)) + 1, np.nan)
    return go.Heatmap(x=grid["x"], y=grid["y"], z=z, customdata=counts.astype(np.int32),
                      name="patients per cell", showscale=False, zsmooth="best",
                      colorscale=[[0, "#e9edf3"], [0.5, "#9aa9bf"], [1, "#27354d"]],
                      opacity=0.7, showlegend=False,
                      hovertemplate="%{customdata:,} patients in this cell<extra></extra>")


#: Legend entries that fit in rows under the map; more go in a column on its right.
LEGEND_BELOW_MAX = 10

#: Legend place of the selected patient, its look-alikes and a new patient: after the
#: outcomes (1000 + their order) and before the patients left out (2000); they stood
#: between the outcomes in a walk-through's legend ("low, selected, high").
MARKS_RANK = 1500


def nice_ticks(lo: float, hi: float, n: int = 4) -> list[float]:
    """About ``n`` round numbers (steps of 1, 2 or 5 times a power of ten) strictly
    between ``lo`` and ``hi``, away from both ends by a fifth of a step."""
    span = float(hi - lo)
    if not np.isfinite(span) or span <= 0:
        return []
    raw = span / max(n, 1)
    power = 10.0 ** np.floor(np.log10(raw))
    step = min((m * power for m in (1, 2, 5, 10)), key=lambda st: abs(np.log(st / raw)))
    ticks = np.arange(np.ceil(lo / step) * step, hi, step)
    keep = (ticks > lo + step / 5) & (ticks < hi - step / 5)
    return [round(float(np.round(t / step) * step), 12) for t in ticks[keep]]


def log_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round numbers (1, 2 or 5 times a power of ten) strictly between ``lo`` and ``hi``
    (both > 0), thinned to at most about ``n`` that are evenly spread on a log axis."""
    if not (lo > 0 and hi > lo):
        return []
    powers = np.arange(np.floor(np.log10(lo)), np.ceil(np.log10(hi)) + 1)
    for mantissas in ((1, 2, 5), (1, 3), (1,)):
        ticks = [m * 10.0 ** p for p in powers for m in mantissas]
        ticks = [round(t, 12) for t in ticks if lo * 1.15 < t < hi / 1.15]
        if len(ticks) <= n:
            return ticks
    return ticks[:: int(np.ceil(len(ticks) / n))]


def numeric_colour_scale(values) -> dict:
    """How a number column colours the map: its colour values, ends and colour-bar ticks.

    The ends are the 1st and 99th percentiles (a few unit slips no longer make the whole
    map one colour), marked "≤" / "≥" when values lie beyond them. A strongly right-skewed
    positive column (albumin-to-creatinine ratio, CRP, triglycerides: the 99th percentile
    at least 20 times the 1st and the median in the lowest tenth of a linear scale, where
    most patients would share one colour) is coloured on a log scale, its ticks in the
    column's own units.

    Returns
    -------
    dict with ``color`` (per value; log10 on a log scale, NaN kept), ``cmin``, ``cmax``,
    ``log`` (bool) and ``colorbar`` (tick settings, possibly empty).
    """
    v = np.asarray(values, dtype=float)
    finite = v[np.isfinite(v)]
    if not len(finite):
        return {"color": v, "cmin": 0.0, "cmax": 1.0, "log": False, "colorbar": {}}
    lo, hi = np.percentile(finite, [1, 99])
    if not hi > lo:
        lo, hi = float(finite.min()), float(finite.max())
    med = float(np.median(finite))
    log = bool(finite.min() > 0 and lo > 0 and hi >= 20 * lo
               and (med - lo) < 0.1 * (hi - lo))
    clipped_lo, clipped_hi = finite.min() < lo, finite.max() > hi
    if log:
        ticks = [lo, *log_ticks(lo, hi), hi]
        colour = np.log10(np.where(v > 0, v, np.nan))
        out = {"color": colour, "cmin": float(np.log10(lo)), "cmax": float(np.log10(hi)),
               "log": True}
        vals = [float(np.log10(t)) for t in ticks]
    elif clipped_lo or clipped_hi:
        # round numbers between the ends (five even steps read "6.56, 12.2, 17.9")
        ticks = [lo, *nice_ticks(lo, hi), hi]
        out = {"color": v, "cmin": float(lo), "cmax": float(hi), "log": False}
        vals = ticks
    else:
        return {"color": v, "cmin": float(lo), "cmax": float(hi), "log": False,
                "colorbar": {}}
    text = [format_number(t) for t in ticks]
    if clipped_lo:
        text[0] = "≤ " + text[0]
    if clipped_hi:
        text[-1] = "≥ " + text[-1]
    out["colorbar"] = {"tickmode": "array", "tickvals": vals, "ticktext": text}
    return out


def cohort_map(frame: pd.DataFrame, color: pd.Series | None = None, *,
               hover: pd.DataFrame | None = None, highlight: int | None = None,
               lookalikes=None, new_points: pd.DataFrame | None = None, title: str = "",
               color_title: str = "", order=None, ordered: bool = False, color_text=None,
               dense_threshold: int = DENSE_MAP,
               density_bins: int = 120, max_points: int = MAX_MAP_POINTS) -> go.Figure:
    """WebGL scatter of the patients; ``customdata`` holds the patient's key for selection.

    Parameters
    ----------
    frame : DataFrame from :func:`sparge.services.maps.map_frame` (``x``, ``y``, ``ID``, and ``row``
        or ``training_index`` as the key; optional ``status``/``reason``/``outcome``).
        Patients whose ``status`` is "not used for training" get their own marker and legend
        entry.
    color : per-row colour values: categories (one trace each, a legend) or numbers (a
        colour scale when more than 10 distinct values).
    hover : per-row values shown on hover, already formatted for reading (clinical units,
        categories as words); at most 4 columns. Not used on a dense map.
    highlight : key of the selected patient (circled).
    lookalikes : keys of the selected patient's look-alikes (ringed).
    new_points : DataFrame with ``x``, ``y``, ``ID``: new patients (stars).
    order : categories in their meaning's order (outcome classes, a scale's levels):
        legend order and colours follow it (default: sorted).
    ordered : the categories of ``order`` are a scale's steps (NYHA, a risk class):
        coloured along a sequential scale (:func:`category_colours`), as is a score of a
        few numbers.
    color_text : per-row numeric colour values as the hover writes them (a value written
        as a limit, ">90"); default: the numbers formatted.
    dense_threshold : above this many patients the map is dense (see below).
    density_bins : cells per axis of a dense map's density layer.
    max_points : above this many patients a random sample of this many (plus the selected
        patient and its look-alikes) is drawn as points over the density layer of all of
        them (:func:`sparge.services.maps.drawn_points`); the figure says so.

    A click selects (the drag mode is zoom; lasso and box stay in the toolbar). Every
    patient is drawn up to ``max_points``. Up to ``dense_threshold`` patients,
    ``customdata[i]`` is ``[key]`` and the hover shows the ID, the ``hover`` values, the
    outcome and why a patient was left out. Above it (a dense map) the points are smaller
    and fainter (:func:`sparge.services.maps.point_style`) over a density layer (patients per cell,
    :func:`sparge.services.maps.density_grid`), coordinates are sent as float32,
    ``customdata[i]`` is the key itself (an int32 array) and the hover shows the ID and the
    colour's value: what a browser can take for a million patients.
    """
    df = frame.copy().reset_index(drop=True)
    key = "row" if "row" in df else "training_index"
    dense = is_dense(len(df), dense_threshold)
    # a few patients far from the rest are drawn at the frame's edge (walk-through 85: one
    # patient drew the others as a thin band); the download keeps their coordinates
    frame_ranges: dict[str, tuple[float, float]] = {}
    far = np.zeros(len(df), bool)
    for axis in ("x", "y"):
        found = map_frame_range(df[axis].to_numpy(float)) if len(df) else None
        if found is not None:
            lo, hi, beyond = found
            frame_ranges[axis] = (lo, hi)
            far |= beyond
            inset = 0.03 * (hi - lo)  # inside the frame's margin, the marker whole
            df[axis] = df[axis].clip(lo + inset, hi - inset)
    if frame_ranges and new_points is not None and len(new_points):
        new_points = new_points.assign(**{
            a: new_points[a].clip(lo + 0.03 * (hi - lo), hi - 0.03 * (hi - lo))
            for a, (lo, hi) in frame_ranges.items()})
    if color is not None:
        df["_color"] = np.asarray(color)
    if dense:
        df["_hover"] = _id_texts(df["ID"])
    else:
        hcols = []
        if hover is not None:
            for c in list(hover.columns)[:4]:
                df[f"_h_{c}"] = np.asarray(hover[c])
                hcols.append(f"_h_{c}")
        df["_hover"] = _hover_texts(df, hcols)
    fig = go.Figure()
    if dense and len(df):
        fig.add_trace(_density_layer(df, density_bins))  # every patient
    keep = [highlight] if highlight is not None else []
    keep += [] if lookalikes is None else list(np.asarray(lookalikes).ravel())
    shown = drawn_points(len(df), keep=np.flatnonzero(df[key].isin(keep).to_numpy()),
                         max_points=max_points)
    n_all = len(df)
    if shown is not None:
        df = df.iloc[shown].reset_index(drop=True)
    far_drawn = far[shown] if shown is not None else far
    # points as faint as the drawn ones need (a sample of a million is drawn as 50,000)
    style = point_style(max(len(df), dense_threshold + 1) if dense else len(df),
                        dense_threshold)
    size, alpha = style["size"], style["opacity"]
    outside = (df["status"] == NOT_TRAINED).to_numpy() if "status" in df else \
        np.zeros(len(df), bool)

    groups = []  # (patients, legend name, marker, hover addition), in the legend's order

    def add(sub: pd.DataFrame, name: str, marker: dict, extra: str = ""):
        groups.append((sub, name, marker, extra))

    def draw(sub: pd.DataFrame, name: str, marker: dict, extra: str, rank: int = 0):
        if dense:
            xy = {"x": sub["x"].to_numpy(np.float32), "y": sub["y"].to_numpy(np.float32),
                  "customdata": sub[key].to_numpy(np.int32)}
        else:
            xy = {"x": sub["x"], "y": sub["y"],
                  "customdata": sub[[key]].to_numpy(dtype=object)}
        text = "<b>%{hovertext}</b>" if dense else "%{hovertext}"  # bold once, not per ID
        legend = {"showlegend": False, "legendgroup": name} if dense else \
            {"legendrank": 2000 if name == NOT_TRAINED else 1000 + rank}  # listed in order
        if "_text" in sub:  # the colour's value as written, for the hover
            xy["text"] = sub["_text"].to_numpy(dtype=object)
        fig.add_trace(go.Scattergl(**xy, mode="markers", name=name,
                                   hovertext=sub["_hover"],
                                   hovertemplate=f"{text}{extra}<extra></extra>",
                                   marker=marker, **legend))

    def draw_all():
        # The patients left out of training first, under the others: drawn last, 1,024 grey
        # crosses hid the outcome colours of a 5,735-patient map.
        left_out = [g for g in groups if g[1] == NOT_TRAINED]
        # Largest group first, so that a rare outcome is not buried under a common one (94
        # events lay under 1,034 event-free patients on a walk-through's UMAP). The legend
        # keeps the groups' order: by rank, or (dense) solid stand-in markers.
        inside = sorted((g for g in groups if g[1] != NOT_TRAINED), key=lambda g: -len(g[0]))
        order = {g[1]: i for i, g in enumerate(groups)}
        # a few left out go on top: walk-through 25's 29 crosses among 922 patients lay
        # under them, one of 29 visible
        few = sum(len(g[0]) for g in left_out) <= max(50, 0.1 * sum(len(g[0]) for g in inside))
        for g in (inside + left_out if few and not dense else left_out + inside):
            draw(*g, rank=order[g[1]])
        if not dense:
            return
        for _, name, marker, _ in groups:
            solid = {k: v for k, v in marker.items() if k in ("symbol", "color")}
            if not isinstance(solid.get("color", ""), str):
                solid["color"] = "#444444"
            fig.add_trace(go.Scattergl(x=[None], y=[None], mode="markers", name=name,
                                       legendgroup=name, hoverinfo="skip",
                                       legendrank=2000 if name == NOT_TRAINED else 1000,
                                       marker={**solid, "size": 8, "opacity": 1}))

    def said(value: str, always: bool = False) -> str:
        """The colour's value in the hover: on a dense map, and on any map for a number
        (walk-through 22 hovered a map coloured by NT-proBNP and read no NT-proBNP)."""
        if color is None or not (dense or always):
            return ""
        label = plot_text(color_title or "colour", 30)
        return f"<br>{label}: {value}"

    inside_df, outside_df = df[~outside], df[outside]
    numeric = (color is not None and pd.api.types.is_numeric_dtype(df["_color"])
               and df["_color"].nunique() > 10)
    out_marker = {"size": 7 if not dense else max(3.0, size + 1), "symbol": "x",
                  "color": "#888888", "opacity": 0.6 if not dense else max(0.3, alpha)}
    if color is None:
        add(inside_df, "patients", {"size": size, "color": PALETTE[0],
                                    "opacity": 0.75 if not dense else alpha})
    elif numeric:
        cs = numeric_colour_scale(df["_color"])
        df["_shade"] = cs["color"]
        # the hover reads the value as the pages write numbers ("25,000", not d3's
        # "2.500e+4"), and on a log scale the colour is the value's log anyway
        df["_text"] = [format_number(t) if np.isfinite(t) else "–"
                       for t in df["_color"].to_numpy(float)]
        if color_text is not None and len(color_text) == len(df):
            df["_text"] = np.asarray(color_text, dtype=object)
        value_hover = "%{text}"
        inside_df, outside_df = df[~outside], df[outside]
        scale = {"colorscale": "Viridis", "cmin": cs["cmin"], "cmax": cs["cmax"]}
        colour = inside_df["_shade"].to_numpy(np.float32) if dense else inside_df["_shade"]
        bar_title = plot_text(color_title, 30) if color_title else ""
        if cs["log"]:
            bar_title = f"{bar_title}<br>(log scale)" if bar_title else "log scale"
        add(inside_df, "patients", {"size": size, "color": colour, **scale,
                                    "showscale": True, "opacity": alpha,
                                    "colorbar": {"title": bar_title, **cs["colorbar"]}},
            said(value_hover, always=True))
        out_colour = outside_df["_shade"].to_numpy(np.float32) if dense else \
            outside_df["_shade"]
        out_marker = {**out_marker, "color": out_colour, **scale}
    else:
        if color is not None and pd.api.types.is_numeric_dtype(df["_color"]):
            # a score of a few values (GCS 7-15) in its own order, written as the pages
            # write numbers: the legend read "10.0, 11.0 … 15.0, 7.0, 8.0" (walk-through 28)
            v = df["_color"].to_numpy(float)
            steps = sorted(set(v[np.isfinite(v)].tolist()))
            order = [format_number(t) for t in steps] + [MISSING_CATEGORY]
            df["_color"] = [format_number(t) if np.isfinite(t) else MISSING_CATEGORY
                            for t in v]
            inside_df, outside_df = df[~outside], df[outside]
            ordered = True
        values = inside_df["_color"].astype(str)
        colours = category_colours(df["_color"], order, ordered=ordered and order is not None)
        # ... not twice: a map coloured by the outcome says it as "Outcome" already
        # (walk-through 54 read "Outcome: Yes" and "Febrile neutropenia within 30…: Yes")
        outcome = "outcome" in df and bool(
            (df["_color"].astype(str) == df["outcome"].astype(str)).all())
        for v, colour in colours.items():
            if (values == v).any():
                # the answer in the hover on any map (walk-through 30 hovered a map
                # coloured by the review year and read no year)
                add(inside_df[values == v], plot_text(v, 40),
                    {"size": size, "color": colour, "opacity": alpha},
                    "" if outcome and not dense else said(plot_text(v, 40), always=True))
    if len(outside_df):
        add(outside_df, NOT_TRAINED, out_marker, said(value_hover, always=True) if numeric else
            ("" if not dense else f"<br><i>{NOT_TRAINED}</i>"))
    draw_all()
    # Highlights go on the WebGL canvas like the points (an SVG trace sits under the
    # canvas: a new patient's star was hidden on a 5,735-patient map).
    Marks = go.Scattergl
    if lookalikes is not None and len(lookalikes):
        rows = df[df[key].isin(np.asarray(lookalikes))]
        if len(rows):
            keys = rows[key].to_numpy(np.int32) if dense else \
                rows[[key]].to_numpy(dtype=object)
            fig.add_trace(Marks(x=rows["x"], y=rows["y"], mode="markers", name="look-alikes",
                                customdata=keys, hovertext=rows["_hover"],
                                hovertemplate=("<b>%{hovertext}</b>" if dense else
                                               "%{hovertext}") + "<extra>look-alike</extra>",
                                marker={"size": 11, "symbol": "circle-open", "color": "#222222",
                                        "line": {"width": 2}}, legendrank=MARKS_RANK))
    if highlight is not None and (df[key] == highlight).any():
        row = df[df[key] == highlight]
        fig.add_trace(Marks(x=row["x"], y=row["y"], mode="markers", name="selected",
                            marker={"size": 16, "symbol": "circle-open", "color": "black",
                                    "line": {"width": 3}}, hoverinfo="skip",
                            legendrank=MARKS_RANK))
    if new_points is not None and len(new_points):
        labels = [plot_text(v, 30) for v in new_points.get("ID", [""] * len(new_points))]
        fig.add_trace(Marks(x=new_points["x"], y=new_points["y"], mode="markers",
                            name="new patient", text=labels, hoverinfo="text",
                            marker={"size": 18, "symbol": "star", "color": "crimson",
                                    "line": {"width": 1, "color": "black"}},
                            legendrank=MARKS_RANK))
        for x, y, label in zip(new_points["x"], new_points["y"], labels, strict=True):
            # on a box: plain text over the points was unreadable on a crowded map
            fig.add_annotation(x=x, y=y, text=label, showarrow=False, yshift=18,
                               bgcolor="rgba(255,255,255,0.85)", bordercolor="crimson",
                               borderpad=2, font={"size": 12, "color": "crimson"})
    if far.any():
        edge = df[far_drawn]
        fig.add_trace(Marks(x=edge["x"], y=edge["y"], mode="markers",
                            name="far from the rest (at the edge)", hoverinfo="skip",
                            marker={"size": 13, "symbol": "diamond-open", "color": "#555555",
                                    "line": {"width": 1.5}}, legendrank=MARKS_RANK))
        n_far = int(far.sum())
        fig.add_annotation(text=f"{n_far:,} patient{'s' if n_far != 1 else ''} far from the "
                                "rest drawn at the frame's edge (◇)", xref="paper",
                           yref="paper", x=1, y=1, xanchor="right", yanchor="bottom",
                           showarrow=False, font={"size": 11, "color": "#555555"})
    if shown is not None:
        fig.add_annotation(text=f"points: a random {len(df):,} of the {n_all:,} patients; "
                                "shading: all of them", xref="paper", yref="paper", x=0,
                           y=1, xanchor="left", yanchor="bottom", showarrow=False,
                           font={"size": 11, "color": "#555555"})
    head, top = _title(title)
    # many entries: a column on the right (walk-through 73's 15 cytogenetic answers in
    # rows under the map were drawn over its lower part)
    entries = sum(1 for t in fig.data if t.showlegend is not False)
    side = entries > LEGEND_BELOW_MAX
    fig.update_layout(title=head, dragmode="zoom", clickmode="event+select", height=560,
                      # whole and wrapped: cut at 44 characters, the chemo unit's outcome
                      # read "… within 30 days of a cyc…" (walk-through 105)
                      legend={"title": {"text": wrap_title(
                                  f"{plot_text(color_title, 120)}:", 28 if side else 70)
                                  if color_title else ""},
                              **({"orientation": "v", "yanchor": "top", "y": 1,
                                  "x": 1.01, "xanchor": "left"} if side else
                                 {"orientation": "h", "yanchor": "top", "y": -0.02,
                                  "x": 0})},
                      margin={"l": 10, "r": 10, "t": top, "b": 10})
    fig.update_xaxes(showticklabels=False, title="")
    fig.update_yaxes(showticklabels=False, title="")
    for axis, (lo, hi) in frame_ranges.items():
        (fig.update_xaxes if axis == "x" else fig.update_yaxes)(range=[lo, hi])
    if dense:  # no grid over the shading
        fig.update_layout(hovermode="closest")
        fig.update_xaxes(showgrid=False, zeroline=False)
        fig.update_yaxes(showgrid=False, zeroline=False)
    return fig


def _ordinal(k: int) -> str:
    """2nd, 3rd, 4th …"""
    return f"{k}{'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def _distinct(labels: list[str]) -> list[str]:
    """``labels`` with a repeat made distinct by trailing zero-width spaces (a category
    axis would draw two equal labels as one row or column)."""
    seen: dict[str, int] = {}
    out = []
    for text in labels:
        k = seen.get(text, 0)
        seen[text] = k + 1
        out.append(text + "\u200b" * k)
    return out


def missingness_heatmap(X: np.ndarray, feature_names: list[str], ids=None,
                        max_rows: int = 400, max_cols: int = 300,
                        max_labels: int = 60, weights=None) -> go.Figure:
    """Patients × columns, dark where missing (subsampled evenly for large tables); with
    ``weights`` (the encoder's ``patient_weights``: 0 where a value does not apply to the
    patient), those gaps light grey: walk-through 43 read the columns the report said do
    not apply to most patients as solid dark.

    Every column is named below the map when there are at most ``max_labels`` of them
    (Plotly would otherwise skip every other name on a narrow screen); more columns are
    named on hover only.
    """
    gaps = np.isnan(np.asarray(X, dtype=float))
    w = None if weights is None else np.broadcast_to(np.asarray(weights, dtype=float),
                                                     gaps.shape)
    apart = gaps & (w == 0) if w is not None else np.zeros_like(gaps)
    miss = np.where(apart, 1, 2 * gaps).astype(np.int8)  # 0 given, 1 not applicable, 2 gap
    rows = np.linspace(0, miss.shape[0] - 1, min(max_rows, miss.shape[0])).astype(int)
    cols = np.linspace(0, miss.shape[1] - 1, min(max_cols, miss.shape[1])).astype(int)
    y = _distinct([plot_text(ids[i]) for i in rows] if ids is not None
                  else [str(i) for i in rows])
    names = [plot_text(feature_names[j], 24) for j in cols]
    x = _distinct(names)  # two names cut to the same text stay two columns
    z = miss[np.ix_(rows, cols)]
    # one trace per state, its other cells empty: the hover says the state by the trace,
    # the column and patient by the axes. A text per cell (customdata of 400 x 300 x 2
    # strings) cost 0.8 s of JSON on every run of the Data page.
    fig = go.Figure([go.Heatmap(
        z=np.where(z == state, np.float32(state), np.float32(np.nan)), x=x, y=y, zmin=0,
        zmax=2, colorscale=[[0, colour], [1, colour]], showscale=False, hoverongaps=False,
        name=said, hovertemplate=f"%{{y}} · %{{x}}<br>{said}<extra></extra>")
        for state, said, colour in ((0, "given", "#e8f0fa"), (1, "does not apply", "#b4bfcc"),
                                    (2, "missing", "#1b2a49"))
        if (z == state).any()])
    labelled = len(cols) <= max_labels
    # every name up to 30 columns; past that every k-th (53 upright names still touched at
    # 800 px), the others on hover
    step = 1 if len(cols) <= 30 else int(np.ceil(len(cols) / 30))
    head, top = _title("Missing values (dark = missing" + (
        ", grey = does not apply to the patient)" if apart.any() else ")"))
    longest = max((len(n) for n in names), default=0) if labelled else 0
    bottom = 40 + (min(longest, 24) * 6 if labelled else 0)
    title = ("biomarkers" if step == 1 else
             f"biomarkers (every {_ordinal(step)} named; all on hover)")
    xaxis = {"title": title if labelled else "biomarkers (names on hover)",
             "showticklabels": labelled}
    if labelled:
        xaxis.update(tickmode="array", tickvals=x[::step], ticktext=names[::step],
                     tickangle=-60 if step == 1 else -90,
                     tickfont={"size": 11 if step == 1 else 10})
    xaxis["type"] = "category"  # names or IDs that read as numbers stay labels
    fig.update_layout(title=head, height=420 + bottom,
                      xaxis=xaxis, yaxis={"showticklabels": False, "title": "patients",
                                          "type": "category"},
                      margin={"l": 10, "r": 10, "t": top, "b": bottom})
    return fig


def missing_bars(missing_pct: dict[str, float], top: int = 40) -> go.Figure:
    """The share of missing values of the columns that have gaps, most missing on top:
    horizontal bars, one named row per column at any width."""
    s = pd.Series(missing_pct, dtype=float)
    s = s[s > 0].sort_values(ascending=False)
    shown = s.head(top)
    # names cut at 24 characters (the full name on hover): in half of an 800 px page a
    # 28-character name lost its first letter ("ntraventricular haemorrhage")
    names = [plot_text(c, 24) for c in shown.index]
    fig = go.Figure(go.Bar(
        y=list(range(len(shown))), x=shown.values, orientation="h", marker_color=PALETTE[0],
        customdata=[plot_text(c, 80) for c in shown.index],
        hovertemplate="%{customdata}: %{x:.1f} % missing<extra></extra>"))
    if shown.empty:
        label = "No column has missing values"
    elif len(s) > len(shown):
        label = f"Missing % per column (top {len(shown)} of {len(s)} with gaps)"
    else:
        label = f"Missing % per column ({len(s)} with gaps)"
    head, top_margin = _title(label, width=30)
    fig.update_layout(title=head, xaxis_title="% missing",
                      yaxis={"tickmode": "array", "tickvals": list(range(len(shown))),
                             "ticktext": names, "autorange": "reversed", "automargin": True},
                      height=max(220, 90 + 22 * len(shown)) + top_margin - 40,
                      # automargin measures the names a little short: their first letter
                      # was cut at 800 px ("Veight loss")
                      margin={"l": 32, "r": 10, "t": top_margin, "b": 40})
    return fig


def missing_bins(n_features: int, threshold: float | None) -> dict:
    """The histogram's bins of patients' missing shares (%): one per number of missing
    values up to 40 features (2.5 % wider), with an edge just above the threshold, so
    that no bar holds patients on both sides of its line (walk-through 90's bar straddled
    it: 10.3 % left out beside 6.9 % kept)."""
    size = 100.0 / n_features if 0 < n_features <= 40 else 2.5
    edge = 100.0 * threshold + 1e-9 if threshold is not None else size / 2
    return {"start": edge - np.ceil(edge / size) * size, "end": 100.0 + size, "size": size}


def patient_missing_hist(X: np.ndarray, threshold: float | None, weights=None
                         ) -> go.Figure:
    """Patients by their share of missing values (``weights``: a list column's yes/no
    columns count as one, as the threshold counts them)."""
    pct = 100 * missing_fraction_per_row(X, weights)
    fig = go.Figure(go.Histogram(x=pct, xbins=missing_bins(X.shape[1], threshold),
                                 marker_color=PALETTE[0]))
    if threshold is not None:
        # the label above the plot, right of the line: it sat on the bars before
        fig.add_vline(x=100 * threshold, line_dash="dash", line_color="crimson",
                      annotation_text="left out above", annotation_position="top right",
                      annotation_yanchor="bottom", annotation_font_color="crimson")
    head, top = _title("Missing % per patient", width=30)
    fig.update_layout(title=head, xaxis_title="% of values missing",
                      yaxis_title="patients", height=320 + top - 40,
                      margin={"l": 10, "r": 10, "t": top, "b": 30})
    return fig


def lookalike_comparison(comp: pd.DataFrame) -> go.Figure:
    """The patient's biomarkers against its look-alikes' on one scale (SD from the cohort
    mean): the look-alikes' median with its interquartile range (the table's numbers), the
    patient as a diamond, the values in clinical units on hover. Only the biomarkers with
    an SD scale are drawn (yes/no answers and 0/1 flags are in the table). ``comp`` comes
    from :func:`sparge.services.display.lookalike_comparison`."""
    drawn = comp[np.isfinite(comp["patient_sd"].astype(float))
                 | np.isfinite(comp["lookalikes_sd_median"].astype(float))]
    names = [plot_text(b, 40) for b in drawn["Biomarker"]]
    med = drawn["lookalikes_sd_median"].astype(float)
    fig = go.Figure()
    fig.add_trace(go.Bar(
        y=names, x=med, orientation="h",
        error_x={"type": "data", "symmetric": False,
                 "array": (drawn["lookalikes_sd_q3"] - med).clip(lower=0),
                 "arrayminus": (med - drawn["lookalikes_sd_q1"]).clip(lower=0)},
        name="look-alikes (median, interquartile range)", marker_color="#9ecae1",
        hovertext=[f"look-alikes: {plot_text(v, 60)}" for v in drawn["Look-alikes"]],
        hovertemplate="%{y}<br>%{hovertext}<extra></extra>"))
    fig.add_trace(go.Scatter(
        y=names, x=drawn["patient_sd"], mode="markers", name="this patient",
        marker={"size": 12, "color": "crimson", "symbol": "diamond"},
        hovertext=[f"this patient: {plot_text(v, 40)}" for v in drawn["This patient"]],
        hovertemplate="%{y}<br>%{hovertext}<extra></extra>"))
    head, top = _title("The same biomarkers on one scale: standard deviations from the "
                       "cohort mean")
    # the plot area itself gets 36 px a row (the margins were taken out of it before)
    fig.update_layout(title=head, height=top + 30 + 50 + max(120, 36 * len(drawn)),
                      xaxis_title="SD from the cohort mean", barmode="overlay",
                      yaxis={"autorange": "reversed", "automargin": True},
                      legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0},
                      margin={"l": 10, "r": 10, "t": top + 30, "b": 40})
    return fig


def scale_colours(k: int) -> list[str]:
    """``k`` colours of a sequential scale, the lowest step first: dark blue to orange
    (Plasma up to 0.85: yellow is lost on a white map), readable by colour-blind eyes."""
    from plotly.colors import sample_colorscale

    return sample_colorscale("Plasma", list(np.linspace(0.0, 0.85, k)) if k > 1 else [0.0])


def category_colours(values, order=None, ordered: bool = False) -> dict[str, str]:
    """One colour per category, by its place in ``order`` (default: sorted), so the map,
    its legend and the outcome bars agree. ``ordered``: the categories are a scale's
    steps in ``order`` (NYHA I to IV, a risk low to high), coloured along a sequential
    scale: walk-through 90 read "high" risk in green and "low" in blue."""
    present = [str(v) for v in pd.unique(pd.Series(values).astype(str))]
    order = [str(v) for v in order] if order is not None else sorted(present)
    order += sorted(v for v in present if v not in order)
    # "missing" is no answer: a pale grey, not the next colour (walk-through 22 read it in
    # pink as if an answer)
    answers = [v for v in order if v != MISSING_CATEGORY]
    steps = scale_colours(len(answers)) if ordered and len(answers) > 1 else PALETTE
    out = {v: steps[i % len(steps)] for i, v in enumerate(answers)}
    if MISSING_CATEGORY in order:
        out[MISSING_CATEGORY] = MISSING_COLOUR
    return out


#: The width (% of the axis) a bar's "100%" label takes at either end.
_LABEL_ROOM = 12.0


def outcome_share_bar(shares: pd.Series, order=None, heldout=None, ordered: bool = False
                      ) -> go.Figure:
    """Share of each outcome among the look-alikes (horizontal bars fit narrow screens).

    ``order``: every outcome in the map's order, so each bar has its outcome's map colour
    (``ordered``: a scale's steps, coloured as the map colours them).
    ``heldout``: what such a share meant in the held-out check
    (:class:`~sparge.services.workflow.HeldoutShare`), drawn on its outcome's row as a
    marker with its 95 % interval: walk-through 91 read a 100 % bar, and beside it, in a
    caption, that 10 % of such held-out patients had the outcome.
    """
    labels = [plot_text(v, 30) for v in shares.index]
    colours = category_colours(shares.index, order, ordered=ordered and order is not None)
    fig = go.Figure(go.Bar(y=labels, x=100 * np.asarray(shares.values, dtype=float),
                           orientation="h", text=[f"{100 * v:.0f}%" for v in shares.values],
                           textposition="auto", name="Look-alikes",
                           marker_color=[colours[str(v)] for v in shares.index],
                           hovertemplate="%{y}: %{x:.0f}% of the look-alikes<extra></extra>"))
    shown = heldout is not None and str(heldout.outcome) in {str(v) for v in shares.index}
    if shown:
        # the bars' shares at their start: the marker sat on the "80%" at a bar's end
        # ... and no legend entry of their own: one swatch named "Look-alikes" beside
        # bars of two colours (walk-through 94)
        # ... or at their end where the marker's interval reaches the start (walk-through
        # 95: its whisker struck through a 100 % bar's label at 2 %)
        pct = 100 * heldout.share
        row = [str(v) for v in shares.index].index(str(heldout.outcome))
        bar = 100 * float(shares.values[row])
        anchor = "start" if 100 * heldout.low_ci > _LABEL_ROOM else \
            "end" if 100 * heldout.high_ci < bar - _LABEL_ROOM else "middle"
        fig.update_traces(textposition="inside", insidetextanchor=anchor,
                          showlegend=False, selector={"type": "bar"})
        # the numbers in the legend, not beside the marker: its label sat on the next
        # bar and crossed its error bar (walk-through 92)
        fig.add_trace(go.Scatter(
            y=[plot_text(heldout.outcome, 30)], x=[pct], mode="markers",
            name=(f"Held-out patients with such look-alikes:<br>{pct:.0f}% had "
                  f"'{plot_text(heldout.outcome, 20)}' (95% interval "
                  f"{100 * heldout.low_ci:.0f}–{100 * heldout.high_ci:.0f}%)"),
            marker={"symbol": "diamond", "size": 13, "color": "#222222",
                    "line": {"color": "white", "width": 1.5}},
            error_x={"type": "data", "symmetric": False, "color": "#222222",
                     "array": [100 * heldout.high_ci - pct],
                     "arrayminus": [pct - 100 * heldout.low_ci], "thickness": 2},
            hovertemplate=(f"Of {heldout.patients} held-out patients with such look-alikes, "
                           "%{x:.0f}% had it<extra></extra>")))
    head, top = _title("Outcomes among the look-alikes")
    fig.update_layout(title=head, xaxis_title="% of look-alikes",
                      xaxis={"range": [0, 100]},
                      # outcomes written "0" and "1" are names, not a scale
                      yaxis={"automargin": True, "type": "category"},
                      showlegend=shown,
                      legend={"orientation": "h", "yref": "container", "yanchor": "bottom",
                              "y": 0, "x": 0, "font": {"size": 11}},
                      height=100 + 36 * len(shares) + (70 if shown else 0),
                      margin={"l": 10, "r": 10, "t": top, "b": 40 + (70 if shown else 0)})
    return fig
