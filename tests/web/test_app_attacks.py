"""Attacking the app under CPython (issue 7, items 1–8; the browser keeps item 9, game data lost
or damaged on the server, in tests/browser/test_attacks.py): two tabs, full storage, tampered
keys, crafted record files, double taps, unknown AI levels, hostile names, huge error messages —
and a save that cannot be read, and quitting. Each must end in a clear message with nothing lost
and the app still working. The real shell on a fake page (tests/web/fakepage.py)."""

from __future__ import annotations

import json
import random

import pytest

from fakehost import run
from fakepage import Browser, FakePage
from pygame_core.ai import self_play
from pygame_core.registry import entries, get_entry
from pygame_core.table import MAX_NAME, Table
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")

EN = load_catalog("en")
FIRST_GAME = next(name for name in entries() if name != "claim")  # as the browser's test_shell had it


def people(n: int = 2, names=None) -> list[dict]:
    names = names or [f"P{i + 1}" for i in range(n)]
    return [{"name": names[i], "symbol": "●▲■◆★"[i], "ai": None} for i in range(n)]


def penta_table(*moves, seats=None) -> Table:
    table = Table("penta", seats or people(1))
    table.new_game(random.Random(4))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    return table


async def open_app(table: str | None = None, page: FakePage | None = None, **stored) -> FakePage:
    """The app booted on this saved table (text as stored; `stored`: other keys as text)."""
    page = page or FakePage(settings={})
    if table is not None:
        page.browser.items["dicehall.table"] = table
        page.location = "#/play"
    for key, text in stored.items():
        page.browser.items[f"dicehall.{key}"] = text
    await page.boot()
    return page


def rolls(page: FakePage) -> int:
    board = next(el for el in page.app.walk() if "penta-board" in el.get("class", "").split())
    return int(board.get("data-rolls"))


def dice(page: FakePage) -> list[str]:
    return [el.get("data-value") for el in page.app.walk() if (el.testid or "").startswith("die-")]


async def score_first_open_box(page: FakePage) -> None:
    """Pick the first box that can be scored, and confirm it."""
    box = next(el.testid for el in page.app.walk() if (el.testid or "").startswith("box-") and not el.disabled)
    await page.tap(box)
    await page.tap("confirm")


# 1 -----------------------------------------------------------------------------------------
def test_two_tabs_one_writer():
    """Tab B catches up from tab A's storage event; a tab that missed an event never overwrites
    the longer history in storage: it takes it over and says so."""
    async def steps():
        browser = Browser()
        page = await open_app(penta_table().dumps(), FakePage(browser, settings={}))
        other = await open_app(None, FakePage(browser, hash_="#/play"))
        await page.tap("roll")  # tab A rolls: tab B catches up from the storage event
        await other.idle()
        assert rolls(other) == 1
        assert other.shell.play.table.state.to_json() == page.table().state.to_json()
        # Storage changed under tab A without an event: it must not overwrite the longer history.
        ahead = page.table()
        ahead.submit(ahead.state.current_player(), "keep", ahead.match.index)
        ahead.submit(-1, "roll 6 6 6 6 6", ahead.match.index)
        browser.items["dicehall.table"] = ahead.dumps()
        await page.tap("die-0")
        await page.tap("roll")
        assert page.toasts[-1] == EN["tabs.continued"]
        assert rolls(page) == 2
        assert page.table().record.moves == ahead.record.moves  # the longer history survived
        assert dice(page) == ["6"] * 5
        assert not page.errors and not other.errors

    run(steps)


# 2 -----------------------------------------------------------------------------------------
def test_full_storage_is_told_play_goes_on_and_export_is_offered():
    async def steps():
        page = await open_app(penta_table("roll 1 2 3 4 5", "score chance").dumps())
        before = page.stored()
        page.browser.full = True
        await page.tap("roll")
        assert page.toasts[-1] == EN["save.failed"]
        assert page.has("unsaved")  # a lasting notice, not only the toast
        assert rolls(page) == 1  # play goes on from memory
        assert page.stored() == before  # nothing saved is lost
        await page.tap("unsaved-export")
        kept = json.loads(page.downloads[-1][1])
        assert len(kept["moves"]) == 3 and kept["table"]["seats"][0]["name"] == "P1"
        page.browser.full = False  # space again: the next save clears the notice
        await score_first_open_box(page)
        assert not page.has("unsaved")
        assert len(page.table().record.moves) == 4

    run(steps)


