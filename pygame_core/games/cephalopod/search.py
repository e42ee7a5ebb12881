"""Cephalopod search: alpha-beta (negamax, PVS) with a transposition table, a capture
quiescence search, an exact endgame solver, and random playouts for the Monte-Carlo baseline.

Values are ints in hundredths of a die, from the side to move's point of view:
- a finished game is worth `WIN + 100 * margin` to the winner (`-WIN + …` to the loser, 100 *
  margin = 0 for a draw), so any proven win outranks any heuristic value;
- elsewhere `evaluate` estimates the final margin: the dice now (mine − theirs) plus the parity
  of the empty squares (with no further capture, the side to move fills the last square when an
  odd number is left) and a small term for dice exposed to a capture.

Budgets: every search stops after `node_limit` nodes or `time_limit` seconds, whichever comes
first (the node budget makes play reproducible where the machine is fast enough; the time budget
bounds it where it is not, e.g. Pyodide in a phone). Iterative deepening keeps the best move of
the last finished depth.

Endgame solver: the search counts the leaves it had to *estimate* (the horizon: quiescence or a
table entry that was itself estimated). A subtree searched without touching the horizon is
exact — every line in it reached the end of the game — and its table entry is marked solved
and reused at any depth. An iteration whose root never touched the horizon has solved the
position: deepening stops and the value is the exact final margin under best play. (A fixed
"few empty squares" trigger does not work in Cephalopod: a capture empties squares again, and
with five empty squares a 5×5 game can still have dozens of plies to go; the remaining tree,
not the empty squares, decides when a proof fits in the budget — in practice the last 10–15
plies of a game.)
"""

from __future__ import annotations

import time

from .core import CAPTURES, OCCUPIED, UNION, Geometry, Position

try:
    bit_count = int.bit_count
except AttributeError:  # pragma: no cover - Python < 3.10
    def bit_count(x: int) -> int:
        return bin(x).count("1")

INF = 1 << 30
WIN = 100_000
"""Value of a won game before its margin (any proven result outranks any estimate)."""

EXACT, LOWER, UPPER = 0, 1, 2
SOLVED_DEPTH = 1000
"""The depth recorded for exact (solved to the end) table entries: usable at any depth."""

# Per key: whether the square is empty and capture-free (a quiet placement is possible there).
QUIET = bytes(1 if k < OCCUPIED and CAPTURES[k] == [0] else 0 for k in range(2 * OCCUPIED))


class OutOfBudget(Exception):
    """Raised inside the search when its node or time budget is spent."""


def terminal_value(pos: Position) -> int:
    """The finished game's value for the side to move."""
    side = pos.side
    margin = pos.counts[side] - pos.counts[1 - side]
    if margin > 0:
        return WIN + 100 * margin
    if margin < 0:
        return -WIN + 100 * margin
    return 0


class Weights:
    """Evaluation weights (hundredths of a die)."""

    __slots__ = ("parity", "exposed", "safe")

    def __init__(self, parity: int = 60, exposed: int = 25, safe: int = 10) -> None:
        self.parity = parity  # odd number of empty squares: the side to move fills the last one
        self.exposed = exposed  # per die in some capturing set at an empty square
        self.safe = safe  # per die showing 6 (can never be captured)


DEFAULT_WEIGHTS = Weights()


