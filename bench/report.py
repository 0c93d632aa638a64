"""Markdown tables and publishing of benchmark results."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.common import RESULTS


def to_markdown(df: pd.DataFrame, floatfmt: str = ".3f") -> str:
    """A frame as a GitHub Markdown table, floats formatted with ``floatfmt``.

    Parameters
    ----------
    df : DataFrame
        The table (its index is dropped).
    floatfmt : str
        Format spec of float cells.

    Returns
    -------
    str
        Header, separator and one line per row.
    """
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
    """Print a result and, outside quick mode, keep it as ``bench/results/<name>``.

    Parameters
    ----------
    text : str
        The result (Markdown).
    name : str
        File name under ``bench/results/``.
    quick : bool
        Quick runs are printed only.
    """
    print(text)
    if not quick:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / name).write_text(text)


def estimate_summary(table: pd.DataFrame) -> str:
    """A page's time estimates against the runs they announce (``fit_estimate``,
    ``compare_estimate``): the median and range of measured / estimate, and how many
    within a factor of 1.5."""
    r = table["measured / estimate"].to_numpy()
    within = np.mean((r >= 1 / 1.5) & (r <= 1.5))
    return (f"Median measured / estimate {np.median(r):.2f} (range {r.min():.2f}–"
            f"{r.max():.2f}); within a factor of 1.5: {100 * within:.0f} % of "
            f"{len(r)} cohorts; under: {int(np.sum(r > 1.5))}, over: {int(np.sum(r < 1 / 1.5))}.")
