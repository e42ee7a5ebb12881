"""The room wire format: one JSON object per message, `{"kind": ..., ...}`.

Everything a guest sends is untrusted: `parse_from_guest` bounds the text before parsing it
(length and nesting, see `safejson`), then checks the kind and every field's type and range, and
returns a clean dict or raises `BadMessage` with a catalog code. Nothing else in the host reads
raw guest input. Messages from the host are bounded too (`parse_from_host`: a guest must survive
a broken or hostile host page as well), with a larger size limit since they carry the table.

Guest → host kinds:
  hello    {name, guest?, secret?,        ask to join, or come back with a seat secret; `tab`
            tab?, take?}                  names this page (tab) of the guest's, `take` takes the
                                          guest's place over from another live page of theirs
  intent   {seat, move, index}            a move for my seat on the position with `index` moves
                                          ("roll" asks the host to throw when my seat is to roll)
  takeback {seat, at, index}              take back my move at record position `at`
  seat     {seat}                         ask for a seat (an AI seat at once; a person's is asked)
  answer   {request, accept}              my answer to a request for my seat
  join     {}                             sit in as an extra player from the next game
  entropy  {game, value}                  my share of the dice randomness for game `game`
  chat     {text}                         a chat line (plain text)
  ping     {t}                            heartbeat
  sync     {}                             send me the whole room again
A hand-over (succession.py) needs no new kind: the next host's `welcome` and `room` carry its
claim, `succession` {from, heir, proof, generation} (`succession_claim` checks it), and every
room carries the keys a successor lets people back in with (`guests[].key`, `host_key`,
`room_keys` checks them); the guests and the old host come back with `hello`.
Host → guest kinds: pending, welcome, refused, room, move, takeback, chat, request, entropy,
reveal, error, pong, elsewhere (the guest's place is open in another live page of theirs: this
connection is closed, not admitted), replaced (another page of the guest's took its place over:
this connection is closed) (see host.py).
"""

from __future__ import annotations

import json
import re
import unicodedata

from .. import safejson

MAX_FROM_GUEST = 4_000  # characters; an intent is under 200, a chat line under 1 000
MAX_FROM_HOST = 400_000  # the whole room: a 5-seat table with its record, chat history
MAX_DEPTH = 1  # guest messages are flat objects (no arrays or objects inside)
MAX_HOST_DEPTH = 12
MAX_NAME = 24  # as a table seat name (table.MAX_NAME)
MAX_CHAT = 280
MAX_MOVE = 200  # protocol.MAX_MOVE_CHARS
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")
HEX = re.compile(r"[0-9a-f]{32,128}\Z")
KEY = re.compile(r"[0-9a-f]{64}\Z")  # a SHA-256 digest in hex
ROOM_ID = re.compile(r"(?=.{8,40}\Z)[a-z0-9]+(-[a-z0-9]+)*\Z")  # as host.room_id and succession.heir_room_id
MAX_GENERATION = 1_000

GUEST_FIELDS = {
    "hello": {"name": str, "guest": (str, type(None)), "secret": (str, type(None)), "tab": (str, type(None)),
              "take": bool},
    "intent": {"seat": int, "move": str, "index": int},
    "takeback": {"seat": int, "at": int, "index": int},
    "seat": {"seat": int},
    "answer": {"request": str, "accept": bool},
    "join": {},
    "entropy": {"game": int, "value": str},
    "chat": {"text": str},
    "ping": {"t": (int, float)},
    "sync": {},
}
# Absent: None (an app from before tabs were told apart sends neither `tab` nor `take`).
OPTIONAL = {("hello", "guest"), ("hello", "secret"), ("hello", "tab"), ("hello", "take")}


class BadMessage(ValueError):
    """A message refused before it reached the room; `code` is a catalog key."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code


def encode(kind: str, **fields) -> str:
    return json.dumps({"kind": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


def clean_text(text: str, limit: int) -> str:
    """Plain text as shown to people: no control or format characters (bidi overrides, zero
    widths, line breaks become spaces), trimmed, at most `limit` characters."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif cat == "Cf" or cat == "Cs" or cat == "Co" or cat == "Cn":
            continue  # format (bidi controls, zero widths), surrogates, private use, unassigned
        else:
            out.append(ch)
    return re.sub(r"\s+", " ", "".join(out)).strip()[:limit]


