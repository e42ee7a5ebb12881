"""An in-memory transport for protocol tests: connections whose messages wait in queues until
`Hub.run()` delivers them (so a test controls the order, and nothing re-enters the host while it
is handling a message, as with a real data channel)."""

from __future__ import annotations

from collections import deque


class Conn:
    """One end of a connection: `send(text)` queues for the other end, `close()` ends both."""

    def __init__(self, hub: "Hub", name: str) -> None:
        self.hub, self.name = hub, name
        self.peer: Conn | None = None
        self.open = True

    def send(self, text: str) -> None:
        if not self.open:
            raise ConnectionError("closed")
        self.hub.queue.append((self.peer, text))

    def close(self) -> None:
        if self.open:
            self.open = self.peer.open = False
            self.hub.queue.append((self.peer, None))  # the other end hears the close
            self.hub.queue.append((self, None))

    def __repr__(self) -> str:
        return f"<Conn {self.name}>"


class Hub:
    """`mess` (a random.Random), when given, makes the network worse: each message is taken from
    among the first `MESS_WINDOW` queued, so messages on different links overtake each other
    (one link keeps its order, as a reliable data channel does), and one guest message in
    `MESS_DUPLICATE` is delivered a second time later (a guest sends a message again, e.g. after
    reconnecting; a host never sends one twice)."""

    MESS_WINDOW = 3
    MESS_DUPLICATE = 8

    def __init__(self, host, clock, mess=None) -> None:
        self.host, self.clock, self.mess = host, clock, mess
        self.queue: deque = deque()
        self.messed = {"reordered": 0, "duplicated": 0}
        self.guests: dict[Conn, object] = {}  # guest-side end -> RoomGuest

    def connect(self, guest) -> Conn:
        """A new connection for `guest` (a RoomGuest); it says hello at once."""
        host_end, guest_end = Conn(self, "host"), Conn(self, guest.name)
        host_end.peer, guest_end.peer = guest_end, host_end
        self.guests[guest_end] = guest
        self.host.connected(host_end)
        guest_end.send(guest.hello())
        return guest_end

    def run(self, limit: int = 100_000) -> None:
        """Deliver queued messages until none is left."""
        for _ in range(limit):
            if not self.queue:
                return
            if self.mess is None:
                to, text = self.queue.popleft()
            else:
                heads, seen = [], set()  # the first queued message of each link, in the window
                for i in range(min(self.MESS_WINDOW, len(self.queue))):
                    if self.queue[i][0] not in seen:
                        heads.append(i)
                        seen.add(self.queue[i][0])
                at = self.mess.choice(heads)
                to, text = self.queue[at]
                del self.queue[at]
                self.messed["reordered"] += at > 0
                if text is not None and to.name == "host" and self.mess.randrange(self.MESS_DUPLICATE) == 0:
                    self.queue.append((to, text))
                    self.messed["duplicated"] += 1
            if to.name == "host":
                if text is None:
                    self.host.closed(to, self.clock())
                elif to in self.host.links:
                    self.host.received(to, text, self.clock())
            else:
                guest = self.guests.get(to)
                if guest is None or text is None:
                    continue
                for reply in guest.received(text):
                    if to.open:
                        to.send(reply)
        raise AssertionError("messages never stop")
