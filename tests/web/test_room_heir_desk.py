"""The hand-over in the app (issue 31, item 3) under CPython: three phones' shells over the
in-memory transport. The host's phone vanishes mid-game; the first in line hosts the table on
its own screen (its room saved, its guest save gone, told so), the other phone follows it (told
who hosts now) and the game goes on to the end on both. Time is passed in."""

from __future__ import annotations

import random

import pytest
from dicehall.gameview import Move, Roll
from dicehall.roomdesk import GUEST_KEY, ROOM_KEY
from dicehall.rooms import MemoryTransport
from fakehost import Clock, settle
from fakehost import run as run_async
from fakepage import Phone

from pygame_core import ai
from pygame_core.rooms.succession import LOST_SECONDS
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


def hosted(net, clock):
    """Ann's phone: Penta against the computer (Greedy), opened for others."""
    ann = Phone(net, clock)
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
    table.new_game(random.Random(4))
    ann.play.load(table)
    ann.play.save()
    ann.tap("room-open")
    net.deliver()
    return ann, ann.rooms.hosting.room


def joined(ann, room, net, clock, name: str) -> Phone:
    shell = Phone(net, clock, f"#/join/{room.room_id}")
    shell.rooms.name_draft = name
    shell.tap("room-join")
    net.deliver()
    ann.tap("room-approve", next(iter(room.pending)))
    net.deliver()
    return shell


async def play_some(phones, net, clock, rng, until) -> None:
    """Whoever acts on each phone does (a person's seat by a proposal; the computer's seats play
    by themselves), until `until()`."""
    for _ in range(3000):
        if until():
            return
        clock.t += 0.3
        for shell in phones:
            await settle(shell)
        net.deliver()
        for shell in phones:
            seat = shell.play.acting_seat()
            if seat is not None and shell.play.table is not None and not shell.play.table.state.is_terminal():
                state, index = shell.play.table.state, shell.play.table.match.index
                proposal = Roll(seat) if state.is_chance() else Move(seat, ai.choose_move(state, seat, "greedy", rng))
                shell.play.propose(proposal, index)
                net.deliver()
    raise AssertionError("the game never got there")


def test_the_host_phone_vanishes_the_next_in_line_hosts_on_its_screen_and_the_other_follows():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = hosted(net, clock)
        bo = joined(ann, room, net, clock, "Bo")
        bo.tap("room-seat", "1")  # the computer's seat: Bo plays it
        net.deliver()
        cy = joined(ann, room, net, clock, "Cy")  # Cy watches
        rng = random.Random(3)
        await play_some([ann, bo], net, clock, rng, lambda: ann.play.table.state.turn_number() >= 3)
        for shell in (bo, cy):
            shell.rooms.guesting.tick()  # a heartbeat, answered: the watch has heard the host
            net.deliver()
        before = list(ann.play.table.record.moves)
        assert bo.play.table.record.moves == before and not ann.play.table.state.is_terminal()
        # Ann's phone drops off: it hears nothing, answers nothing, and no close ever comes; its
        # page runs no more (a page that runs again finds the heir: test_room_return.py).
        ann.rooms._ticker.cancel()
        ann.rooms.hosting.room.received = lambda *args: None
        ann.rooms.hosting.room.tick = lambda now: None
        net.hosts.pop(room.room_id)
        for _ in range(int(LOST_SECONDS) + 2):
            clock.t += 1
            for shell in (bo, cy):
                for session in (shell.rooms.guesting, shell.rooms.hosting):
                    if session is not None:
                        session.tick()
            net.deliver()
        # Bo hosts the table on his screen: his room saved, his guest save gone, and told so.
        heir = bo.rooms.hosting
        assert heir is not None and bo.rooms.guesting is None and heir.status == "open"
        assert heir.room.table.record.moves == before and bo.play.table is heir.room.table
        assert ROOM_KEY in bo.storage and GUEST_KEY not in bo.storage
        assert bo.page.leave_warned  # hosting a game in progress: warned at once, not a tick later
        assert "The host was gone: you host the table now." in bo.page.spoken
        unchecked = "The dice thrown before the host changed cannot be checked: the old host never revealed its secret."
        assert unchecked in bo.page.spoken
        # Cy follows: his session is in Bo's room, told who hosts it now, and saved there.
        assert cy.rooms.guesting.room_id == heir.room.room_id and cy.rooms.guest_in
        assert "The host is gone. The table moves to the next player in line…" in cy.page.spoken
        assert [s for s in cy.page.spoken if "new host" in s] == ["The table has a new host: \u2068Bo\u2069."], cy.page.spoken[-6:]
        assert not cy.page.toasts and unchecked in cy.page.spoken
        assert heir.room.room_id in cy.storage[GUEST_KEY]
        assert cy.play.table.record.moves == before
        # Play goes on to the end: Ann's seat played by the computer on Bo's phone until she is back.
        assert bo.play.remote == set() and bo.play.is_computer(0) and not bo.play.is_computer(1)
        await play_some([bo, cy], net, clock, rng, lambda: bo.play.table.state.is_terminal())
        net.deliver()
        assert cy.play.table.record.moves == bo.play.table.record.moves
        assert cy.play.table.record.moves[:len(before)] == before
        assert not bo.page.errors and not cy.page.errors

    run_async(steps)
