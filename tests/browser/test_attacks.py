"""Attacking the app (issue 7, items 1–9): two tabs, full storage, tampered keys, crafted record
files, double taps, unknown AI levels, hostile names, huge error messages, missing or damaged
game data. Each must end in a clear message with nothing lost and the app still working."""

from __future__ import annotations

import json
import random
import shutil

import pytest

from dicehall_browser import catalog, open_app, saved_table, tid, wait_ready, wait_sw_controlled
from pygame_core.ai import self_play
from pygame_core.registry import get_entry
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
FULL_STORAGE_JS = """() => {
  const original = Storage.prototype.setItem;
  window.__storageFull = true;
  Storage.prototype.setItem = function (key, value) {
    if (window.__storageFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return original.call(this, key, value);
  };
}"""


def people(n: int = 2, names=None) -> list[dict]:
    names = names or [f"P{i + 1}" for i in range(n)]
    return [{"name": names[i], "symbol": "●▲■◆★"[i], "ai": None} for i in range(n)]


def penta_table(*moves, seats=None) -> Table:
    table = Table("penta", seats or people(1))
    table.new_game(random.Random(4))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    return table


def stored(page) -> Table:
    return saved_table(page)


def rolls(page) -> int:
    return int(page.evaluate("document.querySelector('.penta-board').dataset.rolls"))


def toast(page) -> str:
    page.wait_for_selector("#toast:not([hidden])")
    return page.inner_text("#toast .toast-text")


# 1 -----------------------------------------------------------------------------------------
def test_two_tabs_one_writer(site, context, page):
    open_app(page, site, FAST, penta_table().dumps())
    other = context.new_page()
    other.goto(site.index)
    wait_ready(other)
    page.click(tid("roll"))  # tab A rolls: tab B catches up from the storage event
    other.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '1'")
    assert stored(other).state.to_json() == stored(page).state.to_json()
    # A tab that missed an event (here: storage changed under it without one) must not
    # overwrite the longer history: it takes it over and says so.
    ahead = stored(page)
    ahead.submit(ahead.state.current_player(), "keep", ahead.match.index)
    ahead.submit(-1, "roll 6 6 6 6 6", ahead.match.index)
    page.evaluate("s => localStorage.setItem('dicehall.table', s)", ahead.dumps())  # no event in this tab
    page.click(tid("die-0"))
    page.click(tid("roll"))
    assert toast(page) == catalog("en")["tabs.continued"]
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '2'")
    assert stored(page).record.moves == ahead.record.moves  # the longer history survived
    assert [d.get_attribute("data-value") for d in page.locator('[data-testid^="die-"]').all()] == ["6"] * 5
    other.close()


# 2 -----------------------------------------------------------------------------------------
def test_full_storage_is_told_play_goes_on_and_export_is_offered(site, page, tmp_path):
    open_app(page, site, FAST, penta_table("roll 1 2 3 4 5", "score chance").dumps())
    before = page.evaluate("localStorage.getItem('dicehall.table')")
    page.evaluate(FULL_STORAGE_JS)
    page.click(tid("roll"))
    assert toast(page) == catalog("en")["save.failed"]
    page.wait_for_selector(tid("unsaved"))
    assert rolls(page) == 1  # play goes on from memory
    assert page.evaluate("localStorage.getItem('dicehall.table')") == before  # nothing saved is lost
    with page.expect_download() as info:
        page.click(tid("unsaved-export"))
    path = tmp_path / "kept.json"
    info.value.save_as(path)
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert len(kept["moves"]) == 3 and kept["table"]["seats"][0]["name"] == "P1"
    page.evaluate("() => { window.__storageFull = false; }")  # space again: the next save clears it
    page.locator('[data-testid^="box-"]:enabled').first.click()
    page.click(tid("confirm"))
    page.wait_for_function("() => !document.querySelector('[data-testid=unsaved]')")
    assert len(stored(page).record.moves) == 4


