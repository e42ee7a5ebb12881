"""Cephalopod through the whole app under CPython (tests/web/fakepage.py), moved here from the
browser suite (tests/browser/test_cephalopod_ui.py keeps one whole 4×4 game set up and played by
clicks, in Arabic on a phone, and Hard never blocking the page). Here: a whole 5×5 game against
the computer by taps, capture choices picked die by die with the live preview and a reload in the
middle of a choice; and whole 3×3 games between two people (hand-over cards, history stepping,
results) in English and in Arabic."""

from __future__ import annotations

import json
import random

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.table import Table
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")


# --- the tap driver ------------------------------------------------------------------------------------
def classes(el) -> list[str]:
    return el.get("class", "").split()


def places(page: FakePage) -> list:
    return [el for el in page.app.walk() if el.get("data-action") == "place"]


def index(page: FakePage) -> int:
    return int(page.find("play").get("data-index"))


async def wait_turn(page: FakePage) -> str:
    """What the screen offers a person: "results", a hand-over card (tapped away: "handover"),
    or a placement ("move")."""
    if page.screen == "results":
        return "results"
    if page.has("handover-ok"):
        await page.tap("handover-ok")
        assert page.has("play")
        return "handover"
    assert places(page), page.text()[:300]
    return "move"


def choice_captures(state) -> dict[str, list[str]]:
    """Squares where a capture offers a choice (several sets), with their legal moves."""
    by_square: dict[str, list[str]] = {}
    for move in state.legal_moves():
        if " " in move:
            by_square.setdefault(move.split("x ")[0], []).append(move)
    return {sq: moves for sq, moves in by_square.items() if len(moves) > 1}


async def pick_dice(page: FakePage, captured: list[str], state, total: int = 0) -> int:
    """In the open picker: tap these captured dice one by one, checking the live preview."""
    for square in captured:
        await page.tap(f"pick-{square}")
        total += state.die(state.geo.index[square])[1]
        assert page.find("capture-preview").get("data-value") == str(total)
        assert "picked" in classes(page.find(f"pick-{square}"))
    return total


async def play_move(page: FakePage, move: str) -> None:
    """A person's move by taps: the square; for a capture the dice, then Confirm."""
    state = page.table().state
    before = index(page)
    at = move.split("x ")[0] if " " in move else move
    await page.tap(f"place-{at}")
    if " " in move:
        assert page.has("capture-picker")
        if move in choice_captures(state).get(at, []):
            assert not page.enabled("confirm-capture")  # nothing chosen yet
            total = await pick_dice(page, move.split(" ")[1:], state)
            assert page.find("capture-preview").get("data-complete") == "1"
            pips = next(el for el in page.find(f"sq-{at}").walk() if "pips" in classes(el))
            assert " ".join(pips.text().split()) == str(total)  # the new die, previewed
        else:  # the only capture there: chosen already, and explained
            assert page.has("capture-only")
        await page.tap("confirm-capture")
    assert page.screen != "play" or page.has("handover") or index(page) > before


def choose(state, rng: random.Random) -> str:
    """The driver's person: takes a capture with a choice whenever there is one, else any move."""
    choices = choice_captures(state)
    if choices:
        return rng.choice(choices[rng.choice(sorted(choices))])
    return rng.choice(state.legal_moves())