def _bounded_message(text: object, max_chars: int, max_depth: int) -> dict:
    """A JSON object with a string `kind`, its size and nesting bounded before parsing."""
    if not isinstance(text, str):
        raise BadMessage("room.bad_message", "not text")
    try:
        data = safejson.loads(text, max_chars=max_chars, max_depth=max_depth)
    except safejson.TooLarge as err:
        raise BadMessage("room.too_big", err.reason) from None
    except (ValueError, RecursionError):
        raise BadMessage("room.bad_message", "not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise BadMessage("room.bad_message", "no kind")
    return data


def parse_from_guest(text: object) -> dict:
    data = _bounded_message(text, MAX_FROM_GUEST, MAX_DEPTH)
    kind = data["kind"]
    fields = GUEST_FIELDS.get(kind)
    if fields is None:
        raise BadMessage("room.bad_message", f"unknown kind {kind[:20]!r}")
    out: dict = {"kind": kind}
    for name, types in fields.items():
        if name not in data:
            if (kind, name) in OPTIONAL:
                out[name] = None
                continue
            raise BadMessage("room.bad_message", f"{kind}: no {name}")
        value = data[name]
        # bool is an int in Python: a seat or an index must not be `true`
        if isinstance(value, bool) and types is not bool:
            raise BadMessage("room.bad_message", f"{kind}: {name}")
        if not isinstance(value, types):
            raise BadMessage("room.bad_message", f"{kind}: {name}")
        out[name] = value
    _check_ranges(out)
    return out


def _check_ranges(msg: dict) -> None:
    kind = msg["kind"]
    for name in ("seat", "index", "at", "game"):
        if name in msg and not 0 <= msg[name] < 1_000_000:
            raise BadMessage("room.bad_message", f"{kind}: {name}")
    if kind == "hello":
        name = clean_text(msg["name"], MAX_NAME)
        if not name:
            raise BadMessage("room.bad_name")
        msg["name"] = name
        for key in ("guest", "secret", "tab"):
            if msg[key] is not None and not TOKEN.match(msg[key]):
                raise BadMessage("room.bad_message", f"hello: {key}")
    elif kind == "intent" and not 0 < len(msg["move"]) <= MAX_MOVE:
        raise BadMessage("room.bad_message", "intent: move")
    elif kind == "answer" and not TOKEN.match(msg["request"]):
        raise BadMessage("room.bad_message", "answer: request")
    elif kind == "entropy" and not HEX.match(msg["value"]):
        raise BadMessage("room.bad_message", "entropy: value")
    elif kind == "chat":
        if len(msg["text"]) > MAX_CHAT * 3:
            raise BadMessage("room.chat_too_long")
        text = clean_text(msg["text"], MAX_CHAT + 1)
        if len(text) > MAX_CHAT:
            raise BadMessage("room.chat_too_long")
        if not text:
            raise BadMessage("room.bad_message", "chat: empty")
        msg["text"] = text
    elif kind == "ping" and not (msg["t"] == msg["t"] and abs(msg["t"]) < 1e15):  # NaN, huge
        raise BadMessage("room.bad_message", "ping: t")


def parse_from_host(text: object) -> dict:
    """A host message, bounded; its contents are checked where they are used (the table by
    `Table.from_json`, moves by the engine)."""
    return _bounded_message(text, MAX_FROM_HOST, MAX_HOST_DEPTH)


def succession_claim(data: object) -> dict:
    """The claim a successor puts in its room (`succession`), in shape: the lost room's id
    (`from`), the heir's guest id there, its proof (the hash of its seat secret there), and the
    hand-over's number; BadMessage("room.no_claim") when anything is off."""
    fields = {"from": str, "heir": str, "proof": str, "generation": int}
    if not isinstance(data, dict) or set(data) != set(fields):
        raise BadMessage("room.no_claim", "no claim")
    for name, kind in fields.items():
        if type(data[name]) is not kind:
            raise BadMessage("room.no_claim", f"claim: {name}")
    if not ROOM_ID.match(data["from"]) or not TOKEN.match(data["heir"]) or not KEY.match(data["proof"]) \
            or not 1 <= data["generation"] <= MAX_GENERATION:
        raise BadMessage("room.no_claim", "claim: range")
    return dict(data)


def room_keys(guests: object) -> dict[str, str]:
    """{guest id: key} of a room's `guests` list as a host sent it; entries out of shape are left
    out (a guest without a sound key cannot be let back in by a successor, nor succeed)."""
    out: dict[str, str] = {}
    if not isinstance(guests, list):
        return out
    for g in guests[:64]:
        if isinstance(g, dict) and isinstance(g.get("id"), str) and TOKEN.match(g["id"]) \
                and isinstance(g.get("key"), str) and KEY.match(g["key"]) and g["id"] not in out:
            out[g["id"]] = g["key"]
    return out
