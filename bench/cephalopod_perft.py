"""Cephalopod perft benchmark: move-path counts from the empty board with nodes per second.

    python bench/cephalopod_perft.py [--depth 6] [--size 5] [--hash] [--codingame]

Prints one JSON object: per depth the count, seconds and leaves per second (plain perft with bulk
counting at the last ply: the last ply's moves are counted, not made), the same for the
transposition-table perft with --hash, and with --codingame all twelve published CodinGame
"Spring Challenge 2025" vectors (3×3 sums of final-board hashes) with their times.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.games.cephalopod.core import Position, geometry  # noqa: E402
from pygame_core.games.cephalopod.perft import final_hash_sum, perft, perft_hashed, position_from_hash  # noqa: E402

KNOWN = {1: 25, 2: 600, 3: 13_800, 4: 304_840, 5: 6_505_928, 6: 135_329_616}  # 5×5, cross-checked in tests

CODINGAME = [
    (20, 60222161, 322444322), (20, 506450064, 951223336), (1, 555005555, 36379286), (1, 616101616, 264239762),
    (8, 606000615, 76092874), (24, 300362102, 661168294), (36, 604202400, 350917228), (32, 54105, 999653138),
    (40, 4024134, 521112022), (40, 54030030, 667094338), (20, 51000401, 738691369), (20, 100352100, 808014757),
]


def measure(depth: int = 6, size: int = 5, hashed: bool = False, codingame: bool = False) -> dict:
    rows = []
    for d in range(1, depth + 1):
        position = Position(geometry(size))
        started = time.perf_counter()
        nodes = perft(position, d)
        seconds = time.perf_counter() - started
        row = {"depth": d, "nodes": nodes, "seconds": round(seconds, 3),
               "nodes_per_second": round(nodes / seconds) if seconds else None}
        if size == 5 and d in KNOWN:
            row["expected"] = KNOWN[d]
            row["ok"] = nodes == KNOWN[d]
        rows.append(row)
    out = {"bench": "cephalopod_perft", "python": platform.python_version(), "implementation": platform.python_implementation(),
           "size": size, "bulk": True, "perft": rows}
    if hashed:
        position = Position(geometry(size))
        table: dict = {}
        started = time.perf_counter()
        nodes = perft_hashed(position, depth, table)
        seconds = time.perf_counter() - started
        out["hashed"] = {"depth": depth, "nodes": nodes, "seconds": round(seconds, 3), "table_entries": len(table)}
    if codingame:
        cases = []
        for d, board, expected in CODINGAME:
            started = time.perf_counter()
            got = final_hash_sum(position_from_hash(board), d)
            cases.append({"depth": d, "board": f"{board:09d}", "expected": expected, "got": got, "ok": got == expected,
                          "seconds": round(time.perf_counter() - started, 3)})
        out["codingame"] = cases
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--size", type=int, choices=[3, 4, 5], default=5)
    parser.add_argument("--hash", action="store_true")
    parser.add_argument("--codingame", action="store_true")
    args = parser.parse_args()
    print(json.dumps(measure(args.depth, args.size, args.hash, args.codingame)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
