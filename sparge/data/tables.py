"""Encoding tables: categorical text -> integers (the paper's Table "Integer Encoding").

A table maps a column to ``{level: code}``, says per column whether the codes follow an
order, and holds the **missing tokens**: the cell texts that mean "not available". Matching
of column names, levels and tokens is case- and whitespace-insensitive. The default table
is the paper's (DESIGN.md §3).

Missing values
    Only empty cells and the table's missing tokens are missing, and a token that is a
    level of the column (``"Unknown"`` = 0 in the paper's yes/no group, ``"None"`` in an
    Albuminuria column) is a value, never missing. The default tokens are
    :data:`DEFAULT_MISSING_TOKENS`; they can be edited and are saved with the table.

Ordered scales
    :data:`SCALES` lists the recognised clinical scales. A column whose levels all fit one
    scale is coded by rank on that scale: the first rank is 1, the next 2, and so on (the
    paper's convention, e.g. Home Smoke Never 1 ... Always 4), so Albuminuria reads
    None 1 < Micro 2 < Macro 3 and a column holding only Mild/Moderate/Severe reads 2, 3, 4
    (ranks of the full None < Mild < Moderate < Severe scale). Yes/no columns always read
    Unknown 0, Yes 1, No 2 (the paper's); ``Y``/``N`` and ``True``/``False`` are read as
    yes/no.

Files
    CSV: columns ``column, value, code, ordered``. A row with an empty ``code`` marks
    ``value`` as a missing token: for every column when ``column`` is ``*``, else for that
    column only. ``ordered`` is true/false per row (a column is ordered when any of its rows
    says true; empty = decided from the recognised scales). A CSV without ``*`` rows uses
    the default tokens; a single ``*`` row with an empty value means "only empty cells are
    missing". Files written before these additions (``column, value, code``) still load.
    JSON: ``{"format": "sparge-encoding-table", "version": 2, "columns": {column:
    {"levels": {value: code}, "ordered": bool}}, "missing_tokens": [...],
    "column_missing_tokens": {column: [...]}}``; the older ``{column: {value: code}}``
    still loads.
"""

from __future__ import annotations

import functools
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from sparge.errors import DataError

#: Cell texts read as missing by default (compared case- and space-insensitively).
DEFAULT_MISSING_TOKENS = frozenset({
    "", "na", "n/a", "n.a.", "nan", "none", "null", "?", "unknown", "-", "--", "missing",
    "not available", "nil", "#n/a", ".",
    # what hospital exports write for a gap (a walk-through's "not recorded" became an
    # ECOG level after "3 - limited self-care" while numeric columns read it as missing)
    "not recorded", "not known", "not measured", "not assessed", "not stated",
    "not reported", "not done", "no data", "unk",
    # "not known" as NHS exports abbreviate it (walk-through 52's mental-health trust
    # wrote "NK" in eight columns, its outcome's among them)
    "nk", "n/k", "n.k.", "n.k",
    # ... and the NHS ethnic category "Z - Not stated"
    "z - not stated", "z not stated", "z-not stated", "z: not stated",
    # a patient who declined the test (walk-through 29's cholesterol and urine ACR read
    # "declined" as stray text beside "not done", a gap)
    "declined", "refused", "patient declined", "patient refused",
    # a result not (yet) there: walk-through 33's emergency department wrote "nd",
    # "pending" and the like among its results, and a 15-row export turned SpO2, height
    # and troponin into categories for one "pending" each
    "nd", "n/d", "n.d.", "pending", "result pending", "awaited", "result awaited", "not sent",
    "not tested", "cancelled", "canceled", "haemolysed", "hemolysed", "hemolyzed",
    "sample haemolysed", "sample hemolyzed", "insufficient sample",
    # "N/A" written out (walk-through 39's TOAST read "N/A" as a gap and "not applicable"
    # as an answer, coded 10, in one column)
    "not applicable", "n/app", "inapplicable",
    # ... or a score that does not apply to the patient (walk-through 90's DLCN "not
    # valid (FH)": a relative's known FH)
    "not valid",
    # a patient whose outcome (or value) was never learned: walk-through 39's stroke unit
    # trained on "lost to follow-up" as a third outcome beside good and poor
    "lost to follow-up", "lost to follow up", "lost to followup", "lost to f/u",
    "lost to fu", "ltfu",
    # ... or moved where the clinic cannot follow them (walk-through 62: a third outcome)
    "moved away", "moved out of area", "moved area", "left area", "left the area",
    "emigrated",
    # not known yet (walk-through 41's "awaiting review" was a fourth asthma outcome)
    "awaiting review", "under review", "awaiting", "awaiting results", "awaiting result",
    "to be confirmed", "tbc", "not yet known", "not yet available",
    # a question not put (walk-through 66's fatigue score "not asked", 39 cells)
    "not asked", "not examined", "xr requested", "x-ray requested",
    # a test not done at this visit (walk-through 70's varices "not scoped" sat next to
    # "None", and HCC surveillance "DNA", did not attend, and "not due" were findings)
    "not scoped", "declined ogd", "declined scope", "declined endoscopy", "not due",
    "not due yet", "dna", "did not attend", "not attended",
    # ... or written elsewhere (walk-through 71's LVEF "see echo report", "awaiting echo")
    "see echo report", "see echo", "see report", "awaiting echo", "echo awaited",
    "echo pending", "echo requested",
    # ... or in the notes (walk-through 72's anaesthesia, mobility and ASA "see notes")
    "see notes", "see note", "see comments", "see comment", "see free text", "see letter",
    "see clinic letter", "see text", "see below", "see above", "in notes"})
#: Kept for code written against earlier versions: the default tokens.
MISSING_TOKENS = DEFAULT_MISSING_TOKENS
#: Missing tokens that are also ordinary words: in a text column where they are common
#: (at least 1 % of the cells, and at least 2 cells) or fit the column's recognised scale
#: they are a category, not a gap ("None" is the normal Albuminuria value).
CATEGORY_WORDS = frozenset({"none", "unknown", "nil", "unk", "declined",
                            "refused", "patient declined", "patient refused"})
# ("n/k", "nk", "not known" are a clinician's gap, whatever their share: three walk-
# throughs read them so, and 68's TPMT kept 40 "n/k" as an answer of its own.)
#: The category words that say an answer is not known: "UNK" is kept or read as missing
#: as "Unknown" is (walk-through 27's race read "Unknown" as an answer and "UNK" as a gap).
UNKNOWN_WORDS = frozenset({"unknown", "unk", "not known", "nk", "n/k", "n.k.", "n.k"})
#: Token meaning "every column" in the ``column`` cell of a CSV table.
ALL_COLUMNS = "*"

#: A risk or priority level's spellings (``norm_key``), and the bands between them.
_LOW = ("low", "l", "lo", "low risk")
_MEDIUM = ("medium", "moderate", "intermediate", "med", "mod", "m", "medium risk",
           "moderate risk")
_HIGH = ("high", "h", "hi", "high risk")
_LOW_MEDIUM = tuple(f"{a}{sep}{b}" for a in ("low", "l", "lo")
                    for b in ("medium", "moderate", "med", "mod", "m")
                    for sep in ("-", " - ", "/", " / ", " to ", "–"))
_MEDIUM_HIGH = tuple(f"{a}{sep}{b}" for a in ("medium", "moderate", "med", "mod", "m")
                     for b in ("high", "h", "hi")
                     for sep in ("-", " - ", "/", " / ", " to ", "–"))
#: Oesophageal varices by size: none, small (F1, grade 1), medium (F2), large (F3), with or
#: without red signs (walk-through 70: coded alphabetically, "small" farther from F1 than
#: "large" from "None").
_VARICES = tuple(
    (code, tuple(s + tail for s in spellings
                 for tail in ("", " with red signs", " with red sign", " + red signs",
                              " with rws", " + rws", " with red wale signs")))
    for code, spellings in (
        (0, ("none", "no varices", "nil", "absent", "no", "phg only, no varices",
              "no varices, phg")),
        (1, ("small", "f1", "grade 1", "grade i", "small varices", "grade 1 varices",
             "small (f1)", "f1 small")),
        (2, ("medium", "f2", "grade 2", "grade ii", "medium varices", "grade 2 varices",
             "medium (f2)", "f2 medium")),
        (3, ("large", "f3", "grade 3", "grade iii", "large varices", "grade 3 varices",
             "large (f3)", "f3 large"))))
#: Child-Pugh score, written with its class ("A5", "B 7", "CP B9"), or the class alone
#: ("Child C"), coded by the score: a class alone at its scores' middle (A 5.5, B 8,
#: C 12.5), so that B9 lies next to C10 and a bare "B" among B7 to B9 (walk-through 70:
#: "Child B" and B8 were said to be other kinds of patient).
_CP_PREFIXES = ("", "child ", "child-pugh ", "child pugh ", "cp ", "class ",
                "child-pugh class ", "child's ")


def _child_pugh(cls: str, score: int | None) -> tuple[str, ...]:
    if score is None:
        return tuple(f"{pre}{cls}".strip() for pre in _CP_PREFIXES)
    return tuple(f"{pre}{cls}{sep}{score}" for pre in _CP_PREFIXES
                 for sep in ("", " ", "-")) + tuple(
        f"{pre}{cls}{sep}{score})" for pre in ("", "child ") for sep in (" (", "("))


