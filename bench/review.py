#!/usr/bin/env python3
"""The review of a finished game in the browser, and the replay link's length, for each kind of game.

    python3 bench/review.py [--games 2] [--seed 1] [--players 2] [--game ID ...] [--json OUT]

Records: seeded computer-against-computer games (pygame_core.ai.self_play, each seat at the
game's set-up level, `--players` seats within the game's limits), the same on every run. For each
game with a review (`review=` in its package; the others are listed as "no review yet"):
- **browser**: the built app in headless /usr/bin/chromium, the review computed where the app
  computes it, in the AI worker (`window.diceHallAI.call('review', game, record_json)`), after
  the game's data is loaded there (`load_asset`, as the app does); wall time of the call as the
  page sees it, and the answer checked against CPython's (same seats' total losses);
- **cpython**: the same review on this machine's CPython, for comparison;
- **link**: the replay link's payload (`replaylink.payload`, what the address carries after
  `#/replay/`) in characters, against `replaylink.MAX_LINK_CHARS` (QR-code sized).
Target (issue 30): a typical game's review <= 10 s in the browser on this machine.
Prints a table, then one JSON line (also written to --json).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "bench", ROOT / "web"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from browser_site import emit  # noqa: E402
from dicehall import replaylink  # noqa: E402

import build as dicehall_build  # noqa: E402
from pygame_core.ai import self_play  # noqa: E402
from pygame_core.registry import entries, get_entry  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TARGET_S = 10.0
NAMES = [("Ann", "●"), ("Bo", "▲"), ("Cy", "■"), ("Di", "◆"), ("Ed", "★")]
# In the page: the game's data into the worker (as dicehall.assets does), then the review, timed.
REVIEW_JS = """async ([game, assets, record]) => {
  const ai = window.diceHallAI;
  await ai.ready();
  const hashes = await (await fetch('./data/index.json')).json();
  for (const [name, file] of assets) {
    const url = new URL(`./data/${game}/${file}`, location.href).href;
    const got = await ai.call('load_asset', game, name, url, (hashes[game] || {})[file] || '');
    if (got !== 'loaded') return {error: `${game} data: ${got}`};
  }
  const t0 = performance.now();
  const text = await ai.call('review', game, record);
  return {ms: performance.now() - t0, text};
}"""


def records(game: str, count: int, seed: int, players: int):
    entry = get_entry(game)
    n = min(max(players, entry.rules.min_players), entry.rules.max_players)
    return [self_play(game, [entry.setup_level] * n, f"review-bench:{seed + k}")[0] for k in range(count)]


def cpython_s(game: str, record) -> tuple[float, dict]:
    t0 = time.perf_counter()
    result = get_entry(game).review(record)
    return time.perf_counter() - t0, result


def link_chars(record) -> int:
    seats = [{"name": name, "symbol": symbol, "ai": None} for name, symbol in NAMES[: record.options["players"]]]
    return len(replaylink.payload(seats, record)) - len(replaylink.MARK)


def loss_gap(a: dict, b: dict) -> float:
    """The largest difference between two reviews' seat total losses (0: the same grades)."""
    return max(abs(x["total_loss"] - y["total_loss"]) for x, y in zip(a["seats"], b["seats"]))


def run(count: int, seed: int, players: int, only: list[str] | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    games = sorted(g for g in entries() if not only or g in only)
    plan = {g: records(g, count, seed, players) for g in games}
    rows: dict[str, dict] = {}
    for g, recs in plan.items():
        rows[g] = {"players": recs[0].options["players"], "moves": [len(r.moves) for r in recs],
                   "link_chars": [link_chars(r) for r in recs], "review": get_entry(g).review is not None}
        if rows[g]["review"]:
            timed = [cpython_s(g, r) for r in recs]
            rows[g]["cpython_s"] = [round(s, 2) for s, _ in timed]
            rows[g]["_want"] = [result for _, result in timed]
            rows[g]["certainty"] = sorted({result.get("certainty", "?") for _, result in timed})
    tmp = Path(tempfile.mkdtemp(prefix="dicehall-bench-review-"))
    server = None
    try:
        dist = tmp / "dist"
        dicehall_build.build(dist, root=ROOT, quiet=True)
        server = dicehall_build.serve(dist, 0)
        server.start_in_thread()
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(str(tmp / "profile"), executable_path=CHROMIUM, headless=True,
                                                        args=ARGS, viewport={"width": 360, "height": 740})
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(server.url + "index.html")
            page.wait_for_function("() => document.documentElement.dataset.appState === 'ready'", timeout=180000)
            page.wait_for_function("() => document.documentElement.dataset.aiWorker === 'ready'", timeout=180000)
            for g, recs in plan.items():
                if not rows[g]["review"]:
                    continue
                assets = [[name, asset.file] for name, asset in get_entry(g).assets.items()]
                times, agree = [], []
                for record, want in zip(recs, rows[g]["_want"]):
                    got = page.evaluate(REVIEW_JS, [g, assets, json.dumps(record.to_json())])
                    if "error" in got:
                        raise SystemExit(got["error"])
                    times.append(round(got["ms"] / 1000, 2))
                    agree.append(loss_gap(json.loads(got["text"]), want))
                rows[g]["browser_s"] = times
                rows[g]["loss_gap_vs_cpython"] = round(max(agree), 6)
                rows[g]["same_as_cpython"] = max(agree) < 1e-6
            ctx.close()
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for row in rows.values():
        row.pop("_want", None)
    return {"runtime": "Pyodide in headless Chromium, the app's AI worker", "games_per_kind": count, "seed": seed,
            "target_s": TARGET_S, "link_limit_chars": replaylink.MAX_LINK_CHARS, "kinds": rows}


def table(result: dict) -> str:
    head = f"{'game':<11}{'seats':>6}{'moves':>8}  {'browser s (median/max)':<24}{'CPython s':<12}{'certainty':<18}{'link chars (max)':>17}"
    lines = [head, "-" * len(head)]
    for g, row in result["kinds"].items():
        link = f"{max(row['link_chars'])} / {result['link_limit_chars']}"
        moves = int(statistics.median(row["moves"]))
        if not row["review"]:
            lines.append(f"{g:<11}{row['players']:>6}{moves:>8}  {'no review yet':<24}{'':<12}{'':<18}{link:>17}")
            continue
        b = row["browser_s"]
        browser = f"{statistics.median(b):.2f} / {max(b):.2f}" + ("" if max(b) <= result["target_s"] else " OVER")
        cpy = f"{statistics.median(row['cpython_s']):.2f}"
        sure = ",".join(row["certainty"]) + ("" if row["same_as_cpython"] else " DIFFERS")
        lines.append(f"{g:<11}{row['players']:>6}{moves:>8}  {browser:<24}{cpy:<12}{sure:<18}{link:>17}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="records per kind of game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json")
    parser.add_argument("--game", action="append", help="only this kind of game (repeatable; default: all)")
    args = parser.parse_args(argv)
    result = run(args.games, args.seed, args.players, args.game)
    print(table(result))
    emit(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
