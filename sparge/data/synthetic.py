"""A synthetic SingHEART-style cohort (the real one is private).

683 subjects × 467 biomarkers in the paper's 7 groups (Calcium Score 7, APB Biofourmis 101,
Lab Tests 35, MRI Features 29, Proforma 88, General Questionnaire 189, Lifestyle
Questionnaire 18). Biomarkers are driven by a few latent health factors (metabolic, vascular
age, cardiac structure, lifestyle, fitness) with measurement noise; categorical answers are
written as text exactly as in the paper's encoding table; values have realistic ranges and
units; 10-30 % of each group's cells are missing, some patients missing most of a group.
The outcome (cardiovascular risk low / medium / high) depends on the latent factors.
Everything is reproducible from the seed.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from sparge.data.tables import PAPER_TABLE

GROUP_SIZES = {
    "Calcium Score": 7,
    "APB Biofourmis": 101,
    "Lab Tests": 35,
    "MRI Features": 29,
    "Proforma": 88,
    "General Questionnaire": 189,
    "Lifestyle Questionnaire": 18,
}
FACTORS = ("metabolic", "vascular_age", "cardiac_structure", "lifestyle", "fitness")

# (name, mean, sd, decimals, floor, log-normal?, main factor loadings)
_CALCIUM = [
    ("CAC Agatston total", 2.0, 1.6, 0, 0, True, {"vascular_age": 1.0}),
    ("CAC LAD", 1.5, 1.4, 0, 0, True, {"vascular_age": 0.9}),
    ("CAC LCX", 1.0, 1.2, 0, 0, True, {"vascular_age": 0.8}),
    ("CAC RCA", 1.2, 1.3, 0, 0, True, {"vascular_age": 0.8}),
    ("CAC LM", 0.5, 0.9, 0, 0, True, {"vascular_age": 0.6}),
    ("CAC volume (mm3)", 1.8, 1.5, 1, 0, True, {"vascular_age": 0.9}),
    ("CAC mass (mg)", 1.3, 1.4, 1, 0, True, {"vascular_age": 0.9}),
]
_LABS = [
    ("Total cholesterol (mmol/L)", 5.2, 0.9, 2, 2.0, False, {"metabolic": 0.6}),
    ("LDL cholesterol (mmol/L)", 3.2, 0.8, 2, 0.5, False, {"metabolic": 0.7}),
    ("HDL cholesterol (mmol/L)", 1.4, 0.35, 2, 0.4, False, {"metabolic": -0.6, "fitness": 0.3}),
    ("Triglycerides (mmol/L)", 0.3, 0.45, 2, 0.2, True, {"metabolic": 0.7}),
    ("Fasting glucose (mmol/L)", 1.65, 0.15, 1, 3.0, True, {"metabolic": 0.8}),
    ("HbA1c (%)", 5.6, 0.6, 1, 4.0, False, {"metabolic": 0.8}),
    ("Creatinine (umol/L)", 80, 18, 0, 30, False, {"vascular_age": 0.4}),
    ("eGFR (mL/min/1.73m2)", 95, 15, 0, 15, False, {"vascular_age": -0.6}),
    ("ALT (U/L)", 3.2, 0.5, 0, 5, True, {"metabolic": 0.5}),
    ("AST (U/L)", 3.1, 0.35, 0, 5, True, {"metabolic": 0.3}),
    ("hs-CRP (mg/L)", 0.2, 0.9, 2, 0.1, True, {"metabolic": 0.5, "lifestyle": 0.3}),
    ("Haemoglobin (g/dL)", 14.0, 1.4, 1, 8, False, {"fitness": 0.3}),
    ("Uric acid (umol/L)", 340, 80, 0, 100, False, {"metabolic": 0.6}),
    ("NT-proBNP (pg/mL)", 3.5, 0.9, 0, 5, True, {"cardiac_structure": 0.6, "vascular_age": 0.4}),
    ("Troponin T hs (ng/L)", 1.5, 0.6, 1, 3, True, {"cardiac_structure": 0.5, "vascular_age": 0.3}),
]
_MRI = [
    ("LV end-diastolic volume (mL)", 140, 28, 0, 60, False, {"cardiac_structure": 0.8}),
    ("LV end-systolic volume (mL)", 52, 14, 0, 15, False, {"cardiac_structure": 0.8}),
    ("LV ejection fraction (%)", 62, 6, 0, 25, False, {"cardiac_structure": -0.5}),
    ("LV mass (g)", 110, 25, 0, 40, False, {"cardiac_structure": 0.7, "metabolic": 0.3}),
    ("LA volume (mL)", 60, 14, 0, 20, False, {"cardiac_structure": 0.6, "vascular_age": 0.3}),
    ("Aortic distensibility (10-3/mmHg)", 4.0, 1.4, 2, 1.2, False, {"vascular_age": -0.8}),
]
_PROFORMA = [
    ("Age (years)", 45, 12, 0, 21, False, {"vascular_age": 0.9}),
    ("Height (cm)", 165, 9, 0, 140, False, {}),
    ("Weight (kg)", 68, 13, 1, 38, False, {"metabolic": 0.6}),
    ("BMI (kg/m2)", 24.5, 4.0, 1, 15, False, {"metabolic": 0.8}),
    ("Waist circumference (cm)", 86, 11, 0, 55, False, {"metabolic": 0.8}),
    ("Systolic BP (mmHg)", 124, 15, 0, 85, False, {"vascular_age": 0.6, "metabolic": 0.3}),
    ("Diastolic BP (mmHg)", 78, 10, 0, 45, False, {"vascular_age": 0.4, "metabolic": 0.3}),
    ("Resting heart rate (bpm)", 70, 10, 0, 40, False, {"fitness": -0.7}),
]
_LIFESTYLE = [
    ("Moderate exercise (min/week)", 4.5, 1.0, 0, 0, True, {"fitness": 0.8}),
    ("Vigorous exercise (min/week)", 3.0, 1.3, 0, 0, True, {"fitness": 0.9}),
    ("Sleep duration (h)", 6.8, 0.9, 1, 3, False, {"lifestyle": -0.4}),
    ("Sitting time (h/day)", 8, 2.5, 1, 1, False, {"fitness": -0.5}),
    ("Fruit and vegetable servings/day", 3, 1.3, 0, 0, False, {"lifestyle": -0.5}),
    ("Fast food meals/week", 1.5, 1.2, 0, 0, False, {"lifestyle": 0.6}),
]


def _categorical_columns(group: str) -> list[tuple[str, dict[str, float]]]:
    """Paper-table columns by group with the factor driving them."""
    if group == "Proforma":
        return [
            ("Country of birth", {}),
            ("Marital Status", {"vascular_age": 0.8}),
            ("Religion", {}),
            ("Diabetes", {"metabolic": 1.0}),
            ("Hypertension", {"vascular_age": 0.8, "metabolic": 0.5}),
            ("Heart Attack Block", {"vascular_age": 0.7, "cardiac_structure": 0.5}),
            ("Heart Disease", {"cardiac_structure": 0.8}),
            ("Hyperlipidemia", {"metabolic": 0.9}),
        ]
    if group == "General Questionnaire":
        return [
            ("Smoking", {"lifestyle": 1.0}),
            ("Cigarettes", {"lifestyle": 0.9}),
            ("Home Smoke", {"lifestyle": 0.6}),
            ("Work Smoke", {"lifestyle": 0.5}),
            ("Alcohol", {"lifestyle": 0.6}),
            ("Beer", {"lifestyle": 0.5}),
            ("Red Wine", {}),
            ("White Wine", {}),
        ]
    if group == "Lifestyle Questionnaire":
        return [("Coffee Weekly", {"lifestyle": 0.3}), ("Tea Weekly", {})]
    return []


def _score(F: np.ndarray, loadings: dict[str, float], rng, noise: float) -> np.ndarray:
    s = np.zeros(F.shape[0])
    for name, w in loadings.items():
        s += w * F[:, FACTORS.index(name)]
    return s + noise * rng.standard_normal(F.shape[0])


def _cat_values(column: str, score: np.ndarray, rng, param_rng=None) -> np.ndarray:
    """Answers as text; ``param_rng`` draws the column's level shares (default ``rng``)."""
    levels = list(PAPER_TABLE[column])
    if levels[0] == "Unknown":  # Diabetes & co: mostly No, Yes with high score
        p_yes = 1 / (1 + np.exp(-(score * 1.6 - 1.6)))
        u = rng.random(score.size)
        out = np.where(u < p_yes, "Yes", "No").astype(object)
        out[rng.random(score.size) < 0.04] = "Unknown"
        return out
    if column in ("Smoking", "Cigarettes"):
        p = np.column_stack(
            [
                1 / (1 + np.exp(-(score * 1.5 - 1.5))),
                np.full(score.size, 1.0),
                1 / (1 + np.exp(-(score - 1))),
            ]
        )
    elif column in ("Home Smoke", "Work Smoke"):
        p = np.column_stack(
            [np.full(score.size, 2.0), np.exp(0.6 * score), np.exp(score - 1), np.exp(score - 2)]
        )
    else:
        k = len(levels)
        base = (rng if param_rng is None else param_rng).dirichlet(np.ones(k) * 3)
        p = base[None, :] * np.exp(np.outer(score, np.linspace(-0.5, 0.5, k)))
    p = p / p.sum(axis=1, keepdims=True)
    c = (p.cumsum(axis=1) > rng.random(score.size)[:, None]).argmax(axis=1)
    vals = np.asarray(levels, dtype=object)[c]
    # Real exports vary in case and spacing; the encoder must not care. Every other odd
    # cell is lower case, the rest upper case with spaces around.
    odd = np.flatnonzero(rng.random(score.size) < 0.05)
    lower = np.asarray([str(v).lower() for v in levels], dtype=object)
    upper = np.asarray([f" {str(v).upper()} " for v in levels], dtype=object)
    vals[odd[0::2]] = lower[c[odd[0::2]]]
    vals[odd[1::2]] = upper[c[odd[1::2]]]
    return vals


