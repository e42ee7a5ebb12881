"""The room desk (the app's room panel, join screen and a guest's room) under CPython: two
phones' shells over the in-memory transport, driven by the same taps the browser sends (actions
and drafts), checked on what the screens say."""

from __future__ import annotations

import json
import random
import re

import pytest

from dicehall.roomdesk import GUEST_KEY, ROOM_KEY
from dicehall.rooms import MemoryTransport
from dicehall.store import TABLE
from fakehost import Clock, run as run_async, settle
from fakepage import Phone
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")


def ann_hosts(net, clock, direct=None, scanner=None) -> tuple[Phone, object]:
    """Ann's phone: a Penta game against the computer (Greedy), opened for others (through the
    meeting server `net`, or with `direct` links)."""
    ann = Phone(net, clock, direct=direct, scanner=scanner)
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
    table.new_game(random.Random(4))
    ann.play.load(table)
    ann.play.save()
    ann.tap("room-open" if direct is None else "room-open-direct")
    (net if direct is None else direct).deliver()
    return ann, ann.rooms.hosting.room


def let_in(ann: Phone, room, net, clock, name: str) -> Phone:
    """`name` asks to join from their own phone, and Ann lets them in."""
    shell = Phone(net, clock, f"#/join/{room.room_id}")
    shell.rooms.name_draft = name
    shell.tap("room-join")
    net.deliver()
    ann.tap("room-approve", next(iter(room.pending)))
    net.deliver()
    return shell


def test_a_penta_room_by_taps_join_approve_seat_chat_and_leave():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann = Phone(net, clock)
        table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
        table.new_game(random.Random(4))
        ann.play.load(table)
        ann.play.save()
        ann.render()
        assert "room-open" in ann.testids()
        made = []

        async def qr_maker(text):
            made.append(text)
            return {"size": 21, "d": "M0 0h1v1h-1zM3 4h1v1h-1z"}
        ann.rooms.qr_maker = qr_maker
        ann.tap("room-open")
        net.deliver()
        ann.render()
        await settle(ann)
        ann.render()
        room = ann.rooms.hosting.room
        assert {"room-link", "room-copy", "room-close", "room-qr"} <= ann.testids()
        assert made == [f"https://dice.example/app/index.html#/join/{room.room_id}"]
        assert f'value="https://dice.example/app/index.html#/join/{room.room_id}"' in ann.screen
        assert room.token not in ann.screen and ann.rooms.hosting.room.token in ann.storage[ROOM_KEY]
        ann.tap("room-copy")
        await ann.idle()
        assert ann.page.copied[-1].endswith(f"#/join/{room.room_id}")

        # Bo's own unfinished game on his phone stays saved while he is Ann's guest.
        bo = Phone(net, clock, f"#/join/{room.room_id}")
        own = Table("penta", [{"name": "Bo", "symbol": "●", "ai": None}])
        own.new_game(random.Random(9))
        bo.play.load(own)
        bo.play.save()
        own_text = bo.storage[TABLE]
        bo.render()
        assert "room-join" in bo.testids()
        bo.rooms.name_draft = "Bo <b>"
        bo.tap("room-join")
        net.deliver()
        bo.render()
        assert "room-waiting" in bo.testids()
        ann.render()
        assert "room-approve" in ann.testids() and "Bo &lt;b&gt;" in ann.screen
        ann.tap("room-approve", next(iter(room.pending)))
        net.deliver()
        bo.render()
        assert bo.rooms.guest_in and "room-seat-1" in bo.testids() and "room-seat-0" in bo.testids()
        bo.tap("room-seat", "1")  # the computer's seat: Bo plays it from now on
        net.deliver()
        assert ann.play.remote == {1} and bo.play.remote == {0}
        bo.rooms.chat_draft = "<script>alert(1)</script> hi"
        bo.tap("room-send")
        net.deliver()
        ann.rooms.chat_draft = "welcome"
        ann.tap("room-send")
        net.deliver()
        ann.render()
        bo.render()
        for shell in (ann, bo):
            assert "&lt;script&gt;alert(1)&lt;/script&gt; hi" in shell.screen and "<script>" not in shell.screen
            assert "welcome" in shell.screen
        # A few turns: Ann on her screen, Bo from his phone
        rng = random.Random(2)
        seen_waiting = False
        for _ in range(400):
            clock.t += 0.3
            await settle(ann)
            net.deliver()
            if bo.play.table.state.turn_number() >= 3:
                break
            if ann.play.acting_seat() == 0 and not seen_waiting:
                bo.render()  # Ann's turn on Bo's phone: she plays on hers, nobody "thinks"
                assert "Their turn…" in bo.screen and "Thinking" not in bo.screen
                seen_waiting = True
            for shell in (ann, bo):
                seat = shell.play.acting_seat()
                if seat is not None:
                    from dicehall.gameview import Move, Roll
                    from pygame_core import ai
                    state, index = shell.play.table.state, shell.play.table.match.index
                    proposal = Roll(seat) if state.is_chance() else Move(seat, ai.choose_move(state, seat, "greedy", rng))
                    assert shell.play.propose(proposal, index)
                    net.deliver()
        assert seen_waiting
        assert bo.play.table.record.moves == ann.play.table.record.moves and len(ann.play.table.record.moves) > 6
        assert bo.storage[TABLE] == own_text  # the guest's controller never saved over his own game
        bo.tap("room-leave")
        net.deliver()
        await bo.idle()
        assert bo.hash == "#/home" and GUEST_KEY not in bo.storage
        assert bo.play.table.dumps() == own_text  # his own game is back
        clock.t += 1
        ann.rooms.hosting.tick()
        ann.render()
        row = re.search(r'data-testid="room-seat-row-1">(.*?)</li>', ann.screen).group(1)
        assert "Bo &lt;b&gt;" in row and "away" in row and "room-release-1" in row  # his seat waits for him
        ann.tap("room-release", "1")
        assert ann.play.remote == set() and ann.play.is_computer(1)  # the computer plays it again
        ann.tap("room-close")
        net.deliver()
        assert ann.rooms.hosting is None and ROOM_KEY not in ann.storage and ann.play.remote == set()
        assert ann.play.roller is ann.dice_roller

    run_async(steps)


