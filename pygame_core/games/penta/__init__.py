"""Penta: Yahtzee-style score card with the forced joker (rules: shared/rules/penta.md).

The package: `rules` (the engine), `ai` (beginner and greedy levels), `solver` (the exact
optimal strategy: advisor, review, the "optimal" level) and `data/values.bin` (its table,
loaded lazily in the browser).
"""

from __future__ import annotations

from ...ai import random_level
from ...registry import Asset, GameEntry
from . import ai, solver
from .rules import Penta

GAME = GameEntry(
    rules=Penta,
    ai_levels={
        "random": random_level,
        "beginner": ai.beginner,
        "greedy": ai.greedy,
        "optimal": ai.optimal,
    },
    default_level="optimal",
    setup_level="greedy",  # the middle level ("Medium") is what a new table offers
    assets={"values": Asset(solver.TABLE_FILE, solver.load_table)},
    advise=solver.advise,
    review=solver.review,
    cli_commands=solver.CLI_COMMANDS,
)
