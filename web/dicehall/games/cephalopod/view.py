"""Cephalopod's play screen: the board (shared board widget), the capture picker, the history.

Every die shows its owner's symbol *and* its pip value (never colour alone). Tapping an empty
square where nothing can be captured places a die at once. Tapping a square where a capture is
compulsory opens the capture picker: the player taps the neighbouring dice to remove one by one
(only dice that can still complete a capturing set are offered), sees the new die's value and
what will be removed, and confirms; a capture that is the only possible one is preselected and
explained. The last move stays marked (placed square, squares it emptied). A history bar steps
through the game's earlier positions (UI only).

UI state (saved with the game, checked against the position by `check_ui`):
  at      the square being captured from (None: no picker open)
  picked  the neighbouring squares chosen so far (notation order)
  step    the history position shown (number of moves), None for the live position
All rules come from the engine (`pygame_core.games.cephalopod`); nothing here changes a game.

Colours (ruling, issue 29 item 7): a seat's colour in Cephalopod is the colour of its pieces,
White (seat 0) and Black (seat 1), the rules' names in every language (`cephalopod.colour.*`). The
dice are drawn white and black (`PIECE`), and on this game's screen every seat symbol, in the
shared seat bar and banners too, is drawn in plain ink, not in the seat colours the app gives
symbols elsewhere (red, blue…): its shape still tells the seats apart (never colour alone) and no
red or blue contradicts "White" and "Black". The legend shows each seat's piece, a white or black
die bearing the seat's symbol, next to the name and the colour's word (style.css). Screens
without the game's scope (set-up, results) keep the app's seat colours.
"""

from __future__ import annotations

from pygame_core.games.cephalopod.rules import SEATS

from ...dom import button, esc
from ...gameview import GameView, Move, PlayContext, Ui
from ...widgets.board import board_grid
from ...widgets.controls import action_bar
from ...widgets.seats import name_html, symbol_html
from .ending import ENDING

FRESH = {"at": None, "picked": [], "step": None}
PIECE = ("white", "black")  # the class of each seat's pieces: the colour its label names (SEATS)


def piece_html(symbol: str, seat: int) -> str:
    """A seat's piece as the legend shows it: a small die of its colour bearing its symbol."""
    return f'<span class="ceph-piece {PIECE[seat]}" aria-hidden="true">{esc(symbol)}</span>'


def file_names(size: int) -> list[str]:
    return [chr(ord("a") + c) for c in range(size)]


def capture_sets(state, name: str) -> list[tuple[list[str], int]]:
    """The capturing sets at the empty square `name`: ([captured square names], pip total)."""
    geo = state.geo
    return [([geo.names[t] for t in squares], total) for squares, total in state.capture_sets(geo.index[name])]


def capture_move(at: str, picked: list[str]) -> str:
    return at + "x " + " ".join(sorted(picked))


def split_move(move: str) -> tuple[str, list[str]]:
    """(placed square, captured squares) of a move in notation."""
    head, *rest = move.split(" ")
    return (head[:-1], rest) if head.endswith("x") else (head, [])


