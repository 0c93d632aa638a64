"""What the real-browser tests share: a Streamlit server on a free loopback port and
Debian's chromium driven by Playwright (its own browser download is not available here)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SPARGE_CHROMIUM", "/usr/bin/chromium")
#: Flags for a headless chromium that makes no calls of its own (no network but loopback).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(script: Path | str, cwd: Path | str, env: dict | None = None,
          timeout: float = 90) -> tuple[subprocess.Popen, str]:
    """``streamlit run script`` on 127.0.0.1 and a free port; returns (process, url)."""
    port = free_port()
    env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false", **(env or {})}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    pytest.fail("streamlit did not start: " + proc.stdout.read().decode()[-2000:])


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextlib.contextmanager
def chromium():
    """A headless Debian chromium (the test is skipped, with the reason, without one)."""
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        pytest.skip(f"no chromium at {CHROMIUM}: install Debian's 'chromium' package "
                    "(.ci/run does) to run the browser tests")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