# 3 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("settings, ui", [('"str"', '{"held": ["x"], "order": "no", "box": 5, "moves": 1}'),
                                         ("5", '"str"'), ('{"lang": 7, "hints": "yes"}', "5"), ("[{", "{")])
def test_bad_stored_keys_never_stop_the_app(settings, ui):
    async def steps():
        page = await open_app(penta_table("roll 1 2 3 4 5").dumps(), FakePage(), settings=settings, ui=ui)
        assert page.screen == "play" and page.has("scorecard")  # the saved game is there
        assert rolls(page) == 1
        assert len(page.toasts) == 1 and page.toasts[0].startswith(EN["aside.said"].split(":")[0])
        await score_first_open_box(page)
        assert rolls(page) == 0
        assert not page.errors

    run(steps)


# 4 -----------------------------------------------------------------------------------------
def test_crafted_records_are_refused_and_the_game_is_kept():
    async def steps():
        table = penta_table("roll 1 2 3 4 5")
        page = await open_app(table.dumps())
        await page.tap("nav-home")
        await page.choose_file('{"format": "dicehall-record", "options": ' + "[" * 6000 + "]" * 6000 + "}")
        assert page.toasts[-1] == EN["record.not_a_record"]
        await page.choose_file(" " * 2_100_000)
        assert page.toasts[-1] == EN["record.too_big"]
        assert page.stored() == table.dumps()  # the game in progress is intact
        await page.tap("continue")  # and the app is alive: play on
        await score_first_open_box(page)
        assert rolls(page) == 0
        assert not page.errors

    run(steps)


def test_import_asks_before_replacing_and_brings_its_table():
    async def steps():
        record, _ = self_play("penta", ["greedy", "beginner"], seed=3)
        theirs = Table("penta", [{"name": "Åse", "symbol": "★", "ai": "greedy"},
                                 {"name": "Lin", "symbol": "◆", "ai": None}])
        theirs.new_game(random.Random(1))
        for seat, move in record.moves[:40]:
            theirs.submit(seat, move, theirs.match.index)
        mine = penta_table("roll 1 2 3 4 5")
        page = await open_app(mine.dumps())
        await page.tap("nav-home")
        await page.choose_file(json.dumps(theirs.export()))
        assert page.has("import-cancel")  # asked first
        await page.tap("import-cancel")
        assert page.stored() == mine.dumps() and page.shell.dialog_kind is None
        await page.choose_file(json.dumps(theirs.export()))
        await page.tap("import-confirm")
        assert page.screen == "play" and page.has("scorecard")
        imported = page.table()
        assert imported.seats == theirs.seats  # names, symbols and computer levels came with it
        # the game goes on from their position (the computer seat may have moved on already)
        assert imported.record.to_json()["moves"][:40] == theirs.record.to_json()["moves"]

    run(steps)


# 5 -----------------------------------------------------------------------------------------
def test_a_double_tap_is_one_action():
    """The second tap of a double tap lands on what the first one drew under the finger (Roll
    again; Roll after Play again): it is ignored when the first one changed the game. A tap of
    its own still acts."""
    async def steps():
        page = await open_app(penta_table().dumps())
        page.click("roll")
        page.click("roll", taps=2, after_ms=120)
        await page.idle()
        assert rolls(page) == 1 and len(page.table().record.moves) == 1
        await page.tap("roll")  # a tap of its own, at a person's pace: it rolls
        assert rolls(page) == 2
        finished, _ = self_play("penta", ["beginner"], seed=2)
        done = Table("penta", people(1))
        done.new_game(random.Random(1))
        for seat, move in finished.moves:
            done.submit(seat, move, done.match.index)
        page = await open_app(done.dumps())
        assert page.screen == "results"
        page.click("play-again")
        page.click("roll", taps=2, after_ms=120)  # the second tap lands on Roll: it must not roll
        await page.idle()
        assert page.screen == "play"
        assert rolls(page) == 0 and len(page.table().record.moves) == 0

    run(steps)


