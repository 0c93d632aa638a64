"""The benchmarks' code paths on tiny subsets, so the scripts cannot rot.

The benchmarks are the package ``bench`` (run as ``python -m bench.<script>`` from the
root); pytest puts the root on ``sys.path``, so the tests import ``bench.*`` directly.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import ROOT


def test_quality_evaluate_and_table_on_tiny_cohorts():
    from bench.protocol import evaluate, summary_table

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
    from bench.cohorts import encoded, load_cohort

    df, label = load_cohort("support2")
    assert not {"num_surv2m", "num_surv6m", "fac_sfdm2"} & set(df.columns)
    X, y, names = encoded("whas500", max_rows=100)
    assert X.shape[0] == 100 and len(names) == X.shape[1] and set(y) == {"event", "no event"}


def test_peer_timeout_is_recorded():
    import time

    from bench.peers import run_with_timeout

    status, out = run_with_timeout(time.sleep, (5,), {}, timeout=0.5)
    assert status == "timeout" and out is None


def test_robustness_masking():
    from bench.robustness import mask

    rng = np.random.default_rng(0)
    X = np.ones((200, 10))
    assert abs(np.isnan(mask(X, "30%", [], rng)).mean() - 0.3) < 0.05
    Xg = mask(X, "groups", [[0, 1], [5, 6, 7]], rng)
    lost = np.isnan(Xg[:, 0])
    assert np.array_equal(lost, np.isnan(Xg[:, 1])) and 0.15 < lost.mean() < 0.45


def test_method_budget_skips_later_splits():
    from bench.protocol import evaluate, summary_table

    res = evaluate("breast_cancer", n_splits=3, methods=["raw", "SparGE"], timeout=120,
                   max_rows=150, verbose=False, budget=0.0)
    # every method runs once, then its (zero) budget is spent: later splits are skipped
    assert list(res[res.split == 0].status) == ["ok", "ok"]
    assert set(res[res.split > 0].status) == {"budget"}
    assert res[res.split > 0].fit_s.isna().all()
    assert list(summary_table(res)["finished"]) == ["1/3 (budget)"] * 2


def test_robustness_loss_is_paired_by_split():
    import pandas as pd

    from bench.robustness import loss_table

    df = pd.DataFrame({"cohort": "c", "method": "m", "split": [0, 0, 1, 1],
                       "masked": ["0%", "30%"] * 2, "knn_bal_acc": [0.8, 0.7, 0.6, 0.55]})
    cell = loss_table(df, "30%").loc[0, "m"]
    assert cell.startswith("-0.075 ± 0.025")


def test_run_all_suite_arguments_exist(monkeypatch):
    """Every script run_all runs takes the arguments it is given. Each one's ``--help``
    is read in this process (``python -m bench.<script> --help``, as run_all's command
    runs it, without starting 20 interpreters: 31 s of the suite's 15 minutes)."""
    import contextlib
    import io
    import runpy

    from bench.run_all import SCALE_SUITE, SUITE, command

    for script, args in SUITE + SCALE_SUITE:
        assert command(script, ["--help"])[1:3] == ["-m", f"bench.{script}"]
        monkeypatch.setattr("sys.argv", [f"bench.{script}", "--help"])
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            runpy.run_module(f"bench.{script}", run_name="__main__", alter_sys=False)
        help_text = out.getvalue()
        assert "--quick" in help_text, script
        for flag in (a for a in args if a.startswith("--")):
            assert flag in help_text, (script, flag)


def test_weight_vote_bench_on_a_tiny_cohort():
    from bench.weight_vote import evaluate, summary, votes

    labels = np.array([["a", "b", "b"], ["a", "a", "b"]])
    w = np.array([[0.8, 0.1, 0.1], [0.0, 0.2, 0.8]])
    classes = np.array(["a", "b"])
    assert list(votes(labels, w, classes)) == ["a", "b"]
    assert list(votes(labels, np.ones_like(w), classes)) == ["b", "a"]
    res = evaluate("breast_cancer", n_splits=1, max_rows=150)
    assert res["weight_vote"].between(0, 1).all() and res["median_nonzero"].iloc[0] >= 1
    assert len(summary(res)) == 1


def test_one_split_protocol_for_every_script():
    from sklearn.model_selection import StratifiedShuffleSplit

    from bench.splits import inner_split, stratified_splits

    y = np.random.default_rng(0).integers(0, 3, 300)
    ours = list(stratified_splits(y, 4, seed=0))
    reference = StratifiedShuffleSplit(n_splits=4, test_size=0.3, random_state=0).split(
        np.zeros((300, 1)), y)
    for i, ((s, tr, te), (tr0, te0)) in enumerate(zip(ours, reference, strict=True)):
        assert s == i and np.array_equal(tr, tr0) and np.array_equal(te, te0)
    # the first splits do not depend on how many are asked for (loops stop early)
    first = next(stratified_splits(y, 10, seed=0))
    assert first[0] == 0 and np.array_equal(first[1], ours[0][1])
    fit_rows, val_rows = inner_split(ours[0][1], y, seed=0)
    assert set(fit_rows) | set(val_rows) == set(ours[0][1]) and len(val_rows) == 63


def test_scripts_import_only_shared_modules():
    """A script (a module with a ``__main__`` block) never imports another script."""
    import ast

    sources = {p.stem: p.read_text() for p in (ROOT / "bench").glob("*.py")}
    scripts = {name for name, src in sources.items() if '__name__ == "__main__"' in src}
    shared = set(sources) - scripts - {"__init__"}
    assert {"quality", "robustness", "weight_vote", "scale", "run_all"} <= scripts
    assert {"common", "report", "splits", "cohorts", "peers", "scores"} <= shared
    for module, source in sources.items():
        assert "sys.path" not in source, module
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                assert parts[0] not in sources, (module, name)  # bench.<x>, never bare <x>
                if parts[0] == "bench":
                    assert len(parts) == 2 and parts[1] in shared, (module, name)


def test_paired_differences_use_the_corrected_standard_error():
    """Overlapping 70/30 splits: the Nadeau–Bengio variance (1/J + 0.3/0.7) s², not s²/J."""
    import pandas as pd

    from bench.paired import corrected_se, paired_differences, paired_markdown

    d = np.array([0.01, 0.03, -0.01, 0.02, 0.00, 0.04, 0.02, 0.01, 0.03, 0.00])
    plain = d.std(ddof=1) / np.sqrt(len(d))
    assert corrected_se(d) == pytest.approx(plain * np.sqrt(1 + len(d) * 0.3 / 0.7))
    assert np.isnan(corrected_se([0.1]))
    rows = []
    for s, x in enumerate(d):
        rows += [{"cohort": "a", "split": s, "method": "raw", "acc": 0.6},
                 {"cohort": "a", "split": s, "method": "SparGE", "acc": 0.6 + x},
                 {"cohort": "b", "split": s, "method": "raw", "acc": 0.6},
                 {"cohort": "b", "split": s, "method": "SparGE", "acc": 0.5 + x / 10}]
    out = paired_differences(pd.DataFrame(rows), "SparGE", ["raw"], ["acc"]).set_index(
        "cohort")
    assert out.loc["a", "mean"] == pytest.approx(d.mean())
    assert out.loc["a", "se"] == pytest.approx(plain)
    # plain: 3.7 standard errors above; corrected: 1.6, within the noise
    assert out.loc["a", "mean"] > 2 * out.loc["a", "se"]
    assert out.loc["a", "verdict"] == "within noise"
    assert out.loc["b", "verdict"] == "below"
    text = paired_markdown(out.reset_index())
    assert "| b | -0.098 ±" in text and "**below**" in text
    assert "1 below, 0 above, 1 within noise" in text


def test_paired_reads_recorded_rows_of_several_runs(tmp_path, capsys):
    """``python -m bench.paired_rows``: another run's peer beside SparGE's rows, paired by split;
    the first file's row wins where two runs give the same cohort, split and method."""
    import pandas as pd

    from bench.paired_rows import main

    first = [{"cohort": "a", "split": s, "method": m, "status": "ok", "acc": v + s / 100}
             for s in range(5) for m, v in (("SparGE", 0.7), ("raw", 0.6))]
    later = [{"cohort": "a", "split": s, "method": m, "status": st, "acc": v}
             for s in range(5) for m, v, st in (("SparGE", 0.1, "ok"), ("peer", 0.65, "ok"),
                                                ("raw", 0.6, "error"))]
    pd.DataFrame(first).to_csv(tmp_path / "a.csv", index=False)
    pd.DataFrame(later).to_csv(tmp_path / "b.csv", index=False)
    main([str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--measures", "acc"])
    out = capsys.readouterr().out
    assert "| a | 0.720 | 0.650 | 0.620 |" in out  # SparGE (first run's), peer, raw
    assert "| a | +0.070 ±" in out and "+0.100 ±" in out  # SparGE − peer, SparGE − raw


def test_sparse_queries_hide_values_per_patient_and_score_like_the_protocol():
    from bench.common import hide_values
    from bench.scores import lookalike_scores, neighbor_scores, scores

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 10))
    X[0, 1:] = np.nan  # one value only: kept
    hidden = hide_values(X, 0.7, seed=0)
    seen = np.isfinite(X).sum(axis=1)
    assert np.isfinite(hidden[0]).sum() == 1
    np.testing.assert_array_equal(np.isfinite(hidden).sum(axis=1)[1:], 3)  # 10 - 7
    assert np.all(np.isfinite(hidden) <= np.isfinite(X)) and seen[1] == 10
    Ztr, Zte = rng.normal(size=(60, 3)), rng.normal(size=(20, 3))
    ytr, yte = rng.integers(0, 2, 60), rng.integers(0, 2, 20)
    D = ((Zte[:, None, :] - Ztr[None, :, :]) ** 2).sum(axis=2)
    ba, p10 = scores(D, ytr, yte)
    ref = lookalike_scores(Ztr, ytr, Zte, yte)
    assert ba == pytest.approx(ref["knn_bal_acc"]) and p10 == pytest.approx(ref["p@10_balanced"])
    idx = np.argsort(D, axis=1, kind="stable")[:, :10]
    assert neighbor_scores(idx, ytr, yte) == (ba, p10)


def test_typicality_bench_on_one_split():
    from bench.typicality import run

    res = run(["breast_cancer"], 1)
    assert list(res.way) == ["shared ridge (before)", "posterior residual",
                             "misfit (round 17)", "misfit, cross-fitted (now)"]
    now = res[res.way == "misfit, cross-fitted (now)"].iloc[0]
    assert now["flagged"] <= res[res.way == "misfit (round 17)"].iloc[0]["flagged"]
    assert 0 <= now["flagged"] < 0.1 < now["typo x10"]  # a slipped decimal is flagged
    assert now["hidden rmse"] < now["mean rmse"]


def test_sample_overlap_compares_lookalikes_both_samples_hold():
    """The second stability measure: look-alikes outside the other fit's sample are
    skipped, so two fits that rank the shared patients alike share all of them."""
    from bench import lookalike_stability as ls

    k = ls.K
    rows_a = np.arange(0, 30)  # fit a saw patients 0..29
    rows_b = np.arange(5, 35)  # fit b saw 5..34; both saw 5..29
    # a ranks 0..4 (not in b) first, then 5..; b ranks 30..34 (not in a) first, then 5..
    idx_a = np.arange(0, 20)[None, :]
    idx_b = np.r_[np.arange(25, 30), np.arange(0, 15)][None, :]
    assert ls.sample_overlap([(rows_a, idx_a), (rows_b, idx_b)]) == [1.0]
    shifted = np.r_[np.arange(25, 30), np.arange(5, 20)][None, :]  # b's shared: 10..24
    assert ls.sample_overlap([(rows_a, idx_a), (rows_b, shifted)]) == [(k - 5) / k]


def test_binary_scale_variant_puts_yes_and_no_two_units_apart():
    """bench.binary_scale (DEFAULTS.md round 30): a rare yes/no's answers 2 units apart,
    the other features standardised as always, and only while its fit runs."""
    from bench.binary_scale import BalancedBinaries, balanced_standardizer, binary_columns
    from sparge.estimator import completion
    from sparge.method.preprocess import fit_standardizer

    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=200), (rng.random(200) < 0.09).astype(float)])
    X[3, 1] = np.nan
    assert binary_columns(X).tolist() == [1]
    mean, scale = balanced_standardizer(X)
    assert scale[1] == 0.5 and scale[0] == fit_standardizer(X)[1][0]
    y = np.where(X[:, 0] > 0, "a", "b")
    m = BalancedBinaries(n_atoms=4, max_iter=0, forest_weight=0, random_state=0).fit(X, y)
    assert m.scale_[1] == 0.5 and completion.fit_standardizer is fit_standardizer
