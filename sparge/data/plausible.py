"""Values a patient can have, unit by unit: a column's unit from its values, and the
cells written in another unit that no statistical rule sees.

A US ICU export wrote 130 of 1,100 maximum temperatures in °C (35.6–40.7) among °F
(94.6–106.7), in a column named "Temp max" (walk-through 27). The far-values rule
(:mod:`sparge.data.far_values`) looks for a power of ten; °C and °F lie a factor of 2.6
apart, the °C cells were read as °F, and they alone shaped the cohort map: the top
band of the map, and 7 of the 10 look-alikes of a patient with 38.5. The same export's
creatinine had no unit in its name: its 93 values in µmol/L were flagged as far, but no
unit could be named, so they could only be set to missing.

For a few quantities whose units clinical exports mix, :data:`QUANTITIES` holds the values
a living patient can have in each unit: wide physiological limits, not reference ranges.
Then

* :func:`unit_from_values` names a column's unit when its name gives none and its
  median is possible in exactly one unit (a creatinine of median 1.1: mg/dL);
* :func:`unit_slips` finds the cells impossible in the column's unit that are possible
  in another unit and convert exactly (:func:`~sparge.data.unit_conversion.conversion`)
  into a possible value: 38.5 in a °F column is 101.3 °F.

Both only *suggest*: the encoder lists the slips with the far values, which the user
converts (or sets to missing) with one click, and a New patient value is questioned.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection

import numpy as np

from sparge.data.far_values import MIN_DISTINCT, MIN_VALUES
from sparge.data.parsing import unit_key
from sparge.data.unit_conversion import conversion

#: ``(quantity, words naming it in a column, {unit: (lowest, highest) possible})``. Only
#: units between which :func:`~sparge.data.unit_conversion.conversion` is exact; ranges
#: that overlap leave the values in the overlap unjudged.
QUANTITIES: tuple[tuple[str, str, dict[str, tuple[float, float]]], ...] = (
    # first: HbA1c is no haemoglobin. A UK practice's export wrote 10 % of its HbA1c
    # in % (DCCT) among mmol/mol (IFCC), with no unit anywhere (walk-through 29)
    ("HbA1c", r"\b(?:hb ?a1c|hgb ?a1c|a1c|glycated ha?emoglobin|glycosylated ha?emoglobin)\b",
     {"mmol/mol": (20.0, 200.0), "%": (3.0, 19.0)}),
    ("temperature", r"\b(?:temp|temps|temperature|tmax|tmin|tmp)\b",
     {"°C": (25.0, 45.0), "°F": (77.0, 113.0)}),
    ("creatinine", r"\b(?:creatinine|creat|crea|scr|s ?creat)\b",
     # a frail woman's 24 µmol/L is low, not 24 mg/dL (walk-through 72 read it as 2,122)
     {"mg/dL": (0.1, 25.0), "µmol/L": (15.0, 2200.0)}),
    ("glucose", r"\b(?:glucose|glu|blood sugar|glycaemia|glycemia)\b",
     {"mg/dL": (20.0, 1500.0), "mmol/L": (1.0, 85.0)}),
    # a critically ill patient's bilirubin passes 50 mg/dL (support2's seven of 50-63)
    ("bilirubin", r"\b(?:bilirubin|bili|tbil|t bil)\b",
     {"mg/dL": (0.05, 80.0), "µmol/L": (1.0, 1370.0)}),
    # support2's critically ill patients: albumins of 0.8 and 0.9 g/dL (in g/L the
    # lower limit stays 10: a whole column of g/dL under "(g/L)" is read as g/dL)
    ("albumin", r"\b(?:albumin|alb)\b", {"g/dL": (0.5, 6.5), "g/L": (10.0, 65.0)}),
    ("haemoglobin", r"\b(?:haemoglobin|hemoglobin|hgb|hb)\b",
     {"g/dL": (2.0, 25.0), "g/L": (20.0, 250.0)}),
    ("lactate", r"\b(?:lactate|lactic acid|lac)\b",
     {"mmol/L": (0.1, 30.0), "mg/dL": (1.0, 270.0)}),
    # walk-through 58's intensive care unit wrote 60 arterial oxygen tensions in mmHg
    # ("76") without a unit among kPa
    ("arterial oxygen", r"\b(?:pao2|pa o2|po2|p o2|arterial oxygen|partial pressure of "
                        r"oxygen|oxygen tension)\b",
     {"kPa": (2.0, 80.0), "mmHg": (15.0, 600.0)}),
    ("arterial carbon dioxide", r"\b(?:paco2|pa co2|pco2|p co2|arterial carbon dioxide|"
                                r"carbon dioxide tension)\b",
     {"kPa": (1.0, 25.0), "mmHg": (7.5, 190.0)}),
    # walk-through 56's dialysis unit wrote 25 phosphates in mg/dL without a unit ("6.9")
    # beside 39 written "4.8 mg/dL", among mmol/L
    ("phosphate", r"\b(?:phosphate|phos|po4|phosphorus|inorganic phosphate)\b",
     {"mmol/L": (0.1, 6.0), "mg/dL": (0.3, 18.6)}),
    # walk-through 73's myeloma clinic wrote 6 calciums in mg/dL without a unit ("10.4")
    # among mmol/L (2.58); "CA 19-9" and "CA-125" are tumour markers, not calcium
    ("calcium", r"\b(?:calcium|ca2\+|ca\+\+|(?:corrected|adjusted|corr|adj|ionised|"
                r"ionized|serum|total) ca)(?![\w-])",
     {"mmol/L": (0.5, 5.0), "mg/dL": (2.0, 20.0)}),
    # walk-through 90's lipid clinic: an LDL cholesterol of 45 and a total of 58 mmol/L
    # (lost decimal points) used as given, and an HDL of 0; homozygous familial
    # hypercholesterolaemia reaches about 25 mmol/L, chylomicronaemia's triglycerides
    # over 100. The fractions first: "LDL-C" and "HDL-C" are no total cholesterol
    ("non-HDL cholesterol", r"\bnon ?hdl(?: c| chol\w*)?\b",
     {"mmol/L": (0.5, 30.0), "mg/dL": (19.0, 1160.0)}),
    ("HDL cholesterol", r"\b(?:hdl|hdl c|hdl chol\w*|high density lipoprotein\w*)\b",
     {"mmol/L": (0.05, 5.0), "mg/dL": (2.0, 195.0)}),
    ("LDL cholesterol", r"\b(?:ldl|ldl c|ldl chol\w*|low density lipoprotein\w*)\b",
     {"mmol/L": (0.1, 25.0), "mg/dL": (4.0, 970.0)}),
    ("total cholesterol", r"\b(?:total cholesterol|cholesterol|chol|t chol|tc|serum chol)\b",
     {"mmol/L": (1.0, 30.0), "mg/dL": (39.0, 1160.0)}),
    ("triglycerides", r"\b(?:triglycerides?|tg|tgs|trig|trigs|triglyc)\b",
     {"mmol/L": (0.1, 150.0), "mg/dL": (9.0, 13_000.0)}),
    # a neonatal export wrote 61 of 700 birth weights in kg among grams (walk-through 31)
    ("birth weight", r"\b(?:birth ?weight|birth wt|bw|weight at birth)\b",
     {"g": (200.0, 7000.0), "kg": (0.2, 7.0), "lb": (0.44, 15.5)}),
    ("height", r"\b(?:height|stature|ht)\b",
     {"cm": (40.0, 230.0), "m": (0.4, 2.3), "in": (15.0, 90.0)}),
    # walk-through 79's sleep clinic: a weight of 925 kg (a lost decimal point), and 29
    # neck circumferences in inches ("15.4") among cm, read as 15.4 cm; not a weight's
    # centile, z-score, gain or loss
    ("body weight", r"\b(?:weight|wt|body weight)\b(?!.*\b(?:centile|percentile|z|"
                    r"zscore|sds|for age|gain|loss|lost|change)\b)",
     {"kg": (1.0, 650.0), "lb": (2.2, 1430.0)}),
    ("neck circumference", r"\bneck(?: circ| circumference| size| girth)?\b",
     {"cm": (20.0, 80.0), "in": (8.0, 32.0)}),
    ("waist circumference", r"\bwaist(?: circ| circumference| size| girth)?\b",
     {"cm": (40.0, 250.0), "in": (16.0, 100.0)}),
    # an emergency department's export wrote 48 of 900 white cell counts per µL
    # ("11,100", "5800") among ×10⁹/L, with no unit (walk-through 33)
    ("white cell count", r"\b(?:wbc|wcc|tlc|white (?:blood )?cells?(?: count)?|"
                         r"leu[ck]ocytes?(?: count)?|leu[ck]ocyte count)\b",
     {"x10^9/L": (0.1, 500.0), "/µL": (100.0, 500_000.0)}),
    # walk-through 75's COPD clinic wrote a fifth of its eosinophils in x10^9/L without a
    # unit ("0.16") among counts per µL ("160"): the differential's counts, as the WBC
    ("eosinophils", r"\b(?:eosinophils?|eos|eosinophil count)\b",
     {"x10^9/L": (0.0, 60.0), "/µL": (0.0, 60_000.0)}),
    ("neutrophils", r"\b(?:neutrophils?|neuts?|anc|neutrophil count)\b",
     {"x10^9/L": (0.0, 300.0), "/µL": (0.0, 300_000.0)}),
    ("lymphocytes", r"\b(?:lymphocytes?|lymphs?|lymphocyte count)\b",
     {"x10^9/L": (0.0, 500.0), "/µL": (0.0, 500_000.0)}),
    ("platelets", r"\b(?:platelets?|plt|plts|platelet count)\b",
     {"x10^9/L": (1.0, 2000.0), "/µL": (1000.0, 2_000_000.0)}),
    # walk-through 47's gait speeds in cm/s ("109") among m/s
    ("gait speed", r"\b(?:gait speed|walking speed|walk speed|gaitspeed|usual gait speed)\b",
     {"m/s": (0.02, 2.5), "cm/s": (2.0, 250.0)}),
    # walk-through 45's FEV1 in mL ("1310") among litres
    ("lung volume", r"\b(?:fev1|fev 1|fvc)\b", {"L": (0.1, 8.0), "mL": (100.0, 8000.0)}),
    # walk-through 77's OCT central subfield thicknesses in mm ("0.28") among µm
    ("retinal thickness", r"\b(?:cst|cmt|crt|csmt|central (?:subfield|macular|retinal) "
                          r"thickness|(?:retinal|macular) thickness|oct thickness)\b",
     {"µm": (100.0, 1500.0), "mm": (0.1, 1.5)}),
    # walk-through 106's dialysis unit wrote 61 parathyroid hormones in pg/mL without a
    # unit ("673") among pmol/L, beside 41 written "283 pg/mL": read as pmol/L, 9.4 times
    # too high, unsaid (tertiary hyperparathyroidism passes 300 pmol/L)
    ("parathyroid hormone", r"\b(?:i?pth|parathyroid hormone|parathormone)\b",
     {"pmol/L": (0.3, 700.0), "pg/mL": (3.0, 6600.0)}),
)

#: Shares written as a percentage or a fraction (walk-through 45's respiratory clinic
#: wrote its FEV1/FVC 0.62 and 62 % in one column): a ratio by name, so looked for before
#: the ratios of :data:`_DERIVED` are set aside.
SHARES: tuple[tuple[str, str, dict[str, tuple[float, float]]], ...] = (
    ("FEV1/FVC", r"\b(?:fev1 fvc|fev 1 fvc|tiffeneau)\b",
     {"%": (20.0, 100.0), "fraction": (0.2, 1.0)}),
    ("ejection fraction", r"\b(?:lvef|ef|ejection fraction)\b",
     {"%": (5.0, 90.0), "fraction": (0.05, 0.9)}),
    ("oxygen saturation", r"\b(?:sp ?o2|sa ?o2|sats?|o2 sats?|oxygen saturation|"
                          r"saturations?)\b",
     {"%": (40.0, 100.0), "fraction": (0.4, 1.0)}),
    ("haematocrit", r"\b(?:haematocrit|hematocrit|hct|pcv)\b",
     {"%": (10.0, 75.0), "L/L": (0.1, 0.75)}),
    # a ratio of two pressures' units: walk-through 58's P/F ratios in mmHg (179) among
    # kPa (24), looked for before the ratios of _DERIVED are set aside
    ("P/F ratio", r"\b(?:p f ratio|pf ratio|p f|pa ?o2 fi ?o2(?: ratio)?|pfr)\b",
     {"kPa": (3.0, 90.0), "mmHg": (20.0, 680.0)}),
    # walk-through 58's intensive care unit wrote its FiO2 0.4, 40% and 40
    ("inspired oxygen", r"\b(?:fio2|fi o2|inspired oxygen|fraction of inspired oxygen)\b",
     {"%": (21.0, 100.0), "fraction": (0.21, 1.0)}),
    # walk-through 56's dialysis unit wrote 23 of its URRs as 0.69 among "69%"
    ("urea reduction ratio", r"\b(?:urr|urea reduction ratio)\b",
     {"%": (30.0, 95.0), "fraction": (0.3, 0.95)}),
    ("transferrin saturation", r"\b(?:tsat|transferrin saturation|tf sat)\b",
     {"%": (2.0, 100.0), "fraction": (0.02, 1.0)}),
)
#: Words of a share's change, not the share.
_SHARE_DERIVED = re.compile(r"\b(?:change|delta|diff|difference|slope|sd|cv|variability|"
                            r"predicted|pred)\b")
#: Words of a quantity derived from one of :data:`QUANTITIES`, or measured elsewhere
#: than in blood.
_DERIVED = re.compile(r"\b(?:ratio|index|urine|urinary|csf|acr|pcr|uacr|clearance|"
                      r"excretion|change|delta|diff|difference|slope|sd|cv|variability|"
                      r"predicted|pred|percent|reversibility|"
                      r"gradient|pleural|ascites|ascitic|dialysate)\b")
#: A column's unit is named from its values only when at least this share of them is
#: possible in that unit (a column of two units half and half is not one unit).
UNIT_SHARE = 0.7


def name_words(column: str) -> str:
    """A column's name as lower-case words ("TempMax_C" -> "temp max c")."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(column))
    return " ".join(w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w)


