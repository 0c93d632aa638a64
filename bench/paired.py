"""Paired differences between methods over the same splits, with honest standard errors.

The splits of ``bench.protocol`` are repeated 70/30 draws of one cohort: their training
sets overlap, so the scores of two splits are correlated and the plain standard error of
a mean difference (``sd / sqrt(J)``) is too small. Nadeau & Bengio (2003, "Inference for
the generalization error", Machine Learning 52) correct the variance of the mean of ``J``
resampled differences to ``(1/J + n_test/n_train) · s²``; with ``J = 10`` and a 70/30
split that makes the standard error 2.3 times the plain one. This module reports both,
and calls a difference real only beyond twice the corrected one.
``python -m bench.paired_rows`` prints them for recorded rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.splits import TEST_SIZE as TEST_FRACTION
from sparge.services.split_errors import corrected_se


def paired_differences(rows: pd.DataFrame, method: str, against: list[str],
                       measures: list[str], test_fraction: float = TEST_FRACTION
                       ) -> pd.DataFrame:
    """``method`` minus each of ``against``, per cohort and measure, over the shared splits.

    Parameters
    ----------
    rows : DataFrame
        One row per cohort, split and method (``bench.protocol.evaluate``'s, status "ok").
    method : the method compared; against : the references (e.g. raw, forest proximity).
    measures : the score columns.

    Returns
    -------
    DataFrame with ``cohort``, ``against``, ``measure``, ``splits``, ``mean`` (the mean
    paired difference), ``se`` (plain), ``se_corrected`` (Nadeau–Bengio) and ``verdict``:
    "above" or "below" when the mean is beyond twice the corrected standard error, else
    "within noise".
    """
    out = []
    wide = rows.pivot_table(index=["cohort", "split"], columns="method", values=measures)
    for ref in against:
        for meas in measures:
            if (meas, method) not in wide or (meas, ref) not in wide:
                continue
            diff = (wide[(meas, method)] - wide[(meas, ref)]).dropna()
            for cohort, d in diff.groupby(level="cohort"):
                d = d.to_numpy()
                mean = float(d.mean())
                se = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float("nan")
                se_c = corrected_se(d, test_fraction)
                verdict = ("within noise" if not np.isfinite(se_c) or abs(mean) <= 2 * se_c
                           else "above" if mean > 0 else "below")
                out.append({"cohort": cohort, "against": ref, "measure": meas,
                            "splits": len(d), "mean": mean, "se": se,
                            "se_corrected": se_c, "verdict": verdict})
    return pd.DataFrame(out, columns=["cohort", "against", "measure", "splits", "mean", "se",
                                      "se_corrected", "verdict"])


def paired_markdown(diffs: pd.DataFrame, method: str = "SparGE") -> str:
    """One line per cohort: ``mean ± corrected SE (plain SE)`` for every reference and
    measure, then how many differences are beyond twice the corrected error."""
    if diffs.empty:
        return ""
    cell = diffs.apply(lambda r: f"{r['mean']:+.3f} ± {r['se_corrected']:.3f} "
                                 f"({r['se']:.3f})" + (f" **{r['verdict']}**"
                                                       if r["verdict"] != "within noise"
                                                       else ""), axis=1)
    table = diffs.assign(cell=cell).pivot_table(index="cohort", columns=["against", "measure"],
                                                values="cell", aggfunc="first")
    head = [f"{method} − {ref}, {meas}" for ref, meas in table.columns]
    lines = ["| cohort | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
    for cohort, r in table.iterrows():
        lines.append(f"| {cohort} | " + " | ".join(str(v) for v in r) + " |")
    counts = diffs.groupby(["against", "measure"])["verdict"].value_counts().unstack(
        fill_value=0)
    said = "; ".join(
        f"against {ref}, {meas}: {int(c.get('below', 0))} below, {int(c.get('above', 0))} "
        f"above, {int(c.get('within noise', 0))} within noise"
        for (ref, meas), c in counts.iterrows())
    return ("Paired differences over the same splits: mean ± Nadeau–Bengio corrected "
            "standard error (the plain one in brackets; the splits' training sets overlap, "
            "so the plain one is too small). **below/above**: beyond twice the corrected "
            "error.\n\n" + "\n".join(lines) + "\n\n" + said + ".")


__all__ = ["corrected_se", "paired_differences", "paired_markdown"]

