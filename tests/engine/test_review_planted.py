"""Issue 30, item 2: the reviews of Cephalopod and Penta find a planted blunder.

Each game has a fixed record in which one seat makes one clearly losing choice; the review must
name it as that seat's costliest mistake, grade the best level's own moves 0, and say how sure it
is (`certainty`, and `exact` per decision; see docs/ARCHITECTURE.md "review(record) -> ...").

Cephalopod's records were played by Hard (White, seat 0) against Medium (Black); Penta's by the
optimal level (seat 0) against greedy, with seeded dice. The Cephalopod reviews here lift the
review's time caps so that its node budget alone decides: the same grades on any machine (the
caps only shorten the search where the machine is slow, as under Pyodide).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from pygame_core.games.cephalopod import ai as cephalopod_ai
from pygame_core.games.cephalopod import review as cephalopod_review
from pygame_core.games.cephalopod.rules import Cephalopod
from pygame_core.games.penta import solver as penta_solver
from pygame_core.games.penta.rules import Penta
from pygame_core.record import Record

UNCAPPED = {"seconds": 60.0, "settle_seconds": 60.0, "total_seconds": 600.0}

# --- Cephalopod ------------------------------------------------------------------------------------
# White (Hard) to play at move index 60 has four ways to capture on c3: c2 (Black's 1), c4 (its own
# 1) and d3 (Black's 1). Taking all three makes a 3 and removes two Black dice; the planted
# "c3x c4 d3" takes its own die and one Black die and leaves c2 to Black, who recaptures at once
# ("d3x c3 d2"). Both seats otherwise play as Hard and Medium chose.
CEPHALOPOD_BLUNDER = 60
CEPHALOPOD_MOVES = [
    "d3", "a2", "e3", "b5", "a3", "e2", "a1", "e1", "b1", "a5", "c1", "d4", "d5", "b2x a2 b1", "b1x a1 b2",
    "a2", "b4", "d1x c1 e1", "c1x b1 d1", "e1", "d1x c1 e1", "c1", "e1", "e4x d4 e3", "e3x e2 e4",
    "d4x d3 d5", "d3x d4 e3", "e4", "a1", "b3x a3 b4", "d4x d3 e4", "e3", "b4x b3 b5", "b5x a5 b4", "a3",
    "b4", "c4", "e4", "e5", "a5", "e2x e1 e3", "e1", "d2", "a4x a3 a5 b4", "b4x b5 c4", "c4", "d5",
    "c5x c4 d5", "c4", "c2x c1 d2", "d2x c2 e2", "b2", "b3x b2 b4", "c1", "a5", "d3", "b1x a1 c1",
    "b2x a2 b1", "b1", "c2", "c3x c4 d3", "d3x c3 d2", "c4", "a3", "d2", "a1", "a2x a1 a3", "a3x a2 a4",
    "a4x a3 a5", "a5", "a3", "b4", "b5x b4 c5", "d5", "c5x b5 d5", "a1", "a2x a1 b2", "a1x a2 b1",
    "a2x a1 a3", "a3", "e2x d2 e1", "d5x c5 e5", "e5x d5 e4", "d2x c2 e2", "c1", "b5", "e4", "b1", "a1",
    "e2", "e1", "c3", "c5x b5 c4", "c4x c3 c5", "b5", "c2x c1 d2", "c3", "e3x e2 e4", "e4", "e2x e1 e3",
    "e3x e2 e4", "e4", "d2", "e1", "e2x e1 e3", "e3x e2 e4", "e2", "e1", "e4", "d5", "b4x b5 c4",
    "c4x b4 c3", "c5x c4 d5", "b5", "c3", "b4", "d5", "c1x b1 c2", "c2x c1 c3", "b1", "c3", "c4x b4 c3",
    "c1", "c3", "b2", "b4x b5 c4", "c4x b4 c3", "c3", "b4", "b5x a5 b4", "b4x b5 c4", "a5", "c4", "b5",]

# Penta: after "roll 3 2 3" (dice 4 4 3 2 3, the third roll of round 6) the optimal level would
# score threes; the planted move writes small straight for 0 points instead.
PENTA_BLUNDER = 63
PENTA_MOVES = [
    [-1, "roll 6 3 4 5 3"], [0, "keep 3 3"], [-1, "roll 4 4 2"], [0, "keep 4 4"], [-1, "roll 4 2 2"],
    [0, "score full_house"], [-1, "roll 2 1 5 3 2"], [1, "keep 5"], [-1, "roll 1 4 6 3"],
    [1, "keep 3 4 5 6"], [-1, "roll 2"], [1, "score large_straight"], [-1, "roll 1 3 6 4 1"],
    [0, "keep 3 4"], [-1, "roll 5 1 5"], [0, "keep 5 5"], [-1, "roll 1 4 1"], [0, "score ones"],
    [-1, "roll 6 2 5 6 3"], [1, "keep 6 6"], [-1, "roll 3 6 5"], [1, "keep 6 6 6"], [-1, "roll 5 2"],
    [1, "score three_kind"], [-1, "roll 2 2 5 4 4"], [0, "keep 4 4"], [-1, "roll 5 4 4"],
    [0, "keep 4 4 4 4"], [-1, "roll 4"], [0, "score penta"], [-1, "roll 4 4 5 6 4"], [1, "keep 4 4 4"],
    [-1, "roll 6 2"], [1, "keep 4 4 4"], [-1, "roll 1 2"], [1, "score fours"], [-1, "roll 4 6 5 3 6"],
    [0, "keep 6 6"], [-1, "roll 4 4 2"], [0, "keep 6 6"], [-1, "roll 4 4 4"], [0, "score three_kind"],
    [-1, "roll 4 4 1 6 4"], [1, "keep 4 4 4"], [-1, "roll 3 3"], [1, "score full_house"],
    [-1, "roll 2 5 2 5 3"], [0, "keep 5 5"], [-1, "roll 1 6 4"], [0, "keep 5 5"], [-1, "roll 3 4 1"],
    [0, "score chance"], [-1, "roll 6 1 6 6 6"], [1, "keep 6 6 6 6"], [-1, "roll 1"], [1, "keep 6 6 6 6"],
    [-1, "roll 6"], [1, "score penta"], [-1, "roll 3 2 4 4 2"], [0, "keep 4 4"], [-1, "roll 6 6 5"],
    [0, "keep 4 4"], [-1, "roll 3 2 3"], [0, "score small_straight"], [-1, "roll 1 3 2 2 5"], [1, "keep"],
    [-1, "roll 5 2 6 6 2"], [1, "keep 6 6"], [-1, "roll 2 2 2"], [1, "score twos"], [-1, "roll 1 2 1 3 6"],
    [0, "keep 6"], [-1, "roll 4 4 3 2"], [0, "keep 4 4"], [-1, "roll 1 1 5"], [0, "score fours"],
    [-1, "roll 2 4 4 4 5"], [1, "keep 4 4 4"], [-1, "roll 6 1"], [1, "keep 4 4 4"], [-1, "roll 5 3"],
    [1, "score chance"], [-1, "roll 4 4 3 1 4"], [0, "keep 4 4 4"], [-1, "roll 6 3"], [0, "keep 4 4 4"],
    [-1, "roll 3 6"], [0, "score threes"], [-1, "roll 2 2 3 2 5"], [1, "keep 2 2 2"], [-1, "roll 4 2"],
    [1, "keep 2 2 2 2"], [-1, "roll 1"], [1, "score ones"], [-1, "roll 3 1 2 6 2"], [0, "keep 2 2"],
    [-1, "roll 3 4 3"], [0, "keep 2 3 4"], [-1, "roll 4 2"], [0, "score twos"], [-1, "roll 5 6 6 2 3"],
    [1, "keep 3 5 6"], [-1, "roll 4 2"], [1, "score small_straight"], [-1, "roll 4 2 1 5 4"],
    [0, "keep 2 4 5"], [-1, "roll 2 6"], [0, "keep 2 4 5 6"], [-1, "roll 1"], [0, "score fives"],
    [-1, "roll 6 2 3 5 5"], [1, "keep 3"], [-1, "roll 1 2 4 1"], [1, "keep 3"], [-1, "roll 2 5 6 6"],
    [1, "score threes"], [-1, "roll 1 1 6 1 2"], [0, "keep 1 1 1"], [-1, "roll 1 3"], [0, "keep 1 1 1 1"],
    [-1, "roll 4"], [0, "score four_kind"], [-1, "roll 6 1 6 4 1"], [1, "keep 6 6"], [-1, "roll 4 2 4"],
    [1, "keep 6 6"], [-1, "roll 3 5 6"], [1, "score sixes"], [-1, "roll 5 2 5 3 4"], [0, "keep 2 3 4 5"],
    [-1, "roll 4"], [0, "keep 2 3 4 5"], [-1, "roll 4"], [0, "score large_straight"],
    [-1, "roll 2 5 2 3 4"], [1, "keep 2 2"], [-1, "roll 4 4 6"], [1, "keep 4 4"], [-1, "roll 4 3 5"],
    [1, "score four_kind"], [-1, "roll 2 5 1 6 2"], [0, "keep 6"], [-1, "roll 4 2 1 1"], [0, "keep 6"],
    [-1, "roll 6 1 5 5"], [0, "score sixes"], [-1, "roll 1 3 6 3 3"], [1, "keep"], [-1, "roll 1 6 5 1 5"],
    [1, "keep 5 5"], [-1, "roll 3 5 1"], [1, "score fives"],]


def cephalopod_record() -> Record:
    options = Cephalopod.new_state({"players": 2, "size": 5, "start": 0}).options
    return Record("cephalopod", options, [(index % 2, move) for index, move in enumerate(CEPHALOPOD_MOVES)])


def penta_record() -> Record:
    return Record("penta", Penta.new_state({"players": 2}).options, [tuple(m) for m in PENTA_MOVES])


@pytest.fixture(scope="module")
def cephalopod_result():
    return cephalopod_review.review(cephalopod_record(), **UNCAPPED)


def check_shape(result: dict, record: Record, choices) -> None:
    """The contract's fields; every decision is a position with a choice, and no such position of
    a graded seat is missing; `choices(state)` counts the mover's options."""
    assert result["certainty"] in ("exact", "estimate", "mixed")
    flags = [d["exact"] for s in result["seats"] for d in s["decisions"]]
    want = "exact" if all(flags) else "estimate" if not any(flags) else "mixed"
    assert result["certainty"] == want
    graded = {d["index"] for s in result["seats"] for d in s["decisions"]}
    for index, (seat, _move, before) in enumerate(record.states()):
        if seat >= 0:
            assert (index in graded) == (choices(before) > 1), index
    for entry in result["seats"]:
        for d in entry["decisions"]:
            assert isinstance(d["exact"], bool) and d["loss"] >= 0
            assert d["loss"] == pytest.approx(max(0.0, d["best_value"] - d["value"]), abs=0.011)
            assert record.moves[d["index"]][1] == d["move"]
        losses = [d["loss"] for d in entry["mistakes"]]
        assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)


