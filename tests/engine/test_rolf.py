"""Rolf The Dice against its rules (shared/rules/rolf-the-dice.md), section by section, with the
worked examples of the contract; then invariants over random games (scores recomputed from
scratch by an independent grid search equal the engine's incremental ones)."""

from __future__ import annotations

import random

import pytest

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.record import Record
from pygame_core.registry import get_entry
from pygame_core.games.rolf.board import INDEX, group_points
from pygame_core.games.rolf.rules import OUTCOMES, Rolf

EMPTY = ["......"] * 6


def position(rows=EMPTY, players: int = 2, seat: int = 0) -> "Rolf.state_class":
    """A state at the start of `seat`'s turn with this board ('.' empty, else the owner's seat)."""
    state = Rolf.new_state({"players": players, "start": seat})
    for i, cell in enumerate("".join(rows)):
        if cell != ".":
            state.owners[int(cell)] |= 1 << i
    state.points = [group_points(m) for m in state.owners]
    return state


def play(state, *moves: str):
    """Apply moves in order: `roll …` by CHANCE, the rest by the seat to move."""
    for move in moves:
        state.apply(move, CHANCE if move.startswith("roll ") else state.current_player())
    return state


def takes(state) -> list[str]:
    return sorted(m[5:] for m in state.legal_moves() if m.startswith("take "))


def owner(state, square: str):
    return state.owner_of(INDEX[square])


