"""A feature spanning orders of magnitude (a viral load) is compared by its logarithm
(``log_scale="auto"``; walk-through 38: every look-alike of a failing patient sat at 50
copies/mL, the linear scale putting 50 and 7,673 0.08 SD apart)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from sparge import SparGE
from sparge.method.preprocess import log_columns, skewed_columns, wide_range_columns
from sparge.services.persistence import load_model, save_model


def _clinic(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Viral load (log-normal, 50 to ~10^6) decides the outcome; four other features."""
    rng = np.random.default_rng(seed)
    failing = rng.random(n) < 0.4
    log_vl = np.where(failing, rng.normal(4.3, 0.8, n), rng.normal(1.9, 0.25, n))
    X = np.column_stack([10 ** log_vl, rng.normal(500, 150, n), rng.normal(40, 12, n),
                         rng.normal(13, 1.5, n), rng.normal(80, 15, n)])
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, np.where(failing, "Yes", "No")


def test_the_wide_range_columns_are_those_of_positive_values_over_three_decades():
    X, _ = _clinic()
    assert wide_range_columns(X).tolist() == [0]
    assert wide_range_columns(np.column_stack([X[:, 0], -X[:, 0]])).tolist() == [0]
    assert wide_range_columns(X, decades=10).tolist() == []
    few = np.tile([1.0, 10.0, 1e4, 1e6], 10)[:, None]  # four distinct values: a code
    assert wide_range_columns(few).tolist() == []
    logged = log_columns(np.array([[100.0, 3.0], [0.0, 4.0], [np.nan, 5.0]]), [0])
    assert logged[0, 0] == 2.0 and logged[1, 0] == -np.inf and np.isnan(logged[2, 0])
    assert logged[:, 1].tolist() == [3.0, 4.0, 5.0]


def test_right_skewed_lab_values_over_a_decade_are_compared_by_their_logarithm():
    """Round 28: a CRP or a bilirubin (log-normal, one to two decades) is right-skewed on
    its own scale and near-symmetric in logarithms; a bell-shaped value, a left-skewed
    one, a narrow one, a code and a value that can be 0 are kept on their own scale."""
    rng = np.random.default_rng(0)
    n = 500
    crp = np.exp(rng.normal(1.5, 1.1, n))            # ~1 to ~60 mg/L: two decades
    sodium = rng.normal(139, 3, n)                   # bell-shaped, narrow
    narrow = np.exp(rng.normal(4.0, 0.15, n))        # log-normal, but under a decade
    left = 100 - np.exp(rng.normal(2.0, 0.9, n))     # a long lower tail
    left = left[left > 0].tolist() + [50.0] * int((left <= 0).sum())
    code = rng.choice([1.0, 2.0, 30.0], n)           # three answers
    zeros = np.where(rng.random(n) < 0.2, 0.0, crp)  # 0 written: no logarithm
    vl = 10 ** rng.normal(3, 1.2, n)                 # a viral load: over three decades
    X = np.column_stack([crp, sodium, narrow, left, code, zeros, vl])
    X[rng.random(X.shape) < 0.1] = np.nan
    assert skewed_columns(X).tolist() == [0, 6]
    assert wide_range_columns(X).tolist() == [6]     # the round-26 rule: only the widest
    # the logarithm of a right-skewed column is more symmetric: the rule's own test
    v = X[:, 0][np.isfinite(X[:, 0])]
    from scipy.stats import skew
    assert skew(v) > 1 and abs(skew(np.log10(v))) < 0.3
    # the model's default uses it; "wide" keeps round 26's rule, "none" neither
    y = np.where(np.nan_to_num(X[:, 0]) > 10, "Yes", "No")
    fits = {how: SparGE(max_iter=0, random_state=0, log_scale=how).fit(X, y).log_columns_
            for how in ("auto", "wide", "none")}
    assert [f.tolist() for f in fits.values()] == [[0, 6], [6], []]
    with pytest.raises(ValueError, match="log_scale"):
        SparGE(log_scale="skewed").fit(X, y)


def test_the_model_standardises_the_logarithm_and_shows_values_in_their_units():
    X, y = _clinic()
    m = SparGE(max_iter=0, random_state=0).fit(X, y)
    assert m.log_columns_.tolist() == [0]
    # the model's units: the logarithm, standardised
    z = m.standardize(X)[:, 0]
    ok = ~np.isnan(X[:, 0])
    expect = (np.log10(X[ok, 0]) - np.log10(X[ok, 0]).mean()) / np.log10(X[ok, 0]).std()
    np.testing.assert_allclose(z[ok], expect, atol=1e-9)
    # every value shown stays in its own units
    np.testing.assert_allclose(m.training_values().to_numpy()[:, 0][ok], X[ok, 0],
                               rtol=1e-5)
    assert np.all(m.complete(X[:5])[:, 0] > 0)
    np.testing.assert_allclose(m.value_mean_[0], np.nanmean(X[:, 0]))
    np.testing.assert_allclose(m.value_scale_[0], np.nanstd(X[:, 0]))
    np.testing.assert_array_equal(m.value_mean_[1:], m.mean_[1:])
    # a value <= 0 (a typed "0") is floored at the smallest training patient's
    q = X[:2].copy()
    q[:, 0] = [0.0, -5.0]
    assert np.all(m.standardize(q)[:, 0] == np.nanmin(m.training_data_[:, 0]))
    none = SparGE(max_iter=0, random_state=0, log_scale="none").fit(X, y)
    assert none.log_columns_.tolist() == []
    np.testing.assert_array_equal(none.value_mean_, none.mean_)


