#!/usr/bin/env python3
"""Online rooms on loopback: connection set-up and a move's round trip with 5 guests, in ONE run.

    python3 bench/rooms.py [--guests 5] [--moves 100] [--handovers 3] [--json OUT]

A PeerServer (npm `peer`, node_modules) on 127.0.0.1 and headless Chromium with
`--allow-loopback-in-peer-connection` and the microphone permission, one browser context per
phone, each on a page of the built site with web/rooms.js (the app's transport; PeerJS data
channels, `iceServers: []`). Measured:
  register   the host's `host()` -> "open" (registered with the broker), ms;
  join       each guest's `join()` -> "open" (data channel open), ms;
  ping       one guest -> host -> the same guest, a small message (the channel's round trip);
  move       one guest sends an intent-sized message, the host sends a move-sized message to all
             guests (what a room does for every move), until the last guest has it.
  handover  the app itself (PyScript, web/dicehall) on 1 + guests pages, a table of two computer
             seats (Penta, pace "slow": 1.2 s a step) opened as a room, every guest let in and
             watching: the host's page is closed (no goodbye but PeerJS's on pagehide); seconds
             until the first guest's screen shows the next move (`resume_s`: the heir hosts and
             its computer moved: 12 s of silence, the heir's registration, up to one step of
             pace) and until every guest's does (`all_s`: the others found the heir and checked
             its claim). The closed page is opened again before the next round (it comes back
             as a guest of the heir), so each round has `guests` guests. Median of the rounds.
             Measured 2026-12-05 (5 guests, 3 rounds, a loaded 2-vCPU VM): play resumed after
             14.1, 14.6, 16.7 s (median 14.6), on every guest after 17.5, 17.0, 17.0 s (17.0).
Printed: medians and 90th percentiles, and ratio = median move / median ping (what broadcasting to
every guest adds to one round trip). This is the transport alone: the Python room on the host
adds its own time (tests/web/test_room_sessions.py checks what it does, bench/tap_cost.py what a
redraw costs). Absolute times are noisy on a shared 2-vCPU VM. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build as dicehall_build  # noqa: E402
from bench.browser_site import emit, serve  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--allow-loopback-in-peer-connection"]
PAGE = "third-party-notices.txt"  # any page of the built site: rooms.js is added to it
# The host echoes: "ping:<n>" back to its sender, "intent:<n>" as "move:<n>:<padding>" to everyone.
HOST_JS = """opts => new Promise((resolve, reject) => {
  const conns = new Set(); const t0 = performance.now(); const pad = 'x'.repeat(240);
  window.__link = diceHallRooms.host(JSON.stringify(opts), (kind, conn, data) => {
    if (kind === 'open') resolve(performance.now() - t0);
    else if (kind === 'error') reject(new Error(data));
    else if (kind === 'connect') conns.add(conn);
    else if (kind === 'close') conns.delete(conn);
    else if (kind === 'message' && data.startsWith('ping:')) window.__link.send(conn, data);
    else if (kind === 'message' && data.startsWith('intent:'))
      for (const c of conns) window.__link.send(c, 'move:' + data.slice(7) + ':' + pad);
  });
})"""
JOIN_JS = """opts => new Promise((resolve, reject) => {
  const t0 = performance.now(); window.__got = new Map(); window.__waiters = new Map();
  window.__link = diceHallRooms.join(JSON.stringify(opts), (kind, conn, data) => {
    if (kind === 'open') resolve(performance.now() - t0);
    else if (kind === 'message') {
      const key = data.split(':').slice(0, 2).join(':');
      window.__got.set(key, performance.now());
      const w = window.__waiters.get(key); if (w) { window.__waiters.delete(key); w(); }
    }
  });
  setTimeout(() => reject(new Error('no open within 20 s')), 20000);
})"""
# Wall-clock in every page: performance.timeOrigin + now() (same machine, same clock).
SEND_JS = """([text, key]) => new Promise(resolve => {
  const t0 = performance.timeOrigin + performance.now();
  const done = () => resolve([t0, performance.timeOrigin + window.__got.get(key)]);
  if (window.__got.has(key)) return done();
  window.__waiters.set(key, done);
  window.__link.send(text);
})"""
WAIT_JS = """key => new Promise(resolve => {
  const done = () => resolve(performance.timeOrigin + window.__got.get(key));
  if (window.__got.has(key)) return done();
  window.__waiters.set(key, done);
})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(port: int) -> subprocess.Popen:
    peer = ROOT / "node_modules" / "peer"
    bin_path = peer / json.loads((peer / "package.json").read_text(encoding="utf-8"))["bin"]["peerjs"]
    proc = subprocess.Popen([shutil.which("node"), str(bin_path), "--port", str(port), "--host", "127.0.0.1"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("bench/rooms.py: the PeerServer did not start (npm ci?)")


INDEX_JS = "() => Number(document.querySelector('[data-testid=play]')?.dataset.index ?? -1)"


def app_page(browser, url: str, settings: dict, table: str | None = None, hash_: str = ""):
    """A phone: its own context (storage), the app booted with these settings (and saved table)."""
    ctx = browser.new_context(permissions=["microphone"], viewport={"width": 360, "height": 740})
    page = ctx.new_page()
    page.goto(url + "sw-register.js")  # same origin, no app boot: storage first
    page.evaluate("s => localStorage.setItem('dicehall.settings', s)", json.dumps(settings))
    if table is not None:
        page.evaluate("s => localStorage.setItem('dicehall.table', s)", table)
    page.goto(url + hash_)
    page.wait_for_function("() => document.documentElement.getAttribute('data-app-state') === 'ready'",
                           timeout=180000)
    return page


def handovers(browser, url: str, port: int, guests: int, rounds: int) -> list[dict]:
    """The hand-over rounds (see the module's text): seconds from the host's page closed to the
    next move on the first guest's screen and on every guest's."""
    from pygame_core.table import Table

    settings = {"animations": False, "autofill": False, "lang": "en", "pace": "slow", "room_ice": "none",
                "room_server": f"http://127.0.0.1:{port}/"}
    table = Table("penta", [{"name": "Robot A", "symbol": "●", "ai": "greedy"},
                            {"name": "Robot B", "symbol": "▲", "ai": "greedy"}])
    table.new_game(random.Random(3))
    host = app_page(browser, url, settings, table.dumps(), "#/play")
    host.click('[data-testid="room-open"]')
    host.wait_for_selector('[data-testid="room-link"]', timeout=60000)
    link = host.input_value('[data-testid="room-link"]')
    pages = []
    for k in range(guests):
        page = app_page(browser, url, settings, hash_=link[len(url):])
        page.fill('[data-testid="room-name"]', f"G{k}")
        page.click('[data-testid="room-join"]')
        host.wait_for_selector('[data-testid="room-approve"]', timeout=60000)
        host.click('[data-testid="room-approve"]')
        page.wait_for_selector('[data-testid="play"]', timeout=60000)
        pages.append(page)
    out = []
    for _ in range(rounds):
        time.sleep(4)  # every guest heard the host lately (heartbeats every 2 s)
        index = max(p.evaluate(INDEX_JS) for p in pages)
        ctx = host.context
        lost = time.monotonic()
        host.close()
        seen: dict[int, float] = {}
        while len(seen) < len(pages) and time.monotonic() - lost < 90:
            for k, p in enumerate(pages):
                if k not in seen and p.evaluate(INDEX_JS) > index:
                    seen[k] = time.monotonic() - lost
            time.sleep(0.1)
        if len(seen) < len(pages):
            raise SystemExit(f"bench/rooms.py: only {len(seen)} of {len(pages)} guests saw play go on")
        heir = next(p for p in pages if p.evaluate("localStorage.getItem('dicehall.room')"))
        out.append({"resume_s": round(min(seen.values()), 2), "all_s": round(max(seen.values()), 2)})
        print(f"hand-over: play resumed after {out[-1]['resume_s']} s, on every guest after {out[-1]['all_s']} s")
        back = ctx.new_page()  # the old host's phone opens the app again: a guest of the heir
        back.goto(url + "#/play")
        back.wait_for_function("() => location.hash.startsWith('#/join/') && !!document.querySelector('[data-testid=play]')",
                               timeout=120000)
        pages = [p for p in pages if p is not heir] + [back]
        host = heir
    return out


def stats(values: list[float]) -> dict:
    values = sorted(values)
    return {"median": round(statistics.median(values), 2), "p90": round(values[int(0.9 * (len(values) - 1))], 2),
            "max": round(values[-1], 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--guests", type=int, default=5)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--handovers", type=int, default=3, help="hand-over rounds (0: none)")
    ap.add_argument("--json")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    broker = start_broker(port)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            dist = Path(tmp) / "dist"
            dicehall_build.build(dist)
            url, server = serve(dist)
            options = {"room": "dice-" + secrets.token_hex(8), "token": secrets.token_hex(16),
                       "broker": {"host": "127.0.0.1", "port": port, "path": "/", "secure": False, "key": "peerjs"},
                       "iceServers": []}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                pages = []
                for _ in range(args.guests + 1):
                    ctx = browser.new_context(permissions=["microphone"])
                    page = ctx.new_page()
                    page.goto(url + PAGE)
                    page.add_script_tag(url=url + "transport-events.js")  # (rooms.js reports through it)
                    page.add_script_tag(url=url + "rooms.js")
                    page.wait_for_function("() => !!window.diceHallRooms")
                    pages.append(page)
                host, guests = pages[0], pages[1:]
                register = host.evaluate(HOST_JS, options)
                guest_options = {k: v for k, v in options.items() if k != "token"}
                joins = [g.evaluate(JOIN_JS, guest_options) for g in guests]
                time.sleep(0.5)  # every connection settled on the host
                pings, moves = [], []
                for n in range(args.moves):
                    sender = guests[n % len(guests)]
                    t0, t1 = sender.evaluate(SEND_JS, [f"ping:{n}", f"ping:{n}"])
                    pings.append(t1 - t0)
                    t0, _ = sender.evaluate(SEND_JS, [f"intent:{n}", f"move:{n}"])
                    last = max(g.evaluate(WAIT_JS, f"move:{n}") for g in guests)
                    moves.append(last - t0)
                for page in pages:
                    page.context.close()
                rounds = handovers(browser, url, port, args.guests, args.handovers) if args.handovers else []
                browser.close()
            server.shutdown()
    finally:
        broker.kill()
        broker.wait(10)
    result = {"guests": args.guests, "register_ms": round(register, 1), "join_ms": stats(joins),
              "ping_ms": stats(pings), "move_ms": stats(moves),
              "ratio": round(statistics.median(moves) / statistics.median(pings), 2)}
    if rounds:
        result["handover_s"] = {"rounds": rounds, "resume_median": statistics.median(r["resume_s"] for r in rounds),
                                "all_median": statistics.median(r["all_s"] for r in rounds)}
    print(f"register {result['register_ms']} ms; join median {result['join_ms']['median']} ms (max "
          f"{result['join_ms']['max']}); ping median {result['ping_ms']['median']} ms; move to all "
          f"{args.guests} median {result['move_ms']['median']} ms (p90 {result['move_ms']['p90']}); "
          f"ratio {result['ratio']}")
    if rounds:
        print(f"hand-over with {args.guests} guests, {len(rounds)} rounds: play resumed after a median "
              f"{result['handover_s']['resume_median']} s, on every guest after {result['handover_s']['all_median']} s")
    emit(result, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
