"""Answers of a categorical column written two ways ("f" and "Female", "iii" and "3"):
finding them, merging them in the encoding table, and saying so (DESIGN.md §3)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import pandas as pd

from sparge.data.drug_combinations import drug_set, generic_name, same_regimen
from sparge.data.levels import (
    DRUG_CLASS_MEMBERS,
    EXPORT_CODE,
    GENETIC_COLUMN,
    abbreviated_levels,
    infer_levels,
    names_class_drug,
    numeral_key,
    protein_key,
    result_sign,
    shown_answer,
    smoking_column,
    smoking_status,
    spellings,
    synonym_groups,
)
from sparge.data.parsing import loose_key
from sparge.data.safe_text import quote as _q
from sparge.data.tables import YES_KEYS, EncodingTable, norm_key, scale_of


def two_way_pairs(table: EncodingTable, cols: list[str], df: pd.DataFrame | None = None
                  ) -> dict[str, list[list[str]]]:
    """Per column, the answers that look like one answer written two ways ("f" and
    "Female", "iii" and "3") and are coded apart: ``{column: [[short, full], ...]}``
    (:func:`~sparge.data.levels.abbreviated_levels`; with the table ``df``, of an answer
    and its typo the one twice as common is the right spelling)."""
    out = {}
    for col in cols:
        codes = table.levels(col)
        # two ranks of a recognised scale are two answers, however alike written
        # (walk-through 70 was offered encephalopathy "grade II" into "grade III")
        ranked = table.is_ordered(col) and scale_of(list(codes), col) is not None
        counts = spellings(df[col])[1] if df is not None and col in df.columns else None
        pairs = [[a, b] for a, b in abbreviated_levels(list(codes), col, counts)
                 if codes[a] != codes[b] and not ranked and not other_drugs(a, b)
                 and not other_histology(a, b)]
        if pairs:
            out[col] = pairs
    return out


#: Histologies of one site that are two diseases: small-cell and non-small-cell lung
#: cancer (walk-through 105 was offered "SCLC" into "NSCLC", both of the lung's group).
_HISTOLOGIES = (re.compile(r"\bnsclc\b|non[\s-]?small[\s-]?cell", re.IGNORECASE),
                re.compile(r"(?<![a-z])sclc\b|(?<!non )(?<!non-)(?<!non)small[\s-]?cell",
                           re.IGNORECASE))


def other_histology(answer: str, other: str) -> bool:
    """Whether two answers name different histologies of one site ("SCLC", "NSCLC").

    >>> other_histology("SCLC", "NSCLC"), other_histology("NSCLC", "lung - NSCLC")
    (True, False)
    """
    kinds = [{i for i, h in enumerate(_HISTOLOGIES) if h.search(str(x))}
             for x in (answer, other)]
    return bool(kinds[0] and kinds[1] and kinds[0].isdisjoint(kinds[1]))


def other_drugs(answer: str, other: str) -> bool:
    """Whether two answers name different drugs (each known, by any name): never one
    answer written two ways, however a column's synonyms group them (walk-through 96's
    "TNK" and "Tenecteplase" were offered, and merged, as "Alteplase").

    Examples
    --------
    >>> other_drugs("TNK", "Alteplase"), other_drugs("tPA", "Alteplase"), other_drugs("TNK", "Yes")
    (True, False, False)
    """
    a, b = (drug_set(norm_key(x)) for x in (answer, other))
    return a is not None and b is not None and "(no drug)" not in a | b and a != b


#: Columns whose answers written two ways are merged by default, by name: a sex, a
#: smoking status, a diabetes type, a side of the body, a pancreatic status, a disease's
#: phenotype or course (multiple sclerosis' "RRMS" and "Relapsing remitting"), a line of
#: treatment ("1st line", "first line" and "1"), an epilepsy's type, an MRI's or an EEG's
#: report ("normal 3T", "unremarkable" and "NAD"). The words of
#: one of their groups of :data:`~sparge.data.levels.SYNONYMS` are one answer beyond
#: doubt there ("F" and "Female" in a Sex column, "Ex" and "ex-smoker" in a smoking
#: column, "L" and "left" in a Side column, "PI" and "Insufficient" in a pancreatic
#: status); in other columns the groups are offered, not applied ("m" may mean "mild").
#: Walk-through 78's user skipped the offer, and a woman's look-alikes were those
#: written "F" like her, not those written "Female".
DEFAULT_MERGE_NAME = re.compile(r"\b(?:sex|gender|smok\w*|tobacco|diabet\w*|dm type|side|"
                                # walk-through 105's day unit: its "Line" and "Intent"
                                r"^line$|^lines$|intent|treatment intent|"
                                r"eyes?|laterality|pancrea\w*|phenotype|ms (?:sub)?type|"
                                r"type of ms|ms course|disease course|treatment line|"
                                r"line of (?:treatment|therapy)|therapy line|dmt line|"
                                r"epilepsy (?:type|syndrome|classification)|type of epilepsy|"
                                r"mri|eeg|anticoag\w*|d?oac|noac|antithrombotic\w*|"
                                r"menopaus\w*|af|ocsp|bamford|donor\s*type|"
                                r"type of donor|donor category|d/r|serostatus|dgf|"
                                # walk-through 101's sepsis by source, and its admissions
                                r"source of sepsis|sepsis source|source of infection|"
                                r"infection source|suspected source|admission source|"
                                r"source of admission|admitted from|rrt|"
                                r"renal replacement|mechanical ventilation|ventilation|"
                                r"ventilated|respiratory support|blood cultures?|"
                                r"culture result|"
                                # walk-through 102's hip fractures by their NHFD type
                                r"fracture type|type of fracture|fracture classification|"
                                r"fracture pattern|"
                                # walk-through 103's COPD grades and long-term oxygen
                                r"gold stage|gold grade|spirometric grade|ltot|"
                                r"long[\s-]term oxygen|home oxygen|"
                                # walk-through 104's lens ("PCIOL" is pseudophakic)
                                r"lens status|lens)\b",
                                re.IGNORECASE)


_APOSTROPHES = re.compile(r"['’`´]")
#: British spellings of medical words, and their American ones (a part of a word).
_BRITISH = (("goitre", "goiter"), ("tumour", "tumor"), ("oedema", "edema"),
            ("diarrhoea", "diarrhea"), ("haem", "hem"), ("anaem", "anem"),
            ("ischaem", "ischem"), ("leukaem", "leukem"), ("septicaem", "septicem"),
            ("oesoph", "esoph"), ("oestr", "estr"), ("paediat", "pediat"),
            ("orthopaed", "orthoped"), ("faec", "fec"), ("coeliac", "celiac"),
            ("centre", "center"), ("litre", "liter"), ("fibre", "fiber"),
            ("colour", "color"), ("behaviour", "behavior"), ("tumours", "tumors"))
_BRITISH_WORD = re.compile("|".join(b for b, _ in _BRITISH))
_AMERICAN = dict(_BRITISH)


def spelling_key(answer: str) -> str:
    """An answer's key without apostrophes and in American spelling ("Graves' goitre":
    "graves goiter"): two answers with one key are one answer spelled two ways."""
    key = _APOSTROPHES.sub("", norm_key(answer))
    return _BRITISH_WORD.sub(lambda m: _AMERICAN[m.group(0)], key)


def spelling_pairs(levels: list[str], counts: Mapping[str, int] | None = None
                   ) -> list[list[str]]:
    """Answers that differ only by an apostrophe or a British spelling ("Graves' disease"
    and "graves disease", "Hashimoto's" and "Hashimotos", "goitre" and "goiter"), as
    ``[answer, into]`` pairs, each into the most common spelling of its group (``counts``:
    by ``norm_key``): one answer beyond doubt, however :func:`two_way_pairs` paired them
    otherwise (it pairs each answer with one other).

    Examples
    --------
    >>> spelling_pairs(["Graves' disease", "graves disease", "GD"],
    ...                {"graves' disease": 31, "graves disease": 30})
    [['graves disease', "Graves' disease"]]
    """
    groups: dict[str, list[str]] = {}
    for lv in levels:
        if re.search(r"[a-z]{2}", norm_key(lv)):
            groups.setdefault(spelling_key(lv), []).append(lv)
    out = []
    for group in groups.values():
        if len({norm_key(g) for g in group}) > 1:
            group = sorted(group, key=lambda g: -(counts or {}).get(norm_key(g), 0))
            out += [[g, group[0]] for g in group[1:] if norm_key(g) != norm_key(group[0])]
    return out


#: A column of stages or grades, by its name ("Stage", "Tumour grade", "CKD stage").
_STAGE_NAME = re.compile(r"\b(?:stage|staging|grade|grading)\b", re.IGNORECASE)


def same_answer(answer: str, other: str, column: str | None) -> bool:
    """Whether two answers of a column are one answer written two ways beyond doubt, and
    so merged by default (the others :func:`two_way_pairs` finds are offered): in a
    column named as :data:`DEFAULT_MERGE_NAME` says, two words of one of its synonym
    groups; in any column, the same words but for Roman or Arabic numerals, spaces,
    hyphens or full stops, with a word besides the numeral ("Type II" and "type 2"; not
    "IV" and "4", which may be a route and a dose); in a column of genotypes, a protein
    change in three-letter and one-letter codes ("Phe508del" and "F508del"); in a
    regimen column, the same drugs written without a dose ("Tysabri", "natalizumab").

    Examples
    --------
    >>> same_answer("F", "Female", "Sex"), same_answer("m", "Male", "Severity")
    (True, False)
    >>> same_answer("Type II", "type 2", "Diagnosis"), same_answer("IV", "4", "Route")
    (True, False)
    """
    a, b = norm_key(answer), norm_key(other)
    # the same words but for an apostrophe or a British spelling ("Hashimotos" and
    # "Hashimoto's", "goitre" and "goiter", walk-through 89)
    if a != b and re.search(r"[a-z]{2}", a) and spelling_key(a) == spelling_key(b):
        return True
    # the column's own name as an answer, beside its yes: "AF" in a column "AF" (walk-
    # through 89), "Diabetes" in "Diabetes"
    if column and any(norm_key(x) == norm_key(column) and norm_key(y) in YES_KEYS
                      for x, y in ((answer, other), (other, answer))):
        return True
    # an answer after its export's code, beside the answer alone: "A - White British" and
    # "White British", "1 - Male" and "Male" (walk-throughs 94 and 96)
    if a != b and (EXPORT_CODE.sub("", a) == b or EXPORT_CODE.sub("", b) == a):
        return True
    # a result written two ways ("pos" / "Positive" / "DSA+"): one answer in any column
    sign = result_sign(answer, column)
    if sign is not None and sign == result_sign(other, column):
        return True
    # a drug by its brand, generic name or abbreviation, in a regimen column, no dose
    if same_regimen(answer, other, column):
        return True
    # the drug a yes/no column is named for, by any of its names, beside its yes:
    # "Herceptin" in "Trastuzumab" (walk-through 95)
    # ... or a drug of the class it is named for: "pegfilgrastim" and "Neulasta" in
    # "G-CSF" (walk-through 105)
    named = loose_key(norm_key(column)) if column else ""
    if column and (generic_name(str(column)) is not None or named in DRUG_CLASS_MEMBERS) \
            and any(y in YES_KEYS and names_class_drug(x, frozenset({named}))
                    for x, y in ((a, b), (b, a))):
        return True
    if column and DEFAULT_MERGE_NAME.search(str(column)):
        ka, kb = (loose_key(EXPORT_CODE.sub("", k)) for k in (a, b))  # "1 - Male"
        if any(ka in g and kb in g for g in synonym_groups(str(column))):
            return True
        # a smoking status with its detail: "ex-smoker, quit 2018" and "Ex-smoker"
        # (walk-through 92)
        if smoking_column(column) and smoking_status(a) is not None and \
                smoking_status(a) == smoking_status(b):
            return True
    worded = all(re.search(r"[a-z]{2,}", re.sub(r"\b(?:i{1,3}|iv|vi{0,3}|ix|x)\b", " ", k))
                 for k in (a, b))
    # ... or alone in a column of stages or grades: "IV" and "4" (walk-through 105's
    # stage; a numeral alone elsewhere may be a route and a dose)
    if (worded or (column and _STAGE_NAME.search(str(column)))) and a != b and \
            numeral_key(a) == numeral_key(b):
        return True
    # a protein change in three-letter and one-letter codes, in a column of genotypes
    return bool(column and GENETIC_COLUMN.search(str(column))) and a != b and \
        numeral_key(protein_key(a)) == numeral_key(protein_key(b))


def merged_note(pairs_by_column: Mapping[str, list[list[str]]]) -> str:
    """The report's note on the answers merged by default (:func:`same_answer`)."""
    parts = []
    for col, pairs in pairs_by_column.items():
        shown = ", ".join(f"'{_q(a, 20)}' as '{_q(b, 30)}'" for a, b in pairs[:4])
        parts.append(f"'{_q(col, 40)}' {shown}" + (f" (+{len(pairs) - 4})"
                                                   if len(pairs) > 4 else ""))
    return ("Answers written two ways read as one answer (the same words in other "
            "spellings): " + "; ".join(parts[:8])
            + (f"; … (+{len(parts) - 8} columns)" if len(parts) > 8 else "")
            + ". The Data page's 'Keep apart the … read as one answer by default' "
            "undoes it.")