def _numeric(spec, F, rng, noise=0.5) -> np.ndarray:
    name, mean, sd, dec, floor, lognormal, load = spec
    z = _score(F, load, rng, noise) / np.sqrt(sum(w * w for w in load.values()) + noise**2)
    v = np.exp(mean + sd * z) if lognormal else mean + sd * z
    if lognormal and floor == 0:
        v = np.where(z < -0.3, 0.0, v - np.exp(mean + sd * -0.3))  # many zero CAC scores
    v = np.maximum(v, floor)
    if _is_share(name):
        v = np.minimum(v, 100.0)
    if m := _SCORE_RANGE.search(name):  # a "(score 1-5)" item stops at 5
        v = np.clip(v, float(m.group(1)), float(m.group(2)))
    return np.round(v, int(dec))


#: A questionnaire item's range in its name: "(score 1-5)", "(score 0-10)".
_SCORE_RANGE = re.compile(r"\(score (\d+)-(\d+)\)")


def _is_share(name: str) -> bool:
    """A percentage that cannot pass 100 (oxygen saturation, sleep efficiency, a
    fraction in %); strains and changes written in % can."""
    return name.startswith(("APB SpO2", "APB Sleep efficiency")) or (
        "(%)" in name and "strain" not in name)


def _generic_specs(group: str, count: int, rng) -> list[tuple]:
    specs = []
    if group == "APB Biofourmis":
        metrics = [
            ("Heart rate", 72, 9, {"fitness": -0.6}),
            ("HRV RMSSD", 35, 12, {"fitness": 0.6, "vascular_age": -0.4}),
            ("Steps", 7000, 2500, {"fitness": 0.7}),
            ("Respiration rate", 15, 2, {"fitness": -0.3}),
            ("Skin temperature", 33.5, 0.6, {}),
            ("Activity index", 40, 15, {"fitness": 0.7}),
            ("Sleep efficiency", 85, 6, {"lifestyle": -0.4}),
            ("SpO2", 97, 1.2, {"metabolic": -0.3}),
        ]
        periods = [
            "day",
            "night",
            "morning",
            "afternoon",
            "evening",
            "weekday",
            "weekend",
            "week 1",
            "week 2",
            "min",
            "max",
            "sd",
            "median",
        ]
        # A summary period moves the metric's typical value: the lowest and highest day
        # sit 1.5 SD from the mean, a day-to-day SD is a fraction of the metric's SD,
        # and nobody walks thousands of steps at night.
        shift = {"min": (-1.5, 0.8), "max": (1.5, 0.8)}
        for p in periods:
            for mname, mean, sd, load in metrics:
                m, s = mean, sd
                if p in shift:
                    m, s = mean + shift[p][0] * sd, sd * shift[p][1]
                elif p == "sd":
                    m, s = 0.4 * sd, 0.1 * sd
                elif p == "night" and mname in ("Steps", "Activity index"):
                    m, s = 0.1 * mean, 0.03 * sd
                # a floor no nearer the bulk than a quarter of it: a patient piled up at a
                # floor far below the rest would be a value to check
                floor = round(0.25 * m, 1)
                specs.append((f"APB {mname} ({p})", m, s, 1, floor, False, load))
    elif group == "General Questionnaire":
        domains = [
            ("Stress", {"lifestyle": 0.5}),
            ("Diet", {"lifestyle": 0.6, "metabolic": 0.3}),
            ("Physical activity", {"fitness": 0.7}),
            ("Sleep", {"lifestyle": 0.4}),
            ("Family history", {"vascular_age": 0.3, "metabolic": 0.3}),
            ("Wellbeing", {"fitness": 0.3, "lifestyle": -0.3}),
            ("Symptoms", {"cardiac_structure": 0.4}),
        ]
        i = 0
        while len(specs) < count:
            dname, load = domains[i % len(domains)]
            specs.append(
                (
                    f"GQ {dname} item {i // len(domains) + 1:02d} (score 1-5)",
                    3,
                    1.0,
                    0,
                    1,
                    False,
                    load,
                )
            )
            i += 1
    elif group == "Lab Tests":
        # (name, mean, sd, decimals, floor, log-normal?): adult reference ranges, so a
        # clinician reading the sample sees values a laboratory could report.
        extra = [
            ("Sodium (mmol/L)", 140, 2.5, 0, 125, False),
            ("Potassium (mmol/L)", 4.2, 0.35, 1, 2.8, False),
            ("Chloride (mmol/L)", 102, 2.5, 0, 90, False),
            ("Urea (mmol/L)", 5.0, 1.3, 1, 1.5, False),
            ("Albumin (g/L)", 44, 3, 0, 30, False),
            ("Total protein (g/L)", 72, 4.5, 0, 55, False),
            ("Bilirubin (umol/L)", 2.3, 0.4, 0, 2, True),
            ("ALP (U/L)", 75, 20, 0, 25, False),
            ("GGT (U/L)", 3.2, 0.5, 0, 5, True),
            ("White cell count (10^9/L)", 6.5, 1.6, 1, 2.5, False),
            ("Platelets (10^9/L)", 260, 55, 0, 100, False),
            ("Haematocrit (%)", 42, 3.5, 1, 28, False),
            ("MCV (fL)", 89, 4.5, 0, 70, False),
            ("Ferritin (ug/L)", 4.8, 0.7, 0, 5, True),
            ("TSH (mIU/L)", 0.6, 0.45, 2, 0.1, True),
            ("Free T4 (pmol/L)", 15, 2, 1, 8, False),
            ("Vitamin D (nmol/L)", 55, 20, 0, 10, False),
            ("Calcium (mmol/L)", 2.35, 0.09, 2, 2.0, False),
            ("Phosphate (mmol/L)", 1.1, 0.15, 2, 0.6, False),
            ("Magnesium (mmol/L)", 0.85, 0.07, 2, 0.6, False),
            ("Lipoprotein(a) (nmol/L)", 3.7, 1.0, 0, 3, True),
            ("ApoB (g/L)", 0.95, 0.22, 2, 0.3, False),
            ("Insulin (mU/L)", 2.1, 0.5, 1, 1, True),
            ("Cortisol (nmol/L)", 350, 100, 0, 80, False),
        ]
        for j, (n, mean, sd, dec, floor, lognormal) in enumerate(extra):
            load = {FACTORS[j % 5]: 0.3 + 0.1 * (j % 3)} if j % 2 == 0 else {}
            specs.append((n, mean, sd, dec, floor, lognormal, load))
    elif group == "MRI Features":
        # (name, mean, sd, decimals, floor): healthy-adult cardiac MRI values.
        parts = [
            ("RV end-diastolic volume (mL)", 145, 30, 0, 70),
            ("RV end-systolic volume (mL)", 62, 16, 0, 20),
            ("RV ejection fraction (%)", 58, 6, 0, 35),
            ("LV wall thickness septal (mm)", 9, 1.6, 1, 5),
            ("LV wall thickness lateral (mm)", 8, 1.4, 1, 5),
            ("Global longitudinal strain (%)", -19, 2.2, 1, -30),
            ("Global circumferential strain (%)", -20, 2.5, 1, -35),
            ("Global radial strain (%)", 38, 8, 1, 10),
            ("Native T1 (ms)", 1000, 35, 0, 850),
            ("ECV (%)", 26, 3, 1, 18),
            ("Aortic root diameter (mm)", 32, 3.5, 0, 22),
            ("Ascending aorta diameter (mm)", 31, 4, 0, 20),
            ("Descending aorta diameter (mm)", 23, 3, 0, 15),
            ("Pulse wave velocity (m/s)", 6.5, 1.8, 1, 3),
            ("RA volume (mL)", 60, 16, 0, 20),
            ("LV stroke volume (mL)", 88, 17, 0, 35),
            ("Cardiac output (L/min)", 5.8, 1.1, 1, 2.5),
            ("Cardiac index (L/min/m2)", 3.2, 0.5, 2, 1.5),
            ("LV mass index (g/m2)", 62, 12, 0, 30),
            ("LVEDV index (mL/m2)", 80, 13, 0, 40),
            ("LA ejection fraction (%)", 58, 8, 0, 25),
            ("E/A ratio", 1.3, 0.4, 2, 0.4),
            ("Peak filling rate (mL/s)", 450, 110, 0, 150),
        ]
        for j, (n, mean, sd, dec, floor) in enumerate(parts):
            load = {"cardiac_structure": 0.6} if j % 3 else {"vascular_age": 0.5}
            specs.append((n, mean, sd, dec, floor, False, load))
    elif group == "Proforma":
        i = 0
        while len(specs) < count:
            load = {FACTORS[i % 5]: 0.4} if i % 3 else {}
            specs.append((f"Clinical exam item {i + 1:02d}", 50, 10, 1, 20, False, load))
            i += 1
    elif group == "Lifestyle Questionnaire":
        i = 0
        while len(specs) < count:
            specs.append(
                (
                    f"Lifestyle item {i + 1:02d} (score 0-10)",
                    5,
                    2,
                    0,
                    0,
                    False,
                    {"lifestyle": 0.5} if i % 2 else {"fitness": 0.4},
                )
            )
            i += 1
    return specs[:count]


