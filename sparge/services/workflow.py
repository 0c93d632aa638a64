"""The steps the app and the CLI share: train from a table, look-alike tables, new patients.

Pure functions over pandas/numpy (no Streamlit), so every page and command is testable.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np
import pandas as pd

from sparge.data.column_guess import (
    GROUPED_DIGITS,
    PREFIXED_GROUPS,
    PREFIXED_ID,
    event_answer_codes,
    later_outcome_named,
    outcome_named_columns,
    two_sides,
    ungrouped,
)
from sparge.data.dates import read_dates
from sparge.data.dipsticks import SUFFIX as DIPSTICK_SUFFIX
from sparge.data.encoder import (
    MAX_NUMBER_OUTCOMES,
    NUMBER_OUTCOME_SHARE,
    Encoder,
    extreme_word,
    guess_feature_count,
    split_cells,
    surely_features,
)
from sparge.data.far_values import far_mask
from sparge.data.for_age import AgeTrend, far_for_age_table, typical_at
from sparge.data.levels import synonym_groups
from sparge.data.number_format import format_given, round_computed, typical_decimals
from sparge.data.parsing import (
    KNOWN_UNITS,
    cell_text,
    header_unit,
    loose_key,
    parse_numeric,
    unit_key,
    written_unit,
)
from sparge.data.plausible import judged_column, quantity_of, unit_slips, written_unit_slips
from sparge.data.safe_text import csv_lines, md_escape, plain_text, quoted_names
from sparge.data.tables import DEFAULT_MISSING_TOKENS, norm_key, note_head, yes_no_codes
from sparge.data.unit_conversion import unit_guess
from sparge.errors import DataError
from sparge.estimator.forest_part import MIN_PATIENTS, MIN_PER_OUTCOME
from sparge.estimator.model import SparGE
from sparge.method.lowrank import column_bounds
from sparge.method.preprocess import PAPER_MAX_MISSING, missing_fraction_per_row
from sparge.method.similarity import self_expressive_weights
from sparge.services.display import answers_by_code, biomarker_name, format_number
from sparge.services.maps import encoding_mismatch
from sparge.services.split_errors import repeat_interval, wilson_interval
from sparge.services.typicality import ATYPICAL_SHARE


@dataclass
class Cohort:
    """An encoded patient table and which rows train the model."""

    df: pd.DataFrame
    encoder: Encoder
    X: np.ndarray  # encoded features of every row (NaN = missing)
    ids: np.ndarray
    labels: np.ndarray | None  # outcome per row (None entries when missing)
    train_rows: np.ndarray  # indices of the rows used for training
    #: whether the encoder's values to check (far from the rest of their column) were set
    #: to missing in ``X`` (:func:`encode_cohort`'s ``clear_far``)
    clear_far: bool = False

    @property
    def features(self) -> list[str]:
        return list(self.encoder.feature_names_out_)

    def frame(self, rows=None) -> pd.DataFrame:
        """Encoded features as a DataFrame (rows: all, or the given indices)."""
        X = self.X if rows is None else self.X[rows]
        return pd.DataFrame(X, columns=self.features)


def default_missing_threshold(n_feature_columns: int) -> int:
    """The setup's starting threshold (%) for a table with this many feature columns.

    The paper's 10 %, raised just enough that one gap never leaves a patient out: with 8
    columns one gap is 12.5 % of a patient's values, and the paper's rule left half of a
    cohort with 8 % gaps out of training (a walk-through on GBSG2). The user can lower it.
    """
    paper = round(100 * PAPER_MAX_MISSING)
    if n_feature_columns <= 0:
        return paper
    return int(max(paper, np.ceil(100 / n_feature_columns)))


def starting_threshold(df: pd.DataFrame, id_column: str | None = None,
                       label_column: str | None = None) -> int:
    """:func:`default_missing_threshold` of the columns the encoder would use as features
    (:func:`~sparge.data.encoder.guess_feature_count`). Ten of them or more give the
    paper's 10 %: a table with that many columns of plain numbers is not read to count
    them (seconds of every upload of a wide table, before its setup showed)."""
    paper = round(100 * PAPER_MAX_MISSING)
    enough = int(np.ceil(100 / paper))
    if surely_features(df, id_column, label_column, enough=enough) >= enough:
        return paper
    return default_missing_threshold(guess_feature_count(df, id_column, label_column))


def encode_cohort(df: pd.DataFrame, *, id_column: str | None = None,
                  label_column: str | None = None, clear_far: bool = False,
                  **encoder_params) -> Cohort:
    """Fit an :class:`Encoder` on a table; the report is ``cohort.encoder.report_``.

    Parameters
    ----------
    clear_far : bool
        Set the values the report lists as far from the rest of their column
        (``report_.values_to_check``: a typo or another unit, a sodium of 1380) to missing
        in ``cohort.X``, which the model trains on; the model completes them like any gap.
        Those written in a probable other unit (an HbA1c of 60 in a % column: mmol/mol)
        are converted from it instead. The table itself is not changed, and the report
        still lists them; its missing shares and the patients kept count them as the
        model sees them (:class:`Encoder`'s ``clear_far``).
    **encoder_params : the :class:`Encoder`'s parameters.
    """
    enc = Encoder(id_column=id_column, label_column=label_column, clear_far=clear_far,
                  **encoder_params)
    X = enc.fit_transform(df)
    labels = enc.labels(df) if label_column else None
    return Cohort(df, enc, X, enc.ids(df), labels, np.flatnonzero(enc.training_rows(df)),
                  clear_far=clear_far)


def encode_again(cohort: Cohort, **changes) -> Cohort:
    """The cohort's table encoded again with its settings, ``changes`` overriding some
    (``id_column``, ``label_column``, ``roles``, ``encoding_table``,
    ``max_patient_missing``, ``min_outcome_patients``, ``clear_far``, ``ages``,
    ``leave_out_copies``, ``blank_as_no``, ``convert_slips``, ``merge_spellings``,
    ``merge_pairs``): what the
    Data page's apply, merge,
    set-to-missing, copies, age and empty-as-No buttons do."""
    enc = cohort.encoder
    settings = {"id_column": enc.id_column, "label_column": enc.label_column,
                "roles": enc.roles, "encoding_table": enc.encoding_table,
                "max_patient_missing": enc.max_patient_missing,
                "min_outcome_patients": enc.min_outcome_patients,
                "clear_far": cohort.clear_far, "ages": enc.ages,
                "leave_out_copies": enc.leave_out_copies, "blank_as_no": enc.blank_as_no,
                "convert_slips": enc.convert_slips,
                "merge_spellings": getattr(enc, "merge_spellings", True),
                "merge_pairs": getattr(enc, "merge_pairs", None)}
    return encode_cohort(cohort.df, **{**settings, **changes})


def keep_apart_changes(encoder) -> dict:
    """The :func:`encode_again` changes that keep apart the answers the encoder merged by
    default (``merged_spellings_``): ``merge_spellings`` off, and those columns out of the
    user's encoding table, whose codes a later edit or merge copied from the merged
    table."""
    table = encoder.user_table()
    cols = list(getattr(encoder, "merged_spellings_", {}) or {})
    if table is not None:
        table = table.without(cols)
    return {"merge_spellings": False,
            "encoding_table": table if table is not None and len(table) else None}


def offered_merge_changes(encoder, pairs: Mapping[str, list[list[str]]]
                          ) -> tuple[dict, object]:
    """The :func:`encode_again` changes that merge the offered ``pairs`` (the Data page's
    "Merge … pairs" button): the encoder's ``merge_pairs`` with these added; and the whole
    merged table (for the summary).

    The pairs are the encoder's to apply, not a user's encoding table: the answers it
    merges by default stay said and can be kept apart (walk-throughs 104 and 104b: after
    one offered merge, the drug brands' default merges were neither said nor undoable,
    the whole table, or the column, having become the user's)."""
    from sparge.data.answer_merging import merge_answers

    mine = {str(c): [list(p) for p in ps]
            for c, ps in (getattr(encoder, "merge_pairs", None) or {}).items()}
    for col, ps in pairs.items():
        have = mine.setdefault(str(col), [])
        have += [[str(a), str(b)] for a, b in ps if [str(a), str(b)] not in have]
    return {"merge_pairs": mine}, merge_answers(encoder.table_, dict(pairs))


def blank_as_no_button(encoder, report, chosen=None) -> tuple[str, list[str]] | None:
    """The Data page's button for yes/no columns whose empty cells may mean No (a
    register export: ``report.blank_no_candidates``): its label and the columns it reads
    so (the encoder's own kept), or ``None`` without candidates. ``chosen``: the
    candidates the user picked (walk-through 67: one button read a psoriasis column's
    empty cells as No with the four drug columns whose empty cells meant it)."""
    cols = [c for c in report.blank_no_candidates if chosen is None or c in set(chosen)]
    if not cols:
        return None
    label = (f"Read empty cells as No in {len(cols)} yes/no column"
             f"{'s' if len(cols) != 1 else ''} ({quoted_names(cols)})")
    return label, [*(encoder.blank_as_no or []), *cols]


def leave_out_button(encoder, report) -> tuple[str, dict[str, str]]:
    """The Data page's button for the nearly empty columns that cost the most patients
    (``report.columns_losing_patients``): its label, and the roles that leave them out
    (the encoder's own roles kept)."""
    cols = list(report.columns_losing_patients)
    label = (f"Leave out {quoted_names(cols)}: {report.patients_kept_without:,} of "
             f"{report.n_rows:,} patients kept")
    return label, {**(encoder.roles or {}), **{c: "ignore" for c in cols}}


def at_birth_button(encoder, report) -> tuple[str, dict[str, str]] | None:
    """The Data page's button for the features written at a birth or after it, beside
    an outcome that happens at the birth (``report.at_birth``, walk-through 99): its
    label, and the roles that leave them out (the encoder's own roles kept); ``None``
    without such features."""
    cols = [c for c in getattr(report, "at_birth", []) or []
            if c in set(encoder.feature_names_out_)]
    if not cols:
        return None
    label = (f"Leave out the {len(cols)} column{'s' if len(cols) != 1 else ''} written at "
             "the birth or after it (look-alikes before the birth)")
    return label, {**(encoder.roles or {}), **{c: "ignore" for c in cols}}


def outcome_cut(df: pd.DataFrame, column: str) -> float | None:
    """A threshold that makes a column of measurements an outcome (its median, to two
    significant figures), or ``None`` when the column is no such measurement: more than
    :data:`~sparge.data.encoder.MAX_NUMBER_OUTCOMES` values, all numbers (the Encoder
    refuses them as an outcome: walk-through 100's "Donor Age", 61 values)."""
    if column not in df.columns:
        return None
    text = df[column].astype(str).where(df[column].notna(), "").str.strip()
    text = text[(text != "") & ~text.str.lower().isin(DEFAULT_MISSING_TOKENS)]
    numbers = pd.Series(parse_numeric(text)[0])  # a limit (">90") as its number
    if not len(numbers) or numbers.isna().mean() > 1 - NUMBER_OUTCOME_SHARE or \
            numbers.nunique() <= MAX_NUMBER_OUTCOMES:
        return None
    middle = float(numbers.median())
    return float(f"{middle:.2g}") if middle else 0.0


def outcome_from_cut(df: pd.DataFrame, column: str, cut: float) -> tuple[str, pd.DataFrame]:
    """``df`` with a yes/no outcome beside a column of measurements: "Yes" from ``cut`` on,
    "No" below it, empty where the measurement is; and its name ("Donor Age ≥ 49")."""
    name = f"{column} ≥ {format_number(cut)}"
    numbers = pd.Series(parse_numeric(df[column])[0], index=df.index)
    outcome = np.where(numbers.isna(), "", np.where(numbers >= cut, "Yes", "No"))
    out = df.drop(columns=[name], errors="ignore")
    out.insert(list(out.columns).index(column) + 1, name, outcome)
    out.attrs = dict(df.attrs)
    return name, out


def also_outcome_message(df: pd.DataFrame, id_column: str | None, label_column: str
                         ) -> str | None:
    """The setup's words on the other columns named like an outcome (at most 3), or
    ``None``: a later outcome (a readmission, a death) is left out by encoding; the others
    go to the model unless they give the outcome away (walk-through 61 read "it goes to the
    model" above a readmission the report left out)."""
    named = outcome_named_columns(df, exclude=[id_column, label_column])[:3]
    if not named:
        return None
    later = [c for c in named if later_outcome_named(c)]
    also = [c for c in named if c not in later]
    parts = []
    if later:
        parts.append(f"{quoted_names(later)} {'is' if len(later) == 1 else 'are'} left out "
                     "of the model, as known only after the look-alikes are sought")
    if also:
        one = len(also) == 1
        gives = "it gives" if one else "one gives"
        parts.append(f"{quoted_names(also)} {'goes' if one else 'go'} to the model as an "
                     f"input feature, unless encoding finds that {gives} the outcome away "
                     "(the report then says it was left out)")
    return (f"Also named like an outcome: {quoted_names(named)}. Only '{label_column}' is the "
            f"outcome; {'; '.join(parts)}. If one of them is the outcome, choose it above.")


def outcome_answers_note(df: pd.DataFrame, label_column: str, shown: int = 5,
                         labels=None) -> str:
    """The chosen outcome column's name in full and its answers as written, most common
    first, before encoding: "Outcome 'Graft loss within 3 years': No 252 · Yes 126 · 4
    without an answer" (blank or a gap word such as "unknown"). At 800 px the setup's
    select box cut a long name ("Clinically significant prostate cancer o…"), and a wrong
    guess shows in its answers. ``labels``: the outcome as the encoded table reads it
    (:meth:`~sparge.data.encoder.Encoder.labels`, ``None`` for none), once it is encoded:
    walk-through 86 still read "No 151 · Yes 133 · N 42 · no 28 · Y 25" after encoding
    had read them as two answers."""
    if labels is not None and len(labels) == len(df):
        read = pd.Series(labels, dtype=object)
        empty = read.isna()
        answers, said = read[~empty].astype(str), " as read"
    else:
        text = cell_text(df[label_column]).str.strip()
        empty = text.map(lambda t: not t or norm_key(t) in DEFAULT_MISSING_TOKENS)
        answers, said = text[~empty], ""
    counts = answers.value_counts()
    # a yes or a no written several ways, as one (walk-through 93 read "Yes 128 · No 96
    # · Y 76 · yes 56 · N 53 · 1 more answers" before encoding)
    codes = _yes_no_outcomes(label_column, [str(a) for a in counts.index]) \
        if not said else None
    if codes and sum(n for a, n in counts.items() if codes.get(str(a)) in (1, 2)) >= \
            0.8 * counts.sum():
        # each shown as "Yes" or "No" where written so, else by its commonest spelling
        # ("Alive", "Deceased"), as the encoded table shows it
        name = {}
        for a in counts.index:  # most common first
            c = codes.get(str(a))
            if c in (1, 2):
                plain = norm_key(str(a)) in ("yes", "y", "no", "n")
                if c not in name or plain:
                    name[c] = ("Yes" if c == 1 else "No") if plain else \
                        str(a)[:1].upper() + str(a)[1:]
        counts = counts.groupby([name[codes[str(a)]] if codes.get(str(a)) in (1, 2)
                                 else str(a) for a in counts.index]
                                ).sum().sort_values(ascending=False)
    numbers = pd.Series(parse_numeric(pd.Series(counts.index.astype(str)))[0])
    if len(counts) > MAX_NUMBER_OUTCOMES and numbers.notna().mean() >= NUMBER_OUTCOME_SHARE:
        # a measurement: its range, not "41 21 · 52 18" (walk-through 100b read "41"
        # patients twice over)
        weights = counts.to_numpy()[numbers.notna().to_numpy()]
        values = numbers.dropna().to_numpy()
        order = np.argsort(values)
        middle = values[order][np.searchsorted(np.cumsum(weights[order]),
                                               weights.sum() / 2)]
        parts = [f"{len(counts):,} different numbers from {format_number(values.min())} to "
                 f"{format_number(values.max())} (median {format_number(middle)})"]
    else:
        # a number's count after a colon: "0: 124 · 1: 60", not "0 124 · 1 60"
        parts = [f"{plain_text(str(a), 40)}{':' if pd.notna(v) else ''} {n:,}"
                 for (a, n), v in zip(counts.head(shown).items(), numbers, strict=False)]
    if len(counts) > shown and len(parts) > 1:
        more = len(counts) - shown
        parts.append(f"{more:,} more answer{'s' if more != 1 else ''}")
    if empty.any():
        parts.append(f"{int(empty.sum()):,} without an answer")
    return (f"Outcome '{plain_text(label_column, 200)}'{said}: "
            + (" · ".join(parts) if parts else "no answer at all") + ".")


def _yes_no_outcomes(column: str, answers: list[str]) -> dict[str, int]:
    """Yes (1) and no (2) of an outcome's answers as written, before encoding: "Y", "yes",
    an answer naming the column's event or its opposite ("readmitted", "no readmission")
    and a yes or a no with its note ("Y - 23d"; walk-through 103b read 29 answers before
    encoding, two after). ``{}`` without a yes and a no."""
    codes = yes_no_codes(answers) or {}
    codes = {**codes, **event_answer_codes(column, answers, codes)}
    heads = {a: 1 if h in ("y", "yes") else 2 for a in answers
             if (h := note_head(norm_key(a))) in ("y", "yes", "n", "no")}
    out = {a: c for a in answers if (c := codes.get(a) if codes.get(a) in (1, 2)
                                     else heads.get(a)) in (1, 2)}
    return out if {1, 2} <= set(out.values()) else {}


#: Share of a table's patients left out by the threshold on missing values from which
#: the Data page offers to raise it in one click.
RAISE_SHARE = 0.2
#: ... and from which it offers it when those left out differ from those kept (in
#: outcome, a measure or an answer).
RAISE_DIFFERENT_SHARE = 0.1


def threshold_button(report) -> tuple[str, float] | None:
    """The Data page's button raising the threshold on missing values when it leaves out
    much of the table (walk-through 60: 3 of 602 patients kept at the paper's 10 %, and
    the report's "a threshold of 46 % keeps them all" asked for the setup's slider and a
    second encoding): its label and the threshold (a share), or ``None`` when the
    threshold leaves out less than :data:`RAISE_SHARE` of the table (walk-through 64's
    295 of 645 left out had no button, though they differed in outcome), or when no
    threshold up to 50 % keeps any of them. The smallest whole percent keeping every
    patient left out, at most 50 % (above half a patient's values the model would learn
    from its own completion)."""
    n = int(report.n_rows)
    # ... or a tenth of it, when they differ from the patients kept (walk-through 101
    # left out 88 of 452, 45 % of whom died against 33 %, with no button)
    differ = getattr(report, "left_out_differ", False)
    if len(report.patients_dropped) < (RAISE_DIFFERENT_SHARE if differ else RAISE_SHARE) * n:
        return None
    # the patients the threshold gives back to training: copies and patients without an
    # outcome stay out (walk-through 34 read a total that training did not reach, and 65
    # a button promising 344 patients of whom 326 trained)
    dropped = [d.missing_pct for d in report.patients_dropped if getattr(d, "trains", True)]
    if not dropped:
        return None
    need = min(50, int(np.ceil(max(dropped) - 1e-9)))
    more = sum(p <= need + 1e-9 for p in dropped)
    if not more:
        return None
    said = (f"the {more:,} patients it leaves out are kept" if more == len(dropped) else
            f"{more:,} of the {len(dropped):,} patients it leaves out are kept")
    rest = len(report.patients_dropped) - len(dropped)
    if rest:
        said += (f" ({rest:,} more without an outcome or copying a row stay out of "
                 "training)")
    return f"Raise the threshold on missing values to {need}%: {said}", need / 100


#: Below this share of a table's patients kept for training, the Model page says so.
FEW_KEPT_SHARE = 0.25


def few_kept_caution(n_kept: int, n_rows: int) -> str | None:
    """The Model page's words when training would learn from few of the table's patients
    (under :data:`FEW_KEPT_SHARE`), or ``None``. Walk-through 35 trained on 26 of 805
    patients without a word on the Model page: the Data page's threshold on missing
    values had left out the patients not on lithium or clozapine."""
    if n_rows <= 0 or n_kept >= FEW_KEPT_SHARE * n_rows:
        return None
    return (f"Only {n_kept:,} of the table's {n_rows:,} patients "
            f"({100 * n_kept / n_rows:.0f} %) are kept for training: the others miss too "
            "many values or an outcome. The Data page's report says which columns cost "
            "the most patients, and a click leaves them out (or raise the threshold on "
            "missing values there); the model completes the gaps of the patients kept.")


def leak_caution(encoder, features, lookalikes: bool = False) -> str | None:
    """The words a page that scores the outcome shows when the table keeps a feature the
    Data page questioned as giving the outcome away (``report_.questioned_leaks``), or
    ``None``. Walk-through 36's Classifiers page scored the raw data 0.90 on a
    "Discharge destination" that named the readmission, and blamed the method. With
    ``lookalikes``, the words for a page of look-alikes: walk-through 38's new patient
    had 10 of 10 look-alikes with one outcome or the other as its "Switched regimen after
    failure" was Yes or No, and Explore and New patient said nothing."""
    questioned = getattr(getattr(encoder, "report_", None), "questioned_leaks", {}) or {}
    kept = {c: a for c, a in questioned.items() if c in set(features)}
    birth = [c for c in getattr(getattr(encoder, "report_", None), "at_birth", []) or []
             if c in set(features) and c not in kept]
    if birth and not kept:
        names = ", ".join(f"'{c}'" for c in birth[:4]) + (" …" if len(birth) > 4 else "")
        one = len(birth) == 1
        return (f"The model learned from {names}, written at the birth or after it, when "
                "the outcome happens" + (": these look-alikes are patients who have given "
                "birth, and their outcomes read better than they can at booking. To find "
                "look-alikes before the birth, leave " if lookalikes else ": these scores "
                "read better than they can at booking. To score the table as at booking, "
                "leave ") + f"{'it' if one else 'them'} out on the Data page and train "
                "again.")
    if not kept:
        return None
    shown = list(kept.items())[:4]
    names = ", ".join(f"'{c}'" + (f" (AUC {a:.2f})" if a == a else "") for c, a in shown)
    one = len(kept) == 1
    why = _leak_reason(shown, one)
    if lookalikes:
        return (f"The model learned from {names}, which the Data page questioned: {why}. "
                f"These look-alikes may share {'it' if one else 'them'} rather than the "
                "patient's condition, and their outcomes may read too well; if so, set "
                + ("its" if one else "their") + " role to 'ignore' on the Data page's "
                "Column roles tab and train again.")
    return (f"{names} {'is' if one else 'are'} still among the features, and the Data page "
            f"questioned {'it' if one else 'them'}: {why}. These scores may "
            "read too well; set " + ("its" if one else "their") + " role to 'ignore' on the "
            "Data page's Column roles tab and compare again.")


def _leak_reason(questioned: list[tuple[str, float]], one: bool) -> str:
    """Why the Data page questioned the leaks: how well they separate the outcomes when
    it could measure it (an AUC), else their names. Walk-through 40's 15-row table read
    "it alone separates the outcomes well" on the Model page where the Data page had said
    it could not be measured."""
    measured = [c for c, a in questioned if a == a]
    named = [c for c, a in questioned if a != a]
    if not named:
        return (f"{'it' if one else 'they'} alone {'separates' if one else 'separate'} the "
                "outcomes well and may be written after the outcome")
    said = ("named like a value written at the end of the stay or after the outcome (too "
            "few patients to measure how well it separates the outcomes)")
    if not measured:
        return f"{'it is' if one else 'they are'} {said}"
    return (", ".join(f"'{c}'" for c in measured) + " alone separate"
            + ("s" if len(measured) == 1 else "") + " the outcomes well; "
            + ", ".join(f"'{c}'" for c in named) + (" is " if len(named) == 1 else " are ")
            + said)


def table_choices(encoder, clear_far: bool) -> str:
    """The choices a user made for an encoded table, in words ("" for none): what a
    re-upload of the same table keeps (the Data page).

    Parameters
    ----------
    encoder : fitted Encoder
    clear_far : bool
        Whether the table's far values were set to missing (or converted).
    """
    said = []
    if encoder.encoding_table is not None:
        said.append("the encoding table as edited (answers merged, codes changed)")
    if merged := getattr(encoder, "merge_pairs", None):
        n = sum(len(p) for p in merged.values())
        said.append(f"{n:,} offered pair{'s' if n != 1 else ''} of answers merged (in "
                    + ", ".join(f"'{c}'" for c in list(merged)[:3])
                    + (" …" if len(merged) > 3 else "") + ")")
    roles = {c: r for c, r in (encoder.roles or {}).items()
             if c not in (encoder.id_column, encoder.label_column)}
    if roles:
        names = ", ".join(f"'{c}' {r}" for c, r in list(roles.items())[:3])
        said.append(f"the column roles set ({names}{' …' if len(roles) > 3 else ''})")
    if clear_far:
        said.append("far values set to missing or converted")
    elif not encoder.convert_slips:
        said.append("values in a probable other unit used as given")
    if not getattr(encoder, "merge_spellings", True):
        said.append("answers written two ways kept apart")
    if encoder.leave_out_copies:
        said.append("copied rows left out of training")
    if encoder.blank_as_no:
        said.append("empty cells read as No in " + ", ".join(
            f"'{c}'" for c in list(encoder.blank_as_no)[:3])
            + (" …" if len(encoder.blank_as_no) > 3 else ""))
    if encoder.ages:
        said.append(f"the age{'s' if len(encoder.ages) > 1 else ''} added ("
                    + ", ".join(f"'{name}'" for name in encoder.ages) + ")")
    return "; ".join(said) + "." if said else ""


def train(cohort: Cohort, params: dict | None = None,
          callback: Callable[[str, dict], None] | None = None) -> SparGE:
    """Fit SparGE on the cohort's training rows (supervised when it has outcomes)."""
    rep = cohort.encoder.report_
    if rep.blocking:
        raise DataError("Cannot train: " + "; ".join(b.rstrip(".") for b in rep.blocking)
                        + ".")
    params = dict(params or {})
    supervised = params.pop("supervised", cohort.labels is not None)
    rows = cohort.train_rows
    if supervised and cohort.labels is None:
        raise DataError("Supervised training needs an outcome column.")
    # Unsupervised: the outcomes are kept only to report those of look-alikes.
    y = None
    if supervised:
        y = cohort.labels[rows].astype(str)
    elif cohort.labels is not None:
        y = np.asarray([str(v) for v in cohort.labels[rows]], dtype=object)
    # Graph neighbours are capped at the class sizes; SparGE itself refuses < 3 patients.
    model = SparGE(supervised=supervised, callback=callback, **params)
    model.fit(cohort.frame(rows), y, ids=cohort.ids[rows])
    model.set_params(callback=None)  # the model outlives the progress bar that listened
    return model


def model_params(model: SparGE) -> dict:
    """A model's SparGE parameters, to fit the same settings again (no callback)."""
    return {k: v for k, v in model.get_params().items() if k not in ("callback", "verbose")}


def lookalike_table(model: SparGE, X_query, *, n_neighbors: int = 10,
                    exclude_training_index: int | None = None,
                    candidates=None, leave_out=()) -> pd.DataFrame:
    """Look-alikes of one patient as a table.

    Parameters
    ----------
    X_query : array-like of shape (1, m) or None
        One patient's encoded features; ``None`` with ``exclude_training_index`` for a
        training patient (who is then not its own look-alike).
    candidates : array-like, optional
        The training patients that may be look-alikes (a boolean mask or indices; see
        :mod:`sparge.services.matching`); the table may then be shorter than
        ``n_neighbors``.
    leave_out : training indices that are no look-alikes (the patient's own rows on other
        lines of the file: :func:`own_other_rows`); as many more are looked up instead,
        so the search keeps its fast path. Of another patient's episodes (an ID the file
        repeats) only the nearest is a look-alike.

    Returns
    -------
    DataFrame with rank, training index, ID, distance, similarity, sparse weight, outcome.
    """
    if X_query is None and exclude_training_index is None:
        raise ValueError("give X_query or exclude_training_index")
    drop = np.unique(np.asarray(leave_out, dtype=np.intp).ravel())
    ids = getattr(model, "train_ids_", None)

    def search(k: int):
        if X_query is None:
            dd, ii, W = model.lookalikes(None, n_neighbors=k,
                                         rows=[int(exclude_training_index)],
                                         candidates=candidates)
        else:
            dd, ii, W = model.lookalikes(X_query, n_neighbors=k, candidates=candidates)
        d, idx = dd[0], ii[0]
        keep = ~np.isin(idx, drop)
        if ids is not None:
            # one episode of each other patient, the nearest: walk-through 101b's list
            # held one patient's two admissions (#1 and #9), counted twice in the share
            seen: set[str] = set()
            for t, i in enumerate(idx):
                key = _without_line(ids[i])
                keep[t] &= key not in seen
                seen.add(key)
        return d, idx, W, keep

    wanted = n_neighbors + drop.size
    d, idx, W, keep = search(wanted)
    if keep.sum() < n_neighbors and len(idx) == wanted:  # episodes left out: look further
        d, idx, W, keep = search(wanted + n_neighbors)
    shown = np.flatnonzero(keep)[:n_neighbors]
    d, idx = d[shown], idx[shown]
    w = np.asarray(W[0, idx].todense()).ravel()
    if not np.array_equal(shown, np.arange(len(shown))):
        # look-alikes left out (the patient's own rows, a second episode): the weights
        # rebuild the patient from those shown (walk-through 105's known patient showed
        # every weight 0.000, its whole weight on its own left-out row)
        Yq = (model.embedding_[[int(exclude_training_index)]] if X_query is None
              else model.lookalike_parts(X_query)[0])
        w = np.asarray(self_expressive_weights(Yq, model.embedding_, idx[None, :])
                       [0, idx].todense()).ravel()
    if ids is None:
        ids = np.asarray([str(j) for j in range(len(model.embedding_))])
    out = pd.DataFrame({
        "rank": np.arange(1, len(idx) + 1), "training_index": idx, "ID": ids[idx],
        "distance": d, "similarity": model.similarity(d), "sparse_weight": w})
    if model.y_ is not None:
        out["outcome"] = np.asarray(model.y_)[idx]
    return out


@dataclass
class PatientIndex:
    """Every patient of a cohort in a model's learned space, training patients or not.

    Rows follow the cohort's rows. Patients left out of training (too many gaps, no
    outcome) are embedded with ``model.transform``: the completion handles their gaps.
    """

    ids: np.ndarray  # str, one per cohort row
    in_training: np.ndarray  # bool
    train_index: np.ndarray  # int, index among the model's training patients, -1 if none
    reason: np.ndarray  # str: "" for training patients, else why they were left out
    X: np.ndarray  # encoded features (NaN = missing), rows = cohort rows
    embedding: np.ndarray  # (n_rows, n_components)
    compatible: bool  # the cohort's features are the model's
    features: list[str] = field(default_factory=list)  # the model's feature names
    message: str = ""  # why only the training patients are available, when not compatible

    @cached_property
    def id_keys(self) -> np.ndarray:
        """The IDs stripped and lower-cased, once per index (the Explore page looks the
        selected patient up on every rerun)."""
        return np.char.lower(np.char.strip(self.ids.astype(str)))

    @cached_property
    def id_squashed(self) -> np.ndarray:
        """The IDs lower-cased without spaces, hyphens and full stops: an NHS number is
        typed "5540216407" and written "554 021 6407" (walk-through 65 found no one)."""
        return np.asarray([_squashed(i) for i in self.id_keys.tolist()], dtype=object)

    @cached_property
    def id_unzeroed(self) -> np.ndarray:
        """The IDs of digits without their leading zeros and the CSV line a repeated ID is
        named with ("0056047 (line 118)": "56047"); others empty."""
        keys = pd.Series(self.id_keys.astype(str)).str.replace(_LINE_SUFFIX, "", regex=True)
        digits = keys.str.fullmatch(r"\d+")
        return keys.str.lstrip("0").where(digits, "").to_numpy(dtype=object)

    def find(self, patient_id: str) -> int | None:
        """Cohort row of a patient ID (case- and space-insensitive, and without regard to
        the spaces or hyphens inside it when that names one patient), or ``None``. An ID
        that the table repeats, whose patients are named with their CSV line
        (:meth:`sparge.data.encoder.Encoder.ids`), finds the first of them
        (:meth:`namesakes` lists them all)."""
        hits = np.flatnonzero(self.id_keys == str(patient_id).strip().lower())
        if not hits.size:
            same = self.namesakes(patient_id)
            hits = np.flatnonzero(self.id_keys == same[0].lower()) if same else hits
        if not hits.size and (key := _squashed(patient_id)):
            loose = np.flatnonzero(self.id_squashed == key)
            hits = loose if loose.size == 1 else hits
        if not hits.size and GROUPED_DIGITS.fullmatch(typed := str(patient_id).strip()):
            # digits in groups where the file's repeated ID is named without them ("020
            # 040 9177" for "0200409177 (line 227)": walk-through 103's search)
            return self.find(re.sub(r"[ \-]", "", typed))
        if not hits.size and (typed := str(patient_id).strip()).isdigit() and \
                typed.lstrip("0"):
            # the digits without the leading zeros the file writes, or with them where
            # it does not ("56047" for "0056047": walk-through 104's search found no one)
            hits = np.flatnonzero(self.id_unzeroed == typed.lstrip("0"))
        # ... also in groups, as the file writes it ("RX 741 2123": walk-through 106)
        typed = str(patient_id).strip()
        if not hits.size and (bare := PREFIXED_ID.fullmatch(typed) or (
                PREFIXED_ID.fullmatch(re.sub(r"(?<=\d)[ \-](?=\d)", "", typed))
                if PREFIXED_GROUPS.fullmatch(typed) else None)):
            # an ID typed with the prefix the file's IDs are named without ("MRN8191581",
            # and a trust's code "RX1577837": sparge.data.column_guess.id_text)
            for digits in _prefix_variants(bare.group(2)):
                if (row := self.find(digits)) is not None:
                    return row
            return None
        return int(hits[0]) if hits.size else None

    def namesakes(self, patient_id: str) -> list[str]:
        """The patients named by an ID that the table repeats, with their CSV lines
        ("DM10326 (line 328)", "DM10326 (line 902)"; walk-through 30's search for
        "DM10326" found neither)."""
        key = str(patient_id).strip().lower()
        if not key:
            return []
        hits = np.flatnonzero(np.char.startswith(self.id_keys.astype(str), key + " (line "))
        return [str(self.ids[i]) for i in hits]

    def namesakes_of(self, row: int) -> list[str]:
        """:meth:`namesakes` of the patient on cohort ``row``, however its ID was typed
        ("MRN7280409" finds "7280409 (line 258)"; session 53 left its notice unsaid)."""
        return self.namesakes(_without_line(self.ids[row]))

    def containing(self, text: str, limit: int = 8) -> list[str]:
        """Up to ``limit`` IDs that contain ``text`` (case- and space-insensitive), for a
        search that matched no ID whole ("100044" for "ICU-100044")."""
        key = str(text).strip().lower()
        if not key:
            return []
        hits = np.flatnonzero(np.char.find(self.id_keys, key) >= 0)
        if not hits.size and (loose := _squashed(text)):
            hits = np.flatnonzero([loose in i for i in self.id_squashed])
        return [str(self.ids[i]) for i in hits[:limit]]

    def query_row(self, row: int) -> pd.DataFrame:
        """One patient's encoded features as a one-row frame (for ``lookalike_table``)."""
        return pd.DataFrame(self.X[[row]], columns=self.features)


def _prefix_variants(digits: str) -> list[str]:
    """The digits of an ID typed after its prefix, and without the first one to three of
    them, which a prefix may end with ("RX1577837": "1577837", "577837", …); at least
    four digits each."""
    return [digits[k:] for k in range(4) if len(digits) - k >= 4]


def _squashed(patient_id: object) -> str:
    """An ID lower-cased without spaces, hyphens, full stops and slashes."""
    return re.sub(r"[\s\-./]+", "", str(patient_id)[:200].lower())


def cohort_outcomes(cohort: Cohort) -> np.ndarray | None:
    """Every patient's outcome as the pages show it: ``None`` where none is recorded, an
    outcome set aside (``Encoder.min_outcome_patients``) as "ESKD (set aside)" (walk-through
    19's set-aside patient read "outcome: unknown" above the note saying it was set aside).
    ``None`` for a cohort without an outcome."""
    if cohort.labels is None:
        return None
    out = np.asarray(cohort.labels, dtype=object).copy()
    aside = cohort.encoder.set_aside(cohort.df)
    has = np.asarray([v is not None for v in aside], dtype=bool)
    out[has] = [f"{v} (set aside)" for v in aside[has]]
    return out


def _weights(encoder: Encoder, X: np.ndarray, df: pd.DataFrame | None = None
             ) -> np.ndarray | None:
    """The encoder's :meth:`~sparge.data.encoder.Encoder.patient_weights` of ``X`` (encoded
    from ``df``) when they fit its features."""
    w = encoder.patient_weights(X, df)
    return w if w.shape[-1] == X.shape[1] else None


def share_above(pct: float, threshold: float) -> str:
    """A percentage above ``threshold`` written with the decimals that show it above:
    walk-through 90 read "10% of values missing (the training threshold is 10%)" for
    3 of 29 values, 10.3 %.

    Examples
    --------
    >>> share_above(10.34, 10), share_above(24.0, 10), share_above(10.04, 10)
    ('10.3', '24', '10.04')
    """
    for d in range(4):
        text = f"{pct:.{d}f}"
        if float(text) > threshold:
            return text
    return f"{pct:.4f}"


def _leave_out_reasons(cohort: Cohort) -> np.ndarray:
    enc = cohort.encoder
    n = len(cohort.ids)
    reasons = np.full(n, "", dtype=object)
    miss = (missing_fraction_per_row(cohort.X, _weights(enc, cohort.X, cohort.df))
            if cohort.X.shape[1] else np.zeros(n))
    thr = enc.max_patient_missing
    if thr is not None:
        too_many = miss > thr + 1e-12
        for i in np.flatnonzero(too_many):
            reasons[i] = (f"{share_above(100 * miss[i], 100 * thr)}% of values missing (the "
                          f"training threshold is {100 * thr:.0f}%)")
    if enc.report_.copies_left_out:  # CSV lines of copies of an earlier row
        rows = np.asarray(enc.report_.copied_rows, dtype=int) - 2
        reasons[rows[(rows >= 0) & (rows < n)]] = "a copy of an earlier row in every column"
    if cohort.labels is not None:
        aside = enc.set_aside(cohort.df)
        for i in np.flatnonzero(pd.isna(pd.Series(cohort.labels, dtype=object)).to_numpy()):
            why = ("no outcome recorded" if aside[i] is None else
                   f"its outcome '{aside[i]}' was set aside (too few patients to learn it)")
            reasons[i] = "; ".join(r for r in (reasons[i], why) if r)
    return reasons


def kept_change(before: int, after: int,
                fewer: str = "now past the threshold of missing values") -> str:
    """What a one-click repair did to the patients kept for training, said after it
    (walk-through 59: values set to missing put 2 patients past the threshold, unsaid);
    ``fewer``: why fewer are kept (walk-through 73's copies left out read "now past the
    threshold of missing values"). ``""`` when it did nothing to them."""
    if before == after:
        return ""
    more = after > before
    n = abs(after - before)
    return (f" Patients kept for training: {before:,} → {after:,} ({n:,} "
            + ("more" if more else f"fewer, {fewer}") + ").")


def roles_frame(encoder: Encoder) -> pd.DataFrame:
    """The Column roles tab's table: each column, its role and why, in a few words (a
    column left out by default says why: walk-through 58 scrolled a long report to learn
    why its GCS was 'ignore')."""
    why_out = dict(getattr(encoder, "left_out_why_", {}) or {})
    dropped = {d.column: d.reason for d in getattr(encoder.report_, "dropped_columns", [])}
    chosen = set(encoder.roles or {})
    rows = []
    for col, role in encoder.roles_.items():
        if role == "id":
            why = "the patient ID"
        elif role == "label":
            why = "the outcome"
        elif col in dropped:
            why = f"left out: {dropped[col]}"
        elif role == "ignore":
            why = ("your choice" if col in chosen and col not in why_out
                   else why_out.get(col, "left out"))
        elif role == "numeric":
            unit = encoder.unit_of(col)
            # a unit, not any bracket of the name ("SOFA (day 1)")
            known = unit and (unit_key(unit) in KNOWN_UNITS or col in
                              (getattr(encoder, "units_", None) or {})
                              or col in (getattr(encoder, "acuity_scales_", None) or {}))
            why = "numbers" + (f" in {unit}" if known else "")
        else:
            n = len(set(encoder.table_.levels(col).values())) if encoder.table_.has(col) \
                else 0
            why = f"{n} answers" if n else "answers"
        rows.append({"column": col, "role": role, "why": why})
    return pd.DataFrame(rows, columns=["column", "role", "why"])


def left_out_lines(roles: pd.DataFrame) -> list[str]:
    """The Column roles tab's left-out columns with their reasons in full, one line each
    ("'Readmitted <30d': named like another outcome: …"), for a list under the table,
    whose cells cut a long reason at a narrow width."""
    out = roles[(roles["role"] == "ignore")]
    return [f"{str(c)[:60]}: {str(w).removeprefix('left out: ')}"
            for c, w in zip(out["column"], out["why"], strict=True)]


def table_as_read(cohort: Cohort) -> pd.DataFrame:
    """Every row of the table as the model reads it, for the Data page's download: the
    patient's name, each feature's value (a number in the unit the column is read in, named
    in the header; a category's answer as the pages show it, merged spellings as one), the
    outcome, and why a row does not train. A data manager compares it with the export
    (walk-through 37 had to rebuild the app's reading with the library to check it)."""

    enc = cohort.encoder
    name = enc.id_column if enc.id_column is not None else "Patient"
    columns: dict[str, object] = {name: [str(i) for i in cohort.ids]}
    for j, col in enumerate(cohort.features):
        values = cohort.X[:, j]
        answers = answers_by_code(enc, col)
        if answers is not None:
            shown = pd.Series(values).map(answers)
            columns[plain_text(col, 200)] = shown.where(pd.notna(values), "").to_numpy()
        else:
            # a value converted or computed as its column writes its values (walk-through
            # 57 read 8.9124668435 pmol/L from "84 pg/mL")
            # (the precision most values share: converted by the far-values click, a
            # sixth of walk-through 59's PaO2 were written 10.1324997664)
            columns[biomarker_name(col, enc)] = round_computed(
                values, typical_decimals(values, share=0.5))
    # the columns the model leaves out, as read ("4h 17m" as "257 min"; walk-through 51
    # read "as written" over such cells): walk-through 44 could not see its blood
    # loss (left out as the outcome's definition) in the download at all
    for col in _left_out_columns(cohort):
        text = cohort.df[col].astype("string").fillna("").str.strip()
        columns[f"{plain_text(col, 200)} (not used, as read)"] = text.to_numpy(dtype=object)
    if cohort.labels is not None:
        columns[plain_text(enc.label_column, 200)] = [
            "" if pd.isna(v) else str(v) for v in cohort.labels]
    trains = np.zeros(len(cohort.ids), dtype=bool)
    trains[cohort.train_rows] = True
    columns["Trains the model"] = np.where(trains, "yes", "no")
    columns["Why not"] = np.where(trains, "", _leave_out_reasons(cohort))
    return pd.DataFrame(columns)


def _left_out_columns(cohort: Cohort) -> list:
    """The table's columns that are not features, the ID or the outcome (set aside, left
    out as free text, a leak or a copy, or empty), in the table's order."""
    used = used_columns(cohort.encoder, cohort.df)
    return [c for c in cohort.df.columns if str(c) not in used]


def fit_sample_note(model: SparGE) -> str | None:
    """What a model learned from, when it learned from a sample of a larger cohort."""
    seen = int(getattr(model, "n_samples_seen_", 0) or 0)
    n = len(model.embedding_)
    if seen <= n:
        return None
    return (f"learned from a stratified sample of {n:,} of {seen:,} patients "
            f"(max_fit_samples); the others are embedded like new patients")


def forest_note(model: SparGE) -> str | None:
    """The forest part of a model's look-alike metric in a few words; why a supervised
    model has none (walk-through 18: one patient with a rare outcome dropped it, and
    nothing said so); ``None`` for an unsupervised model or a forest weight of 0."""
    forest = getattr(model, "forest_", None)
    if forest is None:
        return _no_forest_reason(model)
    leaf = getattr(model, "forest_min_leaf_", None)
    leaves = f", leaves of at least {leaf}" if leaf else ""
    counted = {"in-bag": ", in-bag proximity"}.get(getattr(model, "forest_proximity_", None), "")
    return (f"forest part: {forest.offsets.size} trees{leaves}{counted}, "
            f"weight {float(model.forest_weight_):g}")


def _no_forest_reason(model: SparGE) -> str | None:
    y = getattr(model, "y_", None)
    if getattr(model, "classes_", None) is None or y is None or model.forest_weight == 0:
        return None
    if len(y) < MIN_PATIENTS:
        return (f"no forest part (it needs {MIN_PATIENTS} training patients; this model has "
                f"{len(y)})")
    values, counts = np.unique(np.asarray(y).astype(str), return_counts=True)
    few = [f"'{v}' ({c} patient{'s' if c != 1 else ''})"
           for v, c in zip(values, counts, strict=True) if c < MIN_PER_OUTCOME]
    if not few:
        return None
    return (f"no forest part: it needs {MIN_PER_OUTCOME} training patients per outcome, and "
            f"{', '.join(few)} {'has' if len(few) == 1 else 'have'} fewer (set such "
            "outcomes aside on the Data page, encode again and train again)")


def not_learned_reason(model: SparGE) -> str:
    """Why a patient of a usable row is not among the model's training patients."""
    note = fit_sample_note(model)
    if note:
        return f"not in the training sample (the model {note.split(';')[0]})"
    return "not in this model's training patients"


def training_patient_caveat(model: SparGE, outcome=None,
                            table: pd.DataFrame | None = None) -> str:
    """What to keep in mind about a training patient's look-alikes ("" when nothing).

    A supervised model pulled the training patients of one outcome together, so a
    training patient's look-alikes share its outcome more often than a new patient's
    would (a walk-through read 100 % here against 56 % in the held-out check).

    Parameters
    ----------
    outcome : the patient's own outcome, or None
    table : its look-alikes (:func:`lookalike_table`, with ``outcome``), or None. When
        fewer than half of them share the patient's outcome, the caveat says so first:
        walk-through 82 read "9 of 10 look-alikes had 'Yes'" for a patient with "No"
        beside the general warning that they share it *more* often, and was puzzled.
    """
    if not getattr(model, "supervised", False) or getattr(model, "y_", None) is None:
        return ""
    text = ("This patient is one of the training patients, and the model learned from "
            "their outcomes: its look-alikes share its outcome more often than a new "
            "patient's would. For how far to trust the look-alikes of a new patient, run "
            "the held-out check on the Model page.")
    if outcome is None or table is None or "outcome" not in table or not len(table):
        return text
    same = int((table["outcome"].astype(str) == str(outcome)).sum())
    if 2 * same >= len(table):
        return text
    return (f"Only {same} of its {len(table)} look-alikes had its own outcome "
            f"('{str(outcome)[:60]}'), although the model learned from it: on the measures "
            "the model reads, this patient resembles patients with another outcome (an "
            "unusual course, or what the table does not hold). " + text)


def cohort_patients(model: SparGE, cohort: Cohort) -> PatientIndex:
    """Every patient of ``cohort`` placed in ``model``'s learned space.

    Training patients of the model keep their training embedding (matched by ID); the
    others are embedded with ``model.transform`` and carry the reason they were not used
    for training. When the cohort's features are not the model's (data and model come
    from different tables), only the model's training patients are returned and
    ``compatible`` is False with a message saying why.
    """
    n_train = model.embedding_.shape[0]
    train_ids = np.asarray(getattr(model, "train_ids_",
                                   np.asarray([str(j) for j in range(n_train)])), dtype=str)
    features = model.feature_names()
    compatible = list(cohort.features) == features
    # the same features, its training patients encoded another way (a re-upload without
    # the merges made before training): the data's codes mean other things, and its
    # values and patients are not shown with the model's (walk-through 26 read a grade
    # "6" on a 1-3 scale, "+5.6 SD")
    recoded = encoding_mismatch(model, cohort.X, cohort.ids) if compatible else ""
    if not compatible or recoded:
        missing = [f for f in features if f not in set(cohort.features)]
        msg = (recoded.split(". The table")[0] + ": only the model's training patients are "
               "shown, with their values as the model has them." if recoded else
               "The current data table is not the one this model was trained on "
               f"({len(cohort.features)} features vs the model's {len(features)}"
               + (f"; e.g. '{missing[0]}' is missing" if missing else "") +
               "): only the model's training patients are shown.")
        idx = model.training_values()
        out = PatientIndex(ids=train_ids.astype(object), in_training=np.ones(n_train, bool),
                           train_index=np.arange(n_train), reason=np.full(n_train, "",
                                                                          dtype=object),
                           X=idx.to_numpy(), embedding=model.embedding_, compatible=False,
                           features=features, message=msg)
        return out
    ids = np.asarray([str(v) for v in cohort.ids], dtype=object)
    pos = {str(v).strip(): j for j, v in enumerate(train_ids)}
    # each training patient is one row: the cohort's training rows first, so a copied
    # row sharing its ID (left out of training) is not counted as trained (walk-through
    # 34's map said 632 training patients for a model of 627)
    first = np.asarray(getattr(cohort, "train_rows", ()), dtype=int)
    order = np.concatenate([first, np.setdiff1d(np.arange(len(ids)), first)])
    found = pd.Series(ids[order]).astype(str).str.strip().map(pos)
    found[found.duplicated()] = np.nan  # a later row with a training patient's ID
    train_index = np.full(len(ids), -1, dtype=int)
    train_index[order] = found.fillna(-1).to_numpy(dtype=int)
    in_training = train_index >= 0
    reasons = _leave_out_reasons(cohort)
    reasons[in_training] = ""
    reasons[~in_training & (reasons == "")] = not_learned_reason(model)
    emb = np.empty((len(ids), model.embedding_.shape[1]))
    emb[in_training] = model.embedding_[train_index[in_training]]
    if (~in_training).any():
        emb[~in_training] = model.transform(cohort.X[~in_training])
    return PatientIndex(ids=ids, in_training=in_training, train_index=train_index,
                        reason=reasons, X=cohort.X, embedding=emb, compatible=True,
                        features=features)


def outcome_shares(table: pd.DataFrame) -> pd.Series:
    """Share of look-alikes with each outcome."""
    if "outcome" not in table:
        return pd.Series(dtype=float)
    return table["outcome"].value_counts(normalize=True)


class HeldoutShare(NamedTuple):
    """What a share of look-alikes with an outcome meant in the held-out check.

    Attributes
    ----------
    outcome : str
        The outcome.
    share, low_ci, high_ci : float
        The share of those held-out patients who had it, and its 95 % interval (0 to 1).
    patients : int
        Held-out patients read (the band's, or the pooled bands').
    low, high : int
        The band of look-alike counts read (pooled when the count's own was too small).
    own : int
        Held-out patients in the count's own band.
    alone : str
        The count's own band ("10", "8–9").
    base : float
        Percent of all held-out patients who had the outcome.
    """

    outcome: str
    share: float
    low_ci: float
    high_ci: float
    patients: int
    low: int
    high: int
    own: int
    alone: str
    base: float


def heldout_share(reliability: pd.DataFrame | None, outcome: str, count: int, n: int,
                  min_patients: int = 10) -> HeldoutShare | None:
    """What ``count`` of ``n`` look-alikes with ``outcome`` meant for the held-out patients
    of the Model page's check (``reliability``: :func:`~sparge.services.lookalike_check.
    check_reliability`), or ``None``: no check, a check of another number of look-alikes,
    or fewer than ``min_patients`` held-out patients in that band (too few to say)."""
    if reliability is None or not len(reliability) or n != int(reliability["k"].iloc[0]):
        return None
    rel = reliability[reliability["outcome"].astype(str) == str(outcome)].sort_values("low")
    rel = rel.reset_index(drop=True)
    at = np.flatnonzero((rel["low"] <= count) & (rel["high"] >= count))
    if not len(at):
        return None
    # a band of too few held-out patients is read with its neighbours, the one of fewer
    # patients first, until enough (walk-through 90's 10 of 10 'Yes' had 4 such held-out
    # patients: the caption fell back to "72 % to 100 %" from the ten look-alikes alone,
    # while the Model page's table said 29 % of them had it)
    first = last = int(at[0])
    own = int(rel["patients"].iloc[first])
    while int(rel["patients"].iloc[first:last + 1].sum()) < min_patients:
        below = rel["patients"].iloc[first - 1] if first > 0 else None
        above = rel["patients"].iloc[last + 1] if last + 1 < len(rel) else None
        if below is None and above is None:
            return None
        if above is None or (below is not None and below <= above):
            first -= 1
        else:
            last += 1
    bands = rel.iloc[first:last + 1]
    had, patients = int(bands["had"].sum()), int(bands["patients"].sum())
    repeats = (float((bands["repeats"] * bands["patients"]).sum() / patients)
               if "repeats" in bands else 1.0)
    base = 100 * rel["had"].sum() / max(int(rel["patients"].sum()), 1)
    lo, hi = repeat_interval(had, patients, repeats)
    b = rel.iloc[int(at[0])]
    alone = f"{b['low']}–{b['high']}" if b["low"] != b["high"] else f"{b['low']}"
    return HeldoutShare(str(outcome), had / patients, float(lo), float(hi), patients,
                        int(bands["low"].iloc[0]), int(bands["high"].iloc[-1]),
                        own if len(bands) > 1 else patients, alone, float(base))


def heldout_share_sentence(reliability: pd.DataFrame | None, outcome: str, count: int,
                           n: int, min_patients: int = 10) -> str | None:
    """:func:`heldout_share` in words, or ``None`` where it gives none."""
    r = heldout_share(reliability, outcome, count, n, min_patients)
    if r is None:
        return None
    span = f"{r.low}–{r.high}" if r.low != r.high else f"{r.low}"
    pooled = (f"; only {r.own} had {r.alone}, too few to read alone"
              if r.own != r.patients else "")
    return (f"What such a share meant in this cohort's held-out check (Model page): "
            f"{100 * r.share:.0f} % of the {r.patients} held-out patients whose {n} "
            f"look-alikes included {span} with '{plain_text(str(outcome), 40)}' had it "
            f"themselves (95 % Wilson interval {100 * r.low_ci:.0f}–{100 * r.high_ci:.0f} "
            f"%{pooled}; of all held-out patients, {r.base:.0f} %).")


def lookalikes_heldout(table: pd.DataFrame, reliability: pd.DataFrame | None
                       ) -> HeldoutShare | None:
    """:func:`heldout_share` of a look-alike table's most frequent outcome (every
    look-alike with an outcome), or ``None``."""
    if reliability is None or "outcome" not in table:
        return None
    counts = table["outcome"].dropna().astype(str).value_counts()
    if counts.empty or int(counts.sum()) != len(table):
        return None
    return heldout_share(reliability, str(counts.index[0]), int(counts.iloc[0]),
                         int(counts.sum()))


def outcome_share_caption(table: pd.DataFrame, reliability: pd.DataFrame | None = None,
                          conditioned: bool = False,
                          measured: tuple[int, int] | None = None) -> str | None:
    """Words under the look-alikes' outcome bars: how little a share of a few look-alikes
    says (walk-through 71 read "100 % Yes" for two patients; of held-out patients whose
    10 look-alikes all had the event, 67 % had it). With the Model page's held-out check
    of this model (``reliability``), what such a share meant for its held-out patients
    (walk-through 72 read "9 of 10 died" as a 90 % risk; half of such patients died).
    ``conditioned``: the look-alikes were drawn among the patients matching conditions,
    where the check's reading does not apply (said so: walk-through 73 read the share as
    a risk there). ``measured``: the patient's values given, of the model's; under half,
    the check's reading is said to be for patients with most of theirs (walk-through 74's
    new patient had 5 of 18). ``None`` without outcomes."""
    if "outcome" not in table:
        return None
    counts = table["outcome"].dropna().astype(str).value_counts()
    if counts.empty:
        return None
    n, top, k = int(counts.sum()), str(counts.index[0]), int(counts.iloc[0])
    said = f"{k} of {n} look-alikes had '{plain_text(top, 40)}'. "
    heldout = heldout_share_sentence(reliability, top, k, n) if n == len(table) else None
    if heldout:
        if measured is not None and 0 < measured[1] and measured[0] < 0.5 * measured[1]:
            heldout += (f" This patient has {measured[0]} of the model's {measured[1]} "
                        "values; the held-out patients had most of theirs, so the reading "
                        "may not carry over.")
        return said + heldout
    lo, hi = wilson_interval(k, n)
    where = ("The held-out check's reading of such shares (Model page) is for look-alikes "
             "drawn from every training patient, not among those matching the conditions: "
             "it does not say what this share means." if conditioned else
             "The Model page's held-out check says how often look-alikes share the outcome "
             "on your cohort.")
    return (said + "So few are a small "
            f"sample: among patients like this one the share may lie anywhere from "
            f"{100 * lo:.0f} % to {100 * hi:.0f} % (95 % Wilson interval). " + where)


#: Median similarity of the look-alikes under which their outcomes are said to say little
#: (a typical look-alike scores 0.6 or more: the similarity scale puts the 90th percentile
#: of the training patients' look-alike distances at 0.61).
FAR_LOOKALIKES = 0.2


def far_lookalikes_message(table: pd.DataFrame, threshold: float = FAR_LOOKALIKES
                           ) -> str | None:
    """A caution above the look-alikes' outcome shares when the look-alikes are not close
    (a walk-through's typo patient: every similarity 0.00, yet "80 % died" was drawn), else
    ``None``."""
    if "similarity" not in table or not len(table):
        return None
    med = float(np.median(np.asarray(table["similarity"], dtype=float)))
    if not np.isfinite(med) or med >= threshold:
        return None
    return (f"These look-alikes are not close to the patient (median similarity {med:.2f}; "
            "a typical look-alike scores 0.6 or more): the patient is unlike the training "
            "patients, and the outcomes below say little about them.")


def identical_lookalikes_message(table: pd.DataFrame, query=None,
                                 neighbours: pd.DataFrame | None = None,
                                 query_id: object = None) -> str | None:
    """A caution when look-alikes hold every value the model uses as the patient does
    (``query`` and ``neighbours``, the values in the model's columns; without them, a
    distance of 0): the same patient entered twice, perhaps under another ID
    (walk-through 59's admission re-entered under a new ID was look-alike #1 at 1.00,
    unsaid on the page). A copy under the patient's own ID (``query_id``; IDs repeated
    in the file are named with their CSV line, "RX47 (line 132)") is said to be one
    (walk-through 85 read "under another ID?" beside its own). ``None`` otherwise."""
    if not len(table) or "ID" not in table:
        return None
    if query is not None and neighbours is not None and len(neighbours) == len(table):
        q = np.asarray(query, dtype=float).ravel()
        V = neighbours.to_numpy(dtype=float)
        seen = np.isfinite(q)
        same = (np.isfinite(V) == seen[None, :]).all(axis=1) & \
            np.all(np.where(seen[None, :], np.isclose(V, q[None, :], rtol=1e-6, atol=1e-9),
                            True), axis=1) & (seen.sum() > 0)
    elif "distance" in table:
        same = np.asarray(table["distance"], dtype=float) <= 1e-9
    else:
        return None
    ids = [str(i) for i in np.asarray(table["ID"])[same]]
    if not ids:
        return None
    named = ", ".join(f"'{i}'" for i in ids[:3]) + (f" and {len(ids) - 3} more"
                                                    if len(ids) > 3 else "")
    own = query_id is not None and _without_line(query_id) in {_without_line(i) for i in ids}
    where = "(its own ID, on another line of the file)" if own else "(under another ID)?"
    return (f"{named} {'has' if len(ids) == 1 else 'have'} every value the model uses as this "
            f"patient has, gaps included: the same patient entered twice {where} "
            "If so, delete the copy from the file: a copy is every patient's best look-alike "
            "and counts twice in training.")


def own_other_rows(ids: Sequence[object], row: int) -> np.ndarray:
    """Indices of a patient's own rows on other lines of the file: an ID the file repeats
    is named with its CSV line ("RX47 (line 132)"; :meth:`sparge.data.encoder.Encoder.ids`),
    and another episode of the same person (a second transplant, a readmission) is no
    look-alike to count (walk-through 100b: the outcome share counted it).

    Examples
    --------
    >>> own_other_rows(["A (line 2)", "B", "A (line 9)", "A"], 0).tolist()
    [2]
    """
    return same_person(ids, ids[row])


def same_person(ids: Sequence[object], patient_id: object) -> np.ndarray:
    """Indices of ``ids`` that name the patient ``patient_id`` on another line of the file
    (:func:`own_other_rows`), for a patient trained on or not."""
    me = str(patient_id)
    key = _without_line(me)
    if key == me or not len(ids):  # an ID the file does not repeat
        return np.zeros(0, dtype=np.intp)
    # one vectorised pass: Explore asks on every rerun, of every training patient
    named = np.asarray(ids).astype(str)
    return np.flatnonzero(np.char.startswith(named, f"{key} (line ") & (named != me)
                          & np.char.endswith(named, ")")).astype(np.intp)


#: What another row with a patient's ID is (:func:`repeat_kind`): most often another
#: admission or episode; in a register of eyes, the patient's other eye.
EPISODE, OTHER_EYE, OTHER_SIDE = ("another admission, course or episode", "the other eye",
                                  "the other side")


def repeat_kind(df: pd.DataFrame | None, column: str | None) -> str:
    """What a row with the same ID in ``column`` is: :data:`OTHER_EYE` (or
    :data:`OTHER_SIDE`) where the table's repeated IDs are one patient's two eyes
    (:func:`~sparge.data.column_guess.two_sides`; walk-through 104 read "another
    admission or episode" of a fellow eye), else :data:`EPISODE`."""
    found = two_sides(df, column) if df is not None and column else None
    return EPISODE if found is None else OTHER_EYE if found[0] == "eyes" else OTHER_SIDE


#: The CSV line a repeated ID is named with: "RX47 (line 132)" (:meth:`Encoder.ids`).
_LINE_SUFFIX = re.compile(r" \(line \d+\)$")
#: How a patient is named when the file or the model has no ID to name it by: no person.
_NOT_AN_ID = re.compile(r"(?:csv )?line \d+|new patient|new|")


def person_keys(ids: Sequence[object]) -> tuple[np.ndarray, np.ndarray]:
    """IDs as one person is named however written: lower-cased and without the CSV line a
    repeated ID is named with; and those without a letter prefix before 4 digits or more
    ("mrn7280409": "7280409") and without the leading zeros of digits ("0056047":
    "56047")."""
    text = pd.Series(np.asarray(ids, dtype=object).astype(str)).str.strip().str.lower()
    # digits in groups are the digits ("136 262 6612": walk-through 103)
    text = ungrouped(text.str.replace(_LINE_SUFFIX, "", regex=True))
    # ... and the digits without their leading zeros ("56047" is "0056047": walk-through
    # 104's spreadsheet dropped them)
    return (text.to_numpy(dtype=object),
            text.str.replace(f"^{PREFIXED_ID.pattern}$", r"\2", regex=True)
            .str.replace(r"^0+(?=\d+$)", "", regex=True).to_numpy(dtype=object))


def known_patient_rows(ids: Sequence[object], patient_id: object,
                       keys: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Indices of the training patients ``ids`` that have a new patient's ID: the same
    person (another admission or episode, or the patient entered again), no look-alike
    (session 54: a readmission's CSV found its first admission among its look-alikes,
    unsaid). IDs are compared case-insensitively, without the CSV line a repeated ID is
    named with, and with or without a letter prefix when one of the two is written
    without ("MRN7280409" is "7280409"; "H1234" is not "RX1234"). Patients named by their
    CSV line ("line 2", "CSV line 3"), and the form's "NEW", name no one.

    ``keys`` are the training IDs' :func:`person_keys`, when computed once per model.

    Examples
    --------
    >>> known_patient_rows(["7280409 (line 4)", "A1", "MRN7280409 (line 9)"],
    ...                    "mrn 7280409").tolist()
    [0, 2]
    >>> known_patient_rows(["H1234", "RX1234", "1234"], "RX1234").tolist()
    [1, 2]
    >>> known_patient_rows(["line 2", "line 3"], "line 2").size
    0
    """
    (me,), (me_bare,) = person_keys([patient_id])
    if not len(ids) or _NOT_AN_ID.fullmatch(me):
        return np.zeros(0, dtype=np.intp)
    full, bare = person_keys(ids) if keys is None else keys
    same = np.flatnonzero((full == me) | (bare == me_bare))
    if not same.size and me_bare != me and me_bare.isdigit():
        # a trust's code typed before the digits the file writes bare ("RX1577837")
        for digits in _prefix_variants(me_bare)[1:]:
            if (same := np.flatnonzero(full == digits)).size:
                return same.astype(np.intp)

    def prefix(f: object, b: object) -> str:
        return re.sub(r"[^a-z]", "", str(f)[:len(str(f)) - len(str(b))])

    mine = prefix(me, me_bare)
    return np.asarray([j for j in same.tolist() if full[j] == me or not mine
                       or prefix(full[j], bare[j]) in ("", mine)], dtype=np.intp)


def known_patient_message(ids: Sequence[object], rows, patient_id: object,
                          kept: bool = False, kind: str = EPISODE) -> str | None:
    """Words for :func:`known_patient_rows`: which training patients have the new
    patient's ID, and whether they were left out of its look-alikes, or ``None``.
    ``kind``: what another row with the ID is (:func:`repeat_kind`)."""
    named = [str(ids[j]) for j in np.asarray(rows, dtype=np.intp).ravel()]
    if not named:
        return None
    said = ", ".join(f"'{i}'" for i in named[:3]) + (f" and {len(named) - 3} more"
                                                     if len(named) > 3 else "")
    one = len(named) == 1
    # named as typed, the ID is not said twice ("'SH0007' ('SH0007')"); on several lines,
    # one person's (walk-through 103b read "2 training patients" where the Model page
    # counts one)
    said = "" if named == [str(patient_id)] else f" ({said})"
    has = (f"A training patient has the ID '{patient_id}'{said}" if one else
           f"The training data has the ID '{patient_id}' on {len(named)} lines{said}")
    if kept:
        return (f"{has}, kept among the look-alikes as you chose: another person with "
                "the same ID.")
    return (f"{has}: the same person ({kind}, or this patient "
            f"entered again) is no look-alike, so {'it is' if one else 'they are'} left "
            "out of the look-alikes and of their outcome share.")


def people(ids: Sequence[object]) -> np.ndarray | None:
    """The person each row is (its ID without the CSV line a repeated ID is named with),
    or ``None`` when no ID is repeated: the held-out check holds a person's rows out
    together (:func:`sparge.services.person_splits.grouped_splits`).

    Examples
    --------
    >>> people(["A (line 2)", "B", "A (line 9)"]).tolist()
    ['A', 'B', 'A']
    >>> people(["A", "B"]) is None
    True
    """
    keys = np.asarray([_without_line(i) for i in ids], dtype=object)
    return keys if len(set(keys.tolist())) < len(keys) else None


def repeated_rows_words(kind: str) -> str:
    """What a person's other rows are, as the held-out checks say it: "other eyes of the
    same person" in a register of eyes (:func:`repeat_kind`), "other admissions, courses
    or episodes of the same person" otherwise (walk-through 106's dialysis register read
    "… or eyes")."""
    return {OTHER_EYE: "the other eye of the same person",
            OTHER_SIDE: "the other side of the same person"}.get(
        kind, "other admissions, courses or episodes of the same person")


def patients_count(n: int, ids: Sequence[object] | None, what: str = "") -> str:
    """How many patients ``n`` rows are, in words: "302 training rows of 273 patients"
    where ``ids`` repeat a person (a register of eyes, courses, admissions: the sidebar
    called 302 eyes of 273 people "302 training patients", walk-through 104), else "420
    training patients". ``what``: a word before "rows" or "patients"."""
    pre = f"{what} " if what else ""
    keys = people(ids) if ids is not None and len(ids) == n else None
    if keys is None:
        return f"{n:,} {pre}patient{'s' if n != 1 else ''}"
    k = len(set(keys.tolist()))
    return f"{n:,} {pre}rows of {k:,} patient{'s' if k != 1 else ''}"


def repeated_id_message(rows: Sequence[str], shown: str, kind: str = EPISODE,
                        sides: Mapping[str, str] | None = None) -> str:
    """The Explore search's notice of an ID the file repeats: its rows (``rows``, named
    with their CSV line), the one ``shown`` and the others (walk-through 102b searched
    "752790 (line 445)" and read "showing 752790 (line 388)" above line 445).

    Examples
    --------
    >>> repeated_id_message(["A (line 2)", "A (line 9)"], "A (line 9)")[-42:]
    'showing A (line 9); the other: A (line 2).'
    """
    def named(r: str) -> str:  # with its eye in a register of eyes ("…, left eye")
        return f"{r}, {sides[r]}" if sides and sides.get(r) else r

    others = [r for r in rows if r != shown]
    return (f"The file repeats the ID '{_without_line(shown)}' on {len(rows)} lines "
            f"({kind} of one patient, or two patients sharing it): "
            f"showing {named(shown)}; the other{'s' if len(others) != 1 else ''}: "
            + ("; " if sides else ", ").join(named(r) for r in others[:7])
            + (" …" if len(others) > 7 else "") + ".")


def own_rows_left_out_message(ids: Sequence[object], left_out, kind: str = EPISODE
                              ) -> str | None:
    """What :func:`own_other_rows` left out of a patient's look-alikes, or ``None``."""
    rows = [str(ids[j]) for j in np.asarray(left_out, dtype=np.intp).ravel()]
    if not rows:
        return None
    said = ", ".join(f"'{i}'" for i in rows[:3]) + (f" and {len(rows) - 3} more"
                                                    if len(rows) > 3 else "")
    return (f"{said}: this patient's own {'row' if len(rows) == 1 else 'rows'} on another "
            f"line of the file, with the same ID ({kind}) "
            f"{'is' if len(rows) == 1 else 'are'} left out of its look-alikes "
            "and of their outcome share: the same person is no look-alike.")


def own_rows_message(table: pd.DataFrame, query_id: object,
                     identical: str | None = None, kind: str = EPISODE) -> str | None:
    """A note when look-alikes are the patient's own other rows in the file (IDs the file
    repeats are named with their CSV line, "RX47 (line 132)"): walk-through 100's second
    transplant had the same recipient's first as look-alike #7, unsaid. ``None`` when
    there are none, or when ``identical`` (:func:`identical_lookalikes_message`) already
    names them as copies."""
    if query_id is None or not len(table) or "ID" not in table:
        return None
    me = _without_line(query_id)
    if me == str(query_id):  # an ID the file does not repeat
        return None
    own = [(int(r), str(i)) for r, i in zip(table.get("rank", range(1, len(table) + 1)),
                                            table["ID"])
           if _without_line(i) == me and str(i) != str(query_id)]
    own = [(r, i) for r, i in own if identical is None or f"'{i}'" not in identical]
    if not own:
        return None
    said = ", ".join(f"'{i}' (#{r})" for r, i in own[:3])
    return (f"{said} {'is' if len(own) == 1 else 'are'} this patient's own "
            f"{'row' if len(own) == 1 else 'rows'} on another line of the file, with the "
            f"same ID ({kind}): the same person, "
            "alike in what does not change. Read the other look-alikes for other patients.")


def _without_line(patient_id: object) -> str:
    """An ID without the CSV line it is named with when repeated ("RX47 (line 132)")."""
    return _LINE_SUFFIX.sub("", str(patient_id))


#: How far beyond the training patients' range (a share of that range) a new patient's
#: value must lie to be questioned (a typo, or other units).
OUT_OF_RANGE_MARGIN = 0.25


def training_ranges(reference: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each column's lowest and highest training value, and whether it has any.

    Values far from the rest of their column (:func:`sparge.data.far_values.far_mask`: a
    typo or another unit) do not count: walk-through 21's training sodium of 1380 let a
    new patient's 1290 pass unquestioned.
    """
    X = reference.to_numpy(dtype=float, copy=True)
    X[far_mask(X)] = np.nan
    lo, hi = column_bounds(X)
    return lo, hi, np.isfinite(X).any(axis=0)


def out_of_range_values(values, reference: pd.DataFrame, encoder: Encoder | None = None,
                        margin: float = OUT_OF_RANGE_MARGIN, ranges=None) -> list[str]:
    """Words for the values of one new patient far outside the training patients' values
    (those of :func:`out_of_range`, in column order)."""
    return list(out_of_range(values, reference, encoder, margin, ranges).values())


class Questioned(NamedTuple):
    """A new patient's value outside the training patients' (:func:`questioned_values`):
    words for it, and the unit it was probably given in with the value converted from it
    (``None`` when no unit fits); ``far`` when it is far from every training patient's
    on the log scale (:func:`~sparge.data.far_values.far_mask`: a typo or another unit
    rather than a rare patient); ``limit`` when it was written as a limit (">1000": the
    lab's measuring range, neither a typo nor another unit)."""

    words: str
    source_unit: str | None = None
    converted: float | None = None
    far: bool = False
    limit: bool = False


def out_of_range(values, reference: pd.DataFrame, encoder: Encoder | None = None,
                 margin: float = OUT_OF_RANGE_MARGIN, ranges=None, far=None, slips=None,
                 by_age=None) -> dict[int, str]:
    """Words for the values of one new patient far outside the training patients' values,
    by the index of their column (those of :func:`questioned_values`)."""
    return {j: q.words for j, q in questioned_values(values, reference, encoder, margin,
                                                       ranges, far, slips=slips,
                                                       by_age=by_age).items()}


def questioned_values(values, reference: pd.DataFrame, encoder: Encoder | None = None,
                      margin: float = OUT_OF_RANGE_MARGIN, ranges=None, far=None,
                      written: Mapping[str, str] | None = None, slips=None,
                      by_age: tuple[dict[int, AgeTrend], int | None] | None = None
                      ) -> dict[int, Questioned]:
    """The values of one new patient far outside the training patients' values, by the
    index of their column, with words for each and the unit each was probably given in.

    A number more than ``margin`` times the training range below its minimum or above its
    maximum is named with that range, and so is a negative number in a column where no
    training patient has one (walk-through 18: an eGFR of -5 passed, within the slack
    below a minimum of 5); categories (chosen from the table) are never questioned. The
    look-alikes are still found from the value as given: this only asks the user to check
    it.

    Parameters
    ----------
    values : array-like of shape (m,)
        The patient's encoded features (``NaN`` = not given), in ``reference``'s columns.
    reference : DataFrame
        Training patients in original units (``SparGE.training_values``).
    encoder : Encoder, optional
        Its roles tell categories apart.
    ranges : tuple, optional
        :func:`training_ranges` of ``reference`` when already computed (a file of many
        patients).
    far : array-like of bool, shape (m,), optional
        The patient's values far from their column on the log scale
        (:func:`~sparge.data.far_values.far_mask` with ``reference``), when already
        computed: a value a factor of 10 or 100 below the training patients' lowest (a
        creatinine of 1.6 mg/dL typed in a µmol/L field, walk-through 23) lies within the
        linear margin of a column that starts near zero, and is questioned all the same.
    written : mapping, optional
        The patient's values written as a limit, by column
        (:func:`~sparge.services.display.limits_as_written`): such a value is named as
        written (">1000", read as 1000), with no unit guessed and not as far off: a limit
        is the lab's measuring range, not a typo (walk-through 25 saw ">1000" asked
        "a typo, or other units?" and offered in another unit).
    slips : tuple, optional
        The patient's row of :func:`unit_slip_table` when already computed (a file).
    by_age : tuple, optional
        The growth columns judged by age and the age column's index, of
        :func:`far_values_of`, when already computed (a file): a child's weight far from
        the training children's of its age is named with theirs (walk-through 50's 221
        kg at 5 years).

    A value that converts exactly from another unit into the training range is said to be
    perhaps in that unit (:func:`~sparge.data.unit_conversion.unit_guess`).
    """
    v = np.asarray(values, dtype=float).ravel()
    lows, highs, measured = ranges if ranges is not None else training_ranges(reference)
    if far is None or by_age is None:
        far_all, by_age = far_values_of(v[None, :], reference)
        far = far_all[0] if far is None else far
    trends, age = by_age
    if slips is None:
        slips = tuple(a[0] for a in unit_slip_table(v[None, :], reference, encoder))
    slipped, source, conv = slips
    out: dict[int, Questioned] = {}
    for j, col in enumerate(reference.columns):
        if not np.isfinite(v[j]) or not measured[j] or (
                encoder is not None and encoder.roles_.get(col) == "categorical"):
            continue
        lo, hi = float(lows[j]), float(highs[j])
        slack = margin * max(hi - lo, abs(hi) * 1e-9)
        negative = v[j] < 0 <= lo
        limit = (written or {}).get(str(col))
        # a limit the training patients' own cells write ("<0.1" read as 0.1): the lab's
        # measuring range, no value outside training (walk-through 90's TSH "<0.1" was
        # questioned, written so for 8 training patients and left out of the range as far)
        if limit:
            own = reference.iloc[:, j].to_numpy(dtype=float)
            # ... or within every training value, the far ones too ("<0.05" read as 0.05
            # beside a new "<0.1": walk-through 91)
            if np.isclose(own, v[j]).any() or np.nanmin(own) <= v[j] <= np.nanmax(own):
                continue
        # impossible in the column's unit, possible in another: a temperature of 38.9 in
        # a °F column whose training patients include 130 unconverted °C values
        # (walk-through 27), within their range
        slip = bool(slipped[j]) and not limit
        if v[j] < lo - slack or v[j] > hi + slack or negative or far[j] or slip:
            unit = _unit_of(col, encoder)
            # into where the patients of its age lie, when judged by age: 160 lb is
            # 72.6 kg, no 5-year-old's weight
            guess = (None if limit else (source[j], float(conv[j])) if slip
                     else unit_guess(col, unit, v[j], *_age_band(v, j, trends, age, lo, hi)))
            # "12,000", not "1.2e+04": read by a clinician at the bedside
            shown = (f"{plain_text(limit, 20)}, read as {format_given(v[j])}" if limit
                     else format_given(v[j]))
            words = (f"{plain_text(col, 80)} = {shown} ("
                     + ("negative, and no training patient's is; " if negative else "")
                     + f"training patients: {format_number(lo)} to {format_number(hi)}"
                     + _age_words(v, j, trends, age)
                     + (f"; in {plain_text(guess[0], 20)}? that would be "
                        f"{format_number(guess[1])} {plain_text(unit, 20)}" if guess else "")
                     + ")")
            out[j] = Questioned(words, *(guess or (None, None)),
                                far=(bool(far[j]) or slip) and not limit, limit=bool(limit))
    return out


def far_values_of(values, reference: pd.DataFrame
                  ) -> tuple[np.ndarray, tuple[dict[int, AgeTrend], int | None]]:
    """Which of new patients' values (n, m) are far from the training patients' on the log
    scale (:func:`~sparge.data.far_values.far_mask`) or from those of the training
    patients of the same age (:mod:`sparge.data.for_age`: a child's weight), and the
    columns judged by age with the age column's index."""
    X = np.asarray(values, dtype=float)
    ref = reference.to_numpy(dtype=float)
    aged, trends, age = far_for_age_table(X, ref, reference.columns)
    return far_mask(X, ref) | aged, (trends, age)


def _age_band(v: np.ndarray, j: int, trends: dict[int, AgeTrend], age: int | None,
              lo: float, hi: float) -> tuple[float, float]:
    """Where most training patients of a new patient's age lie in column ``j`` when it is
    judged by age and the age is known, else ``(lo, hi)``."""
    if j not in trends or age is None or not np.isfinite(v[age]):
        return lo, hi
    return typical_at(trends[j], float(v[age]))


def _age_words(v: np.ndarray, j: int, trends: dict[int, AgeTrend], age: int | None) -> str:
    """Where the training patients of a new patient's age lie in column ``j``, when the
    column is judged by age and the patient's age is known."""
    if j not in trends or age is None or not np.isfinite(v[age]):
        return ""
    lo, hi = _age_band(v, j, trends, age, np.nan, np.nan)
    return (f"; those of age {format_number(round(float(v[age]), 1))}: mostly "
            f"{format_number(lo)} to {format_number(hi)}")


def _unit_of(column: str, encoder: Encoder | None) -> str | None:
    """A column's unit: the encoder's (its name's, its cells', its values'), else its
    name's."""
    return (encoder.unit_of(column) if encoder is not None
            else header_unit(column, as_written=True))


def unit_slip_table(X: np.ndarray, reference: pd.DataFrame, encoder: Encoder | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~sparge.data.plausible.unit_slips` of patients ``X`` (n, m), in
    ``reference``'s columns, column by column (once for a file, not once per patient):
    ``(slipped, source unit, converted)``, each of shape (n, m). Categories are never
    slips."""
    X = np.asarray(X, dtype=float)
    slipped = np.zeros(X.shape, dtype=bool)
    source = np.full(X.shape, None, dtype=object)
    conv = np.full(X.shape, np.nan)
    for j, col in enumerate(reference.columns):
        if encoder is not None and encoder.roles_.get(col) == "categorical":
            continue
        if quantity_of(col) is None:  # no unit to slip into: no median to take
            continue
        # a new patient's bare 3.2 g of birth weight is 3.2 kg beside a cohort of
        # 2,800 g, not 3.2 lb beside the middle of what is possible (walk-through 32)
        typical = reference[col].to_numpy(dtype=float)
        # the training column's values not of its quantity in its units: nothing judged
        if not judged_column(col, _unit_of(col, encoder), typical):
            continue
        typical = typical[np.isfinite(typical) & (typical > 0)]
        slipped[:, j], source[:, j], conv[:, j] = unit_slips(
            col, _unit_of(col, encoder), X[:, j],
            middle=float(np.median(typical)) if typical.size else None)
        # ... and in a unit the training column's own cells write, far outside its values
        # ("480" among PTHs in pmol/L beside "283 pg/mL": re-check 106b)
        written = list(getattr(encoder, "unit_conversions_", {}).get(col, {})) \
            if encoder is not None else []
        more, unit, out = written_unit_slips(col, _unit_of(col, encoder), X[:, j],
                                             typical, written)
        more &= ~slipped[:, j]
        if more.any():
            slipped[more, j], source[more, j], conv[more, j] = True, unit, out[more]
    return slipped, source, conv


def questioned_message(questioned) -> str:
    """The New patient page's words for :func:`questioned_values`: a typo or another unit
    is asked about only when a value was not written as a limit (a limit is the lab's
    measuring range: ">1000" read as 1000)."""
    questioned = list(questioned)
    why = ("a typo, or other units?" if any(not q.limit for q in questioned) else
           "written as a limit, and read as the limit")
    return ("Please check these values, outside those of the patients the model learned "
            f"from ({why}): " + md_escape("; ".join(q.words for q in questioned), 1500)
            + ".")


def questioned_choice(questioned) -> str:
    """How the New patient page reads a patient's questioned values until the user says
    otherwise: ``"converted"`` when every one is impossible in its column's unit and has
    an exact conversion from another (walk-through 46: an FEV1/FVC of 0.63 among
    percentages was left out, where training had converted 306 such fractions);
    ``"left out"`` when one is far from every training patient's or could be another unit
    (walk-through 25: as given, platelets of 410,000 chose the look-alikes); else
    ``"given"`` (a rare value, or a limit)."""
    questioned = list(questioned)
    if questioned and all(q.converted is not None for q in questioned):
        return "converted"
    if any(q.far or q.converted is not None for q in questioned):
        return "left out"
    return "given"


def patients_to_check(X: pd.DataFrame, ids, reference: pd.DataFrame,
                      encoder: Encoder | None = None, atypical=None,
                      skip: int | None = None, ranges=None,
                      unread: list[list[str]] | None = None) -> list[str]:
    """Words for each patient of a several-patient file whose values need a look: values
    outside the training patients' (:func:`out_of_range_values`) or a patient unlike
    them (``atypical``: its :func:`sparge.services.typicality.atypicality` share, flagged
    from ``ATYPICAL_SHARE``). Walk-through 18's file held a systolic BP of 1,450, said only
    once that patient was picked.

    Parameters
    ----------
    X : DataFrame of shape (n, m)
        The file's patients, encoded in ``reference``'s columns.
    ids : sequence of str
        How each patient is named.
    reference : DataFrame
        Training patients in original units.
    encoder : Encoder, optional
    atypical : array-like of shape (n,), optional
    skip : int, optional
        A patient left out (the one whose look-alikes are shown, checked on its own).
    ranges : tuple, optional
        :func:`training_ranges` of ``reference`` when already computed.
    unread : list of list of str, optional
        :func:`unread_values` of the file: each patient's cells read as missing.
    """
    out = []
    values = X.to_numpy(dtype=float)
    if ranges is None:  # once for the file, not once per patient
        ranges = training_ranges(reference)
    far, by_age = far_values_of(values, reference)
    slips = unit_slip_table(values, reference, encoder)
    for i, row in enumerate(values):
        if i == skip:
            continue
        said = list(unread[i]) if unread is not None else []
        said += out_of_range(row, reference, encoder, ranges=ranges, far=far[i],
                             slips=tuple(a[i] for a in slips), by_age=by_age).values()
        if atypical is not None and np.isfinite(atypical[i]) and atypical[i] >= ATYPICAL_SHARE:
            said.append("unlike the training patients")
        if said:
            out.append(f"{plain_text(ids[i], 40)}: {'; '.join(said)}")
    return out


def unknown_answer_message(encoder: Encoder, unknown) -> str:
    """Words for a categorical column's answers that the model does not know: which
    answers, on which CSV lines, and the answers it accepts."""
    lines = unknown.rows
    where = (f" (CSV {csv_lines(lines)}" + (" …" if unknown.count > len(lines) else "")
             + ")") if lines else ""
    # one spelling per answer, as the form offers them ("Yes", not also "Y")
    known = list((answers_by_code(encoder, unknown.column) or {}).values())
    return (f"Column '{plain_text(unknown.column, 80)}': "
            f"{quoted_names(unknown.examples, width=40)}{where} is not one of its answers "
            "and was read as missing"
            + (f"; it accepts {quoted_names(known, width=30)}." if known else "."))


def _written_cells(encoder: Encoder, df: pd.DataFrame, col) -> tuple[pd.Series, np.ndarray]:
    """A file's column as stripped text, and which cells hold a value (written, and not a
    missing token of the column: "#N/A", "?")."""
    text = df[col].astype("string").fillna("").str.strip()
    written = (text != "") & ~text.map(norm_key).isin(encoder.table_.missing_keys(str(col)))
    return text, written.to_numpy()


def _synonym_of(cell: str, known: list[str], column: str) -> list[str]:
    """The known answer of ``column`` that ``cell`` is a synonym of (:data:`~sparge.data.
    levels.SYNONYMS`), as a one-item list, or ``[]``."""
    key = loose_key(norm_key(cell))
    for group in synonym_groups(column):
        if key in group:
            return [k for k in known if loose_key(norm_key(k)) in group][:1]
    return []


def unread_values(encoder: Encoder, df: pd.DataFrame, X: pd.DataFrame) -> list[list[str]]:
    """For every patient of a file, words for the cells the model could not read and set
    to missing: an answer it does not know, text in a numeric column. A cell is unread
    when it is written, is not a missing token of its column ("#N/A", "?"), and its
    encoded value is missing (walk-through 25's file-wide box repeated the melanoma
    patient's "IIIB" above every other patient's look-alikes).

    Parameters
    ----------
    encoder : fitted Encoder
    df : DataFrame
        The file's cells as read, by column.
    X : DataFrame
        The file's encoded values, by feature (NaN where missing), rows as ``df``'s.

    Returns
    -------
    list of list of str
        One list per patient, empty when every written cell was read.
    """
    out: list[list[str]] = [[] for _ in range(len(df))]
    cols = [c for c in X.columns if c in df.columns]
    # a cell can be unread only where it holds something and its value is missing: one
    # vectorised test first (the per-column text work took 1.4 s for a 4-patient file of
    # the 469-column sample, where every cell was read)
    cells = df[cols].to_numpy(dtype=object)
    maybe = pd.notna(cells) & np.isnan(X[cols].to_numpy(dtype=float))
    # blank cells are not written: a file's empty patient put every column through the
    # text work below (1.0-1.4 s a page run on the sample's 467 columns)
    rows, where = np.nonzero(maybe)
    blank = np.fromiter((str(v).strip() == "" for v in cells[rows, where]), bool, rows.size)
    maybe[rows[blank], where[blank]] = False
    for j in np.flatnonzero(maybe.any(axis=0)):
        col = cols[j]
        text, written = _written_cells(encoder, df, col)
        unread = written & np.isnan(X[col].to_numpy(dtype=float))
        # ... nor one read into its companion column: a dipstick's "++" beside the
        # ratios (walk-through 100's two-patient file said "'++': not a number")
        companion = f"{col}{DIPSTICK_SUFFIX}"
        if companion in X.columns:
            unread &= np.isnan(X[companion].to_numpy(dtype=float))
        if not unread.any():
            continue
        name = plain_text(col, 80)
        categorical = encoder.roles_.get(col) == "categorical"
        known = list((answers_by_code(encoder, col) or {}).values()) if categorical else []
        why = ("not one of its answers" + (
            f" (it accepts {quoted_names(known, width=30)})" if known else "")
            if categorical else "not a number")
        own = (getattr(encoder, "units_", {}).get(col) or header_unit(col, as_written=True)
               or getattr(encoder, "value_units_", {}).get(col))
        for i in np.flatnonzero(unread):
            cell = str(text.iloc[i])
            # a number in a unit the column cannot be converted from (walk-through 38:
            # "'45776 IU/mL': not a number" where the Data page said why)
            unit = written_unit(cell) if not categorical and own else None
            if unit is not None and unit_key(unit) != unit_key(own):
                out[i].append(f"'{name}' = '{plain_text(cell, 40)}': in "
                              f"'{plain_text(unit, 20)}', which has no exact "
                              f"conversion to the column's '{plain_text(own, 20)}', read as "
                              "missing")
                continue
            # a misspelt answer ("Pneumonai"), and a lab's word for a value beyond its
            # range ("HI"): walk-through 28 read both as plain unknowns
            near = difflib.get_close_matches(cell.lower(), [k.lower() for k in known], n=1,
                                             cutoff=0.75) \
                if categorical and len(cell) <= 60 else []
            # never a suggestion with other numbers: "Yes - 4 units" is no misspelt "Yes
            # - 2 units" (walk-through 43)
            # ... and the answer its synonyms name first: "PSP (Richardson)" for "PSP"
            near = _synonym_of(cell, known, col) or near
            near = [k for k in near if re.findall(r"\d+", k) == re.findall(r"\d+", cell)
                    # nor "?PSP" (a possible PSP) for "PSP" (walk-through 97)
                    and k.count("?") == cell.count("?")]
            hint = ("; did you mean '" + plain_text(
                next(k for k in known if k.lower() == near[0].lower()), 30) + "'?" if near else
                "; it may mean a value beyond the laboratory's range: write the value, or a "
                "limit such as '>600'" if not categorical and extreme_word(cell) else "")
            if not categorical and len(cell) <= 40 and \
                    read_dates(pd.Series([cell])).dates.notna().iloc[0]:
                # walk-through 43's date of birth in an age column
                hint = "; a date (of birth?): write the number the column holds"
            out[i].append(f"'{name}' = '{plain_text(cell, 40)}': {why}, read as missing"
                          + hint)
    return out


def used_columns(encoder: Encoder, df: pd.DataFrame) -> set[str]:
    """The names of ``df``'s columns the encoder reads: its features, ID and outcome, and
    the columns read apart or into others."""
    used = set(map(str, encoder.feature_names_out_)) | {
        str(c) for c in (encoder.id_column, encoder.label_column) if c is not None}
    # a column read apart ("BP on arrival" as its systolic and diastolic) or dates an age
    # is computed from: walk-through 39 read "'BP on arrival' (not a column of the table
    # the model was trained on)" above the diastolic it had read from it
    ages = getattr(encoder, "ages_", None) or {}
    columns = {str(c) for c in df.columns}
    used |= {str(v.get(k)) for v in ages.values() for k in ("born", "at")} & columns
    # ... or dates of birth in a column of ages are read at (walk-through 59)
    used |= set(df.attrs.get("sparge_age_dates_from", [])) & columns
    # a list of answers read as one yes/no column per answer (walk-through 41's
    # "Allergies: egg, peanut" was "not a column of the table the model was trained on")
    used |= {str(c) for c in getattr(encoder, "answer_lists_", {})} & columns
    rest = columns - used
    if rest:  # the file's other columns: read apart? (a file of the model's own columns
        # is not split again: 0.35 s of a 469-column patient's look-alikes)
        used |= rest - {str(c) for c in split_cells(df, fitted=encoder.input_columns_).columns}
    return used


def unused_columns_message(encoder: Encoder, df: pd.DataFrame) -> str | None:
    """Words for a file's columns that hold values the model does not use: left out when
    it was trained (free text, a leak, a column set aside), or not in its training table.
    Walk-through 37's new patient gave viral load, CD4 and adherence, and the page said
    "14 of 15 biomarkers given" without a word that three were not read."""
    used = used_columns(encoder, df)
    left, unknown = [], []
    for col in df.columns:
        name = str(col)
        if name in used:
            continue
        if not _written_cells(encoder, df, col)[1].any():
            continue
        (left if name in encoder.roles_ else unknown).append(name)
    if not left and not unknown:
        return None
    parts = []
    if left:
        parts.append(f"{quoted_names(left, width=40)} (left out of the model when it was "
                     "trained: the Data page's report says why)")
    if unknown:
        parts.append(f"{quoted_names(unknown, width=40)} (not a column of the table the "
                     "model was trained on)")
    return "Values not used by the model, so not read: " + "; ".join(parts) + "."


def encode_new_patients(model: SparGE, encoder: Encoder, df: pd.DataFrame, *,
                        split: bool = False, by_row: bool = False):
    """Encode new patients with a trained model's encoder; returns features and messages.

    The report comes back from ``encoder.transform_with_report``: nothing is written on the
    encoder, so one fitted encoder can serve every session at once.

    Returns
    -------
    X : DataFrame
    messages : list of str
        What needs the user's eye first (values read as missing because the model does
        not know them), then warnings and notes. With ``split``, two lists: those values,
        and the rest. With ``by_row`` too, the first list leaves out the answers and text
        the model could not read, which :func:`unread_values` gives patient by patient.
    """
    X, rep = encoder.transform_with_report(df)
    # what needs the user's eye first (a walk-through's 'abc' came 12th of 16, after
    # routine notes), then warnings and notes
    problems = [] if by_row else [unknown_answer_message(encoder, u)
                                  for u in rep.unknown_values]
    problems += [] if by_row else [f"Column '{plain_text(s.column, 80)}': "
                                   f"{quoted_names(s.examples, width=30)} — {s.hint}"
                                   for s in rep.stray_text]
    unused = unused_columns_message(encoder, df)
    msgs = ([unused] if unused else []) + list(rep.warnings) + list(rep.notes)
    # one line per gap word, naming its columns (a patient with 16 gaps had 16 lines)
    by_token: dict[str, list[str]] = {}
    for col, toks in rep.missing_tokens.items():
        for tok in toks:
            by_token.setdefault(str(tok), []).append(plain_text(col, 60))
    for tok, cols in by_token.items():
        shown = ", ".join(f"'{c}'" for c in cols[:12])
        more = f" … (+{len(cols) - 12})" if len(cols) > 12 else ""
        msgs.append(f"Read as missing ('{plain_text(tok, 30)}'): {shown}{more}.")
    empty = np.isnan(X).all(axis=1)
    if empty.any() and not empty.all():
        # one empty row of a file stopped every patient of it (a re-check's fourth
        # patient held only a note); it is named, and the others are matched
        rows = [int(i) + 2 for i in np.flatnonzero(empty)]
        # named by their IDs too, as the picker names them (walk-through 23)
        ids = (encoder.ids(df).astype(str)[empty] if encoder.id_column is not None
               and encoder.id_column in df.columns else None)
        who = f" ({quoted_names(list(ids[:10]), width=30)})" if ids is not None else ""
        problems.append(f"CSV {csv_lines(rows[:10])}{' …' if len(rows) > 10 else ''}{who}: "
                        "no value the model knows, so no look-alikes for "
                        f"{'this patient' if len(rows) == 1 else 'these patients'}.")
    elif empty.all():
        names = [str(f) for f in encoder.feature_names_out_]
        id_given = encoder.id_column is not None and encoder.id_column in df.columns
        if len(rep.absent_columns) == len(names) and not id_given:
            # another table's file (the encoder matched none of the model's columns): say
            # what this model reads, not only that nothing matched
            shown = ", ".join(f"'{plain_text(f, 40)}'" for f in names[:6])
            more = f" … ({len(names)} in all)" if len(names) > 6 else ""
            raise DataError(f"None of this file's columns is one the model was trained on "
                            f"(it reads {shown}{more}). Is the file from another table, or "
                            "the model trained on another one?")
        raise DataError(("Patient row 1 has no value" if len(df) == 1 else
                         "No patient of the file has a value") + " the model knows; fill in "
                        "at least one biomarker.")
    out = pd.DataFrame(X, columns=encoder.feature_names_out_)
    return (out, problems, msgs) if split else (out, problems + msgs)
