"""An online room in the app: the protocol of `pygame_core.rooms` joined to a transport, a clock
and local storage. No browser import here: the transport is passed in (the browser's is
`jsrooms.PeerTransport`, over `window.diceHallRooms`; tests use `MemoryTransport`).

A transport has two calls, each returning a link and reporting through `on_event(kind, conn,
data)` with strings:
- `host(options, on_event)` → link with `send(conn, text)`, `drop(conn)`, `close()`; events
  "open" (registered under the room id), "connect"/"message"/"close" per guest connection,
  "error" (a code), "broker" ("lost"/"back": the signalling server; connections keep working).
- `join(options, on_event)` → link with `send(text)`, `close()`; events "open" (again after every
  reconnection: the guest says hello again), "message", "close", "error".

A direct transport (no broker: `jsrooms.DirectTransport`, over web/direct.js) has the same two
calls; its host link also has `invite(invite_id)` (→ event "invite" with `{"code", "qr"}` as JSON:
the invitation to show as a link and a QR code) and `accept(invite_id, answer_code)`; its guest
link reports "answer" (the code to show the host) before "open". A direct link never comes back
by itself: the host invites again, and an admitted guest's secret still finds their seat.

The host's session saves the room (with its dice seed and broker token, so only on this phone)
after every change; the guest's keeps its guest id and seat secret, so a reload comes back to the
same seat without asking again.
"""

from __future__ import annotations

import json
import re
import secrets

from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import RoomDice, RoomHost
from pygame_core.rooms.messages import MAX_NAME, encode
from pygame_core.rooms.succession import HostWatch
from pygame_core.schema import Choice, Field, Fields, Invalid, Maybe, Text

from .roomheir import Handover

PING_SECONDS = 2.0  # a guest's heartbeat; the host shows it away after 6 s without any message
# A guest page takes its lost host's table over (roomheir.py) where this is on: on in the app,
# since the host's phone, back, looks for its heir before it hosts its room again
# (roomback.come_back, from the room desk's boot and after a frozen tab): one table, never two.
# Not in a direct room (no meeting server: nobody could find an heir's room).
TAKE_OVER = True
DEFAULT_ICE = [{"urls": "stun:stun.l.google.com:19302"}]  # STUN only: never a TURN relay silently


def network(server: str, ice: str) -> dict:
    """The settings' meeting server and ICE servers as the transport's options: `server` is
    empty (PeerJS's public broker) or a PeerServer address like `https://peer.example.org:9000/`;
    `ice` is empty (public STUN), "none", or space-separated `stun:host:port` /
    `turn:user:password@host:port` URLs (`turns:` too). ValueError with what is wrong."""
    broker = None
    server = server.strip()
    if server:
        scheme, sep, rest = server.partition("://")
        if scheme not in ("http", "https") or not sep or not rest:
            raise ValueError("the meeting server must start with http:// or https://")
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.rpartition(":") if ":" in hostport else (hostport, "", "")
        if not host or any(c in host for c in "@ ") or (port and not port.isdigit()):
            raise ValueError("the meeting server's address is not readable")
        broker = {"host": host, "port": int(port) if port else (443 if scheme == "https" else 80),
                  "path": "/" + path, "secure": scheme == "https", "key": "peerjs"}
    if ice.strip() == "none":  # no STUN at all: phones on the same network only (and tests)
        return {"broker": broker, "ice": []}
    servers = []
    for url in ice.split():
        kind, _, rest = url.partition(":")
        if kind in ("stun", "stuns") and rest:
            servers.append({"urls": url})
        elif kind in ("turn", "turns") and "@" in rest:
            userpass, _, where = rest.rpartition("@")
            user, _, password = userpass.partition(":")
            if not (user and password and where):
                raise ValueError("a TURN server needs turn:user:password@host:port")
            servers.append({"urls": f"{kind}:{where}", "username": user, "credential": password})
        else:
            raise ValueError(f"not a STUN or TURN server: {url[:40]}")
    return {"broker": broker, "ice": servers or None}


ROOM_SETTINGS = ("room_server", "room_ice")


