"""A room before the game (issue 31, item 1): the room is open while its host chooses the game.

A room is *choosing* while its table has no game yet (`table.match is None`): the table is the
host's set-up — the game, its options and the seats — and every guest sees it in each `room`
message, as ever. The host changes it (`choose`); a guest asks for a seat with the `seat`
message of today: a computer's seat is theirs at once, a seat of a person at the host's phone
is asked for (the host has `REQUEST_SECONDS` to keep it, as during a game), and a seat another
guest holds is refused (`room.seat_taken`: while choosing, nobody is asked to give up a seat
they just took). The host starts the game (`start`): the record begins, with fresh fair dice,
and the seats stay with whoever holds them. When a game is over the host may take the room back
to choosing (`reopen`): the same people, their seats kept, another game or the same again.

Out of state, refused with a catalog code and nothing changed: a move, a take-back or an entropy
while choosing (no game: `error.no_game`, `error.cannot_take_back`, `room.stale_entropy`), asking
to sit in while choosing (`room.choosing`: take a seat on the set-up instead), the host's
`choose` or `start` while a game runs (`room.game_running`), `reopen` before the end. A guest
has no message that starts a game or changes the set-up (an unknown kind is a bad message).

Rulings (the issue is silent): a seat a guest holds keeps the guest's name and plays as a
person whatever the host's set-up says of it; fewer seats send the guests of the seats cut off
back to watching; a changed set-up drops the seat requests waiting for seats that are gone,
changed hands or changed between person and computer; a new set-up starts with fresh standings
(the results of the game before were on everybody's screen).
"""

from __future__ import annotations

from ..protocol import IllegalMove
from ..registry import entries
from ..table import Table
from .host import HOST, RoomHost, TableDoor


def choosing(room: RoomHost) -> bool:
    """The room has no game yet: its host is choosing one (and its seats)."""
    return room.table.match is None


def setup_of(room: RoomHost) -> dict:
    """The room's set-up as the app's set-up draft: {"game", "seats", "options"}."""
    table = room.table
    return {"game": table.game, "seats": [dict(s) for s in table.seats], "options": dict(table.extra_options)}


def choose(room: RoomHost, game: str, seats: list[dict], options: dict) -> bool:
    """The host's set-up for the next game (IllegalMove when a game runs or the rules refuse it);
    True when it changed (the guests are sent the room)."""
    if not choosing(room):
        raise IllegalMove("room.game_running", "A game is running.")
    if game not in entries():
        raise IllegalMove("room.no_game", "There is no such game.")
    n = len(seats) if isinstance(seats, list) else 0
    holders = [room.holders[i] if i < len(room.holders) else HOST for i in range(n)]
    mine = []
    for seat, holder in zip(seats, holders):
        seat = dict(seat)
        guest = room.guests.get(holder)
        if guest is not None:
            seat.update(name=guest.name, ai=None)
        mine.append(seat)
    try:
        table = Table(game, mine, options)
    except ValueError:  # a seat count or an option the game does not have
        raise IllegalMove("room.bad_setup", "The game cannot be played so.") from None
    old = room.table
    if (table.game, table.seats, table.extra_options, holders) == (old.game, old.seats, old.extra_options, room.holders):
        return False
    for req in list(room.requests.values()):
        if req.seat >= n or holders[req.seat] != req.holder or table.seats[req.seat]["ai"] != old.seats[req.seat]["ai"]:
            del room.requests[req.request]
    room.table, room.holders, room.joining = table, holders, []
    if isinstance(room.door, TableDoor):
        room.door.table = table
    room._seats_changed()
    return True


def start(room: RoomHost, rng) -> None:
    """The host starts the game chosen: its record begins (fresh fair dice) for everybody."""
    if not choosing(room):
        raise IllegalMove("room.game_running", "A game is running.")
    room.new_game(rng)


def reopen(room: RoomHost) -> None:
    """After a game: the room chooses again, with the same people in the same seats."""
    state = room.table.state
    if state is None:
        return
    if not state.is_terminal():
        raise IllegalMove("room.game_running", "A game is running.")
    old = room.table
    room.table = Table(old.game, [dict(s) for s in old.seats], dict(old.extra_options))
    room.dice, room._throwing, room.joining = None, None, []
    room.requests.clear()
    if isinstance(room.door, TableDoor):
        room.door.table = room.table
    room._send_rooms()
    room.on_change("game")
