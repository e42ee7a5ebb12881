"""The page as the shell sees it: everything the app does to or asks of the browser, in plain values.

`browser.BrowserPage` implements it over the DOM, localStorage's neighbours and the AI worker;
the tests' `FakePage` (tests/web/fakepage.py) implements it over a parsed copy of the HTML, so
the whole app runs under CPython. Nothing here holds a JavaScript object: strings, numbers and
booleans cross the boundary, never a proxy.

The other direction (the page tells the shell what happened) is `Shell`'s event methods: `tap`,
`change`, `edit`, `key`, `activity`, `hash_changed`, `storage_changed`, `update_ready`,
`dialog_closed`, `import_file`, `offline_ready` and `assets_changed`.
"""

from __future__ import annotations

import contextlib
from typing import Protocol


class Page(Protocol):
    # --- drawing ----------------------------------------------------------------------------
    def draw(self, screen: str, html: str, motion: bool, new_moment: bool, focus: str | None) -> None:
        """Replace the app's content (#app) with `html`, marked `data-screen=screen` and the
        page's `data-motion`. `new_moment`: scroll to the top and focus the screen's first
        heading. Else focus the element whose data-testid is `focus`, or the one that had the
        focus before (the same data-testid or id); if that is gone, the heading."""

    def set_text(self, element_id: str, text: str) -> bool:
        """Change one element's text without a redraw (a countdown's seconds); False if absent."""

    def live(self, text: str) -> None:
        """Say `text` through the polite live region (screen readers)."""

    def toast(self, html: str | None) -> None:
        """Show the error toast with `html`, or hide it (None)."""

    def dialog(self, html: str | None) -> None:
        """Open the modal dialog with `html` and focus its first button, or close it (None)."""

    def dialog_note(self, text: str, alert: bool) -> None:
        """Change the open dialog's note (#dlg-note): why the camera cannot read a code."""

    def update_banner(self, html: str | None) -> None:
        """Show the "a new version is ready" banner, or hide it."""

    def has_enabled(self, action: str, arg: str | None) -> bool:
        """Whether the app's content offers an enabled control with this data-action (and arg)."""

    def set_document(self, lang: str, direction: str, title: str) -> None: ...

    def take_kept_tap(self, testid: str) -> bool:
        """Before the first screen: whether the one thing kept on the build's copy of the screen
        the address shows (web/early.js, taps before Python) is a tap on `testid`; if so it is
        taken, and the shell does it itself instead of the page handing it over."""

    def boot_phase(self, text: str) -> None:
        """The boot screen's words while Python prepares the first screen."""

    def booted(self) -> None:
        """The app is ready: the boot screen goes, `data-app-state=ready`."""

    async def shown(self) -> None:
        """Returns once what was drawn has been shown (the browser: after the next frame, behind
        any tap waiting). What can wait a frame after the first screen waits for it."""

    # --- location -----------------------------------------------------------------------------
    def hash(self) -> str: ...

    def go(self, hash_: str, replace: bool) -> None:
        """Navigate to `hash_` (replace: without a history entry). The page then calls
        `Shell.hash_changed`, unless the hash was already `hash_` (then nothing happens)."""

    def set_hash_quietly(self, hash_: str) -> None:
        """Change the address without a history entry and without `hash_changed`."""

    def address(self) -> str:
        """The app's address without its hash (origin and path), for links to share."""

    # --- the platform ----------------------------------------------------------------------------
    def now_ms(self) -> float:
        """A monotonic clock in milliseconds (performance.now: the clock of an event's timeStamp,
        which `Shell.tap` gets as `at`)."""

    def clock(self) -> float:
        """Wall-clock seconds (rooms, history dates)."""

    def measured(self, name: str) -> contextlib.AbstractContextManager:
        """The block's main-thread time as a performance measure `name` (tests and bench/)."""

    def random_seed(self) -> int:
        """64 bits from the system's cryptographic generator."""

    def reduced_motion(self) -> bool: ...

    def languages(self) -> list[str]:
        """The browser's preferred languages, BCP 47 tags."""

    async def fetch_json(self, url: str): ...

    def download(self, filename: str, text: str) -> None: ...

    async def copy(self, text: str) -> bool:
        """Put `text` on the clipboard; False if the page may not."""

    async def share(self, text: str) -> str:
        """The system's share sheet: "shared", "cancelled" or "unavailable"."""

    def wake_lock(self, on: bool) -> None: ...

    def leave_warning(self, on: bool) -> None:
        """Ask before the page is left (the browser's own words) while `on`: a hosted game."""

    def feel(self, kind: str, sound: bool, vibrate: bool) -> None:
        """A roll, a celebration or a win felt: a sound, a vibration (where the device can)."""

    def date_text(self, seconds: float, lang: str) -> str: ...

    def apply_update(self) -> None: ...

    def log_error(self, text: str) -> None: ...

    def log_warning(self, text: str) -> None: ...

    async def think(self, game: str, state_json: str, seat: int, level: str, seed: int) -> str | None:
        """The AI worker's move, or None when the worker cannot give one (the shell then thinks on
        the main thread)."""

    async def review(self, game: str, record_json: str) -> str | None:
        """The game's review of a finished record (`Record.to_json()` as JSON text) computed in the
        AI worker once it holds the game's data, as JSON text; None when it cannot be had now
        (`reviewing.py` then says so, with Retry: it is never computed on the main thread)."""
