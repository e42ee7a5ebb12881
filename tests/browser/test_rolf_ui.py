"""Rolf The Dice in the built site, through its click driver: a whole three-seat game (two people
and the computer) by clicks with a reload in the middle and "play again", a stolen square taken
back before confirming, and an extra throw that follows its confirmation at once."""

from __future__ import annotations

import pytest

from dicehall_browser import (catalog, long_tasks, no_raw_text, open_app, saved_table, start_game, tid, wait_ready,
                              watch_long_tasks)
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}

# --- the click driver ---------------------------------------------------------------------------------
READY_JS = """() => document.querySelector('[data-testid=results]')
  || document.querySelector('[data-testid=handover-ok]')
  || (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled)
  || document.querySelector('[data-testid^="take-"]')
  || (document.querySelector('[data-testid=confirm]') && !document.querySelector('[data-testid=confirm]').disabled)"""

SNAPSHOT_JS = """() => ({
  seat: document.querySelector('[data-testid=play]').dataset.seat,
  phase: document.querySelector('[data-testid=rolf-board]').dataset.phase,
  dice: [...document.querySelectorAll('[data-testid^=die-]')].map(d => d.dataset.value),
  board: [...document.querySelectorAll('.boardgrid .square')].map(s => s.dataset.testid + ':' + s.textContent.trim()
                                                               + ':' + s.className).join('|'),
  card: [...document.querySelectorAll('[data-testid=scorecard] td')].map(td => td.textContent.trim()).join('|'),
  prompt: document.querySelector('[data-testid=prompt]').textContent,
})"""


def step(page) -> str:
    """What a person at the screen does next: pass the phone on, throw, take the first offered
    square, or confirm the throw. Returns what was done ("results" once the game is over)."""
    page.wait_for_function(READY_JS, timeout=90000, polling=50)
    if page.locator(tid("results")).count():
        return "results"
    if page.locator(tid("handover-ok")).count():
        page.click(tid("handover-ok"))
        return "handover"
    if page.locator(f'{tid("roll")}:enabled').count():
        page.click(tid("roll"))
        return "roll"
    offered = page.locator('[data-testid^="take-"]')
    if offered.count():
        offered.first.click()
        return "take"
    page.click(tid("confirm"))
    return "confirm"


def person_to_move(page) -> bool:
    """A person's placement is waiting (not the computer's turn, not a throw)."""
    return page.evaluate("""() => !!document.querySelector('[data-testid^="take-"]')""")


def table_at(moves: list[tuple[int, str]], people: int = 2) -> Table:
    """A table of people whose game (start seat 0) has these moves."""
    seats = [{"name": name, "symbol": symbol, "ai": None} for name, symbol in (("Ann", "●"), ("Bo", "▲"))[:people]]
    table = Table("rolf", seats)
    table.match = Match.new("rolf", {"players": people, "start": 0})
    table.start_seats = [0]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    return table


def open_position(page, site, table: Table, settings: dict | None = None) -> None:
    open_app(page, site, {**FAST, **(settings or {})}, table.dumps(), {"more": False, "moves": table.match.index})
    page.wait_for_selector(tid("rolf-board"))


# --- a whole game ------------------------------------------------------------------------------------------
def test_three_seats_two_people_and_the_computer_by_clicks_reload_and_play_again(site, page):
    open_app(page, site, FAST)
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=120000)
    start_game(page, "rolf", ["person", "person", "ai:hard"])
    watch_long_tasks(page)
    steps, reloaded = 0, False
    while True:
        done = step(page)
        if done == "results":
            break
        steps += 1
        assert steps < 1500, "the game does not end"
        # Reload early (about a person's second turn): the dice are unseeded and a direct win can end a
        # game within a few turns. In 400 simulated three-seat games, 2 never reached this point after
        # 20 steps (one such game failed CI); after 8 steps all 400 did.
        if not reloaded and steps >= 8 and done == "take" and person_to_move(page):
            before = page.evaluate(SNAPSHOT_JS)
            tasks = long_tasks(page)
            page.reload()
            wait_ready(page)
            page.wait_for_selector(tid("rolf-board"))
            if page.locator(tid("handover-ok")).count():
                page.click(tid("handover-ok"))
            assert page.evaluate(SNAPSHOT_JS) == before  # the same throw, squares, scores and prompt
            # Until the AI worker has booted the shell thinks on the main thread (its fallback):
            # the person to move waits for it, as at the start, so the check below is the worker's.
            page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=120000)
            watch_long_tasks(page)
            reloaded = True
    assert reloaded
    tasks += long_tasks(page)
    blocking = [(t["ms"], t["other_ms"]) for t in tasks]
    print(f"{steps} steps; long tasks (ms, and of it neither a tap nor a redraw): {blocking}")
    assert all(other < 100 for _, other in blocking), blocking  # the AI works in the worker
    saved = saved_table(page)
    state = saved.state
    assert state.is_terminal() and saved.standings.games == 1
    rows = page.locator('[data-testid^="result-row-"]')
    assert rows.count() == 3
    for seat in range(3):
        assert int(page.inner_text(tid(f"result-total-{seat}"))) == state.scores()[seat]
        cells = page.locator(f'{tid(f"result-row-{seat}")} td.num').all_inner_texts()
        parts = state.breakdown(seat)
        assert [int(c) for c in cells[1:]] == [parts["group"], parts["diagonal"], parts["corners"], parts["end"],
                                               state.scores()[seat]]  # Place, Player, the parts, Total
    en = catalog("en", "rolf")
    heads = page.locator(f'{tid("results-table")} thead th').all_inner_texts()
    assert [en["rolf.part.group"], en["rolf.part.diagonal"], en["rolf.part.corners"], en["rolf.part.end"]] == heads[-5:-1]
    assert page.locator(f'{tid("standings")} tbody tr').count() == 3
    no_raw_text(page, "rolf")
    page.click(tid("play-again"))
    page.wait_for_selector(tid("rolf-board"))
    again = saved_table(page)
    assert again.start_seats[1] == (again.start_seats[0] + 1) % 3  # the start seat moves on
    assert again.standings.games == 1 and again.standings.points == saved.standings.points
    assert again.state.roller() == again.start_seats[1] and again.match.index == 0


