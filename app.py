"""SparGE Explorer: the Streamlit entry point (`streamlit run app.py`).

Opens on the bundled sample cohort with the pre-trained default model, so the first screen
is already a cohort map. Pages live in ``pages/``; all logic lives in ``sparge``.

The navigation is drawn with ``st.page_link`` (Material icons, no emoji font needed) and
``st.navigation(position="hidden")``: Streamlit's own sidebar navigation is switched off in
``.streamlit/config.toml`` (``client.showSidebarNavigation = false``), so a freshly started
server never shows its file-name list of ``pages/``. The sidebar's status (data, model) is
drawn after the page ran, so it names a model trained or loaded in this very run.
"""

from pathlib import Path

import streamlit as st

from sparge.app.shell import (
    NARROW_SIDEBAR_CSS,
    app_navigation,
    configure_samples,
    init_state,
    page_icon,
    sidebar_status,
)

configure_samples(Path(__file__).resolve().parent / "data_samples")

# the tab's icon is an image the app serves itself (a Material icon is fetched from Google)
st.set_page_config(page_title="SparGE Explorer", page_icon=page_icon(), layout="wide")
with app_navigation():
    init_state()

# (file in pages/ = URL path, title, Material icon); the first page opens by default.
PAGES = [("explore", "Explore", "map"), ("data", "Data", "table_view"),
         ("model", "Model", "model_training"), ("new_patient", "New patient", "person_add"),
         ("classifiers", "Classifiers", "bar_chart"), ("how_it_works", "How it works", "school")]
pages = {name: st.Page(f"pages/{name}.py", title=title, icon=f":material/{icon}:",
                       url_path=name if i else "start", default=i == 0)
         for i, (name, title, icon) in enumerate(PAGES)}


def _explore_by_name() -> None:
    """``/explore`` typed or bookmarked: the default page, which Streamlit serves at ``/``.

    Streamlit serves the default page at the root only; its own name found no page and a
    "Page not found" dialog showed before the map.
    """
    st.switch_page(pages["explore"])


# the default page reserves its url_path ("start") without serving it, hence the alias
explore_alias = st.Page(_explore_by_name, title="Explore", url_path="explore",
                        visibility="hidden")
nav = st.navigation([*pages.values(), explore_alias], position="hidden")
with st.sidebar:
    st.markdown(NARROW_SIDEBAR_CSS, unsafe_allow_html=True)
    st.markdown("**SparGE Explorer** finds look-alike patients with sparse coding and "
                "graph embedding.")
    for p in pages.values():
        st.page_link(p, width="stretch")
    status = st.container()
try:
    with app_navigation():
        nav.run()
finally:  # also after st.stop(): the status names what the page just trained or loaded
    with status:
        sidebar_status()
