"""Issue 28, item 8, in Chromium over real WebRTC on loopback (the test PeerServer, no STUN, one
Chromium per phone, as in test_rooms_ui.py):

- Bo plays a seat in Ann's room and opens the room's link in a second tab of the same browser
  (both tabs hold his guest id and seat secret in localStorage). The second tab says his place is
  open in another tab, with "Play here"; the first plays on, and for several seconds neither knocks
  the other off. "Play here" moves the place: the first tab says it moved to another tab and stays
  put (no retrying) until "Play here" there moves it back.
- Ann's page is gone for 4 s and comes back: Bo is back (his room no longer says the connection
  is lost) within 2 s of Ann's room being open again (the broker registering it), Ann's first
  throw reaches him within 2 s, and while she was gone his page tried again within about a
  second of each failed try. The seconds are printed. (Before, the wait between tries doubled
  up to 30 s: see OUTAGES.) A host gone longer than a guest waits (12 s) loses the table to its
  guest, and comes back as a guest: test_room_handover_ui.py.

Under CPython with a clock the test moves: tests/web/test_room_tabs.py (the app's two tabs) and
tests/engine/test_rooms_two_tabs.py (the protocol).
"""

from __future__ import annotations

import shutil
import time

import pytest
from dicehall_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CONSOLE,
    open_app,
    start_game,
    tid,
    wait_ready,
)

pytestmark = pytest.mark.browser

RTC_ARGS = ["--allow-loopback-in-peer-connection"]  # WebRTC on loopback (with the microphone permission)
GUEST_READY_JS = """() => document.querySelector('[data-testid=results]') ||
  (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled) ||
  document.querySelector('[data-testid^="box-"]:enabled')"""


@pytest.fixture
def phones(playwright_instance, returning_profile, site, broker, tmp_path):
    """Factory: a phone with the app booted, its rooms set to the test broker and no STUN, each
    its own Chromium on a copy of the returning player's profile (as test_rooms_ui.py's)."""
    contexts = []

    def factory():
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
                              "room_server": f"http://127.0.0.1:{broker.port}/"})
        return page

    yield factory
    for ctx in contexts:
        ctx.close()

ELSEWHERE = "open in another tab"
MOVED = "moved to another tab"
SEATED_JS = "() => document.querySelector('[data-testid=room-seat-row-1]')?.textContent.includes('you')"


def open_room(ann) -> str:
    """Ann's Penta game against the computer, opened for others; returns the room's link."""
    start_game(ann, "penta", ["person", "ai:greedy"])
    ann.click(tid("room-open"))
    ann.wait_for_selector(tid("room-link"), timeout=20000)
    return ann.input_value(tid("room-link"))


def join_and_sit(ann, bo, link: str) -> None:
    """Bo asks in by the link, Ann lets him in, and he takes the computer's seat."""
    bo.goto(link)
    bo.fill(tid("room-name"), "Bo")
    bo.click(tid("room-join"))
    ann.wait_for_selector(tid("room-approve"), timeout=20000)
    ann.click(tid("room-approve"))
    bo.wait_for_selector(tid("room-seat-1"), timeout=20000)
    bo.click(tid("room-seat-1"))
    bo.wait_for_function(SEATED_JS, timeout=20000)


def penta_turn(page) -> None:
    """The person to act on this phone throws (unless done), takes the first allowed box and
    confirms, at a person's pace (the app ignores a tap within 300 ms of drawing a move)."""
    page.wait_for_function(GUEST_READY_JS, timeout=60000, polling=50)
    if page.locator(f'{tid("roll")}:enabled').count():
        page.click(tid("roll"))
    page.wait_for_timeout(500)
    page.locator('[data-testid^="box-"]:enabled').first.click(timeout=30000)
    page.wait_for_timeout(500)
    page.click(tid("confirm"))


def plays_on(page) -> bool:
    """This tab shows the room with Bo in his seat and no word of a lost link."""
    return bool(page.evaluate(SEATED_JS)) and not page.locator(tid("room-status")).count() \
        and not page.locator(tid("room-elsewhere")).count()


