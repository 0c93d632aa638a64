"""Blood pressures written in one cell ("142/88"), read as two numeric columns.

A practice export wrote each patient's blood pressure as "systolic/diastolic" in one column
(walk-through 29): as text, 900 different answers, left out as free text, and with it one
of the measurements a clinician reads first. Read apart, "<name> systolic" and "<name>
diastolic" are numbers like any other.

A column is read so when at least :data:`PAIR_SHARE` of its written cells are such pairs
(an optional "mmHg" after them), and nearly all pairs are possible pressures with the
systolic above the diastolic: a visual acuity of "6/12" or "20/40", or a score "3/5", is
not split. Its other cells are gaps in both parts, and the report says how many.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import (
    mostly,
    named_columns,
    own_copy,
    parts_frame,
    replaced,
    split_note,
    text_columns,
    written_cells,
)
from sparge.data.number_format import format_number
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS

#: "142/88", "142 / 88 mmHg", "142/88mm Hg", decimals with a point or comma.
# ... after "BP" as a note writes it ("BP 138/89", "BP: 140/80": walk-through 56's dialysis
# unit lost 55 pressures so)
_PAIR = re.compile(r"\s*(?:(?:NI)?BP\s?:?\s*)?(\d{2,3}(?:[.,]\d+)?)\s*/\s*(\d{2,3}(?:[.,]\d+)?)"
                   r"(?:\s*mm\s*hg)?\s*", re.IGNORECASE)  # linear on a hostile cell
#: Share of a column's written cells that must be pairs.
PAIR_SHARE = 0.8
#: Fewest pairs for a column to be read so.
PAIR_MIN = 5
#: Share of the pairs that must be possible pressures (systolic 50-300 above a diastolic
#: of 20-200).
POSSIBLE_SHARE = 0.95
#: The two parts' names, after the column's.
PARTS = ("systolic", "diastolic")


#: A column of blood pressures by its name: its values are in mmHg.
_PRESSURE_NAME = re.compile(r"\b(?:systolic|diastolic|sbp|dbp|blood pressure|bp|"
                            r"mean arterial(?: pressure)?|map)\b", re.IGNORECASE)


def pressure_unit(column: object) -> str | None:
    """"mmHg" for a column named for a blood pressure (a part of one written in one cell,
    "Blood pressure systolic", or "SBP"), else ``None``: a new patient's "150 mmHg" in
    the systolic field was set to missing (walk-through 48), the training file's
    "142/88 mmHg" read."""
    return "mmHg" if _PRESSURE_NAME.search(str(column)[:120]) else None


def pressure_parts(cell: object) -> tuple[float, float] | None:
    """The systolic and diastolic pressure of one cell ("142/88": ``(142.0, 88.0)``), or
    ``None`` for a cell that is not a pair of numbers.

    Examples
    --------
    >>> pressure_parts("142/88"), pressure_parts(" 120 / 80 mmHg"), pressure_parts("high")
    ((142.0, 88.0), (120.0, 80.0), None)
    """
    m = _PAIR.fullmatch(str(cell))
    if m is None:
        return None
    return float(m.group(1).replace(",", ".")), float(m.group(2).replace(",", "."))


def _possible(pairs: list[tuple[float, float]]) -> float:
    """The share of pairs that are possible blood pressures."""
    if not pairs:
        return 0.0
    s, d = np.asarray(pairs, dtype=float).T
    return float(np.mean((s >= 50) & (s <= 300) & (d >= 20) & (d <= 200) & (s > d)))


def _may_hold_pairs(values: pd.Series) -> bool:
    """Whether a column's first cells are mostly pairs (:func:`mostly`)."""
    return mostly(values, lambda h: "/" in h and _PAIR.fullmatch(h), PAIR_SHARE / 2,
                  PAIR_MIN)


