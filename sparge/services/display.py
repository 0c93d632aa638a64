"""Values as a clinician reads them: each column in its own units, categories as words.

Pure functions (no Streamlit): the Explore and New patient pages render what they return.
A model works in standardised units and integer codes; everything shown to a user goes
through here, with the standard deviations from the cohort mean only as a secondary cue.

``encoder`` is a fitted :class:`sparge.Encoder` (its ``roles_`` and encoding table
``table_`` decode categories) or ``None``, in which case every value is shown as a number.
"""

from __future__ import annotations

import contextlib
import html
import math
import re
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from sparge.data.column_guess import id_named_column
from sparge.data.dipsticks import SUFFIX as DIPSTICK_SUFFIX
from sparge.data.dipsticks import grade_of
from sparge.data.far_values import typical_bounds
from sparge.data.levels import shown_answer
from sparge.data.number_format import (
    MISSING,
    THOUSANDS,
    as_float,
    data_decimals,
    format_number,
    round_computed,
    typical_decimals,
)
from sparge.data.parsing import cell_text, limit_text, parse_numeric
from sparge.data.safe_text import plain_text
from sparge.data.tables import YES_KEYS, norm_key, scale_codes, scale_of
from sparge.errors import DataError

#: Help text of the look-alike table's sparse-weight column (issue 9, point 4).
#: The weights rebuild the patient in the learned space alone: the forest part, which
#: helps rank the list, has no point to rebuild, so a walk-through saw ranks 1-5 at 0.000
#: and rank 9 at 0.556 and read the help as a contradiction (walk-through 27).
SPARSE_WEIGHT_HELP = (
    "share of this look-alike in a sparse, non-negative reconstruction of the patient from "
    "the listed look-alikes in the learned SparGE space (weights sum to 1); 0 = not needed: "
    "the other look-alikes together already rebuild the patient there, even when this one "
    "is the closest. The list's order also counts the random-forest proximity, which the "
    "weights do not, so a top-ranked look-alike can have weight 0")
#: The same without a forest part (an unsupervised model): walk-through 43 read of a
#: random forest the Model page said this model did not have.
_SPARSE_WEIGHT_PLAIN = SPARSE_WEIGHT_HELP.split(". The list's order")[0]


def has_forest_part(model) -> bool:
    """Whether ``model``'s look-alike metric counts a random-forest proximity."""
    return float(getattr(model, "forest_scale_", 0.0) or 0.0) > 0


def sparse_weight_help(model) -> str:
    """The sparse weight's help for ``model``'s look-alikes: the random-forest proximity
    named only when its look-alike metric has a forest part."""
    return SPARSE_WEIGHT_HELP if has_forest_part(model) else _SPARSE_WEIGHT_PLAIN

#: Plain headers of the look-alike table (internal column -> header).
LOOKALIKE_HEADERS = {"rank": "Rank", "ID": "Patient ID", "distance": "Distance",
                     "similarity": "Similarity", "sparse_weight": "Sparse weight",
                     "outcome": "Outcome"}


#: A patient's context, shown beside every look-alike: its age, its sex and its diagnosis,
#: by the column's name (walk-through 89: a 46-year-old male smoker's first look-alike was
#: a 37-year-old woman, and the table gave neither).
_CONTEXT = (re.compile(r"^(?:patient )?age(?: \(?(?:y|yr|yrs|years?)\)?| at (?:visit|referral|"
                       r"admission|presentation|clinic|diagnosis|entry|baseline))?$",
                       re.IGNORECASE),
            re.compile(r"^(?:sex|gender)(?: \(?[mf/]{1,3}\)?)?$", re.IGNORECASE),
            re.compile(r"^(?:(?:primary|main|working|principal|thyroid|clinical) )?"
                       r"(?:diagnosis|dx)$", re.IGNORECASE))


def context_features(names: Sequence[str]) -> list[str]:
    """The features that give a patient's context, at most one each: its age, its sex,
    its diagnosis (:data:`_CONTEXT`), in that order.

    Examples
    --------
    >>> context_features(["TSH", "Sex", "Age", "Diagnosis", "Age at onset"])
    ['Age', 'Sex', 'Diagnosis']
    """
    out = []
    for pattern in _CONTEXT:
        hit = next((str(n) for n in names if pattern.fullmatch(str(n).strip())), None)
        if hit is not None:
            out.append(hit)
    return out


#: A column of who the patient is, beside the age and sex: ethnicity, race, ancestry.
_WHO = re.compile(r"ethnic|\brace\b|ancestry|country of birth", re.IGNORECASE)


def form_groups(features: Sequence[str], encoder=None) -> dict[str, list[str]]:
    """A cohort's features in the groups of the New patient form: who the patient is (age,
    sex, ethnicity), the answers (history, treatment, scales), the measurements. Walk-
    through 91's form held Sex and Ethnicity among 29 "Biomarkers". One group
    ("Biomarkers") without an encoder to tell answers from numbers, or when only one group
    would have any."""
    features = [str(f) for f in features]
    roles = getattr(encoder, "roles_", None)
    if not roles:
        return {"Biomarkers": features}
    who = set(context_features(features)) | {f for f in features if _WHO.search(f)}
    who -= {f for f in features if _CONTEXT[2].fullmatch(f.strip())}  # a diagnosis: an answer
    groups = {"The patient": [f for f in features if f in who],
              "History, treatment and scales": [f for f in features if f not in who
                                                and roles.get(f) == "categorical"],
              "Measurements": [f for f in features if f not in who
                               and roles.get(f) != "categorical"]}
    groups = {g: cols for g, cols in groups.items() if cols}
    return groups if len(groups) > 1 else {"Biomarkers": features}


# ---------------------------------------------------------------------------- categories
def category_words(encoder, column: str) -> dict[float, str] | None:
    """``{code: word}`` of a categorical column's codes (whole numbers as ``int``; a
    scale's halfway class, NYHA "II-III" 2.5, as it is), or ``None`` for a numeric column
    (the words of :func:`answers_by_code`)."""
    answers = answers_by_code(encoder, column)
    if answers is None:
        return None
    return {int(c) if float(c).is_integer() else float(c): w for c, w in answers.items()}


def answers_by_code(encoder, column: str) -> dict[float, str] | None:
    """``{code: answer}`` of a categorical column in code order, one answer per code, or
    ``None`` for a numeric column.

    When several spellings share a code, the longest is shown (the first written of
    equally long ones): "No", not "N" (walk-through 18 quoted a patient's "No" as "N";
    walk-through 19's form offered Y, Yes, No, N), "Female" once "f" is merged into it; a
    word starts with a capital ("no" beside "Yes" on one page, "mod NPDR").
    """
    if encoder is None or getattr(encoder, "roles_", {}).get(column) != "categorical":
        return None
    table = getattr(encoder, "table_", None)
    if table is None or not table.has(column):
        return None
    spellings_of: dict[float, list[str]] = {}
    for level, code in table.levels(column).items():
        spellings_of.setdefault(float(code), []).append(str(level))
    return {c: shown_answer(words, column) for c, words in sorted(spellings_of.items())}


