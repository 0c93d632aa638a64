"""A fitted SparGE as plain arrays and values, and back (no pickle anywhere).

:meth:`sparge.SparGE.get_state` gives a :class:`ModelState`; :meth:`sparge.SparGE.from_state`
rebuilds the estimator from one, checking that the pieces fit together. Persistence
(:mod:`sparge.services.persistence`) only writes and validates files of such states: it
never touches the estimator's attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Learned float arrays (``dictionary_r``: the dictionary in completion scores).
FLOAT_ARRAYS = ("mean_", "scale_", "completion_components_", "completion_singular_values_",
                "filled_singular_values_", "dictionary_r", "projection_", "codes_",
                "completed_", "embedding_", "training_data_", "component_weights_")
#: Learned integer arrays.
INT_ARRAYS = ("atom_class_",)
#: Arrays a state may lack: the completion ridge (older files hold one shared number),
#: the ridge that fills gaps (files before round 16; ``completion_fill="none"``), the
#: outcomes and the classes (unsupervised without outcomes).
OPTIONAL_ARRAYS = ("completion_ridge_", "completion_fill_ridge_", "y_", "classes_")
#: The forest part of the look-alike metric (all or none).
FOREST_INT = ("forest_left", "forest_right", "forest_feature", "forest_offsets",
              "forest_missing_left", "forest_leaves_")
FOREST_FLOAT = ("forest_threshold",)
FOREST_ARRAYS = FOREST_INT + FOREST_FLOAT
#: Forest arrays a state may lack: which trees count for which training patient (in-bag
#: proximity; older files and ``"shared-leaf"``: every tree).
FOREST_OPTIONAL = ("forest_counted_",)
#: The values next to the arrays.
VALUE_FIELDS = ("n_features_in", "feature_names", "completion_lambda", "best_iteration",
                "objective", "fit_time", "history", "train_ids", "forest", "n_samples_seen",
                "log_columns")


@dataclass
class ModelState:
    """Everything a fitted SparGE is made of.

    Attributes
    ----------
    params : dict
        ``get_params()`` without the callback.
    arrays : dict of str -> ndarray
        :data:`FLOAT_ARRAYS`, :data:`INT_ARRAYS`, those of :data:`OPTIONAL_ARRAYS` the model
        has, and :data:`FOREST_ARRAYS` (and :data:`FOREST_OPTIONAL` with in-bag
        proximity) when it has a forest part.
    values : dict
        :data:`VALUE_FIELDS`: ``n_features_in`` (int), ``feature_names`` (list of str or
        None), ``completion_lambda``, ``best_iteration``, ``objective``, ``fit_time``
        (numbers or None), ``history`` (list of dicts of numbers), ``train_ids`` (list of
        str or None), ``forest`` (``{"weight", "scale", "selection", "min_leaf",
        "inputs"}`` or None),
        ``n_samples_seen`` (int: patients given to ``fit``, more than the training
        patients when it learned from a sample), ``log_columns`` (list of int: the
        features standardised as their logarithm; older files: none).
    """

    params: dict[str, Any]
    arrays: dict[str, np.ndarray]
    values: dict[str, Any] = field(default_factory=dict)
