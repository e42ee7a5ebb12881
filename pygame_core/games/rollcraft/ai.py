"""RollCraft T8 AI: a sheet evaluation (score now + what the sheet can still become) and three levels.

- `easy`: one-ply greedy on the evaluation, no thought for the rest of the turn, a little noise.
- `medium`: one-ply greedy plus an estimate of what the dice left in the roll group are worth;
  a Re-roll when sampled throws promise more than the best choice now.
- `hard`: a search over the rest of the active turn (`_search_choice`): the best few one-ply
  options of each choice are followed through the coming throws (sampled, the same throws for
  every option), down to the last roll, for choices, Re-rolls and each Return or Lock before a
  throw (`_search_prepare`); passive choices, +1 windows and bonuses are one-ply on the same
  evaluation.
Easy and medium make Returns and Locks before a roll by one rule of thumb (`_prepare`).
Every level plays active turns, passive choices, +1 windows and bonuses, and uses saved actions.
`advise` ranks a person's options with the evaluation (the hint button).

The evaluation (`value`) is the sheet's points now plus each zone's expected future points given
the rounds left: Blue, Green and Pink by dynamic programming over the chances still to come, each
placement charged a price for what it could have earned elsewhere (`potential.py`); Grey by the
chance that each open column gets its missing marks; Yellow by a rule of thumb (half-filled boxes
toward the next step of the table, line bonuses). Runes count at the lowest zone's expected
score; saved actions and pending bonuses count for what they usually turn into. Hard (solo) adds a
linear correction of that sum fitted on its own self-play (`LIN_FIT`, `LOW_FIT`: final score − value
regressed on value's components × rounds left and on the final lowest zone its games predict,
which is what runes pay: `learnt_lowest`).
The weights `W` were set by comparing settings on the same 150 seeded solo games of `medium`
(bench/rollcraft_levels.py; see bench/rollcraft_results.md); bench/rollcraft_tune.py automates
that coordinate search."""

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
# What the dice left in the roll group are worth for the rest of the turn (medium's estimate),
# by number of dice, per remaining roll.
GROUP_WORTH = (0.0, 5.0, 7.0, 8.5, 9.5, 10.2, 10.8)


def placements_left(state: RollCraftState) -> float:
    """Rough number of placements the seat still makes in the game (after the current one)."""
    n = state.num_players
    per_round = PLACEMENTS_PER_ROUND[n]
    rounds_after = state.rounds - state.round
    return rounds_after * per_round * (1 if n == 1 else (1 + 0.5 * (n - 1)) / 1.5) + per_round * 0.4


# The evaluation's weights. yellow_*, action, group, horizon: hand-set, then coordinate search on
# 40 solo games of the earlier evaluation (bench/rollcraft_tune.py). The rest were picked by hand
# from one-at-a-time changes on 150 paired solo games of `medium` (seeds "d:0".."d:149"):
# each neighbour tried (price 3.4/4.6, draws 2.2-3.4, blue_draws 0.7/1.4, green_draws 1.3,
# pink_draws 0.75/1, row_bonus 0.3/0.8, grey_rate 0.3-0.6) scored no better than these.
W = {
    "yellow_half": 0.275, "yellow_line": 0.8, "action": 1.6, "group": 1.0, "horizon": 22.4,
    # Blue, Green, Pink (potential.RowPotential): price per placement, chances per round (times a
    # factor per zone), share of a bonus's usual worth.
    "price": 4.0, "draws": 3.0, "row_bonus": 0.5, "blue_draws": 1.0, "green_draws": 1.0, "pink_draws": 0.75,
    # Grey (grey_expected): marks per column per round, share of a column bonus's worth.
    "grey_rate": 0.5, "grey_bonus_share": 0.2,
    # hard: how much better the sampled Re-roll must look than the best choice now.
    "reroll_margin": 0.5,
    # hard's learnt correction of the evaluation (LIN_FIT; 0 = off), solo games only.
    "lin_fit": 1.0,
}
_rows: list = []  # (key, RowPotential) for the current weights, built on first use (~0.2 s)


def row_potential() -> RowPotential:
    key = (W["price"], W["row_bonus"], W["draws"], W["blue_draws"], W["green_draws"], W["pink_draws"])
    if not _rows or _rows[0][0] != key:
        most = max(B.rounds.values()) * W["draws"] * max(W["blue_draws"], W["green_draws"], W["pink_draws"])
        _rows[:] = [(key, RowPotential(BONUS_VALUE, W["price"], math.ceil(most), W["row_bonus"]))]
    return _rows[0][1]


