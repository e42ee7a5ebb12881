"""The room desk's drawing: the room panel under the host's table, a guest's seats and chat, the
join screen and the scanning dialog. Pure functions of the `roomdesk.RoomDesk` (`desk`); they
change nothing."""

from __future__ import annotations

from pygame_core.registry import get_entry
from pygame_core.rooms.host import HOST
from pygame_core.rooms.messages import MAX_CHAT, MAX_NAME

from . import store
from .dom import attrs, button, esc
from .rooms import GUEST_SAVE, GuestSession, saved_guest, valid_invitation, valid_room_id
from .widgets.seats import name_html, symbol_html

ERRORS = {"unavailable-id": "room.err.taken", "browser-incompatible": "room.err.browser",
          "peer-unavailable": "room.err.host_away"}  # any other transport error: room.err.network
# A direct link's errors (web/direct.js), said where the invitation or the answer is shown.
DIRECT_ERRORS = {"bad-answer": "room.err.bad_answer", "bad-offer": "room.err.bad_offer",
                 "failed": "room.err.direct_failed"}  # any other: room.err.invite_failed


def unquoted(text: str) -> str:
    """urllib.parse.unquote, imported when a join link is read: urllib.parse (it imports
    ipaddress) was the largest import of a first visit's boot, and only a join link needs it."""
    from urllib.parse import unquote

    return unquote(text)


def render_scan_dialog(desk) -> str:
    """The app's dialog while the camera looks for the answer's QR code."""
    t = desk.app.t
    return (f'<h2 id="dlg-h">{esc(t("room.scan_heading"))}</h2>'
            '<video class="room-scan" muted playsinline aria-hidden="true" data-testid="room-scan-video"></video>'
            f'<p id="dlg-note" role="status" data-testid="room-scan-note">{esc(t("room.scan_help"))}</p>'
            '<div class="row">' + button(esc(t("room.scan_cancel")), action="close-dialog", cls="btn",
                                         testid="room-scan-cancel") + "</div>")


def render_panel(desk) -> str:
    """Under the table: the host's room, or a guest's seats and chat."""
    t = desk.app.t
    if desk.guesting is not None:
        return _panel(desk, _guest_parts(desk))
    if desk.hosting is not None and desk.hosting.room.table.match is None and desk.app.route()[0] != "room":
        return _panel(desk, f'<p>{esc(t("lobby.open"))}</p><div class="row">'  # (the room chooses its game)
                      + button(esc(t("lobby.back")), action="go", arg="#/room", cls="btn", testid="lobby-back") + "</div>")
    if desk.hosting is None:
        if not desk.app.play.running or desk.app.play.table.state.is_terminal():
            return ""
        direct = ""
        if desk.direct_transport is not None:
            direct = (f'<p>{esc(t("room.direct_help"))}</p>'
                      + button(esc(t("room.open_direct")), action="room-open-direct", cls="btn",
                               testid="room-open-direct"))
        return _panel(desk, f'<p>{esc(t("room.open_help"))}</p>'
                           + button(esc(t("room.open")), action="room-open", cls="btn", testid="room-open")
                           + direct)
    return _panel(desk, _host_parts(desk))


def _panel(desk, inner: str) -> str:
    t = desk.app.t
    return (f'<section class="card room" aria-labelledby="room-h" data-testid="room-panel">'
            f'<h2 id="room-h">{esc(t("room.heading"))}</h2>{inner}</section>')


