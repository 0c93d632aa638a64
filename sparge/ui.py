"""Streamlit helpers shared by the pages: session state, the bundled sample, error guard.

The only module of the library that imports Streamlit. Patient data lives only in the
per-session ``st.session_state``; the bundled synthetic sample is cached process-wide.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from pathlib import Path

import numpy as np
import streamlit as st

from .encoding import read_table
from .errors import DataError
from .maps import MapProjector
from .persistence import load_model
from .workflow import Cohort, encode_cohort

SAMPLES = Path(__file__).resolve().parent.parent / "data_samples"
SAMPLE_CSV = SAMPLES / "singheart_synthetic.csv"
DEFAULT_MODEL = SAMPLES / "default_model.sparge"
GROUPS_JSON = SAMPLES / "biomarker_groups.json"
DEFAULT_MAP = SAMPLES / "default_map_umap.csv"
SAMPLE_ID, SAMPLE_LABEL = "Subject ID", "Outcome"


@st.cache_resource(show_spinner="Loading the sample cohort…")
def _sample_cohort() -> Cohort:
    return encode_cohort(read_table(SAMPLE_CSV), id_column=SAMPLE_ID,
                         label_column=SAMPLE_LABEL)


@st.cache_resource(show_spinner="Loading the default model…")
def _default_model():
    return load_model(DEFAULT_MODEL)


@st.cache_data
def _default_map() -> np.ndarray | None:
    """UMAP coordinates of the default model, computed by ``python -m sparge.make_samples``."""
    if not DEFAULT_MAP.exists():
        return None
    import pandas as pd

    return pd.read_csv(DEFAULT_MAP)[["x", "y"]].to_numpy()


@st.cache_data
def _sample_groups() -> dict:
    return json.loads(GROUPS_JSON.read_text())


def init_state() -> None:
    """First run of a session: the bundled sample and the pre-trained default model."""
    ss = st.session_state
    if "cohort" not in ss:
        ss.cohort = _sample_cohort()
        ss.cohort_name = "bundled sample (synthetic SingHEART-style cohort, 683 patients)"
    if "model" not in ss:
        model, encoder = _default_model()
        set_model(model, encoder, "default model (pre-trained on the bundled sample)")
        coords = _default_map()
        if coords is not None and len(coords) == len(model.embedding_):
            ss.maps["umap"] = MapProjector.from_coords("umap", coords)
    ss.setdefault("selected", None)
    ss.setdefault("lasso", [])
    ss.setdefault("messages", [])


def set_model(model, encoder, name: str) -> None:
    ss = st.session_state
    ss.model = model
    ss.model_encoder = encoder
    ss.model_name = name
    ss.model_token = uuid.uuid4().hex
    ss.selected = None
    ss.lasso = []
    ss.maps = {}


def set_cohort(cohort: Cohort, name: str) -> None:
    st.session_state.cohort = cohort
    st.session_state.cohort_name = name


def biomarker_groups(features: list[str]) -> dict[str, list[str]]:
    """Groups of the bundled sample when the features match, else one group."""
    groups = _sample_groups()
    known = {f for cols in groups.values() for f in cols}
    out = {g: [c for c in cols if c in features] for g, cols in groups.items()}
    out = {g: c for g, c in out.items() if c}
    rest = [f for f in features if f not in known]
    if rest:
        out["Other biomarkers" if out else "Biomarkers"] = rest
    return out


def projector(method: str) -> MapProjector:
    """The session's map of the current model (fitted once per model and method)."""
    ss = st.session_state
    maps = ss.setdefault("maps", {})
    if method not in maps:
        with st.spinner(f"Computing the {method.upper()} map…"):
            maps[method] = MapProjector(method).fit(ss.model)
    return maps[method]


@contextlib.contextmanager
def guard(action: str = "That"):
    """Show errors as readable messages (never a traceback); state is left untouched."""
    try:
        yield
    except DataError as exc:
        st.error(f"{action} did not work: {exc}")
    except MemoryError:
        st.error(f"{action} needs more memory than this machine has; try a smaller table.")
    except Exception as exc:  # noqa: BLE001 - the app must not show tracebacks
        st.error(f"{action} failed unexpectedly ({type(exc).__name__}: {exc}). Your data and "
                 "model are unchanged.")


def model_summary(model) -> str:
    n, l = model.embedding_.shape
    k = model._dictionary_r.shape[1]
    r = model.completion_components_.shape[0]
    sup = "supervised" if hasattr(model, "classes_") else "unsupervised"
    return (f"{n} patients · {model.n_features_in_} biomarkers · completion rank {r} · "
            f"{k} atoms · {l}-D embedding · {sup}")


def float_or_none(v):
    return None if v is None or (isinstance(v, float) and np.isnan(v)) else v


def show_lookalikes(model, table, query_std, name: str) -> None:
    """Render a look-alike table, its download, the biomarker comparison and outcome mix."""
    from .maps import feature_comparison
    from .plots import lookalike_comparison, outcome_share_bar
    from .workflow import outcome_shares

    st.dataframe(table.drop(columns=["training_index"]).round(4), hide_index=True,
                 column_config={"similarity": st.column_config.ProgressColumn(
                     "similarity", min_value=0.0, max_value=1.0, format="%.2f")})
    st.download_button("Download look-alikes (CSV)", table.to_csv(index=False),
                       file_name=f"lookalikes_{name}.csv", mime="text/csv")
    c1, c2 = st.columns([3, 1])
    comp = feature_comparison(model, query_std, table["training_index"].to_numpy())
    c1.plotly_chart(lookalike_comparison(comp), width="stretch")
    shares = outcome_shares(table)
    if len(shares):
        c2.plotly_chart(outcome_share_bar(shares), width="stretch")
