"""The lecture page in a real browser at 1280×720 (issue 13): the presentation is stepped
through on the toy cohort and on the default model, every control is moved once and the
figures must change; a screenshot of every step goes to ``test-artifacts/teaching/``.

The server runs ``tests/app/teaching_entry.py`` (the session state of ``init_state``, then the
page), so the test does not depend on app.py's navigation.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from pathlib import Path

import pytest
from browser_support import chromium, serve, stop
from helpers import ROOT

from sparge.services.teaching import STEPS

ARTIFACTS = ROOT / "test-artifacts" / "teaching"
ENTRY = ROOT / "tests" / "app" / "teaching_entry.py"

pytestmark = pytest.mark.browser

#: Step -> the controls shown on it (label text of the widget).
CONTROLS = {
    "completion": ["Rank kept", "λ (fraction of the largest singular value)"],
    "dictionary": ["Atoms k"],
    "codes": ["r₁ (sparsity weight)"],
    "graphs": ["k₁ (same-outcome neighbours)", "k₂ (other-outcome neighbours)"],
    "embedding": ["Dimensions l"],
    "refinement": ["Refinement iterations (max_iter)|Home"],
    "lookalikes": ["Look-alikes per patient", "Forest proximity in the distance|End"],
}
FIGURES_JS = ("() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
              ".map(e => JSON.stringify([e.data || [], (e.layout || {}).shapes || [],"
              " ((e.layout || {}).title || {}).text || ''])).join('|')")


@pytest.fixture(scope="module")
def server():
    proc, url = serve(ENTRY, ROOT)
    yield url
    stop(proc)


def _figures(page) -> str:
    return hashlib.sha256(page.evaluate(FIGURES_JS).encode()).hexdigest()


def _settle(page, timeout: float = 60.0) -> None:
    """Wait until the app is idle (no running indicator) and the figures stop changing."""
    deadline = time.time() + timeout
    time.sleep(0.25)
    last = None
    while time.time() < deadline:
        running = page.locator("[data-testid='stStatusWidget']").count() > 0
        now = _figures(page)
        if not running and now == last:
            return
        last = now
        time.sleep(0.3)


def _no_error(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("This app has encountered an error").count() == 0
    assert page.get_by_text("did not work").count() == 0
    assert page.get_by_text("failed unexpectedly").count() == 0


def _changes(page, action, what: str) -> None:
    """Run ``action`` and require the figures to change."""
    before = _figures(page)
    action()
    deadline = time.time() + 60
    while time.time() < deadline and _figures(page) == before:
        time.sleep(0.3)
    _settle(page)
    _no_error(page)
    assert _figures(page) != before, f"moving {what!r} did not change any figure"


def _move_slider(page, label: str) -> None:
    """Move a slider one step right (every control starts below its maximum), or press the
    key given after "|" (``Home``: its minimum)."""
    label, _, key = label.partition("|")
    in_settings = label == "Look-alikes per patient"  # the header's, in the popover
    if in_settings:
        _settings(page)
    box = page.locator("[data-testid='stSlider']").filter(has_text=label).first
    thumb = box.get_by_role("slider").first
    thumb.focus()
    thumb.press(key or "ArrowRight")
    if in_settings:
        _close_settings(page)


def _step_title(page, i: int) -> None:
    page.get_by_text(f"Slide {i + 1} of {len(STEPS)}").first.wait_for(timeout=60_000)
    page.get_by_role("heading", name=STEPS[i].title).first.wait_for(timeout=60_000)


def _walk(page, prefix: str, move_controls: bool) -> None:
    for i, step in enumerate(STEPS):
        _step_title(page, i)
        _settle(page)
        _no_error(page)
        assert page.locator(".js-plotly-plot").count() >= 1, step.key
        # a slide is the 1280 x 720 screen (the default fit): the figure shown whole, no
        # sidebar beside it (walk-through 74: 1,400-1,800 px tall beside a 300 px sidebar)
        bottom = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('.js-plotly-plot')]"
            ".map(e => e.getBoundingClientRect()).filter(r => r.width > 0)"
            ".map(r => r.bottom))")
        assert bottom <= 720, (step.key, bottom)
        # the figure's words start beside it, on the screen (under the figure they fell
        # below it: a lecturer never saw "75% before, 76% after")
        said = page.locator(".st-key-teach_slide_captions [data-testid='stCaptionContainer']")
        assert said.count() >= 1, step.key
        assert said.first.bounding_box()["y"] < 650, (step.key, said.first.bounding_box())
        # ... and the words column ends on the screen, scrolling on its own when they are
        # long (the embedding's caption ran the slide to 900 px, under the projector's foot)
        words = page.locator(".st-key-teach_step_cols [data-testid='stColumn']").first
        box = words.bounding_box()
        assert box["y"] + box["height"] <= 720 + 1, (step.key, box)
        assert not page.locator("[data-testid='stSidebar']").first.is_visible()
        page.screenshot(path=str(ARTIFACTS / f"{prefix}_{i + 1}_{step.key}.png"))
        said.last.scroll_into_view_if_needed()
        assert said.last.bounding_box()["y"] < 720, step.key  # reachable by scrolling it
        words.evaluate("e => { e.scrollTop = 0; }")
        if move_controls:
            for label in CONTROLS.get(step.key, []):
                _changes(page, lambda label=label: _move_slider(page, label),
                         label.partition("|")[0])
            if step.key in CONTROLS:
                page.screenshot(path=str(ARTIFACTS / f"{prefix}_{i + 1}_{step.key}_moved.png"))
        if i < len(STEPS) - 1:
            page.get_by_role("button", name="Next").click()


def test_lecture_presentation_in_chromium(server):
    with chromium() as browser:
        if ARTIFACTS.exists():
            shutil.rmtree(ARTIFACTS)
        ARTIFACTS.mkdir(parents=True)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_text("How SparGE works").first.wait_for(timeout=90_000)
        page.locator(".js-plotly-plot").first.wait_for(timeout=90_000)
        _settle(page)
        _no_error(page)
        page.screenshot(path=str(ARTIFACTS / "reading_mode_top.png"))
        page.get_by_text("Presentation mode").first.click()
        _step_title(page, 0)
        _settle(page)
        # a figure downloads as a self-contained HTML file (no external script)
        with page.expect_download() as info:
            page.get_by_text("Download figure (HTML, works offline)").first.click()
        html = Path(info.value.path()).read_text(encoding="utf-8")
        assert "<script" in html and len(html) > 1_000_000       # plotly.js inside
        assert not re.search(r"<script[^>]*\bsrc=", html)        # nothing fetched
        _settle(page)
        # the followed patient changes the pictures too
        _changes(page, lambda: _choose_patient(page), "followed patient")
        _walk(page, "toy", move_controls=True)
        # back to the start, then the default model
        for _ in range(len(STEPS) - 1):
            page.get_by_role("button", name="Back").click()
            time.sleep(0.3)
        _step_title(page, 0)
        def current_model() -> None:
            _settings(page)
            page.get_by_text("Current model", exact=True).click()
            _close_settings(page)

        _changes(page, current_model, "source")
        _walk(page, "model", move_controls=False)
    shots = sorted(ARTIFACTS.glob("*.png"))
    assert len(shots) >= 2 * len(STEPS) + 1
    assert all(s.stat().st_size > 10_000 for s in shots)


def _settings(page) -> None:
    """Open the presentation's Settings popover (source, followed patient, look-alikes)."""
    page.get_by_role("button", name="Settings").first.click()
    page.get_by_text("Show the steps on").first.wait_for(timeout=30_000)


def _choose_patient(page) -> None:
    _settings(page)
    box = page.locator("[data-testid='stSelectbox']").filter(has_text="Followed patient")
    combo = box.first.get_by_role("combobox")
    combo.click()
    combo.fill("P04")
    option = page.get_by_role("option").filter(has_text="P04").first
    if not option.is_visible():
        combo.press("ArrowDown")
    option.click()
    _close_settings(page)


def _close_settings(page) -> None:
    page.keyboard.press("Escape")
    shown = page.get_by_text("Show the steps on").first
    if shown.is_visible():
        page.get_by_role("button", name="Settings").first.click()
    shown.wait_for(state="hidden", timeout=30_000)
