"""Paired screening of RollCraft T8 AI variants on synchronised dice (solo).

    nice -n 19 python bench/rollcraft_paired.py --games 100 --seed s --set reroll_margin=2 --out /tmp/a.json
    python bench/rollcraft_paired.py --compare /tmp/base.json /tmp/a.json

Why: `bench/rollcraft_levels.py` pairs two variants on the same dice seed, but its dice come from
one stream, so the first decision that rolls a different number of dice gives the rest of the game
other dice, and the paired difference is nearly as noisy as two independent games (sd ~40). Here
every die's value is a function of (game seed, round, kind of throw, regular rolls so far, how
many throws of that kind came before in the same slot, die colour): two variants that throw the
same colour in the same slot see the same number, so a paired difference measures mostly the
decisions. The solo tie-break (R6.5) is keyed by its slot the same way.

A variant is a set of `ai.W` weights (`--set KEY=VALUE,...`), `--lin-delta I=D,...` (add D to
`ai.LIN_FIT[I]`), `--const NAME=VALUE,...` (module constants of ai, e.g. PREPARE_DEPTH=1) and/or
`--const-file F` (a JSON object of ai's constants, e.g. a refit's LIN_FIT, LOW_FIT and ZONE_CAL).
Scores go to `--out` as JSON (per-game scores, zone means); `--compare BASE OTHER...` prints the
paired differences. Results: bench/rollcraft_results.md (2026-12-03 night)."""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.ai import choose_move  # noqa: E402
from pygame_core.match import Match  # noqa: E402
from pygame_core.protocol import CHANCE  # noqa: E402
from pygame_core.games.rollcraft import ai  # noqa: E402
from pygame_core.games.rollcraft.rules import SOLO_TIE  # noqa: E402


class SyncDice:
    """Dice keyed by their slot in the game, not by how many dice came before."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.seen: dict = {}

    def roll(self, state) -> str:
        sides = state.chance()
        slot = (state.round, state.phase, state.rolls)
        n = self.seen.get(slot, 0)
        self.seen[slot] = n + 1
        if state.phase == SOLO_TIE:
            return state.chance_move([random.Random(f"{self.seed}|{slot}|{n}|tie").randint(1, sides[0])])
        values = [random.Random(f"{self.seed}|{slot}|{n}|{die}").randint(1, 8) for die in state.rolling_dice()]
        return state.chance_move(values)


def game(level: str, seed: str):
    match = Match.new("rollcraft", {"players": 1, "start": 0})
    state, dice, rng = match.state, SyncDice(f"dice:{seed}"), random.Random(f"ai:{seed}")
    while not state.is_terminal():
        if state.is_chance():
            seat, move = CHANCE, dice.roll(state)
        else:
            seat = state.current_players()[0]
            move = choose_move(state, seat, level, rng)
        match.submit(seat, move, match.index)
        state = match.state
    return state


def run(args) -> dict:
    for item in filter(None, args.set.split(",")):
        key, _, number = item.partition("=")
        if key not in ai.W:
            raise SystemExit(f"no weight {key!r} in ai.W")
        ai.W[key] = float(number)
    for item in filter(None, args.const.split(",")):
        name, _, number = item.partition("=")
        setattr(ai, name, type(getattr(ai, name))(number))
    if args.const_file:  # e.g. a refit: {"LIN_FIT": [...], "LOW_FIT": [...], "ZONE_CAL": [[...], ...]}
        for name, number in json.loads(Path(args.const_file).read_text()).items():
            getattr(ai, name)  # only names ai has
            setattr(ai, name, tuple(tuple(x) if isinstance(x, list) else x for x in number)
                    if isinstance(number, list) else number)
    if args.lin_delta:
        fit = list(ai.LIN_FIT)
        for item in args.lin_delta.split(","):
            i, _, d = item.partition("=")
            fit[int(i)] += float(d)
        ai.LIN_FIT = tuple(fit)
    ai._LIN_TERMS = tuple(zip(ai.LIN_FIT[2:10], ai.LIN_FIT[10:18]))  # ai pairs LIN_FIT's weights at import
    scores, zones, runes = [], [0.0] * 5, 0.0
    for i in range(args.start, args.start + args.games):
        state = game(args.level, f"{args.seed}:{i}")
        sheet = state.sheets[0]
        scores.append(state.scores()[0])
        zones = [z + v for z, v in zip(zones, sheet.zone_scores())]
        runes += sheet.runes
    n = len(scores)
    return {"set": args.set, "lin_delta": args.lin_delta, "const": args.const, "const_file": args.const_file,
            "seed": args.seed, "start": args.start, "mean": round(sum(scores) / n, 2), "zones": [round(z / n, 1) for z in zones],
            "runes": round(runes / n, 2), "scores": scores}


def compare(base_path: str, paths: list[str]) -> None:
    base = json.load(open(base_path))
    for path in paths:
        other = json.load(open(path))
        assert other["seed"] == base["seed"] and other["start"] == base["start"], "not the same games"
        d = [b - a for a, b in zip(base["scores"], other["scores"])]
        n = len(d)
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
        print(f"{path}: {other['mean']} vs {base['mean']} over {n}: diff {mean:+.2f} ± {sd / math.sqrt(n):.2f} "
              f"(paired sd {sd:.1f}); zones {other['zones']} vs {base['zones']}, "
              f"runes {other['runes']} vs {base['runes']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", default="s")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--set", default="")
    parser.add_argument("--lin-delta", default="")
    parser.add_argument("--const", default="", help="module constants of ai to change, NAME=VALUE,...")
    parser.add_argument("--const-file", help="JSON of ai's constants to replace (a refit's LIN_FIT, LOW_FIT, ZONE_CAL)")
    parser.add_argument("--out")
    parser.add_argument("--compare", nargs="+")
    args = parser.parse_args()
    if args.compare:
        compare(args.compare[0], args.compare[1:])
        return
    result = run(args)
    text = json.dumps(result)
    if args.out:
        Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
