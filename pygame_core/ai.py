"""AI players: every game's levels, behind one `choose_move` call."""

from __future__ import annotations

import random
from typing import Callable

from .protocol import State

# game name -> level -> function(state, rng) -> move
LEVELS: dict[str, dict[str, Callable[[State, random.Random], str]]] = {}


def register(game: str, level: str, fn: Callable[[State, random.Random], str]) -> None:
    LEVELS.setdefault(game, {})[level] = fn


def levels(game: str) -> list[str]:
    """AI level names for `game`, weakest first."""
    return list(LEVELS.get(game, {}))


def default_level(game: str) -> str:
    """The strongest level: what 'the computer's choice' means."""
    return levels(game)[-1]


def choose_move(state: State, level: str | None = None, rng: random.Random | None = None) -> str:
    """The AI's move for the current (non-chance) seat of `state`."""
    game = state.game.name
    level = level or default_level(game)
    try:
        fn = LEVELS[game][level]
    except KeyError:
        raise KeyError(f"no AI level {level!r} for {game}; known: {levels(game)}") from None
    return fn(state, rng or random.Random())


def _random_level(state: State, rng: random.Random) -> str:
    return rng.choice(state.legal_moves())


def _register_builtin() -> None:
    from .games import penta_ai

    register("penta", "random", _random_level)
    register("penta", "beginner", lambda s, r: penta_ai.choose(s, "beginner", r))
    register("penta", "greedy", lambda s, r: penta_ai.choose(s, "greedy", r))
    register("penta", "optimal", _penta_optimal)  # last: the strongest, hence the default


def _penta_optimal(state: State, rng: random.Random) -> str:
    """The exact optimal solitaire strategy (`games/penta_solver.py`).

    Needs the value table: on CPython it is found next to the package; in the browser the front
    end fetches `./data/penta_values.bin` and calls `penta_solver.load_table(bytes)`. Until the
    table is loaded (or if it cannot be), this level plays like "greedy" instead of failing.
    """
    from .games import penta_ai, penta_solver

    if not penta_solver.available():
        return penta_ai.choose(state, "greedy", rng)
    return penta_solver.best_move(state)


_register_builtin()


def self_play(game: str, levels: list[str], seed: int | str, start: int = 0):
    """One whole game with an AI level per seat and seeded dice: (record, final state)."""
    from .record import Record
    from .registry import get_game
    from .rng import DiceRoller
    from .protocol import CHANCE

    record = Record(game, get_game(game).check_options({"players": len(levels), "start": start}))
    state = record.new_state()
    # Separate streams: the AI's own randomness must not foresee the dice.
    roller, rng = DiceRoller(f"dice:{seed}"), random.Random(f"ai:{seed}")
    while not state.is_terminal():
        if state.is_chance():
            player, move = CHANCE, roller.roll(state)
        else:
            player = state.current_player()
            move = choose_move(state, levels[player], rng)
        state.apply(move, player)
        record.moves.append((player, move))
    return record, state
