"""RollCraft's ending on the results screen: the last round is played (how many rounds depends on
the number of players) and every seat's final sheet, one tap away each (a sheet is taller than a
phone): the winner's open, each summary naming the seat's zone totals. The zones are drawn by the
play screen's own code with nothing to choose."""

from __future__ import annotations

from pygame_core.games.rollcraft.board import ZONES

from ...dom import esc
from ...widgets.seats import seat_label


class RollCraftEnding:
    def reason(self, t, state, seats: list[dict]) -> str:
        if not state.is_terminal():
            return ""
        return t("rollcraft.end.rounds", rounds=t("results.rounds", n=state.rounds), count=state.num_players)

    def round_of(self, state) -> int:
        """`state.round` counts from 1 (a turn is an active turn or a passive phase, not a seat's turn)."""
        return max(0, state.round - 1)

    def picture(self, view, ctx) -> str:
        from .view import word  # the view imports this module

        t, state = ctx.t, ctx.state
        places = state.ranking()
        first = min(range(len(places)), key=lambda s: (places[s], s))
        parts = []
        for seat, sheet in enumerate(state.sheets):
            zones = sheet.zone_scores()
            sums = ", ".join(f"{word(t, 'zone', z)} {zones[i]}" for i, z in enumerate(ZONES))
            body = "".join(
                f'<div class="rc-zone rc-zone-{z}" data-testid="final-zone-{seat}-{z}"><h3>{esc(word(t, "zone", z))} '
                f'<span class="num">{zones[i]}</span></h3>{getattr(view, z)(ctx, sheet, set(), None)}</div>'
                for i, z in enumerate(ZONES))
            parts.append(
                f'<details class="rc-final" data-testid="final-sheet-{seat}"{" open" if seat == first else ""}>'
                f'<summary><span class="rc-final-who">{seat_label(ctx.seats, seat)} '
                f'<strong class="num" data-testid="final-total-{seat}">{sheet.total()}</strong></span> '
                f'<span class="muted small rc-final-sums">{esc(sums)}</span></summary>'
                f'<section class="rc-sheet" aria-label="{esc(t("rollcraft.sheet_of", name=ctx.seats[seat]["name"]))}">{body}</section>'
                f'</details>')
        return "".join(parts)


ENDING = RollCraftEnding()
