"""RollCraft T8 against its rules (shared/rules/rollcraft-t8.md): every numbered rule R… and the
worked examples of section 16, plus invariants over random games with 1–4 players."""

from __future__ import annotations

import json
import random

import pytest

from pygame_core.match import Match
from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.record import Record
from pygame_core.rng import DiceRoller
from pygame_core.games.rollcraft import board as board_module
from pygame_core.games.rollcraft.board import BOARD, Board
from pygame_core.games.rollcraft.rules import RollCraft, RollCraftState
from pygame_core.games.rollcraft.sheet import LOCK, PLUS, REROLL, RETURN, Sheet

GREY, YELLOW, BLUE, GREEN, PINK, WHITE = range(6)


def new(players=1, start=0) -> RollCraftState:
    return RollCraft.new_state({"players": players, "start": start})


def play(state: RollCraftState, *moves: str, seat: int | None = None) -> RollCraftState:
    """Apply moves: 'roll …' as chance, the rest for `seat` (default: the first current seat)."""
    for move in moves:
        who = CHANCE if state.is_chance() else (seat if seat is not None else state.current_players()[0])
        state.apply(move, who)
    return state


def at_round(state: RollCraftState, round_: int) -> RollCraftState:
    """Jump to the start of an active turn in round `round_` (no benefits applied)."""
    state.round = round_
    state.turn_in_round = 0
    state._start_turn()
    return state


def yellow_box(name: str) -> int:
    return BOARD.yellow_index[name]


# --- the board as data (R1.2, section 13/14) ----------------------------------------------------------
def test_board_data_matches_the_printed_tables():
    b = BOARD
    assert b.version == "1.0" and b.faces == 8
    assert b.grey_points == (5, 6, 7, 9, 11, 13, 16, 19) and sum(b.grey_points) == 86
    assert b.grey_bonus == ("lock", "question:yellow", "plusOne", "question:pink", "question:green", "rune",
                            "t8:blue", "t8:yellow")
    assert [b.yellow_value[b.yellow_index[f"Y{i}"]] for i in range(1, 13)] == [3, 6, 1, 5, 7, 4, 4, 2, 5, 8, 6, 3]
    assert b.yellow_col_members[0] == (0, 4, 8) and b.yellow_row_members[4] == (8, 9)
    assert b.yellow_points[-1] == 206 and b.yellow_row_bonus[2] == "t8:pink" and b.yellow_col_bonus[1] == "rune"
    assert b.blue_points == (1, 3, 5, 8, 12, 16, 21, 27, 34, 42, 51, 61)
    assert b.green_mult == (1, 1, 2, 2, 2, 1, 2, 2, 3, 3)
    assert b.pink_threshold == (0, 3, 4, 5, 6, 7, 8) and b.pink_bonus[-1] == "rune"
    assert b.rounds == {1: 6, 2: 6, 3: 5, 4: 4}
    assert b.round_benefits == ("reroll", "plusOne", "return", "question:black", None, None)
    symbols = [*b.grey_bonus, *b.yellow_row_bonus, *b.yellow_col_bonus, *b.blue_bonus, *b.green_bonus, *b.pink_bonus]
    assert len([s for s in symbols if s]) == 40  # section 13.7


def test_a_board_is_data_a_changed_copy_changes_the_game():
    data = json.loads(board_module.board_1_0.BOARD_JSON)
    data["boardVersion"] = "1.1"
    data["zones"]["pink"]["boxes"][1]["bonus"] = "rune"
    other = Board(data)
    assert other.version == "1.1" and other.pink_bonus[1] == "rune" and BOARD.pink_bonus[1] == "lock"
    sheet = Sheet(other)
    sheet.write_pink(5)
    sheet.write_pink(3)
    assert sheet.runes == 1
    data["zones"]["pink"]["boxes"][1]["bonus"] = "question:purple"
    with pytest.raises(ValueError):
        Board(data)


