"""A table that works on a phone (issue 7, items 10–12 and 16): at 360×740 the whole choice is in
view after a roll, a new turn or screen starts at the top with the focus on its heading (with a
hand-over card between people), the auto-play countdown sits in the action bar, marks its box and
stops on a tap, and a whole turn can be played with the keyboard alone."""

from __future__ import annotations

import random

import pytest

from dicehall_browser import catalog, open_app, saved_table, tid
from pygame_core.table import Table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
FAST = {"animations": False, "autofill": False}


def new_table(n_people: int) -> Table:
    table = Table("penta", [{"name": f"P{i + 1}", "symbol": "●▲■"[i], "ai": None} for i in range(n_people)])
    table.new_game(random.Random(1))
    return table


def rect(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def active_testid(page) -> str | None:
    return page.evaluate("document.activeElement && (document.activeElement.dataset.testid || document.activeElement.id)")


@pytest.mark.parametrize("hints", [False, True])
def test_after_a_roll_the_whole_choice_is_in_view_on_a_phone(site, page, hints):
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "hints": hints}, new_table(1).dumps())
    page.click(tid("roll"))
    page.wait_for_selector(tid("box-chance"))
    bar = rect(page, tid("actionbar"))
    assert bar["y"] + bar["height"] <= PHONE["height"] + 0.5
    for k in range(5):
        die = rect(page, tid(f"die-{k}"))
        assert die["y"] >= 0 and die["y"] + die["height"] <= bar["y"] and die["width"] >= 44
    boxes = page.locator('[data-testid^="box-"]:enabled')
    assert boxes.count() == 13
    for i in range(13):
        box = boxes.nth(i).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5, boxes.nth(i).get_attribute("data-testid")
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 44
    assert page.evaluate("window.scrollY") == 0 and page.evaluate("document.documentElement.scrollWidth") <= 360
    page.set_viewport_size({"width": 740, "height": 360})  # landscape: dice and card side by side
    bar = rect(page, tid("actionbar"))
    for k in range(5):
        assert rect(page, tid(f"die-{k}"))["y"] + rect(page, tid(f"die-{k}"))["height"] <= bar["y"]


def test_a_new_turn_starts_at_the_top_with_a_hand_over_card(site, page):
    page.set_viewport_size(PHONE)
    open_app(page, site, FAST, new_table(2).dumps())
    page.click(tid("roll"))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 0
    page.click(tid("box-chance"))
    assert active_testid(page) == "confirm"  # the next step has the focus: Enter confirms
    page.click(tid("confirm"))
    page.wait_for_selector(tid("handover"))
    nxt = saved_table(page).state.seat()
    assert page.inner_text(tid("handover")).count(f"P{nxt + 1}") >= 1
    assert page.evaluate("window.scrollY") == 0 and active_testid(page) == "play-h"
    page.click(tid("handover-ok"))
    page.wait_for_selector(tid("play"))
    assert page.evaluate("window.scrollY") == 0 and active_testid(page) == "play-h"
    assert page.locator(tid("roll")).is_enabled()


def test_the_countdown_shows_its_choice_in_the_action_bar_and_a_tap_stops_it(site, page):
    page.set_viewport_size(PHONE)
    open_app(page, site, {"animations": False, "autofill": True}, new_table(1).dumps())
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'loaded'", timeout=30000)
    for _ in range(3):
        page.click(tid("roll"))
    page.wait_for_selector(tid("countdown"))
    bar, countdown = rect(page, tid("actionbar")), rect(page, tid("countdown"))
    assert countdown["y"] >= bar["y"] and countdown["y"] + countdown["height"] <= bar["y"] + bar["height"]
    coming = page.locator(".boxbtn.coming")
    assert coming.count() == 1
    box = coming.get_attribute("data-arg")
    words = catalog("en", "penta")
    assert page.inner_text(tid("countdown-what")) == words["penta.move.score"].replace("{box}", words[f"penta.box.{box}"])
    page.mouse.click(20, rect(page, tid("prompt"))["y"] + 5)  # a tap anywhere: the player is there
    page.wait_for_selector(tid("countdown"), state="detached")
    page.wait_for_timeout(3500)
    assert page.locator('[data-testid^="cell-0-"].filled').count() == 0 and page.locator(".boxbtn.coming").count() == 0


def test_a_whole_turn_by_keyboard_alone(site, page):
    open_app(page, site, FAST, new_table(1).dumps())
    page.keyboard.press("r")
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '1'")
    page.keyboard.press("1")
    page.keyboard.press("2")
    assert [page.get_attribute(tid(f"die-{k}"), "aria-pressed") for k in range(5)] == ["true", "true", "false", "false", "false"]
    page.keyboard.press("r")
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '2'")
    assert page.get_attribute(tid("die-0"), "aria-pressed") == "true"  # still held after the roll
    for _ in range(40):  # Tab to the first box of the score card
        page.keyboard.press("Tab")
        if (active_testid(page) or "").startswith("box-"):
            break
    box = active_testid(page)
    assert box and box.startswith("box-")
    page.keyboard.press("Enter")  # select it: the focus moves on to Confirm
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset.testid === 'confirm'")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '0'")
    assert page.locator(f'[data-testid="cell-0-{box[4:]}"].filled').count() == 1
    live = page.evaluate("document.getElementById('live').textContent")
    assert live  # the live region says what happened and who is next
