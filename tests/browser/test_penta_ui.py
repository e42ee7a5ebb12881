"""Penta in the built site: full games by clicks, resume after reload, broken saves, illegal
actions, the five languages. Run: pytest -m browser tests/browser/test_penta.py"""

from __future__ import annotations

import json
import random
import sys
import time

import pytest

from dicehall_browser import ROOT, wait_ready, catalog, open_app, start_game, tid

sys.path.insert(0, str(ROOT))

from pygame_core.table import Table  # noqa: E402

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}

# Any person's action is possible now, or the game is over.
READY_JS = """() => document.querySelector('[data-testid=results]') ||
  (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled)"""










def play_person_round(page) -> None:
    """Roll once, write the first allowed box, confirm."""
    page.click(tid("roll"))
    page.locator('[data-testid^="box-"]:enabled').first.click()
    page.click(tid("confirm"))


def play_to_results(page, max_rounds: int = 80) -> int:
    rounds = 0
    while rounds < max_rounds:
        page.wait_for_function(READY_JS, timeout=60000, polling=50)
        if page.locator(tid("results")).count():
            return rounds
        play_person_round(page)
        rounds += 1
    raise AssertionError("the game did not end")


def snapshot(page) -> dict:
    """What a player sees of the position."""
    return page.evaluate("""() => ({
      seat: document.querySelector('[data-testid=app] .play').dataset.seat,
      rolls: document.querySelector('[data-testid=app] .play').dataset.rolls,
      dice: [...document.querySelectorAll('[data-testid^=die-]')].map(d => d.dataset.value + (d.getAttribute('aria-pressed') === 'true' ? 'H' : '')),
      card: [...document.querySelectorAll('[data-testid=scorecard] td')].map(td => td.textContent.trim()).join('|'),
      prompt: document.querySelector('[data-testid=prompt]').textContent,
      selected: [...document.querySelectorAll('[data-testid^=box-][aria-pressed=true]')].map(b => b.dataset.testid),
      rollsLeft: document.querySelector('[data-testid=rolls-left]').textContent,
    })""")


def test_full_game_person_vs_ai(site, page):
    boot = open_app(page, site, FAST)
    start_game(page, ["person", "ai:greedy"])
    started = time.monotonic()
    rounds = play_to_results(page)
    elapsed = time.monotonic() - started
    assert rounds == 13
    rows = page.locator('[data-testid^="result-row-"]')
    assert rows.count() == 2
    totals = [int(page.inner_text(tid(f"result-total-{s}"))) for s in (0, 1)]
    assert all(t > 0 for t in totals)
    assert page.locator(f'{tid("plot")} polyline').count() == 2
    assert page.locator(f'{tid("standings")} tbody tr').count() == 2
    # saved after every move: the finished game is in storage, and its record replays
    saved = Table.loads(page.evaluate("localStorage.getItem('dicehall.table')"))
    assert saved.state.is_terminal() and saved.state.scores() == totals
    assert saved.standings.games == 1
    print(f"boot {boot:.1f}s, 13 rounds vs AI {elapsed:.1f}s, worker {page.evaluate('document.documentElement.dataset.aiWorker')}")
    # play again: standings carry on, start seat moves on
    page.click(tid("play-again"))
    page.wait_for_selector(tid("scorecard"))
    again = Table.loads(page.evaluate("localStorage.getItem('dicehall.table')"))
    assert again.start_seats[1] == (again.start_seats[0] + 1) % 2
    assert again.standings.games == 1


def test_reload_resumes_exact_position(site, page):
    open_app(page, site, FAST)
    start_game(page, ["person", "person"])
    play_person_round(page)  # first seat's round (whoever starts)
    page.click(tid("roll"))
    page.click(tid("die-0"))
    page.click(tid("die-3"))
    page.click(tid("roll"))  # keep 2 dice, roll 3
    page.click(tid("die-1"))  # a pending hold, not yet rolled
    page.locator('[data-testid^="box-"]:enabled').nth(2).click()  # a pending box choice
    before = snapshot(page)
    assert before["rolls"] == "2" and before["dice"][0].endswith("H") and before["dice"][1].endswith("H")
    page.reload()
    wait_ready(page)
    after = snapshot(page)
    assert after == before


def test_corrupted_save_shows_message_and_discard_works(site, page):
    text = catalog("en")
    open_app(page, site, FAST, table='{"format": "dicehall-save", "version": 1, "game": "penta", "seats": 3}')
    page.wait_for_selector(tid("save-error"))
    assert text["save.unreadable"] in page.inner_text(tid("save-error"))
    assert page.locator(tid("export-save")).is_enabled()
    page.click(tid("discard-save"))
    page.wait_for_selector(tid("new-penta"))
    assert page.evaluate("localStorage.getItem('dicehall.table')") is None
    # not JSON at all: same message, in the player's language
    open_app(page, site, {**FAST, "lang": "pl"}, table="{not json")
    page.wait_for_selector(tid("save-error"))
    assert catalog("pl")["save.unreadable"] in page.inner_text(tid("save-error"))


