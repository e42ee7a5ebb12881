"""The app's room sessions when the host is lost (issue 31, item 3), under CPython with the
in-memory transport: the guests' sessions notice the silence (their heartbeat goes unanswered),
the first in line starts a HostSession from its mirror, the others find it at the room id they
derive, check its claim and play on; the old host's phone, back with its saved room, finds the
heir and sits in its seat as a guest. Time is passed in (a clock the test moves)."""

from __future__ import annotations

import base64
import json
import random
import secrets

import pytest
from dicehall.roomheir import return_to_heir
from dicehall.rooms import GuestSession, HostSession, MemoryTransport, saved_guest

from pygame_core import ai
from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import HOST, RoomHost
from pygame_core.rooms.succession import (
    LOST_SECONDS,
    TURN_SECONDS,
    heir_room_id,
    old_host_id,
    take_over,
)
from pygame_core.table import Table


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    """Dice seeds and entropies from a seeded generator: the same games on every run."""
    rng = random.Random(7)
    monkeypatch.setattr(secrets, "token_hex", lambda n=32: rng.randbytes(n).hex())
    # (guest ids too: the dice mix names the guests whose randomness went in)
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=32: base64.urlsafe_b64encode(rng.randbytes(n)).rstrip(b"=").decode())


class Clock:
    def __init__(self) -> None:
        self.t = 5_000.0

    def __call__(self) -> float:
        return self.t


class Store:
    def __init__(self) -> None:
        self.text: str | None = None

    def __call__(self, text: str) -> bool:
        self.text = text
        return True


def opened(n_guests: int = 3):
    """Ann hosts Rolf (her seat, a computer, and a seat for each of the first two guests)."""
    clock, net = Clock(), MemoryTransport()
    table = Table("rolf", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"},
                           {"name": "S1", "symbol": "■", "ai": "greedy"}, {"name": "S2", "symbol": "◆", "ai": "greedy"}])
    table.new_game(random.Random(2))
    host_store = Store()
    hs = HostSession(RoomHost(table, clock(), "Ann"), net, clock, host_store)
    hs.start()
    net.deliver()
    sessions = []
    for k in range(n_guests):
        gs = GuestSession(RoomGuest(["Bo", "Cy", "Di"][k]), hs.room.room_id, net, clock, Store())
        gs.host_store = Store()
        gs.start()
        net.deliver()
        hs.room.approve(next(iter(hs.room.pending)))
        net.deliver()
        if k < 2:
            gs.ask_seat(2 + k)
            net.deliver()
        sessions.append(gs)
    return clock, net, hs, host_store, sessions


def step(room: RoomHost, sessions, net, rng) -> None:
    """One action by whoever is to act: the host's screen directly, a guest through its session."""
    state, index = room.table.state, room.table.match.index
    seat = state.roller() if state.is_chance() else state.current_players()[0]
    holder = room.holders[seat]
    if holder == HOST:
        if state.is_chance():
            room.roll(index)
        else:
            room.submit(seat, ai.choose_move(state, seat, "greedy", rng), index)
    else:
        gs = next(s for s in sessions if s.guest.guest_id == holder)
        mirror = gs.guest.table.state
        gs.intent(seat, "roll" if mirror.is_chance() else ai.choose_move(mirror, seat, "greedy", rng), gs.guest.table.match.index)
    net.deliver()


def seconds(clock, net, sessions, hosts, n: float) -> None:
    """`n` seconds pass, one tick a second on every phone (heartbeats, timeouts, hand-overs)."""
    for _ in range(int(n)):
        clock.t += 1
        for s in list(sessions) + list(hosts):
            s.tick()
        net.deliver()


def freeze(hs: HostSession, net) -> None:
    """The host's tab is frozen or its phone gone: it hears nothing and answers nothing, and no
    close ever comes (as when a phone drops off the network)."""
    hs.room.received = lambda *args: None
    hs.room.tick = lambda now: None
    net.hosts.pop(hs.room.room_id, None)


