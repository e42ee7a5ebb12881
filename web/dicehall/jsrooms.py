"""The browser's room transports behind the interface of `rooms.py`: `PeerTransport` is
`window.diceHallRooms` (web/rooms.js, over PeerJS and a broker), `DirectTransport` is
`window.diceHallDirect` (web/direct.js, invitations and answers, no broker). Options go over as
JSON text and events come back as strings, so no JavaScript object crosses into Python."""

from __future__ import annotations

import asyncio
import json

import js as window  # the page's global object (see browser.py)
from pyodide.ffi import create_proxy

from .storage import is_none


def _text(value) -> str | None:
    return None if value is None or is_none(value) else str(value)


class PeerTransport:
    def __init__(self) -> None:
        self._proxies = []  # kept alive while their link may still call them

    def _events(self, on_event):
        proxy = create_proxy(lambda kind, conn, data: on_event(str(kind), _text(conn), _text(data)))
        self._proxies.append(proxy)
        return proxy

    def host(self, options: dict, on_event):
        return window.diceHallRooms.host(json.dumps(options), self._events(on_event))

    def join(self, options: dict, on_event):
        return window.diceHallRooms.join(json.dumps(options), self._events(on_event))

    async def peers(self, broker: dict) -> dict:
        """The meeting server's peer ids (`roomlist.discover`): `{"status", "body"}`."""
        return json.loads(str(await window.diceHallRooms.peers(json.dumps(broker))))


class DirectTransport(PeerTransport):
    """Direct links with no broker (`window.diceHallDirect`, web/direct.js): the same calls and
    events, plus the host link's `invite` and `accept` (JavaScript methods, called as they are)."""

    def host(self, options: dict, on_event):
        return window.diceHallDirect.host(json.dumps(options), self._events(on_event))

    def join(self, options: dict, on_event):
        return window.diceHallDirect.join(json.dumps(options), self._events(on_event))


async def qr_code(text: str) -> dict | None:
    """The QR code of `text` (a room's link) as web/direct.js draws it, or None."""
    try:
        return json.loads(str(await window.diceHallDirect.qr(text)))
    except Exception:  # no QR library (offline first visit): the link is there to share
        return None


class QrScanner:
    """The camera reading a QR code (`diceHallDirect.scan`, web/direct.js): the host scans a
    guest's answer. `start` returns the running scan, whose `stop()` ends it (and the camera)."""

    def available(self) -> bool:
        try:
            return bool(window.diceHallDirect.canScan())
        except Exception:  # no direct.js on this page
            return False

    def start(self, video_selector: str, on_event):
        proxy = create_proxy(lambda kind, conn, data: on_event(str(kind), _text(data)))
        handle = window.diceHallDirect.scan(json.dumps({"video": video_selector}), proxy)
        return _Scan(handle, proxy)


class _Scan:
    def __init__(self, handle, proxy) -> None:
        self._handle, self._proxy = handle, proxy

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.stop()  # no event comes after this: the proxy can go, once the event
            self._handle = None  # being handled (which may be what stops the scan) has returned
            asyncio.get_event_loop().call_soon(self._proxy.destroy)
