"""The host of a room: the one authority over the table, its seats, its dice and its chat.

A connection (any transport: an object with `send(text)` and `close()`) first says `hello`.
An unknown guest waits for the host's approval (`approve` / `refuse`); an approved one gets a
guest id and a *seat secret* (the host keeps only its hash) and comes back after a reload by
saying `hello` with both — no second approval. Until approved, a connection may only say hello
and ping.

Seats: each seat of the table is held by the host's screen (`HOST`: the people at the host's
phone and the AI seats, which keep playing on the host) or by one guest. A guest may take an AI
seat at once, or ask for a person's seat: that person (a guest, or the host's screen) has
`REQUEST_SECONDS` to refuse, then the seat moves with its symbol, pieces and points; the person
who had it keeps watching. Between games a guest may sit in as an extra player while the game
allows more. Everybody else approved is a spectator and sees everything live.

Moves: a guest's intent names its seat and the move index it saw; the host refuses a seat that
is not the guest's, a move out of turn or on an older position, and anything the rules refuse,
and tells only that guest. Moves are applied through a *door*: the app's play controller (which
draws, saves and runs the AI seats; `RoomDice` is its dice roller while hosting) or the table
itself (`TableDoor`); the door tells the room of every move (`moved`), which broadcasts it. Dice
come only from the commit–reveal source (`fairdice`, `throw`); a guest's "Roll" is an intent.

Limits against a hostile guest: every message is parsed and bounded (`messages`); a connection
sending more than `FLOOD_MESSAGES` in `FLOOD_SECONDS` has the rest dropped, and one that keeps
flooding or sends `MAX_STRIKES` bad messages is closed; chat is limited to `CHAT_LINES` lines per
`CHAT_SECONDS`, `messages.MAX_CHAT` characters, plain text, with `CHAT_HISTORY` lines kept.
Requests waiting for approval are capped (`MAX_PENDING`).

One guest in two pages (tabs of one browser share the guest id and secret): the page that holds
the guest's place keeps it. Another page saying `hello` with a different `tab` while the holder's
link is live (heard from within `AWAY_SECONDS`) is told `elsewhere` and closed, unless it says
`take` (the player chose "Play here"): then the holder is told `replaced` and closed. A hello
with the holder's own `tab` (that page reconnecting) or for a quiet or gone holder takes the place
without a word; so does a hello with no `tab` (an app from before: the old link goes, as ever).
Neither page retries after being told, so two tabs never knock each other off in turns.

Rulings (the issue is silent): a guest holds at most one seat at a time; taking an AI seat needs
no second approval (the guest was approved to play); a seat whose guest has gone away stays
theirs until the host hands it back (`release`); a finished game is replaced when an extra
player sits in (its result is already in the standings).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections import deque
from dataclasses import dataclass, field

from ..protocol import CHANCE, IllegalMove
from ..ranking import Standings
from ..registry import get_entry
from ..schema import Any, Choice, Field, Fields, Int, ListOf, MapOf, Maybe, Number, Text, Tuple
from ..table import Table
from . import fairdice
from .messages import MAX_CHAT, MAX_NAME, BadMessage, clean_text, encode, parse_from_guest

HOST = "host"  # the holder of the seats played on the host's own screen (people and AI)
ROOM_SECONDS = 48 * 3600
REQUEST_SECONDS = 30.0
AWAY_SECONDS = 6.0  # no message for this long: shown as away (guests ping every 2 s)
CHAT_LINES, CHAT_SECONDS = 5, 10.0
CHAT_HISTORY = 200
FLOOD_MESSAGES, FLOOD_SECONDS = 40, 2.0
MAX_STRIKES = 10
MAX_PENDING = 8
MAX_GUESTS = 16
SNAPSHOT_CHAT = 50  # chat lines a joining guest gets
DEFAULT_SYMBOLS = ("●", "▲", "■", "◆", "★")


def room_id() -> str:
    """High-entropy and broker-safe (PeerJS ids: letters, digits, '-'): 'dice-' + 16 base32."""
    return "dice-" + base64.b32encode(secrets.token_bytes(10)).decode().lower()


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def host_secret(token: str) -> str:
    """The host's way back into its own table after a successor took it over (succession.py):
    derived from the broker token, so the token itself never leaves this phone."""
    return hmac.new(token.encode(), b"dicehall-host-returns", hashlib.sha256).hexdigest()


@dataclass
class Guest:
    guest_id: str
    name: str
    secret_hash: str
    conn: object | None = None
    last_seen: float = 0.0
    away: bool = True
    chat_times: deque = field(default_factory=deque)
    tab: str | None = None  # the page whose link holds the guest's place (its hello's `tab`)


@dataclass
class Pending:
    request: str
    conn: object
    name: str
    at: float
    tab: str | None = None  # its hello's `tab`: the page that holds the place once let in


@dataclass
class SeatRequest:
    request: str
    seat: int
    by: str  # guest id
    holder: str  # HOST or the guest id holding the seat when asked
    deadline: float


@dataclass
class Link:
    """What the host knows about one open connection."""

    guest: str | None = None  # guest id once admitted
    request: str | None = None  # approval request id while waiting
    times: deque = field(default_factory=deque)
    strikes: int = 0


@dataclass
class DiceLog:
    """The commit–reveal dice of one game (see fairdice)."""

    game: int
    seed: str
    commit: str
    entropies: list = field(default_factory=list)  # (guest id, value) in announcement order
    throws: list = field(default_factory=list)  # (record index, mix, sides, values)

    def public(self) -> dict:
        return {"game": self.game, "commit": self.commit, "entropies": [list(e) for e in self.entropies],
                "throws": [[i, mix, list(sides), list(values)] for i, mix, sides, values in self.throws]}


class RoomHost:
    def __init__(self, table: Table, now: float, host_name: str = "Host", *, symbols=DEFAULT_SYMBOLS,
                 on_change=None, door=None) -> None:
        self.room_id = room_id()
        self.token = secrets.token_urlsafe(24)  # the broker id's ownership: never in a link
        self.created = now
        self.expires = now + ROOM_SECONDS
        self.host_name = clean_text(host_name, MAX_NAME) or "Host"
        self.table = table
        self.symbols = tuple(symbols)
        self.holders: list[str] = [HOST] * len(table.seats)
        self.guests: dict[str, Guest] = {}
        self.pending: dict[str, Pending] = {}
        self.requests: dict[str, SeatRequest] = {}
        self.joining: list[str] = []  # guests who sit in as extra players from the next game
        self.links: dict[object, Link] = {}
        self.chat: list[dict] = []
        self.chat_count = 0
        self.dice: DiceLog | None = None
        self._throwing: tuple | None = None  # the fair throw handed out, until it is played
        self.on_change = on_change or (lambda reason: None)
        # Where moves are applied: the app's play controller (which also draws, saves and runs
        # the AI seats), or by default the table itself (`TableDoor`). Either way the door tells
        # the room what was played (`moved`, `taken_back`), and the room tells the guests.
        self.door = door if door is not None else TableDoor(table, self)
        if table.match is not None and not table.state.is_terminal():
            self._new_dice()

    # --- the host's screen ------------------------------------------------------------
    def submit(self, seat: int, move: str, index: int) -> None:
        """A move made on the host's screen (a person there, or an AI seat): IllegalMove if the
        seat is a guest's or the rules refuse it."""
        if self.holders[seat] != HOST:
            raise IllegalMove("room.not_your_seat", "A guest plays that seat.")
        self.door.submit(seat, move, index)

    def roll(self, index: int) -> None:
        """Throw the dice the game waits for (the host's own Roll, or an AI seat's)."""
        state = self.table.state
        roller = state.roller() if state is not None and state.is_chance() else None
        if roller is not None and self.holders[roller] != HOST:
            raise IllegalMove("room.not_your_seat", "A guest throws these dice.")
        self.door.submit(CHANCE, self.throw(index), index)

    def take_back(self, seat: int, at: int, index: int) -> None:
        if self.holders[seat] != HOST:
            raise IllegalMove("room.not_your_seat", "A guest plays that seat.")
        self.door.take_back(seat, at, index)

    # --- told by the door -------------------------------------------------------------------
    def throw(self, index: int) -> str:
        """The chance move of the throw the game waits for at `index`, from the fair dice (the
        app's dice roller asks here while a room is open); logged once it is played."""
        state = self.table.state
        if state is None or not state.is_chance():
            raise IllegalMove("room.no_throw", "No dice to throw now.")
        if index != self._index():
            raise IllegalMove("error.stale_move", "The game has moved on since that choice.")
        if self.dice is None:
            self._new_dice()
        dice = self.dice
        sides = tuple(state.chance())
        mix = fairdice.mix_digest(dice.entropies)
        values = fairdice.roll(dice.seed, dice.game, len(dice.throws), mix, sides)
        move = state.chance_move(values)
        self._throwing = (index, move, mix, sides, values)
        return move

    def moved(self, seat: int, move: str, index: int) -> None:
        """A move was played at `index` (by the door): tell everybody; reveal the dice seed when
        the game is over."""
        fields = {}
        if seat == CHANCE:
            throwing, self._throwing = self._throwing, None
            if throwing is not None and throwing[:2] == (index, move) and self.dice is not None:
                _, _, mix, sides, values = throwing
                self.dice.throws.append((index, mix, sides, values))
                fields["mix"] = mix
        self._broadcast("move", index=index, seat=seat, move=move, **fields)
        if self.table.state.is_terminal() and self.dice is not None:
            self._broadcast("reveal", game=self.dice.game, seed=self.dice.seed, commit=self.dice.commit)
        self.on_change("move")

    def taken_back(self, seat: int, at: int, index: int) -> None:
        self._broadcast("takeback", seat=seat, at=at, index=index)
        self.on_change("move")

    def new_game(self, rng) -> None:
        """The next game at this table (the start seat moves on), with fresh dice; the guests
        who asked to sit in get their seats first."""
        self._seat_joiners()
        self.table.new_game(rng)
        self._new_dice()
        self._send_rooms()
        self.door.seats_changed(self.remote_seats())  # a new seat of a guest waits for them
        self.door.started()
        self.on_change("game")

    def approve(self, request: str) -> str:
        """Admit a waiting guest as a spectator; returns its guest id."""
        pending = self._pending(request)
        guest_id = secrets.token_urlsafe(9)
        secret = secrets.token_urlsafe(24)
        guest = Guest(guest_id, pending.name, digest(secret))
        self.guests[guest_id] = guest
        link = self.links.get(pending.conn)
        if link is not None:
            link.request, link.guest = None, guest_id
            guest.conn, guest.away, guest.last_seen, guest.tab = pending.conn, False, pending.at, pending.tab
            self._send(pending.conn, "welcome", guest=guest_id, secret=secret, room=self.snapshot(guest_id))
        self._send_rooms(skip=guest_id)
        self.on_change("guests")
        return guest_id

    def refuse(self, request: str) -> None:
        pending = self._pending(request)
        self._send(pending.conn, "refused", reason="room.refused")
        self._drop(pending.conn)
        self.on_change("guests")

    def _pending(self, request: str) -> Pending:
        pending = self.pending.pop(request, None)
        if pending is None:  # the guest gave up waiting (closed the page)
            raise IllegalMove("room.no_request", "That request is over.")
        return pending

    def answer(self, request: str, accept: bool, now: float) -> None:
        """The host's screen answers a request for one of its people's seats."""
        req = self.requests.get(request)
        if req is None or req.holder != HOST:
            raise IllegalMove("room.no_request", "That request is over.")
        self._answered(req, accept, now)

    def release(self, seat: int, level: str | None = None) -> None:
        """Take a guest's seat back to the host's screen: a person there, or the AI `level`."""
        if self.holders[seat] == HOST:
            return
        self.holders[seat] = HOST
        if level is not None:
            self.table.seats[seat] = {**self.table.seats[seat], "ai": level}
        self._seats_changed()

    def say(self, text: str, now: float) -> None:
        """A chat line from the host's screen."""
        text = clean_text(text, MAX_CHAT)
        if text:
            self._add_chat(self.host_name, None, text, now)

    def tick(self, now: float) -> None:
        """Timeouts: seat requests nobody refused, guests gone quiet, waiting requests."""
        for req in [r for r in self.requests.values() if now >= r.deadline]:
            self._transfer(req)
        changed = False
        for guest in self.guests.values():
            quiet = guest.conn is None or now - guest.last_seen > AWAY_SECONDS
            if quiet != guest.away:
                guest.away, changed = quiet, True
        if changed:
            self._send_rooms()
            self.on_change("presence")

    def remote_seats(self) -> set[int]:
        """The seats the guests play (the host's screen neither shows their choices nor thinks
        for them)."""
        return {seat for seat, holder in enumerate(self.holders) if holder != HOST}

    def _seats_changed(self) -> None:
        self.door.seats_changed(self.remote_seats())
        self._send_rooms()
        self.on_change("seats")

    def expired(self, now: float) -> bool:
        return now >= self.expires

    # --- connections --------------------------------------------------------------------
    def connected(self, conn) -> None:
        self.links[conn] = Link()

    def closed(self, conn, now: float) -> None:
        link = self.links.pop(conn, None)
        if link is None:
            return
        if link.request is not None:
            self.pending.pop(link.request, None)
            self.on_change("guests")
        guest = self.guests.get(link.guest) if link.guest else None
        if guest is not None and guest.conn is conn:
            guest.conn, guest.away = None, True
            for req in [r for r in self.requests.values() if r.by == guest.guest_id]:
                del self.requests[req.request]
            self._send_rooms()
            self.on_change("presence")

    def received(self, conn, text, now: float) -> None:
        """One message from a connection; whatever it holds, the room stays consistent."""
        link = self.links.get(conn)
        if link is None:
            return
        link.times.append(now)
        while link.times and now - link.times[0] > FLOOD_SECONDS:
            link.times.popleft()
        if len(link.times) > FLOOD_MESSAGES:
            if len(link.times) > 3 * FLOOD_MESSAGES:
                self._drop(conn, now)
            return  # dropped unread: a flood costs the host nothing but the count
        try:
            msg = parse_from_guest(text)
        except BadMessage as err:
            self._strike(conn, link, err.code, now)
            return
        guest = self.guests.get(link.guest) if link.guest else None
        if guest is not None:
            guest.last_seen = now
            if guest.away:
                guest.away = False
                self._send_rooms()
        kind = msg["kind"]
        if kind == "ping":
            self._send(conn, "pong", t=msg["t"])
            return
        if kind == "hello":
            self._hello(conn, link, msg, now)
            return
        if guest is None:
            self._strike(conn, link, "room.not_admitted", now)
            return
        try:
            getattr(self, f"_on_{kind}")(guest, msg, now)
        except IllegalMove as err:
            self._send(conn, "error", code=err.code, ref=kind, index=self._index())

    # --- guest messages -------------------------------------------------------------------
    def _hello(self, conn, link: Link, msg: dict, now: float) -> None:
        if link.guest is not None or link.request is not None:
            self._strike(conn, link, "room.bad_message", now)
            return
        if self.expired(now):
            self._send(conn, "refused", reason="room.expired")
            self._drop(conn)
            return
        if msg["guest"] is not None:
            guest = self.guests.get(msg["guest"])
            if guest is None or msg["secret"] is None or \
                    not hmac.compare_digest(guest.secret_hash, digest(msg["secret"])):
                self._send(conn, "refused", reason="room.bad_secret")
                self._drop(conn)
                return
            held = guest.conn
            if held is not None and held is not conn:
                same_page = msg["tab"] is not None and msg["tab"] == guest.tab
                live = not guest.away and now - guest.last_seen <= AWAY_SECONDS
                if msg["tab"] is not None and not same_page and live and not msg["take"]:
                    self._send(conn, "elsewhere")  # another page of this guest's plays: it stays
                    self._drop(conn, now)
                    return
                if not same_page:
                    self._send(held, "replaced")  # (a page reconnecting needs no word on its old link)
                self._drop(held)  # the old link goes
            guest.conn, guest.last_seen, guest.away, guest.tab = conn, now, False, msg["tab"]
            link.guest = guest.guest_id
            self._send(conn, "welcome", guest=guest.guest_id, room=self.snapshot(guest.guest_id))
            self._send_rooms(skip=guest.guest_id)
            self.on_change("presence")
            return
        if len(self.pending) >= MAX_PENDING or len(self.guests) >= MAX_GUESTS:
            self._send(conn, "refused", reason="room.full")
            self._drop(conn)
            return
        request = secrets.token_urlsafe(9)
        self.pending[request] = Pending(request, conn, msg["name"], now, msg["tab"])
        link.request = request
        self._send(conn, "pending", request=request, room=self.room_id)
        self.on_change("guests")

    def _on_intent(self, guest: Guest, msg: dict, now: float) -> None:
        seat = self._own_seat(guest, msg["seat"])
        state = self.table.state
        if state is None or state.is_terminal():
            raise IllegalMove("error.no_game", "No game is running.")
        if msg["move"] == "roll":
            if not state.is_chance() or state.roller() != seat:
                raise IllegalMove("room.not_your_turn", "It is not your turn to throw.")
            self.door.submit(CHANCE, self.throw(msg["index"]), msg["index"])
            return
        if seat not in state.current_players():
            raise IllegalMove("room.not_your_turn", "It is not your turn.")
        self.door.submit(seat, msg["move"], msg["index"])

    def _on_takeback(self, guest: Guest, msg: dict, now: float) -> None:
        seat = self._own_seat(guest, msg["seat"])
        self.door.take_back(seat, msg["at"], msg["index"])

    def _on_seat(self, guest: Guest, msg: dict, now: float) -> None:
        seat = msg["seat"]
        if seat >= len(self.holders):
            raise IllegalMove("room.no_seat", "There is no such seat.")
        if guest.guest_id in self.holders:
            raise IllegalMove("room.already_seated", "You already play a seat.")
        if any(r.seat == seat or r.by == guest.guest_id for r in self.requests.values()):
            raise IllegalMove("room.seat_asked", "That seat has been asked for already.")
        holder = self.holders[seat]
        if holder != HOST and self.table.match is None:  # choosing (lobby.py): a guest's seat is theirs
            raise IllegalMove("room.seat_taken", "Another guest has that seat.")
        req = SeatRequest(secrets.token_urlsafe(9), seat, guest.guest_id, holder, now + REQUEST_SECONDS)
        if holder == HOST and self.table.seats[seat]["ai"]:
            self._transfer(req)  # an AI seat: the approved guest takes it at once
            return
        self.requests[req.request] = req
        notice = {"request": req.request, "seat": seat, "by": guest.name, "deadline": req.deadline}
        if holder != HOST:
            holder_guest = self.guests.get(holder)
            if holder_guest is not None and holder_guest.conn is not None:
                self._send(holder_guest.conn, "request", **notice, yours=True)
        self._send(guest.conn, "request", **notice, yours=False)
        self.on_change("seat_request")

    def _on_answer(self, guest: Guest, msg: dict, now: float) -> None:
        req = self.requests.get(msg["request"])
        if req is None or req.holder != guest.guest_id or self.holders[req.seat] != guest.guest_id:
            raise IllegalMove("room.no_request", "That request is over.")
        self._answered(req, msg["accept"], now)

    def _on_join(self, guest: Guest, msg: dict, now: float) -> None:
        """Sit in as an extra player, asked between games, while the game allows more players.
        Ruling: the seat is added when the next game starts, so everyone keeps the results of
        the game just played on screen until the host starts the next one."""
        if guest.guest_id in self.holders or guest.guest_id in self.joining:
            raise IllegalMove("room.already_seated", "You already play a seat.")
        state = self.table.state
        if state is None:  # choosing (lobby.py): a seat is taken on the set-up
            raise IllegalMove("room.choosing", "Take a seat on the set-up.")
        if not state.is_terminal():
            raise IllegalMove("room.game_running", "Extra players sit in between games.")
        rules = get_entry(self.table.game).rules
        if len(self.table.seats) + len(self.joining) >= rules.max_players:
            raise IllegalMove("room.table_full", "The table is full.")
        self.joining.append(guest.guest_id)
        self._send_rooms()
        self.on_change("seats")

    def _seat_joiners(self) -> None:
        """The guests who asked to sit in take new seats (a free symbol each, no points yet)."""
        rules = get_entry(self.table.game).rules
        joining, self.joining = self.joining, []
        added = False
        for guest_id in joining:
            guest = self.guests.get(guest_id)
            if guest is None or guest_id in self.holders or len(self.table.seats) >= rules.max_players:
                continue
            used = {s["symbol"] for s in self.table.seats}
            symbol = next((s for s in self.symbols if s not in used), "✦")
            self.table.seats.append({"name": guest.name, "symbol": symbol, "ai": None})
            self.holders.append(guest_id)
            added = True
        if added:
            old = self.table.standings
            standings = Standings(len(self.table.seats))
            standings.points[:len(old.points)] = old.points
            standings.wins[:len(old.wins)] = old.wins
            standings.games = old.games
            self.table.standings = standings

    def _on_entropy(self, guest: Guest, msg: dict, now: float) -> None:
        dice = self.dice
        if dice is None or msg["game"] != dice.game:
            raise IllegalMove("room.stale_entropy", "That game is over.")
        if any(g == guest.guest_id for g, _ in dice.entropies):
            raise IllegalMove("room.entropy_twice", "Your share is in already.")
        dice.entropies.append((guest.guest_id, msg["value"]))
        self._broadcast("entropy", game=dice.game, guest=guest.guest_id, value=msg["value"])

    def _on_chat(self, guest: Guest, msg: dict, now: float) -> None:
        times = guest.chat_times
        while times and now - times[0] > CHAT_SECONDS:
            times.popleft()
        if len(times) >= CHAT_LINES:
            raise IllegalMove("room.chat_slow", "Wait a moment before the next message.")
        times.append(now)
        seat = self.holders.index(guest.guest_id) if guest.guest_id in self.holders else None
        self._add_chat(guest.name, seat, msg["text"], now)

    def _on_sync(self, guest: Guest, msg: dict, now: float) -> None:
        self._send(guest.conn, "room", room=self.snapshot(guest.guest_id))

    # --- the table ------------------------------------------------------------------------
    def _own_seat(self, guest: Guest, seat: int) -> int:
        if seat >= len(self.holders) or self.holders[seat] != guest.guest_id:
            raise IllegalMove("room.not_your_seat", "That is not your seat.")
        return seat

    def _game_over(self) -> bool:
        return self.table.match is not None and self.table.state is not None and self.table.state.is_terminal()

    def _index(self) -> int:
        return self.table.match.index if self.table.match is not None else 0

    def _new_dice(self) -> None:
        seed = fairdice.new_seed()
        self.dice = DiceLog(len(self.table.start_seats), seed, fairdice.commitment(seed))

    # --- seats ----------------------------------------------------------------------------
    def _answered(self, req: SeatRequest, accept: bool, now: float) -> None:
        if accept:
            self._transfer(req)
            return
        del self.requests[req.request]
        asker = self.guests.get(req.by)
        if asker is not None and asker.conn is not None:
            self._send(asker.conn, "error", code="room.seat_refused", ref="seat", index=self._index())
        self.on_change("seat_request")

    def _transfer(self, req: SeatRequest) -> None:
        self.requests.pop(req.request, None)
        guest = self.guests.get(req.by)
        if guest is None or guest.guest_id in self.holders or self.holders[req.seat] != req.holder:
            return  # the asker left or sat elsewhere, or the seat changed hands meanwhile
        self.holders[req.seat] = guest.guest_id
        info = self.table.seats[req.seat]
        self.table.seats[req.seat] = {"name": guest.name, "symbol": info["symbol"], "ai": None}
        self._seats_changed()

    # --- chat -----------------------------------------------------------------------------
    def _add_chat(self, who: str, seat: int | None, text: str, now: float) -> None:
        self.chat_count += 1
        line = {"id": self.chat_count, "who": who, "seat": seat, "text": text, "at": now}
        self.chat.append(line)
        del self.chat[:-CHAT_HISTORY]
        self._broadcast("chat", line=line)
        self.on_change("chat")

    # --- sending --------------------------------------------------------------------------
    def snapshot(self, guest_id: str | None = None) -> dict:
        """The room as a guest sees it: never the seeds, the secrets or the broker token."""
        return {
            "room": self.room_id,
            "expires": self.expires,
            "host": self.host_name,
            "table": self.table.to_json(),
            "holders": list(self.holders),
            "joining": list(self.joining),
            # `key`: the hash of each guest's seat-secret hash (never the hash this host checks),
            # and `host_key`, the hash of the host's own way back in: what the next host needs
            # to let them in again after a hand-over (succession.py)
            "guests": [{"id": g.guest_id, "name": g.name, "away": g.away, "key": digest(g.secret_hash)}
                       for g in self.guests.values()],
            "host_key": digest(host_secret(self.token)),
            "chat": self.chat[-SNAPSHOT_CHAT:],
            # (once the game is over its seed is no secret: it was revealed to everyone then, and a
            # guest let in, or back, after that checks the game's dice from the room)
            "dice": None if self.dice is None else {
                **self.dice.public(), **({"seed": self.dice.seed} if self._game_over() else {})},
            "you": guest_id,
        }

    def _send(self, conn, kind: str, **fields) -> None:
        if conn is None:
            return
        try:
            conn.send(encode(kind, **fields))
        except Exception:  # a transport that failed is cleaned up by its close event
            pass

    def _broadcast(self, kind: str, **fields) -> None:
        text = encode(kind, **fields)
        for guest in self.guests.values():
            if guest.conn is not None:
                try:
                    guest.conn.send(text)
                except Exception:
                    pass

    def _send_rooms(self, skip: str | None = None) -> None:
        for guest in self.guests.values():
            if guest.conn is not None and guest.guest_id != skip:
                self._send(guest.conn, "room", room=self.snapshot(guest.guest_id))

    def _strike(self, conn, link: Link, code: str, now: float) -> None:
        link.strikes += 1
        self._send(conn, "error", code=code, ref="message", index=self._index())
        if link.strikes >= MAX_STRIKES:
            self._drop(conn, now)

    def _drop(self, conn, now: float | None = None) -> None:
        try:
            conn.close()
        except Exception:
            pass
        self.closed(conn, now if now is not None else 0.0)

    # --- saving ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The host's own save (local storage only): it holds the seeds and the broker token.
        Connections, waiting approvals, seat requests and asks to sit in are not saved: after the host's reload
        every guest connects again (admitted guests with their secret, the others ask again)."""
        return {
            "format": "dicehall-room", "version": 1,
            "room": self.room_id, "token": self.token, "created": self.created, "expires": self.expires,
            "host": self.host_name, "symbols": list(self.symbols),
            "table": self.table.to_json(), "holders": list(self.holders),
            "guests": [{"id": g.guest_id, "name": g.name, "secret_hash": g.secret_hash} for g in self.guests.values()],
            "chat": self.chat, "chat_count": self.chat_count,
            "dice": None if self.dice is None else {
                **self.dice.public(), "seed": self.dice.seed},
        }

    @classmethod
    def from_json(cls, data, now: float, on_change=None) -> "RoomHost":
        """Resume the host's room after a reload; ValueError (schema.Invalid for the save's
        shape, ROOM_SAVE) when the save cannot be trusted."""
        data = ROOM_SAVE.check(data)
        try:
            table = Table.from_json(data["table"])
        except ValueError as err:
            raise ValueError(f"the room cannot be resumed: {err}") from err
        room = cls(table, data["created"], data["host"], symbols=data["symbols"], on_change=on_change)
        room.room_id, room.token, room.expires = data["room"], data["token"], data["expires"]
        holders = data["holders"]
        guests = {}
        for g in data["guests"]:
            guest = Guest(g["id"], clean_text(g["name"], MAX_NAME) or "?", g["secret_hash"])
            guests[guest.guest_id] = guest
        if len(holders) != len(table.seats) or any(h != HOST and h not in guests for h in holders):
            raise ValueError("the room cannot be resumed: seat holders do not match")
        room.holders, room.guests = holders, guests
        room.chat = [{**line, "who": clean_text(line["who"], MAX_NAME), "text": clean_text(line["text"], MAX_CHAT)}
                     for line in data["chat"][-CHAT_HISTORY:]]
        room.chat_count = data["chat_count"]
        dice = data["dice"]
        room.dice = None
        if dice is not None:
            log = DiceLog(dice["game"], dice["seed"], dice["commit"])
            if fairdice.commitment(log.seed) != log.commit:
                raise ValueError("the room cannot be resumed: dice seed does not match its commitment")
            log.entropies = [tuple(e) for e in dice["entropies"]]
            log.throws = [(i, mix, tuple(sides), values) for i, mix, sides, values in dice["throws"]]
            room.dice = log
        elif table.match is not None and not table.state.is_terminal():
            room._new_dice()
        return room


class RoomDice:
    """A dice roller for the host's play controller (like rng.DiceRoller): while the table is
    hosted, every throw comes from the room's commit–reveal dice."""

    def __init__(self, room: RoomHost) -> None:
        self.room = room

    def roll(self, state) -> str:
        return self.room.throw(self.room.table.match.index)


