"""Geek Out! Masters' play screen: the four zones, the score pad, stop/continue with the odds.

All rules come from the engine (`pygame_core.games.geekout`); this module shows them and turns
clicks into proposals. An action takes two taps: the acting die, then its target (only legal
choices are enabled; a Heart or a lone Meeple/Superhero acts at the first tap, since it has no
target). The active dice are shown sorted by face; a die's slot is its place in that order, so a
click names a face without the screen keeping any die identity of its own.

UI state (saved with the game): `actor` — the slot of the acting die chosen, waiting for a target;
`odds` — the stop/continue odds panel is open. Its `marks` (shown once) are what just changed:
slots of dice just thrown, `-(slot + 1)` for a die just flipped, `z-<zone>` for zones whose count
changed.
"""

from __future__ import annotations

from pygame_core.games.geekout import solver
from pygame_core.games.geekout.rules import (
    DRAGON, FACE_NAMES, FACE_OF, FORTYTWO, HEART, HERO, MEEPLE, ROUNDS, SHIP, flip, triangle,
)

from ...dom import attrs, button, esc
from ...gameview import GameView, Move, PlayContext, Roll, Ui
from ...widgets.controls import action_bar
from ...widgets.dice import face_svg
from ...widgets.scorecard import score_table
from . import narrate
from .ending import ENDING

# Catalog keys of the faces (also what an IllegalMove's `face=` param is shown through).
FACE_KEYS = {MEEPLE: "geekout.face.meeple", HERO: "geekout.face.hero", HEART: "geekout.face.heart",
             FORTYTWO: "geekout.face.42", DRAGON: "geekout.face.dragon", SHIP: "geekout.face.ship"}
ACTION_KEYS = {MEEPLE: "geekout.does.meeple", HERO: "geekout.does.hero", HEART: "geekout.does.heart",
               FORTYTWO: "geekout.does.42", DRAGON: "geekout.does.dragon", SHIP: "geekout.does.ship"}
MOVE_KEYS = {MEEPLE: "geekout.move.meeple", HERO: "geekout.move.hero", SHIP: "geekout.move.ship"}
# Opposite faces share a colour (§2.3); the icon, never the colour alone, tells them apart.
COLOUR = {MEEPLE: "green", SHIP: "green", HERO: "yellow", DRAGON: "yellow", HEART: "red", FORTYTWO: "red"}

ICONS = {
    MEEPLE: '<g class="ico"><circle cx="50" cy="27" r="12"/>'
            '<path d="M20 52 Q50 38 80 52 L67 61 L75 86 L57 86 L50 72 L43 86 L25 86 L33 61 Z"/></g>',
    HERO: '<g class="ico"><path d="M12 38 Q50 26 88 38 Q87 68 63 66 L50 57 L37 66 Q13 68 12 38 Z"/>'
          '<ellipse cx="33" cy="46" rx="8" ry="5" class="cut"/><ellipse cx="67" cy="46" rx="8" ry="5" class="cut"/>'
          '<path d="M50 66 L40 84 L60 84 Z"/></g>',
    HEART: '<g class="ico"><path d="M50 84 L19 53 A16.5 16.5 0 0 1 50 31 A16.5 16.5 0 0 1 81 53 Z"/></g>',
    FORTYTWO: '<text x="50" y="53" text-anchor="middle" dominant-baseline="central" class="ico gk-num">42</text>',
    # A winged dragon in profile (wing, horn, spade tail, two legs): the earlier head-only glyph read as a dog.
    DRAGON: '<g class="ico"><path d="M46 56 L26 10 Q38 22 46 18 Q50 30 62 26 Q62 38 74 40 Q62 46 62 56 Z"/>'
            '<path d="M6 72 L14 74 L12 66 L20 72 Q28 68 34 66 Q42 56 58 56 L62 48 L64 38 L70 30 L68 18 L76 26 '
            'L90 28 L94 36 L82 40 L74 48 L72 62 Q68 76 54 76 L34 78 Q24 80 14 76 Z"/>'
            '<path d="M40 76 L34 90 L44 90 L48 76 Z M60 74 L60 90 L70 90 L70 72 Z"/><circle cx="77" cy="32" r="2.5" class="cut"/></g>',
    SHIP: '<g class="ico"><path d="M32 52 Q50 18 68 52 Z"/><ellipse cx="50" cy="58" rx="38" ry="12"/>'
          '<circle cx="30" cy="58" r="3.5" class="cut"/><circle cx="50" cy="61" r="3.5" class="cut"/>'
          '<circle cx="70" cy="58" r="3.5" class="cut"/><path d="M34 68 L26 84 M66 68 L74 84" class="leg"/></g>',
}


