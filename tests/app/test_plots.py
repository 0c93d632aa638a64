"""sparge.app.plots: the cohort map selects by click, marks left-out patients, escapes text."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.app.plots import (
    cohort_map,
    lookalike_comparison,
    missing_bars,
    missingness_heatmap,
    numeric_colour_scale,
    outcome_share_bar,
    wrap_title,
)
from sparge.services.display import format_number


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
    # the larger outcome under the smaller (a rare outcome lay hidden under a common one),
    # listed in the outcomes' order; a few left-out patients on top (walk-through 25's 29
    # among 922 lay hidden), listed last
    assert names[:3] == ["low", "high", "not used for training"]
    assert (len(fig.data[0].x), len(fig.data[1].x)) == (5, 4)
    assert fig.data[2].legendrank > fig.data[0].legendrank > fig.data[1].legendrank
    # the selected patient is listed after the outcomes, not between them
    selected = next(t for t in fig.data if t.name == "selected")
    assert fig.data[2].legendrank > selected.legendrank > fig.data[0].legendrank
    # many left out: drawn first, under the outcome colours (1,024 grey crosses hid a
    # 5,735-patient map's outcomes)
    many = _frame(200)
    many["in_training"] = many["row"] < 120
    many["status"] = np.where(many["in_training"], "training", "not used for training")
    assert cohort_map(many, many["outcome"]).data[0].name == "not used for training"
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


def test_the_colours_value_is_in_the_hover_as_written():
    """Walk-through 30: a map coloured by eGFR read 90 for a ">90", and a map coloured by
    a review year or a ward had no year or ward in its hover."""
    frame = _frame(30)
    egfr = pd.Series(np.linspace(40, 90, 30))
    written = [format_number(v) for v in egfr]
    written[-1] = ">90"
    fig = cohort_map(frame, egfr, color_title="eGFR", color_text=written)
    texts = [x for t in fig.data if t.name in ("patients", "not used for training")
             for x in t.text]
    assert ">90" in texts and "90" not in texts
    years = pd.Series(["2022", "2023"] * 15)
    fig = cohort_map(frame, years, color_title="Last review (year)")
    inside = next(t for t in fig.data if t.name == "2023")
    assert "<br>Last review (year): 2023" in inside.hovertemplate
    # a map coloured by the outcome says it once, as "Outcome" (walk-through 54)
    fig = cohort_map(frame, frame["outcome"], color_title="Febrile neutropenia")
    high = next(t for t in fig.data if t.name == "high")
    assert "Febrile neutropenia" not in high.hovertemplate
    assert any("Outcome: high" in h for h in high.hovertext)


def test_numeric_colours_share_one_scale_with_left_out_patients():
    frame = _frame(30)
    color = pd.Series(np.linspace(0, 100, 30), name="Age")
    fig = cohort_map(frame, color, color_title="Age")
    inside = next(t for t in fig.data if t.name == "patients")
    out = next(t for t in fig.data if t.name == "not used for training")
    lo, hi = np.percentile(color, [1, 99])  # robust ends, shared by both groups
    assert inside.marker.cmin == out.marker.cmin == pytest.approx(lo)
    assert inside.marker.cmax == out.marker.cmax == pytest.approx(hi)
    # a few absurd values (a unit slip) no longer stretch the scale over the whole map
    odd = pd.Series(np.r_[np.linspace(2.5, 4.5, 496), [29.0] * 4], name="Albumin")
    big = _frame(500)
    marker = next(t for t in cohort_map(big, odd).data if t.name == "patients").marker
    assert marker.cmax < 29
    # the clipped ends are marked; round numbers between them (walk-through 18 read
    # "≤ 6.56, 12.2, 17.9, 23.5, ≥ 29.17")
    assert marker.colorbar.ticktext[-1] == "≥ 4.5" and marker.colorbar.ticktext[0] == "≤ 2.52"
    assert list(marker.colorbar.ticktext[1:-1]) == ["3", "3.5", "4"]


def test_a_strongly_skewed_column_is_coloured_on_a_log_scale():
    # albumin-to-creatinine ratios: most patients under 30 mg/g, a tail into the
    # thousands; a linear scale drew nearly the whole map in its lowest colour
    rng = np.random.default_rng(0)
    uacr = pd.Series(np.exp(rng.normal(3, 1.5, 600)), name="UACR")
    scale = numeric_colour_scale(uacr)
    assert scale["log"]
    assert scale["cmin"] == pytest.approx(np.log10(np.percentile(uacr, 1)))
    assert scale["colorbar"]["ticktext"][1:-1] == ["1", "10", "100"]  # the units, not logs
    assert scale["colorbar"]["tickvals"][1:-1] == pytest.approx([0.0, 1.0, 2.0])
    frame = _frame(600)
    fig = cohort_map(frame, uacr, color_title="UACR", dense_threshold=100, title="The map")
    inside = next(t for t in fig.data if t.name == "patients")
    assert "log scale" in inside.marker.colorbar.title.text
    assert "The map" in fig.layout.title.text and "UACR" not in fig.layout.title.text
    # the hover reads the value (the marker's colour is its log)
    assert "%{text}" in inside.hovertemplate
    row = int(np.asarray(inside.customdata)[0])
    assert inside.text[0] == format_number(uacr.iloc[row])
    # an ordinary column, a column with zeros and a narrow positive one stay linear
    assert not numeric_colour_scale(rng.normal(60, 10, 600))["log"]
    assert not numeric_colour_scale(np.r_[0.0, np.exp(rng.normal(3, 1.5, 599))])["log"]
    assert not numeric_colour_scale(rng.uniform(0.5, 8.0, 600))["log"]


def test_long_titles_wrap_instead_of_being_clipped():
    text = ("PCA of the standardised raw data (467 biomarkers, gaps at the cohort mean), "
            "for comparison")
    wrapped = wrap_title(text, 48)
    assert wrapped.replace("<br>", " ") == text
    assert all(len(line) <= 48 for line in wrapped.split("<br>"))
    fig = cohort_map(_frame(), title=text)
    assert fig.layout.margin.t >= 18 + 20 * 2
    # the legend's title whole, on two lines: walk-through 105 read "… 30 days of a cyc…"
    frame = _frame()
    outcome = "Unplanned admission within 30 days of a cycle of chemotherapy"
    fig = cohort_map(frame, frame["outcome"], color_title=outcome)
    legend = fig.layout.legend.title.text
    assert legend == f"{outcome}:"
    longer = f"{outcome} (any hospital, as recorded by the acute oncology team)"
    legend = cohort_map(frame, frame["outcome"], color_title=longer).layout.legend.title.text
    assert legend.replace("<br>", " ") == f"{longer}:" and "<br>" in legend


def test_outcome_and_comparison_charts():
    fig = outcome_share_bar(pd.Series({"low": 0.7, "<i>high</i>": 0.3}))
    assert fig.data[0].orientation == "h"
    assert list(fig.data[0].y) == ["low", "&lt;i&gt;high&lt;/i&gt;"]
    nan = float("nan")
    comp = pd.DataFrame({"Biomarker": ["Age", "Diabetes", "Urea"],
                         "This patient": ["61", "Yes", "7"],
                         "Look-alikes": ["60 (55–64)", "Yes: 7, No: 3", "6 (5–9)"],
                         "patient_sd": [1.0, nan, 0.4], "lookalikes_sd_median": [0.8, nan, 0.1],
                         "lookalikes_sd_q1": [0.5, nan, -0.2],
                         "lookalikes_sd_q3": [0.9, nan, 0.8]})
    fig = lookalike_comparison(comp)
    # a yes/no row has no SD scale: left out of the chart, not drawn as an empty row
    assert list(fig.data[1].hovertext) == ["this patient: 61", "this patient: 7"]
    bar = fig.data[0]
    assert list(bar.x) == [0.8, 0.1]  # the median, as in the table
    assert np.allclose(bar.error_x.array, [0.1, 0.7])
    assert np.allclose(bar.error_x.arrayminus, [0.3, 0.3])
    assert fig.layout.xaxis.title.text == "SD from the cohort mean"


# ---------------------------------------------------------------------------- issue 14.4
def _big_frame(n, seed=1):
    rng = np.random.default_rng(seed)
    inside = rng.random(n) > 0.05
    return pd.DataFrame({
        "row": np.arange(n), "ID": [f"P{i}" for i in range(n - 1)] + ["<b>![x](http://h/)"],
        "x": rng.normal(size=n), "y": rng.normal(size=n), "in_training": inside,
        "training_index": np.where(inside, np.arange(n), -1),
        "status": np.where(inside, "training", "not used for training"),
        "reason": np.where(inside, "", "30% of values missing"),
        "outcome": rng.choice(["low", "high"], n)})


def _points(fig):
    """Per patient trace: (name, keys as ints) for every trace that carries patients."""
    out = []
    for t in fig.data:
        if t.type == "scattergl" and t.customdata is not None and t.name != "look-alikes":
            out.append((t.name, np.asarray(t.customdata).ravel().astype(int)))
    return out


def test_a_dense_map_draws_every_patient_over_a_density_layer():
    frame = _big_frame(3000)
    fig = cohort_map(frame, frame["outcome"], highlight=10, lookalikes=[11, 12, 2999],
                     title="PCA", dense_threshold=1000, density_bins=30)
    heat = fig.data[0]
    assert heat.type == "heatmap" and np.nansum(np.asarray(heat.customdata)) == 3000
    assert np.asarray(heat.z).shape == (30, 30)
    keys = np.concatenate([k for _, k in _points(fig)])
    assert sorted(keys) == list(range(3000))  # every patient, none twice, no sampling
    main = next(t for t in fig.data if t.name == "low" and t.customdata is not None)
    assert np.asarray(main.x).dtype == np.float32 and np.asarray(main.customdata).ndim == 1
    assert main.marker.size < 6 and main.marker.opacity < 0.8 and main.showlegend is False
    # the legend shows solid markers (the points are faint): one entry per group
    legend = [t for t in fig.data if t.showlegend is not False and t.type == "scattergl"]
    assert [t.name for t in legend][:3] == ["high", "low", "not used for training"]
    assert all(t.marker.opacity == 1 for t in legend[:3])
    out = next(t for t in fig.data if t.name == "not used for training" and
               t.customdata is not None)
    assert out.marker.symbol == "x"
    # highlights on the WebGL canvas (an SVG trace would lie under the points)
    rings = next(t for t in fig.data if t.name == "look-alikes")
    assert rings.type == "scattergl" and sorted(rings.customdata) == [11, 12, 2999]
    assert next(t for t in fig.data if t.name == "selected").type == "scattergl"
    # the hover: the patient's ID, HTML-escaped, and the colour's value
    hostile = next(t for t in fig.data if t.customdata is not None and
                   2999 in np.asarray(t.customdata) and t.name != "look-alikes")
    text = list(hostile.hovertext)[list(hostile.customdata).index(2999)]
    assert text == "&lt;b&gt;![x](http://h/)"
    assert hostile.hovertemplate.startswith("<b>%{hovertext}</b>")


def test_a_huge_map_draws_a_sample_over_the_density_of_everyone():
    frame = _big_frame(3000)
    fig = cohort_map(frame, frame["outcome"], highlight=10, lookalikes=[11, 2999],
                     dense_threshold=1000, density_bins=30, max_points=500)
    heat = fig.data[0]
    assert np.nansum(np.asarray(heat.customdata)) == 3000  # the shading counts everyone
    keys = np.concatenate([k for _, k in _points(fig)])
    assert len(keys) == len(set(keys)) and 500 <= len(keys) <= 503
    assert {10, 11, 2999} <= set(keys)  # the selected patient and its look-alikes are drawn
    again = np.concatenate([k for _, k in _points(
        cohort_map(frame, frame["outcome"], highlight=10, lookalikes=[11, 2999],
                   dense_threshold=1000, density_bins=30, max_points=500))])
    np.testing.assert_array_equal(np.sort(keys), np.sort(again))  # the same sample
    note = fig.layout.annotations[0].text
    assert f"a random {len(keys):,} of the 3,000 patients" in note
    assert not cohort_map(frame, frame["outcome"], dense_threshold=1000).layout.annotations


def test_drawn_points_keeps_the_wanted_rows_and_is_seeded():
    from sparge.services.maps import drawn_points

    assert drawn_points(100, keep=[3], max_points=100) is None
    rows = drawn_points(10_000, keep=[5, 9_999, -1, 20_000], max_points=50, seed=1)
    assert {5, 9_999} <= set(rows) and len(rows) in (51, 52) and np.all(np.diff(rows) > 0)
    np.testing.assert_array_equal(rows, drawn_points(10_000, keep=[5, 9_999], max_points=50,
                                                     seed=1))


def test_a_small_map_is_drawn_as_before_and_rings_the_lookalikes():
    frame = _frame()
    fig = cohort_map(frame, frame["outcome"], highlight=4, lookalikes=[1, 2])
    assert all(t.type != "heatmap" for t in fig.data)
    main = next(t for t in fig.data if t.name == "low")
    assert main.marker.size == 6 and main.marker.opacity == 0.8
    rings = next(t for t in fig.data if t.name == "look-alikes")
    # on the WebGL canvas with the points: an SVG trace sat under it, and a new patient's
    # star was hidden on a 5,735-patient map
    assert rings.type == "scattergl" and [c[0] for c in rings.customdata] == [1, 2]
    assert any("P1" in h for h in rings.hovertext)  # a click on a ring opens that patient
    assert next(t for t in fig.data if t.name == "selected").type == "scattergl"


def test_a_numeric_colour_on_a_dense_map_keeps_one_scale():
    frame = _big_frame(2000)
    fig = cohort_map(frame, pd.Series(np.linspace(0, 50, 2000)), color_title="Age",
                     dense_threshold=500)
    inside = next(t for t in fig.data if t.name == "patients" and t.customdata is not None)
    out = next(t for t in fig.data if t.name == "not used for training" and
               t.customdata is not None)
    assert inside.marker.cmin == out.marker.cmin == pytest.approx(0.5)
    assert inside.marker.cmax == pytest.approx(49.5)
    # the hover reads each point's value as the pages write numbers
    assert "Age: %{text}" in inside.hovertemplate and "Age: %{text}" in out.hovertemplate
    row = int(np.asarray(inside.customdata)[3])
    assert inside.text[3] == format_number(np.linspace(0, 50, 2000)[row])
    # on a sparse map too (walk-through 22 hovered a coloured map and read no value)
    small = cohort_map(_frame(30), pd.Series(np.linspace(0, 25000, 30)), color_title="BNP")
    pts = next(t for t in small.data if t.name == "patients")
    assert "BNP: %{text}" in pts.hovertemplate and pts.text[1] == "862"


def test_a_100000_patient_map_is_sent_as_typed_arrays():
    import time

    from sparge.services.maps import MAX_MAP_POINTS

    frame = _big_frame(100_000)
    t = time.perf_counter()
    fig = cohort_map(frame, frame["outcome"], highlight=5)
    spec = fig.to_json()
    elapsed = time.perf_counter() - t
    drawn = sum(len(k) for _, k in _points(fig))
    assert drawn in (MAX_MAP_POINTS, MAX_MAP_POINTS + 1)  # a sample, the selected one kept
    assert np.nansum(np.asarray(fig.data[0].customdata)) == 100_000
    assert '"bdata"' in spec and len(spec) < 8e6  # coordinates and keys as base64 arrays
    # timings belong in bench/map_render.py; printed here for the curious
    print(f"100,000-patient map: built and serialised in {elapsed:.2f} s, "
          f"{len(spec) / 1e6:.1f} MB")


def _states(fig) -> np.ndarray:
    """The heatmap's cells as 0 (given), 1 (does not apply) and 2 (missing): each trace
    holds one state, its other cells empty."""
    out = None
    for t in fig.data:
        z = np.asarray(t.z, dtype=float)
        out = np.full(z.shape, np.nan) if out is None else out
        out = np.where(np.isnan(z), out, z)
    assert not np.isnan(out).any()  # every cell in exactly one trace
    return out


def test_the_missing_value_map_keeps_repeated_names_apart_and_sends_no_text_per_cell():
    """Two names cut to the same 24 characters are two columns, IDs that read as numbers
    are rows, and the figure's JSON holds no text per cell (0.8 s on every Data page run
    for a 400 x 300 map)."""
    import plotly.io as pio

    names = ["a very long biomarker name, first", "a very long biomarker name, second", "7"]
    X = np.ones((400, 3))
    X[::2, 0] = np.nan
    fig = missingness_heatmap(X, names, ids=[str(1000 + i) for i in range(400)])
    assert len(set(fig.data[0].x)) == 3 and len(set(fig.data[0].y)) == 400
    assert fig.layout.xaxis.type == fig.layout.yaxis.type == "category"
    assert len(pio.to_json(fig)) < 40_000  # typed arrays, not 1,200 cells of text


def test_missing_value_charts_name_every_column_at_any_width():
    """The bars list the columns with gaps only, each with its own named row; the map
    names every column below it (Plotly skipped every other name at 800 px)."""
    pct = {"<b>Na</b>": 12.5, "Age": 0.0, "Albumin": 40.0, "Urea": 3.0}
    fig = missing_bars(pct)
    (bar,) = fig.data
    assert list(bar.x) == [40.0, 12.5, 3.0]
    assert list(fig.layout.yaxis.ticktext) == ["Albumin", "&lt;b&gt;Na&lt;/b&gt;", "Urea"]
    assert "(3 with" in fig.layout.title.text
    assert "No column" in missing_bars({"Age": 0.0}).layout.title.text
    long = missing_bars({"Intraventricular haemorrhage grade": 5.0})
    assert len(long.layout.yaxis.ticktext[0]) <= 24  # fits half of an 800 px page
    assert long.data[0].customdata[0] == "Intraventricular haemorrhage grade"  # on hover

    X = np.ones((30, 14))
    X[::3, 2] = np.nan
    names = [f"biomarker {j}" for j in range(14)]
    fig = missingness_heatmap(X, names, ids=[f"P{i}" for i in range(30)])
    assert fig.layout.xaxis.showticklabels and list(fig.layout.xaxis.ticktext) == names
    assert int(_states(fig).sum()) == 20  # 2 for each of the 10 gaps
    assert fig.layout.title.text.startswith("Missing values (dark = missing)")
    # gaps that do not apply to the patient (weight 0) are grey, said in the title
    w = np.ones_like(X)
    w[::6, 2] = 0.0
    apart = missingness_heatmap(X, names, ids=[f"P{i}" for i in range(30)], weights=w)
    z = _states(apart)
    assert (z[::6, 2] == 1).all() and (z[3::6, 2] == 2).all() and z.sum() == 5 + 2 * 5
    assert "grey = does not apply to the patient" in apart.layout.title.text.replace(
        "<br>", " ")
    assert [t.name for t in apart.data] == ["given", "does not apply", "missing"]
    assert "does not apply" in apart.data[1].hovertemplate
    assert "%{x}" in apart.data[1].hovertemplate and "%{y}" in apart.data[1].hovertemplate
    many = missingness_heatmap(np.ones((5, 80)), [f"c{j}" for j in range(80)])
    assert not many.layout.xaxis.showticklabels  # 80 names would not fit: on hover
    # 54 slanted names overlapped at 800 px: past 30 they stand upright, one font size less
    upright = missingness_heatmap(np.ones((5, 54)), [f"c{j}" for j in range(54)])
    assert upright.layout.xaxis.tickangle == -90 and upright.layout.xaxis.tickfont.size == 10
    # and 53 upright names still touched at 800 px (walk-through 16): every 2nd is named
    assert list(upright.layout.xaxis.ticktext) == [f"c{j}" for j in range(0, 54, 2)]
    assert "every 2nd named; all on hover" in upright.layout.xaxis.title.text
    assert fig.layout.xaxis.tickangle == -60


def test_a_marker_label_sits_on_the_side_of_its_line_with_room():
    """"kept: 8" of 8 components was drawn right of a line at the plot's right edge and cut."""
    from sparge.app.plots_lecture import objective_figure, singular_values_figure

    sv = np.linspace(8, 1, 8)
    at_edge = singular_values_figure(sv, sv - 0.5, kept=8).layout.annotations[0]
    early = singular_values_figure(sv, sv - 0.5, kept=2).layout.annotations[0]
    assert at_edge.text == "kept: 8" and at_edge.xanchor == "right"
    assert early.xanchor == "left"
    hist = pd.DataFrame({"iteration": np.arange(1, 11), "J": np.linspace(1, 0.5, 10)})
    assert objective_figure(hist, best=10).layout.annotations[0].xanchor == "right"
    assert objective_figure(hist, best=2).layout.annotations[0].xanchor == "left"


