"""RollCraft T8 AI: a sheet evaluation (score now + what the sheet can still become) and three levels.

- `easy`: one-ply greedy on the evaluation, no thought for the rest of the turn, a little noise.
- `medium`: one-ply greedy plus an estimate of what the dice left in the roll group are worth.
- `hard`: medium's evaluation with a lookahead over the remaining rolls of the turn (sampled
  throws of the dice left, each answered by the best one-ply choice), for choices and Re-rolls.
Returns and Locks before a roll follow one rule of thumb at every level (`_prepare`).
Every level plays active turns, passive choices, +1 windows and bonuses, and uses saved actions.
`advise` ranks a person's options with hard's values (the hint button).

The evaluation (`value`) is the sheet's points now plus, for each zone, a share of what its open
boxes usually bring, scaled by how many placements are left in the game; runes count at the
lowest zone's value; saved actions and pending bonuses count for what they usually turn into.
Its weights `W` were set by hand, then tuned by coordinate search on self-play
(bench/rollcraft_tune.py); bench/rollcraft_levels.py measures the levels on other games.
"""

from __future__ import annotations

import math
import random

from ...protocol import CHANCE
from .board import ACTIONS, BOARD, DICE
from .potential import RowPotential
from .rules import (CHOOSE, GROUP, PASSIVE, PLACED, PLUS_WINDOW, PREPARE, RELOCK, REROLL_ROLL, ROLL, SOLO_ROLL,
                    SOLO_TIE, RollCraftState)

TURN_PHASES = (ROLL, REROLL_ROLL, CHOOSE, RELOCK, PLACED, PREPARE)  # the active turn goes on
from .sheet import Sheet

B = BOARD
ZONE_NAMES = ("grey", "yellow", "blue", "green", "pink")
PLACEMENTS_PER_ROUND = {1: 5.0, 2: 5.2, 3: 5.5, 4: 5.8}  # choices, passive choices, +1s, bonuses
ACTION_VALUE = {"reroll": 2.5, "return": 2.0, "plusOne": 6.0, "lock": 1.5}
BONUS_VALUE = {"reroll": 2.5, "return": 2.0, "plusOne": 6.0, "lock": 1.5, "rune": 15.0,
               "question:grey": 6.0, "question:yellow": 7.0, "question:blue": 6.0, "question:green": 7.0,
               "question:pink": 7.0, "question:black": 9.0, "t8:grey": 6.0, "t8:yellow": 7.0, "t8:blue": 6.0,
               "t8:green": 6.0, "t8:pink": 8.0, None: 0.0}
GREY_PROGRESS = (0.0, 0.18, 0.42, 0.72)
# What the dice left in the roll group are worth for the rest of the turn (medium's estimate),
# by number of dice, per remaining roll.
GROUP_WORTH = (0.0, 5.0, 7.0, 8.5, 9.5, 10.2, 10.8)


def placements_left(state: RollCraftState) -> float:
    """Rough number of placements the seat still makes in the game (after the current one)."""
    n = state.num_players
    per_round = PLACEMENTS_PER_ROUND[n]
    rounds_after = state.rounds - state.round
    return rounds_after * per_round * (1 if n == 1 else (1 + 0.5 * (n - 1)) / 1.5) + per_round * 0.4


# The evaluation's weights: hand-set, then two rounds of coordinate search on 40 solo games of
# `medium` (bench/rollcraft_tune.py: 134 -> 175 on its own games; see bench/ for fresh games).
W = {
    "grey1": 0.144, "grey2": 0.42, "grey3": 1.152, "grey_bonus": 0.15, "grey_late": 0.2,
    "yellow_half": 0.275, "yellow_line": 0.8,
    "blue_future": 0.4, "blue_slope": 1.2, "blue_bonus": 0.5,
    "green_open": 1.0, "green_second": 2.3, "green_empty": 0.75, "green_first": 6.2,
    "pink_open": 2.6, "pink_bonus": 0.48,
    "action": 1.6, "group": 1.0, "horizon": 22.4,
    "price": 4.0, "draws": 3.0, "row_bonus": 0.5, "blue_draws": 1.0, "green_draws": 1.0, "pink_draws": 0.75,
    "rune_worth": 7.5, "reroll_margin": 0.5,
    "grey_rate": 0.5, "grey_bonus_share": 0.2, "yellow_rate": 0.0,
}
_rows: list = []  # the RowPotential tables for the current price and bonus share, built on first use


