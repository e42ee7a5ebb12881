"""The exact expected-points policy of a Geek Out! Masters turn (a Markov decision process).

A turn position is (active face counts, inactive, used, scored). Inside a phase every action moves
one die to used, so a phase is acyclic; only `continue` can bring a turn back to a decision it
has seen (same scored count, same split of inactive/used dice). So:

- `A(active, i, u, n)`: the value of a position where an action must be chosen (the best action's
  value; exhaustion resolved: a bust is 0, banked 42s lead to a decision);
- `D(i, u, n)` = T(n) if u == 0 else max(T(n), C(i, u, n)), the value at a decision, where
- `C(i, u, n)` = E over the throw of the u used dice of A(throw, i, 0, n), the value of continuing.

C at scored count n depends on C at higher counts (known, solved from n = 10 down) and on C at
the same n (a cycle through `continue`). For each n the vector C(·, ·, n) is found by value
iteration from below (it starts at "stop at once" and rises monotonically to the fixed point) to
a change below 1e-13 points: exact to double precision. The 55 continue values are the whole
policy: `A` of any position is a small memoised search over its own phase bounded by them. The
table ships as `data/policy.bin` together with A of every position (43 758 doubles, so the
advisor on the main thread is a handful of lookups) and the exact distribution of a turn's points
under the policy (the Perfect level's model of players still to play); it is hash-checked (sha256 in its header, and
the build's data index). CPython finds the file itself and can rebuild it
(`python -m pygame_core solve geekout --rebuild`).
"""

from __future__ import annotations

import hashlib
import struct
import sys
import time
from array import array
from functools import cache
from math import comb
from pathlib import Path

from .rules import (
    DICE, DRAGON, FACE_NAMES, FACES, FORTYTWO, HEART, HERO, MEEPLE, SHIP, START_ACTIVE, START_INACTIVE,
    action_moves, busts, exhausted, flip, roll_outcomes, triangle,
)

TABLE_FILE = "policy.bin"
MAGIC = b"GEEKOUT2"
HEADER = struct.Struct("<8sII32s")  # magic, continue values, position values, sha256 of the values
OUTCOMES = DICE + 1  # then P(turn scores T(n)) under the policy, n = 0..10 (0: bust too)
# and last, per continue value, the risk of a bust before the next decision when continuing
TOLERANCE = 1e-13


@cache
def throws(k: int) -> list[tuple[tuple[int, ...], float]]:
    """Throws of k dice as face-count vectors with probabilities. Made on first use, not at
    import: the app imports this module on its first visit's critical path, and the ten-dice
    tables took about as long as all the other game packages together to build."""
    return [(tuple(map(faces.count, FACES)), p) for faces, p in roll_outcomes(k)]


# --- position index: compositions of the ten dice into (n, i, meeple..ship, u) -------------------
PARTS = 9  # scored, inactive, six active faces, used (implied)
# _BELOW[j][r][v]: compositions of the rest with a smaller value than v at position j (r dice left)
_BELOW = [[[sum(comb(r - x + PARTS - j - 2, PARTS - j - 2) for x in range(v)) for v in range(r + 1)]
           for r in range(DICE + 1)] for j in range(PARTS - 1)]
POSITIONS = comb(DICE + PARTS - 1, PARTS - 1)  # 43 758


def rank(active, i: int, n: int) -> int:
    """The index of a turn position (used dice implied) among all POSITIONS."""
    r, out = DICE, 0
    for j, v in enumerate((n, i, *active)):
        out += _BELOW[j][r][v]
        r -= v
    return out


def positions():
    """Every (active, i, n) in rank order."""
    def rest(prefix, left):
        if len(prefix) == PARTS - 1:
            yield prefix
            return
        for v in range(left + 1):
            yield from rest(prefix + (v,), left - v)
    for parts in rest((), DICE):
        yield parts[2:], parts[1], parts[0]


