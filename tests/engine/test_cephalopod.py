"""Cephalopod's rules against the rules file (shared/rules/cephalopod.md): notation, captures and
their compulsion, the end and the winner, refusals with their reasons, the JSON round trip and
the fast core's make/unmake (keys, counts, bitboards, Zobrist key) over random games."""

from __future__ import annotations

import json
import random

import pytest

from pygame_core.games.cephalopod.core import CAPTURES, OCCUPIED, Position, geometry
from pygame_core.games.cephalopod.rules import Cephalopod, state_from_board
from pygame_core.match import Match
from pygame_core.protocol import IllegalMove
from pygame_core.registry import get_entry


def new(size: int = 5, start: int = 0):
    return Cephalopod.new_state({"players": 2, "size": size, "start": start})


def refused(state, text: str, code: str, **params) -> IllegalMove:
    before = state.to_json()
    with pytest.raises(IllegalMove) as err:
        state.apply(text)
    assert err.value.code == code, (text, err.value.code, str(err.value))
    for key, value in params.items():
        assert err.value.params[key] == value
    assert state.to_json() == before
    return err.value


# --- the table -----------------------------------------------------------------------------------
def test_registered_with_options_colours_and_no_dice():
    entry = get_entry("cephalopod")
    rules = entry.rules
    assert rules is Cephalopod and rules.min_players == rules.max_players == 2
    assert rules.has_chance is False
    assert rules.option_schema == {"size": {"choices": [3, 4, 5], "default": 5}}
    assert rules.seat_labels == ("cephalopod.colour.white", "cephalopod.colour.black")
    assert list(entry.ai_levels) == ["random", "flatmc", "easy", "medium", "hard"]
    assert "perft" in entry.cli_commands and entry.advise is not None and entry.review is not None
    for bad in (2, 6, "5", 5.0, True):
        with pytest.raises(IllegalMove):
            Cephalopod.new_state({"players": 2, "size": bad})


def test_the_empty_board_and_square_names():
    state = new()
    assert state.size == 5 and state.current_players() == [0] and state.turn_number() == 0
    assert state.scores() == [0, 0] and state.prompt() == ("cephalopod.prompt.place", {})
    moves = state.legal_moves()
    assert len(moves) == 25 and moves[0] == "a1" and moves[4] == "e1" and moves[-1] == "e5"
    assert state.legal_moves(1) == []  # not Black's turn
    assert new(start=1).current_players() == [1]  # the start rotation says who begins
    assert len(new(3).legal_moves()) == 9 and len(new(4).legal_moves()) == 16


def test_a_placement_without_capture_shows_one_and_passes_the_turn():
    state = new()
    state.apply("c3")
    assert state.die(geometry(5).index["c3"]) == (0, 1)
    assert state.current_players() == [1] and state.turn_number() == 1 and state.scores() == [1, 0]
    state.apply("c4", 1)
    assert state.die(geometry(5).index["c4"]) == (1, 1) and state.scores() == [1, 1]


# --- captures (rules §3) -----------------------------------------------------------------------------
def test_every_capturing_set_is_a_move_and_shows_its_total():
    # b2's neighbours: a2=1 (White), b3=2 (Black), c2=3 (White), b1 empty
    state = state_from_board(["w6 b2 w6", "w1 .  w3", "w6 .  w6"])
    moves = [m for m in state.legal_moves() if m.startswith("b2")]
    # pairs 1+2, 1+3, 2+3 and the triple 1+2+3 = 6: all capture; a plain b2 is not allowed
    assert sorted(moves) == ["b2x a2 b3", "b2x a2 b3 c2", "b2x a2 c2", "b2x b3 c2"]
    totals = {}
    for move in moves:
        after = state.clone()
        after.apply(move)
        totals[move] = after.die(after.geo.index["b2"])
        captured = move.split(" ")[1:]
        assert all(after.die(after.geo.index[c]) is None for c in captured)
    assert totals == {"b2x a2 b3": (0, 3), "b2x a2 c2": (0, 4), "b2x b3 c2": (0, 5), "b2x a2 b3 c2": (0, 6)}
    # b1 touches only a1=6, c1=6 (and b2, empty): 12 pips, nothing to capture: shows 1
    after = state.clone()
    after.apply("b1")
    assert after.die(after.geo.index["b1"]) == (0, 1)


