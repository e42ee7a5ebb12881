"""A replay as a link: the finished game's record and seats, compressed into the address's
fragment, so the link opens the replay in the app (offline too: the fragment never leaves the
phone, the service worker serves the page) without any server.

**Format** (version 1): `#/replay/~<payload>/<move>`, the payload being base64url (no padding) of
the zlib-compressed (level 9) compact JSON `{"v": 1, "seats": [{"name", "symbol", "ai"}, …],
"record": <the game record, format 2>}`. The "~" tells it from a History id (`replay.ID_FORM`
has none). zlib's Adler-32 checksum makes a changed character fail to unpack, so a tampered link
is refused rather than opened as another game; a payload that unpacks is then checked exactly like
an imported file (`replay.Replay.open`: the record replayed move by move, the seats against its
players).

**Limits:** a link is offered only when its payload is at most `MAX_LINK_CHARS` (2,000): a QR
code holds 2,953 bytes at its lowest error correction (version 40-L), and a typical game of two
or three players makes well under it (tests/web/test_replay_link.py measures each game's). A payload read from an address is refused above `MAX_LINK_CHARS`, and unpacked
only up to `MAX_UNPACKED` characters (a small payload cannot unpack into megabytes).
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib

from pygame_core import safejson
from pygame_core.record import RecordError
from pygame_core.schema import Invalid

from . import replay, store
from .dom import button, esc

VERSION = 1
MARK = "~"
MAX_LINK_CHARS = 2_000  # payload characters: a QR code's 2,953 bytes leave room for the address
MAX_UNPACKED = 200_000  # characters a payload may unpack to (the kept records' own cap is 100,000)


class LinkError(RecordError):
    """A link that cannot be opened (`code`: its words in the catalog)."""


def payload(seats: list[dict], record) -> str:
    """The link's payload (MARK included) for a game's seats and record."""
    data = {"v": VERSION, "seats": [{"name": s["name"], "symbol": s["symbol"], "ai": s.get("ai")} for s in seats],
            "record": record.to_json()}
    packed = zlib.compress(store.compact(data).encode("utf-8"), 9)
    return MARK + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def is_link(entry_id: str | None) -> bool:
    return bool(entry_id) and entry_id.startswith(MARK)


def entry(text: str) -> dict:
    """The kept-entry form (`{"id", "seats", "record"}`) of a link's payload, checked in shape; the
    caller opens it with `replay.Replay.open`. LinkError when it cannot be read."""
    body = text[len(MARK):]
    if not is_link(text) or len(body) > MAX_LINK_CHARS:
        raise LinkError("replay.link_too_long" if is_link(text) else "replay.link_damaged", "not a replay link")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        unpack = zlib.decompressobj()
        raw = unpack.decompress(packed, MAX_UNPACKED)
        if unpack.unconsumed_tail or not unpack.eof or unpack.unused_data:
            raise ValueError("too long, cut or followed by more")
        data = safejson.loads(raw.decode("utf-8"), MAX_UNPACKED)
    except (ValueError, binascii.Error, zlib.error, UnicodeDecodeError, RecursionError):
        raise LinkError("replay.link_damaged", "This replay link is damaged.") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise LinkError("replay.link_damaged", "This replay link is damaged.")
    try:
        checked = replay.REPLAY_ENTRY.check({"id": "link:1", "seats": data.get("seats"), "record": data.get("record")})
    except Invalid:
        raise LinkError("replay.link_damaged", "This replay link is damaged.") from None
    checked["id"] = text
    return checked


def address(app, shown, index: int = 0) -> str | None:
    """The link to `shown` (a replay.Replay) at move `index`, or None when it is too long."""
    text = shown.id if is_link(shown.id) else payload(shown.seats, shown.record)
    if len(text) - len(MARK) > MAX_LINK_CHARS:
        return None
    return f"{app.page_address()}#/replay/{text}/{index}"


def share(app, shown, index: int) -> None:
    """The link through the system's share sheet, else the clipboard, else in a dialog to copy."""
    link = address(app, shown, index)
    if link is None:
        app.say(app.t("replay.link_too_long"), error=True)
        return
    app.later(share_link(app, link))


async def share_link(app, link: str) -> None:
    if await app.page.share(link) in ("shared", "cancelled"):
        return
    if await app.page.copy(link):
        app.say(app.t("replay.link_copied"))
        return
    t = app.t  # no share sheet, no clipboard: the link to select by hand
    app.dialog_kind = "replay-link"
    app.page.dialog(f'<h2 id="dlg-h">{esc(t("replay.link"))}</h2><label for="replay-link-text">{esc(t("replay.link_manual"))}</label>'
                    f'<textarea id="replay-link-text" readonly rows="4" data-testid="replay-link-text">{esc(link)}</textarea>'
                    '<div class="row">' + button(esc(t("replay.close")), action="close-dialog", cls="btn", testid="replay-link-close")
                    + "</div>")


def export(app, shown) -> None:
    """The replay as a record file, the same an Export of the finished table gives (Import opens it)."""
    from pygame_core.table import Table

    table = Table.from_record(shown.record, [dict(seat) for seat in shown.seats])
    app.page.download(f"dicehall-{shown.game}-replay.json", json.dumps(table.export(), ensure_ascii=False, indent=1))
