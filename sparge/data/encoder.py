"""Encoding patient tables as numbers: the :class:`Encoder` (DESIGN.md §3).

:class:`Encoder` turns a table of text cells (as :func:`sparge.data.reading.read_table`
gives it) into a float matrix with ``NaN`` for missing values: it infers every column's
role, codes categorical columns through the encoding table (see :mod:`sparge.data.tables`
for missing tokens and ordered scales, :mod:`sparge.data.parsing` for reading cells),
applies the paper's column and patient filters and writes a
:class:`~sparge.data.report.ValidationReport`, worded by :mod:`sparge.data.encoding_notes`.
:mod:`sparge.data.column_guess` suggests the ID and
outcome columns, :mod:`sparge.data.answer_merging` merges answers written two ways and
:mod:`sparge.data.leaks` finds features that give the outcome away.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from sparge.data.age_dates import (
    YEARS_DURATION_NAME,
    read_dates_in_age_columns,
    read_year_columns,
    read_years_since,
)
from sparge.data.alcohol import read_alcohol
from sparge.data.ankle_pressures import read_ankle_pressures
from sparge.data.answer_durations import duration_columns, split_answer_durations
from sparge.data.answer_lists import list_columns, split_lists
from sparge.data.answer_merging import (
    abbreviation_note,
    merge_answers,
    merged_note,
    same_answer,
    spelling_pairs,
    two_way_pairs,
)
from sparge.data.apgar import apgar_columns, read_minute_apgars, split_apgars
from sparge.data.blood_groups import read_blood_groups
from sparge.data.blood_pressure import PARTS as PRESSURE_PARTS
from sparge.data.blood_pressure import pressure_columns, pressure_unit, split_pressures
from sparge.data.body_size import (
    adult_weight_slips,
    derive_body_size,
    find_body_size,
    size_given_mask,
)
from sparge.data.centiles import read_centiles
from sparge.data.column_guess import (
    event_answer_codes,
    id_text,
    ids_repeat_only_in_copies,
    later_outcome_named,
    named_like_id,
    repeated_ids,
    separate_records,
)
from sparge.data.column_kinds import (
    later_measurement_of,
    looks_like_dates,
    looks_like_follow_up,
    looks_like_free_text,
    names_site,
    names_staff,
)
from sparge.data.combined_cells import shared_looks, source_columns
from sparge.data.compound_units import read_compound_units, unpack_rows
from sparge.data.cytogenetics import read_cytogenetics
from sparge.data.dates import add_ages
from sparge.data.dipsticks import SUFFIX as DIPSTICK_SUFFIX
from sparge.data.dipsticks import dipstick_columns, split_dipsticks
from sparge.data.diuretic_dose import read_diuretic_doses
from sparge.data.dose_reductions import read_dose_reductions
from sparge.data.drug_doses import read_drug_doses
from sparge.data.drug_levels import (
    DRUG_ANTIBODIES,
    drug_level_mask,
    drug_names_said,
    find_drug_level_gaps,
    read_other_drug_levels,
)
from sparge.data.elastography import read_elastography
from sparge.data.encoding_notes import (
    FAR_VALUES_ADVICE,
    FAR_VALUES_CLEARED,
    answer_shift,
    conversion_note,
    far_treatments,
    far_values_default,
    feature_shift,
    inferred_note,
    mixed_units_message,
    outcome_shift,
    report_left_out,
    threshold_to_keep,
    treatment_words,
    unconverted_message,
    warn_copied_rows,
    warn_episodes_after_death,
    warn_rows_under_another_id,
    warn_same_patient_rows,
)
from sparge.data.event_counts import read_event_counts
from sparge.data.event_years import read_event_years
from sparge.data.eye_sides import read_eye_sides
from sparge.data.far_values import RISES_BY_ORDERS, far_mask, log_bounds, typical_bounds
from sparge.data.for_age import AgeTrend, age_column, age_trend, far_for_age, is_growth, typical_at
from sparge.data.frequencies import read_frequencies
from sparge.data.gleason import GLEASON_ATTR, read_gleason_scores
from sparge.data.hla import hla_columns, split_hla_mismatches
from sparge.data.icd_codes import read_icd_codes
from sparge.data.leaks import (
    DEATH_NAME,
    DEFINES_AGREEMENT,
    END_OF_STAY,
    LEAK_AUC,
    LEAK_LEAVE_OUT_CLASS,
    LEAK_MIN_CLASS,
    NAMED_LEAK_AUC,
    at_birth_message,
    death_answers,
    death_leak_message,
    defines_message,
    defining_agreement,
    leak_message,
    named_after_outcome,
    named_leak_message,
    named_threshold,
    outcome_leaks,
    presence_leak_message,
    presence_leaks,
    recorded_at_birth,
    vital_status,
    vital_status_message,
)
from sparge.data.lesion_counts import lesion_columns, read_lesion_counts
from sparge.data.levels import (
    ASA_EMERGENCY,
    DECLINED_WORDS,
    NOT_MEASURED_WRITTEN,
    YES_NO_NO,
    abbreviated_levels,
    infer_levels,
    not_assessed_levels,
    not_taken_keys,
    not_taken_levels,
    numeral_key,
    paired_count,
    shown_answer,
    spellings,
    synonym_groups,
)
from sparge.data.montreal import montreal_columns, split_montreal
from sparge.data.named_scores import named_score_columns, split_named_scores
from sparge.data.named_values import read_named_values
from sparge.data.never_smoked import fill_never_smoked, find_never_smoked
from sparge.data.node_counts import read_node_counts
from sparge.data.not_applicable import read_not_applicable
from sparge.data.number_format import data_decimals, format_given, format_number
from sparge.data.obstetric import read_obstetric
from sparge.data.on_off_scores import on_off_columns, split_on_off
from sparge.data.parsing import (
    ANTIBODY_COLUMN,
    VIRAL_LOAD,
    ColumnUnits,
    cell_keys,
    cell_text,
    cognitive_column,
    column_units,
    decimal_marks,
    gcs_column,
    header_unit,
    loose_key,
    min_category_count,
    numeric_share,
    ordinal_number,
    parse_numeric,
    reads_bands,
    thousands_comma_column,
    thousands_dot_column,
    token_counts,
    unit_key,
    untestable,
    wide_range,
    writes_decimal_commas,
    written_unit,
)
from sparge.data.plausible import (
    ages_after_age,
    impossible_in_unit,
    impossible_values,
    mixed_unit,
    unit_from_values,
    unit_slips,
)
from sparge.data.postural_pressures import PARTS as POSTURAL_PARTS
from sparge.data.postural_pressures import postural_columns, split_postural
from sparge.data.pounds_ounces import read_pounds_ounces
from sparge.data.receptors import read_receptors
from sparge.data.report import (
    DroppedColumn,
    DroppedPatient,
    StrayText,
    UnknownValues,
    ValidationReport,
)
from sparge.data.retinopathy import split_retinopathy
from sparge.data.safe_text import csv_lines, quoted_names
from sparge.data.safe_text import quote as _q
from sparge.data.scale_numbers import WORD_BANDS_ATTR, read_scale_numbers
from sparge.data.scales_written import SCALES_ATTR, read_written_scales
from sparge.data.serology import CUT_OFFS_ATTR, read_serology
from sparge.data.stenosis import read_stenoses
from sparge.data.structural_gaps import (
    find_structural_gaps,
    rule_holds,
    structural_mask,
    untreated_columns,
)
from sparge.data.tables import (
    NOT_NEEDED_WRITTEN,
    UNKNOWN_WORDS,
    EncodingTable,
    norm_key,
    scale_of,
    yes_no_codes,
)
from sparge.data.tnm import split_tnm
from sparge.data.unit_columns import read_unit_columns, unit_column_pairs
from sparge.data.unit_conversion import (
    KnownConversions,
    UnitPlan,
    column_unit_guess,
    plan_units,
)
from sparge.data.untestable import split_untestable, untestable_name
from sparge.data.visual_acuity import ACUITY_SCALES_ATTR, LETTERS, LOGMAR, read_visual_acuity
from sparge.data.weight_shares import read_weight_shares
from sparge.errors import DataError
from sparge.method.preprocess import (
    PAPER_MAX_MISSING,
    filter_columns,
    missing_fraction_per_row,
    near_duplicate_columns,
    patients_to_keep,
)

#: Words a laboratory writes for a value beyond its range or a critical one ("HI",
#: "critical"): read as missing, they are said to be extreme values (walk-through 27's
#: glucoses "critical" were all below 50 mg/dL).
_EXTREME = re.compile(r"(?:too\s+)?(?:hi|high|lo|low|critical|crit|panic)(?:\s+value)?[!.]*",
                      re.IGNORECASE)
def extreme_word(cell: str) -> bool:
    """Whether a cell is a laboratory's word for a value beyond its range or a critical
    one ("HI", "critical", "too low"), not an unknown value."""
    return bool(_EXTREME.fullmatch(str(cell).strip()))


#: A sub-stage letter after a stage's number or Roman numeral ("iiib", "t3b", "n1a").
_SUB_STAGE_OF = re.compile(r"(?<=[\divx])[a-d]$")

#: A new patients' file's distinct unseen answers per column tried against the known ones
#: by the pairing rules (:meth:`Encoder._paired_answer`); the others are said unknown.
PAIRED_LOOKUPS = 100
#: The share of a yes/no column's cells that must be empty for the report to offer
#: reading them as No (a register export's "not on the register").
BLANK_NO_SHARE = 0.05
#: The roles a column can take.
ROLES = ("id", "label", "numeric", "categorical", "ignore")


def guess_feature_count(df: pd.DataFrame, id_column: str | None = None,
                        label_column: str | None = None) -> int:
    """How many columns the encoder would use as features (numeric or categorical), by
    its default roles: the setup's starting threshold depends on it. Counting every column
    but the ID and the outcome counted the follow-up, date and note columns the encoder
    leaves out, and a single gap then left half of a walk-through's patients out."""
    cols = [str(c) for c in df.columns]
    id_column = id_column if id_column in cols else None
    label_column = label_column if label_column in cols else None
    try:
        return Encoder(id_column=id_column, label_column=label_column).feature_column_count(df)
    except DataError:  # the encoding will say what is wrong; count the other columns
        return len(cols) - sum(c is not None for c in (id_column, label_column))


def surely_features(df: pd.DataFrame, id_column: str | None = None,
                    label_column: str | None = None, enough: int | None = None) -> int:
    """How many columns of ``df`` are surely features, counted without reading the table
    as the encoder does (a lower bound of :func:`guess_feature_count`): columns whose
    cells are all plain numbers (or empty), not the ID or the outcome, and not named as an
    identifier, a follow-up, another outcome or a later measurement of another column.
    The count stops at ``enough``."""
    cols = [str(c) for c in df.columns]
    found = 0
    for j, col in enumerate(cols):
        if enough is not None and found >= enough:
            break
        if col in (id_column, label_column) or looks_like_follow_up(col) \
                or named_like_id(col) or (label_column is not None and later_outcome_named(col)) \
                or later_measurement_of(col, cols) is not None:
            continue
        values = df.iloc[:, j]
        if pd.api.types.is_bool_dtype(values):
            continue
        if not pd.api.types.is_numeric_dtype(values):
            text = values.astype("string").str.strip()
            text = text[text.notna() & (text != "")]
            if not len(text) or pd.to_numeric(text, errors="coerce").isna().any():
                continue
        elif not values.notna().any():
            continue
        found += 1
    return found


#: A column's far values are converted from a probable other unit only when at least this
#: many of them all fit it (fewer are named with it, and set to missing).
MIN_UNIT_SLIPS = 3
#: Share of a column's far values that must convert from their probable other unit into
#: where most patients lie when not all of them do (every one must still convert into
#: where the column's values are not far). Walk-through 75's 83 eosinophil counts written
#: in x10^9/L (0.16 for 160 /µL) among counts per µL were all used as given because one
#: of them, 0.03, is 30 /µL, a real count below most patients' 63.
UNIT_SLIP_SHARE = 0.9


def _columns(n: int) -> str:
    return f"{n} column" + ("" if n == 1 else "s")


def _unit_conversions(state: object) -> dict[str, dict[str, tuple[float, float]]]:
    """``unit_conversions`` of a saved encoder, checked: ``{column: {unit key: [factor,
    offset]}}`` with finite numbers (ValueError otherwise)."""
    msg = "unit_conversions must be {column: {unit: [factor, offset]}}"
    if not isinstance(state, dict):
        raise ValueError(msg)
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for col, conv in state.items():
        if not isinstance(conv, dict):
            raise ValueError(msg)
        out[str(col)] = {}
        for key, how in conv.items():
            if not (isinstance(how, list) and len(how) == 2
                    and all(isinstance(v, int | float) and np.isfinite(v) for v in how)):
                raise ValueError(msg)
            out[str(col)][str(key)] = (float(how[0]), float(how[1]))
    return out


def columns_that_lose_patients(X: np.ndarray, max_missing: float, max_columns: int = 3,
                               min_missing: float = 0.3, weights: np.ndarray | None = None
                               ) -> tuple[list[int], int]:
    """The few columns whose leaving out keeps the most patients at the same threshold.

    Greedy: up to ``max_columns`` times, the column whose removal keeps the most patients
    (a walk-through's RHC export lost 2,971 of 5,735 patients at 10 %, most of them to two
    nearly empty columns; without those two, 4,183 were kept). Only a column missing in
    at least ``min_missing`` of the patients is a candidate (a narrow table with a few
    scattered gaps wants a higher threshold, not fewer columns), and it goes only if it
    keeps at least a twentieth of the cohort more.

    ``weights``: each column's share of a table's column
    (:meth:`Encoder.feature_weights`), or each patient's (:meth:`Encoder.patient_weights`,
    0 where a value does not apply).

    Returns
    -------
    columns : list of int
        Indices into ``X``'s columns (empty: no column is worth it).
    kept : int
        Patients kept without them.
    """
    M = np.isnan(np.asarray(X, dtype=float))
    n, m = M.shape
    w = np.ones(m) if weights is None else np.asarray(weights, dtype=float)
    if w.ndim == 2:  # each patient's weights: a gap by design (weight 0) is no gap
        M = M & (w > 0)
    W = w if w.ndim == 2 else w[None, :]
    cols = list(range(m))
    empty = M.mean(axis=0) >= min_missing if n else np.zeros(m, bool)
    out: list[int] = []

    def weighted(Mc: np.ndarray, Wc: np.ndarray) -> np.ndarray:  # one BLAS call when shared
        return Mc @ Wc[0] if Wc.shape[0] == 1 else (Mc * Wc).sum(axis=1)

    kept = int((weighted(M, W) <= max_missing * W.sum(axis=1) + 1e-9).sum())
    for _ in range(min(max_columns, m - 1)):
        Wc = W[:, cols]
        counts = weighted(M[:, cols], Wc)
        # the weight left without each candidate (per patient with a patient's weights)
        left = Wc.sum(axis=1, keepdims=True) - Wc
        # patients kept if each candidate column left: one comparison per (patient, column)
        keep = ((counts[:, None] - M[:, cols] * Wc) <= max_missing * left + 1e-9
                ).sum(axis=0)
        keep = np.where(empty[cols], keep, -1)
        best = int(np.argmax(keep))
        if keep[best] < kept + max(1, 0.05 * n):
            break
        kept = int(keep[best])
        out.append(cols.pop(best))
    return out, kept


#: Share of a column's answers the built-in (paper's) encoding table must know for its
#: levels to be used: a clinic's "Smoking" column answered "never / former / current" had
#: all 836 answers set to missing by the paper's "Yes / No / Previously".
TABLE_FIT_SHARE = 0.9


#: The units of a column of times (:attr:`Encoder.units_`): a new patient's "02:15" there
#: is a duration, however few its cells.
_TIME_UNITS = frozenset({"min", "mins", "minutes", "hours"})


#: Cells saying a value does not apply (normalised keys): not gaps for a patient's share of
#: missing values (:meth:`Encoder._written_not_applicable`).
NOT_APPLICABLE_WORDS = frozenset({"not applicable", "n/a", "n.a.", "n/a.", "not relevant",
                                  "does not apply", "not appl", "not appl.", "not valid",
                                  # a test the clinician judged not needed (walk-through
                                  # 96's carotid imaging "not indicated")
                                  *NOT_NEEDED_WRITTEN})
_NA_MARKS = frozenset({"n/a", "n.a.", "n/a."})
#: Cells saying a value could not be calculated from the others: a Friedewald LDL
#: cholesterol with triglycerides too high (walk-through 90's "TG too high" left 12 of 18
#: patients with mixed dyslipidaemia out of training). No gap of the patient's record.
NOT_CALCULABLE = re.compile(
    r"^(?:(?:tg|tgs|trigs?|triglycerides?)\s*(?:too\s*high|high|>\s*[\d.]+.*|raised)|"
    r"(?:not|unable\s*to\s*be|unable\s*to|cannot\s*be|can'?t\s*be|can'?t)\s*"
    r"calc(?:ulated?|ulable|\.)?\b.*|uncalculable|incalculable|not\s*calculable.*|"
    r"n/?c\s*\(?(?:tg|trigs?).*)$")


#: A text column of up to this many times ``max_levels`` answers is judged by its answers
#: once those the pairing rules offer to merge count as one (:func:`_paired_count`).
_PAIRED_LEVELS = 3


def _paired_count(text: pd.Series, keys: pd.Series, column: str) -> int:
    """How many answers a column's cells (``text``, its filled cells, and their ``keys``)
    give when the answers :func:`~sparge.data.levels.abbreviated_levels` pairs count as
    one (:func:`~sparge.data.levels.paired_count`)."""
    return paired_count(list(dict.fromkeys(text[keys.drop_duplicates().index])), column)


def _decimal_shift(values: np.ndarray, lo: float, hi: float, decimals: int = 6
                   ) -> list[float] | None:
    """``values`` with their decimal point moved by one to three places into where most
    patients lie (``lo`` to ``hi``), when every one has exactly one such place, or one
    place of a single step (one decimal point lost or added, the commonest slip): a weight
    of 724 kg is 72.4 (walk-through 54); a HAQ-DI of 16.25 on a 0-3 index is 1.625, not
    0.1625 (walk-through 66). ``decimals``: the most the column writes; a shift needing
    more is no lost decimal point (a partial Mayo of 16 among whole scores is not 1.6:
    walk-through 68). ``None`` otherwise.

    Examples
    --------
    >>> _decimal_shift(np.array([16.25, 20.0]), 0.125, 2.75)
    [1.625, 2.0]
    >>> _decimal_shift(np.array([3000.0]), 1.0, 150.0) is None  # 30 or 3: no one place
    True
    """
    out = []
    for v in np.asarray(values, dtype=float):
        fits = [k for k in (-3, -2, -1, 1, 2, 3) if lo <= v * 10.0 ** k <= hi
                and abs(round(v * 10.0 ** k, decimals) - v * 10.0 ** k) < 1e-9]
        step = [k for k in fits if abs(k) == 1]
        if len(step) == 1:
            fits = step
        if len(fits) != 1:
            return None
        out.append(float(round(v * 10.0 ** fits[0], 6)))
    return out or None


def split_cells(df: pd.DataFrame, fitted=(), durations=(), answers=None,
                scales=None, cut_offs=None, gleason=(), lesions=(),
                word_bands=None, acuity=None) -> pd.DataFrame:
    """The table with two or three values written in one cell read apart: TNM stages
    ("pT2N1M0", :func:`~sparge.data.tnm.split_tnm`), blood pressures ("142/88",
    :func:`~sparge.data.blood_pressure.split_pressures`) and Apgar scores ("8/9",
    :func:`~sparge.data.apgar.split_apgars`); and weights in pounds and ounces in pounds
    (:func:`~sparge.data.pounds_ounces.read_pounds_ounces`), heights in feet and inches
    in inches and times in hours and minutes in minutes
    (:func:`~sparge.data.compound_units.read_compound_units`); Gleason scores as the ISUP
    grade group (:func:`~sparge.data.gleason.read_gleason_scores`). ``fitted``: a model's input
    columns, whose combined columns are split however few the rows (a new patient);
    ``durations``: its columns of times, whose "02:15" is read as one; ``answers``: its
    answers by column, a "not applicable" whose reason is one of them is that answer
    (:func:`~sparge.data.not_applicable.read_not_applicable`); ``scales``: its analogue
    scales' tops (:func:`~sparge.data.scales_written.read_written_scales`); ``cut_offs``:
    its autoantibodies' cut-offs (:func:`~sparge.data.serology.read_serology`);
    ``gleason``: its columns read as grade groups; ``lesions``: its numeric columns of
    lesion counts, whose "Gd+ x1" is read as a count however few the rows
    (:func:`~sparge.data.lesion_counts.read_lesion_counts`); ``word_bands``: the bands its
    ejection fraction and pulmonary pressure columns write beside their words
    (:func:`~sparge.data.scale_numbers.read_scale_numbers`); ``acuity``: its visual
    acuity columns' scales, logMAR or letters, a new patient's "6/12" or "70" read on them
    (:func:`~sparge.data.visual_acuity.read_visual_acuity`)."""
    fitted = [str(c) for c in fitted]
    have = set(fitted)
    stages = [c[:-2] for c in fitted if c.endswith(" T") and {c[:-2] + " N", c[:-2] + " M"}
              <= have]
    with shared_looks():  # a small table's cells looked at once for every reader
        # before the named values: "lying 117/69, standing 105/64" is no "lying" value
        df = split_postural(df, known=postural_columns(fitted))
        df = read_other_drug_levels(df)  # "on CsA" in a tacrolimus level: no level due
        df = read_weight_shares(df)  # "3.2%" of the row's dry weight in a weight gain
        df = read_named_values(read_gleason_scores(read_unit_columns(df), known=gleason),
                               answers)
        df = read_compound_units(read_pounds_ounces(read_not_applicable(
            read_diuretic_doses(read_elastography(read_ankle_pressures(read_receptors(
                read_node_counts(read_stenoses(read_scale_numbers(
                    read_visual_acuity(read_eye_sides(read_dose_reductions(read_blood_groups(
                        read_event_counts(read_minute_apgars(df))))), acuity),
                    word_bands))))))),
                answers)),
            durations)
        df = read_years_since(read_dates_in_age_columns(read_centiles(read_alcohol(
            read_frequencies(read_serology(read_written_scales(read_obstetric(
                read_cytogenetics(read_lesion_counts(df, known=lesions))), scales),
                cut_offs))))))
        df = read_drug_doses(read_event_years(read_year_columns(df), answers), answers)
        df = read_icd_codes(df, known=fitted)
        graded = [c for c in fitted if f"{c} maculopathy" in have]
        df = split_hla_mismatches(df, known=hla_columns(fitted))
        df = split_on_off(df, known=on_off_columns(fitted))
        df = split_dipsticks(df, known=dipstick_columns(fitted))
        df = split_answer_durations(df, known=duration_columns(fitted))
        return split_apgars(split_pressures(split_tnm(
            split_named_scores(split_montreal(split_retinopathy(df, known=graded),
                                              known=montreal_columns(fitted)),
                               known=named_score_columns(fitted)), known=stages),
            known=pressure_columns(fitted)), known=apgar_columns(fitted))


def _merged_in_order(table: EncodingTable, col: str, pairs: list[list[str]]
                     ) -> EncodingTable:
    """``table`` with each pair of ``col``'s answers sharing one code, the codes 1, 2, 3 …
    in the same order, as if the column had been written one way."""
    low = min(table.levels(col).values())
    table = merge_answers(table, {col: pairs})
    merged = table.levels(col)
    rank = {c: k for k, c in enumerate(sorted(set(merged.values())), start=low)}
    table.set_column(col, dict(sorted(((lv, rank[c]) for lv, c in merged.items()),
                                      key=lambda kv: kv[1])),
                     ordered=table.is_ordered(col))
    return table


#: How well a column left out already (dates, free text) must give the outcome away by
#: being written at all to be named as a leak (the AUC of its presence).
LEFT_OUT_LEAK_AUC = 0.85
def _empty_cells(values: pd.Series) -> np.ndarray:
    """Which cells of a column are empty (a number column's NaN; a text column's blank)."""
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return values.isna().to_numpy()
    return (cell_text(values) == "").to_numpy()


def _yes_only(levels: Mapping[str, float]) -> bool:
    """Whether a column's answers are all spellings of Yes (a register's Yes-or-empty)."""
    return bool(levels) and scale_of(list(levels)) == "yes/no" and set(
        float(c) for c in levels.values()) == {1.0}


#: Why a column is left out by default (:meth:`Encoder._left_out_why`), in a few words.
LEFT_OUT_WORDS = {
    # walk-through 68: a next appointment ("6/12", "PRN") is no outcome
    "follow-up": ("named like a follow-up (the next appointment or the time followed) or "
                  "a length of stay: known after the visit or the outcome"),
    "later measurement": "a later measurement: known after the first visit",
    "other outcome": "named like another outcome: known after the look-alikes are sought",
    "staff": "names the member of staff a patient is with",
    "site": "names the practice or site a patient is registered or seen at",
    "identifier": "named like an identifier",
    "dates": "dates",
    "free text": "free text",
    "mixed units": "numbers in units that cannot be converted",
    "unit column": "gives another column's unit, patient by patient",
}


