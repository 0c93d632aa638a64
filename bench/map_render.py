"""How long the Explore page's cohort map takes to draw in a real browser, at 100,000 and
1,000,000 patients (issue 14.4: < 5 s at 100,000).

For each size: synthetic embedded patients (a 16-D mixture with three outcomes, 5% of them
not used for training), the map computed as the app computes it (``MapProjector`` PCA,
``map_frame``, ``cohort_map`` with outcome colours, a selected patient and its ten
look-alikes), then drawn by Debian's chromium (headless, software WebGL) in two ways:

- ``html``: a plain page with the figure and plotly.js inlined (plotly's own bundle, no
  CDN, no network); timed from navigation start until ``Plotly.newPlot`` has drawn and
  the browser has painted the next frame;
- ``streamlit``: the real ``st.plotly_chart`` (on_select, points/box/lasso) of a small
  Streamlit page served on loopback; timed from navigation until plotly has computed
  every trace and made its WebGL canvas, and the next frame is painted (the page's Python
  run included); ``streamlit_map`` counts from the page's title on screen instead.

Each page load runs in a fresh browser context (nothing cached); the median of
``--repeat`` loads is reported (the machine is shared), with the figure's JSON size.

    python -m bench.map_render            # 100,000 and 1,000,000, UMAP at 100,000
                                          # (about 8 minutes)
    python -m bench.map_render --quick    # 30,000 (about 30 s)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from bench.common import ROOT
from bench.report import publish, to_markdown
from sparge.method.similarity import similarity_from_distance

CHROMIUM = os.environ.get("SPARGE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--enable-unsafe-swiftshader"]
DIM = 16


# ---------------------------------------------------------------------------- the data
def embedded_cohort(n: int, seed: int = 0, left_out: float = 0.05):
    """``(model, index)`` stand-ins for ``n`` embedded patients: what ``map_frame`` reads
    of a fitted SparGE (``embedding_``, ``y_``, ``train_ids_``, ``feature_names()``) and of
    a ``PatientIndex`` (IDs, training rows, reasons, values, embedding)."""
    rng = np.random.default_rng(seed)
    y = rng.choice(["low", "medium", "high"], n, p=[0.6, 0.3, 0.1])
    centres = rng.normal(scale=3.0, size=(12, DIM))
    emb = centres[rng.integers(0, 12, n)] + rng.normal(size=(n, DIM))
    emb[:, 0] += np.select([y == "medium", y == "high"], [2.5, 5.0], 0.0)
    ids = np.array([f"P{i:07d}" for i in range(n)], dtype=object)
    out = rng.random(n) < left_out
    train_rows = np.flatnonzero(~out)
    train_index = np.full(n, -1)
    train_index[train_rows] = np.arange(len(train_rows))
    model = SimpleNamespace(embedding_=emb[train_rows], y_=y[train_rows],
                            train_ids_=ids[train_rows], feature_names=lambda: ["x0"],
                            similarity=lambda d: similarity_from_distance(d, 2 * 3.0 ** 2))
    index = SimpleNamespace(ids=ids, train_index=train_index,
                            reason=np.where(out, "more than 30% of values missing", ""),
                            X=np.zeros((n, 1)), embedding=emb)
    return model, index, y


def build(n: int) -> tuple[object, tuple, dict]:
    """The figure of ``n`` patients as the Explore page builds it, the arguments that
    rebuild it (frame, selected row, look-alike rows, title) and the time of each step."""
    from sparge.app.plots import cohort_map
    from sparge.method.similarity import knn_search
    from sparge.services.maps import MapProjector, map_frame, map_title

    model, index, y = embedded_cohort(n)
    t = {}
    t0 = time.perf_counter()
    proj = MapProjector("pca").fit(model)
    frame = map_frame(model, proj, index, y)
    t["map_s"] = time.perf_counter() - t0
    train_rows = np.flatnonzero(index.train_index >= 0)
    sel = int(train_rows[len(train_rows) // 2])
    _, nb = knn_search(model.embedding_, model.embedding_[[index.train_index[sel]]], 11)
    lookalikes = train_rows[nb[0, 1:]]
    args = (frame, sel, lookalikes, map_title(proj, model))
    t0 = time.perf_counter()
    fig = cohort_map(frame, frame["outcome"], highlight=sel, lookalikes=lookalikes,
                     title=args[3], order=["low", "medium", "high"])
    t["figure_s"] = time.perf_counter() - t0
    return fig, args, t


# ---------------------------------------------------------------------------- the browser
_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>map</title>
<script>{plotlyjs}</script></head>
<body style="margin:0"><div id="map" style="width:1200px;height:560px"></div>
<script>
const fig = {figure};
Plotly.newPlot('map', fig.data, fig.layout, {{responsive: false}}).then(() => {{
  requestAnimationFrame(() => requestAnimationFrame(() => {{
    window.__drawn = performance.now();
    window.__canvases = document.querySelectorAll('#map canvas').length;
  }}));
}});
</script></body></html>
"""


