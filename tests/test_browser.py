"""End to end in a real browser: `streamlit run app.py`, headless Debian chromium driven by
Playwright; the sample map and a look-alike table must appear. A screenshot is saved to
``test-artifacts/``."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT

CHROMIUM = os.environ.get("SPARGE_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("streamlit did not start: " + proc.stdout.read().decode()[-2000:])
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_sample_map_and_lookalikes_in_chromium(server):
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        pytest.skip(f"no chromium at {CHROMIUM}: install Debian's 'chromium' package "
                    "(.ci/run does) to run the browser test")
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        # A deep link as the server's very first request (Streamlit then runs the page
        # file before app.py): the page must still find its session state.
        page.goto(f"{server}/how_it_works", wait_until="domcontentloaded")
        page.get_by_text("How SparGE works").first.wait_for(timeout=90_000)
        page.get_by_text("Fill the gaps").first.wait_for(timeout=60_000)
        assert page.locator("[data-testid='stException']").count() == 0
        assert page.get_by_text("This app has encountered an error").count() == 0
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_text("Explore the cohort").first.wait_for(timeout=90_000)
        page.locator(".js-plotly-plot").first.wait_for(timeout=90_000)
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
        browser.close()
    assert (ARTIFACTS / "explore_lookalikes.png").stat().st_size > 10_000
