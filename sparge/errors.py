"""The project's own error types.

``DataError`` is the one error type for bad input: its message says which column, which
row and what was expected, so that a clinician can act on it. ``ModelFileError`` is raised
when a model file is not a valid SparGE model (wrong format, version, shapes or dtypes).
"""

from __future__ import annotations


class DataError(ValueError):
    """Bad input data: the message names the problem and what was expected."""


class ModelFileError(DataError):
    """A model file that is not a valid SparGE model; it is refused, never executed."""
