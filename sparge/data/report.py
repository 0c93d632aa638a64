"""The validation report: what was read, what was changed, what blocks training.

One data structure that the app, the CLI and the tests all read; ``str(report)`` is plain
text a clinician can follow.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from sparge.data.safe_text import plain_text


def _t(value: object, n: int = 80) -> str:
    """User text (column names, cells, IDs) as one truncated line without control codes."""
    return plain_text(value, n)


@dataclass
class ValidationReport:
    """Everything the encoder found out about a patient table."""

    n_rows: int = 0
    n_columns: int = 0
    roles: dict[str, str] = field(default_factory=dict)
    missing_pct: dict[str, float] = field(default_factory=dict)
    unknown_values: list[dict] = field(default_factory=list)  # column, count, examples
    stray_text: list[dict] = field(default_factory=list)  # column, count, examples, hint
    dropped_columns: list[dict] = field(default_factory=list)  # column, reason
    patients_dropped: list[dict] = field(default_factory=list)  # row, id, missing_pct
    label_column: str | None = None
    label_balance: dict[str, int] = field(default_factory=dict)
    n_features: int = 0
    blocking: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: per column, the tokens read as missing and how many cells: {column: {token: count}}
    missing_tokens: dict[str, dict[str, int]] = field(default_factory=dict)
    #: categorical features with 3+ codes that follow no recognised order (codes arbitrary)
    unordered_columns: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing blocks training."""
        return not self.blocking

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        lines = [f"Read {self.n_rows} patients × {self.n_columns} columns; "
                 f"{self.n_features} features go to the model."]
        by_role: dict[str, list[str]] = {}
        for col, role in self.roles.items():
            by_role.setdefault(role, []).append(_t(col, 60))
        for role in ("id", "label", "numeric", "categorical", "ignore"):
            cols = by_role.get(role, [])
            if cols:
                shown = ", ".join(cols[:8]) + (f" … (+{len(cols) - 8})" if len(cols) > 8 else "")
                lines.append(f"  {role}: {len(cols)} column(s): {shown}")
        if self.missing_pct:
            total = sum(self.missing_pct.values()) / max(len(self.missing_pct), 1)
            worst = sorted(self.missing_pct.items(), key=lambda kv: -kv[1])[:5]
            lines.append(f"Missing values: {total:.1f}% on average; most missing: " +
                         ", ".join(f"{_t(c, 60)} ({p:.0f}%)" for c, p in worst))
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
            lines.append(f"Outcome '{_t(self.label_column)}' among the {kept} patient(s) kept "
                         "for training: " +
                         ", ".join(f"{_t(k, 40)}: {v}" for k, v in self.label_balance.items()))
        for u in self.unknown_values:
            lines.append(f"Column '{_t(u['column'])}': {u['count']} value(s) not in the "
                         "encoding table were set to missing, e.g. "
                         f"{[_t(e, 40) for e in u['examples']]}.")
        for s in self.stray_text:
            lines.append(f"Column '{_t(s['column'])}' is numeric but {s['count']} cell(s) hold "
                         f"text, e.g. {[_t(e, 40) for e in s['examples']]}: {_t(s['hint'], 300)}")
        for d in self.dropped_columns:
            lines.append(f"Column '{_t(d['column'])}' was dropped: {_t(d['reason'], 200)}.")
        if self.patients_dropped:
            lines.append(f"{len(self.patients_dropped)} patient(s) miss too many values and "
                         "are left out of training, e.g. " +
                         ", ".join(f"row {p['row']} ({p['missing_pct']:.0f}% missing)"
                                   for p in self.patients_dropped[:5]))
        lines += [f"Note: {_t(n, 600)}" for n in self.notes]
        lines += [f"Warning: {_t(w, 600)}" for w in self.warnings]
        lines += [f"PROBLEM: {_t(b, 600)}" for b in self.blocking]
        if not self.blocking:
            lines.append("Nothing blocks training.")
        return "\n".join(lines)
