"""RollCraft T8 (rules: shared/rules/rollcraft-t8.md).

The package: `board` (the printed board, read from the data module `board_1_0`), `sheet` (one
player's zones, stock and bonuses), `rules` (the engine: turns, platter, passive phases) and `ai`
(the levels easy, medium and hard, and the advisor behind the hint button), `review` (the
post-game review: every decision graded with Hard's evaluation).
"""

from __future__ import annotations

from ...ai import random_level
from ...registry import GameEntry
from . import ai, review
from .rules import RollCraft

GAME = GameEntry(
    rules=RollCraft,
    ai_levels={
        "random": random_level,
        "easy": ai.easy,
        "medium": ai.medium,
        "hard": ai.hard,
    },
    default_level="hard",
    setup_level="medium",
    advise=ai.advise,
    review=review.review,
)
