"""One unit per column: converting the cells a column writes in another, well-known unit.

A clinic export often writes one laboratory value in two units: creatinine in µmol/L and
in mg/dL, HbA1c in % and in mmol/mol. Numbers in different units cannot be compared, so
such a column used to be left out, or its cells in the second unit set to missing
(walk-throughs 18 and 22: the kidney clinic's creatinine, its key biomarker, was lost).

A conversion is used only when it is exact and does not depend on a guess:

* the same quantity with another prefix or an imperial unit, whatever the analyte:
  g/dL and g/L, mmol/L and µmol/L, ng/mL and µg/L, lb and kg, inches and cm, °F and °C,
  kPa and mmHg;
* a mass and an amount concentration (mg/dL and mmol/L) for an analyte named by the
  column, from its molar mass: creatinine, glucose, cholesterol (total, LDL, HDL),
  triglycerides, bilirubin, uric acid, urea and blood urea nitrogen, calcium, magnesium,
  phosphate, iron, lactate, albumin;
* HbA1c between % (NGSP/DCCT) and mmol/mol (IFCC): % = 0.09148 × mmol/mol + 2.152.

:func:`plan_units` then checks that the converted cells lie where the column's other
cells do (their medians within a factor of 3), which catches a unit written by mistake,
and decides in which unit the plain numbers of the column are written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sparge.data.number_format import format_number
from sparge.data.parsing import (
    ColumnUnits,
    parse_numeric,
    thousands_comma_column,
    unit_key,
)

#: Converted cells must have a median within this factor of the column's own cells.
AGREEMENT = 3.0

_MASS = {"g": 1.0, "mg": 1e-3, "ug": 1e-6, "mcg": 1e-6, "ng": 1e-9, "pg": 1e-12}
_AMOUNT = {"mol": 1.0, "mmol": 1e-3, "umol": 1e-6, "nmol": 1e-9, "pmol": 1e-12}
_VOLUME = {"l": 1.0, "dl": 0.1, "ml": 1e-3}
#: Units of one dimension, by their size in its base unit.
_SIMPLE = {
    "weight": {"kg": 1.0, "g": 1e-3, "lb": 0.45359237, "lbs": 0.45359237,
               "oz": 0.028349523125},
    # walk-through 77's retinal thicknesses: "0.28" (mm) among µm
    "length": {"m": 1.0, "cm": 0.01, "mm": 1e-3, "um": 1e-6, "in": 0.0254, "inch": 0.0254,
               "inches": 0.0254, "ft": 0.3048,
               # walk-through 94's claudication distances: "150 yards", "100 metres"
               "metre": 1.0, "metres": 1.0, "meter": 1.0, "meters": 1.0, "yd": 0.9144,
               "yds": 0.9144, "yard": 0.9144, "yards": 0.9144, "km": 1000.0,
               "mile": 1609.344, "miles": 1609.344,
               # walk-through 104's "306 microns" beside "306um" and "306 µm"
               "micron": 1e-6, "microns": 1e-6, "micrometre": 1e-6, "micrometres": 1e-6,
               "micrometer": 1e-6, "micrometers": 1e-6},
    "pressure": {"mmhg": 1.0, "kpa": 7.500617},
    # walk-through 43's blood losses: "2.02 L" in a column of mL (the largest bleeds)
    "volume": {"l": 1.0, "dl": 0.1, "ml": 1e-3, "litre": 1.0, "litres": 1.0,
               "liter": 1.0, "liters": 1.0, "cc": 1e-3},
    # walk-through 33's times to the doctor: "80 min", "1.5 h" (never "m": metres)
    "time": {"min": 1.0, "mins": 1.0, "minute": 1.0, "minutes": 1.0, "h": 60.0,
             "hr": 60.0, "hrs": 60.0, "hour": 60.0, "hours": 60.0, "s": 1 / 60,
             "ms": 1 / 60_000, "msec": 1 / 60_000,
             "sec": 1 / 60, "secs": 1 / 60, "seconds": 1 / 60, "d": 1440.0,
             "day": 1440.0, "days": 1440.0, "weeks": 10080.0},
    # walk-through 37's "91 months" in a column of years on treatment; a month is a
    # twelfth of a year by definition. Weeks and days in a column of months or years
    # (walk-through 41's breastfeeding "6 weeks") by the mean year of 365.25 days: said
    # in the conversion's note (:data:`_MEAN_YEAR`)
    "years": {"years": 12.0, "months": 1.0, "weeks": 12 * 7 / 365.25,
              "days": 12 / 365.25},
    # walk-through 45's FEV1/FVC: 0.62 and 62 % in one column; a haematocrit in L/L
    "share": {"%": 0.01, "fraction": 1.0, "l/l": 1.0},
    # walk-through 47's gait speeds in cm/s among m/s
    "speed": {"m/s": 1.0, "cm/s": 0.01, "km/h": 1 / 3.6},
}
def size_in_base(key: str, dimension: str) -> float | None:
    """One ``key`` unit's size in its :data:`_SIMPLE` ``dimension``'s base unit ("lb" in
    "weight": 0.454 kg; "cm" in "length": 0.01 m), or ``None`` for another unit."""
    return _SIMPLE[dimension].get(key)


#: Pairs of units whose conversion takes a year as 365.25 days (not exact for a given
#: month or year): their conversion says so.
_MEAN_YEAR = frozenset({"weeks", "days"}), frozenset({"months", "years"})
#: Units of a duration: a value written with one of them is converted into another
#: whatever the column's other values, since a duration's unit follows its size (a short
#: breastfeeding in weeks, a long one in months: walk-through 41's medians lay a factor 4
#: apart, and the weeks were set to missing).
_DURATIONS = frozenset(_SIMPLE["time"]) | frozenset(_SIMPLE["years"])


def _exact_dimension(a: str, b: str) -> bool:
    """Whether unit keys ``a`` and ``b`` are of one :data:`_SIMPLE` dimension (or both
    durations): a value written with its unit then converts exactly, whatever the
    column's other values. Its unit also follows its size: walk-through 43's blood losses
    in 'L' were the largest bleeds, a factor 4 above the column's mL, and were set to
    missing. (A concentration's conversion depends on the analyte, and stays checked.)"""
    if {a, b} <= _DURATIONS or any(a in u and b in u for u in _SIMPLE.values()):
        return True
    # two mass (or two amount) concentrations: "1.6 mg/dL" in a CRP column of mg/L is 16
    # whatever the analyte (walk-through 66's 13 were set to missing)
    ca, cb = _concentration(a), _concentration(b)
    return ca is not None and cb is not None and ca[0] == cb[0]
#: An eGFR is given per 1.73 m² of body surface: "mL/min" is its short form (walk-through
#: 37 set 86 eGFRs in "mL/min/1.73m2" to missing beside plain ones read in "mL/min").
#: Not a creatinine clearance, which is not normalised.
_EGFR = re.compile(r"\be?gfr\b|glomerular filtration", re.IGNORECASE)
_EGFR_UNITS = {"ml/min", "ml/min/1.73m2"}
#: Cell counts: the volume a count is given per, in litres ...
_COUNT_VOLUME = {"l": 1.0, "dl": 0.1, "ml": 1e-3, "ul": 1e-6, "mm3": 1e-6, "nl": 1e-9}
#: ... and the multiplier written before it: "x10^9/L", "10^3/µL", "K/µL", "/µL".
_COUNT = re.compile(
    r"[x×*]?(?:10(?:\^|\*\*?|e)?(\d{1,2})|10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)|(k))?(?:cells)?"
    r"(?:/(l|dl|ml|ul|mm3|nl))?")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _count_per_litre(key: str) -> float | None:
    """Cells per litre of one unit of a cell count ("x10^9/l": 1e9, "/ul": 1e6,
    "k/ul": 1e9); ``None`` for another unit ("g/l" is grams: no "G/L" for giga)."""
    m = _COUNT.fullmatch(key)
    if m is None:
        return None
    power, sup, kilo, volume = m.groups()
    if volume is None:
        # a power of ten alone is per litre where counts are written so: walk-through
        # 68's platelets "284x10*9" (x10^9/L), and x10^12 of red cells; not x10^3
        if power not in ("9", "12") or not key.startswith(("x", "×", "*")):
            return None
        volume = "l"
    if power is None and sup is None and kilo is None and not key.startswith("/") \
            and "cells" not in key:
        return None
    mult = (10.0 ** int(power) if power is not None else
            10.0 ** int(sup.translate(_SUPERSCRIPTS)) if sup is not None else
            1e3 if kilo else 1.0)
    return mult / _COUNT_VOLUME[volume]
#: Molar masses (g/mol) of analytes reported in mass and in amount concentrations, with
#: the words that name them in a column (a whole word, or the start of one).
_ANALYTES = (
    ("creatinine", 113.12, r"creatinin|\bs?creat\b|\bs?cr\b"),
    ("glucose", 180.16, r"glucose|glyc(?:a)?emia|\bglu\b|\bfpg\b|\bfbg\b|blood sugar"),
    ("cholesterol", 386.65, r"cholesterol|\bchol\b|\bldl|\bhdl|\btc\b"),
    ("triglycerides", 885.7, r"triglycerid|\btg\b|\btgs\b|\btrig\b"),
    ("bilirubin", 584.66, r"bilirubin|\bbili\b|\bt\.?bil\b"),
    ("uric acid", 168.11, r"uric acid|\burate\b"),
    ("blood urea nitrogen", 28.014, r"\bbun\b|urea nitrogen"),
    ("urea", 60.06, r"\burea\b"),
    ("calcium", 40.078, r"calcium|\bca\b"),
    ("magnesium", 24.305, r"magnesium|\bmg\b"),
    ("phosphate", 30.974, r"phosph|\bpo4\b|\bphos\b"),
    ("iron", 55.845, r"\biron\b|\bfe\b"),
    ("lactate", 90.08, r"lactate|lactic"),
    # human serum albumin, 66.4 kDa: 1 g/dL = 150.5 µmol/L (walk-through 24)
    ("albumin", 66438.0, r"albumin|\balb\b"),
    # intact parathyroid hormone (PTH 1-84), 9,425 Da: 1 pmol/L = 9.43 pg/mL (walk-through
    # 56's dialysis unit wrote pg/mL and pmol/L in one column)
    ("parathyroid hormone", 9425.0, r"\bi?pth\b|parathyroid hormone|parathormone"),
    # vitamin B12 (cyanocobalamin, 1,355.4 g/mol): 1 pmol/L = 1.355 ng/L (walk-through 62's
    # memory clinic wrote pmol/L among ng/L)
    ("vitamin B12", 1355.37, r"\bb12\b|\bb-12\b|cobalamin|vitamin b12"),
    # folate (folic acid, 441.4 g/mol): 1 nmol/L = 0.441 µg/L
    ("folate", 441.4, r"folate|folic acid|\bfol\b"),
    # NT-proBNP (76 amino acids, 8,457 Da): 1 pmol/L = 8.457 pg/mL (walk-through 71's
    # heart-failure clinic wrote "189 pmol/L" among ng/L); BNP (32 amino acids, 3,464 Da)
    ("NT-proBNP", 8457.0, r"nt[\s-]?pro[\s-]?bnp|n[\s-]?terminal pro"),
    ("BNP", 3464.0, r"(?<![a-z-])bnp\b|b-type natriuretic|brain natriuretic"),
    # 25-hydroxyvitamin D3 (calcidiol, 400.64 g/mol): 1 ng/mL = 2.496 nmol/L (walk-through
    # 72's hip-fracture unit wrote ng/mL among nmol/L)
    ("vitamin D", 400.64, r"vitamin d\b|\bvit\.? ?d\b|\bvitd\b|25[\s-]?oh|"
                          r"25[\s-]?hydroxy|calcidiol"),
    # anti-Müllerian hormone (a dimer of 140 kDa): 1 ng/mL = 7.14 pmol/L, the factor the
    # assays give (walk-through 81's fertility clinic wrote ng/mL among pmol/L); and the
    # steroid hormones such a clinic measures in mass and in amount units
    ("AMH", 140000.0, r"\bamh\b|anti[\s-]?m[uü]ll?erian|m[uü]ll?erian[\s-]inhibiting"),
    ("oestradiol", 272.38, r"o?estradiol"),  # not "E2": a GCS "E2V3M5" too
    ("progesterone", 314.46, r"progesterone"),
    ("testosterone", 288.42, r"testosterone"),
    # immunosuppressant drug levels (walk-through 84's transplant clinic wrote tacrolimus
    # troughs in nmol/L among µg/L): tacrolimus 804.0 g/mol, ciclosporin 1,202.6,
    # sirolimus 914.2, everolimus 958.2
    ("tacrolimus", 804.02, r"tacrolimus|\btac\b|\btacro\b|\bfk ?506\b|prograf|advagraf"),
    ("ciclosporin", 1202.61, r"c[iy]closporin|\bcsa\b|\bneoral\b"),
    ("sirolimus", 914.17, r"sirolimus|rapamycin|\brapamune\b"),
    ("everolimus", 958.22, r"everolimus|certican"),
    # anti-seizure drug levels (walk-through 86's epilepsy clinic wrote lamotrigine in
    # µmol/L among mg/L): lamotrigine 256.09 g/mol, carbamazepine 236.27, phenytoin 252.27,
    # valproate (valproic acid) 144.21, levetiracetam 170.21, phenobarbital 232.24,
    # lacosamide 250.29, topiramate 339.36, zonisamide 212.23
    ("lamotrigine", 256.09, r"lamotrigine|\bltg\b|lamictal"),
    ("carbamazepine", 236.27, r"carbamazepine|\bcbz\b|tegretol"),
    ("phenytoin", 252.27, r"phenytoin|\bpht\b|epanutin|dilantin"),
    ("valproate", 144.21, r"valpro|\bvpa\b|epilim|depakote"),
    ("levetiracetam", 170.21, r"levetiracetam|\blev\b|keppra"),
    ("phenobarbital", 232.24, r"phenobarb"),
    ("lacosamide", 250.29, r"lacosamide|\blcm\b|vimpat"),
    ("topiramate", 339.36, r"topiramate|\btpm\b|topamax"),
    ("zonisamide", 212.23, r"zonisamide|\bzns\b|zonegran"),
    # thyroid hormones (walk-through 89's thyroid clinic wrote free T4 in ng/dL among
    # pmol/L, read as numbers 13 times too small): thyroxine 776.87 g/mol (1 ng/dL = 12.87
    # pmol/L), triiodothyronine 650.97 g/mol (1 pg/mL = 1.536 pmol/L)
    ("thyroxine", 776.87, r"\bf?t4\b|thyroxine"),
    ("triiodothyronine", 650.97, r"\bf?t3\b|triiodothyronine"),
)
_HBA1C = re.compile(r"hba1c|\ba1c\b|glyc(?:at|osyl)ated", re.IGNORECASE)


@dataclass(frozen=True)
class Conversion:
    """``value in the target unit = factor × value + offset``, and why."""

    factor: float
    offset: float = 0.0
    why: str = ""

    def __call__(self, x):
        return np.asarray(x, dtype=float) * self.factor + self.offset


def _concentration(key: str) -> tuple[str, float] | None:
    """("mass", g/L) or ("amount", mol/L) of one unit of a concentration key."""
    m = re.fullmatch(r"([a-z]+)/([a-z]+)", key)
    if m is None or m.group(2) not in _VOLUME:
        return None
    top, per = m.group(1), _VOLUME[m.group(2)]
    if top in _MASS:
        return "mass", _MASS[top] / per
    if top in _AMOUNT:
        return "amount", _AMOUNT[top] / per
    return None


#: Units known by name beyond those converted by dimension: enzyme and hormone
#: activities, HbA1c's IFCC unit, temperatures, a heart rate.
_OTHER_UNITS = frozenset({"iu/l", "u/l", "miu/l", "mu/l", "ku/l", "iu/ml", "miu/ml", "u/ml",
                          "kiu/l", "mmol/mol", "°c", "°f", "degc", "degf", "bpm",
                          "ml/min", "ml/min/1.73m2", "mm/hr", "meq/l"})


def known_unit(key: str) -> bool:
    """Whether a unit key (:func:`~sparge.data.parsing.unit_key`) is a unit this module
    knows: a concentration, a cell count, a unit of a :data:`_SIMPLE` dimension or one of
    :data:`_OTHER_UNITS`.

    Examples
    --------
    >>> known_unit("pmol/l"), known_unit("ng/dl"), known_unit("lb"), known_unit("mild")
    (True, True, True, False)
    """
    return (key in _OTHER_UNITS or _concentration(key) is not None
            or any(key in d for d in _SIMPLE.values()) or _count_per_litre(key) is not None)


def analyte(column: str) -> tuple[str, float] | None:
    """The analyte a column's name names, with its molar mass (g/mol), or ``None``.

    Examples
    --------
    >>> analyte("Serum creatinine")
    ('creatinine', 113.12)
    >>> analyte("LDL-C (mmol/L)")[0], analyte("Age")
    ('cholesterol', None)
    """
    name = str(column).lower()
    if _HBA1C.search(name):
        return None
    for label, mass, words in _ANALYTES:
        if re.search(words, name):
            return label, mass
    return None


#: A column of a daily dose, by its name ("LEDD", "Total daily dose", "Dose (mg/day)"):
#: its "mg" and "mg/day" are one unit.
_DAILY_NAME = re.compile(r"\bdaily\b|per\s*day|/\s*day\b|\bledd\b|\btdd\b|"
                         r"levodopa\s+equivalent", re.IGNORECASE)
_PER_DAY = re.compile(r"\s*(?:/\s*(?:day|d|24\s*h(?:rs?|ours?)?)|per\s*day|daily|a\s*day)$")


def _per_day(key: str) -> str:
    """A unit's key without "/day" after it ("mg/day": "mg")."""
    return _PER_DAY.sub("", key)


def conversion(column: str, source: str, target: str) -> Conversion | None:
    """How to convert a number written in ``source`` into ``target`` in ``column``.

    Parameters
    ----------
    column : str
        The column's name (it names the analyte, for a mass ↔ amount concentration).
    source, target : str
        Units, as written or as keys ("mg/dL", "umol/l").

    Returns
    -------
    Conversion or None
        ``None`` when no exact conversion is known (another analyte, another quantity).
    """
    a, b = unit_key(source), unit_key(target)
    if a == b:
        return Conversion(1.0, 0.0, "the same unit")
    if _DAILY_NAME.search(str(column)[:120]) and _per_day(a) == _per_day(b):
        # walk-through 97's LEDD: "870mg/day" beside "700 mg" (64 cells set to missing)
        return Conversion(1.0, 0.0, f"a daily dose: {source} is {target} a day")
    if _HBA1C.search(str(column)) and {a, b} == {"%", "mmol/mol"}:
        if a == "mmol/mol":
            return Conversion(0.09148, 2.152, "HbA1c: % = 0.09148 × mmol/mol + 2.152, IFCC to "
                                              "NGSP")
        return Conversion(1 / 0.09148, -2.152 / 0.09148,
                          "HbA1c: mmol/mol = 10.93 × (% − 2.152), NGSP to IFCC")
    if {a, b} == _EGFR_UNITS and _EGFR.search(str(column)):
        return Conversion(1.0, 0.0, "an eGFR in 'mL/min' is per 1.73 m²")
    temp = {"°c", "°f"}
    if {a, b} == temp:
        if a == "°f":
            return Conversion(5 / 9, -160 / 9, "°C = (°F − 32) × 5/9")
        return Conversion(9 / 5, 32.0, "°F = °C × 9/5 + 32")
    for units in _SIMPLE.values():
        if a in units and b in units:
            f = units[a] / units[b]
            mean = ({a, b} & _MEAN_YEAR[0]) and ({a, b} & _MEAN_YEAR[1])
            return Conversion(f, 0.0, f"1 {source} = {format_number(f)} {target}"
                              + (", a year taken as 365.25 days" if mean else ""))
    na, nb = _count_per_litre(a), _count_per_litre(b)
    if na is not None and nb is not None:  # platelets per µL and ×10^9/L
        f = na / nb
        return Conversion(f, 0.0, f"1 {source} = {format_number(f)} {target}")
    ca, cb = _concentration(a), _concentration(b)
    if ca is None or cb is None:
        return None
    f = ca[1] / cb[1]
    if ca[0] == cb[0]:
        return Conversion(f, 0.0, f"1 {source} = {format_number(f)} {target}")
    named = analyte(column)
    if named is None or no_fixed_factor(column):
        return None
    label, mass = named
    f = f * mass if ca[0] == "amount" else f / mass
    return Conversion(f, 0.0, f"{label}: 1 {source} = {format_number(f)} {target}")


#: Units a value may have been given in by mistake, tried in this order by
#: :func:`unit_guess` (those :func:`conversion` links to the column's unit): the pairs
#: clinical laboratories and charts actually mix. Not µg/L or ng/mL: a creatinine typed
#: ×100 would read as µg/L.
COMMON_UNITS = ("mg/dL", "µmol/L", "mmol/L", "mg/L", "g/dL", "g/L", "mmol/mol", "%", "lb",
                "kg", "g", "°F", "°C", "kPa", "mmHg", "cm", "in", "m", "/µL", "x10^9/L")
#: The units an analyte outside :data:`COMMON_UNITS` is reported in, by its
#: :func:`analyte` label: a column's plain numbers may be in one that no cell names
#: (walk-through 89's plain free T4s in pmol/L beside cells written "2.56 ng/dL").
ANALYTE_UNITS = {"thyroxine": ("pmol/L", "ng/dL"), "triiodothyronine": ("pmol/L", "pg/mL")}
#: Units a column's plain numbers may be written in that no cell names, beside the
#: :data:`COMMON_UNITS`: a blood loss's plain "450" beside "1.2L" cells is in mL
#: (walk-through 99 read the litres as 1.2 mL, and its outcome's "PPH >=1000mL" could
#: not find the column that defines it). Not among the guesses of :func:`unit_guess`.
PLAIN_ONLY_UNITS = ("mL",)


def unit_guess(column: str, unit: str | None, value: float, low: float, high: float
               ) -> tuple[str, float] | None:
    """The unit a value far outside its column's range was probably given in: of
    :data:`COMMON_UNITS`, the one from which it converts exactly into ``[low, high]``
    nearest the range's middle (a creatinine of 1.6 in a µmol/L column: "mg/dL", 141; a
    height of 1.65 in a cm column: "m", 165), or ``None``."""
    found = column_unit_guess(column, unit, np.array([value]), low, high)
    return None if found is None else (found[0], found[1][0])


def column_unit_guess(column: str, unit: str | None, values, low: float, high: float
                      ) -> tuple[str, list[float]] | None:
    """The one unit of :data:`COMMON_UNITS` from which every value of ``values``
    converts exactly into ``[low, high]``, with the values converted; of several such
    units, the one that brings them nearest the middle of the range on the log scale
    (walk-through 25's haemoglobins of 147 in a g/dL column: "g/L", 14.7, not a unit
    that merely lands inside a wide range). ``None`` when none does."""
    v = np.asarray(values, dtype=float)
    if not unit or not len(v) or not np.all(np.isfinite(v)):
        return None
    middle = math.sqrt(low * high) if low > 0 and high > 0 else (low + high) / 2
    best, best_gap = None, math.inf
    for source in COMMON_UNITS:
        if unit_key(source) == unit_key(unit):
            continue
        conv = conversion(column, source, unit)
        if conv is None:
            continue
        out = conv(v)
        if not np.all((out >= low) & (out <= high)):
            continue
        gap = (float(np.mean(np.abs(np.log(out / middle)))) if middle > 0 and np.all(out > 0)
               else float(np.mean(np.abs(out - middle))))
        if gap < best_gap:
            best, best_gap = (source, [float(x) for x in out]), gap
    return best


class KnownConversions(dict):
    """``{unit key: (factor, offset)}`` into a column's unit that also knows every exact
    conversion (:func:`conversion`): what :func:`~sparge.data.parsing.parse_numeric`
    takes for a new patient's table, whose values may come from another laboratory
    ("141 µmol/L" for a model read in mg/dL that never saw µmol/L).

    Parameters
    ----------
    column : str
    unit : str
        The column's unit.
    learned : dict, optional
        The conversions found at fit (:class:`UnitPlan`), used first.
    """

    def __init__(self, column: str, unit: str, learned: dict | None = None) -> None:
        super().__init__(learned or {})
        self.column, self.unit = column, unit

    def get(self, key, default=None):  # noqa: D102 (dict.get)
        if key not in self:  # looked up once per unit, not once per cell
            conv = conversion(self.column, key, self.unit)
            self[key] = None if conv is None else (conv.factor, conv.offset)
        found = self[key]
        return default if found is None else found

    def __bool__(self) -> bool:
        return True


@dataclass
class UnitPlan:
    """How a column written in several units is read in one (:func:`plan_units`).

    Attributes
    ----------
    target : str
        The unit the column is read in, as written; its plain numbers are read in it too.
    converted : dict
        ``{unit key: (factor, offset)}`` of the cells' other units, converted to ``target``.
    notes : list of str
        One sentence per converted unit, for the report.
    left : list of str
        The other units that cannot be converted (their cells stay missing).
    plain_as : str or None
        The unit the plain numbers were found to be in (``None`` when the column's name
        gives it, or there are none).
    by_majority : bool
        The column has no plain numbers and no unit in its name: ``target`` is the unit
        of at least :data:`MAJORITY` times as many cells as the units left.
    """

    target: str
    converted: dict[str, tuple[float, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    plain_as: str | None = None
    by_majority: bool = False
    plain_split: PlainSplit | None = None


@dataclass(frozen=True)
class PlainSplit:
    """Plain numbers of a column that are written in another of its units, told by their
    size (:func:`plain_split`): those in ``[low, high]`` are read in ``unit`` and
    converted by ``factor`` (walk-through 94's aneurysm diameters: plain "6.3" beside
    "58mm" and "5.4cm" is 6.3 cm, not 6.3 mm).

    Attributes
    ----------
    unit : str
        The other unit, as written.
    low, high : float
        The plain numbers read in it.
    factor : float
        Target units per ``unit``.
    """

    unit: str
    low: float
    high: float
    factor: float

    def as_list(self) -> list:
        """The split as saved with a model."""
        return [self.unit, self.low, self.high, self.factor]


def _median_log(x: np.ndarray) -> float | None:
    x = x[np.isfinite(x) & (x > 0)]
    return float(np.median(np.log(x))) if x.size else None


#: Cells a unit must be written in to tell the unit of a column's plain numbers.
MIN_UNIT_CELLS = 3


def _plain_unit(column: str, plain: np.ndarray, numbers: dict[str, np.ndarray],
                shown: dict[str, str]) -> str | None:
    """The unit a column's plain numbers are written in, from its cells written with a
    unit: the unit (one of theirs, or of :data:`COMMON_UNITS`) into which those cells,
    converted, lie nearest the plain numbers (mean distance of the medians' logs,
    weighted by cells), within :data:`AGREEMENT` and at most half as far as the next.

    Walk-through 24's plain creatinines near 1 beside "198 µmol/L" cells are mg/dL, its
    plain temperatures near 37 beside "98 °F" cells are °C: a factor 2.7 from °F, within
    a plain factor-3 tolerance, yet 0.01 from the °F cells converted to °C."""
    centre = _median_log(plain)
    if centre is None:
        return None
    candidates = dict(shown)
    # a share's plain fractions, the most of its cells, beside "40%" (walk-through 58's
    # FiO2); a few fractions among percentages are far values instead (a URR's 0.69)
    most_plain = plain.size >= sum(x.size for x in numbers.values())
    own = ANALYTE_UNITS.get((analyte(column) or ("",))[0], ())
    for unit in (*COMMON_UNITS, *PLAIN_ONLY_UNITS, *own,
                 *(("fraction",) if most_plain else ())):
        candidates.setdefault(unit_key(unit), unit)
    # a unit written once or twice (walk-through 58's one "0.4l" among 184 "40%" made a
    # column of FiO2 litres) is no evidence of the plain numbers' unit
    counted = {k: x for k, x in numbers.items() if x.size >= MIN_UNIT_CELLS} or numbers
    scores = []
    for key, unit in candidates.items():
        dist, weight = 0.0, 0
        for written, x in counted.items():
            conv = conversion(column, shown[written], unit)
            m = _median_log(conv(x)) if conv is not None else None
            if m is not None:
                dist += abs(m - centre) * x.size
                weight += x.size
        if weight:
            scores.append((dist / weight, key, weight))
    # of the units the plain numbers may be in, the one that reads the most cells: walk-
    # through 37's viral loads, 120 cells in copies/mL and 13 in IU/mL (no exact
    # conversion between them), were read in IU/mL and the 120 set to missing
    most = max((w for d, _, w in scores if d <= math.log(AGREEMENT)), default=0)
    scores = sorted(t[:2] for t in scores if t[2] == most)
    if scores:  # another name of the best unit ("mL/min" for an eGFR) is no rival
        best = candidates[scores[0][1]]
        # ... nor a unit within a tenth of it (yards beside metres: walk-through 94's
        # claudication distances, whose plain numbers either may read): of those, the
        # unit most cells are written in
        def near(t) -> bool:
            conv = conversion(column, candidates[t[1]], best)
            return conv is not None and conv.offset == 0.0 and \
                0.9 <= conv.factor <= 1 / 0.9

        close = [t for t in scores if near(t)]
        first = max(close, key=lambda t: (numbers.get(t[1], np.zeros(0)).size, -t[0]))
        scores = [first] + [t for t in scores if not near(t)]
    if not scores or scores[0][0] > math.log(AGREEMENT) or (
            len(scores) > 1 and scores[0][0] > scores[1][0] / 2):
        return None
    return candidates[scores[0][1]]


#: Two units tell a plain number's unit by its size only when they are at least this
#: factor apart (mm and cm: 10; not yards and metres) ...
SPLIT_FACTOR = 5.0
#: ... and the cells written in each lie this factor or more from the other's.
SPLIT_MARGIN = 1.5


def plain_split(column: str, plain: np.ndarray, numbers: dict[str, np.ndarray],
                shown: dict[str, str], target: str,
                converted: dict[str, tuple[float, float]]) -> PlainSplit | None:
    """The plain numbers of a column that lie among the cells written in another of its
    units, and far from the cells read in its own: written in that unit.

    A clinic writing an aneurysm's diameter as "58mm", "5.4cm", "61" and "6.3" writes
    plain numbers in both units; read in millimetres (the plain numbers' main unit), "6.3"
    was 6.3 mm, beside the 63 mm it is. The plain numbers are read in the other unit only
    when the two units are :data:`SPLIT_FACTOR` or more apart and the cells written in
    each, as written, lie apart by :data:`SPLIT_MARGIN` or more: those of the other unit
    (at least :data:`MIN_UNIT_CELLS`) within a narrow range, the target's cells (written
    with the target unit, and the other unit's once converted) outside it. A plain number
    within that range, widened by the margin and short of halfway (in logs) to the
    target's cells, is read in the other unit, when that unit is the one those plain
    numbers lie in (:func:`_plain_unit`): birth weights in grams with a few "6.6 lb" cells
    and plain kilograms ("3.10") keep their kilograms for the far values' check, not read
    in lb. The plain numbers read so must lie apart from the others too, by the margin: a
    column's plain numbers that run on into the other unit's range are its own.

    Parameters
    ----------
    column : str
    plain : ndarray
        The column's plain numbers.
    numbers : dict
        ``{unit key: the numbers of the cells written in it}``.
    shown : dict
        ``{unit key: the unit as written}``.
    target : str
        The unit the column is read in.
    converted : dict
        ``{unit key: (factor, offset)}`` of the units converted to ``target``.

    Returns
    -------
    PlainSplit or None
        ``None`` when no plain number lies among another unit's cells, or the units
        overlap.

    Examples
    --------
    >>> got = plain_split("AAA", np.array([61.0, 55, 6.3, 48]),
    ...                   {"cm": np.array([5.4, 4.8, 6.1]), "mm": np.array([58.0, 52])},
    ...                   {"cm": "cm", "mm": "mm"}, "mm", {"cm": (10.0, 0.0)})
    >>> got.unit, got.factor, bool(got.low <= 6.3 <= got.high)
    ('cm', 10.0, True)
    """
    plain = plain[np.isfinite(plain) & (plain > 0)]
    if not plain.size:
        return None
    own = numbers.get(unit_key(target), np.zeros(0))
    own = own[np.isfinite(own) & (own > 0)]
    found = []
    for key, (factor, offset) in converted.items():
        x = numbers.get(key, np.zeros(0))
        x = x[np.isfinite(x) & (x > 0)]
        if offset != 0.0 or x.size < MIN_UNIT_CELLS or not (
                factor >= SPLIT_FACTOR or factor <= 1 / SPLIT_FACTOR):
            continue
        lo, hi = float(x.min()), float(x.max())
        reference = np.concatenate([own, x * factor])  # the target's cells, as read
        if factor > 1:  # the other unit's numbers are the smaller: they lie below
            edge = float(reference.min())
            if hi * SPLIT_MARGIN > edge:
                continue
            low, high = lo / SPLIT_MARGIN, min(hi * SPLIT_MARGIN, math.sqrt(hi * edge))
        else:
            edge = float(reference.max())
            if lo / SPLIT_MARGIN < edge:
                continue
            low, high = max(lo / SPLIT_MARGIN, math.sqrt(lo * edge)), hi * SPLIT_MARGIN
        inside = plain[(plain >= low) & (plain <= high)]
        # ... and apart from the plain numbers beyond it: walk-through 101's P/F ratios in
        # mmHg ran on from 72 and 88 to 103 and up, and its two sickest were read in kPa
        beyond = plain[plain > high] if factor > 1 else plain[plain < low]
        if inside.size and beyond.size and (
                float(beyond.min()) < SPLIT_MARGIN * float(inside.max()) if factor > 1
                else float(inside.min()) < SPLIT_MARGIN * float(beyond.max())):
            continue
        if inside.size and unit_key(_plain_unit(column, inside, numbers, shown) or "") == key:
            found.append((inside.size, PlainSplit(shown[key], low, high, float(factor))))
    return max(found, key=lambda t: t[0])[1] if found else None


def _split_target(column: str, plain: np.ndarray, numbers: dict[str, np.ndarray],
                  shown: dict[str, str]) -> str | None:
    """The unit a column's plain numbers are written in when they are written in two of
    its units (:func:`plain_split`), so that their median lies in neither: the unit, of
    those its cells are written in (the most written first), whose cells the plain numbers
    outside the other's range lie among (:func:`_plain_unit`). Walk-through 94's
    aneurysm diameters, as many plain "61" (mm) as plain "6.3" (cm), left the column out
    as mixing units."""
    for key in sorted(numbers, key=lambda k: -numbers[k].size):
        target = shown[key]
        converted = {}
        for other in numbers:
            conv = conversion(column, shown[other], target) if other != key else None
            if conv is not None and _exact_dimension(other, key):
                converted[other] = (conv.factor, conv.offset)
        split = plain_split(column, plain, numbers, shown, target, converted)
        if split is None:
            continue
        rest = plain[(plain < split.low) | (plain > split.high)]
        found = _plain_unit(column, rest, numbers, shown) if rest.size else None
        if found is not None and unit_key(found) == key:
            return target
    return None


def plan_units(column: str, values: pd.Series, units: ColumnUnits,
               missing_tokens) -> UnitPlan | None:
    """Read a column written in several units in one of them, when that is safe.

    The target is the unit of the column's name; else the unit the plain numbers are
    written in (:func:`_plain_unit`: possibly a unit no cell names, as the plain
    creatinines in mg/dL beside cells in µmol/L); else the most common unit. Every other
    unit is converted when :func:`conversion` knows how and the converted cells' median
    lies within :data:`AGREEMENT` of the target's cells (plain numbers included).

    Parameters
    ----------
    column : str
    values : pandas.Series
        The column's cells.
    units : ColumnUnits
        Its units (:func:`~sparge.data.parsing.column_units`).
    missing_tokens : set of str

    Returns
    -------
    UnitPlan or None
        ``None`` when there is nothing to convert (one unit, and the plain numbers in
        it), or when the column's unit is unclear: its name gives none, and its plain
        numbers lie in no clear unit, or it has none and a unit cannot be converted (it
        stays left out). When the unit is known (the name's, or the plain numbers'), the
        cells of a unit that cannot be converted are listed in ``left`` (they are set to
        missing), and the rest is read: walk-through 23's albumin, plain numbers and
        "g/dL" cells beside "µmol/L" ones, was left out whole.
    """
    if not units.written or (not units.mixed and (units.header or not units.n_numbers)):
        return None
    numbers: dict[str, np.ndarray] = {}
    commas = thousands_comma_column(values)  # "7,673 copies/mL" is 7673 beside "67,811"
    for key, u in units.written.items():
        out, info = parse_numeric(values, missing_tokens, u.shown, thousands_comma=commas)
        rows = [r for r, _ in info["unit"]] + [r for r, _ in info["limit_unit"]]
        numbers[key] = out[rows]
    plain_all, _ = parse_numeric(values, missing_tokens, None, thousands_comma=commas)
    plain = plain_all[np.isfinite(plain_all)]
    shown = {k: u.shown for k, u in units.written.items()}
    # a "unit" written once or twice, that converts to none of the others, among many
    # cells: a typo (walk-through 72's CRP "16l" beside "<5 mg/L" made the column's
    # units unreadable, and its 11 cells in mg/L were set to missing)
    stray = _stray_units(column, units)
    for key in stray:
        numbers.pop(key, None)
        shown.pop(key, None)
    mixed = len(numbers) > 1 or (units.header is not None and any(
        k != unit_key(units.header) for k in numbers))
    plain_as = None
    if units.header:
        target = units.header
    elif plain.size:
        target = plain_as = _plain_unit(column, plain, numbers, shown) or \
            _split_target(column, plain, numbers, shown)
        if target is None or (not mixed and unit_key(target) in numbers):
            if stray and not mixed and numbers:  # one unit and the typo's cells: the
                # column is read in that unit, as it is without the typo
                only = shown[next(iter(numbers))]
                return UnitPlan(target=only, plain_as=only,
                                left=[units.written[k].shown for k in stray])
            return None  # no clear unit; or one unit, the plain numbers' own
    elif numbers:
        target = shown[next(iter(numbers))]
    else:
        target = shown[next(iter(units.written))]
    target_key = unit_key(target)
    reference = np.concatenate([plain, numbers.get(target_key, np.zeros(0))])
    centre = _median_log(reference)
    plan = UnitPlan(target=target, plain_as=plain_as)
    for key, x in numbers.items():
        if key == target_key:
            continue
        conv = conversion(column, shown[key], target)
        exact = _exact_dimension(key, target_key)
        if conv is None and key == "m" and target_key in ("min", "mins", "minutes"):
            # "25m" among minutes (walk-through 66's morning stiffness): minutes, not
            # metres; checked against the column's numbers as a guess is
            conv = Conversion(1.0, 0.0, "'m' after a number in a column of minutes")
            exact = False
        m = _median_log(conv(x)) if conv is not None else None
        if conv is None or m is None or (centre is not None and not exact
                                         and abs(m - centre) > math.log(AGREEMENT)):
            plan.left.append(key)
            continue
        plan.converted[key] = (conv.factor, conv.offset)
        # the same unit written otherwise ("x10^9" in a "(x10^9/L)" column: walk-through
        # 70 read "1 x10^9 = 1 x10^9/L") is read, not said converted
        plan.notes.append(
            f"{x.size:,} cell(s) written '{shown[key]}' read as '{target}', the same unit"
            if conv.factor == 1 and conv.offset == 0 and conv.why.startswith("1 ") else
            f"{x.size:,} cell(s) in '{shown[key]}' converted to '{target}' ({conv.why})")
    plan.left += [units.written[k].shown for k in stray]
    plan.plain_split = plain_split(column, plain, numbers, shown, target, plan.converted)
    if units.header or plan.plain_as:  # the column's unit is known: keep what reads in it
        return plan if plan.converted or plan.left else None
    if stray and not plan.converted and len(plan.left) == len(stray):
        return plan  # one unit (the most common) and the typo's cells
    if plan.left and not plain.size:
        # no plain number and no unit in the name: the unit of most cells is read, the
        # others set to missing, rather than the whole column left out (walk-through 90's
        # lipoprotein(a): 258 cells in nmol/L, 104 in mg/dL, no fixed factor between them)
        kept = sum(numbers[k].size for k in numbers if k not in plan.left)
        lost = sum(numbers[k].size for k in plan.left if k in numbers)
        if kept >= MAJORITY * lost:
            plan.by_majority = True
            return plan
    return None if plan.left else plan


#: A unit that cannot be converted is set to missing, the column read in the unit of
#: the most cells, when those are at least this many times as many (3 in 5 cells).
MAJORITY = 1.5

#: Analytes measured in units with no fixed factor between them, and why.
NO_FIXED_FACTOR = (
    (re.compile(r"\blp\s*\(\s*a\s*\)|lipoprotein\s*\(?\s*a\b|\blpa\b", re.IGNORECASE),
     "lipoprotein(a) in mass units (mg/dL) and in particle units (nmol/L) have no fixed "
     "factor between them: it depends on each patient's apo(a) isoform size"),
)


def no_fixed_factor(column: str) -> str | None:
    """Why a column's units cannot be converted whatever the analyte's molar mass
    (lipoprotein(a)), or ``None``.

    Examples
    --------
    >>> no_fixed_factor("Lp(a)")[:15], no_fixed_factor("LDL-C")
    ('lipoprotein(a) ', None)
    """
    for words, why in NO_FIXED_FACTOR:
        if words.search(str(column)):
            return why
    return None


#: A unit written in at most this many cells can be a typo ("16l") ...
STRAY_UNIT_CELLS = 2
#: ... when the column writes at least this many times as many numbers.
STRAY_UNIT_RATIO = 20


def _stray_units(column: str, units) -> list[str]:
    """The keys of the units a column writes in at most :data:`STRAY_UNIT_CELLS` cells,
    one :data:`STRAY_UNIT_RATIO`-th of its numbers or fewer, that convert to none of its
    other units: typos, not units."""
    if len(units.written) < 2 and not units.header:
        return []
    total = sum(u.count for u in units.written.values()) + units.n_numbers
    others = {k: u.shown for k, u in units.written.items()}
    if units.header:
        others.setdefault(unit_key(units.header), units.header)
    out = []
    for key, u in units.written.items():
        if u.count > STRAY_UNIT_CELLS or u.count * STRAY_UNIT_RATIO > total or \
                (units.header and key == unit_key(units.header)):
            continue
        if all(conversion(column, u.shown, o) is None and
               conversion(column, o, u.shown) is None
               for k, o in others.items() if k != key):
            out.append(key)
    return out
