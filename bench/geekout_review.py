"""The review of typical Geek Out! Masters games (3 players: medium, easy and optimal seats, seeded
dice): the time of `review(record)` (wall and CPU: the machine may be shared) from a cold start
of the win-probability model (its compiled graph and its solve cache empty), the number of
last-turn solves it needed, and the decisions graded per unit.

    python3 bench/geekout_review.py [--games 5] [--seed 0] [--plain]

`--plain` hides numpy, so CPython runs the plain-Python solver Pyodide runs. Under Pyodide in
Node: `node bench/geekout_review_pyodide.mjs` (same `measure`). One JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LEVELS = ["medium", "easy", "optimal"]


def records(games: int, seed: int):
    from pygame_core.ai import self_play

    return [self_play("geekout", LEVELS, f"review:{seed}:{k}", start=k % 3)[0] for k in range(games)]


def review_once(record) -> dict:
    """One review from a cold win-probability model: its time (wall and CPU) and what it graded."""
    from pygame_core.games.geekout import review, winprob

    winprob._graph = None  # cold: the worker may have built neither for this game
    winprob._cache.clear()
    started, cpu = time.perf_counter(), time.process_time()
    result = review.review(record)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    decisions = [d for e in result["seats"] for d in e["decisions"]]
    return {"seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "moves": len(record.moves),
            "decisions": len(decisions), "win_decisions": sum(d.get("unit") == "win" for d in decisions),
            "solves": len(winprob._cache), "certainty": result["certainty"]}


def summary(rows: list[dict]) -> dict:
    def median(key):
        values = sorted(r[key] for r in rows)
        return values[len(values) // 2]

    return {"levels": LEVELS, "games": rows, "median_seconds": median("seconds"),
            "max_seconds": max(r["seconds"] for r in rows), "median_cpu_seconds": median("cpu_seconds"),
            "max_cpu_seconds": max(r["cpu_seconds"] for r in rows)}


def measure(games: int = 5, seed: int = 0) -> dict:
    from pygame_core.games.geekout import solver

    solver.get_policy()
    made = time.perf_counter()
    games_ = records(games, seed)
    made = time.perf_counter() - made
    rows = [{"game": k, **review_once(record)} for k, record in enumerate(games_)]
    return {**summary(rows), "records_seconds": round(made, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plain", action="store_true", help="without numpy (the solver Pyodide runs)")
    args = parser.parse_args()
    if args.plain:
        sys.modules["numpy"] = None  # import numpy raises ImportError: the plain solver
    out = measure(args.games, args.seed)
    out["runtime"] = "cpython" + (" (plain)" if args.plain else " (numpy)")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
