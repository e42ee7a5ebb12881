"""What the app keeps in the browser's storage, as the shell sees it: named keys over a backend.

Storage may be full, blocked or tampered with: reads never raise, writes say whether they
worked, and JSON is bounded before it is parsed (`pygame_core.safejson`). The backend is the
browser's localStorage (`storage.LocalStorage`, the only code that touches it) or, in tests, a
dict; it has `get(key) -> str | None`, `set(key, value)` and `remove(key)`, any of which may
raise. Pure Python.
"""

from __future__ import annotations

import json
import time

from pygame_core import safejson
from pygame_core.schema import Fields, Int, Invalid, ListOf, MapOf, Report, Text

PREFIX = "dicehall."
TABLE = "dicehall.table"  # the running game (pygame_core.table.Table.dumps)
UI = "dicehall.ui"  # the running game's view state, with the move count it belongs to
SETTINGS = "dicehall.settings"
PARKED = "dicehall.parked"  # the other games' unfinished tables (shelf.py)
SETUPS = "dicehall.setups"  # each game's last set-up: seats and options
HISTORY = "dicehall.history"  # finished games, for History and personal bests
REPLAYS = "dicehall.replays"  # the last finished games' records, for replays (replay.py)
ROOM = "dicehall.room"  # the hosted room (with its dice seed and broker token): this phone only
GUEST = "dicehall.guest"  # the room this phone is a guest of: room id, guest id, seat secret
# The keys read through `Store.load` (a checked value, set aside when unsound); the table has its
# own screen for a save that does not load (screens/broken.py), with Export.
CHECKED = (SETTINGS, SETUPS, HISTORY, PARKED, UI, ROOM, GUEST, REPLAYS)
ASIDE = "dicehall.aside"  # stored values that failed their check, kept as they were for Export

MAX_ASIDE_CHARS = 1_000_000  # all texts set aside together; beyond it only the newest are kept
ASIDE_SCHEMA = MapOf(Text(40), Fields({
    "text": Text(MAX_ASIDE_CHARS),
    "problems": ListOf(ListOf(Text(200), 2, 2), 20),
    "when": Int(0, 2**53),
}), 20, salvage=True)

_INVALID = object()


def compact(value) -> str:
    """JSON as stored: no spaces, names kept as they are written."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    def __init__(self, backend, clock=time.time) -> None:
        self.backend = backend
        self.clock = clock
        self.news: list[str] = []  # keys set aside since the shell last said so
        self._aside_here: dict[str, dict] = {}  # set aside while storage would not keep it

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

    # --- checked values ------------------------------------------------------------------------
    def load(self, key: str, schema, default=None):
        """The value stored under `key` as `schema` (pygame_core.schema) accepts it; `default` when
        there is none. A value that is not readable JSON or fails its schema, or parts of it that
        salvage left out, never reach the app: the stored text is set aside as it was (Export in
        Settings) and the key is named in `news`. The key itself is left alone: only the app's
        next write of that value replaces it."""
        text = self.get(key)
        if text is None:
            return default
        report = Report()
        try:
            value = schema.check(safejson.loads(text), "$", report)
        except safejson.TooLarge as err:
            value, report.dropped = default, [("$", err.reason.replace("_", " "))]
        except Invalid as err:
            value, report.dropped = default, [(err.path, err.reason)]
        except (ValueError, RecursionError):
            value, report.dropped = default, [("$", "not readable JSON")]
        if report.dropped:
            self.set_aside(key, text, report.dropped)
        return value

    def aside(self) -> dict[str, dict]:
        """What was set aside, by key: {"text", "problems", "when"}."""
        kept = self.get_json(ASIDE, {})
        try:
            kept = ASIDE_SCHEMA.check(kept)
        except Invalid:
            kept = {}
        return {**kept, **self._aside_here}

    def set_aside(self, key: str, text: str, problems: list[tuple[str, str]]) -> None:
        kept = self.aside()
        if key in kept and kept[key]["text"] == text[:MAX_ASIDE_CHARS]:
            return  # (set aside on an earlier read)
        entry = {"text": text[:MAX_ASIDE_CHARS], "problems": [[p[:200], r[:200]] for p, r in problems[:20]],
                 "when": int(self.clock())}
        kept[key] = entry
        while sum(len(e["text"]) for e in kept.values()) > MAX_ASIDE_CHARS and len(kept) > 1:
            kept.pop(min((k for k in kept if k != key), key=lambda k: kept[k]["when"]))
        if self.put_json(ASIDE, {k: v for k, v in kept.items()}):
            self._aside_here.pop(key, None)
        else:  # storage full or blocked: kept for this visit, still offered for Export
            self._aside_here[key] = entry
        if key not in self.news:
            self.news.append(key)

    def forget_aside(self) -> None:
        self._aside_here.clear()
        self.remove(ASIDE)
