"""Anchoring sparse queries on their given values: the distance, the weights and the unit.
(The index's exact scan with the query-dependent term it adds is in test_neighbors.py, beside
the other NN-descent tests: a process pays pynndescent's compilation once.)"""

from __future__ import annotations

import numpy as np
import pytest

from sparge.method.anchoring import MIN_MEASURED, anchor_levers, anchor_scale, given_sqdist


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
