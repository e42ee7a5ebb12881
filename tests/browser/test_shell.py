"""The shell every game shares, where only a real browser can tell: a record downloaded and a
file chosen really work (with the native dialog's Escape, the toast's size and close, and the
screen's wake lock on the way), and every game's play screen and rules page in the five
languages fit a 360 px phone. What the shell does and says is tested under CPython:
tests/web/test_app_attacks.py (a save that cannot be read, quitting, error messages),
tests/web/test_app_languages.py (every game's words in every language) and
tests/web/test_app_shell.py (export and import)."""

from __future__ import annotations

import json

import pytest

from dicehall_browser import catalog, mid_game_table, no_raw_text, open_app, saved_table, tid
from pygame_core.registry import entries
from support import LANGS

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}
REAL_GAMES = [name for name in entries() if name != "claim"]  # the fixture game has its own site


def wake_lock(page) -> str | None:
    """What web/feel.js was last asked for ("wanted" or "off")."""
    return page.evaluate("document.documentElement.dataset.wakeLock")


def test_export_then_import_a_record(site, page, tmp_path):
    """The record comes down as a file and goes back in through the file input; on the way, the
    native dialog closes on Escape (the game kept), a long error fits a short toast that closes,
    and the screen is kept awake on the play screen only (web/feel.js)."""
    game = REAL_GAMES[0]
    table = mid_game_table(game)
    open_app(page, site, FAST, table.dumps())
    page.wait_for_selector(tid("play"))
    assert wake_lock(page) == "wanted"
    with page.expect_download() as info:
        page.click(tid("export-record"))
    path = tmp_path / "game.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    carried = exported.pop("table")  # the export carries its table: names, symbols, levels, standings
    assert exported == table.record.to_json()
    assert [seat["name"] for seat in carried["seats"]] == [seat["name"] for seat in table.seats]
    page.click(tid("nav-home"))
    page.wait_for_selector("#home-h")
    assert wake_lock(page) == "off"
    bad = {"format": "dicehall-record", "version": 2, "game": "penta", "options": {"players": 1},
           "moves": [[-1, "roll " + "1 " * 200_000 + "1"]]}
    page.set_input_files(tid("import-file"), files=[{"name": "bad.json", "mimeType": "application/json",
                                                     "buffer": json.dumps(bad).encode()}])
    page.wait_for_selector("#toast:not([hidden])")
    assert "Move 1" in page.inner_text("#toast .toast-text")
    assert page.locator("#toast").bounding_box()["height"] < 160
    page.click(tid("toast-close"))
    assert page.locator("#toast").is_hidden()
    page.set_input_files(tid("import-file"), str(path))  # the good file: asked first
    page.wait_for_selector(tid("import-confirm"))
    page.keyboard.press("Escape")  # the native dialog closes: nothing replaced
    page.wait_for_selector(tid("dialog"), state="hidden")
    assert saved_table(page).record.to_json() == exported
    page.set_input_files(tid("import-file"), str(path))  # the same file again: then play goes on
    page.click(tid("import-confirm"))
    page.wait_for_selector(tid("play"))
    assert saved_table(page).state.to_json() == table.state.to_json()
    assert wake_lock(page) == "wanted"


def test_every_game_in_every_language_fits_a_phone(site, page):
    """Each game's fixed position (a seat with a name of the longest kind allowed) on its play
    screen, and its rules page, at 360x740 in the five languages: nothing wider than the screen,
    no button's words spilling out of it. One boot: the games wait on Home as unfinished tables
    ("continue"), and on each the language is changed in Settings (measured: faster than a boot
    per game and language, and than a language at a time, as taking a game up again replays its
    record)."""
    page.set_viewport_size({"width": 360, "height": 740})
    saves = {}
    for game in REAL_GAMES:
        table = mid_game_table(game)
        table.seats[-1]["name"] = "W" * 24  # the longest name a seat keeps (pygame_core.table.MAX_NAME)
        saves[game] = table.dumps()
    first, *waiting = REAL_GAMES
    shown = LANGS[0]  # the language on screen
    open_app(page, site, {**FAST, "lang": shown}, saves[first])
    page.evaluate("s => localStorage.setItem('dicehall.parked', s)",
                  json.dumps({game: saves[game] for game in waiting}))
    for k, game in enumerate(REAL_GAMES):
        if k:  # the next game, from Home: the one played so far waits in its place
            page.click(tid("nav-home"))
            page.click(tid(f"continue-{game}"))
        for n, lang in enumerate([shown] + [other for other in LANGS if other != shown]):
            if n:  # the next language, from Settings, then back to the game
                page.click(tid("nav-settings"))
                page.select_option(tid("set-lang"), lang)
                page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
                page.click(tid("settings-back"))
                shown = lang
            title = catalog(lang, game)[f"{game}.title"]
            page.wait_for_function("title => document.getElementById('play-h')?.textContent === title", arg=title)
            no_raw_text(page, game)
            page.click(tid("nav-rules"))
            page.wait_for_function("title => document.getElementById('rules-h')?.textContent.includes(title)",
                                   arg=title)
            no_raw_text(page, game)