def answer_labels(encoder, column: str, most: int = 12) -> dict[str, str]:
    """``{answer: label}`` of a categorical column's answers (:func:`answers_by_code`),
    each labelled with the other spellings merged into it: "Donepezil (also Aricept,
    donepezil 10mg od)". A form's list is searched by what it shows, and walk-through
    63's clinician typed "Aricept" and found nothing; walk-through 65's "simva" found
    nothing among "+ 2 more". At most ``most`` spellings are named (then "+ N more");
    those that differ only in case, spaces or punctuation are not."""
    shown = answers_by_code(encoder, column) or {}
    spellings: dict[float, list[str]] = {}
    for level, code in encoder.table_.levels(column).items():
        spellings.setdefault(float(code), []).append(str(level))
    out = {}
    for code, answer in shown.items():
        seen = {re.sub(r"[\W_]+", "", answer.lower())}
        others = []
        for word in spellings.get(code, []):
            key = re.sub(r"[\W_]+", "", word.lower())
            if key and key not in seen:
                seen.add(key)
                others.append(word)
        label = answer
        if others:
            more = f", + {len(others) - most} more" if len(others) > most else ""
            label = f"{answer} (also {', '.join(plain_text(o, 30) for o in others[:most])}" \
                    f"{more})"
        out[answer] = label
    return out


def level_order(column: str, encoder=None) -> list[str] | None:
    """A categorical column's words in code order (a scale's clinical order), then
    ``"missing"``; ``None`` for a numeric column."""
    words = category_words(encoder, column)
    if not words:
        return None
    return [words[c] for c in sorted(words)] + ["missing"]


def outcome_name(encoder) -> str:
    """The outcome as the table names it ("Died before discharge"), plain text; "Outcome"
    without an encoder or an outcome column (a legend that said only "Outcome: Yes" left a
    clinician guessing what "Yes" meant)."""
    name = getattr(encoder, "label_column", None) if encoder is not None else None
    return plain_text(name, 60) if name else "Outcome"


def outcome_order(model) -> list[str] | None:
    """The model's outcome classes in the order the map and the bars show them: a
    recognised scale's order ("low", "medium", "high"; the legend read "high, low,
    medium"), else the model's own (alphabetical) order."""
    classes = getattr(model, "classes_", None)
    if classes is None:
        y = getattr(model, "y_", None)
        if y is None:
            return None
        classes = sorted({str(v) for v in y})
    return ordered_outcomes(classes)


def ordered_outcomes(classes) -> list[str]:
    """Outcome names in a recognised scale's order ("low", "medium", "high"), else as
    given (the confusion matrices read "high, low, medium" before)."""
    names = [str(c) for c in classes]
    keys = [norm_key(c) for c in names]
    scale = scale_of(set(keys)) if len(set(keys)) == len(keys) > 1 else None
    if scale is None:
        return names
    codes = scale_codes(names, scale)
    return sorted(names, key=lambda c: codes.get(c, len(codes)))


def is_scale(answers) -> bool:
    """Whether ``answers`` (three or more) are the steps of a recognised scale other than
    yes/no ("low", "medium", "high"; NYHA I to IV): drawn in a sequential colour scale."""
    keys = {norm_key(a) for a in answers if str(a) != "missing"}
    scale = scale_of(keys) if len(keys) >= 3 else None
    return scale is not None and scale != "yes/no"


def outcome_is_scale(model) -> bool:
    """Whether the model's outcome classes are a scale's steps (:func:`is_scale`)."""
    return is_scale(outcome_order(model) or [])


def column_is_scale(column: str, encoder=None) -> bool:
    """Whether a categorical column's answers are a scale's steps in code order: a
    recognised scale (:func:`is_scale`), or an ordered column of three or more codes
    whose answers are not yes/no (CKD stages "1" to "5" coded in their order)."""
    words = category_words(encoder, column)
    if not words or len(words) < 3:
        return False
    if is_scale(words.values()):
        return True
    table = encoder.table_
    keys = {norm_key(w) for w in words.values()}
    return bool(table.is_ordered(column)) and scale_of(keys) is None and \
        not keys & set(YES_KEYS)


def flag_columns(values: pd.DataFrame) -> frozenset[str]:
    """Numeric columns whose every value is 0 or 1 (flags such as a history of trauma):
    shown as counts and same/different, like yes/no, not in standard deviations."""
    X = values.to_numpy(dtype=float)
    seen = np.isfinite(X)
    is_flag = np.all(~seen | (X == 0) | (X == 1), axis=0) & seen.any(axis=0)
    return frozenset(str(c) for c, f in zip(values.columns, is_flag, strict=True) if f)


def has_sd_scale(column: str, encoder=None, flags: frozenset[str] = frozenset()) -> bool:
    """True when a difference in standard deviations means something to a reader: a
    number, or a categorical scale with more than two ordered levels. A yes/no or other
    two-word column, a 0/1 flag (``flags``, see :func:`flag_columns`) or unordered labels
    get counts and same/different instead."""
    if str(column) in flags:
        return False
    words = category_words(encoder, column)
    if not words:
        return True
    if scale_of(words.values()) == "yes/no":  # Yes / No (/ Unknown): counts, not SD
        return False
    table = getattr(encoder, "table_", None)
    is_ordered = getattr(table, "is_ordered", None)
    return bool(is_ordered is not None and is_ordered(column) and len(words) > 2)


def typical_range(values) -> str:
    """Where most patients lie, for an empty form field: "most 132–144" (the 5th to 95th
    percentile of the measured values, far values left out, at the column's precision);
    "" for a column without values. A walk-through filled a form without a hint of a
    column's scale or units (the field's label names a unit its column's name does not
    give: :func:`biomarker_name`)."""
    bounds = typical_bounds(values)
    if bounds is None:
        return ""
    lo, hi = bounds
    if lo == hi:
        return f"most {format_number(lo)}"
    return f"most {format_number(lo)}–{format_number(hi)}"


def biomarker_name(column: str, encoder=None) -> str:
    """A column's name as a comparison table shows it, followed by the unit its values are
    in when the name does not say it ("Serum creatinine (mg/dL)": written in mg/dL and
    µmol/L, read in mg/dL; :meth:`~sparge.data.encoder.Encoder.cell_unit`)."""
    unit = encoder.cell_unit(column) if hasattr(encoder, "cell_unit") else None
    return plain_text(column, 80) + (f" ({plain_text(unit, 20)})" if unit else "")


def format_value(value: object, column: str, encoder=None, words=None) -> str:
    """One value of ``column`` as shown to a user: a category's word or a number.
    ``words``: the column's :func:`category_words`, when the caller has them (a column's
    cells formatted one by one asked them per cell: walk-through 97's 449-patient preview
    spent 6 s naming the same answers)."""
    v = as_float(value)
    if not math.isfinite(v):
        return MISSING
    if words is None:
        words = category_words(encoder, column)
    if words:
        code = round(v)
        if abs(v - code) < 1e-3 and code in words:
            return plain_text(words[code], 60)
        # a code between whole numbers: NYHA "II-III" 2.5, a Child-Pugh class alone 5.5
        half = next((c for c in words if isinstance(c, float) and abs(v - c) < 1e-3),
                    None)
        if half is not None:
            return plain_text(words[half], 60)
        return format_number(v)  # a completed or averaged code: no word fits exactly
    return format_number(v)


def decode_column(values, column: str, encoder=None) -> pd.Series:
    """A column for colouring or hover: words for categories (``"missing"`` for gaps),
    floats otherwise."""
    s = pd.Series(np.asarray(values, dtype=float))
    words = category_words(encoder, column)
    if not words:
        return s
    return s.map(lambda v: format_value(v, column, encoder, words) if np.isfinite(v)
                 else "missing")


