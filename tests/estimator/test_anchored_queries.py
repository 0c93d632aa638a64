"""A new patient with few values: look-alikes anchored on the values given
(``anchor_weight``), the learned metric kept for every other patient."""

from __future__ import annotations

import numpy as np
import pytest

from sparge import SparGE, load_model, save_model


def low_rank_cohort(n: int = 360, m: int = 12, seed: int = 0):
    """Features driven by three latent factors (so given values tell about hidden ones),
    an outcome from the first factor, 5 % gaps."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, 3))
    X = z @ rng.standard_normal((3, m)) + 0.3 * rng.standard_normal((n, m))
    y = np.where(z[:, 0] + 0.5 * rng.standard_normal(n) > 0, "event", "none")
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


def hide(X: np.ndarray, keep: int, seed: int = 0) -> np.ndarray:
    """Every row with only ``keep`` of its values left."""
    rng = np.random.default_rng(seed)
    out = np.full_like(X, np.nan)
    for i, row in enumerate(X):
        seen = np.flatnonzero(np.isfinite(row))
        cols = rng.choice(seen, keep, replace=False)
        out[i, cols] = row[cols]
    return out


@pytest.fixture(scope="module")
def models():
    X, y = low_rank_cohort()
    sup = SparGE(random_state=0, n_components=4).fit(X[:300], y[:300])
    unsup = SparGE(random_state=0, n_components=4, supervised=False).fit(X[:300])
    return X, y, sup, unsup


def given_gap(model: SparGE, Xq: np.ndarray, idx: np.ndarray) -> float:
    """Mean absolute difference (SD units) of the look-alikes on the query's given values."""
    Q, R = model.standardize(Xq), model.training_data_[idx]
    gap = np.abs(R - Q[:, None, :])
    return float(np.nanmean(np.where(np.isfinite(Q)[:, None, :], gap, np.nan)))


@pytest.mark.parametrize("which", ["sup", "unsup"])
def test_few_values_find_lookalikes_that_share_them(models, which):
    X, _, sup, unsup = models
    model = sup if which == "sup" else unsup
    Xq = hide(X[300:], keep=3)
    idx_anchored = model.set_params(anchor_weight="auto").kneighbors(Xq, 10)[1]
    idx_learned = model.set_params(anchor_weight=0).kneighbors(Xq, 10)[1]
    model.set_params(anchor_weight="auto")
    anchored, learned = given_gap(model, Xq, idx_anchored), given_gap(model, Xq, idx_learned)
    assert anchored < 0.75 * learned, (anchored, learned)


def test_a_patient_with_typical_gaps_keeps_the_learned_metric(models):
    X, _, sup, _ = models
    Xq = X[300:].copy()
    Xq[np.isnan(Xq).sum(axis=1) > 0] = X[:60][np.isnan(X[:60]).sum(axis=1) == 0][0]
    assert sup.typical_missing_ == 0.0
    d1, i1 = sup.kneighbors(Xq, 10)
    d0, i0 = sup.set_params(anchor_weight=0).kneighbors(Xq, 10)
    sup.set_params(anchor_weight="auto")
    np.testing.assert_array_equal(i1, i0)
    np.testing.assert_allclose(d1, d0)


def test_anchored_distances_sort_and_weights_follow_the_list(models):
    X, _, sup, _ = models
    Xq = hide(X[300:310], keep=2)
    dist, idx, W = sup.lookalikes(Xq, n_neighbors=8)
    d2, i2 = sup.kneighbors(Xq, 8)
    np.testing.assert_array_equal(idx, i2)
    np.testing.assert_allclose(dist, d2)
    assert np.all(np.diff(dist, axis=1) >= -1e-12)
    sim = sup.similarity(dist)
    assert np.all((sim > 0) & (sim <= 1))
    np.testing.assert_allclose(np.asarray(W.sum(axis=1)).ravel(), 1.0, atol=1e-6)
    for r in range(len(Xq)):
        assert set(W[r].indices) <= set(idx[r])


def test_anchoring_survives_a_model_file(models, tmp_path):
    X, _, sup, _ = models
    Xq = hide(X[300:320], keep=3, seed=1)
    path = tmp_path / "m.sparge"
    save_model(path, sup)
    loaded, _ = load_model(path)
    assert loaded.anchor_scale_ == pytest.approx(sup.anchor_scale_)
    d0, i0 = sup.kneighbors(Xq, 10)
    d1, i1 = loaded.kneighbors(Xq, 10)
    np.testing.assert_array_equal(i0, i1)
    np.testing.assert_allclose(d0, d1, rtol=1e-6)


def test_anchor_weight_is_checked_before_fitting():
    X, y = low_rank_cohort(n=60)
    with pytest.raises(ValueError, match="anchor_weight"):
        SparGE(anchor_weight=-1).fit(X, y)


def test_lookalikes_among_candidates_are_the_first_candidates_of_the_full_list(models):
    """Restricting the look-alikes to some training patients (the same sex, an age band)
    keeps the metric: the list is the full ranking's first candidates, for new patients
    with few values (anchored) or typical gaps and for training patients (never
    themselves), with weights over the listed look-alikes only."""
    X, _, sup, _ = models
    n = len(sup.embedding_)
    mask = np.random.default_rng(5).random(n) < 0.25
    Xq = np.vstack([X[300:304], hide(X[304:307], keep=3)])
    d_all, i_all = sup.kneighbors(Xq, n)
    d, i, W = sup.lookalikes(Xq, 6, candidates=mask)
    for r in range(len(Xq)):
        ok = mask[i_all[r]]
        assert np.array_equal(i[r], i_all[r][ok][:6]), r
        np.testing.assert_allclose(d[r], d_all[r][ok][:6])
        assert set(W[r].indices) <= set(i[r]) and abs(W[r].sum() - 1) < 1e-9
    rows = np.array([3, 40, 41])
    mask[rows] = True  # each is among the candidates, never its own look-alike
    d_all, i_all = sup.training_neighbors(n - 1, rows=rows)
    d, i = sup.training_neighbors(6, rows=rows, candidates=mask)
    for r in range(len(rows)):
        ok = mask[i_all[r]]
        assert np.array_equal(i[r], i_all[r][ok][:6]) and rows[r] not in i[r]
    # fewer candidates than asked: all of them; none: an empty list
    two = np.flatnonzero(mask)[:2]
    assert sup.lookalikes(Xq[:1], 10, candidates=two)[1].shape == (1, 2)
    d, i, W = sup.lookalikes(Xq[:1], 10, candidates=np.zeros(n, bool))
    assert i.shape == (1, 0) and W.nnz == 0
    assert sup.lookalikes(None, 10, rows=[two[0]], candidates=two)[1].tolist() == [[two[1]]]
