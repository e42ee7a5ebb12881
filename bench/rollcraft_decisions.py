"""Decision times of the RollCraft T8 AI levels and of the hint (`advise`) on CPython, over the
positions of self-play games (solo and three players).

    nice -n 10 python3 bench/rollcraft_decisions.py --games 5
Pyodide in the browser is a few times slower than CPython: the hint runs on the main thread and
must stay well under 100 ms there; the levels run in the worker.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import choose_move, self_play  # noqa: E402
from pygame_core.games.rollcraft import ai  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402


def stats(samples: list[float]) -> dict:
    samples = sorted(samples)
    n = len(samples)
    return {"n": n, "mean_ms": round(sum(samples) / n, 2), "p95_ms": round(samples[int(n * 0.95)], 2),
            "max_ms": round(samples[-1], 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    out = {}
    for players in (1, 3):
        positions = []
        for g in range(args.games):
            record, _ = self_play("rollcraft", ["medium"] * players, f"decisions:{players}:{g}")
            for seat, move, before in record.states():
                if seat != CHANCE:
                    positions.append((before, seat))
        for level in ("easy", "medium", "hard"):
            rng = random.Random(1)
            times = []
            for state, seat in positions:
                started = time.perf_counter()
                choose_move(state, seat, level, rng)
                times.append(1000 * (time.perf_counter() - started))
            out[f"{level}/{players}p"] = stats(times)
        times = []
        for state, seat in positions:
            started = time.perf_counter()
            ai.advise(state, seat)
            times.append(1000 * (time.perf_counter() - started))
        out[f"advise/{players}p"] = stats(times)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
