"""In-page measurement hook for bench/penta_decision_browser.py (window.diceHallBench)."""

from __future__ import annotations

import json
import time


def advise_times(states_json) -> str:
    """Time `penta_solver.advise` on each state (JSON list of `state.to_json()`): cold and warm, ms."""
    from pygame_core.games import penta_solver as ps
    from pygame_core.registry import GAMES

    if not ps.available():
        return json.dumps({"error": "table not loaded"})
    states = [GAMES["penta"].state_from_json(d) for d in json.loads(str(states_json))]
    cold, warm, best = [], [], []
    for state in states:
        ps._TURNS.clear()  # every decision pays its turn's within-turn search
        t0 = time.perf_counter()
        options = ps.advise(state)
        cold.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        ps.advise(state)
        warm.append((time.perf_counter() - t0) * 1000)
        best.append(options[0]["move"])
    return json.dumps({"cold_ms": cold, "warm_ms": warm, "best": best})


def install(window, create_proxy, keep: list) -> None:
    proxy = create_proxy(advise_times)
    keep.append(proxy)
    window.diceHallBench = proxy
