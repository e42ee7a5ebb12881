"""The screen check of issue 29 on fixed positions: every game's play screen (halfway through a
game the computer played, a person to decide) and its results screen, at 360x740 in all five
languages: no word broken mid-word, none spilling out of the box that holds it, nothing wider than
the phone, no catalog key or placeholder on screen; on the play screen the action bar's controls
in view without scrolling. Screenshots in English, Polish and Arabic go to DICEHALL_SHOTS or
/tmp/shots/screens/ (the closing note lists the ones looked at).

One boot per game and screen: the other languages are chosen in Settings on the same page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from dicehall_browser import catalog, no_raw_text, open_app, tid, words_whole
from support import mid_game_table

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.registry import get_entry
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

PHONE = {"width": 360, "height": 740}
LANGS = ("en", "nb", "sv", "pl", "ar")
GAMES = ("rolf", "penta", "geekout", "rollcraft", "cephalopod")
# No hand-over card, guide or countdown over the position: the screen itself is checked.
QUIET = {"animations": False, "autofill": False, "pace": "fast", "handover": False,
         "guides_seen": ["rollcraft.first_turn", "penta.autofill"]}
SHOTS = Path(os.environ.get("DICEHALL_SHOTS") or "/tmp/shots/screens")


def finished_table(game: str) -> Table:
    """A whole game the computer played, at a table of people."""
    rules = get_entry(game).rules
    n = max(rules.min_players, min(3, rules.max_players))
    record, _ = self_play(game, [get_entry(game).setup_level] * n, 5)
    table = Table(game, [{"name": f"Ana {i}" if i else "Ибн Ольга", "symbol": "●▲■◆★"[i], "ai": None} for i in range(n)])
    table.match = Match.new(game, record.options)
    table.start_seats = [record.options.get("start", 0)]
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    return table


def in_language(page, lang: str, back: str, ready: str) -> None:
    """The language chosen in Settings, then the screen at `back` again."""
    page.evaluate("() => { location.hash = '#/settings'; }")
    page.select_option(tid("set-lang"), lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.evaluate("h => { location.hash = h; }", back)
    page.wait_for_selector(ready)


def check_screen(page, game: str, screen: str, root: str) -> None:
    back = page.evaluate("location.hash")
    for lang in LANGS:
        if lang != LANGS[0]:
            in_language(page, lang, back, root)
        where = (game, screen, lang)
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr"), where
        no_raw_text(page, game)
        words_whole(page, root, where)
        if screen == "play":  # the choice: every control of the action bar on screen, unscrolled
            assert page.evaluate("scrollY") == 0, where
            for box in [b.bounding_box() for b in page.locator(f"{tid('actionbar')} button").all() if b.is_visible()]:
                assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] + 0.5, (where, box)
        if lang in ("en", "pl", "ar"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{game}-{screen}-{lang}.png"), full_page=True)
    assert catalog(LANGS[-1])["results.heading"]  # (the catalogs were read: a sanity check of the test)


@pytest.mark.parametrize("game", GAMES)
def test_play_and_results_screens_hold_their_words(site, page, game):
    page.set_viewport_size(PHONE)
    open_app(page, site, {**QUIET, "lang": LANGS[0]}, mid_game_table(game, 2).dumps())
    page.wait_for_selector(tid("play"))
    check_screen(page, game, "play", tid("play"))
    open_app(page, site, {**QUIET, "lang": LANGS[0]}, finished_table(game).dumps())
    page.wait_for_selector(tid("results"))
    check_screen(page, game, "results", tid("results"))