def make_singheart_like(
    n_patients: int = 683, random_state: int = 0, missing_rate: float = 0.22
) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """Generate the cohort.

    Returns
    -------
    df : DataFrame
        ``Subject ID``, ``Outcome`` (low / medium / high cardiovascular risk) and 467
        biomarker columns; numbers as numbers, categorical answers as text, gaps as NaN.
    groups : dict
        Biomarker group -> its columns (in order).
    """
    draws = _Draws(rng=np.random.default_rng(random_state))
    df = _patients(n_patients, draws, missing_rate, cuts=None, wanted=None,
                   ids=[f"SH{i + 1:04d}" for i in range(n_patients)])
    return df, cohort_columns()


# ---------------------------------------------------------------- cohorts of any size
#: Patients per generation block of the cohort stream (see :func:`make_cohort_rows`).
BLOCK_ROWS = 10_000
#: Outcome cuts of the cohort stream: the 50 % and 82 % quantiles of the risk score, whose
#: distribution is known (normal, mean 0, variance 1.06² + 0.9² + 0.5² + 0.4² + 0.3² + 0.5²),
#: so every block uses the same cuts (``make_singheart_like`` takes the sample's quantiles).
_RISK_SD = float(np.sqrt(1.06**2 + 0.9**2 + 0.5**2 + 0.4**2 + 0.3**2 + 0.5**2))
STREAM_CUTS = (0.0, _RISK_SD * 0.915365087842814)  # Phi^-1(0.82)
_KEY_FACTORS, _KEY_RISK, _KEY_GROUP = 10_000, 10_001, 20_000
_FIXED_NAMES = {spec[0] for spec in _CALCIUM + _LABS + _MRI + _PROFORMA + _LIFESTYLE}
_GROUP_RATE = {
    "Calcium Score": 0.6,
    "APB Biofourmis": 0.5,
    "Lab Tests": 0.4,
    "MRI Features": 0.8,
    "Proforma": 0.2,
    "General Questionnaire": 0.6,
    "Lifestyle Questionnaire": 0.7,
}


