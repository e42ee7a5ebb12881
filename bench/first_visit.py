#!/usr/bin/env python3
"""The first visit on an emulated phone: the app beside a bare Pyodide page, in ONE run.

    python3 bench/first_visit.py [-n 3] [--json OUT] [--cpu-rate 4] [--no-close-early]

The phone (the project's yardstick): headless Chromium at 360×740, touch, CPU ×4 through CDP
`Emulation.setCPUThrottlingRate`, 9 Mbit/s down, 2 Mbit/s up and 40 ms through CDP
`Network.emulateNetworkConditions`, an empty profile per visit pair. Long tasks come from a
`PerformanceObserver` (`longtask`, buffered) registered before the page's own scripts; bytes are
the response bodies the bench's server sent during the visit (the page's, its workers' and its
service worker's requests alike).
Caveat, measured here: CDP's CPU throttling slows a page's main thread only, never its workers
("Operation is only supported for pages, not workers"); the network emulation covers workers.

Per round, interleaved (app first in odd rounds, bare first in even ones):
- app, first visit: time until Home's game list is drawn (the build's copy, web/early.js); a tap on "New game" of the first game
  at that moment, and when its set-up screen shows (`tap_to_setup`); Start at once, and when the
  game is playable (`playable`: the end of the frame that first showed its play screen with an
  enabled control, timed in the page; `playable_seen`: when Playwright saw it); the longest main-thread
  task until then; the largest gap between two moves of the progress indicator (its bar or its
  words) until the app is ready; bytes until playable.
- app, second visit: the same profile 20 s after the first visit became playable (`warm`), and
  profiles whose first tab was closed 3 s after Home appeared (`warm_after_early_close`; Home
  is the build's copy, painted before Python) or 3 s after the app was ready
  (`warm_after_close_at_ready`). Closed is the tab, not the browser (as a player closes it): the
  service workers go on with the downloads and the boot snapshot the tab left, and the player
  comes back once they are done (`background_s` after the close, at most BACKGROUND_MAX_S;
  `background_mb`: the bytes the server sent meanwhile). Caveat: the throttling is the tab's,
  so those downloads run unthrottled here (at 9 Mbit/s they would take background_mb * 8 / 9
  seconds).
- app, third visit (`warm_again`): the same profile once more, the second having stayed open 12 s
  after it was playable (WARM_AGAIN_AFTER_S). It is the first visit whose wasm can come from V8's
  code cache: the first visit's wasm is unpacked from its .gz (no code cache), the second's is
  served by the service worker and its cache written through the early reader (web/index.html).
  Reported, not one of the issue's bars.
- bare page (`bench/bare.html?imports`: `loadPyodide` + `import json, random, dataclasses`): cold
  and, 5 s later, warm — time to Python ready, longest task, bytes.
Printed: medians over the rounds and the issue's ratios (playable / bare cold, warm / bare warm).
Absolute times are noisy on a shared 2-vCPU VM; compare within one run.
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build as dicehall_build

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
NETWORK = {"offline": False, "latency": 40, "downloadThroughput": 9_000_000 / 8, "uploadThroughput": 2_000_000 / 8}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
WARM_AFTER_S = 20
WARM_AGAIN_AFTER_S = 12  # the second visit's tab stays open this long (V8 writes the wasm's code cache meanwhile:
# once no new optimised code has come for 2 s; tests/browser/test_boot_snapshot.py waits as long)
EARLY_CLOSE_S = 3
BACKGROUND_MAX_S = 180
BARE_SETTLE_S = 5

PLAYABLE = '[data-testid="play"] [data-action]:not([disabled]):not([data-action="go"])'

# Registered before any script of the page: long tasks, the boot indicator's moves, readiness,
# and the first game playable, timed in the page as the bare page's readiness is: a play control
# in the page with a box (`__playableAt`), then the end of the next frame (`__paintedAt`: a
# requestAnimationFrame callback, then a task after it: the frame that shows the control has been
# produced). Playwright's own wait saw it 0.1-0.45 s later on return visits (it polls, then
# answers over CDP), which the bare page's in-page time never pays.
PROBE = """
(() => {
  window.__long = [];
  try {
    new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push([e.startTime, e.duration])))
      .observe({type: 'longtask', buffered: true});
  } catch (e) {}
  window.__moves = [];
  let last = null;
  const look = () => {
    const root = document.documentElement;
    if (!root) return;
    const s = root.getAttribute('data-app-state');
    if (s && s !== 'booting' && window.__readyAt === undefined) { window.__readyAt = performance.now(); window.__state = s; }
    const bar = document.getElementById('boot-bar'), text = document.getElementById('boot-text');
    const boot = document.getElementById('boot');
    const now = (bar ? bar.style.inlineSize : '') + '|' + (text ? text.textContent : '') + '|' + (boot && boot.hidden);
    if (now !== last) { last = now; window.__moves.push(performance.now()); }
    if (window.__playableAt === undefined) {
      const control = document.querySelector(PLAYABLE_SELECTOR);
      if (control && control.getClientRects().length) {
        window.__playableAt = performance.now();
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => { window.__paintedAt = performance.now(); };
          channel.port2.postMessage(null);
        });
      }
    }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  setInterval(look, 100);
})();
""".replace("PLAYABLE_SELECTOR", json.dumps(PLAYABLE))


class Counted(dicehall_build._Handler):
    """The project's static server, counting the response bytes it sends (one visit at a time)."""

    sent = 0
    lock = threading.Lock()
    log: list = []  # (bytes sent before, path) of every response body

    def copyfile(self, source, outputfile):
        with Counted.lock:
            Counted.log.append((Counted.sent, self.path))
        while chunk := source.read(64 * 1024):
            outputfile.write(chunk)
            with Counted.lock:
                Counted.sent += len(chunk)


