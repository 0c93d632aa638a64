"""Weight, height and BMI: one body size written two ways.

Walk-through 78's joint registry wrote each patient's body size either as a BMI or as a
weight and a height, never both. Nothing joined the columns: a patient with a BMI had two
gaps (weight, height), one with a weight and a height one (BMI), and the SparGE paper's
10 % threshold on missing values kept 93 of 450 patients, chosen by how their size was
written. A BMI is weight / height²: where one of the three is missing and the other two
are given it is computed, and where only the BMI is written the weight and height gaps
are not counted against the patient's share of missing values (the BMI gives the size).

The three columns are recognised by name (:func:`find_body_size`) and accepted only when
the table's own values agree with weight / height²: on the patients who have all three,
or, when none does, on the medians of the BMIs written and those computed. A maternal
BMI beside a baby's birth weight, or a BMI at another time point, is not joined.

The functions are pure and take arrays; :class:`~sparge.data.encoder.Encoder` keeps the
rule found at fit (``body_size_``) and applies it to new patients too.
"""

from __future__ import annotations

import re

import numpy as np

from sparge.data.parsing import unit_key
from sparge.data.plausible import name_words
from sparge.data.unit_conversion import size_in_base

#: A BMI column's name ("BMI", "BMI (kg/m2)", "Body mass index"), not its centile,
#: z-score, change or a BMI for age.
BMI_NAME = re.compile(r"\b(?:bmi|body mass index|quetelet(?: index)?)\b")
#: A body weight's column name ("Weight", "Weight (kg)", "Wt", "Body weight").
WEIGHT_NAME = re.compile(r"\b(?:weight|wt|body mass(?! index))\b")
#: A height's column name ("Height", "Ht (cm)", "Stature").
HEIGHT_NAME = re.compile(r"\b(?:height|ht|stature)\b")
#: Words of another quantity than the patient's own current size: a change, a centile or
#: z-score, a target, a baby's or a parent's, a part of the body, a dose by weight.
_NOT_SIZE = re.compile(
    r"\b(?:centile|percentile|pctl|z|zscore|sds|sd|change|delta|diff|difference|gain|"
    r"loss|lost|velocity|ideal|target|predicted|pred|lean|dry|goal|birth|bw|baby|"
    r"infant|neonatal|fetal|foetal|placenta|placental|mother|maternal|father|paternal|"
    r"mid|parental|sitting|knee|fundal|fundus|bearing|molecular|dose|per|organ|tumour|"
    r"tumor|liver|kidney|graft|donor|heart|lesion|for|age|ratio|percent|pct|"
    r"post|postop|discharge|follow|fu|later|after|month|months|year|years|week|"
    r"weeks|\d+ ?(?:m|mo|mth|mths|y|yr|yrs|w|wk|wks|d))\b")
#: The lightest weight (kg) of an adult (18 or over): walk-through 93's adult of 8.45 kg
#: (a lost digit: 84.5) was used as given, its column's children not in question.
ADULT_MIN_KG = 20.0


def adult_weight_slips(name: str, weights, ages, unit: str | None) -> np.ndarray:
    """Where a patient of 18 or over weighs under :data:`ADULT_MIN_KG` in a column of
    adults' body weights in kg (its name a current weight's, its unit kg or none and its
    median 30–200): no adult can, whatever the rest of the column.

    Examples
    --------
    >>> adult_weight_slips("Weight", [80, 8.45, 12, 70], [50, 44, 3, 60], "kg").tolist()
    [False, True, False, False]
    """
    w = np.asarray(weights, dtype=float).ravel()
    a = np.asarray(ages, dtype=float).ravel()
    words = name_words(name)
    if not WEIGHT_NAME.search(words) or _NOT_SIZE.search(words) or \
            unit_key(unit or "kg") != "kg" or not np.isfinite(w).any():
        return np.zeros(len(w), bool)
    if not 30 <= float(np.nanmedian(w)) <= 200:
        return np.zeros(len(w), bool)
    return np.isfinite(w) & np.isfinite(a) & (a >= 18) & (w < ADULT_MIN_KG)


#: The units tried for a column whose name and cells give none.
_WEIGHT_GUESSES = ("kg", "lb")
_HEIGHT_GUESSES = ("cm", "m", "in")
#: Values a computed BMI, weight (kg) or height (m) must lie within to be written; a
#: value outside comes from a typo in one of the other two and stays a gap.
BMI_RANGE = (10.0, 100.0)
KG_RANGE = (2.0, 400.0)
M_RANGE = (0.4, 2.5)
#: Patients needed to judge the rule: with all three values, or else with a BMI and
#: with a weight and a height each.
MIN_AGREEING = 5
#: On the patients with all three: the largest median relative difference between the
#: BMI written and weight / height², and the share that must lie within twice that.
AGREEMENT = 0.05
AGREEING_SHARE = 0.8
#: Without such patients, the medians of the BMIs written and computed must lie within
#: this factor of each other (a cohort's two ways of writing are two samples of it).
MEDIAN_FACTOR = 1.2


def _size_column(features: list[str], pattern: re.Pattern) -> str | None:
    """The one feature named by ``pattern`` and not by :data:`_NOT_SIZE` (``None`` for
    none or several: two weights leave the rule unknown)."""
    found = [f for f in features if pattern.search(w := name_words(f))
             and not _NOT_SIZE.search(re.sub(pattern, " ", w))]
    return found[0] if len(found) == 1 else None


