"""TNM stages in one cell, read as three ordered columns (walk-through 25)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge import read_table
from sparge.data.encoder import Encoder
from sparge.data.tnm import split_tnm, tnm_parts


def test_tnm_parts_read_the_usual_spellings():
    assert tnm_parts("T2N1M0") == ("T2", "N1", "M0")
    assert tnm_parts("pT2N0M0") == ("T2", "N0", "M0")
    assert tnm_parts(" T3 N0 M1 ") == ("T3", "N0", "M1")
    assert tnm_parts("ypT1b, N1a, M0") == ("T1b", "N1a", "M0")
    assert tnm_parts("TisN0M0") == ("Tis", "N0", "M0")
    assert tnm_parts("TxNxMx") == ("Tx", "Nx", "Mx")
    for other in ("stage II", "T2", "N1M0", "T5N0M0", "", "2"):
        assert tnm_parts(other) is None


def _oncology(n=200, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.integers(1, 5, n)
    nn = rng.integers(0, 3, n)
    m = (rng.random(n) < 0.2).astype(int)
    spell = ["T{t}N{n}M{m}", "pT{t}N{n}M{m}", "T{t} N{n} M{m}"]
    cells = [spell[i % 3].format(t=a, n=b, m=c) for i, (a, b, c) in enumerate(zip(t, nn, m))]
    cells[3], cells[4] = "TxN0M0", "unknown"
    df = pd.DataFrame({"ID": [f"P{i}" for i in range(n)], "TNM": cells,
                       "Age": rng.integers(30, 80, n).astype(str),
                       "Outcome": np.where(rng.random(n) < 0.2 + 0.5 * m, "died", "alive")})
    return df, t, nn, m


def test_a_column_of_tnm_stages_becomes_three_ordered_columns():
    df, t, nn, m = _oncology()
    data = df.to_csv(index=False).encode()
    read = read_table(data)
    assert list(read.columns) == ["ID", "TNM T", "TNM N", "TNM M", "Age", "Outcome"]
    assert any("holds TNM stages" in note and "199 other" not in note
               and "1 other written cell(s) are gaps" in note
               for note in read.attrs["sparge_read_notes"])
    enc = Encoder(id_column="ID", label_column="Outcome", max_patient_missing=None)
    X = enc.fit_transform(read)
    j = {f: enc.feature_names_out_.index(f) for f in ("TNM T", "TNM N", "TNM M")}
    for name in j:
        assert enc.table_.is_ordered(name)
    keep = np.ones(len(df), bool)
    keep[[3, 4]] = False
    np.testing.assert_array_equal(X[keep, j["TNM T"]], t[keep])  # T1 .. T4 coded 1 .. 4
    np.testing.assert_array_equal(X[keep, j["TNM N"]], nn[keep] + 1)
    np.testing.assert_array_equal(X[keep, j["TNM M"]], m[keep] + 1)
    assert np.isnan(X[3, j["TNM T"]]) and X[3, j["TNM N"]] == 1  # Tx: a gap in T only
    assert np.isnan(X[4, list(j.values())]).all()
    # a DataFrame given to the encoder directly, and a new patient, are read alike
    assert np.array_equal(Encoder(id_column="ID", label_column="Outcome",
                                  max_patient_missing=None).fit_transform(df), X,
                          equal_nan=True)
    new = enc.transform(pd.DataFrame({"ID": ["N1"], "TNM": ["pT3bN1aM1"], "Age": ["60"]}))
    assert new[0, j["TNM T"]] == 3 and new[0, j["TNM N"]] == 2 and new[0, j["TNM M"]] == 2
    _, report = enc.transform_with_report(pd.DataFrame({"ID": ["N1"], "TNM": ["pT3bN1aM1"],
                                                        "Age": ["60"]}))
    assert "Column 'TNM T': 'T3b' read as 'T3' (the stage without its sub-stage" in \
        " ".join(report.notes)


def test_a_column_that_is_not_mostly_tnm_stays_as_it_is():
    df = pd.DataFrame({"Notes": ["T2N1M0", "seen", "T1N0M0", "no", "x", "y", "z", "w", "v",
                                 "T3N0M0"]})
    assert split_tnm(df) is df
    # the three names taken already: left alone
    df, *_ = _oncology(20)
    taken = df.assign(**{"TNM T": "x"})
    assert "TNM" in split_tnm(taken).columns
