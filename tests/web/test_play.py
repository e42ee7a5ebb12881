"""The play controller and every game's view under CPython, with a stand-in for the app shell.

Whole games through the controller (people's proposals, AI seats, dice), every position drawn in
one of the five languages with no raw key or placeholder left; then the controller's contracts:
one render per action, stale screens ignored, the mover's own dice thrown at once, hints and
Apply, the auto-play countdown, take-backs from the view.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from dicehall.gameview import Move, Roll, TakeBack, Ui
from fakehost import FakeHost, run as run_async, settle
from pygame_core.protocol import CHANCE
from pygame_core.registry import entries, get_entry
from pygame_core.table import Table
from support import LANGS, load_catalog

GAMES = list(entries())
TAG = re.compile(r"<[^>]+>")
STYLE = re.compile(r"<style>.*?</style>", re.S)
REAL_SLEEP = asyncio.sleep
SLEPT: list[float] = []


@pytest.fixture(autouse=True)
def fast_clock(monkeypatch):
    """Pacing and countdown seconds pass at once (their lengths are recorded in SLEPT)."""
    SLEPT.clear()

    async def fast_sleep(seconds, *args):
        SLEPT.append(seconds)
        await REAL_SLEEP(0)

    monkeypatch.setattr(asyncio, "sleep", fast_sleep)


def text_of(html: str) -> str:
    return TAG.sub(" ", STYLE.sub(" ", html))  # a style rule (a guide's anchor) is no words


def all_keys(game: str) -> set[str]:
    keys = set(load_catalog("en", game))
    return {k for k in keys if "." in k}


def check_words(html: str, keys: set[str]) -> None:
    text = text_of(html)
    assert "{" not in text and "}" not in text, text[:300]
    words = set(re.findall(r"[a-z_]+(?:\.[a-z_0-9]+)+", text))
    assert not (words & keys), words & keys


def seats_for(game: str, kinds: list[str | None]) -> list[dict]:
    return [{"name": f"P{i}", "symbol": "●▲■◆★"[i], "ai": kind} for i, kind in enumerate(kinds)]


def new_host(game: str, kinds, lang="en", settings=None, seed=1) -> FakeHost:
    host = FakeHost(lang, settings, seed)
    host.open_game(game)
    table = Table(game, seats_for(game, kinds))
    table.new_game(random.Random(seed))
    host.play.load(table)
    return host


async def person_step(host: FakeHost, rng: random.Random) -> None:
    """What a person at the screen does: throw their dice, or make a legal move."""
    play = host.play
    state = play.table.state
    seat = play.acting_seat()
    assert seat is not None, "a person must be able to act when the controller waits"
    index = play.table.match.index
    if state.is_chance():
        assert play.propose(Roll(seat), index)
    else:
        assert play.propose(Move(seat, rng.choice(state.legal_moves(seat))), index)
    assert play.table.match.index > index


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_through_the_controller_in_five_languages(game):
    rules = get_entry(game).rules
    rng = random.Random(7)
    for n, lang in zip(range(rules.min_players, rules.max_players + 1), LANGS * 2):
        kinds = [None if i % 2 == 0 else get_entry(game).setup_level for i in range(n)]
        host = new_host(game, kinds, lang, seed=n)
        host.catalog.add(game, load_catalog(lang, game), load_catalog("en", game))
        keys = all_keys(game) | set(load_catalog("en"))

        async def run():
            host.play.kick()
            await settle(host)
            steps = 0
            while not host.play.table.state.is_terminal():
                host.render()
                check_words(host.body, keys)
                await person_step(host, rng)
                await settle(host)
                steps += 1
                assert steps < 5000

        run_async(run)
        host.render()
        check_words(host.body, keys)
        assert 'data-testid="results"' in host.body
        table, ui = host.saved
        assert Table.loads(table).state.to_json() == host.play.table.state.to_json()


def penta_host(**settings) -> FakeHost:
    host = new_host("penta", [None], settings=settings)
    return host


def test_one_render_per_action_and_own_dice_follow_at_once():
    host = penta_host()
    play = host.play

    async def run():
        play.kick()
        await settle(host)
        state = play.table.state
        assert state.is_chance() and state.roller() == 0 and play.acting_seat() == 0  # a person taps Roll
        before = host.renders
        assert play.propose(Roll(0), 0)
        assert host.renders == before + 1 and play.table.state.rolls == 1
        dice = play.table.state.dice
        keep = "keep " + " ".join(map(str, sorted(dice[:2])))
        before = host.renders
        assert play.propose([Ui({"held": [0, 1]}), Move(0, keep)], 1)
        assert host.renders == before + 1
        assert play.table.state.rolls == 2 and play.table.match.index == 3  # the keep and its throw
        assert play.table.state.dice[:2] == dice[:2]

    run_async(run)


def test_a_screen_that_is_out_of_date_changes_nothing():
    async def run():
        host = penta_host()
        play = host.play
        play.propose(Roll(0), 0)
        saved = host.saved
        assert not play.propose(Move(0, "score chance"), 0)  # drawn before the roll
        assert play.table.match.index == 1 and host.saved == saved
        assert not play.propose(Roll(0), 1)  # not a chance node any more: refused with a message
        assert host.said[-1] == (host.t("error.not_your_turn"), True)
        assert play.table.match.index == 1

    run_async(run)


def test_illegal_proposal_is_explained_and_changes_nothing():
    async def run():
        host = penta_host()
        play = host.play
        play.propose(Roll(0), 0)
        before = play.table.state.to_json()
        assert not play.propose(Move(0, "score nowhere"), 1)
        assert host.said[-1][1] is True and play.table.state.to_json() == before

    run_async(run)


def test_hint_and_apply_mark_the_suggested_dice():
    async def run():
        host = penta_host(hints=True)
        play = host.play
        play.table.submit(CHANCE, "roll 6 2 6 6 6", 0)
        play.load(play.table)
        play.handle("hint", None, 1)
        ctx = play.context()
        assert ctx.hint["state"] == "ready" and ctx.hint["options"][0]["move"] == "keep 6 6 6 6"
        assert 'data-testid="hint-option-0"' in host.body
        play.handle("hint-apply", None, 1)
        assert sorted(play.ui["held"]) == [0, 2, 3, 4] and play.table.match.index == 1  # marked, not played

    run_async(run)


def test_countdown_plays_the_computers_choice():
    host = penta_host(autofill=True)
    play = host.play

    async def run():
        play.kick()
        await settle(host)
        play.propose(Roll(0), 0)
        play.propose(Move(0, "keep"), 1)
        play.propose(Move(0, "keep"), 3)
        await settle(host)
        assert play.table.match.index == 6 and play.table.state.rolls == 0  # a box was written
        assert SLEPT.count(1) == 3  # 3, 2, 1
        last = play.table.record.moves[-1]
        before = play.table.record.replay(5)
        from pygame_core.games.penta import solver

        assert last == (0, solver.best_move(before))
        # "wait" stops it for that position
        play.propose(Roll(0), 6)
        play.propose(Move(0, "keep"), 7)
        play.propose(Move(0, "keep"), 9)
        await REAL_SLEEP(0)
        play.handle("stop-countdown", None, 11)
        await settle(host)
        assert play.table.match.index == 11

    run_async(run)


def test_take_back_through_the_fixture_view():
    host = new_host("claim", [None, None], seed=3)
    play = host.play

    async def run():
        play.kick()
        await settle(host)
        roller = play.table.state.roller()
        play.propose(Roll(roller), 0)
        play.handle("pick", "a1", 1)
        assert play.table.state.picks == {0: "a1"}
        host.render()  # hot seat: the other person is asked to take the phone first
        assert 'data-testid="handover"' in host.body and play.handover == 1
        play.handle("handover-ok", None, 2)
        assert 'data-testid="take-back-0"' in host.body
        play.handle("take-back", "0:1", 2)
        assert play.table.state.picks == {} and play.table.match.index == 1
        play.handle("pick", "b2", 1)
        play.handle("pick", "c3", 2)  # seat 1: the round resolves
        assert play.table.state.round == 1 and play.take_back_positions() == {}

    run_async(run)


def test_saved_ui_is_checked_against_the_position():
    async def run():
        host = penta_host()
        play = host.play
        play.propose(Roll(0), 0)
        table_text, ui_text = host.saved
        ui = json.loads(ui_text)
        for bad in ({"held": ["x"], "order": [9], "box": "nowhere", "moves": 1}, "str", 5, {"moves": 0}):
            fresh = FakeHost()
            fresh.open_game("penta")
            fresh.play.load(Table.loads(table_text), bad)
            fresh.render()
            assert fresh.play.ui.get("held", []) == [] and fresh.play.ui.get("box") is None
        fresh.play.load(Table.loads(table_text), {**ui, "held": [1, 3], "box": "chance"})
        assert fresh.play.ui["held"] == [1, 3] and fresh.play.ui["box"] == "chance"

    run_async(run)


def test_tapping_a_seat_shows_that_players_card_until_the_turn_ends():
    async def run():
        host = new_host("penta", [None, None], seed=2)
        play = host.play
        seat = play.table.state.seat()
        other = 1 - seat
        play.propose(Roll(seat), 0)
        play.handle("view-seat", str(other), 1)
        assert play.context().view_seat == other
        assert f'data-testid="player-{other}"' in host.body and 'aria-pressed="true"' in host.body
        assert re.search(r'<th scope="col" class="other focus">', host.body)
        play.propose(Move(seat, "score chance"), 1)  # the next turn shows the new player's own card
        assert play.context().view_seat is None

    run_async(run)


def test_a_penta_is_celebrated_once_and_the_dice_and_the_end_give_feedback():
    host = penta_host()
    play = host.play

    async def run():
        play.kick()
        await settle(host)
        play.table.submit(CHANCE, "roll 6 6 6 6 6", 0)  # the dice a test chooses
        assert play.propose(Move(0, "score penta"), 1)
        assert 'data-testid="celebrate"' in host.body and "Penta! 50 points" in text_of(host.body)
        assert host.feedbacks == ["celebrate"]
        host.render()
        assert 'data-testid="celebrate"' not in host.body  # shown once
        assert play.propose(Roll(0), 2)
        assert host.feedbacks[-1] == "roll"
        move = next(m for m in play.table.state.legal_moves(0) if m.startswith("score") and m != "score penta")
        assert play.propose(Move(0, move), 3)
        assert 'data-testid="celebrate"' not in host.body  # an ordinary box is no party

    run_async(run)