class _Draws:
    """Where the random numbers of one batch of patients come from.

    One generator for everything (``rng``: :func:`make_singheart_like`, draws in its
    historical order), or one independent stream per (block, column) and per column
    parameter (``seed`` and ``block``: the cohort stream, so a block can be generated
    alone, and leaving columns out does not change the others).
    """

    def __init__(self, rng=None, seed: int | None = None, block: int | None = None):
        self.rng, self.seed, self.block = rng, seed, block
        self._rows: dict[int, np.random.Generator] = {}

    def rows(self, key: int) -> np.random.Generator:
        if self.rng is not None:
            return self.rng
        if key not in self._rows:
            ss = np.random.SeedSequence(self.seed, spawn_key=(1, self.block, key))
            self._rows[key] = np.random.default_rng(ss)
        return self._rows[key]

    def params(self, key: int) -> np.random.Generator:
        if self.rng is not None:
            return self.rng
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(0, key)))


def _layout() -> list[tuple[str, list[tuple[str, tuple | None, dict]]]]:
    """Groups in order, each with its columns: (name, numeric spec or None, loadings)."""
    fixed = {
        "Calcium Score": _CALCIUM,
        "Lab Tests": _LABS,
        "MRI Features": _MRI,
        "Proforma": _PROFORMA,
        "Lifestyle Questionnaire": _LIFESTYLE,
        "APB Biofourmis": [],
        "General Questionnaire": [],
    }
    out = []
    for group, size in GROUP_SIZES.items():
        cats = _categorical_columns(group)
        n_fixed = len(fixed[group]) + len(cats)
        specs = list(fixed[group]) + _generic_specs(group, size - n_fixed, None)
        cols = [(name, None, load) for name, load in cats]
        cols += [(spec[0], spec, spec[6]) for spec in specs]
        assert len(cols) == size, (group, len(cols), size)
        out.append((group, cols))
    return out


