"""The room before the game in the app (roomlobby.py, screens/room_lobby.py) under CPython: three
phones' shells over the in-memory transport, driven by the taps the browser sends. "Play online"
on Home opens a room with no game (Ann's own unfinished game untouched); two friends join by the
link and chat; Ann chooses Cephalopod 3×3; Bo takes the computer's seat (then no "Play this seat"
on it for Cy, and a claim of it refused in words); Ann starts: everyone's play screen, the
record the same on all three, Ann's own game put aside; the game played to its end; "Choose
another game" takes everybody back to the room with their seats; a reload of Ann's page while
choosing keeps the room and its people."""

from __future__ import annotations

import random

import pytest

from dicehall import roomback
from dicehall.gameview import Move
from dicehall.roomdesk import ROOM_KEY
from dicehall.rooms import MemoryTransport
from dicehall.store import TABLE
from fakehost import Clock, run as run_async, settle
from fakepage import Phone, catalogs
from pygame_core import ai
from pygame_core.rooms import lobby
from pygame_core.rooms.host import HOST
from pygame_core.table import Table
from test_roomdesk import let_in

pytestmark = pytest.mark.usefixtures("instant_sleep")


def phone(net, clock, hash_: str, browser=None) -> Phone:
    shell = Phone(net, clock, hash_, browser=browser)
    files = catalogs()
    shell.catalog.add("cephalopod", files["i18n/cephalopod/en.json"], files["i18n/cephalopod/en.json"])
    return shell


def test_play_online_from_home_choose_seats_start_play_to_the_end_and_choose_again():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = phone(net, clock, "#/home")
        own = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
        own.new_game(random.Random(4))
        ann.play.load(own)
        ann.play.save()
        own_text = ann.storage[TABLE]
        ann.render()
        ann.tap("room-lobby-open")
        net.deliver()
        ann.render()
        room = ann.rooms.hosting.room
        assert ann.hash == "#/room" and lobby.choosing(room)
        assert {"room-lobby", "lobby-start", "room-link", "lobby-game-cephalopod"} <= ann.testids()
        assert room.table.game == "penta" and "setup-replaces" in ann.testids()  # her game's: said, as a set-up does
        # While the room chooses, Ann's own game is hers alone: not the room's door, not saved over.
        assert ann.play.table is own and room not in ann.play.observers and ann.play.remote == set()
        assert ann.storage[TABLE] == own_text and ROOM_KEY in ann.storage

        ann.tap("room-lobby-game", "rolf")
        ann.tap("room-lobby-count", 3)
        assert room.table.game == "rolf" and len(room.table.seats) == 3
        ann.tap("room-lobby-game", "cephalopod")
        ann.tap("room-lobby-option", "size:3")
        assert room.table.game == "cephalopod" and room.table.extra_options == {"size": 3}
        # A set-up of a game of her own meanwhile never goes to the room.
        ann.go("#/setup/penta")
        ann.render()
        ann.rooms.hosting.tick()
        from dicehall import roomlobby
        roomlobby.push(ann.rooms)
        assert room.table.game == "cephalopod" and ann.setup["game"] == "penta"
        ann.go("#/room")
        ann.render()
        assert ann.setup["game"] == "cephalopod" and "option-size-3" in ann.testids()
        assert "setup-replaces" not in ann.testids()  # (Ann's own game is Penta: put aside at Start, not replaced)
        assert 'data-testid="lobby-game-cephalopod" aria-pressed="true"' in ann.screen
        assert 'data-testid="lobby-game-penta" aria-pressed="false"' in ann.screen

        bo = let_in(ann, room, net, clock, "Bo")
        cy = let_in(ann, room, net, clock, "Cy")
        for guest in (bo, cy):
            await guest.idle()  # (the game's words fetched: the screen waits for them)
            guest.render()
            assert guest.hash == f"#/join/{room.room_id}" and "room-lobby" in guest.testids()
            assert f"{room.host_name}\u2069 is choosing the game." in guest.screen and "Cephalopod" in guest.screen
            assert "room-seat-1" in guest.testids()  # the computer's seat: free
            cy.rooms.chat_draft = "hi all"
        cy.tap("room-send")
        net.deliver()
        for shell in (ann, bo, cy):
            shell.render()
            assert "hi all" in shell.screen

        bo.tap("room-seat", "1")
        net.deliver()
        assert room.holders[1] == bo.rooms.guesting.guest.guest_id
        cy.render()
        assert "room-seat-1" not in cy.testids() and "room-seat-0" in cy.testids()
        cy.rooms.guesting.ask_seat(1)  # (as an older screen would): refused, said
        net.deliver()
        cy.render()
        assert cy.page.toasts[-1] == "Another guest has that seat."
        assert room.holders[1] != cy.rooms.guesting.guest.guest_id
        ann.render()
        assert "lobby-seat-1" in ann.testids() and "on their phone" in ann.screen

        ann.tap("room-lobby-start")
        net.deliver()
        await settle(ann)
        net.deliver()
        assert ann.hash == "#/play" and ann.play.table is room.table and room.table.record is not None
        assert ann.play.remote == {1} and room in ann.play.observers
        assert "penta" in ann.life.parked()  # Ann's own game put aside, as a set-up does
        for guest in (bo, cy):
            guest.render()
            assert guest.rooms.guest_in and "room-lobby" not in guest.testids()
            assert guest.play.table.record.moves == ann.play.table.record.moves

        rng = random.Random(3)
        for _ in range(400):
            clock.t += 0.3
            await settle(ann)
            net.deliver()
            if room.table.state.is_terminal():
                break
            seat = bo.play.acting_seat()
            if seat is not None:
                state, index = bo.play.table.state, bo.play.table.match.index
                assert bo.play.propose(Move(seat, ai.choose_move(state, seat, "random", rng)), index)
                net.deliver()
            seat = ann.play.acting_seat()
            if seat is not None:
                state, index = ann.play.table.state, ann.play.table.match.index
                assert ann.play.propose(Move(seat, ai.choose_move(state, seat, "random", rng)), index)
                net.deliver()
        assert room.table.state.is_terminal()
        for guest in (bo, cy):
            assert guest.play.table.record.moves == room.table.record.moves

        ann.render()
        assert "lobby-again" in ann.testids()
        ann.tap("room-lobby-again")
        net.deliver()
        ann.render()
        assert ann.hash == "#/room" and lobby.choosing(room) and "room-lobby" in ann.testids()
        assert room not in ann.play.observers and ann.play.remote == set()
        for guest in (bo, cy):
            guest.render()
            assert "room-lobby" in guest.testids() and not guest.rooms.guest_in
        assert bo.rooms.guesting.guest.seat == 1 and cy.rooms.guesting.guest.seat is None
        # Bo's page reloads while choosing: back in the room, in his seat, without asking.
        bo.rooms.guesting.close()
        net.deliver()
        bo2 = phone(net, clock, f"#/join/{room.room_id}", browser=bo.page.browser)
        bo2.rooms.boot()
        net.deliver()
        await bo2.idle()
        bo2.render()
        assert "room-lobby" in bo2.testids() and bo2.rooms.guesting.guest.seat == 1 and not room.pending

        # Ann's page reloads while choosing: the room and its people come back.
        ann.rooms.hosting.link.close()
        net.deliver()
        ann2 = phone(net, clock, "#/room", browser=ann.page.browser)
        ann2.rooms.boot()
        net.deliver()
        ann2.render()
        back = ann2.rooms.hosting.room
        assert back.room_id == room.room_id and lobby.choosing(back) and back.holders == [HOST, room.holders[1]]
        assert {g.name for g in back.guests.values()} == {"Bo", "Cy"} and "hi all" in ann2.screen
        assert "lobby-seat-1" in ann2.testids() and "lobby-start" in ann2.testids()

    run_async(steps)


