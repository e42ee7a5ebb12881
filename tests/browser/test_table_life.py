"""Life around the table where only a browser can tell (issue 7, item 18): the manifest, the
one-time "ready offline" card once the service worker holds the app, and an update banner that can
wait. The rest of the table's life (one unfinished game per game on Home, remembered set-ups,
history, bests and sharing, the screen kept awake in play) runs under CPython on the real shell:
tests/web/test_app_table_life.py; web/feel.js's side of the wake lock is checked in
tests/browser/test_shell.py."""

from __future__ import annotations

import json

import pytest

from dicehall_browser import open_app, tid, wait_ready, wait_sw_controlled

pytestmark = pytest.mark.browser


def test_manifest_offline_card_and_an_update_that_can_wait(site, page):
    manifest = json.loads((site.dist / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["id"] == "./" and manifest["shortcuts"][0]["url"] == "./index.html#/play"
    assert {s["url"] for s in manifest["shortcuts"][1:]} >= {"./index.html#/setup/penta"}
    for shot in manifest.get("screenshots", []):
        assert (site.dist / shot["src"][2:]).is_file()
    open_app(page, site, {"animations": False, "autofill": False})
    boot_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(manifest["background_color"][i:i + 2], 16) for i in (1, 3, 5))
    if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False:
        assert boot_bg == f"rgb({r}, {g}, {b})"  # the splash screen and the boot screen agree
    wait_sw_controlled(page)
    page.wait_for_selector(tid("offline-ready"))  # said once, on Home
    assert json.loads(page.evaluate("localStorage.getItem('dicehall.settings')"))["offline_noted"] is True
    page.reload()
    wait_ready(page)
    page.wait_for_timeout(500)
    assert page.locator(tid("offline-ready")).count() == 0
    page.evaluate("document.documentElement.dataset.updateReady = '1'; "
                  "window.dispatchEvent(new CustomEvent('dicehall-update-ready', {detail: {}}))")
    page.wait_for_selector(f'{tid("update-banner")}[role=status]:not([hidden])')
    page.click(tid("update-later"))
    page.wait_for_selector(tid("update-banner"), state="hidden")
