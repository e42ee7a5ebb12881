"""Rolf The Dice's play screen: the three dice, the 6×6 board, the score card and the group table.

All rules come from the engine (`pygame_core.games.rolf`); this module shows them and turns clicks
into proposals. A tap on a highlighted candidate takes it (`take r-c`); a tap on a square chosen in
this throw that the rules let the player choose again proposes the platform's take-back of that
`take` (its record position comes from `ctx.takebacks`); "Throw" throws the dice, "Next player" or
"Confirm · extra throw" confirms the throw. The squares chosen in the last throw stay marked for
everybody until the next throw.

UI state (saved with the game): `more` — the group-points table shows all 14 rows. Its `marks`
(shown once) are the thrown dice and the score-card cells whose value changed with the last move.
"""

from __future__ import annotations

from pygame_core.games.rolf.board import CORNERS, DIAGONAL, NAMES, SIZE, row_col, triangle
from pygame_core.games.rolf.rules import throw_shape

from ...dom import button, esc
from ...gameview import GameView, Move, PlayContext, Roll, TakeBack, Ui
from ...widgets.board import board_grid
from ...widgets.controls import action_bar
from ...widgets.dice import dice_tray, mini_dice
from ...widgets.scorecard import score_table
from ...widgets.seats import symbol_html
from . import narrate
from .ending import ENDING

PARTS = ("group", "diagonal", "corners", "end")
GROUP_ROWS_SHORT = 6
GROUP_ROWS_ALL = 14


def square_text(index: int) -> str:
    """A square as players write it: `3–5` (row 3, column 5)."""
    return "%d–%d" % row_col(index)


def squares_in_line(indexes) -> str:
    """Squares inside a sentence, isolated left to right (LRI … PDI): in a right-to-left line
    `1–4` reads `4–1` (the dash between two numbers takes the line's direction), `1–4, 3–4`
    reads `4–3 ,4–1`."""
    return "\u2066" + ", ".join(square_text(i) for i in indexes) + "\u2069"


def move_square(move: str) -> int | None:
    """The square of a `take r-c` move."""
    if move.startswith("take ") and move[5:] in NAMES:
        return NAMES.index(move[5:])
    return None


def plan_squares(move: str) -> list[int]:
    """The squares of the review's `take 3-5 5-3` (a throw's squares), [] for anything else."""
    names = move.split(" ")[1:] if move.startswith("take ") else []
    return [NAMES.index(n) for n in names] if names and all(n in NAMES for n in names) else []


def part_label(t, part: str) -> str:
    return {"group": t("rolf.part.group"), "diagonal": t("rolf.part.diagonal"), "corners": t("rolf.part.corners"),
            "end": t("rolf.part.end")}[part]


