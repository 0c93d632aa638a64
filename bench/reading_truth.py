"""How many of a messy export's values the Encoder reads right, against a planted truth.

A generated neonatal-unit export (seeded; not walk-through 31's file, whose findings it
turns into a measure) writes each infant's true values the ways such exports do:
gestational age as "38+4", "40w 5d" or weeks; birth weight in grams, "2810g", kg and
"6 lb 10 oz"; Apgar scores "8/9"; glucose in mmol/L with a share in mg/dL, bilirubin in
µmol/L with shares in mg/dL written and unwritten, haemoglobin in g/L with a share in
g/dL; gap words among them. The Encoder reads the file as the Data page does, before
and after the one-click repair of far values (``clear_far``), and every column is scored
against the truth: the share of the truth read within 2 %, read wrong (further), and
lost (missing where the truth has a value)::

    python -m bench.reading_truth [--quick] [--seeds 3]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd

from bench.report import publish, to_markdown
from sparge import Encoder, read_table

LB, OZ = 453.59237, 28.349523125
GAPS = ["", "NA", "not done", "-", "?"]


def export(n: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(the export as text cells, the truth in the columns' units)``."""
    rng = np.random.default_rng(seed)
    ga_days = np.clip(rng.normal(38 * 7, 21, n).round(), 23 * 7, 42 * 7 + 6).astype(int)
    bw = np.clip(np.exp(rng.normal(np.log(3300), 0.12, n)) * (ga_days / 280) ** 3, 400,
                 5500).round()
    ap1 = np.clip(rng.normal(7.5, 1.5, n).round(), 0, 10).astype(int)
    ap5 = np.clip(ap1 + rng.integers(0, 3, n), 0, 10).astype(int)
    glu = np.exp(rng.normal(np.log(3.8), 0.3, n)).round(1)
    bili = np.exp(rng.normal(np.log(110), 0.45, n)).round()
    hb = rng.normal(170, 18, n).round()
    truth = pd.DataFrame({"Gestation": ga_days / 7, "Birth Weight": bw,
                          "APGAR 1 min": ap1.astype(float), "APGAR 5 min": ap5.astype(float),
                          "Glucose": glu, "Bilirubin": bili, "Hb": hb})
    u = rng.random((n, 7))

    def gap(i: int) -> str:
        return GAPS[rng.integers(len(GAPS))]

    cells = {k: [] for k in ("Gestation", "Birth Weight", "APGAR", "Glucose", "Bilirubin",
                             "Hb")}
    for i in range(n):
        w, d = divmod(int(ga_days[i]), 7)
        cells["Gestation"].append(gap(i) if u[i, 0] < 0.03 else f"{w}w {d}d"
                                  if u[i, 0] < 0.10 else f"{w}+{d}")
        r = u[i, 1]
        if r < 0.03:
            cell = gap(i)
        elif r < 0.10:  # kg
            cell = f"{bw[i] / 1000:.2f}"
            truth.loc[i, "Birth Weight"] = round(bw[i] / 10) * 10
        elif r < 0.15:  # pounds and ounces
            lb, oz = divmod(round(bw[i] / OZ), 16)
            cell = f"{lb} lb {oz} oz"
            truth.loc[i, "Birth Weight"] = lb * LB + oz * OZ
        elif r < 0.20:
            cell = f"{bw[i]:.0f}g"
        else:
            cell = f"{bw[i]:.0f}"
        cells["Birth Weight"].append(cell)
        cells["APGAR"].append(gap(i) if u[i, 2] < 0.03 else f"{ap1[i]}/{ap5[i]}")
        r = u[i, 3]
        cells["Glucose"].append(gap(i) if r < 0.03 else f"{glu[i] * 18:.0f}"
                                if r < 0.13 else f"{glu[i]}")
        if r >= 0.03 and r < 0.13:
            truth.loc[i, "Glucose"] = round(glu[i] * 18) / 18
        r = u[i, 4]
        if r < 0.03:
            cell = gap(i)
        elif r < 0.08:  # mg/dL, unwritten
            cell = f"{bili[i] / 17.1:.1f}"
            truth.loc[i, "Bilirubin"] = round(bili[i] / 17.1, 1) * 17.1
        elif r < 0.20:  # mg/dL, written
            cell = f"{bili[i] / 17.1:.1f} mg/dL"
            truth.loc[i, "Bilirubin"] = round(bili[i] / 17.1, 1) * 17.1
        else:
            cell = f"{bili[i]:.0f}"
        cells["Bilirubin"].append(cell)
        r = u[i, 5]
        cells["Hb"].append(gap(i) if r < 0.03 else f"{hb[i] / 10:.1f}" if r < 0.15
                           else f"{hb[i]:.0f}")
        if r >= 0.03 and r < 0.15:
            truth.loc[i, "Hb"] = round(hb[i] / 10, 1) * 10
    for col, pos in (("Gestation", 0), ("Birth Weight", 1), ("Glucose", 3), ("Bilirubin", 4),
                     ("Hb", 5)):
        truth.loc[u[:, pos] < 0.03, col] = np.nan
    truth.loc[u[:, 2] < 0.03, ["APGAR 1 min", "APGAR 5 min"]] = np.nan
    risk = (280 - ga_days) / 14 + (7 - ap5) / 2 + rng.normal(0, 1, n)
    df = pd.DataFrame({"MRN": [f"N{100000 + i}" for i in range(n)], **cells,
                       "NICU admission": np.where(risk > 1.0, "Yes", "No")})
    return df, truth


def scores(n: int, seed: int) -> pd.DataFrame:
    """One export's columns scored before and after the one-click repair."""
    df, truth = export(n, seed)
    read = read_table(df.to_csv(index=False).encode())
    rows = []
    for repaired in (False, True):
        enc = Encoder(id_column="MRN", label_column="NICU admission",
                      max_patient_missing=None, clear_far=repaired)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            X = enc.fit_transform(read)
        for col in truth.columns:
            t = truth[col].to_numpy(float)
            x = (X[:, enc.feature_names_out_.index(col)] if col in enc.feature_names_out_
                 else np.full(n, np.nan))
            have = np.isfinite(t)
            ok = have & np.isfinite(x) & (np.abs(x - t) <= 0.02 * np.abs(t))
            lost = have & ~np.isfinite(x)
            rows.append({"seed": seed, "repaired": repaired, "column": col,
                         "right": ok.sum() / have.sum(), "wrong": (have & ~ok & ~lost).sum()
                         / have.sum(), "lost": lost.sum() / have.sum()})
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one small export")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--patients", type=int, default=700)
    args = ap.parse_args()
    n, seeds = (200, 1) if args.quick else (args.patients, args.seeds)
    res = pd.concat([scores(n, s) for s in range(seeds)], ignore_index=True)
    table = (res.groupby(["column", "repaired"], sort=False)[["right", "wrong", "lost"]]
             .mean().reset_index())
    table["repaired"] = table["repaired"].map({False: "as read", True: "after the repair"})
    publish(f"Values read within 2 % of the truth ({seeds} export(s) of {n} infants)\n\n"
            + to_markdown(table), "reading_truth.md", args.quick)


if __name__ == "__main__":
    main()
