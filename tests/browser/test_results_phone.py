"""The results screen on a phone, for the games whose tables have the most columns (Rolf's and
Penta's four parts with five seats, Geek Out's five rounds, RollCraft's five zones and runes): at
360x740 in every language the whole table is in view, Total included, and no heading, player's
name or button breaks inside a word or spills out of its box."""

from __future__ import annotations

import pytest

from dicehall_browser import no_raw_text, open_app, tid
from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
NAMES = ("Christoffer", "Computer", "Annabelle", "Dag", "Eva")

MEASURE_JS = """() => {
  const t = document.querySelector('[data-testid=results-table]');
  const total = t.querySelector('thead th:last-child').getBoundingClientRect();
  const lines = el => {  // the text's line boxes: its fragments' distinct tops (lefts, written upwards)
    const range = document.createRange();
    range.selectNodeContents(el);
    const vertical = getComputedStyle(el).writingMode.startsWith('vertical');
    return new Set([...range.getClientRects()].map(r => Math.round(vertical ? r.left : r.top))).size;
  };
  return {
    many: t.classList.contains('many'), scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth,
    totalLeft: total.left, totalRight: total.right, width: innerWidth,
    headings: [...t.querySelectorAll('thead th')].map(th => [th.textContent, th.scrollWidth - th.clientWidth,
                                                             th.firstElementChild ? lines(th.firstElementChild) : 1]),
    names: [...t.querySelectorAll('tbody .pname')].map(n => [n.textContent, lines(n)]),
    buttons: [...document.querySelectorAll('[data-testid=actionbar] button')].map(b => [b.textContent,
                                                                                      b.scrollWidth - b.clientWidth]),
  }; }"""


@pytest.mark.parametrize("game, seats, level", [("rolf", 5, "greedy"), ("penta", 5, "greedy"),
                                                 ("rollcraft", 4, "easy"), ("geekout", 4, "easy")])
def test_the_widest_results_fit_a_phone_in_every_language(site, page, game, seats, level):
    record, _ = self_play(game, [level] * seats, 5)
    names = NAMES[:seats]
    table = Table(game, [{"name": name, "symbol": symbol, "ai": None} for name, symbol in zip(names, "●▲■◆★")])
    table.match = Match.new(game, record.options)
    table.start_seats = [record.options.get("start", 0)]
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    page.set_viewport_size({"width": 360, "height": 740})
    for lang in ("en", "nb", "sv", "pl", "ar"):
        open_app(page, site, {**FAST, "lang": lang}, table.dumps())
        page.wait_for_selector(tid("results-table"))
        box = page.evaluate(MEASURE_JS)
        assert box["scroll"] <= box["client"], (lang, box)  # nothing to scroll to
        assert 0 <= box["totalLeft"] and box["totalRight"] <= box["width"], (lang, box)  # Total on screen
        assert all(spill <= 0 for _, spill, _ in box["headings"]), (lang, box["headings"])
        assert box["many"]
        assert all(lines == 1 for _, _, lines in box["headings"]), (lang, box["headings"])
        assert sorted(name for name, _ in box["names"]) == sorted(names)
        assert all(lines == 1 for _, lines in box["names"]), (lang, box["names"])  # "Comp/uter" no more
        assert len(box["buttons"]) == 4 and all(spill <= 0 for _, spill in box["buttons"]), (lang, box["buttons"])
        no_raw_text(page, game)
