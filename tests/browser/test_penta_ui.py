"""Penta in the built site, through its click driver: whole games by clicks, a reload mid-round,
what cannot be done (disabled and explained), the auto-fill countdown, and the exact optimal
strategy (lazy table, hint with Apply, review, the Expert AI) checked against CPython.

DICEHALL_SHOTS=/dir saves 360x640 Arabic screenshots of the hint and the review there.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from dicehall_browser import catalog, no_raw_text, open_app, saved_table, start_game, take_the_phone, tid, wait_ready, wait_sw_controlled
from pygame_core.ai import self_play
from pygame_core.games.penta import solver
from pygame_core.record import Record
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
TABLE_REQUEST = "data/penta/values.bin"
LOADED_JS = """() => document.documentElement.dataset.assetPenta === 'loaded'
  && document.documentElement.dataset.assetPentaWorker === 'loaded'"""


# --- the click driver ----------------------------------------------------------------------
READY_JS = """() => document.querySelector('[data-testid=results]') ||
  document.querySelector('[data-testid=handover]') ||
  (document.querySelector('[data-testid=roll]') && !document.querySelector('[data-testid=roll]').disabled)"""


def play_round(page) -> None:
    """A person's round: roll once, pick the first allowed box, confirm."""
    take_the_phone(page)
    page.click(tid("roll"))
    page.locator('[data-testid^="box-"]:enabled').first.click()
    page.click(tid("confirm"))


def play_to_results(page, max_rounds: int = 80) -> int:
    rounds = 0
    while rounds < max_rounds:
        page.wait_for_function(READY_JS, timeout=60000, polling=50)
        if page.locator(tid("results")).count():
            return rounds
        play_round(page)
        rounds += 1
    raise AssertionError("the game did not end")


def snapshot(page) -> dict:
    """What a player sees of the position."""
    return page.evaluate("""() => ({
      seat: document.querySelector('[data-testid=play]').dataset.seat,
      rolls: document.querySelector('.penta-board').dataset.rolls,
      dice: [...document.querySelectorAll('[data-testid^=die-]')].map(d => d.dataset.value + (d.getAttribute('aria-pressed') === 'true' ? 'H' : '')),
      card: [...document.querySelectorAll('[data-testid=scorecard] td')].map(td => td.textContent.trim()).join('|'),
      prompt: document.querySelector('[data-testid=prompt]').textContent,
      selected: [...document.querySelectorAll('[data-testid^=box-][aria-pressed=true]')].map(b => b.dataset.testid),
      rollsLeft: document.querySelector('[data-testid=rolls-left]').textContent,
    })""")


def rolls(page) -> str:
    return page.evaluate("document.querySelector('.penta-board').dataset.rolls")


def solo_table(*moves: str, name: str = "Ann") -> Table:
    table = Table("penta", [{"name": name, "symbol": "●", "ai": None}])
    table.new_game(random.Random(3))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    return table


def open_position(page, site, table: Table, settings: dict | None = None, ui: dict | None = None) -> None:
    ui = {"held": [], "order": [0, 1, 2, 3, 4], "box": None, "moves": table.match.index, **(ui or {})}
    open_app(page, site, {**FAST, **(settings or {})}, table.dumps(), ui)
    page.wait_for_selector(tid("scorecard"))


# --- playing ------------------------------------------------------------------------------------
def test_full_game_person_vs_ai_then_play_again(site, page):
    open_app(page, site, FAST)
    start_game(page, "penta", ["person", "ai:greedy"])
    assert play_to_results(page) == 13
    rows = page.locator('[data-testid^="result-row-"]')
    assert rows.count() == 2
    totals = [int(page.inner_text(tid(f"result-total-{s}"))) for s in (0, 1)]
    assert page.locator(f'{tid("plot")} polyline').count() == 2
    assert page.locator(f'{tid("standings")} tbody tr').count() == 2
    saved = saved_table(page)  # saved after every move: the finished game replays on CPython
    assert saved.state.is_terminal() and saved.state.scores() == totals and saved.standings.games == 1
    page.click(tid("play-again"))
    page.wait_for_selector(tid("scorecard"))
    again = saved_table(page)
    assert again.start_seats[1] == (again.start_seats[0] + 1) % 2 and again.standings.games == 1


def test_reload_resumes_the_exact_position(site, page):
    open_app(page, site, FAST)
    start_game(page, "penta", ["person", "person"])
    play_round(page)  # the first seat's round (whoever starts)
    page.wait_for_selector(tid("handover-ok"))
    take_the_phone(page)
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
    assert snapshot(page) == before


