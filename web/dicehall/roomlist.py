"""The room overview's model, browser-free: the rooms this phone was in ("Your rooms") and the
open rooms a meeting server lists ("Open rooms"). Time is passed in (`now`), so the 48 hours of
a room are tested without waiting.

Your rooms (`ROOMS_KEY` in local storage, `ROOMS_SCHEMA`): one entry per room this phone hosted or
was let into as a guest, with the guest's id and seat secret (so "Rejoin" needs no second
approval), kept until the room's end: 48 hours from the room's creation (`host.ROOM_SECONDS`).
A guest learns the end from the host's room (`RoomGuest.about["expires"]`), never later than 48
hours from when it joined; an entry claiming more is unsound and left out when read. At most
`MAX_ROOMS`, the newest kept.

Open rooms, and why they are read from the meeting server's list of peers: a PeerServer started
with `--allow_discovery` answers `GET <path><key>/peers` with the ids of every peer connected to
it, with no names and no rooms (the notes, /work/shared/notes/p2p-rooms.md §4); without it (and
on PeerJS's public broker) the answer is 401. A host that chooses "List this room" (off by
default) registers a second peer whose id *is* the listing: `dhl-<room id>-<game>-<free
seats>-<watchers>-<end, base 36 seconds>` (`listing_id`), registered again when it changes
(at most every `LIST_SECONDS`: each change is a new registration) and gone with the room. An
overview reads the list without connecting to any host. A room not listed has no such id; its
own id is still in the server's list (every connected id is), only never shown here: host
approval, not secrecy, keeps a room closed. A listing is a claim by whoever registered it, so
every field is checked, an expired or too-long-lived one left out, and joining through one
still asks the host.
"""

from __future__ import annotations

import json
import re

from pygame_core import safejson
from pygame_core.registry import entries
from pygame_core.rooms.host import HOST, ROOM_SECONDS
from pygame_core.rooms.messages import MAX_NAME
from pygame_core.schema import Bool, Check, Choice, Field, Fields, Invalid, ListOf, Maybe, Number, Text

from . import store
from .rooms import valid_room_id

ROOMS_KEY = store.PREFIX + "rooms"
MAX_ROOMS = 12
MAX_OPEN = 40  # open rooms shown
MAX_PEERS = 5000  # ids read of a meeting server's answer
MAX_ANSWER = 400_000  # characters of that answer
LIST_SECONDS = 5.0
LISTING = "dhl"
NO_GAME = "x"  # a room whose game is not chosen yet
MAX_COUNT = 99


def _token(text: str) -> bool:
    return text.replace("-", "").replace("_", "").isalnum() and text.isascii()


def _known_game(game: str) -> bool:
    return game in entries()


def _within_48h(entry: dict) -> str | None:
    """Why an entry is unsound: a room ends within 48 hours of its creation, before one joined."""
    return "a room that lasts longer than 48 hours" if entry["expires"] > entry["joined"] + ROOM_SECONDS else None


SECONDS = Number(0, 2**53)
ROOM_ENTRY = Check(Fields({
    "room": Text(40, 8, test=valid_room_id),
    "role": Choice("host", "guest"),
    "game": Field(Maybe(Text(40, test=_known_game)), optional=True),
    "joined": SECONDS,
    "expires": SECONDS,
    "name": Field(Text(1000, cut=MAX_NAME), optional=True, default=""),
    "guest": Field(Maybe(Text(64, 8, test=_token)), optional=True),
    "secret": Field(Maybe(Text(64, 8, test=_token)), optional=True),
    "listed": Field(Bool(), optional=True, default=False),
}), _within_48h)
# Each entry on its own: an unsound one is left out (and set aside), the others kept.
ROOMS_SCHEMA = ListOf(ROOM_ENTRY, MAX_ROOMS, salvage=True)


def current(rooms: list[dict], now: float) -> list[dict]:
    """The rooms not over at `now` (a room ends 48 hours after its creation)."""
    return [r for r in rooms if now < r["expires"]]


def remember(rooms: list[dict], entry: dict, now: float) -> list[dict]:
    """`rooms` with `entry` in (replacing the same room's), newest last, the ended ones gone."""
    entry = ROOM_ENTRY.check(entry)
    kept = [r for r in current(rooms, now) if r["room"] != entry["room"]]
    return (kept + [entry])[-MAX_ROOMS:]


