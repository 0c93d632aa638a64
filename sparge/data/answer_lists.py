"""Columns of answer lists ("DM, HTN, CKD"), read as one yes/no column per answer.

A clinic export often writes a patient's comorbidities, allergies or medications as a list
in one cell. As text, "CKD, CHF, COPD" and "CHF, CKD" are two of 188 different answers:
walk-through 27's "Comorbidities" was left out of the model as free text, and with it the
cirrhosis and cancer that drove its cohort's mortality. Read apart, each answer is a
yes/no column the encoder knows: "Comorbidities: CKD" is Yes for a patient whose list
names it, No for one whose list does not (or who has "None"), and a gap for a patient
with no list.

A column is read so when it looks like lists, not like answers that contain a comma
("Bacteremia, unknown source") nor like notes:

* at least :data:`LIST_SHARE` of its written cells hold two answers or more, in at least
  :data:`MIN_COMBINATIONS` different lists;
* its answers are few (at most :data:`MAX_ITEMS`), short (at most four words), and each
  answer of a list is written in at least two different cells (alone, or in another
  list): the lists recombine a small vocabulary;
* it is not named like notes, nor written in sentences
  (:func:`~sparge.data.column_kinds.looks_like_free_text`).

Answers of fewer than :func:`~sparge.data.parsing.min_category_count` patients (and at
least 5) share one column, ``"<name>: other"``.
"""

from __future__ import annotations

import re
from collections import Counter

import pandas as pd

from sparge.data.column_kinds import looks_like_free_text
from sparge.data.cytogenetics import CYTOGENETICS_NAME, FINDING_WORDS
from sparge.data.drug_combinations import REGIMEN_COLUMN, VASOACTIVE_COLUMN, drug_set
from sparge.data.levels import CONDITION_NAMES, smoking_column, smoking_status
from sparge.data.parsing import cell_text, min_category_count
from sparge.data.safe_text import first_cells, quoted_names
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS, is_blank, norm_key
from sparge.data.vasopressor_doses import cell_doses, dose_items, parse_dose_item, part_dose

#: What separates the answers of a list ("," ";" "+" "|"; not "/", which joins one
#: answer's two spellings: "White/Caucasian").
#: Never inside brackets: "t(4;14)" is one finding (walk-through 73's cytogenetics).
_SEPARATOR = re.compile(r"\s*[,;+|\n]\s*(?![^()\n]*\))")
_LETTER = re.compile(r"[^\W\d_]")
#: Share of a column's written cells that must hold two answers or more (walk-through
#: 54's comorbidities: 56 lists among 325 answers, 17 %, were left out as free text).
LIST_SHARE = 0.1
#: Fewest different lists of two answers or more.
MIN_COMBINATIONS = 5
#: Most different answers a list column may have.
MAX_ITEMS = 30
#: Most words in one answer.
MAX_WORDS = 4
#: Share of the answers written in lists that must also be written in another cell.
REUSED_SHARE = 0.9
#: Cells that say the list is empty: no to every answer.
NONE_WORDS = frozenset({"none", "nil", "no", "nothing", "none known", "no comorbidities",
                        "no comorbidity", "no history", "nkda", "no known",
                        # walk-through 42's "nil known" became an allergen of its own
                        "nil known", "nka", "nkfa", "no known allergies",
                        "no known allergy", "no known drug allergies", "no allergies",
                        "none reported", "nil of note", "nad",
                        # no past medical history (walk-through 58's "NKMH" became a
                        # comorbidity)
                        "nkmh", "no pmh", "nil pmh", "pmh nil", "no known pmh",
                        # ... and walk-through 101's "NKPMH", a condition of 19 patients
                        "nkpmh", "nmh", "nil pmhx", "no pmhx", "no sig pmh", "nsmh",
                        "nil of significance", "previously well", "prev well",
                        "no past medical history", "no known medical history",
                        "no significant pmh", "nil significant", "no medical history",
                        # a diabetes' treatment without drugs (walk-through 64)
                        "diet only", "diet controlled", "diet", "lifestyle",
                        "diet and exercise", "lifestyle only", "no medication",
                        "no medications", "no meds", "nil meds",
                        # walk-through 92's "nil regular" became a drug of its own
                        "nil regular", "none regular", "no regular", "nil regular meds",
                        "no regular medications", "nil regular medication",
                        "nil regular medications", "not on any regular medication",
                        "not on regular medication", "no current medications",
                        "nil current", "nil pd meds", "no pd meds", "no pd medication",
                        "not on pd meds", "no parkinson's meds", "not started",
                        # walk-through 68's "No IBD meds"
                        "no ibd meds", "no ibd medication", "no ibd medications",
                        "no ibd treatment", "nil ibd meds", "no current meds",
                        "no current medication", "no regular meds",
                        "no regular medication"})