def test_cephalopod_finds_the_planted_blunder(cephalopod_result):
    record = cephalopod_record()
    check_shape(cephalopod_result, record, lambda state: len(state.legal_moves()))
    white = cephalopod_result["seats"][0]
    worst = white["mistakes"][0]
    assert (worst["index"], worst["move"]) == (CEPHALOPOD_BLUNDER, "c3x c4 d3")
    # Hard's search values taking all three and the quiet a1 alike (+3.2 dice); Hard plays a1
    assert worst["best"] in ("c3x c2 c4 d3", "a1")
    assert worst["loss"] >= 2.0  # dice of final margin
    # clearly the costliest, not a near tie (here the only one: see the next test)
    assert all(worst["loss"] > 2 * other["loss"] for other in white["mistakes"][1:])


def test_cephalopod_certainty_is_mixed_with_the_endgame_exact(cephalopod_result):
    """Early moves are estimates; the last moves of the game are proven by the endgame solver."""
    decisions = sorted((d for s in cephalopod_result["seats"] for d in s["decisions"]), key=lambda d: d["index"])
    assert cephalopod_result["certainty"] == "mixed"
    moves = len(CEPHALOPOD_MOVES)
    assert all(d["exact"] for d in decisions if moves - d["index"] <= 8)
    # the solver's reach on the review's budget: the last 15 moves or so, not the middle game
    assert all(moves - d["index"] <= 15 for d in decisions if d["exact"])


