"""sparge.services.distributed on a two-worker LocalCluster: a 100,000-patient synthetic
cohort embedded partition by partition and searched across partitions, checked against the
single-process path (encoder + model, exact search) on the same patients; the CLI's
``embed`` and ``similar --cohort``; bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT

from sparge import load_model, save_model
from sparge.data.synthetic import core_columns, make_cohort_rows, write_partitioned_cohort
from sparge.errors import DataError
from sparge.method.similarity import ensemble_sqdist, self_expressive_weights
from sparge.services.distributed import cohort_lookalikes, dask_client, embed_cohort
from sparge.services.embedded_cohort import MANIFEST, read_manifest
from sparge.services.workflow import encode_cohort, train

pytest.importorskip("distributed")
pytest.importorskip("pyarrow")
# dask's Parquet reader still passes inplace= to reset_index (pandas 3.1 deprecates it)
pytestmark = pytest.mark.filterwarnings(
    "ignore:The inplace keyword in DataFrame.reset_index:DeprecationWarning")

N, PART = 100_000, 10_000  # 10 partitions: the look-alike merge runs as a tree (8 + 2)
SUBSET = 10_000
SEED = 7
COLUMNS = core_columns()[:24]
#: A small, fast model (the search and the plumbing are under test, not its quality).
PARAMS = {"max_iter": 0, "forest_trees": 10, "n_atoms": 8, "max_rank": 6, "n_components": 4,
          "ksvd_iter": 1}


def rows(start, stop, seed=SEED):
    return make_cohort_rows(start, stop, random_state=seed, columns=COLUMNS)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("distributed")


@pytest.fixture(scope="module")
def model_file(work):
    """Trained on other patients (another seed), saved with its encoder."""
    cohort = encode_cohort(rows(0, 2000, seed=SEED + 1), id_column="Subject ID",
                           label_column="Outcome")
    path = work / "model.sparge"
    save_model(path, train(cohort, PARAMS), encoder=cohort.encoder)
    return path


@pytest.fixture(scope="module")
def client():
    # Two single-threaded workers in this process, reachable over TCP (the CLI test
    # connects to them with --scheduler, as to a cluster on other machines).
    with dask_client(n_workers=2, processes=False, protocol="tcp://",
                     host="127.0.0.1") as c:
        yield c


@pytest.fixture(scope="module")
def embedded(work, model_file, client):
    src = work / "cohort"
    write_partitioned_cohort(src, N, PART, random_state=SEED, columns=COLUMNS)
    seen = []
    summary = embed_cohort(model_file, src, work / "embedded", client=client,
                           progress=lambda *a: seen.append(a))
    return summary, seen


def read_embedded(folder) -> pd.DataFrame:
    man = read_manifest(folder)
    return pd.concat([pd.read_parquet(folder / f) for f in man.files], ignore_index=True)


def single_process(model_file, df):
    """The single-process path: encoder + model on the whole table at once, the patients
    with at least one value the model knows (the others are not embedded)."""
    model, enc = load_model(model_file)
    X = pd.DataFrame(enc.transform(df), columns=enc.feature_names_out_)
    known = X.notna().any(axis=1).to_numpy()
    Y, L = model.lookalike_parts(X[known])
    return model, enc, X[known], Y, L, df[known]


def test_embedding_equals_the_single_process_path_on_a_subset(embedded, model_file, work):
    summary, seen = embedded
    man = summary.manifest
    assert man.n_patients + man.skipped_no_value == N and len(man.files) == N // PART
    assert man.skipped_no_value < 20 and any("left out" in n for n in summary.notes)
    assert man.id_column == "Subject ID" and man.outcome_column == "Outcome"
    assert man.n_trees == PARAMS["forest_trees"] and man.n_components == 4
    assert seen[-1] == (N // PART, N // PART, man.n_patients)
    assert summary.patients_per_second > 0
    emb = read_embedded(work / "embedded").set_index("ID", drop=False)
    assert emb.index.is_unique and len(emb) == man.n_patients
    lo = 15_000  # spans the first two partitions' boundary
    model, enc, _, Y, L, df = single_process(model_file, rows(lo, lo + SUBSET))
    got = emb.loc[df["Subject ID"]]
    assert got["outcome"].tolist() == list(enc.labels(df))
    np.testing.assert_allclose(got[man.embedding_columns].to_numpy(), Y, rtol=0, atol=1e-12)
    assert np.array_equal(got[man.leaf_columns].to_numpy(), L)


def _queries():
    new = rows(0, 6, seed=SEED + 2)  # new patients
    new["Subject ID"] = [f"Q{i}" for i in range(len(new))]
    cohort_patient = rows(1234, 1235)  # a patient of the cohort: not its own look-alike
    df = pd.concat([new, cohort_patient], ignore_index=True)
    return df


def test_lookalikes_equal_an_exact_single_process_search(work, model_file, client):
    # The cohort's first 10,000 patients, embedded on the cluster, against the single-process
    # path on the same patients: encoder + model, exact search, the model's weights.
    src = work / "subset"
    write_partitioned_cohort(src, SUBSET, 2_500, random_state=SEED, columns=COLUMNS)
    embed_cohort(model_file, src, work / "subset_embedded", client=client)
    k = 10
    queries = _queries()
    model, enc, Xq, Yq, Lq, _ = single_process(model_file, queries)
    ids_q = list(queries["Subject ID"])
    res = cohort_lookalikes(model, Xq, work / "subset_embedded", n_neighbors=k,
                            query_ids=ids_q, client=client)

    _, _, _, Y, L, df = single_process(model_file, rows(0, SUBSET))
    d2 = ensemble_sqdist(Yq, Y, Lq, L, model.forest_scale_)
    own = df["Subject ID"].to_numpy()[None, :] == np.asarray(ids_q)[:, None]
    assert own.sum() == 1
    d2[own] = np.inf
    idx = np.argsort(d2, axis=1, kind="stable")[:, :k]
    dist = np.sqrt(np.take_along_axis(d2, idx, 1))
    W = self_expressive_weights(Yq, Y, idx)
    weights = np.asarray(W[np.repeat(np.arange(len(Yq)), k), idx.ravel()]).ravel()

    t = res.table
    assert list(t.columns) == ["query", "rank", "ID", "distance", "similarity",
                               "sparse_weight", "outcome"]
    assert t["query"].tolist() == list(np.repeat(ids_q, k))
    assert t["ID"].tolist() == list(df["Subject ID"].to_numpy()[idx].ravel())
    np.testing.assert_allclose(t["distance"], dist.ravel(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(t["similarity"], model.similarity(dist).ravel(), rtol=1e-12)
    np.testing.assert_allclose(t["sparse_weight"], weights, atol=1e-9)
    np.testing.assert_allclose(t.groupby("query", sort=False)["sparse_weight"].sum(), 1.0)
    labels = np.asarray(enc.labels(df), dtype=object)[idx]
    assert t["outcome"].tolist() == list(labels.ravel())
    for i, q in enumerate(ids_q):
        expected = pd.Series(labels[i]).value_counts(normalize=True)
        got = res.outcome_shares.loc[q]
        assert np.allclose(got[expected.index], expected) and np.isclose(got.sum(), 1.0)
    assert res.n_patients == len(df)


def test_search_across_ten_partitions_equals_an_exact_search(embedded, model_file, work,
                                                              client):
    queries = _queries()
    model, _, Xq, Yq, Lq, _ = single_process(model_file, queries)
    res = cohort_lookalikes(model, Xq, work / "embedded", n_neighbors=25, client=client)
    emb = read_embedded(work / "embedded")
    man = embedded[0].manifest
    d2 = ensemble_sqdist(Yq, emb[man.embedding_columns].to_numpy(), Lq,
                         emb[man.leaf_columns].to_numpy(), man.forest_scale)
    idx = np.argsort(d2, axis=1, kind="stable")[:, :25]
    assert res.table["ID"].tolist() == list(emb["ID"].to_numpy()[idx].ravel())
    np.testing.assert_allclose(res.table["distance"],
                               np.sqrt(np.take_along_axis(d2, idx, 1)).ravel(), rtol=1e-12)
    # without query IDs the cohort patient finds itself first, at distance 0
    assert res.table["ID"].iloc[6 * 25] == "SH0001235"
    assert res.table["distance"].iloc[6 * 25] == pytest.approx(0, abs=1e-6)


def test_csv_partitions_embed_as_the_parquet_ones(embedded, model_file, work, client):
    src = work / "csv"
    write_partitioned_cohort(src, 3000, 1000, fmt="csv", random_state=SEED, columns=COLUMNS)
    embed_cohort(model_file, src, work / "csv_embedded", client=client)
    got = read_embedded(work / "csv_embedded")
    ref = read_embedded(work / "embedded").iloc[:3000]
    pd.testing.assert_frame_equal(got, ref.reset_index(drop=True), rtol=0, atol=1e-12)


def test_id_and_outcome_columns_found_by_name_or_given(work, model_file, client):
    src = work / "renamed"
    src.mkdir()
    df = rows(0, 300).rename(columns={"Subject ID": " subject  ID", "Outcome": "OUTCOME"})
    df.to_parquet(src / "a.parquet")
    summary = embed_cohort(model_file, src, work / "renamed_embedded", client=client)
    got = read_embedded(work / "renamed_embedded")
    assert got["ID"].iloc[0] == "SH0000001" and summary.manifest.outcome_column == "Outcome"
    assert set(got["outcome"]) == {"low", "medium", "high"}
    df.rename(columns={" subject  ID": "PatientKey", "OUTCOME": "Risk"}).to_parquet(
        src / "a.parquet")
    with pytest.raises(DataError, match="no patient ID column 'Subject ID'"):
        embed_cohort(model_file, src, work / "renamed2", client=client)
    summary = embed_cohort(model_file, src, work / "renamed2", client=client,
                           id_column="PatientKey", label_column="Risk")
    got2 = read_embedded(work / "renamed2")
    pd.testing.assert_frame_equal(got2, got)
    assert summary.manifest.id_column == "PatientKey"


def test_a_failing_partition_is_reported_and_leaves_no_files(work, model_file, client):
    src = work / "broken"
    write_partitioned_cohort(src, 3000, 1000, fmt="csv", random_state=SEED, columns=COLUMNS)
    lines = (src / "part-00001.csv").read_text().splitlines()
    lines[4] += ",1,2,3"  # more fields than the header
    (src / "part-00001.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match="part-00001.csv: 1 row"):
        embed_cohort(model_file, src, work / "broken_embedded", client=client)
    assert list((work / "broken_embedded").iterdir()) == []


def test_files_with_other_columns_are_refused(work, model_file, client):
    for fmt in ("csv", "parquet"):
        src = work / f"mixed_{fmt}"
        write_partitioned_cohort(src, 200, 100, fmt=fmt, random_state=SEED, columns=COLUMNS)
        last = src / f"part-00001.{fmt}"
        read, write = ((pd.read_csv, lambda d, p: d.to_csv(p, index=False)) if fmt == "csv"
                       else (pd.read_parquet, lambda d, p: d.to_parquet(p)))
        write(read(last).drop(columns=[COLUMNS[3]]), last)
        with pytest.raises(DataError, match="part-00001.* lacks 1 column.* same"):
            embed_cohort(model_file, src, work / f"mixed_{fmt}_out", client=client)


def test_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(DataError, match="Cannot connect to the Dask scheduler"):
        with dask_client("tcp://127.0.0.1:9", timeout=0.5):
            pass


# ---------------------------------------------------------------- the command line
def run(*args):
    return subprocess.run([sys.executable, "-m", "sparge", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_cli_embed_then_similar_on_a_cluster_by_address(work, model_file, client, embedded):
    src = work / "cli_cohort"
    write_partitioned_cohort(src, 4000, 1000, fmt="csv", random_state=SEED, columns=COLUMNS)
    out = work / "cli_embedded"
    address = client.scheduler_info()["address"]
    p = run("embed", model_file, src, "-o", out, "--scheduler", address)
    assert p.returncode == 0, p.stderr
    assert "partition 4 of 4 done (4,000 patients embedded)" in p.stderr
    assert "Embedded 4,000 patients in 4 file(s)" in p.stderr
    assert (out / MANIFEST).is_file()
    queries = _queries()
    qfile = work / "queries.csv"
    queries.drop(columns=["Outcome"]).to_csv(qfile, index=False)
    p = run("similar", model_file, qfile, "--cohort", out, "-k", "5", "--format", "json",
            "--scheduler", address)
    assert p.returncode == 0, p.stderr
    table = pd.DataFrame(json.loads(p.stdout))
    assert list(table.columns) == ["query", "rank", "ID", "distance", "similarity",
                                   "sparse_weight", "outcome"]
    assert len(table) == 5 * len(queries) and "SH0001235" not in set(table["ID"])
    assert "outcome among the look-alikes of Q0:" in p.stderr
    model, _, Xq, _, _, _ = single_process(model_file, queries)
    res = cohort_lookalikes(model, Xq, out, n_neighbors=5,
                            query_ids=list(queries["Subject ID"]), client=client)
    assert table["ID"].tolist() == res.table["ID"].tolist()
    np.testing.assert_allclose(table["distance"], res.table["distance"], rtol=1e-9)


def main_in(capsys, *args):
    from sparge.cli import main

    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture(scope="module")
def bad_inputs(work, model_file):
    d = work / "bad"
    d.mkdir()
    (d / "empty").mkdir()
    write_partitioned_cohort(d / "noid", 50, 50, random_state=SEED, columns=COLUMNS)
    df = pd.read_parquet(d / "noid" / "part-00000.parquet").drop(columns=["Subject ID"])
    df.to_parquet(d / "noid" / "part-00000.parquet")
    (d / "corrupt").mkdir()
    (d / "corrupt" / "part-00000.parquet").write_bytes(b"PAR1 not really parquet")
    (d / "full").mkdir()
    (d / "full" / "notes.txt").write_text("someone else's file")
    model, _ = load_model(model_file)
    save_model(d / "no_encoder.sparge", model)
    other = encode_cohort(rows(0, 600, seed=SEED + 3), id_column="Subject ID",
                          label_column="Outcome")
    save_model(d / "other.sparge", train(other, PARAMS), encoder=other.encoder)
    (d / "half").mkdir()
    (d / "half" / "part-00000.parquet").write_bytes(b"")
    rows(0, 2, seed=SEED + 2).drop(columns=["Outcome"]).to_csv(d / "q.csv", index=False)
    return d


@pytest.mark.parametrize("args, message", [
    (["embed", "{d}/q.csv", "{src}", "-o", "{d}/o1"], "not a SparGE model"),
    (["embed", "{d}/no_encoder.sparge", "{src}", "-o", "{d}/o2"], "has no encoder"),
    (["embed", "{model}", "{d}/nowhere", "-o", "{d}/o3"], "does not exist"),
    (["embed", "{model}", "{d}/empty", "-o", "{d}/o4"], "holds no .parquet or .csv"),
    (["embed", "{model}", "{d}/noid", "-o", "{d}/o5"], "no patient ID column 'Subject ID'"),
    (["embed", "{model}", "{d}/corrupt", "-o", "{d}/o6"], "Cannot read the cohort"),
    (["embed", "{model}", "{src}", "-o", "{d}/full"], "is not empty"),
    (["embed", "{model}", "{src}", "-o", "{d}/o7", "--scheduler", "x", "--workers", "2"],
     "--workers sizes the local cluster"),
    (["similar", "{model}", "{d}/q.csv", "--cohort", "{d}/nowhere"], "does not exist"),
    (["similar", "{model}", "{d}/q.csv", "--cohort", "{d}/half"],
     "not a complete embedded cohort"),
    (["similar", "{d}/other.sparge", "{d}/q.csv", "--cohort", "{emb}"], "another model"),
    (["similar", "{model}", "{d}/q.csv", "--scheduler", "tcp://h:1"], "go with --cohort"),
])
def test_bad_input_exit_code_2(capsys, bad_inputs, model_file, work, embedded, args,
                               message):
    fill = {"d": bad_inputs, "model": model_file, "src": work / "cohort",
            "emb": work / "embedded"}
    rc, _, err = main_in(capsys, *[a.format(**fill) for a in args])
    assert rc == 2, err
    assert message in err and "Traceback" not in err


def test_the_library_and_the_cli_load_dask_only_when_used():
    code = ("import sys, sparge, sparge.cli, sparge.services.distributed, "
            "sparge.services.workflow; print('dask' in sys.modules, 'distributed' in "
            "sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120).stdout.split()
    assert out == ["False", "False"]
