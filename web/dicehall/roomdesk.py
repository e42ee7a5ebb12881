"""The app's online room: the room panel under the host's table, the join screen and a guest's
room, their heartbeat and their saves. The protocol lives in `pygame_core.rooms`, the sessions in
`rooms.py`; this module draws and handles taps. It needs of the app (`App`) only: `play`, `t`,
`render`, `say`, `route`, `go`, `settings`, `store`/`load` of local storage keys, `clock`,
`page_address` and `restore_own_table` (the `shell.Shell`; `store`: its `store.Store`).

Rulings (the rules files are silent on rooms):
- A room is this phone's current table opened for others, board and scores kept; closing it (or
  quitting the game) sends every guest away; the table stays this phone's.
- A guest's screen shows the host's table; the guest's own unfinished game stays saved on that
  phone, untouched, and comes back when they leave the room.
- "Play again" at a hosted table starts the next game for everyone (fresh fair dice).
- One guest in two tabs (they share `dicehall.guest`): the tab that holds the guest's place keeps
  it; the other shows the join screen saying the place is open in another tab, with "Play here"
  (which moves it: the first tab then says it moved, and also offers "Play here"). Neither tab
  retries by itself (`rooms.GuestSession`, the host's ruling in `pygame_core.rooms.host`). Leaving
  from a tab that does not hold the place keeps the saved place: the other tab still plays it.
"""

from __future__ import annotations

import asyncio
import json

from pygame_core.registry import get_entry
from pygame_core.rooms.guest import RoomGuest
from pygame_core.rooms.host import HOST, ROOM_SAVE, RoomHost
from pygame_core.rooms.messages import MAX_CHAT, MAX_NAME, clean_text
from pygame_core.rooms.succession import resume_room

from . import roomback, roomlobby, roomscreens, store
from .roomlist import RoomBook, RoomLister, summary
from .roomscreens import ERRORS, unquoted
from .rooms import (GUEST_SAVE, GuestSession, HostSession, host_table, read_answer, saved_guest, valid_invitation,
                    valid_qr, valid_room_id)

ROOM_KEY = store.ROOM  # the hosted room (with its dice seed and broker token): this phone only
GUEST_KEY = store.GUEST  # the room this phone is a guest of: room id, guest id, seat secret
TICK_SECONDS = 1.0
# Why the camera could not read an answer (web/direct.js `scan`), said in the scanning dialog.
SCAN_ERRORS = {"denied": "room.scan_denied", "no-camera": "room.scan_no_camera"}  # any other: room.scan_failed
SCAN_VIDEO = "#dialog video"  # the camera's picture, in the app's dialog while it scans


