"""The table survives its host: when the host is lost, the next guest in line takes the table over.

The ruling (issue 31, item 3)

- **When.** A guest counts its host lost after `LOST_SECONDS` (12 s) without a word from it. The
  host answers every guest's heartbeat (a ping every 2 s, `web/dicehall/rooms.py`), besides its
  moves and room updates, so 12 s is six missed answers: twice the 6 s after which a guest is
  shown away, longer than a host page's reload (back in 0.2–0.4 s, measured) or the 6–8 s ICE
  takes to report a vanished peer, and short enough that play resumes within the 20 s the issue
  asks (connecting to the heir takes 0.1–0.2 s on loopback). A phone that locks its screen
  freezes the page: a host locked for more than 12 s loses the table. That is why the host keeps
  a wake lock while hosting, and why losing the table costs it nothing: it comes back as a guest
  in its own seat.
- **Who.** The line of succession (`line`) is read from the last room the host sent everybody
  (holders, and the guests in the order the host lists them, which is the order it admitted
  them): the guests who hold a seat, by seat number, then the watchers in join order; a guest
  without a key is left out. A guest shown away is not: who is away changes with every
  heartbeat, and the host's last word on it may reach some guests and not others before it
  vanishes (in Chromium, on a loaded machine, two guests each found itself first and both hosted
  the table); the admitted guests change only when one is let in. So every guest computes the
  same line; an heir that is gone costs its turn. The heir in place k takes over `k × TURN_SECONDS`
  (8 s) after the loss, unless it reached an earlier heir's room by then; a guest looks for
  heir 0 first and for heir k from that heir's turn on.
- **Where.** Each heir's room has an id every guest derives from the lost room's id and the
  heir's guest id (`heir_room_id`): nobody needs to be told where to look, and nobody can send
  the guests elsewhere.
- **What the heir does** (`take_over`): it becomes a `RoomHost` (`SuccessorHost`) with the full
  record of its mirror, replayed and checked by `Table.from_json`; the AI seats of the old host
  move to its phone, and so do the old host's people's seats, played by the game's setup AI
  level until the old host comes back (then they are its again, as a guest); every guest keeps
  its seat and its guest id. The dice go on with a fresh commit–reveal (a new seed, new
  entropies): the old host never revealed its seed, so the throws before the hand-over cannot
  be checked, and that is said (`handover["dice"] = "room.dice_unverifiable"`), never skipped
  silently. Its room carries the claim (`succession`: the lost room, the heir, its proof, the
  generation).
- **Keys.** Each room lists, per guest, `key` = H(H(seat secret)) (H: SHA-256; the host itself
  holds only H(secret) and never sends it), and `host_key` = H(host_secret(token)). A guest comes
  back to the heir with H(secret) as its secret (`next_secret`: a hash chain, one step per
  hand-over), which the heir checks against `key` as any host checks a secret; the heir proves
  who it is with the same H(secret) (`proof`), which the others check against its `key`. The old
  host comes back with host_secret(token) under `old_host_id(room)`.
- **Refused** (`check_claim`, by every guest before it takes anything from a would-be heir): a
  room with no sound claim or not for the lost room or not at the heir's own id; a claimant not
  in line, or whose turn has not come by this guest's clock (the first heir is still expected);
  a proof that does not match the heir's key; a record that does not replay, is for another
  game, or differs from the moves this guest saw (every move both have must agree). A guest
  that still hears its host refuses any heir (`Follower`, `room.host_still_here`).
- **No move lost or duplicated.** The heir's record is the table's from then on: every guest
  checks that it agrees with what it saw, and moves go on by the move index as ever (a move
  sent twice, or late, is refused as stale). A move the old host sent only to some guests before
  it vanished, not to the heir, is not in the record: those guests go back to the heir's
  position (`handover["rewound"]` counts it) and the player whose turn it is plays again; a
  throw is thrown again with the new dice.

Time is passed in (`now`); nothing here waits or reads a clock.
"""

from __future__ import annotations

import base64
import hashlib
import math

from ..registry import get_entry
from ..table import SaveError, Table, clean_seat
from .guest import RoomGuest
from .host import HOST, ROOM_SECONDS, Guest, RoomHost, digest, host_secret
from .messages import (
    MAX_CHAT,
    MAX_NAME,
    BadMessage,
    clean_text,
    encode,
    parse_from_host,
    room_keys,
    succession_claim,
)

LOST_SECONDS = 12.0
TURN_SECONDS = 8.0


def _b32(text: str) -> str:
    return base64.b32encode(hashlib.sha256(text.encode()).digest()[:10]).decode().lower()