def test_the_lecture_share_axis_stays_within_0_and_100_percent():
    """A flat 100 % held-out line was autoscaled to ticks from 8 % to 193 %."""
    from sparge.app.plots_lecture import objective_figure, share_range

    hist = pd.DataFrame({"iteration": [0, 1, 2], "J": [0.5, 0.4, 0.39],
                         "heldout_score": [1.0, 1.0, 1.0]})
    lo, hi = objective_figure(hist, best=0).layout.yaxis2.range
    assert 0.9 < lo < 1.0 < hi <= 1.01
    assert share_range([0.0, 0.02])[0] == 0.0 and share_range([np.nan]) is None
    assert objective_figure(hist.drop(columns="heldout_score"), best=0).layout.yaxis2.range \
        is None


def test_a_lecture_map_keeps_one_scale_or_says_how_it_is_stretched():
    """The toy's second learned axis spanned 1/100 of the first and was drawn as wide, under
    a caption saying the map shows the space as it is."""
    from sparge.app.plots_lecture import map_figure

    rng = np.random.default_rng(0)
    ids, labels = [f"P{i}" for i in range(30)], ["a", "b"] * 15
    square = map_figure(rng.normal(size=(30, 2)), labels, ids, "t")
    assert square.layout.yaxis.scaleanchor == "x" and square.layout.yaxis.title.text == \
        "axis 2"
    flat = map_figure(rng.normal(size=(30, 2)) * [1.0, 0.01], labels, ids, "t")
    assert flat.layout.yaxis.scaleanchor is None
    # said along the x axis: the vertical title was cut at 800 px
    assert flat.layout.xaxis.title.text.startswith("axis 1 (axis 2 stretched ")
    assert flat.layout.yaxis.title.text == "axis 2"


