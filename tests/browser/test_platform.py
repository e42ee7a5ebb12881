"""Platform tests for the built PWA: offline boot, installability, precache, updates, budget."""

from __future__ import annotations

import gzip
import json
import re
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from dicehall_browser import MAX_TOTAL_BYTES, build_site, wait_ready, wait_sw_controlled

PRECACHE_RE = re.compile(r"const PRECACHE = (\[.*?\]);", re.S)
OPTIONAL_RE = re.compile(r"const OPTIONAL = (\[.*?\]);", re.S)
PACKED_RE = re.compile(r"const PACKED = (\{.*?\});", re.S)
VERSION_RE = re.compile(r'const VERSION = "([0-9a-f]{12})";')


def dist_files(dist: Path) -> set[str]:
    return {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}


def sw_precache(dist: Path) -> tuple[str, list[str]]:
    """The version and every file the service worker fetches (required and optional)."""
    text = (dist / "sw.js").read_text(encoding="utf-8")
    required = json.loads(PRECACHE_RE.search(text).group(1))
    optional = json.loads(OPTIONAL_RE.search(text).group(1))
    assert optional and all(url.startswith("./data/") for url in optional)  # games' lazy data only
    return VERSION_RE.search(text).group(1), required + optional


def sw_packed(dist: Path) -> dict[str, str]:
    """The files the service worker stores unpacked from their .gz (their own names are stubs)."""
    return json.loads(PACKED_RE.search((dist / "sw.js").read_text(encoding="utf-8")).group(1))


# ---------------------------------------------------------------- static checks (no browser)
def test_dist_under_budget(dist_dir):
    dist, summary = dist_dir
    total = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    assert total == summary["total_bytes"]
    assert total < MAX_TOTAL_BYTES, f"dist is {total:,} bytes"