# --- independent scoring: a plain grid search, no bit masks ---------------------------------
def grid_total(state, seat: int) -> int:
    cells = {(i // 6 + 1, i % 6 + 1) for i in range(36) if state.owners[seat] >> i & 1}
    seen, points = set(), 0
    for start in cells:
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            r, c = stack.pop()
            size += 1
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        points += size * (size + 1) // 2
    diagonal = sum(5 for k in range(1, 7) if (k, k) in cells)
    return points + diagonal + (20 if state.corner[seat] else 0) + (10 if state.end_seat == seat else 0)


# --- section 3: throws, candidates, placements -------------------------------------------------
def test_a_pair_3_3_5_offers_3_3_and_3_5_and_5_3_and_all_are_taken():
    state = play(position(), "roll 3 3 5")
    assert takes(state) == ["3-3", "3-5", "5-3"]
    assert state.placements_left() == 3
    play(state, "take 5-3", "take 3-3")
    assert takes(state) == ["3-5"]
    play(state, "take 3-5")
    assert state.legal_moves() == ["extra"]  # first throw of the turn: an extra throw


def test_three_different_dice_give_two_placements_among_six_ordered_pairs():
    state = play(position(), "roll 2 4 5")
    assert takes(state) == ["2-4", "2-5", "4-2", "4-5", "5-2", "5-4"]
    play(state, "take 4-2", "take 2-4")
    assert state.legal_moves() == ["next"]  # two placements; no extra throw
    with pytest.raises(IllegalMove) as err:
        state.apply("take 2-5", 0)
    assert err.value.code == "rolf.confirm_first"


def test_three_threes_give_three_free_squares_off_the_diagonal_and_3_3():
    state = play(position(), "roll 3 3 3")
    assert len(takes(state)) == 31 and "3-3" in takes(state) and "1-1" not in takes(state)
    assert state.placements_left() == 4
    play(state, "take 1-2", "take 3-3")  # the diagonal square between the free choices
    assert "3-3" not in takes(state) and len(takes(state)) == 29
    with pytest.raises(IllegalMove) as err:
        state.apply("take 4-4", 0)
    assert err.value.code == "rolf.not_candidate"
    play(state, "take 6-1", "take 2-5")
    assert state.legal_moves() == ["extra"]


def test_three_of_a_kind_ends_with_the_diagonal_square_if_it_is_left_for_last():
    state = play(position(), "roll 6 6 6", "take 1-2", "take 1-3", "take 1-4")
    assert takes(state) == ["6-6"]
    with pytest.raises(IllegalMove) as err:
        state.apply("take 1-5", 0)
    assert err.value.code == "rolf.take_diagonal" and err.value.params == {"square": "6-6"}
    play(state, "take 6-6")
    assert state.legal_moves() == ["extra"]


def test_three_of_a_kind_does_not_offer_a_diagonal_square_the_player_owns():
    state = play(position(["0.....", *EMPTY[1:]]), "roll 1 1 1")
    assert "1-1" not in takes(state) and state.placements_left() == 3
    with pytest.raises(IllegalMove) as err:
        state.apply("take 1-1", 0)
    assert err.value.code == "rolf.own_square"


def test_own_squares_are_never_legal_but_other_players_squares_are():
    rows = [".0....", "1.....", *EMPTY[2:]]
    state = play(position(rows), "roll 1 1 2")  # candidates 1-1, 1-2 (own), 2-1 (seat 1's)
    assert takes(state) == ["1-1", "2-1"] and state.placements_left() == 2
    with pytest.raises(IllegalMove) as err:
        state.apply("take 1-2", 0)
    assert err.value.code == "rolf.own_square"


def test_placements_are_min_of_placements_and_legal_choices():
    rows = [".00000", "0.....", "0.....", "0.....", "0.....", "0....."]
    state = play(position(rows), "roll 1 2 3")  # 1-2, 1-3, 2-1, 3-1 own: 2-3 and 3-2 remain
    assert takes(state) == ["2-3", "3-2"] and state.placements_left() == 2
    state = play(position(["..00..", "0.....", "0.....", *EMPTY[3:]]), "roll 1 2 3")
    assert takes(state) == ["1-2", "2-3", "3-2"] and state.placements_left() == 2
    rows = [".0.000", "000000", "00....", "0.....", "0.....", "0....."]
    state = play(position(rows), "roll 1 2 3")  # only 1-3 is left
    assert takes(state) == ["1-3"] and state.placements_left() == 1


def test_a_throw_without_legal_square_is_skipped_and_the_turn_passes_on():
    rows = [".00...", "0.0...", "00....", *EMPTY[3:]]
    state = position(rows)
    turn = state.turn_number()
    play(state, "roll 1 2 3")
    assert state.skipped and state.is_chance() and state.roller() == 1 and state.turn_number() == turn + 1
    assert state.prompt() == ("rolf.prompt.throw", {})
    play(state, "roll 4 5 6")
    assert not state.skipped and state.current_players() == [1]


def test_a_skipped_pair_on_the_first_throw_still_earns_its_extra_throw():
    state = play(position(["00....", "0.....", *EMPTY[2:]]), "roll 1 1 2")
    assert state.skipped and state.is_chance() and state.roller() == 0 and state.throw == 1
    assert state.prompt() == ("rolf.prompt.skipped_extra", {})


def test_only_the_sorted_spelling_of_a_throw_is_accepted():
    state = position()
    for junk in ("roll 5 3 3", "roll 3 5 3", "roll 3 3", "roll 3 3 7", "roll 0 1 2"):
        with pytest.raises(IllegalMove):
            state.apply(junk, CHANCE)
    state.apply("roll 3 3 5", CHANCE)
    assert position().chance_outcomes()[0] == ("roll 1 1 1", pytest.approx(1 / 216))
    assert len(position().chance_outcomes()) == 56 and len(OUTCOMES) == 56
    assert sum(p for _, p in position().chance_outcomes()) == pytest.approx(1.0)
    assert dict(position().chance_outcomes())["roll 1 2 3"] == pytest.approx(6 / 216)
    assert dict(position().chance_outcomes())["roll 2 2 5"] == pytest.approx(3 / 216)


# --- section 4: taking, stealing, choosing again, confirming -------------------------------------
def test_a_steal_that_splits_a_group_lowers_the_victim():
    rows = ["......", "......", "......", "111...", *EMPTY[4:]]  # seat 1: 4-1, 4-2, 4-3 = 6 points
    state = position(rows)
    assert state.scores() == [0, 6]
    play(state, "roll 2 4 6", "take 4-2")
    assert owner(state, "4-2") == 0
    assert state.scores() == [1, 2]  # 4-1 and 4-3 are now two groups of one
    play(state, "take 2-4")
    assert state.scores() == [2, 2]


def test_a_steal_that_merges_the_thiefs_groups():
    rows = ["......", "......", "1.....", "01....", "0.....", "......"]
    state = position(rows)  # seat 0: 4-1, 5-1 (3 points); seat 1: 3-1, 4-2
    play(state, "roll 1 3 4", "take 3-1")  # joins 4-1: group of 3
    assert state.scores() == [6, 1]


def test_every_throw_is_confirmed_even_without_a_re_choice():
    state = play(position(), "roll 2 2 5", "take 2-2", "take 2-5", "take 5-2")
    assert state.current_players() == [0] and state.legal_moves() == ["extra"]
    with pytest.raises(IllegalMove) as err:
        state.apply("next", 0)
    assert err.value.code == "rolf.extra_earned"
    state = play(position(), "roll 1 2 3", "take 1-2")
    with pytest.raises(IllegalMove) as err:
        state.apply("next", 0)
    assert err.value.code == "rolf.placements_left" and err.value.params == {"n": 1}
    play(state, "take 2-1")
    with pytest.raises(IllegalMove) as err:
        state.apply("extra", 0)
    assert err.value.code == "rolf.no_extra"
    assert state.prompt() == ("rolf.prompt.confirm_next", {})
    turn = state.turn_number()
    play(state, "next")
    assert state.is_chance() and state.roller() == 1 and state.turn_number() == turn + 1


def test_taking_back_a_stolen_square_restores_it_exactly():
    match = Match.new("rolf", {"players": 2, "start": 0})
    record = [(CHANCE, "roll 1 2 4"), (0, "take 1-2"), (0, "take 1-4"), (0, "next"),
              (CHANCE, "roll 3 4 5"), (1, "take 3-4"), (1, "take 3-5"), (1, "next"),
              (CHANCE, "roll 1 2 6"), (0, "take 6-2"), (0, "take 2-6"), (0, "next"),
              (CHANCE, "roll 1 3 6"), (1, "take 3-6"), (1, "take 6-3"), (1, "next"),
              (CHANCE, "roll 2 3 5")]
    for seat, move in record:
        match.submit(seat, move, match.index)
    before = match.state.to_json()
    assert match.state.scores() == [4, 7]  # seat 1: 3-4, 3-5, 3-6 in a row (6) and 6-3 (1)
    assert takes(match.state) == ["2-3", "2-5", "3-2", "3-5", "5-2", "5-3"]
    match.submit(0, "take 3-5", match.index)  # steal the middle: seat 1's row falls apart
    assert owner(match.state, "3-5") == 0 and match.state.scores() == [5, 3]
    assert match.takeback_positions(0) == [len(record)]
    match.take_back(0, len(record), match.index)
    assert match.state.to_json() == before  # 3-5 is seat 1's again, as it was
    assert owner(match.state, "3-5") == 1 and match.state.scores() == [4, 7]


def test_take_backs_through_the_match_from_the_empty_board():
    match = Match.new("rolf", {"players": 2, "start": 0})
    for seat, move in [(CHANCE, "roll 1 2 4"), (0, "take 1-2"), (0, "take 2-4"), (0, "next"), (CHANCE, "roll 1 2 5")]:
        match.submit(seat, move, match.index)
    before_steal = match.state.to_json()
    match.submit(1, "take 1-2", match.index)  # a steal
    assert owner(match.state, "1-2") == 1
    match.submit(1, "take 2-5", match.index)
    assert match.takeback_positions(1) == [5, 6]
    match.take_back(1, 5, match.index)  # choose again: 1-2 goes back to seat 0
    assert owner(match.state, "1-2") == 0 and match.state.scores() == [2, 1]
    match.take_back(1, 5, match.index)
    assert match.state.to_json() == before_steal
    match.submit(1, "take 5-1", match.index)
    match.submit(1, "take 5-2", match.index)
    match.submit(1, "next", match.index)
    assert match.takeback_positions(1) == []  # confirmed: locked


def test_a_pairs_squares_and_the_diagonal_square_of_three_of_a_kind_are_not_re_chosen():
    match = Match.new("rolf", {"players": 2, "start": 0})
    match.submit(CHANCE, "roll 2 2 4", 0)
    match.submit(0, "take 2-2", 1)
    match.submit(0, "take 4-2", 2)
    assert match.takeback_positions(0) == []  # no choice: all three are taken anyway
    match.submit(0, "take 2-4", 3)
    match.submit(0, "extra", 4)
    match.submit(CHANCE, "roll 5 5 5", 5)
    match.submit(0, "take 5-5", 6)
    match.submit(0, "take 1-6", 7)
    assert match.takeback_positions(0) == [7]
    with pytest.raises(IllegalMove):
        match.take_back(0, 6, match.index)


# --- section 5: extra throws ----------------------------------------------------------------------
def test_extra_throw_after_the_first_throw_and_after_later_throws():
    state = play(position(), "roll 2 4 4", "take 4-4", "take 4-2", "take 2-4", "extra")
    assert state.is_chance() and state.roller() == 0 and state.throw == 1
    assert state.prompt() == ("rolf.prompt.extra_throw", {})
    play(state, "roll 1 1 6")  # later throw: 1-1 was not seat 0's
    assert state.extra
    play(state, "take 1-1", "take 1-6", "take 6-1", "extra", "roll 4 4 5")  # 4-4 is seat 0's: the streak stops
    assert not state.extra
    play(state, "take 4-5", "take 5-4", "next")
    assert state.roller() == 1 and state.throw == 0


def test_a_later_pair_whose_diagonal_square_is_an_opponents_keeps_the_streak():
    rows = ["......", "......", "..1...", *EMPTY[3:]]
    state = play(position(rows), "roll 1 2 2", "take 2-2", "take 1-2", "take 2-1", "extra", "roll 3 3 6")
    assert state.extra  # 3-3 belonged to seat 1 when the dice fell
    play(state, "take 3-3")
    assert state.extra  # taking it now does not change the throw's extra
    play(state, "take 3-6", "take 6-3", "extra")
    assert state.roller() == 0 and state.throw == 2


def test_three_different_never_earn_an_extra_throw():
    state = play(position(), "roll 1 2 3", "take 1-2", "take 2-3")
    assert state.legal_moves() == ["next"]


# --- section 6: scoring -----------------------------------------------------------------------------
def test_group_points_are_triangular_numbers_of_side_connected_groups():
    assert [group_points((1 << n) - 1) for n in range(1, 7)] == [1, 3, 6, 10, 15, 21]
    diagonal_only = position(["0.....", ".0....", "..0...", *EMPTY[3:]])
    assert diagonal_only.points[0] == 3  # corner contact does not connect
    assert diagonal_only.scores()[0] == 3 + 15
    big = position(["000000", "00000.", "000...", *EMPTY[3:]])  # 14 squares; 1-1, 2-2, 3-3 on the diagonal
    assert big.points[0] == 105 and big.scores()[0] == 120


def test_corner_bonus_is_permanent_once_and_for_every_player():
    rows = ["0....0", "......", "......", "......", "......", "0....1"]
    state = play(position(rows), "roll 6 6 6")
    play(state, "take 6-6")  # the fourth corner: +20
    assert state.corner == [True, False] and state.breakdown(0)["corners"] == 20
    play(state, "take 2-3", "take 3-2", "take 4-5", "extra", "roll 1 2 4", "take 4-2", "take 2-1", "next")
    play(state, "roll 1 1 6", "take 1-1", "take 1-6", "take 6-1")  # seat 1 steals three corners
    assert owner(state, "1-1") == 1 and state.corner == [True, False]
    assert state.breakdown(0)["corners"] == 20 and state.scores()[0] >= 20
    assert state.scores()[0] == grid_total(state, 0)


def test_a_stolen_diagonal_square_moves_its_bonus():
    state = play(position(["1.....", *EMPTY[1:]]), "roll 1 1 4", "take 1-1")
    assert state.breakdown(0)["diagonal"] == 5 and state.breakdown(1)["diagonal"] == 0


# --- sections 7 and 8: direct win, end of the game ------------------------------------------------
def test_a_100_point_win_in_the_middle_of_a_streak_makes_the_rest_lapse():
    state = position(["000000", "00000.", *EMPTY[2:]])  # a group of 11 (66) + 1-1 and 2-2 (10)
    assert state.scores() == [76, 0]
    play(state, "roll 4 4 6", "take 4-4", "take 4-6", "take 6-4", "extra")  # 84, and an extra throw
    assert state.scores() == [84, 0] and not state.is_terminal()
    play(state, "roll 3 3 6")  # a later throw: 3-3 is not seat 0's, so the streak would go on
    assert state.extra and state.placements_left() == 3
    play(state, "take 3-3")  # joins the group (12: 78) and the diagonal: 78 + 3 + 20 = 101
    assert state.scores() == [101, 0] and state.is_terminal()
    assert state.winners() == [0] and state.ranking() == [1, 2]
    assert state.legal_moves() == [] and state.placements_left() == 0  # 3-6 and 6-3 lapse
    assert owner(state, "3-6") is None and owner(state, "6-3") is None


def test_the_full_diagonal_wins_at_once_even_behind_on_points():
    rows = ["0.1111", "10....", "1.0...", "1..0..", "11..0.", "111111"]
    state = position(rows, seat=0)
    assert state.scores()[0] < state.scores()[1]
    play(state, "roll 3 6 6", "take 6-6")  # seat 1's 6-6: stolen, and the diagonal is full
    assert state.is_terminal() and state.winners() == [0]
    assert state.ranking() == [1, 2] and state.scores()[0] < state.scores()[1]


def checkerboard(empty: str) -> list[str]:
    """Every off-diagonal square owned (seat (r + c) % 2, so every group is a single square) but `empty`."""
    cells = []
    for r in range(1, 7):
        for c in range(1, 7):
            cells.append("." if r == c or f"{r}-{c}" == empty else str((r + c) % 2))
    return ["".join(cells[k * 6:(k + 1) * 6]) for k in range(6)]


def test_the_last_off_diagonal_square_gives_10_and_ends_the_game():
    state = position(checkerboard("5-6"))
    assert state.scores() == [12, 17]
    play(state, "roll 2 5 6")  # 2-5, 5-2, 6-5 are seat 1's, 2-6 and 6-2 seat 0's, 5-6 empty
    assert takes(state) == ["2-5", "5-2", "5-6", "6-5"] and state.placements_left() == 2
    play(state, "take 2-5")  # a steal first
    assert state.scores() == [15 + 8, 16] and not state.is_terminal()  # 2-5 joins four singles: 15
    play(state, "take 5-6")  # the last empty off-diagonal square: +10 and the end
    assert state.is_terminal() and state.end_seat == 0 and state.breakdown(0)["end"] == 10
    assert state.scores() == [15 + 7 + 3 + 10, 16] == [grid_total(state, 0), grid_total(state, 1)]  # 5-6 joins 4-6
    assert state.winners() == [] and state.ranking() == [1, 2]
    assert not state.can_take_back("take 5-6", 0) and state.legal_moves() == []


def test_the_end_placement_makes_the_remaining_placements_lapse():
    state = play(position(checkerboard("5-6")), "roll 2 5 6", "take 5-6")
    assert state.is_terminal() and state.placements_left() == 0
    assert owner(state, "2-5") == 1 and state.scores()[0] == grid_total(state, 0)


def test_equal_totals_share_the_win_and_the_place():
    state = position(checkerboard("5-6"), players=2, seat=1)  # seat 1 fills the last square itself
    play(state, "roll 2 5 6", "take 2-6", "take 5-6")
    assert state.is_terminal() and state.end_seat == 1
    scores = state.scores()
    assert scores == [grid_total(state, 0), grid_total(state, 1)]
    assert state.ranking() == ([1, 1] if scores[0] == scores[1] else [1 + (scores[0] < scores[1]), 1 + (scores[1] < scores[0])])


# --- invariants over whole games ---------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 5])
def test_incremental_scores_equal_scores_from_scratch_in_random_games(players):
    rng = random.Random(players)
    for game in range(12):
        match = Match.new("rolf", {"players": players, "start": game % players})
        roller_rng = random.Random(f"dice{players}:{game}")
        while not match.state.is_terminal():
            state = match.state
            for seat in range(players):
                assert state.points[seat] == group_points(state.owners[seat])
                assert state.scores()[seat] == grid_total(state, seat) == sum(state.breakdown(seat).values())
            assert sum(m.bit_count() for m in state.owners) == state.occupied().bit_count()  # one owner per square
            if state.is_chance():
                move = state.chance_move([roller_rng.randint(1, 6) for _ in range(3)])
                match.submit(CHANCE, move, match.index)
            else:
                seat = state.current_player()
                match.submit(seat, rng.choice(state.legal_moves(seat)), match.index)
        final = match.state
        assert all(final.scores()[s] == grid_total(final, s) for s in range(players))
        assert (final.winner is not None) or final.occupied() & 0xFFFFFFFFF == final.occupied()
        replayed = Record.loads(match.record.dumps()).replay()
        assert replayed.to_json() == final.to_json()


def test_every_game_ends_by_a_direct_win_or_with_the_30_off_diagonal_squares_owned():
    from pygame_core.games.rolf.board import OFF_DIAGONAL

    for seed in range(20):
        _, state = self_play("rolf", ["random", "random", "random"], seed)
        assert state.is_terminal()
        if state.winner is None:
            assert state.occupied() & OFF_DIAGONAL == OFF_DIAGONAL and state.end_seat is not None
        else:
            score = state.scores()[state.winner]
            diagonal = state.owners[state.winner] & 0b100000010000001000000100000010000001
            assert score >= 100 or diagonal.bit_count() == 6


def test_json_round_trip_and_notation_of_every_move():
    _, state = self_play("rolf", ["greedy", "random"], 3)
    record, _ = self_play("rolf", ["greedy", "random"], 3)
    for seat, move, before in record.states():
        assert Rolf.state_from_json(before.to_json()).to_json() == before.to_json()
        if seat == CHANCE:
            values = move.split(" ")[1:]
            assert move.startswith("roll ") and values == sorted(values)
        else:
            assert move in ("next", "extra") or (move.startswith("take ") and move[5:] in INDEX)
    with pytest.raises(ValueError):
        bad = state.to_json()
        bad["board"] = ["9" * 6] * 6
        Rolf.state_from_json(bad)


def test_the_ai_levels_are_declared_weakest_first():
    assert list(get_entry("rolf").ai_levels) == ["random", "greedy", "easy", "medium", "hard"]
    assert get_entry("rolf").advise is not None


# --- the AI ---------------------------------------------------------------------------------------
def test_every_level_takes_a_square_that_wins_at_once():
    rows = ["000000", "000000", "......", "......", "0...0.", "......"]  # 12 in a block, 5-1, 5-5: 95
    state = play(position(rows), "roll 1 3 4")  # 3-1 or 3-4 join the block: 13 squares, 108 points
    assert state.scores()[0] == 95
    entry = get_entry("rolf")
    for level, fn in entry.ai_levels.items():
        if level == "random":
            continue
        move = fn(state.clone(), 0, random.Random(1))
        assert move in ("take 3-1", "take 3-4"), level
        after = play(state.clone(), move)
        assert after.winners() == [0]


def test_greedy_counts_its_own_points_and_easy_also_the_victims_loss():
    rows = [".00...", "......", "......", "......", "11111.", "......"]  # seat 1: a row of five (15)
    state = play(position(rows), "roll 1 4 5")
    assert get_entry("rolf").ai_levels["greedy"](state, 0, random.Random(1)) == "take 1-4"  # +3 now
    assert get_entry("rolf").ai_levels["easy"](state, 0, random.Random(1)) == "take 5-4"  # +1, and -8 for seat 1


def test_hard_plays_a_whole_throw_as_one_plan_and_advise_ranks_legal_moves():
    from pygame_core.games.rolf import ai

    state = play(position(["......", "..1...", "..1...", "..11..", *EMPTY[4:]]), "roll 3 4 5")
    ai.clear_cache()
    first = ai.hard(state, 0, random.Random(1))
    plan = ai.search(state, 0)[0][1]
    assert first == "take " + ["%d-%d" % (i // 6 + 1, i % 6 + 1) for i in plan][0]
    after = play(state.clone(), first)
    second = ai.hard(after, 0, random.Random(1))
    assert second in after.legal_moves() and second == "take %d-%d" % (plan[1] // 6 + 1, plan[1] % 6 + 1)
    options = ai.advise(state, 0)
    assert options and all(o["move"] in state.legal_moves() and 0 <= o["value"] <= 100 for o in options)  # % chance to win
    assert len({o["move"] for o in options}) == len(options)
    confirming = play(state.clone(), "take 3-4", "take 4-3")
    assert [o["move"] for o in ai.advise(confirming, 0)] == ["next"]
    assert ai.advise(position(), 0) == []  # nothing to advise before the dice fall
