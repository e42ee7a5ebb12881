"""A table that works by hand (issue 7, items 10–12 and 16), through the real shell on a fake page:
a new turn starts at the top with the focus on its heading (with a hand-over card between
people), the auto-play countdown shows its choice in the action bar, marks its box and stops on
a tap, and a whole turn can be played with the keyboard alone.

What only a browser can tell stays in tests/browser/test_table_ux.py: that the whole choice fits
a 360×740 screen, and that the page really scrolls to the top and moves the focus (the fake page
sees the shell's `new_moment` flag and the control it asks to focus)."""

from __future__ import annotations

import asyncio
import random

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.table import Table
from support import load_catalog

REAL_SLEEP = asyncio.sleep
FOCUSABLE = ("button", "input", "select", "textarea", "summary")


def new_table(n_people: int) -> Table:
    table = Table("penta", [{"name": f"P{i + 1}", "symbol": "●▲■"[i], "ai": None} for i in range(n_people)])
    table.new_game(random.Random(1))
    return table


async def open_table(n_people: int, settings: dict | None = None) -> FakePage:
    """The app booted on a Penta table of `n_people` people, at its first roll."""
    page = FakePage(lang="en", settings=settings)
    page.browser.items["dicehall.table"] = new_table(n_people).dumps()
    page.location = "#/play"
    await page.boot()
    assert page.screen == "play"
    return page


def watch_moments(page: FakePage) -> list[bool]:
    """The `new_moment` flag of every screen the shell draws from now on (True: the page scrolls
    to the top and focuses the screen's heading)."""
    moments: list[bool] = []
    draw = page.draw

    def recording(screen, html, motion, new_moment, focus):
        moments.append(new_moment)
        draw(screen, html, motion, new_moment, focus)
    page.draw = recording
    return moments


def classes(el) -> list[str]:
    return (el.get("class") or "").split()


def tab_to(page: FakePage, wanted) -> str | None:
    """Tab from the focused control to the first one `wanted(testid)` accepts, in document order
    over what Tab reaches (enabled controls and links, nothing hidden or out of the tab order)."""
    order = []
    for el in page.app.walk():
        if el.closest(lambda e: "hidden" in e.attrs) is not None or el.get("tabindex") == "-1":
            if el.get("id") == page.focused or el.testid == page.focused:
                order.append(el)  # where Tab starts from, reachable or not
            continue
        if ((el.tag in FOCUSABLE and not el.disabled) or (el.tag == "a" and el.get("href"))
                or el.get("tabindex") not in (None, "-1") or el.get("id") == page.focused or el.testid == page.focused):
            order.append(el)
    start = next((i for i, el in enumerate(order) if page.focused in (el.testid, el.get("id"))), -1)
    for el in order[start + 1:]:
        if el.testid and wanted(el.testid):
            page.focused = el.testid
            return el.testid
    return None


