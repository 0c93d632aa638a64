"""Paths, synthetic benchmark shapes and timing shared by the benchmark scripts."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (benchmarks are run from here: ``python -m bench.<script>``)."""
RESULTS = ROOT / "bench" / "results"
"""Where full runs keep their tables."""


def synthetic_cohort(n: int, m: int, *, n_classes: int = 3, rank: int = 8,
                     missing: float = 0.2, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Low-rank patients with class structure, noise and random gaps (benchmark shapes).

    Parameters
    ----------
    n, m : int
        Patients and features.
    n_classes : int
        Outcome classes; the first two latent factors depend on the class.
    rank : int
        Rank of the noiseless part.
    missing : float
        Share of entries set to NaN at random.
    seed : int
        Seed of the generator.

    Returns
    -------
    X : ndarray of shape (n, m)
        Features, NaN for gaps.
    y : ndarray of shape (n,)
        Integer outcome.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    F = rng.standard_normal((n, rank))
    F[:, 0] += 0.9 * y
    F[:, 1] -= 0.6 * (y == 1)
    X = F @ rng.standard_normal((rank, m)) + 0.5 * rng.standard_normal((n, m))
    X[rng.random((n, m)) < missing] = np.nan
    return X, y


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """``(fn(*args, **kwargs), wall seconds)``."""
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def hide_values(X: np.ndarray, share: float, seed: int) -> np.ndarray:
    """``X`` with ``share`` of every patient's measured values hidden at random (at least
    one value kept)."""
    rng = np.random.default_rng(seed)
    out = X.copy()
    for i in range(len(out)):
        seen = np.flatnonzero(np.isfinite(out[i]))
        k = min(int(round(share * len(seen))), len(seen) - 1)
        out[i, rng.choice(seen, k, replace=False)] = np.nan
    return out


def split_arguments(doc: str, *, splits: int, cohorts: list[str],
                    quick_rows: int) -> argparse.Namespace:
    """The command line of a script that runs stratified splits on cohorts: ``--splits``,
    ``--cohorts``, ``--max-rows`` (3,000) and ``--quick`` (2 splits of 150-odd rows of
    the breast-cancer set: ``quick_rows``), its description the first paragraph of
    ``doc``."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--splits", type=int, default=splits)
    ap.add_argument("--cohorts", nargs="*", default=cohorts)
    ap.add_argument("--max-rows", type=int, default=3000)
    ap.add_argument("--quick", action="store_true", help="2 splits of one small cohort")
    args = ap.parse_args()
    if args.quick:
        args.splits, args.cohorts, args.max_rows = 2, ["breast_cancer"], quick_rows
    return args
