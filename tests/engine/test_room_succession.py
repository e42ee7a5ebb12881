"""The table survives its host (issue 31, item 3), without a browser: the host vanishes mid-game,
the next guest in line takes the table over with the full record, the others follow it, the game
finishes with the same record and result everywhere; the old host comes back as a guest in its
seat; a guest not next in line, a forged proof and a forged record are refused; nothing is lost
or doubled when messages overtake each other or arrive twice. Time is passed in."""

from __future__ import annotations

import base64
import json
import random
import secrets

import pytest

from pygame_core import ai
from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import HOST, RoomHost
from pygame_core.rooms.memory import Hub
from pygame_core.rooms.succession import (
    LOST_SECONDS,
    TURN_SECONDS,
    Follower,
    HostWatch,
    Known,
    SuccessorHost,
    check_claim,
    heir_room_id,
    line,
    old_host_id,
    resume_room,
    take_over,
)
from pygame_core.table import Table


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch):
    """The hosts' dice seeds and the guests' entropies from a seeded generator, so each game here
    is the same on every run (a Rolf game may end in its first turns by the dice)."""
    rng = random.Random(31)
    monkeypatch.setattr(secrets, "token_hex", lambda n=32: rng.randbytes(n).hex())
    # (guest ids too: the dice mix names the guests whose randomness went in)
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=32: base64.urlsafe_b64encode(rng.randbytes(n)).rstrip(b"=").decode())


class Clock:
    def __init__(self) -> None:
        self.t = 1_000.0

    def __call__(self) -> float:
        return self.t


class Phone:
    """A guest's phone as the transport sees it: what it runs (a RoomGuest, then a Follower),
    and its watch on the host, told of every message it hears."""

    def __init__(self, name: str, clock: Clock) -> None:
        self.name, self.clock = name, clock
        self.guest = RoomGuest(name)
        self.inner = self.guest
        self.watch = HostWatch(clock())
        self.conn = None

    def hello(self, *args) -> str:
        return self.inner.hello(*args)

    def received(self, text) -> list[str]:
        self.watch.heard(self.clock())
        return self.inner.received(text)


def new_room(n_guests: int, seated: int, mess=None):
    """Ann hosts Rolf with a computer; `seated` of the `n_guests` guests take a seat, the rest watch."""
    clock = Clock()
    seats = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Computer", "symbol": "▲", "ai": "greedy"}]
    seats += [{"name": f"Seat{k}", "symbol": "■◆★"[k], "ai": "greedy"} for k in range(seated)]
    table = Table("rolf", seats)
    table.new_game(random.Random(5))
    host = RoomHost(table, clock(), "Ann")
    hub = Hub(host, clock, mess)
    phones = []
    for k in range(n_guests):
        phone = Phone(["Bo", "Cy", "Di", "Ed", "Fi"][k], clock)
        phone.conn = hub.connect(phone)
        hub.run()
        host.approve(next(p.request for p in host.pending.values() if p.name == phone.name))
        hub.run()
        if k < seated:
            phone.conn.send(phone.guest.ask_seat(2 + k))  # an AI seat: taken at once
            hub.run()
        phones.append(phone)
    assert all(p.guest.status == "in" for p in phones)
    return clock, host, hub, phones


def act(host, hub, phones, rng) -> None:
    """Whoever is to act does: a guest through an intent on what its mirror shows, the host's
    screen (a person there, or an AI seat) directly; a quarter of a second passes."""
    hub.clock.t += 0.25
    state, index = host.table.state, host.table.match.index
    seat = state.roller() if state.is_chance() else state.current_players()[0]
    holder = host.holders[seat]
    if holder == HOST:
        if state.is_chance():
            host.roll(index)
        else:
            host.submit(seat, ai.choose_move(state, seat, "greedy", rng), index)
    else:
        phone = next(p for p in phones if p.guest.guest_id == holder)
        mirror = phone.guest.table.state
        if mirror.is_terminal() or (mirror.is_chance() and mirror.roller() != seat) or \
                (not mirror.is_chance() and seat not in mirror.current_players()):
            phone.conn.send('{"kind":"sync"}')  # its mirror lags (messages overtook each other)
        elif mirror.is_chance():
            phone.conn.send(phone.guest.intent("roll"))
        else:
            phone.conn.send(phone.guest.intent(ai.choose_move(mirror, seat, "greedy", rng)))
    hub.run()


