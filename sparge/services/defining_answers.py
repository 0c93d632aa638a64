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

Answers are compared by *kind*, not as words (walk-through 57: a dialysis unit's warning
fired for every patient, haemodiafiltration against haemodialysis, a transplant waiting
list's "work up" against "active"): two answers are of one kind when their patients are
measured alike on every biomarker the column decides, and alike in it (:func:`_kinds`);
and of two columns whose answers go together (a dialysis access and the modality) only
the one whose look-alikes differ most is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.stats.contingency import association

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
MAX_NAMED = 2


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


@dataclass(frozen=True)
class DefiningColumn:
    """A column that sorts the cohort into kinds of patients.

    Attributes
    ----------
    feature : the column
    kinds : ``{answer code: kind}``: answers of one kind decide alike what else is
        measured and its level (haemodialysis and haemodiafiltration; peritoneal dialysis
        and its APD and CAPD), answers of too few patients have none
    linked : the other such columns whose answers go with this one's (Cramér's V of at
        least :data:`LINKED_V`: a dialysis access with its modality), named only once
    decides : the biomarkers whose measured-or-not or values its answers explain
    """

    feature: str
    kinds: dict[int, int]
    linked: tuple[str, ...] = ()
    decides: tuple[str, ...] = ()


#: Two answers are of one kind when, on every biomarker the column decides, the shares
#: of their patients measured differ by less than this ...
KIND_MEASURED = 0.5
#: ... their means by less than this many standard deviations (a number) ...
KIND_SD = 1.0
#: ... and their answers' distributions by less than this total variation (a category).
KIND_TV = 0.5
#: Columns whose answers go together this much (Cramér's V) are named once.
LINKED_V = 0.5


def _kinds(codes: np.ndarray, k: int, Y: np.ndarray, categorical: np.ndarray,
           on_measured: np.ndarray, on_values: np.ndarray) -> np.ndarray:
    """A kind for each of the ``k`` answer groups (``codes`` 0..k-1, -1 none), by the
    decided biomarkers ``Y`` (their columns: ``categorical`` or not, and whether each is
    decided by being measured or by its values)."""
    seen = np.isfinite(Y)
    members = [codes == g for g in range(k)]
    share = np.array([seen[m].mean(axis=0) for m in members])        # (k, d)
    sd = np.nanstd(Y, axis=0)
    profile = []
    for t in range(Y.shape[1]):
        col = Y[:, t]
        if categorical[t]:
            answers = np.unique(col[np.isfinite(col)])
            dist = np.array([[np.mean(col[m & seen[:, t]] == a) if (m & seen[:, t]).sum()
                              >= MIN_GROUP else np.nan for a in answers] for m in members])
            profile.append(dist)
        else:
            mean = np.array([np.mean(col[m & seen[:, t]]) if (m & seen[:, t]).sum()
                             >= MIN_GROUP else np.nan for m in members])
            profile.append(mean / sd[t] if sd[t] > 0 else np.full(k, np.nan))
    alike = np.eye(k, dtype=bool)
    for a in range(k):
        for b in range(a + 1, k):
            same = True
            for t in range(Y.shape[1]):
                if on_measured[t] and abs(share[a, t] - share[b, t]) >= KIND_MEASURED:
                    same = False
                elif on_values[t]:
                    pa, pb = profile[t][a], profile[t][b]
                    gap = (0.5 * np.sum(np.abs(pa - pb)) if categorical[t]
                           else abs(float(pa - pb)))
                    if np.isfinite(gap) and gap >= (KIND_TV if categorical[t] else KIND_SD):
                        same = False
                if not same:
                    break
            alike[a, b] = same
    # kinds: the answers joined by "of one kind", directly or through another
    return connected_components(csr_matrix(alike), directed=False)[1]


def _cramers_v(a: np.ndarray, b: np.ndarray) -> float:
    """Cramér's V of two columns of codes over the rows where both are given."""
    ok = np.isfinite(a) & np.isfinite(b)
    if ok.sum() < 2 * MIN_GROUP:
        return 0.0
    table = pd.crosstab(a[ok], b[ok]).to_numpy()
    if min(table.shape) < 2:
        return 0.0
    return float(association(table, method="cramer"))


def defining_columns(values: pd.DataFrame, encoder=None) -> list[DefiningColumn]:
    """The unordered category columns of ``values`` (the training patients' values, codes
    for categories) that sort the cohort into kinds of patients (module docstring), with
    their answers' kinds.

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
    is_category = np.array([bool(category_words(encoder, str(c))) for c in values.columns])
    found: list[tuple[int, DefiningColumn]] = []
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
        others = np.flatnonzero(np.arange(X.shape[1]) != j)
        on_values = _eta2(codes, X[:, others]) >= DECIDES_ETA2
        on_measured = _eta2(codes, measured[:, others]) >= DECIDES_ETA2
        decided = on_values | on_measured
        if int(decided.sum()) < MIN_DECIDED:
            continue
        kind = _kinds(codes, int(big.sum()), X[:, others[decided]],
                      is_category[others[decided]], on_measured[decided], on_values[decided])
        if len(set(kind.tolist())) < 2:
            continue  # its answers differ, not in what else is measured
        kinds = {int(a): int(kind[relabel[i]]) for i, a in enumerate(answers) if big[i]}
        decides = tuple(str(values.columns[i]) for i in others[decided])
        found.append((j, DefiningColumn(str(col), kinds, decides=decides)))
    out = []
    for j, column in found:
        linked = tuple(other.feature for i, other in found if i != j
                       and _cramers_v(X[:, j], X[:, i]) >= LINKED_V)
        out.append(DefiningColumn(column.feature, column.kinds, linked, column.decides))
    return out


@dataclass(frozen=True)
class OtherKind:
    """Look-alikes of whom most are of another kind than the patient on a column.

    Attributes
    ----------
    feature : the column
    name : its name as shown
    answer : the patient's answer
    same : look-alikes of the patient's kind (its answer or one of the same kind)
    measured : look-alikes with an answer of a known kind
    others : the look-alikes' answers of another kind, most common first, with counts
    alike : the other answers of the patient's kind (none: its own answer only)
    decides : the biomarkers the column decides, as shown
    """

    feature: str
    name: str
    answer: str
    same: int
    measured: int
    others: tuple[tuple[str, int], ...]
    alike: tuple[str, ...] = ()
    decides: tuple[str, ...] = ()

    def sentence(self) -> str:
        """One line (plain text): "'Primary site' Lung: 3 of the 10 look-alikes with an
        answer have it; the others Breast 4, Ovary 3 (its answers go with 'ER status',
        'CA-125')"; "'Mechanical ventilation' HFNO: 4 of the 10 look-alikes with an answer
        have HFNO, No or NIV (answers of one kind); the others Invasive 6"."""
        rest = ", ".join(f"{w} {c}" for w, c in self.others[:4])
        if len(self.others) > 4:
            rest += f" and {len(self.others) - 4} other answer(s)"
        # walk-through 73 read "3 of the 10 (Dara-VRd or 5 answers of its kind)" as 3
        # with Dara-VRd, where 1 had it: the answers of its kind are said
        # walk-through 101b read "have it or No or NIV" as a sentence about "No": the
        # answers are named, the patient's first
        kind = (f"have {self.answer} or {self.alike[0]} (answers of one kind)"
                if len(self.alike) == 1
                else f"have {self.answer}, {', '.join(self.alike[:-1])} or "
                     f"{self.alike[-1]} (answers of one kind)" if len(self.alike) == 2
                else f"have {self.answer} or one of {len(self.alike)} answers of its kind "
                     f"({', '.join(self.alike[:3])} …)" if self.alike else "have it")
        goes = ""
        if self.decides:
            shown = ", ".join(f"'{d}'" for d in self.decides[:3])
            more = f" and {len(self.decides) - 3} more" if len(self.decides) > 3 else ""
            goes = f" (its answers go with {shown}{more})"
        return (f"'{self.name}' {self.answer}: {self.same} of the {self.measured} "
                f"look-alikes with an answer {kind}; the others {rest}{goes}")


def other_kinds(query, neighbours: pd.DataFrame, columns: Sequence[DefiningColumn],
                encoder=None, matched: Sequence[str] = ()) -> list[OtherKind]:
    """The ``columns`` (:func:`defining_columns`) on which fewer than half of the
    look-alikes with an answer are of the patient's kind, most differing first, at most
    :data:`MAX_NAMED`, a column linked to one named (or matched on) not named again;
    those matched on (``matched``) and those the patient has no answer of a known kind
    for are skipped.

    Parameters
    ----------
    query : array-like (m,), the patient's values (codes), NaN gaps, in ``neighbours``'
        column order
    neighbours : DataFrame (n_lookalikes, m), the look-alikes' values
    """
    q = np.asarray(query, dtype=float).ravel()
    names = [str(c) for c in neighbours.columns]
    found = []
    for column in columns:
        col = column.feature
        if col in matched or col not in names or set(column.linked) & set(matched):
            continue
        j = names.index(col)
        if not np.isfinite(q[j]) or int(np.rint(q[j])) not in column.kinds:
            continue
        mine = int(np.rint(q[j]))
        x = np.rint(neighbours.iloc[:, j].to_numpy(dtype=float))
        x = x[np.isfinite(x)].astype(int)
        x = x[[int(v) in column.kinds for v in x]]
        if x.size == 0:
            continue
        own_kind = column.kinds[mine]
        alike = np.array([column.kinds[int(v)] == own_kind for v in x], dtype=bool)
        same = int(alike.sum())
        if 2 * same >= x.size:
            continue
        words = category_words(encoder, col) or {}
        codes, counts = np.unique(x[~alike], return_counts=True)
        order = np.lexsort((codes, -counts))
        others = tuple((words.get(int(codes[i]), f"{codes[i]}"), int(counts[i]))
                       for i in order)
        kin = tuple(words.get(c, str(c)) for c in sorted(column.kinds)
                    if c != mine and column.kinds[c] == own_kind)
        found.append((OtherKind(col, biomarker_name(col, encoder),
                                words.get(mine, str(mine)), same, int(x.size), others, kin,
                                tuple(biomarker_name(d, encoder) for d in column.decides)),
                      column.linked))
    found.sort(key=lambda f: (f[0].same / f[0].measured, -f[0].measured))
    out: list[OtherKind] = []
    for o, linked in found:
        if any(n.feature in linked for n in out):
            continue  # its answers go with a column named already
        out.append(o)
    return out[:MAX_NAMED]


def other_kinds_message(found: Sequence[OtherKind]) -> str:
    """What the page says of ``found`` (plain text), or ``""``."""
    if not found:
        return ""
    lines = "; ".join(o.sentence() for o in found)
    return ("Most look-alikes are another kind of patient than this one, in a column whose "
            f"answers go with what else is measured or its level: {lines}. The similarity "
            "weighs what "
            "tells the outcomes apart, not the kind of patient; to see only patients with "
            "the same answer, match on it.")