_CHILD_PUGH = tuple(
    [(score, _child_pugh(cls, score)) for cls, scores in
     (("a", (5, 6)), ("b", (7, 8, 9)), ("c", (10, 11, 12, 13, 14, 15))) for score in scores]
    + [(mid, _child_pugh(cls, None)) for cls, mid in (("a", 5.5), ("b", 8), ("c", 12.5))])
#: NYHA functional class, I to IV, in Roman or Arabic numerals, after "NYHA" or "class",
#: and the halfway classes a clinic writes ("II-III", "2/3"): walk-through 71's merge
#: coded "II-III" 5 and "NYHA II/III" 17, beyond class IV.
_ROMAN = {1: "i", 2: "ii", 3: "iii", 4: "iv"}
_NYHA_PREFIXES = ("", "nyha ", "nyha", "nyha class ", "class ", "nyha-", "nyha: ", "nyha:",
                  "functional class ", "fc ")


def _nyha(*classes: int) -> tuple[str, ...]:
    if len(classes) == 1:
        c = classes[0]
        return tuple(f"{pre}{n}" for pre in _NYHA_PREFIXES for n in (_ROMAN[c], str(c)))
    a, b = classes
    return tuple(f"{pre}{x}{sep}{y}" for pre in _NYHA_PREFIXES
                 for x, y in ((_ROMAN[a], _ROMAN[b]), (str(a), str(b)))
                 for sep in ("-", " - ", "/", " / ", " to ", "–"))


_NYHA_SCALE = tuple([(c, _nyha(c)) for c in (1, 2, 3, 4)]
                    + [(c + 0.5, _nyha(c, c + 1)) for c in (1, 2, 3)])
#: The Mallampati class of the airway, I to IV, in either numerals, after "MP", "class",
#: "grade" or its name: walk-through 92 read "MP 2" as 2 and set "Grade III" to missing.
_MALLAMPATI_PREFIXES = ("", "mp ", "mp", "mp-", "mp: ", "class ", "grade ", "mallampati ",
                        "mallampati class ", "mallampati grade ", "mallampati: ", "mpc ",
                        "m ", "m")
#: A Mallampati column's name ("Mallampati", "MP class", "Airway grade").
MALLAMPATI_NAME = re.compile(r"mallampati|\bmp\s*(?:class|grade|score)?$|"
                             r"airway\s+(?:class|grade)", re.IGNORECASE)
_MALLAMPATI = tuple((c, tuple(f"{pre}{n}" for pre in _MALLAMPATI_PREFIXES
                              for n in (_ROMAN[c], str(c)))) for c in (1, 2, 3, 4))
#: The ASA physical status, I to V, in either numerals, after "ASA" or "grade", with its
#: "E" of an emergency operation (the same grade), and the halfway grades a unit writes
#: ("ASA II-III"): walk-through 72's hip-fracture unit coded it in alphabetical order,
#: "3E" and "ASA II-III" answers of their own.
_ROMAN_5 = {**_ROMAN, 5: "v"}
_ASA_PREFIXES = ("", "asa ", "asa", "asa grade ", "grade ", "asa-", "asa: ", "asa:", "asa class ",
                 "class ", "asa ps ", "ps ")


def _asa(*grades: int) -> tuple[str, ...]:
    if len(grades) == 1:
        g = grades[0]
        return tuple(f"{pre}{n}{e}" for pre in _ASA_PREFIXES for n in (_ROMAN_5[g], str(g))
                     for e in ("", "e", " e", "(e)", " (e)", "-e"))
    a, b = grades
    return tuple(f"{pre}{x}{sep}{y}" for pre in _ASA_PREFIXES
                 for x, y in ((_ROMAN_5[a], _ROMAN_5[b]), (str(a), str(b)))
                 for sep in ("-", " - ", "/", " / ", " to ", "–"))


_ASA_SCALE = tuple([(g, _asa(g)) for g in (1, 2, 3, 4, 5)]
                   + [(g + 0.5, _asa(g, g + 1)) for g in (1, 2, 3, 4)])
#: The response of a myeloma (IMWG) or a solid tumour (RECIST) to treatment, worst first:
#: walk-through 73's "Best response" was coded alphabetically, sCR next to PD, and CR,
#: "complete response" and "Complete remission" three answers.
_RESPONSE = (
    (1, ("pd", "progressive disease", "progression", "progressive", "disease progression",
         "progressed", "refractory", "primary refractory", "primary progressive")),
    (2, ("sd", "stable disease", "stable", "nr", "no response", "non-responder",
         "nonresponder", "non responder")),
    (3, ("mr", "minimal response", "minor response")),
    (4, ("pr", "partial response", "partial remission", "partial")),
    (5, ("vgpr", "very good partial response", "very good partial remission", "vgrp",
         "v.g.p.r.", "vgpr or better")),
    # "at least VGPR": between VGPR and CR
    (5.5, (">vgpr", "≥vgpr", ">=vgpr", "> vgpr", "≥ vgpr")),
    (6, ("cr", "complete response", "complete remission", "ncr", "near cr",
         "near complete response", "cr/ncr")),
    (7, ("scr", "stringent cr", "stringent complete response", "stringent complete remission",
         "s-cr", "mrd negative cr", "mrd-negative cr", "mrd neg cr", "mrd-neg cr",
         "cr mrd negative", "cr mrd-negative", "cr (mrd negative)", "cr (mrd-)",
         "mrd negative", "mrd-negative")))
#: A myeloma's (Revised) International Staging System stage, I to III, and the R2-ISS's
#: fourth: walk-through 73's "R-ISS II" (86 patients) beside "II" (196), unordered.
_ISS_PREFIXES = ("", "iss ", "iss stage ", "r-iss ", "riss ", "r iss ", "r-iss stage ",
                 "riss stage ", "r2-iss ", "r2iss ", "r2-iss stage ", "stage ", "iss-",
                 "r-iss-", "r-iss: ", "iss: ")
_ISS = tuple((c, tuple(f"{pre}{n}" for pre in _ISS_PREFIXES for n in (_ROMAN[c], str(c))))
             for c in (1, 2, 3, 4))
#: Fitness for treatment as the IMWG frailty score grades it (walk-through 73: fit 1,
#: frail 2, "Frail (IMWG)" 3, intermediate 5).
_FRAILTY = (
    (1, ("fit", "fit (imwg)", "imwg fit", "fit for treatment", "robust")),
    (2, ("intermediate", "intermediate fit", "intermediate-fit", "intermediate fitness",
         "intermediate (imwg)", "imwg intermediate", "int", "intermed", "intermed.",
         "unfit", "pre-frail", "prefrail", "pre frail")),
    (3, ("frail", "frail (imwg)", "imwg frail", "very frail", "severely frail")))
#: Atrial fibrillation's type, from the shortest episodes to rhythm control abandoned.
_AF_TYPE = (
    (1, ("paroxysmal", "paroxysmal af", "paf", "parox", "parox af", "paroxysmal afib",
         "paroxysmal atrial fibrillation", "intermittent", "intermittent af")),
    (2, ("persistent", "persistent af", "pers af", "persaf", "pers", "persistent afib",
         "persistent atrial fibrillation", "early persistent")),
    (3, ("long-standing persistent", "long standing persistent", "longstanding persistent",
         "long-standing persistent af", "long standing persistent af",
         "longstanding persistent af", "lspaf", "ls paf", "ls persistent", "ls-persistent",
         "lsp af", "long-standing persistent atrial fibrillation")),
    (4, ("permanent", "permanent af", "perm af", "permaf", "perm", "permanent afib",
         "permanent atrial fibrillation", "accepted permanent")))
#: The thyroid's size as the WHO grades a goitre: none, palpable, visible (and the older
#: grade 3, visible from a distance; 1a and 1b are grade 1). Walk-through 89's thyroid
#: clinic wrote "1", "Grade 1", "WHO 1" and "palpable": coded alphabetically, 12 answers.
_ROMAN_6 = {0: "0", 1: "i", 2: "ii", 3: "iii", 4: "iv", 5: "v", 6: "vi"}


def _graded(prefixes: tuple[str, ...], grade: int, *suffixes: str) -> tuple[str, ...]:
    return tuple(f"{pre}{n}{suf}" for pre in prefixes
                 for n in dict.fromkeys((str(grade), _ROMAN_6[grade]))
                 for suf in ("", *suffixes))


_GOITRE_PREFIXES = ("", "grade ", "grade", "who ", "who", "who grade ", "who-", "who: ",
                    "grade: ", "g", "who grade: ")
_GOITRE = (
    (0, (*_graded(_GOITRE_PREFIXES, 0), "none", "no goitre", "no goiter", "nil",
         "not palpable", "impalpable", "non-palpable", "nonpalpable", "normal", "absent")),
    (1, (*_graded(_GOITRE_PREFIXES, 1, "a", "b"), "palpable", "palpable not visible",
         "palpable, not visible", "palpable but not visible", "small", "small goitre")),
    (2, (*_graded(_GOITRE_PREFIXES, 2), "visible", "visible goitre", "visible goiter",
         "visible with neck in normal position", "large", "large goitre")),
    (3, (*_graded(_GOITRE_PREFIXES, 3), "visible at a distance", "very large")))
