"""Look-alikes matched exactly on some biomarkers: the same sex, an age within five years.

The learned metric weighs what tells the outcomes apart; a clinician often also wants the
look-alikes of a two-year-old to be toddlers, or of a woman to be women, whatever the
metric weighs (walk-through 42: a 2-year-old's look-alikes under the supervised metric were
3 to 10 years old). The user names the biomarkers to match on; the look-alikes are then
searched, under the same metric, among the training patients that match
(:meth:`sparge.SparGE.lookalikes` with ``candidates``). A category (or a 0/1 flag) matches
on the same answer, a number within a distance in its own units. A training patient with
no value for a matched biomarker cannot be shown to match and is left out; a patient with
no value for it is not matched on it (and is told so).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sparge.data.number_format import format_number
from sparge.services.display import biomarker_name, category_words, format_value

#: Steps a default distance is rounded down to (times a power of ten).
_NICE = (1.0, 2.0, 2.5, 5.0)


def matched_on_answer(feature: str, encoder=None, flags: frozenset[str] = frozenset()
                      ) -> bool:
    """True when ``feature`` is matched on the same answer (a category, or a 0/1 flag),
    False when on a distance (a number)."""
    return bool(category_words(encoder, feature)) or str(feature) in flags


def default_within(values) -> float:
    """A first distance to match a number within: about half its standard deviation among
    the training patients, rounded down to 1, 2, 2.5 or 5 times a power of ten (an adult
    cohort's age, SD 15: within 5 years; a children's clinic's, SD 3: within 1 year).
    Never zero: 1 for a column without spread."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    sd = float(np.std(x)) if x.size > 1 else 0.0
    if not math.isfinite(sd) or sd <= 0:
        return 1.0
    half = sd / 2
    power = 10.0 ** math.floor(math.log10(half))
    step = max(s for s in _NICE if s * power <= half * (1 + 1e-9))
    return float(step * power)


@dataclass
class Match:
    """The training patients that match a patient on the chosen biomarkers.

    Attributes
    ----------
    candidates : bool ndarray of shape (n_train,) or None
        Who may be a look-alike; ``None`` when no condition applies (the patient has no
        value for any chosen biomarker, or none was chosen).
    conditions : list of str
        The conditions applied, as read ("Sex: Female", "Age: 47 to 57").
    skipped : list of str
        The chosen biomarkers the patient has no value for (not matched on).
    n_candidates : int
        Matching training patients, the patient itself left out.
    n_train : int
        Training patients, the patient itself left out.
    """

    candidates: np.ndarray | None
    conditions: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    n_candidates: int = 0
    n_train: int = 0

    @property
    def active(self) -> bool:
        """Whether some condition restricts the look-alikes."""
        return self.candidates is not None

    @property
    def none_match(self) -> bool:
        """Conditions apply and no other training patient meets them."""
        return self.active and self.n_candidates == 0

    @property
    def restriction(self) -> np.ndarray | None:
        """The ``candidates`` to search among, or ``None`` to search every training
        patient (no condition, or nobody else meets them)."""
        return None if self.none_match else self.candidates

    @property
    def applied(self) -> list[str]:
        """The conditions the look-alikes were drawn under (none when nobody matched and
        every training patient was searched)."""
        return [] if self.restriction is None else list(self.conditions)

    @property
    def file_note(self) -> str:
        """What a downloaded look-alike list was drawn under, for its *Matched on* column:
        the conditions applied, or that nobody matched them and every training patient was
        searched (walk-through 44's file of that case said nothing), or ``""``."""
        if not self.active:
            return ""
        said = "; ".join(self.conditions)
        if self.none_match:
            return f"nobody matched ({said}): drawn from all training patients"
        return said

    def message(self, n_neighbors: int) -> str:
        """What the look-alike list below is drawn from, in one paragraph (plain text)."""
        said = []
        if self.active:
            who = " and ".join(self.conditions)
            if self.none_match:
                said.append(f"No other training patient matches ({who}): the look-alikes "
                            f"below are from all {self.n_train:,} training patients. "
                            "Widen a distance or match on fewer biomarkers.")
            else:
                said.append(f"Look-alikes only among the {self.n_candidates:,} of "
                            f"{self.n_train:,} training patients that match ({who}); "
                            "patients without a value for a matched biomarker are left "
                            "out.")
                if self.n_candidates < n_neighbors:
                    said.append(f"Only {self.n_candidates:,} match: all are listed.")
        if self.skipped:
            names = ", ".join(self.skipped)
            said.append(f"Not matched on {names}: this patient has no value for "
                        f"{'it' if len(self.skipped) == 1 else 'them'}.")
        return " ".join(said)


def match_patients(values: pd.DataFrame, query, features: Sequence[str],
                   within: Mapping[str, float] | None = None, encoder=None,
                   flags: frozenset[str] = frozenset(), own: int | None = None) -> Match:
    """The training patients that match ``query`` on ``features``.

    Parameters
    ----------
    values : DataFrame of shape (n_train, m)
        The training patients' values in original units (category codes), ``NaN`` gaps;
        its columns are the model's features.
    query : array-like of shape (m,)
        The patient's values, in the same units and order.
    features : sequence of str
        The biomarkers to match on (columns of ``values``).
    within : mapping feature -> float, optional
        For a number: the largest difference, in its units, of a matching patient (default
        :func:`default_within`). Not used for a category or a 0/1 flag, matched on the
        same answer (see :func:`matched_on_answer`).
    encoder : the model's encoder (names categories and units) or None
    flags : the 0/1 flag columns (:func:`sparge.services.display.flag_columns`)
    own : int, optional
        The patient's own training index (a training patient): not counted as a match.

    Returns
    -------
    Match
    """
    names = list(values.columns)
    q = np.asarray(query, dtype=float).ravel()
    if q.size != len(names):
        raise ValueError(f"the patient has {q.size} values, the training patients "
                         f"{len(names)} columns")
    unknown = [f for f in features if f not in names]
    if unknown:
        raise ValueError(f"not a biomarker of the model: {unknown[0]!r}")
    within = dict(within or {})
    n = len(values)
    keep = np.ones(n, dtype=bool)
    conditions, skipped = [], []
    for feature in dict.fromkeys(features):
        j = names.index(feature)
        label = biomarker_name(feature, encoder)
        if not np.isfinite(q[j]):
            skipped.append(label)
            continue
        col = values[feature].to_numpy(dtype=float)
        if matched_on_answer(feature, encoder, flags):
            keep &= np.isclose(col, q[j], rtol=0.0, atol=1e-6)
            conditions.append(f"{label}: {format_value(q[j], feature, encoder)}")
            continue
        tol = within.get(feature)
        tol = default_within(col) if tol is None else float(tol)
        if not math.isfinite(tol) or tol < 0:
            raise ValueError(f"the distance to match {feature!r} within must be a "
                             f"number >= 0, got {tol!r}")
        # a hair of slack: 52 within 5 keeps a snapped 47.000000001
        slack = 1e-9 * max(abs(q[j]), tol, 1.0)
        keep &= np.abs(col - q[j]) <= tol + slack
        conditions.append(f"{label}: {format_number(q[j] - tol)} to "
                          f"{format_number(q[j] + tol)}" if tol > 0 else
                          f"{label}: {format_number(q[j])}")
    n_train = n - (own is not None)
    if not conditions:
        return Match(None, [], skipped, n_train, n_train)
    # the patient itself stays a candidate (the search drops it) but is not counted
    others = int(keep.sum()) - int(own is not None and keep[own])
    return Match(keep, conditions, skipped, others, n_train)
