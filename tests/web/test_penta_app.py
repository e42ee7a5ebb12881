"""Penta through the whole app under CPython (tests/web/fakepage.py), moved here from the browser
suite (tests/browser/test_penta_ui.py keeps what needs Chromium: the whole game by clicks with
the hint and the review at 360 px, the table fetched lazily and offline and Expert in the AI
worker, the missing table). Here: a reload resumes the exact position, what cannot be done is
disabled and explained, the countdown writes the computer's optimal choice and Wait stops it,
the set-up offers the levels, hints and the review after a finished game in English and Arabic
against the solver, and Expert plays every decision optimally."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.ai import self_play
from pygame_core.games.penta import solver
from pygame_core.table import Table
from support import load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")
REAL_SLEEP = asyncio.sleep  # (the fixture makes asyncio.sleep instant; this one lets a task run)


# --- helpers -------------------------------------------------------------------------------------
def by_id(page: FakePage, element_id: str):
    return next((el for el in page.app.walk() if el.get("id") == element_id), None)


def with_prefix(page: FakePage, prefix: str, enabled: bool | None = None) -> list:
    """The elements whose testid starts with `prefix`, in the order drawn (only the enabled or
    disabled ones when asked)."""
    return [el for el in page.app.walk() if el.testid and el.testid.startswith(prefix)
            and (enabled is None or enabled != el.disabled)]


def rolls(page: FakePage) -> str:
    return next(el for el in page.app.walk() if "penta-board" in el.get("class", "").split()).get("data-rolls")


def snapshot(page: FakePage) -> dict:
    """What a player sees of the position (the browser test's snapshot)."""
    card = next(el for el in page.app.walk() if el.testid == "scorecard")
    return {
        "seat": page.find("play").get("data-seat"),
        "rolls": rolls(page),
        "dice": [el.get("data-value") + ("H" if el.get("aria-pressed") == "true" else "")
                 for el in with_prefix(page, "die-")],
        "card": "|".join(" ".join(td.text().split()) for td in card.walk() if td.tag == "td"),
        "prompt": page.text("prompt"),
        "selected": [el.testid for el in with_prefix(page, "box-") if el.get("aria-pressed") == "true"],
        "rollsLeft": page.text("rolls-left"),
    }


async def set_up(page: FakePage, kinds: list[str]) -> None:
    await page.tap("new-penta")
    await page.tap(f"seats-{len(kinds)}")
    for i, kind in enumerate(kinds):
        await page.select(f"seat-{i}-kind", kind)
    await page.tap("start-game")


async def take_the_phone(page: FakePage) -> None:
    if page.has("handover-ok"):
        await page.tap("handover-ok")


async def play_round(page: FakePage) -> None:
    """A person's round: roll once, pick the first allowed box, confirm."""
    await take_the_phone(page)
    await page.tap("roll")
    await page.tap(with_prefix(page, "box-", enabled=True)[0].testid)
    await page.tap("confirm")


def solo_table(*moves: str, name: str = "Ann") -> Table:
    table = Table("penta", [{"name": name, "symbol": "●", "ai": None}])
    table.new_game(random.Random(3))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    return table


async def open_position(table: Table, settings: dict | None = None, lang: str | None = None) -> FakePage:
    """A page booted on a stored table (as a tab reopened on it)."""
    page = FakePage(lang=lang, settings={"animations": False, "autofill": False, **(settings or {})})
    page.browser.items["dicehall.table"] = table.dumps()
    page.browser.items["dicehall.ui"] = json.dumps({"held": [], "order": [0, 1, 2, 3, 4], "box": None,
                                                    "moves": table.match.index})
    page.location = "#/play"
    await page.boot()
    assert page.has("scorecard")
    return page


# --- playing --------------------------------------------------------------------------------------
def test_a_reload_resumes_the_exact_position_held_dice_and_a_pending_box_included():
    """Mid-round, with dice held, a hold not rolled yet and a box chosen but not confirmed: the
    page loaded again shows exactly the same (the pending choices are saved with the game)."""
    async def steps():
        page = FakePage(lang="en", seed=4)
        await page.boot()
        await set_up(page, ["person", "person"])
        await play_round(page)  # the first seat's round (whoever starts)
        assert page.has("handover-ok")
        await take_the_phone(page)
        await page.tap("roll")
        await page.tap("die-0")
        await page.tap("die-3")
        await page.tap("roll")  # keep 2 dice, roll 3
        await page.tap("die-1")  # a pending hold, not yet rolled
        await page.tap(with_prefix(page, "box-", enabled=True)[2].testid)  # a pending box choice
        before = snapshot(page)
        assert before["rolls"] == "2" and before["dice"][0].endswith("H") and before["dice"][1].endswith("H")
        assert before["selected"]
        again = page.reload()
        await again.boot()
        assert snapshot(again) == before
        assert not page.errors and not again.errors

    run(steps)


def test_what_cannot_be_done_is_disabled_and_explained():
    """Before rolling there is no box and no Confirm; five held dice cannot be rolled (said why);
    Space on a held die lets it go; the forced joker leaves only Fours, the other boxes disabled
    with the reason."""
    async def steps():
        text = load_catalog("en", "penta")
        page = FakePage(lang="en", seed=2)
        await page.boot()
        await set_up(page, ["person"])
        assert with_prefix(page, "box-") == []  # before rolling: no box, no Confirm
        assert not page.enabled("confirm") and not page.enabled("die-0")
        await page.tap("roll")
        for k in range(5):
            await page.tap(f"die-{k}")
        assert not page.enabled("roll")
        assert page.text("hint-keep-all") == text["penta.keep_all"]
        page.focused = "die-4"
        await page.press(" ")
        assert page.find("die-4").get("aria-pressed") == "false" and page.enabled("roll")
        # the forced joker: only Fours may take five fours; the other boxes are disabled with a reason
        page = await open_position(solo_table("roll 6 6 6 6 6", "score penta", "roll 4 4 4 4 4"))
        assert page.has("joker-note")
        enabled = with_prefix(page, "box-", enabled=True)
        assert [el.testid for el in enabled] == ["box-fours"]
        assert not page.enabled("box-chance") and "Fours" in page.text("joker-note")
        assert page.find("box-chance").get("aria-describedby") == "joker-note"
        assert page.find("box-fours").inner_text().startswith("20")

    run(steps)


def countdown_texts(page: FakePage) -> list[str]:
    """Record every text the countdown shows (drawn, or its number changed in place)."""
    seen: list[str] = []
    draw, set_text = page.draw, page.set_text

    def drawn(*args):
        draw(*args)
        if by_id(page, "countdown") is not None:
            seen.append(by_id(page, "countdown").inner_text())

    def changed(element_id, text):
        if element_id == "countdown":
            seen.append(text)
        return set_text(element_id, text)

    page.draw, page.set_text = drawn, changed
    return seen


async def third_roll_with_countdown(page: FakePage) -> None:
    """The third roll, and the countdown it starts caught while it runs (not left to finish)."""
    page.click("roll")
    for _ in range(1000):
        if page.has("stop-countdown"):
            return
        await REAL_SLEEP(0)
    raise AssertionError("no countdown after the third roll")


def test_the_countdown_writes_the_computers_optimal_choice_and_wait_stops_it():
    """Autofill on: after the third roll the countdown says 3, 2, 1, then writes the box the
    optimal strategy chooses; "Wait" stops it for that position and nothing is written; so does
    any other touch."""
    async def steps():
        page = FakePage(lang="en", settings={"autofill": True}, seed=6)
        await page.boot()
        await set_up(page, ["person"])
        seen = countdown_texts(page)
        for _ in range(3):
            await page.tap("roll")
        en = load_catalog("en")
        assert {en["play.countdown"].replace("{n}", str(n)) for n in (3, 2, 1)} <= set(seen)
        record = page.table().record
        assert record.moves[-1][1].startswith("score ")
        assert record.moves[-1][1] == solver.best_move(record.replay(len(record.moves) - 1))
        assert rolls(page) == "0" and not page.has("countdown")
        # "Wait" stops it for this position (a box choice would cancel it too)
        await page.tap("roll")
        await page.tap("roll")
        await third_roll_with_countdown(page)
        await page.tap("stop-countdown")
        assert not page.has("countdown") and rolls(page) == "3"
        assert len([el for el in with_prefix(page, "cell-0-") if "filled" in el.get("class", "").split()]) == 1
        moves = list(page.table().record.moves)
        await page.idle()  # its seconds would be over by now: still nothing written
        assert rolls(page) == "3" and page.table().record.moves == moves and not page.has("countdown")
        # any touch or key stops it too (the page reports each as activity)
        await page.tap(with_prefix(page, "box-", enabled=True)[0].testid)
        await page.tap("confirm")
        await page.tap("roll")
        await page.tap("roll")
        await third_roll_with_countdown(page)
        moves = list(page.table().record.moves)
        page.shell.activity()
        await page.idle()
        assert not page.has("countdown") and rolls(page) == "3" and page.table().record.moves == moves
        assert not page.errors

    run(steps)


def test_the_setup_offers_the_levels_and_the_middle_one_is_the_default():
    async def steps():
        en = load_catalog("en", "penta")
        page = FakePage(lang="en")
        await page.boot()
        await page.tap("new-penta")
        await page.tap("seats-2")
        options = [o for o in page.find("seat-1-kind").walk() if o.tag == "option"]
        names = [" ".join(o.text().split()) for o in options]
        assert any(en["penta.level.optimal"] in n for n in names) and any(en["penta.level.greedy"] in n for n in names)
        assert [o.get("value") for o in options if "selected" in o.attrs] == ["ai:greedy"]

    run(steps)


# --- the exact optimal strategy ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_hint_shows_the_optimal_moves_and_apply_marks_them(lang):
    """Hints are off by default (Settings shows them unchecked); on, the hint lists the solver's
    best moves with their expectations, in words, said aloud; Apply marks the dice and the
    player still rolls; the hint is gone until asked again."""
    async def steps():
        table = solo_table("roll 6 6 6 6 2")
        if lang == "en":
            page = await open_position(table)
            assert not page.has("hint")
            await page.tap("nav-settings")
            assert "checked" not in page.find("set-hints").attrs
        page = await open_position(table, {"hints": True}, lang=lang)
        await page.tap("hint")
        expected = solver.advise(table.state)
        shown = [(el.get("data-move"), float(el.get("data-expected")), el.text())
                 for el in with_prefix(page, "hint-option-")]
        assert len(shown) == min(4, len(expected))
        for (move, value, _), want in zip(shown, expected):
            assert move == want["move"] and value == pytest.approx(want["value"], abs=1e-3)
        words = load_catalog(lang, "penta")["penta.move.keep"].replace("{dice}", "6 6 6 6")
        assert shown[0][2].startswith(words)
        assert any("6 6 6 6" in said for said in page.spoken)  # announced
        await page.tap("hint-apply")  # marks the four sixes; the player still rolls
        assert len([el for el in with_prefix(page, "die-") if el.get("aria-pressed") == "true"]) == 4
        assert rolls(page) == "1"
        await page.tap("roll")
        assert rolls(page) == "2"
        assert not page.has("hint-option-0")  # gone until asked again
        assert page.table().record.moves[-2][1] == "keep 6 6 6 6"
        assert not page.errors

    run(steps)


def polylines(page: FakePage, testid: str) -> int:
    return len([el for el in page.find(testid).walk() if el.tag == "polyline"])


def check_review(page: FakePage, want: dict) -> None:
    """Each seat's loss, curve and costliest mistakes as the solver grades them (`want`)."""
    for s, entry in enumerate(want["seats"]):
        loss = page.find(f"review-loss-{s}")
        assert float(loss.get("data-loss")) == pytest.approx(entry["total_loss"], abs=1e-3)
        assert page.text(f"review-loss-{s}") == f"{entry['total_loss']:.1f}"
        values = page.find(f"review-plot-curve-{s}").get("data-values").split(",")
        assert [float(v) for v in values] == pytest.approx(entry["curve"], abs=1e-3)
        shown = [int(el.get("data-index")) for el in with_prefix(page, "review-mistake") if el.get("data-seat") == str(s)]
        assert shown == [m["index"] for m in entry["mistakes"][:len(shown)]]
        assert len(shown) == min(3, len(entry["mistakes"]))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_review_after_a_finished_game_grades_every_decision(lang):
    """A finished game's record imported: the review's losses, curves and mistakes are the
    solver's; one player at a time shows that player's curve and five costliest mistakes."""
    async def steps():
        record = self_play("penta", ["greedy", "beginner"], seed=11)[0]
        page = FakePage(lang=lang)
        await page.boot()
        await page.choose_file(record.dumps())
        assert page.screen == "results"
        await page.tap("review-open")
        assert polylines(page, "review-plot") == 2
        want = solver.review(record)
        check_review(page, want)
        await page.tap("review-seat-1")  # one player at a time
        assert page.find("review-seat-1").get("aria-pressed") == "true"
        assert polylines(page, "review-plot") == 1
        assert len(with_prefix(page, "review-mistake")) == min(5, len(want["seats"][1]["mistakes"]))
        await page.tap("review-seat-all")
        assert polylines(page, "review-plot") == 2
        assert not page.errors

    run(steps)


def test_expert_plays_every_decision_optimally():
    """The Expert level (the computer's choices; the worker's own run is the browser's test):
    a whole solo game with no expected points given away, and the review says so."""
    async def steps():
        page = FakePage(lang="en", settings={"pace": "fast"}, seed=8)
        await page.boot()
        await set_up(page, ["ai:optimal"])
        assert page.screen == "results"
        graded = solver.review(page.table().record)["seats"][0]
        assert len(graded["decisions"]) >= 13 and graded["total_loss"] == pytest.approx(0.0, abs=1e-6)
        await page.tap("review-open")
        assert page.has("review-none-0")

    run(steps)
