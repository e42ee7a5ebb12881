"""The room overview (`#/rooms`): "Your rooms" — the rooms this phone hosted or was let into in
the last 48 hours, each rejoined with one tap — and "Open rooms" — the rooms their hosts chose to
list on the meeting server, with their game, free seats and watchers, to join or watch; on a
server that lists nothing (PeerJS's public broker, or a PeerServer without `--allow_discovery`)
it says so and offers the link, the QR code and the direct invitation instead. The model is
`roomlist.py`; the desk (`roomdesk.RoomDesk`) does the joining. Rulings: "Watch" asks in and
stays a watcher; "Join" asks in and then asks for the first computer's seat nobody plays (a
host may take a while to let anyone in, and a seat may go meanwhile: then the guest watches);
a room this phone hosts is shown only while it is open here (closed, or its table replaced,
it is over for everyone).
"""

from __future__ import annotations

from ..dom import button, esc
from ..roomlist import discover, open_rooms
from ..rooms import valid_room_id

ASK_AGAIN_SECONDS = 15.0  # the open rooms are asked for again on coming back to the screen after this
ACTIONS = ("room-discover", "room-rejoin", "room-watch", "room-enter", "room-share")


class Overview:
    def __init__(self, desk) -> None:
        self.desk = desk
        self.status: str | None = None  # None (not asked) | looking | ok | refused | unreachable
        self.open: list[dict] = []
        self.asked = -1e9

    @property
    def app(self):
        return self.desk.app

    # --- the open rooms, asked in the background ------------------------------------------
    def look(self, force: bool = False) -> None:
        now = self.app.clock()
        if self.status == "looking" or (not force and now - self.asked < ASK_AGAIN_SECONDS):
            return
        self.status, self.asked = "looking", now

        async def ask() -> None:
            try:
                status, ids = await discover(self.desk.transport, self.app.room_network()["broker"])
            except Exception as err:  # never stuck "looking"
                self.app.log_error(f"rooms overview: {err!r}")
                status, ids = "unreachable", []
            self.status, self.open = status, open_rooms(ids, self.app.clock()) if status == "ok" else []
            if self.app.route()[0] == "rooms":
                self.app.render()
        self.app.later(ask())

    # --- taps -------------------------------------------------------------------------------
    def handle(self, action: str, arg) -> None:
        desk, app = self.desk, self.app
        room_id = str(arg or "")
        if action == "room-discover":
            self.look(force=True)
            app.render()
        elif action == "room-share":  # a room for this table: through the meeting server, or direct
            desk.open_room(direct=arg == "direct")
            app.go("#/play")
        elif action in ("room-watch", "room-enter") and valid_room_id(room_id):
            desk.want_seat = room_id if action == "room-enter" else None
            app.go(f"#/join/{room_id}")
        elif action == "room-rejoin" and valid_room_id(room_id):
            self.rejoin(room_id)

    def rejoin(self, room_id: str) -> None:
        """One tap back into a room of "Your rooms": the host to its table; a guest in with its
        saved seat secret (no second approval), or asking again when it has none."""
        desk, app = self.desk, self.app
        entry = desk.book.entry(room_id)
        hosting = desk.hosting.room.room_id if desk.hosting is not None else None
        if entry is None or (entry["role"] == "host" and hosting != room_id):
            desk.book.forget(room_id)
            app.say(app.t("rooms.gone"), error=True)
            app.render()
        elif entry["role"] == "host":
            app.go("#/room" if desk.hosting.room.table.match is None else "#/play")  # (choosing: roomlobby.py)
        elif hosting is not None:
            app.say(app.t("room.err.hosting"), error=True)
        elif desk.guesting is not None and desk.guesting.room_id == room_id and desk.guesting.link is not None:
            app.go(f"#/join/{room_id}")  # in it already
        elif entry["guest"] is None or entry["secret"] is None:
            desk.name_draft = desk.name_draft or entry["name"]
            app.go(f"#/join/{room_id}")
        else:
            desk._join(room_id, entry["name"], entry["guest"], entry["secret"])
            desk.guesting.save()  # (a reload comes back to it, as after joining by its link)
            app.go(f"#/join/{room_id}")

    # --- drawing ------------------------------------------------------------------------------
    def render(self) -> str:
        self.look()
        t = self.app.t
        return (f'<section class="screen rooms" aria-labelledby="rooms-h" data-testid="rooms">'
                f'<h1 id="rooms-h">{esc(t("rooms.heading"))}</h1><p class="lead">{esc(t("rooms.lead"))}</p>'
                + self._mine() + self._open() + "</section>")

    def _ends(self, expires: float) -> str:
        hours = max(1, int((expires - self.app.clock()) / 3600 + 0.999))
        return self.app.t("rooms.ends", hours=hours)

    def _game(self, game: str | None) -> str:
        return self.app.t(f"{game}.title") if game else self.app.t("rooms.no_game")

    def _mine(self) -> str:
        t, desk = self.app.t, self.desk
        hosting = desk.hosting.room.room_id if desk.hosting is not None else None
        rows = []
        for entry in reversed(desk.book.rooms()):  # newest first
            if entry["role"] == "host" and entry["room"] != hosting:
                continue  # closed here, or its table replaced: over for everyone
            who = t("rooms.you_host") if entry["role"] == "host" else t("rooms.you_guest", name=entry["name"])
            here = entry["role"] == "host" or (desk.guesting is not None and desk.guesting.room_id == entry["room"]
                                               and desk.guesting.link is not None)  # in it now: back to it
            rows.append(f'<li class="card room-entry" data-testid="my-room-{esc(entry["room"])}">'
                        f'<h3>{esc(self._game(entry["game"]))}</h3>'
                        f'<p><bdi>{esc(who)}</bdi> · {esc(self._ends(entry["expires"]))}</p><div class="row">'
                        + button(esc(t("rooms.to_room" if here else "rooms.rejoin")), action="room-rejoin", arg=entry["room"], cls="btn primary",
                                 testid=f"rejoin-{entry['room']}") + "</div></li>")
        inner = (f'<ul class="games rooms-list" data-testid="my-rooms">{"".join(rows)}</ul>' if rows
                 else f'<p data-testid="my-rooms-none">{esc(t("rooms.mine_none"))}</p>')
        return f'<h2>{esc(t("rooms.mine"))}</h2>{inner}'

    def _open(self) -> str:
        t = self.app.t
        out = [f'<h2>{esc(t("rooms.open_heading"))}</h2>']
        again = '<div class="row">' + button(esc(t("rooms.look_again")), action="room-discover", cls="btn",
                                             testid="rooms-look") + "</div>"
        if self.status in (None, "looking"):
            out.append(f'<p role="status" data-testid="rooms-looking">{esc(t("rooms.looking"))}</p>')
        elif self.status == "refused":
            out.append(f'<p class="note" role="status" data-testid="rooms-no-discovery">{esc(t("rooms.no_discovery"))}</p>'
                       + self._share())
        elif self.status == "unreachable":
            out.append(f'<p role="alert" data-testid="rooms-unreachable">{esc(t("rooms.unreachable"))}</p>' + again)
        else:
            rows = [self._listed(info) for info in self.open]
            out.append(f'<ul class="games rooms-list" data-testid="open-rooms">{"".join(rows)}</ul>' if rows
                       else f'<p role="status" data-testid="rooms-none-open">{esc(t("rooms.none_open"))}</p>')
            out.append(again)
        return "".join(out)

    def _listed(self, info: dict) -> str:
        t, room = self.app.t, info["room"]
        join = button(esc(t("rooms.join")), action="room-enter", arg=room, cls="btn primary", testid=f"enter-{room}") \
            if info["free"] else ""
        return (f'<li class="card room-entry" data-testid="open-room-{esc(room)}"><h3>{esc(self._game(info["game"]))}</h3>'
                f'<p>{esc(t("rooms.free", n=info["free"]))} · {esc(t("rooms.watchers", n=info["watchers"]))}'
                f' · {esc(self._ends(info["expires"]))}</p><div class="row">{join}'
                + button(esc(t("rooms.watch")), action="room-watch", arg=room, cls="btn", testid=f"watch-{room}")
                + "</div></li>")

    def _share(self) -> str:
        """No list on this server: a room is shared by its link and QR code, or by a direct
        invitation with no server at all (both drawn under the table, `roomscreens`)."""
        t, desk, play = self.app.t, self.desk, self.app.play
        if desk.hosting is not None:
            return ('<div class="row">' + button(esc(t("rooms.to_room")), action="go", arg="#/play", cls="btn primary",
                                                 testid="rooms-to-room") + "</div>")
        if not play.running or play.table.state.is_terminal() or desk.guesting is not None:
            return f'<p data-testid="rooms-start-first">{esc(t("rooms.start_first"))}</p>'
        direct = button(esc(t("rooms.share_direct")), action="room-share", arg="direct", cls="btn",
                        testid="rooms-share-direct") if desk.direct_transport is not None else ""
        return ('<div class="row">' + button(esc(t("rooms.share_link")), action="room-share", arg="link",
                                             cls="btn primary", testid="rooms-share-link") + direct + "</div>")
