"""Penta in the built site: one whole game by clicks against the computer, in Arabic on a 360 px
phone, with the hint, the auto-fill countdown (stopped by a tap anywhere) and the review on
screen (their words inside their buttons); the exact
strategy's table fetched lazily, then offline from the cache, and the Expert level playing every
decision optimally with it in the AI worker; and a missing table's fallback.

Everything else (a reload resumes the exact position, what cannot be done, the countdown, the
hint's and the review's numbers against the solver in English and Arabic, Expert's choices)
runs under CPython on the whole app: tests/web/test_penta_app.py.

DICEHALL_SHOTS=/dir saves 360x640 Arabic screenshots of the hint and the review there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dicehall_browser import (catalog, no_raw_text, open_app, saved_table, start_game, take_the_phone, tap, tid,
                              wait_ready, wait_sw_controlled)
from pygame_core.games.penta import solver

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
TABLE_REQUEST = "data/penta/values.bin"
LOADED_JS = """() => document.documentElement.dataset.assetPenta === 'loaded'
  && document.documentElement.dataset.assetPentaWorker === 'loaded'"""


# --- the click driver ----------------------------------------------------------------------
READY_JS = """() => document.querySelector('[data-testid=results]') ||
  document.querySelector('[data-testid=handover]') ||
  (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled)"""


def play_round(page, hint: bool = False, countdown: bool = False) -> None:
    """A person's round: roll once, pick the first allowed box, confirm. `hint`: the hint opened
    after the roll, checked on screen; `countdown`: three rolls, then the auto-fill countdown
    stopped by a tap anywhere (here on the prompt, not a button)."""
    take_the_phone(page)
    tap(page, tid("roll"))
    if hint:
        page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'loaded'", timeout=30000)
        tap(page, tid("hint"))
        page.wait_for_selector(tid("hint-option-0"))
        no_raw_text(page, "penta")  # the hint's moves and Apply fit a 360 px phone
        shot(page, "hint-ar.png")
    if countdown:
        for rolled in ("2", "3"):
            tap(page, tid("roll"))
            page.wait_for_function(f"() => document.querySelector('.penta-board').dataset.rolls === '{rolled}'")
        page.wait_for_selector(tid("countdown"))
        no_raw_text(page, "penta")  # the countdown and its Wait button
        tap(page, tid("prompt"))  # any tap stops it (the page's pointer events reach the app)
        page.wait_for_selector(tid("countdown"), state="detached")
        page.wait_for_timeout(1500)  # more than its one-second steps: nothing written meanwhile
        assert page.evaluate("document.querySelector('.penta-board').dataset.rolls") == "3"
        assert saved_table(page).record.moves[-1][0] < 0  # the last move is still the dice's
        if page.locator(tid("guide-done")).count():  # the one-time line on the auto-fill (test_guide_phone.py)
            tap(page, tid("guide-done"))
    tap(page, page.locator('[data-testid^="box-"]:enabled').first)
    tap(page, tid("confirm"))


def play_to_results(page, max_rounds: int = 80) -> int:
    rounds = 0
    while rounds < max_rounds:
        page.wait_for_function(READY_JS, timeout=60000, polling=50)
        if page.locator(tid("results")).count():
            return rounds
        play_round(page, hint=rounds == 0, countdown=rounds == 1)
        rounds += 1
    raise AssertionError("the game did not end")


def shot(page, name: str) -> None:
    folder = os.environ.get("DICEHALL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=False)


# --- playing ------------------------------------------------------------------------------------
def test_full_game_by_clicks_in_arabic_on_a_phone_with_the_hint_the_countdown_and_the_review_then_play_again(site, page):
    page.set_viewport_size({"width": 360, "height": 640})
    open_app(page, site, {**FAST, "pace": "fast", "lang": "ar", "hints": True, "autofill": True})
    start_game(page, "penta", ["person", "ai:greedy"])
    assert play_to_results(page) == 13
    rows = page.locator('[data-testid^="result-row-"]')
    assert rows.count() == 2
    totals = [int(page.inner_text(tid(f"result-total-{s}"))) for s in (0, 1)]
    assert page.locator(f'{tid("plot")} polyline').count() == 2
    assert page.locator(f'{tid("standings")} tbody tr').count() == 2
    saved = saved_table(page)  # saved after every move: the finished game replays on CPython
    assert saved.state.is_terminal() and saved.state.scores() == totals and saved.standings.games == 1
    tap(page, tid("review-open"))
    page.wait_for_selector(tid("review-plot"))
    assert page.locator(f'{tid("review-plot")} polyline').count() == 2
    no_raw_text(page, "penta")  # the review's table, plot and mistakes fit a 360 px phone
    page.locator(tid("review")).scroll_into_view_if_needed()
    shot(page, "review-ar-360.png")
    tap(page, tid("play-again"))
    page.wait_for_selector(tid("scorecard"))
    again = saved_table(page)
    assert again.start_seats[1] == (again.start_seats[0] + 1) % 2 and again.standings.games == 1


# --- the exact optimal strategy ------------------------------------------------------------------
def table_requests(urls: list[str]) -> list[str]:
    return [u for u in urls if u.split("?")[0].endswith(TABLE_REQUEST)]


def test_table_loads_lazily_then_offline_and_expert_plays_optimally_in_the_worker(site, context, page):
    """The page and the AI worker boot without the table; a Penta game fetches it (main thread and
    worker); offline, the reloaded game gets it from the cache; and Expert, thinking in the worker
    with it, gives away no expected point in the whole game."""
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    open_app(page, site, FAST)
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=90000)
    wait_sw_controlled(page)
    page.wait_for_timeout(500)
    assert table_requests(urls) == []  # booted (page and AI worker) without asking for the table
    assert page.evaluate("document.documentElement.dataset.assetPenta") is None
    start_game(page, "penta", ["ai:optimal"])
    page.wait_for_function(LOADED_JS, timeout=30000)
    assert len(table_requests(urls)) >= 1
    fetch_ms, load_ms = map(float, page.evaluate("document.documentElement.dataset.assetPentaMs").split())
    print(f"table fetch {fetch_ms:.0f} ms, load {load_ms:.0f} ms")
    assert not saved_table(page).state.is_terminal()  # (13 paced rounds take longer than the load)
    context.set_offline(True)  # second visit offline: the game resumes, the table comes from the cache
    page.reload()
    wait_ready(page)
    page.wait_for_function(LOADED_JS, timeout=60000)
    assert page.locator(f'{tid("scorecard")}, {tid("results")}').count() == 1
    page.wait_for_selector(tid("results"), timeout=180000)
    context.set_offline(False)
    graded = solver.review(saved_table(page).record)["seats"][0]
    assert len(graded["decisions"]) >= 13 and graded["total_loss"] == pytest.approx(0.0, abs=1e-6)
    tap(page, tid("review-open"))
    page.wait_for_selector(tid("review-none-0"))


def test_missing_table_falls_back_silently(site, playwright_instance, tmp_path):
    """No table (fetch fails): the AI still plays (greedy fallback), the hint says why it has none."""
    from dicehall_browser import CHROMIUM, CHROMIUM_ARGS, CONSOLE

    ctx = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 800}, service_workers="block")
    try:
        ctx.route("**/data/penta/values.bin", lambda route: route.abort())
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        CONSOLE.attach(page)
        open_app(page, site, {**FAST, "pace": "fast", "hints": True})
        start_game(page, "penta", ["person", "ai:optimal"])
        page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
        page.wait_for_function("() => !document.querySelector('[data-testid=roll]').disabled", timeout=60000)
        tap(page, tid("roll"))
        tap(page, tid("hint"))
        page.wait_for_function("() => document.querySelector('#hint-body').textContent.length > 0")
        assert page.inner_text("#hint-body") == catalog("en")["advisor.unavailable"]
        tap(page, tid("die-0"))  # holding a die is still possible: no error toast
        assert page.locator("#toast:not([hidden])").count() == 0
        tap(page, page.locator('[data-testid^="box-"]:enabled').first)
        tap(page, tid("confirm"))
        page.wait_for_function("() => document.querySelector('[data-testid=play]').dataset.seat === '0' && "
                               "!document.querySelector('[data-testid=roll]').disabled", timeout=60000)
        saved = saved_table(page)
        assert any(p == 1 and m.startswith("score ") for p, m in saved.record.moves)
    finally:
        ctx.close()
