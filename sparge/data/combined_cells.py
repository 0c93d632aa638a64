"""Columns that write several values in one cell (TNM stages "pT2N1M0", blood pressures
"142/88"): which text columns to look at, a quick look at their first cells, and the
column replaced by its parts with a note (:mod:`sparge.data.tnm`,
:mod:`sparge.data.blood_pressure`)."""

from __future__ import annotations

import contextlib
import functools
import re
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar

import numpy as np
import pandas as pd

from sparge.data.safe_text import first_cells
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS

#: Cells of a column read to judge whether it may hold combined values at all.
SAMPLE = 200
#: ``df.attrs`` key: how many columns the parts added (a pressure's 2 parts: 1 more).
ADDED = "sparge_columns_added"


def mostly(values: pd.Series, matches: Callable[[str], object], share: float,
           fewest: int) -> bool:
    """Whether at least ``share`` of a column's first :data:`SAMPLE` filled cells match:
    a quick look before reading every cell (every column of a CSV is text when read, and a
    pandas call per column cost seconds on a 469-column table). Fewer than ``fewest``
    filled cells (unless the column has fewer rows) is no."""
    head = head_cells(values, SAMPLE)
    if len(head) < min(fewest, len(values)):
        return False
    return sum(1 for h in head if matches(h)) >= share * len(head)


#: A table of at most this many rows (a new patients' file) is looked at cell by cell in
#: one pass: a pandas call per column and reader cost 0.3 s on a one-row, 469-column query.
SMALL_ROWS = 64
#: A cell that is a plain number or empty holds no combined value ("142/88", "5'7",
#: "38+4", "pT2N1M0", "1h 20m" all write more).
_PLAIN = re.compile(r"\s*(?:[+-]?\d+(?:\.\d+)?)?\s*")


#: The plain columns of the small tables seen in one :func:`shared_looks` block, by the
#: table's id: the readers of one table look at it once (5 ms a look, eleven readers).
_LOOKS: ContextVar[dict | None] = ContextVar("sparge_cell_looks", default=None)


@contextlib.contextmanager
def shared_looks():
    """Within the block, a small table's cells are looked at once for all the readers
    (:func:`text_columns`); a table changed in place between two blocks is looked at
    again."""
    token = _LOOKS.set({})
    try:
        yield
    finally:
        _LOOKS.reset(token)


def head_cells(values: pd.Series, n: int) -> list[str]:
    """:func:`~sparge.data.safe_text.first_cells`, once per column and ``n`` within a
    :func:`shared_looks` block: the readers of one table looked at each column's first
    cells ten times (half of a 469-column table's splitting). A column is the same when it
    holds the same Arrow data (immutable: a change in place replaces it); other columns
    are looked at each time. The list is shared: never change it."""
    cache = _LOOKS.get()
    data = getattr(getattr(values, "array", None), "_pa_array", None)
    if cache is None or data is None:
        return first_cells(values, n)
    key = ("head", id(data), len(values), n)
    hit = cache.get(key)
    if hit is not None and hit[0] is data:
        return hit[1]
    cells = first_cells(values, n)
    cache[key] = (data, cells)  # held: its id is not another column's in the block
    return cells


def columns_holding(block: pd.DataFrame, cell_test: Callable[[object], bool],
                    pattern: str) -> np.ndarray:
    """Which columns of ``block`` may hold a cell ``cell_test`` accepts.

    A small table (:data:`SMALL_ROWS`) is looked at cell by cell in one pass; a larger one
    by one vectorised search for ``pattern`` per column, which must find every cell that
    ``cell_test`` accepts (it may find more: the caller reads the columns found cell by
    cell). A Python call per cell took 6 s on a 200,000-row, 52-column file.

    Returns
    -------
    ndarray of bool
        One flag per column of ``block``.
    """
    test = np.frompyfunc(cell_test, 1, 1)
    if len(block) <= SMALL_ROWS:
        return np.asarray(test(block.to_numpy(dtype=object)), dtype=bool).any(axis=0)
    flags = np.zeros(block.shape[1], dtype=bool)
    for j in range(block.shape[1]):
        values = block.iloc[:, j]
        try:
            flags[j] = bool(values.str.contains(pattern, regex=True, na=False).any())
        except (AttributeError, TypeError):  # cells that are not all text: one by one
            flags[j] = bool(np.asarray(test(values.to_numpy(dtype=object)), dtype=bool).any())
    return flags


