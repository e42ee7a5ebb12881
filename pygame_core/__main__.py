"""Command line: `python -m pygame_core simulate|replay|<game command> …` (benchmarks and checks use it).

    simulate GAME --players N --games G --seed S --ai LEVEL[,LEVEL…] [--jobs J]   AI-vs-AI games, one JSON object
    replay GAME FILE                                                  a record's final state
    <command> GAME …                                                   a command the game declares
                                                                      (e.g. `solve GAME`, `advise GAME FILE`)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from .ai import self_play
from .record import Record, RecordError
from .registry import entries, get_entry


def seat_levels(game: str, players: int, ai: str | None) -> list[str]:
    """One AI level per seat from `--ai a,b,…` (a single level plays every seat)."""
    entry = get_entry(game)
    names = [name.strip() for name in (ai or entry.default_level).split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"--ai names {len(names)} levels for {players} seats")
    for name in names:
        if name not in entry.ai_levels:
            raise ValueError(f"no AI level {name!r} for {game}; known: {', '.join(entry.ai_levels)}")
    return names


def one_game(task: tuple) -> tuple[int, list, list]:
    """Game `index` of a simulation: (moves, scores, winners). Seeded by (seed, index) alone, so a
    simulation gives the same games whether it runs in one process or several."""
    game, levels, seed, index, players = task
    record, state = self_play(game, levels, f"{seed}:{index}", start=index % players)
    places = state.ranking()
    return len(record.moves), state.scores(), [seat for seat, place in enumerate(places) if place == 1]


def simulate(game: str, players: int, games: int, seed: int, ai: str | None = None, jobs: int = 1) -> dict:
    """AI-vs-AI games (start seat rotating); per-seat mean scores, win shares (ties split), speed.
    `jobs` > 1 plays the games in that many processes (the same games, the same result; AI
    levels with a time budget may think less per move on a busy machine)."""
    entry = get_entry(game)
    entry.rules.check_options({"players": players})
    levels = seat_levels(game, players, ai)
    totals = [0.0] * players
    squares = [0.0] * players
    wins = [0.0] * players
    moves = 0
    started = time.perf_counter()
    tasks = [(game, levels, seed, index, players) for index in range(games)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(jobs) as pool:
            results = list(pool.imap(one_game, tasks, chunksize=1))
    else:
        results = map(one_game, tasks)
    for count, scores, winners in results:
        moves += count
        for seat in range(players):
            totals[seat] += scores[seat]
            squares[seat] += scores[seat] ** 2
            if seat in winners:
                wins[seat] += 1 / len(winners)
    elapsed = time.perf_counter() - started
    means = [t / games for t in totals]
    sds = [math.sqrt(max(0.0, sq / games - m * m)) for sq, m in zip(squares, means)]
    by_level: dict[str, float] = {}
    for seat, level in enumerate(levels):
        by_level[level] = by_level.get(level, 0.0) + wins[seat] / games
    return {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "ai": levels,
        "mean_scores": [round(m, 4) for m in means],
        "stdev_scores": [round(s, 4) for s in sds],
        "win_shares": [round(w / games, 4) for w in wins],
        "win_shares_by_level": {level: round(share, 4) for level, share in by_level.items()},
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


def game_commands() -> dict[str, list[str]]:
    """Commands games declare: name -> the games offering it."""
    out: dict[str, list[str]] = {}
    for name, entry in entries().items():
        for command in entry.cli_commands:
            out.setdefault(command, []).append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    games = list(entries())
    extra = game_commands()
    parser = argparse.ArgumentParser(prog="python -m pygame_core", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="AI vs AI games; prints one JSON object")
    sim.add_argument("game", choices=games)
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--ai", default=None, help="AI level, or one per seat: hard,greedy (default: the strongest)")
    sim.add_argument("--jobs", type=int, default=1, help="processes to play the games in (same result)")
    rep = sub.add_parser("replay", help="print a record's final state as JSON")
    rep.add_argument("game", choices=games)
    rep.add_argument("file")
    for command, offered in extra.items():
        # Parsed in two steps: the game named after the command adds its own arguments.
        game_parser = sub.add_parser(command, help=f"offered by: {', '.join(offered)}")
        game_parser.add_argument("game", choices=offered)
        game_parser.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    try:
        if args.command == "simulate":
            result = simulate(args.game, args.players, args.games, args.seed, args.ai, max(1, args.jobs))
        elif args.command == "replay":
            result = replay(args.game, args.file)
        else:
            add_arguments, run = get_entry(args.game).cli_commands[args.command]
            game_parser = argparse.ArgumentParser(prog=f"python -m pygame_core {args.command} {args.game}")
            add_arguments(game_parser)
            result = run(game_parser.parse_args(args.rest))
    except (RecordError, KeyError, OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