# --- R3 game flow, R4 round benefits ------------------------------------------------------------------
@pytest.mark.parametrize("players,rounds", [(1, 6), (2, 6), (3, 5), (4, 4)])
def test_r3_1_rounds_by_player_count_and_r3_4_game_end(players, rounds):
    state = new(players)
    assert state.rounds == rounds
    roller, rng = DiceRoller(players), random.Random(players)
    actives = []
    while not state.is_terminal():
        if state.is_chance():
            if state.phase == "roll" and state.rolls == 0:
                actives.append((state.round, state.active))
            state.apply(roller.roll(state), CHANCE)
        else:
            seat = rng.choice(state.current_players())
            state.apply(rng.choice(state.legal_moves(seat)), seat)
    # R3.3: one active turn per player per round, in seat order
    assert actives == [(r, s) for r in range(1, rounds + 1) for s in range(players)]


def test_r3_2_seat_order_from_the_start_seat():
    state = new(3, start=2)
    assert state.active == 2 and state.roller() == 2


def test_r4_round_benefits():
    state = new(2)
    assert [s.stock[REROLL] for s in state.sheets] == [1, 1]  # round 1: Re-roll
    state.round = 1
    state._start_round()  # round 2
    assert [s.stock[PLUS] for s in state.sheets] == [1, 1]
    state._start_round()  # round 3
    assert [s.stock[RETURN] for s in state.sheets] == [1, 1]
    state._start_round()  # round 4: the black question, resolved by both players at once
    assert state.current_players() == [0, 1] and state.phase == "benefit"
    assert state.prompt()[0] == "rollcraft.prompt.bonus"
    play(state, "black pink 8", seat=1)
    assert state.current_players() == [0]
    play(state, "decline black", seat=0)
    assert state.sheets[1].pink == [8] and state.sheets[0].pink == [] and state.is_chance()
    state._start_round()  # round 5: nothing
    assert state.is_chance() and all(s.pending == [] for s in state.sheets)


# --- R5 the active turn --------------------------------------------------------------------------------
def test_r5_1_and_r5_2_the_first_roll_throws_all_six():
    state = new(1)
    assert state.chance() == (8,) * 6 and state.rolls == 0
    play(state, "roll 1 2 3 4 5 6")
    assert state.rolls == 1 and state.values == [1, 2, 3, 4, 5, 6] and state.phase == "choose"


def test_r5_5_lower_dice_to_the_platter_equal_and_higher_stay():
    state = play(new(1), "roll 5 7 2 5 1 6", "take green green")
    assert state.dice_at("platter") == [BLUE, PINK]
    assert state.dice_at("group") == [GREY, YELLOW, WHITE] and state.dice_at("chosen") == [GREEN]
    assert state.chance() == (8, 8, 8)


def test_r5_4_empty_choice_always_allowed_and_moves_dice():
    state = play(new(1), "roll 5 7 2 5 1 6")
    assert all(f"take {d} none" in state.legal_moves() for d in ("grey", "yellow", "blue", "green", "pink", "white"))
    play(state, "take yellow none")
    assert state.dice_at("chosen") == [YELLOW] and state.dice_at("group") == [] and state.sheets[0].yellow == [0] * 12
    # R5.6: the roll group is empty and no Return: the turn ends; R5.7: at least three dice on the platter
    assert state.phase == "solo_roll" and len(state.dice_at("platter")) == 5


def test_r5_6_r5_7_three_choices_then_the_turn_ends_and_the_group_goes_to_the_platter():
    state = play(new(1), "roll 1 1 1 1 1 1", "take grey grey")
    assert state.sheets[0].grey[0] == 1  # equal dice stay: no extra marks
    play(state, "roll 1 1 1 1 1", "take yellow Y3", "roll 1 1 1 1", "take pink pink")
    assert state.phase == "solo_roll"
    assert sorted(state.dice_at("platter")) == [BLUE, GREEN, WHITE]


def test_r5_6_the_active_player_cannot_end_early():
    state = play(new(1), "roll 4 4 4 4 4 4")
    assert not any(m in ("end", "done", "pass") for m in state.legal_moves())
    with pytest.raises(IllegalMove):
        state.apply("end", 0)


