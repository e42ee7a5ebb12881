"""Every game in every language on a fixed position, under CPython: the words of the play screen,
its rules page, Home and the results (no raw key, no placeholder, no Python repr: the fake page
checks every screen it draws; the live region's sentences are checked too), the document's language and direction, the titles and the
prompt. (How those screens fit a 360 px phone is the browser's test, tests/browser/test_shell.py;
the results screen's, tests/browser/test_results_phone.py.) The real shell on a fake page."""

from __future__ import annotations

import functools

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.ai import self_play
from pygame_core.registry import entries, get_entry
from support import LANGS, load_catalog, mid_game_table

pytestmark = pytest.mark.usefixtures("instant_sleep")


@functools.cache
def mid_game_save(game: str) -> str:
    return mid_game_table(game).dumps()


@functools.cache
def finished_record(game: str, players: int) -> str:
    record, _ = self_play(game, [get_entry(game).setup_level] * players, seed=9)
    return record.dumps()


def heading(page: FakePage, element_id: str) -> str:
    el = next(el for el in page.app.walk() if el.get("id") == element_id)
    return " ".join(el.text().split())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(entries()))
def test_every_game_in_every_language_on_a_fixed_position(game, lang):
    async def steps():
        shared, text = load_catalog(lang), load_catalog(lang, game)
        page = FakePage(lang=lang)
        page.browser.items["dicehall.table"] = mid_game_save(game)
        page.location = "#/play"
        await page.boot()
        assert page.screen == "play"
        assert [page.document["lang"], page.document["dir"]] == [lang, "rtl" if lang == "ar" else "ltr"]
        assert heading(page, "play-h") == text[f"{game}.title"]
        assert page.text("prompt")
        await page.tap("nav-rules")
        assert page.screen == "rules" and text[f"{game}.title"] in heading(page, "rules-h")
        await page.tap("nav-home")
        assert heading(page, "home-h") == shared["home.heading"]
        await page.choose_file(finished_record(game, len(page.table().seats)))
        await page.tap("import-confirm")  # the unfinished game would be replaced: asked first
        assert page.screen == "results"
        assert heading(page, "res-h") == shared["results.heading"]
        assert page.draws >= 4 and not page.errors  # every screen drawn had its words checked

    run(steps)
