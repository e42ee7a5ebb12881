"""Replay: a finished game from History, at any move (`#/replay/<history id>/<move>`).

The board or sheets as the game's view drew them then (`dicehall.replay.Replay.context`, nobody
able to act), a scrub bar and step buttons in the bar at the bottom, each turn in words as a
button that jumps to the end of that turn, and every seat's score over time up to that move. The
move is in the address, so a reload, Back and a bookmark keep it; stepping replaces the address
(no history entry per step). Keys: ←/→ a move (mirrored right to left), Home/End, Page Up/Down a
turn. A kept record is checked whole when it opens; a damaged one is refused in words. The game's
review opens beside it (reviewing.py, computed in the AI worker), each mistake a button showing
its move, and the mistake made from the position shown is said under it.
"""

from __future__ import annotations

import re
import weakref

from pygame_core.registry import get_entry

from .. import replay, replaylink, reviewing, router
from ..dom import attrs, button, esc
from ..widgets import controls, plot
from ..widgets import review as review_widget
from ..widgets.seats import seat_label

# The replay each shell has open, kept while it stays on the same game (replayed once).
_OPEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# The context each shell's replay screen was drawn from last (what it shows; tests compare it).
DRAWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

_BUTTON = re.compile(r"<button(?![^>]*\sdisabled[\s>=])")
_ACTION = re.compile(r'\sdata-(?:action|arg)="[^"]*"')
_PICTURE = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
_EMPTY = re.compile(r"<span[^>]*>\s*</span>")


def inert(html: str) -> str:
    """The view's HTML with every control disabled and no action left to send: a replay shows
    the controls as they were, and none can be used."""
    return _ACTION.sub("", _BUTTON.sub("<button disabled", html))


def opened(app, entry_id: str | None):
    """(Replay, None) for the kept game `entry_id`, or (None, words saying why it cannot be shown)."""
    t = app.t
    known = _OPEN.get(app)
    if known is not None and known[0] == entry_id:
        return known[1], known[2]
    try:  # a History id, or a link's payload (replaylink.py)
        entry = replaylink.entry(entry_id) if replaylink.is_link(entry_id) else \
            replay.find(app.store, entry_id) if entry_id else None
    except replaylink.LinkError as err:
        entry, found = None, (None, t(err.code))
    else:
        found = (None, t("replay.missing", n=replay.MAX_REPLAYS))
    if entry is not None:
        try:
            found = (replay.Replay.open(entry, app.view), None)
        except Exception as err:  # noqa: BLE001 - RecordError in words; anything else is damage too
            found = (None, t("replay.damaged", cause=app.catalog.error(err) if hasattr(err, "code") else t("record.corrupt")))
    _OPEN[app] = (entry_id, *found)
    return found


def where(app) -> tuple[str | None, str | None]:
    parts = app.route()
    return router.arg(parts, 1), router.arg(parts, 2)


def session(app) -> tuple:
    """(Replay or None, the move shown, words why not) for the address."""
    entry_id, at = where(app)
    shown, why = opened(app, entry_id)
    return shown, (shown.clamp(at) if shown is not None else 0), why


def render(app) -> str | None:
    t = app.t
    shown, index, why = session(app)
    head = '<section class="screen replay" aria-labelledby="replay-h" data-testid="replay"'
    back = button(esc(t("replay.back")), action="go", arg="#/history", cls="btn", testid="replay-back")
    if shown is None:
        return (f'{head}><h1 id="replay-h">{esc(t("replay.title"))}</h1>'
                f'<p class="notice" role="alert" data-testid="replay-refused">{esc(why)}</p>'
                f'<div class="row">{back}</div></section>')
    if app.needs_catalog(shown.game):
        return None
    ctx = shown.context(t, app.lang, index)
    DRAWN[app] = ctx
    total = shown.length
    out = [f'{head} data-game-id="{esc(shown.game)}" data-at="{index}" data-moves="{total}">',
           f'<h1 id="replay-h">{esc(t("replay.heading", game=t(f"{shown.game}.title")))}</h1>',
           f'<p class="meta" data-testid="replay-position">{esc(position_text(t, index, total))}</p>',
           mistake_here(app, shown, index),
           (f'<div class="play replay-board" data-game="{esc(shown.game)}" data-testid="replay-board">'
            f'{inert(shown.view.render(ctx))}</div>'),
           plot.line_plot(shown.scores_over_time(index), shown.seats, title=t("replay.plot"),
                          steps_text=lambda n: t("results.rounds", n=n), testid="replay-plot"),
           f'<div class="row">{back}{share_buttons(t, shown)}</div>',
           review(app, shown, index),
           turn_list(t, shown, ctx, index),  # (last: a long game's log is long)
           bar(t, app.catalog.dir, index, total),
           "</section>"]
    return "".join(out)