# --- R6 passive phases ---------------------------------------------------------------------------------
def test_r6_1_r6_2_passive_players_choose_at_once_from_the_platter_without_moving_dice():
    state = new(3)
    play(state, "roll 8 2 3 4 5 6", "take grey grey")  # all others lower: platter, extra marks for seat 0
    assert state.sheets[0].grey == [0, 1, 1, 1, 1, 1, 0, 1]
    assert state.phase == "passive" and state.current_players() == [1, 2]
    platter = state.dice_at("platter")
    assert platter == [YELLOW, BLUE, GREEN, PINK, WHITE]
    assert "take grey grey" not in state.legal_moves(1)  # the grey die is in the chosen row
    play(state, "take white grey", seat=2)  # a passive grey placement: no extra marks
    assert state.sheets[2].grey == [0, 0, 0, 0, 0, 1, 0, 0] and state.dice_at("platter") == platter
    assert state.current_players() == [1]
    play(state, "take white pink", seat=1)  # R6.2: the same die again
    assert state.sheets[1].pink == [6]
    assert state.current_players() == [CHANCE] and state.active == 1


def test_r6_3_decline_and_skip():
    state = new(2)
    play(state, "roll 8 2 3 4 5 6", "take grey grey")
    assert "pass" in state.legal_moves(1)
    play(state, "pass", seat=1)
    assert state.active == 1 and state.is_chance()
    # no platter die fits anywhere: the passive choice is skipped
    state = new(2)
    sheet = state.sheets[1]
    sheet.blue = [2]
    sheet.green = [1] * 10
    sheet.pink = [1] * 7
    sheet.yellow = [2] * 12
    sheet.grey = [4] * 8
    play(state, "roll 8 2 3 4 5 6", "take grey grey")
    assert state.active == 1 and state.is_chance()


def test_r6_5_solo_passive_roll_three_lowest_and_random_ties():
    state = play(new(1), "roll 8 8 8 8 8 8", "take pink pink", "roll 8 8 8 8 8", "take grey grey",
                 "roll 8 8 8 8", "take green green")
    assert state.phase == "solo_roll" and state.roller() == 0 and state.chance() == (8,) * 6
    play(state, "roll 2 6 4 1 8 2")
    assert sorted(state.dice_at("platter")) == [GREY, GREEN, WHITE]
    assert state.prompt()[0] == "rollcraft.prompt.passive"
    assert {m.split(" ")[1] for m in state.legal_moves() if m.startswith("take ")} <= {"grey", "green", "white"}
    # R6.6: no Re-roll, Return or Lock in the passive phase
    assert not any(m.split(" ")[0] in ("reroll", "lock", "return") for m in state.legal_moves())
    # a tie at the third-lowest value: chance picks which of the tied dice go (C(3,2) = 3 ways)
    tie = play(new(1), "roll 8 8 8 8 8 8", "take pink pink", "roll 8 8 8 8 8", "take grey grey",
               "roll 8 8 8 8", "take green green", "roll 1 3 3 3 7 8")
    assert tie.phase == "solo_tie" and tie.chance() == (3,) and tie.roller() is None
    play(tie, "roll 3")  # combinations of (yellow, blue, green) taking 2: the third is (blue, green)
    assert sorted(tie.dice_at("platter")) == [GREY, BLUE, GREEN]
    assert tie.where[YELLOW] == "out"


# --- R7 +1 windows -------------------------------------------------------------------------------------
def test_r7_plus_one_windows():
    state = new(1)
    state.sheets[0].stock[PLUS] = 2
    play(state, "roll 8 1 2 3 4 5", "take grey grey")  # one choice empties the group: the turn ends
    assert state.phase == "plus" and state.prompt()[0] == "rollcraft.prompt.plus"
    moves = state.legal_moves()
    assert "plus grey grey" in moves and "plus white pink" in moves and "done" in moves  # chosen row and platter
    play(state, "plus white pink")
    assert state.sheets[0].stock[PLUS] == 1 and state.sheets[0].pink == [5]
    assert not any(m.startswith("plus white ") for m in state.legal_moves())  # R7.3 each die once
    play(state, "done")  # R7.4 unused +1 stay
    assert state.sheets[0].stock[PLUS] == 1 and state.phase == "solo_roll"


def test_r7_4_a_plus_one_earned_in_the_window_can_be_used_there():
    state = new(1)
    sheet = state.sheets[0]
    sheet.stock[PLUS] = 1
    sheet.grey[2] = 3  # column 3 completes with +1 earned
    play(state, "roll 8 1 2 3 4 5", "take yellow none")
    play(state, "roll 3 3 3 3 3", "take grey none", "roll 3 3 3 3", "take blue none")
    assert state.phase == "plus"
    play(state, "plus grey grey")
    assert sheet is state.sheets[0] and state.sheets[0].stock[PLUS] == 1 and state.phase == "plus"