def test_cephalopod_grades_hards_proven_moves_zero_and_exact():
    """Where Hard proves its move (the endgame), the review proves the same value: grade 0, exact."""
    record = cephalopod_record()
    for back in (10, 8, 6):
        state = record.replay(len(record.moves) - back)
        move, searcher, _ = cephalopod_ai.hard_search(state, random.Random(back), time_limit=60.0)
        assert searcher.solved
        graded = cephalopod_review.grade(state, move, seconds=60.0, settle_seconds=60.0)
        assert graded["exact"] and graded["value"] == graded["best_value"], back


def test_cephalopod_grades_every_move_of_hards_zero(cephalopod_result):
    """Every one of Hard's 66 decisions in the record but the planted one is graded 0 (the first
    look alone graded 62 of them 0: the other four are its disputes that Hard's own search
    settles, see review.py), while Medium's seat still has mistakes: the review does not grade
    everything 0."""
    white, black = cephalopod_result["seats"]
    hards = [d for d in white["decisions"] if d["index"] != CEPHALOPOD_BLUNDER]
    assert len(hards) == 66
    assert [(d["index"], d["loss"]) for d in hards if d["loss"] != 0] == []
    assert [m["index"] for m in white["mistakes"]] == [CEPHALOPOD_BLUNDER]
    assert len([d for d in black["decisions"] if d["loss"] > 0]) >= 3


