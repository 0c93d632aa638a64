"""Every benchmark script run whole in its quick mode (``python -m bench.<script>``, as
``bench.run_all`` runs it), so the scripts cannot rot.

Apart from :mod:`test_bench_quick`: each run is a fresh interpreter of 10 to 40 s, and in
their own file the suite's two workers share them with the other files (together they
were the last minutes of one worker).
"""

from __future__ import annotations

import subprocess

import pytest
from helpers import ROOT


@pytest.mark.parametrize("script, args", [
    ("core_speed", ["--quick"]),
    ("scale", ["--one", "300", "20", "fit"]),
    ("scale_train", ["--one", "2000", "--fit-samples", "500"]),
    ("distributed", ["--quick"]),
    ("far_values", ["--quick"]),
    ("reading_truth", ["--quick"]),
    ("lookalike_stability", ["--quick"]),
    ("log_scale", ["--quick"]),
    ("fit_estimate", ["--quick"]),
    ("encode_speed", ["--quick"]),
    ("compare_estimate", ["--quick"]),
    ("split_noise", ["--quick"]),
    ("share_reliability", ["--quick"]),
    ("robustness", ["--quick", "--cohorts", "breast_cancer", "--conditions", "0%", "30%"]),
])
def test_scripts_run(script, args):
    from bench.run_all import command

    out = subprocess.run(command(script, args), capture_output=True, text=True, timeout=300,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip()
