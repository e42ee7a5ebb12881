"""Direct links without any server (web/direct.js): an invitation code, an answer code, and a
real WebRTC data channel between two pages, with no broker running at all.

Pages are a plain file of the built site with dist/direct.js added (no Pyodide), as in
test_room_transport.py; the same loopback set-up (see there and /work/shared/notes/p2p-rooms.md).
"""

from __future__ import annotations

import json

import pytest

from dicehall_browser import show_to_camera

pytestmark = pytest.mark.browser

BLANK = "third-party-notices.txt"
READY = "() => !!(window.diceHallDirect && window.diceHallDirect.host)"
START_JS = """([how, opts]) => {
  window.__ev = [];
  window.__link = diceHallDirect[how](JSON.stringify(opts), (k, c, d) => window.__ev.push([k, c, d]));
}"""
COUNT_JS = "([kind, n]) => window.__ev.filter(e => e[0] === kind).length >= n"


@pytest.fixture
def new_page(rtc_browser, site):
    contexts = []

    def factory():
        ctx = rtc_browser.new_context(permissions=["microphone"])
        contexts.append(ctx)
        page = ctx.new_page()
        outside = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(site.url) else None)
        page.outside = outside
        page.goto(site.url + BLANK)
        page.add_script_tag(url=site.url + "transport-events.js")
        page.add_script_tag(url=site.url + "direct.js")
        page.wait_for_function(READY, timeout=10000)
        return page

    yield factory
    for ctx in contexts:
        ctx.close()


def events(page, kind: str | None = None) -> list[list]:
    return [e for e in page.evaluate("window.__ev") if kind is None or e[0] == kind]


def wait_events(page, kind: str, count: int = 1, timeout: float = 15000) -> list[list]:
    try:
        page.wait_for_function(COUNT_JS, arg=[kind, count], timeout=timeout, polling=20)
    except Exception as exc:  # playwright TimeoutError: show what did happen
        pytest.fail(f"no {count} {kind!r} event(s) within {timeout} ms: {exc}\nevents: {events(page)}")
    return events(page, kind)


def invite(host, invite_id: str) -> dict:
    host.evaluate("id => window.__link.invite(id)", invite_id)
    made = [e for e in wait_events(host, "invite") if e[1] == invite_id][-1]
    return json.loads(made[2])


def test_an_invitation_and_its_answer_open_a_channel_with_no_server(new_page):
    host, guest = new_page(), new_page()
    host.evaluate(START_JS, ["host", {"room": "dice-direct-test", "iceServers": []}])
    assert wait_events(host, "open")[0][1:] == [None, "dice-direct-test"]
    offer = invite(host, "k7q2")
    code = offer["code"]
    # Compact: a short link segment and a small QR code (version ≤ 10 is ≤ 57 modules).
    assert code.startswith("o1~k7q2~") and len(code) < 300 and "/" not in code, code
    assert offer["qr"] and 21 <= offer["qr"]["size"] <= 57 and offer["qr"]["d"].startswith("M")
    # The rebuilt description keeps what the code came from: decode → describe → encode is stable.
    again = host.evaluate("c => diceHallDirect.encode('o', 'k7q2', diceHallDirect.describe(diceHallDirect.decode(c, 'o'), 'offer').sdp)", code)
    assert again == code

    guest.evaluate(START_JS, ["join", {"room": "dice-direct-test", "offer": code, "iceServers": []}])
    answer = json.loads(wait_events(guest, "answer")[0][2])
    assert answer["code"].startswith("a1~k7q2~") and len(answer["code"]) < 300 and answer["qr"]

    # A wrong answer (garbage, another invitation's, an offer) is refused and the invitation stays.
    for bad in ("nonsense", answer["code"].replace("a1~k7q2~", "a1~zzzz~"), code):
        host.evaluate("c => window.__link.accept('k7q2', c)", bad)
    assert len(wait_events(host, "error", 3)) == 3
    assert {tuple(e[1:]) for e in events(host, "error")} == {("k7q2", "bad-answer")}

    host.evaluate("c => window.__link.accept('k7q2', c)", answer["code"])
    assert wait_events(host, "connect")[0][1] == "k7q2"
    wait_events(guest, "open")
    assert guest.evaluate("window.__link.send('hello from the guest')")
    assert host.evaluate("window.__link.send('k7q2', 'hello from the host')")
    assert [e[1:] for e in wait_events(host, "message")] == [["k7q2", "hello from the guest"]]
    assert [e[2] for e in wait_events(guest, "message")] == ["hello from the host"]
    big = "x" * 70000  # over the 64 KiB cap: the link ends, as with the broker's transport
    guest.evaluate("t => window.__link.send(t)", big)
    assert wait_events(host, "close")[0][1] == "k7q2"
    wait_events(guest, "close")
    assert host.outside == [] and guest.outside == []


def test_a_bad_invitation_says_so(new_page):
    guest = new_page()
    guest.evaluate(START_JS, ["join", {"room": "dice-direct-test", "offer": "o1~k7q2~not-a-code", "iceServers": []}])
    assert wait_events(guest, "error")[0][1:] == [None, "bad-offer"]
    assert guest.evaluate("window.__link.send('x')") is False


SCAN_JS = """() => {
  window.__scan = [];
  const video = document.createElement('video');
  video.id = 'camera';
  document.body.appendChild(video);
  window.__scanner = diceHallDirect.scan(JSON.stringify({video: '#camera'}), (k, c, d) => window.__scan.push([k, d]));
}"""


def test_the_host_reads_the_guests_answer_with_the_camera_and_connects(new_page, rtc_browser, site):
    host, guest = new_page(), new_page()
    host.context.grant_permissions(["camera"], origin=site.url.rstrip("/"))
    host.evaluate(START_JS, ["host", {"room": "dice-direct-scan", "iceServers": []}])
    offer = invite(host, "s3c4")
    guest.evaluate(START_JS, ["join", {"room": "dice-direct-scan", "offer": offer["code"], "iceServers": []}])
    answer = json.loads(wait_events(guest, "answer")[0][2])
    show_to_camera(answer["qr"])  # the guest's phone held up to the host's camera
    assert host.evaluate("diceHallDirect.canScan()") is True
    host.evaluate(SCAN_JS)
    host.wait_for_function("() => window.__scan.length > 0", timeout=20000)
    assert host.evaluate("window.__scan") == [["scanned", answer["code"]]]
    assert not any(url.endswith("vendor/jsqr.js") for url in host.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name)"))  # the worker loads it, not the page
    host.evaluate("window.__scanner.stop()")
    assert host.evaluate("document.getElementById('camera').srcObject") is None  # the camera is off
    host.evaluate("code => window.__link.accept('s3c4', code)", host.evaluate("window.__scan[0][1]"))
    wait_events(host, "connect")
    wait_events(guest, "open")
    assert host.outside == [] and guest.outside == []


def test_a_camera_the_page_may_not_use_is_said_and_nothing_is_read(new_page):
    host = new_page()  # its context has no "camera" permission (and nobody to ask)
    host.evaluate(SCAN_JS)
    host.wait_for_function("() => window.__scan.length > 0", timeout=20000)
    assert host.evaluate("window.__scan") == [["error", "denied"]]
