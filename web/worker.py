# Dice Hall AI worker (named "ai"): computes AI moves off the main thread.
import json
import random

from pygame_core import ai
from pygame_core.games import penta_solver
from pygame_core.registry import GAMES


def choose(state_json_str, level, seed):
    """The AI move for a state given as `state.to_json()` text."""
    data = json.loads(str(state_json_str))
    state = GAMES[data["game"]].state_from_json(data)
    return ai.choose_move(state, str(level) if level else None, random.Random(int(seed)))


async def load_penta_table(url):
    """Fetch Penta's solver table (absolute URL; the page's service worker serves it offline)."""
    import js

    resp = await js.fetch(str(url))
    if not resp.ok:
        return "failed"
    penta_solver.load_table((await resp.arrayBuffer()).to_bytes())
    return "loaded"


__export__ = ["choose", "load_penta_table"]