class TableDoor:
    """The plain door: moves go straight to the table, and the dice nobody in particular throws
    are thrown at once (the app's play controller does both itself, with its pacing)."""

    def __init__(self, table: Table, room: RoomHost) -> None:
        self.table, self.room = table, room

    def submit(self, seat: int, move: str, index: int) -> None:
        self.table.submit(seat, move, index)
        self.room.moved(seat, move, index)
        self.started()

    def take_back(self, seat: int, at: int, index: int) -> None:
        self.table.take_back(seat, at, index)
        self.room.taken_back(seat, at, index)

    def seats_changed(self, remote: set[int]) -> None:
        pass  # nobody here to wait or think

    def started(self) -> None:
        state = self.table.state
        if state is not None and state.is_chance() and state.roller() is None:
            index = self.table.match.index
            self.submit(CHANCE, self.room.throw(index), index)


# The host's save (RoomHost.to_json), checked whole before any field is used (pygame_core.schema).
def _token_text(limit: int) -> Text:
    return Text(limit, 1, test=lambda v: v.replace("-", "").replace("_", "").isalnum())


HEX = Text(128, 1, test=lambda v: all(c in "0123456789abcdef" for c in v))
SECONDS = Number(0, 2**53)
ROOM_SAVE = Fields({
    "format": Choice("dicehall-room"), "version": Choice(1),
    "room": _token_text(40), "token": _token_text(64), "created": SECONDS, "expires": SECONDS,
    "host": Text(1000), "symbols": ListOf(Text(16), 8),
    "table": MapOf(Text(40), Any(), 20),  # (Table.from_json checks it further)
    "holders": ListOf(Text(64), 8),
    "guests": ListOf(Fields({"id": _token_text(64), "name": Text(1000), "secret_hash": HEX}), MAX_GUESTS),
    "chat": ListOf(Fields({"id": Int(0, 2**53), "who": Text(1000), "seat": Maybe(Int(0, 7)), "text": Text(10_000),
                           "at": SECONDS}), 10_000),
    "chat_count": Int(0, 2**53),
    "dice": Maybe(Fields({
        "game": Int(0, 2**53), "seed": HEX, "commit": HEX,
        "entropies": ListOf(Tuple(_token_text(64), HEX), 100_000),
        "throws": ListOf(Tuple(Int(0, 10**7), HEX, ListOf(Int(1, 10**6), 100), ListOf(Int(0, 10**6), 100)), 1_000_000),
    })),
    "direct": Field(Choice(True, False), optional=True, default=False),  # (web/dicehall/roomdesk.py's)
    # A successor's (succession.py checks them): its claim, and the seats kept for the old host.
    "succession": Field(Any(), optional=True, default=None),
    "returning": Field(Any(), optional=True, default=None),
})