def play(host, hub, phones, rng, moves: int | None = None) -> None:
    for _ in range(moves if moves is not None else 5000):
        if host.table.state.is_terminal():
            return
        act(host, hub, phones, rng)
    assert moves is not None, "the game never ended"


def vanish(host, hub, clock, phones) -> float:
    """The host's phone drops off (no close ever comes, like a crashed tab) and time passes until
    every guest counts it lost; returns the time the guests agree it was lost."""
    hub.queue.clear()
    hub.host = None  # nothing reaches it any more
    clock.t += LOST_SECONDS - 0.5
    assert not any(p.watch.lost(clock()) for p in phones)  # not yet: 11.5 s of silence
    clock.t += 0.5
    assert all(p.watch.lost(clock()) for p in phones)
    lost = {p.watch.lost_at for p in phones}
    assert len(lost) == 1
    return lost.pop()


def hand_over(clock, phones, heir, lost_at, mess=None):
    """`heir` takes over; every other phone follows it to the heir's room."""
    room = take_over(heir.guest, clock())
    assert room.room_id == heir_room_id(heir.guest.room, heir.guest.guest_id)
    hub = Hub(room, clock, mess)
    others = [p for p in phones if p is not heir]
    for phone in others:
        phone.inner = Follower.of_guest(phone.guest, clock, lost_at)
        phone.conn = hub.connect(phone)
    hub.run()
    return room, hub, others


@pytest.mark.parametrize("n_guests, seated", [(3, 2), (4, 3), (5, 3)])
def test_the_host_vanishes_mid_game_the_next_in_line_takes_over_and_the_game_finishes_everywhere(n_guests, seated):
    clock, host, hub, phones = new_room(n_guests, seated)
    rng = random.Random(n_guests)
    play(host, hub, phones, rng, moves=25)
    before = list(host.table.record.moves)
    throws_before = len(host.dice.throws)
    assert throws_before > 0 and not host.table.state.is_terminal()
    lost_at = vanish(host, hub, clock, phones)
    # Every guest computes the same line: the seated guests by seat, then the watchers by join order.
    names = {p.guest.guest_id: p.name for p in phones}
    lines = {tuple(Known.of_guest(p.guest).heirs) for p in phones}
    assert len(lines) == 1
    assert [names[g] for g in lines.pop()] == [p.name for p in phones]
    heir = phones[0]
    room, hub2, others = hand_over(clock, phones, heir, lost_at)
    assert all(p.inner.status == "in" for p in others), [p.inner.reason for p in others]
    # The heir holds the full record; the AI seat and Ann's seat are played on its phone now, Ann's
    # by the AI until she is back; its own seat is a person's on its screen; the others keep theirs.
    assert room.table.record.moves == before
    assert room.holders[:2] == [HOST, HOST] and room.table.seats[0]["ai"] == "medium"
    assert room.holders[2] == HOST and room.table.seats[2] == {"name": "Bo", "symbol": "■", "ai": None}
    assert room.holders[3:] == [p.guest.guest_id for p in phones[1:seated]]
    # Fresh dice: a new commitment, and the throws before the hand-over said to be uncheckable.
    assert room.dice.commit != host.dice.commit and room.dice.throws == []
    # every follower adds its share of randomness to the new dice
    assert {g for g, _ in room.dice.entropies} == {p.guest.guest_id for p in others}
    assert room.handover["dice"] == "room.dice_unverifiable" and room.handover["throws"] == throws_before
    for p in others:
        assert p.guest.room == room.room_id and p.guest.handover["dice"] == "room.dice_unverifiable"
        assert p.guest.table.record.moves == before and p.guest.seat == phones.index(p) + 2 if phones.index(p) < seated \
            else p.guest.seat is None
    resumed = clock()
    assert resumed - lost_at < 20 - LOST_SECONDS  # (nothing else waited: the heir was first in line)
    play(room, hub2, others, rng)
    assert room.table.state.is_terminal()
    for p in others:
        assert p.guest.table.record.moves == room.table.record.moves
        assert p.guest.table.record.moves[:len(before)] == before
        assert p.guest.table.state.scores() == room.table.state.scores()
        assert p.guest.dice_check == "ok"  # the dice after the hand-over check out
    assert room.table.standings.games == 1