#: The answers too rare for a column of their own.
OTHER = "other"


def _same_condition() -> dict[str, str]:
    """Each other name of a condition (loose key) -> the condition's first name, from
    :data:`sparge.data.levels.CONDITION_NAMES`: "htn" and "hypertension" are one answer
    of a list (walk-through 54's comorbidities listed both, as two yes/no columns)."""
    roots: dict[str, str] = {}
    for name, others in CONDITION_NAMES.items():
        root = roots.get(name, name)
        for k in (name, *others):
            roots.setdefault(k, root)
    return roots


_ROOTS = _same_condition()


#: A year written after an answer ("MI 2015", "CVA (2012)", "stroke in 2010", "MI - 2019"):
#: when it happened, not another answer (walk-through 66's "Comorbidities: MI 2015").
_YEAR_AFTER = re.compile(r"(.{0,60}?[a-z].{0,60}?)\s*(?:[-,:]\s*|\bin\s+|\()?\s*"
                         r"(?:19|20)\d\d\s*\)?", re.IGNORECASE)
#: A history word before an answer ("h/o MI", "previous CVA", "known HTN"): in a list
#: of conditions every answer is the patient's history.
_HISTORY_BEFORE = re.compile(r"(?:h/o|hx of|hx|history of|previous|prev\.?|past|old|known)"
                             r"\s+(.{2,80})", re.IGNORECASE)


def bare_item(item: str) -> str:
    """A list answer without a year written after it or a history word before it, as
    written otherwise ("MI 2015", "h/o MI": "MI")."""
    text = str(item).strip()
    if len(text) <= 120:
        if m := _YEAR_AFTER.fullmatch(text):
            text = m.group(1).strip()
        if m := _HISTORY_BEFORE.fullmatch(text):
            text = m.group(1).strip()
    return text


def item_key(item: str) -> str:
    """A list answer's key: its normalised text, or the first name of the condition it
    names ("HTN" and "hypertension": "hypertension"), without a year written after it or
    a history word before it (:func:`bare_item`).

    Examples
    --------
    >>> [item_key(c) for c in ("MI 2015", "MI (2019)", "h/o MI", "previous MI", "MI")]
    ['mi', 'mi', 'mi', 'mi', 'mi']
    >>> item_key("CKD stage 3"), item_key("CKD 3a"), item_key("2015")
    ('chronickidneydisease', 'chronickidneydisease', '2015')
    """
    k = norm_key(bare_item(item))
    loose = re.sub(r"[\s\-_.]+", "", k)
    if loose not in _ROOTS:  # a condition with its stage: "CKD 3", "CKD stage 3b" is CKD
        # in a list of conditions (walk-through 95: two yes/no columns)
        staged = re.sub(r"(?:stage|grade|g)?[1-5][ab]?$", "", loose)
        if staged != loose and staged in _ROOTS:
            return _ROOTS[staged]
        # ... or its grade in brackets: "COPD (GOLD 3)", "HF (NYHA II)" (walk-through 101)
        graded = re.sub(r"\([^()]{1,20}\)$", "", loose)
        if graded != loose and graded in _ROOTS:
            return _ROOTS[graded]
    return _ROOTS.get(loose, k)


def item_keys(item: str, drugs: bool | str = False) -> list[str]:
    """The keys of a list answer (:func:`item_key`); with ``drugs`` (a column named for
    medication), the generic name of each drug it names ("Metformin 500mg BD", "MF 1g
    bd" and "Glucophage": metformin; "Janumet" and "MTX + HCQ": two drugs, each its own
    answer); with ``drugs`` :data:`OPERATIONS` (a column named for operations), the
    operation without its details (:func:`operation_name`)."""
    if drugs == OPERATIONS:
        return [item_key(operation_name(item))]
    if drugs and (found := drug_set(norm_key(item))) is not None and \
            "(no drug)" not in found:
        return sorted(found)
    return [item_key(item)]


