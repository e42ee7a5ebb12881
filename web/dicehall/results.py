"""Pure helpers for the results screen (tested under CPython)."""

from __future__ import annotations

from pygame_core.protocol import CHANCE


def progression(record) -> list[list[int]]:
    """Per seat: total score at the start (0) and after each of that seat's completed turns."""
    state = record.new_state()
    series = [[0] for _ in range(state.num_players)]
    for player, move in record.moves:
        state.apply(move, player)
        if player != CHANCE and player not in state.current_players():
            series[player].append(state.scores()[player])
    return series