def row_potential() -> RowPotential:
    key = (W["price"], W["row_bonus"], W["rune_worth"])
    if not _rows or _rows[0][0] != key:
        # a rune is worth the lowest zone at the end, more than its rule-of-thumb BONUS_VALUE
        worth = dict(BONUS_VALUE, rune=W["rune_worth"] / W["row_bonus"])
        _rows[:] = [(key, RowPotential(worth, W["price"], 6 * 6, W["row_bonus"]))]
    return _rows[0][1]


def rounds_left(state: RollCraftState) -> float:
    """Rounds still to play for the seat, counting the current one by what is left of it."""
    stage = state.turn_in_round
    if state.phase in (PLUS_WINDOW, PASSIVE, SOLO_ROLL, SOLO_TIE):
        stage += 0.5  # the active turn is over
    return max(0.0, state.rounds - state.round + 1 - stage / state.num_players)


def zone_values(sheet: Sheet, left: float) -> list[float]:
    """Each zone's points now plus the expected share of what it can still make."""
    w = W
    time = min(1.0, left / w["horizon"])
    late = w["grey_late"] + (1 - w["grey_late"]) * time
    progress = (0.0, w["grey1"], w["grey2"], w["grey3"])
    # Grey: complete columns score; partial ones are worth a share of points + bonus.
    grey = 0.0
    for col, marks in enumerate(sheet.grey):
        if marks == B.grey_boxes:
            grey += B.grey_points[col]
        elif marks:
            grey += (B.grey_points[col] + BONUS_VALUE[B.grey_bonus[col]] * w["grey_bonus"]) * progress[marks] * late
    # Yellow: completed boxes by the table; half-filled boxes toward the next step; line bonuses.
    done = sum(1 for m in sheet.yellow if m == 2)
    half = sum(1 for m in sheet.yellow if m == 1)
    yellow = float(B.yellow_points[done])
    step = B.yellow_points[min(done + 1, 12)] - B.yellow_points[done]
    yellow += half * step * w["yellow_half"] * (0.3 + 0.7 * time)
    for members, bonus in list(zip(B.yellow_row_members, B.yellow_row_bonus)) + list(
            zip(B.yellow_col_members, B.yellow_col_bonus)):
        missing = sum(1 for i in members if not sheet.yellow[i])
        if missing and bonus:
            yellow += BONUS_VALUE[bonus] * (0.55, 0.22, 0.08)[min(missing, 3) - 1] * time * w["yellow_line"]
    # Blue: the last box's points; more boxes the higher the last sum and the more time.
    filled = len(sheet.blue)
    last = sheet.blue[-1] if sheet.blue else 17
    more = min(B.blue_size - filled, max(0.0, (last - 3) * w["blue_slope"]), left * 0.3)
    reach = filled + more
    idx = int(reach)
    frac = reach - idx
    pts = [0] + list(B.blue_points)
    blue = pts[min(idx, 12)] + (pts[min(idx + 1, 12)] - pts[min(idx, 12)]) * frac if idx < 12 else pts[12]
    blue = pts[filled] + (blue - pts[filled]) * w["blue_future"]
    for box in range(filled, min(B.blue_size, int(reach + 0.999))):
        blue += BONUS_VALUE[B.blue_bonus[box]] * w["blue_bonus"]
    # Green: finished pairs; an open pair counts on a low second number; empty pairs on average.
    green = 0.0
    g = sheet.green
    for first in range(0, B.green_size, 2):
        if first + 1 < len(g):
            green += g[first] - g[first + 1]
        elif first < len(g):
            expect = B.green_mult[first + 1] * w["green_second"]
            green += (g[first] - expect) * min(1.0, w["green_open"] * (0.35 + time))
        else:
            share = max(0.0, min(1.0, (left - (first - len(g)) * 0.8) / 10.0))
            green += (B.green_mult[first] * w["green_first"] - B.green_mult[first + 1] * w["green_second"]) * w["green_empty"] * share
    for box in range(len(g), B.green_size):
        green += BONUS_VALUE[B.green_bonus[box]] * 0.35 * time
    # Pink: the sum; open boxes at a typical value and their bonus when met.
    pink = float(sum(sheet.pink))
    reachable = min(B.pink_size - len(sheet.pink), left * 0.3)
    pink += reachable * w["pink_open"]
    for box in range(len(sheet.pink), B.pink_size):
        pink += BONUS_VALUE[B.pink_bonus[box]] * w["pink_bonus"] * time
    return [grey, yellow, blue, green, pink]