def pair_label(column: str, answer: str, into: str) -> str:
    """One pair as a choice names it: "Sex: 'F' into 'Female'" (user text, one line)."""
    return f"{_q(column, 40)}: '{_q(answer, 30)}' into '{_q(into, 30)}'"


def chosen_pairs(pairs_by_column: Mapping[str, list[list[str]]], kept_apart
                 ) -> dict[str, list[list[str]]]:
    """The pairs to merge once the user keeps some apart (their :func:`pair_label`):
    walk-through 48 could merge all 55 pairs the page offered or none, and one wrong
    pair ("Type 2" into "Yes" was not offered; others may be) meant editing codes by hand.

    Parameters
    ----------
    pairs_by_column : ``{column: [[answer, into], ...]}`` (the report's
        ``answers_two_ways``).
    kept_apart : the labels of the pairs not to merge.

    Returns
    -------
    dict
        The same mapping without those pairs (and without columns left with none).
    """
    skip = set(kept_apart or ())
    out = {}
    for col, pairs in pairs_by_column.items():
        kept = [list(p) for p in pairs if pair_label(col, p[0], p[1]) not in skip]
        if kept:
            out[col] = kept
    return out


#: The type of a condition an answer names: diabetes' "Type 1", "T2DM", "IDDM", "type II",
#: "DM2", "gestational" (a pair's side, loose text).
_TYPE_NAMED = (
    (re.compile(r"\btype\s*[-_]?\s*(?:1|i)\b|\bt1(?:\s*d|\b)|\bdm\s*(?:type\s*)?1\b",
                re.IGNORECASE), "1"),
    (re.compile(r"\btype\s*[-_]?\s*(?:2|ii)\b|\bt2(?:\s*d|\b)|\bdm\s*(?:type\s*)?2\b|"
                r"niddm", re.IGNORECASE), "2"),
    (re.compile(r"gestational|\bgdm\b", re.IGNORECASE), "gestational"),
)


