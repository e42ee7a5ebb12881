"""Cephalopod in the built site, through its click driver: a whole 4×4 game set up from Home and
played to the results by clicks (capture choices picked die by die, a reload in the middle of one,
the history stepped through), in Arabic on a 360 px phone; and Hard in Chromium: each answer
within 1.5 s and no long task over 100 ms on the main thread while it thinks (a long-task
observer), plus its search speed in this Pyodide.

The 5×5 game against the computer with a reload mid-choice and the 3×3 games between two people
(English and Arabic) run under CPython on the whole app: tests/web/test_cephalopod_app.py.
"""

from __future__ import annotations

import json
import random
import time

import pytest

from dicehall_browser import (catalog, long_tasks, no_raw_text, open_app, saved_table, start_game, tap, tid,
                              wait_ready, watch_long_tasks)
from pygame_core.ai import self_play

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}

# --- the click driver ------------------------------------------------------------------------------
READY_JS = """() => document.querySelector('[data-testid=results]')
  || document.querySelector('[data-testid=handover-ok]')
  || (document.querySelector('[data-testid=play]') && document.querySelector('[data-testid=play]').dataset.seat !== ''
      && document.querySelector('button[data-action=place]'))"""


def index(page) -> int:
    return int(page.get_attribute(tid("play"), "data-index"))


def wait_turn(page) -> str:
    """Wait until a person can act; "results", "handover" (clicked away) or "move"."""
    try:
        page.wait_for_function(READY_JS, timeout=60000, polling=30)
    except Exception:
        from dicehall_browser import CONSOLE

        print("\n".join(CONSOLE.all(page)[-30:]), page.inner_text("body")[:1500])
        raise
    if page.locator(tid("results")).count():
        return "results"
    if page.locator(tid("handover-ok")).count():
        tap(page, tid("handover-ok"))
        page.wait_for_selector(tid("play"))
        return "handover"
    return "move"


def choice_captures(state) -> dict[str, list[str]]:
    """Squares where a capture offers a choice (several sets), with their legal moves."""
    by_square: dict[str, list[str]] = {}
    for move in state.legal_moves():
        if " " in move:
            by_square.setdefault(move.split("x ")[0], []).append(move)
    return {sq: moves for sq, moves in by_square.items() if len(moves) > 1}


def pick_dice(page, move: str, state) -> None:
    """In the open picker: tap the captured dice one by one, checking the live preview."""
    captured = move.split(" ")[1:]
    total = 0
    for k, square in enumerate(captured):
        tap(page, tid(f"pick-{square}"))
        total += state.die(state.geo.index[square])[1]
        page.wait_for_selector(f'{tid("capture-preview")}[data-value="{total}"]')
        page.wait_for_selector(f'{tid(f"pick-{square}")}.picked')
    assert page.get_attribute(tid("capture-preview"), "data-complete") == "1"
    at = move.split("x ")[0]
    assert page.locator(f'{tid(f"sq-{at}")} .pips').inner_text() == str(total)  # the new die, previewed


def play_move(page, move: str) -> None:
    """A person's move by clicks: tap the square; for a capture pick the dice and confirm."""
    state = saved_table(page).state
    before = index(page)
    at = move.split("x ")[0] if " " in move else move
    tap(page, tid(f"place-{at}"))
    if " " in move:
        page.wait_for_selector(tid("capture-picker"))
        if move in choice_captures(state).get(at, []):
            assert page.locator(tid("confirm-capture")).is_disabled()  # nothing chosen yet
            pick_dice(page, move, state)
        else:  # the only capture there: chosen already, and explained
            assert page.locator(tid("capture-only")).count() == 1
        tap(page, tid("confirm-capture"))
    page.wait_for_function(f"() => !document.querySelector('[data-testid=play]') || "
                           f"+document.querySelector('[data-testid=play]').dataset.index > {before} || "
                           f"document.querySelector('[data-testid=handover]')", timeout=30000)


