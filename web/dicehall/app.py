"""Dice Hall main-thread app: routing, screens, saves, AI worker, settings.

Everything is rendered as escaped HTML into #app; one delegated click/change/input listener
dispatches `data-action` elements. Game-specific screens live in `dicehall.views.<game>`.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import time

from pyodide.ffi import create_proxy, to_js
from pyscript import document, window

from pygame_core import ai
from pygame_core.record import Record, RecordError
from pygame_core.registry import GAMES
from pygame_core.rng import DiceRoller
from pygame_core.table import SaveError, Table

from . import storage
from .dom import attrs, button, esc
from .i18n import LANGUAGES, Catalog, pick_language
from .results import progression

SYMBOLS = ["●", "▲", "■", "◆", "★"]
SYMBOL_CLASS = {s: f"seat-{i}" for i, s in enumerate(SYMBOLS)}


def crypto_seed() -> int:
    try:
        arr = window.Uint32Array.new(2)
        window.crypto.getRandomValues(arr)
        return int(arr[0]) << 32 | int(arr[1])
    except Exception:
        return random.SystemRandom().getrandbits(64)


async def fetch_json(url: str):
    resp = await window.fetch(url)
    if not resp.ok:
        raise OSError(f"{url}: HTTP {resp.status}")
    return json.loads(await resp.text())


class App:
    def __init__(self) -> None:
        self.settings = {"lang": None, "animations": None, "autofill": True, "hints": False}
        self.catalog: Catalog | None = None
        self.english: dict = {}
        self.table: Table | None = None
        self.roller = DiceRoller(crypto_seed())
        self.rng = random.Random(crypto_seed())
        self.ui: dict = {}
        self.setup: dict | None = None
        self.broken_save: str | None = None
        self.broken_reason: str = ""
        self.worker = None
        self.worker_state = "none"
        self.busy = False
        self.thinking = False
        self.loop_task = None
        self.countdown_task = None
        self.countdown = None
        self.message = ""
        self.flash: set = set()
        self.prev_scores: list[int] | None = None
        self.dialog_kind = None
        self._proxies = []
        self.table_task = None  # Penta solver table: fetched when a Penta game starts or resumes
        self.penta_table = "none"  # none / loading / loaded / failed (main thread)
        self.worker_table = "none"  # the same in the AI worker
        self.hint = None  # (record length, advise() options or None) shown by the hint button
        self.review_open = None  # id() of the record whose review is open
        self.review_seat = None  # None: every player
        self._review = None  # (record key, review())

    # --- basics ------------------------------------------------------------------------
    def t(self, key: str, **params) -> str:
        return self.catalog.t(key, **params)

    def view(self, game: str | None = None):
        return importlib.import_module(f"dicehall.views.{game or (self.table.game if self.table else 'penta')}")

    @property
    def animations(self) -> bool:
        value = self.settings.get("animations")
        if value is None:
            try:
                return not window.matchMedia("(prefers-reduced-motion: reduce)").matches
            except Exception:
                return True
        return bool(value)

    def pace(self) -> float:
        return 0.5 if self.animations else 0.15

    def element(self, id_: str):
        return self.js(document.getElementById(id_))

    @staticmethod
    def js(value):
        return None if value is None or storage.is_none(value) else value

    def symbol_html(self, symbol: str) -> str:
        return f'<span class="sym {SYMBOL_CLASS.get(symbol, "seat-0")}" aria-hidden="true">{esc(symbol)}</span>'

    def seat_label(self, seat: int) -> str:
        s = self.table.seats[seat]
        return f'{self.symbol_html(s["symbol"])} <span class="pname">{esc(s["name"])}</span>'

    def level_label(self, level: str) -> str:
        key = f"ai.level.{level}"
        return self.t(key) if self.catalog.has(key) else level

    # --- boot --------------------------------------------------------------------------
    async def start(self) -> None:
        self.settings.update(storage.get_json(storage.SETTINGS, {}) or {})
        lang = self.settings.get("lang")
        if lang not in LANGUAGES:
            langs = [str(x) for x in (window.navigator.languages or [])] or [str(window.navigator.language)]
            lang = pick_language(langs)
        await self.load_language(lang)
        self.boot_phase("boot.table")
        self.resume()
        for name, handler in (("click", self.on_click), ("change", self.on_change), ("input", self.on_input)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            document.addEventListener(name, proxy)
        for target, name, handler in ((window, "hashchange", self.on_hash), (window, "dicehall-update-ready", self.on_update)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(name, proxy)
        dlg = self.element("dialog")
        proxy = create_proxy(lambda e: self.close_dialog())
        self._proxies.append(proxy)
        dlg.addEventListener("close", proxy)
        if self.table and self.table.state is not None and not window.location.hash.startswith("#/play"):
            window.location.hash = "#/play"
        self.render()
        document.documentElement.setAttribute("data-app-state", "ready")
        boot = self.element("boot")
        if boot is not None:
            boot.hidden = True
        if self.js(document.documentElement.getAttribute("data-update-ready")) == "1":
            self.on_update(None)
        self.kick()
        from . import bench

        bench.install(window, create_proxy, self._proxies)
        asyncio.ensure_future(self.start_worker())

    def boot_phase(self, key: str) -> None:
        el = self.element("boot-text")
        if el is not None and self.catalog:
            el.textContent = self.t(key)

    async def load_language(self, lang: str) -> None:
        if not self.english:
            self.english = await fetch_json("./i18n/en.json")
        messages = self.english if lang == "en" else await fetch_json(f"./i18n/{lang}.json")
        self.catalog = Catalog(lang, messages, self.english)
        root = document.documentElement
        root.setAttribute("lang", lang)
        root.setAttribute("dir", self.catalog.dir)
        document.title = self.t("app.title")

    async def start_worker(self) -> None:
        """The AI worker boots only after the UI is ready (two boots at once are much slower)."""
        try:
            from pyscript import workers

            self.worker_state = "booting"
            script = document.createElement("script")
            script.type = "py"
            script.src = "./worker.py"
            script.setAttribute("worker", "")
            script.setAttribute("name", "ai")
            script.setAttribute("config", "./pyscript.json")
            document.body.append(script)
            self.worker = await workers["ai"]
            self.worker_state = "ready"
            document.documentElement.setAttribute("data-ai-worker", "ready")
            if self.penta_table == "loaded":
                await self.load_worker_table()
        except Exception as err:  # the main thread keeps computing moves
            self.worker_state = "failed"
            document.documentElement.setAttribute("data-ai-worker", "failed")
            window.console.warn(f"dicehall: AI worker unavailable: {err}")

    # --- Penta solver table (lazy: not at boot, only when a Penta game needs it) ----------
    def want_penta_table(self):
        """Start fetching ./data/penta_values.bin once (a failed load is retried on the next call)."""
        if self.penta_table in ("loading", "loaded"):
            return self.table_task
        self.table_task = asyncio.ensure_future(self.load_penta_table())
        return self.table_task

    async def load_penta_table(self) -> None:
        from pygame_core.games import penta_solver

        root = document.documentElement
        self.penta_table = "loading"
        root.setAttribute("data-penta-table", "loading")
        try:
            started = time.perf_counter()
            resp = await window.fetch("./data/penta_values.bin")
            if not resp.ok:
                raise OSError(f"HTTP {resp.status}")
            data = (await resp.arrayBuffer()).to_bytes()
            fetched = time.perf_counter()
            penta_solver.load_table(data)
            done = time.perf_counter()
        except Exception as err:  # AI and auto-fill keep the greedy fallback
            self.penta_table = "failed"
            root.setAttribute("data-penta-table", "failed")
            window.console.warn(f"dicehall: Penta table unavailable: {err}")
            if self.route()[0] == "play" and (self.hint is not None or self.review_open):
                self.render()  # "could not be loaded" instead of "still loading"
            return
        self.penta_table = "loaded"
        root.setAttribute("data-penta-table-ms", f"{(fetched - started) * 1000:.1f} {(done - fetched) * 1000:.1f}")
        root.setAttribute("data-penta-table", "loaded")
        if self.route()[0] == "play" and self.table is not None and self.table.game == "penta":
            if self.hint is not None and self.hint[1] is None and self.hint[0] == self.view().hint_key(self):
                # a hint was asked for while loading
                self.view().show_hint(self)
            elif self.review_open:
                self.render()
        await self.load_worker_table()

    async def load_worker_table(self) -> None:
        if self.worker is None or self.worker_table in ("loading", "loaded"):
            return
        self.worker_table = "loading"
        try:
            url = str(window.URL.new("./data/penta_values.bin", window.location.href).href)
            self.worker_table = str(await self.worker.load_penta_table(url))
        except Exception as err:
            self.worker_table = "failed"
            window.console.warn(f"dicehall: worker could not load the Penta table: {err}")
        document.documentElement.setAttribute("data-penta-table-worker", self.worker_table)

    async def penta_table_ready(self, timeout: float = 5.0) -> None:
        """Wait (briefly) for a table load in progress, so the first AI move is already optimal."""
        task = self.table_task
        if task is None or task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except Exception:
            pass

    async def ai_move(self, state, level: str) -> str:
        seed = self.rng.getrandbits(31)
        # While only the main thread has the solver table, it plays the optimal level itself.
        main_only = ((level or ai.default_level(state.game.name)) == "optimal" and self.penta_table == "loaded"
                     and self.worker_table != "loaded")
        if self.worker is not None and not main_only:
            try:
                move = await self.worker.choose(json.dumps(state.to_json()), level, seed)
                return str(move)
            except Exception as err:
                window.console.warn(f"dicehall: worker failed, main thread takes over: {err}")
                self.worker = None
        await asyncio.sleep(0.05)  # let "thinking…" paint before the main thread is busy
        return ai.choose_move(state, level, random.Random(seed))

    def on_update(self, event) -> None:
        bar = self.element("update")
        if bar is not None:
            bar.innerHTML = (f'<span>{esc(self.t("update.ready"))}</span>'
                             + button(esc(self.t("update.apply")), action="apply-update", cls="btn small",
                                      testid="apply-update"))
            bar.hidden = False

    # --- saves -------------------------------------------------------------------------
    def resume(self) -> None:
        text = storage.get(storage.TABLE)
        if text is None:
            return
        try:
            self.table = Table.loads(text)
        except SaveError as err:
            self.broken_save, self.broken_reason = text, self.catalog.error(err)
            self.table = None
            return
        except Exception:
            self.broken_save, self.broken_reason = text, self.t("save.corrupt")
            self.table = None
            return
        ui = storage.get_json(storage.UI, {}) or {}
        if isinstance(ui, dict) and self.table.record and ui.get("moves") == len(self.table.record.moves):
            self.ui = ui
        else:
            self.ui = {}
        self.prev_scores = self.table.state.scores() if self.table.state is not None else None

    def save(self) -> None:
        if self.table is None:
            storage.remove(storage.TABLE)
            storage.remove(storage.UI)
            return
        storage.put(storage.TABLE, self.table.dumps())
        self.save_ui()

    def save_ui(self) -> None:
        if self.table is not None and self.table.record is not None:
            self.ui["moves"] = len(self.table.record.moves)
            storage.put(storage.UI, json.dumps(self.ui))

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
        if self.table and self.table.record:
            stamp = time.strftime("%Y%m%d-%H%M", time.localtime())
            self.download(f"dicehall-{self.table.game}-{stamp}.json", self.table.record.dumps())

    async def import_file(self, input_el) -> None:
        files = input_el.files
        if not files or files.length == 0:
            return
        text = str(await files.item(0).text())
        input_el.value = ""
        try:
            record = Record.loads(text)
        except RecordError as err:
            self.say(self.catalog.error(err), error=True)
            return
        except Exception:
            self.say(self.t("record.corrupt"), error=True)
            return
        n = record.options["players"]
        seats = [{"name": self.t("setup.default_name", n=i + 1), "symbol": SYMBOLS[i % len(SYMBOLS)], "ai": None}
                 for i in range(n)]
        table = Table.from_record(record, seats)
        self.stop_tasks()
        self.table, self.ui = table, {}
        self.prev_scores = table.state.scores()
        self.save()
        self.say(self.t("import.done"))
        self.go("#/play")

    # --- feedback ----------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Announce through the live region (and show errors visibly)."""
        live = self.element("live")
        if live is not None:
            live.textContent = text
        if error:
            self.message = text
            toast = self.element("toast")
            if toast is not None:
                toast.textContent = text
                toast.hidden = False
                toast.setAttribute("data-testid", "error")

    def clear_error(self) -> None:
        self.message = ""
        toast = self.element("toast")
        if toast is not None:
            toast.hidden = True
            toast.textContent = ""

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

    def on_hash(self, event) -> None:
        self.clear_error()
        self.render()
        self.kick()

    def render(self) -> None:
        focused = self.js(document.activeElement)
        focus_id = self.js(focused.getAttribute("data-testid")) if focused is not None and hasattr(focused, "getAttribute") else None
        parts = self.route()
        screen = parts[0]
        if self.broken_save is not None:
            body = self.render_broken()
            screen = "broken"
        elif screen == "setup":
            body = self.render_setup(parts[1] if len(parts) > 1 else "penta")
        elif screen == "rules":
            body = self.render_rules(parts[1] if len(parts) > 1 else "penta")
        elif screen == "settings":
            body = self.render_settings()
        elif screen == "play" and self.table and self.table.state is not None:
            body = (self.render_results() if self.table.state.is_terminal() else self.view().render_play(self))
            screen = "results" if self.table.state.is_terminal() else "play"
        else:
            body = self.render_home()
            screen = "home"
        document.documentElement.setAttribute("data-motion", "on" if self.animations else "off")
        app = self.element("app")
        app.setAttribute("data-screen", screen)
        app.innerHTML = self.render_topbar(screen) + body
        self.flash = set()
        if focus_id:
            el = self.js(document.querySelector(f'[data-testid="{focus_id}"]'))
            if el is not None and not el.disabled:
                el.focus()

    def render_topbar(self, screen: str) -> str:
        home = "" if screen in ("home", "broken") else button(
            f'<span aria-hidden="true" class="flip">←</span> {esc(self.t("nav.home"))}', action="go", arg="#/home",
            cls="btn ghost", testid="nav-home")
        settings = "" if screen in ("settings", "broken") else button(
            f'<span aria-hidden="true" class="gear">⚙</span>',
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

    # --- screens -----------------------------------------------------------------------
    def render_home(self) -> str:
        out = [f'<section class="screen home" aria-labelledby="home-h"><h1 id="home-h">{esc(self.t("home.heading"))}</h1>'
               f'<p class="lead">{esc(self.t("home.tagline"))}</p>']
        if self.table and self.table.state is not None and not self.table.state.is_terminal():
            names = ", ".join(s["name"] for s in self.table.seats)
            out.append(f'<div class="card continue"><p>{esc(self.t("home.saved", game=self.t(f"game.{self.table.game}"), players=names))}</p>'
                       + button(esc(self.t("home.continue")), action="go", arg="#/play", cls="btn primary",
                                testid="continue") + "</div>")
        out.append(f'<h2>{esc(self.t("home.pick"))}</h2><ul class="games">')
        for name, game in GAMES.items():
            out.append(
                f'<li class="card game"><h3>{esc(self.t(f"game.{name}"))}</h3>'
                f'<p>{esc(self.t(f"game.{name}.blurb"))}</p>'
                f'<p class="meta">{esc(self.t("home.players", min=game.min_players, max=game.max_players))}</p>'
                f'<div class="row">' + button(esc(self.t("home.new_game")), action="new-setup", arg=name,
                                              cls="btn primary", testid=f"new-{name}")
                + button(esc(self.t("nav.rules")), action="go", arg=f"#/rules/{name}", cls="btn",
                         testid=f"rules-{name}") + "</div></li>")
        out.append("</ul>")
        out.append(f'<div class="card"><h2>{esc(self.t("import.heading"))}</h2><p>{esc(self.t("import.help"))}</p>'
                   f'<label class="btn file"><input type="file" accept=".json,application/json" data-action="import" '
                   f'data-testid="import-file"> {esc(self.t("import.button"))}</label></div></section>')
        return "".join(out)

    def render_broken(self) -> str:
        return (f'<section class="screen broken" role="alert" data-testid="save-error"><h1>{esc(self.t("save.heading"))}</h1>'
                f'<p>{esc(self.t("save.unreadable"))}</p><p class="muted">{esc(self.broken_reason)}</p><div class="row">'
                + button(esc(self.t("save.discard")), action="discard-save", cls="btn primary", testid="discard-save")
                + button(esc(self.t("save.export")), action="export-save", cls="btn", testid="export-save")
                + "</div></section>")

    # setup
    def default_setup(self, game: str) -> dict:
        return {"game": game, "seats": [
            {"name": self.t("setup.default_name", n=1), "symbol": SYMBOLS[0], "ai": None},
            {"name": self.t("setup.default_ai_name"), "symbol": SYMBOLS[1], "ai": ai.default_level(game)},
        ]}

    def new_setup(self, game: str) -> None:
        self.setup = self.default_setup(game)
        self.go(f"#/setup/{game}")

    def render_setup(self, game: str) -> str:
        if game not in GAMES:
            game = "penta"
        if not self.setup or self.setup["game"] != game:
            self.setup = self.default_setup(game)
        g = GAMES[game]
        seats = self.setup["seats"]
        out = [f'<section class="screen setup" aria-labelledby="setup-h"><h1 id="setup-h">{esc(self.t("setup.heading", game=self.t(f"game.{game}")))}</h1>',
               f'<fieldset class="count"><legend>{esc(self.t("setup.count"))}</legend><div class="row">']
        for n in range(g.min_players, g.max_players + 1):
            out.append(button(str(n), action="seat-count", arg=n, cls="btn square", testid=f"seats-{n}",
                              aria_pressed="true" if n == len(seats) else "false",
                              aria_label=self.t("setup.count_n", n=n)))
        out.append("</div></fieldset><ol class=\"seats\">")
        levels = ai.levels(game)
        for i, seat in enumerate(seats):
            used = {s["symbol"] for j, s in enumerate(seats) if j != i}
            sym_buttons = "".join(
                button(f'{self.symbol_html(sym)}', action="symbol", arg=f"{i}:{sym}", cls="btn square symbtn",
                       testid=f"seat-{i}-symbol-{k}", aria_pressed="true" if sym == seat["symbol"] else "false",
                       aria_label=self.t(f"symbol.{k}"), disabled=sym in used)
                for k, sym in enumerate(SYMBOLS))
            kind = f"ai:{seat['ai']}" if seat["ai"] else "person"
            options = [f'<option value="person"{" selected" if kind == "person" else ""}>{esc(self.t("setup.person"))}</option>']
            for level in levels:
                value = f"ai:{level}"
                options.append(f'<option value="{esc(value)}"{" selected" if kind == value else ""}>'
                               f'{esc(self.t("setup.ai_level", level=self.level_label(level)))}</option>')
            out.append(
                f'<li class="card seat"><h2>{self.symbol_html(seat["symbol"])} {esc(self.t("setup.seat", n=i + 1))}</h2>'
                f'<label>{esc(self.t("setup.name"))} <input type="text" maxlength="24" autocomplete="off" '
                f'value="{esc(seat["name"])}" data-field="name" data-seat="{i}" data-testid="seat-{i}-name"></label>'
                f'<fieldset class="symbols"><legend>{esc(self.t("setup.symbol"))}</legend><div class="row">{sym_buttons}</div></fieldset>'
                f'<label>{esc(self.t("setup.kind"))} <select data-field="kind" data-seat="{i}" data-testid="seat-{i}-kind">'
                f'{"".join(options)}</select></label></li>')
        out.append("</ol><div class=\"actionbar\">" + button(esc(self.t("setup.start")), action="start-game", cls="btn primary big",
                                                            testid="start-game") + "</div></section>")
        return "".join(out)

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
            name = seat["name"].strip() or self.t("setup.default_name", n=i + 1)
            seats.append({"name": name, "symbol": seat["symbol"], "ai": seat["ai"]})
        self.stop_tasks()
        self.table = Table(self.setup["game"], seats)
        self.table.new_game(random.Random(crypto_seed()))
        self.ui = {}
        self.prev_scores = self.table.state.scores()
        self.save()
        self.go("#/play", replace=True)
        self.kick()

    # rules / settings
    def render_rules(self, game: str) -> str:
        if game not in GAMES:
            game = "penta"
        out = [f'<section class="screen rules" aria-labelledby="rules-h"><h1 id="rules-h">{esc(self.t("rules.heading", game=self.t(f"game.{game}")))}</h1>']
        view = self.view(game)
        table_after = getattr(view, "RULES_TABLE_AFTER", None)
        i = 1
        while self.catalog.has(f"{game}.rules.{i}"):
            text = self.t(f"{game}.rules.{i}")
            if text.startswith("## "):
                out.append(f"<h2>{esc(text[3:])}</h2>")
            elif text.startswith("- "):
                out.append(f'<ul><li>{"</li><li>".join(esc(x[2:] if x.startswith("- ") else x) for x in text.split(chr(10)))}</li></ul>')
            else:
                out.append(f"<p>{esc(text)}</p>")
            if i == table_after:
                out.append(view.rules_table(self))
            i += 1
        back = "#/play" if self.table and self.table.state is not None and not self.table.state.is_terminal() else "#/home"
        out.append('<div class="actionbar">' + button(esc(self.t("nav.back")), action="go", arg=back, cls="btn primary big",
                                                      testid="rules-back") + "</div></section>")
        return "".join(out)

    def render_settings(self) -> str:
        opts = "".join(f'<option value="{code}"{" selected" if code == self.catalog.lang else ""} lang="{code}">{esc(name)}</option>'
                       for code, (name, _) in LANGUAGES.items())
        anim = self.animations
        auto = bool(self.settings.get("autofill", True))
        hints = bool(self.settings.get("hints", False))
        back = "#/play" if self.table and self.table.state is not None and not self.table.state.is_terminal() else "#/home"
        return (f'<section class="screen settings" aria-labelledby="settings-h"><h1 id="settings-h">{esc(self.t("settings.heading"))}</h1>'
                f'<div class="card"><label>{esc(self.t("settings.language"))} <select data-field="lang" data-testid="set-lang">{opts}</select></label>'
                f'<label class="check"><input type="checkbox" data-field="animations" data-testid="set-animations"{" checked" if anim else ""}> '
                f'{esc(self.t("settings.animations"))}</label>'
                f'<label class="check"><input type="checkbox" data-field="autofill" data-testid="set-autofill"{" checked" if auto else ""}> '
                f'{esc(self.t("settings.autofill"))}</label><p class="muted">{esc(self.t("settings.autofill_help"))}</p>'
                f'<label class="check"><input type="checkbox" data-field="hints" data-testid="set-hints"{" checked" if hints else ""}> '
                f'{esc(self.t("settings.hints"))}</label><p class="muted">{esc(self.t("settings.hints_help"))}</p></div>'
                '<div class="actionbar">' + button(esc(self.t("nav.back")), action="go", arg=back, cls="btn primary big",
                                                   testid="settings-back") + "</div></section>")

    # results
    def render_results(self) -> str:
        table, state = self.table, self.table.state
        view = self.view()
        places = state.ranking()
        scores = state.scores()
        order = sorted(range(len(places)), key=lambda s: (places[s], s))
        heads = view.breakdown_heads(self)
        rows = []
        for seat in order:
            cells = "".join(f'<td class="num">{v}</td>' for v in view.breakdown(state, seat))
            rows.append(f'<tr data-testid="result-row-{seat}"><td class="num">{places[seat]}</td><th scope="row">{self.seat_label(seat)}</th>'
                        f'<td class="num total" data-testid="result-total-{seat}">{scores[seat]}</td>{cells}</tr>')
        head = "".join(f'<th scope="col" class="num">{esc(h)}</th>' for h in heads)
        winners = [table.seats[s]["name"] for s in range(len(places)) if places[s] == 1]
        headline = (self.t("results.winner", name=winners[0]) if len(winners) == 1
                    else self.t("results.shared", names=", ".join(winners)))
        out = [f'<section class="screen results" aria-labelledby="res-h" data-testid="results"><h1 id="res-h">{esc(self.t("results.heading"))}</h1>'
               f'<p class="lead" data-testid="winner">{esc(headline)}</p><div class="scroll"><table class="results-table" data-testid="results-table">'
               f'<caption class="sr-only">{esc(self.t("results.heading"))}</caption><thead><tr><th scope="col">{esc(self.t("results.place"))}</th>'
               f'<th scope="col">{esc(self.t("results.player"))}</th><th scope="col" class="num">{esc(self.t("results.total"))}</th>{head}</tr></thead>'
               f'<tbody>{"".join(rows)}</tbody></table></div>', self.render_plot(),
               view.render_review(self) if hasattr(view, "render_review") else "", self.render_standings(),
               '<div class="actionbar">' + button(esc(self.t("results.again")), action="again", cls="btn primary", testid="play-again")
               + button(esc(self.t("results.new_table")), action="new-table", cls="btn", testid="new-table")
               + button(esc(self.t("results.export")), action="export", cls="btn", testid="export-record") + "</div></section>"]
        return "".join(out)

    def render_plot(self) -> str:
        view = self.view()
        series = progression(self.table.record, getattr(view, "ends_turn", None))
        w, h, pad = 320, 180, 28
        top = max(max(s) for s in series) or 1
        steps = max(len(s) for s in series) - 1 or 1
        lines, legend = [], []
        for seat, values in enumerate(series):
            sym = self.table.seats[seat]["symbol"]
            cls = SYMBOL_CLASS.get(sym, "seat-0")
            pts = [(pad + (w - 2 * pad) * i / steps, h - pad - (h - 2 * pad) * v / top) for i, v in enumerate(values)]
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            marks = "".join(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" class="mark">{esc(sym)}</text>'
                            for k, (x, y) in enumerate(pts) if k % 3 == 0 or k == len(pts) - 1)
            lines.append(f'<g class="{cls}"><polyline points="{path}" fill="none" stroke="currentColor" stroke-width="2" '
                         f'stroke-dasharray="{["", "6 3", "2 3", "8 3 2 3", "1 0"][seat % 5]}"/>{marks}</g>')
            legend.append(f"<li>{self.seat_label(seat)}: {values[-1]}</li>")
        axis = (f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" class="axis"/>'
                f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" class="axis"/>'
                f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end" class="tick">{top}</text>'
                f'<text x="{pad - 4}" y="{h - pad + 4}" text-anchor="end" class="tick">0</text>'
                f'<text x="{w - pad}" y="{h - 8}" text-anchor="end" class="tick">{steps}</text>')
        return (f'<figure class="plot" data-testid="plot"><svg viewBox="0 0 {w} {h}" role="img" aria-label="{esc(self.t("results.plot"))}" dir="ltr">'
                f'{axis}{"".join(lines)}</svg><figcaption>{esc(self.t("results.plot"))} ({esc(self.t("results.rounds", n=steps))})<ul class="legend">{"".join(legend)}</ul></figcaption></figure>')

    def render_standings(self) -> str:
        st = self.table.standings
        rows = "".join(
            f'<tr data-testid="standing-{seat}"><th scope="row">{self.seat_label(seat)}</th><td class="num">{st.points[seat]}</td>'
            f'<td class="num">{st.wins[seat]}</td></tr>' for seat in st.order())
        return (f'<section class="standings" aria-labelledby="stand-h"><h2 id="stand-h">{esc(self.t("standings.heading"))}</h2>'
                f'<p class="muted">{esc(self.t("standings.games", n=st.games))}</p><table data-testid="standings"><thead><tr>'
                f'<th scope="col">{esc(self.t("results.player"))}</th><th scope="col" class="num">{esc(self.t("standings.points"))}</th>'
                f'<th scope="col" class="num">{esc(self.t("standings.wins"))}</th></tr></thead><tbody>{rows}</tbody></table></section>')

    # --- dialogs -----------------------------------------------------------------------
    def open_dialog(self, kind: str) -> None:
        dlg = self.element("dialog")
        self.dialog_kind = kind
        if kind == "quit":
            dlg.innerHTML = (f'<h2 id="dlg-h">{esc(self.t("quit.heading"))}</h2><p>{esc(self.t("quit.body"))}</p><div class="row">'
                             + button(esc(self.t("quit.cancel")), action="close-dialog", cls="btn", testid="quit-cancel")
                             + button(esc(self.t("quit.confirm")), action="confirm-quit", cls="btn danger", testid="quit-confirm")
                             + "</div>")
        dlg.setAttribute("aria-labelledby", "dlg-h")
        dlg.showModal()
        first = self.js(dlg.querySelector("button"))
        if first is not None:
            first.focus()

    def close_dialog(self) -> None:
        dlg = self.element("dialog")
        if dlg.open:
            dlg.close()
        self.dialog_kind = None

    # --- events ------------------------------------------------------------------------
    def on_click(self, event) -> None:
        target = self.js(event.target)
        el = self.js(target.closest("[data-action]")) if target is not None and hasattr(target, "closest") else None
        if el is None or el.tagName == "INPUT" or el.disabled:
            return
        action = str(el.getAttribute("data-action"))
        arg = self.js(el.getAttribute("data-arg"))
        arg = None if arg is None else str(arg)
        try:
            self.dispatch(action, arg)
        except Exception as err:  # never a stack trace for players
            window.console.error(f"dicehall: {action}: {err!r}")
            self.say(self.catalog.error(err), error=True)

    def dispatch(self, action: str, arg) -> None:
        if action != "close-dialog":
            self.clear_error()
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
        elif action == "confirm-quit":
            self.close_dialog()
            self.stop_tasks()
            self.table = None
            self.ui = {}
            self.save()
            self.go("#/home", replace=True)
        elif action == "again":
            self.stop_tasks()
            self.table.new_game(random.Random(crypto_seed()))
            self.ui = {}
            self.prev_scores = self.table.state.scores()
            self.save()
            self.render()
            self.kick()
        elif action == "new-table":
            seats = [dict(s) for s in self.table.seats]
            self.stop_tasks()
            self.setup = {"game": self.table.game, "seats": seats}
            self.table = None
            self.save()
            self.go(f"#/setup/{self.setup['game']}")
        elif action == "export":
            self.export_record()
        elif action == "discard-save":
            self.broken_save = None
            self.table = None
            self.save()
            self.go("#/home", replace=True)
        elif action == "export-save":
            self.download("dicehall-save.txt", self.broken_save or "")
        elif action == "apply-update":
            window.diceHallApplyUpdate()
        else:
            self.view().handle(self, action, arg)

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
            self.setup["seats"][int(el.getAttribute("data-seat"))]["ai"] = None if value == "person" else value[3:]
        elif field == "name":
            self.setup["seats"][int(el.getAttribute("data-seat"))]["name"] = str(el.value)
        elif field == "lang":
            self.settings["lang"] = str(el.value)
            self.save_settings()
            asyncio.ensure_future(self.change_language(str(el.value)))
        elif field in ("animations", "autofill", "hints"):
            self.settings[field] = bool(el.checked)
            self.save_settings()
            if field == "autofill" and not el.checked:
                self.cancel_countdown()

    def on_input(self, event) -> None:
        el = self.js(event.target)
        if el is not None and hasattr(el, "getAttribute") and self.js(el.getAttribute("data-field")) == "name" and self.setup:
            self.setup["seats"][int(el.getAttribute("data-seat"))]["name"] = str(el.value)

    async def change_language(self, lang: str) -> None:
        await self.load_language(lang)
        self.render()

    # --- turn engine -------------------------------------------------------------------
    def kick(self) -> None:
        """Start the automatic-turn loop (AI seats, countdown) if it is not running."""
        if self.table is None or self.table.state is None or self.broken_save is not None:
            return
        if self.table.game == "penta":
            self.want_penta_table()
        if self.loop_task is None or self.loop_task.done():
            self.loop_task = asyncio.ensure_future(self.view().auto_turns(self))

    def stop_tasks(self) -> None:
        for task in (self.loop_task, self.countdown_task):
            if task is not None and not task.done():
                task.cancel()
        self.loop_task = self.countdown_task = None
        self.countdown = None
        self.thinking = False

    def cancel_countdown(self) -> None:
        if self.countdown_task is not None and not self.countdown_task.done():
            self.countdown_task.cancel()
        self.countdown_task = None
        if self.countdown is not None:
            self.countdown = None
            self.render()

    def after_move(self) -> None:
        """Save, highlight changed scores, re-render."""
        state = self.table.state
        scores = state.scores()
        if self.prev_scores is not None and len(self.prev_scores) == len(scores):
            self.flash = {i for i, (a, b) in enumerate(zip(self.prev_scores, scores)) if a != b}
        self.prev_scores = scores
        self.save()
        if self.route()[0] == "play":
            self.render()


APP: App | None = None


async def start() -> App:
    global APP
    APP = App()
    await APP.start()
    return APP
