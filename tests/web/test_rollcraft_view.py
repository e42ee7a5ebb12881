"""RollCraft T8's view under CPython through the play controller: a choice is a pending selection
(die, then a highlighted box) that changes nothing on the sheet until Confirm; yellow markers change
only on confirm; bonuses are offered one at a time; saved-action buttons exist only when usable;
passive players choose in turn on one screen; the results columns; every zone in every language."""

from __future__ import annotations

import re

from fakehost import FakeHost, settle, run
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.table import Table
from support import LANGS, load_catalog

PEOPLE = (("Ann", "●"), ("Bo", "▲"), ("Cy", "■"))


def host_at(moves, players=1, lang="en", kinds=None) -> FakeHost:
    host = FakeHost(lang)
    host.open_game("rollcraft")
    kinds = kinds or [None] * players
    table = Table("rollcraft", [{"name": n, "symbol": s, "ai": k} for (n, s), k in zip(PEOPLE[:players], kinds)])
    table.match = Match.new("rollcraft", {"players": players, "start": 0})
    table.start_seats = [0]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    host.play.load(table)
    host.render()
    return host


def button(body: str, testid: str) -> str:
    m = re.search(r'<button[^>]*data-testid="' + re.escape(testid) + r'"[^>]*>', body)
    return m.group(0) if m else ""


def test_a_choice_is_pending_until_confirmed_and_markers_change_only_then():
    async def steps():
        host = host_at([(CHANCE, "roll 5 7 2 5 1 6"), (0, "take green green"), (CHANCE, "roll 8 2 3"), (0, "reroll"),
                        (CHANCE, "roll 7 4 4")])
        play = host.play
        body = host.body
        assert "disabled" in button(body, "confirm") and 'data-testid="target-' not in body
        assert "disabled" not in button(body, "die-white") and "disabled" in button(body, "die-blue")  # blue is on the platter
        assert not button(body, "act-reroll")  # the Re-roll is used up
        play.handle("die", "white", play.table.match.index)
        body = host.body
        assert 'data-testid="pending"' in body and button(body, "target-Y7") and button(body, "target-Y6")
        assert button(body, "empty")
        play.handle("target", "Y7", play.table.match.index)
        body = host.body
        assert "pending" in button(body, "target-Y7") and "disabled" not in button(body, "confirm")
        assert play.table.state.sheets[0].yellow == [0] * 12  # nothing confirmed yet
        assert "■ □" not in body  # the markers still show □ □ everywhere
        play.handle("confirm", None, play.table.match.index)
        await settle(host)
        assert play.table.match.record.moves[-2] == (0, "take white Y7")
        body = host.body
        assert "■ □" in body and 'data-testid="pending"' not in body
    run(steps)


def test_cancel_and_a_die_without_targets_in_view():
    async def steps():
        host = host_at([(CHANCE, "roll 5 7 2 5 1 6")])
        play = host.play
        play.handle("die", "green", play.table.match.index)
        assert host.play.ui.get("zone") == "green"  # the zone where it can go is shown
        play.handle("cancel", None, play.table.match.index)
        assert not host.play.ui.get("die") and 'data-testid="pending"' not in host.body
    run(steps)


def test_bonuses_are_offered_one_placement_list_at_a_time():
    async def steps():
        moves = [(CHANCE, "roll 1 1 1 1 1 1")]
        host = host_at(moves)
        state = host.play.table.state
        state.sheets[0].grey[0] = 3  # column 1 completes on the next grey mark (Lock); col 2 needs ? yellow
        state.sheets[0].grey[1] = 3
        host.play.table.state.values = [2, 1, 1, 1, 1, 1]
        host.render()
        host.play.handle("die", "grey", host.play.table.match.index)
        host.play.handle("target", "grey", host.play.table.match.index)
        host.play.handle("confirm", None, host.play.table.match.index)
        await settle(host)
        body = host.body
        assert 'data-testid="bonus-panel"' in body and button(body, "bonus-question-yellow-Y1")
        assert button(body, "bonus-decline-question-yellow")
        assert 'data-testid="die-' not in re.sub(r'<button[^>]*disabled[^>]*>', "", body)  # no die to choose now
    run(steps)


