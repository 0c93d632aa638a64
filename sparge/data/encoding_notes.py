"""The encoding report's words: the notes and warnings :class:`~sparge.data.encoder.Encoder`
writes about inferred levels, far values, mixed units, columns left out, patients left out
and rows written twice (pure functions of what the encoder found)."""

from __future__ import annotations

import re
from collections.abc import Collection

import numpy as np
import pandas as pd

from sparge.data.age_dates import event_date_column
from sparge.data.column_guess import copied_rows, id_text, row_hashes
from sparge.data.column_kinds import later_measurement_of, looks_like_dates
from sparge.data.dates import read_dates
from sparge.data.number_format import format_number
from sparge.data.parsing import (
    ColumnUnits,
    cell_text,
    unit_key,
)
from sparge.data.report import (
    ValidationReport,
)
from sparge.data.safe_text import quote as _q
from sparge.data.safe_text import quoted_names
from sparge.data.unit_conversion import (
    UnitPlan,
    no_fixed_factor,
)


def warn_copied_rows(df: pd.DataFrame, report: ValidationReport,
                     left_out: bool = False) -> np.ndarray:
    """Warn of rows that repeat an earlier row in every column: each copy counts as a
    patient in training and is the other's look-alike at similarity 1.00 (walk-through
    26's row written twice, ONC-10399, was its own first look-alike); not when they are
    ``left_out`` of training (the encoder's note says so). Returns the copies (a mask of
    rows)."""
    copies = copied_rows(df)
    n = int(copies.sum())
    if not n or left_out:
        return copies
    rows = row_hashes(df)
    first = int(np.flatnonzero(copies)[0])
    twin = int(np.flatnonzero(rows == rows[first])[0])
    report.warnings.append(
        f"{n:,} {'rows repeat' if n != 1 else 'row repeats'} an earlier row in every column "
        f"(e.g. CSV "
        f"lines {twin + 2} and {first + 2}): each copy counts as a patient in training and "
        "is the other's look-alike, at similarity 1.00. If they are one record, leave the "
        "copies out of training (the Data page's 'Leave the copied rows out of "
        "training'; in the library, Encoder(leave_out_copies=True)) or delete them from "
        "the file.")
    return copies


def warn_same_patient_rows(df: pd.DataFrame, X: np.ndarray, id_like: str | None,
                           copies: np.ndarray, report: ValidationReport,
                           used: Collection[str] | None = None,
                           outcome: str | None = None) -> None:
    """Warn of rows of one patient ID that repeat an earlier row of that ID in every
    feature the model uses, though not in every column (:func:`warn_copied_rows` names
    those): walk-through 29's three records differed only in a review date the model
    leaves out, and each was the other's look-alike at distance 0.

    Parameters
    ----------
    df : the table, its columns as read.
    X : its encoded features (NaN = missing), one row per row of ``df``.
    id_like : the column named like a patient identifier (the ID column or not), or
        ``None``: without one, two patients alike in every feature are no copy.
    copies : the exact copies already named.
    used : the columns the model reads, or ``None`` (every column that differs is said
        to be left out). A column it reads differs only in how a value is written
        ("35" and "35 (on)": walk-through 97's note called the score left out).
    outcome : the outcome's column, if any (two visits with different outcomes).
    """
    if id_like is None or id_like not in df.columns or not len(X) or not X.shape[1]:
        return
    ids = df[id_like].astype(str).str.strip().to_numpy()
    keys = pd.util.hash_pandas_object(
        pd.DataFrame(np.nan_to_num(X, nan=np.inf)).assign(_id=ids), index=False).to_numpy()
    again = pd.Series(keys).duplicated(keep="first").to_numpy() & ~copies
    again &= ids != ""
    n = int(again.sum())
    if not n:
        return
    first = int(np.flatnonzero(again)[0])
    twin = int(np.flatnonzero(keys == keys[first])[0])
    differ = [str(c) for c in df.columns
              if str(df[c].iloc[first]) != str(df[c].iloc[twin])]
    used = set(map(str, used)) if used is not None else set()

    def kind(c: str) -> str:
        return ("the outcome" if c == outcome else "written another way for the same "
                "value" if c in used else "left out of the model")

    said = []
    for why in ("left out of the model", "written another way for the same value",
                "the outcome"):
        cs = [c for c in differ if kind(c) == why]
        if cs:
            said.append(", ".join(f"'{_q(c, 40)}'" for c in cs[:3])
                        + (" …" if len(cs) > 3 else "") + f", {why}")
    report.warnings.append(
        f"{n:,} more {'rows repeat' if n != 1 else 'row repeats'} an earlier row of the "
        f"same '{_q(id_like, 40)}' in every feature the model uses (e.g. CSV lines "
        f"{twin + 2} and {first + 2}, which differ only in {'; and in '.join(said)}): "
        "each is the other's look-alike at similarity 1.00. Delete the copies from the "
        "file if they are one record.")



