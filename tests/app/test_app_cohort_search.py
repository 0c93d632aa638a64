"""New patient page: look-alikes among a whole embedded cohort folder (issue 14.4)."""

from __future__ import annotations

import pytest
from app_support import start
from helpers import SAMPLES

pytest.importorskip("distributed")
pytest.importorskip("pyarrow")
pytestmark = pytest.mark.filterwarnings(
    "ignore:The inplace keyword in DataFrame.reset_index:DeprecationWarning")


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    """The bundled cohort embedded with the default model (one partition)."""
    from sparge.services.distributed import dask_client, embed_cohort

    out = tmp_path_factory.mktemp("np_cohort") / "embedded"
    with dask_client(n_workers=1, processes=False) as client:
        embed_cohort(SAMPLES / "default_model.sparge", SAMPLES / "singheart_synthetic.csv",
                     out, client=client)
    return out


def _with_patient():
    at = start("pages/new_patient.py")
    at.radio(key="np_mode").set_value("CSV file").run()
    one = (SAMPLES / "new_patient.csv").read_bytes()
    at.file_uploader(key="np_upload").set_value(("p.csv", one, "text/csv")).run()
    assert not at.exception
    return at


def test_lookalikes_among_an_embedded_cohort_folder(embedded):
    at = _with_patient()
    at.text_input(key="np_cohort_dir").input(str(embedded)).run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [d.value for d in at.dataframe if "sparse weight" in d.value.columns]
    assert tables and len(tables[0]) == 10
    assert any("683 embedded patients" in c.value and "exact search" in c.value
               for c in at.caption)
    index = at.session_state["cohort_index"][2]
    at.slider(key="np_k").set_value(15).run()  # a new query reuses the session's index
    assert at.session_state["cohort_index"][2] is index
    assert len(next(d.value for d in at.dataframe if "sparse weight" in d.value.columns)) == 15


def test_a_folder_that_is_no_embedded_cohort_gets_a_message(tmp_path):
    at = _with_patient()
    at.text_input(key="np_cohort_dir").input(str(tmp_path)).run()
    assert not at.exception
    assert any("not a complete embedded cohort" in e.value for e in at.error)