def check_setting(key: str, value) -> str:
    """A Settings value for the rooms' network (`room_server` or `room_ice`), trimmed; ValueError
    when `network` cannot read it."""
    if key not in ROOM_SETTINGS or not isinstance(value, str) or len(value) > 500:
        raise ValueError(f"not a room setting: {key}")
    value = value.strip()
    network(value if key == "room_server" else "", value if key == "room_ice" else "")
    return value


# The codes of web/direct.js, checked before they reach the transport or a link (see its header).
_CANDIDATES = r"[hsr][0-9A-Za-z.:-]{1,80},[0-9]{1,5}(?:;[hsr][0-9A-Za-z.:-]{1,80},[0-9]{1,5}){0,7}"
_CODE = r"1~(?P<invite>[a-z0-9]{4,16})~[A-Za-z0-9_-]{4,64}~[A-Za-z0-9_-]{22,256}~[A-Za-z0-9_-]{43}~" + _CANDIDATES
INVITATION_RE = re.compile("o" + _CODE)
ANSWER_RE = re.compile("a" + _CODE)
MAX_CODE = 1000


def read_answer(text: str) -> str | None:
    """The answer code in what the host pasted (the code alone, or among other words); None when
    there is none."""
    for word in str(text)[:MAX_CODE * 2].split():
        if len(word) <= MAX_CODE and ANSWER_RE.fullmatch(word):
            return word
    return None


def valid_invitation(code: str) -> bool:
    return isinstance(code, str) and len(code) <= MAX_CODE and INVITATION_RE.fullmatch(code) is not None


def new_invite_id() -> str:
    return secrets.token_hex(4)


class HostConn:
    """One guest connection as `RoomHost` sees it (hashable by identity)."""

    def __init__(self, link, conn_id: str) -> None:
        self.link, self.conn_id = link, conn_id

    def send(self, text: str) -> None:
        self.link.send(self.conn_id, text)

    def close(self) -> None:
        self.link.drop(self.conn_id)


def transport_options(room: str, broker: dict | None, ice: list | None, token: str | None = None) -> dict:
    options = {"room": room, "broker": broker, "iceServers": list(DEFAULT_ICE if ice is None else ice)}
    if token is not None:
        options["token"] = token
    return options


