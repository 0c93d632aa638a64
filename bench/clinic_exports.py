"""Generated clinic exports with a planted truth (seeded): a neonatal unit's (walk-through
31), an emergency department's (walk-through 33) and an HIV clinic's (walk-through 37),
each written the messy ways such exports write their values. ``bench.reading_truth``
scores how many of them the Encoder reads right; ``bench.log_scale`` learns from the HIV
clinic's."""

from __future__ import annotations

import numpy as np
import pandas as pd

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