#: A thyroid nodule's fine-needle aspiration as the Bethesda system reports it, I to VI,
#: and the UK's Thy1 to Thy5 on the same ranks (Thy3a: atypia, III; Thy3f: a follicular
#: neoplasm, IV).
_BETHESDA_PREFIXES = ("", "bethesda ", "bethesda", "bethesda category ", "category ",
                      "cat ", "tbsrtc ", "bsrtc ", "bethesda-", "bethesda: ")
_BETHESDA = (
    (1, (*_graded(_BETHESDA_PREFIXES, 1), "thy1", "thy 1", "thy1c", "thy 1c",
         "non-diagnostic", "nondiagnostic", "non diagnostic", "unsatisfactory",
         "nd/uns", "inadequate", "insufficient")),
    (2, (*_graded(_BETHESDA_PREFIXES, 2), "thy2", "thy 2", "thy2c", "thy 2c", "benign")),
    (3, (*_graded(_BETHESDA_PREFIXES, 3), "thy3a", "thy 3a", "aus", "flus", "aus/flus",
         "atypia", "atypia of undetermined significance",
         "follicular lesion of undetermined significance")),
    (4, (*_graded(_BETHESDA_PREFIXES, 4), "thy3f", "thy 3f", "fn", "sfn", "fn/sfn",
         "follicular neoplasm", "suspicious for follicular neoplasm")),
    (5, (*_graded(_BETHESDA_PREFIXES, 5), "thy4", "thy 4", "sm", "sfm",
         "suspicious for malignancy", "suspicious", "suspicious of malignancy")),
    (6, (*_graded(_BETHESDA_PREFIXES, 6), "thy5", "thy 5", "malignant", "malignancy")))
#: A thyroid nodule's ultrasound grade, from benign to highly suspicious: the ACR's TI-RADS
#: TR1 to TR5 (EU-TIRADS 2 to 5 alike) and the British Thyroid Association's U1 to U5
#: (walk-through 89 wrote both in one column), read on the same ranks; no nodule below.
_TIRADS_PREFIXES = ("tr", "tr ", "tr-", "tirads ", "tirads", "ti-rads ", "ti-rads",
                    "tirads-", "ti-rads-", "acr tr", "acr tirads ", "acr ti-rads ",
                    "eu-tirads ", "eu-tirads", "eu tirads ", "u", "u ", "u-", "bta u")
_TIRADS = (
    (0, ("no nodule", "no nodules", "none", "no nodules seen", "nil", "normal thyroid",
         "normal")),
    *((g, tuple(f"{pre}{g}" for pre in _TIRADS_PREFIXES)) for g in (1, 2, 3, 4, 5)))
_CKD_PREFIXES = ("", "ckd", "ckd ", "ckd-", "ckd stage ", "ckd stage", "stage ", "stage",
                 "g", "g ", "ckd g", "ckd g ", "stage g", "ckd stage g", "egfr category g",
                 "kdigo ", "kdigo g", "ckd: ", "stage: ")
_DIALYSIS = (" on hd", " on dialysis", " on pd", "d", " d", " (dialysis)", " hd", " pd",
             " dialysis", " - dialysis", " (hd)", " (pd)", " on haemodialysis",
             " on hemodialysis", " on peritoneal dialysis")
_CKD_STAGE = (
    (0, ("none", "no", "no ckd", "nil", "normal", "not ckd")),
    *((g, tuple(f"{pre}{n}" for pre in _CKD_PREFIXES for n in (str(g), _ROMAN_6[g])))
      for g in (1, 2, 3, 4)),
    (3.2, tuple(f"{pre}{n}" for pre in _CKD_PREFIXES for n in ("3a", "iiia"))),
    (3.6, tuple(f"{pre}{n}" for pre in _CKD_PREFIXES for n in ("3b", "iiib"))),
    (5, (*(f"{pre}{n}" for pre in _CKD_PREFIXES for n in ("5", "v")),
         *(f"{w} (5)" for w in ("eskd", "esrd", "esrf", "end stage", "end-stage")))),
    (5.5, (*(f"{pre}5{d}" for pre in _CKD_PREFIXES for d in _DIALYSIS), "esrd", "eskd",
           "esrf", "end stage", "end-stage", "on dialysis", "dialysis", "esrd on hd",
           "eskd on dialysis")))
_STAGE_PREFIXES = ("", "stage ", "stage", "st ", "stage: ", "ajcc ", "ajcc stage ",
                   "clinical stage ", "pathological stage ", "c", "p", "cs ", "ps ")
_SUBSTAGE = {"": 0.0, "a": 0.2, "b": 0.4, "c": 0.6}


def _stages() -> tuple:
    """A cancer's overall stage, 0 to IV with its sub-stages (IIA < IIB < IIIA), in
    Roman or Arabic numerals, after "Stage" or none."""
    ranks = [(0, tuple(f"{pre}0" for pre in _STAGE_PREFIXES) + ("0 (dcis)", "dcis", "tis",
                                                                  "stage 0 (dcis)"))]
    for g in (1, 2, 3, 4):
        for sub, step in _SUBSTAGE.items():
            if g == 4 and sub == "c":
                continue
            ranks.append((g + step, tuple(f"{pre}{n}{sub}" for pre in _STAGE_PREFIXES
                                          for n in (str(g), _ROMAN_6[g]))))
    return tuple(ranks)


#: A tumour's histological grade, 1 to 3 (4: undifferentiated), written "G2", "2",
#: "Grade 2" or "grade II" (walk-through 95: nine unordered answers of three grades).
_GRADE_PREFIXES = ("", "g", "g ", "grade ", "grade", "gr ", "gr", "grade: ", "nottingham ",
                   "nottingham grade ", "histological grade ", "who grade ", "bre ",
                   "sbr ", "elston ")
_TUMOUR_GRADE = tuple(
    (g, tuple(f"{pre}{n}" for pre in _GRADE_PREFIXES for n in (str(g), _ROMAN_6[g]))
     + words) for g, words in (
        (1, ("well differentiated", "well-differentiated", "low grade", "low")),
        (2, ("moderately differentiated", "moderately-differentiated", "intermediate grade",
             "intermediate")),
        (3, ("poorly differentiated", "poorly-differentiated", "high grade", "high")),
        (4, ("undifferentiated",))))
#: The modified Rankin scale, 0 (no symptoms) to 6 (dead), by its number, its words or
#: both (walk-through 96: "0", "mRS 0" and "0 - no symptoms" were three unordered
#: answers).
_MRS_WORDS = {0: ("no symptoms", "no symptoms at all", "asymptomatic"),
              1: ("no significant disability", "no significant disability despite symptoms",
                  "minimal symptoms"),
              2: ("slight disability",), 3: ("moderate disability", "moderate"),
              4: ("moderately severe disability", "moderately severe"),
              5: ("severe disability", "severe", "bedbound", "bedridden"),
              6: ("dead", "died", "death", "deceased")}
_MRS = tuple(
    (code, tuple(dict.fromkeys(
        [f"{pre}{code}" for pre in ("", "mrs ", "mrs", "mrs=", "mrs: ", "mrs-", "rankin ")]
        + [f"{pre}{code}{sep}{w}" for pre in ("", "mrs ") for w in words
           for sep in (" - ", " ", "-", " (", ": ", " – ")]
        + [f"{pre}{code} ({w})" for pre in ("", "mrs ") for w in words]
        + list(words))))
    for code, words in _MRS_WORDS.items())
#: A column of HER2 status, by its name (its scale here, its cells read by
#: :mod:`sparge.data.receptors`).
HER2_NAME = re.compile(r"\bher[\s-]?2\b|\berbb[\s-]?2\b|\bneu\b", re.IGNORECASE)
#: A test or treatment the clinician judged not needed (normalised keys): a no among
#: yes/no answers (walk-through 62's interpreter "not required", walk-through 96's carotid
#: endarterectomy "not indicated"), a value that does not apply among numbers.
NOT_NEEDED_WRITTEN = ("not indicated", "not clinically indicated", "clinically not indicated",
                      "not required", "not needed")