# 3 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("settings, ui", [('"str"', '{"held": ["x"], "order": "no", "box": 5, "moves": 1}'),
                                         ("5", '"str"'), ('{"lang": 7, "hints": "yes"}', "5"), ("[{", "{")])
def test_bad_stored_keys_never_stop_the_app(site, page, settings, ui):
    table = penta_table("roll 1 2 3 4 5")
    page.goto(site.url + "sw-register.js")
    page.evaluate("""([t, s, u]) => { localStorage.clear(); localStorage.setItem('dicehall.table', t);
        localStorage.setItem('dicehall.settings', s); localStorage.setItem('dicehall.ui', u); }""",
                  [table.dumps(), settings, ui])
    page.goto(site.index)
    wait_ready(page)
    page.wait_for_selector(tid("scorecard"))  # the saved game is there
    assert rolls(page) == 1
    assert toast(page) == catalog("en")["settings.reset"]
    page.locator('[data-testid^="box-"]:enabled').first.click()
    page.click(tid("confirm"))
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '0'")


# 4 -----------------------------------------------------------------------------------------
def test_crafted_records_are_refused_and_the_game_is_kept(site, page, tmp_path):
    table = penta_table("roll 1 2 3 4 5")
    open_app(page, site, FAST, table.dumps())
    page.click(tid("nav-home"))
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "dicehall-record", "options": ' + "[" * 6000 + "]" * 6000 + "}")
    page.set_input_files(tid("import-file"), str(deep))
    assert toast(page) == catalog("en")["record.not_a_record"]
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 2_100_000)
    page.set_input_files(tid("import-file"), str(huge))
    page.wait_for_function("() => document.querySelector('#toast .toast-text')?.textContent === "
                           + json.dumps(catalog("en")["record.too_big"]))
    assert stored(page).dumps() == table.dumps()  # the game in progress is intact
    page.click(tid("continue"))  # and the runtime is alive: play on
    page.locator('[data-testid^="box-"]:enabled').first.click()
    page.click(tid("confirm"))
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '0'")


def test_import_asks_before_replacing_and_brings_its_table(site, page, tmp_path):
    record, _ = self_play("penta", ["greedy", "beginner"], seed=3)
    theirs = Table("penta", [{"name": "Åse", "symbol": "★", "ai": "greedy"}, {"name": "Lin", "symbol": "◆", "ai": None}])
    theirs.new_game(random.Random(1))
    for seat, move in record.moves[:40]:
        theirs.submit(seat, move, theirs.match.index)
    path = tmp_path / "theirs.json"
    path.write_text(json.dumps(theirs.export()), encoding="utf-8")
    mine = penta_table("roll 1 2 3 4 5")
    open_app(page, site, FAST, mine.dumps())
    page.click(tid("nav-home"))
    page.set_input_files(tid("import-file"), str(path))
    page.wait_for_selector(tid("import-cancel"))  # asked first
    page.click(tid("import-cancel"))
    assert stored(page).dumps() == mine.dumps()
    page.set_input_files(tid("import-file"), str(path))
    page.click(tid("import-confirm"))
    page.wait_for_selector(tid("scorecard"))
    imported = stored(page)
    assert imported.seats == theirs.seats  # names, symbols and computer levels came with it
    # the game goes on from their position (the computer seat may have moved on already)
    assert imported.record.to_json()["moves"][:40] == theirs.record.to_json()["moves"]


# 5 -----------------------------------------------------------------------------------------
def test_a_double_tap_is_one_action(site, page):
    open_app(page, site, FAST, penta_table().dumps())
    page.dblclick(tid("roll"))
    page.wait_for_timeout(600)
    assert rolls(page) == 1 and len(stored(page).record.moves) == 1
    finished, _ = self_play("penta", ["beginner"], seed=2)
    done = Table("penta", people(1))
    done.new_game(random.Random(1))
    for seat, move in finished.moves:
        done.submit(seat, move, done.match.index)
    open_app(page, site, FAST, done.dumps())
    page.wait_for_selector(tid("play-again"))
    page.dblclick(tid("play-again"))  # the second tap lands on Roll: it must not roll
    page.wait_for_selector(tid("roll"))
    page.wait_for_timeout(600)
    assert rolls(page) == 0 and len(stored(page).record.moves) == 0