def test_the_host_lost_the_first_in_line_hosts_from_its_mirror_the_others_follow_and_finish():
    clock, net, hs, host_store, (bo, cy, di) = opened()
    rng = random.Random(1)
    seconds(clock, net, [bo, cy, di], [hs], 3)  # heartbeats answered: nobody counts the host lost
    for _ in range(30):
        step(hs.room, [bo, cy, di], net, rng)
    assert not hs.room.table.state.is_terminal()
    before = list(hs.room.table.record.moves)
    freeze(hs, net)
    seconds(clock, net, [bo, cy, di], [], LOST_SECONDS - 1)
    assert bo.hosting is None and all(s.handover is None for s in (bo, cy, di))
    seconds(clock, net, [bo, cy, di], [], 2)
    # Bo (seat 2, first in line) hosts the table now, on his phone, saved in his host store.
    heir = bo.hosting
    assert heir is not None and heir.status == "open"
    assert heir.room.room_id == heir_room_id(hs.room.room_id, bo.guest.guest_id)
    assert heir.room.table.record.moves == before and json.loads(bo.host_store.text)["room"] == heir.room.room_id
    # Cy and Di found him, checked his claim, and are his guests (Cy still in seat 3).
    for gs in (cy, di):
        assert gs.handover is None and gs.room_id == heir.room.room_id and gs.guest.status == "in"
        assert gs.guest.handover["dice"] == "room.dice_unverifiable"
        assert saved_guest(json.loads(gs.store.text))["room"] == heir.room.room_id
    assert cy.guest.seat == 3 and di.guest.seat is None and heir.room.holders[3] == cy.guest.guest_id
    for _ in range(3000):
        if heir.room.table.state.is_terminal():
            break
        step(heir.room, [cy, di], net, rng)
        if heir.room.table.match.index % 20 == 0:
            seconds(clock, net, [cy, di], [heir], 1)
    assert heir.room.table.state.is_terminal()
    for gs in (cy, di):
        assert gs.guest.table.record.moves == heir.room.table.record.moves
        assert gs.guest.table.record.moves[:len(before)] == before
        assert gs.guest.dice_check == "ok"
    # Nobody took the heir for lost meanwhile: the heartbeats went to him and he answered.
    assert cy.handover is None and di.handover is None

    # Ann's phone comes back with her saved room: she finds Bo's room and sits in her seat.
    saved = RoomHost.from_json(json.loads(host_store.text), clock())
    ann = return_to_heir(saved, net, clock, Store())
    net.deliver()
    seconds(clock, net, [ann], [heir], 1)
    assert ann.handover is None and ann.guest.status == "in" and ann.guest.guest_id == old_host_id(saved.room_id)
    assert ann.guest.seat == 0 and heir.room.table.seats[0]["name"] == "Ann" and heir.room.table.seats[0]["ai"] is None


def test_the_old_host_with_nobody_in_its_place_hosts_again():
    clock, net, _hs, host_store, _sessions = opened(1)
    saved = RoomHost.from_json(json.loads(host_store.text), clock())
    ann = return_to_heir(saved, net, clock, Store())
    net.deliver()
    seconds(clock, net, [ann], [], 5)
    assert ann.handover.state == "searching"  # Bo's room is given six seconds to answer
    seconds(clock, net, [ann], [], 2)
    assert ann.handover.state == "alone" and ann.guest.status == "new"


def test_a_forged_heir_is_refused_and_the_next_in_line_takes_over_at_its_turn():
    clock, net, hs, _host_store, (bo, cy, di) = opened()
    rng = random.Random(4)
    for _ in range(12):
        step(hs.room, [bo, cy, di], net, rng)
    before = list(hs.room.table.record.moves)
    freeze(hs, net)  # Bo's phone vanishes with the host's: it never ticks again
    # Cy's phone is hostile: at once it opens a room at Bo's heir id, claiming to be Bo.
    forged = take_over(cy.guest, clock())
    forged.room_id = heir_room_id(hs.room.room_id, bo.guest.guest_id)
    forged.claim = {**forged.claim, "heir": bo.guest.guest_id}
    HostSession(forged, net, clock, Store()).start()
    net.deliver()
    # Di (a watcher, third in line) goes to Bo's room at Bo's turn: the claim's proof is not Bo's.
    seconds(clock, net, [di], [], LOST_SECONDS + 1)
    assert di.handover is not None and di.handover.refused == [(bo.guest.guest_id, "room.bad_heir")]
    assert di.guest.room == hs.room.room_id and di.guest.table.record.moves == before  # nothing taken
    # Cy's own turn passes with no room of Cy's (its phone never took over as the line says),
    # then Di's comes: Di hosts the table from its mirror.
    seconds(clock, net, [di], [], 2 * TURN_SECONDS)
    assert di.hosting is not None and di.hosting.room.table.record.moves == before
    assert di.hosting.room.room_id == heir_room_id(hs.room.room_id, di.guest.guest_id)


