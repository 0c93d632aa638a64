"""Figures of the Model and Classifiers pages (pure functions: data in, Plotly figure out).

Kept apart from :mod:`sparge.app.plots` (the map and look-alike figures). Legends sit above
the plotting area so that nothing overlaps at 800 px. Text on the figures
(class labels) is user data: Plotly reads a few HTML tags in labels, so labels are passed
through :func:`plot_text`.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from sparge.data.safe_text import plain_text
from sparge.services.compare import CLASSIFIER_NAMES, MEASURE_NAMES, REPRESENTATION_NAMES

COLORS = {"raw": "#9ecae1", "SparGE": "#1f77b4"}


def plot_text(value: object, max_len: int = 40) -> str:
    """A label Plotly shows as text (no tags, no control characters, cut to ``max_len``)."""
    return html.escape(plain_text(value, max_len))


def classifier_bars_with_chance(summary: pd.DataFrame, measure: str,
                                chance: float) -> go.Figure:
    """Mean ± SD of ``measure`` per classifier and representation, with the chance line.

    Parameters
    ----------
    summary : DataFrame
        :func:`sparge.services.compare.summarize` output.
    measure : str
        A key of :data:`sparge.services.compare.MEASURE_NAMES`.
    chance : float
        The score of a classifier that ignores the features
        (:func:`sparge.services.compare.chance_level`).
    """
    name = MEASURE_NAMES.get(measure, measure)
    fig = go.Figure()
    for rep in summary["representation"].unique():
        s = summary[summary["representation"] == rep]
        fig.add_trace(go.Bar(
            x=[CLASSIFIER_NAMES.get(c, c) for c in s["classifier"]], y=s[f"{measure}_mean"],
            name=REPRESENTATION_NAMES.get(rep, rep),
            error_y={"type": "data", "array": s[f"{measure}_std"]},
            marker_color=COLORS.get(rep)))
    fig.add_hline(y=chance, line_dash="dash", line_color="crimson")
    # the line's legend entry (an annotation on the line would cover the last bars)
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=f"chance ({chance:.2f})",
                             line={"dash": "dash", "color": "crimson"}))
    fig.update_layout(barmode="group", height=400, yaxis_title=name.split(" (")[0],
                      yaxis_range=[0, 1.05],
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
                      margin={"l": 10, "r": 10, "t": 80, "b": 10})
    fig.update_xaxes(tickangle=-30, automargin=True)
    return fig


def confusion_heatmap(cm: np.ndarray, classes, title: str) -> go.Figure:
    """One confusion matrix normalised per true class (rows sum to 1), shown in %."""
    labels = [plot_text(c) for c in classes]
    pct = 100 * np.asarray(cm, dtype=float)
    fig = go.Figure(go.Heatmap(
        z=pct, x=labels, y=labels, colorscale="Blues", zmin=0, zmax=100, showscale=False,
        text=np.round(pct).astype(int), texttemplate="%{text}%",
        hovertemplate="true %{y} → predicted %{x}: %{z:.1f}% of true %{y}<extra></extra>"))
    fig.update_layout(title={"text": title, "x": 0, "xanchor": "left", "font": {"size": 14}},
                      height=max(260, 90 + 45 * len(labels)),
                      margin={"l": 10, "r": 10, "t": 40, "b": 10})
    fig.update_xaxes(title_text="predicted", automargin=True)
    fig.update_yaxes(title_text="true", autorange="reversed", automargin=True)
    return fig


def objective_figure(history: list[dict], supervised: bool = True) -> go.Figure:
    """The refinement's objective (the trace ratio J, on the patients it fitted) and its
    check on set-aside training patients per refinement step, in words a clinician reads:
    the class-balanced share of the 10 look-alikes with the same outcome, or (a model
    learned without the outcome, ``supervised=False``) the objective on those patients.

    Raises
    ------
    ValueError
        When ``history`` has no ``iteration`` and ``J`` (a damaged model file).
    """
    h = pd.DataFrame(list(history))
    if not {"iteration", "J"} <= set(h.columns):
        raise ValueError("the model's training history has no 'iteration' and 'J' entries")
    it = pd.to_numeric(h["iteration"], errors="coerce")
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Scatter(x=it, y=pd.to_numeric(h["J"], errors="coerce"),
                             name="objective (lower is better)",
                             mode="lines+markers"), secondary_y=False)
    score = pd.to_numeric(h.get("heldout_score", pd.Series(dtype=float)), errors="coerce")
    if score.notna().any() and supervised:
        fig.add_trace(go.Scatter(x=it, y=score, name="check: look-alikes with the same "
                                 "outcome (higher is better)", mode="lines+markers"),
                      secondary_y=True)
        fig.update_yaxes(title_text="same outcome", secondary_y=True, range=[0, 1],
                         dtick=0.2, tickformat=".0%", showgrid=False)
    elif score.notna().any():  # without outcomes the check is minus the held-out objective
        fig.add_trace(go.Scatter(x=it, y=-score, name="check: objective on set-aside "
                                 "patients (lower is better)", mode="lines+markers"),
                      secondary_y=True)
        fig.update_yaxes(title_text="set-aside objective", secondary_y=True,
                         tickformat=".3g", showgrid=False)
    # the legend's row(s) above the plot, below the toolbar's strip
    fig.update_layout(height=380, legend={"orientation": "h", "y": 1.02, "yanchor": "bottom",
                                          "x": 0},
                      margin={"l": 10, "r": 10, "t": 80, "b": 10})
    fig.update_xaxes(title_text="refinement step", dtick=1)
    fig.update_yaxes(title_text="objective (trace ratio)", secondary_y=False,
                     tickformat=tick_format(pd.to_numeric(h["J"], errors="coerce")))
    return fig


def tick_format(values) -> str:
    """A d3 format with enough significant digits (3 to 8) for ticks across ``values`` to
    differ: walk-through 40's 13-patient model read four ticks of "0.0000408" on a line
    that fell from 4.0801e-05 to 4.0797e-05."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) < 2 or v.max() == v.min():
        return ".3g"
    # ticks about a fifth of the range apart; one more digit than tells those apart
    digits = int(np.ceil(np.log10(np.abs(v).max() / ((v.max() - v.min()) / 5)))) + 1
    return f".{min(max(digits, 3), 8)}g"


__all__ = ["plot_text", "classifier_bars_with_chance", "confusion_heatmap", "objective_figure"]
