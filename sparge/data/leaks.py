"""Features that give the outcome away: a value recorded after the outcome (a status at
last contact, a discharge code) separates the outcomes almost perfectly (DESIGN.md §3)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from sparge.data.safe_text import quote as _q
from sparge.data.tables import yes_no_codes

#: A feature whose values alone rank one outcome above the others with at least this AUC
#: (or at most 1 − it) is questioned: a value recorded after the outcome gives it away.
#: Above the best single biomarker of the Wisconsin breast-cancer set (worst perimeter,
#: 0.975), a diagnostic table where strong biomarkers are expected.
LEAK_AUC = 0.98
#: A feature named like what is written at the end of a stay (:data:`END_OF_STAY`) is
#: questioned, not left out, from this AUC on.
NAMED_LEAK_AUC = 0.9
#: Names of what a record writes when the stay (or the follow-up) ends.
END_OF_STAY = re.compile(r"discharg|disposition|destination|discharged to|left department|"
                         r"\bdied\b|death|deceased|status at|final status|outcome|"
                         # walk-through 41's "Inhaler prescribed at follow-up" (AUC 0.95)
                         r"\b(?:at|on|by) follow[\s-]?up\b|\bat (?:last )?review\b",
                         re.IGNORECASE)


#: Answers that say the patient died ("Died", "Deceased", "died in hospital", "RIP").
DEATH_ANSWER = re.compile(r"(?:patient |pt )?(?:died|dead|deceased|dec'?d|death|expired|rip|"
                          # where the dead are taken (walk-through 101's "Mortuary")
                          r"mortuary|morgue|coroner|"
                          r"passed away|mortality|inpatient death|died in hospital|"
                          r"in-?hospital death|died on (?:the )?ward|died in (?:icu|itu|"
                          r"theatre|ed|a&e))(?: in hospital| on ward)?",
                          re.IGNORECASE)


def _plain(answer: object) -> str:
    """An answer with its spaces folded and a final full stop dropped."""
    return re.sub(r"\s+", " ", str(answer).strip().rstrip("."))


def death_answers(answers) -> list[str]:
    """The answers of a column that say the patient died (:data:`DEATH_ANSWER`)."""
    return [str(a) for a in answers if DEATH_ANSWER.fullmatch(_plain(a))]


#: Answers that say the patient is alive at last contact ("Alive", "living", "A&W").
ALIVE_ANSWER = re.compile(r"alive|living|alive (?:and|&) well|a ?& ?w|alive with disease|"
                          r"alive,? (?:no|without) (?:evidence of )?disease|awd|ned|"
                          r"alive - (?:no|with) disease", re.IGNORECASE)
#: Names of a column that holds whether the patient died (a yes/no "Died", "Deceased").
DEATH_NAME = re.compile(r"\s*(?:vital[\s_-]*status|survival[\s_-]*status|died|dead|death|"
                        r"deceased|alive|mortality)(?:\s*\([^)]{0,30}\))?\s*[?:]?\s*",
                        re.IGNORECASE)


def vital_status(column: str, answers) -> list[str]:
    """The death answers of a column that says whether the patient is alive or dead at
    last contact, else ``[]``: answers both alive (:data:`ALIVE_ANSWER`) and dead
    (:data:`DEATH_ANSWER`), or a yes/no column named as a death (:data:`DEATH_NAME`:
    its Yes). Walk-through 73's "Status" (Alive / Dead) beside an outcome of progression
    within 2 years: known only at follow-up, it made the look-alikes of the dead."""
    answers = [str(a) for a in answers]
    alive = [a for a in answers if ALIVE_ANSWER.fullmatch(_plain(a))]
    if alive:
        died = [a for a in answers
                if DEATH_ANSWER.fullmatch(_plain(a)) or _DIED_OF.fullmatch(_plain(a))]
        if died:
            return died
    if DEATH_NAME.fullmatch(str(column)[:80]):
        if {_plain(a) for a in answers} == {"0", "1"}:  # "Died" coded 0/1
            return [a for a in answers if _plain(a) == "1"]
        codes = yes_no_codes(answers)
        if codes is not None:  # "Alive: No" is the death
            dead = 2 if str(column).strip().lower().startswith("alive") else 1
            return [a for a, c in codes.items() if c == dead]
    return []


#: A death's cause beside alive answers: an oncology follow-up's "DOD", "DOC".
_DIED_OF = re.compile(r"dod|doc|d\.o\.d|(?:died|dead) (?:of|from|with) .{1,40}",
                      re.IGNORECASE)


def vital_status_message(found: dict[str, list[str]]) -> str:
    """The report's words for the columns of :func:`vital_status`, left out by default."""
    shown = "; ".join(f"'{_q(c, 60)}' answers " + ", ".join(f"'{_q(a, 30)}'" for a in ans[:3])
                      for c, ans in list(found.items())[:4])
    one = len(found) == 1
    return (f"Left out of the model: {shown}. Whether a patient is alive or dead is known "
            "only at the last contact, after the look-alikes are sought: as an input it "
            "makes every look-alike of a patient who died another who died, whatever the "
            f"outcome. Give {'it' if one else 'them'} the role 'categorical' on the Column "
            "roles tab only if the status was known when the patients were compared (a "
            "status at diagnosis).")


