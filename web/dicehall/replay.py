"""Replays of finished games: the records History keeps, and the position at any move drawn by the
game's own view with nobody able to act.

**What is kept** (`dicehall.replays`, a list, newest last): for each of the last `MAX_REPLAYS`
finished games, its History id, its seats (name, symbol, level) and its record (format 2, as
exported). Why 20: History lists the 20 most recent games (`screens/history.py` RECENT), so every
game listed there can be opened, and no other. A record is 1.5-3.5 KB for two or three players
(measured on self-played games of each kind) and ~10 KB with five, so 20 take 30-200 KB; each
record is capped at `MAX_RECORD_CHARS` and all of them together at `MAX_TOTAL_CHARS` (the oldest
go first), well inside the ~5 MB a browser gives the app, beside the table, the parked games and
what was set aside (1 MB).

The stored list is checked in shape when read (`REPLAYS_SCHEMA`, like every key: an unsound entry
is left out and set aside); a record is replayed and checked whole only when it is opened
(`Replay.open`), like an imported file, so a damaged one is refused in words then.

**Drawing a past position** (`Replay.context`): a `PlayContext` with `seat=None` (nobody at this
screen can act, as while the computer thinks), the view's UI state folded through its
`after_move` from the start, the seat bar and prompt of that moment, the last turn's banner, and
no hint, countdown, log or tools. The screen (`screens/replay.py`) disables the view's controls
and strips their actions, and the shell hands no tap on it to the play controller (that only
hears the play screen), so nothing in a replay can change a game.
"""

from __future__ import annotations

import copy
import re

from pygame_core.record import Record, RecordError
from pygame_core.schema import Any as AnyValue
from pygame_core.schema import Field, Fields, ListOf, MapOf, Maybe, Text
from pygame_core.table import MAX_NAME, clean_seat

from . import store
from .gameview import PlayContext
from .widgets import banner
from .widgets import seats as seats_widget

MAX_REPLAYS = 20  # games kept for replay: the ones History lists (see above)
MAX_RECORD_CHARS = 100_000  # one record as stored (a long five-player game is ~10 KB)
MAX_TOTAL_CHARS = 600_000  # all kept records together; beyond it the oldest go first
# A History id as the app writes it: the table's id (16 hex digits) and the game's number there.
# Only such ids are kept and put in a route (#/replay/<id>/<move>); a route part holds no "/".
ID_FORM = re.compile(r"[0-9A-Za-z_-]{1,64}:[0-9]{1,6}")


def _id_form(text: str) -> bool:
    return ID_FORM.fullmatch(text) is not None


REPLAY_SEAT = Fields({"name": Text(1000, cut=MAX_NAME), "symbol": Text(16), "ai": Field(Maybe(Text(40)), optional=True)})
REPLAY_ENTRY = Fields({
    "id": Text(80, test=_id_form),
    "seats": ListOf(REPLAY_SEAT, 8, 1),
    "record": MapOf(Text(40), AnyValue(), 20),  # checked whole (replayed) when opened
})
# Each kept game on its own: an unsound one is left out (and set aside), the others kept.
REPLAYS_SCHEMA = ListOf(REPLAY_ENTRY, MAX_REPLAYS, salvage=True)


# --- what is kept ---------------------------------------------------------------------------------
def kept(store_) -> list[dict]:
    """The kept records (shape checked), oldest first."""
    return store_.load(store.REPLAYS, REPLAYS_SCHEMA, [])


def kept_ids(store_) -> set[str]:
    return {entry["id"] for entry in kept(store_)}


def find(store_, entry_id: str) -> dict | None:
    return next((entry for entry in kept(store_) if entry["id"] == entry_id), None)


def keep(store_, entry_id: str, table) -> bool:
    """Keep the finished game of `table` (History id `entry_id`) for replay; the oldest kept games
    go when there are more than MAX_REPLAYS or they are longer than MAX_TOTAL_CHARS together.
    False when it is not kept (an odd id, a record over the cap, storage full)."""
    if table.record is None or not _id_form(entry_id):
        return False
    entry = {"id": entry_id, "seats": [{"name": s["name"], "symbol": s["symbol"], "ai": s["ai"]} for s in table.seats],
             "record": table.record.to_json()}
    if len(store.compact(entry)) > MAX_RECORD_CHARS:
        return False
    entries = [e for e in kept(store_) if e["id"] != entry_id] + [entry]
    entries = entries[-MAX_REPLAYS:]
    while len(entries) > 1 and len(store.compact(entries)) > MAX_TOTAL_CHARS:
        entries.pop(0)
    return store_.put_json(store.REPLAYS, entries)


