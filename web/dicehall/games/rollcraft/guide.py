"""RollCraft's guided first turn (widgets/guide.py): the dice, the silver platter, the zones and
the saved actions, pointed at by the data-testids the view already draws (view.py keeps one line
for it: `guide = first_turn`)."""

from __future__ import annotations

from pygame_core.games.rollcraft.rules import CHOOSE

from ...widgets.guide import Guide, Step

FIRST_TURN = Guide("rollcraft.first_turn", (
    Step("dice-group", "rollcraft.guide.dice"),
    Step("dice-platter", "rollcraft.guide.platter"),
    Step("tab-grey", "rollcraft.guide.zones", around=True),  # the row of zone tabs
    Step("stock-reroll", "rollcraft.guide.actions", around=True),  # the list of saved actions
))


def first_turn(view, ctx) -> Guide | None:
    """Offered when a person at this screen chooses from their own throw, on their own sheet."""
    state = ctx.state
    if ctx.seat is None or state.is_terminal() or state.is_chance() or state.phase != CHOOSE:
        return None
    if ctx.view_seat not in (None, ctx.seat):
        return None
    return FIRST_TURN
