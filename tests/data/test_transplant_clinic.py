"""Walk-through 84: a kidney transplant clinic's export, graft loss within 3 years.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.answer_merging import same_answer, two_way_pairs
from sparge.data.drug_combinations import drug_set
from sparge.data.encoder import Encoder
from sparge.data.levels import abbreviated_levels, result_sign
from sparge.data.plausible import impossible_values
from sparge.data.unit_conversion import conversion

N = 200
OUTCOME = "Graft loss within 3 years"


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(84)
    cmv = rng.choice(["D+/R-", "D+/R+", "D-/R+", "D-/R-"], N)
    dsa = rng.choice(["Positive", "pos", "DSA+", "Negative", "neg"], N,
                     p=[0.1, 0.05, 0.05, 0.5, 0.3])
    tac = np.round(rng.normal(7, 2, N).clip(2, 15), 1).astype(object)
    nmol = rng.random(N) < 0.08
    tac[nmol] = [f"{v * 1.2437:.1f} nmol/L" for v in tac[nmol].astype(float)]
    tac[5] = 250.0
    cit = np.round(rng.normal(14, 4, N).clip(2, 30), 1).astype(object)
    cit[9] = 300.0
    loss = rng.random(N) < np.where(np.isin(dsa, ["Positive", "pos", "DSA+"]), 0.5, 0.12)
    return pd.DataFrame({
        "NHS No": [f"{4000000000 + 7919 * i}" for i in range(N)],
        "Recipient age": rng.integers(18, 75, N),
        "CMV D/R": cmv, "DSA": dsa, "Tac trough (ug/L)": tac, "CIT (hrs)": cit,
        "Induction": rng.choice(["basiliximab", "Simulect", "ATG", "Alemtuzumab (Campath)"],
                                N),
        OUTCOME: np.where(loss, "Yes", "No"),
    })


def test_answers_whose_signs_differ_are_never_one_answer():
    """The one-click merge made all four CMV serostatus groups one: "D+/R-" was offered
    into "D+/R+", one character apart."""
    levels = ["D+/R-", "D+/R+", "D-/R+", "D-/R-"]
    assert abbreviated_levels(levels, "CMV D/R") == []
    assert not same_answer("D+/R-", "D+/R+", "CMV D/R")
    # a "+" that joins or counts is no sign: those pairs stay
    assert abbreviated_levels(["D+V", "D + V"], "Presenting complaint") == \
        [("D + V", "D+V")]
    assert abbreviated_levels(["Active fistula + seton", "Active fistula+seton"],
                              "Perianal") == [("Active fistula+seton",
                                               "Active fistula + seton")]
    assert abbreviated_levels(["ER+", "ER +"], "ER status") == [("ER +", "ER+")]


def test_a_result_written_several_ways_is_one_answer(export):
    """Donor-specific antibodies written "Positive", "pos", "DSA+", "Negative", "neg"
    were five unordered answers, and the look-alikes read "Positive: 6, Pos: 4"."""
    assert [result_sign(a, "DSA") for a in ("Positive", "pos", "DSA+", "neg", "DSA-")] == \
        ["+", "+", "+", "-", "-"]
    assert result_sign("D+/R-", "CMV D/R") is None and result_sign("Positive") == "+"
    assert sorted(abbreviated_levels(["Positive", "pos", "DSA+", "Negative", "neg"],
                                     "DSA")) == [("DSA+", "Positive"), ("neg", "Negative"),
                                                 ("pos", "Positive")]
    enc = Encoder(id_column="NHS No", label_column=OUTCOME).fit(export)
    codes = enc.table_.to_dict()["DSA"]
    assert codes["pos"] == codes["DSA+"] == codes["Positive"] != codes["neg"] == \
        codes["Negative"]
    # shown by its word, not by the "DSA+" merged into it
    from sparge.services.display import category_words

    assert sorted(category_words(enc, "DSA").values()) == ["Negative", "Positive"]
    cmv = enc.table_.to_dict()["CMV D/R"]
    assert len(set(cmv.values())) == 4
    assert "CMV D/R" not in two_way_pairs(enc.table_, ["CMV D/R"], export)


def test_impossible_cold_ischaemia_and_tacrolimus_are_not_trained_on(export):
    """A cold ischaemia time of 300 hours and a tacrolimus trough of 250 µg/L were used
    as given; tacrolimus in nmol/L was set to missing, not converted."""
    v = list(np.linspace(5, 30, 50)) + [300.0]
    assert impossible_values("CIT (hrs)", v).nonzero()[0].tolist() == [50]
    assert not impossible_values("CIT (mins)", v).any()
    assert not impossible_values("Age (months)", v).any()  # an age in months: not judged
    conv = conversion("Tac trough (ug/L)", "nmol/L", "ug/L")
    assert conv is not None and conv.factor == pytest.approx(0.8040, rel=1e-3)
    enc = Encoder(id_column="NHS No", label_column=OUTCOME)
    X = enc.fit_transform(export)
    names = enc.feature_names_out_
    tac, cit = X[:, names.index("Tac trough (ug/L)")], X[:, names.index("CIT (hrs)")]
    assert np.isnan(tac[5]) and np.isnan(cit[9])
    in_nmol = export["Tac trough (ug/L)"].astype(str).str.endswith("nmol/L").to_numpy()
    assert in_nmol.sum() > 5 and np.isfinite(tac[in_nmol]).all()
    assert np.nanmax(tac[in_nmol]) < 16  # back in µg/L


def test_transplant_drugs_by_generic_name_brand_and_short_name():
    """"basiliximab" beside "Simulect", "Tac/MMF/Pred" beside "Adoport, CellCept, pred"."""
    assert drug_set("Simulect") == drug_set("basiliximab") == {"basiliximab"}
    assert drug_set("Campath") == drug_set("Alemtuzumab (Campath)") == {"alemtuzumab"}
    assert drug_set("Tac/MMF/Pred") == drug_set("Adoport, CellCept, pred") == \
        drug_set("tacrolimus + MMF + prednisolone") == {"tacrolimus", "mycophenolate",
                                                        "prednisolone"}
    assert drug_set("Envarsus/Myfortic") == {"tacrolimus", "mycophenolate"}


def test_hla_mismatches_written_four_ways_are_three_counts(tmp_path):
    """"1-1-0", "1:1:0", "110" and "2 1 1" in one column were more than 30 text answers,
    and the mismatch was left out of the model as free text."""
    from sparge import read_table
    from sparge.data.hla import hla_columns, mismatch_parts, split_hla_mismatches

    rng = np.random.default_rng(7)
    counts = rng.integers(0, 3, size=(60, 3))
    styles = ["{}-{}-{}", "{}:{}:{}", "{}{}{}", "{} {} {}"]
    cells = [styles[i % 4].format(*c) for i, c in enumerate(counts)]
    cells[3] = "awaiting"
    df = pd.DataFrame({"ID": [f"T{i}" for i in range(60)], "HLA MM (A-B-DR)": cells,
                       "eGFR": rng.normal(50, 10, 60).round(),
                       OUTCOME: rng.choice(["Yes", "No"], 60)})
    path = tmp_path / "tx.csv"
    df.to_csv(path, index=False)
    read = read_table(path)
    names = ["HLA MM (A-B-DR) A", "HLA MM (A-B-DR) B", "HLA MM (A-B-DR) DR"]
    assert [c for c in read.columns if c.startswith("HLA")] == names
    got = read[names].to_numpy(dtype=float)
    keep = np.arange(60) != 3
    np.testing.assert_array_equal(got[keep], counts[keep])
    assert np.isnan(got[3]).all()
    assert hla_columns(read.columns) == ["HLA MM (A-B-DR)"]
    # split once: its parts are not split again (they hold single counts)
    assert list(split_hla_mismatches(read).columns) == list(read.columns)
    enc = Encoder(id_column="ID", label_column=OUTCOME)
    X = enc.fit_transform(read)
    assert [f for f in enc.feature_names_out_ if f.startswith("HLA")] == names
    # a new patient's one row, written another way, is read by the fitted columns
    new = pd.DataFrame({"ID": ["NEW"], "HLA MM (A-B-DR)": ["2/1/0"], "eGFR": [40.0]})
    Xn = enc.transform(new)
    assert [Xn[0, enc.feature_names_out_.index(n)] for n in names] == [2, 1, 0]
    # not named as a mismatch, or not triples: left as they are
    other = df.rename(columns={"HLA MM (A-B-DR)": "Code"})
    assert "Code" in split_hla_mismatches(other).columns
    single = pd.DataFrame({"HLA mismatches": rng.integers(0, 3, 40)})
    assert list(split_hla_mismatches(single).columns) == ["HLA mismatches"]
    assert mismatch_parts("3-1-0") is None and mismatch_parts(110) == (1, 1, 0)
    assert X.shape[0] == 60
