# Dice Hall AI worker's Python (run by web/ai-worker.mjs, a plain module worker): AI moves and the
# review of a finished game, off the main thread, for every game. CALLS are the functions the page
# may call (dicehall.browser, dicehall.assets).
import json
import random

from pygame_core import ai
from pygame_core.record import Record
from pygame_core.registry import get_entry, get_game


def choose(game, state_json_str, seat, level, seed):
    """The AI move of `seat` for a state given as `state.to_json()` text."""
    state = get_game(str(game)).state_from_json(json.loads(str(state_json_str)))
    return ai.choose_move(state, int(seat), str(level) if level else None, random.Random(int(seed)))


def review(game, record_json_str):
    """The game's review of a finished record (`record.to_json()` text) as JSON text: the
    game's `review(record)` (docs/ARCHITECTURE.md), seconds of work kept off the page."""
    record = Record.from_json(json.loads(str(record_json_str)))
    if record.game != str(game) or get_entry(record.game).review is None:
        raise ValueError(f"no review of {game}")
    return json.dumps(get_entry(record.game).review(record))


async def load_asset(game, name, url, sha256):
    """Fetch, check (the build's sha256) and install one of a game's lazily loaded data files
    (absolute URL; the page's service worker serves it offline)."""
    import hashlib

    import js

    resp = await js.fetch(str(url))
    if not resp.ok:
        return f"HTTP {resp.status}"
    data = (await resp.arrayBuffer()).to_bytes()
    if hashlib.sha256(data).hexdigest() != str(sha256):
        return "damaged"
    get_entry(str(game)).assets[str(name)].load(data)
    return "loaded"


CALLS = ("choose", "review", "load_asset")