def test_r7_5_no_plus_one_outside_windows():
    state = new(1)
    state.sheets[0].stock[PLUS] = 1
    play(state, "roll 1 2 3 4 5 6")
    assert not any(m.startswith("plus ") for m in state.legal_moves())


# --- R8 zones, R9 dice ----------------------------------------------------------------------------------
def test_r8_1_grey_columns_and_extra_marks():
    state = new(1)
    sheet = state.sheets[0]
    sheet.grey[0] = 3
    play(state, "roll 5 1 1 2 6 5", "take grey grey")
    # lower dice yellow 1, blue 1, green 2 give extra marks; pink 6 and white 5 stay
    assert sheet.grey[:5] == [4, 1, 0, 0, 1] and state.sheets[0].stock[LOCK] == 1  # column 1 complete: Lock
    assert state.dice_at("group") == [PINK, WHITE]
    # a white die in grey also gives extra marks; a full column loses its extra mark
    state = new(1)
    state.sheets[0].grey = [4, 0, 0, 0, 0, 0, 0, 0]
    play(state, "roll 8 1 3 8 8 6", "take white grey")
    assert state.sheets[0].grey == [4, 0, 1, 0, 0, 1, 0, 0]
    assert not state.targets(0, GREY) or state.values[GREY] == 8


def test_r8_1_6_only_complete_columns_score():
    sheet = Sheet()
    sheet.grey = [4, 3, 4, 0, 0, 0, 0, 4]
    assert sheet.zone_scores()[0] == 5 + 7 + 19


def test_r8_2_yellow_markers_twice_and_line_bonuses():
    sheet = Sheet()
    for name in ("Y1", "Y5"):
        sheet.mark_yellow(yellow_box(name))
    assert sheet.stock == [0, 0, 0, 0]
    sheet.mark_yellow(yellow_box("Y9"))  # column 1 fully first-marked: Re-roll
    assert sheet.stock[REROLL] == 1
    sheet.mark_yellow(yellow_box("Y9"))  # the second marker: no second bonus
    assert sheet.stock[REROLL] == 1 and sheet.yellow[yellow_box("Y9")] == 2
    assert sheet.yellow_boxes(5) == [yellow_box("Y4")]  # Y9 is ■ ■
    sheet.mark_yellow(yellow_box("Y10"))  # row 5 (Y9, Y10): Lock
    assert sheet.stock[LOCK] == 1
    assert sheet.zone_scores()[1] == 6  # one completed box
    sheet.yellow = [2] * 12
    assert sheet.zone_scores()[1] == 206


def test_r8_2_6_a_placement_completing_a_row_and_a_column_earns_both():
    sheet = Sheet()
    for name in ("Y3", "Y7", "Y8"):  # column 2 needs Y11; row 6 needs Y11 and Y12
        sheet.mark_yellow(yellow_box(name))
    sheet.mark_yellow(yellow_box("Y12"))
    sheet.mark_yellow(yellow_box("Y11"))
    assert sheet.runes == 1 and sheet.pending == ["question:grey"]


def test_r8_3_blue_sum_non_increasing_and_last_box_scores():
    sheet = Sheet()
    assert sheet.blue_ok(16) and sheet.blue_ok(2) and not sheet.blue_ok(1) and not sheet.blue_ok(17)
    sheet.write_blue(10)
    assert sheet.blue_ok(10) and not sheet.blue_ok(11)
    sheet.write_blue(9)
    assert sheet.stock[RETURN] == 1  # box 2 bonus
    assert sheet.zone_scores()[2] == 3


def test_r8_3_2_r9_2_blue_uses_blue_plus_white_wherever_they_are():
    state = play(new(1), "roll 1 1 6 1 1 5")
    assert "take blue blue" in state.legal_moves() and "take white blue" in state.legal_moves()
    play(state, "take white blue")  # white 5 decides what moves (R9.3): blue 6 stays
    assert state.sheets[0].blue == [11]
    assert state.dice_at("group") == [BLUE] and state.dice_at("platter") == [GREY, YELLOW, GREEN, PINK]


