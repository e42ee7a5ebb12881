"""Where a Rolf level's edge over greedy comes from, measured on the dice of the acceptance run.

    python bench/rolf_vs_greedy.py [--level hard] [--games 300] [--seed 1] [--spread 0]

Plays `level` against greedy on exactly the games of
`python -m pygame_core simulate rolf --players 2 --games G --ai LEVEL,greedy --seed S` (the same
dice per game, the start seat alternating), and greedy against greedy on the same dice (the
*mirror*: what seat 0 wins by luck alone). Prints one JSON object with:

- the level's win share and its standard error, and the mirror's;
- the games whose outcome the level changed against the mirror (won where the mirror lost, lost
  where it won): the level's whole edge lives in these;
- how the games ended (100 points, full diagonal, board full), split by won and lost;
- with `--spread N`: over the first N games, the level's own view of its decisions (hard's search
  of every plan of every throw with a real choice): decisions per game, how often the best plan is
  greedy's, the estimated win chance the best plan adds over greedy's plan and over the worst plan.

Why: hard, medium and greedy rollouts all end near 0.6 against greedy; this shows how much the
decisions can matter at all (the dice decide most games) before effort goes into the evaluation.
The run `--games 300 --seed 1 --spread 100` (235 s): hard 0.5967 ± 0.0283, mirror 0.5067; hard won
36 games the mirror lost and lost 9 it won (net +27 of 300; 70 % would need about +58); 297 games
ended at 100 points, 3 on the diagonal, none with the board full. Hard's 7.35 real decisions a game
pick greedy's plan 66 % of the time; by its own estimate the best plan adds 0.9 % a decision over
greedy's (6.6 % a game) and 3.6 % over the worst plan. Playing each plan out against greedy on
fresh dice instead of estimating it (`bench/rolf_rollouts.py`) lands at the same place: 0.590.
Nor do an evaluation refitted on games against greedy, an exact model of greedy's reply or a second
ply of search (`bench/rolf_hard_variants.py`, seed 11: 0.577, 0.583 and +1 game of 80, against
0.577 for hard as it is).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.ai import choose_move, self_play  # noqa: E402
from pygame_core.games.rolf import ai as rolf_ai  # noqa: E402
from pygame_core.games.rolf.board import DIAGONAL  # noqa: E402
from pygame_core.match import Match  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402


def play(levels: list[str], seed: int, index: int):
    """Game `index` as `simulate` plays it: (seat 0's win share, how it ended)."""
    rolf_ai.clear_cache()
    _, state = self_play("rolf", levels, f"{seed}:{index}", start=index % 2)
    places = state.ranking()
    share = 1.0 / places.count(1) if places[0] == 1 else 0.0
    if state.winner is None:
        end = "board_full"
    elif state.owners[state.winner] & DIAGONAL == DIAGONAL:
        end = "diagonal"
    else:
        end = "points_100"
    return share, end


def spread(level: str, games: int, seed: int) -> dict:
    """The search's own estimate of what seat 0's decisions are worth (see the module notes)."""
    over_greedy, over_worst, same, decisions = [], [], 0, 0
    for index in range(games):
        match = Match.new("rolf", {"players": 2, "start": index % 2})
        roller, rng = DiceRoller(f"dice:{seed}:{index}"), random.Random(f"ai:{seed}:{index}")
        levels = [level, "greedy"]
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                match.submit(CHANCE, roller.roll(state), match.index)
                continue
            seat = state.current_player()
            if seat == 0 and state.placements_left() and not state.chosen and rolf_ai.forced(state, seat) is None:
                ranked = rolf_ai.search(state, seat, budget=float("inf"), top=sys.maxsize)
                values = {frozenset(plan): value for value, plan in ranked}
                greedy = frozenset(rolf_ai.greedy_plan(state, seat, 0.0))
                if greedy in values:  # (three of a kind: the beam may not hold greedy's plan)
                    decisions += 1
                    over_greedy.append(ranked[0][0] - values[greedy])
                    over_worst.append(ranked[0][0] - ranked[-1][0])
                    same += frozenset(ranked[0][1]) == greedy
            match.submit(seat, choose_move(state, seat, levels[seat], rng), match.index)
    return {"games": games, "decisions_per_game": round(decisions / games, 2),
            "best_is_greedy_plan": round(same / decisions, 3),
            "mean_gain_over_greedy_plan": round(statistics.mean(over_greedy), 4),
            "gain_over_greedy_plan_per_game": round(sum(over_greedy) / games, 4),
            "mean_best_minus_worst": round(statistics.mean(over_worst), 4)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spread", type=int, default=0, help="games for the decision-spread analysis")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    shares, mirror, ends = [], [], {}
    for index in range(args.games):
        share, end = play([args.level, "greedy"], args.seed, index)
        shares.append(share)
        mirror.append(play(["greedy", "greedy"], args.seed, index)[0])
        key = ("won_" if share == 1 else "lost_" if share == 0 else "shared_") + end
        ends[key] = ends.get(key, 0) + 1
    n = args.games
    win = sum(shares) / n
    out = {"level": args.level, "games": n, "seed": args.seed,
           "win_share": round(win, 4), "standard_error": round((win * (1 - win) / n) ** 0.5, 4),
           "mirror_win_share": round(sum(mirror) / n, 4),
           "won_where_mirror_lost": sum(s > m for s, m in zip(shares, mirror)),
           "lost_where_mirror_won": sum(s < m for s, m in zip(shares, mirror)),
           "endings": dict(sorted(ends.items()))}
    if args.spread:
        out["spread"] = spread(args.level, args.spread, args.seed)
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
