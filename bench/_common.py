"""Shared helpers for the benchmark scripts (synthetic shapes, timing, Markdown tables)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT))


def synthetic_cohort(n: int, m: int, *, n_classes: int = 3, rank: int = 8,
                     missing: float = 0.2, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Low-rank patients with class structure, noise and random gaps (benchmark shapes)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    F = rng.standard_normal((n, rank))
    F[:, 0] += 0.9 * y
    F[:, 1] -= 0.6 * (y == 1)
    X = F @ rng.standard_normal((rank, m)) + 0.5 * rng.standard_normal((n, m))
    X[rng.random((n, m)) < missing] = np.nan
    return X, y


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def to_markdown(df: pd.DataFrame, floatfmt: str = ".3f") -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            if isinstance(v, float | np.floating):
                cells.append(format(v, floatfmt))
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def publish(text: str, name: str, quick: bool) -> None:
    """Print a result and, outside quick mode, keep it in bench/results/."""
    print(text)
    if not quick:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / name).write_text(text)
