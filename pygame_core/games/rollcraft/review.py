"""RollCraft T8's post-game review: every decision of every seat graded with Hard's evaluation.

The unit is Hard's: points of the seat's expected final score (`ai.value`: the sheet's points now
plus what each zone can still bring, runes, saved actions and pending bonuses; in solo with Hard's
learnt correction). The loss of a decision is Hard's value of its best option minus its value of
the option chosen (never below 0). It is an estimate (no decision is exact): the values are Hard's
heuristic evaluation and, within an active turn, its search over a few sampled throws.

Each decision is graded the way Hard decides it, so that Hard's own move grades 0:
- a choice in the active turn (`take …`, `reroll`): the options Hard's search follows (the best
  few one-ply, `ai.HARD_WIDTH`) and the option chosen, each followed through the rest of the turn
  on the same sampled throws (`ai._turn_value`; after the last roll the one-ply value). A
  Re-roll counts at its searched value minus Hard's margin (`W["reroll_margin"]`: Hard re-rolls only
  when that beats the best choice now); a Lock before a Re-roll is that Re-roll with the die held.
- Returns, Locks and "roll on" before roll 2 or 3: every option followed through the coming throw
  (`ai._search_prepare`'s values).
- Passive choices, +1 windows and bonuses: every option one-ply (`ai.move_value`, the bonus chain
  it starts resolved greedily), as Hard plays them.
Options Hard's search never follows (the rest of a choice's options, other Locks) are not valued:
only the option chosen is, so a move better than Hard's own grades 0, not below.

The throws Hard samples are seeded from the decision's place in the record (`decision_rng`), so a
review is deterministic; Hard given that generator at that position plays the move graded best.
`curve`: each seat's value at the start and at the end of every round (the last point is the
final score once the game is over), one point per round as the results plot counts them.

Speed: Hard's own work once per decision (its full procedure, not a cheaper stand-in), plus one
search of the chosen option where Hard's search would not follow it; a typical two-seat game
(~100 decisions) takes about 2 s of CPU under CPython on the project's machine
(bench/rollcraft_review.py, also under Pyodide).
"""

from __future__ import annotations

import random

from ...protocol import CHANCE
from ...review import sum_up_seat
from . import ai
from .board import BOARD, DICE
from .rules import CHOOSE, GROUP, PASSIVE, PLATTER, PLUS_WINDOW, PREPARE, RELOCK, TAKE

B = BOARD


def decision_rng(index: int) -> random.Random:
    """The generator Hard's sampled throws are seeded from at record position `index`."""
    return random.Random(f"rollcraft-review:{index}")


def _search(state, seat: int, move: str, seed: int) -> float:
    """A choice followed through the rest of the turn, as Hard's search does (`_search_choice`)."""
    return ai._turn_value(ai.resolve_bonuses(ai.after(state, seat, move), seat), seat, seed, 1)


def _reroll(state, seat: int, locks: list[str], seed: int) -> float:
    """A Re-roll (after these Locks) followed through the rest of the turn, as Hard values it."""
    for lock in locks:
        state = ai.after(state, seat, lock)
    return ai._turn_value(ai.after(state, seat, "reroll"), seat, seed, 1)


def grade(state, seat: int, move: str, rng: random.Random) -> tuple[dict, str]:
    """Hard's values of the options it weighs at this position (and of `move`), and its choice."""
    moves = state.legal_moves(seat)
    pending = bool(state.sheets[seat].pending)
    margin = ai.W["reroll_margin"]
    if state.phase == CHOOSE and seat == state.active and not pending:
        seed = rng.randrange(1 << 30)
        plain, _ = ai._split(moves)
        scored = sorted(((ai.move_value(state, seat, m, turn_worth=False), m) for m in plain), reverse=True)
        if state.rolls >= B.regular_rolls:  # the last roll: one-ply (`_search_choice`)
            values = {m: v for v, m in scored}
            best_v, best = scored[0]
        else:
            values = {}
            best_v, best = -1e9, scored[0][1]
            for _, m in scored[:ai.HARD_WIDTH[0][0]]:
                values[m] = _search(state, seat, m, seed)
                if values[m] > best_v:
                    best_v, best = values[m], m
            if move in plain and move not in values:
                values[move] = _search(state, seat, move, seed)
        if "reroll" in moves:
            raw = _reroll(state, seat, [], seed)
            values["reroll"] = raw - margin
            if raw > best_v + margin:
                best = "reroll"
        if move.startswith("lock "):
            values[move] = _reroll(state, seat, [move], seed) - margin
        return values, best
    if state.phase == RELOCK and not pending:  # Hard re-rolls at once (`_greedy`)
        seed = rng.randrange(1 << 30)
        values = {"reroll": _reroll(state, seat, [], seed)}
        if move != "reroll":
            values[move] = _reroll(state, seat, [move], seed)
        return values, "reroll"
    if state.phase == PREPARE and seat == state.active and not pending:
        seed = rng.randrange(1 << 30)
        values = {m: ai._turn_value(ai.after(state, seat, m), seat, seed, ai.PREPARE_DEPTH) for m in moves}
        return values, max(reversed(moves), key=values.__getitem__)  # `_search_prepare`: ties to the later
    plain, _ = ai._split(moves)
    values = {m: ai.move_value(state, seat, m) for m in plain}
    return values, max(plain, key=values.__getitem__)  # `_greedy`: the first best


