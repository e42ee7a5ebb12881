"""Cephalopod's post-game review: every decision graded with Hard's search, exactly where the
endgame solver proves the result.

Each position where the mover had a choice (a single legal move is not a decision) is searched
the way Hard searches (`Searcher` with Hard's settings: iterative-deepening PVS, transposition
table, capture quiescence, the endgame solver), on the review's own budget: `REVIEW_NODES` per
decision, capped by time. That gives the best move and its value; the move played is then
searched to the same depth in the same table (or, where the best move was proven, until its own
value is proven too). `loss` = best value − value of the move played, in dice of final margin
(mine − theirs) for the mover: the same unit for estimates and proofs.

Exact grades: where the search proves both values (no estimated leaf anywhere below; see
`search.py`), they are the exact final margins under best play and the decision is marked
`"exact": True`. The solver's reach is counted in moves to the end, not in empty squares (a
capture empties squares again): in nine typical 5×5 games it proved the positions from 5–14
moves before the end on the review's budget, at 1–5 empty squares then, while positions with
1–2 empty squares 15 or more moves from the end stayed estimates (bench/cephalopod_review.py).

Budget: Hard's own budget (25,000 nodes a move) would take over a minute for a typical game of
~140 moves on CPython, so the review searches `REVIEW_NODES` a decision (depth 4–5 instead of
Hard's 7–9 in the middle game); where the move played is not the best found, both are searched
deeper (`dispute`). A move the full-budget Hard chose is graded 0 where the two searches agree:
93 % of Hard's moves in six typical games (the others 0.45 dice on average), and always where the
result is proven.
"""

from __future__ import annotations

import time

from ...review import sum_up_seat
from .rules import CephalopodState
from .search import INF, WIN, OutOfBudget, Searcher, terminal_value, unwind

REVIEW_NODES = 2_000
"""Nodes a decision (Hard: 25,000 a move); the node budget binds first on CPython."""
REVIEW_SECONDS = 0.5
"""Time cap a decision, all its searches together (Pyodide is 3–5× slower than CPython: there
the caps bind, as for Hard's moves)."""
REVIEW_TOTAL_SECONDS = 8.0
"""Time cap for the whole game, shared out over the decisions left."""
ENDGAME_DEPTH = 9
ENDGAME_NODES = 12_000
"""A search that reached ENDGAME_DEPTH on REVIEW_NODES without a proof is in a narrow endgame
tree: it goes on to ENDGAME_NODES (the table's proven entries kept) to try to prove it."""
PLAYED_NODES = 0.5
DISPUTE_NODES = 1.0
"""Nodes for the move played (unless it was the best) and for the dispute (see `dispute`), as
shares of REVIEW_NODES."""
MAIN_TIME, PLAYED_TIME = 0.4, 0.2
"""Shares of a decision's time for the search of every move and for the move played; the
dispute has the rest."""


def dice(value: int) -> float:
    """A search value as a final margin in dice (an estimate, or the exact margin when proven)."""
    if value >= WIN // 2:
        return (value - WIN) / 100
    if value <= -WIN // 2:
        return (value + WIN) / 100
    return value / 100


def grade(state: CephalopodState, move: str, *, nodes: int = REVIEW_NODES, seconds: float = REVIEW_SECONDS) -> dict | None:
    """One decision: the move played against the best move Hard's search finds on the budget.

    None when the mover had no choice. Values are the mover's final margin in dice."""
    pos = state.position()
    moves = pos.moves()
    if len(moves) < 2:
        return None
    played = state.internal_move(move)
    started = time.perf_counter()
    searcher = Searcher(pos.geo, node_limit=nodes, time_limit=seconds * MAIN_TIME)
    best, best_value = searcher.best_move(pos, order=moves)
    if searcher.depth_done == 0:  # not even depth 1 in time: depth 1 whatever it costs (a few nodes)
        searcher.deadline, searcher.limit = float("inf"), 1 << 40
        best, best_value, _ = searcher.root_search(pos, 1, searcher.presorted(pos, moves))
        searcher.depth_done = 1
    depth, solved = searcher.depth_done, searcher.solved
    if not solved and depth >= ENDGAME_DEPTH and nodes < ENDGAME_NODES:
        searcher.node_limit = ENDGAME_NODES
        searcher.time_limit = max(0.0, started + seconds * MAIN_TIME - time.perf_counter())
        again = searcher.best_move(pos, order=moves)
        if searcher.solved or searcher.depth_done > depth:  # restarted at depth 1: keep what is deeper
            (best, best_value), depth, solved = again, searcher.depth_done, searcher.solved
    if played == best:
        value, exact = best_value, solved
    else:
        value, exact = played_value(searcher, pos, played, depth, solved, int(nodes * PLAYED_NODES), seconds * PLAYED_TIME)
        if not solved and value < best_value:
            left = started + seconds - time.perf_counter()
            best_value, value = dispute(searcher, pos, best, played, depth, best_value, value, int(nodes * DISPUTE_NODES), left)
        if value > best_value:  # the table's bounds can disagree by a little: never a negative loss
            best, best_value = played, value
            exact = exact and solved
    return {"move": move, "value": dice(value), "best": pos.geo.move_name(best), "best_value": dice(best_value),
            "exact": bool(exact), "depth": depth}


