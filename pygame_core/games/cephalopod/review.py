"""Cephalopod's post-game review: every decision graded with Hard's search, exactly where the
endgame solver proves the result.

Two looks at each position where the mover had a choice (a single legal move is not a decision):

1. **A first look** on a small budget (`REVIEW_NODES` a decision, capped by time) with Hard's
   search (`Searcher` with Hard's settings: iterative-deepening PVS, transposition table,
   capture quiescence, the endgame solver): the best move and its value; the move played is then
   searched to the same depth in the same table (or, where the best move was proven, until its
   own value is proven too). Where the move played is that best move, or worth as much, or both
   values are proven, this is the grade.
2. **A dispute** where the first look calls the move played a mistake and did not prove it:
   Hard's own search settles it (`settle`: `Searcher` with Hard's settings and its budget,
   `ai.HARD_NODES`, with the move played searched first at every depth, so that its value is
   exact at each depth and a tie goes to it). The depth Hard's node budget reaches depends on
   its random move order (`ai._shuffled`): in 504 of Hard's unproven decisions in eight games
   the played-first search finished a deeper depth than Hard's own in 21 (one deeper in 19),
   a shallower one in 9 (one shallower). So a move this search chooses at its last finished
   depth D or at D−1 counts as one Hard chooses: loss 0 (at D alone 501 of the 504 were, at
   D or D−1 all 504). Otherwise the loss is that search's at depth D, which is then the best
   move the computer knows. (Where the search proves the result, depth D alone counts: a proof
   is not revised.)

`loss` = best value − value of the move played, in dice of final margin (mine − theirs) for the
mover: the same unit for estimates and proofs.

So a move Hard chose is graded 0 wherever the node budget binds (CPython, and Pyodide on this
machine: Hard's 25,000 nodes take ~0.13 s on CPython, under 1 s under Pyodide): all of Hard's
moves in the planted record's game and in seeded Hard games (tests/engine/test_review_planted.py;
with the first look alone 62 of 66 in the planted record, 75–80 % of Hard's moves after move 40
of fresh games). Where time binds instead (a slow phone, or the review's own cap for the whole
game, `REVIEW_TOTAL_SECONDS`), a dispute search may be shallower than Hard's, or a dispute left
unsettled (its first look's grade stands), so a move of Hard's can still be called a mistake;
the disputes are settled costliest first, so that the mistakes listed are the last left
unsettled.

Exact grades: where the search proves both values (no estimated leaf anywhere below; see
`search.py`), they are the exact final margins under best play and the decision is marked
`"exact": True`. The solver's reach is counted in moves to the end, not in empty squares (a
capture empties squares again): in nine typical 5×5 games it proved the positions from 5–14
moves before the end on the review's budget, at 1–5 empty squares then, while positions with
1–2 empty squares 15 or more moves from the end stayed estimates (bench/cephalopod_review.py).

Budget: Hard's own budget for every decision would take ~18 s for a typical game of ~140 moves
on CPython, so only the disputes get it: 27–37 a game between Hard and Medium, 49–61 between
Medium and Easy (a person plays more like those), at ~0.13 s each on CPython and ~2.5× that under
Pyodide. On CPython with the caps lifted a whole review takes 4.6–5.6 s of CPU (Hard-vs-Medium)
and 7.4–8.4 s (Medium-vs-Easy), against 1.7–2.0 s with the first look alone
(bench/cephalopod_review.py). In the browser the whole-game cap binds: 9 s (bench/review.py), in
which, on this 2-core machine under other load, 15–22 of a Hard-vs-Medium game's 26–28 disputes
were settled and 64 of 66 and 64 of 70 of Hard's moves graded 0
(bench/cephalopod_review_pyodide.mjs 2 1 1 hard,medium).
"""

from __future__ import annotations

import time

from ...review import sum_up_seat
from .ai import HARD_NODES, HARD_SECONDS
from .rules import CephalopodState
from .search import INF, WIN, OutOfBudget, Searcher, terminal_value, unwind

