"""Penta's ending on the results screen: every box of every card is filled (13 rounds), and every
seat's final card side by side: each box's points, the sums and bonuses, the totals (read-only:
the play screen's card is built around the current seat's choice)."""

from __future__ import annotations

from pygame_core.games.penta.rules import (
    BOXES,
    LOWER,
    PENTA_BONUS,
    ROUNDS,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    upper_total,
)

from ...dom import esc
from ...widgets.scorecard import score_table


class PentaEnding:
    def reason(self, t, state, seats: list[dict]) -> str:
        if not state.is_terminal():
            return ""
        return t("penta.end.filled", rounds=t("results.rounds", n=ROUNDS))

    def picture(self, view, ctx) -> str:
        t, state = ctx.t, ctx.state
        n = state.num_players
        rows = []
        for box in BOXES:
            cells = [{"html": esc(state.cards[s][box]) if state.cards[s][box] is not None else "–", "cls": "num filled",
                      "testid": f"final-{s}-{box}"} for s in range(n)]
            rows.append({"label": esc(t(f"penta.box.{box}")), "cells": cells,
                         "cls": "lower-start" if box == LOWER[0] else None})
            if box == UPPER[-1]:
                ups = [upper_total(state.cards[s]) for s in range(n)]
                rows.append({"label": esc(t("penta.upper_sum")), "cls": "sum",
                             "cells": [{"html": str(u), "cls": "num"} for u in ups]})
                rows.append({"label": esc(t("penta.upper_bonus", bonus=UPPER_BONUS)), "cls": "sum",
                             "cells": [{"html": str(UPPER_BONUS) if u >= UPPER_BONUS_THRESHOLD else "–", "cls": "num"}
                                       for u in ups]})
        rows.append({"label": esc(t("penta.penta_bonus")), "cls": "sum",
                     "cells": [{"html": str(state.bonuses[s] * PENTA_BONUS), "cls": "num"} for s in range(n)]})
        scores = state.scores()
        rows.append({"label": esc(t("penta.total")), "cls": "grand",
                     "cells": [{"html": str(scores[s]), "cls": "num total", "testid": f"final-total-{s}"} for s in range(n)]})
        return score_table(ctx.seats, rows, current=None, focus=None, caption=t("penta.scorecard"), corner=t("penta.box"))


ENDING = PentaEnding()
