"""The app shell: boot, routing, the shared screens, dialogs and what a tap does — in pure Python.

The shell draws every screen as escaped HTML and hands it to the page (`page.Page`: the browser's
`browser.BrowserPage`, or the tests' fake), which owns the DOM, focus, the AI worker and the
platform's APIs. The page reports what happened through the event methods below (`tap`, `change`,
`edit`, `key`, …) in plain values. Data flows one way: tap → action (looked up in the screens'
tables) → the play controller or the table's life → storage → one render.

The shell knows no game by name: it lists the registry, opens a game's view package
(`dicehall.games.<id>`) and its catalog when the game opens, and hands the play screen to the
play controller (`controller.py`), the only code that changes a game.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import random

from pygame_core import ai
from pygame_core.registry import entries
from pygame_core.rng import DiceRoller

from . import reviewing, router, store, transfer
from .controller import PlayController
from .dom import button, esc
from .i18n import LANGUAGES, Catalog, add_game, pick_language
from .roomdesk import RoomDesk
from .rooms import network as room_network
from .screens import broken, history, home, replay, results, rules, settings, setup
from .tablelife import TableLife

MAX_TOAST_CHARS = 240
TOAST_SECONDS = 8
# A pointer tap sooner than this after a tap's move was drawn is ignored (Shell.tap): it cannot
# answer that screen. Seeing a new screen and tapping one of its controls takes a person a visual
# reaction (the fastest are ~200 ms) plus choosing and aiming (100 ms or more), so such a tap was
# on its way before the screen showed: a double tap's second tap (100-300 ms after the first;
# Android's double-tap timeout is 300 ms) or a bounce, landing on what the first tap drew (Roll
# again, a square just offered), near or far. Counted from the draw, a slow phone does not shorten
# it. Someone who does tap that fast sees nothing happen, and taps again.
REACT_MS = 300
# Enter in these fields sends the chat line, asks to join, or connects an answer code.
ENTER_ACTIONS = {"room-chat": "room-send", "room-name": "room-join", "room-answer": "room-accept"}
# Taps that never count as a move of the game (for the double-tap rule).
OUTSIDE_GAME = ("go", "quit", "export", "close-toast")


def heard(method):
    """An event the page reports (a tap, a field, a key, the address, another tab's save…): an
    error in it is logged and said in words, never left to reach PyScript, which paints a raw
    traceback on the page (issue 28, item 4)."""
    @functools.wraps(method)
    def event(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as err:  # never a stack trace for players
            self.page.log_error(f"dicehall: {method.__name__}: {err!r}")
            try:
                self.say(self.catalog.error(err), error=True)
            except Exception:  # (no catalog yet: the log has it)
                pass
            return False
    return event


def _close_toast(app, arg) -> None:
    pass  # every tap but "close-dialog" clears the toast first


# Taps every screen may make (the top bar, dialogs, the toast, the update banner, the play
# screen's tools). These names, "room-…" and the play controller's SHARED_ACTIONS are the
# platform's: a game's view uses other names for its own controls (docs/ADDING_A_GAME.md).
ACTIONS = {
    "go": lambda app, arg: app.go(str(arg)),
    "quit": lambda app, arg: app.open_dialog("quit"),
    "close-dialog": lambda app, arg: app.close_dialog(),
    "confirm-quit": lambda app, arg: app.life.quit(),
    "apply-update": lambda app, arg: app.page.apply_update(),
    "update-later": lambda app, arg: app.page.update_banner(None),  # asked again at the next start
    "close-toast": _close_toast,
    **transfer.ACTIONS,
}
# Each screen's own taps, heard only while that screen is shown.
SCREEN_ACTIONS = {"home": home.ACTIONS, "setup": setup.ACTIONS, "results": results.ACTIONS, "broken": broken.ACTIONS,
                  "settings": settings.ACTIONS, "replay": replay.ACTIONS}
FIELDS = {**settings.FIELDS, **setup.FIELDS, **replay.FIELDS}


class Shell:
    def __init__(self, page, storage, assets, transport=None, direct_transport=None, qr_maker=None,
                 scanner=None) -> None:
        self.page = page
        self.store = store.Store(storage, page.clock)
        self.assets = assets  # lazily loaded game data: want, ready, state, where_to_think
        self.settings = dict(settings.DEFAULT_SETTINGS)
        self.catalog: Catalog | None = None
        self._wanted_lang: str | None = None  # the language last asked for (load_language)
        self.english: dict = {}
        self.game_english: dict[str, dict] = {}
        self.dice_roller = DiceRoller(page.random_seed())
        self.rng = random.Random(page.random_seed())
        self.play = PlayController(self, self.view, self.dice_roller)
        self.life = TableLife(self)
        self.rooms = RoomDesk(self, transport, direct_transport, qr_maker, scanner)
        self.setup: dict | None = None  # the set-up screen's draft
        self.pending_import = None  # a Table waiting for "replace the unfinished game?"
        self.dialog_kind: str | None = None
        self.offline_note = False  # "ready to play offline" shows on Home until the next screen
        self.moved_at = -1e9  # now_ms() when the last tap's move was drawn (if it made one)
        self.moment: tuple | None = None  # a change scrolls to the top and focuses the heading
        self.shown = ""  # the screen drawn last
        self.renders = 0  # screens drawn (a test counts one per tap)
        self._toast_task: asyncio.Task | None = None
        self._toast_shown = False
        self._awake: bool | None = None
        self._tasks: set = set()
        self.booted = False

    # --- basics ---------------------------------------------------------------------------------
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
        return not self.page.reduced_motion() if value is None else bool(value)

    @staticmethod
    def view(game: str):
        """A game's view (its package under dicehall/games/)."""
        return importlib.import_module(f"dicehall.games.{game}").VIEW

    def level_label(self, game: str, level: str) -> str:
        for key in (f"{game}.level.{level}", f"ai.level.{level}"):
            if self.catalog.has(key):
                return self.t(key)
        return level

    def later(self, coro) -> asyncio.Task:
        """Run `coro` on its own; an error it raises is logged, never lost."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.page.log_error(f"dicehall: {task.exception()!r}")

    def save_settings(self) -> None:
        self.store.put(store.SETTINGS, json.dumps(self.settings))

    def keep(self, key: str, text: str) -> bool:
        """Store a room's save; a failed write is said."""
        ok = self.store.put(key, text)
        if not ok:
            self.say(self.t("save.failed"), error=True)
        return ok

    # --- boot -------------------------------------------------------------------------------------
    async def start(self) -> None:
        self.settings = self.store.load(store.SETTINGS, settings.SETTINGS_SCHEMA, dict(settings.DEFAULT_SETTINGS))
        lang = self.settings.get("lang")
        await self.load_language(lang if lang in LANGUAGES else pick_language(self.page.languages()))
        self.page.boot_phase(self.t("boot.table"))
        await self.life.resume()
        parts = self.route()
        game = router.game_of(parts, entries())
        if parts[0] in ("setup", "rules") and game is not None:
            try:  # the first screen is drawn at once (the page may already show the build's copy)
                await self.load_game_catalog(game)
            except Exception as err:  # drawn once it is here (needs_catalog), or said then
                self.page.log_warning(f"dicehall: catalog of {game}: {err!r}")
        self.rooms.boot()
        setup.start_if_kept(self, parts[0], game)  # (a Start tapped before Python: the first screen is the new table)
        notes = []
        if self.play.running:
            if not self.page.hash().startswith("#/play"):
                self.page.set_hash_quietly("#/play")  # no hash_changed: the boot notes stay up
            notes += [self.t(note) for note in self.play.table.notes]
        try:
            self.render()
        except Exception as err:
            notes.append(self.first_screen_failed(err))
        for note in notes:
            self.say(note, error=True)
        self.say_aside()
        self.booted = True
        self.page.booted()
        self.play.kick(after=self.page.shown)

    def first_screen_failed(self, err: Exception) -> str:
        """The first screen could not be drawn: Home instead, and what failed in words. Nothing
        is condemned for it — a saved game stays saved (Home offers it; the broken-save screen
        is only for a save that does not load), and a stored value that is to blame was set
        aside by its check. Returns the note to say."""
        screen = self.route()[0] or "home"
        self.page.log_error(f"dicehall: the {screen} screen cannot be shown: {err!r}")
        self.page.set_hash_quietly("#/home")
        try:
            self.render()
        except Exception as again:  # Home itself: the save's own screen, with Export, is the last resort
            self.page.log_error(f"dicehall: Home cannot be shown either: {again!r}")
            self.life.broken_save = self.store.get(store.TABLE) or ""
            self.life.broken_reason = f"{type(again).__name__}: {str(again)[:120]}"
            self.render()
        what = self.t(f"boot.screen.{screen if screen in router.SCREENS else 'home'}")
        return self.t("boot.screen_failed", screen=what, cause=f"{type(err).__name__}: {str(err)[:120]}")

    def say_aside(self) -> None:
        """Say once which stored values were set aside (store.Store.load) since the last time."""
        if not self.store.news:
            return
        what = [self.t(f"aside.what.{key.removeprefix(store.PREFIX)}") for key in self.store.news]
        self.store.news.clear()
        self.say(self.t("aside.said", what=", ".join(what)), error=True)

    async def load_language(self, lang: str) -> None:
        # Filled (shared strings, open games') before it replaces the old one, which stays whole
        # meanwhile: a computer's move is never described with a game's keys missing (and kept so:
        # playscreen.describe_turn). A switch overtaken by a later one is dropped.
        self._wanted_lang = lang
        if not self.english:
            self.english = await self.page.fetch_json("./i18n/en.json")
        messages = self.english if lang == "en" else await self.page.fetch_json(f"./i18n/{lang}.json")
        catalog = Catalog(lang, messages, self.english)
        for game in list(self.game_english):
            await add_game(catalog, game, self.page.fetch_json, self.game_english)
        if self._wanted_lang == lang:
            self.catalog = catalog
            self.page.set_document(lang, self.catalog.dir, self.t("app.title"))

    async def change_language(self, lang: str) -> None:
        await self.load_language(lang)
        self.render()

    async def load_game_catalog(self, game: str) -> None:
        """A game's own strings, when the game opens (set-up, rules, play)."""
        await add_game(self.catalog, game, self.page.fetch_json, self.game_english)

    def needs_catalog(self, game: str) -> bool:
        """True (and the catalog is fetched, then the screen redrawn) when it is not there yet."""
        if game in self.catalog.games:
            return False

        async def load_then_render():
            try:
                await self.load_game_catalog(game)
            except Exception as err:
                self.page.log_error(f"dicehall: catalog of {game}: {err!r}")
                self.say(self.t("error.unexpected"), error=True)
                return
            self.render()
        self.later(load_then_render())
        return True

    def offline_ready(self) -> None:
        """The service worker holds the app: said once, ever, on Home (never over the table)."""
        if not self.settings.get("offline_noted"):
            self.settings["offline_noted"] = True
            self.save_settings()
            self.offline_note = True
            if self.route()[0] == "home":
                self.render()

    @heard
    def update_ready(self) -> None:
        t = self.t
        self.page.update_banner(
            f'<span>{esc(t("update.ready"))}</span>'
            + button(esc(t("update.apply")), action="apply-update", cls="btn small", testid="apply-update")
            + button(esc(t("update.later")), action="update-later", cls="btn small", testid="update-later"))

    # --- routing and drawing -----------------------------------------------------------------------
    def route(self) -> list[str]:
        return router.parts(self.page.hash())

    def go(self, hash_: str, replace: bool = False) -> None:
        """Navigate; `replace` keeps finished steps (set-up, a quit game) out of the back history."""
        if self.page.hash() == hash_:
            self.render()
        else:
            self.page.go(hash_, replace)

    def back_target(self) -> str:
        return "#/play" if self.play.running and not self.play.table.state.is_terminal() else "#/home"

    @heard
    def hash_changed(self) -> None:
        self.clear_error()
        self.offline_note = False  # said; leaving Home puts it away
        self.render()
        self.play.kick()

    def screen(self) -> tuple[str, str | None]:
        """The screen the route shows, and its HTML (None while its catalog loads)."""
        parts = self.route()
        name, game = parts[0], router.game_of(parts, entries())
        rooms = self.rooms
        if self.life.broken_save is not None:
            return "broken", broken.render(self)
        if name in ("setup", "rules") and game is not None:
            if self.needs_catalog(game):
                return name, None
            return name, setup.render(self, game) if name == "setup" else rules.render(self, game)
        if name == "settings":
            return name, settings.render(self)
        if name in ("history", "replay"):  # (history.render draws a replay)
            return name, history.render(self)
        if name in ("rooms", "room") or (name == "join" and not rooms.guest_in):  # (overview, lobby, join screen)
            return name, rooms.render_screen(parts)
        if name in ("play", "join") and self.play.running and (rooms.guest_in or rooms.guesting is None):
            if self.needs_catalog(self.play.table.game):
                return name, None
            over = self.play.table.state.is_terminal()
            return ("results" if over else "play"), self.play.render_body() + rooms.render_panel()
        return "home", home.render(self)

    def render(self) -> None:
        # A "dh:render" measure, like "dh:tap": tests tell the page's own redraws from anything
        # else on the main thread (the computer must never block it); bench/ times the redraws.
        with self.page.measured("dh:render"):
            screen, body = self.screen()
            if body is None:
                return
            self.renders += 1
            self.shown = screen
            if self._awake != (screen == "play" or self.rooms.hosting is not None):  # a game on the table,
                self._awake = not self._awake  # a room hosted (roomback.py): the screen stays on
                self.page.wake_lock(self._awake)
            parts = self.route()
            moment = router.moment(screen, parts, self.play.moment() if screen == "play" else reviewing.moment(self))
            new_moment, self.moment = moment != self.moment, moment
            focus = self.play.take_focus() if screen == "play" else None
            self.page.draw(screen, self.topbar(screen) + self.notice(screen) + body, self.animations, new_moment, focus)
        if self.booted:  # (at boot, said after the boot's own notes)
            self.say_aside()

    def topbar(self, screen: str) -> str:
        t = self.t
        home_button = "" if screen in ("home", "broken") else button(
            f'<span aria-hidden="true" class="flip">←</span> {esc(t("nav.home"))}', action="go", arg="#/home",
            cls="btn ghost", testid="nav-home")
        settings_button = "" if screen in ("settings", "broken") else button(
            '<span aria-hidden="true" class="gear">⚙</span>', action="go", arg="#/settings", cls="btn ghost",
            testid="nav-settings", aria_label=t("nav.settings"), title=t("nav.settings"))
        menu = ""
        if screen == "play":
            menu = (button(esc(t("nav.rules")), action="go", arg=f"#/rules/{self.play.table.game}", cls="btn ghost",
                           testid="nav-rules")
                    + button(esc(t("play.quit")), action="quit", cls="btn ghost", testid="quit"))
        return (f'<header class="topbar"><div class="brand"><span class="logo" aria-hidden="true">⚄</span>'
                f'<span>{esc(t("app.title"))}</span></div><nav class="topnav" aria-label="{esc(t("nav.label"))}">'
                f"{home_button}{menu}{settings_button}</nav></header>")

    def notice(self, screen: str) -> str:
        """A lasting warning while saving fails: the game goes on in memory; export keeps it."""
        if not self.life.unsaved or screen not in ("play", "results", "home"):
            return ""
        export = button(esc(self.t("results.export")), action="export", cls="btn small", testid="unsaved-export") \
            if self.play.running else ""
        return (f'<div class="notice" role="alert" data-testid="unsaved"><span>{esc(self.t("save.failed"))}</span>'
                f"{export}</div>")

    # --- saying things -----------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Announce through the live region (and show errors visibly, briefly, closably)."""
        text = text if len(text) <= MAX_TOAST_CHARS else text[: MAX_TOAST_CHARS - 1] + "…"
        self.page.live(text)
        if error:
            close = button("×", action="close-toast", cls="btn ghost toast-close", testid="toast-close", aria_label=self.t("toast.close"))
            self.page.toast(f'<span class="toast-text" data-testid="error">{esc(text)}</span>{close}')
            self._toast_shown = True
            if self._toast_task is not None and not self._toast_task.done():
                self._toast_task.cancel()
            self._toast_task = self.later(self._hide_toast_later())

    async def _hide_toast_later(self) -> None:
        await asyncio.sleep(TOAST_SECONDS)
        self.clear_error()

    def clear_error(self) -> None:
        if self._toast_shown:
            self._toast_shown = False
            self.page.toast(None)

    # --- dialogs ---------------------------------------------------------------------------------
    def open_dialog(self, kind: str) -> None:
        t = self.t
        if kind == "quit":
            html = (f'<h2 id="dlg-h">{esc(t("quit.heading"))}</h2><p>{esc(t("quit.body"))}</p><div class="row">'
                    + button(esc(t("quit.cancel")), action="close-dialog", cls="btn", testid="quit-cancel")
                    + button(esc(t("quit.confirm")), action="confirm-quit", cls="btn danger", testid="quit-confirm")
                    + "</div>")
        elif kind == "import":
            html = transfer.import_dialog(self)
        else:  # "scan": the camera reads a guest's answer
            html = self.rooms.render_scan_dialog()
        self.dialog_kind = kind
        self.page.dialog(html)

    def dialog_note(self, text: str, alert: bool = False) -> None:
        self.page.dialog_note(text, alert)

    def close_dialog(self) -> None:
        kind, self.dialog_kind = self.dialog_kind, None
        self.pending_import = None
        if kind == "scan":
            self.rooms.stop_scan()  # the camera goes off with its dialog
        if kind is not None:
            self.page.dialog(None)

    @heard
    def dialog_closed(self) -> None:
        """The dialog closed itself (Escape)."""
        self.close_dialog()

    # --- events from the page ------------------------------------------------------------------------
    def position(self):
        """What a tap can change in the game: the match and how many moves it has."""
        return (id(self.play.table.match), self.play.table.match.index) if self.play.running else None

    @heard
    def tap(self, action: str, arg: str | None, index: int | None, taps: int = 1, at: float | None = None) -> None:
        """A click on an element with `data-action` (`index`: the move count its screen showed;
        `taps`: the click's count, 0 from the keyboard; `at`: when it happened, on `now_ms`'s
        clock: the event's own time, which a busy page hands over late)."""
        # One move per physical tap: a pointer tap within REACT_MS of the drawing of a tap's move
        # is ignored, however far from the first it lands. Keys (taps=0) are one press each
        # already (Shell.key drops a held key's repeats).
        now = self.page.now_ms()
        at = now if at is None or at > now else at
        in_game = self.rooms.on_play_screen() and action not in OUTSIDE_GAME and not action.startswith("room-")
        if in_game and taps >= 1 and at - self.moved_at < REACT_MS:
            return
        before = self.position()
        # The tap's main-thread work as a "dh:tap" measure, so tests tell the cost of a person's
        # own tap from work nobody asked for (the computer's).
        with self.page.measured("dh:tap"):
            self.dispatch(action, arg, index)
        # Only the tap right before counts: OK on a hand-over card then a square under the same
        # spot is two actions, even if a move came just before the OK. The window opens when the
        # move's screen is drawn (now: its HTML is in the page, painted in the next frame).
        moved = in_game and self.position() != before
        self.moved_at = self.page.now_ms() if moved else -1e9

    def dispatch(self, action: str, arg: str | None, index: int | None = None) -> None:
        try:
            if action != "close-dialog":
                self.clear_error()
            handler = ACTIONS.get(action) or SCREEN_ACTIONS.get(self.shown, {}).get(action)
            if handler is not None:
                handler(self, arg)
            elif action.startswith("room-"):
                self.rooms.handle(action, arg)
            elif self.rooms.on_play_screen():
                self.play.handle(action, arg, index)
        except Exception as err:  # never a stack trace for players
            self.page.log_error(f"dicehall: {action}: {err!r}")
            self.say(self.catalog.error(err), error=True)

    @heard
    def change(self, field: str, value: str, checked: bool = False, data: dict | None = None) -> None:
        """A form field was changed (a select, a checkbox, a text field left)."""
        handler = FIELDS.get(field)
        if handler is not None and (field not in setup.FIELDS or self.setup is not None):
            handler(self, value, checked, data or {})

    @heard
    def edit(self, field: str, value: str, data: dict | None = None) -> None:
        """A text field's words as they are typed."""
        if field == "room-chat":
            self.rooms.chat_draft = value
        elif field == "room-name":
            self.rooms.name_draft = value
        elif field == "room-answer":
            self.rooms.answer_draft = value[:2000]
        elif field in setup.EDITS and self.setup is not None:
            setup.EDITS[field](self, value, False, data or {})

    @heard
    def key(self, key: str, field: str | None = None, tag: str = "", modified: bool = False,
            repeat: bool = False) -> bool:
        """A key pressed; True when the app took it (the page then prevents its default)."""
        if repeat and key == "Enter" and tag in ("BUTTON", "A", "SUMMARY"):
            return True  # a held Enter clicks a button again with every repeat: one press, one click
        if key == "Enter" and field in ENTER_ACTIONS:
            self.dispatch(ENTER_ACTIONS[field], None)
            return True
        if not self.rooms.on_play_screen() or modified:
            return not modified and self.shown == "replay" and replay.key(self, key, tag)
        if tag in ("INPUT", "SELECT", "TEXTAREA") or (key in ("Enter", " ") and tag in ("BUTTON", "A", "SUMMARY")):
            return False
        if self.dialog_kind is not None:
            return False
        found = self.play.shortcut(key)
        if found is None:
            return False
        action, arg = found
        # A held key repeats: one press is one action. And the same rule as a click: only what
        # the screen offers.
        if not repeat and self.page.has_enabled(action, arg):
            with self.page.measured("dh:tap"):
                self.dispatch(action, arg, self.play.table.match.index)
        return True

    @heard
    def activity(self) -> None:
        """Any touch, key or scroll stops an auto-play countdown: the player is there."""
        if self.play.countdown is not None:
            self.play.stop_countdown()

    @heard
    def storage_changed(self, key: str, value: str | None) -> None:
        self.life.storage_changed(key, value)

    async def import_file(self, size: int, read) -> None:
        await transfer.import_file(self, size, read)

    @heard
    def assets_changed(self, game: str) -> None:
        if self.play.running and self.play.table.game == game and self.route()[0] == "play":
            self.play.assets_changed()

    # --- what the play controller asks (controller.Host) -----------------------------------------
    def save_game(self, table, ui_text: str | None) -> bool:
        return self.life.save_game(table, ui_text)

    def bests(self, game: str) -> list[dict]:
        return self.life.bests(game)

    def render_results(self) -> str:
        return results.render(self)

    def set_text(self, element_id: str, text: str) -> bool:
        return self.page.set_text(element_id, text)

    def feedback(self, kind: str) -> None:
        """Optional sound and vibration (Settings) for a roll, a celebration and the end."""
        sound, vibrate = bool(self.settings.get("sound")), bool(self.settings.get("vibrate"))
        if sound or vibrate:
            self.page.feel(kind, sound, vibrate)

    async def ai_move(self, game: str, state, seat: int, level: str) -> str:
        seed = self.rng.getrandbits(31)
        if self.assets.where_to_think(game) == "worker":
            move = await self.page.think(game, json.dumps(state.to_json()), seat, level, seed)
            if move is not None:
                return move
        await asyncio.sleep(0.05)  # let "thinking…" paint before the main thread is busy
        return ai.choose_move(state, seat, level, random.Random(seed))

    def want_assets(self, game: str) -> None:
        self.assets.want(game)

    async def assets_ready(self, game: str, timeout: float = 5.0) -> None:
        await self.assets.ready(game, timeout)

    def asset_state(self, game: str) -> str:
        return self.assets.state(game)

    # --- what the room desk asks (roomdesk.RoomDesk) ------------------------------------------------
    def clock(self) -> float:
        return self.page.clock()

    def page_address(self) -> str:
        return self.page.address()

    def room_network(self) -> dict:
        try:
            return room_network(self.settings.get("room_server", ""), self.settings.get("room_ice", ""))
        except ValueError:
            return {"broker": None, "ice": None}

    def copy_text(self, text: str, said: str = "room.copied") -> None:
        async def copy():
            if await self.page.copy(text):
                self.say(self.t(said))
            else:  # no clipboard here: the link is on screen to select by hand
                self.say(self.t("room.copy_failed"), error=True)
        self.later(copy())

    def log_error(self, text: str) -> None:
        self.page.log_error(f"dicehall: {text}")

    def restore_own_table(self) -> None:
        self.life.restore_own_table()
