"""The SparGE estimator end to end: invariants, planted structure, determinism, sklearn."""


import numpy as np
import pandas as pd
import pytest
from helpers import planted_classes
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sparge import DataError, SparGE


@pytest.fixture(scope="module")
def fitted():
    X, y = planted_classes(n=400, missing=0.1)
    model = SparGE(random_state=0).fit(X[:300], y[:300])
    return model, X, y


def test_invariants_after_fit(fitted):
    model, X, y = fitted
    U = model.projection_
    np.testing.assert_allclose(U.T @ U, np.eye(U.shape[1]), atol=1e-8)
    norms = np.linalg.norm(model.dictionary_, axis=0)
    assert np.all(norms <= 1 + 1e-8) and np.all(norms > 0.99)
    assert np.mean(model.codes_ == 0) > 0.3  # codes are sparse
    assert model.embedding_.shape == (300, U.shape[1])
    assert model.n_features_in_ == X.shape[1]
    assert list(model.classes_) == [0, 1, 2]
    for h in model.history_:
        assert {"J", "reconstruction_error", "sparsity", "grad_norm"} <= set(h)


def test_recovers_planted_classes_where_raw_knn_fails(fitted):
    model, X, y = fitted
    Xi = np.where(np.isnan(X), np.nanmedian(X[:300], axis=0), X)
    sc = StandardScaler().fit(Xi[:300])
    raw = KNeighborsClassifier(5).fit(sc.transform(Xi[:300]), y[:300])
    raw_acc = balanced_accuracy_score(y[300:], raw.predict(sc.transform(Xi[300:])))
    ours = model.knn_balanced_accuracy(X[300:], y[300:])
    assert raw_acc < 0.8
    assert ours > 0.85
    assert ours > raw_acc + 0.1


def test_refinement_lowers_the_objective_on_training_patients():
    X, y = planted_classes(n=200)
    model = SparGE(early_stopping=False, max_iter=5, random_state=0).fit(X, y)
    hist = model.history_
    steps = [h for h in hist if h["step"] > 0]
    assert steps, "no refinement step was taken"
    for h in steps:
        assert h["J_after_step"] < h["J"]
    assert hist[-1]["J"] < hist[0]["J"]


def test_deterministic_under_random_state():
    X, y = planted_classes(n=150, missing=0.1)
    a = SparGE(random_state=3).fit(X, y).transform(X[:20])
    b = SparGE(random_state=3).fit(X, y).transform(X[:20])
    np.testing.assert_array_equal(a, b)


def test_a_random_state_generator_draws_one_seed_per_fit_and_the_file_keeps_it():
    """scikit-learn's convention: a RandomState (or Generator) is accepted; two fits from
    the same generator differ, two generators seeded alike give the same model, and the
    model's state carries the integer drawn, so a saved model loads as fitted."""
    X, y = planted_classes(n=120, m=20, noise_dims=14, missing=0.1)
    small = {"max_iter": 2, "forest_trees": 20}
    a = SparGE(random_state=np.random.RandomState(5), **small).fit(X, y)
    b = SparGE(random_state=np.random.RandomState(5), **small).fit(X, y)
    np.testing.assert_array_equal(a.transform(X[:10]), b.transform(X[:10]))
    first = a.get_state().params["random_state"]
    assert isinstance(first, int) and first == b.get_state().params["random_state"]
    second = a.fit(X, y).get_state().params["random_state"]
    assert isinstance(second, int) and second != first
    back = SparGE.from_state(a.get_state())
    assert back.random_state == second
    np.testing.assert_array_equal(back.kneighbors(X[:10])[1], a.kneighbors(X[:10])[1])
    g = SparGE(random_state=np.random.default_rng(1), **small).fit(X, y)
    assert isinstance(g.get_state().params["random_state"], int)
    with pytest.raises(ValueError, match="RandomState or Generator"):
        SparGE(random_state="seven").fit(X, y)


def test_nan_handling_and_missing_columns_for_new_patients(fitted):
    model, X, _ = fitted
    Xq = X[300:310].copy()
    Xq[:, :30] = np.nan
    Y = model.transform(Xq)
    assert np.all(np.isfinite(Y))
    one = np.full((1, X.shape[1]), np.nan)
    one[0, 0] = 1.0
    assert np.all(np.isfinite(model.transform(one)))


