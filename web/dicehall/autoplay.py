"""The play controller's automatic part: the dice nobody taps for, the computer's seats (thinking
through the host, which asks the AI worker), their pace on screen, and the rules' auto-play
countdown. A mixin of `controller.PlayController`, which it drives through the same single door
(`_commit`), saves and renders.
"""

from __future__ import annotations

import asyncio
import time

from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.registry import get_entry

from .gameview import Move

COUNTDOWN_SECONDS = 3
LIVE_GAP = 4.0  # seconds between two sentences of the live region during automatic steps
LIVE_WORDS = 140  # characters of steps said at once (the shell cuts the live region at 240)


def _current_task():
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


class AutoPlay:
    PACES = {"slow": 1.2, "fast": 0.05}  # seconds a computer step stays on screen; "normal" follows motion
    thinking_seat: int | None = None  # the computer seat whose move is being worked out
    step: tuple | None = None  # (match id, index, seat, move): a computer's move on show before it is played
    narration: tuple | None = None  # (match id, index, seat, words): the automatic step on show
    _said_at = 0.0  # when the live region last said automatic steps

    def kick(self, after=None) -> None:
        """Run automatic steps (dice nobody taps for, AI seats, countdown) if not running yet;
        `after`, an async function, is awaited first (the shell's first screen is shown before
        the computer's first step: `Page.shown`)."""
        if not self.running or self.table.state.is_terminal():
            return
        if get_entry(self.table.game).assets:
            self.host.want_assets(self.table.game)
        if self._loop is None or self._loop.done():
            self._loop = asyncio.ensure_future(self._run(after))

    def pace(self) -> float:
        """Seconds a computer step stays on screen (setting "pace"; normal follows animations)."""
        return self.PACES.get(self.host.settings.get("pace", "normal"), 0.5 if self.host.animations else 0.15)

    async def _run(self, after=None) -> None:
        if after is not None:
            await after()
        table = self.table
        game = table.game
        acted = False  # a step was shown: the screen is drawn again at the end, and the prompt said
        while self.table is table and table.state is not None and not table.state.is_terminal():
            state = table.state
            index = table.match.index
            if state.is_chance():
                roller = state.roller()
                if roller is not None and not self.is_computer(roller):
                    break  # a person taps Roll (here, or a guest of the room)
                acted = True
                self.thinking, self.thinking_seat = roller is not None, roller
                self.host.render()
                # A computer's throw: half the pace before it, half showing it in words (they stay
                # up while the computer thinks on the dice).
                await asyncio.sleep(self.pace() / 2 if roller is not None else 0)
                if self.table is not table:
                    return
                if table.match.index != index:
                    continue  # a guest of the room moved meanwhile: look again
                self._roll()
                self.save()
                self.say_steps()
                if roller is not None:
                    thrown = table.record.moves[-1][1]
                    self.narrate(roller, self.view.narrate_move(self.host.t, table.state, roller, thrown))
                    self.host.render()
                    await asyncio.sleep(self.pace() / 2)
                continue
            ai_seats = [s for s in state.current_players() if self.is_computer(s)]
            if not ai_seats:
                break
            seat = ai_seats[0]
            # The seat thinking is named on the prompt, never a person of a simultaneous choice
            # (a round's benefits chosen by every seat at once list the people first).
            acted = self.thinking = True
            self.thinking_seat = seat
            self.host.render()
            started = time.monotonic()
            await self.host.assets_ready(game)
            move = await self.host.ai_move(game, state.clone(), seat, table.seats[seat]["ai"])
            if self.table is not table:
                return
            if table.match.index != index:
                continue
            # The step on show before it is played: its words on the prompt, the view marks what
            # acts on what (`ctx.step`), for the chosen pace (the thinking counts towards it).
            self.step = (id(table.match), index, seat, move)
            words = self.view.narrate_move(self.host.t, state, seat, move)
            self.narrate(seat, words, index)
            self.host.render()
            await asyncio.sleep(max(self.pace() / 2, self.pace() - (time.monotonic() - started)))
            self.step = None
            if self.table is not table:
                return
            if table.match.index != index:
                continue
            try:
                self._commit(seat, move)
                self.announce(seat, move)
                # The words stay up while the computer thinks on what it made, with the dice a
                # move throws at once (a die that rerolls others, keep and roll).
                thrown = [m for s, m in table.record.moves[index + 1:] if s == CHANCE]
                self.narrate(seat, " · ".join([words] + [self.view.narrate_move(self.host.t, table.state, seat, m)
                                                         for m in thrown]))
                self.say_steps()
            except IllegalMove as err:  # an AI bug must not freeze the table: say so, stop
                self.thinking = False
                self.host.say(self.host.error_text(err), error=True)
                self.host.render()
                return
            self.save()
        self.thinking, self.thinking_seat = False, None
        if self.table is not table:
            return
        if acted:
            self.host.render()
        self.trim_announcements()
        if table.state is not None and not table.state.is_terminal():
            self.say_prompt()
            self._maybe_countdown()
        else:
            self.say_steps(force=True)

    # --- narration: the computer's steps in words, on the prompt and (paced) in the live region ---
    def narrate(self, seat: int, text: str, index: int | None = None) -> None:
        """Words for the step of `seat` on show at move `index` (default: the position now); the
        prompt shows them while nobody at this screen is to act there."""
        table = self.table
        self.narration = (id(table.match), table.match.index if index is None else index, seat, text)

    def narration_now(self) -> tuple[int, str] | None:
        """(seat, words) of the step on show at this position, if any."""
        n = self.narration
        if n is None or not self.running or n[:2] != (id(self.table.match), self.table.match.index):
            return None
        return n[2], n[3]

    def step_now(self) -> tuple[int, str] | None:
        """(seat, move) the computer is about to play at this position (shown before it is played)."""
        s = self.step
        if s is None or not self.running or s[:2] != (id(self.table.match), self.table.match.index):
            return None
        return s[2], s[3]

    def say_steps(self, force: bool = False) -> None:
        """The steps made so far, said together at most every LIVE_GAP seconds: a screen reader
        hears a computer's long turn in a few sentences, not one per die (the rest comes with the
        prompt when a person is to act)."""
        now = time.monotonic()
        if self.announcements and (force or now - self._said_at >= LIVE_GAP):
            self._said_at = now
            self.trim_announcements()
            self.host.say(self.pop_announcements())

    def trim_announcements(self, budget: int = LIVE_WORDS) -> None:
        """Keep the newest steps within `budget` characters ("…" before them): a fast computer
        turn is not read out die by die, and the prompt after them is never cut off."""
        kept, size = [], 0
        for text in reversed(self.announcements):
            if kept and size + len(text) > budget:
                kept.append("…")
                break
            kept.append(text)
            size += len(text) + 1
        self.announcements = kept[::-1]

    def _maybe_countdown(self) -> None:
        seat = self.acting_seat()
        table = self.table
        if (seat is None or self.handover is not None or table.state.is_chance()
                or not self.host.settings.get("autofill", True)
                or not get_entry(table.game).rules.auto_move_due(table.state, seat)
                or self.countdown_stopped_at == table.match.index
                or (self._countdown_task is not None and not self._countdown_task.done())):
            return
        self._countdown_task = asyncio.ensure_future(self._countdown(seat, table.match.index))

    async def _countdown(self, seat: int, index: int) -> None:
        """The rules' auto-play: the computer's choice is worked out first and shown (the view
        marks it), then played when the seconds run out unless the player does anything."""
        table = self.table
        await self.host.assets_ready(table.game)
        level = get_entry(table.game).default_level
        move = await self.host.ai_move(table.game, table.state.clone(), seat, level)
        if self.table is not table or table.match.index != index or self._countdown_task is None:
            return
        self.countdown_move = move
        seconds = int(self.host.settings.get("autofill_seconds", COUNTDOWN_SECONDS))
        for n in range(seconds, 0, -1):
            self.countdown = n
            if n == seconds or not self.host.set_text("countdown", self.host.t("play.countdown", n=n)):
                self.host.render()
            await asyncio.sleep(1)
            if self.table is not table or table.match.index != index:
                return
        self.countdown = None
        self.countdown_move = None
        self._countdown_task = None
        self.propose(Move(seat, move), index)

    def cancel_countdown(self, render: bool = True) -> None:
        task = self._countdown_task
        if task is not None and not task.done() and task is not _current_task():
            task.cancel()
        self._countdown_task = None
        self.countdown_move = None
        if self.countdown is not None:
            self.countdown = None
            if render:
                self.host.render()

    def stop_countdown(self) -> None:
        """The player asked to wait: no countdown again on this position."""
        if self.running:
            self.countdown_stopped_at = self.table.match.index
        self.cancel_countdown()
