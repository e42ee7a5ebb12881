"""RollCraft T8's play screen: the dice (roll group, chosen row, silver platter), one player's sheet
with its five zones, the stock of saved actions, the round track and the scores.

All rules come from the engine (`pygame_core.games.rollcraft`). A choice is made in steps that stay
in the UI state until confirmed (R2.6): tap a die (`die`), then a highlighted box on the sheet
(`target`); the pending box is outlined and marked "?", the sheet itself (yellow markers too) changes
only when "Confirm" plays the move. A pending bonus is placed on the picture of the sheet (its
boxes are buttons there, sheet.py; blue, green and pink take their number in the bonus panel); the
one tapped is pending until confirmed. Saved actions (Re-roll, Lock, Return), "Roll on", "End turn", "Skip"
and "Finish +1" are moves at once: the buttons are enabled only when the engine lists them.

UI state (saved with the game): `die` (colour), `target` (a target of that die), `bonus` (a bonus
move), `zone` (the zone shown on a narrow screen: a zone name or "all"), `over` (the seat whose
sheet, tapped in the seat bar, gave way to the person's own when they tapped a die or a box).
`check_ui` drops what no longer fits the position.
"""

from __future__ import annotations

from pygame_core.games.rollcraft.board import BOARD as B
from pygame_core.games.rollcraft.board import DICE, ZONES
from pygame_core.games.rollcraft.rules import CHOSEN, GROUP, OUT, PLATTER, SOLO_TIE
from pygame_core.protocol import CHANCE

from ...dom import attrs, button, esc
from ...gameview import GameView, Move, PlayContext, Roll, Ui
from ...widgets.controls import action_bar
from .ending import ENDING
from .guide import first_turn
from .icons import bonus_icon
from .review_text import review_when
from .sheet import VALUE_ZONES, SheetView, bonus_testid, split, word
from .turns import turn_html

BONUS_WORDS = ("question", "black", "t8", "decline")
PLACES = ((GROUP, "rollcraft.group"), (CHOSEN, "rollcraft.chosen"), (PLATTER, "rollcraft.platter"), (OUT, "rollcraft.out"))


