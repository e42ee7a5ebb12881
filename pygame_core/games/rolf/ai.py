"""Rolf AI levels (weakest first: random, greedy, easy, medium, hard) and the advisor.

Only two kinds of throw leave a choice: three different dice (two of up to six squares) and three
of a kind (three free squares off the diagonal); a pair's squares and a confirmation are forced.
Every level decides the whole throw at once — a *plan*, the set of squares still to take — and
plays it one `take` at a time, in an order that never lets the game-ending square make the
others lapse (`ordered`).

- greedy: placement by placement the square worth the most points now (the measuring baseline);
- easy:   the same, counting the points a steal takes from its victim as well;
- medium: the plan whose resulting position has the best estimated chance to win (`win_chance`);
- hard:   expectimax over the next throw: for the best plans, every one of the 56 throws of three
          dice that can come next (by probability), the reply of the player who throws it, and the
          chance to win after that. Steals and the race to 100 enter through the chance to win
          (points, each seat's expected gain and damage on its next throw, its chance of a direct
          win on it, who throws next); blocking enters as the opponent's lower expected gain and
          damage — a square taken to block can still be stolen, so it only counts as much as it
          really hinders. Time-limited: the plans are searched best first and the search stops
          when its budget is spent, keeping the best plan found. Measured against greedy on the
          acceptance dice and not kept: choosing the plan by playing the game out many times with
          greedy at every seat (policy improvement against the real opponent,
          `bench/rolf_rollouts.py`) wins no more often than this search.

`advise(state, seat)` ranks the current seat's plans as medium does (the hint button: it runs on
the main thread, so it must take milliseconds, not hard's up to a second).
"""

from __future__ import annotations

import itertools
import math
import random
import time

from .board import (
    CORNER_BONUS,
    CORNERS,
    DIAGONAL,
    DIAGONAL_BONUS,
    NAMES,
    OFF_DIAGONAL,
    WIN_TOTAL,
    gain_of_adding,
    loss_of_removing,
    squares_of,
)
from .features import outlook
from .rules import OUTCOMES, RolfState

WIN = 1.0e6  # a placement that wins at once (greedy's gain; keeps the plain sum of points below it)

# The chance to win is a logistic function of these differences between me and my strongest
# opponent: total points, expected own gain of the next throw, the same with the damage of steals
# counted, the chance that the seat throwing next wins on that throw, and who throws next. Fitted
# on 27 000 positions of two-seat games between the greedy, easy and medium levels
# (`python bench/rolf_fit_eval.py --games 3000 --seed 2`, development only).
W_TOTAL = 0.0162
W_GAIN = 0.0143
W_DAMAGE = 0.0082
W_MOVER = 0.5266
W_WIN_NEXT = 2.2916
W_WIN_EITHER = -0.0205
# With three to five seats most games end with the board full: a fit of its own
# (`python bench/rolf_fit_eval.py --players 3,4,5 --games 1500 --seed 4`, 30 000 positions) on
# the differences to the strongest other seat, who throws next, the lead scaled by how few empty
# off-diagonal squares are left, and the number of seats.
M_TOTAL = 0.0086
M_GAIN = -0.0064
M_DAMAGE = 0.0175
M_I_MOVE = 0.23
M_THEY_MOVE = -0.061
M_WIN_NEXT = 2.0612
M_LEAD_BY_EMPTY = 0.0212
M_SEATS = {3: -0.6604, 4: -0.9993, 5: -1.2461}

HARD_BUDGET = 0.9  # seconds per throw decision; Pyodide (the browser) is 3–5× slower than CPython
HARD_PLANS = 6  # plans that get the full expectimax, best first by the static estimate
BEAM = 8  # width of the beam search over three-of-a-kind plans


# --- helpers --------------------------------------------------------------------------------------
def take(index: int) -> str:
    return "take " + NAMES[index]


def forced(state: RolfState, seat: int) -> str | None:
    """The move when there is nothing to decide (a confirmation, a single legal square)."""
    moves = state.legal_moves(seat)
    return moves[0] if len(moves) == 1 else None