#: Values a row must have for its repeat under another ID to be named: two patients
#: alike in a handful of features may be two patients.
MIN_REPEATED_VALUES = 8


def warn_rows_under_another_id(df: pd.DataFrame, X: np.ndarray, id_like: str | None,
                               copies: np.ndarray, report: ValidationReport) -> None:
    """Warn of rows that repeat an earlier row in every feature the model uses, with at
    least :data:`MIN_REPEATED_VALUES` values, under another ID: walk-through 58's
    admission re-entered under a new admission ID was its original's first look-alike,
    at similarity 1.00, unsaid (:func:`warn_copied_rows` and
    :func:`warn_same_patient_rows` name the copies of one ID). ``id_like`` as there."""
    if id_like is None or id_like not in df.columns or not len(X) or not X.shape[1]:
        return
    ids = df[id_like].astype(str).str.strip().to_numpy()
    keys = pd.util.hash_pandas_object(pd.DataFrame(np.nan_to_num(X, nan=np.inf)),
                                      index=False).to_numpy()
    full = np.isfinite(X).sum(axis=1) >= MIN_REPEATED_VALUES
    seen: dict[int, int] = {}
    pairs = []
    for i in np.flatnonzero(full & ~copies):
        j = seen.setdefault(int(keys[i]), int(i))
        if j != i and ids[j] != ids[i]:
            pairs.append((j, int(i)))
    if not pairs:
        return
    j, i = pairs[0]
    n = len(pairs)
    report.warnings.append(
        f"{n:,} {'rows repeat' if n != 1 else 'row repeats'} an earlier row in every "
        f"feature the model uses under another '{_q(id_like, 40)}' (e.g. CSV lines {j + 2} "
        f"and {i + 2}, '{_q(ids[j], 30)}' and '{_q(ids[i], 30)}'): each is the other's "
        "look-alike at similarity 1.00. If one patient was entered twice, delete the copy "
        "from the file.")


def inferred_note(inferred: dict[str, list[tuple[str, str]]]) -> str:
    """One note for the categorical columns whose levels were inferred (not one per column).

    ``inferred`` maps "yes/no", "scale", "two" and "other" to ``(column, levels shown)``
    pairs: yes/no columns, columns on a recognised scale, other two-level columns (order
    irrelevant), and the others (coded in natural order, which is no clinical order).
    """
    names = [_q(name) for group in inferred.values() for name, _ in group]
    if not names:
        return ""

    def some(items: list[tuple[str, str]], k: int, detail: bool) -> str:
        shown = [f"'{_q(name)}'" + (f" ({how})" if detail and how else "")
                 for name, how in items]
        return ", ".join(shown[:k]) + (f" … (+{len(shown) - k})" if len(shown) > k else "")

    parts = []
    if inferred["yes/no"]:
        parts.append("yes/no, coded Yes 1, No 2, Unknown 0 as in the paper's table (other "
                     "answers from 3): " + some(inferred["yes/no"], 8, True))
    if inferred["scale"]:
        parts.append("in the order of a recognised scale: " + some(inferred["scale"], 5, True))
    if inferred["two"]:
        parts.append("two levels, whose order does not matter: "
                     + some(inferred["two"], 6, True))
    if inferred["other"]:
        parts.append("coded 1, 2, 3 … in natural (alphabetical or numeric) order, which "
                     "need not be a clinical order: " + some(inferred["other"], 4, True))
    # "fits": a column named like a table entry whose answers are not its own is listed
    # too (walk-through 20 read "not those of the built-in table" and "no entry" as a
    # contradiction)
    head = (f"column '{names[0]}': no encoding table entry fits it; its levels were inferred"
            if len(names) == 1 else f"{len(names)} categorical columns: no encoding table "
                                    "entry fits them; their levels were inferred")
    return head + " (editable on the Encoding table tab): " + "; ".join(parts) + "."


