"""Values far from the rest of their column: a typo or another unit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.far_values import far_mask, log_bounds
from sparge.services.workflow import encode_cohort, training_ranges


def _column(rng, n=400, centre=138.0, sd=3.0):
    return rng.normal(centre, sd, n).round(0)


def test_an_isolated_slip_is_far_a_tail_that_runs_on_is_not():
    rng = np.random.default_rng(0)
    sodium = _column(rng)
    sodium[[5, 9]] = [1380.0, 1390.0]  # a lost decimal point, twice: both cut off
    sbp = _column(rng, centre=125.0, sd=18.0)
    sbp[7] = 12.0  # a lost digit, below
    # renal failure: creatinines of 1 with a tail that runs on to 11 (no jump of x3)
    creat = np.exp(rng.normal(0.0, 0.3, 400))
    creat[:12] = np.linspace(3.0, 11.0, 12)
    # a count, mostly zeros, and a short column: never judged
    admissions = np.r_[np.zeros(300), rng.integers(1, 30, 100)].astype(float)
    short = np.r_[np.full(15, 5.0), [500.0]]
    X = np.column_stack([sodium, sbp, creat, admissions, np.r_[short, np.full(384, np.nan)]])
    X[3, 0] = np.nan  # gaps are never far
    far = far_mask(X)
    assert set(zip(*np.nonzero(far), strict=True)) == {(5, 0), (9, 0), (7, 1)}
    lo, hi = log_bounds(X)
    assert np.isinf(lo[3]) and np.isinf(hi[4])  # not judged
    # new patients against the training patients: the training slip runs on to nothing
    new = np.array([[1290.0, 125.0, 12.0, 40.0, 5.0], [140.0, 60.0, 40.0, 0.0, 5.0]])
    assert far_mask(new, reference=X).tolist() == [[True, False, False, False, False],
                                                  [False, False, True, False, False]]


def test_the_report_lists_them_and_the_cohort_can_set_them_to_missing():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"id": [f"P{i}" for i in range(200)],
                       "Sodium": _column(rng, 200).astype(object),
                       "Age": rng.integers(40, 90, 200).astype(float),
                       "Outcome": ["a", "b"] * 100})
    df.loc[17, "Sodium"] = "1380"
    enc = Encoder(id_column="id", label_column="Outcome")
    X = enc.fit_transform(df)
    assert enc.report_.values_to_check == [["Sodium", 17, 1380.0, None, None]]
    note = next(w for w in enc.report_.warnings if "far from the rest" in w)
    assert "'Sodium' 1380 (CSV line 19); most patients" in note
    # the same range as the New patient form's empty field (walk-through 22 read two)
    from sparge.services.display import typical_range

    assert typical_range(X[:, 0]).replace("most ", "most patients ") in note
    assert X[17, 0] == 1380.0  # used as given by the encoder
    kept = encode_cohort(df, id_column="id", label_column="Outcome")
    cleared = encode_cohort(df, id_column="id", label_column="Outcome", clear_far=True)
    assert kept.X[17, 0] == 1380.0 and not kept.clear_far
    assert np.isnan(cleared.X[17, 0]) and cleared.clear_far
    # the library's report says what was done (walk-through 35 read "used as given")
    said = " ".join(cleared.encoder.report_.warnings)
    assert "set to missing for training" in said and "used as given" not in said
    assert "used as given" in " ".join(kept.encoder.report_.warnings)
    np.testing.assert_array_equal(np.delete(cleared.X, 17, axis=0),
                                  np.delete(kept.X, 17, axis=0))
    # the report counts the gaps the model trains on, and so keeps the patients (walk-
    # through 29's missing shares counted 111 cleared HbA1c as values)
    assert kept.encoder.report_.missing_pct["Sodium"] == 0
    assert cleared.encoder.report_.missing_pct["Sodium"] == pytest.approx(100 / 200)
    strict = encode_cohort(df, id_column="id", label_column="Outcome", clear_far=True,
                           max_patient_missing=0.4)  # 1 gap of 2 features: 50 %
    assert 17 not in strict.train_rows and len(strict.train_rows) == 199
    assert Encoder.from_dict(cleared.encoder.to_dict()).clear_far
    # the New patient page's ranges leave the slip out
    lo, hi, _ = training_ranges(pd.DataFrame(kept.X, columns=kept.features))
    assert hi[0] < 200 and lo[0] > 100
    assert hi[1] == pytest.approx(np.nanmax(kept.X[:, 1]))