def _bmi(kg: np.ndarray, m: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return kg / (m * m)


def _agrees(bmi: np.ndarray, kg: np.ndarray, m: np.ndarray) -> float | None:
    """How far the BMIs written lie from weight / height² (the median relative
    difference; the medians' log-ratio without patients who have all three), or ``None``
    when the values do not agree or are too few to tell."""
    computed = _bmi(kg, m)
    both = np.isfinite(bmi) & np.isfinite(computed) & (bmi > 0)
    if both.sum() >= MIN_AGREEING:
        rel = np.abs(computed[both] - bmi[both]) / bmi[both]
        med = float(np.median(rel))
        if med <= AGREEMENT and float((rel <= 2 * AGREEMENT).mean()) >= AGREEING_SHARE:
            return med
        return None
    written = bmi[np.isfinite(bmi) & (bmi > 0)]
    made = computed[np.isfinite(computed) & (computed > 0)]
    if len(written) < MIN_AGREEING or len(made) < MIN_AGREEING:
        return None
    ratio = abs(float(np.log(np.median(made) / np.median(written))))
    return ratio if ratio <= np.log(MEDIAN_FACTOR) else None


def find_body_size(features: list[str], X: np.ndarray, unit_of) -> dict | None:
    """The table's BMI, weight and height columns and their units, when its values agree
    with BMI = weight / height², else ``None``.

    Parameters
    ----------
    features : list of str
        The names of ``X``'s columns (numeric features only are looked at by the caller's
        choice: pass those).
    X : ndarray of shape (n_patients, n_features)
        The encoded values, ``NaN`` = missing.
    unit_of : callable
        ``unit_of(column)`` -> the column's unit as written, or ``None``.

    Returns
    -------
    dict or None
        ``{"bmi": column, "weight": column, "height": column, "kg": kilograms per unit of
        the weight column, "m": metres per unit of the height column}``.
    """
    names = {key: _size_column(features, pattern) for key, pattern in
             (("bmi", BMI_NAME), ("weight", WEIGHT_NAME), ("height", HEIGHT_NAME))}
    if None in names.values() or len(set(names.values())) < 3:
        return None
    pos = {f: j for j, f in enumerate(features)}
    bmi_unit = unit_of(names["bmi"])
    if bmi_unit is not None and unit_key(bmi_unit) != "kg/m2":
        return None

    def sizes(column: str, dimension: str, guesses: tuple[str, ...]) -> list[float]:
        """The size of the column's unit in kg or m; of each guess without a unit."""
        unit = unit_of(column)
        keys = guesses if unit is None else (unit_key(unit),)
        return [f for k in keys if (f := size_in_base(k, dimension)) is not None]

    bmi = X[:, pos[names["bmi"]]]
    best = None
    for kg in sizes(names["weight"], "weight", _WEIGHT_GUESSES):
        for m in sizes(names["height"], "length", _HEIGHT_GUESSES):
            how = _agrees(bmi, X[:, pos[names["weight"]]] * kg, X[:, pos[names["height"]]] * m)
            if how is not None and (best is None or how < best[0]):
                best = (how, kg, m)
    if best is None:
        return None
    return {**names, "kg": float(best[1]), "m": float(best[2])}


def derive_body_size(X: np.ndarray, features: list[str], rule: dict | None
                     ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``X`` with the one of BMI, weight and height that is missing computed from the two
    given (BMI = weight / height²), where it lies in :data:`BMI_RANGE`,
    :data:`KG_RANGE` or :data:`M_RANGE`.

    Returns
    -------
    X : ndarray
        A copy with the computed values (``X`` itself when nothing is computed).
    computed : dict
        ``{column: boolean mask of the rows computed}`` for each column with any.
    """
    if not rule or not all(rule.get(k) in features for k in ("bmi", "weight", "height")):
        return X, {}
    pos = {f: features.index(rule[f]) for f in ("bmi", "weight", "height")}
    bmi, w, h = (X[:, pos[k]] for k in ("bmi", "weight", "height"))
    kg, m = w * rule["kg"], h * rule["m"]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        made = {"bmi": _bmi(kg, m), "weight": bmi * m * m / rule["kg"],
                "height": np.sqrt(kg / bmi) / rule["m"]}
    limits = {"bmi": BMI_RANGE,
              "weight": (KG_RANGE[0] / rule["kg"], KG_RANGE[1] / rule["kg"]),
              "height": (M_RANGE[0] / rule["m"], M_RANGE[1] / rule["m"])}
    given = {"bmi": np.isfinite(bmi), "weight": np.isfinite(w), "height": np.isfinite(h)}
    out, computed = X, {}
    for key in ("bmi", "weight", "height"):
        others = [given[k] for k in given if k != key]
        low, high = limits[key]
        rows = ~given[key] & others[0] & others[1] & (made[key] >= low) & (made[key] <= high)
        if rows.any():
            if out is X:
                out = X.copy()
            out[rows, pos[key]] = made[key][rows]
            computed[rule[key]] = rows
    return out, computed


def size_given_mask(X: np.ndarray, features: list[str], rule: dict | None) -> np.ndarray:
    """Where a weight or height gap is the patient's body size given as a BMI: ``True``
    at a missing weight or height of a patient whose BMI is written (``X`` after
    :func:`derive_body_size`: the other of the two is missing too)."""
    mask = np.zeros(X.shape, bool)
    if not rule or not all(rule.get(k) in features for k in ("bmi", "weight", "height")):
        return mask
    has_bmi = np.isfinite(X[:, features.index(rule["bmi"])])
    for key in ("weight", "height"):
        j = features.index(rule[key])
        mask[:, j] = np.isnan(X[:, j]) & has_bmi
    return mask
