"""Per-turn and per-game points of the `optimal` level, on exactly the games of
`python -m pygame_core simulate geekout --players 1 --games G --ai optimal --seed S`
(same seeds, same self-play), checked against the exact value of a fresh turn.

    nice -n 10 python3 bench/geekout_turns.py --games 20000 --seed 1

Prints one JSON object: per-game mean/sd (as `simulate` reports them), per-turn mean/sd, the
solver's exact value and whether it lies in the 99% confidence interval of each mean.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.games.geekout import solver  # noqa: E402

Z99 = 2.5758


def stats(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    return mean, math.sqrt(max(0.0, sum(v * v for v in values) / len(values) - mean * mean))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="optimal")
    args = parser.parse_args()
    exact = solver.get_policy().fresh_turn()
    games, turns = [], []
    started = time.perf_counter()
    for index in range(args.games):
        _, state = self_play("geekout", [args.level], f"{args.seed}:{index}", start=0)
        games.append(state.scores()[0])
        turns.extend(state.pad[0])
    game_mean, game_sd = stats(games)
    turn_mean, turn_sd = stats(turns)
    game_half = Z99 * game_sd / math.sqrt(len(games))
    turn_half = Z99 * turn_sd / math.sqrt(len(turns))
    print(json.dumps({
        "level": args.level, "games": len(games), "turns": len(turns), "seed": args.seed,
        "exact_turn": round(exact, 6), "exact_game": round(5 * exact, 6),
        "game_mean": round(game_mean, 4), "game_sd": round(game_sd, 4), "game_ci99": [round(game_mean - game_half, 4), round(game_mean + game_half, 4)],
        "turn_mean": round(turn_mean, 4), "turn_sd": round(turn_sd, 4), "turn_ci99": [round(turn_mean - turn_half, 4), round(turn_mean + turn_half, 4)],
        "exact_in_game_ci": abs(game_mean - 5 * exact) <= game_half, "exact_in_turn_ci": abs(turn_mean - exact) <= turn_half,
        "seconds": round(time.perf_counter() - started, 1),
    }))


if __name__ == "__main__":
    main()
