"""Cephalopod AI benchmark: search nodes per second, Hard's time per move, playouts per second.

    python bench/cephalopod_ai.py [--positions 40] [--seed 1] [--nodes 25000] [--seconds 1.0]

Positions are decision points of seeded Medium-vs-Medium 5×5 games (every 3rd ply). For each,
Hard searches with the shipped budget (`--nodes`, `--seconds`: a node budget, capped by time):
nodes, seconds, depth reached, proven or not. Also: random playouts per second (flatmc's unit of
work). Prints one JSON object; bench/cephalopod_ai_pyodide.mjs runs the same `measure` under
Pyodide in Node.
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

from pygame_core.games.cephalopod import ai  # noqa: E402
from pygame_core.games.cephalopod.rules import Cephalopod  # noqa: E402
from pygame_core.games.cephalopod.search import playout_margin  # noqa: E402


def positions(count: int, seed: int) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = Cephalopod.new_state({"players": 2, "start": len(found) % 2})
        while not state.is_terminal() and len(found) < count:
            if state.plies % 3 == 1:
                found.append(state.clone())
            state.apply(ai.medium(state, state.to_move, rng))
    return found


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


def measure(count: int = 40, seed: int = 1, nodes: int = ai.HARD_NODES, seconds: float = ai.HARD_SECONDS) -> dict:
    states = positions(count, seed)
    times, node_counts, depths, proven = [], [], [], 0
    for k, state in enumerate(states):
        started = time.perf_counter()
        _, searcher, _ = ai.hard_search(state, random.Random(k), node_limit=nodes, time_limit=seconds)
        times.append(time.perf_counter() - started)
        node_counts.append(searcher.nodes)
        depths.append(searcher.depth_done)
        proven += searcher.solved
    rng = random.Random(seed)
    start_pos = Cephalopod.new_state({"players": 2}).position()
    started = time.perf_counter()
    playouts = 0
    while time.perf_counter() - started < 1.0:
        playout_margin(start_pos, rng.random)
        playouts += 1
    playout_seconds = time.perf_counter() - started
    total = sum(times)
    return {
        "bench": "cephalopod_ai",
        "python": platform.python_version(),
        "platform": sys.platform,
        "positions": len(states),
        "budget": {"nodes": nodes, "seconds": seconds},
        "hard_nodes_per_second": round(sum(node_counts) / total) if total else None,
        "hard_seconds": {"mean": round(total / len(times), 3), "p50": round(pct(times, 0.5), 3),
                         "p95": round(pct(times, 0.95), 3), "max": round(max(times), 3)},
        "hard_depth": {"mean": round(sum(depths) / len(depths), 1), "max": max(depths)},
        "proven": proven,
        "time_capped": sum(1 for t in times if t >= 0.98 * seconds),
        "playouts_per_second_from_empty": round(playouts / playout_seconds),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=ai.HARD_NODES)
    parser.add_argument("--seconds", type=float, default=ai.HARD_SECONDS)
    args = parser.parse_args()
    print(json.dumps(measure(args.positions, args.seed, args.nodes, args.seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
