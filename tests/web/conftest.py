"""Fixtures of the front-end tests under CPython."""

from __future__ import annotations

import asyncio

import pytest

REAL_SLEEP = asyncio.sleep


@pytest.fixture
def instant_sleep(monkeypatch):
    """The controller's pacing, countdowns and the rooms' ticks pass at once (the rooms' own
    time is a `fakehost.Clock` the test moves)."""
    async def no_wait(seconds, *args):
        await REAL_SLEEP(0)

    monkeypatch.setattr(asyncio, "sleep", no_wait)


@pytest.fixture(autouse=True)
def current_event_loop():
    """A loop of its own for each test: synchronous tests let the controller schedule its
    automatic steps (asyncio.ensure_future needs a current loop), whatever earlier tests did
    with theirs (asyncio.run leaves none behind)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    yield loop
    asyncio.set_event_loop(None)
    loop.close()