def test_r8_4_green_multipliers_and_negative_pairs():
    sheet = Sheet()
    sheet.write_green(2)
    sheet.write_green(6)  # pair 1: 2 - 6 = -4; box 2 bonus Re-roll
    sheet.write_green(8)  # box 3: ×2 = 16; ? blue
    assert sheet.green == [2, 6, 16] and sheet.stock[REROLL] == 1 and sheet.pending == ["question:blue"]
    assert sheet.zone_scores()[3] == -4  # the open pair 2 scores 0


def test_r8_5_pink_threshold_only_decides_the_bonus():
    sheet = Sheet()
    sheet.write_pink(1)
    sheet.write_pink(2)  # below 3: no Lock
    sheet.write_pink(4)  # ≥ 4: Re-roll
    assert sheet.stock == [1, 0, 0, 0] and sheet.zone_scores()[4] == 7


def test_r9_1_coloured_dice_only_in_their_zone():
    state = play(new(1), "roll 3 3 3 3 3 3")
    targets = {d: {m.split(" ")[2] for m in state.legal_moves() if m.startswith(f"take {d} ")} for d in
               ("grey", "yellow", "blue", "green", "pink", "white")}
    assert targets["grey"] == {"grey", "none"} and targets["yellow"] == {"Y1", "Y12", "none"}
    assert targets["blue"] == {"blue", "none"} and targets["green"] == {"green", "none"}
    assert targets["pink"] == {"pink", "none"}
    assert targets["white"] == {"grey", "Y1", "Y12", "blue", "green", "pink", "none"}


# --- R10 bonuses -----------------------------------------------------------------------------------------
def test_r10_1_question_bonus_value_of_choice_and_r10_7_decline():
    state = new(1)
    state.sheets[0].pending = ["question:blue"]
    state.phase = "placed"
    moves = state.legal_moves()
    assert "question blue 16" in moves and "question blue 2" in moves and "decline question blue" in moves
    assert all(m.startswith(("question blue", "decline")) for m in moves)  # nothing else while pending
    with pytest.raises(IllegalMove) as err:
        state.apply("take grey grey", 0)
    assert err.value.code in ("rollcraft.bonus_first", "error.bad_move")


def test_r10_3_t8_values():
    sheet = Sheet()
    assert sheet.t8_blue_value() == 16 and sheet.t8_green_value() == 8
    sheet.write_green(3)
    assert sheet.t8_green_value() == 1
    sheet.write_blue(12)
    assert sheet.t8_blue_value() == 12
    state = new(1)
    state.phase = "placed"
    state.sheets[0].pending = ["t8:pink", "t8:green", "t8:blue"]
    play(state, "t8 green", "t8 blue", "t8 pink")
    s = state.sheets[0]
    assert s.green == [8] and s.blue == [16] and s.pink == [8]


def test_r10_5_several_pending_in_any_order_and_chains():
    state = new(1)
    state.phase = "placed"
    sheet = state.sheets[0]
    sheet.grey[3] = 3
    sheet.blue = [14, 12, 12]
    sheet.pending = ["t8:blue", "question:yellow"]
    assert "question yellow Y1" in state.legal_moves() and "t8 blue" in state.legal_moves()
    play(state, "t8 blue")  # box 4 = 12 → T8 grey is added to the chain
    assert sheet.blue == [14, 12, 12, 12] and sorted(sheet.pending) == ["question:yellow", "t8:grey"]
    play(state, "t8 grey 4")  # column 4 complete → ? pink
    assert sorted(sheet.pending) == ["question:pink", "question:yellow"]


def test_r10_7_impossible_bonus_is_lost_and_actions_always_gained():
    sheet = Sheet()
    sheet.pink = [1] * 7
    sheet.earn("question:pink")
    sheet.earn("t8:pink")
    sheet.earn("rune")
    sheet.earn("lock")
    assert sheet.pending == [] and sheet.runes == 1 and sheet.stock[LOCK] == 1
    sheet.blue = [5]
    sheet.earn("t8:blue")  # the last sum 5 always fits (equal)
    assert sheet.pending == ["t8:blue"]


def test_r10_8_each_symbol_once():
    sheet = Sheet()
    sheet.grey[0] = 3
    sheet.mark_grey(1)
    assert sheet.stock[LOCK] == 1 and not sheet.grey_ok(1)
    for name in ("Y3", "Y7", "Y11", "Y3", "Y7", "Y11"):
        sheet.mark_yellow(yellow_box(name))
    assert sheet.runes == 1


