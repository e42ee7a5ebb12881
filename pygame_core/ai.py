"""AI players: every game's levels (declared by its package), behind one `choose_move` call."""

from __future__ import annotations

import random

from .protocol import CHANCE, IllegalMove, State
from .registry import get_entry


def levels(game: str) -> list[str]:
    """AI level names for `game`, weakest first."""
    return list(get_entry(game).ai_levels)


def default_level(game: str) -> str:
    """The level that makes 'the computer's choice' (auto-fill, strongest play)."""
    return get_entry(game).default_level


def choose_move(state: State, seat: int, level: str | None = None, rng: random.Random | None = None) -> str:
    """The AI's move for `seat`, one of the current seats of `state` (not a chance node)."""
    entry = get_entry(state.game.name)
    if seat not in state.current_players() or seat == CHANCE:
        raise IllegalMove("error.not_your_turn", "It is not your turn.")
    level = level or entry.default_level
    try:
        fn = entry.ai_levels[level]
    except KeyError:
        raise KeyError(f"no AI level {level!r} for {entry.name}; known: {list(entry.ai_levels)}") from None
    return fn(state, seat, rng or random.Random())


def random_level(state: State, seat: int, rng: random.Random) -> str:
    """The 'random' level every game can offer: any legal move."""
    return rng.choice(state.legal_moves(seat))


def self_play(game: str, levels: list[str], seed: int | str, start: int = 0, options: dict | None = None):
    """One whole game with an AI level per seat and seeded dice: (record, final state).

    At a simultaneous choice the current seats move in seat order.
    """
    from .match import Match
    from .rng import DiceRoller

    match = Match.new(game, {**(options or {}), "players": len(levels), "start": start})
    state = match.state
    # Separate streams: the AI's own randomness must not foresee the dice.
    roller, rng = DiceRoller(f"dice:{seed}"), random.Random(f"ai:{seed}")
    while not state.is_terminal():
        if state.is_chance():
            seat, move = CHANCE, roller.roll(state)
        else:
            seat = state.current_players()[0]
            move = choose_move(state, seat, levels[seat], rng)
        match.submit(seat, move, match.index)
        state = match.state
    return match.record, state
