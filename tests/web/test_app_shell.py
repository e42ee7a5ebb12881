"""The whole app through its shell under CPython (tests/web/fakepage.py): every registered game —
the fixture games and any added from outside the project included — from Home through set-up
(every option), play, results, Play again, quitting, History, export and import, and another
tab's save taken over, in all five languages; and one context build and one render per tap."""

from __future__ import annotations

import json
import random

import pytest

from fakehost import run
from fakepage import Browser, FakePage
from pygame_core.ai import self_play
from pygame_core.registry import entries, get_entry
from support import LANGS, load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")

GAMES = list(entries())
# The platform's own controls on the play screen (not the game's).
PLATFORM = {"export", "go", "quit", "view-seat", "hint", "hint-apply", "stop-countdown", "review-open",
            "review-seat", "close-toast"}


def words(lang: str, game: str | None = None) -> dict:
    return load_catalog(lang, game)


def game_controls(page: FakePage) -> list[str]:
    """The testids of the enabled controls of the game itself on the play screen."""
    play = next((el for el in page.app.walk() if el.testid in ("play", "handover")), None)
    if play is None:
        return []
    return [el.testid for el in play.walk() if el.testid and el.get("data-action")
            and el.get("data-action") not in PLATFORM and not el.disabled]


async def set_up(page: FakePage, game: str, kinds: list[str], options: dict | None = None) -> None:
    """From Home: the set-up of `game` with these seats ("person" or "ai:<level>") and options."""
    await page.tap(f"new-{game}")
    assert page.screen == "setup"
    if page.has(f"seats-{len(kinds)}"):
        await page.tap(f"seats-{len(kinds)}")
    for name, value in (options or {}).items():
        await page.tap(f"option-{name}-{value}")
    for i, kind in enumerate(kinds):
        await page.select(f"seat-{i}-kind", kind)


@pytest.mark.parametrize("game", GAMES)
def test_a_tap_builds_the_play_context_once_and_draws_one_screen(game):
    """Two people at one screen: each tap on the game's own controls (a move, a throw, a
    selection, the hand-over card's OK) builds one PlayContext, draws one screen and says at most
    one sentence in the live region."""
    async def steps():
        page = FakePage(lang="en", seed=3)
        await page.boot()
        rules = get_entry(game).rules
        await set_up(page, game, ["person"] * max(2, rules.min_players))
        await page.tap("start-game")
        rng = random.Random(7)
        play, taps = page.shell.play, 0
        for _ in range(40):
            controls = game_controls(page)
            if not controls or play.table.state.is_terminal():
                break
            renders, contexts, said = page.shell.renders, play.contexts_built, len(page.spoken)
            await page.tap(rng.choice(controls))
            assert page.shell.renders - renders == 1, (game, page.screen)
            assert play.contexts_built - contexts == (1 if page.has("play") else 0), game
            assert len(page.spoken) - said <= 1, page.spoken[said:]
            taps += 1
        assert taps >= 10 and not page.errors

    run(steps)


def option_choices(game: str) -> list[dict]:
    """Every value of every option of the game, each set once (the other options at their default)."""
    schema = get_entry(game).rules.option_schema
    return [{}] + [{name: value} for name, spec in schema.items() for value in spec["choices"] if value != spec["default"]]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_game_from_home_to_history_and_back_by_its_record(game, lang):
    """Set-up with each option, the computer at its weakest level in every seat, played to the
    results (the options shown), Play again (the table and its standings go on), quit, History
    lists the game, and its exported record imported again opens on its results."""
    async def steps():
        page = FakePage(lang=lang, seed=11)
        await page.boot()
        assert page.document == {"lang": lang, "dir": "rtl" if lang == "ar" else "ltr",
                                 "title": words(lang)["app.title"]}
        entry, text = get_entry(game), words(lang, game)
        weakest = entry.player_levels[0]
        for options in option_choices(game):
            await set_up(page, game, [f"ai:{weakest}"] * entry.rules.min_players, options)
            await page.tap("start-game")
            assert page.screen == "results", options  # the computer played it all
            table = page.table()
            assert table.state.is_terminal() and options.items() <= table.extra_options.items()
            assert page.text("results").startswith(words(lang)["results.heading"])
            if entry.rules.option_schema:
                shown = page.text("results-options")
                assert all(text[f"{game}.option.{name}"] in shown for name in entry.rules.option_schema)
            await page.tap("export-record")
            record = page.downloads[-1][1]
            games, starts = table.standings.games, table.start_seats
            await page.tap("play-again")  # the same table, the next start seat, the standings go on
            again = page.table()
            assert again.table_id == table.table_id and again.start_seats[:-1] == starts
            assert again.start_seats[-1] == (starts[-1] + 1) % len(again.seats)
            assert again.standings.games == games + again.state.is_terminal()
            if page.screen == "play":
                await page.tap("quit")
                await page.tap("quit-confirm")
            else:
                await page.tap("nav-home")
            assert page.screen == "home"
        await page.tap("nav-history")
        assert text[f"{game}.title"] in page.text("history-list")
        await page.tap("nav-home")
        await page.choose_file(record)
        assert page.screen == "results" and page.shell.play.table.record.to_json() == \
            {k: v for k, v in json.loads(record).items() if k != "table"}
        assert not page.errors

    run(steps)


