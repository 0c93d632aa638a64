"""Every benchmark script run whole in its quick mode, as ``python -m bench.<script>`` runs
it (``runpy`` with the script's arguments, its ``__main__`` block included), so the scripts
cannot rot.

In this test process, not a fresh interpreter each: the 14 interpreters spent about 4 s
each importing what the suite has imported already (a script that needs a process of its
own, ``bench.scale``'s fits, starts it itself). Apart from :mod:`test_bench_quick`: the
runs take 5 to 20 s each, and in their own file the suite's two workers share them with
the other files.
"""

from __future__ import annotations

import runpy
import sys

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
def test_scripts_run(script, args, capsys, monkeypatch):
    from bench.run_all import command

    cmd = command(script, args)
    assert cmd[1:3] == ["-m", f"bench.{script}"]  # the command bench.run_all runs
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", [str(ROOT / "bench" / f"{script}.py"), *cmd[3:]])
    try:
        runpy.run_module(f"bench.{script}", run_name="__main__", alter_sys=True)
    except SystemExit as stop:  # argparse's or the script's own exit
        assert stop.code in (0, None), capsys.readouterr().err[-2000:]
    assert capsys.readouterr().out.strip()
