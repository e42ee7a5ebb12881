"""Penta's play screen: the dice tray with holds, the score card, Roll and Confirm.

All rules come from the engine (`pygame_core.games.penta.rules`); this module only displays
them and turns clicks into proposals. UI state (saved with the game): `held` display slots,
`order` display slot -> engine die position (held dice keep their place on screen), `box` the
selected box.
"""

from __future__ import annotations

from collections import Counter

from pygame_core.games.penta.rules import (
    BOXES,
    LOWER,
    PENTA_BONUS,
    ROLLS_PER_ROUND,
    ROUNDS,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    allowed_boxes,
    joker_applies,
    keep_positions,
    upper_total,
    write_score,
)

from ...dom import button, esc
from ...gameview import GameView, Move, PlayContext, Roll, Ui
from ...widgets.controls import action_bar
from ...widgets.dice import dice_tray, mini_dice
from ...widgets.guide import Guide, Step
from ...widgets.scorecard import score_table
from ...widgets.seats import symbol_html
from .ending import ENDING


def short_form(full: str, short: str) -> str:
    """A sum in two forms: whole ("45 / 63") and, for another seat's narrow column on a phone,
    short ("45"; style.css shows one, the other stays for screen readers or is hidden)."""
    return (f'<span class="pt-full" dir="ltr">{full}</span>'
            f'<span class="pt-short" aria-hidden="true">{esc(short)}</span>')

# Three to five seats side by side on a phone leave a row's label a symbol's room (style.css):
# the name stays for screen readers (and shows on wider screens), the symbol is for the eye.
SYMBOLS = {"ones": "⚀", "twos": "⚁", "threes": "⚂", "fours": "⚃", "fives": "⚄", "sixes": "⚅",
           "three_kind": "3×", "four_kind": "4×", "full_house": "3+2", "small_straight": "4→",
           "large_straight": "5→", "chance": "?", "penta": "5×", "upper_sum": "Σ",
           "upper_bonus": f"+{UPPER_BONUS}", "penta_bonus": f"+{PENTA_BONUS}", "total": "="}


def row_label(name: str, key: str, seats: int) -> str:
    """A score card row's label: its name, and with three or more seats its symbol beside it."""
    if seats < 3:
        return esc(name)
    return f'<span class="pt-name">{esc(name)}</span><span class="pt-sym" dir="ltr" aria-hidden="true">{esc(SYMBOLS[key])}</span>'


FRESH = {"held": [], "order": [0, 1, 2, 3, 4], "box": None}


def order(ui: dict) -> list[int]:
    o = ui.get("order")
    return list(o) if isinstance(o, list) and sorted(o) == [0, 1, 2, 3, 4] else [0, 1, 2, 3, 4]


def held(ui: dict) -> list[int]:
    h = ui.get("held")
    return sorted({k for k in h if type(k) is int and 0 <= k < 5}) if isinstance(h, list) else []


def shown(state, ui: dict) -> list[int]:
    """The dice in display order."""
    o = order(ui)
    return [state.dice[o[k]] for k in range(5)]


def slots_for(values: list[int], on_screen: list[int], prefer: list[int]) -> list[int]:
    """Display slots showing `values`, taking the `prefer`red slots first (the ones held)."""
    pool = Counter(values)
    slots = []
    for k in prefer + [k for k in range(5) if k not in prefer]:
        if pool[on_screen[k]] > 0:
            pool[on_screen[k]] -= 1
            slots.append(k)
    return sorted(slots)


def keep_move(values: list[int]) -> str:
    return "keep " + " ".join(map(str, sorted(values))) if values else "keep"


