"""Issue 28: one validator for what is stored (pygame_core.schema through store.Store.load) — a
value that fails is set aside as it was, said once, offered for Export in Settings, and never
stops the app or condemns a sound save; a first screen that cannot be drawn falls back to Home
and says what failed. CPython, the real shell on tests/web/fakepage.py."""

from __future__ import annotations

import json

import pytest
from dicehall import controller, store
from dicehall.screens import history
from fakehost import run
from fakepage import FakePage
from support import mid_game_table
from test_catalogs import SHARED

from pygame_core.schema import Fields, Int, ListOf

pytestmark = pytest.mark.usefixtures("instant_sleep")
EN = SHARED["en"]
COUNTS = ListOf(Fields({"n": Int(0, 9)}), 10, salvage=True)


class Dict:
    def __init__(self, full: bool = False) -> None:
        self.items, self.full = {}, full

    def get(self, key):
        return self.items.get(key)

    def set(self, key, value):
        if self.full and key == store.ASIDE:
            raise OSError("QuotaExceededError")
        self.items[key] = value

    def remove(self, key):
        self.items.pop(key, None)


def test_a_value_that_fails_its_schema_is_set_aside_once_and_the_rest_is_kept():
    backend = Dict()
    kept = store.Store(backend, clock=lambda: 1000)
    assert kept.load("k", COUNTS, []) == [] and kept.news == [] and kept.aside() == {}  # nothing stored
    backend.items["k"] = '[{"n": 1}, {"n": 1e999}, {"n": [1]}, {"n": 2}]'
    assert kept.load("k", COUNTS, []) == [{"n": 1}, {"n": 2}]  # the sound items
    assert kept.news == ["k"]
    entry = kept.aside()["k"]
    assert entry["text"] == backend.items["k"] and entry["when"] == 1000  # as it was, for Export
    assert [path for path, _ in entry["problems"]] == ["$[1].n", "$[2].n"]
    kept.news.clear()
    kept.load("k", COUNTS, [])
    assert kept.news == []  # the same text is not said twice
    assert backend.items["k"].startswith('[{"n": 1}, {"n": 1e999}')  # the key itself is left alone

    for text, why in (("[{", "not readable JSON"), ("[" * 30 + "]" * 30, "too deep"), ('{"n": 1}', "not a list")):
        backend.items["k"] = text
        assert kept.load("k", COUNTS, ["default"]) == ["default"]
        assert why in kept.aside()["k"]["problems"][0][1]


def test_what_storage_will_not_keep_is_still_offered_for_this_visit():
    backend = Dict(full=True)
    kept = store.Store(backend)
    backend.items["k"] = "nonsense"
    assert kept.load("k", COUNTS, []) == []
    assert kept.aside()["k"]["text"] == "nonsense" and kept.news == ["k"]


def test_a_poisoned_history_entry_is_set_aside_and_the_game_ends_in_its_results():
    """Issue 28, item 1: a history entry with a list for its game made the last move of any game
    show "Something went wrong" and the sound game was then offered for discard."""
    async def steps():
        page = FakePage(settings={})
        table = mid_game_table("penta", persons=1)
        table.seats[0]["ai"] = table.seats[0]["ai"] or "greedy"  # the computer plays it to its end
        page.browser.items["dicehall.table"] = table.dumps()
        bad = [{"game": [], "id": "a", "ended": 1, "seats": []},
               {"game": "penta", "id": "b", "ended": 1, "seats": [{"name": "Z", "ai": None, "score": 10**400,
                                                                     "place": 1}]}]
        page.browser.items["dicehall.history"] = json.dumps(bad)
        page.location = "#/play"
        await page.boot()
        await page.idle()
        assert page.screen == "results" and not page.errors
        assert [item["id"] for item in page.shell.life.history()] == [f"{page.table().table_id}:1"]
        assert any(toast.startswith(EN["aside.said"].split("{what}")[0]) for toast in page.toasts)
        await page.tap("nav-settings")
        assert page.has("set-aside")
        await page.tap("aside-export")
        name, text = page.downloads[-1]
        assert name == "dicehall-set-aside.json" and json.loads(json.loads(text)["dicehall.history"]["text"]) == bad
        await page.tap("aside-delete")
        assert not page.has("set-aside") and "dicehall.aside" not in page.browser.items

    run(steps)


@pytest.mark.parametrize("route, screen, broken", [("#/history", "History", "history"),
                                                   ("#/play", "The game", "play")])
def test_a_first_screen_that_cannot_be_drawn_falls_back_to_home_and_says_what_failed(monkeypatch, route, screen,
                                                                                      broken):
    def fail(*args, **kwargs):
        raise RuntimeError("drawing failed")

    if broken == "history":
        monkeypatch.setattr(history, "render", fail)
    else:
        monkeypatch.setattr(controller.PlayController, "render_body", fail)

    async def steps():
        page = FakePage(settings={}, strict=False)
        saved = mid_game_table("penta").dumps()
        # (a running game opens on its play screen, whatever the address: History is tried alone)
        page.browser.items["dicehall.table" if broken == "play" else "dicehall.parked"] = \
            saved if broken == "play" else json.dumps({"penta": saved})
        page.location = route
        await page.boot()
        assert page.ready and page.screen == "home" and page.location.endswith("#/home")
        said = EN["boot.screen_failed"].format(screen=screen, cause="RuntimeError: drawing failed")
        assert said in page.toasts
        # The game is kept, never condemned (no "could not be read", no Discard), and offered on Home.
        stored = page.browser.items["dicehall.table"] if broken == "play" else \
            json.loads(page.browser.items["dicehall.parked"])["penta"]
        assert stored == saved
        assert not page.has("save-error") and (page.has("continue") or page.has("continue-penta"))

    run(steps)


def test_an_error_in_any_event_is_said_in_words_never_left_to_paint_a_traceback(monkeypatch):
    """Issue 28, item 4: PyScript paints a raw traceback for an error an event handler lets
    through. Every event the page reports is heard through one guard (shell.heard)."""
    from dicehall import shell as shell_module

    def fail(*args, **kwargs):
        raise RuntimeError("boom")

    async def steps():
        page = FakePage(settings={})
        await page.boot()
        monkeypatch.setitem(shell_module.FIELDS, "pace", fail)
        monkeypatch.setattr(page.shell.play, "shortcut", fail)
        monkeypatch.setattr(page.shell.life, "storage_changed", fail)
        monkeypatch.setattr(page.shell, "route", fail)
        shell = page.shell
        for event in (lambda: shell.change("pace", "fast"), lambda: shell.key("r", None, "BODY"),
                      lambda: shell.storage_changed("dicehall.table", None), lambda: shell.hash_changed()):
            before = len(page.toasts)
            assert event() is False  # (no exception reached the page)
            assert len(page.toasts) == before + 1 and page.toasts[-1] == EN["error.unexpected"]
        assert len(page.errors) == 4 and all("boom" in e for e in page.errors)

    run(steps)
