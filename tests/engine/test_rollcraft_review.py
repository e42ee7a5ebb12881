"""RollCraft T8's review (pygame_core/games/rollcraft/review.py): every decision of every seat graded
with Hard's evaluation, in points of expected final score (an estimate). A fixed record with one
planted blunder finds it as that seat's costliest mistake; Hard's own choices grade 0; the review is
deterministic and grades exactly the moves that were decisions."""

from __future__ import annotations

import pytest

from pygame_core.games.rollcraft import ai
from pygame_core.games.rollcraft.review import decision_rng, review
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.record import Record
from pygame_core.registry import get_entry
from pygame_core.rng import DiceRoller

# A two-seat game, seeded dice ("dice:b1"): seat 0 played the level medium except at move 55, its
# first choice of round 4 (dice 8 7 7 3 1 3), where it took the grey 8 as an empty choice: nothing
# written, and every lower die (all five) sent to the silver platter, so the turn ended there.
# Medium would have taken the white 3 to Green. Seat 1 played Hard, given `decision_rng(index)`.
BLUNDER = (
          "-1 roll 2 8 7 2 5 4;0 take grey grey;-1 roll 6 2 3 3 5;0 take white grey;-1 roll 4;0 take yellow Y6;"
          "1 take green green;-1 roll 6 4 3 5 3 4;1 take white green;-1 roll 6 2 8;1 take green green;"
          "1 question blue 16;0 take grey grey;-1 roll 4 8 8 1 7 7;0 take white grey;-1 roll 6 3 2;"
          "0 take blue blue;-1 roll 2;0 take yellow Y8;0 done;1 take green green;1 done;-1 roll 5 4 8 1 4 2;"
          "1 take grey grey;1 return yellow;1 throw;-1 roll 1 6;1 take yellow Y3;-1 roll 7;1 take blue blue;"
          "1 plus blue blue;1 question yellow Y11;0 take white blue;0 plus blue blue;0 question yellow Y5;"
          "0 t8 pink;-1 roll 7 1 5 3 1 3;0 take yellow Y3;-1 roll 4 4 5 5 1;0 take white Y3;-1 roll 2 2 1 8;"
          "0 take pink pink;1 take grey grey;-1 roll 7 3 7 5 8 1;1 take white blue;1 t8 grey 5;"
          "-1 roll 4 7 3 6 1;1 take grey grey;1 throw;-1 roll 4 1;1 take yellow Y7;0 take green green;"
          "0 black green 1;1 black yellow Y3;-1 roll 8 7 7 3 1 3;0 take grey none;0 return white;"
          "0 return yellow;0 lock yellow;0 throw;-1 roll 7;0 take white green;0 question blue 9;0 t8 grey 7;"
          "-1 roll 6;0 take yellow Y11;1 take pink pink;-1 roll 2 2 1 3 4 4;1 take white grey;"
          "1 question pink 8;1 question yellow Y7;1 return green;1 return blue;1 lock pink;1 throw;-1 roll 5 2;"
          "1 take pink pink;-1 roll 6;1 reroll;-1 roll 1;1 take blue blue;0 take green green;"
          "-1 roll 3 4 8 5 4 1;0 take white blue;0 lock blue;0 throw;-1 roll 5 4 8 6;0 take yellow Y7;"
          "-1 roll 1 2 1 5;0 reroll;-1 roll 6 4 4 1;0 take grey grey;1 take blue blue;-1 roll 8 4 1 1 2 5;"
          "1 reroll;-1 roll 2 2 6 7 5 2;1 take white Y8;1 lock yellow;1 throw;-1 roll 1 2 4 3;1 take blue blue;"
          "1 question pink 8;-1 roll 4 1 2;1 reroll;-1 roll 1 8 5;1 take green green;1 plus blue blue;"
          "1 t8 green;1 plus white blue;0 take pink pink;-1 roll 7 5 6 2 3 6;0 take grey grey;0 return white;"
          "0 throw;-1 roll 5;0 reroll;-1 roll 1;0 reroll;-1 roll 5;0 take white Y4;0 return yellow;0 throw;"
          "-1 roll 8;0 take yellow Y10;1 take green green;1 question grey 1;-1 roll 1 3 6 1 6 5;"
          "1 take yellow Y12;1 question grey 5;1 lock pink;1 throw;-1 roll 6 8;1 take pink pink;"
          "1 question grey 5;1 question green 1;1 t8 yellow Y8;-1 roll 7 5;1 reroll;-1 roll 7 6;"
          "1 take white green;1 question pink 8;1 t8 blue;1 plus green green;1 question yellow Y11;"
          "0 take grey grey")
PLANTED = 55


def blunder_record() -> Record:
    moves = [(int(seat), move) for seat, move in (entry.split(" ", 1) for entry in BLUNDER.split(";"))]
    return Record("rollcraft", {"players": 2, "start": 0}, moves)


