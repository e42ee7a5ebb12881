"""The browser transport for online rooms (web/rooms.js over PeerJS): a host page and its guests'
pages carry text both ways through real WebRTC data channels, signalled by a local PeerServer.

Everything stays on 127.0.0.1: a PeerServer (`peer`, node_modules) per module, `iceServers: []`,
and Chromium with `--allow-loopback-in-peer-connection` plus the microphone permission (without
both, headless Chromium gathers no loopback ICE candidates: /work/shared/notes/p2p-rooms.md).
Pages are a plain file of the built site (`site` fixture) into which dist/rooms.js is loaded, so
no test boots Pyodide except `test_the_app_page_has_rooms_without_loading_peerjs`. (Not a page
made up with `page.route`: Chromium counts such a page as public address space, and its Local
Network Access checks then block the WebSocket to the loopback broker.)
"""

from __future__ import annotations

import secrets
import time

import pytest

from dicehall_browser import Broker, RequestRecorder, wait_ready, wait_sw_controlled

pytestmark = pytest.mark.browser

BLANK = "third-party-notices.txt"  # any page of the built site: rooms.js is added to it
ROOMS_READY = "() => !!(window.diceHallRooms && window.diceHallRooms.host)"

# The page's side: every event goes to window.__ev as [kind, connId, data, ms since start].
HOST_JS = """opts => {
  window.__ev = []; window.__t0 = performance.now();
  window.__link = diceHallRooms.host(JSON.stringify(opts),
    (k, c, d) => window.__ev.push([k, c, d, performance.now() - window.__t0]));
}"""
JOIN_JS = """opts => {
  window.__ev = []; window.__t0 = performance.now();
  window.__link = diceHallRooms.join(JSON.stringify(opts),
    (k, c, d) => window.__ev.push([k, c, d, performance.now() - window.__t0]));
}"""
COUNT_JS = "([kind, n]) => window.__ev.filter(e => e[0] === kind).length >= n"


# ---------------------------------------------------------------- fixtures
@pytest.fixture
def recorder() -> RequestRecorder:
    return RequestRecorder()


@pytest.fixture
def new_player(rtc_browser, site, recorder):
    """Factory: a page in a context of its own (one per player) on the blank rooms page."""
    if not (site.dist / "rooms.js").is_file():
        pytest.skip("this build has no rooms.js (DICEHALL_TEST_WEB placeholder pages?)")
    contexts = []

    def factory():
        ctx = rtc_browser.new_context(permissions=["microphone"])
        ctx.on("request", recorder.record)
        contexts.append(ctx)
        page = ctx.new_page()
        goto_blank(page, site)
        return page

    yield factory
    for ctx in contexts:
        ctx.close()
    assert recorder.external == [], "requests left the machine"


def goto_blank(page, site, reload: bool = False) -> None:
    if reload:
        page.reload()
    else:
        page.goto(site.url + BLANK)
    page.add_script_tag(url=site.url + "transport-events.js")
    page.add_script_tag(url=site.url + "rooms.js")
    page.wait_for_function(ROOMS_READY, timeout=10000)


def room_options(broker, room: str, token: str | None = None) -> dict:
    opts = {"room": room, "broker": broker.options, "iceServers": []}
    if token is not None:
        opts["token"] = token
    return opts


def new_room() -> tuple[str, str]:
    return "dice-" + secrets.token_hex(8), secrets.token_hex(16)


def events(page, kind: str | None = None) -> list[list]:
    ev = page.evaluate("window.__ev")
    return [e for e in ev if kind is None or e[0] == kind]


def wait_events(page, kind: str, count: int = 1, timeout: float = 15000) -> list[list]:
    try:
        page.wait_for_function(COUNT_JS, arg=[kind, count], timeout=timeout, polling=20)
    except Exception as exc:  # playwright TimeoutError: show what did happen
        pytest.fail(f"no {count} {kind!r} event(s) within {timeout} ms: {exc}\nevents: {events(page)}")
    return events(page, kind)


def host_room(page, broker, room: str, token: str) -> float:
    page.evaluate(HOST_JS, room_options(broker, room, token))
    return wait_events(page, "open")[0][3]


def join_room(page, broker, room: str) -> float:
    page.evaluate(JOIN_JS, room_options(broker, room))
    return wait_events(page, "open")[0][3]


def hello(host, guest, name: str, nth: int = 1) -> str:
    """The guest says its name; returns the host's connId for it."""
    seen = len(events(host, "message"))
    assert guest.evaluate("t => window.__link.send(t)", f"hello {name}")
    wait_events(host, "message", seen + 1)
    conn = [e[1] for e in events(host, "message") if e[2] == f"hello {name}"]
    assert len(conn) == nth, events(host)
    return conn[-1]


def setup_room(new_player, broker, guests: int = 2):
    host = new_player()
    room, token = new_room()
    host_room(host, broker, room, token)
    pages, conns, times = [], [], []
    for i in range(guests):
        g = new_player()
        times.append(join_room(g, broker, room))
        pages.append(g)
        conns.append(hello(host, g, f"g{i + 1}"))
    wait_events(host, "connect", guests)
    print(f"\nguest join -> open: {', '.join(f'{t:.0f} ms' for t in times)}")
    return host, pages, conns, room, token


