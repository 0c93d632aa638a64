"""Fixtures of the app's tests."""

from __future__ import annotations

import pytest
from app_support import SMALL

from sparge import read_table
from sparge.services.workflow import encode_cohort


@pytest.fixture(scope="module")
def small_cohort():
    """The bundled small sample, encoded (once per test file)."""
    return encode_cohort(read_table(SMALL), id_column="Subject ID", label_column="Outcome")