#: Words of an outcome's name that name no event ("Virological failure at 12 months").
_NO_EVENT_WORDS = frozenset({"within", "after", "before", "days", "weeks", "months", "years",
                             "outcome", "status", "event", "flag", "with", "from", "year",
                             "month", "week", "day", "primary", "secondary", "endpoint"})


def named_after_outcome(column: str, outcome: str | None) -> bool:
    """Whether a column's name says it was written after the outcome's event: "Switched
    regimen after failure" beside "Virological failure at 12 months" (walk-through 37's
    leak, AUC 0.93, decided every look-alike), "Post-relapse therapy" beside "Relapse"."""
    if not outcome:
        return False
    words = {w for w in re.findall(r"[a-z]+", str(outcome).lower())
             if len(w) > 3 and w not in _NO_EVENT_WORDS}
    if not words:
        return False
    stems = "|".join(re.escape(w[:max(4, len(w) - 2)]) for w in sorted(words))
    return re.search(rf"\b(?:after|following|post|since|because of|due to|secondary to)"
                     rf"[\s-]+(?:[a-z]+[\s-]+){{0,2}}(?:{stems})",
                     str(column).lower()) is not None


#: An outcome that happens at a birth or just after it ("PPH >=1000mL", "Postpartum
#: haemorrhage", "Mode of delivery", "NICU admission", "Severe maternal morbidity").
BIRTH_OUTCOME = re.compile(
    r"\bpph\b|post[\s-]?partum|\bdelivery\b|\bbirth|\blabou?r\b|caesarean|cesarean|"
    r"\b(?:em|el)?cs\b|\blscs\b|perine|obstetric|maternal\s+(?:morbidity|outcome)|\bsmm\b|"
    r"neonat|\bnicu\b|\bscbu\b|apgar|stillbirth|dystocia", re.IGNORECASE)
#: A column written at a birth or after it: labour, delivery, the baby, the blood lost or
#: given, the stay after.
AT_BIRTH_NAME = re.compile(
    r"\blabou?r\b|deliver|\bbirth|post[\s-]?natal|post[\s-]?partum|intra[\s-]?partum|"
    r"neonat|\bnicu\b|\bscbu\b|apgar|perine|episiotom|transfus|blood\s+loss|\bebl\b|"
    r"\bcord\s+(?:ph|gas|lactate)|syntocinon|oxytocin\s+(?:for|augment)|augmentation",
    re.IGNORECASE)
#: ... but not one about an earlier pregnancy or written at booking ("Previous PPH",
#: "Gestation at booking", "Planned mode of delivery", "EDD").
_BEFORE_BIRTH = re.compile(r"\b(?:previous|prior|past|history|h/o|booking|planned|"
                           r"intended|expected|estimated\s+date|edd|antenatal)\b",
                           re.IGNORECASE)


