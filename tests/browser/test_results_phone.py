"""The results screen on a phone, for the games whose tables have the most columns (Rolf's and
Penta's four parts with five seats, Geek Out's five rounds, RollCraft's five zones and runes): at
360x740 in every language the whole table is in view, Total included, and no heading, player's
name or button breaks inside a word or spills out of its box.

One boot per game: the other languages are chosen in Settings on the same page, and the results
drawn again in each (the screen is the same whichever way the language came)."""

from __future__ import annotations

import pytest
from dicehall_browser import catalog, no_raw_text, open_app, tid

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}
NAMES = ("Christoffer", "Computer", "Annabelle", "Dag", "Eva")
LANGS = ("en", "nb", "sv", "pl", "ar")
WIDEST = (("rolf", 5, "greedy"), ("penta", 5, "greedy"), ("rollcraft", 4, "easy"), ("geekout", 4, "easy"))

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


def finished_table(game: str, seats: int, level: str) -> Table:
    """A whole game the computer played, at a table of people with long names."""
    record, _ = self_play(game, [level] * seats, 5)
    table = Table(game, [{"name": name, "symbol": symbol, "ai": None} for name, symbol in zip(NAMES[:seats], "●▲■◆★")])
    table.match = Match.new(game, record.options)
    table.start_seats = [record.options.get("start", 0)]
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    return table


def results_in(page, lang: str, results_hash: str) -> None:
    """The language chosen in Settings, then the results again."""
    page.evaluate("() => { location.hash = '#/settings'; }")
    page.select_option(tid("set-lang"), lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.evaluate("h => { location.hash = h; }", results_hash)
    page.wait_for_selector(tid("results-table"))
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        lang, "rtl" if lang == "ar" else "ltr"]
    assert catalog(lang)["results.heading"] in page.inner_text(tid("results"))  # drawn in that language


def test_the_widest_results_fit_a_phone_in_every_language(site, page):
    page.set_viewport_size({"width": 360, "height": 740})
    for game, seats, level in WIDEST:
        open_app(page, site, {**FAST, "lang": LANGS[0]}, finished_table(game, seats, level).dumps())
        page.wait_for_selector(tid("results-table"))
        results_hash = page.evaluate("location.hash")
        for lang in LANGS:
            if lang != LANGS[0]:
                results_in(page, lang, results_hash)
            where = (game, lang)
            box = page.evaluate(MEASURE_JS)
            assert box["scroll"] <= box["client"], (where, box)  # nothing to scroll to
            assert 0 <= box["totalLeft"] and box["totalRight"] <= box["width"], (where, box)  # Total on screen
            assert all(spill <= 0 for _, spill, _ in box["headings"]), (where, box["headings"])
            assert box["many"], where
            assert all(lines == 1 for _, _, lines in box["headings"]), (where, box["headings"])
            assert sorted(name for name, _ in box["names"]) == sorted(NAMES[:seats]), where
            assert all(lines == 1 for _, lines in box["names"]), (where, box["names"])  # "Comp/uter" no more
            assert len(box["buttons"]) == 4 and all(spill <= 0 for _, spill in box["buttons"]), (where, box["buttons"])
            no_raw_text(page, game)


WIDTHS_JS = """() => [document.documentElement.scrollWidth, innerWidth,
    [...document.querySelectorAll('#app bdi')].filter(b => b.getBoundingClientRect().right > innerWidth + 1
        || b.getBoundingClientRect().left < -1).length]"""


def test_a_longest_unbroken_name_stays_inside_a_phone_on_results_and_history(site, page):
    """Issue 28, item 7: a name of MAX_NAME letters with no break made Results (people's bests)
    431 px and History 559 px wide at 390 px. Both stay within 360 px, in every language."""
    import json

    from dicehall.shelf import history_entry

    from pygame_core.table import MAX_NAME

    page.set_viewport_size({"width": 360, "height": 740})
    table = finished_table("penta", 2, "greedy")
    long_name = "W" * MAX_NAME
    table.seats[0]["name"] = long_name
    table = Table.loads(table.dumps())
    history = [history_entry(table, when=1_800_000_000)]
    page.goto(site.url + "sw-register.js")  # same origin, no boot: storage first
    page.evaluate("""([t, h, s]) => { localStorage.clear(); localStorage.setItem('dicehall.table', t);
        localStorage.setItem('dicehall.history', h); localStorage.setItem('dicehall.settings', s); }""",
                  [table.dumps(), json.dumps(history), json.dumps(FAST)])
    page.goto(site.index)
    page.wait_for_selector(tid("results-bests"))
    assert long_name in page.inner_text(tid("results-bests"))
    for lang in LANGS:
        results_in(page, lang, "#/play")
        page.wait_for_selector(tid("results-bests"))
        assert page.evaluate(WIDTHS_JS) == [360, 360, 0], ("results", lang)
        page.evaluate("() => { location.hash = '#/history'; }")
        page.wait_for_selector(tid("history-list"))
        assert long_name in page.inner_text("#app")
        assert page.evaluate(WIDTHS_JS) == [360, 360, 0], ("history", lang)
