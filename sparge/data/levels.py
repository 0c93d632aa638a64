"""Levels of a categorical column: its spellings, answers written two ways ("f" and
"Female", "iii" and "3", "lung ca" and "Lung"), differentiation grades, answers that mean
"not assessed", and the order of levels found in the column (recognised scales, yes/no,
numbered levels; DESIGN.md §3). The missing tokens and scales themselves live in
:mod:`sparge.data.tables`, reading a cell in :mod:`sparge.data.parsing`."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import pandas as pd

from sparge.data.drug_combinations import (
    brand_or_dose,
    combination_pairs,
    drug_set,
    generic_name,
    regimen_label,
)
from sparge.data.icd_codes import icd_source
from sparge.data.parsing import cell_keys, cell_text, gcs_total, loose_key, min_category_count
from sparge.data.tables import (
    CATEGORY_WORDS,
    DEFAULT_MISSING_TOKENS,
    NOT_NEEDED_WRITTEN,
    SCALES,
    UNKNOWN_WORDS,
    natural_key,
    norm_key,
    note_head,
    scale_codes,
    scale_of,
    yes_no_codes,
)


def spellings(text: pd.Series) -> tuple[dict[str, str], dict[str, int]]:
    """How a text column spells each of its levels.

    Parameters
    ----------
    text : pandas.Series
        The column's cells.

    Returns
    -------
    spelled : dict
        ``{normalised level: its most common spelling in the column}`` (empty cells left out).
    counts : dict
        ``{normalised level: number of cells}``.
    """
    text = cell_text(text)
    keys = cell_keys(text)
    spelled: dict[str, str] = {}
    counts: dict[str, int] = {}
    for (key, s), n in pd.DataFrame({"k": keys, "s": text}).value_counts().items():
        if key == "":
            continue
        # the most common spelling in title case before one shouted: "Elective", not
        # the "ELECTIVE" written as often as "elective" (walk-through 98 showed every
        # elective operation as the "Elec" merged into it, shouted spellings being
        # shown last); initials stay ("NAFLD", not "nafld")
        # ... "Male", not the "MALE" written more often (walk-through 102b's Data page and
        # encoding table): a short word that is no initials, in capitals
        if key not in spelled or ((_shouted(spelled[key]) or (
                spelled[key].isupper() and key in _PLAIN_WORDS))
                and s[:1].isupper() and not s.isupper()):
            spelled[key] = s
        counts[key] = counts.get(key, 0) + int(n)
    return spelled, counts


#: Short words no export means as initials: written in capitals, they are shouted.
_PLAIN_WORDS = frozenset({"male", "female", "man", "woman", "boy", "girl", "alive", "dead",
                          "died", "home", "left", "right", "both", "none", "yes", "nil",
                          "ward", "rehab", "other"})


def _shouted(word: str) -> bool:
    """Whether an answer is written in capitals: a word of more than four letters
    ("ISCHAEMIC"; not initials such as "COPD")."""
    return any(len(w) > 4 and w.isupper() for w in re.findall(r"[^\W\d_]+", word))


#: A shortened answer: one letter ("f"), or one word of at least 4 letters, optionally
#: with a full stop ("cardio", "cardiol.").
_SHORT = re.compile(r"^(?:[a-z]|[a-z]{4,})\.?$")


_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7",
          "viii": "8", "ix": "9", "x": "10"}


def _numeral_ranks(a: str, b: str) -> bool:
    """Whether two answers are the same words with another Roman numeral last: two
    ranks ("Garden I" and "Garden III", walk-through 72's undisplaced and displaced
    fractures), never one answer abbreviated."""
    ma, mb = (re.fullmatch(r"(.*?[a-z])[\s.-]*(i{1,3}|iv|vi{0,3}|ix|x)",
                           re.sub(r"[^a-z]+", " ", str(x).lower()).strip()) for x in (a, b))
    return bool(ma and mb and ma.group(1).replace(" ", "") == mb.group(1).replace(" ", "")
                and ma.group(2) != mb.group(2))


def numeral_key(key: str, alone: bool = False) -> str:
    """A level's key with Roman numerals read as digits and spaces, hyphens and full
    stops dropped: "Type II", "type 2" and "Type-2" give "type2"; "Stage IIIa" and
    "stage 3a" give "stage3a" (a Roman numeral is a word of its own, or one ending in a
    single sub-stage letter). A level that is one such word ("x", "IIIa", "via") is read
    so only with ``alone`` (a column that also holds "3a")."""
    # a decimal number is one word: "2.5mg" is not "25mg" (a thyroid clinic's carbimazole
    # 2.5 mg was merged by default into 25 mg)
    words = re.findall(r"[a-z]+|\d+(?:\.\d+)?|[^\sa-z\d.\-_]", key)
    out = []
    for w in words:
        m = re.fullmatch(r"(i{1,3}|iv|vi{0,3}|ix|x)([a-c]?)", w)
        single = len(words) == 1 and not alone  # "x" alone is not ten, "via" is not 6a
        out.append(_ROMAN[m.group(1)] + m.group(2)
                   if m and not (single and (m.group(2) or w == "x")) else w)
    return "".join(out)


def _other_numbers(a: str, b: str) -> bool:
    """Whether two keys both hold numbers (Roman numerals read as digits) and not the same
    ones in the same order: "7 (3+4)" and "7", "3+4" and "4+3" (not "ESKD (5)" and "5",
    "IIIa" and "3a", nor "F4 (cirrhosis)" and "cirrhosis")."""
    na, nb = (re.findall(r"\d+", numeral_key(k, alone=True)) for k in (a, b))
    return bool(na) and bool(nb) and na != nb


#: Words a stage or class is written after, read without them: "Stage 2", "grade 3-4",
#: "class A".
_STAGE_WORDS = frozenset({"stage", "grade", "class", "type", "category", "level", "score"})


def _initials(column: str | None) -> set[str]:
    """The initials of a column's words, from the first two: "cp" and "cpc" for
    "Child-Pugh class" ("CP-A" is class A)."""
    words = re.findall(r"[a-z]+", norm_key(column)) if column else []
    letters = "".join(w[0] for w in words)
    return {letters[:n] for n in range(2, len(letters) + 1)}


def _without_words(key: str, words: set[str], last: str | None = None) -> str:
    """A level's key without the leading words of ``words`` ("child pugh a" -> "a"), and
    without the column name's ``last`` word after a word ("low risk" in "Foot risk" ->
    "low": walk-through 64's "Low risk" beside "low"); the key itself when nothing is
    left."""
    rest = key
    while (m := re.match(r"([a-z]+)[\s\-_.:]*", rest)) and m.group(1) in words \
            and rest[m.end():]:
        rest = rest[m.end():]
    if last and last not in _STAGE_WORDS and (
            m := re.fullmatch(r"([a-z]{3,})[\s\-_.:]+([a-z]+)", rest)) and m.group(2) == last:
        rest = m.group(1)
    return rest


#: A level that is a plain stage or class: "3", "3a", "b".
_PLAIN_STAGE = re.compile(r"\d+[a-c]?|[a-e]")
#: A level with what its brackets hold: "eskd (5)", "f4 (cirrhosis)".
_BRACKETED = re.compile(r"[^()]+\(\s*([^()]+?)\s*\)")


def _stage_forms(key: str, named: set[str]) -> list[str]:
    """What a stage-like level may be written as without its decoration: "ckd4" in
    column "CKD stage" without the column's word written on to it, "g3a" (KDIGO) and
    "t2" without the single letter before the number, "eskd (5)" as what its brackets
    hold, "f4 (cirrhosis)" without them. Keys; the level itself first."""
    forms = [key]
    inner = _BRACKETED.fullmatch(key)
    base = re.sub(r"\s*\([^()]*\)$", "", key)
    if base != key and base:
        forms.append(base)
        key = base
    for w in named:
        if key.startswith(w) and key[len(w):len(w) + 1].isdigit():
            forms.append(key[len(w):])
    m = re.fullmatch(r"[a-z](\d+[a-c]?)", key)
    if m:
        forms.append(m.group(1))
    if inner:
        forms.append(inner.group(1))
    return forms


#: Amino acids' three-letter codes and their one-letter ones (HGVS protein notation; "ter"
#: and "*" a stop, written "X" in the legacy names).
_AA3 = {"ala": "a", "arg": "r", "asn": "n", "asp": "d", "cys": "c", "gln": "q", "glu": "e",
        "gly": "g", "his": "h", "ile": "i", "leu": "l", "lys": "k", "met": "m", "phe": "f",
        "pro": "p", "ser": "s", "thr": "t", "trp": "w", "tyr": "y", "val": "v", "ter": "x"}
_PROTEIN = re.compile(r"(?<![a-z])(?:p\.?\s?\(?)?(" + "|".join(_AA3) + r")(\d{1,5})("
                      + "|".join(_AA3) + r"|del|dup|ins|fs|\*|x)?\)?(?![a-z])")
#: Columns of genotypes or variants, where a protein change is written either way:
#: walk-through 82's CFTR genotype held "Phe508del/Phe508del" beside "F508del/F508del".
GENETIC_COLUMN = re.compile(r"genotyp|mutation|mutat|variant|allele|hgvs|cftr|genetic|"
                            r"\bgenes?\b", re.IGNORECASE)


def protein_key(key: str) -> str:
    """A key with the protein changes in HGVS three-letter codes written in one-letter
    codes, "p." and brackets dropped.

    Examples
    --------
    >>> protein_key("phe508del/phe508del"), protein_key("p.(gly12asp)")
    ('f508del/f508del', 'g12d')
    >>> protein_key("gly542ter/asn1303lys"), protein_key("metformin 500")
    ('g542x/n1303k', 'metformin 500')
    """
    def one(m: re.Match) -> str:
        end = m.group(3) or ""
        return _AA3[m.group(1)] + m.group(2) + (
            _AA3.get(end, "x" if end == "*" else end))

    return _PROTEIN.sub(one, key)


def _spelling_key(key: str) -> str:
    """A level's key without spaces and punctuation, with British "ae" and "oe" read as
    "e": "Ischaemic", "ischemic" and "ISCHEMIC " give "ischemic"; "ACE-I" gives "acei"."""
    return re.sub(r"[ao]e(?=[a-z])", "e", loose_key(key))


#: A scale's level written with a name before its number or a word after it: "ESI 2",
#: "Cat 2", "Level 2 - Emergent", "2 - Emergent", "P2 (urgent)".
_PREFIXED_NUMBER = re.compile(
    r"(?P<prefix>[a-z][a-z.]{0,11}(?: [a-z][a-z.]{0,11})?)?\s*[-:#]?\s*(?P<n>\d{1,2})"
    r"(?:\s*[-–:]\s*[a-z][a-z /-]*|\s*\([a-z][a-z /-]*\))?")


def _prefixed_numbers(keys: dict[str, str], paired: set[str]) -> list[tuple[str, str]]:
    """A numbered scale written several ways in one column (walk-through 33's triage:
    "2", "ESI 2", "Cat 2" and "Level 2 - Emergent", twenty answers for five levels):
    pairs ``(level, level)``. Each way of writing is a name before the number (or a
    word after it) that the column uses with two numbers or more, each number once;
    such a level goes with the plain number ("2") when the column writes three numbers
    or more plainly and every number of that way among them. Numbers of one or two digits
    only (not "Metformin 500")."""
    ways: dict[str, dict[str, str]] = {}  # prefix -> {number: level}
    plain: dict[str, str] = {}
    for lv, k in keys.items():
        if re.fullmatch(r"\d{1,2}", k):  # a plain number, paired or not, is a target
            plain.setdefault(str(int(k)), lv)
            continue
        if lv in paired:
            continue
        m = _PREFIXED_NUMBER.fullmatch(k)
        if m is None:
            continue
        way = ways.setdefault((m.group("prefix") or "").strip(" .") or "#", {})
        n = str(int(m.group("n")))
        way[n] = lv if n not in way else ""  # "" : the number twice in one way
    # a way whose numbers are all among the plain ones ("Ward 2" and "bay 2" of a ward
    # column without plain numbers stay apart)
    ways = {p: w for p, w in ways.items() if len(w) >= 2 and all(w.values())
            and set(w) <= set(plain)}
    if len(plain) < 3:
        return []
    return [(lv, plain[n]) for way in ways.values() for n, lv in way.items()]


def _one_edit(a: str, b: str) -> bool:
    """Whether two words differ by one letter added, dropped, changed, or two neighbours
    swapped ("fmale" / "female", "femlae" / "female")."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1:]


#: An answer that gives when, which side, where, how often or how severe (a year or a
#: month; right, left, both, the eyes' RE/LE/OD/OS/OU; a level of the spine; "x2";
#: "mild"): beside yes and no, a yes with its detail.
_YES_DETAIL = re.compile(r"\b(?:19[5-9]\d|20[0-4]\d)\b|\b(?:re|le|od|os|ou|r eye|l eye|"
                         r"both eyes|both|bilateral|bilat|left|right|lt|rt)\b|"
                         # how it is treated (walk-through 82's CFRD "on insulin")
                         r"\bon (?:insulin|treatment|tablets|medication|meds)\b|"
                         # by what (walk-through 101's immunosuppressed "on steroids")
                         r"\bon (?:(?:oral |long[\s-]term |high[\s-]dose )?steroids?|"
                         r"pred(?:nisolone)?|chemo(?:therapy)?|immunosuppress\w*|"
                         r"biologics?|methotrexate|tacrolimus)\b|"
                         r"\b(?:insulin|diet|tablet)[\s-]?(?:treated|controlled)\b|"
                         # where on the spine (walk-through 85's spinal cord lesions:
                         # "C-spine lesion C4", "cervical + thoracic")
                         r"\b(?:cervical|thoracic|lumbar|[ctl][\s-]?spine|[ctl]\d{1,2})\b|"
                         # when in the year, how many times, how severe (walk-through 86:
                         # a tonic-clonic seizure "1 in March", "x2"; "mild LD")
                         r"\b(?:january|february|march|april|june|july|august|september|"
                         r"october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|"
                         r"nov|dec)\b|(?:^|\s)x ?[1-9]\d?\b|"
                         r"\b(?:mild|moderate|severe|profound)\b")
#: ... unless it says no, or is unsure.
_NOT_YES = re.compile(r"\b(?:no|not|never|none|nil|neg|negative|declined|refused|unknown|"
                      r"unsure|awaiting|planned|listed|waiting)\b|\?")


#: A sign that ends a token ("D+/R-", "DSA-", "ER+ PR-"; not "D+V", "fistula + seton"
#: or "CPAP +6", where "+" joins or counts).
_SIGN = re.compile(r"(?<=[a-z0-9)])[+\-](?=$|[\s/,;)])")


def _signs(key: str) -> str:
    """The signs ending an answer's tokens, in order ("d+/r-" -> "+-"): two answers that
    both carry signs, and not the same ones, are never one answer however alike written
    (walk-through 84's CMV serostatus "D+/R-" was offered into "D+/R+", one character
    apart, and the one-click merge made all four groups one)."""
    return "".join(m.group() for m in _SIGN.finditer(key))


def _same_signs(a: str, b: str) -> bool:
    sa, sb = _signs(a), _signs(b)
    return sa == sb or not sa or not sb


#: Answers that say a result was positive or negative, as keys without spaces.
_POSITIVE = frozenset({"positive", "pos", "+", "+ve", "posve", "positiveresult"})
_NEGATIVE = frozenset({"negative", "neg", "-", "-ve", "negve", "negativeresult"})


def result_sign(answer: str, column: str | None = None) -> str | None:
    """``"+"`` or ``"-"`` when an answer only says a result was positive or negative
    ("Positive", "pos", "+ve", or the column's name with a sign: "DSA+" in a column
    "DSA"), else ``None``.

    Examples
    --------
    >>> [result_sign(a, "DSA") for a in ("Positive", "pos", "DSA+", "neg", "DSA -", "D+/R-")]
    ['+', '+', '+', '-', '-', None]
    >>> result_sign("pre-eclampsia", "Pre-eclampsia"), result_sign("HbA1c", "Pre-eclampsia")
    (None, None)
    """
    key = norm_key(answer)
    words = set(re.findall(r"[a-z0-9]+", norm_key(column))) if column else set()
    tokens = re.findall(r"[a-z0-9]+|[^\sa-z0-9]", key)
    # the column's name with its own hyphen is no sign: "pre-eclampsia" in a column
    # "Pre-eclampsia" (walk-through 99)
    if any(t == "-" and 0 < i < len(tokens) - 1 and tokens[i - 1] in words
           and tokens[i + 1] in words for i, t in enumerate(tokens)):
        return None
    rest = "".join(w for w in tokens if w not in words)
    return "+" if rest in _POSITIVE else "-" if rest in _NEGATIVE else None


def _result_pairs(keys: dict[str, str], column: str | None) -> list[tuple[str, str]]:
    """A result written several ways ("Positive", "pos", "DSA+"; walk-through 84's donor-
    specific antibodies were five unordered answers): each into the sign's fullest
    spelling, "positive" or "negative" when written so."""
    out = []
    for sign in "+-":
        same = [lv for lv in keys if result_sign(lv, column) == sign]
        if len(same) < 2:
            continue
        target = max(same, key=lambda lv: (keys[lv].replace(" ", "") in
                                           ("positive", "negative"), len(keys[lv])))
        out += [(lv, target) for lv in same if lv != target]
    return out


#: Words naming a class of drugs in a group of :data:`SYNONYMS` that also holds its
#: drugs: the class is a pair's only target there.
_CLASS_WORDS = frozenset({
    "triple", "tripletherapy", "ics/laba/lama", "ics+laba+lama", "laba/lama/ics",
    "lama/laba/ics", "ics/lama/laba", "triple(ics/laba/lama)", "singleinhalertriple",
    "laba/lama", "lama/laba", "laba+lama", "lama+laba", "labalama", "lamalaba", "ics/laba",
    "laba/ics", "ics+laba", "laba+ics", "icslaba", "lama", "laba", "saba", "sabaprn"})


def paired_count(spelled: list[str], column: str | None) -> int:
    """How many answers a column's distinct spellings give when the answers
    :func:`abbreviated_levels` pairs count as one (the chains followed through).

    >>> paired_count(["F", "Female", "M", "Male"], "Sex")
    2
    """
    target = dict(abbreviated_levels(spelled, column))
    roots = set()
    for lv in spelled:
        seen = {lv}
        while lv in target and target[lv] not in seen:
            lv = target[lv]
            seen.add(lv)
        roots.add(lv)
    return len(roots)


def abbreviated_levels(levels: list[str], column: str | None = None,
                       counts: Mapping[str, int] | None = None) -> list[tuple[str, str]]:
    """Pairs ``(short, full)`` of a column's levels where ``short`` looks like an
    abbreviation of ``full``: "f" and "female", "M" and "Male", "Cardio" and "cardiology".

    An export that mixes them codes one answer as two (a walk-through's heart-failure
    table); they are only pointed out, never merged, since "m" may also mean "mild". A
    short level is paired only when exactly one longer level is it continued by letters
    (not "NYHA II" and "NYHA III", not "never" and "never again"), and a stem needs 4
    letters ("no" is not "normal"). In a yes/no column, "1" and "0" are paired with its
    yes and no (an export that joins two systems). Levels equal but for Roman numerals,
    spaces, hyphens, full stops or British spelling are paired too: "Type II" and "Type
    2", "NYHA-3" and "NYHA III" (grade "I" is not an abbreviation of grade "II"),
    "ischaemic" and "ischemic". A site and the site followed by a word for cancer: "lung
    ca" and "Lung". In a grade column, a differentiation in words and its grade: "well
    diff." and "G1" or "1". In a smoking, sex or diabetes column, the same answer in
    other words (:data:`SYNONYMS`): "Ex", "ex-smoker" and "former"; "never smoked" and
    "never"; "W" and "woman"; "T2DM", "T2" and "Type 2". In a yes/no column, an answer
    that says when or which side ("PRP 2019", "RE 2018", "both eyes") and its yes.

    Parameters
    ----------
    levels : list of str
        The column's levels as spelled (compared case- and space-insensitively).
    column : str, optional
        The column's name: a level that starts with one of its words reads without it
        ("NYHA III" in column "NYHA class" is "III", and so "3").
    counts : mapping, optional
        Cells per answer, by normalised key (:func:`spellings`): of an answer and its
        typo, the one written by at least twice as many is the right spelling.

    Returns
    -------
    list of (str, str)
        The pairs, as spelled, in the order of ``levels`` (an answer written with full
        stops or slashes after the plainer spelling it joins).
    """
    keys = {lv: norm_key(lv) for lv in levels}
    out = []
    yes_no = yes_no_codes(levels)
    if yes_no is not None:  # "1" / "0" beside yes and no: two systems in one column
        first = {code: lv for lv, code in sorted(yes_no.items(), key=lambda kv: len(kv[0]))}
        for digit, code in (("1", 1), ("0", 2)):
            lv = next((lv for lv, k in keys.items() if k == digit), None)
            if lv is not None and code in first:
                out.append((lv, first[code]))
        # a yes written with its detail, when or which side ("PRP 2019", "RE 2018",
        # "both eyes", "L knee": walk-through 77's previous laser and cataract surgery)
        if 1 in first:
            # not an answer of the column's own words: walk-through 89's smoking "stopped
            # 2015" is a former smoker, not a yes with its year
            grouped = {w for g in synonym_groups(column) for w in g} if column else set()
            out += [(lv, first[1]) for lv, k in keys.items()
                    if yes_no.get(lv) not in (1, 2) and _YES_DETAIL.search(k)
                    and not _NOT_YES.search(k) and loose_key(k) not in grouped]
    # one answer in two number systems or punctuations ("Type II" / "Type 2",
    # "NYHA-3" / "NYHA III"), when the column has both spellings
    named = set(re.findall(r"[a-z]{2,}", norm_key(column))) if column else set()
    strip = named | _STAGE_WORDS | _initials(column)
    last = (re.findall(r"[a-z]{2,}", norm_key(column)) or [None])[-1] if column else None
    canon: dict[str, str] = {}
    genetic = bool(column and GENETIC_COLUMN.search(str(column)))
    # the plainest spelling first, the one the others join: "GP" before "G.P." (walk-
    # through 62 showed 250 GP referrals as "G.P."); otherwise in the levels' order
    plainest = sorted(keys.items(), key=lambda kv: kv[1].count(".") + kv[1].count("/"))
    for lv, k in plainest:
        # "nyha iii" in "NYHA class" reads "iii"; "Child-Pugh A", "class A" and "CP-A" in
        # "Child-Pugh class" read "a"; "grade 3-4" reads "3-4" (walk-through 24)
        bare = _without_words(k, strip, last)
        # the same word in British and American spelling: "ischaemic" / "ischemic";
        # punctuation alone: "ACE-I" / "ACEi" (whose "I" is not a numeral)
        forms = list(dict.fromkeys((numeral_key(bare), _spelling_key(bare), numeral_key(k),
                                    _spelling_key(k))))  # in this order: deterministic
        if genetic:  # "Phe508del" / "F508del"
            forms.append(numeral_key(protein_key(k)))
        hit = next((canon[c] for c in forms if c in canon and keys[canon[c]] != k
                    and any(ch.isalnum() for ch in c)), None)
        if hit is not None:
            out.append((lv, hit))
        for c in forms:
            canon.setdefault(c, lv)
    # a stage without its decoration, beside the stage written plainly (walk-through 23's
    # CKD stage: "G3a", "CKD4", "ESKD (5)", "IIIa" beside "3a", "4", "5")
    # only in a column of stages: three or more levels a number, with or without a
    # sub-stage letter ("via" is not "6a" in a column of words)
    plain_stages = sum(bool(_PLAIN_STAGE.fullmatch(k)) for k in keys.values())
    paired = {a for a, _ in out}
    # "cirrhosis" beside "F4 (cirrhosis)": the answer its brackets hold
    held = {m.group(1): lv for lv, k in keys.items()
            if (m := _BRACKETED.fullmatch(k))}
    for lv, k in keys.items():
        if lv in paired or plain_stages < 3:
            continue
        forms = [numeral_key(f, alone=True) for f in _stage_forms(k, named)[1:]]
        if re.fullmatch(r"(i{1,3}|iv|vi{0,3}|ix)[a-c]", k):
            forms.append(numeral_key(k, alone=True))
        hit = next((canon[c] for c in forms if c in canon and keys[canon[c]] != k), None)
        if hit is None and held.get(k, lv) != lv and not _PLAIN_STAGE.fullmatch(k):
            hit = held[k]  # a word ("cirrhosis"), not a plain stage ("5" of "ESKD (5)")
        # numbers of their own are another answer: Gleason "7 (3+4)" is no "7" (whose
        # "7 (4+3)" would join it too: walk-through 80 was offered 4+3 shown as 3+4)
        if hit is not None and not _other_numbers(k, keys[hit]):
            out.append((lv, hit))
    out += _prefixed_numbers(keys, {a for a, _ in out})
    # a site with a word for cancer after it, beside the site alone (walk-through 25's
    # primary site: "lung ca" beside "Lung", "breast cancer" beside "breast")
    paired = {a for a, _ in out}
    bare_of = {_spelling_key(k): lv for lv, k in keys.items()}
    for lv, k in keys.items():
        bare = site_of(k)
        hit = bare_of.get(_spelling_key(bare)) if bare else None
        if lv not in paired and hit is not None and hit != lv:
            out.append((lv, hit))
    # a tumour's differentiation in words beside its grade (walk-through 25's "well
    # diff.", "moderately diff.", "poorly diff." beside "G1", "grade I" and "1")
    if _GRADE_COLUMN.search(norm_key(column) if column else ""):
        paired = {a for a, _ in out}
        for lv, k in keys.items():
            grade = differentiation_grade(k)
            if lv in paired or grade is None:
                continue
            hit = next((canon[c] for c in (grade, "g" + grade)
                        if c in canon and keys[canon[c]] != k), None)
            if hit is not None:
                out.append((lv, hit))
    several = {}
    # the words of the column's synonym groups are the right spellings: a typo of one
    # ("Femlae") joins it, not it the typo (walk-through 64's "f" beside "female" and
    # "Femlae" was offered with neither)
    groups = synonym_groups(column)
    typos = dict(_typo_pairs(keys, {w for g in groups for w in g}, counts))
    for short, k in keys.items():
        if not _SHORT.match(k):
            continue
        stem = k.rstrip(".")
        longer = [lv for lv, other in keys.items()
                  if len(other) > len(stem) and other.startswith(stem)
                  and other[len(stem):].isalpha()
                  and not (stem in _ROMAN and other in _ROMAN)  # grade I is not II
                  and not _numeral_ranks(short, lv)]  # nor Garden I Garden III
        if len(longer) == 1:
            out.append((short, longer[0]))
        elif longer:
            several[short] = longer
    # several candidates that are one answer themselves ("F" beside "Femal" and "Female",
    # walk-through 22's typo): the short one goes with them
    target = {**typos, **dict(out)}

    def end(lv: str) -> str:
        """Where an answer ends up, through chains: "fmale" -> "female" -> "Female"
        (walk-through 74's "F" was offered with neither)."""
        for _ in range(8):
            if target.get(lv, lv) == lv:
                break
            lv = target[lv]
        return lv

    for short, longer in several.items():
        ends = {end(lv) for lv in longer}
        if len(ends) == 1:
            out.append((short, ends.pop()))
    # the same answer in other words, for the answers clinic exports most often spell
    # several ways (walk-through 21's smoking column: former, Ex, ex-smoker; never,
    # non-smoker); the first word of a group that the column holds is the pair's target
    paired = {a for a, _ in out}
    name = norm_key(column) if column else ""
    # a medicine's answers with their dose and how often ("Spiriva 18mcg od", "Symbicort
    # 200/6", "Trimbow 2 puffs bd": walk-through 75 kept them apart from their class)
    dosed = _MEDICINE_COLUMN.search(name) is not None
    group_words = {w for g in groups for w in g}
    # every answer's key as the groups write it (without its dose, in a medicine), once
    word = {}
    smoking, derived = smoking_column(column), set()
    for lv, k in keys.items():
        bare = loose_key(without_dose(k)) if dosed and groups else ""
        word[lv] = bare if bare and bare in group_words else loose_key(k)
        # a smoking status with its detail, in whatever words ("ex-smoker, quit 2018",
        # "former (stopped 2019)": walk-through 92's 40 such answers left the column out)
        if smoking and word[lv] not in group_words and smoking_status(k):
            word[lv] = smoking_status(k)
            derived.add(lv)
        # a TNM with distant metastases in a column of stages: stage IV ("T3N2M1")
        if word[lv] not in group_words and "m1" in group_words and \
                re.fullmatch(r"[cpy]{0,2}t[0-4x][a-d]?(?:\s*n[0-3x][a-c]?)?\s*m1[a-c]?", k):
            word[lv] = "m1"
        # an answer after its export's code: "1 - Male", "2 - Female" (walk-through 94's
        # PAS export beside "M" and "Female")
        coded = EXPORT_CODE.sub("", k)
        if word[lv] not in group_words and coded != k and loose_key(coded) in group_words:
            word[lv] = loose_key(coded)
            derived.add(lv)
        # a viral load in a viraemia's answers ("BKV 3.2 log", "CMV 1,200 copies/mL") is
        # detected virus (walk-through 100b's 9 were apart from Yes); "<2 log" is not
        if word[lv] not in group_words and "positive" in group_words and \
                _VIRAL_LOAD.search(k) and not _BELOW_DETECTION.search(k):
            word[lv] = "positive"
            derived.add(lv)
    for group in groups:
        present = [lv for lv, k in keys.items() if word[lv] in group
                   # one letter is read so only when no other answer starts with it
                   # ("m" beside "mild" may mean either)
                   and (len(loose_key(k)) > 1 or not any(
                       o.startswith(loose_key(k)) and loose_key(o) not in group
                       # a typo of the group's words is none (walk-through 74's "fmale"
                       # left "F" unpaired)
                       and not any(_one_edit(loose_key(o), w) for w in group if len(w) > 3)
                       for o in keys.values()))]
        target = min(present, default=None, key=lambda lv: (
            len(loose_key(keys[lv])) == 1, lv in derived, group.index(word[lv]),
            word[lv] != loose_key(keys[lv])))
        # a class's answers go into the class's own word, never into another drug of it
        # ("Trimbow" is no "Trelegy": walk-through 103b)
        if target is not None and set(group) & _CLASS_WORDS and \
                word[target] not in _CLASS_WORDS:
            continue
        # a target already paired goes where its pair goes ("Group B" with "B" by the
        # rules above: "B" is no pair of it again)
        target = dict(out).get(target, target)
        for lv in present:  # a pair once, though two groups hold it ("unk" in a race)
            if lv != target and lv not in paired:
                out.append((lv, target))
                paired.add(lv)
    # one regimen named drug by drug, by its brand or in another order (walk-through 37)
    out += [(a, b) for a, b in combination_pairs(levels, column) if a not in paired]
    out += [(a, b) for a, b in _history_pairs(keys, name) if a not in paired]
    # walk-through 48's GP register: "Asthma" in an Asthma column, "HTN" in Hypertension;
    # "British (White)" beside "White - British"; "Curent smoker" beside "Current smoker";
    # walk-through 50's "E4V5M6" beside "GCS 15"
    if yes_no is not None:  # a treatment's answers, before they are each taken for a yes
        treated = _treatment_pairs(keys, yes_no, counts)
        moved = {a for a, _ in treated}  # not into the yes an earlier rule took it for
        out = [(a, b) for a, b in out if a not in moved] + treated
        kept = {b for _, b in treated}  # ... and the treatment each is paired with
        yes_no = {**yes_no, **{lv: 0 for lv in kept}}
    for more in (_own_name_pairs(keys, yes_no, column, counts) if yes_no is not None
                 else [],
                 _noted_yes_no_pairs(keys, yes_no) if yes_no is not None else [],
                 _reordered_pairs(keys), list(typos.items()), _gcs_pairs(keys),
                 _acronym_pairs(keys), _noted_pairs(keys), _result_pairs(keys, column)):
        paired = {a for a, _ in out}
        out += [(a, b) for a, b in more if a not in paired]
    # answers whose signs differ are never one answer ("D+/R-" and "D+/R+"), unless one
    # of the column's synonym groups holds both ("D+R-" is "D+/R-": walk-through 100)
    def one_group(a: str, b: str) -> bool:
        ka, kb = (loose_key(keys.get(x, norm_key(x))) for x in (a, b))
        return any(ka in g and kb in g for g in groups)

    out = [(a, b) for a, b in out
           if one_group(a, b) or _same_signs(keys.get(a, norm_key(a)), keys.get(b, norm_key(b)))
           or (result_sign(a, column) is not None
               and result_sign(a, column) == result_sign(b, column))]
    # in a column asking about the present ("Recent MI", "Active endocarditis") an old
    # event is no yes (walk-through 98's merge made 26 old MIs recent)
    if column and _PRESENT_NAME.search(str(column)[:80]) and \
            not re.search(r"smok|tobacco", str(column)[:80], re.IGNORECASE):
        out = [(a, b) for a, b in out if bool(_OLD_ANSWER.search(keys.get(a, norm_key(a))))
               == bool(_OLD_ANSWER.search(keys.get(b, norm_key(b))))]
    # two ABO groups are never one answer: "A" is no "AB" shortened (walk-through 99's
    # merge made 44 women of group A group AB)
    if column and BLOOD_GROUP_NAME.search(str(column)[:80]):
        out = [(a, b) for a, b in out if _abo(keys.get(a, norm_key(a)))
               == _abo(keys.get(b, norm_key(b)))]
    return _without_cycles(out)


