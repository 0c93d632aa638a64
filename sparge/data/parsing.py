"""Parsing cells: text to numbers, missing tokens, units (DESIGN.md §3).

:func:`parse_numeric` reads a column of cells as numbers (decimal commas, thousands
separators, censored values such as ``<0.1`` and infinities are recognised and reported);
:func:`numeric_share` tells how much of a column is numbers; :func:`column_units` which units
its cells are written with ("140 mmHg"). A text column's levels (their spellings, answers
written two ways, their order) are :mod:`sparge.data.levels`'; the missing tokens and
scales themselves live in :mod:`sparge.data.tables`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sparge.data.safe_text import quote as _q
from sparge.data.tables import (
    DEFAULT_MISSING_TOKENS,
    LONG_KEY,
    MALLAMPATI_NAME,
    SCALES,
    is_blank,
    norm_key,
)
from sparge.data.unable import (
    best_result,
    is_unable,
    is_unlimited,
    performance_direction,
    worst_result,
)

#: A word that is also a missing token (``None``, ``Unknown``) is a category of a text
#: column when it fills at least this share of the column's cells (and at least 2 cells).
CATEGORY_MIN_SHARE = 0.01

#: A plain number as Python writes it (``12``, ``-3.5``, ``.5``, ``1e3``).
NUMBER_PATTERN = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(rf"^{NUMBER_PATTERN}$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_EU_FULL = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+,\d+$")  # 1.234,5
_EU_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+$")  # 1.234 (1234 in a 1.234,5 column)
#: 1.527, 12.345.678: dots as thousands separators (never after a leading 0: 0.527 is a
#: decimal), read so in a column that :func:`thousands_dot_column` finds.
_DOT_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:\.\d{3})+$")
#: 362,656 and 1,234.5: commas as thousands separators, read so in a column that
#: :func:`thousands_comma_column` finds (a US export's platelets; a library review).
_COMMA_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$")
_SPACED = re.compile(r"^[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?$")  # 1 234,5
_INF_TOKENS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
#: A limit: "<15", ">= 90", "≤5", and with a decimal comma "<0,5" (walk-through 25's
#: "<0,5" and "≤1" were set to missing while "<5" was read).
#: (a screen's verdict after it is the limit's meaning: walk-through 72's 4AT ">=4
#: positive")
_CENSORED = re.compile(r"^\s*([<>]=?|[≤≥⩽⩾])\s*([+-]?(?:\d+,\d+|\d+\.?\d*|\.\d+))\s*"
                       r"(?:[(\[]?\s*(?:positive|negative|pos|neg|\+ve|-ve)\s*[)\]]?\s*)?$",
                       re.IGNORECASE)
#: A count written as its least value, "10+" (walk-through 47's medications and falls):
#: read as a limit in a numeric column, never counted towards a column's numbers (a urine
#: dipstick's "2+" is a grade among "neg" and "trace").
_AT_LEAST = re.compile(r"\s{0,3}(\d{1,6}(?:\.\d{1,4})?)\s{0,3}\+\s{0,3}")
#: The Glasgow coma scale written as its parts, "E3V4M5" or "E3 V4 M5" (eyes 1-4, verbal
#: 1-5, motor 1-6): read as their total, 12 (walk-through 27's ICU export wrote 435 of
#: its GCS cells so among totals, and the column was left out as free text).
_GCS = re.compile(r"E\s*([1-4])[\s,;/-]*V\s*([1-5])[\s,;/-]*M\s*([1-6])", re.IGNORECASE)
#: A Glasgow coma scale whose verbal part could not be tested (T: intubated), "E1VTM4",
#: "GCS 6T": no total can be read, a gap (walk-through 58's 250 sedated patients made
#: its column free text, left out).
_GCS_T = re.compile(r"\s{0,3}(?:E\s?[1-4][\s,;/-]{0,2}V\s?(?:T|NT|1T|ET)[\s,;/-]{0,2}"
                    r"M\s?[1-6]|(?:GCS\s{0,2})?(?:[2-9]|1[01])\s?T)\s{0,3}", re.IGNORECASE)


def gcs_untestable(cell: object) -> bool:
    """Whether a cell is a Glasgow coma scale without its verbal part (intubated)."""
    text = str(cell)
    return len(text) <= 20 and _GCS_T.fullmatch(text) is not None


#: A column of Glasgow coma scales, by its name.
_GCS_NAME = re.compile(r"\bgcs\b|glasgow|\bcoma\b", re.IGNORECASE)
#: Words for a Glasgow coma scale that cannot be assessed: the patient is intubated or
#: sedated (walk-through 101's "T" and "sedated").
_GCS_NOT_ASSESSABLE = frozenset({
    "t", "sedated", "intubated", "ventilated", "paralysed", "paralyzed", "sedated/intubated",
    "sedated and ventilated", "sedated & ventilated", "intubated and sedated",
    "intubated & sedated", "unassessable", "not assessable", "ett", "tubed"})


def gcs_column(column: object) -> bool:
    """Whether a column is named for the Glasgow coma scale ("GCS", "Glasgow coma")."""
    return _GCS_NAME.search(str(column)[:80]) is not None


def gcs_not_assessable(cell: object, column: object) -> bool:
    """Whether a cell of a column of Glasgow coma scales (by its name) says the scale
    could not be assessed: a scale without its verbal part ("E1VTM1", "8T") or a word
    for an intubated or sedated patient ("T", "sedated"). No patient is to blame for it:
    the patient's share of missing values does not count it (walk-through 101 left 26 %
    of its ventilated patients out of training, against 17 % of the others).

    Examples
    --------
    >>> [gcs_not_assessable(c, "GCS") for c in ["E1VTM4", "T", "sedated", "12", "unknown"]]
    [True, True, True, False, False]
    >>> gcs_not_assessable("sedated", "RASS")
    False
    """
    if not gcs_column(column):
        return False
    text = str(cell).strip()
    return len(text) <= 30 and (text.lower() in _GCS_NOT_ASSESSABLE
                                or _gcs_gap(text, True))
#: A column of a cognitive or delirium test the patient answers, by its name: the
#: abbreviated mental test, MMSE, MoCA, 4AT, 6CIT, ACE-III.
_COGNITIVE_NAME = re.compile(r"\bamts?\b|\bamt ?(?:4|10)\b|abbreviated mental|\bs?mmse\b|"
                             r"mini[\s-]?mental|\bmoca\b|montreal cognitive|\b4 ?at\b|"
                             r"\b6 ?cit\b|\bace[\s-]?(?:iii|3|r)\b|cognitive (?:score|test)",
                             re.IGNORECASE)
#: Words saying such a test could not be done with the patient (too drowsy, no common
#: language, deaf): walk-through 102's AMTS "unable", 20 of the frailest patients.
_UNTESTABLE = re.compile(r"(?:unable|not able|could not|couldn'?t|cannot)(?: to)?"
                         r"(?: (?:assess|complete|test|do|answer|engage|participate)\w*)?"
                         r"(?: (?:it|test))?(?: ?[-(:,] ?.{0,30})?|not testable|untestable|"
                         r"unassessable|not assessable|too drowsy|drowsy|aphasic|dysphasic|"
                         r"language barrier|unresponsive", re.IGNORECASE)


def cognitive_column(column: object) -> bool:
    """Whether a column is named for a cognitive or delirium test the patient answers
    ("AMTS", "MMSE", "Delirium (4AT)")."""
    return _COGNITIVE_NAME.search(str(column)[:80]) is not None


def untestable(cell: object, column: object) -> bool:
    """Whether a cell says the test a column is named for could not be done with the
    patient: a Glasgow coma scale of an intubated or sedated patient
    (:func:`gcs_not_assessable`), or a cognitive test the patient could not do ("unable",
    "unable - dementia", "too drowsy"). No patient is to blame for it: the patient's share
    of missing values does not count it (walk-through 102 left 12 of the 20 hip-fracture
    patients whose AMTS was "unable", the frailest, out of training).

    Examples
    --------
    >>> [untestable(c, "AMTS") for c in ["unable", "Unable - dementia", "6", "refused",
    ...                                  "not done"]]
    [True, True, False, False, False]
    >>> untestable("unable", "Creatinine"), untestable("sedated", "GCS")
    (False, True)
    """
    if gcs_not_assessable(cell, column):
        return True
    if not cognitive_column(column):
        return False
    text = str(cell).strip()
    return len(text) <= 40 and _UNTESTABLE.fullmatch(text) is not None


#: A bare "8T": a Glasgow coma scale only in a column named so ("3T" is also a magnet).
_BARE_T = re.compile(r"\s{0,3}\d{1,2}\s?T\s{0,3}", re.IGNORECASE)


def _gcs_gap(cell: str, gcs_column: bool) -> bool:
    """:func:`gcs_untestable`, a bare "8T" only in a column of Glasgow coma scales."""
    return gcs_untestable(cell) and (gcs_column or _BARE_T.fullmatch(cell) is None)


#: A gestational age written in weeks and days, "38+4", "38+4/7", "40w 5d", "38 weeks 4
#: days": read in weeks, 38 + 4/7 (walk-through 31: 670 of 700 infants' gestations were
#: left out as free text). Weeks 20 to 45 only: a parity "2+1" is no gestation.
_GESTATION = re.compile(r"\s*(2\d|3\d|4[0-5])\s*(?:\+|w(?:ee)?k?s?\s*\+?)\s*([0-6])\s*"
                        r"(?:/\s*7|d(?:ays?)?)?\s*", re.IGNORECASE)
#: A score written out of its maximum, "7/10", "14/27", "18/40" (pain, PHQ-9, AUDIT):
#: the score, when every such cell of the column has the same maximum
#: (:func:`score_maximum`; Snellen acuities "6/9", "6/12" have several, and a blood
#: pressure "120/80" is read by :mod:`sparge.data.blood_pressure`).
_FRACTION = re.compile(r"\s*(\d{1,3}(?:\.\d)?)\s*/\s*(\d{1,3})\s*")
#: A whole number written in words, "seven" (walk-through 33's pain scores).
_UNITS_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve "
                "thirteen fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
#: ... up to ninety-nine ("twenty-one", "twenty one": walk-through 35's PHQ-9)
NUMBER_WORDS = {**{w: i for i, w in enumerate(_UNITS_WORDS)},
                **{t: 20 + 10 * i for i, t in enumerate(_TENS_WORDS)},
                **{f"{t}{sep}{u}": 20 + 10 * i + j for i, t in enumerate(_TENS_WORDS)
                   for j, u in enumerate(_UNITS_WORDS[1:10], start=1) for sep in ("-", " ")}}
#: Words for none of something ("Alcohol: nil", "Prior admissions: none"): 0 in a column
#: that also writes 0, else a gap (walk-through 35 lost 160 alcohol intakes of "nil").
NONE_WORDS = frozenset({"none", "nil", "nil.", "no", "never",
                        # an infusion switched off (walk-through 58's noradrenaline)
                        "off",
                        # no alcohol (walk-through 62's memory clinic: 57 "teetotal")
                        "teetotal", "abstinent", "abstains", "does not drink",
                        "doesn't drink", "non drinker", "non-drinker", "nondrinker"})
#: Words for a result below the assay's detection limit ("TND", "target not detected"):
#: a viral load's "suppressed" answer. Read as the column's most common lower limit (its
#: "<50" cells read as 50) where the column writes such limits, else a gap (walk-through
#: 37 lost 139 viral loads so, a fifth of the column and the outcome's best predictor).
NOT_DETECTED_WORDS = frozenset({
    "tnd", "target not detected", "not detected", "undetectable", "undetected", "ud",
    "below detection", "below detection limit", "below limit of detection",
    "below the limit of detection", "below lod", "<lod", "< lod", "bdl", "ldl not detected",
    "nondetectable", "non detectable", "non-detectable", "not detectable",
    # present but below what can be measured: walk-through 73's 18 paraproteins of
    # "trace" beside "<1" g/L ("not quantifiable" is not: a light-chain myeloma's serum
    # paraprotein cannot be measured at all, a gap)
    "trace", "traces", "trace only", "trace amount", "faint band", "too small to quantify",
    "below quantification limit", "below limit of quantification", "bql", "below loq",
    "<loq", "< loq"})
#: A column of antibodies (an autoantibody; a thyroid's TRAb, TSI or anti-TPO): there
#: "negative" is below the laboratory's lower limit, read as "not detected" is
#: (walk-through 89's 17 TRAb "negative" beside "<0.8" were set to missing). A
#: "positive" says no value (how far above the cut-off is not written): still a gap.
ANTIBODY_COLUMN = re.compile(r"antibod|autoantib|\bab\b|\babs\b|\btrabs?\b|\btsi\b|"
                             r"\btpo\b|thyroid peroxidase|\btg ?abs?\b|\brf\b|"
                             r"rheumatoid factor|\bccp\b|\bana\b|\banca\b|ds[\s-]?dna",
                             re.IGNORECASE)
NEGATIVE_WORDS = frozenset({"negative", "neg", "neg.", "-ve", "negve", "neg (<lod)",
                            "antibody negative", "ab negative", "ab neg"})
#: A column of viral loads (copies of a virus's genome per mL), which clinics also write
#: as their base-10 logarithm: "log 4.1", "4.1 log" (walk-through 37 lost 42 so).
VIRAL_LOAD = re.compile(r"viral[\s_-]{0,3}load|\bvl\b|\b(?:hiv|hbv|hcv|cmv|ebv)[\s_-]{0,3}1?"
                        r"[\s_-]{0,3}(?:rna|dna|pcr)\b|\bcopies\b", re.IGNORECASE)
#: ... a load written as its logarithm (0-12), a unit may follow.
_LOG_COUNT = re.compile(r"(?:log ?(?:10)?[ :=]{0,3}(\d{1,2}(?:\.\d{1,4})?)|"
                        r"(\d{1,2}(?:\.\d{1,4})?) ?log ?(?:10)?)"
                        r"(?: {0,3}(?:copies|cp|iu)(?: ?/ ?ml)?)?", re.IGNORECASE)


#: ... or as a number times a power of ten: "5.8x10^3", "2.0 x 10^4 IU/ml", "1.2×10*5
#: copies/mL", "3.4E+04" (walk-through 70's HBV DNA lost 7 of its 47 loads, the highest).
_POWER_COUNT = re.compile(r"(\d{1,3}(?:\.\d{1,4})?) ?(?:[x×*] ?10 ?(?:\^|\*\*?|e)? ?"
                          r"\+?(\d{1,2})|e\+?(\d{1,2}))"
                          r"(?: {0,3}(?:copies|cp|iu)(?: ?/ ?ml)?)?", re.IGNORECASE)


def power_count(cell: str) -> float | None:
    """A load written as a number times a power of ten ("5.8x10^3 IU/mL"), as the load
    (5,800); else ``None``."""
    m = _POWER_COUNT.fullmatch(cell.strip()) if len(cell) <= 40 else None
    if m is None:
        return None
    power = int(m.group(2) or m.group(3))
    return float(m.group(1)) * 10.0 ** power if power <= 12 else None


def gcs_total(cell: str) -> int | None:
    """A Glasgow coma scale written as its parts, "E4V5M6", as its total (15); ``None``
    otherwise."""
    m = _GCS.fullmatch(str(cell).strip()) if len(str(cell)) <= 30 else None
    return None if m is None else sum(int(g) for g in m.groups())


def log_count(cell: str) -> float | None:
    """A load written as its base-10 logarithm ("log 4.1", "4.1 log10 copies/mL"), as the
    load (12,589); else ``None``."""
    m = _LOG_COUNT.fullmatch(cell.strip()) if len(cell) <= 40 else None
    if m is None:
        return None
    power = float(m.group(1) or m.group(2))
    return 10.0 ** power if power <= 12 else None


#: A rating scale's total after its name, "GCS 14", "GCS: 14/15", "PHQ9: 14", "AUDIT
#: 18/40" (walk-throughs 33 and 35), "NIHSS 14", "mRS 2", "EDSS 3.5" (walk-through 39's
#: stroke unit lost its NIHSS, the strongest predictor, as free text). Whitespace runs are
#: bounded: three adjacent unbounded ones took 22 s on a cell of 2,000 spaces after "GCS".
_SCALE_TOTAL = re.compile(
    r"\s{0,3}(?:GCS|PHQ[\s-]?9?|GAD[\s-]?7?|AUDIT(?:[\s-]?C)?|MMSE|MoCA|HADS(?:[\s-]?[AD])?|"
    r"EPDS|NEWS\s?2?|HoNOS|K10|CIWA(?:[\s-]?Ar)?|BPRS|PANSS|MADRS|HAM[\s-]?[AD]|YMRS|"
    r"CGI[\s-]?[SI]?|NIH\s?SS|m\.?RS|(?:modified\s)?Rankin(?:\sscale)?|ASPECTS?|"
    r"CHA2?DS2?[\s-]?VASc|HAS[\s-]?BLED|Barthel|ECOG|WHO(?:\s?PS)?|KPS|Karnofsky|EDSS|q?SOFA|"
    r"APACHE(?:\s?(?:II|2)(?![\d.]))?|CURB[\s-]?65|CRB[\s-]?65|TIMI|GRACE|Wells|Braden|Waterlow|"
    r"MUST|Apgar|P?MEWS|PEWS|FIM|AMTS?|4AT|CFS|Rockwood|Charlson|CCI|MELD|Child[\s-]?Pugh|"
    r"HEART|ABCD2?|ICH|ACB|"
    # respiratory (walk-through 75's COPD clinic lost 19 "MRC 3" grades as text)
    r"m?MRC(?:[\s-]?dyspn(?:o?ea)?)?(?:\s?grade)?|CAT|BODE|GOLD(?:\s?(?:stage|grade))?|ACT)"
    r"\s{0,3}(?:total|score)?\s{0,3}[:=]?\s{0,3}(\d{1,3}(?:\.\d)?)(?:\s{0,3}/\s{0,3}\d{1,3})?"
    r"\s{0,3}", re.IGNORECASE)
#: A score with its severity in words after it, "14 (moderate)", "22 (severe)"; a count
#: with a note and a year, "2 (last 2021)" (walk-through 52's previous admissions).
_WITH_SEVERITY = re.compile(r"\s*(\d{1,3}(?:\.\d+)?)\s*[(\[]\s*([A-Za-z][A-Za-z \-]{0,24}"
                            r"(?:\s?(?:19|20)\d\d)?)\s*[)\]]\s*")
#: A score's band in words with the score in brackets after it, "Definite (9)" (walk-
#: through 90's Dutch Lipid Clinic Network score: set to missing beside "7 (probable)").
_SEVERITY_FIRST = re.compile(r"\s*([A-Za-z][A-Za-z \-]{0,24}?)\s*[(\[]\s*(\d{1,3}(?:\.\d+)?)"
                             r"\s*[)\]]\s*")
#: A scale's total with its severity in words after it, "NIHSS 14 (moderate)": the part
#: before the brackets (letters only inside them, bounded).
_SEVERITY_AFTER = re.compile(r"(.{1,40}?\d) ?[(\[] ?[A-Za-z][A-Za-z \-]{0,24}[)\]] ?")
#: A count with its share of a total in brackets after it, "350 (22%)": a CD4 count and
#: its percentage of lymphocytes (walk-through 37 lost 127 CD4 counts so).
_WITH_SHARE = re.compile(r" ?(\d{1,7}(?:\.\d{1,4})?) ?[(\[] ?\d{1,3}(?:\.\d{1,2})? ?% ?[)\]] ?")
#: A count with how many of them were of a kind in brackets: "2 (1 admission)", "4 (3
#: admissions)" (walk-through 103's exacerbations: 39 cells set to missing).
_WITH_PART = re.compile(r" {0,3}(\d{1,3}) {0,3}[(\[] {0,3}(\d{1,3}) {1,3}[A-Za-z][A-Za-z \-]{1,24}"
                        r" {0,3}[)\]] {0,3}")
#: A count with the weekdays it falls on in brackets: "3 (M/W/F)", "3 (Tu/Th/Sa)", "3
#: (Mon-Wed-Fri)", "3 (MWF)" (walk-through 106's dialysis sessions a week: 27 cells set
#: to missing).
_DAY = r"(?:mon?|m|tue?s?|tu|wed?|w|thu?r?s?|th|fri?|f|sat?|sun?)"
_WITH_DAYS = re.compile(rf" {{0,3}}(\d{{1,2}}) {{0,3}}[(\[] {{0,3}}(?:{_DAY}(?: {{0,2}}[/,\-]"
                        rf" {{0,2}}{_DAY}){{1,6}}|mwf|tts|tths|tuthsa) {{0,3}}[)\]] {{0,3}}",
                        re.IGNORECASE)
#: A count with more of another kind added in brackets: "9 (+1 loading)", "6 (+ 3 loading
#: doses)" (walk-through 104's injections: ten, nine of them after the loading one).
_WITH_MORE = re.compile(r" {0,3}(\d{1,3}) {0,3}[(\[] {0,3}\+ {0,3}(\d{1,2}) {0,3}"
                        r"[A-Za-z][A-Za-z \-]{1,24} {0,3}[)\]] {0,3}")
#: A count written as times, "x2", "× 3" (walk-through 68 lost 82 steroid courses so).
_TIMES_BEFORE = re.compile(r" {0,3}[x×] {0,3}(\d{1,3}) {0,3}")
#: A lymphocyte count after its name, "CD4 350", "CD4 count: 350" (walk-through 37).
_NAMED_COUNT = re.compile(r" ?CD[348]\+?(?: ?(?:count|abs(?:olute)?))?[ :=]{0,3}"
                          r"(\d{1,7}(?:\.\d{1,4})?) ?", re.IGNORECASE)
#: An oxygen saturation with how it was taken after the "%": "98% RA", "94% on 2L",
#: "94 % O2", "93% 2L NP" (walk-through 33: 156 such cells were set to missing). The
#: saturation is read; how much oxygen the patient was on is not.
#: How oxygen is given, as a saturation's note writes it: "RA", "2L NP", "HF 2L/kg",
#: "1L NCO2", "CPAP", "LFO2", "FiO2 40%" (walk-through 60's ward lost 60 saturations
#: taken on CPAP or high flow).
_O2_HOW = (r"(?:RA|room\s*air|air|O2|oxygen|supplemental\s+O2|NP|NC|NCO2|LFO2|LF|HF|HFNC|"
           r"HHFNC|HFO|NRB|FM|mask|venturi|CPAP|BiPAP|NIV|optiflow|high\s*flow|low\s*flow|"
           r"nasal\s*(?:specs|cannulae?|prongs)|headbox|"
           r"\d+(?:\.\d+)?\s*(?:L|l|lpm|L/min|l/min|L/kg|l/kg)\b|"
           r"FiO2\s*\d+\s*%?|\d+\s*%\s*(?:FiO2|O2))")
_SATURATION = re.compile(
    # "94% on 2L", and without its % before how it was taken: "96 on air", "97% in air"
    # (walk-through 50's paediatric ED set 111 such saturations to missing), "100 CPAP"
    r"\s*(\d{2,3}(?:\.\d)?)\s*(?:%\s*(?:(?:on|in)\s+|@\s*|via\s+|with\s+)?|"
    r"(?:on|in)\s+|@\s*|via\s+|with\s+|\s(?=" + _O2_HOW + r"))"
    + _O2_HOW + r"(?:\s{0,2}(?:via\s+|on\s+)?" + _O2_HOW + r"){0,3}\s*", re.IGNORECASE)
#: A limit with a unit, "<5 ng/L": the comparator, then a cell read as a number.
_LIMIT_THEN = re.compile(r"\s*([<>]=?|[≤≥⩽⩾])\s*(\d.*)")
#: A value said to be estimated, "est 67", "~70 kg", "approx. 1.7 m" (walk-through 33's
#: weights): the value.
_ESTIMATED = re.compile(r"\s*(?:est(?:imated|\.)?|approx(?:imately|\.)?|about|circa|ca\.|c\.|~)"
                        r"\s*:?\s*(\d.*)", re.IGNORECASE)
#: A narrow range in a column of numbers, "2-3", "5 to 10" (walk-through 41's wheeze
#: episodes): its middle. Bounded runs; only in a column already read as numbers (a
#: column of bands, "40-49", stays answers: :func:`numeric_share` does not count them).
_RANGE = re.compile(r"\s{0,3}(\d{1,6}(?:\.\d{1,4})?)\s{0,3}(?:-|–|—|to)\s{0,3}"
                    r"(\d{1,6}(?:\.\d{1,4})?)\s{0,3}", re.IGNORECASE)


def _range_with_unit(cell: str, unit: str) -> float | None:
    """The middle of a narrow range written with its column's unit ("45-50%" in a "%"
    column: walk-through 71's LVEF), else ``None``."""
    m = _RANGE_THEN_UNIT.fullmatch(cell) if len(cell) <= 40 else None
    if m is None or cell_unit_key(m.group(2), unit) != unit_key(unit):
        return None
    return range_middle(m.group(1))