def _host_parts(desk) -> str:
    t, session = desk.app.t, desk.hosting
    room = session.room
    out = []
    if session.direct:
        out.append(f'<p role="status" data-testid="room-status">{esc(t("room.direct_open"))}</p>')
        out.append(_invitation(desk, session.invitation))
    elif session.status == "connecting":
        out.append(f'<p role="status" data-testid="room-status">{esc(t("room.connecting"))}</p>')
        if session.error is not None:  # still trying; the link comes once the room is registered
            out.append(f'<p role="alert" data-testid="room-error">{esc(t(ERRORS.get(session.error, "room.err.network")))}</p>')
    else:
        status = "room.broker_lost" if session.status == "broker-lost" else "room.is_open"
        out.append(f'<p role="status" data-testid="room-status">{esc(t(status))}</p>'
                   + qr_svg(desk.link_qr(desk.link()), t("room.link_qr"), "room-qr") + _link_row(desk))
    if desk.can_list():  # (a meeting server of the app's own: the overview's Open rooms, roomlist.py)
        out.append('<div class="row">' + button(esc(t("room.list")), action="room-list", cls="btn small",
                                                testid="room-list", aria_pressed="true" if desk.listed else "false",
                                                aria_describedby="room-list-help")
                   + f'</div><p class="note" id="room-list-help">{esc(t("room.list_help"))}</p>')
    for pending in room.pending.values():
        out.append(f'<div class="room-request" data-testid="room-request">'
                   f'<p>{esc(t("room.asks_in", name=pending.name))}</p><div class="row">'
                   + button(esc(t("room.let_in")), action="room-approve", arg=pending.request, cls="btn primary",
                            testid="room-approve")
                   + button(esc(t("room.refuse")), action="room-refuse", arg=pending.request, cls="btn",
                            testid="room-refuse") + "</div></div>")
    for req in room.requests.values():
        if req.holder == HOST:
            out.append(_seat_request(desk, req.request, room.guests[req.by].name if req.by in room.guests else "?",
                                          req.seat, req.deadline))
    out.append(_people(desk, room.table.seats, room.holders, [
        {"id": g.guest_id, "name": g.name, "away": g.away} for g in room.guests.values()], room.joining,
        mine=None, host=True))
    out.append(_chat(desk, room.chat))
    before = (getattr(room, "handover", None) or {}).get("dice")  # this phone took the table over
    if before:
        out.append(f'<p data-testid="room-dice-before">{esc(t(before))}</p>')
    again = room.table.state is not None and room.table.state.is_terminal()  # (roomlobby.reopen)
    out.append('<div class="row">' + (button(esc(t("lobby.again")), action="room-lobby-again", cls="btn primary",
                                             testid="lobby-again") if again else "")
               + button(esc(t("room.close")), action="room-close", cls="btn", testid="room-close") + "</div>")
    return "".join(out)


def _link_row(desk) -> str:
    """The room's link (with a direct room's invitation in it) and its Copy button."""
    t = desk.app.t
    return (f'<div class="row"><input type="text" readonly value="{esc(desk.link())}" '
            f'aria-label="{esc(t("room.link"))}" data-testid="room-link" class="room-link" dir="ltr">'
            + button(esc(t("room.copy")), action="room-copy", cls="btn small", testid="room-copy") + "</div>")


def _invitation(desk, inv: dict | None) -> str:
    """A direct room's invitation: the button that makes one; then its QR code and link for
    the other phone, and the field for the answer code that phone shows."""
    t = desk.app.t
    invite = button(esc(t("room.invite_again" if inv else "room.invite")), action="room-invite", cls="btn",
                    testid="room-invite")
    if inv is None:
        return f'<div class="row">{invite}</div>'
    error = (f'<p role="alert" data-testid="room-invite-error">'
             f'{esc(t(DIRECT_ERRORS.get(inv["error"], "room.err.invite_failed")))}</p>' if inv["error"] else "")
    if inv["state"] == "making":
        return f'<p role="status" data-testid="room-inviting">{esc(t("room.inviting"))}</p>'
    if inv["state"] == "failed":
        return error + f'<div class="row">{invite}</div>'
    waiting = inv["state"] == "connecting"
    can_scan = desk.scanner is not None and desk.scanner.available()
    scan = (f'<div class="row">{button(esc(t("room.scan")), action="room-scan", cls="btn", testid="room-scan")}</div>'
            if can_scan else "")
    help_text = t("room.invitation_help_scan" if can_scan else "room.invitation_help")
    return (f'<div class="room-invitation" data-testid="room-invitation"><p>{esc(help_text)}</p>'
            + qr_svg(inv["qr"], t("room.invitation_qr"), "room-qr")
            + _link_row(desk)
            + scan
            + f'<label class="field">{esc(t("room.answer_code"))} <input type="text"'
              f'{attrs(value=desk.answer_draft, data_field="room-answer", data_testid="room-answer", autocomplete="off", spellcheck="false", dir="ltr")}></label>'
            + error
            + (f'<p role="status" data-testid="room-invite-connecting">{esc(t("room.connecting_guest"))}</p>' if waiting else "")
            + '<div class="row">' + button(esc(t("room.connect")), action="room-accept", cls="btn primary",
                                           testid="room-accept") + invite + "</div></div>")