def test_passive_players_choose_in_turn_on_one_screen():
    async def steps():
        host = host_at([(CHANCE, "roll 8 2 3 4 5 6"), (0, "take grey grey")], players=3)
        play = host.play
        assert play.table.state.current_players() == [1, 2]
        body = host.body
        assert button(body, "act-pass") and 'data-sheet="1"' in body
        play.handle("act", "pass", play.table.match.index)
        await settle(host)
        assert play.table.state.current_players() == [2] and 'data-testid="handover-ok"' in host.body  # the phone goes to Cy
        play.handle("handover-ok", None, play.table.match.index)
        body = host.body
        assert 'data-sheet="2"' in body and button(body, "act-pass")
    run(steps)


def test_every_language_renders_every_zone_and_the_results_columns():
    run(_every_language)


async def _every_language():
    for lang in LANGS:
        host = host_at([(CHANCE, "roll 5 7 2 5 1 6")], lang=lang)
        body = host.body
        words = load_catalog(lang, "rollcraft")
        for zone in ("grey", "yellow", "blue", "green", "pink"):
            assert f'data-testid="zone-{zone}"' in body
            assert words[f"rollcraft.zone.{zone}"] in body
        assert "rollcraft." not in re.sub(r'data-[a-z-]+="[^"]*"', "", body)
        view = host.play.view
        assert view.breakdown_heads(host.t)[-1] == words["rollcraft.runes"]
        assert len(view.breakdown(host.play.table.state, 0)) == 6


def test_every_kind_of_move_is_told_in_words_in_every_language():
    """The last-move panel and the log name moves through describe_move: "pass", "done", "reroll",
    "throw" and "end" once showed "rollcraft.move.<function word at 0x…>"."""
    from pygame_core.ai import self_play

    moves = {}  # one move of each kind (its first word) from games of one and three players
    for players in (1, 3):
        record, _ = self_play("rollcraft", ["easy"] * players, 4)
        for _, move in record.moves:
            moves.setdefault(move.split(" ")[0], move)
    assert {"pass", "done", "throw", "take", "roll"} <= set(moves), sorted(moves)
    for lang in LANGS:
        host = host_at([], lang=lang)
        words = load_catalog(lang, "rollcraft")
        for move in moves.values():
            told = host.play.view.describe_move(host.t, move)
            assert "rollcraft." not in told and "<" not in told and "{" not in told, (lang, move, told)
        for verb in ("pass", "done", "reroll", "throw", "end"):
            assert host.play.view.describe_move(host.t, verb) == words[f"rollcraft.move.{verb}"], (lang, verb)


def test_return_and_lock_buttons_ask_in_the_imperative_in_every_language():
    """Before a throw, Return and Lock buttons say what a tap does ("Return grey"); they once
    carried the log's past tense ("returned grey")."""
    from pygame_core.ai import self_play

    record, _ = self_play("rollcraft", ["medium"], 0)
    prefix = record.moves[:27]  # medium's game 0: before roll 2 with a Return and four Locks open
    for lang in LANGS:
        host = host_at(prefix, lang=lang)
        words = load_catalog(lang, "rollcraft")
        state = host.play.table.state
        assert {"return grey", "lock blue"} <= set(state.legal_moves(0)), state.legal_moves(0)
        for testid, key, die in (("act-return-grey", "rollcraft.do.return", "grey"),
                                 ("act-lock-blue", "rollcraft.do.lock", "blue")):
            tag = button(host.body, testid)
            assert tag, (lang, testid)
            label = re.search(re.escape(tag) + r"(.*?)</button>", host.body, re.S).group(1)
            want = words[key].replace("{die}", words[f"rollcraft.die.{die}"])
            told = host.play.view.describe_move(host.t, key.split(".")[-1] + " " + die)  # the log's words
            assert want in label and label.strip() != told, (lang, label, told)
