"""web/rooms.js under Node with a fake PeerJS: what the host's transport tells Python when PeerJS
tells it something more than once. (The transport over real WebRTC: tests/browser/test_room_transport.py.)"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HOST_CHECK = """
const listeners = {};
globalThis.window = globalThis;
window.addEventListener = (type, fn) => { listeners[type] = fn; };
window.removeEventListener = () => {};
globalThis.document = { currentScript: null, baseURI: "http://app/", hidden: false };
class Emitter {
  constructor() { this.handlers = {}; }
  on(type, fn) { (this.handlers[type] ||= []).push(fn); return this; }
  fire(type, ...args) { for (const fn of this.handlers[type] || []) fn(...args); }
}
const peers = [];
class Peer extends Emitter {
  constructor(id, options) { super(); this.id = id; this.options = options; peers.push(this); }
  destroy() { this.destroyed = true; this.fire("close"); }
}
class Conn extends Emitter {
  send(text) { (this.sent ||= []).push(text); }
  close() { if (!this.closed) { this.closed = true; this.fire("close"); } }
}
window.peerjs = { Peer };
await import(%(events)s);
await import(%(rooms)s);
const heard = [];
const link = window.diceHallRooms.host(JSON.stringify({ room: "dh-room", token: "t" }), (kind, id, data) => heard.push([kind, id, data]));
await new Promise((resolve) => setTimeout(resolve, 0));
const peer = peers[0];
peer.fire("open", "dh-room");
const conn = new Conn();
peer.fire("connection", conn);
conn.fire("open");
conn.fire("open");  // PeerJS told one connection's "open" twice, once, in a CI run
conn.fire("data", "hello");
const sent = link.send("c1", "welcome");
conn.close();
conn.fire("close");
link.close();
console.log(JSON.stringify({ heard, sent, got: conn.sent || [] }));
"""


def test_a_connection_that_peerjs_says_is_open_twice_is_one_connect_for_python(tmp_path: Path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    check = tmp_path / "check.mjs"
    check.write_text(HOST_CHECK % {"events": json.dumps((ROOT / "web" / "transport-events.js").as_uri()),
                                   "rooms": json.dumps((ROOT / "web" / "rooms.js").as_uri())}, encoding="utf-8")
    done = subprocess.run([node, str(check)], capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["heard"] == [["open", None, "dh-room"], ["connect", "c1", None], ["message", "c1", "hello"],
                               ["close", "c1", None]], result
    assert result["sent"] is True and result["got"] == ["welcome"], result
