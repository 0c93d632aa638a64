"""Columns that should not be features, recognised from their name or cells.

A clinic's export carries more than biomarkers: the follow-up time of a survival study
(which tells the outcome: patients who died were followed for less time), dates, and free
text notes. Read as features they leak the outcome or add noise in an arbitrary order. The
encoder leaves them out by default and says why (``Encoder``); the user can give any of
them a role back on the Data page.
"""

from __future__ import annotations

import re

import pandas as pd

#: Column names of a survival study's follow-up time or a hospital stay's length (both
#: measured after the outcome is known).
_FU = r"follow[\s_.\-]*up"
_SPAN = r"(?:time|duration|length|period|days?|weeks?|months?|years?)"
FOLLOW_UP_NAME = re.compile(
    # "Follow-up", "Follow-up (days)", "Duration of follow-up" -- not "Follow-up visit BP"
    rf"^{_FU}$|{_FU}[\s_.\-]*\(?\s*{_SPAN}\b|\b{_SPAN}[\s_.\-]*(?:of[\s_.\-]*)?{_FU}|"
    # ... and walk-through 45's "Days to readmission"
    r"\b(?:time|days?|weeks?|months?)[\s_.\-]*(?:to|until)[\s_.\-]*(?:event|death|censor|"
    r"last|relapse|recurrence|progression|failure|re[\s_.\-]?admission|"
    r"re[\s_.\-]?hospitali[sz]ation)|surviv\w*[\s_.(\-]*(?:time|days?|months?|years?)\b|"
    r"censor|"
    r"^(?:time|futime|stime|os[\s_.]?time|pfs[\s_.]?time|dfs[\s_.]?time|efs[\s_.]?time)$|"
    # the length of a hospital stay is known at discharge, after the outcome: "Length of
    # stay (days)", "LOS", "Hospital stay", "Days in ICU", "Time to discharge"
    r"\blength[\s_.\-]*of[\s_.\-]*(?:\w+[\s_.\-]*)?stay|^l\.?o\.?s\.?\b|\blos[\s_.\-]*\(|"
    r"\b(?:hospital|icu|nicu|picu|ward|inpatient)[\s_.\-]*(?:stay|days?|los)\b|"
    # ... and after a birth: walk-through 99's "Postnatal stay (days)" (AUC 0.89)
    r"\b(?:post[\s_.\-]?natal|post[\s_.\-]?partum|neonatal|maternity)[\s_.\-]*(?:stay|los)\b|"
    r"\bdays?[\s_.\-]*(?:in|of)[\s_.\-]*(?:hospital|icu|nicu|picu|ward|stay)\b|"
    r"\b(?:time|days?)[\s_.\-]*(?:to|until|till)[\s_.\-]*discharge|"
    # ... and of a stay in the emergency department, known when it ends (walk-through
    # 50's "Time in department": 300 min for the admitted against 170)
    r"\b(?:time|hours?|minutes?|mins?)[\s_.\-]*(?:in|spent[\s_.\-]*in)[\s_.\-]*(?:the[\s_.\-]*)?"
    r"(?:department|dept|ed|a&e|ae|emergency(?:[\s_.\-]*department)?|hospital)\b|"
    r"\bed[\s_.\-]*(?:los|length[\s_.\-]*of[\s_.\-]*stay)\b|"
    # "Days followed", "Months followed", "Followed for (days)"
    rf"\b{_SPAN}[\s_.\-]*followed\b|\bfollowed[\s_.\-]*(?:for|up)?[\s_.\-]*\(?\s*{_SPAN}\b|"
    # the cycles of a course reached or completed, known as the course goes on (walk-
    # through 105's "Cycle reached": fewer for the patients its outcome admitted)
    r"\bcycles?[\s_.\-]*(?:reached|completed|received|given|delivered|administered|done|"
    r"to[\s_.\-]*date)\b|\b(?:completed|received|delivered)[\s_.\-]*cycles?\b|"
    r"\b(?:number|no|n)\.?[\s_.\-]*(?:of[\s_.\-]*)?cycles?[\s_.\-]*(?:completed|received|"
    r"given|delivered)\b",
    re.IGNORECASE)
#: Column names of free text (words between underscores too: walk-through 77's
#: "clinician_comment", 12 answers, went to the model and to Explore's comparisons).
FREE_TEXT_NAME = re.compile(
    r"(?<![a-z0-9])(?:notes?|comments?|remarks?|free[\s_.\-]*text|narrative|description)"
    r"(?![a-z0-9])", re.IGNORECASE)
