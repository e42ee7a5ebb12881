"""A hosted table under CPython: the play controller is the room's door. Guests' moves enter the
same way as the people's on the host's screen, the computer keeps its seats on the host, the
host's dice come from the room's fair dice, and every guest's mirror follows the whole game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dicehall.gameview import Move, Roll
from fakehost import Clock, FakeHost, run as run_async, settle
from pygame_core import ai
from pygame_core.protocol import CHANCE
from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import RoomDice, RoomHost
from pygame_core.rooms.memory import Hub
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


def hosted(seats) -> tuple[FakeHost, RoomHost, Hub]:
    """Ann's phone hosts a Rolf table: its controller is the room's door."""
    host = FakeHost("en", {"pace": "fast"})
    host.open_game("rolf")
    table = Table("rolf", [{"name": n, "symbol": s, "ai": a} for n, s, a in seats])
    table.new_game(random.Random(2))
    play = host.play
    play.load(table)
    clock = Clock()
    room = RoomHost(table, clock(), "Ann", door=play)
    play.roller = RoomDice(room)
    play.observers.append(room)
    return host, room, Hub(room, clock)


def seated(room: RoomHost, hub: Hub, guest: RoomGuest, seat: int | None):
    """`guest` connects, the host approves it, and it asks for `seat` (None: it watches)."""
    conn = hub.connect(guest)
    hub.run()
    room.approve(next(iter(room.pending)))
    hub.run()
    if seat is not None:
        conn.send(guest.ask_seat(seat))
        hub.run()
    return conn


def test_a_hosted_game_with_a_guest_a_person_on_the_host_and_the_computer():
    async def steps():
        host, room, hub = hosted([("Ann", "●", None), ("Computer", "▲", "easy"), ("Robot", "■", "easy")])
        play = host.play
        bo = RoomGuest("Bo")
        conn = seated(room, hub, bo, 2)  # the Robot's seat: Bo plays it from now on
        assert play.remote == {2}  # the room told its door
        assert bo.seat == 2 and not play.is_person(2) and not play.is_computer(2)
        rng = random.Random(11)
        for _ in range(3000):
            hub.clock.t += 0.25  # people take their time (and the room's flood limit sees it)
            await settle(host)
            hub.run()
            state = play.table.state
            if state.is_terminal():
                break
            index = play.table.match.index
            if state.is_chance():
                seat = state.roller()
                if seat == 2:
                    conn.send(bo.intent("roll"))
                else:
                    assert seat == 0 and play.acting_seat() == 0  # the computer throws by itself
                    assert play.propose(Roll(0), index)
            else:
                seat = state.current_players()[0]
                if seat == 2:
                    assert play.acting_seat() is None  # the host's screen waits for Bo
                    conn.send(bo.intent(ai.choose_move(bo.table.state, 2, "greedy", rng)))
                else:
                    assert seat == 0
                    assert play.propose(Move(0, ai.choose_move(state, 0, "greedy", rng)), index)
            hub.run()
        else:
            pytest.fail("the game does not end")
        hub.run()
        assert bo.table.record.moves == play.table.record.moves
        assert bo.dice_check == "ok"  # every throw, the host's own too, came from the fair dice
        assert room.dice.throws and len(room.dice.throws) == sum(
            1 for seat, _ in play.table.record.moves if seat == CHANCE)
        saved_table, _ = host.saved
        assert Table.loads(saved_table).record.moves == play.table.record.moves  # saved as usual

    run_async(steps)


def test_a_guest_move_that_the_rules_refuse_changes_nothing_on_the_host():
    async def steps():
        host, room, hub = hosted([("Ann", "●", None), ("Robot", "■", "easy")])
        play = host.play
        bo = RoomGuest("Bo")
        conn = seated(room, hub, bo, 1)
        rng = random.Random(4)
        while play.table.state.is_chance() or play.table.state.current_players()[0] != 1:
            hub.clock.t += 0.25
            await settle(host)
            state, index = play.table.state, play.table.match.index
            if state.is_chance() and state.roller() == 1:
                conn.send(bo.intent("roll"))
            elif state.is_chance():
                play.propose(Roll(0), index)
            elif state.current_players()[0] == 0:
                play.propose(Move(0, ai.choose_move(state, 0, "greedy", rng)), index)
            hub.run()
        moves = list(play.table.record.moves)
        renders = host.renders
        conn.send(bo.intent("take 9-9"))
        hub.run()
        assert play.table.record.moves == moves and bo.table.record.moves == moves
        assert bo.errors[-1] == "rolf.no_square"
        assert host.renders == renders  # nothing was redrawn for a refused guest move

    run_async(steps)


def test_a_seat_given_back_to_the_computer_is_played_on_the_host_at_once():
    async def steps():
        host, room, hub = hosted([("Ann", "●", "easy"), ("Robot", "■", "easy")])
        play = host.play
        bo = RoomGuest("Bo")
        conn = seated(room, hub, bo, 1)
        await settle(host)  # the computer plays Ann's seat until Bo is to act
        state = play.table.state
        assert play.remote == {1} and not state.is_terminal()
        assert (state.roller() if state.is_chance() else state.current_players()[0]) == 1
        index = play.table.match.index
        conn.close()  # Bo's phone is gone; the host hands the seat to the computer
        hub.run()
        room.release(1, "easy")
        assert play.remote == set() and play.is_computer(1)
        await settle(host)
        hub.run()
        assert play.table.state.is_terminal() and play.table.match.index > index

    run_async(steps)


class Outbox:
    """The guest app's way to the host (the browser sends over the data channel)."""

    def __init__(self, guest: RoomGuest, conn) -> None:
        self.guest, self.conn = guest, conn

    def intent(self, seat: int, move: str, index: int) -> None:
        self.conn.send(self.guest.intent(move, index))

    def take_back(self, seat: int, at: int, index: int) -> None:
        self.conn.send(self.guest.take_back(at, index))


