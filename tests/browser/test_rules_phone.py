"""Every game's rules page at 360×740 in English and Arabic (issue 29, item 6), measured in the
page, no screenshot: nothing past either edge of the phone, no element whose words spill out of
it, no word of a heading, list, table or face name broken across lines; Geek Out's six faces
drawn as six dice of one size, three to a row; RollCraft's yellow table in full."""

from __future__ import annotations

import pytest
from dicehall_browser import (
    broken_words,
    catalog,
    no_raw_text,
    open_app,
    outside_the_viewport,
    tid,
)

from pygame_core.registry import entries

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}
REAL_GAMES = [name for name in entries() if name != "claim"]  # the fixture game has its own site

# The rules page's elements checked against the phone's edges (dicehall_browser.outside_the_viewport:
# an element that scrolls on purpose, e.g. a wide table's wrapper, would say so by its overflow),
# and the text whose words must not break across lines.
RULES = ".rules *"
RULES_TEXT = ".rules :is(h1, h2, p, li, th, td, caption)"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_rules_page_fits_a_phone(site, page, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    open_app(page, site, {**FAST, "lang": lang})
    for game in REAL_GAMES:
        page.click(tid(f"rules-{game}"))
        title = catalog(lang, game)[f"{game}.title"]
        page.wait_for_function("title => document.getElementById('rules-h')?.textContent.includes(title)", arg=title)
        no_raw_text(page, game)
        assert (outside := outside_the_viewport(page, RULES)) == [], (game, outside)
        assert broken_words(page, RULES_TEXT) == [], game
        if game == "geekout":
            boxes = [page.locator(f'{tid("rules-faces")} .gk-mini').nth(k).bounding_box() for k in range(6)]
            assert all(b and b["width"] >= 40 and abs(b["width"] - boxes[0]["width"]) < 1 for b in boxes), boxes
            assert len({round(b["y"]) for b in boxes}) == 2  # two rows of three: a face above its opposite
        if game == "rollcraft":
            assert page.locator(f'{tid("rules-yellow-table")} tbody tr').count() == 13
            assert page.locator(tid("rules-yellow-table")).bounding_box()["width"] <= 360
        page.click(tid("rules-back"))
        page.wait_for_selector(tid(f"rules-{REAL_GAMES[0]}"))