def rounds_left(state: RollCraftState) -> float:
    """Rounds still to play for the seat, counting the current one by what is left of it."""
    stage = state.turn_in_round
    if state.phase in (PLUS_WINDOW, PASSIVE, SOLO_ROLL, SOLO_TIE):
        stage += 0.5  # the active turn is over
    return max(0.0, state.rounds - state.round + 1 - stage / state.num_players)


def zone_values(sheet: Sheet, left: float, rounds: float) -> tuple[list[float], list[float]]:
    """Each zone's points now plus what it can still bring: (values to add up, expected final
    points for the rune value). They differ for Blue, Green and Pink, whose first list is net of
    the price of the placements they will take (`potential.RowPotential`)."""
    w = W
    time = min(1.0, left / w["horizon"])
    grey = grey_expected(sheet, rounds)
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
    values = [grey, yellow, 0.0, 0.0, 0.0]
    expected = values[:]
    rows = row_potential()
    draws = rounds * w["draws"]
    now = sheet.zone_scores()
    for k, future in ((2, rows.blue_future), (3, rows.green_future), (4, rows.pink_future)):
        net, gross = future(sheet, draws * w[ZONE_NAMES[k] + "_draws"])
        values[k] = now[k] + net
        expected[k] = now[k] + gross
    return values, expected


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
    """Grey's expected final points: an open column completes if its missing marks arrive, marks
    coming to a column at `grey_rate` per round (a Poisson guess); its bonus counts at a share."""
    mean = W["grey_rate"] * rounds
    total = 0.0
    for col, marks in enumerate(sheet.grey):
        worth = B.grey_points[col]
        if marks < B.grey_boxes:
            worth = (worth + BONUS_VALUE[B.grey_bonus[col]] * W["grey_bonus_share"]) * at_least(mean, B.grey_boxes - marks)
        total += worth
    return total


# Hard's learnt correction of the whole evaluation (W["lin_fit"] 1, solo games only): the final
# score minus `value` regressed (least squares, ridge 1) on value's components — the five zones'
# values, runes × the lowest forecast, runes, saved actions — and their products with r/6 (r =
# rounds left) (`LIN_FIT`), and on five more about what runes pay (`LOW_FIT`): the learnt lowest
# zone L (`learnt_lowest`), runes × L, r/6 × runes × L, (runes + the runes still to come) × L and
# r/6 × L. Runes pay the final lowest zone, which the zones' own forecasts predict badly early in
# the game (Yellow's rule of thumb counts no future boxes, so it is nearly always the lowest
# forecast), and a linear fit of the components alone cannot express a minimum.
# Data: the positions after each active turn (+1 window, solo passive choice) of 400 solo games,
# 200 of hard before any correction (seeds "fit:0".."fit:199") and 200 of hard with the earlier
# correction of the components alone ("fit2a:0".."fit2a:99", "fit2b:0".."fit2b:99"), 3884
# positions; pooled so that both Yellow-heavy and Yellow-light play are seen (a fit on one
# policy's games alone oscillates). bench/rollcraft_fit_collect.py, then `bench/rollcraft_fit.py
# --low --rho 0.42` gives these numbers (its docstring says how to play those games again).
# Order of LIN_FIT: the constant, r, then the eight components' weights, then their weights × r.
# Measured against the correction of the components alone (bench/rollcraft_results.md,
# 2026-12-03 night): paired on synchronised dice (bench/rollcraft_paired.py), 200 games "s"
# 222.85 -> 232.47 (+9.6 ± 3.0); 80 games "k" (bench/rollcraft_levels.py) +1.9 ± 5.1; `python -m
# pygame_core simulate rollcraft --players 1 --games 500 --ai hard --seed 1`: 225.34 -> 230.87.
LIN_FIT = (62.7955, -67.8199, -0.1683, -0.2955, -0.5757, -0.5954, -0.7537, -1.4361, -7.015, 1.6838,
           0.2689, -0.6151, 1.474, 1.528, 1.4922, 1.9605, 10.3144, -2.4862)