def test_a_guest_in_two_tabs_is_told_where_the_place_is_and_play_here_moves_it(phones):
    ann = phones()
    link = open_room(ann)
    bo = phones()
    join_and_sit(ann, bo, link)

    tab = bo.context.new_page()  # the same browser: the same localStorage, Bo's seat secret in it
    CONSOLE.attach(tab)
    tab.goto(link)
    wait_ready(tab)
    tab.wait_for_selector(tid("room-elsewhere"), timeout=20000)
    assert ELSEWHERE in tab.inner_text(tid("room-elsewhere"))
    assert tab.locator(tid("room-here")).count() == 1 and tab.locator(tid("room-join")).count() == 0
    # For 5 s nobody knocks anybody off: the first tab plays on, Ann sees Bo there all along.
    for _ in range(10):
        bo.wait_for_timeout(500)
        assert plays_on(bo)
        assert tab.locator(tid("room-elsewhere")).count() == 1
        assert "away" not in ann.inner_text(tid("room-seat-row-1"))
    assert ann.locator(tid("room-approve")).count() == 0

    # "Play here": the second tab plays the seat, the first says the place moved, and stays so.
    tab.click(tid("room-here"))
    tab.wait_for_function(SEATED_JS, timeout=20000)
    bo.wait_for_selector(tid("room-elsewhere"), timeout=20000)
    assert MOVED in bo.inner_text(tid("room-elsewhere")) and bo.locator(tid("room-here")).count() == 1
    for _ in range(10):
        tab.wait_for_timeout(500)
        assert plays_on(tab)
        assert MOVED in bo.inner_text(tid("room-elsewhere"))
    tab.fill(tid("room-chat-text"), "from the second tab")
    tab.press(tid("room-chat-text"), "Enter")
    ann.wait_for_function("() => document.querySelector('[data-testid=room-chat]').textContent.includes('from the second tab')")

    # And back to the first tab.
    bo.click(tid("room-here"))
    bo.wait_for_function(SEATED_JS, timeout=20000)
    tab.wait_for_selector(tid("room-elsewhere"), timeout=20000)
    assert MOVED in tab.inner_text(tid("room-elsewhere"))
    bo.wait_for_timeout(2000)
    assert plays_on(bo) and tab.locator(tid("room-elsewhere")).count() == 1
    assert not CONSOLE.errors(ann) and not CONSOLE.errors(bo) and not CONSOLE.errors(tab)


# Every page of a phone, from its first script on, watches its broker socket (PeerJS's
# signalling): when the broker said OPEN (this page's peer registered: for Ann's, her room is
# reachable again), and each offer this page sent to connect (Bo's tries) and each EXPIRE the
# broker answered (a try given up: nobody under that id). And when the room's link showed.
SIGNALS_JS = """(() => {
  window.__openAt = null; window.__linkAt = null; window.__sig = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        if (window.__openAt === null && e.data.includes('"OPEN"')) window.__openAt = Date.now();
        if (e.data.includes('"EXPIRE"')) window.__sig.push(['expire', Date.now()]);
      });
    }
    send(data) {
      if (typeof data === 'string' && data.includes('"OFFER"')) window.__sig.push(['offer', Date.now()]);
      return super.send(data);
    }
  };
  const look = () => {
    if (window.__linkAt === null && document.querySelector('[data-testid=room-link]')) window.__linkAt = Date.now();
  };
  new MutationObserver(look).observe(document, {childList: true, subtree: true});
})();"""

# Bo's page: when it first said the link was lost, when that went again, and when it first
# showed a position after `index` (Ann's move).
GUEST_WATCH_JS = """(index) => {
  clearInterval(window.__wTimer);
  window.__w = {lost: null, back: null, moved: null};
  window.__sig = [];
  const look = () => {
    const now = Date.now(), w = window.__w;
    const lost = !!document.querySelector('[data-testid=room-status]');
    if (lost && w.lost === null) w.lost = now;
    if (!lost && w.lost !== null && w.back === null) w.back = now;
    const play = document.querySelector('[data-testid=play]');
    if (play && Number(play.dataset.index) > index && w.moved === null) w.moved = now;
  };
  window.__wTimer = setInterval(look, 10);
}"""

BACK_WITHIN = 2.0
# How long Ann's page is gone: the 4 s. The test broker (PeerServer) keeps a
# guest's offer to a host that is not there for 5-6 s (`expire_timeout`, checked each second)
# and hands it over if the host registers meanwhile: a guest whose try is pending then is back at
# once, so the return alone shows little. What decides is the wait between one try's EXPIRE and
# the next offer: now under a second while the page is in sight (TRY_GAP); before it doubled
# (1, 2, 4, 8 s ... up to 30): 2 s already in the 4 s. (A longer outage, 28 s, was here: now Bo
# takes the table over after 12 s, and Ann, back, joins him: rooms.TAKE_OVER, roomback.py. With
# her page's reload, Ann must be back within 8 s of her last tick to host on: roomback.QUICK_SECONDS.)
OUTAGES = (4.0,)
# web/rooms.js VISIBLE_RETRY_MS (1 s), and making the offer (PeerJS sends it once WebRTC has made
# it: 0.1-0.4 s on a busy machine); the old waits were 2 s and more.
TRY_GAP = 1.5


