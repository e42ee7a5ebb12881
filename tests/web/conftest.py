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