@functools.lru_cache(maxsize=4096)
def quantity_of(column: str) -> tuple[str, dict[str, tuple[float, float]]] | None:
    """The quantity of :data:`QUANTITIES` a column's name names, with its units' possible
    values, or ``None``.

    Examples
    --------
    >>> quantity_of("Temp max")[0], quantity_of("num_temp")[0], quantity_of("Age")
    ('temperature', 'temperature', None)
    >>> quantity_of("HbA1c")[0], quantity_of("Hb")[0]
    ('HbA1c', 'haemoglobin')
    """
    words = name_words(column)
    if not _SHARE_DERIVED.search(words):
        for name, pattern, units in SHARES:
            if re.search(pattern, words):
                return name, units
    # HbA1c is no haemoglobin (it is listed first); an albumin/creatinine ratio, a urine
    # creatinine or a change in creatinine is not the quantity itself
    bare = re.sub(r"[(\[][^()\[\]]*[)\]]", " ", str(column))  # its unit in brackets aside
    if "/" in bare or re.search(r"\w\s*:\s*\w", bare) or _DERIVED.search(words):  # "TC:HDL"
        return None
    for name, pattern, units in QUANTITIES:
        if re.search(pattern, words):
            return name, units
    return None


def _range_of(units: dict[str, tuple[float, float]], unit: str | None
              ) -> tuple[str, tuple[float, float]] | None:
    """The entry of ``units`` for ``unit`` (as a key or as written), or ``None``."""
    if not unit:
        return None
    key = unit_key(unit)
    return next(((u, r) for u, r in units.items() if unit_key(u) == key), None)


