"""An inflammatory bowel disease clinic's export (walk-through 68): three diagnoses
written twenty ways with a typo among them, perianal disease by its fistulas, a
biologic's anti-drug antibodies as words and titres, and the smoking words of a clinic
letter."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd

from sparge import Encoder
from sparge.data.answer_merging import chosen_pairs, merge_answers
from sparge.data.levels import shown_answer

OUTCOME = "Hospitalisation or surgery within 12 months"


def _clinic(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "Hospital No": [f"RX{3140000 + i}" for i in range(n)],
        "Diagnosis": rng.choice(
            ["Crohn's disease", "CD", "Ulcerative colitis", "UC", "Crohn's", "Crohns",
             "ulcerative colitis", "crohns disease", "Crohn’s", "Chrons", "U.C.",
             "proctitis (UC)", "Crohn's disease (ileal)", "IBD-U", "Ulcerative colitits",
             "IBDU", "IBD unclassified"], n,
            p=[.16, .12, .13, .1, .07, .07, .05, .04, .04, .03, .03, .02, .02, .02, .04,
               .03, .03]),
        "Smoking": rng.choice(["Never", "Current", "Former", "ex (quit 10y ago)", "smokes",
                               "Ex-smoker", "non smoker"], n),
        "Perianal disease": rng.choice(["yes", "no", "N", "fistula", "previous abscess",
                                        "active fistula + seton", "nil"], n),
        "Anti-drug antibodies": rng.choice(["Negative", "neg", "<10", "not detected",
                                            "Positive", "positive (113)", "pos", ""], n),
        "CRP": rng.integers(1, 80, n),
        OUTCOME: rng.choice(["Yes", "No"], n)})


def _merged(df: pd.DataFrame) -> tuple[Encoder, dict[str, dict[str, list[str]]]]:
    enc = Encoder(id_column="Hospital No", label_column=OUTCOME).fit(df)
    table = merge_answers(enc.table_, chosen_pairs(enc.report_.answers_two_ways, []))
    shown = {}
    for col in ("Diagnosis", "Smoking", "Perianal disease"):
        codes = defaultdict(list)
        for level, code in table.levels(col).items():
            codes[code].append(level)
        shown[col] = {shown_answer(v, col): sorted(v) for v in codes.values()}
    return enc, shown


def test_the_three_ibd_diagnoses_merge_into_three_shown_by_their_right_spelling():
    """Walk-through 68: after the merge 11 labels stayed for 3 diagnoses, and 105
    patients' "Ulcerative colitis" were shown as the typo "Ulcerative colitits"."""
    _, shown = _merged(_clinic())
    assert set(shown["Diagnosis"]) == {"Crohn's disease", "Ulcerative colitis", "IBD-U"}
    assert "Ulcerative colitits" in shown["Diagnosis"]["Ulcerative colitis"]
    assert {"CD", "Chrons", "Crohn’s"} <= set(shown["Diagnosis"]["Crohn's disease"])


def test_smoking_perianal_disease_and_anti_drug_antibodies_written_as_clinics_write():
    """Walk-through 68: "ex (quit 10y ago)" and "smokes" stayed apart; a fistula, a seton
    and an abscess were not a perianal disease's yes; anti-drug antibodies "<10", "not
    detected" and "positive (113)" were answers of their own."""
    enc, shown = _merged(_clinic())
    assert set(shown["Smoking"]) == {"Never", "Current", "Former"}
    assert "ex (quit 10y ago)" in shown["Smoking"]["Former"]
    assert "smokes" in shown["Smoking"]["Current"]
    assert set(shown["Perianal disease"]) == {"Yes", "No"}
    assert {"fistula", "previous abscess", "active fistula + seton"} <= set(
        shown["Perianal disease"]["Yes"])
    assert set(enc.table_.levels("Anti-drug antibodies")) == {"Positive", "Negative"}
    assert enc.cut_offs_ == {"Anti-drug antibodies": 10.0}
