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


class _Model:
    """A stand-in for a fitted model: any object that can be weakly referenced."""


def test_model_cache_computes_once_per_model_for_every_session_and_frees_with_it():
    """A value of the model alone (the New patient page's reference of typical misfits,
    3-10 s on the sample) is computed once per model object, whichever session asks; another
    model gets its own, and a model's values go with it."""
    import gc

    from sparge.app.lookalikes import _BY_MODEL, model_cache

    calls = []

    def compute(tag):
        def run():
            calls.append(tag)
            return np.arange(3) + len(calls)
        return run

    a, b = _Model(), _Model()
    first = model_cache("reference", a, compute("a"))
    assert model_cache("reference", a, compute("a again")) is first  # another session
    assert calls == ["a"]
    other = model_cache("reference", b, compute("b"))
    assert calls == ["a", "b"] and not np.array_equal(other, first)
    model_cache("ranges", a, compute("a ranges"))  # another name: its own value
    assert calls == ["a", "b", "a ranges"]
    del a
    gc.collect()
    assert b in _BY_MODEL and len([m for m in _BY_MODEL.keys() if isinstance(m, _Model)]) == 1
