"""Cephalopod's review on a phone (issue 30, item 2): a finished 5×5 game opened from History at
360×740 in English and Arabic, its review computed in the AI worker: labelled "partly exact"
(the endgame proven, the rest Hard's search), each mistake tagged, the explanation of the exact
moves shown whole (no word broken or spilling, nothing wider than the phone), axe clean.
Screenshots in /tmp/shots/review-ceph/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dicehall.shelf import history_entry
from dicehall_browser import (
    axe_violations,
    catalog,
    no_raw_text,
    outside_the_viewport,
    tap,
    tid,
    words_whole,
)

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
SHOTS = Path("/tmp/shots/review-ceph")
REVIEW_MS = 240_000  # the review keeps to ~9 s of its own; a loaded 2-core machine stretches that


def finished_table() -> Table:
    record, _ = self_play("cephalopod", ["medium", "medium"], seed=41)
    table = Table("cephalopod", [{"name": n, "symbol": s, "ai": None} for n, s in (("Christoffer", "●"), ("Annabelle", "▲"))],
                  {"size": 5})
    table.match = Match.new("cephalopod", record.options)
    table.start_seats = [record.options.get("start", 0)]
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    return table


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_cephalopod_review_says_which_grades_are_exact_on_a_phone(site, page, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    SHOTS.mkdir(parents=True, exist_ok=True)
    table = finished_table()
    item = history_entry(table, when=1_800_000_000)
    kept = [{"id": item["id"], "seats": table.seats, "record": table.record.to_json()}]
    page.goto(site.url + "sw-register.js")  # same origin, no boot: storage first
    page.evaluate("""([h, r, s]) => { localStorage.clear(); localStorage.setItem('dicehall.history', h);
        localStorage.setItem('dicehall.replays', r); localStorage.setItem('dicehall.settings', s); }""",
                  [json.dumps([item]), json.dumps(kept), json.dumps({**FAST, "lang": lang})])
    page.goto(site.index + "#/history")
    page.wait_for_selector(tid(f"replay-{item['id']}"), timeout=120000)
    tap(page, tid(f"replay-{item['id']}"))
    page.wait_for_selector(tid("replay-board"))
    tap(page, tid("review-open"))
    page.wait_for_selector(tid("review-table"), timeout=REVIEW_MS)
    words = catalog(lang, "cephalopod")
    label = page.locator(tid("review-certainty"))
    assert label.get_attribute("data-certainty") == "mixed"
    assert label.inner_text().strip() == words["review.certainty.mixed"]
    tags = page.locator(tid("review-tag"))
    assert tags.count() >= 1
    assert all(tags.nth(k).get_attribute("data-certainty") in ("exact", "estimate") for k in range(tags.count()))
    review = page.locator(tid("review"))
    text = review.inner_text()
    for key in ("cephalopod.review.intro", "cephalopod.review.loss_help"):
        assert words[key] in text, key
    no_raw_text(page, "cephalopod")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert outside_the_viewport(page, '[data-testid="review"] *', in_scrollers=False) == []
    words_whole(page, '[data-testid="review"]', lang)
    review.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"cephalopod-review-{lang}.png"))
    page.get_by_text(words["cephalopod.review.loss_help"]).evaluate("el => el.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(SHOTS / f"cephalopod-review-help-{lang}.png"))
    assert axe_violations(page) == []
