"""What a share of look-alikes with an outcome meant for held-out patients (walk-through
72 read "9 of 10 look-alikes died" as a 90 % risk; about half of such patients died)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.services.lookalike_check import (
    check_reliability,
    lookalike_check,
    reliability_table,
    share_band,
    share_reliability,
)
from sparge.services.workflow import (
    heldout_share,
    heldout_share_sentence,
    lookalikes_heldout,
    outcome_share_caption,
    outcome_shares,
)


def test_bands_are_fifths_of_the_look_alikes_in_integer_arithmetic():
    assert share_band(np.arange(11), 10).tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    for k in range(1, 31):
        band = share_band(np.arange(k + 1), k)
        assert band[0] == 0 and band[-1] == 4 and (np.diff(band) >= 0).all()
        # band b holds exactly the shares in (b/5, (b+1)/5] (0 in band 0)
        for c, b in enumerate(band):
            share = c / k
            assert (b == 0 and share <= 0.2) or (b / 5 < share <= (b + 1) / 5), (k, c, b)


def test_reliability_counts_the_held_out_patients_of_every_band():
    # 4 patients with 9 of 10 look-alikes 'died' (2 died), 3 with 1 of 10 (none died)
    lab = np.array([["died"] * 9 + ["alive"]] * 4 + [["died"] + ["alive"] * 9] * 3)
    truth = np.array(["died", "died", "alive", "alive", "alive", "alive", "alive"])
    rel = share_reliability(lab, truth, ["alive", "died"])
    died = rel[rel["outcome"] == "died"].set_index("low")
    assert died.loc[9, ["high", "k", "patients", "had"]].tolist() == [10, 10, 4, 2]
    assert died.loc[0, ["high", "patients", "had"]].tolist() == [2, 3, 0]
    alive = rel[rel["outcome"] == "alive"].set_index("low")
    assert alive.loc[9, ["patients", "had"]].tolist() == [3, 3]  # 9 of 10 alive
    assert alive.loc[0, ["patients", "had"]].tolist() == [4, 2]  # 1 of 10 alive
    # every outcome's bands hold every patient once; empty bands are not rows
    assert (rel.groupby("outcome")["patients"].sum() == 7).all()
    assert len(rel) == 4


def test_the_check_keeps_every_held_out_patients_look_alike_outcomes():
    rng = np.random.default_rng(1)
    y = np.array(["Yes"] * 40 + ["No"] * 60)
    X = rng.normal(size=(100, 4)) + 0.8 * (y == "Yes")[:, None]
    res = lookalike_check(X, y, n_splits=2, methods=("raw features",))
    rel = check_reliability(res, "raw features")
    assert check_reliability(res, "SparGE") is None  # not run
    assert set(rel["outcome"]) == {"Yes", "No"} and (rel["k"] == 10).all()
    n_test = res.attrs["n_test"]
    assert (rel.groupby("outcome")["patients"].sum() == 2 * n_test).all()
    # each outcome's held-out patients are counted once per split (stratified: 12 of 30)
    assert rel.groupby("outcome")["had"].sum().to_dict() == {"No": 36, "Yes": 24}
    # look-alikes that share the outcome more often are right more often, here
    yes = rel[rel["outcome"] == "Yes"].sort_values("low")
    share = yes["had"] / yes["patients"]
    assert share.iloc[-1] > share.iloc[0]
    shown = reliability_table(rel, order=["Yes", "No"])
    assert list(shown.columns) == ["Outcome", "Look-alikes with it", "Held-out patients",
                                   "Had it (%, 95 % CI)"]
    assert shown["Outcome"].iloc[0] == "Yes" and shown["Outcome"].iloc[-1] == "No"
    assert shown["Had it (%, 95 % CI)"].str.fullmatch(r"\d{1,3} \(\d{1,3}–\d{1,3}\)").all()
    assert "9–10 of 10" in set(shown["Look-alikes with it"])


@pytest.fixture
def reliability():
    return pd.DataFrame({"outcome": ["died"] * 3, "low": [0, 7, 9], "high": [2, 8, 10],
                         "k": 10, "patients": [200, 8, 40], "had": [20, 4, 21]})


def test_the_share_under_the_bars_is_read_as_what_it_meant_held_out(reliability):
    table = pd.DataFrame({"outcome": ["died"] * 9 + ["alive"]})
    said = outcome_share_caption(table, reliability)
    assert said.startswith("9 of 10 look-alikes had 'died'. What such a share meant in "
                           "this cohort's held-out check (Model page): 52 % of the 40 "
                           "held-out patients whose 10 look-alikes included 9–10 with "
                           "'died' had it themselves (95 % Wilson interval 37–67 %")
    assert "of all held-out patients, 18 %" in said  # 45 of 248
    assert "small sample" not in said
    # too few held-out patients in the band (8): read with its neighbour of fewer
    # patients (9-10's 40, not 0-2's 200), never the look-alikes' own interval
    # (walk-through 90: "72 % to 100 %" beside the Model page's 29 %)
    eight = pd.DataFrame({"outcome": ["died"] * 8 + ["alive"] * 2})
    said = outcome_share_caption(eight, reliability)
    assert "small sample" not in said
    assert ("52 % of the 48 held-out patients whose 10 look-alikes included 7–10 with "
            "'died' had it themselves") in said  # (4 + 21) of (8 + 40)
    assert "only 8 had 7–8, too few to read alone" in said
    tiny = reliability.assign(patients=[3, 2, 4], had=[0, 1, 2])
    assert heldout_share_sentence(tiny, "died", 8, 10) is None  # 9 in all: too few
    # another number of look-alikes than the check's 10, or an outcome it never saw
    assert heldout_share_sentence(reliability, "died", 5, 5) is None
    assert heldout_share_sentence(reliability, "alive", 1, 10) is None
    assert heldout_share_sentence(None, "died", 9, 10) is None
    # look-alikes without a recorded outcome are not the check's 10
    gaps = pd.DataFrame({"outcome": ["died"] * 9 + [None]})
    assert "small sample" in outcome_share_caption(gaps, reliability)


def test_look_alikes_drawn_under_conditions_are_not_read_through_the_check(reliability):
    """Walk-through 73 matched exactly on some biomarkers: the held-out line went, and the
    share alone read as a risk."""
    table = pd.DataFrame({"outcome": ["died"] * 9 + ["alive"]})
    said = outcome_share_caption(table, None, conditioned=True)
    assert "not among those matching the conditions" in said and "held-out patients" \
        not in said
    assert "not among those matching" not in outcome_share_caption(table)


def test_a_patient_held_out_by_several_splits_widens_the_interval():
    """Walk-through 74: 3 splits of 288 patients gave 261 "held-out patients" in a band
    table whose Wilson intervals took every split's patient for another patient."""
    from sparge.services.lookalike_check import repeat_interval
    from sparge.services.workflow import wilson_interval

    assert repeat_interval(40, 100, 1.0) == wilson_interval(40, 100)
    lo1, hi1 = repeat_interval(40, 100, 1.0)
    lo2, hi2 = repeat_interval(40, 100, 2.0)
    assert lo2 < lo1 and hi2 > hi1 and (lo2, hi2) == wilson_interval(20, 50)
    rng = np.random.default_rng(2)
    y = np.array(["Yes"] * 30 + ["No"] * 30)
    X = rng.normal(size=(60, 3)) + (y == "Yes")[:, None]
    res = lookalike_check(X, y, n_splits=3, methods=("raw features",))
    rel = check_reliability(res, "raw features")
    # 3 splits of 18 held out among 60 patients: some held out twice or more
    assert 1.0 < rel["repeats"].iloc[0] <= 3.0


