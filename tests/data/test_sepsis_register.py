"""Walk-through 101: an intensive care unit's sepsis register (452 admissions), with "ICU
mortality" as its outcome, written by a helper as a unit's export writes it.

Each test is one finding of the walk-through, on cells written as that export wrote them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.data.encoder import Encoder

OUTCOME = "ICU mortality"


def _register(n: int = 300, seed: int = 101) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    died = rng.random(n) < 0.35
    sofa = np.clip(rng.normal(6 + 4 * died, 3, n), 0, 24).round().astype(int)
    df = pd.DataFrame({
        "MRN": [f"{4000000 + i}" for i in range(n)],
        "Age": rng.integers(18, 95, n).astype(str),
        "SOFA": [f"SOFA {s}" if i % 5 == 0 else str(s) for i, s in enumerate(sofa)],
        "Lactate (mmol/L)": (rng.lognormal(0.6 + 0.5 * died, 0.4, n)).round(1).astype(str),
        OUTCOME: np.where(died, rng.choice(["Died", "dead", "D"], n),
                          rng.choice(["Survived", "alive", "S"], n))})
    return df, died


def test_a_survivor_written_s_is_a_survivor():
    """Walk-through 101: "S" (70 of 452) beside "Survived" and "alive" was a third
    outcome, while "D" beside "Died" was read as it."""
    df, died = _register()
    enc = Encoder(label_column=OUTCOME, id_column="MRN").fit(df)
    labels = pd.Series(enc.labels(df))
    assert labels.nunique() == 2  # each shown in its commonest spelling
    assert labels[died].nunique() == 1 and labels[~died].nunique() == 1
