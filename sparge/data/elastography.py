"""Liver stiffness and fat written with the measurement's quality.

A hepatology clinic writes a transient elastography (FibroScan) result with how
reliable it was: "6.7 kPa (IQR 12%)", "12.3 kPa, IQR/med 18%", "288 dB/m (SR 90%)", and
"failed" or "unreliable" when no valid measurement was made. Walk-through 70's
"FibroScan LSM (kPa)", the strongest predictor of decompensation in its clinic, was left
out as free text (every cell with an IQR was an answer of its own). Here a column named
for elastography reads such a cell as its number (in its unit) and a failed or unreliable
measurement as not measured; a note says how many.

Pure functions on a table of text cells.
"""

from __future__ import annotations

import re

import pandas as pd

from sparge.data.combined_cells import rewrite_named
from sparge.data.safe_text import quote as _q

#: A column of elastography results, by its name.
ELASTOGRAPHY_NAME = re.compile(
    r"fibro\s?scan|\blsm\b|liver\s+stiffness|elastograph|\bvcte\b|\bswe\b|\bcap\b|"
    r"controlled\s+attenuation", re.IGNORECASE)
#: The number, its unit, then the quality in brackets or after a comma: "IQR 12%",
#: "IQR/med 18%", "IQR/M 0.2", "SR 90%", "success rate 80%".
_WITH_QUALITY = re.compile(
    r"\s{0,3}(\d{1,3}(?:\.\d{1,2})?)\s{0,3}(kpa|db/m)?\s{0,3}[(\[,;]?\s{0,3}"
    r"(?:iqr(?:\s{0,2}/\s{0,2}(?:med(?:ian)?|m))?|sr|success\s+rate)\s{0,3}[:=]?\s{0,3}"
    r"\d{1,3}(?:\.\d{1,2})?\s{0,2}%?\s{0,3}[)\]]?\s{0,3}", re.IGNORECASE)
#: No valid measurement: read as not measured.
_FAILED = frozenset({"failed", "unreliable", "invalid", "unsuccessful", "failed scan",
                     "unreliable scan", "not reliable", "no valid measurements",
                     "no valid measurement", "fail"})


def _read(cell: str) -> str | None:
    text = str(cell).strip()
    if len(text) > 40:
        return None
    if text.lower() in _FAILED:
        return ""
    m = _WITH_QUALITY.fullmatch(text)
    if m is None:
        return None
    return m.group(1) + (f" {m.group(2)}" if m.group(2) else "")


def read_elastography(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its elastography columns' results written with their quality read as
    the number in its unit ("6.7 kPa (IQR 12%)" as "6.7 kPa") and a failed or unreliable
    measurement as empty (not measured); other columns and cells unchanged."""
    return rewrite_named(df, ELASTOGRAPHY_NAME, _read, lambda col, n, example, new: (
        f"Column '{_q(col)}': {n:,} cell(s) written with the measurement's quality or "
        f"saying it failed (e.g. '{_q(example, 30)}' as "
        f"{repr(new) if new else 'not measured'}): the result is read, its IQR or "
        "success rate is not, and a failed or unreliable measurement is a gap."),
        share=0.02)