def named_type(answer: str) -> str | None:
    """The type of a condition ``answer`` names ("1", "2", "gestational"), or ``None``.

    Examples
    --------
    >>> [named_type(a) for a in ["Type 1", "T2DM", "type II", "NIDDM", "Yes", "DM 2"]]
    ['1', '2', '2', '2', None, '2']
    """
    hits = {kind for pattern, kind in _TYPE_NAMED if pattern.search(str(answer))}
    return hits.pop() if len(hits) == 1 else None


def type_losing_pairs(pairs_by_column: Mapping[str, list[list[str]]]) -> list[str]:
    """The :func:`pair_label` of the pairs that would lose a condition's type: every pair
    into one answer ("Yes") that answers of two or more types ("Type 1", "Type 2") would
    all become, directly or through another pair ("T2DM" into "Type 2" into "Yes"); its
    other kinds too ("diet controlled", "on insulin": walk-through 92 read them merged
    into "Yes" beside a "Type 2" kept apart).

    Walk-throughs 90 and 91 merged "Type 1" and "Type 2" into "Yes" with one click, and the
    model no longer told the types apart; walk-through 56 asked for a diabetes' types to be
    offered with its yes. They are offered, kept apart until the user merges them.
    """
    out = []
    for col, pairs in pairs_by_column.items():
        into = {str(a): str(b) for a, b in pairs}

        def end(answer: str, into: dict[str, str] = into) -> str:
            seen = {answer}
            while answer in into and into[answer] not in seen:
                answer = into[answer]
                seen.add(answer)
            return answer

        types_at: dict[str, set[str]] = {}
        for a, _ in pairs:
            kind = named_type(a)
            if kind is not None:
                types_at.setdefault(end(str(a)), set()).add(kind)
        for a, b in pairs:
            kind, target = named_type(a), end(str(a))
            if len(types_at.get(target, ())) > 1 and (kind is None or named_type(b) != kind):
                out.append(pair_label(col, a, b))
    return out


