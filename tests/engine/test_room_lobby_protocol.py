"""A room before the game (pygame_core/rooms/lobby.py) without a browser: a room opened with no
game yet, guests let in and chatting, seats claimed on the set-up (a computer's at once, a
person's at the host's phone asked for, another guest's refused), the host's choice mirrored,
the game started and played to its end, the room choosing again with the same people; what is
out of state refused with its code; a reload while choosing keeps the room and its people."""

from __future__ import annotations

import json
import random

import pytest

from pygame_core.protocol import IllegalMove
from pygame_core.rooms import lobby
from pygame_core.rooms.host import HOST, REQUEST_SECONDS, RoomHost
from pygame_core.rooms.memory import Hub
from pygame_core.rooms.messages import encode
from pygame_core.table import Table

from test_rooms import Clock, act, admit


def choosing_room() -> tuple[RoomHost, Hub, Clock]:
    """Ann's room with no game yet: her set-up is Cephalopod 3×3, herself and the computer."""
    clock = Clock()
    table = Table("cephalopod", [{"name": "Ann", "symbol": "●", "ai": None},
                                 {"name": "Computer", "symbol": "▲", "ai": "random"}], {"size": 3})
    host = RoomHost(table, clock(), "Ann")
    return host, Hub(host, clock), clock


def errors_after(hub, guest, conn, text: str) -> list[str]:
    seen = len(guest.errors)
    conn.send(text)
    hub.run()
    return guest.errors[seen:]


def test_choosing_seats_claimed_start_a_whole_game_and_choosing_again():
    host, hub, clock = choosing_room()
    assert lobby.choosing(host) and host.dice is None
    bo, bo_conn = admit(host, hub, "Bo")
    cy, cy_conn = admit(host, hub, "Cy")
    # Chat before the game, heard by all.
    cy_conn.send(cy.say("hello before the game"))
    hub.run()
    assert [line["text"] for line in bo.chat] == ["hello before the game"] == [line["text"] for line in host.chat]
    # The host's choice is mirrored: Rolf, three seats.
    assert lobby.choose(host, "rolf", [{"name": "Ann", "symbol": "●", "ai": None},
                                       {"name": "Robot", "symbol": "▲", "ai": "greedy"},
                                       {"name": "Hal", "symbol": "■", "ai": "greedy"}], {})
    hub.run()
    assert bo.table.game == "rolf" and len(bo.table.seats) == 3 and bo.table.record is None
    # Bo claims a computer's seat: his at once, under his name, played by a person.
    bo_conn.send(bo.ask_seat(1))
    hub.run()
    assert host.holders == [HOST, bo.guest_id, HOST] and bo.seat == 1
    assert host.table.seats[1] == {"name": "Bo", "symbol": "▲", "ai": None} == cy.table.seats[1]
    # Cy claims Bo's seat: refused while choosing; the seat stays Bo's.
    assert errors_after(hub, cy, cy_conn, cy.ask_seat(1)) == ["room.seat_taken"]
    assert host.holders[1] == bo.guest_id and not bo.requests
    # Cy asks for Ann's seat (a person at the host's phone): Ann keeps it.
    cy_conn.send(cy.ask_seat(0))
    hub.run()
    request = next(iter(host.requests))
    host.answer(request, False, clock())
    hub.run()
    assert host.holders[0] == HOST and cy.errors[-1] == "room.seat_refused"
    # The host's set-up changes again (a symbol, a name): Bo's seat keeps him and his name.
    seats = lobby.setup_of(host)["seats"]
    seats[1]["name"], seats[2]["symbol"] = "Anything", "◆"
    lobby.choose(host, "rolf", seats, {})
    hub.run()
    assert host.table.seats[1]["name"] == "Bo" and cy.table.seats[2]["symbol"] == "◆"
    assert not lobby.choose(host, "rolf", lobby.setup_of(host)["seats"], {})  # no change, nothing sent
    # Cy takes the other computer's seat; the host starts: the record begins for everybody.
    cy_conn.send(cy.ask_seat(2))
    hub.run()
    lobby.start(host, random.Random(4))
    hub.run()
    assert not lobby.choosing(host) and host.dice is not None
    assert bo.table.record is not None and bo.table.record.moves == host.table.record.moves
    guests = {bo.guest_id: (bo, bo_conn), cy.guest_id: (cy, cy_conn)}
    rng = random.Random(8)
    for _ in range(3000):
        if host.table.state.is_terminal():
            break
        act(host, hub, guests, rng)
    assert host.table.state.is_terminal()
    for guest in (bo, cy):
        assert guest.table.record.moves == host.table.record.moves and guest.dice_check == "ok"
    # After the game: choosing again, the same people in the same seats, no game, no dice.
    lobby.reopen(host)
    hub.run()
    assert lobby.choosing(host) and host.holders == [HOST, bo.guest_id, cy.guest_id]
    for guest in (bo, cy):
        assert guest.table.record is None and guest.dice is None and guest.seat is not None
    lobby.choose(host, "cephalopod", lobby.setup_of(host)["seats"][:2], {"size": 3})
    hub.run()
    assert host.holders == [HOST, bo.guest_id] and cy.seat is None  # the seat cut off: Cy watches
    lobby.start(host, random.Random(5))
    hub.run()
    assert cy.table.game == "cephalopod" and cy.table.record.moves == host.table.record.moves


