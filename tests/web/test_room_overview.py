"""The room overview (issue 31, item 2) under CPython: the model of "Your rooms" (kept until the
room's end, 48 hours from its creation, with the clock passed in; stored values checked), the
listing ids a host registers on a meeting server and how an overview reads them, and the screen
by taps on phones over the in-memory transport (one whose server lists its peers like a
PeerServer started with --allow_discovery, and one that refuses like PeerJS's public broker), in
all five languages. The same over real WebRTC: tests/browser/test_room_overview_ui.py."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from dicehall import roomlist
from dicehall.i18n import Catalog
from dicehall.roomlist import (LIST_SECONDS, ROOMS_KEY, ROOMS_SCHEMA, RoomLister, guest_end, listing_id, open_rooms,
                               read_listing, read_peers)
from dicehall.rooms import MemoryTransport
from dicehall.store import ASIDE, Store
from fakehost import Clock, run as run_async, settle
from fakepage import Phone, catalogs
from pygame_core.rooms.host import ROOM_SECONDS
from pygame_core.table import Table
from support import LANGS

pytestmark = pytest.mark.usefixtures("instant_sleep")

SERVER = "http://127.0.0.1:9000/"  # an own meeting server (the in-memory transport stands for it)
HOUR = 3600.0


def entry(room="dice-aaaabbbbccccdddd", role="guest", joined=1000.0, expires=None, **more) -> dict:
    return {"room": room, "role": role, "game": "penta", "joined": joined,
            "expires": joined + ROOM_SECONDS if expires is None else expires, "name": "Cy",
            "guest": "g-12345678", "secret": "s-12345678abcdef", **more}


# --- your rooms: the model ----------------------------------------------------------------------
def test_a_room_is_kept_until_48_hours_after_its_creation_then_gone():
    created = 1000.0
    rooms = roomlist.remember([], entry(joined=created + 10 * HOUR, expires=created + ROOM_SECONDS), created + 10 * HOUR)
    assert [r["room"] for r in roomlist.current(rooms, created + ROOM_SECONDS - 1)] == ["dice-aaaabbbbccccdddd"]
    assert roomlist.current(rooms, created + ROOM_SECONDS) == []  # 48 h after the room's creation: over
    # Remembering another room later drops the ended one from storage too.
    later = roomlist.remember(rooms, entry(room="dice-eeeeffffgggghhhh", joined=created + ROOM_SECONDS),
                              created + ROOM_SECONDS)
    assert [r["room"] for r in later] == ["dice-eeeeffffgggghhhh"]


def test_a_guest_trusts_the_hosts_end_of_the_room_only_within_48_hours_of_joining():
    joined = 50_000.0
    assert guest_end(joined + 5 * HOUR, joined) == joined + 5 * HOUR
    assert guest_end(joined + ROOM_SECONDS + 1, joined) == joined + ROOM_SECONDS  # a host claiming more
    for bad in (None, "soon", True, joined - 1, float("nan")):
        assert guest_end(bad, joined) == joined + ROOM_SECONDS


def test_rooms_are_capped_newest_kept_and_one_entry_per_room():
    rooms = []
    for i in range(roomlist.MAX_ROOMS + 3):
        rooms = roomlist.remember(rooms, entry(room=f"dice-room{i:04d}abcdefgh", joined=1000.0 + i), 1000.0 + i)
    assert len(rooms) == roomlist.MAX_ROOMS and rooms[-1]["room"] == f"dice-room{roomlist.MAX_ROOMS + 2:04d}abcdefgh"
    again = roomlist.remember(rooms, entry(room=rooms[0]["room"], joined=2000.0, name="Cy again"), 2000.0)
    assert len(again) == roomlist.MAX_ROOMS and again[-1]["name"] == "Cy again"
    assert [r["room"] for r in again].count(rooms[0]["room"]) == 1


def test_stored_rooms_are_checked_and_unsound_entries_set_aside():
    good = entry()
    unsound = [
        entry(room="<script>"), entry(room="dice-aaaa/../x"), entry(role="king"), entry(game="chess"),
        entry(expires=1000.0 + ROOM_SECONDS + 1),  # lasting longer than a room can
        entry(secret="not a secret!"), entry(joined="yesterday", expires=2000.0), "dice-aaaabbbbccccdddd", None, [],
    ]
    backend = {ROOMS_KEY: json.dumps([*unsound, good])}

    class Backend:
        def get(self, key):
            return backend.get(key)

        def set(self, key, value):
            backend[key] = value

        def remove(self, key):
            backend.pop(key, None)

    store = Store(Backend(), clock=lambda: 5000.0)
    assert store.load(ROOMS_KEY, ROOMS_SCHEMA, []) == [{**good, "listed": False}]
    assert ROOMS_KEY in json.loads(backend[ASIDE])  # kept as it was, for Export
    backend[ROOMS_KEY] = "{not json"
    assert store.load(ROOMS_KEY, ROOMS_SCHEMA, []) == []
    backend[ROOMS_KEY] = json.dumps([good] * 500)  # far too many: the newest kept
    assert len(store.load(ROOMS_KEY, ROOMS_SCHEMA, [])) == roomlist.MAX_ROOMS


def test_a_room_the_list_cannot_hold_is_left_out_and_the_room_goes_on():
    from types import SimpleNamespace

    items = {}
    backend = SimpleNamespace(get=items.get, set=items.__setitem__, remove=lambda k: items.pop(k, None))
    book = roomlist.RoomBook(SimpleNamespace(store=Store(backend), clock=lambda: 1000.0))
    guest = SimpleNamespace(table=None, about={"expires": 5000.0}, name="Cy", guest_id="g1", secret="s-12345678")
    book.remember_guest(SimpleNamespace(guest=guest, room_id="dice-aaaabbbbccccdddd"))  # a guest id too short
    assert book.rooms() == [] and ROOMS_KEY not in items
    guest.guest_id = "g-12345678"
    book.remember_guest(SimpleNamespace(guest=guest, room_id="dice-aaaabbbbccccdddd"))
    assert [(r["room"], r["expires"], r["game"]) for r in book.rooms()] == [("dice-aaaabbbbccccdddd", 5000.0, None)]


# --- listings on the meeting server --------------------------------------------------------------
def test_a_listing_id_says_the_game_free_seats_watchers_and_end_and_reads_back():
    now = 10_000.0
    info = {"room": "dice-abcdefghijklmnop", "game": "rolf", "free": 2, "watchers": 1, "expires": int(now + 40 * HOUR)}
    peer_id = listing_id(info)
    assert re.fullmatch(r"[A-Za-z0-9]+([ _-][A-Za-z0-9]+)*", peer_id)  # what PeerJS accepts as an id
    assert read_listing(peer_id, now) == info
    assert read_listing(listing_id({**info, "game": None}), now)["game"] is None  # no game chosen yet
    assert read_listing(peer_id, info["expires"]) is None  # over
    too_long = listing_id({**info, "expires": int(now + ROOM_SECONDS + 10)})
    assert read_listing(too_long, now) is None  # a listing claiming more than 48 hours
    for bad in ("dice-abcdefghijklmnop", peer_id.replace("rolf", "chess"), peer_id + "-1", "dhl-x-rolf-1-1-zz",
                peer_id.replace("-2-1-", "-200-1-"), 42, None, "dhl-" + "a" * 200):
        assert read_listing(bad, now) is None, bad


def test_open_rooms_from_a_servers_peer_ids_listed_ones_only_one_per_room():
    now = 10_000.0
    a = {"room": "dice-aaaaaaaaaaaaaaaa", "game": "rolf", "free": 0, "watchers": 3, "expires": int(now + HOUR)}
    b = {"room": "dice-bbbbbbbbbbbbbbbb", "game": "penta", "free": 1, "watchers": 0, "expires": int(now + 2 * HOUR)}
    stale_b = {**b, "free": 2, "expires": int(now + HOUR)}  # the server still holds an older listing
    ids = ["dice-cccccccccccccccc", "dhg0123456789abcdef01234567", listing_id(a), listing_id(stale_b), listing_id(b),
           listing_id({**a, "room": "dice-dddddddddddddddd", "expires": int(now - 1)})]
    assert open_rooms(ids, now) == [b, a]  # rooms with free seats first; unlisted and ended ones never shown


def test_a_servers_answer_is_read_ok_refused_or_unreachable():
    assert read_peers({"status": 200, "body": '["a", 3, "b"]'}) == ("ok", ["a", "b"])
    assert read_peers({"status": 401}) == ("refused", [])
    for bad in ({"status": 0}, {"status": 500}, {"status": 200, "body": "{}"}, {"status": 200, "body": "[" * 10_000},
                {"status": 200, "body": "x" * (roomlist.MAX_ANSWER + 1)}, None, "401"):
        assert read_peers(bad) == ("unreachable", [])


def test_the_lister_registers_again_on_a_change_at_most_every_few_seconds_and_stops_at_the_end():
    net, clock = MemoryTransport(), Clock()
    lister = RoomLister(net, {"host": "127.0.0.1"}, [], clock)
    info = {"room": "dice-abcdefghijklmnop", "game": "rolf", "free": 1, "watchers": 0, "expires": int(clock.t + HOUR)}
    lister.update(info)
    assert list(net.hosts) == [listing_id(info)]
    lister.update({**info, "watchers": 1})
    assert list(net.hosts) == [listing_id(info)]  # held back
    clock.t += LIST_SECONDS
    lister.update({**info, "watchers": 1})
    assert list(net.hosts) == [listing_id({**info, "watchers": 1})]
    net.join({"room": listing_id({**info, "watchers": 1})}, lambda *a: None)
    net.deliver()
    assert net.hosts[lister.listed][0].guests == {}  # nobody joins a listing
    clock.t = info["expires"]
    lister.update({**info, "watchers": 1})
    assert net.hosts == {}


# --- the screen, by taps ----------------------------------------------------------------------------
def ann_hosts(net, clock) -> Phone:
    ann = Phone(net, clock)
    ann.shell.settings["room_server"] = SERVER
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
    table.new_game(random.Random(4))
    ann.play.load(table)
    ann.play.save()
    ann.tap("room-open")
    net.deliver()
    return ann


def overview(phone: Phone) -> Phone:
    phone.go("#/rooms")
    return phone


async def looked(phone: Phone) -> None:
    """The overview's question to the server answered, and the screen drawn."""
    for _ in range(50):
        if phone.rooms.overview.status != "looking":
            break
        await asyncio.sleep(0)
    phone.render()