_LIN_TERMS = tuple(zip(LIN_FIT[2:10], LIN_FIT[10:18]))  # (weight, weight × r) per component
LOW_FIT = (0.9349, -3.2923, 0.5661, 1.0956, -0.1464)  # runes·L, r·runes·L, (runes + more)·L, L, r·L
# Each zone's final points against its expected final points (`zone_values`' second list), least
# squares on the same games: final ≈ a + b·expected + c·R + d·R·expected, R = rounds left.
ZONE_CAL = ((5.1352, 0.9107, 0.1119, 0.0034), (11.2176, 0.6535, 1.4343, 0.1327), (0.6379, 0.9425, 2.1737, -0.0102),
            (3.0051, 0.9375, -9.8911, 0.0577), (-2.7502, 1.0734, -5.2682, 0.0167))
LOW_SPREAD = 10.0  # the soft minimum's spread at the start (× sqrt(r/6)): early forecasts are uncertain
RUNES_PER_ROUND = 0.42  # runes still to come per round left, in hard's games


def learnt_lowest(expected: list[float], rounds: float) -> float:
    """The final lowest zone as hard's games predict it: a soft minimum of the calibrated forecasts."""
    forecasts = [a + b * e + c * rounds + d * rounds * e for (a, b, c, d), e in zip(ZONE_CAL, expected)]
    low = min(forecasts)
    spread = LOW_SPREAD * math.sqrt(rounds / 6.0)
    if spread > 1e-9:
        low -= spread * math.log(sum(math.exp(-(x - low) / spread) for x in forecasts))
    return low


_HARD = [False]  # set while hard decides: the correction is fitted on hard's own games


def value_parts(sheet: Sheet, left: float, rounds: float) -> tuple[list[float], list[float], float, float]:
    """The parts `value` adds up (and LIN_FIT is fitted on): the zones' values, their expected
    final points, the runes at the lowest of those, and the saved actions' worth."""
    zones, expected = zone_values(sheet, left, rounds)
    time = min(1.0, left / W["horizon"])
    act = sum(ACTION_VALUE[a] * n for a, n in zip(ACTIONS, sheet.stock)) * (0.15 + 0.85 * time) * W["action"]
    return zones, expected, sheet.runes * min(expected), act


def value(sheet: Sheet, left: float, rounds: float, solo: bool = True) -> float:
    """The sheet's worth: zones, runes at the lowest expected zone, saved actions, pending bonuses."""
    zones, expected, rune_term, act = value_parts(sheet, left, rounds)
    total = sum(zones) + rune_term + act
    total += sum(BONUS_VALUE[code] for code in sheet.pending)
    if W["lin_fit"] and solo and _HARD[0]:
        r = rounds / 6.0
        parts = (*zones, rune_term, sheet.runes, act)
        total += LIN_FIT[0] + LIN_FIT[1] * r + sum((a + b * r) * x for (a, b), x in zip(_LIN_TERMS, parts))
        low, runes = learnt_lowest(expected, rounds), sheet.runes
        total += ((LOW_FIT[0] + LOW_FIT[1] * r) * runes + LOW_FIT[2] * (runes + RUNES_PER_ROUND * rounds)
                  + LOW_FIT[3] + LOW_FIT[4] * r) * low
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
    v = value(state.sheets[seat], left, rounds_left(state), state.num_players == 1)
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
        return _choose_or_reroll(state, seat, rng, samples=6)
    return _greedy(state, seat, rng)


# --- hard: lookahead over the rest of the turn --------------------------------------------------
def _roll_outcome(state: RollCraftState, rng: random.Random) -> RollCraftState:
    child = state.clone()
    sides = child.chance()
    child._apply(child.chance_move([rng.randint(1, s) for s in sides]), CHANCE)
    return child


def _expected_after_roll(state: RollCraftState, seat: int, rng: random.Random, samples: int) -> float:
    """Average over sampled throws of the best one-ply value after the throw (medium's Re-roll)."""
    total = 0.0
    for _ in range(samples):
        child = _roll_outcome(state, rng)
        total += _best_value(child, seat)
    return total / samples


def _best_value(state: RollCraftState, seat: int) -> float:
    """One-ply value of a position where `seat` is to choose (after a throw)."""
    if state.current_players() != [seat] or state.phase != CHOOSE:
        return evaluate(state, seat)
    plain, _ = _split(state.legal_moves(seat))
    return max(move_value(state, seat, m) for m in plain)


