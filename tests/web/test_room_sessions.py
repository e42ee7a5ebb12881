"""The app's room sessions under CPython: a host phone and a guest phone, each its own app
(FakeHost and play controller), joined by the in-memory transport — the same calls and events the
browser's PeerJS transport makes. Open a local game for others, approve, take an AI seat, play to
the end, heartbeat, and both sides' reloads."""

from __future__ import annotations

import json
import random

import pytest

from dicehall.gameview import Move, Roll
from dicehall.rooms import GuestSession, HostSession, MemoryTransport, host_table, saved_guest, valid_room_id
from fakehost import Clock, FakeHost, run as run_async, settle
from pygame_core import ai
from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import RoomHost
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


class Store:
    def __init__(self) -> None:
        self.text: str | None = None

    def __call__(self, text: str) -> bool:
        self.text = text
        return True


def host_phone(clock, net, store, moves: int = 6):
    """Ann's phone: a Rolf game against two computer seats, some moves in, opened for others."""
    host = FakeHost("en", {"pace": "fast"})
    host.open_game("rolf")
    table = Table("rolf", [{"name": "Ann", "symbol": "●", "ai": None},
                           {"name": "Robot", "symbol": "▲", "ai": "easy"},
                           {"name": "Hal", "symbol": "■", "ai": "easy"}])
    table.new_game(random.Random(3))
    rng = random.Random(1)
    for _ in range(moves):  # the local game so far: kept when the room opens
        state = table.state
        if state.is_chance():
            table.submit(-1, state.chance_move([rng.randint(1, s) for s in state.chance()]), table.match.index)
        else:
            seat = state.current_players()[0]
            table.submit(seat, ai.choose_move(state, seat, "greedy", rng), table.match.index)
    host.play.load(table)
    room = RoomHost(table, clock(), "Ann", door=host.play)
    host_table(host.play, room)
    session = HostSession(room, net, clock, store)
    session.start()
    return host, session


def guest_phone(clock, net, store, room_id: str, name="Bo", guest_id=None, secret=None):
    phone = FakeHost("en", {"pace": "fast"})
    phone.open_game("rolf")
    guest = RoomGuest(name, guest_id, secret, door=phone.play)
    session = GuestSession(guest, room_id, net, clock, store)
    phone.play.outbox = session
    session.start()
    return phone, session


def seated_guest(clock, net, hs: HostSession, guest_store, seat: int):
    """Bo asks to join from his phone, the host lets him in, and he takes `seat` (a computer's)."""
    phone, gs = guest_phone(clock, net, guest_store, hs.room.room_id)
    net.deliver()
    hs.room.approve(next(iter(hs.room.pending)))
    net.deliver()
    gs.ask_seat(seat)
    net.deliver()
    return phone, gs


def test_open_a_local_game_approve_a_guest_who_takes_an_ai_seat_and_plays_to_the_end():
    async def steps():
        clock, net, host_store, guest_store = Clock(), MemoryTransport(), Store(), Store()
        host, hs = host_phone(clock, net, host_store)
        played_before = list(host.play.table.record.moves)
        net.deliver()
        assert hs.status == "open" and valid_room_id(hs.room.room_id)
        assert hs.share_path() == f"#/join/{hs.room.room_id}" and hs.room.token not in hs.share_path()
        saved = json.loads(host_store.text)
        assert saved["token"] == hs.room.token  # the host's own save: only on its phone
        phone, gs = guest_phone(clock, net, guest_store, hs.room.room_id)
        net.deliver()
        assert gs.guest.status == "pending" and len(hs.room.pending) == 1
        hs.room.approve(next(iter(hs.room.pending)))
        net.deliver()
        assert gs.guest.status == "in" and phone.play.running
        assert phone.play.table.record.moves == played_before  # the game so far, board and scores
        kept = saved_guest(json.loads(guest_store.text))
        assert kept["guest"] == gs.guest.guest_id and kept["secret"] == gs.guest.secret
        gs.ask_seat(2)  # Hal, the computer's: taken at once
        net.deliver()
        assert gs.guest.seat == 2 and host.play.remote == {2} and phone.play.remote == {0, 1}
        rng = random.Random(8)
        for _ in range(4000):
            clock.t += 0.3
            hs.tick()
            gs.tick()
            await settle(host)
            net.deliver()
            state = host.play.table.state
            if state.is_terminal():
                break
            if host.play.acting_seat() == 0:
                index = host.play.table.match.index
                if state.is_chance():
                    assert host.play.propose(Roll(0), index)
                else:
                    assert host.play.propose(Move(0, ai.choose_move(state, 0, "greedy", rng)), index)
            elif phone.play.acting_seat() == 2:
                mine = phone.play.table
                if mine.state.is_chance():
                    assert phone.play.propose(Roll(2), mine.match.index)
                else:
                    assert phone.play.propose(Move(2, ai.choose_move(mine.state, 2, "greedy", rng)), mine.match.index)
            net.deliver()
        else:
            pytest.fail("the game does not end")
        net.deliver()
        assert phone.play.table.record.moves == host.play.table.record.moves
        assert gs.guest.dice_check == "ok"
        assert not any(g.away for g in hs.room.guests.values())  # the heartbeat kept Bo present
        resumed = RoomHost.from_json(json.loads(host_store.text), clock())
        assert resumed.table.record.moves == host.play.table.record.moves  # saved after every move

    run_async(steps)


