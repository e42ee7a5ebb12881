"""The seeded dice source: it lives outside the engines and answers their chance nodes."""

from __future__ import annotations

import random

from .protocol import State


class DiceRoller:
    """Rolls the dice a state asks for, reproducibly from a seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def roll(self, state: State) -> str:
        """The chance move for `state`'s current chance node."""
        sides = state.chance()
        if not sides:
            raise ValueError("not a chance node")
        return state.chance_move([self.random.randint(1, s) for s in sides])
