"""Pure helpers for the results screen (tested under CPython)."""

from __future__ import annotations

from pygame_core.protocol import CHANCE


def progression(record, ends_turn=None) -> list[list[int]]:
    """Per seat: total score at the start (0) and after each of that seat's completed turns.

    `ends_turn(move)` says whether a move finishes its player's turn (for Penta: writing a box);
    by default a turn ends when the next non-chance move is another seat's (or the game ends).
    """
    state = record.new_state()
    series = [[0] for _ in range(state.num_players)]
    moves = record.moves
    for i, (player, move) in enumerate(moves):
        state.apply(move, player)
        if player == CHANCE:
            continue
        if ends_turn is not None:
            done = ends_turn(move)
        else:
            nxt = next((p for p, _ in moves[i + 1:] if p != CHANCE), None)
            done = nxt != player
        if done:
            series[player].append(state.scores()[player])
    return series
