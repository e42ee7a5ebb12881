"""The guided first turn (issue 29, item 4) through the real shell on a fake page: RollCraft's four
coach marks (the dice, the silver platter, the zones, the saved actions) show once per phone, Next
walks them, Got it / Skip / Escape closes them and a reload remembers it; a reload before that
brings them back; a poisoned `guides_seen` setting is set aside, never fatal; Settings can show the
guides again. Penta's one-time line about the auto-fill countdown shows the first time the
countdown starts, and never again.

Chromium checks where the boxes sit at 360×740 (beside their targets, never over them), in English
and Arabic: tests/browser/test_guide_phone.py."""

from __future__ import annotations

import json
import random

import pytest
from dicehall.games.rollcraft.guide import FIRST_TURN
from dicehall.screens.settings import check_settings
from dicehall.widgets.guide import MAX_SEEN, Guide, Step, coach_mark, with_seen
from fakehost import run
from fakepage import FakePage
from support import load_catalog

from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")

TARGETS = ["dice-group", "dice-platter", "tab-grey", "stock-reroll"]


def rollcraft_solo() -> str:
    table = Table("rollcraft", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(3))
    return table.dumps()


async def open_rollcraft(lang: str = "en", settings: dict | None = None, items: dict | None = None) -> FakePage:
    """A solo RollCraft table, booted and brought to the person's first choice (dice thrown)."""
    page = FakePage(lang=lang, settings=settings)
    page.browser.items["dicehall.table"] = rollcraft_solo()
    page.browser.items.update(items or {})
    page.location = "#/play"
    await page.boot()
    assert page.screen == "play"
    for _ in range(6):  # the round's benefit and the throw, whatever this table asks first
        if page.find("rollcraft").get("data-phase") == "choose":
            break
        if page.enabled("roll"):
            await page.tap("roll")
        elif page.has("act-pass") and page.enabled("act-pass"):
            await page.tap("act-pass")
        else:
            await page.idle()
    assert page.find("rollcraft").get("data-phase") == "choose", page.text()
    return page


def step_of(page: FakePage) -> tuple[int, str] | None:
    guide = page.find("guide", missing_ok=True)
    return None if guide is None else (int(guide.get("data-step")), guide.get("data-target"))


def seen(page: FakePage) -> list:
    return json.loads(page.browser.items["dicehall.settings"]).get("guides_seen", [])


# --- the widget ------------------------------------------------------------------------------------
def test_a_coach_mark_anchors_on_its_target_by_data_testid_and_refuses_anything_else():
    t = lambda key, **kw: key
    html = coach_mark(t, FIRST_TURN, 0)
    assert '#app [data-testid="dice-group"] { anchor-name: --dh-guide;' in html
    assert 'role="dialog"' in html and 'aria-labelledby="guide-h"' in html and 'aria-describedby="guide-text"' in html
    assert 'data-testid="guide-next"' in html and 'data-testid="guide-skip"' in html
    last = coach_mark(t, FIRST_TURN, 3)  # the saved actions: the list around its first item
    assert '#app :has(> [data-testid="stock-reroll"])' in last
    assert 'data-testid="guide-done"' in last and "guide-next" not in last
    for bad in ('x"] body {', "a b", "", "x" * 41):
        with pytest.raises(ValueError):
            coach_mark(t, Guide("g", (Step(bad, "k"),)), 0)
    assert with_seen({"guides_seen": [f"g{i}" for i in range(MAX_SEEN)]}, "new")[-1] == "new"
    assert len(with_seen({"guides_seen": [f"g{i}" for i in range(MAX_SEEN)]}, "new")) == MAX_SEEN


# --- RollCraft's guided first turn -----------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "nb", "sv", "pl", "ar"])
def test_rollcraft_walks_the_four_steps_on_the_first_choice_and_got_it_is_remembered(lang):
    async def steps():
        page = await open_rollcraft(lang)
        words = load_catalog(lang, "rollcraft")
        for n, target in enumerate(TARGETS, start=1):
            assert step_of(page) == (n, target)
            assert page.has(target)  # what it points at is on the screen
            assert words[FIRST_TURN.steps[n - 1].text] in page.text("guide")
            if n < len(TARGETS):
                await page.tap("guide-next")
                assert page.focused == ("guide-next" if n + 1 < len(TARGETS) else "guide-done")
        await page.tap("guide-done")
        assert step_of(page) is None and seen(page) == ["rollcraft.first_turn"]
        again = page.reload()
        await again.boot()
        assert again.screen == "play" and step_of(again) is None  # shown once per phone
        assert not page.errors and not again.errors

    run(steps)


def test_a_reload_before_the_guide_is_closed_brings_it_back_from_its_first_step():
    async def steps():
        page = await open_rollcraft()
        await page.tap("guide-next")
        assert step_of(page) == (2, "dice-platter") and seen(page) == []
        again = page.reload()
        await again.boot()
        assert step_of(again) == (1, "dice-group")
        await again.tap("guide-skip")  # Skip closes it for good, as Got it does
        third = again.reload()
        await third.boot()
        assert step_of(third) is None and seen(third) == ["rollcraft.first_turn"]
        assert not any(p.errors for p in (page, again, third))

    run(steps)


def test_escape_closes_the_guide_and_the_choice_goes_on():
    async def steps():
        page = await open_rollcraft()
        await page.press("Escape")
        assert step_of(page) is None and seen(page) == ["rollcraft.first_turn"]
        die = next(el.testid for el in page.app.walk()
                   if el.tag == "button" and (el.testid or "").startswith("die-") and not el.disabled)
        await page.tap(die)
        assert page.has("pending")
        await page.press("Escape")  # RollCraft's own Escape again: the die is let go
        assert not page.has("pending") and not page.errors

    run(steps)