def plain_columns(df: pd.DataFrame) -> list[bool] | None:
    """For a small table (:data:`SMALL_ROWS`), whether each column's cells are all plain
    numbers or empty; ``None`` for a larger one."""
    if not 0 < len(df) <= SMALL_ROWS or not len(df.columns):
        return None
    cache, key = _LOOKS.get(), id(df)
    if cache is not None and key in cache:
        ref, columns, flags = cache[key]
        if ref() is df and columns == tuple(df.columns):
            return flags
    # a column the block has seen (its Arrow data: a reader's copy of the table keeps
    # most of them) is not looked at again
    data = [getattr(values.array, "_pa_array", None) for _, values in df.items()] \
        if cache is not None else [None] * df.shape[1]
    known = [cache.get(("plain", id(d))) if d is not None else None for d in data]
    flags = [hit[1] if hit is not None and hit[0] is d else None
             for hit, d in zip(known, data, strict=True)]
    todo = [j for j, f in enumerate(flags) if f is None]
    if todo:  # one pass over their cells, not a call per column
        block = df.iloc[:, todo].to_numpy(dtype=object)
        for k, j in enumerate(todo):
            flags[j] = all(v is None or (isinstance(v, float) and v != v)
                           or (isinstance(v, str) and _PLAIN.fullmatch(v) is not None)
                           or isinstance(v, (int, float)) for v in block[:, k])
            if cache is not None and data[j] is not None:
                cache[("plain", id(data[j]))] = (data[j], flags[j])  # held: ids unique
    if cache is not None:
        cache[key] = (weakref.ref(df), tuple(df.columns), flags)
    return flags


def text_columns(df: pd.DataFrame, known: Iterable[str],
                 may_hold: Callable[[pd.Series], bool]) -> Iterator[tuple[str, bool]]:
    """The text columns of ``df`` to read for combined values, with whether each is
    ``known`` (split however few its cells: a model's column in a new patient's row).
    In a small table, a column whose cells are all plain numbers or empty is not one."""
    known = {str(c) for c in known}
    cols = list(df.columns)
    plain = plain_columns(df)
    for j, col in enumerate(cols):
        forced = str(col) in known
        if plain is not None and plain[j] and not forced:
            continue
        values = df[col]
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        if forced or may_hold(values):
            yield col, forced


@functools.lru_cache(maxsize=256)
def _named_positions(named: re.Pattern, columns: tuple[str, ...]) -> tuple[int, ...]:
    """The positions of the columns whose names ``named`` finds."""
    return tuple(j for j, c in enumerate(columns) if named.search(c))


def named_columns(df: pd.DataFrame, named: re.Pattern) -> list:
    """The columns of ``df`` whose names ``named`` finds, looked up once per set of
    column names (a new patient's row is read against the model's hundreds of names)."""
    return [df.columns[j] for j in _named_positions(named, tuple(map(str, df.columns)))]