class Time:
    """asyncio.sleep on a clock the test moves: a sleep ends when `advance` passes its end, so a
    countdown can be looked at while it runs."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleepers: list[tuple[float, asyncio.Future]] = []

    async def sleep(self, seconds, result=None):
        if seconds <= 0:
            await REAL_SLEEP(0)
            return result
        future = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.now + seconds, future))
        await future
        return result

    async def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while True:
            for _ in range(50):  # what was woken runs until it sleeps again
                await REAL_SLEEP(0)
            due = [(t, f) for t, f in self.sleepers if t <= end and not f.done()]
            if not due:
                break
            self.now = min(t for t, _ in due)
            for t, future in due:
                if t == self.now:
                    future.set_result(None)
            self.sleepers = [(t, f) for t, f in self.sleepers if not f.done()]
        self.now = end


@pytest.fixture
def time(monkeypatch) -> Time:
    clock = Time()
    monkeypatch.setattr(asyncio, "sleep", clock.sleep)
    return clock


@pytest.mark.usefixtures("instant_sleep")
def test_a_new_turn_starts_at_the_top_with_a_hand_over_card():
    """Choosing stays where the player is; the next person's turn begins afresh: a hand-over card
    naming them, at the top with the focus on its heading, then their board the same way."""
    async def steps():
        page = await open_table(2)
        moments = watch_moments(page)
        await page.tap("roll")
        assert moments == [False] and page.focused == "roll"  # the dice and card, where the player is
        await page.tap("box-chance")
        assert moments == [False, False] and page.focused == "confirm"  # the next step: Enter confirms
        await page.tap("confirm")
        assert page.has("handover") and not page.has("play")
        assert moments[-1] and page.focused == "play-h"  # the top, the heading
        nxt = page.table().state.seat()
        assert nxt == 1 and "P2" in page.text("handover") and "P1" not in page.text("handover")
        await page.tap("handover-ok")
        assert page.has("play") and moments[-1] and page.focused == "play-h"
        assert page.enabled("roll") and not page.errors

    run(steps)


def test_the_countdown_shows_its_choice_in_the_action_bar_and_a_tap_stops_it(time):
    """After the last roll the computer's choice for an idle player is shown before it is played:
    the countdown in the action bar says which box, the card marks it; any tap means the player
    is there, and then nothing is written, however long they think."""
    async def steps():
        page = await open_table(1, {"autofill": True})
        for _ in range(3):
            page.click("roll")
            await time.advance(0)
        assert not page.has("countdown")  # the computer's choice is worked out first
        await time.advance(0.05)
        assert page.has("countdown")
        bar = page.find("actionbar")
        assert any(el.testid == "countdown" for el in bar.walk())  # in the action bar
        coming = [el for el in page.app.walk() if "boxbtn" in classes(el) and "coming" in classes(el)]
        assert len(coming) == 1
        box = coming[0].get("data-arg")
        words = load_catalog("en", "penta")
        assert page.text("countdown-what") == words["penta.move.score"].replace("{box}", words[f"penta.box.{box}"])
        await time.advance(1)
        assert page.table().state.rolls == 3 and page.has("countdown")  # one second gone, still waiting
        page.shell.activity()  # a tap anywhere (the page's pointerdown): the player is there
        await time.advance(0)
        assert not page.has("countdown") and not any("coming" in classes(el) for el in page.app.walk())
        await time.advance(30)
        table = page.table()
        assert table.state.rolls == 3 and table.state.cards[0] == new_table(1).state.cards[0]  # nothing written
        assert not any("filled" in classes(el) for el in page.app.walk() if (el.testid or "").startswith("cell-0-"))
        assert not page.has("countdown") and not page.errors

    run(steps)


@pytest.mark.usefixtures("instant_sleep")
def test_a_whole_turn_by_keyboard_alone():
    """R throws, 1–5 hold dice, Tab reaches the score card's boxes, Enter picks one (the focus
    moves on to Confirm) and Enter again writes it; the live region says whose turn it is then."""
    async def steps():
        page = await open_table(1)
        assert page.focused == "play-h"
        await page.press("r")
        assert page.table().state.rolls == 1
        await page.press("r", repeat=True)  # R held down: still one throw
        assert page.table().state.rolls == 1
        page.focused = "roll"  # and Enter held on the Roll button (issue 28, item 5)
        await page.press("Enter", repeat=True)
        assert page.table().state.rolls == 1
        page.focused = "play-h"
        await page.press("1")
        await page.press("2")
        assert [page.find(f"die-{k}").get("aria-pressed") for k in range(5)] == ["true", "true", "false", "false", "false"]
        await page.press("r")
        assert page.table().state.rolls == 2
        assert page.find("die-0").get("aria-pressed") == "true"  # still held after the roll
        box = tab_to(page, lambda testid: testid.startswith("box-"))
        assert box is not None
        spoken = len(page.spoken)
        await page.press("Enter")  # select it: the focus moves on to Confirm
        assert page.focused == "confirm" and page.table().state.rolls == 2
        await page.press("Enter")
        table = page.table()
        assert table.state.rolls == 0 and table.record.moves[-1] == (0, f"score {box[4:]}")
        assert "filled" in classes(page.find(f"cell-0-{box[4:]}"))
        assert len(page.spoken) > spoken and "P1" in page.spoken[-1]  # the live region: whose turn it is now
        assert not page.errors

    run(steps)
