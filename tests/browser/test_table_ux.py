"""A table that works on a phone (issue 7, items 10–12 and 16): at 360×740 the whole choice is in
view after a roll, and a new turn really scrolls to the top with the focus on its heading.

When the shell asks for a new moment (a new turn, a hand-over card between people), the
countdown in the action bar that a tap stops, and a whole turn by keyboard alone are checked
under CPython on the fake page: tests/web/test_turn_moments.py. Here is what only a browser can
tell: the geometry, and that the page's scroll, focus, keys and live region do what the shell
asks."""

from __future__ import annotations

import random

import pytest

from dicehall_browser import open_app, tid
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

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


def test_after_a_roll_the_whole_choice_is_in_view_on_a_phone(site, page):
    """With hints on: their panel sits under the dice, the tallest board a phone shows (without
    hints the board is the same less that panel)."""
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "hints": True}, new_table(1).dumps())
    assert active_testid(page) == "play-h"
    page.keyboard.press("r")  # the page's keys reach the shell
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
    # The page's part of a new moment: scrolled down to choose, the focus goes where the shell
    # says (Confirm), Enter on it confirms, and the next turn starts at the top on its heading.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.click(tid("box-chance"))
    assert active_testid(page) == "confirm" and page.evaluate("window.scrollY") > 0
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '0'")
    assert page.evaluate("window.scrollY") == 0 and active_testid(page) == "play-h"
    assert "P1" in page.evaluate("document.getElementById('live').textContent")  # said: whose turn it is