def test_a_quiet_guest_is_away_and_a_reloaded_guest_comes_back_to_its_seat_without_asking():
    async def steps():
        clock, net, host_store, guest_store = Clock(), MemoryTransport(), Store(), Store()
        host, hs = host_phone(clock, net, host_store)
        phone, gs = seated_guest(clock, net, hs, guest_store, 1)
        bo = hs.room.guests[gs.guest.guest_id]
        clock.t += 7  # no heartbeat (the phone slept): away, the seat stays Bo's
        hs.tick()
        assert bo.away and hs.room.holders[1] == bo.guest_id
        gs.close()  # Bo reloads the page: a new session from what the phone kept
        net.deliver()
        kept = saved_guest(json.loads(guest_store.text))
        phone2, gs2 = guest_phone(clock, net, guest_store, kept["room"], kept["name"], kept["guest"], kept["secret"])
        net.deliver()
        assert gs2.guest.status == "in" and gs2.guest.seat == 1 and not hs.room.pending
        hs.tick()
        assert not bo.away
        assert phone2.play.table.record.moves == host.play.table.record.moves
        # A forged secret is refused, and nothing about Bo changes
        phone3, gs3 = guest_phone(clock, net, Store(), kept["room"], "Eve", kept["guest"], "x" * 32)
        net.deliver()
        assert gs3.guest.status == "refused" and gs3.guest.reason == "room.bad_secret"
        assert hs.room.holders[1] == bo.guest_id and bo.conn is not None

    run_async(steps)


def test_the_host_reloads_its_room_and_the_guest_comes_back():
    async def steps():
        clock, net, host_store, guest_store = Clock(), MemoryTransport(), Store(), Store()
        host, hs = host_phone(clock, net, host_store)
        phone, gs = seated_guest(clock, net, hs, guest_store, 2)
        room_id = hs.room.room_id
        hs.close()  # the host's page reloads
        net.deliver()
        assert not gs.connected
        host2 = FakeHost("en", {"pace": "fast"})
        host2.open_game("rolf")
        room = RoomHost.from_json(json.loads(host_store.text), clock())
        host2.play.load(room.table)
        host_table(host2.play, room)
        hs2 = HostSession(room, net, clock, host_store)
        hs2.start()
        net.deliver()
        assert hs2.room.room_id == room_id and host2.play.remote == {2}
        kept = saved_guest(json.loads(guest_store.text))
        phone2, gs2 = guest_phone(clock, net, guest_store, kept["room"], kept["name"], kept["guest"], kept["secret"])
        net.deliver()
        assert gs2.guest.status == "in" and gs2.guest.seat == 2
        await settle(host2)
        net.deliver()
        assert phone2.play.table.record.moves == host2.play.table.record.moves

    run_async(steps)


@pytest.mark.parametrize("data", [
    None, [], {"format": "dicehall-guest", "version": 2, "room": "dice-abcdefghijklmnop", "name": "Bo"},
    {"format": "dicehall-guest", "version": 1, "room": "<script>", "name": "Bo", "guest": None, "secret": None},
    {"format": "dicehall-guest", "version": 1, "room": "dice-abcdefghijklmnop", "name": 3},
    {"format": "dicehall-guest", "version": 1, "room": "dice-abcdefghijklmnop", "name": "Bo", "guest": "a b c d e f g h"},
])
def test_a_tampered_guest_save_is_not_used(data):
    assert saved_guest(data) is None


def test_a_guest_for_a_room_nobody_hosts_hears_so():
    clock, net = Clock(), MemoryTransport()
    phone, gs = guest_phone(clock, net, Store(), "dice-abcdefghijklmnop")
    net.deliver()
    assert gs.error == "peer-unavailable" and not gs.connected


def test_a_guest_hears_once_that_the_host_is_away_however_often_the_transport_retries():
    from fakepage import Phone

    class Retrying:
        def join(self, options, on_event):
            self.on_event = on_event
            return self

        def send(self, text):
            pass

        def close(self):
            pass

    async def steps():
        net = Retrying()
        phone = Phone(net, Clock(), "#/join/dice-abcdefghijklmnop")
        desk = phone.rooms
        desk.join("dice-abcdefghijklmnop", "Bo")
        for _ in range(5):
            net.on_event("error", None, "peer-unavailable")
        assert phone.page.toasts == ["The host is not there right now. Trying again…"]
        net.on_event("open", None, None)
        net.on_event("close", None, None)
        net.on_event("error", None, "peer-unavailable")  # a new outage: said again
        assert len(phone.page.toasts) == 2
        desk.guesting = None  # the tick stops

    run_async(steps)
