"""End to end in a real browser: `streamlit run app.py`, headless Debian chromium driven by
Playwright. The sample map and a look-alike table must appear; a freshly started server's
first request (a deep link) shows our navigation, never Streamlit's file-name list; the data
setup stays editable after encoding and a re-upload of the same file is set up again; the
untouched Model form trains and the sidebar names the new model; the Classifiers page runs.
Screenshots (1400 and 800 px wide) are saved to ``test-artifacts/``."""

from __future__ import annotations

import time

import pytest
from browser_support import chromium, serve, stop
from helpers import ROOT

ARTIFACTS = ROOT / "test-artifacts"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    proc, url = serve("app.py", ROOT)
    yield url
    stop(proc)


@pytest.fixture
def browser():
    ARTIFACTS.mkdir(exist_ok=True)
    with chromium() as b:
        yield b


def test_fresh_server_first_request_shows_our_navigation(server, browser):
    """Issue 9.11: a deep link as a fresh server's first request shows our navigation and
    the page, never Streamlit's file-name list of pages/ ("app, classifiers, data ...").
    The module's first test: its request is the server's first (a server of its own
    cost every run a start and an encoding of the sample)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    outside = []  # clinical data stays on the machine: no request leaves the app's server
    page.on("request", lambda r: None if r.url.startswith((server, "data:", "blob:"))
            else outside.append(r.url))
    page.goto(f"{server}/model", wait_until="domcontentloaded")
    deadline = time.time() + 120
    while time.time() < deadline:
        # sampled while loading: the built-in file-name navigation must never show
        assert page.locator("[data-testid='stSidebarNav']").count() == 0
        if page.locator("h1", has_text="Model").count() and \
                page.locator("[data-testid='stPageLink']").count() == 6:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the Model page with our navigation did not appear")
    links = page.locator("[data-testid='stPageLink']").all_inner_texts()
    # each link: its Material icon (a font ligature, e.g. "map") and its title
    assert [t.strip().split("\n")[-1] for t in links] == ["Explore", "Data", "Model", "New patient",
                                          "Classifiers", "How it works"]
    assert page.get_by_text("app", exact=True).count() == 0
    assert page.url.endswith("/model")
    _settle(page)
    assert page.locator("[data-testid='stSidebarNav']").count() == 0
    _no_error(page)
    # the tab's icon included (a Material page icon is fetched from fonts.gstatic.com)
    assert outside == []
    # the URL follows the page
    _go(page, "Classifiers", "Classifiers")
    assert page.url.endswith("/classifiers")
    page.close()


def test_sample_map_and_lookalikes_in_chromium(server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    # A deep link as a new session's first request: the page must find its session
    # state (the server's very first request is the test above's).
    page.goto(f"{server}/how_it_works", wait_until="domcontentloaded")
    page.get_by_text("How SparGE works").first.wait_for(timeout=90_000)
    # the step's heading (the glossary, folded, names the step too)
    page.get_by_role("heading", name="1 · Fill the gaps with a low-rank matrix").first.wait_for(
        timeout=60_000)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("This app has encountered an error").count() == 0
    # the map typed by its name: Streamlit serves the default page at "/" only, and a
    # "Page not found" dialog showed before it
    page.goto(f"{server}/explore", wait_until="domcontentloaded")
    page.get_by_text("Explore the cohort").first.wait_for(timeout=90_000)
    page.locator(".js-plotly-plot").first.wait_for(timeout=90_000)
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator(".js-plotly-plot .scattergl, .js-plotly-plot canvas").count() > 0
    box = page.get_by_label("Find patient by ID")
    box.fill("SH0001")
    box.press("Enter")
    page.get_by_text("Patient SH0001").first.wait_for(timeout=60_000)
    page.get_by_text("Download look-alikes (CSV)").first.wait_for(timeout=60_000)
    page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=60_000)
    time.sleep(1.5)
    page.screenshot(path=str(ARTIFACTS / "explore_lookalikes.png"), full_page=True)
    assert page.locator("[data-testid='stException']").count() == 0
    assert (ARTIFACTS / "explore_lookalikes.png").stat().st_size > 10_000


def _no_error(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("This app has encountered an error").count() == 0


def _go(page, title: str, heading: str) -> None:
    """Open a page with our sidebar link (client-side: the session and its data stay)."""
    page.locator("[data-testid='stPageLink'] a", has_text=title).first.click()
    page.locator("h1", has_text=heading).first.wait_for(timeout=60_000)


#: What the page shows, in a few numbers: unchanged twice in a row, the page is drawn.
_SHOWN_JS = ("() => [document.body.innerText.length,"
             " document.querySelectorAll('.js-plotly-plot .main-svg, canvas').length,"
             " document.querySelectorAll('[data-testid=\"stDataFrame\"]').length]")


def _settle(page, seconds: float = 1.5) -> None:
    """Wait until the script run is over (no 'Running' status) and the page stops changing
    (its text, charts and tables), for at most ``seconds`` after the run (a fixed wait of
    1.5 s each time was a fifth of these tests' time)."""
    deadline = time.time() + 120
    while time.time() < deadline:
        if page.locator("[data-testid='stStatusWidget']").count() == 0:
            break
        time.sleep(0.3)
    until, last = time.time() + seconds, None
    while time.time() < until:
        time.sleep(0.3)
        shown = page.evaluate(_SHOWN_JS)
        if shown == last and page.locator("[data-testid='stStatusWidget']").count() == 0:
            return
        last = shown


def _shots(page, name: str) -> None:
    """Screenshots 1400 and 800 px wide; tall, since Streamlit scrolls inside its main area."""
    for width in (1400, 800):
        page.set_viewport_size({"width": width, "height": 3400})
        _settle(page)
        page.evaluate("for (const el of document.querySelectorAll('*')) "
                      "{ if (el.scrollTop) el.scrollTop = 0; }")
        time.sleep(0.5)
        page.screenshot(path=str(ARTIFACTS / f"{name}_{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1000})
    _settle(page, 0.5)


def test_setup_train_and_classifiers_in_chromium(server, browser):
    """Issue 9.6 (setup editable after encoding; re-upload), 9.1/9.9 (untouched form trains;
    the sidebar names the new model at once), 9.10/9.11 (Classifiers page, screenshots)."""
    small = ROOT / "data_samples" / "singheart_small.csv"
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/data", wait_until="domcontentloaded")
    page.locator("h1", has_text="Data").first.wait_for(timeout=90_000)
    uploader = page.locator("[data-testid='stFileUploaderDropzoneInput']").first
    uploader.set_input_files(str(small))
    page.get_by_text("Set up the new table").first.wait_for(timeout=60_000)
    _settle(page)

    def setup_value(label: str) -> str:
        return page.get_by_role("combobox", name=label).first.input_value()

    assert setup_value("Patient ID column") == "Subject ID"  # guessed
    assert setup_value("Outcome column") == "Outcome"
    assert page.locator("[data-testid='stDataFrame']").count() >= 1  # the preview
    page.get_by_role("button", name="Encode this table").click()
    page.get_by_text("Table encoded").first.wait_for(timeout=60_000)
    _settle(page)
    # the setup stays, editable, for the encoded table
    assert page.get_by_text("Set up the current table").count() == 1
    assert setup_value("Outcome column") == "Outcome"
    assert page.get_by_role("button", name="Encode this table").count() == 1
    _no_error(page)
    _shots(page, "data")
    # the same file chosen again is set up again (the uploader was renewed after encoding)
    assert page.get_by_role("button", name="Remove singheart_small.csv").count() == 0
    uploader = page.locator("[data-testid='stFileUploaderDropzoneInput']").first
    uploader.set_input_files(str(small))
    page.get_by_text("Set up the new table").first.wait_for(timeout=60_000)
    _settle(page)
    page.get_by_role("button", name="Encode this table").click()
    page.get_by_text("Table encoded").first.wait_for(timeout=60_000)
    _settle(page)

    # train with the untouched form
    _go(page, "Model", "Model")
    _settle(page)
    page.get_by_role("button", name="Train", exact=True).click()
    page.get_by_text("Fitted in").first.wait_for(timeout=240_000)
    _settle(page)
    sidebar = page.locator("[data-testid='stSidebar']").inner_text()
    assert "Model: trained on singheart_small.csv" in sidebar
    head = page.get_by_text("Current model:").first.inner_text()
    assert "trained on singheart_small.csv" in head and "16-D embedding" in head
    _no_error(page)
    _shots(page, "model")

    # the classifiers on the trained model's settings
    _go(page, "Classifiers", "Classifiers")
    page.get_by_text("settings of the current model").first.wait_for(timeout=60_000)
    page.get_by_role("button", name="Run the comparison").click()
    page.get_by_text("Confusion matrices").first.wait_for(timeout=600_000)
    _settle(page, 3)
    assert page.get_by_text("k-nearest neighbours").count() >= 1
    _no_error(page)
    _shots(page, "classifiers")
    page.close()
    for name in ("data", "model", "classifiers"):
        for width in (1400, 800):
            assert (ARTIFACTS / f"{name}_{width}.png").stat().st_size > 10_000
