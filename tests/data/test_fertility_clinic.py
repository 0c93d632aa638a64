"""Walk-through 81: an IVF clinic's export, one row per treatment cycle, live birth.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import guess_columns, named_like_id
from sparge.data.encoder import Encoder
from sparge.data.levels import abbreviated_levels
from sparge.data.unit_conversion import conversion

N = 300


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(81)
    age = rng.integers(25, 44, N)
    amh = np.round(np.exp(rng.normal(2.6, 0.6, N)), 1)
    amh_cells = amh.astype(object)
    in_ng = rng.random(N) < 0.1  # another laboratory's report, in ng/mL
    amh_cells[in_ng] = [f"{v / 7.14:.2f} ng/mL" for v in amh[in_ng]]
    oocytes = np.maximum(0, np.round(amh / 2 + rng.normal(0, 2, N))).astype(int)
    oocytes[:24] = 0  # no egg retrieved: no embryo to transfer
    transferred = np.where(oocytes == 0, None, rng.choice(["1", "2"], N)).astype(object)
    transferred[(oocytes > 0) & (rng.random(N) < 0.05)] = None  # a gap now and then
    cause = rng.choice(["endometriosis"] * 33 + ["endometriossis"] * 7 + ["Endo"] * 12
                       + ["tubal factor"] * 30 + ["unexplained"] * 40, N)
    live = (rng.random(N) < 1 / (1 + np.exp(0.2 * (age - 36) - 0.05 * amh))).astype(int)
    df = pd.DataFrame({
        "CycleRef": [f"FC-2023-{i:04d}" for i in range(N)],
        "Female age": age, "AMH (pmol/L)": amh_cells, "Oocytes retrieved": oocytes,
        "Embryos transferred": transferred, "Cause of infertility": cause,
        "Live birth": np.where(live == 1, "Yes", "No"),
    })
    return pd.concat([df, df.iloc[[10, 40]]], ignore_index=True)  # exported twice


def test_the_cycle_reference_and_the_live_birth_are_guessed(export):
    """Neither was guessed: the live birth went to the model as an input beside the
    embryos transferred, unsaid. The cycle reference repeats only on rows exported
    twice. A "Cycle number" counts attempts: it is no ID."""
    assert guess_columns(export) == ("CycleRef", "Live birth")
    assert guess_columns(export.drop(columns="Live birth"))[1] is None
    assert named_like_id("Treatment ID") and named_like_id("Ref No")
    assert not any(named_like_id(c) for c in ("Cycle number", "Cycle day", "Referral",
                                              "Reference range"))


def test_amh_in_ng_per_ml_is_converted_to_pmol_per_l(export):
    """AMH written in ng/mL among pmol/L was set to missing: 1 ng/mL = 7.14 pmol/L."""
    conv = conversion("AMH (pmol/L)", "ng/mL", "pmol/L")
    assert conv is not None and conv.factor == pytest.approx(7.1429, rel=1e-4)
    enc = Encoder(id_column="CycleRef", label_column="Live birth")
    X = enc.fit_transform(export)
    col = X[:, enc.feature_names_out_.index("AMH (pmol/L)")]
    cells = export["AMH (pmol/L)"].astype(str)
    in_ng = cells.str.endswith("ng/mL").to_numpy()[:len(col)]
    assert in_ng.sum() > 10 and not np.isnan(col[in_ng]).any()
    want = cells[in_ng].str.replace(" ng/mL", "").astype(float).to_numpy() * 1e6 / 140000
    np.testing.assert_allclose(col[in_ng], want, rtol=1e-6)
    assert any("converted to 'pmol/L' (AMH: 1 ng/mL = 7.14 pmol/L)" in n
               for n in enc.report_.notes)


def test_no_embryo_transferred_after_no_egg_is_not_a_gap(export):
    """A blank "Embryos transferred" after 0 oocytes counted as a gap: no-transfer cycles
    were left out of training for missing values. The column's floor alone (6-8 % of
    the cycles, below its first quantile) explains them, and the note says "is 0"."""
    enc = Encoder(id_column="CycleRef", label_column="Live birth").fit(export)
    assert enc.structural_gaps_["Embryos transferred"][0] == "Oocytes retrieved"
    note = next(n for n in enc.report_.notes if n.startswith("Column 'Embryos transferred'"))
    assert "whose 'Oocytes retrieved' is 0, and written for most of the others" in note
    assert "probably" not in note  # no cut-off found: the value itself


def test_a_typo_is_merged_into_the_spelling_most_cells_write(export):
    """'endometriosis' (33) was offered into 'endometriossis' (7), the longer, and 'Endo'
    followed it there: of an answer and its typo, one written twice as often is the
    right spelling."""
    levels = ["Endo", "endometriosis", "endometriossis"]
    assert dict(abbreviated_levels(levels, "Cause")) == {
        "endometriosis": "endometriossis", "Endo": "endometriossis"}  # no counts: longer
    counts = {"endo": 12, "endometriosis": 33, "endometriossis": 7}
    assert dict(abbreviated_levels(levels, "Cause", counts)) == {
        "endometriossis": "endometriosis", "Endo": "endometriosis"}
    enc = Encoder(id_column="CycleRef", label_column="Live birth").fit(export)
    pairs = enc.report_.answers_two_ways["Cause of infertility"]
    assert ["endometriossis", "endometriosis"] in pairs and ["Endo", "endometriosis"] in pairs