def _guest_parts(desk) -> str:
    t, session = desk.app.t, desk.guesting
    guest = session.guest
    out = []
    if not session.connected:
        lost = "room.direct_lost" if session.invitation is not None else "room.reconnecting"
        out.append(f'<p role="status" data-testid="room-status">{esc(t(lost))}</p>')
    if guest.status == "in":
        for req in desk._my_requests():
            if req.get("yours"):
                out.append(_seat_request(desk, str(req["request"]), str(req["by"]), int(req["seat"]),
                                              float(req["deadline"])))
        out.append(_people(desk, guest.table.seats, guest.holders, guest.guests, guest.joining,
                                mine=guest.guest_id, host=False))
        out.append(_chat(desk, guest.chat))
        before = (guest.handover or {}).get("dice")  # a hand-over: the throws before it (succession.py)
        if guest.dice_check is not None:
            key = ("room.dice_ok_since" if before else "room.dice_ok") if guest.dice_check == "ok" else "room.dice_bad"
            out.append(f'<p data-testid="room-dice">{esc(t(key))}</p>')
        if before:
            out.append(f'<p data-testid="room-dice-before">{esc(t(before))}</p>')
    out.append('<div class="row">' + button(esc(t("room.leave")), action="room-leave", cls="btn",
                                            testid="room-leave") + "</div>")
    return "".join(out)


def _seat_request(desk, request: str, by: str, seat: int, deadline: float) -> str:
    t = desk.app.t
    seconds = max(0, int(deadline - desk.app.clock() + 0.999))
    return (f'<div class="room-request" role="alert" data-testid="room-seat-request">'
            f'<p>{esc(t("room.wants_seat", name=by, n=seconds))}</p><div class="row">'
            + button(esc(t("room.keep")), action="room-answer", arg=f"{request}:no", cls="btn primary",
                     testid="room-keep")
            + button(esc(t("room.give")), action="room-answer", arg=f"{request}:yes", cls="btn",
                     testid="room-give") + "</div></div>")


def _people(desk, seats: list[dict], holders: list[str], guests: list[dict], joining: list[str], mine,
            host: bool) -> str:
    """Every seat with who plays it (this screen, the computer, a guest: away or not), the
    guests who sit in from the next game, and those who watch (a guest may ask to sit in
    once a game is over, while the game allows more players)."""
    t = desk.app.t
    by_id = {g["id"]: g for g in guests}
    rows = []
    seated = mine is not None and mine in holders
    choosing = desk.guesting is not None and desk.guesting.guest.table is not None \
        and desk.guesting.guest.table.match is None  # (a guest's seat is refused to others then)
    for seat, info in enumerate(seats):
        holder = holders[seat] if seat < len(holders) else HOST
        guest = by_id.get(holder)
        if guest is not None:
            who = t("room.you") if holder == mine else t("room.away") if guest.get("away") else t("room.on_phone")
        else:
            who = t("room.computer") if info.get("ai") else t("room.host_screen")
        action = ""
        if not host and not seated and holder != mine and not (guest is not None and choosing):
            action = button(esc(t("room.take_seat")), action="room-seat", arg=seat, cls="btn small",
                            testid=f"room-seat-{seat}")
        elif host and guest is not None and guest.get("away"):
            action = button(esc(t("room.to_computer")), action="room-release", arg=seat, cls="btn small",
                            testid=f"room-release-{seat}")
        rows.append(f'<li data-testid="room-seat-row-{seat}">{symbol_html(info["symbol"])} {name_html(info["name"])}'
                    f' — <bdi>{esc(who)}</bdi> {action}</li>')
    for g in guests:
        if g["id"] in holders:
            continue
        if g["id"] in joining:
            rows.append(f'<li>{name_html(g["name"])} — {esc(t("room.next_game"))}</li>')
            continue
        action = ""
        state = desk.app.play.table.state if desk.app.play.running else None
        if g["id"] == mine and state is not None and state.is_terminal() \
                and len(seats) + len(joining) < get_entry(desk.app.play.table.game).rules.max_players:
            action = button(esc(t("room.sit_in")), action="room-sit-in", cls="btn small", testid="room-sit-in")
        rows.append(f'<li>{name_html(g["name"])} — {esc(t("room.watching"))} {action}</li>')
    return f'<h3>{esc(t("room.people"))}</h3><ul class="room-people" data-testid="room-people">{"".join(rows)}</ul>'


