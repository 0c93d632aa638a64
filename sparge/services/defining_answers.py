"""Look-alikes of another kind of patient: a lung cancer patient's look-alikes with breast
and ovarian cancer.

The learned similarity weighs what tells the outcomes apart; it does not require the
look-alikes to share a patient's diagnosis group, tumour site or dialysis modality
(walk-through 54: a lung patient's ten look-alikes included breast and ovary patients, and
nothing on the page said so). A clinician reads look-alikes as patients "like this one",
so when most of them differ on a column that sorts the cohort into kinds of patients, the
page says so and offers to match on it (:mod:`sparge.services.matching`).

A column *sorts the cohort into kinds* when its answers decide what else is measured or
its level: at least :data:`MIN_DECIDED` other biomarkers whose measured-or-not, or whose
values, its answers explain for the most part (a correlation ratio η² of at least
:data:`DECIDES_ETA2`: an oestrogen receptor status measured only for breast cancer, a
CA-125 only for ovarian cancer, a Kt/V only on haemodialysis; SUPPORT's disease group
decides its disease class, η² 1.0, and whether the patient has cancer, 0.48). An
ethnicity or a referral source decides nothing of the sort (η² below 0.05 on SUPPORT's
and the bundled sample's columns) and is never named, whatever the look-alikes' answers.
Only unordered categories of three or more answers are judged: a yes/no or an ordered
scale is already compared in the biomarker table, in counts or standard deviations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sparge.data.tables import scale_of
from sparge.services.display import biomarker_name, category_words

#: A correlation ratio this high: the answers explain most of the other biomarker.
DECIDES_ETA2 = 0.4
#: Other biomarkers a column must decide to sort the cohort into kinds.
MIN_DECIDED = 2
#: Answers given by fewer patients are left out of the correlation ratio (too few to
#: show a difference of kind).
MIN_GROUP = 5
#: Most columns named for one patient's look-alikes.
MAX_NAMED = 3


def _eta2(codes: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Correlation ratio η² of each column of ``Y`` on the groups ``codes`` (0..k-1; -1
    left out), over the rows where the column is finite: between-group sum of squares over
    the total. NaN for a column without spread or with fewer than two groups seen."""
    n, m = Y.shape
    out = np.full(m, np.nan)
    if n == 0 or m == 0:
        return out
    keep = codes >= 0
    codes, Y = codes[keep], Y[keep]
    k = int(codes.max()) + 1 if codes.size else 0
    if k < 2:
        return out
    seen = np.isfinite(Y)
    Y0 = np.where(seen, Y, 0.0)
    H = np.zeros((codes.size, k))
    H[np.arange(codes.size), codes] = 1.0
    counts = H.T @ seen                          # (k, m) patients measured per group
    sums = H.T @ Y0                              # (k, m)
    total_n = counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        grand = sums.sum(axis=0) / total_n
        group_mean = sums / counts
        between = np.nansum(counts * (group_mean - grand) ** 2, axis=0)
        total = (Y0 ** 2).sum(axis=0) - total_n * grand ** 2
        eta = between / total
    groups_seen = (counts > 0).sum(axis=0)
    valid = (total > 1e-12 * np.maximum(total_n, 1)) & (groups_seen >= 2)
    out[valid] = np.clip(eta[valid], 0.0, 1.0)
    return out


