"""Dice Hall main-thread shell: boot, routing, the screens every game shares, saves, the AI worker.

Everything is rendered as escaped HTML into #app; one delegated click/change/input listener
dispatches `data-action` elements. The shell knows no game by name: it lists the registry, opens a
game's view package (`dicehall.games.<id>`) and catalog when the game opens, and hands the play
and results screens to the play controller (`dicehall.controller`), the only code that changes a
game.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import random
import time

from pyodide.ffi import create_proxy, to_js
from pyscript import document, window

from pygame_core import ai
from pygame_core.record import RecordError, parse as parse_record
from pygame_core.registry import entries, get_entry
from pygame_core.rng import DiceRoller
from pygame_core.table import MAX_NAME, SaveError, Table

from . import savesync, shelf, storage
from .assets import Assets
from .controller import PlayController
from .dom import button, esc
from .i18n import LANGUAGES, Catalog, pick_language
from .jsrooms import DirectTransport, PeerTransport, QrScanner, qr_code
from .roomdesk import RoomDesk
from .rooms import ROOM_SETTINGS, check_setting as check_room_setting, network as room_network
from .widgets.seats import SYMBOLS, name_html, symbol_html

DEFAULT_SETTINGS = {"lang": None, "animations": None, "autofill": True, "autofill_seconds": 3, "hints": False,
                    "pace": "normal", "offline_noted": False,
                    "sound": False, "vibrate": False, "room_server": "", "room_ice": ""}
PACES = ("slow", "normal", "fast")
COUNTDOWN_CHOICES = (2, 3, 5, 10)
MAX_RECORD_BYTES = 2_000_000  # a 5-player record is ~10 KB; larger files are refused unread
MAX_TOAST_CHARS = 240
TOAST_SECONDS = 8
INERT_MS = 800  # the second tap of a double tap within this time after a move is ignored
WORKER_RESTARTS = 2
WORKER_WAIT_SECONDS = 20  # a first AI move waits this long for the worker before the main thread thinks


def crypto_seed() -> int:
    try:
        arr = window.Uint32Array.new(2)
        window.crypto.getRandomValues(arr)
        return int(arr[0]) << 32 | int(arr[1])
    except Exception:
        return random.SystemRandom().getrandbits(64)


@contextlib.contextmanager
def measured(name: str):
    """The block's main-thread time as a performance measure `name`: observers get it, the
    timeline keeps none (no entries pile up over a long evening)."""
    window.performance.mark(name)
    try:
        yield
    finally:
        window.performance.measure(name, name)
        window.performance.clearMarks(name)
        window.performance.clearMeasures(name)


async def fetch_json(url: str):
    resp = await window.fetch(url)
    if not resp.ok:
        raise OSError(f"{url}: HTTP {resp.status}")
    return json.loads(await resp.text())


def check_settings(data) -> tuple[dict, bool]:
    """Stored settings, each checked, and whether all of them were sound; anything malformed
    falls back to its default (the app must always start)."""
    settings = dict(DEFAULT_SETTINGS)
    if data is None:
        return settings, True
    if not isinstance(data, dict):
        return settings, False
    sound = True
    for key, value in data.items():
        if key == "lang" and (value in LANGUAGES or value is None):
            settings["lang"] = value
        elif key == "animations" and value in (True, False, None):
            settings["animations"] = value
        elif key in ("autofill", "hints", "offline_noted", "sound", "vibrate") and isinstance(value, bool):
            settings[key] = value
        elif key == "autofill_seconds" and value in COUNTDOWN_CHOICES and type(value) is int:
            settings[key] = value
        elif key == "pace" and value in PACES:
            settings[key] = value
        elif key in ROOM_SETTINGS:
            try:
                settings[key] = check_room_setting(key, value)
            except ValueError:
                sound = False
        else:
            sound = False
    return settings, sound


class WorkerCalls:
    """The AI worker's calls as awaitable methods (what the app and `Assets` use): each is a
    message to web/ai-worker.mjs, answered by web/worker.py's function of the same name."""

    def __init__(self, client) -> None:
        self.client = client

    async def choose(self, game: str, state_json: str, seat: int, level: str | None, seed: int) -> str:
        return str(await self.client.call("choose", game, state_json, seat, level or "", seed))

    async def load_asset(self, game: str, name: str, url: str, sha256: str) -> str:
        return str(await self.client.call("load_asset", game, name, url, sha256))