def plain_first(state, rng: random.Random) -> str:
    """The driver's person: a capture with a choice whenever there is one, else a placement
    without capture when there is one (captures empty squares: the game would last longer), else
    any move. (So a 4×4 game offers a choice: in 100 simulated games against Medium, all did.)"""
    choices = choice_captures(state)
    if choices:
        return rng.choice(choices[rng.choice(sorted(choices))])
    plain = [m for m in state.legal_moves() if " " not in m]
    return rng.choice(plain or state.legal_moves())


def reload_mid_choice(page, move: str, state) -> None:
    """A capture with a choice, interrupted: the square tapped and one die picked, then the page
    loads again; the choice comes back as it was and is finished (live preview) and confirmed."""
    at = move.split("x ")[0]
    first, *rest = move.split(" ")[1:]
    tap(page, tid(f"place-{at}"))
    page.wait_for_selector(tid("capture-picker"))
    assert page.locator(tid("confirm-capture")).is_disabled()  # nothing chosen yet
    tap(page, tid(f"pick-{first}"))
    page.wait_for_selector(f'{tid(f"pick-{first}")}.picked')
    page.reload()
    wait_ready(page)
    page.wait_for_selector(f'{tid(f"pick-{first}")}.picked')
    assert page.locator(tid("capture-picker")).count() == 1
    assert json.loads(page.evaluate("localStorage.getItem('dicehall.ui')"))["picked"] == [first]
    total = state.die(state.geo.index[first])[1]
    for sq in rest:
        tap(page, tid(f"pick-{sq}"))
        total += state.die(state.geo.index[sq])[1]
        page.wait_for_selector(f'{tid("capture-preview")}[data-value="{total}"]')
    assert page.get_attribute(tid("capture-preview"), "data-complete") == "1"
    assert page.locator(f'{tid(f"sq-{at}")} .pips').inner_text() == str(total)  # the new die, previewed
    no_raw_text(page, "cephalopod")  # the picker on a 360 px phone
    before = index(page)
    tap(page, tid("confirm-capture"))
    page.wait_for_function(f"() => !document.querySelector('[data-testid=play]') || "
                           f"+document.querySelector('[data-testid=play]').dataset.index > {before}")


# --- a whole 4×4 game, set up and played by clicks ------------------------------------------------------
def test_a_4x4_game_set_up_and_played_to_the_end_by_clicks_on_a_phone_in_arabic(site, page):
    """From Home: New game, the 4×4 board, a person against Medium, Start; every placement by
    clicks to the results (captures with a choice picked die by die, one interrupted by a reload),
    a look back through the history. In Arabic on a 360 px phone: the board's columns still run
    a→d left to right, and every screen's words stay inside their buttons. The results name the
    board size."""
    lang = "ar"
    page.set_viewport_size({"width": 360, "height": 640})
    open_app(page, site, {**FAST, "pace": "fast", "lang": lang})
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=120000)
    tap(page, tid("new-cephalopod"))
    tap(page, tid("option-size-4"))
    page.wait_for_selector(f'{tid("option-size-4")}[aria-pressed="true"]')
    page.select_option(tid("seat-0-kind"), "person")
    page.select_option(tid("seat-1-kind"), "ai:medium")
    no_raw_text(page, "cephalopod")  # the set-up
    tap(page, tid("start-game"))
    page.wait_for_selector(tid("play"))
    assert page.locator(".boardgrid .square").count() == 16  # 4×4
    assert page.evaluate("document.documentElement.dir") == "rtl"
    columns = page.evaluate("""() => [...'abcd'].map(c =>  // (in one go: the computer may redraw the board)
      document.querySelector(`.boardgrid [data-testid$="-${c}1"]`).getBoundingClientRect().x)""")
    assert columns == sorted(columns) and len(set(columns)) == 4, columns  # the board never mirrors
    texts = catalog(lang, "cephalopod")
    rng = random.Random(5)
    reloaded = stepped = False
    # The person's moves are seeded, the computer's are not (Medium orders its moves with a seed
    # of the visit, under a time limit), so each run plays another game: should one end without
    # a capture with a choice, Play again (the same 4×4 table) until the reload has been tried.
    for game in range(1, 4):
        moves = 0
        while (turn := wait_turn(page)) != "results":
            if turn != "move":
                continue
            if not stepped and moves >= 4:  # step back through the history, then return
                tap(page, tid("history-back"))
                page.wait_for_selector(tid("history-note"))
                assert page.locator("button[data-action=place]").count() == 0
                assert page.inner_text(tid("history-note")) == texts["cephalopod.history.viewing"]
                no_raw_text(page, "cephalopod")
                tap(page, tid("history-live"))
                page.wait_for_selector("button[data-action=place]")
                stepped = True
            state = saved_table(page).state
            move = plain_first(state, rng)
            if not reloaded and move in [m for ms in choice_captures(state).values() for m in ms]:
                reload_mid_choice(page, move, state)
                reloaded = True
            else:
                play_move(page, move)
            moves += 1
            assert moves < 200, "the game does not end"
        saved = saved_table(page)
        state = saved.state
        assert state.is_terminal() and state.size == 4 and saved.standings.games == game
        assert len([m for s, m in saved.record.moves if s == 0]) == moves  # every one of the person's moves by a click
        if reloaded:
            break
        tap(page, tid("play-again"))
        page.wait_for_selector(tid("play"))
    assert reloaded and stepped, "three games without a capture with a choice"
    print(f"4×4: game {game}, the person's {moves} moves by clicks")
    for seat in (0, 1):
        assert int(page.inner_text(tid(f"result-total-{seat}"))) == state.scores()[seat]
        cells = page.locator(f'{tid(f"result-row-{seat}")} td.num').all_inner_texts()
        mine = [state.die(i)[1] for i in range(state.geo.n) if state.die(i) and state.die(i)[0] == seat]
        assert [int(c) for c in cells[1:3]] == [mine.count(6), sum(mine)]  # place, sixes, pips, total
    size = catalog(lang)["setup.option_value"].replace("{option}", texts["cephalopod.option.size"]) \
        .replace("{value}", texts["cephalopod.option.size.4"])
    assert page.inner_text(tid("results-options")) == size  # the board size, named
    no_raw_text(page, "cephalopod")


