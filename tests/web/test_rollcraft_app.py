"""RollCraft T8 through the whole app under CPython (tests/web/fakepage.py), moved here from the
browser suite (tests/browser/test_rollcraft_ui.py keeps one whole game by clicks against the
computer, its thinking never blocking the page, and the action bar's words at 360 px). Here: a
solo game by taps in Swedish with a reload in the middle of a turn (the pending selection
survives, the sheet changes only on Confirm), and a three-seat game (two people and the
computer) whose passive players choose in turn on one screen."""

from __future__ import annotations

import json

import pytest

from fakehost import run
from fakepage import FakePage
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")


# --- the tap driver ---------------------------------------------------------------------------------
def shown(el) -> bool:
    """Not inside anything hidden (a zone not shown on the phone, say)."""
    return el.closest(lambda e: "hidden" in e.attrs) is None


def with_prefix(page: FakePage, prefix: str, visible: bool = False, enabled: bool = False) -> list:
    return [el for el in page.app.walk() if el.testid and el.testid.startswith(prefix)
            and (not visible or shown(el)) and (not enabled or not el.disabled)]


def pickable_dice(page: FakePage) -> list:
    return [el for el in with_prefix(page, "die-", enabled=True) if el.tag == "button"]


def pending_boxes(page: FakePage) -> list:
    return [el for el in page.app.walk() if {"rc-box", "pending"} <= set(el.get("class", "").split())]


def snapshot(page: FakePage) -> dict:
    """What the player sees of the turn (the browser test's snapshot)."""
    return {
        "phase": page.find("rollcraft").get("data-phase"),
        "dice": [el.testid + el.get("data-value", "") for el in with_prefix(page, "die-")],
        "sheet": page.find("sheet").inner_text(),
        "prompt": page.text("prompt"),
    }


async def pick_die(page: FakePage) -> None:
    """Select the first die that can be taken (a die still selected is let go first, by Escape:
    tapping it again would deselect it)."""
    if page.has("pending"):
        await page.press("Escape")
        assert not page.has("pending")
    await page.tap(pickable_dice(page)[0].testid)
    assert page.has("pending")


async def step(page: FakePage) -> str:
    """What a person at the screen does next: pass the phone on, roll, resolve a bonus (its first
    placement), choose a die and its first highlighted box, or end a window / turn."""
    if page.screen == "results":
        return "results"
    ids = {el.testid: el for el in page.app.walk() if el.testid}  # (one look at the screen)
    if "handover-ok" in ids:
        await page.tap("handover-ok")
        return "handover"
    if "roll" in ids and not ids["roll"].disabled:
        await page.tap("roll")
        return "roll"
    bonus = [t for t, el in ids.items() if t.startswith("bonus-") and not t.startswith("bonus-decline")
             and t != "bonus-panel" and shown(el)]
    if bonus:
        await page.tap(bonus[0])
        await page.tap("confirm")
        return "bonus"
    dice = [t for t, el in ids.items() if t.startswith("die-") and el.tag == "button" and not el.disabled]
    verbs = [name for name in ("act-throw", "act-end", "act-done", "act-pass") if name in ids]
    if verbs and not dice:
        await page.tap(verbs[0])
        return verbs[0]
    if dice:
        await pick_die(page)
        targets = with_prefix(page, "target-", visible=True)  # in the zone shown (one at a time on a phone)
        if targets:
            await page.tap(targets[0].testid)
            assert pending_boxes(page)
            await page.tap("confirm")
            return "take"
        if page.has("empty"):
            await page.tap("empty")
            return "empty"
    if verbs:
        await page.tap(verbs[0])
        return verbs[0]
    raise AssertionError("nothing to do: " + page.text()[:400])


async def set_up(page: FakePage, kinds: list[str]) -> None:
    await page.tap("new-rollcraft")
    await page.tap(f"seats-{len(kinds)}")
    for seat, kind in enumerate(kinds):
        await page.select(f"seat-{seat}-kind", kind)
    await page.tap("start-game")


# --- whole games ---------------------------------------------------------------------------------------
def test_a_solo_game_by_taps_with_a_reload_mid_turn():
    """A die and a box chosen, not confirmed: a reload shows the same dice, sheet, prompt and
    pending selection, and nothing was saved as a move; Confirm then takes the die. Six rounds."""
    async def steps():
        page = FakePage(lang="sv", seed=3)
        await page.boot()
        await set_up(page, ["person"])
        count, reloaded = 0, False
        while await step(page) != "results":
            count += 1
            assert count < 600, "the game does not end"
            if reloaded or count < 12 or not pickable_dice(page):
                continue
            await pick_die(page)  # a pending selection: a die and a box, not confirmed yet
            targets = with_prefix(page, "target-", visible=True)
            if not targets:
                continue
            await page.tap(targets[0].testid)
            assert len(pending_boxes(page)) == 1
            saved_before = page.table()
            before = snapshot(page)
            page = page.reload()
            await page.boot()
            assert snapshot(page) == before  # the same dice, sheet and pending selection
            assert len(pending_boxes(page)) == 1
            after = page.table()
            assert after.record.moves == saved_before.record.moves  # nothing confirmed by the selection
            assert json.loads(page.stored("dicehall.ui"))["moves"] == len(after.record.moves)
            await page.tap("confirm")
            new_moves = page.table().record.moves[len(after.record.moves):]
            # The selection confirmed: a die taken, or taken with a +1 in a +1 window; a roll may
            # follow at once.
            assert new_moves and new_moves[0][1].split()[0] in ("take", "plus"), new_moves
            reloaded = True
        assert reloaded and not page.errors
        state = page.table().state
        assert state.is_terminal() and state.round == 6
        assert int(page.text("result-total-0")) == state.scores()[0]

    run(steps)


def test_three_seats_people_and_the_computer_passive_choices_on_one_screen():
    """Two people and the computer: while one is active the others choose from what is left, in
    turn on the one screen (the phone handed over); five rounds; the results show the zones and
    the runes."""
    async def steps():
        page = FakePage(lang="en", seed=5)
        await page.boot()
        await set_up(page, ["person", "person", "ai:easy"])
        count, passive = 0, set()
        while await step(page) != "results":
            count += 1
            assert count < 1500, "the game does not end"
            if page.has("rollcraft") and page.find("rollcraft").get("data-phase") == "passive":
                passive.add(page.find("rollcraft").get("data-sheet"))  # the sheet of the one choosing
        assert passive == {"0", "1"}, passive  # both people chose as passive players
        assert not page.errors
        state = page.table().state
        assert state.is_terminal() and state.round == 5
        for seat in range(3):
            assert int(page.text(f"result-total-{seat}")) == state.scores()[seat]
        en = load_catalog("en", "rollcraft")
        head = next(el for el in page.find("results-table").walk() if el.tag == "thead")
        heads = [th.inner_text() for th in head.walk() if th.tag == "th"]
        assert en["rollcraft.zone.green"] in heads and en["rollcraft.runes"] in heads

    run(steps)
