"""Why two patients are look-alikes (sparge.estimator.explain)."""

from __future__ import annotations

import numpy as np

from sparge.estimator.explain import explain_pair


def test_agreeing_features_first_then_the_differing_ones():
    q = np.array([0.0, 1.0, 2.0, np.nan, 5.0])
    v = np.array([0.1, 3.0, 2.0, 1.0, -1.0])
    names = ["a", "b", "c", "d", "e"]
    df = explain_pair(q, v, names, n_features=2)
    assert list(df.columns) == ["feature", "query", "neighbor", "difference", "relation"]
    agree = df[df.relation == "agree"]
    differ = df[df.relation == "differ"]
    assert list(agree.feature) == ["c", "a"]  # smallest differences first
    assert list(differ.feature) == ["e", "b"]  # largest first, none repeated from agree
    assert "d" not in set(df.feature)  # missing in the query: not compared
    np.testing.assert_allclose(df.difference, np.abs(df["query"] - df["neighbor"]))


def test_nothing_observed_in_both_gives_an_empty_table():
    df = explain_pair(np.array([np.nan, 1.0]), np.array([1.0, np.nan]), ["a", "b"])
    assert df.empty and list(df.columns)[0] == "feature"