def merge_answers(table: EncodingTable, pairs_by_column: Mapping[str, list[list[str]]]
                  ) -> EncodingTable:
    """The table with each pair of answers written two ways sharing one code
    (:meth:`EncodingTable.with_merged_levels`), and a column's order found again.

    A column written many ways is coded in no order (walk-through 21's NYHA class: "1",
    "I", "iii", "NYHA III", "NYHA-3" …). Once merged, the answers that keep their codes
    can follow a recognised scale or their own numbers ("1" to "4"; walk-through 23's CKD
    stages "1", "2", "3a", "3b", "4", "5"), or be the letters A, B, C … of a column named
    a class, grade or stage (Child-Pugh class): the column is then ordered, and coded in
    that order, as if it had been written one way.
    """
    out = table.with_merged_levels(pairs_by_column)
    for col in pairs_by_column:
        if not out.has(col) or out.is_ordered(col):
            continue
        before, after = table.levels(col), out.levels(col)
        kept: dict[int, str] = {}  # code -> an answer that kept it
        for level, code in after.items():
            if before.get(level) == code:
                kept.setdefault(code, level)
        if len(kept) < 3 or len(kept) != len(set(after.values())):
            continue
        found, ordered, _ = infer_levels(pd.Series(list(kept.values()), dtype=object,
                                                   name=col), table.missing_keys(col))
        letters = sorted(norm_key(v) for v in kept.values())
        if not ordered and re.search(r"class|grade|stage", norm_key(col)) and \
                "".join(letters) == "abcde"[:len(letters)]:
            # Child-Pugh class A < B < C (walk-through 24); letters in a class column
            found, ordered = {v: letters.index(norm_key(v)) + 1 for v in kept.values()}, True
        ranks = {norm_key(k): v for k, v in found.items()}
        rank_of = {c: ranks.get(norm_key(kept[c])) for c in kept}
        if not ordered or None in rank_of.values():
            continue
        # coded by rank on the order found, the codes' own range kept ("1" stays 1)
        base = min(kept) - 1
        out.set_column(col, {lv: base + rank_of[c] for lv, c in after.items()},
                       ordered=True)
    return out


