"""In-page measurement for bench/penta_decision_browser.py (called through window.diceHallBench)."""

from __future__ import annotations

import json
import time


def run(states_json) -> str:
    """Time `solver.advise` on each state (JSON list of `state.to_json()`): cold and warm, ms."""
    from pygame_core.games.penta import solver
    from pygame_core.registry import get_game

    if not solver.available():
        return json.dumps({"error": "table not loaded"})
    states = [get_game("penta").state_from_json(d) for d in json.loads(str(states_json))]
    cold, warm, best = [], [], []
    for state in states:
        solver._TURNS.clear()  # every decision pays its turn's within-turn search
        t0 = time.perf_counter()
        options = solver.advise(state)
        cold.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        solver.advise(state)
        warm.append((time.perf_counter() - t0) * 1000)
        best.append(options[0]["move"])
    return json.dumps({"cold_ms": cold, "warm_ms": warm, "best": best})
