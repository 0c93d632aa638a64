"""Look-alikes among an embedded cohort held in memory (sparge.services.cohort_index)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import load_model, save_model
from sparge.data.synthetic import core_columns, make_cohort_rows, write_partitioned_cohort
from sparge.errors import DataError
from sparge.services.cohort_index import CohortIndex
from sparge.services.workflow import encode_cohort, train

pytest.importorskip("distributed")
pytest.importorskip("pyarrow")
pytestmark = pytest.mark.filterwarnings(
    "ignore:The inplace keyword in DataFrame.reset_index:DeprecationWarning")

COLUMNS = core_columns()[:24]
PARAMS = {"max_iter": 0, "forest_trees": 10, "n_atoms": 8, "max_rank": 6, "n_components": 4,
          "ksvd_iter": 1}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from sparge.services.distributed import dask_client, embed_cohort

    work = tmp_path_factory.mktemp("cohort_index")
    cohort = encode_cohort(make_cohort_rows(0, 1500, random_state=3, columns=COLUMNS),
                           id_column="Subject ID", label_column="Outcome")
    path = work / "model.sparge"
    save_model(path, train(cohort, PARAMS), encoder=cohort.encoder)
    write_partitioned_cohort(work / "src", 6000, 2000, random_state=4, columns=COLUMNS)
    with dask_client(n_workers=1, processes=False) as client:
        embed_cohort(path, work / "src", work / "emb", client=client)
        model, enc = load_model(path)
        queries = make_cohort_rows(0, 30, random_state=4, columns=COLUMNS)  # cohort patients
        X = pd.DataFrame(enc.transform(queries), columns=enc.feature_names_out_)
        from sparge.services.distributed import cohort_lookalikes

        ids = queries["Subject ID"].astype(str).tolist()
        truth = cohort_lookalikes(model, X, work / "emb", query_ids=ids, client=client)
    return work, model, X, ids, truth


def test_exact_index_gives_the_distributed_search(setup):
    work, model, X, ids, truth = setup
    index = CohortIndex(work / "emb", model)
    assert index.n_patients_ == index.manifest_.n_patients > 5900 and index.method_ == "exact"
    table, shares = index.lookalikes(X, query_ids=ids)
    assert list(table["ID"]) == list(truth.table["ID"])
    assert not set(zip(table["query"], table["ID"])) & {(i, i) for i in ids}  # not itself
    np.testing.assert_allclose(table["distance"], truth.table["distance"], atol=1e-9)
    np.testing.assert_allclose(table["sparse_weight"], truth.table["sparse_weight"],
                               atol=1e-8)
    pd.testing.assert_frame_equal(shares, truth.outcome_shares, check_dtype=False)


def test_approximate_index_recall(setup):
    work, model, X, ids, truth = setup
    index = CohortIndex(work / "emb", model, threshold=1000)
    assert index.method_ == "approximate"
    table, _ = index.lookalikes(X, query_ids=ids)
    got = table.groupby("query")["ID"].apply(set)
    want = truth.table.groupby("query")["ID"].apply(set)
    recall = np.mean([len(got[q] & want[q]) / len(want[q]) for q in want.index])
    assert recall >= 0.95, recall


def test_another_model_is_refused(setup, tmp_path):
    work, model, *_ = setup
    other = encode_cohort(make_cohort_rows(0, 500, random_state=9, columns=COLUMNS),
                          id_column="Subject ID", label_column="Outcome")
    with pytest.raises(DataError, match="another model"):
        CohortIndex(work / "emb", train(other, PARAMS))
    with pytest.raises(DataError, match="does not exist"):
        CohortIndex(tmp_path / "nothing", model)