def merged_summary(pairs_by_column: Mapping[str, list[list[str]]],
                   merged: EncodingTable | None = None) -> str:
    """What a merge of answers written two ways did, column by column: "28 pairs of
    answers merged: 'Sex' 2, 'CKD stage' 24 (e.g. 'G3a' as '3a'), …" (the warning that
    listed them is gone once they are merged).

    ``merged``, the table after the merge (:func:`merge_answers`), names each example by
    the word the pages show for the merged answer (:func:`~sparge.data.levels.shown_answer`):
    walk-through 32 read "'vag' as 'SVD'" and then "Normal vaginal" in the legend."""
    n = sum(len(p) for p in pairs_by_column.values())

    def example(col: str, pair: list[str]) -> str:
        a, b = (_q(pair[0], 20), _q(pair[1], 30))
        if merged is None or not merged.has(col):
            return f"'{a}' as '{b}'"
        codes = merged.levels(col)
        same = [lv for lv, c in codes.items() if c == codes.get(pair[1])]
        word = _q(shown_answer(same, col), 30) if same else b
        if word.lower() == b.lower():
            return f"'{a}' as '{word}'"
        if word.lower() == a.lower():
            return f"'{_q(pair[1], 20)}' as '{word}'"
        return f"'{a}' and '{_q(pair[1], 20)}' as '{word}'"

    parts = [f"'{_q(col, 40)}' {len(pairs)} (e.g. {example(col, pairs[0])})"
             for col, pairs in pairs_by_column.items() if pairs]
    return (f"{n:,} pair{'s' if n != 1 else ''} of answers merged: " + "; ".join(parts)
            + ". The Encoding table tab lists every answer with its code.")


