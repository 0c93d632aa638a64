"""A fitted SparGE as plain arrays and values, and back (sparge.estimator.state)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import planted_classes

from sparge import SparGE
from sparge.estimator.state import FLOAT_ARRAYS, ModelState
from sparge.method.lowrank import project_observed


@pytest.fixture(scope="module")
def fitted():
    X, y = planted_classes(n=120, m=20, noise_dims=14, missing=0.1)
    ids = [f"P{i:03d}" for i in range(len(y))]
    return SparGE(max_iter=2, forest_trees=20).fit(X, y, ids=ids), X


def test_round_trip_reproduces_every_query(fitted):
    model, X = fitted
    state = model.get_state()
    assert all(not name.startswith("_") for name in state.arrays)
    assert set(FLOAT_ARRAYS) <= set(state.arrays)
    back = SparGE.from_state(state)
    np.testing.assert_array_equal(back.transform(X[:15]), model.transform(X[:15]))
    d0, i0, w0 = model.lookalikes(X[:15])
    d1, i1, w1 = back.lookalikes(X[:15])
    np.testing.assert_array_equal(i0, i1)
    np.testing.assert_allclose(d0, d1, atol=1e-12)
    assert (w0 != w1).nnz == 0
    assert list(back.train_ids_) == list(model.train_ids_)
    assert back.similarity_scale_ == pytest.approx(model.similarity_scale_)
    assert back.forest_weight_ == model.forest_weight_ and back.forest_ is not None


def test_state_values_are_plain(fitted):
    model, _ = fitted
    v = model.get_state().values
    assert isinstance(v["n_features_in"], int) and isinstance(v["history"], list)
    assert v["train_ids"][0] == "P000" and set(v["forest"]) == {
        "weight", "scale", "selection", "min_leaf", "inputs", "proximity"}
    assert v["forest"]["proximity"] == "in-bag"


def test_from_state_refuses_pieces_that_do_not_fit(fitted):
    model, _ = fitted
    s = model.get_state()
    bad = ModelState(s.params, {**s.arrays, "completion_ridge_": -s.arrays["completion_ridge_"]},
                     s.values)
    with pytest.raises(ValueError, match="completion ridge"):
        SparGE.from_state(bad)
    leaves = s.arrays["forest_leaves_"].copy()
    leaves[0, 0] = 0  # the root of the first tree is not a leaf
    with pytest.raises(ValueError, match="forest_leaves_"):
        SparGE.from_state(ModelState(s.params, {**s.arrays, "forest_leaves_": leaves},
                                     s.values))
    counted = s.arrays["forest_counted_"].copy()
    counted[0, 0] = 2
    with pytest.raises(ValueError, match="forest_counted_"):
        SparGE.from_state(ModelState(s.params, {**s.arrays, "forest_counted_": counted},
                                     s.values))
    no_counts = {k: a for k, a in s.arrays.items() if k != "forest_counted_"}
    with pytest.raises(ValueError, match="in-bag"):
        SparGE.from_state(ModelState(s.params, no_counts, s.values))
    with pytest.raises(ValueError, match="parameter 'k1'"):
        SparGE.from_state(ModelState({**s.params, "k1": 0}, s.arrays, s.values))


def test_a_state_without_the_fill_ridge_completes_as_before_round_16(fitted):
    """Model files written before round 16 hold no fill ridge: their patients are
    represented from the shared-ridge projection alone, as when they were trained; only
    the values shown (``complete``) are filled as today's models fill them."""
    model, X = fitted
    s = model.get_state()
    assert s.arrays["completion_fill_ridge_"].shape == (model.completion_components_.shape[0],)
    old = {k: v for k, v in s.arrays.items() if k != "completion_fill_ridge_"}
    back = SparGE.from_state(ModelState(s.params, old, s.values))
    assert back.completion_fill_ridge_ is None
    plain = SparGE(max_iter=2, forest_trees=20, completion_fill="none").fit(X, model.y_)
    Xq = X[:10].copy()
    Xq[:, :3] = np.nan
    A = back.transform_parts(Xq)["completed_scores"]
    assert not np.allclose(A, model.transform_parts(Xq)["completed_scores"])
    S = project_observed(back.standardize(Xq), back.completion_components_,
                         back.completion_ridge_)
    np.testing.assert_allclose(A, S / np.linalg.norm(S, axis=1, keepdims=True), atol=1e-10)
    # the values shown: the given ones kept, the gaps filled by a posterior fill computed
    # when the file is loaded (close to the one a fit stores, within the columns' range)
    shown, fitted = (back.complete(Xq, units="standardized"),
                     model.complete(Xq, units="standardized"))
    given = np.isfinite(Xq)
    np.testing.assert_allclose(shown[given], fitted[given], atol=1e-8)
    assert np.isfinite(shown).all()
    data = np.asarray(model.training_data_, dtype=float)
    lo, hi = np.nanmin(data, axis=0), np.nanmax(data, axis=0)
    assert np.all((shown >= lo - 1e-6) & (shown <= hi + 1e-6))
    assert np.corrcoef(shown[~given], fitted[~given])[0, 1] > 0.8
    assert plain.completion_fill_ridge_ is None
    with pytest.raises(ValueError, match="fill ridge"):
        bad = {**s.arrays, "completion_fill_ridge_": -s.arrays["completion_fill_ridge_"] - 1}
        SparGE.from_state(ModelState(s.params, bad, s.values))
