"""The review of a Geek Out! Masters game: every decision of every seat graded against the best
move the computer knows (its Perfect level).

Two units, as Perfect plays (see `ai.perfect`):

- Before a seat's last turn of the game, a decision is graded in **expected points of the turn**
  against the exact expected-points policy (`solver`: the shipped table, exact to double
  precision). `value` is the expected points of the turn after the chosen move with optimal play
  from there on, `best_value` the best move's; `loss` = the difference. These are `"exact": True`
  and carry no `unit`.
- In a seat's last turn (round 5), a decision is graded in **chance to win the game** (ties
  share the victory) against Perfect's exact solution of that turn (`winprob`): `"unit": "win"`,
  `value`/`best_value` are probabilities in 0..1, `loss` their difference. Perfect's model is
  exact when nobody plays after the seat (every other total is known): those decisions are
  `"exact": True`. Where others still take their last turn after it, Perfect models each of them
  as playing the expected-points policy (its exact turn-points distribution): a model of people it
  does not know, so those grades are `"exact": False` (an estimate of the chance to win).
  When the game's result can no longer change whatever the seat does (far ahead or behind, or a
  solo game), Perfect plays for points, and so does the grade: such decisions are graded in turn
  points like the earlier ones (exact, no `unit`).

A move with only one legal choice (a lone Meeple, a forced stop) is not a decision; throws are
chance moves, not decisions. The move Perfect would play is graded 0 (it is the best move of the
same values, ties going to the first move in canonical order as in `solver.best_move`).

Rulings where the units mix:
- `total_loss` and `mean_loss` are in **expected turn points only** (the sum over the decisions
  graded in points, and its mean over them): adding chances to points would be meaningless.
  Each seat also carries `win_loss` (the sum of its win-probability losses, 0..1) and
  `win_decisions` (how many decisions were graded in win probability).
- `mistakes` (the `top` costliest, costliest first; a loss too small to show, see `SHOWN`, is
  not listed) ranks both kinds together by a points equivalent, `rank_loss` on each decision: a
  points loss is itself; a win-probability loss Δp is Δp / r, where r is what one point of final total is worth in chance to win, on average, for
  a game of that many players playing the expected-points policy: the slope of the win share
  over ±19 points (about one turn's worth) of the own total, computed exactly from the shipped
  turn-points distribution (`points_rate`: about 0.0093 for 2 players, 0.0096 for 3 and 0.0091
  for 4, i.e. one point ≈ one percentage point of the chance to win). Only the order uses it;
  every shown loss stays in its own unit.

`curve` per seat: the expected final total at the start (5 fresh turns of the policy, about 95.3)
and after each of its turns (its points so far plus its remaining turns' expectation); once the
game is over the last point is its final score.

Cost: the points grades are table lookups; each last turn with a decision graded in chance to
win needs Perfect's solve of that turn (cached by utility in `winprob`, shared with the Perfect
level) and, the first time, its compiled graph. Measured cold on a typical 3-player game
(bench/geekout_review.py): CPython 1.8-3.6 s CPU; Pyodide 4.7-9.9 s (the graph about 1.5 s, each
of the game's 1-3 solves about 2.6 s).
"""

from __future__ import annotations

from functools import cache
from math import comb

from ...protocol import CHANCE
from . import solver, winprob
from .rules import DICE, ROUNDS, triangle

RATE_SPAN = 19  # points either side of the own total for the points-equivalent rate (~ a turn)
UNIT_WIN = "win"
# The smallest loss listed as a mistake: half the last digit shown (0.01 point; 0.1 percentage
# point of the chance to win). Smaller losses (a far-ahead seat's last turn gives away 1e-7 of a
# sure win) stay graded in `decisions` but would read as "0.0 lost" in the list.
SHOWN = {None: 0.005, UNIT_WIN: 0.0005}