def display_frame(values: pd.DataFrame, encoder=None) -> pd.DataFrame:
    """Every cell formatted by :func:`format_value` (strings)."""
    out = {}
    for c in values.columns:
        words = category_words(encoder, c) or {}
        out[c] = [format_value(v, c, encoder, words) for v in values[c]]
    return pd.DataFrame(out, index=values.index)


def snap_precision(values: pd.DataFrame, mean, scale, digits: int = 6) -> pd.DataFrame:
    """Values rebuilt from float32 standardised data (``z * scale + mean``) without their
    round-off: each column rounded to ``digits`` significant digits of its own magnitude
    (``-6.06e-07`` in a column whose SD is 100 becomes 0, ``1.9999999924`` becomes 2)."""
    mag = np.maximum(np.abs(np.asarray(mean, dtype=float)), np.asarray(scale, dtype=float))
    with np.errstate(divide="ignore"):
        dec = digits - np.ceil(np.log10(np.where(mag > 0, mag, 1.0))).astype(int)
    # np.round's own arithmetic (times 10^d, rint, divided; or divided by 10^-d, rint,
    # times), for every column at once: a column at a time took 0.1 s of every Explore
    # page's first run on a 469-column cohort
    A = values.to_numpy(dtype=float)
    f = 10.0 ** np.abs(dec).astype(float)
    with np.errstate(over="ignore", invalid="ignore"):
        snapped = np.where(dec >= 0, np.rint(A * f) / f, np.rint(A / f) * f) + 0.0
    return pd.DataFrame(snapped, index=values.index, columns=values.columns)


# ---------------------------------------------------------------------------- SD cues
def format_sd(z: object) -> str:
    """A standardised value as a secondary cue: ``"+1.2 SD"``; missing -> ``"—"``."""
    v = as_float(z)
    if not math.isfinite(v):
        return MISSING
    return "0.0 SD" if abs(v) < 0.05 else f"{v:+.1f} SD"  # never "-0.0 SD"


def standardize(values, column_index: Sequence[int] | np.ndarray, mean, scale,
                log: Mapping[int, float] | None = None) -> np.ndarray:
    """Values of the given feature columns in SD from the cohort mean, as the model
    compares them (its ``mean_``/``scale_``).

    ``log`` maps the columns the model compares by their base-10 logarithm (a viral
    load: :meth:`sparge.SparGE.log_floors`) to their smallest training value, below which
    a value counts as it; ``mean``/``scale`` are then those of the logarithm. A walk-through
    read 50 and 7,673 copies/mL as "agree", 0.08 SD apart on the linear scale, while the
    model keeps them 1.6 SD apart.
    """
    j = np.asarray(column_index, dtype=int)
    m = np.asarray(mean, dtype=float)[j]
    s = np.asarray(scale, dtype=float)[j]
    v = np.array(values, dtype=float, copy=True)
    for t, c in enumerate(j.tolist()):
        if log and c in log:
            with np.errstate(invalid="ignore"):
                v[..., t] = np.log10(np.maximum(v[..., t], log[c]))
    return (v - m) / np.where(s > 0, s, 1.0)


def log_scale_note(features: Sequence[str], names: Sequence[str],
                   log: Mapping[int, float] | None, encoder=None) -> str:
    """A sentence (with a leading space) naming the ``features`` the model compares by
    their logarithm, whose SDs are of the logarithm; "" when there are none."""
    pos = {str(c): j for j, c in enumerate(names)}
    shown = [biomarker_name(f, encoder) for f in features
             if log and pos.get(str(f)) in log]
    if not shown:
        return ""
    which = ", ".join(shown)
    verb = "spans" if len(shown) == 1 else "span"
    return (f" {which} {verb} one or more orders of magnitude, with a long upper tail: "
            f"the model compares {'it' if len(shown) == 1 else 'them'} by the logarithm, "
            "and so do the SDs (5 and 50 are as far apart as 50 and 500).")


# ---------------------------------------------------------------------------- choice
def typical_deviation(standardized) -> np.ndarray:
    """Mean absolute standardised value of every feature among patients (gaps skipped).

    About 0.8 for a bell-shaped biomarker; ``2 sqrt(p (1 - p))`` for a 0/1 flag present in
    a share ``p`` of the patients (0.28 at 2 %), which sits at 0 for most of them.
    """
    Z = np.abs(np.asarray(standardized, dtype=float))
    seen = np.isfinite(Z)
    return np.where(seen.any(axis=0), np.where(seen, Z, 0.0).sum(axis=0)
                    / np.maximum(seen.sum(axis=0), 1), 0.0)


#: Columns a clinician reads a patient's disease by: its severity scores, stages and
#: grades, a cancer's receptors and nodes, by name (walk-through 93's psoriasis clinic
#: compared its patients on eight blood tests, not on their PASI, nor their IGA).
SEVERITY_NAME = re.compile(
    r"\b(?:pasi|dlqi|easi|scorad|s?pga|v?iga|bsa|edss|msss|nihss|mrs|gcs|mmse|moca|"
    r"das ?28|haq(?: ?di)?|basdai|basfi|cdai|sdai|hbi|mayo|sccai|ses ?cd|cat|m ?mrc|mrc|"
    r"epworth|ahi|odi|stop ?bang|cha ?2 ?ds ?2 ?vasc|chads ?2|has ?bled|nyha|child(?: ?-? ?pugh)?|"
    r"meld|ukeld|apache|sofa|news ?2?|qsofa|charlson|cfs|frailty|phq ?9|gad ?7|oxford|"
    r"eq ?5d|ecog|who ps|performance status|karnofsky|kps|rutherford|fontaine|asa|"
    r"gleason|isup|tnm|stage|staging|grade|severity|"
    # a cancer's receptors and involved nodes (walk-through 95: its patients were
    # compared on BMI and laterality, never on stage, ER, HER2 or grade)
    r"her ?2|(?:er|pr) status|(?:o?estrogen|progesterone) receptor|nodes? positive|"
    r"positive nodes|"
    # a Parkinson's disease's stage, motor score and treatment (walk-through 97's patients
    # were compared on their carer and residence)
    r"hoehn|h ?& ?y|m?hy|updrs|ledd|levodopa equivalent|schwab|"
    # an operation's risk and urgency, and the angina class (walk-through 98)
    r"euroscore(?: ?ii)?|sts score|ccs|urgency)\b",
    re.IGNORECASE)


def severity_columns(names: Sequence[str], encoder=None) -> np.ndarray:
    """Which features are a disease's severity scores, stages or grades: named so
    (:data:`SEVERITY_NAME`; "PASI", "IGA", "NYHA class", "Child-Pugh", "Tumour stage"),
    or a categorical column whose answers are a recognised clinical scale's steps
    (Rutherford "R3", ascites "mild" to "tense"; not a frequency nor a risk level).
    A 0/1 column split from an answer list ("Comorbidities: CKD") is none."""
    out = np.zeros(len(names), bool)
    for j, name in enumerate(names):
        text = re.sub(r"[_\s]+", " ", str(name))[:120]
        if ": " in text and encoder is not None and str(name) not in \
                getattr(encoder, "roles_", {}):
            continue  # a yes/no answer split from a list column
        out[j] = bool(SEVERITY_NAME.search(text))
        if not out[j] and encoder is not None and getattr(encoder, "roles_", {}).get(
                str(name)) == "categorical":
            words = category_words(encoder, str(name)) or {}
            scale = scale_of({norm_key(w) for w in words.values()}, str(name)) \
                if len(words) >= 3 else None
            out[j] = scale is not None and scale not in _NOT_SEVERITY
    return out