def test_the_new_patient_star_is_labelled_on_a_box():
    """Its ID was plain text over the points, unreadable on a crowded map."""
    frame = _big_frame(300)
    fig = cohort_map(frame, frame["outcome"], new_points=pd.DataFrame(
        {"x": [0.5], "y": [0.5], "ID": ["NEW-001"]}))
    star = next(t for t in fig.data if t.name == "new patient")
    assert star.mode == "markers" and star.marker.symbol == "star"
    label = next(a for a in fig.layout.annotations if a.text == "NEW-001")
    assert label.bgcolor and label.x == 0.5 and label.yshift > 0


def test_up_to_eighteen_answers_each_get_their_own_colour():
    """Walk-through 27: a 17-answer race column drew two answers in each of seven colours
    (the palette started again at 10)."""
    from sparge.app.plots import MISSING_CATEGORY, MISSING_COLOUR, PALETTE, category_colours

    answers = [f"answer {i:02d}" for i in range(18)] + [MISSING_CATEGORY]
    colours = category_colours(answers)
    shown = [colours[a] for a in answers[:-1]]
    assert len(set(shown)) == 18 and set(shown) <= set(PALETTE)
    assert colours[MISSING_CATEGORY] == MISSING_COLOUR not in shown
    assert "#FF0000" not in PALETTE and "crimson" not in PALETTE  # red marks this patient


