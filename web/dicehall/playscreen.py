"""The play controller's drawing: the `PlayContext` a view reads (built once per screen drawn), the
platform's own widgets on the play screen (seat bar, prompt, last turn, countdown, hint, log,
tools), the hot-seat hand-over card and what the live region says. A mixin of
`controller.PlayController`; it changes nothing in the game.
"""

from __future__ import annotations

from pygame_core.registry import get_entry

from .dom import button, esc
from .gameview import PlayContext
from .widgets import banner, controls
from .widgets import guide as guide_widget
from .widgets import hint as hint_widget
from .widgets import seats as seats_widget

LOG_TURNS = 40  # turns shown in the game log


class PlayScreen:
    # The view's guide on screen (widgets/guide.py): (Guide, step, the game's Match (held, not its
    # id: an id can be reused by the next game), the position a one-time line lasts for or None).
    guide_open: tuple | None = None

    def turn_history(self) -> tuple[list, bool]:
        """(completed turns, whether the current turn has begun), replayed once per position."""
        key = (id(self.table.record), self.table.match.index)
        if self._turns is None or self._turns[0] != key:
            current = self.table.state.turn_number()
            turns = self.table.match.turns()
            completed = [turn for turn in turns if turn[0][2].turn_number() < current]
            begun = bool(turns) and turns[-1][0][2].turn_number() == current
            self._turns = (key, completed, begun)
        return self._turns[1], self._turns[2]

    def context(self) -> PlayContext:
        """The context of the position as it is now, with the platform's widgets drawn."""
        self.contexts_built += 1
        table, state = self.table, self.table.state
        seat = self.acting_seat()
        view_seat = None
        if self.view_seat is not None and self.view_seat[0] == state.turn_number():
            view_seat = self.view_seat[1]
        hint = self.current_hint()
        entry = get_entry(table.game)
        turns, begun = self.turn_history()
        ctx = PlayContext(
            t=self.host.t, lang=self.host.lang, game=table.game, seats=table.seats, state=state,
            index=table.match.index, ui=self.ui, seat=seat, thinking=self.thinking,
            animations=self.host.animations, settings=self.host.settings, flash=set(self.flash),
            marks=set(self.marks), countdown=self.countdown, countdown_move=self.countdown_move, hint=hint,
            step=self.step_now(), hints_enabled=self.hints_enabled() and seat is not None and not state.is_chance(),
            last_turn=turns[-1] if turns else [], turn_begun=begun, log=turns[-LOG_TURNS:],
            takebacks=self.take_back_positions(), view_seat=view_seat,
            asset_state=self.host.asset_state(table.game) if entry.assets else "loaded",
        )
        ctx.platform = self.platform_parts(ctx)
        return ctx

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        """The view's words for a completed turn, kept per (game record, language); a turn is
        known by the state before its first move and its moves. The entry holds that state, so
        its id cannot be reused by another state (after a take-back) while the entry exists."""
        scope = (id(self.table.record), self.host.lang)
        if self._described[0] != scope:
            self._described = (scope, {})
        words = self._described[1]
        key = (id(turn[0][2]), tuple((seat, move) for seat, move, _ in turn))
        if key not in words:
            words[key] = (turn[0][2], self.view.describe_turn(ctx, turn))
        return words[key][1]

    def platform_parts(self, ctx: PlayContext) -> dict[str, str]:
        """The shared widgets of the play screen, drawn once here for the view to place."""
        t, view, state = self.host.t, self.view, ctx.state
        shown = ctx.seat
        if shown is None:
            shown = state.roller() if state.is_chance() else state.current_player()
            shown = shown if shown is not None and shown >= 0 else None
        current = [s for s in state.current_players() if s >= 0] or ([shown] if shown is not None else [])
        spinner = ctx.thinking
        if ctx.seat is None and ctx.thinking and self.thinking_seat is not None:
            shown = self.thinking_seat  # not a person of a simultaneous choice: the computer thinks
        if ctx.seat is None and shown is not None:
            # A seat of an online room plays on another phone; the computer thinks here. The step
            # on show (a computer's move about to be played, or the one it just made) in words.
            narration = self.narration_now()
            if narration is not None and narration[0] == shown:
                prompt_text = narration[1]
                spinner = spinner and ctx.step is None
            else:
                prompt_text = t("play.remote_short" if shown in self.remote else "play.thinking_short")
        else:
            prompt_text = view.prompt(ctx)
        parts = {
            "seats": seats_widget.seat_bar(ctx.seats, state.scores(), current=current, flash=ctx.flash,
                                           animations=ctx.animations, viewing=ctx.view_seat, label=t("play.players")),
            "prompt": banner.prompt_line(ctx.seats, shown, prompt_text, thinking=spinner and shown is not None),
            "countdown": "",
            "hint": "",
            "last": "",
            "tools": '<div class="row tools">' + button(esc(t("results.export")), action="export", cls="btn small",
                                                       testid="export-record") + "</div>",
        }
        if ctx.last_turn and not ctx.turn_begun:  # shown until the next turn's first move
            owner = next((s for s, _, _ in reversed(ctx.last_turn) if s >= 0), None)
            if owner is not None:
                parts["last"] = banner.last_turn(ctx.seats, owner, t("play.last_move"), self.describe_turn(ctx, ctx.last_turn))
        parts["log"] = banner.game_log(ctx.seats, t("play.log"), [
            (next((s for s, _, _ in reversed(turn) if s >= 0), None), self.describe_turn(ctx, turn)) for turn in ctx.log])
        if ctx.countdown is not None:
            parts["countdown"] = controls.countdown(t("play.countdown", n=ctx.countdown), t("play.countdown_stop"),
                                                    view.describe_move(t, ctx.countdown_move) if ctx.countdown_move else "")
        if ctx.hints_enabled:
            parts["hint"] = hint_widget.hint_panel(
                t, ctx.hint, describe=lambda m: view.describe_move(t, m), fmt=lambda v: view.format_value(t, v),
                heading=t(f"{ctx.game}.hint.heading"), explain=t(f"{ctx.game}.hint.explain"))
        return parts

    def moment(self) -> tuple:
        """What makes the play screen start afresh at the top: the game, whose turn, a hand-over."""
        if not self.running:
            return ()
        state = self.table.state
        return (id(self.table.match), state.is_terminal(), state.turn_number(), self.acting_seat(), self.handover)

    def people(self) -> int:
        return sum(1 for seat in range(len(self.table.seats)) if self.is_person(seat))

    def handover_wanted(self) -> bool:
        """Hand-over cards between people: only when two or more share this screen, and the
        player has not switched them off in Settings."""
        return bool(self.host.settings.get("handover", True)) and self.people() > 1

    def handover_showing(self) -> bool:
        """Whether the screen is the hand-over card now (the rest of the page hides with it)."""
        return self.running and self.handover is not None and self.handover == self.acting_seat()

    def check_handover(self) -> None:
        """A different person is to act than had the screen last: ask them to take it first."""
        seat = self.acting_seat()
        if seat is None:
            return
        if not self.handover_wanted():  # switched off, or one person here: the screen is theirs
            self.handover, self.last_person = None, seat
            return
        if self.handover is not None:
            return
        if self.last_person is not None and seat != self.last_person:
            self.handover = seat
            self.cancel_countdown(render=False)
        else:
            self.last_person = seat

    def render_handover(self) -> str:
        t, seat = self.host.t, self.handover
        return (f'<section class="screen handover" aria-labelledby="play-h" data-testid="handover" data-index="{self.table.match.index}">'
                f'<div class="handover-card"><h1 id="play-h" tabindex="-1">{seats_widget.seat_label(self.table.seats, seat)}</h1>'
                f'<p>{esc(t("handover.body", name=self.table.seats[seat]["name"]))}</p>'
                + controls.action_bar(button(esc(t("handover.ok", name=self.table.seats[seat]["name"])), action="handover-ok",
                                             cls="btn primary big", testid="handover-ok"))
                + "</div></section>")

    def render_body(self) -> str:
        """The play screen or, once the game is over, the results screen."""
        state = self.table.state
        self.check_handover()
        if state.is_terminal():
            body = self.host.render_results()
        elif self.handover_showing():
            return self.render_handover()
        else:
            self.handover = None
            ctx = self.context()
            self._shown = ((id(self.table.match), ctx.index), ctx)
            # data-game: a game's style.css (appended to every page's app.css) scopes its rules to its screen
            body = (f'<section class="screen play" aria-labelledby="play-h" data-testid="play" data-game="{self.table.game}" '
                    f'data-index="{ctx.index}" '
                    f'data-seat="{"" if ctx.seat is None else ctx.seat}">'
                    f'<h1 id="play-h" class="sr-only" tabindex="-1">{esc(self.host.t(f"{self.table.game}.title"))}</h1>'
                    + self.view.render(ctx) + self.guide_part(ctx) + "</section>")
        if self.celebrate:  # shown once, over the table, without taking focus
            body = (f'<div class="celebrate" role="status" data-testid="celebrate"><span>{esc(self.celebrate)}</span></div>'
                    + body)
            self.celebrate = None
        # one render shows a flash or a view's marks once
        self.flash = set()
        self.marks = set()
        return body

    # --- the guided first turn (widgets/guide.py) -----------------------------------------------
    def guide_part(self, ctx: PlayContext) -> str:
        """The coach mark of the guide open now, or of one the view offers that this phone has not
        seen (only while a person at this screen acts). Last in the play section: a target fixed
        on the screen (the action bar) must come before the box that uses it as its anchor."""
        if ctx.seat is None:
            return ""
        if self.guide_open is not None and (self.guide_open[2] is not self.table.match
                                            or self.guide_open[3] not in (None, ctx.index)):
            self.guide_open = None  # another game; a one-time line lasts as long as its position
        if self.guide_open is None:
            guide = self.view.guide(ctx)
            if guide is None or not guide.steps or guide.id in guide_widget.seen(self.host.settings):
                return ""
            self.guide_open = (guide, 0, self.table.match, ctx.index if guide.once else None)
            if guide.once:
                self.remember_guide(guide.id)
        guide, step = self.guide_open[:2]
        return guide_widget.coach_mark(self.host.t, guide, step)

    def guide_sentence(self) -> str:
        """The open guide's words, said with the prompt (the box itself is a labelled dialog)."""
        if self.guide_open is None or self.guide_open[2] is not self.table.match:
            return ""
        guide, step = self.guide_open[:2]
        return self.host.t(guide.steps[step].text)

    def guide_action(self, action: str) -> None:
        """Next, or Got it / Skip / Escape (remembered: the guide does not come back)."""
        if self.guide_open is None:
            return
        guide, step = self.guide_open[:2]
        if action == "guide-next" and step + 1 < len(guide.steps):
            self.guide_open = (guide, step + 1, *self.guide_open[2:])
            self.focus_request = "guide-next" if step + 2 < len(guide.steps) else "guide-done"
        else:
            self.guide_open = None
            self.remember_guide(guide.id)
        self.host.render()

    def remember_guide(self, guide_id: str) -> None:
        self.host.settings["guides_seen"] = guide_widget.with_seen(self.host.settings, guide_id)
        save = getattr(self.host, "save_settings", None)  # (a test's host may keep no settings)
        if save is not None:
            save()

    def screen_context(self) -> PlayContext:
        """The context of the screen drawn last (a tap was made on it), if it shows this position."""
        if self._shown is not None and self._shown[0] == (id(self.table.match), self.table.match.index):
            return self._shown[1]
        return self.context()

    def prompt_sentence(self) -> str:
        """What the live region announces: whose turn and what to do."""
        state = self.table.state
        if state.is_terminal():
            return self.host.t("prompt.game_over")
        seat = self.acting_seat()
        if seat is None:
            current = state.roller() if state.is_chance() else state.current_player()
            if current is not None and current in self.remote:
                return self.host.t("play.turn", name=self.table.seats[current]["name"])
            if current is not None and current >= 0:
                return self.host.t("play.thinking", name=self.table.seats[current]["name"])
            return ""
        turn = self.host.t("play.turn", name=self.table.seats[seat]["name"])
        if self.handover == seat:  # the hand-over card is up: what to do comes once they take the phone
            return turn
        return " ".join(filter(None, [turn, self.view.prompt(self.screen_context()), self.guide_sentence()]))

    def say_moves_and_prompt(self) -> None:
        """The moves just made and what to do now, said once through the live region."""
        self._prompted = (id(self.table.match), self.table.match.index, self.acting_seat())
        self.host.say(" ".join(filter(None, [self.pop_announcements(), self.prompt_sentence()])))

    def say_prompt(self) -> None:
        """What to do now, unless it was said for this position already."""
        if self._prompted != (id(self.table.match), self.table.match.index, self.acting_seat()):
            self.say_moves_and_prompt()

