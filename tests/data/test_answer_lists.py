"""sparge.data.answer_lists: a column of answer lists ("DM, HTN, CKD") read as one yes/no
column per answer (walk-through 27's comorbidities, left out as free text)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from sparge import Encoder
from sparge.data.answer_lists import OTHER, list_vocabulary, split_lists

ITEMS = ["DM", "HTN", "CKD", "COPD", "Cirrhosis"]


def _lists(n: int = 300, seed: int = 0) -> tuple[pd.Series, np.ndarray]:
    rng = np.random.default_rng(seed)
    has = rng.random((n, len(ITEMS))) < [0.3, 0.4, 0.2, 0.15, 0.1]
    cells = [", ".join(np.array(ITEMS)[row]) or "None" for row in has]
    gaps = rng.random(n) < 0.1
    return pd.Series(np.where(gaps, "", cells), dtype=object), np.where(gaps[:, None],
                                                                        np.nan, has)


def test_a_column_of_lists_is_found_and_answers_that_hold_a_comma_are_not():
    cells, _ = _lists()
    assert sorted(list_vocabulary(cells, "Comorbidities")) == sorted(ITEMS)
    rng = np.random.default_rng(1)
    # one answer with a comma in it, however often
    source = pd.Series(rng.choice(["Bacteremia, unknown source", "UTI", "Pneumonia"], 300))
    assert list_vocabulary(source, "Infection source") is None
    # notes, by their name, and numbers written with a decimal comma
    assert list_vocabulary(cells, "Nursing note") is None
    assert list_vocabulary(pd.Series(rng.choice(["1,5", "2,0", "2,5", "3,0"], 300)),
                           "Score") is None
    # free text: many different words, each written once
    words = [f"word{i}, other{i}" for i in range(300)]
    assert list_vocabulary(pd.Series(words), "Remarks") is None


def test_rare_answers_share_one_column_and_none_means_no_to_each():
    cells, _ = _lists()
    cells = cells.copy()
    cells.iloc[:3] = ["DM, Lupus", "Sarcoid", "HTN, Gout"]  # three answers of one patient
    items = list_vocabulary(cells, "Comorbidities")
    assert items[-1] == OTHER and set(items[:-1]) == set(ITEMS)
    out, found, notes = split_lists(pd.DataFrame({"Comorbidities": cells, "Age": "50"}))
    assert list(out.columns[:-1]) == [f"Comorbidities: {i}" for i in items]
    assert out.columns[-1] == "Age" and found == {"Comorbidities": items}
    assert out.loc[0, "Comorbidities: DM"] == "Yes" and out.loc[0, "Comorbidities: other"] \
        == "Yes" and out.loc[0, "Comorbidities: HTN"] == "No"
    none = int(np.flatnonzero(cells == "None")[0])
    assert set(out.iloc[none, :-1]) == {"No"}
    gap = int(np.flatnonzero(cells == "")[0])
    assert set(out.iloc[gap, :-1]) == {""}
    assert "read as 6 yes/no columns" in notes[0] and "share 'Comorbidities: other'" \
        in notes[0]


def test_the_encoder_reads_lists_as_yes_no_features_in_fit_and_transform():
    cells, has = _lists()
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"id": [f"P{i}" for i in range(len(cells))],
                       "Age": rng.integers(30, 90, len(cells)).astype(str),
                       "Comorbidities": cells,
                       "Outcome": rng.choice(["a", "b"], len(cells))})
    enc = Encoder(id_column="id", label_column="Outcome")
    X = enc.fit_transform(df)
    assert enc.answer_lists_ == {"Comorbidities": list_vocabulary(cells, "Comorbidities")}
    for k, item in enumerate(ITEMS):
        j = enc.feature_names_out_.index(f"Comorbidities: {item}")
        want = np.where(np.isnan(has[:, k]), np.nan, np.where(has[:, k] == 1, 1.0, 2.0))
        np.testing.assert_array_equal(X[:, j], want)  # Yes 1, No 2, gap
    # a new patient: the model's answers, an unknown one named
    new = pd.DataFrame({"Age": ["60"], "Comorbidities": ["ckd; Asthma"]})
    Xn, rep = enc.transform_with_report(new)
    got = {f: Xn[0, j] for j, f in enumerate(enc.feature_names_out_) if ":" in f}
    assert got["Comorbidities: CKD"] == 1.0 and got["Comorbidities: DM"] == 2.0
    assert any("'Asthma'" in n for n in rep.notes)
    # a file without the list column: named once, not as five yes/no columns
    _, rep = enc.transform_with_report(new[["Age"]])
    assert "'Comorbidities' (5 yes/no columns)" in " ".join(rep.warnings)
    assert "Comorbidities: DM" not in " ".join(rep.warnings)
    # saved and loaded; and a role on the list column keeps it whole
    again = Encoder.from_dict(enc.to_dict())
    np.testing.assert_array_equal(again.transform(df), X)
    whole = Encoder(id_column="id", label_column="Outcome",
                    roles={"Comorbidities": "ignore"}).fit(df)
    assert whole.answer_lists_ == {} and "Comorbidities" not in whole.feature_names_out_


def test_an_empty_list_is_one_gap_for_the_threshold_not_one_per_answer():
    """Walk-through 28: an empty Comorbidities cell made 10 gaps of 33 features, and all 84
    such patients were left out of training at the 10 % threshold."""
    from sparge.data.encoder import guess_feature_count
    from sparge.method.preprocess import missing_fraction_per_row

    cells, _ = _lists(n=300, seed=3)
    rng = np.random.default_rng(3)
    df = pd.DataFrame({f"x{k}": np.round(rng.normal(size=300), 2).astype(str)
                       for k in range(11)})
    df["Comorbidities"] = cells
    df["Outcome"] = rng.choice(["a", "b"], 300)
    enc = Encoder(label_column="Outcome", max_patient_missing=0.1).fit(df)
    w = enc.feature_weights()
    assert len(w) == 16 and w.sum() == pytest.approx(12.0)  # 11 numbers and one list
    empty = (cells == "").to_numpy()
    assert empty.sum() > 10 and enc.keep_patients_[empty].all()  # 1 gap of 12: 8 %
    X = enc.transform(df)
    assert missing_fraction_per_row(X, w)[empty] == pytest.approx(1 / 12)
    assert missing_fraction_per_row(X)[empty] == pytest.approx(5 / 16)  # unweighted
    # the setup's threshold counts the list as one column too
    assert guess_feature_count(df, None, "Outcome") == 12


def test_a_year_after_an_answer_or_a_history_word_before_it_is_the_same_answer():
    """Walk-through 66's "Comorbidities: MI 2015" was a column of its own beside "MI"; "h/o
    MI" and "MI (2019)" say the same condition, and so does a new patient's "MI 2021"."""
    rng = np.random.default_rng(0)
    n = 400
    items = ["HTN", "MI", "MI 2015", "MI (2019)", "h/o MI", "COPD", "T2DM", "asthma", "AF",
             "stroke 2012", "CVA", "CKD 3"]
    cells = [", ".join(rng.choice(items, rng.integers(1, 4), replace=False))
             for _ in range(n)]
    df = pd.DataFrame({"ID": range(n), "Comorbidities": cells, "x": rng.normal(size=n),
                       "y": rng.choice(["a", "b"], n)})
    enc = Encoder(id_column="ID", label_column="y").fit(df)
    names = [f for f in enc.feature_names_out_ if f.startswith("Comorbidities: ")]
    assert "Comorbidities: MI" in names
    assert len({"Comorbidities: stroke", "Comorbidities: CVA"} & set(names)) == 1, names
    assert not any(re.search(r"\d{4}|h/o", f) for f in names), names
    assert "Comorbidities: CKD" in names  # a stage is no year, nor another condition
    X = enc.transform(pd.DataFrame({"Comorbidities": ["MI 2021, HTN", "asthma"]}))
    mi = X[:, enc.feature_names_out_.index("Comorbidities: MI")]
    yes = enc.table_.levels("Comorbidities: MI")
    assert mi.tolist() == [yes["Yes"], yes["No"]]