def test_look_alikes_follow_the_logarithm_of_a_viral_load():
    """A patient at 7,673 copies/mL is nearer 20,000 than 50 on the log scale."""
    X, y = _clinic(400, seed=1)
    tr, te = np.arange(300), np.arange(300, 400)
    gaps = {}
    for how in ("auto", "none"):
        m = SparGE(max_iter=0, random_state=0, log_scale=how, forest_weight=0).fit(X[tr],
                                                                                  y[tr])
        idx = m.kneighbors(np.nan_to_num(X[te], nan=np.nanmedian(X[tr], axis=0)),
                           n_neighbors=10)[1]
        lx = np.log10(X[tr, 0])
        q = np.log10(np.nan_to_num(X[te, 0], nan=np.nanmedian(X[tr, 0])))
        gaps[how] = float(np.nanmedian(np.abs(lx[idx] - q[:, None])))
    assert gaps["auto"] < 0.6 * gaps["none"], gaps


def test_the_log_columns_are_saved_and_checked():
    X, y = _clinic()
    m = SparGE(max_iter=0, random_state=0).fit(X, y)
    again = SparGE.from_state(m.get_state())
    assert again.log_columns_.tolist() == [0]
    np.testing.assert_allclose(again.transform(X[:20]), m.transform(X[:20]))
    np.testing.assert_allclose(again.value_mean_, m.value_mean_, rtol=1e-6)
    buf = io.BytesIO()
    save_model(buf, m)
    loaded, _ = load_model(io.BytesIO(buf.getvalue()))
    np.testing.assert_allclose(loaded.transform(X[:20]), m.transform(X[:20]), rtol=1e-6)
    # an older file: no log columns, every feature on its own scale
    state = m.get_state()
    del state.values["log_columns"]
    assert SparGE.from_state(state).log_columns_.tolist() == []
    state.values["log_columns"] = [0, 0]
    with pytest.raises(ValueError, match="log_columns"):
        SparGE.from_state(state)
    state.values["log_columns"] = [7]
    with pytest.raises(ValueError, match="log_columns"):
        SparGE.from_state(state)


def test_the_pages_sd_cue_is_on_the_scale_the_model_compares():
    """Walk-through 38's follow-up: on the linear scale 50 and 7,673 copies/mL are 0.08 SD
    apart, so "Why are they alike?" called them "agree" while the model, comparing the
    logarithm, keeps them far apart. The SD cue, the verdict and a group's summary now
    use the model's scale: the logarithm, floored at the smallest training value."""
    from sparge.services.display import (
        group_summary,
        log_scale_note,
        pair_comparison,
        standardize,
    )

    X, y = _clinic()
    m = SparGE(max_iter=0, random_state=0).fit(X, y)
    floors = m.log_floors()
    assert list(floors) == [0]
    assert floors[0] == pytest.approx(np.nanmin(X[:, 0]), rel=1e-6)  # stored as float32
    # the model's own standardisation, a value below the floor counted as it
    q = np.array([[50.0, 500, 40, 13, 80], [7673.0, 500, 40, 13, 80],
                  [0.0, 500, 40, 13, 80], [np.nan, 500, 40, 13, 80]])
    z = standardize(q, np.arange(5), m.mean_, m.scale_, floors)
    np.testing.assert_allclose(z[:3], m.standardize(q)[:3], atol=1e-9)
    assert np.isnan(z[3, 0])
    names = [f"x{j}" for j in range(5)]
    pair = pair_comparison(q[0], q[1], ["x0", "x1"], names, m.mean_, m.scale_, log=floors)
    assert pair["Verdict"].tolist() == ["differ", "agree"]
    assert float(z[1, 0] - z[0, 0]) > 1.0
    # without the model's scale (its own SD) they would "agree": what the pages said
    linear = pair_comparison(q[0], q[1], ["x0"], names, m.value_mean_, m.value_scale_)
    assert linear["Verdict"].tolist() == ["agree"]
    # a group is summarised by its geometric mean, its difference in SD of the logarithm
    values = m.training_values()
    values.columns = names
    assert len(values) == len(y)
    failing = np.flatnonzero(y == "Yes")
    summ = group_summary(values, failing, m.mean_, m.scale_, log=floors)["features"]
    row = summ.set_index("Biomarker").loc["x0"]
    vl = values["x0"].to_numpy()
    g = vl[failing][np.isfinite(vl[failing])]
    geo = 10 ** np.log10(g).mean()
    assert row["Group"].endswith("(geometric)")
    assert float(row["Group"].split(" (")[0].replace("\xa0", "")) == \
        pytest.approx(geo, rel=0.01)
    assert row["Difference"].startswith("+") and float(row["Difference"].split()[0]) > 1.5
    assert log_scale_note(["x1"], names, floors) == ""
    assert "x0 spans one or more orders of magnitude" in log_scale_note(["x0", "x1"], names,
                                                                        floors)
    # a model comparing every feature on its own scale has no floors
    assert SparGE(max_iter=0, random_state=0, log_scale="none").fit(X, y).log_floors() == {}