#: A column of one part of the blood pressure, by its name ("systolic_bp", "SBP", "BP
#: systolic", "Diastolic BP (mmHg)").
_SYSTOLIC = re.compile(r"systolic|(?<![a-z])sbp(?![a-z])", re.IGNORECASE)
_DIASTOLIC = re.compile(r"diastolic|(?<![a-z])dbp(?![a-z])", re.IGNORECASE)


def _part_columns(df: pd.DataFrame) -> list[tuple[str, str]]:
    """The (systolic, diastolic) column pairs of a table: names that differ only in the
    part's word ("systolic_bp" / "diastolic_bp", "SBP" / "DBP"), else the table's only
    systolic and only diastolic column."""
    cols = [str(c) for c in df.columns]
    systolic = [c for c in named_columns(df, _SYSTOLIC) if not _DIASTOLIC.search(str(c))]
    diastolic = [c for c in named_columns(df, _DIASTOLIC) if not _SYSTOLIC.search(str(c))]
    if not systolic or not diastolic:
        return []
    by_key = {c.lower(): c for c in map(str, diastolic)}
    pairs = []
    for c in map(str, systolic):
        twin = re.sub(r"(?<![a-z])sbp(?![a-z])", "dbp",
                      re.sub("systolic", "diastolic", c.lower()))
        if twin in by_key:
            pairs.append((c, by_key[twin]))
    if not pairs and len(systolic) == len(diastolic) == 1:
        pairs = [(str(systolic[0]), str(diastolic[0]))]
    return [(s_, d) for s_, d in pairs if s_ in cols and d in cols]


def read_pairs_in_parts(df: pd.DataFrame) -> pd.DataFrame:
    """The table with a whole blood pressure ("154/87") written in its systolic or its
    diastolic column read as its part there, and the other part written into the other
    column where that is empty (a note per column in ``df.attrs["sparge_read_notes"]``).

    Walk-through 77's clinic wrote "154/87" in 'systolic_bp' for 47 patients and left
    'diastolic_bp' empty: the cells were set to missing, both measurements lost, and the
    patients' missing shares left 10 % of them out of training. A systolic (or diastolic)
    column without its twin is read so too: walk-through 106's dialysis unit wrote 163 of
    its 'Pre SBP' as "145/80" beside plain "133", and the column was left out as text.
    """
    out = df
    twins = _part_columns(df)
    for sys_col, dia_col in twins:
        for here, there, i in ((sys_col, dia_col, 0), (dia_col, sys_col, 1)):
            out = _read_part(out, df, here, i, there)
    paired = {c for pair in twins for c in pair}
    for i, pattern, other in ((0, _SYSTOLIC, _DIASTOLIC), (1, _DIASTOLIC, _SYSTOLIC)):
        for col in named_columns(df, pattern):
            if str(col) not in paired and not other.search(str(col)):
                out = _read_part(out, df, col, i, None)
    return out


def _read_part(out: pd.DataFrame, df: pd.DataFrame, here, i: int, there
               ) -> pd.DataFrame:
    """``out`` with the whole pressures in column ``here`` read as their part ``i`` (0:
    systolic), the other part written into ``there`` where that is empty (``None``: no
    such column, the other part is dropped), with a note."""
    text = out[here].astype(str).where(out[here].notna(), "")
    has_slash = text.str.contains("/", regex=False).to_numpy()
    if not has_slash.any():
        return out
    rows = np.flatnonzero(has_slash)
    parts = {r: pressure_parts(text.iloc[r]) for r in rows}
    parts = {r: p for r, p in parts.items() if p is not None and _possible([p]) == 1}
    if not parts:
        return out
    out = own_copy(out, df)
    filled = 0
    if there is not None:
        other = out[there].astype(str).where(out[there].notna(), "").str.strip()
        empty = other.str.lower().isin(DEFAULT_MISSING_TOKENS) | (other == "")
        # a library caller's numeric diastolic column takes a number, a CSV's text
        numeric = pd.api.types.is_numeric_dtype(out[there])
    for r, p in parts.items():
        out.iat[r, out.columns.get_loc(here)] = f"{p[i]:g}"
        if there is not None and empty.iloc[r]:
            out.iat[r, out.columns.get_loc(there)] = (p[1 - i] if numeric
                                                      else f"{p[1 - i]:g}")
            filled += 1
    first = text.iloc[next(iter(parts))]
    note = (f"Column '{_q(here)}': {len(parts):,} cell(s) hold a whole blood "
            f"pressure (e.g. '{_q(first, 20)}'), read as its {PARTS[i]} part there"
            + (f" and its {PARTS[1 - i]} part in '{_q(there)}', empty in "
               f"{'that row' if filled == 1 else f'those {filled:,} rows'}"
               if filled else "")
            + (f" (the table has no {PARTS[1 - i]} column: that part is not used)"
               if there is None else "") + ".")
    out.attrs["sparge_read_notes"] = [*out.attrs.get("sparge_read_notes", []), note]
    return out


