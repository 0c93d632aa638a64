"""Robustness to gaps (the paper's central claim): mask 0, 10, 20, 30, 50 % of entries at
random in training and test patients, and whole biomarker groups; kNN balanced accuracy and
class-balanced precision@10 of SparGE vs raw features with median imputation, raw features
with soft-impute, random-forest proximity (its trees take the NaN gaps), and a peer (NCA
by default).

    python -m bench.robustness          # table + PNG in bench/results/
    python -m bench.robustness --quick
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bench.cohorts import encoded
from bench.common import RESULTS, ROOT
from bench.peers import PEERS, soft_impute_raw
from bench.report import to_markdown
from bench.scores import lookalike_scores
from bench.splits import stratified_splits

METHODS = {"SparGE": PEERS["SparGE"], "raw (median)": PEERS["raw"],
           "raw (soft-impute)": soft_impute_raw,
           # the strongest peer on look-alikes; its trees take the gaps as they are
           "forest proximity": PEERS["forest proximity"]}


def group_blocks(cohort: str, features: list[str]) -> list[list[int]]:
    """Biomarker groups: the sample's own groups, else 5 contiguous column blocks."""
    if cohort == "singheart_synthetic":
        groups = json.loads((ROOT / "data_samples" / "biomarker_groups.json").read_text())
        pos = {f: j for j, f in enumerate(features)}
        return [[pos[c] for c in cols if c in pos] for cols in groups.values()]
    return [list(b) for b in np.array_split(np.arange(len(features)), 5)]


def mask(X: np.ndarray, condition: str, blocks: list[list[int]],
         rng: np.random.Generator) -> np.ndarray:
    """A copy of ``X`` with gaps added: ``"groups"`` or a rate such as ``"30%"``."""
    X = X.copy()
    if condition == "groups":  # every patient loses each group with probability 0.3
        for b in blocks:
            lose = rng.random(X.shape[0]) < 0.3
            X[np.ix_(lose, b)] = np.nan
        return X
    rate = float(condition.rstrip("%")) / 100
    X[rng.random(X.shape) < rate] = np.nan
    return X


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cohorts", nargs="*",
                    default=["whas500", "breast_cancer", "singheart_synthetic", "support2"])
    ap.add_argument("--peer", default="NCA")
    ap.add_argument("--splits", type=int)
    ap.add_argument("--max-rows", type=int, default=2500)
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds per cohort after which no further split is started "
                         "(at least 3 splits; ignored with --splits)")
    ap.add_argument("--conditions", nargs="*", help="e.g. 0%% 30%% groups")
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()
    # Cheap cohorts get more splits: a test set of ~150 patients makes one split's balanced
    # accuracy noisy to +-0.03, which would swamp the differences measured here. Without
    # --splits, splits continue (up to 10) while the cohort has used less than --budget
    # seconds, and at least 3 are always run.
    max_splits = args.splits or (1 if args.quick else 10)
    min_splits = args.splits or (1 if args.quick else 3)
    max_rows = 500 if args.quick else args.max_rows
    conditions = ["0%", "10%", "30%"] if args.quick else \
        ["0%", "10%", "20%", "30%", "50%", "groups"]
    conditions = args.conditions or conditions
    methods = dict(METHODS)
    methods[args.peer] = PEERS[args.peer]
    rows = []
    t0 = time.perf_counter()
    for cohort in args.cohorts:
        X, y, feats = encoded(cohort, max_rows=max_rows)
        blocks = group_blocks(cohort, feats)
        t_cohort = time.perf_counter()
        for s, tr, te in stratified_splits(y, max_splits, seed=0):
            if s >= min_splits and time.perf_counter() - t_cohort > args.budget:
                break
            for cond in conditions:
                rng = np.random.default_rng(1000 + s)
                Xm = mask(X, cond, blocks, rng)
                for name, fn in methods.items():
                    t = time.perf_counter()
                    Ztr, Zte = fn(Xm[tr], y[tr], Xm[te])
                    sc = lookalike_scores(Ztr, y[tr], Zte, y[te])
                    rows.append({"cohort": cohort, "split": s, "masked": cond,
                                 "method": name, "fit_s": time.perf_counter() - t, **sc})
                print(f"  {cohort} split {s} {cond} done", flush=True)
    df = pd.DataFrame(rows)
    agg = df.groupby(["cohort", "masked", "method"], sort=False)[
        ["knn_bal_acc", "p@10_balanced"]].mean().reset_index()
    n_split = df.groupby("cohort", sort=False).split.nunique()
    text = (f"# Robustness to gaps ({time.strftime('%Y-%m-%d')}; splits: "
            + ", ".join(f"{c} {k}" for c, k in n_split.items())
            + f"; cohorts capped at {max_rows} patients; 'groups' = each biomarker group "
            "removed for 30 % of patients)\n\n")
    for cohort, g in agg.groupby("cohort", sort=False):
        wide = g.pivot_table(index="masked", columns="method", values="knn_bal_acc",
                             sort=False).reset_index()
        wide2 = g.pivot_table(index="masked", columns="method", values="p@10_balanced",
                              sort=False).reset_index()
        text += (f"## {cohort}: kNN balanced accuracy\n\n{to_markdown(wide)}\n\n"
                 f"## {cohort}: class-balanced precision@10\n\n{to_markdown(wide2)}\n\n")
    if {"0%", "30%"} <= set(conditions):
        text += ("## Balanced accuracy lost at 30 % random gaps (vs 0 % on the same "
                 "split; mean ± standard error over splits; closer to 0 is better)\n\n"
                 f"{to_markdown(loss_table(df, '30%'))}\n")
    print(text)
    print(f"total {time.perf_counter() - t0:.0f} s")
    if not (args.quick or args.no_save):
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "robustness.md").write_text(text)
        df.to_csv(RESULTS / "robustness.csv", index=False)
        plot(agg, conditions, RESULTS / "robustness.png")


def loss_table(df: pd.DataFrame, condition: str) -> pd.DataFrame:
    """kNN balanced accuracy at ``condition`` minus at 0 %, paired by split."""
    wide = df.pivot_table(index=["cohort", "method", "split"], columns="masked",
                          values="knn_bal_acc")
    diff = (wide[condition] - wide["0%"]).groupby(["cohort", "method"], sort=False)
    cell = diff.mean().map("{:+.3f}".format) + " ± " + diff.sem().fillna(0).map(
        "{:.3f}".format)
    return cell.unstack("method").reset_index()


def plot(agg: pd.DataFrame, conditions: list[str], path: Path) -> None:
    """Both measures against the share of entries masked, one column per cohort."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cohorts = list(dict.fromkeys(agg.cohort))
    fig, axes = plt.subplots(2, len(cohorts), figsize=(4.2 * len(cohorts), 7), squeeze=False)
    for j, c in enumerate(cohorts):
        for i, (measure, label) in enumerate((("knn_bal_acc", "kNN balanced accuracy"),
                                              ("p@10_balanced", "class-balanced P@10"))):
            ax = axes[i, j]
            for name, g in agg[agg.cohort == c].groupby("method", sort=False):
                g = g.set_index("masked").reindex(conditions)
                ax.plot(conditions, g[measure], marker="o", label=name)
            ax.set_title(c if i == 0 else "")
            ax.set_ylabel(label)
            ax.set_xlabel("entries masked")
            ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
