"""Penta's exact optimal strategy in the built site: lazy table load (also offline), the optimal
AI, the hint (advisor) and the post-game review, checked against `penta_solver` on CPython.

Run: pytest -m browser tests/browser/test_penta_advisor.py
DICEHALL_SHOTS=/dir also saves 360x640 Arabic screenshots of the hint and the review there.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from dicehall_browser import ROOT, wait_ready, wait_sw_controlled, catalog, open_app, start_game, tid

sys.path.insert(0, str(ROOT))

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.games import penta_solver as ps  # noqa: E402
from pygame_core.record import Record  # noqa: E402
from pygame_core.table import Table  # noqa: E402

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
TABLE_FILE = "data/penta_values.bin"
LOADED_JS = """() => document.documentElement.dataset.pentaTable === 'loaded'
  && document.documentElement.dataset.pentaTableWorker === 'loaded'"""










def table_requests(urls: list[str]) -> list[str]:
    return [u for u in urls if u.split("?")[0].endswith(TABLE_FILE)]


def shot(page, name: str) -> None:
    folder = os.environ.get("DICEHALL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def test_table_loads_lazily_and_offline(site, context, page):
    page_urls: list[str] = []
    page.on("request", lambda r: page_urls.append(r.url))
    open_app(page, site, FAST)
    page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=90000)
    wait_sw_controlled(page)
    page.wait_for_timeout(500)
    # booted (page and AI worker) without asking for the table
    assert table_requests(page_urls) == []
    assert page.evaluate("document.documentElement.dataset.pentaTable") is None
    # the AI level names are clear
    page.click(tid("new-penta"))
    options = page.locator(f'{tid("seat-1-kind")} option').all_inner_texts()
    en = catalog("en")
    assert any(en["ai.level.optimal"] in o for o in options) and any(en["ai.level.greedy"] in o for o in options)
    assert page.eval_on_selector(tid("seat-1-kind"), "s => s.value") == "ai:optimal"  # the default
    page.click(tid("nav-home"))
    start_game(page, ["person", "ai:optimal"])
    page.wait_for_function(LOADED_JS, timeout=30000)
    assert len(table_requests(page_urls)) >= 1  # main thread (and the worker) fetched it now
    fetch_ms, load_ms = map(float, page.evaluate("document.documentElement.dataset.pentaTableMs").split())
    print(f"table fetch {fetch_ms:.0f} ms, load {load_ms:.0f} ms")
    # second visit offline: the saved game resumes and the table comes from the SW cache
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    page.wait_for_function(LOADED_JS, timeout=60000)
    assert page.locator(tid("scorecard")).count() == 1
    context.set_offline(False)


def known_position() -> tuple[Table, object]:
    """A solo game, first roll 6 6 6 6 2: keeping the four sixes is obviously best."""
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(3))
    table.play("roll 6 6 6 6 2", -1)
    return table, table.state


def open_known_position(page, site, lang: str = "en") -> tuple[Table, object]:
    table, state = known_position()
    ui = {"held": [], "order": [0, 1, 2, 3, 4], "box": None, "moves": len(table.record.moves)}
    open_app(page, site, {**FAST, "hints": True, "lang": lang}, table.dumps(), ui)
    page.wait_for_selector(tid("hint"))
    page.wait_for_function("() => document.documentElement.dataset.pentaTable === 'loaded'", timeout=30000)
    return table, state


def test_hint_shows_optimal_moves(site, page):
    # off by default: no hint button
    table, state = known_position()
    ui = {"held": [], "order": [0, 1, 2, 3, 4], "box": None, "moves": len(table.record.moves)}
    open_app(page, site, FAST, table.dumps(), ui)
    page.wait_for_selector(tid("scorecard"))
    assert page.locator(tid("hint")).count() == 0
    page.click(tid("nav-settings"))
    assert not page.is_checked(tid("set-hints"))
    page.check(tid("set-hints"))
    page.click(tid("settings-back"))
    page.wait_for_selector(tid("hint"))
    page.wait_for_function("() => document.documentElement.dataset.pentaTable === 'loaded'", timeout=30000)
    page.click(tid("hint"))
    page.wait_for_selector(tid("hint-option-0"))
    expected = ps.advise(state)
    shown = page.eval_on_selector_all('[data-testid^="hint-option-"]',
                                      "els => els.map(e => [e.dataset.move, +e.dataset.expected, e.textContent])")
    assert len(shown) == min(4, len(expected))
    for (move, value, _), want in zip(shown, expected):
        assert move == want["move"]
        assert value == pytest.approx(want["expected"], abs=1e-3)
    assert expected[0]["move"] == "keep 6 6 6 6"
    assert shown[0][2] == f"Keep 6 6 6 6 → {expected[0]['expected']:.1f}"
    assert page.get_attribute("#hint-body", "aria-live") == "polite"
    assert "6 6 6 6" in page.inner_text("#live")  # announced
    # after rolling the hint is gone until asked again
    page.click(tid("die-0"))
    page.click(tid("roll"))
    page.wait_for_function("() => document.querySelector('.play').dataset.rolls === '2'")
    assert page.locator(tid("hint-option-0")).count() == 0


def test_hint_arabic_360(site, page):
    page.set_viewport_size({"width": 360, "height": 640})
    open_known_position(page, site, "ar")
    page.click(tid("hint"))
    page.wait_for_selector(tid("hint-option-0"))
    ar = catalog("ar")
    text = page.inner_text(tid("hint-option-0"))
    assert text.startswith(ar["advisor.keep"].replace("{dice}", "6 6 6 6"))
    assert "{" not in page.inner_text("body")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator(tid("hint-option-0")).scroll_into_view_if_needed()
    shot(page, "hint-ar-360.png")


def simulated_record(levels: list[str], seed: int) -> Record:
    return self_play("penta", levels, seed)[0]


def check_review(page, record: Record) -> None:
    want = ps.review(record)
    for s, entry in enumerate(want["seats"]):
        loss = float(page.get_attribute(tid(f"review-loss-{s}"), "data-loss"))
        assert loss == pytest.approx(entry["total_loss"], abs=1e-3)
        assert page.inner_text(tid(f"review-loss-{s}")) == f"{entry['total_loss']:.1f}"
        values = page.get_attribute(tid(f"review-curve-{s}"), "data-values").split(",")
        assert [float(v) for v in values] == pytest.approx(entry["curve"], abs=1e-3)
        shown = page.eval_on_selector_all(f'[data-testid=review-mistake][data-seat="{s}"]',
                                          "els => els.map(e => [+e.dataset.index, +e.dataset.loss])")
        assert [i for i, _ in shown] == [m["index"] for m in entry["mistakes"][:len(shown)]]
        assert len(shown) == min(3, len(entry["mistakes"]))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_review_after_finished_game(site, page, tmp_path, lang):
    if lang == "ar":
        page.set_viewport_size({"width": 360, "height": 640})
    record = simulated_record(["greedy", "beginner"], seed=11)
    path = tmp_path / "finished.json"
    path.write_text(record.dumps(), encoding="utf-8")
    open_app(page, site, {**FAST, "lang": lang})
    page.set_input_files(tid("import-file"), str(path))
    page.wait_for_selector(tid("results"))
    page.click(tid("review-open"))
    page.wait_for_selector(tid("review-plot"))
    assert page.locator(f'{tid("review-plot")} polyline').count() == 2
    # the numbers match review() of the exported record, computed here on CPython
    with page.expect_download() as info:
        page.click(tid("export-record"))
    exported = tmp_path / "exported.json"
    info.value.save_as(exported)
    check_review(page, Record.loads(exported.read_text(encoding="utf-8")))
    # one player at a time
    page.click(tid("review-seat-1"))
    page.wait_for_selector(f'{tid("review-seat-1")}[aria-pressed="true"]')
    assert page.locator(f'{tid("review-plot")} polyline').count() == 1
    assert page.locator(tid("review-curve-1")).count() == 1
    want = ps.review(record)["seats"][1]
    assert page.locator("[data-testid=review-mistake]").count() == min(5, len(want["mistakes"]))
    body = page.inner_text("body")
    assert "{" not in body and "review." not in body and "advisor." not in body
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    if lang == "ar":
        page.click(tid("review-seat-all"))
        page.locator(tid("review")).scroll_into_view_if_needed()
        shot(page, "review-ar-360.png")
        page.locator(tid("review-plot")).scroll_into_view_if_needed()
        shot(page, "review-plot-ar-360.png")
        page.locator("[data-testid=review-mistake]").first.scroll_into_view_if_needed()
        shot(page, "review-mistakes-ar-360.png")


def test_ai_plays_optimally_once_loaded(site, page, tmp_path):
    """A solo expert AI game: graded on CPython, every decision is the optimal one."""
    open_app(page, site, FAST)
    start_game(page, ["ai:optimal"])
    page.wait_for_selector(tid("results"), timeout=180000)
    with page.expect_download() as info:
        page.click(tid("export-record"))
    path = tmp_path / "ai.json"
    info.value.save_as(path)
    record = Record.loads(path.read_text(encoding="utf-8"))
    graded = ps.review(record)["seats"][0]
    assert len(graded["decisions"]) >= 13
    assert graded["total_loss"] == pytest.approx(0.0, abs=1e-6)
    # the review on the page says the same
    page.click(tid("review-open"))
    page.wait_for_selector(tid("review-none-0"))


def test_autofill_writes_the_optimal_box(site, page):
    open_app(page, site, {"animations": False, "autofill": True})
    start_game(page, ["person"])
    page.wait_for_function("() => document.documentElement.dataset.pentaTable === 'loaded'", timeout=30000)
    for _ in range(3):
        page.click(tid("roll"))
    page.wait_for_selector(tid("countdown"))
    page.wait_for_function("() => document.querySelector('.play').dataset.rolls === '0'", timeout=10000)
    record = Table.loads(page.evaluate("localStorage.getItem('dicehall.table')")).record
    before = record.replay(len(record.moves) - 1)
    assert record.moves[-1][1] == ps.best_move(before)


def test_table_missing_falls_back_silently(site, playwright_instance, tmp_path):
    """No table (fetch fails): the AI still plays (greedy fallback), the hint says why it has none."""
    from dicehall_browser import CHROMIUM, CHROMIUM_ARGS, CONSOLE

    ctx = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 800}, service_workers="block")
    try:
        ctx.route("**/data/penta_values.bin", lambda route: route.abort())
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        CONSOLE.attach(page)
        open_app(page, site, {**FAST, "hints": True})
        start_game(page, ["person", "ai:optimal"])
        page.wait_for_function("() => document.documentElement.dataset.pentaTable === 'failed'", timeout=30000)
        # whoever starts, the person gets a turn after the AI has played (or before it)
        page.wait_for_function("() => !document.querySelector('[data-testid=roll]').disabled", timeout=60000)
        page.click(tid("roll"))
        page.click(tid("hint"))
        page.wait_for_function("() => document.querySelector('#hint-body').textContent.length > 0")
        assert page.inner_text("#hint-body") == catalog("en")["advisor.unavailable"]
        page.click(tid("die-0"))  # holding a die is still possible: no error toast
        assert page.locator("#toast:not([hidden])").count() == 0
        page.locator('[data-testid^="box-"]:enabled').first.click()
        page.click(tid("confirm"))
        # the AI seat takes its turn with the fallback and the person can roll again
        page.wait_for_function("() => document.querySelector('.play').dataset.seat === '0' && "
                               "!document.querySelector('[data-testid=roll]').disabled", timeout=60000)
        saved = Table.loads(page.evaluate("localStorage.getItem('dicehall.table')"))
        assert any(p == 1 and m.startswith("score ") for p, m in saved.record.moves)
    finally:
        ctx.close()
