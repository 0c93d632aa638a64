"""A value written after the name of what it measures: "Na 134" in a column "Na", "sats
96 on air" in "SpO2", "HCO3 18" in "Bicarb", "BM 4.2" in "Glucose".

A ward's export writes a fifth of such cells with the test's name in front (walk-through
60): as text they made SpO2, sodium, bicarbonate and glucose columns of more than 30
answers, left out as free text, and with them the signs a registrar looks at first. The
name is the column's own (its whole name, its first word, the initials of its words), its
element's symbol or name ("Na" and "sodium"), or a name clinicians write for the same
measurement (:data:`SAME_MEASUREMENT`). The name is read off where a number follows it;
the rest of the cell ("134 mmol/L", "96 on air") is read as every cell of the column is.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from sparge.data.column_guess import named_like_id
from sparge.data.combined_cells import columns_holding, plain_columns
from sparge.data.parsing import CLASS_INITIALS, cycle_reader
from sparge.data.safe_text import quote as _q
from sparge.data.tables import norm_key

#: Names clinicians write for one measurement (lower case; a cell's name is matched
#: without regard to case).
SAME_MEASUREMENT: tuple[frozenset[str], ...] = tuple(frozenset(g) for g in (
    {"spo2", "sao2", "sats", "sat", "o2 sats", "o2 sat", "saturation", "saturations",
     "oxygen saturation", "sp02"},
    {"bicarb", "bicarbonate", "hco3", "hco3-", "tco2"},
    {"glucose", "gluc", "bm", "bms", "cbg", "bg", "blood glucose", "blood sugar"},
    # walk-through 64's "FBG 6.6" in "Fasting glucose (mmol/L)"
    {"fasting glucose", "fbg", "fpg", "fasting blood glucose", "fasting plasma glucose",
     "fbs", "fasting bg", "fasting blood sugar", "fg"},
    {"hba1c", "a1c", "hb a1c", "glycated haemoglobin", "glycated hemoglobin"},
    # walk-through 104's "CST 298" in "CRT": the macula's thickness on OCT, by its names
    {"crt", "cst", "cmt", "cft", "central retinal thickness", "central subfield thickness",
     "central macular thickness", "central foveal thickness", "oct cst", "oct crt"},
    {"iop", "intraocular pressure", "iop r", "iop l"},
    # walk-through 105's "Renal function": "GFR 84", "eGFR >90", "CrCl 62 mL/min"
    {"renal function", "kidney function", "gfr", "egfr", "crcl", "cr cl",
     "creatinine clearance", "cockcroft-gault", "cockcroft gault", "ckd-epi", "mdrd"},
    {"na", "na+", "sodium"}, {"k", "k+", "potassium"}, {"cl", "chloride"},
    {"ca", "calcium"}, {"mg", "magnesium"}, {"li", "lithium"},
    {"hb", "hgb", "haemoglobin", "hemoglobin"},
    {"wcc", "wbc", "white cell count", "white cells"},
    {"plt", "plts", "platelets", "platelet count"},
    {"cr", "creat", "creatinine"}, {"ur", "urea", "bun"},
    {"crp", "c-reactive protein"}, {"lac", "lact", "lactate"},
    {"temp", "temperature", "t"}, {"hr", "pulse", "heart rate", "p"},
    {"rr", "resp rate", "respiratory rate", "resps"},
    {"crt", "cap refill", "capillary refill", "capillary refill time"},
    {"mmse", "mini-mental", "mms"},
    {"moca", "montreal cognitive assessment"}, {"ace-iii", "ace iii", "ace-3", "ace3", "ace"},
    {"alb", "albumin"}, {"bili", "bilirubin"}, {"inr"}, {"pews"}, {"gcs"},
    # walk-through 68's IBD clinic: "FCP 432", "pMayo 2", "PMS 4"
    {"faecal calprotectin", "fecal calprotectin", "calprotectin", "fcp", "fcal", "f-cal",
     "f cal", "calpro", "stool calprotectin", "fc"},
    {"partial mayo", "pmayo", "p-mayo", "p mayo", "pms", "partial mayo score", "pmss"},
    {"hbi", "harvey-bradshaw", "harvey bradshaw", "harvey-bradshaw index",
     "harvey bradshaw index"},
    # walk-through 73's myeloma clinic: 89 "PS 1" in a column ECOG
    {"ecog", "ps", "ecog ps", "who ps", "ecog/who", "who/ecog", "zubrod", "ecog score",
     "who performance status", "ecog performance status"},
    # walk-through 98's cardiac surgery unit: "ES II 4.1%" in "EuroSCORE II", "ES 14.8"
    # in "Logistic EuroSCORE" (77 values set to missing)
    {"euroscore ii", "euroscore 2", "euroscore2", "es ii", "esii", "es2", "es 2", "es-ii"},
    {"logistic euroscore", "log euroscore", "logistic es", "log es", "les", "euroscore",
     "es", "l-es", "les%"},
))
#: A column of classes or stages ("CKD 3b", "NYHA 2", "Grade 2"): its answers, with
#: their name, are read as answers are (merged with "3b" when written both ways). And a
#: score whose maximum a bare number does not say (a Barthel index).
_CLASSES = re.compile(r"stage|grade|class|type|categor|status|level of|\bband|"
                      # a Barthel index out of 20 or of 100: "BI 16" says not which
                      # (walk-through 63 read 41 such out of 100, patients independent
                      # matched as severely dependent); left to the column's own reading
                      r"barthel", re.IGNORECASE)
#: Words for the sample a measurement is made on, before its name.
_SAMPLES = frozenset({"serum", "plasma", "venous", "arterial", "capillary", "blood", "cap"})
#: Cells that may start with a name and hold a number: a letter, later a digit.
_MAYBE = re.compile(r"\s*[A-Za-z].{0,30}?\d")
#: Names of one or two letters are read before a number only with a space or a colon
#: after them ("K 4.1", "T: 38.2"), never joined to it ("T2", "P1", "K3").
_SHORT = 2


def _words(name: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z0-9+\-]*", name)


@lru_cache(maxsize=4096)
def _names(column: str) -> tuple[str, ...]:
    """The names a column's cells may write before its value, longest first."""
    bare = re.sub(r"\s*[(\[].*", "", column).strip().lower()
    words = [w.lower() for w in _words(bare)]
    names = {bare} if 0 < len(bare) <= 24 else set()
    if words:
        names.add(words[0])
    if 2 <= len(words) <= 4 and all(len(w) > 2 for w in words):
        names.add("".join(w[0] for w in words))  # "hr" for "Heart rate"
    # the name itself, or its measurement after a sample's word ("Serum sodium")
    own = {bare} | ({words[-1]} if len(words) == 2 and words[0] in _SAMPLES else set())
    for group in SAME_MEASUREMENT:
        if own & group:
            names |= group
    return tuple(sorted((n for n in names if n), key=len, reverse=True))


