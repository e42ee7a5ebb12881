"""Rolf's post-game review: every throw with a real choice graded by Hard's own search.

A Rolf *decision* is one throw's placements: which squares to take (two of up to six with three
different dice, three free squares with three of a kind). A pair's squares, the `x–x` of three of
a kind and the confirmations are forced (`rules.py`: only a choice among more legal squares than
placements can be chosen again), so they are not decisions. The order of a throw's takes belongs
to its decision: it matters only where a take ends the game and the rest lapse, and the review
values the position the player's own order made (a pair's order alone is not graded).

The grade is Hard's value (`ai.search`): for the throw's best plans by the static estimate
(`ai.HARD_PLANS`), the expectimax over the 56 throws that can come next — the thrower's reply, then
the estimated chance to win (`ai.win_chance`); a plan that ends the game is worth its result.
The player's own squares are valued the same way from the position they really made (their
takes in their order), searched or not. Unlike Hard in play the review has no time limit: every
one of those plans is searched, so the review is deterministic, and Hard's own choice (whenever
its search finished inside its budget, which on CPython it does by far) is the best and loses 0.
Plans outside Hard's few are never Hard's best: a player's plan among them that the expectimax
values above all of Hard's is itself the best (loss 0).

The cost: one expectimax per plan, each about as dear as the table has seats. A long game at many
seats searches fewer of Hard's plans per decision (`plans_per_decision`: as many as REVIEW_WORK
allows, at least MIN_PLANS; a two-seat game of up to 33 decisions gets all of them). That is
still Hard's evaluation of its best plans by the static estimate: Hard's own choice, the best of
a superset of them, still grades 0. Each decision says how many plans it was graded against
(`plans`).

Unit: percentage points of the deciding seat's estimated chance to win (an estimate: the chance
is a fitted logistic model, `ai.win_chance`). Each decision: `value` (the chance after the
player's choice, in %), `best` / `best_value` (Hard's choice and its chance), `loss` = best −
chosen (≥ 0), `exact` False; for the view `round` (from 1, as `view.round_of` counts), `throw`
(the throw of the turn, from 1) and `dice`. A decision's `move` and `best` list the squares of
the throw in the review's own spelling `take 3-5 5-3` (the record holds one `take` per square;
`index` is the first of them, so the position before `index` is the one the player faced).

`curve`: per seat the estimated chance to win in % (`ai.win_chance`, the advisor's unit too):
at the start, after each round (every seat's turn, as the results plot counts rounds) and, once
the game is over, its result (100 a win, 100/k a win shared by k, 0 a loss).
"""

from __future__ import annotations

import math

from ...review import sum_up_seat
from .ai import (
    HARD_PLANS,
    expected_after_throw,
    play_plan,
    search,
    terminal_value,
    win_chance,
)
from .board import NAMES

# The review's work: Hard's plans searched per decision × decisions × seats (an expectimax costs
# about its seats' share: each of the 56 throws ends in an estimate of every seat's outlook; one
# unit ≈ 6 ms CPython, 2–4× that in Pyodide). 400 keeps all of Hard's plans for a two-seat game of
# up to 33 decisions (typical: 8–18) and holds longer games at more seats to ≈ 2.5 s CPython.
REVIEW_WORK = 400
MIN_PLANS = 2


def is_decision(state) -> bool:
    """At the first placement of a throw with a real choice (more legal squares than placements)."""
    return not state.over and not state.rolling and not state.chosen and any(pool[2] for pool in state.pools)


def plan_text(squares) -> str:
    """A throw's squares in the review's spelling: `take 3-5 5-3`."""
    return "take " + " ".join(NAMES[i] for i in squares)


def after_value(after, seat: int) -> float:
    """Hard's value of the position a throw's placements made (its `search`, for one plan)."""
    if after.over:
        return terminal_value(after, seat)
    after = after.clone()
    after.confirm()
    return expected_after_throw(after, seat)


