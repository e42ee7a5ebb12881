"""Cephalopod's seat colours agree with their labels (issue 29, item 7; ruling in
web/dicehall/games/cephalopod/view.py): seat 0 is White and its pieces are white dice, seat 1 is
Black with black dice, whatever symbol each chose; the legend shows each seat's piece (a white or
black die with its symbol) beside its name and the colour's word, in every language; and the
game's style draws every symbol on its screen in plain ink, not in the app's seat colours. (The
colours as drawn are measured in Chromium: tests/browser/test_home_compact.py.) The real shell on
a fake page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fakehost import run
from fakepage import FakePage
from support import LANGS, load_catalog, mid_game_table

pytestmark = pytest.mark.usefixtures("instant_sleep")

STYLE = Path(__file__).resolve().parents[2] / "web" / "dicehall" / "games" / "cephalopod" / "style.css"


def swapped_symbols_save() -> str:
    """Mid-game, seat 0 bearing the blue ▲ and seat 1 the red ●: colour follows the seat, not the symbol."""
    table = mid_game_table("cephalopod")
    table.seats[0]["symbol"], table.seats[1]["symbol"] = "▲", "●"
    return table.dumps()


@pytest.mark.parametrize("lang", LANGS)
def test_each_seat_is_shown_with_pieces_of_the_colour_its_label_names(lang):
    async def steps():
        words = load_catalog(lang, "cephalopod")
        page = FakePage(lang=lang, settings={"offline_noted": True})
        page.browser.items["dicehall.table"] = swapped_symbols_save()
        page.location = "#/play"
        await page.boot()
        assert page.screen == "play"
        table = page.table()
        for seat, (piece, key) in enumerate([("white", "cephalopod.colour.white"), ("black", "cephalopod.colour.black")]):
            item = page.find(f"colour-{seat}")
            swatch = [el for el in item.walk() if "ceph-piece" in el.get("class", "").split()]
            assert len(swatch) == 1 and piece in swatch[0].get("class").split()
            assert swatch[0].text() == table.seats[seat]["symbol"]
            text = " ".join(item.text().split())
            assert words[key] in text and table.seats[seat]["name"] in text
            # no seat-coloured symbol in the legend: the piece is the seat's colour there
            assert not [el for el in item.walk() if "sym" in el.get("class", "").split()]
        # the dice on the board: seat 0's are white, seat 1's black (by owner, not by symbol)
        state = table.state
        dice = [(name, state.die(i)) for name, i in state.geo.index.items() if state.die(i) is not None]
        assert dice
        for name, (owner, _value) in dice:
            classes = page.find(f"sq-{name}").get("class").split()
            assert ("white" if owner == 0 else "black") in classes
            assert ("black" if owner == 0 else "white") not in classes
        assert not page.errors
    run(steps)


def test_the_game_s_style_draws_symbols_in_ink_not_seat_colours():
    css = STYLE.read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = {selector.strip(): body for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css)
             for selector in selectors.split(",")}
    # symbols anywhere in the game's sections, and the score plot's curves (results)
    for selector in ('[data-game="cephalopod"] .sym', '[data-game="cephalopod"] .plot g[class^="seat-"]'):
        assert selector in rules and re.search(r"color:\s*inherit", rules[selector]), selector
    for piece in ("white", "black"):
        assert re.search(rf"\.ceph-piece\.{piece}\s*\{{[^}}]*background", css)


def test_set_up_and_results_are_sections_of_the_game_its_style_reaches():
    """The set-up and results screens say which game they show (`data-game`), so the game's ink
    rule reaches their symbols and the plot's curves too (they were red and blue)."""
    from pygame_core.ai import self_play
    from pygame_core.match import Match
    from pygame_core.table import Table

    record, _ = self_play("cephalopod", ["easy", "easy"], 3)
    table = Table("cephalopod", [{"name": "Ann", "symbol": "▲", "ai": None}, {"name": "Bo", "symbol": "●", "ai": None}])
    table.match = Match.new("cephalopod", record.options)
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)

    async def steps():
        page = FakePage(settings={"offline_noted": True})
        page.browser.items["dicehall.table"] = table.dumps()
        page.location = "#/play"
        await page.boot()
        assert page.screen == "results"
        results = page.find("results")
        assert results.get("data-game") == "cephalopod"
        assert [el for el in results.walk() if "sym" in el.get("class", "").split()]  # the rule has work to do
        page.shell.go("#/setup/cephalopod")
        while page.events:
            page.events.pop(0)()
        await page.idle()
        assert [el for el in page.app.walk() if el.get("data-game") == "cephalopod" and "setup" in el.get("class", "").split()]
        assert not page.errors
    run(steps)
