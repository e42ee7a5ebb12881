"""Rolf The Dice through the whole app under CPython (tests/web/fakepage.py), moved here from the
browser suite (tests/browser/test_rolf_ui.py keeps one whole game by clicks against the computer,
its thinking never blocking the page). Here: a whole three-seat game (two people and the
computer) by taps with a reload in the middle and Play again, a stolen square taken back exactly
before confirming (English and Norwegian), and a pair on the first throw confirmed with an extra
throw that follows at once (English and Arabic)."""

from __future__ import annotations

import json

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.table import Table
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")


# --- helpers -----------------------------------------------------------------------------------------
def with_prefix(page: FakePage, prefix: str) -> list:
    return [el for el in page.app.walk() if el.testid and el.testid.startswith(prefix)]


def classes(el) -> list[str]:
    return el.get("class", "").split()


def squares(page: FakePage) -> list:
    """The board's squares ('.boardgrid .square')."""
    grid = next(el for el in page.app.walk() if "boardgrid" in classes(el))
    return [el for el in grid.walk() if "square" in classes(el)]


def snapshot(page: FakePage) -> dict:
    """What the players see of the position (the browser test's snapshot)."""
    card = page.find("scorecard")
    return {
        "seat": page.find("play").get("data-seat"),
        "phase": page.find("rolf-board").get("data-phase"),
        "dice": [el.get("data-value") for el in with_prefix(page, "die-")],
        "board": "|".join(f"{el.testid}:{el.inner_text()}:{el.get('class')}" for el in squares(page)),
        "card": "|".join(td.inner_text() for td in card.walk() if td.tag == "td"),
        "prompt": page.text("prompt"),
    }


async def step(page: FakePage) -> str:
    """What a person at the screen does next: pass the phone on, throw, take the first offered
    square, or confirm the throw ("results" once the game is over)."""
    if page.screen == "results":
        return "results"
    if page.has("handover-ok"):
        await page.tap("handover-ok")
        return "handover"
    if page.enabled("roll"):
        await page.tap("roll")
        return "roll"
    offered = with_prefix(page, "take-")
    if offered:
        await page.tap(offered[0].testid)
        return "take"
    await page.tap("confirm")
    return "confirm"


def table_at(moves: list[tuple[int, str]], people: int = 2) -> Table:
    """A table of people whose game (start seat 0) has these moves."""
    seats = [{"name": name, "symbol": symbol, "ai": None} for name, symbol in (("Ann", "●"), ("Bo", "▲"))[:people]]
    table = Table("rolf", seats)
    table.match = Match.new("rolf", {"players": people, "start": 0})
    table.start_seats = [0]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    return table


async def open_position(table: Table, lang: str) -> FakePage:
    page = FakePage(lang=lang)
    page.browser.items["dicehall.table"] = table.dumps()
    # had_screen None: the tab is opened on this position, nobody has had the screen yet (a view
    # state without it is an older save: its next person would get the hand-over card first)
    page.browser.items["dicehall.ui"] = json.dumps({"more": False, "moves": table.match.index, "had_screen": None})
    page.location = "#/play"
    await page.boot()
    assert page.has("rolf-board")
    return page


def card_value(page: FakePage, testid: str) -> int:
    return int(page.find(testid).inner_text())


# --- a whole game --------------------------------------------------------------------------------------------
def test_three_seats_two_people_and_the_computer_by_taps_with_a_reload_and_play_again():
    """Two people and the computer at one screen, played to the results by taps: a reload at a person's
    placement shows the same throw, squares, scores and prompt; the results have the parts'
    columns; Play again moves the start seat on and keeps the standings."""
    async def steps():
        page = FakePage(lang="en", seed=7)
        await page.boot()
        await page.tap("new-rolf")
        await page.tap("seats-3")
        for seat, kind in enumerate(["person", "person", "ai:greedy"]):
            await page.select(f"seat-{seat}-kind", kind)
        await page.tap("start-game")
        count, reloaded = 0, False
        while (done := await step(page)) != "results":
            count += 1
            assert count < 1500, "the game does not end"
            if not reloaded and count >= 8 and done == "take" and with_prefix(page, "take-"):
                before = snapshot(page)
                page = page.reload()
                await page.boot()
                if page.has("handover-ok"):
                    await page.tap("handover-ok")
                assert snapshot(page) == before  # the same throw, squares, scores and prompt
                reloaded = True
        assert reloaded and not page.errors
        saved = page.table()
        state = saved.state
        assert state.is_terminal() and saved.standings.games == 1
        assert len(with_prefix(page, "result-row-")) == 3
        for seat in range(3):
            assert int(page.text(f"result-total-{seat}")) == state.scores()[seat]
            cells = [td.inner_text() for td in page.find(f"result-row-{seat}").walk()
                     if td.tag == "td" and "num" in classes(td)]
            parts = state.breakdown(seat)
            assert [int(c) for c in cells[1:]] == [parts["group"], parts["diagonal"], parts["corners"], parts["end"],
                                                   state.scores()[seat]]  # Place, Player, the parts, Total
        en = load_catalog("en", "rolf")
        head = next(el for el in page.find("results-table").walk() if el.tag == "thead")
        heads = [th.inner_text() for th in head.walk() if th.tag == "th"]
        assert [en["rolf.part.group"], en["rolf.part.diagonal"], en["rolf.part.corners"], en["rolf.part.end"]] == heads[-5:-1]
        body = next(el for el in page.find("standings").walk() if el.tag == "tbody")
        assert len([tr for tr in body.walk() if tr.tag == "tr"]) == 3
        await page.tap("play-again")
        assert page.has("rolf-board")
        again = page.table()
        assert again.start_seats[1] == (again.start_seats[0] + 1) % 3  # the start seat moves on
        assert again.standings.games == 1 and again.standings.points == saved.standings.points
        assert again.record.replay(0).roller() == again.start_seats[1]  # (the computer may have played on)

    run(steps)


