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

from bench.clinic_exports import ed_export, export, hiv_export
from bench.report import publish, to_markdown
from sparge import Encoder, read_table
from sparge.data.answer_merging import merge_answers

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
