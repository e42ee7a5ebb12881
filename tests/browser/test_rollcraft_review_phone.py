"""RollCraft T8's review on the results screen of a 360×740 phone, in English, Arabic and Polish
(one boot; the other languages chosen in Settings): the review opens, computed off the page's
own thread, with its costliest decisions placed in words — the round, the roll, the dice by colour
and value — and both moves as the log says them; no word of the review broken in two or spilling
out of its box, nothing wider than the phone, no raw key, and axe finds no serious violation.
Screenshots of the open review in /tmp/shots/review-rollcraft/."""

from __future__ import annotations

from pathlib import Path

import pytest
from dicehall_browser import (
    axe_violations,
    catalog,
    no_raw_text,
    open_app,
    outside_the_viewport,
    tap,
    tid,
    words_whole,
)

from pygame_core.ai import self_play
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
SHOTS = Path("/tmp/shots/review-rollcraft")
REVIEW_MS = 180_000  # a typical game's review on a loaded 2-core machine, with room
LANGS = ("en", "ar", "pl")


def finished_table() -> Table:
    """A whole game of easy against medium at a table of people (long names: the words must wrap)."""
    record, _ = self_play("rollcraft", ["easy", "medium"], "view30")
    return Table.from_record(record, [{"name": "Christoffer", "symbol": "●", "ai": None},
                                      {"name": "Annabelle", "symbol": "▲", "ai": None}])


def choose_language(page, lang: str) -> None:
    page.evaluate("() => { location.hash = '#/settings'; }")
    page.select_option(tid("set-lang"), lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.evaluate("() => { location.hash = '#/play'; }")
    page.wait_for_selector(tid("review"))


def test_the_rollcraft_review_on_a_phone_in_three_languages(site, page):
    page.set_viewport_size({"width": 360, "height": 740})
    SHOTS.mkdir(parents=True, exist_ok=True)
    open_app(page, site, {**FAST, "lang": LANGS[0]}, finished_table().dumps())
    page.wait_for_selector(tid("review-open"), timeout=60000)
    tap(page, tid("review-open"))
    page.wait_for_selector(tid("review-table"), timeout=REVIEW_MS)
    for lang in LANGS:
        if lang != LANGS[0]:
            choose_language(page, lang)
            page.wait_for_selector(tid("review-table"), timeout=REVIEW_MS)
        words = catalog(lang, "rollcraft")
        where = lang
        section = page.inner_text(tid("review"))
        assert words["rollcraft.review.loss_help"] in section and words["rollcraft.review.plot"] in section, where
        mistakes = page.locator(tid("review-mistake"))
        assert mistakes.count() == 6, where  # three for each seat: both seats gave points away
        first = mistakes.first.inner_text()
        assert any(words[f"rollcraft.die.{c}"] in first for c in ("grey", "yellow", "blue", "green", "pink", "white")), (where, first)
        no_raw_text(page, "rollcraft")
        assert "rollcraft." not in section, where
        assert outside_the_viewport(page, '[data-testid="review"] *') == [], where
        words_whole(page, '[data-testid="review"]', where)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, where
        page.locator(tid("review-mistake")).first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"results-review-{lang}.png"))
        page.screenshot(path=str(SHOTS / f"results-review-{lang}-full.png"), full_page=True)
        if lang in ("en", "ar"):
            assert axe_violations(page) == [], where
