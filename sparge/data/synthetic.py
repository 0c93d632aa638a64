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
    ("Aortic distensibility (10-3/mmHg)", 4.0, 1.4, 2, 0.5, False, {"vascular_age": -0.8}),
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


def _cat_values(column: str, score: np.ndarray, rng) -> np.ndarray:
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
        base = rng.dirichlet(np.ones(k) * 3)
        p = base[None, :] * np.exp(np.outer(score, np.linspace(-0.5, 0.5, k)))
    p = p / p.sum(axis=1, keepdims=True)
    c = (p.cumsum(axis=1) > rng.random(score.size)[:, None]).argmax(axis=1)
    vals = np.asarray(levels, dtype=object)[c]
    # Real exports vary in case and spacing; the encoder must not care.
    odd = rng.random(score.size) < 0.05
    vals[odd] = [
        f" {str(v).upper()} " if i % 2 else str(v).lower() for i, v in enumerate(vals[odd])
    ]
    return vals


def _numeric(spec, F, rng, noise=0.5) -> np.ndarray:
    name, mean, sd, dec, floor, lognormal, load = spec
    z = _score(F, load, rng, noise) / np.sqrt(sum(w * w for w in load.values()) + noise**2)
    v = np.exp(mean + sd * z) if lognormal else mean + sd * z
    if lognormal and floor == 0:
        v = np.where(z < -0.3, 0.0, v - np.exp(mean + sd * -0.3))  # many zero CAC scores
    v = np.maximum(v, floor)
    return np.round(v, int(dec))


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
        for p in periods:
            for mname, mean, sd, load in metrics:
                specs.append((f"APB {mname} ({p})", mean, sd, 1, 0, False, load))
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
        extra = [
            "Sodium (mmol/L)",
            "Potassium (mmol/L)",
            "Chloride (mmol/L)",
            "Urea (mmol/L)",
            "Albumin (g/L)",
            "Total protein (g/L)",
            "Bilirubin (umol/L)",
            "ALP (U/L)",
            "GGT (U/L)",
            "White cell count (10^9/L)",
            "Platelets (10^9/L)",
            "Haematocrit (%)",
            "MCV (fL)",
            "Ferritin (ug/L)",
            "TSH (mIU/L)",
            "Free T4 (pmol/L)",
            "Vitamin D (nmol/L)",
            "Calcium (mmol/L)",
            "Phosphate (mmol/L)",
            "Magnesium (mmol/L)",
            "Lipoprotein(a) (nmol/L)",
            "ApoB (g/L)",
            "Insulin (mU/L)",
            "Cortisol (nmol/L)",
        ]
        for j, n in enumerate(extra):
            load = {FACTORS[j % 5]: 0.3 + 0.1 * (j % 3)} if j % 2 == 0 else {}
            specs.append((n, 10 + 5 * (j % 7), 2 + (j % 4), 2, 0, False, load))
    elif group == "MRI Features":
        parts = [
            "RV end-diastolic volume (mL)",
            "RV end-systolic volume (mL)",
            "RV ejection fraction (%)",
            "LV wall thickness septal (mm)",
            "LV wall thickness lateral (mm)",
            "Global longitudinal strain (%)",
            "Global circumferential strain (%)",
            "Global radial strain (%)",
            "Native T1 (ms)",
            "ECV (%)",
            "Aortic root diameter (mm)",
            "Ascending aorta diameter (mm)",
            "Descending aorta diameter (mm)",
            "Pulse wave velocity (m/s)",
            "RA volume (mL)",
            "LV stroke volume (mL)",
            "Cardiac output (L/min)",
            "Cardiac index (L/min/m2)",
            "LV mass index (g/m2)",
            "LVEDV index (mL/m2)",
            "LA ejection fraction (%)",
            "E/A ratio",
            "Peak filling rate (mL/s)",
        ]
        for j, n in enumerate(parts):
            load = {"cardiac_structure": 0.6} if j % 3 else {"vascular_age": 0.5}
            specs.append((n, 20 + 7 * (j % 9), 3 + (j % 5), 1, 0, False, load))
    elif group == "Proforma":
        i = 0
        while len(specs) < count:
            load = {FACTORS[i % 5]: 0.4} if i % 3 else {}
            specs.append((f"Clinical exam item {i + 1:02d}", 50, 10, 1, 0, False, load))
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
    rng = np.random.default_rng(random_state)
    n = n_patients
    F = rng.standard_normal((n, len(FACTORS)))
    F[:, 1] += 0.4 * F[:, 0]  # metabolic and vascular age correlate
    risk = 0.9 * F[:, 1] + 0.7 * F[:, 0] + 0.5 * F[:, 2] + 0.4 * F[:, 3] - 0.3 * F[:, 4]
    risk += 0.5 * rng.standard_normal(n)
    cuts = np.quantile(risk, [0.5, 0.82])
    outcome = np.where(risk < cuts[0], "low", np.where(risk < cuts[1], "medium", "high"))
    columns: dict[str, np.ndarray] = {}
    groups: dict[str, list[str]] = {}
    fixed = {
        "Calcium Score": _CALCIUM,
        "Lab Tests": _LABS,
        "MRI Features": _MRI,
        "Proforma": _PROFORMA,
        "Lifestyle Questionnaire": _LIFESTYLE,
        "APB Biofourmis": [],
        "General Questionnaire": [],
    }
    for group, size in GROUP_SIZES.items():
        cats = _categorical_columns(group)
        n_fixed = len(fixed[group]) + len(cats)
        specs = list(fixed[group]) + _generic_specs(group, size - n_fixed, rng)
        names: list[str] = []
        for col, load in cats:
            columns[col] = _cat_values(col, _score(F, load, rng, 0.6), rng)
            names.append(col)
        for spec in specs:
            columns[spec[0]] = _numeric(spec, F, rng)
            names.append(spec[0])
        assert len(names) == size, (group, len(names), size)
        groups[group] = names
    df = pd.DataFrame(columns)
    # Missingness: random cells, more in some groups, and patients missing most of a group.
    group_rate = {
        "Calcium Score": 0.6,
        "APB Biofourmis": 0.5,
        "Lab Tests": 0.4,
        "MRI Features": 0.8,
        "Proforma": 0.2,
        "General Questionnaire": 0.6,
        "Lifestyle Questionnaire": 0.7,
    }
    values = {c: df[c].to_numpy(dtype=object) for c in df.columns}
    for group, cols in groups.items():
        block = rng.random(n) < missing_rate * group_rate[group] * 0.9
        for c in cols:
            cell = rng.random(n) < missing_rate * group_rate[group] * 0.45
            gone = cell | (block & (rng.random(n) < 0.85))
            v = values[c]
            v[gone] = np.nan
    df = pd.DataFrame(values)
    for c in df.columns:
        if c not in PAPER_TABLE:
            df[c] = pd.to_numeric(df[c])
    ids = [f"SH{i + 1:04d}" for i in range(n)]
    head = pd.DataFrame({"Subject ID": ids, "Outcome": outcome})
    return pd.concat([head, df], axis=1), groups