def review(record, top: int = 5) -> dict:
    """Grade every decision of every seat of a Geek Out record (see the module doc)."""
    from ...record import Record

    if isinstance(record, dict):
        record = Record.from_json(record)
    if record.game != "geekout":
        raise ValueError("review() is for Geek Out records")
    state = record.new_state()
    n = state.num_players
    policy = solver.get_policy()
    fresh = policy.fresh_turn()
    rate = points_rate(n)
    seats = [{"seat": s, "decisions": [], "curve": [round(ROUNDS * fresh, 4)]} for s in range(n)]
    win_model = None  # (turn, _win_model) of the last turn in progress
    for index, (player, move) in enumerate(record.moves):
        if player != CHANCE and len(state.legal_moves(player)) > 1:
            if winprob.last_turn(state, player):
                if win_model is None or win_model[0] != state.turn:
                    win_model = (state.turn, _win_model(state, player))
                decision = _grade(state, move, index, win_model[1])
            else:
                decision = _grade(state, move, index, None)
            decision["rank_loss"] = round(decision["loss"] / rate if decision.get("unit") == UNIT_WIN else decision["loss"], 6)
            seats[player]["decisions"].append(decision)
        turn = state.turn
        state.apply(move, player)
        if state.turn != turn:  # the seat's turn is over: its points are on the pad
            seat = state.last["seat"]
            done = len(state.pad[seat])
            seats[seat]["curve"].append(round(sum(state.pad[seat]) + (ROUNDS - done) * fresh, 4))
    scores = state.scores()
    for s, entry in enumerate(seats):
        decisions = entry["decisions"]
        points = [d["loss"] for d in decisions if "unit" not in d]
        wins = [d["loss"] for d in decisions if d.get("unit") == UNIT_WIN]
        entry["total_loss"] = round(sum(points), 4)
        entry["mean_loss"] = round(sum(points) / len(points), 4) if points else 0.0
        entry["win_loss"] = round(sum(wins), 6)
        entry["win_decisions"] = len(wins)
        costly = sorted((d for d in decisions if d["loss"] >= SHOWN[d.get("unit")]), key=lambda d: (-d["rank_loss"], d["index"]))
        entry["mistakes"] = costly[:top]
        entry["score"] = scores[s]
    every = [d["exact"] for e in seats for d in e["decisions"]]
    certainty = "exact" if all(every) else "estimate" if not any(every) else "mixed"
    return {"game": "geekout", "complete": state.is_terminal(), "certainty": certainty,
            "points_rate": round(rate, 6), "seats": seats}


def _win_model(state, seat: int):
    """For `seat`'s last turn in this position: (policy, low, high, exact) where the policy's values
    are the chance to win scaled to 0..1 (winprob caches it so, by utility up to scale and shift:
    a value v is the chance low + v * (high - low)); None when the result cannot change."""
    scores = state.scores()
    others = [(scores[s], len(state.pad[s]) < ROUNDS) for s in range(state.num_players) if s != seat]
    stop = [winprob.win_share(scores[seat] + triangle(k), others) for k in range(DICE + 1)]
    bust = winprob.win_share(scores[seat], others)
    low, high = min(min(stop), bust), max(max(stop), bust)
    policy = winprob.win_policy(state, seat)
    if policy is None:
        return None
    return policy, low, high, not any(to_play for _, to_play in others)


def _grade(state, move: str, index: int, model) -> dict:
    """One decision: the chosen move's value against the best (model None: expected turn points).
    The best move is picked on the values the Perfect level compares (the win model's scaled
    ones), with `solver.best_move`'s rule: the first of the best in canonical order."""
    raw = solver.move_values(state, None if model is None else model[0])
    top = max(v for _, v in raw)
    best = next(m for m, v in raw if v >= top - 1e-12)
    if model is None:
        shown, exact, digits = dict(raw), True, 4
    else:
        _, low, high, exact = model
        shown, digits = {m: low + v * (high - low) for m, v in raw}, 6
    best_value = max(shown.values())
    chosen = shown[move]  # moves are canonical (the record replayed)
    decision = {
        "index": index, "round": len(state.pad[state.seat]) + 1, "phase": state.phases,
        "kind": state.phase, "active": list(state.active), "inactive": state.inactive, "used": state.used,
        "scored": state.scored, "move": move, "value": round(chosen, digits), "best": best,
        "best_value": round(best_value, digits), "loss": round(max(0.0, best_value - chosen), digits),
        "exact": exact,
    }
    if model is not None:
        decision["unit"] = UNIT_WIN
    return decision


@cache
def points_rate(players: int) -> float:
    """What one point of final total is worth in chance to win, on average, among `players`
    players of the expected-points policy: (S(+h) - S(-h)) / 2h with h = RATE_SPAN, where S(d) is
    a seat's expected share of the victory with d points added to its total (exact from the
    shipped turn-points distribution over the five turns; ties share). A solo game: 1 (a
    single player always wins: nothing is graded in win probability there)."""
    if players < 2:
        return 1.0
    turn = solver.get_policy().turn_points
    total = {0: 1.0}
    for _ in range(ROUNDS):
        step: dict[int, float] = {}
        for x, p in total.items():
            for y, q in turn.items():
                step[x + y] = step.get(x + y, 0.0) + p * q
        total = step
    ordered = sorted(total.items())

    def share(shift: int) -> float:
        out = 0.0
        for x, p in ordered:
            me = x + shift
            below = sum(q for y, q in ordered if y < me)
            equal = total.get(me, 0.0)
            others = players - 1
            out += p * sum(comb(others, k) * equal ** k * below ** (others - k) / (k + 1) for k in range(others + 1))
        return out

    return (share(RATE_SPAN) - share(-RATE_SPAN)) / (2 * RATE_SPAN)