def at_least(mean: float, k: int) -> float:
    """P(N >= k) for N Poisson with this mean."""
    if k <= 0:
        return 1.0
    term = math.exp(-mean)
    below = term
    for j in range(1, k):
        term *= mean / j
        below += term
    return max(0.0, 1.0 - below)


def grey_expected(sheet: Sheet, rounds: float) -> float:
    """Grey's expected final points: each open column completes if its missing marks arrive, marks
    coming to a column at `grey_rate` per round (a Poisson guess); its bonus counts at a share."""
    mean = W["grey_rate"] * rounds
    total = 0.0
    for col, marks in enumerate(sheet.grey):
        worth = B.grey_points[col]
        if marks < B.grey_boxes:
            worth = (worth + BONUS_VALUE[B.grey_bonus[col]] * W["grey_bonus_share"]) * at_least(mean, B.grey_boxes - marks)
        total += worth
    return total


def yellow_expected(sheet: Sheet, rounds: float) -> float:
    """Yellow's expected final points: the table read (between steps) at the expected number of
    completed boxes, each open box getting its missing markers at `yellow_rate` per round."""
    mean = W["yellow_rate"] * rounds
    count = sum(at_least(mean, 2 - m) for m in sheet.yellow)
    low = int(count)
    table = B.yellow_points
    if low >= 12:
        return float(table[12])
    return table[low] + (table[low + 1] - table[low]) * (count - low)


def yellow_now_and_halves(sheet: Sheet, left: float) -> float:
    """The part of the rule-of-thumb yellow value that `yellow_expected` replaces."""
    time = min(1.0, left / W["horizon"])
    done = sum(1 for m in sheet.yellow if m == 2)
    half = sum(1 for m in sheet.yellow if m == 1)
    step = B.yellow_points[min(done + 1, 12)] - B.yellow_points[done]
    return B.yellow_points[done] + half * step * W["yellow_half"] * (0.3 + 0.7 * time)


def value(sheet: Sheet, left: float, rounds: float | None = None) -> float:
    zones = zone_values(sheet, left)
    expected = zones
    if rounds is not None and W["grey_rate"]:
        zones[0] = grey_expected(sheet, rounds)
    if rounds is not None and W["yellow_rate"]:
        zones[1] += yellow_expected(sheet, rounds) - yellow_now_and_halves(sheet, left)
    if rounds is not None and W["draws"]:
        rows = row_potential()
        draws = rounds * W["draws"]
        now = sheet.zone_scores()
        expected = zones[:]
        for k, future in ((2, rows.blue_future), (3, rows.green_future), (4, rows.pink_future)):
            net, gross = future(sheet, draws * W[ZONE_NAMES[k] + "_draws"])
            zones[k] = now[k] + net
            expected[k] = now[k] + gross
    time = min(1.0, left / W["horizon"])
    total = sum(zones) + sheet.runes * min(expected)
    total += sum(ACTION_VALUE[a] * n for a, n in zip(ACTIONS, sheet.stock)) * (0.15 + 0.85 * time) * W["action"]
    total += sum(BONUS_VALUE[code] for code in sheet.pending)
    return total