def test_seat_requests_between_people_keep_or_move_after_thirty_seconds():
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = ann_hosts(net, clock)
        bo, cy = let_in(ann, room, net, clock, "Bo"), let_in(ann, room, net, clock, "Cy")
        bo.tap("room-seat", "1")
        net.deliver()
        # Cy asks for Ann's seat: Ann's screen asks her, and she keeps it
        cy.tap("room-seat", "0")
        net.deliver()
        ann.render()
        assert "room-keep" in ann.testids() and "Cy asks for your seat" in ann.screen.replace("\u2068", "").replace("\u2069", "")
        ann.tap("room-answer", ann.screen.split('data-action="room-answer" data-arg="')[1].split('"')[0])
        net.deliver()
        assert room.holders[0] == "host" and not room.requests
        # Cy asks for Bo's seat: Bo's phone asks him; nobody answers, so after 30 s the seat moves
        cy.tap("room-seat", "1")
        net.deliver()
        bo.render()
        assert "room-keep" in bo.testids() and "30 s" in bo.screen
        clock.t += 31
        ann.rooms.hosting.tick()
        net.deliver()
        bo.render()
        cy.render()
        assert cy.rooms.guesting.guest.seat == 1 and bo.rooms.guesting.guest.seat is None
        assert "room-keep" not in bo.testids()  # the request is over on Bo's screen too
        assert "room-seat-1" in bo.testids()  # a spectator now, who may ask again
        assert ann.play.remote == {1}

    run_async(steps)


