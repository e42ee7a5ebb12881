"""One guest in two pages (tabs of one browser share the guest id and seat secret), by the room
protocol alone over the in-memory hub: the page that holds the place keeps it, the other is told
`elsewhere`; a page that says `take` moves the place and the other is told `replaced`; a page
reconnecting (its own `tab`), a quiet holder and an app from before tabs take it without a word;
and the two new hello fields are checked like every other."""

from __future__ import annotations

import json
import random

import pytest

from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import AWAY_SECONDS, RoomHost
from pygame_core.rooms.memory import Hub
from pygame_core.rooms.messages import BadMessage, parse_from_guest
from pygame_core.table import Table


class Clock:
    def __init__(self) -> None:
        self.t = 1_000.0

    def __call__(self) -> float:
        return self.t


class Page(RoomGuest):
    """A guest's page: its hello names its tab and may take the place over (rooms.GuestSession)."""

    def __init__(self, name, guest_id=None, secret=None, tab=None, take=False) -> None:
        super().__init__(name, guest_id, secret)
        self.tab, self.take = tab, take
        self.heard: list[str] = []

    def hello(self, tab=None, take=False) -> str:
        return super().hello(self.tab, self.take)

    def received(self, text) -> list[str]:
        self.heard.append(json.loads(text)["kind"])
        return super().received(text)


def seated_bo():
    """Ann's room (Rolf, two computer seats); Bo let in from his first tab, in seat 2."""
    table = Table("rolf", [{"name": n, "symbol": s, "ai": a}
                           for n, s, a in (("Ann", "●", None), ("Robot", "▲", "greedy"), ("Hal", "■", "greedy"))])
    table.new_game(random.Random(5))
    clock = Clock()
    host = RoomHost(table, clock(), "Ann")
    hub = Hub(host, clock)
    first = Page("Bo", tab="tab-one-1234")
    conn = hub.connect(first)
    hub.run()
    host.approve(next(iter(host.pending)))
    hub.run()
    conn.send(first.ask_seat(2))
    hub.run()
    assert first.status == "in" and first.seat == 2
    return host, hub, clock, first, conn


def test_a_second_tab_is_told_the_place_is_open_and_the_first_plays_on():
    host, hub, _clock, first, conn1 = seated_bo()
    second = Page("Bo", first.guest_id, first.secret, tab="tab-two-5678")
    conn2 = hub.connect(second)
    hub.run()
    assert second.heard == ["elsewhere"] and second.elsewhere == "open" and second.status == "new"
    assert not conn2.open  # closed by the host: the second tab is not admitted
    guest = host.guests[first.guest_id]
    assert conn1.open and guest.conn is not None and not guest.away and guest.tab == "tab-one-1234"
    assert "replaced" not in first.heard and first.elsewhere is None and host.holders[2] == first.guest_id
    assert not host.pending  # nobody asks to be let in again
    # The first tab plays on: its chat reaches the room.
    conn1.send(first.say("still here"))
    hub.run()
    assert host.chat[-1]["text"] == "still here"


def test_play_here_moves_the_place_and_the_tab_that_had_it_is_told_and_closed():
    host, hub, _clock, first, conn1 = seated_bo()
    second = Page("Bo", first.guest_id, first.secret, tab="tab-two-5678", take=True)
    conn2 = hub.connect(second)
    hub.run()
    assert second.status == "in" and second.seat == 2 and second.elsewhere is None
    assert first.heard[-1] == "replaced" and first.elsewhere == "moved" and not conn1.open
    assert host.guests[first.guest_id].conn is not None and host.guests[first.guest_id].tab == "tab-two-5678"
    assert host.holders[2] == first.guest_id  # the same guest's seat, now played in the second tab
    # The first tab, back without taking (a retry of an app that would knock): told, not let in.
    again = Page("Bo", first.guest_id, first.secret, tab="tab-one-1234")
    conn3 = hub.connect(again)
    hub.run()
    assert again.heard == ["elsewhere"] and not conn3.open and conn2.open and "replaced" not in second.heard


def test_a_page_reconnecting_over_its_own_old_link_is_let_back_without_a_word():
    _host, hub, _clock, first, conn1 = seated_bo()
    # The same page (same tab) makes a new link while the host still has the old one (a network
    # change on a phone): the old link goes, and nobody is told the place moved.
    back = Page("Bo", first.guest_id, first.secret, tab="tab-one-1234")
    conn2 = hub.connect(back)
    hub.run()
    assert back.status == "in" and back.seat == 2 and conn2.open and not conn1.open
    assert "replaced" not in first.heard and first.elsewhere is None


def test_a_quiet_holder_gives_way_and_is_told_when_it_wakes():
    _host, hub, clock, first, conn1 = seated_bo()
    clock.t += AWAY_SECONDS + 1  # the first tab has gone quiet (a frozen background tab)
    second = Page("Bo", first.guest_id, first.secret, tab="tab-two-5678")
    conn2 = hub.connect(second)
    hub.run()
    assert second.status == "in" and conn2.open and second.elsewhere is None
    assert first.elsewhere == "moved" and not conn1.open


def test_an_app_from_before_tabs_takes_the_place_as_before():
    _host, hub, _clock, first, conn1 = seated_bo()
    old = RoomGuest("Bo", first.guest_id, first.secret)  # its hello has no tab and no take
    assert "tab" not in json.loads(old.hello())
    conn2 = hub.connect(old)
    hub.run()
    assert old.status == "in" and conn2.open and not conn1.open


def test_the_wrong_secret_from_a_second_tab_learns_nothing_about_the_first():
    _host, hub, _clock, first, conn1 = seated_bo()
    forged = Page("Bo", first.guest_id, "x" * 32, tab="tab-two-5678")
    hub.connect(forged)
    hub.run()
    assert forged.heard == ["refused"] and forged.reason == "room.bad_secret" and conn1.open


@pytest.mark.parametrize("fields", [
    {"tab": "short"}, {"tab": "has space in it"}, {"tab": 12345678}, {"tab": ["tab-one-1234"]},
    {"take": "yes"}, {"take": 1}, {"take": None}, {"take": [True]},
])
def test_hello_tab_and_take_are_checked(fields):
    with pytest.raises(BadMessage):
        parse_from_guest(json.dumps({"kind": "hello", "name": "Bo", **fields}))


def test_hello_without_tab_or_take_still_reads():
    msg = parse_from_guest(json.dumps({"kind": "hello", "name": "Bo"}))
    assert msg["tab"] is None and msg["take"] is None
    msg = parse_from_guest(json.dumps({"kind": "hello", "name": "Bo", "tab": "tab-one-1234", "take": True}))
    assert msg["tab"] == "tab-one-1234" and msg["take"] is True
