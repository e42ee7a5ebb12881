"""How far a Rolf player's decisions can move its win share against greedy (issue 10: hard ≥ 70 %).

    python bench/rolf_decision_range.py [--games 2000] [--seed 21] [--levels-only]

Two measurements, each a level against greedy on the dice of
`python -m pygame_core simulate rolf --players 2 --games G --ai LEVEL,greedy --seed S` (start seat
alternating), printed as one JSON line each:

1. the levels from the weakest up: random (any legal square), greedy itself (the mirror: seat 0's
   luck), easy and medium. Random's distance below 0.5 is what all of greedy's decisions are worth
   against greedy.
2. the landscape of medium's evaluation (the chance to win that hard's search also uses): each of
   its six two-seat weights in turn set to 0 and doubled, the others as in ai.py. A search for
   better weights needs the win share to rise somewhere; a flat landscape says the evaluation's
   weights are not what holds the level near 0.6.

Why: hard wins 0.597 of the acceptance games, and every stronger search tried since (rollouts
against the real greedy, a second ply, exact replies, refitted or richer evaluations; see
rolf_vs_greedy.py, rolf_rollouts.py and rolf_hard_variants.py) landed at 0.58–0.61.

Measured on 2026-12-03 (CPython 3.11, `--games 2000 --seed 21`, 11 min; standard error ≈ 0.011):

| level against greedy | win share |
|---|---|
| random (any legal square) | 0.4085 |
| greedy (the mirror) | 0.4905 |
| easy (greedy + the points a steal takes from its victim) | 0.5705 |
| medium (the plan with the best estimated chance to win) | 0.576 |
| hard (the acceptance run: 300 games, seed 1) | 0.597 |
| medium, W_TOTAL ×0 / ×2 | 0.550 / 0.577 |
| medium, W_GAIN ×0 / ×2 | 0.576 / 0.5755 |
| medium, W_DAMAGE ×0 / ×2 | 0.5775 / 0.577 |
| medium, W_MOVER ×0 / ×2 | 0.576 / 0.576 |
| medium, W_WIN_NEXT ×0 / ×2 | 0.5755 / 0.5775 |
| medium, W_WIN_EITHER ×0 / ×2 | 0.5755 / 0.5755 |

- All of greedy's decisions are worth 0.08 against greedy: a player choosing its squares at random
  still wins 0.41. Counting a steal's damage (easy) is worth as much again; medium's evaluation
  and hard's search add 0.005 and 0.03 on top.
- The landscape is flat: eleven of the twelve changes stay within 0.002 of medium (inside the
  standard error); only dropping the points lead costs (0.55).
- Reaching 0.70 would take decisions worth 0.20 over greedy's: two and a half times what greedy's
  own are worth over random ones. (A one-off coordinate search over the same weights plus three
  more features — diagonal squares, the largest group, the worst cut a steal could make — on
  1500 games a setting, eleven settings stayed within 0.561–0.573.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.ai import self_play  # noqa: E402
from pygame_core.games.rolf import ai as rolf_ai  # noqa: E402

WEIGHTS = ("W_TOTAL", "W_GAIN", "W_DAMAGE", "W_MOVER", "W_WIN_NEXT", "W_WIN_EITHER")


def win_share(level: str, games: int, seed: int) -> float:
    """Seat 0's win share (a shared win counts its share) with `level` against greedy."""
    total = 0.0
    for index in range(games):
        rolf_ai.clear_cache()
        _, state = self_play("rolf", [level, "greedy"], f"{seed}:{index}", start=index % 2)
        places = state.ranking()
        total += 1.0 / places.count(1) if places[0] == 1 else 0.0
    return total / games


def report(label: str, share: float, games: int, started: float) -> None:
    se = (share * (1 - share) / games) ** 0.5
    print(json.dumps({"variant": label, "games": games, "win_share": round(share, 4), "standard_error": round(se, 4),
                      "seconds": round(time.perf_counter() - started, 1)}), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--levels-only", action="store_true")
    args = parser.parse_args(argv)
    for level in ("random", "greedy", "easy", "medium"):
        started = time.perf_counter()
        report(level, win_share(level, args.games, args.seed), args.games, started)
    if args.levels_only:
        return 0
    for name in WEIGHTS:
        kept = getattr(rolf_ai, name)
        for factor in (0.0, 2.0):
            setattr(rolf_ai, name, kept * factor)  # win_chance reads the module's weights per call
            started = time.perf_counter()
            try:
                share = win_share("medium", args.games, args.seed)
            finally:
                setattr(rolf_ai, name, kept)
            report(f"medium, {name} x{factor:g}", share, args.games, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
