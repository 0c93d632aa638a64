"""A never-smoker's pack-years: none smoked, 0, however the cell is left.

Walk-through 103's COPD register wrote the pack-years of its never-smokers as "n/a",
"-" or nothing (19 of 24; 5 wrote "0"). Read as gaps, the model completed them from
each patient's other values, as if the number were unknown: a never-smoker's look-alikes
were then matched on a guessed smoking history. A clinician reads such a cell as 0,
and the smoking column beside it says so. Where a table has a pack-years column and a
smoking status column, a gap in the pack-years of a patient whose status says never
smoked is 0; a number written stays as written, and a smoker's gap stays a gap.

The functions are pure and take arrays; :class:`~sparge.data.encoder.Encoder` keeps the
rule found at fit (``never_smoked_``) and applies it to new patients too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from sparge.data.levels import smoking_column, smoking_status
from sparge.data.parsing import PACK_YEARS_NAME
from sparge.data.tables import norm_key


def find_never_smoked(features: Sequence[str], roles: Mapping[str, str],
                      levels: Mapping[str, Mapping[str, float]]) -> dict:
    """The rule joining a pack-years column to a smoking status column: ``{"pack_years":
    column, "smoking": column, "never": [codes]}``, the codes of the smoking column's
    answers that say never smoked ("Never", "never smoked", "lifelong non smoker"); ``{}``
    without a numeric pack-years column, a categorical smoking column or a never answer.

    Parameters
    ----------
    features : sequence of str
        The encoded features, in order.
    roles : mapping
        ``{feature: role}`` ("numeric", "categorical", …).
    levels : mapping
        ``{categorical feature: {answer as written: code}}``.
    """
    packs = [f for f in features if roles.get(f) == "numeric" and PACK_YEARS_NAME.search(f)]
    smoking = [f for f in features if roles.get(f) == "categorical" and smoking_column(f)
               and not PACK_YEARS_NAME.search(f) and f in levels]
    if len(packs) != 1 or not smoking:
        return {}
    for col in smoking:
        never = sorted({float(code) for answer, code in levels[col].items()
                        if smoking_status(norm_key(answer)) == "never"})
        if never:
            return {"pack_years": packs[0], "smoking": col, "never": never}
    return {}


def fill_never_smoked(X: np.ndarray, features: Sequence[str], rule: Mapping | None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """``X`` with the pack-years gaps of never-smokers set to 0 (a copy when any is), and
    the rows set; the rule of :func:`find_never_smoked` (nothing without one, or when a
    column of it is not among ``features``)."""
    if not rule or rule["pack_years"] not in features or rule["smoking"] not in features:
        return X, np.zeros(len(X), dtype=bool)
    p, s = list(features).index(rule["pack_years"]), list(features).index(rule["smoking"])
    rows = np.isnan(X[:, p]) & np.isin(X[:, s], np.asarray(rule["never"], dtype=float))
    if not rows.any():
        return X, rows
    X = X.copy()
    X[rows, p] = 0.0
    return X, rows