def position_key(state) -> tuple:
    return (tuple(state.owners), tuple(state.corner), state.end_seat, state.winner, state.over)


def grade(state, squares: list[int], plans: int = HARD_PLANS) -> dict:
    """One decision: the throw's position `state` (no square taken yet) and the squares the
    player took, in order; `plans`: how many of Hard's plans to search (at most HARD_PLANS).
    Values in percent of chance to win."""
    seat = state.seat
    chosen_after = play_plan(state, squares)
    # With no time limit `search` expectimaxes its first `plans` plans (best first by the static
    # estimate) and lists the rest after them with their static estimate only.
    searched = [(value, plan, position_key(play_plan(state, plan)))
                for value, plan in search(state, seat, budget=math.inf, top=plans)[:plans]]
    best_value, best_plan, _ = searched[0]
    key = position_key(chosen_after)
    chosen = next((value for value, _, k in searched if k == key), None)
    if chosen is None:
        chosen = after_value(chosen_after, seat)
    if chosen > best_value:
        best_value, best_plan = chosen, squares
    return {"move": plan_text(squares), "value": round(100 * chosen, 2), "best": plan_text(best_plan),
            "best_value": round(100 * best_value, 2), "loss": round(max(0.0, 100 * (best_value - chosen)), 2),
            "exact": False}


def plans_per_decision(decisions: int, seats: int) -> int:
    """Hard's plans searched per decision: all HARD_PLANS while the game's work fits REVIEW_WORK,
    fewer (at least MIN_PLANS) in long games with many seats."""
    return max(MIN_PLANS, min(HARD_PLANS, REVIEW_WORK // max(1, decisions * seats)))


def review(record, top: int = 5) -> dict:
    """Grade every decision of every seat of a Rolf record (see the module notes).

    `record`: a `Record` or its JSON dict. Per seat: `decisions`, `total_loss` and `mean_loss`
    (percentage points of estimated chance to win given away), `mistakes` (the `top` costliest,
    costliest first), `score` (the seat's total) and `curve`."""
    from ...record import Record

    if isinstance(record, dict):
        record = Record.from_json(record)
    if record.game != "rolf":
        raise ValueError("review() is for Rolf records")
    state = record.new_state()
    n = state.num_players
    seats = [{"seat": s, "decisions": [], "curve": [round(100 * win_chance(state, s), 2)]} for s in range(n)]
    moves = record.moves
    found = []  # (index, the position at the throw's first take, the squares taken)
    for index, (player, move) in enumerate(moves):
        if player == state.seat and is_decision(state):
            end = index
            while end < len(moves) and moves[end][0] == player and moves[end][1].startswith("take "):
                end += 1
            squares = [NAMES.index(m[5:]) for _, m in moves[index:end]]
            work = play_plan(state, squares)
            if work.over or not work.placements_left():  # a throw cut short by the record's end is not graded
                found.append((index, state.clone(), squares))
        turn = state.turn
        state.apply(move, player)
        if state.turn != turn and state.turn % n == 0:  # a round is over: every seat had its turn
            for s in range(n):
                seats[s]["curve"].append(round(100 * win_chance(state, s), 2))
    if state.over:  # the result itself: 100 a win, 100/k a win shared by k, 0 a loss
        places = state.ranking()
        for s in range(n):
            seats[s]["curve"].append(round(100 / places.count(1), 2) if places[s] == 1 else 0.0)
    plans = plans_per_decision(len(found), n)
    for index, before, squares in found:
        decision = grade(before, squares, plans)
        decision.update({"index": index, "round": before.turn // n + 1, "throw": before.throw + 1,
                         "dice": list(before.dice), "plans": plans})
        seats[before.seat]["decisions"].append(decision)
    scores = state.scores()
    for s, entry in enumerate(seats):
        sum_up_seat(entry, scores[s], top)
    return {"game": "rolf", "complete": state.over, "certainty": "estimate", "seats": seats}