#: A range, then a unit: "45-50%", "30 - 35 %".
_RANGE_THEN_UNIT = re.compile(r"\s{0,3}(\d{1,6}(?:\.\d{1,4})?\s{0,3}(?:-|–|to)\s{0,3}"
                              r"\d{1,6}(?:\.\d{1,4})?)\s{0,3}(%|[a-zµ/]{1,12})\s{0,3}",
                              re.IGNORECASE)


def range_middle(cell: str) -> float | None:
    """The middle of a narrow range written in a cell ("2-3": 2.5; "5 to 10": 7.5), or
    ``None``: not a range, its bounds reversed or equal ("120-80" is no range), or a wide
    one (its upper bound above 3 × the lower + 3: "1-100" says too little)."""
    m = _RANGE.fullmatch(cell) if len(cell) <= 40 else None
    if m is None:
        return None
    lo, hi = float(m.group(1)), float(m.group(2))
    if not lo < hi <= 3 * lo + 3:
        return None
    return (lo + hi) / 2


def wide_range(cell: str) -> bool:
    """Whether a cell writes a range too wide for :func:`range_middle` ("0-10", "1-100")."""
    m = _RANGE.fullmatch(cell) if len(cell) <= 40 else None
    return m is not None and float(m.group(1)) < float(m.group(2)) and \
        range_middle(cell) is None


#: Share of a column's fractions out of one maximum above which it is the column's.
_ONE_MAXIMUM = 0.9


def score_maximum(cells) -> int | None:
    """The one maximum a column's scores are written out of ("14/27", "9/27": 27), or
    ``None``: no such cell, several maxima (Snellen acuities "6/9", "6/12"), or a
    score above its maximum (a blood pressure "120/80"). A maximum that at least
    :data:`_ONE_MAXIMUM` of the fractions share, the others out of less, is the
    column's ("24/27" beside 30 MMSEs out of 30: those few are left unread)."""
    tops: dict[int, int] = {}
    for cell in cells:
        m = _FRACTION.fullmatch(str(cell))
        if m is None:
            continue
        top = int(m.group(2))
        if top < 2 or float(m.group(1)) > top:
            return None
        tops[top] = tops.get(top, 0) + 1
    if len(tops) <= 1:
        return next(iter(tops), None)
    # a test scored out of fewer items for a few patients (walk-through 62's MMSE "24/27",
    # 8 of 400 fractions out of 30): the column's maximum; those few are no score of it
    top = max(tops, key=tops.get)
    if tops[top] >= _ONE_MAXIMUM * sum(tops.values()) and max(tops) == top:
        return top
    return None


#: An ordinal, "41st", "72nd", "3rd", "16th", "99.6th", with "centile" or "percentile"
#: after it or not (walk-through 41's BMI centiles: "41st" was read as 41 stone, 574 lb).
_ORDINAL = re.compile(r" ?(\d{1,3}(?:\.\d{1,2})?)(st|nd|rd|th) ?(?:(?:per)?centile|%ile|pctl?)? ?",
                      re.IGNORECASE)


def ordinal_number(cell: object) -> float | None:
    """The number of an ordinal written with its own suffix ("41st", "72nd", "3rd",
    "16th centile", "99.6th"), or ``None`` ("12st" is 12 stone: twelve is "12th").

    Examples
    --------
    >>> ordinal_number("41st"), ordinal_number("16th centile"), ordinal_number("12st")
    (41.0, 16.0, None)
    """
    m = _ORDINAL.fullmatch(str(cell)) if len(str(cell)) <= 30 else None
    if m is None:
        return None
    number, suffix = m.group(1), m.group(2).lower()
    if "." in number:
        return float(number) if suffix == "th" else None
    n = int(number)
    own = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return float(n) if suffix == own else None


#: The longest cell :func:`plain_number` reads; a longer one is text (and the patterns
#: below need not be tried on a pasted note).
_PLAIN_MAX = 60


#: Initials that name a class, not a score: "NYHA 3", "GOLD 3", "ESI 2" stay answers
#: (merged into their order), not numbers of a column named by them.
CLASS_INITIALS = frozenset({"NYHA", "GOLD", "ESI", "ASA", "CKD", "TNM", "WHO", "CTCAE",
                             "ASIA", "KDIGO", "BCLC", "ATS", "CTAS", "MTS", "CCS", "FIGO",
                             "BI", "RADS", "BIRADS", "TI", "ISS", "MRC", "MMRC"})


