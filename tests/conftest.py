"""Shared fixtures: small planted problems and the bundled sample cohort.

Plain helpers (paths, problem generators) live in ``helpers.py``.
"""

from __future__ import annotations

import os
from pathlib import Path


def _one_thread_per_worker() -> None:
    """Under pytest-xdist, give each worker its share of the cores for BLAS, OpenMP and
    numba (before numpy is imported; the servers and scripts the tests start inherit it).
    Two workers on two cores each running two BLAS threads measured 20-25 % slower than
    one thread each (threads of one worker waiting on those of the other)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        return
    threads = str(max(1, (os.cpu_count() or 1) // workers))
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                 "NUMBA_NUM_THREADS"):
        os.environ.setdefault(name, threads)


_one_thread_per_worker()

import pytest  # noqa: E402
from helpers import SAMPLES, planted_classes  # noqa: E402

#: Test files run on one worker under ``--dist loadfile`` (``{file: the file whose worker
#: runs it}``): those whose tests compile pynndescent's search for the look-alike metric
#: (numba, 30-45 s once per process; on two workers the suite paid it twice).
SHARED_WORKER = {"tests/services/test_cohort_index.py": "tests/method/test_neighbors.py"}


#: Seconds each of the slowest test files takes on a 2-core machine (measured with
#: ``--durations``, rounded up): under ``--dist loadfile`` they are handed out first, so
#: that the two workers finish together. xdist hands files out by their number of tests,
#: which sent the few long browser and command-line tests last, and one worker ran them
#: alone for minutes while the other idled (the suite used 1.6 of its 2 cores).
SLOW_FILES = {
    "tests/app/test_app.py": 185, "tests/app/test_app_data.py": 145,
    "tests/app/test_browser_explore.py": 140, "tests/test_bench_scripts.py": 130,
    "tests/app/test_browser.py": 110, "tests/method/test_neighbors.py": 100,
    "tests/app/test_app_explore.py": 100, "tests/app/test_browser_teaching.py": 90,
    "tests/services/test_workflow.py": 75, "tests/test_cli.py": 65,
    "tests/services/test_compare.py": 60, "tests/data/test_encoder.py": 55,
    "tests/app/test_app_teaching.py": 45, "tests/estimator/test_model.py": 40,
    "tests/services/test_distributed.py": 40, "tests/estimator/test_estimator_checks.py": 35,
    "tests/security/test_hostile_inputs.py": 35, "tests/services/test_make_samples.py": 10,
    "tests/app/test_app_explore_scale.py": 25, "tests/method/test_similarity.py": 20,
    "tests/app/test_app_cohort_search.py": 20, "tests/data/test_reading.py": 20,
    "tests/app/test_app_ages.py": 20, "tests/method/test_proximity.py": 20,
    "tests/app/test_browser_map_scale.py": 15, "tests/services/test_persistence.py": 15,
    "tests/services/test_maps.py": 15, "tests/estimator/test_log_scale.py": 15,
    "tests/services/test_teaching.py": 15,
}
#: Seconds assumed per test of a file not in :data:`SLOW_FILES`.
SECONDS_PER_TEST = 0.3


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(config, items):
    """The slowest files first (:data:`SLOW_FILES`), each file's tests in their order: the
    order xdist's file scheduling hands them out in (it keeps the collection's order with
    ``loadscopereorder`` off, as :func:`pytest_xdist_make_scheduler` sets it)."""
    count: dict[str, int] = {}
    for item in items:
        f = _file_of(item.nodeid)
        count[f] = count.get(f, 0) + 1
    unit = {f: SHARED_WORKER.get(f, f) for f in count}
    cost: dict[str, float] = {}
    for f, n in count.items():
        cost[unit[f]] = cost.get(unit[f], 0.0) + SLOW_FILES.get(f, SECONDS_PER_TEST * n)
    first = {f: i for i, f in enumerate(count)}  # a unit keeps its files' order
    first_of_unit: dict[str, int] = {}
    for f, i in first.items():
        first_of_unit.setdefault(unit[f], i)
    items.sort(key=lambda it: (-cost[unit[_file_of(it.nodeid)]],
                               first_of_unit[unit[_file_of(it.nodeid)]],
                               first[_file_of(it.nodeid)]))


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist the hook is not known
def pytest_xdist_make_scheduler(config, log):
    """xdist's file scheduling, with the files of :data:`SHARED_WORKER` as one unit, in
    the order :func:`pytest_collection_modifyitems` gives (slowest first)."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False

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
