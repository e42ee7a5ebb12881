"""Everyone in view on a 360×740 phone (issue 29, item 1): Penta's compact score card shows every
seat's column side by side (two players; the current player's highlighted) with the
person's whole choice still in view after a roll; the outline of the box written last keeps its
number inside; Geek Out's score pad shows every player's column. English and Arabic/Polish.

A seat tapped in the seat bar giving way to the person's own card is checked under CPython:
tests/web/test_penta_seat_view.py."""

from __future__ import annotations

import random

import pytest

from dicehall_browser import axe_violations, catalog, no_raw_text, open_app, tap, tid
from pygame_core.protocol import CHANCE
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

PHONE = {"width": 360, "height": 740}
FAST = {"animations": False, "autofill": False, "pace": "fast"}
SYMBOLS = "●▲■◆★"


def penta_after_the_computers(n_computers: int, seed: int = 5) -> Table:
    """Computers then the person (the last seat): rounds written until the person is to throw
    right after a computer wrote its box (the box outlined as written last)."""
    seats = [{"name": f"Computer {i + 1}", "symbol": SYMBOLS[i], "ai": "greedy"} for i in range(n_computers)]
    seats.append({"name": "Ann", "symbol": SYMBOLS[n_computers], "ai": None})
    table = Table("penta", seats)
    table.new_game(random.Random(seed))
    person, written = len(seats) - 1, [0] * len(seats)
    while not (table.state.turn_number() > 0 and table.state.seat() == person):
        seat = table.state.seat()
        table.submit(CHANCE, "roll 5 5 6 6 6", table.match.index)
        table.submit(seat, "score " + ("full_house", "chance")[written[seat]], table.match.index)
        written[seat] += 1
    return table


def solo_after_a_box() -> Table:
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(1))
    table.submit(CHANCE, "roll 5 5 6 6 6", table.match.index)
    table.submit(0, "score full_house", table.match.index)
    return table


LAST_CELL_JS = """() => {
  const td = document.querySelector('.scorecard td.last');
  const range = document.createRange();
  range.selectNodeContents(td);
  const text = range.getBoundingClientRect(), box = td.getBoundingClientRect(), style = getComputedStyle(td);
  return {text: [text.left, text.top, text.right, text.bottom], box: [box.left, box.top, box.right, box.bottom],
          width: parseFloat(style.outlineWidth), offset: parseFloat(style.outlineOffset), style: style.outlineStyle,
          words: td.textContent.trim()};
}"""


@pytest.mark.parametrize("table_of", [solo_after_a_box, lambda: penta_after_the_computers(1)], ids=["own", "computers"])
def test_the_outline_of_the_box_written_last_does_not_cover_its_number(site, page, table_of):
    """The outline is drawn inside the cell (negative offset): the line box of its number must lie
    within the cell less the outline's width on every side (it was 15 px tall: 3 px off each)."""
    page.set_viewport_size(PHONE)
    open_app(page, site, FAST, table_of().dumps())
    page.wait_for_selector(".scorecard td.last")
    got = page.evaluate(LAST_CELL_JS)
    assert got["words"] == "25" and got["style"] == "solid" and got["width"] >= 2, got
    assert got["offset"] <= -got["width"] + 0.01, got  # drawn inside the cell
    inset = got["width"]
    (tl, tt, tr, tb), (bl, bt, br, bb) = got["text"], got["box"]
    assert tt >= bt + inset - 0.5 and tb <= bb - inset + 0.5, got  # not clipped above or below
    assert tl >= bl + inset - 0.5 and tr <= br - inset + 0.5, got  # nor at its sides
    assert tr > tl and bb - bt >= tb - tt + 2 * inset - 0.5, got


def in_view(page, selector: str, bottom: float) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None and box["width"] > 0, selector
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)
    assert box["y"] >= -0.5 and box["y"] + box["height"] <= bottom + 0.5, (selector, box)
    return box


OVERFLOWING_LABELS_JS = """() => [...document.querySelectorAll('.scorecard tbody th, .scorecard thead th')]
  .filter(th => th.offsetParent !== null && th.scrollWidth > th.clientWidth + 1).map(th => th.textContent)"""
BROKEN_WORDS_JS = """() => [...document.querySelectorAll('.scorecard .pname')].flatMap(el => {
  const text = el.firstChild, broken = [];
  for (const m of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    if (range.getClientRects().length > 1) broken.push(m[0]);
  }
  return broken;
})"""
BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind", "full_house",
         "small_straight", "large_straight", "chance", "penta"]


