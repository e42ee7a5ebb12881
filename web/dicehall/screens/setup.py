"""Set-up: the seats (how many, names, a symbol each, person or the computer at a level) and the
game's own options (`Game.option_schema`, e.g. a board's size), remembered per game.

Rulings: a game with one player count shows no count buttons; levels a game keeps for measuring
(`GameEntry.measuring_levels`) are not offered; names the app gave follow the seat's kind
("Player 2" becomes "Computer"), names a person typed are kept.
"""

from __future__ import annotations

from pygame_core.registry import get_entry
from pygame_core.table import MAX_NAME

from .. import shelf, store
from ..dom import button, esc
from ..widgets.seats import SYMBOLS, symbol_html


def option_label(t, game: str, name: str, value) -> str:
    """A choice of an option in words (`<game>.option.<name>.<value>`), else its value."""
    key = f"{game}.option.{name}.{value}"
    return t(key) if t.has(key) else t.number(value) if isinstance(value, (int, float)) else str(value)


def options_text(t, game: str, options: dict | None) -> str:
    """"Board: 4 × 4" — a game's options as set, for results and History ("" if it has none)."""
    schema = get_entry(game).rules.option_schema
    return ", ".join(t("setup.option_value", option=t(f"{game}.option.{name}"),
                       value=option_label(t, game, name, (options or {}).get(name, spec["default"])))
                     for name, spec in schema.items())


def default_setup(app, game: str) -> dict:
    """The last set-up of this game (names and options remembered), else a person and a computer."""
    entry = get_entry(game)
    remembered = shelf.check_setup(game, app.store.load(store.SETUPS, shelf.SETUPS_SCHEMA, {}), SYMBOLS)
    if remembered:
        return {"game": game, **remembered}
    t = app.t
    seats = [{"name": t("setup.default_name", n=1), "symbol": SYMBOLS[0], "ai": None},
             {"name": t("setup.default_ai_name"), "symbol": SYMBOLS[1], "ai": entry.setup_level}]
    while len(seats) < entry.rules.min_players:
        seats.append({"name": t("setup.default_name", n=len(seats) + 1), "symbol": SYMBOLS[len(seats)], "ai": None})
    seats = seats[:max(entry.rules.min_players, min(2, entry.rules.max_players))]
    return {"game": game, "seats": seats, "options": {k: spec["default"] for k, spec in entry.rules.option_schema.items()}}


def draft(app, game: str) -> dict:
    if not app.setup or app.setup["game"] != game:
        app.setup = default_setup(app, game)
    return app.setup


def render(app, game: str) -> str:
    t, entry = app.t, get_entry(game)
    setup = draft(app, game)
    seats, rules = setup["seats"], entry.rules
    out = [f'<section class="screen setup" aria-labelledby="setup-h" data-game="{esc(game)}"><h1 id="setup-h">'
           f'{esc(t("setup.heading", game=t(f"{game}.title")))}</h1>']
    if rules.min_players != rules.max_players:
        out.append(_choices(t("setup.count"), "count", [
            button(str(n), action="seat-count", arg=n, cls="btn square", testid=f"seats-{n}",
                   aria_pressed="true" if n == len(seats) else "false", aria_label=t("setup.count_n", n=n))
            for n in range(rules.min_players, rules.max_players + 1)]))
    for name, spec in rules.option_schema.items():
        value = setup["options"].get(name, spec["default"])
        out.append(_choices(t(f"{game}.option.{name}"), "option", [
            button(esc(option_label(t, game, name, choice)), action="option", arg=f"{name}:{choice}", cls="btn",
                   testid=f"option-{name}-{choice}", aria_pressed="true" if choice == value else "false")
            for choice in spec["choices"]]))
    out.append('<ol class="seats">')
    for i, seat in enumerate(seats):
        out.append(_seat(app, entry, seats, i, seat))
    out.append("</ol>")
    if game in app.life.parked() or (shelf.unfinished(app.play.table) and app.play.table.game == game):
        out.append(f'<p class="note" data-testid="setup-replaces">{esc(t("setup.replaces", game=t(f"{game}.title")))}</p>')
    out.append('<div class="actionbar">' + button(esc(t("setup.start")), action="start-game", cls="btn primary big",
                                                  testid="start-game") + "</div></section>")
    return "".join(out)


def _choices(legend: str, cls: str, buttons: list[str]) -> str:
    return f'<fieldset class="{cls}"><legend>{esc(legend)}</legend><div class="row">{"".join(buttons)}</div></fieldset>'


