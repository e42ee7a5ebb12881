"""Three more attempts at Rolf's hard level against greedy (issue 10: ≥ 70 %), measured and not kept.

    python bench/rolf_hard_variants.py VARIANT [--games 300] [--seed 11] [--first 0]
    python bench/rolf_hard_variants.py --fit [--games 3000] [--seed 21]      (needs numpy)

VARIANT is `base` (hard as it is), `onpolicy`, `exactreply` or `ply2` / `ply2-close` (below). The
level plays against greedy on the games of `bench/rolf_vs_greedy.py` (the dice of `simulate`,
start seat alternating); prints one JSON object: the win share, its standard error, every game's
result as a string (1 won, 0 lost, h shared: compare two variants game by game, the dice are the
same), and the time of the decisions with a real choice. `--fit` collects two-seat positions
(chance nodes) from medium-vs-greedy games and compares evaluations by held-out log loss.

- onpolicy: the evaluation refitted on positions of games against greedy (medium's games: hard's
  are about 25× slower to collect and medium plays like it, 0.593 against hard's 0.597 on the
  acceptance dice) instead of greedy/easy/medium mixed. `--fit --games 3000 --seed 21`: 25 501
  positions; held-out log loss 0.6348 with ai.py's weights, 0.6344 refitted (weights in
  ONPOLICY), 0.6353 with race features added (each seat's throws to finish, need / expected gain,
  and its log ratio; the chance of an extra throw on a later throw; largest group; groups;
  diagonal squares; first throw of a turn), 0.6364 for a 24-unit MLP on both seats' raw numbers.
  Nothing in the position predicts the winner better than the present six features: the dice
  decide the rest (0.693 is a coin toss).
- exactreply: the opponent's reply in the expectimax as greedy really plays it (points now, no
  damage; ai.py replies as easy, damage counted), my own extra throws as before.
- ply2: the 1-ply search's best K = 2 plans get a second ply: every throw of the next chance node,
  the thrower's reply (exactreply's), then every throw of the chance node after that, its reply,
  and the estimate (56 × 56 leaves a plan). `ply2-close` only where the best two 1-ply values are
  within 0.03. Far too slow for the game (seconds a decision, the browser must answer in 1.5 s);
  run to see whether depth would pay at all.

Measured (CPython 3.11, shared 2-core machine under load, `nice -n 19`; times are wall-clock
under that load, so high):

| variant | games, seed | win share ± se | decision mean / median |
|---|---|---|---|
| base (hard as it is) | 300, 11 | 0.577 ± 0.029 (greedy mirror 0.480) | not timed in that run |
| onpolicy | 300, 11 | 0.577 ± 0.029 | 208 / 188 ms |
| exactreply | 300, 11 | 0.583 ± 0.029 | 245 / 226 ms |
| base | 80 (games 0–79), 11 | 0.600 ± 0.055 | 236 / 202 ms |
| ply2-close | 80 (games 0–79), 11 | 0.613 ± 0.055 | 3 382 / 3 265 ms |

Same dice, so totals compare directly: onpolicy won exactly as many games as base (173 of 300),
exactreply two more (175). ply2-close (395 decisions, the close ones searched two throws deep at
3.4 s each) changed exactly one of the 80 games against base (game 20, won; the per-game strings
are otherwise identical). The base 300 row is `rolf_vs_greedy.py --games 300 --seed 11` (367 s);
the onpolicy, exactreply and base-80 rows come from a draft of this script with the same variant
code; the ply2-close row from this script itself (1 345 s).

None beat the 0.62 screening bar (ply2-close's 0.613 is base's 0.600 plus one game of 80), so
the acceptance command was not run for them; `ply2` without the closeness gate was not run (even
slower). Together
with the notes of `rolf_vs_greedy.py` and `rolf_rollouts.py`: a better estimate of the position
(held-out log loss does not move), an exact model of greedy's reply and a second ply of search
each leave hard where it was, 0.58–0.61 against greedy; the games are races to 100 in which the
dice decide nearly everything.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from pygame_core.ai import choose_move  # noqa: E402
from pygame_core.games.rolf import ai  # noqa: E402
from pygame_core.games.rolf.board import DIAGONAL, groups  # noqa: E402
from pygame_core.games.rolf.features import THROWS, outlook  # noqa: E402
from pygame_core.games.rolf.rules import OUTCOMES  # noqa: E402
from pygame_core.match import Match  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402
from rolf_vs_greedy import play  # noqa: E402

# `--fit --games 3000 --seed 21`: W_TOTAL, W_GAIN, W_DAMAGE, W_MOVER, W_WIN_NEXT, W_WIN_EITHER
ONPOLICY = (0.0165, 0.0342, 0.0054, 0.5516, 2.362, -0.4253)
CLOSE = 0.03  # ply2-close: the second ply only where the best two 1-ply values are this close


# --- the variants --------------------------------------------------------------------------------
def reply_of(work, me: int):
    """The thrower's placements: greedy's (no damage) for the other seat, easy's for me."""
    damage = 1.0 if work.seat == me else 0.0
    return ai.play_plan(work, ai.ordered(work, ai.greedy_plan(work, work.seat, damage)))


