"""The screens a first visit shows before Python is there, drawn by the build with the real shell.

`build.py` runs this under CPython against the app.zip it just made (`python3 -m
dicehall.prerender <dist>` with app.zip first on sys.path), so the HTML is exactly what the shell
draws in the browser for a new player: Home, each game's set-up and rules, in each language.
It writes `dist/screens/<lang>.json`: {"title", "dir", "boot": the boot phases' words,
"screens": {hash: {"screen", "html"}}}. `web/early.js` paints the screen the address names at
once, answers the taps that only move between these screens, and keeps every other tap (with the
fields typed into) to hand to the shell when it has started (docs/ARCHITECTURE.md, "Boot").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

from pygame_core.registry import entries

from .i18n import LANGUAGES
from .shell import Shell

BOOT_KEYS = ("boot.loading", "boot.python", "boot.table", "boot.waiting", "boot.error", "boot.reload")


class MemoryStorage:
    """A new player's storage: empty, and what the shell writes while drawing is forgotten."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, value: str) -> None:
        self.items[key] = value

    def remove(self, key: str) -> None:
        self.items.pop(key, None)


class NoAssets:
    """Game data is never needed to draw Home, a set-up or the rules."""

    def want(self, game: str):
        return None

    async def ready(self, game: str, timeout: float = 5.0) -> None:
        return None

    def state(self, game: str) -> str:
        return "loaded"

    def where_to_think(self, game: str) -> str:
        return "worker"


class StaticPage:
    """The page port (dicehall.page.Page) as the build sees it: a drawing is kept, not shown."""

    def __init__(self, dist: Path, lang: str) -> None:
        self.dist = dist
        self.lang = lang
        self.location = "#/home"
        self.drawn: tuple[str, str] | None = None

    # drawing: keep the last screen
    def draw(self, screen, html, motion, new_moment, focus) -> None:
        self.drawn = (screen, html)

    def set_text(self, element_id, text) -> bool:
        return False

    def live(self, text) -> None: ...

    def toast(self, html) -> None: ...

    def dialog(self, html) -> None: ...

    def dialog_note(self, text, alert) -> None: ...

    def update_banner(self, html) -> None: ...

    def has_enabled(self, action, arg) -> bool:
        return False

    def set_document(self, lang, direction, title) -> None: ...

    def boot_phase(self, text) -> None: ...

    def booted(self) -> None: ...

    async def shown(self) -> None: ...

    # location: set by the build, never by a tap
    def hash(self) -> str:
        return self.location

    def go(self, hash_, replace) -> None:
        self.location = hash_

    def set_hash_quietly(self, hash_) -> None:
        self.location = hash_

    def address(self) -> str:
        return "./"

    # the platform: fixed values (nothing drawn here depends on them)
    def now_ms(self) -> float:
        return 0.0

    def clock(self) -> float:
        return 0.0

    def measured(self, name):
        return contextlib.nullcontext()

    def random_seed(self) -> int:
        return 1

    def reduced_motion(self) -> bool:
        return True

    def languages(self) -> list[str]:
        return [self.lang]

    async def fetch_json(self, url):
        return json.loads((self.dist / url.removeprefix("./")).read_text(encoding="utf-8"))

    def wake_lock(self, on) -> None: ...

    def leave_warning(self, on) -> None: ...

    def log_error(self, text) -> None:
        raise RuntimeError(f"prerender: {text}")

    def log_warning(self, text) -> None: ...

    def __getattr__(self, name):  # download, share, think…: never reached while drawing
        raise AttributeError(f"prerender: the page cannot {name} at build time")


def routes() -> list[str]:
    out = ["#/home"]
    for game in entries():
        out += [f"#/setup/{game}", f"#/rules/{game}"]
    return out


async def screens(dist: Path, lang: str) -> dict:
    page = StaticPage(dist, lang)
    shell = Shell(page, MemoryStorage(), NoAssets())
    shell.settings["lang"] = lang
    await shell.load_language(lang)
    for game in entries():
        await shell.load_game_catalog(game)
    drawn = {}
    for route in routes():
        page.location, page.drawn = route, None
        shell.setup = None  # each set-up afresh, as a new player sees it
        shell.render()
        if page.drawn is None:
            raise RuntimeError(f"prerender: {route} drew nothing")
        drawn[route] = {"screen": page.drawn[0], "html": page.drawn[1]}
    shell.play.stop()
    t = shell.t
    return {"lang": lang, "dir": t.dir, "title": t("app.title"),
            "boot": {key: t(key) for key in BOOT_KEYS if shell.catalog.has(key)}, "screens": drawn}


def main(argv: list[str]) -> int:
    dist = Path(argv[0])
    for lang in LANGUAGES:
        data = asyncio.run(screens(dist, lang))
        out = dist / "screens" / f"{lang}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
