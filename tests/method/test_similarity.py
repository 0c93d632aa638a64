"""Look-alike weights and searches (sparge.method.similarity) and the model's public query API."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import SAMPLES

from sparge import load_model, read_table
from sparge.method.similarity import project_simplex, self_expressive_weights
from sparge.services.workflow import cohort_patients, encode_cohort, lookalike_table


def test_project_simplex_matches_the_definition():
    rng = np.random.default_rng(0)
    V = rng.normal(size=(50, 7)) * 3
    P = project_simplex(V)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    assert P.min() >= 0
    # optimality: no feasible point on a random direction is closer
    for v, p in zip(V[:10], P[:10]):
        for _ in range(50):
            q = project_simplex(p + 0.1 * rng.normal(size=7))[0]
            assert np.sum((v - p) ** 2) <= np.sum((v - q) ** 2) + 1e-9


def test_weights_reconstruct_a_point_inside_the_hull_exactly():
    rng = np.random.default_rng(1)
    C = rng.normal(size=(10, 16))
    w_true = np.zeros(10)
    w_true[[0, 2, 5]] = [0.5, 0.3, 0.2]
    y = w_true @ C
    W = self_expressive_weights(y[None], C, np.arange(10)[None], locality=0.0)
    w = W.toarray().ravel()
    np.testing.assert_allclose(w @ C, y, atol=1e-4)
    assert abs(w.sum() - 1) < 1e-9 and w.min() >= 0
    assert (w > 0).sum() <= 4


def test_weights_are_affine_sparse_and_only_on_listed_neighbours():
    rng = np.random.default_rng(2)
    Y = rng.normal(size=(200, 8))
    Yq = rng.normal(size=(30, 8))
    d2 = ((Yq[:, None] - Y[None]) ** 2).sum(-1)
    nb = np.argsort(d2, axis=1)[:, :10]
    W = self_expressive_weights(Yq, Y, nb)
    np.testing.assert_allclose(np.asarray(W.sum(axis=1)).ravel(), 1.0, atol=1e-6)
    for r in range(30):
        assert set(W[r].indices) <= set(nb[r])
    # the weights are the minimiser: no random feasible w does better
    locality = 0.05
    for r in range(5):
        C = Y[nb[r]] - Yq[r]
        G = C @ C.T
        scale = np.mean(np.diag(G))

        def f(w, C=C, G=G, scale=scale):
            return 0.5 * w @ G @ w / scale + 0.5 * locality * (np.diag(G) @ w) / scale

        w = W[r].toarray().ravel()[nb[r]]
        for _ in range(200):
            v = project_simplex(w + 0.05 * rng.normal(size=10))[0]
            assert f(w) <= f(v) + 1e-7


@pytest.fixture(scope="module")
def default():
    model, encoder = load_model(SAMPLES / "default_model.sparge")
    cohort = encode_cohort(read_table(SAMPLES / "singheart_synthetic.csv"),
                           id_column="Subject ID", label_column="Outcome")
    return model, encoder, cohort


def test_left_out_patients_get_meaningful_sparse_weights(default):
    """Issue 9.4: median non-zero weights among 10 look-alikes >= 3 on left-out patients."""
    model, _, cohort = default
    P = cohort_patients(model, cohort)
    left = np.flatnonzero(~P.in_training)
    assert len(left) > 50
    d, idx, W = model.lookalikes(P.X[left], n_neighbors=10)
    nnz = np.diff(W.indptr)
    assert np.median(nnz) >= 3
    np.testing.assert_allclose(np.asarray(W.sum(axis=1)).ravel(), 1.0, atol=1e-6)
    for r in range(len(left)):
        assert set(W[r].indices) <= set(idx[r])


def test_every_cohort_patient_is_placed_and_explained(default):
    model, _, cohort = default
    P = cohort_patients(model, cohort)
    assert P.compatible and len(P.ids) == len(cohort.ids)
    assert P.in_training.sum() == model.embedding_.shape[0]
    np.testing.assert_allclose(P.embedding[P.in_training],
                               model.embedding_[P.train_index[P.in_training]])
    left = np.flatnonzero(~P.in_training)
    assert all("missing" in P.reason[i] or "outcome" in P.reason[i] for i in left)
    assert all(P.reason[i] == "" for i in np.flatnonzero(P.in_training))
    r = int(left[0])
    assert P.find(P.ids[r].lower()) == r
    assert P.find("no such patient") is None
    np.testing.assert_allclose(P.embedding[r], model.transform(P.query_row(r))[0])
    table = lookalike_table(model, P.query_row(r), n_neighbors=10)
    assert len(table) == 10 and abs(table["sparse_weight"].sum() - 1) < 1e-6


def test_other_table_gives_only_training_patients_with_a_message(default):
    model, _, cohort = default
    other = encode_cohort(cohort.df.drop(columns=[cohort.features[0]]),
                          id_column="Subject ID", label_column="Outcome")
    P = cohort_patients(model, other)
    assert not P.compatible and "not the one" in P.message
    assert len(P.ids) == model.embedding_.shape[0] and P.in_training.all()


def test_training_lookalike_table_excludes_the_patient_and_sums_to_one(default):
    model, _, _ = default
    t = lookalike_table(model, None, n_neighbors=10, exclude_training_index=7)
    assert 7 not in set(t["training_index"]) and len(t) == 10
    assert abs(t["sparse_weight"].sum() - 1) < 1e-6


def test_public_query_api_matches_the_fit(default):
    model, _, _ = default
    F = model.training_representation()
    np.testing.assert_allclose((F @ model.projection_) * model.component_weights_,
                               model.embedding_, atol=1e-8)
    Wp, Wn = model.training_graphs()
    n = model.embedding_.shape[0]
    assert Wp.shape == Wn.shape == (n, n) and Wp.nnz > 0 and Wn.nnz > 0
    # intrinsic edges join same-outcome patients only, penalty edges other outcomes
    y = np.asarray(model.y_)
    r, c = Wp.nonzero()
    assert np.all(y[r] == y[c])
    r, c = Wn.nonzero()
    assert np.all(y[r] != y[c])
    vals = model.training_values()
    assert list(vals.columns) == model.feature_names()
    Xo = vals.to_numpy()[:5]
    np.testing.assert_allclose(model.standardize(Xo), model.training_data_[:5], atol=1e-4,
                               equal_nan=True)
    Z = model.complete(Xo)
    obs = ~np.isnan(Xo)
    assert np.all(np.isfinite(Z)) and Z.shape == Xo.shape
    Zs = model.complete(Xo, units="standardized")
    # standardised units are those of the logarithm for the features compared by it
    # (the bundled model has five since round 28: ALT, hs-CRP, NT-proBNP, GGT, ferritin)
    back = Zs * model.scale_ + model.mean_
    logged = model.log_columns_
    assert len(logged) > 0
    back[:, logged] = 10.0 ** back[:, logged]
    np.testing.assert_allclose(back, Z)
    assert np.corrcoef(Z[obs], Xo[obs])[0, 1] > 0.9
    assert model.n_atoms_ == model.codes_.shape[1]
    assert model.rank_ == model.completion_components_.shape[0]


def test_feature_importance_finds_the_features_the_metric_uses():
    """A planted cohort: only the first 4 features carry the outcome; the metric must
    weigh them above the 20 pure-noise features."""
    from sparge import SparGE

    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    signal = (y[:, None] * 2.0 - 1.0) * 1.5 + rng.normal(size=(n, 4))
    noise = rng.normal(size=(n, 20))
    X = np.hstack([signal, noise])
    model = SparGE(random_state=0, max_iter=0).fit(X, y)
    imp = model.feature_importance()
    assert imp.shape == (24,) and abs(imp.sum() - 1) < 1e-9 and imp.min() >= 0
    assert imp[:4].min() > np.median(imp[4:])
    assert imp[:4].sum() > 4 / 24 * 1.5


def test_active_set_and_batched_solvers_agree():
    """Few queries are solved exactly one by one, many by batched FISTA: same weights."""
    from sparge.method import similarity

    rng = np.random.default_rng(5)
    Y = rng.normal(size=(300, 6))
    Yq = rng.normal(size=(80, 6)) * 0.8
    d2 = ((Yq[:, None] - Y[None]) ** 2).sum(-1)
    nb = np.argsort(d2, axis=1)[:, :10]
    batched = self_expressive_weights(Yq, Y, nb).toarray()
    assert len(Yq) > similarity._ACTIVE_SET_MAX_QUERIES
    exact = np.vstack([self_expressive_weights(Yq[i:i + 1], Y, nb[i:i + 1]).toarray()
                       for i in range(len(Yq))])
    np.testing.assert_allclose(exact, batched, atol=2e-4)
    np.testing.assert_allclose(exact.sum(axis=1), 1.0, atol=1e-9)
    assert exact.min() >= 0


def test_ensemble_sqdist_reproduces_the_models_lookalikes():
    """Any block of reference patients scored with the model's parts gives its look-alikes."""
    from sparge.method.similarity import ensemble_sqdist

    model, _ = load_model(SAMPLES / "default_model.sparge")
    rows = [0, 5, 9, 100]
    Yq, Lq = model.lookalike_parts(rows=rows)
    Yr, Lr = model.lookalike_parts(reference=True)
    assert Lq is not None and Lq.shape == (4, model.forest_leaves_.shape[1])
    assert model.forest_proximity_ == "in-bag" and np.any(Lr < 0) and not np.any(Lq < 0)
    d2 = ensemble_sqdist(Yq, Yr, Lq, Lr, model.forest_scale_)
    d2[np.arange(4), rows] = np.inf  # a training patient is not its own look-alike
    order = np.argsort(d2, axis=1, kind="stable")[:, :10]
    dist, idx, _ = model.lookalikes(rows=rows)
    np.testing.assert_array_equal(order, idx)
    np.testing.assert_allclose(np.sqrt(np.take_along_axis(d2, order, 1)), dist, atol=1e-9)
    plain = ensemble_sqdist(Yq, Yr)
    np.testing.assert_allclose(plain, ((Yq[:, None] - Yr[None]) ** 2)
                               .sum(-1), atol=1e-9)


