"""The command-line interface: end to end in fresh processes (a round trip, an exit
code), the rest in process (each fresh process paid seconds of imports)."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT, SAMPLES

SMALL = str(SAMPLES / "singheart_small.csv")
ONE = str(SAMPLES / "new_patient.csv")


def run(*args, check_rc=None):
    proc = subprocess.run([sys.executable, "-m", "sparge", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    if check_rc is not None:
        assert proc.returncode == check_rc, proc.stderr
    return proc


def test_validate_text_and_json(capsys):
    rc, out, _ = main_in(capsys, "validate", SMALL, "--id", "Subject ID", "--label", "Outcome")
    assert rc == 0 and "Read 60 patients" in out and "Nothing blocks training" in out
    rc, out, _ = main_in(capsys, "validate", SMALL, "--id", "Subject ID", "--label", "Outcome",
                         "--json")
    rep = json.loads(out)
    assert rc == 0 and rep["n_rows"] == 60 and rep["roles"]["Outcome"] == "label"


def test_encode_writes_numbers_and_table(tmp_path, capsys):
    out, table = tmp_path / "enc.csv", tmp_path / "table.csv"
    rc, _, err = main_in(capsys, "encode", SMALL, "--id", "Subject ID", "--label", "Outcome",
                         "-o", out, "--table", table)
    assert rc == 0, err
    enc = pd.read_csv(out)
    assert enc.shape[0] == 60 and "Outcome" not in enc.columns
    assert enc.drop(columns=["Subject ID"]).dtypes.map(lambda d: d.kind == "f").all()
    assert "Marital Status" in table.read_text()


def test_train_then_similar_round_trip_in_fresh_processes(tmp_path):
    model = tmp_path / "m.sparge"
    # the small sample: the round trip is the point, not a large model (the bundled one,
    # 683 patients, made this test 29 s)
    run("train", SMALL, "--id", "Subject ID", "--label", "Outcome", "--max-missing", "0.5",
        "-o", str(model), check_rc=0)
    a = run("similar", str(model), ONE, "-k", "10", "--format", "json", check_rc=0)
    b = run("similar", str(model), ONE, "-k", "10", "--format", "json", check_rc=0)
    ta, tb = json.loads(a.stdout), json.loads(b.stdout)
    assert len(ta) == 10 and [r["ID"] for r in ta] == [r["ID"] for r in tb]
    assert {"distance", "similarity", "sparse_weight", "outcome"} <= set(ta[0])
    # the same look-alikes as the model in this process
    from sparge import load_model, read_table
    from sparge.services.workflow import encode_new_patients, lookalike_table
    m, enc = load_model(model)
    X, _ = encode_new_patients(m, enc, read_table(ONE))
    assert lookalike_table(m, X, n_neighbors=10)["ID"].tolist() == [r["ID"] for r in ta]


def test_a_model_learned_without_the_outcome_trains_warns_and_loads(tmp_path, capsys):
    """A library review: `train` without --label used 'Outcome' as a feature without a
    word, and `similar` on the saved model said "internal error (KeyError)"."""
    model = tmp_path / "u.sparge"
    rc, _, err = main_in(capsys, "train", SMALL, "--id", "Subject ID", "--max-missing", "0.5",
                         "-o", model)
    assert rc == 0 and "column 'Outcome' looks like the outcome" in err
    rc, out, err = main_in(capsys, "similar", model, ONE, "-k", "3", "--format", "json")
    assert rc == 0 and len(json.loads(out)) == 3, err


def test_compare_prints_table(capsys):
    rc, out, err = main_in(capsys, "compare", SMALL, "--id", "Subject ID", "--label", "Outcome",
                           "--splits", "2", "--max-missing", "0.5", "--format", "csv")
    assert rc == 0, err
    assert "SparGE" in out and "raw" in out and "GBDT" in out


def test_bad_input_exits_with_code_2_in_a_fresh_process():
    p = run("validate", "does_not_exist.csv")
    assert p.returncode == 2
    assert "File not found" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("args, message", [
    (["validate", SMALL, "--label", "Nope"], "not in the table"),
    (["similar", SMALL, ONE], "not a SparGE model"),
])
def test_bad_input_exit_code_2(capsys, args, message):
    rc, _, err = main_in(capsys, *args)
    assert rc == 2
    assert message in err and "Traceback" not in err


# ---------------------------------------------------------------- issue 10 (in process: fast)
ESC = "\x1b[31m\x1b]0;owned\x07"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def main_in(capsys, *args):
    from sparge.cli import main

    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def _cohort_csv(path, n=40, id_prefix="P", extra_name="bmi", one_class=False, seed=0):
    rng = np.random.default_rng(seed)
    rows = ["id,age,sbp," + extra_name + ",smoker,outcome"]
    for i in range(n):
        y = 0 if one_class else i % 2
        rows.append(f"{id_prefix}{i},{rng.normal(50 + 9 * y, 5):.0f},"
                    f"{rng.normal(120 + 12 * y, 8):.0f},{rng.normal(26, 3):.1f},"
                    f"{['yes', '=1+1', '@x'][i % 3]},{['alive', 'dead'][y]}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _formula_cells(text):
    import csv
    import io
    import re

    number = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
    return [c for row in csv.reader(io.StringIO(text)) for c in row
            if c.startswith(FORMULA_START) and not number.match(c.strip())]


def test_every_csv_the_cli_writes_is_formula_safe(tmp_path, capsys):
    data = _cohort_csv(tmp_path / "c.csv", id_prefix="=cmd|calc!A", extra_name="@bmi")
    out, table = tmp_path / "enc.csv", tmp_path / "table.csv"
    rc, _, err = main_in(capsys, "encode", data, "--id", "id", "--label", "outcome",
                         "-o", out, "--table", table)
    assert rc == 0, err
    for written in (out, table):
        text = written.read_text(encoding="utf-8")
        assert _formula_cells(text) == []
    assert "'=cmd|calc!A1" in out.read_text() and "'@bmi" in out.read_text()
    assert "'=1+1" in table.read_text() and "'@x" in table.read_text()
    # encode to stdout and similar --format csv, with a hostile query ID
    rc, stdout, _ = main_in(capsys, "encode", data, "--id", "id", "--label", "outcome")
    assert rc == 0 and _formula_cells(stdout) == [] and "'=cmd|calc!A1" in stdout
    query = tmp_path / "q.csv"
    lines = (SAMPLES / "new_patient.csv").read_text().splitlines()
    query.write_text(lines[0] + "\n" + "-cmd|' /C calc'!A0" + lines[1][lines[1].index(","):]
                     + "\n")
    rc, stdout, err = main_in(capsys, "similar", SAMPLES / "default_model.sparge", query,
                              "-k", "3", "--format", "csv")
    assert rc == 0, err
    assert _formula_cells(stdout) == [] and "'-cmd|" in stdout


def test_escape_codes_never_reach_the_terminal(tmp_path, capsys):
    data = _cohort_csv(tmp_path / "c.csv", id_prefix=f"P{ESC}", extra_name=f"bmi{ESC}")
    model = tmp_path / "m.sparge"
    rc1, out1, err1 = main_in(capsys, "validate", data, "--id", "id", "--label", "outcome")
    rc2, out2, err2 = main_in(capsys, "train", data, "--id", "id", "--label", "outcome",
                              "-o", model, "--params", '{"max_iter": 1, "n_components": 4}')
    query = tmp_path / "q.csv"
    query.write_text(data.read_text(encoding="utf-8").splitlines()[0] + "\n" +
                     data.read_text(encoding="utf-8").splitlines()[5] + "\n", encoding="utf-8")
    rc3, out3, err3 = main_in(capsys, "similar", model, query, "-k", "5", "--format", "table")
    assert (rc1, rc2, rc3) == (0, 0, 0), err1 + err2 + err3
    everything = out1 + err1 + out2 + err2 + out3 + err3
    assert "bmi[31m" in everything  # the name is shown, minus its escape characters
    assert "\x1b" not in everything and "\x07" not in everything
    assert "P[31m]0;owned4" in out3  # look-alike IDs from the model file too


def test_encode_exits_2_when_the_report_has_a_problem(tmp_path, capsys):
    data = _cohort_csv(tmp_path / "c.csv", one_class=True)
    out = tmp_path / "enc.csv"
    rc, _, err = main_in(capsys, "encode", data, "--id", "id", "--label", "outcome", "-o", out)
    assert rc == 2 and "PROBLEM" in err and "error:" in err
    assert out.exists()  # what was asked for is still written
    rc, _, err = main_in(capsys, "encode", data, "--id", "id", "-o", out)
    assert rc == 0, err


def test_train_refuses_past_the_limit_unless_forced(tmp_path, capsys, monkeypatch):
    import sparge.cli as cli
    from sparge.services.resources import Limits, estimate_fit

    monkeypatch.setattr(cli, "estimate_fit",
                        lambda n, m: estimate_fit(n, m, Limits(max_seconds=1e-3, max_bytes=10**12)))
    data = _cohort_csv(tmp_path / "c.csv")
    model = tmp_path / "m.sparge"
    args = ("train", data, "--id", "id", "--label", "outcome", "-o", model, "--params",
            '{"max_iter": 1, "n_components": 4}')
    rc, _, err = main_in(capsys, *args)
    assert rc == 2 and not model.exists()
    assert "exceeds the limit" in err and "--force" in err and "sample" in err
    rc, _, err = main_in(capsys, *args, "--force")
    assert rc == 0 and model.exists(), err
    # progress on every long step
    for step in ("reading", "encoding", "estimate:", "training", "saving", "refinement"):
        assert step in err, step


def test_reading_guard_and_memory_error_exit_2(tmp_path, capsys, monkeypatch):
    import sparge.cli as cli

    data = _cohort_csv(tmp_path / "c.csv")
    monkeypatch.setattr(cli, "estimate_read", lambda n_bytes: 10**15)
    rc, _, err = main_in(capsys, "validate", data, "--id", "id")
    assert rc == 2 and "memory" in err and "--force" in err
    rc, _, err = main_in(capsys, "validate", data, "--id", "id", "--force")
    assert rc == 0, err

    def out_of_memory(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(cli, "encode_cohort", out_of_memory)
    rc, _, err = main_in(capsys, "validate", data, "--id", "id", "--force")
    assert rc == 2 and "not enough memory" in err and "internal error" not in err


def test_similar_reports_progress_per_batch(tmp_path, capsys, monkeypatch):
    import sparge.cli as cli

    monkeypatch.setattr(cli, "_QUERY_BATCH", 2)
    lines = (SAMPLES / "new_patient.csv").read_text().splitlines()
    row = lines[1][lines[1].index(","):]
    query = tmp_path / "q.csv"
    query.write_text(lines[0] + "\n" + "".join(f"N{i}{row}\n" for i in range(5)))
    rc, out, err = main_in(capsys, "similar", SAMPLES / "default_model.sparge", query, "-k",
                           "2", "--format", "json")
    assert rc == 0, err
    assert "patients 1-2 of 5" in err and "patients 5-5 of 5" in err
    assert len(json.loads(out)) == 10


@pytest.mark.parametrize("params, message", [
    ('{"k1": -1}', "Parameter 'k1' must be an integer >= 1"),
    ('{"bogus": 1}', "Unknown SparGE parameter 'bogus'"),
    ('{"r2": "abc"}', "Parameter 'r2' must be a number >= 0"),
    ('[1]', "must be a JSON object"),
    ('{nope', "not valid JSON"),
])
def test_train_checks_params_and_output_before_reading(tmp_path, capsys, monkeypatch, params,
                                                       message):
    import sparge.cli as cli

    def must_not_read(*args, **kwargs):
        raise AssertionError("read before the arguments were checked")

    monkeypatch.setattr(cli, "_read", must_not_read)
    rc, _, err = main_in(capsys, "train", "x.csv", "-o", tmp_path / "m.sparge",
                         "--params", params)
    assert rc == 2 and message in err
    rc, _, err = main_in(capsys, "train", "x.csv", "-o", tmp_path / "no" / "m.sparge")
    assert rc == 2 and "not writable" in err


def test_number_of_lookalikes_must_be_positive(capsys):
    with pytest.raises(SystemExit) as info:
        main_in(capsys, "similar", "m.sparge", "p.csv", "-k", "0")
    assert info.value.code == 2


def test_compare_refuses_past_the_limit_unless_forced(tmp_path, capsys, monkeypatch):
    import sparge.cli as cli
    from sparge.services.resources import Limits, estimate_fit

    monkeypatch.setattr(cli, "estimate_fit",
                        lambda n, m: estimate_fit(n, m, Limits(max_seconds=1e-3, max_bytes=10**12)))
    data = _cohort_csv(tmp_path / "c.csv")
    rc, _, err = main_in(capsys, "compare", data, "--id", "id", "--label", "outcome",
                         "--splits", "2")
    assert rc == 2 and "fewer --splits" in err and "--force" in err


def test_the_default_threshold_is_the_apps(tmp_path, capsys):
    # 4 feature columns: one gap is 25 % of a patient's values. The app starts just above
    # one gap; the CLI left such a patient out at the paper's 10 % before.
    df = pd.DataFrame({"id": [f"P{i}" for i in range(30)],
                       **{f"x{j}": np.arange(30.0) * (j + 1) for j in range(4)},
                       "outcome": ["a", "b"] * 15})
    df.loc[[3, 7], "x1"] = np.nan
    df.loc[11, ["x1", "x2"]] = np.nan  # two gaps: 50 %, left out
    path = tmp_path / "c.csv"
    df.to_csv(path, index=False)
    rc, out, err = main_in(capsys, "validate", path, "--id", "id", "--label", "outcome",
                           "--json")
    assert rc == 0, err
    assert [p["id"] for p in json.loads(out)["patients_dropped"]] == ["P11"]
    rc, out, err = main_in(capsys, "validate", path, "--id", "id", "--label", "outcome",
                           "--json", "--max-missing", "0.1")
    assert [p["id"] for p in json.loads(out)["patients_dropped"]] == ["P3", "P7", "P11"]
