"""The guided first turn and Penta with three to five seats on a 360×740 phone (issue 29, items 4
and 1), in Chromium:

- RollCraft's four coach marks, in English and Arabic (right to left): each box is on the screen,
  beside its target and never over it (the target's own pixels are hit-tested: the box does not
  take them), the target itself on the screen; Next moves the focus along, Got it closes the guide
  and a reload does not bring it back; axe finds no serious violation with the box up.
- Penta's one-time line when the auto-fill countdown first starts: above the action bar, off the
  countdown.
- Penta with four seats (and three, five): every seat's column side by side, the person's whole
  choice (dice, Roll, every box to pick) in view without scrolling, no label spilling, axe clean.

The rules of showing once, remembering and a poisoned setting are checked under CPython:
tests/web/test_guide.py. Screenshots for a person to look at: DICEHALL_SHOTS=<folder>."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from dicehall_browser import axe_violations, no_raw_text, open_app, tap, tid, wait_ready

from pygame_core.protocol import CHANCE
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

PHONE = {"width": 360, "height": 740}
FAST = {"animations": False, "autofill": False, "pace": "fast"}
SYMBOLS = "●▲■◆★"
STEPS = ["dice-group", "dice-platter", "tab-grey", "stock-reroll"]


def shot(page, name: str) -> None:
    folder = os.environ.get("DICEHALL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


# The box, its target (the element the step names, or its parent for a group) and whether the
# target's pixels are its own: at points across the target, the topmost element is the target or
# inside it (the box, or anything else, on top would be found instead).
GUIDE_JS = """() => {
  const box = document.querySelector('[data-testid=guide]');
  const step = box.dataset.target;
  let target = document.querySelector(`[data-testid="${step}"]`);
  if (getComputedStyle(target).anchorName !== '--dh-guide') target = target.parentElement;
  const r = target.getBoundingClientRect(), b = box.getBoundingClientRect();
  const covered = [];
  for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.2, 0.5, 0.8]) {
    const x = r.left + fx * r.width, y = r.top + fy * r.height;
    if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) continue;
    const hit = document.elementFromPoint(x, y);
    if (!(hit && (target === hit || target.contains(hit)))) covered.push([fx, fy, hit && (hit.dataset.testid || hit.className)]);
  }
  return {step, anchor: getComputedStyle(target).anchorName, target: [r.left, r.top, r.right, r.bottom],
          box: [b.left, b.top, b.right, b.bottom], covered, focus: document.activeElement.dataset.testid || '',
          scroll: [document.documentElement.scrollWidth, scrollY]};
}"""


# Words of the box broken across lines mid-word, and anything of it spilling out of its box.
GUIDE_WORDS_JS = """() => {
  const box = document.querySelector('[data-testid=guide]'), broken = [], spill = [];
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      // on more than one line (a word of mixed direction, "+1،", is several boxes on one line)
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom / 4)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  for (const el of box.querySelectorAll('*'))
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') spill.push(el.tagName);
  for (const el of box.querySelectorAll('h2, p, button'))
    if (el.scrollWidth > el.clientWidth + 1) spill.push(el.textContent.trim());
  return {broken, spill};
}"""


def rollcraft_solo() -> str:
    table = Table("rollcraft", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(3))
    return table.dumps()


def to_first_choice(page) -> None:
    """Through the round's benefit and the first throw, to the choice of a die."""
    for _ in range(6):
        page.wait_for_selector(tid("rollcraft"))
        if page.locator('[data-testid=rollcraft][data-phase="choose"]').count():
            return
        if page.locator(f'{tid("roll")}:enabled').count():
            tap(page, tid("roll"))
        elif page.locator(tid("act-pass")).count():
            tap(page, tid("act-pass"))
        page.wait_for_timeout(300)
    page.wait_for_selector('[data-testid=rollcraft][data-phase="choose"]')


def inside(rect, width, height) -> bool:
    left, top, right, bottom = rect
    return left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5


def apart(a, b) -> bool:
    return a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5


@pytest.mark.parametrize("lang", ["en", "ar", "pl", "nb", "sv"])
def test_rollcraft_guide_points_beside_each_target_and_stays_closed_after_a_reload(site, page, lang):
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "lang": lang}, rollcraft_solo())
    to_first_choice(page)
    for n, target in enumerate(STEPS, start=1):
        page.wait_for_selector(f'[data-testid=guide][data-step="{n}"]')
        got = page.evaluate(GUIDE_JS)
        assert got["step"] == target and got["anchor"] == "--dh-guide", got
        assert inside(got["box"], 360, 740), got  # the box on the screen
        assert inside(got["target"], 360, 740), got  # what it points at on the screen
        assert apart(got["box"], got["target"]), got  # beside it, not over it
        assert got["covered"] == [], got  # the target's own pixels are its own
        assert got["scroll"] == [360, 0], got
        assert page.evaluate(GUIDE_WORDS_JS) == {"broken": [], "spill": []}
        shot(page, f"rollcraft-{lang}-{n}")
        if n == 1:
            no_raw_text(page, "rollcraft")
            with_guide = axe_violations(page)
        if n < len(STEPS):
            tap(page, tid("guide-next"))
            page.wait_for_selector(f'[data-testid=guide][data-step="{n + 1}"]')
            assert page.evaluate("document.activeElement.dataset.testid") == ("guide-next" if n + 1 < len(STEPS) else "guide-done")
    tap(page, tid("guide-done"))
    page.wait_for_selector(tid("guide"), state="detached")
    # The guide adds no serious violation to what the screen has without it (RollCraft's own
    # markup is another part's: its findings, if any, are the same with the guide closed).
    without = axe_violations(page)
    assert set(with_guide) <= set(without), (with_guide, without)
    assert not [v for v in with_guide if "guide" in v], with_guide
    page.reload()
    wait_ready(page)
    page.wait_for_selector(tid("rollcraft"))
    to_first_choice(page)
    page.wait_for_timeout(500)
    assert page.locator(tid("guide")).count() == 0


