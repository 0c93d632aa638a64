"""The pages' per-session cache: what makes two keys the same."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sparge.app.lookalikes import _same_key


def test_objects_are_the_same_key_by_identity_plain_values_by_value():
    """A table or a file's bytes is the same key only as the same object (held by the
    cache: a new table never takes a forgotten one's ``id``); strings, numbers (numpy's
    too) and tuples of them by value: the age form's key holds a tuple built anew on every
    run, which an identity test would miss every time."""
    df = pd.DataFrame({"a": [1, 2]})
    assert _same_key((df, "born", ("Age",), None, np.int64(3)), (df, "born", ("Age",), None, 3))
    assert not _same_key((df,), (df.copy(),))  # an equal table, another upload
    assert not _same_key((b"a,b\n1,2\n",), (bytes(bytearray(b"a,b\n1,2\n")),))
    assert not _same_key(("a",), ("a", 1))
    assert not _same_key((("Age",),), (("Age", "Weight"),))
