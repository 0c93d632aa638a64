"""Shared fixtures: small planted problems and the bundled sample cohort.

Plain helpers (paths, problem generators) live in ``helpers.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SAMPLES, planted_classes


@pytest.fixture
def planted():
    return planted_classes()


@pytest.fixture(scope="session")
def sample_csv() -> Path:
    return SAMPLES / "singheart_synthetic.csv"


@pytest.fixture(scope="session")
def small_csv() -> Path:
    return SAMPLES / "singheart_small.csv"
