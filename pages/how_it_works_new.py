"""How it works: the method as a lecture, on a live toy cohort or on the current model."""

import streamlit as st

from sparge.ui import guard, init_state
from sparge.ui_teaching import lecture

if "model" not in st.session_state:
    init_state()  # a deep link as a fresh server's first request: runs app.py first
st.title("How SparGE works")
st.caption("Follow one patient from its raw row to its look-alikes. On the toy cohort every "
           "control refits the model; on the current model the pictures show what it did.")
with guard("Drawing the lecture"):
    lecture()