#: Recognised ordered scales: name -> ((code, spellings), ...), spellings as ``norm_key``.
SCALES: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = {
    "yes/no": ((0, ("unknown", "unk", "not known", "nk", "n/k", "n.k.", "n.k")),
               # ... and their typos (walk-through 97's outcome: "Yse", "Nn" 13, "N0" 10,
               # learned as three more outcomes, and the leak check counted "Yse"'s 1)
               (1, ("yes", "y", "true", "yse", "yess", "yees", "eys")),
               (2, ("no", "n", "false", *NOT_NEEDED_WRITTEN, "nn", "n0", "noo", "nno"))),
    "albuminuria": ((1, ("none", "normal", "normoalbuminuria")),
                    (2, ("micro", "microalbuminuria")),
                    (3, ("macro", "macroalbuminuria"))),
    "frequency": ((1, ("never", "rarely", "never/rarely", "seldom")),
                  (2, ("sometimes", "occasionally")),
                  (3, ("often", "most of the times", "most of the time", "usually")),
                  (4, ("always",))),
    # walk-through 52's risk levels: "L", "Med", "mod", "M", "H" beside the words
    "low/medium/high": ((1, _LOW), (2, _MEDIUM), (3, _HIGH)),
    # ... and the bands between them ("low-moderate", "Low/Med", "L-M"): one level each
    "low/medium/high (banded)": ((1, _LOW), (2, _LOW_MEDIUM), (3, _MEDIUM),
                                 (4, _MEDIUM_HIGH), (5, _HIGH)),
    "severity": ((1, ("none",)), (2, ("mild",)), (3, ("moderate",)), (4, ("severe",))),
    # an operation's urgency (walk-through 98's cardiac surgery: "Elec", "El", "URG",
    # "IHU", "in-house urgent", "EMERG", "salvage" coded alphabetically, 11 answers)
    "urgency": ((1, ("elective", "elec", "el", "elect", "routine", "planned")),
                (2, ("urgent", "urg", "ihu", "in-house urgent", "inhouse urgent",
                     "in house urgent", "urgent (inpatient)", "inpatient urgent",
                     "urgent inpatient", "urgent (in-house)", "expedited")),
                (3, ("emergency", "emerg", "emer", "em", "emergent")),
                (4, ("salvage",))),
    "normal/abnormal": ((1, ("normal",)), (2, ("borderline",)), (3, ("abnormal",))),
    # how certain a finding is (a NICU export's haemorrhage grades read absent 1,
    # definite 2, possible 3 in alphabetical order)
    "certainty": ((1, ("absent", "not present")), (2, ("possible", "suspected", "equivocal")),
                  (3, ("probable", "likely")),
                  (4, ("definite", "present", "confirmed"))),
    # a tumour's differentiation in words (its grade: G1 well, G2 moderately, G3 poorly,
    # G4 undifferentiated)
    "differentiation": (
        (1, ("well", "well differentiated", "well-differentiated", "well diff.",
             "well diff")),
        (2, ("moderately", "moderately differentiated", "moderately-differentiated",
             "moderately diff.", "moderately diff", "mod diff", "mod. diff.")),
        (3, ("poorly", "poorly differentiated", "poorly-differentiated", "poorly diff.",
             "poorly diff")),
        (4, ("undifferentiated", "anaplastic"))),
    # a diabetic foot's risk as NICE grades it (walk-through 65: coded alphabetically,
    # "active" first); a foot in remission after an ulcer is at the highest risk of one
    "foot risk": ((1, ("low", "low risk")),
                  (2, ("moderate", "mod", "moderate risk", "increased", "increased risk")),
                  (3, ("high", "high risk")), (4, ("in remission", "remission")),
                  (5, ("active", "active ulcer", "active foot disease",
                       "active foot problem"))),
    # diabetic eye screening grades (walk-through 64: sparge.data.retinopathy)
    "retinopathy": ((1, ("r0",)), (2, ("r1",)), (3, ("r2",)), (4, ("r3s",)), (5, ("r3a",))),
    "maculopathy": ((1, ("m0",)), (2, ("m1",))),
    # the Montreal classification's ordered parts (walk-through 68: sparge.data.montreal)
    "montreal age": ((1, ("a1",)), (2, ("a2",)), (3, ("a3",))),
    "montreal behaviour": ((1, ("b1",)), (2, ("b2",)), (3, ("b3",))),
    "montreal extent": ((1, ("e1",)), (2, ("e2",)), (3, ("e3",))),
    "montreal severity": ((0, ("s0",)), (1, ("s1",)), (2, ("s2",)), (3, ("s3",))),
    # tumour grades and disease stages written in Roman numerals (GBSG2's tgrade I/II/III)
    "grade/stage": ((1, ("i", "grade i", "stage i")), (2, ("ii", "grade ii", "stage ii")),
                    (3, ("iii", "grade iii", "stage iii")),
                    (4, ("iv", "grade iv", "stage iv"))),
    # heart failure's functional class (a column named so: its spellings are numerals)
    "nyha": _NYHA_SCALE,
    # the airway's Mallampati class (a column named so: its spellings are numerals)
    "mallampati": _MALLAMPATI,
    # atrial fibrillation's type as the ESC orders it (a column named so: walk-through 87
    # wrote 12 spellings, "PAF", "pers AF", "LSPAF", "perm AF", coded alphabetically)
    "af type": _AF_TYPE,
    # an operation's anaesthetic risk (a column named ASA: its spellings are numerals)
    "asa": _ASA_SCALE,
    # the thyroid clinic's grades (walk-through 89: each coded alphabetically)
    "goitre grade": _GOITRE,
    # peripheral arterial disease's Rutherford category (0-6) and Fontaine stage (I-IV,
    # IIa < IIb): walk-through 94 read them as unordered answers
    "rutherford": tuple((c, tuple(f"{pre}{c}" for pre in ("", "r", "r ", "rutherford ",
                                                           "category ", "cat ", "rc ")))
                        for c in range(7)),
    "fontaine": ((1, ("i", "1", "stage i", "fontaine i", "stage 1", "fontaine 1")),
                 (2, ("ii", "2", "stage ii", "fontaine ii", "stage 2", "fontaine 2")),
                 (2.2, ("iia", "2a", "stage iia", "fontaine iia", "stage 2a", "fontaine 2a")),
                 (2.6, ("iib", "2b", "stage iib", "fontaine iib", "stage 2b", "fontaine 2b")),
                 (3, ("iii", "3", "stage iii", "fontaine iii", "stage 3", "fontaine 3")),
                 (4, ("iv", "4", "stage iv", "fontaine iv", "stage 4", "fontaine 4"))),
    # chronic kidney disease's stage as KDIGO grades the GFR, 3a < 3b, and stage 5 on
    # dialysis (5D) after stage 5 (walk-through 94's "CKD3b", "CKD 3", "CKD 5 on HD" were
    # coded alphabetically)
    "ckd stage": _CKD_STAGE,
    # a cancer's overall stage with its sub-stages, and a tumour's grade (walk-through
    # 95: 20 stage and 9 grade codes in alphabetical order, IIB after IIIA)
    "mrs": _MRS,
    "cancer stage": _stages(),
    # HER2 as :mod:`sparge.data.receptors` reads it: 0 < 1+ < 2+ ISH-negative < 2+
    # equivocal < positive; a plain "negative" between 0 and 1+ (walk-through 95)
    "her2": ((0, ("0",)), (0.5, ("negative",)), (1, ("1+",)), (1.5, ("her2-low",)),
             (2, ("2+ ish negative",)), (2.5, ("2+ equivocal",)),
             (3, ("2+ ish positive", "3+", "positive"))),
    "tumour grade": _TUMOUR_GRADE,
    # a skin disease's investigator or physician global assessment, IGA / PGA 0 to 4
    # (walk-through 93: "1"-"4" coded 1-4 and "mild" to "severe" 5-8, unordered)
    "iga": tuple((code, tuple(f"{pre}{w}" for w in words
                              for pre in ("", "iga ", "pga ", "spga ", "iga: ", "pga: ")))
                 for code, words in (
                     (0, ("0", "clear", "0 - clear", "0 clear", "0 (clear)")),
                     (1, ("1", "almost clear", "1 - almost clear", "1 almost clear",
                          "1 (almost clear)", "minimal")),
                     (2, ("2", "mild", "2 - mild", "2 mild", "2 (mild)")),
                     (3, ("3", "moderate", "3 - moderate", "3 moderate", "3 (moderate)")),
                     (4, ("4", "severe", "4 - severe", "4 severe", "4 (severe)",
                          "very severe")))),
    "bethesda": _BETHESDA,
    "ti-rads": _TIRADS,
    # pre-fracture mobility as the National Hip Fracture Database grades it (walk-through
    # 72: 16 spellings of its 5 grades, coded alphabetically, "bedbound" first)
    "mobility": (
        (1, ("freely mobile without aids", "freely mobile", "freely mobile w/o aids",
             "freely mobil without aids", "freely mobile no aids", "fully mobile",
             "independent", "independently mobile", "mobile without aids", "no aids",
             "walks unaided", "unaided", "mobile independently", "independent without aids",
             "freely mobile outdoors", "mobile outdoors without aids",
             # walk-through 102's abbreviations ("FMWA": freely mobile without aids)
             "fmwa", "fm", "indep", "indep.", "independent, no aids", "independent no aids",
             "independent - no aids", "independent (no aids)", "no aid", "nil aids",
             "walks independently", "independently mobile without aids")),
        (2, ("mobile outdoors with one aid", "mobile outdoors with 1 aid",
             "mobile outdoors w/ 1 aid", "mobile outdoors with one aid (stick)",
             "one aid", "1 aid", "stick", "walking stick", "one stick", "1 stick",
             "with a stick", "with stick", "mobile with stick", "mobile with one aid",
             "mobile with 1 aid", "mobile outdoors with a stick", "mobile outdoors one aid",
             "outdoors w/ stick", "outdoors with stick", "outdoors with one aid",
             "outdoors with 1 aid", "outdoors with a stick",
             "ws", "1 ws", "ws x1", "single stick", "quad stick", "tripod", "one crutch",
             "1 crutch", "walking stick outdoors", "mobile with walking stick")),
        (3, ("mobile outdoors with two aids or frame", "mobile outdoors w/ 2 aids or frame",
             "mobile outdoors with 2 aids or frame", "two aids or frame", "2 aids or frame",
             "two aids", "2 aids", "frame", "zimmer frame", "zimmer", "wzf",
             "walking frame", "rollator", "two sticks", "2 sticks", "crutches",
             "mobile with frame", "mobile with zimmer frame", "with frame",
             "zimmer frame outdoors", "frame outdoors", "outdoors with frame",
             "outdoors with two aids or frame", "outdoors w/ frame",
             "zf", "wf", "2 ws", "two ws", "ws x2", "4ww", "4 wheeled walker",
             "four wheeled walker", "wheeled zimmer", "wheeled walker", "walker",
             "delta frame", "gutter frame", "2 crutches", "two crutches", "pick up frame",
             "mobile with rollator", "mobile with two sticks", "mobile with 2 sticks")),
        (4, ("some indoor mobility", "some indoor mobility but never goes outside without help",
             "some indoor mobility, never outside without help", "indoor mobility only",
             "indoors only", "indoor only", "mobile indoors only", "housebound",
             "indoors only with frame", "indoors with frame", "indoor only with frame",
             "indoor mobility with frame")),
        (5, ("no functional mobility", "no functional mobility (using lower limbs)",
             "bedbound", "bed bound", "bed-bound", "chairbound", "chair bound",
             "chair-bound", "wheelchair", "wheelchair bound", "immobile", "hoist",
             "hoisted", "hoist transfers", "hoist transfer", "non-ambulant",
             "non ambulant", "wc", "w/c", "wheelchair user", "wheelchair-bound",
             "bed-bound/hoist", "bedbound/hoist", "nfm", "no mobility"))),
    # a urine dipstick's grades (walk-through 100's proteinuria, beside its ratios:
    # :mod:`sparge.data.dipsticks`), in a column named so
    "urine dipstick": ((0, ("negative", "neg", "nil", "-ve", "none")),
                       (1, ("trace", "tr", "+/-")),
                       (2, ("1+", "+", "+1")), (3, ("2+", "++", "+2")),
                       (4, ("3+", "+++", "+3")), (5, ("4+", "++++", "+4"))),
    # hepatology's graded findings (walk-through 70: each coded alphabetically)
    "varices": _VARICES,
    # haematology and oncology (walk-through 73's myeloma clinic)
    "response": _RESPONSE,
    "iss": _ISS,
    "frailty": _FRAILTY,
    # a bare "A", "B", "C" is Child-Pugh only in a column named so (_NAMED_ONLY)
    "child-pugh": tuple((code, tuple(sp for sp in spellings if len(sp) > 1))
                        for code, spellings in _CHILD_PUGH),
    "child-pugh class": _CHILD_PUGH,
    # ascites as Child-Pugh grades it: controlled by diuretics is mild; large, tense or
    # needing paracentesis is the top grade
    "ascites": ((0, ("none", "no ascites", "nil", "absent", "no")),
                (1, ("mild", "slight", "small", "minimal", "trace", "diuretic-controlled",
                     "diuretic controlled", "controlled on diuretics",
                     "controlled with diuretics", "mild (diuretic-controlled)")),
                (2, ("moderate", "moderate ascites")),
                (3, ("severe", "large", "tense", "large volume", "large volume (lvp)",
                     "gross", "refractory", "requiring lvp", "requiring paracentesis"))),
    # hepatic encephalopathy by West Haven grade; covert (minimal or grade I) is below
    # overt (grade II and above)
    "encephalopathy": (
        (0, ("none", "nil", "absent", "no he", "grade 0", "no")),
        (1, ("covert", "minimal", "grade 1", "grade i", "he grade 1", "covert he",
             "minimal he", "mild")),
        (2, ("grade 2", "grade ii", "overt grade 2", "overt grade ii", "overt", "overt he",
             "he grade 2", "moderate")),
        (3, ("grade 3", "grade iii", "overt grade 3", "overt grade iii", "he grade 3",
             "severe")),
        (4, ("grade 4", "grade iv", "overt grade 4", "overt grade iv", "he grade 4",
             "coma"))),
}
_SCALE_CODES = {name: {s: code for code, spellings in ranks for s in spellings}
                for name, ranks in SCALES.items()}