def test_a_listed_room_is_watched_and_joined_from_the_overview_and_gone_after_48_hours():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = ann_hosts(net, clock)
        room = ann.rooms.hosting.room
        ann.render()
        assert 'aria-pressed="false"' in re.search(r'<button[^>]*data-testid="room-list"[^>]*>', ann.screen).group(0)
        cy = Phone(net, clock, "#/home")
        cy.shell.settings["room_server"] = SERVER
        cy.render()
        assert "nav-rooms" in cy.testids()
        overview(cy)
        await looked(cy)
        assert "rooms-none-open" in cy.testids() and f"open-room-{room.room_id}" not in cy.testids()
        assert "my-rooms-none" in cy.testids()

        ann.tap("room-list")  # Ann lists her room (off until she does)
        net.deliver()
        assert 'aria-pressed="true"' in re.search(r'<button[^>]*data-testid="room-list"[^>]*>', ann.screen).group(0)
        cy.tap("room-discover")
        await looked(cy)
        card = re.search(rf'data-testid="open-room-{room.room_id}">(.*?)</li>', cy.screen).group(1)
        assert "Penta" in card and "Free seats: 1" in card and "Watching: 0" in card and "ends in 48 h" in card
        assert f"enter-{room.room_id}" in cy.testids()

        cy.tap("room-watch", room.room_id)  # to watch: the join screen, the host lets Cy in
        assert cy.hash == f"#/join/{room.room_id}"
        cy.rooms.name_draft = "Cy"
        cy.tap("room-join")
        net.deliver()
        ann.tap("room-approve", next(iter(room.pending)))
        net.deliver()
        assert cy.rooms.guest_in and cy.rooms.guesting.guest.seat is None  # watching
        clock.t += LIST_SECONDS
        ann.rooms._update_listing()
        net.deliver()
        dee = overview(Phone(net, clock, "#/home"))
        dee.shell.settings["room_server"] = SERVER
        dee.tap("room-discover")
        await looked(dee)
        card = re.search(rf'data-testid="open-room-{room.room_id}">(.*?)</li>', dee.screen).group(1)
        assert "Watching: 1" in card

        # Dee joins (not watches): once in, she asks for the computer's seat, and takes it.
        dee.tap("room-enter", room.room_id)
        dee.rooms.name_draft = "Dee"
        dee.tap("room-join")
        net.deliver()
        ann.tap("room-approve", next(iter(room.pending)))
        net.deliver()
        assert dee.rooms.guesting.guest.seat == 1 and ann.play.remote == {1}

        # Cy's rooms: the room, rejoined with one tap after leaving (no second approval).
        overview(cy)
        await looked(cy)
        mine = re.search(rf'data-testid="my-room-{room.room_id}">(.*?)</li>', cy.screen)
        assert mine and "You joined as \u2068Cy\u2069" in mine.group(1)
        cy.tap("room-leave")
        net.deliver()
        overview(cy)
        cy.tap("room-rejoin", room.room_id)
        net.deliver()
        assert cy.rooms.guest_in and not room.pending and cy.hash == f"#/join/{room.room_id}"
        overview(ann)
        await looked(ann)
        assert f"my-room-{room.room_id}" in ann.testids() and "You host it" in ann.screen
        ann.tap("room-rejoin", room.room_id)
        assert ann.hash == "#/play"

        # 48 hours after the room's creation it is gone from every overview.
        clock.t = room.expires
        ann.rooms._update_listing()  # (the host's tick)
        for phone in (cy, dee, ann):
            overview(phone)
            phone.tap("room-discover")
            await looked(phone)
            assert f"my-room-{room.room_id}" not in phone.testids()
            assert f"open-room-{room.room_id}" not in phone.testids() and "my-rooms-none" in phone.testids()
        assert not any(i.startswith("dhl-") for i in net.hosts)  # the host stopped listing it
        await settle(ann)

    run_async(steps)


