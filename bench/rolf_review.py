"""Rolf review benchmark: how long `review(record)` takes for whole games.

    python bench/rolf_review.py [--games 6] [--seed 1] [--players 2] [--levels easy,medium]

Records come from seeded self-play (`pygame_core.ai.self_play`, level per seat cycling through
`--levels`, start seat alternating). The default levels have no time limit (Hard's search has
one), so the games are the same on every machine and runtime; easy's choices are often not among
Hard's first plans, as a person's, which costs the review one more expectimax. Per game: moves, graded decisions and the review's time
(wall clock, and CPU time: the machine may be shared); then the median and the maximum. Prints one JSON object. The same measurement runs under Pyodide
in Node (the WebAssembly CPython of the browser's AI worker) via bench/rolf_review_pyodide.mjs.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.games.rolf.review import review  # noqa: E402


def records(games: int, seed: int, players: int, levels: list[str]) -> list:
    out = []
    for game in range(games):
        seats = [levels[(game + s) % len(levels)] for s in range(players)]
        out.append(self_play("rolf", seats, seed=f"review:{seed}:{game}", start=game % players)[0])
    return out


def measure(games: int = 6, seed: int = 1, players: int = 2, levels=("easy", "medium")) -> dict:
    rows = []
    for record in records(games, seed, players, list(levels)):
        t0, c0 = time.perf_counter(), time.process_time()
        result = review(record)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        rows.append({"moves": len(record.moves), "decisions": sum(len(s["decisions"]) for s in result["seats"]),
                     "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3)})
    times = sorted(r["seconds"] for r in rows)
    cpu = sorted(r["cpu_seconds"] for r in rows)
    return {"python": sys.version.split()[0], "platform": sys.platform, "machine": platform.machine(),
            "players": players, "levels": list(levels), "games": rows,
            "median_s": times[len(times) // 2], "max_s": times[-1],
            "median_cpu_s": cpu[len(cpu) // 2], "max_cpu_s": cpu[-1],
            "per_decision_ms": round(1000 * sum(times) / max(1, sum(r["decisions"] for r in rows)), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--levels", default="easy,medium")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.games, args.seed, args.players, args.levels.split(","))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