#: Scales whose spellings are too plain to be recognised without the column's name: a
#: column of "A", "B" and "C" is an arm or a ward unless it is named Child-Pugh.
_NAMED_ONLY = {"child-pugh class": re.compile(r"child|pugh|\bcp\b", re.IGNORECASE),
               "urine dipstick": re.compile(r"dipstick", re.IGNORECASE),
               "nyha": re.compile(r"nyha|functional\s+class|heart\s+failure\s+class",
                                  re.IGNORECASE),
               "mobility": re.compile(r"mobility|walking\s+aid|ambulat", re.IGNORECASE),
               "mallampati": MALLAMPATI_NAME,
               "asa": re.compile(r"\basa\b|physical\s+status|american\s+society\s+of\s+"
                                 r"an(?:a)?esth", re.IGNORECASE),
               "response": re.compile(r"respon|remission|\brecist\b|\bimwg\b",
                                      re.IGNORECASE),
               "iss": re.compile(r"\biss\b|r2?-?iss|international\s+staging",
                                 re.IGNORECASE),
               "frailty": re.compile(r"frail|fitness|\bimwg\b", re.IGNORECASE),
               "goitre grade": re.compile(r"goit(?:re|er)|thyroid\s+(?:size|enlargement)",
                                          re.IGNORECASE),
               "rutherford": re.compile(r"rutherford", re.IGNORECASE),
               "fontaine": re.compile(r"fontaine", re.IGNORECASE),
               # "M0"/"M1" is a TNM stage's metastasis part too (walk-through 95 read it
               # as a "maculopathy scale")
               "maculopathy": re.compile(r"macul", re.IGNORECASE),
               "her2": HER2_NAME,
               "mrs": re.compile(r"\bm\.?\s?rs\b|rankin", re.IGNORECASE),
               "cancer stage": re.compile(r"\bstag(?:e|ing)\b|\bajcc\b|\bfigo\b",
                                          re.IGNORECASE),
               "tumour grade": re.compile(r"\bgrade\b|\bgrading\b|differentiation",
                                          re.IGNORECASE),
               "ckd stage": re.compile(r"\bckd\b|chronic\s+kidney|kidney\s+disease|"
                                       r"\bg?fr\s+(?:stage|category|grade)|renal\s+"
                                       r"(?:stage|function\s+stage)", re.IGNORECASE),
               # in capitals: "IgA" is an immunoglobulin
               "iga": re.compile(r"^\s*(?:s?PGA|v?IGA)\b|(?i:investigator'?s?\s+global|"
                                 r"physician'?s?\s+global)"),
               "bethesda": re.compile(r"bethesda|cytolog|\bfna\b|fine[\s-]needle|"
                                      r"\bthy\b", re.IGNORECASE),
               "ti-rads": re.compile(r"ti-?rads|\bnodule|\bu[\s-]?(?:grade|score|class)|"
                                     r"\bbta\b|thyroid\s+(?:us|ultrasound)", re.IGNORECASE),
               "af type": re.compile(r"\b(?:af|afib|atrial fibrillation)\b.{0,3}\b(?:type|"
                                     r"pattern|class\w*|category|subtype)\b|\btype of "
                                     r"(?:af|atrial fibrillation)\b|^af$", re.IGNORECASE)}
_YES = frozenset(s for code, sp in SCALES["yes/no"] if code == 1 for s in sp)
#: The spellings of a yes ("yes", "y", "true").
YES_KEYS = _YES
_NO = frozenset(s for code, sp in SCALES["yes/no"] if code == 2 for s in sp)

_YES_NO_UNKNOWN = {"Unknown": 0, "Yes": 1, "No": 2}
_SMOKE = {"Yes": 1, "No": 2, "Previously": 3}
_EXPOSURE = {"Never": 1, "Sometimes": 2, "Most of the times": 3, "Always": 4}
_YES_NO = {"Yes": 1, "No": 2}
_CUPS = {"Never/rarely": 1, "< 1 cup a week": 2, ">= 1 cup a week but <= 1 cup a day": 3,
         "Others": 4}