def recorded_at_birth(features, outcome: str | None) -> list[str]:
    """The features named as written at a birth or after it (:data:`AT_BIRTH_NAME`),
    when the outcome happens at the birth (:data:`BIRTH_OUTCOME`): walk-through 99's
    maternity export, booked in pregnancy, kept the labour's length, the mode of delivery,
    the Apgar score, the transfusion and the baby's admission beside "PPH >=1000mL or
    severe maternal morbidity"; its look-alikes scored 67 % on them and 36 % without, at
    33 % by chance. Whether they belong depends on when the look-alikes are sought, so
    they are questioned, not left out."""
    if not outcome or not BIRTH_OUTCOME.search(str(outcome)[:200]):
        return []
    return [str(c) for c in features if str(c) != str(outcome)
            and AT_BIRTH_NAME.search(str(c)[:120]) and not _BEFORE_BIRTH.search(str(c)[:120])]


def at_birth_message(columns: list[str], outcome: str) -> str:
    """The report's words for the features :func:`recorded_at_birth` finds."""
    shown = ", ".join(f"'{_q(c, 40)}'" for c in columns[:6]) + (
        f" (+{len(columns) - 6})" if len(columns) > 6 else "")
    one = len(columns) == 1
    return (f"{shown} {'is' if one else 'are'} written at the birth or after it, when "
            f"'{_q(outcome, 60)}' happens. Look-alikes found with "
            f"{'it' if one else 'them'} are patients who have given birth, and their "
            "outcomes read better than they can at booking. To find look-alikes before "
            f"the birth, leave {'it' if one else 'them'} out (the button below); keep "
            f"{'it' if one else 'them'} if you look at patients who have given birth.")


#: Patients of each outcome below which a feature's AUC is not measured.
LEAK_MIN_CLASS = 10
#: Patients of the rarer outcome below which a feature separating the outcomes is only
#: questioned, not left out: with 15 patients of each, a real diagnostic biomarker
#: separates them this well by chance (walk-through 69's 30-patient breast-cancer table
#: lost "mean radius", AUC 0.99 there and 0.94 on the 569 patients).
LEAK_LEAVE_OUT_CLASS = 30

#: A threshold in an outcome's name, "(>=1000 mL)", "≥ 7 days": comparator, number, unit.
_NAMED_THRESHOLD = re.compile(r"([<>]=?|[≤≥])\s{0,3}(\d{1,9}(?:\.\d{1,6})?)\s{0,3}"
                              r"([a-zµ%/][a-z0-9µ/.²³]{0,14})?", re.IGNORECASE)
#: Share of patients whose outcome a feature's value beyond the named threshold gives,
#: from which the feature defines the outcome.
DEFINES_AGREEMENT = 0.9


def named_threshold(outcome: str | None) -> tuple[str, float, str | None] | None:
    """The threshold an outcome's name defines it by: ``(comparator, number, unit as
    written or None)`` for "Postpartum haemorrhage (>=1000 mL)"; ``None`` without one."""
    m = _NAMED_THRESHOLD.search(str(outcome or "")[:200])
    if m is None:
        return None
    op = {"≥": ">=", "≤": "<="}.get(m.group(1), m.group(1))
    return op, float(m.group(2)), m.group(3)


def defining_agreement(values: np.ndarray, labels, op: str, threshold: float,
                       min_class: int = LEAK_MIN_CLASS) -> float | None:
    """How well ``values`` beyond a threshold give a two-outcome label: the largest share,
    over the two outcomes, of patients (with a value and an outcome) whose value is beyond
    ``threshold`` exactly when their outcome is that one; ``None`` with another number of
    outcomes or under ``min_class`` patients of one."""
    x = np.asarray(values, dtype=float)
    lab = np.asarray([None if v is None or v != v else str(v) for v in labels], dtype=object)
    ok = np.isfinite(x) & np.asarray([v is not None for v in lab], dtype=bool)
    levels, counts = np.unique(lab[ok].astype(str), return_counts=True)
    if len(levels) != 2 or counts.min() < min_class:
        return None
    beyond = {">": x > threshold, ">=": x >= threshold, "<": x < threshold,
              "<=": x <= threshold}[op][ok]
    return float(max(np.mean(beyond == (lab[ok] == level)) for level in levels))


