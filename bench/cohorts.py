"""Real public cohorts for the benchmarks, as CSV-like frames (text categories, gaps kept).

Every cohort goes through the project's own ``Encoder`` (so categorical text is encoded by
the same code the app uses). Data come from PyPI packages that ship them: SurvSet
(``support2``, ``whas500``) and scikit-learn (Wisconsin breast cancer); the synthetic
SingHEART-style cohort comes from ``sparge.data.synthetic``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bench.common import ROOT
from sparge import Encoder

LEAKY_SUPPORT2 = ["num_surv2m", "num_surv6m", "fac_sfdm2"]


def _survset(name: str, drop: list[str]) -> tuple[pd.DataFrame, str]:
    from SurvSet.data import SurvLoader

    df = SurvLoader().load_dataset(name)["df"].copy()
    df = df.drop(columns=["pid", "time"] + [c for c in drop if c in df.columns])
    for c in df.columns:
        if str(df[c].dtype) == "category":
            df[c] = df[c].astype(object).where(df[c].notna(), None)
    df["outcome"] = np.where(df.pop("event") == 1, "event", "no event")
    return df, "outcome"


def load_cohort(name: str) -> tuple[pd.DataFrame, str]:
    """``(frame, label_column)`` for one benchmark cohort."""
    if name == "support2":
        # outcome: death during follow-up; num_surv2m/num_surv6m are a prognostic model's
        # outputs and fac_sfdm2's level '<2 mo. follow-up' means the patient died: all leak.
        return _survset("support2", LEAKY_SUPPORT2)
    if name == "whas500":
        return _survset("whas500", [])
    if name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        d = load_breast_cancer(as_frame=True)
        df = d.data.copy()
        df["outcome"] = np.where(d.target == 1, "benign", "malignant")
        return df, "outcome"
    if name.startswith("survset:"):  # any SurvSet cohort (bench.broad_check)
        return _survset(name.split(":", 1)[1], [])
    if name == "singheart_synthetic":
        df = pd.read_csv(ROOT / "data_samples" / "singheart_synthetic.csv")
        return df.drop(columns=["Subject ID"]), "Outcome"
    raise ValueError(f"unknown cohort {name!r}")


def encoded(name: str, max_rows: int | None = None, seed: int = 0
            ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Encoded features (NaN = missing), outcome and feature names.

    No patient is dropped (``max_patient_missing=None``): the benchmarks measure how the
    methods cope with the gaps.
    """
    df, label = load_cohort(name)
    if max_rows is not None and len(df) > max_rows:
        df = df.sample(max_rows, random_state=seed).reset_index(drop=True)
    enc = Encoder(label_column=label, max_patient_missing=None)
    X = enc.fit_transform(df)
    # one NaN for every gap: SurvSet's pickles carry R's NA (a signalling-NaN payload),
    # which the peers (given the array as it is) cast with 'invalid value' warnings
    X[np.isnan(X)] = np.nan
    y = df[label].astype(str).to_numpy()
    return X, y, list(enc.feature_names_out_)


COHORTS = ["support2", "whas500", "breast_cancer", "singheart_synthetic"]

#: A broader confirmation set (``bench.broad_check``): clinical SurvSet cohorts with mixed
#: numbers and categories, a binary event and 200-8,000 patients. Their test patients never
#: choose a default; their training splits joined the four cohorts above in rounds 8-9 of
#: DEFAULTS.md (the forest part's leaf size, weight and inputs, by inner validation).
BROAD_COHORTS = ["survset:" + n for n in (
    "rhc", "flchain", "smarto", "Framingham", "actg", "colon", "GBSG2", "rott2", "vlbw",
    "LeukSurv", "prostate", "hepatoCellular")]

#: A fresh confirmation set (``bench.broad_check --fresh``), chosen in session 7 and never
#: used for a decision, neither their training nor their test splits: SurvSet cohorts
#: with at least 6 columns, a binary event and 190-4,000 patients, none of them above.
FRESH_COHORTS = ["survset:" + n for n in (
    "Pbc3", "uis", "cost", "TRACE", "zinc", "phpl04K8a", "nwtco", "wpbc", "mgus",
    "retinopathy")]

#: A third confirmation set (``bench.broad_check --third``), chosen in session 10 because
#: the fresh set had been looked at three times: every remaining SurvSet cohort with a
#: clinical binary event, at least 5 columns and at least 190 patients (none of them
#: above; ``scania``, a historical demographic register, left out). Fewer columns and
#: fewer gaps than the sets above, and one gene-expression cohort (``dataOvarian1``, 160
#: columns): the shapes a clinic's own export can have. No decision has used them.
THIRD_COHORTS = ["survset:" + n for n in (
    "d.oropha.rec", "dataDIVAT1", "dataDIVAT3", "cancer", "pbc", "Melanoma", "grace", "ova",
    "follic", "dataOvarian1")]

#: A fourth confirmation set (``bench.broad_check --fourth``), chosen in session 16 when the
#: third had been used for a diagnosis (round 13): by a rule, every remaining SurvSet
#: cohort of patients (not hard drives, the unemployed or marriages) with one row per
#: patient, a binary event with both outcomes, 4-100 columns and at least 100 patients.
#: Small and narrow: the shapes where round 13 found SparGE below raw. No decision has
#: used them.
FOURTH_COHORTS = ["survset:" + n for n in (
    "Dialysis", "Aids2", "dataDIVAT2", "rdata", "diabetes", "burn", "stagec", "nki70",
    "veteran", "cgd", "pharmacoSmoking", "micro.censure", "breast")]

#: Every benchmark cohort: the four development cohorts and the four confirmation sets
#: (49; ``bench.far_values`` and ``bench.fit_estimate`` go through them all).
ALL_COHORTS = COHORTS + BROAD_COHORTS + FRESH_COHORTS + THIRD_COHORTS + FOURTH_COHORTS
