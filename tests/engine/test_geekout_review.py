"""Geek Out! Masters' review (pygame_core/games/geekout/review.py): every decision graded against
the Perfect level, in expected turn points before a seat's last turn and in chance to win in it;
a planted blunder found as the costliest mistake, Perfect's own moves graded 0, a last turn
checked by hand, determinism."""

from __future__ import annotations

import random

import pytest

from pygame_core.ai import choose_move
from pygame_core.games.geekout import review as rv
from pygame_core.games.geekout import solver, winprob
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.record import Record
from pygame_core.registry import get_entry
from pygame_core.rng import DiceRoller


def _worst(values):
    """(the worst move, its loss against the best) of [(move, value)]."""
    best = max(v for _, v in values)
    move, value = min(values, key=lambda mv: mv[1])
    return move, best - value


def perfect_game_with_blunders(seed: str):
    """A 2-player game of the Perfect level with two planted blunders: seat 0, in its second
    turn, plays the worst move of the first decision where that loses at least 5 expected turn
    points; seat 1, in its last turn (nobody plays after it), the worst move of the first
    decision where that loses at least 0.2 chance to win. Returns (record, planted) with planted
    seat -> (index, move, loss)."""
    match = Match.new("geekout", {"players": 2, "start": 0})
    roller, rng = DiceRoller(f"dice:{seed}"), random.Random(f"ai:{seed}")
    planted: dict[int, tuple] = {}
    state = match.state
    while not state.is_terminal():
        if state.is_chance():
            seat, move = CHANCE, roller.roll(state)
        else:
            seat = state.current_players()[0]
            move = choose_move(state, seat, "perfect", rng)
            if seat not in planted and len(state.legal_moves(seat)) > 1:
                if seat == 0 and len(state.pad[0]) == 1:
                    worst, loss = _worst(solver.move_values(state))
                    if loss >= 5:
                        move, planted[0] = worst, (match.index, worst, loss)
                elif seat == 1 and winprob.last_turn(state, 1):
                    model = rv._win_model(state, 1)
                    if model is not None:
                        policy, low, high, _ = model
                        worst, loss = _worst([(m, low + v * (high - low)) for m, v in solver.move_values(state, policy)])
                        if loss >= 0.2:
                            move, planted[1] = worst, (match.index, worst, loss)
        match.submit(seat, move, match.index)
        state = match.state
    return match.record, planted


@pytest.fixture(scope="module")
def game():
    record, planted = perfect_game_with_blunders("review:1")
    assert set(planted) == {0, 1}  # this seed has both (checked once: the dice are seeded)
    return record, planted, rv.review(record)


def test_review_is_registered_for_the_game():
    assert get_entry("geekout").review is rv.review


def test_planted_points_blunder_is_the_costliest_mistake_and_perfect_moves_grade_zero(game):
    _, planted, result = game
    index, move, loss = planted[0]
    seat0 = result["seats"][0]
    top = seat0["mistakes"][0]
    assert (top["index"], top["move"]) == (index, move)
    assert top["loss"] == pytest.approx(loss, abs=1e-4) and top["loss"] >= 5
    assert top["exact"] is True and "unit" not in top and top["round"] == 2
    assert top["best_value"] - top["value"] == pytest.approx(top["loss"], abs=2e-4)
    # Every other decision of both seats is the Perfect level's own move: graded 0.
    planted_indexes = {planted[0][0], planted[1][0]}
    others = [d for e in result["seats"] for d in e["decisions"] if d["index"] not in planted_indexes]
    assert len(others) > 50
    assert all(d["loss"] == 0 and d["move"] == d["best"] for d in others)
    assert seat0["total_loss"] == pytest.approx(loss, abs=1e-4)
    assert seat0["mistakes"] == [top]


def test_last_turn_is_graded_in_chance_to_win_exactly_for_the_last_seat(game):
    _, planted, result = game
    index, move, loss = planted[1]
    seat1 = result["seats"][1]
    top = seat1["mistakes"][0]
    assert (top["index"], top["move"], top["unit"]) == (index, move, "win")
    assert top["exact"] is True and top["round"] == 5  # nobody plays after seat 1
    assert top["loss"] == pytest.approx(loss, abs=1e-6) and 0 <= top["value"] < top["best_value"] <= 1
    # Win-probability losses stay out of the points total, and are summed on their own.
    assert seat1["total_loss"] == 0 and seat1["win_loss"] == pytest.approx(loss, abs=1e-6)
    # Seat 0's last turn came before seat 1's: graded in chance to win under Perfect's model of
    # seat 1's turn still to come (the expected-points policy's distribution), so an estimate.
    last0 = [d for d in result["seats"][0]["decisions"] if d["round"] == 5]
    assert last0 and all(d.get("unit") == "win" and d["exact"] is False for d in last0)
    earlier = [d for e in result["seats"] for d in e["decisions"] if d["round"] < 5]
    assert earlier and all("unit" not in d and d["exact"] is True for d in earlier)
    assert result["certainty"] == "mixed" and result["complete"] is True


