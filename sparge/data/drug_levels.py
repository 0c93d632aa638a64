"""A drug's blood level, measured only for the patients who take the drug.

A mental health export's "Lithium level (mmol/L)" is empty for every patient not on
lithium, and its "Clozapine level" for every patient not on clozapine: values that do not
exist, not values someone forgot. Walk-through 35 trained on 26 of 805 patients for them
(the paper's threshold on missing values left the others out), and a table of three such
levels had none of 400 patients left. The column that says who takes the drug is often
free text ("Priadel 800mg nocte", "sertraline 50mg"), with too many answers to be a
feature, so :mod:`sparge.data.structural_gaps` (which reads encoded answers) cannot see
it. Here a numeric column named for a drug's level (therapeutic drug monitoring: lithium,
clozapine, valproate, tacrolimus, vancomycin, digoxin, …) is matched against the text
columns that name the drug, by its generic or a brand name; where a column names the
drug for the patients the level is measured for, and not for nearly all the others, the
others' gaps do not apply to them.

Pure functions on a raw table (text cells as written).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pandas as pd

from sparge.data.drug_combinations import names_of
from sparge.data.safe_text import quote as _q
from sparge.data.structural_gaps import (
    EXPLAINED_SHARE,
    EXPLAINING_SHARE,
    MAX_ROWS,
    MIN_GAP_SHARE,
    MIN_PATIENTS,
    OTHER_SHARE,
)

#: Drugs whose blood level clinics measure, by the names a column or a cell may give them
#: (the generic name first: the one the report says).
DRUG_NAMES: dict[str, tuple[str, ...]] = {
    "lithium": ("lithium", "priadel", "camcolit", "liskonum", "li-liquid", "li liquid"),
    "clozapine": ("clozapine", "clozaril", "denzapine", "zaponex"),
    "valproate": ("valproate", "valproic", "epilim", "depakote", "depakine", "convulex",
                  "episenta", "dyzantil"),
    "carbamazepine": ("carbamazepine", "tegretol", "carbagen"),
    "phenytoin": ("phenytoin", "epanutin", "dilantin"),
    "phenobarbital": ("phenobarbital", "phenobarbitone"),
    "levetiracetam": ("levetiracetam", "keppra"),
    "lamotrigine": ("lamotrigine", "lamictal"),
    "digoxin": ("digoxin", "lanoxin"),
    # a vitamin K antagonist, monitored by the INR rather than its level (walk-through
    # 87's AF clinic: INR and TTR written only for the patients on warfarin)
    "warfarin": ("warfarin", "coumadin", "marevan", "jantoven", "acenocoumarol",
                 "sinthrome", "sintrom", "phenindione", "phenprocoumon", "marcoumar", "vka",
                 "vitamin k antagonist"),
    "theophylline": ("theophylline", "aminophylline", "uniphyllin", "phyllocontin"),
    # (their abbreviations and brands are those drug_combinations reads: "vanc", "gent")
    "vancomycin": ("vancomycin",),
    "gentamicin": ("gentamicin",),
    "amikacin": ("amikacin",),
    "tobramycin": ("tobramycin",),
    "teicoplanin": ("teicoplanin", "targocid"),
    "tacrolimus": ("tacrolimus", "prograf", "advagraf", "adoport", "envarsus", "modigraf"),
    "ciclosporin": ("ciclosporin", "cyclosporin", "cyclosporine", "neoral", "sandimmun"),
    "sirolimus": ("sirolimus", "rapamune"),
    "everolimus": ("everolimus", "certican"),
    "mycophenolate": ("mycophenolate", "mycophenolic", "cellcept", "myfortic"),
    "methotrexate": ("methotrexate",),
    "busulfan": ("busulfan", "busulphan", "busilvex"),
    "infliximab": ("infliximab", "remicade", "inflectra", "remsima"),
    "adalimumab": ("adalimumab", "humira", "amgevita", "imraldi", "hyrimoz"),
    # a biologic's trough level in one column for whichever anti-TNF a patient takes
    # (walk-through 68's "Drug level (trough)", filled for the patients on infliximab or
    # adalimumab)
    "anti-TNF": ("anti-tnf", "infliximab", "remicade", "inflectra", "remsima", "ifx",
                 "adalimumab", "ada", "humira", "amgevita", "imraldi", "hyrimoz", "golimumab",
                 "simponi", "certolizumab", "cimzia"),
}
#: A column named for a drug's level without naming the drug: "Drug level (trough)".
_ANY_DRUG_LEVEL = re.compile(r"\bdrug levels?\b|\btroughs?\b|\btdm\b|"
                             # ... or the antibodies to it, measured with the level
                             # (walk-through 68's "Anti-drug antibodies", 75 % empty)
                             r"anti[\s-]?drug antibod|\bdrug antibod|\bantibodies to\b",
                             re.IGNORECASE)
#: A column of the antibodies to a drug: a level's companion, encoded as answers.
DRUG_ANTIBODIES = re.compile(r"anti[\s-]?drug antibod|\bdrug antibod|\bantibodies to\b",
                             re.IGNORECASE)

#: A column named for a drug's level: "Lithium level (mmol/L)", "Vanc trough",
#: "Serum clozapine conc", "Tacrolimus" (a number: the level).
_LEVEL_WORDS = re.compile(r"\b(?:levels?|troughs?|peaks?|conc(?:entration)?s?|serum|plasma|"
                          r"blood|random|pre[\s-]?dose|post[\s-]?dose|tdm)\b", re.IGNORECASE)
#: A column of what a vitamin K antagonist is monitored by: its INR, the time in the
#: therapeutic range (TTR).
_VKA_MEASURE = re.compile(r"\binr\b|\bttr\b|time in (?:the )?therapeutic range")
#: Abbreviations a level's column may be named by.
_ABBREVIATIONS = {"li": "lithium", "tac": "tacrolimus", "tacro": "tacrolimus",
                  "csa": "ciclosporin", "dig": "digoxin", "cbz": "carbamazepine",
                  "vpa": "valproate", "ifx": "infliximab", "ada": "adalimumab"}
#: A drug few patients take leaves its level nearly empty: up to this share (the name
#: says why; :data:`~sparge.data.structural_gaps.MAX_GAP_SHARE` is for any column).
MAX_LEVEL_GAP_SHARE = 0.995
#: Columns whose cells are looked at, at most (the text columns, first ones first).
MAX_TEXT_COLUMNS = 60
#: A cell this long is read up to here.
_MAX_CELL = 300


@lru_cache(maxsize=4096)
def level_drug(column: str) -> str | None:
    """The drug a column is named for as its level ("Lithium level (mmol/L)": lithium;
    "Li level": lithium; "Vanc trough": vancomycin), or ``None``. A column named only by
    the drug ("Tacrolimus", "Clozapine (ng/mL)") counts when it holds numbers (the caller
    knows)."""
    name = re.sub(r"\(.*?\)|\[.*?\]", " ", str(column)[:120]).lower()
    if _VKA_MEASURE.search(name):  # "INR (last)", "TTR %": warfarin's, measured on it
        return "warfarin"
    words = re.findall(r"[a-z][a-z\-]*", name)
    for word in words:
        for drug in DRUG_NAMES:
            # an abbreviation is a whole word ("lev" is not "level", walk-through 86)
            if any(word == n or (len(n) > 3 and word.startswith(n))
                   for n in _names(drug) if " " not in n):
                return drug
    if _LEVEL_WORDS.search(name):
        for word in words:
            if word in _ABBREVIATIONS:
                return _ABBREVIATIONS[word]
    return None


@lru_cache(maxsize=64)
def _names(drug: str) -> tuple[str, ...]:
    """A drug's names: this module's and those :mod:`sparge.data.drug_combinations` reads
    (one table of a drug's brands and abbreviations, not two)."""
    return tuple(dict.fromkeys((*DRUG_NAMES[drug], *names_of(drug))))


@lru_cache(maxsize=64)
def _mention(drug: str) -> re.Pattern[str]:
    names = sorted(_names(drug), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")",
                      re.IGNORECASE)


def names_drug(cells: pd.Series, drug: str) -> np.ndarray:
    """Whether each cell names ``drug`` (generic or brand; "Priadel 800mg nocte" names
    lithium). Missing cells are ``False``."""
    text = cells.astype("string").str.slice(0, _MAX_CELL)
    return text.str.contains(_mention(drug), na=False).to_numpy(dtype=bool)


def find_drug_level_gaps(df: pd.DataFrame, levels: dict[str, np.ndarray],
                         text_columns: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The drug levels whose gaps a text column explains: the patients it does not name
    the drug for.

    Parameters
    ----------
    df : DataFrame
        The table as written (text cells).
    levels : dict
        ``{column: values}``: numeric columns (``NaN`` = missing), one value per row of
        ``df``. Those named for a drug's level (:func:`level_drug`) are looked at.
    text_columns : sequence of str
        The columns of ``df`` that may name the drugs patients take (free text too: a
        column left out for its many answers still says who takes lithium).

    Returns
    -------
    dict
        ``{level column: (text column, drug)}``: the level does not apply where the text
        column holds an answer that does not name the drug (:func:`drug_level_mask`).
    """
    out: dict[str, tuple[str, str]] = {}
    rows = slice(0, MAX_ROWS)
    texts = [c for c in text_columns if c in df.columns][:MAX_TEXT_COLUMNS]
    for col, values in levels.items():
        drug = level_drug(col)
        if not texts:
            continue
        if drug is None:
            # a level of no named drug: the drug a text column explains it by, if any
            if not _ANY_DRUG_LEVEL.search(str(col)[:120]):
                continue
            found = [(hit, d) for d in DRUG_NAMES
                     if (hit := _explaining(df, col, values, d, texts, rows)) is not None]
            if found:
                (_, text), drug = max(found, key=lambda f: f[0][0])
                out[col] = (text, drug)
            continue
        best = _explaining(df, col, values, drug, texts, rows)
        if best is not None:
            out[col] = (best[1], drug)
    return out


def _explaining(df: pd.DataFrame, col: str, values: np.ndarray, drug: str,
                texts: Sequence[str], rows: slice) -> tuple[int, str] | None:
    """The text column explaining most of a level's gaps by ``drug`` (and how many), or
    ``None`` (the rule of :func:`find_drug_level_gaps`)."""
    missing = np.isnan(np.asarray(values, dtype=float)[rows])
    n = len(missing)
    if not n or not MIN_GAP_SHARE <= missing.mean() <= MAX_LEVEL_GAP_SHARE:
        return None
    best: tuple[int, str] | None = None
    for text in texts:
        if text == col:
            continue
        cells = df[text].iloc[rows]
        known = cells.notna().to_numpy() & (cells.astype("string").str.strip() != "")\
            .fillna(False).to_numpy(dtype=bool)
        takes = names_drug(cells, drug)
        others = known & ~takes
        if takes.sum() < MIN_PATIENTS // 2 or others.sum() < MIN_PATIENTS:
            continue
        if missing[others].mean() < EXPLAINING_SHARE or missing[takes].mean() > OTHER_SHARE:
            continue
        explained = int((missing & others).sum())
        if explained < EXPLAINED_SHARE * missing.sum():
            continue
        if best is None or explained > best[0]:
            best = (explained, text)
    return best


def drug_names_said(drug: str) -> str:
    """The drug as the report names it: "lithium (nor Priadel, Camcolit or Liskonum)"."""
    if drug == "anti-TNF":
        return "anti-TNF drug (infliximab, adalimumab, golimumab or certolizumab)"
    stem = drug[:6]
    brands = [b.capitalize() for b in DRUG_NAMES.get(drug, ())[1:]
              if not b.startswith(stem) and " " not in b][:3]
    if not brands:
        return drug
    return f"{drug} (nor " + (", ".join(brands[:-1]) + " or " if len(brands) > 1
                              else "") + f"{brands[-1]})"


def drug_level_mask(df: pd.DataFrame, column: str, drug: str) -> np.ndarray:
    """Where a text ``column`` of ``df`` holds an answer that does not name ``drug``: a
    level of the drug does not apply to those patients."""
    if column not in df.columns:
        return np.zeros(len(df), dtype=bool)
    cells = df[column]
    known = cells.notna().to_numpy() & (cells.astype("string").str.strip() != "")\
        .fillna(False).to_numpy(dtype=bool)
    return known & ~names_drug(cells, drug)


__all__ = ["DRUG_ANTIBODIES", "DRUG_NAMES", "drug_level_mask", "drug_names_said",
           "find_drug_level_gaps", "level_drug", "names_drug"]


#: A level's cell saying the patient takes another drug, or not this one: "on CsA",
#: "switched to sirolimus", "not on tac" (bounded runs).
_ON_ANOTHER = re.compile(r"\s{0,3}(?:(?P<not>not\s{1,3}on|off)|on|taking|switched\s{1,3}to|"
                         r"converted\s{1,3}to|changed\s{1,3}to)\s{1,3}"
                         r"(?P<drug>[a-z][a-z0-9\- ]{1,24}?)\s{0,3}", re.IGNORECASE)


def read_other_drug_levels(df: pd.DataFrame) -> pd.DataFrame:
    """The table with a drug level's cells that say the patient takes another drug ("on
    CsA" in a tacrolimus level) or not this one ("not on tac") rewritten "not applicable": a level
    that does not apply, not a number written wrong (walk-through 100's 13 "on CsA" were
    reported as text where numbers were expected). A note per column."""
    out = df
    for col in df.columns:
        drug = level_drug(str(col))
        if drug is None or pd.api.types.is_numeric_dtype(df[col]):
            continue
        text = df[col].astype(str).where(df[col].notna(), "").str.strip()
        maybe = text.str.match(r"(?i)\s*(?:not|off|on|taking|switched|converted|changed)\b")
        if not maybe.any():
            continue
        hits = []
        for row in np.flatnonzero(maybe.to_numpy()):
            m = _ON_ANOTHER.fullmatch(text.iat[row][:60])
            if m is None:
                continue
            named = m.group("drug")
            this = bool(_mention(drug).search(named)) or named.lower() in (
                k for k, v in _ABBREVIATIONS.items() if v == drug)
            if m.group("not") is not None or not this:
                hits.append(row)
        if not hits:
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        values = out[col].astype(object).to_numpy().copy()
        example = text.iat[hits[0]]
        values[hits] = "not applicable"
        out[col] = values
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            f"Column '{_q(col)}': {len(hits):,} cell(s) saying the patient takes another drug or "
            f"not {drug} (e.g. '{_q(example, 30)}') read as not applicable: no {drug} level "
            "is expected, and the gap does not count against the patient."]
    return out