class App:
    def __init__(self) -> None:
        self.settings = dict(DEFAULT_SETTINGS)
        self.catalog: Catalog | None = None
        self.english: dict = {}
        self.game_english: dict[str, dict] = {}
        self.dice_roller = DiceRoller(crypto_seed())
        self.play = PlayController(self, self.view, self.dice_roller)
        self.rooms = RoomDesk(self, PeerTransport(), DirectTransport(), qr_code, QrScanner())
        self.rng = random.Random(crypto_seed())
        self.setup: dict | None = None
        self.broken_save: str | None = None
        self.broken_reason: str = ""
        self.worker = None
        self.worker_settled = asyncio.Event()  # the AI worker is ready, or failed to start
        self.assets = Assets(self.on_assets)
        self.dialog_kind = None
        self._proxies = []
        self.unsaved = False  # the last save failed (storage full or blocked): say so, offer export
        self.moved_at = -1e9  # performance.now() of the last tap, if it changed the game
        self.last_written: str | None = None  # the table text this tab saved or read last
        self.moment = None  # (screen, …, whose turn): a change scrolls to the top and focuses the heading
        self.worker_restarts = 0
        self.pending_import = None  # a Table waiting for "replace the unfinished game?"
        self.toast_task = None
        self.offline_note = False  # "ready to play offline" shows on Home until the next screen
    # --- what the play controller asks of the shell (controller.Host) ---------------------------
    @property
    def lang(self) -> str:
        return self.catalog.lang

    @property
    def t(self) -> Catalog:
        """The catalog: `self.t(key, **params)` translates, `self.t.number(v, 1)` formats."""
        return self.catalog

    def error_text(self, err: Exception) -> str:
        return self.catalog.error(err)

    @property
    def animations(self) -> bool:
        value = self.settings.get("animations")
        if value is None:
            try:
                return not window.matchMedia("(prefers-reduced-motion: reduce)").matches
            except Exception:
                return True
        return bool(value)

    def save_game(self, table: Table | None, ui_text: str | None) -> bool:
        """Save after a move. One game has one writer: if storage holds a longer or different
        history of this table (another tab moved on), this tab takes that one over instead of
        overwriting it. A failed write (storage full or blocked) is said at once; play goes on."""
        if table is None and ui_text is None:
            storage.remove(storage.TABLE)
            storage.remove(storage.UI)
            self.last_written = None
            self.set_unsaved(False)
            return True
        if table is not None:
            stored = storage.get(storage.TABLE)
            # Only a save another tab wrote since this tab's last one can win: this tab's own
            # take-backs shorten its history and are still its to write.
            if stored is not None and stored != self.last_written and \
                    savesync.relation(stored, table) in ("behind", "diverged", "other"):
                asyncio.ensure_future(self.adopt_stored("tabs.continued"))
                return False
            text = table.dumps()
            ok = storage.put(storage.TABLE, text)
            if ok:
                self.last_written = text
            if table.state is not None and table.state.is_terminal():
                self.remember_finished(table)
        else:
            ok = True
        if ui_text is not None:
            ok = storage.put(storage.UI, ui_text) and ok
        self.set_unsaved(not ok)
        return ok

    def remember_finished(self, table: Table) -> None:
        """A finished game joins the history (once: saves after the end do not add it again)."""
        history = shelf.check_history(storage.get_json(storage.HISTORY, []))
        added = shelf.add_to_history(history, shelf.history_entry(table))
        if added is not None:
            storage.put(storage.HISTORY, json.dumps(added, ensure_ascii=False, separators=(",", ":")))

    def bests(self, game: str) -> list[dict]:
        """People's best scores in `game`, best first (the results screen and History show them)."""
        return shelf.personal_bests(shelf.check_history(storage.get_json(storage.HISTORY, [])), game)

    def parked(self) -> dict[str, str]:
        return shelf.check_parked(storage.get_json(storage.PARKED, {}))

    def park_running(self) -> bool:
        """Put the running unfinished game aside (one per game) so another can start or go on."""
        table = self.table
        if not self.play.running or not shelf.unfinished(table):
            return True
        parked = self.parked()
        parked[table.game] = table.dumps()
        return storage.put(storage.PARKED, json.dumps(parked, ensure_ascii=False, separators=(",", ":")))

    def unpark(self, game: str) -> None:
        """Go on with the unfinished game of `game` that was put aside; the running one is put aside."""
        parked = self.parked()
        text = parked.pop(game, None)
        if text is None:
            self.render()
            return
        if not self.park_running():
            self.say(self.t("save.failed"), error=True)
            return
        fresh = self.parked()
        fresh.pop(game, None)
        storage.put(storage.PARKED, json.dumps(fresh, ensure_ascii=False, separators=(",", ":")))
        table = Table.loads(text)
        self.play.load(table)
        self.replace_saved_game()
        self.play.save()
        self.go("#/play")
        self.play.kick()

    async def share_result(self) -> None:
        """The result as text: the system's share sheet, else the clipboard, else shown to copy."""
        table = self.table
        if not self.play.running or not table.state.is_terminal():
            return
        scores, places = table.state.scores(), table.state.ranking()
        order = sorted(range(len(table.seats)), key=lambda s: (places[s], s))
        parts = ", ".join(self.t("share.place", place=places[s], name=table.seats[s]["name"],
                                 score=self.t.number(scores[s])) for s in order)
        text = self.t("share.text", game=self.t(f"{table.game}.title"), scores=parts)
        nav = window.navigator
        try:
            if getattr(nav, "share", None) is not None:
                await nav.share(to_js({"text": text}, dict_converter=window.Object.fromEntries))
                return
        except Exception as err:
            if "AbortError" in repr(err):  # the player closed the share sheet
                return
        try:
            await nav.clipboard.writeText(text)
            self.say(self.t("share.copied"))
        except Exception:
            self.say(self.t("share.manual", text=text))

    def feedback(self, kind: str) -> None:
        """Optional sound and vibration (Settings) for a roll, a celebration and the end."""
        if self.settings.get("vibrate"):
            try:
                pattern = {"roll": [20], "celebrate": [40, 60, 40], "win": [60, 80, 60, 80, 120]}[kind]
                window.navigator.vibrate(to_js(pattern))
            except Exception:  # no vibration motor or not allowed: silence is fine
                pass
        if self.settings.get("sound"):
            try:
                window.diceHallSound(kind)
            except Exception:
                pass

    def keep_awake(self, screen: str) -> None:
        """The screen stays on while a game is on the table (Wake Lock); released elsewhere."""
        try:
            if screen == "play":
                window.diceHallWakeLock(True)
            else:
                window.diceHallWakeLock(False)
        except Exception:  # no Wake Lock API (older browsers): the phone may dim, nothing breaks
            pass

    def set_unsaved(self, unsaved: bool) -> None:
        if unsaved != self.unsaved:
            self.unsaved = unsaved
            if unsaved:
                self.say(self.t("save.failed"), error=True)
            self.render()

    async def adopt_stored(self, note: str | None) -> None:
        """Take over the table saved in storage (another tab's), with a note for the player."""
        text = storage.get(storage.TABLE)
        if text is None:
            self.play.load(None)
            if note:
                self.say(self.t("tabs.ended"), error=True)
            if self.route()[0] == "play":
                self.go("#/home", replace=True)
            return
        try:
            table = Table.loads(text)
            await self.load_game_catalog(table.game)
        except Exception:
            return  # a broken save from elsewhere: keep playing here; our next save replaces it
        self.last_written = text
        self.play.load(table, storage.get_json(storage.UI, {}))
        if note:
            self.say(self.t(note), error=True)
        self.render()
        self.play.kick()

    def on_key(self, event) -> None:
        """Keyboard shortcuts of the play screen (the view's: e.g. R roll, 1–5 dice, Enter confirm)."""
        target = self.js(event.target)
        key = str(event.key)
        if key == "Enter" and target is not None and hasattr(target, "getAttribute"):
            field = self.js(target.getAttribute("data-field"))
            enter = {"room-chat": "room-send", "room-name": "room-join", "room-answer": "room-accept"}
            if field in enter:  # Enter sends the chat line, asks to join, or connects an answer
                event.preventDefault()
                self.dispatch(enter[field], None)
                return
        if not self.rooms.on_play_screen() or event.ctrlKey or event.metaKey or event.altKey:
            return
        tag = str(target.tagName) if target is not None and hasattr(target, "tagName") else ""
        if tag in ("INPUT", "SELECT", "TEXTAREA") or (key in ("Enter", " ") and tag in ("BUTTON", "A", "SUMMARY")):
            return
        dlg = self.element("dialog")
        if dlg is not None and dlg.open:
            return
        found = self.play.shortcut(key)
        if found is None:
            return
        event.preventDefault()
        action, arg = found
        el = self.js(document.querySelector(f'#app [data-action="{action}"]' + (f'[data-arg="{arg}"]' if arg is not None else "")))
        if el is None or getattr(el, "disabled", False):
            return  # the same rule as a click: only what the screen offers
        try:
            self.dispatch(action, arg, self.play.table.match.index)
        except Exception as err:
            window.console.error(f"dicehall: key {key}: {err!r}")
            self.say(self.catalog.error(err), error=True)

    def on_activity(self, event) -> None:
        """Any touch, key or scroll stops an auto-play countdown: the player is there."""
        if self.play.countdown is not None:
            self.play.stop_countdown()

    def on_storage(self, event) -> None:
        """Another tab saved: catch up when it is ahead of this one, else say the game moved on."""
        if self.js(event.key) != storage.TABLE or self.rooms.guesting is not None:
            return  # (a guest's screen shows the host's table, not this phone's saved game)
        stored = self.js(event.newValue)
        if stored is None:
            if self.play.running:
                asyncio.ensure_future(self.adopt_stored("tabs.ended"))
            return
        stored = str(stored)
        if not self.play.running or stored == self.last_written:
            return
        relation = savesync.relation(stored, self.table)
        if relation == "behind":
            asyncio.ensure_future(self.adopt_stored(None))  # plain catching up
        elif relation in ("diverged", "other"):
            asyncio.ensure_future(self.adopt_stored("tabs.continued"))

    def set_text(self, element_id: str, text: str) -> bool:
        el = self.element(element_id)
        if el is None:
            return False
        el.textContent = text
        return True

    async def ai_move(self, game: str, state, seat: int, level: str) -> str:
        seed = self.rng.getrandbits(31)
        if self.worker is None and not self.worker_settled.is_set():
            # The worker boots after the UI: wait for it rather than freeze the page thinking here.
            try:
                await asyncio.wait_for(self.worker_settled.wait(), WORKER_WAIT_SECONDS)
            except asyncio.TimeoutError:
                pass
        if self.worker is not None and self.assets.where_to_think(game) == "worker":
            try:
                return str(await self.worker.choose(game, json.dumps(state.to_json()), seat, level, seed))
            except Exception as err:
                window.console.warn(f"dicehall: worker failed, main thread takes over: {err}")
                self.worker = None
                if self.worker_restarts < WORKER_RESTARTS:  # a fresh worker for the next moves
                    self.worker_restarts += 1
                    self.worker_settled.clear()
                    asyncio.ensure_future(self.start_worker())
        await asyncio.sleep(0.05)  # let "thinking…" paint before the main thread is busy
        return ai.choose_move(state, seat, level, random.Random(seed))

    def want_assets(self, game: str) -> None:
        self.assets.want(game)

    async def assets_ready(self, game: str, timeout: float = 5.0) -> None:
        await self.assets.ready(game, timeout)

    def asset_state(self, game: str) -> str:
        return self.assets.state(game)

    def on_assets(self, game: str) -> None:
        if self.play.running and self.play.table.game == game and self.route()[0] == "play":
            self.play.assets_changed()

    # --- basics ------------------------------------------------------------------------
    @staticmethod
    def view(game: str):
        """A game's view (its package under dicehall/games/)."""
        return importlib.import_module(f"dicehall.games.{game}").VIEW

    @property
    def table(self) -> Table | None:
        return self.play.table

    def element(self, id_: str):
        return self.js(document.getElementById(id_))

    @staticmethod
    def js(value):
        return None if value is None or storage.is_none(value) else value

    def seat_label(self, seats: list[dict], seat: int) -> str:
        return f'{symbol_html(seats[seat]["symbol"])} {name_html(seats[seat]["name"])}'

    def level_label(self, game: str, level: str) -> str:
        for key in (f"{game}.level.{level}", f"ai.level.{level}"):
            if self.catalog.has(key):
                return self.t(key)
        return level

    # --- boot --------------------------------------------------------------------------
    async def start(self) -> None:
        self.settings, sound = check_settings(storage.get_json(storage.SETTINGS, None, invalid=False))
        lang = self.settings.get("lang")
        if lang not in LANGUAGES:
            langs = [str(x) for x in (window.navigator.languages or [])] or [str(window.navigator.language)]
            lang = pick_language(langs)
        await self.load_language(lang)
        self.boot_phase("boot.table")
        await self.resume()
        self.rooms.boot()
        notes = [] if sound else ["settings.reset"]
        for name, handler in (("click", self.on_click), ("change", self.on_change), ("input", self.on_input),
                              ("keydown", self.on_key)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            document.addEventListener(name, proxy)
        for target, name, handler in ((window, "hashchange", self.on_hash), (window, "dicehall-update-ready", self.on_update),
                                      (window, "storage", self.on_storage)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(name, proxy)
        for name in ("pointerdown", "keydown", "wheel", "touchmove"):
            proxy = create_proxy(self.on_activity)
            self._proxies.append(proxy)
            window.addEventListener(name, proxy, to_js({"capture": True, "passive": True}, dict_converter=window.Object.fromEntries))
        dlg = self.element("dialog")
        proxy = create_proxy(lambda e: self.close_dialog())
        self._proxies.append(proxy)
        dlg.addEventListener("close", proxy)
        if self.play.running and not window.location.hash.startswith("#/play"):
            window.history.replaceState(None, "", "#/play")  # no hashchange: boot notes stay up
        if self.play.running:
            notes += self.table.notes
        try:
            self.render()
        except Exception as err:  # a save that loads but cannot be shown: the app still starts
            window.console.error(f"dicehall: resumed game cannot be shown: {err!r}")
            self.broken_save, self.broken_reason = storage.get(storage.TABLE), self.t("save.corrupt")
            self.play.load(None)
            self.render()
        for note in notes:
            self.say(self.t(note), error=True)
        document.documentElement.setAttribute("data-app-state", "ready")
        boot = self.element("boot")
        if boot is not None:
            boot.hidden = True
        if self.js(document.documentElement.getAttribute("data-update-ready")) == "1":
            self.on_update(None)
        self.play.kick()
        bench = create_proxy(self.bench)
        self._proxies.append(bench)
        window.diceHallBench = bench
        asyncio.ensure_future(self.start_worker())
        asyncio.ensure_future(self.offline_ready())

    def boot_phase(self, key: str) -> None:
        el = self.element("boot-text")
        if el is not None and self.catalog:
            el.textContent = self.t(key)

    async def load_language(self, lang: str) -> None:
        if not self.english:
            self.english = await fetch_json("./i18n/en.json")
        messages = self.english if lang == "en" else await fetch_json(f"./i18n/{lang}.json")
        self.catalog = Catalog(lang, messages, self.english)
        for game in list(self.game_english):
            await self.load_game_catalog(game)
        root = document.documentElement
        root.setAttribute("lang", lang)
        root.setAttribute("dir", self.catalog.dir)
        document.title = self.t("app.title")

    async def load_game_catalog(self, game: str) -> None:
        """A game's own strings, when the game opens (setup, rules, play)."""
        if game in self.catalog.games:
            return
        if game not in self.game_english:
            self.game_english[game] = await fetch_json(f"./i18n/{game}/en.json")
        lang = self.catalog.lang
        messages = self.game_english[game] if lang == "en" else await fetch_json(f"./i18n/{game}/{lang}.json")
        self.catalog.add(game, messages, self.game_english[game])

    def needs_catalog(self, game: str | None) -> bool:
        """True (and the catalog is fetched, then the screen redrawn) when it is not there yet."""
        if game is None or game in self.catalog.games:
            return False

        async def load_then_render():
            try:
                await self.load_game_catalog(game)
            except Exception as err:
                window.console.error(f"dicehall: catalog of {game}: {err!r}")
                self.say(self.t("error.unexpected"), error=True)
                return
            self.render()

        asyncio.ensure_future(load_then_render())
        return True

    async def start_worker(self) -> None:
        """The AI worker (web/ai-client.js, web/ai-worker.mjs). After a snapshot restore it is
        already booting (started with the page's interpreter); after a plain boot it starts now,
        once the UI is up (two plain boots at once are much slower)."""
        try:
            client = window.diceHallAI
            if self.worker_restarts:
                client.restart()
            await client.ready()
            self.worker = WorkerCalls(client)
            self.assets.worker_ready(self.worker)
        except Exception as err:  # the main thread keeps computing moves
            window.console.warn(f"dicehall: AI worker unavailable: {err}")
        finally:
            self.worker_settled.set()

    def bench(self, game, payload):
        """window.diceHallBench(game, payload): a game's in-page measurement (bench/)."""
        return importlib.import_module(f"dicehall.games.{game}.bench").run(payload)

    def on_update(self, event) -> None:
        bar = self.element("update")
        if bar is not None:
            bar.innerHTML = (f'<span>{esc(self.t("update.ready"))}</span>'
                             + button(esc(self.t("update.apply")), action="apply-update", cls="btn small",
                                      testid="apply-update")
                             + button(esc(self.t("update.later")), action="update-later", cls="btn small",
                                      testid="update-later"))
            bar.hidden = False

    async def offline_ready(self) -> None:
        """Once the service worker holds the app: ask the browser to keep our storage (saves
        survive storage pressure) and say once, ever, that the app now plays offline."""
        container = getattr(window.navigator, "serviceWorker", None)
        if container is None:
            return
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
        if not self.settings.get("offline_noted"):
            # A card on Home, never a toast over the table: said once, ever.
            self.settings["offline_noted"] = True
            self.save_settings()
            self.offline_note = True
            if self.route()[0] == "home":
                self.render()

    # --- saves -------------------------------------------------------------------------
    async def resume(self) -> None:
        text = storage.get(storage.TABLE)
        if text is None:
            return
        try:
            table = Table.loads(text)
            await self.load_game_catalog(table.game)
        except SaveError as err:
            self.broken_save, self.broken_reason = text, self.catalog.error(err)
            return
        except Exception:
            self.broken_save, self.broken_reason = text, self.t("save.corrupt")
            return
        self.last_written = text
        self.play.load(table, storage.get_json(storage.UI, {}))

    def save_settings(self) -> None:
        storage.put(storage.SETTINGS, json.dumps(self.settings))

    def download(self, filename: str, text: str) -> None:
        blob = window.Blob.new([text], to_js({"type": "application/json"}, dict_converter=window.Object.fromEntries))
        url = window.URL.createObjectURL(blob)
        a = document.createElement("a")
        a.href = url
        a.download = filename
        document.body.append(a)
        a.click()
        a.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 2000)

    def export_record(self) -> None:
        """The game record with its table (names, symbols, computer levels, standings)."""
        if self.table and self.table.record:
            stamp = time.strftime("%Y%m%d-%H%M", time.localtime())
            text = json.dumps(self.table.export(), ensure_ascii=False, indent=1)
            self.download(f"dicehall-{self.table.game}-{stamp}.json", text)

    async def import_file(self, input_el) -> None:
        files = input_el.files
        if not files or files.length == 0:
            return
        file = files.item(0)
        input_el.value = ""
        if int(file.size) > MAX_RECORD_BYTES:  # refused before reading it
            self.say(self.t("record.too_big"), error=True)
            return
        text = str(await file.text())
        try:
            data = parse_record(text)
            table = Table.from_export(data, self.default_seats)
            await self.load_game_catalog(table.game)
        except RecordError as err:
            self.say(self.catalog.error(err), error=True)
            return
        except Exception:
            self.say(self.t("record.corrupt"), error=True)
            return
        if self.play.running and not self.table.state.is_terminal():
            self.pending_import = table  # ask first: an unfinished game would be replaced
            self.open_dialog("import")
            return
        self.accept_import(table)

    def default_seats(self, n: int) -> list[dict]:
        return [{"name": self.t("setup.default_name", n=i + 1), "symbol": SYMBOLS[i % len(SYMBOLS)], "ai": None}
                for i in range(n)]

    def replace_saved_game(self) -> None:
        """A deliberate new table (set-up, import): it replaces whatever storage holds."""
        storage.remove(storage.TABLE)
        storage.remove(storage.UI)
        self.last_written = None

    def accept_import(self, table: Table) -> None:
        self.pending_import = None
        self.play.load(table)
        self.replace_saved_game()
        self.play.save()
        self.say(self.t("import.done"))
        self.go("#/play")
        self.play.kick()

    # --- feedback ----------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Announce through the live region (and show errors visibly, briefly, closably)."""
        text = text if len(text) <= MAX_TOAST_CHARS else text[: MAX_TOAST_CHARS - 1] + "…"
        live = self.element("live")
        if live is not None:
            live.textContent = text
        if error:
            toast = self.element("toast")
            if toast is not None:
                toast.innerHTML = (f'<span class="toast-text" data-testid="error">{esc(text)}</span>'
                                   + button("×", action="close-toast", cls="btn ghost toast-close", testid="toast-close",
                                            aria_label=self.t("toast.close")))
                toast.hidden = False
                if self.toast_task is not None and not self.toast_task.done():
                    self.toast_task.cancel()
                self.toast_task = asyncio.ensure_future(self.hide_toast_later())

    async def hide_toast_later(self) -> None:
        await asyncio.sleep(TOAST_SECONDS)
        self.clear_error()

    def clear_error(self) -> None:
        toast = self.element("toast")
        if toast is not None:
            toast.hidden = True
            toast.innerHTML = ""

    # --- routing -----------------------------------------------------------------------
    def route(self) -> list[str]:
        h = str(window.location.hash or "").lstrip("#").strip("/")
        return [p for p in h.split("/") if p] or ["home"]

    def go(self, hash_: str, replace: bool = False) -> None:
        """Navigate; `replace` keeps finished steps (setup, a quit game) out of the back history."""
        if str(window.location.hash) == hash_:
            self.render()
        elif replace:
            window.location.replace(hash_)
        else:
            window.location.hash = hash_

    # --- what the room desk asks of the shell (roomdesk.RoomDesk) ----------------------------
    def load(self, key: str):
        return storage.get_json(key, None)

    def store(self, key: str, text: str) -> bool:
        ok = storage.put(key, text)
        if not ok:
            self.say(self.t("save.failed"), error=True)
        return ok

    def remove(self, key: str) -> None:
        storage.remove(key)

    @staticmethod
    def clock() -> float:
        return time.time()

    def page_address(self) -> str:
        return str(window.location.origin) + str(window.location.pathname)

    def room_network(self) -> dict:
        try:
            return room_network(self.settings.get("room_server", ""), self.settings.get("room_ice", ""))
        except ValueError:
            return {"broker": None, "ice": None}

    def copy_text(self, text: str, said: str = "room.copied") -> None:
        async def copy():
            try:
                await window.navigator.clipboard.writeText(text)
                self.say(self.t(said))
            except Exception:  # no clipboard here: the link is on screen to select by hand
                self.say(self.t("room.copy_failed"), error=True)
        asyncio.ensure_future(copy())

    def log_error(self, text: str) -> None:
        window.console.error(f"dicehall: {text}")

    def restore_own_table(self) -> None:
        """Back from someone else's room: this phone's own saved game, as it was."""
        self.play.load(None)

        async def restore():
            await self.resume()
            self.render()
        asyncio.ensure_future(restore())

    def on_hash(self, event) -> None:
        self.clear_error()
        self.offline_note = False  # said; leaving Home puts it away
        self.render()
        self.play.kick()

    def known_game(self, parts: list[str]) -> str | None:
        return parts[1] if len(parts) > 1 and parts[1] in entries() else None

    def render(self) -> None:
        # A "dh:render" measure, like "dh:tap": tests tell the page's own redraws from anything
        # else on the main thread (the computer must never block it); bench/ times the redraws.
        with measured("dh:render"):
            self._render()

    def _render(self) -> None:
        focused = self.js(document.activeElement)
        # The focused element, by what finds it again after the redraw (its data-testid, or its id).
        focus_sel = None
        if focused is not None and hasattr(focused, "getAttribute") and focused is not document.body:
            testid, elem_id = self.js(focused.getAttribute("data-testid")), self.js(focused.getAttribute("id"))
            focus_sel = f'[data-testid="{testid}"]' if testid else (f"#{elem_id}" if elem_id else None)
        parts = self.route()
        screen = parts[0]
        game = self.known_game(parts)
        if self.broken_save is not None:
            body, screen = self.render_broken(), "broken"
        elif screen in ("setup", "rules") and game is not None:
            if self.needs_catalog(game):
                return
            body = self.render_setup(game) if screen == "setup" else self.render_rules(game)
        elif screen == "settings":
            body = self.render_settings()
        elif screen == "history":
            body = self.render_history()
        elif screen == "join" and not self.rooms.guest_in:
            body = self.rooms.render_join(parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None)
        elif screen in ("play", "join") and self.play.running and (self.rooms.guest_in or self.rooms.guesting is None):
            if self.needs_catalog(self.table.game):
                return
            body = self.play.render_body() + self.rooms.render_panel()
            screen = "results" if self.table.state.is_terminal() else "play"
        else:
            body, screen = self.render_home(), "home"
        document.documentElement.setAttribute("data-motion", "on" if self.animations else "off")
        app = self.element("app")
        app.setAttribute("data-screen", screen)
        self.keep_awake(screen)
        app.innerHTML = self.render_topbar(screen) + self.render_notice(screen) + body
        # A new screen or a new person's turn starts at the top with focus on its heading; else
        # focus stays on the control that had it (the same data-testid).
        moment = (screen, parts[1] if len(parts) > 1 else None, self.play.moment() if screen == "play" else None)
        if moment != self.moment:
            self.moment = moment
            window.scrollTo(0, 0)
            heading = self.js(document.querySelector("#app h1"))
            if heading is not None:
                if not self.js(heading.getAttribute("tabindex")):
                    heading.setAttribute("tabindex", "-1")
                heading.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
        else:
            wanted = self.play.take_focus() if screen == "play" else None
            selector = f'[data-testid="{wanted}"]' if wanted else focus_sel
            el = self.js(document.querySelector(selector)) if selector else None
            if el is not None and not getattr(el, "disabled", False):
                el.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
            elif focus_sel:  # the focused control went away (e.g. Roll after the last roll): the heading
                heading = self.js(document.querySelector("#app h1"))
                if heading is not None:
                    heading.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))

    def render_topbar(self, screen: str) -> str:
        home = "" if screen in ("home", "broken") else button(
            f'<span aria-hidden="true" class="flip">←</span> {esc(self.t("nav.home"))}', action="go", arg="#/home",
            cls="btn ghost", testid="nav-home")
        settings = "" if screen in ("settings", "broken") else button(
            '<span aria-hidden="true" class="gear">⚙</span>',
            action="go", arg="#/settings", cls="btn ghost", testid="nav-settings", aria_label=self.t("nav.settings"),
            title=self.t("nav.settings"))
        menu = ""
        if screen == "play":
            menu = (button(esc(self.t("nav.rules")), action="go", arg=f"#/rules/{self.table.game}", cls="btn ghost",
                           testid="nav-rules")
                    + button(esc(self.t("play.quit")), action="quit", cls="btn ghost", testid="quit"))
        return (f'<header class="topbar"><div class="brand"><span class="logo" aria-hidden="true">⚄</span>'
                f'<span>{esc(self.t("app.title"))}</span></div><nav class="topnav" aria-label="{esc(self.t("nav.label"))}">'
                f"{home}{menu}{settings}</nav></header>")

    def render_notice(self, screen: str) -> str:
        """A lasting warning while saving fails: the game goes on in memory; export keeps it."""
        if not self.unsaved or screen not in ("play", "results", "home"):
            return ""
        export = button(esc(self.t("results.export")), action="export", cls="btn small", testid="unsaved-export") \
            if self.play.running else ""
        return (f'<div class="notice" role="alert" data-testid="unsaved"><span>{esc(self.t("save.failed"))}</span>'
                f"{export}</div>")

    # --- screens -----------------------------------------------------------------------
    def render_home(self) -> str:
        out = [f'<section class="screen home" aria-labelledby="home-h"><h1 id="home-h">{esc(self.t("home.heading"))}</h1>'
               f'<p class="lead">{esc(self.t("home.tagline"))}</p>']
        if self.offline_note:
            out.append(f'<p class="card note" role="status" data-testid="offline-ready">{esc(self.t("offline.ready"))}</p>')
        if self.play.running and not self.table.state.is_terminal():
            names = ", ".join(s["name"] for s in self.table.seats)
            out.append(f'<div class="card continue"><p><bdi>{esc(self.t("home.saved", game=self.t(f"{self.table.game}.title"), players=names))}</bdi></p>'
                       + button(esc(self.t("home.continue")), action="go", arg="#/play", cls="btn primary",
                                testid="continue") + "</div>")
        for game, text in self.parked().items():  # the other games' unfinished tables
            try:
                seats = Table.loads(text).seats
            except SaveError:
                continue
            names = ", ".join(s["name"] for s in seats)
            out.append(f'<div class="card continue parked"><p><bdi>{esc(self.t("home.saved", game=self.t(f"{game}.title"), players=names))}</bdi></p>'
                       + button(esc(self.t("home.continue")), action="continue-game", arg=game, cls="btn",
                                testid=f"continue-{game}") + "</div>")
        out.append(f'<h2>{esc(self.t("home.pick"))}</h2><ul class="games">')
        for name, entry in entries().items():
            rules = entry.rules
            players = self.t("home.players_n", n=rules.min_players) if rules.min_players == rules.max_players \
                else self.t("home.players", min=rules.min_players, max=rules.max_players)
            out.append(
                f'<li class="card game" data-game="{esc(name)}"><h3>{esc(self.t(f"{name}.title"))}</h3>'
                f'<p>{esc(self.t(f"{name}.blurb"))}</p>'
                f'<p class="meta">{esc(players)}</p>'
                f'<div class="row">' + button(esc(self.t("home.new_game")), action="new-setup", arg=name,
                                              cls="btn primary", testid=f"new-{name}")
                + button(esc(self.t("nav.rules")), action="go", arg=f"#/rules/{name}", cls="btn",
                         testid=f"rules-{name}") + "</div></li>")
        out.append("</ul>")
        out.append('<div class="row">' + button(esc(self.t("history.button")), action="go", arg="#/history", cls="btn",
                                                testid="nav-history") + "</div>")
        out.append(f'<div class="card"><h2>{esc(self.t("import.heading"))}</h2><p>{esc(self.t("import.help"))}</p>'
                   f'<label class="btn file"><input type="file" accept=".json,application/json" data-action="import" '
                   f'data-testid="import-file"> {esc(self.t("import.button"))}</label></div></section>')
        return "".join(out)

    def date_text(self, seconds: int) -> str:
        try:
            return str(window.Date.new(seconds * 1000).toLocaleDateString(self.lang))
        except Exception:
            return time.strftime("%Y-%m-%d", time.gmtime(seconds))

    def render_history(self) -> str:
        """Finished games, newest first, and each game's personal bests (people, not the computer)."""
        history = shelf.check_history(storage.get_json(storage.HISTORY, []))
        out = [f'<section class="screen history" aria-labelledby="history-h"><h1 id="history-h">{esc(self.t("history.heading"))}</h1>']
        if not history:
            out.append(f'<p data-testid="history-empty">{esc(self.t("history.empty"))}</p>')
        for game in entries():
            bests = shelf.personal_bests(history, game)
            if not bests:
                continue
            out.append(f'<h2>{esc(self.t(f"{game}.title"))}</h2><table class="bests" data-testid="bests-{esc(game)}"><thead><tr>'
                       f'<th scope="col">{esc(self.t("history.name"))}</th><th scope="col">{esc(self.t("history.best"))}</th>'
                       f'<th scope="col">{esc(self.t("history.games"))}</th></tr></thead><tbody>')
            for best in bests[:10]:
                out.append(f'<tr><td><bdi>{esc(best["name"])}</bdi></td><td class="num">{esc(self.t.number(best["score"]))}</td>'
                           f'<td class="num">{esc(self.t.number(best["games"]))}</td></tr>')
            out.append("</tbody></table>")
        if history:
            out.append(f'<h2>{esc(self.t("history.recent"))}</h2><ol class="recent" data-testid="history-list">')
            for item in reversed(history[-20:]):
                order = sorted(item["seats"], key=lambda seat: seat["place"])
                line = ", ".join(self.t("share.place", place=seat["place"], name=seat["name"], score=self.t.number(seat["score"]))
                                 for seat in order)
                game = item["game"]
                title = self.t(f"{game}.title")
                out.append(f'<li><strong>{esc(title)}</strong> · {esc(self.date_text(item["ended"]))}'
                           f'<br><bdi>{esc(line)}</bdi></li>')
            out.append("</ol>")
        out.append("</section>")
        return "".join(out)

    def render_broken(self) -> str:
        return (f'<section class="screen broken" role="alert" data-testid="save-error"><h1>{esc(self.t("save.heading"))}</h1>'
                f'<p>{esc(self.t("save.unreadable"))}</p><p class="muted">{esc(self.broken_reason)}</p><div class="row">'
                + button(esc(self.t("save.discard")), action="discard-save", cls="btn primary", testid="discard-save")
                + button(esc(self.t("save.export")), action="export-save", cls="btn", testid="export-save")
                + "</div></section>")

    # setup
    def default_setup(self, game: str) -> dict:
        """The last set-up of this game (names remembered), else a person and a computer."""
        setups = storage.get_json(storage.SETUPS, {})
        remembered = shelf.check_setup(game, setups.get(game) if isinstance(setups, dict) else None, SYMBOLS)
        if remembered:
            return {"game": game, "seats": remembered}
        entry = get_entry(game)
        seats = [{"name": self.t("setup.default_name", n=1), "symbol": SYMBOLS[0], "ai": None},
                 {"name": self.t("setup.default_ai_name"), "symbol": SYMBOLS[1], "ai": entry.setup_level}]
        while len(seats) < entry.rules.min_players:
            seats.append({"name": self.t("setup.default_name", n=len(seats) + 1), "symbol": SYMBOLS[len(seats)], "ai": None})
        return {"game": game, "seats": seats[:max(entry.rules.min_players, min(2, entry.rules.max_players))]}

    def new_setup(self, game: str) -> None:
        self.setup = None
        self.go(f"#/setup/{game}")

    def render_setup(self, game: str) -> str:
        if not self.setup or self.setup["game"] != game:
            self.setup = self.default_setup(game)
        entry = get_entry(game)
        seats = self.setup["seats"]
        out = [f'<section class="screen setup" aria-labelledby="setup-h"><h1 id="setup-h">{esc(self.t("setup.heading", game=self.t(f"{game}.title")))}</h1>',
               f'<fieldset class="count"><legend>{esc(self.t("setup.count"))}</legend><div class="row">']
        for n in range(entry.rules.min_players, entry.rules.max_players + 1):
            out.append(button(str(n), action="seat-count", arg=n, cls="btn square", testid=f"seats-{n}",
                              aria_pressed="true" if n == len(seats) else "false",
                              aria_label=self.t("setup.count_n", n=n)))
        out.append("</div></fieldset><ol class=\"seats\">")
        for i, seat in enumerate(seats):
            used = {s["symbol"] for j, s in enumerate(seats) if j != i}
            sym_buttons = "".join(
                button(symbol_html(sym), action="symbol", arg=f"{i}:{sym}", cls="btn square symbtn",
                       testid=f"seat-{i}-symbol-{k}", aria_pressed="true" if sym == seat["symbol"] else "false",
                       aria_label=self.t(f"symbol.{k}"), disabled=sym in used)
                for k, sym in enumerate(SYMBOLS))
            kind = f"ai:{seat['ai']}" if seat["ai"] else "person"
            options = [f'<option value="person"{" selected" if kind == "person" else ""}>{esc(self.t("setup.person"))}</option>']
            for level in entry.ai_levels:
                value = f"ai:{level}"
                options.append(f'<option value="{esc(value)}"{" selected" if kind == value else ""}>'
                               f'{esc(self.t("setup.ai_level", level=self.level_label(game, level)))}</option>')
            role = f' <span class="muted">({esc(self.t(entry.rules.seat_labels[i]))})</span>' if entry.rules.seat_labels else ""
            out.append(
                f'<li class="card seat"><h2>{symbol_html(seat["symbol"])} {esc(self.t("setup.seat", n=i + 1))}{role}</h2>'
                f'<label>{esc(self.t("setup.name"))} <input type="text" maxlength="{MAX_NAME}" autocomplete="off" '
                f'value="{esc(seat["name"])}" data-field="name" data-seat="{i}" data-testid="seat-{i}-name"></label>'
                f'<fieldset class="symbols"><legend>{esc(self.t("setup.symbol"))}</legend><div class="row">{sym_buttons}</div></fieldset>'
                f'<label>{esc(self.t("setup.kind"))} <select data-field="kind" data-seat="{i}" data-testid="seat-{i}-kind">'
                f'{"".join(options)}</select></label></li>')
        if game in self.parked() or (self.play.running and shelf.unfinished(self.table) and self.table.game == game):
            out.append(f'<p class="note" data-testid="setup-replaces">{esc(self.t("setup.replaces", game=self.t(f"{game}.title")))}</p>')
        out.append("</ol><div class=\"actionbar\">" + button(esc(self.t("setup.start")), action="start-game", cls="btn primary big",
                                                            testid="start-game") + "</div></section>")
        return "".join(out)

    def is_default_name(self, name: str) -> bool:
        """A name the app gave (so it may follow the seat's kind), not one a person typed."""
        name = name.strip()
        given = {self.t("setup.default_ai_name")} | {self.t("setup.default_name", n=k) for k in range(1, 6)} \
            | {self.t("setup.default_ai_name_n", n=k) for k in range(1, 6)}
        return not name or name in given

    def default_name(self, i: int, ai_seat: bool) -> str:
        """"Player 2" for a person, "Computer" (or "Computer 2" when taken) for the computer."""
        if not ai_seat:
            return self.t("setup.default_name", n=i + 1)
        taken = {s["name"] for j, s in enumerate(self.setup["seats"]) if j != i}
        name = self.t("setup.default_ai_name")
        return name if name not in taken else self.t("setup.default_ai_name_n", n=i + 1)

    def set_seat_count(self, n: int) -> None:
        seats = self.setup["seats"]
        while len(seats) > n:
            seats.pop()
        while len(seats) < n:
            used = {s["symbol"] for s in seats}
            sym = next(s for s in SYMBOLS if s not in used)
            seats.append({"name": self.t("setup.default_name", n=len(seats) + 1), "symbol": sym, "ai": None})
        self.render()

    def start_game(self) -> None:
        seats = []
        for i, seat in enumerate(self.setup["seats"]):
            name = seat["name"].strip()[:MAX_NAME] or self.t("setup.default_name", n=i + 1)
            seats.append({"name": name, "symbol": seat["symbol"], "ai": seat["ai"]})
        table = Table(self.setup["game"], seats)
        table.new_game(random.Random(crypto_seed()))
        setups = shelf.remember_setup(storage.get_json(storage.SETUPS, {}), table.game, seats)
        storage.put(storage.SETUPS, json.dumps(setups, ensure_ascii=False, separators=(",", ":")))
        # Another game's unfinished table is put aside (Home lists it); one of this game is replaced,
        # as the set-up screen said.
        if self.play.running and shelf.unfinished(self.table) and self.table.game != table.game:
            if not self.park_running():
                self.say(self.t("save.failed"), error=True)
                return
        parked = self.parked()
        if parked.pop(table.game, None) is not None:
            storage.put(storage.PARKED, json.dumps(parked, ensure_ascii=False, separators=(",", ":")))
        self.play.load(table)
        self.replace_saved_game()
        self.play.save()
        self.go("#/play", replace=True)
        self.play.kick()

    # rules / settings
    def back_target(self) -> str:
        return "#/play" if self.play.running and not self.table.state.is_terminal() else "#/home"

    def render_rules(self, game: str) -> str:
        out = [f'<section class="screen rules" aria-labelledby="rules-h"><h1 id="rules-h">{esc(self.t("rules.heading", game=self.t(f"{game}.title")))}</h1>']
        view = self.view(game)
        i = 1
        while self.catalog.has(f"{game}.rules.{i}"):
            text = self.t(f"{game}.rules.{i}")
            if text.startswith("## "):
                out.append(f"<h2>{esc(text[3:])}</h2>")
            elif text.startswith("- "):
                out.append(f'<ul><li>{"</li><li>".join(esc(x[2:] if x.startswith("- ") else x) for x in text.split(chr(10)))}</li></ul>')
            else:
                out.append(f"<p>{esc(text)}</p>")
            if i == view.rules_table_after:
                out.append(view.rules_table(self.t))
            i += 1
        out.append('<div class="actionbar">' + button(esc(self.t("nav.back")), action="go", arg=self.back_target(),
                                                      cls="btn primary big", testid="rules-back") + "</div></section>")
        return "".join(out)

    def render_settings(self) -> str:
        opts = "".join(f'<option value="{code}"{" selected" if code == self.catalog.lang else ""} lang="{code}">{esc(name)}</option>'
                       for code, (name, _) in LANGUAGES.items())
        anim = self.animations
        auto = bool(self.settings.get("autofill", True))
        hints = bool(self.settings.get("hints", False))
        return (f'<section class="screen settings" aria-labelledby="settings-h"><h1 id="settings-h">{esc(self.t("settings.heading"))}</h1>'
                f'<div class="card"><label>{esc(self.t("settings.language"))} <select data-field="lang" data-testid="set-lang">{opts}</select></label>'
                f'<label class="check"><input type="checkbox" data-field="animations" data-testid="set-animations"{" checked" if anim else ""}> '
                f'{esc(self.t("settings.animations"))}</label>'
                f'<label class="check"><input type="checkbox" data-field="autofill" data-testid="set-autofill"{" checked" if auto else ""}> '
                f'{esc(self.t("settings.autofill"))}</label><p class="muted">{esc(self.t("settings.autofill_help"))}</p>'
                f'<label>{esc(self.t("settings.autofill_seconds"))} <select data-field="autofill_seconds" data-testid="set-autofill-seconds">'
                + "".join(f'<option value="{n}"{" selected" if n == self.settings.get("autofill_seconds", 3) else ""}>'
                          f'{esc(self.t("settings.seconds", n=n))}</option>' for n in COUNTDOWN_CHOICES)
                + "</select></label>"
                f'<label>{esc(self.t("settings.pace"))} <select data-field="pace" data-testid="set-pace">'
                + "".join(f'<option value="{p}"{" selected" if p == self.settings.get("pace", "normal") else ""}>'
                          f'{esc(self.t(f"settings.pace_{p}"))}</option>' for p in PACES)
                + "</select></label>"
                + "".join(f'<label class="check"><input type="checkbox" data-field="{k}" data-testid="set-{k}"'
                          f'{" checked" if self.settings.get(k) else ""}> {esc(self.t(f"settings.{k}"))}</label>'
                          for k in ("sound", "vibrate")) +
                f'<label class="check"><input type="checkbox" data-field="hints" data-testid="set-hints"{" checked" if hints else ""}> '
                f'{esc(self.t("settings.hints"))}</label><p class="muted">{esc(self.t("settings.hints_help"))}</p></div>'
                f'<div class="card"><h2>{esc(self.t("settings.rooms"))}</h2>'
                f'<label>{esc(self.t("settings.room_server"))} <input type="url" data-field="room_server" data-testid="set-room-server" '
                f'value="{esc(self.settings.get("room_server", ""))}" placeholder="https://…" autocomplete="off"></label>'
                f'<p class="muted">{esc(self.t("settings.room_server_help"))}</p>'
                f'<label>{esc(self.t("settings.room_ice"))} <input type="text" data-field="room_ice" data-testid="set-room-ice" '
                f'value="{esc(self.settings.get("room_ice", ""))}" autocomplete="off"></label>'
                f'<p class="muted">{esc(self.t("settings.room_ice_help"))}</p></div>'
                '<div class="actionbar">' + button(esc(self.t("nav.back")), action="go", arg=self.back_target(), cls="btn primary big",
                                                   testid="settings-back") + "</div></section>")

    # --- dialogs -----------------------------------------------------------------------
    def open_dialog(self, kind: str) -> None:
        dlg = self.element("dialog")
        self.dialog_kind = kind
        if kind == "quit":
            dlg.innerHTML = (f'<h2 id="dlg-h">{esc(self.t("quit.heading"))}</h2><p>{esc(self.t("quit.body"))}</p><div class="row">'
                             + button(esc(self.t("quit.cancel")), action="close-dialog", cls="btn", testid="quit-cancel")
                             + button(esc(self.t("quit.confirm")), action="confirm-quit", cls="btn danger", testid="quit-confirm")
                             + "</div>")
        elif kind == "import":
            running = self.t(f"{self.table.game}.title")
            dlg.innerHTML = (f'<h2 id="dlg-h">{esc(self.t("import.replace_heading"))}</h2>'
                             f'<p>{esc(self.t("import.replace_body", game=running))}</p><div class="row">'
                             + button(esc(self.t("import.keep")), action="close-dialog", cls="btn", testid="import-cancel")
                             + button(esc(self.t("import.replace")), action="confirm-import", cls="btn danger",
                                      testid="import-confirm") + "</div>")
        elif kind == "scan":
            dlg.innerHTML = self.rooms.render_scan_dialog()
        dlg.setAttribute("aria-labelledby", "dlg-h")
        dlg.showModal()
        first = self.js(dlg.querySelector("button"))
        if first is not None:
            first.focus()

    def dialog_note(self, text: str, alert: bool = False) -> None:
        """The open dialog's note (#dlg-note), said anew: why the camera cannot read a code."""
        note = self.js(document.getElementById("dlg-note"))
        if note is not None:
            note.setAttribute("role", "alert" if alert else "status")
            note.textContent = text

    def close_dialog(self) -> None:
        if self.dialog_kind == "scan":
            self.rooms.stop_scan()  # the camera goes off with its dialog
        dlg = self.element("dialog")
        if dlg.open:
            dlg.close()
        self.dialog_kind = None
        self.pending_import = None

    # --- events ------------------------------------------------------------------------
    def on_click(self, event) -> None:
        target = self.js(event.target)
        el = self.js(target.closest("[data-action]")) if target is not None and hasattr(target, "closest") else None
        if el is None or el.tagName == "INPUT" or getattr(el, "disabled", False):
            return
        action = str(el.getAttribute("data-action"))
        arg = self.js(el.getAttribute("data-arg"))
        arg = None if arg is None else str(arg)
        screen = self.js(el.closest("[data-index]"))
        index = int(screen.getAttribute("data-index")) if screen is not None else None
        # One action per tap: the second tap of a double tap (the browser counts it in `detail`)
        # lands on whatever the first one drew under the finger (Roll again, or Roll after "Play
        # again"); it is ignored when the first one changed the game. Keyboard clicks count 0.
        in_game = self.rooms.on_play_screen() and action not in ("go", "quit", "export", "close-toast") \
            and not action.startswith("room-")
        now = float(window.performance.now())
        if in_game and int(event.detail or 0) >= 2 and now - self.moved_at < INERT_MS:
            return
        before = self.position()
        # The tap's main-thread work as a "dh:tap" measure, so tests tell the cost of a person's
        # own tap from work nobody asked for (the computer's).
        with measured("dh:tap"):
            try:
                self.dispatch(action, arg, index)
            except Exception as err:  # never a stack trace for players
                window.console.error(f"dicehall: {action}: {err!r}")
                self.say(self.catalog.error(err), error=True)
        # Only the tap right before counts: OK on a hand-over card then a square under the same
        # spot is two actions, even if a move came just before the OK.
        moved = in_game and self.position() != before
        self.moved_at = float(window.performance.now()) if moved else -1e9

    def position(self):
        """What a tap can change in the game: the match and how many moves it has."""
        return (id(self.table.match), self.table.match.index) if self.play.running else None

    def dispatch(self, action: str, arg, index: int | None = None) -> None:
        if action != "close-dialog":
            self.clear_error()
        if action == "close-toast":
            return
        if action == "go":
            self.go(arg)
        elif action == "new-setup":
            self.new_setup(arg)
        elif action == "seat-count":
            self.set_seat_count(int(arg))
        elif action == "symbol":
            i, sym = arg.split(":", 1)
            self.setup["seats"][int(i)]["symbol"] = sym
            self.render()
        elif action == "start-game":
            self.start_game()
        elif action == "quit":
            self.open_dialog("quit")
        elif action == "close-dialog":
            self.close_dialog()
        elif action == "confirm-import":
            table = self.pending_import
            self.close_dialog()
            if table is not None:
                self.accept_import(table)
        elif action == "confirm-quit":
            self.close_dialog()
            if self.rooms.guesting is not None:
                self.rooms.leave()
                return
            self.rooms.close_room()
            self.play.load(None)
            self.play.save()
            self.go("#/home", replace=True)
        elif action == "again":
            table = self.table
            if not self.rooms.new_game(random.Random(crypto_seed())):  # a hosted table: the room starts it
                table.new_game(random.Random(crypto_seed()))
            self.play.load(table)
            self.play.save()
            self.render()
            self.play.kick()
        elif action == "new-table":
            self.rooms.close_room()
            self.setup = {"game": self.table.game, "seats": [dict(s) for s in self.table.seats]}
            self.play.load(None)
            self.play.save()
            self.go(f"#/setup/{self.setup['game']}")
        elif action == "export":
            self.export_record()
        elif action == "discard-save":
            self.broken_save = None
            self.play.load(None)
            self.play.save()
            self.go("#/home", replace=True)
        elif action == "export-save":
            self.download("dicehall-save.txt", self.broken_save or "")
        elif action == "apply-update":
            window.diceHallApplyUpdate()
        elif action == "continue-game":
            self.unpark(str(arg))
        elif action == "share":
            asyncio.ensure_future(self.share_result())
        elif action == "update-later":  # asked again at the next start; the new version waits
            self.element("update").hidden = True
        elif action.startswith("room-"):
            self.rooms.handle(action, arg)
        elif self.rooms.on_play_screen():
            self.play.handle(action, arg, index)

    def on_change(self, event) -> None:
        el = self.js(event.target)
        if el is None or not hasattr(el, "getAttribute"):
            return
        field = self.js(el.getAttribute("data-field"))
        if self.js(el.getAttribute("data-action")) == "import":
            asyncio.ensure_future(self.import_file(el))
            return
        if not field:
            return
        field = str(field)
        if field == "kind":
            value = str(el.value)
            i = int(el.getAttribute("data-seat"))
            seat = self.setup["seats"][i]
            was_ai = seat["ai"] is not None
            seat["ai"] = None if value == "person" else value[3:]
            if (seat["ai"] is not None) != was_ai and self.is_default_name(seat["name"]):
                seat["name"] = self.default_name(i, seat["ai"] is not None)
                self.render()
        elif field == "name":
            self.setup["seats"][int(el.getAttribute("data-seat"))]["name"] = str(el.value)[:MAX_NAME]
        elif field == "lang":
            self.settings["lang"] = str(el.value)
            self.save_settings()
            asyncio.ensure_future(self.change_language(str(el.value)))
        elif field == "pace" and str(el.value) in PACES:
            self.settings["pace"] = str(el.value)
            self.save_settings()
        elif field == "autofill_seconds":
            value = int(str(el.value))
            if value in COUNTDOWN_CHOICES:
                self.settings[field] = value
                self.save_settings()
        elif field in ROOM_SETTINGS:
            try:
                self.settings[field] = check_room_setting(field, str(el.value)[:500])
            except ValueError:
                self.say(self.t("settings.room_server_bad" if field == "room_server" else "settings.room_ice_bad"), error=True)
                return
            self.save_settings()
        elif field in ("animations", "autofill", "hints", "sound", "vibrate"):
            self.settings[field] = bool(el.checked)
            self.save_settings()
            if field == "autofill" and not el.checked:
                self.play.cancel_countdown(render=False)

    def on_input(self, event) -> None:
        el = self.js(event.target)
        field = self.js(el.getAttribute("data-field")) if el is not None and hasattr(el, "getAttribute") else None
        if field == "room-chat":
            self.rooms.chat_draft = str(el.value)
            return
        if field == "room-name":
            self.rooms.name_draft = str(el.value)
            return
        if field == "room-answer":
            self.rooms.answer_draft = str(el.value)[:2000]
            return
        if el is not None and hasattr(el, "getAttribute") and self.js(el.getAttribute("data-field")) == "name" and self.setup:
            self.setup["seats"][int(el.getAttribute("data-seat"))]["name"] = str(el.value)[:MAX_NAME]

    async def change_language(self, lang: str) -> None:
        await self.load_language(lang)
        self.render()


APP: App | None = None


async def start() -> App:
    global APP
    APP = App()
    await APP.start()
    return APP
