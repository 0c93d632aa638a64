"""Shared fixtures: small planted problems and the bundled sample cohort.

Plain helpers (paths, problem generators) live in ``helpers.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import SAMPLES, planted_classes

#: Test files run on one worker under ``--dist loadfile`` (``{file: the file whose worker
#: runs it}``): those whose tests compile pynndescent's search for the look-alike metric
#: (numba, 30-45 s once per process; on two workers the suite paid it twice).
SHARED_WORKER = {"tests/services/test_cohort_index.py": "tests/method/test_neighbors.py"}


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist the hook is not known
def pytest_xdist_make_scheduler(config, log):
    """xdist's file scheduling, with the files of :data:`SHARED_WORKER` as one unit."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SHARED_WORKER.get(scope, scope)

    return SharedFiles(config, log)


@pytest.fixture
def planted():
    return planted_classes()


@pytest.fixture(scope="session")
def sample_csv() -> Path:
    return SAMPLES / "singheart_synthetic.csv"


@pytest.fixture(scope="session")
def small_csv() -> Path:
    return SAMPLES / "singheart_small.csv"