def test_the_setup_offers_each_option_and_remembers_it_with_the_seats():
    async def steps():
        page = FakePage(lang="en", seed=5)
        await page.boot()
        await set_up(page, "cephalopod", ["person", "ai:easy"], {"size": 4})
        assert "seats-2" not in page.testids()  # two players, always: no count to choose
        assert page.find("option-size-4").get("aria-pressed") == "true"
        kinds = [o.get("value") for o in page.find("seat-1-kind").walk() if o.tag == "option"]
        assert "ai:flatmc" not in kinds and "ai:hard" in kinds  # measuring-only levels are not offered
        await page.type("seat-0-name", "Ada")
        await page.tap("start-game")
        assert page.shell.play.table.state.size == 4 and page.table().extra_options == {"size": 4}
        assert len([el for el in page.app.walk() if el.get("data-action") == "place"]) == 16
        await page.tap("quit")
        await page.tap("quit-confirm")
        await page.tap("new-cephalopod")  # remembered: the board, the names, the levels
        assert page.find("option-size-4").get("aria-pressed") == "true"
        assert page.find("seat-0-name").get("value") == "Ada"
        assert [o.get("value") for o in page.find("seat-1-kind").walk() if "selected" in o.attrs] == ["ai:easy"]

    run(steps)


def finished_record(game: str, seed: int = 9):
    record, _ = self_play(game, [get_entry(game).setup_level] * get_entry(game).rules.min_players, seed=seed)
    return record


def test_export_then_import_a_record_and_junk_is_refused_with_the_game_kept():
    async def steps():
        page = FakePage(lang="en", seed=2)
        await page.boot()
        await set_up(page, "penta", ["person", "ai:greedy"])
        await page.tap("start-game")
        await page.tap("roll")
        await page.tap("export-record")
        name, text = page.downloads[-1]
        assert name.startswith("dicehall-penta-") and name.endswith(".json")
        exported = json.loads(text)
        assert exported.pop("table")["seats"][1]["ai"] == "greedy"
        assert exported == page.shell.play.table.record.to_json()
        await page.tap("nav-home")
        en = words("en")
        for junk, key in ((b'{"format": "something else"}', "record.not_a_record"), (b"\xff\xfe{", "record.not_json")):
            await page.choose_file(junk)
            assert page.toasts[-1] == en[key], junk
        await page.choose_file(b"x", size=3_000_000)
        assert page.toasts[-1] == en["record.too_big"]
        saved = page.stored()
        await page.choose_file(text)  # the unfinished game would be replaced: asked first
        assert page.shell.dialog_kind == "import"
        await page.tap("import-cancel")
        assert page.stored() == saved and page.screen == "home"
        await page.choose_file(text)
        await page.tap("import-confirm")
        assert page.screen == "play" and page.table().record.moves == page.shell.play.table.record.moves
        record = finished_record("rolf")  # a finished game's record opens on its results
        await page.tap("nav-home")
        await page.choose_file(record.dumps())
        await page.tap("import-confirm")
        assert page.screen == "results" and page.shell.play.table.game == "rolf"

    run(steps)


@pytest.mark.parametrize("lang", LANGS)
def test_another_tab_moves_on_and_this_one_takes_its_save_over(lang):
    """Two tabs on one game: the one behind catches up; when both moved on differently, the one
    that saves last takes the other's game and says so; nothing is overwritten."""
    async def steps():
        browser = Browser()
        one = FakePage(browser, lang=lang, seed=1)
        await one.boot()
        await set_up(one, "penta", ["person", "person"])
        await one.tap("start-game")
        two = FakePage(browser, seed=2)
        two.location = "#/play"
        await two.boot()
        assert two.shell.play.table.record.moves == one.shell.play.table.record.moves
        await one.tap("roll")  # tab one moves on: tab two catches up by itself
        await two.idle()
        assert two.shell.play.table.record.moves == one.shell.play.table.record.moves
        moves = list(one.shell.play.table.record.moves)
        one.browser.pages.remove(two)  # tab two misses the next save (its storage event is lost)
        await one.tap("roll")
        one.browser.pages.append(two)
        ahead = one.stored()
        await two.tap("roll")  # two rolls from the old position: storage has another history
        assert one.stored() == ahead, "never overwritten"
        assert two.shell.play.table.record.moves == one.shell.play.table.record.moves
        assert len(moves) < len(one.shell.play.table.record.moves)
        assert two.toasts[-1] == words(lang)["tabs.continued"]

    run(steps)
