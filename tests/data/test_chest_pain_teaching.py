"""Walk-through 74: a teacher's chest-pain cohort (emergency department, MI within 30
days), and what the Data page said of it."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder
from sparge.data.levels import abbreviated_levels


def test_f_joins_female_beside_a_typo_of_it():
    """'M' / 'Male' was offered, 'F' / 'Female' not: the typo "fmale" (1 patient) made
    "F" read as either answer."""
    pairs = abbreviated_levels(["F", "Female", "fmale", "M", "Male", "female", "male"], "Sex")
    assert {("F", "Female"), ("female", "Female"), ("M", "Male"), ("male", "Male")} \
        <= set(pairs)
    # "fmale" itself is one edit from "female" and from "male": left as written


def test_a_lower_limit_is_said_to_hide_a_value_below_it():
    """"<5 read as the limit itself: the true value lies beyond it" read as above 5."""
    rng = np.random.default_rng(0)
    trop = [str(v) for v in rng.integers(6, 200, 60)] + ["<5"] * 8
    df = pd.DataFrame({"Troponin (ng/L)": trop, "MI": rng.choice(["yes", "no"], 68)})
    notes = " ".join(Encoder(label_column="MI").fit(df).report_.notes)
    assert "read as the limit itself: the true value lies below it." in notes
