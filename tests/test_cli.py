"""The command-line interface end to end, in fresh processes."""

import json
import subprocess
import sys

import pandas as pd
import pytest
from conftest import ROOT, SAMPLES

SMALL = str(SAMPLES / "singheart_small.csv")
ONE = str(SAMPLES / "new_patient.csv")


def run(*args, check_rc=None):
    proc = subprocess.run([sys.executable, "-m", "sparge", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    if check_rc is not None:
        assert proc.returncode == check_rc, proc.stderr
    return proc


def test_validate_text_and_json():
    p = run("validate", SMALL, "--id", "Subject ID", "--label", "Outcome", check_rc=0)
    assert "Read 60 patients" in p.stdout and "Nothing blocks training" in p.stdout
    p = run("validate", SMALL, "--id", "Subject ID", "--label", "Outcome", "--json",
            check_rc=0)
    rep = json.loads(p.stdout)
    assert rep["n_rows"] == 60 and rep["roles"]["Outcome"] == "label"


def test_encode_writes_numbers_and_table(tmp_path):
    out, table = tmp_path / "enc.csv", tmp_path / "table.csv"
    run("encode", SMALL, "--id", "Subject ID", "--label", "Outcome", "-o", str(out),
        "--table", str(table), check_rc=0)
    enc = pd.read_csv(out)
    assert enc.shape[0] == 60 and "Outcome" not in enc.columns
    assert enc.drop(columns=["Subject ID"]).dtypes.map(lambda d: d.kind == "f").all()
    assert "Marital Status" in table.read_text()


def test_train_then_similar_round_trip_in_fresh_processes(tmp_path):
    model = tmp_path / "m.sparge"
    run("train", str(SAMPLES / "singheart_synthetic.csv"), "--id", "Subject ID", "--label",
        "Outcome", "-o", str(model), check_rc=0)
    a = run("similar", str(model), ONE, "-k", "10", "--format", "json", check_rc=0)
    b = run("similar", str(model), ONE, "-k", "10", "--format", "json", check_rc=0)
    ta, tb = json.loads(a.stdout), json.loads(b.stdout)
    assert len(ta) == 10 and [r["ID"] for r in ta] == [r["ID"] for r in tb]
    assert {"distance", "similarity", "sparse_weight", "outcome"} <= set(ta[0])
    # the same look-alikes as the model in this process
    from sparge import load_model, read_table
    from sparge.workflow import encode_new_patients, lookalike_table
    m, enc = load_model(model)
    X, _ = encode_new_patients(m, enc, read_table(ONE))
    assert lookalike_table(m, X, n_neighbors=10)["ID"].tolist() == [r["ID"] for r in ta]


def test_compare_prints_table(tmp_path):
    p = run("compare", SMALL, "--id", "Subject ID", "--label", "Outcome", "--splits", "2",
            "--max-missing", "0.5", "--format", "csv", check_rc=0)
    assert "SparGE" in p.stdout and "raw" in p.stdout and "GBDT" in p.stdout


@pytest.mark.parametrize("args, message", [
    (["validate", "does_not_exist.csv"], "File not found"),
    (["validate", SMALL, "--label", "Nope"], "not in the table"),
    (["similar", SMALL, ONE], "not a SparGE model"),
])
def test_bad_input_exit_code_2(args, message):
    p = run(*args)
    assert p.returncode == 2
    assert message in p.stderr and "Traceback" not in p.stderr
