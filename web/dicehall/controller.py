"""The play controller: the only code that changes a running game.

Data flows one way: a click becomes a proposal (from the game's view), the controller submits
it through `Table.submit` (the engine checks it), asks the view to keep its UI state in step,
saves, and renders once. The controller also answers chance nodes from the seeded roller, plays
AI seats (through the host, which asks the worker) with pacing, runs the rules' auto-play
countdown, computes hints and the post-game review, and builds the `PlayContext` views draw from.

Pure Python: the host (the app shell, or a test double) provides rendering, saving, the AI, the
catalog and lazily loaded game data, so this module is tested under CPython.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Protocol

from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.registry import get_entry
from pygame_core.rng import DiceRoller
from pygame_core.table import Table

from .dom import button, esc
from .gameview import GameView, Move, PlayContext, Roll, TakeBack, Ui
from .widgets import banner, controls, hint as hint_widget, results as results_widget, review as review_widget
from .widgets import seats as seats_widget

COUNTDOWN_SECONDS = 3
LOG_TURNS = 40  # turns shown in the game log


class Host(Protocol):
    """What the controller needs from the app shell."""

    lang: str
    settings: dict

    def t(self, key: str, **params) -> str: ...
    def error_text(self, err: Exception) -> str: ...
    @property
    def animations(self) -> bool: ...
    def render(self) -> None: ...
    def say(self, text: str, error: bool = False) -> None: ...
    def save_game(self, table: Table | None, ui_text: str | None) -> bool: ...
    def set_text(self, element_id: str, text: str) -> bool: ...
    async def ai_move(self, game: str, state: Any, seat: int, level: str) -> str: ...
    def want_assets(self, game: str) -> None: ...
    async def assets_ready(self, game: str, timeout: float = 5.0) -> None: ...
    def asset_state(self, game: str) -> str: ...
    def feedback(self, kind: str) -> None: ...  # "roll", "celebrate", "win": optional sound, vibration
    def bests(self, game: str) -> list[dict]: ...


class PlayController:
    def __init__(self, host: Host, view_for, roller: DiceRoller) -> None:
        self.host = host
        self.view_for = view_for  # game id -> GameView
        self.roller = roller
        self.table: Table | None = None
        self.ui: dict = {}
        self.thinking = False
        self.countdown: int | None = None
        self.countdown_move: str | None = None  # what the countdown will play (shown beforehand)
        self.countdown_stopped_at: int | None = None  # move index where the player said "stop"
        # Hot seat: the person who last had the screen; a different person next gets a hand-over
        # card first ("Bo's turn — pass the phone") so nobody sees another's secret choice.
        self.last_person: int | None = None
        self.handover: int | None = None
        self.flash: set[int] = set()
        self.hint: dict | None = None  # {"index", "state", "options"}
        self.view_seat: tuple[int, int] | None = None  # (turn number, seat) picked in the seat bar
        self.review_open: int | None = None  # id() of the record whose review is open
        self.review_seat: int | None = None
        self._review: tuple | None = None  # ((record id, length), result)
        self._turns: tuple | None = None  # ((record id, index), completed turns, turn under way)
        # A completed turn's words never change: described once per game and language, not on
        # every render (the log is most of a big table's render time).
        self._described: tuple[tuple, dict] = ((), {})
        self.focus_request: str | None = None  # a data-testid the next render should focus
        self.celebrate: str | None = None  # a view's celebration, shown by the next render
        self.announcements: list[str] = []  # moves not yet read out by the live region
        self._loop: asyncio.Task | None = None
        self._countdown_task: asyncio.Task | None = None
        # An online room hosted at this table (pygame_core.rooms): the seats its guests play
        # (neither a person on this screen nor the computer: the table waits for them), and who
        # hears of every move applied here (`moved`, `taken_back`: the room tells its guests).
        self.remote: set[int] = set()
        self.observers: list = []
        # A guest of someone else's room: the screen's moves go to the host (`intent`,
        # `take_back` of this outbox) and the table changes only when the host says so.
        self.outbox = None

    # --- the running table -------------------------------------------------------------
    @property
    def view(self) -> GameView:
        return self.view_for(self.table.game)

    @property
    def running(self) -> bool:
        return self.table is not None and self.table.state is not None

    def load(self, table: Table | None, ui: object = None) -> None:
        """Take over a table (new, resumed or imported); `ui` is a saved UI state to check."""
        self.stop()
        self.table = table
        self.ui = {}
        self.hint = None
        self.view_seat = None
        self.countdown_stopped_at = None
        self.last_person = self.handover = None
        self.flash = set()
        if table is not None and table.state is not None and isinstance(ui, dict) and ui.get("moves") == table.match.index:
            try:
                self.ui = self.view.check_ui({k: v for k, v in ui.items() if k != "moves"}, table.state)
            except Exception:  # a stored UI state of the wrong shape: start the position afresh
                self.ui = {}

    def stop(self) -> None:
        for task in (self._loop, self._countdown_task):
            if task is not None and not task.done():
                task.cancel()
        self._loop = self._countdown_task = None
        self.countdown = None
        self.countdown_move = None
        self.thinking = False

    def ui_text(self) -> str:
        ui = {k: v for k, v in self.ui.items() if not k.startswith("_")}
        ui["moves"] = self.table.match.index if self.table.match else 0
        return json.dumps(ui)

    def save(self) -> None:
        """Save the table and the UI state (the host refuses to overwrite a longer history).
        A guest's mirror of someone else's table is not this phone's game: never saved."""
        if self.outbox is not None:
            return
        if self.table is None:
            self.host.save_game(None, None)
        else:
            self.host.save_game(self.table, self.ui_text())

    def save_ui(self) -> None:
        if self.outbox is None and self.table is not None and self.table.match is not None:
            self.host.save_game(None, self.ui_text())

    # --- who acts ----------------------------------------------------------------------
    def is_person(self, seat: int) -> bool:
        """A person at this screen (not the computer, not a guest of an online room)."""
        return seat >= 0 and seat not in self.remote and not self.table.seats[seat]["ai"]

    def is_computer(self, seat: int) -> bool:
        return seat >= 0 and seat not in self.remote and bool(self.table.seats[seat]["ai"])

    def acting_seat(self) -> int | None:
        """The person whose choice the screen offers now, or None."""
        if not self.running or self.thinking:
            return None
        state = self.table.state
        if state.is_terminal():
            return None
        if state.is_chance():
            roller = state.roller()
            return roller if roller is not None and self.is_person(roller) else None
        current = state.current_players()
        if any(self.is_computer(s) for s in current):
            return None  # computer seats of a simultaneous choice move first
        return next((s for s in current if self.is_person(s)), None)  # not a guest's choice

    # --- proposals: the one way a person changes the game -----------------------------------
    def propose(self, proposals, index: int | None = None) -> bool:
        """Carry out a view's proposals made on the screen showing `index` moves; render once."""
        if not self.running:
            return False
        if isinstance(proposals, (Move, Roll, TakeBack, Ui)):
            proposals = [proposals]
        if index is not None and index != self.table.match.index:
            return False  # made on a screen that is out of date: ignore, the new one is drawn
        if self.outbox is not None:
            return self._propose_to_host(proposals)
        changed = False
        try:
            for proposal in proposals or []:
                if isinstance(proposal, Ui):
                    self.ui.update(proposal.changes)
                    self.focus_request = proposal.focus or self.focus_request
                    self.cancel_countdown(render=False)
                elif isinstance(proposal, Move):
                    self._commit(proposal.seat, proposal.move, by_person=True)
                    changed = True
                elif isinstance(proposal, Roll):
                    state = self.table.state
                    if not state.is_chance() or state.roller() != proposal.seat:
                        raise IllegalMove("error.not_your_turn", "It is not your turn.")
                    self._roll()
                    changed = True
                elif isinstance(proposal, TakeBack):
                    self._take_back(proposal.seat, proposal.at, self.table.match.index)
                    changed = True
        except IllegalMove as err:
            self.host.say(self.host.error_text(err), error=True)
            self.save()
            self.host.render()
            return False
        if changed:
            self.save()
            self.host.render()
            self.host.say(" ".join(filter(None, [self.pop_announcements(), self.prompt_sentence()])))
            self.kick()
        else:
            self.save_ui()
            self.host.render()
        return True

    def _propose_to_host(self, proposals) -> bool:
        """A guest's proposals: checked here first (a wrong tap is explained at once, without a
        round trip), then sent; the dice are always thrown by the host."""
        state = self.table.state.clone()
        index = self.table.match.index
        try:
            for proposal in proposals or []:
                if isinstance(proposal, Ui):
                    self.ui.update(proposal.changes)
                    self.focus_request = proposal.focus or self.focus_request
                elif isinstance(proposal, Move):
                    state.apply(proposal.move, proposal.seat)
                    self.outbox.intent(proposal.seat, proposal.move, index)
                    index += 1
                elif isinstance(proposal, Roll):
                    if not state.is_chance() or state.roller() != proposal.seat:
                        raise IllegalMove("error.not_your_turn", "It is not your turn.")
                    self.outbox.intent(proposal.seat, "roll", index)
                    break
                elif isinstance(proposal, TakeBack):
                    self.outbox.take_back(proposal.seat, proposal.at, index)
                    break
        except IllegalMove as err:
            self.host.say(self.host.error_text(err), error=True)
            self.host.render()
            return False
        self.host.render()
        return True

    def replace(self, table: Table) -> None:
        """A guest's whole table anew from the host (joining, or mending a missed move)."""
        same = self.running and table.match is not None and table.match.index == self.table.match.index
        ui = self.ui if same else {}
        self.load(table)
        self.ui = ui
        self.host.render()

    def _commit(self, seat: int, move: str, by_person: bool = False) -> None:
        """Submit one move; then, if it starts a throw of the mover's own dice, throw them."""
        table = self.table
        before = table.state.clone()
        scores = before.scores()
        self.cancel_countdown(render=False)
        index = table.match.index
        table.submit(seat, move, index)
        for observer in self.observers:
            observer.moved(seat, move, index)
        after = table.state
        self.ui = self.view.after_move(self.ui, before, seat, move, after)
        self.hint = None
        new_scores = after.scores()
        self.flash |= {s for s, (a, b) in enumerate(zip(scores, new_scores)) if a != b}
        party = self.view.celebration(before, seat, move, after)
        if party is not None:
            key, params = party
            name = self.table.seats[seat]["name"] if seat >= 0 else ""
            self.celebrate = self.host.t(key, name=name, **params)
            self.host.feedback("celebrate")
        if after.is_terminal() and not before.is_terminal():
            self.host.feedback("win")
        # A move that makes its own seat throw within the same turn ("keep these, roll the
        # rest") is one action for the player: the dice follow at once.
        if after.is_chance() and after.roller() == seat and after.turn_number() == before.turn_number() \
                and self.outbox is None:  # a guest's dice come from the host
            self._roll()

    def _take_back(self, seat: int, at: int, index: int) -> None:
        self.table.take_back(seat, at, index)
        self.ui = self.view.after_take_back(self.ui, self.table.state)
        for observer in self.observers:
            observer.taken_back(seat, at, index)

    # --- the door of an online room: moves of the seats its guests play --------------------
    def submit(self, seat: int, move: str, index: int) -> None:
        """A move from a guest of the room this table hosts (the room checked the seat and the
        turn); IllegalMove, with nothing changed, if it is stale or the rules refuse it."""
        if not self.running or index != self.table.match.index:
            raise IllegalMove("error.stale_move", "The game has moved on since that choice.")
        state = self.table.state
        actor = state.roller() if seat == CHANCE else seat
        self._commit(seat, move)
        self.announce(actor, move)
        self._after_remote()

    def take_back(self, seat: int, at: int, index: int) -> None:
        """A guest's take-back (see `submit`)."""
        if not self.running:
            raise IllegalMove("error.cannot_take_back", "That move cannot be taken back.")
        self._take_back(seat, at, index)
        self._after_remote()

    def started(self) -> None:
        """The room started the table's next game."""
        self.render_and_kick()

    def seats_changed(self, remote: set[int]) -> None:
        """Seats changed hands in the room: `remote` are the ones its guests play now."""
        self.remote = set(remote)
        self.render_and_kick()

    def _after_remote(self) -> None:
        self.save()
        self.host.render()
        self.host.say(" ".join(filter(None, [self.pop_announcements(), self.prompt_sentence()])))
        self.kick()

    def render_and_kick(self) -> None:
        self.host.render()
        self.kick()

    def _roll(self) -> None:
        state = self.table.state
        move = self.roller.roll(state)
        roller = state.roller()
        self.host.feedback("roll")
        self._commit(CHANCE, move)
        self.announce(roller, move)

    def announce(self, seat: int | None, move: str) -> None:
        """Remember a move for the live region (dice, and what other seats did)."""
        words = self.view.describe_move(self.host.t, move)
        name = self.table.seats[seat]["name"] if seat is not None and seat >= 0 else None
        self.announcements.append(self.host.t("play.announce", name=name, move=words) if name else words)

    def pop_announcements(self) -> str:
        text = " ".join(self.announcements)
        self.announcements = []
        return text

    def take_back_positions(self) -> dict[int, list[int]]:
        """Per person seat, the record positions it may take back now (the rules declare them)."""
        if not self.running or self.thinking:
            return {}
        out = {}
        for seat in range(len(self.table.seats)):
            if self.is_person(seat):
                positions = self.table.match.takeback_positions(seat)
                if positions:
                    out[seat] = positions
        return out

    # --- the automatic part: chance, AI seats, the countdown -----------------------------------
    def kick(self) -> None:
        """Run automatic steps (dice nobody taps for, AI seats, countdown) if not running yet."""
        if not self.running or self.table.state.is_terminal():
            return
        entry = get_entry(self.table.game)
        if entry.assets:
            self.host.want_assets(self.table.game)
        if self._loop is None or self._loop.done():
            self._loop = asyncio.ensure_future(self._run())

    PACES = {"slow": 1.2, "fast": 0.05}

    def pace(self) -> float:
        """Seconds a computer step stays on screen (setting "pace"; normal follows animations)."""
        pace = self.host.settings.get("pace", "normal")
        return self.PACES.get(pace, 0.5 if self.host.animations else 0.15)

    async def _run(self) -> None:
        table = self.table
        game = table.game
        while self.table is table and table.state is not None and not table.state.is_terminal():
            state = table.state
            index = table.match.index
            if state.is_chance():
                roller = state.roller()
                if roller is not None and not self.is_computer(roller):
                    break  # a person taps Roll (here, or a guest of the room)
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
            self.thinking = True
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
        self.host.render()
        if table.state is not None and not table.state.is_terminal():
            self.host.say(self.prompt_sentence())
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

    def shortcut(self, key: str) -> tuple[str, str | None] | None:
        """The (action, arg) a key makes on the play screen now, from the view; None if none."""
        if not self.running or self.acting_seat() is None or self.handover is not None:
            return None
        return self.view.shortcuts(self.context()).get(key)

    def take_focus(self) -> str | None:
        request, self.focus_request = self.focus_request, None
        return request

    # --- shared actions (the platform's own buttons on the play screen) ------------------
    SHARED_ACTIONS = ("hint", "hint-apply", "stop-countdown", "view-seat", "review-open", "review-seat")

    def handle(self, action: str, arg: str | None, index: int | None = None) -> None:
        """A click on the play or results screen."""
        if not self.running:
            return
        if action == "stop-countdown":
            self.stop_countdown()
        elif action == "handover-ok":
            self.handover = None
            self.last_person = self.acting_seat()
            self.host.render()
            self._maybe_countdown()
        elif action == "view-seat":
            seat = int(arg)
            turn = self.table.state.turn_number()
            self.view_seat = None if self.view_seat == (turn, seat) else (turn, seat)
            self.host.render()
        elif action == "hint":
            self.cancel_countdown(render=False)  # time to read the advice
            self.show_hint()
        elif action == "hint-apply":
            hint = self.current_hint()
            seat = self.acting_seat()
            if hint and hint["state"] == "ready" and seat is not None:
                self.propose(self.view.apply_hint(self.context(), hint["options"][0]["move"]), index)
        elif action in ("review-open", "review-seat"):
            self.review_open = id(self.table.record)
            if get_entry(self.table.game).assets:
                self.host.want_assets(self.table.game)  # retried here after a failed load
            if action == "review-seat":
                self.review_seat = None if arg in (None, "all") else int(arg)
            self.host.render()
        else:
            seat = self.acting_seat()
            if seat is None or self.table.state.is_terminal():
                return
            self.propose(self.view.on_action(self.context(), action, arg), index)

    # --- hints ------------------------------------------------------------------------------
    def hints_enabled(self) -> bool:
        return bool(self.host.settings.get("hints", False)) and get_entry(self.table.game).advise is not None

    def current_hint(self) -> dict | None:
        if self.hint is not None and self.hint["index"] == self.table.match.index:
            return self.hint
        return None

    def show_hint(self, load: bool = True) -> None:
        """The advisor's best moves for the acting seat (computed here: fast, see bench/).

        `load`: (re)start loading the game's data if it is missing (a tap on Hint does; the
        refresh after a load attempt does not, so a failing load is not retried in a loop)."""
        entry = get_entry(self.table.game)
        seat = self.acting_seat()
        if entry.advise is None or seat is None or self.table.state.is_chance():
            return
        index = self.table.match.index
        status = self.host.asset_state(self.table.game) if entry.assets else "loaded"
        if status != "loaded":
            if load:
                self.host.want_assets(self.table.game)
                status = self.host.asset_state(self.table.game)
            self.hint = {"index": index, "state": "unavailable" if status == "failed" else "loading"}
            self.host.render()
            self.host.say(self.host.t("advisor.unavailable" if status == "failed" else "advisor.loading"))
            return
        options = entry.advise(self.table.state, seat)
        self.hint = {"index": index, "state": "ready", "options": options}
        self.host.render()
        if options:
            best = options[0]
            self.host.say(self.host.t(f"{self.table.game}.hint.best", move=self.view.describe_move(self.host.t, best["move"]),
                                      expected=self.view.format_value(self.host.t, best["value"])))

    def assets_changed(self) -> None:
        """Lazily loaded game data arrived or failed: refresh a pending hint or an open review."""
        if not self.running:
            return
        hint = self.current_hint()
        if hint is not None and hint["state"] != "ready":
            self.show_hint(load=False)
        elif self.review_open == id(self.table.record) or hint is not None:
            self.host.render()

    # --- rendering ------------------------------------------------------------------------
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
            rolled=set(self.ui.get("_rolled", ())), countdown=self.countdown, countdown_move=self.countdown_move, hint=hint,
            hints_enabled=self.hints_enabled() and seat is not None and not state.is_chance(),
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
        if ctx.seat is None and shown is not None:
            # A seat of an online room plays on another phone; the computer thinks here.
            prompt_text = t("play.remote_short" if shown in self.remote else "play.thinking_short")
        else:
            prompt_text = view.prompt(ctx)
        parts = {
            "seats": seats_widget.seat_bar(ctx.seats, state.scores(), current=current, flash=ctx.flash,
                                           animations=ctx.animations, viewing=ctx.view_seat, label=t("play.players")),
            "prompt": banner.prompt_line(ctx.seats, shown, prompt_text, thinking=ctx.thinking and shown is not None),
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

    def check_handover(self) -> None:
        """A different person is to act than had the screen last: ask them to take it first."""
        seat = self.acting_seat()
        if seat is None or self.handover is not None:
            return
        if self.last_person is not None and seat != self.last_person and self.people() > 1:
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
            body = self.render_results()
        elif self.handover is not None and self.handover == self.acting_seat():
            return self.render_handover()
        else:
            self.handover = None
            ctx = self.context()
            # data-game: a game's style.css (appended to every page's app.css) scopes its rules to its screen
            body = (f'<section class="screen play" aria-labelledby="play-h" data-testid="play" data-game="{self.table.game}" '
                    f'data-index="{ctx.index}" '
                    f'data-seat="{"" if ctx.seat is None else ctx.seat}">'
                    f'<h1 id="play-h" class="sr-only" tabindex="-1">{esc(self.host.t(f"{self.table.game}.title"))}</h1>'
                    + self.view.render(ctx) + "</section>")
        if self.celebrate:  # shown once, over the table, without taking focus
            body = (f'<div class="celebrate" role="status" data-testid="celebrate"><span>{esc(self.celebrate)}</span></div>'
                    + body)
            self.celebrate = None
        # one render shows a flash or a roll once
        self.flash = set()
        self.ui.pop("_rolled", None)
        return body

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
        return self.host.t("play.turn", name=self.table.seats[seat]["name"]) + " " + self.view.prompt(self.context())

    # --- results -------------------------------------------------------------------------------
    def game_review(self) -> dict | None:
        entry = get_entry(self.table.game)
        if entry.review is None:
            return None
        if entry.assets and self.host.asset_state(self.table.game) != "loaded":
            return None
        key = (id(self.table.record), self.table.match.index)
        if self._review is None or self._review[0] != key:
            self._review = (key, entry.review(self.table.record))
        return self._review[1]

    def render_results(self) -> str:
        t, table, view = self.host.t, self.table, self.view
        entry = get_entry(table.game)
        places = table.state.ranking()
        winners = [table.seats[s]["name"] for s in range(len(table.seats)) if places[s] == 1]
        out = [f'<section class="screen results" aria-labelledby="res-h" data-testid="results"><h1 id="res-h">{esc(t("results.heading"))}</h1>',
               f'<p class="celebrate win" data-testid="winners"><span><bdi>{esc(t("results.winners", n=len(winners), names=", ".join(winners)))}</bdi></span></p>',
               results_widget.results_table(t, table.seats, table.state, view.breakdown_heads(t), view.breakdown),
               results_widget.score_plot(t, table.seats, table.match)]
        if entry.review is not None:
            is_open = self.review_open == id(table.record)
            result = self.game_review() if is_open else None
            status = self.host.asset_state(table.game) if entry.assets else "loaded"
            out.append(review_widget.review_section(
                t, table.seats, result, status=status, is_open=is_open, chosen=self.review_seat,
                describe=lambda m: view.describe_move(t, m), fmt=lambda v: view.format_value(t, v),
                when=lambda d: view.review_when(t, d), detail=view.review_detail,
                texts={"intro": t(f"{table.game}.review.intro"), "loss_help": t(f"{table.game}.review.loss_help"),
                       "plot": t(f"{table.game}.review.plot")}))
        out.append(results_widget.standings_table(t, table.seats, table.standings))
        bests = self.host.bests(table.game)[:3]
        if bests:  # people's best scores in this game, this one included once it is saved
            out.append(f'<div class="card bests" data-testid="results-bests"><h2>{esc(t("history.bests"))}</h2><ol>'
                       + "".join(f'<li><bdi>{esc(b["name"])}</bdi> {esc(t.number(b["score"]))}</li>' for b in bests)
                       + "</ol></div>")
        # At someone else's table (a guest of their room) the host starts the next game.
        mine = self.outbox is None
        out.append(controls.action_bar(
            button(esc(t("results.again")), action="again", cls="btn primary", testid="play-again") if mine else "",
            button(esc(t("results.new_table")), action="new-table", cls="btn", testid="new-table") if mine else "",
            button(esc(t("results.export")), action="export", cls="btn", testid="export-record"),
            button(esc(t("results.share")), action="share", cls="btn", testid="share-result"), share=True))
        out.append("</section>")
        return "".join(out)


def _current_task():
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None