def test_a_watching_guest_sits_in_from_the_next_game():
    async def steps():
        from dicehall.gameview import Move, Roll
        from pygame_core import ai

        net, clock = MemoryTransport(), Clock()
        ann, room = ann_hosts(net, clock)
        cy = let_in(ann, room, net, clock, "Cy")
        cy.render()
        assert "room-sit-in" not in cy.testids()  # not while a game is on
        rng = random.Random(5)
        for _ in range(2000):
            await settle(ann)
            net.deliver()
            state = ann.play.table.state
            if state.is_terminal():
                break
            if ann.play.acting_seat() == 0:
                index = ann.play.table.match.index
                assert ann.play.propose(Roll(0) if state.is_chance() else Move(0, ai.choose_move(state, 0, "greedy", rng)), index)
        net.deliver()
        cy.render()
        assert cy.play.table.state.is_terminal() and "room-sit-in" in cy.testids()
        cy.tap("room-sit-in")
        net.deliver()
        ann.render()
        cy.render()
        assert "plays from the next game" in ann.screen and "room-sit-in" not in cy.testids()
        assert len(ann.play.table.seats) == 2 and "results" in ann.screen  # the results stay up
        assert ann.rooms.new_game(random.Random(1))  # Ann taps "Play again"
        ann.play.load(ann.play.table)
        net.deliver()
        assert [s["name"] for s in ann.play.table.seats] == ["Ann", "Robot", "Cy"]
        assert ann.play.remote == {2} and cy.play.remote == {0, 1} and cy.rooms.guesting.guest.seat == 2
        assert cy.play.table.state.num_players == 3 and not cy.play.table.state.is_terminal()

    run_async(steps)


class MemoryDirect(MemoryTransport):
    """Direct links in one process, as web/direct.js behaves: an invitation code per invite, an
    answer code per guest, and the link opens when the host accepts the matching answer."""

    @staticmethod
    def code(kind: str, invite: str) -> str:
        return f"{kind}1~{invite}~uFrg~{'p' * 24}~{'f' * 43}~h192.168.1.20,50000"

    def host(self, options: dict, on_event):
        link = super().host(options, on_event)
        transport, room = self, options["room"]
        link.waiting = {}  # invite id -> the guest's on_event, once it has answered

        def invite(invite_id):
            transport.queue.append((on_event, "invite", invite_id, json.dumps({"code": self.code("o", invite_id), "qr": None})))

        def accept(invite_id, code):
            guest = link.waiting.pop(invite_id, None)
            if guest is None or code != self.code("a", invite_id):
                transport.queue.append((on_event, "error", invite_id, "bad-answer"))
                return
            link.guests[invite_id] = guest
            transport.queue.append((on_event, "connect", invite_id, None))
            transport.queue.append((guest, "open", None, None))

        link.invite, link.accept = invite, accept
        self.hosts[room] = (link, on_event)
        return link

    def join(self, options: dict, on_event):
        invite = options["offer"].split("~")[1]
        link, host_event = self.hosts[options["room"]]
        link.waiting[invite] = on_event
        self.queue.append((on_event, "answer", None, json.dumps({"code": self.code("a", invite), "qr": None})))
        transport = self

        class Link:
            def send(self, text: str) -> None:
                if invite in link.guests:
                    transport.queue.append((host_event, "message", invite, text))

            def close(self) -> None:
                if link.guests.pop(invite, None) is not None:
                    transport.queue.append((host_event, "close", invite, None))

        return Link()


class FakeScanner:
    """The camera as web/direct.js `scan` reports: the test says what it reads."""

    def __init__(self, available: bool = True) -> None:
        self.can = available
        self.on_event = None
        self.stopped = 0

    def available(self) -> bool:
        return self.can

    def start(self, selector: str, on_event):
        assert selector == "#dialog video"
        self.on_event = on_event
        scanner = self

        class Scan:
            def stop(self) -> None:
                scanner.stopped += 1

        return Scan()


