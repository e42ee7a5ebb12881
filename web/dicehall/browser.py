"""The one browser module: the DOM, events, focus, storage, the AI worker, wake lock and feel.

Everything the app does in the page goes through `BrowserPage` (the `page.Page` port); every
event the page hears is read into plain values here and handed to the shell (`shell.Shell`),
which is pure Python and tested under CPython with a fake page. Only this module, `storage.py`,
`assets.py` and `jsrooms.py` import `pyodide` or `js` (the architecture test says so; none imports
PyScript's own package, which the boot leaves to its first use: snap-loader.mjs preludeInTasks).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import random
import time

import js as window  # the page's global object (PyScript's `window`: its package is never imported)
from js import document
from pyodide.ffi import create_proxy, to_js

from .assets import Assets
from .jsrooms import DirectTransport, PeerTransport, QrScanner, qr_code
from .shell import Shell
from .storage import LocalStorage, is_none

WORKER_RESTARTS = 2
WORKER_WAIT_SECONDS = 20  # a first AI move waits this long for the worker before the main thread thinks
# A computer's move the worker has not answered by then: the worker is taken for hung (a move's
# search stops within about a second; a game's data file is loaded before it is asked), and the
# main thread thinks instead, as for a worker that failed. tests/browser set
# `window.diceHallThinkLimit` (seconds) to try a worker that never answers.
THINK_LIMIT_SECONDS = 30
# A review (seconds of work: docs/ARCHITECTURE.md) not answered by then is given up, and the
# review says it cannot be computed now, with Retry.
REVIEW_SECONDS = 120
VIBRATIONS = {"roll": [20], "celebrate": [40, 60, 40], "win": [60, 80, 60, 80, 120]}


def js(value):
    """None for JavaScript's null and undefined too."""
    return None if value is None or is_none(value) else value


def js_object(value: dict):
    return to_js(value, dict_converter=window.Object.fromEntries)


class WorkerCalls:
    """The AI worker's calls as awaitable methods (what `think` and `Assets` use): each is a
    message to web/ai-worker.mjs, answered by web/worker.py's function of the same name."""

    def __init__(self, client) -> None:
        self.client = client

    async def choose(self, game: str, state_json: str, seat: int, level: str | None, seed: int) -> str:
        return str(await self.client.call("choose", game, state_json, seat, level or "", seed))

    async def review(self, game: str, record_json: str) -> str:
        return str(await self.client.call("review", game, record_json))

    async def load_asset(self, game: str, name: str, url: str, sha256: str) -> str:
        return str(await self.client.call("load_asset", game, name, url, sha256))