def test_escape_closes_the_rollcraft_guide(site, page):
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "lang": "en"}, rollcraft_solo())
    to_first_choice(page)
    page.wait_for_selector(tid("guide"))
    page.keyboard.press("Escape")
    page.wait_for_selector(tid("guide"), state="detached")
    assert "rollcraft.first_turn" in page.evaluate("JSON.parse(localStorage.getItem('dicehall.settings')).guides_seen")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_penta_explains_the_auto_fill_above_the_action_bar(site, page, lang):
    page.set_viewport_size(PHONE)
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(5))
    open_app(page, site, {**FAST, "autofill": True, "autofill_seconds": 10, "lang": lang}, table.dumps())
    for _ in range(3):
        page.wait_for_selector(f'{tid("roll")}:enabled')
        tap(page, tid("roll"))
        page.wait_for_timeout(200)
    page.wait_for_selector(tid("countdown"))
    page.wait_for_selector('[data-testid=guide][data-guide="penta.autofill"]')
    box = page.locator(tid("guide")).bounding_box()
    bar = page.locator(tid("actionbar")).bounding_box()
    assert box["y"] >= -0.5 and box["y"] + box["height"] <= bar["y"] + 0.5, (box, bar)  # above the bar, off the countdown
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= 360.5, box
    shot(page, f"penta-autofill-{lang}")
    assert axe_violations(page) == []


# --- Penta with three to five seats -------------------------------------------------------------
def penta_after_the_computers(n_computers: int, seed: int = 5) -> Table:
    """Computers then the person (the last seat), rounds written until the person is to throw."""
    seats = [{"name": f"Computer {i + 1}", "symbol": SYMBOLS[i], "ai": "greedy"} for i in range(n_computers)]
    seats.append({"name": "Ann", "symbol": SYMBOLS[n_computers], "ai": None})
    table = Table("penta", seats)
    table.new_game(random.Random(seed))
    person, written = len(seats) - 1, [0] * len(seats)
    boxes = ("full_house", "chance", "sixes")
    while not (table.state.turn_number() > 0 and table.state.seat() == person and written[person] >= 1):
        seat = table.state.seat()
        table.submit(CHANCE, "roll 5 5 6 6 6", table.match.index)
        table.submit(seat, "score " + boxes[written[seat]], table.match.index)
        written[seat] += 1
    return table


BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind", "full_house",
         "small_straight", "large_straight", "chance", "penta"]
OVERFLOWING_JS = """() => [...document.querySelectorAll('.scorecard tbody th, .scorecard td')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => [el.dataset.testid || el.textContent.trim(), el.clientWidth, el.scrollWidth])"""


@pytest.mark.parametrize("lang,computers", [("en", 3), ("ar", 3), ("pl", 4), ("en", 2), ("pl", 2)])
def test_penta_card_shows_three_to_five_seats_with_the_whole_choice_in_view(site, page, lang, computers):
    page.set_viewport_size(PHONE)
    table = penta_after_the_computers(computers)
    person, n = computers, computers + 1
    open_app(page, site, {**FAST, "lang": lang}, table.dumps())
    tap(page, tid("roll"))
    page.wait_for_selector(tid("box-chance") if table.state.cards[person]["chance"] is None else tid("box-ones"))
    bar = page.locator(tid("actionbar")).bounding_box()
    assert bar["y"] + bar["height"] <= PHONE["height"] + 0.5
    for k in range(5):  # the dice (Roll is in the bar)
        d = page.locator(tid(f"die-{k}")).bounding_box()
        assert d is not None and d["y"] >= 0 and d["y"] + d["height"] <= bar["y"] + 0.5, (k, d)
    written = table.state.cards
    for box in BOXES:
        for seat in range(n):
            mine = seat == person and written[seat][box] is None
            sel = tid(f"box-{box}") if mine else tid(f"cell-{seat}-{box}")
            got = page.locator(sel).bounding_box()
            assert got is not None and got["width"] > 0, sel
            assert got["x"] >= -0.5 and got["x"] + got["width"] <= 360.5, (sel, got)
            assert got["y"] >= -0.5 and got["y"] + got["height"] <= bar["y"] + 0.5, (sel, got)
            if mine:
                assert got["height"] >= 44 and got["width"] >= 44, (box, got)
    for seat in range(n):
        got = page.locator(tid(f"total-{seat}")).bounding_box()
        assert got is not None and got["x"] >= -0.5 and got["x"] + got["width"] <= 360.5, (seat, got)
    cur = page.evaluate("""() => [...document.querySelectorAll('.scorecard tbody tr:not(.pt-head)')]
        .map(tr => [...tr.querySelectorAll('td')].findIndex(td => td.classList.contains('cur')))""")
    assert set(cur) == {person}, cur
    heads = page.evaluate("""() => [...document.querySelectorAll('.scorecard tr.pt-head')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.textContent.trim()).join(''))""")
    assert heads == [SYMBOLS[:n]] * 2, heads
    shot(page, f"penta-{n}-seats-{lang}")
    assert page.evaluate(OVERFLOWING_JS) == []
    assert page.evaluate("window.scrollY") == 0 and page.evaluate("document.documentElement.scrollWidth") <= 360
    no_raw_text(page, "penta")
    assert axe_violations(page) == []
