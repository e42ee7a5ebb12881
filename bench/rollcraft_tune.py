"""Coordinate search over the RollCraft T8 evaluation weights (`ai.W`) by solo self-play.

    nice -n 10 python3 bench/rollcraft_tune.py --games 40 --level medium --rounds 2
Each candidate plays the same seeded games (common random numbers); a change is kept when the
mean improves. Prints every trial and the best weights as JSON (copy them into `ai.W`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.games.rollcraft import ai  # noqa: E402


def mean_score(level: str, games: int, seed: int) -> float:
    return sum(self_play("rollcraft", [level], f"tune{seed}:{i}")[1].scores()[0] for i in range(games)) / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keys", default="")
    args = parser.parse_args()
    best = mean_score(args.level, args.games, args.seed)
    print(json.dumps({"start": best, "W": ai.W}), flush=True)
    keys = args.keys.split(",") if args.keys else list(ai.W)
    for _ in range(args.rounds):
        for key in keys:
            base = ai.W[key]
            for factor in (0.5, 1.6):
                ai.W[key] = base * factor
                score = mean_score(args.level, args.games, args.seed)
                print(json.dumps({"key": key, "value": round(ai.W[key], 4), "mean": round(score, 2)}), flush=True)
                if score > best + 0.5:
                    best, base = score, ai.W[key]
                    print(json.dumps({"improved": best, "W": ai.W}), flush=True)
                    break
            ai.W[key] = base
    print(json.dumps({"best": best, "W": ai.W}), flush=True)


if __name__ == "__main__":
    main()
