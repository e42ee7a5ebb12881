"""The room before the game in the app (issue 31, item 1; the protocol is
pygame_core/rooms/lobby.py): "Play online" on Home opens a room with no game yet at `#/room`.
Friends join by the link or the QR code as ever and chat; the host chooses the game, its options
and the seats on the set-up it knows (its draft is the set-up screen's, `app.setup`), which every
guest sees read-only with who holds each seat; a guest asks for a seat from there. Start begins
the record on every phone and the play screens open as in any room. After the game the host's
"Choose another game" takes the room back to choosing with the same people.

The host's draft goes to the room on each of the host's taps here and on the room desk's tick
(a typed name or a changed select between taps: within a second). Seats a guest holds are the
room's, shown, not edited. While choosing, the host's own table (a game of its own, running or
not) is untouched: the room's door is not the play controller until Start, which puts the
host's unfinished game of another game aside as a set-up does (one of the same game is
replaced). A reload while choosing brings the room back from its save (`RoomDesk.boot`).
"""

from __future__ import annotations

import random

from pygame_core.protocol import IllegalMove
from pygame_core.registry import entries
from pygame_core.rooms import lobby
from pygame_core.rooms.host import HOST, RoomHost, TableDoor
from pygame_core.table import MAX_NAME, Table

from . import shelf, store
from .rooms import host_table
from .screens import setup as setup_screen

ROUTE = "#/room"


def hosting_lobby(desk) -> RoomHost | None:
    """The room this phone hosts while it chooses its game, else None."""
    room = desk.hosting.room if desk.hosting is not None else None
    return room if room is not None and lobby.choosing(room) else None


def adopt(desk, draft: dict) -> dict:
    """`draft` is the lobby's set-up from now on (the set-up screen's `app.setup`): only this
    draft, edited on `#/room`, goes to the room (a set-up made meanwhile for a game of this
    phone's own never does)."""
    desk.app.setup = desk.lobby_draft = draft
    return draft


def draft_of(desk, room: RoomHost) -> dict:
    """The lobby's draft, or the room's set-up anew when the set-up screen took `app.setup` over."""
    draft = desk.app.setup
    if draft is None or draft is not getattr(desk, "lobby_draft", None) or draft.get("game") != room.table.game:
        draft = adopt(desk, lobby.setup_of(room))
    return draft


def open_lobby(desk) -> None:
    """Home's "Play online": a room with no game yet (or back to the room open already)."""
    app = desk.app
    if desk.guesting is not None:
        app.say(app.t("lobby.guest_first"), error=True)
        return
    if desk.hosting is not None:
        app.go(ROUTE if hosting_lobby(desk) else "#/play")
        return
    game = app.play.table.game if app.play.table is not None else next(iter(entries()))
    draft = setup_screen.default_setup(app, game)
    people = [s["name"] for s in draft["seats"] if not s["ai"]]
    room = RoomHost(Table(game, draft["seats"], draft["options"]), app.clock(), people[0] if people else app.t("room.host"))
    desk._host(room)
    adopt(desk, lobby.setup_of(room))
    app.go(ROUTE)


def resume(desk, room: RoomHost, direct: bool) -> None:
    """The hosted room came back from its save while choosing (a reload): as it was."""
    desk._host(room, direct)
    adopt(desk, lobby.setup_of(room))


def push(desk) -> None:
    """The host's draft to the room (guests are sent it when it changed); the seats guests hold
    come back into the draft as the room has them."""
    app, room = desk.app, hosting_lobby(desk)
    if room is None or app.route()[0] != "room":
        return  # (only what the host edits on the room's own screen)
    draft = app.setup
    if draft is None or draft is not getattr(desk, "lobby_draft", None) or draft.get("game") not in entries():
        adopt(desk, lobby.setup_of(room))
        return
    seats = [{"name": s["name"].strip()[:MAX_NAME] or setup_screen.default_name(app, i, bool(s["ai"])),
              "symbol": s["symbol"], "ai": s["ai"]} for i, s in enumerate(draft["seats"])]
    people = [s["name"] for s, holder in zip(seats, room.holders + [HOST] * len(seats)) if holder == HOST and not s["ai"]]
    if people:
        room.host_name = people[0]  # (the name its guests know the host by: its first person's seat)
    try:
        lobby.choose(room, draft["game"], seats, draft["options"])
    except IllegalMove as err:
        app.say(app.t(err.code), error=True)
        adopt(desk, lobby.setup_of(room))
        return
    for seat, holder in enumerate(room.holders):
        if holder != HOST and seat < len(draft["seats"]):
            draft["seats"][seat] = dict(room.table.seats[seat])


def choose_game(desk, game: str) -> None:
    """Another game for the room: its remembered set-up (or the default)."""
    app = desk.app
    if hosting_lobby(desk) is None or game not in entries():
        return
    adopt(desk, setup_screen.default_setup(app, game))
    push(desk)


def start(desk) -> None:
    """Start: the room's game begins on every phone; the host's play screen opens."""
    app, room = desk.app, hosting_lobby(desk)
    if room is None:
        return
    push(desk)
    play, table = app.play, room.table
    running = play.table
    if play.running and shelf.unfinished(running) and running.game != table.game and not app.life.park_running():
        app.say(app.t("save.failed"), error=True)
        return
    parked = app.life.parked()
    if parked.pop(table.game, None) is not None:
        app.store.put_json(store.PARKED, parked)
    play.load(table)
    host_table(play, room)
    lobby.start(room, random.Random(app.page.random_seed()))
    app.life.forget_saved_game()
    play.save()
    app.go("#/play", replace=True)
    play.kick()


def reopen(desk) -> None:
    """"Choose another game" after a game: the room chooses again, the same people kept; the
    finished game stays this phone's (its results, History)."""
    app = desk.app
    room = desk.hosting.room if desk.hosting is not None else None
    if room is None or room.table.state is None or not room.table.state.is_terminal():
        return
    play = app.play
    if room in play.observers:
        play.observers.remove(room)
    play.roller = app.dice_roller
    play.remote = set()
    lobby.reopen(room)
    room.door = TableDoor(room.table, room)
    adopt(desk, lobby.setup_of(room))
    app.go(ROUTE)


def handle(desk, action: str, arg) -> bool:
    """The lobby's taps ("room-lobby-…"); False for any other action."""
    app = desk.app
    if action == "room-lobby-open":
        open_lobby(desk)
    elif action == "room-lobby-again":
        reopen(desk)
    elif not action.startswith("room-lobby-"):
        return False
    elif hosting_lobby(desk) is None:
        return True  # (a tap from a screen drawn before the game started)
    elif action == "room-lobby-game":
        choose_game(desk, str(arg))
    elif action == "room-lobby-start":
        start(desk)
        return True
    elif action in SETUP_TAPS:
        SETUP_TAPS[action](app, arg)  # the set-up screen's own (it draws again)
        push(desk)
    app.render()
    return True


def render(desk) -> str:
    """`#/room` (screens/room_lobby.py)."""
    from .screens.room_lobby import render_host

    return render_host(desk)


SETUP_TAPS = {"room-lobby-count": setup_screen.seat_count, "room-lobby-symbol": setup_screen.symbol,
              "room-lobby-option": setup_screen.option}