def group_worth(state: RollCraftState) -> float:
    """Medium's estimate of the rest of the active turn: dice left to choose from, rolls left."""
    if state.phase not in TURN_PHASES:
        return 0.0
    rolls_left = B.regular_rolls - state.rolls
    n = sum(1 for w in state.where if w == GROUP)
    if rolls_left <= 0 or n == 0:
        return 0.0
    worth = GROUP_WORTH[n]
    if rolls_left >= 2:
        worth += GROUP_WORTH[max(0, n - 2)]
    return worth * W["group"]


def evaluate(state: RollCraftState, seat: int, turn_worth: bool = True) -> float:
    """The seat's sheet value; pending bonuses are resolved greedily first."""
    if state.is_terminal():
        return float(state.sheets[seat].total())
    left = placements_left(state)
    v = value(state.sheets[seat], left, rounds_left(state))
    if turn_worth and seat == state.active and state.num_players >= 1:
        v += group_worth(state)
    return v


def after(state: RollCraftState, seat: int, move: str) -> RollCraftState:
    child = state.clone()
    child._apply(move, seat)
    return child


def resolve_bonuses(state: RollCraftState, seat: int) -> RollCraftState:
    """Resolve the seat's pending bonuses one by one, each greedily (chains included)."""
    guard = 0
    while state.sheets[seat].pending and seat in state.current_players() and guard < 20:
        guard += 1
        moves = state.legal_moves(seat)
        best = max(moves, key=lambda m: (evaluate_bonus(after(state, seat, m), seat)))
        state = after(state, seat, best)
    return state


def evaluate_bonus(state: RollCraftState, seat: int) -> float:
    return evaluate(state, seat)


def move_value(state: RollCraftState, seat: int, move: str, resolve: bool = True, turn_worth: bool = True) -> float:
    """One-ply value of a non-chance move, its bonus chain resolved greedily (or, for the quick
    hint, bonuses still pending counted at their usual worth)."""
    child = after(state, seat, move)
    if resolve:
        child = resolve_bonuses(child, seat)
    return evaluate(child, seat, turn_worth)


def _noisy_best(scored: list[tuple[float, str]], rng: random.Random, noise: float) -> str:
    best = max(scored, key=lambda item: item[0] + (rng.gauss(0, noise) if noise else 0.0))
    return best[1]


def _split(moves: list[str]) -> tuple[list[str], list[str]]:
    """Moves valued one-ply, and those that lead to dice (Re-roll, Lock, Return, throw)."""
    plain = [m for m in moves if m.split(" ")[0] not in ("reroll", "lock", "return", "throw")]
    return plain, [m for m in moves if m not in plain]


def _greedy(state: RollCraftState, seat: int, rng: random.Random, noise: float = 0.0, turn_worth: bool = True) -> str:
    moves = state.legal_moves(seat)
    if len(moves) == 1:
        return moves[0]
    plain, dice = _split(moves)
    if state.phase == RELOCK:
        return "reroll"
    if state.phase == PREPARE:
        return _prepare(state, seat)
    scored = [(move_value(state, seat, m, turn_worth=turn_worth), m) for m in plain]
    return _noisy_best(scored, rng, noise)