def test_the_old_host_comes_back_as_a_guest_in_its_seat_and_plays_on():
    clock, host, hub, phones = new_room(3, 2)
    rng = random.Random(11)
    play(host, hub, phones, rng, moves=20)
    lost_at = vanish(host, hub, clock, phones)
    room, hub2, others = hand_over(clock, phones, phones[0], lost_at)
    play(room, hub2, others, rng, moves=10)
    assert not room.table.state.is_terminal()
    # Ann's phone is back: it finds the heir (the first in its own line whose room answers).
    ann = Phone("Ann", clock)
    ann.inner = Follower.of_old_host(host, clock)
    assert ann.inner.heir_room(Known.of_host(host).heirs[0]) == room.room_id
    ann.conn = hub2.connect(ann)
    hub2.run()
    assert ann.inner.status == "in", ann.inner.reason
    old = old_host_id(host.room_id)
    assert ann.inner.guest.guest_id == old and room.holders[0] == old and ann.inner.guest.seat == 0
    assert room.table.seats[0] == {"name": "Ann", "symbol": "●", "ai": None}
    assert ann.inner.guest.table.record.moves == room.table.record.moves
    ann.guest = ann.inner.guest
    play(room, hub2, others + [ann], rng)
    assert ann.guest.table.record.moves == room.table.record.moves and ann.guest.dice_check == "ok"
    # Anyone else saying hello as the old host is refused.
    eve = RoomGuest("Eve", old, "f" * 64)
    conn = hub2.connect(eve)
    hub2.run()
    assert eve.status == "refused" and not conn.open


def test_a_guest_not_next_in_line_is_refused_until_its_turn_comes():
    clock, host, hub, phones = new_room(4, 2)
    rng = random.Random(3)
    play(host, hub, phones, rng, moves=15)
    lost_at = vanish(host, hub, clock, phones)
    bo, cy, di, ed = phones
    # Cy (second in line) claims the table at once: the others refuse it; Bo is first.
    room = take_over(cy.guest, clock())
    hub2 = Hub(room, clock)
    for phone in (di, ed):
        phone.inner = Follower.of_guest(phone.guest, clock, lost_at)
        phone.conn = hub2.connect(phone)
    hub2.run()
    assert [(p.inner.status, p.inner.reason) for p in (di, ed)] == [("refused", "room.not_next")] * 2
    assert di.guest.room == host.room_id and di.guest.handover is None  # nothing taken from it
    # Cy says it is Bo (Bo's room id, Bo's name in the claim): its proof does not match Bo's key.
    forged = take_over(cy.guest, clock())
    forged.room_id = heir_room_id(host.room_id, bo.guest.guest_id)
    forged.claim = {**forged.claim, "heir": bo.guest.guest_id}
    assert check_claim(Known.of_guest(di.guest), forged.snapshot(), clock(), lost_at) == "room.bad_heir"
    # A phone that still hears its host takes no heir at all (it never counted the host lost).
    assert not HostWatch(clock() - 1).lost(clock())
    # Bo never shows up (it vanished with the host): at Cy's turn, Cy's claim is taken.
    clock.t = lost_at + TURN_SECONDS
    assert Known.of_guest(di.guest).heir_at(clock(), lost_at) == cy.guest.guest_id
    room2, hub3, others = hand_over(clock, [cy, di, ed], cy, lost_at)
    assert [p.inner.status for p in others] == ["in", "in"]
    # Bo's seat waits for Bo, as any gone guest's seat does, until the (new) host hands it to the AI.
    assert room2.holders[2] == bo.guest.guest_id
    room2.release(2, "greedy")
    play(room2, hub3, others, rng)
    assert di.guest.table.record.moves == ed.guest.table.record.moves == room2.table.record.moves