#: Cells written as dates (ISO, day/month/year, "14 Mar 2019"), optionally with a time.
DATE_CELL = re.compile(
    r"^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    r"\d{1,2}[\s\-][A-Za-z]{3,9}[\s\-]\d{2,4}|"
    # a month and a year, "Jan 2018" (walk-through 56's start of dialysis)
    r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.?[\s\-]\d{4}|"
    # a quarter, "Q1 2023" (walk-through 106's snapshots)
    r"[Qq][1-4][\s\-/]{0,3}\d{4}|\d{4}[\s\-/]{0,3}[Qq][1-4])"
    r"(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$")
#: Share of a column's filled cells that must look like dates, and how many are looked at.
DATE_SHARE = 0.8
DATE_SAMPLE = 2000


#: A later time point in a column's name: "at 3/12 review", "at 6 months", "12-month",
#: "week 12", "at discharge", "at follow-up" (bounded runs).
_LATER = re.compile(
    r"\b(?:at|after)[\s_.\-]{1,3}\d{1,3}[\s_.]{0,2}/[\s_.]{0,2}(?:12|52)\b|"
    r"\b\d{1,3}[\s_.]{0,2}/[\s_.]{0,2}(?:12|52)[\s_.\-]{1,3}(?:review|follow[\s_.\-]?up|f/?u)\b|"
    r"\b(?:at|after)?[\s_.\-]{0,3}\d{1,3}[\s_.\-]{0,2}(?:months?|mo|mths?|m|weeks?|wks?|w|"
    r"years?|yrs?|y|days?)\b(?:[\s_.\-]{1,3}(?:review|follow[\s_.\-]?up|f/?u|visit|post))?|"
    r"\b(?:month|week|year|wk|mo|day)[\s_.\-]{0,2}\d{1,3}\b|"
    r"\b(?:at|on)[\s_.\-]{1,3}(?:discharge|review|follow[\s_.\-]?up|exit|end of study)\b|"
    r"\b(?:post[\s_.\-]?discharge|follow[\s_.\-]?up|final)\b|"
    # after the operation: walk-through 78's "post-op Oxford score 6m" beside "Pre-op
    # Oxford score" went to the model and led Explore's comparisons
    r"\bpost[\s_.\-]?op(?:erative(?:ly)?)?\b", re.IGNORECASE)
#: Words that name no measurement: a time point's, a baseline's.
_NO_MEASURE = frozenset({"at", "on", "after", "review", "follow", "up", "followup", "fu",
                         "visit", "total", "score", "baseline", "initial", "first", "the",
                         "of", "bl", "t0", "entry", "referral", "assessment", "time",
                         "point", "timepoint", "current",
                         # a measurement before the operation is the baseline's
                         "pre", "op", "preop", "preoperative", "preoperatively",
                         # ... and before the illness or on admission (walk-through 96's
                         # "Pre-morbid mRS" beside "mRS at 90 days")
                         "morbid", "premorbid", "prestroke", "prior", "before",
                         "admission", "presentation", "onset"})


