"""RollCraft T8 in the built site: one whole game by clicks against the computer, the main thread
never blocked while it thinks; and the action bar at 360 px in every language (each button's words
inside it, the bar on screen).

The solo game with a reload in the middle of a turn and the three-seat game whose passive
players choose in turn on one screen run under CPython on the whole app:
tests/web/test_rollcraft_app.py."""

from __future__ import annotations

import pytest

from dicehall_browser import (catalog, long_tasks, mid_game_table, no_raw_text, open_app, saved_table, start_game, tap,
                              tid, watch_long_tasks)

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}

READY_JS = """() => document.querySelector('[data-testid=results]')
  || document.querySelector('[data-testid=handover-ok]')
  || (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled)
  || document.querySelector('[data-testid^="bonus-"]')
  || document.querySelector('button[data-testid^="die-"]:not([disabled])')
  || document.querySelector('[data-testid^="act-"]')"""

def pick_die(page) -> None:
    """Select the first die that can be taken (a die still selected from before is let go first:
    tapping the selected die again would deselect it)."""
    if page.locator(tid("pending")).count():
        page.keyboard.press("Escape")
        page.wait_for_selector(tid("pending"), state="detached")
    tap(page, page.locator('button[data-testid^="die-"]:not([disabled])').first)
    page.wait_for_selector(tid("pending"))


def step(page) -> str:
    """What a person at the screen does next: pass the phone on, roll, resolve a bonus (its first
    placement), choose a die and its first highlighted box, or end a window / turn."""
    page.wait_for_function(READY_JS, timeout=90000, polling=50)
    if page.locator(tid("results")).count():
        return "results"
    if page.locator(tid("guide-skip")).count():  # the guided first turn (test_guide_phone.py): a player skips it
        tap(page, tid("guide-skip"))
        return "guide"
    if page.locator(tid("handover-ok")).count():
        tap(page, tid("handover-ok"))
        return "handover"
    if page.locator(f'{tid("roll")}:enabled').count():
        tap(page, tid("roll"))
        return "roll"
    bonus = page.locator('[data-testid^="bonus-"]:not([data-testid^="bonus-decline"]):not([data-testid="bonus-panel"]):visible')
    if bonus.count():
        tap(page, bonus.first)
        page.wait_for_selector(f'{tid("confirm")}:enabled')
        tap(page, tid("confirm"))
        return "bonus"
    for name in ("act-throw", "act-end", "act-done", "act-pass"):
        if page.locator(tid(name)).count() and not page.locator('button[data-testid^="die-"]:not([disabled])').count():
            tap(page, tid(name))
            return name
    dice = page.locator('button[data-testid^="die-"]:not([disabled])')
    if dice.count():
        pick_die(page)
        targets = page.locator('[data-testid^="target-"]:visible')  # in the zone shown (one at a time on a phone)
        if targets.count():
            tap(page, targets.first)
            page.wait_for_selector('.rc-box.pending')
            tap(page, tid("confirm"))
            return "take"
        if page.locator(tid("empty")).count():
            tap(page, tid("empty"))
            return "empty"
    for name in ("act-throw", "act-end", "act-done", "act-pass"):
        if page.locator(tid(name)).count():
            tap(page, tid(name))
            return name
    raise AssertionError("nothing to do: " + page.inner_text("body")[:400])


@pytest.mark.alone  # asserts on time (dicehall_browser_share.py)
def test_a_whole_game_against_the_computer_by_clicks(site, page):
    """By clicks to the results against Hard (the person active and passive in turn); no
    main-thread task over 100 ms while the computer thinks (it works in the AI worker)."""
    open_app(page, site, {**FAST, "pace": "fast", "lang": "en"})
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=120000)
    start_game(page, "rollcraft", ["person", "ai:hard"])
    watch_long_tasks(page)
    steps = 0
    while step(page) != "results":
        steps += 1
        assert steps < 1500, "the game does not end"
    tasks = long_tasks(page)
    blocking = [(t["ms"], t["other_ms"]) for t in tasks]
    print(f"{steps} steps; long tasks (ms, and of it neither a tap nor a redraw): {blocking}")
    assert all(other < 100 for _, other in blocking), blocking  # the AI works in the worker
    saved = saved_table(page)
    state = saved.state
    assert state.is_terminal() and state.round == 6  # (six rounds for two players)
    en = catalog("en", "rollcraft")
    for seat in range(2):
        assert int(page.inner_text(tid(f"result-total-{seat}"))) == state.scores()[seat]
    heads = page.locator(f'{tid("results-table")} thead th').all_inner_texts()
    assert en["rollcraft.zone.green"] in heads and en["rollcraft.runes"] in heads
    no_raw_text(page, "rollcraft")


# --- the action bar on a phone, in every language ------------------------------------------------------
def in_language(page, lang: str) -> None:
    """Switch the language in Settings and come back to the game (no new boot: the screen is
    drawn again in that language)."""
    tap(page, tid("nav-settings"))
    page.select_option(tid("set-lang"), lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    tap(page, tid("settings-back"))
    page.wait_for_selector(tid("rollcraft"))


@pytest.mark.shared_profile  # (one browser, one test after another: conftest.SharedProfile)
def test_a_chosen_die_in_every_language_at_360_px_every_word_stays_in_its_button(site, page):
    """With a die chosen the bar holds four buttons and every zone tab is lit: Polish "Zatwierdź"
    spilled out of a 40 px button, and the tabs cut "Niebieska" off."""
    table = mid_game_table("rollcraft")
    page.set_viewport_size({"width": 360, "height": 740})
    open_app(page, site, FAST, table.dumps())
    page.wait_for_selector(tid("rollcraft"))
    tap(page, 'button[data-testid^="die-"]:not([disabled])')  # (the choice stays while the language changes)
    for lang in ("en", "nb", "sv", "pl", "ar"):
        in_language(page, lang)
        page.wait_for_selector('[data-testid^="target-"]')
        assert page.locator(f'{tid("actionbar")} button').count() >= 4
        no_raw_text(page, "rollcraft")  # no button's words spill out of it


@pytest.mark.shared_profile  # (one browser, one test after another: conftest.SharedProfile)
def test_before_a_throw_return_and_lock_buttons_ask_and_fit_in_every_language(site, page):
    """Before roll 2 the bar offers a Return, four Locks and Roll on: each button says what a tap
    does ("Return grey", Polish "Zablokuj: niebieska"), its words inside it, the bar on screen."""
    import random

    from pygame_core.ai import self_play
    from pygame_core.table import Table

    record, _ = self_play("rollcraft", ["medium"], 0)
    table = Table("rollcraft", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(1))
    for seat, move in record.moves[:27]:  # medium's game 0, before its roll 2
        table.submit(seat, move, table.match.index)
    page.set_viewport_size({"width": 360, "height": 740})
    open_app(page, site, FAST, table.dumps())
    for lang in ("en", "nb", "sv", "pl", "ar"):
        words = catalog(lang, "rollcraft")
        in_language(page, lang)
        page.wait_for_selector(tid("act-return-grey"))
        want = words["rollcraft.do.lock"].replace("{die}", words["rollcraft.die.blue"])
        assert page.inner_text(tid("act-lock-blue")).strip() == want, lang
        assert page.locator(f'{tid("actionbar")} button').count() == 6
        no_raw_text(page, "rollcraft")  # no button's words spill out of it
        last = page.locator(tid("act-throw")).bounding_box()
        assert last["y"] + last["height"] <= 740, lang  # on screen without scrolling