# --- R11 saved actions ---------------------------------------------------------------------------------------
def test_r11_3_reroll_after_a_roll_with_locks_before_it():
    state = new(1)
    state.sheets[0].stock[LOCK] = 1
    play(state, "roll 8 2 3 4 5 6")
    assert "reroll" in state.legal_moves() and "lock grey" in state.legal_moves()
    play(state, "lock grey")
    assert state.phase == "relock" and state.legal_moves() == ["reroll"]  # committed to the Re-roll
    play(state, "reroll")
    assert state.chance() == (8,) * 5
    play(state, "roll 1 1 1 1 1")
    assert state.values == [8, 1, 1, 1, 1, 1] and state.rolls == 1 and state.locked == []
    assert state.sheets[0].stock[REROLL] == 0 and state.sheets[0].stock[LOCK] == 0
    assert "reroll" not in state.legal_moves()


def test_r11_4_return_and_r11_5_lock_before_rolls_2_and_3_only():
    state = new(1)
    sheet = state.sheets[0]
    sheet.stock[RETURN] = 2
    sheet.stock[LOCK] = 1
    sheet.stock[REROLL] = 0
    play(state, "roll 6 2 1 4 8 2")
    assert not any(m.startswith(("return", "lock")) for m in state.legal_moves())  # not before roll 1
    play(state, "take grey grey")
    assert state.phase == "prepare" and state.prompt() == ("rollcraft.prompt.prepare", {"n": 2})
    play(state, "return green", "lock pink")
    assert not any(m.startswith("return") for m in state.legal_moves())  # Returns come before Locks
    play(state, "throw")
    assert state.chance() == (8,)  # only green is rolled
    play(state, "roll 7")
    assert state.values[PINK] == 8 and state.values[GREEN] == 7 and state.rolls == 2


def test_r11_5_a_regular_roll_with_every_die_locked_just_counts():
    state = new(1)
    state.sheets[0].stock[LOCK] = 1
    play(state, "roll 1 1 1 1 8 7", "take white none")
    assert state.dice_at("group") == [PINK] and state.phase == "prepare"
    play(state, "lock pink", "throw")
    assert state.phase == "choose" and state.rolls == 2 and state.values[PINK] == 8


def test_r11_4_return_revives_an_empty_roll_group():
    state = new(1)
    state.sheets[0].stock[RETURN] = 1
    play(state, "roll 8 1 1 1 1 1", "take grey none")
    assert state.phase == "prepare" and "end" in state.legal_moves() and "return white" in state.legal_moves()
    play(state, "return white", "throw", "roll 4")
    assert state.dice_at("group") == [WHITE] and state.rolls == 2


# --- R12 scoring -------------------------------------------------------------------------------------------------
def test_r12_rune_points_can_be_negative_and_ties_share():
    sheet = Sheet()
    sheet.runes = 2
    sheet.green = [1, 8]
    sheet.pink = [5]
    assert sheet.zone_scores() == [0, 0, 0, -7, 5] and sheet.total() == -2 - 14
    state = new(2)
    state.phase = "over"
    assert state.ranking() == [1, 1] and state.is_terminal()


# --- section 16 worked examples ----------------------------------------------------------------------------
def test_example_1_first_solo_round():
    state = new(1)
    assert state.sheets[0].stock[REROLL] == 1
    play(state, "roll 5 7 2 5 1 6", "take green green")
    assert state.sheets[0].green == [5] and state.dice_at("platter") == [BLUE, PINK]
    assert state.dice_at("group") == [GREY, YELLOW, WHITE]
    play(state, "roll 8 2 3", "reroll", "roll 7 4 4")
    assert state.sheets[0].stock[REROLL] == 0
    play(state, "take white Y7")
    assert state.sheets[0].yellow[yellow_box("Y7")] == 1 and state.sheets[0].stock == [0, 0, 0, 0]
    assert state.dice_at("group") == [GREY, YELLOW]
    play(state, "roll 3 3", "take grey grey")
    assert state.sheets[0].grey[2] == 1 and sum(state.sheets[0].grey) == 1
    assert sorted(state.dice_at("platter")) == [YELLOW, BLUE, PINK] and state.phase == "solo_roll"
    play(state, "roll 2 6 4 1 8 2")
    assert sorted(state.dice_at("platter")) == [GREY, GREEN, WHITE]
    play(state, "take green green")
    sheet = state.sheets[0]
    assert sheet.green == [5, 1] and sheet.zone_scores()[3] == 4 and sheet.stock[REROLL] == 1
    assert state.round == 2 and state.is_chance()  # no +1: round 2 starts (its benefit: +1)


