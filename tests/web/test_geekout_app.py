"""Geek Out! Masters through the whole app under CPython (tests/web/fakepage.py), moved here from the
browser suite (tests/browser/test_geekout_ui.py keeps one whole game by clicks against Perfect on a
360 px phone: the whole choice and the odds in view, the computer never blocking the page). Here:
a whole game by taps with a reload in the middle of a turn (an acting die chosen), and what must be
refused: a die that cannot act is disabled and a tap on it changes nothing; a die chosen from the
keyboard, then its target; the odds of stopping and going on; Stop banks the points."""

from __future__ import annotations

import json

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


# --- the tap driver -------------------------------------------------------------------------------------
def actives(page: FakePage) -> list:
    return [el for el in page.app.walk() if el.testid and el.testid.startswith("active-")]


def snapshot(page: FakePage) -> dict:
    """What the player sees of the turn (the browser test's snapshot)."""
    card = page.find("scorecard")
    return {
        "seat": page.find("play").get("data-seat"),
        "phase": page.find("gk-board").get("data-phase"),
        "active": [el.get("data-face") + ("" if el.disabled else "*") + el.get("aria-pressed", "")
                   for el in actives(page)],
        "zones": [page.find(f"zone-{z}").get("data-count") for z in ("inactive", "used", "scored")],
        "pad": "|".join(td.inner_text() for td in card.walk() if td.tag == "td"),
        "prompt": page.text("prompt"),
    }


async def step(page: FakePage) -> str:
    """What a person at the screen does next: pass the phone, roll, act (the first die that can,
    then its first target), or stop once two 42s are banked (else go on)."""
    if page.screen == "results":
        return "results"
    if page.has("handover-ok"):
        await page.tap("handover-ok")
        return "handover"
    if page.enabled("roll"):
        await page.tap("roll")
        return "roll"
    actors = [el for el in actives(page) if not el.disabled]
    if actors:
        slot = actors[0].testid
        await page.tap(slot)
        if page.has(slot) and page.find(slot).get("aria-pressed") == "true":
            targets = [el for el in actives(page) if not el.disabled and el.testid != slot
                       and "target" in el.get("class", "").split()]
            if targets:
                await page.tap(targets[0].testid)
        return "act"
    if int(page.find("gk-banked").get("data-n")) >= 2 or not page.enabled("continue"):
        await page.tap("stop")
        return "stop"
    await page.tap("continue")
    return "continue"


def table_at(moves: list[tuple[int, str]]) -> Table:
    seats = [{"name": name, "symbol": symbol, "ai": None} for name, symbol in (("Ann", "●"), ("Bo", "▲"))]
    table = Table("geekout", seats)
    table.match = Match.new("geekout", {"players": 2, "start": 0})
    table.start_seats = [0]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    return table


async def open_position(table: Table) -> FakePage:
    page = FakePage(lang="en", settings={"pace": "fast"})
    page.browser.items["dicehall.table"] = table.dumps()
    page.browser.items["dicehall.ui"] = json.dumps({"odds": False, "moves": table.match.index})
    page.location = "#/play"
    await page.boot()
    if page.has("handover-ok"):
        await page.tap("handover-ok")
    assert page.has("gk-board")
    return page


# --- a whole game ------------------------------------------------------------------------------------------
def test_a_whole_game_against_the_computer_by_taps_with_a_reload_mid_turn():
    """Against Perfect, to the results: mid-turn, with an acting die chosen (a selection saved
    with the game), the page loads again with the same dice, zones, pad, selection and prompt.
    Five turns each on the pad."""
    async def steps():
        page = FakePage(lang="en", settings={"pace": "fast"}, seed=9)
        await page.boot()
        await page.tap("new-geekout")
        await page.select("seat-1-kind", "ai:perfect")
        await page.tap("start-game")
        count, acted, reloaded = 0, 0, False
        while (done := await step(page)) != "results":
            count += 1
            acted += done == "act"
            assert count < 2000, "the game does not end"
            if reloaded or acted < 4:
                continue
            actors = [el for el in actives(page) if not el.disabled]
            if not actors:
                continue
            await page.tap(actors[0].testid)  # an acting die chosen (a UI selection), then a reload
            if page.find("play").get("data-seat") != "0" or not [el for el in actives(page)
                                                                  if el.get("aria-pressed") == "true"]:
                continue  # (a die that acts alone: played; at the next choice)
            before = snapshot(page)
            page = page.reload()
            await page.boot()
            assert snapshot(page) == before  # same dice, zones, pad, selection and prompt
            reloaded = True
        assert reloaded and not page.errors
        state = page.table().state
        assert state.is_terminal() and all(len(turns) == 5 for turns in state.pad)
        for seat in range(2):
            assert int(page.text(f"result-total-{seat}")) == state.scores()[seat]

    run(steps)


# --- choosing ----------------------------------------------------------------------------------------------
def test_only_legal_dice_act_a_die_chosen_by_keyboard_then_its_target_and_the_odds_open():
    """Example 1 of the rules (Dragon, Superhero, 42, 42, Heart, Meeple, Spaceship): a 42 and the
    Dragon cannot act (disabled; a tap that comes anyway changes nothing); the Superhero chosen
    with Enter, then the Dragon as its target. Later, at stop-or-go-on, the odds show 10 for
    stopping and a chance for going on; Stop writes 10 on the pad."""
    async def steps():
        page = await open_position(table_at([(CHANCE, "roll 1 2 3 4 4 5 6")]))
        assert not page.enabled("active-3") and not page.enabled("active-5")
        for slot in ("active-3", "active-5"):  # a tap that arrives anyway (the button is disabled)
            el = page.find(slot)
            page.shell.tap(el.get("data-action"), el.get("data-arg"), page.table().match.index)
            await page.idle()
            assert page.table().match.index == 1 and page.find("active-1").get("aria-pressed") != "true"
        # Superhero on the Dragon, by keyboard: focus, Enter, then the target.
        page.focused = "active-1"
        await page.press("Enter")
        assert page.find("active-1").get("aria-pressed") == "true"
        await page.tap("active-5")
        assert page.find("zone-used").get("data-count") == "1"
        assert page.table().record.moves[-1] == (0, "hero dragon")
        # Spaceship on the Dragon, a Meeple rerolls a 42 into a 42: a decision, with the odds.
        page = await open_position(table_at([(CHANCE, "roll 1 4 4 4 4 5 6"), (0, "ship dragon"), (0, "meeple 42"),
                                             (CHANCE, "roll 4")]))
        assert page.has("stop") and not page.has("odds-values")
        await page.tap("odds")
        values = page.find("odds-values")
        assert float(values.get("data-stop")) == 10 and float(values.get("data-continue")) > 0
        await page.tap("stop")
        assert page.table().state.pad[0] == [10]
        if not page.has("handover-ok"):
            assert page.find("pad-0-1").inner_text() == "10"
        assert not page.errors

    run(steps)