def test_cephalopod_grades_hards_choices_among_equals_zero():
    """Hard shuffles its moves (`ai._shuffled`), so among equal moves its choice depends on its
    seed, and so can the depth its node budget reaches: every move Hard chooses with some seed is
    a move Hard's search in the review settles as no mistake."""
    state = cephalopod_record().replay(2)
    chosen = {}
    for seed in range(12):
        move, searcher, _ = cephalopod_ai.hard_search(state, random.Random(seed), time_limit=60.0)
        chosen.setdefault(move, set()).add(searcher.depth_done)
    assert len(chosen) >= 3 and len(set().union(*chosen.values())) >= 2  # ties, and two depths
    for move in chosen:
        settled = cephalopod_review.settle(state, {"move": move}, 60.0)
        assert settled["value"] == settled["best_value"] and settled["best"] == move, move


def test_a_cephalopod_dispute_cut_short_keeps_the_first_look():
    """Where the time cap stops Hard's search before the first look's depth (a slow phone, the
    end of the review's time), the first look's grade stands rather than a shallower one."""
    state = cephalopod_record().replay(CEPHALOPOD_BLUNDER)
    graded = cephalopod_review.first_look(state, "c3x c4 d3", seconds=60.0)
    assert cephalopod_review.disputed(graded) and graded["depth"] >= 2
    assert cephalopod_review.settle(state, graded, 0.0) == graded
    settled = cephalopod_review.settle(state, graded, 60.0)
    assert settled != graded and settled["depth"] >= graded["depth"]


