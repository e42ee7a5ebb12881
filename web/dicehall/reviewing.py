"""The review of a finished game (its game's `review(record)`, docs/ARCHITECTURE.md), as the
results screen and a replay show it.

**Where it is computed.** In the AI worker (`Page.review`, web/worker.py `review`), never on the
main thread: a long game's review takes seconds of Python, which would freeze the page. The
screen shows "reviewing…" meanwhile and draws once more when the answer comes. When the worker
cannot answer (not running, the game's data not loadable there, the review failing), the review
says in words that it cannot be computed now, with Retry; it is not computed on the main thread
instead.

**Kept per record.** A review is kept by its record's identity (the game and its moves, so the
finished game on the results screen and the same game replayed from History are one review),
worked out once per record object and length, for the last few records: drawing again does not
ask again.

**One view.** The results screen and a replay draw the same section (widgets/review.py). Beside
a replay each mistake has a button that shows its move (the position before it); on the results
screen it opens the game's replay there with the review open, when History keeps the game (the
last `replay.MAX_REPLAYS`; a guest at someone else's table keeps none), else the review stays on
the results screen and says why.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections import OrderedDict

from pygame_core.registry import get_entry

from . import replay
from .dom import button, esc
from .widgets import review as review_widget

KEEP = 4  # reviews kept: the game just finished and the replays opened after it
_REVIEWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def of(app) -> Reviews:
    """The reviews of this app (the shell)."""
    found = _REVIEWS.get(app)
    if found is None:
        found = _REVIEWS[app] = Reviews(app)
    return found


def checked(result, players: int) -> dict:
    """The worker's answer in the contract's shape (docs/ARCHITECTURE.md), or ValueError."""
    seats = result.get("seats") if isinstance(result, dict) else None
    if not isinstance(seats, list) or len(seats) != players:
        raise ValueError("a review without a grade for each seat")
    for seat in seats:
        if not isinstance(seat, dict) or not all(k in seat for k in ("total_loss", "mean_loss", "score", "curve", "mistakes")):
            raise ValueError("a seat's review is incomplete")
    return result


class Reviews:
    def __init__(self, app) -> None:
        self.app = app
        self.done: OrderedDict = OrderedDict()  # key -> the review, or None: it could not be had
        self.pending: dict = {}  # key -> the task asking the worker
        self._keys: list = []  # (record, its length, key) of the last few records drawn
        self._kept: tuple | None = None  # (key, History id or None): is the results' game kept?
        self.asked = 0  # reviews asked of the worker (a test counts them)

    def key(self, record) -> str:
        """The record's identity (its game, options and moves), worked out once per record object
        and length: a take-back makes it another record."""
        n = len(record.moves)
        for rec, length, key in self._keys:
            if rec is record and length == n:
                return key
        key = hashlib.sha256(json.dumps(record.to_json(), sort_keys=True).encode()).hexdigest()
        self._keys = [(record, n, key), *self._keys[: KEEP - 1]]
        return key

    def get(self, record, retry: bool = False) -> tuple[str, dict | None]:
        """("ready", the review) | ("loading", None) | ("unavailable", None), asking the worker
        when it is neither kept nor asked yet (or, `retry`, when it could not be had)."""
        key = self.key(record)
        if key in self.done and (self.done[key] is not None or not retry):
            result = self.done[key]
            return ("ready", result) if result is not None else ("unavailable", None)
        if key not in self.pending:
            self.done.pop(key, None)
            self.asked += 1
            self.pending[key] = self.app.later(self._ask(key, record))
        return "loading", None

    async def _ask(self, key: str, record) -> None:
        result = None
        try:
            text = await self.app.page.review(record.game, json.dumps(record.to_json()))
            if text is not None:
                result = checked(json.loads(text), int(record.options.get("players", 0)))
        except Exception as err:  # noqa: BLE001 - a malformed answer: "cannot be computed now", and logged
            self.app.log_error(f"the review of {record.game}: {err!r}")
        finally:
            self.pending.pop(key, None)
        self.done[key] = result
        self.done.move_to_end(key)
        while len(self.done) > KEEP:
            self.done.popitem(last=False)
        if self.app.shown in ("results", "replay"):
            self.app.render()

    def kept_id(self, table) -> str | None:
        """The History id of the finished game on the table when History keeps it for replay."""
        key = self.key(table.record)
        if self._kept is None or self._kept[0] != key:
            entry_id = f"{table.table_id}:{len(table.start_seats)}"
            entry = replay.find(self.app.store, entry_id) if replay.ID_FORM.fullmatch(entry_id) else None
            same = entry is not None and entry["record"].get("moves") == [list(m) for m in table.record.moves]
            self._kept = (key, entry_id if same else None)
        return self._kept[1]


def section(app, view, game: str, seats: list[dict], record, *, is_open: bool, chosen: int | None, note: str = "",
            show_moves: bool = False, at: int | None = None, extra: str = "") -> str:
    """The review section of a finished game (none when its game has no review)."""
    if get_entry(game).review is None:
        return ""
    t = app.t
    status, result = of(app).get(record) if is_open else ("none", None)
    return review_widget.review_section(
        t, seats, result, status=status, is_open=is_open, chosen=chosen, describe=lambda m: view.describe_move(t, m),
        fmt=lambda v: view.format_value(t, v), value=lambda d, field: view.review_value(t, d, field),
        when=lambda d: view.review_when(t, d), detail=view.review_detail, note=note, show_moves=show_moves, at=at,
        extra=extra,
        texts={"intro": t(f"{game}.review.intro"), "loss_help": t(f"{game}.review.loss_help"), "plot": t(f"{game}.review.plot")})


# --- the results screen ----------------------------------------------------------------------------
def results_section(app) -> str:
    play = app.play
    table = play.table
    is_open = play.review_open == id(table.record)
    kept = of(app).kept_id(table) if is_open else None
    note = "" if not is_open or kept is not None else app.t("review.not_kept")
    # The same review beside the game's replay, from its start (each mistake's button: at it).
    extra = button(esc(app.t("review.in_replay")), action="review-show", arg=0, cls="btn small",
                   testid="review-in-replay") if kept is not None else ""
    return section(app, play.view, table.game, table.seats, table.record, is_open=is_open, chosen=play.review_seat,
                   note=note, show_moves=kept is not None, extra=extra)


def results_action(app, action: str, arg) -> None:
    """Open the review, pick a seat, retry, on the results screen."""
    play = app.play
    play.review_open = id(play.table.record)
    if action == "review-seat":
        play.review_seat = None if arg in (None, "all") else int(arg)
    elif action == "review-retry":
        of(app).get(play.table.record, retry=True)
    app.render()


def show_in_replay(app, arg) -> None:
    """A mistake's move, from the results screen: the game's replay at it, with the review open."""
    play = app.play
    kept = of(app).kept_id(play.table) if play.running else None
    if kept is None:
        return
    replay_review(app, kept)["seat"] = play.review_seat
    app.go(f"#/replay/{kept}/{int(arg)}")


# --- beside a replay -------------------------------------------------------------------------------
_REPLAY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def replay_review(app, entry_id: str | None = None) -> dict:
    """The replay review's state: {"id": the replay whose review is open, "seat": the seat shown
    (None: everyone), "jumps": how many times a mistake's move was shown (each one a new moment:
    the screen starts at the top, the board in view)}; `entry_id` opens it for that replay."""
    state = _REPLAY.get(app)
    if state is None:
        state = _REPLAY[app] = {"id": None, "seat": None, "jumps": 0}
    if entry_id is not None and state["id"] != entry_id:
        state.update(id=entry_id, seat=None)
    return state


def moment(app) -> int:
    """What makes a replay's redraw a new moment besides its screen and game (router.moment)."""
    state = _REPLAY.get(app)
    return state["jumps"] if state is not None else 0
