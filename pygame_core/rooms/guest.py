"""A guest's side of a room: its mirror of the host's table, its intents, and the dice check.

The guest never decides anything: it replays what the host broadcasts through its own copy of
the engine (`Table.submit`), so a host page that sent an impossible move or skipped one is
noticed (the guest asks for the whole room again, `sync`). Every throw's `mix` must be the digest
of the entropies announced before it, the guest's own included once announced; when the game
ends the revealed seed must match the commitment and produce every throw (`dice_check`).
"""

from __future__ import annotations

import secrets

from ..protocol import CHANCE, IllegalMove
from ..table import SaveError, Table
from . import fairdice
from .messages import BadMessage, encode, parse_from_host


class RoomGuest:
    """`door`, when given (the guest app's play controller), applies what the host sends and
    redraws: `submit(seat, move, index)`, `take_back(seat, at, index)`, `replace(table)` (a whole
    new table), `seats_changed(remote)` (every seat but mine is played elsewhere)."""

    def __init__(self, name: str, guest_id: str | None = None, secret: str | None = None, door=None) -> None:
        self.door = door
        self.name = name
        self.guest_id = guest_id
        self.secret = secret  # kept by the app (local storage) to come back without approval
        self.status = "new"  # new → pending → in, or refused
        self.reason: str | None = None  # why refused, or "room.unreadable"
        self.room: str | None = None
        self.table: Table | None = None
        self.holders: list[str] = []
        self.joining: list[str] = []  # guests who sit in from the next game
        self.guests: list[dict] = []
        self.chat: list[dict] = []
        self.requests: list[dict] = []  # requests for my seat (to answer) or mine (waiting)
        self.errors: list[str] = []  # catalog codes the host sent back, newest last
        self.dice: dict | None = None  # game, commit, entropies, throws
        self.dice_check: str | None = None  # None until a reveal; "ok" or what did not match
        self.entropy_sent: int | None = None
        self.about: dict = {}  # the room's expiry, host and keys, as the last snapshot said
        self.handover: dict | None = None  # after a hand-over to a new host (succession.py)
        # This guest's place is played in another page of theirs (a tab of the same browser):
        # "open" (it was there when this page said hello), "moved" (that page took it over from
        # this one); None while this page holds it. The host has closed this page's link.
        self.elsewhere: str | None = None

    # --- what the guest sends ----------------------------------------------------------
    def hello(self, tab: str | None = None, take: bool = False) -> str:
        """Ask in, or come back; `tab` names this page, `take` takes this guest's place over from
        another page of theirs that plays it now (host.py)."""
        if tab is None:
            return encode("hello", name=self.name, guest=self.guest_id, secret=self.secret)
        return encode("hello", name=self.name, guest=self.guest_id, secret=self.secret, tab=tab, take=take)

    @property
    def seat(self) -> int | None:
        return self.holders.index(self.guest_id) if self.guest_id in self.holders else None

    def intent(self, move: str, index: int | None = None) -> str:
        """My move (or "roll") on the position I see (or on `index`: the next of several)."""
        return encode("intent", seat=self.seat, move=move, index=self.table.match.index if index is None else index)

    def take_back(self, at: int, index: int | None = None) -> str:
        return encode("takeback", seat=self.seat, at=at, index=self.table.match.index if index is None else index)

    def ask_seat(self, seat: int) -> str:
        return encode("seat", seat=seat)

    def answer(self, request: str, accept: bool) -> str:
        return encode("answer", request=request, accept=accept)

    def sit_in(self) -> str:
        """Ask to play from the next game as an extra player (between games)."""
        return encode("join")

    def say(self, text: str) -> str:
        return encode("chat", text=text)

    def entropy(self) -> str | None:
        """My share of this game's dice randomness, once per game (None when sent already)."""
        if self.dice is None or self.entropy_sent == self.dice["game"] or \
                any(guest == self.guest_id for guest, _ in self.dice["entropies"]):
            return None  # sent already (also before a reload of this page: the host announced it)
        self.entropy_sent = self.dice["game"]
        return encode("entropy", game=self.dice["game"], value=secrets.token_hex(32))

    # --- what the guest receives ----------------------------------------------------------
    def received(self, text) -> list[str]:
        """Apply one host message; returns what the app should send back (a sync when the
        mirror went wrong, this game's entropy when a new commitment arrives)."""
        try:
            msg = parse_from_host(text)
        except BadMessage:
            return []
        try:
            return getattr(self, f"_on_{msg['kind']}", self._on_unknown)(msg)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            # A whole room that cannot be read is not asked for again (that could loop); a
            # broken update is mended by taking the whole room.
            if msg["kind"] in ("room", "welcome"):
                self.reason = "room.unreadable"
                return []
            return [encode("sync")] if self.status == "in" else []

    def _on_unknown(self, msg: dict) -> list[str]:
        return []

    def _on_pending(self, msg: dict) -> list[str]:
        self.status, self.room = "pending", str(msg["room"])
        return []

    def _on_refused(self, msg: dict) -> list[str]:
        self.status, self.reason = "refused", str(msg["reason"])
        return []

    def _on_welcome(self, msg: dict) -> list[str]:
        self.elsewhere = None
        self.guest_id = str(msg["guest"])
        if msg.get("secret"):
            self.secret = str(msg["secret"])
        self.status = "in"
        return self._on_room(msg)

    def _on_room(self, msg: dict) -> list[str]:
        room = msg["room"]
        try:
            self.table = Table.from_json(room["table"])
        except SaveError:
            return [encode("sync")]
        self.room = str(room["room"])
        self.holders = [str(h) for h in room["holders"]]
        self.joining = [str(g) for g in room.get("joining", [])]
        if self.door is not None:
            self.door.replace(self.table)
            self.door.seats_changed({s for s, holder in enumerate(self.holders) if holder != self.guest_id})
        self.guests = list(room["guests"])
        # What a successor needs of this room if its host is lost (unchecked here: succession.py
        # checks it when it is used): its expiry, the host's name and key, a hand-over's claim.
        self.about = {k: room.get(k) for k in ("expires", "host", "host_key", "succession")}
        self.chat = list(room["chat"])
        dice = room["dice"]
        self.dice = None
        if dice is not None:
            self.dice = {"game": int(dice["game"]), "commit": str(dice["commit"]),
                         "entropies": [(str(g), str(v)) for g, v in dice["entropies"]], "throws": []}
            self._past_throws(dice["throws"])
            if dice.get("seed") is not None and self.dice_check is None:  # (let in after the reveal)
                self._on_reveal({"game": self.dice["game"], "seed": str(dice["seed"]), "commit": self.dice["commit"]})
        out = self.entropy()
        return [out] if out else []

    def _past_throws(self, throws) -> None:
        """The throws of this game made before I joined, as the host logged them: each must be
        the throw in the record at its index; the reveal checks the values themselves."""
        record = self.table.record
        if record is None or not throws:
            return
        befores = {i: (move, before) for i, (_, move, before) in enumerate(record.states())}
        for i, mix, sides, values in throws:
            values = [int(v) for v in values]
            move, before = befores.get(int(i), (None, None))
            if before is None or not before.is_chance() or before.chance_move(values) != move:
                self.dice_check = "a logged throw does not match the game"
            self.dice["throws"].append((int(i), str(mix), tuple(int(s) for s in sides),
                                        lambda v, values=values: list(v) == values))

    def _on_move(self, msg: dict) -> list[str]:
        index, seat, move = msg["index"], msg["seat"], msg["move"]
        match = self.table.match if self.table else None
        if match is None or index != match.index:
            return [encode("sync")]  # a move missed or doubled: take the whole room again
        state = match.state
        if seat == CHANCE and self.dice is not None:
            if msg.get("mix") != fairdice.mix_digest(self.dice["entropies"]):
                self.dice_check = "a throw left out the announced entropy"
            canon = state.clone().chance_move  # the game's notation for thrown values
            self.dice["throws"].append((index, str(msg.get("mix")), tuple(state.chance()),
                                        lambda v, canon=canon, move=move: canon(list(v)) == move))
        try:
            (self.door or self.table).submit(seat, move, index)
        except IllegalMove:
            return [encode("sync")]
        return []

    def _on_takeback(self, msg: dict) -> list[str]:
        try:
            (self.door or self.table).take_back(msg["seat"], msg["at"], msg["index"])
        except IllegalMove:
            return [encode("sync")]
        return []

    def _on_entropy(self, msg: dict) -> list[str]:
        if self.dice is not None and msg["game"] == self.dice["game"] and \
                all(guest != msg["guest"] for guest, _ in self.dice["entropies"]):  # (a host takes one per guest: a second is a message sent twice)
            self.dice["entropies"].append((str(msg["guest"]), str(msg["value"])))
        return []

    def _on_reveal(self, msg: dict) -> list[str]:
        if self.dice is None or msg["game"] != self.dice["game"]:
            return []
        if msg["commit"] != self.dice["commit"]:
            self.dice_check = "the host changed its commitment"
            return []
        throws = [(mix, sides, accepts) for _, mix, sides, accepts in self.dice["throws"]]
        problem = fairdice.verify(str(msg["seed"]), self.dice["commit"], self.dice["game"], throws)
        if self.dice_check is None:
            self.dice_check = problem or "ok"
        return []

    def _on_chat(self, msg: dict) -> list[str]:
        self.chat.append(msg["line"])
        del self.chat[:-200]
        return []

    def _on_request(self, msg: dict) -> list[str]:
        self.requests.append({k: msg[k] for k in ("request", "seat", "by", "deadline", "yours")})
        return []

    def _on_error(self, msg: dict) -> list[str]:
        self.errors.append(str(msg["code"]))
        del self.errors[:-20]
        if msg["code"] == "error.stale_move":
            return [encode("sync")]
        return []

    def _on_pong(self, msg: dict) -> list[str]:
        return []

    def _on_elsewhere(self, msg: dict) -> list[str]:
        self.elsewhere = "open"
        return []

    def _on_replaced(self, msg: dict) -> list[str]:
        self.elsewhere = "moved"
        return []