def html_render(browser, fig, workdir: Path, shot: Path | None) -> dict:
    """Draw ``fig`` in a plain page (plotly.js inlined) in a fresh browser context (nothing
    cached); seconds from navigation start."""
    from plotly.offline import get_plotlyjs

    spec = fig.to_json()
    page_file = workdir / "map.html"
    page_file.write_text(_PAGE.format(plotlyjs=get_plotlyjs(), figure=spec))
    context = browser.new_context(viewport={"width": 1240, "height": 640})
    try:
        page = context.new_page()
        page.goto(page_file.as_uri(), wait_until="commit")
        page.wait_for_function("() => typeof window.__drawn === 'number'",
                               timeout=300_000, polling=50)
        drawn = page.evaluate("() => window.__drawn") / 1000
        canvases = page.evaluate("() => window.__canvases")
        if shot is not None:
            page.screenshot(path=str(shot))
    finally:
        context.close()
    return {"json_mb": len(spec) / 1e6, "html_s": drawn, "gl_canvases": canvases}


_APP = """
import pickle, time
from pathlib import Path
import streamlit as st
from sparge.app.plots import cohort_map

st.set_page_config(layout="wide")
st.title("Cohort map")  # on screen before the figure is built: the page's own start-up
t0 = time.perf_counter()
with open(Path(__file__).parent / (st.query_params["data"] + ".pkl"), "rb") as f:
    frame, sel, lookalikes, title = pickle.load(f)
fig = cohort_map(frame, frame["outcome"], highlight=sel, lookalikes=lookalikes, title=title,
                 order=["low", "medium", "high"])
st.plotly_chart(fig, key="map", on_select="rerun", selection_mode=("points", "box", "lasso"),
                width="stretch")
st.caption(f"built in {time.perf_counter() - t0:.2f} s")
"""

_AFTERPLOT = """
() => new Promise(resolve => {
  // drawn: plotly has computed every trace (calcdata) and made its WebGL canvas; then two
  // animation frames, so that the frame with the points has been painted
  const ready = g => g && g.calcdata && g.calcdata.length && g.querySelector('canvas');
  const done = () => requestAnimationFrame(() => requestAnimationFrame(
      () => resolve(performance.now())));
  const wait = () => ready(document.querySelector('.js-plotly-plot')) ? done()
                                                                       : setTimeout(wait, 20);
  wait();
})
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(workdir: Path):
    """The map page (``?data=NAME`` draws ``NAME.pkl``) served by Streamlit on loopback;
    yields its URL."""
    (workdir / "map_app.py").write_text(_APP)
    port = _free_port()
    env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "map_app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.fileWatcherType", "none"],
        cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def streamlit_render(browser, url: str, name: str, shot: Path | None) -> dict:
    """Draw the map ``name`` through ``st.plotly_chart`` in a fresh browser context."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{url}/?data={name}", wait_until="commit")
        page.get_by_text("Cohort map").first.wait_for(timeout=120_000)
        shown = page.evaluate("() => performance.now()") / 1000
        page.locator(".js-plotly-plot canvas").first.wait_for(state="attached",
                                                              timeout=300_000)
        drawn = page.evaluate(_AFTERPLOT) / 1000
        if shot is not None:
            time.sleep(0.5)
            page.screenshot(path=str(shot))
    finally:
        context.close()
    return {"streamlit_s": drawn, "streamlit_map_s": drawn - shown}


def _median(runs: list[dict]) -> dict:
    """Per key, the median over repeated page loads (the machine is shared: one slow run
    says little)."""
    return {k: float(np.median([r[k] for r in runs])) for k in runs[0]}


def measure(n: int, browser, workdir: Path, url: str | None, shots: Path | None,
            repeat: int = 1) -> dict:
    """One size: the figure built, drawn in the plain page and (with ``url``) through
    Streamlit, ``repeat`` times each."""
    fig, args, t = build(n)
    row = {"patients": n, **t}
    row.update(_median([html_render(browser, fig, workdir, shots / f"map_render_{n}.png"
                                    if shots and i == 0 else None) for i in range(repeat)]))
    if url is not None:
        del fig
        with open(workdir / f"map_{n}.pkl", "wb") as f:
            pickle.dump(args, f)
        row.update(_median([streamlit_render(browser, url, f"map_{n}",
                                             shots / f"map_render_st_{n}.png"
                                             if shots and i == 0 else None)
                            for i in range(repeat)]))
    return row


