"""RollCraft T8's play screen: the dice (roll group, chosen row, silver platter), one player's sheet
with its five zones, the stock of saved actions, the round track and the scores.

All rules come from the engine (`pygame_core.games.rollcraft`). A choice is made in steps that stay
in the UI state until confirmed (R2.6): tap a die (`die`), then a highlighted box on the sheet
(`target`); the pending box is outlined and marked "?", the sheet itself (yellow markers too) changes
only when "Confirm" plays the move. A pending bonus shows its placements as buttons; the one tapped
is pending until confirmed. Saved actions (Re-roll, Lock, Return), "Roll on", "End turn", "Skip"
and "Finish +1" are moves at once: the buttons are enabled only when the engine lists them.

UI state (saved with the game): `die` (colour), `target` (a target of that die), `bonus` (a bonus
move), `zone` (the zone shown on a narrow screen: a zone name or "all"). `check_ui` drops what no
longer fits the position.
"""

from __future__ import annotations

from pygame_core.games.rollcraft.board import BOARD as B
from pygame_core.games.rollcraft.board import DICE, ZONES
from pygame_core.games.rollcraft.rules import CHOSEN, GROUP, OUT, PLATTER, SOLO_TIE
from pygame_core.protocol import CHANCE

from ...dom import attrs, button, esc
from ...gameview import GameView, Move, PlayContext, Roll, Ui
from ...widgets.controls import action_bar

LETTER = {"grey": "G", "yellow": "Y", "blue": "B", "green": "Gr", "pink": "P", "white": "W"}
BONUS_WORDS = ("question", "black", "t8", "decline")
PLACES = ((GROUP, "rollcraft.group"), (CHOSEN, "rollcraft.chosen"), (PLATTER, "rollcraft.platter"), (OUT, "rollcraft.out"))


def word(t, kind: str, name) -> str:
    """The catalog name of a game thing: `rollcraft.<kind>.<name>` (die, zone, bonus, action, move)."""
    key = "rollcraft." + kind + "." + str(name)
    return t(key)


def split(move: str) -> list[str]:
    return move.split(" ")