def heir_room_id(room_id: str, heir: str) -> str:
    """The id of the room `heir` opens when it takes `room_id` over (as broker-safe as room_id)."""
    return "dice-" + _b32(f"dicehall-heir|{room_id}|{heir}")


def old_host_id(room_id: str) -> str:
    """The guest id the host of `room_id` has in its heir's room (never a random guest id: those
    are 12 characters)."""
    return "host-" + _b32(f"dicehall-old-host|{room_id}")


def next_secret(secret: str) -> str:
    """A guest's secret in the heir's room: H(its secret in the lost one)."""
    return digest(secret)


def line(holders: list, guests: list) -> list[str]:
    """The order of succession (see the ruling): guests who hold a seat by seat number, then the
    watchers in the host's order; guests without a key are left out (away ones are not: see the
    ruling)."""
    keys = room_keys(guests)
    present = [g["id"] for g in guests if isinstance(g, dict) and g.get("id") in keys]
    out = [h for i, h in enumerate(holders) if h in present and h not in holders[:i]]
    return out + [g for g in present if g not in out]


class Known:
    """What a phone knew of the lost room: its id, its table, the line and the keys."""

    def __init__(self, room: str, table: Table, heirs: list[str], keys: dict[str, str], generation: int) -> None:
        self.room, self.table, self.heirs, self.keys, self.generation = room, table, heirs, keys, generation

    @classmethod
    def of_guest(cls, guest: RoomGuest) -> Known:
        claim = guest.about.get("succession")
        try:
            generation = succession_claim(claim)["generation"] if claim is not None else 0
        except BadMessage:
            generation = 0
        return cls(guest.room, guest.table, line(guest.holders, guest.guests), room_keys(guest.guests), generation)

    @classmethod
    def of_host(cls, host: RoomHost) -> Known:
        # (every guest of its: back from a reload, the host has seen none of them lately)
        guests = [{**g, "away": False} for g in host.snapshot()["guests"]]
        claim = getattr(host, "claim", None)
        return cls(host.room_id, host.table, line(host.holders, guests), room_keys(guests),
                   claim["generation"] if claim else 0)

    def turn(self, heir: str, lost_at: float) -> float | None:
        """When `heir` may take over (None: not in line)."""
        return lost_at + self.heirs.index(heir) * TURN_SECONDS if heir in self.heirs else None

    def heir_at(self, now: float, lost_at: float) -> str | None:
        """The heir whose turn it is at `now` (the last one stays in turn)."""
        if not self.heirs:
            return None
        k = max(0, math.floor((now - lost_at) / TURN_SECONDS))
        return self.heirs[min(k, len(self.heirs) - 1)]


def check_claim(known: Known, room: object, now: float, lost_at: float | None) -> str | None:
    """None when `room` (a would-be heir's snapshot) is the rightful heir's, with a record that
    agrees with what this phone saw; else the catalog code of the reason. `lost_at` is when this
    phone counted its host lost (None: the old host itself, who looks for whoever took over)."""
    if not isinstance(room, dict):
        return "room.no_claim"
    try:
        claim = succession_claim(room.get("succession"))
    except BadMessage as err:
        return err.code
    if claim["from"] != known.room or room.get("room") != heir_room_id(known.room, claim["heir"]) \
            or claim["generation"] != known.generation + 1:
        return "room.no_claim"
    if lost_at is not None:  # (the old host takes whoever of its guests took over)
        turn = known.turn(claim["heir"], lost_at)
        if turn is None or now < turn:
            return "room.not_next"
    if digest(claim["proof"]) != known.keys.get(claim["heir"]):
        return "room.bad_heir"
    return check_record(known.table, room.get("table"))


def check_record(mine: Table, theirs: object) -> str | None:
    """None when the table `theirs` (JSON) replays and agrees with `mine` on every game and move
    both have; else "room.forged_record"."""
    try:
        table = Table.from_json(theirs)
    except SaveError:
        return "room.forged_record"
    if table.game != mine.game or len(table.seats) != len(mine.seats) or table.start_seats != mine.start_seats:
        return "room.forged_record"
    if (table.record is None) != (mine.record is None):
        return "room.forged_record"
    if table.record is not None:
        a, b = table.record, mine.record
        n = min(len(a.moves), len(b.moves))
        if a.options != b.options or a.moves[:n] != b.moves[:n]:
            return "room.forged_record"
    return None


