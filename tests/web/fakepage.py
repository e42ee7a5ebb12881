"""The whole app under CPython: the real shell (`dicehall.shell.Shell`) on a fake page.

`FakePage` implements the page port (`dicehall.page.Page`) over a parsed copy of what the shell
draws, and taps, selects, types and presses keys the way a player does: by data-testid, only on
what the screen offers (a disabled button cannot be clicked; while the dialog is open only the
dialog can be). Storage is a dict that two pages may share, like two tabs of one browser: a
write in one tab reaches the other as a storage event. Catalogs are served as the build makes
them. Every screen drawn, and everything the live region says, is checked for words a player must
never see: a catalog key, an unfilled `{placeholder}`, a Python repr.

    page = FakePage(lang="pl")
    await page.boot()
    await page.tap("new-penta")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sys
from html.parser import HTMLParser

from support import ROOT, game_web_dir

sys.path.insert(0, str(ROOT))
import build as dicehall_build  # noqa: E402

from dicehall.shell import Shell  # noqa: E402
from pygame_core.record import Record  # noqa: E402
from pygame_core.registry import entries, get_entry  # noqa: E402

# A person's pace: a tap comes this long after the page drew what the previous one made (they
# look, then tap: well over the shell's REACT_MS). A double tap's quick second tap is asked for.
PERSON_MS = 600.0

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Element:
    def __init__(self, tag: str, attrs: dict, parent: "Element | None") -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list = []  # Elements and strings

    def get(self, name: str, default=None):
        return self.attrs.get(name, default)

    @property
    def testid(self) -> str | None:
        return self.attrs.get("data-testid")

    @property
    def disabled(self) -> bool:
        return "disabled" in self.attrs

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.walk()

    def closest(self, predicate) -> "Element | None":
        el = self
        while el is not None:
            if predicate(el):
                return el
            el = el.parent
        return None

    def text(self) -> str:
        """The words a person sees (or hears): text, and the names given by aria-label, title,
        placeholder and alt; hidden elements left out, and a style rule is no words."""
        if "hidden" in self.attrs or self.tag == "style":
            return ""
        out = [self.attrs[a] for a in ("aria-label", "title", "placeholder", "alt") if self.attrs.get(a)]
        if self.tag == "input" and self.attrs.get("type") not in ("checkbox", "file"):
            out.append(self.attrs.get("value", ""))
        for child in self.children:
            out.append(child.text() if isinstance(child, Element) else child)
        return " ".join(x for x in out if x and x.strip())

    def inner_text(self) -> str:
        """The words drawn inside the element (what innerText gives: no aria-label, no title)."""
        out = [c if isinstance(c, str) else c.inner_text() for c in self.children
               if isinstance(c, str) or ("hidden" not in c.attrs and c.tag != "style")]
        return " ".join(" ".join(out).split())

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.at = self.root

    def handle_starttag(self, tag, attrs):
        el = Element(tag, {k: ("" if v is None else v) for k, v in attrs}, self.at)
        self.at.children.append(el)
        if tag not in VOID:
            self.at = el

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Element(tag, {k: ("" if v is None else v) for k, v in attrs}, self.at))

    def handle_endtag(self, tag):
        el = self.at
        while el is not None and el.tag != tag:
            el = el.parent
        if el is None:
            raise AssertionError(f"</{tag}> closes nothing")
        if el is not self.at:
            raise AssertionError(f"</{tag}> closes <{self.at.tag}> too early")
        self.at = el.parent

    def handle_data(self, data):
        self.at.children.append(data)


def parse(html: str) -> Element:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert builder.at is builder.root, f"<{builder.at.tag}> is never closed"
    return builder.root


# --- storage shared by the tabs of one browser ------------------------------------------------------
class Browser:
    """localStorage of one origin, shared by its tabs (pages). `full`: every write fails;
    `blocked`: every access fails."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}
        self.pages: list[FakePage] = []
        self.full = self.blocked = False

    def backend(self, page: "FakePage") -> "Tab":
        return Tab(self, page)


