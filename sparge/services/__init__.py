"""Services shared by the command line and the app: training workflow, comparison,
persistence, maps, teaching computations, clinical display. Never imports Streamlit."""
