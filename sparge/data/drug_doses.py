"""A treatment column written as each patient's drug and dose: read as the drug.

Walk-through 106's dialysis unit wrote its erythropoiesis-stimulating agent as "Aranesp
40mcg weekly", "EPO 4000 IU 3x/wk", "Mircera 100mcg monthly", "darbepoetin 20
fortnightly" and "none": 99 different answers for three drugs, and the column was left
out of the model as free text (more than 30 answers), with it whether a patient was on
an ESA at all. Where a treatment column (:data:`~sparge.data.drug_combinations.
REGIMEN_COLUMN`) has more answers than a column of categories may, and reading each
dosed answer as its drug brings them within that number, it is read so: the drug is the
answer, the dose set aside (the note says so). A column of fewer answers is left as
written: its doses stay answers of their own, offered for merging as the same dose.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from sparge.data.drug_combinations import REGIMEN_COLUMN, dose_key, drug_set
from sparge.data.levels import paired_count
from sparge.data.parsing import cell_text
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS, norm_key

#: More distinct answers than a column of categories may hold (the
#: :class:`~sparge.data.encoder.Encoder`'s default ``max_levels``).
MAX_ANSWERS = 30
#: A column of more distinct answers is not read (each answer is parsed for its drug).
MAX_READ = 2000


def _drug_words(drugs: frozenset[str]) -> str:
    """A drug set in words, its generic names in order: "darbepoetin"."""
    return " + ".join(sorted(drugs))


def dosed_drug(cell: str) -> str | None:
    """The drug of an answer that writes a drug with its dose ("Aranesp 40mcg weekly":
    "darbepoetin"; "darbepoetin 20 fortnightly"), or ``None`` for another answer (a drug
    without a dose, none, free text).

    >>> dosed_drug("Aranesp 40mcg weekly"), dosed_drug("Aranesp"), dosed_drug("none")
    ('darbepoetin', None, None)
    """
    key = norm_key(cell)
    drugs = drug_set(key)
    if not drugs or "(no drug)" in drugs or "->" in key or "then" in key.split():
        return None
    bare = drug_set(key.split(" ")[0]) if " " in key else None
    dosed = dose_key(key) is not None or (bare is not None and bare == drugs
                                          and any(ch.isdigit() for ch in key))
    return _drug_words(drugs) if dosed else None


def read_drug_doses(df: pd.DataFrame,
                    answers: Mapping | Callable[[], Mapping] | None = None) -> pd.DataFrame:
    """The table with each treatment column of more than :data:`MAX_ANSWERS` answers whose
    dosed answers read as their drugs (:func:`dosed_drug`) bring it within that number
    rewritten so, and a note per column. ``answers``: a fitted model's answers by column
    (or a function giving them): a new patient's "Aranesp 60mcg weekly" is read as
    "darbepoetin" where that is one of the column's answers and the cell is not."""
    out = df
    for col in df.columns:
        name = str(col)
        if not REGIMEN_COLUMN.search(name[:80]) or pd.api.types.is_numeric_dtype(df[col]):
            continue
        text = cell_text(df[col])
        codes, uniques = pd.factorize(text)
        if not len(uniques) or len(uniques) > MAX_READ:  # thousands: free text, not doses
            continue
        drugs = [dosed_drug(u) if u else None for u in uniques]
        if not any(drugs):
            continue
        if answers is not None:  # a new patient's: into the model's own answers only
            if callable(answers):
                answers = answers()
            own = {norm_key(str(a)) for a in (answers.get(name) or ())}
            if not own:
                continue
            drugs = [d if d is not None and norm_key(u) not in own and norm_key(d) in own
                     else None for u, d in zip(uniques, drugs, strict=True)]
        else:
            # only a column left out otherwise: more answers than a column of categories
            # may hold, once those written two ways count as one (walk-through 85's DMTs,
            # 33 spellings of a dozen drugs, stay as written)
            filled = list(dict.fromkeys(u for u in uniques
                                        if u and norm_key(u) not in DEFAULT_MISSING_TOKENS))
            after = list(dict.fromkeys(d or u for u, d in zip(uniques, drugs, strict=True)
                                       if u and norm_key(u) not in DEFAULT_MISSING_TOKENS))
            if len(filled) <= MAX_ANSWERS or len(after) > MAX_ANSWERS \
                    or paired_count(filled, name) <= MAX_ANSWERS:
                continue
        rewrite = np.array(drugs + [None], dtype=object)[codes]
        rows = np.flatnonzero(rewrite != None)  # noqa: E711 (an object array)
        if not len(rows):
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        cells = df[col].to_numpy(dtype=object).copy()
        cells[rows] = rewrite[rows]
        out[col] = cells
        first = int(rows[0])
        kinds = len({rewrite[r] for r in rows})
        out.attrs["sparge_read_notes"] = [
            *out.attrs.get("sparge_read_notes", []),
            f"Column '{_q(name)}': {len(rows):,} answer(s) that write a drug with its dose "
            f"(e.g. '{_q(text.iat[first], 30)}', CSV line {first + 2}) read as the drug "
            f"('{_q(rewrite[first], 30)}'; {kinds} drug(s)): the doses are set aside, as "
            f"one answer per dose made the column more than {MAX_ANSWERS} answers, left "
            "out as free text. A numeric column of the doses would keep them."]
    return out