def umap_map(n: int) -> dict:
    """The UMAP map of ``n`` embedded patients as the app computes it on request: fitted on
    a random ``UMAP_FIT_MAX`` training patients, every other patient placed from its
    look-alikes among them."""
    from sparge.services.maps import UMAP_FIT_MAX, MapProjector, map_frame

    model, index, y = embedded_cohort(n)
    t0 = time.perf_counter()
    proj = MapProjector("umap").fit(model)
    fit_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    map_frame(model, proj, index, y)
    return {"patients": n, "fitted_on": min(UMAP_FIT_MAX, len(model.embedding_)),
            "umap_map_s": fit_s, "left_out_placed_s": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="30,000 patients (a dense map)")
    ap.add_argument("--sizes", nargs="*", type=int, help="patients per map (overrides)")
    ap.add_argument("--no-streamlit", action="store_true",
                    help="time the plain page only")
    ap.add_argument("--shots", type=Path, default=None,
                    help="folder for a screenshot of each map")
    ap.add_argument("--umap", type=int, nargs="*", default=None,
                    help="also time the UMAP map at these sizes (full run: 100,000)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="page loads per measure, the median reported (default 3; quick: 1)")
    args = ap.parse_args()
    args.repeat = args.repeat or (1 if args.quick else 3)
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        sys.exit(f"no chromium at {CHROMIUM}: install Debian's 'chromium' package")
    sizes = args.sizes or ([30_000] if args.quick else [100_000, 1_000_000])
    umap_sizes = args.umap if args.umap is not None else ([] if args.quick else [100_000])
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    rows = []
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        workdir = Path(tmp)
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=CHROMIUM_ARGS)
        server = contextlib.nullcontext() if args.no_streamlit else streamlit_server(workdir)
        try:
            with server as url:
                # the page itself: plotly.js parsed, an empty map drawn (what every size pays)
                import plotly.graph_objects as go

                empty = go.Figure(layout={"height": 560})
                blank = _median([html_render(browser, empty, workdir, None)
                                 for _ in range(args.repeat)])
                rows.append({"patients": 0, "json_mb": blank["json_mb"],
                             "html_s": blank["html_s"]})
                print(json.dumps(rows[-1]), flush=True)
                if url is not None:  # the server's first run imports the app: not counted
                    with open(workdir / "warm.pkl", "wb") as f:
                        pickle.dump(build(200)[1], f)
                    streamlit_render(browser, url, "warm", None)
                for n in sizes:
                    rows.append(measure(n, browser, workdir, url, args.shots, args.repeat))
                    print(json.dumps(rows[-1]), flush=True)
        finally:
            browser.close()
    umap_rows = []
    for n in umap_sizes:
        umap_rows.append(umap_map(n))
        print(json.dumps(umap_rows[-1]), flush=True)
    cols = ["patients", "map_s", "figure_s", "json_mb", "html_s", "streamlit_s",
            "streamlit_map_s"]
    df = pd.DataFrame(rows).reindex(columns=cols).astype(object)
    df = df.where(df.notna(), "")  # not measured: an empty cell
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    text = (f"# map_render ({time.strftime('%Y-%m-%d')}, 2 cores, load average at the end "
            f"{load}; headless chromium, software WebGL)\n\n"
            f"Seconds, the median of {args.repeat} page load(s), nothing cached. "
            "map: PCA map of the embedded patients (`MapProjector`, `map_frame`); "
            "figure: `cohort_map` (every patient up to 50,000, a random 50,000 above; a density "
            "layer of all of them, outcome colours, a "
            "selected patient and its look-alikes); json_mb: the figure's JSON; html: "
            "navigation to drawn in a plain page (plotly.js inlined, its parsing included); "
            "the 0-patient row is the page alone (plotly.js parsed, an empty plot drawn); "
            "streamlit: navigation to drawn through `st.plotly_chart` on a Streamlit page; "
            "streamlit_map: from the page's title on screen to the map drawn (the figure "
            "built in Python, sent, plotly.js loaded by the page on first use, drawn). "
            "Target: under 5 s at 100,000 patients.\n\n"
            + to_markdown(df, ".2f") + "\n")
    if umap_rows:
        text += ("\n## UMAP on request\n\nSeconds: the UMAP map (fitted on a random sample, "
                 "the other training patients placed from their look-alikes among it) and "
                 "the patients left out of training placed on it.\n\n"
                 + to_markdown(pd.DataFrame(umap_rows), ".1f") + "\n")
    publish(text, "map_render.md", args.quick)


if __name__ == "__main__":
    main()
