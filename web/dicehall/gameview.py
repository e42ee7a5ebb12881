"""What a game's view is, and what it gets to draw with.

A view renders `(state, ui)` through a `PlayContext` and turns clicks into *proposals*; it never
changes the game, never imports the app or the controller and never touches the browser. The
controller (`dicehall.controller`) is the only one that changes a game: click → proposal →
controller → engine → save → one render.

Proposals a view returns from `on_action`:
  Move(seat, move)     a move in the game's notation, for a seat the screen offers
  Roll(seat)           the seat throws the dice of the current chance node (`state.roller()`)
  TakeBack(seat, at)   take back that seat's move at record position `at` (rules permitting)
  Ui(changes)          a UI-only selection (held dice, a chosen box); saved, never a move

Pure Python: views and widgets are tested under CPython on fixed positions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pygame_core.protocol import CHANCE

from .dom import esc


@dataclass(frozen=True)
class Move:
    seat: int
    move: str


@dataclass(frozen=True)
class Roll:
    seat: int


@dataclass(frozen=True)
class TakeBack:
    seat: int
    at: int


@dataclass(frozen=True)
class Ui:
    changes: dict
    focus: str | None = None  # data-testid to move the keyboard focus to (the next logical step)


Proposal = Move | Roll | TakeBack | Ui


@dataclass
class PlayContext:
    """Everything a view may read while rendering or handling a click (built by the controller)."""

    t: Callable[..., str]  # the catalog: t(key, **params); t.number(value, decimals)
    lang: str
    game: str
    seats: list[dict]  # name, symbol, ai (None for a person)
    state: Any
    index: int  # moves made so far: the position this screen shows
    ui: dict  # the view's own UI state (selections), saved with the game
    # The person whose choice the screen offers now (first person among the current seats), or
    # None while nobody at this screen can act (AI thinking, dice rolling, game over).
    seat: int | None
    thinking: bool = False
    animations: bool = True
    settings: dict = field(default_factory=dict)
    flash: set = field(default_factory=set)  # seats whose score just changed
    # What the last move changed, shown once (an animation): the view's own `marks` of that move,
    # by default the positions 0…n-1 of the dice a throw threw.
    marks: set = field(default_factory=set)
    countdown: int | None = None  # seconds left before the computer chooses for `seat`
    countdown_move: str | None = None  # what it will play then (mark it: the player sees it coming)
    # (seat, move): a computer's move on show before it is played, at the chosen pace (the prompt
    # says it in words; the view marks what acts on what, like `countdown_move`).
    step: tuple | None = None
    hint: dict | None = None  # {"state": "loading"|"unavailable"|"ready", "options": [...]}
    hints_enabled: bool = False
    last_turn: list = field(default_factory=list)  # [(seat, move, state before)] of the last turn
    turn_begun: bool = False  # the current turn has had a move (the last turn's marks go away)
    log: list = field(default_factory=list)  # the last completed turns, oldest first
    # Moves people at this screen may take back now: person seat -> record positions.
    takebacks: dict = field(default_factory=dict)
    view_seat: int | None = None  # the seat whose card the player asked to see (seat bar tap)
    asset_state: str = "none"  # lazily loaded game data: none | loading | loaded | failed
    # The platform's widgets, already drawn, for the view to place in its layout: "seats" (the
    # seat bar), "prompt" (whose turn, what to do), "last" (the last turn, until the next one
    # begins), "countdown" (for the action bar), "hint", "log" (the game so far), "tools".
    platform: dict = field(default_factory=dict)


class GameView:
    """Base class of every game's view (`web/dicehall/games/<id>/`); override what the game needs."""

    game = ""
    # Catalog key of the paragraph after which `rules_table` is inserted on the rules page.
    rules_table_after: int | None = None

    # --- play -------------------------------------------------------------------------
    def render(self, ctx: PlayContext) -> str:
        """The play screen (everything below the top bar), HTML."""
        raise NotImplementedError

    def on_action(self, ctx: PlayContext, action: str, arg: str | None) -> Proposal | list[Proposal] | None:
        """A click on an element with `data-action` that the platform does not handle itself."""
        return None

    def after_move(self, ui: dict, before, seat: int, move: str, after) -> dict:
        """The UI state once `move` is made (display order, selections). Default: unchanged."""
        return ui

    def after_take_back(self, ui: dict, state) -> dict:
        return ui

    def marks(self, ui: dict, before, seat: int, move: str, after) -> set:
        """What the next screen shows as just changed, once (`ctx.marks`; no motion with reduced
        motion): by default, after a throw, the positions 0…n-1 of the dice it threw. A view that
        shows dice in its own order, or marks more (a flipped die, a score cell), says so."""
        return set(range(len(before.chance()))) if seat == CHANCE else set()

    def celebration(self, before, seat: int, move: str, after) -> tuple[str, dict] | None:
        """A moment worth a short celebration (catalog key, params), e.g. a rare throw or a bonus;
        the platform shows it once (no motion with reduced motion) and celebrates wins itself."""
        return None

    def guide(self, ctx: PlayContext):
        """A guided first turn this screen offers a person who has not seen it yet: a
        `widgets.guide.Guide` whose steps point at elements by data-testid; the platform shows it
        once per phone and remembers it in the settings (`guides_seen`). Default: none."""
        return None

    def check_ui(self, ui: object, state) -> dict:
        """A UI state read from storage, checked against the position; {} if it does not fit."""
        return ui if isinstance(ui, dict) else {}

    # --- words ------------------------------------------------------------------------
    def describe_move(self, t, move: str) -> str:
        """A move in the player's words (hints, review, log)."""
        return move

    def describe_turn(self, ctx: PlayContext, turn: list) -> str:
        """HTML for one completed turn ([(seat, move, state before)]): the 'last move' banner and
        the game log. Default: its moves in words."""
        return esc(", ".join(self.describe_move(ctx.t, move) for seat, move, _ in turn if seat >= 0))

    def narrate_move(self, t, state, seat: int, move: str) -> str:
        """A step of another seat in words on the prompt while it shows (`state`: the position on
        screen with them, before a computer's move is played, after a throw). Default: `describe_move`."""
        return self.describe_move(t, move)

    def prompt(self, ctx: PlayContext) -> str:
        """The one-line prompt for the acting seat."""
        code, params = ctx.state.prompt()
        return ctx.t(code, **params)

    # --- hints and review --------------------------------------------------------------
    def shortcuts(self, ctx: PlayContext) -> dict[str, tuple[str, str | None]]:
        """Keys (KeyboardEvent.key) -> (action, arg) while a person may act: the same actions a
        click makes. Enter is only taken when the focus is not on a button."""
        return {}

    def apply_hint(self, ctx: PlayContext, move: str) -> Proposal | list[Proposal] | None:
        """What "Apply" on a suggested move does; default: play it."""
        return Move(ctx.seat, move) if ctx.seat is not None else None

    def format_value(self, t, value: float) -> str:
        """An advisor's or review's value as shown (`t` is the catalog: `t.number` localises)."""
        return t.number(value, 1)

    def review_value(self, t, decision: dict, field: str) -> str:
        """A reviewed decision's "value", "best_value" or "loss" as shown; a game that grades some
        decisions in another unit (the decision's "unit") formats them here. Default: `format_value`."""
        return self.format_value(t, decision[field])

    def review_when(self, t, decision: dict) -> str:
        """Where in the game a reviewed decision was made (e.g. "Round 3, roll 2:")."""
        return ""

    def review_detail(self, decision: dict) -> str:
        """What the player was looking at (e.g. the dice "2 3 3 5 6"); plain text."""
        return ""

    # --- catalog ------------------------------------------------------------------------
    def catalog_keys(self) -> dict[str, list[str]]:
        """The keys this view builds at run time with an f-string (a box's name in `mygame.box.<box>`):
        each pattern with its placeholders written `{}` ("mygame.box.{}"), and every key it can
        make. The catalog test finds every such pattern in the game's package and checks both."""
        return {}

    # --- results and rules -----------------------------------------------------------------
    def breakdown_heads(self, t) -> list[str]:
        """Extra results-table columns (besides place, player and total)."""
        return []

    def breakdown(self, state, seat: int) -> list:
        return []

    # The game's ending (`games/<id>/ending.py`): why it ended, its final picture and its rounds.
    ending: Any = None

    def end_reason(self, t, state, seats: list[dict]) -> str:
        """Why the finished game ended, in words (plain text), from the engine's own facts."""
        return self.ending.reason(t, state, seats) if self.ending is not None else ""

    def final_picture(self, ctx: PlayContext) -> str:
        """The finished game's board or sheets for the results screen (HTML): read-only, drawn with
        the play screen's own code; `ctx` is the final position with no seat to act."""
        return self.ending.picture(self, ctx) if self.ending is not None else ""

    def round_of(self, state) -> int:
        """The round (from 0) a position is in: a round gives every seat one turn. The results
        plot, the review plot and the end reason all count rounds, so their numbers agree."""
        if self.ending is not None and hasattr(self.ending, "round_of"):
            return self.ending.round_of(state)
        return state.turn_number() // max(1, state.num_players)

    def rules_table(self, t) -> str:
        return ""

    def rules_figures(self, t) -> dict[int, str]:
        """What the rules page draws after its catalog paragraphs: paragraph number → HTML (a
        picture of the dice, a points table). By default `rules_table` after `rules_table_after`."""
        return {self.rules_table_after: self.rules_table(t)} if self.rules_table_after else {}