def next_roller(state: RolfState) -> int:
    """Who throws next once the current throw is confirmed (or now, at a chance node)."""
    if state.rolling or state.extra:
        return state.seat
    return (state.seat + 1) % state.num_players


def placement_gain(own: int, corner: bool, total: int, index: int) -> float:
    """Points a seat with squares `own`, corner bonus `corner` and `total` gains by taking `index`
    (groups joined, diagonal and corner bonus); a placement that wins at once is worth WIN."""
    bit = 1 << index
    gain = gain_of_adding(own, index)
    if bit & DIAGONAL:
        gain += DIAGONAL_BONUS
        if (own | bit) & DIAGONAL == DIAGONAL:
            return WIN
    if not corner and (own | bit) & CORNERS == CORNERS:
        gain += CORNER_BONUS
    if total + gain >= WIN_TOTAL:
        return WIN
    return gain


def quick_gain(state: RolfState, seat: int, index: int, damage: float) -> float:
    """Points `seat` gains by taking `index` now, plus `damage` × the owner's loss (steals);
    a placement that wins at once (full diagonal, 100) is worth WIN."""
    gain = placement_gain(state.owners[seat], state.corner[seat], state.total(seat), index)
    if damage and gain != WIN:
        bit = 1 << index
        for mask in state.owners:
            if mask & bit:
                gain += damage * loss_of_removing(mask, index)
                break
    return gain


def greedy_plan(state: RolfState, seat: int, damage: float, rng: random.Random | None = None) -> list[int]:
    """Placement by placement, the square with the best `quick_gain` (ties: random, else lowest)."""
    work = state.clone()
    plan = []
    while not work.over and work.placements_left():
        best, best_gain = [], None
        for index in squares_of(work.legal_mask()):
            gain = quick_gain(work, seat, index, damage)
            if best_gain is None or gain > best_gain:
                best, best_gain = [index], gain
            elif gain == best_gain:
                best.append(index)
        choice = rng.choice(best) if rng is not None and len(best) > 1 else best[0]
        plan.append(choice)
        work.place(choice)
    return plan


def ordered(state: RolfState, squares) -> list[int]:
    """A plan's squares in playing order: empty off-diagonal squares last, so that filling the
    last one (which ends the game) never makes the other placements lapse."""
    occupied = state.occupied()
    return sorted(squares, key=lambda i: (bool((1 << i) & OFF_DIAGONAL and not occupied >> i & 1), i))


def play_plan(state: RolfState, plan) -> RolfState:
    """The state after the plan's placements (a copy); stops where the game ends."""
    after = state.clone()
    for index in plan:
        if after.over:
            break
        after.place(index)
    return after


# --- plans ---------------------------------------------------------------------------------------
def all_plans(state: RolfState, limit: int = 60) -> list[tuple[int, ...]] | None:
    """Every set of squares the rest of the throw may take (None if there are more than `limit`)."""
    own = state.owners[state.seat]
    per_pool = []
    count = 1
    for mask, left, _ in state.pools:
        if not left:
            continue
        squares = squares_of(mask & ~own)
        count *= math.comb(len(squares), left)
        if count > limit:
            return None
        per_pool.append(list(itertools.combinations(squares, left)))
    return [tuple(sum(parts, ())) for parts in itertools.product(*per_pool)]


def lead(state: RolfState, me: int) -> float:
    """My total minus the best other total: the quick measure of the beam search."""
    if state.over:
        return WIN * terminal_value(state, me)
    scores = state.scores()
    return scores[me] - max(s for seat, s in enumerate(scores) if seat != me)