def test_what_cannot_be_done_is_disabled_and_explained(site, page):
    text = catalog("en", "penta")
    open_app(page, site, FAST)
    start_game(page, "penta", ["person"])
    assert page.locator('[data-testid^="box-"]').count() == 0  # before rolling: no box, no Confirm
    assert page.locator(tid("confirm")).is_disabled() and page.locator(tid("die-0")).is_disabled()
    page.click(tid("roll"))
    for k in range(5):
        page.click(tid(f"die-{k}"))
    assert page.locator(tid("roll")).is_disabled()
    assert page.inner_text(tid("hint-keep-all")) == text["penta.keep_all"]
    page.focus(tid("die-4"))
    page.keyboard.press("Space")
    assert page.get_attribute(tid("die-4"), "aria-pressed") == "false" and page.locator(tid("roll")).is_enabled()
    # the forced joker: only Fours may take five fours; the other boxes are disabled with a reason
    open_position(page, site, solo_table("roll 6 6 6 6 6", "score penta", "roll 4 4 4 4 4"))
    page.wait_for_selector(tid("joker-note"))
    enabled = page.locator('[data-testid^="box-"]:enabled')
    assert enabled.count() == 1 and enabled.first.get_attribute("data-testid") == "box-fours"
    assert page.locator(tid("box-chance")).is_disabled() and "Fours" in page.inner_text(tid("joker-note"))
    assert page.inner_text(tid("box-fours")).startswith("20")


def test_countdown_writes_the_computers_optimal_choice_and_wait_stops_it(site, page):
    open_app(page, site, {"animations": False, "autofill": True})
    start_game(page, "penta", ["person"])
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'loaded'", timeout=30000)
    for _ in range(3):
        page.click(tid("roll"))
    page.wait_for_selector(tid("countdown"))
    seen = set()
    while rolls(page) == "3":  # 3, 2, 1, then the box is written
        seen.add(page.evaluate("() => document.getElementById('countdown')?.textContent"))
        page.wait_for_timeout(100)
    en = catalog("en")
    assert {en["play.countdown"].replace("{n}", str(n)) for n in (3, 2, 1)} <= seen
    record = saved_table(page).record
    assert record.moves[-1][1] == solver.best_move(record.replay(len(record.moves) - 1))
    # "Wait" stops it for this position; a box choice also cancels it
    for _ in range(3):
        page.click(tid("roll"))
    stop = page.locator(tid("stop-countdown")).bounding_box()
    page.mouse.click(stop["x"] + 5, stop["y"] + 5)  # (any tap stops it; this one is on its button)
    page.wait_for_selector(tid("countdown"), state="detached")
    page.wait_for_timeout(3500)
    assert rolls(page) == "3" and page.locator('[data-testid^="cell-0-"].filled').count() == 1


# --- the exact optimal strategy ------------------------------------------------------------------
def table_requests(urls: list[str]) -> list[str]:
    return [u for u in urls if u.split("?")[0].endswith(TABLE_REQUEST)]


def shot(page, name: str) -> None:
    folder = os.environ.get("DICEHALL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def test_table_loads_lazily_and_offline(site, context, page):
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    open_app(page, site, FAST)
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=90000)
    wait_sw_controlled(page)
    page.wait_for_timeout(500)
    assert table_requests(urls) == []  # booted (page and AI worker) without asking for the table
    assert page.evaluate("document.documentElement.dataset.assetPenta") is None
    page.click(tid("new-penta"))
    page.wait_for_selector(tid("seat-1-kind"))
    options = page.locator(f'{tid("seat-1-kind")} option').all_inner_texts()
    en = catalog("en", "penta")
    assert any(en["penta.level.optimal"] in o for o in options) and any(en["penta.level.greedy"] in o for o in options)
    assert page.eval_on_selector(tid("seat-1-kind"), "s => s.value") == "ai:greedy"  # the default: the middle level
    page.click(tid("nav-home"))
    start_game(page, "penta", ["person", "ai:optimal"])
    page.wait_for_function(LOADED_JS, timeout=30000)
    assert len(table_requests(urls)) >= 1
    fetch_ms, load_ms = map(float, page.evaluate("document.documentElement.dataset.assetPentaMs").split())
    print(f"table fetch {fetch_ms:.0f} ms, load {load_ms:.0f} ms")
    context.set_offline(True)  # second visit offline: the game resumes, the table comes from the cache
    page.reload()
    wait_ready(page)
    page.wait_for_function(LOADED_JS, timeout=60000)
    assert page.locator(tid("scorecard")).count() == 1
    context.set_offline(False)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_hint_shows_the_optimal_moves_and_apply_marks_them(site, page, lang):
    table = solo_table("roll 6 6 6 6 2")
    if lang == "ar":
        page.set_viewport_size({"width": 360, "height": 640})
    else:  # off by default: switched on in Settings
        open_position(page, site, table)
        assert page.locator(tid("hint")).count() == 0
        page.click(tid("nav-settings"))
        assert not page.is_checked(tid("set-hints"))
    open_position(page, site, table, {"hints": True, "lang": lang})
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'loaded'", timeout=30000)
    page.click(tid("hint"))
    page.wait_for_selector(tid("hint-option-0"))
    expected = solver.advise(table.state)
    shown = page.eval_on_selector_all('[data-testid^="hint-option-"]',
                                      "els => els.map(e => [e.dataset.move, +e.dataset.expected, e.textContent])")
    assert len(shown) == min(4, len(expected))
    for (move, value, _), want in zip(shown, expected):
        assert move == want["move"] and value == pytest.approx(want["value"], abs=1e-3)
    words = catalog(lang, "penta")["penta.move.keep"].replace("{dice}", "6 6 6 6")
    assert shown[0][2].startswith(words)
    assert "6 6 6 6" in page.inner_text("#live")  # announced
    no_raw_text(page, "penta")
    shot(page, f"hint-{lang}.png")
    page.click(tid("hint-apply"))  # marks the four sixes; the player still rolls
    page.wait_for_function("() => document.querySelectorAll('[data-testid^=die-][aria-pressed=true]').length === 4")
    assert rolls(page) == "1"
    page.click(tid("roll"))
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '2'")
    assert page.locator(tid("hint-option-0")).count() == 0  # gone until asked again
    assert saved_table(page).record.moves[-2][1] == "keep 6 6 6 6"


