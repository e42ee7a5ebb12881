"""Rolf's review (pygame_core/games/rolf/review.py): every throw with a real choice graded by Hard's
search in percentage points of estimated chance to win. A fixed record with one planted blunder
finds it as that seat's costliest mistake; Hard's own choices grade 0."""

from __future__ import annotations

import math

import pytest

from pygame_core.ai import self_play
from pygame_core.protocol import CHANCE
from pygame_core.record import Record
from pygame_core.registry import get_entry
from pygame_core.games.rolf import ai
from pygame_core.games.rolf.review import MIN_PLANS, grade, plans_per_decision, review

# A two-seat game, seeded dice: seat 0 played the level medium except at move 57, where it took
# 4-2 and 3-2 (the plan medium's static estimate ranks last of all 15) instead of Hard's 2-4 and
# 3-4 (joining its own squares and stealing); seat 1 played Hard (its search finished in time).
BLUNDER = ("-1 roll 2 4 6;0 take 2-4;0 take 2-6;0 next;-1 roll 4 5 6;1 take 5-4;1 take 6-4;1 next;-1 roll 1 2 5;"
           "0 take 1-5;0 take 2-5;0 next;-1 roll 2 4 6;1 take 2-4;1 take 2-6;1 next;-1 roll 1 4 5;0 take 5-4;"
           "0 take 1-4;0 next;-1 roll 2 4 4;1 take 4-4;1 take 4-2;1 extra;-1 roll 1 3 6;1 take 1-6;1 take 3-6;"
           "1 next;-1 roll 1 3 5;0 take 1-3;0 take 3-5;0 next;-1 roll 1 1 2;1 take 1-1;1 take 1-2;1 take 2-1;"
           "1 extra;-1 roll 1 4 6;1 take 1-4;1 take 4-6;1 next;-1 roll 1 2 3;0 take 1-2;0 take 2-3;0 next;"
           "-1 roll 1 1 2;1 take 1-2;1 extra;-1 roll 1 3 4;1 take 1-3;1 take 3-4;1 next;-1 roll 4 4 5;0 take 4-4;"
           "0 take 4-5;0 extra;-1 roll 2 3 4;0 take 4-2;0 take 3-2;0 next;-1 roll 2 3 5;1 take 2-3;1 take 3-5;"
           "1 next;-1 roll 1 3 5;0 take 1-3;0 take 3-5;0 next;-1 roll 1 1 5;1 take 1-5;1 take 5-1;1 extra;"
           "-1 roll 3 5 6;1 take 3-5;1 take 5-6;1 next;-1 roll 4 4 6;0 take 4-6;0 take 6-4;0 extra;-1 roll 1 2 4;"
           "0 take 1-4;0 take 2-4;0 next;-1 roll 1 2 5;1 take 2-5;1 take 5-2;1 next;-1 roll 1 2 5;0 take 1-5;"
           "0 take 2-5;0 next;-1 roll 1 2 6;1 take 6-1;1 take 6-2;1 next;-1 roll 3 4 5;0 take 3-5;0 take 4-3")
PLANTED = 57


def blunder_record(upto: int | None = None) -> Record:
    moves = [(int(seat), move) for seat, move in (entry.split(" ", 1) for entry in BLUNDER.split(";"))]
    return Record("rolf", {"players": 2, "start": 0}, moves[:upto])


@pytest.fixture(scope="module")
def graded() -> dict:
    return review(blunder_record())


