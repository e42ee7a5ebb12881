"""The hand-over card only where it helps (issue 29, item 5), through the real shell on a fake page:
a Settings switch (on by default, stored and checked like the other settings), the card only when
two or more people share the screen, back after a reload while it showed (a reload never shows the
next person's choice), and without the "Play online" block under it.

Chromium checks the same at 360×740 in English and Arabic: tests/browser/test_handover_card.py."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from dicehall.screens.settings import DEFAULT_SETTINGS, check_settings
from fakehost import run
from fakepage import FakePage
from pygame_core.table import Table

REAL_SLEEP = asyncio.sleep


@pytest.fixture
def instant_sleep(monkeypatch):
    """The computer's pacing passes at once."""
    async def sleep(seconds, *args):
        await REAL_SLEEP(0)
    monkeypatch.setattr(asyncio, "sleep", sleep)


def penta_table(kinds: list[str | None]) -> Table:
    table = Table("penta", [{"name": f"P{i + 1}", "symbol": "●▲■"[i], "ai": kind} for i, kind in enumerate(kinds)])
    table.new_game(random.Random(1))
    return table


async def open_table(kinds: list[str | None], settings: dict | None = None) -> FakePage:
    """The app booted on a new Penta table (a stored table with no view state yet), at its first roll."""
    page = FakePage(lang="en", settings=settings)
    page.browser.items["dicehall.table"] = penta_table(kinds).dumps()
    page.location = "#/play"
    await page.boot()
    assert page.screen == "play"
    return page


async def first_round(page: FakePage) -> None:
    """P1 rolls, takes Chance and confirms: the turn passes."""
    await page.tap("roll")
    await page.tap("box-chance")
    await page.tap("confirm")


def shows_a_choice(page: FakePage) -> bool:
    return page.has("play") or page.has("roll") or page.has("scorecard")


# --- the setting ---------------------------------------------------------------------------------
def test_the_setting_is_on_by_default_and_a_bad_stored_value_falls_back_to_on():
    assert DEFAULT_SETTINGS["handover"] is True
    assert check_settings({})[0]["handover"] is True  # saved before the switch existed: on, no complaint
    assert check_settings({})[1]
    settings, sound = check_settings({"handover": "yes"})
    assert settings["handover"] is True and not sound  # set aside and said, as the other switches
    assert check_settings({"handover": False}) == ({**check_settings({})[0], "handover": False}, True)


def test_settings_shows_the_switch_checked_and_turning_it_off_is_stored():
    async def steps():
        page = FakePage(lang="en")
        await page.boot()
        await page.tap("nav-settings")
        assert "checked" in page.find("set-handover").attrs
        assert "Hand-over card between people" in page.html
        await page.check("set-handover", False)
        assert json.loads(page.browser.items["dicehall.settings"])["handover"] is False
        again = page.reload()
        await again.boot()
        assert "checked" not in again.find("set-handover").attrs
        assert not page.errors and not again.errors

    run(steps)


@pytest.mark.usefixtures("instant_sleep")
def test_two_people_get_the_card_and_with_the_setting_off_they_do_not():
    async def steps():
        page = await open_table([None, None])
        await first_round(page)
        assert page.has("handover") and not shows_a_choice(page)
        assert "P2" in page.text("handover")

        off = await open_table([None, None], settings={"handover": False})
        await first_round(off)
        assert not off.has("handover") and off.has("play") and off.enabled("roll")
        assert off.table().state.seat() == 1  # P2's turn shows at once
        assert not page.errors and not off.errors

    run(steps)


@pytest.mark.usefixtures("instant_sleep")
def test_one_person_against_the_computer_never_gets_the_card():
    """The card helps only when people share the screen: one person and the computer, none."""
    async def steps():
        page = await open_table([None, "greedy"])
        draws: list[str] = []
        draw = page.draw

        def recording(screen, html, motion, new_moment, focus):
            draws.append(html)
            draw(screen, html, motion, new_moment, focus)
        page.draw = recording
        await first_round(page)  # the person's round; the computer plays its own at once
        await page.idle()
        assert page.table().state.seat() == 0 and page.enabled("roll")  # the person's turn again
        assert page.table().match.index > 3  # (the computer did play in between)
        assert draws and not any('data-testid="handover"' in html for html in draws)
        assert not page.errors

    run(steps)


def test_switching_the_card_off_while_it_shows_lets_the_next_person_play():
    async def steps():
        page = await open_table([None, None])
        await first_round(page)
        assert page.has("handover")
        await page.tap("nav-settings")
        await page.check("set-handover", False)
        await page.tap("settings-back")
        assert page.screen == "play" and not page.has("handover") and page.enabled("roll")
        assert not page.errors

    run(steps)


# --- a reload ------------------------------------------------------------------------------------
@pytest.mark.usefixtures("instant_sleep")
def test_a_reload_while_the_card_shows_brings_the_card_back_not_the_choice():
    async def steps():
        page = await open_table([None, None])
        await first_round(page)
        assert page.has("handover")
        again = page.reload()
        await again.boot()
        assert again.screen == "play" and again.has("handover") and not shows_a_choice(again)
        assert "P2" in again.text("handover") and "P1" not in again.text("handover")
        await again.tap("handover-ok")
        assert again.has("play") and again.enabled("roll")
        # Taken: a reload now shows P2's turn, not the card again.
        third = again.reload()
        await third.boot()
        assert third.has("play") and not third.has("handover") and third.enabled("roll")
        # And mid-turn, after P2's roll, still no card: the screen is P2's.
        await third.tap("roll")
        fourth = third.reload()
        await fourth.boot()
        assert fourth.has("play") and not fourth.has("handover") and fourth.has("box-chance")
        assert not any(p.errors for p in (page, again, third, fourth))

    run(steps)


@pytest.mark.usefixtures("instant_sleep")
def test_a_save_from_before_the_card_was_remembered_still_never_shows_the_next_choice():
    """A saved game whose view state does not say who had the screen (saved by an older
    version): the last person who moved had it, so the next one gets the card."""
    async def steps():
        page = await open_table([None, None])
        await first_round(page)
        ui = json.loads(page.browser.items["dicehall.ui"])
        assert ui["had_screen"] == 0  # saved with the game: P1 had the screen
        del ui["had_screen"]
        page.browser.items["dicehall.ui"] = json.dumps(ui)
        again = page.reload()
        await again.boot()
        assert again.has("handover") and not shows_a_choice(again)
        assert not again.errors

    run(steps)


# --- nothing else under the card -----------------------------------------------------------------
@pytest.mark.usefixtures("instant_sleep")
def test_the_card_has_no_play_online_block_and_the_table_gets_it_back():
    async def steps():
        page = await open_table([None, None])
        assert page.has("room-panel") and page.has("room-open")  # under the table, as before
        await first_round(page)
        assert page.has("handover") and not page.has("room-panel") and not page.has("room-open")
        again = page.reload()
        await again.boot()
        assert again.has("handover") and not again.has("room-panel")
        await again.tap("handover-ok")
        assert again.has("play") and again.has("room-panel")
        assert not page.errors and not again.errors

    run(steps)