def check_review(page, record: Record) -> None:
    want = solver.review(record)
    for s, entry in enumerate(want["seats"]):
        loss = float(page.get_attribute(tid(f"review-loss-{s}"), "data-loss"))
        assert loss == pytest.approx(entry["total_loss"], abs=1e-3)
        assert page.inner_text(tid(f"review-loss-{s}")) == f"{entry['total_loss']:.1f}"
        values = page.get_attribute(tid(f"review-plot-curve-{s}"), "data-values").split(",")
        assert [float(v) for v in values] == pytest.approx(entry["curve"], abs=1e-3)
        shown = page.eval_on_selector_all(f'[data-testid=review-mistake][data-seat="{s}"]',
                                          "els => els.map(e => [+e.dataset.index, +e.dataset.loss])")
        assert [i for i, _ in shown] == [m["index"] for m in entry["mistakes"][:len(shown)]]
        assert len(shown) == min(3, len(entry["mistakes"]))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_review_after_a_finished_game(site, page, tmp_path, lang):
    if lang == "ar":
        page.set_viewport_size({"width": 360, "height": 640})
    record = self_play("penta", ["greedy", "beginner"], seed=11)[0]
    path = tmp_path / "finished.json"
    path.write_text(record.dumps(), encoding="utf-8")
    open_app(page, site, {**FAST, "lang": lang})
    page.set_input_files(tid("import-file"), str(path))
    page.wait_for_selector(tid("results"))
    page.click(tid("review-open"))
    page.wait_for_selector(tid("review-plot"))
    assert page.locator(f'{tid("review-plot")} polyline').count() == 2
    check_review(page, record)
    page.click(tid("review-seat-1"))  # one player at a time
    page.wait_for_selector(f'{tid("review-seat-1")}[aria-pressed="true"]')
    assert page.locator(f'{tid("review-plot")} polyline').count() == 1
    want = solver.review(record)["seats"][1]
    assert page.locator("[data-testid=review-mistake]").count() == min(5, len(want["mistakes"]))
    no_raw_text(page, "penta")
    if lang == "ar":
        page.click(tid("review-seat-all"))
        page.locator(tid("review")).scroll_into_view_if_needed()
        shot(page, "review-ar-360.png")


def test_expert_ai_plays_every_decision_optimally(site, page):
    open_app(page, site, FAST)
    start_game(page, "penta", ["ai:optimal"])
    page.wait_for_selector(tid("results"), timeout=180000)
    graded = solver.review(saved_table(page).record)["seats"][0]
    assert len(graded["decisions"]) >= 13 and graded["total_loss"] == pytest.approx(0.0, abs=1e-6)
    page.click(tid("review-open"))
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
        open_app(page, site, {**FAST, "hints": True})
        start_game(page, "penta", ["person", "ai:optimal"])
        page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
        page.wait_for_function("() => !document.querySelector('[data-testid=roll]').disabled", timeout=60000)
        page.click(tid("roll"))
        page.click(tid("hint"))
        page.wait_for_function("() => document.querySelector('#hint-body').textContent.length > 0")
        assert page.inner_text("#hint-body") == catalog("en")["advisor.unavailable"]
        page.click(tid("die-0"))  # holding a die is still possible: no error toast
        assert page.locator("#toast:not([hidden])").count() == 0
        page.locator('[data-testid^="box-"]:enabled').first.click()
        page.click(tid("confirm"))
        page.wait_for_function("() => document.querySelector('[data-testid=play]').dataset.seat === '0' && "
                               "!document.querySelector('[data-testid=roll]').disabled", timeout=60000)
        saved = saved_table(page)
        assert any(p == 1 and m.startswith("score ") for p, m in saved.record.moves)
    finally:
        ctx.close()
