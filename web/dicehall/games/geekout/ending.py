"""Geek Out's ending on the results screen: the five rounds are played, every player had the same
number of turns (the contract has no target score: 4.2 and 4.4 of the rules), and the final score
pad of every player, drawn by the play screen's own pad."""

from __future__ import annotations

from pygame_core.games.geekout.rules import ROUNDS


class GeekOutEnding:
    def reason(self, t, state, seats: list[dict]) -> str:
        if not state.is_terminal():
            return ""
        return t("geekout.end.rounds", rounds=t("results.rounds", n=ROUNDS), turns=t("results.turns", n=ROUNDS))

    def picture(self, view, ctx) -> str:
        return view.render_pad(ctx)


ENDING = GeekOutEnding()