def test_out_of_state_messages_are_refused_and_a_guest_cannot_start_or_choose():
    host, hub, clock = choosing_room()
    bo, bo_conn = admit(host, hub, "Bo")
    bo_conn.send(bo.ask_seat(1))
    hub.run()
    before = json.dumps(host.to_json())
    # While choosing: no move, take-back, entropy or sitting in.
    assert errors_after(hub, bo, bo_conn, encode("intent", seat=1, move="a1", index=0)) == ["error.no_game"]
    assert errors_after(hub, bo, bo_conn, encode("intent", seat=1, move="roll", index=0)) == ["error.no_game"]
    assert errors_after(hub, bo, bo_conn, encode("takeback", seat=1, at=0, index=0)) == ["error.cannot_take_back"]
    assert errors_after(hub, bo, bo_conn, encode("entropy", game=0, value="ab" * 32)) == ["room.stale_entropy"]
    cy, cy_conn = admit(host, hub, "Cy")  # (a guest with no seat: Bo has one already)
    assert errors_after(hub, cy, cy_conn, encode("join")) == ["room.choosing"]
    # A guest has no way to start the game or change the set-up: unknown kinds are bad messages.
    assert errors_after(hub, bo, bo_conn, encode("start")) == ["room.bad_message"]
    assert errors_after(hub, bo, bo_conn, encode("choose", game="rolf")) == ["room.bad_message"]
    assert json.loads(before)["table"] == host.to_json()["table"] and lobby.choosing(host)
    # The host's own calls out of state, or with a set-up the game refuses.
    with pytest.raises(IllegalMove) as err:
        lobby.choose(host, "cephalopod", lobby.setup_of(host)["seats"], {"size": 7})
    assert err.value.code == "room.bad_setup"
    with pytest.raises(IllegalMove) as err:
        lobby.choose(host, "chess", lobby.setup_of(host)["seats"], {})
    assert err.value.code == "room.no_game"
    lobby.reopen(host)  # no game to leave: nothing happens
    assert lobby.choosing(host)
    lobby.start(host, random.Random(1))
    hub.run()
    for call in (lambda: lobby.start(host, random.Random(2)), lambda: lobby.reopen(host),
                 lambda: lobby.choose(host, "rolf", lobby.setup_of(host)["seats"], {})):
        with pytest.raises(IllegalMove) as err:
            call()
        assert err.value.code == "room.game_running"
    # A seat request waiting for a seat that changed on the set-up is dropped.
    host2, hub2, clock2 = choosing_room()
    cy, cy_conn = admit(host2, hub2, "Cy")
    cy_conn.send(cy.ask_seat(0))  # Ann's seat: asked, 30 s
    hub2.run()
    assert host2.requests
    seats = lobby.setup_of(host2)["seats"]
    seats[0]["ai"] = "random"
    lobby.choose(host2, "cephalopod", seats, {"size": 3})  # seat 0 changed: the request ends
    assert not host2.requests


def test_a_reload_while_choosing_keeps_the_room_and_its_people():
    host, hub, clock = choosing_room()
    bo, bo_conn = admit(host, hub, "Bo")
    bo_conn.send(bo.ask_seat(1))
    cy, cy_conn = admit(host, hub, "Cy")
    cy_conn.send(cy.say("still here"))
    hub.run()
    host2 = RoomHost.from_json(json.loads(json.dumps(host.to_json())), clock())
    assert lobby.choosing(host2) and host2.holders == [HOST, bo.guest_id] and host2.dice is None
    assert set(host2.guests) == {bo.guest_id, cy.guest_id} and host2.chat[-1]["text"] == "still here"
    assert host2.table.extra_options == {"size": 3}
    hub2 = Hub(host2, clock)
    from pygame_core.rooms.guest import RoomGuest

    bo2 = RoomGuest("Bo", bo.guest_id, bo.secret)
    hub2.connect(bo2)
    hub2.run()
    assert bo2.status == "in" and bo2.seat == 1 and bo2.table.record is None
    clock.t += REQUEST_SECONDS
    lobby.start(host2, random.Random(3))
    hub2.run()
    assert bo2.table.record.moves == host2.table.record.moves
