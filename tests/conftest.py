"""Shared fixtures: small planted problems and the bundled sample cohort."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data_samples"


def planted_classes(n=300, m=64, n_classes=3, seed=0, noise_dims=60, missing=0.0):
    """Classes separated along a few low-variance directions, hidden under high-variance
    nuisance directions: raw Euclidean kNN fails, a learned metric succeeds."""
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


@pytest.fixture
def planted():
    return planted_classes()


@pytest.fixture(scope="session")
def sample_csv() -> Path:
    return SAMPLES / "singheart_synthetic.csv"


@pytest.fixture(scope="session")
def small_csv() -> Path:
    return SAMPLES / "singheart_small.csv"