#: The paper's integer-encoding table (DESIGN.md §3), by column.
PAPER_TABLE: dict[str, dict[str, int]] = {
    "Country of birth": {"Singaporean": 1, "Others": 2},
    "Marital Status": {"Single": 1, "Married": 2, "Widowed": 3},
    "Religion": {"Christian/Catholic": 1, "Free thinker": 2, "Buddhist": 3, "Islam": 4,
                 "Hindu": 5, "Taoist": 6, "Others": 7},
    "Diabetes": dict(_YES_NO_UNKNOWN),
    "Hypertension": dict(_YES_NO_UNKNOWN),
    "Heart Attack Block": dict(_YES_NO_UNKNOWN),
    "Heart Disease": dict(_YES_NO_UNKNOWN),
    "Hyperlipidemia": dict(_YES_NO_UNKNOWN),
    "Smoking": dict(_SMOKE),
    "Cigarettes": dict(_SMOKE),
    "Home Smoke": dict(_EXPOSURE),
    "Work Smoke": dict(_EXPOSURE),
    "Alcohol": dict(_YES_NO),
    "Beer": dict(_YES_NO),
    "Red Wine": dict(_YES_NO),
    "White Wine": dict(_YES_NO),
    "Coffee Weekly": dict(_CUPS),
    "Tea Weekly": dict(_CUPS),
}


def norm_key(text: object) -> str:
    """Case- and whitespace-insensitive key of a cell or name.

    Parameters
    ----------
    text : object
        A cell, level, token or column name (any value; read as ``str``).

    Returns
    -------
    str
        Lower case, surrounding white space removed, inner white space folded to one space.
    """
    text = str(text)
    if len(text) > LONG_KEY:  # a pasted note: normalised once, not by every rule asking
        return _long_norm_key(text)
    return re.sub(r"\s+", " ", text).strip().lower()


#: Texts longer than this are normalised once each (:func:`norm_key`): a 5 MB cell took
#: 9 s to encode, normalised over and over by the rules that compare answers.
LONG_KEY = 1000