def play_on(record: Record, start: int, seed: int) -> list[tuple]:
    """The record up to `start`, then Hard (White) against Medium to the end, seeded, both on
    their node budgets (the time caps lifted: the same games on a loaded machine): Hard's
    decisions, as (position before, move)."""
    state = record.replay(start)
    rng = random.Random(f"ai:{seed}")
    hards = []
    while not state.is_terminal():
        seat = state.to_move
        if seat == 0:
            move = cephalopod_ai.hard_search(state, rng, time_limit=60.0)[0]
            if len(state.legal_moves()) > 1:
                hards.append((state.clone(), move))
        else:
            move = cephalopod_ai.medium(state, seat, rng)
        state.apply(move, seat)
    return hards


@pytest.mark.parametrize("seed", [1, 2])
def test_cephalopod_grades_hards_moves_zero_in_fresh_games(seed, monkeypatch):
    """Fresh seeded Hard-vs-Medium games from the record's middle game (move 40) to the end:
    each of Hard's decisions is graded 0; the test is not idle: in each game the first look
    disputes some of them (review.py)."""
    monkeypatch.setattr(cephalopod_ai, "MEDIUM_SECONDS", 60.0)
    hards = play_on(cephalopod_record(), 40, seed)
    assert len(hards) >= 20
    disputed = 0
    for before, move in hards:
        disputed += cephalopod_review.disputed(cephalopod_review.first_look(before, move, seconds=60.0))
        graded = cephalopod_review.grade(before, move, seconds=60.0, settle_seconds=60.0)
        assert graded["value"] == graded["best_value"], (before.plies, move, graded)
    assert disputed >= 1


def exact_margins(state) -> dict[str, int]:
    """Every legal move's final margin for the mover under best play by plain minimax over the
    rules engine (no search code of the review's)."""

    @cache
    def value(cells: tuple, to_move: int) -> int:
        s = state.clone()
        s.cells, s.to_move = list(cells), to_move
        if s.is_terminal():
            scores = s.scores()
            return scores[to_move] - scores[1 - to_move]
        best = -99
        for move in s.legal_moves():
            child = s.clone()
            child.apply(move)
            best = max(best, -value(tuple(child.cells), child.to_move))
        return best

    out = {}
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        out[move] = -value(tuple(child.cells), child.to_move)
    return out


def test_a_cephalopod_endgame_position_is_graded_exactly():
    """Ten moves before the end (two empty squares): every choice is graded exactly, the values
    are the true final margins, and the losing capture costs exactly its two dice."""
    record = cephalopod_record()
    state = record.replay(len(record.moves) - 10)
    truth = exact_margins(state)
    assert sorted(truth.values()) == [7, 9]  # a real choice: one move loses two dice of margin
    for move, margin in truth.items():
        graded = cephalopod_review.grade(state, move, seconds=60.0, settle_seconds=60.0)
        assert graded["exact"], move
        assert graded["value"] == margin and graded["best_value"] == max(truth.values())
        assert truth[graded["best"]] == max(truth.values())


# --- Penta -----------------------------------------------------------------------------------------
def test_penta_finds_the_planted_blunder_and_grades_optimal_play_zero():
    record = penta_record()
    result = penta_solver.review(record)
    check_shape(result, record, lambda state: len(penta_solver.advise(state)))
    assert result["certainty"] == "exact"
    assert all(d["exact"] is True for s in result["seats"] for d in s["decisions"])
    first = result["seats"][0]
    assert [(d["index"], d["move"], d["best"]) for d in first["mistakes"]] == [
        (PENTA_BLUNDER, "score small_straight", "score threes")]
    assert first["mistakes"][0]["loss"] > 20  # points of expected final total
    # every other decision of seat 0 is the optimal level's own: graded 0
    assert all(d["loss"] == 0 for d in first["decisions"] if d["index"] != PENTA_BLUNDER)
    assert len(first["decisions"]) >= 13 * 2
    # the greedy seat gives points away too, but each of its mistakes is smaller than the blunder
    assert result["seats"][1]["mistakes"][0]["loss"] < first["mistakes"][0]["loss"]
