"""Penta scoring, joker and turn rules against worked examples (shared/rules/penta.md)."""

import pytest

from pygame_core.games.penta.rules import (
    BOXES,
    Penta,
    allowed_boxes,
    box_score,
    card_total,
    empty_card,
    write_score,
)
from pygame_core.protocol import CHANCE, IllegalMove


@pytest.mark.parametrize(
    "box,dice,points",
    [
        ("ones", [1, 1, 3, 4, 6], 2),
        ("fours", [4, 4, 4, 2, 1], 12),
        ("sixes", [1, 2, 3, 4, 5], 0),
        ("three_kind", [3, 3, 3, 5, 6], 20),
        ("three_kind", [3, 3, 5, 5, 6], 0),
        ("four_kind", [2, 2, 2, 2, 6], 14),
        ("four_kind", [2, 2, 2, 6, 6], 0),
        ("full_house", [2, 2, 3, 3, 3], 25),
        ("full_house", [4, 4, 4, 4, 4], 0),  # five equal are not a full house without the joker
        ("full_house", [2, 2, 3, 3, 4], 0),
        ("small_straight", [1, 2, 3, 4, 6], 30),
        ("small_straight", [3, 4, 5, 6, 6], 30),
        ("small_straight", [1, 2, 3, 5, 6], 0),
        ("large_straight", [2, 3, 4, 5, 6], 40),
        ("large_straight", [1, 2, 3, 4, 6], 0),
        ("chance", [1, 1, 3, 4, 6], 15),
        ("penta", [5, 5, 5, 5, 5], 50),
        ("penta", [5, 5, 5, 5, 4], 0),
    ],
)
def test_box_scores(box, dice, points):
    assert box_score(box, dice) == points


def card_with(**filled):
    card = empty_card()
    card.update(filled)
    return card


def test_joker_forces_the_matching_upper_box():
    card = card_with(penta=50)
    dice = [4] * 5
    assert allowed_boxes(card, dice) == ["fours"]
    assert write_score(card, "fours", dice) == (20, 100)


def test_joker_then_any_free_lower_box_with_fixed_values():
    card = card_with(penta=50, fours=8)
    dice = [4] * 5
    assert allowed_boxes(card, dice) == [
        "three_kind", "four_kind", "full_house", "small_straight", "large_straight", "chance"
    ]
    assert write_score(card, "full_house", dice) == (25, 100)
    assert write_score(card, "small_straight", dice) == (30, 100)
    assert write_score(card, "large_straight", dice) == (40, 100)
    assert write_score(card, "three_kind", dice) == (20, 100)
    assert write_score(card, "chance", dice) == (20, 100)


def test_joker_then_other_upper_box_scoring_zero_keeps_bonus():
    lower = {box: 0 for box in ("three_kind", "four_kind", "full_house", "small_straight", "large_straight", "chance")}
    card = card_with(penta=50, fours=8, **lower)
    dice = [4] * 5
    assert allowed_boxes(card, dice) == ["ones", "twos", "threes", "fives", "sixes"]
    assert write_score(card, "ones", dice) == (0, 100)


def test_spent_penta_box_means_no_joker_and_no_bonus():
    card = card_with(penta=0)
    dice = [4] * 5
    assert "chance" in allowed_boxes(card, dice) and "ones" in allowed_boxes(card, dice)
    assert write_score(card, "large_straight", dice) == (0, 0)
    assert write_score(card, "full_house", dice) == (0, 0)


def test_free_penta_box_is_an_ordinary_roll():
    card = empty_card()
    dice = [6] * 5
    assert allowed_boxes(card, dice) == list(BOXES)
    assert write_score(card, "penta", dice) == (50, 0)
    assert write_score(card, "full_house", dice) == (0, 0)


