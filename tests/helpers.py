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