@pytest.fixture(scope="module")
def graded() -> dict:
    return review(blunder_record())


def hard_game(players: int, seed: str, rounds: int | None = None) -> Record:
    """Every seat plays Hard, given the generator the review seeds its throws from at each position
    (`decision_rng`); `rounds`: stop when that round is over (a shorter record)."""
    match = Match.new("rollcraft", {"players": players, "start": 0})
    roller = DiceRoller(f"dice:{seed}")
    while not match.state.is_terminal() and (rounds is None or match.state.round <= rounds):
        state = match.state
        if state.is_chance():
            seat, move = CHANCE, roller.roll(state)
        else:
            seat = state.current_players()[0]
            move = ai.hard(state, seat, decision_rng(match.index))
        match.submit(seat, move, match.index)
    return match.record


def test_the_review_is_registered_and_says_its_unit_is_an_estimate(graded):
    assert get_entry("rollcraft").review is review
    assert graded["game"] == "rollcraft" and graded["complete"] is True
    assert graded["certainty"] == "estimate"
    decisions = [d for seat in graded["seats"] for d in seat["decisions"]]
    assert decisions and all(d["exact"] is False for d in decisions)


def test_the_planted_blunder_is_the_costliest_mistake_of_its_seat(graded):
    seat = graded["seats"][0]
    worst = seat["mistakes"][0]
    assert worst["index"] == PLANTED and worst["move"] == "take grey none"
    assert worst["kind"] == "choose" and worst["round"] == 4 and worst["roll"] == 1
    assert worst["dice"] == [["grey", 8], ["yellow", 7], ["blue", 7], ["green", 3], ["pink", 1], ["white", 3]]
    assert worst["best"] != worst["move"] and worst["best_value"] > worst["value"]
    assert worst["loss"] == pytest.approx(worst["best_value"] - worst["value"], abs=0.011)
    # clearly the worst: a whole turn thrown away costs more than twice any other decision's loss
    assert worst["loss"] > 2 * seat["mistakes"][1]["loss"] > 0
    assert seat["total_loss"] == pytest.approx(sum(d["loss"] for d in seat["decisions"]), abs=0.01)
    assert [d["loss"] for d in seat["mistakes"]] == sorted((d["loss"] for d in seat["mistakes"]), reverse=True)


def test_every_decision_and_only_decisions_are_graded(graded):
    """A decision is a seat's move with more than one legal option; the dice and forced moves are not."""
    record = blunder_record()
    expected = {0: [], 1: []}
    state = record.new_state()
    for index, (seat, move) in enumerate(record.moves):
        if seat != CHANCE and len(state.legal_moves(seat)) > 1:
            expected[seat].append((index, move))
        state.apply(move, seat)
    for s, entry in enumerate(graded["seats"]):
        assert [(d["index"], d["move"]) for d in entry["decisions"]] == expected[s]
        assert all(d["loss"] >= 0 and d["value"] <= d["best_value"] + d["loss"] + 0.011 for d in entry["decisions"])
        assert entry["score"] == state.scores()[s]
        # one point at the start and one per round, the last the final score (as the results plot)
        assert len(entry["curve"]) == state.rounds + 1 and entry["curve"][-1] == state.scores()[s]


@pytest.mark.parametrize("players, rounds", [(1, 3), (2, 2)])
def test_hard_s_own_moves_grade_zero(players, rounds):
    """Solo (Hard's learnt correction on) over three rounds, two seats over two: Hard's every decision
    is the review's best, with loss 0 (choices and Returns, Locks or rolling on before a roll)."""
    record = hard_game(players, f"zero:{players}", rounds)
    result = review(record)
    assert result["complete"] is False  # a record cut after a round is reviewed as far as it goes
    decisions = [d for entry in result["seats"] for d in entry["decisions"]]
    assert len(decisions) >= 15
    assert {d["kind"] for d in decisions} >= {"choose", "prepare"}
    assert [(d["index"], d["move"], d["loss"]) for d in decisions if d["loss"] or d["move"] != d["best"]] == []
    assert all(not entry["mistakes"] and entry["total_loss"] == 0 for entry in result["seats"])


def test_the_review_is_deterministic_and_reads_a_record_s_json(graded):
    """A decision's grade depends on the position and its place in the record alone: the first 45
    moves (into round 3) reviewed again, from the record's JSON, grade exactly as in the whole game's
    review (the Pyodide suite runs this file too: one short review more, not the whole game again)."""
    record = blunder_record()
    record.moves = record.moves[:45]
    again = review(record.to_json())
    for s, entry in enumerate(again["seats"]):
        assert entry["decisions"] and entry["decisions"] == [d for d in graded["seats"][s]["decisions"] if d["index"] < 45]
    # and leaves Hard's evaluation as it found it (the review remembers values only while it runs)
    assert ai.value.__name__ == "value" and ai._HARD[0] is False