def try_gaps(bo, lost: int) -> list[float]:
    """Seconds from the loss to Bo's first offer, and from each EXPIRE to his next offer."""
    gaps, since = [], lost
    for kind, at in bo.evaluate("window.__sig"):
        if kind == "offer" and since is not None:
            gaps.append(round((at - since) / 1000, 2))
            since = None
        elif kind == "expire":
            since = at
    return gaps


def host_away_and_back(ann, bo, seconds: float) -> dict:
    """Ann's page is gone for `seconds` and comes back (her room from her phone's storage); once
    it is her turn she throws. When Bo was back and saw her throw, from her room's registration."""
    ann.wait_for_selector(f'{tid("roll")}:enabled', timeout=60000)  # the game waits for Ann
    index = int(ann.get_attribute(tid("play"), "data-index"))
    bo.wait_for_function("i => Number(document.querySelector('[data-testid=play]').dataset.index) === i", arg=index)
    bo.evaluate(GUEST_WATCH_JS, index)
    where = ann.url
    ann.goto("about:blank")  # Ann's page is gone (its peer destroyed on pagehide) ...
    bo.wait_for_function("() => window.__w.lost !== null", timeout=10000)
    time.sleep(seconds)  # ... while Bo's page tries again and again
    assert bo.evaluate("window.__w.back") is None
    ann.goto(where)
    wait_ready(ann)
    ann.wait_for_selector(f'{tid("roll")}:enabled', timeout=60000)
    clicked = ann.evaluate("Date.now()")
    ann.click(tid("roll"))
    bo.wait_for_function("() => window.__w.back !== null && window.__w.moved !== null", timeout=60000)
    w = bo.evaluate("window.__w")
    open_at, link_at = ann.evaluate("window.__openAt"), ann.evaluate("window.__linkAt")
    assert open_at is not None and link_at is not None
    out = {"lost": (w["back"] - w["lost"]) / 1000, "link": (link_at - open_at) / 1000,
           "back": (w["back"] - open_at) / 1000, "clicked": (clicked - open_at) / 1000,
           "moved": (w["moved"] - max(open_at, clicked)) / 1000, "gaps": try_gaps(bo, w["lost"])}
    print(f"\nhost gone {seconds:.0f} s: guest said 'connection lost' for {out['lost']:.2f} s; host's room open "
          f"(broker OPEN) -> its link on screen {out['link']:.2f} s; host open -> guest back {out['back']:.2f} s; "
          f"host's throw (clicked {out['clicked']:.2f} s after open) -> on the guest's screen {out['moved']:.2f} s; "
          f"guest's waits between tries (s): {out['gaps']}")
    return out


@pytest.mark.alone  # asserts on time (dicehall_browser_share.py)
def test_a_guest_is_back_within_two_seconds_of_the_host_coming_back(phones):
    ann = phones()
    ann.context.add_init_script(SIGNALS_JS)
    link = open_room(ann)
    bo = phones()
    bo.context.add_init_script(SIGNALS_JS)
    join_and_sit(ann, bo, link)
    bo.reload()  # (the link only changed the page's hash: a new document runs SIGNALS_JS)
    wait_ready(bo)
    bo.wait_for_function(SEATED_JS, timeout=20000)
    assert bo.evaluate("document.visibilityState") == "visible"  # a guest in sight (its fast retries)
    for seconds in OUTAGES:
        got = host_away_and_back(ann, bo, seconds)
        assert got["back"] <= BACK_WITHIN, f"after {seconds} s away: the guest was back {got['back']:.2f} s after the host"
        assert got["moved"] <= BACK_WITHIN, f"after {seconds} s away: the host's throw took {got['moved']:.2f} s"
        assert got["gaps"] and max(got["gaps"]) <= TRY_GAP, f"after {seconds} s away: waits between tries {got['gaps']}"
        assert plays_on(bo)
        penta_turn(ann)  # Ann's turn (her box), then Bo's on his own phone
        penta_turn(bo)
    assert not CONSOLE.errors(ann) and not CONSOLE.errors(bo)