def test_dist_layout(dist_dir):
    dist, _ = dist_dir
    files = dist_files(dist)
    for rel in ("index.html", "sw.js", "sw-register.js", "manifest.webmanifest", "pyscript.json",
                "app.zip", "favicon.png", "icons/icon-192.png", "icons/icon-512.png",
                "icons/icon-512-maskable.png", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.js",
                "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json", "pyodide/ai-worker.mjs",
                "pyscript/core.js"):
        assert rel in files, rel
    assert not [f for f in files if f.endswith(".map")]
    assert json.loads((dist / "pyscript.json").read_text()) == {
        "interpreter": "./pyodide/snap-loader.mjs",
        "plugins": ["!py-editor", "!py-game", "!py-terminal", "!donkey", "!deprecations-manager"]}
    loader = (dist / "pyodide/snap-loader.mjs").read_text(encoding="utf-8")
    assert "__DICEHALL_APP_HASH__" not in loader  # the cache key carries this build's app.zip
    lock = json.loads((dist / "pyodide/pyodide-lock.json").read_text())
    assert lock["packages"] == {} and "python" in lock["info"]
    # every module ships with its bytecode for the Pyodide's Python next to it, where zipimport
    # looks (the app imports from app.zip), used without a date check
    with zipfile.ZipFile(dist / "app.zip") as app:
        names = set(app.namelist())
        sources = [n for n in names if n.endswith(".py")]
        assert len(sources) > 50 and len(names) == 2 * len(sources)
        for source in sources:
            pyc = app.read(source + "c")
            assert int.from_bytes(pyc[4:8], "little") == 0b01, source  # hash-based, unchecked
    manifest = json.loads((dist / "manifest.webmanifest").read_text())
    assert manifest["name"] == "Dice Hall" and manifest["display"] == "standalone"
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    html = (dist / "index.html").read_text(encoding="utf-8")
    assert "manifest.webmanifest" in html and "sw-register.js" in html
    from pygame_core.registry import entries

    for name, entry in entries().items():  # every game: its catalogs, its lazily loaded data
        if name == "claim":
            continue  # the tests' fixture game is only in the fixture site
        for lang in ("en", "nb", "sv", "pl", "ar"):
            assert f"i18n/{name}/{lang}.json" in files
            assert f"{name}.title" in json.loads((dist / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for asset in entry.assets.values():
            assert f"data/{name}/{asset.file}" in files
            assert not any(n.endswith(asset.file) for n in zipfile.ZipFile(dist / "app.zip").namelist())


def test_sw_precache_lists_every_dist_file(dist_dir):
    dist, summary = dist_dir
    version, precache = sw_precache(dist)
    packed = sw_packed(dist)
    assert version == summary["version"]
    assert set(packed) == {"./pyodide/pyodide.asm.wasm", "./pyodide/pyodide.asm.mjs"}
    # every file but the packed ones' stubs, which the worker makes whole from their .gz
    assert sorted(precache) == sorted("./" + f for f in dist_files(dist) - {"sw.js"} if "./" + f not in packed)
    assert all(url + ".gz" in precache for url in packed)


def test_the_runtime_ships_packed_and_its_stubs_are_tiny(dist_dir):
    """A first visit downloads Pyodide's wasm and JavaScript gzip'd (3.5 and 0.26 MB instead of
    9.6 and 1.25; the JavaScript also whole as a classic script, which only the service worker
    downloads, after the boot); their own names hold stubs (Pyodide fetches the wasm by name every boot).
    The JavaScript is Pyodide's as build.py changes it (tests/test_build_pyodide.py)."""
    import build

    dist, _ = dist_dir
    root = Path(__file__).resolve().parents[2]
    module = build.pyodide_module((root / "node_modules" / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8"))
    # the same factory as a classic script, whole (only the service worker fetches it)
    assert (dist / "pyodide" / build.ASM_SCRIPT).read_text(encoding="utf-8") == build.classic_pyodide_script(module)
    for name in ("pyodide.asm.wasm", "pyodide.asm.mjs"):
        whole = module.encode("utf-8") if name == "pyodide.asm.mjs" else (root / "node_modules" / "pyodide" / name).read_bytes()
        packed = (dist / "pyodide" / (name + ".gz")).read_bytes()
        assert gzip.decompress(packed) == whole and len(packed) < 0.4 * len(whole)
        assert (dist / "pyodide" / name).stat().st_size < 1024


def test_build_is_deterministic(tmp_path):
    # Two back-to-back builds (not vs. the session build: the shared tree changes meanwhile).
    first = build_site(tmp_path / "a")
    second = build_site(tmp_path / "b")
    assert first["version"] == second["version"]
    assert (tmp_path / "a" / "app.zip").read_bytes() == (tmp_path / "b" / "app.zip").read_bytes()
    assert (tmp_path / "a" / "sw.js").read_bytes() == (tmp_path / "b" / "sw.js").read_bytes()


# ---------------------------------------------------------------- browser
@pytest.mark.browser
@pytest.mark.cold_profile
def test_boots_without_leaving_loopback(site, page, requests_recorder):
    page.goto(site.index)
    wait_ready(page)
    wait_sw_controlled(page)
    assert requests_recorder.urls, "no requests recorded?"
    assert requests_recorder.external == []


@pytest.mark.browser
def test_installable(site, context, page):
    page.goto(site.index)
    wait_ready(page)
    wait_sw_controlled(page)
    cdp = context.new_cdp_session(page)
    deadline = time.monotonic() + 30
    while True:
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        if not errors or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest.get("errors", []) == []
    assert manifest["url"].endswith("/manifest.webmanifest")


@pytest.mark.browser
def test_precache_holds_every_dist_file(site, page):
    page.goto(site.index)
    wait_ready(page)
    cache_names = wait_sw_controlled(page)
    assert cache_names == "dicehall-" + site.summary["version"]
    cached = page.evaluate("""async (name) => {
        const cache = await caches.open(name);
        return (await cache.keys()).map(r => new URL(r.url).pathname);
    }""", cache_names)
    packed = sw_packed(site.dist)
    # the packed files are there whole under their own names (their .gz gone once unpacked)
    gone = {url + ".gz" for url in packed}
    expected = {"/" + f for f in dist_files(site.dist) - {"sw.js"} if "./" + f not in gone}
    assert set(cached) == expected
    for url in packed:
        size = page.evaluate("""async ([name, url]) => {
            const hit = await (await caches.open(name)).match(url);
            return [(await hit.arrayBuffer()).byteLength, hit.headers.get('X-Dicehall-Unpacked')];
        }""", [cache_names, site.url + url[2:]])
        # the file as the build ships it (pyodide.asm.mjs is changed by build.py, see tests/test_build_pyodide.py)
        assert size == [len(gzip.decompress((site.dist / (url[2:] + ".gz")).read_bytes())), "1"], url


PRECACHE_COUNT_JS = r"""async () => {
    const sw = await (await fetch('./sw.js')).text();
    return JSON.parse(sw.match(/const PRECACHE = (\[[^\]]*\])/)[1]).length;
}"""
MENDED_JS = r"""async ([name, expected]) => {
    if (!(await caches.has(name))) return false;
    const urls = (await (await caches.open(name)).keys()).map(r => r.url);
    return urls.length >= expected && urls.some(u => u.endsWith('/pyodide/pyodide.asm.wasm'));
}"""


CACHES_JS = "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys()).then(r => [k, r.length]))))"


def wait_true(page, js: str, arg=None, timeout_s: float = 60) -> None:
    """Poll an async predicate until it is true: wait_for_function does not await one (a promise
    is truthy, so it would return at once)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(js, arg):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s; caches: {page.evaluate(CACHES_JS)}"
        page.wait_for_timeout(250)


def wait_for_precache(page, name: str, expected: int) -> None:
    wait_true(page, MENDED_JS, [name, expected])


@pytest.mark.browser
@pytest.mark.cold_profile
def test_a_precache_cleared_under_the_service_worker_is_mended_on_the_next_visit(site, context, page):
    """Cache Storage cleared (the boot snapshot's cache too): the next online visit fetches the
    precache again, and the visit after that boots offline."""
    page.goto(site.index)
    wait_ready(page)
    name = wait_sw_controlled(page)
    expected = page.evaluate(PRECACHE_COUNT_JS)  # (the packed files: one entry each, .gz or not)
    wait_for_precache(page, name, expected)  # the install has finished
    page.evaluate("caches.keys().then(keys => Promise.all(keys.map(k => caches.delete(k))))")
    assert page.evaluate("caches.keys()") == []
    page.reload()
    wait_ready(page)
    wait_for_precache(page, name, expected)
    context.set_offline(True)
    page.reload()
    wait_ready(page)


@pytest.mark.browser
def test_second_visit_boots_offline(site, context, page):
    page.goto(site.index)
    wait_ready(page)
    wait_sw_controlled(page)
    context.set_offline(True)
    responses = []
    page2 = context.new_page()
    page2.on("response", lambda r: responses.append(r))
    page2.goto(site.index)
    wait_ready(page2)
    assert responses, "no responses recorded"
    not_from_sw = [r.url for r in responses
                   if r.url.startswith(site.url) and not r.from_service_worker]
    assert not_from_sw == []
    # The app's files came out of the worker's cache without its code running (sw.js
    # staticRoutes); the page itself came through its fetch handler.
    delivered = page2.evaluate("Object.fromEntries(performance.getEntriesByType('resource').map(e => ["
                               "new URL(e.name).pathname.split('/').pop(), e.workerFinalSourceType]))")
    assert {delivered.get(name) for name in ("app.css", "early.js", "snap-loader.mjs", "app.zip")} == {"cache"}, delivered
    assert page2.evaluate("performance.getEntriesByType('navigation')[0].workerMatchedSourceType") == "fetch-event"
    # The start URL's directory form works offline too (navigation fallback).
    page2.goto(site.url)
    wait_ready(page2)


def build_beside(dist: Path, **kwargs) -> Callable[[], dict]:
    """Start building the next release into a folder beside `dist`, in a thread (the build is
    mostly zlib and hashing, which let the server thread run); the returned call waits for it,
    puts it in place of `dist` as a deploy would (the served folder swapped) and returns its
    summary. (The build took ~9 s of the test's ~60 s on the loaded machine, the first visit ~16 s
    of the browser's work: they overlap.)"""
    done: dict = {}

    def run() -> None:
        try:
            done["summary"] = build_site(dist.with_name(dist.name + "-next"), **kwargs)
        except BaseException as exc:  # noqa: BLE001 - raised in the test's thread
            done["error"] = exc

    builder = threading.Thread(target=run, daemon=True)
    builder.start()

    def deploy() -> dict:
        builder.join()
        if "error" in done:
            raise done["error"]
        dist.rename(dist.with_name(dist.name + "-old"))
        dist.with_name(dist.name + "-next").rename(dist)
        return done["summary"]

    return deploy


@pytest.mark.browser
@pytest.mark.alone  # builds the next release beside it while waiting on the worker's update: once timed out beside another worker
def test_new_build_is_detected_as_update(make_site, context, page):
    site = make_site(extra_files={"release.txt": b"1\n"})
    v1 = site.summary["version"]
    deploy = build_beside(site.dist, extra_files={"release.txt": b"2\n"})
    try:
        page.goto(site.index)
        wait_ready(page)
        assert wait_sw_controlled(page) == "dicehall-" + v1
        assert page.evaluate("document.documentElement.dataset.updateReady") is None
    finally:
        site.summary = deploy()
    v2 = site.summary["version"]
    assert v2 != v1
    page.reload()  # still served by v1's SW; sw-register.js calls reg.update() on boot
    wait_ready(page)
    page.wait_for_selector("html[data-update-ready='1']", state="attached", timeout=60000)
    with page.expect_navigation(timeout=60000):  # controllerchange -> one reload
        assert page.evaluate("window.diceHallApplyUpdate()") is True
    wait_ready(page)
    wait_true(page, f"""async () => {{
        const keys = (await caches.keys()).filter(k => k.startsWith('dicehall-'));
        return keys.length === 1 && keys[0] === 'dicehall-{v2}' &&
               navigator.serviceWorker.controller !== null;
    }}""")  # (wait_for_function would not await it: a promise is truthy)
    assert page.evaluate("document.documentElement.dataset.updateReady") is None
    release = page.evaluate("fetch('./release.txt').then(r => r.text())")
    assert release == "2\n"
