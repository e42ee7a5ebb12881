"""A stand-in for the app shell (controller.Host) so the controller and views run under CPython."""

from __future__ import annotations

import asyncio
import random

from dicehall.controller import PlayController
from dicehall.i18n import Catalog
from pygame_core import ai
from pygame_core.rng import DiceRoller
from support import load_catalog


def view_for(game: str):
    import importlib

    return importlib.import_module(f"dicehall.games.{game}").VIEW


class FakeHost:
    def __init__(self, lang: str = "en", settings: dict | None = None, seed: int = 1) -> None:
        self.lang = lang
        self.settings = {"autofill": False, "hints": False, "animations": False, **(settings or {})}
        self.catalog = Catalog(lang, load_catalog(lang), load_catalog("en"))
        self.said: list[tuple[str, bool]] = []
        self.saved: tuple[str | None, str | None] = (None, None)
        self.renders = 0
        self.body = ""
        self.rng = random.Random(seed)
        self.play = PlayController(self, view_for, DiceRoller(seed))

    def open_game(self, game: str) -> None:
        self.catalog.add(game, load_catalog(self.lang, game), load_catalog("en", game))

    # controller.Host
    @property
    def t(self):
        return self.catalog

    def error_text(self, err) -> str:
        return self.catalog.error(err)

    @property
    def animations(self) -> bool:
        return bool(self.settings.get("animations"))

    def render(self) -> None:
        self.renders += 1
        if self.play.running:
            self.body = self.play.render_body()

    def say(self, text: str, error: bool = False) -> None:
        self.said.append((text, error))

    def save_game(self, table, ui_text) -> bool:
        saved_table, _ = self.saved
        table_text = table.dumps() if table is not None else (saved_table if ui_text is not None else None)
        self.saved = (table_text, ui_text)
        return True

    def set_text(self, element_id: str, text: str) -> bool:
        return False

    async def ai_move(self, game, state, seat, level) -> str:
        await asyncio.sleep(0)
        return ai.choose_move(state, seat, level, random.Random(self.rng.getrandbits(31)))

    def want_assets(self, game: str) -> None:
        pass

    async def assets_ready(self, game: str, timeout: float = 5.0) -> None:
        pass

    def bests(self, game: str) -> list[dict]:
        return []

    def feedback(self, kind: str) -> None:
        self.feedbacks = getattr(self, "feedbacks", []) + [kind]

    def asset_state(self, game: str) -> str:
        return "loaded"

    def render_results(self) -> str:
        from dicehall.screens import results

        return results.render(self)


class Clock:
    """Seconds for the rooms (heartbeats, 30-second requests, 48-hour rooms): moved by the test."""

    def __init__(self, t: float = 10_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def settle(host: FakeHost, rounds: int = 10_000) -> None:
    """Let the controller's automatic steps run until it waits for a person."""
    for _ in range(rounds):
        task = host.play._loop
        if task is None or task.done():
            countdown = host.play._countdown_task
            if countdown is None or countdown.done():
                return
        await asyncio.sleep(0)
    raise AssertionError("the controller never settled")


def run(coro_fn) -> None:
    """Run an async test body on its own event loop in a thread (a browser test session may
    already run a loop in this one)."""
    import threading

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coro_fn())
        return
    errors: list[BaseException] = []

    def target():
        try:
            asyncio.run(coro_fn())
        except BaseException as err:  # re-raised in the test's thread
            errors.append(err)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
