"""The room overview (issue 31, item 2) over real WebRTC on loopback, one Chromium per phone at
360x740:

- On a PeerServer started with --allow_discovery: Ann opens her game for others and lists it;
  Bo's overview shows it (game, a free seat, nobody watching) and he joins it, asks in, is let in
  and gets the computer's seat; Cy's overview shows it with Bo now playing (no free seat, Bo not
  watching) and she watches it: let in, Ann's table on her phone, no seat. Both have the room
  under "Your rooms". Axe clean, no word broken or spilled, screenshots.
- On a PeerServer without discovery (like PeerJS's public broker) the overview says it lists
  nothing and offers the link and the direct invitation, in all five languages (no word broken
  or spilled, nothing wider than the phone).

The model, the 48 hours (clock passed in) and the five languages are checked under CPython:
tests/web/test_room_overview.py.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from dicehall_browser import (CHROMIUM, CHROMIUM_ARGS, CONSOLE, PEER_BIN, ROOT, Broker, _free_port, axe_violations,
                              catalog, open_app, tap, tid, wait_ready, words_whole)
from pygame_core.table import Table

pytestmark = pytest.mark.browser

RTC_ARGS = ["--allow-loopback-in-peer-connection"]
SHOTS = Path(os.environ.get("DICEHALL_SHOTS", "/tmp/shots/rooms-overview"))


class DiscoveryBroker(Broker):
    """A PeerServer that answers GET /<key>/peers (started with --allow_discovery)."""

    def start(self) -> None:
        node = shutil.which("node")
        if node is None or not PEER_BIN.is_file():
            pytest.fail("the room tests need node and node_modules/peer (npm ci)")
        self.proc = subprocess.Popen([node, str(PEER_BIN), "--port", str(self.port), "--host", "127.0.0.1",
                                      "--allow_discovery"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/peerjs/peers", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail("the discovering PeerServer did not answer within 20 s")
            time.sleep(0.1)


@pytest.fixture(scope="module")
def open_broker():
    b = DiscoveryBroker(_free_port())
    b.start()
    yield b
    b.stop()


@pytest.fixture
def phones(playwright_instance, returning_profile, site, tmp_path):
    """Factory: a phone (its own Chromium, a copy of the returning player's profile) with the app
    booted and its rooms on the meeting server at `port`, no STUN."""
    contexts = []

    def factory(port: int, table: str | None = None):
        profile = tmp_path / f"phone-{len(contexts)}"
        shutil.copytree(returning_profile, profile, ignore=shutil.ignore_patterns("Singleton*"))
        ctx = playwright_instance.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + RTC_ARGS,
            permissions=["microphone"], viewport={"width": 360, "height": 740})
        ctx.add_init_script("window.diceHallMakeSnapshot = false;")
        contexts.append(ctx)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        CONSOLE.attach(page)
        open_app(page, site, {"animations": False, "autofill": False, "lang": "en", "room_ice": "none",
                              "room_server": f"http://127.0.0.1:{port}/"}, table=table)
        return page

    yield factory
    for ctx in contexts:
        ctx.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def penta_against_the_computer() -> str:
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
    table.new_game(random.Random(6))
    return table.dumps()


def listed(broker, room: str, timeout: float = 20) -> str:
    """The listing of `room` on the server (the ids it holds, as the overview reads them)."""
    deadline = time.monotonic() + timeout
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{broker.port}/peerjs/peers", timeout=2) as r:
            ids = json.loads(r.read())
        found = [i for i in ids if i.startswith(f"dhl-{room}-")]
        if found:
            return found[0]
        assert time.monotonic() < deadline, ids
        time.sleep(0.2)


def to_overview(page) -> None:
    page.evaluate("location.hash = '#/rooms'")
    page.wait_for_selector(tid("rooms"))


def card(page, room: str) -> str:
    return page.inner_text(tid(f"open-room-{room}"))


def test_a_listed_room_is_joined_and_watched_from_the_overview(phones, open_broker):
    ann = phones(open_broker.port, table=penta_against_the_computer())
    ann.wait_for_selector(tid("play"))
    tap(ann, tid("room-open"))
    ann.wait_for_selector(tid("room-link"), timeout=20000)
    assert ann.get_attribute(tid("room-list"), "aria-pressed") == "false"  # off by default
    room = ann.input_value(tid("room-link")).rsplit("/", 1)[1]

    bo = phones(open_broker.port)
    tap(bo, tid("nav-rooms"))
    bo.wait_for_selector(f'{tid("rooms-none-open")}, {tid("open-rooms")}', timeout=20000)
    assert bo.locator(tid(f"open-room-{room}")).count() == 0  # not listed: never shown

    tap(ann, tid("room-list"))
    ann.wait_for_function("() => document.querySelector('[data-testid=room-list]').getAttribute('aria-pressed') === 'true'")
    shot(ann, "host-listed.png")
    listed(open_broker, room)
    tap(bo, tid("rooms-look"))
    bo.wait_for_selector(tid(f"open-room-{room}"), timeout=20000)
    text = card(bo, room)
    assert "Penta" in text and "Free seats: 1" in text and "Watching: 0" in text
    shot(bo, "overview-open-room.png")
    words_whole(bo, tid("rooms"), "overview")
    assert axe_violations(bo) == []

    tap(bo, tid(f"enter-{room}"))  # Join: ask in, then the computer's seat
    bo.fill(tid("room-name"), "Bo")
    tap(bo, tid("room-join"))
    ann.wait_for_selector(tid("room-approve"), timeout=20000)
    tap(ann, tid("room-approve"))
    bo.wait_for_function("() => (document.querySelector('[data-testid=room-seat-row-1]') || {}).textContent"
                         "?.includes('you')", timeout=30000)

    cy = phones(open_broker.port)
    to_overview(cy)
    # Ann's listing says Bo plays (registered again within a few seconds of the change).
    deadline = time.monotonic() + 30
    while True:
        cy.wait_for_selector(f'{tid("rooms-none-open")}, {tid("open-rooms")}', timeout=20000)
        if cy.locator(tid(f"open-room-{room}")).count() and "Free seats: 0" in card(cy, room):
            break
        assert time.monotonic() < deadline, cy.inner_text(tid("rooms"))
        cy.wait_for_timeout(1000)
        tap(cy, tid("rooms-look"))
    assert "Watching: 0" in card(cy, room) and cy.locator(tid(f"enter-{room}")).count() == 0  # no free seat
    tap(cy, tid(f"watch-{room}"))
    cy.fill(tid("room-name"), "Cy")
    tap(cy, tid("room-join"))
    ann.wait_for_selector(tid("room-approve"), timeout=20000)
    tap(ann, tid("room-approve"))
    cy.wait_for_selector(tid("play"), timeout=30000)  # Ann's table on Cy's phone
    cy.wait_for_selector(tid("room-people"))
    assert "watching" in cy.inner_text(tid("room-people"))
    assert cy.locator('[data-testid^="room-seat-row-"]:has-text("you")').count() == 0  # no seat: watching

    for page in (bo, cy):  # the room is among each guest's rooms
        to_overview(page)
        page.wait_for_selector(tid(f"my-room-{room}"))
    shot(cy, "overview-your-rooms.png")
    words_whole(cy, tid("rooms"), "your rooms")
    assert axe_violations(cy) == []


def test_a_meeting_server_without_discovery_is_said(phones, broker):
    cy = phones(broker.port, table=penta_against_the_computer())
    to_overview(cy)
    cy.wait_for_selector(tid("rooms-no-discovery"), timeout=20000)
    assert "does not list rooms" in cy.inner_text(tid("rooms-no-discovery"))
    assert cy.locator(tid("rooms-share-link")).count() == 1 and cy.locator(tid("rooms-share-direct")).count() == 1
    shot(cy, "overview-no-discovery.png")
    words_whole(cy, tid("rooms"), "no discovery")
    assert axe_violations(cy) == []
    for lang in ("nb", "sv", "pl", "ar"):  # the same screen in the other languages, on the phone
        cy.evaluate("""l => { const s = JSON.parse(localStorage.getItem('dicehall.settings'));
                              s.lang = l; localStorage.setItem('dicehall.settings', JSON.stringify(s)); }""", lang)
        cy.reload()
        wait_ready(cy)
        to_overview(cy)  # (a phone with a game on its table boots into it)
        cy.wait_for_selector(tid("rooms-no-discovery"), timeout=20000)
        text = catalog(lang)
        assert cy.inner_text(tid("rooms-no-discovery")) == text["rooms.no_discovery"]
        assert text["rooms.share_link"] in cy.inner_text(tid("rooms-share-link"))
        words_whole(cy, tid("rooms"), lang)
        assert cy.evaluate("document.documentElement.scrollWidth") <= 360, lang  # nothing wider than the phone
        if lang in ("pl", "ar"):
            shot(cy, f"overview-no-discovery-{lang}.png")
    cy.evaluate("""() => { const s = JSON.parse(localStorage.getItem('dicehall.settings'));
                           s.lang = 'en'; localStorage.setItem('dicehall.settings', JSON.stringify(s)); }""")
    cy.reload()
    wait_ready(cy)
    to_overview(cy)
    cy.wait_for_selector(tid("rooms-share-link"), timeout=20000)
    tap(cy, tid("rooms-share-link"))  # the link and its QR code, under the table
    cy.wait_for_selector(tid("room-link"), timeout=20000)