#: An outcome cell that says the outcome is not known, with a note before or after it.
_OUTCOME_NOT_KNOWN = (r"^(?:unknown|not known|n/?k|outcome unknown|lost to follow[- ]?up)"
                      r"\s*[-–:(,/]|[-–:(,/]\s*(?:unknown|not known|n/?k|outcome unknown|"
                      r"lost to follow[- ]?up)\s*\)?$")


#: Where a far-values part's entries of ``values_to_check`` start and stop, in its words
#: until the treatment of each is known (:meth:`Encoder._far_values`).
_SPAN = re.compile("\x00(\\d+):(\\d+)\x00")


def _span_mark(start: int, stop: int) -> str:
    return f"\x00{start}:{stop}\x00"


def _number_share(values: pd.Series, missing: frozenset[str] | set[str],
                  units: ColumnUnits) -> float:
    """The share of a column's cells read as numbers, those written with its unit
    (``units``, :func:`~sparge.data.parsing.column_units`) among them."""
    if units.n_cells and not units.header and not pd.api.types.is_numeric_dtype(values):
        return units.share_read()
    return numeric_share(values, missing, units.unit, units.cells)


#: An outcome written as numbers with more answers than this is a measurement
#: (:meth:`Encoder._too_many_outcomes`); so is any with more than this many answers, held
#: by one patient each on average, an identifier.
MAX_NUMBER_OUTCOMES = 10
#: ... written as numbers: this share of its answers at least (a limit, ">90", is one).
NUMBER_OUTCOME_SHARE = 0.9


