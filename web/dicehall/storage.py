"""localStorage access from Python (a missing key is `jsnull`, not None, in Pyodide 314)."""

from __future__ import annotations

import json

from pyscript import window

try:
    from pyscript.ffi import is_none
except ImportError:  # pragma: no cover
    def is_none(value):
        return value is None or repr(value) == "jsnull"

TABLE = "dicehall.table"
UI = "dicehall.ui"
SETTINGS = "dicehall.settings"


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


def get_json(key: str, default=None):
    text = get(key)
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default
