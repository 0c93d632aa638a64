"""Forest proximity as leaf codes, and the held-out look-alike check."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import planted_classes

from sparge.errors import DataError
from sparge.method.proximity import ForestProximity, leaf_codes
from sparge.services.lookalike_check import lookalike_check, summarize_check


def test_leaf_code_distance_is_one_minus_proximity():
    rng = np.random.default_rng(0)
    widths = np.array([7, 5, 9, 4])
    leaves = np.stack([rng.integers(0, w, 30) for w in widths], axis=1)
    Z = leaf_codes(leaves, widths).toarray()
    prox = (leaves[:, None, :] == leaves[None, :, :]).mean(axis=2)
    d2 = ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_allclose(d2, 1 - prox, atol=1e-12)


def test_forest_proximity_on_planted_classes_with_gaps():
    X, y = planted_classes(n=240, m=20, noise_dims=10, missing=0.1)
    f = ForestProximity(n_estimators=60, select_estimators=20, random_state=0).fit(
        X[:180], y[:180])
    assert f.min_samples_leaf_ in (1, 5, 20)
    d, idx = f.kneighbors(X[180:], n_neighbors=10)
    assert d.shape == (60, 10) and np.all((d >= -1e-12) & (d <= 1 + 1e-12))
    assert np.all(np.diff(d, axis=1) >= -1e-12)
    hit = (y[:180][idx] == y[180:, None]).mean()
    assert hit > 0.6  # chance is 1/3
    # a training patient's nearest look-alike is itself, at distance 0
    d0, i0 = f.kneighbors(X[:5], n_neighbors=1)
    np.testing.assert_allclose(d0[:, 0], 0, atol=1e-12)


def test_lookalike_check_scores_each_method_on_each_split():
    X, y = planted_classes(n=200, seed=3)  # raw kNN is fooled by the nuisance dims
    seen = []
    res = lookalike_check(X, y, n_splits=2, sparge_params={"max_iter": 1},
                          callback=lambda p, msg: seen.append(p))
    assert len(res) == 6 and set(res.method) == {"SparGE", "forest proximity",
                                                  "raw features"}
    assert res["knn_balanced_accuracy"].between(0, 1).all()
    assert seen[-1] == 1.0 and seen == sorted(seen)
    summ = summarize_check(res)
    assert list(summ["splits"]) == [2, 2, 2]
    assert summ["precision_at_10_balanced"].is_monotonic_decreasing
    # SparGE is scored with the model's own look-alike metric (embedding + forest part)
    from sklearn.model_selection import StratifiedShuffleSplit

    from sparge import SparGE
    from sparge.services.lookalike_check import lookalike_scores

    tr, te = next(StratifiedShuffleSplit(2, test_size=0.3, random_state=0).split(X, y))
    m = SparGE(max_iter=1, random_state=0).fit(X[tr], y[tr].astype(str))
    assert m.forest_ is not None
    own = lookalike_scores(m.lookalike_space(), y[tr].astype(str),
                           m.lookalike_space(X[te]), y[te].astype(str))
    first = res[(res.split == 0) & (res.method == "SparGE")].iloc[0]
    assert first["precision_at_10_balanced"] == pytest.approx(own["precision_at_10_balanced"])
    assert first["knn_balanced_accuracy"] == pytest.approx(own["knn_balanced_accuracy"])
    # the planted metric is learnable: SparGE beats raw features
    by = summ.set_index("method")
    assert by.loc["SparGE", "knn_balanced_accuracy"] > by.loc["raw features",
                                                              "knn_balanced_accuracy"]


def test_the_check_holds_a_persons_rows_out_together():
    """Walk-through 100b: a register repeats a recipient on several lines (a second
    transplant). Split by rows, a held-out episode finds the same person's other one among
    the training patients, and the check flatters every method; the people are split."""
    from sparge.services.lookalike_check import grouped_splits

    rng = np.random.default_rng(5)
    n = 300
    y = rng.choice(["a", "b"], n)
    X = rng.normal(size=(n, 6))  # features unrelated to the outcome
    # every person four times (admissions alike in what does not change)
    X2 = np.vstack([X + rng.normal(scale=0.01, size=X.shape) for _ in range(4)])
    y2, g = np.tile(y, 4), np.tile(np.arange(n), 4)
    for tr, te in grouped_splits(y2, g, n_splits=3):
        assert set(g[tr]).isdisjoint(g[te]) and len(tr) + len(te) == 4 * n
        assert 0.25 < len(te) / (4 * n) < 0.35
    rows = lookalike_check(X2, y2, n_splits=3, methods=("raw features",))
    people = lookalike_check(X2, y2, n_splits=3, methods=("raw features",), groups=g)
    acc = rows["knn_balanced_accuracy"].mean(), people["knn_balanced_accuracy"].mean()
    assert acc[0] > 0.68 and acc[1] < 0.58  # the copies sway the first; chance is 0.5
    # without repeats, or without groups, the rows' stratified splits are unchanged
    plain = [te.tolist() for _, te in grouped_splits(y, None, 2)]
    assert plain == [te.tolist() for _, te in grouped_splits(y, np.arange(n), 2)]


def test_lookalike_check_refuses_tiny_classes_with_a_message():
    X, y = planted_classes(n=40, m=8, noise_dims=4)
    y = y.astype(str)
    y[:2] = "rare"
    y[2:] = np.where(y[2:] == "rare", "0", y[2:])
    with pytest.raises(DataError, match="rare"):
        lookalike_check(X, y, n_splits=2)


def test_packed_forest_routes_like_scikit_learn_gaps_included():
    from sklearn.ensemble import RandomForestClassifier

    from sparge.method.proximity import PackedForest

    X, y = planted_classes(n=300, m=12, noise_dims=6, missing=0.2, seed=4)
    rf = RandomForestClassifier(n_estimators=25, min_samples_leaf=2, random_state=0).fit(X, y)
    packed = PackedForest.from_estimators(rf.estimators_)
    np.testing.assert_array_equal(packed.apply(X), rf.apply(X) + packed.offsets)
    allnan = np.full((3, X.shape[1]), np.nan)
    np.testing.assert_array_equal(packed.apply(allnan), rf.apply(allnan) + packed.offsets)
    again = PackedForest.from_arrays(packed.to_arrays())
    np.testing.assert_array_equal(again.apply(X[:20]), packed.apply(X[:20]))
    bad = packed.to_arrays()
    bad["forest_left"] = bad["forest_left"].copy()
    bad["forest_left"][0] = 10**9
    with pytest.raises(ValueError):
        PackedForest.from_arrays(bad)


@pytest.fixture(scope="module")
def forest_model():
    from sparge import SparGE

    X, y = planted_classes(n=240, m=16, noise_dims=8, missing=0.1, seed=7)
    # the learned metric alone: queries with more gaps than usual are also anchored on
    # their given values by default (tests/estimator/test_anchored_queries.py)
    m = SparGE(forest_weight=1.0, forest_trees=30, max_iter=1, random_state=0,
               anchor_weight=0).fit(X, y)
    return m, X, y


def test_forest_part_of_the_metric_is_exact(forest_model):
    """d^2 = ||y_q - y_i||^2 + scale * (1 - p_qi), p_qi the share of the trees grown with
    training patient i (in-bag) in which q falls in i's leaf."""
    m, X, _ = forest_model
    assert m.forest_ is not None and m.forest_weight_ == 1.0 and m.forest_scale_ > 0
    assert m.forest_proximity_ == "in-bag"
    counted = m.forest_counted_
    # a bootstrap sample draws about 63 % of the patients; each patient is in some tree
    assert counted.shape == m.forest_leaves_.shape and 0.55 < counted.mean() < 0.7
    assert counted.sum(axis=1).min() >= 1
    Xq = X[:5].copy()
    Xq[:, :3] = np.nan  # gaps: the trees route them, the completion fills them
    d, idx = m.kneighbors(Xq, n_neighbors=8)
    Y = m.transform(Xq)
    # the trees split on the standardised biomarkers and the completion's scores
    assert m.forest_inputs_ == "features+completion"
    Xs = m.standardize(Xq)
    leaves = m.forest_.apply(np.hstack([Xs, m._embed(Xs)[0]]))
    same = (leaves[:, None, :] == m.forest_leaves_[None, :, :]) & counted[None]
    share = same.sum(axis=2) / counted.sum(axis=1)[None, :]
    full = ((Y[:, None, :] - m.embedding_[None]) ** 2).sum(-1) + m.forest_scale_ * (1 - share)
    np.testing.assert_allclose(d**2, np.take_along_axis(full, idx, axis=1), atol=1e-9)
    np.testing.assert_array_equal(np.sort(full, axis=1)[:, :8] <= (d[:, -1:] ** 2 + 1e-9),
                                  np.ones((5, 8), bool))
    # training patients: not their own look-alike; weights affine on the listed ones
    dd, ii, W = m.lookalikes(None, n_neighbors=10, rows=[0, 1, 2])
    assert not np.any(ii == np.array([0, 1, 2])[:, None])
    np.testing.assert_allclose(np.asarray(W.sum(axis=1)).ravel(), 1.0, atol=1e-6)


