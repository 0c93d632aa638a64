"""The benchmarks' code paths on tiny subsets, so the scripts cannot rot."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT

BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))


def test_quality_evaluate_and_table_on_tiny_cohorts():
    from quality import evaluate, summary_table

    pytest.importorskip("metric_learn")
    res = evaluate("breast_cancer", n_splits=1, methods=["raw", "PCA", "LFDA", "SparGE"],
                   timeout=120, max_rows=150, verbose=False)
    assert set(res.method) == {"raw", "PCA", "LFDA", "SparGE"}
    assert (res.status == "ok").all()
    assert res["p@10_balanced"].between(0, 1).all()
    table = summary_table(res)
    assert list(table["finished"]) == ["1/1"] * 4


def test_real_cohorts_load_through_the_encoder():
    pytest.importorskip("SurvSet")
    from cohorts import encoded, load_cohort

    df, label = load_cohort("support2")
    assert not {"num_surv2m", "num_surv6m", "fac_sfdm2"} & set(df.columns)
    X, y, names = encoded("whas500", max_rows=100)
    assert X.shape[0] == 100 and len(names) == X.shape[1] and set(y) == {"event", "no event"}


def test_peer_timeout_is_recorded():
    import time

    from peers import run_with_timeout

    status, out = run_with_timeout(time.sleep, (5,), {}, timeout=0.5)
    assert status == "timeout" and out is None


def test_robustness_masking():
    from robustness import mask

    rng = np.random.default_rng(0)
    X = np.ones((200, 10))
    assert abs(np.isnan(mask(X, "30%", [], rng)).mean() - 0.3) < 0.05
    Xg = mask(X, "groups", [[0, 1], [5, 6, 7]], rng)
    lost = np.isnan(Xg[:, 0])
    assert np.array_equal(lost, np.isnan(Xg[:, 1])) and 0.15 < lost.mean() < 0.45


@pytest.mark.parametrize("script, args", [
    ("core_speed.py", ["--quick"]),
    ("scale.py", ["--one", "300", "20", "fit"]),
])
def test_scripts_run(script, args):
    out = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                         text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip()
