"""Life around the table under CPython (issue 7, items 14, 15 and 18): one unfinished game per
game waits on Home (and is announced in words when taken up), set-ups remember names and give names that follow the seat's kind, finished
games make a history with personal bests and a result to share, the winners, and the screen kept
awake in play only. (The manifest, the "ready offline" card and the update banner need the
service worker: tests/browser/test_table_life.py.) The real shell on a fake page."""

from __future__ import annotations

import asyncio
import random

import pytest

from dicehall.shell import Shell
from fakehost import run
from fakepage import FakePage, LocalAssets
from pygame_core.ai import self_play
from pygame_core.registry import get_entry
from pygame_core.table import Table
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")

EN = load_catalog("en")
FAST = {"offline_noted": True}


def value(page: FakePage, testid: str) -> str:
    """What a form field holds: a text field's value, a select's chosen option."""
    el = page.find(testid)
    if el.tag == "select":
        chosen = [o.get("value") for o in el.walk() if o.tag == "option" and "selected" in o.attrs]
        return chosen[0] if chosen else next(o.get("value") for o in el.walk() if o.tag == "option")
    return el.get("value")


async def start_game(page: FakePage, game: str, kinds: list[str]) -> None:
    """From Home: a table of `game` with these seats ("person" or "ai:<level>")."""
    await page.tap(f"new-{game}")
    if page.has(f"seats-{len(kinds)}"):
        await page.tap(f"seats-{len(kinds)}")
    for i, kind in enumerate(kinds):
        await page.select(f"seat-{i}-kind", kind)
    await page.tap("start-game")
    assert page.screen == "play"


def test_an_unfinished_game_of_each_game_waits_on_home():
    """Starting another game puts the running one aside; Home offers both; the one taken up goes
    on where it was; a new game of a waiting one says it replaces it; all of it survives a reload."""
    async def steps():
        page = FakePage(settings=FAST)
        await page.boot()
        await start_game(page, "penta", ["person", "person"])
        await page.tap("roll")
        assert page.has("box-chance")
        penta = page.table()
        await page.tap("nav-home")
        await page.tap("new-rolf")
        assert page.screen == "setup" and not page.has("setup-replaces")  # no unfinished Rolf to replace
        await page.select("seat-1-kind", "person")
        await page.tap("start-game")
        assert page.screen == "play" and page.table().game == "rolf"
        await page.tap("nav-home")
        assert page.has("continue")  # Rolf, the running one
        await page.tap("continue-penta")  # Penta, put aside: it goes on where it was
        assert page.screen == "play" and page.has("box-chance")
        back = page.table()
        assert back.game == "penta" and back.table_id == penta.table_id
        assert back.record.to_json() == penta.record.to_json()
        await page.tap("nav-home")
        assert page.has("continue-rolf") and not page.has("continue-penta")
        await page.tap("new-rolf")  # a new Rolf says it replaces the waiting one
        assert page.has("setup-replaces")
        page = page.reload()  # what waits survives a reload
        await page.boot()
        await page.tap("nav-home")
        assert page.has("continue-rolf") and page.has("continue")
        await page.tap("continue-rolf")  # taken up after the reload, its words not loaded yet
        assert page.screen == "play" and page.table().game == "rolf"
        assert not page.errors

    run(steps)


def test_setup_remembers_names_and_default_names_follow_the_kind():
    async def steps():
        page = FakePage(settings=FAST)
        await page.boot()
        await page.tap("new-penta")
        assert value(page, "seat-1-kind") == f"ai:{get_entry('penta').setup_level}" == "ai:greedy"  # the middle level
        assert value(page, "seat-1-name") == EN["setup.default_ai_name"]
        await page.select("seat-1-kind", "person")  # the computer's name goes with it
        assert value(page, "seat-1-name") == "Player 2"
        await page.select("seat-0-kind", "ai:optimal")
        assert value(page, "seat-0-name") == "Computer"
        await page.type("seat-1-name", "Zoë")
        await page.select("seat-1-kind", "ai:beginner")  # a name a person typed stays
        assert value(page, "seat-1-name") == "Zoë"
        await page.select("seat-1-kind", "person")
        await page.tap("start-game")
        assert page.screen == "play"
        await page.tap("nav-home")
        await page.tap("new-penta")
        assert value(page, "seat-1-name") == "Zoë" and value(page, "seat-0-kind") == "ai:optimal"

    run(steps)


