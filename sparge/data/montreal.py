"""The Montreal classification of inflammatory bowel disease written in one cell ("A2 L3
B2p"), read as one column per part.

The Montreal classification describes a Crohn's disease by the age at diagnosis (A1 under
17, A2 17 to 40, A3 over 40), its location (L1 ileal, L2 colonic, L3 ileocolonic, with
L4 for upper gastrointestinal disease added to any of them), its behaviour (B1
non-stricturing non-penetrating, B2 stricturing, B3 penetrating) and a "p" for perianal
disease; an ulcerative colitis by its extent (E1 proctitis, E2 left-sided, E3 extensive)
and its severity (S0 remission to S3 severe). An IBD clinic's export writes them together
("A2 L3 B2p", "A1 L1 B1 p", "E3", "E2 S2"): as text that is dozens of answers, and
walk-through 68's "Montreal" was left out as free text, with it the behaviour that
predicts surgery. Read apart, age, behaviour, extent and severity are ordered columns,
the location an unordered one (ileal, colonic, ileocolonic: no order is meant), and
upper GI and perianal disease yes/no columns. A part a cell does not write is a gap
(an ulcerative colitis has no behaviour; a Crohn's disease no extent).

A column named for the Montreal classification (or IBD phenotype) is read so when at
least :data:`CODE_SHARE` of its written cells are such codes; the report says how many.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import replaced, text_columns
from sparge.data.safe_text import quote as _q

#: A column of Montreal codes, by its name.
_NAMED = re.compile(r"montreal|\bphenotype\b|ibd class|disease class|paris class",
                    re.IGNORECASE)
#: The parts a cell may write, and the column each is read into (by its suffix).
PARTS = ("age", "location", "upper GI", "behaviour", "perianal", "extent", "severity")
#: One code of a cell: "A2", "L3", "L3+L4", "L4", "B2", "B2p", "p", "E3", "S1".
_TOKEN = re.compile(r"a([1-3])|l([1-3])(?:\s?\+\s?l4)?|(l4)|b([1-3])\s?(p)?|(p)|e([1-3])|"
                    r"s([0-3])")
_SEPARATORS = re.compile(r"[\s,;/()\[\]]+")
#: A part written in words, as a clinic writes it beside the code or for it ("E2
#: left-sided", "Extensive (E3)", "pancolitis S1", "proctitis").
_WORDS = ((re.compile(r"\bleft[\s-]?sided(?: colitis)?\b|\bdistal colitis\b"), "e2"),
          (re.compile(r"\bextensive(?: colitis)?\b|\bpancolitis\b|\btotal colitis\b"),
           "e3"),
          (re.compile(r"\b(?:ulcerative )?proctitis\b"), "e1"),
          (re.compile(r"\bileocolonic\b|\bileo-colonic\b"), "l3"),
          (re.compile(r"\b(?:terminal )?ileal\b"), "l1"), (re.compile(r"\bcolonic\b"), "l2"),
          (re.compile(r"\bnon[\s-]?stricturing(?:,? non[\s-]?penetrating)?\b|"
                      r"\binflammatory\b"), "b1"),
          (re.compile(r"\bstricturing\b"), "b2"),
          (re.compile(r"\bpenetrating\b|\bfistulating\b"), "b3"),
          (re.compile(r"\bperianal\b"), "p"),
          (re.compile(r"\bremission\b"), "s0"))
_LOCATIONS = {"1": "ileal", "2": "colonic", "3": "ileocolonic"}
#: Share of a column's written cells that must be codes.
CODE_SHARE = 0.8
#: Fewest code cells for a column to be read so.
CODE_MIN = 5


def montreal_parts(cell: object) -> dict[str, str] | None:
    """The parts one cell writes ("A2 L3 B2p": age A2, location ileocolonic, upper GI No,
    behaviour B2, perianal Yes), or ``None`` for a cell that is no Montreal code.

    Examples
    --------
    >>> montreal_parts("A2 L3 B2p")
    {'age': 'A2', 'location': 'ileocolonic', 'upper GI': 'No', 'behaviour': 'B2', \
'perianal': 'Yes'}
    >>> montreal_parts("E3 S1"), montreal_parts("Extensive (E3), S2")
    ({'extent': 'E3', 'severity': 'S1'}, {'extent': 'E3', 'severity': 'S2'})
    >>> montreal_parts("Crohn's") is None
    True
    """
    text = str(cell).strip().lower()
    if not text or len(text) > 40:
        return None
    found: dict[str, str] = {}
    pos = 0
    for pattern, code in _WORDS:
        text = pattern.sub(f" {code} ", text)
    text = _SEPARATORS.sub(" ", text).strip()
    while pos < len(text):
        if text[pos] == " ":
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        age, loc, upper, beh, beh_p, peri, ext, sev = m.groups()
        if age:
            found["age"] = f"A{age}"
        if loc:
            found["location"] = _LOCATIONS[loc]
            found["upper GI"] = "Yes" if "l4" in m.group() else found.get("upper GI", "No")
        if upper:
            found["upper GI"] = "Yes"
        if beh:
            found["behaviour"] = f"B{beh}"
            found["perianal"] = "Yes" if beh_p else found.get("perianal", "No")
        if peri:
            found["perianal"] = "Yes"
        if ext:
            found["extent"] = f"E{ext}"
        if sev:
            found["severity"] = f"S{sev}"
        pos = m.end()
    if not found:
        return None
    return found


def _may_hold(values: pd.Series) -> bool:
    return bool(_NAMED.search(str(values.name)[:80]))


def montreal_columns(fitted) -> dict[str, list[str]]:
    """The Montreal columns a model was fitted with: ``{column: [its parts]}``, from the
    names ``"<column> <part>"`` among ``fitted`` (its behaviour, location or extent)."""
    fitted = [str(c) for c in fitted]
    have = set(fitted)
    out: dict[str, list[str]] = {}
    for c in fitted:
        for anchor in ("behaviour", "location", "extent"):
            if c.endswith(f" {anchor}"):
                base = c[:-len(anchor) - 1]
                parts = [p for p in PARTS if f"{base} {p}" in have]
                if parts and base not in out:
                    out[base] = parts
    return out


def split_montreal(df: pd.DataFrame, known: dict[str, list[str]] | None = None
                   ) -> pd.DataFrame:
    """The table with each column of Montreal codes replaced by one column per part it
    writes, ``"<name> age"``, ``"<name> location"``, … (:data:`PARTS`), in its place,
    and a note in ``df.attrs["sparge_read_notes"]``. Other tables are returned as they
    are.

    Parameters
    ----------
    df : DataFrame
    known : dict, optional
        ``{column: parts}`` read so whatever their number of codes (a model's, for a new
        patients' table of one or a few rows: :func:`montreal_columns`).
    """
    known = known or {}
    out = df
    for col, forced in text_columns(df, list(known), _may_hold):
        text = df[col].map(lambda v: "" if pd.isna(v) else str(v)).astype(object)
        written = [t for t in text if t.strip()]
        parts = [montreal_parts(t) for t in written]
        coded = sum(p is not None for p in parts)
        if not forced and (coded < CODE_MIN or coded < CODE_SHARE * len(written)):
            continue
        split = [montreal_parts(t) if t.strip() else None for t in text]
        names = known.get(str(col)) or [p for p in PARTS
                                         if any(s and s.get(p) for s in split)]
        if not names or any(f"{col} {p}" in out.columns for p in names):
            continue
        new = pd.DataFrame({f"{col} {p}": [(s or {}).get(p, "") for s in split]
                            for p in names}, index=df.index)
        note = ""
        if coded:
            example = next(t for t, p in zip(written, parts, strict=True) if p is not None)
            other = len(written) - coded
            note = (f"Column '{_q(col)}' holds Montreal classifications (e.g. "
                    f"'{_q(example, 24)}'): read as one column per part, "
                    + ", ".join(f"'{_q(col)} {p}'" for p in names)
                    + " (age, behaviour, extent and severity ordered; the location "
                    "unordered; a part a cell does not write is a gap there)"
                    + (f"; its {other:,} other written cell(s) are gaps" if other else "")
                    + ".")
        out = replaced(out, col, new, note)
    return out


__all__ = ["PARTS", "montreal_columns", "montreal_parts", "split_montreal"]