#: Recognised scales that say how often or how likely, not how ill: a Home Smoke
#: exposure "Never" to "Always" is no severity.
_NOT_SEVERITY = frozenset({"yes/no", "frequency", "low/medium/high",
                           "low/medium/high (banded)", "normal/abnormal", "certainty"})


#: Of the biomarkers compared by default, at most this many are placed first for being a
#: severity score (:func:`severity_columns`), the rest by the learned metric.
SEVERITY_FIRST = 3


def top_biomarkers(importance, names: Sequence[str], n: int = 8,
                   measured=None, typical=None, unusual=None,
                   severity=None) -> list[str]:
    """The ``n`` features with the largest weight in the learned metric (ties: table order).

    With ``typical`` (:func:`typical_deviation` of the training patients) features are
    ranked by weight times typical deviation: what typically separates two patients in the
    learned space, so a rare 0/1 flag (heavy per standard deviation, but 0 for nearly every
    patient) no longer leads the comparison. With ``unusual`` (the patient's distance from
    the cohort's mean in standard deviations, NaN where that means nothing) a feature
    counts by the larger of the two: what sets *this* patient apart comes first
    (walk-through 21's patient with an eGFR of 13 was compared on eight yes/no answers,
    six of which differed from its nearest look-alike, and never on its kidneys). With
    ``measured`` (the patient's values, ``NaN`` = not measured) the patient's measured
    features come first, by that rank, then the others: a new patient with four values
    sees those four compared, not eight biomarkers it has no value for. With
    ``severity`` (:func:`severity_columns`) the patient's measured severity scores,
    stages and grades, by that rank, take up to :data:`SEVERITY_FIRST` of the first
    places.
    """
    w = np.asarray(importance, dtype=float)
    if typical is not None:
        spread = np.asarray(typical, dtype=float)
        if unusual is not None:
            spread = np.fmax(spread, np.abs(np.asarray(unusual, dtype=float).ravel()))
        w = w * spread
    w = np.nan_to_num(w, nan=-1.0)
    order = np.argsort(-w, kind="stable")
    if measured is not None:
        has = np.isfinite(np.asarray(measured, dtype=float).ravel())
        order = np.concatenate([order[has[order]], order[~has[order]]])
    if severity is not None:
        sev = np.asarray(severity, dtype=bool)
        if measured is not None:
            sev = sev & np.isfinite(np.asarray(measured, dtype=float).ravel())
        first = order[sev[order]][:min(SEVERITY_FIRST, n)]
        order = np.concatenate([first, order[~np.isin(order, first)]])
    return [str(names[j]) for j in order[:n]]


def carried_choice(previous_default: Sequence[str], previous_chosen: Sequence[str],
                   new_default: Sequence[str], names: Sequence[str]) -> list[str]:
    """A new patient's biomarkers to compare, with the user's own edits of the last
    patient's list carried over: the new patient's defaults, less those the user removed,
    then those the user added (walk-through 28: an added lactate was gone at the next
    patient). Only names of the model are kept, in the order given.

    Examples
    --------
    >>> carried_choice(["Age", "Sodium"], ["Age", "Lactate"], ["Sodium", "GCS"],
    ...                ["Age", "Sodium", "GCS", "Lactate"])
    ['GCS', 'Lactate']
    """
    known = set(names)
    removed = set(previous_default) - set(previous_chosen)
    added = [f for f in previous_chosen if f not in set(previous_default)]
    out = [f for f in new_default if f not in removed]
    out += [f for f in added if f not in out]
    return [f for f in out if f in known]


# ---------------------------------------------------------------------------- comparisons
def _summary_of(values: np.ndarray, column: str, encoder) -> str:
    """Look-alikes' values of one biomarker: median (IQR) or the most common words."""
    v = values[np.isfinite(values)]
    n_all = len(values)
    if len(v) == 0:
        return f"not measured (0 of {n_all})"
    suffix = "" if len(v) == n_all else f" · {len(v)} of {n_all} measured"
    words = category_words(encoder, column)
    if words and len(v) > 1 and column_is_scale(column, encoder):
        # a scale's steps in its order, after their median (walk-through 96 read an
        # mRS as "mRS 1: 4, mRS 0: 3, mRS 2: 1 …", by count)
        codes, counts = np.unique(v, return_counts=True)
        median = float(np.percentile(v, 50, method="lower"))
        parts = [f"{format_value(c, column, encoder, words)}: {n}"
                 for c, n in zip(codes, counts)]
        return (f"median {format_value(median, column, encoder, words)} · "
                + ", ".join(parts[:5])
                + (" …" if len(parts) > 5 else "") + suffix)
    if words:
        labels = pd.Series([format_value(x, column, encoder, words) for x in v]
                           ).value_counts()
        parts = [f"{lab}: {cnt}" for lab, cnt in labels.head(3).items()]
        more = " …" if len(labels) > 3 else ""
        return ", ".join(parts) + more + suffix
    if len(v) == 1:
        return format_number(v[0]) + suffix
    if np.isin(v, (0.0, 1.0)).all():  # a 0/1 column without words: counts, not quartiles
        ones = int(v.sum())
        counts = sorted([("1", ones), ("0", len(v) - ones)], key=lambda c: -c[1])
        return ", ".join(f"{lab}: {cnt}" for lab, cnt in counts if cnt) + suffix
    q1, med, q3 = np.percentile(v, [25, 50, 75])
    # quartiles at the data's precision (node counts: "8–11", not "8.25–11"); the median
    # may keep one more decimal (the middle of two counts: 8.5)
    d = data_decimals(v)
    q1, q3, med = round(q1, d), round(q3, d), round(med, d + 1)
    if format_number(q1) == format_number(q3):
        return format_number(med) + suffix
    return f"{format_number(med)} ({format_number(q1)}–{format_number(q3)})" + suffix


def _limit_column(feature: object, encoder=None) -> bool:
    """Whether a feature's cells can be written as a limit ("<15", "10+"): a numeric
    column's (all, without an encoder). A category's "1+" is no limit: walk-through 95's
    HER2 1+ showed as "≥1 (read as 1+)"."""
    roles = getattr(encoder, "roles_", None)
    return roles is None or roles.get(str(feature)) == "numeric"


def _limits_said(cells: pd.DataFrame | None, feature: str, encoder=None,
                 dipstick: bool = False) -> str:
    """How many look-alikes' values of a feature were written as a limit, and the most
    common limit (" · 8 of 10 written '>90'"), or ""; ``dipstick`` as for
    :func:`_cell_limit`."""
    if cells is None or feature not in cells.columns or not _limit_column(feature, encoder):
        return ""
    limits = cells[feature].map(lambda c: _cell_limit(c, dipstick)).dropna()
    if limits.empty:
        return ""
    top = limits.value_counts().index[0]
    return f" · {len(limits)} of {len(cells)} written '{top}'"


