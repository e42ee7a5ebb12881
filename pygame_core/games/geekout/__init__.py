"""Geek Out! Masters (rules: shared/rules/geek-out-masters.md).

The package: `rules` (the engine), `solver` (the exact expected-points policy of a turn: the
advisor and the "optimal" level; its table `data/policy.bin` is loaded lazily in the browser),
`winprob` (the "perfect" level: the last turn played for the chance to win), `ai` (the levels) and
`review` (every decision of a finished game graded against the Perfect level).
"""

from __future__ import annotations

from ...ai import random_level
from ...registry import Asset, GameEntry
from . import ai, review, solver
from .rules import GeekOut

GAME = GameEntry(
    rules=GeekOut,
    ai_levels={
        "random": random_level,
        "easy": ai.easy,
        "medium": ai.medium,
        "optimal": ai.optimal,
        "perfect": ai.perfect,
    },
    default_level="optimal",
    setup_level="medium",
    assets={"policy": Asset(solver.TABLE_FILE, solver.load_table)},
    advise=solver.advise,
    review=review.review,
    cli_commands=solver.CLI_COMMANDS,
)
