"""How many of a messy export's values the Encoder reads right, against a planted truth.

Two generated exports (seeded; not the walk-throughs' files, whose findings they turn
into a measure). A neonatal unit's (walk-through 31) writes each infant's true values the
ways such exports do:
gestational age as "38+4", "40w 5d" or weeks; birth weight in grams, "2810g", kg and
"6 lb 10 oz"; Apgar scores "8/9"; glucose in mmol/L with a share in mg/dL, bilirubin in
µmol/L with shares in mg/dL written and unwritten, haemoglobin in g/L with a share in
g/dL; gap words among them. An emergency department's (walk-through 33) writes triage
as "2", "ESI 2", "Cat 2" or "Level 2 - Emergent"; pain as "7", "7/10" or "seven"; SpO2
as "96", "96%", "96% RA" or "94% on 2L"; heights in cm and feet and inches; times to the
doctor in minutes, "1h 20m", "80 min" or "01:20"; GCS as "15", "E4V5M6" or "GCS 14";
troponin in ng/L, "<5 ng/L" and ng/mL; white cell counts per µL among ×10⁹/L; weights
"est 67". An HIV clinic's (walk-through 37) writes viral loads with thousands
separators and a unit, as their logarithm ("log 4.1") or not detected ("TND", "<50"); CD4
counts "350 (22%)", "CD4 350", per mm³, per µL and ×10⁹/L; eGFRs in "mL/min/1.73m2"
and "&gt;90"; years on treatment in months. The Encoder reads the file as the Data page
does, before and after the one-click repairs (far values converted or set to missing,
``clear_far``; answers written two ways merged), and every column is scored against the
truth: the share of the truth read within 2 %, read wrong (further), and lost (missing
where the truth has a value)::

    python -m bench.reading_truth [--quick] [--seeds 3]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd

from bench.report import publish, to_markdown
from sparge import Encoder, read_table
from sparge.data.answer_merging import merge_answers

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


TRIAGE = {1: "Resuscitation", 2: "Emergent", 3: "Urgent", 4: "Less urgent",
          5: "Non-urgent"}
WORDS = "zero one two three four five six seven eight nine ten".split()


def ed_export(n: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """An emergency department's export: ``(text cells, truth in the columns' units)``."""
    rng = np.random.default_rng(seed)
    level = rng.integers(1, 6, n)
    pain = rng.integers(0, 11, n)
    spo2 = np.clip(rng.normal(96, 3, n).round(), 80, 100)
    height = rng.normal(170, 10, n).round()
    ttd = rng.integers(5, 300, n)
    gcs = np.clip(15 - rng.poisson(0.4, n), 3, 15)
    trop = np.exp(rng.normal(np.log(12), 0.9, n)).round()
    wbc = np.exp(rng.normal(np.log(8.5), 0.3, n)).round(1)
    weight = rng.normal(78, 15, n).round(1)
    truth = pd.DataFrame({"Triage": level.astype(float), "Pain": pain.astype(float),
                          "SpO2": spo2, "Height": height, "Time to doctor": ttd.astype(float),
                          "GCS": gcs.astype(float), "Troponin": trop, "WBC": wbc,
                          "Weight": weight})
    u = rng.random((n, 9))
    cells: dict[str, list[str]] = {c: [] for c in truth.columns}
    for i in range(n):
        lv = int(level[i])
        cells["Triage"].append((str(lv), f"ESI {lv}", f"Cat {lv}",
                                f"Level {lv} - {TRIAGE[lv]}")[int(u[i, 0] * 4)])
        cells["Pain"].append((str(pain[i]), f"{pain[i]}/10", WORDS[pain[i]])[int(u[i, 1] * 3)])
        s = int(spo2[i])
        cells["SpO2"].append(str(s) if u[i, 2] < 0.5 else f"{s}%" if u[i, 2] < 0.7
                             else f"{s}% RA" if u[i, 2] < 0.85 else f"{s}% on 2L")
        if u[i, 3] < 0.1:  # feet and inches: the truth is what they say
            ft, inch = divmod(round(height[i] / 2.54), 12)
            cells["Height"].append(f"{ft}'{inch}\"" if u[i, 3] < 0.05 else f"{ft} ft {inch} in")
            truth.loc[i, "Height"] = (12 * ft + inch) * 2.54
        else:
            cells["Height"].append(f"{height[i]:.0f}")
        h, m = divmod(int(ttd[i]), 60)
        cells["Time to doctor"].append(
            (str(ttd[i]), f"{h}h {m}m", f"{ttd[i]} min", f"{h:02d}:{m:02d}")[int(u[i, 4] * 4)])
        g = int(gcs[i])
        mot = min(6, g - 2)
        verbal = min(5, g - mot - 1)
        cells["GCS"].append((str(g), f"GCS {g}", f"E{g - mot - verbal}V{verbal}M{mot}")[
            int(u[i, 5] * 3)])
        if trop[i] < 5:
            cells["Troponin"].append("<5 ng/L" if u[i, 6] < 0.5 else "<5")
            truth.loc[i, "Troponin"] = 5.0
        else:
            cells["Troponin"].append(f"{trop[i] / 1000:.3f} ng/mL" if u[i, 6] < 0.15
                                     else f"{trop[i]:.0f} ng/L" if u[i, 6] < 0.3
                                     else f"{trop[i]:.0f}")
        cells["WBC"].append(f"{wbc[i] * 1000:,.0f}" if u[i, 7] < 0.05 else f"{wbc[i]}")
        cells["Weight"].append(f"est {weight[i]:.0f}" if u[i, 8] < 0.05 else f"{weight[i]}")
        if u[i, 8] < 0.05:
            truth.loc[i, "Weight"] = round(weight[i])
    risk = (3 - level) + (spo2 < 93) + rng.normal(0, 1, n)
    df = pd.DataFrame({"Visit ID": [f"ED{100000 + i}" for i in range(n)], **cells,
                       "Admitted": np.where(risk > 0.5, rng.choice(["Yes", "admitted"], n),
                                            rng.choice(["No", "discharged"], n))})
    return df, truth


NOT_DETECTED = ["<50", "TND", "not detected", "target not detected"]


def hiv_export(n: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """An HIV clinic's export (walk-through 37): ``(text cells, truth)``. A viral load not
    detected is true at the clinic's limit, 50 copies/mL, as its "<50" reads."""
    rng = np.random.default_rng(seed)
    failed = rng.random(n) < 0.3
    load = np.where(failed, np.exp(rng.normal(np.log(20_000), 1.5, n)), np.nan).round()
    load = np.where(load < 200, 200, load)
    cd4 = np.clip(rng.normal(480, 200, n), 20, 1500).round()
    egfr = np.clip(rng.normal(85, 20, n), 15, 130).round()
    years = rng.uniform(0.5, 15, n).round(1)
    truth = pd.DataFrame({"Viral load": np.where(failed, load, 50.0), "CD4 count": cd4,
                          "eGFR": np.minimum(egfr, 90), "Years on ART": years})
    u = rng.random((n, 4))
    cells: dict[str, list[str]] = {c: [] for c in truth.columns}
    for i in range(n):
        if failed[i]:
            v = int(load[i])
            k = int(u[i, 0] * 5)
            cells["Viral load"].append((f"{v:,}", f"{v:,} copies/mL", str(v),
                                        f"log {np.log10(v):.3f}",
                                        f"{np.log10(v):.3f} log")[k])
            if k >= 3:  # three decimals of a logarithm: the load they say
                truth.loc[i, "Viral load"] = 10 ** round(np.log10(v), 3)
        else:
            cells["Viral load"].append(NOT_DETECTED[int(u[i, 0] * 4)])
        c = int(cd4[i])
        cells["CD4 count"].append((str(c), f"{c} ({max(1, c // 25)}%)", f"CD4 {c}",
                                   f"{c} cells/mm3", f"{c} cells/µL",
                                   f"{c / 1000:.3f} x10^9/L")[int(u[i, 1] * 6)])
        e = int(egfr[i])
        cells["eGFR"].append((">90" if u[i, 2] < 0.5 else "&gt;90") if e >= 90 else
                             (str(e), f"{e} mL/min/1.73m2", f"{e} mL/min")[int(u[i, 2] * 3)])
        if u[i, 3] < 0.2:  # in months: the truth is what they say
            months = round(12 * years[i])
            cells["Years on ART"].append(f"{months} months")
            truth.loc[i, "Years on ART"] = months / 12
        else:
            cells["Years on ART"].append(f"{years[i]}" if u[i, 3] < 0.6 else f"{years[i]} yrs")
    outcome = failed ^ (rng.random(n) < 0.15)
    df = pd.DataFrame({"Patient ID": [f"HIV-{10000 + i}" for i in range(n)], **cells,
                       "Virological failure at 12 months": np.where(
                           outcome, rng.choice(["Yes", "failure"], n),
                           rng.choice(["No", "suppressed"], n))})
    return df, truth


