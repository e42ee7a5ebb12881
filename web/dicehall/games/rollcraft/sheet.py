"""RollCraft T8's score sheet on the play screen: the five zones (one at a time on a phone, tabs with
the zone totals), the saved actions and the round track as icons, and the boxes a choice may use.

Two kinds of choice are made on the sheet: a die's target (`target-<where>`, after a die is
tapped) and a bonus placement (`bonus-<move>`, e.g. `bonus-black-yellow-Y3`): a question, T8 or
black "?" bonus is placed by tapping its box on the picture of the sheet, not picked from a list.
Blue, green and pink take a value too: their next box is outlined and the bonus panel offers the
values of the zone shown (view.render_choice). Another seat's sheet (tapped in the seat bar) is
read-only: no box is offered on it, and a line says whose it is with a way back.
"""

from __future__ import annotations

from pygame_core.games.rollcraft.board import BOARD as B
from pygame_core.games.rollcraft.board import DICE, ZONES

from ...dom import button, esc
from ...widgets.seats import name_html, symbol_html
from .icons import COLOUR, action_icon, bonus_icon, decorative, rune_icon, word

BONUS_VERBS = ("question", "t8", "black")
ALL_ZONES = "".join(f'<rect x="{x}" y="{y}" width="9" height="9" rx="2" fill="{COLOUR[z]}" stroke="currentColor" stroke-width="1.2"/>'
                    for (x, y), z in zip(((2, 2), (13, 2), (2, 13), (13, 13)), ("grey", "yellow", "blue", "green")))
VALUE_ZONES = ("blue", "green", "pink")  # a question bonus there takes a value (or a sum), not a box


def split(move: str) -> list[str]:
    return move.split(" ")


def bonus_testid(move: str) -> str:
    return "bonus-" + move.replace(" ", "-")


def plain_choice(targets=frozenset(), pending=None) -> dict:
    """What a zone's boxes offer when no bonus is placed: a die's targets and the one pending.
    (The zones are drawn with `(ctx, sheet, targets, pending)` elsewhere too: ending.py.)"""
    return {"targets": set(targets), "pending": pending, "spots": {}, "values": {}, "bonus": None}


