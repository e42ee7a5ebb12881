"""The browser's localStorage as a `store.Store` backend (a missing key is `jsnull`, not None, in
Pyodide 314). Only this module and `browser.py` touch it."""

from __future__ import annotations

from pyscript import window

try:
    from pyscript.ffi import is_none
except ImportError:  # pragma: no cover
    def is_none(value):
        return value is None or repr(value) == "jsnull"


class LocalStorage:
    def get(self, key: str) -> str | None:
        value = window.localStorage.getItem(key)
        return None if value is None or is_none(value) else str(value)

    def set(self, key: str, value: str) -> None:
        window.localStorage.setItem(key, value)

    def remove(self, key: str) -> None:
        window.localStorage.removeItem(key)