def review(app, shown, index: int) -> str:
    """The game's review (reviewing.py: computed in the AI worker), each mistake a button that
    shows its move."""
    state = reviewing.replay_review(app)
    return reviewing.section(app, shown.view, shown.game, shown.seats, shown.record, is_open=state["id"] == shown.id,
                             chosen=state["seat"], show_moves=True, at=index)


def mistake_here(app, shown, index: int) -> str:
    """Under the position, while the review is open: the costly decision made from this position
    (what was chosen, what was better, what it cost), so the board and its grade are seen together."""
    state = reviewing.replay_review(app)
    if state["id"] != shown.id or get_entry(shown.game).review is None:
        return ""
    status, result = reviewing.of(app).get(shown.record)
    if status != "ready":
        return ""
    t, view = app.t, shown.view
    for s, graded in enumerate(result["seats"]):
        for d in graded["mistakes"]:
            if d["index"] == index:
                words = review_widget.mistake_words(
                    t, d, describe=lambda m: view.describe_move(t, m), value=lambda d, field: view.review_value(t, d, field),
                    when=lambda d: view.review_when(t, d), detail=view.review_detail,
                    tag=review_widget.certainty(result) == "mixed")
                return (f'<p class="review-here" data-testid="review-here" data-seat="{s}">'
                        f'<span>{seat_label(shown.seats, s)}</span>{words}</p>')
    return ""


def review_action(do):
    def action(app, arg) -> None:
        shown, _, _ = session(app)
        if shown is not None and get_entry(shown.game).review is not None:
            do(app, shown, arg)
            app.render()
    return action


def _open_review(app, shown, arg) -> None:
    reviewing.replay_review(app, shown.id)


def _review_seat(app, shown, arg) -> None:
    reviewing.replay_review(app, shown.id)["seat"] = None if arg in (None, "all") else int(arg)


def _review_retry(app, shown, arg) -> None:
    reviewing.of(app).get(shown.record, retry=True)


def show_mistake(app, arg) -> None:
    """A mistake's move: the position before it, drawn as a new moment (from the top, the board
    in view, the focus on the heading), and said."""
    shown, _, _ = session(app)
    if shown is None:
        return
    reviewing.replay_review(app, shown.id)["jumps"] += 1
    target = shown.clamp(arg)
    app.go(f"#/replay/{shown.id}/{target}", replace=True)
    say_position(app, shown, target)


def without_pictures(html: str) -> str:
    """A turn's words without the view's pictures (its dice are drawn as SVG, hidden from screen
    readers): the log stays words, light enough to draw again with every step (a five-dice game's turn
    was 1.9 KB with its dice, ~0.3 KB without)."""
    html = _PICTURE.sub("", html)
    while True:
        shorter = _EMPTY.sub("", html)
        if shorter == html:
            return html
        html = shorter


def share_buttons(t, shown) -> str:
    """Copy the replay's link (when it is short enough: replaylink.MAX_LINK_CHARS) and save it as a file."""
    link = button(esc(t("replay.link")), action="replay-link", cls="btn", testid="replay-link")
    return link + button(esc(t("results.export")), action="replay-export", cls="btn", testid="replay-export")


def position_text(t, index: int, total: int) -> str:
    return t("replay.position", n=t.number(index), total=t.number(total))


def turn_list(t, shown, ctx, index: int) -> str:
    """The game in words, a turn a line; each line jumps to the end of its turn."""
    current = shown.turn_at(index - 1) if index > 0 else -1
    items = [f'<li>{go_button(esc(t("replay.first")), 0, "replay-turn-start", current=index == 0)}</li>']
    for k, (start, moves) in enumerate(shown.turns):
        owner = shown.owner(moves)
        who = seat_label(shown.seats, owner) + ": " if owner is not None else ""
        words = without_pictures(shown.words(ctx, k)).strip() or esc(t("replay.turn", n=t.number(k + 1)))
        items.append(f'<li>{go_button(who + words, start + len(moves), f"replay-turn-{k}", current=k == current)}</li>')
    return (f'<section class="replay-log" aria-labelledby="replay-log-h"><h2 id="replay-log-h">{esc(t("replay.log"))}</h2>'
            f'<ol class="replay-turns" data-testid="replay-turns">{"".join(items)}</ol></section>')