def defines_message(found: dict[str, float], outcome: str) -> str:
    """The report's words for features that define the outcome by the threshold its name
    gives (left out of the model)."""
    op, t, unit = named_threshold(outcome)
    sign = {">=": "≥", "<=": "≤"}.get(op, op)
    one = len(found) == 1
    shown = ", ".join(f"'{_q(name, 60)}'" for name in list(found)[:8])
    shares = ", ".join(f"{share:.0%}" for share in list(found.values())[:8])
    return (f"Left out of the model: {shown}, which {'defines' if one else 'define'} the "
            f"outcome: '{_q(outcome, 60)}' follows {'its' if one else 'their'} value "
            f"{sign} {t:g}{' ' + _q(unit, 15) if unit else ''} for {shares} of patients. "
            f"{'It is' if one else 'They are'} measured with the outcome, not before it, "
            "and would make every look-alike look right. Give "
            f"{'it' if one else 'them'} the role 'numeric' on the Column roles tab only if "
            f"{'it is' if one else 'they are'} known when you look for look-alikes.")


def outcome_leaks(X: np.ndarray, names, labels, threshold: float = LEAK_AUC,
                  min_class: int = LEAK_MIN_CLASS, sample: int = 2000,
                  categorical=None) -> dict[str, float]:
    """Features that alone separate the outcomes almost perfectly, with their AUC.

    A column named in a way :mod:`sparge.data.column_kinds` does not know ("Days
    followed", "Status at last contact", a discharge code) can still be recorded after the
    outcome; walk-throughs' exports made every look-alike check read 99.9-100 % that way.
    For every feature and outcome, the AUC of the feature's values for that outcome
    against the others (Mann–Whitney, ties averaged, on the patients with a value and an
    outcome); a feature at or beyond ``threshold`` (or at most ``1 - threshold``) is
    returned with its AUC (the larger of the two directions). Classes under ``min_class``
    patients are not judged; above ``sample`` patients with an outcome, a seeded sample of
    them is.

    ``categorical`` marks the columns whose codes are answers: their codes need not
    follow the outcome's order (walk-through 25's "12-month outcome", Alive with disease
    1, Died 2, Remission 3, gave "Vital status last contact" away entirely, and its codes'
    AUC was far from 1), so each answer is ranked by its share of the outcome judged
    (answers of fewer than 5 patients at the overall share).
    """
    labels = np.asarray([None if v is None else str(v) for v in labels], dtype=object)
    known = np.asarray([v is not None for v in labels])
    levels = sorted({v for v in labels[known]})
    names = list(names)
    if len(levels) < 2 or not names:
        return {}
    # every column ranked at once (ties averaged, gaps left out), one masked sum per
    # outcome: a 21,000 × 3,600 table is not ranked column by column
    rows = np.flatnonzero(known)
    if len(rows) > sample:  # ±0.01 on an AUC from 2,000 patients: enough for a 0.98 line
        rows = np.sort(np.random.default_rng(0).choice(rows, sample, replace=False))
    Xk, lab = np.asarray(X, dtype=float)[rows], labels[rows]
    seen = np.isfinite(Xk)
    cats = (np.flatnonzero(np.asarray(categorical, dtype=bool)) if categorical is not None
            else np.array([], dtype=int))
    R = pd.DataFrame(Xk).rank().to_numpy(copy=True)
    best = np.full(len(names), 0.5)
    for level in levels if len(levels) > 2 else levels[:1]:
        if len(cats):  # each answer ranked by its share of this outcome
            hit = (lab == level).astype(float)
            for j in cats:
                col = pd.Series(Xk[:, j])
                stats = pd.DataFrame({"c": col, "y": hit})[seen[:, j]].groupby("c")["y"]
                share = stats.mean().where(stats.size() >= 5, hit[seen[:, j]].mean())
                R[:, j] = col.map(share).rank().to_numpy()
        pos = seen & (lab == level)[:, None]
        n1 = pos.sum(axis=0).astype(float)
        n0 = seen.sum(axis=0) - n1
        judged = (n1 >= min_class) & (n0 >= min_class)
        with np.errstate(all="ignore"):
            auc = (np.where(pos, R, 0.0).sum(axis=0) - n1 * (n1 + 1) / 2) / (n1 * n0)
        auc = np.where(judged, auc, 0.5)
        best = np.maximum(best, np.maximum(auc, 1 - auc))
    return {names[j]: float(best[j]) for j in np.flatnonzero(best >= threshold)}


