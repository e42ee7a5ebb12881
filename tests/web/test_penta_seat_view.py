"""Penta's score card and the seat bar under CPython (issue 29, item 1): a card tapped in the seat
bar never stays up over the acting person's own turn."""

from __future__ import annotations

import random
import re

import pytest

from dicehall.gameview import Move, Roll
from fakehost import FakeHost, run, settle
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


def penta_host(kinds: list[str | None], seed: int) -> FakeHost:
    host = FakeHost("en", seed=seed)
    host.open_game("penta")
    table = Table("penta", [{"name": f"P{i}", "symbol": "●▲"[i], "ai": kind} for i, kind in enumerate(kinds)])
    table.new_game(random.Random(seed))
    host.play.load(table)
    return host


def focused_column(body: str) -> int:
    """The seat whose column the card focuses (the one a phone shows): its head cell is `focus`."""
    heads = re.findall(r'<th scope="col" class="([^"]*)">', body)  # (the corner cell has no class)
    return next(s for s, cls in enumerate(heads) if "focus" in cls.split())


def test_the_persons_own_card_comes_back_when_they_act_after_looking_at_the_computers():
    async def go():
        host = penta_host([None, "greedy"], seed=3)
        play = host.play
        play.kick()
        await settle(host)
        state = play.table.state
        if state.turn_number() == 0:  # the person starts: play a round so the computer writes one
            assert play.propose(Roll(0), play.table.match.index)
            assert play.propose(Move(0, "score chance"), play.table.match.index)
            await settle(host)
        state = play.table.state
        assert state.turn_number() > 0 and state.is_chance() and play.acting_seat() == 0
        # The person's turn has begun; they tap the computer's seat to see what it just wrote.
        play.handle("view-seat", "1", play.table.match.index)
        assert play.context().view_seat == 1 and focused_column(host.body) == 1
        assert play.propose(Roll(0), play.table.match.index)  # their first throw
        assert play.context().view_seat is None
        assert focused_column(host.body) == 0
        assert 'data-testid="box-' in host.body  # their boxes to pick, under "Pick a box"
        # Looking again during the turn is still possible, and a tap on their own seat returns.
        play.handle("view-seat", "1", play.table.match.index)
        assert focused_column(host.body) == 1
        play.handle("view-seat", "1", play.table.match.index)
        assert focused_column(host.body) == 0

    run(go)


def test_a_card_tapped_during_the_computers_turn_gives_way_to_the_persons_own():
    async def go():
        host = penta_host([None, "greedy"], seed=4)
        play = host.play
        state = play.table.state
        if state.seat() == 0:  # the person's round first, then the computer's is under way
            assert play.propose(Roll(0), play.table.match.index)
            assert play.propose(Move(0, "score chance"), play.table.match.index)
        assert play.table.state.seat() == 1
        play.handle("view-seat", "0", play.table.match.index)  # the person's card, mid-turn of the computer
        play.kick()
        await settle(host)
        assert play.table.state.seat() == 0 and play.acting_seat() == 0
        assert play.context().view_seat is None and focused_column(host.body) == 0

    run(go)


# --- three to five seats side by side (issue 29, item 1) ---------------------------------------------
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_every_seats_column_is_on_the_card_with_three_to_five_seats(seats):
    """Each row holds every seat's cell (the current seat's `cur`), both halves are headed by every
    seat's symbol, and with three to five seats each row's label carries its symbol for the eye
    beside its name for screen readers (style.css shows one or the other)."""
    async def go():
        host = FakeHost("en", seed=seats)
        host.open_game("penta")
        table = Table("penta", [{"name": f"P{i}", "symbol": "●▲■◆★"[i], "ai": None} for i in range(seats)])
        table.new_game(random.Random(seats))
        host.play.load(table)
        play = host.play
        person = play.table.state.seat()
        assert play.propose(Roll(person), play.table.match.index)
        body = host.body
        rows = re.findall(r'<tr([^>]*)><th scope="row">(.*?)</th>(.*?)</tr>', body)
        boxes = [r for r in rows if 'data-testid="row-' in r[0]]
        assert len(boxes) == 13
        for attrs, label, cells in rows:
            classes = re.findall(r'<td class="([^"]*)"', cells)
            assert len(classes) == seats, (attrs, cells)
            assert [s for s, cls in enumerate(classes) if "cur" in cls.split()] == [person]
            if "pt-head" in attrs:
                continue
            if seats >= 3:
                name, sym = re.fullmatch(r'<span class="pt-name">(.+)</span><span class="pt-sym" dir="ltr" aria-hidden="true">(.+)</span>',
                                         label).groups()
                assert name and sym and len(sym) <= 4
        heads = re.findall(r'<tr aria-hidden="true" class="pt-head[^"]*">(.*?)</tr>', body)
        assert len(heads) == 2  # one per half
        for head in heads:
            assert "".join(re.findall(r'<span class="sym [^"]*" aria-hidden="true">([^<]*)</span>', head)) == "●▲■◆★"[:seats]
        for s in range(seats):  # every seat's box cells and totals are there
            assert f'data-testid="total-{s}"' in body and f'data-testid="upper-{s}"' in body
            if s != person:
                assert f'data-testid="cell-{s}-ones"' in body

    run(go)
