"""Cephalopod: place dice, capture neighbours summing to six or less (rules: shared/rules/cephalopod.md).

The package: `core` (geometry, capture tables, the make/unmake position), `rules` (the engine and
its notation), `perft` (move-path counts: the `perft` CLI command), `search` (alpha-beta with a
transposition table, endgame solver, playouts), `ai` (the levels and hints) and `review` (the
post-game review with Hard's search, exact where the endgame solver proves it).
"""

from __future__ import annotations

from ...ai import random_level
from ...registry import GameEntry
from . import ai, perft
from .rules import Cephalopod

GAME = GameEntry(
    rules=Cephalopod,
    ai_levels={
        "random": random_level,
        "flatmc": ai.flatmc,
        "easy": ai.easy,
        "medium": ai.medium,
        "hard": ai.hard,
    },
    default_level="hard",
    setup_level="medium",
    advise=ai.advise,
    review=ai.review,
    cli_commands=perft.CLI_COMMANDS,
    measuring_levels=("flatmc",),  # a flat Monte-Carlo baseline kept for bench/ and the CLI
)
