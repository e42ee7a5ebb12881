"""The review of typical RollCraft T8 games (2 players: medium and hard seats, seeded dice): the time
of `review(record)` (pygame_core/games/rollcraft/review.py: Hard's evaluation of every decision,
its search within active turns), with the decisions graded and the moves per game.

    python3 bench/rollcraft_review.py [--games 5] [--seed 0]

Under Pyodide in Node: `node bench/rollcraft_review_pyodide.mjs [games]` (same `measure`). One JSON
object; `cpu_seconds` is the process time (less sensitive than the wall clock to a busy machine).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LEVELS = ["medium", "hard"]


def records(games: int, seed: int):
    from pygame_core.ai import self_play

    return [self_play("rollcraft", LEVELS, f"review:{seed}:{k}", start=k % 2)[0] for k in range(games)]


def measure(games: int = 5, seed: int = 0) -> dict:
    from pygame_core.games.rollcraft.review import review

    made = time.perf_counter()
    games_ = records(games, seed)
    made = time.perf_counter() - made
    rows = []
    for k, record in enumerate(games_):
        started, cpu = time.perf_counter(), time.process_time()
        result = review(record)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        decisions = [d for e in result["seats"] for d in e["decisions"]]
        rows.append({"game": k, "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "moves": len(record.moves),
                     "decisions": len(decisions), "certainty": result["certainty"]})
    times = sorted(r["seconds"] for r in rows)
    cpus = sorted(r["cpu_seconds"] for r in rows)
    return {"levels": LEVELS, "games": rows, "median_seconds": times[len(times) // 2], "max_seconds": times[-1],
            "median_cpu_seconds": cpus[len(cpus) // 2], "max_cpu_seconds": cpus[-1], "records_seconds": round(made, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = measure(args.games, args.seed)
    out["runtime"] = "cpython"
    print(json.dumps(out))


if __name__ == "__main__":
    main()