EXPORTS = {"neonatal": (export, "MRN", "NICU admission"),
           "emergency department": (ed_export, "Visit ID", "Admitted"),
           "HIV clinic": (hiv_export, "Patient ID", "Virological failure at 12 months")}


def scores(n: int, seed: int, kind: str = "neonatal") -> pd.DataFrame:
    """One export's columns scored before and after the one-click repairs."""
    make, id_column, label = EXPORTS[kind]
    df, truth = make(n, seed)
    read = read_table(df.to_csv(index=False).encode())
    rows = []
    for repaired in (False, True):
        enc = Encoder(id_column=id_column, label_column=label,
                      max_patient_missing=None, clear_far=repaired)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            X = enc.fit_transform(read)
            if repaired and enc.report_.answers_two_ways:  # the merge's one click
                enc = Encoder(id_column=id_column, label_column=label,
                              max_patient_missing=None, clear_far=True,
                              encoding_table=merge_answers(enc.table_,
                                                           enc.report_.answers_two_ways))
                X = enc.fit_transform(read)
        for col in truth.columns:
            t = truth[col].to_numpy(float)
            x = (X[:, enc.feature_names_out_.index(col)] if col in enc.feature_names_out_
                 else np.full(n, np.nan))
            have = np.isfinite(t)
            ok = have & np.isfinite(x) & (np.abs(x - t) <= 0.02 * np.abs(t))
            lost = have & ~np.isfinite(x)
            rows.append({"export": kind, "seed": seed, "repaired": repaired, "column": col,
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
    res = pd.concat([scores(n, s, kind) for kind in EXPORTS for s in range(seeds)],
                    ignore_index=True)
    table = (res.groupby(["export", "column", "repaired"], sort=False)
             [["right", "wrong", "lost"]].mean().reset_index())
    table["repaired"] = table["repaired"].map({False: "as read",
                                               True: "after the repairs"})
    publish(f"Values read within 2 % of the truth ({seeds} export(s) of {n} patients "
            "each)\n\n" + to_markdown(table), "reading_truth.md", args.quick)


if __name__ == "__main__":
    main()