# 6 -----------------------------------------------------------------------------------------
def test_unknown_computer_level_is_mapped_with_a_message(site, page):
    table = penta_table(seats=[{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bot", "symbol": "▲", "ai": "greedy"}])
    data = table.to_json()
    data["seats"][1]["ai"] = "godlike"
    data["seats"][0]["ai"] = None
    open_app(page, site, FAST, json.dumps(data))
    assert toast(page) == catalog("en")["save.level_mapped"]
    page.wait_for_function("""() => document.querySelector('[data-testid=roll]') &&
        !document.querySelector('[data-testid=roll]').disabled""", timeout=60000)  # the computer played (or waits)
    saved = stored(page)
    assert saved.seats[1]["ai"] == get_entry("penta").setup_level


# 7 -----------------------------------------------------------------------------------------
def test_hostile_names_are_capped_and_isolated(site, page):
    table = penta_table("roll 1 2 3 4 5", seats=people(2, ["\u202eevil", "Bo"]))
    data = table.to_json()
    data["seats"][1]["name"] = "W" * 10_000
    page.set_viewport_size({"width": 360, "height": 740})
    open_app(page, site, FAST, json.dumps(data))
    page.wait_for_selector(tid("scorecard"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert all(len(s["name"]) <= 24 for s in stored(page).seats)
    # every place a name is drawn isolates it, so the bidi override cannot reverse what follows
    names = page.eval_on_selector_all(".pname", "els => els.map(e => [e.tagName, getComputedStyle(e).unicodeBidi])")
    assert names and all(tag == "BDI" for tag, _ in names)
    page.click(tid("roll"))  # the announcement names the player: isolated too
    live = page.evaluate("document.getElementById('live').textContent")
    assert "\u2068" in live and "\u2069" in live


# 8 -----------------------------------------------------------------------------------------
def test_error_messages_are_short_and_close(site, page, tmp_path):
    open_app(page, site, FAST, penta_table().dumps())
    page.click(tid("nav-home"))
    record = {"format": "dicehall-record", "version": 2, "game": "penta", "options": {"players": 1},
              "moves": [[-1, "roll " + "1 " * 2_000_00 + "1"]]}
    path = tmp_path / "bad-move.json"
    path.write_text(json.dumps(record))
    page.set_input_files(tid("import-file"), str(path))
    text = toast(page)
    assert len(text) <= 240 and "Move 1" in text
    box = page.locator("#toast").bounding_box()
    assert box["height"] < 160
    page.click(tid("toast-close"))
    assert page.locator("#toast").is_hidden()
    assert page.locator(tid("new-penta")).is_enabled()


# 9 -----------------------------------------------------------------------------------------
def test_missing_or_damaged_game_data_never_costs_the_offline_shell(make_site, context, page):
    site = make_site()
    values = site.dist / "data" / "penta" / "values.bin"
    kept = values.read_bytes()
    values.unlink()  # the server lost the file: the shell must still install and work offline
    page.goto(site.index)
    wait_ready(page)
    wait_sw_controlled(page)
    page.click(tid("new-penta"))
    page.wait_for_selector(tid("start-game"))
    page.click(tid("start-game"))
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    page.wait_for_selector(tid("scorecard"))  # the game resumes offline
    context.set_offline(False)
    values.write_bytes(kept[: len(kept) // 2])  # a truncated copy: refused, not loaded
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
    nan = bytearray(kept)
    nan[32:] = b"\x00\x00\xc0\x7f" * ((len(kept) - 32) // 4)  # NaN everywhere, right size and header
    values.write_bytes(bytes(nan))
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
    values.write_bytes(kept)  # the good file again: it loads
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'loaded'", timeout=30000)
    assert "Dice Hall needs JavaScript" in page.evaluate("document.querySelector('noscript').textContent")
