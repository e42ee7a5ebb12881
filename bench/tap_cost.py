#!/usr/bin/env python3
"""Tap cost: the main-thread time of a person's tap (move, save, one redraw) and of the app's
redraws, per game, next to what the browser alone needs for the same screen, in ONE run.

    python3 bench/tap_cost.py [--taps 60] [--games penta,rolf,geekout,rollcraft,cephalopod] [--json OUT]

For each game a solo table (a person against the computer at its easiest level, where the game
has two seats at least) is played by clicks in headless Chromium at 360×740 through the first
enabled button of the play screen's action area, game controls first. The app measures each tap
("dh:tap") and each redraw ("dh:render": web/dicehall/shell.py, measured by browser.py); after every tap the page also
times the browser alone on that screen: `#app.innerHTML` set again to the same HTML, plus the
layout it forces (`dom_ms`). Printed per game: median and 90th percentile of tap and redraw
times, and ratio = median redraw / median dom_ms (how much the Python side adds to what any page
would pay to draw that screen). Absolute times are noisy on a shared 2-vCPU VM; compare ratios.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build as dicehall_build  # noqa: E402
from bench.browser_site import emit, serve  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SEATS = {"penta": ["person"], "rolf": ["person", "ai:random"], "geekout": ["person"],
         "rollcraft": ["person"], "cephalopod": ["person", "ai:easy"]}
WATCH_JS = """() => { window.__m = [];
  new PerformanceObserver(l => l.getEntries().forEach(e => {
    if (e.name === 'dh:tap' || e.name === 'dh:render') window.__m.push([e.name, e.duration]); }))
    .observe({type: 'measure', buffered: false}); }"""
DOM_JS = """() => { const app = document.getElementById('app'); const html = app.innerHTML;
  const t0 = performance.now(); app.innerHTML = html; void app.offsetHeight;
  return performance.now() - t0; }"""
# The first thing a player could tap: game controls (not the navigation, the log or the room).
TAP_JS = """() => {
  const skip = '[data-action=go],[data-action=quit],[data-action=export],[data-action=hint],[data-action^=room-],'
             + '[data-action=view-seat],[data-action=share],[data-action=again],[data-action=new-table]';
  const all = [...document.querySelectorAll('#app button[data-action]:not([disabled])')]
    .filter(b => !b.matches(skip) && b.offsetParent !== null);
  const pick = all.find(b => /^(roll|handover-ok|confirm)/.test(b.dataset.action)) || all[0];
  if (!pick) return null;
  pick.click();
  return pick.dataset.action;
}"""


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 1) if values else 0.0


def measure_game(browser, url: str, game: str, taps: int) -> dict:
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    page = ctx.new_page()
    page.goto(url + "sw-register.js")
    page.evaluate("localStorage.setItem('dicehall.settings', JSON.stringify({animations: false, autofill: false, lang: 'en', pace: 'fast'}))")
    page.goto(url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.appState === 'ready'", timeout=120000)
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=120000)
    page.click(f'[data-testid="new-{game}"]')
    kinds = SEATS[game]
    page.click(f'[data-testid="seats-{len(kinds)}"]')
    for i, kind in enumerate(kinds):
        page.select_option(f'[data-testid="seat-{i}-kind"]', kind)
    page.click('[data-testid="start-game"]')
    page.wait_for_selector('[data-testid="play"]')
    page.evaluate(WATCH_JS)
    dom, done = [], 0
    while done < taps:
        page.wait_for_timeout(150)  # the computer's pace and any dice that follow
        if page.locator('[data-testid="results"]').count():
            break
        dom.append(page.evaluate(DOM_JS))
        if page.evaluate(TAP_JS) is None:
            continue
        done += 1
    page.wait_for_timeout(300)
    measures = page.evaluate("window.__m")
    ctx.close()
    tap = [ms for name, ms in measures if name == "dh:tap"]
    render = [ms for name, ms in measures if name == "dh:render"]
    dom_median = statistics.median(dom) if dom else 0.0
    return {"taps": len(tap), "tap_median": pct(tap, 0.5), "tap_p90": pct(tap, 0.9),
            "render_median": pct(render, 0.5), "render_p90": pct(render, 0.9), "dom_median": round(dom_median, 1),
            "ratio": round(statistics.median(render) / dom_median, 2) if render and dom_median else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=60)
    ap.add_argument("--games", default=",".join(SEATS))
    ap.add_argument("--json")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        dicehall_build.build(dist)
        url, server = serve(dist)
        results = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for game in args.games.split(","):
                results[game] = r = measure_game(browser, url, game, args.taps)
                print(f"{game:11s} taps {r['taps']:3d}  tap median {r['tap_median']:6.1f} ms  p90 {r['tap_p90']:6.1f}  "
                      f"redraw median {r['render_median']:6.1f}  p90 {r['render_p90']:6.1f}  "
                      f"browser alone {r['dom_median']:5.1f}  ratio {r['ratio']}", flush=True)
            browser.close()
        server.shutdown()
    emit(results, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