#: A scale's levels by their words, in a column named for it: the Clinical Frailty Scale
#: (Rockwood; 2007 and 2020 wording) wrote "moderately frail", "6 - moderately frail" and
#: "vi" beside 6 in walk-through 47's frailty clinic, and was left out as free text.
_SCALE_WORDS: tuple[tuple[re.Pattern, dict[str, float]], ...] = (
    (re.compile(r"\bcfs\b|clinical frailty|frailty scale|rockwood", re.IGNORECASE), {
        "veryfit": 1, "fit": 2, "well": 2, "managingwell": 3, "vulnerable": 4,
        "verymildfrailty": 4, "livingwithverymildfrailty": 4, "verymildlyfrail": 4,
        "mildlyfrail": 5, "mildfrailty": 5, "livingwithmildfrailty": 5,
        "moderatelyfrail": 6, "moderatefrailty": 6, "livingwithmoderatefrailty": 6,
        "severelyfrail": 7, "severefrailty": 7, "livingwithseverefrailty": 7,
        "veryseverefrailty": 8, "veryseverelyfrail": 8,
        "livingwithveryseverefrailty": 8, "terminallyill": 9,
        **{r: float(i) for i, r in enumerate(
            ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"), start=1)}}),
    # the Barthel index out of 20 (the 10-item form) or of 100: "13/20" is 65 of 100
    # (walk-through 47 lost both, a column of two maxima)
    (re.compile(r"barthel", re.IGNORECASE), {"/20": 5.0, "/100": 1.0}),
    # the Clinical Dementia Rating's global score by its words (walk-through 62 set 102
    # "mild", "moderate" and "questionable" to missing, and read "none" as 0)
    (re.compile(r"\bcdr\b|clinical dementia rating", re.IGNORECASE),
     {"none": 0.0, "normal": 0.0, "nodementia": 0.0, "questionable": 0.5, "verymild": 0.5,
      "questionabledementia": 0.5, "mild": 1.0, "milddementia": 1.0, "moderate": 2.0,
      "moderatedementia": 2.0, "severe": 3.0, "severedementia": 3.0}),
    # a capillary refill written "normal" or "brisk": under 2 s, read as that limit as
    # "<2s" is (walk-through 50's paediatric ED set 90 to missing); "prolonged" or
    # "delayed": over 2 s, read as 3 s, the first whole second past it, as a ward writes
    # "3s" (walk-through 60 set 16 to missing)
    (re.compile(r"cap(?:illary)? refill|\bcrt\b", re.IGNORECASE),
     {"normal": 2.0, "brisk": 2.0, "prolonged": 3.0, "delayed": 3.0, "sluggish": 3.0}),
    # the electronic frailty index's categories (Clegg 2016: fit up to 0.12, mild to 0.24,
    # moderate to 0.36, severe beyond) as their band's middle, the open band as its limit,
    # as ranges and limits are read (walk-through 48's GP export wrote "Moderate frailty"
    # and "mild" among 0.19, and the column was left out as free text)
    (re.compile(r"\befi\b|electronic frailty", re.IGNORECASE), {
        "fit": 0.06, "mild": 0.18, "mildfrailty": 0.18, "mildlyfrail": 0.18,
        "moderate": 0.30, "moderatefrailty": 0.30, "moderatelyfrail": 0.30,
        "severe": 0.36, "severefrailty": 0.36, "severelyfrail": 0.36}),
    # the PHQ-9's and GAD-7's severity bands (Kroenke 2001, Spitzer 2006) as their
    # middle, as the eFI's are (walk-through 52's trust wrote "moderate" among totals)
    (re.compile(r"\bphq[\s\-_]?9\b|patient health questionnaire", re.IGNORECASE), {
        "minimal": 2.0, "mild": 7.0, "moderate": 12.0, "moderatelysevere": 17.0,
        "modsevere": 17.0, "moderatesevere": 17.0, "severe": 23.5}),
    (re.compile(r"\bgad[\s\-_]?7\b|generali[sz]ed anxiety disorder", re.IGNORECASE), {
        "minimal": 2.0, "mild": 7.0, "moderate": 12.0, "severe": 18.0}),
    # the left ventricle's ejection fraction graded in words (the British Society of
    # Echocardiography's bands: normal 55 % or more, mildly impaired 45-54, moderately
    # 36-44, severely 35 or less) as the band's middle, an open band as its limit
    # (walk-through 71's LVEF, "severe LVSD" and "good LV function" among "35%" and
    # "30-35", was left out as free text)
    (re.compile(r"\blv\s?ef\b|\bef\b|\blv ejection|left ventric\w* ejection|"
                r"\blv (?:systolic )?function\b|\blvsf\b", re.IGNORECASE), {
        **dict.fromkeys(("normal", "good", "preserved", "goodlvfunction", "normallvfunction",
                         "normallvsystolicfunction", "preservedlvfunction", "preservedef",
                         "normalef", "normallvef", "goodlvsystolicfunction",
                         "normallvsf", "goodlvsf", "hyperdynamic"), 55.0),
        **dict.fromkeys(("mildlyimpaired", "mildlvsd", "mildlyreduced", "mildimpairment",
                         "mildlyimpairedlvfunction", "mild", "mildlyimpairedlvsf",
                         "mildlvsystolicdysfunction", "mildlyreducedef"), 49.5),
        **dict.fromkeys(("moderatelyimpaired", "moderatelvsd", "moderatelyreduced",
                         "moderateimpairment", "moderatelyimpairedlvfunction", "moderate",
                         "moderatelyimpairedlvsf", "moderatelvsystolicdysfunction"), 40.0),
        **dict.fromkeys(("severelyimpaired", "severelvsd", "severelyreduced", "severe",
                         "severeimpairment", "severelyimpairedlvfunction", "poor",
                         "poorlvfunction", "severelyimpairedlvsf",
                         "severelvsystolicdysfunction"), 35.0),
        # ... and EuroSCORE's "very poor", 20 % or less, as its limit (walk-through 98)
        **dict.fromkeys(("verypoor", "verypoorlvfunction", "vp", "verysevere",
                         "verypoorlv"), 20.0)}),
    # the airway's Mallampati class, I to IV, in the spellings of its scale (walk-through
    # 92 read "MP 2" and set 45 "Grade III" to missing)
    (MALLAMPATI_NAME, {re.sub(r"[\s\-_.]+", "", w): float(code)
                       for code, words in SCALES["mallampati"] for w in words}),
    # the MRC dyspnoea scale's grade with its word (walk-through 103 set 27 of an mMRC's
    # "grade 3" to missing beside its "MRC 3" and "3")
    (re.compile(r"\bm?mrc\b|dyspn(?:o)?ea (?:scale|grade|score)", re.IGNORECASE),
     {**{f"grade{g}": float(g) for g in range(5)},
      **{f"grade{r}": float(g) for g, r in enumerate(("i", "ii", "iii", "iv"), start=1)}}),
)
#: A scale's level written with its words after a dash or colon, "6 - moderately frail",
#: "3: managing well" (the number is read; letters only after it, bounded).
_WITH_LABEL = re.compile(r"\s{0,3}(\d{1,2})\s{0,3}[-–:]\s{0,3}[A-Za-z][A-Za-z '\-]{0,40}")


#: The scales of :data:`_SCALE_WORDS` whose words name bands of scores, read as the
#: band's middle (the eFI's, the PHQ-9's, the GAD-7's, an LVEF's), by their place there
_BANDED = frozenset({4, 5, 6, 7})


def reads_bands(column: object) -> bool:
    """Whether a column's scale words (:func:`scale_level`) name bands of scores."""
    name = str(column or "")[:80]
    return next((i in _BANDED for i, (pattern, _) in enumerate(_SCALE_WORDS)
                 if pattern.search(name)), False)


def scale_level(column: object) -> Callable[[str], float | None] | None:
    """How a column named for a scale of :data:`_SCALE_WORDS` reads a level written in
    words, as a Roman numeral or with its words after it ("6 - moderately frail"), or
    ``None`` for another column."""
    return _scale_level(str(column or "")[:80])


@functools.lru_cache(maxsize=4096)  # per column name: every read of every column asks
def _scale_level(name: str) -> Callable[[str], float | None] | None:
    words = next((w for pattern, w in _SCALE_WORDS if pattern.search(name)), None)
    if words is None:
        return None

    def level(cell: str) -> float | None:
        if len(cell) > _PLAIN_MAX:
            return None
        if (m := _WITH_LABEL.fullmatch(cell)) is not None:
            return float(m.group(1))
        if (m := _FRACTION.fullmatch(cell)) is not None:  # "13/20": out of a maximum
            factor = words.get(f"/{int(m.group(2))}")
            top = float(m.group(2))
            return None if factor is None or float(m.group(1)) > top else \
                float(m.group(1)) * factor
        v = words.get(re.sub(r"[\s\-_.]+", "", cell.lower()))
        return None if v is None else float(v)

    return level


#: A rate's column by its name: a heart or breathing rate, a pulse.
_RATE_NAME = re.compile(r"\brate\b|\bpulse\b|\bhr\b|\brr\b|\bbpm\b|\bresp", re.IGNORECASE)
#: A rate written with its unit before or after it: "39/min", "bpm 165", "58 breaths/min".
_PER_MINUTE = re.compile(
    r"\s{0,3}(?:(?:bpm|b/min)\s{0,3}(\d{1,3}(?:\.\d)?)|(\d{1,3}(?:\.\d)?)\s{0,3}"
    r"(?:/\s{0,2}min(?:ute)?|bpm|b/min|per\s{1,2}min(?:ute)?|(?:breaths?|beats?)\s{0,2}"
    r"(?:/|per)\s{0,2}min(?:ute)?))\s{0,3}", re.IGNORECASE)


#: "90 bpm": a cell of the column's unit, from which the unit is learned (not counted as a
#: number before the units are: :func:`_unique_cells`).
_BPM_AFTER = re.compile(r"\s{0,3}\d{1,3}(?:\.\d)?\s{0,3}bpm\s{0,3}", re.IGNORECASE)


def _per_minute(cell: str) -> float | None:
    m = _PER_MINUTE.fullmatch(cell) if len(cell) <= 40 else None
    return None if m is None else float(m.group(1) or m.group(2))


def rate_reader(column: object) -> Callable[[str], float | None] | None:
    """How a column named for a rate reads a rate written with its unit ("39/min", "bpm
    165"; walk-through 50's paediatric ED set 43 such heart and breathing rates to
    missing), or ``None`` for another column: asked once per column, not per cell."""
    return _per_minute if _RATE_NAME.search(str(column or "")[:80]) else None


#: A body mass index's column, by its name.
_BMI_NAME = re.compile(r"\bbmi\b|body mass", re.IGNORECASE)
#: A weight and a height written in a BMI's cell: "wt 64kg ht 1.57m", "64 kg / 157 cm".
_WEIGHT_HEIGHT = re.compile(
    r"\s{0,3}(?:w(?:eigh)?t:?\s{0,2})?(\d{2,3}(?:\.\d)?)\s{0,2}kg\s{0,3}[,;/]?\s{0,3}"
    r"(?:h(?:eigh)?t:?\s{0,2})?(\d(?:\.\d{1,2})?|\d{3}(?:\.\d)?)\s{0,2}(m|cm)\s{0,3}",
    re.IGNORECASE)
#: A pack-years' column, by its name.
PACK_YEARS_NAME = re.compile(r"pack[\s-]?y(?:ea)?rs?|\bpy\b|\bpys\b", re.IGNORECASE)
#: Cigarettes a day for a number of years: "20/day for 30 yrs", "10 a day x 40 years".
_PER_DAY_FOR = re.compile(
    r"\s{0,3}(\d{1,3})\s{0,2}(?:/\s{0,2}d(?:ay)?|a\s{1,2}day|per\s{1,2}day|cigs?/d(?:ay)?)"
    r"\s{0,3}(?:for|x|×)\s{0,3}(\d{1,2})\s{0,2}(?:y|yrs?|years?)\s{0,3}", re.IGNORECASE)


def _bmi_from_parts(cell: str) -> float | None:
    """A BMI from the weight and height a cell writes ("wt 64kg ht 1.57m": 26.0;
    walk-through 103 set 34 such cells to missing), or ``None``."""
    m = _WEIGHT_HEIGHT.fullmatch(cell) if len(cell) <= 40 else None
    if m is None:
        return None
    height = float(m.group(2)) / (100.0 if m.group(3).lower() == "cm" else 1.0)
    if not 0.5 <= height <= 2.5:
        return None
    return round(float(m.group(1)) / height ** 2, 1)


def _pack_years(cell: str) -> float | None:
    """Pack-years from cigarettes a day and years smoked ("20/day for 30 yrs": 30, a pack
    being 20; walk-through 103 set 7 to missing), or ``None``."""
    m = _PER_DAY_FOR.fullmatch(cell) if len(cell) <= 40 else None
    return None if m is None else float(m.group(1)) / 20.0 * float(m.group(2))


def composite_reader(column: object) -> Callable[[str], float | None] | None:
    """How a column computes its value from the parts a cell writes: a BMI from a weight
    and a height, pack-years from cigarettes a day and years; ``None`` for another
    column (asked once per column)."""
    name = str(column or "")[:80]
    if _BMI_NAME.search(name):
        return _bmi_from_parts
    if PACK_YEARS_NAME.search(name):
        return _pack_years
    return None


#: A cognitive test that adds a point for 12 years of education or fewer: the MoCA.
_ADDED_POINT_NAME = re.compile(r"\bmoca\b|montreal cognitive", re.IGNORECASE)
#: Its score with the point written beside it: "20+1", "25 (+1 edu)", "18 + 1 for
#: education" (walk-through 62 read "20+1" as 20 weeks and 1 day).
_ADDED_POINT = re.compile(r"\s{0,3}(\d{1,2})\s{0,2}(\()?\s{0,2}\+\s{0,2}(1)\s{0,2}"
                          r"(?:pt|point)?\s{0,2}(?:(?:for\s{1,2})?(?:edu|education|educ|ed)\.?)?"
                          r"\s{0,2}\)?\s{0,3}", re.IGNORECASE)
#: The MoCA's maximum, the education point included.
_MOCA_MAX = 30


def _added_point(cell: str) -> float | None:
    """"20+1": 21 (the point added); "25 (+1 edu)": 25, a note that the score includes
    it (walk-through 63 read "30 (+1 edu)" as 31); at most 30."""
    m = _ADDED_POINT.fullmatch(cell) if len(cell) <= 40 else None
    if m is None:
        return None
    score = int(m.group(1)) + (0 if m.group(2) else int(m.group(3)))
    return float(min(score, _MOCA_MAX))


def added_point_reader(column: object) -> Callable[[str], float | None] | None:
    """How a MoCA column reads a score with its education point beside it ("20+1": 21;
    "25 (+1 edu)": 25, the point noted as included), or ``None`` for another column:
    asked once per column."""
    return _added_point if _ADDED_POINT_NAME.search(str(column or "")[:80]) else None


#: A column of treatment cycles by its name ("Cycle", "Cycle no.", "Current cycle").
_CYCLE_NAME = re.compile(r"\bcycles?\b", re.IGNORECASE)
#: A cycle written as a day unit writes it: "C3", "C3D8", "cycle 4", "Cycle 2 Day 1".
_CYCLE = re.compile(r"\s{0,3}(?:C|cyc|cycle)\.?\s{0,2}(\d{1,2})(?:\s{0,2}[,;/]?\s{0,2}"
                    r"(?:D|day)\.?\s{0,2}\d{1,2})?\s{0,3}", re.IGNORECASE)


#: A cycle out of the course's: "4 of 6", "3/6", "cycle 4 of 6" (walk-through 105's day
#: unit wrote them beside "C4": its column was left out as text).
_CYCLE_OF = re.compile(r"\s{0,3}(?:(?:C|cyc|cycle)\.?\s{0,2})?(\d{1,2})\s{0,2}(?:of|/)\s{0,2}"
                       r"(\d{1,2})\s{0,3}", re.IGNORECASE)


def _cycle(cell: str) -> float | None:
    if len(cell) > 30:
        return None
    if (m := _CYCLE.fullmatch(cell)) is not None:
        return float(m.group(1))
    m = _CYCLE_OF.fullmatch(cell)
    return float(m.group(1)) if m is not None and int(m.group(1)) <= int(m.group(2)) else None


def cycle_reader(column: object) -> Callable[[str], float | None] | None:
    """How a column of treatment cycles reads a cycle as a chemotherapy day unit writes it
    ("C3", "C3D8", "cycle 4", "Cycle 2 Day 1": the cycle's number, the day not read), or
    ``None`` for another column: asked once per column. Walk-through 54's oncology export
    kept "C1D1" and "C1" as two answers of an unordered column."""
    return _cycle if _CYCLE_NAME.search(str(column or "")[:80]) else None


#: A column of ages by its name ("Age", "Age (years)", "age_yrs").
_AGE_COLUMN = re.compile(r"(?:^|[\s_])age(?:$|[\s_(])", re.IGNORECASE)
#: An age in months, weeks or days in a column of ages: "10m", "21 mths", "6 wks", "3d"
#: ("m" is months here, not metres or minutes).
_AGE_IN = re.compile(r"\s{0,3}(\d{1,3}(?:\.\d{1,2})?)\s{0,3}(m|mo|mos|mth|mths|mnth|mnths|"
                     r"months?|w|wk|wks|weeks?|d|dys?|days?)\.?\s{0,3}", re.IGNORECASE)
#: ... or as paediatric notes write it: "16/12" (months), "7/52" (weeks), "3/7" (days).
_AGE_PART = re.compile(r"\s{0,3}(\d{1,3})\s{0,2}/\s{0,2}(12|52|7)\s{0,3}")
_PART_TIMES = {"12": 2, "7": 4}
_DAYS_IN = {"m": 365.25 / 12, "w": 7.0, "d": 1.0, "12": 365.25 / 12, "52": 7.0, "7": 1.0}
_AGE_UNIT_DAYS = {"years": 365.25, "months": 365.25 / 12, "weeks": 7.0, "days": 1.0}


def age_reader(column: object) -> Callable[[str], float | None] | None:
    """How a column of ages reads an age written in months, weeks or days ("10m", "21
    mths", "16/12", "7/52"), in the column's unit (its name's; years by default, a year of
    365.25 days), or ``None`` for another column: asked once per column, not per cell.
    Walk-through 50's paediatric ED set 161 of its infants' ages to missing while reading
    "3y 2m"."""
    return _age_reader(str(column or "")[:80])


@functools.lru_cache(maxsize=4096)  # per column name, as :func:`scale_level`
def _age_reader(name: str) -> Callable[[str], float | None] | None:
    if not _AGE_COLUMN.search(name):
        return None
    per_unit = _AGE_UNIT_DAYS.get(unit_key(header_unit(name) or "years"), 365.25)

    def read(cell: str) -> float | None:
        if len(cell) > 20:
            return None
        if (m := _AGE_IN.fullmatch(cell)) is not None:
            return float(m.group(1)) * _DAYS_IN[m.group(2)[0].lower()] / per_unit
        return _time_part(cell, per_unit)

    return read


def _time_part(cell: str, per_unit: float, long: bool = False) -> float | None:
    """A time written as paediatric notes write it, "16/12" (months, up to 23), "7/52"
    (weeks), "3/7" (days), in a unit of ``per_unit`` days; ``None`` for another cell.
    ``long``: a column of durations, whose months and weeks run on (a dialysis vintage of
    "85/12" or "124/12", walk-through 106), not a column of ages."""
    m = _AGE_PART.fullmatch(cell) if len(cell) <= 20 else None
    # up to 23/12 (a toddler's months) and 27/7 (a neonate's days, walk-through 60's
    # "24/7"); weeks under 52; a duration's months and weeks up to 599 (50 years)
    if m is None or int(m.group(1)) >= (600 if long and m.group(2) != "7" else
                                        int(m.group(2)) * _PART_TIMES.get(m.group(2), 1)):
        return None
    return float(m.group(1)) * _DAYS_IN[m.group(2)] / per_unit


#: The chemical symbols clinicians write a level after, by the element's name.
_ELEMENTS = {"lithium": "Li", "sodium": "Na", "potassium": "K", "calcium": "Ca",
             "magnesium": "Mg", "iron": "Fe", "chloride": "Cl", "zinc": "Zn",
             "copper": "Cu", "phosphate": "PO4", "bicarbonate": "HCO3"}


def named_total(column: object) -> re.Pattern | None:
    """A number after the initials a column is named by: "CAT 26", "CAT: 26/40" in a
    column "CAT score", "eGFR >90" (a limit: group 1 the comparator, group 2 the number;
    walk-through 45's COPD Assessment Test lost 93 such cells, where
    :data:`_SCALE_TOTAL` reads only the scales it lists). Only a name starting with
    initials in capitals (2 to 8 characters), not those of a class (:data:`CLASS_INITIALS`);
    ``None`` otherwise."""
    return _named_total(str(column or "")[:60])


@functools.lru_cache(maxsize=4096)  # per column name, as :func:`scale_level`
def _named_total(name: str) -> re.Pattern | None:
    # initials with at least two capitals: "CAT", "eGFR", "QRISK3", "HbA1c" (walk-through
    # 48 read "BMI 31" and set "eGFR 88" and "QRISK3 16.7%" to missing); not "Age 65"
    first = re.match(r"\s*([A-Za-z][A-Za-z0-9]{1,7})(?![A-Za-z0-9])", name)
    if first is not None and first.group(1).upper() in CLASS_INITIALS:
        return None  # "NYHA class": a class's answers, not a score
    names = []
    if first is not None and sum(ch.isupper() for ch in first.group(1)) >= 2:
        names.append(re.escape(first.group(1)))
    # ... with a number joined to them: "CA-125 197" in "CA-125" (walk-through 54's
    # oncology export), "CA 19-9", "NT-proBNP" is a word
    joined = re.match(r"\s*([A-Z]{2,5})[-\s]?(\d{1,3}(?:-\d{1,2})?)(?![A-Za-z0-9])", name)
    if joined is not None:
        names.insert(0, re.escape(joined.group(1)) + r"[-\s]?" + re.escape(joined.group(2)))
    # ... or its whole short name with a symbol, after a qualifier of up to three letters:
    # "spKt/V 1.25" and "Kt/V 1.3" in "Kt/V" (walk-through 56 lost 40 of its dialysis
    # adequacies so)
    whole = re.sub(r"\s*[(\[].*", "", name).strip()
    if 3 <= len(whole) <= 10 and re.search(r"[/\-.]", whole) and \
            sum(ch.isupper() for ch in whole) >= 2 and re.fullmatch(r"[\w/\-. ]+", whole):
        names.append(r"[a-z]{0,3}" + re.escape(whole))
    # ... or the initials of its words: "HR 170" in "Heart rate", "RR 39" in "Resp rate"
    # (walk-through 50's paediatric ED)
    words = re.findall(r"[A-Za-z]+", re.sub(r"[(\[].*", "", name))
    if 2 <= len(words) <= 4 and all(len(w) > 2 for w in words):
        initials = "".join(w[0] for w in words).upper()
        if initials not in CLASS_INITIALS:
            names.append(initials)
    # ... or the chemical symbol of the element it measures: "Li 0.8" in "Lithium level"
    # (walk-through 52's mental-health trust), "Na 138" in "Sodium"
    element = _ELEMENTS.get(words[0].lower()) if words else None
    if element is not None:
        names.append(element)
    if not names:
        return None
    word = "(?:" + "|".join(names) + ")"
    # a sign too: "RASS -2" (walk-through 58 lost 132 sedation scores)
    return re.compile(rf"\s{{0,3}}{word}\s{{0,3}}(?:total|score)?\s{{0,3}}[:=]?\s{{0,3}}"
                      r"([<>]=?|[≤≥])?\s{0,3}([+-]?\d{1,3}(?:,\d{3})+|[+-]?\d{1,4}(?:\.\d{1,3})?)"
                      r"(?:\s{0,3}/\s{0,3}\d{1,4})?\s{0,3}%?\s{0,3}",
                      re.IGNORECASE)


#: A word before a cell's value: "EF 55-60", "INR: n/a".
_NAME_FIRST = re.compile(r"\s{0,3}([A-Za-z][A-Za-z0-9]{1,7})\s{0,3}(?::\s{0,3}|=\s{0,3}|\s)"
                         r"\s{0,2}(\S.{0,40})")


def _after_own_name(cell: str, column: object) -> str | None:
    """The rest of a cell that starts with (part of) its column's name, "EF" in "LVEF",
    "INR" in "INR (last)", "Cr" in "Creatinine": the value after it; else ``None``."""
    m = _NAME_FIRST.fullmatch(cell) if len(cell) <= 60 else None
    if m is None:
        return None
    name = re.sub(r"[^a-z0-9]", "", re.sub(r"\s*[(\[].*", "", str(column or "")[:60]).lower())
    word = m.group(1).lower()
    return m.group(2).strip() if len(word) >= 2 and word in name else None


def plain_number(cell: str, out_of: int | None = None) -> float | None:
    """A number written in one of the forms a clinic's export uses for a plain number: a
    score out of ``out_of`` ("14/27": 14; the column's :func:`score_maximum`), a number
    in words ("seven": 7), a rating scale's total after its name ("GCS 14", "PHQ9: 14"),
    a score with its severity in words ("14 (moderate)", "Definite (9)"), a count with
    its word ("5 previous") or as times ("x2"), an ordinal ("41st", "16th centile": a centile), a
    count with its share in brackets ("350 (22%)": 350) or after its name ("CD4 350"), a
    count with more added in brackets ("9 (+1 loading)": 10), a count with its weekdays
    ("3 (M/W/F)": 3); else ``None``."""
    if out_of is not None and (m := _FRACTION.fullmatch(cell)) and int(m.group(2)) == out_of:
        return float(m.group(1))
    if (n := NUMBER_WORDS.get(cell.strip().lower())) is not None:
        return float(n)
    if len(cell) > _PLAIN_MAX:  # no plain number is written in more than 60 characters
        return None
    if m := _SCALE_TOTAL.fullmatch(cell):
        return float(m.group(1))
    if (n := ordinal_number(cell)) is not None:  # "41st", "16th centile" (walk-through 41)
        return n
    if (m := _SEVERITY_AFTER.fullmatch(cell)) and (s := _SCALE_TOTAL.fullmatch(m.group(1))):
        return float(s.group(1))  # "NIHSS 14 (moderate)": a scale's total and its severity
    if (m := _WITH_SEVERITY.fullmatch(cell)) and unit_key(m.group(2)) not in KNOWN_UNITS:
        return float(m.group(1))
    if (m := _SEVERITY_FIRST.fullmatch(cell)) and unit_key(m.group(1)) not in KNOWN_UNITS \
            and unit_key(m.group(1)) not in _NOT_UNITS:
        return float(m.group(2))  # "Definite (9)"
    if m := _WITH_SHARE.fullmatch(cell) or _NAMED_COUNT.fullmatch(cell) or \
            _TIMES_BEFORE.fullmatch(cell):
        return float(m.group(1))
    if (m := _WITH_PART.fullmatch(cell)) and int(m.group(2)) <= int(m.group(1)):
        return float(m.group(1))  # "2 (1 admission)": two, one of them an admission
    if m := _WITH_MORE.fullmatch(cell):
        return float(int(m.group(1)) + int(m.group(2)))  # "9 (+1 loading)": ten
    if m := _WITH_DAYS.fullmatch(cell):
        return float(m.group(1))  # "3 (M/W/F)": three, on those days
    if (m := _NUMBER_THEN_TEXT.match(cell.strip())) and unit_key(m.group(2)) in _NOT_UNITS:
        return float(m.group(1).replace(",", "."))  # "5 previous": a count
    return None


_NUMERIC_LIKE = re.compile(
    rf"{NUMBER_PATTERN}|[+-]?\d+,\d+|[+-]?\d{{1,3}}(?:\.\d{{3}})+,\d+"
    r"|[+-]?[1-9]\d{0,2}(?:,\d{3})+\.\d+"
    r"|E\s*[1-4][\s,;/-]*V\s*[1-5][\s,;/-]*M\s*[1-6]"
    r"|\s*(?:2\d|3\d|4[0-5])\s*(?:\+|w(?:ee)?k?s?\s*\+?)\s*[0-6]\s*(?:/\s*7|d(?:ays?)?)?\s*"
    r"|[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?"
    r"|(?:[<>]=?|[≤≥⩽⩾])\s*[+-]?(?:\d+,\d+|\d+\.?\d*|\.\d+)|[+-]?inf(?:inity)?"
    r"|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    r"|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?",
    re.IGNORECASE)
#: Columns with at most this many cells are parsed cell by cell in plain Python.
_SMALL_COLUMN = 64
#: The unit a column's name ends with: "Birth weight (g)", "Platelets [x10^9/L]".
_HEADER_UNIT = re.compile(r"[(\[]\s*([^()\[\]]{1,15}?)\s*[)\]]\s*$")
#: Words in brackets at the end of a name that say which value, not its unit: walk-
#: through 68's "Drug level (trough)" read "trough" as a unit and set every "3.8 ug/mL"
#: to missing as another one.
_NOT_HEADER_UNITS = frozenset({"trough", "peak", "random", "pre-dose", "predose", "post-dose",
                               "latest", "last", "first", "baseline", "current", "worst",
                               "best", "mean", "median", "average", "max", "min", "maximum",
                               "minimum", "total", "fasting", "on admission", "admission",
                               "at diagnosis",
                               # the analyte's form, not its unit (walk-through 72's
                               # "Vitamin D (25-OH)": its nmol/L cells were "not
                               # '25-OH'")
                               "25-oh", "25oh", "25 oh", "25(oh)", "25-oh d", "25(oh)d",
                               "25-hydroxy", "serum", "plasma", "venous", "arterial",
                               "capillary", "whole blood", "adjusted", "corrected",
                               "calculated", "ionised", "ionized", "free", "poct",
                               "point of care", "lab", "labs"})
#: A letter in brackets straight after a word's letters, that no unit is written as:
#: part of the analyte's name, "Lp(a)", "Apo(a)" (walk-through 90 read lipoprotein(a)'s
#: unit as "a", and set every cell in nmol/L and mg/dL to missing as another unit).
_ANALYTE_PART = re.compile(r"[A-Za-z][(\[]\s*[a-fi-kn-rt-xzA-Z]\s*[)\]]\s*$")
#: A number followed by text: "1420 g", "7,2 mmol/L".
_NUMBER_THEN_TEXT = re.compile(
    rf"^([+-]?\d{{1,3}}(?:,\d{{3}}){{2,}}(?:\.\d+)?|[+-]?\d+,\d+|{NUMBER_PATTERN})\s*"
    r"([^\d\s,.].*)$")


#: Spellings of one unit, by its normalised key: "39 y" in an "Age (years)" column is an
#: age (a walk-through's 15 ages were read as gaps). Only units that cannot be confused.
_UNIT_SPELLINGS = {
    "years": "years", "year": "years", "yrs": "years", "yr": "years", "y": "years",
    "months": "months", "month": "months", "mo": "months", "mos": "months",
    # walk-through 66's "23 mths" in a disease duration of years
    "mths": "months", "mth": "months", "mnths": "months", "mnth": "months",
    "days": "days", "day": "days", "d": "days",
    # walk-through 41's breastfeeding "6 weeks" in a column of months
    "weeks": "weeks", "week": "weeks", "wks": "weeks", "wk": "weeks",
    "hours": "hours", "hour": "hours", "hrs": "hours", "hr": "hours", "h": "hours",
    # an erythrocyte sedimentation rate (walk-through 66: "10mm/h" beside "mm/hr")
    "mm/h": "mm/hr", "mm/hour": "mm/hr", "mmhr": "mm/hr", "mm/1sthr": "mm/hr",
    "mm/1hr": "mm/hr", "mmph": "mm/hr",
    "%": "%", "percent": "%",
    # a standard deviation score written "SD", "SDS" or "z" (walk-through 60: "two units")
    "sd": "sds", "sds": "sds", "zscore": "sds", "z-score": "sds",
    "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb", "kgs": "kg",
    # a temperature written "97.8 F" or "37 ºC" (walk-through 24 lost 30 such cells)
    "f": "°f", "ºf": "°f", "degf": "°f", "fahrenheit": "°f",
    "c": "°c", "ºc": "°c", "degc": "°c", "celsius": "°c",
    # alcohol and tobacco as a mental health or primary care export writes them
    # (walk-through 35): "20 units/wk", "20u/w"; "10/day", "10 cpd"
    "units/wk": "units/wk", "u/w": "units/wk", "u/wk": "units/wk", "units/week": "units/wk",
    "units/w": "units/wk", "unitsperweek": "units/wk", "upw": "units/wk",
    "unitsaweek": "units/wk", "units/wk.": "units/wk", "unitspw": "units/wk",
    "units/pw": "units/wk", "u/pw": "units/wk",
    "/day": "perday", "perday": "perday", "aday": "perday", "cpd": "perday",
    "cigs/day": "perday", "cigarettes/day": "perday", "cig/day": "perday",
    "cigsperday": "perday", "cigarettesperday": "perday", "/d": "perday",
    # walk-through 45's respiratory clinic: "40 pack yrs" and "24 py" are one unit
    **dict.fromkeys(("packyrs", "packyears", "pack-years", "pack-yrs", "packyear",
                     "pack-year", "packyr", "pkyrs", "pk/yrs", "pk-yrs", "py", "pys",
                     "p/y", "p.y.", "pyrs"), "packyears"),
    # an infusion's rate (walk-through 58's vasopressin "0.03 U/min", "0.04 units/min")
    **dict.fromkeys(("u/min", "units/min", "unit/min", "iu/min", "unitsperminute"), "u/min"),
    **dict.fromkeys(("mcg/kg/min", "ug/kg/min", "microg/kg/min", "mcg/kg/minute"),
                    "ug/kg/min"),
}


#: Superscripts and powers written out: "kg/m²", "kg/m2" and "kg/m^2" are one unit (a
#: walk-through's 65 BMI values written "kg/m2" in a "BMI (kg/m²)" column were set to
#: missing as another unit).
_POWERS = str.maketrans({"\u00b2": "2", "\u00b3": "3"})


def unit_key(text: str) -> str:
    """Normalised key of a unit: case, spaces, the micro sign and how a power is written
    ignored ("mm Hg" and "mmHg", "µmol/l" and "umol/L", "kg/m²" and "kg/m2" are one
    unit), short spellings merged ("yrs", "y")."""
    key = re.sub(r"\s+", "", str(text)).lower().replace("\u00b5", "u").replace("\u03bc", "u")
    key = re.sub(r"\^([23])(?!\d)", r"\1", key.translate(_POWERS))
    return _UNIT_SPELLINGS.get(key, key)


#: A unit read from a column's cells (its key, :func:`unit_key`): "%" or a short word
#: that starts with a letter or "°" ("bpm", "mmhg", "umol/l", "kg/m²", "°c"); one letter only
#: when it is a unit ("g", "l", "m", "s"): "3a", "3b" are stages, not units.
_UNIT_LIKE = re.compile(r"^(?:%|°[a-z]{1,2}|[a-z][a-z0-9/^²³·.*°]{1,19}|[glms]|"
                        # a count per volume: walk-through 54's neutrophils "3000 /uL"
                        r"/(?:ul|mm3|l|dl|ml|nl|hpf))$")
#: A text read as a unit follows at least this many different numbers: "0 none", "1 mild",
#: "2 severe" are a scale's levels, each word with one number, not three units.
UNIT_MIN_NUMBERS = 2
#: Words after a number that count, not measure: "5 previous", "3 times" (walk-through
#: 36's "Prior admissions (previous)").
_NOT_UNITS = frozenset({"previous", "prior", "times", "x", "episodes", "admissions",
                        "total", "only", "approx", "each", "occasions", "attempts",
                        # walk-through 47's "12 meds" named a unit "meds"
                        "meds", "medications", "medicines", "drugs", "items", "falls",
                        # the sample a result was measured on: "1.2 venous" (walk-through
                        # 60 named a lactate's unit "venous")
                        "venous", "arterial", "capillary", "vbg", "abg", "cbg", "ven",
                        "art"})
#: Unit keys no scale's level is written as: one number is enough ("89.1kg" in a
#: 15-row export was set to missing for want of a second weight written with "kg").
KNOWN_UNITS = frozenset({
    "kg", "g", "mg", "ug", "lb", "oz", "cm", "mm", "m", "in", "ft", "mmol/l", "umol/l",
    "nmol/l", "pmol/l", "mg/dl", "g/dl", "g/l", "mg/l", "ng/l", "ng/ml", "ug/l", "pg/ml",
    "iu/l", "u/l", "meq/l", "mmhg", "kpa", "bpm", "/min", "%", "°c", "°f", "mmol/mol",
    "x10^9/l", "x109/l", "10^9/l", "/ul", "/mm3", "k/ul", "ml", "l", "ml/min",
    "ml/min/1.73m2", "kg/m2", "min", "years", "months", "weeks", "days", "hours",
    # walk-through 38's 15-row HIV export: one "687 cells/mm3" and one "<20 copies/mL"
    "cells/mm3", "cells/ul", "copies/ml", "iu/ml", "cp/ml",
    # an infusion's rate (walk-through 58's noradrenaline and vasopressin)
    "ug/kg/min", "u/min"})


#: What a rate counts, written alone in a column named with the rate: "6 units" in an
#: "Alcohol (units/wk)" column is 6 units a week (walk-through 62 set 51 such cells to
#: missing as another unit), "10 cigs" in a "Smoking (cigs/day)" column 10 a day.
_RATE_COUNTS = {
    "units/wk": frozenset({"units", "unit", "u"}),
    # units of blood in a "Transfusion (units)" column (walk-through 72 lost "2u" and
    # "3 units RBC", 47 cells, as other units)
    "units": frozenset({"unit", "u", "units", "unitsrbc", "unitrbc", "unitsprbc",
                        "unitsofblood", "unitsofrbc", "unitsrcc", "unitsblood", "uprbc",
                        "urbc"}),
    # "25m" in a column of minutes (walk-through 66's morning stiffness): minutes, not
    # metres, where the column's unit says so
    "min": frozenset({"m"}), "mins": frozenset({"m"}), "minutes": frozenset({"m"}),
    "perday": frozenset({"cigs", "cig", "cigarettes", "cigarette", "cigs/d"}),
}


def cell_unit_key(text: str, header: str | None) -> str:
    """The key of a unit written after a number in a cell (:func:`unit_key`), the column's
    own (``header``, its name's unit) when the cell writes only what that rate counts."""
    key = unit_key(text)
    if header:
        head = unit_key(header)
        if key in _RATE_COUNTS.get(head, ()):
            return head
    return key


def header_unit(name: object, as_written: bool = False) -> str | None:
    """The unit written at the end of a column's name, normalised ("g", "mg/dl"), or
    ``None``.

    Parameters
    ----------
    name : object
        The column's name.
    as_written : bool
        Return the unit as the name spells it ("mg/dL"), not its key.

    Examples
    --------
    >>> header_unit("Birth weight (g)"), header_unit("Platelets [x10^9 / L]"), header_unit("Age")
    ('g', 'x10^9/l', None)
    """
    m = _HEADER_UNIT.search(str(name))
    if m is None or m.group(1).strip().lower() in _NOT_HEADER_UNITS:
        return None
    if _ANALYTE_PART.search(str(name)[:m.end()]):  # "Lp(a)": the analyte's own name
        return None
    return m.group(1) if as_written else unit_key(m.group(1))


def with_unit(cell: str, unit: str | None, thousands_dot: bool = False,
              thousands_comma: bool = False) -> float | None:
    """The number of a cell written with its column's unit ("1420 g" in a "(g)" column),
    else ``None``: a cell in another unit ("1.4 kg") is not converted.

    ``unit`` may be a key or a spelling of the unit ("mmHg", "mm Hg" and "mmhg" are one);
    with ``thousands_dot``, "1.527 pg/ml" reads 1527 (:func:`thousands_dot_column`); with
    ``thousands_comma``, "7,673 copies/mL" reads 7673 (:func:`thousands_comma_column`)."""
    if not unit:
        return None
    m = _NUMBER_THEN_TEXT.match(cell.strip())
    if m is None or cell_unit_key(m.group(2), unit) != unit_key(unit):
        return None
    return _written_number(m.group(1), thousands_dot, thousands_comma)


def _written_number(number: str, thousands_dot: bool = False,
                    thousands_comma: bool = False) -> float:
    """A number as written before a unit: "1.527" with dots as thousands separators,
    "7,673" with commas as thousands separators, else "2,5" with a decimal comma."""
    if thousands_dot and _DOT_THOUSANDS.match(number):
        return float(number.replace(".", ""))
    if (thousands_comma or number.count(",") > 1) and _COMMA_THOUSANDS.match(number):
        return float(number.replace(",", ""))  # "1,222,402": thousands, whatever the table
    return float(number.replace(",", "."))


@dataclass(frozen=True)
class WrittenUnit:
    """The cells of a column written as a number followed by one unit.

    Attributes
    ----------
    key : str
        The unit's key (:func:`unit_key`: "mmhg", "umol/l", "%").
    shown : str
        Its most common spelling in the column ("mmHg", "µmol/l").
    count : int
        Number of cells.
    rows : tuple of int
        Rows (0-based) of the first 5 cells.
    examples : tuple of str
        Up to 3 of the cells as written.
    """

    key: str
    shown: str
    count: int
    rows: tuple[int, ...]
    examples: tuple[str, ...]


@dataclass(frozen=True)
class ColumnUnits:
    """The units a column's cells and name are written with (:func:`column_units`).

    Attributes
    ----------
    header : str or None
        The unit of the column's name (:func:`header_unit`), as written.
    written : dict
        ``{key: WrittenUnit}`` of the units written after numbers in the cells, the most
        common first.
    n_numbers : int
        Cells written as a number in a form :func:`parse_numeric` reads without a unit.
    n_cells : int
        Cells that are neither empty nor a missing token.
    cells : tuple or None
        The column's distinct cells as read for it (``_unique_cells``), which
        :func:`numeric_share` reads again (a third of a wide table's role inference).
    """

    header: str | None = None
    written: dict[str, WrittenUnit] = field(default_factory=dict)
    n_numbers: int = 0
    n_cells: int = 0
    cells: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def keys(self) -> list[str]:
        """Every unit of the column: the name's (first), then those of the cells."""
        head = [unit_key(self.header)] if self.header else []
        return head + [k for k in self.written if k not in head]

    @property
    def mixed(self) -> bool:
        """Whether the column is written in two units or more (the name's counts)."""
        return len(self.keys) >= 2

    @property
    def unit(self) -> str | None:
        """The unit whose cells read as numbers: the name's, else the cells' only unit
        (as most often written); ``None`` when the cells mix units."""
        if self.header:
            return self.header
        if len(self.written) == 1:
            return next(iter(self.written.values())).shown
        return None

    @property
    def from_cells(self) -> str | None:
        """The unit learned from the cells (not the name), as most often written."""
        return None if self.header else self.unit

    def share_read(self) -> float:
        """Share of the non-missing cells read as numbers with the cells' only unit (as
        :func:`numeric_share` with that unit gives it; not for a unit of the name)."""
        n = self.n_numbers + (next(iter(self.written.values())).count
                              if len(self.written) == 1 else 0)
        return n / self.n_cells if self.n_cells else 0.0

    def share_with_units(self) -> float:
        """Share of the non-missing cells that are numbers, with or without any unit."""
        n = self.n_numbers + sum(u.count for u in self.written.values())
        return n / self.n_cells if self.n_cells else 0.0


def column_units(values: pd.Series, name: object = None,
                 missing_tokens=DEFAULT_MISSING_TOKENS) -> ColumnUnits:
    """Find the units a column is written with: its name's, and those after numbers.

    A text after a number ("82 bpm", "5,2 %", "140 mm Hg") is a unit when it is "%" or a
    short word starting with a letter (one letter only for g, l, m, s) and follows at
    least :data:`UNIT_MIN_NUMBERS` different numbers in the column. Spellings that differ
    only in case, spaces or "µ"/"u" are one unit.

    Parameters
    ----------
    values : pandas.Series
        The column's cells.
    name : object, optional
        The column's name (its unit: :func:`header_unit`).
    missing_tokens : set of str
        Normalised missing tokens (left out of the cells counted).

    Returns
    -------
    ColumnUnits
        The name's unit, the cells' units with their counts and first rows, and the
        number of plain numbers and of non-missing cells.
    """
    header = header_unit(name, as_written=True) if name is not None else None
    if pd.api.types.is_bool_dtype(values) or pd.api.types.is_numeric_dtype(values):
        n = int(values.notna().sum()) if not pd.api.types.is_bool_dtype(values) else 0
        return ColumnUnits(header=header, n_numbers=n, n_cells=int(values.notna().sum()))
    cells = _unique_cells(values, missing_tokens)
    if cells is None:
        return ColumnUnits(header=header)
    rows_of, uniques, counts, token, number = cells
    kept = (rows_of, uniques, counts, token.copy(), number.copy())  # before the changes
    if name is not None and VIRAL_LOAD.search(str(name)):  # "4.1 log": a load, no unit
        logs = [i for i in np.flatnonzero(~number & ~token)
                if log_count(uniques.iat[i]) is not None
                or power_count(uniques.iat[i]) is not None]
        number[logs] = True
    found: dict[str, dict[str, Any]] = {}
    # a limit or an estimate with a unit reads as a number, and tells the unit too; but
    # a column whose only numbers are limits holds bands ("<=20mm", ">50mm"): answers
    limited = np.array([_without_limit(c) != c for c in uniques], dtype=bool)
    bands = np.array([bool(_CENSORED.match(c) or _LIMIT_THEN.fullmatch(c)) for c in uniques],
                     dtype=bool)
    if not ((number & ~bands & ~token).any() or any(
            _NUMBER_THEN_TEXT.match(c) for c in uniques[~bands & ~token & ~number])):
        number = number & ~bands
        limited &= ~bands
        other = np.flatnonzero(~number & ~token & ~bands)
    else:
        other = np.flatnonzero((~number | limited) & ~token)
    if len(other):
        texts = uniques.iloc[other]
        # "<5 ng/L" and "est 67 kg" are written in their unit too
        bare = texts.map(_without_limit)
        maybe = bare.str.match(r"\s*[+-]?(?:\d|\.\d)").to_numpy(dtype=bool)
        for i, cell in zip(other[maybe], bare[maybe], strict=True):
            m = _NUMBER_THEN_TEXT.match(cell)
            if m is None:
                continue
            key = cell_unit_key(m.group(2), header)
            if not _UNIT_LIKE.match(key) or key in _NOT_UNITS:
                continue
            u = found.setdefault(key, {"count": 0, "numbers": set(), "spelled": {},
                                       "cells": []})
            u["count"] += int(counts[i])
            u["numbers"].add(m.group(1).replace(",", "."))
            spelled = m.group(2).strip()
            u["spelled"][spelled] = u["spelled"].get(spelled, 0) + int(counts[i])
            u["cells"].append(i)
    written = {}
    for key, u in sorted(found.items(), key=lambda kv: -kv[1]["count"]):
        if len(u["numbers"]) < UNIT_MIN_NUMBERS and key not in KNOWN_UNITS:
            continue
        first = rows_of(u["cells"])[:5]
        shown = max(u["spelled"], key=lambda s: u["spelled"][s])
        written[key] = WrittenUnit(key=key, shown=shown, count=u["count"],
                                   rows=tuple(int(r) for r in first),
                                   examples=tuple(uniques.iat[i] for i in u["cells"][:3]))
    return ColumnUnits(header=header, written=written,
                       n_numbers=int(counts[number & ~token].sum()),
                       n_cells=int(counts[~token].sum()), cells=kept)


def cell_text(values: pd.Series) -> pd.Series:
    """Cells as stripped text.

    Parameters
    ----------
    values : pandas.Series
        A column of any dtype.

    Returns
    -------
    pandas.Series of str
        Every cell stripped of surrounding white space; ``""`` for empty, ``None`` and
        ``NaN`` cells. The index is reset to 0, 1, ...
    """
    if pd.api.types.is_string_dtype(values) and values.dtype != object:
        return values.fillna("").str.strip().reset_index(drop=True)
    return values.map(lambda v: "" if is_blank(v) else str(v).strip()).astype(str) \
        .reset_index(drop=True)


def loose_key(key: str) -> str:
    """A normalised key (:func:`sparge.data.tables.norm_key`) without spaces, hyphens,
    underscores and full stops: "Event-free", "event free" and "EVENT_FREE" give
    "eventfree" (one outcome written three ways)."""
    if len(key) > LONG_KEY:  # a pasted note: once (norm_key's rule)
        return _long_loose_key(key)
    return re.sub(r"[\s\-_.]+", "", key)


@functools.lru_cache(maxsize=32)
def _long_loose_key(key: str) -> str:
    return re.sub(r"[\s\-_.]+", "", key)


def cell_keys(text: pd.Series) -> pd.Series:
    """Normalised key of every cell, for case- and space-insensitive comparisons.

    Parameters
    ----------
    text : pandas.Series of str
        Cells as :func:`cell_text` gives them.

    Returns
    -------
    pandas.Series of str
        :func:`sparge.data.tables.norm_key` of every cell (computed once per distinct
        cell), on the index of ``text``.
    """
    codes, uniques = pd.factorize(text)
    keys = np.asarray([norm_key(u) for u in uniques] + [""], dtype=object)
    return pd.Series(keys[codes], index=text.index, dtype=object)


def token_counts(text: pd.Series) -> dict[str, int]:
    """Count the cells of each token, grouped case- and space-insensitively.

    Parameters
    ----------
    text : pandas.Series of str
        The cells to count (e.g. those read as missing).

    Returns
    -------
    dict
        ``{token: count}``, the token as first written (shortened to 40 characters for
        messages); ``not done``, ``Not Done`` and ``not  done`` count as one token.
    """
    out: dict[str, int] = {}
    first: dict[str, str] = {}
    for s, n in text.value_counts().items():
        key = norm_key(s)
        label = first.setdefault(key, _q(s, 40))
        out[label] = out.get(label, 0) + int(n)
    return out


#: A test's initials before its value ("eGFR >90").
_LEADING_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{1,7}\s{0,3}[:=]?\s{0,3}(?=[<>≤≥⩽⩾])")


def limit_text(cell: object) -> str | None:
    """The cell as written when it is a limit ("<15", ">= 90", "eGFR >90", "10+"), tidied
    ("<15", "≥90", ">90", "≥10"), a result below the detection limit ("TND";
    walk-through 38's New patient showed it as a plain "50" beside "<50 (read as 50)") or
    a test the patient could not do ("unable - pain": walk-through 71 saw its 6-minute
    walk's worst result, 111 m, with no mark); None otherwise. :func:`parse_numeric` reads
    such a cell as its limit, or as the performance test's worst result."""
    if cell is None or isinstance(cell, float | int | np.number):
        return None
    text = str(cell).strip()
    if len(text) <= 40 and norm_key(text) in NOT_DETECTED_WORDS:
        return text
    if len(text) > 40:
        return None
    if is_unable(text):  # a test not done: read as the column's worst result, or a gap
        return re.sub(r"\s+", " ", text)
    if (least := _AT_LEAST.fullmatch(text)) is not None:  # "10+": at least 10
        return "≥" + least.group(1)
    # a limit after its test's initials, "eGFR >90" (walk-through 49 saw "90")
    m = _CENSORED.match(text) or _CENSORED.match(_LEADING_NAME.sub("", text, count=1))
    if not m:
        return None
    sign = {"<": "<", ">": ">", "<=": "≤", ">=": "≥", "⩽": "≤", "⩾": "≥"}.get(
        m.group(1), m.group(1))
    return sign + m.group(2)


def parse_numeric(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS,
                  unit: str | None = None, thousands_dot: bool = False,
                  convert: dict[str, tuple[float, float]] | None = None,
                  thousands_comma: bool = False, out_of: int | None = None,
                  detection_limit: float | None = None, log_counts: bool = False,
                  writes_zero: bool | None = None, unable: float | None = None,
                  split_limits: dict[float, float] | None = None,
                  plain_split: tuple[float, float, float] | None = None,
                  unlimited: float | None = None
                  ) -> tuple[np.ndarray, dict[str, Any]]:
    """Parse a column of cells as numbers.

    Parameters
    ----------
    values : pandas.Series
        The column's cells (text or numbers).
    missing_tokens : set of str
        Normalised missing tokens (cells that read as missing, not as stray text).
    unit : str, optional
        The column's unit (:func:`header_unit` of its name, or the one its cells are
        written with, :func:`column_units`), as a key or as written: cells written with it
        ("1420 g", "140 mm Hg" for "mmHg") read as their number.
    thousands_dot : bool
        Read "1.527" as 1527 (a dot as thousands separator; never "0.527"): for a column
        whose dotted numbers are all so written in a table that writes decimals with a
        comma (:func:`thousands_dot_column`, :func:`writes_decimal_commas`).
    convert : dict, optional
        ``{unit key: (factor, offset)}``: a cell written in one of these units reads as
        ``factor × number + offset`` (:mod:`sparge.data.unit_conversion`: "2.1 mg/dL" in
        a creatinine column read in µmol/L).
    out_of : int, optional
        The maximum a score written "14/27" is out of: by default the column's own
        (:func:`score_maximum`); 0 reads no such cell (a model whose training column
        wrote none: walk-through 36's "14/21" in a PHQ-9 field was read as 14).
    detection_limit : float, optional
        What "not detected" (:data:`NOT_DETECTED_WORDS`) reads as: by default the most
        common lower limit the column writes ("<50": 50); NaN reads none (a fitted
        model's column that wrote no limit).
    log_counts : bool
        Read a load written as its logarithm, "log 4.1", as 10 ** 4.1 (a column of viral
        loads, :data:`VIRAL_LOAD`).
    writes_zero : bool, optional
        Whether "none" and "nil" (:data:`NONE_WORDS`) read as 0: by default where the
        column writes 0 too; a fitted model's column for new patients (walk-through 45's
        new patient's "none" exacerbations were missing, the training patients' 0).
    unable : float, optional
        What "unable" (:func:`~sparge.data.unable.is_unable`) reads as in a performance
        test's column (:func:`~sparge.data.unable.performance_direction`): by default the
        worst result the column writes (:func:`~sparge.data.unable.worst_result`); NaN
        reads none (a fitted model's column that is no such test).
    split_limits : dict, optional
        ``{limit: step}``: the limits written on both sides ("<4 METs" and ">4 METs"),
        read a step below and above the limit (3.5 and 4.5): by default those of the
        column's own cells (:func:`split_limit_sides`); a fitted model's for new patients.
    plain_split : tuple, optional
        ``(low, high, factor)``: the plain numbers in ``[low, high]`` are written in
        another of the column's units and read times ``factor``
        (:func:`~sparge.data.unit_conversion.plain_split`: "6.3" beside "58mm" and
        "5.4cm").
    unlimited : float, optional
        What "unlimited" and "no claudication" (:func:`~sparge.data.unable.is_unlimited`)
        read as in a column of distances walked: by default the best result the column
        writes (:func:`~sparge.data.unable.best_result`); NaN reads none.

    Returns
    -------
    numbers : ndarray of float
        One value per cell; ``NaN`` for missing, unparsable and infinite cells; a value
        written as a limit (``<15``, ``>90``) reads as the limit (walk-through 18: set to
        missing, an eGFR of "<15" took the value away from the sickest patients).
    info : dict
        What was read: the unparsable cells (``bad``: list of (row, text)), decimal-comma
        cells converted (``decimal_comma``: count), cells with thousands separators
        converted (``thousands``: count; a column written as ``1.234,5`` reads 1234.5,
        ``1 234,5`` too), censored values (``censored``: (row, text) of cells such as
        ``<0.1``), infinite values (``infinite``: (row, text)), the missing tokens seen
        (``missing_tokens``: {token: count}), the cells written with the unit
        (``unit``: (row, text)), those read with ``thousands_dot`` (``thousands_dot``:
        (row, text, number read)), those converted from another unit (``converted``:
        (row, text)) and the Glasgow coma scales written as their parts, read as their
        total (``gcs``: (row, text); "E3V4M5" is 12), the numbers written as a score out
        of its maximum, in words or after "GCS" (``plain``: (row, text, number);
        :func:`plain_number`) and the oxygen saturations written with how they were taken
        (``saturation``: (row, text, number); "94% on 2L" is 94), and the estimates
        (``estimated``: (row, text, number); "est 67" is 67), and the results below
        the detection limit (``not_detected``: (row, text); ``detection_limit``: the
        limit they read as, or ``None``), and the narrow ranges read as their middle
        (``range``: (row, text, number); :func:`range_middle`), and whether "none" reads
        as 0 (``writes_zero``), and the cells saying the patient could not do a
        performance test (``unable``: (row, text, number)) with the worst result they read
        as (``unable_value``: a number, or ``None`` in a column that is no such test).
    """
    info: dict[str, Any] = {"bad": [], "decimal_comma": 0, "thousands": 0, "censored": [],
                            "infinite": [], "missing_tokens": {}, "unit": [],
                            "thousands_dot": [], "converted": [], "gcs": [],
                            "thousands_comma": [], "gestation": [], "plain": [], "scale_word": [],
                            "saturation": [], "estimated": [], "limit_unit": [],
                            "none_as_zero": [], "not_detected": [],
                            "detection_limit": None, "log10": [], "power10": [], "range": [],
                            "unable": [], "unable_value": None, "age_part": [],
                            "per_minute": [], "cycle": [], "invalid_sample": [],
                            "gcs_untestable": [], "plain_unit": [], "unlimited": [],
                            "unlimited_value": None}
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        out = np.array(values.to_numpy(dtype=float, na_value=np.nan), copy=True)
        info["infinite"] = [(int(i), str(out[i])) for i in np.flatnonzero(np.isinf(out))]
        out[np.isinf(out)] = np.nan
        info["writes_zero"] = bool(np.any(out == 0))
        if unable is None:
            info["unable_value"] = worst_result(out, performance_direction(values.name))
        if unlimited is None:
            info["unlimited_value"] = best_result(out, performance_direction(values.name))
        return out, info
    if len(values) <= _SMALL_COLUMN:
        # A few patients (a new-patient query): plain Python per cell beats pandas' string
        # machinery, whose fixed cost per column dominated a 467-column query.
        cells = ["" if is_blank(v) else str(v).strip() for v in values.tolist()]
        num = np.asarray([float(c) if _NUMBER.match(c) else np.nan for c in cells],
                         dtype=float)
        nonempty = np.asarray([c != "" for c in cells], dtype=bool)
    else:
        text = cell_text(values)
        cells = text.tolist()
        num = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        nonempty = (text != "").to_numpy()
    out = np.full(len(cells), np.nan)
    fast = np.isfinite(num)
    out[fast] = num[fast]
    rest = np.flatnonzero(nonempty & ~fast)
    rest_text = [cells[i] for i in rest]
    eu = any(_EU_FULL.match(s) for s in rest_text)
    if eu:
        dotted = [i for i in np.flatnonzero(fast) if "." in cells[i]]
        eu = all(_EU_THOUSANDS.match(cells[i]) for i in dotted)
        if eu:
            for i in dotted:
                out[i] = float(cells[i].replace(".", ""))
            info["thousands"] += len(dotted)
    elif thousands_dot:
        for i in np.flatnonzero(fast):
            if "." in cells[i] and _DOT_THOUSANDS.match(cells[i]):
                out[i] = float(cells[i].replace(".", ""))
                info["thousands_dot"].append((int(i), cells[i], float(out[i])))
    if plain_split is not None:  # "6.3" beside "58mm" and "5.4cm": 6.3 cm
        low, high, factor = plain_split
        other = np.flatnonzero(fast & (out >= low) & (out <= high))
        out[other] *= factor
        info["plain_unit"] = [(int(i), cells[i], float(out[i])) for i in other]
    tokens: list[str] = []
    named, level = named_total(values.name), scale_level(values.name)
    aged, rate = age_reader(values.name), rate_reader(values.name)
    composite = composite_reader(values.name)
    cycle = cycle_reader(values.name)
    plus = added_point_reader(values.name)
    gcs_column = _GCS_NAME.search(str(values.name)[:80]) is not None
    # "5/12" (5 months) in a column of durations in years (walk-through 56's dialysis
    # vintage read it as 5 years): as a column of ages reads it
    per_unit = _AGE_UNIT_DAYS.get(unit_key(unit)) if unit and aged is None else None
    if out_of is None:  # the column's own maximum; a fitted model's, for new patients
        out_of = score_maximum(rest_text)
    info["out_of"] = out_of or None
    # "nil" and "none" are 0 where the column writes 0 too (alcohol, prior admissions)
    zero = bool(np.any(out[fast] == 0)) if writes_zero is None else bool(writes_zero)
    info["writes_zero"] = zero
    # "unable" in a performance test's column: the worst result (set after the loop)
    test = performance_direction(values.name) if unable is None else \
        int(not math.isnan(unable))
    # ... and "unlimited" in a distance walked: the best result
    farthest = performance_direction(values.name) < 0 if unlimited is None else \
        not math.isnan(unlimited)
    cannot: list[int] = []
    free: list[int] = []
    for i, s in zip(rest, rest_text):
        if zero and norm_key(s) in NONE_WORDS:
            out[i] = 0.0
            info["none_as_zero"].append((int(i), s))
        elif norm_key(s) in missing_tokens:
            tokens.append(s)
        elif invalid_sample(s):  # "7.0 haemolysed": not the patient's value
            info["invalid_sample"].append((int(i), s))
        elif _gcs_gap(s, gcs_column):  # "E1VTM4": no total without the verbal part
            info["gcs_untestable"].append((int(i), s))
        elif thousands_comma and _COMMA_THOUSANDS.match(s):  # 362,656 or 1,234.5
            out[i] = float(s.replace(",", ""))
            info["thousands_comma"].append((int(i), s, float(out[i])))
        elif eu and (_EU_FULL.match(s) or _DECIMAL_COMMA.match(s)):
            out[i] = float(s.replace(".", "").replace(",", "."))
            info["thousands"] += 1
        elif thousands_dot and _DOT_THOUSANDS.match(s):  # 12.345.678
            if math.isfinite(v := float(s.replace(".", ""))):
                out[i] = v
                info["thousands_dot"].append((int(i), s, v))
            else:  # more than 308 digits
                info["infinite"].append((int(i), s))
        elif _SPACED.match(s):
            out[i] = float(re.sub(r"[ \u00a0\u202f]", "", s).replace(",", "."))
            info["thousands"] += 1
        elif _DECIMAL_COMMA.match(s):
            out[i] = float(s.replace(",", "."))
            info["decimal_comma"] += 1
            info.setdefault("decimal_comma_cell", (s, out[i]))
        elif m := _CENSORED.match(s):  # "<15", ">90": the limit (the value lies beyond)
            out[i] = float(m.group(2).replace(",", "."))
            info["censored"].append((int(i), s))
        elif aged is not None and (v := aged(s)) is not None:  # "10m", "16/12" in an Age
            out[i] = v
            info["age_part"].append((int(i), s, v))
        elif plus is not None and (v := plus(s)) is not None:  # "20+1" in a MoCA
            out[i] = v
            info["plain"].append((int(i), s, v))
        elif m := _GESTATION.fullmatch(s):  # "38+4": weeks and days, in weeks
            out[i] = int(m.group(1)) + int(m.group(2)) / 7
            info["gestation"].append((int(i), s, float(out[i])))
        elif m := _AT_LEAST.fullmatch(s):  # "10+": at least 10, read as the limit
            out[i] = float(m.group(1))
            info["censored"].append((int(i), s))
        elif m := _GCS.fullmatch(s):  # "E3V4M5": the Glasgow coma scale's total
            out[i] = float(sum(int(g) for g in m.groups()))
            info["gcs"].append((int(i), s))
        elif per_unit and (v := _time_part(s, per_unit, True)) is not None:  # "5/12" years
            out[i] = v
            info["age_part"].append((int(i), s, v))
        elif (v := plain_number(s, out_of)) is not None:  # "7/10", "seven", "GCS 14"
            out[i] = v
            info["plain"].append((int(i), s, v))
        elif named is not None and (m := named.fullmatch(s)):  # "CAT 26" in "CAT score"
            out[i] = float(m.group(2).replace(",", ""))
            if m.group(1):  # "eGFR >90": the limit, as ">90" is read
                info["censored"].append((int(i), s))
            else:
                info["plain"].append((int(i), s, float(out[i])))
        elif level is not None and (v := level(s)) is not None:  # "moderately frail": 6
            out[i] = v
            info["scale_word" if re.search(r"[a-z]{3}", s.lower()) and not
                 _WITH_LABEL.fullmatch(s) else "plain"].append((int(i), s, v))
        elif m := _SATURATION.fullmatch(s):  # "94% on 2L": the saturation
            out[i] = float(m.group(1))
            info["saturation"].append((int(i), s, float(out[i])))
        elif (m := _LIMIT_THEN.fullmatch(s)) and (
                v := _limit_value(m.group(2), unit, convert)) is not None:
            out[i] = v  # "<5 ng/L": the limit, in the column's unit
            info["censored"].append((int(i), s))
            if with_unit(m.group(2), unit) is not None:
                info["limit_unit"].append((int(i), s))
        elif (m := _ESTIMATED.fullmatch(s)) and (
                v := _limit_value(m.group(1), unit, convert)) is not None:
            out[i] = v  # "est 67": the estimate
            info["estimated"].append((int(i), s, v))
        elif (v := range_middle(s)) is not None or (
                unit and (v := _range_with_unit(s, unit)) is not None):  # "2-3": its middle
            out[i] = v
            info["range"].append((int(i), s, v))
        elif norm_key(s) in _INF_TOKENS or _NUMBER.match(s):  # inf, or too large (1e999)
            info["infinite"].append((int(i), s))
        elif (v := with_unit(s, unit, thousands_dot and not eu, thousands_comma)) is not None \
                and math.isfinite(v):
            out[i] = v
            info["unit"].append((int(i), s))
            if thousands_dot and not eu and v != with_unit(s, unit):  # "1.527 pg/ml"
                info["thousands_dot"].append((int(i), s, v))
        elif convert and (v := _converted(s, convert, thousands_comma)) is not None:
            out[i] = v
            info["converted"].append((int(i), s))
        elif log_counts and (v := log_count(s)) is not None:  # "log 4.1": 12,589
            out[i] = v
            info["log10"].append((int(i), s, v))
        elif log_counts and (v := power_count(s)) is not None:  # "5.8x10^3": 5,800
            out[i] = v
            info["power10"].append((int(i), s, v))
        elif rate is not None and (v := rate(s)) is not None:  # "39/min" in a resp rate
            out[i] = v
            info["per_minute"].append((int(i), s, v))
        elif composite is not None and (v := composite(s)) is not None:  # "wt 64kg ht
            out[i] = v  # 1.57m" in a BMI, "20/day for 30 yrs" in pack-years
            info["plain"].append((int(i), s, v))
        elif cycle is not None and (v := cycle(s)) is not None:  # "C3D8" in a Cycle
            out[i] = v
            info["cycle"].append((int(i), s, v))
        elif test and is_unable(s):  # the worst result, once the column is read
            cannot.append(int(i))
        elif farthest and is_unlimited(s):  # the best result, once the column is read
            free.append(int(i))
        elif (inner := _after_own_name(s, values.name)) is not None:
            # "EF 55-60" in "LVEF", "INR n/a" in "INR (last)" (walk-through 87): the cell
            # after the column's own name, read as the column reads a cell
            got, seen = parse_numeric(
                pd.Series([inner], name=values.name, dtype=object), missing_tokens, unit,
                thousands_dot, convert, thousands_comma, out_of, detection_limit,
                log_counts, zero, unable if unable is not None else
                (np.nan if not test else None))
            if np.isfinite(got[0]):
                out[i] = got[0]
                info["plain"].append((int(i), s, float(got[0])))
            elif seen["missing_tokens"]:
                tokens.append(inner)
            else:
                info["bad"].append((int(i), s))
        else:
            info["bad"].append((int(i), s))
    if test:
        worst = worst_result(out, test) if unable is None else unable
        info["unable_value"] = worst
        if worst is None:  # too few results to say which is the worst: a gap, as before
            info["bad"] = sorted(info["bad"] + [(i, cells[i]) for i in cannot])
        else:
            out[cannot] = worst
            info["unable"] = [(i, cells[i], worst) for i in cannot]
    if farthest:
        best = best_result(out, -1) if unlimited is None else unlimited
        info["unlimited_value"] = best
        if best is None:  # too few distances to say which is the best: a gap
            info["bad"] = sorted(info["bad"] + [(i, cells[i]) for i in free])
        else:
            out[free] = best
            info["unlimited"] = [(i, cells[i], best) for i in free]
    if tokens:
        info["missing_tokens"] = token_counts(pd.Series(tokens, dtype=object))
    below = NOT_DETECTED_WORDS | (NEGATIVE_WORDS if values.name is not None and
                                  ANTIBODY_COLUMN.search(str(values.name)[:120])
                                  else frozenset())
    if any(norm_key(c) in below for _, c in info["bad"]):
        _read_not_detected(out, info, detection_limit, below)
    if info["censored"]:
        steps = split_limit_sides(out, info["censored"]) if split_limits is None \
            else split_limits
        info["split_limits"] = steps
        info["split"] = []
        for i, c in info["censored"]:
            step = steps.get(float(out[i])) if math.isfinite(out[i]) else None
            if step:
                out[i] += -step if _limit_side(c) < 0 else step
                info["split"].append((i, c, float(out[i])))
    return out, info


def _limit_side(cell: str) -> int:
    """-1 for a limit the value lies below ("<4", "≤4"), +1 above (">4", "≥4", "4+")."""
    m = re.search(r"[<>≤≥⩽⩾]", cell)
    return -1 if m and m.group(0) in "<≤⩽" else 1


def split_limit_sides(out: np.ndarray, censored: list[tuple[int, str]]
                      ) -> dict[float, float]:
    """``{limit: step}`` of the limits a column writes on both sides ("<4 METs" and
    ">4 METs", each at least twice): read as the limit itself, a patient below and one
    above it would be one value (walk-through 92's functional capacity, where under 4 METs
    is what an anaesthetist asks). The step is half the column's resolution (the smallest
    gap between the other values it writes; else half a unit of the limit's last digit),
    and less than half the limit.

    Examples
    --------
    >>> split_limit_sides(np.array([4.0, 4.0, 4.0, 4.0, 6.0, 7.0]),
    ...                   [(0, "<4 METs"), (1, "<4"), (2, ">4 METs"), (3, ">4")])
    {4.0: 0.5}
    """
    sides: dict[float, list[int]] = {}
    for i, c in censored:
        if math.isfinite(out[i]):
            sides.setdefault(float(out[i]), []).append(_limit_side(c))
    both = [v for v, s in sides.items() if s.count(-1) >= 2 and s.count(1) >= 2]
    if not both:
        return {}
    plain = np.isfinite(out)
    plain[[i for i, _ in censored]] = False
    plain = np.unique(out[plain])
    gaps = np.diff(plain)
    gaps = gaps[gaps > 0]
    steps = {}
    for v in both:
        if gaps.size:
            step = float(gaps.min()) / 2
        else:
            text = format(v, "g")
            decimals = len(text.split(".")[1]) if "." in text else 0
            step = 0.5 * 10.0 ** -decimals
        if abs(v) > 0 and step < abs(v) / 2:
            steps[v] = step
    return steps


def _read_not_detected(out: np.ndarray, info: dict[str, Any],
                       limit: float | None, words=NOT_DETECTED_WORDS) -> None:
    """Read the cells saying a result was not detected (``words``) as the detection
    limit: ``limit``, or the column's most common lower limit ("<50"); they stay bad
    without one."""
    if limit is None:
        lower = [out[i] for i, c in info["censored"]
                 if c.lstrip()[:1] in "<≤⩽" and math.isfinite(out[i])]
        if lower:
            values, counts = np.unique(lower, return_counts=True)
            limit = float(values[np.argmax(counts)])  # ties: the smallest
    if limit is None or not math.isfinite(limit):
        return
    keep = []
    for i, c in info["bad"]:
        if norm_key(c) in words:
            out[i] = limit
            info["not_detected"].append((i, c))
        else:
            keep.append((i, c))
    info["bad"], info["detection_limit"] = keep, limit


def _limit_value(rest: str, unit: str | None,
                 convert: dict[str, tuple[float, float]] | None) -> float | None:
    """The number after a limit's comparator ("<5 ng/L") or an estimate's word ("est
    67"): a plain number, one with the column's unit or one converted from another
    unit; else ``None``."""
    v = float(rest) if _NUMBER.match(rest.strip()) else with_unit(rest, unit)
    if v is None and convert:
        v = _converted(rest, convert)
    return v if v is not None and math.isfinite(v) else None


def _converted(cell: str, convert: dict[str, tuple[float, float]],
               thousands_comma: bool = False) -> float | None:
    """The number of a cell written in one of the units of ``convert``, converted; else
    ``None``."""
    m = _NUMBER_THEN_TEXT.match(cell.strip())
    if m is None or (how := convert.get(unit_key(m.group(2)))) is None:
        return None
    v = _written_number(m.group(1), thousands_comma=thousands_comma) * how[0] + how[1]
    return v if math.isfinite(v) else None


#: A unit after a number, as :func:`writes_decimal_commas` and :func:`thousands_dot_column`
#: look for it (a short text starting with a letter, "%", "µ" or "°").
_TAIL = r"(?:\s*[%A-Za-z\u00b5\u03bc\u00b0][^,;]{0,24})?"
_COMMA_DECIMAL_CELL = re.compile(
    rf"\s*(?:[<>]=?\s*)?[+-]?(?:\d{{1,3}}(?:\.\d{{3}})+|\d+),\d+{_TAIL}\s*")
_DOT_DECIMAL_CELL = re.compile(
    rf"\s*(?:[<>]=?\s*)?[+-]?\d*\.\d+(?:[eE][+-]?\d+)?{_TAIL}\s*")
_DOT_THOUSANDS_CELL = re.compile(rf"\s*[+-]?[1-9]\d{{0,2}}(?:\.\d{{3}})+{_TAIL}\s*")
# a unit may follow: "7,673 copies/mL" beside "67,811" (walk-through 37's viral loads were
# read 1000 times too small)
_COMMA_THOUSANDS_CELL = re.compile(rf"\s*[+-]?[1-9]\d{{0,2}}(?:,\d{{3}})+(?:\.\d+)?{_TAIL}\s*")


def _distinct_text(values: pd.Series, marks: str):
    """The distinct cells of a text column holding one of the characters ``marks``, one
    at a time (the callers stop early); none for a numeric or boolean column (numbers not
    written as text have no decimal mark)."""
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return
    text = values if pd.api.types.is_string_dtype(values) and values.dtype != object \
        else cell_text(values)
    mask = np.zeros(len(text), bool)
    for mark in marks:
        mask |= text.str.contains(mark, regex=False, na=False).to_numpy(dtype=bool)
    seen: set[str] = set()
    for cell in text[mask]:
        if cell not in seen:
            seen.add(cell)
            yield cell


def decimal_marks(values: pd.Series) -> tuple[bool, bool]:
    """Whether a column writes numbers with a decimal comma, and with a decimal point.

    Parameters
    ----------
    values : pandas.Series
        The column's cells.

    Returns
    -------
    comma, point : bool
        A cell is a number with a decimal comma ("5,2", "1.234,5", "5,2 %", "<0,1"); a
        cell is a number with a decimal point ("2.5", "0.527", "<0.1", "2.5 mg") other than
        dots as thousands separators ("1.527", "12.345.678"). Both False for a column of
        numbers that are not text. The search stops at the first decimal point.
    """
    comma = False
    for cell in _distinct_text(values, ".,"):
        if "." in cell and _DOT_DECIMAL_CELL.fullmatch(cell) \
                and not _DOT_THOUSANDS_CELL.fullmatch(cell):
            return comma, True
        if not comma and "," in cell and _COMMA_DECIMAL_CELL.fullmatch(cell):
            comma = True
    return comma, False


def writes_decimal_commas(frame: pd.DataFrame, columns=None) -> bool:
    """Whether a table writes decimals with a comma: some column has numbers with a
    decimal comma and none a number with a decimal point (:func:`decimal_marks`).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    columns : list, optional
        The columns to look at (the numeric ones); all by default.

    Returns
    -------
    bool
        False as soon as a column writes a decimal point ("2.5"): then "1.527" may be
        a decimal, and is read as one.
    """
    comma = False
    for col in frame.columns if columns is None else columns:
        has_comma, has_point = decimal_marks(frame[col])
        if has_point:
            return False
        comma |= has_comma
    return comma


def thousands_dot_column(values: pd.Series) -> bool:
    """Whether a column's dotted numbers (its cells ``values``) are all written with dots
    as thousands separators: some cell is a number such as "1.527" or "12.345.678" (one
    to three digits, not a lone 0, then groups of exactly three; a unit may follow) and no
    cell a number with another decimal point ("2.5", "0.527", "1.52").

    Read so only in a table that writes decimals with a comma
    (:func:`writes_decimal_commas`): an export wrote NT-proBNP 1527 as "1.527", read 1000
    times too small. The search stops at the first other decimal point (a column of
    decimals costs little).
    """
    return _grouped_only(values, ".", _DOT_THOUSANDS_CELL, _DOT_DECIMAL_CELL)


def thousands_comma_column(values: pd.Series) -> bool:
    """Whether a column's numbers with a comma are all written with commas as thousands
    separators: some cell is a number such as "362,656" or "1,234.5" (one to three
    digits, not a lone 0, then groups of exactly three) and no cell another number with a
    comma ("5,2", "0,527", "12,34").

    Read so only in a table that does not write decimals with a comma (the Encoder
    checks the other numeric columns): a US export's platelets "362,656" were read as
    362.656, 1000 times too small, beside decimals written "98.1".
    """
    return _grouped_only(values, ",", _COMMA_THOUSANDS_CELL, _COMMA_DECIMAL_CELL)


def _grouped_only(values: pd.Series, mark: str, grouped: re.Pattern, other: re.Pattern
                  ) -> bool:
    """Whether some distinct cell with ``mark`` is a ``grouped`` number (thousands
    separators) and none an ``other`` number with that mark (a decimal); stops at the
    first other."""
    found = False
    for cell in _distinct_text(values, mark):
        if grouped.fullmatch(cell):
            found = True
        elif other.fullmatch(cell):
            return False
    return found


def numeric_share(values: pd.Series, missing_tokens=DEFAULT_MISSING_TOKENS,
                  unit: str | None = None, cells: tuple | None = None) -> float:
    """Share of a column's non-missing cells that are numbers.

    Parameters
    ----------
    values : pandas.Series
        The column's cells.
    missing_tokens : set of str
        Normalised missing tokens; cells holding one are left out of the share.
    unit : str, optional
        The column's unit: cells written with it ("1420 g") count as numbers.
    cells : tuple, optional
        ``ColumnUnits.cells`` of :func:`column_units` on the same column and tokens: its
        distinct cells, not read again.

    Returns
    -------
    float
        Between 0 and 1: the non-empty, non-token cells written as a number in any form
        :func:`parse_numeric` accepts (decimal comma, thousands separators, ``<0.1``,
        ``inf``), over all non-empty, non-token cells. 1 for a numeric dtype, 0 for a
        boolean dtype, a column without such cells, or one whose only numbers are
        limits (size bands "<=20mm", ">50mm" are answers).
    """
    if pd.api.types.is_bool_dtype(values):
        return 0.0
    if pd.api.types.is_numeric_dtype(values):
        return 1.0
    if cells is None:
        cells = _unique_cells(values, missing_tokens)
        if cells is None:
            return 0.0
    _, uniques, counts, token, number = cells
    number = number.copy()  # changed below
    if unit:
        other = np.flatnonzero(~number & ~token)
        number[other] = [with_unit(uniques.iat[i], unit) is not None for i in other]
    # a column whose only numbers are limits ("<=20mm", ">50mm"; "<=2cm", ">2cm") holds
    # bands, answers: read as limits they fell to one or two values (rott2, nki70)
    limit = np.array([bool(_CENSORED.match(c) or _LIMIT_THEN.fullmatch(c)) for c in uniques],
                     dtype=bool)
    if not (number & ~limit).any():
        return 0.0
    n_all = int(counts[~token].sum())
    return float(counts[number & ~token].sum() / n_all) if n_all else 0.0


def _unique_cells(values: pd.Series, missing_tokens):
    """The distinct non-empty cells of a text column, once each: ``(rows_of, uniques,
    counts, token, number)``, or ``None`` without such cells.

    ``rows_of(indices)`` gives the rows (0-based, in order) holding those of ``uniques``;
    ``token`` marks the
    missing tokens, ``number`` the cells written as a number in any form
    :func:`parse_numeric` accepts without a unit."""
    text = cell_text(values)
    filled = (text != "").to_numpy()
    codes, uniques = pd.factorize(text[filled])
    if len(uniques) == 0:
        return None
    positions = np.flatnonzero(filled)

    def rows_of(indices) -> np.ndarray:
        return positions[np.isin(codes, indices)]

    counts = np.bincount(codes, minlength=len(uniques))
    uniques = pd.Series(uniques, dtype=object)
    number = pd.to_numeric(uniques, errors="coerce").notna().to_numpy().copy()
    other = np.flatnonzero(~number)
    token = np.zeros(len(uniques), bool)
    gcs_column = _GCS_NAME.search(str(values.name)[:80]) is not None
    token[other] = [norm_key(uniques.iat[i]) in missing_tokens
                    or _gcs_gap(uniques.iat[i], gcs_column) for i in other]
    number[other] = [_reads_as_number(uniques.iat[i]) for i in other]
    # a sample that gives no value ("7.0 haemolysed"), with its number, or bare in a
    # column of numbers ("clotted" is an answer of a filter's status, not a gap there)
    mostly_numbers = counts[number].sum() >= 0.5 * counts.sum()
    if mostly_numbers:
        # a narrow range among numbers ("2-6" among alcohol units a week, walk-through
        # 64) is read as its middle, so it counts; a column mostly of bands ("40-49")
        # does not get here and stays answers
        maybe = np.flatnonzero(~number & ~token)
        number[maybe] = [range_middle(str(uniques.iat[i])) is not None for i in maybe]
    token[other] |= np.array([invalid_sample(u := uniques.iat[i])
                              and (mostly_numbers or any(ch.isdigit() for ch in str(u)))
                              for i in other], dtype=bool)
    # "nil", "none", "off" where the column writes 0 read as 0 (parse_numeric): numbers
    # (walk-through 58's vasopressin, 0 and "nil" and "no" beside its doses, was coded as
    # answers)
    if bool(np.any(pd.to_numeric(uniques[number], errors="coerce") == 0)):
        number[other] |= np.array([norm_key(uniques.iat[i]) in NONE_WORDS for i in other],
                                  dtype=bool)
    named = named_total(values.name)
    if named is not None:  # "CAT 26" in a column named "CAT score"
        number[other] |= np.array([bool(named.fullmatch(uniques.iat[i])) for i in other],
                                  dtype=bool)
    # a number after the column's own name: "PASI 12.8" in "Baseline PASI" (walk-through
    # 93's 116 such cells, read by parse_numeric, left the column out as text answers)
    # (an acronym in capitals, not a class's: "NYHA 3" and "Decile 6" stay answers)
    if values.name is not None:
        for i in other:
            cell = str(uniques.iat[i])
            head = re.match(r"\s*([A-Za-z]+)", cell)
            if number[i] or head is None or sum(ch.isupper() for ch in head.group(1)) < 2 \
                    or head.group(1).upper() in CLASS_INITIALS:
                continue
            if (inner := _after_own_name(cell, values.name)) is not None:
                number[i] = bool(_NUMBER.match(inner)) or range_middle(inner) is not None
    level = scale_level(values.name)
    if level is not None:  # "moderately frail" in a Clinical Frailty Scale
        number[other] |= np.array([level(str(uniques.iat[i])) is not None for i in other],
                                  dtype=bool)
    if (aged := age_reader(values.name)) is not None:  # "10m", "16/12" in an Age
        number[other] |= np.array([aged(str(uniques.iat[i])) is not None for i in other],
                                  dtype=bool)
    if (plus := added_point_reader(values.name)) is not None:  # "20+1" in a MoCA
        number[other] |= np.array([plus(str(uniques.iat[i])) is not None for i in other],
                                  dtype=bool)
    if (rate := rate_reader(values.name)) is not None:  # "39/min" in a rate's column
        # ("90 bpm" is a unit's cell: the column's unit is learned from it)
        number[other] |= np.array([rate(str(uniques.iat[i])) is not None
                                   and not _BPM_AFTER.fullmatch(str(uniques.iat[i]))
                                   for i in other], dtype=bool)
    if (composite := composite_reader(values.name)) is not None:  # "wt 64kg ht 1.57m"
        number[other] |= np.array([composite(str(uniques.iat[i])) is not None
                                   for i in other], dtype=bool)
    if (cycle := cycle_reader(values.name)) is not None:  # "C3D8" in a column of cycles
        number[other] |= np.array([cycle(str(uniques.iat[i])) is not None for i in other],
                                  dtype=bool)
    if direction := performance_direction(values.name):  # "unable" in a timed up-and-go
        number[other] |= np.array([is_unable(uniques.iat[i]) or (
            direction < 0 and is_unlimited(uniques.iat[i])) for i in other], dtype=bool)
    # "TND" beside "<50" reads as the detection limit (:func:`parse_numeric`)
    nd = [i for i in other if norm_key(uniques.iat[i]) in NOT_DETECTED_WORDS]
    if nd and any(number[i] and uniques.iat[i].lstrip()[:1] in "<≤⩽" for i in other):
        number[nd] = True
    # "14/27" when (nearly) every fraction is out of 27: each cell counted, not each answer
    fractions = [i for i in other if _FRACTION.fullmatch(uniques.iat[i])]
    out_of = score_maximum([uniques.iat[i] for i in fractions for _ in range(counts[i])])
    if out_of is not None:
        number[fractions] |= [int(_FRACTION.fullmatch(uniques.iat[i]).group(2)) == out_of
                              for i in fractions]
    number &= ~token
    return rows_of, uniques, counts, token, number


#: A result marked as from a sample that cannot give the patient's value: haemolysed (a
#: potassium raised by the burst cells), clotted, too little to test (walk-through 56's
#: "7.0 haemolysed", "6.1 (haemolysed - repeat)" were read as potassiums, the column
#: named "Potassium (haemolysed)").
_INVALID_SAMPLE = re.compile(r"ha?emoly[sz]ed|\bclotted\b|insufficient\s(?:sample|volume)|"
                             r"\bQNS\b|sample\s(?:leaked|error)|wrong\s(?:tube|sample)",
                             re.IGNORECASE)


def invalid_sample(cell: object) -> bool:
    """Whether a cell marks its result as from a sample that cannot give the patient's
    value ("7.0 haemolysed", "clotted", "QNS"): a gap, whatever number it holds."""
    text = str(cell)
    return len(text) <= 80 and _INVALID_SAMPLE.search(text) is not None


def written_unit(cell: str) -> str | None:
    """The unit a number (or a limit) is written with, as written ("45776 IU/mL":
    "IU/mL"; "<40 IU/mL": "IU/mL"), or ``None``."""
    text = str(cell).strip()
    m = _NUMBER_THEN_TEXT.match(_without_limit(text)) if len(text) <= 48 else None
    # a unit, not the rest of a date: "19/11/1985" is no 19 in "/11/1985" (walk-through 43)
    return m.group(2).strip() if m and _UNIT_LIKE.match(unit_key(m.group(2))) else None


def _without_limit(cell: str) -> str:
    """A cell without a limit's comparator or an estimate's word before its number
    ("<5 ng/L" -> "5 ng/L", "est 67 kg" -> "67 kg"); other cells as they are."""
    m = _LIMIT_THEN.fullmatch(cell) or _ESTIMATED.fullmatch(cell)
    return m.group(m.lastindex).strip() if m else cell


def _reads_as_number(cell: str) -> bool:
    """Whether :func:`parse_numeric` reads a cell as a number without knowing the
    column's unit: the plain forms of :data:`_NUMERIC_LIKE`, a saturation with how it was
    taken ("96% RA"), a limit or an estimate written with a unit ("<5 ng/L", "est 67
    kg"). A 15-row export's SpO2 and troponin became categories without these."""
    if _NUMERIC_LIKE.fullmatch(cell) or _SATURATION.fullmatch(cell) or \
            plain_number(cell) is not None:
        return True
    rest = _without_limit(cell)
    return rest != cell and bool(_NUMBER.match(rest) or _NUMBER_THEN_TEXT.fullmatch(rest))


def min_category_count(n_rows: int) -> int:
    """Fewest cells a missing-token word needs to be a category.

    Parameters
    ----------
    n_rows : int
        Number of cells of the column.

    Returns
    -------
    int
        :data:`CATEGORY_MIN_SHARE` of the cells, rounded up, and at least 2.
    """
    return max(2, math.ceil(CATEGORY_MIN_SHARE * n_rows))