def test_the_host_scans_the_guests_answer_and_the_camera_goes_off_with_its_dialog():
    async def steps():
        net, clock, camera = MemoryDirect(), Clock(), FakeScanner()
        ann, room = ann_hosts(MemoryTransport(), clock, direct=net, scanner=camera)
        ann.render()
        assert {"room-scan", "room-answer", "room-accept"} <= ann.testids()
        bo = Phone(MemoryTransport(), clock, f"#/join/{room.room_id}/{ann.rooms.hosting.invitation['code']}", direct=net)
        bo.rooms.name_draft = "Bo"
        bo.tap("room-join")
        net.deliver()
        answer = bo.rooms.guesting.answer["code"]

        # Cancel: the dialog goes, and the camera with it; what comes after is not heard.
        ann.tap("room-scan")
        assert ann.dialog == "scan" and camera.on_event is not None
        ann.close_dialog()
        assert camera.stopped == 1
        camera.on_event("scanned", answer)
        assert ann.rooms.hosting.invitation["state"] == "ready"

        # No camera: said in the dialog (which stays, with Cancel), and nothing else changes.
        ann.tap("room-scan")
        camera.on_event("error", "denied")
        assert camera.stopped == 2 and ann.dialog == "scan" and ann.note[1]
        assert "not allowed" in ann.note[0]
        ann.close_dialog()
        assert camera.stopped == 2  # stopped once

        # Something else in front of the camera: said, and it goes on scanning; then the answer.
        ann.tap("room-scan")
        camera.on_event("scanned", "https://example.com/menu")
        assert ann.dialog == "scan" and "not an answer" in ann.note[0]
        camera.on_event("scanned", answer)
        assert ann.dialog is None and camera.stopped == 3
        net.deliver()
        ann.render()
        assert ann.rooms.hosting.invitation is None and "room-approve" in ann.testids()

        # Without a camera (no getUserMedia, e.g. a page not served over https) there is no button.
        camera.can = False
        ann.tap("room-invite")
        net.deliver()
        ann.render()
        assert "room-answer" in ann.testids() and "room-scan" not in ann.testids()

    run_async(steps)


def test_a_direct_room_invitation_answer_approval_and_a_new_invitation_after_the_link_is_lost():
    async def steps():
        net, clock = MemoryDirect(), Clock()
        ann = Phone(MemoryTransport(), clock, direct=net)
        table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Robot", "symbol": "▲", "ai": "greedy"}])
        table.new_game(random.Random(4))
        ann.play.load(table)
        ann.play.save()
        ann.render()
        assert {"room-open", "room-open-direct"} <= ann.testids()
        ann.tap("room-open-direct")
        ann.render()
        assert "room-inviting" in ann.testids()
        net.deliver()
        ann.render()
        session = ann.rooms.hosting
        room = session.room
        assert session.direct and json.loads(ann.storage[ROOM_KEY])["direct"] is True
        invitation = session.invitation["code"]
        link = f"https://dice.example/app/index.html#/join/{room.room_id}/{invitation}"
        assert {"room-invitation", "room-answer", "room-accept"} <= ann.testids() and f'value="{link}"' in ann.screen
        assert room.token not in ann.screen

        bo = Phone(MemoryTransport(), clock, link.split("index.html")[1], direct=net)
        bo.render()
        assert "room-join" in bo.testids()
        bo.rooms.name_draft = "Bo"
        bo.tap("room-join")
        bo.render()
        assert "room-answering" in bo.testids()
        net.deliver()
        bo.render()
        answer = bo.rooms.guesting.answer["code"]
        assert "room-answer-code" in bo.testids() and answer in bo.screen
        bo.tap("room-copy-code")
        await bo.idle()
        assert bo.page.copied[-1] == answer

        # A wrong code is said next to the field; the invitation stays.
        ann.rooms.answer_draft = "hello"
        ann.tap("room-accept")
        ann.render()
        assert "room-invite-error" in ann.testids() and "not the answer to this invitation" in ann.screen
        ann.rooms.answer_draft = f"  Here: {answer} \n"  # pasted with words around it
        ann.tap("room-accept")
        net.deliver()
        ann.render()
        assert session.invitation is None and "room-approve" in ann.testids()
        ann.tap("room-approve", next(iter(room.pending)))
        net.deliver()
        bo.render()
        assert bo.rooms.guest_in
        bo.tap("room-seat", "1")
        net.deliver()
        assert ann.play.remote == {1}

        # The link goes (a direct link never comes back by itself): Bo is told to ask for a new
        # invitation; with it, he is back in his seat without being let in again.
        bo.rooms.guesting.link.close()
        bo.rooms.guesting.on_event("close", None, None)
        net.deliver()
        bo.render()
        assert "new invitation" in bo.screen
        ann.tap("room-invite")
        net.deliver()
        second = ann.rooms.hosting.invitation["code"]
        assert second != invitation
        bo.go(f"#/join/{room.room_id}/{second}")  # the same page opens the new invitation
        assert "room-again" in bo.testids() and "room-join" in bo.testids()
        bo.tap("room-join")
        net.deliver()
        ann.rooms.answer_draft = bo.rooms.guesting.answer["code"]
        ann.tap("room-accept")
        net.deliver()
        assert not room.pending and bo.rooms.guest_in and bo.rooms.guesting.guest.seat == 1
        assert len(ann.rooms.hosting.conns) == 1

        # Bo's page reloads: the invitation it is on is spent; a third one brings him back.
        bo.rooms.guesting.link.close()
        net.deliver()
        ann.tap("room-invite")
        net.deliver()
        third = ann.rooms.hosting.invitation["code"]
        bo2 = Phone(MemoryTransport(), clock, f"#/join/{room.room_id}/{third}", direct=net,
                    browser=bo.page.browser)  # the same phone after a reload
        bo2.render()
        assert 'value="Bo"' in bo2.screen  # the name it gave before
        bo2.tap("room-join")
        net.deliver()
        ann.rooms.answer_draft = bo2.rooms.guesting.answer["code"]
        ann.tap("room-accept")
        net.deliver()
        assert not room.pending and bo2.rooms.guest_in and bo2.rooms.guesting.guest.seat == 1

        # Ann's reload: her room comes back as a direct room, ready to invite again.
        ann2 = Phone(MemoryTransport(), clock, direct=net, browser=ann.page.browser)
        ann2.play.load(Table.loads(ann.storage[TABLE]))
        ann2.rooms.boot()
        net.deliver()
        ann2.render()
        assert ann2.rooms.hosting.direct and ann2.rooms.hosting.room.room_id == room.room_id
        assert "room-invite" in ann2.testids() and "room-link" not in ann2.testids()

    run_async(steps)