def test_ensemble_sqdist_counts_only_the_trees_of_each_reference_patient():
    """p_qr = shared leaves among r's counted trees / r's counted trees (NOT_COUNTED
    elsewhere); every tree counted: Breiman's share."""
    from sparge.method.proximity import NOT_COUNTED
    from sparge.method.similarity import ensemble_sqdist

    rng = np.random.default_rng(0)
    T, q, r = 12, 5, 7
    Lq = rng.integers(0, 3, (q, T)) + 3 * np.arange(T)  # 3 leaves per tree, global ids
    Lr = rng.integers(0, 3, (r, T)) + 3 * np.arange(T)
    counted = rng.random((r, T)) < 0.6
    counted[:, 0] = True
    Yq, Yr = rng.standard_normal((q, 4)), rng.standard_normal((r, 4))
    d2 = ensemble_sqdist(Yq, Yr, Lq, np.where(counted, Lr, NOT_COUNTED), 2.0)
    for i in range(q):
        for j in range(r):
            p = np.sum((Lq[i] == Lr[j]) & counted[j]) / counted[j].sum()
            assert d2[i, j] == pytest.approx(np.sum((Yq[i] - Yr[j]) ** 2) + 2.0 * (1 - p))
    with pytest.raises(ValueError, match="query leaves"):
        ensemble_sqdist(Yq, Yr, np.where(counted[:q], Lq, NOT_COUNTED), Lr, 2.0)
    every = ensemble_sqdist(Yq, Yr, Lq, Lr, 2.0)
    share = (Lq[:, None, :] == Lr[None]).mean(axis=2)
    np.testing.assert_allclose(every, ((Yq[:, None] - Yr[None]) ** 2).sum(-1)
                               + 2.0 * (1 - share), atol=1e-12)