def defining_columns(values: pd.DataFrame, encoder=None) -> list[str]:
    """The unordered category columns of ``values`` (the training patients' values, codes
    for categories) that sort the cohort into kinds of patients (module docstring).

    Parameters
    ----------
    values : DataFrame (n_train, m)
        The training patients' values in original units, categories as their codes.
    encoder : the model's encoder (its categories and their order), or None (none found)
    """
    table = getattr(encoder, "table_", None)
    if encoder is None or table is None or values.shape[0] == 0:
        return []
    X = values.to_numpy(dtype=float)
    measured = np.isfinite(X).astype(float)
    found = []
    for j, col in enumerate(values.columns):
        words = category_words(encoder, str(col))
        if not words or len(words) < 3 or scale_of(words.values()) == "yes/no":
            continue
        if getattr(table, "is_ordered", lambda c: False)(str(col)):
            continue
        x = np.rint(X[:, j])  # codes, as stored (3.0000000238) or snapped
        ok = np.isfinite(x)
        codes = np.full(x.size, -1)
        answers, inverse, sizes = np.unique(x[ok], return_inverse=True, return_counts=True)
        big = sizes >= MIN_GROUP
        if big.sum() < 2:
            continue
        relabel = np.where(big, np.cumsum(big) - 1, -1)
        codes[ok] = relabel[inverse]
        others = np.arange(X.shape[1]) != j
        on_values = _eta2(codes, X[:, others])
        on_measured = _eta2(codes, measured[:, others])
        decided = np.fmax(on_values, on_measured) >= DECIDES_ETA2
        if int(decided.sum()) >= MIN_DECIDED:
            found.append(str(col))
    return found


@dataclass(frozen=True)
class OtherKind:
    """Look-alikes of whom most give another answer than the patient's.

    Attributes
    ----------
    feature : the column
    name : its name as shown
    answer : the patient's answer
    same : look-alikes with the patient's answer
    measured : look-alikes with an answer
    others : the look-alikes' other answers, most common first, with their counts
    """

    feature: str
    name: str
    answer: str
    same: int
    measured: int
    others: tuple[tuple[str, int], ...]

    def sentence(self) -> str:
        """One line (plain text): "'Primary site' Lung: 3 of the 10 look-alikes; the
        others Breast 4, Ovary 3"."""
        rest = ", ".join(f"{w} {c}" for w, c in self.others[:4])
        if len(self.others) > 4:
            rest += ", …"
        return (f"'{self.name}' {self.answer}: {self.same} of the {self.measured} "
                f"look-alikes with an answer; the others {rest}")


def other_kinds(query, neighbours: pd.DataFrame, columns: Sequence[str], encoder=None,
                matched: Sequence[str] = ()) -> list[OtherKind]:
    """The ``columns`` (:func:`defining_columns`) on which fewer than half of the
    look-alikes with an answer share the patient's, most differing first, at most
    :data:`MAX_NAMED`; those already matched on (``matched``) and those the patient has
    no answer for are skipped.

    Parameters
    ----------
    query : array-like (m,), the patient's values (codes), NaN gaps, in ``neighbours``'
        column order
    neighbours : DataFrame (n_lookalikes, m), the look-alikes' values
    """
    q = np.asarray(query, dtype=float).ravel()
    names = [str(c) for c in neighbours.columns]
    found = []
    for col in columns:
        if col in matched or col not in names:
            continue
        j = names.index(col)
        if not np.isfinite(q[j]):
            continue
        x = np.rint(neighbours.iloc[:, j].to_numpy(dtype=float))
        x = x[np.isfinite(x)]
        if x.size == 0:
            continue
        mine = float(np.rint(q[j]))
        same = int(np.sum(x == mine))
        if 2 * same >= x.size:
            continue
        words = category_words(encoder, col) or {}
        codes, counts = np.unique(x[x != mine], return_counts=True)
        order = np.lexsort((codes, -counts))
        others = tuple((words.get(int(codes[i]), f"{codes[i]:g}"), int(counts[i]))
                       for i in order)
        found.append(OtherKind(col, biomarker_name(col, encoder),
                               words.get(int(mine), f"{mine:g}"), same, int(x.size),
                               others))
    found.sort(key=lambda o: (o.same / o.measured, -o.measured))
    return found[:MAX_NAMED]


def other_kinds_message(found: Sequence[OtherKind]) -> str:
    """What the page says of ``found`` (plain text), or ``""``."""
    if not found:
        return ""
    lines = "; ".join(o.sentence() for o in found)
    return ("Most look-alikes differ from this patient in a column that sorts the cohort "
            f"into kinds of patients: {lines}. The similarity weighs what tells the "
            "outcomes apart, not the kind of patient; to see only patients with the same "
            "answer, match on it.")