def forget(rooms: list[dict], room_id: str) -> list[dict]:
    return [r for r in rooms if r["room"] != room_id]


def guest_end(about_expires, joined: float) -> float:
    """The end of a room a guest joined at `joined`, from the host's word (its room's `expires`):
    never later than 48 hours from joining (the room was created before), nor in the past."""
    if isinstance(about_expires, (int, float)) and not isinstance(about_expires, bool) \
            and joined < about_expires <= joined + ROOM_SECONDS:
        return float(about_expires)
    return joined + ROOM_SECONDS


class RoomBook:
    """Your rooms in local storage: `app.store` (a `store.Store`) and `app.clock()`."""

    def __init__(self, app) -> None:
        self.app = app

    def rooms(self) -> list[dict]:
        """The rooms not over yet, oldest first (unsound entries set aside by the store)."""
        return current(self.app.store.load(ROOMS_KEY, ROOMS_SCHEMA, []), self.app.clock())

    def entry(self, room_id: str) -> dict | None:
        return next((r for r in self.rooms() if r["room"] == room_id), None)

    def _remember(self, entry: dict) -> None:
        """Keep `entry`; one this list cannot hold (a room id or key of an unexpected form) is
        left out: the list is a convenience, and the room itself must go on regardless."""
        try:
            self._put(remember(self.rooms(), entry, self.app.clock()))
        except Invalid:
            pass

    def _put(self, rooms: list[dict]) -> None:
        if rooms:
            self.app.store.put(ROOMS_KEY, store.compact(rooms))  # (a failed write: the list is a convenience)
        else:
            self.app.store.remove(ROOMS_KEY)

    def remember_host(self, room, listed: bool | None = None) -> None:
        """This phone hosts `room` (a `RoomHost`); `listed` None keeps the host's earlier choice."""
        old = self.entry(room.room_id)
        if listed is None:
            listed = bool(old and old["role"] == "host" and old["listed"])
        joined = old["joined"] if old else room.created
        self._remember({"room": room.room_id, "role": "host", "game": room.table.game, "joined": joined,
                        "expires": min(room.expires, joined + ROOM_SECONDS), "name": room.host_name, "listed": listed})

    def remember_guest(self, session) -> None:
        """This phone was let into `session`'s room (a `GuestSession` whose guest is in)."""
        guest, now = session.guest, self.app.clock()
        old = self.entry(session.room_id)
        joined = old["joined"] if old and old["role"] == "guest" else now
        game = guest.table.game if guest.table is not None else None
        self._remember({"room": session.room_id, "role": "guest", "game": game if game in entries() else None,
                        "joined": joined, "expires": guest_end(guest.about.get("expires"), joined), "name": guest.name,
                        "guest": guest.guest_id, "secret": guest.secret})

    def forget(self, room_id: str) -> None:
        self._put(forget(self.rooms(), room_id))


# --- listing a room and reading the list ---------------------------------------------------------
def summary(room) -> dict:
    """What a listed room shows (a `RoomHost`): its game, the computer's seats a guest may take,
    and the guests who watch (neither seated nor sitting in next game), and its end."""
    seats = room.table.seats
    free = sum(1 for seat, holder in enumerate(room.holders) if holder == HOST and seats[seat].get("ai"))
    watchers = sum(1 for g in room.guests if g not in room.holders and g not in room.joining)
    return {"room": room.room_id, "game": room.table.game, "free": min(free, MAX_COUNT),
            "watchers": min(watchers, MAX_COUNT), "expires": int(room.expires)}


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def listing_id(info: dict) -> str:
    """The peer id that lists a room (a `summary`); PeerJS-safe: letters, digits, single '-'."""
    return "-".join([LISTING, info["room"], info["game"] or NO_GAME, str(info["free"]), str(info["watchers"]),
                     _b36(int(info["expires"]))])


LISTING_RE = re.compile(r"dhl-(?P<room>[a-z0-9-]{8,40})-(?P<game>[a-z][a-z0-9]{0,39})"
                        r"-(?P<free>[0-9]{1,2})-(?P<watchers>[0-9]{1,2})-(?P<expires>[0-9a-z]{1,11})")


