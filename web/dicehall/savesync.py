"""One game, one writer: how this tab's table relates to the one saved in storage.

Every tab saves after every move, so a tab that fell behind (it missed another tab's moves, or
rolled the same turn itself) must never overwrite a longer or different history: it takes the
saved one over instead. Pure Python (tested under CPython).
"""

from __future__ import annotations

from pygame_core import safejson


def saved_history(text: str) -> tuple | None:
    """(table id, start seats, moves) of a saved table without replaying it; None if unreadable."""
    try:
        data = safejson.loads(text)
        record = data.get("record") or {}
        return data.get("table_id"), list(data["start_seats"]), list(record.get("moves") or [])
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def _prefix(short: list, long: list) -> bool:
    return long[: len(short)] == short


def relation(stored_text: str | None, ours) -> str:
    """'none' (nothing saved), 'same', 'ahead' (this tab has more: save it), 'behind' (storage
    has more of this table), 'diverged' (both moved on differently) or 'other' (another table).
    An unreadable save counts as 'ahead': a sound table replaces a broken one."""
    if stored_text is None:
        return "none"
    saved = saved_history(stored_text)
    if saved is None:
        return "ahead"
    saved_id, saved_starts, saved_moves = saved
    our_id, our_starts, our_moves = ours.history()
    if saved_id is not None and saved_id != our_id:
        return "other"
    if saved_starts != our_starts:  # "play again" was pressed in one of them
        if len(our_starts) > len(saved_starts) and _prefix(saved_starts, our_starts):
            return "ahead"
        if len(saved_starts) > len(our_starts) and _prefix(our_starts, saved_starts):
            return "behind"
        return "diverged"
    if saved_moves == our_moves:
        return "same"
    if _prefix(saved_moves, our_moves):
        return "ahead"
    if _prefix(our_moves, saved_moves):
        return "behind"
    return "diverged"
