"""Rolf's view under CPython through the play controller: candidates and confirmations exactly when
the rules allow, choosing a stolen square again through the platform's take-back, the score card's
parts (a steal lowers the victim, the changed cells flash), the group table's UI state, hints,
results columns, and the board left to right in Arabic."""

from __future__ import annotations

import re

from fakehost import FakeHost, run, settle
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.table import Table
from support import load_catalog

STEAL = [(CHANCE, "roll 1 2 4"), (0, "take 1-2"), (0, "take 1-4"), (0, "next"),
         (CHANCE, "roll 3 4 5"), (1, "take 3-4"), (1, "take 3-5"), (1, "next"),
         (CHANCE, "roll 1 2 6"), (0, "take 6-2"), (0, "take 2-6"), (0, "next"),
         (CHANCE, "roll 1 3 6"), (1, "take 3-6"), (1, "take 6-3"), (1, "next"),
         (CHANCE, "roll 2 3 5")]


def host_at(moves, lang="en", settings=None, kinds=(None, None)) -> FakeHost:
    host = FakeHost(lang, settings)
    host.open_game("rolf")
    table = Table("rolf", [{"name": n, "symbol": s, "ai": k} for (n, s), k in zip((("Ann", "●"), ("Bo", "▲")), kinds)])
    table.match = Match.new("rolf", {"players": 2, "start": 0})
    table.start_seats = [0]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    host.play.load(table)
    host.render()
    return host


def cell(body: str, testid: str) -> str:
    m = re.search(r'<td class="([^"]*)" data-testid="' + re.escape(testid) + r'">([^<]*)</td>', body)
    assert m, testid
    return m.group(2)


def cell_class(body: str, testid: str) -> str:
    return re.search(r'<td class="([^"]*)" data-testid="' + re.escape(testid) + '"', body).group(1)


def button(body: str, testid: str) -> str:
    m = re.search(r'<button[^>]*data-testid="' + re.escape(testid) + r'"[^>]*>', body)
    return m.group(0) if m else ""


def test_candidates_steal_and_choose_again_through_the_take_back():
    async def steps():
        host = host_at(STEAL, settings={"animations": True})
        play = host.play
        body = host.body
        assert sorted(re.findall(r'data-testid="take-(\d-\d)"', body)) == ["2-3", "2-5", "3-2", "3-5", "5-2", "5-3"]
        assert "disabled" in button(body, "confirm") and cell(body, "total-1") == "7"
        play.handle("take", "3-5", play.table.match.index)
        body = host.body
        assert cell(body, "group-1") == "3" and cell(body, "total-1") == "3"  # Bo's row of three is split
        assert "flash" in cell_class(body, "group-1") and "flash" in cell_class(body, "group-0")
        assert 'data-testid="rechoose-3-5"' in body and 'data-testid="rechoose-help"' in body
        play.handle("take-back", "3-5", play.table.match.index)
        assert play.table.state.owner_of(2 * 6 + 4) == 1 and play.table.state.scores() == [4, 7]
        assert [m for _, m in play.table.record.moves] == [m for _, m in STEAL]
        play.handle("take", "2-3", play.table.match.index)
        play.handle("take", "3-2", play.table.match.index)
        body = host.body
        confirm = button(body, "confirm")
        assert "disabled" not in confirm and 'data-kind="next"' in confirm and ">Next player<" in body
        assert 'data-testid="rechoose-2-3"' in body  # open until confirmed
        play.handle("confirm", None, play.table.match.index)
        assert play.table.state.is_chance() and play.table.state.roller() == 1
        if 'data-testid="handover-ok"' in host.body:  # Bo takes the phone first
            play.handle("handover-ok", None, play.table.match.index)
        assert 'data-testid="rechoose-' not in host.body and host.body.count("square owner-0 last") == 2

    run(steps)  # inside an event loop: the controller schedules its automatic steps


