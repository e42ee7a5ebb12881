"""RollCraft T8 readable (issue 29, items 4 and 1) under CPython through the play controller:
bonuses and saved actions are icons, each with its catalog name (no "? yellow" words on the
sheet); the dice carry each language's own letters; the black "?" bonus is placed by tapping a box
on the sheet (and a number for blue, green, pink), not picked from a list of ~45 buttons; another
seat's sheet is one tap away in the seat bar, read-only, with its zone totals, and the person's
own sheet comes back when they act. The phone layout: tests/browser/test_rollcraft_readable_phone.py."""

from __future__ import annotations

import re
from html import unescape

from fakehost import run, settle
from support import LANGS, load_catalog
from test_rollcraft_view import button, host_at

from pygame_core.ai import self_play
from pygame_core.games.rollcraft.board import BOARD as B
from pygame_core.protocol import CHANCE
from pygame_core.table import Table

ZONES = ("grey", "yellow", "blue", "green", "pink")
COLOURS = ("grey", "yellow", "blue", "green", "pink", "white")


def visible_text(html: str) -> str:
    """The words a sighted player reads: tags (and their attributes) removed."""
    return unescape(re.sub(r"<[^>]*>", " ", html))


def section(body: str, testid: str) -> str:
    """The HTML of the element with this data-testid, up to its closing tag (nesting counted)."""
    start = re.search(r'<(\w+)[^>]*data-testid="' + re.escape(testid) + '"', body)
    assert start, testid
    tag, depth, pos = start.group(1), 0, start.start()
    for m in re.finditer(r"<(/?)" + tag + r"\b[^>]*>", body[pos:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return body[pos:pos + m.end()]
    raise AssertionError(testid)


def test_bonuses_and_saved_actions_are_icons_with_their_names_in_every_language():
    run(_icons)


async def _icons():
    for lang in LANGS:
        words = load_catalog(lang, "rollcraft")
        host = host_at([(CHANCE, "roll 5 7 2 5 1 6")], lang=lang)
        host.play.handle("zone", "all", host.play.table.match.index)
        sheet = section(host.body, "sheet")
        # No bonus or saved action as words on the sheet: their names are the icons' own.
        shown = visible_text(sheet)
        for code in ("question:yellow", "t8:blue", "question:black", "question:pink", "t8:green"):
            assert words[f"rollcraft.bonus.{code}"] not in shown, (lang, code)
        names = set(re.findall(r'<svg class="rc-ic[^"]*" viewBox="0 0 24 24" role="img" aria-label="([^"]+)"', sheet))
        for code in set(B.yellow_row_bonus + B.yellow_col_bonus) - {None}:  # yellow's rows and columns
            assert words[f"rollcraft.bonus.{code}"] in names, (lang, code, names)
        for name in ("reroll", "return", "plusOne", "lock"):  # the stock: an icon named by the action, and its count
            item = section(sheet, f"stock-{name}")
            assert f'aria-label="{words["rollcraft.action." + name]}"' in item and re.search(r'class="num">\d+<', item), (lang, item)
        assert f'aria-label="{words["rollcraft.runes"]}"' in section(sheet, "stock-runes")
        assert f'aria-label="{words["rollcraft.bonus.question:black"]}"' in section(sheet, "round-4")  # the round track
        # A box's picture of its bonus is decorative: the box's own label names the bonus.
        grey_1 = re.search(r'<span class="rc-box rc-grey-col[^"]*" data-testid="grey-1" aria-label="([^"]+)"', sheet)
        assert grey_1 and words[f"rollcraft.bonus.{B.grey_bonus[0]}"] in unescape(grey_1.group(1)), lang
        assert "overflow-wrap" not in section(sheet, "zone-grey")


def test_the_dice_carry_each_languages_own_letters():
    run(_letters)


async def _letters():
    seen = {}
    for lang in LANGS:
        words = load_catalog(lang, "rollcraft")
        host = host_at([(CHANCE, "roll 5 7 2 5 1 6")], lang=lang)
        letters = {}
        for colour in COLOURS:
            tag = re.search(r'data-testid="die-' + colour + r'".*?</button>', host.body, re.DOTALL).group(0)
            letters[colour] = unescape(re.search(r'class="rc-letter">([^<]*)<', tag).group(1))
            assert letters[colour] == words[f"rollcraft.letter.{colour}"], (lang, colour)
        assert len(set(letters.values())) == 6, (lang, letters)  # six dice, six letters
        seen[lang] = letters
    # Polish showed the English G/Y/B/Gr/P/W: its own colour names' letters now (szara, żółta, …).
    assert seen["pl"] != seen["en"] and seen["pl"]["yellow"] == "Ż" and seen["ar"]["blue"] != "B"


def black_bonus_position() -> list:
    """Moves of a solo game (easy, seed 0) up to the round-4 benefit: the black "?" to place."""
    record, _ = self_play("rollcraft", ["easy"], 0)
    table = Table("rollcraft", [{"name": "Ann", "symbol": "●", "ai": None}])
    from pygame_core.match import Match

    table.match = Match.new("rollcraft", {"players": 1, "start": 0})
    for k, (seat, move) in enumerate(record.moves):
        state = table.state
        if "question:black" in state.sheets[0].pending and state.current_players() == [0]:
            return record.moves[:k]
        table.submit(seat, move, table.match.index)
    raise AssertionError("no black bonus in the game")


def test_the_black_bonus_is_placed_by_tapping_the_sheet():
    run(_black)


async def _black():
    for lang in ("en", "pl"):
        words = load_catalog(lang, "rollcraft")
        host = host_at(black_bonus_position(), lang=lang)
        play = host.play
        state = play.table.state
        legal = [m for m in state.legal_moves(0) if m.startswith("black ")]
        assert len(legal) > 30, legal  # the list it replaces: one button per placement
        panel = section(host.body, "bonus-panel")
        in_view = re.sub(r'<div class="rc-values[^>]*hidden>.*?</div>', "", panel)  # (another zone's numbers)
        assert len(re.findall(r"<button", in_view)) <= 16, in_view  # Decline, the shown zone's numbers at most
        assert f'aria-label="{words["rollcraft.bonus.question:black"]}"' in panel
        assert words["rollcraft.bonus_tap"] in visible_text(panel)
        # Grey is shown: its free columns are buttons on the sheet, one per placement.
        grey = section(host.body, "zone-grey")
        columns = [m.split(" ")[2] for m in legal if m.startswith("black grey ")]
        assert columns and all(button(grey, f"bonus-black-grey-{c}") for c in columns)
        assert "data-testid=\"bonus-black-grey" not in panel  # (not a list in the panel)
        play.handle("bonus", f"black grey {columns[0]}", play.table.match.index)
        body = host.body
        assert "pending" in button(body, f"bonus-black-grey-{columns[0]}") and "disabled" not in button(body, "confirm")
        assert state.sheets[0].grey == play.table.state.sheets[0].grey  # nothing written before Confirm
        # Yellow: its boxes; blue: the next box outlined and the numbers in the panel.
        play.handle("zone", "yellow", play.table.match.index)
        boxes = [m.split(" ")[2] for m in legal if m.startswith("black yellow ")]
        assert all(button(section(host.body, "zone-yellow"), f"bonus-black-yellow-{b}") for b in boxes)
        play.handle("zone", "blue", play.table.match.index)
        body = host.body
        sums = [m.split(" ")[2] for m in legal if m.startswith("black blue ")]
        values = section(body, "values-blue")
        assert "hidden" not in values.split(">")[0] and all(button(values, f"bonus-black-blue-{v}") for v in sums)
        assert words["rollcraft.bonus_pick"] in visible_text(section(body, "bonus-panel"))
        spot = f"bspot-blue-{len(state.sheets[0].blue) + 1}"
        assert f'data-testid="{spot}"' in body  # the blue box the number goes in, outlined
        play.handle("bonus", f"black blue {sums[0]}", play.table.match.index)
        assert "pending" in re.search(r'<span class="rc-box[^"]*" data-testid="' + spot + '"', host.body).group(0)
        play.handle("confirm", None, play.table.match.index)
        await settle(host)
        assert (0, f"black blue {sums[0]}") in play.table.match.record.moves
        assert 'data-testid="bonus-panel"' not in host.body or "question:black" not in play.table.state.sheets[0].pending


def bos_first_choice() -> list:
    """Moves of a two-seat game (easy, seed 1) up to the second seat's first choice of a die in
    its own active turn, once the first seat has points."""
    from pygame_core.games.rollcraft.rules import CHOOSE
    from pygame_core.match import Match

    record, _ = self_play("rollcraft", ["easy", "easy"], 1)
    table = Table("rollcraft", [{"name": n, "symbol": s, "ai": None} for n, s in (("Ann", "●"), ("Bo", "▲"))])
    table.match = Match.new("rollcraft", {"players": 2, "start": 0})
    for k, (seat, move) in enumerate(record.moves):
        state = table.state
        if state.current_players() == [1] and state.phase == CHOOSE and state.scores()[0] > 0 and state.active == 1:
            return record.moves[:k]
        table.submit(seat, move, table.match.index)
    raise AssertionError("no such position")


def test_another_seats_sheet_is_one_tap_away_read_only_and_the_own_comes_back_on_acting():
    run(_other_sheet)


async def _other_sheet():
    host = host_at(bos_first_choice(), players=2, lang="en")
    play = host.play
    state = play.table.state
    assert state.current_players() == [1] and state.scores()[0] > 0  # Bo's choice; Ann has written
    words = load_catalog("en", "rollcraft")
    index = play.table.match.index
    assert 'data-sheet="1"' in host.body and 'data-testid="sheet-viewing"' not in host.body
    play.handle("view-seat", "0", index)  # the seat bar's chip of Ann, with her total
    body = host.body
    assert 'data-sheet="0"' in body and 'data-testid="sheet-viewing"' in body
    assert re.search(r'data-testid="player-total-0">' + str(state.scores()[0]) + "<", body)
    for i, zone in enumerate(ZONES):  # her zone totals, on the tabs and over each zone
        assert f'data-testid="score-{zone}">{state.sheets[0].zone_scores()[i]}<' in body
    assert visible_text(section(body, "sheet-viewing")).count("Ann") == 1
    assert words["rollcraft.close_sheet"] in visible_text(section(body, "sheet-viewing"))
    play.handle("die", "blue", index)  # Bo acts: his own sheet is back, with the die's boxes
    body = host.body
    assert 'data-sheet="1"' in body and 'data-testid="target-' in body and 'data-testid="sheet-viewing"' not in body
    play.handle("view-seat", "0", index)  # the chip again: the seat bar's view is let go (still Bo's)
    assert 'data-sheet="1"' in host.body
    play.handle("view-seat", "0", index)  # and once more: Ann's sheet, read-only (no box to tap)
    body = host.body
    assert 'data-sheet="0"' in body and 'data-testid="target-' not in body and 'data-testid="bonus-' not in body
    play.handle("view-seat", "0", index)  # "Close" (the same tap): Bo's own
    assert 'data-sheet="1"' in host.body and 'data-testid="target-' in host.body


def test_the_last_move_and_the_log_show_dice_and_actions_as_pictures_with_their_names():
    """A turn told in the banner and the log: "rolled on", "re-rolled" and the bonuses are icons
    named by their catalog words; a die is a chip with its letter, named by its colour."""
    host = host_at([], lang="pl")
    words = load_catalog("pl", "rollcraft")
    ctx = host.play.context()
    turn = [(0, "take blue Y3", None), (0, "throw", None), (0, "reroll", None), (0, "question yellow Y4", None),
            (0, "lock green", None), (0, "decline t8 pink", None), (CHANCE, "roll 1 2 3", None), (0, "end", None)]
    html = host.play.view.describe_turn(ctx, turn)
    shown = visible_text(html)
    for key in ("rollcraft.move.throw", "rollcraft.move.reroll", "rollcraft.bonus.question:yellow", "rollcraft.bonus.t8:pink"):
        assert words[key] not in shown and f'aria-label="{words[key]}"' in html, key
    assert f'aria-label="{words["rollcraft.die.blue"]}"' in html and words["rollcraft.letter.blue"] in shown
    assert words["rollcraft.move.end"] in shown and "roll 1 2 3" not in html  # (the throw itself is no one's move)
    assert html.count('class="rc-step"') == 7
