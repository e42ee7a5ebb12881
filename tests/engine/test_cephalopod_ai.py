"""Cephalopod's AI: legal moves at every level, the endgame solver against a brute-force minimax,
budgets, determinism, hints and the review, and strength checks that can fail (small boards)."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from pygame_core.ai import self_play
from pygame_core.games.cephalopod import ai
from pygame_core.games.cephalopod import search as search_module
from pygame_core.games.cephalopod.rules import Cephalopod, state_from_board
from pygame_core.games.cephalopod.search import WIN, Searcher, playout_margin
from pygame_core.registry import get_entry


def new(size: int = 5, start: int = 0):
    return Cephalopod.new_state({"players": 2, "size": size, "start": start})


def random_position(size: int, plies: int, seed: int):
    rng = random.Random(seed)
    state = new(size, start=seed % 2)
    while state.plies < plies and not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


def brute_force_value(state) -> int:
    """The exact value for the side to move by plain minimax over the rules engine's own move
    list (no pruning, no table of the search's): WIN + 100 * margin for a win, and so on."""

    @lru_cache(maxsize=None)
    def value(cells: tuple, to_move: int) -> int:
        s = state.clone()
        s.cells, s.to_move = list(cells), to_move
        if s.is_terminal():
            mine, theirs = s.scores()[to_move], s.scores()[1 - to_move]
            margin = mine - theirs
            return (WIN if margin > 0 else -WIN if margin < 0 else 0) + 100 * margin
        best = -10 * WIN
        for move in s.legal_moves():
            child = s.clone()
            child.apply(move)
            best = max(best, -value(tuple(child.cells), child.to_move))
        return best

    return value(tuple(state.cells), state.to_move)


def test_every_level_plays_legal_moves_on_every_size():
    entry = get_entry("cephalopod")
    rng = random.Random(1)
    for size in (3, 4, 5):
        for plies in (0, 7, 15):
            state = random_position(size, plies, seed=size * 10 + plies)
            if state.is_terminal():
                continue
            for name, level in entry.ai_levels.items():
                move = level(state.clone(), state.to_move, rng)
                assert move in state.legal_moves(), (name, size, plies, move)


def near_the_end(size: int, back: int, seed: int):
    """`back` plies before the end of a random game (a small remaining tree: captures make a
    position only a few moves in far too big for the brute force)."""
    rng = random.Random(seed)
    state = new(size, start=seed % 2)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state.after(state.plies - back)


@pytest.mark.parametrize("size,back,seed", [(3, 6, 0), (3, 8, 0), (3, 10, 1), (3, 12, 2), (3, 12, 0),
                                            (4, 6, 2), (4, 8, 0), (4, 10, 0), (4, 10, 1)])
def test_hard_proves_endgames_exactly(size, back, seed):
    state = near_the_end(size, back, seed)
    assert len(state.legal_moves()) > 1
    move, searcher, value = ai.hard_search(state, random.Random(seed), node_limit=2_000_000, time_limit=60)
    assert searcher.solved, "proven within the budget"
    assert value == brute_force_value(state)
    after = state.clone()
    after.apply(move)
    assert -brute_force_value(after) == value, "the chosen move keeps the proven value"


def test_searcher_positions_are_left_as_found_after_running_out_of_budget():
    state = random_position(5, 20, 3)
    pos = state.position()
    before = (list(pos.cells), list(pos.keys), pos.zkey)
    searcher = Searcher(pos.geo, node_limit=3_000, time_limit=10)
    searcher.best_move(pos)
    assert not searcher.solved and searcher.nodes <= 3_000 + 512
    assert (pos.cells, pos.keys, pos.zkey) == before and pos.stack == []


class SteppingClock:
    """A clock the test drives: each look at it is `step` seconds after the last. The time budget
    is checked on it, not on the machine's (a loaded CI machine once took 0.56 s for a 0.3 s
    search: speed belongs in the benchmarks, a test checks the mechanism)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.looks: list[float] = []

    def perf_counter(self) -> float:
        self.now += self.step
        self.looks.append(self.now)
        return self.now


def test_hard_stops_at_its_first_look_at_the_clock_past_the_time_budget(monkeypatch):
    clock = SteppingClock(step=0.01)
    monkeypatch.setattr(search_module, "time", clock)
    state = random_position(5, 30, 4)
    move, searcher, _ = ai.hard_search(state, random.Random(1), node_limit=10 ** 9, time_limit=0.3)
    assert move in state.legal_moves() and searcher.depth_done >= 1
    deadline = clock.looks[0] + 0.3
    past = [t for t in clock.looks if t >= deadline]
    assert len(past) == 1, "the search gives up at its first look past the deadline"
    # and it looks often: at most 512 nodes between two looks (the budget's granularity)
    assert searcher.nodes < 512 * len(clock.looks)


def test_levels_are_deterministic_for_a_position_and_seed(monkeypatch):
    # on a clock that stands still the node budgets decide (as on any machine fast enough):
    # a loaded machine running out of time first must not make the test fail
    monkeypatch.setattr(search_module, "time", SteppingClock(step=0.0))
    state = random_position(5, 12, 5)
    for level in ("flatmc", "easy", "medium", "hard"):
        fn = get_entry("cephalopod").ai_levels[level]
        assert fn(state, state.to_move, random.Random(3)) == fn(state, state.to_move, random.Random(3)), level


def test_playouts_end_the_game_and_leave_the_position():
    state = random_position(4, 5, 6)
    pos = state.position()
    before = (list(pos.cells), list(pos.keys), list(pos.counts))
    rng = random.Random(2)
    margins = {playout_margin(pos, rng.random) for _ in range(200)}
    assert (pos.cells, pos.keys, pos.counts) == before
    assert all(-16 <= m <= 16 and m % 2 == 0 for m in margins) and len(margins) > 2  # 16 squares: even margins


def test_easy_takes_the_biggest_capture_and_flatmc_a_winning_one():
    # White to move, b2 the only empty square: any capture there wins; taking all three Black
    # 1s gains most dice at once (+4)
    state = state_from_board(["w6 w6 w6", "b1 .  b1", "w5 b1 b6"], to_move=0)
    assert ai.easy(state, 0, random.Random(1)) == "b2x a2 b1 c2"
    # 4×4 near the end of a game: flatmc's choice is a move the brute force proves best
    state = near_the_end(4, 6, 2)
    values = {}
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        values[move] = -brute_force_value(after)
    assert values[ai.flatmc(state, state.to_move, random.Random(1))] == max(values.values())


# --- hints and review ------------------------------------------------------------------------------
def test_advise_lists_every_move_best_first_with_exact_values_at_the_end():
    state = random_position(5, 10, 7)
    options = ai.advise(state, state.to_move)
    assert sorted(o["move"] for o in options) == sorted(state.legal_moves())
    values = [o["value"] for o in options]
    assert values == sorted(values, reverse=True)
    assert ai.advise(state, 1 - state.to_move) == []
    # one empty square, no capture possible: the only move, worth the exact final margin
    last = state_from_board(["w6 b6 w6", "b6 .  w6", "w6 b6 w6"], to_move=1)
    assert ai.advise(last, 1) == [{"move": "b2", "value": -1.0}]  # Black ends 4 against 5


def test_review_grades_every_decision():
    record, final = self_play("cephalopod", ["random", "medium"], seed=4, options={"size": 3})
    result = ai.review(record)
    assert result["complete"] and result["game"] == "cephalopod"
    scores = final.scores()
    for seat, entry in enumerate(result["seats"]):
        # a move with a single legal choice is not a decision (the review contract of issue 30)
        moves = [i for i, (s, _, before) in enumerate(record.states()) if s == seat and len(before.legal_moves()) > 1]
        assert [d["index"] for d in entry["decisions"]] == moves
        assert all(d["loss"] >= 0 and d["best_value"] >= d["value"] for d in entry["decisions"])
        assert entry["total_loss"] == pytest.approx(sum(d["loss"] for d in entry["decisions"]), abs=0.02)
        losses = [m["loss"] for m in entry["mistakes"]]
        assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
        assert entry["curve"][0] == 0.0 and entry["curve"][-1] == scores[seat] - scores[1 - seat]
        # one point per round (a move each), as the results plot counts: the start and every round
        assert len(entry["curve"]) == (len(record.moves) + 1) // 2 + 1
        assert entry["score"] == scores[seat]
    random_loss = result["seats"][0]["mean_loss"]
    assert random_loss > result["seats"][1]["mean_loss"], "random play gives away more than medium"


# --- strength (small boards so that it stays quick; the 5×5 numbers are in bench/ and the report) ----
def wins(levels: list[str], games: int, size: int) -> float:
    share = 0.0
    for index in range(games):
        _, state = self_play("cephalopod", levels, seed=f"t{index}", start=index % 2, options={"size": size})
        places = state.ranking()
        share += 1.0 if places[0] < places[1] else 0.5 if places[0] == places[1] else 0.0
    return share / games


def test_medium_beats_random():
    assert wins(["medium", "random"], 10, 4) >= 0.9


def test_hard_beats_easy():
    assert wins(["hard", "easy"], 4, 3) >= 0.875