def beam_plans(state: RolfState, value, width: int) -> list[tuple[int, ...]]:
    """Good sets of squares for a throw with very many choices (three of a kind): a beam search
    extending partial plans one placement at a time, keeping the `width` best by `value`
    (a quick one: the final few are ranked by the caller)."""
    seat = state.seat
    beam = [((), state)]
    finished: dict[frozenset, tuple[float, tuple[int, ...]]] = {}
    while beam:
        scored: dict[frozenset, tuple[float, tuple[int, ...], RolfState]] = {}
        for plan, work in beam:
            for index in squares_of(work.legal_mask()):
                key = frozenset(plan + (index,))
                if key not in scored:
                    after = work.clone()
                    after.place(index)
                    scored[key] = (value(after, seat), plan + (index,), after)
        beam = []
        for score, plan, after in sorted(scored.values(), key=lambda item: -item[0])[:width]:
            if after.over or not after.placements_left():
                finished[frozenset(plan)] = (score, plan)
            else:
                beam.append((plan, after))
    return [plan for _, plan in sorted(finished.values(), key=lambda item: -item[0])]


def ranked_plans(state: RolfState, seat: int, value) -> list[tuple[float, list[int]]]:
    """(value of the position after it, the plan in playing order), best first."""
    plans = all_plans(state)
    if plans is None:
        plans = beam_plans(state, lead, BEAM)
    out = []
    for plan in plans:
        order = ordered(state, plan)
        out.append((value(play_plan(state, order), seat), order))
    out.sort(key=lambda item: -item[0])
    return out


# --- evaluation ----------------------------------------------------------------------------------
def terminal_value(state: RolfState, me: int) -> float:
    """1 for a win, 0 for a loss, 1/k for a win shared by k, plus a hair for the margin."""
    places = state.ranking()
    scores = state.scores()
    margin = scores[me] - max(s for seat, s in enumerate(scores) if seat != me)
    return (1.0 / places.count(1) if places[me] == 1 else 0.0) + margin * 1e-6


def win_chance(state: RolfState, me: int) -> float:
    """My estimated chance to win, at a position between throws (or after my placements)."""
    if state.over:
        return terminal_value(state, me)
    n = state.num_players
    looks = []
    for seat in range(n):
        total = state.total(seat)
        gain, damage, win_next = outlook(state.owners, seat, state.corner[seat], total)
        looks.append((total, gain, damage, win_next))
    mover = next_roller(state)
    mine = looks[me]
    # the strongest opponent: the one nearest to 100 over its next throw
    other = max((s for s in range(n) if s != me), key=lambda s: looks[s][0] + looks[s][1])
    theirs = looks[other]
    i_move = 1.0 if mover == me else 0.0
    they_move = 1.0 if mover == other else 0.0
    lead = mine[0] - theirs[0]
    if n == 2:
        x = (W_TOTAL * lead + W_GAIN * (mine[1] - theirs[1]) + W_DAMAGE * (mine[2] - theirs[2])
             + W_MOVER * (i_move - they_move) / 2
             + W_WIN_NEXT * (i_move * mine[3] - they_move * theirs[3]) + W_WIN_EITHER * (mine[3] - theirs[3]))
    else:
        empty = 30 - (state.occupied() & OFF_DIAGONAL).bit_count()
        x = (M_TOTAL * lead + M_GAIN * (mine[1] - theirs[1]) + M_DAMAGE * (mine[2] - theirs[2])
             + M_I_MOVE * i_move + M_THEY_MOVE * they_move + M_WIN_NEXT * (i_move * mine[3] - they_move * theirs[3])
             + M_LEAD_BY_EMPTY * lead / (empty + 1) + M_SEATS[n])
    return 1.0 / (1.0 + math.exp(-x))


def reply(state: RolfState) -> RolfState:
    """A placement phase played out by its seat the quick way (points now and damage done)."""
    return play_plan(state, ordered(state, greedy_plan(state, state.seat, 1.0)))


def expected_after_throw(state: RolfState, me: int) -> float:
    """My chance to win averaged over the 56 throws of the next chance node of `state` (a confirmed
    position): the thrower replies, then the position is estimated."""
    if state.over:
        return terminal_value(state, me)
    total = 0.0
    for dice, p in OUTCOMES:
        work = state.clone()
        work._throw(dice)
        if not work.rolling:
            work = reply(work)
        total += p * win_chance(work, me)
    return total