#: A column of a biologic's drug levels ("Drug level (trough)", "Trough level"): its
#: cells may write the drug and the kind of level first, "IFX trough 3.2", "ADA 8.1"
#: (walk-through 68 left 72 such cells, and the column, out).
_DRUG_LEVEL = re.compile(r"drug levels?|\btrough\b|\btherapeutic drug", re.IGNORECASE)
#: The drugs whose trough levels a clinic measures.
_LEVEL_DRUGS = ("infliximab", "adalimumab", "vedolizumab", "ustekinumab", "golimumab",
                "certolizumab", "etanercept", "tocilizumab")


@lru_cache(maxsize=1)
def _level_names() -> frozenset[str]:
    """The drug names, alone or with "trough" or "level", written before a level."""
    from sparge.data.drug_combinations import names_of

    drugs = {n for d in _LEVEL_DRUGS for n in names_of(d) if len(n) >= 3}
    kinds = ("trough", "level", "trough level", "tl", "drug level")
    return frozenset({*drugs, *kinds, *(f"{d} {k}" for d in drugs for k in kinds),
                      *(f"{d}: {k}" for d in drugs for k in kinds)})


@lru_cache(maxsize=4096)
def name_prefix(column: object) -> re.Pattern[str] | None:
    """The pattern of a column's name before a number at the start of a cell (group 1:
    the name), or ``None`` for a column never read so (an ID; a cycle's "Cycle 2 Day 1",
    which its own reader reads)."""
    column = str(column or "")[:80]
    if not column or named_like_id(column) or cycle_reader(column) is not None or \
            _CLASSES.search(column) or {w.upper() for w in _words(column)} & CLASS_INITIALS:
        return None
    names = _names(column)
    if _DRUG_LEVEL.search(column):
        names = tuple(sorted(set(names) | _level_names(), key=len, reverse=True))
    if not names:
        return None
    long = [re.escape(n) for n in names if len(n) > _SHORT]
    short = [re.escape(n) for n in names if len(n) <= _SHORT]
    parts = []
    if long:
        parts.append(rf"(?:{'|'.join(long)})\s{{0,3}}[:=\-]?\s{{0,3}}")
    if short:
        parts.append(rf"(?:{'|'.join(short)})(?:\s{{1,3}}|\s{{0,3}}[:=]\s{{0,3}})")
    return re.compile(rf"\s*({'|'.join(parts)})(?=[<>≤≥~]?\s{{0,2}}[+-]?\d)", re.IGNORECASE)