class Policy:
    """The continue values C(i, u, n) and the memoised action values A derived from them."""

    def __init__(self, cont: dict[tuple[int, int], float], values=None, stop: list[float] | None = None,
                 bust: float = 0.0, turn_points: dict[int, float] | None = None,
                 risk: dict[tuple[int, int], float] | None = None) -> None:
        self.turn_points = turn_points  # points -> probability of a turn under this policy (if known)
        self.risk = risk  # (inactive, scored) -> P(bust before the next decision) when continuing
        self.cont = cont  # (inactive, scored) -> C; used = 10 - inactive - scored at a decision
        self.memo: dict[tuple, float] = {}
        self.values = values  # A of every position by rank (the shipped table), or None
        # What the turn's end is worth: stopping with n scored 42s, and a bust. Expected points by
        # default; the Perfect level solves the same process for its chance to win the game.
        self.stop = stop if stop is not None else [float(triangle(n)) for n in range(DICE + 1)]
        self.bust = bust

    # D at a decision (active empty): used = DICE - i - n.
    def decision(self, i: int, n: int) -> float:
        u = DICE - i - n
        if u == 0:
            return self.stop[n]
        return max(self.stop[n], self.cont[(i, n)])

    def continue_value(self, i: int, n: int) -> float:
        return self.cont[(i, n)]

    def value(self, active: tuple[int, ...], i: int, u: int, n: int) -> float:
        """A: the value of a position in a phase (exhaustion settled here)."""
        if self.values is not None:
            return self.values[rank(active, i, n)]
        key = (active, i, n)  # u is implied: 10 - active - i - n
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        if exhausted(active):
            if busts(active):
                result = self.bust
            else:
                result = self.decision(i, n + active[FORTYTWO - 1])
        else:
            result = max(self.after(active, i, u, n, move) for move in action_moves(active))
        memo[key] = result
        return result

    def after(self, active, i: int, u: int, n: int, move: str) -> float:
        """The expected value of performing `move` (an available action) now."""
        word, _, target_name = move.partition(" ")
        rest = list(active)
        if word == "heart":
            rest[HEART - 1] -= 1
            if i:
                return self._throw_one(rest, i - 1, u + 1, n)
            return self.value(tuple(rest), i, u + 1, n)
        actor = {"meeple": MEEPLE, "hero": HERO, "ship": SHIP}[word]
        rest[actor - 1] -= 1
        if not target_name:
            return self.value(tuple(rest), i, u + 1, n)
        target = {name: face for face, name in FACE_NAMES.items()}[target_name]
        rest[target - 1] -= 1
        if actor == MEEPLE:
            return self._throw_one(rest, i, u + 1, n)
        if actor == HERO:
            rest[flip(target) - 1] += 1
            return self.value(tuple(rest), i, u + 1, n)
        return self.value(tuple(rest), i + 1, u + 1, n)

    def _throw_one(self, rest: list[int], i: int, u: int, n: int) -> float:
        total = 0.0
        for f in range(6):
            rest[f] += 1
            total += self.value(tuple(rest), i, u, n)
            rest[f] -= 1
        return total / 6

    def throw_value(self, k: int, i: int, n: int) -> float:
        """The value of throwing k dice into an empty active zone (no used dice yet)."""
        return sum(p * self.value(counts, i, 0, n) for counts, p in throws(k))

    def fresh_turn(self) -> float:
        """The optimal expected points of a turn before its first throw."""
        return self.throw_value(START_ACTIVE, START_INACTIVE, 0)


def solve(tolerance: float = TOLERANCE, lowest: int = 0) -> tuple[Policy, dict]:
    """Build the policy by value iteration per scored count (see the module doc); `lowest` > 0
    stops at that scored count (a partial build, for benchmarks)."""
    started = time.perf_counter()
    cont: dict[tuple[int, int], float] = {}
    iterations = {}
    policy = Policy(cont)
    for n in range(DICE, lowest - 1, -1):
        keys = [(i, n) for i in range(DICE - n + 1) if DICE - n - i > 0]
        for key in keys:
            cont[key] = 0.0  # start below the fixed point: values rise monotonically to it
        for sweep in range(1, 10_000):
            # Forget the phase values at this scored count (they used the old C); higher counts stay.
            policy.memo = {k: v for k, v in policy.memo.items() if k[2] != n}
            change = 0.0
            fresh = {key: policy.throw_value(DICE - key[0] - key[1], key[0], n) for key in keys}
            for key in keys:
                change = max(change, abs(fresh[key] - cont[key]))
                cont[key] = fresh[key]
            if change < tolerance:
                break
        iterations[n] = sweep
    policy.memo = {}
    return policy, {"seconds": time.perf_counter() - started, "iterations": iterations}