# --- choosing again --------------------------------------------------------------------------------------
STEAL = [(CHANCE, "roll 1 2 4"), (0, "take 1-2"), (0, "take 1-4"), (0, "next"),
         (CHANCE, "roll 3 4 5"), (1, "take 3-4"), (1, "take 3-5"), (1, "next"),
         (CHANCE, "roll 1 2 6"), (0, "take 6-2"), (0, "take 2-6"), (0, "next"),
         (CHANCE, "roll 1 3 6"), (1, "take 3-6"), (1, "take 6-3"), (1, "next"),
         (CHANCE, "roll 2 3 5")]


def card_value(page, testid: str) -> int:
    return int(page.text_content(tid(testid)).strip())


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_a_stolen_square_is_taken_back_exactly_before_confirming(site, page, lang):
    table = table_at(STEAL)
    assert table.state.scores() == [4, 7]
    open_position(page, site, table, {"lang": lang})
    assert card_value(page, "total-1") == 7 and card_value(page, "group-1") == 7
    assert page.locator('[data-testid^="take-"]').count() == 6  # the six squares of 2, 3, 5
    page.click(tid("take-3-5"))  # steal the middle of Bo's row
    page.wait_for_selector(tid("rechoose-3-5"))
    assert card_value(page, "total-1") == 3 and card_value(page, "group-1") == 3  # Bo's row is split
    assert "▲" not in page.text_content(tid("rechoose-3-5")) and "●" in page.text_content(tid("rechoose-3-5"))
    assert page.locator(tid("rechoose-help")).count() == 1
    assert saved_table(page).record.moves[-1] == (0, "take 3-5")
    page.click(tid("rechoose-3-5"))  # choose again: the square goes back to Bo as it was
    page.wait_for_selector(tid("take-3-5"))
    assert card_value(page, "total-1") == 7 and card_value(page, "total-0") == 4
    saved = saved_table(page)
    assert saved.record.moves == table.record.moves and saved.state.to_json() == table.state.to_json()
    page.click(tid("take-2-3"))
    page.click(tid("take-3-2"))
    confirm = page.locator(tid("confirm"))
    assert confirm.is_enabled() and confirm.inner_text() == catalog(lang, "rolf")["rolf.next_player"]
    assert page.locator(tid("rechoose-2-3")).count() == 1  # still open until confirmed
    confirm.click()
    page.wait_for_selector(tid("handover-ok"))  # Bo's turn: the phone goes to Bo first
    page.click(tid("handover-ok"))
    page.wait_for_function("() => document.querySelector('[data-testid=rolf-board]').dataset.phase === 'throw'")
    assert page.locator('[data-testid^="rechoose-"]').count() == 0  # locked
    assert page.locator(".boardgrid .square.last").count() == 2  # the last throw's squares, for everybody
    no_raw_text(page, "rolf")


# --- an extra throw ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_pair_on_the_first_throw_is_confirmed_with_an_extra_throw_that_follows_at_once(site, page, lang):
    table = table_at([(CHANCE, "roll 2 2 4")])
    open_position(page, site, table, {"lang": lang})
    words = catalog(lang, "rolf")
    assert page.get_attribute(".boardgrid", "dir") == "ltr"  # the board never mirrors
    assert page.locator('[data-testid^="take-"]').count() == 3
    assert page.locator(tid("confirm")).is_disabled()  # not before the placements
    for square in ("take-2-2", "take-2-4", "take-4-2"):
        assert page.locator(tid(square)).count() == 1
        page.click(tid(square))
        page.wait_for_selector(f"{tid(square)}", state="detached")
    assert page.locator('[data-testid^="rechoose-"]').count() == 0  # a pair leaves nothing to re-choose
    confirm = page.locator(tid("confirm"))
    assert confirm.is_enabled() and confirm.get_attribute("data-kind") == "extra"
    assert confirm.inner_text() == words["rolf.confirm_extra"]
    no_raw_text(page, "rolf")
    confirm.click()
    page.wait_for_function("""() => document.querySelector('[data-testid=handover-ok]') ||
      (document.querySelector('[data-testid=rolf-board]') && document.querySelector('[data-testid=rolf-board]').dataset.phase !== 'confirm')""")
    saved = saved_table(page)
    assert saved.record.moves[-2] == (0, "extra") and saved.record.moves[-1][0] == CHANCE  # thrown at once
    if page.locator(tid("handover-ok")).count():  # the extra throw offered only Ann's own squares:
        assert saved.state.skipped and saved.state.roller() == 1  # skipped, and Bo's turn
        page.click(tid("handover-ok"))
    dice = [int(v) for v in page.eval_on_selector_all('[data-testid^="die-"]', "ds => ds.map(d => d.dataset.value)")]
    assert dice == list(saved.state.dice)
    if not saved.state.skipped:  # (3 throws in 216 offer only Ann's own squares: skipped, Bo's turn)
        assert saved.state.throw == 1 and saved.state.current_player() == 0
        assert page.locator(tid("roll")).is_disabled()  # nobody had to tap Throw
    no_raw_text(page, "rolf")
