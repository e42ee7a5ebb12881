"""Rolf AI benchmark: how fast each level decides, on real decision points.

    python bench/rolf_decisions.py [--positions 200] [--seed 1] [--levels random,greedy,easy,medium,hard]

Positions are the moves with a real choice (more than one legal move) met in simulated 2- to
4-player games between the medium and hard levels. Every level decides on every position, with
the same seeded random generator; per level: decisions per second, median / p95 / max time of
one decision in ms, and the advise() (hint) time. Hard keeps a per-position plan cache between the
placements of one throw; it is cleared before every decision, so each timing is a cold decision.
Prints one JSON object. The same measurement runs under Pyodide in Node via
bench/rolf_decisions_pyodide.mjs (it imports `measure` from here).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.ai import choose_move  # noqa: E402
from pygame_core.games.rolf import ai as rolf_ai  # noqa: E402
from pygame_core.match import Match  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.registry import get_entry  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402

LEVELS = ("random", "greedy", "easy", "medium", "hard")


def positions(count: int, seed: int) -> list:
    """Decision points with more than one legal move (clones), from simulated games."""
    rng = random.Random(seed)
    found = []
    game = 0
    while len(found) < count:
        players = 2 + game % 3
        match = Match.new("rolf", {"players": players, "start": game % players})
        roller = DiceRoller(f"bench:{seed}:{game}")
        levels = [("medium", "hard")[(game + s) % 2] for s in range(players)]
        while not match.state.is_terminal() and len(found) < count:
            state = match.state
            if state.is_chance():
                match.submit(CHANCE, roller.roll(state), match.index)
                continue
            seat = state.current_player()
            if len(state.legal_moves(seat)) > 1 and rng.random() < 0.5:
                found.append(state.clone())
            match.submit(seat, choose_move(state, seat, levels[seat], rng), match.index)
        game += 1
    return found


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


def summary(times: list[float]) -> dict:
    total = sum(times)
    return {"decisions_per_second": round(len(times) / total, 1) if total else None,
            "median_ms": round(pct(times, 0.5) * 1000, 2), "p95_ms": round(pct(times, 0.95) * 1000, 2),
            "max_ms": round(max(times) * 1000, 2)}


def measure(count: int = 200, seed: int = 1, levels=LEVELS) -> dict:
    states = positions(count, seed)
    entry = get_entry("rolf")
    out = {"python": sys.version.split()[0], "platform": sys.platform, "machine": platform.machine(),
           "positions": len(states), "levels": {}}
    for level in levels:
        fn = entry.ai_levels[level]
        rng = random.Random(seed)
        times = []
        for state in states:
            rolf_ai.clear_cache()
            t0 = time.perf_counter()
            fn(state, state.current_player(), rng)
            times.append(time.perf_counter() - t0)
        out["levels"][level] = summary(times)
    times = []
    for state in states:
        rolf_ai.clear_cache()
        t0 = time.perf_counter()
        entry.advise(state, state.current_player())
        times.append(time.perf_counter() - t0)
    out["advise"] = summary(times)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS))
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.positions, args.seed, args.levels.split(","))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
