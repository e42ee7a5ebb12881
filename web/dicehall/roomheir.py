"""A guest session's part when its host is lost, and the old host's way back (issue 31, item 3).

The ruling is `pygame_core.rooms.succession`'s: a guest that has not heard its host for 12 s
(`HostWatch`) reads the line of succession from the last room it had. When its own turn comes it
takes the table over (`take_over`) and hosts it in a `HostSession` of its own (`session.hosting`:
the app moves its screen there); until then it joins the room of the heir whose turn it is (the
room id everyone derives) and follows it only after checking the heir's claim (`Follower`); a
refused claim is never followed. A join that fails (the heir has not opened its room yet), or
whose claim was refused, is tried again on the next tick, one a second; one on its way is left
to arrive. The old host, back, looks for whoever took its table over
(`return_to_heir`) before it hosts the room again (the app: roomback.py).

No browser import: the transport, the clock and the stores are the session's.
"""

from __future__ import annotations

from pygame_core.rooms.host import RoomHost
from pygame_core.rooms.succession import Follower, Known, next_secret, take_over
from pygame_core.table import SaveError

RETRY_SECONDS = 1.0  # a failed join to the heir in turn is tried again after this long
# (Only a failed one: a join still on its way is never cut short. Restarting every join not open
# within a second kept a loaded phone from ever reaching its heir, whose turn then passed: a
# browser's join takes 0.1-0.4 s on loopback, seconds over STUN; web/rooms.js retries by itself.)
# The old host gives each heir of its line this long to answer. Not less: a browser's join takes
# seconds over STUN, and the broker says an id is not there only after 5-6 s; an heir missed is
# a second table. (Coming back to a room nobody took over costs this long per heir.)
RETURN_SECONDS = 6.0


class Handover:
    """The hand-over as one guest session lives it: `state` "searching" → "following" (in the
    heir's room: the session is that room's guest now) or "hosting" (`session.hosting`), or
    "alone" when nobody took the table over and this phone cannot (its mirror does not replay);
    `refused` lists (heir, reason) of the claims it did not take."""

    def __init__(self, session, lost_at: float | None, known: Known | None = None, until: float = -1e9) -> None:
        self.session = session
        self.lost_at = lost_at  # None: the old host looking for its heir (no turns to wait)
        self.until = until  # the old host: the first heir is looked for until then at least
        self.known = known or Known.of_guest(session.guest)
        self.state = "searching"
        self.trying: str | None = None
        self.tried_at = self.started = -1e9
        self.follower: Follower | None = None
        self.refused: list[tuple[str, str]] = []

    def heir(self, now: float) -> str | None:
        if self.lost_at is not None:
            return self.known.heir_at(now, self.lost_at)
        # The old host tries each heir of its line in turn (the first until `until`), then gives up.
        since = max(self.started, self.until - RETURN_SECONDS)
        k = max(0, int((now - since) // RETURN_SECONDS)) if self.trying is not None else 0
        return self.known.heirs[k] if k < len(self.known.heirs) else None

    def tick(self, now: float) -> None:
        s = self.session
        if self.state == "searching" and self.follower is not None and self.follower.status == "in":
            self._followed(now)
        if self.state != "searching":
            return
        if self.follower is not None and self.follower.status == "refused":
            if (self.trying, self.follower.reason) not in self.refused:
                self.refused.append((self.trying, self.follower.reason))
            s.close()
            self.follower = None
        heir = self.heir(now)
        if self.lost_at is not None and (heir is None or heir == s.guest.guest_id):
            self._take_over(now)
            return
        if heir is None:
            self.state = "alone"  # (the old host: nobody took its table over; it hosts it again)
            s.changed("handover")
            return
        # (A refused claim is never followed, and the heir's room is asked again a second later:
        # whoever answered there may have been an impostor, gone by then, or a link sent astray.)
        failed = not s.connected and (s.link is None or s.error is not None)
        if heir != self.trying or (failed and now - self.tried_at >= RETRY_SECONDS):
            if self.trying is None:
                self.started = now
            s.close()
            s.error = None
            self.trying, self.tried_at = heir, now
            self.follower = Follower(s.guest, self.known, self._secret(), s.clock, self.lost_at)
            s.reader = self.follower
            s.room_id = self.follower.heir_room(heir)
            s.start()
            s.changed("handover")

    def _secret(self) -> str:
        return next_secret(self.session.guest.secret) if self.lost_at is not None else self.session.guest.secret

    def _followed(self, now: float) -> None:
        s = self.session
        self.state = "following"
        s.reader = s.guest
        s.watch = None  # a fresh watch on the new host from its first word
        s.handover = None
        s.save()
        s.changed("handover")

    def _take_over(self, now: float) -> None:
        from .rooms import HostSession  # (rooms imports this module)

        s = self.session
        try:
            room = take_over(s.guest, now)
        except SaveError:
            self.state = "alone"
            s.changed("handover")
            return
        s.close()
        if s.on_take_over is not None:  # the app hosts it with its own screen and save
            self.state = "hosting"
            s.on_take_over(room)
            return
        s.hosting = HostSession(room, s.transport, s.clock, s.host_store or (lambda text: True), s.changed,
                                broker=s.broker, ice=s.ice)
        s.hosting.start()
        self.state = "hosting"
        s.changed("handover")


def return_to_heir(room: RoomHost, transport, clock, store, changed=None, broker=None, ice=None,
                   until: float = -1e9, door=None):
    """The old host's phone, back with its saved room: a guest session that looks for whoever
    took the table over (each heir of its line for `RETURN_SECONDS`, the first until `until` at
    least) and, found and checked, plays on there as a guest in its own seat (`door`: the app's
    play controller). Its `handover.state` turns "alone" when nobody did: then the phone hosts
    its room again as before."""
    from .rooms import GuestSession  # (rooms imports this module)

    old = Follower.of_old_host(room, clock)
    old.guest.door = door
    session = GuestSession(old.guest, room.room_id, transport, clock, store, changed, broker=broker, ice=ice)
    session.handover = Handover(session, None, Known.of_host(room), until)
    session.handover.tick(clock())
    return session
