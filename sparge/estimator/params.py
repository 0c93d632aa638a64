"""Every SparGE parameter with what it may be, checked before any work is done.

One table serves the estimator (``fit`` validates all parameters first, in the spirit of
scikit-learn's ``_parameter_constraints``), model files and ``--params`` JSON (checked in
:mod:`sparge.services.persistence` through :func:`param_problem`), so the three never
disagree.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from sparge.errors import DataError
from sparge.estimator.forest_part import FOREST_INPUTS, FOREST_PROXIMITIES


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)


def _int_in(low: int, high: int = 10**7) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and low <= v <= high


def _int_or_none(low: int) -> Callable[[Any], bool]:
    return lambda v: v is None or (_is_int(v) and low <= v <= 10**7)


def _number_or(*choices: str, low: float = 0.0) -> Callable[[Any], bool]:
    return lambda v: (isinstance(v, str) and v in choices) or (_is_number(v) and v >= low)


def _one_of(*choices: Any) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and v in choices


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


#: name -> (check of a value, what the value must be). Plain values only, except
#: ``callback`` (a callable, never stored in a model file).
PARAMETER_CONSTRAINTS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "n_atoms": (_int_or_none(1), "an integer >= 1 or null"),
    "n_components": (_int_or_none(1), "an integer >= 1 or null"),
    "supervised": (_bool, "true or false"),
    "representation": (_one_of("codes", "codes+completed"), "'codes' or 'codes+completed'"),
    "completion_lambda": (_number_or("auto"), "'auto' or a number >= 0"),
    "max_rank": (_int_in(1, 10**6), "an integer >= 1"),
    "rank": (lambda v: v is None or v == "auto" or (_is_int(v) and 1 <= v <= 10**6),
             "an integer >= 1, 'auto' or null"),
    "completion_ridge": (_number_or("posterior"), "a number >= 0 or 'posterior'"),
    "completion_fill": (_one_of("posterior", "none"), "'posterior' or 'none'"),
    "normalize_rows": (_bool, "true or false"),
    "log_scale": (_one_of("auto", "wide", "none"), "'auto', 'wide' or 'none'"),
    "r1": (_number_or(), "a number >= 0"),
    "r2": (_number_or(), "a number >= 0"),
    "n_nonzero": (_int_in(1, 10**6), "an integer >= 1"),
    "ksvd_iter": (_int_in(0, 10**6), "an integer >= 0"),
    "k1": (_int_in(1, 10**6), "an integer >= 1"),
    "k2": (_int_in(1, 10**6), "an integer >= 1"),
    "graph_weight": (_one_of("heat", "binary"), "'heat' or 'binary'"),
    "neighbor_search": (_one_of("auto", "exact", "approximate"),
                        "'auto', 'exact' or 'approximate'"),
    "anchor_weight": (_number_or("auto"), "'auto' or a number >= 0"),
    "class_balance": (_bool, "true or false"),
    "trace_ratio_reg": (_number_or(), "a number >= 0"),
    "metric_weighting": (_one_of("ratio", "none"), "'ratio' or 'none'"),
    "forest_weight": (_number_or("auto"), "'auto' or a number >= 0"),
    "forest_trees": (_int_in(1, 100_000), "an integer >= 1"),
    "forest_min_leaf": (lambda v: v == "auto" or _int_in(1, 10**6)(v),
                        "'auto' or an integer >= 1"),
    "forest_proximity": (_one_of(*FOREST_PROXIMITIES),
                         " or ".join(map(repr, FOREST_PROXIMITIES))),
    "forest_inputs": (_one_of(*FOREST_INPUTS), " or ".join(map(repr, FOREST_INPUTS))),
    "max_iter": (_int_in(0, 10**6), "an integer >= 0"),
    "step_size": (_number_or(), "a number >= 0"),
    "early_stopping": (_bool, "true or false"),
    "validation_fraction": (lambda v: _is_number(v) and 0 <= v < 1, "a number in [0, 1)"),
    "n_iter_no_change": (_int_in(1, 10**6), "an integer >= 1"),
    "max_fit_samples": (_int_or_none(10), "an integer >= 10 or null"),
    "random_state": (lambda v: v is None or (_is_int(v) and 0 <= v < 2**32)
                     or isinstance(v, (np.random.RandomState, np.random.Generator)),
                     "an integer >= 0, a numpy RandomState or Generator, or null"),
    "callback": (lambda v: v is None or callable(v), "a callable or null"),
    "verbose": (_int_in(0, 100), "an integer >= 0"),
}

#: The smallest training set SparGE learns from.
MIN_PATIENTS = 3


def param_problem(name: str, value: Any) -> str | None:
    """What is wrong with one parameter value, or ``None``.

    Parameters
    ----------
    name : str
        A SparGE parameter name.
    value : object
        Its value.

    Returns
    -------
    str or None
        ``"parameter 'k1' must be an integer >= 1 (got int -1)"``, or ``None`` when the
        value is allowed. An unknown name is a problem too.
    """
    if name not in PARAMETER_CONSTRAINTS:
        known = ", ".join(sorted(PARAMETER_CONSTRAINTS))
        return f"unknown SparGE parameter {str(name)[:60]!r} (known: {known})"
    check, expected = PARAMETER_CONSTRAINTS[name]
    if check(value):
        return None
    got = type(value).__name__
    if isinstance(value, (int, float, bool, str)) or value is None:
        got = f"{got} {value!r}"[:60]
    return f"parameter {name!r} must be {expected} (got {got})"


def check_params(params: dict[str, Any], n_samples: int | None = None) -> None:
    """Check every parameter (and that ``n_samples`` patients can be learned from).

    Parameters
    ----------
    params : dict
        ``SparGE.get_params()``.
    n_samples : int, optional
        The number of training patients.

    Raises
    ------
    ValueError
        The first parameter at fault, what it must be and what it is.
    DataError
        Fewer than :data:`MIN_PATIENTS` patients.
    """
    for name, value in params.items():
        problem = param_problem(name, value)
        if problem:
            raise ValueError("SparGE " + problem + ".")
    if n_samples is not None and n_samples < MIN_PATIENTS:
        raise DataError(f"SparGE needs at least {MIN_PATIENTS} patients to learn from; got "
                        f"n_samples = {n_samples}.")
