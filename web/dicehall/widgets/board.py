"""An N×M board with coordinates on both axes; each square is a button when it can be chosen."""

from __future__ import annotations

from typing import Callable

from ..dom import attrs, esc


def board_grid(rows: int, cols: int, square: Callable[[int, int], dict], *, label: str,
               row_names: list[str] | None = None, col_names: list[str] | None = None) -> str:
    """`square(r, c)` -> {"content" (HTML), "label" (accessible name), "action", "arg",
    "cls", "testid", "enabled"}; r and c count from 0. Coordinates are drawn left to right and
    top to bottom in every language (a board does not mirror in Arabic)."""
    row_names = row_names or [str(r + 1) for r in range(rows)]
    col_names = col_names or [str(c + 1) for c in range(cols)]
    head = '<span class="corner" aria-hidden="true"></span>' + "".join(
        f'<span class="coord col" aria-hidden="true">{esc(n)}</span>' for n in col_names)
    cells = [head]
    for r in range(rows):
        cells.append(f'<span class="coord row" aria-hidden="true">{esc(row_names[r])}</span>')
        for c in range(cols):
            sq = square(r, c)
            cls = "square " + sq.get("cls", "")
            if sq.get("action") and sq.get("enabled", True):
                cells.append(f'<button type="button"{attrs(cls=cls.strip(), data_action=sq["action"], data_arg=sq.get("arg"), data_testid=sq.get("testid"), aria_label=sq["label"])}>'
                             f'{sq.get("content", "")}</button>')
            else:
                cells.append(f'<span{attrs(cls=cls.strip(), role="img", data_testid=sq.get("testid"), aria_label=sq["label"])}>'
                             f'{sq.get("content", "")}</span>')
    return (f'<div class="boardgrid" dir="ltr" role="group" aria-label="{esc(label)}" '
            f'style="--rows:{rows};--cols:{cols}">{"".join(cells)}</div>')
