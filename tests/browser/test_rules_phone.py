"""Every game's rules page at 360×740 in English and Arabic (issue 29, item 6), measured in the
page, no screenshot: nothing past either edge of the phone, no element whose words spill out of
it, no word of a heading, list, table or face name broken across lines; Geek Out's six faces
drawn as six dice of one size, three to a row; RollCraft's yellow table in full."""

from __future__ import annotations

import pytest
from dicehall_browser import catalog, no_raw_text, open_app, tid

from pygame_core.registry import entries

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
REAL_GAMES = [name for name in entries() if name != "claim"]  # the fixture game has its own site

# Elements of the rules page outside the viewport, or whose content is wider than their box
# (an element that scrolls on purpose, e.g. a wide table's wrapper, would say so by its overflow).
OUTSIDE = """() => [...document.querySelectorAll('.rules *')]
  .filter(el => el instanceof HTMLElement && el.offsetParent !== null)
  .filter(el => {
    const r = el.getBoundingClientRect();
    const out = r.width > 0 && (r.left < -1 || r.right > innerWidth + 1);
    const spills = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1
                   && getComputedStyle(el).overflowX === 'visible';
    return out || spills; })
  .map(el => [el.tagName, el.dataset.testid || el.className, el.textContent.trim().slice(0, 40)])"""

# Words drawn on more than one line (broken inside the word): a word's range has one client
# rectangle when it sits on one line.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll('.rules :is(h1, h2, p, li, th, td, caption)')) {
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      const text = node.textContent;
      for (const m of text.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken; }"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_rules_page_fits_a_phone(site, page, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    open_app(page, site, {**FAST, "lang": lang})
    for game in REAL_GAMES:
        page.click(tid(f"rules-{game}"))
        title = catalog(lang, game)[f"{game}.title"]
        page.wait_for_function("title => document.getElementById('rules-h')?.textContent.includes(title)", arg=title)
        no_raw_text(page, game)
        assert page.evaluate(OUTSIDE) == [], game
        assert page.evaluate(BROKEN_WORDS) == [], game
        if game == "geekout":
            boxes = [page.locator(f'{tid("rules-faces")} .gk-mini').nth(k).bounding_box() for k in range(6)]
            assert all(b and b["width"] >= 40 and abs(b["width"] - boxes[0]["width"]) < 1 for b in boxes), boxes
            assert len({round(b["y"]) for b in boxes}) == 2  # two rows of three: a face above its opposite
        if game == "rollcraft":
            assert page.locator(f'{tid("rules-yellow-table")} tbody tr').count() == 13
            assert page.locator(tid("rules-yellow-table")).bounding_box()["width"] <= 360
        page.click(tid("rules-back"))
        page.wait_for_selector(tid(f"rules-{REAL_GAMES[0]}"))