def test_a_guide_left_open_stays_with_its_game():
    """RollCraft's guide, neither finished nor closed, does not follow the player into a new Penta
    game, and is not remembered as seen."""
    async def steps():
        page = await open_rollcraft()
        await page.tap("guide-next")
        await page.tap("nav-home")
        await page.tap("new-penta")
        await page.tap("start-game")
        assert page.screen == "play" and page.has("scorecard") and not page.has("guide")
        assert page.spoken and load_catalog("en", "rollcraft")["rollcraft.guide.platter"] not in page.spoken[-1]
        assert seen(page) == [] and not page.errors

    run(steps)


def test_the_guide_says_itself_with_the_prompt():
    async def steps():
        page = await open_rollcraft()
        said = " ".join(page.spoken)
        assert load_catalog("en", "rollcraft")["rollcraft.guide.dice"] in said
        assert not page.errors

    run(steps)


def test_a_long_guides_seen_list_keeps_its_newest_ids():
    settings, sound = check_settings({"guides_seen": [f"g{i}" for i in range(500)]})
    assert sound  # (trimmed to the newest, not set aside)
    assert settings["guides_seen"] == [f"g{i}" for i in range(500 - MAX_SEEN, 500)]


@pytest.mark.parametrize("poison", ["all of them", [1, 2], {"x": 1}, ["ok", 'x"]{}'], [["a"]], None])
def test_a_poisoned_guides_seen_setting_is_set_aside_and_the_guide_shows(poison):
    stored = {"animations": False, "autofill": False, "lang": "en", "guides_seen": poison}
    settings, sound = check_settings(stored)
    assert not sound and isinstance(settings["guides_seen"], (list, tuple))
    assert all(isinstance(g, str) and g for g in settings["guides_seen"])

    async def steps():
        page = await open_rollcraft(items={"dicehall.settings": json.dumps(stored)})
        assert "dicehall.settings" in json.loads(page.browser.items.get("dicehall.aside", "{}"))
        assert step_of(page) == (1, "dice-group")  # the app runs, the guide shows
        await page.tap("guide-skip")
        assert "rollcraft.first_turn" in seen(page)
        assert not page.errors

    run(steps)


def test_settings_can_show_the_guides_again():
    async def steps():
        page = await open_rollcraft(settings={"guides_seen": ["rollcraft.first_turn"]})
        assert step_of(page) is None
        await page.tap("nav-settings")
        assert page.enabled("guides-again")
        await page.tap("guides-again")
        assert seen(page) == [] and not page.enabled("guides-again")
        again = page.reload()
        again.location = "#/play"
        await again.boot()
        assert step_of(again) == (1, "dice-group")
        assert not page.errors and not again.errors

    run(steps)


# --- Penta's one-time line about the auto-fill -------------------------------------------------------
def penta_page(draws: list[str]) -> FakePage:
    page = FakePage(lang="en", settings={"autofill": True})
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(5))
    page.browser.items["dicehall.table"] = table.dumps()
    page.location = "#/play"
    draw = page.draw

    def recording(screen, html, motion, new_moment, focus):
        draws.append(html)
        draw(screen, html, motion, new_moment, focus)
    page.draw = recording
    return page


def test_penta_explains_the_auto_fill_the_first_time_its_countdown_starts_and_never_again():
    async def steps():
        draws: list[str] = []
        page = penta_page(draws)
        await page.boot()
        before = len(draws)
        for _ in range(3):  # three rolls: the countdown starts, and (instant here) plays its box
            await page.tap("roll")
        countdowns = [html for html in draws[before:] if 'data-testid="countdown"' in html]
        assert countdowns and 'data-guide="penta.autofill"' in countdowns[0]
        assert 'data-target="actionbar"' in countdowns[0]
        assert seen(page) == ["penta.autofill"]  # remembered the moment it showed
        assert page.table().state.cards[0] != {box: None for box in page.table().state.cards[0]}  # the box was written
        assert not page.has("guide")  # gone with the position it explained
        # The next round's countdown: no line. After a reload neither.
        mark = len(draws)
        for _ in range(3):
            await page.tap("roll")
        later = [html for html in draws[mark:] if 'data-testid="countdown"' in html]
        assert later and not any('data-testid="guide"' in html for html in later)
        again = page.reload()
        await again.boot()
        for _ in range(3):
            await again.tap("roll")
        assert not again.has("guide") and seen(again) == ["penta.autofill"]
        assert not page.errors and not again.errors

    run(steps)


def test_the_penta_line_stays_while_its_position_lasts_and_got_it_closes_it():
    """With the countdown stopped by a tap, the line is still there to read until Got it."""
    async def steps():
        draws: list[str] = []
        page = penta_page(draws)
        await page.boot()
        await page.tap("roll")
        await page.tap("roll")
        draw = page.draw

        def scroll_when_counting(screen, html, motion, new_moment, focus):
            draw(screen, html, motion, new_moment, focus)
            if 'data-testid="countdown"' in html:  # the player scrolls as the countdown shows
                page.events.append(page.shell.activity)
        page.draw = scroll_when_counting
        await page.tap("roll")  # the third roll: its countdown begins, and the scroll stops it
        assert page.table().state.rolls == 3 and not page.has("countdown")
        assert seen(page) == ["penta.autofill"] and page.has("guide")
        await page.tap("guide-done")
        assert not page.has("guide") and page.enabled("roll") is False
        assert not page.errors

    run(steps)