# ---------------------------------------------------------------- tests
def test_host_and_two_guests_exchange_messages_in_order(new_player, broker):
    host, (g1, g2), (c1, c2), room, _ = setup_room(new_player, broker)
    assert c1 != c2
    n = 200
    for g, name in ((g1, "g1"), (g2, "g2")):
        assert g.evaluate("([name, n]) => { for (let i = 0; i < n; i++) window.__link.send(`${name}:${i}:` + 'x'.repeat(i)); return true; }", [name, n])
    host.evaluate("""([c1, c2, n]) => { for (let i = 0; i < n; i++) {
        window.__link.send(c1, 'to-g1:' + i); window.__link.send(c2, 'to-g2:' + i); } }""", [c1, c2, n])
    msgs = wait_events(host, "message", 2 + 2 * n)
    for conn, name in ((c1, "g1"), (c2, "g2")):
        got = [e[2] for e in msgs if e[1] == conn and not e[2].startswith("hello")]
        assert got == [f"{name}:{i}:" + "x" * i for i in range(n)]
    for g, name in ((g1, "g1"), (g2, "g2")):
        got = [e[2] for e in wait_events(g, "message", n)]
        assert got == [f"to-{name}:{i}" for i in range(n)]
        assert all(e[1] is None for e in events(g, "message"))
    assert host.evaluate("window.__link.send('c999', 'nobody')") is False
    # Nothing but what was asked for: one open, two connects, no close or error anywhere.
    assert [e[0] for e in events(host) if e[0] != "message"] == ["open", "connect", "connect"]
    assert events(host, "open")[0][1:3] == [None, room]
    for g in (g1, g2):
        assert [e[0] for e in events(g) if e[0] != "message"] == ["open"]


def test_a_guest_reload_reconnects(new_player, broker, site):
    host, (g1, g2), (c1, c2), room, _ = setup_room(new_player, broker)
    before = time.monotonic()
    goto_blank(g1, site, reload=True)
    closes = wait_events(host, "close", 1, timeout=5000)
    print(f"guest reload -> host close: {(time.monotonic() - before) * 1000:.0f} ms")
    assert [e[1] for e in closes] == [c1]
    join_ms = join_room(g1, broker, room)
    print(f"reloaded guest join -> open: {join_ms:.0f} ms")
    new_c1 = hello(host, g1, "g1", nth=2)
    assert new_c1 not in (c1, c2)
    kinds = [(e[0], e[1]) for e in events(host) if e[0] != "message"]
    assert kinds[-2:] == [("close", c1), ("connect", new_c1)]
    # The other guest never noticed.
    assert host.evaluate("([c, t]) => window.__link.send(c, t)", [c2, "still here"])
    assert [e[2] for e in wait_events(g2, "message")] == ["still here"]
    assert [e[0] for e in events(g2)] == ["open", "message"]


def test_the_host_reload_comes_back_under_the_same_room(new_player, broker, site):
    host, guests, conns, room, token = setup_room(new_player, broker)
    goto_blank(host, site, reload=True)
    for g in guests:
        wait_events(g, "close", 1, timeout=5000)
    started = time.monotonic()
    host_room(host, broker, room, token)
    for g in guests:
        wait_events(g, "open", 2, timeout=20000)  # the guests' retries find the host again
    print(f"host back -> both guests open again: {(time.monotonic() - started) * 1000:.0f} ms")
    wait_events(host, "connect", 2)
    for i, g in enumerate(guests):
        # (a slow host could also cost a "peer-unavailable" error in between: not a failure)
        assert [e[0] for e in events(g) if e[0] != "error"] == ["open", "close", "open"]
        assert {e[2] for e in events(g, "error")} <= {"peer-unavailable"}
        hello(host, g, f"again g{i + 1}")
    for c in {e[1] for e in events(host, "connect")}:
        assert host.evaluate("([c, t]) => window.__link.send(c, t)", [c, "welcome back"])
    for g in guests:
        assert [e[2] for e in wait_events(g, "message")] == ["welcome back"]


def test_an_oversized_message_is_dropped_with_its_connection(new_player, broker):
    host, (g1, g2), (c1, c2), _, _ = setup_room(new_player, broker)
    g1.evaluate("""() => { window.__link.send('before');
      window.__link.send('y'.repeat(70000)); window.__link.send('after'); }""")
    closes = wait_events(host, "close", 1, timeout=5000)
    assert [e[1] for e in closes] == [c1]
    wait_events(g1, "close", 1, timeout=5000)
    got = [e[2] for e in events(host, "message") if e[1] == c1]
    assert got == ["hello g1", "before"]  # neither the big one nor anything after it
    assert all(len(e[2]) <= 65536 for e in events(host, "message"))
    # The other guest is unaffected, both ways.
    assert g2.evaluate("window.__link.send('g2 fine')")
    wait_events(host, "message", 4)
    assert events(host, "message")[-1][1:3] == [c2, "g2 fine"]
    assert host.evaluate("([c, t]) => window.__link.send(c, t)", [c2, "ok"])
    assert [e[2] for e in wait_events(g2, "message")] == ["ok"]
    assert "close" not in [e[0] for e in events(g2)]
    # The dropped guest is a guest like any other: it retries and comes back as a new connection.
    wait_events(g1, "open", 2, timeout=10000)
    wait_events(host, "connect", 3)