REVIEW_NODES = 2_000
"""Nodes a decision in the first look (Hard: 25,000 a move); the node budget binds first on CPython."""
REVIEW_SECONDS = 0.5
"""Time cap a decision's first look (Pyodide is 3–5× slower than CPython: there the caps bind,
as for Hard's moves)."""
REVIEW_TOTAL_SECONDS = 9.0
"""Time cap for the whole game, both looks: the first looks share out `FIRST_LOOK_SHARE` of it
over the decisions left, the disputes have what is left."""
FIRST_LOOK_SHARE = 0.6
MIN_SETTLE_SECONDS = 0.05
"""A dispute is not started with less time than this left (it would not finish depth 1)."""
ENDGAME_DEPTH = 9
ENDGAME_NODES = 12_000
"""A search that reached ENDGAME_DEPTH on REVIEW_NODES without a proof is in a narrow endgame
tree: it goes on to ENDGAME_NODES (the table's proven entries kept) to try to prove it."""
PLAYED_NODES = 0.5
"""Nodes for the move played (unless it was the best), as a share of REVIEW_NODES."""
MAIN_TIME = 0.6
"""Share of a first look's time for the search of every move; the move played has the rest."""


def dice(value: int) -> float:
    """A search value as a final margin in dice (an estimate, or the exact margin when proven)."""
    if value >= WIN // 2:
        return (value - WIN) / 100
    if value <= -WIN // 2:
        return (value + WIN) / 100
    return value / 100


def grade(state: CephalopodState, move: str, *, nodes: int = REVIEW_NODES, seconds: float = REVIEW_SECONDS,
          settle_seconds: float = HARD_SECONDS) -> dict | None:
    """One decision: the move played against the best move Hard's search finds (see the module
    text: the first look, then Hard's search where they disagree). None when the mover had no
    choice. Values are the mover's final margin in dice."""
    graded = first_look(state, move, nodes=nodes, seconds=seconds)
    if graded is not None and disputed(graded):
        graded = settle(state, graded, settle_seconds)
    return graded


def disputed(graded: dict) -> bool:
    """The first look calls the move a mistake without proving it."""
    return not graded["exact"] and graded["value"] < graded["best_value"]


def first_look(state: CephalopodState, move: str, *, nodes: int = REVIEW_NODES,
               seconds: float = REVIEW_SECONDS) -> dict | None:
    """The grade on the review's small budget (step 1 of the module text)."""
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
        left = max(0.0, started + seconds - time.perf_counter())
        value, exact = played_value(searcher, pos, played, depth, solved, int(nodes * PLAYED_NODES), left)
        if value > best_value:  # the table's bounds can disagree by a little: never a negative loss
            best, best_value = played, value
        exact = exact and solved
    return {"move": move, "value": dice(value), "best": pos.geo.move_name(best), "best_value": dice(best_value),
            "exact": bool(exact), "depth": depth}


def settle(state: CephalopodState, graded: dict, seconds: float = HARD_SECONDS) -> dict:
    """A disputed grade settled by Hard's own search (step 2 of the module text): the settings
    and node budget of `ai.hard_search`, time capped at `seconds` (Hard's own cap by default), the
    move played first at every depth. The grade unchanged where the time cap stops the search
    short of the first look's depth."""
    pos = state.position()
    played = state.internal_move(graded["move"])
    searcher = Searcher(pos.geo, node_limit=HARD_NODES, time_limit=seconds)
    trace: list = []
    searcher.best_move(pos, order=[played] + [m for m in pos.moves() if m != played], pin=played, trace=trace)
    if not trace or (trace[-1][0] < graded.get("depth", 0) and not searcher.solved):
        return graded  # cut short by the time cap: not deeper than the first look, which stands
    # with the move played first, it is the depth's choice exactly when nothing beats it
    depth, best, best_value, scored = trace[-1]
    chosen = [t for t in trace[-1:] if t[1] == played] if searcher.solved else \
        [t for t in reversed(trace[-2:]) if t[1] == played]
    if chosen:
        depth, best, best_value, scored = chosen[0]
    value = scored[0][1]  # the move played, searched first with the full window
    return {"move": graded["move"], "value": dice(value), "best": pos.geo.move_name(best),
            "best_value": dice(best_value), "exact": searcher.solved, "depth": depth}


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