class Bytes:
    """The bytes the server sent since this visit began."""

    def __init__(self) -> None:
        self.start = Counted.sent

    @property
    def total(self) -> int:
        return Counted.sent - self.start


def serve_counted(directory: Path):
    handler = functools.partial(Counted, directory=str(directory))
    return dicehall_build.DiceHallServer(("127.0.0.1", 0), handler)


def open_phone(pw, profile: str, cpu_rate: float):
    ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                               args=CHROMIUM_ARGS, **PHONE)
    ctx.add_init_script(PROBE)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})
    return ctx, page, Bytes()


def longest(page, until_ms: float | None = None) -> float:
    tasks = page.evaluate("window.__long")
    return round(max([d for s, d in tasks if until_ms is None or s <= until_ms] or [0]), 1)


def largest_gap(page, until_ms: float) -> float:
    moves = [t for t in page.evaluate("window.__moves") if t <= until_ms] + [until_ms]
    return round(max(b - a for a, b in zip([0.0] + moves, moves)), 1)


def now_ms(page) -> float:
    return page.evaluate("performance.now()")


def first_game_playable(page, timeout: float, counted: Bytes) -> dict:
    """From a page loading the app: Home drawn -> tap New game -> set-up -> Start -> playable;
    or, for a player coming back to a game, that game's screen playable at once."""
    out = {}
    page.wait_for_selector(f'[data-testid^="new-"], {PLAYABLE}', state="visible", timeout=timeout)
    if page.locator(PLAYABLE).count():
        out["mb"] = round(counted.total / 1e6, 2)
        out["resumed"] = True
        return painted(page, out, timeout)
    out["home"] = now_ms(page)
    page.locator('[data-testid^="new-"]').first.click(timeout=timeout)
    page.wait_for_selector('[data-testid="start-game"]', state="visible", timeout=timeout)
    out["setup"] = now_ms(page)
    out["tap_to_setup"] = round(out["setup"] - out["home"], 1)
    page.click('[data-testid="start-game"]', timeout=timeout)
    page.wait_for_selector(PLAYABLE, timeout=timeout)
    out["mb"] = round(counted.total / 1e6, 2)  # bytes before the first game is playable
    return painted(page, out, timeout)