class CephalopodView(GameView):
    game = "cephalopod"
    ending = ENDING  # why the game ended, its final picture (ending.py)

    # --- UI state ----------------------------------------------------------------------------
    def check_ui(self, ui, state) -> dict:
        if not isinstance(ui, dict):
            return dict(FRESH)
        out = dict(FRESH)
        step = ui.get("step")
        if type(step) is int and 0 <= step < state.plies:
            out["step"] = step
        at, picked = ui.get("at"), ui.get("picked")
        if isinstance(at, str) and at in state.geo.index and not state.is_terminal():
            sets = capture_sets(state, at) if not state.cells[state.geo.index[at]] else []
            if sets and isinstance(picked, list) and all(isinstance(p, str) for p in picked):
                chosen = sorted(set(picked))
                if any(set(chosen) <= set(squares) for squares, _ in sets):
                    out["at"], out["picked"] = at, chosen
        return out

    def after_move(self, ui: dict, before, seat: int, move: str, after) -> dict:
        return {**ui, "at": None, "picked": [], "step": None}

    # --- clicks -------------------------------------------------------------------------------
    def on_action(self, ctx: PlayContext, action: str, arg):
        state, seat, ui = ctx.state, ctx.seat, self.check_ui(ctx.ui, ctx.state)
        if action.startswith("history-"):
            return self.history_action(state, ui, action)
        if seat is None or state.is_terminal():
            return None
        if action == "place" and arg in state.geo.index:
            if ui["step"] is not None or state.cells[state.geo.index[arg]]:
                return None
            sets = capture_sets(state, arg)
            if not sets:
                return Move(seat, arg)
            # several sets: pick one by one; a single (forced) set is preselected and explained
            picked = sets[0][0] if len(sets) == 1 else []
            return Ui({"at": arg, "picked": picked}, focus="confirm-capture" if picked else None)
        if action == "pick" and ui["at"] and arg:
            chosen = set(ui["picked"]) ^ {arg}
            sets = capture_sets(state, ui["at"])
            if any(chosen <= set(squares) for squares, _ in sets):
                complete = any(set(squares) == chosen for squares, _ in sets)
                return Ui({"picked": sorted(chosen)}, focus="confirm-capture" if complete else None)
            return None
        if action == "confirm" and ui["at"]:
            if any(sorted(squares) == ui["picked"] for squares, _ in capture_sets(state, ui["at"])):
                return Move(seat, capture_move(ui["at"], ui["picked"]))
            return None
        if action == "cancel":
            return Ui({"at": None, "picked": []})
        return None

    def shortcuts(self, ctx: PlayContext) -> dict:
        """Enter confirms a capture, Escape cancels it; the arrow keys step through the history
        (left/right follow the reading direction of the arrows drawn, which never mirror)."""
        return {"Enter": ("confirm", None), "Escape": ("cancel", None), "ArrowLeft": ("history-back", None),
                "ArrowRight": ("history-forward", None), "Home": ("history-first", None), "End": ("history-live", None)}

    def history_action(self, state, ui: dict, action: str):
        total = state.plies
        step = total if ui["step"] is None else ui["step"]
        target = {"history-first": 0, "history-back": step - 1, "history-forward": step + 1,
                  "history-live": total}.get(action)
        if target is None or total == 0:
            return None
        target = max(0, min(total, target))
        return Ui({"step": None if target >= total else target, "at": None, "picked": []})

    def apply_hint(self, ctx: PlayContext, move: str):
        """Apply opens the picker with a suggested capture marked (the player confirms); a plain
        placement is played."""
        at, captured = split_move(move)
        if captured:
            return Ui({"at": at, "picked": sorted(captured), "step": None})
        return Move(ctx.seat, move) if ctx.seat is not None else None

    # --- words -------------------------------------------------------------------------------
    def describe_move(self, t, move: str) -> str:
        at, captured = split_move(str(move))
        if captured:
            return t("cephalopod.move.capture", square=at, captured=", ".join(captured))
        return t("cephalopod.move.place", square=at)

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        moves = [(seat, move, before) for seat, move, before in turn if seat >= 0]
        if not moves:
            return ""
        seat, move, before = moves[-1]
        at, captured = split_move(move)
        if captured:
            total = sum(before.die(before.geo.index[c])[1] for c in captured)
            text = ctx.t("cephalopod.last.capture", square=at, captured=", ".join(captured), value=total)
        else:
            text = ctx.t("cephalopod.last.place", square=at)
        return f'<span data-testid="last-move-text">{esc(text)}</span>'

    def prompt(self, ctx: PlayContext) -> str:
        if ctx.seat is not None and self.check_ui(ctx.ui, ctx.state)["at"]:
            return ctx.t("cephalopod.prompt.pick")
        code, params = ctx.state.prompt()
        return ctx.t(code, **params)

    def format_value(self, t, value: float) -> str:
        return t("cephalopod.value", value=f"{value:+.1f}")

    def review_when(self, t, decision: dict) -> str:
        return t("cephalopod.review.when", turn=decision["turn"])

    # --- the play screen ------------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        t, state = ctx.t, ctx.state
        ui = self.check_ui(ctx.ui, state)
        shown = state if ui["step"] is None else state.after(ui["step"])
        live = ui["step"] is None
        person = ctx.seat is not None and live and not state.is_terminal()
        picking = person and ui["at"] is not None
        out = [ctx.platform["seats"], self.legend(ctx), ctx.platform["prompt"], '<div class="board cephalopod-board">',
               ctx.platform["last"]]
        out.append(self.render_board(ctx, shown, ui, person, picking))
        if picking:
            out.append(self.render_picker(ctx, ui))
        elif person:
            out.append(f'<p class="note muted" data-testid="place-help">{esc(t("cephalopod.place_help"))}</p>')
        out.append(self.render_history(ctx, ui))
        out.append(ctx.platform.get("hint", "") + "</div>")
        out.append(ctx.platform.get("log", "") + ctx.platform.get("tools", ""))
        countdown = ctx.platform.get("countdown", "")
        if picking:
            complete = any(sorted(squares) == ui["picked"] for squares, _ in capture_sets(state, ui["at"]))
            out.append(action_bar(
                button(esc(t("cephalopod.cancel")), action="cancel", cls="btn big secondary", testid="cancel-capture",
                       aria_keyshortcuts="Escape"),
                button(esc(t("cephalopod.confirm")), action="confirm", cls="btn big " + ("primary" if complete else "secondary"),
                       testid="confirm-capture", disabled=not complete, aria_keyshortcuts="Enter"),
                above=countdown))
        elif countdown:
            out.append(action_bar(above=countdown))
        return "".join(out)

    def legend(self, ctx: PlayContext) -> str:
        """Each seat's symbol, name and colour (the seat bar shows the dice counts)."""
        items = "".join(f'<li data-testid="colour-{s}">{piece_html(ctx.seats[s]["symbol"], s)} '
                        f'{name_html(ctx.seats[s]["name"])} <span class="muted">{esc(ctx.t(SEATS[s]))}</span></li>'
                        for s in range(2))
        return f'<ul class="ceph-legend" aria-label="{esc(ctx.t("cephalopod.colours"))}">{items}</ul>'

    def render_board(self, ctx: PlayContext, shown, ui: dict, person: bool, picking: bool) -> str:
        t = ctx.t
        geo = shown.geo
        size = geo.size
        files = file_names(size)
        # the last move of the shown position: its square and the squares it emptied
        last_at, last_captured = (split_move(shown.history[-1]) if shown.history else (None, []))
        picked = set(ui["picked"]) if picking else set()
        offered: set[str] = set()
        total = 0
        if picking:
            sets = capture_sets(shown, ui["at"])
            offered = {c for squares, _ in sets for c in squares
                       if any(picked ^ {c} <= set(s2) for s2, _ in sets)}
            total = sum(shown.die(geo.index[c])[1] for c in picked)

        def square(r: int, c: int) -> dict:
            name = files[c] + str(size - r)  # rank 1 at the bottom, like a chess board
            i = geo.index[name]
            die = shown.die(i)
            cls = []
            if name == last_at:
                cls.append("last")
            if die is None:
                if picking and name == ui["at"]:
                    preview = total or "?"
                    content = (symbol_html(ctx.seats[ctx.seat]["symbol"]) + f'<span class="pips">{esc(preview)}</span>')
                    label = (t("cephalopod.square.preview", square=name, value=total) if total
                             else t("cephalopod.square.choosing", square=name))
                    return {"content": content, "cls": "preview", "testid": f"sq-{name}", "label": label}
                hot = bool(shown.capture_sets(i))
                if hot:
                    cls.append("hot")
                if name in last_captured:
                    cls.append("gone")
                content = '<span class="mark" aria-hidden="true">×</span>' if hot else ""
                label = t("cephalopod.square.hot" if hot else "cephalopod.square.empty", square=name)
                enabled = person and not picking
                # A button's test id differs from a static square's: the shell moves focus back to
                # the same test id after a render, and a square tapped to place becomes a die.
                return {"content": content, "cls": " ".join(cls), "testid": f"place-{name}" if enabled else f"sq-{name}",
                        "label": label, "action": "place", "arg": name, "enabled": enabled}
            owner, value = die
            info = ctx.seats[owner]
            cls.append("die " + PIECE[owner])
            content = symbol_html(info["symbol"]) + f'<span class="pips">{value}</span>'
            label = t("cephalopod.square.die", square=name, colour=t(SEATS[owner]), value=value, name=info["name"])
            sq = {"content": content, "testid": f"sq-{name}", "label": label}
            if picking and (name in offered or name in picked):
                cls.append("pick" + (" picked" if name in picked else ""))
                label += ". " + t("cephalopod.square.picked" if name in picked else "cephalopod.square.pickable")
                sq.update(action="pick", arg=name, enabled=True, label=label, testid=f"pick-{name}")
            sq["cls"] = " ".join(cls)
            return sq

        return board_grid(size, size, square, label=t("cephalopod.board"),
                          row_names=[str(size - r) for r in range(size)], col_names=files)

    def render_picker(self, ctx: PlayContext, ui: dict) -> str:
        t, state = ctx.t, ctx.state
        at, picked = ui["at"], ui["picked"]
        sets = capture_sets(state, at)
        lines = [f'<p data-testid="capture-forced">{esc(t("cephalopod.capture.forced", square=at))}</p>']
        if len(sets) == 1:
            lines.append(f'<p data-testid="capture-only">{esc(t("cephalopod.capture.only"))}</p>')
        else:
            lines.append(f'<p class="muted">{esc(t("cephalopod.capture.options", n=len(sets)))}</p>')
        total = sum(state.die(state.geo.index[c])[1] for c in picked)
        complete = any(sorted(squares) == picked for squares, _ in sets)
        if picked:
            removed = ", ".join(
                t("cephalopod.die_short", square=c, colour=t(SEATS[state.die(state.geo.index[c])[0]]),
                  value=state.die(state.geo.index[c])[1]) for c in picked)
            lines.append(f'<p data-testid="capture-removes">{esc(t("cephalopod.capture.removes", dice=removed))}</p>')
        key = "cephalopod.capture.preview" if complete else "cephalopod.capture.incomplete"
        lines.append(f'<p class="preview-line" data-testid="capture-preview" data-value="{total}" '
                     f'data-complete="{"1" if complete else "0"}">{esc(t(key, value=total))}</p>')
        return (f'<section class="ceph-picker card" aria-labelledby="pick-h" data-testid="capture-picker">'
                f'<h2 id="pick-h">{esc(t("cephalopod.capture.heading", square=at))}</h2>{"".join(lines)}</section>')

    def render_history(self, ctx: PlayContext, ui: dict) -> str:
        t, state = ctx.t, ctx.state
        total = state.plies
        if total == 0:
            return ""
        step = total if ui["step"] is None else ui["step"]
        where = t("cephalopod.history.start") if step == 0 else t("cephalopod.history.step", k=step, n=total)
        note = "" if ui["step"] is None else f'<p class="note" data-testid="history-note">{esc(t("cephalopod.history.viewing"))}</p>'
        buttons = [
            button('<span aria-hidden="true" class="flip">«</span>', action="history-first", cls="btn small",
                   testid="history-first", aria_label=t("cephalopod.history.first"), disabled=step == 0),
            button('<span aria-hidden="true" class="flip">◀</span>', action="history-back", cls="btn small",
                   testid="history-back", aria_label=t("cephalopod.history.back"), disabled=step == 0),
            button('<span aria-hidden="true" class="flip">▶</span>', action="history-forward", cls="btn small",
                   testid="history-forward", aria_label=t("cephalopod.history.forward"), disabled=step >= total),
            button(esc(t("cephalopod.history.live")), action="history-live", cls="btn small", testid="history-live",
                   disabled=ui["step"] is None),
        ]
        return (f'<div class="ceph-history" role="group" aria-label="{esc(t("cephalopod.history.heading"))}">'
                f'<span class="num" data-testid="history-where" data-step="{step}">{esc(where)}</span>'
                f'<div class="row">{"".join(buttons)}</div>{note}</div>')

    # --- results ----------------------------------------------------------------------------------
    def results_extra(self, ctx: PlayContext) -> str:
        """The finished game's board with the history bar, to step through the whole game.

        Not called by the platform yet: its results screen has no hook for a game's own HTML
        (proposed: `GameView.results_extra(ctx)` drawn below the results table, and view actions
        that only change the UI allowed once the game is over). Until then the history bar is
        offered during play."""
        t, state = ctx.t, ctx.state
        ui = self.check_ui(ctx.ui, state)
        shown = state if ui["step"] is None else state.after(ui["step"])
        return (f'<section class="card ceph-replay" aria-labelledby="replay-h" data-testid="replay">'
                f'<h2 id="replay-h">{esc(t("cephalopod.history.heading"))}</h2><div class="board cephalopod-board">'
                + self.render_board(ctx, shown, ui, person=False, picking=False)
                + self.render_history(ctx, ui) + "</div></section>")

    def breakdown_heads(self, t) -> list[str]:
        return [t("cephalopod.sixes"), t("cephalopod.pips")]

    def breakdown(self, state, seat: int) -> list[int]:
        dice = [state.die(i) for i in range(state.geo.n)]
        mine = [v for d in dice if d is not None for o, v in [d] if o == seat]
        return [sum(1 for v in mine if v == 6), sum(mine)]
