"""How it works: the method as a lecture, on a live toy cohort or on the current model."""

import streamlit as st

from sparge.app.lecture import lecture
from sparge.app.shell import guard, init_state

if "model" not in st.session_state:
    init_state()  # a deep link as a fresh server's first request: runs app.py first
with guard("Drawing the lecture"):
    lecture()