def _measure_words(name: str) -> tuple[str, ...]:
    """The words of a column's name that name what it measures, lower case."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name)[:120])
    return tuple(w for w in re.findall(r"[a-z][a-z0-9]*", spaced.lower())
                 if w not in _NO_MEASURE)


def later_measurement_of(name: str, columns) -> str | None:
    """The column of which ``name`` is a later measurement, or ``None``: walk-through
    52's "HoNOS at 3/12 review" beside "HoNOS total" (measured three months after the
    first visit, it gives a 90-day outcome away: AUC 0.91), "Weight at 6 months" beside
    "Weight". Both names must measure the same once their time points and words such as
    "total", "score" and "baseline" are set aside; a time point without a baseline
    column beside it is not judged.

    Examples
    --------
    >>> later_measurement_of("HoNOS at 3/12 review", ["Age", "HoNOS total"])
    'HoNOS total'
    >>> later_measurement_of("PHQ-9 at 6 months", ["PHQ-9 (baseline)"])
    'PHQ-9 (baseline)'
    >>> later_measurement_of("Weight at 6 months", ["Age"]) is None
    True
    >>> later_measurement_of("mRS at 90 days", ["Pre-morbid mRS", "Age"])
    'Pre-morbid mRS'

    """
    text = str(name)[:120]
    if not _LATER.search(text):
        return None
    stem = _measure_words(_LATER.sub(" ", text))
    if not stem:
        return None
    for other in columns:
        if str(other) != text and not _LATER.search(str(other)) \
                and _measure_words(other) == stem:
            return str(other)
    return None


#: The roles of staff a patient is with (lower-case words; two-word roles joined).
_STAFF_ROLES = frozenset({
    "coordinator", "carecoordinator", "consultant", "clinician", "keyworker", "nurse",
    "namednurse", "practitioner", "therapist", "psychiatrist", "psychologist",
    "socialworker", "gp", "doctor", "surgeon", "physician", "midwife", "staff", "cpn",
    "caseholder", "casemanager", "manager", "author", "user", "seenby", "enteredby",
    "recordedby", "reviewedby", "assessor", "assessedby", "cns"})
#: The roles a specialty's word may stand before ("IBD nurse"), not "Drug user".
_CLINICAL_ROLES = frozenset({"nurse", "consultant", "physician", "surgeon", "doctor",
                             "clinician", "therapist", "practitioner", "psychiatrist",
                             "psychologist", "midwife", "keyworker", "cns"})
#: Words that may stand beside a staff role in such a column's name.
_STAFF_FILLER = frozenset({"name", "names", "initials", "allocated", "current", "named",
                           "lead", "responsible", "assigned", "the", "of", "patient",
                           "patients", "usual", "main", "primary", "care", "case",
                           "key", "social", "seen", "entered", "recorded", "reviewed",
                           "by", "mental", "health", "community", "team",
                           # walk-through 62's "Assessing clinician"
                           "assessing", "treating", "referring", "reviewing", "attending"})
#: A specialist ("dermatologist", "anaesthetist", "paediatrician", "registrar").
_SPECIALIST = re.compile(r"[a-z]{3,}ologist|an(?:a)?esthetist|(?:paediatr|pediatr|obstetr|"
                         r"geriatr|dietit|optic|clin)ician|registrar|pharmacist|"
                         r"physio(?:therapist)?|dietitian|podiatrist|optometrist|orthoptist|"
                         r"sonographer|radiographer|surgeon|intensivist|hospitalist")
#: Two-word roles read as one.
_STAFF_PAIRS = re.compile(r"\b(care) (co ?ordinator)\b|\b(key) (worker)\b|"
                          r"\b(named) (nurse)\b|\b(social) (worker)\b|\b(case) "
                          r"(holder|manager)\b|\b(seen|entered|recorded|reviewed|assessed) (by)\b")


def names_staff(name: str) -> bool:
    """Whether a column names the member of staff a patient is with: its name is a staff
    role, with at most words such as "name", "allocated" or "lead" beside it (walk-through
    52's "Care coordinator" made look-alikes of a caseload's patients who shared one; their
    names are no biomarker).

    Examples
    --------
    >>> names_staff("Care coordinator"), names_staff("Consultant"), names_staff("GP name")
    (True, True, True)
    >>> names_staff("Physician global assessment"), names_staff("Nurse-led clinic")
    (False, False)
    >>> names_staff("Seen by"), names_staff("Seen by physio (Y/N)")
    (True, False)
    >>> names_staff("IBD nurse"), names_staff("Respiratory consultant")
    (True, True)
    >>> names_staff("Nurse review"), names_staff("Diabetes nurse review")
    (False, False)
    >>> names_staff("IV drug user")
    False
    >>> names_staff("Dermatologist"), names_staff("Treating anaesthetist")
    (True, True)
    """
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name)[:120]).lower()
    text = " ".join(re.findall(r"[a-z]+", text))
    text = _STAFF_PAIRS.sub(lambda m: "".join(g for g in m.groups() if g).replace(" ", ""),
                            text)
    words = text.split()
    # one word of a specialty before the role that ends the name: walk-through 68's "IBD
    # nurse" (a nurse's name per patient) matched patients by their nurse
    if len(words) >= 2 and words[-1] in _CLINICAL_ROLES and words[-2] not in _STAFF_ROLES:
        words = [w for i, w in enumerate(words) if i != len(words) - 2]
    # a specialist by the specialty's "-ologist" or "-ician" (walk-through 93's
    # "Dermatologist" went to the model and the New patient form)
    words = ["staff" if _SPECIALIST.fullmatch(w) else w for w in words]
    return (any(w in _STAFF_ROLES for w in words)
            and all(w in _STAFF_ROLES or w in _STAFF_FILLER for w in words))


#: A column naming the practice or site a patient is registered or seen at ("GP
#: practice", "Practice code", "Hospital site"): walk-through 64's "GP practice" (seven
#: codes) made look-alikes of the patients of one practice, as a consultant's name would.
_SITE_NAME = re.compile(
    r"\s*(?:(?:registered|usual|patient'?s?)\s+)?(?:gp\s+)?(?:practice|gp\s+surgery)"
    r"(?:\s+(?:code|name|id|ods(?:\s+code)?|no\.?|number))?\s*|"
    r"\s*(?:pcn|ccg|icb|(?:hospital|clinic|study|recruiting|treating|trust)\s+site|"
    r"site\s+(?:code|id|name))\s*|"
    # the ward or bed a patient was cared on (walk-through 72's "Ward 7B", kept as a
    # feature while the consultant was left out as staff)
    r"\s*(?:admitting|admission|discharging|discharge|current|base)?\s*"
    r"(?:ward|bed|bay)(?:\s+(?:code|id|name|no\.?|number))?\s*", re.IGNORECASE)


def names_site(name: str) -> bool:
    """Whether a column names the practice or site a patient is registered or seen at.

    Examples
    --------
    >>> names_site("GP practice"), names_site("Practice code"), names_site("Hospital site")
    (True, True, True)
    >>> names_site("Ward"), names_site("Admitting ward"), names_site("Bed days")
    (True, True, False)
    >>> names_site("Primary site"), names_site("Previous surgery"), names_site("Site")
    (False, False, False)
    """
    return _SITE_NAME.fullmatch(str(name)[:80]) is not None


#: A window before the visit: "(last 12m)", "in the past year", "previous 6 months". A
#: count of hospital days in it is known at the visit (walk-through 82's "Hospital days
#: (last 12m)" was left out as a length of stay, its "IV courses (last 12m)" kept). The
#: groups are the window's number and unit (:mod:`sparge.data.frequencies`).
PAST_WINDOW = re.compile(
    r"\b(?:last|past|previous|prior|preceding)\s{0,3}(?:(\d{1,3})\s{0,3}[\s\-]?)?"
    r"(days?|d|weeks?|wks?|w|months?|mths?|m|years?|yrs?|yr|y)\b|"
    r"\b(?:in|over|during)\s{1,3}the\s{1,3}(?:last|past|previous|preceding)\b",
    re.IGNORECASE)


def looks_like_follow_up(name: str) -> bool:
    """Whether a column is named like a follow-up, time-to-event or length-of-stay column
    (not one counted over a window before the visit, :data:`PAST_WINDOW`).

    Examples
    --------
    >>> looks_like_follow_up("Follow-up (days)"), looks_like_follow_up("Time since diagnosis")
    (True, False)
    >>> looks_like_follow_up("Hospital days"), looks_like_follow_up("Hospital days (last 12m)")
    (True, False)
    """
    text = str(name).strip()
    return bool(FOLLOW_UP_NAME.search(text)) and not PAST_WINDOW.search(text)


def looks_like_dates(text: pd.Series) -> bool:
    """Whether most filled cells of a column (as text) are dates (judged on the first
    2,000 filled cells: a million-row export is not scanned whole for this)."""
    filled = text[text != ""].iloc[:DATE_SAMPLE]
    if filled.empty:
        return False
    return float(filled.str.strip().str.match(DATE_CELL).mean()) >= DATE_SHARE


def looks_like_free_text(name: str, levels: list[str]) -> bool:
    """Whether a text column holds free text: named like notes, or written in sentences.

    ``levels`` are its distinct filled cells. Sentences: at least three different answers,
    half of them three words or longer and ending with a full stop, "!" or "?" (a
    category such as "heart block or conduction def" does not end like a sentence).
    """
    if FREE_TEXT_NAME.search(str(name)):
        return True
    if len(levels) < 3:
        return False
    sentences = sum(len(lv.split()) >= 3 and lv.rstrip().endswith((".", "!", "?"))
                    for lv in levels)
    return sentences >= 0.5 * len(levels)