# --- a game replayed ----------------------------------------------------------------------------------
class Replay:
    """A kept game, replayed once: the state and the view's UI state after every move, and its
    moves grouped by turn."""

    def __init__(self, entry_id: str, record: Record, seats: list[dict], view) -> None:
        self.id, self.record, self.seats, self.view = entry_id, record, seats, view
        self.game = record.game
        state = record.new_state()
        ui: dict = {}
        self.states, self.uis = [state.clone()], [ui]
        for seat, move in record.moves:
            before = state.clone()
            state.apply(move, seat)
            ui = view.after_move(copy.deepcopy(ui), before, seat, move, state)
            self.states.append(state.clone())
            self.uis.append(ui)
        # Turns as the play screen groups them (Match.turns): [(index of its first move, [(seat,
        # move, state before)])] by the turn number before each move.
        self.turns: list[tuple[int, list]] = []
        number = None
        for index, (seat, move) in enumerate(record.moves):
            before = self.states[index]
            if before.turn_number() != number:
                number = before.turn_number()
                self.turns.append((index, []))
            self.turns[-1][1].append((seat, move, before))
        self._words: dict = {}

    @classmethod
    def open(cls, entry: dict, view_for) -> Replay:
        """A kept entry checked whole, like an imported file: RecordError (a catalog key and its
        words) when its record or its seats do not hold together."""
        record = Record.from_json(entry["record"])
        seats = entry["seats"]
        if len(seats) != record.options.get("players"):
            raise RecordError("record.corrupt", "This game record is damaged: its seats do not match its players.")
        try:
            seats = [clean_seat(record.game, seat) for seat in seats]
        except ValueError as err:
            raise RecordError("record.corrupt", f"This game record is damaged: {err}") from None
        return cls(entry["id"], record, seats, view_for(record.game))

    @property
    def length(self) -> int:
        """Moves in the game: positions 0 (the start) to `length` (the end)."""
        return len(self.record.moves)

    def clamp(self, index) -> int:
        try:
            index = int(index)
        except (TypeError, ValueError):
            index = 0
        return max(0, min(self.length, index))

    def turns_upto(self, index: int) -> list[list]:
        """The turns of the first `index` moves (the last one cut where `index` falls)."""
        out = []
        for start, moves in self.turns:
            if start >= index:
                break
            out.append(moves[: index - start])
        return out

    def turn_at(self, index: int) -> int:
        """The number (0-based) of the turn the move at `index` belongs to (the last at the end)."""
        found = 0
        for k, (start, _) in enumerate(self.turns):
            if start <= index:
                found = k
        return found

    def owner(self, moves: list) -> int | None:
        return next((seat for seat, _, _ in reversed(moves) if seat >= 0), None)

    def words(self, ctx: PlayContext, k: int) -> str:
        """The view's words for the whole turn `k` (HTML), kept per language."""
        key = (ctx.lang, k)
        if key not in self._words:
            self._words[key] = self.view.describe_turn(ctx, self.turns[k][1])
        return self._words[key]

    def scores_over_time(self, index: int) -> dict[int, list[float]]:
        """Per seat: 0 at the start, then the scores at the end of each round completed by `index`
        (the results screen's progression, one point a round as the view counts rounds, up to
        this moment; a round still going on shows its latest completed turn)."""
        series = {seat: [0] for seat in range(len(self.seats))}
        last_round = None
        for start, moves in self.turns:
            end = start + len(moves)
            if end > index:
                break
            after = self.states[end]
            if after.turn_number() == moves[0][2].turn_number() and not after.is_terminal():
                continue  # the turn is still going on
            number = self.view.round_of(moves[0][2])
            for seat, score in enumerate(after.scores()):
                if number == last_round:
                    series[seat][-1] = score  # a later turn of the same round
                else:
                    series[seat].append(score)
            last_round = number
        return series

    def context(self, t, lang: str, index: int) -> PlayContext:
        """The position after `index` moves as the view draws it, with nobody able to act."""
        index = self.clamp(index)
        state = self.states[index]
        turns = self.turns_upto(index)
        current = state.turn_number()
        completed = [turn for turn in turns if turn[0][2].turn_number() < current]
        begun = bool(turns) and turns[-1][0][2].turn_number() == current
        ctx = PlayContext(t=t, lang=lang, game=self.game, seats=self.seats, state=state, index=index,
                          ui=copy.deepcopy(self.uis[index]), seat=None, animations=False,
                          last_turn=completed[-1] if completed else [], turn_begun=begun)
        shown = None
        if not state.is_terminal():
            shown = state.roller() if state.is_chance() else state.current_player()
            shown = shown if shown is not None and shown >= 0 else None
        playing = [s for s in state.current_players() if s >= 0] or ([shown] if shown is not None else [])
        prompt = t("prompt.game_over") if state.is_terminal() else self.view.prompt(ctx)
        # The seat bar scrolls sideways when its chips do not fit; here its chips cannot be used
        # (screens/replay.py disables them), so the bar itself takes the focus to be scrolled.
        chips = seats_widget.seat_bar(self.seats, state.scores(), current=playing, flash=set(), animations=False,
                                      viewing=None, label=t("play.players"))
        ctx.platform = {
            "seats": chips.replace('<ul class="chips"', '<ul class="chips" tabindex="0"', 1),
            "prompt": banner.prompt_line(self.seats, shown, prompt, thinking=False),
            "countdown": "", "hint": "", "log": "", "tools": "", "last": "",
        }
        if ctx.last_turn and not begun:
            owner = self.owner(ctx.last_turn)
            k = self.turn_at(index - 1)
            if owner is not None:
                ctx.platform["last"] = banner.last_turn(self.seats, owner, t("play.last_move"), self.words(ctx, k))
        return ctx
