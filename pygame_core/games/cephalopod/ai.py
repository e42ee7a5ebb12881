"""Cephalopod's AI levels (weakest first after `random`), hints and the post-game review.

- `flatmc`: flat Monte-Carlo, the measuring baseline: every legal move gets `FLATMC_PLAYOUTS`
  (200) uniformly random playouts to the end of the game; the move with the best mean result
  (win 1, draw ½, loss 0) is played, the first listed on a tie.
- `easy`: greedy: the move that gains most dice at once (a random one among equals); it never
  looks at the reply.
- `medium`: a shallow alpha-beta search (2 plies plus captures) on a small budget.
- `hard`: iterative-deepening alpha-beta (PVS, transposition table, killer/history ordering,
  capture quiescence) under a node and a time budget; near the end of the game the same search
  proves the result exactly (an endgame solver: see `search.py`) and then plays the best proven
  move.

All levels are deterministic for a given position and `rng` (the node budget binds first on a
desktop CPython; the time budget only where the machine is slower).
"""

from __future__ import annotations

import random

from .rules import CephalopodState
from .search import WIN, Searcher, playout_margin

FLATMC_PLAYOUTS = 200

MEDIUM_NODES = 3_000
MEDIUM_SECONDS = 0.5
HARD_NODES = 25_000
HARD_SECONDS = 1.0

# Hints run on the browser's main thread (ARCHITECTURE: "fast"): a small budget. The review's
# budget is in review.py.
ADVISE_NODES = 4_000
ADVISE_SECONDS = 0.1


def dice(value: int) -> float:
    """A search value as an estimated final margin in dice (proven results: the exact margin)."""
    if value >= WIN // 2:
        return (value - WIN) / 100
    if value <= -WIN // 2:
        return (value + WIN) / 100
    return value / 100


def _shuffled(pos, rng) -> list[int]:
    moves = pos.moves()
    rng.shuffle(moves)  # variety among equals; the searches sort stably
    return moves


def flatmc(state: CephalopodState, seat: int, rng: random.Random, playouts: int = FLATMC_PLAYOUTS) -> str:
    pos = state.position()
    moves = pos.moves()
    best_move, best_score = moves[0], -1.0
    if len(moves) > 1:
        rand = rng.random
        for move in moves:
            pos.push(move)
            score = 0.0
            for _ in range(playouts):
                margin = playout_margin(pos, rand)  # the opponent's margin
                score += 1.0 if margin < 0 else 0.5 if margin == 0 else 0.0
            pos.pop()
            if score > best_score:
                best_move, best_score = move, score
    return pos.geo.move_name(best_move)


def easy(state: CephalopodState, seat: int, rng: random.Random) -> str:
    pos = state.position()
    searcher = Searcher(pos.geo)
    moves = pos.moves()
    gains = [searcher.gain(pos, m) for m in moves]
    top = max(gains)
    return pos.geo.move_name(rng.choice([m for m, g in zip(moves, gains) if g == top]))


def medium(state: CephalopodState, seat: int, rng: random.Random) -> str:
    pos = state.position()
    searcher = Searcher(pos.geo, node_limit=MEDIUM_NODES, time_limit=MEDIUM_SECONDS, quiescence=2)
    move, _ = searcher.best_move(pos, max_depth=2, order=_shuffled(pos, rng))
    return pos.geo.move_name(move)


def hard_search(state: CephalopodState, rng: random.Random, node_limit: int = HARD_NODES,
                time_limit: float = HARD_SECONDS) -> tuple[str, Searcher, int]:
    """Hard's move, the searcher (nodes, depth, solved) and the value: for tests and benchmarks."""
    pos = state.position()
    searcher = Searcher(pos.geo, node_limit=node_limit, time_limit=time_limit)
    move, value = searcher.best_move(pos, order=_shuffled(pos, rng))
    return pos.geo.move_name(move), searcher, value


def hard(state: CephalopodState, seat: int, rng: random.Random) -> str:
    return hard_search(state, rng)[0]


# --- hints and review --------------------------------------------------------------------------------
def _values(state: CephalopodState, nodes: int, seconds: float, depth: int = 3) -> list[tuple[str, float]]:
    pos = state.position()
    searcher = Searcher(pos.geo, node_limit=nodes, time_limit=seconds, quiescence=2)
    name = pos.geo.move_name
    scored = searcher.move_values(pos, depth)
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][1], i))
    return [(name(scored[i][0]), dice(scored[i][1])) for i in order]


def advise(state: CephalopodState, seat: int | None = None) -> list[dict]:
    """Every legal move of the seat to move, best first, with `value` = the estimated final
    margin in dice for that seat after the move (exact when the search reached the end)."""
    if state.is_terminal() or seat not in (None, state.to_move):
        return []
    return [{"move": move, "value": value} for move, value in _values(state, ADVISE_NODES, ADVISE_SECONDS)]


def review(record, top: int = 5, **budget) -> dict:
    """The post-game review: every decision graded with Hard's search, exact where the endgame
    solver proves it (see `review.py`)."""
    from .review import review as run

    return run(record, top, **budget)