class RollCraftView(GameView):
    game = "rollcraft"
    rules_table_after = 8  # the yellow points table follows the five zones (rollcraft.rules.8)
    _moves_key: tuple | None = None
    _moves: list[str] = []

    # --- UI state -------------------------------------------------------------------------------
    def check_ui(self, ui, state) -> dict:
        if not isinstance(ui, dict):
            return {}
        out = {}
        if ui.get("zone") in ZONES + ("all",):
            out["zone"] = ui["zone"]
        seat = self.acting(state)
        legal = set(state.legal_moves(seat)) if seat is not None else set()
        die, target, bonus = ui.get("die"), ui.get("target"), ui.get("bonus")
        if die in DICE and any(split(m)[0] in ("take", "plus") and split(m)[1] == die for m in legal):
            out["die"] = die
            if isinstance(target, str) and any(m.endswith(" " + die + " " + target) for m in legal):
                out["target"] = target
        if isinstance(bonus, str) and bonus in legal:
            out["bonus"] = bonus
        return out

    def after_move(self, ui: dict, before, seat: int, move: str, after) -> dict:
        keep = {"zone": ui["zone"]} if "zone" in ui else {}
        return keep

    def marks(self, ui: dict, before, seat: int, move: str, after) -> set:
        """The dice (0–5) a throw threw (not the tie-break's draw, which throws no die)."""
        return set(before.rolling_dice()) if seat < 0 and before.phase != SOLO_TIE else set()

    @staticmethod
    def acting(state) -> int | None:
        current = state.current_players()
        return current[0] if current and current != [CHANCE] else None

    # --- clicks ---------------------------------------------------------------------------------
    def on_action(self, ctx: PlayContext, action: str, arg):
        state, seat = ctx.state, ctx.seat
        if action == "zone" and arg in ZONES + ("all",):
            return Ui({"zone": arg})
        if seat is None or state.is_terminal():
            return None
        if action == "roll" and state.is_chance() and state.roller() == seat:
            return Roll(seat)
        legal = state.legal_moves(seat) if not state.is_chance() else []
        if action == "die" and arg in DICE:
            if ctx.ui.get("die") == arg:
                return Ui({"die": None, "target": None})
            targets = [split(m)[2] for m in legal if split(m)[0] in ("take", "plus") and split(m)[1] == arg]
            if targets:
                change = {"die": arg, "target": None, "bonus": None}
                zones = [z for z in ZONES if self.zone_has_target(z, set(targets))]
                if zones and ctx.ui.get("zone") not in zones:
                    change["zone"] = zones[0]  # show where the die can go: one tap less on a phone
                return Ui(change)
            return None
        if action == "target" and ctx.ui.get("die"):
            if any(split(m)[0] in ("take", "plus") and split(m)[1:] == [ctx.ui["die"], arg] for m in legal):
                return Ui({"target": arg})
            return None
        if action == "bonus" and arg in legal:
            return Ui({"bonus": arg, "die": None, "target": None})
        if action == "cancel":
            return Ui({"die": None, "target": None, "bonus": None})
        if action == "confirm":
            move = self.pending_move(ctx, legal)
            return Move(seat, move) if move else None
        if action == "empty" and ctx.ui.get("die") and f"take {ctx.ui['die']} none" in legal:
            return Move(seat, f"take {ctx.ui['die']} none")
        if action == "act" and arg in legal and split(arg)[0] in ("reroll", "lock", "return", "throw", "end", "pass", "done"):
            return Move(seat, arg)
        return None

    def pending_move(self, ctx: PlayContext, legal: list[str]) -> str | None:
        ui = ctx.ui
        if ui.get("bonus") in legal:
            return ui["bonus"]
        die, target = ui.get("die"), ui.get("target")
        if die and target:
            for verb in ("take", "plus"):
                move = f"{verb} {die} {target}"
                if move in legal:
                    return move
        return None

    def shortcuts(self, ctx: PlayContext) -> dict:
        return {"Escape": ("cancel", None)}

    # --- words ----------------------------------------------------------------------------------
    def target_text(self, t, target: str, value: int | None = None) -> str:
        if target == "none":
            return t("rollcraft.empty_choice")
        if target in ZONES:
            return word(t, "zone", target)
        return t("rollcraft.zone.yellow") + " " + target

    def describe_move(self, t, move: str) -> str:
        move = str(move)
        parts = split(move)
        verb = parts[0]
        if verb in ("take", "plus") and len(parts) == 3 and parts[1] in DICE:
            key = "rollcraft.move.take" if verb == "take" else "rollcraft.move.plus"
            return t(key, die=word(t, "die", parts[1]), target=self.target_text(t, parts[2]))
        if verb in ("question", "t8", "black") and len(parts) >= 2:
            code = "question:black" if verb == "black" else verb + ":" + parts[1]
            target = word(t, "zone", parts[1]) + (" " + parts[2] if len(parts) > 2 else "")
            return t("rollcraft.move.bonus", bonus=word(t, "bonus", code), target=target)
        if verb == "decline":
            code = "question:black" if parts[1:] == ["black"] else ":".join(parts[1:])
            return t("rollcraft.move.decline", bonus=word(t, "bonus", code))
        if verb in ("lock", "return") and len(parts) == 2:
            key = "rollcraft.move." + verb
            return t(key, die=word(t, "die", parts[1]))
        if verb in ("pass", "done", "reroll", "throw", "end"):
            return word(t, "move", verb)
        if verb == "roll":
            return t("rollcraft.move.roll", dice=" ".join(parts[1:]))
        return move

    def prompt(self, ctx: PlayContext) -> str:
        code, params = ctx.state.prompt(ctx.seat)
        if "bonus" in params:
            params = {**params, "bonus": word(ctx.t, "bonus", params["bonus"])}
        return ctx.t(code, **params)

    # --- the play screen ------------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        state, t = ctx.state, ctx.t
        seat = self.sheet_seat(ctx)
        head = (f'<p class="rollcraft-round" data-testid="rollcraft-round">'
                f'{esc(t("rollcraft.round", round=state.round, rounds=state.rounds))}</p>')
        out = [f'<div class="status">{ctx.platform.get("seats", "")}</div>', ctx.platform.get("prompt", ""), head]
        out.append(f'<div class="rollcraft" data-testid="rollcraft" data-phase="{esc(state.phase)}" data-sheet="{seat}">')
        out.append(ctx.platform.get("last", ""))
        out.append(self.render_dice(ctx))
        out.append(self.render_choice(ctx))
        out.append(self.render_sheet(ctx, seat))
        out.append(ctx.platform.get("hint", ""))
        out.append("</div>")
        out.append(ctx.platform.get("log", "") + ctx.platform.get("tools", ""))
        out.append(ctx.platform.get("countdown", ""))
        out.append(self.render_actions(ctx))
        return "".join(out)

    def sheet_seat(self, ctx: PlayContext) -> int:
        if ctx.view_seat is not None:
            return ctx.view_seat
        if ctx.seat is not None:
            return ctx.seat
        state = ctx.state
        acting = self.acting(state)
        if acting is not None:
            return acting
        return state.active if not state.is_terminal() else 0

    def my_moves(self, ctx: PlayContext) -> list[str]:
        """The legal moves of the person at the screen (listed once per position and seat)."""
        state = ctx.state
        if ctx.seat is None or state.is_chance() or state.is_terminal():
            return []
        key = (id(state), ctx.index, ctx.seat, state.phase, tuple(state.values), tuple(state.where))
        if self._moves_key != key:
            self._moves_key, self._moves = key, state.legal_moves(ctx.seat)
        return self._moves

    def render_dice(self, ctx: PlayContext) -> str:
        state, t = ctx.state, ctx.t
        moves = self.my_moves(ctx)
        pickable = {split(m)[1] for m in moves if split(m)[0] in ("take", "plus")}
        used = set(state.used[ctx.seat]) if ctx.seat is not None else set()
        selected = ctx.ui.get("die")
        sections = []
        for place, key in PLACES:
            dice = [d for d in range(6) if state.where[d] == place]
            if place == OUT and not dice:
                continue
            items = []
            for d in dice:
                name = DICE[d]
                value = state.values[d]
                words = [t("rollcraft.die_label", die=word(t, "die", name), value=value)]
                if d in state.locked:
                    words.append(t("rollcraft.locked"))
                if d in used and state.phase in ("plus", "passive"):
                    words.append(t("rollcraft.used"))
                cls = f"die rc-die rc-d-{name}" + (" held" if d in state.locked else "") + (" selected" if selected == name else "")
                cls += " roll" if ctx.animations and d in ctx.marks else ""
                inner = (f'<svg class="die-svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
                         f'<polygon points="50,3 95,28 95,72 50,97 5,72 5,28" class="face rc-face"/>'
                         + (f'<text x="50" y="50" text-anchor="middle" dominant-baseline="central" class="numeral">{value}</text>' if value else "")
                         + f'<text x="50" y="84" text-anchor="middle" class="rc-letter">{LETTER[name]}</text></svg>')
                lock = '<span class="lock" aria-hidden="true">🔒</span>' if d in state.locked else ""
                items.append(f'<button type="button"{attrs(cls=cls, data_action="die", data_arg=name, data_testid=f"die-{name}", data_value=value, aria_pressed="true" if selected == name else "false", aria_label=", ".join(words), disabled=name not in pickable)}>{inner}{lock}</button>')
            body = "".join(items) or '<span class="muted">—</span>'
            sections.append(f'<section class="rc-dice-zone" data-testid="dice-{place}"><h3 class="zone-label">{esc(t(key))}</h3>'
                            f'<div class="rc-dice" dir="ltr">{body}</div></section>')
        return '<div class="rc-dicebox">' + "".join(sections) + "</div>"

    def render_choice(self, ctx: PlayContext) -> str:
        """The pending selection and the bonus options (one bonus at a time)."""
        state, t = ctx.state, ctx.t
        moves = self.my_moves(ctx)
        out = []
        bonus_moves = [m for m in moves if split(m)[0] in BONUS_WORDS]
        if bonus_moves:
            pending = state.sheets[ctx.seat].pending
            chosen = ctx.ui.get("bonus")
            buttons = []
            for m in bonus_moves:
                if split(m)[0] == "decline":
                    continue
                cls = "btn small rc-bonus-opt" + (" pending" if m == chosen else "")
                buttons.append(button(esc(self.describe_move(t, m)), action="bonus", arg=m, cls=cls,
                                      testid="bonus-" + m.replace(" ", "-"), aria_pressed="true" if m == chosen else "false"))
            declines = [m for m in bonus_moves if split(m)[0] == "decline"]
            for m in declines:
                buttons.append(button(esc(t("rollcraft.decline") + ": " + self.describe_move(t, m).split(" ", 1)[-1]),
                                      action="bonus", arg=m, cls="btn small secondary" + (" pending" if m == chosen else ""),
                                      testid="bonus-" + m.replace(" ", "-")))
            names = ", ".join(word(t, "bonus", code) for code in pending)
            out.append(f'<section class="rc-bonus" data-testid="bonus-panel"><h3>{esc(names)}</h3>'
                       f'<div class="rc-bonus-list">{"".join(buttons)}</div></section>')
        die, target = ctx.ui.get("die"), ctx.ui.get("target")
        if die:
            choice = word(t, "die", die) + (" → " + self.target_text(t, target) if target else "")
            out.append(f'<p class="note rc-pending" data-testid="pending" role="status">{esc(t("rollcraft.pending", choice=choice))}</p>')
        elif any(split(m)[0] in ("take", "plus") for m in moves):
            out.append(f'<p class="note muted">{esc(t("rollcraft.pick_die"))}</p>')
        return "".join(out)

    # --- the sheet ----------------------------------------------------------------------------
    def targets_now(self, ctx: PlayContext) -> set[str]:
        die = ctx.ui.get("die")
        if not die or ctx.seat is None or self.sheet_seat(ctx) != ctx.seat:
            return set()
        return {split(m)[2] for m in self.my_moves(ctx) if split(m)[0] in ("take", "plus") and split(m)[1] == die
                and split(m)[2] != "none"}

    def render_sheet(self, ctx: PlayContext, seat: int) -> str:
        state, t = ctx.state, ctx.t
        sheet = state.sheets[seat]
        shown = ctx.ui.get("zone") or self.auto_zone(ctx)
        targets = self.targets_now(ctx)
        pending = ctx.ui.get("target")
        zones = sheet.zone_scores()
        tabs = "".join(button(esc(word(t, "zone", z)) + f' <span class="num">{zones[i]}</span>', action="zone", arg=z,
                              cls=f"btn small rc-tab rc-tab-{z}" + (" active" if shown == z else "")
                              + (" has-target" if self.zone_has_target(z, targets) else ""),
                              testid=f"tab-{z}", aria_pressed="true" if shown == z else "false")
                       for i, z in enumerate(ZONES))
        tabs += button(esc(t("rollcraft.all_zones")), action="zone", arg="all", cls="btn small rc-tab" + (" active" if shown == "all" else ""),
                       testid="tab-all", aria_pressed="true" if shown == "all" else "false")
        name = ctx.seats[seat]["name"] if seat < len(ctx.seats) else str(seat)
        parts = [f'<section class="rc-sheet" data-testid="sheet" aria-label="{esc(t("rollcraft.sheet_of", name=name))}">',
                 f'<h2 class="rc-sheet-name">{esc(t("rollcraft.sheet_of", name=name))}</h2>',
                 f'<nav class="rc-tabs share-row" aria-label="{esc(t("rollcraft.show_zone"))}">{tabs}</nav>']
        for z, fn in (("grey", self.grey), ("yellow", self.yellow), ("blue", self.blue), ("green", self.green), ("pink", self.pink)):
            hidden = shown not in ("all", z)
            parts.append(f'<div class="rc-zone rc-zone-{z}" data-testid="zone-{z}"{" hidden" if hidden else ""}>'
                         f'<h3>{esc(word(t, "zone", z))} <span class="num" data-testid="score-{z}">{zones[ZONES.index(z)]}</span></h3>'
                         f'{fn(ctx, sheet, targets, pending)}</div>')
        parts.append(self.stock_and_rounds(ctx, sheet, state))
        parts.append("</section>")
        return "".join(parts)

    def auto_zone(self, ctx: PlayContext) -> str:
        """The zone shown when the player picked none: where a pending bonus goes, else Grey."""
        for m in self.my_moves(ctx):
            parts = split(m)
            if parts[0] in ("question", "t8") and parts[1] in ZONES:
                return parts[1]
            if parts[0] == "black":
                return parts[1]
        return "grey"

    @staticmethod
    def zone_has_target(zone: str, targets: set[str]) -> bool:
        return any(tg == zone or (zone == "yellow" and tg.startswith("Y")) for tg in targets)

    def box(self, content: str, *, target: str | None, targets: set[str], pending: str | None, cls: str, label: str,
            testid: str) -> str:
        if target is not None and target in targets:
            mark = " pending" if pending == target else " cand"
            extra = '<span class="rc-q" aria-hidden="true">?</span>' if pending == target else ""
            return button(content + extra, action="target", arg=target, cls=f"rc-box {cls}{mark}", testid=f"target-{target}",
                          aria_label=label, aria_pressed="true" if pending == target else "false")
        return f'<span class="rc-box {cls}" data-testid="{esc(testid)}" aria-label="{esc(label)}" role="img">{content}</span>'

    def bonus_text(self, t, code) -> str:
        return word(t, "bonus", code) if code else ""

    def grey(self, ctx, sheet, targets, pending) -> str:
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
                       f'<span class="rc-bonus-sym">{esc(self.bonus_text(t, B.grey_bonus[col]))}</span>')
            target = "grey" if value == col + 1 else None
            cls = "rc-grey-col" + (" complete" if marks == B.grey_boxes else "")
            cols.append(self.box(content, target=target, targets=targets, pending=pending, cls=cls, label=label,
                                 testid=f"grey-{col + 1}"))
        return f'<div class="rc-grey" dir="ltr">{"".join(cols)}</div>'

    def yellow(self, ctx, sheet, targets, pending) -> str:
        t = ctx.t
        cells = []
        for i, name in enumerate(B.yellow_ids):
            markers = sheet.yellow[i]
            marks = "■ ■" if markers == 2 else "■ □" if markers == 1 else "□ □"
            content = f'<span class="rc-yv">{B.yellow_value[i]}</span><span class="rc-ym">{marks}</span>'
            style = f' style="grid-row:{B.yellow_row[i] + 1};grid-column:{B.yellow_col[i] + 1}"'
            label = f"{name} = {B.yellow_value[i]}, {marks}"
            box = self.box(content, target=name, targets=targets, pending=pending, cls="rc-ybox" + (" complete" if markers == 2 else ""),
                           label=label, testid=f"yellow-{name}")
            cells.append(f'<div class="rc-ycell"{style}>{box}</div>')
        for row, code in enumerate(B.yellow_row_bonus):
            cells.append(f'<div class="rc-ybonus" style="grid-row:{row + 1};grid-column:{B.yellow_cols + 1}">{esc(self.bonus_text(t, code))}</div>')
        for col, code in enumerate(B.yellow_col_bonus):
            cells.append(f'<div class="rc-ybonus" style="grid-row:{B.yellow_rows + 1};grid-column:{col + 1}">{esc(self.bonus_text(t, code))}</div>')
        return f'<div class="rc-yellow" dir="ltr">{"".join(cells)}</div>'

    def row_zone(self, ctx, zone, written, size, head, foot, targets, pending) -> str:
        cells = []
        for k in range(size):
            text = str(written[k]) if k < len(written) else ""
            target = zone if k == len(written) else None
            content = f'<span class="rc-head">{esc(head[k])}</span><span class="rc-val">{esc(text)}</span><span class="rc-bonus-sym">{esc(foot[k])}</span>'
            label = f"{k + 1}: {text or '—'} {head[k]} {foot[k]}".strip()
            cells.append(self.box(content, target=target, targets=targets, pending=pending, cls=f"rc-cell" + (" filled" if text else ""),
                                  label=label, testid=f"{zone}-{k + 1}"))
        return f'<div class="rc-row rc-row-{zone}" dir="ltr">{"".join(cells)}</div>'

    def blue(self, ctx, sheet, targets, pending) -> str:
        t = ctx.t
        return self.row_zone(ctx, "blue", sheet.blue, B.blue_size, [str(p) for p in B.blue_points],
                             [self.bonus_text(t, c) for c in B.blue_bonus], targets, pending)

    def green(self, ctx, sheet, targets, pending) -> str:
        t = ctx.t
        return self.row_zone(ctx, "green", sheet.green, B.green_size, ["×%d" % m for m in B.green_mult],
                             [self.bonus_text(t, c) for c in B.green_bonus], targets, pending)

    def pink(self, ctx, sheet, targets, pending) -> str:
        t = ctx.t
        return self.row_zone(ctx, "pink", sheet.pink, B.pink_size,
                             [t("rollcraft.threshold", n=th) if th else "" for th in B.pink_threshold],
                             [self.bonus_text(t, c) for c in B.pink_bonus], targets, pending)

    def stock_and_rounds(self, ctx, sheet, state) -> str:
        t = ctx.t
        stock = "".join(f'<li data-testid="stock-{name}"><span>{esc(word(t, "action", name))}</span> <strong class="num">{n}</strong></li>'
                        for name, n in zip(("reroll", "return", "plusOne", "lock"), sheet.stock))
        stock += f'<li data-testid="stock-runes"><span>{esc(t("rollcraft.runes"))}</span> <strong class="num">{sheet.runes}</strong></li>'
        rounds = []
        for r in range(1, state.rounds + 1):
            code = B.round_benefits[r - 1] if r <= len(B.round_benefits) else None
            cls = "current" if r == state.round else "past" if r < state.round else ""
            rounds.append(f'<li class="{cls}" data-testid="round-{r}"><strong>{r}</strong> '
                          f'<span>{esc(self.bonus_text(t, code) or t("rollcraft.no_benefit"))}</span></li>')
        total = sheet.total()
        return (f'<div class="rc-side"><section><h3>{esc(t("rollcraft.stock"))}</h3><ul class="rc-stock">{stock}</ul></section>'
                f'<section><h3>{esc(t("rollcraft.rounds"))}</h3><ol class="rc-rounds">{"".join(rounds)}</ol></section>'
                f'<p class="rc-total"><span>{esc(t("rollcraft.total"))}</span> <strong class="num" data-testid="sheet-total">{total}</strong></p></div>')

    # --- the action bar ---------------------------------------------------------------------------
    def render_actions(self, ctx: PlayContext) -> str:
        state, t = ctx.state, ctx.t
        moves = self.my_moves(ctx)
        buttons = []
        if state.is_chance() and ctx.seat is not None and state.roller() == ctx.seat:
            buttons.append(button(esc(t("rollcraft.roll")), action="roll", cls="btn big primary", testid="roll"))
        pending = self.pending_move(ctx, moves) if moves else None
        if any(split(m)[0] in ("take", "plus") or split(m)[0] in BONUS_WORDS for m in moves):
            buttons.append(button(esc(t("rollcraft.confirm")), action="confirm", cls="btn big " + ("primary" if pending else "secondary"),
                                  testid="confirm", disabled=not pending))
            buttons.append(button(esc(t("rollcraft.cancel")), action="cancel", cls="btn secondary", testid="cancel",
                                  disabled=not (ctx.ui.get("die") or ctx.ui.get("bonus"))))
        die = ctx.ui.get("die")
        if die and f"take {die} none" in moves:
            buttons.append(button(esc(t("rollcraft.empty")), action="empty", cls="btn secondary", testid="empty"))
        for m in moves:
            verb = split(m)[0]
            if verb in ("reroll", "throw", "end", "pass", "done"):
                label = {"reroll": t("rollcraft.use", action=t("rollcraft.action.reroll")), "throw": t("rollcraft.throw"),
                         "end": t("rollcraft.end"), "pass": t("rollcraft.pass"), "done": t("rollcraft.done")}[verb]
                buttons.append(button(esc(label), action="act", arg=m, cls="btn " + ("primary" if verb == "throw" else "secondary"),
                                      testid=f"act-{verb}"))
            elif verb in ("lock", "return"):  # the log's words are past tense ("returned blue"); a button asks
                die_word = word(t, "die", split(m)[1])
                label = t("rollcraft.do.lock", die=die_word) if verb == "lock" else t("rollcraft.do.return", die=die_word)
                buttons.append(button(esc(label), action="act", arg=m, cls="btn small secondary",
                                      testid="act-" + m.replace(" ", "-")))
        return action_bar(*buttons, share=True)  # four or five: none may cut its word

    # --- results --------------------------------------------------------------------------------
    def breakdown_heads(self, t) -> list[str]:
        return [word(t, "zone", z) for z in ZONES] + [t("rollcraft.runes")]

    def breakdown(self, state, seat: int) -> list[int]:
        parts = state.breakdown(seat)
        return [parts[z] for z in ZONES] + [parts["runes"]]

    def rules_table(self, t) -> str:
        """Yellow's points by completed boxes, read from the engine's board (0, 6, 15, 26 …)."""
        rows = "".join(f'<tr><td class="num">{n}</td><td class="num">{points}</td></tr>'
                       for n, points in enumerate(B.yellow_points))
        return (f'<table class="rules-table" data-testid="rules-yellow-table"><caption>{esc(t("rollcraft.yellow_table.caption"))}</caption>'
                f'<thead><tr><th scope="col">{esc(t("rollcraft.yellow_table.done"))}</th>'
                f'<th scope="col">{esc(t("rollcraft.yellow_table.points"))}</th></tr></thead><tbody>{rows}</tbody></table>')
