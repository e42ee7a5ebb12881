"""The hosting phone comes back (issue 31, item 3) under CPython: three phones' shells over the
in-memory transport, time passed in, every page's 1-second room tick run as in the app.

- Ann's phone vanishes mid-game; Bo (first in line) takes the table over; Ann's phone reopens
  with its saved room (a reload: the same storage) and finds Bo's room before hosting anything:
  it plays on there as a guest in its own seat, its room's save gone, the address the heir's, and
  the game ends with the same record on all three phones. The screens say the throws before the
  hand-over cannot be checked (not silently skipped).
- Back within seconds (a reload), Ann hosts again at once; back late with nobody in her place,
  she looks for an heir first and then hosts again.
- A host tab frozen for longer than a guest waits (a locked phone) finds its heir when it runs
  again; one whose ticks were merely late while its guests talked to it hosts on.
- While hosting a game in progress, the screen is kept awake and leaving the page is warned of.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from dicehall.roomback import SEEN_KEY
from dicehall.roomdesk import GUEST_KEY, ROOM_KEY
from dicehall.rooms import MemoryTransport
from dicehall.store import TABLE
from fakehost import Clock
from fakehost import run as run_async
from fakepage import Phone
from test_room_heir_desk import hosted, joined, play_some

from pygame_core.rooms.succession import heir_room_id, old_host_id
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")

UNCHECKED = "The dice thrown before the host changed cannot be checked: the old host never revealed its secret."


async def seconds(clock, net, n: int) -> None:
    """`n` seconds pass: every running page's room tick runs once a second (app's ticker)."""
    for _ in range(n):
        clock.t += 1
        for _ in range(4):
            await asyncio.sleep(0)  # (instant_sleep: each ticker takes one step)
            net.deliver()


def vanish(phone: Phone, net) -> None:
    """The host's phone drops off: its page runs no more, hears nothing, and no close comes."""
    phone.rooms._ticker.cancel()
    room = phone.rooms.hosting.room
    room.received = lambda *args: None
    room.tick = lambda now: None
    net.hosts.pop(room.room_id, None)


def reopened(phone: Phone, net, clock) -> Phone:
    """The same phone's app opened again (its storage kept) and booted on its saved game."""
    again = Phone(net, clock, browser=phone.page.browser)
    again.play.load(Table.loads(phone.storage[TABLE]))
    again.rooms.boot()
    net.deliver()
    return again


def test_the_old_host_back_after_a_hand_over_plays_on_as_a_guest_in_its_seat():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = hosted(net, clock)
        bo = joined(ann, room, net, clock, "Bo")
        bo.tap("room-seat", "1")
        net.deliver()
        cy = joined(ann, room, net, clock, "Cy")  # watches
        rng = random.Random(5)
        await play_some([ann, bo], net, clock, rng, lambda: ann.play.table.state.turn_number() >= 3)
        await seconds(clock, net, 3)  # heartbeats answered
        ann.render()
        assert ann.page.awake and ann.page.leave_warned  # hosting a game in progress
        before = list(ann.play.table.record.moves)
        bo_id = bo.rooms.guesting.guest.guest_id
        vanish(ann, net)
        await seconds(clock, net, 15)
        heir = bo.rooms.hosting
        assert heir is not None and heir.room.room_id == heir_room_id(room.room_id, bo_id)
        assert heir.room.table.record.moves[:len(before)] == before
        assert bo.page.leave_warned and bo.page.awake  # the heir hosts: awake, and warned on leaving
        # The throws before the hand-over are said, and stay on screen, as not checkable.
        bo.render()
        cy.render()
        assert UNCHECKED in bo.screen and UNCHECKED in cy.screen and "room-dice-before" in cy.testids()

        # Ann's phone opens the app again (a reload, long after): it looks for an heir first.
        clock.t += 20
        ann2 = reopened(ann, net, clock)
        assert ann2.rooms.hosting is None and room.room_id not in net.hosts  # (nothing hosted meanwhile)
        await seconds(clock, net, 2)
        session = ann2.rooms.guesting
        assert session is not None and session.room_id == heir.room.room_id and ann2.rooms.guest_in
        assert session.guest.guest_id == old_host_id(room.room_id) and session.guest.seat == 0
        assert heir.room.holders[0] == session.guest.guest_id and heir.room.table.seats[0]["ai"] is None
        assert ROOM_KEY not in ann2.storage and SEEN_KEY not in ann2.storage
        assert json.loads(ann2.storage[GUEST_KEY])["room"] == heir.room.room_id
        assert ann2.hash == f"#/join/{heir.room.room_id}"
        assert "While you were away, your table moved to a new host: \u2068Bo\u2069. You play on in your seat." \
            in ann2.page.spoken
        assert not ann2.page.leave_warned  # a guest: nothing to warn of
        # Play goes on to the end: Ann plays her seat from her phone again.
        await play_some([ann2, bo, cy], net, clock, rng, lambda: bo.play.table.state.is_terminal())
        net.deliver()
        moves = bo.play.table.record.moves
        assert ann2.play.table.record.moves == moves == cy.play.table.record.moves
        assert moves[:len(before)] == before and any(seat == 0 for seat, _ in moves[len(before) + 8:])
        await seconds(clock, net, 2)
        assert not bo.page.leave_warned  # the game is over: leaving needs no warning
        cy.render()
        assert "The dice thrown since the host changed were checked" in cy.screen
        assert not ann2.page.errors and not bo.page.errors and not cy.page.errors

    run_async(steps)


