"""A language switch never shows a game's raw catalog key (issue 29, item 7: the Polish raw key
`cephalopod.last.place` seen after Play again and language switches).

The cause: switching language put a new catalog in place at once and only then fetched the open
game's strings into it. A catalog fetched over a real network takes a while; a move of the
computer in that window described its turn ("placed on c3, showing 1") with the game's keys
missing, and the play screen keeps a turn's words per (game, language): the raw key stayed on
the banner and in the game log for the rest of that game. Here the page's catalog files arrive
after a few turns of the event loop (as over a network), the computer moves while they load, and
every screen and live-region sentence the page shows is checked for raw keys (fakepage)."""

from __future__ import annotations

import pytest

from conftest import REAL_SLEEP
from fakehost import run
from fakepage import FakePage
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")


FETCH_TURNS = 30  # long enough for the computer to move while a catalog file is on its way


class SlowCatalogPage(FakePage):
    """Catalog files arrive after a few turns of the event loop, like over a network. Every
    screen drawn and every sentence said is kept, to be looked through at the end (a strict page
    would raise inside the computer's task, which only stops that task)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, strict=False, **kwargs)
        self.seen: list[str] = []

    def draw(self, screen, html, motion, new_moment, focus) -> None:
        super().draw(screen, html, motion, new_moment, focus)
        self.seen.append(self.app.text())

    def live(self, text) -> None:
        super().live(text)
        self.seen.append(text)

    async def fetch_json(self, url):
        for _ in range(FETCH_TURNS):
            await REAL_SLEEP(0)
        return await super().fetch_json(url)


def navigate(page: FakePage, hash_: str) -> None:
    """Go to `hash_` and let the page hear it, without waiting for the computer."""
    page.shell.go(hash_)
    while page.events:
        page.events.pop(0)()


def raw_keys(text: str, game: str) -> list[str]:
    return [key for key in load_catalog("en", game) if key in text]


async def to_results(page: FakePage) -> None:
    """A Cephalopod between two computer seats, played to its end."""
    await page.tap("new-cephalopod")
    for seat in (0, 1):
        await page.select(f"seat-{seat}-kind", "ai:random")
    await page.tap("start-game")
    await page.idle()
    assert page.screen == "results"


@pytest.mark.parametrize("langs", [("pl",), ("pl", "ar", "pl"), ("ar", "en", "pl")])
def test_switching_language_after_play_again_shows_no_raw_key(langs):
    async def steps():
        page = SlowCatalogPage(lang="en", settings={"offline_noted": True, "pace": "fast"})
        await page.boot()
        await to_results(page)
        page.click("play-again")  # the computer starts moving at once …
        for lang in langs:  # … while the languages are switched, each without waiting for the last
            navigate(page, "#/settings")
            page.shell.change("lang", lang, False, {})
            for _ in range(3):
                await REAL_SLEEP(0)
        for _ in range(3 * FETCH_TURNS):  # the catalogs are in; the computer is still playing
            await REAL_SLEEP(0)
        navigate(page, "#/play")
        assert page.screen == "play" and not page.table().state.is_terminal()
        assert page.document["lang"] == langs[-1]
        last = page.text("last-move-text")  # the computer's last turn, in words
        assert not raw_keys(last, "cephalopod"), last
        log = page.text("log")
        assert not raw_keys(log, "cephalopod"), log
        await page.idle()  # to the end: every screen and sentence drawn is checked for raw keys
        assert page.screen == "results"
        shown = page.text()
        assert not raw_keys(shown, "cephalopod"), raw_keys(shown, "cephalopod")
        assert load_catalog(langs[-1], "cephalopod")["cephalopod.option.size"] in shown  # the game's own words, in that language
        assert not page.errors, page.errors
        shown_raw = sorted({key for text in page.seen for key in raw_keys(text, "cephalopod")})
        assert not shown_raw, shown_raw  # not on any screen drawn, nor in any sentence said
    run(steps)
