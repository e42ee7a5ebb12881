"""How the weights of Rolf's `win_chance` (pygame_core/games/rolf/ai.py) were obtained.

    python bench/rolf_fit_eval.py [--games 3000] [--seed 2]                  (two seats)
    python bench/rolf_fit_eval.py --players 3,4,5 [--games 1500] [--seed 4]  (three to five seats)
                                                            (needs numpy; development only)

Plays two-seat games between the greedy, easy and medium levels (each move random with a small
probability, for variety), keeps half of the positions where the dice are about to be thrown, and
fits a logistic regression of "this seat wins" on the differences between the seat and its opponent:
total points, expected own gain of the next throw, the same with the damage of steals counted,
the chance that the seat to throw next wins on that throw, and who throws next (both seats'
views of every position, so the fit is symmetric). Prints the weights and the log loss on a
held-out fifth of the games. The run behind the weights in ai.py (3000 games, seed 2): 26 996
positions, test log loss 0.636 (0.693 is a coin toss: the dice decide much of this game).

With three to five seats most games end with the board full, not at 100, so that fit has its own
features (MULTI_NAMES): the differences to the strongest other seat, the lead scaled by how few
empty off-diagonal squares are left, and the number of seats.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.ai import choose_move  # noqa: E402
from pygame_core.games.rolf.board import OFF_DIAGONAL  # noqa: E402
from pygame_core.games.rolf.features import outlook  # noqa: E402
from pygame_core.match import Match  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402

NAMES = ["total", "gain", "damage", "mover", "win_next", "win_either"]
MULTI_NAMES = ["total", "gain", "damage", "i_move", "they_move", "win_next", "lead_by_empty", "seats_3", "seats_4", "seats_5"]


def seat_numbers(state, seat: int) -> list[float]:
    total = state.total(seat)
    return [total, *outlook(state.owners, seat, state.corner[seat], total)]


def collect(games: int, seed: int, seats=(2,)) -> list:
    rng = random.Random(seed)
    rows = []
    for game in range(games):
        n = seats[game % len(seats)]
        levels = [rng.choice(["greedy", "easy", "medium"]) for _ in range(n)]
        noise = rng.choice([0.0, 0.05, 0.15])
        match = Match.new("rolf", {"players": n, "start": game % n})
        roller = DiceRoller(f"fit:{seed}:{game}")
        found = []
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                if rng.random() < 0.5:
                    empty = 30 - (state.occupied() & OFF_DIAGONAL).bit_count()
                    found.append((state.seat, empty, [seat_numbers(state, s) for s in range(n)]))
                match.submit(CHANCE, roller.roll(state), match.index)
                continue
            seat = state.current_player()
            moves = state.legal_moves(seat)
            move = rng.choice(moves) if rng.random() < noise else choose_move(state, seat, levels[seat], rng)
            match.submit(seat, move, match.index)
        places = match.state.ranking()
        rows += [(game, mover, empty, looks, places) for mover, empty, looks in found]
    return rows


def design(rows):
    import numpy as np

    x, y = [], []
    for _, mover, _, (f0, f1), places in rows:
        if places[0] == places[1]:
            continue
        for me in (0, 1):
            a, b = (f0, f1) if me == 0 else (f1, f0)
            m = 1.0 if mover == me else 0.0
            x.append([a[0] - b[0], a[1] - b[1], a[2] - b[2], m - 0.5, m * a[3] - (1 - m) * b[3], a[3] - b[3]])
            y.append(1.0 if places[me] == 1 else 0.0)
    return np.array(x), np.array(y)


def strongest_other(looks: list, me: int) -> int:
    """The other seat nearest to 100 over its next throw (as ai.win_chance picks it)."""
    return max((s for s in range(len(looks)) if s != me), key=lambda s: looks[s][0] + looks[s][1])


def multi_features(looks: list, me: int, mover: int, empty: int) -> list[float]:
    """ai.win_chance's features with three to five seats (MULTI_NAMES)."""
    n = len(looks)
    other = strongest_other(looks, me)
    a, b = looks[me], looks[other]
    i_move, they_move = float(mover == me), float(mover == other)
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2], i_move, they_move, i_move * a[3] - they_move * b[3],
            (a[0] - b[0]) / (empty + 1), float(n == 3), float(n == 4), float(n == 5)]


def design_multi(rows):
    import numpy as np

    x, y = [], []
    for _, mover, empty, looks, places in rows:
        for me in range(len(looks)):
            x.append(multi_features(looks, me, mover, empty))
            y.append(1.0 / places.count(1) if places[me] == 1 else 0.0)  # a shared win shares the label
    return np.array(x), np.array(y)


def fit(x, y, l2: float = 1e-4):
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(30):  # Newton's method
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(x, y, w) -> float:
    import numpy as np

    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--players", default="2", help="seat counts, e.g. 3,4,5")
    args = parser.parse_args(argv)
    seats = tuple(int(n) for n in args.players.split(","))
    rows = collect(args.games, args.seed, seats)
    train = [r for r in rows if r[0] % 5]
    test = [r for r in rows if not r[0] % 5]
    build, names = (design, NAMES) if seats == (2,) else (design_multi, MULTI_NAMES)
    w = fit(*build(train))
    print(json.dumps({"positions": len(rows), "weights": dict(zip(names, [round(float(v), 4) for v in w])),
                      "train_log_loss": round(log_loss(*build(train), w), 4),
                      "test_log_loss": round(log_loss(*build(test), w), 4)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