class HostSession:
    """This phone hosts `room`: connections in, the room's messages out, its timeouts ticking,
    and the room saved with `store(text)` after each change. `changed(reason)` tells the app
    (redraw the room panel)."""

    def __init__(self, room: RoomHost, transport, clock, store, changed=None, broker: dict | None = None,
                 ice: list | None = None, direct: bool = False) -> None:
        self.room = room
        self.direct = direct  # over direct links (invitations), not a broker
        # The open invitation of a direct room: {"id", "state": making|ready|connecting|failed,
        # "code", "qr", "error"}; None when there is none.
        self.invitation: dict | None = None
        self.transport = transport
        self.clock = clock
        self.store = store
        self.changed = changed or (lambda reason: None)
        self.broker, self.ice = broker, ice
        self.status = "connecting"  # → open; "broker-lost" while the signalling server is away
        self.error: str | None = None  # the transport's last error code
        self.conns: dict[str, HostConn] = {}
        self.link = None
        room.on_change = self._room_changed

    def start(self) -> None:
        options = transport_options(self.room.room_id, self.broker, self.ice, token=self.room.token)
        self.link = self.transport.host(options, self.on_event)
        self.save()

    def on_event(self, kind: str, conn_id: str | None, data: str | None) -> None:
        now = self.clock()
        if kind == "open":
            self.status, self.error = "open", None
        elif kind == "connect":
            if self.invitation is not None and self.invitation["id"] == conn_id:
                self.invitation = None  # answered: the guest now asks in like any other
            conn = HostConn(self.link, str(conn_id))
            self.conns[conn.conn_id] = conn
            self.room.connected(conn)
        elif kind == "message":
            conn = self.conns.get(str(conn_id))
            if conn is not None:
                self.room.received(conn, data, now)
        elif kind == "close":
            conn = self.conns.pop(str(conn_id), None)
            if conn is not None:
                self.room.closed(conn, now)
        elif kind == "invite":
            inv = self.invitation
            if inv is None or inv["id"] != conn_id:
                return
            try:
                made = json.loads(str(data))
                code, qr = made["code"], made.get("qr")
            except (ValueError, TypeError, KeyError):
                code, qr = None, None
            if not valid_invitation(code):
                inv.update(state="failed", error="invite-failed")
            else:
                inv.update(state="ready", code=code, qr=qr if valid_qr(qr) else None)
        elif kind == "error":
            inv = self.invitation
            if inv is not None and conn_id == inv["id"]:
                # Said on the invitation itself (the room is fine): a wrong answer can be mended.
                inv.update(state="ready" if data == "bad-answer" and inv["code"] else "failed", error=str(data))
                kind = "invitation"
            elif conn_id is not None:
                return  # one guest's link failed: its close follows, the room is fine
            else:
                self.error = str(data)
        elif kind == "broker":
            if self.status != "connecting":  # never registered yet: no link to share so far
                self.status = "broker-lost" if data == "lost" else "open"
        self.changed(kind)

    def tick(self) -> None:
        self.room.tick(self.clock())

    def invite(self) -> None:
        """A direct room: make a new invitation (the previous one, unanswered, is given up)."""
        if not self.direct or self.link is None:
            return
        if self.invitation is not None:
            self.link.drop(self.invitation["id"])
        self.invitation = {"id": new_invite_id(), "state": "making", "code": None, "qr": None, "error": None}
        self.link.invite(self.invitation["id"])

    def accept(self, text: str) -> bool:
        """The guest's answer to the open invitation, as the host pasted it; False (and the
        invitation's error says why) when there is no answer code in it."""
        inv = self.invitation
        if inv is None or self.link is None or inv["state"] not in ("ready", "connecting"):
            return False
        code = read_answer(text)
        if code is None or ANSWER_RE.fullmatch(code)["invite"] != inv["id"]:
            inv["error"] = "bad-answer"
            return False
        inv.update(state="connecting", error=None)
        self.link.accept(inv["id"], code)
        return True

    def save(self) -> bool:
        data = self.room.to_json()
        if self.direct:
            data["direct"] = True  # the session's, not the room protocol's: how guests reach it
        return bool(self.store(json.dumps(data, ensure_ascii=False, separators=(",", ":"))))

    def close(self) -> None:
        """The host closes the room: every guest's link goes; the table stays this phone's."""
        if self.link is not None:
            self.link.close()
            self.link = None
        self.conns.clear()
        self.invitation = None
        self.status = "closed"

    def _room_changed(self, reason: str) -> None:
        self.save()
        self.changed(reason)

    def share_path(self) -> str:
        """The part of the link after the page's address: `#/join/<room id>` (never the token),
        with the invitation after it in a direct room."""
        if self.direct:
            inv = self.invitation
            return f"#/join/{self.room.room_id}/{inv['code']}" if inv and inv["code"] else ""
        return f"#/join/{self.room.room_id}"


def valid_qr(qr) -> bool:
    """A QR code as web/direct.js draws it: its size in modules and an SVG path of only
    `M<c> <r>h1v1h-1z` steps (it is put into the page as an attribute)."""
    return isinstance(qr, dict) and isinstance(qr.get("size"), int) and 21 <= qr["size"] <= 177 \
        and isinstance(qr.get("d"), str) and len(qr["d"]) < 400_000 and re.fullmatch(r"(M\d+ \d+h1v1h-1z)+", qr["d"]) is not None


def host_table(play, room: RoomHost) -> None:
    """Make the play controller `play` the door of `room`: guests' moves enter through it, its
    dice come from the room's fair dice, and the room hears of every move made on this screen."""
    room.door = play
    play.roller = RoomDice(room)
    if room not in play.observers:
        play.observers.append(room)
    play.seats_changed(room.remote_seats())


