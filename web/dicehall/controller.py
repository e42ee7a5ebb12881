"""The play controller: the only code that changes a running game.

Data flows one way: a click becomes a proposal (from the game's view), the controller submits
it through `Table.submit` (the engine checks it), asks the view to keep its UI state in step,
saves, and renders once. A tap is read against the context of the screen the person tapped on
(built once, when that screen was drawn), so one tap builds one context and draws one screen.
The automatic part (chance nodes, AI seats with pacing, the rules' auto-play countdown) is
`autoplay.AutoPlay`. The controller also computes hints, asks for the post-game review (in the
AI worker: reviewing.py), and builds the `PlayContext` views draw from.

Pure Python: the host (the app shell, or a test double) provides rendering, saving, the AI, the
catalog and lazily loaded game data, so this module is tested under CPython.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Protocol

from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.registry import get_entry
from pygame_core.rng import DiceRoller
from pygame_core.schema import Any as AnyValue
from pygame_core.schema import MapOf, Text
from pygame_core.table import Table

from . import reviewing
from .autoplay import AutoPlay
from .gameview import GameView, Move, Roll, TakeBack, Ui
from .playscreen import PlayScreen

# The view state saved with the game (store.UI): its shape here; each game's view checks the
# values against the position (GameView.check_ui).
UI_SCHEMA = MapOf(Text(40), AnyValue(), 40)
# Saved with the view state: the person who had the screen last, so a reload while a hand-over
# card shows brings the card back instead of the next person's choice.
HAD_SCREEN = "had_screen"


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
    def render_results(self) -> str: ...  # the results screen of the finished game (screens/results.py)


class PlayController(AutoPlay, PlayScreen):
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
        self._turns: tuple | None = None  # ((record id, index), completed turns, turn under way)
        # A completed turn's words never change: described once per game and language, not on
        # every render (the log is most of a big table's render time).
        self._described: tuple[tuple, dict] = ((), {})
        self.focus_request: str | None = None  # a data-testid the next render should focus
        self.marks: set = set()  # what the last move changed (the view's `marks`), shown by the next render
        self._shown: tuple | None = None  # ((match id, index), the context of the screen drawn last)
        self._prompted: tuple | None = None  # the position whose prompt was said last
        self.contexts_built = 0  # PlayContexts built (a test counts one per tap)
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
        self.marks = set()
        self._shown = self._prompted = None
        if table is not None and table.state is not None and isinstance(ui, dict) and ui.get("moves") == table.match.index:
            try:
                self.ui = self.view.check_ui({k: v for k, v in ui.items() if k not in ("moves", HAD_SCREEN)}, table.state)
            except Exception:  # a stored UI state of the wrong shape: start the position afresh
                self.ui = {}
        if table is not None and table.state is not None and ui is not None:
            self.last_person = self._had_screen(ui, table)
            self.check_handover()  # before anything else runs: the card, if it was showing

    def _had_screen(self, ui: object, table: Table) -> int | None:
        """The person who had the screen when the game was saved (None: nobody yet, as with a
        table stored without view state). A view state that does not say (saved by an older
        version, or behind the table) counts the last person who moved: whoever else acts now
        gets the hand-over card first."""
        if not ui:
            return None
        if isinstance(ui, dict) and ui.get("moves") == table.match.index and HAD_SCREEN in ui:
            seat = ui[HAD_SCREEN]
            if seat is None or (type(seat) is int and 0 <= seat < len(table.seats)):
                return seat
        return next((seat for seat, _ in reversed(table.record.moves) if seat >= 0 and self.is_person(seat)), None)

    def stop(self) -> None:
        for task in (self._loop, self._countdown_task):
            if task is not None and not task.done():
                task.cancel()
        self._loop = self._countdown_task = None
        self.countdown = None
        self.countdown_move = None
        self.thinking = False
        self.step = self.narration = None  # a new table's match may get the old one's id()

    def ui_text(self) -> str:
        ui = {k: v for k, v in self.ui.items() if not k.startswith("_")}
        ui["moves"] = self.table.match.index if self.table.match else 0
        ui[HAD_SCREEN] = self.last_person
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
        if any(isinstance(p, (Move, Roll)) for p in proposals or []):
            # A person acts: their own card comes back (a card tapped in the seat bar when their
            # turn had just begun must not stay up over their own throws and boxes).
            self.view_seat = None
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
            self.say_moves_and_prompt()
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
        self.marks = self.view.marks(self.ui, before, seat, move, after)
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
        if actor is not None and actor >= 0:  # the guest's step in words, until they make the next
            self.narrate(actor, self.view.narrate_move(self.host.t, self.table.state, actor, move))
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
        self.say_moves_and_prompt()
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

    def shortcut(self, key: str) -> tuple[str, str | None] | None:
        """The (action, arg) a key makes on the play screen now, from the view; None if none."""
        if not self.running or self.acting_seat() is None or self.handover is not None:
            return None
        if key == "Escape" and self.guide_open is not None:
            return ("guide-done", None)  # Escape closes a guide (playscreen.guide_action)
        return self.view.shortcuts(self.screen_context()).get(key)

    def take_focus(self) -> str | None:
        request, self.focus_request = self.focus_request, None
        return request

    # --- shared actions (the platform's own buttons on the play screen) ------------------
    SHARED_ACTIONS = ("hint", "hint-apply", "stop-countdown", "view-seat", "review-open", "review-seat", "review-retry")

    def handle(self, action: str, arg: str | None, index: int | None = None) -> None:
        """A click on the play or results screen."""
        if not self.running:
            return
        if action == "stop-countdown":
            self.stop_countdown()
        elif action == "handover-ok":
            self.handover = None
            self.last_person = self.acting_seat()
            self.save_ui()  # a reload now shows this person's turn, not the card again
            self.host.render()
            self._maybe_countdown()
        elif action in ("guide-next", "guide-done"):
            self.guide_action(action)
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
                self.propose(self.view.apply_hint(self.screen_context(), hint["options"][0]["move"]), index)
        elif action in ("review-open", "review-seat", "review-retry"):
            reviewing.results_action(self.host, action, arg)  # computed in the AI worker
        else:
            seat = self.acting_seat()
            if seat is None or self.table.state.is_terminal():
                return
            self.propose(self.view.on_action(self.screen_context(), action, arg), index)

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
        """Lazily loaded game data arrived or failed: refresh a pending hint (a review waits for
        the data in the AI worker: reviewing.py)."""
        if not self.running:
            return
        hint = self.current_hint()
        if hint is not None and hint["state"] != "ready":
            self.show_hint(load=False)
        elif hint is not None:
            self.host.render()

    # --- results -------------------------------------------------------------------------------
    def game_review(self) -> tuple[str, dict | None]:
        """The finished game's review: ("ready", it), ("loading", None) while the AI worker computes
        it, or ("unavailable", None) (reviewing.py); ("none", None) if its game has none."""
        if get_entry(self.table.game).review is None:
            return "none", None
        return reviewing.of(self.host).get(self.table.record)