#: A column of blood groups, by its name ("Blood group", "ABO/Rh", "Blood type", "Group
#: and Rh"; :mod:`sparge.data.blood_groups` reads its cells).
BLOOD_GROUP_NAME = re.compile(r"blood\s*(?:group|type)|\babo\b|\bgroup\s*(?:and|&|/)\s*rh",
                               re.IGNORECASE)


def _abo(key: str) -> str | None:
    """The ABO group an answer starts with ("ab rhd positive": "ab"), or ``None``."""
    m = re.match(r"\s*(ab|a|b|o)(?![a-z])", key)
    return m.group(1) if m else None


#: A column asking about the present, not the history: "Recent MI", "Active
#: endocarditis", "Current smoker".
_PRESENT_NAME = re.compile(r"\b(?:recent|active|current|acute|ongoing)\b", re.IGNORECASE)
#: An answer about the past: "old MI (2015)", "MI 2011", "treated IE 2019", "h/o".
_OLD_ANSWER = re.compile(r"\b(?:old|previous|prior|past|remote|historic(?:al)?|treated|"
                         r"healed|resolved|cured|h/o|hx|history)\b|\b(?:19|20)\d\d\b")


#: A column of medicines, whose answers may carry a dose and how often it is taken.
_MEDICINE_COLUMN = re.compile(r"inhaler|medic|drug|regimen|therap|treatment|prescri|\brx\b")
#: A dose, a number of puffs, how often, a device: "18mcg", "200/6", "2 puffs", "bd".
_DOSE = re.compile(
    r"\b\d+(?:\.\d+)?(?:\s?/\s?\d+(?:\.\d+)?)*\s?(?:mcg|µg|ug|mg|g|micrograms?|units?|iu|"
    r"ml|puffs?|doses?|inhalations?|x)?\b|\b(?:od|bd|bid|tds|tid|qds|qid|prn|nocte|mane|"
    r"daily|once|twice|a day|per day|as required|as needed|only|alone|inhaler|ellipta|respimat|"
    r"handihaler|breezhaler|genuair|turbohaler|accuhaler|evohaler|easyhaler|nexthaler|"
    r"aerosphere|mdi|dpi)\b")


def without_dose(key: str) -> str:
    """A medicine's answer without its dose, how often and the device (a normalised key):
    "spiriva 18mcg od" -> "spiriva", "symbicort 200/6" -> "symbicort"; the key itself
    when nothing else is left."""
    rest = re.sub(r"\s+", " ", _DOSE.sub(" ", key)).strip(" ,;:-()")
    return rest or key


def _noted_pairs(keys: dict[str, str]) -> list[tuple[str, str]]:
    """An answer with a note after it, paired with the column's answer before the note
    (walk-through 62's DaTSCAN "Abnormal - reduced uptake" beside "Abnormal"; "Lives alone
    (widowed)" beside "Lives alone"): offered, the note may matter."""
    by_key = {k: lv for lv, k in keys.items()}
    out = []
    for lv, k in keys.items():
        # a note of two words or more after a dash: a bracket's single word often names
        # another state ("CTO (recalled)" is no "CTO": walk-through 52)
        # ... or of three words or more in brackets ("Active (ulcer R hallux)" beside
        # "active": walk-through 64)
        m = (_DASH_NOTE.fullmatch(k) or _BRACKET_WORDS.fullmatch(k)) if len(k) <= 80 \
            else None
        if m and m.group(1) in by_key and by_key[m.group(1)] != lv:
            out.append((lv, by_key[m.group(1)]))
    return out


_DASH_NOTE = re.compile(r"(.{1,40}?) [-–] ([a-z]+(?: [a-z/]+){1,6})")
_BRACKET_WORDS = re.compile(r"(.{1,40}?) ?\(([a-z]+(?: [a-z/,.]+){2,6})\)")


def _gcs_pairs(keys: dict[str, str]) -> list[tuple[str, str]]:
    """A Glasgow coma scale's parts beside its total in one column: "E4V5M6" with "GCS
    15" or "15"."""
    by_key = {k: lv for lv, k in keys.items()}
    out = []
    for lv, k in keys.items():
        total = gcs_total(k)
        hit = None if total is None else next(
            (by_key[t] for t in (str(total), f"gcs {total}", f"gcs{total}", f"gcs: {total}")
             if t in by_key), None)
        if hit is not None and hit != lv:
            out.append((lv, hit))
    return out


