"""Geek Out! Masters' view under CPython through the play controller: the acting die then its
target with only legal choices enabled, one-tap Hearts and lone dice, stop/continue with the odds
(exact values from the solver), the zones and the score pad, the log, UI state checks, hints, and
every language."""

from __future__ import annotations

import re

import pytest

from fakehost import FakeHost, run, settle
from pygame_core.games.geekout import solver
from pygame_core.games.geekout.rules import triangle
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.table import Table
from support import LANGS

# Ann rolls Example 1's dice (contract §14).
EXAMPLE_1 = [(CHANCE, "roll 1 2 3 4 4 5 6")]


def host_at(moves, lang="en", settings=None, kinds=(None, None), players=2) -> FakeHost:
    host = FakeHost(lang, settings)
    host.open_game("geekout")
    names = (("Ann", "●"), ("Bo", "▲"), ("Cy", "■"), ("Di", "◆"))[:players]
    table = Table("geekout", [{"name": n, "symbol": s, "ai": k} for (n, s), k in zip(names, kinds)])
    table.match = Match.new("geekout", {"players": players, "start": 0})
    table.start_seats = [0]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    host.play.load(table)
    host.render()
    return host


def die_button(body: str, slot: int) -> str:
    m = re.search(r'<button[^>]*data-testid="active-' + str(slot) + r'"[^>]*>', body)
    assert m, slot
    return m.group(0)


def enabled_slots(body: str) -> list[int]:
    return [int(s) for s in re.findall(r'<button[^>]*data-testid="active-(\d+)"(?![^>]*disabled)[^>]*>', body)]


def button(body: str, testid: str) -> str:
    m = re.search(r'<button[^>]*data-testid="' + re.escape(testid) + r'"[^>]*>', body)
    return m.group(0) if m else ""


def test_acting_die_then_target_with_only_legal_choices_enabled():
    async def steps():
        host = host_at(EXAMPLE_1, settings={"animations": True})
        play = host.play
        body = host.body
        # Sorted by face: meeple, hero, heart, 42, 42, dragon, ship. Actors only: 42s and the
        # Dragon cannot act.
        assert re.findall(r'data-face="([a-z0-9]+)"', body) == ["meeple", "hero", "heart", "42", "42", "dragon", "ship"]
        assert enabled_slots(body) == [0, 1, 2, 6]
        assert "disabled" in button(body, "cancel")
        play.handle("die", "1", play.table.match.index)  # the Superhero acts...
        body = host.body
        assert 'aria-pressed="true"' in die_button(body, 1) and "acting" in die_button(body, 1)
        assert enabled_slots(body) == [0, 1, 2, 3, 4, 5, 6]  # ...on any other die (itself: cancel)
        assert "target" in die_button(body, 5) and "Superhero: now tap its target." in body
        assert "disabled" not in button(body, "cancel")
        play.handle("die", "5", play.table.match.index)  # ...the Dragon: it becomes a Superhero
        state = play.table.state
        assert play.table.record.moves[-1] == (0, "hero dragon")
        assert state.active == [1, 1, 1, 2, 0, 1] and state.used == 1
        assert "actor" not in play.ui
        body = host.body
        assert re.search(r'data-testid="zone-used" data-count="1"', body)
        # The Heart acts at one tap; its die comes back rolled at once (the same seat throws).
        play.handle("die", "2", play.table.match.index)
        assert play.table.record.moves[-2] == (0, "heart") and play.table.record.moves[-1][0] == CHANCE

    run(steps)


def test_cancel_and_switching_the_acting_die_and_stale_ui_is_dropped():
    async def steps():
        host = host_at(EXAMPLE_1)
        play = host.play
        play.handle("die", "0", play.table.match.index)
        assert play.ui.get("actor") == 0
        play.handle("cancel", None, play.table.match.index)
        assert play.ui.get("actor") is None
        play.handle("die", "6", play.table.match.index)
        assert play.ui.get("actor") == 6
        play.handle("die", "6", play.table.match.index)  # the acting die again: cancel
        assert play.ui.get("actor") is None
        view, state = play.view, play.table.state
        assert view.check_ui({"actor": 3}, state) == {"odds": False}  # a 42 cannot act
        assert view.check_ui({"actor": 1, "odds": 1}, state) == {"odds": True, "actor": 1}
        assert view.check_ui({"actor": 99}, state) == {"odds": False}
        assert view.check_ui("junk", state) == {"odds": False}
        play.handle("die", "3", play.table.match.index)  # a 42 is not a choice: nothing happens
        assert len(play.table.record.moves) == 1

    run(steps)


