"""Self-play positions of a RollCraft T8 AI level for fitting a learnt correction of the evaluation.

    nice -n 19 python bench/rollcraft_fit_collect.py --games 120 --seed fit --level hard --out /tmp/fit.jsonl
Plays solo games (seeds "S:i", as bench/rollcraft_levels.py) and writes one JSON line per game:
every position where the seat is to move (its sheet, round, phase, `ai.rounds_left`,
`ai.placements_left`) and the final sheet and score. Fit with bench/rollcraft_fit.py. Use seeds
other than the ones the variants are measured on.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import choose_move  # noqa: E402
from pygame_core.match import Match  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.rng import DiceRoller  # noqa: E402
from pygame_core.games.rollcraft import ai  # noqa: E402

import random  # noqa: E402


def game(level: str, seed: str) -> dict:
    match = Match.new("rollcraft", {"players": 1, "start": 0})
    state = match.state
    roller, rng = DiceRoller(f"dice:{seed}"), random.Random(f"ai:{seed}")
    positions, last = [], None
    while not state.is_terminal():
        if state.is_chance():
            who, move = CHANCE, roller.roll(state)
        else:
            who = state.current_players()[0]
            sheet = state.sheets[0].to_json()
            key = json.dumps(sheet, sort_keys=True)
            if key != last and not state.sheets[0].pending:
                positions.append({"round": state.round, "phase": state.phase, "rolls": state.rolls,
                                  "rounds_left": ai.rounds_left(state), "left": ai.placements_left(state),
                                  "sheet": sheet})
                last = key
            move = choose_move(state, who, level, rng)
        match.submit(who, move, match.index)
        state = match.state
    return {"seed": seed, "positions": positions, "final": state.sheets[0].to_json(),
            "total": state.scores()[0]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="fit")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.out, "a") as out:
        for i in range(args.start, args.start + args.games):
            out.write(json.dumps(game(args.level, f"{args.seed}:{i}")) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