def test_example_2_grey_extra_marks_bonus_chain_return_and_lock():
    state = at_round(new(1), 3)
    sheet = state.sheets[0]
    sheet.grey = [3, 3, 0, 2, 0, 0, 0, 0]
    for name in ("Y2", "Y6", "Y9"):
        sheet.yellow[yellow_box(name)] = 1
    sheet.blue = [14, 12, 12]
    sheet.pink = [6, 3, 5, 5, 6]
    sheet.stock = [0, 1, 1, 0]  # Return 1, +1 1
    play(state, "roll 6 2 1 4 8 2", "take grey grey")
    assert sheet.grey == [4, 4, 0, 3, 0, 1, 0, 0]  # white 2's extra mark is lost
    assert sheet.stock[LOCK] == 1 and sheet.pending == ["question:yellow"]
    play(state, "question yellow Y10")
    assert sheet.stock[LOCK] == 2 and sheet.stock[PLUS] == 2  # row 5 and column 3
    assert state.dice_at("group") == [PINK]
    play(state, "return green", "lock pink", "throw")
    assert sheet.stock[RETURN] == 0 and sheet.stock[LOCK] == 1 and state.chance() == (8,)
    play(state, "roll 7", "take pink pink")
    assert sheet.pink[-1] == 8 and sheet.pending == ["t8:blue"]
    play(state, "t8 blue")
    assert sheet.blue == [14, 12, 12, 12] and sheet.pending == ["t8:grey"]
    play(state, "t8 grey 4")
    assert sheet.grey[3] == 4 and sheet.pending == ["question:pink"]
    play(state, "question pink 8")
    assert sheet.pink == [6, 3, 5, 5, 6, 8, 8] and sheet.runes == 1
    assert sorted(state.dice_at("platter")) == [YELLOW, BLUE, GREEN, WHITE]
    assert state.phase == "plus"  # two +1 in stock; the player keeps them
    play(state, "done")
    assert sheet.stock[PLUS] == 2 and state.phase == "solo_roll"


def test_example_3_passive_choice_blue_sum_across_groups_and_final_score():
    state = at_round(new(2, start=1), 6)
    state.turn_in_round = 1
    assert state.active == 0  # Anna (seat 0) plays the last active turn; Bo (seat 1) is passive
    for sheet in state.sheets:
        sheet.stock = [0, 0, 0, 0]
    bo = state.sheets[1]
    bo.grey = [4, 0, 3, 0, 4, 0, 0, 0]
    bo.yellow = [2, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0]
    bo.blue = [16, 14, 13, 12, 12, 11, 10, 10]
    bo.green = [7, 1, 14, 4, 12, 8, 6, 12, 24]
    bo.pink = [5, 7, 4, 6, 8, 3]
    bo.stock[PLUS] = 1
    bo.runes = 1
    play(state, "roll 3 6 2 8 5 7", "take yellow Y2")
    assert sorted(state.dice_at("platter")) == [GREY, BLUE, PINK]
    play(state, "roll 7 7", "take white pink", "roll 8", "take green green")
    assert state.current_players() == [1] and state.dice_at("chosen") == [YELLOW, GREEN, WHITE]
    play(state, "take blue blue", seat=1)  # 2 + 7 = 9 ≤ 10
    assert bo.blue[-1] == 9 and bo.runes == 2
    play(state, "plus grey grey", seat=1)
    assert bo.grey[2] == 4 and bo.stock[PLUS] == 1  # column 3 complete: +1
    assert "plus grey grey" not in state.legal_moves(1)
    play(state, "plus pink pink", seat=1)
    assert bo.pink[-1] == 5 and bo.runes == 2
    assert state.is_terminal()
    assert bo.zone_scores() == [23, 38, 34, 14, 38] and bo.rune_points() == 28
    assert state.scores()[1] == 175


