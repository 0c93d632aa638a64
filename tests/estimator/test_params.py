"""The estimator's parameter table: every parameter checked before any work is done."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import planted_classes

import sparge.estimator.model as model_module
from sparge import DataError, SparGE
from sparge.estimator.params import PARAMETER_CONSTRAINTS, check_params, param_problem

#: One value every parameter must refuse.
BAD = {"n_atoms": 0, "n_components": 0, "supervised": "yes", "representation": "pixels",
       "completion_lambda": -1.0, "max_rank": 0, "rank": "high", "completion_ridge": -0.1,
       "normalize_rows": 1, "r1": -0.5, "r2": float("nan"), "n_nonzero": 0,
       "ksvd_iter": -1, "k1": 0, "k2": 2.5, "graph_weight": "gauss", "neighbor_search": "fast",
       "class_balance": None,
       "trace_ratio_reg": -1, "metric_weighting": "sqrt", "forest_weight": -2,
       "anchor_weight": "high", "completion_fill": "mean", "log_scale": "ln",
       "forest_trees": 0, "forest_min_leaf": True, "forest_inputs": "trees",
       "forest_proximity": "oob", "max_iter": -1,
       "step_size": "big",
       "early_stopping": "no", "validation_fraction": 1.0, "n_iter_no_change": 0,
       "max_fit_samples": 5, "random_state": -3, "callback": 42, "verbose": -1}


def test_the_table_covers_every_parameter():
    assert set(PARAMETER_CONSTRAINTS) == set(SparGE().get_params())
    assert set(BAD) == set(PARAMETER_CONSTRAINTS)


def test_defaults_pass():
    check_params(SparGE().get_params(), 100)


@pytest.mark.parametrize("name", sorted(BAD))
def test_every_bad_value_is_refused_before_any_work(name, monkeypatch):
    def no_work(*args, **kwargs):
        raise AssertionError("fit did work before checking its parameters")

    monkeypatch.setattr(model_module, "fit_completion", no_work)
    X, y = planted_classes(n=40, m=10, noise_dims=6)
    with pytest.raises(ValueError, match=f"parameter '{name}' must be"):
        SparGE(**{name: BAD[name]}).fit(X, y)


def test_message_names_value_and_expectation():
    msg = param_problem("k1", -1)
    assert msg == "parameter 'k1' must be an integer >= 1 (got int -1)"
    assert param_problem("k1", 5) is None
    assert "unknown SparGE parameter 'kk'" in param_problem("kk", 1)


def test_too_few_patients_is_a_data_error():
    with pytest.raises(DataError, match="at least 3 patients"):
        SparGE().fit(np.zeros((2, 3)), [0, 1])