def test_a_room_the_meeting_server_never_registered_shows_no_link_but_why():
    async def steps():
        class Unreachable(MemoryTransport):  # the meeting server is out of reach from the start
            def host(self, options, on_event):
                self.queue += [(on_event, "broker", None, "lost"), (on_event, "error", None, "network")]
                return type("Link", (), {"close": lambda self: None})()

        ann = Phone(Unreachable(), Clock())
        table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
        table.new_game(random.Random(4))
        ann.play.load(table)
        ann.tap("room-open")
        ann.rooms.transport.deliver()
        ann.render()
        assert "room-link" not in ann.testids() and "room-error" in ann.testids()
        assert "Opening the game room" in ann.screen and "cannot be reached" in ann.screen
        ann.rooms.hosting.on_event("open", None, ann.rooms.hosting.room.room_id)  # registered at last
        ann.render()
        assert "room-link" in ann.testids()

    run_async(steps)


def test_a_guest_keeps_or_gives_the_seat_another_guest_asks_for():
    """The request reaches the phone of the guest who plays the seat, and that guest answers it:
    Keep (the asker is told, the seat stays) or Give (the seat moves at once, without the 30
    seconds)."""
    async def steps():
        net, clock = MemoryTransport(), Clock()
        ann, room = ann_hosts(net, clock)
        bo, cy = let_in(ann, room, net, clock, "Bo"), let_in(ann, room, net, clock, "Cy")
        bo.tap("room-seat", "1")
        net.deliver()

        def answer(button: str) -> None:
            cy.tap("room-seat", "1")
            net.deliver()
            bo.render()
            assert {"room-keep", "room-give"} <= bo.testids() and "Cy" in bo.screen
            arg = re.search(rf'data-action="room-answer" data-arg="([^"]+)"[^>]*data-testid="{button}"', bo.screen)
            bo.tap("room-answer", arg.group(1))
            net.deliver()
            bo.render()
            cy.render()
            assert "room-keep" not in bo.testids() and not bo.page.errors and not bo.page.toasts

        answer("room-keep")
        assert room.holders[1] == bo.rooms.guesting.guest.guest_id and cy.rooms.guesting.guest.seat is None
        assert cy.rooms.guesting.guest.errors[-1] == "room.seat_refused" and not room.requests
        answer("room-give")
        assert cy.rooms.guesting.guest.seat == 1 and bo.rooms.guesting.guest.seat is None and not room.requests
        assert "room-seat-1" in bo.testids() and ann.play.remote == {1}  # Bo watches, and may ask again
        assert not cy.page.errors and not ann.page.errors

    run_async(steps)