@pytest.mark.parametrize("lang,computers", [("en", 1), ("ar", 1), ("pl", 1)])
def test_penta_card_shows_every_seat_side_by_side_with_the_whole_choice_in_view(site, page, lang, computers):
    page.set_viewport_size(PHONE)
    table = penta_after_the_computers(computers)
    person = computers
    open_app(page, site, {**FAST, "lang": lang}, table.dumps())
    tap(page, tid("roll"))
    page.wait_for_selector(tid("box-chance"))
    bar = page.locator(tid("actionbar")).bounding_box()
    assert bar["y"] + bar["height"] <= PHONE["height"] + 0.5
    written = table.state.cards
    for box in BOXES:  # the person's boxes to pick, and every other seat's column beside them
        for seat in range(computers + 1):
            mine = seat == person and written[seat][box] is None
            got = in_view(page, tid(f"box-{box}") if mine else tid(f"cell-{seat}-{box}"), bar["y"])
            if mine:
                assert got["height"] >= 44 and got["width"] >= 44, (box, got)
    for seat in range(computers + 1):
        in_view(page, tid(f"upper-{seat}"), bar["y"])
        # The totals row may sit under the action bar when the prompt takes three lines (Polish):
        # the totals are in the seat bar too; here both are side by side within the width.
        in_view(page, tid(f"total-{seat}"), float("inf"))
    assert page.evaluate("""() => [...document.querySelectorAll('.scorecard .pt-full')]
        .every(el => el.getClientRects().length <= 1)""")  # "0 × 100" on one line (not "× 0" over "100" in Arabic)
    # The current player's column is the highlighted one, in every row.
    cur = page.evaluate("""() => [...document.querySelectorAll('.scorecard tbody tr:not(.pt-head)')]
        .map(tr => [...tr.querySelectorAll('td')].findIndex(td => td.classList.contains('cur')))""")
    assert set(cur) == {person}, cur
    colour = page.evaluate("""() => [getComputedStyle(document.querySelector('.scorecard td.cur')).backgroundColor,
        getComputedStyle(document.querySelector('.scorecard td.other')).backgroundColor]""")
    assert colour[0] != colour[1], colour
    # Each half is headed by the seats' symbols, in the columns' order.
    heads = page.evaluate("""() => [...document.querySelectorAll('.scorecard tr.pt-head')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.textContent.trim()).join(''))""")
    assert heads == [SYMBOLS[:computers + 1]] * 2, heads
    assert page.evaluate(OVERFLOWING_LABELS_JS) == []
    assert page.evaluate("window.scrollY") == 0 and page.evaluate("document.documentElement.scrollWidth") <= 360
    no_raw_text(page, "penta")
    assert axe_violations(page) == []
    page.set_viewport_size({"width": 620, "height": 740})  # a whole table (app.css kept one column up to 640 px)
    for seat in range(computers + 1):
        assert page.locator(tid(f"total-{seat}")).is_visible() and page.locator(tid(f"cell-{seat}-full_house")).is_visible()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_geekout_score_pad_shows_every_players_column_on_a_phone(site, page, lang):
    names = ["Ann"] + [catalog(lang)["setup.default_ai_name_n"].format(n=n) for n in (1, 2, 3)]
    table = Table("geekout", [{"name": name, "symbol": SYMBOLS[i], "ai": None} for i, name in enumerate(names)])
    table.new_game(random.Random(2))
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "lang": lang}, table.dumps())
    if page.locator(tid("handover-ok")).count():
        tap(page, tid("handover-ok"))
    page.wait_for_selector(tid("pad-round-1"))
    page.locator(tid("pad-round-1")).scroll_into_view_if_needed()
    width = page.evaluate("document.documentElement.clientWidth")
    for seat in range(len(names)):
        for testid in (f"pad-{seat}-1", f"pad-{seat}-5", f"total-{seat}"):
            box = page.locator(tid(testid)).bounding_box()
            assert box is not None and box["width"] > 0, testid
            assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, (testid, box)
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-testid=scorecard] thead th')]
        .filter(th => th.offsetParent !== null).map(th => th.textContent.trim())""")
    assert [n for n in names if any(n in s for s in shown)] == names, shown
    assert page.evaluate(BROKEN_WORDS_JS) == []  # "Computer" never "Compute" over "r"
    assert page.evaluate(OVERFLOWING_LABELS_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    no_raw_text(page, "geekout")
    assert axe_violations(page) == []