class GuestSession:
    """This phone is a guest in someone's room: `guest` mirrors it (its door is the play
    controller), this session sends its hello on every (re)connection, answers what the host
    asks for, beats a heartbeat, and is the controller's `outbox` for moves."""

    def __init__(self, guest: RoomGuest, room_id: str, transport, clock, store, changed=None,
                 broker: dict | None = None, ice: list | None = None, invitation: str | None = None) -> None:
        self.guest = guest
        self.room_id = room_id
        self.invitation = invitation  # a direct room's invitation code (no broker)
        self.answer: dict | None = None  # then: {"code", "qr"}, to show the host
        self.transport = transport
        self.clock = clock
        self.store = store
        self.changed = changed or (lambda reason: None)
        self.broker, self.ice = broker, ice
        self.connected = False
        self.error: str | None = None
        self.link = None
        self.last_ping = -1e9
        # This page's name in its hellos: the host tells two pages (tabs) of one guest apart,
        # and lets this one back in over its own old link without a word.
        self.tab = secrets.token_urlsafe(12)
        self.take = False  # the next hello takes the guest's place over from another page
        # The host lost (roomheir.py): `watch` hears the host; `handover` runs once it is lost;
        # `reader` reads the host's messages (the guest, or the heir's checker meanwhile);
        # `hosting` is this phone's HostSession when it took the table over (saved by `host_store`).
        self.watch: HostWatch | None = None
        self.handover = None
        self.reader = guest
        self.hosting: HostSession | None = None
        self.host_store = None
        self.on_take_over = None  # the app's: `(room)` hosts the heir's room (else `hosting`)

    def start(self) -> None:
        options = transport_options(self.room_id, self.broker, self.ice)
        if self.invitation is not None:
            options["offer"] = self.invitation
        self.link = self.transport.join(options, self.on_event)

    def on_event(self, kind: str, conn_id: str | None, data: str | None) -> None:
        if kind == "open":
            self.connected, self.error = True, None
            self.send(self.reader.hello(self.tab, self.take))
        elif kind == "message":
            if self.handover is None and self.guest.status == "in":
                self.watch = self.watch or HostWatch(self.clock())
                self.watch.heard(self.clock())
            before = (self.guest.status, self.guest.guest_id, self.guest.secret)
            for out in self.reader.received(data):
                self.send(out)
            if self.guest.elsewhere is not None or self.guest.status == "refused":
                # The host closed this link for good. Another page of this guest's plays: no
                # retrying, which would knock that page off in turn (the player may choose "Play
                # here"); refused: asked again only by the player (the join screen), never by a
                # retry every second.
                self.close()
            elif self.guest.status == "in":
                self.take = False  # in: a reconnection of this page is known by its tab
            if (self.guest.status, self.guest.guest_id, self.guest.secret) != before:
                self.save()
        elif kind == "answer":
            try:
                made = json.loads(str(data))
                code, qr = made["code"], made.get("qr")
            except (ValueError, TypeError, KeyError):
                code, qr = None, None
            if isinstance(code, str) and ANSWER_RE.fullmatch(code):
                self.answer = {"code": code, "qr": qr if valid_qr(qr) else None}
            else:
                self.error = "failed"
        elif kind == "close":
            self.connected = False
        elif kind == "error":
            self.error = str(data)
        self.changed(kind)

    def send(self, text: str) -> None:
        if self.link is not None and self.connected:
            self.link.send(text)

    def tick(self) -> None:
        now = self.clock()
        if self.connected and now - self.last_ping >= PING_SECONDS:
            self.last_ping = now
            self.send(encode("ping", t=round(now, 3)))
        # (A room still choosing its game is not taken over: no record to carry on; its guests wait
        # for the host, roomlobby.py.)
        if TAKE_OVER and self.handover is None and self.watch is not None and self.link is not None \
                and self.invitation is None and self.guest.table is not None and self.guest.table.match is not None \
                and self.watch.lost(now):
            self.handover = Handover(self, self.watch.lost_at)
        if self.handover is not None:
            self.handover.tick(now)

    def save(self) -> bool:
        g = self.guest
        return bool(self.store(json.dumps({"format": "dicehall-guest", "version": 1, "room": self.room_id,
                                           "name": g.name, "guest": g.guest_id, "secret": g.secret})))

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
        self.connected = False

    def play_here(self) -> None:
        """Take this guest's place over from the other page that plays it ("Play here"): that
        page is told its place moved here and stops."""
        if self.link is not None or self.guest.elsewhere is None:
            return
        self.guest.elsewhere, self.error, self.take = None, None, True
        self.start()

    # --- the play controller's outbox ------------------------------------------------------
    def intent(self, seat: int, move: str, index: int) -> None:
        self.send(self.guest.intent(move, index))

    def take_back(self, seat: int, at: int, index: int) -> None:
        self.send(self.guest.take_back(at, index))

    def ask_seat(self, seat: int) -> None:
        self.send(self.guest.ask_seat(seat))

    def sit_in(self) -> None:
        self.send(self.guest.sit_in())

    def answer_request(self, request: str, accept: bool) -> None:
        """Keep or give this guest's seat that another guest asks for (not `answer`: that is
        the direct link's answer code)."""
        self.send(self.guest.answer(request, accept))

    def say(self, text: str) -> None:
        self.send(self.guest.say(text))