class SuccessorHost(RoomHost):
    """A host that took a lost host's table over: its room carries the claim, and the old host's
    people's seats (played by the AI meanwhile) are the old host's again when it comes back."""

    claim: dict | None = None
    returning: dict | None = None  # {"guest": old host's id, "seats": {seat: seat as it was}}
    handover: dict | None = None

    def snapshot(self, guest_id: str | None = None) -> dict:
        data = super().snapshot(guest_id)
        if self.claim is not None:
            data["succession"] = dict(self.claim)
        return data

    def to_json(self) -> dict:
        data = super().to_json()
        data["succession"] = self.claim
        back = self.returning
        data["returning"] = None if back is None else {"guest": back["guest"],
                                                         "seats": [[seat, info] for seat, info in back["seats"].items()]}
        return data

    def _hello(self, conn, link, msg: dict, now: float) -> None:
        super()._hello(conn, link, msg, now)
        back = self.returning
        if back is not None and link.guest == back["guest"]:
            for seat, info in back["seats"].items():
                if self.holders[seat] == HOST:  # (a guest may have taken it over meanwhile)
                    self.holders[seat] = back["guest"]
                    self.table.seats[seat] = dict(info)
            self.returning = None
            self._seats_changed()


def take_over(guest: RoomGuest, now: float, door=None, on_change=None) -> SuccessorHost:
    """The heir `guest` becomes the host of its lost room's table (see the ruling); SaveError when
    its mirror does not replay (then it cannot be the heir)."""
    if guest.status != "in" or guest.table is None or guest.secret is None:
        raise SaveError("room.no_claim", "Not in the room.")
    known = Known.of_guest(guest)
    table = Table.from_json(guest.table.to_json())  # the full record, replayed and checked
    level = get_entry(table.game).setup_level
    me, old_room = guest.guest_id, guest.room
    keys = known.keys
    about = guest.about
    holders, back = [], {}
    for seat, holder in enumerate(guest.holders[:len(table.seats)]):
        if holder == HOST and not table.seats[seat]["ai"]:
            back[seat] = dict(table.seats[seat])
            table.seats[seat] = {**table.seats[seat], "ai": level}  # played by the AI until it is back
        elif holder != HOST and (holder == me or holder not in keys):
            # mine (I play it on this screen now), or a guest who could never be let back in
            table.seats[seat] = {**table.seats[seat], "ai": None if holder == me else level}
        holders.append(holder if holder in keys and holder != me else HOST)
    room = SuccessorHost(table, now, guest.name, on_change=on_change, door=door)
    room.room_id = heir_room_id(old_room, me)
    expires = about.get("expires")
    room.expires = expires if isinstance(expires, (int, float)) and now < expires <= now + ROOM_SECONDS else \
        now + ROOM_SECONDS
    names = {g["id"]: g.get("name") for g in guest.guests if isinstance(g, dict) and g.get("id") in keys}
    for guest_id, key in keys.items():
        if guest_id != me:
            room.guests[guest_id] = Guest(guest_id, clean_text(str(names.get(guest_id) or "?"), MAX_NAME) or "?", key)
    host_key = about.get("host_key")
    if isinstance(host_key, str) and len(host_key) == 64 and all(c in "0123456789abcdef" for c in host_key):
        old = old_host_id(old_room)
        room.guests[old] = Guest(old, clean_text(str(about.get("host") or "Host"), MAX_NAME) or "Host", host_key)
        room.returning = {"guest": old, "seats": back}
    room.holders = holders
    room.joining = [g for g in guest.joining if g in room.guests]
    room.chat = [{**line, "who": clean_text(str(line.get("who")), MAX_NAME), "text": clean_text(str(line.get("text")), MAX_CHAT)}
                 for line in guest.chat if isinstance(line, dict)][-50:]
    room.chat_count = max([line["id"] for line in room.chat if isinstance(line.get("id"), int)] or [0])
    room.claim = {"from": old_room, "heir": me, "proof": next_secret(guest.secret), "generation": known.generation + 1}
    room.handover = _handover(guest, table, old_room)
    room.door.seats_changed(room.remote_seats())
    room.door.started()  # dice nobody in particular throws are thrown (the app's door: its AI moves)
    return room


def _handover(guest: RoomGuest, table: Table, old_room: str) -> dict:
    """What the hand-over tells this phone's player: the throws of the game before it that
    cannot be checked (the old host never revealed its seed) and any moves gone back."""
    dice = guest.dice
    throws = len(dice["throws"]) if dice is not None and guest.dice_check is None else 0
    mine = guest.table.record.moves if guest.table and guest.table.record else []
    kept = table.record.moves if table.record else []
    return {"from": old_room, "throws": throws, "dice": "room.dice_unverifiable" if throws else None,
            "earlier": guest.dice_check, "rewound": max(0, len(mine) - len(kept))}


