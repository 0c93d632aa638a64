"""Walk-through 80: a prostate clinic's export, clinically significant cancer on biopsy.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sparge.data.column_guess import guess_columns
from sparge.data.encoder import Encoder

N = 240
#: The Gleason score as the clinic's three systems wrote it: sum, pattern, both.
GLEASON = ["GS 6", "6 (3+3)", "3+3=6", "3+3", "GS 7", "3+4", "4+3=7", "7 (3+4)", "4+3",
           "3+4=7", "7 (4+3)", "8 (4+4)", "GS 8", "4+4", "4+5", "9 (4+5)", "GS 9",
           "benign", "B", "no cancer"]


@pytest.fixture(scope="module")
def export() -> pd.DataFrame:
    rng = np.random.default_rng(80)
    risk = rng.normal(size=N)
    psa = np.round(np.exp(1.6 + 0.5 * risk + rng.normal(0, 0.3, N)), 1).astype(object)
    psa[[4, 50, 111]] = "<0.1"  # undetectable
    psa[[7, 19]] = ["12,5", "not done"]
    gleason = np.array(GLEASON * (N // len(GLEASON)), dtype=object)
    gleason[rng.random(N) < 0.25] = None  # no biopsy
    return pd.DataFrame({
        "MRN": [f"UR{4500 + i:06d}" for i in range(N)],
        "Age": rng.integers(48, 82, N),
        "PSA (ng/mL)": psa,
        "Gleason score": gleason,
        "Cancer": np.where(rng.random(N) < 0.1, "Y", "N"),  # another cancer, before
        "IPSS": rng.integers(0, 36, N),
        "Clinically significant cancer": np.where(risk + rng.normal(0, 0.7, N) > 0.6,
                                                  "Yes", "No"),
    })


def test_the_finding_of_the_biopsy_is_guessed_as_the_outcome(export):
    """"Clinically significant cancer" (Yes / No) was not guessed: it and the Gleason
    score went to the model as inputs, and no leak check ran. A "Cancer" history column
    alone is no outcome."""
    assert guess_columns(export) == ("MRN", "Clinically significant cancer")
    assert guess_columns(export.drop(columns="Clinically significant cancer")) == \
        ("MRN", None)


def test_gleason_3_plus_4_and_4_plus_3_are_never_offered_as_one_answer(export):
    """The merge of answers written two ways offered "7 (3+4)" and "7 (4+3)" both into
    "7", and so 4+3 (grade group 3) shown as 3+4 (group 2) in one click."""
    enc = Encoder(id_column="MRN", label_column=None).fit(export)
    pairs = enc.report_.answers_two_ways.get("Gleason score", [])
    merged = enc.table_.with_merged_levels({"Gleason score": pairs})
    code = {lv: c for lv, c in merged.levels("Gleason score").items()}
    assert code["3+4"] != code["4+3"] and code["7 (3+4)"] != code["7 (4+3)"]
    assert code["7 (3+4)"] != code["7"] and code["6 (3+3)"] != code["7"]
    assert ["B", "benign"] in pairs  # a plain abbreviation is still offered


def test_undetectable_psas_are_not_values_to_check(export):
    """Three "<0.1" among 1.4-16 ng/mL were listed as misplaced decimal points."""
    enc = Encoder(id_column="MRN", label_column="Clinically significant cancer").fit(export)
    assert not [v for v in enc.report_.values_to_check if v[0] == "PSA (ng/mL)"]