def _answer_counts(df: pd.DataFrame, col: str, table: EncodingTable | None
                   ) -> Callable[[str], int]:
    """How many cells of ``col`` hold an answer: every spelling the encoding ``table``
    codes as it (walk-through 104 counted 'aflibercept' 41 times beside the 103 'Eylea'
    it was already one answer with), or its own spelling's cells without a table."""
    n = spellings(df[col])[1] if col in df.columns else {}
    if table is None or not table.has(col):
        return lambda a: n.get(norm_key(a), 0)
    code = {norm_key(lv): c for lv, c in table.levels(col).items()}
    per_code: dict[float, int] = {}
    for key, k in n.items():
        if key in code:
            per_code[code[key]] = per_code.get(code[key], 0) + k
    return lambda a: per_code.get(code[norm_key(a)], 0) if norm_key(a) in code \
        else n.get(norm_key(a), 0)


def pairs_table(df: pd.DataFrame, pairs_by_column: dict[str, list[list[str]]],
                table: EncodingTable | None = None) -> pd.DataFrame:
    """Every pair the merge button merges, one row each: ``Column``, ``Answer`` and its
    ``Patients``, ``Merged into`` and its ``Patients (into)``, and with the encoding
    ``table`` the merge starts from, ``Shown as``: the word the pages show for the merged
    answer (:func:`~sparge.data.levels.shown_answer` of every spelling of its code after
    :func:`merge_answers`). The report's warning is cut at its length: walk-through 40
    could not see 10 of 39 pairs before the click; walk-through 43's table said "Yes"
    merged into "Current", and the pages then showed "Yes"."""
    rows = []
    merged = merge_answers(table, pairs_by_column) if table is not None else None
    for col, pairs in pairs_by_column.items():
        n = _answer_counts(df, col, table)
        codes = merged.levels(col) if merged is not None and merged.has(col) else {}
        for a, b in pairs:
            row = {"Column": str(col), "Answer": str(a), "Patients": n(a),
                   "Merged into": str(b), "Patients (into)": n(b)}
            same = [lv for lv, c in codes.items() if c == codes.get(b)]
            if merged is not None:
                row["Shown as"] = shown_answer(same, col) if same else str(b)
            rows.append(row)
    return pd.DataFrame(rows, columns=["Column", "Answer", "Patients", "Merged into",
                                       "Patients (into)"]
                        + (["Shown as"] if merged is not None else []))


def abbreviation_note(df: pd.DataFrame, pairs_by_column: dict[str, list[list[str]]]
                      ) -> str | None:
    """A note on answers that look like abbreviations of another answer of the same column
    ("f" and "Female") with different codes (:func:`two_way_pairs`): one answer would be
    split in two. Only pointed out; merged by giving both the same code in the encoding
    table (the Data page's button does, :func:`merge_answers`)."""
    found = []
    for col, pairs in pairs_by_column.items():
        n = spellings(df[col])[1]
        # every pair up to 8 (three hid "iv"/"4" and "NYHA-3"/"NYHA III" in
        # walk-through 21), and how many more
        found.append(f"'{_q(col)}': " + ", ".join(
            f"'{_q(a, 30)}' ({n.get(norm_key(a), 0):,}) and "
            f"'{_q(b, 30)}' ({n.get(norm_key(b), 0):,})" for a, b in pairs[:8])
            + (f" and {len(pairs) - 8} more pairs" if len(pairs) > 8 else ""))
    if not found:
        return None
    # 8 columns: at 4, walk-through 23 could not see 17 of the 28 pairs a click merged
    shown = "; ".join(found[:8]) + (f"; … (+{len(found) - 8} columns)" if len(found) > 8
                                    else "")
    # what to do first: a long list is cut at the report's length
    return ("These answers may be one answer written two ways; coded as different answers, "
            "they keep patients who gave them from being look-alikes on that column. If "
            "they mean the same, merge them (each pair takes the code of its second "
            "answer), or give them the same code on the Encoding table tab and apply "
            f"(patients in brackets): {shown}.")
