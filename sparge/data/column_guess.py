"""Guessing a table's patient-ID and outcome columns from their names and values, and
the words for IDs a column repeats (the Data page's setup form; DESIGN.md §3)."""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd

from sparge.data.column_kinds import looks_like_dates
from sparge.data.levels import synonym_groups
from sparge.data.parsing import (
    NUMBER_PATTERN,
    cell_keys,
    cell_text,
    loose_key,
)
from sparge.data.safe_text import csv_lines
from sparge.data.safe_text import quote as _q
from sparge.data.tables import DEFAULT_MISSING_TOKENS, norm_key, note_head, yes_no_codes

_ID_NAMES = re.compile(
    r"^(?:(?:subject|patient|participant|person|record|study|case|sample|member|client|"
    r"visit|encounter|episode|attendance|admission)"
    r"[\s_.\-]*(?:id|no|nr|number|code|#|ref|reference)|"
    # walk-through 81's IVF cycles, "CycleRef" (a "Cycle number" counts attempts)
    r"(?:cycle|treatment)[\s_.\-]*(?:id|code|ref|reference)|"
    r"ref(?:erence)?(?:[\s_.\-]*(?:no|number|#))?|id|uid|mrn|medical[\s_.\-]*record[\s_.\-]*"
    r"(?:number|no)|.*[\s_.\-]mrn|patient|subject|"
    # a system's own ID (walk-through 52's "RiO ID", beside its NHS Number)
    r"(?!(?:ward|bed|bay|site|team|practice|clinic|drug|device|batch|lot|room|theatre|"
    r"centre|center|region|trust|gp|consultant)[\s_.\-])[a-z]{2,12}[\s_.\-]id|"
    # national and hospital numbers (walk-through 41's "NHS Number" was not guessed)
    # ... and shortened: walk-through 100's "Hosp No" named no one in the search
    r"(?:nhs|chi|nhi|hospital|hosp\.?|unit|case[\s_.\-]*note)[\s_.\-]*"
    r"(?:number|no|num|id)|nhs|urn|pid|chi)\.?$", re.IGNORECASE)  # "Patient No."
_OUTCOME_WORDS = ("outcome", "target", "label", "class", "event", "death", "died",
                  "mortality",
                  # walk-through 19: "MACE at 1 year" became an input feature, unsaid
                  "dead", "deceased", "survived", "alive", "expire", "expired", "mace",
                  "readmitted", "readmission", "relapse", "recurrence", "response",
                  # walk-through 77: "progressed_to_PDR_or_treatment_within_2y"
                  "progressed", "progression",
                  "diagnosis", "status",
                  # walk-through 50: "Admitted" was not guessed as the outcome
                  "admitted", "hospitalised", "hospitalized")
#: "status", "class" and "diagnosis" name features too (Marital Status, NYHA class, a
#: walk-through's "Cardiovascular diagnosis" chosen over "Vital status"): they mark an
#: outcome only alone or with one of these words ("Vital status", "Target class").
_WEAK_WORDS = {"status", "class", "diagnosis"}
_WEAK_COMPANIONS = {"vital", "survival", "disease", "final", "discharge", "outcome", "death",
                    "mortality", "life", "target", "label", "true", "patient", "y",
                    # "Status at last contact", "Status at end of follow-up"
                    "at", "last", "contact", "end", "of", "follow", "up", "followup",
                    "study", "current"}