class Encoder(TransformerMixin, BaseEstimator):
    """Patient table (DataFrame of text and numbers) -> float matrix, ``NaN`` = missing.

    Parameters
    ----------
    id_column, label_column : str, optional
        Columns that identify the patient and hold the outcome; never features.
    encoding_table : EncodingTable, dict, DataFrame or None
        Levels -> codes for categorical columns and the missing tokens; ``None`` uses the
        paper's table. Columns not in it get an inferred table
        (:func:`~sparge.data.levels.infer_levels`: recognised scales in their order, yes/no
        as Yes 1 No 2 Unknown 0, other levels in natural order).
    roles : dict, optional
        ``{column: role}`` overriding the inferred roles (id, label, numeric, categorical,
        ignore).
    max_patient_missing : float or None
        Patients missing more than this share are left out of training (paper: 10 %).
        ``fit_transform`` keeps every row; ``keep_patients_`` says which to train on.
    drop_all_missing, drop_constant, merge_duplicates : bool
        Column filters of the paper's preprocessing.
    numeric_threshold : float
        A text column is numeric when at least this share of its non-missing cells are
        numbers.
    max_levels : int
        A text column with more distinct values is ignored (free text or identifiers).
    min_outcome_patients : int
        An outcome held by fewer of the patients kept is set aside: read as not recorded,
        so its patients are left out of training (1: none). With one or two patients an
        outcome cannot be learned or checked: the model's forest part needs 2 per outcome,
        the held-out check and the classifier comparison 3 (walk-through 18's single
        "ESKD" patient dropped the forest part and stopped both).
    clear_far : bool
        In the table fitted (``fit_transform``), the values the report lists as far from
        the rest of their column (``report_.values_to_check``: a typo or another unit, a
        sodium of 1380) are converted from their probable other unit (an HbA1c of 8.2 in a
        mmol/mol column: %), or else set to missing, before the report counts the gaps and
        the patients kept: its missing shares and ``keep_patients_`` are those of the
        values the model trains on (walk-through 29's report counted the 111 HbA1c it had
        cleared as values). The report still lists them. ``transform`` reads new patients
        as written (the New patient page questions such values).
    convert_slips : bool
        Without ``clear_far``, the far values written in a probable other unit, where at
        least :data:`MIN_UNIT_SLIPS` of a column's all convert from that one unit into
        where its other patients lie (132 haemoglobins in g/dL among g/L), are converted
        in the table fitted, and the others used as given (walk-through 68: a look-alike's
        Hb showed as "61.6 (11.9–137)" until the user clicked). False: all as given.
    merge_spellings : bool
        Answers written two ways that are one answer beyond doubt
        (:func:`~sparge.data.answer_merging.same_answer`: "F" and "Female" in a Sex column,
        "Ex" and "ex-smoker" in a smoking column, "Type II" and "type 2") share one code in
        the inferred levels, with a note (``merged_spellings_``). The other pairs are
        offered (``report_.answers_two_ways``). False: every pair is offered.
    merge_pairs : dict, optional
        ``{column: [[answer, merged into], ...]}``: offered pairs the user merged (the Data
        page's "Merge … pairs"), applied to the column's levels, inferred or given, after
        ``merge_spellings``'s (walk-through 104b: merged through the encoding table, the
        drug brands' default merges could no longer be said nor kept apart).
    blank_as_no : list of str, optional
        Yes/no columns whose empty cells are their No answer: a register export (a GP
        practice's asthma, COPD, hypertension columns) writes nothing for a patient not on
        the register (walk-through 48: 13–21 % of every register column was a gap, and the
        missing-values threshold left out 587 of 702 patients). Only empty cells: a missing
        token ("not recorded") stays a gap. The report lists the candidates
        (``report_.blank_no_candidates``); a column without a No answer is not read so.
    leave_out_copies : bool
        Rows that repeat an earlier row in every column (a record exported twice) are
        left out of training, the first kept: each copy was the other's look-alike at
        similarity 1.00 (walk-through 31's eight). They stay in the table and on the map.
    ages : dict, optional
        Age columns computed from a date of birth (:func:`~sparge.data.dates.add_ages`):
        ``{"Age at admission": {"born": "Date of birth", "at": "Admission date"}}``, or
        ``"at": "2024-06-30"`` for one date for every patient; ``"day_first"`` reads
        03/04/2019 as the 3rd of April when no cell tells. The age is a numeric feature;
        ``transform`` computes it from a new patient's dates, or keeps an age given in
        its column. ``ages_`` holds the setting with the order of day and month as read.

    Attributes
    ----------
    roles_ : dict
        ``{column: role}`` of every input column.
    input_columns_ : list of str
        The columns of the fitted table.
    encoded_columns_ : list of str
        The numeric and categorical columns, before the column filters.
    table_ : EncodingTable
        The table used (paper's + inferred + user's), with the missing tokens.
    units_ : dict
        ``{column: unit}`` of the numeric columns whose cells are written with a unit their
        name does not give ("140 mmHg" in "Systolic BP"): those cells read as numbers, in
        ``transform`` too (a new patient's "150 mmHg"). Saved by :meth:`to_dict`.
    value_units_ : dict
        ``{column: unit}`` of the numeric columns whose name and cells give no unit, read
        from their values (:func:`~sparge.data.plausible.unit_from_values`: "Temp max" of
        median 100.4 is in °F): shown beside the name, what far values and a new
        patient's values are checked against, and a new patient's cell written in
        another unit ("38.9 °C") is converted. Saved by :meth:`to_dict`.
    answer_lists_ : dict
        ``{column: answers}`` of the columns of answer lists ("DM, HTN, CKD") read as one
        yes/no column per answer (:mod:`sparge.data.answer_lists`), in ``transform`` too.
        Saved by :meth:`to_dict`.
    untestable_ : list
        The test columns (a coma scale, a cognitive test) read with a yes/no column
        beside them saying the test could not be done (:mod:`sparge.data.untestable`), in
        ``transform`` too. Saved by :meth:`to_dict`.
    unit_conversions_ : dict
        ``{column: {unit key: (factor, offset)}}``: cells of a numeric column written in
        another unit are converted to the column's (:mod:`sparge.data.unit_conversion`:
        creatinine in mg/dL and µmol/L), in ``transform`` too. Saved by :meth:`to_dict`.
    thousands_dot_ : list of str
        Numeric columns whose "1.527" reads 1527 (dots as thousands separators in a table
        that writes decimals with a comma), in ``transform`` too. Saved by :meth:`to_dict`.
    thousands_comma_ : list of str
        Numeric columns whose "362,656" reads 362656 (commas as thousands separators in a
        table that writes no decimal comma), in ``transform`` too. Saved by
        :meth:`to_dict`.
    score_maxima_ : dict
        ``{column: maximum}`` of the numeric columns whose scores are written out of one
        maximum ("14/27"); a new patient's fraction is read only out of it. Saved by
        :meth:`to_dict`.
    scales_ : dict
        ``{column: 10 or 100}``: the top of each analogue or rating scale column, a new
        patient's "45mm" or "4.5/10" read on it. Saved by :meth:`to_dict`.
    gleason_columns_ : list of str
        The columns whose Gleason scores were read as ISUP grade groups
        (:mod:`sparge.data.gleason`); a new patient's are read so however written. Saved by
        :meth:`to_dict`.
    acuity_scales_ : dict
        ``{column: "logMAR" or "letters"}``: each visual acuity column's scale
        (:mod:`sparge.data.visual_acuity`); a new patient's chart, logMAR or letter count
        is read on it. Saved by :meth:`to_dict`.
    cut_offs_ : dict
        ``{column: cut-off}``: the laboratory's cut-off of each autoantibody column read
        as positive or negative, a new patient's titre ("86 IU/mL") read by it. Saved by
        :meth:`to_dict`.
    detection_limits_ : dict
        ``{column: limit}`` of the numeric columns whose "not detected" cells were read as
        the column's most common lower limit ("TND" as 50 beside "<50"); a new patient's
        is read so only in these columns. Saved by :meth:`to_dict`.
    split_limits_ : dict
        ``{column: {limit: step}}`` of the numeric columns that write a limit on both sides
        ("<4 METs" and ">4 METs"), read a step below and above it (3.5 and 4.5); a new
        patient's too. Saved by :meth:`to_dict`.
    never_smoked_ : dict
        The pack-years column, the smoking status column and its never-smoked answers'
        codes (:func:`~sparge.data.never_smoked.find_never_smoked`): a never-smoker's
        empty pack-years are 0, a new patient's too (walk-through 103). Saved by
        :meth:`to_dict`.
    zero_columns_ : list of str
        The numeric columns whose cells write 0, where "none" and "nil" read as 0; a new
        patient's too (walk-through 45: "none" exacerbations were missing for a new
        patient, 0 for the training patients). Saved by :meth:`to_dict`.
    unable_values_ : dict
        ``{column: value}`` of the performance tests' columns (a timed up-and-go, a gait
        speed): the worst result each writes, which a cell saying the patient could not
        do the test ("unable") reads as, a new patient's too (walk-through 47: "unable"
        was a gap, and the missing-values threshold left out most of the frailest).
        Saved by :meth:`to_dict`.
    unlimited_values_ : dict
        ``{column: value}`` of the columns of distances walked (a claudication distance, a
        6-minute walk): the best result each writes, which "unlimited" and "no
        claudication" read as, a new patient's too (walk-through 94). Saved by
        :meth:`to_dict`.
    plain_splits_ : dict
        ``{column: [unit, low, high, factor]}`` of the numeric columns whose plain numbers
        in ``[low, high]`` are written in another of their units, told by their size
        (:func:`~sparge.data.unit_conversion.plain_split`: an aneurysm's "6.3" beside
        "58mm" and "5.4cm" is 63 mm), a new patient's too. Saved by :meth:`to_dict`.
    ages_ : dict
        The ``ages`` added, with the order of day and month as read. Saved by
        :meth:`to_dict`.
    feature_names_out_ : list of str
        The features kept by the column filters: the columns of the encoded matrix.
    keep_patients_ : ndarray of bool
        Patients missing at most ``max_patient_missing`` of their values.
    merged_spellings_ : dict
        ``{column: [[answer, merged into], ...]}`` merged by ``merge_spellings``.
    rare_outcomes_ : dict
        ``{outcome: patients}`` set aside by ``min_outcome_patients``. Saved by
        :meth:`to_dict`.
    report_ : ValidationReport
        The report of ``fit``. ``transform`` writes nothing (a fitted encoder can be shared
        between threads); :meth:`transform_with_report` returns the report of a transform.

    Notes
    -----
    Missing values: an empty cell, or a missing token of the table that is not a level of
    the column. In numeric columns every token is missing; in categorical columns a token
    that is a level ("Unknown" = 0 in the paper's yes/no group, "None" in an inferred
    Albuminuria column) is a value. ``report_.missing_tokens`` lists per column which
    tokens were read as missing and how often.
    """

    def __init__(self, id_column: str | None = None, label_column: str | None = None,
                 encoding_table=None, roles: Mapping[str, str] | None = None,
                 max_patient_missing: float | None = PAPER_MAX_MISSING,
                 drop_all_missing: bool = True,
                 drop_constant: bool = True, merge_duplicates: bool = True,
                 numeric_threshold: float = 0.8, max_levels: int = 30,
                 min_outcome_patients: int = 1, clear_far: bool = False,
                 ages: Mapping[str, Mapping] | None = None, leave_out_copies: bool = False,
                 blank_as_no: Sequence[str] | None = None, convert_slips: bool = True,
                 merge_spellings: bool = True,
                 merge_pairs: Mapping[str, Sequence[Sequence[str]]] | None = None):
        self.id_column = id_column
        self.label_column = label_column
        self.encoding_table = encoding_table
        self.roles = roles
        self.max_patient_missing = max_patient_missing
        self.drop_all_missing = drop_all_missing
        self.drop_constant = drop_constant
        self.merge_duplicates = merge_duplicates
        self.numeric_threshold = numeric_threshold
        self.max_levels = max_levels
        self.min_outcome_patients = min_outcome_patients
        self.clear_far = clear_far
        self.ages = ages
        self.leave_out_copies = leave_out_copies
        self.blank_as_no = blank_as_no
        self.convert_slips = convert_slips
        self.merge_spellings = merge_spellings
        self.merge_pairs = merge_pairs

    # ------------------------------------------------------------------ helpers
    def user_table(self) -> EncodingTable | None:
        """The user's ``encoding_table`` as an EncodingTable (``None``: none given)."""
        return self._user_table()

    def _user_table(self) -> EncodingTable | None:
        """The user's ``encoding_table`` as an EncodingTable (``None``: none given)."""
        t = self.encoding_table
        if t is None or isinstance(t, EncodingTable):
            return t
        if isinstance(t, pd.DataFrame):
            return EncodingTable.from_frame(t)
        if isinstance(t, Mapping):
            return EncodingTable.from_state(t)
        raise DataError("encoding_table must be an EncodingTable, a dict or a DataFrame.")

    def _base_table(self, user: EncodingTable | None = None) -> EncodingTable:
        """The paper's table merged with the user's ``encoding_table`` (``user``: that
        table, when the caller has it already)."""
        user = self._user_table() if user is None else user
        return EncodingTable.paper() if user is None else EncodingTable.paper().merged(user)

    def _fitting_base(self, df: pd.DataFrame, cols: list[str],
                      notes: list[str] | None = None) -> EncodingTable:
        """The base table without the built-in columns whose answers it does not know.

        A column named like one of the paper's ("Smoking", "Diabetes") keeps the paper's
        levels only when they cover :data:`TABLE_FIT_SHARE` of its answers; otherwise its
        levels are inferred from the file like any other column's, and ``notes`` (when
        given) says so. Columns of the user's own ``encoding_table`` and those with a role
        the user set are taken as given."""
        user = self._user_table()
        base = self._base_table(user)
        mine = set() if user is None else {norm_key(c) for c in user.columns()}
        chosen = {str(k) for k in (self.roles or {})} | {str(self.id_column),
                                                          str(self.label_column)}
        misfits: list[str] = []
        for col in cols:
            if col in chosen or not base.has(col) or norm_key(col) in mine:
                continue
            text = cell_text(df[col])
            keys = cell_keys(text)
            answers = keys[(keys != "") & ~keys.isin(base.missing_keys(col))]
            known = {norm_key(lv) for lv in base.levels(col)}
            if len(answers) and answers.isin(known).mean() < TABLE_FIT_SHARE:
                misfits.append(col)
                # a column of numbers under a table's name (walk-through 71's "Alcohol" in
                # units) is read as numbers; nothing to say about the table's answers
                numbers = pd.to_numeric(text[answers.index], errors="coerce").notna().mean()
                if notes is not None and numbers < self.numeric_threshold:
                    seen = ", ".join(repr(_q(v, 30)) for v in
                                     pd.unique(text[answers.index[~answers.isin(known)]])[:4])
                    table = ", ".join(_q(v, 20) for v in base.levels(col))
                    share = 1 - answers.isin(known).mean()
                    # "some", with the share: walk-through 21 read "its answers are not
                    # those of the table (Unknown, Yes, No)" beside a column of yes and no
                    notes.append(f"Column {_q(col)!r}: {share:.0%} of its answers ({seen} "
                                 f"…) are not in the built-in encoding table's entry for this "
                                 f"name ({table}); it was read from the file as a column "
                                 "the table does not know.")
        out = base.without(misfits)
        # a test "not taken" in a column of its results is a gap before the column's role
        # is judged (walk-through 86's lamotrigine level: 73 "not taken" beside 67 numbers),
        # and so is one "not indicated" in a column of numbers however it is named
        # (walk-through 96's carotid stenosis: 39 "not indicated" called unreadable text)
        for col in cols:
            if col in chosen or norm_key(col) in mine:
                continue
            keys = not_taken_keys(col)
            found = pd.unique(cell_text(df[col]).str.strip())
            said = [str(v) for v in found if norm_key(str(v)) in (keys or NOT_MEASURED_WRITTEN)]
            if said and not keys:
                gaps = out.missing_keys(col) | {norm_key(v) for v in said}
                if _number_share(df[col], gaps, column_units(df[col], col, gaps)
                                 ) < self.numeric_threshold:
                    said = []
            if said:
                out.set_missing_tokens([*out.column_missing_tokens().get(col, []), *said],
                                       column=col)
        return out

    @staticmethod
    def _check_frame(df) -> pd.DataFrame:
        """Refuse what is not a DataFrame with rows and unique column names."""
        if not isinstance(df, pd.DataFrame):
            raise DataError("The Encoder takes a pandas DataFrame (use sparge.read_table "
                            "to read a CSV).")
        if df.shape[0] == 0:
            raise DataError("The table has no patient rows.")
        if df.columns.duplicated().any():
            dups = sorted({_q(c, 60) for c in df.columns[df.columns.duplicated()]})
            raise DataError(f"Duplicate column name(s): {dups[:10]}.")
        return df

    def _infer_role(self, col: str, values: pd.Series, table: EncodingTable,
                    units: ColumnUnits | None = None) -> str:
        """Role of a column from its values: numeric, categorical or ignore (free text).

        Cells written with the column's unit (``units.unit``: its name's, else the only
        one its cells are written with, :func:`~sparge.data.parsing.column_units`) count
        as numbers, as :meth:`_encode` reads them."""
        if table.has(col) or pd.api.types.is_bool_dtype(values):
            return "categorical"
        missing = table.missing_keys(col)
        if units is None:
            units = column_units(values, col, missing)
        if _number_share(values, missing, units) >= self.numeric_threshold:
            return "numeric"
        text = cell_text(values)
        keys = cell_keys(text)
        keys = keys[(keys != "") & ~keys.isin(missing)]
        n_levels = keys.nunique()
        if n_levels == 0:
            return "numeric"  # all missing: dropped later as an all-missing column
        if n_levels > self.max_levels and (groups := synonym_groups(col)):
            # spellings of one answer count once: walk-through 45's smoking status, "quit
            # 2015", "quit 2009" …, was left out as free text
            first = {w: g[0] for g in groups for w in g}
            n_levels = len({first.get(loose_key(k), k) for k in keys.unique()})
        if self.max_levels < n_levels <= _PAIRED_LEVELS * self.max_levels:
            # ... and so do answers the pairing rules offer to merge: walk-through 52's
            # care cluster, 14 clusters in 63 spellings ("8", "cl 8", "Cluster 8", "C8",
            # "8 - Non-psychotic"), was left out as free text
            n_levels = _paired_count(text[keys.index], keys, col)
        if n_levels > self.max_levels:
            return "ignore"
        return "categorical"

    def _label_missing(self, lab: pd.Series) -> np.ndarray:
        """Outcome cells that are missing: empty, or a missing token; "None"/"Nil" are an
        outcome class when common (an "unknown" outcome is never a class)."""
        table = self.table_ if hasattr(self, "table_") else self._base_table()
        text = cell_text(lab)
        keys = cell_keys(text)
        miss = (text == "") | keys.isin(table.missing_keys(self.label_column))
        # ... or an outcome not known, with where the patient went (walk-through 72's
        # "Transferred out - not known" and "Unknown (repatriated)" were two more outcomes)
        miss |= text.str.lower().str.strip().str.contains(_OUTCOME_NOT_KNOWN, regex=True)
        for word in ("none", "nil"):
            hit = keys == word
            if hit.sum() >= min_category_count(len(text)):
                miss &= ~hit
        return miss.to_numpy()

    # ------------------------------------------------------------------ fit
    def fit(self, X: pd.DataFrame, y=None) -> Encoder:
        """Learn the roles, the encoding table and the filters of a patient table.

        Parameters
        ----------
        X : pandas.DataFrame
            The patient table (text cells or numbers), one row per patient.
        y : ignored
            The outcome is a column of ``X`` (``label_column``).

        Returns
        -------
        Encoder
            ``self``, fitted; ``report_`` says what was read.

        Raises
        ------
        DataError
            Not a DataFrame, no rows, duplicate column names or patient IDs, a role or an
            id/label column that does not fit the table.
        """
        self._fit_transform(X)
        return self

    def fit_transform(self, X: pd.DataFrame, y=None, **fit_params) -> np.ndarray:
        """Fit on a patient table and return it encoded.

        Parameters
        ----------
        X : pandas.DataFrame
            The patient table, one row per patient.
        y : ignored
        **fit_params : ignored

        Returns
        -------
        ndarray of shape (n_patients, n_features_out)
            Every row (``keep_patients_`` says which to train on); ``NaN`` = missing.
        """
        return self._fit_transform(X)

    def roles_of(self, df: pd.DataFrame) -> dict[str, str]:
        """Every column's role as :meth:`fit` would set it on ``df`` (the ID and outcome
        columns, the user's ``roles``, else inferred, with the columns left out by default
        as ``"ignore"``), without encoding anything.

        Raises
        ------
        DataError
            When a role, the ID column or the outcome column does not fit the table.
        """
        return self._roles_and_lists(df)[0]

    def feature_column_count(self, df: pd.DataFrame) -> int:
        """How many columns of ``df`` :meth:`fit` would use as features, a list column
        (:mod:`sparge.data.answer_lists`) counted once, as the threshold on a patient's
        gaps counts it (:meth:`feature_weights`), without encoding anything.

        Raises
        ------
        DataError
            As :meth:`roles_of`.
        """
        roles, lists = self._roles_and_lists(df)
        return (sum(role in ("numeric", "categorical") for role in roles.values())
                - sum(len(items) - 1 for items in lists.values()))

    def _roles_and_lists(self, df: pd.DataFrame
                         ) -> tuple[dict[str, str], dict[str, list[str]]]:
        """:meth:`roles_of`, and the list columns read as yes/no columns on the way."""
        # a column of TNM stages as its three parts (read_table splits it already; a
        # DataFrame given directly alike), a list column as its answers
        df = add_ages(self._check_frame(df), self.ages)[0]
        df, lists, _ = split_lists(split_cells(df), skip=self._kept_whole())
        cols = [str(c) for c in df.columns]
        df = df.set_axis(cols, axis=1)
        return self._roles(df, cols, self._fitting_base(df, cols)), lists

    def _kept_whole(self) -> set[str]:
        """Columns never read as answer lists: the ID, the outcome and those the user gave
        a role (:func:`~sparge.data.answer_lists.split_lists`)."""
        return ({str(c) for c in (self.id_column, self.label_column) if c is not None}
                | {str(c) for c in (self.roles or {})})

    def _roles(self, df: pd.DataFrame, cols: list[str], base: EncodingTable,
               reasons: dict[str, list[str]] | None = None,
               units: dict[str, ColumnUnits] | None = None,
               plans: dict[str, UnitPlan] | None = None) -> dict[str, str]:
        """Every column's role: id and label columns, the user's roles, else inferred.

        ``reasons`` (filled when given) lists the columns left out by default per reason
        (:meth:`_left_out_why`); ``units`` (filled when given) the units of the columns
        whose role was inferred (:func:`~sparge.data.parsing.column_units`); ``plans``
        (filled when given) how the columns written in several units are read in one
        (:func:`~sparge.data.unit_conversion.plan_units`): such a column is numeric."""
        overrides = {str(k): v for k, v in (self.roles or {}).items()}
        for col, role in overrides.items():
            if role not in ROLES:
                raise DataError(f"Role {_q(role, 40)!r} for column {_q(col)!r} is not one of "
                                f"{ROLES}.")
            if col not in cols:
                raise DataError(f"A role is given for column {_q(col)!r}, which is not in the "
                                f"table (columns: {[_q(c, 40) for c in cols[:10]]}…).")
        for name, attr in (("id", self.id_column), ("label", self.label_column)):
            if attr is not None and str(attr) not in cols:
                raise DataError(f"The {name} column {_q(attr)!r} is not in the table; columns "
                                f"are: {[_q(c, 40) for c in cols[:15]]}"
                                f"{'…' if len(cols) > 15 else ''}.")
        roles: dict[str, str] = {}
        unit_columns = unit_column_pairs(df)  # "FT4 units" beside "Free T4"
        for col in cols:
            if col == self.id_column:
                roles[col] = "id"
            elif col == self.label_column:
                roles[col] = "label"
            elif col in overrides:
                roles[col] = overrides[col]
            else:
                found = (None if base.has(col) else
                         column_units(df[col], col, base.missing_keys(col)))
                if units is not None and found is not None:
                    units[col] = found
                plan = (plan_units(col, df[col], found, base.missing_keys(col))
                        if found is not None and found.written else None)
                if plan is not None and plans is not None:
                    plans[col] = plan
                roles[col] = ("numeric" if plan is not None and found.share_with_units()
                              >= self.numeric_threshold
                              else self._infer_role(col, df[col], base, found))
                why = ("unit column" if col in unit_columns else
                       self._left_out_why(col, df[col], roles[col], base, found))
                # a later measurement of another column (walk-through 52's "HoNOS at 3/12
                # review" beside "HoNOS total"), and the staff a patient is with
                # (said so before "another outcome": "post-op Oxford score 6m" is the
                # pre-operative score measured again)
                if why in (None, "other outcome") and \
                        later_measurement_of(col, cols) is not None:
                    why = "later measurement"
                if why is None and roles[col] == "categorical" and \
                        (names_staff(col) or names_site(col)) and \
                        yes_no_codes(list(spellings(df[col])[0].values())) is None:
                    why = "staff" if names_staff(col) else "site"
                if why is not None:
                    roles[col] = "ignore"
                    if reasons is not None:
                        reasons.setdefault(why, []).append(col)
        return roles

    def _left_out_why(self, col: str, values: pd.Series, role: str,
                      table: EncodingTable, units: ColumnUnits | None = None) -> str | None:
        """Why a column is left out by default ("follow-up", "identifier", "mixed units",
        "dates", "free text", "levels"), or ``None`` for a feature. The user's roles are never
        second-guessed. "mixed units": numbers, most of them written with a unit, in two
        units or more ("mg/dl" and "µmol/l"), which cannot be compared as they are."""
        if looks_like_follow_up(col):
            return "follow-up"
        if self.label_column is not None and col != str(self.label_column) and \
                later_outcome_named(col):
            return "other outcome"
        if named_like_id(col):
            return "identifier"
        if role == "numeric":
            return None
        if (units is not None and units.mixed
                and units.share_with_units() >= self.numeric_threshold):
            return "mixed units"
        text = cell_text(values)
        if looks_like_dates(text):
            return "dates"
        if role == "ignore":
            return "levels"  # more distinct text answers than max_levels
        if table.has(col):
            return None
        keys = cell_keys(text)
        filled = text[(text != "") & ~keys.isin(table.missing_keys(col))]
        if looks_like_free_text(col, list(pd.unique(filled))):
            return "free text"
        return None

    def _check_ids(self, df: pd.DataFrame) -> bool:
        """Refuse a table whose ID column repeats an ID, unless only on rows copied in
        every column: then ``True``, and the copies are left out of training."""
        if self.id_column is None or self.id_column not in df.columns:
            return False
        if ids_repeat_only_in_copies(df, self.id_column):
            return True
        said = repeated_ids(df, self.id_column)
        episodes = separate_records(df, self.id_column) if said else None
        if episodes:
            raise DataError(f"Duplicate patient IDs in column {_q(self.id_column)!r}: {said}. "
                            f"Every row needs a unique ID, and {episodes}.")
        if said:
            raise DataError(f"Duplicate patient IDs in column {_q(self.id_column)!r}: {said}. "
                            "Every patient needs a unique ID: fix the file (delete a row "
                            "written twice; keep one visit of a patient seen more than "
                            "once, such as the latest, the visit you compare; give two "
                            "patients sharing an ID their own), or choose no ID column.")
        return False

    def _user_merges(self, table: EncodingTable, col: str) -> EncodingTable:
        """``table`` with the pairs the user merged in ``col`` (``merge_pairs``)."""
        pairs = [list(p) for p in (self.merge_pairs or {}).get(col, [])]
        return _merged_in_order(table, col, pairs) if pairs and table.has(col) else table

    def _build_table(self, df: pd.DataFrame, cols: list[str], roles: dict[str, str],
                     base: EncodingTable
                     ) -> tuple[EncodingTable, dict[str, list[tuple[str, str]]]]:
        """The encoding table of the categorical columns: the base table's, else inferred;
        and the inferred columns by kind, for the report's note (:func:`inferred_note`,
        written once the columns that leave the model are known)."""
        table = EncodingTable(missing_tokens=base.missing_tokens)
        for col, toks in base.column_missing_tokens().items():
            table.set_missing_tokens(toks, column=col)
        inferred: dict[str, list[tuple[str, str]]] = {"yes/no": [], "scale": [], "two": [],
                                                      "other": []}
        for col in cols:
            if roles[col] != "categorical":
                continue
            if base.has(col):
                # the table's levels, spelled as the file spells them ("no", not "No")
                spelled = spellings(df[col])[0]
                levels = {spelled.get(norm_key(lv), lv): code
                          for lv, code in base.levels(col).items()}
                table.set_column(col, self._with_register_no(col, levels),
                                 ordered=base.is_ordered(col))
                table = self._user_merges(table, col)
                continue
            # "Gx" in a grade column: not assessed, a gap (walk-through 25)
            answers = list(spellings(df[col])[0].values())
            # ... and a test "not taken" in its results' column (walk-through 61)
            gaps = not_assessed_levels(answers, col) + not_taken_levels(answers, col)
            if gaps:
                table.set_missing_tokens(
                    [*table.column_missing_tokens().get(col, []), *gaps], column=col)
            levels, ordered, scale = infer_levels(df[col], table.missing_keys(col))
            levels = dict(sorted(levels.items(), key=lambda kv: kv[1]))
            table.set_column(col, self._with_register_no(col, levels), ordered=ordered)
            if self.merge_spellings and levels:  # "F" and "Female" one answer in a Sex
                pairs = [p for p in two_way_pairs(table, [col]).get(col, [])  # column
                         if same_answer(p[0], p[1], col)]
                paired = {a for a, _ in pairs} | {b for a, b in pairs}
                # "N" beside "No" (and "Y" beside "Yes", "none" beside "No") in a column
                # read as no yes/no scale: walk-through 91's Prior ASCVD, event kinds
                # with No, N and none
                keyed = {norm_key(lv): lv for lv in levels}
                pairs += [[keyed[short], keyed[full]] for short, full in
                          (("n", "no"), ("y", "yes"), ("none", "no"), ("nil", "no"))
                          if short in keyed and full in keyed
                          and levels[keyed[short]] != levels[keyed[full]]
                          and not paired & {keyed[short], keyed[full]}]
                paired = {a for a, _ in pairs} | {b for a, b in pairs}
                pairs += [p for p in spelling_pairs(list(levels),
                                                      spellings(df[col])[1])
                          if not paired & set(p) and levels[p[0]] != levels[p[1]]]
                if pairs:
                    table = _merged_in_order(table, col, pairs)
                    self.merged_spellings_[col] = pairs
                    levels = dict(sorted(table.levels(col).items(), key=lambda kv: kv[1]))
            if (self.merge_pairs or {}).get(col):  # the pairs the user merged
                table = self._user_merges(table, col)
                levels = dict(sorted(table.levels(col).items(), key=lambda kv: kv[1]))
            if levels:
                shown = [f"{_q(lv, 30)} {c}" for lv, c in levels.items()]
                # a yes/no column with other answers too ("Metastatic") is coded the
                # paper's way, not in natural order (a walk-through's note said so)
                yes_no = scale == "yes/no" or yes_no_codes(list(levels)) is not None
                kind = ("yes/no" if yes_no else "scale" if scale is not None
                        else "two" if len(levels) == 2 else "other")
                # one entry per code: walk-through 78's ASA grade listed 21 spellings of 4
                by_code: dict[object, list[str]] = {}
                for lv, c in sorted(levels.items(), key=lambda kv: (kv[1], kv[0])):
                    by_code.setdefault(c, []).append(_q(lv, 30))
                if len(by_code) < len(levels):
                    shown = ["/".join(lvs[:2]) + ("/…" if len(lvs) > 2 else "")
                             + f" {format_number(c)}" for c, lvs in by_code.items()]
                how = (f"{scale} scale: {' < '.join(shown)}" if kind == "scale" else
                       ", ".join(shown[:4]) + (" …" if len(shown) > 4 else "")
                       if kind != "yes/no" or max(levels.values()) > 2 else "")
                # a declined treatment read as a no is said (walk-through 43); only where
                # it is (walk-through 48's smoking "declined" was an answer of its own)
                declined = [lv for lv in levels if norm_key(lv) in DECLINED_WORDS
                            and kind == "yes/no" and levels[lv] == 2]
                if declined:
                    how = (how + "; " if how else "") + ", ".join(
                        f"'{_q(lv, 20)}'" for lv in declined) + " read as No: not given"
                inferred[kind].append((col, how))
        return table, inferred

    def _fit_transform(self, df: pd.DataFrame) -> np.ndarray:
        """Fit on ``df`` and return its encoded features (every row)."""
        # a column of TNM stages as its three parts, of blood pressures as its two
        # (read_table splits them already; a DataFrame given directly alike)
        df, self.ages_, _ = add_ages(self._check_frame(df), self.ages)
        df = split_cells(df)
        # the analogue scales' tops, a new patient's "45mm" read on them
        self.scales_ = dict(df.attrs.get(SCALES_ATTR, {}))
        # the autoantibodies' cut-offs, a new patient's "86 IU/mL" read by them
        self.cut_offs_ = dict(df.attrs.get(CUT_OFFS_ATTR, {}))
        # the Gleason scores read as grade groups, a new patient's "7" alone read so too
        self.gleason_columns_ = list(df.attrs.get(GLEASON_ATTR, []))
        # the bands written beside an ejection fraction's words, a new patient's "good"
        # read as the training patients' "good (>50%)"
        self.word_bands_ = {c: dict(b) for c, b in df.attrs.get(WORD_BANDS_ATTR, {}).items()}
        # each visual acuity column's scale, a new patient's "70" (letters) read on it
        self.acuity_scales_ = dict(df.attrs.get(ACUITY_SCALES_ATTR, {}))
        whole = df  # a list's column as written: it may name the drug of a level
        report = self._start_report(df)
        # a column of answer lists ("DM, HTN, CKD") as one yes/no column per answer
        df, self.answer_lists_, notes = split_lists(df, skip=self._kept_whole())
        report.notes += notes
        # a test the patient could not do ("unable"), beside its column (walk-through 102b)
        df, self.untestable_, notes = split_untestable(
            df, skip={str(c) for c in (self.id_column, self.label_column) if c is not None})
        report.notes += notes
        cols = [str(c) for c in df.columns]
        df = df.set_axis(cols, axis=1)
        # an ID repeated only on copied rows: the copies leave training, not the ID
        leave_copies = self._check_ids(df) or self.leave_out_copies
        copies = warn_copied_rows(df, report, leave_copies)
        base = self._fitting_base(df, cols, report.notes)
        reasons: dict[str, list[str]] = {}
        units: dict[str, ColumnUnits] = {}
        plans: dict[str, UnitPlan] = {}
        roles = self._roles(df, cols, base, reasons, units, plans)
        # a table that has an age already is not offered one (walk-through 106's note
        # pointed to an "Add an age" the page did not show)
        report_left_out(reasons, self.max_levels, report, cols, aged=bool(self.ages_),
                        has_age=age_column([c for c in cols if roles.get(c) == "numeric"])
                        is not None)
        # why each column left out by default is, for the Column roles tab (walk-through
        # 58 scrolled the report to learn why its GCS was 'ignore')
        self.left_out_why_ = {
            c: (f"more than {self.max_levels} different text answers" if why == "levels"
                else LEFT_OUT_WORDS.get(why, why)) for why, cs in reasons.items() for c in cs}
        self._learn_label_spellings(df, report)
        self.rare_outcomes_ = {}
        self.value_units_ = {}  # read again below: a refit must not keep the last table's
        self.plain_splits_: dict[str, list] = {}  # by _learn_units
        self.units_, self.unit_conversions_ = self._learn_units(df, roles, base, units,
                                                                reasons, report, plans)
        self.thousands_dot_ = self._learn_thousands_dot(df, roles)
        self.thousands_comma_ = self._learn_thousands_comma(df, roles)
        self.score_maxima_: dict[str, int] = {}  # learned as the columns are read
        self.detection_limits_: dict[str, float] = {}
        self.split_limits_: dict[str, dict[float, float]] = {}
        self.zero_columns_: list[str] = []
        self.unable_values_: dict[str, float] = {}
        self.unlimited_values_: dict[str, float] = {}
        self.merged_spellings_: dict[str, list[list[str]]] = {}  # by _build_table
        self.table_, inferred = self._build_table(df, cols, roles, base)
        if self.merged_spellings_:
            report.notes.append(merged_note(self.merged_spellings_))
        # an ASA grade's "E" (an emergency operation) is read as its grade: said, once
        # (walk-through 92 found it dropped without a word)
        for col in cols:
            if roles[col] == "categorical" and self.table_.has(col) and \
                    scale_of(set(map(norm_key, self.table_.levels(col))), col) == "asa":
                with_e = [lv for lv in self.table_.levels(col) if ASA_EMERGENCY.search(lv)]
                if with_e:
                    counts = cell_text(df[col]).map(norm_key).isin(
                        {norm_key(lv) for lv in with_e}).sum()
                    report.notes.append(
                        f"Column '{_q(col)}': {int(counts):,} grade(s) written with the E "
                        f"of an emergency operation ({quoted_names(with_e[:3], width=10)}) "
                        "read as the grade; the E is not kept (an urgency column says "
                        "it, when the table has one).")
        note_at = len(report.notes)  # the note keeps its place among the fitting steps
        self.roles_ = roles
        self.input_columns_ = cols
        features = [c for c in cols if roles[c] in ("numeric", "categorical")]
        # rows of the cells written as a limit ("<0.1", "not detected"), by column: the
        # laboratory's limit, never a value to check (this table's, not kept)
        limit_rows: dict[str, np.ndarray] = {}
        # ... and of those written with a unit ("283 pg/mL": never a plain number whose
        # unit is unsure)
        unit_rows: dict[str, np.ndarray] = {}
        X = self._filter_features(self._encode(df, features, report,
                                               limit_rows=limit_rows, unit_rows=unit_rows),
                                  features, report)
        labels = (self.labels(df) if self.label_column is not None
                  and self.label_column in df.columns else None)  # read once for all
        if labels is not None:
            X = self._leave_out_leaks(X, labels, report)
            self._left_out_leaks(df, labels, report)
            at_birth = recorded_at_birth(self.feature_names_out_, self.label_column)
            if at_birth:
                report.at_birth = at_birth
                report.warnings.append(at_birth_message(at_birth, str(self.label_column)))
        # the columns still in the model (a leak left out was counted among 7 inferred
        # columns of a report listing 6 categories)
        # nor a column dropped as constant (walk-through 21: a one-answer outcome made
        # "10 categorical columns" beside a report listing 9)
        kept = set(self.feature_names_out_)
        note = inferred_note({kind: [c for c in cs if self.roles_[c[0]] == "categorical"
                                      and c[0] in kept]
                               for kind, cs in inferred.items()})
        if note:
            report.notes.insert(note_at, note)
        report.answers_two_ways = two_way_pairs(
            self.table_, [c for c in self.feature_names_out_
                          if self.roles_[c] == "categorical"], df)
        short = abbreviation_note(df, report.answers_two_ways)
        if short:  # a warning: each pair splits look-alikes (walk-through 20's "Male"
            report.warnings.append(short)  # patient got "Female" look-alikes)
        warn_same_patient_rows(df, X, self.naming_column(df), copies, report,
                               used=[c for c, r in self.roles_.items()
                                     if r not in ("ignore", "label")],
                               outcome=self.label_column)
        warn_rows_under_another_id(df, X, self.naming_column(df), copies, report)
        warn_episodes_after_death(df, self.naming_column(df), report)
        self.value_units_ = self._units_from_values(X, report)
        # the cells written as a limit are known once every column is read: never a value
        # to check
        self._far_values(X, report, limits=limit_rows, unit_rows=unit_rows)
        if self.clear_far or self.convert_slips:
            X = self._cleared(X, report)
        X = self._derive_body_size(X, report)
        X = self._derive_never_smoked(X, report)
        # an age at a past event above the patient's age: one of the two is wrong
        names = list(self.feature_names_out_)
        age = age_column(names)
        for col, rows in ages_after_age(names, X, age).items():
            report.warnings.append(
                f"'{_q(col)}' is above the patient's '{_q(age)}' for "
                f"{len(rows):,} patient{'s' if len(rows) != 1 else ''} (CSV "
                f"{csv_lines([int(r) + 2 for r in rows[:5]])}{' …' if len(rows) > 5 else ''}"
                "): one of the two values is wrong. They are used as given; correct the "
                "file and encode again.")
        self._summarise_features(X, report)
        self._select_patients(df, X, report, labels,
                              copies if leave_copies and copies.any() else None, whole)
        # after the gaps by design are known: a Montreal part's gaps for the other
        # diagnosis are no register's No (walk-through 68)
        self._blank_as_no_notes(df, report)
        self._blank_as_no_keeps(df, X, report)
        report.copied_rows = [int(i) + 2 for i in np.flatnonzero(copies)]
        if leave_copies and copies.any():
            self.keep_patients_ &= ~copies
            report.copies_left_out = True
            report.notes.append(
                f"{int(copies.sum()):,} row(s) repeating an earlier row in every column "
                f"(CSV {csv_lines(report.copied_rows[:5])}"
                f"{' …' if copies.sum() > 5 else ''}) left out of training; the first of "
                "each is kept"
                + (f" (their {_q(self.id_column)!r} repeats only on these copies)."
                   if not self.leave_out_copies else "."))
        aside = None if labels is None else self._set_aside_rare_outcomes(labels, report)
        if aside is not None and aside.any():
            labels = np.where(aside, None, labels)
        self._label_checks(labels, report, aside)
        self._check_training_size(report)
        # how a column left out of the model was read is no news: walk-through 93 read
        # "117 cells read as UK units a week" for an alcohol column then left out as text
        out = {c for c in cols if self.roles_.get(c) == "ignore"}
        report.notes = [n for n in report.notes if not (
            (m := re.match(r"Column '(.{1,200}?)': ", n)) and m.group(1) in out
            and "left out" not in n and "ignored" not in n)]
        self.report_ = report
        self.n_features_in_ = len(cols)
        return X

    def _cleared(self, X: np.ndarray, report: ValidationReport) -> np.ndarray:
        """``X`` with the values to check converted from their probable unit or missing, as
        :func:`~sparge.data.encoding_notes.far_treatments` says for ``clear_far`` and
        ``convert_slips`` (the warning's words come from the same rule)."""
        X = X.copy()
        pos = {f: j for j, f in enumerate(self.feature_names_out_)}
        treated = far_treatments(report.values_to_check, report.impossible, self.clear_far,
                                 self.convert_slips)
        for (feature, row, _, _, converted), how in zip(report.values_to_check, treated,
                                                       strict=True):
            if how != "used as given":
                X[int(row), pos[feature]] = np.nan if converted is None else converted
        return X

    def _derive_body_size(self, X: np.ndarray, report: ValidationReport) -> np.ndarray:
        """Learn ``body_size_`` (:func:`~sparge.data.body_size.find_body_size`) and return
        ``X`` with the BMI, weight or height computed where one is missing and the other
        two given, with a note (walk-through 78's registry wrote a BMI or a weight and a
        height: the threshold on missing values kept patients by how they were written)."""
        names = list(self.feature_names_out_)
        numeric = [j for j, f in enumerate(names) if self.roles_.get(f) == "numeric"]
        self.body_size_ = find_body_size([names[j] for j in numeric], X[:, numeric],
                                         self.unit_of) or {}
        if not self.body_size_:
            return X
        X, computed = derive_body_size(X, names, self.body_size_)
        rule = self.body_size_
        said = {rule["bmi"]: "BMI", rule["weight"]: "weight", rule["height"]: "height"}
        made = [f"{int(rows.sum()):,} {said[col]}" + ("s" if rows.sum() != 1 else "")
                for col, rows in computed.items()]
        only = int(size_given_mask(X, names, rule).any(axis=1).sum())
        report.notes.append(
            f"Columns '{_q(rule['bmi'])}', '{_q(rule['weight'])}' and '{_q(rule['height'])}'"
            " are one body size (BMI = weight / height², as this table's values agree)"
            + (": " + " and ".join(made) + " computed from the other two where one was "
               "missing" if made else "")
            + (f"; the {only:,} patients with a BMI and no weight or height do not have "
               "those gaps counted against their share of missing values (the BMI gives "
               "their size)" if only else "") + ".")
        return X

    def _derive_never_smoked(self, X: np.ndarray, report: ValidationReport) -> np.ndarray:
        """Learn ``never_smoked_`` (:func:`~sparge.data.never_smoked.find_never_smoked`) and
        return ``X`` with the pack-years gaps of never-smokers set to 0, with a note
        (walk-through 103's never-smokers' "n/a" pack-years were completed as unknown)."""
        names = list(self.feature_names_out_)
        self.never_smoked_ = find_never_smoked(
            names, self.roles_, {f: self.table_.levels(f) for f in names
                                 if self.roles_.get(f) == "categorical" and self.table_.has(f)})
        X, rows = fill_never_smoked(X, names, self.never_smoked_)
        if rows.any():
            rule = self.never_smoked_
            n = int(rows.sum())
            report.notes.append(
                f"'{_q(rule['pack_years'])}' is 0 for the {n:,} patient"
                f"{'s' if n != 1 else ''} whose '{_q(rule['smoking'])}' says never smoked and "
                "whose pack-years are left empty or 'n/a': none smoked, not a number the "
                "model guesses (a new patient's too).")
        return X

    def _units_from_values(self, X: np.ndarray, report: ValidationReport) -> dict[str, str]:
        """The units of the numeric columns that neither their name nor their cells give,
        read from their values (:func:`~sparge.data.plausible.unit_from_values`: a
        "Creatinine" of median 1.1 is in mg/dL), with a note: what the far values and a
        new patient's values are checked against (walk-through 27's creatinines in µmol/L
        could not be converted for want of the column's unit)."""
        found = {}
        for j, name in enumerate(self.feature_names_out_):
            if self.roles_[name] != "numeric" or self.unit_of(name) is not None:
                continue
            unit = unit_from_values(name, X[:, j])
            if unit is not None:
                found[name] = unit
        if found:
            report.notes.append(
                "No unit in the name of " + quoted_names(list(found)) + ": read as "
                + ", ".join(f"'{_q(u, 20)}'" for u in found.values())
                + " from the values most patients have; a value impossible in that unit is "
                "listed among the values to check.")
        return found

    def _unsure_units(self, X: np.ndarray, num: list[int], report: ValidationReport,
                      unit_rows: Mapping[str, np.ndarray]) -> None:
        """Warn of the plain numbers of a column that writes some cells in another unit
        which are likelier in that unit than in the column's, but not certain enough to be
        converted (:func:`~sparge.data.plausible.mixed_unit`'s ``unsure``): re-check 106b's
        30 PTHs in pg/mL of 42 to 253, as likely pmol/L, were used unsaid. They are used as
        given; the warning names them for the user to check."""
        names = self.feature_names_out_
        conversions = getattr(self, "unit_conversions_", {})
        for j in num:
            written = list(conversions.get(names[j], {}))
            unit = self.unit_of(names[j])
            if not written or unit is None:
                continue
            unsure, other, _ = mixed_unit(names[j], unit, X[:, j], written, unsure=True)
            unsure[np.asarray(unit_rows.get(names[j], []), dtype=int)] = False
            rows = np.flatnonzero(unsure)
            if not len(rows):
                continue
            v = X[rows, j]
            report.warnings.append(
                f"'{_q(names[j])}': {len(rows):,} value(s) written without a unit "
                f"({format_number(float(v.min()))} to {format_number(float(v.max()))}; "
                + ", ".join(f"CSV line {r + 2}" for r in rows[:4])
                + (f" and {len(rows) - 4:,} more" if len(rows) > 4 else "")
                + f") may be in '{_q(other)}', as other cells of the column are written: "
                f"likelier so than in '{_q(unit)}', too unsure to convert. They are used as "
                f"'{_q(unit)}': check them in the file and write their unit.")

    def _far_values(self, X: np.ndarray, report: ValidationReport,
                    limits: Mapping[str, np.ndarray] | None = None,
                    unit_rows: Mapping[str, np.ndarray] | None = None) -> None:
        """List the numbers far from the rest of their column (a typo or another unit,
        :mod:`sparge.data.far_values`) and those impossible in the column's unit but
        possible in another (:func:`~sparge.data.plausible.unit_slips`: walk-through 27's
        temperatures in °C among °F) in ``report.values_to_check`` and a warning. They
        are used as given: :func:`sparge.services.workflow.encode_cohort` can set them to
        missing (walk-through 21: a sodium of 1380 went unremarked, made its patient a top
        look-alike and widened the range the New patient page checks against).
        ``limits``: ``{column: rows}`` of the cells written as a limit ("<0.1"), the
        laboratory's and never values to check; ``unit_rows``: of those written with a
        unit, whose unit is never unsure (:meth:`_unsure_units`)."""
        names = self.feature_names_out_
        num = [j for j, c in enumerate(names) if self.roles_[c] == "numeric"]
        self._unsure_units(X, num, report, unit_rows or {})
        if not num:
            return
        # and values no patient can have (walk-through 48's ages of 167)
        # ... and in the column's unit (walk-through 90's HDL cholesterol of 0 mmol/L, near
        # the others, was not named)
        impossible = np.column_stack([
            impossible_values(names[j], X[:, j])
            | impossible_in_unit(names[j], self.unit_of(names[j]), X[:, j]) for j in num])
        # ... and an adult's weight under 20 kg (walk-through 93's 8.45 kg at 44 years)
        age = age_column([names[j] for j in num])
        if age is not None and not re.search(r"month|week|day", str(age), re.IGNORECASE):
            ages = X[:, names.index(age)]
            for c, j in enumerate(num):
                impossible[:, c] |= adult_weight_slips(names[j], X[:, j], ages,
                                                       self.unit_of(names[j]))
        # a value written as a limit is the laboratory's ("<0.1" of an undetectable PSA:
        # walk-through 80 was offered to set 12 of them to missing as misplaced points)
        limit = np.zeros(impossible.shape, dtype=bool)
        for c, j in enumerate(num):
            limit[(limits or {}).get(names[j], []), c] = True
        plain = (far_mask(X[:, num]) & ~limit) | impossible
        for c, j in enumerate(num):  # a marker's far-high value is the disease
            if RISES_BY_ORDERS.search(names[j]) and plain[:, c].any():
                plain[:, c] &= ~(X[:, j] > np.nanmedian(X[:, j])) | impossible[:, c]
        # and a child's weight far from the cohort's children of that age (walk-through
        # 50's 221 kg at 5 years, among weights of 3 to 80 kg)
        by_age, trends = self._far_for_age(X, num)
        # ... the plain numbers among them in a unit other cells of the column write
        # ("283 pg/mL" beside plain "673" among pmol/L: walk-through 106)
        conversions = getattr(self, "unit_conversions_", {})
        slips = [unit_slips(names[j], self.unit_of(names[j]), X[:, j],
                            written=list(conversions.get(names[j], {})))
                 for j in num]
        slipped = np.column_stack([s[0] for s in slips])
        # a column mostly in another unit: far is judged on it converted (its few g/L
        # haemoglobins among g/dL ones are not far; a 0.22 mg/dL creatinine is)
        mostly = slipped.sum(axis=0) > np.isfinite(X[:, num]).sum(axis=0) / 2
        for c, j in enumerate(num):
            if mostly[c]:
                fixed = np.where(slipped[:, c], slips[c][2], X[:, j])
                plain[:, c] = ((far_mask(fixed[:, None])[:, 0] & ~limit[:, c])
                               | impossible_values(names[j], fixed)) & ~slipped[:, c]
        far = plain | (by_age & ~limit)
        rows, cols = np.nonzero(far | slipped)
        if not len(rows):
            return
        report.values_to_check = []
        parts = []
        aged_any = False
        for c in np.unique(cols):
            col = X[:, num[c]]
            name = names[num[c]]
            # as the New patient form says it, without the cells in another unit; when
            # most cells are in another unit (a whole column of g/dL haemoglobins under
            # "(g/L)"), from all of them converted
            conv = slips[c][2]
            most = bool(mostly[c])
            lo, hi = typical_bounds(np.where(slipped[:, c], conv if most else np.nan, col))
            first = len(parts)
            hits = np.sort(rows[cols == c])
            slip = hits[slipped[hits, c]]
            odd = hits[~slipped[hits, c]]
            aged = odd[by_age[odd, c] & ~plain[odd, c]]
            if len(aged):
                aged_any = True
                parts.append(self._far_for_age_part(name, col, aged, trends[c], report))
                odd = np.setdiff1d(odd, aged)
            if len(odd):
                # converted into where the column's values are not far (its plausible
                # bounds): a haemoglobin of 160 g/L is 16 g/dL, above most patients' 15
                # ... and not far from where most patients lie: 724 kg in lb is 328 kg, no
                # adult's weight (walk-through 54: a lost decimal point, 72.4)
                plo, phi = log_bounds((np.where(slipped[:, c], conv, col) if most
                                       else col)[:, None])
                unit, fixed, fits = self._unit_guess(
                    name, col[odd], max(float(plo[0]), lo / 1.5), min(float(phi[0]), hi * 1.5),
                    wide=(float(plo[0]), float(phi[0])))
                if unit is not None:  # those in the unit, then any that are not (a -50)
                    parts.append(self._far_part(name, col, odd[fits], unit,
                                                list(np.asarray(fixed)[fits]), lo, hi, report))
                    odd = odd[~fits]
                if len(odd):
                    parts.append(self._far_part(name, col, odd, None, None, lo, hi, report,
                                                decimal=_decimal_shift(
                                                    col[odd], lo, hi, data_decimals(
                                                        np.delete(col, odd), most=3))))
            if len(slip) and not most:
                # a value impossible in the column's unit that another unit turns into a
                # value far below or above most patients, and a lost decimal point into
                # one among them: the decimal point (walk-through 90's total cholesterol
                # of 58 mmol/L is 5.8, not 58 mg/dL = 1.5 mmol/L)
                shifted = _decimal_shift(col[slip], lo, hi, data_decimals(
                    np.delete(col, slip), most=3)) or [np.nan] * len(slip)
                lost = np.array([(not lo / 1.5 <= conv[r] <= hi * 1.5) and np.isfinite(v)
                                 and lo <= v <= hi for r, v in zip(slip, shifted,
                                                                   strict=True)], bool)
                if lost.any():
                    parts.append(self._far_part(name, col, slip[lost], None, None, lo, hi,
                                                report, decimal=list(
                                                    np.asarray(shifted)[lost])))
                    slip = slip[~lost]
            if len(slip):
                source = slips[c][1]
                sources = [source[r] for r in slip]
                unit = max(set(sources), key=sources.count)
                same = slip[[u == unit for u in sources]]
                # the column's unit first, then its values far from the rest
                parts.insert(first if most else len(parts),
                             self._far_part(name, col, same, unit, list(conv[same]), lo,
                                            hi, report, whole=most))
                other = slip[[u != unit for u in sources]]
                if len(other):
                    parts.append(self._far_part(name, col, other, None, None, lo, hi,
                                                report))
        # of those not converted, the ones no patient can have in the column's unit or
        # scale (walk-through 77's HbA1c of 640 mmol/mol and eGFR of -5 went into training
        # as given): set to missing for training by default (``convert_slips``)
        never = {}
        for c in np.unique(cols):
            name = names[num[c]]
            # the unit read from the values too when the name says it unbracketed
            # (walk-through 79's "Lowest SpO2 %": 0.84 went into training as given)
            unit = self.unit_of(name) or getattr(self, "value_units_", {}).get(name)
            never[name] = impossible[:, c] | impossible_in_unit(name, unit, X[:, num[c]])
        report.impossible = [[f, r] for f, r, _, _, conv in report.values_to_check
                             if conv is None and never[f][r]]
        # each part says what training does with its values when they are not all
        # treated alike (walk-through 79 could not tell which of its weight of 925, AHI of
        # 1500 and necks in inches were converted, set to missing or used as given)
        treated = far_treatments(report.values_to_check, report.impossible, self.clear_far,
                                 self.convert_slips)
        alike = len(set(treated)) <= 1
        parts = [_SPAN.sub(lambda m: "" if alike else " — " + treatment_words(
            treated[int(m.group(1)):int(m.group(2))]), p) for p in parts]
        n = len(rows)
        # the advice first: a long list is cut at the report's 600 characters
        report.warnings.append(
            f"{n:,} value{'s' if n != 1 else ''} far from the rest of "
            f"{'its' if n == 1 else 'their'} column"
            + (", from those of the patients of the same age," if aged_any else "")
            + " or impossible in its unit (a typo or another unit?), "
            # walk-through 35: a library caller's clear_far=True report said "used as given"
            + (f"{FAR_VALUES_CLEARED}: " if self.clear_far else
               f"{far_values_default(report.values_to_check, len(report.impossible))}: "
               if self.convert_slips else f"{FAR_VALUES_ADVICE}: ")
            + "; ".join(parts[:8])
            + (f"; … (+{len(parts) - 8} columns)" if len(parts) > 8 else "") + ".")

    def _far_for_age(self, X: np.ndarray, num: list[int]
                     ) -> tuple[np.ndarray, dict[int, tuple[AgeTrend, np.ndarray]]]:
        """Which values of the numeric columns ``num`` are far from those of the patients
        of the same age (:mod:`sparge.data.for_age`), and for each column judged so (by
        its place in ``num``) its trend and the ages."""
        names = self.feature_names_out_
        out = np.zeros((X.shape[0], len(num)), bool)
        trends: dict[int, tuple[AgeTrend, np.ndarray]] = {}
        age = age_column([names[j] for j in num])
        if age is None:
            return out, trends
        ages = X[:, names.index(age)]
        for c, j in enumerate(num):
            if names[j] == age or not is_growth(names[j]):
                continue
            trend = age_trend(X[:, j], ages)
            if trend is not None:
                out[:, c] = far_for_age(X[:, j], ages, trend)
                trends[c] = (trend, ages)
        return out, trends

    def _far_for_age_part(self, name: str, col: np.ndarray, hits: np.ndarray,
                          found: tuple[AgeTrend, np.ndarray], report: ValidationReport
                          ) -> str:
        """Add a column's values far from those of the patients of the same age to
        ``report.values_to_check`` (never converted: a lost decimal point is no unit) and
        return the warning's words for them, each with where its age's patients lie."""
        trend, ages = found
        start = len(report.values_to_check)
        report.values_to_check += [[name, int(r), float(col[r]), None, None] for r in hits]
        shown = []
        for r in hits[:3]:
            lo, hi = typical_at(trend, float(ages[r]))
            d = data_decimals(col[np.isfinite(col)], most=1)
            shown.append(f"{format_number(col[r])} (CSV line {r + 2}, age "
                         f"{format_number(round(float(ages[r]), 1))}: most patients of "
                         f"that age {format_number(round(lo, d))}–"
                         f"{format_number(round(hi, d))})")
        more = f" and {len(hits) - 3} more" if len(hits) > 3 else ""
        return f"'{_q(name)}' " + ", ".join(shown) + more + _span_mark(
            start, len(report.values_to_check))

    def _far_part(self, name: str, col: np.ndarray, hits: np.ndarray, unit: str | None,
                  fixed: list[float] | None, lo: float, hi: float,
                  report: ValidationReport, decimal: list[float] | None = None,
                  whole: bool = False) -> str:
        """Add a column's values to check (``hits``, rows of ``col``) to
        ``report.values_to_check``, with their values converted from ``unit`` (``fixed``)
        when the slip repeats, and return the warning's words for them; with ``whole``,
        words for a column most of whose values are in ``unit``, not the unit its name
        says (``lo``–``hi`` are then where the converted values lie)."""
        # converted on the user's click only when the unit slip repeats: one value
        # that fits another unit may as well be a typo (walk-through 24's bilirubin
        # of 80 for 0.8 read as µmol/L: 4.68 mg/dL)
        converted = (fixed if fixed is not None and len(hits) >= MIN_UNIT_SLIPS
                     else [None] * len(hits))
        start = len(report.values_to_check)
        report.values_to_check += [[name, int(r), float(col[r]), unit, v]
                                   for r, v in zip(hits, converted, strict=True)]
        span = _span_mark(start, len(report.values_to_check))
        # as written: "16.2" for a HAQ-DI of 16.25 is not in the file (walk-through 66)
        given = typical_bounds(col[hits]) if whole else None
        if given is not None and unit is not None and fixed is not None:
            return (f"'{_q(name)}' {len(hits):,} of its {int(np.isfinite(col).sum()):,} "
                    f"values read as '{_q(unit, 20)}', not the "
                    f"'{_q(self.unit_of(name) or '', 20)}' its name says (most "
                    f"{format_number(given[0])}–{format_number(given[1])}, that is "
                    f"{format_number(lo)}–{format_number(hi)} "
                    f"{_q(self.unit_of(name) or '', 20)})" + span)
        shown = ", ".join(f"{format_given(col[r])} (CSV line {r + 2})" for r in hits[:3])
        more = f" and {len(hits) - 3} more" if len(hits) > 3 else ""
        said = ("" if fixed is None or unit is None else f" (in '{_q(unit, 20)}'? "
                + ", ".join(format_number(v) for v in fixed[:3])
                + (" …" if len(fixed) > 3 else "")
                + f" {_q(self.unit_of(name) or '', 20)}"
                # walk-through 54: named, and then set to missing by the click
                + ("" if len(hits) >= MIN_UNIT_SLIPS else
                   f"; fewer than {MIN_UNIT_SLIPS}, so not converted by the click")
                + ")")
        if decimal is not None:  # said only: the click sets them to missing
            said = (" (a misplaced decimal point? " + ", ".join(
                format_given(v) for v in decimal[:3]) + (" …" if len(decimal) > 3 else "")
                + ")")
        # "most patients" only when they are: walk-through 46's 306 fractions of 577
        # FEV1/FVC were the most
        most = "most patients" if 2 * len(hits) < np.isfinite(col).sum() else "the others"
        return (f"'{_q(name)}' {shown}{more}; {most} "
                f"{format_number(lo)}–{format_number(hi)}{said}{span}")

    def _unit_guess(self, column: str, values: np.ndarray, low: float, high: float,
                    wide: tuple[float, float] | None = None
                    ) -> tuple[str | None, list[float] | None, np.ndarray]:
        """The unit a column's far values were probably written in, the values converted
        from it and which of them it is for (a mask).

        All of them, when they all convert exactly from that one unit into where most
        patients lie (walk-through 22's HbA1c in mmol/mol among % values: ``("mmol/mol",
        [7.64, 6.82, …])``). Else, from :data:`MIN_UNIT_SLIPS` values on, those of the
        positive values that convert into ``wide`` (where the column's values are not
        far), when at least :data:`UNIT_SLIP_SHARE` of all the values convert into where
        most patients lie; the others (an impossible -50) are no slip of that unit.
        ``(None, None, no value)`` otherwise."""
        unit = self.unit_of(column)
        values = np.asarray(values, dtype=float)
        found = column_unit_guess(column, unit, values, low, high)
        if found is not None:
            return found[0], found[1], np.ones(len(values), bool)
        none = (None, None, np.zeros(len(values), bool))
        positive = values > 0
        if wide is None or positive.sum() < MIN_UNIT_SLIPS:
            return none
        found = column_unit_guess(column, unit, values[positive], *wide)
        if found is None:
            return none
        out = np.full(len(values), np.nan)
        out[positive] = found[1]
        if np.mean((out >= low) & (out <= high)) < UNIT_SLIP_SHARE:
            return none
        return found[0], list(out), positive

    def _learn_units(self, df: pd.DataFrame, roles: dict[str, str], base: EncodingTable,
                     units: dict[str, ColumnUnits], reasons: dict[str, list[str]],
                     report: ValidationReport, plans: dict[str, UnitPlan] | None = None
                     ) -> tuple[dict[str, str], dict[str, dict[str, tuple[float, float]]]]:
        """The unit each numeric column's cells are read with when its name gives none
        (``{column: unit as most often written}``, e.g. "mmHg") and the cells converted
        from another unit (``{column: {unit key: (factor, offset)}}``, ``plans``); a note
        for each conversion, a warning for each column that mixes units it cannot convert
        (left out, or numeric with those cells set to missing)."""
        plans = plans or {}
        learned: dict[str, str] = {}
        converted: dict[str, dict[str, tuple[float, float]]] = {}
        self._left_units: dict[str, set[str]] = {}  # said by the warning, not as text
        self._left_unit_rows: dict[str, list[int]] = {}  # their cells' rows
        left_out = set(reasons.get("mixed units", []))
        for col in df.columns:
            if roles[col] != "numeric" and col not in left_out:
                continue
            found = units.get(col)
            plan = plans.get(col) if roles[col] == "numeric" else None
            if found is None:  # a role the user set: planned here, not in _roles
                found = column_units(df[col], col, base.missing_keys(col))
                if roles[col] == "numeric" and found.written:
                    plan = plan_units(col, df[col], found, base.missing_keys(col))
            if plan is not None:
                learned[col] = plan.target
                converted[col] = dict(plan.converted)
                if plan.plain_split is not None:
                    self.plain_splits_[col] = plan.plain_split.as_list()
                note = conversion_note(col, plan)
                if note:
                    report.notes.append(note)
                # what is left mixed: the name's unit and the units that cannot be converted
                found = replace(found, written={k: u for k, u in found.written.items()
                                                if k not in plan.converted})
                if plan.left and not found.header:  # read in the plain numbers' unit
                    report.warnings.append(unconverted_message(col, plan, found))
                    self._left_units[col] = {unit_key(u) for u in plan.left}
                    found = replace(found, written={})
            if found.mixed:
                report.warnings.append(mixed_units_message(col, found, col in left_out))
            if roles[col] == "numeric" and found.from_cells and col not in learned:
                learned[col] = found.from_cells
        return learned, converted

    @staticmethod
    def _learn_thousands_dot(df: pd.DataFrame, roles: dict[str, str]) -> list[str]:
        """The numeric columns whose "1.527" reads 1527: their dotted numbers are all
        written with dots as thousands separators (:func:`~sparge.data.parsing.
        thousands_dot_column`) and the numeric columns write decimals with a comma
        (:func:`~sparge.data.parsing.writes_decimal_commas`; a walk-through's NT-proBNP
        was read 1000 times too small)."""
        numeric = [c for c in df.columns if roles[c] == "numeric"]
        if not writes_decimal_commas(df, numeric):  # stops at the first "2.5"
            return []
        return [c for c in numeric if thousands_dot_column(df[c])]

    @staticmethod
    def _learn_thousands_comma(df: pd.DataFrame, roles: dict[str, str]) -> list[str]:
        """The numeric columns whose "362,656" reads 362656: their numbers with a comma
        are all written with commas as thousands separators (:func:`~sparge.data.parsing.
        thousands_comma_column`) and no other numeric column writes a decimal comma
        ("5,2"; a library review's US platelets were read 1000 times too small)."""
        numeric = [c for c in df.columns if roles[c] == "numeric"]
        found = [c for c in numeric if thousands_comma_column(df[c])]
        if not found:
            return []
        chosen = set(found)
        if any(decimal_marks(df[c])[0] for c in numeric if c not in chosen):
            return []
        return found

    def _left_out_leaks(self, df: pd.DataFrame, labels, report: ValidationReport) -> None:
        """Say which columns left out already (dates, free text) give the outcome away
        by being written at all (:func:`~sparge.data.leaks.presence_leaks`), here and
        in their reason on the Column roles tab: walk-throughs 68 and 70's date of
        surgery and of first decompensation, written only for the patients with the
        outcome, were said to be left out only as dates, and a user could give them a
        role."""
        said = (LEFT_OUT_WORDS["dates"], LEFT_OUT_WORDS["free text"])
        cols = [c for c, why in self.left_out_why_.items()
                if c in df.columns and c != self.label_column and c not in (self.roles or {})
                and (why in said or why.startswith(f"more than {self.max_levels}"))]
        if not cols:
            return
        missing = self.table_.missing_keys()
        written = np.column_stack([
            ((keys := cell_keys(cell_text(df[c]))) != "").to_numpy()
            & ~keys.isin(missing).to_numpy() for c in cols])
        # a lower bar than for a feature: nothing leaves the model, a user is warned
        # (walk-through 71's admission date, written for 80 % of the admitted: AUC 0.90)
        present = presence_leaks(np.where(written, 1.0, np.nan), cols, labels,
                                 threshold=LEFT_OUT_LEAK_AUC)
        if not present:
            return
        report.warnings.append(presence_leak_message(present, already=True))
        for c, (_, level, p1, p0) in present.items():
            self.left_out_why_[c] += (f"; written for {p1:.0%} of the patients whose "
                                      f"outcome is '{_q(level, 40)}' and {p0:.0%} of the "
                                      "others: it gives the outcome away")

    def _leave_out_leaks(self, X: np.ndarray, labels, report: ValidationReport) -> np.ndarray:
        """Leave out, like a follow-up time, the features that alone give the outcome
        away (:func:`~sparge.data.leaks.outcome_leaks`): a walk-through's "Status at last
        contact" was only questioned, and every later page read 100 %. A role the user set
        is not judged (they chose it knowing the column); if every feature leaks, all stay,
        questioned."""
        chosen = set(self.roles or {})
        self._death_answers: dict[str, list[str]] = {}
        judged = [j for j, f in enumerate(self.feature_names_out_) if f not in chosen]
        strong = outcome_leaks(X[:, judged], [self.feature_names_out_[j] for j in judged],
                               labels, threshold=NAMED_LEAK_AUC, categorical=[
                                   self.roles_[self.feature_names_out_[j]] == "categorical"
                                   for j in judged])
        leaks = {c: a for c, a in strong.items() if a >= LEAK_AUC}
        # a column written only once the outcome happened (walk-through 48's "Days to
        # admission", blank for every patient not admitted)
        present = {c: v for c, v in presence_leaks(
            X[:, judged], [self.feature_names_out_[j] for j in judged], labels).items()
            if c not in leaks}
        # a feature the outcome's name defines it by: "Postpartum haemorrhage (>=1000 mL)"
        # is an estimated blood loss of 1000 mL or more (walk-through 43: AUC 0.93, kept)
        defining = self._defining_features(X, judged, labels)
        # weaker, but named like what is written at the end of a stay (walk-through 35's
        # "Discharge destination", AUC 0.91, held "Home (readmitted)") or as what follows
        # the outcome's event (walk-through 37's "Switched regimen after failure", AUC
        # 0.93): questioned. With too few patients per outcome to measure any column (a
        # 15-row table), the name alone is (walk-through 38's went unsaid)
        counts = pd.Series([v for v in labels if v is not None and v == v]).value_counts()
        unmeasured = len(counts) >= 2 and counts.iloc[1] < LEAK_MIN_CLASS
        # a death among the answers of a column written when the stay ends, when the
        # outcome is a death, however few died there (walk-through 96's "Discharge
        # destination": "Died" for 12 patients of "Recurrent stroke or death within 1 year",
        # AUC below the 0.9 that questions a column)
        if _DEATH_OUTCOME.search(str(self.label_column)[:200]):
            for j in judged:
                c = self.feature_names_out_[j]
                if c in strong or not END_OF_STAY.search(c) or \
                        self.roles_.get(c) != "categorical" or not self.table_.has(c):
                    continue
                died = death_answers(self.table_.levels(c))
                if died:
                    auc = outcome_leaks(X[:, [j]], [c], labels, threshold=0.0,
                                        categorical=[True]).get(c, math.nan)
                    leaks[c] = auc
                    self._death_answers[c] = died
        for after in (False, True):
            named = {}
            for j in judged:
                c = self.feature_names_out_[j]
                auc = strong.get(c, math.nan if unmeasured else None)
                if auc is None or auc >= LEAK_AUC:
                    continue
                stay = END_OF_STAY.search(c) is not None
                if (not after and stay) or (after and not stay
                                            and named_after_outcome(c, self.label_column)):
                    named[c] = auc
            # ... and left out when one of its answers is a death (walk-through 72's
            # "Discharge destination": "Died", AUC 0.97, made the look-alikes of the dead)
            died = {c: a for c, a in named.items() if not after and a == a
                    and self.roles_.get(c) == "categorical" and self.table_.has(c)
                    and death_answers(self.table_.levels(c))}
            for c in died:
                named.pop(c)
                leaks[c] = died[c]
                self._death_answers[c] = death_answers(self.table_.levels(c))
            if named:
                report.warnings.append(named_leak_message(named, after_outcome=after))
                report.questioned_leaks.update(named)
        for c in defining:
            leaks.pop(c, None)
            present.pop(c, None)
        # the rarer of the outcomes the AUC judged: an outcome of one patient (walk-through
        # 97's typo "Yse") judges nothing and kept an AUC 1.00 column in the model
        judged_counts = counts[counts >= LEAK_MIN_CLASS]
        few = int(judged_counts.min()) if len(judged_counts) >= 2 else 0
        # ... but a column written at the end of the stay with a death among its answers
        # is one by what it says, however few patients (walk-through 101's 60-row
        # export kept "Discharge destination": "Mortuary", "died")
        for c in (leaks if few < LEAK_LEAVE_OUT_CLASS else ()):
            if c not in self._death_answers and END_OF_STAY.search(c) and \
                    self.roles_.get(c) == "categorical" and self.table_.has(c) and \
                    (died := death_answers(self.table_.levels(c))):
                self._death_answers[c] = died
        chance = {c: a for c, a in leaks.items() if c not in self._death_answers}
        if chance and len(counts) >= 2 and few < LEAK_LEAVE_OUT_CLASS:
            report.warnings.append(
                leak_message(chance, left_out=False) + f" With {few} patients of the rarer "
                "outcome a biomarker known before it can separate them this well by chance: "
                f"{'it stays' if len(chance) == 1 else 'they stay'} in the model, "
                "questioned.")
            report.questioned_leaks.update(chance)
            leaks = {c: a for c, a in leaks.items() if c not in chance}
        # whether the patient is alive at last contact (walk-through 73's "Status" beside
        # progression within 2 years): known only after the look-alikes are sought,
        # whatever its AUC (one that alone separates the outcomes is said so, above)
        vital = {c: a for c, a in self._vital_status(X, judged).items()
                 if c not in leaks and c not in defining and c not in present}
        for c in vital:
            report.questioned_leaks.pop(c, None)
        if not leaks and not defining and not present and not vital:
            return X
        if len(leaks) + len(defining) + len(present) + len(vital) >= X.shape[1]:
            if leaks:
                report.warnings.append(leak_message(leaks, left_out=False))
            report.questioned_leaks.update(
                {**leaks, **defining, **{c: v[0] for c, v in present.items()}})
            return X
        if self._death_answers:
            report.warnings.append(death_leak_message(self._death_answers, leaks))
        if set(leaks) - set(self._death_answers):
            report.warnings.append(leak_message(
                {c: a for c, a in leaks.items() if c not in self._death_answers},
                left_out=True))
        if present:
            report.warnings.append(presence_leak_message(present))
            leaks.update({c: v[0] for c, v in present.items()})
        if defining:
            report.warnings.append(defines_message(defining, str(self.label_column)))
            leaks.update(defining)
        if vital:
            report.warnings.append(vital_status_message(vital))
            leaks.update({c: math.nan for c in vital})
        for col in leaks:
            self.roles_[col] = "ignore"
            self.left_out_why_[col] = (
                "defines the outcome" if col in defining else
                "whether the patient is alive, known only at the last contact (answers "
                f"{', '.join(repr(_q(a, 30)) for a in vital[col][:3])}): after the "
                "look-alikes are sought" if col in vital else
                f"written when the stay ends and answers "
                f"{', '.join(repr(_q(a, 30)) for a in self._death_answers[col][:3])}: "
                f"it gives the outcome away (AUC {leaks[col]:.2f})"
                if col in self._death_answers else
                f"alone separates the outcomes (AUC {leaks[col]:.2f})")
        self.encoded_columns_ = [c for c in self.encoded_columns_ if c not in leaks]
        keep = [f not in leaks for f in self.feature_names_out_]
        self.feature_names_out_ = [f for f, k in zip(self.feature_names_out_, keep) if k]
        return X[:, np.asarray(keep)]

    def _vital_status(self, X: np.ndarray, judged: list[int]) -> dict[str, list[str]]:
        """The features of ``judged`` that say whether the patient is alive or dead at
        last contact (:func:`~sparge.data.leaks.vital_status`), with their death answers."""
        found = {}
        for j in judged:
            c = self.feature_names_out_[j]
            if self.roles_.get(c) == "categorical" and self.table_.has(c):
                answers = list(self.table_.levels(c))
            elif DEATH_NAME.fullmatch(str(c)[:80]):
                seen = X[:, j][np.isfinite(X[:, j])]
                answers = [f"{v:g}" for v in np.unique(seen)]
            else:
                continue
            if died := vital_status(c, answers):
                found[c] = died
        return found

    def _defining_features(self, X: np.ndarray, judged: list[int], labels
                           ) -> dict[str, float]:
        """The numeric features (of ``judged``) in the unit the outcome's name gives a
        threshold in, whose values beyond it give the outcome for at least
        :data:`~sparge.data.leaks.DEFINES_AGREEMENT` of the patients, with that share."""
        named = named_threshold(self.label_column)
        if named is None or named[2] is None:
            return {}
        op, t, unit = named
        out = {}
        for j in judged:
            c = self.feature_names_out_[j]
            own = self.unit_of(c) if self.roles_.get(c) == "numeric" else None
            if own is None or unit_key(own) != unit_key(unit):
                continue
            share = defining_agreement(X[:, j], labels, op, t)
            if share is not None and share >= DEFINES_AGREEMENT:
                out[c] = share
        return out

    @staticmethod
    def _start_report(df: pd.DataFrame) -> ValidationReport:
        """A report of the table's size that starts with the notes of its reading."""
        report = ValidationReport(n_rows=int(df.shape[0]), n_columns=source_columns(df))
        # once each: a table read by read_table and again by the encoder said the same
        # date of birth twice (walk-through 56)
        report.notes += list(dict.fromkeys(df.attrs.get("sparge_read_notes", [])))
        return report

    def _constant_why(self, X: np.ndarray, features: list[str], j: int) -> str:
        """Why a constant column leaves the model, with its value and, when most patients
        lack it, how many have it (walk-through 25's 'HIV status', 17 "negative" and 934
        empty, was said to hold "the same value for every patient")."""
        col = X[:, j]
        seen = np.isfinite(col)
        value = float(col[seen][0])
        answer = next((lv for lv, code in (self.table_.levels(features[j]) or {}).items()
                       if code == value), None) if self.table_.has(features[j]) else None
        shown = _q(answer, 30) if answer is not None else format_number(value)
        n, k = len(col), int(seen.sum())
        if k == n:
            return f"the same value for every patient ('{shown}')"
        return (f"the same value ('{shown}') for the {k:,} patient{'s' if k != 1 else ''} "
                f"who have one; {n - k:,} of {n:,} are empty")

    def _filter_features(self, X: np.ndarray, features: list[str],
                         report: ValidationReport) -> np.ndarray:
        """Drop all-missing, constant and duplicate features (the paper's column filters)."""
        filt = filter_columns(X, drop_all_missing=self.drop_all_missing,
                              drop_constant=self.drop_constant,
                              merge_duplicates=self.merge_duplicates)
        report.dropped_columns += [DroppedColumn(features[j], "no values")
                                   for j in filt.all_missing]
        report.dropped_columns += [DroppedColumn(features[j], self._constant_why(X, features, j))
                                   for j in filt.constant]
        report.dropped_columns += [
            DroppedColumn(features[j], f"an exact copy of '{_q(features[k])}' (merged)")
            for j, k in filt.duplicate_of.items()]
        # ... and a copy up to rounding (walk-through 90's "Chol total")
        if self.merge_duplicates:
            near = near_duplicate_columns(X, [j for j in np.flatnonzero(filt.keep)
                                              if self.roles_.get(features[j]) == "numeric"])
            for j, found in near.items():
                filt.keep[j] = False
                filt.duplicate_of[j] = found.of
                rows = ", ".join(str(r + 2) for r in found.differ[:3])
                differ = found.measured - found.agree
                report.dropped_columns.append(DroppedColumn(features[j], (
                    f"the same values as '{_q(features[found.of])}' up to rounding for "
                    f"{found.agree:,} of the {found.measured:,} patients measured in "
                    "either" + (f" (CSV line{'s' if differ > 1 else ''} {rows}"
                                f"{' …' if differ > 3 else ''} differ{'s' if differ == 1 else ''})"
                                if differ else "")
                    + ": a copy, merged as an exact one is (two copies of one "
                      "measurement would count it twice in every distance)")))
        # a copy's own reading notes say again what its original's say (walk-through 89
        # read "FT3 … dropped as a copy", then a note on FT3's limits)
        copies = tuple(f"Column '{_q(features[j])}'" for j in filt.duplicate_of)
        if copies:
            report.notes = [n for n in report.notes if not n.startswith(copies)]
        self.encoded_columns_ = features
        self.feature_names_out_ = [f for f, keep in zip(features, filt.keep) if keep]
        return X[:, filt.keep]

    def _summarise_features(self, X: np.ndarray, report: ValidationReport) -> None:
        """Report the roles, the features kept, their missing shares and unordered ones."""
        report.roles = {c: self.roles_[c] for c in self.input_columns_}
        report.n_features = X.shape[1]
        report.missing_pct = {f: float(100 * np.isnan(X[:, j]).mean())
                              for j, f in enumerate(self.feature_names_out_)}
        report.unordered_columns = self._unordered(self.feature_names_out_)

    def _select_patients(self, df: pd.DataFrame, X: np.ndarray, report: ValidationReport,
                         labels: np.ndarray | None = None,
                         copies: np.ndarray | None = None,
                         whole: pd.DataFrame | None = None) -> None:
        """Set ``keep_patients_`` (the paper's threshold on missing values); report the rest
        (with ``labels``, the outcomes, whether they differ from those kept). ``copies``:
        rows that leave training as copies, not counted among the patients a column's
        removal would keep. ``whole``: the table with its lists unsplit, whose text
        columns may name the drug of a drug's level."""
        names = list(self.feature_names_out_)
        whole = df if whole is None else whole
        own = {self.id_column, self.label_column}
        texts = [c for c in map(str, whole.columns) if c not in own
                 and self.roles_.get(c, "categorical") in ("categorical", "ignore")
                 and not pd.api.types.is_numeric_dtype(whole[c])]
        # a drug's level (or INR) by the drug a column names, before any other column's
        # answers: "names no warfarin" says it better than fourteen answers listed
        # (walk-through 87), and holds however many ways the drug is written
        self.drug_level_gaps_ = find_drug_level_gaps(
            whole.set_axis(list(map(str, whole.columns)), axis=1),
            {f: X[:, j] for j, f in enumerate(names) if (
                self.roles_.get(f) == "numeric" or DRUG_ANTIBODIES.search(f[:120]))}, texts)
        self.structural_gaps_ = {
            names[j]: (names[d], kind, values) for j, (d, kind, values) in find_structural_gaps(
                X, [self.roles_.get(f) == "categorical" for f in names]).items()
            if names[j] not in self.drug_level_gaps_}
        # a treatment's dose, empty where it was not given (walk-through 89's RAI dose)
        self.untreated_gaps_ = [
            names[j] for j in untreated_columns(
                names, X, [self.roles_.get(f) == "numeric" for f in names])
            if names[j] not in self.structural_gaps_ and names[j] not in self.drug_level_gaps_]
        # the columns whose gap words the report counted include such a word: the others
        # are not read again (a 467-column table's every column cost 0.3 s)
        written = self._written_not_applicable(X, whole, columns=[
            c for c, tokens in report.missing_tokens.items()
            if any(norm_key(str(t)) in NOT_APPLICABLE_WORDS for t in tokens)] + [
            s.column for s in report.stray_text
            if any(NOT_CALCULABLE.search(norm_key(str(e))) for e in s.examples)] + [
            # "T", "sedated": not assessable; an AMTS "unable" (walk-through 102)
            f for f in names if gcs_column(f) or cognitive_column(f)])
        # a value in a unit that cannot be converted is the patient's, set to missing by
        # the reading: no gap of the record (walk-through 91 left 23 of 73 patients with
        # an Lp(a) in mg/dL out of training, twice the others' share)
        unread = None
        for f, rows in getattr(self, "_left_unit_rows", {}).items():
            if f in self.feature_names_out_ and rows:
                unread = np.zeros(X.shape, bool) if unread is None else unread
                j = self.feature_names_out_.index(f)
                rows = np.asarray(rows, dtype=int)
                unread[rows[rows < len(X)], j] = True
        if unread is not None:
            unread &= np.isnan(X)
            written = unread if written is None else written | unread
        # once: a drug's level reads the text
        mask = self._not_applicable(X, whole, written=written)
        self._report_structural_gaps(X, report, mask)
        if unread is not None and unread.any():
            counts = unread.sum(axis=0)
            said = [f"'{_q(f, 40)}' ({int(n):,})" for f, n in
                    zip(self.feature_names_out_, counts, strict=True) if n]
            report.notes.append(
                "Values set to missing for their unit (no conversion to the column's) do "
                "not count against a patient's share of missing values (the patient has "
                f"the value): {', '.join(said[:6])}{' …' if len(said) > 6 else ''}. The "
                "model completes them like any gap.")
            written = written & ~unread
        if written is not None and written.any():
            counts = written.sum(axis=0)
            said = [f"'{_q(f, 40)}' ({int(n):,})" for f, n in sorted(
                zip(self.feature_names_out_, counts, strict=True), key=lambda t: -t[1]) if n]
            calc = sorted({str(e) for st in report.stray_text for e in st.examples
                           if NOT_CALCULABLE.search(norm_key(str(e)))})
            comas = [f for f, n in zip(self.feature_names_out_, counts, strict=True)
                     if n and gcs_column(f)]
            tests = [f for f, n in zip(self.feature_names_out_, counts, strict=True)
                     if n and cognitive_column(f) and not gcs_column(f)]
            report.notes.append(
                "Cells written 'not applicable', 'N/A' or 'not indicated'"
                + (f", or saying the value could not be calculated ('{_q(calc[0], 30)}')"
                   if calc else "")
                # walk-through 101's intubated patients ("T", "E1VTM1", "sedated")
                + (f", or a Glasgow coma scale that could not be assessed ('{_q(comas[0])}':"
                   " intubated or sedated)" if comas else "")
                # walk-through 102's AMTS "unable": the frailest patients
                + (f", or a test the patient could not do ('{_q(tests[0])}': 'unable')"
                   if tests else "")
                + " do not count against a patient's "
                f"share of missing values (a value that does not apply is no gap): "
                f"{', '.join(said[:6])}{' …' if len(said) > 6 else ''}. The model "
                "completes them like any gap.")
        w = self.feature_weights()
        weights = w if mask is None else np.where(mask, 0.0, w[None, :])
        self.keep_patients_ = patients_to_keep(X, self.max_patient_missing, weights)
        dropped = np.flatnonzero(~self.keep_patients_)
        if len(dropped) == 0:
            return
        miss = missing_fraction_per_row(X[dropped], weights[dropped] if weights.ndim == 2
                                        else weights)
        # without an ID column a patient is its CSV line ("0 (row 2 …)" read like a value)
        # named as the pages name them (walk-through 30 read "patient 4" for DM10004)
        id_vals = (list(self.ids(df)) if self.naming_column(df) is not None else
                   [""] * len(df))
        # walk-through 34: "632 of 908 patients kept" gave 627, its 5 copies left out;
        # walk-through 37: "578 of 706" gave 568, its patients without an outcome left out
        trains = np.ones(len(X), bool) if copies is None else ~copies
        if labels is not None:
            trains &= ~pd.isna(pd.Series(labels)).to_numpy()
        report.patients_dropped = [DroppedPatient(row=int(i) + 2, id=_q(id_vals[i], 60),
                                                  missing_pct=float(100 * m),
                                                  trains=bool(trains[i]))
                                   for i, m in zip(dropped, miss)]
        paper = abs(self.max_patient_missing - PAPER_MAX_MISSING) < 1e-9
        text = (f"{len(report.patients_dropped):,} of {len(df):,} patients miss more than "
                f"{100 * self.max_patient_missing:.0f}% of their values ("
                + ("the SparGE paper's threshold" if paper else "the threshold set")
                + ") and are left out of training; raise the threshold to keep them.")
        n_features = float(self.feature_weights().sum())  # a list's yes/no columns: one
        if n_features and 1 / n_features > self.max_patient_missing:
            text += (f" With {n_features:.0f} features, a single missing value is "
                     f"{100 / n_features:.0f}% of a patient's values.")
        text += threshold_to_keep(miss)
        cols, kept = columns_that_lose_patients(
            X[trains], self.max_patient_missing,
            weights=weights[trains] if weights.ndim == 2 else weights)
        if cols:
            names = self.feature_names_out_
            report.columns_losing_patients = [names[j] for j in cols]
            report.patients_kept_without = kept
            pct = 100 * np.isnan(X[:, cols]).mean(axis=0)
            shown = ", ".join(f"'{_q(names[j], 40)}' ({p:.0f}% missing)"
                              for j, p in zip(cols, pct, strict=True))
            text += (f" Or leave out {'this column' if len(cols) == 1 else 'these columns'}"
                     f" (role 'ignore' on the Column roles tab): {shown}; at the same "
                     f"threshold {kept:,} of {len(df):,} patients are kept.")
        shift = "" if labels is None else outcome_shift(labels, self.keep_patients_)
        # ... and in a measure (walk-through 47: the frailest patients were the ones left)
        shift += feature_shift(X, self.keep_patients_, list(names), np.asarray(
            [self.roles_.get(f) == "numeric" for f in self.feature_names_out_]))
        # ... and in an answer (walk-through 89: most patients with Hashimoto's disease)
        shift += answer_shift(X, self.keep_patients_, list(names), np.asarray(
            [self.roles_.get(f) == "categorical" and self.table_.has(f)
             for f in self.feature_names_out_]), self._answer_word)
        text += shift
        report.left_out_differ = bool(shift)
        # a note when few are left out; a warning (shown first) from a tenth of the cohort
        # (a walk-through left 90 of 502 patients out with only a note) or when those left
        # out have another outcome mix
        big = len(dropped) > 0.1 * len(df) or bool(shift)
        (report.warnings if big else report.notes).append(text)

    def answers(self) -> dict[str, dict[str, str]]:
        """The answers of each categorical input column, ``{column: {normalised key:
        answer as written}}``: what a new patient's "N/A - informal" may name
        (:func:`~sparge.data.not_applicable.read_not_applicable`)."""
        check_is_fitted(self, "feature_names_out_")
        return {c: {norm_key(k): k for k in self.table_.levels(c)}
                for c in self.input_columns_ if self.roles_.get(c) == "categorical"
                and self.table_.has(c)}

    def patient_weights(self, X: np.ndarray, df: pd.DataFrame | None = None) -> np.ndarray:
        """Each patient's :meth:`feature_weights`, 0 where a value does not apply to the
        patient (``structural_gaps_``: a door-to-needle time without thrombolysis; with
        ``df``, the table ``X`` was encoded from, ``drug_level_gaps_``: a lithium level of
        a patient whose medication names no lithium), for the patient's share of missing
        values. ``X``: the encoded table, the features in ``feature_names_out_`` order (as
        :meth:`transform` gives them)."""
        X = np.asarray(X, dtype=float)
        w = self.feature_weights()
        mask = self._not_applicable(X, df)
        return w if mask is None else np.where(mask, 0.0, w[None, :])

    def _not_applicable(self, X: np.ndarray, df: pd.DataFrame | None = None,
                        written: np.ndarray | None | bool = False) -> np.ndarray | None:
        """Where ``X``'s gaps are values that do not apply (:meth:`patient_weights`), or
        ``None`` when no rule is learned (or ``X`` has other features)."""
        gaps = getattr(self, "structural_gaps_", None) or {}
        drugs = getattr(self, "drug_level_gaps_", None) or {}
        size = getattr(self, "body_size_", None) or {}
        untreated = getattr(self, "untreated_gaps_", None) or []
        if df is None or len(df) != len(X):
            drugs = {}
        if X.shape[1] != len(self.feature_names_out_):
            return None
        if written is False:  # not given: read from the table
            written = self._written_not_applicable(X, df)
        pos = {f: j for j, f in enumerate(self.feature_names_out_)}
        # a urine measure written as a number or as a dipstick's grade: the one not
        # written is no gap where the other is (walk-through 100's proteinuria)
        either = [(pos[f], pos[f + DIPSTICK_SUFFIX]) for f in pos
                  if f + DIPSTICK_SUFFIX in pos]
        if not (gaps or drugs or size or untreated or either):
            return written
        by_index = {pos[f]: (pos[d], kind, values) for f, (d, kind, values) in gaps.items()
                    if f in pos and d in pos}
        mask = structural_mask(X, by_index)
        # a weight and height not written where the BMI gives the size (walk-through 78)
        mask |= size_given_mask(X, list(self.feature_names_out_), size)
        for f, (col, drug) in drugs.items():
            if f in pos:
                mask[:, pos[f]] |= np.isnan(X[:, pos[f]]) & drug_level_mask(df, col, drug)
        for f in untreated:
            if f in pos:
                mask[:, pos[f]] |= np.isnan(X[:, pos[f]])
        for a, b in either:
            mask[:, a] |= np.isnan(X[:, a]) & np.isfinite(X[:, b])
            mask[:, b] |= np.isnan(X[:, b]) & np.isfinite(X[:, a])
        return mask if written is None else mask | written

    def _written_not_applicable(self, X: np.ndarray, df: pd.DataFrame | None,
                                columns=None) -> np.ndarray | None:
        """The gaps written "not applicable" or "N/A" in the table ``df`` (``None``
        without any): the writer says the value does not apply, which no patient is to
        blame for (walk-through 86's valproate risk form, "not applicable" or "N/A" for
        the men and the patients on no valproate, left 184 of 392 patients out of
        training). Not "NA", which exports write for any gap; in a numeric column "N/A"
        only when the column writes its other gaps otherwise too, empty or in another
        word (a lab value "N/A", the export's only gap, is more often not available;
        walk-through 89's eye disease score wrote "n/a" for the patients without Graves'
        disease beside "-", "not assessed" and empty cells)."""
        if df is None or len(df) != len(X):
            return None
        df = read_other_drug_levels(df)  # "on CsA" in a tacrolimus level: as written
        out = None
        looked = None if columns is None else set(columns)  # (those writing such a gap)
        for j, f in enumerate(self.feature_names_out_):
            if f not in df.columns or pd.api.types.is_numeric_dtype(df[f]) or \
                    (looked is not None and f not in looked):
                continue
            values = df[f]
            codes, uniques = pd.factorize(values)
            keys = [norm_key(str(u)) for u in uniques]
            words = NOT_APPLICABLE_WORDS
            if self.roles_.get(f) != "categorical":
                marks = np.append(np.fromiter((k in _NA_MARKS for k in keys), dtype=bool,
                                              count=len(keys)), False)[codes]
                gaps = np.isnan(X[:, j])
                if (gaps & ~marks).sum() < max(5, 0.05 * gaps.sum()):
                    words = NOT_APPLICABLE_WORDS - _NA_MARKS
            # the column's name judged once, not per answer
            coma = gcs_column(f) or cognitive_column(f)
            said = np.fromiter((k in words or NOT_CALCULABLE.search(k) is not None
                                or (coma and untestable(u, f))
                                for k, u in zip(keys, uniques, strict=True)),
                               dtype=bool, count=len(keys))
            if not said.any():
                continue
            hit = np.append(said, False)[codes] & np.isnan(X[:, j])
            if hit.any():
                out = np.zeros(X.shape, dtype=bool) if out is None else out
                out[:, j] = hit
        return out

    def _report_structural_gaps(self, X: np.ndarray, report: ValidationReport,
                                mask: np.ndarray | None) -> None:
        """A note per column whose gaps another column explains; its missing share
        counted among the patients it applies to (walk-through 42's summary and chart
        still read head circumference 88 % missing). ``mask``: :meth:`_not_applicable`
        of ``X``."""
        pos = {f: j for j, f in enumerate(self.feature_names_out_)}
        report.not_applicable = {}
        for f in getattr(self, "untreated_gaps_", []):
            n = int(mask[:, pos[f]].sum()) if mask is not None else 0
            report.not_applicable[f] = n
            if f in report.missing_pct and len(X) > n:
                report.missing_pct[f] = 0.0
            report.notes.append(
                f"Column '{_q(f)}', a treatment's dose, is empty for {n:,} patients: read as "
                "the treatment not given to them, not a gap (every dose written is above "
                "0). Those cells do not count against a patient's share of missing values "
                "(the model completes them like any gap).")
        rules = {**self.structural_gaps_,
                 **{f: (c, "lacks", (drug,)) for f, (c, drug) in self.drug_level_gaps_.items()}}
        for f, (d, kind, values) in rules.items():
            n = int(mask[:, pos[f]].sum()) if mask is not None else 0
            applies = len(X) - n
            if applies > 0 and f in report.missing_pct:
                gaps = int(np.isnan(X[:, pos[f]]).sum()) - n
                report.missing_pct[f] = float(100 * gaps / applies)
            report.not_applicable[f] = n
            if kind == "lacks":  # a drug's level: "whose 'Medication' names no lithium"
                said = f"names no {drug_names_said(values[0])}"
            elif kind == "in":
                by_code: dict[float, list[str]] = {}
                for level, code in (self.table_.levels(d) if self.table_.has(d)
                                    else {}).items():
                    by_code.setdefault(float(code), []).append(level)
                quoted = [f"'{_q(shown_answer(by_code[c], d), 30)}'" if c in by_code
                          else format_number(c) for c in values]
                said = "is " + (", ".join(quoted[:-1]) + " or " if len(quoted) > 1
                                else "") + quoted[-1]
            else:  # a threshold: "whose 'Age' is above 2.1"
                said = f"is {kind} {format_number(values[0])}"
                held = X[:, pos[d]] if d in pos else np.empty(0)
                at = np.unique(held[rule_holds(held, kind, values) & ~np.isnan(held)])
                if len(at) == 1:  # the column's floor or ceiling alone: "is 0"
                    said, kind = f"is {format_number(at[0])}", "at"
            # a threshold is found, not known: walk-through 70's Child-Pugh, written
            # for cirrhotics, was said not to apply above a platelet count of 143
            report.notes.append(
                f"Column '{_q(f)}' is empty for the {n:,} patients whose '{_q(d)}' "
                f"{said}" + (": a value that does not apply to them, not a gap."
                             if kind in ("lacks", "in") else
                             ", and written for most of the others: read as a value that "
                             "does not apply to them, not a gap." if kind == "at" else
                             ", and written for most of the others: read as a value that "
                             "probably does not apply to them (the cut-off is where the "
                             "gaps begin, not a clinical rule), not a gap.")
                + " Those cells do not count against a patient's share of missing values "
                "(the model completes them like any gap).")

    def _answer_word(self, column: str, code: float) -> str:
        """The answer a categorical column's ``code`` is shown as (its spellings'
        :func:`~sparge.data.levels.shown_answer`), or the code itself."""
        spelled = [lv for lv, c in self.table_.levels(column).items() if float(c) == code]
        return shown_answer(spelled, column) if spelled else format_number(code)

    def feature_weights(self) -> np.ndarray:
        """How much of a column of the table each feature is, for a patient's share of
        missing values: 1, or ``1/k`` for each of the ``k`` yes/no columns read from one
        list column (:mod:`sparge.data.answer_lists`), whose empty cell is one gap, and
        for each of the ``k`` numbers read from one cell: a blood pressure's systolic and
        diastolic, a lying and standing pressure's two (walk-through 97's postural
        pressures, two gaps for one empty cell, left 49 more patients out of training)."""
        names = list(self.feature_names_out_)
        w = np.ones(len(names))
        for col, items in getattr(self, "answer_lists_", {}).items():
            group = set(list_columns(col, items))
            cols = [j for j, n in enumerate(names) if n in group]
            if cols:
                w[cols] = 1.0 / len(cols)
        pos = {n: j for j, n in enumerate(names)}
        # a test and the yes/no beside it saying it could not be done: one cell
        for col in getattr(self, "untestable_", []):
            cols = [pos[c] for c in (col, untestable_name(col)) if c in pos]
            if len(cols) == 2:
                w[cols] = 0.5
        for parts in ([[f"{c} {p}" for p in POSTURAL_PARTS] for c in postural_columns(names)]
                      + [[f"{c} {p}" for p in PRESSURE_PARTS]
                         for c in pressure_columns(names)]):
            cols = [pos[p] for p in parts if p in pos]
            w[cols] = 1.0 / len(cols)
        return w

    def _check_training_size(self, report: ValidationReport) -> None:
        """Block training without features, with under 3 patients, or with 10 or fewer
        kept of a table more than twice as large; warn under 11."""
        n_train = int(self.keep_patients_.sum())
        if report.n_features == 0:
            report.blocking.append("no usable feature columns (all were ignored, empty or "
                                   "constant).")
        if n_train <= 10 and 2 * n_train < len(self.keep_patients_):
            # walk-through 31: 4 of 708 patients kept (four nearly empty columns gave
            # everyone gaps) and "Nothing blocks training"
            n = len(self.keep_patients_)
            # the columns to leave out only when leaving them out keeps patients
            # (walk-through 60 read the advice, and no button came: none would)
            cols = ("Leave out the nearly empty columns that cost the most patients, or "
                    "raise" if report.columns_losing_patients else "Raise")
            report.blocking.append(
                f"only {n_train} of the table's {n:,} patients are kept for training; the "
                f"others miss more than the threshold's share of their values. {cols} the "
                "threshold ('Leave out patients missing more than'), and encode again.")
        elif n_train < 3:
            report.blocking.append(f"only {n_train} patient(s) left to train on; at least 3 "
                                   "are needed (and more than the number of look-alikes).")
        elif n_train <= 10:
            report.warnings.append(f"only {n_train} patients to train on: look-alike lists "
                                   "of 10 will hold most of the cohort.")

    def _unordered(self, features: list[str]) -> list[str]:
        """Categorical features with 3 or more codes that follow no order."""
        out = []
        for col in features:
            if self.roles_.get(col) != "categorical" or not self.table_.has(col):
                continue
            if len(set(self.table_.levels(col).values())) >= 3 and \
                    not self.table_.is_ordered(col):
                out.append(col)
        return out

    def _too_many_outcomes(self, vals: pd.Series) -> str | None:
        """Why an outcome column is no outcome, or ``None``: more than
        :data:`MAX_NUMBER_OUTCOMES` answers, all numbers (a measurement: walk-through
        100's "Donor Age" was learned as 61 classes, "Nothing blocks training"), or more
        answers than half its patients (an identifier: its "Hosp No", 470 classes of one or
        two patients, trained with the box to set rare outcomes aside ticked)."""
        n, k = len(vals), vals.nunique()
        if k <= MAX_NUMBER_OUTCOMES:
            return None
        col = _q(self.label_column)
        numbers = pd.Series(parse_numeric(vals.astype(str))[0])  # ">90" as a number
        if numbers.notna().mean() >= NUMBER_OUTCOME_SHARE:
            return (f"the outcome '{col}' is a number with {k:,} values among {n:,} "
                    "patients: a measurement, not an outcome the look-alikes can share. "
                    "Choose a yes/no or a few-answer column as the outcome, or make one "
                    f"from it (for example '{col} ≥ {numbers.median():.2g}': Yes or No; the "
                    "Data page does it in one click), or train without an outcome "
                    "('(none)').")
        if 2 * k > n:
            return (f"the outcome '{col}' holds {k:,} different answers for {n:,} "
                    "patients, most of them held by one patient: an identifier or a free "
                    "text, not an outcome. Choose the outcome column on the Data page, or "
                    "'(none)' to train without an outcome.")
        return None

    def _label_checks(self, labels: np.ndarray | None, report: ValidationReport,
                      aside: np.ndarray | None = None) -> None:
        """Report the outcome balance and missing outcomes (``labels``: :meth:`labels` of
        the table, read once by ``fit``; ``aside``: the patients whose outcome was set
        aside); block with fewer than 2 classes."""
        if labels is None:
            return
        report.label_column = self.label_column
        vals = pd.Series(labels, dtype=object)
        missing = vals.isna().to_numpy()
        keep = self.keep_patients_ & ~missing
        report.label_balance = {_q(k, 60): int(v) for k, v in
                                vals[keep].value_counts().items()}
        # the outcomes set aside have their own note
        unrecorded = missing & ~aside if aside is not None else missing
        if unrecorded.any():
            n = int(unrecorded.sum())
            rows = [int(i) + 2 for i in np.flatnonzero(unrecorded)[:5]]
            report.warnings.append(f"{n:,} patient{' has' if n == 1 else 's have'} no "
                                   f"outcome in '{_q(self.label_column)}' (CSV "
                                   f"{csv_lines(rows)}{' …' if n > 5 else ''}); "
                                   f"{'it is' if n == 1 else 'they are'} left out of "
                                   "supervised training.")
        codes = yes_no_codes(list(report.label_balance)) if len(
            report.label_balance) > 2 else None
        others = [k for k, c in (codes or {}).items() if c not in (1, 2)]
        if others:
            # a yes/no outcome with another answer beside it: walk-through 70's "Died
            # (non-liver)", a competing event, was learned as a third outcome unsaid
            report.warnings.append(
                f"The outcome '{_q(self.label_column)}' is a yes/no with "
                + ", ".join(f"'{k}' ({report.label_balance[k]} patient"
                            f"{'s' if report.label_balance[k] != 1 else ''})"
                            for k in others[:4])
                + (" …" if len(others) > 4 else "") + " beside Yes and No: the model learns "
                f"{'it' if len(others) == 1 else 'them'} as another outcome, and a "
                "look-alike with it counts as not sharing a Yes or a No. If it is another "
                "event (a death from another cause, a transplant, a move), give those "
                "patients no outcome in the file, or write the answer it belongs to.")
        many = self._too_many_outcomes(vals[~missing])
        if many:
            report.blocking.append(many)
            return
        if not keep.any() and self.keep_patients_.any():
            # walk-through 77: an empty outcome column, "0 patients kept for training",
            # "Nothing blocks training", and Train ended in scikit-learn's "Found array with
            # 0 sample(s)"
            report.blocking.append(
                f"no patient kept for training has an outcome in '{_q(self.label_column)}'"
                + (" (the column is empty or holds only gap words such as 'NA')"
                   if missing.all() else "")
                + ": choose the outcome column on the Data page, or '(none)' to train "
                "without an outcome.")
        elif len(report.label_balance) < 2 and keep.any():  # none kept: said by the size
            report.blocking.append(
                f"the outcome column '{_q(self.label_column)}' has "
                f"{len(report.label_balance)} class(es) among the patients kept; supervised "
                "training needs at least 2 (or train unsupervised).")
        elif len(report.label_balance) >= 2 and min(report.label_balance.values()) < 3:
            few = {k: v for k, v in report.label_balance.items() if v < 3}
            overall = {_q(k, 60): int(v) for k, v in vals[~missing].value_counts().items()}
            if all(overall.get(k, 0) >= 3 for k in few):
                # rare only among the few patients kept (walk-through 60: 3 of 602 kept,
                # and "set them aside" would have set every outcome aside): the threshold
                # on missing values is the cause, and the report says so
                return
            named = ", ".join(f"'{k}' ({v} patient{'s' if v != 1 else ''})"
                              for k, v in list(few.items())[:5])
            report.warnings.append(
                f"the outcome{'s' if len(few) > 1 else ''} {named} "
                f"{'have' if len(few) > 1 else 'has'} fewer than 3 patients: look-alikes "
                "cannot be learned or checked for so few (the held-out check and the "
                "classifier comparison need 3 per outcome"
                + (", the model's forest part 2" if min(few.values()) < 2 else "")
                + "). To leave them out of training, set them aside and encode again "
                "(the Data page's 'Set aside outcomes with fewer than 3 patients').")

    # ------------------------------------------------------------------ encode
    def _encode(self, df: pd.DataFrame, features: list[str],
                report: ValidationReport, new: bool = False,
                limit_rows: dict[str, np.ndarray] | None = None,
                unit_rows: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """Encode ``features`` of ``df`` with the fitted roles and table (read-only).

        ``new`` (patients after the fit): a value written in another unit than its
        column's is converted when the conversion is exact (:class:`KnownConversions`),
        even if no training patient used that unit, and the report says so.
        ``limit_rows`` (filled when given): the rows of each column's cells written as a
        limit ("<0.1", "not detected"); ``unit_rows``: of those written with a unit."""
        X = np.full((len(df), len(features)), np.nan)
        commas: dict[str, int] = {}
        for j, col in enumerate(features):
            if self.roles_[col] == "numeric":
                unit = self._unit(col)
                if new and unit is None:  # a new patient's "38.9 °C" in a °F column
                    unit = getattr(self, "value_units_", {}).get(col) or pressure_unit(col)
                learned = getattr(self, "unit_conversions_", {}).get(col)
                convert = KnownConversions(col, unit, learned) if new and unit else learned
                maxima = getattr(self, "score_maxima_", None)
                limits = getattr(self, "detection_limits_", None)
                zeros = getattr(self, "zero_columns_", None)
                X[:, j], info = parse_numeric(
                    df[col], self.table_.missing_keys(col), unit,
                    col in getattr(self, "thousands_dot_", ()), convert,
                    # a new patient's "2,400 /uL" in a table that writes thousands so
                    # (and no decimal comma), whatever the column (walk-through 55 read
                    # 0.0024 in a column with no comma in training)
                    col in getattr(self, "thousands_comma_", ()) or (
                        new and bool(getattr(self, "thousands_comma_", ()))),
                    # a new patient's "14/21" is read out of the training column's maximum
                    maxima.get(col, 0) if new and maxima is not None else None,
                    # ... and a "not detected" as the training column's detection limit
                    limits.get(col, math.nan) if new and limits is not None else None,
                    log_counts=VIRAL_LOAD.search(str(col)) is not None,
                    # ... and "none" as 0 where the training column wrote 0
                    writes_zero=(col in zeros) if new and zeros is not None else None,
                    # ... and "unable" as the training column's worst result
                    unable=getattr(self, "unable_values_", {}).get(col, math.nan)
                    if new else None,
                    # ... and "unlimited" as its best
                    unlimited=getattr(self, "unlimited_values_", {}).get(col, math.nan)
                    if new else None,
                    # ... and "<4 METs" below ">4 METs" as the training column reads them
                    split_limits=getattr(self, "split_limits_", {}).get(col, {})
                    if new else None,
                    # ... and a plain "6.3" beside "58mm" and "5.4cm" as 6.3 cm
                    plain_split=_split_of(getattr(self, "plain_splits_", {}).get(col)))
                if info["plain_unit"]:  # said with the unit they were read in
                    info["plain_unit_name"] = self.plain_splits_[col][0]
                if not new and info.get("out_of"):
                    self.score_maxima_[col] = int(info["out_of"])
                if not new and info.get("detection_limit") is not None:
                    self.detection_limits_[col] = float(info["detection_limit"])
                if not new and info.get("split_limits"):
                    self.split_limits_[col] = dict(info["split_limits"])
                if limit_rows is not None and (info["censored"] or info.get("not_detected")):
                    limit_rows[col] = np.array(
                        [r for r, _ in info["censored"]]
                        + [r for r, _ in info.get("not_detected") or ()], dtype=int)
                if unit_rows is not None and (info["unit"] or info["converted"]):
                    unit_rows[col] = np.array([r for r, _ in info["unit"]]
                                              + [r for r, _ in info["converted"]], dtype=int)
                if not new and info.get("writes_zero"):
                    self.zero_columns_.append(col)
                if not new and info.get("unable_value") is not None:
                    self.unable_values_[col] = float(info["unable_value"])
                if not new and info.get("unlimited_value") is not None:
                    self.unlimited_values_[col] = float(info["unlimited_value"])
                left = getattr(self, "_left_units", {}).get(col) if not new else None
                if left:  # cells in a unit the fit's warning names once (walk-through
                    # 59: "0.4l" was said twice, as text and as a unit not converted)
                    self._left_unit_rows[col] = [
                        r for r, c in info["bad"] if unit_key(written_unit(c) or "") in left]
                    info = {**info, "bad": [(r, c) for r, c in info["bad"]
                                            if unit_key(written_unit(c) or "") not in left]}
                self._report_numeric(col, info, report, unit, unpack_rows(
                    df.attrs.get("sparge_rewritten", {}).get(col), len(df)))
                if new and info["converted"]:
                    r, cell = info["converted"][0]
                    written = {unit_key(written_unit(c) or "") for _, c in info["converted"]}
                    # the same unit written otherwise ("45cc" in mL), as the Data page
                    # says it (walk-through 80 read "converted" here, "the same unit" there)
                    same = isinstance(convert, dict) and all(
                        convert.get(k) == (1.0, 0.0) for k in written)
                    report.notes.append(
                        f"Column '{_q(col)}': {len(info['converted'])} value(s) written "
                        f"'{_q(written_unit(cell) or '', 20)}' read as '{_q(unit, 20)}', the "
                        f"same unit (e.g. '{_q(cell, 30)}' read as {format_number(X[r, j])})."
                        if same else
                        f"Column '{_q(col)}': {len(info['converted'])} value(s) in another "
                        f"unit converted to '{_q(unit, 20)}' (e.g. '{_q(cell, 30)}' read "
                        f"as {format_number(X[r, j])}).")
                if info["decimal_comma"]:
                    commas[col] = (int(info["decimal_comma"]), info["decimal_comma_cell"])
            else:
                X[:, j] = self._encode_categorical(col, df[col], report)
        if commas:  # one note: a walk-through's export had 17 of them above its warnings
            shown = ", ".join(f"'{_q(c)}'" for c in list(commas)[:8])
            more = f" … (+{len(commas) - 8})" if len(commas) > 8 else ""
            cell, value = next(iter(commas.values()))[1]
            report.notes.append(
                f"{sum(n for n, _ in commas.values()):,} value(s) written with a decimal "
                f"comma (e.g. '{_q(cell, 20)}' read as {format_given(value)}) were read as "
                f"decimals, in {_columns(len(commas))}: {shown}{more}.")
        return X

    def _encode_categorical(self, col: str, values: pd.Series,
                            report: ValidationReport) -> np.ndarray:
        """Code one categorical column; report its missing tokens and unknown values."""
        text = cell_text(values)
        keys = cell_keys(text)
        mapping = {norm_key(lv): float(code) for lv, code in self.table_.levels(col).items()}
        # "UNK" where the table codes "Unknown" (the paper's Diabetes Unknown 0) is that
        # answer, not a gap beside it
        said = next((mapping[w] for w in sorted(UNKNOWN_WORDS) if w in mapping), None)
        if said is not None:
            mapping.update({w: said for w in UNKNOWN_WORDS if w not in mapping})
        codes = keys.map(mapping).astype(float).to_numpy(copy=True)
        if col in (self.blank_as_no or ()) and (no := self._no_code(col)) is not None:
            codes[(text == "").to_numpy()] = no  # not on the register: its No
        unresolved = np.isnan(codes) & (text != "").to_numpy()
        if not unresolved.any():
            return codes
        is_token = keys.isin(self.table_.missing_keys(col)).to_numpy()
        tokens = unresolved & is_token
        unknown = unresolved & ~is_token
        if unknown.any() and self.table_.is_ordered(col):
            # a sub-stage the model did not see, read as its stage (walk-through 25's new
            # patient's "IIIB" and "T3b" where the training patients had "III" and "T3")
            parents = keys[unknown].map(lambda k: mapping.get(_SUB_STAGE_OF.sub("", k)))
            known = parents.notna().to_numpy()
            if known.any():
                rows = np.flatnonzero(unknown)[known]
                codes[rows] = parents[known].to_numpy(dtype=float)
                unknown[rows] = False
                spelled = {norm_key(lv): lv for lv in self.table_.levels(col)}
                seen = dict(zip(text.iloc[rows], keys.iloc[rows], strict=True))
                report.notes.append(
                    f"Column '{_q(col)}': " + ", ".join(
                        f"'{_q(t, 20)}' read as '{_q(spelled[_SUB_STAGE_OF.sub('', k)], 20)}'"
                        for t, k in list(seen.items())[:4])
                    + " (the stage without its sub-stage, which the training patients did "
                      "not have).")
        if unknown.any() or tokens.any():
            # a gap word that is a spelling of a known answer is that answer too
            # (walk-through 46's new patient's Diabetes "nil" beside the training "none")
            still = self._synonym_answers(col, text, keys, mapping, codes, unknown | tokens,
                                          report)
            tokens, unknown = tokens & still, unknown & still
        if tokens.any():
            report.missing_tokens[col] = token_counts(text[tokens])
        if unknown.any():
            counts = token_counts(text[unknown])
            report.unknown_values.append(UnknownValues(
                column=col, count=int(unknown.sum()),
                examples=sorted(counts, key=lambda k: -counts[k])[:3],
                rows=[int(i) + 2 for i in np.flatnonzero(unknown)[:5]]))
        return codes

    def _blank_as_no_keeps(self, df: pd.DataFrame, X: np.ndarray,
                           report: ValidationReport) -> None:
        """How many patients left out at the threshold the empty cells of the yes/no
        columns offered as No (``report.blank_no_candidates``) cost: kept, were they read
        as No (``report.blank_no_keeps``), and said in the threshold's warning."""
        cols = [c for c in report.blank_no_candidates if c in self.feature_names_out_]
        if not cols or not report.patients_dropped or \
                not hasattr(self, "keep_patients_") or len(self.keep_patients_) != len(X):
            return
        filled = np.array(X, dtype=float, copy=True)
        for col in cols:
            j = self.feature_names_out_.index(col)
            blank = (cell_text(df[col]) == "").to_numpy() & np.isnan(filled[:, j])
            filled[blank, j] = self._no_code(col) or 0.0
        kept = patients_to_keep(filled, self.max_patient_missing,
                                self.patient_weights(X, df))
        more = int((kept & ~self.keep_patients_).sum())
        report.blank_no_keeps = more
        if more < max(3, 0.05 * len(df)):
            return
        said = (f" Were the empty cells of {len(cols):,} yes/no column"
                f"{'s' if len(cols) != 1 else ''} ({quoted_names(cols[:3], width=30)}"
                f"{' …' if len(cols) > 3 else ''}) read as No, as a register export writes "
                f"them, about {more:,} of them would be kept (the Data page's 'Empty "
                "cells in yes/no columns' choice); only if this export leaves a cell "
                "empty for 'no'.")
        for place in (report.warnings, report.notes):
            for i, line in enumerate(place):
                if " patients miss more than " in line and "left out of training" in line:
                    place[i] = line + said
                    return

    def _blank_as_no_notes(self, df: pd.DataFrame, report: ValidationReport) -> None:
        """Say which yes/no columns' empty cells were read as No (``blank_as_no``), and
        list those where they might be (``report.blank_no_candidates``): at least
        :data:`BLANK_NO_SHARE` of their cells empty, and a No answer to read them as."""
        done, maybe, tests = {}, [], {}
        numeric: dict[str, np.ndarray] = {}  # empty cells of numeric columns, once
        chosen = set(self.blank_as_no or ())
        features = set(self.feature_names_out_)
        for col in self.input_columns_:
            if self.roles_.get(col) != "categorical" or col not in df.columns:
                continue
            # a feature with a No answer, or a Yes-or-empty column (dropped as one value)
            yes_only = col not in features and _yes_only(self.table_.levels(col))
            if col not in features and not yes_only:
                continue
            n_blank = int((cell_text(df[col]) == "").sum())
            if not n_blank or (self._no_code(col) is None and not yes_only):
                continue
            if col in getattr(self, "structural_gaps_", {}) and col not in chosen:
                continue
            if col in chosen:
                done[col] = n_blank
            elif n_blank >= BLANK_NO_SHARE * len(df):
                if not yes_only and (with_test := self._empty_with(df, col, numeric)) \
                        is not None:
                    # a finding written Yes and No, empty where a measurement is: not
                    # known (walk-through 71's LBBB, empty for the 120 patients with no
                    # QRS, no ECG), no register's No
                    tests[col] = with_test
                    continue
                maybe.append(col)
        report.blank_no_candidates = maybe
        if tests:
            report.notes.append(
                "Empty where a measurement is, so not offered as No (a test not done): "
                + ", ".join(f"'{_q(c)}' with '{_q(t)}'" for c, t in list(tests.items())[:6])
                + ".")
        if maybe:
            report.notes.append(
                f"{quoted_names(maybe)}: yes/no column{'s' if len(maybe) > 1 else ''} with "
                f"at least {BLANK_NO_SHARE:.0%} of {'their' if len(maybe) > 1 else 'its'} "
                "cells empty, read as gaps. A register export often leaves a cell empty for "
                "a patient not on the register: if yours does, read them as No (the Data "
                "page's button; the Encoder's blank_as_no).")
        if done:
            report.notes.append(
                "Empty cells read as 'No' (not on the register), as asked: " + ", ".join(
                    f"'{_q(c)}' {n:,}" for c, n in list(done.items())[:8])
                + (" …" if len(done) > 8 else "") + ".")
        missing = chosen - set(done) - set(maybe)
        if missing:
            report.notes.append(
                "Not read as 'No' (no empty cell, or no No answer, or not a feature): "
                + quoted_names(sorted(missing)) + ".")

    def _with_register_no(self, col: str, levels: dict) -> dict:
        """A column's levels with a No added when it is a Yes-or-empty register whose
        empty cells the user reads as No (walk-through 70's "Hep B vaccinated" was dropped
        as one value; walk-through 71's "COPD", its table from a merge, too)."""
        if col in (self.blank_as_no or ()) and _yes_only(levels):
            return {**levels, "No": YES_NO_NO}
        return levels

    def _empty_with(self, df: pd.DataFrame, col: str,
                    numeric: dict[str, np.ndarray]) -> str | None:
        """A numeric column empty for (nearly) the same patients as ``col``: at least 90 %
        of each one's empty cells are the other's; ``None`` without one. ``numeric``:
        the numeric columns' empty cells (:func:`_empty_cells`), filled on first use."""
        if not numeric:
            numeric.update({c: _empty_cells(df[c]) for c in self.input_columns_
                            if self.roles_.get(c) == "numeric" and c in df})
        blank = _empty_cells(df[col])
        n = int(blank.sum())
        for other, gaps in numeric.items():
            if other == col:
                continue
            both = int((blank & gaps).sum())
            if both >= 0.9 * n and both >= 0.9 * gaps.sum():
                return other
        return None

    def _no_code(self, col: str) -> float | None:
        """The code of a yes/no column's No answer, or ``None`` without one."""
        levels = self.table_.levels(col)
        codes = yes_no_codes(list(levels))
        if codes is None:
            return None
        no = [lv for lv, c in codes.items() if c == 2]
        return float(levels[no[0]]) if no else None

    def _synonym_answers(self, col: str, text: pd.Series, keys: pd.Series,
                         mapping: dict[str, float], codes: np.ndarray, unknown: np.ndarray,
                         report: ValidationReport) -> np.ndarray:
        """Answers the model did not see that are spellings of a known answer by the
        column's groups of synonyms, coded as it (in place, with a note); returns the
        answers still unknown. Walk-through 44's new mother had "Yes - 4 units" of
        transfusion where the training mothers had "Yes" and "Yes - 2 units": read as
        missing. A group whose known spellings have several codes (split by the user), or
        whose only known spelling is not its first word, reads nothing. An answer with
        Roman numerals written as digits ("Grade IV" beside "Grade 4") is read as it."""
        # "unk" for an "Unknown" answer is read before (UNKNOWN_WORDS), else it is a gap
        groups = [g for g in synonym_groups(col) if "unknown" not in g]
        by_loose: dict[str, set[float]] = {}
        by_numeral: dict[str, set[float]] = {}
        for k, c in mapping.items():
            by_loose.setdefault(loose_key(k), set()).add(c)
            by_numeral.setdefault(numeral_key(k), set()).add(c)
        spelled = {loose_key(norm_key(lv)): lv for lv in self.table_.levels(col)}
        numbered = {numeral_key(norm_key(lv)): lv for lv in self.table_.levels(col)}
        found: dict[str, tuple[float, str]] = {}
        paired_left = PAIRED_LOOKUPS  # ~3 ms each: a file of free text is not paired
        # a gap word stays a gap unless a group of synonyms spells the answer with it
        # (walk-through 49: "Not stated" became the answer "Ethnicity not stated")
        gaps = self.table_.missing_keys(col)
        for k in sorted(set(keys[unknown])):
            lk = loose_key(k)
            group = next((g for g in groups if lk in g), None)
            known = [w for w in group if w in by_loose] if group is not None else []
            got = set().union(*(by_loose[w] for w in known)) if known else set()
            # the code stands for the group: its own first word ("Yes"), or spellings
            # merged into it; "Yes - 2 units" alone says 2 units (not "Yes - 4 units")
            # (or a spelling without a number: "Current smoker" stands for current)
            if len(got) == 1 and (group[0] in known or len(known) > 1
                                  or not any(ch.isdigit() for ch in known[0])):
                found[k] = (got.pop(), spelled.get(known[0], known[0]))
            # ... or its Roman numerals as digits (walk-through 46's mMRC "Grade IV"
            # beside "Grade 4")
            elif len(by_numeral.get(nk := numeral_key(k), ())) == 1 and nk != k:
                found[k] = (next(iter(by_numeral[nk])), numbered.get(nk, nk))
            # ... or paired with one known answer by the rules that offer answers written
            # two ways to merge (walk-through 48's new patient: "CKD G3b" beside "G3b",
            # "COPD - moderate" in a COPD register column, "Smoker - 15/day", "2nd")
            elif paired_left > 0 and k not in gaps:
                paired_left -= 1
                if (hit := self._paired_answer(col, k, mapping)) is not None:
                    found[k] = hit
        if not found:
            return unknown
        # named as the pages show the answer ("Former", not the "former" first spelled)
        by_code: dict[float, list[str]] = {}
        for lv, c in self.table_.levels(col).items():
            by_code.setdefault(float(c), []).append(str(lv))
        found = {k: (c, shown_answer(by_code[c], col) if c in by_code else w)
                 for k, (c, w) in found.items()}
        rows = np.flatnonzero(unknown & keys.isin(list(found)).to_numpy())
        codes[rows] = [found[k][0] for k in keys.iloc[rows]]
        seen = dict(zip(text.iloc[rows], keys.iloc[rows], strict=True))
        # the answer as the pages show it, chosen in a form ("Darbepoetin", the generic
        # name of merged brands and doses): nothing to say (walk-through 57)
        seen = {t: k for t, k in seen.items() if norm_key(t) != norm_key(found[k][1])}
        if seen:
            report.notes.append(
                f"Column '{_q(col)}': " + ", ".join(
                    f"'{_q(t, 20)}' read as '{_q(found[k][1], 20)}'"
                    for t, k in list(seen.items())[:4])
                + " (another spelling of that answer).")
        out = unknown.copy()
        out[rows] = False
        return out

    def _paired_answer(self, col: str, key: str, mapping: dict[str, float]
                       ) -> tuple[float, str] | None:
        """The code and answer of the one known answer a new patient's unseen spelling
        ``key`` is paired with by :func:`~sparge.data.levels.abbreviated_levels` (either
        way), or of the number it writes as an ordinal ("2nd": "2"); ``None`` otherwise."""
        levels = [str(lv) for lv in self.table_.levels(col)]
        if len(key) > 60 or len(levels) > 200:
            return None
        # a spelling of a group of synonyms is read by the group's own rule (a lone "Yes -
        # 2 units" does not stand for "Yes - 4 units")
        if any(loose_key(key) in g for g in synonym_groups(col)):
            return None
        code_of = {norm_key(lv): mapping.get(norm_key(lv)) for lv in levels}
        if (n := ordinal_number(key)) is not None and n == int(n) and \
                code_of.get(str(int(n))) is not None:
            return code_of[str(int(n))], str(int(n))
        # the answers joined with it by pairs, chains followed: all of one code (a group
        # the user kept split, "none" apart from "No", reads nothing)
        pairs = [(norm_key(a), norm_key(b)) for a, b in abbreviated_levels([*levels, key], col)]
        joined, grew = {key}, True
        while grew:
            more = {b for a, b in pairs if a in joined} | {a for a, b in pairs if b in joined}
            grew = not more <= joined
            joined |= more
        codes = {code_of[k] for k in joined if code_of.get(k) is not None}
        if len(codes) != 1:
            return None
        direct = [b if a == key else a for a, b in pairs if key in (a, b)]
        shown = next((lv for lv in levels if norm_key(lv) in direct), None) or next(
            lv for lv in levels if norm_key(lv) in joined)
        return codes.pop(), shown

    def cell_unit(self, column: str) -> str | None:
        """The unit a numeric column's values are in when its name does not say it (learned
        from its cells, "mg/dL" for a creatinine written in mg/dL and µmol/L), else
        ``None``: for a form's label and the comparison tables, as the values read do not
        show it."""
        if header_unit(column) is not None:
            return None
        # a visual acuity's scale (walk-through 104's "Baseline VA" was shown without one,
        # beside "IOP (mmHg)")
        scale = getattr(self, "acuity_scales_", {}).get(column)
        if scale is not None:
            return None if re.search(scale, column, re.IGNORECASE) else scale
        unit = (getattr(self, "units_", {}).get(column)
                or getattr(self, "value_units_", {}).get(column))
        key = unit_key(unit) if unit else None
        said = {unit_key(w) for w in re.split(r"[\s,;:()]+", column) if w}
        minutes = {"min", "mins", "minute", "minutes"}
        if key is not None and (key in said or (key in minutes and said & minutes)):
            # the name says it without brackets: "Neutrophils %" (not "% (%)"), or in
            # another spelling: "Time to antibiotics (min)" (not "(min) (mins)")
            return None
        # "y" and "yrs" are years: a hint "most 42–83 y" read oddly
        return key if key in ("years", "months", "days", "hours") else unit

    def unit_of(self, column: str) -> str | None:
        """A numeric column's unit: its name's, else the one learned from its cells
        (:meth:`cell_unit`); ``None`` when neither says one."""
        return header_unit(column, as_written=True) or self.cell_unit(column)

    def _unit(self, col: str) -> str | None:
        """The unit a numeric column's cells are read with: the one learned from its cells
        at fit (``units_``), else its name's (:func:`~sparge.data.parsing.header_unit`),
        else years for a duration in years by its name (:data:`~sparge.data.age_dates.
        YEARS_DURATION_NAME`: "Time on dialysis", whose "85/12" is 85 months, walk-through
        106)."""
        return getattr(self, "units_", {}).get(col) or header_unit(col, as_written=True) \
            or ("years" if YEARS_DURATION_NAME.search(str(col)[:80]) else None)

    @staticmethod
    def _report_numeric(col: str, info: dict, report: ValidationReport,
                        unit: str | None = None, rewritten: np.ndarray | None = None
                        ) -> None:
        """Report what :func:`parse_numeric` found in one numeric column (``unit``: the
        unit its cells were read with, as written; ``rewritten``: the positions of cells
        the reading rewrote with a unit, "1h 20m" as "80 min", not counted as written
        with it)."""
        bad, cens, inf = info["bad"], info["censored"], info["infinite"]
        if info.get("missing_tokens"):
            report.missing_tokens[col] = dict(info["missing_tokens"])
        # cells that hold no value of the patient's, whatever number they hold
        for key, what, done in (
                ("invalid_sample", "result(s) marked as from a haemolysed, clotted or "
                 "insufficient sample", "set to missing: such a sample does not give the "
                 "patient's value"),
                ("gcs_untestable", "Glasgow coma scale(s) without their verbal part (T: "
                 "intubated)", "read as missing: no total can be read without it")):
            if info.get(key):
                cells = info[key]
                report.notes.append(
                    f"Column '{_q(col)}': {len(cells):,} {what} (e.g. "
                    f"'{_q(cells[0][1], 40)}', CSV line {cells[0][0] + 2}) {done}.")
        cells = [c for c in info.get("unit") or ()
                 if rewritten is None or not rewritten[c[0]]]
        if cells:
            report.notes.append(f"Column '{_q(col)}': {len(cells)} cell(s) written with the "
                                f"unit '{_q(unit or '', 20)}' read as numbers (e.g. "
                                f"'{_q(cells[0][1], 30)}').")
        for key, mark, why in (("thousands_dot", ".", "the table writes decimals with ','"),
                               ("thousands_comma", ",", "no number of the table is written "
                                                        "with a decimal comma")):
            if info.get(key):
                cells = info[key]
                value = np.format_float_positional(cells[0][2], trim="-")
                report.notes.append(f"Column '{_q(col)}': {len(cells):,} cell(s) such as "
                                    f"'{_q(cells[0][1], 30)}' read with '{mark}' as thousands "
                                    f"separator ({value}), as {why}.")
        # one value written in parts: a gestation "38+4", a Glasgow coma scale "E3V4M5"
        other = _q(info.get("plain_unit_name") or "another unit", 20)
        for key, written, read in (
                ("plain_unit", f"as plain numbers the size of its cells in '{other}'",
                 lambda c: f"in '{other}' ({format_number(c[2])}"
                 f"{' ' + _q(unit, 20) if unit else ''}; the column's cells in "
                 f"'{other}' lie where they do, its others far from them)"),
                ("gestation", "in weeks and days", lambda c: "in weeks "
                 f"({format_number(round(c[2], 2))}: days / 7)"),
                ("gcs", "as the Glasgow coma scale's parts",
                 lambda c: "as their total, eyes + verbal + motor (3–15)"),
                ("plain", "as a score out of its maximum, a word, an ordinal, after its name "
                 "or with its share or a note in brackets",
                 lambda c: f"as the number ({format_number(c[2])})"),
                ("scale_word", "as a level of its scale in words", lambda c: "as that "
                 f"level's value ({format_number(c[2])}"
                 + ("; a band of scores as its middle, an open one as its limit)"
                    if reads_bands(col) else ")")),
                ("none_as_zero", "as a word for none", lambda c: "as 0, which the column "
                 "also writes"),
                ("age_part", "in months, weeks or days", lambda c: "in the column's unit "
                 f"({format_number(c[2])}{' ' + unit if unit else ' years'}; n/12 is months, "
                 "n/52 weeks, n/7 days)"),
                ("per_minute", "with a rate's unit", lambda c: "as the rate "
                 f"({format_number(c[2])} per minute)"),
                ("cycle", "as a treatment cycle (and day)", lambda c: "as the cycle "
                 f"({format_number(c[2])}; the day is not read)"),
                ("unable", "as unable to do the test", lambda c: "as the worst result "
                 f"the column writes, {format_number(c[2])}{' ' + unit if unit else ''} "
                 "(not being able to do the test is a result, the worst, not an unknown "
                 "value)"),
                ("unlimited", "as not limited", lambda c: "as the best result the column "
                 f"writes, {format_number(c[2])}{' ' + unit if unit else ''} (a lower bound: "
                 "the patient walks at least as far)"),
                ("log10", "as the load's base-10 logarithm", lambda c: "as the load "
                 f"({format_number(c[2])}, in the column's unit)"),
                ("power10", "as a number times a power of ten", lambda c: "as that "
                 f"number ({format_number(c[2])}, in the column's unit)"),
                ("not_detected", "as below the detection limit" + (
                    " or negative" if ANTIBODY_COLUMN.search(col[:120]) else ""),
                 lambda c: "as the "
                 f"column's most common lower limit, {format_number(info['detection_limit'])}"
                 " (as its limits are read: the true value lies below)"),
                ("estimated", "as an estimate", lambda c: "as the estimate "
                 f"({format_number(c[2])})"),
                ("range", "as a range", lambda c: "as its middle "
                 f"({format_number(c[2])})"),
                ("saturation", "with how the saturation was measured",
                 lambda c: f"as the saturation ({format_number(c[2])} %); whether the "
                           "patient was on oxygen is not read")):
            if info.get(key):
                cells = info[key]
                report.notes.append(
                    f"Column '{_q(col)}': {len(cells):,} cell(s) written {written} (e.g. "
                    f"'{_q(cells[0][1], 20)}', CSV line {cells[0][0] + 2}) read "
                    f"{read(cells[0])}.")
        if info.get("thousands"):
            report.notes.append(f"column '{_q(col)}': {info['thousands']} value(s) written "
                                "with thousands separators (e.g. '1.234,5' or '1 234,5') "
                                "were read as numbers (1234.5).")
        split = info.get("split") or []
        if split:
            pairs = info.get("split_limits") or {}
            report.notes.append(
                f"Column '{_q(col)}': a limit written on both sides ("
                + "; ".join(f"'<{format_number(k)}' and '>{format_number(k)}' read as "
                            f"{format_number(k - d)} and {format_number(k + d)}"
                            for k, d in sorted(pairs.items()))
                + "): a patient below it and one above it are not one value.")
            apart = {(r, c) for r, c, _ in split}
            cens = [(r, c) for r, c in cens if (r, c) not in apart]
        if cens:
            seen = list(dict.fromkeys(c for _, c in cens))[:3]  # '>90' once, not thrice
            # "below" for "<5" (walk-through 74 read "beyond" as above it)
            below = {c.strip()[:1] in "<≤⩽" for _, c in cens}  # else "> 90", "4 +"
            where = ("below it" if below == {True} else "above it" if below == {False}
                     else "below a '<' limit, above a '>' one")
            report.notes.append(
                f"Column '{_q(col)}': {len(cens):,} value{'s' if len(cens) != 1 else ''} "
                f"written as a limit ({quoted_names(seen, width=20)}; "
                f"CSV {csv_lines([r + 2 for r, _ in cens[:3]])}"
                f"{' …' if len(cens) > 3 else ''}) read as the limit itself: the true value "
                f"lies {where}.")
        extreme = sorted({s for _, s in bad if extreme_word(s)})
        # walk-through 75's pack-years "0-10" were said to be text beside "40-50" read as 45
        wide = list(dict.fromkeys(s.strip() for _, s in bad if wide_range(s)))
        these = "this cell" if len(bad) == 1 else "these cells"
        for cells, hint in ((bad, f"expected numbers; {these} (CSV {{lines}}) "
                                  f"{'was' if len(bad) == 1 else 'were'} set to missing." + (
                                      f" {quoted_names(extreme[:3], width=20)} may mean a "
                                      "value beyond what the test reads, or a band of "
                                      "values, not an unknown one: write the value, or a "
                                      "limit ('<' or '>' a number in the column's unit), "
                                      "to keep it." if extreme else "") + (
                                      f" {quoted_names(wide[:3], width=20)}: a range "
                                      "whose upper bound is more than three times its lower "
                                      "one (plus 3) stands for no one value; a narrower one, "
                                      "such as '40-50', is read as its middle." if wide
                                      else "")),
                            (inf, "infinite values were set to missing.")):
            if cells:
                report.stray_text.append(StrayText(
                    column=col, count=len(cells), rows=[r + 2 for r, _ in cells[:5]],
                    # different ones: "e.g. 'n.d.', 'n.d.', 'n.d.'" said one thing thrice
                    examples=list(dict.fromkeys(_q(s, 40) for _, s in cells))[:3],
                    # "…" when more cells than the three named (walk-through 76 read "7
                    # cell(s) … (CSV lines 16, 168, 221)" as the whole list)
                    hint=hint.format(lines=csv_lines([r + 2 for r, _ in cells[:3]])
                                     + (" …" if len(cells) > 3 else ""))))

    def transform(self, X: pd.DataFrame) -> np.ndarray:
        """Encode a table with the fitted roles and tables (columns aligned by name).

        Writes nothing on the encoder; :meth:`transform_with_report` also returns what was
        read (missing and extra columns, unknown values, missing tokens).

        Parameters
        ----------
        X : pandas.DataFrame
            Patients to encode; column names match the fitted ones case- and
            space-insensitively.

        Returns
        -------
        ndarray of shape (n_patients, n_features_out)
            The features of ``feature_names_out_``; ``NaN`` = missing.
        """
        return self.transform_with_report(X)[0]

    def transform_with_report(self, X: pd.DataFrame) -> tuple[np.ndarray, ValidationReport]:
        """Encode a table and say what was read; the encoder is not changed.

        Model columns absent from the table become missing values and extra columns are
        ignored; both are listed in the report.

        Parameters
        ----------
        X : pandas.DataFrame
            Patients to encode; column names match the fitted ones case- and
            space-insensitively.

        Returns
        -------
        X_encoded : ndarray of shape (n_patients, n_features_out)
            As :meth:`transform` returns it.
        report : ValidationReport
            Missing and extra columns, unknown values, stray text, missing tokens.
        """
        check_is_fitted(self, "feature_names_out_")
        # the TNM and blood-pressure columns the model was fitted with, split in a new
        # patients' table however few its rows (read_table splits a column of 5 or more)
        df = add_ages(self._check_frame(X), getattr(self, "ages_", {}), fitted=True)[0]
        units = getattr(self, "units_", {})
        df = split_cells(df, fitted=self.input_columns_, durations=[
            c for c in self.input_columns_ if self.roles_.get(c) == "numeric"
            and unit_key(str(units.get(c) or header_unit(c) or "")) in _TIME_UNITS],
            answers=self.answers, scales=getattr(self, "scales_", {}),
            cut_offs=getattr(self, "cut_offs_", {}),
            gleason=getattr(self, "gleason_columns_", []),
            lesions=lesion_columns(self.input_columns_, self.roles_),
            word_bands=getattr(self, "word_bands_", {}),
            acuity=getattr(self, "acuity_scales_", {}))
        report = self._start_report(df)
        # the model's list columns, with the model's answers ("Comorbidities: CKD")
        df, _, notes = split_lists(df, known=getattr(self, "answer_lists_", {}))
        report.notes += notes
        df = split_untestable(df, known=getattr(self, "untestable_", []))[0]
        df = self._align_columns(df.set_axis([str(c) for c in df.columns], axis=1), report)
        X_all = self._encode(df, self.encoded_columns_, report, new=True)
        keep = [self.encoded_columns_.index(f) for f in self.feature_names_out_]
        out, computed = derive_body_size(X_all[:, keep], list(self.feature_names_out_),
                                         getattr(self, "body_size_", None))
        if computed:
            report.notes.append("Computed from the other two of BMI, weight and height: "
                                + quoted_names(list(computed)) + ".")
        out, never = fill_never_smoked(out, list(self.feature_names_out_),
                                       getattr(self, "never_smoked_", None))
        if never.any():
            report.notes.append(f"'{_q(self.never_smoked_['pack_years'])}' is 0 for a "
                                "never-smoker whose pack-years are left empty.")
        self._summarise_features(out, report)
        return out, report

    def _align_columns(self, df: pd.DataFrame, report: ValidationReport) -> pd.DataFrame:
        """Rename columns to the fitted names, add absent ones as empty; report both kinds."""
        present = {norm_key(c): c for c in df.columns}
        rename = {}
        missing_cols = []
        for col in self.encoded_columns_:
            if col in df.columns:
                continue
            if norm_key(col) in present:
                rename[present[norm_key(col)]] = col
            else:
                missing_cols.append(col)
        df = df.rename(columns=rename)
        known = set(self.input_columns_)
        extra = [c for c in df.columns if c not in known]
        if missing_cols:
            df = df.assign(**{col: "" for col in missing_cols})
        # only the model's features are worth a word: a column the filters dropped at fit
        # (all missing, constant, a copy) was named to a new patient typed into the form
        features = set(self.feature_names_out_)
        missing_cols = [c for c in missing_cols if c in features]
        report.absent_columns = list(missing_cols)
        if missing_cols:
            one = len(missing_cols) == 1
            # a list column's yes/no columns, named once as the table's column (walk-through
            # 28 read 'Comorbidities: CHF' … (+6) among 14 columns)
            shown, grouped = list(missing_cols), []
            for col, items in getattr(self, "answer_lists_", {}).items():
                group = [c for c in list_columns(col, items) if c in missing_cols]
                if len(group) > 1:
                    shown = [c for c in shown if c not in group]
                    grouped.append(f"'{_q(col, 40)}' ({len(group)} yes/no columns)")
            report.warnings.append(
                f"{_columns(len(missing_cols))} of the model {'is' if one else 'are'} not in "
                f"this table and {'is' if one else 'are'} treated as missing: "
                + ", ".join([*grouped, *([quoted_names(shown, width=40)] if shown else [])])
                + ".")
        if extra:
            report.notes.append(f"{_columns(len(extra))} unknown to the model "
                                f"{'is' if len(extra) == 1 else 'are'} ignored: "
                                f"{quoted_names(extra, width=40)}.")
        return df

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Names of the encoded features.

        Parameters
        ----------
        input_features : ignored
            The names are those of the fitted table.

        Returns
        -------
        ndarray of str
            ``feature_names_out_``, the columns of the encoded matrix in order.
        """
        check_is_fitted(self, "feature_names_out_")
        return np.asarray(self.feature_names_out_, dtype=object)

    # ------------------------------------------------------------------ labels and ids
    def labels(self, df: pd.DataFrame) -> np.ndarray:
        """The outcome of every patient.

        Parameters
        ----------
        df : pandas.DataFrame
            A table with the outcome column (``label_column``).

        Returns
        -------
        ndarray of object
            The outcome as text; ``None`` where it is missing (empty or a missing token).

        Raises
        ------
        DataError
            No outcome column was set, or the table does not hold it.
        """
        if self.label_column is None:
            raise DataError("No outcome column was set (label_column).")
        if self.label_column not in df.columns:
            raise DataError(f"The outcome column {_q(self.label_column)!r} is not in the "
                            "table.")
        lab = df[self.label_column]
        out = self._outcome_text(lab)
        out[self._label_missing(lab)] = None
        out[self._aside(out)] = None  # set aside (min_outcome_patients): not recorded
        return out

    def _aside(self, outcomes: np.ndarray) -> np.ndarray:
        """Which of ``outcomes`` (text) were set aside by ``min_outcome_patients``."""
        rare = list(getattr(self, "rare_outcomes_", {}))
        return pd.Series(outcomes, dtype=object).isin(rare).to_numpy() if rare else \
            np.zeros(len(outcomes), bool)

    def set_aside(self, df: pd.DataFrame) -> np.ndarray:
        """The outcome of every patient whose outcome was set aside
        (``min_outcome_patients``), ``None`` for the others.

        Parameters
        ----------
        df : pandas.DataFrame
            A table with the outcome column.

        Returns
        -------
        ndarray of object
        """
        out = np.full(len(df), None, dtype=object)
        if not getattr(self, "rare_outcomes_", {}) or self.label_column not in df.columns:
            return out
        text = self._outcome_text(df[self.label_column])
        aside = self._aside(text)
        out[aside] = text[aside]
        return out

    def _outcome_text(self, lab: pd.Series) -> np.ndarray:
        """The outcome column as text, each outcome in one spelling."""
        text = cell_text(lab)
        spelled = getattr(self, "label_spellings_", None)
        if spelled:  # "READMITTED", "readmitted" and "Re-admitted" are one outcome
            spelled = {loose_key(k): s for k, s in spelled.items()}  # older files: norm keys
            keys = cell_keys(text).map(loose_key)
            text = text.where(~keys.isin(list(spelled)), keys.map(spelled))
        return text.to_numpy(dtype=object)

    def _set_aside_rare_outcomes(self, labels: np.ndarray, report: ValidationReport
                                 ) -> np.ndarray:
        """Set ``rare_outcomes_`` (outcomes held by fewer than ``min_outcome_patients`` of
        the patients kept) and note them; which patients' outcomes are set aside."""
        none = np.zeros(len(labels), bool)
        if self.min_outcome_patients <= 1:
            return none
        vals = pd.Series(labels, dtype=object)
        counts = vals[self.keep_patients_ & vals.notna().to_numpy()].value_counts()
        rare = counts[counts < self.min_outcome_patients]
        if not len(rare) or len(rare) == len(counts):
            return none
        self.rare_outcomes_ = {str(k): int(v) for k, v in rare.items()}
        report.outcomes_set_aside = {_q(k, 60): v for k, v in self.rare_outcomes_.items()}
        aside = self._aside(labels)
        rows = [int(i) + 2 for i in np.flatnonzero(aside)[:5]]
        total = vals.value_counts()

        def held(k: str, v: int) -> str:
            # walk-through 33: "(1 patient) set aside … CSV lines 6, 11" counted the
            # patients kept and listed every patient with the outcome
            n = int(total.get(k, v))
            return (f"{v:,} patient{'s' if v != 1 else ''}" if n == v else
                    f"{n:,} patients, {v:,} of them kept for training")

        named = ", ".join(f"{_q(k, 40)!r} ({held(k, v)})"
                          for k, v in list(self.rare_outcomes_.items())[:5])
        report.notes.append(
            f"Outcome {_q(self.label_column)!r}: {named} set aside (fewer than "
            f"{self.min_outcome_patients} patients"
            # walk-through 52: "(25 patients, 1 of them kept …) set aside (fewer than 3"
            + (" kept for training" if any(int(total.get(k, v)) != v
                                           for k, v in self.rare_outcomes_.items()) else "")
            + f"; CSV {csv_lines(rows)}"
            f"{' …' if aside.sum() > 5 else ''}): read as not recorded, so "
            f"{'its patients are' if aside.sum() != 1 else 'the patient is'} left out of "
            "training and shown on the map as such. An outcome this rare cannot be learned "
            "or checked.")
        return aside

    def _learn_label_spellings(self, df: pd.DataFrame, report: ValidationReport) -> None:
        """One spelling per outcome: answers that differ only in case, spaces, hyphens,
        underscores or full stops read as their most common spelling
        (``label_spellings_``: ``{key: spelling}`` of the outcomes written more than one
        way, keys by :func:`~sparge.data.parsing.loose_key`). A walk-through's
        "Readmitted / readmitted / READMITTED" had become three outcomes, and another's
        "Event-free / event free" two; the outcome has no encoding table entry where the
        user could merge them."""
        self.label_spellings_ = {}
        if self.label_column is None or self.label_column not in df.columns:
            return
        text = cell_text(df[self.label_column])
        keys = cell_keys(text).map(loose_key)
        # not a gap ("lost to follow-up" is no "Yes" for an outcome "lost ≥15 letters",
        # though the note said so: walk-through 104)
        gap = self._label_missing(df[self.label_column])
        cells = pd.DataFrame({"k": keys, "s": text})[(text != "") & (keys != "") & ~gap]
        counts = cells.value_counts()  # most common spelling first within each key
        variants = cells.drop_duplicates()
        many = variants.groupby("k")["s"].nunique()
        many = many[many > 1].index
        first = {}
        for (k, s), _ in counts.items():
            first.setdefault(k, s)
        self.label_spellings_ = {k: first[k] for k in many}
        at = len(report.notes)
        self._merge_yes_no_outcomes(first, cells["k"].value_counts(), report)
        if len(many):  # said in the spelling the outcome is shown in after both merges
            # (walk-through 61 read "'Yes' as 'yes'" beside outcomes shown "Yes")
            shown = [(k, self.label_spellings_.get(k, first[k])) for k in many][:5]
            merged = "; ".join(
                f"{', '.join(repr(_q(v, 30)) for v in variants.s[variants.k == k] if v != s)} "
                f"as {_q(s, 30)!r}" for k, s in shown)
            report.notes.insert(at, f"Outcome {_q(self.label_column)!r}: answers that differ "
                                f"only in case, spaces or hyphens are one outcome: read "
                                f"{merged}{' …' if len(many) > 5 else ''}.")

    def _merge_yes_no_outcomes(self, first: dict[str, str], counts: pd.Series,
                               report: ValidationReport) -> None:
        """A yes/no outcome written two ways ("Yes", "Y", "1"; "No", "N", "0") is one
        outcome per answer, read in its most common spelling of more than one letter
        (walk-through 31: "NICU admission" held Yes, Y, No and N, learned as four
        outcomes; the leak check, which needs the real two, then missed a discharge
        code). An answer naming the column's event or its opposite is a yes or a no
        too (walk-through 33's "Admitted": Yes, Y, 1, "admitted"; No, N, 0, "discharged":
        :func:`~sparge.data.column_guess.event_answer_codes`). ``first``: ``{key: most
        common spelling}``; ``counts``: cells per key."""
        codes = yes_no_codes(list(first.values()))
        if codes is None:
            # no yes and no written, but the event's words and its opposite's, with 1
            # and 0 (walk-through 58's "ICU mortality": Alive, A, survived, 0; Died, D,
            # dead, 1 were eight outcomes)
            event = event_answer_codes(self.label_column, first.values(), {})
            if not ({1, 2} <= set(event.values())):
                return
            codes = {**event, **{v: 1 if norm_key(v) in ("1", "true") else 2
                                 for v in first.values()
                                 if norm_key(v) in ("1", "0", "true", "false")}}
        else:
            codes = {**codes, **event_answer_codes(self.label_column, first.values(),
                                                   codes)}
        said = []
        for code in (1, 2):  # yes, no; an "unknown" (0) or another answer stays apart
            keys = [k for k in first if codes.get(first[k]) == code]
            others = [k for k in first if codes.get(first[k]) == 3 - code]
            if len(keys) == 1 and len(others) > 1 and \
                    first[keys[0]].strip().lower() in ("yes", "no"):
                # one spelling beside the other answer's merged "Yes": "No", not "no"
                # (walk-through 77's legend read "Yes" and "no"); a case, said nowhere
                self.label_spellings_[keys[0]] = "Yes" if code == 1 else "No"
            if len(keys) < 2:
                continue
            # "Yes" / "No" when written so (not "Admitted" beside "discharged")
            best = max(keys, key=lambda k: (first[k].strip().lower() in ("yes", "no"),
                                            len(first[k]) > 1, int(counts.get(k, 0))))
            shown = self.label_spellings_.get(best, first[best])
            written = {first[k].strip().lower() for k in keys}
            named = [k for k in keys if not first[k].strip().isdigit()
                     and len(first[k].strip()) > 1]
            if written & {"yes", "no", "y", "n"} or (written & {"1", "0"} and not named):
                shown = "Yes" if code == 1 else "No"  # "Yes" / "No", not "YES" or
            elif written & {"1", "0"}:  # "Discharged" (walk-throughs 33, 34); the event's
                # word beside 1 and 0 ("Died", "Alive"), its most common spelling
                best = max(named, key=lambda k: int(counts.get(k, 0)))
                shown = self.label_spellings_.get(best, first[best])
            # a word merged from several, in the case outcomes are shown in: walk-through
            # 102's legend read "Alive" beside "deceased"
            if shown[:1].islower():
                shown = shown[:1].upper() + shown[1:]
            for k in keys:
                self.label_spellings_[k] = shown
            read = [repr(_q(first[k], 30)) for k in keys if k != best]
            # the first few (walk-through 104 listed nine "yes - 18 letters" and the like)
            listed = ", ".join(read) if len(read) <= 5 else \
                f"{', '.join(read[:4])} and {len(read) - 4} more"
            said.append(f"{listed} as {_q(shown, 30)!r}")
        if said:
            report.notes.append(f"Outcome {_q(self.label_column)!r}: the same answer written "
                                f"two ways is one outcome: read {'; '.join(said)}.")

    def ids(self, df: pd.DataFrame) -> np.ndarray:
        """The ID of every patient.

        Parameters
        ----------
        df : pandas.DataFrame
            A patient table.

        Returns
        -------
        ndarray of object
            The ID column as text. Without one (or when the table does not hold it), a
            column named like a patient identifier that was not the ID because some of
            its IDs repeat or are empty (:meth:`naming_column`): its IDs, those repeated
            or empty with their CSV line ("DM10326 (line 904)", "line 17"), so that a
            clinician finds the patient in the file (walk-through 29 read row numbers
            under "Patient ID"). Else the CSV lines ``"line 2"``, ``"line 3"``, ... (walk-
            through 33 read "809" as an ID: it was the row of CSV line 811).
        """
        if self.id_column is not None and self.id_column in df.columns:
            return cell_text(df[self.id_column]).to_numpy(dtype=object)
        named = self.naming_column(df)
        if named is not None:
            # one patient's IDs as one, however their prefix is written ("MRN8191581"
            # beside "8191581": walk-through 101)
            text = id_text(df[named]).reset_index(drop=True)
            unclear = (text == "") | text.duplicated(keep=False)
            line = pd.Series([f"line {i + 2}" for i in range(len(text))])
            return text.where(~unclear, (text + " (" + line + ")").where(
                text != "", line)).to_numpy(dtype=object)
        return np.asarray([f"line {i + 2}" for i in range(len(df))], dtype=object)

    def naming_column(self, df: pd.DataFrame) -> str | None:
        """The column that names the patients of ``df``: the ID column, else the first
        column named like a patient identifier ("Patient ID", "MRN"; its IDs may repeat),
        else ``None`` (patients are named by their CSV line)."""
        if self.id_column is not None and self.id_column in df.columns:
            return str(self.id_column)
        return next((str(c) for c in df.columns if named_like_id(str(c))
                     and str(c) != str(self.label_column)), None)

    def training_rows(self, df: pd.DataFrame) -> np.ndarray:
        """The patients to train on.

        Parameters
        ----------
        df : pandas.DataFrame
            The table the encoder was fitted on.

        Returns
        -------
        ndarray of bool
            ``keep_patients_`` (enough values), and an outcome when a label column is set.
        """
        check_is_fitted(self, "keep_patients_")
        keep = self.keep_patients_.copy()
        if self.label_column is not None:
            keep &= ~self._label_missing(df[self.label_column])
            if getattr(self, "rare_outcomes_", {}):
                keep &= pd.notna(pd.Series(self.labels(df), dtype=object)).to_numpy()
        return keep

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        """The fitted state as plain data, for saving as JSON.

        Returns
        -------
        dict
            Parameters, roles, encoding table, missing tokens and column names. ``table``
            keeps the ``{column: {level: code}}`` form of earlier versions; the order flags
            and missing tokens are the added keys ``ordered``, ``missing_tokens`` and
            ``column_missing_tokens``; the units learned from the cells, ``units``; the
            columns read with dots as thousands separators, ``thousands_dot``; with commas,
            ``thousands_comma``.
        """
        check_is_fitted(self, "feature_names_out_")
        return {"params": {"id_column": self.id_column, "label_column": self.label_column,
                           "max_patient_missing": self.max_patient_missing,
                           "drop_all_missing": self.drop_all_missing,
                           "drop_constant": self.drop_constant,
                           "merge_duplicates": self.merge_duplicates,
                           "numeric_threshold": self.numeric_threshold,
                           "max_levels": self.max_levels,
                           "min_outcome_patients": self.min_outcome_patients,
                           "clear_far": self.clear_far,
                           "convert_slips": self.convert_slips,
                           "ages": _plain_ages(self.ages),
                           "leave_out_copies": self.leave_out_copies,
                           "blank_as_no": list(self.blank_as_no or []) or None,
                           "merge_spellings": self.merge_spellings,
                           "merge_pairs": {str(c): [[str(a), str(b)] for a, b in ps]
                                           for c, ps in (self.merge_pairs or {}).items()}
                           or None},
                "ages": _plain_ages(getattr(self, "ages_", {})),
                "roles": self.roles_, "table": self.table_.to_dict(),
                "ordered": {c: self.table_.is_ordered(c) for c in self.table_.columns()},
                "missing_tokens": self.table_.missing_tokens,
                "column_missing_tokens": self.table_.column_missing_tokens(),
                "units": dict(getattr(self, "units_", {})),
                "value_units": dict(getattr(self, "value_units_", {})),
                "answer_lists": {c: list(v) for c, v in
                                 getattr(self, "answer_lists_", {}).items()},
                "untestable": list(getattr(self, "untestable_", [])),
                "unit_conversions": {c: {k: list(v) for k, v in conv.items()} for c, conv
                                     in getattr(self, "unit_conversions_", {}).items()},
                "thousands_dot": list(getattr(self, "thousands_dot_", [])),
                "thousands_comma": list(getattr(self, "thousands_comma_", [])),
                "score_maxima": dict(getattr(self, "score_maxima_", {})),
                "scales": dict(getattr(self, "scales_", {})),
                "cut_offs": dict(getattr(self, "cut_offs_", {})),
                "gleason_columns": list(getattr(self, "gleason_columns_", [])),
                "acuity_scales": dict(getattr(self, "acuity_scales_", {})),
                "word_bands": {c: dict(b) for c, b in
                               getattr(self, "word_bands_", {}).items()},
                "detection_limits": dict(getattr(self, "detection_limits_", {})),
                "split_limits": {c: [[k, v] for k, v in steps.items()] for c, steps in
                                 getattr(self, "split_limits_", {}).items()},
                "zero_columns": list(getattr(self, "zero_columns_", [])),
                "unable_values": dict(getattr(self, "unable_values_", {})),
                "unlimited_values": dict(getattr(self, "unlimited_values_", {})),
                "plain_splits": {c: list(v) for c, v in
                                 getattr(self, "plain_splits_", {}).items()},
                "body_size": dict(getattr(self, "body_size_", {})),
                "never_smoked": dict(getattr(self, "never_smoked_", {})),
                "input_columns": self.input_columns_,
                "label_spellings": getattr(self, "label_spellings_", {}),
                "rare_outcomes": dict(getattr(self, "rare_outcomes_", {})),
                "encoded_columns": self.encoded_columns_,
                "feature_names_out": self.feature_names_out_}

    @classmethod
    def from_dict(cls, state: dict) -> Encoder:
        """A fitted encoder from the state :meth:`to_dict` gives.

        Parameters
        ----------
        state : dict
            The state; that of earlier versions loads too (no order flags or tokens: the
            default tokens, order from the recognised scales; no units: only the units of
            the column names are read; no ``thousands_dot``: "1.527" reads 1.527).

        Returns
        -------
        Encoder
            Ready to transform (``keep_patients_`` is empty: the training rows are not
            saved).

        Raises
        ------
        ValueError
            The state is malformed.
        """
        blank = state["params"].get("blank_as_no")
        if blank is not None and not (isinstance(blank, list)
                                      and all(isinstance(c, str) for c in blank)):
            raise ValueError("blank_as_no must be a list of column names")
        pairs = state["params"].get("merge_pairs")
        if pairs is not None and not (isinstance(pairs, dict) and all(
                isinstance(ps, list) and all(isinstance(p, list) and len(p) == 2 and all(
                    isinstance(a, str) for a in p) for p in ps) for ps in pairs.values())):
            raise ValueError("merge_pairs must be {column: [[answer, merged into], ...]}")
        enc = cls(**state["params"])
        enc.roles_ = {str(k): str(v) for k, v in state["roles"].items()}
        tokens = state.get("missing_tokens")
        if tokens is not None and not (isinstance(tokens, list)
                                       and all(isinstance(t, str) for t in tokens)):
            raise ValueError("missing_tokens must be a list of text")
        ordered = state.get("ordered") or {}
        if not isinstance(ordered, dict) or not all(isinstance(v, bool)
                                                    for v in ordered.values()):
            raise ValueError("ordered must be {column: true/false}")
        try:
            enc.table_ = EncodingTable(state["table"], missing_tokens=tokens, ordered=ordered)
            for col, toks in (state.get("column_missing_tokens") or {}).items():
                if not isinstance(toks, list):
                    raise ValueError("column_missing_tokens must be {column: [text]}")
                enc.table_.set_missing_tokens([str(t) for t in toks], column=str(col))
        except DataError as exc:
            raise ValueError(str(exc)) from exc
        units = state.get("units") or {}
        if not isinstance(units, dict) or not all(isinstance(v, str) for v in units.values()):
            raise ValueError("units must be {column: unit text}")
        enc.units_ = {str(k): v for k, v in units.items()}
        value_units = state.get("value_units") or {}
        if not isinstance(value_units, dict) or not all(isinstance(v, str)
                                                        for v in value_units.values()):
            raise ValueError("value_units must be {column: unit text}")
        enc.value_units_ = {str(k): v for k, v in value_units.items()}
        lists = state.get("answer_lists") or {}
        if not isinstance(lists, dict) or not all(
                isinstance(v, list) and all(isinstance(i, str) for i in v)
                for v in lists.values()):
            raise ValueError("answer_lists must be {column: [answer text]}")
        enc.answer_lists_ = {str(k): list(v) for k, v in lists.items()}
        tests = state.get("untestable") or []
        if not isinstance(tests, list) or not all(isinstance(c, str) for c in tests):
            raise ValueError("untestable must be [column name]")
        enc.untestable_ = list(tests)
        enc.unit_conversions_ = _unit_conversions(state.get("unit_conversions") or {})
        dots = state.get("thousands_dot") or []
        if not isinstance(dots, list) or not all(isinstance(c, str) for c in dots):
            raise ValueError("thousands_dot must be a list of column names")
        enc.thousands_dot_ = list(dots)
        commas = state.get("thousands_comma") or []
        if not isinstance(commas, list) or not all(isinstance(c, str) for c in commas):
            raise ValueError("thousands_comma must be a list of column names")
        enc.thousands_comma_ = list(commas)
        maxima = state.get("score_maxima")
        if maxima is not None and (not isinstance(maxima, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 999
                for v in maxima.values())):
            raise ValueError("score_maxima must be {column: the maximum a score is out of}")
        if maxima is not None:  # older files: each column's own, as before
            enc.score_maxima_ = {str(k): int(v) for k, v in maxima.items()}
        scales = state.get("scales") or {}
        if not isinstance(scales, dict) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and v in (10, 100)
                for v in scales.values()):
            raise ValueError("scales must be {column: 10 or 100}")
        enc.scales_ = {str(k): float(v) for k, v in scales.items()}
        gleason = state.get("gleason_columns") or []
        if not isinstance(gleason, list) or not all(isinstance(c, str) for c in gleason):
            raise ValueError("gleason_columns must be a list of column names")
        enc.gleason_columns_ = list(gleason)
        acuity = state.get("acuity_scales") or {}
        if not isinstance(acuity, dict) or not all(
                v in (LOGMAR, LETTERS) for v in acuity.values()):
            raise ValueError(f"acuity_scales must be {{column: '{LOGMAR}' or '{LETTERS}'}}")
        enc.acuity_scales_ = {str(c): v for c, v in acuity.items()}
        bands = state.get("word_bands") or {}
        if not isinstance(bands, dict) or not all(
                isinstance(b, dict) and all(_is_number_text(k) and _is_number_text(v)
                                            for k, v in b.items())
                for b in bands.values()):
            raise ValueError("word_bands must be {column: {a word's value: the band's "
                             "value}}, numbers written as text")
        enc.word_bands_ = {str(c): dict(b) for c, b in bands.items()}
        cuts = state.get("cut_offs") or {}
        if not isinstance(cuts, dict) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and v > 0 for v in cuts.values()):
            raise ValueError("cut_offs must be {column: a positive number}")
        enc.cut_offs_ = {str(k): float(v) for k, v in cuts.items()}
        limits = state.get("detection_limits")
        if limits is not None and (not isinstance(limits, dict) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in limits.values())):
            raise ValueError("detection_limits must be {column: a finite number}")
        enc.detection_limits_ = {str(k): float(v) for k, v in (limits or {}).items()}
        split = state.get("split_limits") or {}
        if not isinstance(split, dict) or not all(
                isinstance(pairs, list) and all(
                    isinstance(p, list) and len(p) == 2 and all(
                        isinstance(x, (int, float)) and not isinstance(x, bool)
                        and math.isfinite(x) for x in p) and p[1] > 0 for p in pairs)
                for pairs in split.values()):
            raise ValueError("split_limits must be {column: [[limit, a positive step], ...]}")
        enc.split_limits_ = {str(c): {float(k): float(v) for k, v in pairs}
                             for c, pairs in split.items()}
        enc.unable_values_ = _finite_values(state, "unable_values")
        enc.unlimited_values_ = _finite_values(state, "unlimited_values")
        enc.plain_splits_ = _checked_plain_splits(state.get("plain_splits") or {})
        enc.body_size_ = _checked_body_size(state.get("body_size") or {})
        enc.never_smoked_ = _checked_never_smoked(state.get("never_smoked") or {})
        zeros = state.get("zero_columns")
        if zeros is not None and (not isinstance(zeros, list)
                                  or not all(isinstance(c, str) for c in zeros)):
            raise ValueError("zero_columns must be a list of column names")
        if zeros is not None:  # older files: each column's own cells, as before
            enc.zero_columns_ = list(zeros)
        enc.input_columns_ = [str(c) for c in state["input_columns"]]
        enc.ages_ = _checked_ages(state.get("ages") or {})
        spelled = state.get("label_spellings") or {}
        if not isinstance(spelled, dict):
            raise ValueError("label_spellings must be {key: spelling}")
        enc.label_spellings_ = {str(k): str(v) for k, v in spelled.items()}
        rare = state.get("rare_outcomes") or {}
        if not isinstance(rare, dict) or not all(isinstance(v, int) for v in rare.values()):
            raise ValueError("rare_outcomes must be {outcome: patients}")
        enc.rare_outcomes_ = {str(k): v for k, v in rare.items()}
        enc.encoded_columns_ = [str(c) for c in state["encoded_columns"]]
        enc.feature_names_out_ = [str(c) for c in state["feature_names_out"]]
        if not set(enc.feature_names_out_) <= set(enc.encoded_columns_):
            raise ValueError("feature names are not among the encoded columns")
        enc.n_features_in_ = len(enc.input_columns_)
        enc.keep_patients_ = np.zeros(0, bool)
        return enc


