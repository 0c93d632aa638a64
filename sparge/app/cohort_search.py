"""Streamlit part of the search among a whole embedded cohort (New patient page).

A hospital's cohort is embedded once, outside the app (``python -m sparge embed MODEL
SOURCE -o FOLDER``, :mod:`sparge.services.distributed`); here the folder is opened once
per session into a :class:`~sparge.services.cohort_index.CohortIndex` (kept in the
session, rebuilt only for another folder or model) and every query is answered from it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from sparge.app.shell import guard
from sparge.data.safe_text import md_escape, plain_frame, to_csv
from sparge.services.cohort_index import CohortIndex

_KEY = "cohort_index"
#: Embedded patients up to which the app searches exactly.
APP_EXACT_UP_TO = 2_000_000


def cohort_index(folder: str, model) -> CohortIndex:
    """The session's index of ``folder`` for ``model`` (built on first use)."""
    ss = st.session_state
    path = str(Path(folder).expanduser().resolve())
    held = ss.get(_KEY)
    if held is not None and held[0] == path and held[1] is model:
        return held[2]
    ss.pop(_KEY, None)  # free the previous cohort's index before building another
    with st.spinner("Reading the embedded cohort and building its look-alike index…"):
        # exact up to 2 million patients: a one-patient query stays far under a second
        # (30 ms at 1 M, bench/results/scale_neighbors.md) and the index is built several
        # times faster than an NN-descent one, which a waiting browser session feels
        index = CohortIndex(path, model, threshold=APP_EXACT_UP_TO)
    ss[_KEY] = (path, model, index)
    return index


def search_embedded_cohort(model, Xq: pd.DataFrame, qid: str, k: int,
                           matched: bool = False) -> None:
    """The look-alikes of one patient among every patient of an embedded cohort folder.

    Folded away: it needs a folder that a data team prepared on the server, which most
    users of the page do not have (a walk-through read the open section as developer text).
    ``matched``: the look-alikes above are matched exactly on some biomarkers, which this
    search does not do (said).
    """
    opened = bool(st.session_state.get("np_cohort_dir", "").strip())
    with st.expander("Optional: search a whole cohort prepared by your data team",
                     expanded=opened):
        _embedded_search(model, Xq, qid, k, matched)


def _embedded_search(model, Xq: pd.DataFrame, qid: str, k: int, matched: bool) -> None:
    st.caption("A cohort too large to train on or to upload can be embedded once on this "
               "machine or a cluster by your data team (`python -m sparge embed MODEL "
               "SOURCE -o FOLDER`, see the README's *Beyond one machine*). Give that folder "
               "to search all of its patients; it is read once per session.")
    folder = st.text_input("Embedded cohort folder (on this server)", key="np_cohort_dir",
                           placeholder="/data/embedded_cohort")
    if not folder.strip():
        return
    with guard("Searching the embedded cohort"):
        try:
            index = cohort_index(folder.strip(), model)
        except ImportError as exc:
            st.error("Reading an embedded cohort needs pyarrow (pip install -r "
                     f"requirements-scale.txt): {md_escape(exc, 200)}")
            return
        table, shares = index.lookalikes(Xq, n_neighbors=k, query_ids=[qid])
        how = "exact search" if index.method_ == "exact" else "approximate search (NN-descent)"
        st.caption(f"{index.n_patients_:,} embedded patients · {how} · index built in "
                   f"{index.build_seconds_:.1f} s"
                   + (" · not matched on the biomarkers chosen above: every embedded "
                      "patient is searched" if matched else ""))
        shown = table.drop(columns=["query"]).rename(columns={
            "rank": "#", "distance": "distance", "similarity": "similarity",
            "sparse_weight": "sparse weight"})
        st.dataframe(plain_frame(shown), hide_index=True, width="stretch")
        if len(shares.columns):
            st.caption("Outcomes among these look-alikes (those with one recorded): " +
                       md_escape(", ".join(f"{c} {100 * v:.0f}%"
                                           for c, v in shares.iloc[0].items())))
        st.download_button("Download these look-alikes (CSV)", to_csv(table),
                           file_name="cohort_lookalikes.csv", mime="text/csv",
                           key="np_cohort_download")