def played_value(searcher: Searcher, pos, played: int, depth: int, solved: bool, nodes: int, seconds: float) -> tuple[int, bool]:
    """(value, proven) of `played` for the mover: full window at the root's depth in the warm table;
    if the root was proven, deeper until the move's value is proven too (or the budget ends)."""
    searcher.nodes, searcher.limit = 0, nodes
    searcher.deadline = time.perf_counter() + seconds
    base = len(pos.stack)
    pos.push(played)
    value, proven = None, False
    try:
        if pos.filled == pos.geo.n:
            value, proven = -terminal_value(pos), True
        else:
            d = depth - 1
            while True:
                horizon = searcher.horizon
                value = -searcher.negamax(pos, d, -INF, INF, 1)
                proven = searcher.horizon == horizon
                if proven or not solved:
                    break
                d += 1
    except OutOfBudget:
        unwind(pos, base + 1)
        if value is None:  # not even the first search in time: the table's entry or the estimate
            entry = searcher.tt.get(pos.zkey)
            value = -entry[2] if entry is not None else -searcher.evaluate(pos)
        proven = False
    pos.pop()
    return value, proven


def dispute(searcher: Searcher, pos, best: int, played: int, depth: int, best_value: int, value: int,
            nodes: int, seconds: float) -> tuple[int, int]:
    """(best value, played value) from the deepest depth at which both moves were searched (full
    window, the warm table) within the budget: a shallow search must not call a deeper choice a
    mistake where one more ply would have agreed with it."""
    searcher.nodes, searcher.limit = 0, nodes
    searcher.deadline = time.perf_counter() + seconds
    base = len(pos.stack)
    d = depth
    try:
        while d < depth + 30:
            horizon = searcher.horizon
            pair = []
            for m in (best, played):
                pos.push(m)
                pair.append(-searcher.negamax(pos, d, -INF, INF, 1))
                pos.pop()
            best_value, value = pair
            d += 1
            if searcher.horizon == horizon:  # both proven: deeper changes nothing
                break
    except OutOfBudget:
        unwind(pos, base)
    return best_value, value


def review(record, top: int = 5, *, nodes: int = REVIEW_NODES, seconds: float = REVIEW_SECONDS,
           total_seconds: float = REVIEW_TOTAL_SECONDS) -> dict:
    """Grade every decision of both seats of a game record (see the module text).

    Per seat: `decisions` (index, turn, move, its value, the best move and its value, `loss` =
    dice of final margin given away, `exact`), `total_loss`, `mean_loss`, `mistakes` (the `top`
    costliest), `score` (dice on the board) and `curve`: the seat's final margin as the search
    sees it at the start and after its move in each round (a round: a move each), so that it
    counts what the results plot counts; once the game is over the last point is the real margin.
    `certainty`: "exact" if every grade is proven, "estimate" if none is, else "mixed".
    """
    from ...record import Record

    if isinstance(record, dict):
        record = Record.from_json(record)
    if record.game != "cephalopod":
        raise ValueError("review() is for Cephalopod records")
    state = record.new_state()
    seats = [{"seat": s, "decisions": [], "curve": [0.0]} for s in range(2)]
    deadline = time.perf_counter() + total_seconds
    for index, (seat, move) in enumerate(record.moves):
        if state.is_terminal() or seat != state.to_move:
            break
        share = max(0.002, (deadline - time.perf_counter()) / max(1, len(record.moves) - index))
        graded = grade(state, move, nodes=nodes, seconds=min(seconds, share))
        curve = seats[seat]["curve"]
        if graded is None:  # a forced move: no decision, the curve holds its level
            curve.append(curve[-1])
        else:
            value, best_value = round(graded["value"], 2), round(graded["best_value"], 2)
            seats[seat]["decisions"].append({
                "index": index, "turn": state.plies + 1, "move": move, "value": value, "best": graded["best"],
                "best_value": best_value, "loss": round(max(0.0, best_value - value), 2), "exact": graded["exact"]})
            curve.append(value)
        state.apply(move, seat)
    scores = state.scores()
    for s, entry in enumerate(seats):
        if state.is_terminal():
            rounds = (state.plies + 1) // 2  # the last round may end after the first mover's move
            entry["curve"] = entry["curve"][:rounds] + [float(scores[s] - scores[1 - s])]
        sum_up_seat(entry, scores[s], top)
    flags = [d["exact"] for entry in seats for d in entry["decisions"]]
    certainty = "exact" if flags and all(flags) else "mixed" if any(flags) else "estimate"
    return {"game": "cephalopod", "complete": state.is_terminal(), "certainty": certainty, "seats": seats}
