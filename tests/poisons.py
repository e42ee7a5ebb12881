"""The poisons of issue 28's storage attack, shared by the CPython test (tests/web/
test_poisoned_storage.py: every field of every key) and the browser's (tests/browser/
test_poisoned_keys.py: a rotating sample, several keys poisoned at once): a sound value for every
key a player's phone holds, where a poison can go in it, and the value with a poison put there."""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

_WEB = Path(__file__).resolve().parents[1] / "web"
if str(_WEB) not in sys.path:
    sys.path.insert(0, str(_WEB))

from dicehall import shelf  # noqa: E402
from support import mid_game_table  # noqa: E402

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.registry import get_entry  # noqa: E402
from pygame_core.rooms.host import RoomHost  # noqa: E402
from pygame_core.table import Table  # noqa: E402

GUEST_ROOM = "dice-abcdefghijklmnop"
WHOLE = {("table",), ("dice", "throws")}  # poisoned only as a whole (a room's table: the table's key covers it)


def finished_table(game="penta", names=("Ada", "Bo"), seed=1):
    record, _ = self_play(game, [get_entry(game).setup_level] * len(names), seed=seed)
    table = Table(game, [{"name": n, "symbol": "●▲■◆★"[i], "ai": None} for i, n in enumerate(names)])
    table.new_game(random.Random(seed))
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    assert table.state.is_terminal()
    return table


def replay_entry(table) -> dict:
    return {"id": shelf.history_entry(table)["id"], "seats": [dict(s) for s in table.seats],
            "record": table.record.to_json()}


DEEP: object = 1
for _ in range(40):
    DEEP = [DEEP]
POISONS = [[], {}, "x" * 300, 1e999, -1e999, float("nan"), 10**400, True, None, 1.5, DEEP]


def sound_values(created: float = 1_800_000_000.0) -> dict:
    """Sound values; `created`: when the hosted room opened (a browser test passes its now)."""
    table = mid_game_table("penta")
    seats = [{"name": "A", "symbol": "●", "ai": None}, {"name": "B", "symbol": "▲", "ai": "greedy"}]
    return {
        "dicehall.settings": {"lang": "en", "animations": False, "autofill": False},
        "dicehall.setups": {"penta": {"seats": seats, "options": {}}},
        "dicehall.table": table.to_json(),
        "dicehall.parked": {"rolf": mid_game_table("rolf").dumps()},
        "dicehall.history": [shelf.history_entry(finished_table(), when=1_800_000_000)],
        # the record History keeps of that game, for its replay (dicehall/replay.py)
        "dicehall.replays": [replay_entry(finished_table())],
        "dicehall.ui": {"moves": table.match.index},
        # The running game hosted as a room (its save holds the same table), and a room joined.
        "dicehall.room": RoomHost(table, created, "Host").to_json(),
        "dicehall.guest": {"format": "dicehall-guest", "version": 1, "room": GUEST_ROOM, "name": "Eve",
                           "guest": "g" * 16, "secret": "s" * 32},
    }


def paths(value, prefix=(), whole=WHOLE):
    """Where a poison can go: the value itself, and each field (the first 3 items of a list);
    the parts named in `whole` only as a whole (a room's table: the table's own key covers it)."""
    yield prefix
    if prefix in whole:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,), whole)
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from paths(item, prefix + (i,), whole)


def poisoned(value, path, poison):
    if not path:
        return poison
    value = copy.deepcopy(value)
    target = value
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = poison
    return value