def _chat(desk, lines: list[dict]) -> str:
    t = desk.app.t
    items = "".join(f'<li><b>{name_html(str(line.get("who", "")))}</b>: <bdi>{esc(str(line.get("text", "")))}</bdi></li>'
                    for line in lines[-30:])
    return (f'<h3 id="room-chat-h">{esc(t("room.chat"))}</h3>'
            f'<ol class="room-chat" aria-labelledby="room-chat-h" aria-live="polite" data-testid="room-chat">{items}</ol>'
            f'<div class="row"><input type="text"{attrs(maxlength=MAX_CHAT, value=desk.chat_draft, data_field="room-chat", data_testid="room-chat-text", aria_label=t("room.message"), cls="room-chat-text", autocomplete="off")}>'
            + button(esc(t("room.send")), action="room-send", cls="btn small", testid="room-send") + "</div>")


def render_join(desk, room_id: str | None, invitation: str | None = None) -> str:
    """The join link's screen: a name, then (a direct invitation) the answer to show the
    host, then waiting for the host; once in, the table itself (drawn by the app as a play
    screen)."""
    t = desk.app.t
    out = [f'<section class="screen join" aria-labelledby="join-h" data-testid="join"><h1 id="join-h">{esc(t("room.join_heading"))}</h1>']
    session = desk.guesting
    again = False  # this phone was let into this room before: its seat secret is saved
    if invitation is not None:
        invitation = unquoted(invitation)  # a messenger may have escaped its "~"
        if desk._new_invitation():
            session = None  # a new invitation after a lost link: join by it
        saved = saved_guest(desk.app.store.load(store.GUEST, GUEST_SAVE))
        again = saved is not None and saved["room"] == room_id and saved["guest"] is not None
        if again and not desk.name_draft and session is None:  # the name this phone gave
            desk.name_draft = saved["name"]
    if room_id is None or not valid_room_id(room_id) or (invitation is not None and not valid_invitation(invitation)):
        out.append(f'<p role="alert">{esc(t("room.bad_link"))}</p>')
    elif session is not None and session.guest.status == "in" and session.guest.table is not None \
            and session.guest.table.match is None and session.guest.elsewhere is None:
        from .screens.room_lobby import render_guest

        return render_guest(desk)  # the host chooses the game (roomlobby.py)
    elif session is not None and session.guest.elsewhere is not None:
        out.append(_elsewhere(desk, session))
    elif session is not None and session.invitation is not None and not session.connected \
            and session.guest.status not in ("refused",):
        out.append(_answer(desk, session))
    elif session is not None and session.guest.status == "new" and session.guest.guest_id is not None:
        # On the way back in with the saved seat key (a reload, "Play here"): no name to ask;
        # while the host cannot be reached, why (the transport keeps trying).
        why = ERRORS.get(session.error, "room.err.network") if session.error else "room.joining"
        out.append(f'<p role="status" data-testid="room-joining">{esc(t(why))}</p>'
                   '<div class="row">' + button(esc(t("room.leave")), action="room-leave", cls="btn",
                                                testid="room-leave") + "</div>")
    elif session is None or session.guest.status in ("new", "refused"):
        if session is not None and session.guest.status == "refused":
            out.append(f'<p role="alert" data-testid="room-refused">{esc(t(session.guest.reason or "room.refused"))}</p>')
        if again:
            out.append(f'<p class="note" data-testid="room-again">{esc(t("room.direct_again"))}</p>')
        out.append(f'<p>{esc(t("room.join_help"))}</p><label class="field">{esc(t("room.your_name"))} '
                   f'<input type="text"{attrs(maxlength=MAX_NAME, value=desk.name_draft, data_field="room-name", data_testid="room-name", autocomplete="nickname")}></label>'
                   '<div class="row">' + button(esc(t("room.ask_join")), action="room-join", cls="btn primary",
                                                testid="room-join") + "</div>")
    else:
        out.append(f'<p role="status" data-testid="room-waiting">{esc(t("room.waiting"))}</p>')
        if not session.connected:
            out.append(f'<p role="status">{esc(t("room.reconnecting"))}</p>')
        out.append('<div class="row">' + button(esc(t("room.leave")), action="room-leave", cls="btn",
                                                testid="room-leave") + "</div>")
    out.append("</section>")
    return "".join(out)