# 6 -----------------------------------------------------------------------------------------
def test_unknown_computer_level_is_mapped_with_a_message():
    async def steps():
        table = penta_table(seats=[{"name": "Ann", "symbol": "●", "ai": None},
                                   {"name": "Bot", "symbol": "▲", "ai": "greedy"}])
        data = table.to_json()
        data["seats"][1]["ai"] = "godlike"
        page = await open_app(json.dumps(data))
        assert page.toasts[-1] == EN["save.level_mapped"]
        assert page.enabled("roll")  # the person's turn (the computer played, or waits its turn)
        assert page.table().seats[1]["ai"] == get_entry("penta").setup_level
        assert not page.errors

    run(steps)


# 7 -----------------------------------------------------------------------------------------
def test_hostile_names_are_capped_and_isolated():
    """A 10,000-letter name is cut down; a right-to-left override in a name cannot reverse what
    follows it, wherever a name is drawn or said. (That a long name fits a 360 px phone is the
    browser's layout test, tests/browser/test_shell.py.)"""
    async def steps():
        table = penta_table("roll 1 2 3 4 5", seats=people(2, ["\u202eevil", "Bo"]))
        data = table.to_json()
        data["seats"][1]["name"] = "W" * 10_000
        page = await open_app(json.dumps(data))
        assert page.has("scorecard")
        assert all(len(seat["name"]) <= MAX_NAME == 24 for seat in page.table().seats)
        names = [el for el in page.app.walk() if "pname" in el.get("class", "").split()]
        assert names and all(el.tag == "bdi" for el in names)
        await page.tap("roll")  # the announcement names the player: isolated too
        assert "\u2068" in page.spoken[-1] and "\u2069" in page.spoken[-1]

    run(steps)


# 8 -----------------------------------------------------------------------------------------
def test_error_messages_are_short_and_close():
    async def steps():
        page = await open_app(penta_table().dumps())
        await page.tap("nav-home")
        record = {"format": "dicehall-record", "version": 2, "game": "penta", "options": {"players": 1},
                  "moves": [[-1, "roll " + "1 " * 200_000 + "1"]]}
        await page.choose_file(json.dumps(record))
        text = page.toasts[-1]
        assert len(text) <= 240 and "Move 1" in text
        assert page.spoken[-1] == text  # said too
        await page.tap("toast-close")
        assert page.toast_el is None
        assert page.enabled("new-penta")
        page.shell.say("Ω" * 5000, error=True)  # whatever a message holds, the toast is cut short
        assert len(page.toasts[-1]) == 240 and page.toasts[-1].endswith("…")

    run(steps)


# A save that cannot be read; quitting (from the browser's tests/browser/test_shell.py) ------------
@pytest.mark.parametrize("lang, save", [("en", '{"format": "dicehall-save", "version": 1, "game": "nosuch", "seats": 3}'),
                                        ("pl", "{not json")])
def test_corrupted_save_shows_a_message_and_discard_works(lang, save):
    """Said in the player's language; nothing is overwritten until they choose: export keeps
    the text as it was, discard clears it and Home is back."""
    async def steps():
        page = await open_app(save, FakePage(lang=lang))
        assert page.screen == "broken"
        assert load_catalog(lang)["save.unreadable"] in page.text("save-error")
        assert page.stored() == save
        await page.tap("export-save")
        assert page.downloads[-1][1] == save
        await page.tap("discard-save")
        assert page.screen == "home" and page.has(f"new-{FIRST_GAME}")
        assert page.stored() is None

    run(steps)


def test_quit_dialog():
    """Quit asks first; Escape (or its Cancel) keeps the game; Quit ends it unsaved."""
    async def steps():
        page = FakePage(settings={})
        await page.boot()
        await page.tap(f"new-{FIRST_GAME}")
        for i in range(get_entry(FIRST_GAME).rules.min_players):
            await page.select(f"seat-{i}-kind", "person")
        await page.tap("start-game")
        assert page.screen == "play"
        saved = page.stored()
        await page.tap("quit")
        assert page.shell.dialog_kind == "quit" and page.has("quit-confirm")
        await page.escape()
        assert page.shell.dialog_kind is None and page.screen == "play" and page.stored() == saved
        await page.tap("quit")
        await page.tap("quit-cancel")
        assert page.shell.dialog_kind is None and page.screen == "play" and page.stored() == saved
        await page.tap("quit")
        await page.tap("quit-confirm")
        assert page.screen == "home" and page.has(f"new-{FIRST_GAME}")
        assert page.stored() is None

    run(steps)
