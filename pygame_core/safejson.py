"""JSON from storage or files, bounded before it is parsed.

A crafted file nested thousands of levels deep crashes the Python runtime in the browser
(recursion in the parser), and a huge one freezes it; both are refused here first, with a
reason a player can be told.
"""

from __future__ import annotations

import json
import re

MAX_CHARS = 2_000_000  # a 5-player game record is ~10 KB; a save with standings far less than this
MAX_DEPTH = 24  # the deepest real structure (a save: table > record > moves > move) is 5

_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_BRACKETS = re.compile(r"[\[\]{}]")


class TooLarge(ValueError):
    """`reason` is "too_big" or "too_deep"."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"JSON refused: {reason}")
        self.reason = reason


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub('""', text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads(text: object, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH):
    """`json.loads` for untrusted text: TooLarge if too long or too deep, ValueError if not JSON."""
    if not isinstance(text, str):
        raise ValueError("not text")
    if len(text) > max_chars:
        raise TooLarge("too_big")
    if nesting(text) > max_depth:
        raise TooLarge("too_deep")
    return json.loads(text)


def exact_int(value, low: int, high: int) -> int:
    """`value` if it is a JSON integer (never a bool, never 1.5) within [low, high]; ValueError
    otherwise. `int()` of a stored value took 1.5 as 1 and raised OverflowError on 1e999, an
    error no loader caught (the app then could not start)."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"not a whole number from {low} to {high}: {str(value)[:40]}")
    return value