def test_closing_the_room_removes_it_and_its_listing():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = ann_hosts(net, clock)
        room = ann.rooms.hosting.room
        ann.tap("room-list")
        assert any(i.startswith("dhl-") for i in net.hosts)
        ann.tap("room-close")
        net.deliver()
        assert not any(i.startswith("dhl-") for i in net.hosts) and ROOMS_KEY not in ann.storage
        overview(ann)
        await looked(ann)
        assert f"my-room-{room.room_id}" not in ann.testids()

    run_async(steps)


def test_the_hosts_choice_to_list_and_your_rooms_come_back_after_a_reload():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = ann_hosts(net, clock)
        room = ann.rooms.hosting.room
        ann.tap("room-list")
        listing = next(i for i in net.hosts if i.startswith("dhl-"))
        ann.rooms.hosting.close()  # the page goes: its links with it (the transport's pagehide)
        ann.rooms.lister.close()
        net.deliver()
        assert net.hosts == {}
        clock.t += HOUR
        ann2 = Phone(net, clock, browser=ann.page.browser)  # the same phone after a reload
        ann2.shell.settings["room_server"] = SERVER
        ann2.play.load(Table.loads(ann.storage["dicehall.table"]))
        ann2.rooms.boot()
        net.deliver()
        assert ann2.rooms.hosting.room.room_id == room.room_id and ann2.rooms.listed
        assert set(net.hosts) == {room.room_id, listing}  # listed again, as before
        overview(ann2)
        await looked(ann2)
        assert f"my-room-{room.room_id}" in ann2.testids() and "ends in 47 h" in ann2.screen
        ann2.tap("room-list")  # unlisted: the listing goes at once
        assert set(net.hosts) == {room.room_id}

    run_async(steps)


