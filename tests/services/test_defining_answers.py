"""Look-alikes of another kind of patient (sparge.services.defining_answers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import tumour_sites_table

from sparge.services.defining_answers import (
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
    found = defining_columns(values, cohort.encoder)
    assert [c.feature for c in found] == ["Primary site"]
    # each site its own kind: each has its own markers
    assert len(set(found[0].kinds.values())) == 4
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
    sites = defining_columns(values, cohort.encoder)
    found = other_kinds(values.iloc[patient].to_numpy(), values.iloc[picked], sites,
                        cohort.encoder)
    assert len(found) == 1
    o = found[0]
    assert (o.feature, o.answer, o.same, o.measured) == ("Primary site", "Lung", 3, 10)
    want = pd.Series([words[round(v)] for v in site[others[:7]]]).value_counts()
    assert dict(o.others) == want.to_dict()
    assert [c for _, c in o.others] == sorted(want.to_list(), reverse=True)
    said = other_kinds_message(found)
    assert said.startswith("Most look-alikes are another kind of patient than this one, in "
                           "a column whose answers go with what else is measured or its "
                           "level: 'Primary site' Lung: 3 of the 10 look-alikes with an "
                           "answer have it; the others")
    # what the column decides is named (walk-through 73 could not tell what a regimen
    # was said to decide)
    assert "(its answers go with '" in said and o.decides
    assert "match on it" in said
    # half or more share it: nothing said; matched on it already, or the patient has no
    # answer: nothing said
    assert other_kinds(values.iloc[patient].to_numpy(), values.iloc[np.r_[same, same[:2],
                       others[:5]]], sites, cohort.encoder) == []
    assert other_kinds(values.iloc[patient].to_numpy(), values.iloc[picked],
                       sites, cohort.encoder, matched=["Primary site"]) == []
    q = values.iloc[patient].to_numpy().copy()
    q[list(values.columns).index("Primary site")] = np.nan
    assert other_kinds(q, values.iloc[picked], sites, cohort.encoder) == []
    assert other_kinds_message([]) == ""


def _dialysis_unit(n: int = 600, seed: int = 0) -> pd.DataFrame:
    """Modalities of three kinds (haemodialysis and HDF with a Kt/V and URR; PD, APD and
    CAPD with neither; transplant with neither and a functioning graft's eGFR), an access
    that goes with the modality, a waiting list status that decides nothing."""
    rng = np.random.default_rng(seed)
    modality = rng.choice(["HD", "HDF", "PD", "APD", "CAPD", "Tx"], n,
                          p=[.3, .2, .1, .1, .1, .2])
    hd = np.isin(modality, ["HD", "HDF"])
    pd_ = np.isin(modality, ["PD", "APD", "CAPD"])
    access = np.where(hd, rng.choice(["AVF", "AVG", "Line"], n),
                      np.where(pd_, "PD catheter", "None"))
    return pd.DataFrame({
        "ID": [f"R{i}" for i in range(n)], "Modality": modality, "Access": access,
        "Kt/V": np.where(hd, rng.normal(1.4, 0.2, n).round(2), np.nan),
        "URR": np.where(hd, rng.normal(70, 4, n).round(), np.nan),
        "eGFR": np.where(modality == "Tx", rng.normal(45, 10, n).round(), np.nan),
        "Hb": rng.normal(110, 12, n).round(),
        "List status": rng.choice(["Active", "Suspended", "Work up", "Not suitable"], n),
        "Admitted": rng.choice(["Y", "N"], n)})


def test_answers_are_compared_by_kind_and_linked_columns_named_once():
    """Walk-through 57: HDF against haemodialysis, "work up" against "active" and a
    transplant patient's access "None" each fired the warning."""
    cohort = encode_cohort(_dialysis_unit(), id_column="ID", label_column="Admitted")
    model = train(cohort, {"max_iter": 2})
    values = model.training_values()
    found = {c.feature: c for c in defining_columns(values, cohort.encoder)}
    assert set(found) == {"Modality", "Access"}  # the list status decides nothing
    codes = cohort.encoder.table_.levels("Modality")
    kind = {w: found["Modality"].kinds[int(codes[w])] for w in codes}
    assert kind["HD"] == kind["HDF"] and kind["PD"] == kind["APD"] == kind["CAPD"]
    assert len({kind["HD"], kind["PD"], kind["Tx"]}) == 3
    assert found["Modality"].linked == ("Access",) and found["Access"].linked == ("Modality",)
    mod = values["Modality"].round().to_numpy()
    hd, hdf, apd = (np.flatnonzero(mod == codes[w]) for w in ("HD", "HDF", "APD"))
    cols = list(found.values())
    # an HD patient among HDF look-alikes: one kind, nothing said
    assert other_kinds(values.iloc[hd[0]].to_numpy(), values.iloc[hdf[:10]], cols,
                       cohort.encoder) == []
    # ... among PD look-alikes: said once (Access goes with Modality), the others named
    said = other_kinds(values.iloc[hd[0]].to_numpy(), values.iloc[np.r_[hdf[:3], apd[:7]]],
                       cols, cohort.encoder)
    assert len(said) == 1 and said[0].same == 3 and said[0].measured == 10
    assert said[0].feature in ("Modality", "Access")
    if said[0].feature == "Modality":
        assert said[0].others == (("APD", 7),) and said[0].alike == ("HDF",)
        assert said[0].sentence().startswith(
            "'Modality' HD: 3 of the 10 look-alikes with an answer have HD or HDF (answers "
            "of one kind); the others APD 7 (its answers go with '")
    # matched on the modality: its access is not named either
    assert other_kinds(values.iloc[hd[0]].to_numpy(), values.iloc[apd[:10]], cols,
                       cohort.encoder, matched=["Modality"]) == []


def test_the_answers_of_a_patients_kind_are_named_in_a_sentence():
    """Walk-through 101b: "HFNO: 4 of the 10 look-alikes with an answer have it or No or
    NIV" read as a sentence about "No"."""
    from sparge.services.defining_answers import OtherKind

    def said(alike):
        return OtherKind("MV", "Mechanical ventilation", "HFNO", 4, 10,
                         (("Invasive", 6),), alike=alike).sentence()

    assert said(("No", "NIV")) == ("'Mechanical ventilation' HFNO: 4 of the 10 look-alikes "
                                   "with an answer have HFNO, No or NIV (answers of one "
                                   "kind); the others Invasive 6")
    assert "have HFNO or NIV (answers of one kind);" in said(("NIV",))
    assert "have it; the others" in said(())
    assert "have HFNO or one of 3 answers of its kind (No, NIV, CPAP …)" in \
        said(("No", "NIV", "CPAP"))