def own_copy(out: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """``out`` itself when a reader has copied ``df`` already, else ``df``'s copy with
    its notes (``attrs``) kept: a reader copies a table once, on its first change."""
    if out is not df:
        return out
    copy = df.copy()
    copy.attrs = dict(df.attrs)
    return copy


def rewrite_named(df: pd.DataFrame, named: re.Pattern | Iterable,
                  read: Callable[[str], str | None],
                  note: Callable[[str, int, str, str], str], share: float = 0.05,
                  gap: str | None = None) -> pd.DataFrame:
    """The columns named by ``named`` with each cell ``read`` gives a rewriting for
    rewritten so (a plain number is read as it is), and a note per column,
    ``note(column, cells rewritten, first cell as written, its rewriting)``: an obstetric
    gestation "38/40" as 38, a centile column's "-1.2 SD" as its centile. A column is
    looked at when at least ``share`` of its first cells are read so. ``named`` is a
    pattern of the columns' names, or the columns themselves. Cells ``read`` as ``gap``
    (a missing token, "not known") are rewritten but neither counted nor shown in the
    note."""

    def may_hold(values: pd.Series) -> bool:
        return mostly(values, lambda h: read(h) is not None, share, 1)

    out = df
    # the name first: cheap, and once per table's columns (a new patient's 469-column
    # row asked it of every column eleven times)
    named_cols = named_columns(df, named) if isinstance(named, re.Pattern) else \
        [c for c in named if c in df.columns]
    for col, _ in text_columns(df[named_cols], (), may_hold) if named_cols else ():
        values = df[col]
        codes, uniques = pd.factorize(values)  # each distinct cell read once
        read_once = np.asarray([read(u) for u in uniques] + [None], dtype=object)
        found = pd.Series(read_once[codes], index=values.index, dtype=object)
        rewritten = found.notna() & ~pd.to_numeric(values, errors="coerce").notna()
        if not rewritten.any():
            continue
        if out is df:
            out = df.copy()
            out.attrs = dict(df.attrs)
        out[col] = values.where(~rewritten, found)
        counted = rewritten & (found != gap) if gap is not None else rewritten
        if counted.any():
            out.attrs["sparge_read_notes"] = [
                *out.attrs.get("sparge_read_notes", []),
                note(str(col), int(counted.sum()), str(values[counted].iloc[0]).strip(),
                     str(found[counted].iloc[0]))]
    return out


def replaced(df: pd.DataFrame, column: str, parts: pd.DataFrame, note: str
             ) -> pd.DataFrame:
    """``df`` with ``column`` replaced, in its place, by the columns of ``parts``, and
    ``note`` added to ``df.attrs["sparge_read_notes"]`` (and the columns added counted for
    :func:`source_columns`)."""
    at = list(df.columns).index(column)
    attrs = dict(df.attrs)
    out = pd.concat([df.iloc[:, :at], parts, df.iloc[:, at + 1:]], axis=1)
    out.attrs = attrs
    out.attrs["sparge_read_notes"] = [*attrs.get("sparge_read_notes", []),
                                      *([note] if note else [])]
    out.attrs[ADDED] = int(attrs.get(ADDED, 0)) + parts.shape[1] - 1
    return out


def written_cells(values: pd.Series) -> tuple[pd.Series, pd.Series]:
    """A column's cells as stripped text, and those written (neither empty nor a gap
    word), by row."""
    text = values.astype(str).where(values.notna(), "").str.strip()
    return text, text[(text != "") & ~text.str.lower().isin(DEFAULT_MISSING_TOKENS)]


def parts_frame(parts: pd.Series, names: list[str], index) -> pd.DataFrame:
    """The columns ``names`` of each cell's parts (a tuple, or ``None``: NaN in each)."""
    return pd.DataFrame({name: [p[i] if p is not None else np.nan for p in parts]
                         for i, name in enumerate(names)}, index=index)


def split_note(column: str, what: str, how: str, names: list[str], written: pd.Series,
               found: pd.Series) -> str:
    """The read note of a column split into numeric parts ("Column 'BP' holds blood
    pressures (e.g. '142/88'): read as two numeric columns, 'BP systolic' and 'BP
    diastolic'"), or of one none of whose cells could be ("" without written cells).

    Parameters
    ----------
    what : what its cells hold ("blood pressures"); ``how`` how they are written
        ("'systolic/diastolic'").
    names : the parts' columns.
    written : the column's written cells, as text; ``found`` whether each was read.
    """
    quoted = [f"'{_q(n)}'" for n in names]
    shown = ", ".join(quoted[:-1]) + " and " + quoted[-1] if len(quoted) > 1 else quoted[0]
    other = int(len(written) - found.sum())
    if found.any():
        count = {2: "two", 3: "three"}.get(len(names), str(len(names)))
        return (f"Column '{_q(column)}' holds {what} (e.g. '{_q(written[found].iloc[0], 20)}'"
                f"): read as {count} numeric columns, {shown}" + (
                    f"; its {other:,} other written cell(s) (e.g. "
                    f"'{_q(written[~found].iloc[0], 20)}') are gaps there" if other else "")
                + ".")
    return (f"Column '{_q(column)}': {other:,} written cell(s) are not {what} written {how} "
            f"(e.g. '{_q(written.iloc[0], 20)}'): gaps in {shown}." if other else "")


def source_columns(df: pd.DataFrame) -> int:
    """How many columns the file had: ``df``'s, less those its split cells added
    (walk-through 30: a 28-column file was said to have 29, its blood pressure read in
    two)."""
    return int(df.shape[1]) - int(df.attrs.get(ADDED, 0))
