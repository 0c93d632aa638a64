"""The glossary of the app and the lecture (``sparge.services.glossary``)."""

from __future__ import annotations

import re

from sparge.services import glossary as g
from sparge.services.lookalike_check import SHARE_BANDS
from sparge.services.teaching import STEPS
from sparge.services.typicality import ATYPICAL_SHARE

PAGES = {"Data", "Model", "Explore", "New patient", "Classifiers"}


def test_every_entry_points_somewhere_real_and_is_defined_once():
    keys = {s.key for s in STEPS}
    names = [t.term.casefold() for t in g.GLOSSARY]
    assert len(names) == len(set(names))
    for t in g.GLOSSARY:
        assert t.step is None or t.step in keys, t.term
        assert set(t.pages) <= PAGES, t.term
        assert t.step is not None or t.pages, f"{t.term}: met nowhere"
        assert t.meaning.endswith((".", ")")) and len(t.meaning) > 40, t.term
    # every lecture step has its words in the glossary
    assert keys == {t.step for t in g.GLOSSARY if t.step is not None}


def test_the_frame_is_alphabetical_and_names_the_lecture_step():
    frame = g.glossary_frame()
    assert list(frame.columns) == ["Term", "Meaning", "Where"]
    assert len(frame) == len(g.GLOSSARY)
    terms = frame["Term"].tolist()
    assert terms == sorted(terms, key=str.casefold)
    row = frame.set_index("Term").loc["Stiefel manifold"]
    title = next(s.title for s in STEPS if s.key == "embedding")
    assert row["Where"] == f"lecture: {title}"
    assert frame.set_index("Term").loc["Held-out check", "Where"] == "Model"


def test_search_keeps_entries_holding_every_word_in_name_or_meaning():
    assert g.glossary_frame("forest leaf")["Term"].tolist() == ["Random-forest proximity"]
    # in the meaning only, any case
    found = g.glossary_frame("PER-CLASS recall")["Term"].tolist()
    assert found == ["Balanced accuracy"]
    assert g.glossary_frame("  ").shape[0] == len(g.GLOSSARY)
    # a plural finds its singular (a lecturer's "codes" found nothing)
    assert "Sparse code" in g.glossary_frame("codes")["Term"].tolist()
    assert g.glossary_frame("eigenvectors")["Term"].tolist() == ["Eigenvector, eigenvalue"]
    # the words a lecturer's class searched for
    for word in ("nuclear norm", "Frobenius", "MFA", "ridge", "sparsity", "active set",
                 "posterior", "representation"):
        assert len(g.glossary_frame(word)), word
    assert g.glossary_frame("no such word anywhere").empty


def test_numbers_said_are_the_codes_own():
    text = " ".join(t.term + " " + t.meaning for t in g.GLOSSARY)
    assert f"{100 * ATYPICAL_SHARE:.0f} %" in text
    assert f"in {SHARE_BANDS} bands" in text
    assert f"precision@{g.LOOKALIKES}" in text and f"vote of the {g.VOTE} nearest" in text
    # the defaults the glossary states are the app's
    import inspect

    from sparge.services import lookalike_check, workflow

    assert inspect.signature(workflow.lookalike_table).parameters["n_neighbors"].default \
        == g.LOOKALIKES
    assert re.search(rf"k_vote: int = {g.VOTE}\b", inspect.getsource(lookalike_check))