def test_r_style_na_gaps_are_plain_gaps(recwarn):
    # R's NA_real_ is a NaN with payload 1954 (what pyreadr/rpy2 hand over): same model,
    # no floating-point 'invalid' warnings, and the caller's array is left as it was
    X, y = planted_classes(n=120, m=10, noise_dims=4, seed=3)
    X[::7, 2] = np.nan
    X_r = X.copy()
    X_r.view(np.uint64)[::7, 2] = 0x7FF00000000007A2
    kept = X_r.copy()
    a = SparGE(max_iter=1, forest_trees=10, random_state=0).fit(X, y)
    b = SparGE(max_iter=1, forest_trees=10, random_state=0).fit(X_r, y)
    np.testing.assert_array_equal(a.embedding_, b.embedding_)
    np.testing.assert_array_equal(a.lookalikes(X[:4])[1], b.lookalikes(X_r[:4])[1])
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
    assert (X_r.view(np.uint64) == kept.view(np.uint64)).all()


def test_kneighbors_and_sparse_weights(fitted):
    model, X, y = fitted
    dist, idx = model.kneighbors(X[300:305], n_neighbors=10)
    assert dist.shape == idx.shape == (5, 10)
    assert np.all(np.diff(dist, axis=1) >= -1e-12)
    sim = model.similarity(dist)
    assert np.all((sim > 0) & (sim <= 1))
    d_self, i_self = model.kneighbors(None, n_neighbors=5)
    assert not np.any(i_self == np.arange(300)[:, None])
    W = model.sparse_weights(X[300:305])
    assert W.shape == (5, 300)
    assert W.nnz > 0 and W.min() >= 0
    np.testing.assert_allclose(np.asarray(W.sum(axis=1)).ravel(), 1.0, atol=1e-6)
    _, idx10 = model.kneighbors(X[300:305], n_neighbors=10)
    for r in range(5):  # only the listed look-alikes carry weight
        assert set(W[r].indices) <= set(idx10[r])


def test_explain_lists_agreeing_and_differing_features(fitted):
    model, X, _ = fitted
    table = model.explain(X[300], 0, n_features=4)
    assert set(table["relation"]) == {"agree", "differ"}
    agree = table[table.relation == "agree"]["difference"]
    differ = table[table.relation == "differ"]["difference"]
    assert agree.max() <= differ.min()


def test_unsupervised_mode():
    X, y = planted_classes(n=200, missing=0.1)
    model = SparGE(supervised=False, random_state=0).fit(X)
    Y = model.transform(X[:10])
    assert Y.shape[0] == 10 and np.all(np.isfinite(Y))
    assert not hasattr(model, "classes_")


def test_few_patients_without_the_outcome_get_a_usable_embedding():
    """A library review: unsupervised fits of 10 or 20 patients gave every patient the
    same embedding (every pair was a kNN pair; the non-local graph was empty)."""
    X, _ = planted_classes(n=60, missing=0.0)
    for n in (10, 20):
        model = SparGE(supervised=False, random_state=0).fit(X[:n])
        assert np.ptp(model.embedding_, axis=0).max() > 0.1
        d, _ = model.kneighbors(n_neighbors=3)
        assert np.all(np.isfinite(d)) and np.ptp(d) > 0


