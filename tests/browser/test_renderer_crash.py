"""The tab survives Chromium sampling native stacks while Python runs (issue 28, item 10).

The browser tests' occasional "Target crashed": Chromium's renderer died of SIGSEGV at one
instruction of its frame-pointer unwinder, on the page's thread, with its stack pointer on one
of the WebAssembly stacks Pyodide runs Python on where JSPI exists (web/snap-loader.mjs,
withoutJspi). Chromium samples native stacks in a share of its renderers (its sampling heap
profiler, GWP-ASan); DevTools' memory sampling does the same on demand, which makes the crash
come on about half of all visits instead of one or two tests in a hundred.
"""

from __future__ import annotations

import pytest
from dicehall_browser import wait_ready

pytestmark = pytest.mark.browser

VISITS = 6  # with JSPI, each visit crashed the tab with a chance of about one half


def test_return_visits_survive_native_stack_sampling(site, context, page):
    crashed: list[str] = []
    page.on("crash", lambda _: crashed.append("the renderer crashed"))
    cdp = context.new_cdp_session(page)
    for visit in range(VISITS):
        page.goto(site.url + "sw-register.js")  # same origin, same renderer, no boot
        # (every allocation of about 4 KiB has its native stack taken, in this renderer process)
        cdp.send("Memory.startSampling", {"samplingInterval": 4096})
        page.goto(site.index)
        wait_ready(page)
        assert page.evaluate("document.documentElement.dataset.boot") == "snapshot", visit
        page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=60000)
        cdp.send("Memory.stopSampling")
    assert not crashed