class Tab:
    """One page's view of its browser's storage (the `store.Store` backend)."""

    def __init__(self, browser: Browser, page: "FakePage") -> None:
        self.browser, self.page = browser, page

    def get(self, key: str) -> str | None:
        if self.browser.blocked:
            raise PermissionError("storage is blocked")
        return self.browser.items.get(key)

    def set(self, key: str, value: str) -> None:
        if self.browser.blocked or self.browser.full:
            raise OSError("QuotaExceededError")
        self.browser.items[key] = value
        self._tell_others(key, value)

    def remove(self, key: str) -> None:
        if self.browser.blocked:
            raise PermissionError("storage is blocked")
        if self.browser.items.pop(key, None) is not None:
            self._tell_others(key, None)

    def _tell_others(self, key: str, value: str | None) -> None:
        for page in self.browser.pages:
            if page is not self.page and page.shell is not None:
                page.events.append(lambda page=page: page.shell.storage_changed(key, value))


class LocalAssets:
    """Game data on CPython: every game finds its own data files in its package."""

    def want(self, game: str):
        return None

    async def ready(self, game: str, timeout: float = 5.0) -> None:
        return None

    def state(self, game: str) -> str:
        return "loaded"

    def where_to_think(self, game: str) -> str:
        return "main"


_CATALOGS: dict | None = None


def catalogs() -> dict[str, dict]:
    """dist/i18n/ as the build makes it, for every registered game (fixture games included)."""
    global _CATALOGS
    games = {name: (None, game_web_dir(name)) for name in entries()}
    key = tuple(sorted(games))
    if _CATALOGS is None or _CATALOGS["key"] != key:
        built = dicehall_build.catalogs(ROOT / "web", games)
        _CATALOGS = {"key": key, "files": {path: json.loads(data) for path, data in built.items()}}
    return _CATALOGS["files"]


KEY_LIKE = re.compile(r"[a-z_]+(?:\.[a-z_0-9]+)+")