class BrowserPage:
    def __init__(self) -> None:
        self.proxies: list = []  # kept alive as long as the page
        self.worker: WorkerCalls | None = None
        self.worker_settled = asyncio.Event()  # the AI worker is ready, or failed to start
        self.worker_restarts = 0
        self.assets: Assets | None = None

    def element(self, id_: str):
        return js(document.getElementById(id_))

    def proxy(self, fn):
        proxy = create_proxy(fn)
        self.proxies.append(proxy)
        return proxy

    # --- drawing ----------------------------------------------------------------------------
    def draw(self, screen: str, html: str, motion: bool, new_moment: bool, focus: str | None) -> None:
        focused = js(document.activeElement)
        # The focused element, by what finds it again after the redraw (its data-testid, or its id).
        before = None
        if focused is not None and hasattr(focused, "getAttribute") and focused is not document.body:
            testid, elem_id = js(focused.getAttribute("data-testid")), js(focused.getAttribute("id"))
            before = f'[data-testid="{testid}"]' if testid else (f"#{elem_id}" if elem_id else None)
        document.documentElement.setAttribute("data-motion", "on" if motion else "off")
        app = self.element("app")
        app.setAttribute("data-screen", screen)
        app.innerHTML = html
        if new_moment:
            window.scrollTo(0, 0)
            self.focus_heading(set_tabindex=True)
            return
        selector = f'[data-testid="{focus}"]' if focus else before
        el = js(document.querySelector(selector)) if selector else None
        if el is not None and not getattr(el, "disabled", False):
            el.focus(js_object({"preventScroll": True}))
        elif before:  # the focused control went away (e.g. Roll after the last roll): the heading
            self.focus_heading()

    def focus_heading(self, set_tabindex: bool = False) -> None:
        heading = js(document.querySelector("#app h1"))
        if heading is not None:
            if set_tabindex and not js(heading.getAttribute("tabindex")):
                heading.setAttribute("tabindex", "-1")
            heading.focus(js_object({"preventScroll": True}))

    def set_text(self, element_id: str, text: str) -> bool:
        el = self.element(element_id)
        if el is None:
            return False
        el.textContent = text
        return True

    def live(self, text: str) -> None:
        self.set_text("live", text)

    def toast(self, html: str | None) -> None:
        toast = self.element("toast")
        if toast is not None:
            toast.innerHTML = html or ""
            toast.hidden = html is None

    def dialog(self, html: str | None) -> None:
        dlg = self.element("dialog")
        if html is None:
            if dlg.open:
                dlg.close()
            return
        dlg.innerHTML = html
        dlg.setAttribute("aria-labelledby", "dlg-h")
        if not dlg.open:
            dlg.showModal()
        first = js(dlg.querySelector("button"))
        if first is not None:
            first.focus()

    def dialog_note(self, text: str, alert: bool) -> None:
        note = self.element("dlg-note")
        if note is not None:
            note.setAttribute("role", "alert" if alert else "status")
            note.textContent = text

    def update_banner(self, html: str | None) -> None:
        bar = self.element("update")
        if bar is not None:
            if html is not None:
                bar.innerHTML = html
            bar.hidden = html is None

    def has_enabled(self, action: str, arg: str | None) -> bool:
        selector = f'#app [data-action="{action}"]' + (f'[data-arg="{arg}"]' if arg is not None else "")
        el = js(document.querySelector(selector))
        return el is not None and not getattr(el, "disabled", False)

    def set_document(self, lang: str, direction: str, title: str) -> None:
        root = document.documentElement
        root.setAttribute("lang", lang)
        root.setAttribute("dir", direction)
        document.title = title

    def take_kept_tap(self, testid: str) -> bool:
        early = getattr(window, "diceHallEarly", None)
        return early is not None and bool(early.takeKept(testid))

    def boot_phase(self, text: str) -> None:
        self.set_text("boot-text", text)

    def booted(self) -> None:
        document.documentElement.setAttribute("data-app-state", "ready")
        boot = self.element("boot")
        if boot is not None:
            boot.hidden = True

    async def shown(self) -> None:
        early = getattr(window, "diceHallEarly", None)  # (web/early.js: after the next frame)
        if early is not None:
            await early.shown()

    # --- location --------------------------------------------------------------------------------
    def hash(self) -> str:
        return str(window.location.hash or "")

    def go(self, hash_: str, replace: bool) -> None:
        if replace:
            window.location.replace(hash_)
        else:
            window.location.hash = hash_

    def set_hash_quietly(self, hash_: str) -> None:
        window.history.replaceState(None, "", hash_)

    def address(self) -> str:
        return str(window.location.origin) + str(window.location.pathname)

    # --- the platform -------------------------------------------------------------------------------
    def now_ms(self) -> float:
        return float(window.performance.now())

    def clock(self) -> float:
        return time.time()

    @contextlib.contextmanager
    def measured(self, name: str):
        """The block's main-thread time as a performance measure `name`: observers get it, the
        timeline keeps none (no entries pile up over a long evening)."""
        window.performance.mark(name)
        try:
            yield
        finally:
            window.performance.measure(name, name)
            window.performance.clearMarks(name)
            window.performance.clearMeasures(name)

    def random_seed(self) -> int:
        try:
            arr = window.Uint32Array.new(2)
            window.crypto.getRandomValues(arr)
            return int(arr[0]) << 32 | int(arr[1])
        except Exception:
            return random.SystemRandom().getrandbits(64)

    def reduced_motion(self) -> bool:
        try:
            return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        except Exception:
            return False

    def languages(self) -> list[str]:
        return [str(x) for x in (window.navigator.languages or [])] or [str(window.navigator.language)]

    async def fetch_json(self, url: str):
        # index.html fetched the first strings as the page opened: each is taken once (a later
        # call, a language switch, fetches anew); one that failed is fetched again here.
        fetched = getattr(window, "diceHallFetched", None)
        early = None if is_none(fetched) else getattr(fetched, url, None)
        if not is_none(early):
            window.Reflect.deleteProperty(fetched, url)
            try:
                return json.loads(await early)
            except Exception:
                pass
        resp = await window.fetch(url)
        if not resp.ok:
            raise OSError(f"{url}: HTTP {resp.status}")
        return json.loads(await resp.text())

    def download(self, filename: str, text: str) -> None:
        blob = window.Blob.new([text], js_object({"type": "application/json"}))
        url = window.URL.createObjectURL(blob)
        a = document.createElement("a")
        a.href = url
        a.download = filename
        document.body.append(a)
        a.click()
        a.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 2000)

    async def copy(self, text: str) -> bool:
        try:
            await window.navigator.clipboard.writeText(text)
            return True
        except Exception:
            return False

    async def share(self, text: str) -> str:
        nav = window.navigator
        if getattr(nav, "share", None) is None:
            return "unavailable"
        try:
            await nav.share(js_object({"text": text}))
            return "shared"
        except Exception as err:
            return "cancelled" if "AbortError" in repr(err) else "unavailable"

    def wake_lock(self, on: bool) -> None:
        try:
            window.diceHallWakeLock(on)
        except Exception:  # no Wake Lock API (older browsers): the phone may dim, nothing breaks
            pass

    def leave_warning(self, on: bool) -> None:
        window.diceHallLeaveWarning(on)

    def feel(self, kind: str, sound: bool, vibrate: bool) -> None:
        if vibrate:
            try:
                window.navigator.vibrate(to_js(VIBRATIONS[kind]))
            except Exception:  # no vibration motor or not allowed: silence is fine
                pass
        if sound:
            try:
                window.diceHallSound(kind)
            except Exception:
                pass

    def date_text(self, seconds: float, lang: str) -> str:
        try:
            return str(window.Date.new(seconds * 1000).toLocaleDateString(lang))
        except Exception:
            return time.strftime("%Y-%m-%d", time.gmtime(seconds))

    def apply_update(self) -> None:
        window.diceHallApplyUpdate()

    def log_error(self, text: str) -> None:
        window.console.error(text)

    def log_warning(self, text: str) -> None:
        window.console.warn(text)

    # --- the AI worker (web/ai-client.js, web/ai-worker.mjs) ------------------------------------
    async def start_worker(self) -> None:
        """The AI worker is created once the first screen has been shown (web/ai-client.js: after
        a snapshot restore it restores from what the page handed over; else it boots by itself,
        never beside the page's own boot)."""
        try:
            await self.shown()  # the first screen first: the worker's creation and hand-over can wait a frame
            client = window.diceHallAI
            if self.worker_restarts:
                client.restart()
            await client.ready()
            self.worker = WorkerCalls(client)
            self.assets.worker_ready(self.worker)
        except Exception as err:  # the main thread keeps computing moves
            self.log_warning(f"dicehall: AI worker unavailable: {err}")
        finally:
            self.worker_settled.set()

    async def worker_up(self) -> bool:
        if self.worker is None and not self.worker_settled.is_set():
            # The worker boots after the UI: wait for it rather than freeze the page thinking here.
            try:
                await asyncio.wait_for(self.worker_settled.wait(), WORKER_WAIT_SECONDS)
            except asyncio.TimeoutError:
                pass
        return self.worker is not None

    async def review(self, game: str, record_json: str) -> str | None:
        """The game's review computed in the worker, once it holds the game's data; None when it
        cannot be had now (never computed here: seconds on the main thread would freeze the page)."""
        if not await self.worker_up() or not await self.assets.in_worker(game):
            return None
        try:
            return str(await asyncio.wait_for(self.worker.review(game, record_json), REVIEW_SECONDS))
        except Exception as err:  # the review's own error, or a worker gone: said as "not now"
            self.log_warning(f"dicehall: the review of {game} failed in the worker: {err}")
            return None

    async def think(self, game: str, state_json: str, seat: int, level: str, seed: int) -> str | None:
        if not await self.worker_up():
            return None
        limit = float(getattr(window, "diceHallThinkLimit", None) or THINK_LIMIT_SECONDS)
        try:
            return str(await asyncio.wait_for(self.worker.choose(game, state_json, seat, level, seed), limit))
        except Exception as err:  # (one that never answered too: asyncio.TimeoutError)
            self.log_warning(f"dicehall: worker failed, main thread takes over: {err!r}")
            self.worker = None
            if self.worker_restarts < WORKER_RESTARTS:  # a fresh worker for the next moves
                self.worker_restarts += 1
                self.worker_settled.clear()
                asyncio.ensure_future(self.start_worker())
            return None

    async def offline_ready(self, shell: Shell) -> None:
        """Once the service worker holds the app: ask the browser to keep our storage (saves
        survive storage pressure), then the shell says once that the app plays offline."""
        container = getattr(window.navigator, "serviceWorker", None)
        if container is None:
            return
        await self.shown()
        try:
            await container.ready
        except Exception:
            return
        try:
            persist = getattr(window.navigator.storage, "persist", None)
            if persist is not None:
                await window.navigator.storage.persist()
        except Exception:  # refused or unsupported: saves still work, only less protected
            pass
        shell.offline_ready()


