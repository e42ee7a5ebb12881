"""One move per physical tap (issue 28, item 5): the tap guard counts time, not distance.

Chromium counts a click as the second of a double click (event.detail 2) only when both land
within a few pixels, so the old guard (detail ≥ 2) let two quick taps 16 px apart make two
moves. Now a pointer tap that comes within REACT_MS of the drawing of a tap's move is ignored,
wherever it lands and whatever its detail: nobody can see a new screen and answer it that fast.
The window counts from the move's draw (a slow phone does not shorten it) to the tap's own time
(a tap the busy page hands over late is judged by when it happened). Keys are one press each by
their own rule (tests/web/test_turn_moments.py holds R and Enter).

The fake page's clock moves like a person's taps: each click comes PERSON_MS after the page drew
what the previous one made, unless a test asks for a quick one (`after_ms`, from the previous
click). The real shell on a fake page (tests/web/fakepage.py); the real near double click in
Chromium is tests/browser/test_taps.py.
"""

from __future__ import annotations

import random

import pytest

from dicehall.shell import REACT_MS
from fakehost import run
from fakepage import PERSON_MS, FakePage
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


def penta_page_table() -> str:
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(4))
    return table.dumps()


async def penta() -> FakePage:
    """The app on a fresh one-person Penta game, Roll enabled."""
    page = FakePage(settings={})
    page.browser.items["dicehall.table"] = penta_page_table()
    page.location = "#/play"
    await page.boot()
    assert page.enabled("roll")
    return page


def rolls(page: FakePage) -> int:
    board = next(el for el in page.app.walk() if "penta-board" in el.get("class", "").split())
    return int(board.get("data-rolls"))


def held(page: FakePage, k: int) -> bool:
    return page.find(f"die-{k}").get("aria-pressed") == "true"


def test_the_fake_person_taps_slower_than_the_guard():
    assert PERSON_MS > REACT_MS  # else every test's normal play would lose taps


@pytest.mark.parametrize("after_ms", [40, 150, REACT_MS - 10])
def test_two_quick_taps_on_roll_that_are_no_double_click_make_one_roll(after_ms):
    """Two taps on Roll 16 px apart: Chromium gives both detail 1. The second, `after_ms` later,
    lands on the Roll the first one drew again: one roll, one move."""
    async def steps():
        page = await penta()
        page.click("roll")
        page.click("roll", taps=1, after_ms=after_ms)
        await page.idle()
        assert rolls(page) == 1
        assert len(page.table().record.moves) == 1  # one throw of the dice

    run(steps)


def test_a_tap_after_a_pause_makes_a_move():
    """At a person's pace every tap acts; so does a quick one once the window has passed."""
    async def steps():
        page = await penta()
        await page.tap("roll")
        await page.tap("roll")  # a person's pace (PERSON_MS after the screen was drawn)
        assert rolls(page) == 2
        await page.tap("die-0", after_ms=REACT_MS + 20)  # fast, but after the window: it acts
        assert held(page, 0)
        await page.tap("roll", after_ms=REACT_MS + 20)
        assert rolls(page) == 3

    run(steps)


def test_a_quick_tap_on_another_control_right_after_a_move_is_ignored():
    """The near double click landing on what the first tap drew: after Roll, a die under the
    finger; the same tap at a person's pace holds it. A tap that made no move opens no window
    (holding a die, then Roll at once, rolls), and taps outside the game (Quit) are not guarded."""
    async def steps():
        page = await penta()
        await page.tap("roll")
        await page.tap("die-2", after_ms=120)
        assert not held(page, 2) and rolls(page) == 1
        await page.tap("die-2")
        assert held(page, 2)
        await page.tap("roll", after_ms=120)  # the die was no move: Roll right after it rolls
        assert rolls(page) == 2
        await page.tap("quit", after_ms=120)  # right after a move, but not a move of the game
        assert page.shell.dialog_kind == "quit"

    run(steps)


def test_the_window_counts_from_the_draw_on_a_slow_phone():
    """Drawing takes 500 ms: a second tap 450 ms after the first (the screen still unchanged)
    is ignored — a window counted from the first tap would have let it through; a tap at a
    person's pace after the screen showed acts."""
    async def steps():
        page = await penta()
        page.draw_ms = 500
        page.click("roll")
        page.click("roll", after_ms=450)  # handed over when the draw is done, with its own time
        await page.idle()
        assert rolls(page) == 1
        await page.tap("roll")
        assert rolls(page) == 2

    run(steps)


def test_a_tap_handed_over_late_is_judged_by_its_own_time():
    """The page is busy for 400 ms after the move's draw (painting, the computer's work): a tap
    200 ms after the draw reaches the shell 400 ms after it, and is still ignored (judged by
    the time it handed over it would have acted)."""
    async def steps():
        page = await penta()
        await page.tap("roll")
        page.ms += 400
        page.click("die-0", after_ms=200)
        await page.idle()
        assert not held(page, 0)

    run(steps)


def test_a_key_right_after_a_move_acts():
    """Enter on a focused die (a click with detail 0) just after a tap rolled: keys are one
    press each by their own rule, not timed."""
    async def steps():
        page = await penta()
        await page.tap("roll")
        page.click("die-1", taps=0, after_ms=60)
        await page.idle()
        assert held(page, 1)

    run(steps)