def test_a_forged_record_is_refused():
    clock, host, hub, phones = new_room(3, 2)
    rng = random.Random(9)
    play(host, hub, phones, rng, moves=30)
    lost_at = vanish(host, hub, clock, phones)
    bo, cy, _di = phones
    known = Known.of_guest(cy.guest)
    honest = take_over(bo.guest, clock()).snapshot()
    assert check_claim(known, honest, clock(), lost_at) is None
    moves = honest["table"]["record"]["moves"]
    # The last choice that had another the rules allow, changed for it: the record replays, but
    # differs from what Cy saw.
    at = next(i for i in range(len(moves) - 1, -1, -1) if moves[i][0] >= 0 and
              len(bo.guest.table.record.replay(i).legal_moves()) > 1)
    seat, move = moves[at]
    other = next(m for m in bo.guest.table.record.replay(at).legal_moves() if m != move)
    swapped = {**honest, "table": {**honest["table"], "record": {**honest["table"]["record"],
                                                                   "moves": moves[:at] + [[seat, other]]}}}
    assert check_claim(known, swapped, clock(), lost_at) == "room.forged_record"
    # A move the rules refuse (the record does not replay).
    broken = {**honest, "table": {**honest["table"], "record": {**honest["table"]["record"],
                                                                  "moves": moves[:5] + [[0, "nonsense"]]}}}
    assert check_claim(known, broken, clock(), lost_at) == "room.forged_record"
    # A record cut short is a prefix of what Cy saw: taken (Cy goes back to it, and says so);
    # but another game, or a different start, is refused.
    cut = {**honest, "table": {**honest["table"], "record": {**honest["table"]["record"], "moves": moves[:-3]}}}
    assert check_claim(known, cut, clock(), lost_at) is None
    other_start = {**honest, "table": {**honest["table"], "start_seats": [(honest["table"]["start_seats"][0] + 1) % 4]}}
    assert check_claim(known, other_start, clock(), lost_at) == "room.forged_record"
    # Through the transport: the forged heir's room is refused and nothing of it is taken.
    room = take_over(bo.guest, clock())
    room.table.match.record.moves[at:] = [(seat, other)]
    room.table.match.state = room.table.record.replay()
    hub2 = Hub(room, clock)
    cy.inner = Follower.of_guest(cy.guest, clock, lost_at)
    cy.conn = hub2.connect(cy)
    hub2.run()
    assert (cy.inner.status, cy.inner.reason) == ("refused", "room.forged_record")
    assert cy.guest.table.record.moves == [tuple(m) for m in moves] and cy.guest.room == host.room_id


def test_a_claim_for_another_room_or_out_of_shape_is_refused():
    clock, host, hub, phones = new_room(3, 2)
    play(host, hub, phones, random.Random(2), moves=10)
    lost_at = vanish(host, hub, clock, phones)
    known = Known.of_guest(phones[1].guest)
    honest = take_over(phones[0].guest, clock()).snapshot()
    for claim in (None, "x", {**honest["succession"], "from": "dice-someotherroom00"},
                  {**honest["succession"], "generation": 2}, {**honest["succession"], "proof": "<b>"},
                  {**honest["succession"], "extra": 1}):
        assert check_claim(known, {**honest, "succession": claim}, clock(), lost_at) is not None
    assert check_claim(known, {**honest, "room": "dice-elsewhere0000000"}, clock(), lost_at) == "room.no_claim"


def test_nothing_is_lost_or_doubled_when_messages_overtake_each_other_or_come_twice():
    for seed in range(3):
        mess = random.Random(seed)
        clock, host, hub, phones = new_room(4, 3, mess)
        rng = random.Random(100 + seed)
        play(host, hub, phones, rng, moves=40)
        lost_at = vanish(host, hub, clock, phones)
        room, hub2, others = hand_over(clock, phones, phones[0], lost_at, mess)
        assert all(p.inner.status == "in" for p in others)
        # A guest's intent resent after the hand-over (it never heard back): refused as stale
        # when it was played, so played once.
        play(room, hub2, others, rng)
        for p in others:  # one more sync each: the last messages may have overtaken each other
            p.conn.send('{"kind":"sync"}')
        hub2.run()
        moves = room.table.record.moves
        assert room.table.record.replay().is_terminal()
        for p in others:
            assert p.guest.table.record.moves == moves and p.guest.dice_check in ("ok", None)
        assert hub.messed["reordered"] > 0 and hub2.messed["duplicated"] > 0