def test_a_quick_reload_hosts_again_at_once_and_a_late_one_with_nobody_in_its_place_after_looking():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = hosted(net, clock)
        bo = joined(ann, room, net, clock, "Bo")
        await seconds(clock, net, 3)
        # A reload: back 3 s after its last tick, Ann hosts at once (no looking for an heir).
        vanish(ann, net)
        clock.t += 3
        ann2 = reopened(ann, net, clock)
        assert ann2.rooms.hosting is not None and ann2.rooms.guesting is None and room.room_id in net.hosts
        await seconds(clock, net, 3)
        assert bo.rooms.guest_in and bo.rooms.guesting.room_id == room.room_id and bo.rooms.guesting.handover is None
        # Ann and Bo both gone for a minute; Ann back first: nobody took over, so after looking
        # for Bo's room (the join screen says it is connecting) she hosts her room again.
        bo.rooms._ticker.cancel()
        bo.rooms.guesting.close()
        vanish(ann2, net)
        clock.t += 60
        ann3 = reopened(ann2, net, clock)
        ann3.render()
        assert ann3.rooms.hosting is None and ann3.rooms.returning is not None
        assert ann3.hash == f"#/join/{room.room_id}" and "room-joining" in ann3.testids()
        assert not ann3.play.running  # nothing is played here meanwhile
        await seconds(clock, net, 5)
        assert ann3.rooms.hosting is None  # (Bo's room is given six seconds to answer)
        await seconds(clock, net, 2)
        assert ann3.rooms.hosting is not None and ann3.rooms.returning is None and ann3.rooms.guesting is None
        assert room.room_id in net.hosts and GUEST_KEY not in ann3.storage and ann3.hash == "#/play"
        assert ann3.play.remote == set() and ann3.play.table.record.moves == ann.play.table.record.moves
        ann3.tap("room-close")
        assert not ann3.page.leave_warned

    run_async(steps)


def test_a_frozen_host_tab_finds_its_heir_and_a_merely_late_one_hosts_on():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = hosted(net, clock)
        bo = joined(ann, room, net, clock, "Bo")
        bo.tap("room-seat", "1")
        net.deliver()
        await seconds(clock, net, 3)
        # Late ticks while Bo talks to it (a tab in the background: slowed timers, live links).
        ticker = ann.rooms._ticker
        ticker.cancel()
        for _ in range(10):
            clock.t += 1
            bo.rooms.guesting.tick()
            net.deliver()
        ann.rooms._start_ticker()
        await seconds(clock, net, 1)
        assert ann.rooms.hosting is not None and ann.rooms.returning is None
        # Frozen (a locked phone): it hears nothing for 20 s; Bo takes the table over meanwhile.
        ann.rooms._ticker.cancel()
        room.received = lambda *args: None
        held = net.hosts.pop(room.room_id)
        for _ in range(16):
            clock.t += 1
            bo.rooms.guesting.tick() if bo.rooms.guesting is not None else bo.rooms.hosting.tick()
            net.deliver()
        assert bo.rooms.hosting is not None
        net.hosts[room.room_id] = held  # the tab thaws: its room's link is still there
        del room.received
        clock.t += 4
        ann.rooms._start_ticker()
        await seconds(clock, net, 2)
        assert ann.rooms.hosting is None and room.room_id not in net.hosts
        assert ann.rooms.guest_in and ann.rooms.guesting.room_id == bo.rooms.hosting.room.room_id
        assert ann.rooms.guesting.guest.seat == 0 and ROOM_KEY not in ann.storage

    run_async(steps)


def test_leaving_while_looking_for_an_heir_lets_the_phone_open_a_room_again():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = hosted(net, clock)
        joined(ann, room, net, clock, "Bo")
        await seconds(clock, net, 2)
        vanish(ann, net)
        clock.t += 60
        ann2 = reopened(ann, net, clock)
        ann2.render()
        assert ann2.rooms.returning is not None and "room-leave" in ann2.testids()
        ann2.tap("room-leave")
        await asyncio.sleep(0)
        assert ann2.rooms.returning is None and ann2.rooms.guesting is None
        ann2.play.load(Table.loads(ann2.storage[TABLE]))
        ann2.tap("room-open")
        assert ann2.rooms.hosting is not None

    run_async(steps)