def _elsewhere(desk, session: GuestSession) -> str:
    """This guest's place is played in another tab (it was when this one came, or that one took
    it over): said plainly, with "Play here" to move it to this tab."""
    t = desk.app.t
    key = "room.seat_moved" if session.guest.elsewhere == "moved" else "room.seat_elsewhere"
    return (f'<p role="status" data-testid="room-elsewhere">{esc(t(key))}</p><div class="row">'
            + button(esc(t("room.play_here")), action="room-here", cls="btn primary", testid="room-here")
            + button(esc(t("room.leave")), action="room-leave", cls="btn", testid="room-leave") + "</div>")


def _answer(desk, session: GuestSession) -> str:
    """A guest's answer to a direct invitation: what the host types or pastes to connect."""
    t = desk.app.t
    leave = '<div class="row">' + button(esc(t("room.leave")), action="room-leave", cls="btn",
                                         testid="room-leave") + "</div>"
    if (session.error is not None and session.answer is None) or session.error == "failed":
        return (f'<p role="alert" data-testid="room-answer-error">'
                f'{esc(t(DIRECT_ERRORS.get(session.error, "room.err.invite_failed")))}</p>' + leave)
    if session.answer is None:
        return f'<p role="status" data-testid="room-answering">{esc(t("room.answering"))}</p>' + leave
    code = session.answer["code"]
    return (f'<p>{esc(t("room.show_answer"))}</p>'
            + qr_svg(session.answer["qr"], t("room.answer_qr"), "room-answer-qr")
            + f'<p class="room-code" dir="ltr" data-testid="room-answer-code">{esc(code)}</p>'
            + '<div class="row">' + button(esc(t("room.copy_code")), action="room-copy-code", cls="btn",
                                           testid="room-copy-code") + "</div>"
            + f'<p role="status">{esc(t("room.waiting_answer"))}</p>' + leave)


def qr_svg(qr: dict | None, label: str, testid: str) -> str:
    """A QR code drawn by web/direct.js (checked by `rooms`: a size and a path of unit squares),
    dark on a white quiet zone of 4 modules whatever the theme, so any camera reads it."""
    if not qr:
        return ""
    n = int(qr["size"]) + 8
    return (f'<svg class="qr" viewBox="-4 -4 {n} {n}" role="img" aria-label="{esc(label)}" data-testid="{testid}" '
            f'shape-rendering="crispEdges"><rect x="-4" y="-4" width="{n}" height="{n}" fill="#fff"/>'
            f'<path fill="#000" d="{esc(qr["d"])}"/></svg>')