#: A feature written for at least this share of one outcome's patients ...
ONLY_WRITTEN = 0.5
#: ... and for at most this share of the others, at least ``ONLY_OTHERS_MIN`` of them,
#: is written because of that outcome, whatever its AUC: walk-through 100's "Graft
#: nephrectomy", written for 67 of 77 failed grafts and none of 396 others (AUC 0.94, the
#: yes of every look-alike of a failed graft).
ONLY_OTHERS = 0.01
ONLY_OTHERS_MIN = 50


def presence_leaks(X: np.ndarray, names, labels, threshold: float = LEAK_AUC,
                   min_class: int = LEAK_MIN_CLASS) -> dict[str, tuple[float, str, float, float]]:
    """Features whose being written at all gives the outcome away.

    Walk-through 48's GP export wrote "Days to admission" only for the patients admitted:
    its values ranked nothing (:func:`outcome_leaks` judges the patients with a value), yet
    whether a patient had one was the outcome. For every feature with at least
    ``min_class`` patients with a value and as many without, and every outcome, the AUC
    of the feature's presence for that outcome against the others: ``(p1 − p0 + 1) / 2``,
    ``p1`` and ``p0`` the shares of the outcome's patients and of the others with a value.

    A feature written for :data:`ONLY_WRITTEN` of one outcome's patients and at most
    :data:`ONLY_OTHERS` of the others (at least :data:`ONLY_OTHERS_MIN` of them) is found
    whatever its AUC.

    Returns
    -------
    dict
        ``{feature: (AUC, outcome, p1, p0)}`` for the features at or beyond ``threshold``
        (or at most ``1 − threshold``), or written only for one outcome, with the outcome
        whose patients have (or lack) a value and the two shares.
    """
    labels = np.asarray([None if v is None or v != v else str(v) for v in labels],
                        dtype=object)
    known = np.asarray([v is not None for v in labels], dtype=bool)
    seen = np.isfinite(np.asarray(X, dtype=float)[known])
    lab = labels[known]
    levels, counts = np.unique(lab.astype(str), return_counts=True) if known.any() else \
        (np.array([]), np.array([]))
    n_seen = seen.sum(axis=0)
    cols = np.flatnonzero((n_seen >= min_class) & (len(lab) - n_seen >= min_class))
    if len(levels) < 2 or not len(cols):
        return {}
    found: dict[str, tuple[float, str, float, float]] = {}
    for level, n in zip(levels, counts):
        if n < min_class or len(lab) - n < min_class:
            continue
        hit = lab == level
        p1 = seen[hit][:, cols].mean(axis=0)
        p0 = seen[~hit][:, cols].mean(axis=0)
        auc = (p1 - p0 + 1) / 2
        only = (p1 >= ONLY_WRITTEN) & (p0 <= ONLY_OTHERS) & (len(lab) - n >= ONLY_OTHERS_MIN)
        for k in np.flatnonzero((np.maximum(auc, 1 - auc) >= threshold) | only):
            name = names[cols[k]]
            a = float(max(auc[k], 1 - auc[k]))
            # of two outcomes' equal AUCs, the one whose patients have the value is named
            if name not in found or a > found[name][0] + 1e-12 or (
                    a > found[name][0] - 1e-12 and p1[k] > p0[k]):
                found[name] = (a, str(level), float(p1[k]), float(p0[k]))
    return found


def presence_leak_message(leaks: dict[str, tuple[float, str, float, float]],
                          already: bool = False) -> str:
    """The report's words for :func:`presence_leaks` (left out of the model; with
    ``already``, columns left out already, as dates or free text)."""
    parts = []
    for name, (_, level, p1, p0) in list(leaks.items())[:8]:
        parts.append(f"'{_q(name, 60)}' is written for {p1:.0%} of the patients whose "
                     f"outcome is '{_q(level, 40)}' and {p0:.0%} of the others")
    one = len(leaks) == 1
    return (("Left out of the model (already, as dates or free text), and giving the "
             "outcome away: " if already else "Left out of the model: ")
            + "; ".join(parts) + (" …" if len(leaks) > 8 else "")
            + f". Whether {'it is' if one else 'they are'} written at all gives the outcome "
            "away: a value recorded only once the outcome happened (a time to the event, "
            "the event's date) makes every look-alike look right. Give "
            f"{'it' if one else 'them'} a role on the Column roles tab only if "
            f"{'it is' if one else 'they are'} known before the outcome.")