# --- events: read into plain values, handed to the shell -------------------------------------------
def attr(el, name: str) -> str | None:
    value = js(el.getAttribute(name)) if el is not None and hasattr(el, "getAttribute") else None
    return None if value is None else str(value)


def element_data(el) -> dict:
    return {key: value for key in ("seat", "key") if (value := attr(el, f"data-{key}")) is not None}


def connect(page: BrowserPage, shell: Shell) -> None:
    def on_click(event) -> None:
        target = js(event.target)
        el = js(target.closest("[data-action]")) if target is not None and hasattr(target, "closest") else None
        if el is None or el.tagName == "INPUT" or getattr(el, "disabled", False):
            return
        screen = js(el.closest("[data-index]"))
        index = attr(screen, "data-index")
        # event.timeStamp: when the click happened (performance.now's clock), not when this
        # handler runs — a click that waited while the page drew the last move keeps its time.
        shell.tap(attr(el, "data-action"), attr(el, "data-arg"), int(index) if index is not None else None,
                  int(event.detail or 0), float(event.timeStamp or 0) or None)

    def on_change(event) -> None:
        el = js(event.target)
        if el is None or not hasattr(el, "getAttribute"):
            return
        if attr(el, "data-action") == "import":
            files = el.files
            if files and files.length:
                file = files.item(0)
                el.value = ""

                async def read() -> str:
                    return str(await file.text())
                asyncio.ensure_future(shell.import_file(int(file.size), read))
            return
        field = attr(el, "data-field")
        if field:
            shell.change(field, str(el.value), bool(getattr(el, "checked", False)), element_data(el))

    def on_input(event) -> None:
        el = js(event.target)
        field = attr(el, "data-field")
        if field:
            shell.edit(field, str(el.value), element_data(el))

    def on_key(event) -> None:
        target = js(event.target)
        tag = str(target.tagName) if target is not None and hasattr(target, "tagName") else ""
        if shell.key(str(event.key), attr(target, "data-field"), tag,
                     bool(event.ctrlKey or event.metaKey or event.altKey), bool(event.repeat)):
            event.preventDefault()

    def on_storage(event) -> None:
        key, value = js(event.key), js(event.newValue)
        if key is not None:
            shell.storage_changed(str(key), None if value is None else str(value))

    for name, handler in (("click", on_click), ("change", on_change), ("input", on_input), ("keydown", on_key)):
        document.addEventListener(name, page.proxy(handler))
    for name, handler in (("hashchange", lambda e: shell.hash_changed()), ("storage", on_storage),
                          ("dicehall-update-ready", lambda e: shell.update_ready())):
        window.addEventListener(name, page.proxy(handler))
    activity = page.proxy(lambda e: shell.activity())
    for name in ("pointerdown", "keydown", "wheel", "touchmove"):
        window.addEventListener(name, activity, js_object({"capture": True, "passive": True}))
    page.element("dialog").addEventListener("close", page.proxy(lambda e: shell.dialog_closed()))


def bench(game, payload):
    """window.diceHallBench(game, payload): a game's in-page measurement (bench/)."""
    return importlib.import_module(f"dicehall.games.{game}.bench").run(payload)


async def start() -> Shell:
    page = BrowserPage()
    shell = None
    page.assets = Assets(lambda game: shell.assets_changed(game))
    shell = Shell(page, LocalStorage(), page.assets, PeerTransport(), DirectTransport(), qr_code, QrScanner())
    await shell.start()
    connect(page, shell)  # (nothing runs between the first screen and this: no tap is lost)
    early = getattr(window, "diceHallEarly", None)
    if early is not None:  # the taps kept on the screens the build drew (web/early.js)
        early.handOff()
    if js(document.documentElement.getAttribute("data-update-ready")) == "1":
        shell.update_ready()
    window.diceHallBench = page.proxy(bench)
    asyncio.ensure_future(page.start_worker())
    asyncio.ensure_future(page.offline_ready(shell))
    return shell
