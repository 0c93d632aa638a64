"""Plotly figure builders (pure functions: data in, figure out; tested without Streamlit)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]
MAX_POINTS = 20_000


def cohort_map(frame: pd.DataFrame, color: pd.Series | None = None, *,
               hover: pd.DataFrame | None = None, highlight: int | None = None,
               new_points: pd.DataFrame | None = None, title: str = "",
               max_points: int = MAX_POINTS, random_state: int = 0) -> go.Figure:
    """WebGL scatter of patients; ``customdata`` carries the training index for selection.

    Categorical colours get one trace per value (a legend); numbers a colour scale. Over
    ``max_points`` patients a random sample is drawn (the highlighted one always kept).
    """
    df = frame.copy()
    if color is not None:
        df["_color"] = np.asarray(color)
    if hover is not None:
        for c in hover.columns[:4]:
            df[f"_h_{c}"] = np.asarray(hover[c])
    if len(df) > max_points:
        keep = np.random.default_rng(random_state).choice(len(df), max_points, replace=False)
        if highlight is not None:
            keep = np.union1d(keep, [highlight])
        df = df.iloc[np.sort(keep)]
    hcols = [c for c in df.columns if c.startswith("_h_")]
    template = "<b>%{customdata[1]}</b>" + "".join(
        f"<br>{c[3:]}: %{{customdata[{i + 2}]}}" for i, c in enumerate(hcols))
    if "outcome" in df:
        template += f"<br>outcome: %{{customdata[{len(hcols) + 2}]}}"
    custom_cols = ["training_index", "ID"] + hcols + (["outcome"] if "outcome" in df else [])
    fig = go.Figure()

    def add(sub: pd.DataFrame, name: str, marker: dict):
        fig.add_trace(go.Scattergl(x=sub["x"], y=sub["y"], mode="markers", name=name,
                                   customdata=sub[custom_cols].to_numpy(dtype=object),
                                   hovertemplate=template + "<extra></extra>",
                                   marker=marker))

    if color is None:
        add(df, "patients", {"size": 6, "color": PALETTE[0], "opacity": 0.75})
    elif pd.api.types.is_numeric_dtype(df["_color"]) and df["_color"].nunique() > 10:
        add(df, "patients", {"size": 6, "color": df["_color"], "colorscale": "Viridis",
                             "showscale": True, "opacity": 0.8,
                             "colorbar": {"title": str(color.name or "")}})
    else:
        values = df["_color"].astype(str)
        for i, v in enumerate(sorted(values.unique())):
            add(df[values == v], v, {"size": 6, "color": PALETTE[i % len(PALETTE)],
                                     "opacity": 0.8})
    if highlight is not None and highlight in set(frame["training_index"]):
        row = frame[frame["training_index"] == highlight]
        fig.add_trace(go.Scatter(x=row["x"], y=row["y"], mode="markers", name="selected",
                                 marker={"size": 16, "symbol": "circle-open", "color": "black",
                                         "line": {"width": 3}}, hoverinfo="skip"))
    if new_points is not None and len(new_points):
        fig.add_trace(go.Scatter(x=new_points["x"], y=new_points["y"], mode="markers+text",
                                 name="new patient", text=new_points.get("ID"),
                                 textposition="top center",
                                 marker={"size": 18, "symbol": "star", "color": "crimson",
                                         "line": {"width": 1, "color": "black"}}))
    fig.update_layout(title=title, dragmode="lasso", height=560, legend_title_text="",
                      margin={"l": 10, "r": 10, "t": 40, "b": 10})
    fig.update_xaxes(showticklabels=False, title="")
    fig.update_yaxes(showticklabels=False, title="")
    return fig


def missingness_heatmap(X: np.ndarray, feature_names: list[str], ids=None,
                        max_rows: int = 400, max_cols: int = 300) -> go.Figure:
    """Patients × columns, dark where missing (subsampled evenly for large tables)."""
    miss = np.isnan(np.asarray(X, dtype=float)).astype(np.int8)
    rows = np.linspace(0, miss.shape[0] - 1, min(max_rows, miss.shape[0])).astype(int)
    cols = np.linspace(0, miss.shape[1] - 1, min(max_cols, miss.shape[1])).astype(int)
    y = [str(ids[i]) for i in rows] if ids is not None else [str(i) for i in rows]
    fig = go.Figure(go.Heatmap(z=miss[np.ix_(rows, cols)], x=[feature_names[j] for j in cols],
                               y=y, colorscale=[[0, "#e8f0fa"], [1, "#1b2a49"]], showscale=False,
                               hovertemplate="%{y} · %{x}<br>missing: %{z}<extra></extra>"))
    fig.update_layout(title="Missing values (dark = missing)", height=480,
                      xaxis={"showticklabels": False, "title": "biomarkers"},
                      yaxis={"showticklabels": False, "title": "patients"},
                      margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def missing_bars(missing_pct: dict[str, float], top: int = 40) -> go.Figure:
    s = pd.Series(missing_pct).sort_values(ascending=False).head(top)
    fig = go.Figure(go.Bar(x=s.index, y=s.values, marker_color=PALETTE[0]))
    fig.update_layout(title=f"Missing % per column (top {len(s)})", yaxis_title="% missing",
                      height=360, margin={"l": 10, "r": 10, "t": 40, "b": 120})
    return fig


def patient_missing_hist(X: np.ndarray, threshold: float | None) -> go.Figure:
    pct = 100 * np.isnan(np.asarray(X, dtype=float)).mean(axis=1)
    fig = go.Figure(go.Histogram(x=pct, nbinsx=40, marker_color=PALETTE[0]))
    if threshold is not None:
        fig.add_vline(x=100 * threshold, line_dash="dash", line_color="crimson",
                      annotation_text="drop above")
    fig.update_layout(title="Missing % per patient", xaxis_title="% of values missing",
                      yaxis_title="patients", height=320,
                      margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def objective_plot(history: list[dict]) -> go.Figure:
    """Trace ratio J and the held-out look-alike score per refinement iteration."""
    h = pd.DataFrame(history)
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Scatter(x=h["iteration"], y=h["J"], name="objective J (train)",
                             mode="lines+markers"), secondary_y=False)
    if "heldout_score" in h and h["heldout_score"].notna().any():
        fig.add_trace(go.Scatter(x=h["iteration"], y=h["heldout_score"],
                                 name="held-out score", mode="lines+markers"),
                      secondary_y=True)
    fig.update_layout(title="Objective per iteration", height=340,
                      margin={"l": 10, "r": 10, "t": 40, "b": 30})
    fig.update_xaxes(title="iteration")
    fig.update_yaxes(title_text="trace ratio J (lower is better)", secondary_y=False)
    fig.update_yaxes(title_text="held-out precision@10", secondary_y=True)
    return fig


def lookalike_comparison(comp: pd.DataFrame) -> go.Figure:
    """The patient's standardised biomarkers against its look-alikes' mean ± sd."""
    fig = go.Figure()
    fig.add_trace(go.Bar(x=comp["biomarker"], y=comp["lookalikes_mean"],
                         error_y={"type": "data", "array": comp["lookalikes_sd"]},
                         name="look-alikes (mean ± sd)", marker_color="#9ecae1"))
    fig.add_trace(go.Scatter(x=comp["biomarker"], y=comp["patient"], mode="markers",
                             name="patient", marker={"size": 12, "color": "crimson",
                                                     "symbol": "diamond"}))
    fig.update_layout(title="Biomarkers: patient vs look-alikes (standard deviations from "
                      "the cohort mean)", height=420, yaxis_title="SD from cohort mean",
                      margin={"l": 10, "r": 10, "t": 40, "b": 140})
    return fig


def outcome_share_bar(shares: pd.Series) -> go.Figure:
    fig = go.Figure(go.Bar(x=shares.index.astype(str), y=100 * shares.values,
                           marker_color=[PALETTE[i % 10] for i in range(len(shares))]))
    fig.update_layout(title="Outcomes among the look-alikes", yaxis_title="%", height=300,
                      margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def classifier_bars(summary: pd.DataFrame, measure: str = "balanced_accuracy") -> go.Figure:
    fig = go.Figure()
    for i, rep in enumerate(summary["representation"].unique()):
        s = summary[summary["representation"] == rep]
        fig.add_trace(go.Bar(x=s["classifier"], y=s[f"{measure}_mean"], name=rep,
                             error_y={"type": "data", "array": s[f"{measure}_std"]},
                             marker_color=PALETTE[i]))
    fig.update_layout(barmode="group", title=measure.replace("_", " "), height=360,
                      yaxis_title=measure.replace("_", " "),
                      margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def confusion_pair(cm_raw: np.ndarray, cm_sparge: np.ndarray, classes) -> go.Figure:
    labels = [str(c) for c in classes]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("raw features", "SparGE features"))
    for col, cm in ((1, cm_raw), (2, cm_sparge)):
        fig.add_trace(go.Heatmap(z=cm, x=labels, y=labels, colorscale="Blues", showscale=False,
                                 text=cm, texttemplate="%{text}",
                                 hovertemplate="true %{y} → predicted %{x}: %{z}"
                                               "<extra></extra>"), row=1, col=col)
        fig.update_xaxes(title_text="predicted", row=1, col=col)
        fig.update_yaxes(title_text="true", autorange="reversed", row=1, col=col)
    fig.update_layout(height=380, margin={"l": 10, "r": 10, "t": 50, "b": 30})
    return fig


def singular_values_plot(before: np.ndarray, after: np.ndarray, rank: int) -> go.Figure:
    k = min(len(before), 60)
    fig = go.Figure()
    fig.add_trace(go.Bar(x=np.arange(1, k + 1), y=before[:k], name="before (gaps filled)",
                         marker_color="#c6dbef"))
    fig.add_trace(go.Bar(x=np.arange(1, len(after[:k]) + 1), y=after[:k],
                         name="after thresholding", marker_color=PALETTE[0]))
    fig.add_vline(x=rank + 0.5, line_dash="dash", annotation_text=f"rank kept: {rank}")
    fig.update_layout(barmode="overlay", title="Singular values", height=340,
                      xaxis_title="component", margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def matrix_heatmap(Z: np.ndarray, title: str, x=None, y=None, zmid: float | None = 0.0,
                   colorscale: str = "RdBu_r") -> go.Figure:
    fig = go.Figure(go.Heatmap(z=Z, x=x, y=y, colorscale=colorscale, zmid=zmid))
    fig.update_layout(title=title, height=380, margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def histogram(values, title: str, xlabel: str) -> go.Figure:
    fig = go.Figure(go.Histogram(x=np.asarray(values), marker_color=PALETTE[0]))
    fig.update_layout(title=title, xaxis_title=xlabel, height=300,
                      margin={"l": 10, "r": 10, "t": 40, "b": 30})
    return fig


def graph_plot(coords: np.ndarray, W_plus, W_minus, labels, max_edges: int = 600,
               random_state: int = 0) -> go.Figure:
    """Patients with a sample of intrinsic (same-class) and penalty (other-class) edges."""
    rng = np.random.default_rng(random_state)
    fig = go.Figure()
    for W, name, color in ((W_plus, "same-outcome neighbours (pulled together)", "#2ca02c"),
                           (W_minus, "other-outcome neighbours (pushed apart)", "#d62728")):
        r, c = W.nonzero()
        keep = r < c
        r, c = r[keep], c[keep]
        if len(r) > max_edges:
            pick = rng.choice(len(r), max_edges, replace=False)
            r, c = r[pick], c[pick]
        xs = np.column_stack([coords[r, 0], coords[c, 0], np.full(len(r), np.nan)]).ravel()
        ys = np.column_stack([coords[r, 1], coords[c, 1], np.full(len(r), np.nan)]).ravel()
        fig.add_trace(go.Scattergl(x=xs, y=ys, mode="lines", name=name,
                                   line={"width": 0.7, "color": color}, opacity=0.5,
                                   hoverinfo="skip"))
    lab = np.asarray(labels).astype(str)
    for i, v in enumerate(sorted(set(lab))):
        m = lab == v
        fig.add_trace(go.Scattergl(x=coords[m, 0], y=coords[m, 1], mode="markers", name=v,
                                   marker={"size": 5, "color": PALETTE[i % 10]}))
    fig.update_layout(title="The graphs the embedding learns from", height=460,
                      margin={"l": 10, "r": 10, "t": 40, "b": 10})
    return fig
