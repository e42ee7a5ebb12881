"""Rolf The Dice: another seat's turn told step by step (issue 29, item 3), and the dice of the last
throw told apart from a throw to come.

A computer's streak shows each throw in words on the prompt ("Throw 2 3 5", or "Throw 2 2 5: no more
squares to choose"; what it allows is the tray's own line under the dice), then each square it
takes, marked on the board before it is taken (`ctx.step`).
Before a throw the tray still holds the last throw's dice, as the rules keep that throw's squares
highlighted until the next throw (`state.chosen`): they are labelled as that throw and whose it was,
dimmed, and the throw's shape ("Three different: two placements") is not shown, since it is no
longer anybody's to place.
"""

from __future__ import annotations

from pygame_core.games.rolf.board import NAMES


def narrate_move(view, t, state, move: str) -> str:
    """A step in words; a throw that cannot be placed (`state` is the position it made) says so."""
    if move.startswith("roll "):
        dice = tuple(int(v) for v in move.split(" ")[1:] if v.isdigit())
        if len(dice) == 3 and state.skipped and state.dice == dice:
            return t("rolf.narrate.skipped", dice=move[5:])
    return view.describe_move(t, move)


def step_square(ctx) -> int | None:
    """The square a computer is about to take (`ctx.step`), to mark on the board."""
    if ctx.step is None:
        return None
    move = ctx.step[1]
    if move.startswith("take ") and move[5:] in NAMES:
        return NAMES.index(move[5:])
    return None


def previous_thrower(state) -> int | None:
    """Whose dice the tray shows before a throw (the last throw's), or None if it shows none."""
    if not state.is_chance() or not state.dice:
        return None
    return state.seat if state.throw else (state.seat - 1) % state.num_players
