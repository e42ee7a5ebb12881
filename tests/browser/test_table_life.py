"""Life around the table (issue 7, items 14, 15 and 18): one unfinished game per game waits on
Home, set-ups remember names and give names that follow the seat's kind, finished games make a
history with personal bests and a result to share, a celebration and the winners, the screen
kept awake in play; the manifest, the one-time "ready offline" card and the update banner."""

from __future__ import annotations

import json
import random

import pytest

from dicehall_browser import catalog, open_app, saved_table, start_game, tid, wait_ready, wait_sw_controlled
from pygame_core.ai import self_play
from pygame_core.registry import get_entry
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False, "offline_noted": True}


def test_an_unfinished_game_of_each_game_waits_on_home(site, page):
    open_app(page, site, FAST)
    start_game(page, "penta", ["person", "person"])
    page.click(tid("roll"))
    page.wait_for_selector(tid("box-chance"))
    penta = saved_table(page)
    page.click(tid("nav-home"))
    page.click(tid("new-rolf"))
    page.wait_for_selector(tid("start-game"))
    assert page.locator(tid("setup-replaces")).count() == 0  # no unfinished Rolf to replace
    page.select_option(tid("seat-1-kind"), "person")
    page.click(tid("start-game"))
    page.wait_for_selector(tid("play"))
    assert saved_table(page).game == "rolf"
    page.click(tid("nav-home"))
    page.wait_for_selector(tid("continue"))  # Rolf, the running one
    page.click(tid("continue-penta"))  # Penta, put aside: it goes on where it was
    page.wait_for_selector(tid("box-chance"))
    back = saved_table(page)
    assert back.game == "penta" and back.table_id == penta.table_id
    assert back.record.to_json() == penta.record.to_json()
    page.click(tid("nav-home"))
    assert page.locator(tid("continue-rolf")).count() == 1 and page.locator(tid("continue-penta")).count() == 0
    page.click(tid("new-rolf"))  # a new Rolf says it replaces the waiting one
    page.wait_for_selector(tid("setup-replaces"))
    page.reload()  # what waits survives a reload
    wait_ready(page)
    page.click(tid("nav-home"))
    page.wait_for_selector(tid("continue-rolf"))


def test_setup_remembers_names_and_default_names_follow_the_kind(site, page):
    open_app(page, site, FAST)
    text = catalog("en")
    page.click(tid("new-penta"))
    page.wait_for_selector(tid("start-game"))
    assert page.input_value(tid("seat-1-kind")) == f"ai:{get_entry('penta').setup_level}" == "ai:greedy"  # the middle level
    assert page.input_value(tid("seat-1-name")) == text["setup.default_ai_name"]
    page.select_option(tid("seat-1-kind"), "person")  # the computer's name goes with it
    page.wait_for_function("document.querySelector('[data-testid=seat-1-name]').value === 'Player 2'")
    page.select_option(tid("seat-0-kind"), "ai:optimal")
    page.wait_for_function("document.querySelector('[data-testid=seat-0-name]').value === 'Computer'")
    page.fill(tid("seat-1-name"), "Zoë")
    page.select_option(tid("seat-1-kind"), "ai:beginner")  # a name a person typed stays
    assert page.input_value(tid("seat-1-name")) == "Zoë"
    page.select_option(tid("seat-1-kind"), "person")
    page.click(tid("start-game"))
    page.wait_for_selector(tid("play"))
    page.click(tid("nav-home"))
    page.click(tid("new-penta"))
    page.wait_for_selector(tid("start-game"))
    assert page.input_value(tid("seat-1-name")) == "Zoë" and page.input_value(tid("seat-0-kind")) == "ai:optimal"


def test_a_finished_game_is_celebrated_kept_in_the_history_and_shared(site, page, tmp_path):
    record, _ = self_play("penta", ["greedy", "greedy"], seed=4)
    path = tmp_path / "done.json"
    path.write_text(record.dumps(), encoding="utf-8")
    open_app(page, site, FAST)
    page.click(tid("nav-history"))
    page.wait_for_selector(tid("history-empty"))
    page.click(tid("nav-home"))
    page.set_input_files(tid("import-file"), str(path))
    page.wait_for_selector(tid("results"))
    table = saved_table(page)
    scores, places = table.state.scores(), table.state.ranking()
    winners = [table.seats[s]["name"] for s in range(2) if places[s] == 1]
    assert all(name in page.inner_text(tid("winners")) for name in winners)
    assert page.locator(f'{tid("results-bests")} li').count() == 2  # both people, best first
    page.evaluate("() => { navigator.share = d => { window.__shared = d.text; return Promise.resolve(); }; }")
    page.click(tid("share-result"))
    page.wait_for_function("window.__shared !== undefined")
    shared = page.evaluate("window.__shared").replace("\u2068", "").replace("\u2069", "")  # names bidi-isolated
    assert "Penta" in shared and all(f"{table.seats[s]['name']} {scores[s]}" in shared for s in range(2))
    page.click(tid("nav-home"))
    page.click(tid("nav-history"))
    page.wait_for_selector(tid("bests-penta"))
    rows = page.locator(f'{tid("bests-penta")} tbody tr').all_inner_texts()
    assert rows and str(max(scores)) in rows[0]
    assert page.locator(f'{tid("history-list")} li').count() == 1
    page.reload()  # the finished game is back on its results; the history still holds it once
    wait_ready(page)
    page.wait_for_selector(tid("results"))
    page.click(tid("nav-home"))
    page.click(tid("nav-history"))
    page.wait_for_selector(tid("history-list"))
    assert page.locator(f'{tid("history-list")} li').count() == 1


def test_the_screen_stays_awake_in_play_only(site, page):
    table = Table("penta", [{"name": "A", "symbol": "●", "ai": None}])
    table.new_game(random.Random(1))
    open_app(page, site, FAST, table.dumps())
    page.wait_for_selector(tid("play"))
    assert page.evaluate("document.documentElement.dataset.wakeLock") == "wanted"
    page.click(tid("nav-home"))
    page.wait_for_selector("#home-h")
    assert page.evaluate("document.documentElement.dataset.wakeLock") == "off"


def test_manifest_offline_card_and_an_update_that_can_wait(site, page):
    manifest = json.loads((site.dist / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["id"] == "./" and manifest["shortcuts"][0]["url"] == "./index.html#/play"
    assert {s["url"] for s in manifest["shortcuts"][1:]} >= {"./index.html#/setup/penta"}
    for shot in manifest.get("screenshots", []):
        assert (site.dist / shot["src"][2:]).is_file()
    open_app(page, site, {"animations": False, "autofill": False})
    boot_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(manifest["background_color"][i:i + 2], 16) for i in (1, 3, 5))
    if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False:
        assert boot_bg == f"rgb({r}, {g}, {b})"  # the splash screen and the boot screen agree
    wait_sw_controlled(page)
    page.wait_for_selector(tid("offline-ready"))  # said once, on Home
    assert json.loads(page.evaluate("localStorage.getItem('dicehall.settings')"))["offline_noted"] is True
    page.reload()
    wait_ready(page)
    page.wait_for_timeout(500)
    assert page.locator(tid("offline-ready")).count() == 0
    page.evaluate("document.documentElement.dataset.updateReady = '1'; "
                  "window.dispatchEvent(new CustomEvent('dicehall-update-ready', {detail: {}}))")
    page.wait_for_selector(f'{tid("update-banner")}[role=status]:not([hidden])')
    page.click(tid("update-later"))
    page.wait_for_selector(tid("update-banner"), state="hidden")
