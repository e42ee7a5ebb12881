"""Results that explain the end (issue 29, item 2) on a 360x740 phone: every game's results screen
says why the game ended, in words, and shows the final board or cards; nothing on it is wider than
the phone or breaks a word in two, and axe finds no serious violation. English and Arabic are
asserted; Polish is drawn too. One boot per game: the other languages are chosen in Settings and
the results drawn again.

DICEHALL_SHOTS=/dir saves a full-page screenshot of each game's results in each language."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from dicehall_browser import (
    axe_violations,
    broken_words,
    catalog,
    no_raw_text,
    open_app,
    outside_the_viewport,
    tid,
)

from pygame_core.ai import self_play
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}
NAMES = ("Christoffer", "Annabelle", "Dag", "Eva")
# game, seats, AI level that played it, dice seed: a Rolf game won with 100 points and more, a full
# Cephalopod board, the last round of the round games; Penta's card with four columns too
GAMES = (("rolf", 2, "greedy", 5), ("penta", 2, "greedy", 5), ("penta", 4, "greedy", 5), ("geekout", 3, "easy", 5),
         ("rollcraft", 2, "easy", 5), ("cephalopod", 2, "easy", 5))
LANGS = ("en", "ar", "pl")

# The reason and the final picture, checked against the phone's edges (dicehall_browser.
# outside_the_viewport; not for content wider than its box: Rolf's final board grid is, inside
# the phone's width, when this check was shared), and their text for words broken in two.
END = "[data-testid=end-reason], [data-testid=final-picture] *"
END_TEXT = "[data-testid=end-reason], [data-testid=final-picture] :is(h2, h3, th, summary, summary *, li, p)"

MEASURE_JS = """() => {
  const width = innerWidth;
  const reason = document.querySelector('[data-testid=end-reason]').getBoundingClientRect();
  const picture = document.querySelector('[data-testid=final-picture]');
  return {scroll: document.documentElement.scrollWidth, width,
          reasonTop: reason.top, reasonHeight: reason.height,
          actions: picture.querySelectorAll('button, [data-action], input, select').length,
          squares: picture.querySelectorAll('.boardgrid .square').length,
          cells: picture.querySelectorAll('.scorecard tbody td').length,
          sheets: picture.querySelectorAll('details').length, open: picture.querySelectorAll('details[open] .rc-zone').length};
}"""


def finished_table(game: str, seats: int, level: str, seed: int) -> Table:
    """A whole game the computer played, at a table of people (nobody's turn is left)."""
    record, _ = self_play(game, [level] * seats, seed)
    return Table.from_record(record, [{"name": n, "symbol": s, "ai": None} for n, s in zip(NAMES[:seats], "●▲■◆")])


def choose_language(page, lang: str) -> None:
    page.evaluate("() => { location.hash = '#/settings'; }")
    page.select_option(tid("set-lang"), lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.evaluate("() => { location.hash = '#/play'; }")
    page.wait_for_selector(tid("final-picture"))


@pytest.mark.parametrize("game, seats, level, seed", GAMES)
def test_results_say_why_and_show_the_end_on_a_phone(site, page, game, seats, level, seed):
    page.set_viewport_size({"width": 360, "height": 740})
    table = finished_table(game, seats, level, seed)
    open_app(page, site, {**FAST, "lang": LANGS[0]}, table.dumps())
    page.wait_for_selector(tid("final-picture"))
    for lang in LANGS:
        if lang != LANGS[0]:
            choose_language(page, lang)
        assert page.evaluate("document.documentElement.lang") == lang
        where = (game, lang)
        folder = os.environ.get("DICEHALL_SHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"{game}-{seats}-{lang}.png"), full_page=True)
        reason = page.inner_text(tid("end-reason")).replace("\u2068", "").replace("\u2069", "")
        # the reason is the game's own sentence in this language, with the winner's name where it names one
        assert reason and not any(k in reason for k in (f"{game}.end", "{")), where
        if game in ("rolf", "cephalopod"):
            assert any(NAMES[s] in reason for s in range(seats)), (where, reason)
        assert page.inner_text(tid("final-picture")).startswith(catalog(lang)["results.final"]), where
        box = page.evaluate(MEASURE_JS)
        assert box["scroll"] <= box["width"] == 360, (where, box)
        out, broken = outside_the_viewport(page, END, spills=False), broken_words(page, END_TEXT)
        assert out == [] and broken == [], (where, out[:6], broken)
        assert box["reasonHeight"] > 0 and box["reasonTop"] < 740, (where, box)  # said on the first screen
        assert box["actions"] == 0, where  # read-only: nothing to choose on the final picture
        if game == "rolf":
            assert box["squares"] == 36, where
        elif game == "cephalopod":
            assert box["squares"] == 25, where
        elif game == "rollcraft":
            assert box["sheets"] == seats and box["open"] == 5, where  # the winner's sheet open, every zone
        else:
            assert box["cells"] >= seats * 5, where  # every seat's column
        no_raw_text(page, game)
        if lang in ("en", "ar"):
            assert axe_violations(page) == [], where