def split_pressures(df: pd.DataFrame, known=()) -> pd.DataFrame:
    """The table with each column of blood pressures ("142/88") replaced by two numeric
    columns, ``"<name> systolic"`` and ``"<name> diastolic"``, in its place (a note in
    ``df.attrs["sparge_read_notes"]`` says so). A table without one is returned as it is;
    so is a column whose two names are already taken.

    Parameters
    ----------
    df : DataFrame
    known : iterable of str
        Columns split whatever their cells: those a model was fitted with, in a new
        patients' table of one or a few rows.
    """
    df = out = read_pairs_in_parts(df)
    for col, forced in text_columns(df, known, _may_hold_pairs):
        text, written = written_cells(df[col])
        if len(written) < PAIR_MIN and not forced:
            continue
        parts = written.map(pressure_parts)
        found = parts.dropna().tolist()
        if not forced and (len(found) < PAIR_MIN or len(found) < PAIR_SHARE * len(written)
                           or _possible(found) < POSSIBLE_SHARE):
            continue
        names = [f"{col} {part}" for part in PARTS]
        if any(n in out.columns for n in names):
            continue
        new = parts_frame(text.map(pressure_parts), names, df.index)
        # a typed form's cell is no CSV cell: the note names the parts, not lines
        note = split_note(col, "blood pressures", "'systolic/diastolic'", names, written,
                          parts.notna())
        out = replaced(out, col, new, note)
    return out


def pressure_columns(columns) -> list[str]:
    """The columns split by :func:`split_pressures` among a model's input columns: each
    ``"<name> systolic"`` beside a ``"<name> diastolic"``, as ``<name>``."""
    cols = [str(c) for c in columns]
    return [c[:-len(" systolic")] for c in cols if c.endswith(" systolic")
            and c[:-len(" systolic")] + " diastolic" in set(cols)]


def typed_pressures(row: dict) -> tuple[dict, list[str]]:
    """A form's values with a pressure typed "142/88" in a systolic field read as its two
    parts, the diastolic into its own field when that is empty (walk-through 30: a typed
    "142/88" was set to missing, though the same cell in a file is split); and a note for
    each.

    Examples
    --------
    >>> typed_pressures({"BP systolic": "142/88", "BP diastolic": None})[0]
    {'BP systolic': 142.0, 'BP diastolic': 88.0}
    """
    out = dict(row)
    notes = []
    for name in pressure_columns(out):
        sys_, dia = f"{name} systolic", f"{name} diastolic"
        pair = pressure_parts(out[sys_]) if out.get(sys_) is not None else None
        if pair is None or out.get(dia) not in (None, "", pair[1]):
            continue
        out[sys_], out[dia] = pair
        notes.append(f"'{_q(str(row[sys_]), 20)}' typed in '{_q(sys_)}' read as "
                     f"{format_number(pair[0])} there and {format_number(pair[1])} in "
                     f"'{_q(dia)}'.")
    return out, notes


__all__ = ["PAIR_SHARE", "pressure_columns", "pressure_parts", "read_pairs_in_parts",
           "split_pressures", "typed_pressures"]