def _cell_limit(cell: object, dipstick: bool = False) -> str | None:
    """:func:`~sparge.data.parsing.limit_text` of a cell, but ``None`` for a dipstick grade
    in a column whose grades are read into a "(dipstick)" column (``dipstick``): a uPCR's
    "trace" is the dipstick's grade, not the ratio's limit (walk-through 100b's file
    showed "trace" under the ratio)."""
    if dipstick and grade_of(cell) is not None:
        return None
    return limit_text(cell)


def limits_as_written(row, features: Sequence[str], encoder=None) -> dict[str, str]:
    """A patient's values written as a limit in its table ("<15", ">90"), by feature:
    they read as the limit, and the comparison shows them as written beside it (a
    walk-through's ">70" showed as a plain "70").

    Parameters
    ----------
    row : Series (or mapping) of the patient's cells as read from its CSV, by column.
    features : the model's feature names (cells of other columns are ignored).
    encoder : the model's encoder: only its numeric columns' cells are limits.
    """
    get = row.get if hasattr(row, "get") else dict(row).get
    names = {str(f) for f in features}
    out = {}
    for f in features:
        text = _cell_limit(get(f), f"{f}{DIPSTICK_SUFFIX}" in names) \
            if _limit_column(f, encoder) else None
        if text is not None:
            out[str(f)] = text
    return out


#: A file's first patient's line, as the encoder's notes name it ("(CSV line 2)",
#: "; CSV line 2", "CSV lines 2").
_FIRST_LINE = re.compile(r"\s*\(CSV lines? 2\)|[;,]\s*CSV lines? 2\b(?![\d,–-])|"
                         r"\bCSV lines? 2\b(?![\d,–-])")


def form_words(message: str) -> str:
    """A note on a new patient's values, for values typed in the form: without the CSV
    line a file's note names (walk-through 29 read "'>90'; CSV line 2" under a form).

    Examples
    --------
    >>> form_words("'HbA1c': '7.5 %' — these cells (CSV line 2) were set to missing")
    "'HbA1c': '7.5 %' — these cells were set to missing"
    >>> form_words("eGFR written as a limit: '>90'; CSV line 2.")
    "eGFR written as a limit: '>90'."
    """
    return _FIRST_LINE.sub(lambda m: "" if m.group(0).lstrip()[:1] in "(;," else "the form",
                           message)


def hover_as_written(shown: pd.DataFrame, cells: pd.DataFrame | None, encoder=None
                     ) -> pd.DataFrame:
    """Formatted values (:func:`display_frame`) with the cells written as a limit in the
    table shown as written: the map's hover read 89 for an age of ">89" (walk-through 27).

    Parameters
    ----------
    shown : DataFrame of formatted values, one row per patient of ``cells``.
    cells : the patients' cells as read from their CSV (same rows), or ``None``.
    """
    if cells is None or len(cells) != len(shown):
        return shown
    out = shown.copy()
    for col in shown.columns:
        if col not in cells.columns or not _limit_column(col, encoder):
            continue
        split = f"{col}{DIPSTICK_SUFFIX}" in shown.columns or \
            f"{col}{DIPSTICK_SUFFIX}" in (getattr(encoder, "roles_", None) or {})
        limits = pd.Series([_cell_limit(c, split) for c in cells[col].tolist()],
                           index=cells.index, dtype=object)
        has = limits.notna().to_numpy()
        if has.any():
            out.loc[has, col] = limits.to_numpy()[has]
    return out


def _as_written(shown: str, feature: str, written: dict[str, str] | None) -> str:
    """A value, with the limit it was read from when it was written as one."""
    text = (written or {}).get(str(feature))
    return shown if text is None or shown == MISSING else f"{text} (read as {shown})"


def lookalike_comparison(query, neighbours: pd.DataFrame, features: Sequence[str],
                         names: Sequence[str], mean, scale, encoder=None,
                         flags: frozenset[str] = frozenset(),
                         written: dict[str, str] | None = None,
                         lookalikes_written: pd.DataFrame | None = None,
                         log: Mapping[int, float] | None = None) -> pd.DataFrame:
    """A patient next to its look-alikes, biomarker by biomarker, in clinical units.

    Parameters
    ----------
    query : array-like of shape (m,)
        The patient's values in original units (encoded categories), NaN where missing.
    neighbours : DataFrame (n_lookalikes, m)
        The look-alikes' values in original units, columns = ``names``.
    features : the biomarkers to compare (a subset of ``names``, in display order).
    names : all feature names of the model; ``mean``/``scale`` are the model's
        ``mean_``/``scale_`` and ``log`` its :meth:`~sparge.SparGE.log_floors` (for the SD
        cue only, on the scale the model compares: see :func:`standardize`).
    flags : the 0/1 columns (:func:`flag_columns` of the training patients): no SD cue.
    written : the patient's values written as a limit (:func:`limits_as_written`): shown
        as written, "<15 (read as 15)".
    lookalikes_written : the look-alikes' cells as read from their table (rows as
        ``neighbours``), or ``None``: how many of them were written as a limit is said
        beside their summary ("90 · 8 of 10 written '>90'"; walk-through 30 read a
        plain 90 for look-alikes of eGFR ">90").

    Returns
    -------
    DataFrame with ``Biomarker``, ``This patient``, ``Look-alikes`` (median (IQR), or the
    most common categories with counts), ``Patient (SD)``, ``Look-alikes (SD)`` (text: the
    look-alikes' median), and the numeric ``patient_sd``, ``lookalikes_sd_median``,
    ``lookalikes_sd_q1``, ``lookalikes_sd_q3`` for a plot (the same median and interquartile
    range as the ``Look-alikes`` text, in SD; NaN for columns without an SD scale).
    """
    names = [str(c) for c in names]
    pos = {c: j for j, c in enumerate(names)}
    j = np.asarray([pos[f] for f in features], dtype=int)
    q = np.asarray(query, dtype=float).ravel()
    nb = neighbours[list(features)].to_numpy(dtype=float) if len(features) else \
        np.zeros((len(neighbours), 0))
    zq = standardize(q[j], j, mean, scale, log)
    zn = standardize(nb, j, mean, scale, log)
    with np.errstate(all="ignore"), _quiet():
        zq1, zmed, zq3 = (np.nanpercentile(zn, [25, 50, 75], axis=0) if len(zn)
                          else np.full((3, len(j)), np.nan))
    rows = []
    for t, f in enumerate(features):
        if not has_sd_scale(f, encoder, flags):  # yes/no, flags, labels: no SD to show
            zq[t] = zmed[t] = zq1[t] = zq3[t] = np.nan
        rows.append({"Biomarker": biomarker_name(f, encoder),
                     "This patient": _as_written(format_value(q[j[t]], f, encoder), f,
                                                 written),
                     "Look-alikes": _summary_of(nb[:, t], f, encoder)
                     + _limits_said(lookalikes_written, f, encoder,
                                    f"{f}{DIPSTICK_SUFFIX}" in pos),
                     "Patient (SD)": format_sd(zq[t]),
                     "Look-alikes (SD)": format_sd(zmed[t]),
                     "patient_sd": zq[t], "lookalikes_sd_median": zmed[t],
                     "lookalikes_sd_q1": zq1[t], "lookalikes_sd_q3": zq3[t]})
    cols = ["Biomarker", "This patient", "Look-alikes", "Patient (SD)", "Look-alikes (SD)",
            "patient_sd", "lookalikes_sd_median", "lookalikes_sd_q1", "lookalikes_sd_q3"]
    return pd.DataFrame(rows, columns=cols)