def joker_table() -> Table:
    """Solo table: the Penta box holds 50 and the dice now show another Penta of fours."""
    table = Table("penta", [{"name": "Ada", "symbol": "●", "ai": None}])
    table.new_game(random.Random(1))
    table.play("roll 6 6 6 6 6")
    table.play("score penta")
    table.play("roll 4 4 4 4 4")
    return table


def test_illegal_actions_are_impossible_and_explained(site, page):
    text = catalog("en")
    open_app(page, site, FAST)
    start_game(page, ["person"])
    # before rolling no box can be chosen and Confirm is disabled
    assert page.locator('[data-testid^="box-"]').count() == 0
    assert page.locator(tid("confirm")).is_disabled()
    assert page.locator(tid("die-0")).is_disabled()
    page.click(tid("roll"))
    for k in range(5):
        page.click(tid(f"die-{k}"))
    assert page.locator(tid("roll")).is_disabled()
    assert page.inner_text(tid("hint-keep-all")) == text["penta.keep_all"]
    page.focus(tid("die-4"))
    page.keyboard.press("Space")
    assert page.get_attribute(tid("die-4"), "aria-pressed") == "false"
    assert page.locator(tid("roll")).is_enabled()
    # forced joker: only Fours may take five fours; the others are disabled with a reason
    open_app(page, site, FAST, table=joker_table().dumps())
    page.wait_for_selector(tid("joker-note"))
    enabled = page.locator('[data-testid^="box-"]:enabled')
    assert enabled.count() == 1 and enabled.first.get_attribute("data-testid") == "box-fours"
    assert page.locator(tid("box-chance")).is_disabled()
    assert "Fours" in page.inner_text(tid("joker-note"))
    assert page.inner_text(tid("box-fours")).startswith("20")


def test_quit_dialog(site, page):
    open_app(page, site, FAST)
    start_game(page, ["person"])
    page.click(tid("quit"))
    assert page.locator(tid("dialog")).is_visible()
    page.keyboard.press("Escape")
    assert not page.locator(tid("dialog")).is_visible()
    assert page.locator(tid("scorecard")).count() == 1
    page.click(tid("quit"))
    page.click(tid("quit-confirm"))
    page.wait_for_selector(tid("new-penta"))
    assert page.evaluate("localStorage.getItem('dicehall.table')") is None


def test_countdown_writes_computer_choice(site, page):
    open_app(page, site, {"animations": False, "autofill": True})
    start_game(page, ["person"])
    for _ in range(3):
        page.click(tid("roll"))
    page.wait_for_selector(tid("countdown"))
    started = time.monotonic()
    page.wait_for_function("() => document.querySelector('.play').dataset.rolls === '0'", timeout=10000)
    waited = time.monotonic() - started
    assert 2.0 < waited < 5.0
    assert page.locator('[data-testid^="cell-0-"].filled').count() == 1
    # a choice cancels it
    for _ in range(3):
        page.click(tid("roll"))
    page.wait_for_selector(tid("countdown"))
    page.locator('[data-testid^="box-"]:enabled').first.click()
    time.sleep(3.5)
    assert page.locator(tid("countdown")).count() == 0
    assert page.locator('[data-testid^="cell-0-"].filled').count() == 1


@pytest.mark.parametrize("lang", ["en", "nb", "sv", "pl", "ar"])
def test_solo_game_in_each_language(site, page, lang):
    text = catalog(lang)
    open_app(page, site, {**FAST, "lang": lang})
    root = page.evaluate("[document.documentElement.lang, document.documentElement.dir]")
    assert root == [lang, "rtl" if lang == "ar" else "ltr"]
    assert page.inner_text("#home-h") == text["home.heading"]
    start_game(page, ["person"])
    assert page.inner_text(tid("confirm")) == text["penta.confirm"]
    assert play_to_results(page) == 13
    assert page.inner_text("#res-h") == text["results.heading"]
    body = page.inner_text("body")
    assert "penta." not in body and "{" not in body  # no raw keys or placeholders
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_export_then_import_record(site, page, tmp_path):
    open_app(page, site, FAST)
    start_game(page, ["person", "person"])
    play_person_round(page)
    play_person_round(page)
    page.click(tid("roll"))
    with page.expect_download() as info:
        page.click(tid("export-record"))
    path = tmp_path / "game.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    saved = Table.loads(page.evaluate("localStorage.getItem('dicehall.table')"))
    assert exported == saved.record.to_json()
    before = snapshot(page)
    # a bad file: a translated message, and the running game is kept
    page.click(tid("nav-home"))
    page.set_input_files(tid("import-file"), files=[{"name": "x.json", "mimeType": "application/json",
                                                     "buffer": b'{"format": "something else"}'}])
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == catalog("en")["record.not_a_record"]
    assert Table.loads(page.evaluate("localStorage.getItem('dicehall.table')")).record.to_json() == exported
    # the good file: play continues from the same position with default seats
    page.set_input_files(tid("import-file"), str(path))
    page.wait_for_selector(tid("scorecard"))
    after = snapshot(page)
    assert (after["seat"], after["rolls"], after["card"]) == (before["seat"], before["rolls"], before["card"])
    assert [d.rstrip("H") for d in after["dice"]] == [d.rstrip("H") for d in before["dice"]]
    assert page.locator(tid("roll")).is_enabled()
