"""Look-alikes of another kind of patient (sparge.services.defining_answers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import tumour_sites_table

from sparge.services.defining_answers import (
    MAX_NAMED,
    _eta2,
    defining_columns,
    other_kinds,
    other_kinds_message,
)
from sparge.services.workflow import encode_cohort, train


@pytest.fixture(scope="module")
def sites():
    cohort = encode_cohort(tumour_sites_table(), id_column="ID",
                           label_column="Febrile neutropenia")
    model = train(cohort, {"max_iter": 2})
    return cohort, model, model.training_values()


def test_correlation_ratio_is_the_share_of_variance_between_groups():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 3, 200)
    Y = np.c_[codes * 2.0 + rng.normal(0, 1, 200), rng.normal(0, 1, 200),
              np.where(codes == 1, 1.0, np.nan), np.ones(200)]
    Y[rng.random(200) < 0.2, 0] = np.nan
    got = _eta2(codes, Y)
    for j in (0, 1):
        ok = np.isfinite(Y[:, j])
        y, c = Y[ok, j], codes[ok]
        between = sum((c == g).sum() * (y[c == g].mean() - y.mean()) ** 2 for g in range(3))
        assert got[j] == pytest.approx(between / ((y - y.mean()) ** 2).sum())
    # one group measured only, or no spread: nothing to say
    assert np.isnan(got[2]) and np.isnan(got[3])
    # rows of a group left out (-1) do not count
    left = codes.copy()
    left[:50] = -1
    assert _eta2(left, Y[:, :1])[0] == pytest.approx(_eta2(codes[50:], Y[50:, :1])[0])


def test_a_tumour_site_sorts_the_cohort_into_kinds_an_ethnicity_does_not(sites):
    cohort, _, values = sites
    assert defining_columns(values, cohort.encoder) == ["Primary site"]
    assert defining_columns(values, None) == []
    # a column shuffled across patients decides nothing
    shuffled = values.copy()
    shuffled["Primary site"] = np.random.default_rng(0).permutation(
        shuffled["Primary site"].to_numpy())
    assert defining_columns(shuffled, cohort.encoder) == []


def test_lookalikes_mostly_of_another_site_are_named_with_their_answers(sites):
    cohort, _, values = sites
    site = values["Primary site"].to_numpy()
    words = {v: k for k, v in cohort.encoder.table_.levels("Primary site").items()}
    lung = float(cohort.encoder.table_.levels("Primary site")["Lung"])
    patient = int(np.flatnonzero(np.isclose(site, lung))[0])
    others = np.flatnonzero(~np.isclose(site, lung))
    same = np.flatnonzero(np.isclose(site, lung))[1:4]
    picked = np.r_[same, others[:7]]
    found = other_kinds(values.iloc[patient].to_numpy(), values.iloc[picked],
                        ["Primary site"], cohort.encoder)
    assert len(found) == 1
    o = found[0]
    assert (o.feature, o.answer, o.same, o.measured) == ("Primary site", "Lung", 3, 10)
    want = pd.Series([words[round(v)] for v in site[others[:7]]]).value_counts()
    assert dict(o.others) == want.to_dict()
    assert [c for _, c in o.others] == sorted(want.to_list(), reverse=True)
    said = other_kinds_message(found)
    assert "'Primary site' Lung: 3 of the 10 look-alikes with an answer; the others" in said
    assert "match on it" in said
    # half or more share it: nothing said; matched on it already, or the patient has no
    # answer: nothing said
    assert other_kinds(values.iloc[patient].to_numpy(), values.iloc[np.r_[same, same[:2],
                       others[:5]]], ["Primary site"], cohort.encoder) == []
    assert other_kinds(values.iloc[patient].to_numpy(), values.iloc[picked],
                       ["Primary site"], cohort.encoder, matched=["Primary site"]) == []
    q = values.iloc[patient].to_numpy().copy()
    q[list(values.columns).index("Primary site")] = np.nan
    assert other_kinds(q, values.iloc[picked], ["Primary site"], cohort.encoder) == []
    assert other_kinds_message([]) == ""


def test_at_most_three_columns_are_named_most_differing_first():
    class _Table:
        def has(self, c):
            return True

        def levels(self, c):
            return {"a": 0, "b": 1, "c": 2}

        def is_ordered(self, c):
            return False

    class _Enc:
        roles_ = {f"C{i}": "categorical" for i in range(5)}
        table_ = _Table()

        def cell_unit(self, c):
            return None

    nb = pd.DataFrame({f"C{i}": [0.0] * (i + 1) + [1.0] * (9 - i) for i in range(5)})
    found = other_kinds(np.zeros(5), nb, list(nb.columns), _Enc())
    assert len(found) == MAX_NAMED == 3
    assert [o.feature for o in found] == ["C0", "C1", "C2"]
    assert [o.same for o in found] == [1, 2, 3]
