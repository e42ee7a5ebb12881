"""Before Python: the screens the build drew answer at once, and no tap made on them is lost.

Python is held back (its loader and PyScript are not served until the test says so), so what is
tested is the page before Python, whatever the machine's speed: Home paints from
dist/screens/<lang>.json, "New game" and the rules links move between the drawn screens at once,
and the taps and typing on a set-up are kept — one per control — and done by the shell once it
has started, on the screen it draws itself.
"""

from __future__ import annotations

import json
import random

import pytest
from dicehall_browser import wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.cold_profile]

HELD = ("**/pyodide/snap-loader.mjs", "**/pyscript/core.js")


def hold_python(page) -> list:
    """Requests for Python's loader and PyScript wait in `held` until released."""
    held = []
    for pattern in HELD:
        page.route(pattern, lambda route: held.append(route))
    return held


def release(page, held) -> None:
    for route in held:
        route.continue_()
    for pattern in HELD:
        page.unroute(pattern)


def tid(name: str) -> str:
    return f'[data-testid="{name}"]'


# How many times the page has fetched a path, to the end (resource timing), as a function of it.
FETCHED = "path => performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname.endsWith(path)).length"


def fetched(page, path: str) -> int:
    return page.evaluate(FETCHED, path)


def test_taps_before_python_open_screens_at_once_and_are_done_once_python_is_there(site, page):
    held = hold_python(page)
    page.goto(site.index, wait_until="commit")
    page.wait_for_selector(tid("new-penta"), state="visible", timeout=30000)
    assert page.evaluate("document.documentElement.dataset.early") == "home"
    assert page.evaluate("document.documentElement.dataset.appState") == "booting"
    assert page.is_visible("#boot-bar")  # the progress strip stays above the drawn screen

    # Rules and back, then New game: answered at once, Python still absent
    page.click(tid("rules-rolf"))
    page.wait_for_selector(tid("rules-back"), state="visible", timeout=5000)
    assert page.evaluate("location.hash") == "#/rules/rolf"
    page.click(tid("rules-back"))
    page.click(tid("new-penta"))
    page.wait_for_selector(tid("start-game"), state="visible", timeout=5000)
    assert page.evaluate("location.hash") == "#/setup/penta"
    assert held, "Python was not held back: the test tested nothing"

    # set-up taps and typing are kept: three seats, a name, Start twice (one start is kept)
    page.click(tid("seats-3"))
    page.fill(tid("seat-0-name"), "Zoë")
    page.click(tid("start-game"))
    page.click(tid("start-game"))
    assert page.evaluate("diceHallEarly.kept()") == 3
    assert page.get_attribute(tid("start-game"), "aria-busy") == "true"
    waiting = json.loads((site.dist / "screens" / "en.json").read_text(encoding="utf-8"))["boot"]["boot.waiting"]
    assert page.inner_text("#boot-text") == waiting
    # the game's own strings, which the shell loads before it draws that set-up, are on their way
    page.wait_for_function(FETCHED + " === 1", arg="/i18n/penta/en.json", timeout=10000)

    release(page, held)
    wait_ready(page)
    page.wait_for_selector('[data-testid="play"]', timeout=60000)
    assert page.evaluate("location.hash") == "#/play"
    table = json.loads(page.evaluate("localStorage.getItem('dicehall.table')"))
    assert table["seats"][0]["name"] == "Zoë" and len(table["seats"]) == 3
    assert page.evaluate("document.documentElement.dataset.early") is None
    assert not page.is_visible("#boot")
    assert fetched(page, "/i18n/penta/en.json") == 1  # Python took that one


# Each screen #app was marked with, in order (its data-screen: early.js's copies, then each of the
# shell's draws), and the app's "dh:tap" measures (a tap the shell handled).
SCREENS_SHOWN_JS = """
window.__screens = [];
window.__taps = 0;
new MutationObserver((records) => records.forEach((r) => {
  if (r.target.id === "app" && r.target.getAttribute("data-screen")) window.__screens.push(r.target.getAttribute("data-screen"));
})).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-screen"]});
new PerformanceObserver((list) => list.getEntries().forEach((e) => { if (e.name === "dh:tap") window.__taps += 1; }))
  .observe({type: "measure"});
"""


def test_a_lone_start_before_python_makes_the_new_table_the_first_screen_python_draws(site, page):
    page.add_init_script(SCREENS_SHOWN_JS)
    held = hold_python(page)
    page.goto(site.index, wait_until="commit")
    page.wait_for_selector(tid("new-rolf"), state="visible", timeout=30000)
    page.click(tid("new-rolf"))
    page.wait_for_selector(tid("start-game"), state="visible", timeout=5000)
    page.click(tid("start-game"))
    assert page.evaluate("diceHallEarly.kept()") == 1 and held
    release(page, held)
    wait_ready(page)
    page.wait_for_selector('[data-testid="play"]', timeout=60000)
    # the shell took the Start before its first screen (screens/setup.py start_if_kept): it drew
    # the table, never its own set-up, and no tap was handed over to it
    assert page.evaluate("window.__screens")[:3] == ["home", "setup", "play"]
    assert page.evaluate("diceHallEarly.kept()") == 0
    assert page.evaluate("window.__taps") == 0
    assert page.evaluate("location.hash") == "#/play"
    assert json.loads(page.evaluate("localStorage.getItem('dicehall.table')"))["game"] == "rolf"
    page.go_back()  # the set-up is not left in the history (Start replaces it, as a tap on the shell's does)
    page.wait_for_function("location.hash !== '#/play'", timeout=10000)
    assert page.evaluate("location.hash") in ("", "#/home", "#/")


def test_a_screen_the_build_did_not_draw_waits_for_python_and_then_shows(site, page):
    held = hold_python(page)
    page.goto(site.index, wait_until="commit")
    page.wait_for_selector(tid("nav-settings"), state="visible", timeout=30000)
    page.click(tid("nav-settings"))  # settings are the shell's alone: the boot screen again
    page.wait_for_function("!document.documentElement.dataset.early", timeout=5000)
    assert page.is_visible("#boot") and page.inner_html("#app") == ""
    release(page, held)
    wait_ready(page)
    assert page.get_attribute("#app", "data-screen") == "settings"


def test_the_strings_of_the_games_python_opens_first_are_fetched_as_the_page_opens(site, page):
    """index.html fetches the catalogs of the game the address names (rules here) and of the game
    in progress (a stored table), in English and the player's language, before Python; Python
    takes each of them and asks for none of them again."""
    from pygame_core.table import Table

    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(1))
    page.goto(site.url + "sw-register.js")  # same origin, no app boot: storage first
    page.evaluate("([s, t]) => { localStorage.setItem('dicehall.settings', s); localStorage.setItem('dicehall.table', t); }",
                  [json.dumps({"lang": "sv"}), table.dumps()])
    held = hold_python(page)
    page.goto(site.index + "#/rules/rolf", wait_until="commit")
    wanted = [f"/i18n/{game}/{lang}.json" for game in ("rolf", "penta") for lang in ("en", "sv")]
    page.wait_for_function("""wanted => wanted.every(path => performance.getEntriesByType('resource')
                                .some(e => new URL(e.name).pathname.endsWith(path)))""", arg=wanted, timeout=30000)
    assert held, "Python was not held back: the test tested nothing"
    release(page, held)
    wait_ready(page)
    page.wait_for_selector(tid("play"), timeout=30000)  # the game in progress, its strings in Swedish
    assert {path: fetched(page, path) for path in wanted} == {path: 1 for path in wanted}
    assert page.evaluate("Object.keys(window.diceHallFetched)") == []  # each taken by Python