def _prepare(state: RollCraftState, seat: int) -> str:
    """Before roll 2/3: Return a die when the group is small, Lock a high useful die, then throw."""
    moves = state.legal_moves(seat)
    group = [d for d in range(6) if state.where[d] == GROUP]
    returns = [m for m in moves if m.startswith("return ")]
    if returns and len(group) <= 2:
        # the platter die with most places to go (at any value), blue/white count double
        def openness(move):
            die = DICE.index(move.split(" ")[1])
            probe = state.clone()
            probe.values[die] = 5
            return len(probe.targets(seat, die)) + (1 if die in (0, 5) else 0)
        return max(returns, key=openness)
    locks = [m for m in moves if m.startswith("lock ")]
    if locks:
        sheet_best = None
        best_gain = 4.0
        base = evaluate(state, seat, turn_worth=False)
        for m in locks:
            die = DICE.index(m.split(" ")[1])
            if state.values[die] < 6:
                continue
            gains = [move_value_take(state, seat, die, t) - base for t in state.targets(seat, die)]
            if gains and max(gains) > best_gain:
                best_gain, sheet_best = max(gains), m
        if sheet_best:
            return sheet_best
    return "throw" if "throw" in moves else "end"


def move_value_take(state: RollCraftState, seat: int, die: int, target: str) -> float:
    """Value of placing `die` at `target` on the seat's sheet, ignoring dice movement."""
    probe = state.clone()
    probe._place(seat, die, target)
    probe = resolve_bonuses(probe, seat) if probe.sheets[seat].pending and seat in probe.current_players() else probe
    return evaluate(probe, seat, turn_worth=False)


def easy(state: RollCraftState, seat: int, rng: random.Random) -> str:
    return _greedy(state, seat, rng, noise=3.0, turn_worth=False)


def medium(state: RollCraftState, seat: int, rng: random.Random) -> str:
    moves = state.legal_moves(seat)
    if state.phase == CHOOSE and seat == state.active and "reroll" in moves and not state.sheets[seat].pending:
        return _choose_or_reroll(state, seat, rng, samples=6, deep=False)
    return _greedy(state, seat, rng)


# --- hard: lookahead over the rest of the turn --------------------------------------------------
def _roll_outcome(state: RollCraftState, rng: random.Random) -> RollCraftState:
    child = state.clone()
    sides = child.chance()
    child._apply(child.chance_move([rng.randint(1, s) for s in sides]), CHANCE)
    return child


def _expected_after_roll(state: RollCraftState, seat: int, rng: random.Random, samples: int, deep: bool) -> float:
    """Average over sampled throws of the best follow-up value (the turn played on greedily)."""
    total = 0.0
    for _ in range(samples):
        child = _roll_outcome(state, rng)
        total += _best_value(child, seat, rng, deep)
    return total / samples


def _best_value(state: RollCraftState, seat: int, rng: random.Random, deep: bool) -> float:
    """Value of a position where `seat` is to choose (after a throw), playing on greedily."""
    if state.current_players() != [seat] or state.phase != CHOOSE:
        return evaluate(state, seat)
    plain, _ = _split(state.legal_moves(seat))
    best = -1e9
    scored = sorted(((move_value(state, seat, m), m) for m in plain), reverse=True)
    if not deep:
        return scored[0][0]
    for v, m in scored[:3]:
        child = resolve_bonuses(after(state, seat, m), seat)
        v = _continue_value(child, seat, rng, samples=4)
        best = max(best, v)
    return best


def _continue_value(state: RollCraftState, seat: int, rng: random.Random, samples: int) -> float:
    """After a choice: if the turn goes on with a throw, average the greedy best over throws."""
    guard = 0
    while state.phase == PREPARE and state.current_players() == [seat] and guard < 8:
        guard += 1
        state = after(state, seat, _prepare(state, seat))
    if state.is_chance() and state.phase in ("roll", "reroll") and state.roller() == seat:
        return _expected_after_roll(state, seat, rng, samples, deep=False)
    return evaluate(state, seat, turn_worth=False)


