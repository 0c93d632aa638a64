"""Figures of the Model and Classifiers pages (sparge.app.plots_setup)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.app.plots_setup import (
    classifier_bars_with_chance,
    confusion_heatmap,
    objective_figure,
    plot_text,
)


def test_plot_text_is_plain_and_short():
    assert plot_text("<b>x</b>\x07y" * 10, max_len=12).count("<") == 0
    assert len(plot_text("a" * 100, max_len=10)) <= 10


def test_bars_per_representation_with_the_chance_line():
    summary = pd.DataFrame({"representation": ["raw", "raw", "SparGE", "SparGE"],
                            "classifier": ["knn", "svm", "knn", "svm"],
                            "balanced_accuracy_mean": [0.6, 0.7, 0.8, 0.75],
                            "balanced_accuracy_std": [0.01, 0.02, 0.01, 0.03]})
    fig = classifier_bars_with_chance(summary, "balanced_accuracy", chance=0.5)
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == 2 and list(bars[1].y) == [0.8, 0.75]
    assert any("chance (0.50)" == t.name for t in fig.data)
    assert fig.layout.shapes[0].y0 == 0.5


def test_confusion_heatmap_in_percent_with_escaped_labels():
    cm = np.array([[0.75, 0.25], [0.1, 0.9]])
    fig = confusion_heatmap(cm, ["<alive>", "dead"], "kNN")
    z = np.asarray(fig.data[0].z)
    np.testing.assert_allclose(z, 100 * cm)
    assert "&lt;alive&gt;" in fig.data[0].x


def test_objective_figure_and_a_damaged_history():
    hist = [{"iteration": 0, "J": 2.0, "heldout_score": 0.5},
            {"iteration": 1, "J": 1.5, "heldout_score": 0.6}]
    fig = objective_figure(hist)
    assert len(fig.data) == 2 and list(fig.data[0].y) == [2.0, 1.5]
    assert len(objective_figure([{"iteration": 0, "J": 1.0}]).data) == 1
    with pytest.raises(ValueError, match="history"):
        objective_figure([{"x": 1}])
