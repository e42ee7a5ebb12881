"""Penta advisor and post-game review: pure helpers (moves in words, plot geometry).

Tested under CPython; the rendering lives in `dicehall.views.penta`.
"""

from __future__ import annotations


def move_words(t, move: str) -> str:
    """A Penta move in the player's words through the catalog function `t(key, **params)`."""
    word, *args = str(move).split()
    if word == "keep":
        if not args:
            return t("advisor.reroll_all")
        return t("advisor.keep", dice=" ".join(args))
    if word == "score" and args:
        return t("advisor.score", box=t(f"penta.box.{args[0]}"))
    return str(move)


def fmt(value: float) -> str:
    """An expected total as shown: one decimal."""
    return f"{value:.1f}"


def curve_geometry(curves: dict[int, list[float]], width: int = 320, height: int = 200, pad: int = 34):
    """Pixel points for expected-total curves {seat: [values]} on a shared scale.

    Returns (points {seat: [(x, y)]}, low, high, steps): the y range is the values' range
    widened to whole tens so the lines are not squashed against a zero baseline.
    """
    values = [v for c in curves.values() for v in c]
    if not values:
        return {}, 0, 1, 1
    low = int(min(values) // 10 * 10)
    high = int(-(-max(values) // 10) * 10)
    if high <= low:
        high = low + 10
    steps = max((len(c) for c in curves.values()), default=1) - 1 or 1
    pts = {}
    for seat, c in curves.items():
        pts[seat] = [(pad + (width - 2 * pad) * i / steps, height - pad - (height - 2 * pad) * (v - low) / (high - low))
                     for i, v in enumerate(c)]
    return pts, low, high, steps