def _may_write_name(value: object) -> bool:
    return isinstance(value, str) and _MAYBE.match(value) is not None


#: A cell that writes a number, maybe as a limit ("<45", "134 mmol/L").
_NUMBER_LIKE = re.compile(r"\s*(?:[<>≤≥]=?|~|approx\.?)?\s*[+-]?(?:\d|\.\d)")


def read_named_values(df: pd.DataFrame, answers=None) -> pd.DataFrame:
    """The table with each cell that writes its column's name before a number rewritten
    as what follows the name ("Na 134 mmol/L": "134 mmol/L"), and a note per column in
    ``df.attrs["sparge_read_notes"]``. A table without such a cell is returned as it is.
    ``answers``: a fitted model's answers by column (``{column: {key: answer}}``, or a
    function giving them, asked only when a cell may be rewritten): a cell that is one
    of its column's answers is left as it is (walk-through 100's new recipient lost the
    answer "DGF - 2 sessions HD" as "2 sessions HD")."""
    out = df
    said = []
    plain = plain_columns(df)  # a small table's columns of plain numbers, looked at once
    named = [j for j, col in enumerate(df.columns)
             if not (plain is not None and plain[j]) and name_prefix(col) is not None
             and not pd.api.types.is_numeric_dtype(df.dtypes.iloc[j])
             and not pd.api.types.is_bool_dtype(df.dtypes.iloc[j])]
    # the columns with a cell that may write a name before a number: a small table's
    # cells at once, a large one's by a vectorised search per column (a letter before
    # any digit: a 200,000-row column of numbers took a second cell by cell)
    maybe = columns_holding(df.iloc[:, named], _may_write_name, "^[^A-Za-z0-9]*[A-Za-z]") \
        if named \
        else np.zeros(0, bool)
    for j in np.asarray(named, dtype=int)[maybe]:
        col = df.columns[j]
        pattern = name_prefix(col)
        values = df.iloc[:, j]
        # each distinct cell looked at once (a 100,000-row column holds a few thousand)
        codes, uniques = pd.factorize(values)
        found = np.flatnonzero([isinstance(u, str) and len(u) <= 80 and _MAYBE.match(u)
                                is not None and pattern.match(u) is not None
                                for u in uniques])
        if len(found) and answers is not None:
            if callable(answers):
                answers = answers()
            known = dict((answers or {}).get(str(col)) or {})  # {key: answer as written}
            own = {norm_key(str(a)) for a in (*known, *known.values())}
            found = np.asarray([k for k in found if norm_key(uniques[k]) not in own], dtype=int)
        if not len(found):
            continue
        rows = np.flatnonzero(np.isin(codes, found))
        # a column of answers is no column of values: "Arcus <45" among "Yes" and "No"
        # is arcus before 45 (walk-through 90 read it as the answer "<45")
        numbers = np.array([isinstance(u, str) and _NUMBER_LIKE.match(u) is not None
                            for u in uniques] + [False])
        filled = np.array([isinstance(u, str) and u.strip() != "" for u in uniques]
                          + [False])
        if (numbers[codes] | np.isin(codes, found)).sum() < 0.5 * filled[codes].sum():
            continue
        cells = values.to_numpy(dtype=object)
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        stripped = {int(k): pattern.sub("", uniques[k], count=1).strip() for k in found}
        new = cells.copy()
        new[rows] = [stripped[int(k)] for k in codes[rows]]
        out[col] = pd.Series(new, index=values.index, dtype=object)
        said.append(f"'{_q(col, 40)}' {len(rows):,} (e.g. '{_q(cells[rows[0]], 24)}' as "
                    f"'{_q(new[rows[0]], 24)}')")
    if said:
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            "Cells that write the name of what is measured before the value are read as "
            "the value: " + "; ".join(said[:8]) + (f"; and {len(said) - 8} more columns"
                                                  if len(said) > 8 else "") + "."]
    return out


__all__ = ["SAME_MEASUREMENT", "name_prefix", "read_named_values"]