# --- invariants over random games ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_keep_the_invariants_and_replay(players):
    for seed in range(2):
        rng, roller = random.Random(seed), DiceRoller(seed)
        match = Match.new("rollcraft", {"players": players, "start": seed % players})
        while not match.state.is_terminal():
            state = match.state
            for sheet in state.sheets:
                assert all(0 <= c <= 4 for c in sheet.grey) and all(0 <= m <= 2 for m in sheet.yellow)
                assert all(a >= b for a, b in zip(sheet.blue, sheet.blue[1:])) and len(sheet.blue) <= 12
                assert len(sheet.green) <= 10 and len(sheet.pink) <= 7 and min(sheet.stock) >= 0
            assert state.rolls <= 3 and sum(1 for w in state.where if w == "chosen") <= 3
            if state.is_chance():
                seat, move = CHANCE, roller.roll(state)
            else:
                seat = rng.choice(state.current_players())
                move = rng.choice(state.legal_moves(seat))
            match.submit(seat, move, match.index)
        assert Record.loads(match.record.dumps()).replay().to_json() == match.state.to_json()
        assert match.state.round == match.state.rounds


def test_the_fast_legality_check_agrees_with_the_list_of_moves():
    """`is_legal` (used when records replay) answers exactly `move in legal_moves(seat)`."""
    words = ["take", "plus", "lock", "return", "reroll", "throw", "end", "pass", "done", "question", "black", "t8",
             "decline", "roll"]
    dice = ["grey", "yellow", "blue", "green", "pink", "white", "black", "purple"]
    targets = ["grey", "blue", "green", "pink", "none", "Y1", "Y7", "Y13", "3", "8", "12", "16"]
    candidates = set(words)
    candidates |= {f"{w} {d}" for w in words for d in dice}
    candidates |= {f"{w} {d} {t}" for w in words for d in dice for t in targets}
    checked = 0
    for players in (1, 3):
        rng, roller = random.Random(players), DiceRoller(players)
        state = new(players)
        while not state.is_terminal():
            if state.is_chance():
                state.apply(roller.roll(state), CHANCE)
                continue
            for seat in range(players) if rng.random() < 0.2 else ():
                legal = set(state.legal_moves(seat)) if seat in state.current_players() else set()
                for move in candidates | legal:
                    assert state.is_legal(move, seat) == (move in legal), (move, seat, state.phase)
                    checked += 1
            seat = rng.choice(state.current_players())
            state.apply(rng.choice(state.legal_moves(seat)), seat)
    assert checked > 50_000


def test_hard_learnt_lowest_zone_is_a_soft_minimum_and_the_correction_is_hard_solo_only():
    """What runes pay, as hard's evaluation foresees it (ai.learnt_lowest): at most the lowest
    calibrated forecast, the plain minimum once no round is left, never lower when a zone's forecast
    rises; and the learnt correction changes hard's solo evaluation only (multiplayer and the other
    levels value sheets as before)."""
    from pygame_core.games.rollcraft import ai

    def calibrated(expected, rounds):
        return [a + b * e + c * rounds + d * rounds * e for (a, b, c, d), e in zip(ai.ZONE_CAL, expected)]

    rng = random.Random(7)
    for _ in range(200):
        expected = [rng.uniform(0, 60) for _ in range(5)]
        rounds = rng.choice([0.0, 0.5, 1.5, 3.0, 6.0])
        low = ai.learnt_lowest(expected, rounds)
        assert low <= min(calibrated(expected, rounds)) + 1e-9
        if rounds == 0:
            assert low == pytest.approx(min(calibrated(expected, rounds)))
        k = rng.randrange(5)
        higher = expected[:k] + [expected[k] + 5] + expected[k + 1:]
        assert ai.learnt_lowest(higher, rounds) >= low - 1e-9
    match = Match.new("rollcraft", {"players": 1})
    roller = DiceRoller(3)
    while match.state.round < 3:  # a sheet with marks on it
        state = match.state
        if state.is_chance():
            match.submit(CHANCE, roller.roll(state), match.index)
        else:
            seat = state.current_players()[0]
            match.submit(seat, ai.easy(state, seat, random.Random(1)), match.index)
    sheet = match.state.sheets[0]
    plain = ai.value(sheet, 20.0, 3.5, solo=True)
    ai._HARD[0] = True
    try:
        assert ai.value(sheet, 20.0, 3.5, solo=False) == plain  # hard with others: no correction
        assert ai.value(sheet, 20.0, 3.5, solo=True) != plain  # hard solo: corrected
    finally:
        ai._HARD[0] = False
