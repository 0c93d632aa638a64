"""Entry script for the browser test of the lecture page (issue 13): the session state of
``sparge.app.shell.init_state`` (bundled sample, default model), then the page itself, without
depending on app.py's navigation."""

import runpy
import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sparge.app.shell import app_navigation, configure_samples, init_state  # noqa: E402

configure_samples(ROOT / "data_samples")

st.set_page_config(page_title="SparGE lecture", layout="wide")
with app_navigation():
    init_state()
runpy.run_path(str(ROOT / "pages" / "how_it_works.py"), run_name="__main__")
