"""The Perfect level: in a player's last turn of the game, maximise the chance to win the game.

The turn is the same Markov decision process as in `solver`; only what its end is worth changes.
With every other score known (or, for players still to take their last turn, their distribution
of turn points under the expected-points policy), stopping with n 42s is worth
W(total + T(n)) and a bust W(total), where W(x) is the expected share of the victory with a final
total x (ties share it). That process is solved exactly like the expected-points one: values of
every position by one backward pass per scored count, and a fixed-point iteration over the
continue values at each count (the only cycle; Anderson-accelerated, see `fixed_point`) to 1e-11.

To make that fast enough to do per utility, the positions are compiled once into flat successor
lists (`Graph`). Solutions are cached by utility (a 2-player game has at most about a hundred).
Before the last round Perfect plays the expected-points policy: over several turns that is a very
good proxy, and the exact game-level process (every score combination) is far bigger.
"""

from __future__ import annotations

from .rules import (
    DICE, FACE_NAMES, FORTYTWO, HEART, HERO, MEEPLE, ROUNDS, START_ACTIVE, START_INACTIVE,
    action_moves, busts, exhausted, flip, triangle,
)
from . import solver
from .solver import CONT_KEYS, POSITIONS, Policy, positions, rank, throws

TOLERANCE = 1e-11
FACE_OF = {name: face for face, name in FACE_NAMES.items()}


STALL = 3  # passes without a new smallest residual before the combination starts afresh
MAX_PASSES = 5_000


def fixed_point(step, start: list[float], tolerance: float, memory: int = 4) -> list[float]:
    """The fixed point x = step(x) of the continue values at one scored count, to `tolerance`
    (largest change of a plain step), with Anderson acceleration: the next guess combines the
    last `memory` steps so that their residuals cancel as far as they can (least squares).

    Why: each step is a full pass over the positions, and plain value iteration converges slowly
    where going on is nearly always right (a last turn that must reach a total: the residual
    shrinks by only about 0.93 per pass, so 700-900 passes per solve). The map is piecewise
    linear (linear once the choices settle), where this needs far fewer passes: measured on ten
    last-turn utilities, 66-184 passes per solve instead of 221-903 (plain, over-relaxed), and
    12-14 instead of 24-28 per count for expected points. Where a choice flips back and forth the
    combination can stall; after `STALL` passes without a new smallest residual its history is
    dropped and it starts afresh from the latest step. (`MAX_PASSES` only bounds the loop: the
    map is a contraction, and no solve has come near it.)"""
    x = start
    steps: list[list[float]] = []   # step(x) of the recent guesses
    residuals: list[list[float]] = []  # step(x) - x of the same guesses
    best, since = float("inf"), 0
    for _ in range(MAX_PASSES):
        fx = step(x)
        r = [a - b for a, b in zip(fx, x)]
        size = max(map(abs, r), default=0.0)
        if size < tolerance:
            return fx
        if size < best:
            best, since = size, 0
        else:
            since += 1
            if since >= STALL:
                steps.clear()
                residuals.clear()
                best, since = size, 0
        steps.append(fx)
        residuals.append(r)
        if len(steps) > memory + 1:
            steps.pop(0)
            residuals.pop(0)
        dr = [[a - b for a, b in zip(r1, r0)] for r0, r1 in zip(residuals, residuals[1:])]
        gamma = _least_squares(dr, r) if dr else None
        if gamma is None:
            x = fx
        else:
            ds = [[a - b for a, b in zip(s1, s0)] for s0, s1 in zip(steps, steps[1:])]
            x = [v - sum(g * d[k] for g, d in zip(gamma, ds)) for k, v in enumerate(fx)]
    return fx


def _least_squares(columns: list[list[float]], target: list[float]) -> list[float] | None:
    """gamma minimising |target - sum(gamma_j * columns_j)| (normal equations, a few columns);
    None when the columns are degenerate (then a plain step is taken)."""
    m = len(columns)
    a = [[sum(x * y for x, y in zip(columns[i], columns[j])) for j in range(m)] for i in range(m)]
    b = [sum(x * y for x, y in zip(columns[i], target)) for i in range(m)]
    for c in range(m):  # Gaussian elimination with partial pivoting
        pivot = max(range(c, m), key=lambda row: abs(a[row][c]))
        if abs(a[pivot][c]) < 1e-300:
            return None
        a[c], a[pivot], b[c], b[pivot] = a[pivot], a[c], b[pivot], b[c]
        for row in range(c + 1, m):
            t = a[row][c] / a[c][c]
            for k in range(c, m):
                a[row][k] -= t * a[c][k]
            b[row] -= t * b[c]
    gamma = [0.0] * m
    for row in range(m - 1, -1, -1):
        gamma[row] = (b[row] - sum(a[row][k] * gamma[k] for k in range(row + 1, m))) / a[row][row]
    return gamma