def test_forest_part_round_trips_through_the_model_file(forest_model, tmp_path):
    from sparge import load_model, save_model

    m, X, _ = forest_model
    path = tmp_path / "forest.sparge"
    save_model(path, m)
    loaded, _ = load_model(path)
    assert loaded.forest_weight_ == m.forest_weight_
    d1, i1 = m.kneighbors(X[:7], n_neighbors=6)
    d2, i2 = loaded.kneighbors(X[:7], n_neighbors=6)
    np.testing.assert_array_equal(i1, i2)
    np.testing.assert_allclose(d1, d2)


def test_a_forest_that_points_outside_its_trees_is_refused(forest_model, tmp_path):
    import io

    from sparge import load_model, model_to_bytes
    from sparge.errors import ModelFileError

    m, _, _ = forest_model
    with np.load(io.BytesIO(model_to_bytes(m)), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["forest_leaves_"] = arrays["forest_leaves_"].copy()
    arrays["forest_leaves_"][0, 0] = arrays["forest_offsets"][1]  # a node of the next tree
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    with pytest.raises(ModelFileError, match="forest_leaves_"):
        load_model(buf.getvalue())
    arrays.pop("forest_threshold")
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    with pytest.raises(ModelFileError, match="forest"):
        load_model(buf.getvalue())


def test_auto_forest_weight_is_chosen_on_held_out_patients():
    from sparge import SparGE

    X, y = planted_classes(n=300, m=16, noise_dims=8, missing=0.1, seed=8)
    m = SparGE(forest_weight="auto", forest_trees=30, max_iter=2, random_state=0).fit(X, y)
    tried = [r["forest_weight"] for r in m.forest_selection_]
    assert tried == [0.0, 0.5, 1.0, 1.5, 2.0, 4.0]
    # the reference weight 1.5 unless another wins by more than a standard error
    bound = {r["forest_weight"]: r["difference"] - r["std_error"] for r in m.forest_selection_}
    winners = [g for g, b in bound.items() if b > 0]
    expected = max(winners, key=bound.get) if winners else 1.5
    assert m.forest_weight_ == expected
    assert (m.forest_ is None) == (m.forest_weight_ == 0)
    off = SparGE(forest_weight=0, max_iter=1, random_state=0).fit(X, y)
    assert off.forest_ is None and off.forest_selection_ == []
    with pytest.raises(ValueError, match="forest_weight"):
        SparGE(forest_weight=-1).fit(X, y)


def test_lookalike_space_reproduces_the_models_own_metric(forest_model):
    m, X, _ = forest_model
    Vtr = m.lookalike_space()
    Vq = m.lookalike_space(X[:4])
    d2 = np.asarray((Vq.multiply(Vq)).sum(axis=1)) - 2 * (Vq @ Vtr.T).toarray() \
        + np.asarray((Vtr.multiply(Vtr)).sum(axis=1)).T
    d, idx = m.kneighbors(X[:4], n_neighbors=5)
    # in-bag proximity: the model's distance plus one constant of the model
    T, n_min = m.forest_counted_.shape[1], m.forest_counted_.sum(axis=1).min()
    offset = m.forest_scale_ * (np.sqrt(T / n_min) - 1.0)
    assert offset > 0
    np.testing.assert_allclose(np.take_along_axis(d2, idx, axis=1), d**2 + offset, atol=1e-8)
    np.testing.assert_array_equal(np.argsort(d2, axis=1, kind="stable")[:, :5], idx)


def test_shared_leaf_proximity_counts_every_tree():
    """forest_proximity="shared-leaf": Breiman's share of all trees; its look-alike space
    gives the model's distances exactly (no constant)."""
    from sparge import SparGE

    X, y = planted_classes(n=160, m=10, noise_dims=4, seed=3)
    m = SparGE(forest_trees=15, forest_proximity="shared-leaf", max_iter=0,
               random_state=0).fit(X[:120], y[:120])
    assert m.forest_proximity_ == "shared-leaf" and m.forest_counted_ is None
    Yq, Lq = m.lookalike_parts(X[120:])
    share = (Lq[:, None, :] == m.forest_leaves_[None]).mean(axis=2)
    full = ((Yq[:, None, :] - m.embedding_[None]) ** 2).sum(-1) + m.forest_scale_ * (1 - share)
    d, idx = m.kneighbors(X[120:], n_neighbors=6)
    np.testing.assert_allclose(d**2, np.take_along_axis(full, idx, axis=1), atol=1e-9)
    Vq, Vtr = m.lookalike_space(X[120:]), m.lookalike_space()
    d2 = np.asarray((Vq.multiply(Vq)).sum(axis=1)) - 2 * (Vq @ Vtr.T).toarray() \
        + np.asarray((Vtr.multiply(Vtr)).sum(axis=1)).T
    np.testing.assert_allclose(d2, full, atol=1e-8)


def test_choose_leaf_size_scores_every_candidate_on_held_out_patients(monkeypatch):
    from sklearn.ensemble import RandomForestClassifier

    from sparge.method.proximity import choose_leaf_size

    X, y = planted_classes(n=400, m=12, noise_dims=6, seed=4)
    seen = []
    fit = RandomForestClassifier.fit
    monkeypatch.setattr(RandomForestClassifier, "fit",
                        lambda self, A, b: seen.append(len(b)) or fit(self, A, b))
    size, scores = choose_leaf_size(X, y, (1, 5, 20), n_estimators=20, max_rows=200)
    assert sorted(scores) == [1, 5, 20] and size in scores
    assert scores[size] == max(scores.values()) and all(0 <= v <= 1 for v in scores.values())
    assert seen == [140] * 3  # 70 % of the 200-patient sample, one forest per candidate
    assert choose_leaf_size(X, y, (1, 5, 20), n_estimators=20, max_rows=200) == (size, scores)
    assert choose_leaf_size(X[:10], y[:10], (1, 5, 20)) == (5, {})  # too few to hold out
    assert choose_leaf_size(X, y, (3,)) == (3, {})


def test_auto_leaf_size_is_recorded_and_saved(tmp_path):
    from sparge import SparGE, load_model, save_model
    from sparge.estimator.forest_part import LEAF_SIZES

    X, y = planted_classes(n=240, m=12, noise_dims=6, seed=2)
    m = SparGE(forest_min_leaf="auto", forest_trees=20, max_iter=1, random_state=0).fit(X, y)
    assert m.forest_min_leaf_ in LEAF_SIZES
    save_model(tmp_path / "m.sparge", m)
    assert load_model(tmp_path / "m.sparge")[0].forest_min_leaf_ == m.forest_min_leaf_
    fixed = SparGE(forest_min_leaf=3, forest_trees=20, max_iter=1, random_state=0).fit(X, y)
    assert fixed.forest_min_leaf_ == 3
    with pytest.raises(ValueError, match="forest_min_leaf"):
        SparGE(forest_min_leaf="big").fit(X, y)


def test_forest_inputs_older_files_and_the_biomarkers_alone(forest_model):
    """A state without ``forest.inputs`` (files before round 9) is a forest on the
    biomarkers alone; a forest on biomarkers + completion scores needs its flag."""
    import copy

    from sparge import SparGE

    m, X, y = forest_model
    plain = SparGE(forest_weight=1.0, forest_trees=30, max_iter=1, random_state=0,
                   forest_inputs="features").fit(X, y)
    assert plain.forest_inputs_ == "features"
    internal = plain.forest_.left >= 0
    assert plain.forest_.feature[internal].max() < X.shape[1]
    # with the completion scores some splits use them (indices past the biomarkers)
    assert m.forest_.feature[m.forest_.left >= 0].max() >= X.shape[1]
    old = plain.get_state()
    old.values["forest"].pop("inputs")
    back = SparGE.from_state(old)
    assert back.forest_inputs_ == "features"
    np.testing.assert_array_equal(back.kneighbors(X[:6], 5)[1], plain.kneighbors(X[:6], 5)[1])
    same = SparGE.from_state(m.get_state())
    np.testing.assert_array_equal(same.kneighbors(X[:6], 5)[1], m.kneighbors(X[:6], 5)[1])
    broken = copy.deepcopy(m.get_state())
    broken.values["forest"].pop("inputs")  # read as biomarkers alone: splits out of range
    with pytest.raises(ValueError, match="features the model does not have"):
        SparGE.from_state(broken)
    unsup = SparGE(supervised=False, max_iter=1, random_state=0).fit(X)
    assert unsup.forest_ is None and unsup.forest_inputs_ is None


def _two_methods(a, b):
    """Held-out check rows of SparGE (scores ``a``) and forest proximity (``b``) per split,
    the same score for both measures."""
    import pandas as pd

    return pd.DataFrame(
        [{"split": s, "method": m, "precision_at_10_balanced": v,
          "knn_balanced_accuracy": v, "seconds": 1.0}
         for s, (va, vb) in enumerate(zip(a, b, strict=True))
         for m, v in (("SparGE", va), ("forest proximity", vb))])


def test_check_verdict_names_a_winner_only_beyond_the_noise():
    import pandas as pd

    from sparge.services.lookalike_check import check_verdict

    # ahead on every split by about 0.03 with little spread: a clear winner
    clear = check_verdict(_two_methods([0.70, 0.72, 0.71], [0.67, 0.69, 0.68]))
    assert clear["best"] == "SparGE" and clear["clear"]
    assert "gives the best look-alikes" in clear["sentence"]
    assert f"split-by-split difference {100 * clear['se']:.2f})" in clear["sentence"]
    assert abs(clear["difference"] - 0.03) < 1e-9
    # 0.005 ahead on average but the splits disagree: a tie, said as such
    tie = check_verdict(_two_methods([0.66, 0.65, 0.66], [0.65, 0.66, 0.645]))
    assert not tie["clear"] and "cannot be told apart" in tie["sentence"]
    assert tie["se"] > 0
    # 0.02 ahead, 2.8 plain standard errors: the splits share patients, so the corrected
    # error (Nadeau–Bengio, 1.8 times the plain one at 5 splits) makes it a tie
    shared = check_verdict(_two_methods([0.73, 0.71, 0.72, 0.74, 0.70],
                                        [0.70, 0.70, 0.70, 0.70, 0.70]))
    assert not shared["clear"] and "cannot be told apart" in shared["sentence"]
    assert shared["se"] > 1.7 * np.std([0.03, 0.01, 0.02, 0.04, 0.0], ddof=1) / np.sqrt(5)
    assert "shared patients" in shared["sentence"]
    # the order follows the means, whichever method is first in the table
    flip = check_verdict(_two_methods([0.60, 0.61, 0.60], [0.70, 0.72, 0.71]))
    assert flip["best"] == "forest proximity" and flip["runner_up"] == "SparGE"
    # a third representation is named after the two compared
    three = pd.concat([_two_methods([0.70, 0.72, 0.71], [0.67, 0.69, 0.68]), pd.DataFrame(
        [{"split": s, "method": "raw features", "precision_at_10_balanced": 0.55,
          "knn_balanced_accuracy": 0.55, "seconds": 0.0} for s in range(3)])])
    assert check_verdict(three)["sentence"].endswith("Next: raw features 55.0\u00a0%.")
    assert "Next:" not in clear["sentence"]


def test_check_verdict_says_what_its_measure_does_not_tell():
    import pandas as pd

    from sparge.services.lookalike_check import check_verdict

    def results(p10, vote):
        return pd.DataFrame(
            [{"split": s, "method": m, "precision_at_10_balanced": p10[m][s],
              "knn_balanced_accuracy": vote[m][s], "seconds": 1.0}
             for s in range(3) for m in p10])

    # SparGE ahead on the shares, the forest ahead on the vote, all near chance (50 %)
    mixed = check_verdict(results(
        {"SparGE": [0.59, 0.60, 0.58], "forest proximity": [0.54, 0.55, 0.54]},
        {"SparGE": [0.57, 0.57, 0.57], "forest proximity": [0.58, 0.58, 0.577]}),
        n_classes=2)
    assert mixed["best"] == "SparGE"
    assert ("The 5-look-alike vote ranks them differently: forest proximity 58\u00a0% "
            "balanced accuracy, SparGE 57\u00a0%.") in mixed["sentence"]
    assert "within 10 points of chance" in mixed["sentence"]
    # whole percents that would read the same get a decimal ("15 %, raw features 15 %")
    close = check_verdict(results(
        {"SparGE": [0.59, 0.60, 0.58], "forest proximity": [0.54, 0.55, 0.54]},
        {"SparGE": [0.147, 0.147, 0.147], "forest proximity": [0.153, 0.153, 0.153]}))
    assert "forest proximity 15.3\u00a0% balanced accuracy, SparGE 14.7\u00a0%" in \
        close["sentence"]
    # far above chance and the same order by both measures: no hedge
    plain = check_verdict(results(
        {"SparGE": [0.80, 0.82, 0.81], "forest proximity": [0.70, 0.71, 0.70]},
        {"SparGE": [0.80, 0.81, 0.80], "forest proximity": [0.70, 0.70, 0.71]}),
        n_classes=2)
    assert "ranks them differently" not in plain["sentence"]
    assert "chance:" in plain["sentence"] and "points of chance" not in plain["sentence"]
    assert "recorded after the outcome" not in plain["sentence"]


def test_check_verdict_small_numbers_and_near_perfect_shares():
    """A walk-through read "The difference, 0.2 points, is less than twice its standard
    error (0.1)" (0.15 and 0.09 rounded), and 100 % look-alikes from a leaked outcome with
    no word of caution."""
    from sparge.services.lookalike_check import check_verdict

    tie = check_verdict(_two_methods([0.9990, 0.9975, 1.0], [0.9990, 0.9990, 0.9940]))
    assert not tie["clear"]
    said = tie["sentence"]
    number = float(said.split("The difference, ")[1].split(" points")[0])
    se = float(said.split("standard error of ")[1].split(",")[0])
    assert number < 2 * se  # what is written agrees with what is said
    assert "recorded after the outcome" in said and "99.9\u00a0%" in said


def test_warm_up_loads_the_compiled_walk_once():
    """The app loads the compiled tree walk at start, not in the first look-alike query."""
    from sparge.method.proximity import _walk_trees, warm_up

    warm_up()
    assert _walk_trees.cache_info().currsize == 1
    walk = _walk_trees()
    assert walk.signatures  # compiled for apply's argument types
    warm_up()
    assert _walk_trees() is walk