# --- the shipped table ---------------------------------------------------------------------------
CONT_KEYS = [(i, n) for n in range(DICE + 1) for i in range(DICE - n + 1) if DICE - n - i > 0]


def table_bytes(policy: Policy) -> bytes:
    """data/policy.bin: header, the 55 continue values, A of every position, then the turn's
    points distribution P(T(n)) for n = 0..10 (float64, little-endian)."""
    from .winprob import Graph  # the forward pass over the compiled positions

    values = array("d", [policy.cont[key] for key in CONT_KEYS])
    values.extend(policy.value(active, i, DICE - sum(active) - i - n, n) for active, i, n in positions())
    full = Policy(dict(policy.cont), values[len(CONT_KEYS):])
    dist = Graph().distribution(full)
    values.extend(dist.get(triangle(n), 0.0) for n in range(OUTCOMES))
    values.extend(continue_risk(full, i, n) for i, n in CONT_KEYS)
    if sys.byteorder != "little":  # pragma: no cover
        values.byteswap()
    body = values.tobytes()
    return HEADER.pack(MAGIC, len(CONT_KEYS), POSITIONS, hashlib.sha256(body).digest()) + body


class TableError(ValueError):
    pass


_policy: Policy | None = None


def load_table(data: bytes) -> Policy:
    """Install the shipped policy (checked: magic, sizes, sha256)."""
    global _policy
    data = bytes(data)
    if len(data) < HEADER.size:
        raise TableError("Geek Out policy table: file too short")
    magic, conts, count, digest = HEADER.unpack_from(data)
    body = data[HEADER.size:]
    if magic != MAGIC or conts != len(CONT_KEYS) or count != POSITIONS or len(body) != 8 * (2 * conts + count + OUTCOMES):
        raise TableError("Geek Out policy table: not a version-2 table of the expected size")
    if hashlib.sha256(body).digest() != digest:
        raise TableError("Geek Out policy table: damaged (hash mismatch)")
    values = array("d")
    values.frombytes(body)
    if sys.byteorder != "little":  # pragma: no cover
        values.byteswap()
    cont = dict(zip(CONT_KEYS, values[:conts]))
    dist = {triangle(n): p for n, p in enumerate(values[conts + count:conts + count + OUTCOMES]) if p}
    risk = dict(zip(CONT_KEYS, values[conts + count + OUTCOMES:]))
    _policy = Policy(cont, values[conts:conts + count], turn_points=dist, risk=risk)
    return _policy


def table_path() -> Path:
    return Path(__file__).resolve().parent / "data" / TABLE_FILE


def get_policy() -> Policy:
    """The installed policy; on CPython the package's own data file. Never solves on the fly (a
    browser's main thread must not block): TableError until the table is loaded."""
    if _policy is None:
        try:
            data = table_path().read_bytes()
        except OSError as err:
            raise TableError("Geek Out policy table not loaded (data/policy.bin)") from err
        load_table(data)
    return _policy


def available() -> bool:
    """Whether the policy is installed (or can be read from the package's data folder)."""
    try:
        get_policy()
    except TableError:
        return False
    return True


# --- advice ----------------------------------------------------------------------------------------
def move_values(state, policy: Policy | None = None) -> list[tuple[str, float]]:
    """Every legal move of the player to act with its exact value (default: expected points of
    the turn)."""
    policy = policy or get_policy()
    if state.phase == "decide":
        out = [("stop", policy.stop[state.scored])]
        if state.used:
            out.append(("continue", policy.continue_value(state.inactive, state.scored)))
        return out
    if state.phase != "act":
        return []
    active = tuple(state.active)
    return [(move, policy.after(active, state.inactive, state.used, state.scored, move))
            for move in action_moves(active)]


