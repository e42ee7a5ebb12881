"""The hosting phone's side of a hand-over in the app (issue 31, item 3): coming back to a room
whose table may have moved to an heir, and what a host does to keep its table.

- **Back** (`come_back`): the phone that hosted a room opens it again (a reload, the browser
  reopened, a frozen tab thawed). Its guests count it lost 12 s after they last heard it
  (`succession.LOST_SECONDS`); they heard it at most `PING_SECONDS` (2 s) before the last mark
  it wrote while hosting (`SEEN_KEY`, each tick), so none can have counted it lost before
  mark + 10 s. Back within `QUICK_SECONDS` (8 s) of its mark, it hosts again at once (a reload:
  its guests are back within about a second, before any of them counts it lost). Later, it
  first looks for an heir (`roomheir.return_to_heir`: each heir's derived room, the first until
  the latest moment it would have opened its room: mark + 12 s + 4 s of ticks and registration)
  with the join screen saying "Connecting…"; found and checked, it plays on there as a guest in
  its own seat (its room's save goes: the table is the heir's now; its guest save and the
  address `#/join/<heir's room>` bring it back there after a reload). Only when nobody took
  over ("alone") does it host its room again. Its table waits meanwhile: nothing is played on
  it (no computer's move, no throw), so it cannot drift from an heir's.
- **Awake and warned**: while this phone hosts, its screen is kept awake (the shell's render), and leaving the page while a game is on is warned of (`beforeunload`, the
  browser's own words: `guard`), since a host away for 12 s loses the table.

No browser import: the desk's app, store, clock and transport are used.
"""

from __future__ import annotations

import json

from pygame_core.rooms.succession import LOST_SECONDS, Known

from . import store
from .roomheir import return_to_heir
from .rooms import PING_SECONDS

SEEN_KEY = store.PREFIX + "room_seen"  # {"room", "at"}: the hosted room, and when it last ticked here
QUICK_SECONDS = LOST_SECONDS - PING_SECONDS - 2.0  # back sooner: host again at once (2 s to be heard)
SEEN_EVERY = 1.0
HEIR_SLACK = 4.0  # after its turn, an heir's tick (1 s) and its room's registration (well under 1 s)


def seen_at(desk, room_id: str) -> float | None:
    """When this phone last hosted `room_id` (its mark), or None when it does not say."""
    data = desk.app.store.get_json(SEEN_KEY)
    if isinstance(data, dict) and data.get("room") == room_id and isinstance(data.get("at"), (int, float)) \
            and not isinstance(data.get("at"), bool):
        return float(data["at"])
    return None


def mark(desk, now: float) -> None:
    """While hosting, once a second: this phone still hosts its room now. A tick that comes
    `QUICK_SECONDS` or more after the last one, with no guest heard meanwhile, means the page was
    frozen (a locked phone, a tab put to sleep): its guests may have handed the table over, so it
    looks for an heir. (A tab in the background whose timers are merely slowed still hears its
    guests and answers them: it hosts on.)"""
    session = desk.hosting
    if session is None or session.direct or session.room.table.match is None:
        return  # (a room still choosing its game is never taken over: rooms.GuestSession.tick)
    last = desk._seen_at
    if last is not None and QUICK_SECONDS <= now - last:
        room = session.room
        heard = max((g.last_seen for g in room.guests.values()), default=-1e9)
        if now - heard >= QUICK_SECONDS and Known.of_host(room).heirs:
            _stop_hosting(desk)
            come_back(desk, room, last)
            return
    if last is None or now - last >= SEEN_EVERY:
        desk._seen_at = now
        desk.app.store.put(SEEN_KEY, json.dumps({"room": session.room.room_id, "at": round(now, 3)}))


def _stop_hosting(desk) -> None:
    """The room's link goes (its save stays): this phone looks for an heir before hosting again."""
    session, desk.hosting = desk.hosting, None
    session.close()
    if desk.lister is not None:
        desk.lister.close()
        desk.lister = None
    play = desk.app.play
    if session.room in play.observers:
        play.observers.remove(session.room)
    play.roller = desk.app.dice_roller
    desk._seen_at = None


def come_back(desk, room, seen: float | None) -> None:
    """This phone's hosted room, back (see the module's text): host it again, or first look for
    whoever took its table over."""
    app, play = desk.app, desk.app.play
    now = app.clock()
    heirs = Known.of_host(room).heirs
    if not heirs or (seen is not None and 0 <= now - seen < QUICK_SECONDS):
        _host_again(desk, room)
        return
    until = seen + LOST_SECONDS + HEIR_SLACK if seen is not None else -1e9  # (no mark: an older save)
    play.load(None)  # nothing moves here meanwhile; the join screen says "Connecting…" (the room's
    # table comes back with the heir's room, or for hosting again)
    network = app.room_network()
    session = return_to_heir(room, desk.transport, app.clock, lambda text: app.keep(store.GUEST, text),
                             lambda kind: _changed(desk, room, kind), broker=network["broker"],
                             ice=network["ice"], until=until, door=play)
    session.on_take_over = desk._took_over  # (its heir lost later, this phone may be next in line)
    desk.guesting, desk.returning = session, session.handover
    play.outbox = session
    app.go(f"#/join/{room.room_id}", replace=True)
    desk._start_ticker()
    app.render()


def _host_again(desk, room) -> None:
    app = desk.app
    app.play.outbox = None
    if app.play.table is not room.table:
        app.play.load(room.table)
    desk._host(room)
    desk._seen_at = None
    mark(desk, app.clock())


def _changed(desk, room, kind: str) -> None:
    """The old host's search: found (a guest in the heir's room now) or alone (host again)."""
    hand, session = desk.returning, desk.guesting
    if hand is None or session is None:
        desk._guest_changed(kind)  # (a guest of its heir now, like any other)
        return
    if kind != "handover":
        if kind != "error":  # (an heir not there yet is no news: the next is tried)
            desk._guest_changed(kind)
        return
    app = desk.app
    if hand.state == "following":
        desk.returning = None
        app.store.remove(store.ROOM)  # the table is the heir's now: this phone is its guest
        app.store.remove(SEEN_KEY)
        desk.book.forget(room.room_id)
        app.say(app.t("room.back_as_guest", name=str(session.guest.about.get("host") or "?")))
        app.go(f"#/join/{session.room_id}", replace=True)
    elif hand.state == "alone":
        desk.returning, desk.guesting = None, None
        session.close()
        app.store.remove(store.GUEST)
        _host_again(desk, room)
        app.go("#/play", replace=True)
    app.render()


def guard(desk) -> None:
    """Warn before the page is left while this phone hosts a game in progress."""
    play = desk.app.play
    on = desk.hosting is not None and play.running and not play.table.state.is_terminal()
    if on != getattr(desk, "_guarded", False):
        desk._guarded = on
        desk.app.page.leave_warning(on)