def unit_from_values(column: str, values) -> str | None:
    """The unit a column without one is written in, from its values: the only unit of
    its quantity (:func:`quantity_of`) in which its median is possible and at least
    :data:`UNIT_SHARE` of its values are; ``None`` when its name names no quantity, or no
    unit or several fit (a bilirubin of median 1.2 is possible in mg/dL and in µmol/L),
    or the column is no measurement (fewer than 20 values, or 10 different ones at most:
    codes).

    Examples
    --------
    >>> unit_from_values("Creatinine", [0.5 + 0.1 * i for i in range(20)] + [214.0])
    'mg/dL'
    >>> temps = [97.0 + 0.3 * i for i in range(25)] + [38.2, 37.9]
    >>> unit_from_values("Temp max", temps), unit_from_values("Temp max", [1, 2, 3] * 9)
    ('°F', None)
    """
    found = quantity_of(column)
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    # a measurement, not a few codes: smarto's "fac_albumin" (albuminuria 1, 2, 3) is no
    # albumin in g/dL
    if found is None or len(v) < MIN_VALUES or len(np.unique(v)) <= MIN_DISTINCT:
        return None
    median = float(np.median(v))
    fits = [u for u, (lo, hi) in found[1].items()
            if lo <= median <= hi and np.mean((v >= lo) & (v <= hi)) >= UNIT_SHARE]
    return fits[0] if len(fits) == 1 else None


#: A value impossible in its column's unit is read as written in another unit only when
#: it converts to within this factor of the column's typical value (walk-through 72: a
#: creatinine of 24 read as mg/dL was 2,122 µmol/L, 25 times the clinic's median).
SLIP_MAX_FOLD = 20.0
#: A value within this share of a quantity's limit is at the limit.
LIMIT_TOLERANCE = 1e-3


def _impossible_slips(column: str, units: dict[str, tuple[float, float]],
                      own: tuple[str, tuple[float, float]], v: np.ndarray,
                      middle: float | None = None
                      ) -> tuple[np.ndarray, np.ndarray, list[str | None], np.ndarray]:
    """The values impossible in the column's unit ``own`` and, of those, the ones that
    are possible in another of its quantity's ``units`` and convert into a possible value
    (:func:`unit_slips`, without the two-unit fit): ``(impossible, slipped, source,
    converted)``."""
    slipped = np.zeros(len(v), bool)
    source: list[str | None] = [None] * len(v)
    converted = np.full(len(v), np.nan)
    lo, hi = own[1]
    finite = np.isfinite(v)
    # a limit itself as a float stored it (support2's creatinine of 0.0999908 mg/dL) is
    # possible
    impossible = finite & ((v < lo * (1 - LIMIT_TOLERANCE)) | (v > hi * (1 + LIMIT_TOLERANCE)))
    # the patients' own values, where there are enough, else the range's middle: a
    # birth weight of 3.46 among grams is 3,460 g (kg) beside a median of 2,800 g, not
    # 1,569 g (lb) beside the middle of 200-7,000 g (walk-through 31)
    possible = v[finite & ~impossible & (v > 0)]
    if middle is None or not np.isfinite(middle) or middle <= 0:
        middle = float(np.median(possible)) if len(possible) >= MIN_VALUES \
            else math.sqrt(lo * hi)
    best_gap = np.full(len(v), np.inf)
    for other, (olo, ohi) in units.items():
        if other == own[0] or not impossible.any():
            continue
        conv = conversion(column, other, own[0])
        if conv is None:
            continue
        with np.errstate(all="ignore"):
            out = conv(v)
            gap = np.abs(np.log(np.where(out > 0, out, np.nan) / middle))
            # ... and no farther from it than the conversion's own factor (at least 2):
            # a weight of 724 kg is no 328 kg written in lb (2.2 times), but 72.4 kg
            # with a lost decimal point (walk-through 79 added weights' units)
            factor = np.abs(np.log(np.where((out > 0) & (v > 0), out / v, np.nan)))
            allowed = np.minimum(math.log(SLIP_MAX_FOLD),
                                 np.fmax(factor, math.log(2.0)))
        # ... and not many times the column's typical value: a lost or a doubled digit
        # is then likelier than another unit
        fits = impossible & (v >= olo) & (v <= ohi) & (out >= lo) & (out <= hi) & \
            (gap < best_gap) & (gap <= allowed)
        for i in np.flatnonzero(fits):
            source[i] = other
        converted[fits], best_gap[fits], slipped[fits] = out[fits], gap[fits], True
    return impossible, slipped, source, converted