# --- a whole game against the computer -------------------------------------------------------------------
def test_a_whole_game_against_the_computer_with_capture_choices_and_a_reload_mid_choice():
    """5×5 against Medium: every move of the person by taps, captures with a choice picked die by
    die; the second such choice is interrupted by a reload (square tapped, one die picked) and
    comes back as it was. The results count each seat's sixes and pips."""
    async def steps():
        page = FakePage(lang="en", seed=3)
        await page.boot()
        await page.tap("new-cephalopod")
        await page.select("seat-1-kind", "ai:medium")
        await page.tap("start-game")
        rng = random.Random(5)
        reloaded = False
        for game in range(1, 4):  # (until the reload has been tried: a game may end before a second choice)
            choices = moves = 0
            while (turn := await wait_turn(page)) != "results":
                if turn != "move":
                    continue
                state = page.table().state
                picks = choice_captures(state)
                if not reloaded and picks and choices >= 1:
                    at = sorted(picks)[0]
                    move = picks[at][-1]
                    first, *rest = move.split(" ")[1:]
                    await page.tap(f"place-{at}")
                    await page.tap(f"pick-{first}")
                    page = page.reload()
                    await page.boot()
                    assert page.has("capture-picker") and "picked" in classes(page.find(f"pick-{first}"))
                    assert json.loads(page.stored("dicehall.ui"))["picked"] == [first]
                    before = index(page)
                    total = state.die(state.geo.index[first])[1]
                    await pick_dice(page, rest, state, total)
                    await page.tap("confirm-capture")
                    assert page.screen != "play" or index(page) > before
                    assert page.table().record.moves[before] == (0, move)
                    reloaded = True
                else:
                    move = choose(state, rng)
                    await play_move(page, move)
                choices += move in [m for ms in picks.values() for m in ms]
                moves += 1
                assert moves < 400, "the game does not end"
            saved = page.table()
            state = saved.state
            assert state.is_terminal() and saved.standings.games == game and state.size == 5
            assert len([m for s, m in saved.record.moves if s == 0]) == moves  # every one from a tap
            for seat in (0, 1):
                assert int(page.text(f"result-total-{seat}")) == state.scores()[seat]
                cells = [" ".join(td.text().split()) for td in page.find(f"result-row-{seat}").walk()
                         if td.tag == "td" and "num" in classes(td)]
                mine = [state.die(i)[1] for i in range(state.geo.n) if state.die(i) and state.die(i)[0] == seat]
                assert [int(c) for c in cells[1:3]] == [mine.count(6), sum(mine)]  # place, sixes, pips, total
            if reloaded:
                break
            await page.tap("play-again")
        assert reloaded, "three games without a second capture with a choice"
        assert not page.errors

    run(steps)


# --- two people at one screen --------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_two_people_play_a_small_board(lang):
    """3×3, two people passing the phone: hand-over cards, a look back through the history (no
    square to tap meanwhile), the results naming the winner. The board is never mirrored."""
    async def steps():
        table = Table("cephalopod", [{"name": "Ann", "symbol": "●", "ai": None},
                                     {"name": "Bo", "symbol": "▲", "ai": None}], {"size": 3})
        table.new_game(random.Random({"en": 0, "ar": 4}[lang]))
        page = FakePage(lang=lang)
        page.browser.items["dicehall.table"] = table.dumps()
        page.browser.items["dicehall.ui"] = json.dumps({"moves": 0})
        page.location = "#/play"
        await page.boot()
        grid = next(el for el in page.app.walk() if "boardgrid" in classes(el))
        assert grid.get("dir") == "ltr"  # the board never mirrors
        assert page.document["dir"] == ("rtl" if lang == "ar" else "ltr")
        texts = load_catalog(lang, "cephalopod")
        rng = random.Random(11)
        moves, stepped, handovers = 0, False, 0
        while (turn := await wait_turn(page)) != "results":
            handovers += turn == "handover"
            if turn != "move":
                continue
            if not stepped and moves >= 4:  # step back through the history, then return
                await page.tap("history-back")
                assert page.text("history-note") == texts["cephalopod.history.viewing"]
                assert places(page) == []
                await page.tap("history-live")
                assert places(page)
                stepped = True
            await play_move(page, choose(page.table().state, rng))
            moves += 1
            assert moves < 300
        saved = page.table()
        assert saved.state.is_terminal() and saved.state.size == 3 and len(saved.record.moves) == moves
        assert stepped and handovers >= moves - 1  # the phone changes hands after every move
        ranks = saved.state.ranking()
        winner = [saved.seats[s]["name"] for s in (0, 1) if ranks[s] == 1]
        if len(winner) == 1:
            assert winner[0] in page.text("winners")
        assert not page.errors

    run(steps)