def cohort_columns() -> dict[str, list[str]]:
    """Biomarker group -> its columns (in order): the 467 columns of the cohort."""
    return {group: [c[0] for c in cols] for group, cols in _layout()}


def core_columns() -> list[str]:
    """The 60 named biomarkers: the categorical answers and the fixed calcium score, lab,
    MRI, clinical exam and lifestyle items (no generic wearable or questionnaire items).

    A narrower cohort with the same structure, for tests and benchmarks at scale.
    """
    return [name for _, cols in _layout() for name, spec, _ in cols
            if spec is None or name in _FIXED_NAMES]


def _patients(n: int, draws: _Draws, missing_rate: float, cuts, wanted, ids) -> pd.DataFrame:
    """``n`` patients: ID, outcome and the biomarkers in ``wanted`` (None: all)."""
    F = draws.rows(_KEY_FACTORS).standard_normal((n, len(FACTORS)))
    F[:, 1] += 0.4 * F[:, 0]  # metabolic and vascular age correlate
    risk = 0.9 * F[:, 1] + 0.7 * F[:, 0] + 0.5 * F[:, 2] + 0.4 * F[:, 3] - 0.3 * F[:, 4]
    risk += 0.5 * draws.rows(_KEY_RISK).standard_normal(n)
    if cuts is None:
        cuts = np.quantile(risk, [0.5, 0.82])
    outcome = np.where(risk < cuts[0], "low", np.where(risk < cuts[1], "medium", "high"))
    layout = _layout()
    keys = {c[0]: j for j, c in enumerate(c for _, cols in layout for c in cols)}
    columns: dict[str, np.ndarray] = {}
    for _, cols in layout:
        for name, spec, load in cols:
            if wanted is not None and name not in wanted:
                continue
            rng = draws.rows(keys[name])
            if spec is None:
                score = _score(F, load, rng, 0.6)
                columns[name] = _cat_values(name, score, rng, draws.params(keys[name]))
            else:
                columns[name] = _numeric(spec, F, rng)
    # Missingness: random cells, more in some groups, and patients missing most of a group.
    for g, (group, cols) in enumerate(layout):
        rate = missing_rate * _GROUP_RATE[group]
        block = draws.rows(_KEY_GROUP + g).random(n) < rate * 0.9
        for name, _, _ in cols:
            if name not in columns:
                continue
            rng = draws.rows(keys[name])
            cell = rng.random(n) < rate * 0.45
            gone = cell | (block & (rng.random(n) < 0.85))
            columns[name][gone] = np.nan
    return pd.DataFrame({"Subject ID": ids, "Outcome": outcome, **columns})


