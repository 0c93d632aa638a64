"""A vasoactive drug's dose, read from a column of the drugs given ("NA 0.29 +
vasopressin", "noradrenaline 0.2 mcg/kg/min", "norad + vaso").

Walk-through 101's ICU register wrote its vasopressors so: the column is read as one
yes/no column per drug (:mod:`sparge.data.answer_lists`), and the noradrenaline dose, a
marker of how sick the patient is, was lost. A drug whose cells write a dose often enough
(:data:`MIN_DOSED_SHARE` of the cells that give it, at least :data:`MIN_DOSED`) also gets
a numeric column, ``"<column>: <drug> dose (<unit>)"``: the dose where written, 0 where
the drug is not given (another drug, or none), a gap where it is given without a dose or
in another unit, and where the cell is empty.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

#: Fewest cells writing a drug's dose for it to get a dose column.
MIN_DOSED = 5
#: Share of the cells giving a drug that must write its dose.
MIN_DOSED_SHARE = 0.3

#: Units of a vasoactive drug's rate, as written, and as shown.
_UNITS = {
    **dict.fromkeys(("mcg/kg/min", "µg/kg/min", "ug/kg/min", "mcg/kg/minute",
                     "microg/kg/min", "micrograms/kg/min", "mcgkgmin", "mcg/kg/m"),
                    "mcg/kg/min"),
    **dict.fromkeys(("mcg/min", "µg/min", "ug/min", "micrograms/min"), "mcg/min"),
    **dict.fromkeys(("u/min", "units/min", "unit/min", "iu/min", "u/minute"), "units/min"),
    **dict.fromkeys(("u/h", "u/hr", "units/h", "units/hr", "units/hour"), "units/h"),
    **dict.fromkeys(("ml/h", "ml/hr", "mls/hr", "ml/hour", "mls/h"), "mL/h"),
    **dict.fromkeys(("mg/h", "mg/hr", "mg/hour"), "mg/h"),
    **dict.fromkeys(("mcg/kg/h", "mcg/kg/hr", "µg/kg/h", "ug/kg/h"), "mcg/kg/h"),
}
_UNIT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
#: A dose in a drug's part of a cell: a number, then a unit or nothing more.
_DOSE = re.compile(rf"(?<![\w.,/x])(\d{{1,4}}(?:[.,]\d{{1,4}})?)\s?(?:({_UNIT})(?![\w/])"
                   r"|(?=\s*$))", re.IGNORECASE)
#: A dose column's answer in a list column's answers: "noradrenaline dose (mcg/kg/min)".
_DOSE_ITEM = re.compile(r"(?P<drug>.+?) dose(?: \((?P<unit>[^()]+)\))?")


def dose_item(drug: str, unit: str | None) -> str:
    """The answer naming a drug's dose column ("noradrenaline dose (mcg/kg/min)")."""
    return f"{drug} dose" + (f" ({unit})" if unit else "")


def parse_dose_item(item: str) -> tuple[str, str | None] | None:
    """The drug and unit of a dose column's answer, or ``None`` for any other answer.

    Examples
    --------
    >>> parse_dose_item("noradrenaline dose (mcg/kg/min)")
    ('noradrenaline', 'mcg/kg/min')
    >>> parse_dose_item("noradrenaline") is None
    True
    """
    m = _DOSE_ITEM.fullmatch(str(item))
    return None if m is None else (m.group("drug"), m.group("unit"))


def part_dose(part: str) -> tuple[float, str | None] | None:
    """The dose a drug's part of a cell writes, with its unit as shown (``None`` when it
    writes none): "noradrenaline 0.2 mcg/kg/min" (0.2, "mcg/kg/min"), "NA 0.29" (0.29,
    None); not "norad 4mg/50ml" (a concentration) nor "noradrenaline x2".

    Examples
    --------
    >>> part_dose("noradrenaline 0.2 mcg/kg/min"), part_dose("NA 0,29")
    ((0.2, 'mcg/kg/min'), (0.29, None))
    >>> part_dose("norad 4mg/50ml") is None, part_dose("noradrenaline x2") is None
    (True, True)
    """
    found = [m for m in _DOSE.finditer(str(part)) if m.start() > 0]
    if len(found) != 1:
        return None
    m = found[0]
    unit = _UNITS.get(m.group(2).lower()) if m.group(2) else None
    return float(m.group(1).replace(",", ".")), unit


def dose_items(cells: Sequence[list[str]], items: Sequence[str],
               drugs_of: Callable[[str], list[str]]) -> dict[str, str]:
    """The dose columns a vasoactive column's cells hold, as ``{drug answer: dose
    answer}``: for each drug of ``items`` given in :data:`MIN_DOSED` cells or more with a
    dose, at least :data:`MIN_DOSED_SHARE` of the cells giving it, in its commonest unit.

    ``cells`` are the cells' parts (one drug or more each); ``drugs_of`` gives the keys
    of the drugs a part names, as the items are keyed.
    """
    keys = {drugs_of(i)[0]: i for i in items if drugs_of(i)}
    given: Counter[str] = Counter()
    doses: dict[str, dict[str | None, list[float]]] = {}
    for parts in cells:
        said = set()
        for part in parts:
            named = [k for k in drugs_of(part) if k in keys]
            said.update(named)
            dose = part_dose(part) if len(named) == 1 else None
            if dose is not None:
                doses.setdefault(named[0], {}).setdefault(dose[1], []).append(dose[0])
        given.update(said)
    out = {}
    for key, item in keys.items():
        written = doses.get(key, {})
        if not written:
            continue
        unit = _unit_of(written)
        n = len(written.get(unit, [])) + (len(written.get(None, [])) if unit else 0)
        if n < MIN_DOSED or n < MIN_DOSED_SHARE * given[key]:
            continue
        out[item] = dose_item(item, unit)
    return out


def _unit_of(doses: dict[str | None, list[float]]) -> str | None:
    """The unit of a drug's doses (``{unit or None: doses}``): of those written, the one
    with most doses, the doses written without a unit counted with it when they lie
    within a factor of 3 of its doses (their medians): "NA 0.29" goes with "0.2
    mcg/kg/min", not with "10 mcg/min" (mcg/kg/min, not mcg/min). ``None`` when no dose
    writes a unit."""
    bare = doses.get(None, [])
    best, most = None, -1
    for unit, values in doses.items():
        if unit is None:
            continue
        n = len(values)
        if bare and min(values) > 0 and min(bare) > 0 and \
                abs(np.log(np.median(values) / np.median(bare))) < np.log(3):
            n += len(bare)
        if n > most:
            best, most = unit, n
    return best


def cell_doses(parts: list[str], named: list[list[str]],
               doses: dict[str, tuple[str, str | None]]) -> dict[str, str]:
    """A cell's value of each dose column (``doses``: ``{dose answer: (drug key,
    unit)}``), from its ``parts`` and the drug keys each names (``named``, as the list's
    answers are keyed): the dose written (in the column's unit, or without one), "0"
    when the drug is not given, "" when it is given without a dose or in another unit."""
    out = {}
    for item, (key, unit) in doses.items():
        value = "0"
        for part, keys in zip(parts, named, strict=True):
            if key not in keys:
                continue
            dose = part_dose(part) if len(keys) == 1 else None
            value = "" if dose is None or dose[1] not in (None, unit) else f"{dose[0]:g}"
            break
        out[item] = value
    return out


__all__ = ["MIN_DOSED", "MIN_DOSED_SHARE", "cell_doses", "dose_item", "dose_items",
           "parse_dose_item", "part_dose"]
