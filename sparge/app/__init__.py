"""Streamlit and plotly helpers for ``app.py`` and ``pages/`` (the only Streamlit code)."""
