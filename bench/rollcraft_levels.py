"""Solo strength of the RollCraft T8 AI levels: mean and sd of the final score, zone averages,
runes, leftover actions and decision time, over self-play games.

    nice -n 10 python3 bench/rollcraft_levels.py --games 500 --seed 1 --levels easy,medium,hard
Same games as `python -m pygame_core simulate rollcraft --players 1 --games G --ai LEVEL --seed S`
(self_play with seeds "S:i"; a seed may be a word, e.g. `--seed e` plays "e:0", "e:1", ...).
`--set group=0.6,price=4` changes weights of `ai.W` for the run (to compare settings on
the same games). `lowest_zone` is the mean of each game's lowest zone (what a rune pays) and
`lowest_is` counts which zone it was; `--scores` also prints every game's score, for paired
differences between two runs on the same seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.games.rollcraft import ai  # noqa: E402
from pygame_core.games.rollcraft.board import ZONES  # noqa: E402


def run(level: str, games: int, seed: str, players: int = 1) -> dict:
    scores, zones, runes, left = [], [0.0] * 5, 0.0, [0.0] * 4
    lowest, lowest_zone = 0.0, [0] * 5  # the lowest zone (what a rune pays): mean, which zone
    started = time.perf_counter()
    decisions = 0
    for i in range(games):
        record, state = self_play("rollcraft", [level] * players, f"{seed}:{i}", start=i % players)
        decisions += sum(1 for seat, _ in record.moves if seat >= 0)
        sheet = state.sheets[0]
        scores.append(state.scores()[0])
        for k, v in enumerate(sheet.zone_scores()):
            zones[k] += v / games
        runes += sheet.runes / games
        final = sheet.zone_scores()
        lowest += min(final) / games
        lowest_zone[final.index(min(final))] += 1
        for k, v in enumerate(sheet.stock):
            left[k] += v / games
    elapsed = time.perf_counter() - started
    mean = sum(scores) / games
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / games)
    return {"level": level, "games": games, "seed": seed, "mean": round(mean, 2), "sd": round(sd, 2),
            "zones": {z: round(v, 1) for z, v in zip(ZONES, zones)}, "runes": round(runes, 2),
            "lowest_zone": round(lowest, 1), "lowest_is": dict(zip(ZONES, lowest_zone)),
            "leftover_actions": [round(v, 2) for v in left], "seconds": round(elapsed, 1),
            "ms_per_decision": round(1000 * elapsed / max(1, decisions), 2), "scores": scores}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--set", default="", help="weights of ai.W to change, KEY=VALUE,...")
    parser.add_argument("--scores", action="store_true", help="also print every game's score (paired comparisons)")
    args = parser.parse_args()
    for item in filter(None, args.set.split(",")):
        key, _, number = item.partition("=")
        if key not in ai.W:
            raise SystemExit(f"no weight {key!r} in ai.W")
        ai.W[key] = float(number)
    for level in args.levels.split(","):
        result = run(level, args.games, args.seed)
        if not args.scores:
            del result["scores"]
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