#: The far values' warning ends so; with them set to missing (``encode_cohort``'s
#: ``clear_far``) a page says :data:`FAR_VALUES_CLEARED` instead.
FAR_VALUES_ADVICE = "used as given (correct the file, or set them to missing)"
FAR_VALUES_CLEARED = ("set to missing for training, or converted where at least 3 of a "
                      "column's fit one probable unit (the model completes the missing ones "
                      "like any gap; the table itself is unchanged)")
#: ... and by default (the Encoder's ``convert_slips``), with some converted.
FAR_VALUES_CONVERTED = ("converted for training where at least 3 of a column's fit one "
                        "probable unit (the table itself is unchanged), any not converted "
                        "used as given (correct the file, or set them to missing)")


#: ... with those impossible in their unit or scale set to missing (walk-through 77).
FAR_VALUES_IMPOSSIBLE = ("those no patient can have (impossible in their unit or scale) set "
                         "to missing for training")
_UNCHANGED = "the table itself is unchanged"
_OTHERS_GIVEN = "any other used as given (correct the file, or set them to missing)"


def far_values_default(values_to_check: list, impossible: int = 0) -> str:
    """What the Encoder does by default (``convert_slips``) with the values to check, for
    the report's warning: those in a probable other unit converted, those impossible in
    their unit or scale (``impossible`` of them, ``report_.impossible``) set to missing,
    the others used as given."""
    conv, rest = _far_counts(values_to_check)
    rest -= impossible
    if not conv and not impossible:
        return FAR_VALUES_ADVICE
    if conv and not impossible:
        return FAR_VALUES_CONVERTED
    done = ((f"converted for training where at least 3 of a column's fit one probable "
             f"unit, {FAR_VALUES_IMPOSSIBLE}") if conv else FAR_VALUES_IMPOSSIBLE)
    return f"{done} ({_UNCHANGED})" + (f", {_OTHERS_GIVEN}" if rest > 0 else "")


def far_treatments(values_to_check: list, impossible: list, clear_far: bool,
                   convert_slips: bool) -> list[str]:
    """What training does with each value to check (``[feature, row, value, unit,
    converted]``, as ``report_.values_to_check`` lists them): "converted", "set to
    missing" or "used as given", by the Encoder's ``clear_far`` and ``convert_slips``
    (:meth:`~sparge.data.encoder.Encoder._cleared`); ``impossible``: ``[feature, row]`` of
    those no patient can have (``report_.impossible``)."""
    never = {(f, int(r)) for f, r in impossible}
    out = []
    for feature, row, _, _, converted in values_to_check:
        if (clear_far or convert_slips) and converted is not None:
            out.append("converted")
        elif clear_far or (convert_slips and (feature, int(row)) in never):
            out.append("set to missing")
        else:
            out.append("used as given")
    return out


def treatment_words(treatments: list[str]) -> str:
    """One part of the far-values warning's treatment: "set to missing", or "1 set to
    missing, 2 used as given" when its values are not treated alike."""
    kinds = list(dict.fromkeys(treatments))
    if len(kinds) == 1:
        return kinds[0]
    return ", ".join(f"{treatments.count(k):,} {k}" for k in kinds)


def _far_counts(values_to_check: list) -> tuple[int, int]:
    """How many far values are converted from a probable other unit, and how many not."""
    conv = sum(v[4] is not None for v in values_to_check)
    return conv, len(values_to_check) - conv


def far_values_done(values_to_check: list) -> str:
    """What the far-values button did, for its success message: "2 values set to
    missing and 25 converted from a probable other unit"."""
    conv, rest = _far_counts(values_to_check)
    words = []
    if rest:
        words.append(f"{rest:,} value{'s' if rest != 1 else ''} set to missing")
    if conv:
        words.append(f"{conv:,} converted from a probable other unit")
    text = " and ".join(words)
    return text[0].upper() + text[1:]