#: The kind of a list column named for operations (:func:`list_kind`).
OPERATIONS = "operations"
#: A column of operations, by its name ("Operation", "Procedure(s)", "Surgery").
_OPERATION_NAME = re.compile(r"\boperations?\b|\bprocedures?\b|\bsurgery\b|\bop\b",
                             re.IGNORECASE)
#: An operation's details: the grafts' number ("CABG x3", "CABGx3"), what the brackets
#: say ("(LIMA-LAD)", "(Perimount 23mm)"), the valve's kind ("- tissue", "mech").
_OPERATION_DETAILS = re.compile(
    r"\s*\((?![^()]*(?:repair|replace))[^()]{0,60}\)|\s*x\s?\d{1,2}\b|(?:\s*[-,:]\s*|\s+)(?:tissue|bioprosthetic|"
    r"biological|bioprosthesis|mechanical|mech|on-x[\w ]{0,10}|\d{2}\s?mm|procedure)\b",
    re.IGNORECASE)


def operation_name(item: str) -> str:
    """An operation without its details (walk-through 98's "CABG x 2 (LIMA-LAD)", "CABGx3",
    "AVR (Perimount 23mm)", "avr - bioprosthetic": 84 answers).

    Examples
    --------
    >>> [operation_name(c) for c in ["CABG x 2 (LIMA-LAD)", "CABGx3", "AVR (tissue)",
    ...                              "avr - bioprosthetic", "Bentall procedure", "MVR (repair)"]]
    ['CABG', 'CABG', 'AVR', 'avr', 'Bentall', 'MVR (repair)']
    """
    text = str(item).strip()
    if len(text) > 120:
        return text
    return _OPERATION_DETAILS.sub("", text).strip(" -,:") or text


def list_kind(name: object) -> bool | str:
    """How a list column's answers are read: as drugs (``True``, :func:`reads_drugs`), as
    operations (:data:`OPERATIONS`) or as written (``False``)."""
    if reads_drugs(name):
        return True
    return OPERATIONS if _OPERATION_NAME.search(str(name)[:80]) else False


def _shown(key: str, spellings: Counter, drugs: bool | str) -> str:
    """How a list answer is shown in its column's name: a drug by its generic name
    ("metformin", not one patient's "Metformin 500mg BD"), else its commonest spelling."""
    if drugs and key != norm_key(spellings.most_common(1)[0][0]) and \
            drug_set(key) is not None:
        return key
    # "MI", not one patient's "MI 2015"; "CKD", not "CKD 3" (the column is CKD at any
    # stage, walk-through 95)
    bare: Counter[str] = Counter()
    for spelled, n in spellings.items():
        text = bare_item(operation_name(spelled) if drugs == OPERATIONS else spelled)
        unstaged = _STAGE_AFTER.sub("", text).strip()
        bare[unstaged if unstaged != text and item_key(unstaged) == key else text] += n
    return bare.most_common(1)[0][0]


#: A stage written after a condition ("CKD 3", "CKD stage 3b", "CKD G4").
_STAGE_AFTER = re.compile(r"[\s\-_.]*(?:stage|grade|g)?[\s\-_.]*[1-5][ab]?$", re.IGNORECASE)


def reads_drugs(name: object) -> bool:
    """Whether a list column's answers are read as drugs: it is named for medication or
    treatment (:data:`~sparge.data.drug_combinations.REGIMEN_COLUMN`)."""
    return bool(REGIMEN_COLUMN.search(str(name)[:80]))


#: A column listing conditions or drugs, whose " / " (a slash with spaces) separates
#: answers too (walk-through 66's "hypertension / Osteoporosis (on AA)"); elsewhere a
#: slash joins one answer's two spellings ("White / Caucasian").
_LISTS_NAME = re.compile(r"comorbid|co-morbid|\bpmh\b|medical history|past history|"
                         r"conditions|diagnoses|allerg|medication|\bmeds\b|\bdrugs\b|"
                         r"treatments|dmards?\b", re.IGNORECASE)