def _words(name: str) -> list[str]:
    """Lower-case words of a column name (camelCase and punctuation split)."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def named_like_id(column: str) -> bool:
    """Whether a column is named like a patient identifier ("Patient ID", "MRN", "Subject
    No."): its numbers count records, they measure nothing (walk-through 27's MRN, not
    chosen as the ID because two MRNs repeat, became a biomarker "+2.1 SD")."""
    return bool(_ID_NAMES.match(str(column).strip()))


#: An ID written after its kind's letters ("MRN8191581", "MRN: 8191581", "H 1234567").
PREFIXED_ID = re.compile(r"([A-Za-z]{1,5})[\s:#.-]{0,2}(\d{4,})")
#: A letter prefix before digits in groups: "RX 235 0146".
PREFIXED_GROUPS = re.compile(r"([A-Za-z]{1,5}[\s:#.-]{0,2})(\d{2,5}(?:[ \-]\d{2,5}){1,3})")
#: Digits written in groups: an NHS number "485 777 3456", "020-040-9177".
GROUPED_DIGITS = re.compile(r"\d{2,5}(?:[ \-]\d{2,5}){1,3}")


def ungrouped(text: pd.Series) -> pd.Series:
    """IDs written as digits in groups (:data:`GROUPED_DIGITS`) without the spaces or
    hyphens between them ("136 262 6612": "1362626612"); the others as they are."""
    grouped = text.str.fullmatch(GROUPED_DIGITS.pattern)
    return text.where(~grouped, text.str.replace(r"[ \-]", "", regex=True))
#: Fewest IDs written each way for a prefix to be read as no part of the ID.
_FEWEST_EACH_WAY = 2


def id_text(values: pd.Series) -> pd.Series:
    """A column of IDs as text, read as one ID however its prefix is written: where the
    column writes numbers both bare and after the same letters ("8191581" and
    "MRN8191581"), the letters are dropped, and the digits after them that every prefixed
    ID starts with when the bare IDs are that many digits shorter ("RX1577837" beside
    "577837": a trust's code "RX1") (walk-through 101's register wrote 87 of its
    452 MRNs so, and 10 of 32 readmissions were not seen as one patient's). Otherwise
    :func:`~sparge.data.parsing.cell_text` as it is.

    Examples
    --------
    >>> id_text(pd.Series(["MRN8191581", "8191581", "4713201", "mrn 4713201"])).tolist()
    ['8191581', '8191581', '4713201', '4713201']
    >>> id_text(pd.Series(["RX1001", "RX1002", "RX1003"])).tolist()
    ['RX1001', 'RX1002', 'RX1003']
    >>> id_text(pd.Series(["RX1577837", "577837", "RX1355389", "355389"])).tolist()
    ['577837', '577837', '355389', '355389']
    >>> id_text(pd.Series(["485 777 3456", "4857773456", "020 040 9177", "1362626612"])
    ...         ).tolist()
    ['4857773456', '4857773456', '0200409177', '1362626612']
    >>> id_text(pd.Series(["0056047", "56047", "0411410", "1234567"] * 5)).tolist()[:4]
    ['0056047', '0056047', '0411410', '1234567']
    """
    text = cell_text(values)
    if not len(text):
        return text
    return _padded(_unprefixed(text))


def _padded(text: pd.Series) -> pd.Series:
    """Hospital numbers of a fixed width written without their leading zeros ("56047"
    beside "0056047": a spreadsheet drops them) padded to the width (walk-through 104: 15
    of a register's 60 patients with both eyes treated were two patients so): where the
    column writes at least two numbers with a leading zero, and most of its numbers are
    of its widest width."""
    digits = text.str.fullmatch(r"\d{3,12}")
    if int(digits.sum()) < _FEWEST_EACH_WAY:
        return text
    numbers = text[digits]
    widths = numbers.str.len()
    width = int(widths.max())
    short = widths < width
    if not short.any() or (widths == width).mean() < 0.5 or \
            int(numbers.str.startswith("0").sum()) < _FEWEST_EACH_WAY:
        return text
    out = text.copy()
    out[numbers.index[short]] = numbers[short].str.zfill(width)
    return out


def _unprefixed(text: pd.Series) -> pd.Series:
    """IDs without the spaces of digits in groups, and without a prefix where the column
    writes them both with and without it (:func:`id_text`)."""
    # a prefix before digits in groups ("RX 235 0146" beside "RX2350146": walk-through
    # 105's three patients with two courses were six)
    spaced = text.str.fullmatch(PREFIXED_GROUPS.pattern)
    if spaced.any() and int(text.str.fullmatch(PREFIXED_ID.pattern).sum()) >= _FEWEST_EACH_WAY:
        text = text.where(~spaced, text.str.replace(
            PREFIXED_GROUPS, lambda m: m.group(1) + re.sub(r"[ \-]", "", m.group(2)),
            regex=True))
    # digits written in groups and without ("485 777 3456", "4857773456": an NHS number;
    # walk-through 103's two referrals of one patient were two patients)
    if int(text.str.fullmatch(GROUPED_DIGITS.pattern).sum()) >= _FEWEST_EACH_WAY and \
            int(text.str.fullmatch(r"\d{6,}").sum()) >= _FEWEST_EACH_WAY:
        text = ungrouped(text)
    bare = text.str.fullmatch(r"\d{4,}")
    if int(bare.sum()) < _FEWEST_EACH_WAY:
        return text
    parts = text[~bare & (text != "")].str.fullmatch(PREFIXED_ID.pattern)
    if int(parts.sum()) < _FEWEST_EACH_WAY:
        return text
    found = text[parts.index[parts]].str.extract(f"^{PREFIXED_ID.pattern}$")
    if found[0].str.upper().nunique() != 1:  # two kinds of ID ("RX…", "H…"): as written
        return text
    digits = found[1]
    # a prefix of letters and digits, "RX1" (an NHS trust's code) before the six digits the
    # bare IDs write: walk-through 102 named "RX1577837" "1577837", not the "577837" of
    # its other admission
    widths = text[bare].str.len()
    width = int(widths.mode().iloc[0])
    extra = digits.str.len() - width
    if (widths == width).mean() >= 0.9 and (extra == extra.iloc[0]).all() and \
            1 <= int(extra.iloc[0]) <= 3 and digits.str[:int(extra.iloc[0])].nunique() == 1:
        digits = digits.str[int(extra.iloc[0]):]
    out = text.copy()
    out[found.index] = digits
    return out


def repeated_ids(df: pd.DataFrame, column: str, shown: int = 5) -> str:
    """Words for the IDs a column repeats ("" when none): up to ``shown`` of them with
    their CSV lines, each said to be an exact copy of the row when every cell repeats
    (walk-through 25: one of two repeated IDs was named, and an exact duplicate row was
    not told apart from two patients sharing an ID)."""
    text = id_text(df[column])
    dup = text[(text != "") & text.duplicated(keep=False)]
    if not len(dup):
        return ""
    found = []
    for value in list(dict.fromkeys(dup))[:200]:
        where = np.flatnonzero(text == value)
        copy = len(set(row_hashes(df.iloc[where]))) == 1  # its rows alike in every cell
        found.append((copy, value, where))
    # the IDs whose rows differ first: walk-through 30's three hid behind "(+3)" after
    # five rows written twice
    parts = [f"{_q(value, 40)!r} on CSV {csv_lines([int(i) + 2 for i in where[:4]])}"
             + (" (the same row twice)" if copy and len(where) == 2 else
                " (the same row each time)" if copy else "")
             for copy, value, where in sorted(found, key=lambda f: f[0])[:shown]]
    n = dup.nunique()
    return (f"{n:,} {'IDs repeat' if n != 1 else 'ID repeats'}: " + "; ".join(parts)
            + (f"; … (+{n - shown:,})" if n > shown else ""))


def copied_rows(df: pd.DataFrame) -> np.ndarray:
    """Rows that repeat an earlier row in every column (a mask; the first of each kept).
    A gap is a gap however written: walk-through 34's copy wrote "not done" where its
    original left the cell empty, in a column with no value at all."""
    return pd.Series(row_hashes(df)).duplicated(keep="first").to_numpy()


def row_hashes(df: pd.DataFrame) -> np.ndarray:
    """One hash per row of its cells as text, the default gap words read as empty: two
    rows have the same hash when they are alike in every cell (the values of one call
    only compare with each other).

    Every cell is coded once by its text over the whole table, and a text's gap word
    judged once (a pandas pass per column took 1.3 s of a 469-column table's encoding).
    """
    n, m = df.shape
    if not m:
        return np.zeros(n, dtype=np.uint64)
    texts = np.concatenate([cell_text(df.iloc[:, i]).to_numpy(dtype=object)
                            for i in range(m)])
    codes, uniques = pd.factorize(texts)
    gap = np.asarray([not u or norm_key(u) in DEFAULT_MISSING_TOKENS for u in uniques]
                     + [True], dtype=bool)  # the last: a code of -1
    codes = np.where(gap[codes], -1, codes).reshape(m, n).T
    return pd.util.hash_pandas_object(pd.DataFrame(codes), index=False).to_numpy()


def ids_repeat_only_in_copies(df: pd.DataFrame, column: str) -> bool:
    """Whether ``column`` repeats IDs only on rows copied in every column: with the
    copies left out of training, it is a good ID (walk-through 33's "Visit ID", whose 8
    repeats were 8 rows exported twice, was refused as the ID)."""
    text = cell_text(df[column]).reset_index(drop=True)
    dup = text.duplicated(keep=False).to_numpy()
    if (text == "").any() or not dup.any():
        return False
    # only the rows whose ID repeats are hashed (the Data page asks on every rerun)
    hashes = pd.Series(row_hashes(df.iloc[np.flatnonzero(dup)]), index=text[dup].to_numpy())
    return bool((hashes.groupby(level=0).nunique() == 1).all())


def separate_episodes(df: pd.DataFrame, column: str) -> str | None:
    """Words for a repeated ID's rows that are separate episodes of one patient, or
    ``None``: rows of most repeated IDs (not copies) written on different dates of the
    table's event (a delivery, an admission; :func:`~sparge.data.age_dates.event_date_column`).

    Walk-through 99's women booked for two pregnancies under one hospital number were
    told to keep one visit, "such as the latest": a delivery, its outcome included, would
    have been deleted.
    """
    from sparge.data.age_dates import BIRTH_NAME, event_date_column
    from sparge.data.dates import read_dates

    text = id_text(df[column])
    dup = (text != "") & text.duplicated(keep=False)
    if not dup.any():
        return None
    # the event's date, else any other date written for most patients (walk-through
    # 100's "Date of Tx", a transplant's date, is no event an age is taken at)
    first_choice = event_date_column(df, exclude=[column])
    others = [str(c) for c in df.columns if str(c) not in (column, first_choice)
              and not BIRTH_NAME.search(str(c).split(" of ", 1)[0])
              and not pd.api.types.is_numeric_dtype(df[c])]
    for when in ([first_choice] if first_choice else []) + others:
        cells = cell_text(df[when])
        if (cells != "").mean() < 0.5 or not looks_like_dates(cells):
            continue
        dates = read_dates(df[when]).dates
        rows = pd.DataFrame({"id": text[dup].to_numpy(),
                             "date": dates[dup.to_numpy()].to_numpy()})
        per_id = rows.groupby("id", sort=False)["date"].agg(["nunique", "count", "size"])
        apart = per_id[(per_id["nunique"] == per_id["size"])
                       & (per_id["count"] == per_id["size"])]
        if len(apart) * 2 >= len(per_id):
            break
    else:
        return None
    first = str(apart.index[0])
    on = ", ".join(str(d.date()) for d in rows.loc[rows["id"] == first, "date"][:3])
    n = len(apart)
    return (f"{'the rows of ' if n != 1 else 'the rows of one, '}{n:,} of the {len(per_id):,} "
            f"repeated IDs {'are' if n != 1 else 'is'} on different dates of "
            f"{_q(when, 40)!r} (e.g. {_q(first, 40)!r}: {on}): separate episodes of one "
            "patient, each its own record with its own outcome. Keep them all: choose no ID "
            "column (each row is then named by its ID and CSV line) rather than deleting "
            "one")


#: A column of the side a row is about: the eye, the hip, the breast.
_SIDE_NAME = re.compile(r"^(?:(?:treated|study|index|operated|affected|which)\s+)?"
                        r"(?:eye|eyes|side|laterality)(?:\s+(?:treated|operated))?$",
                        re.IGNORECASE)


def _sides_of(cells: pd.Series, name: str) -> pd.Series:
    """"left", "right" or "" for each cell of the side column ``name``, its words as the
    column's synonym groups write them ("RE", "OD", "Right")."""
    sides = {w: g[0] for g in synonym_groups(name) if g[0] in ("left", "right") for w in g}
    return cell_text(cells).map(lambda w: sides.get(loose_key(norm_key(w)), ""))


def two_sides(df: pd.DataFrame, column: str) -> tuple[str, str, int, int] | None:
    """Whether a repeated ID's rows are one patient's two sides (a medical retina
    register's two treated eyes, one row each): ``(thing, side column, n, repeated)`` —
    "eyes" or "sides", the column named for the side (:data:`_SIDE_NAME`), how many of the
    repeated IDs have a row for each side, and how many IDs repeat — when most do; else
    ``None``."""
    side_col = next((str(c) for c in df.columns if str(c) != column
                     and _SIDE_NAME.match(str(c).strip())), None)
    if side_col is None or column not in df.columns:
        return None
    text = id_text(df[column])
    dup = ((text != "") & text.duplicated(keep=False)).to_numpy()
    if not dup.any():
        return None
    side = _sides_of(df[side_col], side_col)
    rows = pd.DataFrame({"id": text[dup].to_numpy(), "side": side[dup].to_numpy()})
    per_id = rows.groupby("id", sort=False)["side"].agg(
        lambda v: len(v) == 2 and set(v) == {"left", "right"})
    n = int(per_id.sum())
    if n * 2 < len(per_id):
        return None
    return ("eyes" if re.search(r"eye", side_col, re.IGNORECASE) else "sides", side_col, n,
            len(per_id))


def row_sides(df: pd.DataFrame, column: str) -> pd.Series | None:
    """Each row's side in words ("right eye", "left side"; "" where the side cell is
    neither) where a repeated ID's rows are one patient's two sides (:func:`two_sides`),
    else ``None``: Explore's heading names the eye it shows (walk-through 104: two rows of
    one hospital number and the heading did not say which eye)."""
    found = two_sides(df, column)
    if found is None:
        return None
    thing, side_col = found[0], found[1]
    side = _sides_of(df[side_col], side_col)
    return side.where(side == "", side + (" eye" if thing == "eyes" else " side"))


def separate_sides(df: pd.DataFrame, column: str) -> str | None:
    """Words for a repeated ID's rows that are one patient's two sides (:func:`two_sides`),
    or ``None``. Walk-through 104's eye register was told to "delete a row written twice":
    one eye."""
    found = two_sides(df, column)
    if found is None:
        return None
    thing, side_col, n, of = found
    return (f"the rows of {n:,} of the {of:,} repeated IDs are one patient's two {thing} "
            f"({_q(side_col, 40)!r}: one left, one right), each its own record with its own "
            "outcome. Keep them all: choose no ID column (each row is then named by its ID "
            "and CSV line) rather than deleting one")


def separate_records(df: pd.DataFrame, column: str) -> str | None:
    """Words for a repeated ID's rows that are each their own record (episodes on
    different dates, :func:`separate_episodes`; two eyes or sides, :func:`separate_sides`),
    or ``None``."""
    return separate_episodes(df, column) or separate_sides(df, column)


def id_guess_note(df: pd.DataFrame, id_guess: str | None) -> str | None:
    """Why no ID column was guessed although one is named like an ID, or ``None``.

    A walk-through's export repeated 18 "Patient No." values: the guess fell back to
    "(none)" without a word, and its patients were named by row number on every page.
    """
    if id_guess is not None:
        return None
    for col in (str(c) for c in df.columns):
        if not _ID_NAMES.match(col.strip()):
            continue
        text = id_text(df[col])
        blank = int((text == "").sum())
        dup = text[(text != "") & text.duplicated(keep=False)]
        if not len(dup) and not blank:
            continue
        why = []
        if len(dup):
            why.append(repeated_ids(df, col))
        if blank:
            why.append(f"{blank:,} row(s) have none")
        episodes = separate_records(df, col) if len(dup) else None
        if episodes and not blank:
            return (f"{_q(col)!r} looks like the patient ID, but {why[0]}. It was not "
                    f"chosen, so that every row is kept: {episodes}. Patients are named by "
                    "it, with their CSV line where it repeats, and it is left out of the "
                    "model (an identifier measures nothing).")
        return (f"{_q(col)!r} looks like the patient ID, but {' and '.join(why)}. It was "
                "not chosen: patients are named by it, with their CSV line where it "
                "repeats or is empty, and it is left out of the model (an identifier "
                "measures nothing). Fix the file (delete "
                "a row written twice; give two patients sharing an ID their own) and upload "
                "it again.")
    return None


def guess_columns(df: pd.DataFrame) -> tuple[str | None, str | None]:
    """Guess the patient-ID and outcome columns of a table (for the setup form).

    ID: the first column named like an identifier ("Subject ID", "patient id", "id",
    "MRN", ...) whose values are unique, else the first text column whose values are all
    present and unique. Outcome: among the other columns, one named like outcome / target /
    label / class / event / death / mortality / dead / survived / MACE / readmission /
    relapse / response (and the like) / diagnosis / status (in that order of preference,
    then left to right) with 2 to 10 distinct values; a yes/no column named
    like an event counts. "status", "class" and "diagnosis" count only alone or with words
    such as vital / survival / disease / target / final ("Vital status", "Final
    diagnosis"), not in "Marital Status", "NYHA class" or "Cardiovascular diagnosis".

    Parameters
    ----------
    df : pandas.DataFrame
        The table, as :func:`sparge.data.reading.read_table` gives it.

    Returns
    -------
    id_column, outcome_column : str or None
        The guessed columns, each ``None`` when nothing fits.
    """
    cols = [str(c) for c in df.columns]
    frame = df.set_axis(cols, axis=1)
    texts = {c: cell_text(frame[c]) for c in cols}
    # an ID column's IDs however their prefix is written ("MRN8191581" is "8191581")
    texts.update({c: id_text(frame[c]) for c in cols if _ID_NAMES.match(c.strip())})

    def unique(c: str) -> bool:
        t = texts[c]
        return bool((t != "").all()) and t.nunique() == len(t)

    id_col = id_named_column(frame)
    if id_col is None:  # an ID named so, repeated only on rows exported twice
        id_col = next((c for c in cols if _ID_NAMES.match(c.strip())
                       and ids_repeat_only_in_copies(frame, c)), None)
    if id_col is None:
        # not a date column: walk-through 34's arrival times were unique
        id_col = next((c for c in cols if unique(c) and len(frame) > 1
                       and not texts[c].str.fullmatch(NUMBER_PATTERN).all()
                       and not looks_like_dates(texts[c])), None)
    named = outcome_named_columns(frame, exclude=[id_col] if id_col else [], texts=texts)
    return id_col, (named[0] if named else None)


def id_named_column(df: pd.DataFrame) -> str | None:
    """The first column named like a patient identifier ("Patient ID", "MRN") whose
    values are all present and unique, or ``None``: what names the patients of a new
    patients' file whose model has no ID column (unlike :func:`guess_columns`, never an
    unnamed text column: a file's comments are unique too)."""
    for c in df.columns:
        if _ID_NAMES.match(str(c).strip()):
            t = id_text(df[c])
            if bool((t != "").all()) and t.nunique() == len(t):
                return str(c)
    return None


#: A yes or a no before a note.
_YES_NO_HEADS = frozenset({"y", "yes", "n", "no"})


def outcome_named_columns(df: pd.DataFrame, exclude=(), texts: dict | None = None
                          ) -> list[str]:
    """Columns named like an outcome (the rule of :func:`guess_columns`) with 2 to 10
    distinct answers, the most outcome-like name first (then left to right).

    Parameters
    ----------
    df : pandas.DataFrame
    exclude : iterable of str
        Columns not to consider (the ID column).
    texts : dict, optional
        ``{column: cell_text(column)}`` when already computed.
    """
    skip = {str(c) for c in exclude}
    found = []
    for pos, col in enumerate(df.columns):
        c = str(col)
        rank = _outcome_rank(c)
        threshold = bool(_THRESHOLD_NAMED.search(c))
        event = rank is None and (_YES_NO_EVENT.search(c) or threshold) \
            and not _PAST.search(c)
        if c in skip or (rank is None and not event):
            continue
        t = texts[c] if texts is not None else cell_text(df[col])
        keys = cell_keys(t[t != ""])
        # a yes or a no with its note is that answer: "Y - 23d" (walk-through 103's
        # readmission, 27 answers with the days, was not guessed)
        keys = keys.map(lambda k: head if (head := note_head(k)) in _YES_NO_HEADS else k)
        # gap words are no answers (walk-through 37's outcome, Yes / No written eight ways
        # beside "pending", "unk", "-" and "n/a", was not guessed: 13 levels)
        n_levels = keys[~keys.isin(DEFAULT_MISSING_TOKENS)].nunique()
        if event:  # the weakest: an event named, and answered yes or no (and nothing
            # else: a comorbidity "Stroke" with its gap words "-" is no outcome)
            # ... a threshold-defined one with its gap words too (walk-through 43's
            # "awaiting" and "not recorded" beside Yes / No)
            # ... and one in a time window after the data (walk-through 92's "Post-op
            # complication (30 days)" with "lost to follow-up" beside Yes / No)
            answers = (keys[~keys.isin(DEFAULT_MISSING_TOKENS)]
                       if threshold or _windowed(c) else keys).unique()
            codes = yes_no_codes(list(answers)) if len(answers) <= 10 else None
            if codes is not None:  # "admitted" and "discharged" in "Admitted" too
                codes = {**codes, **event_answer_codes(c, codes, codes)}
            if codes is None or set(codes.values()) - {0, 1, 2}:
                continue
            rank = len(_OUTCOME_WORDS) + (0.5 if threshold else 1)
        if rank is not None and _windowed(c) and n_levels <= 10:
            # an event in a time window answered yes or no is a study's outcome, before a
            # column merely named "outcome" (walk-through 62 guessed "Clinic outcome", a
            # discharge status, over "Care home admission within 2 years")
            answers = list(keys[~keys.isin(DEFAULT_MISSING_TOKENS)].unique())
            codes = yes_no_codes(answers)
            if codes is not None:
                codes = {**codes, **event_answer_codes(c, answers, codes)}
                if {1, 2} <= set(codes.values()) and \
                        sum(v in (1, 2) for v in codes.values()) >= 0.8 * len(answers):
                    rank = -1
        if 2 <= n_levels <= 10:
            # an outcome answered for fewer than half the patients comes after those
            # answered for most (walk-through 60's readmission, 79 % empty, was guessed
            # before its "PICU transfer / escalation", answered for all)
            sparse = bool((t != "").mean() < 0.5) if len(t) else False
            found.append((sparse, rank, pos, c))
    return [c for *_, c in sorted(found)]


#: An event in a time window after the data: "Admitted within 12 months", "Stroke at 1
#: year", "Amputation within 90 days" (walk-through 29's outcome was not guessed, and the
#: table trained without one). Not the past: "Admissions in previous 12 months".
_WINDOW = re.compile(r"\b(?:at|by)\s{1,3}(?:week|wk|month|day|year)\s{0,2}\d{1,3}\b|"
                     r"\b(?:within|at|by)\s{1,3}(?:(?:\d{1,3}|one|two|three|five|ten)\s{0,3}"
                     r"[\s\-]?(?:days?|d|weeks?|wks?|months?|mo|years?|yrs?|y)|age\s{1,3}\d{1,3})"
                     r"\b|"
                     # walk-through 82's "Pulmonary exacerbation requiring IVs in next 12
                     # months" trained as an input, the model unsupervised, unsaid
                     r"\b(?:next|following|subsequent|ensuing)\s{1,3}(?:(?:\d{1,3}|one|two|"
                     r"three|five|six|ten|twelve)\s{0,3}[\s\-]?)?(?:days?|weeks?|wks?|months?|"
                     r"mths?|years?|yrs?|year)\b", re.IGNORECASE)


#: A window written after an event without "within": "Admission DKA/HHS/severe hypo
#: 12m", "Readmission 30d", "Amputation (1 yr)" (walk-through 64 guessed a status at last
#: contact before it). Only beside an event's name (:func:`_windowed`): "12m" alone
#: names no outcome.
_BARE_WINDOW = re.compile(r"(?<![\d.,/<>=≤≥])\b\d{1,3}\s?(?:days?|d|weeks?|wks?|w|months?|mths?|mo|"
                          r"m|years?|yrs?|yr|y)\b(?!\s?(?:ago|before|prior|previous))",
                          re.IGNORECASE)


def _windowed(name: str) -> bool:
    """Whether a column's name says a time window after the data: "within 12 months",
    or a bare "12m" after an event ("Admission DKA/HHS/severe hypo 12m")."""
    return bool(_WINDOW.search(name)) or (
        _BARE_WINDOW.search(name) is not None and _YES_NO_EVENT.search(name) is not None
        and not _PAST.search(name))


#: An event a yes/no column may record as the outcome: "NICU admission", "Transferred",
#: "Intubated", "Sepsis" (walk-through 31's "NICU admission" was not guessed) ...
_YES_NO_EVENT = re.compile(
    r"admission|admitted|readmit|transfer|\b[np]?icu\b|\bhdu\b|escalat|intubat|ventilat|"
    r"complication|"
    r"infection|sepsis|stroke|amputation|reoperation|reintervention|bpd|\bnec\b|"
    # walk-through 78's "revision_within_2y" (an implant's) went to the model as an input
    r"\brevision|\bre-operation|"
    # walk-through 43's "Postpartum haemorrhage (>=1000 mL)" was not guessed
    r"ha?emorrhage|\bbleed|\bpph\b|eclampsia|thrombo|embolism|infarction|delirium|"
    r"kidney injury|\baki\b|"
    # a diagnostic study's finding (walk-through 80's "Clinically significant cancer",
    # Yes / No, went to the model as an input beside the Gleason score it is read from)
    r"clinically[\s_\-]+significant|\bcs-?pca\b|"
    r"(?:cancer|malignancy|carcinoma|tumou?r)[\s_\-]+(?:detected|diagnosed|found|on[\s_]biopsy)|"
    r"biopsy[\s_\-]+(?:positive|result)|positive[\s_\-]+biopsy|"
    # a fertility treatment's (walk-through 81's "Live birth" went to the model as an
    # input beside the embryos transferred)
    r"live[\s_\-]*birth|(?:clinical|ongoing|viable)[\s_\-]+pregnancy|"
    # a chronic disease's flare (walk-through 82's cystic fibrosis clinic)
    r"exacerbation|\bflare|"
    # a treatment's response by its index (walk-through 93's "PASI 75 at week 16", Yes /
    # No, was not guessed): PASI 50-100, ACR 20-70, EASI 50-90, a responder
    r"\b(?:pasi|easi|acr|sf|ssz)[\s\-_]?(?:20|50|70|75|90|100)\b|\bresponder|"
    r"\bremission\b",
    re.IGNORECASE)
#: A yes/no column defined by a threshold, "(>=1000 mL)", "> 7 days": a derived
#: outcome, preferred to a plain event (the export's "NICU admission" came first).
_THRESHOLD_NAMED = re.compile(r"(?:[<>]=?|[≤≥])\s{0,3}\d")
#: ... and not one the patient had before ("Previous admission", "History of stroke").
_PAST = re.compile(r"previous|prior|history|\bhx\b|past|before|pre-?existing|baseline|"
                   # "Exacerbations (last 12m)", "IV courses in the last year"; not
                   # "Status at last contact"
                   r"\blast\s{0,3}(?:\d{1,3}\s{0,3}[\s\-]?)?(?:days?|d|weeks?|wks?|w|months?|"
                   r"mths?|m|years?|yrs?|yr|y)\b|\b(?:in|over|during)\s{1,3}the\s{1,3}last\b|"
                   # the last event before the visit: walk-through 85's "Date of last
                   # relapse" (not the last contact, which may come after the outcome)
                   r"\b(?:last|most\s{1,3}recent|latest)\s{1,3}(?:relapse|attack|"
                   r"exacerbation|flare|admission|episode|seizure|event|fall|infection)",
                   re.IGNORECASE)


#: Events an outcome column may be named after, with the answers that say it happened
#: (a yes) and that it did not (a no), as normalised keys. Walk-through 33's "Admitted"
#: held Yes / Y / 1 / "admitted" and No / N / 0 / "discharged": four outcomes.
_EVENT_ANSWERS: tuple[tuple[re.Pattern, frozenset, frozenset], ...] = (
    (re.compile(r"readmi", re.IGNORECASE),
     frozenset({"readmitted", "readmission", "readmit"}),
     frozenset({"not readmitted", "no readmission", "not readmit"})),
    (re.compile(r"(?<!re)admi|hospitali[sz]", re.IGNORECASE),
     frozenset({"admitted", "admit", "admission", "admit to ward", "hospitalised",
                "hospitalized", "inpatient",
                # walk-through 50's paediatric ED: "PICU" and "admitted to ward" beside
                # "Yes" were two more outcomes; the unit a child is admitted to
                "ward", "picu", "icu", "nicu", "hdu", "phdu", "ccu", "itu", "intensive care",
                "high dependency", "paediatric ward", "pediatric ward", "theatre", "or"}),
     frozenset({"discharged", "discharge", "discharged home", "home", "sent home",
                "not admitted", "no admission", "outpatient", "not hospitalised",
                "not hospitalized"})),
    # walk-through 58's "ICU mortality": "D" and "A" for died and alive
    (re.compile(r"died|death|dead|deceased|mortality|expired|surviv|vital status",
                re.IGNORECASE),
     frozenset({"died", "dead", "deceased", "death", "expired", "d", "non-survivor",
                "nonsurvivor", "did not survive", "rip", "decd", "dec'd"}),
     # walk-through 101's "S" (70 of 452) beside "Survived" was a third outcome
     frozenset({"alive", "survived", "living", "not dead", "not died", "a", "survivor",
                "discharged alive", "alive at discharge", "s", "surv"})),
    # walk-through 37's "Virological failure at 12 months": Yes / No / "failure" /
    # "suppressed" were four outcomes
    (re.compile(r"fail", re.IGNORECASE),
     frozenset({"failure", "failed", "fail", "treatment failure", "virological failure",
                "virologic failure", "not suppressed", "unsuppressed"}),
     frozenset({"success", "successful", "suppressed", "virally suppressed",
                "suppression", "not failed", "no failure", "responder", "response"})),
    (re.compile(r"relapse|recurr", re.IGNORECASE),
     frozenset({"relapse", "relapsed", "recurrence", "recurred", "recurrent"}),
     frozenset({"no relapse", "not relapsed", "no recurrence", "remission",
                "disease free", "ned"})),
)
#: A yes/no outcome's answers saying a diagnosis was made, or was not.
_CONFIRMED = frozenset({"confirmed", "diagnosed", "confirmed diagnosis", "yes - confirmed",
                        "yes confirmed", "positive"})
_RULED_OUT = frozenset({"not confirmed", "ruled out", "excluded", "not diagnosed",
                        "no diagnosis", "negative", "no - ruled out"})
#: Words of a column's name that name no event ("Sepsis at 30 days": "at", "days").
_NOT_EVENTS = frozenset({"at", "by", "within", "after", "before", "in", "of", "the", "to",
                         "and", "or", "day", "days", "week", "weeks", "month", "months",
                         "year", "years", "outcome", "status", "any", "new", "yes", "no"})


#: Prefixes a compound medical word's initials split off: "postpartum" is P-P.
_PREFIX = re.compile(r"^(post|pre|peri|ante|intra|sub|hyper|hypo|neo|endo)(?=[a-z]{4})")


def event_initials(column: str) -> set[str]:
    """The initials an event's name is abbreviated to: "Postpartum haemorrhage (>=1000
    mL)" gives "ph" and "pph", "Acute kidney injury" "aki" (the name before any bracket,
    without the words of :data:`_NOT_EVENTS`; two letters at least)."""
    name = str(column).split("(", 1)[0].lower()
    words = [w for w in re.findall(r"[a-z]+", name) if w not in _NOT_EVENTS]
    plain = "".join(w[0] for w in words)
    split = "".join(m.group(1)[0] + w[m.end()] if (m := _PREFIX.match(w)) else w[0]
                    for w in words)
    return {i for i in (plain, split) if 2 <= len(i) <= 6}


def event_answer_codes(column: str, answers, codes: dict[str, int]) -> dict[str, int]:
    """Answers of a yes/no outcome that name its event (a yes, code 1) or the event's
    opposite (a no, code 2): "admitted" and "discharged" in a column named "Admitted",
    "died" and "alive" in one named "Death". Only answers ``codes`` (the column's
    :func:`~sparge.data.tables.yes_no_codes`) left apart are returned; an answer the
    column's event does not name ("transferred") stays apart.

    Returns
    -------
    dict
        ``{answer as written: 1 or 2}``.
    """
    named = {w for w in _words(column) if len(w) > 3 and w not in _NOT_EVENTS}
    yes, no = set(), set()
    for pattern, y, n in _EVENT_ANSWERS:
        if pattern.search(str(column)):
            yes, no = set(y), set(n)
            break
    # a diagnosis confirmed or ruled out, whatever the event (walk-through 41's "Asthma
    # diagnosis by age 6": "confirmed" beside "Yes" was a third outcome)
    yes |= _CONFIRMED
    no |= _RULED_OUT
    # the event as the column names it: "sepsis" / "no sepsis" in a column "Sepsis", or
    # by its initials: "PPH" in "Postpartum haemorrhage" (walk-through 43: a third
    # outcome), "AKI" in "Acute kidney injury"
    named |= event_initials(column)
    # ... or by the initials the name itself writes: "PPH" in "PPH >=1000mL or severe
    # maternal morbidity" (walk-through 99: 17 of its 102 yes were a third outcome)
    named |= {w.lower() for w in re.findall(r"\b[A-Z]{2,6}\b", str(column)[:200])
              if w.lower() not in _NOT_EVENTS}
    yes |= named
    no |= {f"{neg} {w}" for w in named for neg in ("no", "not", "without")}
    # "none" and "nil" beside Yes and No: no event (walk-through 54's febrile
    # neutropenia, 89 "none" a third outcome)
    no |= {"none", "nil", "nil known"}
    out = {}
    for answer in answers:
        if codes.get(answer, 0) in (1, 2):
            continue
        key = norm_key(answer)
        if key in yes:
            out[answer] = 1
        elif key in no:
            out[answer] = 2
        # ... or starts with one, more words after it ("admitted to ward", "discharged
        # home with advice", "died in hospital"), a no's words first ("not admitted …")
        elif any(key.startswith(w + " ") for w in no if len(w) > 3):
            out[answer] = 2
        elif any(key.startswith(w + " ") for w in yes if len(w) > 3):
            out[answer] = 1
        # ... or a plain yes or no with a note after a dash, colon or bracket ("Y - S3",
        # "Yes (informal)", "N: discharged"; walk-through 52 lost 25 readmissions)
        elif (head := note_head(key)) in ("y", "yes", "n", "no"):
            out[answer] = 1 if head in ("y", "yes") else 2
        # ... or another form of a word of the column's name: "transferred" and
        # "escalated" in "PICU transfer / escalation" (walk-through 60: four outcomes),
        # "not transferred" a no
        elif (form := _named_form(key, named)) is not None:
            out[answer] = form
    return out


#: Letters two forms of one word share at the least ("transfer"/"transferred"), and the
#: share of the shorter form ("escalat": 7 of "escalated"'s 9).
_FORM_PREFIX = 6
_FORM_SHARE = 0.75


def _named_form(key: str, named: set[str]) -> int | None:
    """1 when an answer (a normalised key of one word) is another form of a word of
    its column's name (``named``), 2 when it is one negated ("not transferred"),
    else ``None``."""
    words = key.split()
    negated = len(words) == 2 and words[0] in ("no", "not", "non", "without")
    if not (len(words) == 1 or negated) or len(key) > 40:
        return None
    word = words[-1]
    for w in named:
        n = len(os.path.commonprefix([word, w]))
        if n >= _FORM_PREFIX and n >= _FORM_SHARE * min(len(word), len(w)):
            return 2 if negated else 1
    return None


#: Words naming an outcome that happens after the look-alikes are sought (not "status",
#: "class", "diagnosis" or "response", which name what is known at the visit too).
_LATER_WORDS = frozenset({"death", "died", "mortality", "dead", "deceased", "survived",
                          "expire", "expired", "mace", "readmitted", "readmission",
                          "relapse", "recurrence", "escalation", "escalated"})


#: What happens after an operation ("Post-op AKI", "Return to theatre", "Re-exploration
#: for bleeding"): walk-through 98's pre-operative export kept both in the model beside
#: "In-hospital death or major complication", every look-alike decided by them.
_AFTER_OPERATION = re.compile(
    r"\bpost[\s-]?op(?:erative(?:ly)?)?\b|\bpostop\b|\breturn(?:ed)?\s+to\s+(?:theatre|"
    r"theater|the\s+or|or)\b|\bre-?operation\b|\bre-?explor\w*|\btake[\s-]?back\b|"
    r"\bunplanned\s+re-?operation", re.IGNORECASE)


#: A status written when the patient was last seen, or at the end of follow-up ("Status
#: at last contact": walk-through 64's "Post-DKA follow-up", "Inpatient" beside the
#: chosen outcome separated it at AUC 0.97, just under the leak test's cut).
_LATER_STATUS = re.compile(
    r"\bstatus\b.{0,12}\b(?:last\s+(?:contact|seen|visit|review|follow[\s-]?up)|end\s+of|"
    r"final)|\blast\s+known\s+status|\bstatus\s+at\s+(?:follow[\s-]?up|censor)",
    re.IGNORECASE)


#: A window after the visit that needs no event named: "next 12m", "in the next year",
#: "during follow-up" (walk-through 75's "Exacerbation_admission_next_12m").
_NEXT_WINDOW = re.compile(
    r"\bnext\s{1,3}(?:\d{1,3}\s?(?:days?|d|weeks?|wks?|w|months?|mths?|mo|m|years?|yrs?|y)|"
    r"year|month|week)\b|\b(?:during|over|throughout)\s{1,3}(?:the\s{1,3})?follow[\s-]?up\b",
    re.IGNORECASE)


#: A response to treatment ("Best response", "Response to induction", "Overall response"):
#: judged after the treatment, beside another outcome it is a later one (walk-through 73's
#: "Best response" went to the model as an input). Not a response time, nor an
#: inflammatory or immune response, which are measured at the visit.
_TREATMENT_RESPONSE = re.compile(
    r"\b(?:best|overall|treatment|therapy|therapeutic|tumou?r|clinical|virolog\w*|"
    r"haematolog\w*|hematolog\w*|molecular|cytogenetic|radiolog\w*|induction|"
    r"complete|partial)\s{1,3}response\b|\bresponse\s{1,3}(?:to|after|at|post)\b|"
    r"\bresponse\s{1,3}(?:status|category|grade)\b", re.IGNORECASE)
#: ... but a response to a test given at the visit is a measurement ("Response to fluid
#: challenge", "Cortisol response to Synacthen test").
_TEST_RESPONSE = re.compile(r"challenge|stimulat|\btest\b|bolus|synacthen|bronchodilat|"
                            r"reversib", re.IGNORECASE)


def later_outcome_named(name: str) -> bool:
    """Whether a column is named like an outcome that happens later ("Readmitted <30d",
    "Death within 1 year", "Relapse at 2 years", "Admission next 12m"): beside another
    outcome, it is known only after the look-alikes are sought, and gives the outcome
    away (walk-through 60's readmission, 79 % empty, went to the model and the New
    patient form); so is a response to treatment ("Best response"). Underscores separate
    words ("Exacerbation_admission_next_12m" went into walk-through 75's model beside the
    outcome "Died_during_followup")."""
    text = re.sub(r"_+", " ", str(name))
    words = set(_words(text))
    if words & _LATER_WORDS and not _PAST.search(text):
        return True
    if _LATER_STATUS.search(text) or (_NEXT_WINDOW.search(text) and not _PAST.search(text)):
        return True
    if _AFTER_OPERATION.search(text) and not _PAST.search(text):
        return True
    if (_TREATMENT_RESPONSE.search(text) and not _PAST.search(text)
            and not _TEST_RESPONSE.search(text)):
        return True
    return _windowed(text) and _YES_NO_EVENT.search(text) is not None


def _outcome_rank(name: str) -> int | None:
    """How strongly a column's name says "outcome" (0 strongest), ``None`` when it does
    not (the rule of :func:`guess_columns`): a word of :data:`_OUTCOME_WORDS`, else (the
    weakest) an event in a time window (:data:`_WINDOW`)."""
    words = _words(name)
    ranks = [_OUTCOME_WORDS.index(w) for w in words if w in _OUTCOME_WORDS
             and (w not in _WEAK_WORDS or set(words) - _WEAK_WORDS <= _WEAK_COMPANIONS)]
    if not ranks and _WINDOW.search(re.sub(r"_+", " ", str(name))):
        return len(_OUTCOME_WORDS)
    return min(ranks) if ranks else None


def single_value_outcome(df: pd.DataFrame) -> tuple[str, str] | None:
    """A column named like an outcome that holds a single answer for every patient.

    :func:`guess_columns` passes it over (nothing can be learned from one outcome), and
    without a word the table was encoded without an outcome (a walk-through's export of
    survivors only, "Died before discharge" all "No").

    Returns
    -------
    (column, answer) or None
    """
    if len(df) < 3:  # a row or two: every column holds one answer (walk-through 73)
        return None
    for c in df.columns:
        if _outcome_rank(str(c)) is None:
            continue
        t = cell_text(df[c])
        keys = cell_keys(t)
        # a gap word is no answer ("not done" in a one-row file's "Best response")
        filled = t[(t != "").to_numpy() & ~keys.isin(DEFAULT_MISSING_TOKENS).to_numpy()]
        if len(filled) and cell_keys(filled).nunique() == 1:
            return str(c), str(filled.iloc[0])
    return None