def far_values_button(values_to_check: list, cleared: bool, converted: bool = False,
                      impossible: int = 0) -> str:
    """The Data page's button for the far values (``report_.values_to_check``): what a
    click does, converting those written in a probable other unit and setting the
    others to missing (or, once done, using them all as given). ``converted``: those in
    a probable other unit are converted already, and the ``impossible`` ones
    (``report_.impossible``) set to missing (the Encoder's ``convert_slips``): the click
    sets the others to missing, or, without others, uses them as given."""
    n = len(values_to_check)
    conv, rest = _far_counts(values_to_check)
    imp = impossible if converted else 0
    rest -= imp
    kept = _kept_words(conv, imp)
    if cleared and converted and (conv or imp):
        # the conversions stay: the click undoes only what it did (walk-through 72's
        # "Use the 83 far values as given" undid 78 good g/dL and mg/dL conversions too)
        return (f"Use the {rest:,} value{'s' if rest != 1 else ''} set to missing as given "
                f"({kept})")
    if cleared:
        return f"Use the {n:,} far value{'s' if n != 1 else ''} as given"
    if converted and (conv or imp):
        if not rest:
            both = conv + imp
            if not imp:  # walk-through 97 read "Use the 3 values converted … as given"
                # as keeping the conversions, which the click undoes
                return (f"Undo the {conv:,} conversion{'s' if conv != 1 else ''} from a "
                        "probable other unit (use the values as written)")
            what = ("impossible in their unit or scale" if not conv else
                    "converted or impossible")
            return f"Use the {both:,} value{'s' if both != 1 else ''} {what} as given"
        return (f"Set the other {rest:,} far value{'s' if rest != 1 else ''} to missing "
                "for training")
    words = []
    if conv:
        words.append(f"convert the {conv:,} in a probable other unit")
    if rest:
        words.append(f"set {'the other ' if conv else ''}{rest:,} "
                     f"{'value' if rest == 1 else 'values'} to missing")
    text = " and ".join(words) + " for training"
    return text[0].upper() + text[1:]


def _kept_words(conv: int, imp: int) -> str:
    """"the 3 converted stay converted, the 2 impossible missing"."""
    words = []
    if conv:
        words.append(f"the {conv:,} converted stay converted")
    if imp:
        words.append(f"the {imp:,} impossible stay missing")
    return ", ".join(words)


def far_values_click(values_to_check: list, cleared: bool, converted: bool,
                     impossible: int = 0) -> tuple[str, dict[str, bool], str]:
    """The Data page's far-values button: its label (:func:`far_values_button`), the
    encoder's settings a click sets (``clear_far``, ``convert_slips``), and what it says
    it did."""
    label = far_values_button(values_to_check, cleared, converted, impossible)
    conv, rest = _far_counts(values_to_check)
    imp = impossible if converted else 0
    rest -= imp
    if cleared and converted and (conv or imp):
        return label, {"clear_far": False}, "Values set to missing used as given"
    if cleared:
        return label, {"clear_far": False, "convert_slips": False}, "Values used as given"
    if converted and (conv or imp) and not rest:
        return label, {"convert_slips": False}, (
            "Converted values used as given" if not imp else "Values used as given")
    done = (f"{rest:,} value{'s' if rest != 1 else ''} set to missing"
            if converted and (conv or imp) else far_values_done(values_to_check))
    return label, {"clear_far": True, "convert_slips": True}, done


