"""The lecture page (pages/how_it_works.py) under AppTest: every control (issue 13).

The session state is set up as ``sparge.app.shell.init_state`` does (the default model and the
bundled sample), then the page file runs directly.
"""

from __future__ import annotations

import json

import pytest
from helpers import ROOT, SAMPLES
from streamlit.testing.v1 import AppTest

from sparge.services.persistence import load_model
from sparge.services.teaching import STEPS

PAGE = str(ROOT / "pages" / "how_it_works.py")


@pytest.fixture(scope="module")
def default_model():
    return load_model(SAMPLES / "default_model.sparge")


def start(default_model, **state) -> AppTest:
    model, encoder = default_model
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["model"] = model
    at.session_state["model_encoder"] = encoder
    at.session_state["model_name"] = "default model (pre-trained on the bundled sample)"
    at.session_state["model_token"] = "t"
    at.session_state["maps"] = {}
    at.session_state["selected"] = None
    at.session_state["lasso"] = []
    at.session_state["messages"] = []
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    ok(at)
    return at


def ok(at) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def figures(at) -> dict[str, dict]:
    """Every figure of the run by its chart key."""
    return {c.proto.id: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def by_title(at, words: str) -> dict:
    for spec in figures(at).values():
        if words in str(spec["layout"].get("title", {}).get("text", "")):
            return spec
    raise AssertionError(f"no figure titled with {words!r}")


def picture(spec: dict) -> tuple:
    """What a figure draws: its traces and its shapes/annotations (e.g. the kept rank)."""
    layout = spec["layout"]
    return spec["data"], layout.get("shapes"), layout.get("annotations")


def captions(at) -> str:
    return "\n".join(c.value for c in at.caption).replace("\\", "")


@pytest.fixture(scope="module")
def toy_page(default_model):
    return start(default_model)


def test_reading_mode_draws_every_step_with_formulas(toy_page):
    at = toy_page
    assert at.title[0].value == "How SparGE works"
    assert [h.value for h in at.header] == [s.title for s in STEPS]
    assert len(at.latex) == sum(len(s.formulas) for s in STEPS)
    assert any("Stiefel" in m.value for m in at.markdown)
    assert len(at.info) == sum(bool(s.correction) for s in STEPS)
    assert len(at.get("plotly_chart")) >= 11
    assert len(at.get("download_button")) == len(at.get("plotly_chart"))
    text = captions(at)
    assert "the rank cap keeps 2" in text and "hidden from the model" in text


def test_the_glossary_defines_the_words_and_finds_one(toy_page):
    """A teacher's class meets "trace ratio", "sparse weight", "precision@10": the
    reading mode has them defined in one searchable glossary, which says where each is
    met."""
    from sparge.services.glossary import GLOSSARY

    at = toy_page
    box = next(e for e in at.expander if e.label.startswith("Glossary"))
    assert f"{len(GLOSSARY)} words" in box.label
    table = box.table[0].value
    assert len(table) == len(GLOSSARY) and list(table.columns) == ["Meaning", "Where"]
    box.text_input(key="teach_glossary_search").input("stiefel").run()
    ok(at)
    box = next(e for e in at.expander if e.label.startswith("Glossary"))
    table = box.table[0].value
    assert [str(i) for i in table.index] == ["Stiefel manifold"]
    assert "orthonormal" in table.iloc[0]["Meaning"]
    assert table.iloc[0]["Where"].replace("\\", "").startswith("lecture: 5 · The embedding")
    box.text_input(key="teach_glossary_search").input("zebra").run()
    box = next(e for e in at.expander if e.label.startswith("Glossary"))
    assert not box.table and "No entry holds every word of 'zebra'" in box.info[0].value
    box.text_input(key="teach_glossary_search").input("").run()  # as the next tests expect
    assert not at.info or len(at.info) == sum(bool(s.correction) for s in STEPS)


@pytest.mark.parametrize("key, value, figure_title", [
    ("teach_rank", 4, "Singular values"),
    ("teach_completion_lambda", 0.3, "Singular values"),
    ("teach_n_atoms", 4, "The dictionary"),
    ("teach_r1", 0.6, "Sparse codes"),
    ("teach_k1", 7, "The two graphs"),
    ("teach_k2", 1, "The two graphs"),
    ("teach_n_components", 5, "After: the learned space"),
    ("teach_max_iter", 2, "Joint refinement"),
    ("teach_forest_weight", 0.0, "Look-alikes of patient"),
])
def test_every_toy_control_refits_and_changes_its_picture(default_model, key, value,
                                                          figure_title):
    at = start(default_model)
    before, cap_before = by_title(at, figure_title), captions(at)
    widget = at.slider(key=key) if key in {w.key for w in at.slider} else \
        at.select_slider(key=key)
    widget.set_value(value).run()
    ok(at)
    after = by_title(at, figure_title)
    assert picture(after) != picture(before), key
    assert captions(at) != cap_before
    assert at.session_state["teach_params"][key.removeprefix("teach_")] == value


def test_controls_survive_the_presentation_steps(default_model):
    at = start(default_model, teach_present=True)
    assert at.button(key="teach_prev").disabled
    at.button(key="teach_next").click().run()
    ok(at)
    assert at.header[0].value == STEPS[1].title
    at.slider(key="teach_rank").set_value(3).run()
    at.button(key="teach_next").click().run()   # the rank slider is now off screen
    ok(at)
    assert at.header[0].value == STEPS[2].title
    assert at.session_state["teach_params"]["rank"] == 3
    at.button(key="teach_prev").click().run()
    assert at.slider(key="teach_rank").value == 3
    # each tab's words are named by their tab (walk-through 88 read another tab's words
    # as the picture's): the singular values' and the patient's
    said = [c.value for c in at.caption]
    assert any(v.startswith("**Singular values:**") for v in said), said
    assert any(v.startswith("**Patient ") for v in said), said
    maps = 0
    for i in range(2, len(STEPS)):
        at.button(key="teach_next").click().run()
        ok(at)
        assert at.header[0].value == STEPS[i].title
        assert len(at.header) == 1 and at.get("plotly_chart")
        # the counter numbers the step as its title does ("5 · The embedding": step 5)
        assert at.get("progress")[0].proto.text.startswith(f"Step {i} of {len(STEPS) - 1}")
        assert STEPS[i].title.startswith(f"{i} · ")
        # legends at the figure's foot (above the plot they pushed it below the fold),
        # but beside a map drawn to one scale and the graphs (rows under them took the
        # height they needed: the embedding's map was a 110-pixel disc in a 620-pixel-wide
        # figure, the graphs 80-110 pixels tall)
        for spec in figures(at).values():
            if not spec["layout"].get("showlegend", True) or len(spec["data"]) < 2:
                continue
            legend = spec["layout"]["legend"]
            if spec["layout"].get("yaxis", {}).get("scaleanchor") == "x" or \
                    STEPS[i].key == "graphs":
                maps += 1
                assert legend.get("xanchor") == "left" and legend.get("x", 0) > 1, legend
            else:
                assert legend.get("yref") == "container", (STEPS[i].key, legend)
    assert maps >= 1  # the embedding's map at least
    assert at.button(key="teach_next").disabled
    assert "font-size" in at.markdown[0].value          # the large-type style block
    # a slide: its pictures in tabs, its words (speaker notes) off, the toolbar off the title
    assert at.tabs and not at.expander
    assert all(spec["layout"]["modebar"]["orientation"] == "v"
               for spec in figures(at).values())


def test_the_presentation_keeps_its_settings_in_one_row(default_model):
    """The slide's navigation and a Settings popover share the header row; the source,
    the followed patient and the look-alike count still work from the popover."""
    at = start(default_model, teach_present=True)
    popovers = at.get("popover")
    assert [p.proto.popover.label for p in popovers] == ["Settings"]
    inside = {c.type for c in popovers[0].children.values()}
    assert {"radio", "selectbox", "slider"} <= inside
    at.button(key="teach_next").click().run()
    at.radio(key="teach_source").set_value("Current model").run()
    ok(at)
    assert at.header[0].value == STEPS[1].title  # the slide stays
    assert at.session_state["teach_source"] == "Current model"
    at.slider(key="teach_k").set_value(3).run()
    ok(at)
    at.toggle(key="teach_present").set_value(False).run()
    ok(at)
    assert not at.get("popover") and len(at.header) == len(STEPS)


def test_slides_fit_the_chosen_screen_and_the_notes_are_on_request(default_model):
    """Walk-through 74: at 1024 x 768 a slide ran to 1,400-1,800 px below its navigation,
    beside a 300 px sidebar, with the speaker notes for the audience to read. Every figure
    of every slide is now no taller than the chosen screen leaves (the sidebar is hidden by
    the slide's style block); 1080 px gives the reading mode's figures; the notes come
    back with their toggle."""
    from sparge.app.lecture import SCREENS, SLIDE_BELOW, SLIDE_TOP

    def tallest(at) -> int:
        return max(spec["layout"]["height"] for spec in figures(at).values())

    at = start(default_model, teach_present=True)
    assert at.selectbox(key="teach_screen").value == SCREENS[0] == 720
    assert "stSidebar" in at.markdown[0].value and "display: none" in at.markdown[0].value
    # a whole figure (its toolbar strip and legend rows included) between the slide's
    # navigation and title above and its download button below
    most = SCREENS[0] - SLIDE_TOP - SLIDE_BELOW
    heights = []
    for i in range(len(STEPS)):
        ok(at)
        heights.append(tallest(at))
        assert heights[-1] <= most, (STEPS[i].title, heights[-1])
        assert not at.expander
        if i < len(STEPS) - 1:
            at.button(key="teach_next").click().run()
    at.selectbox(key="teach_screen").set_value(1080).run()  # the last slide stays
    ok(at)
    assert at.header[0].value == STEPS[-1].title
    for _ in range(len(STEPS) - 1):
        at.button(key="teach_prev").click().run()
    assert tallest(at) > heights[0]  # the table's heat map as tall as when reading
    at.toggle(key="teach_notes").set_value(True).run()
    ok(at)
    assert [e.label for e in at.expander] == ["What to say"]
    assert STEPS[0].words[:40] in " ".join(m.value for m in at.markdown)
    # both kept when the presentation is turned off and on again
    at.toggle(key="teach_present").set_value(False).run()
    at.toggle(key="teach_present").set_value(True).run()
    ok(at)
    assert at.selectbox(key="teach_screen").value == 1080
    assert at.toggle(key="teach_notes").value
    # ... and after another page, which forgets the widgets' own state (walk-through 76:
    # the popover then showed 720 px and notes off while the slides used the others)
    at.toggle(key="teach_present").set_value(False).run()
    for key in ("teach_screen", "teach_notes"):
        if key in at.session_state:
            del at.session_state[key]
    at.run()
    at.toggle(key="teach_present").set_value(True).run()
    ok(at)
    assert at.selectbox(key="teach_screen").value == 1080
    assert at.toggle(key="teach_notes").value and at.expander
    assert tallest(at) > heights[0]


def test_followed_patient_and_lookalike_count(default_model):
    at = start(default_model)
    before = by_title(at, "Look-alikes of patient P01")
    at.selectbox(key="teach_patient_toy").set_value(6).run()
    ok(at)
    by_title(at, "Look-alikes of patient P07")
    assert "Patient P07" in captions(at)
    box = by_title(at, "The table: ")["layout"]["shapes"][0]  # around row 6
    assert box["y0"] + box["y1"] == 12 and box["y0"] < 5.5
    at.slider(key="teach_k").set_value(8).run()
    ok(at)
    after = by_title(at, "Look-alikes of patient P07")
    assert len(after["data"][0]["x"]) == 8 and len(before["data"][0]["x"]) == 5
    assert at.dataframe[0].value.shape[0] == 8


def test_current_model_shows_what_it_did(default_model):
    model = default_model[0]
    at = start(default_model, teach_source="Current model")
    text = captions(at)
    n = len(model.completion_singular_values_)
    assert f"{n} of 463 components survived" in text
    assert f"keeps all {model.rank_}" in text
    assert "cannot be graded" in text
    assert "k₁ = 20, k₂ = 20" in text and "only patient SH0001's own" in text
    assert not any(w.key in {"teach_rank", "teach_k1", "teach_r1"} for w in at.slider)
    at.selectbox(key="teach_patient_model").set_value(10).run()
    ok(at)
    sid = str(model.train_ids_[10])
    assert f"Patient {sid}" in captions(at)
    # the toy keeps its own patient
    at.radio(key="teach_source").set_value("Toy cohort (live controls)").run()
    ok(at)
    assert "Patient P01" in captions(at)


def test_a_click_on_the_learned_map_follows_that_patient(monkeypatch):
    import sparge.app.lecture as ui

    fake = {"teach_map_after_toy": {"selection": {"points": [{"customdata": [17]}]}},
            "teach_patient_toy": 0}
    monkeypatch.setattr(ui.st, "session_state", fake)
    ui._pick_from_map("teach_map_after_toy", "teach_patient_toy")
    assert fake["teach_patient_toy"] == 17
    fake["teach_map_after_toy"] = {"selection": {"points": []}}   # a click on empty space
    ui._pick_from_map("teach_map_after_toy", "teach_patient_toy")
    assert fake["teach_patient_toy"] == 17
