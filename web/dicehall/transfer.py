"""Games in and out of the app: a record exported as a file (with its table: names, symbols,
levels, standings), a record file imported (checked whole before anything changes, asked first
when it would replace an unfinished game), and a result shared as text."""

from __future__ import annotations

import json
import time

from pygame_core.record import RecordError, parse as parse_record
from pygame_core.table import Table

from .dom import button, esc
from .widgets.seats import SYMBOLS

MAX_RECORD_BYTES = 2_000_000  # a 5-player record is ~10 KB; larger files are refused unread


def export_record(app) -> None:
    table = app.play.table
    if table is not None and table.record:
        stamp = time.strftime("%Y%m%d-%H%M", time.localtime(app.page.clock()))
        app.page.download(f"dicehall-{table.game}-{stamp}.json", json.dumps(table.export(), ensure_ascii=False, indent=1))


def default_seats(app, n: int) -> list[dict]:
    """Seats for a record that carries none (or unsound ones): "Player 1", "Player 2"…"""
    return [{"name": app.t("setup.default_name", n=i + 1), "symbol": SYMBOLS[i % len(SYMBOLS)], "ai": None}
            for i in range(n)]


async def import_file(app, size: int, read) -> None:
    """A file the player chose: `size` in bytes, `read()` awaits its text (only read when the
    size is acceptable)."""
    if size > MAX_RECORD_BYTES:
        app.say(app.t("record.too_big"), error=True)
        return
    try:
        text = await read()
        table = Table.from_export(parse_record(text), lambda n: default_seats(app, n))
        await app.load_game_catalog(table.game)
    except RecordError as err:
        app.say(app.catalog.error(err), error=True)
        return
    except Exception:
        app.say(app.t("record.corrupt"), error=True)
        return
    if app.play.running and not app.play.table.state.is_terminal():
        app.pending_import = table  # ask first: an unfinished game would be replaced
        app.open_dialog("import")
        return
    accept_import(app, table)


def accept_import(app, table: Table) -> None:
    app.pending_import = None
    app.say(app.t("import.done"))
    app.life.take(table)


def confirm_import(app, arg) -> None:
    table = app.pending_import
    app.close_dialog()
    if table is not None:
        accept_import(app, table)


def import_dialog(app) -> str:
    t = app.t
    return (f'<h2 id="dlg-h">{esc(t("import.replace_heading"))}</h2>'
            f'<p>{esc(t("import.replace_body", game=t(f"{app.play.table.game}.title")))}</p><div class="row">'
            + button(esc(t("import.keep")), action="close-dialog", cls="btn", testid="import-cancel")
            + button(esc(t("import.replace")), action="confirm-import", cls="btn danger", testid="import-confirm")
            + "</div>")


def share_text(app) -> str:
    """"Dice: 1. Ann 240, 2. Bo 198" (the game's title first) in the player's language."""
    t, table = app.t, app.play.table
    scores, places = table.state.scores(), table.state.ranking()
    order = sorted(range(len(table.seats)), key=lambda s: (places[s], s))
    parts = ", ".join(t("share.place", place=places[s], name=table.seats[s]["name"], score=t.number(scores[s]))
                      for s in order)
    return plain(t("share.text", game=t(f"{table.game}.title"), scores=parts))


# Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def plain(text: str) -> str:
    """Text that leaves the app (the share sheet, the clipboard) without invisible bidi controls.

    The catalog isolates players' names (FSI ... PDI) for the screen; pasted elsewhere those marks
    are invisible characters that travel with the text (and count against a chat's limit). On the
    screen the names are isolated by the DOM (<bdi>) instead, so here they are dropped, together
    with any a name carried itself."""
    return text.translate(BIDI_CONTROLS)


async def share_result(app) -> None:
    """The result as text: the system's share sheet, else the clipboard, else shown to copy."""
    if not app.play.running or not app.play.table.state.is_terminal():
        return
    text = share_text(app)
    if await app.page.share(text) in ("shared", "cancelled"):
        return
    if await app.page.copy(text):
        app.say(app.t("share.copied"))
    else:
        app.say(app.t("share.manual", text=text))


ACTIONS = {
    "export": lambda app, arg: export_record(app),
    "share": lambda app, arg: app.later(share_result(app)),
    "confirm-import": confirm_import,
}
