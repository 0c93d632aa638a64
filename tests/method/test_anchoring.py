"""Anchoring sparse queries on their given values: the distance, the weights, the unit,
and the index's exact scan with a query-dependent term."""

from __future__ import annotations

import numpy as np
import pytest

from sparge.method.anchoring import MIN_MEASURED, anchor_levers, anchor_scale, given_sqdist
from sparge.method.neighbors import LookalikeIndex
from sparge.method.proximity import fit_leaf_forest, reference_leaves
from sparge.method.similarity import ensemble_sqdist


def test_given_sqdist_is_the_mean_over_the_given_features():
    rng = np.random.default_rng(0)
    Q = rng.standard_normal((6, 5))
    Q[rng.random(Q.shape) < 0.5] = np.nan
    Q[0] = np.nan  # no value at all
    R = rng.standard_normal((7, 5))
    D = given_sqdist(Q, R)
    for i in range(6):
        g = np.isfinite(Q[i])
        for j in range(7):
            want = np.mean((Q[i, g] - R[j, g]) ** 2) if g.any() else 0.0
            assert D[i, j] == pytest.approx(want, abs=1e-12)


def test_levers_are_zero_up_to_the_typical_share_and_grow_with_the_gaps():
    m = 10
    Q = np.zeros((m + 1, m))
    for i in range(m + 1):
        Q[i, :i] = np.nan  # query i misses i of 10 values
    w = anchor_levers(Q, typical_missing=0.2, weight=0.5)
    assert np.all(w[:3] == 0)  # 0, 10 and 20 % missing: a typical patient
    assert np.all(np.diff(w[2:]) > 0)
    # e = (0.6 - 0.2) / 0.8 = 0.5: c e / (1 - e) = c
    assert w[6] == pytest.approx(0.5)
    assert w[m] == pytest.approx(0.5 / MIN_MEASURED)  # nothing given: capped, not infinite
    assert np.all(anchor_levers(Q, 0.2, 0.0) == 0)
    # every training patient complete: one value missing already counts
    assert anchor_levers(Q[:2], 0.0, 1.0)[1] == pytest.approx(0.1 / 0.9)


def test_anchor_scale_is_the_ratio_of_the_medians_over_pairs():
    rng = np.random.default_rng(1)
    R = rng.standard_normal((40, 4))
    D = 3.0 * given_sqdist(R, R)
    D[0, 1] = np.inf  # skipped
    assert anchor_scale(D, R) == pytest.approx(3.0)


@pytest.mark.parametrize("method", ["exact", "approximate"])
@pytest.mark.parametrize("forest", [False, True])
def test_index_scan_with_an_extra_term_is_exact(method, forest):
    rng = np.random.default_rng(2)
    n, nq = 300, 5
    F = rng.standard_normal((n + nq, 6))
    y = (F[:, 0] > 0).astype(int)
    leaves_ref = leaves_q = None
    scale = 0.0
    if forest:
        packed, L, oob = fit_leaf_forest(F[:n], y[:n], n_estimators=20, min_samples_leaf=5,
                                         random_state=0, n_jobs=1)
        leaves_ref = reference_leaves(L, ~oob)  # in-bag: some trees do not count
        leaves_q = packed.apply(F[n:])
        scale = 2.0
    extra_rows = rng.random((nq, n)) * 5
    index = LookalikeIndex(method=method, n_neighbors=10, random_state=0, n_jobs=1).fit(
        F[:n], leaves_ref, scale)
    dist, idx = index.query(F[n:], 7, leaves_q,
                            extra_d2=lambda qs, rs: extra_rows[qs, rs])
    want = ensemble_sqdist(F[n:], F[:n], leaves_q, leaves_ref, scale) + extra_rows
    order = np.argsort(want, axis=1, kind="stable")[:, :7]
    np.testing.assert_array_equal(idx, order)
    np.testing.assert_allclose(dist ** 2, np.take_along_axis(want, order, axis=1),
                               rtol=1e-9, atol=1e-9)
    # queries in blocks of two: the same look-alikes
    d_b, i_b = index.query(F[n:], 7, leaves_q, chunk=2,
                           extra_d2=lambda qs, rs: extra_rows[qs, rs])
    np.testing.assert_array_equal(i_b, idx)
    np.testing.assert_allclose(d_b, dist)
