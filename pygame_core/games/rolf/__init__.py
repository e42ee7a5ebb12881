"""Rolf The Dice (rules: shared/rules/rolf-the-dice.md).

The package: `board` (bitboard geometry and group scoring), `rules` (the engine) and `ai` (the
levels random, greedy, easy, medium and hard, and the advisor behind the hint button) and `review`
(every decision of a finished game graded by Hard's search).
"""

from __future__ import annotations

from ...ai import random_level
from ...registry import GameEntry
from . import ai, review
from .rules import Rolf

GAME = GameEntry(
    rules=Rolf,
    ai_levels={
        "random": random_level,
        "greedy": ai.greedy,
        "easy": ai.easy,
        "medium": ai.medium,
        "hard": ai.hard,
    },
    default_level="hard",
    setup_level="medium",
    advise=ai.advise,
    review=review.review,
)
