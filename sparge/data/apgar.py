"""Apgar scores written in one cell ("8/9": at 1 and 5 minutes), read as numeric columns.

A neonatal export wrote each infant's Apgar scores as "8/9" in one column (walk-through
31): as text, too many answers, left out as free text, and with it one of the first
things a neonatologist reads. Read apart, "<name> 1 min", "<name> 5 min" (and "<name> 10
min" where a cell gives three, "8/9/10") are numbers like any other.

Only a column named like an Apgar score is read so ("a/b" alone may be a ratio, a visual
acuity or a blood pressure), when at least :data:`SHARE` of its written cells are such
scores, each from 0 to 10. Its other cells are gaps in every part, and the report says
how many.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sparge.data.combined_cells import mostly, replaced, rewrite_named, text_columns
from sparge.data.parsing import cell_keys, cell_text
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS, norm_key

#: "8/9", "8 / 9", "8/9/10", "8-9", "8, 9": scores of 0 to 10 (linear on a hostile cell).
_SCORES = re.compile(r"\s*(10|\d)\s*[/,;-]\s*(10|\d)(?:\s*[/,;-]\s*(10|\d))?\s*")
#: One score at a named minute, "9 at 5 min", "9 @ 5 mins", "9 (5 min)", "5 min: 9", "5': 9"
#: (walk-through 43: 12 % of an export's Apgars were written so, and the column was lost).
_ONE_AT = re.compile(
    r"\s{0,3}(?:(10|\d)\s{0,3}(?:at|@|\()?\s{0,3}(10|5|1)\s{0,3}(?:min(?:ute)?s?|')\.?\)?|"
    r"(10|5|1)\s{0,3}(?:min(?:ute)?s?|')\.?\s{0,3}[:=-]?\s{0,3}(10|\d))\s{0,3}", re.IGNORECASE)
#: A column named like an Apgar score.
_NAME = re.compile(r"apgar", re.IGNORECASE)
#: Share of a column's written cells that must be scores.
SHARE = 0.8
#: Fewest scores for a column to be read so.
FEWEST = 5
#: The parts' names, after the column's.
MINUTES = ("1 min", "5 min", "10 min")


def apgar_parts(cell: object) -> tuple[float, ...] | None:
    """The scores of one cell ("8/9": ``(8.0, 9.0)``; "8/9/10": three), or ``None``.

    Examples
    --------
    >>> apgar_parts("8/9"), apgar_parts("6/8/9"), apgar_parts("142/88")
    ((8.0, 9.0), (6.0, 8.0, 9.0), None)
    >>> apgar_parts("8, 9"), apgar_parts("9 at 5 min")
    ((8.0, 9.0), (nan, 9.0))
    """
    text = str(cell)
    if len(text) > 40:
        return None
    m = _SCORES.fullmatch(text)
    if m is not None:
        return tuple(float(g) for g in m.groups() if g is not None)
    m = _ONE_AT.fullmatch(text)
    if m is None:
        return None
    score, minute = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(4),
                                                                             m.group(3))
    at = {"1": 0, "5": 1, "10": 2}[minute]
    return tuple(float(score) if i == at else np.nan for i in range(max(at + 1, 2)))


def split_apgars(df: pd.DataFrame, known: dict[str, int] | None = None) -> pd.DataFrame:
    """The table with each column of Apgar scores written "8/9" replaced, in its place,
    by ``"<name> 1 min"`` and ``"<name> 5 min"`` (and ``"<name> 10 min"`` when a cell
    gives three), with a note in ``df.attrs["sparge_read_notes"]``. A column whose part
    names are taken is left as it is.

    Parameters
    ----------
    df : DataFrame
    known : dict, optional
        ``{column: number of parts}`` split whatever their cells, into as many parts
        (those a model was fitted with, :func:`apgar_columns`, in a new patients' table
        of a few rows).
    """
    known = dict(known or {})

    def may_hold(values: pd.Series) -> bool:
        return bool(_NAME.search(str(values.name))) and mostly(
            values, lambda h: apgar_parts(h) is not None, SHARE / 2, FEWEST)

    out = df
    for col, forced in text_columns(df, known, may_hold):
        values = df[col]
        text = values.astype(str).where(values.notna(), "").str.strip()
        written = text[(text != "") & ~text.str.lower().isin(DEFAULT_MISSING_TOKENS)]
        parts = written.map(apgar_parts)
        found = int(parts.notna().sum())
        # a few rows (a new patient's file) need not hold FEWEST: the name says Apgar
        if not forced and (found < min(FEWEST, len(written)) or found < SHARE * len(written)
                           or not found):
            continue
        width = max(known.get(str(col), 2),
                    3 if any(p is not None and len(p) == 3 for p in parts) else 2)
        names = [f"{col} {m}" for m in MINUTES[:width]]
        split = text.map(apgar_parts)
        new = pd.DataFrame({name: [p[i] if p is not None and len(p) > i else np.nan
                                   for p in split] for i, name in enumerate(names)},
                           index=df.index)
        # the export's own columns of the same scores ("Apgar 1 min" beside "APGAR"):
        # one measure, filled where they are empty, not a second column with gaps
        # (walk-through 32: every infant had two gaps more, and 0 of 708 were kept)
        own = _own_columns(out, col, names)
        if own is None and any(n in out.columns for n in names):
            continue
        other = len(written) - found
        example = written[parts.notna()].iloc[0] if found else ""
        stray = (f"; its {other:,} other written cell(s) (e.g. "
                 f"'{_q(written[parts.isna()].iloc[0], 20)}') are gaps there" if other else "")
        if own is not None:
            out = out.copy() if out is df else out
            for name, target in zip(names, own, strict=True):
                keys = cell_keys(cell_text(out[target])).to_numpy()
                empty = (keys == "") | np.isin(keys, list(DEFAULT_MISSING_TOKENS))
                out[target] = out[target].where(~empty, new[name])
            listed = ", ".join(f"'{_q(n)}'" for n in own)
            note = (f"Column '{_q(col)}' holds Apgar scores (e.g. '{_q(example, 12)}'): read "
                    f"into the table's {listed} where those are empty{stray}.")
            out = replaced(out, col, new.iloc[:, :0], note)
            continue
        listed = ", ".join(f"'{_q(n)}'" for n in names)
        note = (f"Column '{_q(col)}' holds Apgar scores (e.g. '{_q(example, 12)}'): read as "
                f"{width} numeric columns, {listed}{stray}.") if found or other else ""
        out = replaced(out, col, new, note)
    return out


#: The minute an Apgar column is named for: "Apgar 5 min", "Apgar at 1 minute", "5' Apgar".
_MINUTE_NAME = re.compile(r"(?<!\d)(1|5|10)\s{0,2}(?:min(?:ute)?s?\b|')", re.IGNORECASE)


def minute_score(minute: int):
    """A reader of a cell of a column of Apgar scores at ``minute``: the score at that
    minute of a cell written with the others ("8/9" in a 5-minute column: "9"; "6/8/9"
    in a 10-minute one: "9"), ``None`` for any other cell (read as it is).

    Examples
    --------
    >>> read = minute_score(5)
    >>> read("8/9"), read("6/8/9"), read("9 at 5 min"), read("9"), read("7 at 1 min")
    ('9', '8', '9', None, None)
    """
    at = {1: 0, 5: 1, 10: 2}[minute]

    def read(cell: object) -> str | None:
        text = str(cell)
        if len(text) > 20:
            return None
        one = _ONE_AT.fullmatch(text)  # "9 at 5 min" in a 5-minute column: "9"
        if one is not None:
            score, said = (one.group(1), one.group(2)) if one.group(1) is not None else \
                (one.group(4), one.group(3))
            return score if int(said) == minute else None
        m = _SCORES.fullmatch(text)
        if m is None:
            return None
        parts = [g for g in m.groups() if g is not None]  # at 1, 5 (and 10) minutes
        return parts[at] if at < len(parts) else None

    return read


def read_minute_apgars(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the scores written together ("8/9") in a column of Apgar scores at one
    minute ("Apgar 5 min") read as that minute's score, a note each; other columns and
    cells unchanged. Walk-through 99's "Apgar 5 min" wrote 63 of its 434 scores as "9/10"
    (at 1 and 5 minutes), too few to split the column in two (:data:`SHARE`), and set
    them to missing."""
    out = df
    for col in df.columns:
        name = str(col)[:80]
        minutes = {int(m) for m in _MINUTE_NAME.findall(name)}
        if not _NAME.search(name) or len(minutes) != 1:
            continue
        minute = minutes.pop()
        out = rewrite_named(out, [col], minute_score(minute), lambda c, n, example, new,
                            m=minute: (
            f"Column '{_q(c)}': {n:,} Apgar score(s) written with the others or their "
            f"minute (e.g. '{_q(example, 12)}') read as the score at {m} "
            f"minute{'s' if m != 1 else ''} ({new})."), share=0.01)
    return out


def _own_columns(df: pd.DataFrame, col: str, names: list[str]) -> list[str] | None:
    """The table's columns named as ``names`` but for case and spaces ("Apgar 1 min" for
    "APGAR 1 min"), one per name, or ``None`` when it lacks one."""
    found = {norm_key(c): str(c) for c in df.columns if str(c) != str(col)}
    own = [found.get(norm_key(n)) for n in names]
    return None if any(o is None for o in own) else own


def apgar_columns(columns) -> dict[str, int]:
    """The columns split by :func:`split_apgars` among a model's input columns, with
    their number of parts: ``"<name> 1 min"`` beside ``"<name> 5 min"`` (and ``"<name> 10
    min"``), for a name like an Apgar score."""
    cols = [str(c) for c in columns]
    have = set(cols)
    out = {}
    for c in cols:
        name = c[:-len(" 1 min")]
        if c.endswith(" 1 min") and _NAME.search(name) and f"{name} 5 min" in have:
            out[name] = 3 if f"{name} 10 min" in have else 2
    return out