def report_left_out(reasons: dict[str, list[str]], max_levels: int,
                     report: ValidationReport, all_columns=(), aged: bool = False,
                     has_age: bool = False) -> None:
    """Say which columns were left out by default, and why (a follow-up time: a warning);
    ``all_columns``: the table's, which a later measurement is named beside; ``aged``: an
    age was computed from a date of birth (walk-through 79's note offered to add the age
    the table had been given by default); ``has_age``: the table has an age column (the
    Data page offers none)."""
    def verb(cols: list[str], one: str, many: str) -> str:
        return one if len(cols) == 1 else many

    if "follow-up" in reasons:
        report.warnings.append(
            f"Left out of the model: {quoted_names(reasons['follow-up'])}, named like a follow-up, "
            "time-to-event or length-of-stay column. It is known only after the outcome "
            "and gives it away (patients who died were followed for less time; a stay's "
            "length depends on how it ended). Give it the role 'numeric' "
            "on the Column roles tab only if it is known when you look for look-alikes.")
    if "other outcome" in reasons:
        cols = reasons["other outcome"]
        report.warnings.append(
            f"Left out of the model: {quoted_names(cols)}, named like an outcome that "
            "happens later (a readmission, a death, a relapse, what follows an operation) "
            "beside the outcome chosen. It is known only after the look-alikes are sought "
            "and can give the outcome away. Give it a role on the Column roles tab only if "
            "it is known when you look for look-alikes, or choose it as the outcome.")
    if "later measurement" in reasons:
        cols = reasons["later measurement"]
        report.warnings.append(
            "Left out of the model: "
            + ", ".join(f"'{_q(c, 40)}' (a later measurement of "
                        f"'{_q(later_measurement_of(c, all_columns) or '', 40)}')"
                        for c in cols[:4])
            + (f" and {len(cols) - 4} more" if len(cols) > 4 else "")
            + f", named as a review or follow-up after the first visit. "
            f"{verb(cols, 'It is', 'They are')} known only later, and can give the "
            "outcome away. Give " + verb(cols, "it", "them") + " the role 'numeric' on the "
            "Column roles tab only if known when you look for look-alikes.")
    if "unit column" in reasons:
        cols = reasons["unit column"]
        report.notes.append(
            f"Left out of the model: {quoted_names(cols)}, which "
            f"{verb(cols, 'gives', 'give')} another column's unit patient by patient: that "
            "column's numbers are read in their own patient's unit instead (the note on "
            "reading the cells says which). Give it a role on the Column roles tab to use "
            "it as a feature.")
    if "staff" in reasons:
        cols = reasons["staff"]
        report.notes.append(
            f"Left out of the model: {quoted_names(cols)}, which "
            f"{verb(cols, 'names', 'name')} the member of staff a patient is with: patients "
            "who share one are not alike for it. Give it a role on the Column roles tab to "
            "use it.")
    if "site" in reasons:
        cols = reasons["site"]
        report.notes.append(
            f"Left out of the model: {quoted_names(cols)}, which "
            f"{verb(cols, 'names', 'name')} the practice or site a patient is registered or "
            "seen at: patients of one practice are not alike for it. Give it a role on the "
            "Column roles tab to use it.")
    if "identifier" in reasons:
        cols = reasons["identifier"]
        report.notes.append(
            f"Left out of the model: {quoted_names(cols)}, named like a patient identifier: "
            f"{verb(cols, 'its', 'their')} values number records and measure nothing. Choose "
            f"{verb(cols, 'it', 'one')} as the ID column (once every patient has their own), "
            "or give it a role on the Column roles tab.")
    if "dates" in reasons:
        cols = reasons["dates"]
        report.notes.append(
            f"Left out of the model: {quoted_names(cols)}, which {verb(cols, 'holds', 'hold')} "
            "dates. A date is not a biomarker: "
            + ("the age computed from the date of birth is one (its note says how); "
               if aged else "the table's age is in the model; " if has_age else
               "an age can be computed from a date of birth (the Data page's 'Add an age "
               "from a date of birth', the Encoder's ages); ")
            + "turn another date into a duration first if it matters.")
    if "free text" in reasons:
        cols = reasons["free text"]
        report.notes.append(
            f"Left out of the model: {quoted_names(cols)}, which {verb(cols, 'looks', 'look')} "
            "like free text (notes or sentences). Coded as categories they would be "
            "numbered in an arbitrary order.")
    if "levels" in reasons:
        report.notes.append(
            f"Left out of the model: {quoted_names(reasons['levels'])}, with more than "
            f"{max_levels} different text answers (free text or identifiers).")


def conversion_note(col: str, plan: UnitPlan) -> str | None:
    """The report's words for a column read in one unit after converting its other units
    (:func:`~sparge.data.unit_conversion.plan_units`); ``None`` when there is nothing to
    say beyond the warning on the cells left out."""
    parts = list(plan.notes)
    split = plan.plain_split
    if split is not None:  # "6.3" beside "58mm" and "5.4cm": in cm
        parts.append(f"its plain numbers from {format_number(split.low)} to "
                     f"{format_number(split.high)} are read as '{_q(split.unit, 20)}', "
                     "among its cells written in it and far from its others")
    if plan.plain_as:
        parts.append(f"its {'other ' if split else ''}plain numbers are read as "
                     f"'{_q(plan.plain_as, 20)}', the unit in which its cells written with "
                     "a unit, once converted, lie among them")
    if not parts:
        return None
    return (f"Column '{_q(col)}' is read in '{_q(plan.target, 20)}': " + "; ".join(parts)
            + "." + (" A new patient's value is read the same way, in either unit."
                     if plan.converted else ""))