def test_a_score_of_few_values_is_coloured_in_its_own_order():
    """Walk-through 28: GCS (7-15) was a legend "10.0, 11.0 … 15.0, 7.0, 8.0, 9.0"."""
    frame = _frame(40)
    gcs = pd.Series([7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, np.nan] * 4,
                    name="GCS")
    fig = cohort_map(frame, gcs, color_title="GCS")
    names = [t.name for t in fig.data if t.name not in ("not used for training",)]
    shown = [n for n in names if n in {"7", "8", "9", "10", "11", "12", "13", "14", "15",
                                       "missing"}]
    assert shown[:9] == ["7", "8", "9", "10", "11", "12", "13", "14", "15"]
    assert not any(n.endswith(".0") for n in names if n)


def test_a_legend_of_many_answers_goes_beside_the_map_not_over_it():
    """Walk-through 73 coloured by a cytogenetics column of 15 answers: the rows of its
    legend under the map were drawn over the map's lower part."""
    frame = _frame(40)
    few = cohort_map(frame, frame["outcome"])
    assert few.layout.legend.orientation == "h" and few.layout.legend.y < 0
    many = pd.Series([f"answer {i % 15}" for i in range(40)])
    fig = cohort_map(frame, many, color_title="Cytogenetics")
    assert fig.layout.legend.orientation == "v" and fig.layout.legend.x > 1