def best_move(state, policy: Policy | None = None) -> str:
    """The move with the highest value (ties: the first in canonical order)."""
    values = move_values(state, policy)
    best = max(v for _, v in values)
    return next(m for m, v in values if v >= best - 1e-12)


def advise(state, seat: int | None = None) -> list[dict]:
    """Hint panel: every legal move with its expected points of the turn, best first."""
    if seat is not None and seat not in state.current_players():
        return []
    values = move_values(state)
    order = {m: k for k, (m, _) in enumerate(values)}
    return [{"move": m, "value": round(v, 4)} for m, v in sorted(values, key=lambda mv: (-mv[1], order[mv[0]]))]


def bust_chance(state) -> float | None:
    """At a decision: the probability that continuing (then playing optimally) busts before the
    next decision (shipped in the table: a lookup)."""
    if state.phase != "decide" or not state.used:
        return None
    policy = get_policy()
    if policy.risk is not None:
        return policy.risk[(state.inactive, state.scored)]
    return continue_risk(policy, state.inactive, state.scored)


def continue_risk(policy: Policy, inactive: int, scored: int) -> float:
    """P(bust before the next decision) when continuing from (inactive, scored), following the
    policy's best actions: a search over the phase (seconds for big throws, so it is tabled)."""
    memo: dict = {}

    def bust(active, i, u, n) -> float:
        # The chance of a bust before the next decision, following the optimal action order.
        key = (active, i, n)
        if key in memo:
            return memo[key]
        if exhausted(active):
            result = 1.0 if busts(active) else 0.0
        else:
            moves = action_moves(active)
            best = max(policy.after(active, i, u, n, m) for m in moves)
            move = next(m for m in moves if policy.after(active, i, u, n, m) >= best - 1e-12)
            result = _follow(active, i, u, n, move, bust)
        memo[key] = result
        return result

    k = DICE - inactive - scored
    return sum(p * bust(counts, inactive, 0, scored) for counts, p in throws(k))


def _follow(active, i, u, n, move, fn) -> float:
    """fn averaged over the positions `move` leads to (mirrors Policy.after)."""
    word, _, target_name = move.partition(" ")
    rest = list(active)

    def one(rest, i, u) -> float:
        total = 0.0
        for f in range(6):
            rest[f] += 1
            total += fn(tuple(rest), i, u, n)
            rest[f] -= 1
        return total / 6

    if word == "heart":
        rest[HEART - 1] -= 1
        return one(rest, i - 1, u + 1) if i else fn(tuple(rest), i, u + 1, n)
    actor = {"meeple": MEEPLE, "hero": HERO, "ship": SHIP}[word]
    rest[actor - 1] -= 1
    if not target_name:
        return fn(tuple(rest), i, u + 1, n)
    target = {name: face for face, name in FACE_NAMES.items()}[target_name]
    rest[target - 1] -= 1
    if actor == MEEPLE:
        return one(rest, i, u + 1)
    if actor == HERO:
        rest[flip(target) - 1] += 1
        return fn(tuple(rest), i, u + 1, n)
    return fn(tuple(rest), i + 1, u + 1, n)


# --- CLI -----------------------------------------------------------------------------------------
def _solve_arguments(parser) -> None:
    parser.add_argument("--rebuild", action="store_true", help="solve from scratch (and write data/policy.bin)")


def _solve_run(args) -> dict:
    global _policy
    if args.rebuild:
        policy, info = solve()
        table_path().parent.mkdir(exist_ok=True)
        table_path().write_bytes(table_bytes(policy))
        _policy = policy
    else:
        started = time.perf_counter()
        policy = get_policy()
        info = {"seconds": time.perf_counter() - started}
    value = policy.fresh_turn()
    return {"game": "geekout", "fresh_turn_expected_points": f"{value:.4f}",
            "build_seconds": round(info["seconds"], 3), "rebuilt": bool(args.rebuild)}


CLI_COMMANDS = {"solve": (_solve_arguments, _solve_run)}