def unconverted_message(col: str, plan: UnitPlan, units: ColumnUnits) -> str:
    """The report's words for a column read in its plain numbers' unit whose cells in
    another unit cannot be converted (set to missing)."""
    left = [units.written[k] for k in plan.left if k in units.written]
    shown = " and ".join(
        f"'{_q(u.shown, 20)}' ({u.count} cell(s), CSV line(s) "
        + ", ".join(str(r + 2) for r in u.rows[:3]) + (" …" if u.count > 3 else "")
        + f"; e.g. '{_q(u.examples[0], 30)}')" for u in left)
    why = no_fixed_factor(col)
    why = (f": {why}" if why else
           f": no exact conversion to '{_q(plan.target, 20)}' is known for them")
    if plan.by_majority:
        kept = units.written.get(unit_key(plan.target))
        others = " or ".join("'" + _q(u.shown, 20) + "'" for u in left)
        return (f"Column '{_q(col)}' mixes units: it is read in '{_q(plan.target, 20)}', the "
                f"unit of most of its cells ({kept.count if kept else 0}), and its cells in "
                f"{shown} were set to missing{why}. A new patient's value in "
                f"{others} is set to missing too. "
                f"Give the column in '{_q(plan.target, 20)}' for every patient (a new "
                "measurement) and load the file again to keep them.")
    return (f"Column '{_q(col)}' mixes units: it is read in '{_q(plan.target, 20)}', the "
            f"unit of its plain numbers, and its cells in {shown} were set to missing{why}. "
            "Convert them and load the file again to keep them.")


def mixed_units_message(col: str, units: ColumnUnits, left_out: bool) -> str:
    """The report's words for a column written in two units or more: which units, how
    many cells in each and their first CSV lines, and what was done."""
    parts = []
    header_key = units.keys[0] if units.header else None
    if units.header:
        parts.append(f"'{_q(units.header, 20)}' (its name's unit)")
    for key, u in units.written.items():
        if key == header_key:
            continue
        lines = ", ".join(str(r + 2) for r in u.rows[:3]) + (" …" if u.count > 3 else "")
        parts.append(f"'{_q(u.shown, 20)}' ({u.count} cell(s), CSV line(s) {lines}; e.g. "
                     f"'{_q(u.examples[0], 30)}')")
    head = (f"column '{_q(col)}' mixes units: " + ", ".join(parts[:-1]) + " and " + parts[-1]
            + ". Numbers in different units cannot be compared")
    if left_out:
        plain = (" (or give it the role 'numeric' on the Column roles tab to keep only its "
                 f"{units.n_numbers} plain number(s))" if units.n_numbers else "")
        return ("Left out of the model: " + head + ", so none of its units was read. Convert "
                f"the column to one unit and load the file again{plain}.")
    head = "C" + head[1:]
    if units.header:
        others = [f"'{_q(u.shown, 20)}'" for k, u in units.written.items() if k != header_key]
        return (head + f": only numbers in '{_q(units.header, 20)}' were read, the cells in "
                f"{' and '.join(others)} were set to missing. Convert them to "
                f"'{_q(units.header, 20)}' and load the file again.")
    return (head + ", so none of its units was read: the cells written with a unit were set "
            "to missing. Convert the column to one unit and load the file again.")


def threshold_to_keep(missing: np.ndarray) -> str:
    """What threshold (%) would keep the patients left out, as a sentence.

    ``missing`` holds their missing fractions. The slider's threshold is a whole percent
    and keeps a patient missing at most that share, so the smallest one keeping them all
    is the largest share rounded up. Above half of a patient's values, the model would
    learn more from the completion than from the patient: then the share kept at 50 %.
    """
    pct = 100 * np.asarray(missing, dtype=float)
    need = int(np.ceil(pct.max() - 1e-9))
    if need <= 50:
        return (f" A threshold of {need}% keeps them all (the model completes their "
                "gaps).")
    kept = int((pct <= 50 + 1e-9).sum())
    if kept == 0:
        return " Every one of them misses more than half of their values."
    return f" A threshold of 50% keeps {kept} of them; the others miss more than half."