def test_sets_over_six_pips_and_single_dice_do_not_capture():
    state = state_from_board([".  .  .", "w5 .  b2", ".  w1 ."])
    # b2 sees a2=5, c2=2, b1=1: 5+2=7 no, 5+1=6 yes, 2+1=3 yes, 5+2+1=8 no
    assert [m for m in state.legal_moves() if m.startswith("b2")] == ["b2x a2 b1", "b2x b1 c2"]
    # a1 sees a2=5 and b1=1: 6 pips, a capture; c3 sees only c2: a single die is never captured
    assert [m for m in state.legal_moves() if m.startswith(("a1", "c3"))] == ["a1x a2 b1", "c3"]


def test_four_neighbours_of_one_give_eleven_captures():
    # The CodinGame forum example: 616/101/616, one move, 11 distinct results
    state = state_from_board(["w6 w1 w6", "w1 .  w1", "w6 w1 w6"])
    moves = state.legal_moves()
    assert len(moves) == 11 and all(m.startswith("b2x ") for m in moves)
    values = sorted(len(m.split(" ")) - 1 for m in moves)
    assert values == [2] * 6 + [3] * 4 + [4]


def test_capture_is_compulsory_only_on_the_chosen_square_and_may_take_own_dice():
    state = state_from_board([".  .  .", "w1 .  w1", ".  .  ."], to_move=0)
    refused(state, "b2", "cephalopod.must_capture", square="b2")
    assert "a1" in state.legal_moves() and "c3" in state.legal_moves()  # elsewhere: a plain move
    state.apply("b2x a2 c2")  # White captures two White dice
    assert state.scores() == [1, 0] and state.die(state.geo.index["b2"]) == (0, 2)


def test_capture_notation_is_sorted_and_other_spellings_are_explained():
    state = state_from_board([".  b2 .", "w1 .  w3", ".  .  ."])
    assert "b2x a2 b3 c2" in state.legal_moves()
    refused(state, "b2x c2 a2 b3", "cephalopod.spelling", move="b2x a2 b3 c2")
    refused(state, "b2x a2", "cephalopod.too_few")
    refused(state, "b2x a2 a2", "cephalopod.too_few")
    refused(state, "b2x a2 c3", "cephalopod.not_adjacent", square="c3", target="b2")
    refused(state, "b2x a2 b1", "cephalopod.no_die", square="b1")
    refused(state, "a2", "cephalopod.occupied", square="a2")
    refused(state, "f9", "cephalopod.no_square", square="f9")
    refused(state, "b2x a2 z1", "cephalopod.no_square", square="z1")
    crowded = state_from_board([".  .  .", "w5 .  w3", ".  .  ."])
    refused(crowded, "b2x a2 c2", "cephalopod.too_many_pips", total=8)
    refused(state, "b2x", "error.bad_move")


# --- the end (rules §4) --------------------------------------------------------------------------------
def test_a_full_board_ends_the_game_and_more_dice_win():
    state = state_from_board(["w6 b6 w6", "b6 .  w6", "w6 b6 w6"], to_move=1)
    assert state.legal_moves() == ["b2"]  # 6+6 > 6: nothing to capture
    state.apply("b2")
    assert state.is_terminal() and state.current_players() == [] and state.legal_moves() == []
    assert state.scores() == [5, 4] and state.ranking() == [1, 2]
    assert state.prompt() == ("prompt.game_over", {})
    refused(state, "a1", "error.game_over")


def test_an_equal_count_on_four_by_four_is_a_draw():
    rows = ["w6 b6 w6 b6", "b6 w6 b6 w6", "w6 b6 w6 b6", "b6 w6 b6 ."]
    state = state_from_board(rows, to_move=0)
    state.apply("d1")
    assert state.is_terminal() and state.scores() == [8, 8] and state.ranking() == [1, 1]


def test_random_games_end_with_dice_worth_one_to_six_and_pips_counting_placements():
    """Invariants: a capture keeps the pip total (the removed pips move to the new die), a plain
    placement adds one pip; values stay 1..6; the game ends with a full board."""
    for seed in range(20):
        rng = random.Random(seed)
        state = new(rng.choice([3, 4, 5]), start=seed % 2)
        plain = 0
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            plain += " " not in move
            state.apply(move)
            pips = [state.die(i)[1] for i in range(state.geo.n) if state.die(i)]
            assert all(1 <= v <= 6 for v in pips) and sum(pips) == plain
        assert all(state.cells) and sum(state.scores()) == state.geo.n