def _token(text: str) -> bool:
    return text.replace("-", "").replace("_", "").isalnum()


# A guest's saved room (GuestSession.save), checked by store.Store.load (set aside when unsound).
GUEST_SAVE = Fields({
    "format": Choice("dicehall-guest"), "version": Choice(1),
    "room": Text(40, 8, test=lambda text: valid_room_id(text)), "name": Text(1000, cut=MAX_NAME),
    "guest": Field(Maybe(Text(64, 8, test=_token)), optional=True),
    "secret": Field(Maybe(Text(64, 8, test=_token)), optional=True),
})


def saved_guest(data) -> dict | None:
    """A guest's saved room (`GuestSession.save`), checked; None when it cannot be trusted."""
    try:
        data = GUEST_SAVE.check(data)
    except Invalid:
        return None
    return {k: data[k] for k in ("room", "name", "guest", "secret")}


def valid_room_id(text: str) -> bool:
    """A room id as `host.room_id` makes them (also what PeerJS accepts as a peer id)."""
    return 8 <= len(text) <= 40 and text.replace("-", "").isalnum() and text.isascii() \
        and not text.startswith("-") and not text.endswith("-")


class MemoryTransport:
    """Both ends in one process (tests, and hot seat across tabs one day): hosts by room id;
    `deliver()` runs the queued messages and events, in order."""

    def __init__(self, discovery: bool = True) -> None:
        self.hosts: dict[str, tuple] = {}
        self.queue: list = []
        self.count = 0
        self.discovery = discovery  # like a PeerServer started with --allow_discovery (peers)

    async def peers(self, broker: dict) -> dict:
        """The meeting server's connected ids, as `jsrooms.PeerTransport.peers` answers: the
        hosts (guests have no id here), or 401 where discovery is not allowed."""
        if not self.discovery:
            return {"status": 401}
        return {"status": 200, "body": json.dumps(list(self.hosts))}

    def host(self, options: dict, on_event):
        transport = self

        class Link:
            def __init__(self) -> None:
                self.guests: dict[str, object] = {}

            def send(self, conn_id: str, text: str) -> None:
                guest = self.guests.get(conn_id)
                if guest is not None:
                    transport.queue.append((guest, "message", None, text))

            def drop(self, conn_id: str) -> None:
                guest = self.guests.pop(conn_id, None)
                if guest is not None:
                    transport.queue.append((guest, "close", None, None))
                    transport.queue.append((on_event, "close", conn_id, None))

            def close(self) -> None:
                for conn_id in list(self.guests):
                    self.drop(conn_id)
                transport.hosts.pop(options["room"], None)

        link = Link()
        self.hosts[options["room"]] = (link, on_event)
        self.queue.append((on_event, "open", None, options["room"]))
        return link

    def join(self, options: dict, on_event):
        transport = self
        self.count += 1
        conn_id = f"c{self.count}"
        entry = self.hosts.get(options["room"])

        class Link:
            def send(self, text: str) -> None:
                if entry is not None and conn_id in entry[0].guests:
                    transport.queue.append((entry[1], "message", conn_id, text))

            def close(self) -> None:
                if entry is not None and entry[0].guests.pop(conn_id, None) is not None:
                    transport.queue.append((entry[1], "close", conn_id, None))

        if entry is None:
            self.queue.append((on_event, "error", None, "peer-unavailable"))
        else:
            entry[0].guests[conn_id] = on_event
            self.queue.append((entry[1], "connect", conn_id, None))
            self.queue.append((on_event, "open", None, None))
        return Link()

    def deliver(self, limit: int = 100_000) -> None:
        for _ in range(limit):
            if not self.queue:
                return
            handler, kind, conn_id, data = self.queue.pop(0)
            handler(kind, conn_id, data)
        raise RuntimeError("messages keep coming")