def painted(page, out: dict, timeout: float) -> dict:
    """`playable`: the end of the frame that first showed a play control (PROBE); `playable_seen`:
    when Playwright's wait saw it."""
    out["playable_seen"] = now_ms(page)
    page.wait_for_function("window.__paintedAt !== undefined", timeout=timeout, polling=50)
    out["playable"] = page.evaluate("window.__paintedAt")
    return out


def return_visit(pw, url: str, profile: str, cpu_rate: float, timeout: float, stay_s: float = 0) -> dict:
    """The app opened again in `profile`: the first game playable (or resumed), its longest
    task and the boot path it took; the tab then stays open `stay_s` more (a player goes on)."""
    ctx, page, counted = open_phone(pw, profile, cpu_rate)
    try:
        page.goto(url, wait_until="commit")
        visit = first_game_playable(page, timeout, counted)
        visit["longest_task"] = longest(page, visit["playable"])
        visit["boot"] = page.evaluate("document.documentElement.dataset.boot || null")
        page.wait_for_timeout(stay_s * 1000)
        return visit
    finally:
        ctx.close()


def app_visits(pw, url: str, cpu_rate: float, timeout: float, close_early: bool) -> dict:
    result = {}
    profile = tempfile.mkdtemp(prefix="dicehall-fv-")
    try:
        ctx, page, counted = open_phone(pw, profile, cpu_rate)
        page.goto(url, wait_until="commit")
        first = first_game_playable(page, timeout, counted)
        first["longest_task"] = longest(page, first["playable"])
        first["ready"] = page.evaluate("window.__readyAt")
        # the boot's progress (bar or words) while Python is not there, whatever the screen
        first["progress_gap"] = largest_gap(page, first["ready"] or first["playable"])
        result["first"] = first
        page.wait_for_timeout(WARM_AFTER_S * 1000)
        ctx.close()
        result["warm"] = return_visit(pw, url, profile, cpu_rate, timeout, stay_s=WARM_AGAIN_AFTER_S)
        result["warm_again"] = return_visit(pw, url, profile, cpu_rate, timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if close_early:
        # The first tab closed 3 s after Home appeared (the case; Home is painted from
        # the build now, long before Python), and 3 s after the app was ready.
        for name, wait_for in (("warm_after_early_close", '[data-testid^="new-"]'),
                               ("warm_after_close_at_ready", 'html[data-app-state="ready"]')):
            profile = tempfile.mkdtemp(prefix="dicehall-fv-")
            try:
                ctx, page, counted = open_phone(pw, profile, cpu_rate)
                page.goto(url, wait_until="commit")
                page.wait_for_selector(wait_for, state="attached", timeout=timeout)
                page.wait_for_timeout(EARLY_CLOSE_S * 1000)
                page.close()
                background = background_work(ctx)
                ctx.close()
                result[name] = {**return_visit(pw, url, profile, cpu_rate, timeout), **background}
            finally:
                shutil.rmtree(profile, ignore_errors=True)
    return result


# In a service worker: is the boot snapshot stored? And is this the app's worker, and active
# (its install, the precache's download, over)?
SNAPSHOT_STORED = "caches.open('dh-boot-snapshot').then(c => c.keys()).then(k => k.length > 0)"
APP_WORKER_ACTIVE = "self.location.pathname.endsWith('/sw.js') && self.serviceWorker.state === 'activated'"


def background_work(ctx) -> dict:
    """Once the tab is closed: wait until the app's service worker is active and the boot
    snapshot stored (what a closed first visit leaves to the service workers), at most
    BACKGROUND_MAX_S."""
    start, sent = time.monotonic(), Counted.sent
    done = False
    while not done and time.monotonic() - start < BACKGROUND_MAX_S:
        stored = active = False
        for worker in ctx.service_workers:
            try:
                stored = stored or worker.evaluate(SNAPSHOT_STORED)
                active = active or worker.evaluate(APP_WORKER_ACTIVE)
            except Exception:  # a worker stopped meanwhile
                pass
        done = stored and active
        if not done:
            time.sleep(0.5)
    return {"background_s": round(time.monotonic() - start, 1) if done else None,
            "background_mb": round((Counted.sent - sent) / 1e6, 2)}


def bare_visits(pw, url: str, cpu_rate: float, timeout: float) -> dict:
    result = {}
    profile = tempfile.mkdtemp(prefix="dicehall-fv-")
    try:
        for visit in ("cold", "warm"):
            ctx, page, counted = open_phone(pw, profile, cpu_rate)
            page.goto(url, wait_until="commit")
            page.wait_for_function("window.__readyAt !== undefined", timeout=timeout, polling=100)
            ready = page.evaluate("window.__readyAt")
            result[visit] = {"ready": ready, "longest_task": longest(page, ready), "mb": round(counted.total / 1e6, 2)}
            if visit == "cold":
                page.wait_for_timeout(BARE_SETTLE_S * 1000)
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return result


def med(values):
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 1) if values else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--cpu-rate", type=float, default=4)
    ap.add_argument("--timeout", type=float, default=240000, help="ms per visit")
    ap.add_argument("--no-close-early", action="store_true", help="skip the visit after a first tab closed early")
    ap.add_argument("--dist", help="measure this built dist/ instead of building one")
    ap.add_argument("--json", help="also write the JSON result here")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="dicehall-fv-site-"))
    if args.dist:
        dist = work / "dist"
        shutil.copytree(args.dist, dist)
        summary = {"total_bytes": sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())}
    else:
        dist = work / "dist"
        summary = dicehall_build.build(dist, quiet=True)
    shutil.copy(Path(__file__).with_name("bare.html"), dist / "bare.html")
    dicehall_build.bare_pyodide(dist / "bare-pyodide")
    srv = serve_counted(dist)
    srv.start_in_thread()
    rounds = []
    t0 = time.monotonic()
    try:
        with sync_playwright() as pw:
            for i in range(args.n):
                one = {}
                for kind in (("app", "bare") if i % 2 == 0 else ("bare", "app")):
                    if kind == "app":
                        one["app"] = app_visits(pw, srv.url + "index.html", args.cpu_rate, args.timeout,
                                                not args.no_close_early)
                    else:
                        one["bare"] = bare_visits(pw, srv.url + "bare.html?imports", args.cpu_rate, args.timeout)
                rounds.append(one)
                print(f"round {i + 1}/{args.n}: {json.dumps(one)}", file=sys.stderr, flush=True)
    finally:
        srv.stop()
        shutil.rmtree(work, ignore_errors=True)

    def series(kind, visit, key):
        return [r[kind][visit].get(key) for r in rounds if visit in r[kind]]

    app = {visit: {key: med(series("app", visit, key)) for key in rounds[0]["app"][visit]
                   if key not in ("boot", "resumed")} for visit in rounds[0]["app"]}
    bare = {visit: {key: med(series("bare", visit, key)) for key in rounds[0]["bare"][visit]}
            for visit in ("cold", "warm")}
    result = {
        "n": args.n, "cpu_rate": args.cpu_rate, "network": NETWORK, "dist_mb": round(summary["total_bytes"] / 1e6, 2),
        "app": app, "bare": bare,
        "ratios": {
            "first_playable_over_bare_cold": round(app["first"]["playable"] / bare["cold"]["ready"], 3),
            "warm_playable_over_bare_warm": round(app["warm"]["playable"] / bare["warm"]["ready"], 3),
            **{f"{visit}_over_bare_warm": round(app[visit]["playable"] / bare["warm"]["ready"], 3)
               for visit in ("warm_again", "warm_after_early_close", "warm_after_close_at_ready") if visit in app},
        },
        "rounds": rounds,
        "wall_s": round(time.monotonic() - t0, 1),
    }
    text = json.dumps(result, indent=2)
    print(text)
    print(json.dumps({"home_ms": app["first"]["home"], "tap_to_setup_ms": app["first"]["tap_to_setup"],
                      "first_playable_ms": app["first"]["playable"], "bare_cold_ms": bare["cold"]["ready"],
                      "first_longest_task_ms": app["first"]["longest_task"], "progress_gap_ms": app["first"]["progress_gap"],
                      "first_mb": app["first"]["mb"], "dist_mb": result["dist_mb"], **result["ratios"]}))
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