def test_a_click_on_the_lecture_map_gives_the_followed_patient_back():
    """Walk-through 74: a click on "After: the learned space (click a patient to follow
    it)" blanked the page (KeyError 0): the map's customdata went to the browser as a
    typed array and the clicked point came back as an object."""
    from sparge.app.lecture import clicked_index
    from sparge.app.plots_lecture import map_figure

    coords = np.random.default_rng(0).normal(size=(30, 2))
    fig = map_figure(coords, ["a", "b"] * 15, [f"P{i}" for i in range(30)], "After")
    sent = fig.to_plotly_json()["data"]
    for trace in sent:
        if trace.get("customdata") is not None:
            assert isinstance(trace["customdata"], list)  # no typed array
            assert all(isinstance(c, list) and isinstance(c[0], int)
                       for c in trace["customdata"])
    assert clicked_index([5]) == 5 and clicked_index({"0": 7}) == 7
    assert clicked_index(3) == 3 and clicked_index(None) is None
    assert clicked_index("not a number") is None and clicked_index([]) is None


def test_a_few_patients_far_from_the_rest_are_drawn_at_the_frames_edge():
    """Walk-through 85: one patient far below the others drew them as a thin band over a
    quarter of the map's height. The frame holds the others; the far one is drawn at
    its edge, marked and said, and stays clickable (its key)."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(0, 1, 300), "y": rng.normal(0, 0.3, 300),
                          "ID": [f"P{i}" for i in range(300)], "row": np.arange(300)})
    frame.loc[5, "y"] = -6.0
    fig = cohort_map(frame, title="map", highlight=5)
    lo, hi = fig.layout.yaxis.range
    assert -2 < lo < frame["y"].drop(5).min() and hi > frame["y"].max()
    assert fig.layout.xaxis.range is None  # the x axis holds everyone already
    edge = next(t for t in fig.data if t.name == "far from the rest (at the edge)")
    edge_y = lo + 0.03 * (hi - lo)  # inside the frame's margin
    assert list(edge.y) == pytest.approx([edge_y])
    points = next(t for t in fig.data if t.name == "patients")
    at = [i for i, k in enumerate(points.customdata) if k[0] == 5]
    assert points.y[at[0]] == pytest.approx(edge_y)  # at the edge, still the patient's
    assert "1 patient far from the rest" in fig.layout.annotations[-1].text
    # a spread without such patients is drawn as before
    plain = cohort_map(frame.drop(index=5), title="map")
    assert plain.layout.yaxis.range is None and not plain.layout.annotations
    assert all(t.name != "far from the rest (at the edge)" for t in plain.data)


def test_no_missing_share_bar_holds_patients_on_both_sides_of_the_threshold():
    """Walk-through 90: a bar straddled the 10 % line, 3 of 29 values (10.3 %, left out)
    beside 2 of 29 (6.9 %, kept)."""
    import numpy as np

    from sparge.app.plots import patient_missing_hist
    X = np.ones((60, 29))
    for i in range(60):
        X[i, : i % 5] = np.nan  # 0 to 4 of 29 values missing
    fig = patient_missing_hist(X, 0.1)
    b = fig.data[0].xbins
    edges = np.arange(b.start, b.end + b.size, b.size)
    pct = 100 * np.isnan(X).mean(axis=1)
    which = np.searchsorted(edges, pct, side="right")
    for k in np.unique(which):
        inside = pct[which == k]
        assert (inside <= 10).all() or (inside > 10).all()


def test_a_scales_steps_are_drawn_along_a_sequential_colour_scale():
    """Walk-through 90 read "high" risk in green beside "low" in blue: a scale's steps
    (and a score of a few numbers) are coloured from dark to light along one sequential
    scale, in the scale's order; unordered answers keep the categorical palette, and a
    gap its grey."""
    from plotly.colors import hex_to_rgb, unlabel_rgb

    from sparge.app.plots import MISSING_COLOUR, PALETTE, category_colours

    order = ["low", "medium", "high", "missing"]
    steps = category_colours(["high", "low", "medium", "missing"], order, ordered=True)
    assert steps["missing"] == MISSING_COLOUR
    rgb = [unlabel_rgb(steps[v]) if steps[v].startswith("rgb") else hex_to_rgb(steps[v])
           for v in order[:3]]
    # from dark to light, step by step (Plasma's luminance rises along it)
    light = [0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b in rgb]
    assert light[0] < light[1] < light[2]
    plain = category_colours(["high", "low", "medium"], order)
    assert [plain[v] for v in order[:3]] == PALETTE[:3]
    n = 30
    frame = _frame(n).assign(outcome=np.where(np.arange(n) % 3 == 0, "low", "high"))
    nyha = pd.Series(np.array(["I", "II", "III", "IV", "missing"])[np.arange(n) % 5])
    fig = cohort_map(frame, nyha, order=["I", "II", "III", "IV", "missing"], ordered=True)
    drawn = {t.name: t.marker.color for t in fig.data if t.name in {"I", "IV", "missing"}}
    assert drawn["missing"] == MISSING_COLOUR and drawn["I"] != drawn["IV"]
    assert drawn["I"] not in PALETTE
    # a score of a few numbers (GCS 13-15) is a scale of its own
    gcs = pd.Series((13 + np.arange(n) % 3).astype(float))
    fig = cohort_map(frame, gcs)
    assert not any(t.marker.color in PALETTE for t in fig.data if t.name in {"13", "15"})


def test_which_answers_are_a_scale():
    """Scales are recognised steps (NYHA, low/medium/high, mild to severe) or an ordered
    column of three or more codes; yes/no (with "unknown") never is."""
    from sparge.data.encoder import Encoder
    from sparge.services.display import column_is_scale, is_scale

    assert is_scale(["low", "medium", "high"]) and is_scale(["I", "II", "III", "IV"])
    assert not is_scale(["Yes", "No", "Unknown"]) and not is_scale(["low", "high"])
    rng = np.random.default_rng(1)
    n = 120
    df = pd.DataFrame({"NYHA class": rng.choice(["I", "II", "III", "IV"], n),
                       "Diabetes": rng.choice(["Yes", "No", "Unknown"], n),
                       "Religion": rng.choice(["Buddhist", "Islam", "Hindu"], n),
                       "Age": rng.integers(30, 90, n), "y": rng.integers(0, 2, n)})
    enc = Encoder(label_column="y").fit(df)
    assert column_is_scale("NYHA class", enc)
    assert not column_is_scale("Diabetes", enc) and not column_is_scale("Religion", enc)
    assert not column_is_scale("Age", enc)
