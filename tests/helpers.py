"""Helpers shared by the tests: repository paths and small planted problems.

Tests import them with ``from helpers import ...`` (``conftest.py`` keeps only fixtures).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
"""The repository root."""
SAMPLES = ROOT / "data_samples"
"""The bundled sample cohorts."""


def planted_classes(n: int = 300, m: int = 64, n_classes: int = 3, seed: int = 0,
                    noise_dims: int = 60, missing: float = 0.0
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Classes separated along a few low-variance directions, hidden under high-variance
    nuisance directions: raw Euclidean kNN fails, a learned metric succeeds.

    Parameters
    ----------
    n, m : int
        Patients and features.
    n_classes : int
        Outcome classes.
    seed : int
        Seed of the generator.
    noise_dims : int
        Nuisance features (the last ``noise_dims`` columns).
    missing : float
        Share of entries set to NaN at random.

    Returns
    -------
    X : ndarray of shape (n, m)
    y : ndarray of shape (n,)
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    centers = rng.standard_normal((n_classes, m - noise_dims)) * 1.5
    signal = centers[y] + 0.4 * rng.standard_normal((n, m - noise_dims))
    nuisance = 6.0 * rng.standard_normal((n, 3)) @ rng.standard_normal((3, noise_dims))
    nuisance += 2.0 * rng.standard_normal((n, noise_dims))
    X = np.hstack([signal, nuisance])
    if missing:
        X[rng.random(X.shape) < missing] = np.nan
    return X, y


def discharge_leak_table(n: int = 300, seed: int = 8):
    """A readmission table whose "Discharge destination" names the outcome for most
    readmitted patients ("Home (readmitted)"; AUC about 0.91, walk-through 35)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    dest = np.where(y, rng.choice(["Home (readmitted)", "Crisis house", "Home"], n,
                                  p=[0.7, 0.2, 0.1]),
                    rng.choice(["Home", "Crisis house"], n, p=[0.9, 0.1]))
    return pd.DataFrame({"PHQ-9": rng.integers(0, 28, n), "Discharge destination": dest,
                         "Ward": rng.choice(["A", "B"], n),
                         "Readmitted": np.where(y, "Yes", "No")})



def tumour_sites_table(n: int = 400, seed: int = 0):
    """An oncology day unit's patients: four tumour sites, each with its own markers (an
    ER status for breast, a CA-125 for ovary, a CEA for colon, blank elsewhere), an
    ethnicity that decides nothing, and a febrile neutropenia outcome that depends on the
    performance status and the neutrophils, not on the site."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    site = rng.choice(["Lung", "Breast", "Ovary", "Colon"], n, p=[.3, .3, .2, .2])
    er = np.where(site == "Breast", rng.choice(["Positive", "Negative"], n), "")
    ca125 = np.where(site == "Ovary", np.round(rng.lognormal(4, 1, n)), np.nan)
    cea = np.where(site == "Colon", np.round(rng.lognormal(1.5, .8, n), 1), np.nan)
    neut = rng.lognormal(1.3, .5, n).round(1)
    ps = rng.integers(0, 4, n)
    risk = 0.8 * (ps - 1.5) - 0.3 * (neut - 4) + rng.normal(0, 1, n)
    return pd.DataFrame({
        "ID": [f"P{i:03d}" for i in range(n)], "Age": rng.normal(62, 11, n).round(),
        "Primary site": site, "ER status": er, "CA-125": ca125, "CEA": cea,
        "Ethnicity": rng.choice(["White", "Asian", "Black", "Mixed", "Other"], n),
        "Neutrophils": neut, "PS": ps,
        "Febrile neutropenia": np.where(risk > 0.3, "Yes", "No")})


def with_cycled_columns(df, **columns):
    """``df`` with each of ``columns`` (``name=[cells]``, an underscore in the name a
    space) added, its cells repeated down the rows in order: a clinic register's column
    of the answers a walk-through found, on every row."""
    for name, cells in columns.items():
        df[name.replace("_", " ")] = [cells[i % len(cells)] for i in range(len(df))]
    return df