def _choose_or_reroll(state: RollCraftState, seat: int, rng: random.Random, samples: int, deep: bool) -> str:
    plain, _ = _split(state.legal_moves(seat))
    scored = sorted(((move_value(state, seat, m), m) for m in plain), reverse=True)
    best_v, best = scored[0]
    if deep:
        best_v = -1e9
        for _, m in scored[:4]:
            child = resolve_bonuses(after(state, seat, m), seat)
            v = _continue_value(child, seat, rng, samples)
            if v > best_v:
                best_v, best = v, m
    if "reroll" in state.legal_moves(seat):
        child = after(state, seat, "reroll")
        v = _expected_after_roll(child, seat, rng, samples, deep=False)
        if v > best_v + 0.5:
            return "reroll"
    return best


# Hard's search over the rest of the turn: at each choice the best few one-ply options are
# followed; after each, the coming throw is sampled and answered the same way, narrower deeper
# down. (options, throws) per depth: the first choice of a turn looks two throws ahead.
HARD_WIDTH = ((4, 6), (2, 4), (1, 1))


def _turn_value(state: RollCraftState, seat: int, seed: int, depth: int) -> float:
    """Expected value of a position in seat's active turn, the rest of the turn searched."""
    guard = 0
    while state.phase == PREPARE and state.current_players() == [seat] and guard < 8:
        guard += 1
        state = after(state, seat, _prepare(state, seat))
    if state.is_chance() and state.phase in (ROLL, REROLL_ROLL) and state.roller() == seat:
        throws = HARD_WIDTH[min(max(depth - 1, 0), len(HARD_WIDTH) - 1)][1]  # set by the choice before
        rng = random.Random(seed)
        return sum(_turn_value(_roll_outcome(state, rng), seat, seed + 7919 * (i + 1), depth)
                   for i in range(throws)) / throws
    if state.phase != CHOOSE or state.current_players() != [seat] or state.sheets[seat].pending:
        return evaluate(state, seat)
    return _search_choice(state, seat, seed, depth)[0]


def _search_choice(state: RollCraftState, seat: int, seed: int, depth: int) -> tuple[float, str]:
    """(value, move) of the best choice at a CHOOSE position; every option is judged on the same
    sampled throws (common random numbers), so the comparison is fairer than the noise."""
    plain, _ = _split(state.legal_moves(seat))
    scored = sorted(((move_value(state, seat, m), m) for m in plain), reverse=True)
    width = HARD_WIDTH[min(depth, len(HARD_WIDTH) - 1)][0]
    if width <= 1 or state.rolls >= B.regular_rolls:
        return scored[0]
    best_v, best = -1e9, scored[0][1]
    for _, m in scored[:width]:
        child = resolve_bonuses(after(state, seat, m), seat)
        v = _turn_value(child, seat, seed, depth + 1)
        if v > best_v:
            best_v, best = v, m
    return best_v, best


def hard(state: RollCraftState, seat: int, rng: random.Random) -> str:
    sheet = state.sheets[seat]
    if state.phase == CHOOSE and seat == state.active and not sheet.pending:
        seed = rng.randrange(1 << 30)
        value_now, best = _search_choice(state, seat, seed, 0)
        if "reroll" in state.legal_moves(seat):
            if _turn_value(after(state, seat, "reroll"), seat, seed, 1) > value_now + W["reroll_margin"]:
                return "reroll"
        return best
    return _greedy(state, seat, rng)


def advise(state: RollCraftState, seat: int) -> list[dict]:
    """The hint: every plain option with its value (hard's evaluation), best first; quick."""
    if seat not in state.current_players():
        return []
    moves = state.legal_moves(seat)
    plain, dice = _split(moves)
    # Quick enough for the main thread (bench/rollcraft_decisions.py): one evaluation per option.
    out = [{"move": m, "value": round(move_value(state, seat, m, resolve=False), 1)} for m in plain]
    out.sort(key=lambda item: -item["value"])
    if not out and dice:
        out = [{"move": _prepare(state, seat) if state.phase == PREPARE else dice[0], "value": 0.0}]
    return out[:8]