def _choose_or_reroll(state: RollCraftState, seat: int, rng: random.Random, samples: int) -> str:
    """Medium: the best one-ply choice, or a Re-roll when sampled throws promise more."""
    plain, _ = _split(state.legal_moves(seat))
    best_v, best = max((move_value(state, seat, m), m) for m in plain)
    if "reroll" in state.legal_moves(seat):
        child = after(state, seat, "reroll")
        v = _expected_after_roll(child, seat, rng, samples)
        if v > best_v + 0.5:
            return "reroll"
    return best


# Hard's search over the rest of the turn: at each choice the best few one-ply options are
# followed; after each, the coming throw is sampled and answered the same way, narrower deeper
# down, always to the turn's last throw. (options, throws) per depth: the first choice of a turn
# looks two throws ahead. The third level (the best option only, 3 throws) is reached by the
# searches that start a level deeper: a Re-roll at roll 1 and a Return or Lock before roll 2.
# Before, that level stopped at one-ply, so their leaves at roll 2 carried no worth for roll 3
# (80 solo games, seeds "g:0".."g:79": 213.2 before, 217.9 with the third level searched).
# The search values positions without medium's estimate of the dice left in the group
# (`group_worth`, turn_worth=False): that estimate ranked the choices keeping many dice first, so
# the options that send dice to the platter (a high grey die: an extra grey mark per die moved)
# were seldom followed. Hard (with `_search_prepare`) on 60 solo games, seeds "e:0".."e:59",
# `bench/rollcraft_levels.py --seed e --levels hard`: 198 with the estimate, 207 / 213 with it at
# weight 0.3 / 0.6, 219 without (bench/rollcraft_results.md).
HARD_WIDTH = ((4, 6), (2, 4), (1, 3))


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
        return evaluate(state, seat, turn_worth=False)
    return _search_choice(state, seat, seed, depth)[0]


def _search_choice(state: RollCraftState, seat: int, seed: int, depth: int) -> tuple[float, str]:
    """(value, move) of the best choice at a CHOOSE position; every option is judged on the same
    sampled throws (common random numbers), so the comparison is fairer than the noise."""
    plain, _ = _split(state.legal_moves(seat))
    scored = sorted(((move_value(state, seat, m, turn_worth=False), m) for m in plain), reverse=True)
    width = HARD_WIDTH[min(depth, len(HARD_WIDTH) - 1)][0]
    if state.rolls >= B.regular_rolls:
        return scored[0]
    best_v, best = -1e9, scored[0][1]
    for _, m in scored[:width]:
        child = resolve_bonuses(after(state, seat, m), seat)
        v = _turn_value(child, seat, seed, depth + 1)
        if v > best_v:
            best_v, best = v, m
    return best_v, best


# Hard's Returns and Locks before a throw: each option is followed through the coming throw at
# this depth of HARD_WIDTH (its throws, then the best choice through any throw left), on the same
# throws for every option.
PREPARE_DEPTH = 2


def _search_prepare(state: RollCraftState, seat: int, seed: int) -> str:
    """The Return, Lock or throw whose coming throw promises most (the rule of thumb `_prepare`
    for any further Return or Lock); cheaper options win ties, as the stock keeps its worth."""
    moves = state.legal_moves(seat)
    if len(moves) == 1:
        return moves[0]
    return max(reversed(moves), key=lambda m: _turn_value(after(state, seat, m), seat, seed, PREPARE_DEPTH))


def hard(state: RollCraftState, seat: int, rng: random.Random) -> str:
    _HARD[0] = True  # the learnt correction (LIN_FIT) is hard's alone
    try:
        return _hard(state, seat, rng)
    finally:
        _HARD[0] = False


def _hard(state: RollCraftState, seat: int, rng: random.Random) -> str:
    sheet = state.sheets[seat]
    if state.phase == CHOOSE and seat == state.active and not sheet.pending:
        seed = rng.randrange(1 << 30)
        value_now, best = _search_choice(state, seat, seed, 0)
        if "reroll" in state.legal_moves(seat):
            if _turn_value(after(state, seat, "reroll"), seat, seed, 1) > value_now + W["reroll_margin"]:
                return "reroll"
        return best
    if state.phase == PREPARE and seat == state.active and not sheet.pending:
        return _search_prepare(state, seat, rng.randrange(1 << 30))
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