def agreement(z_difference: float) -> str:
    """Words for a difference in SD: agree (< 0.5), borderline (< 1), differ.

    Judged on the difference as it is shown (one decimal), so "+0.5 SD" never reads
    "agree".
    """
    d = abs(as_float(z_difference))
    if not math.isfinite(d):
        return "missing"
    d = round(d, 1)
    if d < 0.5:
        return "agree"
    return "borderline" if d < 1.0 else "differ"


def pair_comparison(query, other, features: Sequence[str], names: Sequence[str], mean,
                    scale, encoder=None, flags: frozenset[str] = frozenset(),
                    written: dict[str, str] | None = None,
                    log: Mapping[int, float] | None = None) -> pd.DataFrame:
    """Why two patients are alike: the chosen biomarkers side by side in clinical units.

    Returns ``Biomarker``, ``This patient``, ``Look-alike``, ``Difference`` (this patient
    minus the look-alike in the column's units, then the same difference in SD: "-18
    (-1.8 SD)"; "same"/"different" for categories and 0/1 flags) and ``Verdict`` (agree /
    borderline / differ / missing: not measured in one of them or both; short words that
    fit a narrow screen). ``written``, ``mean``, ``scale`` and ``log``: as in
    :func:`lookalike_comparison` (a feature compared by its logarithm has its difference in
    SD of the logarithm: 50 and 7,673 copies/mL differ).
    """
    names = [str(c) for c in names]
    pos = {c: j for j, c in enumerate(names)}
    j = np.asarray([pos[f] for f in features], dtype=int)
    q = np.asarray(query, dtype=float).ravel()[j]
    o = np.asarray(other, dtype=float).ravel()[j]
    dz = standardize(q, j, mean, scale, log) - standardize(o, j, mean, scale, log)
    rows = []
    for t, f in enumerate(features):
        both = np.isfinite(q[t]) and np.isfinite(o[t])
        scaled = has_sd_scale(f, encoder, flags)
        if not both:
            diff = MISSING
        elif category_words(encoder, f) or f in flags:
            diff = "same" if round(q[t]) == round(o[t]) else "different"
        else:
            d = q[t] - o[t]
            diff = "0" if d == 0 else ("+" if d > 0 else "") + format_number(d)
            if scaled:
                diff += f" ({format_sd(dz[t])})"
        shown_q, shown_o = format_value(q[t], f, encoder), format_value(o[t], f, encoder)
        if both and diff not in ("same", "different"):
            # the values as precise as their difference: "101 | 100 | +1.3" did not add up
            # for 101.3 and 100.0 (walk-through 28)
            k = _decimals(diff.split(" ")[0])
            if k > min(_decimals(shown_q), _decimals(shown_o)):
                shown_q, shown_o = _fixed(q[t], k), _fixed(o[t], k)
        rows.append({"Biomarker": biomarker_name(f, encoder),
                     "This patient": _as_written(shown_q, f, written),
                     "Look-alike": shown_o,
                     "Difference": diff,
                     "Verdict": ("missing" if not both else
                                 agreement(dz[t]) if scaled else
                                 ("agree" if diff == "same" else "differ"))})
    return pd.DataFrame(rows, columns=["Biomarker", "This patient", "Look-alike",
                                       "Difference", "Verdict"])


def pair_summary(pair: pd.DataFrame, n_features: int) -> str:
    """The verdicts of :func:`pair_comparison` counted, in a sentence, and how many of the
    model's ``n_features`` biomarkers they are: walk-through 69's pair read "differ" on 4
    of 8 biomarkers with no word of how many agreed, or that the look-alike was chosen on
    all of them."""
    counts = pair["Verdict"].value_counts()
    parts = [f"{int(counts[v])} {v}" for v in ("agree", "borderline", "differ", "missing")
             if v in counts]
    shown = len(pair)
    return (f"Of the {shown} biomarker{'s' if shown != 1 else ''} shown: "
            + ", ".join(parts) + "."
            + (f" The look-alike was chosen on all {n_features} of the model's biomarkers "
               "together, not on these alone: choose others above to compare them."
               if n_features > shown else ""))


def _decimals(text: str) -> int:
    """Decimals a number is written with ("1.25" 2, "+3" 0)."""
    return len(text.split(".", 1)[1]) if "." in text else 0


def _fixed(value: float, decimals: int) -> str:
    """A number with exactly ``decimals`` decimals, thousands grouped as
    :func:`format_number` groups them ("101.3", "1 450.5")."""
    return f"{value:,.{decimals}f}".replace(",", THOUSANDS)


def _points(value: float) -> str:
    """A difference in percentage points, signed, with no "-0" ("+12 points", "0 points")."""
    shown = round(float(value))
    return f"{shown:+d} points" if shown else "0 points"


def group_summary(values: pd.DataFrame, members, mean, scale, encoder=None,
                  outcomes=None, n_features: int = 10,
                  log: Mapping[int, float] | None = None) -> dict:
    """What sets a group of patients apart from the rest, in clinical units.

    Parameters
    ----------
    values : DataFrame (n_patients, m)
        Every patient's values in original units (encoded categories), NaN gaps.
    members : indices of the group's rows in ``values``.
    mean, scale : the model's ``mean_`` and ``scale_`` (to rank and for the SD cue).
    outcomes : array-like of outcome labels per row (None / NaN when unknown), optional.
    log : the model's :meth:`~sparge.SparGE.log_floors`: a feature compared by its
        logarithm is summarised by its geometric mean, its difference in SD of the
        logarithm (a few patients at a million copies/mL do not make a group's mean).

    Returns
    -------
    dict with ``size``, ``outcome_mix`` (Series: patients per outcome in the group) and
    ``features``: ``Biomarker``, ``Group``, ``Rest`` (mean, or the group's most common
    category with its share in each, both among the patients with a value),
    ``Difference`` (SD for numbers, percentage points for categories) and ``Measured``
    (the share of the group and of the rest with a value) for the ``n_features``
    biomarkers that differ most.
    """
    names = [str(c) for c in values.columns]
    X = values.to_numpy(dtype=float)
    mask = np.zeros(len(X), bool)
    mask[np.asarray(members, dtype=int)] = True
    flags = flag_columns(values)
    rows = []
    with np.errstate(all="ignore"), _quiet():
        for j, f in enumerate(names):
            g, r = X[mask, j], X[~mask, j]
            g, r = g[np.isfinite(g)], r[np.isfinite(r)]
            if len(g) == 0 or len(r) == 0:
                continue
            # a share of 22 % "Yes" among 5 of 40 measured patients is not 22 % of the group
            measured = (f"{100 * len(g) / mask.sum():.0f}% / "
                        f"{100 * len(r) / (~mask).sum():.0f}%")
            words = category_words(encoder, f)
            flag = not words and f in flags
            if words or flag:  # a 0/1 column without words is a flag: shares, not means
                codes, counts = np.unique(np.round(g), return_counts=True)
                top = 1.0 if flag else codes[np.argmax(counts)]
                pg = float(np.mean(np.round(g) == top))
                pr = float(np.mean(np.round(r) == top))
                pooled = (pg * len(g) + pr * len(r)) / (len(g) + len(r))
                score = abs(pg - pr) / max(math.sqrt(pooled * (1 - pooled)), 1e-9)
                word = format_value(top, f, encoder)
                rows.append((score, {"Biomarker": biomarker_name(f, encoder),
                                     "Group": f"{word} {100 * pg:.0f}%",
                                     "Rest": f"{word} {100 * pr:.0f}%",
                                     "Difference": _points(100 * (pg - pr)),
                                     "Measured": measured}))
            else:
                s = float(np.asarray(scale, dtype=float)[j]) or 1.0
                if log and j in log:  # the geometric mean, the mean of the logarithm
                    lg, lr = (np.log10(np.maximum(v, log[j])) for v in (g, r))
                    d = (lg.mean() - lr.mean()) / s
                    shown = [f"{format_number(10.0 ** v.mean())} (geometric)"
                             for v in (lg, lr)]
                else:
                    d = (g.mean() - r.mean()) / s
                    shown = [format_number(g.mean()), format_number(r.mean())]
                rows.append((abs(d), {"Biomarker": biomarker_name(f, encoder),
                                      "Group": shown[0],
                                      "Rest": shown[1],
                                      "Difference": format_sd(d),
                                      "Measured": measured}))
    rows.sort(key=lambda t: -t[0])
    feats = pd.DataFrame([r for _, r in rows[:n_features]],
                         columns=["Biomarker", "Group", "Rest", "Difference", "Measured"])
    mix = pd.Series(dtype=int)
    if outcomes is not None and mask.any():
        lab = pd.Series(np.asarray(outcomes, dtype=object)[mask])
        lab = lab[lab.map(lambda v: v is not None and not (isinstance(v, float) and v != v))]
        mix = lab.astype(str).map(lambda v: plain_text(v, 60)).value_counts()
        mix.index.name = "Outcome"
        mix.name = "Patients"
    return {"size": int(mask.sum()), "outcome_mix": mix, "features": feats}