def test_a_claim_from_one_not_next_in_line_is_refused_and_the_rightful_heir_followed():
    clock, net, hs, _host_store, (bo, cy, di) = opened()
    rng = random.Random(6)
    for _ in range(12):
        step(hs.room, [bo, cy, di], net, rng)
    seconds(clock, net, [bo, cy, di], [hs], 2)
    freeze(hs, net)
    # Di (third in line) takes the table at once, from its own mirror, with its own sound proof:
    # only its turn has not come. Cy's first look for Bo's room is sent astray to Di's.
    early = take_over(di.guest, clock())
    HostSession(early, net, clock, Store()).start()
    bo_room = heir_room_id(hs.room.room_id, bo.guest.guest_id)
    join = net.join

    def astray(options, on_event):
        if options["room"] == bo_room and not getattr(net, "sent_astray", False):
            net.sent_astray = True
            options = {**options, "room": early.room_id}
        return join(options, on_event)

    net.join = astray
    hand = None
    for _ in range(int(LOST_SECONDS) + 3):
        seconds(clock, net, [bo, cy], [], 1)
        hand = cy.handover or hand
    # Cy refused Di's claim, asked at Bo's room again a second later, and is Bo's guest: nothing
    # of Di's room was taken.
    assert net.sent_astray and hand.refused == [(bo.guest.guest_id, "room.not_next")] and cy.handover is None
    assert bo.hosting is not None and cy.room_id == bo_room == bo.hosting.room.room_id and cy.guest.status == "in"
    assert cy.guest.table.record.moves == bo.hosting.room.table.record.moves


class SlowJoins(MemoryTransport):
    """Joins to an heir's room that open only `delay` seconds after they are made (a loaded phone,
    a link over STUN), unless closed before: like web/rooms.js, which keeps trying by itself."""

    def __init__(self, clock, delay: float) -> None:
        super().__init__()
        self.clock, self.delay, self.waiting = clock, delay, []

    def join(self, options, on_event):
        if not options["room"].startswith("dice-") or options["room"] in self.first_rooms:
            return super().join(options, on_event)
        entry = {"due": self.clock() + self.delay, "link": None, "closed": False}
        self.waiting.append((entry, options, on_event))

        class Link:
            def send(self, text):
                if entry["link"] is not None:
                    entry["link"].send(text)

            def close(self):
                entry["closed"] = True
                if entry["link"] is not None:
                    entry["link"].close()
        return Link()

    def deliver(self, limit: int = 100_000) -> None:
        for entry, options, on_event in list(self.waiting):
            if not entry["closed"] and self.clock() >= entry["due"] and options["room"] in self.hosts:
                self.waiting.remove((entry, options, on_event))
                entry["link"] = super().join(options, on_event)
        super().deliver(limit)


def test_a_join_to_the_heir_still_on_its_way_is_left_to_arrive():
    clock, net, hs, _host_store, (bo, cy, di) = opened()
    slow = SlowJoins(clock, 2.5)  # from now on, a join to any other room takes 2.5 s to open
    slow.hosts, slow.queue, slow.first_rooms = net.hosts, net.queue, {hs.room.room_id}
    for session in (hs, bo, cy, di):
        session.transport = slow
    rng = random.Random(8)
    for _ in range(10):
        step(hs.room, [bo, cy, di], slow, rng)
    seconds(clock, slow, [bo, cy, di], [hs], 2)
    freeze(hs, slow)
    seconds(clock, slow, [bo, cy, di], [], LOST_SECONDS + 5)
    # Bo hosts; Cy's and Di's joins to his room took 2.5 s each and were not cut short (cut every
    # second, they never opened, and Cy's own turn came: two tables).
    assert bo.hosting is not None and cy.hosting is None and di.hosting is None
    for gs in (cy, di):
        assert gs.handover is None and gs.room_id == bo.hosting.room.room_id and gs.guest.status == "in"
