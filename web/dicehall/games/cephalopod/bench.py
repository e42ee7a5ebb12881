"""In-page measurement for tests/browser/test_cephalopod_ui.py (called through window.diceHallBench):
Hard's search on given positions in this Pyodide, with the shipped budget."""

from __future__ import annotations

import json
import random
import time


def run(states_json) -> str:
    """`states_json`: a JSON list of `state.to_json()`. Per position: ms, nodes, depth, move."""
    from pygame_core.games.cephalopod import ai
    from pygame_core.registry import get_game

    game = get_game("cephalopod")
    out = []
    for k, data in enumerate(json.loads(str(states_json))):
        state = game.state_from_json(data)
        started = time.perf_counter()
        move, searcher, _ = ai.hard_search(state, random.Random(k))
        ms = (time.perf_counter() - started) * 1000
        out.append({"ms": round(ms, 1), "nodes": searcher.nodes, "depth": searcher.depth_done, "move": move})
    nodes, ms = sum(r["nodes"] for r in out), sum(r["ms"] for r in out)
    return json.dumps({"positions": out, "nodes_per_second": round(nodes / ms * 1000) if ms else None})
