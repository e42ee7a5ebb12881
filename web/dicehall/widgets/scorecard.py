"""A score card: one row per box or category, one column per seat.

Every seat's column is drawn, on a phone too: the current seat's (`cur`) and the one picked in
the seat bar (`focus`) are marked, and each game's style gives them the room (the acting
seat's column wide and the others narrow with short sums, or every column alike). A
`compact` card folds its rows into two side-by-side halves (rows marked `col-a` / `col-b`), so a
whole card of boxes fits a 360×740 screen next to the dice and the action bar.
"""

from __future__ import annotations

from ..dom import attrs, esc
from .seats import seat_label


def score_table(seats: list[dict], rows: list[dict], *, current: int | None, focus: int | None,
                caption: str, corner: str, compact: bool = False) -> str:
    """rows: [{"label": HTML, "cls": str, "testid": str|None, "cells": [{"html", "cls", "testid"}]}]."""
    focus = current if focus is None else focus

    def col_cls(seat: int) -> str:
        return ("cur" if seat == current else "other") + (" focus" if seat == focus else "")

    head = "".join(f'<th scope="col" class="{col_cls(s)}">{seat_label(seats, s)}</th>' for s in range(len(seats)))
    body = []
    for row in rows:
        cells = "".join(
            f'<td{attrs(cls=(col_cls(s) + " " + cell.get("cls", "")).strip(), data_testid=cell.get("testid"))}>{cell["html"]}</td>'
            for s, cell in enumerate(row["cells"]))
        body.append(f'<tr{attrs(cls=row.get("cls") or None, data_testid=row.get("testid"))}><th scope="row">{row["label"]}</th>{cells}</tr>')
    return (f'<div class="cardpanel"><table class="scorecard{" compact" if compact else ""}" data-testid="scorecard" data-players="{len(seats)}">'
            f'<caption class="sr-only">{esc(caption)}</caption><thead><tr><th scope="col"><span class="sr-only">{esc(corner)}</span></th>'
            f'{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')