# ---------------------------------------------------------------------------- input
def file_id_column(df: pd.DataFrame, id_column: str | None = None,
                   features: Sequence[str] = ()) -> str | None:
    """The column of a new patients' file that names its patients: the model's ID column
    when the file has it, else one named and filled like an ID
    (:func:`~sparge.data.column_guess.id_named_column`) that is not a feature of the model
    (walk-through 25's model had no ID column, and its file's "NEW-001" … were shown as
    "line 2" …). ``None`` when none is."""
    by_key = {norm_key(c): str(c) for c in df.columns}
    if id_column is not None and norm_key(id_column) in by_key:
        return by_key[norm_key(id_column)]
    guess = id_named_column(df)
    if guess is None or norm_key(guess) in {norm_key(f) for f in features}:
        return None
    return guess


def file_patient_ids(df: pd.DataFrame, named_by: str | None) -> list[str]:
    """How each patient of a new patients' file is named: by the column ``named_by``
    (:func:`file_id_column`), else by its CSV line ("new patient" for a single one)."""
    if named_by is not None:
        return [plain_text(v, 40) for v in cell_text(df[named_by])]
    return [f"CSV line {i + 2}" if len(df) > 1 else "new patient" for i in range(len(df))]


def csv_patient_labels(df: pd.DataFrame, id_column: str | None = None) -> list[str]:
    """A label for every patient of an uploaded CSV: its CSV line (the header is line 1)
    and, when the file has the ID column, its ID."""
    ids = None
    if id_column is not None:
        col = {norm_key(c): c for c in df.columns}.get(norm_key(id_column))
        if col is not None:
            ids = [plain_text(v, 40) for v in df[col].astype(str)]
    return [f"line {i + 2}" + (f" · {ids[i]}" if ids is not None else "")
            for i in range(len(df))]


def numeric_patients(df: pd.DataFrame, features: Sequence[str]
                     ) -> tuple[pd.DataFrame, np.ndarray, list[str]]:
    """Patients read for a model without an encoder: every feature must be a number.

    Columns are matched to the model's features by name (case and spacing ignored).
    Empty cells and the usual "not available" spellings are missing values; "12,5" reads as
    12.5; a value written as a limit ("<0.1") reads as the limit, with a note. A text
    cell in a feature column is refused with a message naming the column and CSV line.

    Returns
    -------
    X : DataFrame (n, m) with the model's feature names (NaN = missing)
    ids : the ID column's values when there is one (a column named like "ID"), else
        "patient 1", "patient 2", ...
    messages : notes for the user (columns missing or ignored, values set to missing)
    """
    features = [str(f) for f in features]
    present = {norm_key(c): c for c in df.columns}
    X = np.full((len(df), len(features)), np.nan)
    msgs: list[str] = []
    absent = []
    for j, f in enumerate(features):
        col = present.get(norm_key(f))
        if col is None:
            absent.append(f)
            continue
        X[:, j], info = parse_numeric(df[col])
        if info["bad"]:
            row, text = info["bad"][0]
            raise DataError(
                f"Column '{plain_text(f, 80)}' holds text ('{plain_text(text, 40)}', CSV line "
                f"{row + 2}) but this model has no encoder: every value must be a number "
                "(leave the cell empty when it was not measured).")
        if info["censored"]:
            msgs.append(f"Column '{plain_text(f, 80)}': {len(info['censored'])} value(s) "
                        f"written as a limit (e.g. '{plain_text(info['censored'][0][1], 40)}')"
                        " were read as the limit itself.")
        if info["infinite"]:
            msgs.append(f"Column '{plain_text(f, 80)}': {len(info['infinite'])} infinite "
                        f"value(s) (e.g. '{plain_text(info['infinite'][0][1], 40)}') were set "
                        "to missing.")
        if info["decimal_comma"]:
            msgs.append(f"Column '{plain_text(f, 80)}': values written with a decimal comma "
                        "were read as decimals (12,5 = 12.5).")
    if len(absent) == len(features):
        raise DataError("None of the model's biomarkers is a column of this file (e.g. "
                        f"'{plain_text(features[0], 80)}'); check the header row.")
    if absent:
        msgs.append(f"{len(absent)} of the model's {len(features)} biomarkers are not in the "
                    f"file and are treated as missing (e.g. '{plain_text(absent[0], 80)}').")
    used = {present[norm_key(f)] for f in features if norm_key(f) in present}
    others = [c for c in df.columns if c not in used]
    id_col = next((c for c in others if norm_key(c) in ("id", "patient", "subject")
                   or norm_key(c).endswith(" id") or norm_key(c).endswith("_id")), None)
    rest = [c for c in others if c != id_col]
    if rest:
        msgs.append(f"{len(rest)} column(s) unknown to the model are ignored (e.g. "
                    f"'{plain_text(rest[0], 80)}').")
    empty = np.flatnonzero(np.isnan(X).all(axis=1))
    if len(empty):
        raise DataError(f"Patient row {int(empty[0]) + 1} has no value the model knows; fill "
                        "in at least one biomarker.")
    ids = (df[id_col].astype(str).str.strip().to_numpy(dtype=object) if id_col is not None
           else np.asarray([f"patient {i + 1}" for i in range(len(df))], dtype=object))
    return pd.DataFrame(X, columns=features), ids, msgs


# ---------------------------------------------------------------------------- tables
def column_decimals(values: pd.DataFrame) -> dict[str, int | None]:
    """The decimals each column of ``values`` (the training patients') is mostly written
    with (:func:`~sparge.data.number_format.typical_decimals`), for :func:`file_values`."""
    return {str(c): typical_decimals(values[c].to_numpy(dtype=float), share=0.5)
            for c in values.columns}