class Searcher:
    """One search (fresh tables each time: the result depends only on the position and budget)."""

    def __init__(self, geo: Geometry, *, node_limit: int = 50_000, time_limit: float = 1.0,
                 quiescence: int = 4, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.geo = geo
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.quiescence = quiescence
        self.weights = weights
        self.tt: dict[int, tuple[int, int, int, int]] = {}  # zkey -> (depth, flag, value, move)
        self.horizon = 0  # leaves estimated so far (see the module text)
        self.history = [0] * (geo.n * 16)
        self.killers = [[-1, -1] for _ in range(256)]
        self.nodes = 0
        self.deadline = 0.0
        self.limit = node_limit
        # what the last `best_move` found
        self.depth_done = 0
        self.solved = False

    # --- budget ---------------------------------------------------------------------------
    def _tick(self) -> None:
        if self.nodes >= self.limit or time.perf_counter() >= self.deadline:
            raise OutOfBudget

    # --- evaluation ------------------------------------------------------------------------
    def evaluate(self, pos: Position) -> int:
        """Estimated final margin for the side to move, in hundredths of a die."""
        side = pos.side
        counts = pos.counts
        w = self.weights
        value = 100 * (counts[side] - counts[1 - side])
        if (self.geo.n - pos.filled) & 1:
            value += w.parity
        # dice in some capturing set at an empty square: the capturer takes them, whoever it is
        exposed = 0
        expose = self.geo.expose
        s = 0
        for key in pos.keys:
            u = UNION[key]
            if u:
                exposed |= expose[s][u]
            s += 1
        mine, theirs = pos.bits[side], pos.bits[1 - side]
        if exposed:
            value += w.exposed * (bit_count(exposed & theirs) - bit_count(exposed & mine))
        sixes = pos.sixes
        if sixes:
            value += w.safe * (bit_count(sixes & mine) - bit_count(sixes & theirs))
        return value

    # --- move ordering ------------------------------------------------------------------------
    def gain(self, pos: Position, move: int) -> int:
        """Immediate change of (my dice − their dice) for the side to move."""
        mask = move & 15
        if not mask:
            return 1
        side, cells = pos.side, pos.cells
        g = 1
        for t in self.geo.subsets[move >> 4][mask]:
            g += -1 if cells[t] >> 3 == side else 1
        return g

    def ordered(self, pos: Position, first: int, ply: int) -> list[int]:
        moves = pos.moves()
        history = self.history
        k0, k1 = self.killers[ply]
        gain = self.gain

        def rank(m: int) -> int:
            if m == first:
                return -1 << 40
            if m & 15:
                return -(gain(pos, m) + 4) << 30
            bonus = 1 << 28 if m == k0 or m == k1 else 0
            return -(bonus + history[m])

        moves.sort(key=rank)
        return moves

    # --- the searches ---------------------------------------------------------------------------
    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 511:
            self._tick()
        if pos.filled == self.geo.n:
            return terminal_value(pos)
        if depth <= 0:
            self.horizon += 1
            return self.qsearch(pos, alpha, beta, self.quiescence)
        alpha0 = alpha
        key = pos.zkey
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            edepth, flag, value, tt_move = entry
            if edepth >= depth:
                cut = (flag == EXACT or (flag == LOWER and value >= beta)
                       or (flag == UPPER and value <= alpha))
                if cut:
                    if edepth < SOLVED_DEPTH:
                        self.horizon += 1
                    return value
        horizon = self.horizon
        moves = self.ordered(pos, tt_move, ply)
        best, best_move = -INF, moves[0]
        push, pop = pos.push, pos.pop
        first = True
        for m in moves:
            push(m)
            if first:
                v = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
                first = False
            else:
                v = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < v < beta:
                    v = -self.negamax(pos, depth - 1, -beta, -v, ply + 1)
            pop()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        if not m & 15:
                            killers = self.killers[ply]
                            if killers[0] != m:
                                killers[1], killers[0] = killers[0], m
                            self.history[m] += depth * depth
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (SOLVED_DEPTH if self.horizon == horizon else depth, flag, best, best_move)
        return best

    def qsearch(self, pos: Position, alpha: int, beta: int, left: int) -> int:
        """Captures only, either side may instead "stand pat" (place quietly) when it can."""
        self.nodes += 1
        if not self.nodes & 511:
            self._tick()
        if pos.filled == self.geo.n:
            return terminal_value(pos)
        keys = pos.keys
        can_rest = any(map(QUIET.__getitem__, keys))
        best = -INF
        if can_rest:
            best = self.evaluate(pos)
            if best >= beta or left <= 0:
                return best
            if best > alpha:
                alpha = best
        caps = CAPTURES
        captures = [s << 4 | m for s in range(self.geo.n) for m in caps[keys[s]] if m]
        if not captures:
            return best
        if left <= 0:  # must capture but no depth left: estimate instead
            return self.evaluate(pos)
        gain = self.gain
        captures.sort(key=lambda m: -gain(pos, m))
        push, pop = pos.push, pos.pop
        for m in captures:
            push(m)
            v = -self.qsearch(pos, -beta, -alpha, left - 1)
            pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    # --- the root ---------------------------------------------------------------------------------
    def root_search(self, pos: Position, depth: int, moves: list[int], alpha: int = -INF, beta: int = INF
                    ) -> tuple[int, int, list[tuple[int, int]]]:
        """(best move, value, [(move, value bound)]) at `depth`, PVS over `moves` in that order."""
        best, best_move = -INF, moves[0]
        scored = []
        first = True
        for m in moves:
            pos.push(m)
            if first:
                v = -self.negamax(pos, depth - 1, -beta, -alpha, 1)
                first = False
            else:
                v = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1)
                if alpha < v < beta:
                    v = -self.negamax(pos, depth - 1, -beta, -v, 1)
            pos.pop()
            scored.append((m, v))
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
        return best_move, best, scored

    def best_move(self, pos: Position, *, max_depth: int = 200, order: list[int] | None = None,
                  pin: int = -1, trace: list | None = None) -> tuple[int, int]:
        """(move, value) by iterative deepening within the budget; `solved` tells whether the value
        is proven (the exact final margin under best play, see the module text).

        `pin`: a move searched first at every depth (else the previous depth's best is first), so
        that its value is exact at each depth and a tie goes to it (the review's dispute).
        `trace`: gets (depth, best move, value, [(move, value bound)]) for each finished depth."""
        self.deadline = time.perf_counter() + self.time_limit
        self.nodes = 0
        self.limit = self.node_limit
        self.solved = False
        self.depth_done = 0
        moves = list(order) if order is not None else pos.moves()
        base = len(pos.stack)  # an interrupted search leaves moves on the stack: unwind to here
        best_move, best_value = self.presorted(pos, moves)[0], 0
        if len(moves) == 1:
            return moves[0], 0
        for depth in range(1, max_depth + 1):
            ordered = self.presorted(pos, moves, best_move)
            if pin >= 0:
                ordered.remove(pin)
                ordered.insert(0, pin)
            horizon = self.horizon
            try:
                move, value, scored = self.root_search(pos, depth, ordered)
            except OutOfBudget:
                unwind(pos, base)
                break
            best_move, best_value = move, value
            self.depth_done = depth
            if trace is not None:
                trace.append((depth, move, value, scored))
            if self.horizon == horizon:
                self.solved = True  # no estimate anywhere below: the exact result
                break
        return best_move, best_value

    def presorted(self, pos: Position, moves: list[int], first: int = -1) -> list[int]:
        """Root moves: the previous best first, then the table's knowledge, captures, history."""
        tt = self.tt
        gain = self.gain

        def rank(m: int) -> tuple:
            if m == first:
                return (0, 0)
            pos.push(m)
            entry = tt.get(pos.zkey)
            pos.pop()
            if entry is not None:
                return (1, entry[2] if entry[1] != UPPER else entry[2] + 50)  # their value: low is good
            return (2, -gain(pos, m) * 1000 - self.history[m])

        return sorted(moves, key=rank)

    def move_values(self, pos: Position, depth: int) -> list[tuple[int, int]]:
        """Every legal move with its value (full window each) at `depth`: hints and the review.

        Uses the whole budget; a move not searched in time keeps its shallower value."""
        self.deadline = time.perf_counter() + self.time_limit
        self.nodes = 0
        self.limit = self.node_limit
        moves = pos.moves()
        values = {m: None for m in moves}
        base = len(pos.stack)
        for d in range(1, depth + 1):
            try:
                for m in sorted(moves, key=lambda m: -(values[m] if values[m] is not None else -INF)):
                    pos.push(m)
                    values[m] = -self.negamax(pos, d - 1, -INF, INF, 1)
                    pos.pop()
            except OutOfBudget:
                unwind(pos, base)
                break
        out = []
        for m in moves:
            if values[m] is None:  # not even depth 1 in time: the immediate estimate
                pos.push(m)
                values[m] = -self.evaluate(pos) if pos.filled < self.geo.n else -terminal_value(pos)
                pos.pop()
            out.append((m, values[m]))
        return out


