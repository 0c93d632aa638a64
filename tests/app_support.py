"""What the AppTest tests share: the app started headless on a page with session state."""

from __future__ import annotations

from helpers import ROOT
from streamlit.testing.v1 import AppTest

APP = str(ROOT / "app.py")


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
