"""The room before the game (roomlobby.py): the host's set-up of the room's game (`#/room`: the
game, its options and the seats, a guest's seat shown with who holds it, Start) above the room
itself (link, QR code, people, chat); a guest's read-only view of the same (on the join link's
screen: who holds each seat, "Play this seat" on a free one, chat). Pure functions of the room
desk; they change nothing."""

from __future__ import annotations

from pygame_core.registry import entries, get_entry
from pygame_core.rooms.host import HOST

from .. import roomscreens, shelf
from ..dom import button, esc
from ..widgets.seats import name_html, symbol_html
from . import setup as setup_screen


def render_host(desk) -> str | None:
    """`#/room`: the host chooses; nothing here once the game has started (the play screen)."""
    from ..roomlobby import draft_of, hosting_lobby

    app = desk.app
    t, room = app.t, hosting_lobby(desk)
    if room is None:
        return (f'<section class="screen room-lobby" aria-labelledby="lobby-h" data-testid="room-lobby">'
                f'<h1 id="lobby-h">{esc(t("lobby.heading"))}</h1><p>{esc(t("lobby.none"))}</p>'
                '<div class="row">' + button(esc(t("nav.home")), action="go", arg="#/home", cls="btn") + "</div></section>")
    draft = draft_of(desk, room)
    game, entry = room.table.game, get_entry(room.table.game)
    if app.needs_catalog(game):
        return None  # (drawn once the game's words are here: its options, its seats)
    rules = entry.rules
    out = [f'<section class="screen room-lobby" aria-labelledby="lobby-h" data-testid="room-lobby" data-game="{esc(game)}">'
           f'<h1 id="lobby-h">{esc(t("lobby.heading"))}</h1><p>{esc(t("lobby.host_help"))}</p>']
    out.append(_choices(t("lobby.game"), "lobby-games", [
        button(esc(t(f"{name}.title")), action="room-lobby-game", arg=name, cls="btn", testid=f"lobby-game-{name}",
               aria_pressed="true" if name == game else "false") for name in entries()]))
    if rules.min_players != rules.max_players:
        out.append(_choices(t("setup.count"), "count", [
            button(str(n), action="room-lobby-count", arg=n, cls="btn square", testid=f"seats-{n}",
                   aria_pressed="true" if n == len(draft["seats"]) else "false", aria_label=t("setup.count_n", n=n))
            for n in range(rules.min_players, rules.max_players + 1)]))
    for name, spec in rules.option_schema.items():
        value = draft["options"].get(name, spec["default"])
        out.append(_choices(t(f"{game}.option.{name}"), "option", [
            button(esc(setup_screen.option_label(t, game, name, choice)), action="room-lobby-option",
                   arg=f"{name}:{choice}", cls="btn", testid=f"option-{name}-{choice}",
                   aria_pressed="true" if choice == value else "false")
            for choice in spec["choices"]]))
    out.append('<ol class="seats">')
    for i, seat in enumerate(draft["seats"]):
        holder = room.holders[i] if i < len(room.holders) else HOST
        guest = room.guests.get(holder)
        if guest is not None:
            out.append(_guest_seat(app, entry, room.table.seats[i], i, t("room.away") if guest.away else t("room.on_phone")))
        else:
            out.append(setup_screen._seat(app, entry, draft["seats"], i, seat)
                       .replace('data-action="symbol"', 'data-action="room-lobby-symbol"'))
    out.append("</ol>")
    if game in app.life.parked() or (shelf.unfinished(app.play.table) and app.play.table.game == game):
        out.append(f'<p class="note" data-testid="setup-replaces">{esc(t("setup.replaces", game=t(f"{game}.title")))}</p>')
    out.append('<div class="actionbar">' + button(esc(t("lobby.start")), action="room-lobby-start",
                                                  cls="btn primary big", testid="lobby-start") + "</div></section>")
    return "".join(out) + roomscreens.render_panel(desk)


def render_guest(desk) -> str | None:
    """A guest's view while the host chooses: the game, its options and the seats (read-only,
    with who holds each), then the room (seats to take, chat, leave)."""
    t, session = desk.app.t, desk.guesting
    guest = session.guest
    table = guest.table
    if desk.app.needs_catalog(table.game):
        return None  # (drawn once the game's words are here)
    options = setup_screen.options_text(t, table.game, table.extra_options)
    host = str(guest.about.get("host") or t("room.host"))
    return (f'<section class="screen room-lobby" aria-labelledby="lobby-h" data-testid="room-lobby" '
            f'data-game="{esc(table.game)}"><h1 id="lobby-h">{esc(t("lobby.heading"))}</h1>'
            f'<p role="status" data-testid="lobby-choosing">{esc(t("lobby.choosing", name=host))}</p>'
            f'<h2 data-testid="lobby-game">{esc(t(f"{table.game}.title"))}</h2>'
            + (f'<p data-testid="lobby-options">{esc(options)}</p>' if options else "")
            + f'<p class="note">{esc(t("lobby.guest_help"))}</p></section>'
            + roomscreens.render_panel(desk))


def _guest_seat(app, entry, seat: dict, i: int, who: str) -> str:
    """A seat a guest holds, on the host's set-up: theirs, not the host's to edit."""
    t = app.t
    role = f' <span class="muted">({esc(t(entry.rules.seat_labels[i]))})</span>' if entry.rules.seat_labels else ""
    return (f'<li class="card seat" data-testid="lobby-seat-{i}"><h2>{symbol_html(seat["symbol"])} '
            f'{esc(t("setup.seat", n=i + 1))}{role}</h2><p>{name_html(seat["name"])} — <bdi>{esc(who)}</bdi></p></li>')


def _choices(legend: str, cls: str, buttons: list[str]) -> str:
    return f'<fieldset class="{cls}"><legend>{esc(legend)}</legend><div class="row">{"".join(buttons)}</div></fieldset>'