def read_listing(peer_id, now: float) -> dict | None:
    """A listed room from a peer id, or None: not a listing, unsound, a game this app does not
    have, over at `now`, or claiming to last longer than a room can."""
    if not isinstance(peer_id, str) or len(peer_id) > 120:
        return None
    m = LISTING_RE.fullmatch(peer_id)
    if m is None or not valid_room_id(m["room"]):
        return None
    game = None if m["game"] == NO_GAME else m["game"]
    if game is not None and game not in entries():
        return None
    expires = int(m["expires"], 36)
    if not now < expires <= now + ROOM_SECONDS:
        return None
    return {"room": m["room"], "game": game, "free": int(m["free"]), "watchers": int(m["watchers"]),
            "expires": expires}


def open_rooms(ids: list, now: float) -> list[dict]:
    """The listed rooms among a meeting server's peer ids: one per room (a room relisted while
    the server still holds its old listing: the latest end wins), soonest-ending last."""
    rooms: dict[str, dict] = {}
    for peer_id in ids[:MAX_PEERS]:
        info = read_listing(peer_id, now)
        if info is not None and (info["room"] not in rooms or info["expires"] >= rooms[info["room"]]["expires"]):
            rooms[info["room"]] = info
    return sorted(rooms.values(), key=lambda r: (-r["free"], -r["expires"], r["room"]))[:MAX_OPEN]


def read_peers(answer) -> tuple[str, list]:
    """A transport's answer to "which peers are there" (`{"status", "body"}`: the HTTP status,
    0 when the server could not be reached) as ("ok", ids), ("refused", []) — the server does
    not allow discovery — or ("unreachable", [])."""
    status = answer.get("status") if isinstance(answer, dict) else None
    if status in (401, 403, 404):
        return "refused", []
    if status != 200:
        return "unreachable", []
    body = answer.get("body")
    if not isinstance(body, str) or len(body) > MAX_ANSWER:
        return "unreachable", []
    try:
        ids = safejson.loads(body)
    except (ValueError, RecursionError):
        return "unreachable", []
    if not isinstance(ids, list):
        return "unreachable", []
    return "ok", [i for i in ids[:MAX_PEERS] if isinstance(i, str)]


async def discover(transport, broker: dict | None) -> tuple[str, list]:
    """Ask the meeting server `broker` which peers it holds (`transport.peers`). PeerJS's public
    broker (`broker` None) does not allow discovery: "refused" without asking it."""
    peers = getattr(transport, "peers", None)
    if broker is None or peers is None:
        return "refused", []
    try:
        answer = await peers(broker)
    except Exception:  # the browser's fetch failed in a way it did not report as status 0
        return "unreachable", []
    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except ValueError:
            return "unreachable", []
    return read_peers(answer)


class RoomLister:
    """Lists a hosted room on its meeting server while its host wants it: a second peer named
    `listing_id(summary)` through `transport.host` (so it comes back after a reload or a lost
    broker like the room does), registered again when the summary changes, at most every
    `LIST_SECONDS`, and closed with the room or at its end. Anyone connecting to it is dropped:
    a room is joined by its own id."""

    def __init__(self, transport, broker: dict | None, ice, clock) -> None:
        self.transport, self.broker, self.ice, self.clock = transport, broker, ice, clock
        self.link = None
        self.listed: str | None = None  # the id registered now
        self.at = -1e9  # when it was registered

    def update(self, info: dict | None) -> None:
        """List the room as `info` says (a `summary`), or stop listing it (None, or its end)."""
        now = self.clock()
        if info is None or now >= info["expires"]:
            self.close()
            return
        wanted = listing_id(info)
        if wanted == self.listed or now - self.at < LIST_SECONDS:
            return  # (the tick brings a change made meanwhile)
        self.close()
        self.listed, self.at = wanted, now
        options = {"room": wanted, "broker": self.broker, "iceServers": list(self.ice or [])}
        self.link = self.transport.host(options, self._on_event)

    def _on_event(self, kind: str, conn_id, data) -> None:
        if kind == "connect" and self.link is not None:
            self.link.drop(str(conn_id))

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        self.link, self.listed = None, None