class FakePage:
    def __init__(self, browser: Browser | None = None, lang: str | None = None, settings: dict | None = None,
                 seed: int = 1, hash_: str = "#/home", languages=("en",), strict: bool = True) -> None:
        self.browser = browser or Browser()
        self.browser.pages.append(self)
        if settings is not None or lang is not None:
            stored = {"animations": False, "autofill": False, **(settings or {})}
            if lang is not None:
                stored["lang"] = lang
            self.browser.items.setdefault("dicehall.settings", json.dumps(stored))
        self.rng = random.Random(seed)
        self.location = hash_
        self.langs = list(languages)
        self.strict = strict
        self.shell: Shell | None = None
        self.events: list = []  # what the browser would dispatch after the current task
        self.app = parse("")
        self.html = ""
        self.screen = ""
        self.motion = True
        self.focused: str | None = None
        self.dialog_el: Element | None = None
        self.dialog_notes: list[tuple[str, bool]] = []
        self.toasts: list[str] = []  # every error shown, in order
        self.toast_el: Element | None = None
        self.spoken: list[str] = []  # the live region, in order
        self.downloads: list[tuple[str, str]] = []
        self.copied: list[str] = []
        self.shared: list[str] = []
        self.share_answer = "unavailable"
        self.clipboard = True
        self.errors: list[str] = []  # console errors
        self.warnings: list[str] = []
        self.awake = False
        self.leave_warned = False
        self.felt: list[str] = []
        self.banner: str | None = None
        self.document = {"lang": None, "dir": None, "title": None}
        self.ready = False
        self.kept_taps: list[str] = []
        self.draws = 0
        self.measures: dict[str, int] = {}
        self.ms = 0.0  # now_ms(): the page's clock; it is where the page's last work ended
        self.tapped_at = 0.0  # when the last click happened (its event's time)
        self.draw_ms = 0.0  # what drawing a screen takes (a slow phone: hundreds of ms)
        self.now = 1_800_000_000.0  # wall-clock seconds (2027)
        self.updates_applied = 0
        # The AI worker's reviews: what was asked (game ids, in order); `review_gate`, when set,
        # holds every answer back until the test sets it (the loading state stays on screen);
        # `worker_down`: the worker cannot answer (the review says so, with Retry).
        self.reviews_asked: list[str] = []
        self.review_gate: asyncio.Event | None = None
        self.worker_down = False

    # --- the page port (dicehall.page.Page) ---------------------------------------------------
    def draw(self, screen, html, motion, new_moment, focus) -> None:
        before = self.focused
        self.html = html
        self.app = parse(html)
        self.screen, self.motion, self.draws = screen, motion, self.draws + 1
        self.ms += self.draw_ms
        if self.strict:
            self.check_words(self.app)
        if new_moment:
            heading = next((el for el in self.app.walk() if el.tag == "h1"), None)
            self.focused = heading.get("id") if heading is not None else None
            return
        wanted = focus or before
        el = self.find(wanted, missing_ok=True) if wanted else None
        if el is not None and not el.disabled:
            self.focused = wanted
        elif before:
            heading = next((el for el in self.app.walk() if el.tag == "h1"), None)
            self.focused = heading.get("id") if heading is not None else None

    def set_text(self, element_id, text) -> bool:
        el = next((el for el in self.app.walk() if el.get("id") == element_id), None)
        if el is None:
            return False
        el.children = [text]
        return True

    def live(self, text) -> None:
        self.spoken.append(text)
        if self.strict:
            self.check_text(text)

    def toast(self, html) -> None:
        self.toast_el = None if html is None else parse(html)
        if html is not None:
            said = next(el for el in self.toast_el.walk() if el.testid == "error")
            self.toasts.append(said.text())

    def dialog(self, html) -> None:
        self.dialog_el = None if html is None else parse(html)
        if self.dialog_el is not None and self.strict:
            self.check_words(self.dialog_el)

    def dialog_note(self, text, alert) -> None:
        self.dialog_notes.append((text, alert))

    def update_banner(self, html) -> None:
        self.banner = html

    def has_enabled(self, action, arg) -> bool:
        return any(el.get("data-action") == action and (arg is None or el.get("data-arg") == arg) and not el.disabled
                   for el in self.app.walk())

    def set_document(self, lang, direction, title) -> None:
        self.document = {"lang": lang, "dir": direction, "title": title}

    def take_kept_tap(self, testid) -> bool:
        # `kept_taps`: the testids of what web/early.js kept before Python, on the screen shown
        if self.kept_taps != [testid]:
            return False
        self.kept_taps = []
        return True

    def boot_phase(self, text) -> None:
        pass

    def booted(self) -> None:
        self.ready = True

    async def shown(self) -> None:
        pass

    def hash(self) -> str:
        return self.location

    def go(self, hash_, replace) -> None:
        if hash_ != self.location:
            self.location = hash_
            self.events.append(lambda: self.shell.hash_changed())

    def set_hash_quietly(self, hash_) -> None:
        self.location = hash_

    def address(self) -> str:
        return "https://dice.example/app/index.html"

    def now_ms(self) -> float:
        return self.ms

    def clock(self) -> float:
        return self.now

    @contextlib.contextmanager
    def measured(self, name):
        self.measures[name] = self.measures.get(name, 0) + 1
        yield

    def random_seed(self) -> int:
        return self.rng.getrandbits(64)

    def reduced_motion(self) -> bool:
        return False

    def languages(self) -> list[str]:
        return self.langs

    async def fetch_json(self, url):
        files = catalogs()
        path = url.removeprefix("./")
        if path not in files:
            raise OSError(f"{url}: HTTP 404")
        return json.loads(json.dumps(files[path]))

    def download(self, filename, text) -> None:
        self.downloads.append((filename, text))

    async def copy(self, text) -> bool:
        if self.clipboard:
            self.copied.append(text)
        return self.clipboard

    async def share(self, text) -> str:
        self.shared.append(text)
        return self.share_answer

    def wake_lock(self, on) -> None:
        self.awake = on

    def leave_warning(self, on) -> None:
        self.leave_warned = on

    def feel(self, kind, sound, vibrate) -> None:
        self.felt.append(kind)

    def date_text(self, seconds, lang) -> str:
        import time

        return time.strftime("%Y-%m-%d", time.gmtime(seconds))

    def apply_update(self) -> None:
        self.updates_applied += 1

    def log_error(self, text) -> None:
        self.errors.append(text)

    def log_warning(self, text) -> None:
        self.warnings.append(text)

    async def think(self, game, state_json, seat, level, seed):
        return None  # no worker here: the shell thinks on the main thread

    async def review(self, game, record_json):
        """The worker's answer: the game's review of the record sent, as JSON text, both ways
        through JSON as in the browser (what cannot cross the worker's boundary fails here too)."""
        self.reviews_asked.append(game)
        if self.review_gate is not None:
            await self.review_gate.wait()
        if self.worker_down:
            return None
        record = Record.from_json(json.loads(record_json))
        assert record.game == game
        return json.dumps(get_entry(game).review(record))

    # --- a player's hands ---------------------------------------------------------------------------
    async def boot(self, **shell_kwargs) -> Shell:
        self.shell = Shell(self, self.browser.backend(self), LocalAssets(), **shell_kwargs)
        await self.shell.start()
        await self.idle()
        return self.shell

    def reload(self) -> "FakePage":
        """The same tab loaded again: a new page on the same storage and address."""
        self.close()
        return FakePage(self.browser, seed=self.rng.getrandbits(32), hash_=self.location, languages=self.langs,
                        strict=self.strict)

    def close(self) -> None:
        if self.shell is not None:
            self.shell.play.stop()
        if self in self.browser.pages:
            self.browser.pages.remove(self)

    async def idle(self, rounds: int = 20_000) -> None:
        """Let the page's events and the app's tasks run until nothing is left to do."""
        for _ in range(rounds):
            while self.events:
                self.events.pop(0)()
            if not self.busy() and not self.events:
                return
            await asyncio.sleep(0)
        raise AssertionError("the app never settled")

    def busy(self) -> bool:
        """The app has work under way: the computer's turn, a countdown, a catalog loading… (not
        the toast's timer, nor a room's heartbeat, which go on by design)."""
        shell = self.shell
        if shell is None:
            return False
        tasks = [shell.play._loop, shell.play._countdown_task,
                 *(t for t in shell._tasks if t is not shell._toast_task)]
        return any(task is not None and not task.done() for task in tasks)

    def find(self, testid: str, missing_ok: bool = False) -> Element | None:
        roots = [self.dialog_el] if self.dialog_el is not None else [self.app]
        if self.toast_el is not None and self.dialog_el is None:
            roots.append(self.toast_el)
        for root in roots:
            for el in root.walk():
                if el.testid == testid:
                    return el
        if missing_ok:
            return None
        raise AssertionError(f"no [data-testid={testid!r}] on the {self.screen} screen: {sorted(self.testids())}")

    def testids(self) -> set[str]:
        root = self.dialog_el if self.dialog_el is not None else self.app
        return {el.testid for el in root.walk() if el.testid}

    def has(self, testid: str) -> bool:
        return self.find(testid, missing_ok=True) is not None

    def enabled(self, testid: str) -> bool:
        el = self.find(testid, missing_ok=True)
        return el is not None and not el.disabled

    def text(self, testid: str | None = None) -> str:
        el = self.app if testid is None else self.find(testid)
        return " ".join(el.text().split())

    def pointer_time(self, after_ms: float | None = None) -> float:
        """When the next click happens: `after_ms` after the previous click (a double tap's second
        tap: ~100), or by default at a person's pace, PERSON_MS after the page drew what the
        previous one made. A click that comes while the page is still busy (drawing) waits: it is
        handed over when the page is free, with its own time."""
        at = self.tapped_at + after_ms if after_ms is not None else self.ms + PERSON_MS
        self.tapped_at, self.ms = at, max(self.ms, at)
        return at

    def click(self, testid: str, taps: int = 1, after_ms: float | None = None) -> None:
        """A click (taps=2: the second of a double tap; 0: from the keyboard), `after_ms` after
        the previous one or at a person's pace (pointer_time)."""
        at = self.pointer_time(after_ms)
        el = self.find(testid)
        target = el.closest(lambda e: "data-action" in e.attrs)
        assert target is not None, f"{testid} does nothing when tapped"
        assert not target.disabled, f"{testid} is disabled"
        screen = target.closest(lambda e: "data-index" in e.attrs)
        self.focused = testid
        self.shell.tap(target.get("data-action"), target.get("data-arg"),
                       int(screen.get("data-index")) if screen is not None else None, taps, at)

    async def tap(self, testid: str, taps: int = 1, after_ms: float | None = None) -> None:
        self.click(testid, taps, after_ms)
        await self.idle()

    async def select(self, testid: str, value: str) -> None:
        el = self.find(testid)
        assert el.tag == "select" and not el.disabled, el
        values = [o.get("value") for o in el.walk() if o.tag == "option"]
        assert value in values, (testid, value, values)
        self.shell.change(el.get("data-field"), value, False, self._data(el))
        await self.idle()

    async def check(self, testid: str, on: bool) -> None:
        el = self.find(testid)
        assert el.get("type") == "checkbox", el
        self.shell.change(el.get("data-field"), "on", on, self._data(el))
        await self.idle()

    async def type(self, testid: str, text: str) -> None:
        """Type into a text field (each change said as typed), then leave it."""
        el = self.find(testid)
        assert el.tag == "input" and not el.disabled, el
        maxlength = el.get("maxlength")
        text = text[: int(maxlength)] if maxlength else text
        el.attrs["value"] = text  # the field shows what was typed (until a redraw draws it anew)
        self.focused = testid
        self.shell.edit(el.get("data-field"), text, self._data(el))
        self.shell.change(el.get("data-field"), text, False, self._data(el))
        await self.idle()

    async def press(self, key: str, repeat: bool = False) -> None:
        """A key on whatever has the focus."""
        el = self.find(self.focused, missing_ok=True) if self.focused else None
        tag = el.tag.upper() if el is not None else "BODY"
        taken = self.shell.key(key, el.get("data-field") if el is not None else None, tag, False, repeat)
        # Chromium: Enter clicks a focused button on every keydown, repeats included (a held
        # key); Space clicks it once, when the key goes up.
        if not taken and el is not None and el.tag == "button" and (key == "Enter" or (key == " " and not repeat)):
            self.click(self.focused, taps=0)
        await self.idle()

    async def escape(self) -> None:
        """Escape closes the open dialog."""
        assert self.dialog_el is not None
        self.dialog_el = None
        self.shell.dialog_closed()
        await self.idle()

    async def choose_file(self, text: str | bytes, size: int | None = None) -> None:
        data = text.encode() if isinstance(text, str) else text

        async def read() -> str:
            return data.decode("utf-8", errors="replace")
        await self.shell.import_file(len(data) if size is None else size, read)
        await self.idle()

    def stored(self, key: str = "dicehall.table"):
        return self.browser.items.get(key)

    def table(self):
        from pygame_core.table import Table

        return Table.loads(self.browser.items["dicehall.table"])

    # --- what must never show ---------------------------------------------------------------------
    def check_words(self, root: Element) -> None:
        self.check_text(root.text())

    def check_text(self, text: str) -> None:
        assert "{" not in text and "}" not in text, text[:300]
        assert " at 0x" not in text, text[:300]
        keys = self._keys()
        shown = set(KEY_LIKE.findall(text)) & keys
        assert not shown, shown

    def _keys(self) -> set[str]:
        files = catalogs()
        keys = set(files["i18n/en.json"])
        for path, messages in files.items():
            if path.count("/") == 2 and path.endswith("/en.json"):
                keys |= set(messages)
        return keys

    @staticmethod
    def _data(el: Element) -> dict:
        return {key: el.get(f"data-{key}") for key in ("seat", "key") if el.get(f"data-{key}") is not None}


