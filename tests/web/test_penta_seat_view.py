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