def _check_columns(columns) -> list[str] | None:
    if columns is None:
        return None
    known = [c for cols in cohort_columns().values() for c in cols]
    wanted = [str(c) for c in columns]
    unknown = [c for c in wanted if c not in set(known)]
    if unknown:
        raise ValueError(f"Not columns of the synthetic cohort: {unknown[:5]}")
    return [c for c in known if c in set(wanted)]  # the cohort's order


def _block(b: int, random_state: int, missing_rate: float, wanted, n_rows: int
           ) -> pd.DataFrame:
    start = b * BLOCK_ROWS
    ids = np.char.add("SH", np.char.zfill(np.arange(start + 1, start + n_rows + 1)
                                          .astype(str), 7)).astype(object)
    return _patients(n_rows, _Draws(seed=random_state, block=b), missing_rate, STREAM_CUTS,
                     wanted, ids)


def _slices(start: int, stop: int, random_state: int, missing_rate: float, wanted,
            cache: dict):
    """The blocks' pieces that make up rows ``start .. stop - 1``, in order.

    ``cache`` keeps the last block generated, for the next call (a partition boundary
    inside a block does not generate it twice).
    """
    for b in range(start // BLOCK_ROWS, -(-stop // BLOCK_ROWS)):
        if cache.get("index") != b:
            cache["index"] = b
            cache["frame"] = _block(b, random_state, missing_rate, wanted, BLOCK_ROWS)
        lo = b * BLOCK_ROWS
        yield cache["frame"].iloc[max(start, lo) - lo: min(stop, lo + BLOCK_ROWS) - lo]


def make_cohort_rows(start: int, stop: int, *, random_state: int = 0,
                     missing_rate: float = 0.22, columns=None) -> pd.DataFrame:
    """Patients ``start .. stop - 1`` of a SingHEART-style cohort of unbounded size.

    The cohort stream behind :func:`write_partitioned_cohort`: patients are generated in
    blocks of :data:`BLOCK_ROWS`, each block from its own random streams (one per column),
    so any range of patients is the same whatever else is generated, and memory stays
    bounded by one block. The biomarkers are those of :func:`make_singheart_like`; the
    outcome uses fixed cuts of the risk score (:data:`STREAM_CUTS`), and IDs are
    ``SH0000001``, ``SH0000002``, ... (the row number plus one).

    Parameters
    ----------
    start, stop : int
        Row range, ``0 <= start <= stop``.
    random_state : int
        Seed of the cohort (a non-negative integer).
    missing_rate : float
        Overall share of gaps before the per-group factors.
    columns : list of str, optional
        Biomarkers to keep (default all 467, see :func:`cohort_columns`); ``Subject ID``
        and ``Outcome`` always come first, then the biomarkers in the cohort's order.
        Leaving columns out does not change the others.

    Returns
    -------
    DataFrame with ``stop - start`` rows and a RangeIndex from ``start``.
    """
    start, stop, seed = _check_range(start, stop, random_state)
    wanted = _check_columns(columns)
    parts = list(_slices(start, stop, seed, missing_rate, wanted, {}))
    if not parts:
        return _block(0, seed, missing_rate, wanted, 0)
    out = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    return out.set_axis(pd.RangeIndex(start, stop), axis=0)


def _check_range(start, stop, random_state) -> tuple[int, int, int]:
    if not 0 <= int(start) <= int(stop):
        raise ValueError(f"need 0 <= start <= stop, got {start}, {stop}")
    if int(random_state) < 0:
        raise ValueError(f"random_state must be a non-negative integer, got {random_state}")
    return int(start), int(stop), int(random_state)


def write_partitioned_cohort(out_dir, n_patients: int, rows_per_partition: int = 100_000,
                             *, fmt: str = "parquet", random_state: int = 0,
                             missing_rate: float = 0.22, columns=None) -> list[Path]:
    """Write a SingHEART-style cohort of any size as partitioned Parquet or CSV files.

    Partition ``i`` holds patients ``i * rows_per_partition`` onwards of
    :func:`make_cohort_rows` (so one seed gives the same patients whatever the partition
    size and format) in ``part-00000.parquet`` (or ``.csv``), ... . Files are written one
    generation block at a time (a Parquet row group, or CSV lines appended): memory holds
    one block of :data:`BLOCK_ROWS` patients, whatever ``n_patients`` and the partition
    size.

    Parameters
    ----------
    out_dir : str or Path
        Folder for the files; created when missing, refused when it already holds files.
    n_patients : int
    rows_per_partition : int
    fmt : {"parquet", "csv"}
    random_state, missing_rate, columns
        As :func:`make_cohort_rows`.

    Returns
    -------
    list of Path
        The files written, in order.
    """
    if fmt not in ("parquet", "csv"):
        raise ValueError(f"fmt must be 'parquet' or 'csv', got {fmt!r}")
    if int(n_patients) < 1 or int(rows_per_partition) < 1:
        raise ValueError("n_patients and rows_per_partition must be >= 1")
    _, n, seed = _check_range(0, n_patients, random_state)
    size = int(rows_per_partition)
    wanted = _check_columns(columns)
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty; write the cohort to a new folder")
    out.mkdir(parents=True, exist_ok=True)
    cache: dict = {}
    schema = None
    paths = []
    for i, start in enumerate(range(0, n, size)):
        path = out / f"part-{i:05d}.{fmt}"
        pieces = _slices(start, min(start + size, n), seed, missing_rate, wanted, cache)
        if fmt == "csv":
            for j, piece in enumerate(pieces):
                piece.to_csv(path, mode="w" if j == 0 else "a", header=j == 0, index=False)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            writer = None
            try:
                for piece in pieces:
                    table = pa.Table.from_pandas(piece, schema=schema, preserve_index=False)
                    schema = table.schema
                    if writer is None:
                        writer = pq.ParquetWriter(path, schema)
                    writer.write_table(table)
            finally:
                if writer is not None:
                    writer.close()
        paths.append(path)
    return paths
