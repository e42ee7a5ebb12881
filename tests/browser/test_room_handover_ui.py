"""The table survives its host (issue 31, item 3), in Chromium over real WebRTC on loopback (the
test PeerServer, no STUN; each phone its own Chromium on a copy of the returning player's
profile, as in test_room_tabs_ui.py). One story, one test:

- Ann hosts Penta near its end (her seat against the computer, pace fast); Bo and Cy join by the
  link and watch, and so does Dee, a bare page of the room protocol (web/rooms.js alone).
- Ann's phone vanishes mid-game (her Chromium closed, no goodbye). Bo, first in line, hosts the
  table within 20 s on his phone and its computer seats (Ann's too, until she is back) play on;
  Cy follows him. The screens say who hosts and that the throws before cannot be checked.
- Dee claims the table although she is not next in line: she opens a room of her own at once
  with a claim that is sound but for her turn, and Cy's first look for Bo's room is sent to hers
  (her page's join is redirected by an init script: the app's own page never goes there by
  itself). Cy refuses it, says so, and follows Bo a second later: nothing of Dee's is taken.
- The game ends on both with the same result, its record Ann's moves and then Bo's.
- Ann's phone opens the app again (the same profile): it finds Bo's room and is seated as a guest
  in her own seat, not hosting a second table.

Printed: seconds from the loss to the next move on each screen. Under CPython with a clock the
test moves: tests/web/test_room_return.py, test_room_heir.py, test_room_heir_desk.py.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import time
from pathlib import Path

import pytest
from dicehall_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CONSOLE,
    open_app,
    saved_table,
    tid,
    wait_ready,
)

from pygame_core import ai
from pygame_core.rooms.succession import heir_room_id, next_secret
from pygame_core.table import Table

pytestmark = pytest.mark.browser

RTC_ARGS = ["--allow-loopback-in-peer-connection"]
GOES_ON_WITHIN = 20.0  # the issue's: play goes on within 20 s of the host's loss
READY_JS = """() => document.querySelector('[data-testid=results]') ||
  (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled) ||
  document.querySelector('[data-testid^="box-"]:enabled')"""
# Everything a page said (its live region and its error toasts), kept: toasts go after a while.
SAID_JS = """(() => {
  window.__said = [];
  const heard = (records) => {
    for (const r of records) for (const node of r.addedNodes) {
      const text = node.textContent.trim();
      if (text) window.__said.push(text);
    }
  };
  const watch = () => {
    for (const id of ['live', 'toast']) {
      const el = document.getElementById(id);
      if (el) new MutationObserver(heard).observe(el, {childList: true, subtree: true});
    }
  };
  window.__leave = [];  // each change of the leave warning (web/feel.js), with its time
  const watchLeave = () => new MutationObserver(
    () => window.__leave.push([Date.now(), document.documentElement.dataset.leaveWarning]))
    .observe(document.documentElement, {attributes: true, attributeFilter: ['data-leave-warning']});
  const both = () => { watch(); watchLeave(); };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', both); else both();
})();"""
# A join for the room `window.__astray.from` goes, once, to `window.__astray.to` instead.
ASTRAY_JS = """(() => {
  let rooms;
  Object.defineProperty(window, 'diceHallRooms', {configurable: true, get: () => rooms, set: (value) => {
    const join = value.join;  // (rooms.js freezes its object: a copy with join wrapped)
    rooms = Object.freeze({...value, join: (optionsJson, onEvent) => {
      const opts = JSON.parse(optionsJson), astray = window.__astray;
      if (astray && !astray.done && opts.room === astray.from) { astray.done = true; opts.room = astray.to; }
      return join(JSON.stringify(opts), onEvent);
    }});
  }});
})();"""
DEE_JOIN_JS = """opts => {
  window.__ev = [];
  window.__link = diceHallRooms.join(JSON.stringify(opts), (k, c, d) => window.__ev.push([k, d]));
}"""
# Dee's own room: whoever says hello is welcomed with her claim (as its own guest id).
DEE_HOST_JS = """([opts, room]) => new Promise((resolve, reject) => {
  window.__asked = [];
  const link = diceHallRooms.host(JSON.stringify(opts), (kind, conn, data) => {
    if (kind === 'open') resolve();
    else if (kind === 'error') reject(new Error(data));
    else if (kind === 'message' && JSON.parse(data).kind === 'hello') {
      window.__asked.push(JSON.parse(data).guest);
      link.send(conn, JSON.stringify({kind: 'welcome', guest: JSON.parse(data).guest, room}));
    }
  });
})"""


def shot(page, name: str) -> None:
    """A full-page screenshot into $DICEHALL_SHOTS, when set (to look at the hand-over's screens)."""
    folder = os.environ.get("DICEHALL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def penta_near_the_end() -> str:
    """Ann's Penta against the computer (Greedy) at round 11 of 13 (she plays it; the last two
    rounds are played after the hand-over, long enough for Cy to be in Bo's room before the end:
    a guest let in after the dice were revealed has nothing to check)."""
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
    table.new_game(random.Random(6))
    rng = random.Random(7)
    while table.state.turn_number() < 2 * 10:
        state = table.state
        if state.is_chance():
            table.submit(-1, state.chance_move([rng.randint(1, s) for s in state.chance()]), table.match.index)
        else:
            seat = state.current_player()
            table.submit(seat, ai.choose_move(state, seat, "greedy", rng), table.match.index)
    return table.dumps()


@pytest.mark.alone  # asserts on time (dicehall_browser_share.py)
def test_the_host_vanishes_the_next_in_line_hosts_an_impostor_is_refused_and_the_host_comes_back_as_a_guest(
        playwright_instance, returning_profile, site, broker, rtc_browser, tmp_path):
    contexts = []

    def launch(profile, scripts=()):
        ctx = playwright_instance.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + RTC_ARGS,
            permissions=["microphone"], viewport={"width": 360, "height": 740})
        ctx.add_init_script("window.diceHallMakeSnapshot = false;")
        for script in (SAID_JS, *scripts):
            ctx.add_init_script(script)
        contexts.append(ctx)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        CONSOLE.attach(page)
        return page

    def phone(name: str, scripts=(), table: str | None = None):
        profile = tmp_path / name
        shutil.copytree(returning_profile, profile, ignore=shutil.ignore_patterns("Singleton*"))
        page = launch(profile, scripts)
        open_app(page, site, {"animations": False, "autofill": False, "lang": "en", "pace": "fast", "room_ice": "none",
                              "room_server": f"http://127.0.0.1:{broker.port}/"}, table=table)
        return page, profile

    def let_in(page, name: str) -> None:
        page.goto(link)
        page.fill(tid("room-name"), name)
        page.click(tid("room-join"))
        ann.wait_for_selector(tid("room-approve"), timeout=20000)
        ann.click(tid("room-approve"))
        page.wait_for_selector(tid("room-seat-0"), timeout=20000)  # in: watching, a seat offered

    def said(page) -> list[str]:
        return page.evaluate("window.__said")

    dee_ctx = rtc_browser.new_context(permissions=["microphone"])
    try:
        ann, ann_profile = phone("ann", table=penta_near_the_end())
        ann.wait_for_selector(tid("play"))
        ann.click(tid("room-open"))
        ann.wait_for_selector(tid("room-link"), timeout=20000)
        link = ann.input_value(tid("room-link"))
        room = link.split("#/join/")[1]
        bo, _ = phone("bo")
        let_in(bo, "Bo")
        cy, _ = phone("cy", scripts=(ASTRAY_JS,))
        let_in(cy, "Cy")
        # Dee: a bare page of the protocol, let in as a watcher (the last in line, if in line at all).
        dee = dee_ctx.new_page()
        dee.goto(site.url + "third-party-notices.txt")
        for script in ("transport-events.js", "rooms.js"):
            dee.add_script_tag(url=site.url + script)
        dee.wait_for_function("() => !!window.diceHallRooms")
        dee.evaluate(DEE_JOIN_JS, {"room": room, "broker": broker.options, "iceServers": []})
        dee.wait_for_function("() => window.__ev.some(e => e[0] === 'open')", timeout=20000)
        dee.evaluate("t => window.__link.send(t)", json.dumps({"kind": "hello", "name": "Dee"}))
        ann.wait_for_selector(tid("room-approve"), timeout=20000)
        ann.click(tid("room-approve"))
        dee.wait_for_function("() => window.__ev.some(e => e[0] === 'message' && JSON.parse(e[1]).kind === 'welcome')")

        # Ann plays her turn of round 11; the computer its own; Ann's next throw waits for her.
        ann.wait_for_function(READY_JS, timeout=60000, polling=50)
        ann.click(tid("roll"))
        ann.wait_for_timeout(500)
        ann.locator('[data-testid^="box-"]:enabled').first.click(timeout=30000)
        ann.wait_for_timeout(500)
        ann.click(tid("confirm"))
        ann.wait_for_selector(f'{tid("roll")}:enabled', timeout=60000)
        assert ann.evaluate("document.documentElement.dataset.leaveWarning") == "on"  # hosting a game on
        index = int(ann.get_attribute(tid("play"), "data-index"))
        for page in (bo, cy):
            page.wait_for_function("i => Number(document.querySelector('[data-testid=play]')?.dataset.index) === i",
                                   arg=index, timeout=20000)
        before = saved_table(ann).record.moves
        bo_id = json.loads(bo.evaluate("localStorage.getItem('dicehall.guest')"))["guest"]
        # Dee's claim: sound (her own proof, the record as she saw it) but for her turn.
        welcome = next(json.loads(d) for k, d in dee.evaluate("window.__ev") if k == "message" and '"welcome"' in d)
        snapshot = [m for m in (json.loads(d) for k, d in dee.evaluate("window.__ev") if k == "message")
                    if m["kind"] in ("room", "welcome")][-1]["room"]
        dee_room = heir_room_id(room, welcome["guest"])
        claim = {"from": room, "heir": welcome["guest"], "proof": next_secret(welcome["secret"]), "generation": 1}
        cy.evaluate("a => { window.__astray = a; }", {"from": heir_room_id(room, bo_id), "to": dee_room})

        # Ann's phone vanishes.
        lost_ms = ann.evaluate("Date.now()")  # (the pages' clock: Bo's leave warning after it)
        lost = time.monotonic()
        contexts.remove(ann.context)
        ann.context.close()
        dee.evaluate(DEE_HOST_JS, [{"room": dee_room, "token": secrets.token_hex(16), "broker": broker.options,
                                    "iceServers": []}, {**snapshot, "room": dee_room, "succession": claim}])
        went_on = {}
        for name, page in (("Bo", bo), ("Cy", cy)):
            page.wait_for_function("i => Number(document.querySelector('[data-testid=play]')?.dataset.index) > i"
                                   " || !!document.querySelector('[data-testid=results]')",
                                   arg=index, timeout=40000, polling=100)
            went_on[name] = round(time.monotonic() - lost, 1)
        print(f"\nhost lost -> the next move on the new host's screen {went_on['Bo']} s, on the other's {went_on['Cy']} s")
        assert max(went_on.values()) <= GOES_ON_WITHIN, went_on
        assert "The host was gone: you host the table now." in said(bo)
        cy.wait_for_function("t => window.__said.includes(t)", arg="The table has a new host: \u2068Bo\u2069.",
                             timeout=10000)  # (said on the tick after Bo's room let Cy in)
        for page in (bo, cy):
            assert page.locator(tid("room-dice-before")).count() == 1  # the throws before: not checkable
        shot(bo, "bo-hosts.png")
        shot(cy, "cy-follows.png")
        assert cy.evaluate("window.__astray.done") and dee.evaluate("window.__asked").count(
            json.loads(cy.evaluate("localStorage.getItem('dicehall.guest')"))["guest"]) == 1
        assert "Refused: someone who is not next in line tried to take the table over." in said(cy), \
            [t for t in said(cy) if "host" in t or "Refused" in t]
        assert any(at > lost_ms and on == "on" for at, on in bo.evaluate("window.__leave"))  # Bo hosts a game

        # The computer plays Ann's seat and its own to the end, on Bo's phone; both show the result.
        for page in (bo, cy):
            page.wait_for_selector(tid("results"), timeout=120000)
        assert bo.inner_text(tid("winners")) == cy.inner_text(tid("winners"))
        standings = f'{tid("results")} table'
        assert bo.locator(standings).first.inner_text() == cy.locator(standings).first.inner_text()
        bo.wait_for_function("() => document.documentElement.dataset.leaveWarning === 'off'", timeout=10000)
        final = saved_table(bo)
        assert final.state.is_terminal() and final.record.moves[:len(before)] == before
        cy.wait_for_selector(tid("room-dice"), timeout=20000)  # Bo's new seed revealed, Cy's check
        assert cy.inner_text(tid("room-dice")).startswith("The dice thrown since the host changed were checked")
        assert bo.evaluate("document.documentElement.dataset.wakeLock") == "wanted"  # hosting: awake

        # Ann's phone opens the app again: a guest in her own seat at Bo's table.
        ann = launch(ann_profile)
        ann.goto(site.index)
        wait_ready(ann)
        ann.wait_for_function("() => document.querySelector('[data-testid=room-seat-row-0]')?.textContent.includes('you')",
                              timeout=30000)
        ann.wait_for_function("h => location.hash === h", arg=f"#/join/{heir_room_id(room, bo_id)}",
                              timeout=10000)  # (on the tick after Bo's room let her in)
        assert ann.locator(tid("room-close")).count() == 0 and ann.locator(tid("room-leave")).count() == 1
        assert any(s.startswith("While you were away, your table moved to a new host") for s in said(ann))
        assert ann.evaluate("localStorage.getItem('dicehall.room')") is None
        shot(ann, "ann-back-as-guest.png")
        shot(cy, "cy-results.png")
        bo.wait_for_function("() => !document.querySelector('[data-testid=room-seat-row-0]')?.textContent.includes('computer')",
                             timeout=20000)
        for page in (ann, bo, cy):
            assert not CONSOLE.errors(page), CONSOLE.errors(page)
    finally:
        dee_ctx.close()
        for ctx in contexts:
            ctx.close()
