"""Browser test fixtures: build dist once, serve it on loopback, drive /usr/bin/chromium.

Environment:
  DICEHALL_TEST_WEB=/path   build from this web dir instead of <repo>/web (placeholder pages)
  DICEHALL_REQUIRE_BROWSER=1  fail (instead of skip) when Chromium/Playwright are missing
  DICEHALL_CHROMIUM=/path   browser binary (default /usr/bin/chromium)

A crashed page ("Target crashed", "Page crashed") fails its test like any other failure, with
the browser's log and crash dumps kept (keep_crash_log). Such tests used to run once more: 1-2
per full run crashed, always Chromium's renderer, always SIGSEGV at one instruction of its
stack unwinder on a JSPI stack of Pyodide's (web/snap-loader.mjs, withoutJspi: the cause, and
the fix). Measured after the fix, with no rerun: with stack sampling forced (DevTools, every
4 KiB) 0 of 30 return visits crashed (17 of 30 before), and test_renderer_crash.py passed 3 runs
of 6 such visits (the old loader failed 2 of 2); the two tests that crashed in the last full run,
test_no_serious_violations_on_any_screen[ar] and the poisoned-key test, ran 20 times each in a
row (about 100 boots from the snapshot) with 0 crashes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT, ROOT / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import build as dicehall_build  # noqa: E402  (repo-root build.py)
from dicehall_browser_share import machine_share  # noqa: E402  (two xdist workers, and `alone` tests)

CHROMIUM = os.environ.get("DICEHALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAUNCH_VIEWPORT = {"width": 390, "height": 800}
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
MAX_TOTAL_BYTES = dicehall_build.MAX_TOTAL_BYTES

# Test modules import helpers as `from dicehall_browser import wait_ready` (a stable name:
# several conftest.py files in one session all want the module name "conftest").
sys.modules["dicehall_browser"] = sys.modules[__name__]


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the built site in headless Chromium")
    config.addinivalue_line("markers", "boot_snapshot: the app may make its boot snapshot (web/snap-loader.mjs)")
    config.addinivalue_line("markers", "cold_profile: the test starts from an empty browser profile (a first visit)")
    config.addinivalue_line("markers", "snapshot_stored: with boot_snapshot, the test starts from the returning "
                                       "profile, whose boot snapshot is already stored")
    config.addinivalue_line("markers", "shared_profile: the tests so marked share one returning profile and browser, "
                                       "one after another (SharedProfile)")
    config.addinivalue_line("markers", "alone: asserts on time; under xdist it runs while the other worker runs "
                                       "nothing (dicehall_browser_share.py)")


def pytest_collection_modifyitems(config, items):
    """A test with several phones (the rooms' `phones` fixture: two to five pages, each with its
    interpreter, and their WebRTC) runs `alone`: it fills both cores by itself, and beside the
    other worker's test a three-phone lobby test once waited 30 s for a button (a clean-clone
    run with two workers, 2026-12-05)."""
    for item in items:
        if "phones" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.alone)


@pytest.fixture(autouse=True)
def _machine_share(request, tmp_path_factory):
    """Under xdist a test holds the machine, shared or (marked `alone`) to itself."""
    with machine_share(tmp_path_factory, alone=request.node.get_closest_marker("alone") is not None):
        yield


def _require_browser():
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("python playwright (pip install playwright)")
    if not Path(CHROMIUM).exists():
        missing.append(f"{CHROMIUM} (apt-get install -y chromium)")
    if missing:
        msg = "browser tests need " + ", ".join(missing)
        if os.environ.get("DICEHALL_REQUIRE_BROWSER") == "1":
            pytest.fail(msg)
        pytest.skip(msg)


def web_dir() -> Path | None:
    override = os.environ.get("DICEHALL_TEST_WEB")
    return Path(override) if override else None


def build_site(out: Path, **kwargs) -> dict:
    """Build the site into ``out`` (honours DICEHALL_TEST_WEB)."""
    return dicehall_build.build(out, root=ROOT, web_dir=web_dir(), quiet=True, **kwargs)


FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory):
    """The site built with the tests' fixture games added: `claim` (tests/fixtures/README.md) and
    `pig` from a copy outside the project tree (tests/fixtures/pig)."""
    out = tmp_path_factory.mktemp("fixture-dist") / "dist"
    outside = tmp_path_factory.mktemp("elsewhere") / "pig-game"
    shutil.copytree(FIXTURES / "pig", outside, ignore=shutil.ignore_patterns("__pycache__"))
    with machine_share(tmp_path_factory):
        s = Site(out, build_site(out, extra_roots=[FIXTURES, outside]))
    yield s
    s.stop()


class Site:
    """A built dist directory served over HTTP on 127.0.0.1."""

    def __init__(self, dist: Path, summary: dict):
        self.dist = dist
        self.summary = summary
        self.server = dicehall_build.serve(dist, 0)
        self.server.start_in_thread()
        self.url = self.server.url  # http://127.0.0.1:PORT/

    @property
    def index(self) -> str:
        return self.url + "index.html"

    def rebuild(self, **kwargs) -> dict:
        self.summary = build_site(self.dist, **kwargs)
        return self.summary

    def stop(self) -> None:
        self.server.stop()


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory) -> tuple[Path, dict]:
    """dist/ built once per session (into a temp dir, so parallel runs don't clash)."""
    out = tmp_path_factory.mktemp("dist") / "dist"
    with machine_share(tmp_path_factory):
        return out, build_site(out)


@pytest.fixture(scope="session")
def site(dist_dir) -> Site:
    s = Site(*dist_dir)
    yield s
    s.stop()


@pytest.fixture
def make_site(tmp_path, request):
    """Factory for a private site (own dist + server), e.g. to rebuild it mid-test. Without
    build options it is a copy of the session's dist (the same tree builds the same files:
    test_build_is_deterministic), made in a second instead of a build's 6-9 s."""
    sites = []

    def factory(**kwargs) -> Site:
        out = tmp_path / f"dist{len(sites)}"
        if kwargs:
            summary = build_site(out, **kwargs)
        else:
            dist, summary = request.getfixturevalue("dist_dir")
            shutil.copytree(dist, out)
            summary = {**summary, "out": str(out)}
        s = Site(out, summary)
        sites.append(s)
        return s

    yield factory
    for s in sites:
        s.stop()


@pytest.fixture(scope="session")
def playwright_instance():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


class RequestRecorder:
    """Records every request of a context and its pages; flags off-loopback hosts."""

    def __init__(self):
        self.urls: list[str] = []

    def record(self, request) -> None:
        self.urls.append(request.url)

    @staticmethod
    def is_external(url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ws", "wss"):
            return False  # data:, blob:, about:, chrome-extension: never leave the machine
        return (parts.hostname or "") not in {h.strip("[]") for h in LOOPBACK_HOSTS}

    @property
    def external(self) -> list[str]:
        return [u for u in self.urls if self.is_external(u)]


class Console:
    """Console messages and page errors per page (for wait_ready diagnostics)."""

    def __init__(self):
        self.messages: dict[int, list[str]] = {}

    def attach(self, page) -> None:
        if id(page) in self.messages:
            return
        log = self.messages.setdefault(id(page), [])
        page.on("console", lambda m: log.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: log.append(f"pageerror: {e}"))
        page.on("crash", lambda _: log.append("error: the page crashed"))

    def errors(self, page) -> list[str]:
        return [m for m in self.messages.get(id(page), [])
                if m.startswith(("error:", "pageerror:"))]

    def all(self, page) -> list[str]:
        return list(self.messages.get(id(page), []))


CONSOLE = Console()


# Chromium's stderr, all its processes', goes to a file in the profile (BROWSER_LOG): its log
# (--enable-logging=stderr: a renderer's "Check failed", V8's fatal errors), which Playwright
# would only show in its debug output. A crashed process's signal is in no log: its crash dump
# goes under CRASH_HOME in the profile too (CHROME_CONFIG_HOME; else into ~/.config/chromium,
# shared by every run on the machine). See keep_crash_log.
BROWSER_LOG = "browser-stderr.log"
CRASH_HOME = "chromium-home"
_STDERR_TO_FILE = Path(tempfile.gettempdir()) / f"dicehall-chromium-{os.getpid()}.sh"


def _chromium_with_stderr_to_file() -> str:
    if not _STDERR_TO_FILE.exists():
        _STDERR_TO_FILE.write_text('#!/bin/sh\nexec "$DICEHALL_CHROMIUM_REAL" "$@" 2>>"$DICEHALL_BROWSER_LOG"\n')
        _STDERR_TO_FILE.chmod(0o755)
    return str(_STDERR_TO_FILE)


def browser_log(user_data_dir: str | Path) -> str:
    log = Path(user_data_dir, BROWSER_LOG)
    return log.read_text(errors="replace") if log.exists() else f"(no {BROWSER_LOG})"


def launch_context(playwright_instance, user_data_dir: str, recorder: RequestRecorder | None = None):
    try:
        ctx = playwright_instance.chromium.launch_persistent_context(
            user_data_dir,
            executable_path=_chromium_with_stderr_to_file(),
            env={**os.environ, "DICEHALL_CHROMIUM_REAL": CHROMIUM,
                 "DICEHALL_BROWSER_LOG": str(Path(user_data_dir, BROWSER_LOG)),
                 "CHROME_CONFIG_HOME": str(Path(user_data_dir, CRASH_HOME))},
            headless=True,
            args=CHROMIUM_ARGS + ["--enable-logging=stderr", "--v=0"],
            viewport=LAUNCH_VIEWPORT,
        )
    except Exception as exc:
        raise RuntimeError(f"Chromium did not start; its stderr:\n{browser_log(user_data_dir)[-4000:]}") from exc
    if recorder is not None:
        ctx.on("request", recorder.record)
    ctx.on("page", CONSOLE.attach)
    for p in ctx.pages:
        CONSOLE.attach(p)
    return ctx


CRASH_LOGS = Path(tempfile.gettempdir()) / "dicehall-renderer-crashes"


def keep_crash_log(nodeid: str, user_data_dir: str | Path) -> None:
    """A crashed page's browser log and crash dumps are kept in CRASH_LOGS (a rerun that passes
    hides the first attempt's output); the end of the log and what each dump says are printed."""
    from dicehall_browser_crash import summary

    text = "\n".join(line for line in browser_log(user_data_dir).splitlines()
                     if "dbus" not in line and "D-Bus" not in line)
    CRASH_LOGS.mkdir(exist_ok=True)
    kept = CRASH_LOGS / (time.strftime("%Y%m%d-%H%M%S-") + re.sub(r"[^\w.-]+", "_", nodeid)[-120:])
    Path(f"{kept}.log").write_text(text, encoding="utf-8")
    dumps = []
    for dump in sorted(Path(user_data_dir, CRASH_HOME).glob("**/*.dmp")):
        shutil.copyfile(dump, f"{kept}-{dump.name}")
        dumps.append(f"{kept}-{dump.name}: {summary(dump)}")
    print(f"the page crashed; browser log kept in {kept}.log, its end:\n{text[-6000:]}\ncrash dumps:\n  "
          + ("\n  ".join(dumps) or "(none)"), file=sys.stderr)


@pytest.fixture
def requests_recorder() -> RequestRecorder:
    return RequestRecorder()


READY = "() => ['ready', 'error'].includes(document.documentElement.getAttribute('data-app-state'))"


@pytest.fixture(scope="session")
def returning_profile(site, playwright_instance, tmp_path_factory) -> Path:
    """A profile that has visited `site` once and kept what a returning player's phone keeps:
    the service worker and its precache, and the boot snapshot (made, as in the field, after
    that first visit). Copied for each test, it makes a page boot 2.5 s instead of 6.5 s and
    its AI worker 1 s instead of 4 s; first visits are tested by `cold_profile` and
    `boot_snapshot` tests. localStorage is emptied: every test sets its own."""
    user_data = tmp_path_factory.mktemp("returning") / "profile"
    with machine_share(tmp_path_factory):
        _visit_once(playwright_instance, site, user_data)
    return user_data


def _visit_once(playwright_instance, site, user_data: Path) -> None:
    ctx = launch_context(playwright_instance, str(user_data))
    try:
        pg = ctx.pages[0] if ctx.pages else ctx.new_page()
        CONSOLE.attach(pg)
        pg.goto(site.index)
        wait_ready(pg, timeout=120000)
        wait_sw_controlled(pg)
        pg.wait_for_function("() => document.documentElement.getAttribute('data-boot-stored') === '1'",
                             timeout=180000, polling=200)
        pg.evaluate("localStorage.clear(); sessionStorage.clear()")
    finally:
        ctx.close()


class SharedProfile:
    """One copy of `returning_profile` and the browser on it, kept for the session's tests
    marked `shared_profile`, one test after another (as a phone's one tab is used for one game
    after another): a browser started and a profile copied per test cost 2-3 s of set-up and
    tear-down on the loaded 2-core machine. Each such test starts with `open_app` (or its own
    visit to sw-register.js): localStorage cleared, a cold navigation, so Python boots afresh; the
    viewport is set back to the launch size. Nothing else is shared between them: the app keeps
    nothing in sessionStorage or IndexedDB, and the boot snapshot is not made (the init script).
    Each test still fails on its own requests that left the machine; after a crash (the log
    kept) or a test that opened more pages, the next test gets a new browser and profile."""

    def __init__(self, playwright_instance, source: Path):
        self.playwright_instance, self.source = playwright_instance, source
        self.ctx, self.user_data = None, None

    def open(self, recorder: RequestRecorder):
        if self.ctx is None:
            self.user_data = tempfile.mkdtemp(prefix="dicehall-profile-")
            shutil.copytree(self.source, self.user_data, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("Singleton*", BROWSER_LOG, CRASH_HOME))
            self.ctx = launch_context(self.playwright_instance, self.user_data)
            self.ctx.add_init_script("window.diceHallMakeSnapshot = false;")
        self.ctx.on("request", recorder.record)
        pg = self.ctx.pages[0] if self.ctx.pages else self.ctx.new_page()
        pg.set_viewport_size(LAUNCH_VIEWPORT)
        self.seen = {id(p): len(CONSOLE.all(p)) for p in self.ctx.pages}
        return self.ctx

    def release(self, recorder: RequestRecorder, nodeid: str, failed: bool) -> None:
        self.ctx.remove_listener("request", recorder.record)
        crashed = any("error: the page crashed" in CONSOLE.all(pg)[self.seen.get(id(pg), 0):] for pg in self.ctx.pages)
        if crashed or failed or len(self.ctx.pages) != 1:  # (a failed test's page may be stuck)
            self.close(nodeid if crashed else None)

    def close(self, crashed_nodeid: str | None = None) -> None:
        if self.ctx is None:
            return
        try:
            self.ctx.close()
            if crashed_nodeid:
                keep_crash_log(crashed_nodeid, self.user_data)
        finally:
            shutil.rmtree(self.user_data, ignore_errors=True)
            self.ctx = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Marks a test whose body failed (item.failed_call), for SharedProfile.release."""
    outcome = yield
    if call.when == "call" and outcome.get_result().failed:
        item.failed_call = True


@pytest.fixture(scope="session")
def _shared_profile(playwright_instance, returning_profile):
    shared = SharedProfile(playwright_instance, returning_profile)
    yield shared
    shared.close()


@pytest.fixture
def context(playwright_instance, requests_recorder, request):
    """A persistent context (a real profile: SW + installability work, unlike incognito).

    Its profile is a copy of `returning_profile` (a phone that visited the app before), or empty
    for tests marked `cold_profile` or `boot_snapshot` (but not `snapshot_stored`). Fails the
    test if anything was requested from a host other than loopback. The app's boot snapshot is
    made only for tests marked `boot_snapshot` (making one costs a second Pyodide boot in a
    worker after a first visit). Tests marked `shared_profile` share one (SharedProfile).
    """
    marked = lambda name: request.node.get_closest_marker(name) is not None  # noqa: E731
    if marked("shared_profile"):
        shared = request.getfixturevalue("_shared_profile")
        yield shared.open(requests_recorder)
        shared.release(requests_recorder, request.node.nodeid, failed=getattr(request.node, "failed_call", False))
    else:
        cold = marked("cold_profile") or (marked("boot_snapshot") and not marked("snapshot_stored"))
        user_data = tempfile.mkdtemp(prefix="dicehall-profile-")
        if not cold:
            shutil.copytree(request.getfixturevalue("returning_profile"), user_data, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("Singleton*", BROWSER_LOG, CRASH_HOME))
        ctx = launch_context(playwright_instance, user_data, requests_recorder)
        if request.node.get_closest_marker("boot_snapshot") is None:
            ctx.add_init_script("window.diceHallMakeSnapshot = false;")
        yield ctx
        crashed = any("error: the page crashed" in CONSOLE.all(pg) for pg in ctx.pages)
        try:
            ctx.close()
            if crashed:
                keep_crash_log(request.node.nodeid, user_data)
        finally:
            shutil.rmtree(user_data, ignore_errors=True)
    external = requests_recorder.external
    if external:
        pytest.fail("requests left the machine:\n  " + "\n  ".join(sorted(set(external))))


@pytest.fixture
def page(context, requests_recorder):
    pg = context.pages[0] if context.pages else context.new_page()
    CONSOLE.attach(pg)
    pg.on("request", requests_recorder.record)
    yield pg
    if not pg.is_closed():
        pg.remove_listener("request", requests_recorder.record)


def app_state(page) -> str | None:
    return page.evaluate("document.documentElement.getAttribute('data-app-state')")


def wait_ready(page, timeout: float = 60000) -> None:
    """Wait for html[data-app-state=ready]; fail with console errors on "error" or timeout."""
    CONSOLE.attach(page)
    try:
        page.wait_for_function(READY, timeout=timeout, polling=100)
    except Exception as exc:  # playwright TimeoutError
        pytest.fail(f"app not ready after {timeout} ms (state={app_state(page)!r}): {exc}\n"
                    + "\n".join(CONSOLE.all(page)[-40:]))
    state = app_state(page)
    if state != "ready":
        pytest.fail(f"app boot failed: data-app-state={state!r}\nconsole errors:\n"
                    + "\n".join(CONSOLE.errors(page) or CONSOLE.all(page)[-40:]))


def wait_sw_controlled(page, timeout: float = 60000) -> str:
    """Wait until the page is controlled by an activated service worker; returns its cache name."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=timeout, polling=100,
    )
    return page.evaluate(
        "async () => (await caches.keys()).filter(k => k.startsWith('dicehall-')).join(',')")


# --- page helpers shared by the UI tests ---------------------------------------------------
from support import mid_game_table  # noqa: E402,F401  (a fixed position, the CPython tests' too)
from dicehall.shell import REACT_MS  # noqa: E402  (web/ is on the path once support is imported)

def catalog(lang: str, game: str | None = None) -> dict:
    """A message catalog (the shared one, plus a game's own), to assert on the words players see."""
    from support import load_catalog

    return load_catalog(lang, game)


def tid(name: str) -> str:
    return f'[data-testid="{name}"]'


# A person's pace between taps: the app ignores a tap that comes within REACT_MS of the drawing
# of a tap's move (a double tap, web/dicehall/shell.py), and Playwright clicks as fast as the
# page lets it. Counted from when the previous click returned (its handler, and the draw, done).
TAP_PACE_S = (REACT_MS + 100) / 1000
_tapped: dict[int, float] = {}  # id(page) -> time.monotonic() after its last tap


def tap(page, target, **kwargs) -> None:
    """Click `target` (a selector, or a Locator of `page`) like a person: not sooner than
    TAP_PACE_S after this page's previous tap."""
    wait = _tapped.get(id(page), float("-inf")) + TAP_PACE_S - time.monotonic()
    if wait > 0:
        page.wait_for_timeout(wait * 1000)
    if isinstance(target, str):
        page.click(target, **kwargs)
    else:
        target.click(**kwargs)
    _tapped[id(page)] = time.monotonic()


def open_app(page, site, settings: dict | None = None, table: str | None = None, ui: dict | None = None) -> float:
    """Load the app (settings/save put into localStorage before boot); returns boot seconds."""
    import json
    import time

    page.goto(site.url + "sw-register.js")  # same origin, no app boot: set storage first
    page.evaluate("localStorage.clear()")
    if settings is not None:
        page.evaluate("s => localStorage.setItem('dicehall.settings', s)", json.dumps(settings))
    if table is not None:
        page.evaluate("s => localStorage.setItem('dicehall.table', s)", table)
    if ui is not None:
        page.evaluate("s => localStorage.setItem('dicehall.ui', s)", json.dumps(ui))
    started = time.monotonic()
    page.goto(site.index)
    wait_ready(page)
    return time.monotonic() - started


def start_game(page, game: str, kinds: list[str]) -> None:
    """From Home: a table of `game` with these seats ('person' or 'ai:<level>')."""
    tap(page, tid(f"new-{game}"))
    page.wait_for_selector(tid("start-game"))
    if page.locator(tid(f"seats-{len(kinds)}")).count():  # (a game with one player count has no buttons)
        tap(page, tid(f"seats-{len(kinds)}"))
    for i, kind in enumerate(kinds):
        page.select_option(tid(f"seat-{i}-kind"), kind)
    tap(page, tid("start-game"))
    page.wait_for_selector(tid("play"))


def saved_table(page):
    """The table the app saved (parsed and replayed on CPython)."""
    from pygame_core.table import Table

    return Table.loads(page.evaluate("localStorage.getItem('dicehall.table')"))


def no_raw_text(page, game: str | None = None) -> None:
    """No catalog key or unfilled placeholder on screen, nothing wider than the viewport and no
    button whose words spill out of it."""
    import re

    body = page.inner_text("body")
    assert "{" not in body and "}" not in body, body[:300]
    assert " at 0x" not in body, body[:300]  # no Python object's repr ("<function word at 0x…>")
    keys = set(catalog("en", game))
    shown = set(re.findall(r"[a-z_]+(?:\.[a-z_0-9]+)+", body))
    assert not shown & keys, shown & keys
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    # (a badge placed outside on purpose, e.g. a held die's lock, is absolutely positioned: not counted)
    spilling = page.evaluate("""() => [...document.querySelectorAll('button')]
      .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1
                   && ![...b.children].some(c => getComputedStyle(c).position === 'absolute'))
      .map(b => [b.dataset.testid || '', b.textContent.trim(), b.clientWidth, b.scrollWidth])""")
    assert not spilling, spilling  # a button's words stay inside it


def take_the_phone(page) -> None:
    """Wait for the next screen; on a hand-over card (hot seat: another person is to act) that
    person takes the phone."""
    page.wait_for_selector(f'{tid("handover-ok")}, {tid("play")}')
    if page.locator(tid("handover-ok")).count():
        tap(page, tid("handover-ok"))
        page.wait_for_selector(tid("play"))


def watch_long_tasks(page) -> None:
    """Record the page's long tasks (> 50 ms) from now on in window.__longTasks, and the app's
    "dh:tap" and "dh:render" measures (a person's tap handled, a redraw) in window.__measures.
    (Whether the computer was thinking cannot be read off the page when the observer reports:
    by then its move may be on the board.)"""
    page.evaluate("""() => { window.__longTasks = []; window.__measures = [];
      new PerformanceObserver(list => list.getEntries().forEach(e => window.__longTasks.push(
        {start: e.startTime, ms: e.duration})))
        .observe({type: 'longtask', buffered: false});
      new PerformanceObserver(list => list.getEntries().forEach(e => {
        if (e.name === 'dh:tap' || e.name === 'dh:render')
          window.__measures.push({name: e.name, start: e.startTime, ms: e.duration}); }))
        .observe({type: 'measure', buffered: false}); }""")


def long_tasks(page) -> list[dict]:
    """The long tasks recorded since `watch_long_tasks`. Each is marked `tap` when it handled a
    person's tap, and has `other_ms`: its time outside the app's taps and redraws. That part is
    where the computer's thinking would show if it ran on the main thread (it must never block
    the page for 100 ms); a tap's or a redraw's own cost grows with the machine's load, and is the
    bench's to time, not a test's (bench/tap_cost.py)."""
    tasks, measures = page.evaluate("[window.__longTasks, window.__measures]")
    for task in tasks:
        start, end = task["start"], task["start"] + task["ms"]
        inside = sorted((max(start, m["start"]), min(end, m["start"] + m["ms"]), m["name"]) for m in measures
                        if m["start"] < end + 1 and m["start"] + m["ms"] > start - 1)
        task["tap"] = any(name == "dh:tap" for _, _, name in inside)
        covered, reach = 0.0, start
        for lo, hi, _ in inside:  # the union of the measured intervals (a tap holds its redraw)
            lo = max(lo, reach)
            if hi > lo:
                covered, reach = covered + hi - lo, hi
        task["other_ms"] = round(task["ms"] - covered, 1)
    return tasks


def checked_aside(page, aside: list, check) -> None:
    """A check on the page while the long tasks are watched: its own main-thread work (measuring
    every button, a screenshot) is kept out of the count, which is about the computer's thinking
    (`aside` collects its start and end on the page's clock)."""
    start = page.evaluate("performance.now()")
    check()
    aside.append((start, page.evaluate("performance.now()")))


def not_aside(tasks: list[dict], aside: list) -> list[dict]:
    return [t for t in tasks if not any(a <= t["start"] <= b for a, b in aside)]


# --- online rooms: a PeerServer on loopback and a Chromium that makes WebRTC on loopback ---------
PEER_BIN = ROOT / "node_modules" / "peer" / json.loads(
    (ROOT / "node_modules" / "peer" / "package.json").read_text(encoding="utf-8")
    if (ROOT / "node_modules" / "peer" / "package.json").is_file() else '{"bin": {"peerjs": "-"}}')["bin"]["peerjs"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """A PeerServer (`peer` from node_modules) on 127.0.0.1; stop() and start() keep its port."""

    def __init__(self, port: int | None = None):
        self.port = port or _free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def options(self) -> dict:
        return {"host": "127.0.0.1", "port": self.port, "path": "/", "secure": False, "key": "peerjs"}

    def start(self) -> None:
        node = shutil.which("node")
        if node is None or not PEER_BIN.is_file():
            pytest.fail("the room transport tests need node and node_modules/peer (npm ci)")
        # Run the bin with node directly (killing an npx wrapper would orphan the server).
        self.proc = subprocess.Popen([node, str(PEER_BIN), "--port", str(self.port), "--host", "127.0.0.1"],
                                     cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None:
                pytest.fail(f"PeerServer exited: {self.proc.stderr.read().decode(errors='replace')[-2000:]}")
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail("PeerServer did not answer within 20 s")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL: a broker that dies (SIGTERM waits for every open socket)
            self.proc.wait(10)
        self.proc = None


@pytest.fixture(scope="module")
def broker():
    b = Broker()
    b.start()
    yield b
    b.stop()


# The rooms' browser has a fake camera that films this file (Chromium reads it anew each time a
# page opens the camera): `show_to_camera` puts a QR code in front of it. A page may use the
# camera only if its context is given the "camera" permission.
FAKE_CAMERA = Path(tempfile.gettempdir()) / f"dicehall-camera-{os.getpid()}.y4m"
CAMERA_SIZE = (640, 480)


def show_to_camera(qr: dict) -> None:
    """The fake camera's picture: the QR code {"size", "d"} (as web/direct.js draws it: a path of
    unit squares "M<col> <row>h1v1h-1z"), dark on white with its quiet zone, in a grey room."""
    width, height = CAMERA_SIZE
    n = int(qr["size"])
    px = int(0.8 * min(width, height) / (n + 8))
    left, top = (width - px * (n + 8)) // 2 + 4 * px, (height - px * (n + 8)) // 2 + 4 * px
    luma = bytearray([128]) * (width * height)
    for y in range(top - 4 * px, top + (n + 4) * px):
        luma[y * width + left - 4 * px: y * width + left + (n + 4) * px] = b"\xff" * ((n + 8) * px)
    for col, row in re.findall(r"M(\d+) (\d+)h1v1h-1z", qr["d"]):
        for y in range(top + int(row) * px, top + (int(row) + 1) * px):
            luma[y * width + left + int(col) * px: y * width + left + (int(col) + 1) * px] = b"\x00" * px
    frame = b"FRAME\n" + bytes(luma) + bytes([128]) * (width * height // 2)
    FAKE_CAMERA.write_bytes(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * 2)


@pytest.fixture(scope="module")
def rtc_browser(playwright_instance):
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=CHROMIUM_ARGS + ["--allow-loopback-in-peer-connection", "--use-fake-device-for-media-stream",
                              f"--use-file-for-fake-video-capture={FAKE_CAMERA}"])
    yield browser
    browser.close()




# --- accessibility: axe-core from node_modules, injected into the page ------------------------------
def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=(ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    return page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
            .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
    }""")


# Every word of visible text under a root: on one line (a word broken mid-word has line boxes at
# two heights; a break after a hyphen in the text is not mid-word) and inside the box of the nearest block (or button) that holds it. SVG text (plots)
# and hidden parts are left out.
WORDS_JS = """root => {
  const out = {broken: [], spilled: []};
  const top = document.querySelector(root);
  if (!top) return out;
  const unseen = el => {  // visually hidden words (.sr-only, clipped headings): for screen readers
    for (let p = el; p && p !== top.parentElement; p = p.parentElement)
      if (getComputedStyle(p).clip !== 'auto' || p.getBoundingClientRect().width <= 1) return true;
    return false;
  };
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent.getClientRects().length || parent.closest('[hidden], svg') || unseen(parent)) continue;
    let box = parent;
    while (box !== top && getComputedStyle(box).display.startsWith('inline') && box.tagName !== 'BUTTON') box = box.parentElement;
    const outer = box.getBoundingClientRect();
    // (a line may break after a hyphen the words carry, 'Penta-/bonus': each part is a word here)
    for (const m of node.textContent.matchAll(/[^\\s\\u00ad-]+[-\\u00ad]?|[-\\u00ad]/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (rects.length > 1 && new Set(rects.map(r => Math.round(r.top))).size > 1) out.broken.push(m[0]);
      const r = range.getBoundingClientRect();
      if (r.width && (r.left < outer.left - 1 || r.right > outer.right + 1))
        out.spilled.push([m[0], Math.round(r.left), Math.round(r.right), Math.round(outer.left), Math.round(outer.right),
                          box.tagName + '.' + box.className]);
    }
  }
  return out;
}"""


def words_whole(page, root: str, where=None) -> None:
    """No word under `root` (a selector) broken mid-word or spilling out of its box."""
    got = page.evaluate(WORDS_JS, root)
    assert got["broken"] == [] and got["spilled"] == [], (where, root, got)


# Elements matching `selector` (shown: with a box on the page) that are past either edge of the
# viewport, or (with `spills`) whose content is wider than their box while the box lets it show
# (overflow-x visible: words spilling out). An element that scrolls sideways on purpose says so by
# its overflow; with `in_scrollers=False` what lies inside such a box is left to that box (the
# replay's seat bar scrolls its chips, as on the play screen).
OUTSIDE_JS = """([selector, inScrollers, spills]) => {
  const inScroller = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true; } return false; };
  return [...document.querySelectorAll(selector)]
  .filter(el => el.getClientRects().length && (inScrollers || !inScroller(el)))
  .filter(el => {
    const r = el.getBoundingClientRect();
    const out = r.width > 0 && (r.left < -1 || r.right > innerWidth + 1);
    const spilled = spills && el instanceof HTMLElement && el.clientWidth > 0
                    && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible';
    return out || spilled; })
  .map(el => [el.tagName, el.dataset?.testid || String(el.className?.baseVal ?? el.className),
              el.textContent.trim().slice(0, 40), Math.round(el.getBoundingClientRect().left),
              Math.round(el.getBoundingClientRect().right)]); }"""


def outside_the_viewport(page, selector: str, in_scrollers: bool = True, spills: bool = True) -> list:
    """What of `selector` is past either edge of the phone or spills out of its box (OUTSIDE_JS)."""
    return page.evaluate(OUTSIDE_JS, [selector, in_scrollers, spills])


# Words of the text directly in the elements matching `selector` drawn on more than one line
# (broken inside the word): a word's range has its client rectangles on one line when whole.
BROKEN_WORDS_JS = """selector => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken; }"""


def broken_words(page, selector: str) -> list[str]:
    """The words broken across lines in the text of `selector`'s elements (BROKEN_WORDS_JS)."""
    return page.evaluate(BROKEN_WORDS_JS, selector)