class PentaView(GameView):
    game = "penta"
    ending = ENDING  # why the game ended, its final picture (ending.py)
    rules_table_after = 6  # the catalog's "## The score card" heading (penta.rules.6)

    # --- UI state in step with the moves ---------------------------------------------------
    def check_ui(self, ui, state) -> dict:
        if not isinstance(ui, dict):
            return dict(FRESH)
        box = ui.get("box")
        return {"held": held(ui), "order": order(ui), "box": box if box in BOXES else None}

    def celebration(self, before, seat: int, move: str, after):
        """A Penta written (50), a Penta bonus (+100), the upper bonus reached (+35)."""
        if seat < 0 or not move.startswith("score "):
            return None
        box = move.split(" ")[1]
        if after.bonuses[seat] > before.bonuses[seat]:
            return "penta.celebrate.bonus", {}
        if box == "penta" and after.cards[seat].get("penta"):
            return "penta.celebrate.penta", {}
        if upper_total(before.cards[seat]) < UPPER_BONUS_THRESHOLD <= upper_total(after.cards[seat]):
            return "penta.celebrate.upper", {}
        return None

    AUTOFILL_LINE = Guide("penta.autofill", (Step("actionbar", "penta.guide.autofill"),), once=True)

    def guide(self, ctx: PlayContext):
        """The first time the auto-fill countdown starts: one line that says what it does."""
        return self.AUTOFILL_LINE if ctx.countdown is not None else None

    def catalog_keys(self) -> dict[str, list[str]]:
        return {"penta.box.{}": [f"penta.box.{b}" for b in BOXES], "penta.rule.{}": [f"penta.rule.{b}" for b in BOXES]}

    def marks(self, ui: dict, before, seat: int, move: str, after) -> set:
        """The display slots whose dice were thrown."""
        if seat >= 0:
            return set()
        o, thrown = order(ui), before.rolling or []
        return {k for k in range(5) if o[k] in thrown}

    def after_move(self, ui: dict, before, seat: int, move: str, after) -> dict:
        word, *args = move.split(" ")
        if seat < 0:  # the dice: they stay in their slots (`marks` animates the ones thrown)
            return {**ui, "box": None}
        if word == "score":
            return dict(FRESH)
        # keep: the kept dice stay where they are on screen, the others are rolled in place
        values = [int(a) for a in args]
        o = order(ui)
        on_screen = [before.dice[o[k]] for k in range(5)]
        slots = slots_for(values, on_screen, held(ui))
        kept = keep_positions(before.dice, values) or []
        free = list(kept)
        new: list[int | None] = [None] * 5
        for k in slots:  # pair each held slot with a kept engine position of the same value
            pos = next(p for p in free if before.dice[p] == on_screen[k])
            free.remove(pos)
            new[k] = pos
        rolling = [p for p in range(5) if p not in kept]
        for k in range(5):
            if new[k] is None:
                new[k] = rolling.pop(0)
        return {**ui, "order": new, "held": slots, "box": None}

    # --- clicks -------------------------------------------------------------------------------
    def on_action(self, ctx: PlayContext, action: str, arg):
        state, seat = ctx.state, ctx.seat
        if action == "roll":
            if state.is_chance():
                return Roll(seat)
            values = [shown(state, ctx.ui)[k] for k in held(ctx.ui)]
            return Move(seat, keep_move(values))
        if state.is_chance():
            return None
        if action == "toggle" and state.rolls < ROLLS_PER_ROUND:
            return Ui({"held": sorted(set(held(ctx.ui)) ^ {int(arg)})})
        if action == "box" and arg in BOXES:
            chosen = None if ctx.ui.get("box") == arg else arg
            return Ui({"box": chosen}, focus="confirm" if chosen else None)  # Enter then confirms
        if action == "confirm" and ctx.ui.get("box"):
            return Move(seat, "score " + ctx.ui["box"])
        return None

    def shortcuts(self, ctx: PlayContext) -> dict:
        keys = {"r": ("roll", None), "R": ("roll", None), "Enter": ("confirm", None)}
        keys.update({str(k + 1): ("toggle", str(k)) for k in range(5)})
        return keys

    def apply_hint(self, ctx: PlayContext, move: str):
        """Apply marks the suggested dice or box; the player still rolls or confirms."""
        word, *args = move.split(" ")
        if word == "score":
            return Ui({"box": args[0]})
        on_screen = shown(ctx.state, ctx.ui)
        return Ui({"held": slots_for([int(a) for a in args], on_screen, []), "box": None})

    # --- words -----------------------------------------------------------------------------
    def describe_move(self, t, move: str) -> str:
        word, *args = str(move).split()
        if word == "roll":
            return t("penta.move.roll", dice=" ".join(args))
        if word == "keep":
            return t("penta.move.keep", dice=" ".join(args)) if args else t("penta.move.reroll_all")
        if word == "score" and args:
            return t("penta.move.score", box=t(f"penta.box.{args[0]}"))
        return str(move)

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        """The box written at the end of a round, with its dice and points."""
        scored = [(seat, move, before) for seat, move, before in turn if move.startswith("score ")]
        if not scored:
            return ""
        seat, move, before = scored[-1]
        box = move[len("score "):]
        points, bonus = write_score(before.cards[seat], box, before.dice)
        extra = f" + {esc(ctx.t('penta.bonus_plus', n=bonus))}" if bonus else ""
        return (f'{mini_dice(before.dice)} <span>{esc(ctx.t("penta.last_box", box=ctx.t(f"penta.box.{box}"), points=points))}'
                f"{extra}</span>")

    def prompt(self, ctx: PlayContext) -> str:
        code, params = ctx.state.prompt()
        if code == "penta.prompt.rolling" and ctx.state.rolls == 0:
            code = "penta.prompt.roll"
        return ctx.t(code, **params)

    def review_when(self, t, decision: dict) -> str:
        return t("penta.review.when", round=decision["round"], roll=decision["roll"])

    def review_detail(self, decision: dict) -> str:
        return " ".join(str(v) for v in sorted(decision["dice"]))

    # --- the play screen ---------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        t, state, ui = ctx.t, ctx.state, ctx.ui
        seat = state.seat()
        person = ctx.seat is not None
        values = shown(state, ui)
        if person:
            h = held(ui)
        elif not state.is_chance() or state.rolls == 0:
            h = []
        else:  # a computer's kept dice, while its other dice are being thrown
            h = [k for k in range(5) if order(ui)[k] not in (state.rolling or [])]
        can_hold = person and not state.is_chance() and state.rolls < ROLLS_PER_ROUND
        dice = []
        for k in range(5):
            v = values[k] if state.rolls > 0 else 0
            label = t("penta.die_label", n=k + 1, value=v) if v else t("penta.die_blank", n=k + 1)
            if k in h:
                label += ", " + t("penta.held")
            dice.append({"value": v, "held": k in h, "label": label, "rolled": k in ctx.marks})
        round_no = min(state.round() + 1, ROUNDS)
        out = [f'<div class="status"><span class="round" data-testid="round">{esc(t("penta.round", n=round_no, total=ROUNDS))}</span>'
               f'{ctx.platform["seats"]}</div>', ctx.platform["prompt"], self.render_actions(ctx, h)]
        board = ['<div class="board penta-board" data-rolls="' + str(state.rolls) + '">', ctx.platform["last"],
                 dice_tray(dice, label=t("penta.dice"), enabled=can_hold, animations=ctx.animations)]
        if person and not state.is_chance():
            card = state.cards[seat]
            if state.rolls < ROLLS_PER_ROUND and len(h) == 5:
                board.append(f'<p class="note" data-testid="hint-keep-all">{esc(t("penta.keep_all"))}</p>')
            if joker_applies(card, state.dice):
                names = ", ".join(t(f"penta.box.{b}") for b in allowed_boxes(card, state.dice))
                board.append(f'<p class="note" id="joker-note" data-testid="joker-note">{esc(t("penta.joker_note", boxes=names))}</p>')
            elif state.rolls < ROLLS_PER_ROUND:
                board.append(f'<p class="note muted wide-only">{esc(t("penta.hold_hint"))}</p>')
        board.append(ctx.platform["hint"] + "</div>")
        out.append('<div class="layout">' + "".join(board) + self.render_card(ctx) + "</div>")
        out.append(ctx.platform["log"] + ctx.platform["tools"])
        return "".join(out)

    def render_actions(self, ctx: PlayContext, held_slots: list[int]) -> str:
        """Roll and Confirm, early in the tab order (the bar itself sits at the bottom)."""
        t, state = ctx.t, ctx.state
        person = ctx.seat is not None
        box = ctx.ui.get("box") if person else None
        rolls_left = ROLLS_PER_ROUND - state.rolls
        can_roll = person and rolls_left > 0 and (state.is_chance() or len(held_slots) < 5)
        roll_label = (f'<span>{esc(t("penta.roll"))} <kbd class="key" aria-hidden="true">R</kbd></span>'
                      f'<small data-testid="rolls-left">{esc(t("penta.rolls_left", n=rolls_left))}</small>')
        return action_bar(
            button(roll_label, action="roll", cls="btn big " + ("secondary" if box or not can_roll else "primary"),
                   testid="roll", disabled=not can_roll, aria_keyshortcuts="R"),
            button(esc(t("penta.confirm")), action="confirm", cls="btn big " + ("primary" if box else "secondary"),
                   testid="confirm", disabled=not box, aria_keyshortcuts="Enter"),
            above=ctx.platform["countdown"])

    def render_card(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        seat = state.seat()
        n = state.num_players
        live = ctx.seat is not None and not state.is_chance() and state.rolls > 0
        card_now = state.cards[seat]
        allowed = set(allowed_boxes(card_now, state.dice)) if live else set()
        selected = ctx.ui.get("box") if live else None
        coming = ctx.countdown_move[len("score "):] if ctx.countdown_move and ctx.countdown_move.startswith("score ") else None
        last = None
        if not ctx.turn_begun and ctx.last_turn:
            scored = [(s, m) for s, m, _ in ctx.last_turn if m.startswith("score ")]
            last = (scored[-1][0], scored[-1][1][len("score "):]) if scored else None
        rows = []
        for box in BOXES:
            cells = []
            for s in range(n):
                value = state.cards[s][box]
                cls = "num last" if last == (s, box) else "num"
                if value is not None:
                    cells.append({"html": str(value), "cls": cls + " filled", "testid": f"cell-{s}-{box}"})
                elif s == seat and live:
                    points, bonus = write_score(card_now, box, state.dice)
                    ok = box in allowed
                    label = t("penta.box_would", box=t(f"penta.box.{box}"), points=points)
                    if not ok:
                        label += ". " + t("penta.joker_forced", box=t(f"penta.box.{box}"))
                    extra = f'<span class="plus">+{bonus}</span>' if bonus and ok else ""
                    cells.append({"cls": cls, "html": button(
                        f"{points}{extra}", action="box", arg=box,
                        cls="boxbtn" + (" zero" if not points else "") + (" sel" if selected == box else "")
                        + (" coming" if coming == box else ""),
                        testid=f"box-{box}", aria_pressed="true" if selected == box else "false", aria_label=label,
                        disabled=not ok, aria_describedby="joker-note" if not ok else None)})
                elif ctx.step == (s, "score " + box):  # a computer's box on show before it is written
                    cells.append({"html": str(write_score(card_now, box, state.dice)[0]), "cls": "num last step",
                                  "testid": f"cell-{s}-{box}"})
                else:
                    cells.append({"html": '<span aria-hidden="true">·</span>', "cls": cls + " empty", "testid": f"cell-{s}-{box}"})
            rows.append({"label": row_label(t(f"penta.box.{box}"), box, n), "cells": cells, "testid": f"row-{box}",
                         "cls": ("lower-start " if box == LOWER[0] else "") + ("col-b" if box in LOWER else "col-a")})
            if box == UPPER[-1]:
                ups, bonuses = [], []
                for s in range(n):
                    u = upper_total(state.cards[s])
                    ups.append({"html": short_form(esc(t("penta.upper_progress", x=u, target=UPPER_BONUS_THRESHOLD)), str(u)),
                                "cls": "num sub", "testid": f"upper-{s}"})
                    bonuses.append({"html": str(UPPER_BONUS) if u >= UPPER_BONUS_THRESHOLD else "–", "cls": "num sub"})
                rows.append({"label": row_label(t("penta.upper_sum"), "upper_sum", n), "cells": ups, "cls": "sum col-a"})
                rows.append({"label": row_label(t("penta.upper_bonus", bonus=UPPER_BONUS), "upper_bonus", n), "cells": bonuses,
                             "cls": "sum col-a"})
        rows.append({"label": row_label(t("penta.penta_bonus"), "penta_bonus", n), "cls": "sum col-b", "cells": [
            {"html": short_form(esc(t("penta.bonus_count", n=state.bonuses[s], points=state.bonuses[s] * PENTA_BONUS)),
                                str(state.bonuses[s] * PENTA_BONUS)),
             "cls": "num sub", "testid": f"penta-bonus-{s}"} for s in range(n)]})
        scores = state.scores()
        rows.append({"label": row_label(t("penta.total"), "total", n), "cls": "grand col-a", "cells": [
            {"html": str(scores[s]), "cls": "num total" + (" flash" if s in ctx.flash and ctx.animations else ""),
             "testid": f"total-{s}"} for s in range(n)]})
        if n >= 2:  # every column side by side on a phone: each half headed by the seats' symbols (style.css)
            heads = [{"html": symbol_html(ctx.seats[s]["symbol"]), "cls": "seat-head"} for s in range(n)]
            rows[:0] = [{"label": "", "cells": heads, "cls": "pt-head col-a"}, {"label": "", "cells": heads, "cls": "pt-head col-b"}]
        table = score_table(ctx.seats, rows, current=seat, focus=ctx.view_seat, caption=t("penta.scorecard"),
                            corner=t("penta.box"), compact=True)
        # The symbol rows repeat the table's head for the eye only: hidden from screen readers.
        return table.replace('<tr class="pt-head', '<tr aria-hidden="true" class="pt-head')

    # --- results and rules ----------------------------------------------------------------------
    def breakdown_heads(self, t) -> list[str]:
        return [t("penta.upper_sum"), t("penta.upper_bonus", bonus=UPPER_BONUS), t("penta.lower_sum"), t("penta.penta_bonus")]

    def breakdown(self, state, seat: int) -> list[int]:
        card = state.cards[seat]
        up = upper_total(card)
        return [up, UPPER_BONUS if up >= UPPER_BONUS_THRESHOLD else 0, sum(card[b] or 0 for b in LOWER),
                state.bonuses[seat] * PENTA_BONUS]

    def rules_table(self, t) -> str:
        rows = "".join(f'<tr><th scope="row">{esc(t(f"penta.box.{b}"))}</th><td>{esc(t(f"penta.rule.{b}"))}</td></tr>' for b in BOXES)
        return (f'<table class="rules-table"><thead><tr><th scope="col">{esc(t("penta.box"))}</th><th scope="col">{esc(t("penta.scores"))}</th></tr></thead>'
                f"<tbody>{rows}</tbody></table>")
