"""A performance test the patient could not do ("unable" in a timed up-and-go).

Walk-through 47's frailty clinic wrote "unable" in its timed up-and-go and gait speed
columns for the patients who could not walk. Read as gaps, they took the frailest patients
out of training (the missing-values threshold left out 72–78 % of those with a Clinical
Frailty Scale of 8–9) and gave the rest of them a completed, typical value. "Unable" is
the worst result, not an unknown one: in a column of a performance test, recognised by
its name, it reads as the worst result the column writes (the slowest time, the shortest
distance, the weakest grip), a value among the column's own, so no far value is made
and the scale of the column is kept.
"""

from __future__ import annotations

import functools
import re

import numpy as np

#: Tests timed to completion: a longer time is worse.
_TIMED = re.compile(
    r"\b(?:tug|timed up(?: and| &|-and-| n)? ?go|up(?: and| &|-and-) ?go|"
    r"(?:5|five)[ -]?(?:x|times?)?[ -]?(?:sit|chair)[ -]?(?:to|-)?[ -]?stand|5 ?x ?sts|"
    r"ftsst|sit[ -]?to[ -]?stand(?: test)? time|chair (?:rise|stand)s? time|"
    r"(?:4|6|8|10|four|six|ten)[ -]?(?:m|metre|meter)s?[ -]?walk(?: test)?(?: time)?|"
    r"walk(?:ing)? time|stair climb(?: test)?(?: time)?|"
    # multiple sclerosis' timed 25-foot walk and nine-hole peg test (walk-through 85:
    # "unable" in the T25FW of its most disabled patients was set to missing)
    r"t ?25 ?fw|(?:timed )?25[ -]?(?:foot|ft|feet)(?: timed)? walk|9 ?hpt|"
    r"(?:nine|9)[ -]?hole peg(?: test)?)\b")
#: Tests scored by what the patient managed: a smaller value is worse.
_MANAGED = re.compile(
    r"\b(?:gait speed|gaitspeed|walking speed|walk speed|usual gait speed|"
    r"(?:6|six)[ -]?min(?:ute)?s?[ -]?walk(?:ing)?(?: test| distance)?|6mwt|6mwd|"
    r"walk(?:ing)? distance|shuttle walk(?: test)?|iswt|eswt|"
    # a vascular clinic's claudication distance (walk-through 94): how far the patient
    # walks before the calf pain stops them
    r"(?:initial |absolute |max(?:imum)? |pain[ -]?free )?claudication(?: walking)? "
    r"distance|claudication distance \w+|"
    r"(?:hand ?)?grip(?: strength)?|handgrip|"
    r"(?:30|thirty)[ -]?s(?:ec(?:ond)?s?)?[ -]?(?:chair stands?|sit[ -]?to[ -]?stand)|"
    r"chair stands?(?: count)?|sppb|short physical performance(?: battery)?)\b")

#: How a cell says the patient could not do the test ("unable", "could not complete",
#: "non-ambulant", "unable - pain").
UNABLE = re.compile(
    r"(?:pt |patient )?(?:unable|not able|could ?not|couldn'?t|cannot|can'?t|did not|"
    r"didn'?t|failed|incapable)(?: to)?(?: (?:complete|perform|do|walk|stand|mobili[sz]e|"
    r"rise|finish|attempt|get up|weight ?bear))?(?: (?:the )?(?:test|it|unaided))?|"
    r"non[ -]?ambulant|non[ -]?ambulatory|not ambulant|not ambulatory|not mobile|"
    r"immobile|bed ?bound|chair ?bound|wheelchair ?bound|(?:uses a )?wheelchair(?: user)?|"
    r"w/?c(?: bound| user)?|nwb|"
    # pain at rest (walk-through 94's claudication distances): no distance walked free
    # of pain, the worst result
    r"(?:ischa?emic |critical )?rest pain(?: only)?|pain at rest|(?:cli|clti)(?: rest pain)?")
#: How a cell says the patient's walking is not limited ("unlimited", "no claudication"):
#: the best result of a distance walked (walk-through 94's claudication distances).
UNLIMITED = re.compile(
    r"(?:walking )?(?:unlimited|not limited|no limit(?:ation)?|unrestricted|no claudication|"
    r"asymptomatic|no symptoms)(?: walking)?(?: distance)?")
_REASON = re.compile(r"(.{1,60}?)(?:\s*[-–:(,/]\s*[a-z][a-z' ]{0,30}\)?)?")
#: A worst result is read only among this many values written, at least.
MIN_VALUES = 5
#: Values beyond the quartile by this many interquartile ranges are not a worst result
#: but a typo or another unit (:mod:`sparge.data.far_values` lists them).
FENCE = 3.0


@functools.lru_cache(maxsize=4096)
def performance_direction(column: object) -> int:
    """Which end of a performance test's column is the worse result, by its name.

    Parameters
    ----------
    column : object
        The column's name.

    Returns
    -------
    int
        ``1`` for a test timed to completion (a timed up-and-go: longer is worse), ``-1``
        for one scored by what the patient managed (gait speed, a walk's distance, grip
        strength: less is worse), ``0`` for any other column.
    """
    name = re.sub(r"[_\s]+", " ", str(column).lower())[:120]
    if _MANAGED.search(name):
        return -1
    if _TIMED.search(name):
        return 1
    return 0


def is_unable(cell: str) -> bool:
    """Whether a cell says that the patient could not do the test (a reason after a dash
    or in brackets is allowed: "unable - pain", "could not stand (dizzy)")."""
    text = re.sub(r"\s+", " ", str(cell).strip().lower().rstrip("."))[:100]
    m = _REASON.fullmatch(text)
    return bool(UNABLE.fullmatch(text) or (m and UNABLE.fullmatch(m.group(1).strip())))


def is_unlimited(cell: str) -> bool:
    """Whether a cell says that the patient's walking is not limited ("unlimited", "no
    claudication"), in a column of distances walked."""
    text = re.sub(r"\s+", " ", str(cell).strip().lower().rstrip("."))[:60]
    return UNLIMITED.fullmatch(text) is not None


def best_result(values: np.ndarray, direction: int) -> float | None:
    """The best result a performance test's column writes (:func:`worst_result` at the
    other end): its largest distance for a test scored by what the patient managed
    (``direction`` -1), which "unlimited" reads as; ``None`` for a timed test."""
    return worst_result(values, 1) if direction < 0 else None


def worst_result(values: np.ndarray, direction: int) -> float | None:
    """The worst result a performance test's column writes: its largest value for a
    timed test (``direction`` 1), its smallest for one scored by what the patient managed
    (-1), leaving out values beyond :data:`FENCE` interquartile ranges of the quartiles.

    Parameters
    ----------
    values : ndarray of float
        The column's values (NaN for gaps).
    direction : int
        :func:`performance_direction` of the column.

    Returns
    -------
    float or None
        ``None`` when the column writes fewer than :data:`MIN_VALUES` values or is no
        performance test.
    """
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if direction == 0 or len(x) < MIN_VALUES:
        return None
    q1, q3 = np.percentile(x, [25, 75])
    spread = FENCE * (q3 - q1)
    inside = x[(x >= q1 - spread) & (x <= q3 + spread)]
    return float(inside.max() if direction > 0 else inside.min())