def test_a_finished_game_is_celebrated_kept_in_the_history_and_shared():
    async def steps():
        record, _ = self_play("penta", ["greedy", "greedy"], seed=4)
        page = FakePage(settings=FAST)
        await page.boot()
        await page.tap("nav-history")
        assert page.has("history-empty")
        await page.tap("nav-home")
        await page.choose_file(record.dumps())
        assert page.screen == "results"
        table = page.table()
        scores, places = table.state.scores(), table.state.ranking()
        winners = [table.seats[s]["name"] for s in range(2) if places[s] == 1]
        assert all(name in page.text("winners") for name in winners)
        bests = [el for el in page.find("results-bests").walk() if el.tag == "li"]
        assert len(bests) == 2  # both people, best first
        assert bests[0].text().split()[-1] == str(max(scores))
        page.share_answer = "shared"
        await page.tap("share-result")
        shared = page.shared[-1].replace("\u2068", "").replace("\u2069", "")  # names bidi-isolated
        assert "Penta" in shared and all(f"{table.seats[s]['name']} {scores[s]}" in shared for s in range(2))
        await page.tap("nav-home")
        await page.tap("nav-history")
        rows = [el.text() for el in page.find("bests-penta").walk() if el.tag == "tr" and el.parent.tag == "tbody"]
        assert rows and str(max(scores)) in rows[0]
        assert len([el for el in page.find("history-list").walk() if el.tag == "li"]) == 1
        page = page.reload()  # the finished game is back on its results; the history still holds it once
        await page.boot()
        assert page.screen == "results"
        await page.tap("nav-home")
        await page.tap("nav-history")
        assert len([el for el in page.find("history-list").walk() if el.tag == "li"]) == 1
        assert not page.errors

    run(steps)


def test_the_screen_stays_awake_in_play_only():
    """The shell asks the page for the wake lock on the play screen and lets it go elsewhere (the
    browser's side, web/feel.js, is checked in tests/browser/test_shell.py)."""
    async def steps():
        table = Table("penta", [{"name": "A", "symbol": "●", "ai": None}])
        table.new_game(random.Random(1))
        page = FakePage(settings=FAST)
        page.browser.items["dicehall.table"] = table.dumps()
        page.location = "#/play"
        await page.boot()
        assert page.screen == "play" and page.awake is True
        await page.tap("nav-rules")
        assert page.screen == "rules" and page.awake is False
        await page.tap("rules-back")
        assert page.screen == "play" and page.awake is True
        await page.tap("nav-home")
        assert page.screen == "home" and page.awake is False

    run(steps)


def test_the_computers_first_step_after_a_boot_waits_until_the_first_screen_is_shown():
    """A boot at a table where the computer is to move draws that table once; the computer's step
    (its thinking drawn, then its move) waits until the page says the screen has been shown
    (`Page.shown`: in the browser, after the next frame), so that the first frame is not held
    back behind it. The AI worker's start waits the same way (dicehall/browser.py)."""
    async def steps():
        seats = [{"name": "Bo", "symbol": "●", "ai": "easy"}, {"name": "Al", "symbol": "○", "ai": None}]
        table = Table("cephalopod", seats, {})
        table.new_game(next(random.Random(s) for s in range(100) if random.Random(s).randrange(2) == 0))
        assert table.state.current_players() == [0]  # the computer begins
        gate = asyncio.Event()

        class SlowFrame(FakePage):
            async def shown(self) -> None:
                await gate.wait()

        page = SlowFrame(settings=FAST)
        page.browser.items["dicehall.table"] = table.dumps()
        page.location = "#/play"
        page.shell = Shell(page, page.browser.backend(page), LocalAssets())
        await page.shell.start()
        for _ in range(200):
            await asyncio.sleep(0)
        assert page.screen == "play" and page.draws == 1
        assert page.table().match.index == 0 and not page.shell.play.thinking
        gate.set()
        await page.idle()
        assert page.draws > 1 and page.table().match.index > 0  # the computer has moved
        assert page.table().state.current_players() == [1] and not page.errors

    run(steps)