def outcome_shift(labels: np.ndarray, keep: np.ndarray) -> str:
    """A sentence when the patients left out have another outcome mix than those kept.

    ``labels`` hold every patient's outcome (``None`` where missing), ``keep`` the patients
    kept. The outcome whose share differs most is named when the difference is at least 5
    percentage points and twice its standard error (two proportions, pooled): a walk-through
    left 207 of 617 infants out, 22 % of whom died against 15 % of those kept, and the
    report did not say that the model would learn from a cohort with fewer deaths.
    """
    known = np.asarray([v is not None for v in labels])
    out, kept = known & ~keep, known & keep
    if out.sum() < 10 or kept.sum() < 10:
        return ""
    lab = np.asarray([str(v) for v in labels], dtype=object)
    best, best_z = None, (0.0, 0.0)
    for level in sorted(set(lab[known])):
        p_out, p_kept = np.mean(lab[out] == level), np.mean(lab[kept] == level)
        pooled = np.mean(lab[known] == level)
        se = np.sqrt(pooled * (1 - pooled) * (1 / out.sum() + 1 / kept.sum()))
        z = abs(p_out - p_kept) / se if se > 0 else 0.0
        # a binary outcome's two levels tie: the rarer one is named (the one of interest)
        rank = (round(z, 9), -pooled)
        if abs(p_out - p_kept) >= 0.05 and z >= 2 and (best is None or rank > best_z):
            best, best_z = (level, p_out, p_kept), rank
    if best is None:
        return ""
    level, p_out, p_kept = best
    fewer = "fewer" if p_out > p_kept else "more"
    return (f" They differ in outcome: {_q(level, 40)!r} is {100 * p_out:.0f}% of them against "
            f"{100 * p_kept:.0f}% of the patients kept, so the model would learn from a "
            f"cohort with {fewer} {_q(level, 40)!r} than yours.")


#: :func:`feature_shift`: the fewest values in each group, and the smallest difference of
#: medians, in standard deviations of the patients kept, that is named.
SHIFT_MIN_VALUES = 10
SHIFT_MIN_SD = 0.8
#: ... and the chance of naming a difference between patients left out at random.
SHIFT_ALPHA = 0.01


def feature_shift(X: np.ndarray, keep: np.ndarray, names: list[str],
                  numeric: np.ndarray) -> str:
    """A sentence when the patients left out differ from those kept in one measure.

    ``X`` is the encoded table, ``keep`` the patients kept, ``numeric`` which columns are
    numbers. The numeric column whose medians differ most, in standard deviations of the
    patients kept, is named when they differ by at least :data:`SHIFT_MIN_SD` with at
    least :data:`SHIFT_MIN_VALUES` values in each group, and a rank test (Mann-Whitney,
    Bonferroni over the columns) puts the difference beyond chance (:data:`SHIFT_ALPHA`).
    Walk-through 47's frailty clinic left out most of its frailest patients (those
    "unable" to walk have no gait speed): the report said how many, not that they were
    the frailest.
    """
    from scipy.stats import mannwhitneyu

    out, kept = ~keep, keep
    if out.sum() < SHIFT_MIN_VALUES or kept.sum() < SHIFT_MIN_VALUES:
        return ""
    best = None
    columns = np.flatnonzero(numeric)
    for j in columns:
        a, b = X[out, j], X[kept, j]
        a, b = a[np.isfinite(a)], b[np.isfinite(b)]
        if len(a) < SHIFT_MIN_VALUES or len(b) < SHIFT_MIN_VALUES:
            continue
        sd = float(np.std(b))
        if not sd > 0:
            continue
        d = (float(np.median(a)) - float(np.median(b))) / sd
        if abs(d) < SHIFT_MIN_SD or (best is not None and abs(d) <= abs(best[1])):
            continue
        # not by chance: a rank test, Bonferroni over the columns (20 of 50 random
        # patients differed by 0.9 SD in one of 10 columns)
        if mannwhitneyu(a, b).pvalue < SHIFT_ALPHA / len(columns):
            best = (j, d, float(np.median(a)), float(np.median(b)))
    if best is None:
        return ""
    j, d, m_out, m_kept = best
    return (f" They differ most in {_q(names[j], 60)!r}: median {format_number(m_out)} "
            f"against {format_number(m_kept)} of the patients kept, so the model would "
            "learn from fewer patients like them.")


#: :func:`answer_shift`: the smallest difference of shares that is named.
SHIFT_MIN_SHARE = 0.1