def real_choice_throws(record: Record) -> list[tuple[int, int]]:
    """(seat, index of the throw's first take) for every throw whose legal squares outnumber its
    free placements, counted from the dice and the board without the review's code: three
    different dice place 2 of their up to 6 squares, three of a kind 3 of the empty or other
    seats' off-diagonal squares; a pair takes all its legal squares."""
    out = []
    state = record.new_state()
    for index, (seat, move) in enumerate(record.moves):
        if seat == CHANCE:
            dice = tuple(int(v) for v in move.split()[1:])
            thrower = state.seat
            state.apply(move, seat)
            own = state.owners[thrower]
            if state.rolling:
                continue  # skipped: nothing to take
            a, b, c = dice
            if len(set(dice)) == 3:
                squares = {(a, b), (b, a), (a, c), (c, a), (b, c), (c, b)}
                legal = sum(1 for r, col in squares if not own >> ((r - 1) * 6 + col - 1) & 1)
                if legal > 2:
                    out.append((thrower, index + 1))
            elif len(set(dice)) == 1:
                off = sum(1 for i in range(36) if i // 6 != i % 6 and not own >> i & 1)
                if off > 3:
                    out.append((thrower, index + 1))
            continue
        state.apply(move, seat)
    return out


def test_the_planted_blunder_is_its_seats_costliest_mistake(graded):
    mistakes = graded["seats"][0]["mistakes"]
    worst = mistakes[0]
    assert worst["index"] == PLANTED and worst["move"] == "take 4-2 3-2"
    assert worst["best"] != worst["move"] and worst["loss"] > 10, "a clear blunder: over 10 points of chance to win"
    assert worst["loss"] == pytest.approx(worst["best_value"] - worst["value"], abs=0.02)
    assert all(m["loss"] < worst["loss"] / 5 for m in mistakes[1:]), "medium's other choices are near Hard's"
    assert (worst["round"], worst["throw"], worst["dice"]) == (6, 2, [2, 3, 4])  # after 4 4 5's extra throw


def test_hards_moves_in_the_record_grade_zero(graded):
    hard = graded["seats"][1]
    assert hard["decisions"] and hard["total_loss"] == 0 and hard["mistakes"] == []
    assert all(d["move"] == d["best"] and d["loss"] == 0 for d in hard["decisions"])


def test_every_throw_with_a_real_choice_is_graded_once_and_nothing_else(graded):
    record = blunder_record()
    expected = real_choice_throws(record)
    got = sorted((entry["seat"], d["index"]) for entry in graded["seats"] for d in entry["decisions"])
    assert got == sorted(expected) and len(got) == 17
    for entry in graded["seats"]:
        for d in entry["decisions"]:
            # `move` lists the throw's takes from `index` on, as the record holds them
            takes = [m for _, m in record.moves[d["index"]:d["index"] + len(d["move"].split()) - 1]]
            assert d["move"] == "take " + " ".join(m[5:] for m in takes)
            assert d["exact"] is False and d["loss"] >= 0 and d["best_value"] >= d["value"]
            assert 0 <= d["value"] <= 100.01 and 0 <= d["best_value"] <= 100.01  # % chance to win (+ a hair of margin)


def test_the_result_follows_the_review_contract(graded):
    final = blunder_record().replay()
    assert graded["complete"] and graded["certainty"] == "estimate" and graded["game"] == "rolf"
    rounds = final.turn // 2 + 1  # the rounds completed, and the last one, cut short by the win
    for seat, entry in enumerate(graded["seats"]):
        assert entry["seat"] == seat and entry["score"] == final.scores()[seat]
        losses = [d["loss"] for d in entry["decisions"]]
        assert entry["total_loss"] == pytest.approx(sum(losses), abs=0.01)
        assert entry["mean_loss"] == pytest.approx(sum(losses) / len(losses), abs=0.001)
        assert [m["loss"] for m in entry["mistakes"]] == sorted((x for x in losses if x > 0), reverse=True)[:5]
        curve = entry["curve"]
        assert len(curve) == rounds + 1 and all(0 <= v <= 100 for v in curve)  # % chance to win
        assert curve[-1] == (100 if seat == 0 else 0)  # seat 0 reached 100 points
    assert graded["seats"][0]["curve"][0] + graded["seats"][1]["curve"][0] == pytest.approx(100, abs=0.02)


def test_a_record_cut_inside_a_throw_leaves_that_throw_ungraded(graded):
    cut = review(blunder_record(PLANTED + 1))  # the blunder's first square only
    assert not cut["complete"]
    # the throws before it graded as in the whole game (a review is deterministic), the cut one not
    for whole, part in zip(graded["seats"], cut["seats"]):
        assert part["decisions"] == [d for d in whole["decisions"] if d["index"] < PLANTED]


def test_registered_and_deterministic():
    entry = get_entry("rolf")
    assert entry.review is review
    record = blunder_record(20)
    assert review(record.to_json()) == review(record)  # the JSON form too, the same result twice
    with pytest.raises(ValueError):
        review(Record("penta", {"players": 1}, []))


def test_hards_own_choice_grades_zero(monkeypatch):
    # Hard without its time limit (in play it searches the same plans whenever its search ends
    # inside the budget, which on CPython it does by far: bench/rolf_decisions.py); the real level
    # function plays, with its plan cache and its playing order.
    monkeypatch.setattr(ai.search, "__defaults__", (math.inf, ai.HARD_PLANS))
    ai.clear_cache()
    record, _ = self_play("rolf", ["medium", "hard"], seed="review-hard", start=1)
    result = review(record)
    hard = result["seats"][1]
    assert len(hard["decisions"]) >= 3
    assert all(d["loss"] == 0 and d["move"] == d["best"] for d in hard["decisions"]), hard["mistakes"]


def test_long_games_at_many_seats_search_fewer_plans_and_hard_still_grades_zero(graded):
    assert plans_per_decision(18, 2) == ai.HARD_PLANS  # a typical two-seat game: every plan of Hard's
    assert plans_per_decision(40, 4) == MIN_PLANS < plans_per_decision(25, 4) < ai.HARD_PLANS
    assert {d["plans"] for e in graded["seats"] for d in e["decisions"]} == {ai.HARD_PLANS}
    # Hard picked the best of its six searched plans: against only the first two it is still the best
    record = blunder_record()
    for d in graded["seats"][1]["decisions"]:
        before = record.replay(d["index"])
        squares = [ai.NAMES.index(name) for name in d["move"].split()[1:]]
        assert grade(before, squares, plans=MIN_PLANS)["loss"] == 0
    # and the planted blunder is still seen against the first two
    before = record.replay(PLANTED)
    assert grade(before, [ai.NAMES.index("4-2"), ai.NAMES.index("3-2")], plans=MIN_PLANS)["loss"] > 10
