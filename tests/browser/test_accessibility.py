"""axe-core (npm, injected by the test) on every screen, in English and Arabic: no serious or
critical violations (issue 7, item 16)."""

from __future__ import annotations

import json
import random

import pytest

from dicehall_browser import axe_violations as violations, open_app, tap, tid
from pygame_core.ai import self_play
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}


def table_of(people: int, moves=()) -> Table:
    table = Table("penta", [{"name": f"P{i + 1}", "symbol": "●▲■"[i], "ai": None} for i in range(people)])
    table.new_game(random.Random(1))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    return table


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_no_serious_violations_on_any_screen(site, page, tmp_path, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    settings = {**FAST, "lang": lang, "hints": True}
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        found[name] = violations(page)

    open_app(page, site, settings)
    check("home")
    tap(page, tid("new-penta"))
    page.wait_for_selector(tid("start-game"))
    check("setup")
    tap(page, tid("nav-settings"))
    page.wait_for_selector(tid("set-lang"))
    check("settings")
    page.goto(site.index + "#/rules/penta")
    page.wait_for_selector("#rules-h")
    check("rules")
    page.goto(site.index + "#/join/dice-abcdefghijklmnop")
    page.wait_for_selector(tid("room-join"))
    check("join a room")
    open_app(page, site, settings, table_of(2, ["roll 2 2 5 6 1"]).dumps())
    page.wait_for_selector(tid("hint"))
    tap(page, tid("hint"))
    page.wait_for_selector(tid("hint-option-0"), timeout=30000)
    tap(page, tid("die-0"))
    tap(page, tid("box-chance"))
    check("play")
    tap(page, tid("confirm"))
    page.wait_for_selector(tid("handover"))
    check("handover")
    tap(page, tid("handover-ok"))
    tap(page, tid("quit"))
    check("quit dialog")
    page.keyboard.press("Escape")
    record, _ = self_play("penta", ["greedy", "beginner"], seed=4)
    path = tmp_path / "done.json"
    path.write_text(record.dumps(), encoding="utf-8")
    open_app(page, site, settings)
    page.set_input_files(tid("import-file"), str(path))
    page.wait_for_selector(tid("results"))
    tap(page, tid("review-open"))
    page.wait_for_selector(tid("review-plot"), timeout=30000)
    check("results and review")
    tap(page, tid("nav-home"))
    tap(page, tid("nav-history"))
    page.wait_for_selector(tid("bests-penta"))
    check("history")
    open_app(page, site, settings, table='{"format": "dicehall-save"}')
    page.wait_for_selector(tid("save-error"))
    check("broken save")
    assert {k: v for k, v in found.items() if v} == {}, json.dumps(found, indent=1)


def test_the_check_itself_finds_a_planted_violation(site, page):
    """The harness is not vacuous: an unlabeled button planted on the page is reported."""
    open_app(page, site, FAST)
    # Outside #app: the app may redraw #app right after boot (the service worker's "ready offline"
    # card on a returning visit), which would remove a button planted inside it.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button id=planted></button>')")
    assert any(v.startswith("button-name") for v in violations(page))
