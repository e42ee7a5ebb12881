"""The shell every game shares, tested once: saves that cannot be read, quitting, import and
export of records, and every game's play and results screens in the five languages on fixed
positions (no raw keys, no placeholders, nothing wider than a 360 px phone)."""

from __future__ import annotations

import json

import pytest

from dicehall_browser import catalog, mid_game_table, no_raw_text, open_app, saved_table, start_game, tid
from pygame_core.ai import self_play
from pygame_core.registry import entries, get_entry

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
REAL_GAMES = [name for name in entries() if name != "claim"]  # the fixture game has its own site


def first_game() -> str:
    return REAL_GAMES[0]


def test_corrupted_save_shows_a_message_and_discard_works(site, page):
    open_app(page, site, FAST, table='{"format": "dicehall-save", "version": 1, "game": "nosuch", "seats": 3}')
    page.wait_for_selector(tid("save-error"))
    assert catalog("en")["save.unreadable"] in page.inner_text(tid("save-error"))
    assert page.locator(tid("export-save")).is_enabled()
    page.click(tid("discard-save"))
    page.wait_for_selector(tid(f"new-{first_game()}"))
    assert page.evaluate("localStorage.getItem('dicehall.table')") is None
    open_app(page, site, {**FAST, "lang": "pl"}, table="{not json")  # in the player's language
    page.wait_for_selector(tid("save-error"))
    assert catalog("pl")["save.unreadable"] in page.inner_text(tid("save-error"))


def test_quit_dialog(site, page):
    game = first_game()
    open_app(page, site, FAST)
    start_game(page, game, ["person"] * get_entry(game).rules.min_players)
    page.click(tid("quit"))
    assert page.locator(tid("dialog")).is_visible()
    page.keyboard.press("Escape")
    assert not page.locator(tid("dialog")).is_visible() and page.locator(tid("play")).count() == 1
    page.click(tid("quit"))
    page.click(tid("quit-confirm"))
    page.wait_for_selector(tid(f"new-{game}"))
    assert page.evaluate("localStorage.getItem('dicehall.table')") is None


def test_export_then_import_a_record(site, page, tmp_path):
    game = first_game()
    table = mid_game_table(game)
    open_app(page, site, FAST, table.dumps())
    page.wait_for_selector(tid("play"))
    with page.expect_download() as info:
        page.click(tid("export-record"))
    path = tmp_path / "game.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    carried = exported.pop("table")  # the export carries its table: names, symbols, levels, standings
    assert exported == table.record.to_json()
    assert [seat["name"] for seat in carried["seats"]] == [seat["name"] for seat in table.seats]
    page.click(tid("nav-home"))  # a bad file: a message in words, the running game is kept
    page.set_input_files(tid("import-file"), files=[{"name": "x.json", "mimeType": "application/json",
                                                     "buffer": b'{"format": "something else"}'}])
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast .toast-text") == catalog("en")["record.not_a_record"]
    assert saved_table(page).record.to_json() == exported
    page.set_input_files(tid("import-file"), str(path))  # the good file: asked first, then play goes on
    page.click(tid("import-confirm"))
    page.wait_for_selector(tid("play"))
    assert saved_table(page).state.to_json() == table.state.to_json()


@pytest.mark.parametrize("lang", ["en", "nb", "sv", "pl", "ar"])
def test_every_game_in_every_language_on_fixed_positions(site, page, tmp_path, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    shared = catalog(lang)
    for game in REAL_GAMES:
        text = catalog(lang, game)
        table = mid_game_table(game)
        open_app(page, site, {**FAST, "lang": lang}, table.dumps())
        page.wait_for_selector(tid("play"))
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == \
            [lang, "rtl" if lang == "ar" else "ltr"]
        assert page.inner_text("#play-h") == text[f"{game}.title"]
        assert page.inner_text(tid("prompt")).strip()
        no_raw_text(page, game)
        page.click(tid("nav-rules"))
        page.wait_for_selector("#rules-h")
        assert text[f"{game}.title"] in page.inner_text("#rules-h")
        no_raw_text(page, game)
        record, _ = self_play(game, [get_entry(game).setup_level] * len(table.seats), seed=9)
        path = tmp_path / f"{game}.json"
        path.write_text(record.dumps(), encoding="utf-8")
        page.click(tid("nav-home"))
        assert page.inner_text("#home-h") == shared["home.heading"]
        page.set_input_files(tid("import-file"), str(path))
        page.click(tid("import-confirm"))  # the unfinished game would be replaced: asked first
        page.wait_for_selector(tid("results"))
        assert page.inner_text("#res-h") == shared["results.heading"]
        no_raw_text(page, game)