def search(state: RolfState, seat: int, budget: float = HARD_BUDGET, top: int = HARD_PLANS) -> list[tuple[float, list[int]]]:
    """Hard's ranking of the throw's plans: (chance to win, plan in playing order), best first.

    The `top` plans by the static estimate get the expectimax, best first, until `budget` seconds
    are spent; the others keep their static estimate and rank below every searched plan."""
    started = time.perf_counter()
    ranked = ranked_plans(state, seat, win_chance)
    searched, rest = [], []
    for rank, (static, plan) in enumerate(ranked):
        if rank >= top or (searched and time.perf_counter() - started > budget):
            rest.append((static, plan))
            continue
        after = play_plan(state, plan)
        if after.over:
            searched.append((terminal_value(after, seat), plan))
            continue
        after.confirm()
        searched.append((expected_after_throw(after, seat), plan))
    searched.sort(key=lambda item: -item[0])
    return searched + rest


# --- the plan cache: a throw is decided once, its takes are played one by one ----------------------
_PLANS: dict[tuple, list[int]] = {}
_CACHE_SIZE = 64


def _key(state: RolfState, seat: int, level: str) -> tuple:
    return (level, seat, tuple(state.owners), state.dice, tuple(state.chosen), tuple(tuple(p) for p in state.pools))


def clear_cache() -> None:
    _PLANS.clear()


def _planned(state: RolfState, seat: int, level: str, decide) -> str:
    move = forced(state, seat)
    if move is not None:
        return move
    key = _key(state, seat, level)
    plan = _PLANS.pop(key, None)
    if plan is None:
        plan = decide()
    first, rest = plan[0], plan[1:]
    after = state.clone()
    after.place(first)
    if rest and not after.over:
        if len(_PLANS) >= _CACHE_SIZE:
            _PLANS.pop(next(iter(_PLANS)))
        _PLANS[_key(after, seat, level)] = rest
    return take(first)


# --- levels ----------------------------------------------------------------------------------------
def greedy(state: RolfState, seat: int, rng: random.Random) -> str:
    """The measuring baseline: the square that gives the most points right now."""
    return forced(state, seat) or take(greedy_plan(state, seat, 0.0, rng)[0])


def easy(state: RolfState, seat: int, rng: random.Random) -> str:
    """Points now plus the points a steal takes from its victim."""
    return forced(state, seat) or take(greedy_plan(state, seat, 1.0, rng)[0])


def medium(state: RolfState, seat: int, rng: random.Random) -> str:
    """The plan after which the estimated chance to win is best."""
    return _planned(state, seat, "medium", lambda: ranked_plans(state, seat, win_chance)[0][1])


def hard(state: RolfState, seat: int, rng: random.Random) -> str:
    """Expectimax over the next throw (see the module notes)."""
    return _planned(state, seat, "hard", lambda: search(state, seat)[0][1])


def percent(chance: float) -> float:
    """A chance to win (with terminal values' hair of margin) as a percentage 0..100."""
    return round(100 * max(0.0, min(1.0, chance)), 2)


def advise(state: RolfState, seat: int | None = None) -> list[dict]:
    """The best moves for the seat to move, with the estimated chance to win after each in percent
    (0..100: the unit the view shows, the review's too: `review.py`).

    Hints run on the browser's main thread, so this ranks the throw's plans by the static estimate
    (medium's: a few ms) rather than hard's search (up to a second in Pyodide)."""
    seat = state.seat if seat is None else seat
    if state.over or state.rolling or seat != state.seat:
        return []
    move = forced(state, seat)
    if move is not None:
        after = state.clone()
        if move in ("next", "extra"):
            after.confirm()
        else:
            after.place(NAMES.index(move[5:]))
        return [{"move": move, "value": percent(win_chance(after, seat))}]
    out, seen = [], set()
    for value, plan in ranked_plans(state, seat, win_chance):
        if plan[0] not in seen:
            seen.add(plan[0])
            out.append({"move": take(plan[0]), "value": percent(value)})
        if len(out) == 4:
            break
    return out