_SPACED_SLASH = re.compile(r"\s+/\s+")


def _items(cell: str, slash: bool = False) -> list[str]:
    """The answers of one cell, stripped, empty ones dropped; with ``slash``, split at a
    slash with spaces around it too."""
    if slash:
        cell = _SPACED_SLASH.sub(", ", cell)
    return [p.strip() for p in _SEPARATOR.split(cell) if p.strip()]


def list_vocabulary(values: pd.Series, name: str = "",
                    missing_keys=DEFAULT_MISSING_TOKENS) -> list[str] | None:
    """The answers of a column of lists, most frequent first (each in its most common
    spelling, rare ones as :data:`OTHER` at the end), or ``None`` when the column does
    not look like lists (the rule in the module's docstring).

    Examples
    --------
    >>> cells = ["DM, HTN", "HTN", "CKD, DM", "none", "HTN, CKD", "DM", "CKD",
    ...          "DM, CKD, HTN", "HTN, DM", "CKD, HTN, DM"] * 3
    >>> list_vocabulary(pd.Series(cells), "Comorbidities")
    ['DM', 'HTN', 'CKD']
    >>> list_vocabulary(pd.Series(["Bacteremia, unknown source", "UTI"] * 10), "Source")
    """
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return None
    # a quick look at the first cells first: most columns hold no separator at all, and a
    # pandas call per column cost half a second on a 469-column table
    slash = bool(_LISTS_NAME.search(str(name)[:80]))
    separator = re.compile(f"{_SEPARATOR.pattern}|{_SPACED_SLASH.pattern}") if slash \
        else _SEPARATOR
    vasoactive = bool(VASOACTIVE_COLUMN.search(str(name)[:80]))
    if not vasoactive and not any(separator.search(c) for c in first_cells(values, 200)):
        return None
    text = cell_text(values)
    # one vectorised look first: most columns hold no separator at all
    if not vasoactive and \
            text.str.contains(separator.pattern, regex=True).sum() < MIN_COMBINATIONS:
        return None
    cells = [c for c in text.tolist() if c]
    cells = [c for c in cells if c and norm_key(c) not in missing_keys
             and norm_key(c) not in NONE_WORDS]
    if len(cells) < MIN_COMBINATIONS:
        return None
    # a column of vasopressors whose every answer names them, with or without a dose:
    # the drugs given, whatever their doses (each its own answer otherwise)
    vasoactive = vasoactive and all(drug_set(c) is not None for c in set(cells))
    # a smoking status with its detail is one answer: "ex-smoker, quit 2018" (walk-
    # through 92's column was read as lists of "ex-smoker" and "quit 1985")
    if smoking_column(name) and sum(smoking_status(norm_key(c)) is not None
                                    for c in cells) >= 0.9 * len(cells):
        return None
    split = [_items(c, slash) for c in cells]
    lists = [c for c, parts in zip(cells, split, strict=True) if len(parts) > 1]
    # cytogenetics read as findings (sparge.data.cytogenetics): lists by construction,
    # however few patients have two (walk-through 73's: 37 of 380)
    findings = bool(CYTOGENETICS_NAME.search(str(name)[:80])) and all(
        p in FINDING_WORDS for parts in split for p in parts)
    findings = findings or vasoactive
    if not findings and (len(lists) < LIST_SHARE * len(cells)
                         or len(set(lists)) < MIN_COMBINATIONS):
        return None
    distinct = list(dict.fromkeys(cells))
    if not findings and looks_like_free_text(name, distinct):
        return None
    count: Counter[str] = Counter()
    spelled: dict[str, Counter[str]] = {}
    where: dict[str, set[str]] = {}  # the different cells an answer is written in
    drugs = list_kind(name)
    for cell, parts in zip(cells, split, strict=True):
        said: dict[str, str] = {}  # each answer once a cell, as first written
        for part in parts:
            for k in item_keys(part, drugs):
                said.setdefault(k, part)
        for k, p in said.items():
            count[k] += 1
            spelled.setdefault(k, Counter())[p] += 1
            where.setdefault(k, set()).add(norm_key(cell))
    # answers are words: "1,5" and "2,0" are numbers written with a decimal comma
    if len(count) > MAX_ITEMS or len(count) < 2 or \
            any(len(k.split()) > MAX_WORDS or not _LETTER.search(k) for k in count):
        return None
    in_lists = Counter(k for parts in split if len(parts) > 1 for p in parts
                       for k in item_keys(p, drugs))
    # ... or, in a column of drugs, an answer naming a drug known here (walk-through 93's
    # "PUVA, MTX" and "fumaderm; MTX": each written in one list only)
    reused = sum(n for k, n in in_lists.items()
                 if len(where[k]) >= 2 or (drugs and drug_set(k) is not None))
    if reused < REUSED_SHARE * sum(in_lists.values()):
        return None
    rare = max(5, min_category_count(len(values)))
    common = [k for k, n in count.most_common() if n >= rare]
    if not common:
        return None
    shown = [_shown(k, spelled[k], drugs) for k in common]
    return shown + ([OTHER] if len(common) < len(count) else [])


