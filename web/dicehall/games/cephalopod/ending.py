"""Cephalopod's ending on the results screen: the board is full, and who has more dice on it; the
final 5×5 (or 3×3, 4×4) board drawn by the play screen's own board code, nothing to choose."""

from __future__ import annotations

from pygame_core.games.cephalopod.rules import SEATS


class CephalopodEnding:
    def reason(self, t, state, seats: list[dict]) -> str:
        """A game ends only when every square holds a die; the score is each colour's dice."""
        if not state.is_terminal():
            return ""
        squares = state.geo.n
        scores = state.scores()
        if scores[0] == scores[1]:
            return t("cephalopod.end.tie", squares=squares, n=scores[0])
        win = 0 if scores[0] > scores[1] else 1
        return t("cephalopod.end.full", squares=squares, name=seats[win]["name"], colour=t(SEATS[win]),
                 a=scores[win], b=scores[1 - win])

    def picture(self, view, ctx) -> str:
        state = ctx.state
        ui = view.check_ui({}, state)
        return (f'{view.legend(ctx)}<div class="board cephalopod-board" data-testid="final-board">'
                f'{view.render_board(ctx, state, ui, person=False, picking=False)}</div>')


ENDING = CephalopodEnding()