# --- Hard in Chromium ------------------------------------------------------------------------------------
@pytest.mark.alone  # asserts on time (dicehall_browser_share.py)
def test_hard_answers_within_budget_and_never_blocks_the_page(site, page):
    open_app(page, site, FAST)
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=120000)
    start_game(page, "cephalopod", ["person", "ai:hard"])
    watch_long_tasks(page)
    rng = random.Random(2)
    answers = []
    for _ in range(8):
        assert wait_turn(page) == "move"
        state = saved_table(page).state
        before = index(page)
        plain = [m for m in state.legal_moves() if " " not in m]
        move = rng.choice(plain or state.legal_moves())
        play_move(page, move)
        page.wait_for_function(f"() => +document.querySelector('[data-testid=play]').dataset.index > {before}")
        started = time.monotonic()  # the person's move is on the board: the computer thinks now
        page.wait_for_function(f"() => +document.querySelector('[data-testid=play]').dataset.index > {before + 1}",
                               timeout=10000, polling=10)
        answers.append(time.monotonic() - started)
    tasks = long_tasks(page)
    blocking = [(t["ms"], t["other_ms"]) for t in tasks]
    print(f"Hard's answers (s): {[round(a, 2) for a in answers]}; long tasks (ms, and of it neither a tap "
          f"nor a redraw): {blocking}")
    assert max(answers) < 1.5, answers
    assert all(other < 100 for _, other in blocking), blocking  # Hard searches in the worker
    # Hard's search speed in this page's Pyodide (main thread, after the checks above)
    positions = []
    record, _ = self_play("cephalopod", ["medium", "medium"], seed=3)
    replay = record.new_state()
    for k, (seat, move) in enumerate(record.moves):
        if k in (10, 40, 70):
            positions.append(replay.to_json())
        replay.apply(move, seat)
    result = json.loads(page.evaluate("p => window.diceHallBench('cephalopod', p)", json.dumps(positions)))
    print(f"Hard in Chromium's Pyodide (main thread): {result}")
    assert all(r["ms"] < 1500 for r in result["positions"])