def exact_after_throw(state, me: int) -> float:
    """ai.expected_after_throw with reply_of."""
    if state.over:
        return ai.terminal_value(state, me)
    total = 0.0
    for dice, p in OUTCOMES:
        work = state.clone()
        work._throw(dice)
        if not work.rolling:
            work = reply_of(work, me)
        total += p * ai.win_chance(work, me)
    return total


def two_throws(state, me: int) -> float:
    """My chance to win over the next two chance nodes of a confirmed position."""
    total = 0.0
    for dice, p in OUTCOMES:
        work = state.clone()
        work._throw(dice)
        if not work.rolling:
            work = reply_of(work, me)
            if work.over:
                total += p * ai.terminal_value(work, me)
                continue
            work.confirm()
        total += p * exact_after_throw(work, me)
    return total


def apply_variant(variant: str, keep: int = 2) -> None:
    if variant == "onpolicy":
        ai.W_TOTAL, ai.W_GAIN, ai.W_DAMAGE, ai.W_MOVER, ai.W_WIN_NEXT, ai.W_WIN_EITHER = ONPOLICY
    elif variant == "exactreply":
        ai.expected_after_throw = exact_after_throw
    elif variant in ("ply2", "ply2-close"):
        one_ply = ai.search

        def search(state, seat, budget=ai.HARD_BUDGET, top=ai.HARD_PLANS):
            ranked = one_ply(state, seat, budget, top)
            if variant == "ply2-close" and (len(ranked) < 2 or ranked[0][0] - ranked[1][0] > CLOSE):
                return ranked
            out = []
            for _, plan in ranked[:keep]:
                after = ai.play_plan(state, plan)
                if after.over:
                    out.append((ai.terminal_value(after, seat), plan))
                    continue
                after.confirm()
                out.append((two_throws(after, seat), plan))
            out.sort(key=lambda item: -item[0])
            return out + ranked[keep:]

        ai.search = search
    elif variant != "base":
        raise SystemExit(f"unknown variant {variant}")


def screen(variant: str, games: int, seed: int, first: int) -> dict:
    apply_variant(variant)
    times = []
    search = ai.search

    def timed(state, seat, *args, **kwargs):
        started = time.perf_counter()
        ranked = search(state, seat, *args, **kwargs)
        if any(choice for _, _, choice in state.pools):
            times.append(time.perf_counter() - started)
        return ranked

    ai.search = timed
    started = time.perf_counter()
    shares = []
    for index in range(first, first + games):
        shares.append(play(["hard", "greedy"], seed, index)[0])
        print(f"game {index}: {shares[-1]}", file=sys.stderr, flush=True)  # progress
    win = sum(shares) / games
    return {"variant": variant, "games": games, "seed": seed, "first": first, "win_share": round(win, 4),
            "standard_error": round((win * (1 - win) / games) ** 0.5, 4),
            "results": "".join("1" if s == 1 else "0" if s == 0 else "h" for s in shares),
            "decisions": len(times), "mean_ms": round(1000 * statistics.mean(times), 1),
            "median_ms": round(1000 * statistics.median(times), 1),
            "seconds": round(time.perf_counter() - started, 1)}


# --- the on-policy fit ---------------------------------------------------------------------------
def seat_numbers(state, seat: int) -> list[float]:
    """total, expected gain, the same with damage, chance to win on the next throw, the chance a
    later throw of a turn earns an extra throw, largest group, groups, diagonal squares."""
    total = state.total(seat)
    own = state.owners[seat]
    extra = sum(p for p, shape, _, x in THROWS if shape != "different" and not own >> x & 1)
    sizes = sorted((g.bit_count() for g in groups(own)), reverse=True)
    return [total, *outlook(state.owners, seat, state.corner[seat], total), extra,
            sizes[0] if sizes else 0, len(sizes), (own & DIAGONAL).bit_count()]


def collect(games: int, seed: int) -> list:
    rng = random.Random(seed)
    rows = []
    for game in range(games):
        levels = list(rng.choice([("medium", "greedy")]))  # (a one-item draw: it keeps the recorded run's stream)
        if game % 2:
            levels.reverse()
        match = Match.new("rolf", {"players": 2, "start": rng.randrange(2)})
        roller = DiceRoller(f"col:{seed}:{game}")
        found = []
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                if rng.random() < 0.5:
                    found.append((state.seat, state.throw == 0, [seat_numbers(state, s) for s in (0, 1)]))
                match.submit(CHANCE, roller.roll(state), match.index)
                continue
            seat = state.current_player()
            match.submit(seat, choose_move(state, seat, levels[seat], rng), match.index)
        places = match.state.ranking()
        won = 0.5 if places[0] == places[1] else float(places[0] == 1)
        rows += [(game, mover, first, looks, won) for mover, first, looks in found]
    return rows


