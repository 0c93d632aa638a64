"""What the AppTest tests share: the app started headless on a page with session state."""

from __future__ import annotations

import numpy as np
from helpers import ROOT, SAMPLES
from streamlit.testing.v1 import AppTest

APP = str(ROOT / "app.py")
#: The bundled small sample's bytes, as an upload gives them.
SMALL = (SAMPLES / "singheart_small.csv").read_bytes()


def _narrow(blob: bytes, numeric: int = 30) -> bytes:
    """The table's text columns, its age and its first ``numeric`` other numeric columns:
    for the Data page's tests of what a table's width does not change (each encoding of
    the 469-column sample cost an AppTest run seconds)."""
    import io

    import pandas as pd

    df = pd.read_csv(io.BytesIO(blob))
    numbers = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    keep = {c for c in df.columns if c not in numbers} | {"Age (years)"} | set(numbers[:numeric])
    return df[[c for c in df.columns if c in keep]].to_csv(index=False).encode()


#: The small sample narrowed to 51 columns (its 60 patients, outcome and answers kept).
NARROW = _narrow(SMALL)


def texts(at) -> str:
    """Every text element of the page and the sidebar's captions, Markdown escapes
    removed."""
    parts = [e.value for kind in ("markdown", "caption", "success", "error", "warning",
                                  "info", "subheader", "title") for e in getattr(at, kind)]
    parts += [e.value for e in at.sidebar.caption]
    return "\n".join(str(p) for p in parts).replace("\\", "")


def plotly_array(value) -> np.ndarray:
    """An array of a Plotly JSON spec (plain list or base64 typed array)."""
    if isinstance(value, dict) and "bdata" in value:
        import base64

        arr = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return arr.reshape([int(n) for n in str(shape).split(",")]) if shape else arr
    return np.asarray(value, dtype=float)


def start(page: str | None = None, query: dict | None = None, **state) -> AppTest:
    """Run app.py once (its first screen), set ``state`` and the URL's ``query``, then open
    ``page``; fails on any exception."""
    at = AppTest.from_file(APP, default_timeout=300)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    for k, v in state.items():
        at.session_state[k] = v
    if page:
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown_table(at: AppTest, column: str):
    """The first static table (``st.table``) with ``column``, as read: its cells and row
    names are Markdown-escaped for display (a ">90" became a quote), so the escapes are
    taken out here."""
    import re

    frame = next(t.value for t in at.table if column in t.value.columns)

    def plain(v):
        return re.sub(r"\\(.)", r"\1", v) if isinstance(v, str) else v

    out = frame.map(plain)
    out.index = type(frame.index)([plain(v) for v in frame.index], name=frame.index.name)
    return out