def test_a_room_still_choosing_is_not_taken_over_when_its_host_is_silent():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = phone(net, clock, "#/home")
        ann.tap("room-lobby-open")
        net.deliver()
        room = ann.rooms.hosting.room
        bo = let_in(ann, room, net, clock, "Bo")
        session = bo.rooms.guesting
        ann.rooms.chat_draft = "choosing…"
        ann.tap("room-send")
        net.deliver()
        assert session.watch is not None  # (it hears the host)
        bo.tap("room-seat", "1")  # (a seated guest: an heir, were there a table to carry on)
        net.deliver()
        roomback.mark(ann.rooms, clock())
        clock.t += 60  # the host silent for a minute: no record to carry on, the guest waits
        session.tick()
        assert session.handover is None and session.watch.lost(clock())
        roomback.mark(ann.rooms, clock())  # nor does the host, back from a frozen minute, look for an heir
        assert ann.rooms.hosting is not None and ann.rooms.hosting.room is room and ann.rooms.guesting is None
        # (Once a game runs, the same silence starts a hand-over: rooms.TAKE_OVER.)
        ann.tap("room-lobby-start")
        net.deliver()
        assert session.guest.table.match is not None
        session.watch.heard(clock())
        clock.t += 60
        session.tick()
        assert session.handover is not None

    run_async(steps)


@pytest.mark.parametrize("lang", ["nb", "sv", "pl", "ar"])
def test_the_room_before_the_game_speaks_every_language_and_closing_it_keeps_the_hosts_table(lang):
    """The host's and a guest's screens in each language: the catalog's words, no raw key (the
    fake page checks every drawing); the host's close leaves Ann's own table as it was (the
    guest's screen says its link is lost, as in a game)."""
    from dicehall.i18n import Catalog

    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = phone(net, clock, "#/home")
        ann.tap("room-lobby-open")
        net.deliver()
        room = ann.rooms.hosting.room
        ann.go("#/rooms")
        ann.rooms.overview.rejoin(room.room_id)  # "Your rooms": the host back to its room, still choosing
        ann.deliver()
        assert ann.hash == "#/room"
        bo = let_in(ann, room, net, clock, "Bo")
        files = catalogs()
        for shell in (ann, bo):
            shell.shell.catalog = Catalog(lang, files[f"i18n/{lang}.json"], files["i18n/en.json"])
            game = room.table.game
            shell.catalog.add(game, files[f"i18n/{game}/{lang}.json"], files[f"i18n/{game}/en.json"])
        words = files[f"i18n/{lang}.json"]
        ann.render()
        bo.render()
        assert words["lobby.start"] in ann.screen and words["lobby.host_help"] in ann.screen
        assert words["lobby.guest_help"] in bo.screen and words["room.take_seat"] in bo.screen
        own = ann.play.table
        ann.tap("room-close")
        net.deliver()
        ann.render()
        bo.render()
        assert ann.rooms.hosting is None and ROOM_KEY not in ann.storage and ann.play.table is own
        # (the guest's link is lost, as when a host closes a room during a game)
        assert words["lobby.none"] in ann.page.text() and words["room.reconnecting"] in bo.page.text()

    run_async(steps)
