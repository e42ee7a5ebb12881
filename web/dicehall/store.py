"""What the app keeps in the browser's storage, as the shell sees it: named keys over a backend.

Storage may be full, blocked or tampered with: reads never raise, writes say whether they
worked, and JSON is bounded before it is parsed (`pygame_core.safejson`). The backend is the
browser's localStorage (`storage.LocalStorage`, the only code that touches it) or, in tests, a
dict; it has `get(key) -> str | None`, `set(key, value)` and `remove(key)`, any of which may
raise. Pure Python.
"""

from __future__ import annotations

import json

from pygame_core import safejson

TABLE = "dicehall.table"  # the running game (pygame_core.table.Table.dumps)
UI = "dicehall.ui"  # the running game's view state, with the move count it belongs to
SETTINGS = "dicehall.settings"
PARKED = "dicehall.parked"  # the other games' unfinished tables (shelf.py)
SETUPS = "dicehall.setups"  # each game's last set-up: seats and options
HISTORY = "dicehall.history"  # finished games, for History and personal bests
ROOM = "dicehall.room"  # the hosted room (with its dice seed and broker token): this phone only
GUEST = "dicehall.guest"  # the room this phone is a guest of: room id, guest id, seat secret

_INVALID = object()


def compact(value) -> str:
    """JSON as stored: no spaces, names kept as they are written."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    def __init__(self, backend) -> None:
        self.backend = backend

    def get(self, key: str) -> str | None:
        try:
            value = self.backend.get(key)
        except Exception:  # blocked storage reads as empty
            return None
        return None if value is None else str(value)

    def put(self, key: str, value: str) -> bool:
        try:
            self.backend.set(key, value)
            return True
        except Exception:  # full or blocked: the caller says so
            return False

    def remove(self, key: str) -> None:
        try:
            self.backend.remove(key)
        except Exception:
            pass

    def get_json(self, key: str, default=None, invalid=_INVALID):
        """The stored JSON value; `default` when the key is missing, `invalid` (default:
        `default`) when it is not readable JSON."""
        text = self.get(key)
        if text is None:
            return default
        try:
            return safejson.loads(text)
        except (ValueError, RecursionError):
            return default if invalid is _INVALID else invalid

    def put_json(self, key: str, value) -> bool:
        return self.put(key, compact(value))
