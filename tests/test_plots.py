"""sparge.app.plots: the cohort map selects by click, marks left-out patients, escapes text."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.app.plots import cohort_map, lookalike_comparison, outcome_share_bar, wrap_title


def _frame(n=12):
    rng = np.random.default_rng(0)
    inside = np.arange(n) < n - 3
    return pd.DataFrame({
        "row": np.arange(n), "ID": [f"P{i}" for i in range(n - 1)] + ["<b>![x](http://h/)"],
        "x": rng.normal(size=n), "y": rng.normal(size=n), "in_training": inside,
        "training_index": np.where(inside, np.arange(n), -1),
        "status": np.where(inside, "training", "not used for training"),
        "reason": np.where(inside, "", "30% of values missing"),
        "outcome": np.where(np.arange(n) % 2, "high", "low")})


def test_map_starts_in_zoom_mode_and_keys_points_by_row():
    frame = _frame()
    hover = pd.DataFrame({"Diabetes": ["Yes", "No"] * 6, "Age (years)": ["61"] * 12})
    fig = cohort_map(frame, frame["outcome"], hover=hover, highlight=4,
                     title="PCA of the 16-D SparGE embedding")
    assert fig.layout.dragmode == "zoom"  # a click selects; lasso/box stay in the toolbar
    names = [t.name for t in fig.data]
    assert names[:2] == ["high", "low"] and "not used for training" in names
    assert "selected" in names
    keys = sorted(int(c[0]) for t in fig.data if t.customdata is not None
                  for c in t.customdata)
    assert keys == list(range(12))
    out = next(t for t in fig.data if t.name == "not used for training")
    assert out.marker.symbol == "x" and len(out.x) == 3
    texts = [h for t in fig.data if t.hovertext is not None for h in t.hovertext]
    assert any("Diabetes: Yes" in h for h in texts)
    assert any("not used for training: 30% of values missing" in h for h in texts)
    hostile = next(h for h in texts if "![x]" in h)
    assert "<b>&lt;b&gt;![x](http://h/)</b>" in hostile  # user text HTML-escaped
    assert all("%{" not in (t.hovertemplate or "").replace("%{hovertext}", "")
               for t in fig.data)
    assert fig.layout.title.text == "PCA of the 16-D SparGE embedding"


def test_numeric_colours_share_one_scale_with_left_out_patients():
    frame = _frame(30)
    color = pd.Series(np.linspace(0, 100, 30), name="Age")
    fig = cohort_map(frame, color, color_title="Age")
    inside = next(t for t in fig.data if t.name == "patients")
    out = next(t for t in fig.data if t.name == "not used for training")
    assert inside.marker.cmin == out.marker.cmin == 0 and inside.marker.cmax == 100


def test_long_titles_wrap_instead_of_being_clipped():
    text = ("PCA of the standardised raw data (467 biomarkers, gaps at the cohort mean), "
            "for comparison")
    wrapped = wrap_title(text, 48)
    assert wrapped.replace("<br>", " ") == text
    assert all(len(line) <= 48 for line in wrapped.split("<br>"))
    fig = cohort_map(_frame(), title=text)
    assert fig.layout.margin.t >= 18 + 20 * 2


def test_outcome_and_comparison_charts():
    fig = outcome_share_bar(pd.Series({"low": 0.7, "<i>high</i>": 0.3}))
    assert fig.data[0].orientation == "h"
    assert list(fig.data[0].y) == ["low", "&lt;i&gt;high&lt;/i&gt;"]
    comp = pd.DataFrame({"Biomarker": ["Age", "Diabetes"], "This patient": ["61", "Yes"],
                         "Look-alikes": ["60 (55–64)", "Yes 7, No 3 (of 10)"],
                         "patient_sd": [1.0, -0.5], "lookalikes_sd_mean": [0.8, -0.2],
                         "lookalikes_sd_spread": [0.3, 0.4]})
    fig = lookalike_comparison(comp)
    assert list(fig.data[1].hovertext) == ["this patient: 61", "this patient: Yes"]
    assert fig.layout.xaxis.title.text == "SD from the cohort mean"