def test_a_pair_offers_no_re_choice_and_confirms_with_an_extra_throw_at_once():
    async def steps():
        host = host_at([(CHANCE, "roll 2 2 4")])
        play = host.play
        for square in ("2-2", "2-4", "4-2"):
            assert 'data-testid="rechoose-' not in host.body
            play.handle("take", square, play.table.match.index)
        confirm = button(host.body, "confirm")
        assert 'data-kind="extra"' in confirm and "disabled" not in confirm
        assert "Confirm · extra throw" in host.body
        index = play.table.match.index
        play.handle("confirm", None, index)
        moves = play.table.record.moves
        assert moves[index] == (0, "extra") and moves[index + 1][0] == CHANCE  # the dice followed at once
        assert play.table.state.throw == 1 or play.table.state.skipped

    run(steps)  # inside an event loop: the controller schedules its automatic steps


def test_the_group_table_shows_more_and_fewer_and_the_choice_is_checked_on_load():
    async def steps():
        host = host_at([])
        play = host.play
        assert host.body.count('data-testid="group-row-') == 6
        play.handle("group-table", None, 0)
        assert host.body.count('data-testid="group-row-') == 14 and ">105<" in host.body
        assert play.view.check_ui({"more": 1}, play.table.state) == {"more": True}
        assert play.view.check_ui("junk", play.table.state) == {"more": False}

    run(steps)  # inside an event loop: the controller schedules its automatic steps


def test_hints_rank_legal_squares_and_apply_plays_the_best():
    async def steps():
        host = host_at(STEAL, settings={"hints": True})
        play = host.play
        play.handle("hint", None, play.table.match.index)
        hint = play.context().hint
        assert hint["state"] == "ready" and hint["options"]
        assert all(o["move"] in play.table.state.legal_moves(0) for o in hint["options"])
        assert 'data-testid="hint-option-0"' in host.body and "%" in host.body
        index = play.table.match.index
        play.handle("hint-apply", None, index)
        assert play.table.record.moves[index] == (0, hint["options"][0]["move"])

    run(steps)  # inside an event loop: the controller schedules its automatic steps


def test_results_have_group_diagonal_corners_and_end_columns():
    host = host_at([])
    play = host.play

    async def finish():
        rules_state = play.table.state
        from pygame_core.rng import DiceRoller
        roller = DiceRoller(5)
        while not rules_state.is_terminal():
            if rules_state.is_chance():
                play.table.submit(CHANCE, roller.roll(rules_state), play.table.match.index)
            else:
                play.table.submit(rules_state.current_player(), rules_state.legal_moves()[0], play.table.match.index)
            rules_state = play.table.state
        host.render()
        await settle(host)

    run(finish)
    body = re.search(r'data-testid="results-table">(.*?)</table>', host.body, re.S).group(1)
    heads = re.findall(r'<th scope="col" class="num(?: up)?">(?:<span>)?([^<]*)(?:</span>)?</th>', body)
    assert heads[-5:] == ["Group", "Diagonal", "Corners", "End", "Total"]  # the rules' column order
    state = play.table.state
    for seat in (0, 1):
        row = re.search(r'data-testid="result-row-%d">(.*?)</tr>' % seat, body).group(1)
        numbers = [int(n) for n in re.findall(r'<td class="num[^"]*"[^>]*>(\d+)</td>', row)]
        parts = state.breakdown(seat)
        assert numbers[-5:-1] == [parts["group"], parts["diagonal"], parts["corners"], parts["end"]]
        assert sum(numbers[-5:-1]) == numbers[-1] == state.scores()[seat]


def test_arabic_keeps_the_board_left_to_right_and_every_string_translated():
    host = host_at(STEAL, lang="ar")
    body = host.body
    assert '<div class="boardgrid" dir="ltr"' in body
    ar = load_catalog("ar", "rolf")
    assert ar["rolf.throw"] in body and ar["rolf.part.group"] in body
    assert "rolf." not in re.sub(r"<[^>]+>", " ", body)