#: An outcome that is (or includes) a death, by its name.
_DEATH_OUTCOME = re.compile(r"\b(?:death|died|dead|deceased|mortality|survival|surviv\w*)\b",
                            re.IGNORECASE)


def _is_number_text(text: object) -> bool:
    """Whether a saved model's entry is a finite number written as text ("43", "47.5")."""
    if not isinstance(text, str) or len(text) > 20:
        return False
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _finite_values(state: dict, key: str) -> dict[str, float]:
    """A saved model's ``{column: a finite number}`` entry ``key``, checked."""
    values = state.get(key) or {}
    if not isinstance(values, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in values.values()):
        raise ValueError(f"{key} must be {{column: a finite number}}")
    return {str(k): float(v) for k, v in values.items()}


def _split_of(saved: list | None) -> tuple[float, float, float] | None:
    """``(low, high, factor)`` of a column's :attr:`Encoder.plain_splits_` entry."""
    return None if not saved else (float(saved[1]), float(saved[2]), float(saved[3]))


def _checked_plain_splits(state: object) -> dict[str, list]:
    """A saved model's ``plain_splits``, checked: ``{column: [unit, low, high, factor]}``
    with ``0 < low <= high`` and a positive factor."""
    def ok(v) -> bool:
        return isinstance(v, list) and len(v) == 4 and isinstance(v[0], str) and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            and x > 0 for x in v[1:]) and v[1] <= v[2]

    if not isinstance(state, dict) or not all(ok(v) for v in state.values()):
        raise ValueError("plain_splits must be {column: [unit, low, high, a positive factor]}")
    return {str(c): [v[0], float(v[1]), float(v[2]), float(v[3])] for c, v in state.items()}


