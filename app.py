"""SparGE Explorer: the Streamlit entry point (`streamlit run app.py`).

Opens on the bundled sample cohort with the pre-trained default model, so the first screen
is already a cohort map. Pages live in ``pages/``; all logic lives in ``sparge``.
"""

import streamlit as st

from sparge.ui import init_state, model_summary

st.set_page_config(page_title="SparGE Explorer", page_icon="🫀", layout="wide")
init_state()

pages = [
    st.Page("pages/explore.py", title="Explore", icon="🗺️", default=True),
    st.Page("pages/data.py", title="Data", icon="📄"),
    st.Page("pages/model.py", title="Model", icon="⚙️"),
    st.Page("pages/new_patient.py", title="New patient", icon="🧑‍⚕️"),
    st.Page("pages/classifiers.py", title="Classifiers", icon="📊"),
    st.Page("pages/how_it_works.py", title="How it works", icon="🎓"),
]
nav = st.navigation(pages)
with st.sidebar:
    st.markdown("**SparGE Explorer** finds look-alike patients with sparse coding and "
                "graph embedding.")
    st.caption(f"Data: {st.session_state.cohort_name}")
    st.caption(f"Model: {st.session_state.model_name}")
    st.caption(model_summary(st.session_state.model))
    st.caption("Your data stays on this machine; nothing is sent anywhere.")
nav.run()