def unwind(pos: Position, base: int) -> None:
    """Take back the moves an interrupted search left on the stack above `base`."""
    while len(pos.stack) > base:
        pos.pop()


# --- random playouts (the flat Monte-Carlo baseline) ----------------------------------------------
def playout_margin(pos: Position, rand) -> int:
    """Play random moves to the end from a copy of `pos`; the final margin (dice of the side to
    move at `pos` minus the other's). `rand` is `random.Random().random`.

    The random policy: a uniformly random empty square, then a uniformly random one of its
    moves (its capturing sets, or the plain placement). Picking the square first keeps a ply at
    a few list operations (no move list is built)."""
    geo = pos.geo
    cells, counts = pos.cells[:], pos.counts[:]
    # neighbour keys without the occupied flag: only empty squares' keys are read here
    keys = [k if k < OCCUPIED else k - OCCUPIED for k in pos.keys]
    side = me = pos.side
    caps, subsets, links = CAPTURES, geo.subsets, geo.links
    empties = [s for s in range(geo.n) if not cells[s]]
    while empties:
        i = int(rand() * len(empties))
        s = empties[i]
        last = empties.pop()
        if last != s:
            empties[i] = last
        masks = caps[keys[s]]
        mask = masks[int(rand() * len(masks))] if len(masks) > 1 else masks[0]
        if mask:
            value = 0
            for t in subsets[s][mask]:
                code = cells[t]
                v = code & 7
                value += v
                cells[t] = 0
                for u, w in links[t]:
                    keys[u] -= v * w
                counts[code >> 3] -= 1
                empties.append(t)
        else:
            value = 1
        cells[s] = value | side << 3
        for u, w in links[s]:
            keys[u] += value * w
        counts[side] += 1
        side ^= 1
    return counts[me] - counts[1 - me]
