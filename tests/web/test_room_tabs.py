"""One guest in two tabs of one browser, in the app (issue 28, item 8), under CPython: two tabs'
shells share one localStorage (`fakepage.Browser`, so both hold Bo's guest id and seat secret)
and reach Ann's room over the in-memory transport. The tab opened second says the place is open
in another tab and offers "Play here"; the first plays on; "Play here" moves the place and the
first tab says so; neither tab knocks again by itself; leaving from the tab that does not hold
the place keeps it saved for the other. And a refused guest does not ask again by itself."""

from __future__ import annotations

import pytest

from dicehall.roomdesk import GUEST_KEY
from dicehall.rooms import MemoryTransport
from fakehost import Clock, run as run_async
from fakepage import Phone
from test_roomdesk import ann_hosts, let_in

pytestmark = pytest.mark.usefixtures("instant_sleep")

ELSEWHERE = "Your place in this game room is open in another tab."
MOVED = "Your place in this game room moved to another tab."


def second_tab(bo: Phone, room, net, clock) -> Phone:
    """Bo opens the room's link again in another tab of the same browser (it boots the app)."""
    tab = Phone(net, clock, f"#/join/{room.room_id}", browser=bo.page.browser)
    tab.rooms.boot()
    net.deliver()
    tab.render()
    return tab


def tick(clock, net, ann: Phone, *tabs: Phone, seconds: int = 12) -> None:
    """Time passes with every page's heartbeat and the host's timeouts."""
    for _ in range(seconds):
        clock.t += 1
        ann.rooms.hosting.tick()
        for tab in tabs:
            if tab.rooms.guesting is not None:
                tab.rooms.guesting.tick()
        net.deliver()


def test_a_guest_in_two_tabs_is_told_where_the_place_is_and_play_here_moves_it():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = ann_hosts(net, clock)
        bo = let_in(ann, room, net, clock, "Bo")
        bo.tap("room-seat", "1")
        net.deliver()
        guest_id = bo.rooms.guesting.guest.guest_id
        assert room.holders[1] == guest_id
        saved = bo.storage[GUEST_KEY]

        # The second tab is told plainly, with "Play here"; it neither asks to join again nor
        # knocks the first tab off, which plays on.
        tab = second_tab(bo, room, net, clock)
        assert tab.rooms.guesting.guest.elsewhere == "open" and tab.rooms.guesting.link is None
        assert ELSEWHERE in tab.screen and {"room-elsewhere", "room-here", "room-leave"} <= tab.testids()
        assert "room-join" not in tab.testids() and not tab.rooms.guest_in
        bo.render()
        assert bo.rooms.guest_in and bo.rooms.guesting.connected and "room-status" not in bo.testids()
        assert not room.pending and not room.guests[guest_id].away and len(ann.rooms.hosting.conns) == 1
        tick(clock, net, ann, bo, tab)  # no fight over time: the second tab stays told, the first in
        bo.render()
        tab.render()
        assert ELSEWHERE in tab.screen and tab.rooms.guesting.link is None
        assert bo.rooms.guest_in and "room-status" not in bo.testids() and not room.guests[guest_id].away

        # "Play here": while it connects, no name is asked for; then the second tab plays Bo's
        # seat and the first says the place moved, stops, and offers it back.
        tab.tap("room-here")
        tab.render()
        assert "room-joining" in tab.testids() and "room-join" not in tab.testids()
        net.deliver()
        tab.render()
        bo.render()
        assert tab.rooms.guest_in and tab.rooms.guesting.guest.seat == 1 and room.holders[1] == guest_id
        assert "room-seat-row-1" in tab.testids() and "room-status" not in tab.testids()
        assert bo.rooms.guesting.guest.elsewhere == "moved" and bo.rooms.guesting.link is None
        assert MOVED in bo.screen and "room-here" in bo.testids() and not bo.rooms.guest_in
        assert not room.pending and len(ann.rooms.hosting.conns) == 1
        tick(clock, net, ann, bo, tab)
        bo.render()
        assert MOVED in bo.screen and bo.rooms.guesting.link is None
        assert tab.rooms.guest_in and not room.guests[guest_id].away
        # A chat line from the tab that plays now reaches the room.
        tab.rooms.chat_draft = "from the second tab"
        tab.tap("room-send")
        net.deliver()
        assert room.chat[-1]["text"] == "from the second tab"

        # And back again from the first tab.
        bo.tap("room-here")
        net.deliver()
        bo.render()
        tab.render()
        assert bo.rooms.guest_in and bo.rooms.guesting.guest.seat == 1
        assert tab.rooms.guesting.guest.elsewhere == "moved" and MOVED in tab.screen
        assert len(ann.rooms.hosting.conns) == 1

        # Leaving from the tab that does not hold the place: that tab goes Home, the place stays
        # saved for the tab that plays it (a reload there still comes back to the seat).
        tab.tap("room-leave")
        assert tab.rooms.guesting is None and tab.hash.endswith("#/home")
        assert bo.storage[GUEST_KEY] == saved
        tick(clock, net, ann, bo, tab)
        bo.render()
        assert bo.rooms.guest_in and not room.guests[guest_id].away

    run_async(steps)


def test_a_refused_guest_does_not_ask_again_by_itself():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = ann_hosts(net, clock)
        cy = Phone(net, clock, f"#/join/{room.room_id}")
        cy.rooms.name_draft = "Cy"
        cy.tap("room-join")
        net.deliver()
        ann.tap("room-refuse", next(iter(room.pending)))
        net.deliver()
        cy.render()
        assert cy.rooms.guesting.guest.status == "refused" and cy.rooms.guesting.link is None
        assert "room-refused" in cy.testids() and "room-join" in cy.testids()
        # Asking again is the player's choice: one new request, and the old link is gone.
        cy.tap("room-join")
        net.deliver()
        assert len(room.pending) == 1 and len(ann.rooms.hosting.conns) == 1

    run_async(steps)