def _without_cycles(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs without those joining answers already joined by earlier pairs: two
    rules pairing one answer both ways ("Injury - limb" into "Limb injury" by a synonym
    group, "Limb injury" into "Injury - limb" by word order) made a loop that no merge
    resolved, and the button came back after every click (walk-through 51)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    out = []
    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra == rb:
            continue
        parent[ra] = rb
        out.append((a, b))
    return out


#: Words of a register column's name that do not name its condition ("Asthma register",
#: "Known AF", "COPD (Y/N)").
_REGISTER_WORDS = re.compile(r"\((?:[^()]{0,20})\)|\b(?:register|registered|on|known|dx|"
                             r"diagnosis|diagnosed|history|of|status|flag|yes|no|y|n|"
                             r"qof|present|recorded|coded)\b")
#: Words of a column's name asking about the past ("Previous RT", "Prior MI").
_PAST_WORDS = re.compile(r"\b(?:previous|prior|past|ever|hx|h/o)\b")
#: Answers that name a register column's condition by another name, by the condition's
#: loose key (:func:`~sparge.data.parsing.loose_key`).
CONDITION_NAMES = {
    "hypertension": ("htn", "ht", "hbp", "highbloodpressure", "hypertensive", "essentialhtn",
                     "essentialhypertension", "highbp", "raisedbp", "raisedbloodpressure"),
    # walk-through 66's comorbidity lists
    "osteoporosis": ("op", "osteoporosis(onaa)", "osteoporotic", "osteoporosis(onbisphosph"
                     "onate)"),
    "interstitiallungdisease": ("ild", "ra-ild", "raild", "ild(ra)", "pulmonaryfibrosis"),
    "atrialfibrillation": ("af", "afib", "knownaf", "paroxysmalaf", "persistentaf",
                           "permanentaf", "paf"),
    "af": ("atrialfibrillation", "afib", "knownaf", "paf"),
    # its types (HFrEF, HFpEF, LVSD) stay apart, as a diabetes' types do
    "heartfailure": ("hf", "ccf", "chf", "lvf", "congestivecardiacfailure",
                     "congestiveheartfailure"),
    "copd": ("chronicobstructivepulmonarydisease", "emphysema", "chronicbronchitis"),
    "asthma": ("asthmatic",),
    "diabetes": ("dm", "diabetic", "diabetesmellitus", "t2dm", "dm2", "type2diabetes", "t2d",
                 "t1dm", "dm1", "type1diabetes", "t1d", "niddm", "iddm"),
    "chronickidneydisease": ("ckd",),
    "ckd": ("chronickidneydisease",),
    "ischaemicheartdisease": ("ihd", "chd", "cad", "coronaryheartdisease"),
    "ischemicheartdisease": ("ihd", "chd", "cad", "coronaryheartdisease"),
    "coronaryheartdisease": ("chd", "ihd", "cad"),
    "stroke": ("cva", "strokeortia", "stroke/tia"),
    "depression": ("depressed", "depressiveillness", "depressivedisorder", "lowmood"),
    "epilepsy": ("epileptic",),
    "dementia": ("demented",),
    # walk-through 95's breast clinic: "hypothyroid" beside "hypothyroidism", and its
    # operations listed by name and by initials, each pair two yes/no columns
    "hypothyroidism": ("hypothyroid", "underactivethyroid"),
    "widelocalexcision": ("wle", "lumpectomy", "breastconservingsurgery", "bcs"),
    "axillarynodeclearance": ("anc", "alnd", "axillaryclearance", "axillarydissection",
                              "axillarylymphnodedissection", "axillarylymphnodeclearance",
                              "axc"),
    "sentinelnodebiopsy": ("snb", "slnb", "sln", "slnbx", "sentinellymphnodebiopsy",
                           "sentinelnode"),
    "mastectomy": ("mastecomy", "mastectomey", "mastectmy"),
    # walk-through 98's cardiac surgery: its operations by name and initials
    "cabg": ("coronaryarterybypass", "coronaryarterybypassgraft", "cagb",
             "coronaryarterybypassgrafting", "coronaryarterybypassgrafts"),
    "avr": ("aorticvalvereplacement",),
    "mvrepair": ("mitralvalverepair",),
    "bentall": ("bental", "aorticrootreplacement", "bentallprocedure"),
    "asdclosure": ("asdrepair",),
    # walk-through 96's stroke clinic: "CEA done" beside Y and N
    "carotidendarterectomy": ("cea", "endarterectomy", "carotidendarterectomy"),
    # walk-through 99's maternity unit: "PET" beside "pre-eclampsia", and a comorbidity
    # list's praevia and von Willebrand disease
    "preeclampsia": ("pet", "preeclamptictoxaemia", "preeclamptictoxemia", "preeclamptic"),
    "placentapraevia": ("praevia", "placentaprevia", "previa", "majorpraevia",
                        "minorpraevia", "majorplacentapraevia"),
    "vonwillebranddisease": ("vwd", "vonwillebrand", "vonwillebrands",
                             "vonwillebrandsdisease", "vwfdeficiency"),
    "gestationaldiabetes": ("gdm", "gestationaldm", "gestationaldiabetesmellitus"),
    # walk-through 101's intensive care unit: "ALD cirrhosis" beside "cirrhosis"
    "cirrhosis": ("aldcirrhosis", "alcoholiccirrhosis", "alcoholrelatedcirrhosis",
                  "livercirrhosis", "nashcirrhosis", "hepaticcirrhosis", "cirrhotic",
                  "cirrhosisoftheliver"),
}
#: A condition's types and treatments (loose keys), which say "yes" in its yes/no column
#: (walk-through 56's "Diabetes": Yes, No, "T2DM", "type 2", "insulin treated", "diet
#: controlled"): offered to merge with its yes there; kept apart in lists and registers,
#: where the type is the answer (:data:`CONDITION_NAMES`).
CONDITION_KINDS = {
    "diabetes": ("t2dm", "t2", "t2d", "type2", "type2dm", "type2diabetes", "dm2", "dmtype2",
                 "typeii", "niddm", "t1dm", "t1", "t1d", "type1", "type1dm", "type1diabetes",
                 "dm1", "dmtype1", "typei", "iddm", "insulintreated", "oninsulin", "insulin",
                 "insulindependent", "dietcontrolled", "diet", "dietonly", "tablets",
                 "tabletcontrolled", "tablettreated", "oha", "oralhypoglycaemics",
                 "oralhypoglycemics", "metformin"),
    # walk-through 68's perianal Crohn's disease: a fistula, a seton or an abscess says
    # yes in "Perianal disease"
    "perianal": ("fistula", "perianalfistula", "activefistula", "activefistula+seton",
                 "fistula+seton", "fistulawithseton", "seton", "setoninsitu",
                 "complexfistula", "simplefistula", "abscess", "perianalabscess",
                 "previousabscess", "previousfistula", "fistulaandabscess",
                 "recurrentabscess", "perianalcrohns", "perianalcrohn's"),
}
CONDITION_KINDS["perianaldisease"] = CONDITION_KINDS["perianal"]
# walk-through 71's heart-failure clinic: AF's kinds say yes in "AF" ("permanent" was coded
# 5, farther from Yes than No is)
CONDITION_KINDS["af"] = ("paroxysmal", "persistent", "permanent", "paf", "longstanding",
                         "longstandingpersistent", "long-standingpersistent",
                         "paroxysmalaf", "persistentaf", "permanentaf", "atrialflutter",
                         "flutter")
CONDITION_KINDS["atrialfibrillation"] = CONDITION_KINDS["af"]
# walk-through 87's AF clinic: a vascular disease by where it is (the CHA2DS2-VASc's "V":
# a myocardial infarction, a peripheral artery disease, an aortic plaque). A heart
# failure's kind stays apart from its yes (HFrEF and HFpEF are told apart in a heart
# failure clinic: walk-throughs 48 and 75)
CONDITION_KINDS["vasculardisease"] = ("mi", "priormi", "previousmi", "oldmi", "pad", "pvd",
                                      "cad", "ihd", "aorticplaque", "nstemi", "stemi",
                                      "peripheralarterialdisease",
                                      "peripheralvasculardisease")
#: The drugs of a class a yes/no column is named for ("Statin", "Insulin"), by their
#: loose keys' starts: an answer naming one ("atorvastatin 20mg", "Atorva 40", "Lantus
#: 20u nocte") says yes there (walk-through 64's statin column held 307 such answers
#: beside its Y and N).
DRUG_CLASS_MEMBERS = {
    "statin": ("atorvastatin", "atorva", "simvastatin", "simva", "rosuvastatin", "rosuva",
               "pravastatin", "prava", "fluvastatin", "pitavastatin", "lipitor", "zocor",
               "crestor"),
    "insulin": ("lantus", "levemir", "tresiba", "toujeo", "abasaglar", "semglee",
                "humulin", "insulatard", "novorapid", "humalog", "apidra", "fiasp",
                "lyumjev", "novomix", "humalogmix", "insulinpump", "pump", "basalbolus",
                "glargine", "detemir", "degludec", "aspart", "lispro", "isophane"),
}
# walk-through 105's growth factors given with chemotherapy ("pegfilgrastim", "Neulasta"
# beside "yes" in a G-CSF column)
DRUG_CLASS_MEMBERS["gcsf"] = ("filgrastim", "pegfilgrastim", "lenograstim", "lipegfilgrastim",
                              "neulasta", "zarzio", "nivestim", "neupogen", "accofil",
                              "grastofil", "granocyte", "lonquex", "pelgraz", "pelmeg",
                              "ziextenzo", "pegfil", "pegfilg", "filg")
for _name in ("g-csf", "gcsfprophylaxis", "g-csfprophylaxis", "growthfactor",
              "growthfactorsupport", "primarygcsf", "primaryg-csf"):
    DRUG_CLASS_MEMBERS[_name] = DRUG_CLASS_MEMBERS["gcsf"]
DRUG_CLASS_MEMBERS["statins"] = DRUG_CLASS_MEMBERS["statin"]
DRUG_CLASS_MEMBERS["oninsulin"] = DRUG_CLASS_MEMBERS["insulin"]
#: An answer naming a drug of the class as not taken: "simvastatin - stopped".
_NOT_ON_DRUG = re.compile(r"stop|intoleran|allerg|declin|refus|not|never|previous|prior|"
                        r"\bno\b|\bc/?i\b", re.IGNORECASE)


def names_class_drug(key: str, names: frozenset[str]) -> bool:
    """Whether an answer (a normalised key) names a drug of the class its column is named
    for (:data:`DRUG_CLASS_MEMBERS`), as taken: "atorvastatin 20mg" in "Statin"."""
    members = [m for n in names for m in DRUG_CLASS_MEMBERS.get(n, ())]
    # ... or of the one drug it is named for, by any of its names: "Herceptin" and
    # "trastuzumab 1 yr" in "Trastuzumab", "Phesgo" in "Pertuzumab" (walk-through 95)
    drugs = {g for n in names if len(n) >= 4 and (g := generic_name(n)) is not None}
    if drugs and not _NOT_ON_DRUG.search(key):
        held = drug_set(key)
        if held is not None and held & drugs:
            return True
    if not members or _NOT_ON_DRUG.search(key):
        return False
    loose = loose_key(key)
    first = loose_key(re.split(r"[\s,;/+(]", key.strip(), maxsplit=1)[0])
    return any((loose.startswith(m) and not loose[len(m):len(m) + 1].isalpha())
               or first == m for m in members)


#: Words saying a treatment or condition named first was not had: "RT declined".
_NOT_HAD = re.compile(r"\b(?:declined|refused|planned|awaiting|offered|deferred|not|no|"
                      r"never|contraindicated|cancelled|ruled out|query|\?)\b")
#: Answers that negate the condition they name ("No asthma", "non-diabetic").
_NEGATED = re.compile(r"(?:no|non|not|nil|never|without|free|absent|negative|neg)\b")


def _own_name_pairs(keys: dict[str, str], yes_no: dict[str, int], column: str | None,
                    counts: Mapping[str, int] | None = None) -> list[tuple[str, str]]:
    """In a yes/no register column, the answers that name its own condition, paired with
    its yes: "Asthma" and "Asthma - mild" in "Asthma", "HTN" in "Hypertension". With the
    cells per answer (``counts``), not a drug by name in a column written mostly as
    drugs of two or more kinds."""
    names = _condition_names(column)
    yes = [lv for lv, code in yes_no.items() if code == 1]
    if not names or not yes:
        return []
    target = max(yes, key=lambda lv: (norm_key(lv) == "yes", lv[:1].isupper(), len(lv)))
    kinds = {w for n in names for w in CONDITION_KINDS.get(n, ())}
    # "known dementia", "h/o AF", "diagnosed diabetes": the condition, said known
    # (walk-through 72's dementia column)
    def bare(k: str) -> str:
        return re.sub(r"^(?:known|diagnosed|confirmed|established|h/o|hx of|history of|"
                      r"pmh|pmh of)\s+", "", k)

    # ... but not a drug by name in a column written mostly as drugs, of several kinds:
    # walk-through 106's "IV iron" wrote "Venofer", "Monofer 1g" and "IV iron sucrose
    # 200mg" (270 cells) beside its yes and no (158), the last offered into "Yes" and its
    # drug lost (a G-CSF column's few "pegfilgrastim" are its yes: walk-through 105)
    named = {lv: d for lv, k in keys.items()
             if (d := drug_set(k)) and "(no drug)" not in d and yes_no.get(lv, 3) not in
             (0, 1, 2)}
    drug_column = False
    if counts is not None and len(set(named.values())) >= 2:
        cells = {lv: counts.get(k, 0) for lv, k in keys.items()}
        drug_column = sum(cells[lv] for lv in named) > sum(
            n for lv, n in cells.items() if yes_no.get(lv, 3) in (0, 1, 2))
    return [(lv, target) for lv, k in keys.items()
            if yes_no.get(lv, 3) not in (0, 1, 2)
            and (names_condition(k, names) or names_condition(bare(k), names)
                 or loose_key(k) in kinds or names_class_drug(k, names))
            and not (drug_column and lv in named)]


#: A grade, stage or category written for a finding ("grade 2 sacrum", "stage 3",
#: "cat 2 heel"): the finding is there.
_GRADED_YES = re.compile(r"(?:grade|stage|category|cat\.?|gr\.?)\s?(?:[1-4]|i{1,3}|iv)"
                         r"(?:[ab])?(?:\s?[-,:(]?\s?[a-z][a-z ]{0,30}\)?)?")


#: A condition's treatments, by the words that name them ("GDM - diet", "Yes - insulin",
#: "metformin"): the answers of one treatment are one answer (:func:`_treatment_pairs`).
TREATMENT_WORDS = {
    "diet": "diet", "dietary": "diet", "dietcontrolled": "diet", "lifestyle": "diet",
    "metformin": "metformin", "met": "metformin", "insulin": "insulin",
    "insulintreated": "insulin", "oninsulin": "insulin", "tablets": "tablets",
    "tablet": "tablets", "oha": "tablets", "ohas": "tablets", "oral": "tablets",
    "glibenclamide": "glibenclamide", "gliclazide": "gliclazide",
}


def _treatments(key: str) -> set[str]:
    """The treatments an answer names (:data:`TREATMENT_WORDS`)."""
    words = re.findall(r"[a-z]+", key)
    joined = {a + b for a, b in zip(words, words[1:])}
    return {TREATMENT_WORDS[w] for w in (*words, *joined) if w in TREATMENT_WORDS}


def _treatment_pairs(keys: dict[str, str], yes_no: dict[str, int],
                     counts: Mapping[str, int] | None = None) -> list[tuple[str, str]]:
    """In a yes/no column whose answers name two or more treatments, each written two or
    more ways, the answers of one treatment paired with the most written of them (the
    shorter on a tie): walk-through 99's gestational diabetes, "GDM - diet", "diet",
    "Diet-controlled GDM", "GDM - metformin", "metformin", "GDM (insulin)", "Yes -
    insulin" and "insulin", was offered as eleven yeses; its treatment is its answer. An
    answer naming two treatments is its own. Empty otherwise: a treatment or two written
    once each ("insulin treated", "diet controlled") say yes (:func:`_own_name_pairs`)."""
    by: dict[str, list[str]] = {}
    for lv, k in keys.items():
        if yes_no.get(lv) in (0, 1, 2) or _NEGATED.match(k) or _NOT_HAD.search(k):
            continue
        named = _treatments(k)
        if len(named) == 1:
            by.setdefault(named.pop(), []).append(lv)
    if sum(len(lvs) >= 2 for lvs in by.values()) < 2:
        return []
    out = []
    for lvs in by.values():
        target = min(lvs, key=lambda lv: (-(counts or {}).get(norm_key(lv), 0),
                                          len(lv), lv))
        out += [(lv, target) for lv in lvs if lv != target]
    return out


def _noted_yes_no_pairs(keys: dict[str, str], yes_no: dict[str, int]
                        ) -> list[tuple[str, str]]:
    """In a yes/no column, a yes or no with a note after it, paired with the column's yes
    or no: walk-through 54's "yes - chest wall" and "yes (2019)" beside "Yes" in a
    previous radiotherapy column (offered to merge: the note may matter)."""
    plain = {}
    for lv, code in yes_no.items():
        if code in (1, 2) and keys.get(lv) in ("yes", "y", "no", "n"):
            best = plain.get(code)
            if best is None or (keys[lv] in ("yes", "no"), lv[:1].isupper()) > \
                    (keys[best] in ("yes", "no"), best[:1].isupper()):
                plain[code] = lv
    out = []
    for lv, k in keys.items():
        head = note_head(k)  # "yes - chest wall", "yes (2019)", "no: declined"
        code = 1 if head in ("y", "yes") else 2 if head in ("n", "no") else None
        # a finding's grade, with or without its site, is a yes (walk-through 72's
        # pressure ulcer "grade 2 sacrum" beside Y and N)
        if code is None and _GRADED_YES.fullmatch(k):
            code = 1
        if code in plain and plain[code] != lv:
            out.append((lv, plain[code]))
    return out


@functools.lru_cache(maxsize=4096)  # per column name: asked for every answer shown
def _condition_names(column: str | None) -> frozenset[str]:
    """The loose keys naming a register column's condition: its name without register
    words ("Asthma register": "asthma") and the condition's other names
    (:data:`CONDITION_NAMES`); empty without a name."""
    if not column:
        return frozenset()
    said = _REGISTER_WORDS.sub(" ", norm_key(column))
    names = set()
    # ... and without the words asking about the past: "RT" of "Previous RT" (walk-through
    # 54's "RT to breast"), "MI" of "Prior MI"
    for name in {loose_key(said), loose_key(_PAST_WORDS.sub(" ", said))}:
        if len(name) >= 2:
            names |= {name, *CONDITION_NAMES.get(name, ())}
    return frozenset(names)


def names_condition(key: str, names: frozenset[str]) -> bool:
    """Whether an answer (a normalised key) names the condition of ``names`` (and does
    not negate it): "Asthma", "Asthma - mild", "HTN"; not "No asthma" or "CKD 3"."""
    if not names or _NEGATED.match(key):
        return False
    # "known HTN", "h/o asthma": the condition, said known (walk-through 96 showed every
    # hypertensive patient as "Known HTN")
    key = re.sub(r"^(?:known|diagnosed|confirmed|established|h/o|hx of|history of|"
                 r"pmh of|pmh)\s+", "", key)
    # "CEA done", "CEA performed": an operation said done
    key = re.sub(r"\s+(?:done|performed|carried out|completed)$", "", key)
    loose = loose_key(key)
    if loose in names or any(len(n) >= 4 and loose.startswith(n)
                             and not loose[len(n):len(n) + 1].isdigit() for n in names):
        return True
    # a short name as the answer's first word, with a note: "RT to breast" in "Previous
    # RT", "MI - 2015" in "Prior MI" (not "RT3", "CKD 3")
    # ... or with a count after a dash: "DGF - 2 sessions HD" (walk-through 100)
    first = re.match(r"([a-z0-9]{2,3})(?:[\s\-:,(]+(?:[a-z]|(?:19|20)\d\d\b)|"
                     r"\s{0,2}[\-:(]\s{0,2}\d{1,2}\s[a-z]{3,})", key)
    return first is not None and first.group(1) in names and not _NOT_HAD.search(key)


def _reordered_pairs(keys: dict[str, str]) -> list[tuple[str, str]]:
    """Answers of the same two or more words in another order, "British (White)" and
    "White - British": the later one with the first."""
    first: dict[tuple[str, ...], str] = {}
    out = []
    for lv, k in keys.items():
        words = tuple(sorted(re.findall(r"[a-z]+", k)))
        if len(words) < 2 or re.search(r"\d", k):
            continue
        if words in first and keys[first[words]] != k:
            out.append((lv, first[words]))
        else:
            first.setdefault(words, lv)
    return out


#: An answer whose last word is a Roman numeral (a rank: "Garden III", "grade ii").
_RANK_LAST = re.compile(r"(?:^|[^a-z])(?:i{1,3}|iv|vi{0,3}|ix|x)[a-c]?(?:$|[^a-z])")


def _typo_pairs(keys: dict[str, str], known: set[str] | frozenset[str] = frozenset(),
                counts: Mapping[str, int] | None = None) -> list[tuple[str, str]]:
    """Answers equal but for a doubled letter written once, or two neighbouring letters
    swapped, in words of at least 6 letters and no digits: "Curent smoker" and "Current
    smoker", "Carribean" and "Caribbean". The answer with more letters is the target;
    of two as long, the one ``known`` (loose keys of the right spellings) holds
    ("female", not "Femlae"); and either way the one written by at least twice as many
    cells (``counts``, by normalised key), when they are known: walk-through 81's 33
    "endometriosis" were offered into 7 "endometriossis"."""
    def undoubled(k: str) -> str:
        return re.sub(r"([a-z])\1", r"\1", loose_key(k))

    def swaps(k: str) -> set[str]:
        return {k[:i] + k[i + 1] + k[i] + k[i + 2:] for i in range(len(k) - 1)
                if k[i] != k[i + 1]}

    # answers of a few words: a 5 MB cell is no typo of another (each form is a copy)
    # ... nor a rank: "Garden III" is no "Garden I" with its letter doubled (walk-through
    # 72 merged undisplaced fractures into displaced ones), "stage IIIb" no "Stage IIB"
    # (walk-through 95's merge made every stage IIB breast cancer a IIIB), wherever in
    # the answer its numeral stands
    plain = {lv: k for lv, k in keys.items() if len(k) <= _TYPO_MAX
             and len(re.sub(r"[^a-z]", "", k)) >= 6 and not re.search(r"\d", k)
             and not _RANK_LAST.search(k)}
    by_form: dict[str, str] = {}
    # a letter left out inside a long answer: "breathing diffculty" (walk-through 50);
    # only inside a word of five letters or more, never its first or last letter (a
    # plural, a prefix; "A RhD positive" is no "AB RhD positive" with its "B" left out:
    # walk-through 99's merge made 44 women of group A group AB), and only where one
    # answer has that form
    dropped: dict[str, set[str]] = {}
    for lv, k in plain.items():
        if len(loose_key(k)) >= _DROPPED_MIN:
            for m in re.finditer(r"[a-z]{5,}", k):
                for i in range(m.start() + 1, m.end() - 1):
                    dropped.setdefault(loose_key(k[:i] + k[i + 1:]), set()).add(lv)
    out = []
    for lv, k in sorted(plain.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        loose = loose_key(k)
        forms = [undoubled(k)] + sorted(swaps(loose))
        hit = next((by_form[f] for f in forms if f in by_form
                    and loose_key(keys[by_form[f]]) != loose), None)
        fuller = dropped.get(loose, set()) - {lv}
        if hit is None and len(fuller) == 1:
            hit = next(iter(fuller))
            hit = dict(out).get(hit, hit)
        if hit is not None and hit != lv:
            out.append((lv, hit))
        else:
            by_form.setdefault(undoubled(k), lv)
            by_form.setdefault(loose, lv)
    # a known word is no typo of an unknown one: the pair turns round
    out = [(b, a) if loose_key(keys[a]) in known and loose_key(keys[b]) not in known
           and len(loose_key(keys[a])) == len(loose_key(keys[b])) else (a, b)
           for a, b in out]
    if counts:  # ... and a spelling twice as common is the right one
        def n(lv: str) -> int:
            return int(counts.get(keys[lv], 0))

        out = [(b, a) if n(a) >= 2 * max(n(b), 1) else (a, b) for a, b in out]
    order = {lv: i for i, lv in enumerate(keys)}
    return sorted(out, key=lambda ab: order[ab[0]])


#: The longest answer (characters) read as another's typo.
_TYPO_MAX = 80
#: The fewest letters of an answer read as another with a letter left out.
_DROPPED_MIN = 8
#: Small words an acronym may leave out ("SOB": shortness of breath; "UTI": urinary tract
#: infection) ...
_ACRONYM_SMALL = frozenset({"of", "and", "the", "with", "in", "on", "to", "a", "an", "for"})
#: ... and words an answer may leave implicit that its acronym spells ("T1DM": type 1
#: diabetes).
_ACRONYM_IMPLICIT = {"diabetes": ("diabetes", "mellitus")}


def _acronym_forms(key: str) -> set[str]:
    """The acronyms an answer of two or more words may be written as: its words' first
    letters and its numbers ("type 1 diabetes": "t1d", "t1dm"), with or without its small
    words ("shortness of breath": "sob", "sb")."""
    words = re.findall(r"[a-z]+|\d+", key)
    if len(words) < 2 or sum(w.isalpha() for w in words) < 2:
        return set()
    forms = set()
    for keep_small in (True, False):
        for implicit in (False, True):
            letters = []
            for w in words:
                if not keep_small and w in _ACRONYM_SMALL:
                    continue
                spelled = _ACRONYM_IMPLICIT.get(w, (w,)) if implicit else (w,)
                letters += [x if x.isdigit() else x[0] for x in spelled]
            forms.add("".join(letters))
    return {f for f in forms if len(f) >= 2}


def _acronym_pairs(keys: dict[str, str]) -> list[tuple[str, str]]:
    """An answer written as its acronym beside the answer in words: "CP" and "Cerebral
    palsy", "T1DM" and "Type 1 diabetes", "UTI" and "urinary tract infection"
    (walk-through 50's past medical history). The acronym is 2 to 6 letters or digits,
    at least two letters, in capitals where the export writes capitals; it is paired only
    when exactly one answer of the column spells it."""
    spelled: dict[str, set[str]] = {}
    for lv, k in keys.items():
        if len(k) > _TYPO_MAX:
            continue
        for form in _acronym_forms(k):
            spelled.setdefault(form, set()).add(lv)
    out = []
    for lv, k in keys.items():
        short = loose_key(k)
        if not (2 <= len(short) <= 6 and short.isalnum()
                and sum(c.isalpha() for c in short) >= 2):
            continue
        # "cp" in a column of lower-case words may be a word; "CP" is an acronym
        if not any(c.isupper() for c in lv) and len(short) > 4:
            continue
        # "No" is no acronym of "not offered" (walk-through 64 was offered to merge them)
        if short in _BOOLEAN_WORDS or short in ("na", "nil", "none", "nk", "unk"):
            continue
        full = spelled.get(short, set()) - {lv}
        if len(full) == 1:
            out.append((lv, next(iter(full))))
    return out


#: A column asking whether something happened before: "TB history", "Previous MI".
_HISTORY_COLUMN = re.compile(r"history|previous|prior|\bever\b|\bhx\b|\bpast\b")
#: An answer saying it did, and naming what: "previous TB", "history of TB", "past MI".
_HAD_BEFORE = re.compile(r"(?:previous|prior|past|old|history of|hx of|h/o)\s+(.+)")


def _history_pairs(keys: dict[str, str], name: str) -> list[tuple[str, str]]:
    """In a yes/no column asking about the past ("TB history"), "never" is its no and
    "previous TB" (naming the column's own word) its yes (walk-through 37 coded them
    apart from Yes and No)."""
    if not _HISTORY_COLUMN.search(name):
        return []
    yes = min((lv for lv, k in keys.items() if k in ("yes", "y")), default=None,
              key=lambda lv: keys[lv] != "yes")  # "Yes" before "Y"
    no = min((lv for lv, k in keys.items() if k in ("no", "n")), default=None,
             key=lambda lv: keys[lv] != "no")
    if yes is None or no is None:
        return []
    words = {w for w in re.findall(r"[a-z0-9]+", name) if len(w) > 1}
    out = []
    for lv, k in keys.items():
        if k == "never":
            out.append((lv, no))
        elif (m := _HAD_BEFORE.fullmatch(k)) and set(re.findall(r"[a-z0-9]+",
                                                                  m.group(1))) <= words:
            out.append((lv, yes))
    return out


#: A level that is a site followed by a word for cancer: "lung ca", "breast cancer".
_CANCER_AFTER = re.compile(r"[\s\-]+(?:ca\.?|cancer|carcinoma|tumou?r|malignancy|neoplasm)$")


def site_of(key: str) -> str | None:
    """The site a level names before a word for cancer ("lung ca": "lung", "breast
    cancer": "breast"), or ``None`` when it has no such word after a site. The end only
    is searched: a pattern from the start backtracked for minutes on a hostile
    100,000-letter cell."""
    m = _CANCER_AFTER.search(key)
    bare = key[:m.start()] if m else ""
    return bare if re.search("[a-z]", bare) else None
#: A column of tumour grades: its name says grade or differentiation.
_GRADE_COLUMN = re.compile(r"grade|grading|differentiat")
#: A tumour's differentiation in words, with its grade (G1 well, G2 moderately, G3 poorly
#: differentiated, G4 undifferentiated).
_DIFFERENTIATION = re.compile(
    r"(well|moderately|moderate|mod|poorly|poor|un|non)\.?[\s\-]*(diff(?:erentiated|\.)?)?\.?")
_DIFFERENTIATION_GRADE = {"well": "1", "moderately": "2", "moderate": "2", "mod": "2",
                          "poorly": "3", "poor": "3", "un": "4", "non": "4"}


def differentiation_grade(key: str) -> str | None:
    """The grade a differentiation written in words means ("well diff." 1, "moderately
    differentiated" 2, "poorly diff" 3, "undifferentiated" and "anaplastic" 4), as a
    digit; ``None`` for any other key. A short stem needs "diff" after it ("mod diff",
    not "mod")."""
    key = norm_key(key)
    if key == "anaplastic":
        return "4"
    m = _DIFFERENTIATION.fullmatch(key)
    if m is None or (m.group(2) is None and m.group(1) not in ("well", "moderately",
                                                                 "poorly")):
        return None
    return _DIFFERENTIATION_GRADE[m.group(1)]


#: A stage or grade that could not be assessed: "Gx", "TX", "grade x", "x".
_NOT_ASSESSED = re.compile(r"(?:[gtnm]|grade|stage)?[\s\-]*x")
#: A column of stages or grades, by its name.
_STAGED_COLUMN = re.compile(r"grade|grading|stage|staging|differentiat|tnm")


def not_assessed_levels(levels: list[str], column: str | None) -> list[str]:
    """The levels of a stage or grade column that say it could not be assessed ("Gx",
    "TX", "grade x"): a gap, not a stage (walk-through 25's 41 "Gx" tumours were coded
    grade 11 and drawn as an island of their own). Only in a column named a stage or
    grade whose other levels hold a number or a Roman numeral.

    Examples
    --------
    >>> not_assessed_levels(["G1", "G2", "Gx"], "Grade")
    ['Gx']
    >>> not_assessed_levels(["A", "X"], "Blood group"), not_assessed_levels(["x"], "Grade")
    ([], [])
    """
    if not column or not _STAGED_COLUMN.search(norm_key(column)):
        return []
    gaps = [lv for lv in levels if _NOT_ASSESSED.fullmatch(norm_key(lv))]
    staged = any(re.search(r"\d|\b(?:i{1,3}|iv|vi{0,3})\b", norm_key(lv))
                 for lv in levels if lv not in gaps)
    return gaps if staged else []


#: A section of the Mental Health Act written with what it is (walk-through 52's
#: "Section 37 (hospital order)", "37/41 restricted").
_SECTION_NOTES = {
    "37": ("section37(hospitalorder)", "s37(hospitalorder)", "section37hospitalorder",
           "hospitalorder", "hospitalorder(s37)"),
    "37/41": ("37/41restricted", "s37/41restricted", "section37/41restricted",
              "restrictedhospitalorder", "section37/41(restricted)", "s37/41(restricted)",
              "37/41"),
}

#: A breathing support's settings as written after it: pressures (cmH2O) and flows
#: (L/min, L/kg/min), as loose keys (:func:`loose_key` drops the point: "0.5" is "05").
_PRESSURES = tuple(str(p) for p in range(3, 13))
_FLOWS = ("01", "02", "025", "03", "04", "05", "075", "1", "15", "2", "25", "3", "4", "5",
          "6", "8", "10", "12", "15")


def _settings(names, values, units) -> tuple[str, ...]:
    """Every ``name`` + ``value`` + ``unit`` key, with and without a space's worth."""
    return tuple(f"{n}{v}{u}" for n in names for v in values for u in units)


#: Answers that mean the same in a column whose name holds one of the words (loose keys,
#: :func:`loose_key`; the preferred answer first): smoking status, sex and the type of
#: diabetes, as clinic exports write them. Only there: "active" and "current" need not mean the same
#: elsewhere.
#: A paraprotein's heavy and light chain written as a clinic writes it ("IgG kappa",
#: "IgG K", "IgGκ", "IgG-k"): one group per isotype.
_ISOTYPES = tuple(
    (f"{heavy} {light}", *(f"{heavy}{sep}{form}" for form in forms
                           for sep in ("", " ", "-", "/")))
    for heavy in ("igg", "iga", "igd", "igm", "ige")
    for light, forms in (("kappa", ("kappa", "k", "κ", "kapa")),
                         ("lambda", ("lambda", "l", "λ", "lamda"))))
#: A smoking answer's pack-years, as :func:`~sparge.data.parsing.loose_key` writes them
#: ("20py", "20 pack-years)"), and the answers written with them.
_PACK_YEARS = ("py", "pys", "packyears", "packyear", "packyrs", "pkyrs", "py)",
               "packyears)", "packyrs)")
_PACK_YEAR_WORDS = {"former": ("ex", "exsmoker", "former", "formersmoker", "ex(",
                               "exsmoker(", "former("),
                    "current": ("current", "currentsmoker", "smoker", "current(",
                                "currentsmoker(", "smoker(")}
SYNONYMS: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = (
    (("smok", "tobacco", "cigar"), (
        ("former", "exsmoker", "ex", "formersmoker", "past", "previous", "quit", "stopped",
         "stoppedinpregnancy", "stoppedduringpregnancy", "quitinpregnancy",
         "gaveupinpregnancy",
         # walk-through 45: "quit 2015", "ex (quit 2009)": a year per patient made the
         # column's answers more than 30, and it was left out as free text
         *(f"{w}{y}" for y in range(1940, 2031)
           for w in ("quit", "quitin", "stopped", "stoppedin", "gaveup", "gaveupin",
                     "ex(quit", "exquit", "exsmoker(quit", "exsince", "exsmokersince",
                     "formersince", "formersmokersince", "quitsince")),
         *(f"{w}{y})" for y in range(1940, 2031)
           for w in ("ex(quit", "exsmoker(quit", "ex(stopped", "former(quit")),
         # walk-through 48: "ex smoker 2010"
         *(f"{w}{y}" for y in range(1940, 2031) for w in ("exsmoker", "ex", "formersmoker")),
         # walk-through 68: "ex (quit 10y ago)"
         *(f"{w}{n}{u}" for n in range(1, 61) for w in ("ex(quit", "quit", "exquit",
                                                         "ex(stopped", "stopped")
           for u in ("yago)", "yearsago)", "yrsago)", "yago", "yearsago", "yrsago")),
         # walk-through 80: "ex-smoker 20py" beside "ex" (pack-years per patient)
         *(f"{w}{n}{u}" for n in range(1, 151) for w in _PACK_YEAR_WORDS["former"]
           for u in _PACK_YEARS)),
        # walk-through 97: "non" beside "non-smoker"
        ("never", "neversmoked", "nonsmoker", "neversmoker", "lifelongnonsmoker", "non"),
        # "Yes" beside "Current" answers "does the patient smoke?" (walk-through 27)
        ("current", "currentsmoker", "smoker", "active", "activesmoker", "yes", "y",
         "smokes", "stillsmoking", "stillsmokes",
         # walk-through 48: "Smoker - 10/day", "current 20/day"
         *(f"{w}{n}{u}" for n in range(1, 81)
           # walk-through 53: "Yes - 20/day"
           for w in ("smoker", "current", "currentsmoker", "smoker(", "current(", "",
                     "yes", "y", "yes(")
           for u in ("/day", "perday", "/d", "aday", "cigs/day", "cigarettes/day",
                     "/day)", "perday)", "cigs/day)")),
         *(f"{w}{n}{u}" for n in range(1, 151) for w in _PACK_YEAR_WORDS["current"]
           for u in _PACK_YEARS)))),
    (("sex", "gender"), (
        ("female", "f", "woman", "w", "fem", "girl"),
        ("male", "m", "man", "masc", "boy"),
        # walk-through 53: "NB" beside "Non-binary"
        ("nonbinary", "nb", "enby", "genderqueer", "nonbinary/genderqueer"))),
    # walk-through 41's child-health clinic: immunisations up to date written UTD,
    # complete; partial and incomplete one answer
    (("immunis", "immuniz", "vaccin", "jabs"), (
        ("uptodate", "utd", "complete", "completed", "fullyimmunised", "fullyimmunized",
         "fullyvaccinated", "uptodatewithimmunisations", "yes"),
        ("incomplete", "partial", "partiallyimmunised", "partiallyimmunized",
         "partiallyvaccinated", "behind", "notuptodate", "overdue", "notutd", "nonutd"),
        # walk-through 60: "declined MMR" beside "declined"
        ("declined", "refused", "parentsdeclined", "parentdeclined", "declinedmmr",
         "declinedvaccination", "declinedvaccinations", "declinedimmunisations",
         "declinedimmunizations", "refusedmmr"),
        ("none", "unimmunised", "unimmunized", "unvaccinated", "notimmunised",
         "notimmunized", "notvaccinated", "no"))),
    # walk-through 82's cystic fibrosis clinic: "PI" beside "Insufficient", "PS" beside
    # "Sufficient" in its pancreatic status
    (("pancrea", "exocrine"), (
        ("insufficient", "pi", "pancreaticinsufficient", "pancreaticinsufficiency",
         "insufficiency", "exocrineinsufficiency", "epi"),
        ("sufficient", "ps", "pancreaticsufficient", "pancreaticsufficiency",
         "sufficiency"))),
    # walk-through 22's diabetes clinic: T2, T2DM, Type 2 and Type II for one answer
    (("diabet", "dm type", "type of dm"), (
        ("type2", "t2dm", "t2", "t2d", "dm2", "dmii", "dmtype2", "typeii", "type2dm",
         "type2diabetes", "niddm", "type2diabetesmellitus", "diabetesmellitustype2",
         "typeiidiabetes", "typeiidiabetesmellitus",
         # walk-through 64: a type 2 with a past gestational diabetes noted
         "type2(prevgdm)", "t2dm(prevgdm)", "t2dm(previousgdm)", "t2dm(hxgdm)",
         "type2-hxgdm", "type2(hxgdm)", "t2(prevgdm)", "t2dmprevgdm",
         # walk-through 106: a yes with its type, "yes (T2)"
         *(f"{y}{t}" for y in ("yes(", "y(", "yes-", "yes") for t in (
             "t2)", "t2dm)", "type2)", "t2", "t2dm", "type2"))),
        ("type1", "t1dm", "t1", "t1d", "dm1", "dmi", "dmtype1", "typei", "type1dm",
         # not "IDDM": insulin-dependent, which a type 2 on insulin is too (walk-through
         # 98 showed a 70-year-old on insulin as "Type 1")
         "type1diabetes", "type1diabetesmellitus", "diabetesmellitustype1",
         "typeidiabetes", "typeidiabetesmellitus",
         *(f"{y}{t}" for y in ("yes(", "y(", "yes-", "yes") for t in (
             "t1)", "t1dm)", "type1)", "t1", "t1dm", "type1"))),
        # walk-through 64: a monogenic diabetes with its gene, an autoimmune one in
        # adults with its antibody, and a type 2 with a past gestational diabetes
        ("mody", *(f"mody{n}" for n in range(1, 15)), "mody3(hnf1a)", "mody(hnf1a)",
         "mody2(gck)", "mody(gck)", "mody1(hnf4a)", "mody5(hnf1b)", "hnf1amody",
         "gckmody", "hnf1a", "gck", "monogenic", "monogenicdiabetes"),
        ("lada", "lada(gad+)", "lada(gadpositive)", "ladagad+", "lada(gad+ve)",
         "latentautoimmunediabetesinadults", "type1.5"),
        # walk-through 65: a diabetes of the exocrine pancreas written two ways
        ("type3c", "type3c(pancreatic)", "pancreatogenic", "pancreatogenicdiabetes",
         "pancreaticdiabetes", "t3cdm", "type3cdiabetes", "3c", "pancreatic"),
        # walk-throughs 23 and 24: "None" beside "No diabetes"
        # walk-through 46: "No" beside "None" (a yes/no column's no comes first)
        ("no", "n", "none", "nodiabetes", "nondiabetic", "nodm", "notdiabetic", "nil"))),
    # walk-through 45's respiratory clinic: heart failure written HF, CCF, CHF (its types,
    # HFrEF and HFpEF, stay apart); long-term oxygen with its hours; pulmonary rehab
    (("heart failure", "heartfailure", "cardiac failure", "ccf", "chf"), (
        ("yes", "y", "hf", "ccf", "chf", "heartfailure", "congestiveheartfailure",
         "congestivecardiacfailure", "knownhf", "cardiacfailure", "lvf"),
        ("no", "n", "none", "nil", "nohf", "noheartfailure"))),
    (("ltot", "long term oxygen", "longtermoxygen", "long-term oxygen", "home oxygen",
      "homeoxygen", "domiciliary oxygen"), (
        ("yes", "y", "ltot", "onltot", "homeoxygen", "onhomeoxygen", "onoxygen",
         *(f"{w}{h}{u}" for h in range(12, 25) for w in ("ltot", "yes", "yes(", "ltot(")
           for u in ("h", "hrs", "h/day", "hrs/day", "hperday", "hoursperday", "h)",
                     "hrs)", "h/day)", "hrs/day)")),
         # ... at its flow, "2L/min 16h", "1L 24hrs" (walk-through 103)
         *(f"{f}{r}{h}{u}" for f in ("0.5", "1", "1.5", "2", "2.5", "3", "4")
           for r in ("l/min", "l", "lpm", "l/m") for h in ("", *map(str, range(12, 25)))
           for u in (("",) if not h else ("h", "hrs", "h/day", "hrs/day")))),
        # ambulatory oxygen only is no long-term oxygen: an answer of its own
        ("ambulatoryonly", "ambulatoryo2only", "ambulatoryo2", "ambulatoryoxygen",
         "ambulatoryoxygenonly", "ambulatory", "ambo2", "ambulatoryo2(only)"),
        ("no", "n", "none", "nil", "noltot", "notonltot", "nooxygen", "roomair"))),
    (("rehab", "pulmonary rehabilitation", "pulmonaryrehabilitation"), (
        ("completed", "complete", "done", "finished", "attended", "completedpr",
         "prcompleted"),
        ("declined", "ptdeclined", "patientdeclined", "refused", "ptrefused"),
        ("referred", "onwaitinglist", "waitinglist", "waitlisted", "referredawaiting"),
        ("notoffered", "notreferred", "notindicated"))),
    # walk-through 45's inhaler regimens by class, brand or drug (Trelegy, Trimbow and
    # Trixeo are triple therapy; Anoro, Ultibro, Spiolto LAMA/LABA; Symbicort, Seretide,
    # Fostair, Relvar ICS/LABA; Spiriva, Incruse, Seebri LAMA)
    # ... each inhaler by its brand and its drugs: one answer written two ways, before the
    # classes below (walk-through 103b: merged by class, 24 Incruse patients read
    # "Spiriva", 51 on Fostair "Symbicort")
    (("inhaler", "inhaled therapy", "inhaledtherapy"), (
        ("trelegy", "trelegyellipta", "fluticasonefuroate/umeclidinium/vilanterol",
         "ff/umec/vi"),
        ("trimbow", "beclometasone/formoterol/glycopyrronium",
         "beclometasone/glycopyrronium/formoterol"),
        ("trixeo", "trixeoaerosphere", "budesonide/glycopyrronium/formoterol"),
        ("anoro", "anoroellipta", "umeclidinium/vilanterol", "umec/vi"),
        ("spiolto", "spioltorespimat", "tiotropium/olodaterol"),
        ("ultibro", "ultibrobreezhaler", "indacaterol/glycopyrronium"),
        ("duaklir", "aclidinium/formoterol"),
        ("bevespi", "glycopyrronium/formoterol"),
        ("symbicort", "budesonide/formoterol", "duoresp"),
        ("fostair", "beclometasone/formoterol"),
        ("seretide", "advair", "fluticasone/salmeterol", "fluticasonepropionate/salmeterol"),
        ("relvar", "relvarellipta", "breo", "fluticasonefuroate/vilanterol", "ff/vi"),
        ("flutiform", "fluticasone/formoterol"),
        ("spiriva", "tiotropium", "spirivarespimat", "spirivahandihaler", "braltus"),
        ("incruse", "incruseellipta", "umeclidinium"),
        ("seebri", "glycopyrronium"),
        ("eklira", "aclidinium"),
        ("serevent", "salmeterol"),
        ("onbrez", "indacaterol"),
        ("striverdi", "olodaterol"),
        ("ventolin", "salbutamol", "albuterol", "salbutamolprn"),
        ("bricanyl", "terbutaline"))),
    (("inhaler", "inhaled therapy", "inhaledtherapy"), (
        ("triple", "tripletherapy", "ics/laba/lama", "ics+laba+lama", "laba/lama/ics",
         "lama/laba/ics", "ics/lama/laba", "triple(ics/laba/lama)", "trelegy",
         "trelegyellipta", "trimbow", "trixeo", "trixeoaerosphere", "singleinhalertriple",
         # ... by their drugs (walk-through 103)
         "fluticasonefuroate/umeclidinium/vilanterol",
         "ff/umec/vi", "beclometasone/formoterol/glycopyrronium",
         "beclometasone/glycopyrronium/formoterol", "budesonide/glycopyrronium/formoterol",
         "spiriva+seretide", "spiriva+symbicort", "spiriva+fostair", "tiotropium+seretide",
         "tiotropium+symbicort", "tiotropium+fostair", "incruse+relvar"),
        ("laba/lama", "lama/laba", "laba+lama", "lama+laba", "labalama", "lamalaba",
         "anoro", "anoroellipta", "ultibro", "ultibrobreezhaler", "spiolto",
         "spioltorespimat", "duaklir", "bevespi", "umeclidinium/vilanterol",
         "umec/vi", "tiotropium/olodaterol", "indacaterol/glycopyrronium",
         "aclidinium/formoterol", "glycopyrronium/formoterol"),
        ("ics/laba", "laba/ics", "ics+laba", "laba+ics", "icslaba", "symbicort", "seretide",
         "fostair", "relvar", "relvarellipta", "flutiform", "advair", "breo", "duoresp",
         "budesonide/formoterol", "beclometasone/formoterol", "fluticasone/salmeterol",
         "fluticasonepropionate/salmeterol", "fluticasonefuroate/vilanterol",
         "fluticasone/formoterol", "ff/vi"),
        ("lama", "tiotropium", "spiriva", "spirivarespimat", "spirivahandihaler",
         "incruse", "incruseellipta", "umeclidinium", "glycopyrronium", "seebri",
         "aclidinium", "eklira"),
        ("laba", "salmeterol", "serevent", "formoterol", "indacaterol", "onbrez",
         "olodaterol", "striverdi"),
        ("saba", "salbutamol", "ventolin", "albuterol", "salbutamolprn", "sabaprn",
         "terbutaline", "bricanyl"),
        ("none", "no", "n", "nil", "noinhalers", "noinhaler"))),
    # walk-through 47's frailty clinic: where a patient lives, the dementia's type,
    # continence and the walking aid, each written several ways
    (("living", "lives", "residence", "accommodation", "social situation",
      "socialsituation"), (
        ("livesalone", "alone", "livingalone", "livealone", "la", "livesalone(widowed)",
         "livesalone(widower)", "livesalone(widow)", "widowedlivesalone"),
        ("withspouse", "liveswithspouse", "spouse", "withpartner", "liveswithpartner",
         "withwife", "withhusband", "liveswithwife", "liveswithhusband", "wife", "husband",
         "partner"),
        ("withfamily", "liveswithfamily", "family", "withdaughter", "withson",
         "withchildren", "liveswithdaughter", "liveswithson"),
        ("nursinghome", "nh", "nursing", "nursinghomeresident"),
        ("residentialhome", "rh", "residential", "residentialcare", "carehome",
         "carehomeresident", "residentialcarehome", "reshome", "resicare"),
        ("shelteredhousing", "sheltered", "shelteredaccommodation", "extracarehousing",
         "shelteredaccom", "extracare", "assistedliving"))),
    # (walk-through 62's memory clinic wrote its diagnoses in a column named "Diagnosis":
    # 60 spellings of 12 diagnoses; a query, "?AD", stays apart from the diagnosis)
    (("dementia", "cognitive diagnosis", "cognitivediagnosis", "memory clinic diagnosis",
      "^diagnosis", "working diagnosis"), (
        ("alzheimer's", "alzheimers", "ad", "alzheimersdisease", "alzheimer'sdisease",
         "alzheimer", "alzheimersdementia", "alzheimer'sdementia", "dementiaalzheimerstype",
         "alzheimerstypedementia", "dat", "load", "eoad", "alzdementia", "alz",
         "dementiaalzheimer'stype", "alzheimer'sdisease(lateonset)",
         "alzheimer'sdisease(earlyonset)", "alzheimersdisease(lateonset)",
         "alzheimer'stype", "dementiaofalzheimertype", "dementiaofalzheimer'stype"),
        ("?ad", "queryad", "possiblealzheimer's", "possiblealzheimers", "possiblead",
         "?alzheimer's", "?alzheimers", "probablead?", "queryalzheimer's"),
        ("vascular", "vad", "vasculardementia", "vascdementia", "multiinfarctdementia",
         "sivd", "subcorticalvasculardementia", "smallvesseldementia", "vasc"),
        ("mixed", "mixeddementia", "mixedad/vad", "mixedalzheimers/vascular",
         "ad+cvd", "mixed(ad/vascular)", "mixed(ad/vad)", "mixedad/vascular", "ad/vad",
         "mixedalzheimer's/vascular", "ad+vascular"),
        ("lewybody", "dlb", "lewy", "dementiawithlewybodies", "lewybodydementia", "lbd"),
        ("parkinson'sdiseasedementia", "pdd", "parkinsonsdiseasedementia",
         "parkinson'sdementia", "parkinsonsdementia"),
        ("frontotemporal", "ftd", "frontotemporaldementia", "bvftd", "behaviouralvariantftd",
         "behavioralvariantftd", "behaviouralvariantfrontotemporaldementia"),
        ("ppa", "primaryprogressiveaphasia", "svppa", "lvppa", "nfvppa", "semanticdementia"),
        ("mci", "mildcognitiveimpairment"),
        ("amnesticmci", "amci", "mciamnestic", "mci(amnestic)", "amnesticmildcognitiveimpairment"),
        ("nonamnesticmci", "namci", "mcinonamnestic", "mci(nonamnestic)"),
        ("subjectivecognitivedecline", "scd", "sci", "subjectivecognitiveimpairment",
         "worriedwell", "subjectivememorycomplaints"),
        ("depression", "lowmoodnotdementia", "lowmood", "depressivepseudodementia",
         "pseudodementia", "depressionnotdementia"),
        ("no", "n", "none", "nil", "nodementia", "noevidenceofdementia", "nad",
         "normalcognition", "cognitivelynormal", "normal"))),
    (("continence", "incontinence", "continent"), (
        ("continent", "fullycontinent"),
        ("urinaryincontinence", "ui", "incontinentofurine", "urinary",
         "urineincontinence", "urinaryincontinent"),
        ("faecalincontinence", "fi", "faecal", "fecalincontinence", "fecal",
         "bowelincontinence", "incontinentoffaeces"),
        ("doublyincontinent", "double", "doubleincontinence", "doublyincontinence"))),
    (("mobility aid", "walking aid", "mobilityaid", "walkingaid", "mobility"), (
        ("none", "nil", "no", "noaid", "unaided", "noaids"),
        ("stick", "walkingstick", "ws", "cane", "walkingcane", "onestick", "1stick"),
        ("frame", "zimmerframe", "zf", "zimmer", "walkingframe", "pickupframe"),
        ("rollator", "4ww", "fourwheeledwalker", "4wheeledwalker"),
        ("wheelchair", "w/c", "wc", "wheelchairuser"),
        ("crutches", "crutch", "elbowcrutches"))),
    # the COPD grades by their names (GOLD 1 mild to 4 very severe) and the 2023 groups,
    # where C and D became E
    (("gold stage", "goldstage", "gold grade", "goldgrade", "spirometric grade"), (
        ("gold1", "1", "i", "goldi", "mild", "gold1mild", "stage1", "grade1"),
        ("gold2", "2", "ii", "goldii", "moderate", "gold2moderate", "stage2", "grade2"),
        ("gold3", "3", "iii", "goldiii", "severe", "gold3severe", "stage3", "grade3"),
        ("gold4", "4", "iv", "goldiv", "verysevere", "gold4verysevere", "stage4",
         "grade4"))),
    (("gold group", "goldgroup", "abe group", "gold abe", "goldabe"), (
        ("a", "groupa", "golda"),
        ("b", "groupb", "goldb"),
        ("e", "groupe", "golde", "c", "groupc", "goldc", "d", "groupd", "goldd"))),
    # walk-through 27's US ICU export wrote race 23 ways ("White", "Caucasian",
    # "White/Caucasian", "W"; "Black", "AA", "African American" …); the groups are the
    # US census categories as EHRs spell them. "Declined" and "Unknown" say the same
    # about the patient's race: not known
    (("race", "ethnic"), (
        ("white", "caucasian", "white/caucasian", "caucasian/white", "w", "cauc"),
        ("black", "africanamerican", "black/africanamerican", "blackorafricanamerican",
         "africanamerican/black", "aa", "afroamerican", "b", "blk"),
        ("asian", "asianamerican", "a"),
        ("hispanic", "latino", "hispanic/latino", "hispanicorlatino", "latina", "latinx",
         "hispaniclatino", "latino/hispanic", "h"),
        ("americanindian", "americanindian/alaskanative", "americanindianoralaskanative",
         "nativeamerican", "ai/an", "aian"),
        ("nativehawaiian", "pacificislander", "nativehawaiian/pacificislander",
         "nativehawaiianorotherpacificislander", "nhpi"),
        ("other", "oth", "otherrace"),
        ("unknown", "unk", "notknown", "declined", "patientdeclined", "declinedtoanswer",
         "declinedtospecify", "refused", "notreported"))),
    # walk-through 52's NHS trust wrote the NHS ethnic categories with their letter ("A -
    # White British", "H - Indian"), the 2011 census codes ("WBRI") and in words; the
    # groups are the NHS Data Dictionary's categories
    (("ethnic",), (
        ("whitebritish", "awhitebritish", "wbri", "white(british)", "britishwhite",
         "whiteenglish/welsh/scottish/northernirish/british", "whiteuk"),
        ("whiteirish", "bwhiteirish", "wiri", "irish"),
        ("whiteother", "anyotherwhitebackground", "canyotherwhitebackground",
         "whiteanyotherwhitebackground", "whiteanyother", "woth", "otherwhite",
         "whiteotherwhitebackground", "whiteanyotherbackground"),
        ("mixedwhiteandblackcaribbean", "dmixedwhiteandblackcaribbean",
         "whiteandblackcaribbean", "mwbc"),
        ("mixedwhiteandblackafrican", "emixedwhiteandblackafrican", "whiteandblackafrican",
         "mwba"),
        ("mixedwhiteandasian", "fmixedwhiteandasian", "whiteandasian", "mwas"),
        ("mixedother", "anyothermixedbackground", "ganyothermixedbackground",
         "mixedanyothermixedbackground", "mixedanyother", "othermixed", "moth"),
        ("indian", "asianindian", "hindian", "aind", "asianorasianbritishindian",
         "asianbritishindian"),
        ("pakistani", "asianpakistani", "jpakistani", "apkn",
         "asianorasianbritishpakistani", "asianbritishpakistani"),
        ("bangladeshi", "asianbangladeshi", "kbangladeshi", "aban",
         "asianorasianbritishbangladeshi", "asianbritishbangladeshi"),
        ("asianother", "anyotherasianbackground", "lanyotherasianbackground", "otherasian",
         "asianorasianbritishanyotherasianbackground", "aoth"),
        ("blackcaribbean", "caribbean", "mcaribbean", "bcrb", "blackorblackbritishcaribbean",
         "blackbritishcaribbean"),
        ("blackafrican", "african", "nafrican", "bafr", "blackorblackbritishafrican",
         "blackbritishafrican"),
        ("blackother", "anyotherblackbackground", "panyotherblackbackground", "otherblack",
         "blackorblackbritishanyotherblackbackground", "both"),
        ("chinese", "rchinese", "chne", "otherethnicgroupchinese"),
        ("other", "anyotherethnicgroup", "sanyotherethnicgroup", "sother", "otherethnicgroup",
         "ooth", "anyother"))),
    # walk-through 54's oncology day unit: the line of systemic therapy written "1L",
    # "1st line", "first line"; "adj" and "Adjuvant" (a palliative first line stays apart)
    (("line of therapy", "line of treatment", "treatment line", "therapy line",
      "lineoftherapy", "line of tx", "tx line", "intent", "=line", "=lines"), (
        ("firstline", "1stline", "1l", "line1", "1st", "first", "l1", "1"),
        ("secondline", "2ndline", "2l", "line2", "2nd", "second", "l2", "2"),
        ("thirdline", "3rdline", "3l", "line3", "3rd", "third", "l3", "3"),
        ("fourthline", "4thline", "4l", "line4", "4th", "fourth", "l4", "4"),
        ("adjuvant", "adj", "adjuvanttherapy"),
        ("neoadjuvant", "neoadj", "neo-adj", "neoadjuvanttherapy", "preoperative"),
        ("palliative", "pall", "palliativeintent"),
        ("curative", "radical", "curativeintent"))),
    # ... and its primary sites: "NSCLC", "Ca lung", "lung ca" beside "Lung"; a colon and
    # a rectum stay apart (each is treated its own way), "CRC" is colorectal
    (("primary site", "tumour site", "tumor site", "cancer site", "primary tumour",
      "primary tumor", "primary cancer", "cancer type", "tumour type", "tumor type",
      "tumour group", "tumor group", "disease site"), tuple(
        (site, *(f"{a}{site}{b}" for a, b in (("ca", ""), ("", "ca"), ("", "cancer"),
                                                 ("cancerof", ""), ("carcinomaof", ""),
                                                 ("", "carcinoma"))), *more)
        for site, *more in (
            ("lung", "nsclc", "sclc", "nsclcadeno", "nsclcsquamous", "smallcelllung",
             "nonsmallcelllung", "bronchus", "bronchial", "lungnsclc", "lung-nsclc",
             "lung(nsclc)", "lungsclc", "lung-sclc", "lung(sclc)"),
            ("breast", "lbreast", "rbreast", "leftbreast", "rightbreast", "bilateralbreast"),
            ("colorectal", "crc", "bowel", "largebowel"),
            ("colon", "sigmoid", "sigmoidcolon", "caecum", "cecum", "ascendingcolon",
             "descendingcolon", "sigmoidca", "caecalca"),
            ("rectum", "rectal", "rectalca"),
            ("ovary", "ovarian", "hgsoc", "ovariancancer", "highgradeserousovarian"),
            ("prostate", "prostatic"),
            ("pancreas", "pancreatic"),
            ("stomach", "gastric"),
            ("oesophagus", "esophagus", "oesophageal", "esophageal"),
            ("bladder", "urothelial"),
            ("kidney", "renal", "rcc"),
            ("melanoma", "skinmelanoma", "cutaneousmelanoma"),
            ("headandneck", "hn", "h&n", "headneck")))),
    # walk-through 52's mental-health trust: employment written "FT employed", "Employed
    # (PT)", "On ESA" (long-term sick), with the MHSDS codes ("01 - Employed")
    (("employ", "occupational status", "work status", "economic status",
      "economic activity", "working status"), tuple(
        (*words, *(f"{c}{w}" for c in codes for w in words[:2]), *codes)
        for codes, words in (
            # a bare "FT" and "PT" stay apart: SurvSet's pharmacoSmoking writes only them
            (("01",), ("employed", "inemployment", "ftemployed", "ptemployed", "employedft",
                       "employedpt",
                       "employed(ft)", "employed(pt)", "employedfulltime",
                       "employedparttime", "fulltimeemployed", "parttimeemployed",
                       "fulltimeemployment", "parttimeemployment", "inwork", "working",
                       "paidemployment", "inpaidemployment", "selfemployed")),
            (("02",), ("unemployed", "unemployedandseekingwork", "unemployedseekingwork",
                       "jobseeker", "jobseeking", "seekingwork", "jsa", "onjsa",
                       "lookingforwork")),
            (("03",), ("student", "ftstudent", "ptstudent", "studentft", "studentpt",
                       "ineducation", "fulltimestudent", "parttimestudent",
                       "studentineducation", "studying")),
            (("04",), ("longtermsick", "longtermsickordisabled", "ltsick", "ltsd",
                       "longtermsick/disabled", "sick/disabled", "onesa", "esa",
                       "incapacitybenefit", "onincapacitybenefit", "unabletowork",
                       "notworkingduetoillhealth", "sickness", "disabled")),
            (("05",), ("homemaker", "lookingafterfamily", "lookingafterhome",
                       "lookingafterthefamilyorhome", "housewife", "househusband")),
            (("07",), ("voluntarywork", "unpaidvoluntarywork", "volunteer", "volunteering",
                       "voluntary")),
            (("08",), ("retired", "pensioner", "retiredfromwork", "onpension"))))),
    # ... and its accommodation: homeless written "NFA" or "no fixed abode", a care home,
    # supported housing; living with family and living alone stay apart
    (("accommodation", "housing", "living situation", "living arrangement",
      "residential status", "residence type", "settled"), (
        ("homeless", "nfa", "nofixedabode", "roughsleeping", "roughsleeper",
         "streethomeless", "sofasurfing", "nfa/homeless", "homeless(nfa)"),
        ("supportedaccommodation", "supported", "supportedhousing", "supportedliving",
         "supportedlivingscheme", "supportedaccom"),
        ("carehome", "residentialhome", "residentialcare", "rh", "careh",
         "residentialcarehome", "carehomewithoutnursing"),
        ("nursinghome", "nh", "nursingcarehome", "carehomewithnursing"),
        ("temporaryaccommodation", "temporary", "tempaccommodation", "tempaccom",
         "hostel", "b&b", "bandb", "bedandbreakfast", "emergencyaccommodation"),
        ("prison", "custody", "hmp", "inprison", "incustody", "remand"),
        ("settledmainstreamhousing", "settled", "mainstreamhousing", "ownhome",
         "ownaccommodation", "owneroccupier", "homeowner", "ownedhome", "rented",
         "privaterented", "privaterental", "councilhousing", "councilhouse",
         "socialhousing", "housingassociation", "tenant", "ownflat", "independent",
         "livesindependently", "independentliving"))),
    # walk-through 58's intensive care unit: where a patient was admitted from
    (("admission source", "admitted from", "source of admission", "referral source",
      "admission route", "location before", "admit source"), (
        ("emergencydepartment", "ed", "a&e", "ae", "emergencydept", "emergency",
         "casualty", "er", "edresus", "resus", "emergencyroom", "a+e",
         # a children's hospital's own (walk-through 60)
         "ped", "paedsed", "paediatriced", "childrensed", "ced", "pem",
         "paediatricemergencydepartment", "childrensemergencydepartment"),
        ("gp", "gpreferral", "gpletter", "referredbygp", "generalpractitioner", "gpreferred"),
        ("assessmentunit", "pau", "cau", "paediatricassessmentunit",
         "childrensassessmentunit", "sau", "mau", "amu", "acuteassessmentunit"),
        ("clinic", "opd", "outpatients", "outpatient", "outpatientclinic", "fromclinic"),
        ("theatre", "theatres", "postop", "postoperative", "recovery", "or", "pacu",
         "fromtheatre", "operatingtheatre", "operatingroom", "surgery", "theatre/recovery"),
        ("ward", "wards", "ward(deteriorating)", "generalward", "fromward",
         *(f"ward{w}" for w in (*map(str, range(1, 40)),
                                *(f"{n}{c}" for n in range(1, 40) for c in "abcdef")))),
        ("transfer", "exttransfer", "externaltransfer", "oohtransfer", "oohospitaltransfer",
         "transferotherhospital", "transfer-otherhospital", "otherhospital",
         "interhospitaltransfer", "interhospital", "tertiarytransfer", "repatriation",
         "transferdgh", "dghtransfer", "txfromdgh", "transferfromdgh", "fromdgh",
         *(f"txfrom{h}" for h in ("royal", "general", "district", "anotherhospital",
                                  "otherhospital", "dgh"))),
        # walk-through 102's hip-fracture register, as the NHFD asks it: own home or
        # sheltered housing, residential care, nursing care, a hospital's inpatient; a
        # residential and a nursing home are two levels of care, and "care home" either
        ("ownhome", "ownhome/sheltered", "ownhome/shelteredhousing", "home", "homealone",
         "fromhome", "privatehome", "ownhomealone", "shelteredhousing", "sheltered",
         "shelteredaccommodation", "ownhome(sheltered)", "home/sheltered",
         "ownhomeorshelteredhousing"),
        ("residentialcare", "residentialhome", "rh", "reshome", "residentialcarehome",
         "residential", "carehomewithoutnursing"),
        ("nursingcare", "nursinghome", "nh", "nursing", "nursingcarehome",
         "carehomewithnursing"),
        ("hospitalinpatient", "inpatient", "inpt", "inptfall", "inpatientfall",
         "fellasinpatient", "fellinhospital", "acutehospital", "acutehospitalinpatient",
         "inpatientacutehospital", "hospitalinpt"))),
    # walk-through 62's memory clinic: a first language abbreviated, and driving
    (("first language", "main language", "language spoken", "preferred language",
      "^language"), (
        ("english", "eng", "en", "englishfirstlanguage"),
        ("welsh", "cymraeg"))),
    (("falls", "fallen", "fall history", "history of falls"), (
        ("yes", "y", "fall", "falls", "multiple", "multiplefalls", "recurrent",
         "recurrentfalls", "frequent", "frequentfalls", "several", "severalfalls",
         *(f"{n}{w}" for n in range(1, 21) for w in ("falls", "fall", "x", "falls/yr"))),
        ("no", "n", "nil", "none", "nofalls", "nilfalls", "nofall", "0falls"))),
    (("driving", "drives", "driver"), (
        ("yes", "y", "stilldriving", "drives", "currentlydriving", "driving"),
        ("stopped", "gaveup", "stoppeddriving", "nolongerdrives", "nolongerdriving",
         "givenup", "gaveupdriving", *(f"nostopped{y}" for y in range(1980, 2031)),
         *(f"stopped{y}" for y in range(1980, 2031))),
        ("never", "neverdrove", "n/aneverdrove", "nondriver", "neverdriven",
         "neverhaddrivinglicence", "nolicence"))),
    # walk-through 60's paediatric ward: a child's diagnosis as a ward writes it, the
    # virus, the day of the illness or a query after it ("RSV bronch", "bronchiolitis
    # day 3", "Bronchiolitis ?apnoea"); a queried diagnosis alone ("?sepsis") stays apart
    (("^diagnosis", "working diagnosis", "^dx", "presenting problem", "admission diagnosis",
      "primary diagnosis"), (
        ("bronchiolitis", "bronch", "rsvbronch", "rsvbronchiolitis", "bronchiolitis(rsv+)",
         "bronchiolitis(rsv)", "bronchiolitisrsv+", "rsv+bronchiolitis",
         "bronchiolitis?apnoea", "bronchiolitis?apnea", "bronchiolitiswithapnoea",
         "bronchiolitis(hmpv)", "bronchiolitis(rhino)", "bronchiolits", "bronchiolitus",
         "brochiolitis", "bronchiolitis/rsv", "viralbronchiolitis",
         *(f"bronchiolitisday{d}" for d in range(1, 11)),
         *(f"bronchiolitis(day{d})" for d in range(1, 11))),
        ("viralinducedwheeze", "viw", "viralwheeze", "wheeze", "?asthma/viw", "viw/?asthma",
         "viw?asthma", "episodicviralwheeze", "evw", "preschoolwheeze"),
        ("asthma", "acuteasthma", "asthmaexacerbation", "exacerbationofasthma",
         "acuteasthmaattack", "lifethreateningasthma", "severeasthma"),
        ("gastroenteritis", "age", "acutegastroenteritis", "gastro", "d&v", "dandv",
         "diarrhoeaandvomiting", "diarrheaandvomiting", "vomitinganddiarrhoea",
         "gastroenteritis+dehydration", "gastroenteritiswithdehydration",
         "viralgastroenteritis", "gastroenteritis(dehydrated)"),
        ("uti", "urinarytractinfection", "uti?pyelo", "pyelonephritis", "pyelo",
         "uti/pyelonephritis", "febrileuti", "upperuti", "loweruti"),
        ("pneumonia", "cap", "communityacquiredpneumonia", "pnuemonia", "pneumoina",
         "rllpneumonia", "lllpneumonia", "rulpneumonia", "lulpneumonia", "rmlpneumonia",
         "chestinfection", "lrti", "lowerrespiratorytractinfection", "lrti/pneumonia"),
        ("croup", "ltb", "laryngotracheobronchitis", "viralcroup"),
        ("febrileneonate", "neonatalfever", "febrileinfant<3m", "febrileinfant",
         "feverinneonate", "febrileinfantunder3months", "fever<3m", "neonatalsepsisscreen",
         "fever<3/12", "febrile<3/12", "febrile<3m", "fever<3months"),
        ("sepsis", "septic", "sepsis(confirmed)"),
        # a query is no diagnosis: "?sepsis", "query sepsis", "sepsis ?" one answer, apart
        ("?sepsis", "querysepsis", "sepsis?", "possiblesepsis", "suspectedsepsis",
         "?septic", "sepsis(query)", "qsepsis"),
        ("febrileseizure", "febrileconvulsion", "fs", "simplefebrileseizure",
         "complexfebrileseizure", "febrilefit"))),
    # walk-through 89's thyroid clinic: a diagnosis in seven spellings ("GD", "Graves dz",
    # "Graves' hyperthyroidism"); offered, not merged by default ("GD" is gestational
    # diabetes elsewhere)
    (("^diagnosis", "working diagnosis", "^dx", "thyroid diagnosis", "primary diagnosis",
      "thyroid disorder", "thyroid condition"), (
        ("graves", "gravesdisease", "gd", "gravesdz", "graveshyperthyroidism",
         "gravesthyrotoxicosis", "graves'disease", "graves'hyperthyroidism", "grave's",
         "grave'sdisease", "graves'", "autoimmunehyperthyroidism", "basedow",
         "basedowsdisease"),
        ("tmng", "toxicmng", "mng(toxic)", "toxicmultinodulargoitre",
         "toxicmultinodulargoiter", "toxicnodulargoitre", "toxicnodulargoiter",
         "multinodulartoxicgoitre", "toxicmultinodular"),
        ("stn", "solitarytoxicnodule", "toxicadenoma", "toxicnodule", "autonomousnodule",
         "solitarytoxicadenoma", "hotnodule", "toxicsolitarynodule"),
        ("hashimotos", "hashimoto's", "hashimoto", "hashimotosthyroiditis",
         "hashimoto'sthyroiditis", "hashimotosdisease", "hashimoto'sdisease",
         "autoimmunehypothyroidism", "autoimmunethyroiditis",
         "chronicautoimmunethyroiditis", "chroniclymphocyticthyroiditis"),
        ("mngnontoxic", "nontoxicmng", "mng(nontoxic)", "non-toxicmng", "mngnon-toxic",
         "nontoxicmultinodulargoitre", "non-toxicmultinodulargoitre",
         "nontoxicmultinodulargoiter", "simplegoitre", "euthyroidmng",
         "euthyroidgoitre"),
        ("thyroidnodule", "singlenodule", "solitarynodule", "nodule-euthyroid",
         "euthyroidnodule", "solitarythyroidnodule", "nodule(euthyroid)",
         "singlethyroidnodule"))),
    # walk-through 60's paediatric ward: how a child is fed
    (("feed", "feeding", "nutrition route", "enteral"), (
        ("oral", "po", "fulloral", "normaldiet", "diet", "eatinganddrinking", "eating",
         "orally", "oralfeeds", "oraladlib", "adlib", "fulldiet", "warddiet"),
        ("breastfed", "bf", "bfadlib", "breastfeeding", "breastfeeds", "breastmilk",
         "breast", "bfondemand"),
        ("ng", "ngt", "ngfeeds", "ngfeed", "ngtube", "nasogastric", "nasogastricfeeds",
         "ngtfeeds", "50%ng", "ng2/3", "ng1/2", "ng50%", "ng100%", "fullng", "ng2/3feeds",
         "ngbolus", "ngcontinuous"),
        ("ivf", "ivfluids", "iv", "ivfluid", "iv100%", "ivf2/3maint", "ivf2/3", "iv2/3",
         "ivfullmaint", "ivmaintenance", "maintenancefluids", "fullmaintenance",
         "09%+5%gluc", "09%saline+5%glucose", "09%nacl+5%glucose", "ivf100%"),
        ("nbm", "nilbymouth", "nilbymouthnbm", "npo"))),
    # ... safeguarding: "no concerns" a no; "known to SS", "Y - SW aware", on a child
    # protection plan a yes (walk-through 61)
    (("safeguard", "child protection", "social services", "social care"), (
        ("yes", "y", "knowntoss", "knowntosocialservices", "knowntosocialcare",
         "yswaware", "swaware", "socialworkeraware", "cpplan", "childprotectionplan",
         "oncpplan", "onaplan", "concerns", "safeguardingconcerns", "cpconcerns",
         "referredtoss", "mashreferral"),
        ("no", "n", "nil", "none", "noconcerns", "nilconcerns", "noconcern",
         "nosafeguardingconcerns", "noissues", "nocpconcerns", "notknowntoss"))),
    # ... dehydration by its clinical band or its estimated share of body weight (mild
    # under 5 %, moderate 5 to 10 %, severe over 10 %)
    (("dehydrat", "hydration status"), (
        ("none", "no", "nil", "nilclinical", "0%", "0", "notdehydrated", "nodehydration",
         "normal", "hydrated", "wellhydrated", "noclinicaldehydration", "nodehydrationclinically"),
        ("mild", "mild(<5%)", "<5%", "1%", "2%", "3%", "4%", "mild<5%", "mild(3%)",
         "mild(35%)", "35%", "<5", "mild(<5)", "minimal"),
        ("moderate", "mod", "5%", "6%", "7%", "8%", "9%", "10%", "510%", "moderate(510%)",
         "mod(510%)", "mod(510)", "some", "somedehydration", "clinicaldehydration"),
        ("severe", ">10%", "11%", "12%", "15%", "severe(>10%)", "shock", "shocked",
         "severedehydration", ">10"))),
    # ... a respiratory virus swab's result
    (("npa", "virology", "viral swab", "respiratory swab", "viral pcr", "nasopharyn",
      "resp virus", "respiratory virus", "^rsv"), (
        ("rsv", "rsvpos", "rsvpositive", "rsv+", "rsv+ve", "rsvdetected", "rsva", "rsvb",
         "rsvve+"),
        ("rhinovirus", "rhino", "rhino+", "rhino+ve", "rhinoviruspositive", "hrv",
         "rhino/enterovirus", "rhinovirusdetected"),
        ("hmpv", "hmpv+", "hmpv+ve", "metapneumovirus", "humanmetapneumovirus",
         "hmpvpositive", "hmpvdetected"),
        ("influenza", "flu", "flua", "flub", "influenzaa", "influenzab", "flu+",
         "influenzapositive"),
        ("negative", "neg", "ve", "notdetected", "nonedetected", "novirusdetected",
         "novirus", "nil", "nildetected"))),
    # ... a blood culture's result
    (("blood culture", "blood cultures", "^bc", "^bcs", "culture result"), (
        ("nogrowth", "ngtd", "ngat48h", "ngat48hrs", "ngat48hours", "ngat36h", "ng48h",
         "ng48hrs", "ngat5days", "nogrowthtodate", "nogrowthat48h", "nogrowthat48hrs",
         "negative", "neg", "sterile", "ng", "nogrowthat5days", "nogrowth48h"),
        ("contaminant", "contaminant(cons)", "cons(contaminant)",
         "conscontaminant", "contaminated", "skincontaminant", "cons", "contam",
         "probablecontaminant", "coagulasenegativestaph", "conscontam", "contam(cons)"),
        ("ecoli", "escherichiacoli"),
        ("gbs", "groupbstrep", "groupbstreptococcus", "streptococcusagalactiae",
         "sagalactiae"),
        ("pneumococcus", "spneumoniae", "streptococcuspneumoniae", "streppneumo",
         "streppneumoniae", "pneumo"),
        # walk-through 101's: a genus beside its one species in bloodstream infection;
        # methicillin-sensitive S. aureus is S. aureus, MRSA stays apart
        ("klebsiellapneumoniae", "klebsiella", "kpneumoniae", "klebsiellaspp",
         "klebsiellasp"),
        ("saureus", "staphaureus", "staphylococcusaureus", "mssa"),
        ("pseudomonasaeruginosa", "pseudomonas", "paeruginosa", "pseudomonasspp"))),
    # ... its admission diagnoses: "OOHCA" and "OHCA" one out-of-hospital arrest (an
    # in-hospital one and a bare "cardiac arrest" apart); sepsis, septic shock (a
    # severity) and urosepsis (a source) apart
    (("admission diagnosis", "diagnosis category", "reason for admission",
      "admitting diagnosis", "primary diagnosis", "admission reason", "diagnostic category"),
     (
        ("respiratoryfailure", "respfailure", "resp.failure", "t2rf", "t1rf",
         "type2respiratoryfailure", "type1respiratoryfailure", "respiratory", "resp"),
        ("elective surgery", "electivesurgery", "postopelective", "electivepostop",
         "postop(elective)", "elective", "postoperativeelective", "electivepostoperative"),
        ("outofhospitalcardiacarrest", "oohca", "ohca", "ooharrest", "outofhospitalarrest"),
        ("inhospitalcardiacarrest", "ihca", "inhospitalarrest"),
        ("sepsis", "sepsiss", "sespis", "septic"),
        ("diabeticketoacidosis", "dka"),
        ("gibleed", "gib", "ugib", "upperbleed", "gihaemorrhage",
         "gihemorrhage", "uppergibleed", "lowergibleed", "lgib", "bleedinggi"),
        ("trauma", "majortrauma", "polytrauma"))),
    # ... a patient on a ventilator: invasive ventilation written "IPPV", "Intubated";
    # non-invasive ventilation and high-flow oxygen stay apart from it and each other
    # (walk-through 60's paediatric ward: CPAP apart from bilevel NIV, and each support
    # written with its setting, "CPAP +6", "HFNC 2L/kg", "nasal specs 0.5L", "LF 2L/min")
    (("mechanical ventilation", "ventilated", "ventilation", "^imv", "^ippv",
      "respiratory support", "resp support", "oxygen therapy", "o2 therapy"), (
        ("yes", "y", "ippv", "intubated", "invasive", "imv", "invasiveventilation",
         "ett", "ventilated", "mv", "mechanicallyventilated", "intubatedandventilated",
         "tracheostomy", "trache", "trachy"),
        ("niv", "bipap", "noninvasive", "noninvasiveventilation", "nippv", "bilevel"),
        ("cpap", *_settings(("cpap", "cpap+", "cpapof", "cpap@"), _PRESSURES, ("", "cmh2o"))),
        ("hfno", "hfnc", "optiflow", "highflow", "highflownasaloxygen",
         "highflownasalcannula", "airvo", "hhfnc", "hfnco2", "hf",
         *_settings(("hfnc", "hhfnc", "highflow", "hf", "optiflow", "hfno"), _FLOWS,
                    ("l/kg", "l/kg/min", "lkg", "l/min", "l", "lpm"))),
        ("lowflow", "lowflowo2", "lowflowoxygen", "lfo2", "lf", "nco2", "nasalspecs",
         "nasalcannula", "nasalcannulae", "nasalprongs", "nasalo2", "o2", "oxygen",
         "supplementaryo2", "supplementaloxygen", "headboxo2", "headbox",
         *_settings(("lf", "lfo2", "lowflow", "nco2", "nasalspecs", "nasalcannula",
                     "nasalprongs", "o2", "nc", "np", "lowflowo2"), _FLOWS,
                    ("l", "l/min", "lpm", "lmin"))),
        ("no", "n", "none", "nil", "noventilation", "selfventilating", "sv", "ra",
         "roomair", "air", "inair", "onair", "nooxygen", "noo2", "nosupport"))),
    # ... a renal replacement therapy by its mode beside a yes: the yes (walk-through
    # 101's CVVH and CVVHDF; before the modes' own group, whose first word showed every
    # yes as "CVVH")
    (("rrt", "renal replacement", "dialysis in icu", "haemofiltration", "crrt"), (
        ("yes", "crrt", "cvvh", "cvvhdf", "cvvhd", "haemofiltration", "hemofiltration",
         "haemodiafiltration", "hemodiafiltration", "on filter", "filter"),)),
    # ... kidney replacement: continuous therapies one answer, intermittent apart
    (("rrt", "renal replacement", "kidney replacement", "^crrt", "haemofiltration",
      "hemofiltration", "dialysis"), (
        ("crrt", "cvvh", "cvvhdf", "cvvhd", "continuousrrt", "haemofiltration",
         "hemofiltration", "haemodiafiltration", "onfilter", "filter", "cvvhf",
         "continuousvenovenoushaemofiltration", "continuousvenovenoushemofiltration"),
        ("ihd", "intermittenthaemodialysis", "intermittenthemodialysis", "intermittenthd",
         "sled"),
        ("no", "n", "none", "nil", "norrt"))),
    # ... and resuscitation status: "DNAR in place" a DNACPR, "For CPR" and "Full
    # escalation" not
    (("dnacpr", "dnar", "dnr", "resuscitation status", "cpr status", "resus status",
      "treatment escalation", "code status"), (
        ("yes", "y", "dnacpr", "dnar", "dnr", "dnarinplace", "dnacprinplace",
         "notforcpr", "notforresus", "notforresuscitation", "dnacprsigned", "nfr",
         "dnrinplace"),
        ("no", "n", "forcpr", "forresus", "forresuscitation", "fullescalation",
         "fullcode", "fullactive", "fullactivetreatment", "fortotalcare", "forfullcare"))),
    # walk-through 56's renal unit: the dialysis modality written "HD", "Haemodialysis",
    # "hemodialysis"; haemodiafiltration, home HD, APD, CAPD and a plain "PD" stay apart
    (("modality", "dialysis type", "type of dialysis", "^rrt", "renal replacement",
      "dialysis mode"), (
        ("haemodialysis", "hd", "hemodialysis", "ihd", "incentrehd", "incentrehaemodialysis",
         "incentrehemodialysis", "hospitalhd", "satellitehd", "unithd"),
        ("haemodiafiltration", "hdf", "onlinehdf", "olhdf", "hemodiafiltration",
         "onlinehaemodiafiltration", "onlinehemodiafiltration"),
        ("homehaemodialysis", "homehd", "hhd", "homehemodialysis", "homehaemo",
         "homehd(nxstage)", "nxstage", "homehdnxstage", "homehd-nxstage"),
        ("apd", "automatedpd", "automatedperitonealdialysis", "ccpd"),
        ("capd", "continuousambulatorypd", "continuousambulatoryperitonealdialysis"),
        ("pd", "peritonealdialysis", "peritoneal"),
        ("transplant", "tx", "transplanted", "renaltransplant", "kidneytransplant", "ktx",
         "functioningtransplant", "functioninggraft", "rtx", "ltx"),
        ("conservative", "conservativecare", "conservativemanagement", "cm",
         "supportivecare", "maximumconservativemanagement", "mcm"))),
    # ... its vascular access, a fistula written with its side and site ("L RC AVF", "R BC
    # fistula"), a graft, a tunnelled line by brand ("Permcath", "Tesio"), a PD catheter
    # walk-through 106's unit: "AVF (L arm)", "L BCF", "AVG (R thigh)", "forearm loop
    # graft", "TCVC", "R IJ tunnelled line"; a plain "CVC" or "line" is offered as the
    # tunnelled line a maintenance dialysis runs on, a temporary line stays apart
    (("^access", "vascular access", "dialysis access"), (
        ("avf", *(f"{side}{site}{kind}" for side in ("", "l", "r", "lt", "rt", "left",
                                                     "right")
                  for site in ("", "rc", "bc", "bb", "bbt", "radiocephalic",
                               "brachiocephalic", "brachiobasilic", "forearm", "upperarm",
                               "wrist", "elbow")
                  for kind in ("avf", "fistula", "avfistula", "arteriovenousfistula")),
         *(f"{side}{kind}" for side in ("", "l", "r", "lt", "rt", "left", "right")
           for kind in ("rcf", "bcf", "bbf", "bbtf")),
         *(f"{kind}({arm})" for kind in ("avf", "fistula", "avfistula")
           for arm in ("larm", "rarm", "leftarm", "rightarm", "lforearm", "rforearm",
                       "lupperarm", "rupperarm", "left", "right", "l", "r"))),
        ("avg", *(f"{side}{site}{kind}" for side in ("", "l", "r", "lt", "rt", "left",
                                                     "right")
                  for site in ("", "forearm", "upperarm", "thigh", "loop", "ptfe",
                               "forearmloop", "thighloop", "upperarmloop")
                  for kind in ("avg", "graft", "avgraft", "arteriovenousgraft")),
         *(f"{kind}({site})" for kind in ("avg", "graft", "avgraft")
           for site in ("lthigh", "rthigh", "leftthigh", "rightthigh", "larm", "rarm",
                        "leftarm", "rightarm", "lforearm", "rforearm", "thigh", "arm",
                        "forearm", "l", "r"))),
        ("tunnelledline", "tcl", "tunneledline", "tunnelledcatheter", "tunneledcatheter",
         "tunnelledcvc", "tunneledcvc", "tunnelledcvl", "permcath", "tesio", "tesioline",
         "tunnelleddialysiscatheter", "tunneleddialysiscatheter", "tunnelledhdline",
         "tdc", "tunnelledijline", "tunnelledijcatheter", "tcvc", "cvc", "line",
         "centralline", "centralvenouscatheter", "hdline", "dialysisline", "hdcatheter",
         *(f"{side}{vein}tunnelled{kind}" for side in ("", "l", "r", "left", "right")
           for vein in ("ij", "fem", "femoral", "subclavian", "jugular")
           for kind in ("line", "catheter", "cvc"))),
        ("nontunnelledline", "temporaryline", "ntcvc", "nontunnelledcatheter", "vascath",
         "temporarycatheter", "tempcatheter", "templine", "nontunneledline",
         "nontunnelledcvc"),
        ("pdcatheter", "tenckhoff", "tenckhoffcatheter", "pdcath", "pdtube",
         "peritonealcatheter", "peritonealdialysiscatheter"))),
    # ... its primary renal diseases (the ERA's groups: diabetic kidney disease, IgA
    # nephropathy, polycystic kidneys, hypertensive nephrosclerosis, reflux; a named
    # glomerulonephritis, FSGS, stays apart from an unbiopsied one)
    (("primary renal disease", "^prd", "cause of esrd", "cause of eskd", "cause of ckd",
      "renal diagnosis", "cause of kidney failure", "primary kidney disease",
      "aetiology of ckd", "etiology of ckd", "renal disease", "kidney disease"), (
        ("diabeticnephropathy", "dn", "dkd", "diabetickidneydisease", "diabetes",
         "diabeticrenaldisease", "diabetic", "dmnephropathy", "diabetesmellitus",
         "diabeticnephropathy(t2dm)", "diabeticnephropathy(t1dm)", "t2dmnephropathy",
         "t1dmnephropathy", "dmkd", "diabeticnephropathy(type2)"),
        ("iganephropathy", "igan", "iga", "igagn", "igaglomerulonephritis", "bergers",
         *(f"{w}(biopsy{y})" for w in ("iganephropathy", "igan", "iga")
           for y in range(1980, 2031)), "iganephropathy(biopsyproven)"),
        ("polycystickidneys", "pkd", "apkd", "adpkd", "polycystickidneydisease",
         "polycystic", "polycystickidney", "adultpolycystickidneydisease",
         "autosomaldominantpolycystickidneydisease"),
        ("hypertensivenephrosclerosis", "htnnephrosclerosis", "htn", "hypertension",
         "hypertensive", "hypertensivenephropathy", "hypertensivekidneydisease",
         "renovascular", "nephrosclerosis", "hypertension/renovascular",
         "renovasculardisease", "renalvasculardisease"),
        ("glomerulonephritis", "gn", "gnnotbiopsied", "glomerulonephritisnotbiopsied",
         "chronicgn", "chronicglomerulonephritis", "gnunspecified", "gn?type", "gn?",
         "glomerulonephritisunspecified", "gn(notbiopsied)", "gnnotspecified"),
        ("refluxnephropathy", "reflux", "vur", "chronicpyelonephritis", "pyelonephritis",
         "refluxnephropathy/chronicpyelonephritis", "vur/refluxnephropathy",
         "vesicouretericreflux"),
        ("obstructiveuropathy", "obstructive", "obstruction", "obstructivenephropathy",
         *(f"obstructiveuropathy({w})" for w in ("bph", "stones", "prostate", "stricture",
                                                   "neurogenicbladder"))),
        ("unknown", "uncertainaetiology", "uncertainetiology", "unknowncause",
         "aetiologyuncertain", "etiologyuncertain", "notknown", "uncertain",
         "unknownaetiology", "unknownetiology", "esrd?cause", "eskd?cause", "?cause",
         "causeunknown", "unknownsmallkidneys", "smallkidneys", "unknown(smallkidneys)"))),
    # ... and its transplant waiting list status
    (("transplant list", "transplant status", "listing status", "waiting list",
      "^tx list", "transplant waiting", "tx status", "transplant listing"), (
        # walk-through 106: "Active (listed 2021)", "suspended - infection", "T -
        # temporarily suspended", "NFT", "W/U", "pt declined"
        ("active", "onlist", "listed", "activeonlist", "activelisted", "activelylisted",
         *(f"active(listed{y})" for y in range(1990, 2031)),
         *(f"activelisted{y}" for y in range(1990, 2031))),
        ("suspended", "susp", "temporarilysuspended", "onhold", "suspendedfromlist",
         "ttemporarilysuspended", "t", "tempsuspended",
         *(f"suspended{why}" for why in ("infection", "(infection)", "(cvworkup)",
                                        "cvworkup", "(cardiacworkup)", "(sepsis)",
                                        "sepsis", "(unwell)", "unwell", "(surgery)",
                                        "(weight)", "(bmi)", "(patientrequest)"))),
        ("notsuitable", "unsuitable", "ns", "notsuitableforlisting", "notfit", "nft",
         "notfitfortransplant", "unfit", "unfitfortransplant", "notfitfortx",
         "unsuitablefortransplant", "notsuitablefortransplant", "contraindicated",
         *(f"{w}{r}" for w in ("ns", "notsuitable", "unsuitable")
           for r in ("frailty", "comorbidity", "comorbidities", "age", "patientchoice",
                     "cardiac", "malignancy", "obesity", "bmi"))),
        ("workup", "inworkup", "workingup", "beingworkedup", "underassessment",
         "assessment", "inassessment", "w/u", "wu", "undergoingworkup"),
        ("declined", "ptdeclined", "patientdeclined", "declinedtx", "declinedtransplant",
         "ptdeclinedtx", "patientchoice", "refused"),
        ("transplanted", "functioninggraft", "tx", "transplant", "hastransplant",
         "functioningtransplant", "posttransplant"))),
    # ... its receptor statuses: ER "ER+", "ER positive", "Allred 8" (Allred 3-8 is
    # positive); HER2 "3+" and "FISH amplified" positive, "0" negative, and HER2-low (1+,
    # or 2+ without amplification) apart, as treatment now tells it apart
    # ("^": at a word's start; "er status" is in "cancer status" and "smoker status")
    (("^er status", "oestrogen", "estrogen", "^er receptor", "^er/pr", "hormone receptor",
      "^pr status", "progesterone"), (
        ("positive", "pos", "er+", "erpositive", "erpos", "pr+", "prpositive", "prpos",
         "+ve", "er+ve", "pr+ve", "strongpositive", "weaklypositive", "weakpositive",
         *(f"allred{n}" for n in range(3, 9)), *(f"allred{n}/8" for n in range(3, 9)),
         *(f"er+({n}/8)" for n in range(3, 9)), *(f"pr+({n}/8)" for n in range(3, 9)),
         *(f"{n}/8" for n in range(3, 9))),
        ("negative", "neg", "erneg", "ernegative", "prneg", "prnegative", "ve",
         *(f"allred{n}" for n in range(3)), *(f"allred{n}/8" for n in range(3)),
         # "ER- (2/8)": the hyphen goes with the spaces of a loose key
         *(f"er({n}/8)" for n in range(3)), *(f"pr({n}/8)" for n in range(3)),
         *(f"{n}/8" for n in range(3))))),
    (("^her2", "^her 2", "^her-2", "erbb2"), (
        ("positive", "pos", "her2+", "her2positive", "her2pos", "+ve", "her2+ve", "3+",
         "her23+", "ihc3+", "fishamplified", "amplified", "fishpos", "fishpositive",
         "ishpositive", "2+fishamplified", "2+fishpos", "2+fishpositive", "2+amplified",
         "her2amplified", "2+fishamp", "fishamp", "amp", "2+ishamp", "2+ishamplified"),
        ("low", "her2low", "1+", "her21+", "ihc1+", "2+fishneg", "2+fishnegative",
         "2+ishneg", "2+ishnegative", "2+notamplified", "2+nonamplified"),
        ("negative", "neg", "her2neg", "her2negative", "0", "her20", "ihc0", "notamplified",
         "nonamplified", "fishneg", "fishnegative"))),
    # walk-through 31's neonatal unit wrote the mode of delivery 18 ways (SVD, NVD,
    # vaginal; LSCS, C-section, EMCS, El CS …); an emergency and an elective caesarean
    # stay apart, as do ventouse and forceps
    (("deliver", "modeofbirth", "birthmode"), (
        ("vaginal", "svd", "nvd", "svb", "nvb", "normalvaginal", "spontaneousvaginal",
         "vaginaldelivery", "normalvaginaldelivery", "spontaneousvaginaldelivery",
         "vaginalbirth", "normaldelivery", "spontaneous", "normal"),
        # walk-through 43: the UK's categories of urgency, 1 to 3 an emergency and 4 an
        # elective caesarean (NICE)
        ("emergencycs", "emcs", "emlscs", "emergencylscs", "emergencycsection",
         "emergencycaesarean", "emergencycesarean", "emergencyc/s",
         "emergencycaesareansection", "emergencycesareansection", "unplannedcs",
         "cat1cs", "cat2cs", "cat3cs", "category1cs", "category2cs", "category3cs",
         "cat1lscs", "cat2lscs", "cat3lscs", "cat1caesarean", "cat2caesarean",
         "cat3caesarean"),
        ("electivecs", "elcs", "ellscs", "electivelscs", "electivecsection",
         "electivecaesarean", "electivecesarean", "electivec/s",
         "electivecaesareansection", "electivecesareansection", "plannedcs",
         "cat4cs", "category4cs", "cat4lscs", "cat4caesarean"),
        ("caesarean", "cs", "lscs", "csection", "c/s", "cesarean", "caesareansection",
         "cesareansection", "csectiondelivery"),
        ("ventouse", "vacuum", "vacuumextraction", "vacuumassisted", "kiwi",
         "ventousedelivery", "kiwiventouse"),
        ("forceps", "forcepsdelivery", "nevillebarnesforceps", "nevillebarnes",
         "kiellands", "kiellandsforceps", "kiellandforceps", "lowcavityforceps",
         "outletforceps", "midcavityforceps", "rotationalforceps", "wrigleysforceps"))),
    # walk-through 43's maternity unit: labour's onset (induced, IOL, induction;
    # spontaneous, SOL, spont; no labour before a planned caesarean), a baby admitted to
    # a neonatal unit, and a transfusion of some units
    (("onset of labour", "onset of labor", "labour onset", "labor onset", "onsetoflabour"), (
        ("spontaneous", "sol", "spont", "spontaneousonset", "spontaneouslabour",
         "spontaneouslabor", "spontaneousonsetoflabour"),
        ("induced", "iol", "induction", "inductionoflabour", "inductionoflabor",
         "inducedlabour", "inducedlabor"),
        ("nolabour", "prelabourcs", "prelabourcaesarean", "prelaborcs", "prelaborcesarean",
         "nolabourelcs", "nolaborelcs", "nolabour(elcs)", "elcsnolabour", "prelabour",
         "nolabor"))),
    (("nicu", "scbu", "neonatalunit", "neonatal unit", "nnu"), (
        ("yes", "y", "scbu", "nnu", "nicu", "admitted", "specialcare", "admittedtoscbu",
         "admittedtonnu", "admittedtonicu"),
        ("no", "n", "notadmitted", "none"))),
    # walk-through 44: perineal tears by degree (3a, 3b, 3c stay apart), induction
    # methods, twins and an oxytocin augmentation by the drug's name
    (("perine", "degree tear", "obstetric tear"), (
        ("intact", "intactperineum", "notear", "notrauma", "nil", "none"),
        ("1stdegree", "1stdeg", "firstdegree", "firstdegreetear", "1stdegreetear", "1st"),
        ("2nddegree", "2nddeg", "seconddegree", "seconddegreetear", "2nddegreetear", "2nd"),
        ("3rddegree", "3rddeg", "thirddegree", "thirddegreetear", "3rddegreetear", "3rd"),
        ("4thdegree", "4thdeg", "fourthdegree", "fourthdegreetear", "4thdegreetear", "4th"),
        ("episiotomy", "epis", "episio"))),
    (("induction", "inductionmethod", "methodofinduction", "iolmethod"), (
        ("amniotomy", "arm", "arm(amniotomy)", "amniotomy(arm)",
         "artificialruptureofmembranes"),
        ("balloon", "crb", "cervicalripeningballoon", "foley", "foleycatheter",
         "foleyballoon", "cooksballoon", "doubleballoon", "balloon(crb)"),
        ("propess", "propesspessary", "propess10mg"),
        ("prostin", "prostingel", "prostine2", "prostine2gel"),
        ("oxytocin", "syntocinon", "synto", "oxytocininfusion", "ivoxytocin"))),
    (("multiplepregnancy", "multiple pregnancy", "plurality", "multiplicity"), (
        ("singleton", "single", "no", "n"),
        ("twins", "twin", "twinpregnancy", "twingestation"),
        ("triplets", "triplet", "tripletpregnancy"))),
    (("oxytocin", "syntocinon", "augmentation"), (
        ("yes", "y", "syntocinon", "synto", "oxytocin", "augmented", "given"),
        ("no", "n", "none", "notaugmented", "notgiven"))),
    (("transfus", "bloodproducts", "blood products"), (
        ("yes",) + tuple(f"{w}{n}unit{'s' if n > 1 else ''}{c}" for n in range(1, 11)
                         for w, c in (("yes", ""), ("yes(", ")"), ("", ""))),
        ("no", "n", "none", "nil", "notransfusion"))),
    # the same unit's antenatal steroids: "complete" and "Yes - 2 doses" are a yes
    (("steroid", "betamethasone", "dexamethasone"), (
        ("yes", "y", "complete", "completecourse", "fullcourse", "full", "given",
         "yes2doses", "2doses"),
        ("no", "n", "notgiven", "none", "nil"),
        ("partial", "incomplete", "incompletecourse", "partialcourse", "1dose",
         "yes1dose"))),
    # walk-through 33's emergency department: the arrival by ambulance written five
    # ways; walk-in and self-presented are one answer (a private car or the police stay
    # apart)
    (("arrival", "arrived", "transport", "brought", "presentation"), (
        ("ambulance", "amb", "ambo", "ems", "paramedic", "paramedics", "byambulance",
         "ambulancearrival", "ems/ambulance", "ambulance/ems", "999ambulance", "999",
         "911", "911ambulance", "000"),
        ("transfer", "interhospitaltransfer", "iht", "transferred", "interhospital",
         "transferin", "hospitaltransfer", "transferfromanotherhospital"),
        ("walkin", "walk-in", "self", "selfpresented", "self-presented", "selfreferral",
         "selfreferred", "walkedin", "ambulatory"),
        ("helicopter", "heli", "hems", "airambulance", "air"))),
    # walk-through 35's mental health unit: the Mental Health Act status written "S2",
    # "Section 2", "s.2 MHA" (England and Wales' sections; a CTO recall stays apart)
    (("mha", "mentalhealthact", "mental health act", "section", "legal status",
      "detention", "detained"), tuple(
        (f"section{n}", f"s{n}", f"sec{n}", f"s{n}mha", f"section{n}mha", f"mhas{n}",
         f"sec{n}mha", f"section{n}ofthemha", f"s{n}ofthemha", f"detainedunders{n}",
         f"detainedundersection{n}", *_SECTION_NOTES.get(n, ()))
        for n in ("2", "3", "4", "35", "36", "37", "37/41", "38", "47", "47/49", "48", "136",
                  "135", "5(2)", "5(4)"))
     # walk-through 52: "S17A CTO", "on CTO"; "N/A - informal" is read as "informal"
     # ... and "nil" (no section: walk-through 53's 104 patients)
     + (("informal", "voluntary", "informalpatient", "notdetained", "nil", "none",
         "nosection", "notsectioned", "notondetention"),
        ("cto", "communitytreatmentorder", "oncto", "s17a", "s17acto", "section17a",
         "section17acto", "cto(s17a)", "communitytreatmentorder(s17a)"))),
    # walk-through 39's stroke unit: atrial fibrillation written AF, known AF, paroxysmal
    # AF (yes) and no AF, sinus rhythm (no); the stroke type, its TOAST class, a
    # thrombectomy or thrombolysis, and the discharge destination each several ways
    # ... and a column named "AF" alone (walk-through 96: "Sinus rhythm", "NSR" and "No"
    # stayed three answers), not an AF's type
    (("atrial fib", "atrialfib", "afib", "a fib", "a-fib",
      "=(?:known |history of |h/o |hx )?af(?: status| present| history| \\(?y/n\\)?|\\?)?"), (
        ("yes", "y", "af", "knownaf", "paroxysmalaf", "persistentaf", "permanentaf", "paf",
         "afib", "atrialfibrillation", "historyofaf", "h/oaf", "inaf", "afpresent"),
        ("no", "n", "noaf", "sinusrhythm", "sr", "nsr", "sinus", "noknownaf", "noafib",
         "nohistoryofaf", "afabsent", "none"))),
    # ... a stroke clinic's "Presentation" too (walk-through 96: 19 answers of four kinds)
    (("stroke", "presentation", "event type", "cerebrovascular"), (
        ("ischaemic", "ischemic", "ischaemicstroke", "ischemicstroke", "infarct",
         "infarction", "cerebralinfarction", "cerebralinfarct", "ais",
         "acuteischaemicstroke", "acuteischemicstroke", "ischstroke", "ischstrok",
         "isch", "ischaemicinfarct", "ischemicinfarct"),
        ("haemorrhagic", "hemorrhagic", "haemorrhage", "hemorrhage", "haemorrhagicstroke",
         "hemorrhagicstroke", "ich", "intracerebralhaemorrhage", "intracerebralhemorrhage",
         "bleed", "primaryich"),
        ("tia", "transientischaemicattack", "transientischemicattack"),
        ("sah", "subarachnoidhaemorrhage", "subarachnoidhemorrhage"))),
    # the Oxford (Bamford) classification of an ischaemic stroke: its syndrome (S) or,
    # imaged, its infarct (I) is one class (walk-through 96: TACS and TACI apart)
    (("ocsp", "oxford", "bamford", "stroke syndrome"), (
        ("tacs", "taci", "totalanterior", "totalanteriorcirculation",
         "totalanteriorcirculationstroke", "totalanteriorcirculationinfarct"),
        ("pacs", "paci", "partialanterior", "partialanteriorcirculation",
         "partialanteriorcirculationstroke", "partialanteriorcirculationinfarct"),
        ("lacs", "laci", "lacunar", "lacunarstroke", "lacunarinfarct", "lacunarsyndrome"),
        ("pocs", "poci", "posterior", "posteriorcirculation",
         "posteriorcirculationstroke", "posteriorcirculationinfarct"))),
    (("toast", "aetiolog", "etiolog", "stroke subtype", "stroke mechanism"), (
        ("largearteryatherosclerosis", "laa", "largeartery", "largevessel",
         "largevesseldisease", "largearterydisease", "atherothrombotic"),
        ("cardioembolic", "cardioembolism", "ce", "cardioembolicstroke", "cardioembolus"),
        ("smallvesselocclusion", "smallvessel", "svd", "smallvesseldisease", "lacunar",
         "lacunarinfarct", "lacunarstroke", "sao", "svo"),
        ("otherdeterminedcause", "otherdetermined", "otherdeterminedetiology",
         "otherdeterminedaetiology", "odc", "other"),
        ("undeterminedcause", "undetermined", "cryptogenic", "undeterminedetiology",
         "undeterminedaetiology", "udc", "unknowncause"))),
    (("thrombectomy", "endovascular"), (
        ("yes", "y", "evt", "mt", "mechanicalthrombectomy", "endovascularthrombectomy",
         "endovasculartherapy", "done", "performed"),
        ("no", "n", "notdone", "notperformed"))),
    # a thrombolytic drug given is a yes (two drugs merged are shown by both names,
    # :func:`shown_answer`: walk-through 96's "TNK" showed as "Alteplase")
    (("thromboly", "lysis"), (
        ("yes", "y", "given", "thrombolysed", "ivt", "lysed", "alteplase", "tpa", "rtpa",
         "ivtpa", "tenecteplase", "tnk", "actilyse", "metalyse", "yesalteplase",
         "yestenecteplase"),
        ("no", "n", "notgiven", "notthrombolysed", "nolysis"))),
    (("discharge", "destination", "disposition"), (
        ("home", "ownhome", "usualresidence", "dischargedhome", "hometousualresidence"),
        # a nursing home and a residential (care) home are two levels of care; "care
        # home" may be either (walk-through 72 was offered the two as one)
        ("nursinghome", "nh", "nursingfacility", "snf", "skillednursingfacility",
         "longtermcare", "ltc", "nursingcarehome", "carehomewithnursing"),
        ("residentialhome", "residentialcare", "rh", "residentialcarehome",
         "carehomewithoutnursing", "reshome"),
        ("rehab", "rehabilitation", "inpatientrehab", "inpatientrehabilitation",
         "rehabunit", "rehabilitationunit", "irf"),
        ("died", "deceased", "dead", "death", "expired", "diedinhospital"))),
    # walk-through 50's paediatric ED: Manchester triage's colours and names beside its
    # numbers ("Orange" and "2 - very urgent"); ESI and CTAS names agree on 1, 3 and 5
    (("triage", "acuity", "manchester", "mts"), tuple(
        (str(n), *(f"{w}{n}" for w in ("cat", "category", "level", "triage", "mts", "esi",
                                      "ctas", "ats", "triagecategory", "priority", "p")),
         *(f"{n}{w}" for w in names), *names)
        for n, names in (
            (1, ("red", "immediate", "resuscitation", "resus")),
            (2, ("orange", "veryurgent", "emergent", "emergency")),
            (3, ("yellow", "urgent")),
            (4, ("green", "standard", "lessurgent", "semiurgent")),
            (5, ("blue", "nonurgent"))))),
    # ... its presenting complaints, consciousness (AVPU) and arrival written several ways
    (("complaint", "presenting", "reason for attendance", "reasonforattendance"), (
        ("fever", "pyrexia", "pyrexial", "febrile", "temp", "hightemp", "hightemperature"),
        ("breathingdifficulty", "difficultybreathing", "difficultyinbreathing", "sob",
         "shortnessofbreath", "breathless", "breathlessness", "respdistress",
         "respiratorydistress", "dib", "increasedworkofbreathing"),
        ("diarrhoeaandvomiting", "d&v", "d+v", "dandv", "diarrhoea&vomiting",
         "diarrhoea+vomiting", "diarrheaandvomiting", "diarrhea&vomiting",
         "vomitinganddiarrhoea", "vomiting&diarrhoea", "v&d", "v+d"),
        ("headinjury", "headinj", "headinj.", "hi"),
        ("seizure", "seizures", "fit", "fits", "fitting", "convulsion", "convulsions"),
        ("abdominalpain", "abdopain", "abdpain", "tummypain", "tummyache"),
        ("limbinjury", "limbinj", "injury-limb", "injurylimb", "limbinj."))),
    (("avpu", "conscious", "responsiveness"), (
        ("alert", "a"), ("voice", "v", "respondstovoice", "verbal"),
        ("pain", "p", "respondstopain"), ("unresponsive", "u", "unrousable"))),
    (("arrival", "mode of arrival", "modeofarrival", "transport"), (
        ("ambulance", "amb", "999", "byambulance", "emergencyambulance"),
        ("gpreferral", "refbygp", "gp", "referredbygp", "gpref", "gpreferred"),
        ("selfpresented", "self", "selfreferral", "selfreferred", "walkedin", "walkin",
         "walk-in"))),
    # walk-through 64's diabetes clinic: the foot's risk as NICE grades it (low,
    # moderate or increased, high, active), the 10 g monofilament, glucose monitoring
    # and the structured education courses
    (("foot risk", "footrisk", "foot status", "diabetic foot"), (
        ("low", "lowrisk", "low-risk", "lowrisk(nice)"),
        ("moderate", "mod", "moderaterisk", "modrisk", "increased", "increasedrisk",
         "medium", "mediumrisk"),
        ("high", "highrisk", "high-risk"),
        ("active", "activeulcer", "activefootdisease", "activefootproblem", "ulcer",
         "activeulceration"))),
    (("monofilament", "10g", "protective sensation"), (
        ("intact", "normal", "10/10", "present", "sensationintact", "nad", "felt",
         "allsitesfelt"),
        ("reduced", "diminished", "impaired", "partial", "decreased",
         *(f"{n}/10" for n in range(1, 10))),
        ("absent", "0/10", "lost", "nonefelt", "notfelt"))),
    (("cgm", "flash glucose", "flashglucose", "glucose monitor", "glucosemonitor",
      "libre"), (
        ("yes", "y", "libre", "libre2", "libre3", "freestylelibre", "freestylelibre2",
         "freestylelibre3", "flash", "fgm", "dexcom", "dexcomg6", "dexcomg7", "dexcomone",
         "guardian", "guardian4", "medtronicguardian", "cgm", "isCGM", "rtcgm"),
        ("no", "n", "fingerprick", "fingerpricks", "fingerprickonly", "smbg", "cbg",
         "meter", "bloodglucosemeter", "none"))),
    (("structured education", "structurededucation", "education programme",
      "diabetes education"), (
        ("desmond", "yes(desmond)", "yes-desmond", "yesdesmond", "desmondcourse",
         *(f"desmond{y}" for y in range(1995, 2031))),
        ("dafne", "yes(dafne)", "yes-dafne", "yesdafne", "dafnecourse",
         *(f"dafne{y}" for y in range(1995, 2031))),
        ("x-pert", "xpert", "yes(xpert)", "yes(x-pert)", "yes-xpert", "yes-x-pert",
         *(f"xpert{y}" for y in range(1995, 2031))),
        ("no", "n", "none", "notattended", "notdone", "nil"))),
    # walk-through 66's rheumatology clinic: its five diagnoses written 24 ways ("AS"
    # stays apart: an aortic stenosis elsewhere), erosions, the TB screen, clinic types
    # and an autoantibody's result
    (("diagnosis", "^dx", "condition", "arthritis type", "rheum"), (
        ("ra", "rheumatoidarthritis", "seropositivera", "seronegativera",
         "seropositiverheumatoidarthritis", "seronegativerheumatoidarthritis", "ra(seropos)",
         "ra(seroneg)", "ra-seroneg", "ra-seropos", "ra(seropositive)", "ra(seronegative)",
         "rheumatoid"),
        ("psa", "psoriaticarthritis", "psa(oligo)", "psa(poly)", "psa(axial)",
         "psoriaticarthropathy"),
        ("axspa", "axialspa", "nr-axspa", "nraxspa", "r-axspa", "ankylosingspondylitis",
         "axialspondyloarthritis", "axialspondyloarthropathy", "nonradiographicaxspa"),
        ("gout", "tophaceousgout", "goutyarthritis", "chronicgout", "chronictophaceousgout"),
        ("uia", "undifferentiatedia", "undiffinflammatoryarthritis", "undiffia",
         "undifferentiatedinflammatoryarthritis", "undifferentiatedarthritis"),
        # walk-through 68's IBD clinic: three diagnoses written 20 ways, a typo among them
        # ("Ulcerative colitits" was shown for 105 patients who wrote it right); "CD" is
        # here only beside Crohn's spelled out (the stem rule pairs it so), not alone
        ("crohn'sdisease", "crohnsdisease", "crohns", "crohn's", "crohn’s",
         "crohn’sdisease", "chrons", "chronsdisease", "crohnsdisease(ileal)",
         "crohn'sdisease(ileal)", "crohn'sdisease(colonic)", "crohn'sdisease(ileocolonic)",
         "crohn'scolitis", "crohnscolitis", "ileal crohn's", "ilealcrohns"),
        ("ulcerativecolitis", "uc", "u.c.", "ulcerativecolitits", "ulcerativecolits",
         "ulcerativecollitis", "proctitis(uc)", "ucproctitis", "ulcerativeproctitis",
         "ulcerativecolitis-leftsided", "ulcerativecolitis-pancolitis",
         "ulcerativecolitis(leftsided)", "ulcerativecolitis(pancolitis)", "pancolitis",
         "left-sideduc", "leftsideduc", "ucpancolitis", "ucleftsided"),
        ("ibd-u", "ibdu", "ibdunclassified", "ibd-unclassified", "ibdunclassified(ibdu)",
         "indeterminatecolitis", "ibd-u?crohn's", "ibdu?crohns", "ibd-u?crohns",
         "unclassifiedibd"))),
    # walk-through 97's movement-disorders clinic: Parkinson's disease in 13 spellings,
    # its mimics in 2 to 5 each ("PD" is here only beside Parkinson's spelled out, as "CD"
    # is beside Crohn's; a subtype, "PD (young onset)", MSA-P, stays its own answer)
    # walk-through 105's day unit: a cancer's stage IV written as its metastases ("M1",
    # "metastatic", a TNM with M1; offered, as a stage column's answers are)
    (("=stage", "stage at diagnosis", "tumour stage", "tumor stage", "cancer stage",
      "overall stage", "ajcc stage", "stage group", "clinical stage", "=staging"), (
        ("iv", "4", "stageiv", "stage4", "metastatic", "m1", "m1a", "m1b", "m1c",
         "metastaticdisease", "metastases", "mets", "stageivmetastatic"),)),
    # walk-through 104's medical retina clinic: what each eye is injected for, how often,
    # and its lens
    (("diagnosis", "^dx", "indication", "retina", "macula", "^condition"), (
        ("namd", "wet amd", "neovascular amd", "nvamd", "wamd", "wet armd", "neovascular armd",
         "amd (wet)", "amd - wet", "amd wet", "wet arm", "exudative amd",
         "wet macular degeneration", "neovascular age-related macular degeneration",
         "neovascular age related macular degeneration", "wet age-related macular degeneration",
         "wet age related macular degeneration",
         # choroidal neovascularisation, in a clinic that writes myopic CNV as such
         "cnv", "cnvm", "choroidal neovascularisation", "choroidal neovascularization"),
        ("dmo", "dme", "diabetic macular oedema", "diabetic macular edema",
         "diabetic maculopathy (dmo)"),
        # a vein occlusion is injected for its macular oedema: "CRVO with MO" is the
        # clinic's CRVO (offered, as every diagnosis is)
        ("brvo", "branch rvo", "branch retinal vein occlusion", "b-rvo", "brvo with mo",
         "brvo + mo", "brvo mo", "brvo with macular oedema", "brvo (mo)", "brvo with cmo"),
        ("crvo", "central rvo", "central retinal vein occlusion", "c-rvo", "crvo with mo",
         "crvo + mo", "crvo mo", "crvo with macular oedema", "crvo (mo)", "crvo with cmo"),
        ("hrvo", "hemi rvo", "hemiretinal vein occlusion", "hemi-rvo"),
        ("myopic cnv", "mcnv", "myopic choroidal neovascularisation",
         "myopic choroidal neovascularization", "myopic cnvm"))),
    (("regimen", "dosing", "protocol", "schedule", "treatment interval", "^strategy"), (
        ("treat and extend", "t&e", "t & e", "tae", "treat & extend", "treat-and-extend",
         "t and e", "treat extend", "tandext"),
        ("prn", "pro re nata", "as needed", "prn (as needed)", "monitor and treat"),
        ("fixed 8-weekly", "q8w", "8-weekly", "8 weekly", "every 8 weeks", "fixed q8w",
         "fixed 8 weekly", "2-monthly fixed", "fixed every 8 weeks", "8 wkly"),
        ("fixed 4-weekly", "q4w", "4-weekly", "4 weekly", "every 4 weeks", "monthly",
         "fixed monthly", "fixed q4w", "fixed 4 weekly"))),
    (("=lens", "lens status", "^phakic", "lens state"), (
        ("phakic", "phakia", "natural lens", "own lens", "clear lens"),
        ("pseudophakic", "pseudophakia", "pciol", "pc iol", "pc-iol", "iol", "pseudo",
         "pseudophake", "pcl", "ppp"),
        ("aphakic", "aphakia", "aphake"))),
    (("diagnosis", "^dx", "parkinson", "movement disorder"), (
        ("parkinson'sdisease", "parkinsonsdisease", "parkinson's", "parkinsons", "pd",
         "idiopathicpd", "ipd", "idiopathicparkinson'sdisease", "idiopathicparkinsonsdisease",
         "idiopathicparkinson's", "idiopathicparkinsons", "parkinonsdisease",
         "parkinsondisease", "parkinsonsdiseae", "parkinson'sdiseae", "parkinson"),
        ("multiplesystematrophy", "msa"),
        ("msa-p", "msap", "multiplesystematrophy(p)", "msa(p)",
         "multiplesystematrophy-parkinsonian", "multiplesystematrophy(parkinsonian)",
         "multiplesystematrophyparkinsoniantype"),
        ("msa-c", "msac", "multiplesystematrophy(c)", "msa(c)",
         "multiplesystematrophy-cerebellar", "multiplesystematrophy(cerebellar)",
         "multiplesystematrophycerebellartype"),
        ("progressivesupranuclearpalsy", "psp", "progressivesupranuclearplasy",
         "progresivesupranuclearpalsy", "psp(richardson)", "psp-rs", "psprs",
         "psp(richardsonsyndrome)", "richardsonsyndrome", "richardson'ssyndrome"),
        ("dementiawithlewybodies", "dlb", "lewybodydementia", "dementiawithlewybody",
         "lewybodiesdementia"),
        ("essentialtremor", "et", "essentialtremour", "benignessentialtremor",
         "benignessentialtremour", "essentialtremer"),
        ("drug-inducedparkinsonism", "druginducedparkinsonism", "dip", "drug-induced",
         "druginduced", "drug-inducedpkn", "druginducedpkn"),
        ("vascularparkinsonism", "vascularpkn", "vascularpd", "vascularparkinson's",
         "vascularparkinsons"))),
    # walk-through 70's liver clinic: ten aetiologies in 49 spellings, the column left
    # out as free text; the metabolic one renamed twice (NAFLD, MAFLD, MASLD) and the
    # alcohol one written as a drink ("EtOH"). "Mixed" alone is left as written.
    (("aetiolog", "etiolog", "cause of liver", "liver disease", "diagnosis", "^dx"), (
        ("masld", "nafld", "nash", "mash", "mafld", "nafl", "fattyliver", "fattyliver(nafld)",
         "fattyliverdisease", "nafld/nash", "nash/nafld", "masld/mash", "steatosis",
         "non-alcoholicfattyliverdisease", "nonalcoholicfattyliverdisease",
         "non-alcoholicsteatohepatitis", "nonalcoholicsteatohepatitis",
         "metabolicdysfunction-associatedsteatoticliverdisease"),
        ("arld", "ald", "alcohol", "alcohol-relatedliverdisease", "alcoholrelatedliverdisease",
         "alcoholicliverdisease", "alcohol-related", "alcoholrelated", "etoh", "alcoholic",
         "alchol", "alcoholiccirrhosis", "alcohol-relatedcirrhosis"),
        ("metald", "mixed(ald+nafld)", "mixed(nafld+ald)", "nafld+alcohol", "ald+nafld",
         "nafld+ald", "masld+alcohol", "masld+ald", "mixed(metabolic+alcohol)"),
        ("hcv", "hepatitisc", "hepc", "chronichepatitisc", "chronichcv", "hcvgenotype1",
         "hcvgenotype2", "hcvgenotype3", "hcvgenotype4", "hcv-svr", "hcv(svr)",
         "hepc(treated,svr)", "hepc(treated)", "hcv(treated)", "hepatitisc(svr)"),
        ("hbv", "hepatitisb", "hepb", "chronichepatitisb", "chronichbv", "hbv(eagneg)",
         "hbv(eagpos)", "hbv(eag-)", "hbv(eag+)", "hbv-eagneg", "hbv-eagpos"),
        ("aih", "autoimmunehepatitis", "autoimmunehep", "autoimmune"),
        ("pbc", "primarybiliarycholangitis", "primarybiliarycirrhosis", "pbc(ama+)",
         "pbc(amapositive)", "pbc(ama-)"),
        ("psc", "primarysclerosingcholangitis", "psc/uc", "psc(uc)", "psc+uc", "psc/ibd"),
        ("haemochromatosis", "hemochromatosis", "hh", "hfehaemochromatosis",
         "hfehemochromatosis", "hereditaryhaemochromatosis", "hereditaryhemochromatosis",
         "geneticHaemochromatosis", "hh(c282yhomozygous)", "c282yhomozygous"),
        ("wilson'sdisease", "wilsonsdisease", "wilson's", "wilsons", "wilson"))),
    # walk-through 71's heart-failure clinic: its type by ejection fraction in 16
    # spellings, coded alphabetically (HFrEF and "HFrEF (systolic)" said to differ)
    (("hf type", "heart failure type", "hf phenotype", "type of hf", "hf category",
      "hf classification"), (
        ("hfref", "reducedef", "hfref(systolic)", "systolichf", "systolicheartfailure",
         "lvsd", "hfwithreducedef", "hfwithreducedejectionfraction", "hfref(lvsd)"),
        ("hfmref", "hfmref(mid-range)", "mid-rangeef", "midrangeef", "mildlyreducedef",
         "hfmildlyreducedef", "hfwithmildlyreducedef", "hfmref(mildlyreduced)"),
        ("hfpef", "preservedef", "hfpef(diastolic)", "diastolichf", "hfnef",
         "diastolicheartfailure", "hfwithpreservedef", "hfwithpreservedejectionfraction",
         "hfnormalef"),
        ("hfimpef", "hfrecef", "improvedef", "recoveredef", "hfwithimprovedef",
         "hfwithrecoveredef"))),
    # ... its aetiology, rhythm, device and revascularisation
    (("aetiolog", "etiolog", "cause of hf", "cause of heart failure", "hf cause"), (
        ("ischemic", "ischaemic", "icm", "ihd", "ischaemiccardiomyopathy",
         "ischemiccardiomyopathy", "ischaemicheartdisease", "coronaryarterydisease", "cad"),
        ("dcm", "dilatedcardiomyopathy", "idiopathicdcm", "idiopathicdilatedcardiomyopathy",
         "familialdcm"),
        ("hypertensive", "htn", "hypertensiveheartdisease", "hhd", "hypertension"),
        ("valvular", "vhd", "valvularheartdisease", "valvular(as)", "valvular(mr)",
         "valve disease", "valvedisease"),
        ("alcoholiccardiomyopathy", "alcoholiccm", "alcohol", "etoh", "alcohol-related",
         "alcoholrelatedcardiomyopathy"),
        ("chemotherapy-related", "chemo-related", "chemorelated", "anthracycline",
         "cardiotoxicity", "chemotherapyrelated"))),
    (("rhythm", "ecg rhythm", "ecg"), (
        ("sinusrhythm", "sr", "nsr", "sinus", "normalsinusrhythm"),
        ("atrialfibrillation", "af", "af(ratecontrolled)", "fastaf", "controlledaf",
         "ratecontrolledaf", "afib", "af-ratecontrolled"),
        ("paced", "v-paced", "vpaced", "biv paced", "bivpaced", "a-paced", "apaced",
         "pacedrhythm", "av-paced", "avpaced", "ventricularpaced"))),
    (("device", "cied", "implant"), (
        ("ppm", "pacemaker", "dddppm", "vvippm", "dualchamberppm", "singlechamberppm",
         "permanentpacemaker", "ddd", "vvi"),
        ("icd", "singlechambericd", "dualchambericd", "tv-icd", "transvenousicd"),
        ("crt-d", "crtd", "crt-defibrillator", "crtdefibrillator"),
        ("crt-p", "crtp", "crt-pacemaker", "crtpacemaker"),
        ("none", "nil", "no", "nodevice", "n"))),
    (("revascular", "previous pci", "pci/cabg"), (
        ("pci", "pcix2", "pcix3", "pcitolad", "pcitorca", "pcitolcx", "pci(stent)",
         "stent", "stents", "pci-stent", "pcistent", "des"),
        ("cabg", "cabgx3", "cabgx4", "cabgx2", "bypass", "coronarybypass"))),
    # ... and its hepatitis C RNA: "TND" (target not detected) and a sustained
    # virological response (SVR, SVR12) are RNA not detected
    (("hcv rna", "hcv pcr", "hcvrna", "hcvpcr", "hcv viral", "rna result", "pcr result"), (
        ("notdetected", "tnd", "targetnotdetected", "undetectable", "undetected",
         "negative", "neg", "svr", "svr12", "svr24", "sustainedvirologicalresponse",
         "cleared"),
        ("detected", "detectable", "positive", "pos"))),
    # walk-through 68: "No PR bleeding" (per rectum) beside "no" in "Rectal bleeding"
    (("rectal bleed", "pr bleed", "bleeding pr", "blood pr"), (
        ("no", "n", "none", "nil", "noprbleeding", "nobleeding", "norectalbleeding",
         "noblood", "nobloodpr", "nilpr"),)),
    (("erosion", "erosive"), (
        ("yes", "y", "erosive", "erosions", "erosivechanges", "erosivechangesmcps",
         "erosivechangesmtps", "erosivedisease", "erosionspresent", "present"),
        ("no", "n", "non-erosive", "nonerosive", "noerosions", "noerosivechange",
         "noerosivechanges", "absent", "none"))),
    (("tb screen", "tbscreen", "igra", "quantiferon", "qft", "t-spot", "tspot",
      "latent tb"), (
        ("negative", "neg", "-ve", "qftnegative", "igranegative", "tspotnegative",
         "quantiferonnegative", "qft-ve", "negve"),
        ("positive", "pos", "+ve", "qftpositive", "igrapositive", "tspotpositive",
         "quantiferonpositive", "qft+ve", "posve", "positive-treated",
         "positive(treated)", "positivetreated"),
        ("indeterminate", "qftindeterminate", "igraindeterminate", "equivocal",
         "borderline"))),
    (("clinic type", "clinictype", "appointment type", "appointmenttype", "visit type",
      "visittype", "clinic"), (
        ("followup", "f/u", "fu", "follow-up", "followupappointment", "fup", "review"),
        ("newpatient", "new", "np", "newreferral", "newappointment"),
        ("nurseled", "nurse-led", "cns", "nurseclinic", "cnsclinic", "nurseledclinic",
         "nursespecialist"),
        ("biologicclinic", "biologicsreview", "biologicreview", "biologicsclinic",
         "biologics"))),
    (("^rf", "rheumatoid factor", "rheumatoidfactor", "ccp", "acpa", "^ana",
      "antinuclear", "dsdna", "^ena", "anca", "serology", "antibod"), (
        ("positive", "pos", "+ve", "+", "posve", "pos.", "weakpositive", "weaklypositive",
         "stronglypositive", "positive(>340iu/ml)", "positive(>340)"),
        ("negative", "neg", "-ve", "-", "negve", "neg.", "negative(<14)", "negative(<7)",
         "negative(<20)", "negative(<10)", "negative(<5)"))),
    # walk-through 72's hip-fracture unit: the side, the anaesthetic, the operation and
    # the nerve block, each written several ways
    # ... and walk-through 104's treated eye ("RE", "R", "Right", "OD"; "OS" the left)
    (("^side", "laterality", "^which side", "=eye", "=eyes", "treated eye", "study eye",
      "which eye", "eye treated", "index eye", "operated eye", "affected eye", "=re/le",
      "=r/l"), (
        ("left", "l", "lt", "lhs", "left side", "l side", "lft", "le", "left eye", "l eye",
         "lt eye", "os", "o.s."),
        ("right", "r", "rt", "rhs", "right side", "r side", "rght", "re", "right eye",
         "r eye", "rt eye", "od", "o.d."),
        ("bilateral", "both", "bilat", "b/l", "both sides", "both eyes", "ou", "o.u."))),
    (("anaesth", "anesth", "^ga/"), (
        ("general", "ga", "general anaesthetic", "general anaesthesia",
         "general anesthetic", "general anesthesia", "ga + lma", "ga+lma", "ga (lma)",
         "ga + ett", "ga+ett"),
        ("spinal", "sab", "spinal anaesthetic", "spinal anaesthesia", "spinal anesthetic",
         "spinal anesthesia", "subarachnoid block", "sa", "regional - spinal",
         "regional spinal", "regional (spinal)"),
        ("spinal + sedation", "sab + sedation", "spinal and sedation", "spinal with sedation",
         "spinal & sedation", "sab+sedation", "spinal+sedation", "spinal/sedation"),
        ("ga + fib", "ga+fib", "ga + block", "ga and block", "ga + nerve block",
         "ga + ficb", "general + ficb", "general + fib", "general + block",
         "general and block", "ga/fnb", "ga + fnb", "ga/block", "ga/fib", "ga/ficb",
         "general + nerve block", "ga with block", "ga + peng"),
        # walk-through 102: a spinal with a nerve block, written five ways
        ("spinal + block", "spinal and block", "spinal + nerve block", "spinal/fnb",
         "spinal + fnb", "spinal + ficb", "spinal + fib", "spinal/ficb", "spinal/fib",
         "spinal/block", "sab + fib", "sab+fib", "sab + ficb", "sab + block",
         "spinal with block", "spinal and nerve block", "spinal + peng",
         "spinal and fib", "spinal and ficb"))),
    (("operation", "procedure", "^surgery", "^fixation", "^implant", "^op type",
      "^operation type"), (
        ("sliding hip screw", "dhs", "shs", "dynamic hip screw", "dhs/shs", "shs/dhs",
         "compression hip screw", "chs", "dhs 135", "dhs (135)", "dynamic hip screw (dhs)"),
        ("intramedullary nail", "im nail", "imn", "im nailing", "intramedullary nailing",
         "cephalomedullary nail", "gamma nail", "gamma", "long gamma", "short gamma",
         "pfna", "pfn", "tfn", "tfna", "long im nail", "short im nail", "long imn",
         "short imn"),
        ("cannulated screws", "cs", "cannulated screw", "cannulated screws x3",
         "cannulated screws x 3", "screws", "screw fixation", "cann screws",
         "cannulated hip screws", "cs x3", "cs x 3", "3 screws", "three screws",
         "3 cannulated screws", "cannulated screws (3)", "x3 cannulated screws"),
        ("total hip replacement", "thr", "tha", "total hip arthroplasty",
         "cemented thr", "total hip", "uncemented thr", "hybrid thr", "exeter thr",
         "exeter total hip", "cemented total hip", "thr (exeter)", "thr (cemented)"),
        ("hemiarthroplasty - cemented", "cemented hemiarthroplasty", "cemented hemi",
         "hemi (cemented)", "hemi cemented", "hemiarthroplasty cemented",
         "hemiarthroplasty (cemented)", "cemented hemi-arthroplasty",
         # the Exeter trauma stem is cemented (walk-through 102)
         "exeter hemi", "exeter hemiarthroplasty", "exeter trauma stem", "ets",
         "exeter ets"),
        # a hemiarthroplasty whose fixation is not written (walk-through 102b: "bipolar
        # hemi" was never offered with "Hemiarthroplasty")
        ("hemiarthroplasty", "hemi", "hemi-arthroplasty", "bipolar hemi",
         "bipolar hemiarthroplasty", "unipolar hemi", "unipolar hemiarthroplasty",
         "modular hemi", "hemiarthroplasty (bipolar)", "hemiarthroplasty (unipolar)"),
        ("hemiarthroplasty - uncemented", "uncemented hemiarthroplasty", "uncemented hemi",
         "hemi (uncemented)", "hemi uncemented", "hemiarthroplasty uncemented",
         "hemiarthroplasty (uncemented)", "austin moore", "austin-moore", "thompsons",
         "thompson's", "thompson"),
        ("not operated", "conservative", "non-operative", "nonoperative", "non operative",
         "conservative management", "managed conservatively", "no surgery",
         "not for surgery", "no operation", "non-op", "nonop", "conservative mx",
         "conservative rx", "conservative treatment", "non-surgical"))),
    # walk-through 89's thyroid clinic: "Hemi", "hemithyroidectomy" and "right
    # hemithyroidectomy"; "Total" and "total thyroidectomy" (offered, a side is a detail)
    (("thyroid", "^surgery", "operation", "procedure"), (
        ("hemithyroidectomy", "hemi", "hemi-thyroidectomy", "thyroidlobectomy", "lobectomy",
         "righthemithyroidectomy", "lefthemithyroidectomy", "rthemithyroidectomy",
         "lthemithyroidectomy", "r hemithyroidectomy", "l hemithyroidectomy",
         "hemithyroidectomy(right)", "hemithyroidectomy(left)", "rightlobectomy",
         "leftlobectomy"),
        ("totalthyroidectomy", "total", "tt", "totalthyroidectomy(tt)"),
        ("subtotalthyroidectomy", "subtotal", "neartotalthyroidectomy", "neartotal"))),
    # walk-through 102's hip-fracture register: the NHFD's fracture types, 22 spellings of
    # 4; a Garden grade stays its own answer (I-II are undisplaced, III-IV displaced, but
    # a unit writing grades means them: walk-through 72)
    (("fracture type", "type of fracture", "fracture classification", "fracture pattern",
      "^# type", "=fracture", "=#"), (
        ("intracapsular displaced", "displaced intracapsular", "ic displaced",
         "displaced ic", "displ ic", "displ ic #", "displaced ic #", "ic displ",
         "ic disp", "displaced #nof", "displaced nof", "displaced nof #",
         "#nof displaced", "nof displaced", "displaced intracapsular #",
         "intracapsular - displaced", "intracapsular (displaced)", "icd"),
        ("intracapsular undisplaced", "undisplaced intracapsular", "ic undisplaced",
         "undisplaced ic", "ic undispl", "icud", "ic nondisplaced", "nondisplaced ic",
         "non-displaced ic", "ic non-displaced", "undisplaced #nof", "undisplaced nof",
         "#nof undisplaced", "nof undisplaced", "undisplaced intracapsular #",
         "intracapsular - undisplaced", "intracapsular (undisplaced)", "impacted",
         "impacted #nof"),
        ("intertrochanteric", "it", "it fracture", "it #", "#it", "# it",
         "inter-trochanteric", "intertroch", "inter-troch", "inter troch",
         "intertrochanteric #", "extracapsular it", "extracapsular intertrochanteric",
         "ec it", "pertrochanteric", "pertroch", "trochanteric", "it nof",
         "intertrochanteric fracture"),
        ("subtrochanteric", "sub-trochanteric", "sub trochanteric", "subtroch",
         "sub troch", "sub-troch", "subtroch #", "sub troch #", "st", "st #", "#st",
         "# st", "subtrochanteric #", "subtrochanteric fracture"))),
    # walk-through 102b's bone protection at discharge: calcium and vitamin D by its
    # brands, a treatment already taken, none started
    (("bone protection", "bisphosphonate", "osteoporosis treatment", "bone health",
      "anti-resorptive", "antiresorptive"), (
        ("calcium and vitamin d only", "calcium/vit d only", "calcium/vitamin d only",
         "calcium + vit d only", "ca/vit d only", "calcium & vit d only",
         "adcal-d3 only", "adcal d3 only", "accrete d3 only", "calcichew d3 only",
         "calcichew-d3 only", "calcichew d3 forte only", "adcal only", "calcium and vitamin d",
         "calcium/vit d", "calcium/vitamin d", "adcal-d3", "adcal d3", "accrete d3",
         "calcichew d3", "calcichew-d3", "calcichew d3 forte", "vit d and calcium only"),
        ("already on", "already on treatment", "already on bone protection",
         "already treated", "on treatment already", "already taking", "existing treatment",
         "already on tx"),
        ("none", "nil", "not started", "no", "none started", "not given", "no treatment",
         "none given"))),
    (("nerve block", "^block", "fascia iliaca", "^fib", "regional block"), (
        ("yes", "y", "given", "done", "fib", "ficb", "fascia iliaca block",
         "fascia iliaca", "fascia iliaca compartment block", "fib in ed", "fib in a&e",
         "peng", "peng block", "femoral nerve block", "fnb", "3 in 1 block", "block given"),
        ("no", "n", "none", "not given", "not done", "no block", "nil"))),
    # a myeloma's paraprotein (walk-through 73: "IgG K" beside "IgG kappa", four spellings
    # of a kappa light chain, "NSMM" beside "Non-secretory")
    (("paraprotein", "m-protein", "m protein", "mprotein", "isotype", "monoclonal protein",
      "heavy chain", "light chain", "myeloma type", "^mm type"), (
        *_ISOTYPES,
        ("kappa light chain", "lc kappa", "kappa lc", "bj kappa", "bence jones kappa",
         "light chain only - kappa", "light chain only kappa", "kappa light chain only",
         "light chain kappa", "kappa only", "lcmm kappa", "kappa lcmm", "free kappa",
         "kappa (light chain)", "lc κ", "κ light chain", "lc-kappa"),
        ("lambda light chain", "lc lambda", "lambda lc", "bj lambda", "bence jones lambda",
         "light chain only - lambda", "light chain only lambda", "lambda light chain only",
         "light chain lambda", "lambda only", "lcmm lambda", "lambda lcmm", "free lambda",
         "lambda (light chain)", "lc λ", "λ light chain", "lc-lambda"),
        ("non-secretory", "non secretory", "nonsecretory", "nsmm", "non-secreting",
         "non secreting", "non-secretory myeloma", "ns"))),
    # myeloma regimens by their letters or drug by drug (walk-through 73: "Bortezomib/
    # lenalidomide/dex" beside VRd, "Len/dex" beside Rd, "Carfilzomib-Len-Dex" beside KRd)
    (("regimen", "induction", "^chemo", "first line", "first-line", "1st line",
      "treatment"), (
        ("vrd", "rvd", "bortezomib/lenalidomide/dex", "bortezomib/lenalidomide/dexamethasone",
         "bortezomib lenalidomide dexamethasone", "bortezomib-lenalidomide-dexamethasone",
         "velcade/revlimid/dex", "velcade revlimid dex", "v-r-d", "bor/len/dex",
         "bortezomib, lenalidomide, dexamethasone", "len/bor/dex", "vel/rev/dex"),
        ("dara-vrd", "daravrd", "d-vrd", "dvrd", "dara vrd", "dara-rvd", "dara rvd", "drvd",
         "daratumumab-vrd", "daratumumab vrd", "daratumumab/bortezomib/lenalidomide/dex",
         "dara/vrd", "dara + vrd", "dara+vrd"),
        ("vtd", "bortezomib/thalidomide/dex", "bortezomib thalidomide dexamethasone",
         "velcade/thalidomide/dex", "v-t-d", "vtdex", "bor/thal/dex"),
        ("dara-vtd", "daravtd", "d-vtd", "dvtd", "dara vtd", "daratumumab-vtd",
         "dara/vtd", "dara + vtd", "dara+vtd"),
        ("cybord", "vcd", "cybor-d", "cyclophosphamide/bortezomib/dex",
         "cyclophosphamide bortezomib dexamethasone", "cy/bor/dex", "cyclo/bortez/dex",
         "bortezomib/cyclophosphamide/dex", "vcd (cybord)", "cybord (vcd)"),
        ("krd", "carfilzomib/lenalidomide/dex", "carfilzomib-len-dex", "carfilzomib/len/dex",
         "carfilzomib lenalidomide dexamethasone", "kyprolis/revlimid/dex", "k-r-d",
         "carf/len/dex"),
        ("rd", "len/dex", "lenalidomide/dex", "lenalidomide dexamethasone",
         "lenalidomide-dexamethasone", "lenalidomide/dexamethasone", "rev/dex",
         "revlimid/dex", "len-dex", "r-dex", "lendex"),
        ("drd", "dara-rd", "darard", "dara rd", "d-rd", "dara/len/dex", "dara-len-dex",
         "daratumumab/lenalidomide/dex", "daratumumab lenalidomide dexamethasone",
         "dara + rd", "dara+rd"),
        ("vmp", "bortezomib/melphalan/prednisone", "bortezomib melphalan prednisone",
         "velcade/melphalan/prednisone", "v-mp", "mpv"),
        ("dara-vmp", "daravmp", "d-vmp", "dvmp", "dara vmp", "dara/vmp", "dara + vmp"),
        ("vd", "bortezomib/dex", "bortezomib dexamethasone", "velcade/dex", "bor/dex",
         "bortezomib-dexamethasone"),
        ("mpt", "melphalan/prednisone/thalidomide", "melphalan prednisone thalidomide"))),
    # a myeloma's bone disease, yes or no (walk-through 73: "Yes - pathological # T12"
    # was read as Yes by its head, "pathological fracture" and "multiple" were answers)
    (("bone disease", "lytic", "bone lesion", "skeletal", "myeloma bone"), (
        ("yes", "y", "present", "lytic lesions", "lytic lesion", "lytics", "lytic",
         "multiple lytic lesions", "multiple lesions", "multiple", "osteolytic lesions",
         "osteolytic", "single lytic lesion", "solitary lesion", "pathological fracture",
         "path fracture", "pathological #", "path #", "pathological fractures",
         "vertebral collapse", "vertebral fracture", "lytic lesions + fracture"),
        ("no", "n", "none", "nil", "absent", "no lytic lesions", "no bone disease",
         "no lesions", "no lytic lesion"))),
    # multiple sclerosis' course (walk-through 85: "RRMS", "RR", "Relapsing remitting" and
    # "Relapsing-remitting MS" were four answers; a match on "RR" found 35 of 251
    # patients). A modifier ("SPMS - not active", "(active)") keeps its answer apart.
    (("phenotype", "ms type", "type of ms", "ms subtype", "ms course", "disease course",
      "clinical course", "ms category", "ms form"), (
        ("rrms", "rr", "rr ms", "relapsing remitting", "relapsing-remitting",
         "relapsing remitting ms", "relapsing-remitting ms",
         "relapsing remitting multiple sclerosis", "relapsing-remitting multiple sclerosis"),
        ("spms", "sp", "sp ms", "secondary progressive", "secondary-progressive",
         "secondary progressive ms", "secondary progressive multiple sclerosis"),
        ("ppms", "pp", "pp ms", "primary progressive", "primary-progressive",
         "primary progressive ms", "primary progressive multiple sclerosis"),
        ("prms", "progressive relapsing", "progressive-relapsing",
         "progressive relapsing ms"),
        ("cis", "clinically isolated syndrome"),
        ("ris", "radiologically isolated syndrome"))),
    # an epilepsy's type or syndrome in the ILAE's words and their older ones (walk-
    # through 86: "generalised", "generalized", "GGE", "IGE", "idiopathic generalised"; 35
    # answers left the column out as free text). Kinds stay apart: a temporal lobe
    # epilepsy is not merged into focal, nor juvenile myoclonic into generalised.
    (("epilepsy type", "epilepsy syndrome", "type of epilepsy", "epilepsy classification",
      "epilepsy class", "seizure type", "epilepsy dx", "epilepsy diagnosis"), (
        ("focal", "focal epilepsy", "focal onset", "focal onset epilepsy", "partial",
         "partial epilepsy", "localisation-related", "localization-related",
         "localisation related", "localization related"),
        ("generalised", "generalized", "generalised epilepsy", "generalized epilepsy",
         "gge", "ige", "idiopathic generalised", "idiopathic generalized",
         "idiopathic generalised epilepsy", "idiopathic generalized epilepsy",
         "genetic generalised", "genetic generalized", "genetic generalised epilepsy",
         "genetic generalized epilepsy", "generalised (ige)", "generalized (ige)",
         "generalised (gge)", "generalized (gge)", "generalised onset",
         "generalized onset"),
        ("tle", "temporal lobe", "temporal lobe epilepsy", "temporal"),
        ("mtle", "mesial tle", "mesial temporal lobe epilepsy", "mesial temporal"),
        ("fle", "frontal lobe", "frontal lobe epilepsy", "frontal"),
        ("ole", "occipital lobe", "occipital lobe epilepsy"),
        ("ple", "parietal lobe", "parietal lobe epilepsy"),
        ("jme", "juvenile myoclonic", "juvenile myoclonic epilepsy", "gge - jme",
         "jme (gge)", "gge (jme)", "ige - jme", "jme (ige)"),
        ("cae", "childhood absence", "childhood absence epilepsy"),
        ("jae", "juvenile absence", "juvenile absence epilepsy"),
        ("combined", "combined focal & generalised", "combined focal and generalised",
         "combined focal & generalized", "combined focal and generalized",
         "combined generalised and focal", "combined generalized and focal"),
        ("unknown onset", "unknown", "unclassified", "not yet classified",
         "unknown type", "undetermined", "not classified"),
        ("lgs", "lennox-gastaut", "lennox gastaut", "lennox-gastaut syndrome",
         "lennox gastaut syndrome"),
        ("dee", "developmental and epileptic encephalopathy", "epileptic encephalopathy",
         "developmental epileptic encephalopathy"))),
    # an imaging report's normal and its commonest findings, per side (walk-through 86:
    # "normal 3T", "Normal", "unremarkable" and "NAD" were four answers of 180 scans;
    # "L HS", "Left HS", "HS left", "hippocampal sclerosis (L)" four of one finding)
    (("mri", "imaging", "ct head", "ct brain", "neuroimaging", "scan"), (
        ("normal", "normal 3t", "normal 1.5t", "unremarkable", "nad", "no abnormality",
         "no abnormality detected", "normal mri", "normal scan", "normal study",
         "no structural abnormality", "no significant abnormality", "wnl",
         "within normal limits", "nothing abnormal detected"),
        ("left hs", "l hs", "hs left", "hs (l)", "hs l", "left hippocampal sclerosis",
         "hippocampal sclerosis (l)", "hippocampal sclerosis (left)",
         "hippocampal sclerosis left", "left mesial temporal sclerosis", "left mts",
         "l mts", "mts left", "mts (l)"),
        ("right hs", "r hs", "hs right", "hs (r)", "hs r", "right hippocampal sclerosis",
         "hippocampal sclerosis (r)", "hippocampal sclerosis (right)",
         "hippocampal sclerosis right", "right mesial temporal sclerosis", "right mts",
         "r mts", "mts right", "mts (r)"),
        ("fcd", "focal cortical dysplasia", "cortical dysplasia"),
        ("cavernoma", "cavernous malformation", "cavernous angioma",
         "cerebral cavernous malformation"),
        ("pmg", "polymicrogyria"),
        ("non-specific white matter change", "nonspecific wm changes",
         "non-specific white matter changes", "nonspecific white matter change",
         "nonspecific white matter changes", "non-specific wm changes",
         "white matter changes", "wm changes"))),
    # an EEG's normal and its generalised discharges (walk-through 86: "NAD", "Normal",
    # "normal (sleep-deprived)", "normal x2"; "GSW 3Hz", "3Hz GSW", "gen SW")
    (("eeg",), (
        ("normal", "nad", "normal eeg", "no abnormality", "unremarkable", "wnl",
         "within normal limits", "normal x2", "normal (sleep-deprived)",
         "normal (sleep deprived)", "normal sleep-deprived", "normal sleep deprived",
         "normal routine", "normal (routine)"),
        ("generalised spike-wave", "generalized spike-wave", "generalised spike and wave",
         "generalized spike and wave", "generalised spike wave", "generalized spike wave",
         "gsw", "gen sw", "gen spike-wave", "gen spike wave", "gsw 3hz", "3hz gsw",
         "3 hz gsw", "gsw 3 hz", "3hz spike-wave", "3 hz spike-wave", "3hz spike and wave",
         "3 hz spike and wave", "generalised 3hz spike-wave", "generalized 3hz spike-wave"),
        ("generalised polyspike", "generalized polyspike", "generalised polyspike-wave",
         "generalized polyspike-wave", "gpsw", "polyspike-wave", "polyspike wave",
         "generalised polyspike and wave", "generalized polyspike and wave"))),
    # cerebrospinal fluid oligoclonal bands by their pattern (walk-through 85: "Type 2
    # pattern" beside Positive): types 2 and 3 (bands in the CSF only) are positive for
    # intrathecal synthesis; types 1 (none) and 4 (matched, "mirror") are not
    (("oligoclonal", "ocb", "csf bands", "csf ob"), (
        ("positive", "pos", "+ve", "present", "type 2", "type 2 pattern", "pattern 2",
         "type ii", "type 3", "type 3 pattern", "pattern 3", "type iii", "csf restricted",
         "csf-restricted bands", "csf restricted bands", "csf specific bands",
         "unmatched bands", "intrathecal synthesis"),
        ("negative", "neg", "-ve", "absent", "type 1", "type 1 pattern", "pattern 1",
         "type i", "type 4", "type 4 pattern", "pattern 4", "type iv", "matched bands",
         "matched bands (type 4)", "mirror pattern", "mirror bands", "identical bands",
         "no bands", "no csf-restricted bands"))),
    # a line of treatment by its number or as an ordinal (walk-through 85: "1", "1st line"
    # and "first line" were three answers of its treatment line)
    (("treatment line", "line of treatment", "line of therapy", "therapy line",
      "lines of therapy", "dmt line"), tuple(
        (str(n), f"{o} line", f"{w} line", f"{o}-line", f"{w}-line", f"{o}line",
         f"{w}line", f"line {n}", f"{n}l", f"{o}", f"{w}")
        for n, o, w in ((1, "1st", "first"), (2, "2nd", "second"), (3, "3rd", "third"),
                        (4, "4th", "fourth"), (5, "5th", "fifth")))),
    # walk-through 87's anticoagulant column: "declined", "none - declined" and "pt
    # declined OAC" are one answer (a patient with an indication who said no), apart from
    # "none" (no indication given)
    (("anticoag", "^oac", "^doac", "^noac", "antithrombotic", "blood thinner"), (
        tuple(f"{w}{d}{t}" for w in ("", "pt", "patient", "none-", "none(", "no-", "no(",
                                     "offered-", "offered,", "offeredbut")
              for d in ("declined", "refused")
              for t in ("", ")", "oac", "doac", "noac", "anticoagulation",
                        "anticoagulant", "anticoagulants", "treatment")),)),
    # walk-through 95's menopausal status: "Post" (97), "Postmenopausal" and
    # "post-menopausal" were three answers
    (("menopaus", "menstrual status"), (
        ("premenopausal", "pre", "premenopause", "premenopausal woman", "premeno"),
        ("perimenopausal", "peri", "perimenopause", "perimeno"),
        ("postmenopausal", "post", "postmenopause", "postmeno"))),
    # walk-through 100's kidney transplant register: a donor's type written 15 ways for
    # five (after brain-stem death, after circulatory death, living related, living
    # unrelated, living in a paired exchange)
    (("donor type", "type of donor", "donor category", "donor source"), (
        ("dbd", "hbd", "brain stem death", "brainstem death", "brain death",
         "deceased (dbd)", "dbd donor", "heart beating", "heart beating donor",
         "deceased heart beating", "donation after brain death",
         "donation after brainstem death", "deceased - dbd", "cadaveric (dbd)"),
        ("dcd", "nhbd", "non heart beating", "non-heart beating", "non heart beating donor",
         "deceased (dcd)", "dcd (maastricht iii)", "dcd maastricht iii", "maastricht iii",
         "maastricht 3", "controlled dcd", "dcd donor", "donation after circulatory death",
         "donation after cardiac death", "deceased - dcd"),
        ("lrd", "living related", "living related donor", "ld (related)",
         "live related", "ld - related"),
        ("lurd", "living unrelated", "living unrelated donor", "ld (unrelated)",
         "live unrelated", "ld - unrelated"),
        ("ld (paired exchange)", "paired exchange", "paired", "ld paired exchange",
         "kidney sharing scheme", "lkss", "pooled", "paired pooled"),
        ("ld", "living", "living donor", "live donor", "live"))),
    # ... and its recipients' primary renal disease, 47 answers for some 20 diseases
    (("renal disease", "primary renal", "cause of eskd", "cause of esrd", "cause of ckd",
      "cause of renal failure", "renal diagnosis", "prd", "esrd cause", "eskd cause",
      "aetiology of ckd", "etiology of ckd"), (
        ("iga nephropathy", "igan", "iga", "iga gn", "iga nephropathy (biopsy proven)",
         "berger's disease", "bergers disease", "berger disease", "iga nephritis"),
        ("diabetic nephropathy", "dn", "dm nephropathy", "diabetic kidney disease", "dkd",
         "t2dm nephropathy", "t1dm nephropathy", "diabetes", "diabetic"),
        ("adpkd", "pkd", "apkd", "polycystic kidney disease", "polycystic kidneys",
         "polycystic"),
        ("fsgs", "focal segmental glomerulosclerosis", "fsgs (primary)", "primary fsgs"),
        ("alport syndrome", "alport's", "alports", "alport", "alport's syndrome"),
        ("anca vasculitis", "vasculitis", "gpa (wegener's)", "gpa", "wegener's",
         "anca associated vasculitis", "anca-associated vasculitis"),
        ("lupus nephritis", "sle", "lupus", "sle nephritis"),
        ("unknown", "not known", "esrd unknown cause", "eskd unknown cause",
         "ckd unknown aetiology", "unknown aetiology", "unknown cause",
         "unknown etiology", "ckd unknown cause"))),
    # ... and their dialysis before it, by modality
    (("dialysis", "rrt", "renal replacement", "modality"), (
        ("hd", "haemodialysis", "hemodialysis", "ihd", "in-centre hd", "in centre hd",
         "hospital hd"),
        # not CAPD and APD: a dialysis unit tells them apart (walk-through 56)
        ("pd", "peritoneal dialysis", "peritoneal"),
        ("pre-emptive", "preemptive", "pre emptive", "nil - pre-emptive",
         "none - pre-emptive", "nil pre-emptive", "pre-emptive transplant",
         "preemptive transplant", "not on dialysis", "no dialysis", "nil (pre-emptive)"))),
    # its graft function: "Immediate function" is no delayed graft function
    (("dgf", "delayed graft function", "graft function"), (
        ("no", "n", "immediate function", "primary function", "igf", "good function",
         "no dgf", "functioned immediately", "immediate", "primary"),
        ("yes", "y", "dgf", "delayed function", "delayed graft function"))),
    # an intensive care unit's sepsis by its source (walk-through 101: 23 answers for six
    # sources, 267 of 452 patients apart from the others of their source)
    (("source of sepsis", "sepsis source", "source of infection", "infection source",
      "suspected source", "focus of infection", "infective focus", "septic source"), (
        ("chest", "respiratory", "resp", "lrti", "pneumonia", "cap", "hap", "vap", "lung",
         "chest infection", "community acquired pneumonia", "hospital acquired pneumonia",
         "lower respiratory tract infection", "respiratory tract"),
        ("urinary", "urine", "uti", "urosepsis", "urinary tract", "urinary tract infection",
         "pyelonephritis", "genitourinary", "gu", "renal tract"),
        ("abdominal", "abdo", "intra-abdominal", "intraabdominal", "peritonitis",
         "intra abdominal", "abdominal sepsis", "gi", "gastrointestinal"),
        ("line", "line infection", "crbsi", "clabsi", "line sepsis", "catheter related",
         "catheter-related", "cvc", "cvc infection", "central line"),
        ("skin/soft tissue", "ssti", "soft tissue", "skin", "cellulitis",
         "skin and soft tissue", "skin & soft tissue", "skin/soft tissue infection"),
        ("unclear source", "unknown", "unclear", "no source found", "source unclear",
         "source not identified", "no clear source", "unknown source", "source unknown"))),
    # ... and where its patients were admitted from
    (("admission source", "source of admission", "admitted from", "referral source",
      "admission from", "location before icu", "source of referral"), (
        ("ed", "emergency department", "emergency dept", "a&e", "a & e", "ae",
         "emergency", "er", "casualty", "emergency room"),
        ("ward", "floor", "general ward", "inpatient ward", "ward transfer"),
        ("theatres", "theatre", "or", "operating room", "operating theatre", "post-op",
         "postop", "post op", "recovery", "pacu", "theatre/recovery", "surgery",
         "elective surgery", "emergency surgery"),
        ("other hospital", "transfer", "inter-hospital transfer", "interhospital transfer",
         "oht", "external transfer", "another hospital", "tertiary transfer",
         "transfer in", "external"))),
    # a viraemia or a PCR's result: "not detected" is its no, "detected" its yes
    (("viraemia", "viremia", "bkv", "bk virus", "pcr", "viral dna"), (
        ("no", "negative", "neg", "-ve", "not detected", "undetected", "undetectable",
         "nil", "none detected", "target not detected"),
        ("yes", "positive", "pos", "+ve", "detected", "target detected"))),
    # a donor's and a recipient's serostatus: "D+/R-", "D+ R-", "D+R-", "D+ve/R-ve"
    (("d/r", "donor/recipient", "serostatus", "sero status"), tuple(
        tuple(f.format(a=a, b=b, av=av, bv=bv) for f in (
            "d{a}/r{b}", "d{a}r{b}", "d{a} r{b}", "d{a} / r{b}", "d{a}, r{b}", "d{av}/r{bv}",
            "d{av} r{bv}", "d{av}r{bv}", "d {a} / r {b}", "d{a} / r{b}"))
        for a, b in (("+", "-"), ("+", "+"), ("-", "+"), ("-", "-"))
        for av, bv in [(a + "ve", b + "ve")])),
    # in every column: "UNK" is "Unknown" abbreviated, too short for the stem rule
    (("",), (("unknown", "unk", "notknown"),
             # walk-through 48's CKD stage: "N", "No" and "None" for one answer; walk-
             # through 50's known conditions "nil PMH", "No PMH"
             ("no", "none", "nil", "n", "nilpmh", "nopmh", "nopastmedicalhistory",
              "nosignificantpmh",
              # walk-through 85's spinal cord lesions "none seen" beside No
              "none seen", "not seen", "nil seen"))),
)


# every answer as its loose key, the form an answer is compared in ("elective surgery",
# "resp.failure" and "-ve" were written otherwise and never matched)
SYNONYMS = tuple((words, tuple(tuple(dict.fromkeys(loose_key(w) for w in g)) for g in groups))
                 for words, groups in SYNONYMS)


#: An export's code before an answer: "1 - ", "2: ", "3) ", and a letter's ("A - White
#: British", an NHS ethnic category: walk-through 96), not "a-fib" nor "a.fib".
EXPORT_CODE = re.compile(r"^\s*(?:\d{1,2}\s*[-–:.)]\s*(?=[a-z])|"
                         # a letter's before a word, not "D- R+" (walk-through 100)
                         r"[a-z]\s*[-–:)]\s\s*(?=[a-z]{3}))")
#: A measured viral load: a number with its unit ("3.2 log", "1,200 copies/mL", "450 IU/ml").
_VIRAL_LOAD = re.compile(r"\d(?:[\d,.]*\d)?\s*(?:log|copies|cp\s*/\s*ml|iu\s*/\s*ml)\b",
                         re.IGNORECASE)
#: ... below what is detected or quantified: no detected virus.
_BELOW_DETECTION = re.compile(r"[<≤]|\bbelow\b|\bless than\b|\bunder\b|undetect|"
                              r"not\s*detect|\btnd\b|\bldl\b", re.IGNORECASE)
#: A smoking column's name.
_SMOKING_NAME = re.compile(r"smok|tobacco|cigar", re.IGNORECASE)
_NEVER_SMOKED = re.compile(r"^(?:never|non[-\s]*smok|lifelong\s*non|not\s*a\s*smoker|"
                           r"no\s*smok|has\s*never)")
_FORMER_SMOKER = re.compile(r"^(?:ex|former(?:ly)?|past|previous(?:ly)?|quit|stopped|gave\s*up|"
                            r"given\s*up)(?:[-\s]*smok(?:er|ing))?(?![a-z])|"
                            r"\b(?:quit|stopped|gave\s*up|given\s*up)\b")
_CURRENT_SMOKER = re.compile(r"^(?:current(?:ly)?|smoker|smokes|smoking|active|yes|y)"
                             r"(?:[-\s]*smok(?:er|ing))?(?![a-z])")


def smoking_column(column: str | None) -> bool:
    """Whether a column is named for smoking ("Smoking", "Tobacco use", "Cigarettes")."""
    return bool(column and _SMOKING_NAME.search(str(column)))


def smoking_status(key: str) -> str | None:
    """The smoking status an answer (a normalised key) gives with its detail: "never",
    "former" or "current" (the words of :data:`SYNONYMS`' groups), or ``None``.

    Examples
    --------
    >>> [smoking_status(k) for k in ["ex-smoker, quit 2018", "former (stopped 2019)",
    ...                              "yes 20/day", "smoker - 10/day", "never smoked",
    ...                              "non smoker since 1990", "vape", "smoker, quit 2001"]]
    ['former', 'former', 'current', 'current', 'never', 'never', None, 'former']
    """
    k = str(key).strip().lower()
    # in this order: "non smoker since 1990" is never, "smoker, quit 2001" former
    return next((status for pattern, status in ((_NEVER_SMOKED, "never"),
                                                (_FORMER_SMOKER, "former"),
                                                (_CURRENT_SMOKER, "current"))
                 if pattern.search(k)), None)


def synonym_groups(column: str | None) -> list[tuple[str, ...]]:
    """The groups of :data:`SYNONYMS` for a column, by its name (those of every column
    only, without one)."""
    return list(_synonym_groups(str(column) if column else ""))


@functools.lru_cache(maxsize=4096)  # per column name: asked for every answer shown (a
# 449-patient table's preview asked it 6 s long, walk-through 97)
def _synonym_groups(column: str) -> tuple[tuple[str, ...], ...]:
    name = norm_key(column) if column else ""
    return tuple(g for words, gs in SYNONYMS for g in gs if any(
        re.search(r"(?<![a-z0-9])" + re.escape(w[1:]), name) if w.startswith("^")
        else re.fullmatch(w[1:], name) is not None if w.startswith("=")
        else w in name for w in words))


#: Answers saying an offered treatment was not taken.
DECLINED_WORDS = frozenset({"declined", "refused", "patient declined", "patient refused"})
#: Names of a column holding a test's result or a status, where "declined" says the test
#: was not done (a gap), not a no.
_RESULT_NAME = re.compile(r"test|result|status|screen|serolog|swab|culture|level|\bhiv\b|"
                          r"hbsag|hcv|antibod|antigen|scan|biopsy", re.IGNORECASE)
#: Answers saying a test was not done, in a column of its results: a gap, not a result
#: (walk-through 61's blood culture "not taken", 141 patients made alike for it).
_NOT_TAKEN = frozenset({"nottaken", "samplenottaken", "notobtained", "notcollected",
                        "notchecked", "notperformed", "notsentoff", "nosample",
                        "noculturetaken", "notaken", "notindicated"})


def not_taken_levels(levels: list[str], column: str | None) -> list[str]:
    """A test's answers that say it was not done ("not taken", "not checked"), in a
    column named for a test or its result (a culture, a swab, a screen); ``[]`` in
    another column, where "not taken" may say a drug is not taken (a no).

    Examples
    --------
    >>> not_taken_levels(["No growth", "Not taken", "E. coli"], "Blood culture")
    ['Not taken']
    >>> not_taken_levels(["Yes", "not taken"], "Aspirin")
    []
    """
    if not column or not _RESULT_NAME.search(str(column)):
        return []
    return [lv for lv in levels if loose_key(norm_key(lv)) in _NOT_TAKEN]


#: :data:`_NOT_TAKEN` as a cell's normalised key writes them (spaces kept).
NOT_TAKEN_WRITTEN = frozenset({"not taken", "sample not taken", "not obtained",
                                "not collected", "not checked", "not performed",
                                "not sent off", "no sample", "no culture taken",
                                "not indicated"})
#: Cells saying a measurement was not needed or not done, gaps in a column of numbers
#: whatever its name (walk-through 96's carotid stenosis "not indicated"); in a column
#: of answers "not required" may be the answer (an interpreter), so only there.
NOT_MEASURED_WRITTEN = NOT_TAKEN_WRITTEN | frozenset({*NOT_NEEDED_WRITTEN, "not requested"})


def not_taken_keys(column: str | None) -> frozenset[str]:
    """The normalised cells saying a test was not done ("not taken"), as gaps of a column
    named for a test or its result (:func:`not_taken_levels`), for the share of its cells
    that are numbers: walk-through 86's lamotrigine level, 73 "not taken" beside 67
    numbers, was left out as free text. Empty for another column.

    Examples
    --------
    >>> sorted(not_taken_keys("Lamotrigine level"))[:2], not_taken_keys("Aspirin")
    (['no culture taken', 'no sample'], frozenset())
    """
    if not column or not _RESULT_NAME.search(str(column)):
        return frozenset()
    return NOT_TAKEN_WRITTEN


#: The No code of the yes/no scale.
YES_NO_NO = next(code for code, words in SCALES["yes/no"] if "no" in words)


#: A column of a programme a patient is to attend: rehabilitation, a course, classes.
_PROGRAMME_NAME = re.compile(r"rehab|programme|program\b|course|attend|sessions|"
                             r"education|\bclass(?:es)?\b|exercise", re.IGNORECASE)
#: Words saying the patient did not attend: a gap of a test's visit, an answer of a
#: programme's column.
_ATTENDANCE_WORDS = frozenset({"dna", "did not attend", "not attended", "didnotattend"})


def infer_levels(text: pd.Series, missing_keys=DEFAULT_MISSING_TOKENS
                 ) -> tuple[dict[str, int], bool, str | None]:
    """Levels and codes of a text column that is not in the encoding table.

    Parameters
    ----------
    text : pandas.Series
        The column's cells.
    missing_keys : set of str
        Normalised missing tokens of the column.

    Returns
    -------
    levels : dict
        ``{level: code}``. Levels that fit one recognised scale are coded by rank on it
        (:data:`sparge.data.tables.SCALES`); columns with a yes and a no level read Yes 1,
        No 2, Unknown 0, other levels from 3; other columns are coded 1, 2, ... in natural order
        (numbers numerically). A word that is also a missing token (``None``, ``Unknown``)
        is a level when it fits the column's scale, or, in a column without a scale, when
        it fills at least 1 % of the cells (and 2 cells); otherwise it is missing.
        ``Unknown`` in a yes/no column (the paper's code 0) needs that share too: a rare
        "unknown" is a gap there as in every other column (GBSG2's 4 of 686).
    ordered : bool
        True when the codes follow a recognised scale (yes/no included) or the levels'
        own numbers (:func:`numbered_levels`).
    scale : str or None
        Name of the scale.
    """
    spelled, counts = spellings(text)
    values = {k for k in spelled if k not in missing_keys}
    # ... and not attending, in a column of a programme the patient was to attend
    # (walk-through 103's pulmonary rehabilitation "DNA", 50 patients, read as gaps)
    answers = CATEGORY_WORDS | (_ATTENDANCE_WORDS if _PROGRAMME_NAME.search(
        str(text.name or "")[:80]) else frozenset())
    words = sorted(k for k in spelled if k in missing_keys and k in answers)
    scale = scale_of(values, text.name) if values else None
    common = min_category_count(len(text))
    # "UNK" and "Unknown" count together: both are answers, or both are gaps
    unknown = sum(counts[w] for w in words if w in UNKNOWN_WORDS)
    if scale is not None:
        values |= {w for w in words if scale_of(values | {w}, text.name) is not None
                   and (w not in UNKNOWN_WORDS or unknown >= common)}
        scale = scale_of(values, text.name)
    else:
        values |= {w for w in words
                   if (unknown if w in UNKNOWN_WORDS else counts[w]) >= common}
        scale = scale_of(values, text.name) if values else None
    levels = [spelled[k] for k in values]
    if scale == "yes/no" and not _RESULT_NAME.search(str(text.name or "")):
        # a treatment declined was not given: a no (walk-through 43's epidural "declined"
        # x 58 read as a gap left 31 mothers out of training), not in a test's column
        declined = [w for w in words if w in DECLINED_WORDS and counts[w] >= common]
        if declined:
            codes = scale_codes(levels, scale)
            return {**codes, **{spelled[w]: YES_NO_NO for w in declined}}, True, scale
    if scale is not None:
        return scale_codes(levels, scale), True, scale
    yn = yes_no_codes(levels)
    if yn is not None:
        return yn, False, None
    staged = staged_order(levels, text.name)
    if staged is not None:
        return {lv: i + 1 for i, lv in enumerate(staged)}, True, None
    ordered_levels = sorted(levels, key=natural_key)
    # ICD-10 groups ("F20 (…)", "F31 (…)") are numbered, and follow no order
    return ({lv: i + 1 for i, lv in enumerate(ordered_levels)},
            numbered_levels(levels) and icd_source(str(text.name or "")) is None, None)


#: Answers saying a stage column's condition is absent: before its first stage.
_NO_STAGE = frozenset({"no", "none", "nil", "n", "nockd", "nodisease", "absent"})


def staged_order(levels: list[str], column: object) -> list[str] | None:
    """The levels of a stage or grade column in the order of their stages, when every
    level is a stage's number (with a sub-stage letter, after a stage word, a letter or a
    word of the column's name: "Stage 3", "G3a", "CKD 4") or says the condition is absent
    ("No", "None": first); ``None`` otherwise. Walk-through 48's CKD stage, merged, kept
    "No" and "Stage 3" beside "3a" … "5" and was left unordered.

    Examples
    --------
    >>> staged_order(["3b", "No", "Stage 3", "4", "3a"], "CKD stage")
    ['No', 'Stage 3', '3a', '3b', '4']
    >>> staged_order(["3b", "No", "4"], "Ward"), staged_order(["No", "Yes", "3"], "Stage")
    (None, None)
    """
    name = norm_key(column) if column is not None else ""
    if not _STAGED_COLUMN.search(name) or len(levels) < 3:
        return None
    allowed = _STAGE_WORDS | set(re.findall(r"[a-z]+", name))
    absent = [lv for lv in levels if loose_key(norm_key(lv)) in _NO_STAGE]
    staged: dict[str, tuple[float, str]] = {}
    for lv in levels:
        if lv in absent:
            continue
        m = _NUMBERED.fullmatch(str(lv).strip())
        prefix = norm_key(m.group(1) or "") if m else None
        if m is None or not (prefix == "" or len(prefix) == 1 or prefix in allowed):
            return None
        staged[lv] = (float(m.group(2)), (m.group(3) or "").lower())
    if len(staged) < 2 or len(set(staged.values())) != len(staged) or len(absent) > 1:
        return None
    return absent + sorted(staged, key=staged.get)


#: A level that starts with its number ("0 - fully active", "Grade 2", "Stage 3b").
_NUMBERED = re.compile(r"^\s*([A-Za-z]+\s*)?([-+]?\d+(?:\.\d+)?)([a-cA-C](?![A-Za-z]))?"
                       r"(?![\d.])")


def numbered_levels(levels: list[str]) -> bool:
    """Whether every level starts with a different number, after one shared word or none.

    Such levels ("0 - fully active", "1 - restricted", ...; "Grade 1", "Grade 2") are
    ordered by that number, the order the natural sort already gives them: a form's scale,
    not names.

    Examples
    --------
    >>> numbered_levels(["0 - fully active", "1 - restricted", "2 - ambulatory"])
    True
    >>> numbered_levels(["Grade 1", "Grade 2"]), numbered_levels(["Male", "Female"])
    (True, False)
    >>> numbered_levels(["1", "2", "3a", "3b", "4"])
    True
    """
    if len(levels) < 2:
        return False
    found = [_NUMBERED.match(str(lv)) for lv in levels]
    if not all(found):
        return False
    prefixes = {norm_key(m.group(1) or "") for m in found}
    # a sub-stage letter makes another level: "3a" and "3b" (walk-through 23)
    numbers = [(float(m.group(2)), (m.group(3) or "").lower()) for m in found]
    return len(prefixes) == 1 and len(set(numbers)) == len(numbers)


#: A column of the patients' sex, by its name.
_SEX_NAME = re.compile(r"\b(?:sex|gender)\b", re.IGNORECASE)


def _shown_rank(word: str) -> tuple[bool, bool, bool, bool, bool, bool, bool, int, bool,
                                     bool]:
    """Which spelling of an answer is shown: more than one character or a digit ("WHITE",
    not the "W" merged into it: walk-through 27's legend named 405 patients "W"), then not
    shouted (a word of more than four letters in capitals: "ISCHAEMIC" beside "Ischemic" in
    walk-through 21), then "yes" or "no",
    then not a site with "ca" after it ("Breast", not "Breast ca", walk-through 25), then
    not a drug's brand or dose ("Apixaban", not "Apixaban 5mg bd" or "Eliquis":
    walk-through 40), then without a note in brackets ("Decile 6", not "6 (most
    deprived=1)": walk-through 48 read every decile as the most deprived), then the
    longest, then one in title case ("Low", not "LOW" or "low"), then one with a capital
    ("TIA", not "tia")."""
    shouted = _shouted(word)
    # "Yes" and "No" before "True" and "False" (walk-through 23's yes/Y/1/true column)
    # a single digit is a whole answer ("1", not the "1 (last 2021)" merged into it:
    # walk-through 52's merge wrote the note on 97 patients who had none)
    return (len(word.strip()) > 1 or word.strip().isdigit(), not shouted,
            word.strip().lower() in ("yes", "no"),
            site_of(word.strip().lower()) is None, not brand_or_dose(word),
            # "TIA", not "T.I.A." (walk-through 96's 255 patients)
            "(" not in word, not re.search(r"[A-Za-z]\.[A-Za-z]", word), len(word),
            # "Low", not "LOW" or "low" (walk-through 53); "CTO", not "cto"
            word[:1].isupper() and not word.isupper(), any(c.isupper() for c in word))


#: Spellings of a yes or a no that say nothing more.
_BOOLEAN_WORDS = frozenset({"yes", "no", "y", "n", "true", "false", "t", "f", "1", "0",
                            "yes.", "no.", "positive", "negative", "pos", "neg", "+", "-"})

#: Every recognised scale's words (not "unknown" and its short forms).
_SCALE_WORDS_ALL = frozenset(w for ranks in SCALES.values() for _, ws in ranks for w in ws
                             if w not in UNKNOWN_WORDS and re.fullmatch(r"[a-z ]+", w))
#: A note in brackets: "(last 2021)", "[see plan]".
_BRACKET_NOTE = re.compile(r"\s{0,3}[(\[][^()\[\]]{0,60}[)\]]")
_ROMAN_WORD = re.compile(r"(?<![\w'])(i{1,3}|iv|vi{0,3}|ix|x)(?![\w'])")
#: Clinical initials written in lower case, shown in capitals ("tia" showed as "Tia"):
#: only those that are no English word or title ("arm" for an amniotomy, "pad", "mrs",
#: "ms", "pe" stay).
_INITIALS = frozenset({
    "tia", "copd", "ckd", "aki", "af", "mi", "dvt", "hiv", "cva", "ihd", "cabg",
    "pci", "stemi", "nstemi", "ards", "icu", "hdu", "nicu", "scbu", "nnu", "ecg", "mri",
    "ct", "lscs", "emcs", "elcs", "svd", "nvd", "iol", "pph", "uti", "gord", "ibd", "ibs",
    "sle", "hfref", "hfpef", "ccf", "lvf", "niv", "cpap", "ltot", "ics", "laba", "lama",
    "saba", "sama", "ocs", "nsaid", "ssri", "ace", "arb", "ppi", "dka", "hhs", "pvd",
    "tb", "mrsa", "cdiff", "ptsd", "adhd", "ocd", "gad", "bpd", "ptca", "ecmo", "gcs",
    "nihss", "nyha", "bmi", "bp", "hr", "rr"})
#: ... and those written in mixed case (walk-through 46 read "HFREF" and "MMRC 2").
_MIXED_INITIALS = {"hfref": "HFrEF", "hfpef": "HFpEF", "hfmref": "HFmrEF", "mmrc": "mMRC",
                   "egfr": "eGFR", "hba1c": "HbA1c", "hf": "HF"}
_INITIALS_WORD = re.compile(r"(?<![\w'])(" + "|".join(sorted(
    _INITIALS | set(_MIXED_INITIALS), key=len, reverse=True)) + r")(?![\w'])")


#: A year written in an answer: "Stroke 2017", "MI (2015)".
_A_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: A Roman numeral written as a word of its own ("III" in "NYHA III").
_ROMAN_TOKEN = re.compile(r"(?<![A-Za-z])(?:I{1,3}|IV|VI{0,3}|IX|X)[A-Ca-c]?(?![A-Za-z])")
#: A Roman numeral with its sub-stage letter ("iiib", "IIIb"), in a cancer's stage shown
#: in capitals ("IIIB"; walk-through 95 showed "IIA" as "Iia").
_SUBSTAGE_WORD = re.compile(r"(?<![A-Za-z'])((?:i{1,3}|iv|I{1,3}|IV)[abcABC])(?![\w'])")


#: Scales whose ranks are numbered grades, shown by their number.
_GRADED_SCALES = frozenset({"goitre grade", "ti-rads"})
#: Scales whose grades are shown by their own names (the first spelling of each grade),
#: whatever spellings a file merges into them (walk-through 102b read bedbound patients
#: as "Wheelchair" and "2 sticks" as "Frame"): the NHFD's pre-fracture mobility.
_GRADE_NAMES = {scale: {code: words[0][:1].upper() + words[0][1:]
                        for code, words in SCALES[scale]} for scale in ("mobility",)}
#: An ASA grade written with the "E" of an emergency operation: "2E", "ASA III E", "3(E)".
ASA_EMERGENCY = re.compile(r"(?i)(?:\d|\b[ivx]+)\s*[-(]?\s*e\)?\s*$")


def shown_answer(spellings: list[str], column: str | None = None) -> str:
    """The one word shown for an answer written several ways (the spellings sharing a
    code): the best by :func:`_shown_rank` (the first written of equals), its first letter
    a capital and a Roman numeral in capitals ("iii" showed as "Iii", "nyha iv" as "Nyha
    iv" in walk-through 21). The Data page's merge message names this word too.

    With the ``column`` named, spellings of one of its groups of :data:`SYNONYMS` are
    shown by the group's own first word among them: walk-through 44's emergency
    caesareans (Cat 1, 2 and 3 CS, Em LSCS, EMCS) all showed as "Cat 1 CS", every
    neonatal admission as "SCBU" and every transfusion as "Yes - 2 units"."""
    words = [str(w) for w in spellings]
    scale = scale_of(words, column) if words else None
    if scale in _GRADE_NAMES and len(set(scale_codes(words, scale).values())) == 1:
        return _GRADE_NAMES[scale][scale_codes(words, scale)[words[0]]]
    own = _condition_names(column)
    # a condition's yes merged with its types and treatments is shown as the yes
    # (walk-through 57: a diabetes' Yes with T2DM, type 2 and T1DM showed every diabetic
    # as "Type 2")
    yes = [w for w in words if w.strip().lower() in ("yes", "y")]
    if yes and len(words) > len(yes):
        kinds = {k for n in own for k in CONDITION_KINDS.get(n, ())}
        if any(loose_key(norm_key(w)) in kinds or names_class_drug(norm_key(w), own)
               for w in words):
            words = yes
    # ... and a yes merged with a yes and its note ("yes - chemo"): walk-through 101's
    # merge showed every "Y" as "Yes - chemo"
    if yes and all(w in yes or (note_head(norm_key(w)) or "") in ("yes", "y")
                   for w in words):
        words = yes
    # ... and a yes merged with two or more kinds: walk-through 95's radiotherapy "Yes"
    # merged with "chest wall RT" and "RT to breast" named 63 patients written "Yes"
    # "Chest wall RT" (one kind beside a yes, a smoking's "Current", still names it)
    # ... the column's own condition named ("PET" in a pre-eclampsia column) being a yes
    # too: walk-through 99's "yes", "PET", "mild PET" and "Yes - severe PET" showed as
    # "Mild PET"
    others = {loose_key(norm_key(w)) for w in words if w not in yes
              and not (own and names_condition(norm_key(w), own))}
    if yes and len(others) >= 2 and not any(result_sign(w, column) for w in words) and \
            not any(len(others & set(g)) > 1 for g in synonym_groups(column)):
        words = yes
    # two drugs merged as one answer, with no plain yes among them: named by both
    # ("Alteplase or tenecteplase"; walk-through 96 showed every TNK as "Alteplase")
    sets = {frozenset(d) for w in words if (d := drug_set(norm_key(w))) is not None
            and "(no drug)" not in d} if len(words) > 1 else set()
    if len(sets) > 1 and not yes and all(len(d) == 1 for d in sets):
        names = sorted(next(iter(d)) for d in sets)
        if len(names) <= 3:
            joined = " or ".join(names)
            return joined[:1].upper() + joined[1:]
    grouped = False
    def bare(w: str) -> str:  # "2 - Female" is "Female" after its export's code
        return loose_key(EXPORT_CODE.sub("", norm_key(w)))

    for group in synonym_groups(column) if len(words) > 1 else ():
        inside = [w for w in words if bare(w) in group]
        if len(inside) > 1:
            # the group's first word; of its spellings the best shown ("Crohn's
            # disease", not "crohns disease": walk-through 68), not the coded one
            first = min(group.index(bare(w)) for w in inside)
            words = [max((w for w in inside if group.index(bare(w)) == first),
                         key=lambda w: (bare(w) == loose_key(norm_key(w)), _shown_rank(w)))]
            grouped = True
            break
    # ... and so is a yes with an event's date merged into it: walk-through 87's "Stroke
    # 2017" named every patient with a stroke or a TIA ("TIA 2019" among them)
    if yes and not grouped and len(words) > len(yes) and any(
            _A_YEAR.search(w) for w in words if w not in yes):
        words = yes
    # a result written several ways is shown by its word: "Positive", not the "DSA+"
    # merged into it (walk-through 84)
    signs = {result_sign(w, column) for w in words}
    full = [w for w in words if norm_key(w) in ("positive", "negative")]
    if len(words) > 1 and len(signs) == 1 and None not in signs and full:
        words = full
    # "Yes" before "True" or "1", not before a word that says more: walk-through 43's
    # smoking "Yes" merged into "Current" showed as "Yes" beside "Never" and "Former";
    # nor "Declined" before "No" (walk-through 44: every mother without an epidural)
    # ... nor the register column's condition before its "Yes" (walk-through 49's Asthma
    # register showed the merged yes as "Asthma")
    plain = [w for w in words if w.strip().lower() not in _BOOLEAN_WORDS
             and norm_key(w) not in DECLINED_WORDS
             and not (own and names_condition(norm_key(w), own)
                      and any(v.strip().lower() in ("yes", "y") for v in words))]
    # nor a word with a note before the same word without it: "1" (a boolean word), not
    # "1 (last 2021)"; "High", not "HIGH - see plan" (walk-through 53)
    bare = {w.strip().lower() for w in words if w not in plain}
    plain = [w for w in plain if _BRACKET_NOTE.sub("", w).strip().lower() not in bare]
    # ... the same word among any spellings: "Yes", not "Yes - chest wall" (walk-through
    # 55: every patient's radiotherapy read "chest wall")
    written = {w.strip().lower() for w in words}
    plain = [w for w in plain if (note_head(w.strip()) or "").lower() not in written]
    # a grade by its number: "Grade 1", not the "palpable" merged into it (walk-through
    # 89's goitre showed grades 0 and 2 by number and grade 1 as "Palpable")
    if len(plain) > 1 and scale_of(plain, column) in _GRADED_SCALES:
        plain = [w for w in plain if re.search(r"\d", w)] or plain
    # an ASA grade by its grade: "ASA 1", not the "1E" (an emergency's) merged into it,
    # nor a grade read as aspirin's "ASA" (walk-through 92 showed every ASA 1 as "1E")
    if len(plain) > 1 and scale_of(plain, column) == "asa":
        plain = [w for w in plain if not ASA_EMERGENCY.search(w)] or plain
        named = [w for w in plain if re.match(r"(?i)asa\b", w.strip())]
        if named:
            best = re.sub(r"(?i)^asa", "ASA", max(named, key=lambda w: (
                len(w), w[:3].isupper())).strip())
            return _ROMAN_WORD.sub(lambda m: m.group(1).upper(), best)
    word = max(plain or words, key=_shown_rank)
    # every spelling a brand or a dose of one drug: its generic name ("Darbepoetin" for
    # "Aranesp 20 mcg" and "darbepoetin 40 mcg fortnightly", walk-through 56, not one
    # patient's dose on every patient)
    # ... or written with how it is given ("Natalizumab", not "natalizumab EID 6-weekly"
    # on every patient of walk-through 85 given natalizumab)
    # ... a sequence in its order, a dose kept (:func:`regimen_label`)
    if len(words) > 1:
        word = regimen_label(words, word) or word
    # a scale's word written in capitals, the only spelling kept of it ("LOW" for low,
    # Low and LOW: walk-through 53), in title case; not initials ("CTO", "NK")
    # ... but not a class written with its Roman numeral ("NYHA III" showed as "Nyha Iii")
    # ... and a sex written in capitals, the only spelling kept of it (walk-through 102
    # showed its men as "MALE": "Male", "male" and "M" share its key)
    if word.isupper() and len(word) > 2 and not _ROMAN_TOKEN.search(word) and (
            norm_key(word) in _SCALE_WORDS_ALL
            or (column and _SEX_NAME.search(str(column)) and word.isalpha())):
        word = word.title()
    # ... and a sex written only as its letter, "M" shown "Male" beside "Female"
    # (walk-through 104b)
    if column and _SEX_NAME.search(str(column)) and norm_key(word) in ("m", "f"):
        word = "Male" if norm_key(word) == "m" else "Female"
    word = _ROMAN_WORD.sub(lambda m: m.group(1).upper(), word)
    if len(word) <= 60:
        word = _INITIALS_WORD.sub(
            lambda m: _MIXED_INITIALS.get(m.group(1), m.group(1).upper()), word)
        # "aids" is a word too: walking aids were "two AIDS or frame" (walk-through 72);
        # the syndrome alone or beside HIV
        if word.strip().lower() == "aids" or re.search(r"(?i)\bhiv\b", word):
            word = re.sub(r"(?<![\w'])aids(?![\w'])", "AIDS", word)
    if scale_of(words, column) == "cancer stage":
        word = _SUBSTAGE_WORD.sub(lambda m: m.group(1).upper(), word)
    first = word.split(" ", 1)[0]
    if any(c.isupper() for c in first[1:]):  # "mRS 0", "eGFR low": written as meant
        return word
    return word[:1].upper() + word[1:] if word[:1].islower() else word