def _seat(app, entry, seats: list[dict], i: int, seat: dict) -> str:
    t, game = app.t, entry.name
    used = {s["symbol"] for j, s in enumerate(seats) if j != i}
    symbols = "".join(
        button(symbol_html(sym), action="symbol", arg=f"{i}:{sym}", cls="btn square symbtn", testid=f"seat-{i}-symbol-{k}",
               aria_pressed="true" if sym == seat["symbol"] else "false", aria_label=t(f"symbol.{k}"), disabled=sym in used)
        for k, sym in enumerate(SYMBOLS))
    kind = f"ai:{seat['ai']}" if seat["ai"] else "person"
    options = [f'<option value="person"{" selected" if kind == "person" else ""}>{esc(t("setup.person"))}</option>']
    for level in entry.player_levels:
        options.append(f'<option value="ai:{esc(level)}"{" selected" if kind == f"ai:{level}" else ""}>'
                       f'{esc(t("setup.ai_level", level=app.level_label(game, level)))}</option>')
    role = f' <span class="muted">({esc(t(entry.rules.seat_labels[i]))})</span>' if entry.rules.seat_labels else ""
    return (f'<li class="card seat"><h2>{symbol_html(seat["symbol"])} {esc(t("setup.seat", n=i + 1))}{role}</h2>'
            f'<label>{esc(t("setup.name"))} <input type="text" maxlength="{MAX_NAME}" autocomplete="off" '
            f'value="{esc(seat["name"])}" data-field="name" data-seat="{i}" data-testid="seat-{i}-name"></label>'
            f'<fieldset class="symbols"><legend>{esc(t("setup.symbol"))}</legend><div class="row">{symbols}</div></fieldset>'
            f'<label>{esc(t("setup.kind"))} <select data-field="kind" data-seat="{i}" data-testid="seat-{i}-kind">'
            f'{"".join(options)}</select></label></li>')


# --- names the app gives ------------------------------------------------------------------
def is_default_name(app, name: str) -> bool:
    """A name the app gave (so it may follow the seat's kind), not one a person typed."""
    t, name = app.t, name.strip()
    given = {t("setup.default_ai_name")} | {t("setup.default_name", n=k) for k in range(1, 6)} \
        | {t("setup.default_ai_name_n", n=k) for k in range(1, 6)}
    return not name or name in given


def default_name(app, i: int, ai_seat: bool) -> str:
    """"Player 2" for a person, "Computer" (or "Computer 2" when taken) for the computer."""
    t = app.t
    if not ai_seat:
        return t("setup.default_name", n=i + 1)
    taken = {s["name"] for j, s in enumerate(app.setup["seats"]) if j != i}
    name = t("setup.default_ai_name")
    return name if name not in taken else t("setup.default_ai_name_n", n=i + 1)


# --- taps and fields ---------------------------------------------------------------------------
def _seat_index(app, text) -> int | None:
    if app.setup is None or not str(text).isdigit() or int(text) >= len(app.setup["seats"]):
        return None
    return int(text)


def seat_count(app, arg) -> None:
    entry = get_entry(app.setup["game"])
    if not str(arg).isdigit() or not entry.rules.min_players <= int(arg) <= entry.rules.max_players:
        return
    seats = app.setup["seats"]
    del seats[int(arg):]
    while len(seats) < int(arg):
        used = {s["symbol"] for s in seats}
        symbol = next(s for s in SYMBOLS if s not in used)
        seats.append({"name": app.t("setup.default_name", n=len(seats) + 1), "symbol": symbol, "ai": None})
    app.render()


def symbol(app, arg) -> None:
    i, _, sym = str(arg).partition(":")
    i = _seat_index(app, i)
    if i is not None and sym in SYMBOLS and all(s["symbol"] != sym for s in app.setup["seats"]):
        app.setup["seats"][i]["symbol"] = sym
    app.render()


def option(app, arg) -> None:
    name, _, text = str(arg).partition(":")
    spec = get_entry(app.setup["game"]).rules.option_schema.get(name)
    value = next((c for c in spec["choices"] if str(c) == text), None) if spec else None
    if value is not None:
        app.setup["options"][name] = value
    app.render()


def start(app, arg) -> None:
    setup = app.setup
    seats = [{"name": seat["name"].strip()[:MAX_NAME] or app.t("setup.default_name", n=i + 1),
              "symbol": seat["symbol"], "ai": seat["ai"]} for i, seat in enumerate(setup["seats"])]
    app.store.put_json(store.SETUPS, shelf.remember_setup(app.store.load(store.SETUPS, shelf.SETUPS_SCHEMA, {}), setup["game"], seats,
                                                          setup["options"]))
    app.life.start(setup["game"], seats, dict(setup["options"]))


def start_if_kept(app, screen: str, game: str | None) -> None:
    """Before the shell's first screen: Start, when it is all that was tapped on the build's copy
    of this set-up before Python (web/early.js keeps it), is done now, so that the first screen
    drawn is the new game's table, not the set-up and then the table (the replayed tap, the
    address change and a second draw were ~0.1 s before the game was playable, on an emulated
    phone's second visit, traced)."""
    if screen == "setup" and game is not None and not app.needs_catalog(game) and app.page.take_kept_tap("start-game"):
        draft(app, game)
        app.shown = "setup"
        app.dispatch("start-game", None)


ACTIONS = {"seat-count": seat_count, "symbol": symbol, "option": option, "start-game": start}


def _kind(app, value: str, checked: bool, data: dict) -> None:
    i = _seat_index(app, data.get("seat"))
    if i is None:
        return
    seat, entry = app.setup["seats"][i], get_entry(app.setup["game"])
    level = None if value == "person" else value[3:]
    if level is not None and level not in entry.player_levels:
        return
    was_ai, seat["ai"] = seat["ai"] is not None, level
    if (level is not None) != was_ai and is_default_name(app, seat["name"]):
        seat["name"] = default_name(app, i, level is not None)
        app.render()


def _name(app, value: str, checked: bool, data: dict) -> None:
    i = _seat_index(app, data.get("seat"))
    if i is not None:
        app.setup["seats"][i]["name"] = value[:MAX_NAME]


FIELDS = {"kind": _kind, "name": _name}
EDITS = {"name": _name}  # typed, before the field is left