def review(record, top: int = 5, *, nodes: int = REVIEW_NODES, seconds: float = REVIEW_SECONDS,
           settle_seconds: float = HARD_SECONDS, total_seconds: float = REVIEW_TOTAL_SECONDS) -> dict:
    """Grade every decision of both seats of a game record (see the module text).

    Per seat: `decisions` (index, turn, move, its value, the best move and its value, `loss` =
    dice of final margin given away, `exact`), `total_loss`, `mean_loss`, `mistakes` (the `top`
    costliest), `score` (dice on the board) and `curve`: the seat's final margin as the search
    sees it at the start and after its move in each round (a round: a move each), so that it
    counts what the results plot counts; once the game is over the last point is the real margin.
    `certainty`: "exact" if every grade is proven, "estimate" if none is, else "mixed".
    `seconds`, `settle_seconds`: time caps of a first look and of a dispute (Hard's own);
    `total_seconds`: of the whole review (the time caps only bind where the machine is slow).
    """
    from ...record import Record

    if isinstance(record, dict):
        record = Record.from_json(record)
    if record.game != "cephalopod":
        raise ValueError("review() is for Cephalopod records")
    state = record.new_state()
    started = time.perf_counter()
    first_deadline = started + total_seconds * FIRST_LOOK_SHARE
    looks: list[tuple[int, int, int, dict | None]] = []  # (index, seat, turn, grade)
    disputes: list[tuple[int, CephalopodState]] = []
    for index, (seat, move) in enumerate(record.moves):
        if state.is_terminal() or seat != state.to_move:
            break
        share = max(0.002, (first_deadline - time.perf_counter()) / max(1, len(record.moves) - index))
        graded = first_look(state, move, nodes=nodes, seconds=min(seconds, share))
        if graded is not None and disputed(graded):
            disputes.append((len(looks), state.clone()))
        looks.append((index, seat, state.plies + 1, graded))
        state.apply(move, seat)
    # the costliest first: where time runs out, the mistakes at the top are the ones settled
    disputes.sort(key=lambda d: looks[d[0]][3]["value"] - looks[d[0]][3]["best_value"])
    deadline = started + total_seconds
    for at, before in disputes:
        left = deadline - time.perf_counter()
        if left < MIN_SETTLE_SECONDS:
            break
        index, seat, turn, graded = looks[at]
        looks[at] = (index, seat, turn, settle(before, graded, min(settle_seconds, left)))
    seats = [{"seat": s, "decisions": [], "curve": [0.0]} for s in range(2)]
    for index, seat, turn, graded in looks:
        curve = seats[seat]["curve"]
        if graded is None:  # a forced move: no decision, the curve holds its level
            curve.append(curve[-1])
            continue
        value, best_value = round(graded["value"], 2), round(graded["best_value"], 2)
        seats[seat]["decisions"].append({
            "index": index, "turn": turn, "move": graded["move"], "value": value, "best": graded["best"],
            "best_value": best_value, "loss": round(max(0.0, best_value - value), 2), "exact": graded["exact"]})
        curve.append(value)
    scores = state.scores()
    for s, entry in enumerate(seats):
        if state.is_terminal():
            rounds = (state.plies + 1) // 2  # the last round may end after the first mover's move
            entry["curve"] = entry["curve"][:rounds] + [float(scores[s] - scores[1 - s])]
        sum_up_seat(entry, scores[s], top)
    flags = [d["exact"] for entry in seats for d in entry["decisions"]]
    certainty = "exact" if flags and all(flags) else "mixed" if any(flags) else "estimate"
    return {"game": "cephalopod", "complete": state.is_terminal(), "certainty": certainty, "seats": seats}