def test_stop_continue_odds_and_the_score_pad():
    moves = [(CHANCE, "roll 1 4 4 4 4 5 6"), (0, "ship dragon"), (0, "meeple 42"), (CHANCE, "roll 4")]
    async def steps():
        host = host_at(moves, settings={"animations": True})
        play = host.play
        state = play.table.state
        assert state.phase == "decide" and state.scored == 4 and state.used == 2
        body = host.body
        assert "Stop · 10 points" in body and "Continue · roll 2 dice" in body
        assert re.search(r'data-testid="gk-banked" data-n="4" data-points="10"', body)
        assert 'data-testid="odds-panel"' not in body
        play.handle("odds", None, play.table.match.index)
        body = host.body
        m = re.search(r'data-testid="odds-values" data-stop="([\d.]+)" data-continue="([\d.]+)" data-risk="([\d.]+)"', body)
        assert m and float(m.group(1)) == 10
        assert float(m.group(2)) == pytest.approx(solver.get_policy().continue_value(state.inactive, 4), abs=1e-4)
        assert 0 < float(m.group(3)) < 1
        play.handle("stop", None, play.table.match.index)
        assert play.table.state.pad[0] == [10] and play.table.state.seat == 1
        assert 'data-testid="handover-ok"' in host.body  # Bo takes the phone first
        play.handle("handover-ok", None, play.table.match.index)
        body = host.body
        assert re.search(r'data-testid="pad-0-1">10<', body) and re.search(r'data-testid="total-0">10<', body)
        assert "stopped with 4 × 42: 10 points" in body  # the last turn, in words

    run(steps)


def test_hints_rank_every_legal_action_and_apply_plays_the_best():
    async def steps():
        host = host_at([(CHANCE, "roll 3 4 5 5 6 6 6")], settings={"hints": True})
        play = host.play
        play.handle("hint", None, play.table.match.index)
        hint = play.context().hint
        assert hint["state"] == "ready"
        assert sorted(o["move"] for o in hint["options"]) == sorted(play.table.state.legal_moves(0))
        values = [o["value"] for o in hint["options"]]
        assert values == sorted(values, reverse=True)
        best = hint["options"][0]["move"]
        play.handle("hint-apply", None, play.table.match.index)
        assert play.table.record.moves[1] == (0, best)

    run(steps)


def test_a_bust_is_logged_and_the_turn_passes_on():
    moves = [(CHANCE, "roll 2 2 4 4 4 4 4"), (0, "hero hero")]
    async def steps():
        host = host_at(moves)
        state = host.play.table.state
        if 'data-testid="handover-ok"' in host.body:
            host.play.handle("handover-ok", None, host.play.table.match.index)
        assert state.pad[0] == [0] and state.seat == 1 and state.last["result"] == "bust"
        assert "bust: 0 banked 42s lost, 0 points" in host.body

    run(steps)


def test_every_language_renders_a_whole_game_against_the_computer():
    async def steps(lang):
        host = host_at([], lang=lang, kinds=(None, "medium"), settings={"pace": "fast"})
        play = host.play
        play.PACES = {"fast": 0.0}  # no pause between the computer's steps in this test
        for _ in range(3000):
            await settle(host)
            state = play.table.state
            if state.is_terminal() or (lang not in ("en", "ar") and state.turn_number() >= 4):
                break  # whole games in English and Arabic (RTL); two rounds in the others
            if 'data-testid="handover-ok"' in host.body:
                play.handle("handover-ok", None, play.table.match.index)
                continue
            assert play.context().seat == 0
            if state.is_chance():
                play.handle("roll", None, play.table.match.index)
            elif state.phase == "decide":
                play.handle("stop" if state.scored >= 2 or not state.used else "continue", None, play.table.match.index)
            else:
                slot = enabled_slots(host.body)[0]
                play.handle("die", str(slot), play.table.match.index)
                if play.ui.get("actor") is not None:
                    target = next(k for k in enabled_slots(host.body) if k != slot)
                    play.handle("die", str(target), play.table.match.index)
        assert play.table.state.is_terminal() or lang not in ("en", "ar")
        assert "{" not in host.body and "geekout." not in host.body

    for lang in LANGS:
        run(lambda: steps(lang))


def test_describe_move_words_each_kind_of_move():
    host = host_at([])
    t, view = host.t, host.play.view
    assert view.describe_move(t, "meeple 42") == "Meeple rerolls: 42"
    assert view.describe_move(t, "hero dragon") == "Superhero flips: Dragon"
    assert view.describe_move(t, "ship heart") == "Spaceship sends away: Heart"
    assert view.describe_move(t, "meeple") == "Meeple alone: no effect"
    assert view.describe_move(t, "roll 1 4 5") == "Roll: Meeple, 42, Dragon"
    assert [view.breakdown_heads(t)[0], len(view.breakdown_heads(t))] == ["R1", 5]
    assert "55" in view.rules_table(t) and triangle(10) == 55