def active_faces(state) -> list[int]:
    """The active dice, sorted by face: slot k is the k-th of them."""
    return [face for face in range(1, 7) for _ in range(state.active[face - 1])]


def die_svg(face: int) -> str:
    return face_svg(face, 6, ICONS[face])


def mini_face(face: int | None, cls: str = "") -> str:
    """A small die: a face icon, or a blank die (face None) for zones whose faces do not matter."""
    colour = f" gk-{COLOUR[face]}" if face else " gk-blank"
    inner = die_svg(face) if face else face_svg(0, 6, "")
    return f'<span class="mini gk-mini{colour}{(" " + cls) if cls else ""}">{inner}</span>'


def face_word(t, face: int) -> str:
    return t(FACE_KEYS[face])


class GeekOutView(GameView):
    game = "geekout"
    ending = ENDING  # why the game ended, its final picture (ending.py)
    rules_table_after = 14  # the triangle table follows the scoring paragraph (geekout.rules.14)

    # --- UI state -----------------------------------------------------------------------------
    def check_ui(self, ui, state) -> dict:
        if not isinstance(ui, dict):
            return {"odds": False}
        out = {"odds": bool(ui.get("odds"))}
        actor = ui.get("actor")
        faces = active_faces(state) if getattr(state, "phase", None) == "act" else []
        if type(actor) is int and 0 <= actor < len(faces) and self._targets(state, faces, actor):
            out["actor"] = actor
        return out

    def after_move(self, ui: dict, before, seat: int, move: str, after) -> dict:
        return {"odds": bool(ui.get("odds"))}

    def marks(self, ui: dict, before, seat: int, move: str, after) -> set:
        marks: set = set()
        if after.phase != "over" and after.turn == before.turn:
            faces = active_faces(after)
            if seat < 0:
                for face in set(after.rolled):  # the newest dice of a face sit last among its slots
                    last = max(k for k, f in enumerate(faces) if f == face) if face in faces else None
                    if last is not None:
                        marks.update(range(last, last - after.rolled.count(face), -1))
            elif move.startswith("hero ") and move[5:] in FACE_OF:
                flipped = flip(FACE_OF[move[5:]])
                if flipped in faces:
                    marks.add(-(faces.index(flipped) + 1))
            for zone in ("inactive", "used", "scored"):
                if getattr(before, zone) != getattr(after, zone):
                    marks.add("z-" + zone)
        return marks

    # --- clicks -------------------------------------------------------------------------------
    @staticmethod
    def _targets(state, faces: list[int], actor: int) -> list[int]:
        """Slots a die at slot `actor` may target now (none for a Heart or a lone die)."""
        legal = set(state.legal_moves())
        name = FACE_NAMES[faces[actor]]
        return [k for k, f in enumerate(faces) if k != actor and f"{name} {FACE_NAMES[f]}" in legal]

    @staticmethod
    def _acts_alone(state, face: int) -> str | None:
        """The move a die of this face makes at one tap (a Heart, a lone Meeple/Superhero)."""
        name = FACE_NAMES[face]
        return name if name in state.legal_moves() else None

    def on_action(self, ctx: PlayContext, action: str, arg):
        state, seat = ctx.state, ctx.seat
        if action == "odds":
            return Ui({"odds": not ctx.ui.get("odds")})
        if seat is None or state.is_terminal():
            return None
        if action == "roll" and state.is_chance() and state.roller() == seat:
            return Roll(seat)
        if action in ("stop", "continue") and action in state.legal_moves(seat):
            return Move(seat, action)
        if action == "cancel":
            return Ui({"actor": None}, focus="active-0")
        if action != "die" or state.phase != "act" or not isinstance(arg, str) or not arg.isdigit():
            return None
        faces = active_faces(state)
        slot = int(arg)
        if slot >= len(faces):
            return None
        actor = ctx.ui.get("actor")
        if actor is not None and actor < len(faces):
            if slot == actor:
                return Ui({"actor": None}, focus=f"active-{slot}")
            if slot in self._targets(state, faces, actor):
                return Move(seat, f"{FACE_NAMES[faces[actor]]} {FACE_NAMES[faces[slot]]}")
        alone = self._acts_alone(state, faces[slot])
        if alone:
            return Move(seat, alone)
        targets = self._targets(state, faces, slot)
        if targets:
            return Ui({"actor": slot}, focus=f"active-{targets[0]}")
        return None

    def shortcuts(self, ctx: PlayContext) -> dict:
        state = ctx.state
        keys = {"o": ("odds", None)}
        if state.is_chance():
            keys["r"] = ("roll", None)
        elif state.phase == "decide":
            keys["s"] = ("stop", None)
            keys["c"] = ("continue", None)
        elif ctx.ui.get("actor") is not None:
            keys["Escape"] = ("cancel", None)
        return keys

    # --- words --------------------------------------------------------------------------------
    def describe_move(self, t, move: str) -> str:
        move = str(move)
        word, _, rest = move.partition(" ")
        if word == "roll":
            faces = [int(v) for v in rest.split(" ") if v.isdigit() and 1 <= int(v) <= 6]
            return t("geekout.move.roll", faces=", ".join(face_word(t, f) for f in faces))
        if word in ("stop", "continue"):
            return t("geekout.move.stop") if word == "stop" else t("geekout.move.continue")
        if word == "heart" and not rest:
            return t("geekout.move.heart")
        actor = FACE_OF.get(word)
        if actor in MOVE_KEYS and rest in FACE_OF:
            return t(MOVE_KEYS[actor], target=face_word(t, FACE_OF[rest]))
        if actor in (MEEPLE, HERO) and not rest:
            return t("geekout.move.alone", face=face_word(t, actor))
        return move

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        """The turn's end: banked 42s and points, or the bust (with the dice that caused it)."""
        t = ctx.t
        if not turn:
            return ""
        seat, move, before = turn[-1]
        after = before.clone()
        try:
            after.apply(move, seat)
        except Exception:  # noqa: BLE001 - a log line must never break the screen
            return ""
        last = after.last
        actions = sum(1 for s, m, _ in turn if s >= 0 and m not in ("stop", "continue"))
        if last is None or after.turn == before.turn:
            return esc(t("geekout.log.actions", n=actions))
        if last["result"] == "stop":
            text = t("geekout.log.stop", n=last["scored"], points=last["points"])
            icons = "".join(mini_face(FORTYTWO) for _ in range(min(last["scored"], 10)))
        else:
            key = "geekout.log.self_destruct" if last["result"] == "self_destruct" else "geekout.log.bust"
            text = t(key, n=last["scored"])
            icons = "".join(mini_face(f) for f in range(1, 7) for _ in range(last["active"][f - 1]))
        return f'<span class="gk-turn"><span class="minis" dir="ltr">{icons}</span> {esc(text)}</span>'

    def prompt(self, ctx: PlayContext) -> str:
        state = ctx.state
        actor = ctx.ui.get("actor")
        if state.phase == "act" and actor is not None and ctx.seat is not None:
            faces = active_faces(state)
            if actor < len(faces):
                return ctx.t("geekout.prompt.target", face=face_word(ctx.t, faces[actor]))
        code, params = state.prompt()
        return ctx.t(code, **params)

    def format_value(self, t, value: float) -> str:
        return t.number(value, 2)

    # --- review (pygame_core/games/geekout/review.py): turn points, or chance to win ("unit": "win")
    def review_value(self, t, decision: dict, field: str) -> str:
        if decision.get("unit") != "win":
            return self.format_value(t, decision[field])
        percent = t.number(100 * decision[field], 1)  # a loss: percentage points of the chance to win
        return t("geekout.review.win_loss" if field == "loss" else "geekout.review.win", percent=percent)

    def review_when(self, t, decision: dict) -> str:
        """The round (marked when graded by the chance to win), the phase and what was on the table:
        the active dice for an action, the banked 42s for stop or continue (in words: the widget's
        plain `review_detail` has no catalog, so it stays empty)."""
        where = t("geekout.review.last" if decision.get("unit") == "win" else "geekout.round", n=decision["round"])
        if decision.get("kind") == "act":
            dice = ", ".join(face_word(t, f) for f in range(1, 7) for _ in range(decision["active"][f - 1]))
            return t("geekout.review.when_act", round=where, phase=decision["phase"], dice=dice)
        return t("geekout.review.when_decide", round=where, phase=decision["phase"], n=decision["scored"])

    # --- the play screen ------------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        state = ctx.state
        out = [f'<div class="status">{ctx.platform["seats"]}</div>', ctx.platform["prompt"]]
        board = [f'<div class="board gk-board" data-testid="gk-board" data-phase="{state.phase}" '
                 f'data-round="{state.round()}">', ctx.platform["last"], self.render_active(ctx),
                 self.render_zones(ctx), self.render_odds(ctx), ctx.platform.get("hint", ""), "</div>"]
        out.append('<div class="layout">' + "".join(board) + f'<div class="gk-side">{self.render_pad(ctx)}</div></div>')
        out.append(ctx.platform.get("log", "") + ctx.platform.get("tools", ""))
        out.append(ctx.platform.get("countdown", ""))
        out.append(self.render_actions(ctx))
        return "".join(out)

    def render_active(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        faces = active_faces(state)
        acting = ctx.seat is not None and state.phase == "act"
        actor = ctx.ui.get("actor") if acting else None
        targets = set(self._targets(state, faces, actor)) if actor is not None and actor < len(faces) else set()
        marks = ctx.marks if ctx.animations else set()
        shown_actor, shown_target = narrate.step_slots(ctx, faces)  # a computer's action on show
        dice = []
        for k, face in enumerate(faces):
            words = [face_word(t, face), t(ACTION_KEYS[face])]
            cls = f"die gk-die gk-{COLOUR[face]}"
            if actor is None:
                enabled = acting and (self._acts_alone(state, face) is not None or bool(self._targets(state, faces, k)))
                if enabled:
                    words.append(t("geekout.tap.act"))
            elif k == actor:
                enabled = True
                cls += " acting"
                words.append(t("geekout.tap.cancel"))
            else:
                enabled = k in targets
                if enabled:
                    cls += " target"
                    words.append(t("geekout.tap.target"))
            if actor is None and k in (shown_actor, shown_target):
                cls += " acting" if k == shown_actor else " target"
            if k in marks:
                cls += " roll"
            if -(k + 1) in marks:
                cls += " flip"
            dice.append(f'<button type="button"{attrs(cls=cls, data_action="die", data_arg=k, data_testid=f"active-{k}", data_face=FACE_NAMES[face], aria_pressed="true" if k == actor else None, aria_label=", ".join(words), disabled=not enabled)}>'
                        f'{die_svg(face)}</button>')
        if not dice:
            empty = "geekout.active_none" if state.phase != "roll" else "geekout.active_rolling"
            body = f'<p class="muted gk-empty">{esc(t(empty, n=state.pending))}</p>'
        else:
            body = f'<div class="dice gk-dice" dir="ltr" role="group" aria-label="{esc(t("geekout.zone.active"))}">{"".join(dice)}</div>'
        help_key = ("geekout.help.target" if actor is not None else "geekout.help.act") if acting else None
        help_html = f'<p class="note gk-help" data-testid="gk-help">{esc(t(help_key))}</p>' if help_key else ""
        return (f'<section class="zone gk-zone-active" data-testid="zone-active" data-count="{len(faces)}">'
                f'<h3 class="zone-label">{esc(t("geekout.zone.active"))} <span class="num">({len(faces)})</span></h3>'
                f'{body}{help_html}</section>')

    def render_zones(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        marks = ctx.marks if ctx.animations else set()
        cells = []
        for zone, count, face in (("inactive", state.inactive, None), ("used", state.used, None),
                                  ("scored", state.scored, FORTYTWO)):
            if state.phase == "over":
                count = 0
            icons = "".join(mini_face(face, "gk-used" if zone == "used" else "") for _ in range(count))
            moved = " moved" if f"z-{zone}" in marks else ""
            cells.append(f'<section class="zone gk-zone gk-zone-{zone}{moved}" data-testid="zone-{zone}" data-count="{count}">'
                         f'<h3 class="zone-label">{esc(t(ZONE_KEYS[zone]))} '
                         f'<span class="num">({count})</span></h3><span class="minis" dir="ltr">{icons}</span></section>')
        n = state.scored if state.phase != "over" else 0
        banked = (f'<p class="gk-banked" data-testid="gk-banked" data-n="{n}" data-points="{triangle(n)}">'
                  f'{esc(t("geekout.banked", n=n, points=triangle(n)))}</p>')
        return '<div class="gk-zones">' + "".join(cells) + "</div>" + banked

    def render_odds(self, ctx: PlayContext) -> str:
        """On request: stop now vs continue (expected points of the turn) and the risk of a bust."""
        t, state = ctx.t, ctx.state
        if state.phase != "decide" or not state.used:
            return ""
        toggle = button(esc(t("geekout.odds.hide" if ctx.ui.get("odds") else "geekout.odds.show")), action="odds",
                        cls="btn small", testid="odds", aria_expanded="true" if ctx.ui.get("odds") else "false")
        if not ctx.ui.get("odds"):
            return f'<div class="gk-odds">{toggle}</div>'
        if ctx.asset_state != "loaded" or not solver.available():
            body = f'<p class="muted">{esc(t("advisor.loading"))}</p>'
        else:
            stop = float(triangle(state.scored))
            cont = solver.get_policy().continue_value(state.inactive, state.scored)
            risk = solver.bust_chance(state)
            body = (f'<p data-testid="odds-values" data-stop="{stop:.4f}" data-continue="{cont:.4f}" data-risk="{risk:.4f}">'
                    f'{esc(t("geekout.odds.values", stop=t.number(stop, 1), cont=t.number(cont, 1)))}</p>'
                    f'<p>{esc(t("geekout.odds.risk", percent=t.number(100 * risk, 0), n=state.used))}</p>'
                    f'<p class="muted small">{esc(t("geekout.odds.explain"))}</p>')
        return f'<div class="gk-odds" data-testid="odds-panel">{toggle}{body}</div>'

    def render_pad(self, ctx: PlayContext) -> str:
        """The score pad: every round's points per player, and the totals."""
        t, state = ctx.t, ctx.state
        n = state.num_players
        rows = []
        current_round = state.round() - 1 if state.phase != "over" else None
        for r in range(ROUNDS):
            cells = []
            for s in range(n):
                turns = state.pad[s]
                html = str(turns[r]) if r < len(turns) else ""
                cls = "num" + (" now" if r == current_round and s == state.seat and r >= len(turns) else "")
                cells.append({"html": html, "cls": cls, "testid": f"pad-{s}-{r + 1}"})
            rows.append({"label": esc(t("geekout.round", n=r + 1)), "cells": cells, "testid": f"pad-round-{r + 1}",
                         "cls": "cur-round" if r == current_round else None})
        scores = state.scores()
        rows.append({"label": esc(t("geekout.total")), "cls": "grand", "cells": [
            {"html": str(scores[s]), "cls": "num total" + (" flash" if s in ctx.flash and ctx.animations else ""),
             "testid": f"total-{s}"} for s in range(n)]})
        current = state.roller() if state.is_chance() else state.current_player()
        current = current if current is not None and current >= 0 else None
        return score_table(ctx.seats, rows, current=current, focus=ctx.view_seat, caption=t("geekout.pad"),
                           corner=t("geekout.round_heading"))

    def render_actions(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        person = ctx.seat is not None
        if state.phase == "decide":
            moves = state.legal_moves()
            return action_bar(
                button(esc(t("geekout.stop", points=triangle(state.scored))), action="stop",
                       cls="btn big " + ("primary" if person else "secondary"),
                       testid="stop", disabled=not person),
                button(esc(t("geekout.continue", n=state.used)), action="continue",
                       cls="btn big " + ("primary" if person and "continue" in moves else "secondary"),
                       testid="continue", disabled=not (person and "continue" in moves)))
        if state.phase == "act":
            selected = person and ctx.ui.get("actor") is not None
            return action_bar(button(esc(t("geekout.cancel")), action="cancel", cls="btn big secondary",
                                     testid="cancel", disabled=not selected))
        can_roll = person and state.is_chance() and state.roller() == ctx.seat
        n = state.pending if state.is_chance() else 0
        return action_bar(button(esc(t("geekout.roll", n=max(n, 1))), action="roll",
                                 cls="btn big " + ("primary" if can_roll else "secondary"), testid="roll",
                                 disabled=not can_roll))

    # --- results and rules -----------------------------------------------------------------------
    def breakdown_heads(self, t) -> list[str]:
        return [t("geekout.round_short", n=r + 1) for r in range(ROUNDS)]

    def breakdown(self, state, seat: int) -> list[int]:
        return list(state.pad[seat]) + [0] * (ROUNDS - len(state.pad[seat]))

    def rules_figures(self, t) -> dict[int, str]:
        """The six faces drawn as the dice look in play (`die_svg`, the face colours), after the
        "Dice and zones" heading (geekout.rules.3): each column one colour, a face over its opposite."""
        faces = "".join(f'<li class="gk-face"><span class="mini gk-mini gk-{COLOUR[f]}">{die_svg(f)}</span>'
                        f'<span>{esc(face_word(t, f))}</span></li>' for f in (MEEPLE, HERO, HEART, SHIP, DRAGON, FORTYTWO))
        return {3: f'<ul class="gk-faces" data-testid="rules-faces">{faces}</ul>', self.rules_table_after: self.rules_table(t)}

    def rules_table(self, t) -> str:
        rows = "".join(f'<tr><td class="num">{n}</td><td class="num">{triangle(n)}</td></tr>' for n in range(1, 11))
        return (f'<table class="rules-table" data-testid="rules-score-table"><thead><tr><th scope="col">{esc(t("geekout.table.n"))}</th>'
                f'<th scope="col">{esc(t("geekout.table.points"))}</th></tr></thead><tbody>{rows}</tbody></table>')


ZONE_KEYS = {"inactive": "geekout.zone.inactive", "used": "geekout.zone.used", "scored": "geekout.zone.scored"}
