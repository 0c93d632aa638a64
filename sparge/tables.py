"""Encoding tables: categorical text -> integers (the paper's Table "Integer Encoding").

A table maps a column to ``{level: code}``. Matching of column names and levels is case- and
whitespace-insensitive. The default table is the paper's (DESIGN.md §3); tables can be
saved and loaded as CSV (columns ``column, value, code``) or JSON, and edited.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping

import pandas as pd

from .errors import DataError

MISSING_TOKENS = frozenset({"", "na", "n/a", "n.a.", "nan", "none", "null", "?", "unknown",
                            "-", "--", "missing", "not available", "nil", "#n/a", "."})

_YES_NO_UNKNOWN = {"Unknown": 0, "Yes": 1, "No": 2}
_SMOKE = {"Yes": 1, "No": 2, "Previously": 3}
_EXPOSURE = {"Never": 1, "Sometimes": 2, "Most of the times": 3, "Always": 4}
_YES_NO = {"Yes": 1, "No": 2}
_CUPS = {"Never/rarely": 1, "< 1 cup a week": 2, ">= 1 cup a week but <= 1 cup a day": 3,
         "Others": 4}

#: The paper's integer-encoding table (DESIGN.md §3), by column.
PAPER_TABLE: dict[str, dict[str, int]] = {
    "Country of birth": {"Singaporean": 1, "Others": 2},
    "Marital Status": {"Single": 1, "Married": 2, "Widowed": 3},
    "Religion": {"Christian/Catholic": 1, "Free thinker": 2, "Buddhist": 3, "Islam": 4,
                 "Hindu": 5, "Taoist": 6, "Others": 7},
    "Diabetes": dict(_YES_NO_UNKNOWN),
    "Hypertension": dict(_YES_NO_UNKNOWN),
    "Heart Attack Block": dict(_YES_NO_UNKNOWN),
    "Heart Disease": dict(_YES_NO_UNKNOWN),
    "Hyperlipidemia": dict(_YES_NO_UNKNOWN),
    "Smoking": dict(_SMOKE),
    "Cigarettes": dict(_SMOKE),
    "Home Smoke": dict(_EXPOSURE),
    "Work Smoke": dict(_EXPOSURE),
    "Alcohol": dict(_YES_NO),
    "Beer": dict(_YES_NO),
    "Red Wine": dict(_YES_NO),
    "White Wine": dict(_YES_NO),
    "Coffee Weekly": dict(_CUPS),
    "Tea Weekly": dict(_CUPS),
}


def norm_key(text: object) -> str:
    """Case- and whitespace-insensitive key: lower case, inner white space folded."""
    return re.sub(r"\s+", " ", str(text)).strip().lower()


def is_missing_token(value: object) -> bool:
    """True for empty cells and the usual spellings of 'not available'."""
    if value is None:
        return True
    if isinstance(value, float) and value != value:
        return True
    return norm_key(value) in MISSING_TOKENS


def _parse_code(code: object, where: str) -> float:
    """A table code as a number, or a DataError saying where it is wrong."""
    try:
        value = float(code)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: the code {code!r} is not a number.") from exc
    if value != value:
        raise DataError(f"{where}: the code is empty.")
    return value


class EncodingTable:
    """Column -> level -> integer code, matched case- and whitespace-insensitively."""

    def __init__(self, mapping: Mapping[str, Mapping[str, int]] | None = None):
        self._cols: dict[str, tuple[str, dict[str, tuple[str, int]]]] = {}
        for col, levels in (mapping or {}).items():
            self.set_column(col, levels)

    @classmethod
    def paper(cls) -> EncodingTable:
        """The paper's table."""
        return cls(PAPER_TABLE)

    def set_column(self, column: str, levels: Mapping[str, int]) -> None:
        """Add or replace the levels of one column."""
        entries: dict[str, tuple[str, int]] = {}
        for level, code in levels.items():
            code_f = _parse_code(code, f"Encoding table, column {column!r}, level {level!r}")
            entries[norm_key(level)] = (str(level), int(code_f) if code_f.is_integer()
                                        else code_f)
        self._cols[norm_key(column)] = (str(column), entries)

    def has(self, column: str) -> bool:
        return norm_key(column) in self._cols

    def levels(self, column: str) -> dict[str, int]:
        """``{level: code}`` of a column, with the levels as written."""
        _, entries = self._cols[norm_key(column)]
        return {orig: code for orig, code in entries.values()}

    def lookup(self, column: str, value: object):
        """Code of ``value`` in ``column``, or ``None`` when the level is not in the table."""
        _, entries = self._cols[norm_key(column)]
        hit = entries.get(norm_key(value))
        return None if hit is None else hit[1]

    def columns(self) -> list[str]:
        return [orig for orig, _ in self._cols.values()]

    def copy(self) -> EncodingTable:
        return EncodingTable(self.to_dict())

    def merged(self, other: EncodingTable) -> EncodingTable:
        """This table with ``other``'s columns added or replacing."""
        out = self.copy()
        for col in other.columns():
            out.set_column(col, other.levels(col))
        return out

    # -- serialisation
    def to_dict(self) -> dict[str, dict[str, int]]:
        return {col: self.levels(col) for col in self.columns()}

    def to_frame(self) -> pd.DataFrame:
        rows = [{"column": c, "value": v, "code": k} for c in self.columns()
                for v, k in self.levels(c).items()]
        return pd.DataFrame(rows, columns=["column", "value", "code"])

    @classmethod
    def from_frame(cls, df: pd.DataFrame) -> EncodingTable:
        need = {"column", "value", "code"}
        cols = {norm_key(c): c for c in df.columns}
        if not need <= set(cols):
            raise DataError("An encoding table needs the columns 'column', 'value' and "
                            f"'code'; got {list(df.columns)}.")
        table = cls()
        grouped: dict[str, dict[str, int]] = {}
        for i, row in enumerate(df.itertuples(index=False)):
            rec = dict(zip(df.columns, row))
            col, val, code = rec[cols["column"]], rec[cols["value"]], rec[cols["code"]]
            if is_missing_token(col) and not isinstance(col, str):
                raise DataError(f"Encoding table row {i + 1}: the column name is empty.")
            code = _parse_code(code, f"Encoding table row {i + 1} ({col!r} / {val!r})")
            grouped.setdefault(str(col), {})[str(val)] = code
        for col, levels in grouped.items():
            table.set_column(col, levels)
        return table

    def to_csv(self) -> str:
        return self.to_frame().to_csv(index=False)

    @classmethod
    def from_csv(cls, text_or_path) -> EncodingTable:
        try:
            if isinstance(text_or_path, str) and "\n" in text_or_path:
                df = pd.read_csv(io.StringIO(text_or_path), dtype=str, keep_default_na=False)
            else:
                df = pd.read_csv(text_or_path, dtype=str, keep_default_na=False)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise DataError(f"Cannot read the encoding table as CSV: {exc}") from exc
        return cls.from_frame(df)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> EncodingTable:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"The encoding table is not valid JSON: {exc}") from exc
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise DataError("An encoding table in JSON is {column: {value: code}}.")
        return cls(data)

    def __len__(self) -> int:
        return len(self._cols)

    def __repr__(self) -> str:
        return f"EncodingTable({len(self)} columns)"