def test_bad_input_messages():
    X, y = planted_classes(n=50)
    with pytest.raises(DataError, match="looks continuous"):
        SparGE().fit(X, X[:, 0] * 1.7)
    with pytest.raises(DataError, match="mixes numbers and text"):
        SparGE().fit(X, np.array([1, "a"] * 25, dtype=object))
    with pytest.raises(DataError, match="single class"):
        SparGE().fit(X, np.zeros(50))
    Xi = X.copy()
    Xi[3, 4] = np.inf
    with pytest.raises(DataError, match="row 3, column 4"):
        SparGE().fit(Xi, y)
    with pytest.raises(ValueError, match="needs the outcome"):
        SparGE().fit(X)
    model = SparGE(max_iter=0).fit(X, y)
    with pytest.raises(DataError, match="expecting 64 features"):
        model.transform(X[:, :10])
    df = pd.DataFrame({"a": ["x", "y", "z"], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(DataError, match="Encoder"):
        SparGE().fit(df, [0, 1, 0])


def test_feature_names_out_and_pandas_output():
    """A data scientist's review: no get_feature_names_out, so set_output and a
    Pipeline's feature names failed. The embedding's dimensions are sparge0, sparge1, …"""
    X, y = planted_classes(n=120, m=20, noise_dims=14, missing=0.1)
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])],
                      index=[f"P{i}" for i in range(len(X))])
    model = SparGE(max_iter=1, forest_trees=20, n_components=5).fit(df, y)
    assert list(model.get_feature_names_out()) == [f"sparge{j}" for j in range(5)]
    plain = model.transform(df.iloc[:4])
    model.set_output(transform="pandas")
    out = model.transform(df.iloc[:4])
    assert isinstance(out, pd.DataFrame) and list(out.index) == ["P0", "P1", "P2", "P3"]
    np.testing.assert_array_equal(out.to_numpy(), plain)
    assert isinstance(model.kneighbors(df.iloc[:4])[1], np.ndarray)  # queries unchanged
    pipe = make_pipeline(StandardScaler(), SparGE(max_iter=1, forest_trees=20,
                                                  n_components=3)).fit(df, y)
    assert list(pipe.get_feature_names_out()) == ["sparge0", "sparge1", "sparge2"]


def test_pipeline_and_grid_search():
    X, y = planted_classes(n=150)
    pipe = make_pipeline(SparGE(max_iter=1, random_state=0), KNeighborsClassifier(5))
    grid = GridSearchCV(pipe, {"sparge__n_components": [2, 8]}, cv=2).fit(X, y)
    assert grid.best_params_["sparge__n_components"] in (2, 8)
    grid2 = GridSearchCV(SparGE(max_iter=0), {"k1": [3, 5]}, cv=2).fit(X, y)  # .score
    assert 0 <= grid2.best_score_ <= 1


def test_knn_search_matches_brute_force():
    from sklearn.neighbors import NearestNeighbors

    from sparge.method.similarity import knn_search

    rng = np.random.default_rng(0)
    ref, q = rng.standard_normal((200, 6)), rng.standard_normal((17, 6))
    d, i = knn_search(ref, q, 7, chunk=5)
    d2, i2 = NearestNeighbors(n_neighbors=7).fit(ref).kneighbors(q)
    np.testing.assert_array_equal(i, i2)
    np.testing.assert_allclose(d, d2, atol=1e-10)


def test_lookalikes_equals_kneighbors_and_sparse_weights(fitted):
    model, X, _ = fitted
    d, i, W = model.lookalikes(X[300:304], n_neighbors=7)
    d2, i2 = model.kneighbors(X[300:304], n_neighbors=7)
    np.testing.assert_array_equal(i, i2)
    np.testing.assert_allclose(d, d2)
    assert abs(W - model.sparse_weights(X[300:304], n_neighbors=7)).max() < 1e-12


def test_cohort_smaller_than_k1_still_trains():
    # the graphs cap the neighbour counts at the class sizes, so a default model (k1=20)
    # trains on 12 patients and every look-alike list stays within the cohort
    X, y = planted_classes(n=12, m=10, noise_dims=6)
    model = SparGE(max_iter=1, random_state=0).fit(X, y)
    assert model.k1 > 12
    d, idx = model.kneighbors(X[:2], n_neighbors=5)
    assert idx.shape == (2, 5) and idx.max() < 12 and np.all(np.isfinite(d))


def test_large_cohort_is_learned_from_a_stratified_sample():
    X, y = planted_classes(n=400, m=20, noise_dims=14)
    ids = np.array([f"P{i}" for i in range(400)])
    m = SparGE(max_fit_samples=150, max_iter=1, forest_trees=10).fit(X, y, ids=ids)
    rows = m.fit_sample_rows_
    assert m.n_samples_seen_ == 400 and rows.shape == (150,) and np.all(np.diff(rows) > 0)
    assert m.embedding_.shape[0] == 150 and list(m.train_ids_) == list(ids[rows])
    full = np.bincount(np.unique(y, return_inverse=True)[1]) / 400
    part = np.bincount(np.unique(y[rows], return_inverse=True)[1]) / 150
    np.testing.assert_allclose(part, full, atol=0.01)  # stratified by outcome
    assert m.transform(X).shape == (400, m.embedding_.shape[1])  # everyone is embedded
    np.testing.assert_allclose(m.transform(X[rows]), m.embedding_, atol=1e-8)
    again = SparGE(max_fit_samples=150, max_iter=1, forest_trees=10).fit(X, y, ids=ids)
    np.testing.assert_array_equal(again.fit_sample_rows_, rows)
    small = SparGE(max_fit_samples=1000, max_iter=1, forest_trees=10).fit(X, y)
    assert small.fit_sample_rows_ is None and small.n_samples_seen_ == 400
    assert SparGE.from_state(m.get_state()).n_samples_seen_ == 400


