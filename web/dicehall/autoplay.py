"""The play controller's automatic part: the dice nobody taps for, the computer's seats (thinking
through the host, which asks the AI worker), their pace on screen, and the rules' auto-play
countdown. A mixin of `controller.PlayController`, which it drives through the same single door
(`_commit`), saves and renders.
"""

from __future__ import annotations

import asyncio
import time

from pygame_core.protocol import IllegalMove
from pygame_core.registry import get_entry

from .gameview import Move

COUNTDOWN_SECONDS = 3


def _current_task():
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


class AutoPlay:
    PACES = {"slow": 1.2, "fast": 0.05}  # seconds a computer step stays on screen; "normal" follows motion

    def kick(self) -> None:
        """Run automatic steps (dice nobody taps for, AI seats, countdown) if not running yet."""
        if not self.running or self.table.state.is_terminal():
            return
        if get_entry(self.table.game).assets:
            self.host.want_assets(self.table.game)
        if self._loop is None or self._loop.done():
            self._loop = asyncio.ensure_future(self._run())

    def pace(self) -> float:
        """Seconds a computer step stays on screen (setting "pace"; normal follows animations)."""
        return self.PACES.get(self.host.settings.get("pace", "normal"), 0.5 if self.host.animations else 0.15)

    async def _run(self) -> None:
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
                self.thinking = roller is not None
                self.host.render()
                await asyncio.sleep(self.pace() if roller is not None else 0)
                if self.table is not table or table.match.index != index:
                    return
                self._roll()
                self.save()
                self.host.say(self.pop_announcements())
                continue
            ai_seats = [s for s in state.current_players() if self.is_computer(s)]
            if not ai_seats:
                break
            seat = ai_seats[0]
            acted = self.thinking = True
            self.host.render()
            started = time.monotonic()
            await self.host.assets_ready(game)
            move = await self.host.ai_move(game, state.clone(), seat, table.seats[seat]["ai"])
            await asyncio.sleep(max(0.0, self.pace() - (time.monotonic() - started)))
            if self.table is not table or table.match.index != index:
                return
            try:
                self._commit(seat, move)
                self.announce(seat, move)
                self.host.say(self.pop_announcements())
            except IllegalMove as err:  # an AI bug must not freeze the table: say so, stop
                self.thinking = False
                self.host.say(self.host.error_text(err), error=True)
                self.host.render()
                return
            self.save()
        self.thinking = False
        if self.table is not table:
            return
        if acted:
            self.host.render()
        if table.state is not None and not table.state.is_terminal():
            self.say_prompt()
            self._maybe_countdown()

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