def unit_slips(column: str, unit: str | None, values, middle: float | None = None,
               written: Collection[str] = ()
               ) -> tuple[np.ndarray, list[str | None], np.ndarray]:
    """The values impossible in a column's unit that are possible in another unit of its
    quantity and convert exactly into a possible value of the column's unit.

    Parameters
    ----------
    column : str
        The column's name (its quantity, :func:`quantity_of`).
    unit : str or None
        The column's unit (its name's, its cells', or :func:`unit_from_values`).
    values : array-like of float
        The column's values (NaN = missing).
    middle : float, optional
        The column's typical value, for a few new patients' values (the training
        patients' median); by default their own median, or the possible range's middle.
    written : collection of str, optional
        The other units the column's own cells are written in ("283 pg/mL"): its plain
        numbers in them are looked for with :func:`mixed_unit`'s weaker conditions.

    Returns
    -------
    slipped : ndarray of bool
        The values judged written in another unit.
    source : list of str or None
        For each value, the unit it was probably written in (``None`` where not slipped).
    converted : ndarray of float
        The values converted into ``unit`` (NaN where not slipped). Of several units that
        fit, the one that brings the value nearest the median of the column's possible
        values (the middle of the possible range when fewer than ``MIN_VALUES``).
    """
    v = np.asarray(values, dtype=float).ravel()
    slipped = np.zeros(len(v), bool)
    source: list[str | None] = [None] * len(v)
    converted = np.full(len(v), np.nan)
    found = quantity_of(column)
    own = _range_of(found[1], unit) if found is not None else None
    if own is None:
        return slipped, source, converted
    impossible, slipped, source, converted = _impossible_slips(column, found[1], own, v,
                                                               middle)
    # a column most of whose values no unit of its quantity explains is not that quantity
    # in those units (a "Phosphate (mmol/L)" of 15 to 42, as the bundled sample once
    # had): nothing is judged
    if not explained_by_units(v, impossible, slipped):
        return np.zeros(len(v), bool), [None] * len(v), np.full(len(v), np.nan)
    # values possible in both units, written in the other one by a share of patients
    mixed, mixed_source, mixed_out = mixed_unit(column, own[0], v, written)
    new = mixed & ~slipped
    for i in np.flatnonzero(new):
        source[i] = mixed_source
    converted[new], slipped[new] = mixed_out[new], True
    return slipped, source, converted


#: A column whose values are impossible in its unit and in every other unit of its
#: quantity, this share of them or more, is not judged as that quantity.
UNEXPLAINED_SHARE = 0.5


def explained_by_units(values, impossible: np.ndarray, slipped: np.ndarray) -> bool:
    """Whether a column's values are its quantity's: fewer than :data:`UNEXPLAINED_SHARE`
    of its measured values are impossible in its unit without a slip from another unit
    (a column of too few values, fewer than :data:`MIN_VALUES`, is taken to be)."""
    v = np.asarray(values, dtype=float).ravel()
    finite = np.isfinite(v)
    if finite.sum() < MIN_VALUES:
        return True
    return float(np.mean((impossible & ~slipped)[finite])) < UNEXPLAINED_SHARE


def impossible_in_unit(column: str, unit: str | None, values) -> np.ndarray:
    """The values impossible in a column's unit (outside its quantity's range in that
    unit, :data:`QUANTITIES`), in a column its quantity explains
    (:func:`explained_by_units`): an HbA1c of 640 mmol/mol (a typo), or of 7.5 (in %:
    whether converted is the caller's to say).

    Examples
    --------
    >>> hba1c = [48.0, 53, 61, 70, 58, 44, 66, 75, 52, 49] * 3 + [640.0, 7.5]
    >>> impossible_in_unit("HbA1c", "mmol/mol", hba1c).nonzero()[0].tolist()
    [30, 31]
    """
    v = np.asarray(values, dtype=float).ravel()
    none = np.zeros(len(v), bool)
    found = quantity_of(column)
    own = _range_of(found[1], unit) if found is not None else None
    if own is None:
        return none
    impossible, slipped, _, _ = _impossible_slips(column, found[1], own, v)
    if not explained_by_units(v, impossible, slipped):
        return none
    return impossible


def judged_column(column: str, unit: str | None, values) -> bool:
    """Whether a column's values are judged by its quantity's units (:func:`unit_slips`
    finds it explained by them, :func:`explained_by_units`): asked of the training
    patients' column before a new patient's values are."""
    found = quantity_of(column)
    own = _range_of(found[1], unit) if found is not None else None
    if own is None:
        return False
    v = np.asarray(values, dtype=float).ravel()
    impossible, slipped, _, _ = _impossible_slips(column, found[1], own, v)
    return explained_by_units(v, impossible, slipped)


#: :func:`mixed_unit`: the fewest values, the largest share in the other unit, how many
#: standard deviations apart the two units' values must lie, the evidence (log-likelihood
#: gain over one unit) and the certainty for a value to be listed.
MIXED_MIN_VALUES = 50
MIXED_MAX_SHARE = 0.4
MIXED_SEPARATION = 3.0
MIXED_EVIDENCE = 20.0
MIXED_POSTERIOR = 0.99
#: ... the separation and the certainty when the column's own cells write the other unit
#: (walk-through 106's "283 pg/mL" beside plain pg/mL among pmol/L, 2.96 standard
#: deviations apart: the written cells are the evidence the column mixes units).
MIXED_SEPARATION_WRITTEN = 2.5
MIXED_POSTERIOR_WRITTEN = 0.9
#: ... and the certainty from which a plain number is said to be unsure, likelier in the
#: other unit than its own but not converted (re-check 106b: 30 PTHs in pg/mL of 42 to
#: 253, as likely pmol/L, were used unsaid).
MIXED_UNSURE = 0.5
#: The most values the two-unit model is fitted on (an even sample of a larger column).
MIXED_FIT_VALUES = 20_000