def features(row, me: int, kind: str) -> tuple[list[float], float]:
    _, mover, first, looks, won = row
    a, b = looks[me], looks[1 - me]
    m, first = float(mover == me), float(first)
    y = won if me == 0 else 1 - won
    if kind == "raw":
        return list(a) + list(b) + [m, first], y
    x = [a[0] - b[0], a[1] - b[1], a[2] - b[2], m - 0.5, m * a[3] - (1 - m) * b[3], a[3] - b[3]]
    if kind == "race":
        ta, tb = max(100 - a[0], 0) / max(a[1], 1.0), max(100 - b[0], 0) / max(b[1], 1.0)
        x += [ta - tb, math.log((ta + 0.3) / (tb + 0.3)), m * a[4] - (1 - m) * b[4], a[5] - b[5], a[6] - b[6],
              a[7] - b[7], first * (m - 0.5)]
    return x, y


def fit(games: int, seed: int) -> dict:
    import numpy as np

    rows = collect(games, seed)

    def build(part, kind):
        pairs = [features(r, me, kind) for r in part for me in (0, 1)]
        return np.array([x for x, _ in pairs], float), np.array([y for _, y in pairs], float)

    def log_loss(p, y):
        p = np.clip(p, 1e-9, 1 - 1e-9)
        return round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 4)

    def logistic(x, y, l2=1e-4):
        x = np.hstack([x, np.ones((len(x), 1))])
        w = np.zeros(x.shape[1])
        for _ in range(40):  # Newton's method
            p = 1 / (1 + np.exp(-x @ w))
            w -= np.linalg.solve((x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w)),
                                 x.T @ (p - y) / len(y) + l2 * w)
        return w

    def predict(x, w):
        return 1 / (1 + np.exp(-np.hstack([x, np.ones((len(x), 1))]) @ w))

    def mlp(x, y, xt, yt, hidden=24, iters=3000, lr=0.01):
        """Best held-out log loss of a one-hidden-layer tanh network (Adam, full batch)."""
        gen = np.random.default_rng(0)
        mu, sd = x.mean(0), x.std(0) + 1e-9
        xs, xts = (x - mu) / sd, (xt - mu) / sd
        params = [gen.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)), np.zeros(hidden),
                  gen.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(())]
        m1 = [np.zeros_like(p) for p in params]
        m2 = [np.zeros_like(p) for p in params]
        best = 9.0
        for t in range(1, iters + 1):
            w1, b1, w2, b2 = params
            h = np.tanh(xs @ w1 + b1)
            dz = (1 / (1 + np.exp(-(h @ w2 + b2))) - y) / len(y)
            dh = np.outer(dz, w2) * (1 - h * h)
            for i, g in enumerate([xs.T @ dh + 1e-4 * w1, dh.sum(0), h.T @ dz, dz.sum()]):
                m1[i] = 0.9 * m1[i] + 0.1 * g
                m2[i] = 0.999 * m2[i] + 0.001 * g * g
                params[i] = params[i] - lr * (m1[i] / (1 - 0.9 ** t)) / (np.sqrt(m2[i] / (1 - 0.999 ** t)) + 1e-8)
            if t % 100 == 0:
                w1, b1, w2, b2 = params
                best = min(best, log_loss(1 / (1 + np.exp(-(np.tanh(xts @ w1 + b1) @ w2 + b2))), yt))
        return best

    train = [r for r in rows if r[0] % 5]
    test = [r for r in rows if not r[0] % 5]
    out = {"positions": len(rows)}
    xt, yt = build(test, "current")
    now = np.array([ai.W_TOTAL, ai.W_GAIN, ai.W_DAMAGE, ai.W_MOVER, ai.W_WIN_NEXT, ai.W_WIN_EITHER])
    out["ai_py_weights_test_log_loss"] = log_loss(1 / (1 + np.exp(-xt @ now)), yt)
    for kind in ("current", "race"):
        w = logistic(*build(train, kind))
        out[kind + "_refit_test_log_loss"] = log_loss(predict(build(test, kind)[0], w), build(test, kind)[1])
        out[kind + "_refit_weights"] = [round(float(v), 4) for v in w]
    out["mlp_test_log_loss"] = mlp(*build(train, "raw"), *build(test, "raw"))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variant", nargs="?", default="base")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--fit", action="store_true", help="the on-policy fit instead (seed 21 in the notes)")
    args = parser.parse_args(argv)
    out = fit(args.games, args.seed) if args.fit else screen(args.variant, args.games, args.seed, args.first)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