def typed_list_answers(row: dict, lists: dict[str, list[str]]) -> tuple[dict, list[str]]:
    """A form's yes/no boxes of a list column ("Vasopressors: noradrenaline") with an
    answer typed as a file's cell writes it: "norad 0.2" in the noradrenaline box is Yes
    (walk-through 101b: read as missing, though the same cell in a file is read), "none"
    is No; anything else stays as typed. And a note for each.

    Examples
    --------
    >>> typed_list_answers({"Vasopressors: noradrenaline": "norad 0.2"},
    ...                    {"Vasopressors": ["noradrenaline", "vasopressin"]})[0]
    {'Vasopressors: noradrenaline': 'Yes'}
    """
    out = dict(row)
    notes = []
    for col, items in lists.items():
        drugs = list_kind(col)
        for item in items:
            if parse_dose_item(item) is not None:  # a number box ("0.2" as typed)
                continue
            box = f"{col}: {item}"
            typed = out.get(box)
            if not isinstance(typed, str) or norm_key(typed) in ("yes", "no", "y", "n", ""):
                continue
            key = norm_key(typed)
            if key in NONE_WORDS:
                read = "No"
            elif set(item_keys(typed, drugs)) & set(item_keys(item, drugs)):
                read = "Yes"
            else:
                continue
            out[box] = read
            said = f"'{_q(typed, 30)}' typed in '{_q(box)}' read as {read}"
            # ... and its dose, when the model has the drug's dose and its box is empty
            dosed = next((f"{col}: {i}" for i in items
                          if (d := parse_dose_item(i)) is not None and d[0] == item), None)
            dose = part_dose(typed) if read == "Yes" else None
            if dosed is not None and is_blank(out.get(dosed)) and dose is not None and \
                    dose[1] in (None, parse_dose_item(dosed.split(": ", 1)[1])[1]):
                out[dosed] = f"{dose[0]:g}"
                said += f", and {dose[0]:g} in '{_q(dosed)}'"
            notes.append(said + ".")
    return out, notes


def list_columns(column: str, items: list[str]) -> list[str]:
    """The yes/no columns a list column is read as: ``"<column>: <answer>"``."""
    return [f"{column}: {item}" for item in items]


def _with_doses(values: pd.Series, items: list[str], drugs: bool | str,
                slash: bool) -> list[str]:
    """A vasoactive column's answers with a dose column after each drug whose cells write
    its dose often enough (:func:`~sparge.data.vasopressor_doses.dose_items`)."""
    cells = [_items(c, slash) for c in cell_text(values).tolist()
             if c and norm_key(c) not in NONE_WORDS and norm_key(c) not in
             DEFAULT_MISSING_TOKENS]
    found = dose_items(cells, [i for i in items if i != OTHER],
                       lambda p: item_keys(p, drugs))
    return [x for i in items for x in ((i, found[i]) if i in found else (i,))]