def death_leak_message(died: dict[str, list[str]], aucs: dict[str, float]) -> str:
    """The report's words for columns written when a stay ends whose answers say the
    patient died (:func:`death_answers`): left out of the model by default."""
    shown = "; ".join(f"'{_q(c, 60)}' answers " + ", ".join(f"'{_q(a, 30)}'" for a in ans[:3])
                      + (f" (AUC {aucs[c]:.2f})" if aucs.get(c, math.nan) == aucs.get(c)
                         else "") for c, ans in list(died.items())[:4])
    one = len(died) == 1
    return (f"Left out of the model: {shown}. {'It is' if one else 'They are'} written when "
            "the stay ends, and a death there is the outcome itself: every look-alike of a "
            "patient who died would be another who died. Give "
            f"{'it' if one else 'them'} the role 'categorical' on the Column roles tab only "
            "if the outcome is something else the column cannot tell.")


def leak_message(leaks: dict[str, float], left_out: bool) -> str:
    """The report's words for :func:`outcome_leaks` (``left_out``: taken out of the model
    by default, else only questioned)."""
    shown = ", ".join(f"'{_q(name, 60)}' (AUC {auc:.2f})" for name, auc in
                      list(leaks.items())[:8]) + (" …" if len(leaks) > 8 else "")
    one = len(leaks) == 1
    head = (f"{shown} alone {'separates' if one else 'separate'} the outcomes almost "
            "perfectly. A value recorded after the outcome (a status at last contact, a "
            "follow-up time, a length of stay, a discharge code) gives it away and makes "
            "every look-alike look right.")
    if left_out:
        return ("Left out of the model: " + head + f" Give {'it' if one else 'them'} the "
                "role 'numeric' or 'categorical' on the Column roles tab only if "
                f"{'it is' if one else 'they are'} known before the outcome (a diagnostic "
                "test can be this strong).")
    return head + (f" If {'it is one' if one else 'they are'}, give "
                   f"{'it' if one else 'them'} the role 'ignore' on the Column roles tab.")


def named_leak_message(leaks: dict[str, float], after_outcome: bool = False) -> str:
    """The report's words for features below :data:`LEAK_AUC` that separate the
    outcomes well and are named like what is written at the end of a stay (or, with
    ``after_outcome``, as written after the outcome's event: :func:`named_after_outcome`)."""
    shown = ", ".join(f"'{_q(name, 60)}'" + (f" (AUC {auc:.2f})" if auc == auc else "")
                      for name, auc in list(leaks.items())[:8])
    one = len(leaks) == 1
    named = ("named as what happens after the outcome" if after_outcome else
             "named like what is written when a stay ends")
    if all(auc != auc for auc in leaks.values()):  # NaN: too few patients to measure
        return (f"{shown} {'is' if one else 'are'} {named}; with under {LEAK_MIN_CLASS} "
                "patients of an outcome, how well "
                f"{'it separates' if one else 'they separate'} the outcomes cannot be "
                f"measured. If {'it is' if one else 'they are'} known only after the "
                f"outcome, give {'it' if one else 'them'} the role 'ignore' on the Column "
                "roles tab: otherwise every look-alike check reads too well.")
    names_it = "" if after_outcome else (
        f" (or {'it names' if one else 'they name'} it: \"Home (readmitted)\")")
    return (f"{shown} {'is' if one else 'are'} {named} "
            f"and alone {'separates' if one else 'separate'} the outcomes well. If "
            f"{'it is' if one else 'they are'} known only after the outcome{names_it}, give "
            f"{'it' if one else 'them'} the role 'ignore' on the Column roles tab: "
            "otherwise every look-alike check reads too well.")
