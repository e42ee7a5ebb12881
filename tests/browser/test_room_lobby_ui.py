"""A room before the game (issue 31, item 1) over real WebRTC on loopback (the PeerServer the tests
start, no STUN), three phones at 360x740, by clicks: Ann taps "Play online" on Home (a room with
no game yet), Bo and Cy join by its link and are let in, Cy's chat line is seen by all three,
Bo takes the second seat on the set-up, Ann chooses Cephalopod on the 3×3 board and starts, Ann
and Bo play it to the end on their phones while Cy watches, and Ann's "Choose another game" takes
all three back to the room, Bo still in his seat. The lobby screens are axe clean with no word
broken or spilled; screenshots in /tmp/shots/lobby/.

The protocol's states and refusals are checked under CPython (tests/engine/test_room_lobby_protocol.py),
the screens on the fake page (tests/web/test_room_lobby_desk.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dicehall_browser import (CHROMIUM, CHROMIUM_ARGS, CONSOLE, axe_violations, open_app, outside_the_viewport, tap,
                              tid, words_whole)

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("DICEHALL_SHOTS", "/tmp/shots/lobby"))

# What this phone may do now in Cephalopod: the results, a capture to confirm, a die to pick for
# one, an empty square to place on, or nothing (the other player's turn).
CEPH_JS = """() => document.querySelector('[data-testid=results]') ? 'results'
  : document.querySelector('[data-testid=confirm-capture]:enabled') ? 'confirm'
  : document.querySelector('[data-testid=capture-picker]')
    && document.querySelector('[data-testid^="pick-"]:not(.picked)') ? 'pick'
  : document.querySelector('button[data-action=place]:enabled') ? 'place' : null"""


@pytest.fixture
def phones(playwright_instance, returning_profile, site, broker, tmp_path):
    """Factory: a phone (its own Chromium on a copy of the returning player's profile) with the
    app booted on Home and its rooms on the test's PeerServer."""
    contexts = []

    def factory():
        profile = tmp_path / f"phone-{len(contexts)}"
        shutil.copytree(returning_profile, profile, ignore=shutil.ignore_patterns("Singleton*"))
        ctx = playwright_instance.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_ARGS + ["--allow-loopback-in-peer-connection"], permissions=["microphone"],
            viewport={"width": 360, "height": 740})
        ctx.add_init_script("window.diceHallMakeSnapshot = false;")
        contexts.append(ctx)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        CONSOLE.attach(page)
        open_app(page, site, {"animations": False, "autofill": False, "lang": "en", "room_ice": "none",
                              "room_server": f"http://127.0.0.1:{broker.port}/"})
        return page

    yield factory
    for ctx in contexts:
        ctx.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def checked(page, where: str) -> None:
    """Axe clean, no word broken or spilled, nothing wider than the phone."""
    assert axe_violations(page) == [], where
    words_whole(page, "#app", where)
    assert outside_the_viewport(page, "#app *") == [], where


def let_in(ann, guest, link: str, name: str) -> None:
    guest.goto(link)
    guest.fill(tid("room-name"), name)
    tap(guest, tid("room-join"))
    ann.wait_for_selector(tid("room-approve"), timeout=30000)
    tap(ann, tid("room-approve"))
    guest.wait_for_selector(tid("lobby-choosing"), timeout=30000)


def test_a_room_from_home_chat_seats_a_game_chosen_played_and_the_room_chooses_again(phones):
    ann, bo, cy = phones(), phones(), phones()
    tap(ann, tid("play-online"))
    ann.wait_for_selector(tid("room-link"), timeout=30000)
    assert ann.locator(tid("room-lobby")).count() and ann.locator(tid("lobby-start")).count()
    link = ann.input_value(tid("room-link"))
    let_in(ann, bo, link, "Bo")
    let_in(ann, cy, link, "Cy")

    cy.fill(tid("room-chat-text"), "hello from Cy")
    cy.press(tid("room-chat-text"), "Enter")
    for page in (ann, bo, cy):
        page.wait_for_function("() => document.querySelector('[data-testid=room-chat]').textContent.includes('hello from Cy')",
                               timeout=20000)

    tap(ann, tid("lobby-game-cephalopod"))
    tap(ann, tid("option-size-3"))
    bo.wait_for_function("() => (document.querySelector('[data-testid=lobby-options]') || {}).textContent?.includes('3')",
                         timeout=20000)
    tap(bo, tid("room-seat-1"))
    ann.wait_for_selector(f'{tid("lobby-seat-1")}, {tid("room-give")}', timeout=20000)
    if ann.locator(tid("room-give")).count():  # (a person's seat on Ann's phone: she gives it)
        tap(ann, tid("room-give"))
    ann.wait_for_selector(tid("lobby-seat-1"), timeout=40000)
    assert "Bo" in ann.inner_text(tid("lobby-seat-1"))
    cy.wait_for_function("() => !document.querySelector('[data-testid=room-seat-1]')", timeout=20000)
    shot(ann, "lobby-host.png")
    shot(cy, "lobby-guest.png")
    checked(ann, "the host's room")
    checked(cy, "a guest's room")

    tap(ann, tid("lobby-start"))
    for page in (ann, bo, cy):
        page.wait_for_selector(tid("play"), timeout=30000)
    for _ in range(400):
        if all(p.locator(tid("results")).count() for p in (ann, bo, cy)):
            break
        acted = False
        for page in (ann, bo):
            what = page.evaluate(CEPH_JS)
            if what == "confirm":
                tap(page, tid("confirm-capture"))
            elif what == "pick":
                tap(page, page.locator('[data-testid^="pick-"]:not(.picked)').first)
            elif what == "place":
                tap(page, page.locator("button[data-action=place]:enabled").first)
            acted = acted or what not in (None, "results")
        if not acted:
            ann.wait_for_timeout(100)
    else:
        pytest.fail("the game does not end")
    results = [p.inner_text(tid("results")) for p in (ann, bo, cy)]
    assert "Bo" in results[0] and "Bo" in results[1] and "Bo" in results[2]
    shot(cy, "lobby-guest-results.png")

    tap(ann, tid("lobby-again"))
    ann.wait_for_selector(tid("lobby-start"), timeout=20000)
    for page in (bo, cy):
        page.wait_for_selector(tid("lobby-choosing"), timeout=20000)
    assert "Bo" in ann.inner_text(tid("lobby-seat-1")) and "you" in bo.inner_text(tid("room-seat-row-1"))
    shot(bo, "lobby-again-guest.png")
