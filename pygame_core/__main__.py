"""Command line: `python -m pygame_core simulate|replay …` (benchmarks and checks use it)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from .ai import default_level, self_play
from .record import Record, RecordError
from .registry import GAMES, get_game


def simulate(game: str, players: int, games: int, seed: int, level: str | None) -> dict:
    """AI-vs-AI games; mean scores, win shares (ties split) and moves per second."""
    get_game(game).check_options({"players": players})
    level = level or default_level(game)
    totals = [0.0] * players
    squares = [0.0] * players
    wins = [0.0] * players
    moves = 0
    started = time.perf_counter()
    for index in range(games):
        record, state = self_play(game, [level] * players, f"{seed}:{index}", start=index % players)
        moves += len(record.moves)
        scores = state.scores()
        places = state.ranking()
        winners = [seat for seat, place in enumerate(places) if place == 1]
        for seat in range(players):
            totals[seat] += scores[seat]
            squares[seat] += scores[seat] ** 2
            if seat in winners:
                wins[seat] += 1 / len(winners)
    elapsed = time.perf_counter() - started
    means = [t / games for t in totals]
    sds = [math.sqrt(max(0.0, sq / games - m * m)) for sq, m in zip(squares, means)]
    return {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "ai": level,
        "mean_scores": [round(m, 4) for m in means],
        "stdev_scores": [round(s, 4) for s in sds],
        "win_shares": [round(w / games, 4) for w in wins],
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1) if elapsed else None,
        "seconds": round(elapsed, 3),
    }


def replay(game: str, path: str) -> dict:
    """The final state of a record file, with scores and places."""
    with open(path, encoding="utf-8") as handle:
        record = Record.loads(handle.read())
    if record.game != game:
        raise RecordError("record.wrong_game", f"This record is for {record.game}, not {game}.")
    state = record.replay()
    return {"state": state.to_json(), "scores": state.scores(), "places": state.ranking(), "terminal": state.is_terminal()}


# Extra subcommands registered by game modules: name -> (add_arguments, run(args) -> dict)
EXTRA_COMMANDS: dict = {}


def _register_extra_commands() -> None:
    from .games import penta_solver  # solve penta, advise penta

    EXTRA_COMMANDS.update(penta_solver.CLI_COMMANDS)


_register_extra_commands()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pygame_core", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="AI vs AI games; prints one JSON object")
    sim.add_argument("game", choices=sorted(GAMES))
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--ai", default=None, help="AI level (default: the strongest)")
    rep = sub.add_parser("replay", help="print a record's final state as JSON")
    rep.add_argument("game", choices=sorted(GAMES))
    rep.add_argument("file")
    for name, (add_arguments, _run) in EXTRA_COMMANDS.items():
        add_arguments(sub.add_parser(name))
    args = parser.parse_args(argv)
    try:
        if args.command == "simulate":
            result = simulate(args.game, args.players, args.games, args.seed, args.ai)
        elif args.command == "replay":
            result = replay(args.game, args.file)
        else:
            result = EXTRA_COMMANDS[args.command][1](args)
    except (RecordError, KeyError, OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