def test_pagehide_destroys_the_peer(new_player, broker):
    host, (g1, g2), (c1, c2), _, _ = setup_room(new_player, broker)
    started = time.monotonic()
    g1.goto("about:blank")
    closes = wait_events(host, "close", 1, timeout=2000)
    print(f"guest navigates away -> host close: {(time.monotonic() - started) * 1000:.0f} ms")
    assert [e[1] for e in closes] == [c1]
    # close() by the guest is the same for the host; the guest hears nothing after close().
    g2.evaluate("window.__link.close()")
    closes = wait_events(host, "close", 2, timeout=2000)
    assert closes[-1][1] == c2
    time.sleep(1.0)  # past the first retry delay: a closed link never comes back
    assert [e[0] for e in events(g2)] == ["open"]
    assert len(events(host, "connect")) == 2


def test_the_host_outlives_its_broker(new_player, site):
    """PeerServer goes away: the host hears "lost", its guests keep talking, and it registers
    again by itself (reconnect with backoff) once the broker is back."""
    own = Broker()
    own.start()
    try:
        host, (g1,), (c1,), room, _ = setup_room(new_player, own, guests=1)
        own.stop()
        wait_events(host, "broker", 1, timeout=10000)
        assert events(host, "broker")[0][2] == "lost"
        assert g1.evaluate("window.__link.send('no broker needed')")
        wait_events(host, "message", 2)
        assert events(host, "message")[-1][1:3] == [c1, "no broker needed"]
        time.sleep(1.5)  # a few failed reconnects
        own.start()
        started = time.monotonic()
        wait_events(host, "broker", 2, timeout=35000)
        print(f"broker restarted -> host back: {(time.monotonic() - started) * 1000:.0f} ms")
        assert [e[2] for e in events(host, "broker")] == ["lost", "back"]
        assert [e[2] for e in events(host, "error")] == ["network"]  # once, not once per retry
        g2 = new_player()
        join_room(g2, own, room)
        hello(host, g2, "late")
    finally:
        own.stop()


def test_peerjs_loads_lazily_and_a_missing_script_says_so(new_player, site, recorder):
    page = new_player()
    assert page.evaluate("typeof window.peerjs") == "undefined"
    assert not [u for u in recorder.urls if "peerjs" in u]
    page.route("**/vendor/peerjs.min.js", lambda route: route.abort())
    err = page.evaluate("() => diceHallRooms.load().then(() => 'loaded', e => e.message)")
    assert "could not load" in err and "vendor/peerjs.min.js" in err
    page.evaluate(JOIN_JS, {"room": "dice-nobody", "broker": None, "iceServers": []})
    assert [e[:3] for e in wait_events(page, "error")] == [["error", None, "load-failed"]]
    page.unroute("**/vendor/peerjs.min.js")
    assert page.evaluate("() => diceHallRooms.load().then(() => typeof window.peerjs.Peer)") == "function"


def test_the_app_page_has_rooms_without_loading_peerjs(rtc_browser, site, recorder):
    """index.html defines diceHallRooms (and diceHallDirect) but runs no PeerJS (nor the QR
    library); the service worker precaches them (rooms work offline after a first visit) and
    load() brings PeerJS in."""
    ctx = rtc_browser.new_context(permissions=["microphone"])
    try:
        ctx.add_init_script("window.diceHallMakeSnapshot = false;")
        ctx.on("request", recorder.record)
        page = ctx.new_page()
        page.goto(site.index)
        wait_ready(page, timeout=120000)
        assert page.evaluate("typeof window.diceHallRooms.join") == "function"
        fetched = "() => performance.getEntriesByType('resource').filter(e => e.name.includes('peerjs')).length"
        assert page.evaluate("typeof window.peerjs") == "undefined"
        assert page.evaluate(fetched) == 0, "the page fetched PeerJS at boot"
        wait_sw_controlled(page)
        assert page.evaluate("async () => !!(await caches.match('./vendor/peerjs.min.js'))")
        assert page.evaluate("() => diceHallRooms.load().then(() => typeof window.peerjs.Peer)") == "function"
        assert page.evaluate(fetched) == 1
        # The same for direct links: defined at boot, their QR library precached, not fetched.
        assert page.evaluate("typeof window.diceHallDirect.host") == "function"
        assert page.evaluate("typeof window.qrcode") == "undefined"
        assert page.evaluate("() => performance.getEntriesByType('resource').filter(e => e.name.includes('qrcode')).length") == 0
        assert page.evaluate("async () => !!(await caches.match('./vendor/qrcode.js'))")
    finally:
        ctx.close()
    assert recorder.external == []
