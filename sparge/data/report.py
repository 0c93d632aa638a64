"""The validation report: what was read, what was changed, what blocks training.

One data structure that the app, the CLI and the tests all read; ``str(report)`` is plain
text a clinician can follow.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from sparge.data.safe_text import csv_lines, plain_text, quoted_names

#: Column names listed per role in the report's text before "… (+n)".
ROLE_NAMES_SHOWN = 12


def _t(value: object, n: int = 80) -> str:
    """User text (column names, cells, IDs) as one truncated line without control codes."""
    return plain_text(value, n)


#: A warning or problem is shown up to this many characters (lists end with "…").
WARNING_CHARS = 1500


@dataclass(frozen=True)
class UnknownValues:
    """Cells of a categorical column whose value is not in the encoding table.

    Attributes
    ----------
    column : str
        The column.
    count : int
        Number of such cells (all set to missing).
    examples : list of str
        Up to 3 of the values, the most frequent first.
    rows : list of int
        CSV lines of the first 5 (the header is line 1).
    """

    column: str
    count: int
    examples: list[str]
    rows: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class StrayText:
    """Cells of a numeric column that are not numbers (text, ``<0.1``, infinities).

    Attributes
    ----------
    column : str
        The column.
    count : int
        Number of such cells (all set to missing).
    rows : list of int
        CSV lines of the first 5 (the header is line 1).
    examples : list of str
        The first 3 cells, shortened for messages.
    hint : str
        What was done and what to do, in plain words.
    """

    column: str
    count: int
    rows: list[int]
    examples: list[str]
    hint: str


@dataclass(frozen=True)
class DroppedColumn:
    """A feature column left out of the model.

    Attributes
    ----------
    column : str
        The column.
    reason : str
        Why, in plain words (no values, constant, a copy of another column).
    """

    column: str
    reason: str


@dataclass(frozen=True)
class DroppedPatient:
    """A patient left out of training for missing too many values.

    Attributes
    ----------
    row : int
        The patient's CSV line (the header is line 1).
    id : str
        The patient's ID (empty when there is no ID column: the row says who it is).
    missing_pct : float
        Percentage of the patient's feature values that are missing.
    trains : bool
        Whether the patient would train once kept: False for a copy of an earlier row
        left out and for a patient without an outcome (a walk-through: the threshold's
        button promised 344 patients, and 326 trained).
    """

    row: int
    id: str
    missing_pct: float
    trains: bool = True


@dataclass
class ValidationReport:
    """Everything the encoder found out about a patient table.

    Attributes
    ----------
    n_rows, n_columns : int
        Size of the table read.
    roles : dict
        ``{column: role}`` (id, label, numeric, categorical, ignore).
    missing_pct : dict
        ``{feature: percentage of missing values}`` of the features kept; for a feature
        with gaps by design, among the patients it applies to
        (:mod:`sparge.data.structural_gaps`).
    not_applicable : dict
        ``{feature: patients it does not apply to}``, the gaps by design (not counted in
        ``missing_pct``).
    unknown_values : list of UnknownValues
    stray_text : list of StrayText
    dropped_columns : list of DroppedColumn
    patients_dropped : list of DroppedPatient
    label_column : str or None
    label_balance : dict
        ``{outcome: number of patients}`` among the patients kept for training.
    outcomes_set_aside : dict
        ``{outcome: number of patients}`` of the outcomes set aside
        (``Encoder.min_outcome_patients``).
    n_features : int
        Number of features that go to the model.
    blocking, warnings, notes : list of str
        Problems that block training, things to check, and what was repaired or inferred.
    missing_tokens : dict
        ``{column: {token: count}}``: the tokens read as missing, besides empty cells.
    unordered_columns : list of str
        Categorical features with 3 or more codes that follow no recognised order.
    absent_columns : list of str
        ``transform``: the model's columns the table does not hold (treated as missing).
    answers_two_ways : dict
        ``{column: [[short, full], ...]}``: answers that look like one answer written two
        ways and are coded apart (:func:`sparge.data.answer_merging.two_way_pairs`).
    values_to_check : list
        ``[[feature, row, value, unit, converted], ...]``: numbers far from the rest of
        their column (a typo or another unit, :mod:`sparge.data.far_values`); ``row``
        counts the table's rows from 0 (CSV line ``row + 2``); ``unit`` and ``converted``
        the unit the value was probably written in and the value converted from it, when
        all of the column's far values convert from one unit into where most patients lie
        (else ``None``); also the values impossible in their column's unit
        (:func:`sparge.data.plausible.unit_slips`).
    impossible : list
        ``[[feature, row], ...]``: the values to check that no patient can have in their
        column's unit or scale (:func:`sparge.data.plausible.impossible_values`,
        :func:`sparge.data.plausible.impossible_in_unit`) and that convert from no other
        unit: set to missing for training by default (the Encoder's ``convert_slips``).
    columns_losing_patients : list of str
        The few nearly empty features whose leaving out keeps the most patients at the
        threshold (:func:`sparge.data.encoder.columns_that_lose_patients`);
        ``patients_kept_without`` how many would be kept.
    """

    n_rows: int = 0
    n_columns: int = 0
    roles: dict[str, str] = field(default_factory=dict)
    missing_pct: dict[str, float] = field(default_factory=dict)
    not_applicable: dict[str, int] = field(default_factory=dict)
    unknown_values: list[UnknownValues] = field(default_factory=list)
    stray_text: list[StrayText] = field(default_factory=list)
    dropped_columns: list[DroppedColumn] = field(default_factory=list)
    patients_dropped: list[DroppedPatient] = field(default_factory=list)
    label_column: str | None = None
    label_balance: dict[str, int] = field(default_factory=dict)
    outcomes_set_aside: dict[str, int] = field(default_factory=dict)
    n_features: int = 0
    blocking: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: per column, the tokens read as missing and how many cells: {column: {token: count}}
    missing_tokens: dict[str, dict[str, int]] = field(default_factory=dict)
    #: categorical features with 3+ codes that follow no recognised order (codes arbitrary)
    unordered_columns: list[str] = field(default_factory=list)
    #: transform: the model's columns that the table does not hold (treated as missing)
    absent_columns: list[str] = field(default_factory=list)
    #: answers that look like one answer written two ways, coded apart: {column: [[a, b]]}
    answers_two_ways: dict[str, list[list[str]]] = field(default_factory=dict)
    #: numbers far from the rest of their column: [[feature, row (from 0), value], ...]
    values_to_check: list[list] = field(default_factory=list)
    #: of those, the ones impossible in their column's unit or scale and converted from no
    #: other unit (an HbA1c of 640 mmol/mol, a negative eGFR): [[feature, row], ...]
    impossible: list[list] = field(default_factory=list)
    #: nearly empty features whose leaving out keeps the most patients, and how many
    columns_losing_patients: list[str] = field(default_factory=list)
    patients_kept_without: int = 0
    #: rows that repeat an earlier row in every column (CSV lines), and whether they were
    #: left out of training (the Encoder's ``leave_out_copies``)
    copied_rows: list[int] = field(default_factory=list)
    copies_left_out: bool = False
    #: whether the patients left out for their gaps differ from those kept in outcome, a
    #: measure or an answer (the Data page then offers to raise the threshold)
    left_out_differ: bool = False
    #: features questioned as giving the outcome away but kept in the model (named like
    #: the end of a stay, or every feature leaking): {feature: AUC}
    questioned_leaks: dict[str, float] = field(default_factory=dict)
    #: features written at a birth or after it, beside an outcome that happens at the
    #: birth (:func:`~sparge.data.leaks.recorded_at_birth`): kept, questioned
    at_birth: list[str] = field(default_factory=list)
    #: yes/no features with many empty cells, which a register export writes for "no"
    #: (the Encoder's ``blank_as_no`` reads them so)
    blank_no_candidates: list[str] = field(default_factory=list)
    #: patients left out at the threshold who would be kept were those columns' empty
    #: cells read as No (walk-through 92: 256 of 501 left out, 216 of them for such cells)
    blank_no_keeps: int = 0

    @property
    def ok(self) -> bool:
        """True when nothing blocks training."""
        return not self.blocking

    def to_dict(self) -> dict:
        """The report as plain data (for JSON).

        Returns
        -------
        dict
            Every field by name; the records (unknown values, stray text, dropped columns
            and patients) as dicts of their fields.
        """
        return asdict(self)

    def __str__(self) -> str:
        lines = [f"Read {self.n_rows:,} patients × {self.n_columns:,} columns; "
                 f"{self.n_features:,} features go to the model."]
        by_role: dict[str, list[str]] = {}
        # a column the filters dropped has its own line below, not a role (walk-through 18:
        # a constant outcome was listed among the categories and "was dropped")
        dropped = {d.column for d in self.dropped_columns}
        for col, role in self.roles.items():
            if col not in dropped:
                by_role.setdefault(role, []).append(_t(col, 60))
        words = {"id": "patient ID", "label": "outcome", "numeric": "numbers",
                 "categorical": "categories", "ignore": "ignored"}  # plain, not role codes
        for role in ("id", "label", "numeric", "categorical", "ignore"):
            cols = by_role.get(role, [])
            if cols:
                # up to 12 names: a clinic's table often has 9-12 numeric columns, and the
                # one hidden behind "(+1)" was the one read as a number by mistake
                shown = ", ".join(cols[:ROLE_NAMES_SHOWN]) + (
                    f" … (+{len(cols) - ROLE_NAMES_SHOWN})" if len(cols) > ROLE_NAMES_SHOWN
                    else "")
                count = f" ({len(cols)} columns)" if len(cols) > 1 else ""
                lines.append(f"  {words[role]}{count}: {shown}")
        if self.missing_pct:
            total = sum(self.missing_pct.values()) / max(len(self.missing_pct), 1)
            worst = [(c, p) for c, p in sorted(self.missing_pct.items(),
                                               key=lambda kv: -kv[1])[:5] if p > 0]
            lines.append(f"Missing values: {total:.1f}% on average; " + (
                "most missing: " + ", ".join(f"{_t(c, 60)} ({p:.0f}%)" for c, p in worst)
                if worst else "no gaps in any feature.") + (
                # walk-through 96 read "not counted as missing" beside the same column's
                # 47 % as a contradiction: the share is of the patients it applies to
                ("; v" if worst else " V") + "alues that do not apply to a patient are not "
                "counted as missing, here nor in a patient's share: a column's share is of "
                "the patients it applies to ("
                + ", ".join(f"{_t(c, 60)}: {n:,} patients" for c, n in
                            list(self.not_applicable.items())[:5]) + ")."
                if self.not_applicable else ""))
        if self.missing_tokens:
            items = list(self.missing_tokens.items())
            shown = "; ".join(
                f"{_t(col, 60)}: " + ", ".join(f"'{_t(tok, 40)}' ×{n}"
                                               for tok, n in list(toks.items())[:5])
                for col, toks in items[:8])
            lines.append("Read as missing (besides empty cells): " + shown +
                         (f" … (+{len(items) - 8} columns)" if len(items) > 8 else "") + ".")
        if self.unordered_columns:
            cols = [_t(c, 60) for c in self.unordered_columns]
            lines.append("Unordered categories (their codes are labels, not an order; edit the "
                         "codes in the encoding table to order them): " + ", ".join(cols[:8]) +
                         (f" … (+{len(cols) - 8})" if len(cols) > 8 else "") + ".")
        if self.label_balance:
            kept = sum(self.label_balance.values())
            who = f"{kept:,} patient{'s' if kept != 1 else ''}"
            lines.append(f"Outcome '{_t(self.label_column)}' among the {who} kept "
                         "for training: " +
                         ", ".join(f"{_t(k, 40)}: {v:,}"
                                   for k, v in list(self.label_balance.items())[:8])
                         # an ID chosen as the outcome listed 470 (walk-through 100b)
                         + (f" … (+{len(self.label_balance) - 8:,} more)"
                            if len(self.label_balance) > 8 else "")
                         + ("; set aside (too few to learn): " + ", ".join(
                             f"{_t(k, 40)}: {v:,}" for k, v in self.outcomes_set_aside.items())
                            if self.outcomes_set_aside else ""))
        for u in self.unknown_values:
            lines.append(f"Column '{_t(u.column)}': {u.count} value(s) not in the "
                         "encoding table were set to missing, e.g. "
                         f"{quoted_names(u.examples, width=40)}"
                         + (f" (CSV {csv_lines(u.rows)})" if u.rows else "") + ".")
        for s in self.stray_text:
            lines.append(f"Column '{_t(s.column)}' is numeric but {s.count} cell(s) hold "
                         f"text, e.g. {quoted_names(s.examples, width=40)}: {_t(s.hint, 300)}")
        for d in self.dropped_columns:
            lines.append(f"Column '{_t(d.column)}' was dropped: {_t(d.reason, 200)}.")
        if self.patients_dropped:  # how many: in the warning below; here which ones
            lines.append("Left out of training for missing too many values, e.g. " +
                         # without an ID column, by its CSV line, as the map and the
                         # search name it ("line 3"; walk-through 34 read "patient 1")
                         # "0929388 (line 3, 13.3% missing)", as "0475272 (CSV line 6,
                         # 13.3% missing)" beside it (walk-through 104b)
                         ", ".join(f"{_t(str(p.id)[:-1], 40)}, "
                                   f"{_missing_share(p.missing_pct)}% missing)"
                                   if p.id and str(p.id).endswith(f"(line {p.row})") else
                                   # an ID named with its line already: not twice
                                   f"{_t(p.id, 40)} (CSV line {p.row}, "
                                   f"{_missing_share(p.missing_pct)}% missing)" if p.id else
                                   f"line {p.row} ({_missing_share(p.missing_pct)}% missing)"
                                   for p in self.patients_dropped[:5])
                         + (f" and {len(self.patients_dropped) - 5:,} more"
                            if len(self.patients_dropped) > 5 else "") + ".")
        lines += [f"Note: {_t(n, 1000)}" for n in self.notes]
        # 1,500 characters: at 600, walk-through 22's list of answers written two ways lost
        # its last columns and the sentence on what to do
        lines += [f"Warning: {_t(w, WARNING_CHARS)}" for w in self.warnings]
        lines += [f"PROBLEM: {_t(b, WARNING_CHARS)}" for b in self.blocking]
        if not self.blocking:
            lines.append("Nothing blocks training.")
        return "\n".join(lines)


def _missing_share(pct: float) -> str:
    """A patient's share of missing values: with a decimal under 20 %, where the
    thresholds lie (walk-through 100b read "10% missing" for a patient left out at 10 %:
    10.3 %).

    Examples
    --------
    >>> _missing_share(10.34), _missing_share(12.0), _missing_share(66.66)
    ('10.3', '12', '67')
    """
    text = f"{pct:.1f}" if pct < 20 else f"{pct:.0f}"
    return text[:-2] if text.endswith(".0") else text


#: A note that says what was lost: cells or columns set to missing or left out.
_LOSS = re.compile(r"set to missing|read as missing|were dropped|left out|not read|"
                   r"could not be read|cannot be read", re.IGNORECASE)


def folded_notes(lines: list[str], shown: int = 5) -> tuple[list[str], list[str]]:
    """A report's lines (:func:`report_lines`) as those to show and the notes to fold
    away: every line but the notes, and the notes that say what was lost (cells set to
    missing, columns left out), are shown; the other notes (how cells were read) are
    folded when there are more than ``shown`` of them (walk-through 99's report was 5,700
    px tall, its losses among 15 notes on spellings and units).

    Examples
    --------
    >>> lines = ["Read 3", "Note: 'x' read in mL", "Note: 2 cells set to missing"]
    >>> folded_notes(lines, shown=0)
    (['Read 3', 'Note: 2 cells set to missing'], ["Note: 'x' read in mL"])
    >>> folded_notes(lines)[1]
    []
    """
    notes = [line for line in lines if line.startswith("Note: ")
             and not _LOSS.search(line)]
    if len(notes) <= shown:
        return list(lines), []
    folded = set(notes)
    return [line for line in lines if line not in folded], notes


def report_lines(text: str) -> list[str]:
    """A report's lines (``str(report)``) for a page: its summary lines first, then what
    blocks training, the warnings and "Nothing blocks training", then the notes on how the
    table was read (walk-through 86 read the leak, the impossible values and the patients
    left out of training after some 20 notes).

    Examples
    --------
    >>> report_lines("Read 3 patients\\nNote: a\\nWarning: b\\nNothing blocks training.")
    ['Read 3 patients', 'Warning: b', 'Nothing blocks training.', 'Note: a']
    """
    lines = text.splitlines()
    notes = [line for line in lines if line.startswith("Note: ")]
    rest = [line for line in lines if not line.startswith("Note: ")]
    return rest + notes
