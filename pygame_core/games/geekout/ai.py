"""Geek Out! Masters AI levels, weakest first: random (shared), easy, medium, optimal, perfect.

- easy: a beginner's rules of thumb for the order of actions (clear Dragons, spare 42s), stops
  as soon as three 42s are banked.
- medium: the exact best order of actions (the optimal policy's in-phase choice) but a fixed
  stopping rule: stop at five banked 42s or when fewer than four dice would be thrown again.
- optimal: the exact expected-points policy of `solver` (order of actions and stop/continue).
- perfect: the optimal policy, except in its last turn of the game, where it plays the exact
  policy that maximises its chance to win the game given every score (`winprob`).
"""

from __future__ import annotations

from . import solver, winprob


# A beginner's feel for the actions: clear Dragons first, never touch a 42 if it can be helped.
TARGET_FEEL = {"dragon": 3.0, "ship": 1.0, "hero": 0.5, "meeple": 0.5, "heart": 1.5, "42": -3.0}
ACTOR_FEEL = {"hero": 0.3, "ship": 0.2, "meeple": 0.0}


def _feel(move: str, inactive: int) -> float:
    word, _, target = move.partition(" ")
    if word == "heart":
        return 1.0 if inactive else 0.8
    if not target:
        return 0.0
    if word == "hero" and target == "heart":
        return 2.0  # a Heart flipped is a 42
    return TARGET_FEEL[target] + ACTOR_FEEL[word]


def easy(state, seat: int, rng) -> str:
    moves = state.legal_moves(seat)
    if state.phase == "decide":
        return "stop" if state.scored >= 3 or "continue" not in moves else "continue"
    best = max(_feel(m, state.inactive) for m in moves)
    return rng.choice([m for m in moves if _feel(m, state.inactive) == best])


def medium(state, seat: int, rng) -> str:
    moves = state.legal_moves(seat)
    if state.phase == "decide":
        if "continue" not in moves or state.scored >= 5 or state.used < 4:
            return "stop"
        return "continue"
    return solver.best_move(state)


def optimal(state, seat: int, rng) -> str:
    return solver.best_move(state)


def perfect(state, seat: int, rng) -> str:
    return winprob.best_move(state, seat)
