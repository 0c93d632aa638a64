"""Visual acuity as eye clinics write it ("6/12", "6/9-2", "20/40", "CF", "HM", "PL"),
read as logMAR in the columns named for it.

Walk-through 77's medical retina clinic wrote each eye's acuity as Snellen fractions,
metric and imperial, logMAR decimals and the low-vision words: as text, more than 30
answers, and both eyes' acuity was left out as free text — the measure that clinic reads
first. Read as logMAR, the acuity is one number per eye, lower is better (0 is 6/6 or
20/20, 1.0 is 6/60):

- a Snellen fraction ``d/x`` (6/12, 20/40, 3/60) is ``log10(x / d)``; letters read beyond
  or missed on the line ("6/9+2", "6/9-2") are 0.02 each (five letters a line of 0.1);
- "CF" (counts fingers) 2.0 and "HM" (hand movements) 2.3, as Schulze-Bonsel et al. (2006)
  measured them; "PL" (perceives light) 2.7 and "NPL" (no perception of light) 3.0, the
  values most studies give them (no chart measures them; their order is what counts);
- a plain number is logMAR as written.

Only a column named for acuity (:data:`ACUITY_NAME`) is read so, not one named for decimal
acuity ("VA decimal", 1.0 is 6/6: its numbers are no logMAR, and fractions beside them
would be read on another scale); the report says so.

Clinics that count ETDRS letters write them in the same column (walk-through 104's
"70", "70 letters", "ETDRS 55"): 85 letters is 6/6, five letters a line, so a count ``n``
is logMAR ``(85 - n) / 50``. A column's scale is its own ("logMAR" or "letters", kept in
``attrs[ACUITY_SCALES_ATTR]`` and by a fitted encoder, :data:`LOGMAR`, :data:`LETTERS`):

- a column with charts, low-vision words or logMAR decimals is read as logMAR, and a
  whole number of 4 to 100 in it (no logMAR is above 3.0) is a letter count when the
  column's such numbers are mostly 20 or more (a count; Snellen's bare "12" is left as
  written, far out of range);
- a column of letter counts (whole numbers, mostly 20 or more) stays in letters, and the
  few charts or logMAR decimals written in it are read as letters (``85 - 50 logMAR``):
  a new patient's "6/12" in such a column is 70 letters, not 0.3.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import named_columns, own_copy
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q

#: A column of visual acuity, by its name ("VA_right", "BCVA LE", "Visual acuity (OD)",
#: "logMAR R", "Snellen"), not "Valproate", "Vascular" nor a "CVA" (a stroke).
ACUITY_NAME = re.compile(r"(?<![a-z])(?:bc|uc|cc|sc|p)?va(?![a-z])|visual\s?acuity|\bacuity\b|"
                         r"logmar|snellen|\bvision\b", re.IGNORECASE)
#: A column of decimal acuity (1.0 is 6/6), left as written.
_DECIMAL_NAME = re.compile(r"decimal", re.IGNORECASE)
#: The low-vision words and their logMAR.
LOW_VISION = {"cf": 2.0, "hm": 2.3, "pl": 2.7, "npl": 3.0}
_LOW_WORDS = {
    "cf": ("cf", "cfs", "count fingers", "counts fingers", "counting fingers", "fc",
           "finger count", "finger counting"),
    "hm": ("hm", "hmm", "hand movements", "hand movement", "hand motion", "hm only"),
    "pl": ("pl", "lp", "plp", "pl+", "lp+", "light perception", "perception of light",
           "perceives light", "pl only", "lp only", "pl with projection",
           "pl without projection"),
    "npl": ("npl", "nlp", "no pl", "no lp", "no light perception",
            "no perception of light", "pl-", "lp-"),
}
_LOW_OF = {w: k for k, ws in _LOW_WORDS.items() for w in ws}
#: A low-vision word with where it was measured ("CF @ 1m", "HM 50cm", "CF at 2 ft").
_AT_DISTANCE = re.compile(r"\s*(?:@|at)?\s*\d{1,3}(?:\.\d)?\s*(?:m|cm|ft|feet|metres?|meters?)"
                          r"\s*$")
#: "6/12", "6/9-2", "6/7.5 +1", "20/40", "3/60", "6/18 ph", "6/18 ph 6/9".
_FRACTION = re.compile(r"(\d{1,2}(?:\.\d)?)\s?/\s?(\d{1,3}(?:\.\d{1,2})?)\s?(?:([+-])\s?(\d))?")
_PINHOLE = re.compile(r"\s*\(?\s*(?:ph|pinhole|p/h)\b\s*:?\s*", re.IGNORECASE)
_NUMBER = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*")
#: A Snellen fraction's test distance: 6 m, 20 ft, 3 or 1 m (a 6-m chart brought
#: nearer), 4 m (ETDRS), 10 ft.
_DISTANCES = frozenset({1.0, 2.0, 3.0, 4.0, 6.0, 10.0, 20.0})


def _fraction(match: re.Match) -> float | None:
    distance, size = float(match.group(1)), float(match.group(2))
    if distance not in _DISTANCES or size <= 0 or size < distance / 4 or size > 400:
        return None
    letters = int(match.group(4)) if match.group(4) else 0
    return math.log10(size / distance) + (0.02 * letters if match.group(3) == "-"
                                           else -0.02 * letters)


def logmar_of(cell: object) -> float | None:
    """The logMAR of an acuity written one of the ways clinics write it, or ``None``.

    Examples
    --------
    >>> [round(logmar_of(c), 2) for c in ("6/6", "6/12", "6/9-2", "20/40", "CF", "0.3")]
    [0.0, 0.3, 0.22, 0.3, 2.0, 0.3]
    >>> logmar_of("R2") is None
    True
    """
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    if not text or len(text) > 40:
        return None
    if _NUMBER.fullmatch(text):
        v = float(text)
        return v if -0.5 <= v <= 3.0 else None
    if text in _LOW_OF:
        return LOW_VISION[_LOW_OF[text]]
    if (bare := _AT_DISTANCE.sub("", text)) != text and bare in _LOW_OF:
        return LOW_VISION[_LOW_OF[bare]]
    first = _FRACTION.match(text)
    if first is None:
        return None
    value = _fraction(first)
    rest = text[first.end():]
    if value is None:
        return None
    if not rest.strip():
        return value
    if (ph := _PINHOLE.match(rest)) is not None:
        after = rest[ph.end():].strip(" )")
        if not after:  # "6/18 ph": the acuity with a pinhole
            return value
        second = _FRACTION.fullmatch(after)
        if second is not None and (better := _fraction(second)) is not None:
            return min(value, better)  # "6/18 ph 6/9": the best the eye reached
    return None


#: Where :func:`read_visual_acuity` keeps each acuity column's scale.
ACUITY_SCALES_ATTR = "sparge_acuity_scales"
#: The scales: logMAR (lower is better), ETDRS letters (higher is better).
LOGMAR, LETTERS = "logMAR", "letters"
#: A letter count written as one ("70 letters", "70L", "ETDRS 70", "70 ETDRS letters").
_LETTER_COUNT = re.compile(
    r"(?:etdrs\s*:?\s*(\d{1,3})(?:\s*(?:letters?|ltrs?))?|(\d{1,3})\s*(?:etdrs\s*)?"
    r"(?:letters?|ltrs?|let|l)\b\.?|(\d{1,3})\s*etdrs)")
#: A chart's acuity with its letter count beside it ("6/12 (70 letters)").
_WITH_COUNT = re.compile(r"\s*\(?\s*(.+?)\s*\)?\s*$")
#: Whole numbers in this range may be letter counts (no logMAR is above 3.0).
_COUNT_RANGE = (4, 100)
#: A column's whole numbers are counts when their median is at least this.
_COUNT_MEDIAN = 20


def letters_to_logmar(letters: float) -> float:
    """The logMAR of an ETDRS letter count: 85 letters is 0 (6/6), 0.02 a letter."""
    return (85.0 - letters) / 50.0


def logmar_to_letters(logmar: float) -> float:
    """The ETDRS letter count of a logMAR acuity (:func:`letters_to_logmar`'s inverse)."""
    return 85.0 - 50.0 * logmar


def letters_written(cell: object) -> float | None:
    """The letter count of a cell written as one ("70 letters", "ETDRS 55", "62L"), or
    ``None`` (a plain number too: its column's scale says what it is)."""
    text = re.sub(r"\s+", " ", str(cell).strip().lower())
    m = _LETTER_COUNT.fullmatch(text)
    if m is None:
        return None
    n = float(next(g for g in m.groups() if g is not None))
    return n if n <= 100 else None


def _plain_number(text: str) -> float | None:
    return float(text) if _NUMBER.fullmatch(text) else None


def _chart(text: str) -> float | None:
    """The logMAR of a chart's acuity or a low-vision word (no plain number), with a
    letter count in brackets beside a chart preferred ("6/12 (70 letters)")."""
    if _NUMBER.fullmatch(text):
        return None
    v = logmar_of(text)
    if v is not None:
        return v
    first = _FRACTION.match(text)
    if first is not None and _fraction(first) is not None:
        inner = _WITH_COUNT.fullmatch(text[first.end():])
        if inner is not None and (n := letters_written(inner.group(1))) is not None:
            return letters_to_logmar(n)
    return None


#: A distinct cell read once: its chart's logMAR, its written letter count, its plain
#: number (each ``None`` when it is not one).
_Cell = tuple[float | None, float | None, float | None]


def _read_cell(text: str) -> _Cell:
    return _chart(text), letters_written(text), _plain_number(text)


def _whole_count(v: float | None) -> bool:
    return v is not None and v == int(v) and _COUNT_RANGE[0] <= v <= _COUNT_RANGE[1]


def _counts(cells: list[_Cell]) -> bool:
    """Whether a column's whole numbers of 4 to 100 are letter counts."""
    whole = [c[2] for c in cells if _whole_count(c[2])]
    return bool(whole) and float(np.median(whole)) >= _COUNT_MEDIAN


def _scale(cells: list[_Cell], weights: list[int]) -> str | None:
    """A column's scale from its distinct cells (:func:`_read_cell`) and how often each is
    written: logMAR where charts are at least 5 % of the written cells, letters where
    whole-number counts outnumber every other acuity, logMAR where plain logMAR numbers
    are."""
    charts = letters = logmar = 0
    for (chart, written, plain), w in zip(cells, weights, strict=True):
        if chart is not None:
            charts += w
        elif written is not None or _whole_count(plain):
            letters += w
        elif plain is not None and -0.5 <= plain <= 3.0:
            logmar += w
    if sum(weights) and charts >= 0.05 * sum(weights):
        return LOGMAR
    if letters > charts + logmar:
        numbers = any(c[2] is not None for c in cells)
        return LETTERS if _counts(cells) or not numbers else None
    return LOGMAR if logmar else None


def read_visual_acuity(df: pd.DataFrame, known: dict[str, str] | None = None
                       ) -> pd.DataFrame:
    """The table with the acuities of each column named for visual acuity read on the
    column's scale (a note per column in ``df.attrs["sparge_read_notes"]``, the scales
    in ``attrs[ACUITY_SCALES_ATTR]``): charts and low-vision words as logMAR, letter
    counts as logMAR beside them, or charts as letters in a column of letter counts.
    ``known``: a fitted encoder's scales, a new patient's cells read on them however
    few. Cells that are no acuity stay for the column's own reading (gap words, typos)."""
    # the names looked at once per set of columns (a new patient's 469-column row is
    # read on every form change)
    named = [c for c in named_columns(df, ACUITY_NAME) if not _DECIMAL_NAME.search(str(c))]
    if not named:
        return df
    known = known or {}
    # the scale an earlier reading of this table found (read_table's): a new patient's
    # "CF" it read as logMAR 2 is no count of 2 letters in a column of letter counts
    read_before = df.attrs.get(ACUITY_SCALES_ATTR, {})
    out, scales = df, {}
    for col in named:
        values = df[col]
        codes, uniques = pd.factorize(values)  # each distinct cell read once
        if not len(uniques):
            continue
        cells = [_read_cell(re.sub(r"\s+", " ", str(u).strip().lower())) for u in uniques]
        scale = known.get(str(col))
        if scale not in (LOGMAR, LETTERS):
            scale = _scale(cells, np.bincount(codes[codes >= 0],
                                              minlength=len(cells)).tolist())
        if scale is None:
            continue
        scales[str(col)] = scale
        counts = _counts(cells)
        was_logmar = scale == LETTERS and read_before.get(str(col)) == LOGMAR
        read = [_on_scale(c, scale, counts, was_logmar) for c in cells]
        new = np.asarray([r[0] if r is not None else None for r in read] + [None],
                         dtype=object)[codes]
        kinds = np.asarray([r[1] if r is not None else "" for r in read] + [""],
                           dtype=object)[codes]
        changed = pd.notna(new)
        if not changed.any():
            continue
        out = own_copy(out, df)
        out[col] = values.where(~changed, pd.Series(new, index=values.index))
        note = _note(str(col), scale, values.astype(str).to_numpy()[changed],
                     new[changed], kinds[changed])
        out.attrs["sparge_read_notes"] = [*out.attrs.get("sparge_read_notes", []), note]
    if scales:
        out = own_copy(out, df)
        out.attrs[ACUITY_SCALES_ATTR] = {**out.attrs.get(ACUITY_SCALES_ATTR, {}), **scales}
    return out


def _on_scale(cell: _Cell, scale: str, counts: bool, was_logmar: bool = False
              ) -> tuple[str, str] | None:
    """A cell's rewriting on its column's scale, and what it was ("chart", "letters",
    "logMAR"), or ``None`` when it stays as written. ``was_logmar``: the column's plain
    numbers are logMAR read so before (whole ones too: "2" was a "CF")."""
    chart, written, plain = cell
    if scale == LOGMAR:
        if chart is not None:
            return f"{round(chart, 3):g}", "chart"
        if written is not None:
            return f"{round(letters_to_logmar(written), 3):g}", "letters"
        if counts and _whole_count(plain):
            return f"{round(letters_to_logmar(plain), 3):g}", "letters"
        return None
    if chart is not None:
        return f"{round(logmar_to_letters(chart)):g}", "chart"
    if written is not None:
        return f"{written:g}", "letters"
    if plain is not None and (was_logmar or plain != int(plain)) and -0.5 <= plain <= 3.0:
        return f"{round(logmar_to_letters(plain)):g}", "logMAR"
    return None


def _note(col: str, scale: str, cells: np.ndarray, new: np.ndarray,
          kinds: np.ndarray) -> str:
    """What was read in one column, each kind of cell counted with its first example."""
    parts = []
    for kind, one, many in (
            ("chart", "visual acuity written as charts and clinics write it",
             "visual acuities written as charts and clinics write them"),
            ("letters", "ETDRS letter count", "ETDRS letter counts"),
            ("logMAR", "logMAR acuity", "logMAR acuities")):
        hit = np.flatnonzero(kinds == kind)
        if len(hit):
            i = hit[0]
            what = one if len(hit) == 1 else many
            parts.append(f"{len(hit):,} {what} (e.g. '{_q(cells[i].strip(), 20)}' as "
                         f"{format_number(float(new[i]))})")
    if scale == LOGMAR:
        return (f"Column '{_q(col)}': " + " and ".join(parts) + " read as logMAR, lower is "
                "better (6/6 or 20/20 is 0, 6/60 is 1.0; CF 2.0, HM 2.3, PL 2.7, NPL 3.0"
                + ("; 85 letters is 0, each letter 0.02" if (kinds == "letters").any()
                   else "") + ").")
    return (f"Column '{_q(col)}' counts ETDRS letters: " + " and ".join(parts)
            + " read as letters, higher is better (85 letters is 6/6, 0.02 logMAR a "
            "letter; CF is -15, HM -30).")


__all__ = ["ACUITY_NAME", "ACUITY_SCALES_ATTR", "LETTERS", "LOGMAR", "LOW_VISION",
           "letters_to_logmar", "letters_written", "logmar_of", "logmar_to_letters",
           "read_visual_acuity"]
