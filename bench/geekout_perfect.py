"""The Perfect level (plays its last turn for the chance to win the game) against the
expected-points level `optimal`, in 2-player games with the start seat alternating.

    nice -n 10 python3 bench/geekout_perfect.py --games 2000 --seed 1

Prints one JSON object: Perfect's share of the victories (ties split) with its 99% confidence
interval, mean scores, how many exact win-probability solves were needed, and a check that the
same solver reproduces the shipped expected-points values when given expected points as utility.
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
from pygame_core.games.geekout import solver, winprob  # noqa: E402
from pygame_core.games.geekout.rules import triangle  # noqa: E402

Z99 = 2.5758


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    graph = winprob.graph()
    check = graph.solve([float(triangle(n)) for n in range(11)], 0.0)
    shipped = solver.get_policy()
    check_error = max(abs(a - b) for a, b in zip(check.values, shipped.values))
    setup = time.perf_counter() - started
    shares, perfect_scores, optimal_scores = [], [], []
    for index in range(args.games):
        perfect_seat = index % 2
        levels = ["perfect", "optimal"] if perfect_seat == 0 else ["optimal", "perfect"]
        _, state = self_play("geekout", levels, f"perfect:{args.seed}:{index}", start=(index // 2) % 2)
        scores = state.scores()
        mine, theirs = scores[perfect_seat], scores[1 - perfect_seat]
        shares.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
        perfect_scores.append(mine)
        optimal_scores.append(theirs)
        if (index + 1) % 100 == 0:  # progress (stderr): games so far and Perfect's share
            print(json.dumps({"games": index + 1, "perfect_win_share": round(sum(shares) / len(shares), 4),
                              "solves": len(winprob._cache), "seconds": round(time.perf_counter() - started, 1)}),
                  file=sys.stderr, flush=True)
    n = len(shares)
    mean = sum(shares) / n
    sd = math.sqrt(max(0.0, sum(s * s for s in shares) / n - mean * mean))
    half = Z99 * sd / math.sqrt(n)
    print(json.dumps({
        "games": n, "seed": args.seed,
        "perfect_win_share": round(mean, 4), "ci99": [round(mean - half, 4), round(mean + half, 4)],
        "perfect_mean_score": round(sum(perfect_scores) / n, 3), "optimal_mean_score": round(sum(optimal_scores) / n, 3),
        "win_probability_solves": len(winprob._cache),
        "expected_points_check_max_error": check_error,
        "setup_seconds": round(setup, 1), "seconds": round(time.perf_counter() - started, 1),
    }))


if __name__ == "__main__":
    main()