# --- choosing again --------------------------------------------------------------------------------------
STEAL = [(CHANCE, "roll 1 2 4"), (0, "take 1-2"), (0, "take 1-4"), (0, "next"),
         (CHANCE, "roll 3 4 5"), (1, "take 3-4"), (1, "take 3-5"), (1, "next"),
         (CHANCE, "roll 1 2 6"), (0, "take 6-2"), (0, "take 2-6"), (0, "next"),
         (CHANCE, "roll 1 3 6"), (1, "take 3-6"), (1, "take 6-3"), (1, "next"),
         (CHANCE, "roll 2 3 5")]


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_a_stolen_square_is_taken_back_exactly_before_confirming(lang):
    """Ann steals the middle of Bo's row (Bo's score drops at once), chooses again (the square
    and the score go back exactly, in the saved game too), takes two others, confirms; the
    choices are locked once Bo has the phone, the last throw's squares marked for everybody."""
    async def steps():
        table = table_at(STEAL)
        assert table.state.scores() == [4, 7]
        page = await open_position(table, lang)
        assert card_value(page, "total-1") == 7 and card_value(page, "group-1") == 7
        assert len(with_prefix(page, "take-")) == 6  # the six squares of 2, 3, 5
        await page.tap("take-3-5")  # steal the middle of Bo's row
        assert page.has("rechoose-3-5")
        assert card_value(page, "total-1") == 3 and card_value(page, "group-1") == 3  # Bo's row is split
        assert "▲" not in page.find("rechoose-3-5").inner_text() and "●" in page.find("rechoose-3-5").inner_text()
        assert page.has("rechoose-help")
        assert page.table().record.moves[-1] == (0, "take 3-5")
        await page.tap("rechoose-3-5")  # choose again: the square goes back to Bo as it was
        assert page.has("take-3-5")
        assert card_value(page, "total-1") == 7 and card_value(page, "total-0") == 4
        saved = page.table()
        assert saved.record.moves == table.record.moves and saved.state.to_json() == table.state.to_json()
        await page.tap("take-2-3")
        await page.tap("take-3-2")
        assert page.enabled("confirm") and page.find("confirm").inner_text() == load_catalog(lang, "rolf")["rolf.next_player"]
        assert page.has("rechoose-2-3")  # still open until confirmed
        await page.tap("confirm")
        assert page.has("handover-ok")  # Bo's turn: the phone goes to Bo first
        await page.tap("handover-ok")
        assert page.find("rolf-board").get("data-phase") == "throw"
        assert with_prefix(page, "rechoose-") == []  # locked
        assert len([el for el in squares(page) if "last" in classes(el)]) == 2  # the last throw's squares
        assert not page.errors

    run(steps)


# --- an extra throw ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_pair_on_the_first_throw_is_confirmed_with_an_extra_throw_that_follows_at_once(lang):
    """A pair: its three squares taken leave nothing to choose again; Confirm says "extra throw"
    and the dice are thrown at once (nobody taps Throw), or, when that throw offers only Ann's
    own squares, it is skipped and Bo has the turn. The board never mirrors."""
    async def steps():
        page = await open_position(table_at([(CHANCE, "roll 2 2 4")]), lang)
        words = load_catalog(lang, "rolf")
        grid = next(el for el in page.app.walk() if "boardgrid" in classes(el))
        assert grid.get("dir") == "ltr"  # the board never mirrors
        assert len(with_prefix(page, "take-")) == 3
        assert not page.enabled("confirm")  # not before the placements
        for square in ("take-2-2", "take-2-4", "take-4-2"):
            await page.tap(square)
            assert not page.has(square)
        assert with_prefix(page, "rechoose-") == []  # a pair leaves nothing to re-choose
        confirm = page.find("confirm")
        assert page.enabled("confirm") and confirm.get("data-kind") == "extra"
        assert confirm.inner_text() == words["rolf.confirm_extra"]
        await page.tap("confirm")
        saved = page.table()
        assert saved.record.moves[-2] == (0, "extra") and saved.record.moves[-1][0] == CHANCE  # thrown at once
        if page.has("handover-ok"):  # the extra throw offered only Ann's own squares:
            assert saved.state.skipped and saved.state.roller() == 1  # skipped, and Bo's turn
            await page.tap("handover-ok")
        assert [int(el.get("data-value")) for el in with_prefix(page, "die-")] == list(saved.state.dice)
        if not saved.state.skipped:
            assert saved.state.throw == 1 and saved.state.current_player() == 0
            assert not page.enabled("roll")  # nobody had to tap Throw
        assert not page.errors

    run(steps)