class Graph:
    """Every turn position with its actions' successors (by rank), compiled once."""

    def __init__(self) -> None:
        self.active: list[tuple] = []
        self.inactive: list[int] = []
        self.scored: list[int] = []
        self.used: list[int] = []
        # Per position: ("act", [(move, successors)]) or ("bust",) or ("bank", i, n).
        self.kind: list[tuple] = []
        # A dict lookup is ~20x faster than solver.rank's arithmetic, and the graph asks for
        # about 700 000 ranks (most of its build time in Pyodide).
        every = list(positions())
        index = {(n, i, *active): r for r, (active, i, n) in enumerate(every)}
        for active, i, n in every:
            u = DICE - sum(active) - i - n
            self.active.append(active)
            self.inactive.append(i)
            self.scored.append(n)
            self.used.append(u)
            if exhausted(active):
                self.kind.append(("bust",) if busts(active) else ("bank", i, n + active[FORTYTWO - 1]))
            else:
                self.kind.append(("act", [(m, tuple(_successors(active, i, n, m, index)))
                                          for m in action_moves(active)]))
        # The same successors split for speed in plain Python: deterministic actions' single
        # successors, and the six equally likely ones of an action that throws a die.
        self.flat: list[tuple | None] = [
            (tuple(t[0] for _, t in k[1] if len(t) == 1), tuple(t for _, t in k[1] if len(t) > 1)) if k[0] == "act" else None
            for k in self.kind]
        # Backward order per scored count: most used dice first (an action adds one used die).
        self.levels = {n: sorted((p for p in range(POSITIONS) if self.scored[p] == n), key=lambda p: -self.used[p])
                       for n in range(DICE + 1)}
        self.throws = {(i, n): [(rank(counts, i, n), prob) for counts, prob in throws(DICE - i - n)]
                       for i, n in CONT_KEYS}
        # For the plain solver, per scored count: positions split by kind. Busts are constant;
        # a bank's value depends only on the continue values, and every action leads to more
        # used dice, so banks first, then the actions most used dice first, is a valid order.
        self.split = {}
        for n, order in self.levels.items():
            acts = [(p,) + self.flat[p] for p in order if self.kind[p][0] == "act"]
            banks = [(p, self.kind[p][1:]) for p in order if self.kind[p][0] == "bank"]
            busted = [p for p in order if self.kind[p][0] == "bust"]
            self.split[n] = (acts, banks, busted)

    def solve(self, stop: list[float], bust: float, tolerance: float = TOLERANCE) -> Policy:
        """The optimal policy for these end values (stop with n scored 42s; a bust). With numpy
        (CPython) the sweeps run as array operations; without it (Pyodide) in plain Python."""
        try:
            import numpy  # noqa: F401
        except ImportError:
            return self.solve_plain(stop, bust, tolerance)
        return self.solve_numpy(stop, bust, tolerance)

    def solve_plain(self, stop: list[float], bust: float, tolerance: float = TOLERANCE) -> Policy:
        values = [0.0] * POSITIONS
        cont: dict[tuple[int, int], float] = {}
        low = min(min(stop), bust)
        get = values.__getitem__
        for n in range(DICE, -1, -1):
            keys = [key for key in CONT_KEYS if key[1] == n]
            acts, banks, busts_ = self.split[n]
            for p in busts_:
                values[p] = bust

            def sweep(guess: list[float]) -> list[float]:
                """The continue values after one pass over the positions from `guess`."""
                cont.update(zip(keys, guess))
                for p, (i, m) in banks:
                    c = cont.get((i, m))
                    values[p] = stop[m] if c is None or c < stop[m] else c
                for p, singles, sixes in acts:
                    best = max(map(get, singles)) if singles else float("-inf")
                    for six in sixes:
                        v = sum(map(get, six)) / 6
                        if v > best:
                            best = v
                    values[p] = best
                return [sum(prob * values[q] for q, prob in self.throws[key]) for key in keys]

            cont.update(zip(keys, fixed_point(sweep, [low] * len(keys), tolerance)))
            sweep([cont[key] for key in keys])  # positions from the final continue values
        return Policy(cont, values, list(stop), bust)

    def _arrays(self):
        """Per scored count: layers (most used dice first) of acting positions with their
        successors as an index array (actions × 6, padded with a slot worth -inf), and the
        exhausted positions (bust; bank into a decision)."""
        if getattr(self, "_np", None) is None:
            import numpy as np

            pad = POSITIONS  # values[pad] = -inf: a missing action never wins
            levels = {}
            for n in range(DICE + 1):
                layers = {}
                busts_, banks, bank_keys = [], [], []
                for p in self.levels[n]:
                    kind = self.kind[p]
                    if kind[0] == "bust":
                        busts_.append(p)
                    elif kind[0] == "bank":
                        banks.append(p)
                        bank_keys.append(kind[1:])
                    else:
                        layers.setdefault(self.used[p], []).append(p)
                out = []
                for u in sorted(layers, reverse=True):
                    ps = layers[u]
                    width = max(len(self.kind[p][1]) for p in ps)
                    succ = np.full((len(ps), width, 6), pad, dtype=np.int32)
                    for row, p in enumerate(ps):
                        for col, (_, targets) in enumerate(self.kind[p][1]):
                            succ[row, col, :] = targets * (6 // len(targets))
                    out.append((np.array(ps, dtype=np.int64), succ))
                levels[n] = (out, np.array(busts_, dtype=np.int64), np.array(banks, dtype=np.int64), bank_keys)
            self._np = levels
        return self._np

    def solve_numpy(self, stop: list[float], bust: float, tolerance: float = TOLERANCE) -> Policy:
        import numpy as np

        levels = self._arrays()
        values = np.zeros(POSITIONS + 1)
        values[POSITIONS] = -np.inf
        cont: dict[tuple[int, int], float] = {}
        low = min(min(stop), bust)
        for n in range(DICE, -1, -1):
            layers, bust_ps, bank_ps, bank_keys = levels[n]
            keys = [key for key in CONT_KEYS if key[1] == n]
            throws = {key: (np.array([q for q, _ in self.throws[key]]), np.array([w for _, w in self.throws[key]]))
                      for key in keys}
            values[bust_ps] = bust

            def sweep(guess: list[float]) -> list[float]:
                cont.update(zip(keys, guess))
                if len(bank_ps):
                    values[bank_ps] = [stop[m] if (i, m) not in cont or cont[(i, m)] < stop[m] else cont[(i, m)]
                                       for i, m in bank_keys]
                for ps, succ in layers:
                    values[ps] = values[succ].mean(axis=2).max(axis=1)
                return [float(values[throws[key][0]] @ throws[key][1]) for key in keys]

            cont.update(zip(keys, fixed_point(sweep, [low] * len(keys), tolerance)))
            sweep([cont[key] for key in keys])
        return Policy(cont, values[:POSITIONS].tolist(), list(stop), bust)

    def distribution(self, policy: Policy) -> dict[int, float]:
        """Turn points -> probability when `policy` is followed (ties: the first best move)."""
        mass = [0.0] * POSITIONS
        choice: dict[int, tuple] = {}  # the policy's successors per position, found once
        decide: dict[tuple[int, int], float] = {}
        out: dict[int, float] = {}
        for counts, prob in throws(START_ACTIVE):
            mass[rank(counts, START_INACTIVE, 0)] += prob
        for n in range(DICE + 1):
            order = list(reversed(self.levels[n]))  # forward: fewest used dice first
            while True:
                for p in order:
                    m = mass[p]
                    if not m:
                        continue
                    mass[p] = 0.0
                    kind = self.kind[p]
                    if kind[0] == "bust":
                        out[0] = out.get(0, 0.0) + m
                    elif kind[0] == "bank":
                        decide[kind[1:]] = decide.get(kind[1:], 0.0) + m
                    else:
                        succ = choice.get(p)
                        if succ is None:
                            succ = choice[p] = dict(kind[1])[_best(policy, self, p)]
                        share = m / len(succ)
                        for s in succ:
                            mass[s] += share
                pending = 0.0
                for key in [k for k in decide if k[1] == n]:
                    m = decide.pop(key)
                    i = key[0]
                    if DICE - i - n == 0 or policy.cont[key] <= policy.stop[n]:
                        out[triangle(n)] = out.get(triangle(n), 0.0) + m
                    else:
                        pending += m
                        for q, prob in self.throws[key]:
                            mass[q] += m * prob
                if pending < 1e-15:
                    break
        return out


def _best(policy: Policy, graph: Graph, p: int) -> str:
    active, i, u, n = graph.active[p], graph.inactive[p], graph.used[p], graph.scored[p]
    moves = action_moves(active)
    values = [policy.after(active, i, u, n, m) for m in moves]
    best = max(values)
    return next(m for m, v in zip(moves, values) if v >= best - 1e-12)


def _parse(move: str) -> tuple[int, int | None]:
    """(acting face, target face or None) of an action move such as "hero dragon"."""
    word, _, target_name = move.partition(" ")
    return FACE_OF[word], FACE_OF[target_name] if target_name else None


_PARSED: dict[str, tuple[int, int | None]] = {}


def _successors(active, i: int, n: int, move: str, index: dict) -> list[int]:
    """Ranks of the positions `move` leads to, equally likely (mirrors solver.Policy.after).
    `index` maps (n, i, *active) to the rank (a dict lookup; computing ranks is much slower)."""
    parsed = _PARSED.get(move)
    if parsed is None:
        parsed = _PARSED[move] = _parse(move)
    actor, target = parsed
    rest = list(active)
    rest[actor - 1] -= 1
    if actor == HEART:
        if not i:
            return [index[(n, i, *rest)]]
        i -= 1  # the heart brings an inactive die back: thrown
    elif target is None:
        return [index[(n, i, *rest)]]
    else:
        rest[target - 1] -= 1
        if actor == HERO:
            rest[flip(target) - 1] += 1
            return [index[(n, i, *rest)]]
        if actor != MEEPLE:  # a spaceship sends its target away
            return [index[(n, i + 1, *rest)]]
    out = []  # the thrown die shows each face with probability 1/6
    for f in range(6):
        rest[f] += 1
        out.append(index[(n, i, *rest)])
        rest[f] -= 1
    return out


# --- the Perfect level -------------------------------------------------------------------------------
_graph: Graph | None = None
_cache: dict[tuple, Policy] = {}


def graph() -> Graph:
    global _graph
    if _graph is None:
        _graph = Graph()
    return _graph


def turn_points() -> dict[int, float]:
    """The distribution of a turn's points under the expected-points policy (exact; computed by
    `Graph.distribution` when the table is built, and shipped in it)."""
    return solver.get_policy().turn_points


def win_share(total: int, others: list[tuple[int, bool]]) -> float:
    """The expected share of the victory with final `total`, against others given as
    (total so far, still to take their last turn); ties share the victory."""
    dist = turn_points() if any(to_play for _, to_play in others) else {}
    poly = [1.0]  # coefficient k: probability that exactly k others tie and none is ahead
    for other, to_play in others:
        outcomes = [(other + pts, p) for pts, p in dist.items()] if to_play else [(other, 1.0)]
        below = sum(p for x, p in outcomes if x < total)
        equal = sum(p for x, p in outcomes if x == total)
        poly = [(poly[k] if k < len(poly) else 0.0) * below + (poly[k - 1] * equal if k else 0.0)
                for k in range(len(poly) + 1)]
    return sum(c / (k + 1) for k, c in enumerate(poly))


def last_turn(state, seat: int) -> bool:
    return state.turn // state.num_players == ROUNDS - 1 and len(state.pad[seat]) == ROUNDS - 1


def win_policy(state, seat: int) -> Policy | None:
    """The policy maximising the chance to win, for `seat`'s last turn in this position."""
    scores = state.scores()
    others = [(scores[s], len(state.pad[s]) < ROUNDS) for s in range(state.num_players) if s != seat]
    stop = [win_share(scores[seat] + triangle(n), others) for n in range(DICE + 1)]
    bust = win_share(scores[seat], others)
    low, high = min(min(stop), bust), max(max(stop), bust)
    if high - low < 1e-12:
        return None  # decided whatever happens
    # The best moves do not change under u -> a*u + b (a > 0): one solve serves every position
    # with the same utility up to scale and shift.
    stop = [(v - low) / (high - low) for v in stop]
    bust = (bust - low) / (high - low)
    key = tuple(round(v, 12) for v in stop) + (round(bust, 12),)
    if key not in _cache:
        _cache[key] = graph().solve(stop, bust)
    return _cache[key]


def best_move(state, seat: int) -> str:
    if not last_turn(state, seat):
        return solver.best_move(state)
    if state.phase == "decide" and sure_stop(state, seat):
        return "stop"  # stopping already reaches the best result there is: nothing to solve
    policy = win_policy(state, seat)
    if policy is None:
        return solver.best_move(state)  # the result is decided whatever happens: take the points
    return solver.best_move(state, policy)


def sure_stop(state, seat: int) -> bool:
    """Stopping now is worth the highest utility any end of the turn can have."""
    scores = state.scores()
    others = [(scores[s], len(state.pad[s]) < ROUNDS) for s in range(state.num_players) if s != seat]
    now = win_share(scores[seat] + triangle(state.scored), others)
    return all(win_share(scores[seat] + triangle(n), others) <= now for n in range(state.scored, DICE + 1))