def test_complete_keeps_the_given_values_and_reconstruct_is_not_shrunk():
    """Round 17: ``complete`` returned the representation's shared-ridge projection, which
    halves a complete patient's values on an orthonormal basis (the teaching page drew
    "completed" values halfway to the mean). Now the given values stay, a gap takes the
    posterior fill, and the low-rank values follow the measured ones."""
    rng = np.random.default_rng(4)
    n, m = 400, 10
    Z = rng.normal(size=(n, 3)) @ rng.normal(size=(3, m)) + 0.2 * rng.normal(size=(n, m))
    X = 40 + 8 * Z
    X[rng.random(X.shape) < 0.1] = np.nan
    y = np.where(Z[:, 0] > 0, "a", "b")
    model = SparGE(max_iter=2, forest_trees=20, random_state=0).fit(X[:300], y[:300])
    Xq = X[300:]
    done = model.complete(Xq)
    given = np.isfinite(Xq)
    np.testing.assert_allclose(done[given], Xq[given], rtol=1e-12)
    assert np.isfinite(done).all()
    # a filled value stays within the range measured in its column
    lo, hi = np.nanmin(X[:300], axis=0), np.nanmax(X[:300], axis=0)
    assert np.all((done[~given] >= np.broadcast_to(lo, done.shape)[~given] - 1e-6)
                  & (done[~given] <= np.broadcast_to(hi, done.shape)[~given] + 1e-6))
    low = model.reconstruct(Xq, units="standardized")
    np.testing.assert_allclose(model.complete(Xq, units="standardized")[~given],
                               low[~given], atol=1e-10)  # a gap: its reconstruction
    Xs = model.standardize(Xq)
    slope = np.sum(low[given] * Xs[given]) / np.sum(Xs[given] ** 2)
    assert 0.85 < slope <= 1.0 + 1e-9, slope  # not halved towards the mean
    # gaps are predicted from the measured values better than by the mean
    hidden = given & (rng.random(Xq.shape) < 0.3)
    err = model.reconstruct(np.where(hidden, np.nan, Xq), units="standardized")[hidden]
    assert np.sqrt(np.mean((err - Xs[hidden]) ** 2)) < 0.6 * np.sqrt(np.mean(Xs[hidden] ** 2))
    # the misfit: a wrong value charges the patient whatever its reconstruction absorbs
    typo = Xq.copy()
    typo[:, 0] = np.where(np.isfinite(typo[:, 0]), typo[:, 0] * 10, np.nan)
    worse = model.misfit(typo) > model.misfit(Xq)
    assert worse[np.isfinite(Xq[:, 0])].mean() > 0.95
    with pytest.raises(ValueError, match="units"):
        model.reconstruct(Xq, units="percent")


def test_a_frame_with_the_columns_in_another_order_is_taken_by_name():
    """A library review: the same columns reordered read "missing [], unexpected []"."""
    import pandas as pd

    X, y = planted_classes(n=80)
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    model = SparGE(max_iter=1, random_state=0).fit(frame, y)
    np.testing.assert_array_equal(model.transform(frame.iloc[:5, ::-1]),
                                  model.transform(frame.iloc[:5]))
    with pytest.raises(DataError, match="missing \\['c0'\\]"):
        model.transform(frame.iloc[:5, 1:])


def test_explain_names_a_wrong_index():
    """A library review: explain(0, 10_000) gave numpy's IndexError, and explain(0, -1)
    silently used the last patient."""
    X, y = planted_classes(n=60)
    model = SparGE(max_iter=1, random_state=0).fit(X, y)
    with pytest.raises(DataError, match="neighbor_index must be a training patient's index, "
                                        "0 to 59; got 10000"):
        model.explain(0, 10_000)
    with pytest.raises(DataError, match="query_row must be"):
        model.explain(-1, 3)
    assert len(model.explain(X[0], 3, n_features=2)) == 4
