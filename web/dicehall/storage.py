"""The browser's localStorage as a `store.Store` backend (a missing key is `jsnull`, not None, in
Pyodide 314). Only this module and `browser.py` touch it."""

from __future__ import annotations

import js as window  # the page's global object (see browser.py)
from pyodide.ffi import jsnull


def is_none(value) -> bool:
    """None or JavaScript's null (what `pyscript.ffi.is_none` says, without PyScript's package)."""
    return value is None or value is jsnull


class LocalStorage:
    def get(self, key: str) -> str | None:
        value = window.localStorage.getItem(key)
        return None if value is None or is_none(value) else str(value)

    def set(self, key: str, value: str) -> None:
        window.localStorage.setItem(key, value)

    def remove(self, key: str) -> None:
        window.localStorage.removeItem(key)
