"""localStorage access from Python (a missing key is `jsnull`, not None, in Pyodide 314).

Storage may be full, blocked or tampered with: reads never raise, writes say whether they
worked, and JSON is bounded before it is parsed.
"""

from __future__ import annotations

from pyscript import window

from pygame_core import safejson

try:
    from pyscript.ffi import is_none
except ImportError:  # pragma: no cover
    def is_none(value):
        return value is None or repr(value) == "jsnull"

TABLE = "dicehall.table"
UI = "dicehall.ui"
SETTINGS = "dicehall.settings"
PARKED = "dicehall.parked"  # the other games' unfinished tables (shelf.py)
SETUPS = "dicehall.setups"  # each game's last set-up: names remembered
HISTORY = "dicehall.history"  # finished games, for personal bests


def get(key: str) -> str | None:
    try:
        value = window.localStorage.getItem(key)
    except Exception:
        return None
    if value is None or is_none(value):
        return None
    return str(value)


def put(key: str, value: str) -> bool:
    try:
        window.localStorage.setItem(key, value)
        return True
    except Exception:
        return False


def remove(key: str) -> None:
    try:
        window.localStorage.removeItem(key)
    except Exception:
        pass


_INVALID = object()


def get_json(key: str, default=None, invalid=_INVALID):
    """The stored JSON value; `default` when the key is missing, `invalid` (default: `default`)
    when it is not readable JSON."""
    text = get(key)
    if text is None:
        return default
    try:
        return safejson.loads(text)
    except (ValueError, RecursionError):
        return default if invalid is _INVALID else invalid