class RollCraftView(SheetView, GameView):
    game = "rollcraft"
    ending = ENDING  # why the game ended, its final picture (ending.py)
    guide = first_turn  # the guided first turn (guide.py)
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
        if any(a.pending and list(a.pending) != list(b.pending) for a, b in zip(after.sheets, before.sheets)):
            return {}  # a new bonus to place: its zone is shown (auto_zone), with its boxes or numbers
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
        proposal = self.action(ctx, action, arg)
        if (isinstance(proposal, Ui) and action in ("die", "target", "bonus") and ctx.view_seat is not None
                and ctx.view_seat != ctx.seat):
            # The person acts while another seat's sheet is up (seat bar): their own comes back
            # (the platform does this for moves; a selection is the view's own state).
            proposal.changes["over"] = ctx.view_seat
        return proposal

    def action(self, ctx: PlayContext, action: str, arg):
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

    def review_when(self, t, decision: dict) -> str:
        return review_when(t, decision)  # the round, the roll and the dice in words (review_text.py)

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        return turn_html(self, ctx, turn)  # dice as chips, bonuses and saved actions as icons (turns.py)

    def prompt(self, ctx: PlayContext) -> str:
        code, params = ctx.state.prompt(ctx.seat)
        if "bonus" in params:
            params = {**params, "bonus": word(ctx.t, "bonus", params["bonus"])}
        return ctx.t(code, **params)

    # --- the play screen ------------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        state, t = ctx.state, ctx.t
        if ctx.view_seat is None:
            # The seat bar's tap was undone: a later tap on the same seat shows its sheet again.
            ctx.ui.pop("over", None)
        seat = self.sheet_seat(ctx)
        head = (f'<p class="rollcraft-round" data-testid="rollcraft-round">'
                f'{esc(t("rollcraft.round", round=state.round, rounds=state.rounds))}</p>')
        out = [f'<div class="status">{ctx.platform.get("seats", "")}</div>', ctx.platform.get("prompt", ""), head]
        bonus = any(split(m)[0] in BONUS_WORDS for m in self.my_moves(ctx))  # (a phone hides the dice then: style.css)
        out.append(f'<div class="rollcraft" data-testid="rollcraft" data-phase="{esc(state.phase)}" data-sheet="{seat}"'
                   f'{" data-bonus" if bonus else ""}>')
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
        if ctx.view_seat is not None and not (ctx.seat is not None and ctx.ui.get("over") == ctx.view_seat):
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
                         + f'<text x="50" y="84" text-anchor="middle" class="rc-letter">{esc(word(t, "letter", name))}</text></svg>')
                # The die's name is its words (colour, value, locked) in the button, not an aria-label:
                # axe wants an aria-label to contain the drawn text ("6 Y"), which reads worse.
                lock = '<span class="lock" aria-hidden="true">🔒</span>' if d in state.locked else ""
                items.append(f'<button type="button"{attrs(cls=cls, data_action="die", data_arg=name, data_testid=f"die-{name}", data_value=value, aria_pressed="true" if selected == name else "false", disabled=name not in pickable)}>{inner}{lock}<span class="sr-only">{esc(", ".join(words))}</span></button>')
            body = "".join(items) or '<span class="muted">—</span>'
            sections.append(f'<section class="rc-dice-zone" data-testid="dice-{place}"><h3 class="zone-label">{esc(t(key))}</h3>'
                            f'<div class="rc-dice" dir="ltr">{body}</div></section>')
        return '<div class="rc-dicebox">' + "".join(sections) + "</div>"

    def render_choice(self, ctx: PlayContext) -> str:
        """The pending selection, or the bonus panel (its placements are boxes on the sheet)."""
        t = ctx.t
        moves = self.my_moves(ctx)
        out = []
        if any(split(m)[0] in BONUS_WORDS for m in moves):
            out.append(self.bonus_panel(ctx, moves))
        die, target = ctx.ui.get("die"), ctx.ui.get("target")
        if die:
            choice = word(t, "die", die) + (" → " + self.target_text(t, target) if target else "")
            out.append(f'<p class="note rc-pending" data-testid="pending" role="status">{esc(t("rollcraft.pending", choice=choice))}</p>')
        elif any(split(m)[0] in ("take", "plus") for m in moves):
            out.append(f'<p class="note muted">{esc(t("rollcraft.pick_die"))}</p>')
        return "".join(out)

    def bonus_panel(self, ctx: PlayContext, moves: list[str]) -> str:
        """The pending bonuses as icons, where to place them (tap a highlighted box on the sheet;
        blue, green and pink: the number for their outlined box here), and a Decline for each."""
        t = ctx.t
        chosen = ctx.ui.get("bonus")
        shown = ctx.ui.get("zone") or self.auto_zone(ctx)
        codes = list(dict.fromkeys(ctx.state.sheets[ctx.seat].pending))
        _, values = self.bonus_spots(ctx)
        rows = []
        for zone in VALUE_ZONES:
            if zone not in values:
                continue
            key = "rollcraft.sum" if zone == "blue" else "rollcraft.value"
            buttons = "".join(button(esc(v), action="bonus", arg=m, cls="btn small rc-value" + (" pending" if m == chosen else ""),
                                     testid=bonus_testid(m), aria_label=word(t, "zone", zone) + ": " + t(key, n=v),
                                     aria_pressed="true" if m == chosen else "false")
                              for v, m in sorted(values[zone].items(), key=lambda item: int(item[0])))
            rows.append(f'<div class="rc-values rc-zone-{zone}" role="group" data-testid="values-{zone}" aria-label="{esc(word(t, "zone", zone))}"'
                        f'{"" if shown in ("all", zone) else " hidden"}><span class="rc-values-zone" aria-hidden="true">'
                        f'{esc(word(t, "zone", zone))}</span>{buttons}</div>')
        declines = "".join(button(bonus_icon(t, code) + " " + esc(t("rollcraft.decline")), action="bonus", arg=m,
                                  cls="btn small secondary rc-decline" + (" pending" if m == chosen else ""), testid=bonus_testid(m))
                           for m in moves if split(m)[0] == "decline"
                           for code in ["question:black" if split(m)[1:] == ["black"] else ":".join(split(m)[1:])])
        picking = any(zone in values and shown in ("all", zone) for zone in VALUE_ZONES)
        hint = t("rollcraft.bonus_pick") if picking else t("rollcraft.bonus_tap")
        icons = "".join(bonus_icon(t, code, "rc-ic-big") for code in codes)
        return (f'<section class="rc-bonus" data-testid="bonus-panel"><div class="rc-bonus-head"><h3>{icons}'
                f'<span class="rc-bonus-how">{esc(hint)}</span></h3><div class="rc-bonus-list">{declines}</div></div>'
                f'{"".join(rows)}</section>')

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
