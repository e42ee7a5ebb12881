"""Penta advisor benchmark: table size and load time, decision latency, review time.

    python bench/penta_advisor.py [--positions 300] [--seed 1]

Positions are real decision points from simulated 1-seat games (optimal play). Each decision is
timed cold: the per-turn cache is cleared first, so every measurement includes the within-turn
search (what the first advice of a turn costs). Prints one JSON object. The same measurement runs
under Pyodide in Node via bench/penta_advisor_pyodide.mjs (it imports `measure` from here).
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

from pygame_core.ai import choose_move, self_play  # noqa: E402
from pygame_core.games.penta import solver as ps  # noqa: E402
from pygame_core.games.penta.rules import Penta  # noqa: E402
from pygame_core.record import Record  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402

TABLE = ROOT / "pygame_core" / "games" / "penta" / "data" / "values.bin"


def positions(count: int, seed: int) -> list:
    """Decision points (clones) from simulated games, in play order."""
    roller = DiceRoller(seed)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = Penta.new_state({"players": 1})
        while not state.is_terminal() and len(found) < count:
            if state.is_chance():
                state.apply(roller.roll(state))
            else:
                found.append(state.clone())
                state.apply(choose_move(state, state.current_player(), "optimal", rng))
    return found


def five_player_record(seed: int) -> Record:
    return self_play("penta", ["optimal", "greedy", "beginner", "optimal", "greedy"], seed)[0]


def pct(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def measure(count: int = 300, seed: int = 1, table_bytes: bytes | None = None) -> dict:
    started = time.perf_counter()
    data = table_bytes if table_bytes is not None else TABLE.read_bytes()
    read_s = time.perf_counter() - started
    started = time.perf_counter()
    ps.load_table(data)
    load_s = time.perf_counter() - started
    states = positions(count, seed)
    times = []
    for state in states:
        ps._TURNS.clear()
        t0 = time.perf_counter()
        ps.advise(state)
        times.append(time.perf_counter() - t0)
    times.sort()
    warm = []
    for state in states:  # the same decisions again with the turn cache of their turn warm
        ps.advise(state)
        t0 = time.perf_counter()
        ps.advise(state)
        warm.append(time.perf_counter() - t0)
    warm.sort()
    record = five_player_record(seed)
    ps._TURNS.clear()
    t0 = time.perf_counter()
    result = ps.review(record)
    review_s = time.perf_counter() - t0
    decisions = sum(len(s["decisions"]) for s in result["seats"])
    return {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "machine": platform.machine(),
        "table_bytes": len(data),
        "table_values": (len(data) - ps.HEADER.size) // 4,
        "table_read_ms": round(read_s * 1000, 2),
        "table_load_ms": round(load_s * 1000, 2),
        "start_value": round(ps.get_table().start, 4),
        "positions": len(states),
        "advise_cold_ms": {"median": round(pct(times, 0.5) * 1000, 2), "p95": round(pct(times, 0.95) * 1000, 2),
                           "max": round(times[-1] * 1000, 2)},
        "advise_warm_ms": {"median": round(pct(warm, 0.5) * 1000, 3), "p95": round(pct(warm, 0.95) * 1000, 3)},
        "review_5_players_s": round(review_s, 3),
        "review_decisions": decisions,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.positions, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