def split_lists(df: pd.DataFrame, known: dict[str, list[str]] | None = None,
                skip=()) -> tuple[pd.DataFrame, dict[str, list[str]], list[str]]:
    """The table with each column of answer lists replaced, in its place, by one yes/no
    column per answer (:func:`list_columns`).

    Parameters
    ----------
    df : DataFrame
    known : dict, optional
        ``{column: answers}`` of a fitted encoder: only these columns are split, with
        these answers (a new patient's table of one row has no vocabulary of its own); an
        answer it does not list goes to :data:`OTHER` when the model has that column, and
        is named in a note otherwise.
    skip : iterable of str
        Columns never split (the ID, the outcome, those the user gave a role).

    Returns
    -------
    table : DataFrame
    found : dict
        ``{column: answers}`` of the columns split.
    notes : list of str
        What was read, for the report.
    """
    skip = {str(c) for c in skip}
    out, found, notes = df, {}, []
    for col in [str(c) for c in df.columns]:
        if col in skip or (known is not None and col not in known):
            continue
        items = known[col] if known is not None else list_vocabulary(df[col], col)
        names = list_columns(col, items or [])
        if not items or any(n in out.columns for n in names):
            continue
        drugs = list_kind(col)
        slash = bool(_LISTS_NAME.search(col[:80]))
        if known is None and drugs and VASOACTIVE_COLUMN.search(col[:80]):
            # a vasopressor's dose beside its yes/no (sparge.data.vasopressor_doses)
            items = _with_doses(df[col], items, drugs, slash)
            names = list_columns(col, items)
        doses = {i: (item_keys(d[0], drugs)[0], d[1]) for i in items
                 if (d := parse_dose_item(i)) is not None}
        keys = {item_keys(i, drugs)[0]: i for i in items if i != OTHER and i not in doses}
        unknown: Counter[str] = Counter()
        rows = []
        for v in df[col]:
            text = "" if is_blank(v) else str(v).strip()
            key = norm_key(text)
            if key in NONE_WORDS:  # before the missing tokens: "None" is one
                rows.append(["0" if i in doses else "No" for i in items])
                continue
            if not text or key in DEFAULT_MISSING_TOKENS:
                rows.append([""] * len(items))
                continue
            parts = _items(text, slash)
            named = [item_keys(p, drugs) for p in parts]  # once a part: a drug's names
            said = {k for ks in named for k in ks}
            other = [p for p, ks in zip(parts, named, strict=True) if not set(ks) <= set(keys)]
            given = cell_doses(parts, named, doses) if doses else {}
            row = [given[i] if i in doses else
                   "Yes" if item_keys(i, drugs)[0] in said else "No" for i in items]
            if other and OTHER in items:
                row[items.index(OTHER)] = "Yes"
            elif other:
                unknown.update(other)
            rows.append(row)
        new = pd.DataFrame(rows, columns=names, index=df.index, dtype=object)
        at = list(out.columns).index(col)
        attrs = dict(out.attrs)
        out = pd.concat([out.iloc[:, :at], new, out.iloc[:, at + 1:]], axis=1)
        out.attrs = attrs
        found[col] = list(items)
        example = next((str(v) for v in df[col] if not is_blank(v)
                        and len(_items(str(v), slash)) > 1), None)
        if known is None:
            dosed = [n for n, i in zip(names, items, strict=True) if i in doses]
            yes_no = [n for n in names if n not in dosed]
            notes.append(
                f"Column '{_q(col)}' holds lists of answers"
                + (f" (e.g. '{_q(example, 40)}')" if example else "")
                + f": read as {len(yes_no)} yes/no columns, {quoted_names(yes_no, limit=4)}"
                + (f", and {len(dosed)} of the doses written, {quoted_names(dosed, limit=4)}"
                   " (0 where the drug is not given; a gap where it is given without a dose"
                   " or in another unit)" if dosed else "")
                + "; 'None' is no to each, an empty cell unknown"
                + (f"; answers of fewer than {max(5, min_category_count(len(df)))} patients "
                   f"share '{_q(names[-1])}'" if items[-1] == OTHER else "") + ".")
        if unknown:
            notes.append(f"Column '{_q(col)}': answers the model does not know, left out: "
                         + ", ".join(f"'{_q(k, 30)}'" for k in list(unknown)[:5]) + ".")
    return out, found, notes


__all__ = ["LIST_SHARE", "OTHER", "list_columns", "list_vocabulary", "split_lists"]
