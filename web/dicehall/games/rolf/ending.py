"""Rolf's ending on the results screen: why the game ended (a direct win by the full diagonal or by
100 points, or the last empty square off the diagonal taken) and the final board, drawn by the
play screen's own board code with nothing to choose (`GameView.end_reason` / `final_picture`)."""

from __future__ import annotations

from pygame_core.games.rolf.board import DIAGONAL

from ...dom import esc


class RolfEnding:
    def reason(self, t, state, seats: list[dict]) -> str:
        """The engine's facts: `winner` (a direct win, section 7) or `end_seat` (section 8).
        A placement that both fills the board and wins directly counts as the direct win."""
        if state.winner is not None:
            seat = state.winner
            name = seats[seat]["name"]
            if state.owners[seat] & DIAGONAL == DIAGONAL:
                return t("rolf.end.diagonal", name=name)
            return t("rolf.end.points", name=name, total=state.total(seat))
        if state.end_seat is not None:
            return t("rolf.end.full", name=seats[state.end_seat]["name"])
        return ""

    def picture(self, view, ctx) -> str:
        """The 6×6 board as it ended, the last throw's squares outlined as in play."""
        return (f'<div class="board rolf-board" data-testid="final-board">{view.render_board(ctx)}'
                f'<p class="note muted rolf-axes">{esc(ctx.t("rolf.axes"))}</p></div>')


ENDING = RolfEnding()