class SheetView:
    """The sheet half of RollCraftView (which provides sheet_seat and my_moves)."""

    # --- what can be chosen on the sheet ------------------------------------------------------
    def targets_now(self, ctx) -> set[str]:
        die = ctx.ui.get("die")
        if not die or ctx.seat is None or self.sheet_seat(ctx) != ctx.seat:
            return set()
        return {split(m)[2] for m in self.my_moves(ctx) if split(m)[0] in ("take", "plus") and split(m)[1] == die
                and split(m)[2] != "none"}

    def bonus_spots(self, ctx) -> tuple[dict, dict]:
        """The pending bonuses' placements on the person's own sheet: ({(zone, where): move} for a
        grey column ("1"…"8"), a yellow box ("Y3") or the next blue/green/pink box ("next", a T8
        bonus there has no choice), {zone: {value: move}} for the values of blue, green, pink).
        A box two pending bonuses could fill gets the coloured one (its own zone) before T8, before
        the black "?" (which could still go anywhere)."""
        if ctx.seat is None or self.sheet_seat(ctx) != ctx.seat:
            return {}, {}
        moves = [m for m in self.my_moves(ctx) if split(m)[0] in BONUS_VERBS and len(split(m)) >= 2]
        moves.sort(key=lambda m: BONUS_VERBS.index(split(m)[0]))  # (stable: the engine's order within a kind)
        spots: dict = {}
        values: dict = {}
        for move in moves:
            parts = split(move)
            zone, arg = parts[1], parts[2] if len(parts) > 2 else None
            if zone in VALUE_ZONES:
                if arg is None:
                    spots.setdefault((zone, "next"), move)
                else:
                    values.setdefault(zone, {}).setdefault(arg, move)
            elif arg is not None:
                spots.setdefault((zone, arg), move)
        return spots, values

    @staticmethod
    def zone_has_target(zone: str, targets: set[str]) -> bool:
        return any(tg == zone or (zone == "yellow" and tg.startswith("Y")) for tg in targets)

    def zone_is_open(self, zone: str, targets: set[str], spots: dict, values: dict) -> bool:
        """Whether the choice now can use `zone` (its tab is marked)."""
        return self.zone_has_target(zone, targets) or zone in values or any(z == zone for z, _ in spots)

    def auto_zone(self, ctx) -> str:
        """The zone shown when the player picked none: where a pending bonus goes, else Grey."""
        for m in self.my_moves(ctx):
            parts = split(m)
            if parts[0] in BONUS_VERBS and len(parts) > 1 and parts[1] in ZONES:
                return parts[1]
        return "grey"

    # --- the sheet --------------------------------------------------------------------------
    def render_sheet(self, ctx, seat: int) -> str:
        state, t = ctx.state, ctx.t
        sheet = state.sheets[seat]
        shown = ctx.ui.get("zone") or self.auto_zone(ctx)
        targets = self.targets_now(ctx)
        spots, values = self.bonus_spots(ctx)
        choice = {"targets": targets, "pending": ctx.ui.get("target"), "spots": spots, "values": values,
                  "bonus": ctx.ui.get("bonus")}
        zones = sheet.zone_scores()
        tabs = "".join(button(esc(word(t, "zone", z)) + f' <span class="num">{zones[i]}</span>', action="zone", arg=z,
                              cls=f"btn small rc-tab rc-tab-{z}" + (" active" if shown == z else "")
                              + (" has-target" if self.zone_is_open(z, targets, spots, values) else ""),
                              testid=f"tab-{z}", aria_pressed="true" if shown == z else "false")
                       for i, z in enumerate(ZONES))
        # "All" as a picture of the five zones (its word kept for screen readers): Polish "Wszystkie"
        # took a second row of tabs, and the choice's boxes went under the action bar.
        every = (f'<svg class="rc-ic" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{ALL_ZONES}</svg>'
                 f'<span class="sr-only">{esc(t("rollcraft.all_zones"))}</span>')
        tabs += button(every, action="zone", arg="all", cls="btn small rc-tab rc-tab-all" + (" active" if shown == "all" else ""),
                       testid="tab-all", aria_pressed="true" if shown == "all" else "false")
        info = ctx.seats[seat] if seat < len(ctx.seats) else {"name": str(seat), "symbol": ""}
        parts = [f'<section class="rc-sheet" data-testid="sheet" aria-label="{esc(t("rollcraft.sheet_of", name=info["name"]))}">',
                 f'<h2 class="rc-sheet-name">{esc(t("rollcraft.sheet_of", name=info["name"]))}</h2>',
                 self.viewing_line(ctx, seat, info),
                 f'<nav class="rc-tabs share-row" aria-label="{esc(t("rollcraft.show_zone"))}">{tabs}</nav>']
        for z, fn in (("grey", self.grey), ("yellow", self.yellow), ("blue", self.blue), ("green", self.green), ("pink", self.pink)):
            hidden = shown not in ("all", z)
            parts.append(f'<div class="rc-zone rc-zone-{z}" data-testid="zone-{z}"{" hidden" if hidden else ""}>'
                         f'<h3>{esc(word(t, "zone", z))} <span class="num" data-testid="score-{z}">{zones[ZONES.index(z)]}</span></h3>'
                         f'{fn(ctx, sheet, targets, choice["pending"], choice)}</div>')
        parts.append(self.stock_and_rounds(ctx, sheet, state))
        parts.append("</section>")
        return "".join(parts)

    def viewing_line(self, ctx, seat: int, info: dict) -> str:
        """Another seat's sheet, tapped in the seat bar: whose it is (read-only) and the way back
        (the same tap again; a move of the person's own brings their sheet back too)."""
        if ctx.view_seat is None or ctx.view_seat != seat:
            return ""
        t = ctx.t
        who = symbol_html(info.get("symbol", "")) + " " + name_html(info["name"])
        back = button(esc(t("rollcraft.close_sheet")), action="view-seat", arg=seat, cls="btn small secondary",
                      testid="sheet-back")
        return (f'<div class="rc-viewing" data-testid="sheet-viewing" role="status"><span>'
                f'{t("rollcraft.viewing", name=who)}</span>{back}</div>')

    def box(self, content: str, *, target: str | None, choice: dict, cls: str, label: str, testid: str,
            bonus: str | None = None, outlined: str | None = None) -> str:
        """One box of the sheet: a button when the choice now may use it (a die's target or a
        bonus placement), else a picture with its label. `outlined` (a zone): this is the next box
        of a zone whose bonus value is picked in the panel (marked, not tapped)."""
        pending = choice["pending"]
        if target is not None and target in choice["targets"]:
            mark = " pending" if pending == target else " cand"
            extra = '<span class="rc-q" aria-hidden="true">?</span>' if pending == target else ""
            return button(content + extra, action="target", arg=target, cls=f"rc-box {cls}{mark}", testid=f"target-{target}",
                          aria_label=label, aria_pressed="true" if pending == target else "false")
        if bonus is not None:
            chosen = choice["bonus"] == bonus
            extra = '<span class="rc-q" aria-hidden="true">?</span>' if chosen else ""
            return button(content + extra, action="bonus", arg=bonus, cls=f"rc-box {cls}" + (" pending" if chosen else " cand"),
                          testid=bonus_testid(bonus), aria_label=label, aria_pressed="true" if chosen else "false")
        if outlined:
            chosen = choice["bonus"] in choice["values"].get(outlined, {}).values()
            extra = '<span class="rc-q" aria-hidden="true">?</span>' if chosen else ""
            cls += " pending" if chosen else " cand"
            return (f'<span class="rc-box {cls}" data-testid="bspot-{esc(testid)}" aria-label="{esc(label)}" role="img">'
                    f'{content}{extra}</span>')
        return f'<span class="rc-box {cls}" data-testid="{esc(testid)}" aria-label="{esc(label)}" role="img">{content}</span>'

    def bonus_text(self, t, code) -> str:
        return word(t, "bonus", code) if code else ""

    @staticmethod
    def foot(code) -> str:
        """A bonus printed under a box: its picture (the box's label names it)."""
        return f'<span class="rc-bonus-sym">{decorative(code) if code else ""}</span>'

    def grey(self, ctx, sheet, targets=frozenset(), pending=None, choice=None) -> str:
        choice = choice or plain_choice(targets, pending)
        t = ctx.t
        die = ctx.ui.get("die")
        value = ctx.state.values[DICE.index(die)] if die else 0
        cols = []
        for col in range(B.faces):
            marks = sheet.grey[col]
            boxes = "".join(f'<span class="rc-mark{" on" if k < marks else ""}">{"✕" if k < marks else col + 1}</span>'
                            for k in range(B.grey_boxes))
            label = f"{col + 1}: {marks}/{B.grey_boxes}, {t('rollcraft.points', n=B.grey_points[col])}, {self.bonus_text(t, B.grey_bonus[col])}"
            content = (f'<span class="rc-col-head">{col + 1}</span>{boxes}<span class="rc-pts">{B.grey_points[col]}</span>'
                       + self.foot(B.grey_bonus[col]))
            target = "grey" if value == col + 1 else None
            cls = "rc-grey-col" + (" complete" if marks == B.grey_boxes else "")
            cols.append(self.box(content, target=target, choice=choice, cls=cls, label=label, testid=f"grey-{col + 1}",
                                 bonus=choice["spots"].get(("grey", str(col + 1)))))
        return f'<div class="rc-grey" dir="ltr">{"".join(cols)}</div>'

    def yellow(self, ctx, sheet, targets=frozenset(), pending=None, choice=None) -> str:
        choice = choice or plain_choice(targets, pending)
        t = ctx.t
        cells = []
        for i, name in enumerate(B.yellow_ids):
            markers = sheet.yellow[i]
            marks = "■ ■" if markers == 2 else "■ □" if markers == 1 else "□ □"
            content = f'<span class="rc-yv">{B.yellow_value[i]}</span><span class="rc-ym">{marks}</span>'
            style = f' style="grid-row:{B.yellow_row[i] + 1};grid-column:{B.yellow_col[i] + 1}"'
            label = f"{name} = {B.yellow_value[i]}, {marks}"
            box = self.box(content, target=name, choice=choice, cls="rc-ybox" + (" complete" if markers == 2 else ""),
                           label=label, testid=f"yellow-{name}", bonus=choice["spots"].get(("yellow", name)))
            cells.append(f'<div class="rc-ycell"{style}>{box}</div>')
        for row, code in enumerate(B.yellow_row_bonus):
            cells.append(f'<div class="rc-ybonus" style="grid-row:{row + 1};grid-column:{B.yellow_cols + 1}">{bonus_icon(t, code)}</div>')
        for col, code in enumerate(B.yellow_col_bonus):
            cells.append(f'<div class="rc-ybonus" style="grid-row:{B.yellow_rows + 1};grid-column:{col + 1}">{bonus_icon(t, code)}</div>')
        return f'<div class="rc-yellow" dir="ltr">{"".join(cells)}</div>'

    def row_zone(self, ctx, zone, written, size, head, foot, choice) -> str:
        t = ctx.t
        cells = []
        for k in range(size):
            text = str(written[k]) if k < len(written) else ""
            nxt = k == len(written)
            content = (f'<span class="rc-head">{esc(head[k])}</span><span class="rc-val">{esc(text)}</span>'
                       + self.foot(foot[k]))
            label = f"{k + 1}: {text or '—'} {head[k]} {self.bonus_text(t, foot[k])}".strip()
            cells.append(self.box(content, target=zone if nxt else None, choice=choice, cls="rc-cell" + (" filled" if text else ""),
                                  label=label, testid=f"{zone}-{k + 1}",
                                  bonus=choice["spots"].get((zone, "next")) if nxt else None,
                                  outlined=zone if nxt and zone in choice["values"] else None))
        return f'<div class="rc-row rc-row-{zone}" dir="ltr">{"".join(cells)}</div>'

    def blue(self, ctx, sheet, targets=frozenset(), pending=None, choice=None) -> str:
        choice = choice or plain_choice(targets, pending)
        return self.row_zone(ctx, "blue", sheet.blue, B.blue_size, [str(p) for p in B.blue_points], B.blue_bonus, choice)

    def green(self, ctx, sheet, targets=frozenset(), pending=None, choice=None) -> str:
        choice = choice or plain_choice(targets, pending)
        return self.row_zone(ctx, "green", sheet.green, B.green_size, [f"×{m}" for m in B.green_mult], B.green_bonus, choice)

    def pink(self, ctx, sheet, targets=frozenset(), pending=None, choice=None) -> str:
        choice = choice or plain_choice(targets, pending)
        t = ctx.t
        return self.row_zone(ctx, "pink", sheet.pink, B.pink_size,
                             [t("rollcraft.threshold", n=th) if th else "" for th in B.pink_threshold], B.pink_bonus, choice)

    def stock_and_rounds(self, ctx, sheet, state) -> str:
        """Saved actions and runes as icons with their counts; the round track's benefits as icons."""
        t = ctx.t
        stock = "".join(f'<li data-testid="stock-{name}">{action_icon(t, name)}<strong class="num">{n}</strong></li>'
                        for name, n in zip(("reroll", "return", "plusOne", "lock"), sheet.stock))
        stock += f'<li data-testid="stock-runes">{rune_icon(t)}<strong class="num">{sheet.runes}</strong></li>'
        rounds = []
        for r in range(1, state.rounds + 1):
            code = B.round_benefits[r - 1] if r <= len(B.round_benefits) else None
            cls = "current" if r == state.round else "past" if r < state.round else ""
            benefit = bonus_icon(t, code) or f'<span role="img" aria-label="{esc(t("rollcraft.no_benefit"))}">–</span>'
            rounds.append(f'<li class="{cls}" data-testid="round-{r}"'
                          f'{" aria-current=" + chr(34) + "step" + chr(34) if r == state.round else ""}>'
                          f'<strong>{r}</strong>{benefit}</li>')
        total = sheet.total()
        return (f'<div class="rc-side"><section><h3>{esc(t("rollcraft.stock"))}</h3><ul class="rc-stock">{stock}</ul></section>'
                f'<section><h3>{esc(t("rollcraft.rounds"))}</h3><ol class="rc-rounds">{"".join(rounds)}</ol></section>'
                f'<p class="rc-total"><span>{esc(t("rollcraft.total"))}</span> <strong class="num" data-testid="sheet-total">{total}</strong></p></div>')