#: Quantities whose other unit is not looked for among possible values: a body weight
#: in lb among kg is as likely as a heavy patient, and children beside adults are two
#: groups a factor apart (only impossible values, 724 kg, are judged).
_NO_MIXTURE = frozenset({"body weight"})


def mixed_unit(column: str, unit: str, values, written: Collection[str] = (),
               unsure: bool = False) -> tuple[np.ndarray, str | None, np.ndarray]:
    """The values of a column written in another unit of its quantity where both units
    are possible: a neonatal export's glucose held 77 values in mg/dL (16-92) among
    mmol/L (1-8), all possible in either, read as mmol/L without a word (walk-through
    31; its bilirubin the same, in mg/dL among µmol/L).

    The logarithms of a column's values are modelled as one unit's values, normal, and a
    share written in another unit: the same normal shifted by the log of the conversion
    factor (only units a factor apart: not °C and °F). Fitted by EM; a value is listed
    when the two-unit model explains the column far better than one unit (a
    log-likelihood gain of :data:`MIXED_EVIDENCE`), the two units' values lie
    :data:`MIXED_SEPARATION` standard deviations apart, at most :data:`MIXED_MAX_SHARE`
    of the values are in the other unit, the value is in it with probability
    :data:`MIXED_POSTERIOR` and its conversion is possible. A skewed column in one unit
    (bilirubins of 3 to 500 µmol/L) is not split: its spread hides any second unit.
    Where the column's own cells write the other unit (``written``, unit names), they
    show it mixes units: :data:`MIXED_SEPARATION_WRITTEN` and
    :data:`MIXED_POSTERIOR_WRITTEN` suffice for that unit. ``unsure``: instead, the values
    likelier in that written unit than in the column's (from :data:`MIXED_UNSURE`) but
    not certain enough to be listed: a question for the user, not a conversion.

    Returns
    -------
    slipped : ndarray of bool
    source : str or None
        The other unit (``None`` when nothing is listed).
    converted : ndarray of float
        The listed values converted into ``unit`` (NaN elsewhere).
    """
    v = np.asarray(values, dtype=float).ravel()
    none = (np.zeros(len(v), bool), None, np.full(len(v), np.nan))
    found = quantity_of(column)
    own = _range_of(found[1], unit) if found is not None else None
    ok = np.isfinite(v) & (v > 0)
    if found is not None and found[0] in _NO_MIXTURE:
        return none
    if own is None or ok.sum() < MIXED_MIN_VALUES:
        return none
    lo, hi = own[1]
    x = np.log(v[ok])
    # fitted on an even sample of a large column (a hospital's million rows), then every
    # value's probability from the fit: one pass, not 200 EM steps over all of them
    step = max(1, len(x) // MIXED_FIT_VALUES)
    said = {unit_key(u) for u in written}
    best = None
    for other in found[1]:
        conv = conversion(column, other, own[0])
        if other == own[0] or conv is None or conv.offset != 0 or conv.factor <= 0:
            continue
        shift = -math.log(conv.factor)  # a value's log in the other unit, less its own
        seen = unit_key(other) in said
        fit = _two_units(x[::step], shift,
                         MIXED_SEPARATION_WRITTEN if seen else MIXED_SEPARATION)
        if fit is not None and (best is None or fit[0] > best[0]):
            best = (fit[0], other, conv, shift, fit[1:], seen)
    if best is None:
        return none
    _, other, conv, shift, params, seen = best
    if unsure and not seen:
        return none
    posterior = _other_unit_share(x, shift, *params)
    out = conv(v)
    sure = MIXED_POSTERIOR_WRITTEN if seen else MIXED_POSTERIOR
    with np.errstate(invalid="ignore"):
        listed = np.zeros(len(v), bool)
        listed[ok] = ((posterior >= MIXED_UNSURE) & (posterior < sure)) if unsure else \
            posterior >= sure
        listed &= (v >= found[1][other][0]) & (v <= found[1][other][1]) & \
            (out >= lo) & (out <= hi)
    if not listed.any():
        return none
    return listed, other, np.where(listed, out, np.nan)


def written_unit_slips(column: str, unit: str | None, values, typical,
                       written: Collection[str]) -> tuple[np.ndarray, str | None,
                                                          np.ndarray]:
    """A few new patients' values written without a unit in another unit their training
    column's own cells write ("283 pg/mL" among pmol/L): those outside every training
    value that, converted from that unit, lie among the middle 90 % of them (re-check
    106b: a new patient's "480" was questioned, with no offer of 50.9 pmol/L, where the
    training file's plain "673" had been converted). ``typical``: the training values.

    Returns ``(slipped, unit as written, converted)`` as :func:`unit_slips` does.
    """
    v = np.asarray(values, dtype=float).ravel()
    none = (np.zeros(len(v), bool), None, np.full(len(v), np.nan))
    if not written:  # most columns: nothing to look at (asked on every form change)
        return none
    t = np.asarray(typical, dtype=float).ravel()
    t = t[np.isfinite(t) & (t > 0)]
    found = quantity_of(column)
    own = _range_of(found[1], unit) if found is not None else None
    if own is None or t.size < MIN_VALUES:
        return none
    lo, hi = np.percentile(t, [5, 95])
    outside = np.isfinite(v) & ((v > t.max()) | (v < t.min()))
    said = {unit_key(u) for u in written}
    for other in found[1]:
        conv = conversion(column, other, own[0])
        if unit_key(other) not in said or other == own[0] or conv is None:
            continue
        out = conv(v)
        with np.errstate(invalid="ignore"):
            hit = outside & (out >= lo) & (out <= hi)
        if hit.any():
            return hit, other, np.where(hit, out, np.nan)
    return none


def _two_units(x: np.ndarray, shift: float, separation: float = MIXED_SEPARATION,
               steps: int = 200) -> tuple[float, float, float, float] | None:
    """EM for logs ``x`` as N(μ, σ²) with a share π at N(μ + shift, σ²): the
    log-likelihood gain over one normal, μ, σ and π, or ``None`` when the fit does not
    meet :func:`mixed_unit`'s conditions."""
    single = float(np.sum(-0.5 * ((x - x.mean()) / max(float(np.std(x)), 1e-3)) ** 2
                          - math.log(max(float(np.std(x)), 1e-3))))
    mu, sigma, pi = float(np.median(x)), max(float(np.std(x)), 1e-3), 0.1
    for _ in range(steps):
        # E: each value's probability of the other unit
        a = math.log(1 - pi) - 0.5 * ((x - mu) / sigma) ** 2
        b = math.log(pi) - 0.5 * ((x - mu - shift) / sigma) ** 2
        resp = 1.0 / (1.0 + np.exp(np.clip(a - b, -700, 700)))
        # M: the share, the centre of the own unit's logs, the common spread
        pi_new = float(np.clip(resp.mean(), 1e-6, 0.5))
        mu_new = float(np.mean(x - resp * shift))
        sigma = max(float(np.sqrt(np.mean((1 - resp) * (x - mu_new) ** 2
                                          + resp * (x - mu_new - shift) ** 2))), 1e-3)
        done = abs(mu_new - mu) < 1e-8 and abs(pi_new - pi) < 1e-8
        mu, pi = mu_new, pi_new
        if done:
            break
    a = math.log(1 - pi) - 0.5 * ((x - mu) / sigma) ** 2 - math.log(sigma)
    b = math.log(pi) - 0.5 * ((x - mu - shift) / sigma) ** 2 - math.log(sigma)
    m = np.maximum(a, b)
    gain = float(np.sum(m + np.log(np.exp(a - m) + np.exp(b - m)))) - single
    if not (gain >= MIXED_EVIDENCE and abs(shift) >= separation * sigma
            and pi <= MIXED_MAX_SHARE):
        return None
    return gain, mu, sigma, pi


def _other_unit_share(x: np.ndarray, shift: float, mu: float, sigma: float, pi: float
                      ) -> np.ndarray:
    """Each log value's probability of the shifted (other-unit) part of a fitted
    :func:`_two_units` model."""
    a = math.log(1 - pi) - 0.5 * ((x - mu) / sigma) ** 2
    b = math.log(pi) - 0.5 * ((x - mu - shift) / sigma) ** 2
    return 1.0 / (1.0 + np.exp(np.clip(a - b, -700, 700)))


#: Values no patient can have, whatever their column's spread: ``(name pattern, lowest,
#: highest)``. Walk-through 48's GP export held two ages of 167 (a typo for 67 or 76)
#: that no rule of :mod:`sparge.data.far_values` flagged: 167 is not 5 times the median.
HARD_LIMITS: tuple[tuple[str, float, float], ...] = (
    (r"\bage\b", 0.0, 122.0),  # in years: the oldest recorded person was 122
)
#: Clinical scores with fixed ranges, judged as :data:`HARD_LIMITS` are but with
#: :data:`SCORE_SHARE` inside (a score's slips are more frequent than an age's): walk-
#: through 66's HAQ-DI of 10, 16.25 and 20 (lost decimal points, 1.7 % of the column) on
#: a 0-3 index went unremarked into the look-alike tables.
_RATIO = r"\bfev ?1 ?fvc\b|tiffeneau"
_ARTERIAL = r"(?<!end )(?<!pulmonary artery )(?<!pa )(?<!rv )(?<!ventricular )"
_NOT_PRESSURE = (r"(?! (?:volume|diameter|dimension|function|dysfunction|murmur|index|"
                 r"velocity|area|strain|time|flow|wall))")
SCORE_LIMITS: tuple[tuple[str, float, float], ...] = (
    (r"\bhaq\b", 0.0, 3.0), (r"\bdas ?28\b", 0.0, 10.0), (r"\bbas(?:dai|fi)\b", 0.0, 10.0),
    # walk-through 93's psoriasis clinic: a PASI of 124 (its top is 72), a DLQI of 41
    # (0-30), a body surface area of 150 %
    (r"\bpasi\b(?! ?(?:50|75|90|100)\b)", 0.0, 72.0), (r"\bdlqi\b", 0.0, 30.0),
    (r"\bbsa\b|body surface area(?! \(?m)", 0.0, 100.0), (r"\beasi\b", 0.0, 72.0),
    (r"\bmmse\b", 0.0, 30.0), (r"\bmoca\b", 0.0, 30.0), (r"\bgcs\b|glasgow coma", 3.0, 15.0),
    (r"\bnihss\b", 0.0, 42.0), (r"\bphq ?9\b", 0.0, 27.0), (r"\bgad ?7\b", 0.0, 21.0),
    (r"\bapgar\b", 0.0, 10.0), (r"\bcdai\b", 0.0, 76.0), (r"\bsdai\b", 0.0, 86.0),
    # walk-through 68's IBD activity: a partial Mayo of 17 (its top is 9), an SCCAI of 35
    (r"partial mayo|\bp ?mayo\b|\bpms\b", 0.0, 9.0),
    (r"mayo endoscopic|endoscopic mayo|\bmes\b", 0.0, 3.0), (r"\bmayo\b", 0.0, 12.0),
    (r"\bsccai\b", 0.0, 19.0), (r"\bses ?cd\b", 0.0, 56.0),
    # shares that cannot pass 100 %: walk-through 73's bone marrow plasma cells of 115 %
    # (a cell count in the column is judged by nothing: see _PERCENT_ONLY)
    (r"plasma cells?|\bblasts?\b|cellularity", 0.0, 100.0),
    (r"ejection fraction|\blv ?ef\b", 0.0, 100.0),
    (r"\bsp ?o2\b|\bsa ?o2\b|oxygen saturation|\bo2 sats?\b", 0.0, 100.0),
    # walk-through 79's sleep clinic: an Epworth score of 31 (its top is 24), an ODI of
    # -3 and an AHI of 1500 events an hour (a fast breather's every breath is ~1000)
    (r"\bepworth\b|^ess(?: score)?$", 0.0, 24.0), (r"\bstop ?bang\b", 0.0, 8.0),
    (r"\b(?:ahi|rdi|odi|rei|apno?ea hypopno?ea index|oxygen desaturation index|"
     r"respiratory (?:disturbance|event) index)\b", 0.0, 200.0),
    # walk-through 75's COPD clinic: a CAT score of 52 (its top is 40), an MRC grade of 7
    # (dyspnoea 1-5; a muscle's strength 0-5), an FEV1/FVC of 1.35 (a ratio, at most 1;
    # or 100 as a percentage: the second limit of the same name), eosinophils of -50
    (r"\bcat (?:score|total)\b|copd assessment test", 0.0, 40.0),
    (r"\bm ?mrc\b", 0.0, 4.0),
    (r"\bmrc (?:dyspn\w* )?(?:grade|scale|score|dyspn\w*)\b", 0.0, 5.0),
    (_RATIO, 0.0, 1.0), (_RATIO, 0.0, 100.0),
    # walk-through 87's AF clinic: a platelet count of 0 (a placeholder; a count below 1
    # is written "<1" or "<5"), a CHA2DS2-VASc of 19 and of -1 (0-9), a HAS-BLED of 12
    # (0-9), a time in therapeutic range of 140 %
    # (a count of platelet transfusions or units given may be 0: not judged so)
    (r"\b(?:platelets?|plts?)\b(?!.*\b(?:transfus\w*|units?|given|bags?|pools?|doses?)\b)",
     1.0, math.inf),
    (r"\b(?:eosinophils?|eos|neutrophils?|lymphocytes?|monocytes?|basophils?|"
     r"wbc|white (?:blood )?cells?(?: count)?|leu[ck]ocytes?)\b", 0.0, math.inf),
    (r"\bcha ?2 ?ds ?2 ?vasc\b", 0.0, 9.0), (r"\bchads ?2\b", 0.0, 6.0),
    (r"\bhas ?bled\b", 0.0, 9.0), (r"\bttr\b", 0.0, 100.0),
    (r"time in (?:the )?therapeutic range", 0.0, 100.0),
    # walk-through 77's eye clinic: an eGFR of -5, an intraocular pressure of 150 mmHg
    # (a lost decimal point: 15), a logMAR acuity beyond no perception of light
    (r"(?<!e )\b(?:gfr|crcl|creatinine clearance)\b", 0.0, math.inf),
    # walk-through 94's vascular clinic: an eGFR of 650 (an estimate's top is about 200;
    # a measured clearance, judged above, may be higher) and an ABPI of 6.5 (calcified,
    # incompressible arteries read up to about 2.5)
    (r"\be ?gfr\b", 0.0, 250.0),
    (r"\babpi\b|\babi\b|ankle[ -]brachial", 0.0, 3.0),
    (r"\b(?:iop|intraocular pressure|intra ocular pressure)\b", 0.0, 80.0),
    # and its systolic of 1450 mmHg (a doubled digit)
    # (a blood pressure's: not an end-systolic volume, a pulmonary artery's or the
    # right ventricle's systolic pressure, a diastolic dysfunction's grade)
    (_ARTERIAL + r"\b(?:systolic|sbp)\b" + _NOT_PRESSURE, 30.0, 350.0),
    (_ARTERIAL + r"\b(?:diastolic|dbp)\b" + _NOT_PRESSURE, 20.0, 250.0),
    (r"\b(?:(?:bc|uc|cc|sc|p)?va|visual acuity|logmar)\b", -0.5, 3.0),
    # walk-through 78's joint registry: an Oxford score of 52 (its top is 48), a BMI of
    # 324 (a lost decimal point); EQ-5D's index (UK values from -0.594) and its VAS
    (r"\boxford (?:hip |knee |shoulder )?score\b|\bo[hk]s\b", 0.0, 48.0),
    (r"(?:\bbmi\b|body mass index)(?! (?:centile|percentile|pctl|z|zscore|sds|sd|change|"
     r"delta|for age))", 8.0, 150.0),
    (r"\beq ?5d(?: 5l| 3l)? index\b", -0.6, 1.0), (r"\beq ?vas\b", 0.0, 100.0),
    # walk-through 82's cystic fibrosis clinic: an FEV1 of 950 % predicted (a doubled
    # digit: 95) and a sweat chloride of 1050 mmol/L (the highest seen are about 160)
    (r"\b(?:pp ?)?(?:fev ?1|fvc|tlco|dlco|kco|pef|pefr)(?: ?pp)?\b(?: [a-z]+)?"
     r" (?:pred|predicted|pp|percent predicted)\b|"
     r"\bpp ?(?:fev ?1|fvc)\b|\b(?:fev ?1|fvc) ?pp\b", 0.0, 200.0),
    (r"\bsweat (?:chloride|cl|test)\b", 0.0, 200.0),
    # walk-through 84's transplant clinic: a cold ischaemia time of 300 hours (a kidney
    # is not transplanted after three days) and a tacrolimus trough of 250 µg/L (toxic
    # from about 30; 200 in nmol/L is 161 µg/L)
    (r"\b(?:cit|cold isch\w*(?: time)?)\b(?=.*\b(?:h|hr|hrs|hour|hours)\b)", 0.0, 72.0),
    (r"\b(?:tacrolimus|tac|tacro|fk ?506|prograf|advagraf)\b", 0.0, 200.0),
    # walk-through 85's multiple sclerosis clinic: an EDSS of 45 (its top is 10, in half
    # steps: 4.5), an SDMT of 510 (110 symbols at most); the timed 25-foot walk and the
    # nine-hole peg test stop at 180 and 300 seconds
    (r"\bedss\b|expanded disability status", 0.0, 10.0), (r"\bmsss\b", 0.0, 10.0),
    (r"\bsdmt\b|symbol digit modalit", 0.0, 110.0),
    (r"\bt ?25 ?fw\b|\b25[\s-]?(?:foot|ft)\b|timed 25", 0.0, 180.0),
    (r"\b9 ?hpt\b|\b(?:nine|9)[\s-]?hole peg", 0.0, 300.0),
    # walk-through 86's epilepsy clinic: a sodium of 1380 mmol/L (a doubled digit: 138),
    # an ALT of -12 U/L and an epilepsy duration of -3 years (no patient has them)
    (r"\bsodium\b|^na\b|\bna\+|\bserum na\b", 80.0, 200.0),
    (r"\bpotassium\b|^k\b|\bk\+|\bserum k\b", 1.0, 12.0),
    (r"\b(?:alt|ast|alp|ggt|gamma ?gt|ldh|ck|alanine (?:amino)?transferase|"
     r"aspartate (?:amino)?transferase|alkaline phosphatase)\b", 0.0, math.inf),
    (r"\bduration\b|\byears? since\b|\btime since\b", 0.0, math.inf),
    # walk-through 89's thyroid clinic: a heart rate of 720 bpm (a doubled digit: 72);
    # the fastest conducted rhythms run near 300
    (r"\b(?:heart rate|hr|pulse(?: rate)?|ventricular rate)\b(?!.*\b(?:variab\w*|"
     r"hrv|recovery|reserve|change|delta)\b)", 20.0, 350.0),
    # walk-through 97's Parkinson's clinic: the Hoehn and Yahr stage (1 to 5), the motor
    # examination of the MDS-UPDRS (part III, 0-132; the original UPDRS's is 0-108), the
    # Schwab and England ADL score (0-100 %) and a levodopa equivalent daily dose of
    # 10,700 mg (an extra zero: the largest doses, on an intestinal gel, stay under 4,000)
    (r"hoehn|\bh ?(?:&|and) ?y\b", 0.0, 5.0),
    (r"updrs.{0,12}(?:\biii\b|\b3\b|part ?(?:iii|3)|motor)", 0.0, 132.0),
    (r"schwab", 0.0, 100.0), (r"\bledd\b|levodopa equivalent", 0.0, 4000.0),
    # walk-through 98's cardiac surgery unit: the CCS angina class (0-4) and EuroSCOREs,
    # predicted mortalities in %
    (r"\bccs\b|canadian cardiovascular", 0.0, 4.0), (r"euroscore", 0.0, 100.0))
#: A score's range in its column's name: "TED CAS (0-7)", "Pain [0–10]", "(1 to 5)";
#: judged as :data:`SCORE_LIMITS` are (walk-through 89's CAS of 9 in "TED CAS (0-7)").
_NAME_RANGE = re.compile(r"[(\[]\s*([01])\s*(?:-|–|to)\s*(\d{1,3})\s*[)\]]")
#: The :data:`SCORE_LIMITS` judged only in a column named as a percentage ("BM plasma
#: cells (%)"; "Blasts (x10^9/L)" is a count; "TTR %" a time in range, "TTR" alone may be
#: transthyretin).
_PERCENT_ONLY = frozenset({r"plasma cells?|\bblasts?\b|cellularity",
                           r"\bttr\b"})  # TTR is also transthyretin
_PERCENT_NAME = re.compile(r"%|\bper ?cent\b|\bpct\b", re.IGNORECASE)
SCORE_SHARE = 0.9
#: A column of ages in another unit than years (a gestational age, an age in months).
_NOT_YEARS = re.compile(r"\b(?:months?|mo|mths?|weeks?|wks?|days?|hours?|hrs?|"
                        r"gestation(?:al)?|ga|corrected|postmenstrual|pma)\b")
#: The share of a column's values within its limits for the column to be in that unit
#: ... and how near the limit its values may run: SurvSet's nwtco wrote ages in months
#: under "age" (median 37), 2.6 % of them above 122, running on from the bulk.
HARD_LIMIT_SHARE = 0.99
HARD_LIMIT_GAP = 0.9


def impossible_values(column: str, values) -> np.ndarray:
    """The values outside a column's :data:`HARD_LIMITS`, in a column whose values are
    otherwise in that unit: at least :data:`HARD_LIMIT_SHARE` of them inside, and none
    of those beyond :data:`HARD_LIMIT_GAP` of the limit (an "Age" in months or days is
    judged by nothing).

    Examples
    --------
    >>> ages = [67, 54, 80, 71, 45, 38, 90, 62, 59, 49] * 10 + [167]
    >>> impossible_values("Age", ages).nonzero()[0].tolist()
    [100]
    >>> bool(impossible_values("Age (months)", ages).any())
    False
    >>> impossible_values("Age", [67, 54, 80, 203, 71]).nonzero()[0].tolist()
    [3]
    """
    v = np.asarray(values, dtype=float).ravel()
    out = np.zeros(len(v), bool)
    words = name_words(column)
    finite = np.isfinite(v)
    # an age in months or days is judged by nothing; a score or a time in hours still is
    # (walk-through 84's "CIT (hrs)")
    in_years = not _NOT_YEARS.search(words)
    for pattern, lo, hi in HARD_LIMITS if in_years else ():
        if re.search(pattern, words):
            bad = finite & ((v < lo) | (v > hi))
            inside = v[finite & ~bad]
            # ... one value outside however small the table (walk-through 101's 60-row
            # export trained on an age of 203: 1 of 52 is more than a hundredth)
            if len(inside) and (len(inside) / finite.sum() >= HARD_LIMIT_SHARE
                                or int(bad.sum()) == 1) and \
                    inside.max() <= lo + HARD_LIMIT_GAP * (hi - lo):
                out |= bad
    matched = None  # the first score named; its next limits are its other units
    for pattern, lo, hi in SCORE_LIMITS:
        if matched is not None and pattern != matched:
            break
        if pattern in _PERCENT_ONLY and not _PERCENT_NAME.search(str(column)[:80]):
            continue
        if re.search(pattern, words):
            matched = pattern
            bad = finite & ((v < lo) | (v > hi))
            if finite.sum() and (finite & ~bad).sum() >= SCORE_SHARE * finite.sum():
                out |= bad
                break
    named = _NAME_RANGE.search(str(column)[:120]) if matched is None else None
    if named is not None and int(named.group(1)) < int(named.group(2)):
        lo, hi = float(named.group(1)), float(named.group(2))
        bad = finite & ((v < lo) | (v > hi))
        if finite.sum() and (finite & ~bad).sum() >= SCORE_SHARE * finite.sum():
            out |= bad
    return out


#: A column of the age at an event of the patient's past: "Age at onset (yrs)", "Age at
#: diagnosis", "Onset age".
_AGE_AT_EVENT = re.compile(r"\bage\b.{0,12}\b(?:at|of)\b.{0,12}\b(?:onset|diagnosis|dx|first|"
                           r"start|symptom\w*|presentation)|\bonset age\b|\bage of onset\b",
                           re.IGNORECASE)


def ages_after_age(names: list[str], X: np.ndarray, age: str | None,
                   slack: float = 1.0) -> dict[str, np.ndarray]:
    """The rows whose age at a past event (:data:`_AGE_AT_EVENT`: an onset, a diagnosis)
    is above the patient's age (``age``, a column of ``names``) by more than ``slack``
    years, per such column: one of the two is wrong (walk-through 85's "Age" 4 with an
    onset at 30; walk-through 86's onset at 35 with an age of 23 trained as given).

    Examples
    --------
    >>> X = np.array([[40.0, 30.0], [23.0, 35.0], [50.0, np.nan]])
    >>> {k: v.tolist() for k, v in ages_after_age(["Age", "Age at onset"], X, "Age").items()}
    {'Age at onset': [1]}
    """
    if age is None or age not in names:
        return {}
    a = np.asarray(X[:, names.index(age)], dtype=float)
    out = {}
    for j, name in enumerate(names):
        if name == age or not _AGE_AT_EVENT.search(str(name)[:80]) or \
                _NOT_YEARS.search(str(name).lower()) or _NOT_YEARS.search(str(age).lower()):
            continue  # (an age in months beside one in years is no contradiction)
        rows = np.flatnonzero(np.asarray(X[:, j], dtype=float) > a + slack)
        if len(rows):
            out[name] = rows
    return out