def test_two_phones_the_guests_screen_proposes_and_shows_what_the_host_decides():
    async def steps():
        host, room, hub = hosted([("Ann", "●", "easy"), ("Robot", "■", "easy")])
        phone = FakeHost("en", {"pace": "fast"})  # Bo's phone: its own app, its own controller
        phone.open_game("rolf")
        mine = phone.play
        bo = RoomGuest("Bo", door=mine)
        conn = hub.connect(bo)
        mine.outbox = Outbox(bo, conn)
        hub.run()
        room.approve(next(iter(room.pending)))
        hub.run()
        assert mine.running and mine.remote == {0, 1}  # a spectator: every seat is played elsewhere
        conn.send(bo.ask_seat(1))
        hub.run()
        assert mine.remote == {0} and host.play.remote == {1}
        rng = random.Random(5)
        refused, proposed = False, Counter()
        for _ in range(3000):
            hub.clock.t += 0.25
            await settle(host)
            hub.run()
            state = host.play.table.state
            if state.is_terminal():
                break
            index = mine.table.match.index
            assert index == host.play.table.match.index  # the mirror keeps up
            seat = mine.acting_seat()
            if seat is None:
                continue
            assert seat == 1
            proposed[mine.table.state.is_chance()] += 1
            if mine.table.state.is_chance():
                assert mine.propose(Roll(1), index)
            else:
                if not refused:  # a wrong tap is explained on the phone, nothing is sent
                    assert not mine.propose(Move(1, "take 9-9"), index)
                    assert phone.said[-1][1] and not hub.queue
                    refused = True
                assert mine.propose(Move(1, ai.choose_move(mine.table.state, 1, "greedy", rng)), index)
            assert mine.table.match.index == index  # nothing changes until the host says so
            hub.run()
        else:
            pytest.fail("the game does not end")
        hub.run()
        assert refused and proposed[True] and proposed[False]  # throws and takes from the phone
        assert mine.table.record.moves == host.play.table.record.moves
        assert "results" in phone.body or mine.table.state.is_terminal()
        assert phone.saved == (None, None)  # the mirror never overwrote the phone's own game
        assert bo.dice_check == "ok"

    run_async(steps)