def _context(state, seat: int) -> dict:
    """What the view says about where a decision was made: its kind, round, roll and dice."""
    sheet = state.sheets[seat]
    if sheet.pending:
        return {"kind": "bonus", "bonus": sheet.pending[0]}
    phase = state.phase
    if phase in (CHOOSE, RELOCK):
        return {"kind": "choose", "roll": state.rolls,
                "dice": [[DICE[d], state.values[d]] for d in range(6) if state.where[d] == GROUP]}
    if phase == PREPARE:
        return {"kind": "prepare", "roll": state.rolls + 1,
                "dice": [[DICE[d], state.values[d]] for d in range(6) if state.where[d] == GROUP]}
    if phase == PASSIVE and state.steps[seat] == TAKE:
        return {"kind": "passive", "dice": [[DICE[d], state.values[d]] for d in range(6) if state.where[d] == PLATTER]}
    if phase in (PLUS_WINDOW, PASSIVE):
        return {"kind": "plus", "dice": [[DICE[d], state.values[d]] for d in range(6)
                                         if state.values[d] and d not in state.used[seat]]}
    return {"kind": "other"}


class _MemoValue:
    """`ai.value` remembered for the length of a review: Hard's search values the same sheet many
    times over (the same die on the same box under different throws of the other dice). The
    sheet's fields, the time left and the flags are all it reads (the weights `ai.W` do not change
    during a review), so the values are the same, in about 40 % less time (half the calls find their value here)."""

    def __init__(self, value) -> None:
        self.value = value
        self.seen: dict = {}

    def __call__(self, sheet, left: float, rounds: float, solo: bool = True) -> float:
        key = (tuple(sheet.grey), tuple(sheet.yellow), tuple(sheet.blue), tuple(sheet.green), tuple(sheet.pink),
               tuple(sheet.stock), sheet.runes, tuple(sheet.pending), left, rounds, solo, ai._HARD[0])
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = self.value(sheet, left, rounds, solo)
        return found


def _curve_point(state, seat: int) -> float:
    return round(ai.evaluate(state, seat, turn_worth=False), 2)


def review(record, top: int = 5) -> dict:
    """Grade every decision of every seat of a RollCraft record with Hard's evaluation.

    `record`: a `Record` or its JSON dict. Per seat: `decisions` (each with the move, Hard's value
    of it, Hard's choice and its value, `loss` = points of expected final score given away, and
    where it was made for the view: `round`, `kind`, `roll`, `dice`, `bonus`), `total_loss`,
    `mean_loss`, `mistakes` (the `top` costliest), `score` and `curve` (see the module's text).
    A move with a single legal option is no decision; chance moves are none either.
    """
    from ...record import Record

    if isinstance(record, dict):
        record = Record.from_json(record)
    if record.game != "rollcraft":
        raise ValueError("review() is for RollCraft records")
    state = record.new_state()
    n = state.num_players
    seats = [{"seat": s, "decisions": [], "curve": []} for s in range(n)]
    ai._HARD[0] = True  # Hard's evaluation (its learnt correction in solo)
    plain_value = ai.value
    ai.value = memo = _MemoValue(plain_value)
    try:
        for s in range(n):
            seats[s]["curve"].append(_curve_point(state, s))
        for index, (player, move) in enumerate(record.moves):
            if state.is_terminal():
                break
            if player != CHANCE and len(state.legal_moves(player)) > 1:
                memo.seen.clear()  # a decision's own positions: the memory stays small
                values, best = grade(state, player, move, decision_rng(index))
                if move in values:
                    chosen, best_value = values[move], values[best]
                    seats[player]["decisions"].append({
                        "index": index, "round": state.round, **_context(state, player), "move": move,
                        "value": round(chosen, 2), "best": best, "best_value": round(best_value, 2),
                        "loss": round(max(0.0, best_value - chosen), 2), "exact": False})
            before = state.round
            state.apply(move, player)
            if state.round != before or state.is_terminal():  # a round is over
                for s in range(n):
                    seats[s]["curve"].append(_curve_point(state, s))
    finally:
        ai._HARD[0] = False
        ai.value = plain_value
    scores = state.scores()
    for s, entry in enumerate(seats):
        sum_up_seat(entry, scores[s], top)
    return {"game": "rollcraft", "complete": state.is_terminal(), "certainty": "estimate", "seats": seats}