def answer_shift(X: np.ndarray, keep: np.ndarray, names: list[str],
                 categorical: np.ndarray, label) -> str:
    """A sentence when the patients left out differ from those kept in one answer of a
    categorical column: the answer whose shares among the two differ most (by at least
    :data:`SHIFT_MIN_SHARE`, beyond chance by a two-proportion test, Bonferroni over every
    answer, :data:`SHIFT_ALPHA`). ``label(column, code)`` names an answer. Walk-through 89's
    thyroid clinic left out most of its patients with Hashimoto's disease and with
    nodules; the report named only the outcome's shift.
    """
    from scipy.stats import norm

    out, kept = ~keep, keep
    if out.sum() < SHIFT_MIN_VALUES or kept.sum() < SHIFT_MIN_VALUES:
        return ""
    tests = []
    for j in np.flatnonzero(categorical):
        col = X[:, j]
        known = np.isfinite(col)
        a, b = col[out & known], col[kept & known]
        if len(a) < SHIFT_MIN_VALUES or len(b) < SHIFT_MIN_VALUES:
            continue
        for code in np.unique(col[known]):
            p_out, p_kept = float(np.mean(a == code)), float(np.mean(b == code))
            pooled = float(np.mean(col[known] == code))
            se = np.sqrt(pooled * (1 - pooled) * (1 / len(a) + 1 / len(b)))
            z = abs(p_out - p_kept) / se if se > 0 else 0.0
            tests.append((z, p_out - p_kept, j, float(code), p_out, p_kept))
    if not tests:
        return ""
    cut = float(norm.isf(SHIFT_ALPHA / 2 / len(tests)))
    named = [t for t in tests if t[0] >= cut and abs(t[1]) >= SHIFT_MIN_SHARE]
    if not named:
        return ""
    _, diff, j, code, p_out, p_kept = max(named, key=lambda t: abs(t[1]))
    return (f" They differ in {_q(names[j], 60)!r}: {_q(label(names[j], code), 40)!r} is "
            f"{100 * p_out:.0f}% of them against {100 * p_kept:.0f}% of the patients kept, "
            f"so the model would learn from {'fewer' if diff > 0 else 'more'} patients "
            "like them.")


#: A column of the date a patient died.
_DEATH_DATE = re.compile(r"death|died|deceased|\bdod\b|\bd\.o\.d\b", re.IGNORECASE)


def warn_episodes_after_death(df: pd.DataFrame, id_like: str | None,
                              report: ValidationReport) -> None:
    """Warn of an ID the file repeats whose row is dated (admitted, operated, delivered)
    after a death written on another of its rows: an ID given to another patient, or
    mistyped (walk-through 101: 13 of an ICU register's 32 repeated MRNs had an admission
    after their date of death, and the rows were read as one person's episodes: left out
    of each other's look-alikes, held out together). ``id_like`` is the column that names
    the patients (:meth:`~sparge.data.encoder.Encoder.naming_column`)."""
    if id_like is None or id_like not in df.columns:
        return
    ids = id_text(df[id_like]).reset_index(drop=True)
    dup = ((ids != "") & ids.duplicated(keep=False)).to_numpy()
    if not dup.any():
        return
    deaths = [str(c) for c in df.columns if str(c) != id_like and _DEATH_DATE.search(str(c))
              and not pd.api.types.is_numeric_dtype(df[c])
              and (cell_text(df[c]) != "").any() and looks_like_dates(cell_text(df[c]))]
    event = event_date_column(df, exclude=[id_like, *deaths]) if deaths else None
    if event is None:
        return
    died = pd.concat([read_dates(df[c]).dates.reset_index(drop=True) for c in deaths],
                     axis=1).min(axis=1)
    rows = pd.DataFrame({"id": ids, "died": died,
                         "seen": read_dates(df[event]).dates.reset_index(drop=True)})[dup]
    first_death = rows.groupby("id")["died"].transform("min")
    # a day's grace: a death and a transfer written on the same day
    later = rows[rows["seen"] > first_death + pd.Timedelta(days=1)]
    if not len(later):
        return
    n, of = later["id"].nunique(), rows["id"].nunique()
    row = later.iloc[0]
    dead = rows[(rows["id"] == row["id"]) & (rows["died"] == first_death.loc[row.name])]
    report.warnings.append(
        f"{n:,} of the {of:,} IDs that '{_q(id_like, 40)}' repeats "
        f"{'have a row' if n != 1 else 'has a row'} dated after a death written on another "
        f"of {'their' if n != 1 else 'its'} rows (e.g. '{_q(row['id'], 30)}': died "
        f"{_row_date(first_death.loc[row.name])} on CSV line {int(dead.index[0]) + 2}, "
        f"'{_q(event, 40)}' {_row_date(row['seen'])} on CSV line {int(row.name) + 2}): an ID "
        "given to another patient, or mistyped. Such rows are read as one person's: "
        "neither is the other's look-alike, and the held-out check holds them out together. "
        "Check these IDs in the file.")


def _row_date(value) -> str:
    """A date as the report writes it (2023-03-02)."""
    return str(pd.Timestamp(value).date())