def _checked_body_size(state: object) -> dict:
    """``body_size`` of a saved encoder, checked: ``{}`` or the three columns' names and
    two positive finite factors (ValueError otherwise)."""
    if state == {}:
        return {}
    if not (isinstance(state, dict) and set(state) == {"bmi", "weight", "height", "kg", "m"}
            and all(isinstance(state[k], str) for k in ("bmi", "weight", "height"))
            and all(isinstance(state[k], int | float) and not isinstance(state[k], bool)
                    and math.isfinite(state[k]) and state[k] > 0 for k in ("kg", "m"))):
        raise ValueError("body_size must be {bmi, weight, height: column; kg, m: factor}")
    return {k: state[k] if k in ("bmi", "weight", "height") else float(state[k])
            for k in ("bmi", "weight", "height", "kg", "m")}


def _checked_never_smoked(state: object) -> dict:
    """``never_smoked`` of a saved encoder, checked: ``{}`` or the two columns' names and
    the never answers' finite codes (ValueError otherwise)."""
    if state == {}:
        return {}
    if not (isinstance(state, dict) and set(state) == {"pack_years", "smoking", "never"}
            and isinstance(state["pack_years"], str) and isinstance(state["smoking"], str)
            and isinstance(state["never"], list) and state["never"]
            and all(isinstance(c, int | float) and not isinstance(c, bool)
                    and math.isfinite(c) for c in state["never"])):
        raise ValueError("never_smoked must be {pack_years, smoking: column; never: [codes]}")
    return {"pack_years": state["pack_years"], "smoking": state["smoking"],
            "never": [float(c) for c in state["never"]]}


def _plain_ages(ages: Mapping | None) -> dict | None:
    """The ``ages`` setting as plain data for JSON (``None`` stays ``None``)."""
    if ages is None:
        return None
    return {str(k): {"born": str(v["born"]), "at": str(v["at"]),
                     "day_first": None if v.get("day_first") is None else bool(v["day_first"]),
                     "unit": str(v.get("unit") or "years")}
            for k, v in ages.items()}


def _checked_ages(ages) -> dict:
    """A saved ``ages_`` checked: ``{name: {"born": text, "at": text, "day_first": bool or
    null}}``."""
    if not isinstance(ages, dict):
        raise ValueError("ages must be {column: {born, at, day_first}}")
    for spec in ages.values():
        if not (isinstance(spec, dict) and isinstance(spec.get("born"), str)
                and isinstance(spec.get("at"), str)
                and spec.get("day_first") in (None, True, False)
                and spec.get("unit", "years") in ("years", "months", "days")):
            raise ValueError("ages must be {column: {born: text, at: text, day_first: "
                             "true/false/null}}")
    return _plain_ages(ages) or {}