def test_upper_bonus_at_63():
    card = card_with(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert card_total(card, 0) == 63 + 35
    card["sixes"] = 12
    assert card_total(card, 0) == 57
    assert card_total(card_with(penta=50, fours=20), 1) == 170


def play(state, *moves):
    for move in moves:
        state.apply(move)
    return state


def test_a_round_keep_and_reroll_keeps_positions():
    state = Penta.new_state({"players": 2, "start": 1})
    assert state.current_players() == [CHANCE] and state.chance() == (6,) * 5
    play(state, "roll 3 5 3 1 6")
    assert state.current_players() == [1] and state.rolls == 1
    play(state, "keep 3 3")
    assert state.chance() == (6, 6, 6)
    play(state, "roll 3 2 3")
    assert state.dice == [3, 3, 3, 2, 3]
    play(state, "keep 3 3 3 3", "roll 3")
    assert state.dice == [3, 3, 3, 3, 3] and state.rolls == 3
    assert not any(m.startswith("keep") for m in state.legal_moves())
    play(state, "score penta")
    assert state.cards[1]["penta"] == 50 and state.current_players() == [CHANCE]
    play(state, "roll 1 1 1 1 1")
    assert state.current_players() == [0]


def test_second_penta_earns_bonus_through_the_turn():
    state = Penta.new_state({"players": 1})
    play(state, "roll 2 2 2 2 2", "score penta", "roll 2 2 2 2 2")
    assert state.legal_moves()[-1] == "score twos"
    assert [m for m in state.legal_moves() if m.startswith("score")] == ["score twos"]
    with pytest.raises(IllegalMove) as err:
        state.apply("score chance")
    assert err.value.code == "penta.joker_forced"
    play(state, "score twos")
    assert state.scores() == [50 + 10 + 100]


@pytest.mark.parametrize(
    "move,code",
    [
        ("score nothing", "penta.unknown_box"),
        ("keep 6", "penta.keep_missing"),
        ("keep 1 2 3 4 5", "penta.keep_all"),
        ("jump", "error.bad_move"),
        ("keep x", "error.bad_move"),
        ("keep 2 1", "error.bad_move"),  # not canonical: keeps list their values in ascending order
        ("score  chance", "error.bad_move"),
        ("score\tfives", "error.bad_move"),
    ],
)
def test_illegal_moves_are_explained_and_change_nothing(move, code):
    state = play(Penta.new_state({"players": 1}), "roll 1 2 3 4 5")
    before = state.to_json()
    with pytest.raises(IllegalMove) as err:
        state.apply(move)
    assert err.value.code == code
    assert state.to_json() == before


def test_box_used_and_no_rolls_left_and_bad_roll():
    state = play(Penta.new_state({"players": 1}), "roll 1 2 3 4 5", "score chance", "roll 1 1 1 1 1")
    before = state.to_json()
    with pytest.raises(IllegalMove) as err:
        state.apply("score chance")
    assert err.value.code == "penta.box_used" and state.to_json() == before
    play(state, "keep", "roll 2 2 2 2 2", "keep", "roll 3 3 3 3 3")
    before = state.to_json()
    with pytest.raises(IllegalMove) as err:
        state.apply("keep")
    assert err.value.code == "penta.no_rolls_left" and state.to_json() == before
    state = Penta.new_state({"players": 1})
    fresh = state.to_json()
    for bad in ["roll 1 2 3", "roll 1 2 3 4 7", "roll 1 2 3 4 55", "roll 1 2 3 4 05", "score chance"]:
        with pytest.raises(IllegalMove) as err:
            state.apply(bad)
        assert err.value.code in ("error.bad_roll", "error.not_your_turn"), bad
        assert state.to_json() == fresh, bad


def test_not_your_turn_and_game_over():
    state = play(Penta.new_state({"players": 2}), "roll 1 2 3 4 5")
    with pytest.raises(IllegalMove) as err:
        state.apply("score chance", player=1)
    assert err.value.code == "error.not_your_turn"
    with pytest.raises(IllegalMove):
        state.apply("score chance", player=CHANCE)


def test_sacrifice_prompt():
    state = Penta.new_state({"players": 1})
    card = state.cards[0]
    for box in BOXES:
        card[box] = 0
    card["full_house"] = None
    card["large_straight"] = None
    state.apply("roll 1 1 3 4 6")
    assert state.prompt()[0] == "penta.prompt.sacrifice"
    state2 = play(Penta.new_state({"players": 1}), "roll 1 1 3 4 6")
    assert state2.prompt() == ("penta.prompt.keep_or_score", {"rolls_left": 2})


def test_options_are_checked():
    for options in ({"players": 0}, {"players": 6}, {"players": "2"}, {"players": 2, "start": 2}, {}):
        with pytest.raises(IllegalMove):
            Penta.new_state(options)


def test_full_game_ends_after_13_rounds_each():
    state = Penta.new_state({"players": 3})
    rounds = 0
    while not state.is_terminal():
        state.apply("roll 6 6 6 5 5")
        state.apply(next(m for m in state.legal_moves() if m.startswith("score")))
        rounds += 1
    assert rounds == 39
    assert state.legal_moves() == [] and state.current_players() == []
    assert all(None not in card.values() for card in state.cards)