class Follower:
    """A phone going to a would-be heir's room: it says hello with its credential there, checks
    the claim in the first room it gets (`check_claim`) before taking anything from it, and from
    then on is that room's guest (`guest`). Same calls as a `RoomGuest` for a transport: `name`,
    `hello()`, `received(text)`; `status`: "checking" → "in", or "refused" with `reason`.

    `lost_at` is when this phone counted its host lost; None for the old host itself."""

    def __init__(self, guest: RoomGuest, known: Known, secret: str, clock, lost_at: float | None) -> None:
        self.guest, self.known, self.secret, self.clock, self.lost_at = guest, known, secret, clock, lost_at
        self.name = guest.name
        self.status = "checking"
        self.reason: str | None = None

    @classmethod
    def of_guest(cls, guest: RoomGuest, clock, lost_at: float) -> Follower:
        return cls(guest, Known.of_guest(guest), next_secret(guest.secret), clock, lost_at)

    @classmethod
    def of_old_host(cls, host: RoomHost, clock) -> Follower:
        """The old host, back: a guest in its seat at whoever took its table over."""
        guest = RoomGuest(host.host_name, old_host_id(host.room_id), host_secret(host.token))
        guest.room, guest.table = host.room_id, host.table
        return cls(guest, Known.of_host(host), guest.secret, clock, None)

    def heir_room(self, heir: str) -> str:
        return heir_room_id(self.known.room, heir)

    def hello(self, tab: str | None = None, take: bool = False) -> str:
        g = self.guest
        return encode("hello", name=g.name, guest=g.guest_id, secret=self.secret, **({"tab": tab, "take": take} if tab else {}))

    def received(self, text) -> list[str]:
        if self.status == "in":
            return self.guest.received(text)
        if self.status != "checking":
            return []
        try:
            msg = parse_from_host(text)
        except BadMessage:
            return []
        if msg["kind"] == "refused":
            self.status, self.reason = "refused", "room.no_claim"
            return []
        if msg["kind"] != "welcome":
            return []  # (a `pending`: the room does not know this guest, so it is no heir of its room)
        reason = check_claim(self.known, msg.get("room"), self.clock(), self.lost_at)
        if reason is not None:
            self.status, self.reason = "refused", reason
            return []
        g = self.guest
        handover = _handover(g, Table.from_json(msg["room"]["table"]), self.known.room)
        g.secret, g.handover = self.secret, handover
        g.dice, g.dice_check, g.entropy_sent = None, None, None  # the new game's dice: fresh commit–reveal
        self.status = "in"
        return g.received(text)


class HostWatch:
    """A guest's watch on its host: `heard(now)` on every message from it; `lost(now)` says
    whether it has been quiet for `LOST_SECONDS`, and `lost_at` since when."""

    def __init__(self, now: float) -> None:
        self.heard_at = now
        self.lost_at: float | None = None

    def heard(self, now: float) -> None:
        if self.lost_at is None:
            self.heard_at = max(self.heard_at, now)

    def lost(self, now: float) -> bool:
        if self.lost_at is None and now - self.heard_at >= LOST_SECONDS:
            self.lost_at = self.heard_at + LOST_SECONDS
        return self.lost_at is not None


def resume_room(data, now: float, on_change=None) -> RoomHost:
    """A hosted room back from its save (`RoomHost.from_json`), a successor's with its claim and
    the seats it keeps for the old host; ValueError when the save cannot be trusted."""
    if not isinstance(data, dict) or data.get("succession") is None:
        return RoomHost.from_json(data, now, on_change)
    room = SuccessorHost.from_json(data, now, on_change)
    room.claim = succession_claim(data["succession"])  # (BadMessage is a ValueError)
    if room.claim["from"] == room.room_id or room.room_id != heir_room_id(room.claim["from"], room.claim["heir"]):
        raise ValueError("the room cannot be resumed: its claim is not its own")
    back = data.get("returning")
    if back is not None:
        try:
            guest, seats = back["guest"], {int(seat): info for seat, info in back["seats"]}
            if guest not in room.guests or any(not 0 <= seat < len(room.table.seats) for seat in seats):
                raise ValueError("no such seat or guest")
            room.returning = {"guest": guest, "seats": {seat: clean_seat(room.table.game, info)
                                                        for seat, info in seats.items()}}
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"the room cannot be resumed: the old host's seats: {err}") from None
    return room