# --- data -----------------------------------------------------------------------------------------------
def test_json_round_trip_replays_the_history_and_refuses_a_forged_board():
    rng = random.Random(3)
    state = new(4)
    for _ in range(12):
        state.apply(rng.choice(state.legal_moves()))
    data = json.loads(json.dumps(state.to_json()))
    again = Cephalopod.state_from_json(data)
    assert again == state and again.history == state.history and again.turn_number() == 12
    forged = json.loads(json.dumps(data))
    forged["values"][0] = 6 if forged["values"][0] != 6 else 5
    forged["owners"][0] = 0
    with pytest.raises(ValueError):
        Cephalopod.state_from_json(forged)
    for broken in ({**data, "moves": ["a1", "a1"]}, {**data, "to_move": 2}, {**data, "moves": "a1"},
                   {**data, "values": data["values"][:-1]}, {**data, "game": "penta"}):
        with pytest.raises(ValueError):
            Cephalopod.state_from_json(broken)
    setup = state_from_board([".  b2 .", "w1 .  w3", ".  .  ."], to_move=1)
    setup.apply("b2x a2 c2")
    assert Cephalopod.state_from_json(json.loads(json.dumps(setup.to_json()))) == setup


def test_history_positions():
    state = new(3)
    for move in ("a1", "b1", "a2", "c1"):
        state.apply(move)
    assert state.history == ["a1", "b1", "a2", "c1"]
    assert state.after(0) == new(3) and state.after(4) == state
    two = state.after(2)
    assert two.history == ["a1", "b1"] and two.to_move == 0 and two.scores() == [1, 1]


def test_a_match_refuses_non_canonical_moves():
    match = Match.new("cephalopod", {"players": 2, "size": 3})
    for move in ("a1", "b1", "a2", "c1"):
        match.submit(match.state.current_player(), move, match.index)
    # b2 now touches a2=1, b1=1: a capture; the engine lists one spelling only
    assert [m for m in match.state.legal_moves() if m.startswith("b2")] == ["b2x a2 b1"]
    with pytest.raises(IllegalMove):
        match.submit(0, "b2x b1 a2", match.index)


# --- the fast core ----------------------------------------------------------------------------------------
def snapshot(pos: Position) -> tuple:
    return (list(pos.cells), list(pos.keys), list(pos.counts), list(pos.bits), pos.sixes, pos.filled, pos.zkey, pos.side)


def test_push_pop_restore_everything_and_keys_match_a_fresh_computation():
    for size in (3, 4, 5):
        geo = geometry(size)
        rng = random.Random(size)
        for _ in range(3):
            pos = Position(geo)
            trail = [snapshot(pos)]
            while not pos.is_terminal():
                moves = pos.moves()
                state_moves = sorted(geo.move_name(m) for m in moves)
                fresh = Position(geo, pos.cells, pos.side)
                assert snapshot(fresh) == snapshot(pos), "incremental tables equal a fresh computation"
                assert pos.count_moves() == len(moves) and len(set(state_moves)) == len(state_moves)
                pos.push(rng.choice(moves))
                trail.append(snapshot(pos))
            while pos.stack:
                trail.pop()
                pos.pop()
                assert snapshot(pos) == trail[-1]


def test_core_moves_are_the_rules_moves():
    rng = random.Random(9)
    state = new(5)
    while not state.is_terminal():
        pos = state.position()
        assert [pos.geo.move_name(m) for m in pos.moves()] == state.legal_moves()
        state.apply(rng.choice(state.legal_moves()))


def test_capture_table():
    # key of values (a, b, c, d) at positions 0..3
    def key(*values):
        return sum(v * 7 ** p for p, v in enumerate(values))

    assert CAPTURES[key(0, 0, 0, 0)] == [0] and CAPTURES[key(1, 0, 0, 0)] == [0]
    assert CAPTURES[key(1, 1, 0, 0)] == [0b0011]
    assert CAPTURES[key(3, 3, 1, 0)] == [0b0011, 0b0101, 0b0110]
    assert CAPTURES[key(6, 6, 6, 6)] == [0]
    assert len(CAPTURES[key(1, 1, 1, 1)]) == 11
    assert CAPTURES[OCCUPIED + key(1, 1, 0, 0)] == []