def file_values(values: pd.DataFrame, encoder=None,
                cells: pd.DataFrame | None = None,
                decimals: Mapping[str, int | None] | None = None) -> pd.DataFrame:
    """Patients' values for a downloaded file: answers as their words, numbers as numbers
    (a spreadsheet computes with them; gaps empty), a value written as a limit in the
    patient's table as written ("<15"), and each column named with its unit when its name
    gives none (:func:`biomarker_name`).

    Parameters
    ----------
    values : DataFrame of values in original units (categories as codes), one column per
        feature.
    encoder : the model's encoder (decodes categories) or None.
    cells : the same patients' cells as read from their table (same rows), or None.
    decimals : the decimals each column's training values are mostly written with
        (:func:`~sparge.data.number_format.typical_decimals`): a value converted from
        another unit is rounded to them (:func:`~sparge.data.number_format.round_computed`;
        walk-through 54's file showed a weight of 71.6676 kg).
    """
    out = {}
    for col in values.columns:
        x = values[col].to_numpy(dtype=float)
        if decimals and not category_words(encoder, col):
            x = round_computed(x, decimals.get(str(col)))
        # 6 significant digits: a converted HbA1c was written 65.01967643200699
        with np.errstate(divide="ignore", invalid="ignore"):
            digits = 5 - np.floor(np.log10(np.abs(x)))
        ok = np.isfinite(digits) & (digits > 0)
        x = np.where(ok, [round(v, int(d)) if k else v
                          for v, d, k in zip(x, np.where(ok, digits, 0), ok)], x) \
            if ok.any() else x
        column: pd.Series = pd.Series(x)
        if words := category_words(encoder, col):
            column = pd.Series([format_value(v, col, encoder, words) if math.isfinite(v)
                                else "" for v in x], dtype=object)
        if cells is not None and len(cells) == len(values) and col in cells.columns and \
                _limit_column(col, encoder):
            # a list, not Series.map: pandas made the None of a cell without a limit NaN,
            # and every other look-alike's number went blank (walk-through 49)
            split = f"{col}{DIPSTICK_SUFFIX}" in values.columns
            limits = [_cell_limit(c, split) for c in cells[col].tolist()]
            if any(t is not None for t in limits):
                column = pd.Series([t if t is not None else v
                                    for t, v in zip(limits, column)], dtype=object)
        out[biomarker_name(col, encoder)] = column
    return pd.DataFrame(out)


def lookalike_display(table: pd.DataFrame, matched: Sequence[str] | str = (), *,
                      values: pd.DataFrame | None = None, patient=None, name: object = None,
                      encoder=None, cells: pd.DataFrame | None = None,
                      written: dict[str, str] | None = None,
                      outcome: object = None,
                      decimals: Mapping[str, int | None] | None = None) -> pd.DataFrame:
    """The look-alike table with plain headers and without internal columns (for download);
    with ``matched`` (the conditions the look-alikes were matched on exactly, or a note
    such as :attr:`sparge.services.matching.Match.file_note`) a last column says it, so that
    a file read later still says what the list was drawn from.

    With ``values`` (the look-alikes' values, one row each, in the table's order) every
    biomarker follows as a column (:func:`file_values`; walk-throughs 45 and 47 opened the
    file and found no values to compare), and with ``patient`` (the patient's values in
    the same columns) a first row gives the patient's own, named ``name`` ("(the
    patient)"), with ``written`` its values written as a limit, by feature, and its
    ``outcome`` when known (a training patient's; walk-through 50 found it empty).
    ``decimals`` as for :func:`file_values`.
    """
    keep = [c for c in LOOKALIKE_HEADERS if c in table.columns]
    out = table[keep].rename(columns=LOOKALIKE_HEADERS).reset_index(drop=True)
    if values is not None:
        biomarkers = file_values(values.reset_index(drop=True), encoder, cells, decimals)
        # a biomarker named like a column of the list ("Distance") is said to be one
        biomarkers.columns = [f"{c} (value)" if c in out.columns or c == "Matched on" else c
                              for c in biomarkers.columns]
        if patient is not None:
            own = file_values(pd.DataFrame([np.asarray(patient, dtype=float).ravel()],
                                           columns=values.columns), encoder,
                              pd.DataFrame([{**dict(written or {})}])
                              if written else None, decimals)
            own.columns = biomarkers.columns
            first = pd.DataFrame({c: [None] for c in out.columns})
            if LOOKALIKE_HEADERS["ID"] in first.columns:
                first[LOOKALIKE_HEADERS["ID"]] = f"{plain_text(name, 80)} (the patient)"
            if outcome is not None and LOOKALIKE_HEADERS["outcome"] in first.columns:
                first[LOOKALIKE_HEADERS["outcome"]] = plain_text(outcome, 80)  # when known
            out = pd.concat([first, out], ignore_index=True)
            if LOOKALIKE_HEADERS["rank"] in out.columns:  # 1, 2 … not 1.0, 2.0
                out[LOOKALIKE_HEADERS["rank"]] = out[LOOKALIKE_HEADERS["rank"]].astype("Int64")
            biomarkers = pd.concat([own, biomarkers], ignore_index=True)
        out = pd.concat([out, biomarkers], axis=1)
    if matched:
        out["Matched on"] = (matched if isinstance(matched, str)
                             else "; ".join(str(m) for m in matched))
    return out


def plot_text(value: object, max_len: int = 60) -> str:
    """User text for a plotly label or hover: one line, HTML special characters escaped."""
    return html.escape(plain_text(value, max_len), quote=False)


def safe_filename(value: object, max_len: int = 40) -> str:
    """A patient ID or name reduced to characters safe in a download's file name."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", plain_text(value, 200)).strip("._")
    return (s or "patient")[:max_len]


def model_filename(model_name: object) -> str:
    """The download name of a model: ``sparge_<table>.sparge`` from a model name such as
    "trained on nicu_export.csv (617 patients)" (the table's extension and the patient
    count dropped: they cut the name at 40 characters, "…export.csv_617_pati")."""
    text = plain_text(model_name, 200)
    text = re.sub(r"^(?:trained on|loaded from)\s+", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s*\(\s*[\d,]+ patients?\s*\)\s*$", "", text)
    text = re.sub(r"\.(?:csv|tsv|txt|xlsx?|parquet|sparge)$", "", text, flags=re.IGNORECASE)
    return f"sparge_{safe_filename(text or 'model', 60)}.sparge"


@contextlib.contextmanager
def _quiet():
    """Silence numpy's 'mean of empty slice' warnings inside a block."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        yield


__all__ = ["MISSING", "SPARSE_WEIGHT_HELP", "sparse_weight_help", "has_forest_part",
           "model_filename", "outcome_name",
           "LOOKALIKE_HEADERS", "category_words", "answers_by_code",
           "format_number", "format_value", "decode_column", "display_frame", "format_sd",
           "standardize", "top_biomarkers", "typical_deviation", "severity_columns",
           "limits_as_written", "lookalike_comparison",
           "agreement", "pair_comparison", "pair_summary", "group_summary", "lookalike_display",
           "plot_text",
           "safe_filename", "numeric_patients", "snap_precision"]