class RoomDesk:
    def __init__(self, app, transport, direct_transport=None, qr_maker=None, scanner=None) -> None:
        self.app = app
        self.scanner = scanner  # the camera reading a guest's answer (jsrooms.QrScanner), or None
        self._scan = None  # the scan running, while the dialog shows the camera
        self.qr_maker = qr_maker  # async text -> {"size", "d"} or None: a link's QR code
        self._qr: dict[str, dict | None] = {}  # made (or being made) per link
        self.transport = transport  # through a meeting server (broker)
        self.direct_transport = direct_transport  # direct links: invitations, no server
        self.hosting: HostSession | None = None
        self.guesting: GuestSession | None = None
        self.chat_draft = ""
        self.name_draft = ""
        self.answer_draft = ""
        self._ticker: asyncio.Task | None = None
        self._seen: tuple = ()  # what a guest's screen shows of the room (redraw when it changes)
        self._errors_seen = 0
        self._said: str | None = None  # the transport error the guest was told of last
        self._handover_seen: set[str] = set()  # the words of a hand-over said so far
        # Back as the old host (roomback.py): the search for an heir, the last mark, the warning.
        self.returning, self._seen_at, self._guarded = None, None, False
        # The room overview (screens/rooms_overview.py): your rooms, the hosted room's listing
        # on its meeting server (the host's choice, off by default), a seat to ask for once in.
        from .screens.rooms_overview import Overview

        self.book = RoomBook(app)
        self.overview = Overview(self)
        self.lister: RoomLister | None = None
        self.listed = False
        self.want_seat: str | None = None  # a room joined by "Join" (not "Watch"): ask for a free seat
        self._booked: tuple | None = None  # the guest's room as last written to your rooms

    # --- boot -----------------------------------------------------------------------------
    def boot(self) -> None:
        """After the app resumed its table: the room this phone hosted, or the room it is a guest
        of (the page reloaded on its join link), comes back."""
        data = self.app.store.load(ROOM_KEY, ROOM_SAVE)  # (an unsound save is set aside, and reads None)
        if data is not None:
            try:
                room = resume_room(data, self.app.clock())  # (a successor's too: succession.py)
            except ValueError as err:  # sound in shape, yet not a room to resume (its table, its dice)
                self.app.store.set_aside(ROOM_KEY, self.app.store.get(ROOM_KEY) or "", [("$", str(err)[:200])])
                room = None
            play = self.app.play
            own = play.table.record.moves if play.running else None
            if room is not None and room.table.match is None and not room.expired(self.app.clock()):
                roomlobby.resume(self, room, data.get("direct") is True and self.direct_transport is not None)
            elif room is None or room.expired(self.app.clock()) or own is None or room.table.game != play.table.game \
                    or room.table.record is None or room.table.record.moves[:len(own)] != own:
                self.app.store.remove(ROOM_KEY)  # over, or not about this table any more
            else:
                play.load(room.table)  # the room's save is written first: it is never behind
                if data.get("direct") is True and self.direct_transport is not None:
                    self._host(room, direct=True)  # (no heir: a direct room's guests cannot meet one)
                else:
                    roomback.come_back(self, room, roomback.seen_at(self, room.room_id))  # an heir first
        parts = self.app.route()
        # (A direct invitation is good for one connection: a reload on it asks to join again.)
        if parts[0] == "join" and len(parts) == 2:
            saved = saved_guest(self.app.store.load(GUEST_KEY, GUEST_SAVE))  # (read, so checked, always)
            if saved is not None and saved["room"] == parts[1] and saved["guest"] is not None \
                    and self.guesting is None:  # (not while this phone looks for its heir: roomback.py)
                self._join(saved["room"], saved["name"], saved["guest"], saved["secret"])

    # --- state ---------------------------------------------------------------------------
    @property
    def guest_in(self) -> bool:
        """This screen shows someone else's table (as a guest admitted to their room)."""
        return self.guesting is not None and self.guesting.guest.status == "in" and self.app.play.running \
            and self.guesting.guest.elsewhere is None and not self._new_invitation()

    def _new_invitation(self) -> bool:
        """The page is on a direct invitation other than the one this guest's link came by (the
        host invited again after a link was lost): its join screen comes first."""
        parts = self.app.route()
        return len(parts) == 3 and parts[0] == "join" and self.guesting is not None \
            and self.guesting.invitation is not None and unquoted(parts[2]) != self.guesting.invitation

    def on_play_screen(self) -> bool:
        parts = self.app.route()
        return parts[0] == "play" or (parts[0] == "join" and self.guest_in)

    # --- host --------------------------------------------------------------------------------
    def open_room(self, direct: bool = False) -> None:
        """Open this table for others: through the meeting server (a link for anyone), or
        `direct` (invitations to phones nearby, no server at all)."""
        play = self.app.play
        if self.hosting is not None or self.guesting is not None or self.returning is not None or not play.running \
                or (direct and self.direct_transport is None):
            return
        people = [s["name"] for s in play.table.seats if not s["ai"]]
        room = RoomHost(play.table, self.app.clock(), people[0] if people else self.app.t("room.host"))
        self._host(room, direct)
        if direct:
            self.hosting.invite()

    def _host(self, room: RoomHost, direct: bool = False) -> None:
        if room.table.match is not None:  # (a room choosing its game leaves this phone's table be)
            host_table(self.app.play, room)
        network = self.app.room_network()
        if direct:
            network["broker"] = None
        self.hosting = HostSession(room, self.direct_transport if direct else self.transport, self.app.clock,
                                   lambda text: self.app.keep(ROOM_KEY, text), self._host_changed, **network,
                                   direct=direct)
        self.hosting.start()
        self.listed = False
        if not direct and network["broker"] is not None:  # PeerJS's public broker lists nothing
            self.lister = RoomLister(self.transport, network["broker"], network["ice"], self.app.clock)
            entry = self.book.entry(room.room_id)
            self.listed = bool(entry and entry["role"] == "host" and entry["listed"])
        self.book.remember_host(room, self.listed)
        self._update_listing()
        self._start_ticker()
        roomback.guard(self)  # at once, not on the next tick: an heir's computer seats may end the game first

    def can_list(self) -> bool:
        """The hosted room could be listed in Open rooms (it has a meeting server of the app's own)."""
        return self.hosting is not None and self.lister is not None

    def set_listed(self, listed: bool) -> None:
        if not self.can_list():
            return
        self.listed = listed
        self.book.remember_host(self.hosting.room, listed)
        self._update_listing()
        self.app.say(self.app.t("room.listed" if listed else "room.unlisted"))
        self.app.render()

    def _update_listing(self) -> None:
        if self.lister is not None:
            room = self.hosting.room if self.hosting is not None else None
            self.lister.update(summary(room) if room is not None and self.listed else None)

    def close_room(self) -> None:
        """The host closes the room: guests are sent away and the seats they played come back
        to this screen (people's seats: whoever sits here plays them; the computer's seats a
        guest never took stay the computer's)."""
        session, self.hosting = self.hosting, None
        if session is None:
            return
        if self._scan is not None:
            self.app.close_dialog()  # which stops the scan
        session.close()
        if self.lister is not None:
            self.lister.close()
            self.lister = None
        self.book.forget(session.room.room_id)
        play = self.app.play
        if session.room in play.observers:
            play.observers.remove(session.room)
        play.roller = self.app.dice_roller
        play.remote = set()
        self.app.store.remove(ROOM_KEY)
        roomback.guard(self)
        self.app.play.render_and_kick()

    def _host_changed(self, reason: str) -> None:
        if reason in ("seats", "guests", "presence", "game"):
            self._update_listing()  # (its free seats and watchers)
        if reason in ("message", "connect"):
            return  # a move redraws through the play controller; presence, chat… say so themselves
        if reason == "error":
            self.app.say(self.app.t(ERRORS.get(self.hosting.error if self.hosting else "", "room.err.network")), error=True)
        self.app.render()

    def new_game(self, rng) -> bool:
        """"Play again" at a hosted table: the room starts it (fresh fair dice, guests told)."""
        if self.hosting is None:
            return False
        self.hosting.room.new_game(rng)
        return True

    # --- guest -----------------------------------------------------------------------------
    def join(self, room_id: str, name: str, invitation: str | None = None) -> None:
        name = clean_text(name, MAX_NAME)
        if not name:
            self.app.say(self.app.t("room.bad_name"), error=True)
            return
        if self.hosting is not None:
            self.app.say(self.app.t("room.err.hosting"), error=True)
            return
        guest_id = secret = None
        if invitation is not None:
            # A new invitation to a room this phone was let into before: the same guest, the
            # same seat, no asking again (a direct link cannot come back by itself).
            saved = saved_guest(self.app.store.load(GUEST_KEY, GUEST_SAVE))
            if saved is not None and saved["room"] == room_id:
                guest_id, secret = saved["guest"], saved["secret"]
        self._join(room_id, name, guest_id, secret, invitation)
        self.guesting.save()

    def _join(self, room_id: str, name: str, guest_id, secret, invitation: str | None = None) -> None:
        if self.guesting is not None:
            self.guesting.close()  # (refused, asking again): the old link must not knock too
        play = self.app.play
        guest = RoomGuest(name, guest_id, secret, door=play)
        network = self.app.room_network()
        if invitation is not None:
            network["broker"] = None
        self.guesting = GuestSession(guest, room_id, self.direct_transport if invitation else self.transport,
                                     self.app.clock, lambda text: self.app.keep(GUEST_KEY, text),
                                     self._guest_changed, **network, invitation=invitation)
        # From now on this screen's moves go to the host. This phone's own game stays saved,
        # untouched (a guest's controller never saves), off the screen until the host's table
        # arrives.
        play.outbox = self.guesting
        play.load(None)
        self.guesting.on_take_over = self._took_over
        self.guesting.start()
        self._start_ticker()

    def _took_over(self, room: RoomHost) -> None:
        """This phone was next in line when its host was lost (roomheir.py): it hosts the table
        now, on this screen, saved as the host's room (the table is this phone's game now)."""
        session, self.guesting = self.guesting, None
        if session is not None:
            session.close()
        self.app.store.remove(GUEST_KEY)
        play = self.app.play
        play.outbox = None
        play.load(room.table)
        self._host(room)
        self.app.say(self.app.t("room.you_host"))
        if getattr(room, "handover", None) and room.handover.get("dice"):
            self.app.say(self.app.t(room.handover["dice"]))  # the throws before it: not checkable
        if self.app.route()[0] == "join":
            self.app.go("#/play", replace=True)

    def leave(self) -> None:
        """The guest leaves: the link closes, this phone's own game comes back."""
        session, self.guesting, self.returning = self.guesting, None, None  # (the old host's look too)
        if session is not None:
            session.close()
        if session is None or session.guest.elsewhere is None:
            self.app.store.remove(GUEST_KEY)  # (else the tab that plays the place keeps it saved)
        self.app.play.outbox = None
        self.app.play.remote = set()
        self.app.restore_own_table()
        self.app.go("#/home", replace=True)

    def _guest_changed(self, kind: str) -> None:
        session = self.guesting
        if session is None:
            return
        guest = session.guest
        if kind == "handover":
            self._handover_said(session)
            if session.handover is None and self.app.route()[0] == "join":  # in the heir's room:
                self.app.go(f"#/join/{session.room_id}", replace=True)  # a reload comes back there
        if kind == "open":
            self._said = None
        elif kind == "error" and session.invitation is not None:
            pass  # shown on the join screen, next to the answer
        elif kind == "error" and session.error != self._said:
            # Said once per outage: the transport keeps retrying (and reporting) with backoff.
            self._said = session.error
            self.app.say(self.app.t(ERRORS.get(session.error or "", "room.err.network")), error=True)
        for code in guest.errors[self._errors_seen:]:
            self.app.say(self.app.t(code) if code.startswith(("room.", "error.")) else self.app.t("room.bad_message"),
                         error=True)
        self._errors_seen = len(guest.errors)
        if guest.status == "in" and kind == "message":
            self._in_room(session)
        seen = (guest.status, guest.reason, session.connected, len(guest.chat), json.dumps(guest.requests),
                tuple(guest.holders), json.dumps(guest.guests), guest.dice_check, guest.elsewhere)
        if seen != self._seen or kind != "message":
            self._seen = seen
            self.app.render()

    def _in_room(self, session) -> None:
        """A guest let in: the room is among your rooms (with its seat secret, for Rejoin), and
        one joined by "Join" asks for the first computer's seat nobody plays."""
        guest = session.guest
        mark = (session.room_id, guest.guest_id, guest.secret, guest.table.game if guest.table else None)
        if self._booked != mark:
            self._booked = mark
            self.book.remember_guest(session)
        if self.want_seat == session.room_id and guest.table is not None:
            self.want_seat = None
            free = [s for s, holder in enumerate(guest.holders)
                    if holder == HOST and s < len(guest.table.seats) and guest.table.seats[s].get("ai")]
            if free and guest.seat is None:
                session.ask_seat(free[0])

    def _handover_said(self, session) -> None:
        """The words of a hand-over, each said once: the host gone, a claim refused, the new host."""
        hand = session.handover
        said = [] if hand is None else ["room.handing_over"] + [reason for _, reason in hand.refused]
        if hand is None and session.guest.handover is not None:
            said = ["room.new_host"] + [c for c in [session.guest.handover.get("dice")] if c]
        for code in said:
            if code not in self._handover_seen:
                self._handover_seen.add(code)
                name = session.guest.about.get("host") if code == "room.new_host" else None
                self.app.say(self.app.t(code, name=str(name or "?")),
                             error=code not in ("room.handing_over", "room.new_host", "room.dice_unverifiable"))
        if hand is None:
            self._handover_seen = set()

    # --- heartbeat and timeouts -------------------------------------------------------------
    def _start_ticker(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        while self.hosting is not None or self.guesting is not None:
            try:
                if self.hosting is not None:
                    self.hosting.tick()
                    roomlobby.push(self)  # (the host's set-up as typed or selected since its last tap)
                    roomback.mark(self, self.app.clock())  # (a frozen tab: an heir first)
                roomback.guard(self)
                if self.hosting is not None:
                    self._update_listing()  # (a change held back by LIST_SECONDS; the room's end)
                if self.guesting is not None:
                    self.guesting.tick()
                if self._counting_down():
                    self.app.render()  # the seconds left to keep a seat
            except Exception as err:  # a timer must not die: the next tick tries again
                self.app.log_error(f"room tick: {err!r}")
            await asyncio.sleep(TICK_SECONDS)

    def _counting_down(self) -> bool:
        """A request for a seat of this screen is waiting for its answer."""
        if self.hosting is not None:
            return any(r.holder == HOST for r in self.hosting.room.requests.values())
        return bool(self.guesting is not None and self._my_requests())

    def _my_requests(self) -> list[dict]:
        """Requests for the guest's own seat still open (the host decides at the deadline; the
        seat moving, or the deadline passing, ends them here too)."""
        guest, now = self.guesting.guest, self.app.clock()
        return [r for r in guest.requests if r.get("yours") and r.get("seat") == guest.seat
                and isinstance(r.get("deadline"), (int, float)) and r["deadline"] > now]

    # --- the camera reading a guest's answer --------------------------------------------------
    def _scanned(self, kind: str, data: str | None) -> None:
        """What the camera read, or why it cannot: an answer code connects at once, as if typed
        and sent with Connect; anything else is said in the dialog, which goes on scanning."""
        if self._scan is None:
            return
        t = self.app.t
        if kind == "error":  # the scan has stopped itself
            self.stop_scan()
            self.app.dialog_note(t(SCAN_ERRORS.get(data or "", "room.scan_failed")), alert=True)
            return
        code = read_answer(data or "")
        if code is None:
            self.app.dialog_note(t("room.scan_not_answer"), alert=True)
            return
        self.app.close_dialog()  # which stops the scan
        if self.hosting is not None:
            self.answer_draft = "" if self.hosting.accept(code) else code
        self.app.render()

    def stop_scan(self) -> None:
        """The scanning dialog closed (Cancel, Escape, an answer read, the room closed): the
        camera goes off."""
        scan, self._scan = self._scan, None
        if scan is not None:
            scan.stop()

    # --- taps ----------------------------------------------------------------------------------
    def handle(self, action: str, arg: str | None) -> None:
        if roomlobby.handle(self, action, arg):  # the room before the game ("room-lobby-…")
            return
        host = self.hosting.room if self.hosting is not None else None
        now = self.app.clock()
        if action == "room-open":
            self.open_room()
            self.app.render()
        elif action == "room-open-direct":
            self.open_room(direct=True)
            self.app.render()
        elif action == "room-invite" and self.hosting is not None:
            self.hosting.invite()
            self.app.render()
        elif action == "room-accept" and self.hosting is not None:
            if self.hosting.accept(self.answer_draft):
                self.answer_draft = ""
            self.app.render()
        elif action == "room-scan" and self.hosting is not None and self.scanner is not None and self._scan is None:
            self.app.open_dialog("scan")
            self._scan = self.scanner.start(SCAN_VIDEO, self._scanned)
        elif action == "room-copy-code" and self.guesting is not None and self.guesting.answer:
            self.app.copy_text(self.guesting.answer["code"], "room.code_copied")
        elif action == "room-close":
            self.close_room()
        elif action == "room-approve" and host is not None:
            host.approve(str(arg))
        elif action == "room-refuse" and host is not None:
            host.refuse(str(arg))
        elif action == "room-answer":
            request, _, answer = str(arg).rpartition(":")
            if host is not None:
                host.answer(request, answer == "yes", now)
            elif self.guesting is not None:
                self.guesting.answer_request(request, answer == "yes")
                self.guesting.guest.requests = [r for r in self.guesting.guest.requests if r["request"] != request]
                self.app.render()
        elif action == "room-release" and host is not None:
            host.release(int(str(arg)), get_entry(host.table.game).default_level)
        elif action == "room-seat" and self.guesting is not None:
            self.guesting.ask_seat(int(str(arg)))
        elif action == "room-sit-in" and self.guesting is not None:
            self.guesting.sit_in()
        elif action == "room-send":
            self.send_chat()
        elif action == "room-copy":
            self.app.copy_text(self.link())
        elif action == "room-join":
            parts = self.app.route()
            if len(parts) == 2 and valid_room_id(parts[1]):
                self.join(parts[1], self.name_draft)
                self.app.render()
            elif len(parts) == 3 and valid_room_id(parts[1]) and valid_invitation(unquoted(parts[2])):
                if self._new_invitation():
                    self.guesting.close()  # the lost link's session; its seat secret is saved
                    self.guesting = None
                self.join(parts[1], self.name_draft, unquoted(parts[2]))
                self.app.render()
        elif action == "room-leave":
            self.leave()
        elif action == "room-here" and self.guesting is not None:
            self.guesting.play_here()
            self.app.render()
        elif action == "room-list":
            self.set_listed(not self.listed)
        else:
            self.overview.handle(action, arg)  # the overview's taps (screens/rooms_overview.py)

    def send_chat(self) -> None:
        text = clean_text(self.chat_draft, MAX_CHAT)
        if not text:
            return
        if self.hosting is not None:
            self.hosting.room.say(text, self.app.clock())
        elif self.guesting is not None:
            self.guesting.say(text)
        self.chat_draft = ""
        self.app.render()

    def link(self) -> str:
        return self.app.page_address() + (self.hosting.share_path() if self.hosting else "")

    def link_qr(self, link: str) -> dict | None:
        """The room link's QR code for a friend at the table to scan; made once, in the
        background (the panel is redrawn when it is there)."""
        if self.qr_maker is None:
            return None
        if link not in self._qr:
            self._qr[link] = None

            async def make() -> None:
                qr = await self.qr_maker(link)
                if valid_qr(qr):
                    self._qr[link] = qr
                    self.app.render()
            asyncio.ensure_future(make())
        return self._qr[link]

    # --- drawing (roomscreens.py) ----------------------------------------------------------------
    def render_panel(self) -> str:
        # The hand-over card is the whole screen: nothing under it (no "Play online" block)
        # until the next person has the phone.
        if self.app.play.handover_showing():
            return ""
        return roomscreens.render_panel(self)

    def render_join(self, room_id: str | None, invitation: str | None = None) -> str:
        return roomscreens.render_join(self, room_id, invitation)

    def render_screen(self, parts: list[str]) -> str:
        """`#/rooms` (the overview) or `#/join/<room id>[/<invitation>]` (the join screen)."""
        if parts[0] == "rooms":
            return self.overview.render()
        if parts[0] == "room":
            return roomlobby.render(self)
        return self.render_join(parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None)

    def render_scan_dialog(self) -> str:
        return roomscreens.render_scan_dialog(self)
