"""Replays on a phone (issue 30, item 1): at 360×740 in English and Arabic, a finished game of each
kind opened from History and stepped through by its buttons, its keys and its scrub bar: the move
shown follows, nothing is past either edge of the phone, no element's words spill out of it, no
word of the log or a heading is broken across lines, the bar at the bottom covers nothing of
the page's end, and axe finds no serious violation. Screenshots in /tmp/shots/replay/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dicehall.shelf import history_entry
from dicehall_browser import (
    axe_violations,
    broken_words,
    catalog,
    no_raw_text,
    outside_the_viewport,
    tap,
    tid,
)

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.registry import get_entry
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}
GAMES = ("penta", "rolf", "geekout", "rollcraft", "cephalopod")
NAMES = ("Christoffer", "Annabelle", "Dag")
SHOTS = Path("/tmp/shots/replay")

# The replay's elements checked against the phone's edges (dicehall_browser.outside_the_viewport);
# inside a box that scrolls sideways on purpose (the seat bar's chips, as on the play screen) only
# that box counts.
REPLAY = ".replay *"
# The replay's own text (heading, position, the log), no word of it broken across lines.
REPLAY_TEXT = ".replay > h1, .replay > .meta, .replay-turn, .replay-turn span, .replay .actionbar button"

# Scrolled to the end, the page's last control (the log's last turn) is above the bar at the bottom.
END_CLEAR = """() => { scrollTo(0, document.documentElement.scrollHeight);
  const back = document.querySelector('.replay-turns > li:last-child').getBoundingClientRect();
  const bar = document.querySelector('.replay > .actionbar').getBoundingClientRect();
  return [Math.round(back.bottom), Math.round(bar.top)]; }"""


def finished(game: str, seed: int) -> Table:
    entry = get_entry(game)
    players = min(3, entry.rules.max_players)
    record, _ = self_play(game, [entry.player_levels[0]] * players, seed)
    extras = {k: v for k, v in record.options.items() if k not in ("players", "start")}  # (History checks them)
    table = Table(game, [{"name": name, "symbol": symbol, "ai": None} for name, symbol in zip(NAMES[:players], "●▲■")],
                  extras)
    table.match = Match.new(game, record.options)
    table.start_seats = [record.options.get("start", 0)]
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    return table


def stored() -> tuple[list, list]:
    """History and the kept records of one finished game of each kind."""
    history, kept = [], []
    for k, game in enumerate(GAMES):
        table = finished(game, 10 + k)
        item = history_entry(table, when=1_800_000_000 + k * 3600)
        history.append(item)
        kept.append({"id": item["id"], "seats": table.seats, "record": table.record.to_json()})
    return history, kept


def at(page) -> int:
    return int(page.get_attribute(tid("replay"), "data-at"))


def moved_to(page, index: int) -> None:
    page.wait_for_function("i => document.querySelector('[data-testid=replay]')?.dataset.at === String(i)", arg=index)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_finished_game_of_each_kind_replays_on_a_phone(site, page, lang):
    page.set_viewport_size({"width": 360, "height": 740})
    SHOTS.mkdir(parents=True, exist_ok=True)
    history, kept = stored()
    page.goto(site.url + "sw-register.js")  # same origin, no boot: storage first
    page.evaluate("""([h, r, s]) => { localStorage.clear(); localStorage.setItem('dicehall.history', h);
        localStorage.setItem('dicehall.replays', r); localStorage.setItem('dicehall.settings', s); }""",
                  [json.dumps(history), json.dumps(kept), json.dumps({**FAST, "lang": lang})])
    page.goto(site.index + "#/history")
    page.wait_for_selector(tid("history-list"), timeout=60000)
    words = catalog(lang)
    forward = "ArrowLeft" if lang == "ar" else "ArrowRight"
    for item in history:
        game = item["game"]
        page.evaluate("() => { location.hash = '#/history'; }")
        page.wait_for_selector(tid(f"replay-{item['id']}"))
        tap(page, tid(f"replay-{item['id']}"))
        page.wait_for_selector(tid("replay-board"))
        total = int(page.get_attribute(tid("replay"), "data-moves"))
        assert at(page) == 0 and page.is_disabled(tid("replay-previous"))
        title = catalog(lang, game)[f"{game}.title"]
        assert title in page.inner_text("#replay-h")
        for step in range(1, 4):  # the buttons
            tap(page, tid("replay-next"))
            moved_to(page, step)
        assert page.evaluate("document.activeElement?.dataset.testid") == "replay-next"  # the focus stays
        page.keyboard.press(forward)  # the keys, mirrored right to left
        moved_to(page, 4)
        page.keyboard.press("PageDown")
        page.wait_for_function("() => Number(document.querySelector('[data-testid=replay]').dataset.at) > 4")
        middle = total // 2  # the scrub bar, as a person drags it and lets go
        page.evaluate("""m => { const bar = document.querySelector('[data-testid=replay-scrub]');
            bar.value = String(m); bar.dispatchEvent(new Event('input', {bubbles: true}));
            bar.dispatchEvent(new Event('change', {bubbles: true})); }""", middle)
        moved_to(page, middle)
        assert words["replay.position"].split("{")[0].strip() in page.inner_text(tid("replay-position"))
        assert page.locator(f'{tid("replay-board")} [data-action]').count() == 0
        page.evaluate("scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"{game}-{lang}-middle.png"))
        no_raw_text(page, game)
        assert (outside := outside_the_viewport(page, REPLAY, in_scrollers=False)) == [], (game, lang, outside)
        assert broken_words(page, REPLAY_TEXT) == [], (game, lang)
        bottom, bar_top = page.evaluate(END_CLEAR)
        assert bottom <= bar_top, (game, lang, bottom, bar_top)
        page.keyboard.press("End")
        moved_to(page, total)
        assert page.is_disabled(tid("replay-next")) and page.is_disabled(tid("replay-last"))
        assert axe_violations(page) == [], (game, lang)
        page.screenshot(path=str(SHOTS / f"{game}-{lang}-end.png"), full_page=True)
