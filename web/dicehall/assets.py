"""Lazily loaded game data (a game's `GameEntry.assets`), fetched when that game opens.

Each asset is fetched once from `./data/<game>/<file>` (cached by the service worker when it
could be), checked against the sha256 the build wrote in `./data/index.json` (a truncated or
altered copy is dropped from the caches and fetched once more), and installed on the main
thread, then in the AI worker. The state per game is mirrored on
<html> for tests and benchmarks: `data-asset-<game>` and `data-asset-<game>-worker` =
loading | loaded | failed, `data-asset-<game>-ms` = "fetch load" milliseconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time

import js as window  # the page's global object (see browser.py)
from js import document
from pyodide.ffi import to_js

from pygame_core.registry import get_entry


class Assets:
    def __init__(self, on_change) -> None:
        self.on_change = on_change  # called with the game id when its data arrives or fails
        self.main: dict[str, str] = {}  # game -> none | loading | loaded | failed
        self.worker: dict[str, str] = {}
        self.tasks: dict[str, asyncio.Future] = {}
        self.worker_proxy = None
        self.hashes: dict | None = None  # data/index.json: game -> file -> sha256

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

    async def expected_hashes(self) -> dict:
        if self.hashes is None:
            resp = await window.fetch("./data/index.json")
            if not resp.ok:
                raise OSError(f"data/index.json: HTTP {resp.status}")
            self.hashes = json.loads(str(await resp.text()))
        return self.hashes

    async def fetch_checked(self, game: str, file: str) -> bytes:
        """The file's bytes, only if they match the build's sha256 (one refetch past the caches)."""
        expected = (await self.expected_hashes()).get(game, {}).get(file)
        url = f"./data/{game}/{file}"
        for attempt in (1, 2):
            # The second try skips the browser's HTTP cache too (a bad copy may sit there).
            options = {} if attempt == 1 else {"cache": "reload"}
            resp = await window.fetch(url, to_js(options, dict_converter=window.Object.fromEntries))
            if resp.ok:
                data = (await resp.arrayBuffer()).to_bytes()
                if hashlib.sha256(data).hexdigest() == expected:
                    return data
            if attempt == 1:
                await self.drop_cached(url)
        raise OSError(f"{url}: missing or damaged")

    async def drop_cached(self, url: str) -> None:
        """Remove a bad copy from the service worker's caches, so the next fetch asks the server."""
        absolute = str(window.URL.new(url, window.location.href).href)
        for key in (await window.caches.keys()).to_py():
            if str(key).startswith("dicehall-"):
                await (await window.caches.open(key)).delete(absolute)

    async def _load(self, game: str) -> None:
        self.main[game] = "loading"
        self._mark(game, "", "loading")
        fetch_ms = load_ms = 0.0
        try:
            for asset in get_entry(game).assets.values():
                started = time.perf_counter()
                data = await self.fetch_checked(game, asset.file)
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
            hashes = await self.expected_hashes()
            for name, asset in get_entry(game).assets.items():
                url = str(window.URL.new(f"./data/{game}/{asset.file}", window.location.href).href)
                sha = hashes.get(game, {}).get(asset.file, "")
                result = str(await self.worker_proxy.load_asset(game, name, url, sha))
                if result != "loaded":
                    raise OSError(result)
            self.worker[game] = "loaded"
        except Exception as err:
            self.worker[game] = "failed"
            window.console.warn(f"dicehall: the AI worker could not load {game} data: {err}")
        self._mark(game, "-worker", self.worker[game])

    async def in_worker(self, game: str) -> bool:
        """The game's data is in the AI worker (loaded there now if it is not: a review from
        History needs no copy on the main thread); False if it cannot be."""
        if not get_entry(game).assets:
            return True
        while self.worker.get(game) == "loading":
            await asyncio.sleep(0.05)
        if self.worker.get(game) != "loaded":
            await self.load_in_worker(game)
        return self.worker.get(game) == "loaded"

    def where_to_think(self, game: str) -> str:
        """'worker' unless only the main thread has the game's data (then it plays there)."""
        if not get_entry(game).assets:
            return "worker"
        if self.main.get(game) == "loaded" and self.worker.get(game) != "loaded":
            return "main"
        return "worker"
