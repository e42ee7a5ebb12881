"""Geek Out! Masters' exact policy: how long it takes to build and to load, how soon the first
AI decision of a game is ready, and the expected points per turn of every AI level.

    nice -n 10 python3 bench/geekout_policy.py [--build] [--turns 20000]
    node bench/geekout_policy_pyodide.mjs [--build]      (the same under Pyodide)

`optimal`'s value is exact (the solver's); the other levels' are measured over self-played turns
(mean with its 99% confidence half-width).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import choose_move  # noqa: E402
from pygame_core.games.geekout import solver  # noqa: E402
from pygame_core.games.geekout.rules import GeekOut  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402

Z99 = 2.5758


def first_decision() -> dict:
    """From nothing loaded: read and install the table, start a game, throw, choose. (The game
    registry is imported first: that is the app's boot, not the game's start.)"""
    from pygame_core.registry import get_entry

    get_entry("geekout")
    solver._policy = None
    started = time.perf_counter()
    data = solver.table_path().read_bytes()
    solver.load_table(data)
    loaded = time.perf_counter()
    state = GeekOut.new_state({"players": 2})
    state.apply(DiceRoller(1).roll(state), CHANCE)
    move = choose_move(state, 0, "optimal", random.Random(1))
    done = time.perf_counter()
    return {"table_bytes": len(data), "load_ms": round(1000 * (loaded - started), 1),
            "first_decision_ms": round(1000 * (done - started), 1), "move": move}


def level_turns(level: str, turns: int, seed: int) -> dict:
    roller, rng = DiceRoller(f"turns:{seed}:{level}"), random.Random(f"ai:{seed}:{level}")
    points = []
    while len(points) < turns:
        state = GeekOut.new_state({"players": 1})
        while not state.is_terminal():
            if state.is_chance():
                state.apply(roller.roll(state), CHANCE)
            else:
                state.apply(choose_move(state, 0, level, rng), 0)
        points.extend(state.pad[0])
    points = points[:turns]
    mean = sum(points) / len(points)
    sd = math.sqrt(max(0.0, sum(p * p for p in points) / len(points) - mean * mean))
    return {"mean": round(mean, 4), "sd": round(sd, 4), "ci99_half": round(Z99 * sd / math.sqrt(len(points)), 4),
            "turns": len(points)}


def measure(build: bool = False, turns: int = 0, seed: int = 1, partial: int = 4) -> dict:
    out = {"first": first_decision(), "fresh_turn_exact": round(solver.get_policy().fresh_turn(), 6)}
    if partial:
        # The same solver down to `partial` scored 42s only: a comparable slice for runtimes where
        # the whole build takes too long to wait for.
        shipped = solver.get_policy()
        started = time.perf_counter()
        policy, _ = solver.solve(lowest=partial)
        out[f"partial_build_seconds_n_ge_{partial}"] = round(time.perf_counter() - started, 2)
        out["partial_build_matches_shipped"] = max(abs(policy.cont[k] - shipped.cont[k]) for k in policy.cont) < 1e-9
    if build:
        started = time.perf_counter()
        policy, info = solver.solve()
        out["build_seconds"] = round(time.perf_counter() - started, 1)
        out["build_sweeps"] = info["iterations"]
        out["build_matches_shipped"] = max(abs(policy.cont[k] - v) for k, v in solver.get_policy().cont.items()) < 1e-9
    if turns:
        out["levels"] = {level: level_turns(level, turns, seed) for level in ("random", "easy", "medium", "optimal")}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--turns", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--partial", type=int, default=4)
    args = parser.parse_args()
    print(json.dumps({"runtime": "cpython", **measure(args.build, args.turns, args.seed, args.partial)}))


if __name__ == "__main__":
    main()