@functools.lru_cache(maxsize=32)
def _long_norm_key(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def is_blank(value: object) -> bool:
    """Whether a cell is empty.

    Parameters
    ----------
    value : object
        A cell.

    Returns
    -------
    bool
        True for ``None``, ``NaN`` and text holding only white space.
    """
    if value is None:
        return True
    if isinstance(value, float) and value != value:
        return True
    return isinstance(value, str) and not value.strip()


def is_missing_token(value: object, tokens: Iterable[str] = DEFAULT_MISSING_TOKENS) -> bool:
    """Whether a cell is empty or a missing token.

    This does not know the column's levels; :class:`~sparge.Encoder` looks a cell up in the
    table first, so that a token that is a level stays a value.

    Parameters
    ----------
    value : object
        A cell.
    tokens : iterable of str
        Normalised missing tokens (default: :data:`DEFAULT_MISSING_TOKENS`).

    Returns
    -------
    bool
        True for empty cells (:func:`is_blank`) and cells whose :func:`norm_key` is a token.
    """
    if is_blank(value):
        return True
    return norm_key(value) in tokens


#: A stage with a sub-stage letter: "3a", "3B".
_SUB_STAGE = re.compile(r"(\d+)([a-c])")


def natural_key(text: object) -> tuple:
    """Sort key for levels in natural order.

    Parameters
    ----------
    text : object
        A level.

    Returns
    -------
    tuple
        A key that sorts numbers first and numerically ("2" < "10"), a number with a
        sub-stage letter after its number ("2" < "3a" < "3b" < "4"), then text
        case-insensitively with the numbers inside compared numerically
        ("Stage 2" < "Stage 10").
    """
    s = norm_key(text)
    try:
        return (0, float(s.replace(",", ".")), "")
    except ValueError:
        pass
    m = _SUB_STAGE.fullmatch(s)
    if m:  # walk-through 23's CKD stages 1, 2, 4, 5, 3a, 3b
        return (0, float(m.group(1)), m.group(2))
    parts = re.split(r"(\d+(?:\.\d+)?)", s)
    return (1, 0.0, tuple((1, float(p), "") if i % 2 else (0, 0.0, p)
                          for i, p in enumerate(parts)))


def scale_of(levels: Iterable[str], name: object = None) -> str | None:
    """The recognised scale that a set of levels fits.

    Parameters
    ----------
    levels : iterable of str
        Levels as written (compared by :func:`norm_key`).
    name : str, optional
        The column's name: the scales of :data:`_NAMED_ONLY` are recognised only in a
        column whose name says them.

    Returns
    -------
    str or None
        Name of the first scale of :data:`SCALES` holding every level; ``None`` when none
        does or there are no levels.
    """
    keys = {norm_key(lv) for lv in levels}
    if not keys:
        return None
    for scale, codes in _SCALE_CODES.items():
        if scale in _NAMED_ONLY and not (name is not None
                                         and _NAMED_ONLY[scale].search(str(name))):
            continue
        # a yes or no with a note ("Yes - 2 units") is offered to merge, not read as one
        if all(_scale_key(k, codes, notes=scale != "yes/no") is not None for k in keys):
            return scale
    return None


#: An answer with a note after a dash, colon or bracket: "high - see plan", "yes (2019)",
#: "no: discharged" (not "n/a", not "non-smoker").
_WITH_NOTE = re.compile(r"(.{1,40}?)\s{0,3}(?:\s[-–]\s|\s?\(|:\s).{1,60}")


def note_head(text: str) -> str | None:
    """The answer before a note ("HIGH - see plan": "HIGH"), or ``None`` without one."""
    m = _WITH_NOTE.fullmatch(text)
    return None if m is None else m.group(1).strip()


def _scale_key(key: str, codes: dict[str, int], notes: bool = True) -> str | None:
    """``key`` (a ``norm_key``) as a spelling of a scale with ``codes``: itself, or (with
    ``notes``) its part before a note (walk-through 52's "HIGH - see plan"); ``None`` when
    neither is."""
    if key in codes:
        return key
    if not notes:
        return None
    head = note_head(key)
    return head if head in codes else None


def scale_codes(levels: Iterable[str], scale: str) -> dict[str, int]:
    """Code levels by their rank on a recognised scale.

    Parameters
    ----------
    levels : iterable of str
        Levels that all fit ``scale`` (see :func:`scale_of`).
    scale : str
        A name of :data:`SCALES`.

    Returns
    -------
    dict
        ``{level: rank code}``, the levels as written.
    """
    codes = _SCALE_CODES[scale]
    return {lv: codes[_scale_key(norm_key(lv), codes)] for lv in levels}


#: A test's name and its result: "hbsag+", "anti-hcv neg", "hiv ab positive".
_TEST_RESULT = re.compile(
    r"[a-z][a-z0-9\-]*[a-z0-9](?:\s[a-z0-9][a-z0-9\-]*[a-z0-9])?"
    r"(?:\s*(?P<sign>[+-])|\s+(?P<word>pos|positive|reactive|neg|negative|non-?reactive))")


def _test_result(key: str) -> int | None:
    """1 for a positive test result written after the test's name, 2 for a negative one,
    else ``None``."""
    m = _TEST_RESULT.fullmatch(key) if len(key) <= 32 else None
    if m is None:
        return None
    result = m.group("sign") or m.group("word")
    return 1 if result in ("+", "pos", "positive", "reactive") else 2


def yes_no_codes(levels: Iterable[str]) -> dict[str, int] | None:
    """Code a yes/no column in the paper's direction.

    Parameters
    ----------
    levels : iterable of str
        The column's levels as written.

    Returns
    -------
    dict or None
        ``{level: code}``: Yes 1, No 2, Unknown 0; "1" and "0", "present" and "absent",
        "positive" and "negative" beside a yes and a no are yes and no (an export joining
        two systems: walk-through 23's yes/Y/1/true column coded its 1 and 0 apart until
        merged); any other levels follow in natural order from 3. ``None`` when the
        levels lack a yes or a no.
    """
    levels = list(levels)
    keys = {norm_key(lv) for lv in levels}
    if not (keys & _YES and keys & _NO):
        return None
    # "present" / "absent" and "positive" / "negative" too (walk-through 24's ascites)
    fixed = {**_SCALE_CODES["yes/no"], "1": 1, "0": 2, "present": 1, "absent": 2,
             "positive": 1, "negative": 2, "pos": 1, "neg": 2}
    out = {lv: fixed[norm_key(lv)] for lv in levels if norm_key(lv) in fixed}
    # a test's result after its name, "HBsAg+", "anti-HCV neg" (walk-through 37's
    # hepatitis columns coded them apart from Yes and No)
    out.update({lv: code for lv in levels if lv not in out
                and (code := _test_result(norm_key(lv))) is not None})
    others = sorted((lv for lv in levels if lv not in out), key=natural_key)
    out.update({lv: 3 + i for i, lv in enumerate(others)})
    return out


def _monotone_on_scale(levels: Mapping[str, float]) -> bool:
    """True when the codes follow the rank of a recognised scale (either direction)."""
    scale = scale_of(levels)
    if scale is None:
        return False
    rank = _SCALE_CODES[scale]
    pairs = [(rank[_scale_key(norm_key(lv), rank)], code) for lv, code in levels.items()]
    if len({r for r, _ in pairs}) < 2:
        return False
    up = all(c1 < c2 for r1, c1 in pairs for r2, c2 in pairs if r1 < r2)
    down = all(c1 > c2 for r1, c1 in pairs for r2, c2 in pairs if r1 < r2)
    return up or down


def _parse_code(code: object, where: str) -> float:
    """A table code as a number, or a DataError saying where it is wrong."""
    try:
        value = float(code)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: the code {str(code)[:40]!r} is not a number.") from exc
    if value != value:
        raise DataError(f"{where}: the code is empty.")
    return value


def _parse_flag(value: object, where: str) -> bool | None:
    """An ``ordered`` cell: True/False, or None when empty."""
    if isinstance(value, bool):
        return value
    if is_blank(value):
        return None
    key = norm_key(value)
    if key in {"true", "yes", "y", "1", "1.0", "ordered"}:
        return True
    if key in {"false", "no", "n", "0", "0.0", "unordered"}:
        return False
    raise DataError(f"{where}: 'ordered' must be true or false, got {str(value)[:40]!r}.")


def _code_is_blank(code: object) -> bool:
    """True for an empty code cell (a missing-token row of a table file)."""
    return code is None or code is pd.NA or is_blank(code)


class EncodingTable:
    """Column -> level -> integer code, order flags and missing tokens.

    Parameters
    ----------
    mapping : dict, optional
        ``{column: {level: code}}``.
    missing_tokens : iterable of str, optional
        Cell texts read as missing in every column; :data:`DEFAULT_MISSING_TOKENS` when
        ``None``. Empty cells are always missing.
    ordered : dict, optional
        ``{column: bool}``; columns not given are ordered when their levels fit a
        recognised scale and their codes follow it.
    """

    def __init__(self, mapping: Mapping[str, Mapping[str, int]] | None = None, *,
                 missing_tokens: Iterable[str] | None = None,
                 ordered: Mapping[str, bool] | None = None):
        self._cols: dict[str, tuple[str, dict[str, tuple[str, int]]]] = {}
        self._ordered: dict[str, bool] = {}
        self._col_missing: dict[str, tuple[str, dict[str, str]]] = {}
        self._missing: dict[str, str] = {}
        self.set_missing_tokens(DEFAULT_MISSING_TOKENS if missing_tokens is None
                                else missing_tokens)
        for col, levels in (mapping or {}).items():
            self.set_column(col, levels)
        for col, flag in (ordered or {}).items():
            self.set_ordered(col, flag)

    @classmethod
    def paper(cls) -> EncodingTable:
        """The paper's table (DESIGN.md §3).

        Returns
        -------
        EncodingTable
            :data:`PAPER_TABLE` with the default missing tokens.
        """
        return cls(PAPER_TABLE)

    # -- levels
    def set_column(self, column: str, levels: Mapping[str, int],
                   ordered: bool | None = None) -> None:
        """Add or replace the levels of one column.

        Parameters
        ----------
        column : str
        levels : dict
            ``{level: code}``; codes are numbers (integral ones are stored as int).
        ordered : bool or None
            Whether the codes follow an order; ``None``: from the recognised scales.

        Raises
        ------
        DataError
            A code is not a number.
        """
        entries: dict[str, tuple[str, int]] = {}
        for level, code in levels.items():
            code_f = _parse_code(code, f"Encoding table, column {str(column)[:80]!r}, "
                                       f"level {str(level)[:80]!r}")
            entries[norm_key(level)] = (str(level), int(code_f) if code_f.is_integer()
                                        else code_f)
        self._cols[norm_key(column)] = (str(column), entries)
        self._ordered.pop(norm_key(column), None)
        if ordered is not None:
            self.set_ordered(column, ordered)

    def with_merged_levels(self, pairs_by_column: Mapping[str, Iterable[Sequence[str]]]
                           ) -> EncodingTable:
        """A copy where each pair ``(a, b)`` of a column's levels shares ``b``'s code.

        For answers written two ways ("f" and "Female", "iii" and "3"; the encoder's
        ``report_.answers_two_ways``). Chains follow through: with ``("NYHA III", "iii")``
        and ``("iii", "3")`` both take the code of "3". A level sharing a merged level's
        code goes with it (a yes/no column's "Y" with its "yes"); other levels keep their
        codes, and the column keeps its order flag.

        Parameters
        ----------
        pairs_by_column : dict
            ``{column: [(level, level whose code it takes), ...]}``; unknown columns and
            levels are ignored.

        Returns
        -------
        EncodingTable
        """
        out = self.copy()
        for col, pairs in pairs_by_column.items():
            if not out.has(col):
                continue
            levels = out.levels(col)
            by_key = {norm_key(lv): lv for lv in levels}
            target = {}
            for a, b in pairs:
                if norm_key(a) in by_key and norm_key(b) in by_key:
                    target[norm_key(a)] = norm_key(b)
            codes = {}
            for lv in levels:
                k, seen = norm_key(lv), set()
                while k in target and k not in seen:  # follow a chain, never a loop
                    seen.add(k)
                    k = target[k]
                codes[lv] = levels[by_key[k]]
            # the spellings that shared a merged answer's code go with it (walk-through
            # 50: "yes" merged into "up to date" left its "Y" behind, a second round)
            moved: dict = {}
            for lv in levels:
                if codes[lv] != levels[lv]:
                    moved.setdefault(levels[lv], codes[lv])
            for lv in levels:
                if codes[lv] == levels[lv] and levels[lv] in moved:
                    codes[lv] = moved[levels[lv]]
            ordered = out.is_ordered(col) if norm_key(col) in out._ordered else None
            out.set_column(col, codes, ordered=ordered)
        return out

    def has(self, column: str) -> bool:
        """Whether the table has levels for a column.

        Parameters
        ----------
        column : str
            Compared case- and space-insensitively.

        Returns
        -------
        bool
        """
        return norm_key(column) in self._cols

    def levels(self, column: str) -> dict[str, int]:
        """The levels of a column.

        Parameters
        ----------
        column : str
            A column of the table (``KeyError`` otherwise).

        Returns
        -------
        dict
            ``{level: code}``, the levels as written.
        """
        _, entries = self._cols[norm_key(column)]
        return {orig: code for orig, code in entries.values()}

    def lookup(self, column: str, value: object):
        """The code of one cell.

        Parameters
        ----------
        column : str
            A column of the table (``KeyError`` otherwise).
        value : object
            The cell, compared case- and space-insensitively with the levels.

        Returns
        -------
        int, float or None
            The code; ``None`` when the level is not in the table.
        """
        _, entries = self._cols[norm_key(column)]
        hit = entries.get(norm_key(value))
        return None if hit is None else hit[1]

    def columns(self) -> list[str]:
        """The columns with levels, as written, in the order they were added.

        Returns
        -------
        list of str
        """
        return [orig for orig, _ in self._cols.values()]

    # -- order
    def set_ordered(self, column: str, ordered: bool) -> None:
        """Say whether the codes of a column follow an order.

        Parameters
        ----------
        column : str
        ordered : bool
        """
        self._ordered[norm_key(column)] = bool(ordered)

    def is_ordered(self, column: str) -> bool:
        """Whether the codes of a column follow an order.

        Parameters
        ----------
        column : str

        Returns
        -------
        bool
            The flag set for the column; else True when its levels fit a recognised scale
            and their codes follow it (either direction).
        """
        key = norm_key(column)
        if key in self._ordered:
            return self._ordered[key]
        return key in self._cols and _monotone_on_scale(self.levels(column))

    # -- missing tokens
    @property
    def missing_tokens(self) -> list[str]:
        """The tokens read as missing in every column (as written)."""
        return list(self._missing.values())

    def set_missing_tokens(self, tokens: Iterable[str], column: str | None = None) -> None:
        """Set the tokens read as missing.

        Parameters
        ----------
        tokens : iterable of str
            The tokens, as written.
        column : str, optional
            ``None`` or ``*``: replace the tokens of every column; a column name: the tokens
            missing in that column only (besides those of every column).
        """
        if isinstance(tokens, (set, frozenset)):
            tokens = sorted(tokens)
        entries = {norm_key(t): str(t).strip() for t in tokens}
        if column is None or column == ALL_COLUMNS:
            self._missing = entries
        else:
            self._col_missing[norm_key(column)] = (str(column), entries)

    def column_missing_tokens(self) -> dict[str, list[str]]:
        """The tokens that are missing in one column only.

        Returns
        -------
        dict
            ``{column: [token, ...]}``, as written.
        """
        return {orig: list(toks.values()) for orig, toks in self._col_missing.values()}

    def missing_keys(self, column: str | None = None) -> frozenset[str]:
        """The tokens read as missing in a column, normalised.

        Parameters
        ----------
        column : str, optional
            ``None``: the tokens of every column only.

        Returns
        -------
        frozenset of str
            :func:`norm_key` of the tokens of every column and of ``column``.
        """
        keys = set(self._missing)
        if column is not None and norm_key(column) in self._col_missing:
            keys |= set(self._col_missing[norm_key(column)][1])
        return frozenset(keys)

    def is_missing(self, value: object, column: str | None = None) -> bool:
        """Whether a cell is empty or a missing token of a column.

        Levels are not looked at: look the cell up first, a level is a value.

        Parameters
        ----------
        value : object
            The cell.
        column : str, optional
            ``None``: the tokens of every column only.

        Returns
        -------
        bool
        """
        return is_blank(value) or norm_key(value) in self.missing_keys(column)

    # -- whole table
    def copy(self) -> EncodingTable:
        """An independent copy (levels, order flags and missing tokens).

        Returns
        -------
        EncodingTable
        """
        return EncodingTable.from_state(self.to_state())

    def without(self, columns: Iterable[str]) -> EncodingTable:
        """A copy without the levels of ``columns`` (their missing tokens kept).

        Parameters
        ----------
        columns : iterable of str
            Compared case- and space-insensitively; a column the table lacks is ignored.

        Returns
        -------
        EncodingTable
        """
        out = self.copy()
        for col in columns:
            out._cols.pop(norm_key(col), None)
            out._ordered.pop(norm_key(col), None)
        return out

    def merged(self, other: EncodingTable) -> EncodingTable:
        """This table updated by another.

        Parameters
        ----------
        other : EncodingTable

        Returns
        -------
        EncodingTable
            A new table: ``other``'s columns added or replacing these (with their order
            flags), and ``other``'s missing tokens.
        """
        out = self.copy()
        for col in other.columns():
            out.set_column(col, other.levels(col))
            if norm_key(col) in other._ordered:
                out.set_ordered(col, other._ordered[norm_key(col)])
        out.set_missing_tokens(other.missing_tokens)
        for col, toks in other.column_missing_tokens().items():
            out.set_missing_tokens(toks, column=col)
        return out

    # -- serialisation
    def to_dict(self) -> dict[str, dict[str, int]]:
        """The levels of every column.

        Returns
        -------
        dict
            ``{column: {level: code}}`` (levels only; :meth:`to_state` has everything).
        """
        return {col: self.levels(col) for col in self.columns()}

    def to_state(self) -> dict:
        """The whole table as plain data, for JSON.

        Returns
        -------
        dict
            ``format``, ``version``, ``columns`` (``{column: {"levels": ..., "ordered":
            ...}}``), ``missing_tokens`` and ``column_missing_tokens``.
        """
        return {"format": "sparge-encoding-table", "version": 2,
                "columns": {col: {"levels": self.levels(col), "ordered": self.is_ordered(col)}
                            for col in self.columns()},
                "missing_tokens": self.missing_tokens,
                "column_missing_tokens": self.column_missing_tokens()}

    @classmethod
    def from_state(cls, state: Mapping) -> EncodingTable:
        """A table from the data :meth:`to_state` gives.

        Parameters
        ----------
        state : dict
            As :meth:`to_state` gives it, or the older ``{column: {level: code}}``.

        Returns
        -------
        EncodingTable

        Raises
        ------
        DataError
            The data has another shape.
        """
        if not isinstance(state, Mapping):
            raise DataError("An encoding table is {column: {value: code}}.")
        if state.get("format") != "sparge-encoding-table":
            if not all(isinstance(v, Mapping) for v in state.values()):
                raise DataError("An encoding table in JSON is {column: {value: code}}.")
            return cls(state)
        cols, tokens = state.get("columns", {}), state.get("missing_tokens")
        per_col = state.get("column_missing_tokens") or {}
        if not isinstance(cols, Mapping) or not all(
                isinstance(v, Mapping) and isinstance(v.get("levels"), Mapping)
                for v in cols.values()):
            raise DataError("The encoding table's 'columns' must be {column: {\"levels\": "
                            "{value: code}, \"ordered\": true/false}}.")
        if tokens is not None and not (isinstance(tokens, list)
                                       and all(isinstance(t, str) for t in tokens)):
            raise DataError("The encoding table's 'missing_tokens' must be a list of text.")
        if not isinstance(per_col, Mapping) or not all(
                isinstance(v, list) and all(isinstance(t, str) for t in v)
                for v in per_col.values()):
            raise DataError("The encoding table's 'column_missing_tokens' must be "
                            "{column: [text, ...]}.")
        table = cls(missing_tokens=tokens)
        for col, entry in cols.items():
            flag = entry.get("ordered")
            table.set_column(col, entry["levels"],
                             ordered=None if flag is None else _parse_flag(flag, str(col)))
        for col, toks in per_col.items():
            table.set_missing_tokens(toks, column=col)
        return table

    def to_frame(self) -> pd.DataFrame:
        """The table as a frame, for display, editing and CSV files.

        Returns
        -------
        pandas.DataFrame
            Columns ``column, value, code, ordered``: one row per level, then one row per
            missing token with an empty code (``column`` = ``*`` for every column).
        """
        rows = [{"column": c, "value": v, "code": k, "ordered": self.is_ordered(c)}
                for c in self.columns() for v, k in self.levels(c).items()]
        rows += [{"column": ALL_COLUMNS, "value": t, "code": None, "ordered": False}
                 for t in self.missing_tokens]
        rows += [{"column": c, "value": t, "code": None, "ordered": False}
                 for c, toks in self.column_missing_tokens().items() for t in toks]
        df = pd.DataFrame(rows, columns=["column", "value", "code", "ordered"])
        codes = pd.to_numeric(df["code"], errors="coerce")
        integral = codes.dropna().map(float.is_integer).all() if codes.notna().any() else True
        df["code"] = codes.astype("Int64" if integral else "Float64")
        df["ordered"] = df["ordered"].astype(bool)
        return df

    @classmethod
    def from_frame(cls, df: pd.DataFrame) -> EncodingTable:
        """A table from a frame as :meth:`to_frame` gives it.

        Parameters
        ----------
        df : pandas.DataFrame
            Columns ``column``, ``value``, ``code`` and optionally ``ordered`` (names
            compared case-insensitively); rows with an empty code are missing tokens.

        Returns
        -------
        EncodingTable

        Raises
        ------
        DataError
            A column is absent, a column name is empty, a code is not a number or an
            ``ordered`` cell is not true/false; the message names the row.
        """
        need = {"column", "value", "code"}
        cols = {norm_key(c): c for c in df.columns}
        if not need <= set(cols):
            raise DataError("An encoding table needs the columns 'column', 'value' and "
                            f"'code'; got {[str(c)[:40] for c in df.columns][:10]}.")
        grouped: dict[str, dict[str, float]] = {}
        flags: dict[str, bool | None] = {}
        global_tokens: list[str] | None = None
        col_tokens: dict[str, list[str]] = {}
        for i, row in enumerate(df.itertuples(index=False)):
            rec = dict(zip(df.columns, row))
            col, val, code = rec[cols["column"]], rec[cols["value"]], rec[cols["code"]]
            where = f"Encoding table row {i + 1} ({str(col)[:60]!r} / {str(val)[:60]!r})"
            if is_blank(col) or col is pd.NA:
                raise DataError(f"Encoding table row {i + 1}: the column name is empty.")
            col, val = str(col).strip(), "" if is_blank(val) or val is pd.NA else str(val)
            if _code_is_blank(code):
                if col == ALL_COLUMNS:
                    global_tokens = (global_tokens or []) + [val]
                else:
                    col_tokens.setdefault(col, []).append(val)
                continue
            grouped.setdefault(col, {})[val] = _parse_code(code, where)
            if "ordered" in cols:
                flag = _parse_flag(rec[cols["ordered"]], where)
                if flag is not None:
                    flags[col] = flags.get(col) or flag
        table = cls(missing_tokens=global_tokens)
        for col, levels in grouped.items():
            table.set_column(col, levels, ordered=flags.get(col))
        for col, toks in col_tokens.items():
            table.set_missing_tokens(toks, column=col)
        return table

    def to_csv(self) -> str:
        """The table as CSV text (the rows of :meth:`to_frame`).

        Returns
        -------
        str
        """
        return self.to_frame().to_csv(index=False)

    @classmethod
    def from_csv(cls, text_or_path) -> EncodingTable:
        """A table from CSV text or a CSV file.

        Parameters
        ----------
        text_or_path : str, path or file-like
            CSV text (with a line break), or what :func:`pandas.read_csv` reads.

        Returns
        -------
        EncodingTable

        Raises
        ------
        DataError
            The CSV cannot be read or is not an encoding table (see :meth:`from_frame`).
        """
        try:
            if isinstance(text_or_path, str) and "\n" in text_or_path:
                df = pd.read_csv(io.StringIO(text_or_path), dtype=str, keep_default_na=False,
                                 index_col=False)
            else:
                df = pd.read_csv(text_or_path, dtype=str, keep_default_na=False,
                                 index_col=False)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise DataError(f"Cannot read the encoding table as CSV: {exc}") from exc
        return cls.from_frame(df)

    def to_json(self) -> str:
        """The table as JSON text (:meth:`to_state`).

        Returns
        -------
        str
        """
        return json.dumps(self.to_state(), indent=2, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> EncodingTable:
        """A table from JSON text.

        Parameters
        ----------
        text : str
            As :meth:`to_json` gives it, or the older ``{column: {level: code}}``.

        Returns
        -------
        EncodingTable

        Raises
        ------
        DataError
            Not valid JSON, or not an encoding table.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"The encoding table is not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise DataError("An encoding table in JSON is {column: {value: code}}.")
        return cls.from_state(data)

    def __len__(self) -> int:
        return len(self._cols)

    def __repr__(self) -> str:
        return f"EncodingTable({len(self)} columns)"