def test_a_patient_with_few_values_is_told_the_check_may_not_carry_over(reliability):
    """Walk-through 74's new patient had 5 of 18 values and read the check's 97 %."""
    table = pd.DataFrame({"outcome": ["died"] * 9 + ["alive"]})
    few = outcome_share_caption(table, reliability, measured=(5, 18))
    assert "This patient has 5 of the model's 18 values" in few
    assert "This patient has" not in outcome_share_caption(table, reliability,
                                                           measured=(12, 18))


def test_the_bar_of_a_share_shows_what_it_meant_held_out(reliability):
    """Walk-through 91: a 100 % bar filled the chart, and what such a share meant for the
    held-out patients (10 %) was a caption below it. The reading is drawn on the bar's
    row, with its interval, from the numbers the caption gives."""
    from sparge.app.plots import outcome_share_bar

    table = pd.DataFrame({"outcome": ["died"] * 9 + ["alive"]})
    read = lookalikes_heldout(table, reliability)
    assert read == heldout_share(reliability, "died", 9, 10)
    assert (read.patients, read.low, read.high) == (40, 9, 10)
    assert round(100 * read.share) == 52 and 0.36 < read.low_ci < read.share < read.high_ci
    fig = outcome_share_bar(outcome_shares(table), heldout=read)
    marker = fig.data[1]
    assert list(marker.y) == ["died"] and marker.x[0] == pytest.approx(52.5)
    assert marker.x[0] - marker.error_x.arrayminus[0] == pytest.approx(100 * read.low_ci)
    assert marker.x[0] + marker.error_x.array[0] == pytest.approx(100 * read.high_ci)
    assert fig.layout.showlegend and marker.mode == "markers"
    assert fig.data[0].showlegend is False  # the bars' colours are their outcomes
    assert marker.name == ("Held-out patients with such look-alikes:<br>52% had 'died' (95% "
                           f"interval {100 * read.low_ci:.0f}–{100 * read.high_ci:.0f}%)")
    assert fig.data[0].insidetextanchor == "start"  # the interval starts at 36 %
    # an interval reaching the axis' start: the bars' labels at their end (walk-through
    # 95: the whisker struck through "100%" at 2 %)
    low = read._replace(share=0.14, low_ci=0.02, high_ci=0.40)
    assert outcome_share_bar(outcome_shares(table), heldout=low).data[0] \
        .insidetextanchor == "end"
    # no check (or look-alikes without an outcome): the bars alone
    assert lookalikes_heldout(table, None) is None
    gaps = pd.DataFrame({"outcome": ["died"] * 9 + [None]})
    assert lookalikes_heldout(gaps, reliability) is None
    alone = outcome_share_bar(outcome_shares(table))
    assert len(alone.data) == 1 and not alone.layout.showlegend
