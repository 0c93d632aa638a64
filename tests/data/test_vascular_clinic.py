"""Walk-through 94: a vascular surgery clinic's export (peripheral arterial disease and
aneurysm surveillance), with a major amputation or death within a year as its outcome.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder
from sparge.services.display import answers_by_code

OUTCOME = "Major amputation or death within 1 year"


def _clinic(n: int = 300, seed: int = 94) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    metres = rng.integers(30, 300, n)
    distance = np.array([f"{m}m" if i % 3 else f"{round(m / 0.9144)} yards" if i % 2
                         else f"{m} metres" for i, m in enumerate(metres)], dtype=object)
    distance[::17] = [str(m) for m in metres[::17]]
    egfr = rng.integers(20, 90, n).astype(object)
    egfr[27] = 650
    abpi = rng.uniform(0.3, 1.2, n).round(2).astype(object)
    abpi[42] = 6.5
    return pd.DataFrame({
        "Hospital No": [f"RVX{1040000 + i}" for i in range(n)],
        "Age": rng.integers(45, 92, n).astype(str),
        "Claudication distance": distance, "eGFR": egfr.astype(str),
        "ABPI left": abpi.astype(str),
        "Rutherford category": rng.choice(["R0", "Rutherford 3", "3", "R4", "5", "R 5", "6",
                                           "Rutherford 1", "2"], n),
        "Fontaine stage": rng.choice(["I", "IIa", "IIb", "2b", "III", "IV", "stage IV"], n),
        OUTCOME: rng.choice(["Yes", "No"], n, p=[0.2, 0.8])})


def test_distances_in_yards_and_metres_are_read_in_metres():
    """Walk-through 94: "110 yards" and "90 metres" beside "<50m" were set to missing,
    "no exact conversion to 'm' is known for them"."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    assert enc.roles_["Claudication distance"] == "numeric"
    X = enc.transform(df)
    got = X[:, enc.feature_names_out_.index("Claudication distance")]
    yards = df["Claudication distance"].str.endswith("yards").to_numpy()
    want = pd.to_numeric(df["Claudication distance"].str.removesuffix(" yards"),
                         errors="coerce").to_numpy() * 0.9144
    np.testing.assert_allclose(got[yards], want[yards])
    metres = df["Claudication distance"].str.endswith(" metres").to_numpy()
    np.testing.assert_array_equal(got[metres], pd.to_numeric(
        df["Claudication distance"][metres].str.removesuffix(" metres")))
    assert "is read in 'm'" in " ".join(enc.report_.notes)


def test_rutherford_and_fontaine_are_ordered_scales_and_impossible_values_are_named():
    """Walk-through 94: Rutherford and Fontaine were unordered answers until their
    spellings were merged by hand; an eGFR of 650 and an ABPI of 6.5 were used as
    given."""
    df = _clinic()
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    shown = answers_by_code(enc, "Rutherford category")
    assert sorted(shown) == list(range(7)) and shown[3] == "Rutherford 3"
    rc = enc.table_.levels("Rutherford category")
    assert rc["R4"] < rc["5"] == rc["R 5"] < rc["6"]
    levels = enc.table_.levels("Fontaine stage")
    assert levels["I"] < levels["IIa"] < levels["IIb"] == levels["2b"] < levels["III"] < \
        levels["IV"] == levels["stage IV"]
    assert enc.table_.is_ordered("Rutherford category")
    assert enc.table_.is_ordered("Fontaine stage")
    impossible = [list(v) for v in enc.report_.impossible]
    assert ["eGFR", 27] in impossible and ["ABPI left", 42] in impossible


def test_an_answer_after_its_export_code_is_that_answer():
    """Walk-through 94: Sex "1 - Male" and "2 - Female" (a PAS export's codes) beside
    "M" and "Female" were four answers, neither merged nor offered."""
    from sparge.services.display import answers_by_code

    df = _clinic()
    df["Sex"] = np.resize(np.array(["1 - Male", "2 - Female", "M", "Female", "male"]),
                          len(df))
    enc = Encoder(label_column=OUTCOME, id_column="Hospital No").fit(df)
    levels = enc.table_.levels("Sex")
    assert levels["1 - Male"] == levels["M"] == levels["male"] != levels["2 - Female"]
    assert levels["2 - Female"] == levels["Female"]
    assert sorted(answers_by_code(enc, "Sex").values()) == ["Female", "Male"]
