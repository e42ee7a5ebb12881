"""Take the install dialog's screenshots (public/screenshots/*.png) from the built app.

    python3 tools/screenshots.py

Builds the site into a temp dir, serves it on loopback and photographs it in Chromium at a
phone's 360×740: the home screen and a Penta turn with the dice thrown. build.py lists whatever
PNGs it finds in public/screenshots/ in the manifest; rerun this after a visible change.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from pygame_core.table import Table  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SETTINGS = {"animations": False, "autofill": False, "offline_noted": True, "lang": "en"}


def penta_table() -> str:
    """Two people a few rounds into Penta, Ada's first throw of the round on the table."""
    table = Table("penta", [{"name": "Ada", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None}])
    table.new_game(random.Random(3))
    rng = random.Random(4)
    from pygame_core.ai import choose_move

    while table.match.index < 40 or table.state.is_chance() or table.state.current_player() != 0 \
            or table.state.rolls != 1:
        state = table.state
        if state.is_chance():
            move = state.chance_move(tuple(rng.randint(1, s) for s in state.chance()))
            seat = -1
        else:
            seat = state.current_player()
            move = choose_move(state, seat, "greedy", rng)
        table.submit(seat, move, table.match.index)
    return table.dumps()


def main() -> int:
    from playwright.sync_api import sync_playwright

    out_dir = ROOT / "public" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist, root=ROOT, quiet=True)
        server = build.serve(dist, 0)
        server.start_in_thread()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 360, "height": 740})
                for name, table in (("home", None), ("penta", penta_table())):
                    page.goto(server.url + "sw-register.js")
                    page.evaluate("localStorage.clear()")
                    page.evaluate("s => localStorage.setItem('dicehall.settings', s)", json.dumps(SETTINGS))
                    if table:
                        page.evaluate("s => localStorage.setItem('dicehall.table', s)", table)
                    page.goto(server.url + "index.html" + ("#/play" if table else "#/home"))
                    page.wait_for_function("document.documentElement.dataset.appState === 'ready'", timeout=120000)
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(out_dir / f"{name}.png"))
                    print(f"screenshots: {out_dir / f'{name}.png'}")
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