class Phone:
    """A phone with the app open (the real shell on a fake page, its English catalog and Penta's
    loaded without a boot), driven by the taps the browser sends — actions and drafts — and
    checked on what its screen says: the room tests' two or three phones."""

    def __init__(self, net, clock, hash_: str = "#/play", direct=None, scanner=None, browser=None) -> None:
        from dicehall.i18n import Catalog

        self.page = FakePage(browser or Browser(), hash_=hash_)
        self.page.clock = clock
        self.shell = Shell(self.page, self.page.browser.backend(self.page), LocalAssets(), net, direct, None, scanner)
        self.page.shell = self.shell
        self.shell.settings["pace"] = "fast"
        files = catalogs()  # as the build makes them (Home lists every game's title)
        self.shell.catalog = Catalog("en", files["i18n/en.json"], files["i18n/en.json"])
        self.shell.catalog.add("penta", files["i18n/penta/en.json"], files["i18n/penta/en.json"])

    def __getattr__(self, name):
        return getattr(self.shell, name)

    @property
    def screen(self) -> str:
        return self.page.html

    @property
    def storage(self) -> dict[str, str]:
        return self.page.browser.items

    @property
    def hash(self) -> str:
        return self.page.location

    @property
    def dialog(self) -> str | None:
        return self.shell.dialog_kind

    @property
    def note(self) -> tuple[str, bool] | None:
        return self.page.dialog_notes[-1] if self.page.dialog_notes else None

    def go(self, hash_: str) -> None:
        self.page.go(hash_, False)
        self.deliver()

    def deliver(self) -> None:
        while self.page.events:
            self.page.events.pop(0)()

    def tap(self, action: str, arg=None) -> None:
        self.shell.tap(action, None if arg is None else str(arg), None, 1, self.page.pointer_time())
        self.deliver()

    async def idle(self) -> None:
        await self.page.idle()

    def testids(self) -> set[str]:
        return set(re.findall(r'data-testid="([^"]+)"', self.screen))
