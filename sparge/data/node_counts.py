"""Lymph nodes written as positive out of examined ("2/15", "0/3 SNB", "3 of 20").

A cancer clinic writes the nodes found involved with those examined, and where they came
from (a sentinel node biopsy, an axillary clearance). Walk-through 95's "Nodes positive"
column, one of a breast cancer's strongest prognostic factors, was left out as free text:
with as many denominators as patients, its cells were more than 30 different answers. In
a column named for involved nodes (:data:`NODES_NAME`), such a cell reads as the number of
involved nodes; the number examined is not read (a note says so).
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of involved lymph nodes, by its name ("Nodes positive", "LN +ve", "Positive
#: nodes", "Lymph nodes"); not one of the nodes examined or removed.
NODES_NAME = re.compile(r"^(?!.*\b(?:examined|retrieved|removed|harvested|sampled|total|"
                        r"excised|resected)\b).*\b(?:nodes?|lns?|lymph\s*nodes?|"
                        r"nodal\s+status)\b", re.IGNORECASE)
#: Involved out of examined, with where they came from: "2/15", "0 / 1", "0/3 SNB",
#: "3 of 20 (ANC)", "1/2 sentinel".
_OUT_OF = re.compile(
    r"\s*(\d{1,2})\s*(?:/|of|out\s+of)\s*(\d{1,3})\s*(?:nodes?|lns?)?\s*(?:[(,;-]?\s*"
    r"(?:snb|slnb|sln|slnbx|sentinel(?:\s+nodes?)?|alnd|anc|axillary\s+(?:clearance|"
    r"dissection|sampling)|ans|ax\w*|macro\w*|micro\w*|itcs?)\s*\)?)?\s*", re.IGNORECASE)


def involved_nodes(cell: object) -> str | None:
    """The involved nodes of a cell written out of those examined, as text ("2/15":
    "2"); ``None`` for any other cell, or more involved than examined.

    Examples
    --------
    >>> [involved_nodes(c) for c in ["2/15", "0 / 1", "0/3 SNB", "3 of 20 (ANC)", "5/2", "N1"]]
    ['2', '0', '0', '3', None, None]
    """
    m = _OUT_OF.fullmatch(str(cell))
    if m is None or int(m.group(1)) > int(m.group(2)):
        return None
    return str(int(m.group(1)))


def read_node_counts(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its involved-node columns' "2/15" read as the involved nodes (2); other
    columns and cells unchanged."""
    return rewrite_named(df, NODES_NAME, involved_nodes, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} cell(s) written as involved nodes out of those "
        f"examined (e.g. '{_q(example, 30)}' as {new}) read as the involved nodes; the "
        "number examined is not read."), share=0.05)