def go_button(label_html: str, to: int, testid: str, current: bool = False) -> str:
    return button(label_html, action="replay-go", arg=str(to), cls="btn ghost replay-turn", testid=testid,
                  aria_current="step" if current else None)


# The step buttons' pictures (drawn, not characters: a phone's fonts may lack ⏮ and ⏭), pointing
# left to right; mirrored right to left (class "flip").
ICONS = {"first": "M5 5h2.5v14H5zM19 5v14L8.5 12z", "previous": "M17 5v14L6 12z", "next": "M7 5v14l11-7z",
         "last": "M16.5 5H19v14h-2.5zM5 5v14l10.5-7z"}


def bar(t, direction: str, index: int, total: int) -> str:
    """The bar at the bottom: the scrub bar over every move, and Start, Back, Next, End."""
    first, last = index <= 0, index >= total

    def step(path: str, key: str, to: int, off: bool, testid: str) -> str:
        icon = (f'<span aria-hidden="true" class="flip"><svg viewBox="0 0 24 24" width="22" height="22" focusable="false">'
                f'<path d="{path}" fill="currentColor"/></svg></span>')
        return button(icon, action="replay-go", arg=str(to), cls="btn", testid=testid, aria_label=t(key), title=t(key),
                      disabled=off)
    scrub = (f'<input type="range"{attrs(min="0", max=str(total), step="1", value=str(index), data_field="replay-at", data_testid="replay-scrub", aria_label=t("replay.scrub"), aria_valuetext=position_text(t, index, total), cls="replay-scrub")}>')
    return controls.action_bar(
        step(ICONS["first"], "replay.first", 0, first, "replay-first"),
        step(ICONS["previous"], "replay.previous", index - 1, first, "replay-previous"),
        step(ICONS["next"], "replay.next", index + 1, last, "replay-next"),
        step(ICONS["last"], "replay.last", total, last, "replay-last"),
        above=scrub, share=True)


def go(app, to) -> None:
    """Show the move `to` (clamped) of the open replay; the address is replaced, not pushed."""
    shown, index, _ = session(app)
    if shown is None:
        return
    target = shown.clamp(to)
    if target == index:
        return
    app.go(f"#/replay/{shown.id}/{target}", replace=True)
    say_position(app, shown, target)


def say_position(app, shown, index: int) -> None:
    """Where the replay is now, and the move that led there, for a screen reader."""
    t = app.t
    words = position_text(t, index, shown.length)
    if index > 0:
        seat, move = shown.record.moves[index - 1]
        said = shown.view.describe_move(t, move)
        words += ": " + (t("replay.said_move", name=shown.seats[seat]["name"], move=said) if seat >= 0 else said)
    app.say(words)


def key(app, key_name: str, tag: str) -> bool:
    """←/→ (mirrored right to left) a move, Home/End the start and the end, Page Up/Down a turn.
    True when taken (the page then prevents its default: a scrub bar would move twice)."""
    if app.dialog_kind is not None or tag in ("TEXTAREA", "SELECT"):
        return False
    shown, index, _ = session(app)
    if shown is None:
        return False
    forward, backward = ("ArrowLeft", "ArrowRight") if app.catalog.dir == "rtl" else ("ArrowRight", "ArrowLeft")
    ends = [start + len(moves) for start, moves in shown.turns]
    targets = {forward: index + 1, backward: index - 1, "Home": 0, "End": shown.length,
               "PageDown": next((e for e in ends if e > index), shown.length),
               "PageUp": next((e for e in reversed([0, *ends]) if e < index), 0)}
    if key_name not in targets:
        return False
    go(app, targets[key_name])
    return True


def with_open(do):
    def action(app, arg) -> None:
        shown, index, _ = session(app)
        if shown is not None:
            do(app, shown, index)
    return action


ACTIONS = {"replay-go": lambda app, arg: go(app, arg),
           "review-open": review_action(_open_review), "review-seat": review_action(_review_seat),
           "review-retry": review_action(_review_retry), "review-show": show_mistake,
           "replay-link": with_open(replaylink.share),
           "replay-export": with_open(lambda app, shown, index: replaylink.export(app, shown))}
FIELDS = {"replay-at": lambda app, value, checked, data: go(app, value)}