def hand_made_record(last: str) -> Record:
    """Two players. Ann (seat 0) scores 28 (seven 42s) and 21 (six), and busts on seven Dragons
    otherwise: 49. Bo (seat 1) busts until his last turn, the game's last: three Hearts bring in
    his inactive dice (all 42s), he continues from seven 42s and a Meeple rerolls a 42 into a
    42: nine 42s banked (45 points, not enough), one die used, none inactive. Then `last`."""
    bust = [(CHANCE, "roll 5 5 5 5 5 5 5")]
    moves = [(CHANCE, "roll 4 4 4 4 4 4 4"), (0, "stop")] + bust
    moves += [(CHANCE, "roll 1 4 4 4 4 4 4"), (0, "meeple 42"), (CHANCE, "roll 4"), (0, "stop")] + bust
    moves += bust * 5  # Ann's rounds 3-5 and Bo's rounds 3-4
    moves += [(CHANCE, "roll 3 3 3 4 4 4 4"), (1, "heart"), (CHANCE, "roll 4"), (1, "heart"), (CHANCE, "roll 4"),
              (1, "heart"), (CHANCE, "roll 4"), (1, "continue"), (CHANCE, "roll 1 4 4"), (1, "meeple 42"),
              (CHANCE, "roll 4"), (1, last)]
    if last == "continue":
        moves += [(CHANCE, "roll 4"), (1, "stop")]  # the tenth 42: 55 points (the only move: stop), Bo wins
    return Record("geekout", {"players": 2, "start": 0}, moves)


def test_a_last_turn_checked_by_hand():
    # Bo at 0 against Ann's 49, nine 42s banked (45: a loss if he stops), one die to throw and
    # no inactive die. Continuing: a 42 (1/6) makes 55 and wins; a Dragon or a lone Spaceship
    # (2/6) busts; a Heart (it brings in nothing), a lone Meeple or a lone Superhero (3/6) comes
    # back to this same decision. So C = 1/6 + C/2: C = 1/3, and stopping gives away all of it.
    record = hand_made_record("stop")
    state = record.replay()
    assert state.is_terminal() and state.scores() == [49, 45]
    result = rv.review(record)
    bo = result["seats"][1]
    last = bo["decisions"][-1]
    assert (last["index"], last["move"], last["best"]) == (len(record.moves) - 1, "stop", "continue")
    assert last["unit"] == "win" and last["exact"] is True
    assert last["value"] == 0 and last["best_value"] == pytest.approx(1 / 3, abs=1e-6)
    assert last["loss"] == pytest.approx(1 / 3, abs=1e-6) and bo["mistakes"][0] == last
    # Bo's first decision (continue from seven 42s, 28 points: a sure loss) was right: 0.
    first = bo["decisions"][0]
    assert first["move"] == first["best"] == "continue" and first["loss"] == 0 and first["value"] > 0
    # Forced moves (the Hearts, the Meeple on its only target) and the dice are not decisions.
    assert [d["move"] for d in bo["decisions"]] == ["continue", "stop"]
    # Ann's one decision (stop with six 42s in round 2, 21 points, against continuing's 14.01
    # expected) is graded in expected turn points, and it was right.
    ann = result["seats"][0]["decisions"]
    assert [d["move"] for d in ann] == ["stop"] and "unit" not in ann[0] and ann[0]["exact"] is True
    assert ann[0]["value"] == ann[0]["best_value"] == 21 and ann[0]["loss"] == 0
    assert solver.get_policy().continue_value(3, 6) < 21
    # The mistakes rank a chance to win by its points equivalent (about one point per 1%).
    assert last["rank_loss"] == pytest.approx(last["loss"] / rv.points_rate(2), rel=1e-5)
    assert 0.008 < rv.points_rate(2) < 0.011 and 0.008 < rv.points_rate(3) < 0.011


def test_the_best_move_in_a_won_last_turn_is_graded_zero():
    record = hand_made_record("continue")
    state = record.replay()
    assert state.scores() == [49, 55]
    last = rv.review(record)["seats"][1]["decisions"][-1]
    assert last["move"] == last["best"] == "continue" and last["loss"] == 0


def test_the_review_is_deterministic_and_reads_a_record_json(game):
    record, _, result = game
    assert rv.review(record.to_json()) == result
    # A cold win-probability model (its solves are cached by utility up to scale and shift) gives
    # the same grades: on the hand-made record, whose one last-turn solve is cheaper under Pyodide.
    hand = hand_made_record("stop")
    warm = rv.review(hand)
    winprob._cache.clear()
    assert rv.review(hand.to_json()) == warm


def test_every_decision_is_a_choice_of_its_seat(game):
    record, _, result = game
    state = record.new_state()
    choices = []
    for index, (player, move) in enumerate(record.moves):
        if player != CHANCE and len(state.legal_moves(player)) > 1:
            choices.append((player, index))
        state.apply(move, player)
    graded = sorted((e["seat"], d["index"]) for e in result["seats"] for d in e["decisions"])
    assert graded == sorted(choices)
    for entry in result["seats"]:
        curve = entry["curve"]
        assert len(curve) == 6 and curve[-1] == entry["score"]
        assert curve[0] == pytest.approx(5 * solver.get_policy().fresh_turn(), abs=1e-3)


def test_other_games_records_are_refused():
    with pytest.raises(ValueError):
        rv.review(Record("penta", {"players": 1}, []))
