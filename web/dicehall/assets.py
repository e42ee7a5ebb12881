"""Lazily loaded game data (a game's `GameEntry.assets`), fetched when that game opens.

Each asset is fetched once from `./data/<game>/<file>` (precached by the service worker) and
installed on the main thread, then in the AI worker. The state per game is mirrored on
<html> for tests and benchmarks: `data-asset-<game>` and `data-asset-<game>-worker` =
loading | loaded | failed, `data-asset-<game>-ms` = "fetch load" milliseconds.
"""

from __future__ import annotations

import asyncio
import time

from pyscript import document, window

from pygame_core.registry import get_entry


class Assets:
    def __init__(self, on_change) -> None:
        self.on_change = on_change  # called with the game id when its data arrives or fails
        self.main: dict[str, str] = {}  # game -> none | loading | loaded | failed
        self.worker: dict[str, str] = {}
        self.tasks: dict[str, asyncio.Future] = {}
        self.worker_proxy = None

    def state(self, game: str) -> str:
        return self.main.get(game, "none")

    def _mark(self, game: str, suffix: str, value: str) -> None:
        document.documentElement.setAttribute(f"data-asset-{game}{suffix}", value)

    def want(self, game: str):
        """Start loading the game's data once (a failed load is retried on the next call)."""
        if not get_entry(game).assets:
            return None
        if self.state(game) in ("loading", "loaded"):
            return self.tasks.get(game)
        self.tasks[game] = asyncio.ensure_future(self._load(game))
        return self.tasks[game]

    async def ready(self, game: str, timeout: float = 5.0) -> None:
        """Wait (briefly) for a load in progress, so the first AI move already uses it."""
        task = self.tasks.get(game)
        if task is None or task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except Exception:
            pass

    async def _load(self, game: str) -> None:
        self.main[game] = "loading"
        self._mark(game, "", "loading")
        fetch_ms = load_ms = 0.0
        try:
            for asset in get_entry(game).assets.values():
                started = time.perf_counter()
                resp = await window.fetch(f"./data/{game}/{asset.file}")
                if not resp.ok:
                    raise OSError(f"HTTP {resp.status}")
                data = (await resp.arrayBuffer()).to_bytes()
                fetched = time.perf_counter()
                asset.load(data)
                fetch_ms += (fetched - started) * 1000
                load_ms += (time.perf_counter() - fetched) * 1000
        except Exception as err:  # the game keeps its fallbacks (e.g. a weaker AI level)
            self.main[game] = "failed"
            self._mark(game, "", "failed")
            window.console.warn(f"dicehall: {game} data unavailable: {err}")
            self.on_change(game)
            return
        self.main[game] = "loaded"
        self._mark(game, "-ms", f"{fetch_ms:.1f} {load_ms:.1f}")
        self._mark(game, "", "loaded")
        self.on_change(game)
        await self.load_in_worker(game)

    def worker_ready(self, proxy) -> None:
        """The AI worker is up: give it every game's data the main thread already has."""
        self.worker_proxy = proxy
        for game, status in list(self.main.items()):
            if status == "loaded":
                asyncio.ensure_future(self.load_in_worker(game))

    async def load_in_worker(self, game: str) -> None:
        if self.worker_proxy is None or self.worker.get(game) in ("loading", "loaded"):
            return
        self.worker[game] = "loading"
        try:
            for name, asset in get_entry(game).assets.items():
                url = str(window.URL.new(f"./data/{game}/{asset.file}", window.location.href).href)
                result = str(await self.worker_proxy.load_asset(game, name, url))
                if result != "loaded":
                    raise OSError(result)
            self.worker[game] = "loaded"
        except Exception as err:
            self.worker[game] = "failed"
            window.console.warn(f"dicehall: the AI worker could not load {game} data: {err}")
        self._mark(game, "-worker", self.worker[game])

    def where_to_think(self, game: str) -> str:
        """'worker' unless only the main thread has the game's data (then it plays there)."""
        if not get_entry(game).assets:
            return "worker"
        if self.main.get(game) == "loaded" and self.worker.get(game) != "loaded":
            return "main"
        return "worker"