@pytest.mark.parametrize("server", ["own-without-discovery", "public-broker"])
def test_a_server_that_lists_nothing_is_said_and_the_link_qr_and_direct_invitation_offered(server):
    async def steps():
        net, clock = MemoryTransport(discovery=False), Clock()
        ann = Phone(net, clock, "#/rooms", direct=MemoryTransport())
        if server == "own-without-discovery":
            ann.shell.settings["room_server"] = SERVER
        table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
        table.new_game(random.Random(4))
        ann.play.load(table)
        ann.render()
        await looked(ann)
        assert {"rooms-no-discovery", "rooms-share-link", "rooms-share-direct"} <= ann.testids()
        assert "does not list rooms" in ann.screen
        ann.tap("room-share", "link")
        net.deliver()
        assert ann.hash == "#/play" and ann.rooms.hosting is not None and "room-link" in ann.testids()
        assert ("room-list" in ann.testids()) == (server == "own-without-discovery")  # nothing to list on

    run_async(steps)


def test_a_meeting_server_out_of_reach_is_said_with_look_again():
    async def steps():
        net, clock = MemoryTransport(), Clock()

        async def unreachable(broker):
            return {"status": 0, "body": ""}
        net.peers = unreachable
        cy = Phone(net, clock, "#/rooms")
        cy.shell.settings["room_server"] = SERVER
        cy.render()
        await looked(cy)
        assert {"rooms-unreachable", "rooms-look"} <= cy.testids()

    run_async(steps)


@pytest.mark.parametrize("lang", LANGS)
def test_the_overview_in_every_language(lang):
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = ann_hosts(net, clock)
        ann.tap("room-list")
        cy = Phone(net, clock, "#/home")
        files = catalogs()
        cy.shell.catalog = Catalog(lang, files[f"i18n/{lang}.json"], files["i18n/en.json"])
        cy.shell.catalog.add("penta", files[f"i18n/penta/{lang}.json"], files["i18n/penta/en.json"])
        cy.shell.settings["room_server"] = SERVER
        cy.shell.settings["lang"] = lang
        cy.render()
        home = cy.screen
        overview(cy)
        await looked(cy)
        texts = [json.loads((__import__("support").ROOT / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))[k]
                 for k in ("rooms.heading", "rooms.open_heading", "rooms.watch", "rooms.join", "rooms.mine_none")]
        for text in texts:
            assert text in cy.screen, (lang, text)
        assert re.search(r"\b(rooms|room)\.[a-z_]+\b", cy.screen) is None  # no raw key
        assert cy.catalog.t("rooms.button") in home

    run_async(steps)