def test_a_move_resent_to_the_heir_is_played_once():
    clock, host, hub, phones = new_room(3, 2)
    rng = random.Random(4)
    play(host, hub, phones, rng, moves=12)
    # Play until it is Cy's (seat 3) turn to choose, Cy sends its move, the host plays it and
    # vanishes; the heir had it, and Cy, not sure it arrived, sends it again to the heir.
    for _ in range(500):
        state = host.table.state
        if not state.is_chance() and 3 in state.current_players():
            break
        act(host, hub, phones, rng)
    cy = phones[1]
    intent = cy.guest.intent(ai.choose_move(cy.guest.table.state, 3, "greedy", rng))
    cy.conn.send(intent)
    hub.run()
    played = len(host.table.record.moves)
    lost_at = vanish(host, hub, clock, phones)
    room, hub2, _ = hand_over(clock, phones, phones[0], lost_at)
    cy.conn.send(intent)
    hub2.run()
    # (refused on its turn or its index, whichever the host checks first: played once either way)
    assert len(room.table.record.moves) == played
    assert cy.guest.errors[-1] in ("error.stale_move", "room.not_your_turn")
    assert cy.guest.table.record.moves == room.table.record.moves


def test_the_watch_counts_the_host_lost_after_twelve_quiet_seconds_only():
    watch = HostWatch(0.0)
    for t in (2.0, 4.0, 6.0):
        watch.heard(t)
    assert not watch.lost(6.0 + LOST_SECONDS - 0.01)
    assert watch.lost(6.0 + LOST_SECONDS) and watch.lost_at == 6.0 + LOST_SECONDS
    watch.heard(100.0)  # too late: the hand-over has begun
    assert watch.lost_at == 6.0 + LOST_SECONDS


def test_the_line_is_seats_first_then_watchers_by_join_order_away_or_not():
    key = "a" * 64
    guests = [{"id": g, "name": g, "away": g == "watcher2", "key": key} for g in
              ("watcher1", "seated3x", "watcher2", "seated1x", "watcher3")] + [{"id": "nokey123", "away": False}]
    holders = [HOST, "seated1x", HOST, "seated3x", "nokey123"]
    assert line(holders, guests) == ["seated1x", "seated3x", "watcher1", "watcher2", "watcher3"]
    # Who is away does not move anyone: two guests whose last rooms differ only in that agree.
    flapped = [{**g, "away": not g.get("away")} for g in guests]
    assert line(holders, flapped) == line(holders, guests)


def test_the_heir_reloads_and_keeps_its_claim_and_the_old_hosts_seat():
    clock, host, hub, phones = new_room(3, 2)
    rng = random.Random(6)
    play(host, hub, phones, rng, moves=15)
    lost_at = vanish(host, hub, clock, phones)
    room = take_over(phones[0].guest, clock())
    saved = json.loads(json.dumps(room.to_json()))
    back = resume_room(saved, clock())
    assert isinstance(back, SuccessorHost) and back.claim == room.claim and back.returning == room.returning
    assert back.table.record.moves == room.table.record.moves and back.room_id == room.room_id
    # The heir's page reloaded before Cy followed: Cy still finds the claim and follows.
    hub2 = Hub(back, clock)
    cy = phones[1]
    cy.inner = Follower.of_guest(cy.guest, clock, lost_at)
    cy.conn = hub2.connect(cy)
    hub2.run()
    assert cy.inner.status == "in"
    # A save whose claim is out of shape, or names another heir, or keeps a seat that is not there: refused.
    for bad in ({**saved, "succession": {**saved["succession"], "proof": "x"}},
                {**saved, "succession": {**saved["succession"], "heir": phones[1].guest.guest_id}},
                {**saved, "returning": {**saved["returning"], "seats": [[9, saved["returning"]["seats"][0][1]]]}}):
        with pytest.raises(ValueError):
            resume_room(bad, clock())
    plain = resume_room({**saved, "succession": None, "returning": None}, clock())
    assert type(plain) is RoomHost