class RolfView(GameView):
    game = "rolf"
    ending = ENDING  # why the game ended, its final picture (ending.py)
    rules_table_after = 13  # the group-points table follows the paragraph on group points (rolf.rules.13)

    # --- UI state -----------------------------------------------------------------------------
    def check_ui(self, ui, state) -> dict:
        return {"more": bool(ui.get("more"))} if isinstance(ui, dict) else {"more": False}

    def marks(self, ui: dict, before, seat: int, move: str, after) -> set:
        """The three dice after a throw, and the score-card cells (seat, part) the move changed."""
        out = super().marks(ui, before, seat, move, after)
        return out | {(s, part) for s in range(after.num_players) for part in PARTS
                      if before.breakdown(s)[part] != after.breakdown(s)[part]}

    # --- clicks -------------------------------------------------------------------------------
    def on_action(self, ctx: PlayContext, action: str, arg):
        state, seat = ctx.state, ctx.seat
        if action == "group-table":
            return Ui({"more": not ctx.ui.get("more")})
        if seat is None or state.is_terminal():
            return None
        if action == "roll" and state.is_chance():
            return Roll(seat)
        if action == "confirm" and not state.is_chance() and not state.placements_left():
            return Move(seat, state.confirm_move())
        if action == "take" and arg in NAMES:
            return Move(seat, "take " + arg)
        if action == "take-back" and arg in NAMES:
            at = self.take_back_position(ctx, NAMES.index(arg))
            return TakeBack(seat, at) if at is not None else None
        return None

    def take_back_position(self, ctx: PlayContext, index: int) -> int | None:
        """Record position of this throw's `take` of square `index`, if the player may take it back.

        Since the dice fell the record holds only this throw's takes, in the order of `chosen`."""
        state = ctx.state
        if ctx.seat is None or state.is_chance() or index not in state.chosen:
            return None
        at = ctx.index - len(state.chosen) + state.chosen.index(index)
        return at if at in ctx.takebacks.get(ctx.seat, []) else None

    # --- words --------------------------------------------------------------------------------
    def describe_move(self, t, move: str) -> str:
        move = str(move)
        index = move_square(move)
        if index is not None:
            return t("rolf.move.take", square=squares_in_line([index]))
        squares = plan_squares(move)
        if squares:  # the review's spelling of a whole throw's squares: `take 3-5 5-3`
            return t("rolf.move.take", square=squares_in_line(squares))
        if move == "next":
            return t("rolf.move.next")
        if move == "extra":
            return t("rolf.move.extra")
        if move.startswith("roll "):
            return t("rolf.move.roll", dice=move[5:])
        return move

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        """Each throw of the turn: its dice and the squares taken (or that nothing could be taken)."""
        t = ctx.t
        throws: list[list] = []
        for seat, move, before in turn:
            if seat < 0:
                throws.append([[int(v) for v in move.split(" ")[1:]], []])
            elif throws and move_square(move) is not None:
                throws[-1][1].append(move_square(move))
        parts = []
        for dice, squares in throws:
            if squares:  # squares read left to right in every language, like the board
                text = '<span dir="ltr">' + esc(", ".join(square_text(i) for i in squares)) + "</span>"
            else:
                text = esc(t("rolf.skipped_short"))
            parts.append(f'<span class="rolf-throw">{mini_dice(dice)} {text}</span>')
        return " ".join(parts)

    def narrate_move(self, t, state, seat: int, move: str) -> str:
        return narrate.narrate_move(self, t, state, move)

    def prompt(self, ctx: PlayContext) -> str:
        code, params = ctx.state.prompt()
        if "square" in params:
            params = {**params, "square": squares_in_line([NAMES.index(params["square"])])}
        return ctx.t(code, **params)

    def format_value(self, t, value: float) -> str:
        """A chance to win in percent (the advisor's and the review's values, the review's curve)."""
        return t("rolf.hint.value", percent=str(round(value)))

    # --- review (pygame_core/games/rolf/review.py) ---------------------------------------------
    def review_value(self, t, decision: dict, field: str) -> str:
        """A loss is in percentage points of the chance to win ("10.7 points lost"), not a chance."""
        if field == "loss":
            return t.number(decision["loss"], 1)
        return self.format_value(t, decision[field])

    def review_when(self, t, decision: dict) -> str:
        return t("rolf.review.when", round=decision["round"], throw=decision["throw"])

    def review_detail(self, decision: dict) -> str:
        return " ".join(str(v) for v in decision["dice"])

    # --- the play screen ------------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        person = ctx.seat is not None
        out = [f'<div class="status">{ctx.platform["seats"]}</div>', ctx.platform["prompt"]]
        board = [f'<div class="board rolf-board" data-testid="rolf-board" data-phase="{self.phase(state)}" '
                 f'data-throw="{state.throw}">', ctx.platform["last"], self.render_dice(ctx)]
        if state.skipped and state.is_chance() and state.dice:
            who = ctx.seats[state.seat if state.throw else (state.seat - 1) % state.num_players]["name"]
            board.append(f'<p class="note" data-testid="skipped" role="status">{esc(t("rolf.skipped", name=who))}</p>')
        board.append(self.render_board(ctx))
        board.append(f'<p class="note muted rolf-axes">{esc(t("rolf.axes"))}</p>')
        if person and not state.is_chance() and any(self.take_back_position(ctx, i) is not None for i in state.chosen):
            board.append(f'<p class="note" data-testid="rechoose-help">{esc(t("rolf.rechoose_help"))}</p>')
        board.append(ctx.platform.get("hint", "") + "</div>")
        side = self.render_card(ctx) + self.render_group_table(ctx)
        out.append('<div class="layout">' + "".join(board) + f'<div class="rolf-side">{side}</div></div>')
        out.append(ctx.platform.get("log", "") + ctx.platform.get("tools", ""))
        out.append(ctx.platform.get("countdown", ""))
        out.append(self.render_actions(ctx))
        return "".join(out)

    @staticmethod
    def phase(state) -> str:
        if state.is_terminal():
            return "over"
        if state.is_chance():
            return "throw"
        return "place" if state.placements_left() else "confirm"

    def render_dice(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        values = list(state.dice) or [0, 0, 0]
        dice = [{"value": v, "held": False, "rolled": k in ctx.marks,
                 "label": t("rolf.die", n=k + 1, value=v) if v else t("rolf.die_blank", n=k + 1)}
                for k, v in enumerate(values)]
        thrower = narrate.previous_thrower(state)
        if thrower is not None:  # before a throw: the last throw's dice, labelled as such (narrate.py)
            label = t("rolf.previous_throw", name=ctx.seats[thrower]["name"])
            return (f'<p class="note rolf-previous" data-testid="previous-throw" data-seat="{thrower}">{esc(label)}</p>'
                    f'<div class="rolf-tray previous">{dice_tray(dice, label=label, enabled=False, animations=False)}</div>')
        shape = ""
        if state.dice:
            shape_key = {"different": "rolf.shape.different", "pair": "rolf.shape.pair", "triple": "rolf.shape.triple"}
            shape = f'<p class="note rolf-shape" data-testid="shape">{esc(t(shape_key[throw_shape(state.dice)]))}</p>'
        return dice_tray(dice, label=t("rolf.dice"), enabled=False, animations=ctx.animations) + shape

    def render_board(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        person = ctx.seat is not None and not state.is_chance() and not state.is_terminal()
        legal = state.legal_mask() if person else 0
        candidates = state.legal_mask() if not state.is_chance() else 0
        chosen = set(state.chosen)
        takeable = {i for i in chosen if person and self.take_back_position(ctx, i) is not None}
        step = narrate.step_square(ctx)  # a computer's take on show before it is made

        def square(r: int, c: int) -> dict:
            i = r * SIZE + c
            bit = 1 << i
            owner = state.owner_of(i)
            cls = []
            if DIAGONAL & bit:
                cls.append("diag")
            if CORNERS & bit:
                cls.append("corner")
            words = [t("rolf.square", square=square_text(i))]
            if owner is None:
                words.append(t("rolf.square_empty"))
                content = ""
            else:
                cls.append(f"owner-{owner}")
                words.append(ctx.seats[owner]["name"])
                content = symbol_html(ctx.seats[owner]["symbol"])
            if i in chosen:
                cls.append("last")
                words.append(t("rolf.square_chosen"))
            if i == step:
                cls.append("step")
            sq = {"content": content, "testid": f"sq-{NAMES[i]}", "cls": " ".join(cls)}
            # A square that can be tapped has its own test id (take-… / rechoose-…), like the other
            # games' buttons: the shell restores focus by test id and must not land on a plain square.
            if legal & bit:
                sq.update(action="take", arg=NAMES[i], enabled=True, cls=sq["cls"] + " cand", testid=f"take-{NAMES[i]}")
                words.append(t("rolf.square_steal") if owner is not None else t("rolf.square_take"))
            elif i in takeable:
                sq.update(action="take-back", arg=NAMES[i], enabled=True, cls=sq["cls"] + " rechoose",
                          testid=f"rechoose-{NAMES[i]}")
                words.append(t("rolf.square_rechoose"))
            elif candidates & bit:
                sq["cls"] += " cand-other"
            sq["label"] = ", ".join(words)
            return sq

        numbers = [str(n) for n in range(1, SIZE + 1)]
        return board_grid(SIZE, SIZE, square, label=t("rolf.board"), row_names=numbers, col_names=numbers)

    def render_card(self, ctx: PlayContext) -> str:
        """Group / Diagonal / Corners / End / Total per player; a changed cell flashes once."""
        t, state = ctx.t, ctx.state
        n = state.num_players
        flashing = {m for m in ctx.marks if isinstance(m, tuple) and m[0] in ctx.flash} if ctx.animations else set()
        rows = []
        for part in PARTS:
            cells = []
            for s in range(n):
                value = state.breakdown(s)[part]
                cls = "num" + (" flash" if (s, part) in flashing else "")
                cells.append({"html": str(value), "cls": cls, "testid": f"{part}-{s}"})
            rows.append({"label": esc(part_label(t, part)), "cells": cells, "testid": f"row-{part}"})
        scores = state.scores()
        rows.append({"label": esc(t("rolf.part.total")), "cls": "grand", "cells": [
            {"html": str(scores[s]), "cls": "num total" + (" flash" if s in ctx.flash and ctx.animations else ""),
             "testid": f"total-{s}"} for s in range(n)]})
        current = state.roller() if state.is_chance() else state.current_player()
        current = current if current is not None and current >= 0 else None
        return score_table(ctx.seats, rows, current=current, focus=ctx.view_seat, caption=t("rolf.scorecard"),
                           corner=t("rolf.part.heading"))

    def render_group_table(self, ctx: PlayContext) -> str:
        t = ctx.t
        more = bool(ctx.ui.get("more"))
        count = GROUP_ROWS_ALL if more else GROUP_ROWS_SHORT
        items = "".join(f'<li data-testid="group-row-{k}"><span>{esc(t("rolf.groups.row", n=k))}</span> '
                        f'<strong class="num">{triangle(k)}</strong></li>' for k in range(1, count + 1))
        toggle = button(esc(t("rolf.groups.fewer" if more else "rolf.groups.more")), action="group-table",
                        cls="btn small", testid="group-table-toggle", aria_expanded="true" if more else "false")
        return (f'<section class="rolf-groups" aria-labelledby="rolf-groups-h"><h2 id="rolf-groups-h">{esc(t("rolf.groups.heading"))}</h2>'
                f'<ol class="rolf-group-list" data-testid="group-table">{items}</ol>{toggle}'
                f'<p class="muted small">{esc(t("rolf.groups.note"))}</p>'
                f'<p class="muted small">{esc(t("rolf.bonus_note"))}</p></section>')

    def render_actions(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        person = ctx.seat is not None
        can_throw = person and state.is_chance()
        confirming = not state.is_chance() and not state.is_terminal() and not state.placements_left()
        extra = state.extra if not state.is_chance() else False
        label = t("rolf.confirm_extra") if extra else t("rolf.next_player")
        return action_bar(
            button(esc(t("rolf.throw")), action="roll", cls="btn big " + ("primary" if can_throw else "secondary"),
                   testid="roll", disabled=not can_throw),
            button(esc(label), action="confirm", cls="btn big " + ("primary" if person and confirming else "secondary"),
                   testid="confirm", disabled=not (person and confirming), data_kind="extra" if extra else "next"))

    # --- results and rules -----------------------------------------------------------------------
    def breakdown_heads(self, t) -> list[str]:
        return [part_label(t, part) for part in PARTS]

    def breakdown(self, state, seat: int) -> list[int]:
        parts = state.breakdown(seat)
        return [parts[part] for part in PARTS]

    def rules_table(self, t) -> str:
        rows = "".join(f'<tr><td class="num">{k}</td><td class="num">{triangle(k)}</td></tr>' for k in range(1, GROUP_ROWS_ALL + 1))
        return (f'<table class="rules-table" data-testid="rules-group-table"><thead><tr><th scope="col">{esc(t("rolf.groups.size"))}</th>'
                f'<th scope="col">{esc(t("rolf.groups.points"))}</th></tr></thead><tbody>{rows}</tbody></table>')
